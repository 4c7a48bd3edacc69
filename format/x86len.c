/*
 * x86len.c - x86-64 instruction lengths, and which bytes are displacements,
 * immediates and branch offsets (x86len.h).
 *
 * An instruction is: legacy prefixes (66 67 F0 F2 F3 and the segment ones),
 * a REX byte (40-4F) or a VEX (C4/C5) / EVEX (62) prefix, an opcode in one
 * of the maps (one byte, 0F, 0F 38, 0F 3A), a ModRM byte with an optional
 * SIB byte and 0/1/4-byte displacement, then an immediate. In 64-bit mode
 * C4, C5 and 62 are always VEX/EVEX. The tables below say, per opcode of
 * the one-byte and 0F maps, whether a ModRM follows and what immediate;
 * 0F 38 always has a ModRM and no immediate, 0F 3A a ModRM and an imm8.
 * Opcodes invalid in 64-bit mode decode as errors, so a table out of step
 * with the bytes shows up as a failure rather than as silent misalignment
 * (tests/unit/test_codediff.c checks the boundaries against objdump).
 * Besides the lengths the decoder names the opcode (map and byte), the
 * prefixes, the ModRM registers with their REX/VEX extensions and a memory
 * operand's base register: enough for readonly.c to tell an instruction
 * that may write memory from one that only reads it.
 */
#include <stdlib.h>
#include <string.h>

#include "x86len.h"

/* Immediate kinds of the tables. */
enum {
    I_NONE = 0,
    I_B,        /* imm8 */
    I_W,        /* imm16 */
    I_Z,        /* imm16 with a 66 prefix (no REX.W), else imm32 */
    I_V,        /* B8-BF: imm64 with REX.W, imm16 with 66, else imm32 */
    I_M,        /* A0-A3: moffs, 8 bytes (4 with a 67 prefix) */
    I_REL8,     /* branch offset, 1 byte */
    I_REL32,    /* branch offset, 4 bytes */
    I_ENTER,    /* imm16 + imm8 */
    I_GRP3B,    /* F6: imm8 when ModRM.reg is 0 or 1 */
    I_GRP3Z,    /* F7: immz when ModRM.reg is 0 or 1 */
    I_XBEGIN,   /* C7: immz; C7 F8 (xbegin) is a rel32 branch */
    I_BAD       /* invalid in 64-bit mode (or a prefix handled elsewhere) */
};

#define M 0x10  /* flag: a ModRM byte follows */

/* One-byte map: M | immediate kind. */
static const uint8_t map1[256] = {
    /* 00 */ M, M, M, M, I_B, I_Z, I_BAD, I_BAD, M, M, M, M, I_B, I_Z, I_BAD, I_BAD,
    /* 10 */ M, M, M, M, I_B, I_Z, I_BAD, I_BAD, M, M, M, M, I_B, I_Z, I_BAD, I_BAD,
    /* 20 */ M, M, M, M, I_B, I_Z, I_BAD, I_BAD, M, M, M, M, I_B, I_Z, I_BAD, I_BAD,
    /* 30 */ M, M, M, M, I_B, I_Z, I_BAD, I_BAD, M, M, M, M, I_B, I_Z, I_BAD, I_BAD,
    /* 40 */ I_BAD, I_BAD, I_BAD, I_BAD, I_BAD, I_BAD, I_BAD, I_BAD,
             I_BAD, I_BAD, I_BAD, I_BAD, I_BAD, I_BAD, I_BAD, I_BAD,
    /* 50 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 60 */ I_BAD, I_BAD, I_BAD, M, I_BAD, I_BAD, I_BAD, I_BAD,
             I_Z, M | I_Z, I_B, M | I_B, 0, 0, 0, 0,
    /* 70 */ I_REL8, I_REL8, I_REL8, I_REL8, I_REL8, I_REL8, I_REL8, I_REL8,
             I_REL8, I_REL8, I_REL8, I_REL8, I_REL8, I_REL8, I_REL8, I_REL8,
    /* 80 */ M | I_B, M | I_Z, I_BAD, M | I_B, M, M, M, M, M, M, M, M, M, M, M, M,
    /* 90 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, I_BAD, 0, 0, 0, 0, 0,
    /* A0 */ I_M, I_M, I_M, I_M, 0, 0, 0, 0, I_B, I_Z, 0, 0, 0, 0, 0, 0,
    /* B0 */ I_B, I_B, I_B, I_B, I_B, I_B, I_B, I_B,
             I_V, I_V, I_V, I_V, I_V, I_V, I_V, I_V,
    /* C0 */ M | I_B, M | I_B, I_W, 0, I_BAD, I_BAD, M | I_B, M | I_XBEGIN,
             I_ENTER, 0, I_W, 0, 0, I_B, I_BAD, 0,
    /* D0 */ M, M, M, M, I_BAD, I_BAD, I_BAD, 0, M, M, M, M, M, M, M, M,
    /* E0 */ I_REL8, I_REL8, I_REL8, I_REL8, I_B, I_B, I_B, I_B,
             I_REL32, I_REL32, I_BAD, I_REL8, 0, 0, 0, 0,
    /* F0 */ I_BAD, 0, I_BAD, I_BAD, 0, 0, M | I_GRP3B, M | I_GRP3Z,
             0, 0, 0, 0, 0, 0, M, M,
};

