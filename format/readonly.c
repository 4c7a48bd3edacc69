/*
 * readonly.c - can a function write memory other than its own stack frame?
 * Asked of the machine code of a function with a plain `char *` parameter
 * (signature.c's value table): libttcap records a string's first bytes
 * when the call enters, which is what the caller passed in only when the
 * pointer is an input. A plain `char *` may be an output buffer: at entry
 * its bytes are whatever the memory held (an address, an old line), and
 * two identical runs would differ there. A function that cannot write
 * through any pointer cannot fill a buffer, so its `char *` is an input;
 * one that may (or that we cannot read) keeps its pointer compared as a
 * pointer, as before.
 *
 * The answer is yes (may write) unless every instruction of the function,
 * decoded from its entry to its end (x86len.c), is on the safe side:
 * - the hook's call as the first instruction (after endbr64): -pg -mfentry
 *   puts `call __fentry__` there; no other call (the callee may write);
 * - branches only to instruction starts inside the function (a jump out
 *   is a tail call; into an instruction, code we did not read); no
 *   indirect jump or call, no syscall or int;
 * - a memory operand based on %rsp (the frame; also %rbp after the frame
 *   prologue `push %rbp; mov %rsp,%rbp`, which nothing else may change),
 *   or an instruction that only reads its memory operand: a whitelist of
 *   loads, compares and arithmetic into a register, SSE loads and
 *   arithmetic (never a store form, never EVEX: masked stores);
 * - no string store (stos, movs, ins), no store to an absolute address;
 * - %rsp changed only by push/pop, add/sub/and with an immediate, lea
 *   off(%rsp) and leave (the frame's own), so %rsp stays in the stack.
 * Anything the decoder does not know is "may write". Leaf functions only,
 * by design: a call could pass the pointer on, and we keep no data flow.
 * Stage 0 base of format/STAGES.
 */
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "ttf_int.h"
#include "x86len.h"

#define RSP 4
#define RBP 5
#define CODE_MAX (1u << 20)    /* a function longer than this: may write */

/* One byte of a 256-bit set. */
static int in_set(const uint8_t *set, uint8_t op)
{
    return (set[op >> 3] >> (op & 7)) & 1;
}

/* Fill a 256-bit set from ranges {lo, hi} ending in {0, 0}. */
static void fill_set(uint8_t *set, const uint8_t (*r)[2])
{
    memset(set, 0, 32);
    for (; r[0][0] || r[0][1]; r++)
        for (unsigned op = r[0][0]; op <= r[0][1]; op++)
            set[op >> 3] |= (uint8_t)(1u << (op & 7));
}

/* One-byte opcodes that only read their r/m memory operand (the groups
 * 80-83, F6, F7, FF by their ModRM.reg apart). */
static const uint8_t rd_map0[][2] = {
    {0x02, 0x03}, {0x0a, 0x0b}, {0x12, 0x13}, {0x1a, 0x1b}, {0x22, 0x23},
    {0x2a, 0x2b}, {0x32, 0x33}, {0x38, 0x3b}, {0x63, 0x63}, {0x69, 0x69},
    {0x6b, 0x6b}, {0x84, 0x85}, {0x8a, 0x8b}, {0x8d, 0x8d}, {0, 0}};
/* 0F map: loads (never the store twins 11 13 17 29 2B 7F D6 E7 F7). */
static const uint8_t rd_map1[][2] = {
    {0x10, 0x10}, {0x12, 0x12}, {0x14, 0x16}, {0x18, 0x1f}, {0x28, 0x28},
    {0x2a, 0x2a}, {0x2c, 0x2f}, {0x40, 0x76}, {0x7c, 0x7d}, {0xa3, 0xa3},
    {0xaf, 0xaf}, {0xb6, 0xb8}, {0xbc, 0xbf}, {0xc2, 0xc2}, {0xc4, 0xc4},
    {0xc6, 0xc6}, {0xd0, 0xd5}, {0xd7, 0xe6}, {0xe8, 0xf6}, {0xf8, 0xfe},
    {0, 0}};
