/*
 * cap_fentry.S - values mode entry points (x86-64): __fentry__, called as
 * the first instruction of every function compiled with -pg -mfentry, and
 * makecontext. The C halves are in cap_values.c; the return trampoline the
 * hooked frames return to is in cap_tramp.S (below cap_values.c in
 * capture/STAGES, which names it).
 *
 * __fentry__ runs before the function's prologue: every argument register
 * is live (rdi rsi rdx rcx r8 r9; rax = vector registers used by a varargs
 * call; r10 = static chain of a nested function; xmm0-7), and the stack is
 * [rsp] = return into the function, [rsp+8] = the function's own return
 * address (the slot values mode hooks). The C halves get the registers as
 * one array: rdi rsi rdx rcx r8 r9 rax r10, then the low 8 bytes of
 * xmm0..7 (float and double arguments, format 1.5). The stack is not always 16-byte
 * aligned there, so it realigns it through rbp. The fast C half is
 * compiled with -mgeneral-regs-only, so it needs only the integer
 * registers saved; the slow half (a new chunk, a new thread, growing the
 * shadow stack) calls into libc, so xmm0-7 are saved around it as well.
 *
 * The usual ENTER is written here without a call (the fast path below):
 * the thread has room in a values chunk and is not busy, the frame is
 * below the shadow stack's top (no tail call, no frame to drop), the
 * function is in the chunk's function cache (and, when the string
 * table, cap_vstr.h, lists it, there is room for its strings): then the
 * record is its STRINGS record when it takes strings (written by C,
 * cap_fentry_strings, called on an aligned stack: the reads that may
 * fault, cap_probe.S; out of line; its tag stored after the ENTER, the
 * 8 bytes after the ENTER zeroed first, as put_enter_strings does), the
 * call site's prefix when the path table does not predict it (SITE_WAY or
 * SITE_NEW, the site state moved on, as cap_site_prefix; out of line),
 * the tag, the time delta (sparse or every-event clock; none without
 * one, nor for the lazy clock's ENTER after an untimed EXIT, ux, whose
 * rdtsc is skipped: format 1.8; the chain clock keeps ux through it,
 * format 1.9), the integer registers' mask and deltas and the SSE registers'
 * record (out of line when one changed), exactly as cap_fentry_fast's
 * put_enter writes them (ttf_put_enter_values_step's tie rule included;
 * tests/e2e/values_fentry.sh checks every value, values_fentry_asm.sh
 * the sites and tests/unit/test_format_values the encoder), and the
 * frame is hooked as push() does. It keeps the
 * eight integer registers the C halves save in the same array (it uses
 * them as scratch) but needs no call, no aligned frame and no SSE store:
 * the SSE registers are compared in place. The integer registers are
 * coded two at a time in xmm8-15 (pcmpeqq in AVX's three-operand
 * forms; on a CPU without AVX, cap_fentry_sse, by SSE4.1 alone, out of
 * line; without SSE4.1 every ENTER goes the C way), and the SSE ones
 * compared two at a time there too: those pass no argument, so they are dead at a
 * function's entry (the C way's libc calls clobber them too). Like the trampoline it sets
 * busy first (once it saw it clear), reads the thread's state only
 * then, tests all before it writes anything, and any other ENTER goes
 * the C way (cap_fentry_fast, which tests it all again) with nothing
 * changed. The C state is read by the offsets of cap_layout.h, which
 * cap_values.c checks at compile time.
 */
#if defined(__x86_64__) && defined(__linux__)

#include "cap_layout.h"
#include "cap_asm.h"

#define FR_X 72                 /* the fast path's frame: rdi rsi rdx rcx r8
                                   r9 rax r10 (as the C halves' array), the
                                   clock (later: where the mask is), xmm0..7
                                   when one changed; the self return at FR, */
#define FR_S FR_X               /* (before them: fn and the shadow entry kept
                                   around the site prefix) */
#define FR (FR_X + 64)          /* the slot at FR + 8. 136 bytes: the saved
                                   registers at the C way's addresses, so a
                                   program that reads stale stack (jq does)
                                   reads the same on both ways */

