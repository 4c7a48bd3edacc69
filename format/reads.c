/*
 * reads.c - does a function read memory other threads can write? Asked
 * of the machine code of the calls a thread made between a check and the
 * act of a check-then-act (diff/races.c, issue 33): the check is the last
 * call before the act that reads shared state, and busy work that reads
 * only its own stack and its scalar arguments is not it. The trace of a
 * plain build has no values to tell them apart; the code does.
 *
 * The answer (TTFI_READS_*) is SHARED when some instruction reads memory
 * through an address that may lie outside the thread's stack: a writable
 * global (rip-relative, or absolute in a position-dependent file, into a
 * writable section), or memory through a register that may hold such an
 * address; OWN when every read is from the stack, thread-local storage or
 * read-only data and nothing unknown runs; UNKNOWN otherwise. What a
 * register may hold is followed through the code (a forward data-flow
 * pass over the instructions, to a fixed point over the branches), each
 * general register one of three, ordered:
 *   NP  not an address other threads' data is at: a scalar (any 32-bit or
 *       narrower result, an immediate, a product), a read-only or code
 *       address, a callee-saved register's entry value (the caller's, which
 *       the function only saves), an argument register past the declared
 *       parameters or a scalar parameter (the caller's `ptr_args` says);
 *   ST  an address in the stack: %rsp, and what is computed from it (lea,
 *       moves, adding scalars);
 *   SH  anything else: a pointer parameter, a value loaded from memory
 *       outside the stack, a returned value, a writable global's address.
 * Joins take the larger. A value loaded from the stack is the largest one
 * the function stored there (one value for the whole frame; SH from the
 * start when arguments past the six registers may be pointers: they are
 * in the caller's frame above the return address); a call given a stack
 * address may store anything there, so it makes that SH.
 * Calls: a call into the function's own file is followed (its argument
 * registers as they are at the call, three levels deep); the tracing
 * hooks are nothing; a call to another module (through the PLT or a GOT
 * slot) reads what it is given, so it counts as reading shared memory
 * only when an argument register may hold such an address (UNKNOWN: its
 * own globals are its business, not the program's shared state); an
 * indirect call or jump, a system call, a jump out of the function other
 * than a tail call, or bytes the decoder does not know make it UNKNOWN.
 * After a call %rax and %rdx hold its result (SH), the other caller-saved
 * registers nothing the code may use (NP).
 * Limits. Stores count as reads unless they are plain stores (mov, set,
 * SSE stores, stos): a read-modify-write reads. A pointer moved through
 * an SSE register comes back SH; one stored in the stack from an SSE
 * register makes the frame's value SH. The answer is about the code, not
 * the run: a read on a path the run did not take counts.
 * The globals a function names (ttfi_code_globals, issue 33: a stop flag
 * one thread sets and another polls): the writable globals its
 * instructions address directly (rip-relative, or absolute in a
 * position-dependent file), each read (any form but a plain store) or
 * written (a plain store or a read-modify-write), its direct calls into
 * the file followed DEPTH deep; no data flow: a global reached through a
 * pointer or an index register is not named, nor thread-local storage.
 * The struct fields a function reaches through its pointer parameters
 * (ttfi_code_fields, issue 33: a flag in a heap struct both threads reach
 * through pointers): a second forward pass tags a register holding an
 * argument register's entry value, unchanged or plus a constant (see the
 * section's comment); an operand disp(%reg) with a tagged base and no
 * index is a field access, read or written as above; a direct call into
 * the file given the parameter itself in an argument register reports
 * the callee's accesses through that parameter of its own (DEPTH deep).
 * A value reloaded from memory, the stack included, is not a parameter
 * (the -O0 spill is not followed); code.c types each by the DWARF type
 * of the parameter it came from.
 * Stage 0 base of format/STAGES (the caller, code.c, says what an address
 * of the file is through struct ttfi_reads_env).
 */
#include <stdlib.h>
#include <string.h>

#include "ttf_int.h"
#include "x86len.h"