/* 0F map. 0F 38 and 0F 3A are escapes handled apart. */
static const uint8_t map2[256] = {
    /* 00 */ M, M, M, M, I_BAD, 0, 0, 0, 0, 0, I_BAD, 0, I_BAD, M, 0, M | I_B,
    /* 10 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
    /* 20 */ M, M, M, M, I_BAD, I_BAD, I_BAD, I_BAD, M, M, M, M, M, M, M, M,
    /* 30 */ 0, 0, 0, 0, 0, 0, I_BAD, 0, I_BAD, I_BAD, I_BAD, I_BAD,
             I_BAD, I_BAD, I_BAD, I_BAD,
    /* 40 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
    /* 50 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
    /* 60 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
    /* 70 */ M | I_B, M | I_B, M | I_B, M | I_B, M, M, M, 0,
             M, M, I_BAD, I_BAD, M, M, M, M,
    /* 80 */ I_REL32, I_REL32, I_REL32, I_REL32, I_REL32, I_REL32, I_REL32, I_REL32,
             I_REL32, I_REL32, I_REL32, I_REL32, I_REL32, I_REL32, I_REL32, I_REL32,
    /* 90 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
    /* A0 */ 0, 0, 0, M, M | I_B, M, I_BAD, I_BAD, 0, 0, 0, M, M | I_B, M, M, M,
    /* B0 */ M, M, M, M, M, M, M, M, M, M, M | I_B, M, M, M, M, M,
    /* C0 */ M, M, M | I_B, M, M | I_B, M | I_B, M | I_B, M,
             0, 0, 0, 0, 0, 0, 0, 0,
    /* D0 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
    /* E0 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
    /* F0 */ M, M, M, M, M, M, M, M, M, M, M, M, M, M, M, M,
};

/* Decoding state of one instruction. */
struct dec {
    const uint8_t *p;       /* the instruction */
    size_t n;               /* bytes readable */
    size_t i;               /* next byte */
    int opsize16;           /* a 66 prefix */
    int addr32;             /* a 67 prefix */
    int rexw;               /* REX.W (or VEX/EVEX W) */
    uint8_t rexr, rexb;     /* REX.R / REX.B (or VEX's): 0 or 8 */
    uint8_t rexx;           /* REX.X (or VEX's): 0 or 8 */
};

static int is_legacy_prefix(uint8_t b)
{
    return b == 0x66 || b == 0x67 || b == 0xf0 || b == 0xf2 || b == 0xf3 ||
           b == 0x2e || b == 0x36 || b == 0x3e || b == 0x26 || b == 0x64 ||
           b == 0x65;
}

/* TTFI_PFX_* of a legacy prefix byte. */
static uint8_t prefix_flag(uint8_t b)
{
    return b == 0x66 ? TTFI_PFX_66 : b == 0xf3 ? TTFI_PFX_F3 :
           b == 0xf2 ? TTFI_PFX_F2 : b == 0xf0 ? TTFI_PFX_LOCK :
           b == 0x64 || b == 0x65 ? TTFI_PFX_SEG : 0;
}

/* ModRM, SIB and displacement at d->i. 0 or -1 (truncated). */
static int modrm(struct dec *d, struct ttfi_insn *out)
{
    if (d->i >= d->n)
        return -1;
    uint8_t m = d->p[d->i++];
    unsigned mod = m >> 6, rm = m & 7;
    out->has_modrm = 1;
    out->modrm = m;
    out->reg = (uint8_t)(((m >> 3) & 7) | d->rexr);
    if (mod == 3) {
        out->rm = (uint8_t)(rm | d->rexb);
        return 0;
    }
    unsigned disp = mod == 1 ? 1 : mod == 2 ? 4 : 0;
    out->base = (int8_t)(rm | d->rexb);
    if (rm == 4) {
        if (d->i >= d->n)
            return -1;
        uint8_t sib = d->p[d->i++];
        out->base = (int8_t)((sib & 7) | d->rexb);
        if ((((sib >> 3) & 7) | d->rexx) != 4)
            out->index = (int8_t)(((sib >> 3) & 7) | d->rexx);
        if (mod == 0 && (sib & 7) == 5) {
            disp = 4;
            out->base = TTFI_BASE_NONE;
        }
    } else if (mod == 0 && rm == 5) {
        disp = 4;
        out->riprel = 1;
        out->base = TTFI_BASE_RIP;
    }
    out->disp_off = (uint8_t)d->i;
    out->disp_len = (uint8_t)disp;
    d->i += disp;
    return d->i <= d->n ? 0 : -1;
}

