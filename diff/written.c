/*
 * written.c - data written early and read back much later (issue 33
 * items 2-3): the call that wrote the object a reader read.
 * Stage 3 explain of diff/STAGES (its header: explain.h).
 *
 * Design. A reader R saw no value of its own differ, yet it (or the
 * branch it took) acted otherwise: what it read came from memory. A
 * length computed one off, a flag set on the wrong path, a count stored
 * by a writer long before: the trace holds no memory access, but it holds
 * the pointers calls were given and, in the machine code, which struct
 * fields a function reads or writes through them. The writer of what R
 * read is an earlier call W of a replay explain.c hands us (R's own
 * thread's first, then the other threads' that have values that differ)
 * when all of these hold:
 *   - the same object: a pointer parameter of W holds, in each run, the
 *     value a pointer parameter of R holds in that run (not NULL; each run
 *     against itself, as the cause chain compares pointers);
 *   - the same field: W's code writes a field (a struct type and an
 *     offset) that R's code reads, through pointer parameters (format's
 *     ttf_sym_code_fields, with their direct calls of the same file);
 *   - or, in place of both, W made the object: it returned, in each run,
 *     the pointer R was given (an allocator or constructor: its writes
 *     through its result are not among the fields the code names);
 *   - W wrote something that differs: one of its other arguments differs
 *     between the runs (not noise: the replay's argdiff);
 *   - R's code reads some struct field through its pointer parameters;
 *   - W returned before R was called and does not enclose R; W of
 *     another thread returned before R was called in both runs (a write
 *     and a read the runs ordered otherwise are a race's, not data
 *     written and read back).
 * The nearest such W before R is the writer. A call that got the same
 * object and another value but writes no field R reads (a neighbour field
 * set on the way) is not; a call that got another value and not R's
 * object (a running sum) is not.
 * Limits. An object reached through another (R given a container, W the
 * element) is not tied; fields written through a pointer loaded from
 * memory are not seen (format's rule); a writer dropped by the replay's
 * node cap is not found; the values W stored are not in the trace, so the
 * link says what W was given, not what it wrote.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "explain.h"

#define WR_FIELDS 32            /* fields kept per function */
#define WR_FUNCS 64             /* functions whose code is read, at most */

/* A field one function's code reads or writes. */
typedef struct wfield {
    const char *type;
    int64_t off;
} wfield;

/* The fields function addr (time ns) accesses with acc, at most WR_FIELDS
 * into out; their number (0 when the code or its DWARF is unknown). */
static size_t fields_of(ttdi_norm *n, uint64_t addr, uint64_t ns, unsigned acc, wfield *out)
{
    ttf_code_field cf[WR_FIELDS];
    const ttf_code_info *ci;
    size_t k = 0, m = 0;
    long mi = ttdi_module_at(n, addr, ns);

    if (mi < 0 || ttf_sym_code(n->sym, (size_t)mi, &ci) != 0 || addr < ci->bias ||
        ttf_sym_code_fields(n->sym, (size_t)mi, addr - ci->bias, cf, WR_FIELDS, &k) != 0)
        return 0;
    for (size_t i = 0; i < k && i < WR_FIELDS; i++)
        if ((cf[i].access & acc) && cf[i].type)
            out[m++] = (wfield){cf[i].type, cf[i].offset};
    return m;
}

static const ttf_param *wparam(const ttdi_xcall *x, int k)
{
    return x->sig && (size_t)k < x->sig->nparams ? &x->sig->params[k] : NULL;
}

static uint64_t wreg(const ttdi_xcall *x, int run, int k)
{
    const ttf_param *p = wparam(x, k);
    return p && p->reg >= 0 ? x->args[run][p->reg] : 0;
}

/* 1 if node a encloses node b (or is it). */
static int wencloses(const ttdi_replay *rp, int32_t a, int32_t b)
{
    for (int n = 0; b > 0 && n < 100000; n++, b = rp->c[b].parent)
        if (b == a)
            return 1;
    return a == b;
}

/* W's parameter holding, in each run, what R's pointer parameter kr
 * holds; -1 if none. */
static int same_object(const ttdi_xcall *w, const ttdi_xcall *r, int kr)
{
    uint64_t g = wreg(r, 0, kr), b = wreg(r, 1, kr);

    for (int k = 0; k < TTDI_MAXP && w->sig && (size_t)k < w->sig->nparams; k++) {
        const ttf_param *p = wparam(w, k);
        if (p->reg >= 0 && p->type.cls == TTF_VC_POINTER && wreg(w, 0, k) == g &&
            wreg(w, 1, k) == b)
            return k;
    }
    return -1;
}

/* W's argument that differs besides the object (parameter tie, -1: the
 * object came back as its result), -1 if none. */
static int other_arg(const ttdi_xcall *w, int tie)
{
    for (int k = 0; k < TTDI_MAXP; k++)
        if (k != tie && (w->argdiff & (1u << k)))
            return k;
    return -1;
}