/* 0F 38 map: SSSE3/SSE4 arithmetic and loads, crc32 / movbe load. */
static const uint8_t rd_map2[][2] = {
    {0x00, 0x0b}, {0x10, 0x10}, {0x14, 0x15}, {0x17, 0x17}, {0x1c, 0x1e},
    {0x20, 0x25}, {0x28, 0x2b}, {0x30, 0x41}, {0xf0, 0xf0}, {0, 0}};
/* 0F 3A map: round, blend, palignr, pinsr, dpps, pclmul, pcmpxstr. */
static const uint8_t rd_map3[][2] = {
    {0x08, 0x0f}, {0x20, 0x22}, {0x40, 0x42}, {0x44, 0x44}, {0x60, 0x63},
    {0xdf, 0xdf}, {0, 0}};

/* The sets, built once (read-only after; a race builds them twice alike). */
static uint8_t sets[4][32];
static int sets_ready;

static const uint8_t *read_set(unsigned map)
{
    if (!__atomic_load_n(&sets_ready, __ATOMIC_ACQUIRE)) {
        fill_set(sets[0], rd_map0);
        fill_set(sets[1], rd_map1);
        fill_set(sets[2], rd_map2);
        fill_set(sets[3], rd_map3);
        __atomic_store_n(&sets_ready, 1, __ATOMIC_RELEASE);
    }
    return sets[map & 3];
}

static unsigned ext(const struct ttfi_insn *in)
{
    return (in->modrm >> 3) & 7;
}

/* 1 if the instruction's memory operand is only read. */
static int reads_memory_only(const struct ttfi_insn *in)
{
    if (in->vex == 2 || in->map > 3)
        return 0;
    if (in->map == 0 && (in->op == 0x80 || in->op == 0x81 || in->op == 0x83))
        return ext(in) == 7;                    /* cmp */
    if (in->map == 0 && (in->op == 0xf6 || in->op == 0xf7))
        return ext(in) != 2 && ext(in) != 3;    /* not, neg write */
    if (in->map == 0 && in->op == 0xff)
        return ext(in) == 6;                    /* push m */
    if (in->map == 1 && in->op == 0x7e)
        return in->pfx == TTFI_PFX_F3;          /* movq xmm, m64 */
    if (in->map == 1 && in->op == 0xba)
        return ext(in) == 4;                    /* bt m, imm */
    if (in->map == 2 && in->op == 0xf1)
        return (in->pfx & TTFI_PFX_F2) != 0;    /* crc32, not movbe m */
    return in_set(read_set(in->map), in->op);
}

/* 1 if the one-byte opcode's ModRM.reg is an opcode extension. */
static int group_op(const struct ttfi_insn *in)
{
    static const uint8_t g[] = {0x80, 0x81, 0x82, 0x83, 0x8f, 0xc0, 0xc1, 0xc6,
                                0xc7, 0xd0, 0xd1, 0xd2, 0xd3, 0xf6, 0xf7, 0xfe, 0xff};
    if (in->map != 0)
        return in->map == 1 && (in->op <= 0x01 || (in->op >= 0x18 && in->op <= 0x1f) ||
                                (in->op >= 0x71 && in->op <= 0x73) || in->op == 0xae ||
                                in->op == 0xba || in->op == 0xc7);
    return memchr(g, in->op, sizeof g) != NULL;
}

/* 1 if a 0F / 0F 38 / 0F 3A opcode works on SSE registers only (its
 * ModRM registers are xmm, never a general register it writes). */
static int sse_only(const struct ttfi_insn *in)
{
    if (in->map == 2)
        return in->op < 0xf0;
    if (in->map == 3)
        return (in->op < 0x14 || in->op > 0x17) && in->op < 0xf0;
    if (in->map != 1)
        return 0;
    uint8_t o = in->op;
    if (o == 0x2c || o == 0x2d || o == 0x50 || o == 0x7e || o == 0xc5 || o == 0xd7)
        return 0;               /* cvtt to, movmsk, movd to, pextrw, pmovmsk */
    return (o >= 0x10 && o <= 0x17) || (o >= 0x28 && o <= 0x2f) ||
           (o >= 0x51 && o <= 0x7f) || (o >= 0xc2 && o <= 0xc6) || o >= 0xd0;
}