#define NP 0
#define ST 1
#define SH 2
#define RAX 0
#define RCX 1
#define RDX 2
#define RSP 4
#define RSI 6
#define RDI 7
#define CODE_CAP (64u << 10)    /* a longer function: UNKNOWN */
#define PASSES 64               /* fixed-point passes before UNKNOWN */
#define DEPTH 3                 /* calls followed into the file */
#define BUDGET (1u << 19)       /* instruction steps per question, callees
                                   (each call site's, each pass) included:
                                   past it, UNKNOWN */

static const uint8_t arg_reg[6] = {RDI, RSI, RDX, RCX, 8, 9};

/* The registers' values at one instruction. */
struct rst {
    uint8_t v[16];
    uint8_t seen;           /* 1: reached */
};

struct rscan {
    const struct ttfi_reads_env *env;
    uint64_t addr;          /* link-time address of code[0] */
    const uint8_t *code;
    size_t n;
    size_t *starts;         /* instruction offsets, ascending */
    size_t nins;
    struct rst *st;         /* the state before each instruction */
    uint8_t slot;           /* the largest value stored in the stack */
    int shared, unknown;    /* what was found */
    int depth;
    int changed;
    size_t *budget;         /* steps left for the whole question */
};

static uint8_t max8(uint8_t a, uint8_t b)
{
    return a > b ? a : b;
}

/* SH if link-time address a is in a writable section, else NP. */
static uint8_t addr_value(const struct rscan *s, uint64_t a)
{
    return s->env->writable(s->env->ctx, a) == 1 ? SH : NP;
}

/* An immediate's value: an address only in a position-dependent file. */
static uint8_t imm_value(const struct rscan *s, const uint8_t *p, const struct ttfi_insn *in)
{
    uint64_t v = 0;
    if (!s->env->position_dependent || in->imm_len < 4)
        return NP;
    for (int i = in->imm_len - 1; i >= 0; i--)
        v = v << 8 | p[in->imm_off + (unsigned)i];
    return addr_value(s, v);
}

/* The memory operand's kind: ST (the stack), NP (thread-local, read-only
 * or no image), SH (may be shared). A TLS operand is NP. */
static uint8_t mem_kind(const struct rscan *s, size_t at, const struct ttfi_insn *in,
                        const struct rst *r)
{
    const uint8_t *p = s->code + at;
    int64_t d = ttfi_x86_disp(p, in);
    if (in->pfx & TTFI_PFX_SEG)
        return NP;
    if (in->base == TTFI_BASE_RIP)
        return addr_value(s, s->addr + at + in->len + (uint64_t)d);
    uint8_t ix = in->index >= 0 ? r->v[in->index] : NP;
    if (in->base == TTFI_BASE_NONE)
        return max8(ix == SH ? SH : NP,
                    s->env->position_dependent ? addr_value(s, (uint64_t)d) : NP);
    uint8_t b = r->v[in->base];
    return b == SH || ix == SH ? SH : b == ST || ix == ST ? ST : NP;
}

/* The value an instruction loads from its memory operand of kind k. */
static uint8_t loaded(const struct rscan *s, size_t at, const struct ttfi_insn *in, uint8_t k)
{
    if (k == ST)
        return s->slot;
    if ((in->pfx & TTFI_PFX_SEG) && in->base == TTFI_BASE_NONE &&
        ttfi_x86_disp(s->code + at, in) == 0x28)
        return NP;          /* the stack protector's canary */
    return SH;
}

/* 1 if the instruction only stores to its memory operand. */
static int plain_store(const struct ttfi_insn *in)
{
    static const uint8_t st1[] = {0x11, 0x13, 0x17, 0x29, 0x2b, 0x7f, 0xd6, 0xe7, 0xc3};
    if (in->map == 0)
        return in->op == 0x88 || in->op == 0x89 || in->op == 0xc6 || in->op == 0xc7 ||
               in->op == 0x8f;
    if (in->map == 1)
        return memchr(st1, in->op, sizeof st1) != NULL || (in->op >= 0x90 && in->op <= 0x9f) ||
               (in->op == 0x7e && in->pfx == TTFI_PFX_66);
    return 0;
}

/* A store into the stack: the frame's value grows by what is stored. */
static void stack_store(struct rscan *s, const struct ttfi_insn *in, const struct rst *r)
{
    uint8_t v = NP;
    if (in->map == 0 && (in->op == 0x89 || in->op == 0x87) && in->w)
        v = r->v[in->reg];
    else if (in->map != 0 && plain_store(in) && in->op != 0xc3 && !(in->op >= 0x90 && in->op <= 0x9f))
        v = SH;             /* from an SSE register */
    else if (in->map == 1 && in->op == 0xc3 && in->w)
        v = r->v[in->reg];  /* movnti */
    if (v > s->slot) {
        s->slot = v;
        s->changed = 1;
    }
}

/* The register in assigns (its old value not kept), -1 for none or
 * another form: reg of a load, move or lea; rm (a register) of a move,
 * arithmetic, shift, inc/dec, not/neg; the register of pop or mov imm. */
static int dest_reg(const struct ttfi_insn *in)
{
    static const uint8_t to_reg0[] = {0x02, 0x03, 0x0a, 0x0b, 0x12, 0x13, 0x1a, 0x1b, 0x22,
                                      0x23, 0x2a, 0x2b, 0x32, 0x33, 0x8a, 0x8b, 0x8d, 0x63,
                                      0x69, 0x6b};
    static const uint8_t to_rm0[] = {0x00, 0x01, 0x08, 0x09, 0x10, 0x11, 0x18, 0x19, 0x20,
                                     0x21, 0x28, 0x29, 0x30, 0x31, 0x88, 0x89, 0xc0, 0xc1,
                                     0xd0, 0xd1, 0xd2, 0xd3};
    static const uint8_t to_reg1[] = {0xaf, 0xb6, 0xb7, 0xbc, 0xbd, 0xbe, 0xbf};
    unsigned g = (in->modrm >> 3) & 7;
    int mod3 = in->has_modrm && (in->modrm >> 6) == 3;
    if (in->vex)
        return -1;
    if (in->map == 1)
        return in->has_modrm && memchr(to_reg1, in->op, sizeof to_reg1) ? in->reg : -1;
    if (in->map != 0)
        return -1;
    if (!in->has_modrm)
        return (in->op >= 0x58 && in->op <= 0x5f) || (in->op >= 0xb0 && in->op <= 0xbf) ?
               (int)((in->op & 7) | in->rexb) : -1;
    if (memchr(to_reg0, in->op, sizeof to_reg0))
        return in->reg;
    if (!mod3)
        return -1;
    if (memchr(to_rm0, in->op, sizeof to_rm0) ||
        ((in->op >= 0x80 && in->op <= 0x83) && g != 7) ||
        ((in->op == 0xc6 || in->op == 0xc7) && g == 0) ||
        ((in->op == 0xf6 || in->op == 0xf7) && (g == 2 || g == 3)) ||
        ((in->op == 0xfe || in->op == 0xff) && g <= 1))
        return in->rm;
    return -1;
}

/* 1 if in writes 8 or 16 bits of its register (the rest kept). */
static int narrow(const struct ttfi_insn *in)
{
    if (in->pfx & TTFI_PFX_66)
        return !in->w;
    if (in->map == 0)
        return (in->op < 0x40 && !(in->op & 1)) || in->op == 0x88 || in->op == 0x8a ||
               (in->op >= 0xb0 && in->op <= 0xb7) || in->op == 0xc6 || in->op == 0x80 ||
               in->op == 0xc0 || in->op == 0xd0 || in->op == 0xd2 || in->op == 0xf6 ||
               in->op == 0xfe;
    return 0;
}

/* 1 if in's ModRM.reg names a register (not an opcode extension). */
static int reg_operand(const struct ttfi_insn *in)
{
    static const uint8_t g[] = {0x80, 0x81, 0x82, 0x83, 0x8f, 0xc0, 0xc1, 0xc6,
                                0xc7, 0xd0, 0xd1, 0xd2, 0xd3, 0xf6, 0xf7, 0xfe, 0xff};
    return in->has_modrm && !(in->map == 0 && memchr(g, in->op, sizeof g));
}

/* The value register d gets from in, which assigns it (m: the memory
 * operand's kind, or -1 for none). */
static uint8_t assigned(const struct rscan *s, size_t at, const struct ttfi_insn *in,
                        const struct rst *r, unsigned d, int m)
{
    int mod3 = in->has_modrm && (in->modrm >> 6) == 3;
    uint8_t other = !in->has_modrm ? NP : !reg_operand(in) ? NP :
                    mod3 ? r->v[d == in->reg ? in->rm : in->reg] : d == in->reg ? NP : r->v[in->reg];
    uint8_t src = m >= 0 ? loaded(s, at, in, (uint8_t)m) : other;
    if (narrow(in))
        return r->v[d];
    if (in->map == 0 && in->op >= 0x58 && in->op <= 0x5f)
        return s->slot;     /* pop */
    if (!in->w)
        return NP;          /* 32 bits: no address */
    if (in->map == 0 && in->op == 0x8d) {
        if (in->base == TTFI_BASE_RIP)
            return addr_value(s, s->addr + at + in->len +
                                 (uint64_t)ttfi_x86_disp(s->code + at, in));
        return mem_kind(s, at, in, r);
    }
    if (in->map == 0 && (in->op == 0x8b || in->op == 0x89))
        return src;
    if (in->map == 0 && ((in->op >= 0xb8 && in->op <= 0xbf) || in->op == 0xc7))
        return imm_value(s, s->code + at, in);
    if ((in->map == 0 && (in->op == 0x63 || in->op == 0x69 || in->op == 0x6b)) || in->map == 1)
        return NP;          /* widened narrow values, products, bit scans */
    if ((in->op == 0x31 || in->op == 0x33 || in->op == 0x29 || in->op == 0x2b) && mod3 &&
        in->reg == in->rm)
        return NP;          /* xor/sub of itself: zero */
    return max8(r->v[d], max8(src, other));
}

/* The value a register in may write (any form) gets: never less than it
 * had, unless in assigns it. */
static uint8_t written(const struct rscan *s, size_t at, const struct ttfi_insn *in,
                       const struct rst *r, unsigned d, int m)
{
    int dr = dest_reg(in);
    if (dr >= 0)            /* a known form writes that one only */
        return dr == (int)d ? assigned(s, at, in, r, d, m) : r->v[d];
    if ((in->map == 0 && ((in->op >= 0x38 && in->op <= 0x3b) || in->op == 0x84 ||
                          in->op == 0x85)) || (in->map == 1 && (in->op == 0xa3 || in->op == 0xba)))
        return r->v[d];     /* cmp, test, bt: no write */
    uint8_t v = max8(r->v[d], reg_operand(in) ? r->v[in->reg] : NP);
    if (in->has_modrm && (in->modrm >> 6) == 3)
        v = max8(v, r->v[in->rm]);
    if (m >= 0)
        v = max8(v, loaded(s, at, in, (uint8_t)m));
    return in->map == 0 || in->vex ? v : SH; /* from an SSE register: SH */
}

/* The implicit writes the ModRM does not show. */
static void implicit(const struct ttfi_insn *in, struct rst *r)
{
    if (in->map == 0 && in->op == 0x99)
        r->v[RDX] = NP;                         /* cqo */
    if (in->map == 0 && (in->op == 0xf6 || in->op == 0xf7) && ((in->modrm >> 3) & 7) >= 4)
        r->v[RAX] = r->v[RDX] = NP;             /* mul, div */
    if (in->map == 1 && (in->op == 0x31 || in->op == 0xa2))
        r->v[RAX] = r->v[RDX] = r->v[RCX] = r->v[3] = NP; /* rdtsc, cpuid */
    if (in->map == 0 && (in->op == 0xac || in->op == 0xad))
        r->v[RAX] = SH;                         /* lods */
}

static int analyse(const struct ttfi_reads_env *env, uint64_t addr, const uint8_t *code,
                   size_t n, const uint8_t entry[7], int depth, size_t *budget);

/* A call (via: how it is reached) with the state before it; r becomes the
 * state after it. */
static void call(struct rscan *s, uint64_t target, int via_slot, struct rst *r)
{
    const uint8_t *code = NULL;
    size_t n = 0;
    uint8_t args[7];
    int kind = s->env->callee(s->env->ctx, target, via_slot, &code, &n);
    int given_stack = 0, given_shared = 0;

    if (kind == TTFI_CALLEE_HOOK)
        return;             /* the tracing hooks: nothing of the program */
    args[6] = s->slot;          /* what it finds above its return address */
    for (int k = 0; k < 6; k++) {
        args[k] = r->v[arg_reg[k]];
        given_stack |= args[k] == ST;
        given_shared |= args[k] == SH;
    }
    if (kind == TTFI_CALLEE_FUNC && code) {
        int res = s->depth >= DEPTH ? TTFI_READS_UNKNOWN :
                  analyse(s->env, target, code, n, args, s->depth + 1, s->budget);
        s->shared |= res == TTFI_READS_SHARED;
        s->unknown |= res == TTFI_READS_UNKNOWN;
    } else if (given_shared) {
        s->unknown = 1;     /* another module's code given a shared address */
    }
    if (given_stack && s->slot != SH) {
        s->slot = SH;       /* it may store anything in our frame */
        s->changed = 1;
    }
    r->v[RAX] = r->v[RDX] = SH;
    r->v[RCX] = r->v[RSI] = r->v[RDI] = NP;
    for (int k = 8; k <= 11; k++)
        r->v[k] = NP;
}

/* Join state r into instruction i's. */
static void flow(struct rscan *s, size_t i, const struct rst *r)
{
    struct rst *t = &s->st[i];
    if (!t->seen) {
        *t = *r;
        t->seen = 1;
        s->changed = 1;
        return;
    }
    for (int k = 0; k < 16; k++)
        if (r->v[k] > t->v[k]) {
            t->v[k] = r->v[k];
            s->changed = 1;
        }
}

/* 1 if control does not go on to the next instruction after in: a
 * jump, a return, int3, hlt, ud2, an indirect jump. */
static int ends_flow(const struct ttfi_insn *in)
{
    return (in->map == 0 && (in->op == 0xe9 || in->op == 0xeb || in->op == 0xc3 ||
                             in->op == 0xc2 || in->op == 0xcc || in->op == 0xf4)) ||
           (in->map == 1 && in->op == 0x0b) ||
           (in->map == 0 && in->op == 0xff && ((in->modrm >> 3) & 7) == 4);
}

/* Control flow of instruction i (state r after it): the successors. */
static void successors(struct rscan *s, size_t i, const struct ttfi_insn *in, struct rst *r)
{
    size_t at = s->starts[i];
    int jmp = in->map == 0 && (in->op == 0xe9 || in->op == 0xeb);
    int stop = ends_flow(in);
    if (in->branch && !(in->map == 0 && in->op == 0xe8)) {
        int64_t to = ttfi_x86_branch(s->code, at, in);
        size_t j = to >= 0 && (uint64_t)to < s->n ?
                   ttfi_x86_index(s->starts, s->nins, (uint64_t)to) : SIZE_MAX;
        if (j != SIZE_MAX)
            flow(s, j, r);
        else if (jmp)
            call(s, s->addr + (uint64_t)to, 0, r);  /* a tail call */
        else
            s->unknown = 1;                         /* into a cold part */
    }
    if (!stop && i + 1 < s->nins)
        flow(s, i + 1, r);
}

/* One instruction i with its state: its reads, its writes, its successors. */
static void step(struct rscan *s, size_t i)
{
    size_t at = s->starts[i];
    struct ttfi_insn in;
    struct rst r = s->st[i];
    int m = -1;

    if (ttfi_x86_decode(s->code + at, s->n - at, &in)) {
        s->unknown = 1;
        return;
    }
    unsigned g = (in.modrm >> 3) & 7;
    if (in.map == 0 && in.op == 0xff && in.has_modrm && (g >= 2 && g <= 5)) {
        if (in.base == TTFI_BASE_RIP && (g == 2 || g == 4))
            call(s, s->addr + at + in.len + (uint64_t)ttfi_x86_disp(s->code + at, &in), 1, &r);
        else
            s->unknown = 1;                         /* through a pointer */
    } else if (in.map == 0 && in.op == 0xe8) {
        call(s, s->addr + (uint64_t)ttfi_x86_branch(s->code, at, &in), 0, &r);
    } else if ((in.map == 1 && (in.op == 0x05 || in.op == 0x34)) ||
               (in.map == 0 && in.op == 0xcd)) {
        s->unknown = 1;                             /* a system call */
    }
    if (in.base >= 0 && !(in.map == 0 && in.op == 0x8d) && !in.nop) {
        m = mem_kind(s, at, &in, &r);
        s->shared |= m == SH && !plain_store(&in);
        if (m == ST)
            stack_store(s, &in, &r);
    }
    if (in.map == 0 && in.op >= 0xa4 && in.op <= 0xaf && in.op != 0xa8 && in.op != 0xa9)
        s->shared |= (in.op < 0xaa && r.v[RSI] == SH) ||
                     ((in.op == 0xa6 || in.op == 0xa7 || in.op >= 0xae) && r.v[RDI] == SH) ||
                     ((in.op == 0xac || in.op == 0xad) && r.v[RSI] == SH);
    if (in.map == 0 && in.op >= 0x50 && in.op <= 0x57 && r.v[(in.op & 7) | in.rexb] > s->slot) {
        s->slot = r.v[(in.op & 7) | in.rexb];       /* push */
        s->changed = 1;
    }
    struct rst out = r;
    for (unsigned d = 0; d < 16 && !(m >= 0 && plain_store(&in)); d++)
        if (d != RSP && ttfi_x86_may_write(&in, d, in.vex ? 0 : in.rexb))
            out.v[d] = written(s, at, &in, &r, d, m);
    implicit(&in, &out);
    out.v[RSP] = ST;
    successors(s, i, &in, &out);
}

static int analyse(const struct ttfi_reads_env *env, uint64_t addr, const uint8_t *code,
                   size_t n, const uint8_t entry[7], int depth, size_t *budget)
{
    struct rscan s = {env, addr, code, n, NULL, 0, NULL, NP, 0, 0, depth, 1, budget};
    int pass = 0;

    if (!code || !n || n > CODE_CAP ||
        ttfi_x86_starts(code, n, ttfi_x86_body(code, n), &s.starts, &s.nins) < 0 || !s.nins ||
        !(s.st = calloc(s.nins, sizeof *s.st))) {
        free(s.starts);
        return TTFI_READS_UNKNOWN;
    }
    s.st[0].seen = 1;
    for (int k = 0; k < 6; k++)
        s.st[0].v[arg_reg[k]] = entry[k];
    s.slot = entry[6];          /* arguments past the registers: in the stack */
    s.st[0].v[RSP] = ST;
    while (s.changed && pass++ < PASSES && !s.shared && *budget) {
        s.changed = 0;
        for (size_t i = 0; i < s.nins && *budget; i++)
            if (s.st[i].seen) {
                (*budget)--;
                step(&s, i);
            }
    }
    s.unknown |= !*budget;      /* out of steps: not all was seen */
    int res = s.shared ? TTFI_READS_SHARED : s.unknown || s.changed ? TTFI_READS_UNKNOWN :
              TTFI_READS_OWN;
    free(s.starts);
    free(s.st);
    return res;
}

int ttfi_code_reads(const struct ttfi_reads_env *env, uint64_t addr, const uint8_t *code,
                    size_t n, unsigned ptr_args)
{
    uint8_t entry[7];
    size_t budget = BUDGET;

    for (int k = 0; k < 6; k++)
        entry[k] = (ptr_args >> k) & 1 ? SH : NP;
    entry[6] = ptr_args & TTF_READS_STACK_ARGS ? SH : NP;
    return analyse(env, addr, code, n, entry, 0, &budget);
}

/* ---- the writable globals a function names (ttfi_code_globals) ------------- */

/* 1 if in may write its memory operand: a plain store, or a
 * read-modify-write (arithmetic, shifts, inc/dec, not/neg, xchg,
 * cmpxchg, xadd, bit tests that set). */
static int mem_writes(const struct ttfi_insn *in)
{
    static const uint8_t rmw0[] = {0x00, 0x01, 0x08, 0x09, 0x10, 0x11, 0x18, 0x19, 0x20,
                                   0x21, 0x28, 0x29, 0x30, 0x31, 0x86, 0x87, 0xc0, 0xc1,
                                   0xd0, 0xd1, 0xd2, 0xd3};
    static const uint8_t rmw1[] = {0xab, 0xb0, 0xb1, 0xb3, 0xbb, 0xc0, 0xc1};
    unsigned g = (in->modrm >> 3) & 7;

    if (plain_store(in))
        return 1;
    if (in->vex)
        return 0;
    if (in->map == 0)
        return memchr(rmw0, in->op, sizeof rmw0) || (in->op >= 0x80 && in->op <= 0x83 && g != 7) ||
               ((in->op == 0xf6 || in->op == 0xf7) && (g == 2 || g == 3)) ||
               ((in->op == 0xfe || in->op == 0xff) && g <= 1);
    return in->map == 1 && (memchr(rmw1, in->op, sizeof rmw1) || (in->op == 0xba && g >= 5) ||
                            (in->op == 0xc7 && g == 1));
}

struct gscan {
    const struct ttfi_reads_env *env;
    struct ttf_code_global *out;
    size_t cap, n;
    size_t budget;          /* instructions left for the whole question */
};

/* Note access acc of writable global a (deduplicated by address). */
static void note_global(struct gscan *g, uint64_t a, unsigned acc)
{
    for (size_t i = 0; i < g->n && i < g->cap; i++)
        if (g->out[i].addr == a) {
            g->out[i].access |= acc;
            return;
        }
    if (g->n < g->cap)
        g->out[g->n] = (struct ttf_code_global){a, acc};
    g->n++;
}

/* The operand's global of instruction in at link-time address at (its
 * end at + len), 0 when it names none (a register base, TLS, a lea). */
static uint64_t operand_global(const struct gscan *g, uint64_t at, const uint8_t *p,
                               const struct ttfi_insn *in)
{
    if (in->base < 0 || in->nop || (in->pfx & TTFI_PFX_SEG) || (in->map == 0 && in->op == 0x8d))
        return 0;
    if (in->base == TTFI_BASE_RIP)
        return at + in->len + (uint64_t)ttfi_x86_disp(p, in);
    if (in->base == TTFI_BASE_NONE && in->index < 0 && g->env->position_dependent)
        return (uint64_t)ttfi_x86_disp(p, in);
    return 0;
}

/* Every instruction of code[0..n) at link-time addr, in order; direct
 * calls into the file followed depth levels. 0, or -1 when a byte is not
 * known or the budget ran out. */
static int globals_of(struct gscan *g, uint64_t addr, const uint8_t *code, size_t n, int depth)
{
    struct ttfi_insn in;

    if (!code || !n || n > CODE_CAP)
        return -1;
    for (size_t at = ttfi_x86_body(code, n); at < n; at += in.len) {
        if (!g->budget-- || ttfi_x86_decode(code + at, n - at, &in))
            return -1;
        uint64_t a = operand_global(g, addr + at, code + at, &in);
        if (a && g->env->writable(g->env->ctx, a) == 1)
            note_global(g, a, (plain_store(&in) ? 0 : TTF_GLOBAL_READ) |
                              (mem_writes(&in) ? TTF_GLOBAL_WRITE : 0));
        if (!(in.map == 0 && in.op == 0xe8) || depth >= DEPTH)
            continue;
        const uint8_t *cc = NULL;
        size_t cn = 0;
        const uint8_t *p = code + at + in.imm_off;
        int32_t d = (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                              (uint32_t)p[3] << 24);
        uint64_t to = addr + at + in.len + (uint64_t)(int64_t)d;
        if (to != addr && g->env->callee(g->env->ctx, to, 0, &cc, &cn) == TTFI_CALLEE_FUNC &&
            globals_of(g, to, cc, cn, depth + 1) < 0)
            return -1;
    }
    return 0;
}

long ttfi_code_globals(const struct ttfi_reads_env *env, uint64_t addr, const uint8_t *code,
                       size_t n, struct ttf_code_global *out, size_t cap)
{
    struct gscan g = {env, out, cap, 0, BUDGET};

    return globals_of(&g, addr, code, n, 0) < 0 ? -1 : (long)g.n;
}

/* ---- the struct fields a function reaches through its pointer parameters
 * (ttfi_code_fields) ------------------------------------------------------ */

/* A second forward pass over the same instructions, with another value per
 * register: its tag, k + 1 while it holds argument register k's value as
 * it came in (unchanged: moved whole, 64 bits, from register to register,
 * kept in a callee-saved register over calls), 0 for anything else (a
 * value loaded from memory, the stack included, a result, arithmetic),
 * with a displacement: the value plus a constant (lea disp(%reg), add or
 * sub of an immediate: the address of a field, as an inlined atomic
 * helper gets it). Joins keep a tag where both sides agree. A memory
 * operand whose base has tag k + 1 and displacement d, and no index, is
 * field d + disp of what parameter k points to. */

/* The tags at one instruction. */
struct tst {
    uint8_t v[16];          /* k + 1: argument register k's entry value */
    int32_t d[16];          /* plus this */
    uint8_t seen;
};

struct fscan {
    const struct ttfi_reads_env *env;
    struct ttfi_code_field *out;
    size_t cap, n;
    size_t budget;
};

/* Note field (func, reg, off) with access acc (deduplicated). */
static void note_field(struct fscan *f, uint64_t func, int reg, int64_t off, unsigned acc)
{
    for (size_t i = 0; i < f->n && i < f->cap; i++)
        if (f->out[i].func == func && f->out[i].reg == reg && f->out[i].offset == off) {
            f->out[i].access |= acc;
            return;
        }
    if (f->n < f->cap)
        f->out[f->n] = (struct ttfi_code_field){func, reg, off, acc};
    f->n++;
}

/* Join tags r into instruction i's: a tag is kept where both agree. */
static void tag_flow(struct rscan *s, struct tst *ts, size_t i, const struct tst *r)
{
    struct tst *t = &ts[i];
    if (!t->seen) {
        *t = *r;
        t->seen = 1;
        s->changed = 1;
        return;
    }
    for (int k = 0; k < 16; k++)
        if (t->v[k] && (r->v[k] != t->v[k] || r->d[k] != t->d[k])) {
            t->v[k] = 0;
            s->changed = 1;
        }
}

/* A call (or a tail call, a system call): the caller-saved registers lose
 * their tags; the callee-saved keep them. */
static void tag_call(struct tst *r)
{
    static const uint8_t clobbered[] = {RAX, RCX, RDX, RSI, RDI, 8, 9, 10, 11};
    for (size_t k = 0; k < sizeof clobbered; k++)
        r->v[clobbered[k]] = 0;
}

static int is_call(const struct ttfi_insn *in)
{
    unsigned g = (in->modrm >> 3) & 7;
    return (in->map == 0 && in->op == 0xe8) ||
           (in->map == 0 && in->op == 0xff && in->has_modrm && g >= 2 && g <= 5) ||
           (in->map == 1 && (in->op == 0x05 || in->op == 0x34)) || (in->map == 0 && in->op == 0xcd);
}

/* 1 if in calls a tracing hook (which keeps every register: the values
 * build's __fentry__ runs before the body). */
static int hook_call(const struct rscan *s, size_t at, const struct ttfi_insn *in)
{
    const uint8_t *cc = NULL;
    size_t cn = 0;
    unsigned g = (in->modrm >> 3) & 7;

    if (in->map == 0 && in->op == 0xff && in->has_modrm && g == 2 && in->base == TTFI_BASE_RIP)
        return s->env->callee(s->env->ctx, s->addr + at + in->len +
                              (uint64_t)ttfi_x86_disp(s->code + at, in), 1, &cc,
                              &cn) == TTFI_CALLEE_HOOK;
    if (in->map == 0 && in->op == 0xe8)
        return s->env->callee(s->env->ctx,
                              s->addr + (uint64_t)ttfi_x86_branch(s->code, at, in), 0, &cc,
                              &cn) == TTFI_CALLEE_HOOK;
    return 0;
}

/* The immediate of in (imm_len bytes, sign-extended). */
static int64_t imm_of(const uint8_t *p, const struct ttfi_insn *in)
{
    const uint8_t *q = p + in->imm_off;
    if (in->imm_len == 1)
        return (int8_t)q[0];
    if (in->imm_len != 4)
        return INT64_MAX;
    return (int32_t)((uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16 |
                     (uint32_t)q[3] << 24);
}

/* The tags after instruction in at p (tags r before it; hook: a call of a
 * tracing hook). */
static void tag_step(const uint8_t *p, const struct ttfi_insn *in, int hook, struct tst *r)
{
    int mod3 = in->has_modrm && (in->modrm >> 6) == 3;
    int mem = in->base >= 0 && !(in->map == 0 && in->op == 0x8d) && !in->nop;
    unsigned g = (in->modrm >> 3) & 7;
    struct tst out = *r;

    if (in->map == 0 && (in->op == 0x89 || in->op == 0x8b) && mod3 && in->w && !in->vex) {
        int to = in->op == 0x89 ? in->rm : in->reg, from = in->op == 0x89 ? in->reg : in->rm;
        out.v[to] = r->v[from];     /* a whole register moved */
        out.d[to] = r->d[from];
        *r = out;
        return;
    }
    int64_t add = INT64_MAX;        /* lea disp(%tagged), add/sub $imm,%tagged */
    int from = -1;
    if (in->map == 0 && in->op == 0x8d && in->w && in->base >= 0 && in->base < 16 && in->index < 0 &&
        !in->vex && r->v[in->base]) {
        add = ttfi_x86_disp(p, in);
        from = in->base;
    } else if (in->map == 0 && (in->op == 0x81 || in->op == 0x83) && mod3 && in->w &&
               (g == 0 || g == 5) && r->v[in->rm] && (add = imm_of(p, in)) != INT64_MAX) {
        add = g == 5 ? -add : add;
        from = in->rm;
    }
    int64_t d = from >= 0 ? r->d[from] + add : 0;
    int compare = (in->map == 0 && ((in->op >= 0x38 && in->op <= 0x3b) || in->op == 0x84 ||
                                    in->op == 0x85 || ((in->op >= 0x80 && in->op <= 0x83) && g == 7) ||
                                    ((in->op == 0xf6 || in->op == 0xf7) && g <= 1))) ||
                  (in->map == 1 && (in->op == 0xa3 || (in->op == 0xba && g == 4)));
    for (unsigned k = 0; k < 16 && !(mem && plain_store(in)) && !compare; k++)
        if (k != RSP && ttfi_x86_may_write(in, k, in->vex ? 0 : in->rexb))
            out.v[k] = 0;
    if (from >= 0 && d >= INT32_MIN && d <= INT32_MAX) {
        int to = in->op == 0x8d ? in->reg : in->rm;
        out.v[to] = r->v[from];
        out.d[to] = (int32_t)d;
    }
    if (is_call(in) && !hook)
        tag_call(&out);
    *r = out;
}

static int fields_of(struct fscan *f, uint64_t addr, const uint8_t *code, size_t n,
                     const uint8_t entry[6], int depth);

/* What instruction in (at offset at, tags r before it) reaches: a field
 * through a tagged base, a direct call's callee given tagged arguments. */
static int tag_uses(struct fscan *f, struct rscan *s, size_t at, const struct ttfi_insn *in,
                    const struct tst *r, int depth)
{
    const uint8_t *cc = NULL;
    size_t cn = 0;
    uint8_t args[6];
    int any = 0;

    if (in->base >= 0 && in->base < 16 && in->index < 0 && !(in->pfx & TTFI_PFX_SEG) && !in->nop &&
        !(in->map == 0 && in->op == 0x8d) && r->v[in->base])
        note_field(f, s->addr, r->v[in->base] - 1, r->d[in->base] + ttfi_x86_disp(s->code + at, in),
                   (plain_store(in) ? 0 : TTF_GLOBAL_READ) | (mem_writes(in) ? TTF_GLOBAL_WRITE : 0));
    int jmp = in->map == 0 && (in->op == 0xe9 || in->op == 0xeb);
    if (!(in->map == 0 && in->op == 0xe8) && !jmp)
        return 0;
    int64_t to = ttfi_x86_branch(s->code, at, in);
    if (jmp && to >= 0 && (uint64_t)to < s->n)
        return 0;                   /* a jump inside the function */
    for (int k = 0; k < 6; k++)     /* the parameter itself, not a field's address */
        any |= (args[k] = r->v[arg_reg[k]] && !r->d[arg_reg[k]] ? 1 : 0);
    uint64_t t = s->addr + (uint64_t)to;
    if (!any || depth >= DEPTH || t == s->addr ||
        f->env->callee(f->env->ctx, t, 0, &cc, &cn) != TTFI_CALLEE_FUNC)
        return 0;
    return fields_of(f, t, cc, cn, args, depth + 1);
}

/* Instruction i of the tag pass: its tags flowed to its successors. 0,
 * or -1 (bytes not known, out of steps). */
static int tag_pass_one(struct fscan *f, struct rscan *s, struct tst *ts, size_t i)
{
    struct ttfi_insn in;
    struct tst r = ts[i];
    size_t at = s->starts[i];

    if (!f->budget-- || ttfi_x86_decode(s->code + at, s->n - at, &in))
        return -1;
    tag_step(s->code + at, &in, hook_call(s, at, &in), &r);
    if (in.branch && !(in.map == 0 && in.op == 0xe8)) {
        int64_t to = ttfi_x86_branch(s->code, at, &in);
        size_t j = to >= 0 && (uint64_t)to < s->n ?
                   ttfi_x86_index(s->starts, s->nins, (uint64_t)to) : SIZE_MAX;
        if (j != SIZE_MAX)
            tag_flow(s, ts, j, &r);
    }
    if (!ends_flow(&in) && i + 1 < s->nins)
        tag_flow(s, ts, i + 1, &r);
    return 0;
}

/* The fields code[0..n) at addr reaches through the argument registers
 * entry[k] says are parameters (their own: a callee's are its own
 * parameters, given the caller's). 0, or -1 (bytes not known, out of
 * steps, no fixed point). */
static int fields_of(struct fscan *f, uint64_t addr, const uint8_t *code, size_t n,
                     const uint8_t entry[6], int depth)
{
    struct rscan s = {f->env, addr, code, n, NULL, 0, NULL, NP, 0, 0, depth, 1, NULL};
    struct ttfi_insn in;
    struct tst *ts = NULL;
    int pass = 0, rc = 0;

    if (!code || !n || n > CODE_CAP ||
        ttfi_x86_starts(code, n, ttfi_x86_body(code, n), &s.starts, &s.nins) < 0 || !s.nins ||
        !(ts = calloc(s.nins, sizeof *ts))) {
        free(s.starts);
        return -1;
    }
    ts[0].seen = 1;
    for (int k = 0; k < 6; k++)
        ts[0].v[arg_reg[k]] = entry[k] ? (uint8_t)(k + 1) : 0;
    while (s.changed && pass++ < PASSES && rc == 0) {
        s.changed = 0;
        for (size_t i = 0; i < s.nins && rc == 0; i++)
            if (ts[i].seen)
                rc = tag_pass_one(f, &s, ts, i);
    }
    if (s.changed)
        rc = -1;
    for (size_t i = 0; i < s.nins && rc == 0; i++)
        if (ts[i].seen && ttfi_x86_decode(code + s.starts[i], n - s.starts[i], &in) == 0)
            rc = tag_uses(f, &s, s.starts[i], &in, &ts[i], depth);
    free(s.starts);
    free(ts);
    return rc;
}

long ttfi_code_fields(const struct ttfi_reads_env *env, uint64_t addr, const uint8_t *code,
                      size_t n, unsigned params, struct ttfi_code_field *out, size_t cap)
{
    struct fscan f = {env, out, cap, 0, BUDGET};
    uint8_t entry[6];

    for (int k = 0; k < 6; k++)
        entry[k] = (params >> k) & 1;
    return fields_of(&f, addr, code, n, entry, 0) < 0 ? -1 : (long)f.n;
}
