/*
 * cap_tramp.S - values mode return trampoline (x86-64): cap_ret_tramp, where
 * functions hooked by __fentry__ (cap_fentry.S, cap_values.c) return to
 * instead of their caller. Its C halves (cap_fexit_fast, cap_fexit_slow,
 * and the personality routine of its unwind entry) are in cap_shadow.c,
 * below it in capture/STAGES; the entry side above names it.
 *
 * cap_ret_tramp is reached by the function's ret, so rsp = slot + 8 and the
 * return value is in rax, rdx (and xmm0, xmm1, st0 for floating point
 * returns: the C halves use no x87 and the slow half runs with xmm0/xmm1
 * saved). The stack is not always 16-byte aligned there, so it realigns it
 * through rbp. It hands rax, rsp and xmm0's low 8 bytes to C, gets the real return address
 * back and jumps there with every return register as the function left it
 * and the other argument registers (rdi rsi rcx r8 r9 r10) zeroed: else
 * the caller's next call would pass our buffer pointers and clock
 * readings in its unused argument registers, different in every run and
 * costly to record. They are dead after a return (psABI: the caller saves
 * them; gcc keeps nothing in them across a call as long as IPA register
 * allocation is off, which values mode's flags see to: -fno-ipa-ra,
 * capture/VALUES.md), so zeroing is as good as the values the function
 * left, which cost six pushes and six pops to keep.
 *
 * The usual EXIT is written here without a call: the top shadow entry is
 * the slot returned from (no tail call on it), the thread has room in a
 * values chunk, is not busy, has the sparse or lazy clock (format 1.8:
 * an untimed EXIT sets ux, a clock read clears it), and the function is in
 * the chunk's function cache (at the slot the ENTER kept in the shadow
 * entry, cslot: no hash here). cap_exit_reads' choice is made here too: an
 * EXIT that reads the clock (a big call, a run of untimed ones, a young
 * thread: TIMED; a sample drawn: SAMPLE; the warm-up and the draw are
 * looked at only when skip is 0 or 1, as in cap_exit_rare) gets its prefix and time delta,
 * rax and rdx kept in dead registers around rdtsc (out of line). It needs
 * only the registers that are dead after a return (rdi rsi rcx r8 r9 r10
 * r11), so nothing is saved. It sets busy
 * first (once it saw it clear) and reads the thread's state only then: a
 * signal handler that ran before (and maybe forked) has left its records
 * and its state behind it, one that comes after drops its calls. It tests
 * all of that before it writes; any other EXIT goes the C way
 * (cap_fexit_fast, which tests it all again, then cap_fexit_slow). The
 * record and the state are exactly what cap_fexit_fast's put_exit writes
 * (tests/e2e/values_tramp.sh checks the values, values_fentry_asm.sh
 * which EXITs read the clock against the C way's), with the C state read by
 * the offsets of cap_layout.h, which cap_shadow.c checks at compile time.
 */
#if defined(__x86_64__) && defined(__linux__)

#include "cap_layout.h"
#include "cap_asm.h"

        .text

/* An unwinder reaching a hooked frame's return address (cap_ret_tramp - 1
 * falls on the nop) sees a frame with no stack of its own (CFA = rsp,
 * the slot + 8) whose return address is back in the slot. Before it reads
 * that, it calls this frame's personality routine, which puts the real
 * return addresses back in every live hooked frame (cap_shadow.c): so
 * exceptions and pthread_cancel's forced unwind (which glibc runs past
 * libttcap's _Unwind_* interposers) walk on through the real callers. A
 * walker that calls no personality (backtrace(), gdb) finds the
 * trampoline again at the same CFA and stops there. Inside the trampoline
 * (a signal there) the frame is the outermost. */
        .globl  cap_ret_tramp
        .hidden cap_ret_tramp
        .type   cap_ret_tramp, @function
        .p2align 4
        .cfi_startproc
        .cfi_personality 0x1b, cap_tramp_personality
        .cfi_def_cfa rsp, 0
        .cfi_offset rip, -8
        nop                             /* a return address - 1 stays inside */
