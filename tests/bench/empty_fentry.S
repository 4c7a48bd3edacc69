/* empty_fentry.S - an empty __fentry__: the floor of -pg -mfentry
 * instrumentation (one call and one return per traced call), linked into
 * the "empty __fentry__" build of the values benchmark. x86-64. */
        .text
        .globl  __fentry__
        .type   __fentry__, @function
__fentry__:
        ret
        .size   __fentry__, .-__fentry__
        .section .note.GNU-stack,"",@progbits
