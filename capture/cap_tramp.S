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
 * them; gcc keeps nothing in them across a call to -pg code, whose
 * -fipa-ra is off), so zeroing is as good as the values the function
 * left, which cost six pushes and six pops to keep.
 */
#if defined(__x86_64__) && defined(__linux__)

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