/* 1 if the instruction may write general register r (0..15). Without a
 * ModRM: the register in the opcode's low bits (pop, xchg, mov imm,
 * bswap); with one: ModRM.rm (mod 3) always, ModRM.reg unless it is an
 * opcode extension; an SSE instruction writes none; a VEX BMI one may
 * write its vvvv too (never accepted: see ok_insn). */
int ttfi_x86_may_write(const struct ttfi_insn *in, unsigned r, uint8_t rexb)
{
    unsigned low = (in->op & 7) | rexb;
    if (!in->has_modrm) {
        if (in->map == 1)
            return in->op >= 0xc8 && in->op <= 0xcf && low == r;
        return ((in->op >= 0x58 && in->op <= 0x5f) || (in->op >= 0x90 && in->op <= 0x97) ||
                (in->op >= 0xb0 && in->op <= 0xbf)) && low == r;
    }
    if (in->map != 0 && sse_only(in))
        return 0;
    if (in->map == 1 && (in->op == 0x2c || in->op == 0x2d || in->op == 0x50 ||
                         in->op == 0xc5 || in->op == 0xd7))
        return in->reg == r;    /* from xmm (rm) into a register (reg) */
    if (in->map == 1 && in->op == 0x7e && in->pfx == TTFI_PFX_F3)
        return 0;               /* movq xmm, xmm/m64 */
    if ((in->modrm >> 6) == 3 && in->rm == r)
        return 1;
    return !group_op(in) && in->reg == r;
}

/* 1 if a write of %rsp by in keeps it in the stack: push/pop/ret (implicit),
 * add/sub/and imm, lea off(%rsp), leave in a frame. */
static int rsp_moves_ok(const struct ttfi_insn *in, int frame)
{
    if (in->map != 0 || in->vex)
        return 0;
    if ((in->op == 0x81 || in->op == 0x83) && (in->modrm >> 6) == 3)
        return ext(in) == 0 || ext(in) == 4 || ext(in) == 5;
    if (in->op == 0x8d)
        return in->base == RSP;
    return in->op == 0xc9 && frame;
}

/* The state of one check. */
struct scan {
    const uint8_t *code;
    size_t n;
    int frame;                  /* %rbp holds the frame (after the prologue) */
    uint8_t *starts;            /* bit per byte: an instruction starts here */
};

/* 1 if the branch of in at offset at lands on an instruction start. */
static int branch_ok(const struct scan *s, size_t at, const struct ttfi_insn *in)
{
    const uint8_t *p = s->code + at + in->imm_off;
    int64_t d = in->imm_len == 1 ? (int8_t)p[0] :
                (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                          (uint32_t)p[3] << 24);
    int64_t to = (int64_t)(at + in->len) + d;
    if (in->map == 0 && in->op == 0xe8)
        return 0;               /* call */
    if (in->imm_len != 1 && in->imm_len != 4)
        return 0;               /* xbegin with a 16-bit offset */
    return to >= 0 && (uint64_t)to < s->n && ((s->starts[to >> 3] >> (to & 7)) & 1);
}

/* 1 if the instruction without its branch and memory can write nothing
 * outside the frame: no control transfer out, no system call, no string
 * store, no store to an absolute address, no BMI with a vvvv destination. */
static int plain_ok(const struct ttfi_insn *in)
{
    static const uint8_t bad0[] = {0xa2, 0xa3, 0xa4, 0xa5, 0xaa, 0xab, 0x6c, 0x6d,
                                   0x6e, 0x6f, 0xcd, 0xc8, 0xce, 0xcf, 0xca, 0xcb};
    if (in->map == 0 && !in->vex) {
        if (in->op == 0xff && ext(in) >= 2 && ext(in) <= 5)
            return 0;           /* indirect call / jmp */
        if (in->op >= 0xd8 && in->op <= 0xdf)
            return 0;           /* x87: some forms store */
        return memchr(bad0, in->op, sizeof bad0) == NULL;
    }
    if (in->map == 1 && !in->vex)
        return in->op != 0x05 && in->op != 0x07 && in->op != 0x34 && in->op != 0x35;
    return !(in->vex && in->map == 2 && in->op >= 0xf0);
}