/* The eight integer registers the C halves get, as an array at rsp. */
.macro SAVE
        movq    %rdi, 0(%rsp)
        movq    %rsi, 8(%rsp)
        movq    %rdx, 16(%rsp)
        movq    %rcx, 24(%rsp)
        movq    %r8, 32(%rsp)
        movq    %r9, 40(%rsp)
        movq    %rax, 48(%rsp)
        movq    %r10, 56(%rsp)
.endm

/* The eight integer registers back from the array at rsp. */
.macro RELOAD
        movq    0(%rsp), %rdi
        movq    8(%rsp), %rsi
        movq    16(%rsp), %rdx
        movq    24(%rsp), %rcx
        movq    32(%rsp), %r8
        movq    40(%rsp), %r9
        movq    48(%rsp), %rax
        movq    56(%rsp), %r10
.endm

/* Two integer registers, 2j and 2j + 1 (their saved copies at 16*j(%rsp)),
 * against the previous ENTER's (ttf_put_enter_values_step): d = r - prev
 * into xmm(8 + j) as its "same" lanes (d == 0), the "strided" lanes (d ==
 * stride) into xmm\s; prev and stride move on. xmm15 is 0, xmm14 scratch
 * (xmm8-15 pass no argument: dead at a function's entry). AVX's three
 * operand forms (VEX-128: the upper halves of ymm8-15, dead too, cleared);
 * a CPU without AVX takes VPAIR_SSE's way (cap_fentry_sse), one without
 * SSE4.1 the C way. */
.macro VPAIR j, d, s
        vmovq   16*\j(%rsp), %xmm14
        vmovhps 16*\j+8(%rsp), %xmm14, %xmm14                   /* r */
        vpsubq  %fs:CAPL_T_VPREV+16*\j(%r11), %xmm14, %xmm\d   /* d */
        vmovdqu %xmm14, %fs:CAPL_T_VPREV+16*\j(%r11)
        vpcmpeqq %fs:CAPL_T_VSTRIDE+16*\j(%r11), %xmm\d, %xmm\s
        vmovdqu %xmm\d, %fs:CAPL_T_VSTRIDE+16*\j(%r11)
        vpcmpeqq %xmm15, %xmm\d, %xmm\d
.endm

/* The same without AVX (SSE4.1; a CPU with SSE4.1 but no AVX, or
 * TTCAP_TEST_FENTRY_SSE=1): the pair's "same" bits into eax, its
 * "strided" bits into edi, register 2j in bit 0; xmm\x and xmm14
 * scratch. */
.macro VPAIR_SSE j, x
        movq    16*\j(%rsp), %xmm\x
        movhps  16*\j+8(%rsp), %xmm\x                          /* r */
        movdqu  %fs:CAPL_T_VPREV+16*\j(%r11), %xmm14
        movdqu  %xmm\x, %fs:CAPL_T_VPREV+16*\j(%r11)
        psubq   %xmm14, %xmm\x                                  /* d */
        movdqu  %fs:CAPL_T_VSTRIDE+16*\j(%r11), %xmm14
        movdqu  %xmm\x, %fs:CAPL_T_VSTRIDE+16*\j(%r11)
        psubq   %xmm\x, %xmm14                                  /* stride - d */
        pcmpeqq %xmm15, %xmm\x
        pcmpeqq %xmm15, %xmm14
        movmskpd %xmm\x, %eax
        movmskpd %xmm14, %edi
.endm

/* Without AVX: one SSE register's low 8 bytes against the chunk's last
 * ENTER's, or'ed into rdx (r10: the call-site state). */
.macro XREG_SSE i
        movq    %xmm\i, %rdi
        xorq    CAPL_XS_X+8*\i(%r10), %rdi
        orq     %rdi, %rdx
.endm

/* xmm i's saved low 8 bytes against the chunk's last ENTER's: ecx =
 * ecx * 2 + (they differ). */
.macro XBIT i
        movq    FR_X+8*\i(%rsp), %rax
        xorq    CAPL_XS_X+8*\i(%r10), %rax
        negq    %rax
        adcl    %ecx, %ecx
.endm

/* The mask from ecx ("same" bits, register 0 in bit 0) and edx
 * ("strided" bits): the prediction that leaves fewer registers to give
 * (no STRIDE on a tie); the mask at rsi, then each given register's
 * delta (its stride now), zigzag and varint, rsi past them. */
