/*
 * cap_vfork.S - vfork, interposed (x86-64): the child runs in the parent's
 * memory, on its stack and with its thread's libttcap state, until it
 * execs or exits, so it must write nothing there. As glibc's own vfork,
 * it keeps its return address in a register across the system call (the
 * child's calls overwrite the stack below), then calls cap_vfork_child in
 * the child (it switches the thread's recording off) and cap_vfork_parent
 * once the parent resumes (it switches it back on and writes VFORK); both
 * in cap_interpose.c.
 */
#if defined(__x86_64__) && defined(__linux__)

        .text
        .globl  vfork
        .type   vfork, @function
        .p2align 4
vfork:
        .cfi_startproc
#ifdef __CET__
        endbr64
#endif
        popq    %rdi                    /* the return address */
        .cfi_adjust_cfa_offset -8
        .cfi_register rip, rdi
        movl    $58, %eax               /* SYS_vfork */
        syscall
        pushq   %rdi
        .cfi_adjust_cfa_offset 8
        .cfi_rel_offset rip, 0
        cmpq    $-4095, %rax
        jae     2f
        pushq   %rax                    /* the result; the stack is aligned */
        .cfi_adjust_cfa_offset 8
        movl    %eax, %edi
        testq   %rax, %rax
        jz      1f
        call    cap_vfork_parent
        popq    %rax
        .cfi_adjust_cfa_offset -8
        ret
1:      .cfi_adjust_cfa_offset 8
        call    cap_vfork_child
        popq    %rax
        .cfi_adjust_cfa_offset -8
        ret
2:      negl    %eax
        movl    %eax, %edi
        jmp     cap_vfork_failed        /* errno, -1 */
        .cfi_endproc
        .size   vfork, .-vfork

#endif
        .section .note.GNU-stack,"",@progbits
