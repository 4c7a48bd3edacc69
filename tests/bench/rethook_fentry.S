/* rethook_fentry.S - the floor of any tracer that catches returns by
 * replacing the return address (values mode, uftrace, ftrace): a
 * __fentry__ that records nothing, only swaps the caller's return address
 * for a trampoline that jumps back through a (single-threaded, 8192-deep)
 * shadow stack. The mispredicted return it causes is most of its cost.
 * Linked into the "return hook only" build of the values benchmark. */
        .text
        .globl  __fentry__
        .type   __fentry__, @function
__fentry__:
        movq    stk_top(%rip), %r11
        movq    8(%rsp), %rax
        movq    %rax, (%r11)
        addq    $8, %r11
        movq    %r11, stk_top(%rip)
        leaq    tramp(%rip), %rax
        movq    %rax, 8(%rsp)
        ret
        .size   __fentry__, .-__fentry__
tramp:
        movq    stk_top(%rip), %r11
        subq    $8, %r11
        movq    %r11, stk_top(%rip)
        jmp     *(%r11)
        .data
        .p2align 3
stk_top:
        .quad   stk
        .bss
        .p2align 3
stk:
        .zero   65536
        .section .note.GNU-stack,"",@progbits