.macro DELTAS
        leaq    fentry_regs_set(%rip), %rdi
        movzbl  (%rdi,%rdx), %eax
        movzbl  (%rdi,%rcx), %edi
        xorl    $0x3f | CAPL_MASK_STRIDE, %edx
        xorl    $0x3f, %ecx
        cmpl    %edi, %eax              /* fewer given by the strides */
        cmoval  %edx, %ecx
        movq    %rsi, 64(%rsp)          /* (the mask's place: the clock's) */
        movb    %cl, (%rsi)             /* the mask, then the deltas */
        addq    $1, %rsi
        andl    $0x3f, %ecx
        jz      .Ldz\@
.Ldl\@:  bsfl    %ecx, %eax
        movq    %fs:CAPL_T_VSTRIDE(%r11,%rax,8), %rax
        leaq    (%rax,%rax), %rdi       /* zigzag */
        sarq    $63, %rax
        xorq    %rdi, %rax
        PUT_UVAR %rax, %eax, %al, %rsi, %edi, %dil
        leal    -1(%rcx), %edx
        andl    %edx, %ecx
        jnz     .Ldl\@
.Ldz\@:
.endm

/* Two SSE registers' low 8 bytes, i and i + 1, against the chunk's last
 * ENTER's (r10: the call-site state, the SSE state after it): their XOR
 * into xmm\x. */
.macro XPAIR i, j, x
        vpunpcklqdq %xmm\j, %xmm\i, %xmm\x
        vpxor   CAPL_XS_X+8*\i(%r10), %xmm\x, %xmm\x
.endm

        .section .rodata
        .p2align 6
/* Bits set in a 6-bit register mask (ttf_wire.h's ttf_regs_set). */
fentry_regs_set:
        .set    fe_i, 0
        .rept   64
        .byte   (fe_i & 1) + (fe_i >> 1 & 1) + (fe_i >> 2 & 1) + (fe_i >> 3 & 1) + (fe_i >> 4 & 1) + (fe_i >> 5 & 1)
        .set    fe_i, fe_i + 1
        .endr

        .text

        .globl  __fentry__
        .type   __fentry__, @function
        .p2align 4
__fentry__:
        .cfi_startproc
        cmpl    $0, cap_on(%rip)
        jne     1f
        ret
1:
        subq    $FR, %rsp
        .cfi_adjust_cfa_offset FR
        SAVE
        movq    cap_tls@gottpoff(%rip), %r11
        xorl    %edx, %edx              /* (no clock: 0, a delta of 0) */
        cmpb    $0, %fs:CAPL_T_FLAGS+1(%r11)    /* the clock, if any, */
        je      0f                      /* first: its latency overlaps */
        cmpb    $0, %fs:CAPL_T_UX(%r11) /* (none for the lazy clock's */
        jne     0f                      /* ENTER after an untimed EXIT) */
        rdtsc
        shlq    $32, %rdx
        orq     %rax, %rdx
0:      movq    %rdx, 64(%rsp)
        cmpb    $0, %fs:CAPL_T_FLAGS(%r11)      /* the flags byte by byte, */
        jne     .Lfe_c                  /* as they are stored: a wider */
                                        /* load would wait for the last */
                                        /* hook's store */
        movb    $CAPL_BUSY_HOT, %fs:CAPL_T_FLAGS(%r11)  /* busy, then all */
        cmpb    $CAPL_VALS_ON, %fs:CAPL_T_FLAGS+3(%r11) /* read (a signal */
        jne     .Lfe_u                  /* handler may have run before) */
        cmpl    $0, cap_fentry_c(%rip)   /* makecontext, tests */
        jne     .Lfe_u
        movq    %fs:CAPL_T_POS(%r11), %r8
        cmpq    %fs:CAPL_T_LIMIT(%r11), %r8
        jae     .Lfe_u
        movq    cap_sh@gottpoff(%rip), %r10
        movl    %fs:CAPL_SH_N(%r10), %ecx
        cmpl    %fs:CAPL_SH_CAP(%r10), %ecx
        jae     .Lfe_u
        shlq    $5, %rcx                /* CAPL_SHENT_SIZE */
        addq    %fs:CAPL_SH_E(%r10), %rcx       /* the free entry */
        leaq    FR+8(%rsp), %rsi        /* the slot hooked */
        cmpq    %rsi, CAPL_SHENT_SLOT-CAPL_SHENT_SIZE(%rcx)
        jbe     .Lfe_u                  /* a tail call, frames gone: C */
        movq    (%rsi), %rdi            /* the call site */
        leaq    cap_ret_tramp(%rip), %r9
        cmpq    %r9, %rdi
        je      .Lfe_u
        movq    FR(%rsp), %r9           /* fn_start: after the call of */
        leaq    -5(%r9), %rax           /* __fentry__ (5 bytes, or 6 by */
        cmpb    $0x15, -5(%r9)          /* the GOT) and an endbr64 */
        jne     2f
        cmpb    $0xff, -6(%r9)
        jne     2f
        subq    $1, %rax
