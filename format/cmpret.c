/*
 * cmpret.c - does a function return, on some path, the result of a C
 * library comparison unchanged (ttf_sym_code_cmpret)? Asked by the values
 * comparison (diff/values.c) of a function whose integer results differ
 * between two runs: glibc's memcmp returns the byte difference or only its
 * sign, by where its buffers lie (a page end, its vector paths), so under
 * ASLR two runs of one program with one input return 1 and 3 from the
 * same comparator. The C standard and POSIX promise only the sign.
 *
 * The routines (sign_only below) are those whose result the C standard or
 * POSIX specifies by its sign alone: memcmp, strcmp, strncmp, strcoll,
 * wcscmp, wcsncmp, wmemcmp, wcscoll, strcasecmp, strncasecmp (and their
 * _l forms), wcscasecmp, wcsncasecmp, GNU's strverscmp, and bcmp (zero or
 * not: its sign says no less). A call of one is an imported function's:
 * through the PLT, or a GOT slot, whose relocation names it (code.c).
 *
 * Design: a forward data-flow pass over the function's instructions, as
 * reads.c does, to a fixed point over the branches. Each general register
 * carries two bits: SIGN (it holds such a routine's result as returned)
 * and RELAY (it holds the result of an indirect call as returned: a C++
 * virtual Compare, whose target the code does not say); a join is their
 * union (on some path). A call of a sign-only routine sets %rax SIGN; an
 * indirect call sets it RELAY; a direct call into the file (followed DEPTH
 * deep) sets the bits its callee returns; any other call, or any write of
 * a register, clears it (the caller-saved ones at a call), except a
 * register-to-register move (the bits copied), a conditional move (the
 * bits joined: on the path not taken it is unchanged), an exchange, and
 * a negation (a reversed order: its sign class still follows the
 * routine's, not the magnitude).
 * cmp, test and bt write nothing. A value stored from a register into the
 * frame at disp(%rbp) and loaded back keeps its bits (the -O0 spill; up to
 * SLOTS such slots); any other write there clears them. A `ret` reached
 * with %rax holding bits answers them; a tail jump answers its callee's
 * (a sign-only routine's: SIGN). Bytes the decoder does not know answer
 * nothing (0), and so does a function longer than CODE_CAP or one whose
 * pass does not settle or runs out of its BUDGET. Cost: a callee is
 * analysed once per question (MEMO), and code where no register holds a
 * bit (most code) is only followed for its calls and branches. An
 * indirect jump (a switch's table, a tail call
 * through a pointer) ends its path without an answer.
 * Stage 0 base of format/STAGES (the caller, code.c, says what a call
 * reaches through struct ttfi_reads_env).
 */
#include <stdlib.h>
#include <string.h>

#include "ttf_int.h"
#include "x86len.h"

#define RAX 0
#define RCX 1
#define RDX 2
#define RBX 3
#define RSP 4
#define RBP 5
#define RSI 6
#define RDI 7
#define CODE_CAP (64u << 10)    /* a longer function: no answer */
#define PASSES 64               /* fixed-point passes before no answer */
#define DEPTH 2                 /* direct calls followed into the file */
#define SLOTS 8                 /* frame slots disp(%rbp) followed */
#define BUDGET (1u << 18)       /* instruction steps per question */
#define MEMO 64                 /* callees' answers kept per question */
/* the caller-saved registers: rax rcx rdx rsi rdi r8-r11 */
#define CALLER_SAVED ((uint16_t)(0x0fc7u))

/* The routines whose result only its sign specifies. */
static const char *const sign_only[] = {
    "memcmp", "bcmp", "strcmp", "strncmp", "strcoll", "strcoll_l", "wcscmp", "wcsncmp",
    "wmemcmp", "wcscoll", "wcscoll_l", "strcasecmp", "strncasecmp", "strcasecmp_l",
    "strncasecmp_l", "wcscasecmp", "wcsncasecmp", "strverscmp"};

/* The bits at one instruction: [0] SIGN, [1] RELAY. */
struct cst {
    uint16_t reg[2];        /* bit r: general register r holds it */
    uint8_t slot[2];        /* bit k: frame slot k (cscan.slots) holds it */
    uint8_t seen;           /* 1: reached */
};

/* One question: its step budget and the callees' answers so far (each
 * callee analysed once, whatever the call site or the pass). */
struct cask {
    size_t budget;          /* steps left */
    uint64_t memo[MEMO];    /* callee addresses answered */
    uint8_t bits[MEMO];     /* their TTFI_CMPRET_* */
    size_t nmemo;
};