/* Bytes of immediate kind k (ModRM byte m for the group-3 kinds). */
static unsigned imm_size(const struct dec *d, int k, uint8_t m,
                         struct ttfi_insn *out)
{
    unsigned z = d->opsize16 && !d->rexw ? 2 : 4;
    unsigned reg = (m >> 3) & 7;
    switch (k) {
    case I_B: return 1;
    case I_W: return 2;
    case I_Z: return z;
    case I_V: return d->rexw ? 8 : z;
    case I_M: return d->addr32 ? 4 : 8;
    case I_REL8: out->branch = 1; return 1;
    case I_REL32: out->branch = 1; return 4;
    case I_ENTER: return 3;
    case I_GRP3B: return reg <= 1 ? 1 : 0;
    case I_GRP3Z: return reg <= 1 ? z : 0;
    case I_XBEGIN: out->branch = m == 0xf8; return z;
    default: return 0;
    }
}

/* The opcode's ModRM and immediate, by table entry e. */
static int operands(struct dec *d, unsigned e, struct ttfi_insn *out)
{
    int k = (int)(e & 0x0f);
    uint8_t m = 0;
    if (k == I_BAD)
        return -1;
    if (e & M) {
        if (d->i >= d->n)
            return -1;
        m = d->p[d->i];
        if (modrm(d, out))
            return -1;
    }
    unsigned sz = imm_size(d, k, m, out);
    if (sz) {
        out->imm_off = (uint8_t)d->i;
        out->imm_len = (uint8_t)sz;
        d->i += sz;
    }
    return d->i <= d->n && d->i <= 15 ? 0 : -1;
}

/* Entry of opcode op in map (1: 0F, 2: 0F 38, 3: 0F 3A) for VEX/EVEX. */
static unsigned vex_entry(unsigned map, uint8_t op)
{
    if (map == 3)
        return M | I_B;
    if (map == 1 && ((op >= 0x70 && op <= 0x73) || op == 0xc2 ||
                     (op >= 0xc4 && op <= 0xc6)))
        return M | I_B;
    if (map == 1 && op == 0x77)
        return 0;           /* vzeroupper, vzeroall */
    return map >= 1 && map <= 6 ? M : I_BAD;
}

/* A VEX (C4, C5) or EVEX (62) instruction from its first byte at d->i. */
static int vex(struct dec *d, struct ttfi_insn *out)
{
    uint8_t b = d->p[d->i];
    size_t plen = b == 0xc5 ? 2 : b == 0xc4 ? 3 : 4;
    if (d->i + plen >= d->n)
        return -1;
    const uint8_t *v = d->p + d->i;
    unsigned map = b == 0xc5 ? 1 : b == 0xc4 ? (v[1] & 0x1f) : (v[1] & 0x07);
    static const uint8_t pp_pfx[4] = {0, TTFI_PFX_66, TTFI_PFX_F3, TTFI_PFX_F2};
    d->rexw = b == 0xc5 ? 0 : (v[2] >> 7) & 1;
    d->rexr = v[1] & 0x80 ? 0 : 8;
    d->rexb = b != 0xc5 && !(v[1] & 0x20) ? 8 : 0;
    d->rexx = b != 0xc5 && !(v[1] & 0x40) ? 8 : 0;
    out->pfx = pp_pfx[v[b == 0xc4 ? 2 : 1 + (b == 0x62)] & 3];
    out->vex = b == 0x62 ? 2 : 1;
    d->i += plen;
    uint8_t op = d->p[d->i++];
    out->map = (uint8_t)map;
    out->op = op;
    return operands(d, vex_entry(map, op), out);
}

/* 1 if the decoded instruction is padding: nop (90 without REX.B: 41 90
 * is xchg %eax,%r8d), nopw/nopl (0F 1F /0), with any prefixes. */