2:      testl   $0xffc, %eax            /* never read back into another page */
        jz      3f
        cmpl    $0xfa1e0ff3, -4(%rax)
        jne     3f
        subq    $4, %rax
3:      cmpq    $0, cap_vt+CAPL_VT_W(%rip)
        jne     .Lfe_vt                 /* a string table: look fn up */
.Lfe_nostr:
        SLOT_OF %rax, %r9, %r9d, %rdx, %edx
        cmpq    %rax, %fs:CAPL_T_CACHE(%r11,%r9,8)
        jne     .Lfe_u                  /* a cache miss */
        movq    %r9, CAPL_SHENT_CSLOT(%rcx)     /* (the entry is not live */
                                        /* before n++: a C way after */
                                        /* this writes its own) */
        orl     $CAPL_ENTER_HIT, %r9d   /* the ENTER's tag */
        testq   %rdi, %rdi
        jz      .Lfe_u                  /* all tested: write */
        cmpq    $0, %fs:CAPL_T_VSTR(%r11)
        jne     .Lfe_wstr               /* strings: their record first */
.Lfe_wstrd:
        movq    %fs:CAPL_T_SITES(%r11), %r10
        movq    CAPL_SITES_LAST(%r10), %rdx     /* ttf_site_try */
        leaq    (%rdx,%rdx,8), %rdx
        movq    %rax, %rsi
        shrq    $4, %rsi
        xorl    %esi, %edx
        andl    $CAPL_SITES_PMASK, %edx
        leaq    1(%r8), %rsi            /* after the tag */
        cmpq    %rdi, (%r10,%rdx,8)
        jne     .Lfe_site               /* not the predicted site */
.Lfe_sited:
        movq    %rdi, CAPL_SITES_LAST(%r10)
        movq    %rdi, CAPL_SHENT_RET(%rcx)      /* the entry, seen at n++ */
        leaq    FR+8(%rsp), %rdi
        movq    %rdi, CAPL_SHENT_SLOT(%rcx)
        movq    %rax, CAPL_SHENT_FN(%rcx)
        movzbl  %fs:CAPL_T_FLAGS+1(%r11), %edx  /* the clock */
        cmpl    $CAPL_TIMED_SPARSE, %edx
        jb      .Lfe_tnone              /* none or every: out of line */
        movl    %fs:CAPL_T_DEPTH(%r11), %ecx    /* sparse or lazy: */
        andl    $CAPL_EVAT_MASK, %ecx   /* cap_enter_count */
        movzwl  %fs:CAPL_T_EV(%r11), %edx
        movw    %dx, %fs:CAPL_T_EVAT(%r11,%rcx,2)
        addl    $1, %edx
        movw    %dx, %fs:CAPL_T_EV(%r11)
        cmpb    $0, %fs:CAPL_T_UX(%r11) /* lazy: after an untimed EXIT, */
        je      .Lfe_timed              /* no time (format 1.8), no */
        movzbl  %fs:CAPL_T_FLAGS+1(%r11), %edx  /* delta; ux = timed >> 2: */
        shrl    $2, %edx                /* cleared (lazy), kept (chain, */
        movb    %dl, %fs:CAPL_T_UX(%r11)        /* format 1.9) */
5:      cmpl    $0, cap_fentry_sse(%rip)
        jne     .Lfe_sse                /* no AVX: out of line */
        vpxor   %xmm15, %xmm15, %xmm15
        VPAIR   0, 8, 11
        VPAIR   1, 9, 12
        VPAIR   2, 10, 13
        vshufps $0x88, %xmm9, %xmm8, %xmm8      /* registers 0-3's lanes */
        vmovmskps %xmm8, %ecx                   /* ecx: same, */
        vmovmskpd %xmm10, %eax
        vshufps $0x88, %xmm12, %xmm11, %xmm11
        vmovmskps %xmm11, %edx                  /* edx: strided */
        vmovmskpd %xmm13, %edi
        shll    $4, %eax
        orl     %eax, %ecx
        shll    $4, %edi
        orl     %edi, %edx
        DELTAS