struct cscan {
    const struct ttfi_reads_env *env;
    uint64_t addr;          /* link-time address of code[0] */
    const uint8_t *code;
    size_t n;
    size_t *starts;         /* instruction offsets, ascending */
    size_t nins;
    struct cst *st;         /* the bits before each instruction */
    int64_t slots[SLOTS];   /* displacements from %rbp a result was stored at */
    int nslots;
    unsigned res;           /* TTFI_CMPRET_* found at a ret */
    int unknown, changed, depth;
    struct cask *ask;       /* the question: budget, callees answered */
};

int ttfi_sign_only(const char *name)
{
    for (size_t i = 0; name && i < sizeof sign_only / sizeof *sign_only; i++)
        if (!strcmp(name, sign_only[i]))
            return 1;
    return 0;
}

static unsigned analyse(const struct ttfi_reads_env *env, uint64_t addr, const uint8_t *code,
                        size_t n, int depth, struct cask *ask);

/* A callee's answer, analysed once per question. */
static unsigned callee_answer(struct cscan *s, uint64_t target, const uint8_t *code, size_t n)
{
    struct cask *a = s->ask;
    for (size_t i = 0; i < a->nmemo; i++)
        if (a->memo[i] == target)
            return a->bits[i];
    unsigned b = analyse(s->env, target, code, n, s->depth + 1, a);
    if (a->nmemo < MEMO) {
        a->memo[a->nmemo] = target;
        a->bits[a->nmemo++] = (uint8_t)b;
    }
    return b;
}

/* What a call or tail jump to target (via_slot: the word at target, a GOT
 * slot) returns: TTFI_CMPRET_*; -1 for a tracing hook (nothing). */
static int callee_bits(struct cscan *s, uint64_t target, int via_slot)
{
    const uint8_t *code = NULL;
    size_t n = 0;
    int kind = s->env->callee(s->env->ctx, target, via_slot, &code, &n);

    if (kind == TTFI_CALLEE_HOOK)
        return -1;
    if (kind == TTFI_CALLEE_FUNC && code)
        return s->depth >= DEPTH || target == s->addr ? 0 :
               (int)callee_answer(s, target, code, n);
    return s->env->import && ttfi_sign_only(s->env->import(s->env->ctx, target, via_slot)) ?
           TTFI_CMPRET_SIGN : 0;
}

/* r after a call that returns bits b (-1: a hook, nothing changes). */
static void after_call(struct cst *r, int b)
{
    if (b < 0)
        return;
    for (int k = 0; k < 2; k++) {
        r->reg[k] &= (uint16_t)~CALLER_SAVED;
        if ((unsigned)b & (1u << k))
            r->reg[k] |= 1u << RAX;
    }
}

/* The frame slot of a disp(%rbp) operand, -1 if none (add: make one). */
static int slot_of(struct cscan *s, size_t at, const struct ttfi_insn *in, int add)
{
    if (in->base != RBP || in->index >= 0 || (in->pfx & TTFI_PFX_SEG))
        return -1;
    int64_t d = ttfi_x86_disp(s->code + at, in);
    for (int k = 0; k < s->nslots; k++)
        if (s->slots[k] == d)
            return k;
    if (!add || s->nslots == SLOTS)
        return -1;
    s->slots[s->nslots] = d;
    s->changed = 1;
    return s->nslots++;
}

/* 1 if in writes no register: cmp, test, bt. */
static int no_write(const struct ttfi_insn *in)
{
    unsigned g = (in->modrm >> 3) & 7;
    if (in->map == 0)
        return (in->op >= 0x38 && in->op <= 0x3b) || in->op == 0x84 || in->op == 0x85 ||
               (in->op >= 0x80 && in->op <= 0x83 && g == 7) ||
               ((in->op == 0xf6 || in->op == 0xf7) && g <= 1);
    return in->map == 1 && !in->vex && (in->op == 0xa3 || (in->op == 0xba && g == 4));
}

/* 1 if in only reads its memory operand: no_write's, a load or
 * arithmetic into a register, movzx/movsx, imul, lea. */
static int mem_read_only(const struct ttfi_insn *in)
{
    static const uint8_t to_reg0[] = {0x02, 0x03, 0x0a, 0x0b, 0x12, 0x13, 0x1a, 0x1b, 0x22,
                                      0x23, 0x2a, 0x2b, 0x32, 0x33, 0x8a, 0x8b, 0x8d, 0x63,
                                      0x69, 0x6b};
    if (no_write(in))
        return 1;
    if (in->map == 0)
        return memchr(to_reg0, in->op, sizeof to_reg0) != NULL;
    return in->map == 1 && !in->vex && (in->op == 0xaf || in->op == 0xb6 || in->op == 0xb7 ||
                                        in->op == 0xbe || in->op == 0xbf ||
                                        (in->op >= 0x40 && in->op <= 0x4f));
}

