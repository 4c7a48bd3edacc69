/*
 * cap_asm.h - the assembler macros both fast paths of values mode share
 * (__fentry__'s ENTER, cap_fentry.S, and the return trampoline's EXIT,
 * cap_tramp.S): a varint written as ttf_put_uvar writes it, and a
 * function's slot in the thread's address cache as TTF_SLOT computes it.
 * Assembler only (included after cap_layout.h).
 */
#ifndef CAP_ASM_H
#define CAP_ASM_H

/* ttf_put_uvar: v at p, which moves past it (v and tmp clobbered). The
 * test of the one-byte case first (most deltas), not a jump to the loop's. */
.macro PUT_UVAR v, v32, v8, p, tmp32, tmp8
        cmpq    $0x7f, \v
        jbe     2f
1:      movl    \v32, \tmp32
        orl     $0x80, \tmp32
        movb    \tmp8, (\p)
        addq    $1, \p
        shrq    $7, \v
        cmpq    $0x7f, \v
        ja      1b
2:      movb    \v8, (\p)
        addq    $1, \p
.endm

/* TTF_SLOT(fn): fn's slot into out (tmp clobbered, fn kept). */
.macro SLOT_OF fn, out, out32, tmp, tmp32
        movq    \fn, \out
        shrq    $4, \out
        movq    \fn, \tmp
        shrq    $10, \tmp
        xorl    \tmp32, \out32
        andl    $CAPL_SLOTS_MASK, \out32
.endm

#endif