static int padding(const struct dec *d, size_t op_at, int map, uint8_t op,
                   uint8_t rex)
{
    if (map == 0 && op == 0x90)
        return !(rex & 1) && !(op_at > 0 && d->p[op_at - 1] == 0xf3);
    return map == 1 && op == 0x1f && ((d->p[op_at + 2] >> 3) & 7) == 0;
}

/* Opcode (after prefixes and REX at d->i) through the one-byte or 0F map. */
static int opcode(struct dec *d, uint8_t rex, struct ttfi_insn *out)
{
    size_t op_at = d->i;
    uint8_t op = d->p[d->i++];
    out->op = op;
    if (op != 0x0f) {
        int rc = operands(d, map1[op], out);
        out->nop = !rc && padding(d, op_at, 0, op, rex);
        return rc;
    }
    if (d->i >= d->n)
        return -1;
    uint8_t op2 = d->p[d->i++];
    out->map = 1;
    out->op = op2;
    if (op2 == 0x38 || op2 == 0x3a) {
        if (d->i >= d->n)
            return -1;
        out->map = op2 == 0x38 ? 2 : 3;
        out->op = d->p[d->i++];
        return operands(d, op2 == 0x38 ? M : M | I_B, out);
    }
    int rc = operands(d, map2[op2], out);
    out->nop = !rc && padding(d, op_at, 1, op2, rex);
    return rc;
}

int ttfi_x86_decode(const uint8_t *p, size_t n, struct ttfi_insn *out)
{
    struct dec d = {p, n, 0, 0, 0, 0, 0, 0, 0};
    uint8_t rex = 0;

    memset(out, 0, sizeof *out);
    out->base = -1;
    out->index = -1;
    while (d.i < n && d.i < 14 && is_legacy_prefix(p[d.i])) {
        d.opsize16 |= p[d.i] == 0x66;
        d.addr32 |= p[d.i] == 0x67;
        out->pfx |= prefix_flag(p[d.i]);
        d.i++;
    }
    if (d.i >= n)
        return -1;
    if (p[d.i] == 0xc4 || p[d.i] == 0xc5 || p[d.i] == 0x62) {
        if (vex(&d, out))
            return -1;
    } else {
        if ((p[d.i] & 0xf0) == 0x40) {
            rex = p[d.i++];
            d.rexw = (rex >> 3) & 1;
            d.rexr = (uint8_t)((rex & 4) << 1);
            d.rexb = (uint8_t)((rex & 1) << 3);
            d.rexx = (uint8_t)((rex & 2) << 2);
        }
        if (d.i >= n || opcode(&d, rex, out))
            return -1;
    }
    if (d.i > 15 || d.i > n)
        return -1;
    out->len = (uint8_t)d.i;
    out->w = (uint8_t)d.rexw;
    out->rexb = d.rexb;
    return 0;
}

/* ---- walking a function's instructions (reads.c, cmpret.c) ---------------- */

int64_t ttfi_x86_disp(const uint8_t *p, const struct ttfi_insn *in)
{
    if (in->disp_len == 1)
        return (int8_t)p[in->disp_off];
    if (in->disp_len != 4)
        return 0;
    const uint8_t *d = p + in->disp_off;
    return (int32_t)((uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 |
                     (uint32_t)d[3] << 24);
}

int64_t ttfi_x86_branch(const uint8_t *code, size_t at, const struct ttfi_insn *in)
{
    const uint8_t *p = code + at + in->imm_off;
    int64_t d = in->imm_len == 1 ? (int8_t)p[0] :
                (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                          (uint32_t)p[3] << 24);
    return (int64_t)(at + in->len) + d;
}

size_t ttfi_x86_body(const uint8_t *code, size_t n)
{
    static const uint8_t endbr[] = {0xf3, 0x0f, 0x1e, 0xfa};
    return n >= 4 && !memcmp(code, endbr, 4) ? 4 : 0;
}

int ttfi_x86_starts(const uint8_t *code, size_t n, size_t at, size_t **starts, size_t *nins)
{
    struct ttfi_insn in;
    size_t cap = 64;

    *nins = 0;
    if (!(*starts = malloc(cap * sizeof **starts)))
        return -1;
    while (at < n) {
        if (ttfi_x86_decode(code + at, n - at, &in))
            return -1;
        if (*nins == cap) {
            size_t *p = realloc(*starts, 2 * cap * sizeof *p);
            if (!p)
                return -1;
            *starts = p;
            cap *= 2;
        }
        (*starts)[(*nins)++] = at;
        at += in.len;
    }
    return 0;
}

size_t ttfi_x86_index(const size_t *starts, size_t nins, uint64_t off)
{
    size_t lo = 0, hi = nins;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (starts[mid] < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < nins && starts[lo] == off ? lo : SIZE_MAX;
}
