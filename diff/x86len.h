/*
 * x86len.h - the length of an x86-64 instruction and where its address
 * fields are: enough decoding to compare two builds' machine code with the
 * addresses taken out (codediff.c). Part of the prepare stage.
 */
#ifndef TTDI_X86LEN_H
#define TTDI_X86LEN_H

#include <stddef.h>
#include <stdint.h>

/* One decoded instruction: its length and the fields that may hold an
 * address. Offsets are from the instruction's first byte; a length of 0
 * means no such field. */
struct ttdi_insn {
    uint8_t len;            /* bytes, 1..15 */
    uint8_t disp_off;       /* the ModRM displacement */
    uint8_t disp_len;       /* 0, 1 or 4 */
    uint8_t imm_off;        /* the immediate (or moffs, or branch offset) */
    uint8_t imm_len;        /* 0, 1, 2, 4 or 8 (enter: 3, as one field) */
    uint8_t riprel;         /* 1: disp is rip-relative (target = end + disp) */
    uint8_t branch;         /* 1: imm is a relative branch (call, jmp, jcc,
                               loop, xbegin): target = end + imm */
    uint8_t nop;            /* 1: a no-op (nop, nopw/nopl, xchg %ax,%ax):
                               padding that carries no meaning */
};

/* Decode the instruction at p (n bytes readable) into *out. 0, or -1 for
 * bytes that are no 64-bit instruction we know or that run past n (the
 * caller then compares the rest as raw bytes). Never reads past p + n. */
int ttdi_x86_decode(const uint8_t *p, size_t n, struct ttdi_insn *out);

#endif
