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
        movq    %rdi, 0(%rsp)
        movq    %rsi, 8(%rsp)
        movq    %rdx, 16(%rsp)
        movq    %rcx, 24(%rsp)
        movq    %r8, 32(%rsp)
        movq    %r9, 40(%rsp)
        movq    %rax, 48(%rsp)
        movq    %r10, 56(%rsp)
        movq    %rsp, %rdi              /* the saved argument registers */
        movq    8(%rbp), %rsi           /* return address into the function */
        leaq    16(%rbp), %rdx          /* the function's return slot */
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