/* The registers in writes that ttfi_x86_may_write does not show. */
static uint16_t implicit(const struct ttfi_insn *in)
{
    unsigned g = (in->modrm >> 3) & 7;
    if (in->map == 0 && ((in->op >= 0x98 && in->op <= 0x9f) || in->op == 0xd7 ||
                         (in->op >= 0xa4 && in->op <= 0xaf) || (in->op & 0xf4) == 0xe4 ||
                         in->op == 0xcd || ((in->op == 0xf6 || in->op == 0xf7) && g >= 4)))
        return CALLER_SAVED;
    if (in->map == 1 && (in->op == 0x01 || in->op == 0x05 || in->op == 0x31 ||
                         in->op == 0xa2 || in->op == 0xb0 || in->op == 0xb1 ||
                         in->op == 0xc0 || in->op == 0xc1 || in->op == 0xc7))
        return (uint16_t)(CALLER_SAVED | 1u << RBX);
    return 0;
}

/* Copy bit `from` of r's registers to bit `to` of out's (join: keep to's). */
static void copy_bit(const struct cst *r, struct cst *out, unsigned from, unsigned to, int join)
{
    for (int k = 0; k < 2; k++) {
        uint16_t b = (uint16_t)((r->reg[k] >> from) & 1u);
        if (!join)
            out->reg[k] &= (uint16_t)~(1u << to);
        out->reg[k] |= (uint16_t)(b << to);
    }
}

/* The register writes of in (state r before it) into out. */
static void writes(struct cscan *s, size_t at, const struct ttfi_insn *in, const struct cst *r,
                   struct cst *out)
{
    int mod3 = in->has_modrm && (in->modrm >> 6) == 3;
    int whole = !(in->pfx & TTFI_PFX_66) && !in->vex;

    if (in->nop)
        return;
    if (in->map == 0 && (in->op == 0x89 || in->op == 0x8b) && mod3 && whole) {
        copy_bit(r, out, in->op == 0x89 ? in->reg : in->rm, in->op == 0x89 ? in->rm : in->reg, 0);
        return;                                 /* mov reg, reg */
    }
    if (in->map == 1 && in->op >= 0x40 && in->op <= 0x4f && whole) {
        if (mod3)
            copy_bit(r, out, in->rm, in->reg, 1);   /* cmov: joined */
        return;
    }
    if (in->map == 0 && in->op == 0xf7 && mod3 && ((in->modrm >> 3) & 7) == 3)
        return;                                 /* neg: the sign class follows */
    if (in->map == 0 && in->op == 0x87 && mod3 && whole) {
        copy_bit(r, out, in->reg, in->rm, 0);
        copy_bit(r, out, in->rm, in->reg, 0);
        return;                                 /* xchg reg, reg */
    }
    if (in->map == 0 && in->op >= 0x91 && in->op <= 0x97 && whole) {
        unsigned o = (unsigned)(in->op & 7) | in->rexb;
        copy_bit(r, out, RAX, o, 0);
        copy_bit(r, out, o, RAX, 0);
        return;                                 /* xchg %rax, reg */
    }
    if (in->map == 0 && in->op == 0x8b && whole && !mod3) {
        int k = slot_of(s, at, in, 0);          /* a reload from the frame */
        for (int b = 0; b < 2; b++) {
            out->reg[b] &= (uint16_t)~(1u << in->reg);
            if (k >= 0 && (r->slot[b] >> k) & 1)
                out->reg[b] |= (uint16_t)(1u << in->reg);
        }
        return;
    }
    if (in->map == 0 && in->op == 0x89 && whole && !mod3 && in->base == RBP) {
        int set = ((r->reg[0] | r->reg[1]) >> in->reg) & 1;
        int k = slot_of(s, at, in, set);        /* a spill into the frame */
        for (int b = 0; b < 2 && k >= 0; b++) {
            out->slot[b] &= (uint8_t)~(1u << k);
            out->slot[b] |= (uint8_t)(((r->reg[b] >> in->reg) & 1u) << k);
        }
        return;
    }
    if (in->base == RBP && !mem_read_only(in)) {
        int k = slot_of(s, at, in, 0);          /* another write there */
        for (int b = 0; b < 2 && k >= 0; b++)
            out->slot[b] &= (uint8_t)~(1u << k);
    }
    uint16_t kill = implicit(in);
    for (unsigned d = 0; d < 16; d++)
        if (!no_write(in) && ttfi_x86_may_write(in, d, in->vex ? 0 : in->rexb))
            kill |= (uint16_t)(1u << d);
    if (in->map == 1 && in->op >= 0x40 && in->op <= 0x4f)
        kill = 0;
    out->reg[0] &= (uint16_t)~kill;
    out->reg[1] &= (uint16_t)~kill;
}

