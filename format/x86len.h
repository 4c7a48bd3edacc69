/*
 * x86len.h - the length of an x86-64 instruction and where its address
 * fields are: enough decoding to compare two builds' machine code with the
 * addresses taken out (diff/codediff.c), to tell which instructions
 * may write memory (readonly.c), and to walk a function's instructions
 * (reads.c, cmpret.c). Internal to libttfmt and libttdiff.
 */
#ifndef TTFI_X86LEN_H
#define TTFI_X86LEN_H

#include <stddef.h>
#include <stdint.h>

/* One decoded instruction: its length and the fields that may hold an
 * address. Offsets are from the instruction's first byte; a length of 0
 * means no such field. */
struct ttfi_insn {
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
    uint8_t map;            /* opcode map: 0 one-byte, 1 0F, 2 0F 38,
                               3 0F 3A (VEX/EVEX: their map field) */
    uint8_t op;             /* the opcode byte in that map */
    uint8_t vex;            /* 0 legacy, 1 VEX, 2 EVEX */
    uint8_t pfx;            /* TTFI_PFX_* of the legacy prefixes (VEX/EVEX:
                               their pp field as 66/F3/F2) */
    uint8_t has_modrm;      /* 1: modrm below is the ModRM byte */
    uint8_t modrm;
    uint8_t reg;            /* ModRM.reg with REX.R / VEX.R: 0..15 */
    uint8_t rm;             /* mod 3: ModRM.rm with REX.B: 0..15 */
    int8_t base;            /* a memory operand's base register 0..15,
                               TTFI_BASE_NONE (absolute or index only),
                               TTFI_BASE_RIP; -1: no memory operand */
    int8_t index;           /* its SIB index register 0..15, -1 none */
    uint8_t w;              /* REX.W (or VEX/EVEX W): a 64-bit operand */
    uint8_t rexb;           /* REX.B (or VEX's): 0 or 8, for a register
                               in the opcode's low bits (push, pop, mov
                               imm) */
};

#define TTFI_PFX_66 1
#define TTFI_PFX_F3 2
#define TTFI_PFX_F2 4
#define TTFI_PFX_LOCK 8
#define TTFI_PFX_SEG 16     /* fs or gs: not the stack */
#define TTFI_BASE_NONE 16
#define TTFI_BASE_RIP 17

/* Decode the instruction at p (n bytes readable) into *out. 0, or -1 for
 * bytes that are no 64-bit instruction we know or that run past n (the
 * caller then compares the rest as raw bytes). Never reads past p + n. */
int ttfi_x86_decode(const uint8_t *p, size_t n, struct ttfi_insn *out);

/* 1 if the decoded instruction may write general register r (0..15):
 * explicit operands only (readonly.c). rexb: in->rexb for a legacy
 * instruction, 0 for a VEX one. */
int ttfi_x86_may_write(const struct ttfi_insn *in, unsigned r, uint8_t rexb);

/* The displacement of in's memory operand (p: its first byte), 0 if none. */
int64_t ttfi_x86_disp(const uint8_t *p, const struct ttfi_insn *in);
/* The offset in code a relative branch in at offset at goes to (may lie
 * outside the code: negative or past it). */
int64_t ttfi_x86_branch(const uint8_t *code, size_t at, const struct ttfi_insn *in);
/* Where a function's body starts: past endbr64. */
size_t ttfi_x86_body(const uint8_t *code, size_t n);
/* The instruction starts of code[at..n) in order into *starts (malloc'ed,
 * the caller frees it, also on failure), *nins of them: 0, or -1 for bytes
 * the decoder does not know or no memory. */
int ttfi_x86_starts(const uint8_t *code, size_t n, size_t at, size_t **starts, size_t *nins);
/* The index of the instruction starting at offset off in starts[0..nins)
 * (ascending), or SIZE_MAX. */
size_t ttfi_x86_index(const size_t *starts, size_t nins, uint64_t off);

#endif