/* 1 if the instruction at offset at cannot write outside the frame. */
static int ok_insn(const struct scan *s, size_t at, const struct ttfi_insn *in)
{
    if (in->branch)
        return branch_ok(s, at, in);
    if (!plain_ok(in))
        return 0;
    if (in->map == 0 && !in->vex && in->op == 0xc9 && !s->frame)
        return 0;               /* leave: %rsp = %rbp, not our frame */
    int stack = (in->base == RSP || (in->base == RBP && s->frame)) &&
                !(in->pfx & TTFI_PFX_SEG);
    if (in->base >= 0 && !stack && !reads_memory_only(in))
        return 0;
    uint8_t b = in->vex ? 0 : in->rexb;
    if (ttfi_x86_may_write(in, RSP, b) && !rsp_moves_ok(in, s->frame))
        return 0;
    if (!s->frame || !ttfi_x86_may_write(in, RBP, b))
        return 1;
    return in->map == 0 && !in->vex && ((in->op == 0x5d && !b) || in->op == 0xc9);
}

/* Where the body starts: past endbr64, the hook's call and the frame
 * prologue (setting s->frame). */
static size_t body_start(struct scan *s)
{
    static const uint8_t endbr[] = {0xf3, 0x0f, 0x1e, 0xfa};
    static const uint8_t prologue[] = {0x55, 0x48, 0x89, 0xe5};
    size_t at = s->n >= 4 && !memcmp(s->code, endbr, 4) ? 4 : 0;
    struct ttfi_insn in;
    if (!ttfi_x86_decode(s->code + at, s->n - at, &in) && in.map == 0 && !in.vex &&
        (in.op == 0xe8 || (in.op == 0xff && ext(&in) == 2)))
        at += in.len;           /* call __fentry__ (E8, FF 15, 67 E8) */
    if (s->n - at >= 4 && !memcmp(s->code + at, prologue, 4)) {
        s->frame = 1;
        at += 4;
    }
    return at;
}

/* Mark instruction starts from at; 0, or -1 for bytes we cannot decode. */
static int mark_starts(struct scan *s, size_t at)
{
    struct ttfi_insn in;
    while (at < s->n) {
        if (ttfi_x86_decode(s->code + at, s->n - at, &in))
            return -1;
        s->starts[at >> 3] |= (uint8_t)(1u << (at & 7));
        at += in.len;
    }
    return 0;
}

int ttfi_code_reads_only(const uint8_t *code, size_t n)
{
    struct scan s = {code, n, 0, NULL};
    struct ttfi_insn in;
    if (!code || n == 0 || n > CODE_MAX)
        return 0;
    size_t at = body_start(&s);
    s.starts = calloc(n / 8 + 1, 1);
    if (!s.starts)
        return 0;
    int ok = mark_starts(&s, at) == 0;
    while (ok && at < n) {
        ok = !ttfi_x86_decode(code + at, n - at, &in) && ok_insn(&s, at, &in);
        at += in.len;
    }
    free(s.starts);
    return ok;
}

int ttfi_elf_reads_only(Elf *elf, uint64_t lo, uint64_t hi)
{
    Elf_Scn *scn = NULL;
    GElf_Shdr sh;
    if (!elf || hi <= lo || hi - lo > CODE_MAX)
        return 0;
    while ((scn = elf_nextscn(elf, scn)) != NULL) {
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
            !(sh.sh_flags & SHF_EXECINSTR) || lo < sh.sh_addr ||
            hi - sh.sh_addr > sh.sh_size)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        if (!d || !d->d_buf || d->d_size < hi - sh.sh_addr)
            return 0;
        return ttfi_code_reads_only((const uint8_t *)d->d_buf + (lo - sh.sh_addr),
                                    (size_t)(hi - lo));
    }
    return 0;
}
