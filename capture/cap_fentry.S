/*
 * cap_fentry.S - values mode entry points (x86-64): __fentry__, called as
 * the first instruction of every function compiled with -pg -mfentry, and
 * cap_ret_tramp, where those functions return to instead of their caller.
 * The C halves are in cap_values.c.
 *
 * __fentry__ runs before the function's prologue: every argument register
 * is live (rdi rsi rdx rcx r8 r9; rax = vector registers used by a varargs
 * call; r10 = static chain of a nested function; xmm0-7), and the stack is
 * [rsp] = return into the function, [rsp+8] = the function's own return
 * address (the slot values mode hooks). The fast C half is compiled with
 * -mgeneral-regs-only, so it needs only the integer registers saved; the
 * slow half (a new chunk, a new thread, growing the shadow stack) calls
 * into libc, so xmm0-7 are saved around it as well.
 *
 * cap_ret_tramp is reached by the function's ret, so rsp = slot + 8 and the
 * return value is in rax, rdx (and xmm0, xmm1, st0 for floating point
 * returns: the C halves use no x87 and the slow half runs with xmm0/xmm1
 * saved). It hands rax and rsp to C, gets the real return address back and
 * jumps there with every return register as the function left it.
 */
#if defined(__x86_64__) && defined(__linux__)

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
        subq    $64, %rsp
        .cfi_adjust_cfa_offset 64
        movq    %rdi, 0(%rsp)
        movq    %rsi, 8(%rsp)
        movq    %rdx, 16(%rsp)
        movq    %rcx, 24(%rsp)
        movq    %r8, 32(%rsp)
        movq    %r9, 40(%rsp)
        movq    %rax, 48(%rsp)
        movq    %r10, 56(%rsp)
        movq    %rsp, %rdi              /* the saved argument registers */
        movq    64(%rsp), %rsi          /* return address into the function */
        leaq    72(%rsp), %rdx          /* the function's return slot */
        call    cap_fentry_fast
        testl   %eax, %eax
        jnz     3f
2:
        movq    0(%rsp), %rdi
        movq    8(%rsp), %rsi
        movq    16(%rsp), %rdx
        movq    24(%rsp), %rcx
        movq    32(%rsp), %r8
        movq    40(%rsp), %r9
        movq    48(%rsp), %rax
        movq    56(%rsp), %r10
        addq    $64, %rsp
        .cfi_adjust_cfa_offset -64
        ret
3:
        .cfi_adjust_cfa_offset 64
        subq    $128, %rsp
        .cfi_adjust_cfa_offset 128
        movups  %xmm0, 0(%rsp)
        movups  %xmm1, 16(%rsp)
        movups  %xmm2, 32(%rsp)
        movups  %xmm3, 48(%rsp)
        movups  %xmm4, 64(%rsp)
        movups  %xmm5, 80(%rsp)
        movups  %xmm6, 96(%rsp)
        movups  %xmm7, 112(%rsp)
        leaq    128(%rsp), %rdi
        movq    192(%rsp), %rsi
        leaq    200(%rsp), %rdx
        call    cap_fentry_slow
        movups  0(%rsp), %xmm0
        movups  16(%rsp), %xmm1
        movups  32(%rsp), %xmm2
        movups  48(%rsp), %xmm3
        movups  64(%rsp), %xmm4
        movups  80(%rsp), %xmm5
        movups  96(%rsp), %xmm6
        movups  112(%rsp), %xmm7
        addq    $128, %rsp
        .cfi_adjust_cfa_offset -128
        jmp     2b
        .cfi_endproc
        .size   __fentry__, .-__fentry__

/* No caller frame to describe: an unwinder reaching here stops (C++
 * exceptions and pthread_exit restore the real addresses first). */
        .globl  cap_ret_tramp
        .hidden cap_ret_tramp
        .type   cap_ret_tramp, @function
        .p2align 4
        .cfi_startproc
        .cfi_undefined rip
        nop                             /* a return address - 1 stays inside */
cap_ret_tramp:
        pushq   %rax
        pushq   %rdx
        movq    %rax, %rdi              /* the return value */
        leaq    16(%rsp), %rsi          /* rsp at the function's ret + 8 */
        call    cap_fexit_fast          /* rax = real return, rdx = slow */
        testq   %rdx, %rdx
        jnz     1f
        movq    %rax, %r11
        popq    %rdx
        popq    %rax
        jmp     *%r11
1:
        subq    $48, %rsp
        movups  %xmm0, 0(%rsp)
        movups  %xmm1, 16(%rsp)
        movq    56(%rsp), %rdi          /* the saved rax */
        leaq    64(%rsp), %rsi
        call    cap_fexit_slow          /* rax = real return */
        movq    %rax, %r11
        movups  0(%rsp), %xmm0
        movups  16(%rsp), %xmm1
        addq    $48, %rsp
        popq    %rdx
        popq    %rax
        jmp     *%r11
        .cfi_endproc
        .size   cap_ret_tramp, .-cap_ret_tramp

#endif
        .section .note.GNU-stack,"",@progbits