cap_ret_tramp:
        .cfi_undefined rip
        movq    cap_tls@gottpoff(%rip), %r11
        cmpb    $0, %fs:CAPL_T_FLAGS(%r11)      /* the flags byte by byte, */
        jne     .Lc                     /* as they are stored: a wider */
                                        /* load would wait for the last */
                                        /* hook's store */
        movb    $CAPL_BUSY_HOT, %fs:CAPL_T_FLAGS(%r11)  /* busy, then all */
        testb   $CAPL_TIMED_SPARSE, %fs:CAPL_T_FLAGS+1(%r11) /* read (a */
        jz      .Lu                     /* signal handler may have run */
        cmpb    $CAPL_VALS_ON, %fs:CAPL_T_FLAGS+3(%r11) /* before, and */
        jne     .Lu                     /* forked): sparse or lazy, values */
        cmpl    $0, cap_on(%rip)
        je      .Lu
        cmpl    $0, cap_fexit_c(%rip)    /* tests: the C way */
        jne     .Lu
        movq    cap_sh@gottpoff(%rip), %r10
        movl    %fs:CAPL_SH_N(%r10), %ecx
        testl   %ecx, %ecx
        jz      .Lu
        movq    %fs:CAPL_SH_E(%r10), %rdi
        shlq    $5, %rcx                /* CAPL_SHENT_SIZE */
        leaq    -CAPL_SHENT_SIZE(%rdi,%rcx), %rdi       /* the top entry */
        leaq    -8(%rsp), %rsi          /* the slot returned from */
        cmpq    %rsi, CAPL_SHENT_SLOT(%rdi)
        jne     .Lu
        cmpq    %rsi, CAPL_SHENT_SLOT-CAPL_SHENT_SIZE(%rdi)
        je      .Lu                     /* a tail call: the C way */
        movq    %fs:CAPL_T_POS(%r11), %r8
        cmpq    %fs:CAPL_T_LIMIT(%r11), %r8
        jae     .Lu
        movq    CAPL_SHENT_FN(%rdi), %rcx
        movl    CAPL_SHENT_CSLOT(%rdi), %esi    /* its slot, kept by the ENTER */
        cmpq    %rcx, %fs:CAPL_T_CACHE(%r11,%rsi,8)
        jne     .Lu                     /* a cache miss */
        movq    CAPL_SHENT_RET(%rdi), %rdi      /* all tested: write */
        orl     $CAPL_EXIT_HIT, %esi    /* the tag, stored last */
        leaq    1(%r8), %r9
        movl    %fs:CAPL_T_DEPTH(%r11), %ecx    /* cap_exit_reads: the */
        subl    $1, %ecx                /* events since the frame's ENTER */
        andl    $CAPL_EVAT_MASK, %ecx
        movzwl  %fs:CAPL_T_EV(%r11), %r10d
        subw    %fs:CAPL_T_EVAT(%r11,%rcx,2), %r10w
        addw    $1, %fs:CAPL_T_EV(%r11)
        cmpw    $CAPL_BIG_CALL, %r10w
        jae     .Ltimed                 /* a big call */
        cmpb    $CAPL_UNTIMED_RUN, %fs:CAPL_T_SINCE(%r11)
        jae     .Ltimed                 /* too many untimed in a row */
        cmpb    $1, %fs:CAPL_T_SKIP(%r11)
        jbe     .Lskip                  /* a sample, or skip 0 (cap_exit_rare) */
        subb    $1, %fs:CAPL_T_SKIP(%r11)
.Luntimed:
        addb    $1, %fs:CAPL_T_SINCE(%r11)
        movzbl  %fs:CAPL_T_FLAGS+1(%r11), %ecx  /* lazy (3): the next */
        andl    $1, %ecx                /* ENTER goes untimed (ux); */
        movb    %cl, %fs:CAPL_T_UX(%r11)        /* sparse (2): not */
.Lvals:
        leaq    (%rax,%rax), %rcx       /* svar rax */
        movq    %rax, %r10
        sarq    $63, %r10
        xorq    %r10, %rcx
        PUT_UVAR %rcx, %ecx, %cl, %r9, %r10d, %r10b
        movq    %fs:CAPL_T_SITES(%r11), %r10
        movq    %xmm0, %rcx             /* uvar bswap64(xmm0 ^ xret) */
        xorq    CAPL_XS_RET(%r10), %rcx
        movq    %xmm0, CAPL_XS_RET(%r10)
        bswapq  %rcx
        PUT_UVAR %rcx, %ecx, %cl, %r9, %r10d, %r10b
        movb    %sil, (%r8)             /* commit: the tag, then pos */
        movq    %r9, %fs:CAPL_T_POS(%r11)
        subl    $1, %fs:CAPL_T_DEPTH(%r11)
        movq    cap_sh@gottpoff(%rip), %r10
        subl    $1, %fs:CAPL_SH_N(%r10)
        movb    $0, %fs:CAPL_T_FLAGS(%r11)
        movq    %rdi, %r11
        xorl    %edi, %edi
        xorl    %esi, %esi
        xorl    %ecx, %ecx
        xorl    %r8d, %r8d
        xorl    %r9d, %r9d
        xorl    %r10d, %r10d
        jmp     *%r11