7:      XPAIR   0, 1, 8                 /* the SSE registers (r10: sites) */
        XPAIR   2, 3, 9
        XPAIR   4, 5, 10
        XPAIR   6, 7, 11
        vpor    %xmm9, %xmm8, %xmm8
        vpor    %xmm11, %xmm10, %xmm10
        vpor    %xmm10, %xmm8, %xmm8
        vptest  %xmm8, %xmm8
        jnz     .Lfe_xmm                /* one changed: out of line */
.Lfe_commit:
        movb    %r9b, (%r8)             /* commit: the tag, then pos */
        movq    %rsi, %fs:CAPL_T_POS(%r11)
        cmpq    $0, %fs:CAPL_T_VSTR(%r11)
        jne     .Lfe_cstr               /* and the STRINGS record's tag */
.Lfe_cstrd:
        movq    cap_sh@gottpoff(%rip), %r10
        addl    $1, %fs:CAPL_SH_N(%r10) /* push: the entry, then the hook */
        leaq    cap_ret_tramp(%rip), %rax
        movq    %rax, FR+8(%rsp)
        addl    $1, %fs:CAPL_T_DEPTH(%r11)
        movb    $0, %fs:CAPL_T_FLAGS(%r11)
        RELOAD
        addq    $FR, %rsp
        .cfi_adjust_cfa_offset -FR
        ret
        .cfi_adjust_cfa_offset FR
.Lfe_sse:                               /* the registers without AVX */
        pxor    %xmm15, %xmm15          /* ecx: same, edx: strided */
        VPAIR_SSE 0, 8
        movl    %eax, %ecx
        movl    %edi, %edx
        VPAIR_SSE 1, 9
        leal    (%rcx,%rax,4), %ecx
        leal    (%rdx,%rdi,4), %edx
        VPAIR_SSE 2, 10
        shll    $4, %eax
        shll    $4, %edi
        orl     %eax, %ecx
        orl     %edi, %edx
        DELTAS
        xorl    %edx, %edx              /* the SSE registers (r10: sites) */
        XREG_SSE 0
        XREG_SSE 1
        XREG_SSE 2
        XREG_SSE 3
        XREG_SSE 4
        XREG_SSE 5
        XREG_SSE 6
        XREG_SSE 7
        jnz     .Lfe_xmm                /* one changed: out of line */
        jmp     .Lfe_commit
.Lfe_tnone:                             /* no clock (none), or the */
        testl   %edx, %edx              /* every-event one */
        jz      5b
.Lfe_timed:                             /* the ENTER's time delta */
        movq    64(%rsp), %rcx          /* cap_put_t_at: never negative */
        testq   %rcx, %rcx
        jz      .Lfe_late               /* not read at the start (ux was set) */
.Lfe_lated:
        movl    $0, %edx
        subq    %fs:CAPL_T_TSC(%r11), %rcx
        cmovbq  %rdx, %rcx
        addq    %rcx, %fs:CAPL_T_TSC(%r11)
        movb    $0, %fs:CAPL_T_SINCE(%r11)
        PUT_UVAR %rcx, %ecx, %cl, %rsi, %edx, %dl
        jmp     5b
.Lfe_late:                              /* ux was set at the start, a signal */
        rdtsc                           /* handler's records cleared it since: */
        shlq    $32, %rdx               /* the clock now (rare) */
        orq     %rax, %rdx
        movq    %rdx, %rcx
        jmp     .Lfe_lated
.Lfe_xmm:                               /* ttf_put_enter_xmm_step */
        movq    %xmm0, FR_X+0(%rsp)
        movq    %xmm1, FR_X+8(%rsp)
        movq    %xmm2, FR_X+16(%rsp)
        movq    %xmm3, FR_X+24(%rsp)
        movq    %xmm4, FR_X+32(%rsp)
        movq    %xmm5, FR_X+40(%rsp)
        movq    %xmm6, FR_X+48(%rsp)
        movq    %xmm7, FR_X+56(%rsp)
        xorl    %ecx, %ecx              /* bit i: xmm i changed */
        XBIT    7
        XBIT    6
        XBIT    5
        XBIT    4
        XBIT    3
        XBIT    2
        XBIT    1
        XBIT    0
        movq    64(%rsp), %rdi
        orb     $CAPL_MASK_XMM, (%rdi)  /* the ENTER's mask says so */
        movb    %cl, (%rsi)             /* the SSE mask, then each XOR */
        addq    $1, %rsi
