/*
 * cap_setjmp.S - setjmp, _setjmp and __sigsetjmp (what sigsetjmp expands
 * to), interposed (x86-64): each notes the jmp_buf with the thread's call
 * depth and its caller's stack pointer (cap_setjmp_note, cap_interpose.c,
 * which returns the real function), then jumps to the real one with the
 * stack and argument registers as its caller left them, so the context it
 * saves is the caller's. A longjmp to it (cap_interpose.c) then knows how
 * many frames it leaves: UNWIND.
 */
#if defined(__x86_64__) && defined(__linux__)

        .text

/* STUB name, which: the interposer of name (which: its index for
 * cap_setjmp_note). At entry rsp + 8 is the caller's stack pointer. */
        .macro  STUB name, which
        .globl  \name
        .type   \name, @function
        .p2align 4
\name:
        .cfi_startproc
#ifdef __CET__
        endbr64
#endif
        pushq   %rdi
        .cfi_adjust_cfa_offset 8
        pushq   %rsi
        .cfi_adjust_cfa_offset 8
        subq    $8, %rsp                /* aligned for the call */
        .cfi_adjust_cfa_offset 8
        leaq    32(%rsp), %rsi          /* the caller's stack pointer */
        movl    $\which, %edx
        call    cap_setjmp_note         /* (env, sp, which): the real function */
        addq    $8, %rsp
        .cfi_adjust_cfa_offset -8
        popq    %rsi
        .cfi_adjust_cfa_offset -8
        popq    %rdi
        .cfi_adjust_cfa_offset -8
        jmp     *%rax
        .cfi_endproc
        .size   \name, .-\name
        .endm

        STUB    setjmp, 0
        STUB    _setjmp, 1
        STUB    __sigsetjmp, 2

#endif
        .section .note.GNU-stack,"",@progbits