/* Join state r into instruction i's. */
static void flow(struct cscan *s, size_t i, const struct cst *r)
{
    struct cst *t = &s->st[i];
    struct cst old = *t;
    if (!t->seen) {
        *t = *r;
        t->seen = 1;
        s->changed = 1;
        return;
    }
    for (int k = 0; k < 2; k++) {
        t->reg[k] |= r->reg[k];
        t->slot[k] |= r->slot[k];
    }
    if (memcmp(&old, t, sizeof old))
        s->changed = 1;
}

/* An answer: the bits of %rax at a ret, or a tail call's. */
static void answer(struct cscan *s, unsigned bits)
{
    if (bits & ~s->res) {
        s->res |= bits;
        s->changed = 1;
    }
}

/* Control after instruction i (state r after it): jumps, tail calls, and
 * the next instruction. */
static void successors(struct cscan *s, size_t i, const struct ttfi_insn *in,
                       const struct cst *r)
{
    size_t at = s->starts[i];
    int jmp = in->map == 0 && (in->op == 0xe9 || in->op == 0xeb);
    int stop = jmp || (in->map == 0 && (in->op == 0xcc || in->op == 0xf4)) ||
               (in->map == 1 && in->op == 0x0b);
    if (in->branch && !(in->map == 0 && in->op == 0xe8)) {
        int64_t to = ttfi_x86_branch(s->code, at, in);
        size_t j = to >= 0 && (uint64_t)to < s->n ?
                   ttfi_x86_index(s->starts, s->nins, (uint64_t)to) : SIZE_MAX;
        if (j != SIZE_MAX) {
            flow(s, j, r);
        } else if (jmp) {
            int b = callee_bits(s, s->addr + (uint64_t)to, 0);  /* a tail call */
            answer(s, b < 0 ? 0 : (unsigned)b);
        }
    }
    if (!stop && i + 1 < s->nins)
        flow(s, i + 1, r);
}

/* One instruction i with its state. */
static void step(struct cscan *s, size_t i)
{
    size_t at = s->starts[i];
    struct ttfi_insn in;
    struct cst r = s->st[i];

    if (ttfi_x86_decode(s->code + at, s->n - at, &in)) {
        s->unknown = 1;
        return;
    }
    unsigned g = (in.modrm >> 3) & 7;
    if (in.map == 0 && (in.op == 0xc3 || in.op == 0xc2)) {
        answer(s, (r.reg[0] & 1u) | (r.reg[1] & 1u) << 1);
        return;
    }
    if (in.map == 0 && in.op == 0xff && in.has_modrm && (g == 2 || g == 4)) {
        uint64_t slot = s->addr + at + in.len + (uint64_t)ttfi_x86_disp(s->code + at, &in);
        int b = in.base == TTFI_BASE_RIP ? callee_bits(s, slot, 1) :
                g == 2 ? TTFI_CMPRET_RELAY : 0;
        if (g == 4) {               /* a tail jump through a slot; else a
                                       switch's table: the path ends */
            answer(s, in.base == TTFI_BASE_RIP && b > 0 ? (unsigned)b : 0);
            return;
        }
        after_call(&r, b);
    } else if (in.map == 0 && in.op == 0xe8) {
        after_call(&r, callee_bits(s, s->addr + (uint64_t)ttfi_x86_branch(s->code, at, &in), 0));
    } else if (r.reg[0] | r.reg[1] | r.slot[0] | r.slot[1]) {
        struct cst out = r;     /* (nothing to keep or kill: most code) */
        writes(s, at, &in, &r, &out);
        r = out;
    }
    successors(s, i, &in, &r);
}

static unsigned analyse(const struct ttfi_reads_env *env, uint64_t addr, const uint8_t *code,
                        size_t n, int depth, struct cask *ask)
{
    struct cscan s;
    int pass = 0;

    s = (struct cscan){.env = env, .addr = addr, .code = code, .n = n, .changed = 1,
                       .depth = depth, .ask = ask};
    if (!code || !n || n > CODE_CAP ||
        ttfi_x86_starts(code, n, ttfi_x86_body(code, n), &s.starts, &s.nins) < 0 || !s.nins ||
        !(s.st = calloc(s.nins, sizeof *s.st))) {
        free(s.starts);
        return 0;
    }
    s.st[0].seen = 1;
    while (s.changed && pass++ < PASSES && !s.unknown && ask->budget) {
        s.changed = 0;
        for (size_t i = 0; i < s.nins && ask->budget && !s.unknown; i++)
            if (s.st[i].seen) {
                ask->budget--;
                step(&s, i);
            }
    }
    unsigned res = s.unknown || s.changed || !ask->budget ? 0 : s.res;
    free(s.starts);
    free(s.st);
    return res;
}

unsigned ttfi_code_cmpret(const struct ttfi_reads_env *env, uint64_t addr, const uint8_t *code,
                          size_t n)
{
    struct cask ask;
    ask.budget = BUDGET;
    ask.nmemo = 0;
    return analyse(env, addr, code, n, 0, &ask);
}