8:      bsfl    %ecx, %eax
        movq    FR_X(%rsp,%rax,8), %rdx
        movq    CAPL_XS_X(%r10,%rax,8), %rdi
        movq    %rdx, CAPL_XS_X(%r10,%rax,8)
        xorq    %rdx, %rdi
        bswapq  %rdi
        PUT_UVAR %rdi, %edi, %dil, %rsi, %edx, %dl
        leal    -1(%rcx), %edx
        andl    %edx, %ecx
        jnz     8b
        jmp     .Lfe_commit
.Lfe_site:                              /* cap_site_prefix: out of line */
        movq    %rax, FR_S(%rsp)        /* (rax: fn, rcx: the shadow entry) */
        movq    %rcx, FR_S+8(%rsp)
        leaq    (%r10,%rdx,8), %rdx     /* the path entry */
        movq    %rax, %rcx              /* TTF_SITE_SLOT(fn): its ways */
        shrq    $4, %rcx
        shrq    $10, %rax
        xorl    %eax, %ecx
        andl    $CAPL_SITES_SMASK, %ecx
        shll    $5, %ecx                /* 4 ways of 8 bytes */
        leaq    CAPL_SITES_WAYS(%r10,%rcx), %rcx
        movq    (%rdx), %rax            /* ttf_site_pred: the path entry, */
        testq   %rax, %rax              /* else way 0 */
        cmovzq  (%rcx), %rax
        movq    %rdi, (%rdx)            /* the path entry takes the site */
        cmpq    %rdi, %rax
        je      .Lfe_sitek              /* predicted by way 0: no prefix */
        movl    $CAPL_SITE_WAY, %edx    /* SITE_WAY + i: way i has it */
        cmpq    %rdi, (%rcx)
        je      .Lfe_w0
        addl    $1, %edx
        cmpq    %rdi, 8(%rcx)
        je      .Lfe_w1
        addl    $1, %edx
        cmpq    %rdi, 16(%rcx)
        je      .Lfe_w2
        addl    $1, %edx
        cmpq    %rdi, 24(%rcx)
        je      .Lfe_w3
        movq    %rdi, %rax              /* SITE_NEW: svar(site - last) */
        subq    CAPL_SITES_LAST(%r10), %rax
        leaq    (%rax,%rax), %rdx
        sarq    $63, %rax
        xorq    %rdx, %rax
        PUT_UVAR %rax, %eax, %al, %rsi, %edx, %dl
        movl    $CAPL_SITE_NEW, %edx    /* ttf_site_advance: the site to */
.Lfe_w3:                                /* the front of the ways, from */
        movq    16(%rcx), %rax          /* where it was, else the oldest */
        movq    %rax, 24(%rcx)          /* drops out */
.Lfe_w2:
        movq    8(%rcx), %rax
        movq    %rax, 16(%rcx)
.Lfe_w1:
        movq    (%rcx), %rax
        movq    %rax, 8(%rcx)
.Lfe_w0:
        movq    %rdi, (%rcx)
        movb    %r9b, (%rsi)            /* the ENTER's tag after the prefix, */
        addq    $1, %rsi                /* the prefix's committed at p */
        movl    %edx, %r9d
.Lfe_sitek:
        movq    FR_S(%rsp), %rax
        movq    FR_S+8(%rsp), %rcx
        jmp     .Lfe_sited