/* Did W return, in each run, what R's pointer parameter kr holds (it made
 * the object: an allocator, a constructor)? */
static int made_object(const ttdi_xcall *w, const ttdi_xcall *r, int kr)
{
    return w->sig->ret.cls == TTF_VC_POINTER && w->ret[0] == wreg(r, 0, kr) &&
           w->ret[1] == wreg(r, 1, kr);
}

/* A field of rd[] (nr) that function addr writes, as text, NULL if none. */
static const char *writes_read(ttdi_norm *n, const ttdi_xcall *w, const wfield *rd, size_t nr,
                               char *buf, size_t len)
{
    wfield wr[WR_FIELDS];
    size_t nw = fields_of(n, w->addr, w->time_ns, TTF_GLOBAL_WRITE, wr);

    for (size_t i = 0; i < nw; i++)
        for (size_t j = 0; j < nr; j++)
            if (wr[i].off == rd[j].off && strcmp(wr[i].type, rd[j].type) == 0) {
                snprintf(buf, len, "%s0x%" PRIx64 " of a `%s`", wr[i].off < 0 ? "-" : "+",
                         wr[i].off < 0 ? -(uint64_t)wr[i].off : (uint64_t)wr[i].off,
                         wr[i].type);
                return buf;
            }
    return NULL;
}

/* Did w return before r began, in both runs (the reader's replay rr,
 * the writer's rp)? In one replay by position, and w must not enclose r;
 * across threads by each run's time (a write and a read the runs ordered
 * otherwise are a race's business, not this rule's). */
static int before(const ttdi_replay *rp, const ttdi_replay *rr, int32_t wi, int32_t ri)
{
    const ttdi_xcall *w = &rp->c[wi], *r = &rr->c[ri];

    if (rp == rr)
        return w->exit_idx < r->enter[1] && !wencloses(rp, wi, ri);
    return w->exit_ns < r->time_ns && w->gexit_ns < r->gtime_ns;
}

int ttdi_written_by(const ttdi_replay *rp, const ttdi_replay *rr, int32_t reader,
                    ttdi_writer *out)
{
    const ttdi_xcall *r = reader > 0 && (size_t)reader < rr->n ? &rr->c[reader] : NULL;
    ttdi_norm *n = rr->norm[1];
    wfield rd[WR_FIELDS];
    uint64_t seen[WR_FUNCS];
    size_t nr, nseen = 0;

    memset(out, 0, sizeof *out);
    out->node = -1;
    if (!r || !r->sig || !r->values || !n)
        return 0;
    int ptrs = 0;
    for (int k = 0; k < TTDI_MAXP && (size_t)k < r->sig->nparams; k++) {
        const ttf_param *p = wparam(r, k);
        ptrs |= p->reg >= 0 && p->type.cls == TTF_VC_POINTER && wreg(r, 0, k) &&
                wreg(r, 1, k);
    }
    if (!ptrs || !(nr = fields_of(n, r->addr, r->time_ns, TTF_GLOBAL_READ, rd)))
        return 0;
    /* the nearest before R by time (nodes are made as differences are
     * found, not in the order the calls began) */
    for (size_t i = rp->n; i-- > 1;) {
        const ttdi_xcall *w = &rp->c[i];
        int tie = -1, kr = 0, made = 0, arg;
        if ((rp == rr && (int32_t)i == reader) || !w->returned || !w->sig ||
            (out->node >= 0 && w->time_ns <= rp->c[out->node].time_ns) ||
            !before(rp, rr, (int32_t)i, reader))
            continue;
        for (; kr < TTDI_MAXP && (size_t)kr < r->sig->nparams && tie < 0 && !made; kr++) {
            const ttf_param *p = wparam(r, kr);
            if (p->reg >= 0 && p->type.cls == TTF_VC_POINTER && wreg(r, 0, kr) && wreg(r, 1, kr)) {
                tie = same_object(w, r, kr);
                made = tie < 0 && made_object(w, r, kr);
            }
        }
        if ((tie < 0 && !made) || (arg = other_arg(w, tie)) < 0)
            continue;
        if (made) {     /* it made the object: its writes through the result
                           are not named by the code's fields */
            out->node = (int32_t)i;
            out->arg = arg;
            out->tie = -1;
            out->rtie = kr - 1;
            out->made = 1;
            out->field[0] = '\0';
            continue;
        }
        size_t j = 0;
        while (j < nseen && seen[j] != w->addr)
            j++;
        if (j < nseen)
            continue;       /* its code writes none of them (read before) */
        char field[sizeof out->field];
        if (!writes_read(n, w, rd, nr, field, sizeof field)) {
            if (nseen == WR_FUNCS)
                break;      /* it cannot tell further back */
            seen[nseen++] = w->addr;
            continue;
        }
        out->node = (int32_t)i;
        out->arg = arg;
        out->tie = tie;
        out->rtie = kr - 1;
        out->made = 0;
        memcpy(out->field, field, sizeof field);
    }
    return out->node >= 0;
}