.Ltimed:                                /* TIMED: the clock read (and */
        cmpw    $CAPL_WARM, %fs:CAPL_T_WARM(%r11)       /* a young thread's */
        jae     1f                      /* count of them) */
        addw    $1, %fs:CAPL_T_WARM(%r11)
1:      movl    $CAPL_TIMED, %ecx
        jmp     .Lclock
.Lskip:                                 /* cap_exit_rare: skip 1 (ZF): */
        je      .Lsample                /* a SAMPLE; skip 0: a young */
        cmpw    $CAPL_WARM, %fs:CAPL_T_WARM(%r11)       /* thread's TIMED, */
        jb      .Ltimed                 /* else the countdown starts */
        movb    $255, %fs:CAPL_T_SKIP(%r11)     /* (255) and this EXIT */
        jmp     .Luntimed               /* goes untimed */
.Lsample:                               /* SAMPLE: the next gap drawn */
        imull   $1664525, %fs:CAPL_T_RNG(%r11), %ecx
        addl    $1013904223, %ecx
        movl    %ecx, %fs:CAPL_T_RNG(%r11)
        shrl    $CAPL_SAMPLE_SHIFT, %ecx
        addl    $1, %ecx
        movb    %cl, %fs:CAPL_T_SKIP(%r11)
        movl    $CAPL_SAMPLE, %ecx
.Lclock:                                /* the prefix (ecx) at p, committed */
        movb    %sil, (%r9)             /* last; the EXIT's tag after it */
        movl    %ecx, %esi
        movq    %rax, %r10              /* rax, rdx: the function's */
        movq    %rdx, %rcx
        rdtsc
        shlq    $32, %rdx
        orq     %rax, %rdx
        movq    %r10, %rax
        xchgq   %rdx, %rcx              /* rcx: now */
        xorl    %r10d, %r10d            /* cap_put_t_at: never negative */
        subq    %fs:CAPL_T_TSC(%r11), %rcx
        cmovbq  %r10, %rcx
        addq    %rcx, %fs:CAPL_T_TSC(%r11)
        movb    $0, %fs:CAPL_T_SINCE(%r11)
        movb    $0, %fs:CAPL_T_UX(%r11) /* a clock read: ux cleared */
        addq    $1, %r9
        PUT_UVAR %rcx, %ecx, %cl, %r9, %r10d, %r10b
        jmp     .Lvals
.Lu:
        movb    $0, %fs:CAPL_T_FLAGS(%r11)      /* not busy after all */
.Lc:                                    /* the C way */
        pushq   %rax
        pushq   %rdx
        pushq   %rbp
        movq    %rsp, %rbp              /* rbp+24: rsp after the function's ret */
        andq    $-16, %rsp
        movq    %rax, %rdi              /* the return value */
        leaq    24(%rbp), %rsi
        movq    %xmm0, %rdx             /* and a float or double one */
        call    cap_fexit_fast          /* rax = real return, rdx = slow */
        testq   %rdx, %rdx
        jnz     2f
1:
        movq    %rax, %r11
        xorl    %edi, %edi              /* the scratch argument registers: */
        xorl    %esi, %esi              /* zero, the same in every run */
        xorl    %ecx, %ecx
        xorl    %r8d, %r8d
        xorl    %r9d, %r9d
        xorl    %r10d, %r10d
        movq    %rbp, %rsp
        popq    %rbp
        popq    %rdx
        popq    %rax
        jmp     *%r11
2:
        subq    $32, %rsp
        movaps  %xmm0, 0(%rsp)
        movaps  %xmm1, 16(%rsp)
        movq    16(%rbp), %rdi          /* the saved rax */
        leaq    24(%rbp), %rsi
        movq    %xmm0, %rdx
        call    cap_fexit_slow          /* rax = real return */
        movaps  0(%rsp), %xmm0
        movaps  16(%rsp), %xmm1
        addq    $32, %rsp
        jmp     1b
        .cfi_endproc
        .size   cap_ret_tramp, .-cap_ret_tramp

#endif
        .section .note.GNU-stack,"",@progbits