.Lfe_wstr:                              /* the STRINGS record at p by C */
        movq    %rax, FR_X+16(%rsp)     /* (cap_fentry_strings, */
        movq    %rcx, FR_X+24(%rsp)     /* -mgeneral-regs-only: no SSE */
        movq    %rdi, FR_X+32(%rsp)     /* register touched) */
        movq    %r8, FR_X+40(%rsp)
        movq    %r9, FR_X+48(%rsp)
        movq    %r8, %rdi
        movq    %rsp, %rsi              /* the saved registers */
        movq    %fs:CAPL_T_VSTR(%r11), %rdx     /* the table's entry */
        pushq   %rbp
        .cfi_adjust_cfa_offset 8
        movq    %rsp, %rbp
        .cfi_def_cfa_register rbp
        andq    $-16, %rsp
        call    cap_fentry_strings
        movq    %rbp, %rsp
        .cfi_def_cfa_register rsp
        popq    %rbp
        .cfi_adjust_cfa_offset -8
        movq    cap_tls@gottpoff(%rip), %r11
        movq    %rax, %r8               /* where the ENTER goes */
        movq    FR_X+40(%rsp), %rdx
        cmpq    %rdx, %r8
        jne     1f
        xorl    %edx, %edx              /* no record (no fault handler) */
1:      movq    %rdx, %fs:CAPL_T_VSTR(%r11)     /* its start, its tag's place */
        movq    FR_X+16(%rsp), %rax
        movq    FR_X+24(%rsp), %rcx
        movq    FR_X+32(%rsp), %rdi
        movq    FR_X+48(%rsp), %r9
        jmp     .Lfe_wstrd
.Lfe_cstr:                              /* after the ENTER: the 8 bytes */
        movq    %fs:CAPL_T_VSTR(%r11), %rdx     /* past it zeroed (the */
        movq    $0, (%rsi)              /* string reads' leftovers), then */
        movb    $CAPL_R_STRINGS, (%rdx) /* the STRINGS tag: the two at once */
        movq    $0, %fs:CAPL_T_VSTR(%r11)
        jmp     .Lfe_cstrd
.Lfe_str:                               /* a function with strings: room */
        leaq    CAPL_STR_ROOM(%r8), %rsi        /* for its STRINGS record */
        cmpq    %fs:CAPL_T_LIMIT(%r11), %rsi
        ja      .Lfe_u
        shlq    $4, %rdx                /* CAPL_VTENT_SIZE */
        addq    %r9, %rdx
        movq    %rdx, %fs:CAPL_T_VSTR(%r11)     /* its entry, for the write */
        jmp     .Lfe_nostr
.Lfe_vt:                                /* cap_vt_find: out of line */
        movq    %rcx, %rsi              /* (rsi: the shadow entry) */
        movq    cap_vt+CAPL_VT_W(%rip), %r9     /* entries | bits */
        movl    %r9d, %ecx
        andl    $CAPL_VT_BITS, %ecx
        negl    %ecx
        addl    $61, %ecx               /* shift: 61 - bits */
        andq    $~CAPL_VT_BITS, %r9     /* the entries */
        movabsq $CAPL_VT_MUL, %rdx      /* cap_vt_home: the home slot */
        imulq   %rax, %rdx              /* j * 8 + fn's home bit */
        shrq    %cl, %rdx
        movl    %edx, %r10d
        andl    $7, %r10d
        andq    $~7, %rdx               /* (16 bytes an entry) */
        movzbl  CAPL_VTENT_HOME(%r9,%rdx,2), %edx
        btl     %r10d, %edx
        jnc     .Lfe_vtno               /* the usual case: no strings */
        movabsq $CAPL_VT_MUL, %rdx      /* else probe from the home slot */
        imulq   %rax, %rdx
        shrq    %cl, %rdx
        shrq    $3, %rdx                /* j */
        negl    %ecx
        addl    $61, %ecx               /* bits */
        movl    $1, %r10d
        shlq    %cl, %r10
        subq    $1, %r10                /* mask: (1 << bits) - 1 */
        movq    %rsi, %rcx
8:      movq    %rdx, %rsi
        shlq    $4, %rsi                /* CAPL_VTENT_SIZE */
        movq    CAPL_VTENT_FN(%r9,%rsi), %rsi
        cmpq    %rax, %rsi
        je      .Lfe_str                /* it takes strings */
        testq   %rsi, %rsi
        jz      .Lfe_nostr
        addq    $1, %rdx
        andq    %r10, %rdx
        jmp     8b
.Lfe_vtno:
        movq    %rsi, %rcx
        jmp     .Lfe_nostr
.Lfe_u:
        movq    $0, %fs:CAPL_T_VSTR(%r11)
        movb    $0, %fs:CAPL_T_FLAGS(%r11)      /* not busy after all */
