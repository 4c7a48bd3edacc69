/*
 * cap_probe.S - a read of memory that may not be mapped, without a system
 * call: values mode's string contents (a char * argument may be a bogus or
 * one-past-the-end pointer; the traced program must never be taken down).
 *
 * Design (HotSpot's SafeFetch): cap_probe_words copies aligned 8-byte
 * words with one load instruction, cap_probe_load, that may fault. libttcap's
 * SIGSEGV and SIGBUS handler (cap_sig.c on_fatal, installed at trace start
 * and kept first by the sigaction/signal interposers) looks at the faulting
 * instruction first: at cap_probe_load it moves the instruction pointer to
 * cap_probe_fault and returns, and the copy ends there, reporting the
 * fault. An aligned word never spans two pages, so the words before the
 * faulting one are whole. A read that does not fault costs a few loads and
 * stores (cap_probe_string, cap_int.h, reads a string's first bytes with
 * it); a fault costs the kernel's signal delivery (microseconds), only for
 * bad pointers and strings that end just before an unmapped page.
 * process_vm_readv(2) on self, the other safe read, costs 1.3-1.8 us per
 * call on every read (measured on the 2-core VM, load 5).
 * Callers check cap_probe_ready() (cap_sig.c: our handler holds both
 * signals) before each use. A leaf of capture/ (capture/STAGES).
 *
 * size_t cap_probe_words(uint64_t *dst, const uint64_t *src, size_t n):
 * copies n words (src 8-byte aligned); returns how many it copied, with
 * CAP_PROBE_FAULTED (bit 63) set when a read faulted (the words before it
 * copied).
 */
#if defined(__x86_64__) && defined(__linux__)
        .text
        .globl  cap_probe_words
        .hidden cap_probe_words
        .globl  cap_probe_load
        .hidden cap_probe_load
        .globl  cap_probe_fault
        .hidden cap_probe_fault
        .type   cap_probe_words, @function
        .p2align 4
cap_probe_words:
        .cfi_startproc
        xorl    %eax, %eax
1:
        cmpq    %rdx, %rax
        jae     2f
cap_probe_load:
        movq    (%rsi,%rax,8), %rcx     /* the one load that may fault */
        movq    %rcx, (%rdi,%rax,8)
        incq    %rax
        jmp     1b
2:
        ret
cap_probe_fault:                        /* on_fatal resumes here */
        btsq    $63, %rax
        ret
        .cfi_endproc
        .size   cap_probe_words, .-cap_probe_words
#endif
        .section .note.GNU-stack,"",@progbits