.Lfe_c:                                 /* the C way, nothing changed */
        RELOAD
        addq    $FR, %rsp
        .cfi_adjust_cfa_offset -FR
        pushq   %rbp                    /* the stack may be misaligned: gcc */
        .cfi_adjust_cfa_offset 8        /* skips aligning calls to functions */
        .cfi_rel_offset rbp, 0          /* it knows need no alignment, and */
        movq    %rsp, %rbp              /* -pg adds this call to them */
        .cfi_def_cfa_register rbp
        subq    $128, %rsp
        andq    $-16, %rsp
        movq    %xmm0, 64(%rsp)         /* the SSE argument registers' low */
        movq    %xmm1, 72(%rsp)         /* halves (doubles; floats in the */
        movq    %xmm2, 80(%rsp)         /* low 4 bytes), recorded; the */
        movq    %xmm3, 88(%rsp)         /* registers themselves are not */
        movq    %xmm4, 96(%rsp)         /* touched by the fast path */
        movq    %xmm5, 104(%rsp)
        movq    %xmm6, 112(%rsp)
        movq    %xmm7, 120(%rsp)
        SAVE
        movq    %rsp, %rdi              /* the saved argument registers */
        movq    8(%rbp), %rsi           /* return address into the function */
        leaq    16(%rbp), %rdx          /* the function's return slot */
        call    cap_fentry_fast
        testl   %eax, %eax
        jnz     3f
2:
        RELOAD
        movq    %rbp, %rsp
        popq    %rbp
        .cfi_def_cfa rsp, 8
        ret
3:
        .cfi_def_cfa rbp, 16
        subq    $128, %rsp
        movaps  %xmm0, 0(%rsp)
        movaps  %xmm1, 16(%rsp)
        movaps  %xmm2, 32(%rsp)
        movaps  %xmm3, 48(%rsp)
        movaps  %xmm4, 64(%rsp)
        movaps  %xmm5, 80(%rsp)
        movaps  %xmm6, 96(%rsp)
        movaps  %xmm7, 112(%rsp)
        leaq    128(%rsp), %rdi
        movq    8(%rbp), %rsi
        leaq    16(%rbp), %rdx
        call    cap_fentry_slow
        movaps  0(%rsp), %xmm0
        movaps  16(%rsp), %xmm1
        movaps  32(%rsp), %xmm2
        movaps  48(%rsp), %xmm3
        movaps  64(%rsp), %xmm4
        movaps  80(%rsp), %xmm5
        movaps  96(%rsp), %xmm6
        movaps  112(%rsp), %xmm7
        addq    $128, %rsp
        jmp     2b
        .cfi_endproc
        .size   __fentry__, .-__fentry__

/* makecontext is variadic: this keeps every argument register (and rax,
 * the vector register count) and the stacked arguments as they came, asks
 * cap_makecontext_real (cap_values.c) for the real one and jumps there. */
        .globl  makecontext
        .type   makecontext, @function
        .p2align 4
makecontext:
        .cfi_startproc
        pushq   %rdi
        .cfi_adjust_cfa_offset 8
        pushq   %rsi
        .cfi_adjust_cfa_offset 8
        pushq   %rdx
        .cfi_adjust_cfa_offset 8
        pushq   %rcx
        .cfi_adjust_cfa_offset 8
        pushq   %r8
        .cfi_adjust_cfa_offset 8
        pushq   %r9
        .cfi_adjust_cfa_offset 8
        pushq   %rax                    /* 7 pushes: rsp is 16-byte aligned */
        .cfi_adjust_cfa_offset 8
        call    cap_makecontext_real
        movq    %rax, %r11
        popq    %rax
        .cfi_adjust_cfa_offset -8
        popq    %r9
        .cfi_adjust_cfa_offset -8
        popq    %r8
        .cfi_adjust_cfa_offset -8
        popq    %rcx
        .cfi_adjust_cfa_offset -8
        popq    %rdx
        .cfi_adjust_cfa_offset -8
        popq    %rsi
        .cfi_adjust_cfa_offset -8
        popq    %rdi
        .cfi_adjust_cfa_offset -8
        jmp     *%r11
        .cfi_endproc
        .size   makecontext, .-makecontext

#endif
        .section .note.GNU-stack,"",@progbits
