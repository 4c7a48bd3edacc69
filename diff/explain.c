/*
 * explain.c - why the runs differ, not just where: the cause chain, the
 * suspects' evidence and ranking, the outcome and the headline.
 *
 * Design. The stage runs last, on what the others left: the resolved
 * hunks, the first divergence's details (stack, candidate suspects) and
 * each pair's alignment (its hunks), which replay.c walks again to keep
 * the calls whose values differ as a tree. From the split the chain
 * follows values back, one question at a time:
 *   the calls part in frame F - did a callee of F return another value
 *   before the split? (the nearest such callee; noise never counts)
 *   a callee C returned another value - why? a callee of C that returned
 *   the same value (passed on: a strong link), else C's last differing
 *   callee, else an argument of C that differs;
 *   an argument of C differs - who produced it? an earlier callee of C's
 *   caller that returned the same value in both runs, or the caller's own
 *   argument with the same value (strong links; pointers by identity,
 *   each run against itself); else the caller computed it (arg_origin).
 * It stops where the evidence stops and says why (cause_chain_end). When
 * the split's frame saw no value differ but its own thread's values
 * differ before the split, inside calls that returned the same to it
 * (it read back what they left in memory), an answer that flipped there
 * (an error for success, a yes/no, an end of its type that the other
 * run's calls never gave: a range check that fired) is the next step, by
 * time (own_flip). Before that, and where a getter on the chain returned
 * a value nothing traced explains, the writer of what it read is
 * (written.c: data written early, read back later): an earlier call
 * given the reader's object, the same pointer in each run, and a value
 * that differs, whose code writes a struct field the reader's code reads,
 * or that made the object; in the reader's thread, else in another that
 * wrote before the read in both runs (written_link). When
 * the split's thread shows no value difference, another thread's that
 * came earlier in the bad run's time is the next step (by time only,
 * or strong when it holds the same value), unless that thread's
 * difference only followed the threads' progress (order.c). With the same calls and
 * another exit status, the chain starts from the main thread's last
 * returning top-level call. Every step lends evidence to its function;
 * suspects are ranked by score (evidence.c), so a function ranks above
 * the diverging frame only on evidence. When the chain starts at a call
 * whose answer flipped while its inputs, its calls and their values did
 * not, the decision was made in its own machine code, which includes the
 * functions the compiler inlined into it (no ENTER of their own in values
 * mode): they are suspects too (libttfmt's ttf_sym_inlined_in), deepest
 * first, at half its score. The headline value difference is
 * the chain's earliest; others are listed under it, and noise (values
 * that vary between good runs, clocks and counters, addresses) is never
 * a cause by itself.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codediff.h"
#include "explain.h"

#define CHAIN_MAX 24            /* steps followed at most */
#define OTHERS_MAX 8            /* other value differences listed */

/* One replayed pair. */
typedef struct xpair {
    ttdi_replay rp;             /* its replay */
    size_t pair;                /* index in in->s->ip / res.pairs */
    int done;                   /* 1: replayed */
} xpair;

/* A chain being built, latest step first. */
typedef struct xchain {
    ttd_cause step[CHAIN_MAX + 2];
    const xpair *from[CHAIN_MAX + 2]; /* the replay of each step (NULL: none) */
    int32_t node[CHAIN_MAX + 2];      /* its node there (-1: none) */
    const char *wrote[CHAIN_MAX + 2]; /* a writer's step (written.c): the
                                         field it wrote that the step
                                         after it read back, else NULL */
    size_t n;
    const char *end;            /* why it stops */
    int memory;                 /* 1: it stops at a value computed from what
                                   the values do not show */
    const char *origin;         /* function that computed an argument, NULL */
    size_t origin_pair;
} xchain;

/* The stage's state. */
typedef struct ectx {
    const ttdi_in *in;          /* the runs, the script, the options */
    const ttdi_explain_in *x;   /* what the stages below found */
    ttdi_explained *out;        /* the stage's result */
    xpair *xp;                  /* per pair, replayed when needed */
    xchain ch;
    const struct ttdi_codediff *cd; /* code changed between builds (the
                                   engine's, prepare stage), NULL */
    const ttd_cause *decided;   /* the chain's step of a value no input
                                   decides that the split depends on */
    uint64_t decided_values;    /* it and the arguments that took it */
    int frame_decides;          /* the split's frame turned an ordinary
                                   value into the failure (frame_decides) */
    char buf[512];
} ectx;

/* ---- values as text -------------------------------------------------------- */

/* Raw value of run `run` (TTD_GOOD, TTD_BAD) at time ns as text. */
static const char *vtext(ectx *e, int run, uint64_t raw, const ttf_vtype *ty, uint64_t ns)
{
    char v[128];
    ttdi_value_text(&e->in->r[run].norm, raw, ty, ns, v, sizeof v);
    return ttfi_arena_strcpy(e->in->arena, v);
}

/* The result of call x in one run as text: a small struct by its fields
 * (rax, xmm0: ttf_ret_format), else its value (vtext). */
static const char *rettext(ectx *e, const ttdi_xcall *x, int run)
{
    char v[128];
    if (!ttdi_ret_struct(x->sig))
        return vtext(e, run, x->ret[run], &x->sig->ret, run == TTD_GOOD ? x->gexit_ns : x->exit_ns);
    ttf_event ev;
    memset(&ev, 0, sizeof ev);
    ev.kind = TTF_EV_EXIT;
    ev.has_values = 1;
    ev.retval = x->ret[run];
    ev.retxmm = x->retx[run];
    ttf_ret_format(v, sizeof v, x->sig, &ev);
    return ttfi_arena_strcpy(e->in->arena, v);
}

/* A value as a signed 64-bit number by its type (pointers raw). */
static int64_t as_i64(uint64_t raw, const ttf_vtype *ty)
{
    uint64_t v = ty->cls == TTF_VC_POINTER ? raw : ttf_value_norm(raw, ty);
    if (ty->cls == TTF_VC_SIGNED && ty->size > 0 && ty->size < 8) {
        unsigned bits = 8 * ty->size;
        if (v >> (bits - 1) & 1)
            v |= ~0ull << bits;
    }
    return (int64_t)v;
}

/* Same value in both runs: a (ta, good ga, bad ba) and b. */
static int same_values(const ttf_vtype *ta, uint64_t ga, uint64_t ba,
                       const ttf_vtype *tb, uint64_t gb, uint64_t bb)
{
    if ((ta->cls == TTF_VC_POINTER) != (tb->cls == TTF_VC_POINTER))
        return 0;
    if ((ta->cls == TTF_VC_OTHER && ta->size > 8) || (tb->cls == TTF_VC_OTHER && tb->size > 8))
        return 0;               /* two eightbytes: one register is not the value */
    return as_i64(ga, ta) == as_i64(gb, tb) && as_i64(ba, ta) == as_i64(bb, tb);
}

static const ttf_param *param(const ttdi_xcall *x, int k)
{
    return x->sig && (size_t)k < x->sig->nparams ? &x->sig->params[k] : NULL;
}

static uint64_t argreg(const ttdi_xcall *x, int run, int k)
{
    const ttf_param *p = param(x, k);
    return p && p->reg >= 0 ? x->args[run][p->reg] : 0;
}

/* Argument k of x as both runs' recorded strings (format 1.6): 1 with
 * s[0] (good) and s[1] (bad), then compared and shown by content. */
static int xstrings(const ttdi_xcall *x, int k, ttf_string s[2])
{
    const ttf_param *p = param(x, k);
    ttf_event ev[2];
    if (!p || !x->strs[0] || !x->strs[1])
        return 0;
    for (int r = 0; r < 2; r++) {
        memset(&ev[r], 0, sizeof ev[r]);
        ev[r].strs = x->strs[r];
        ev[r].strs_len = x->strs_len[r];
        /* the registers too: a buffer is cut at the length (or end) that
           the next argument holds (values.c cut_at_length) */
        memcpy(ev[r].argregs, x->args[r], sizeof ev[r].argregs);
    }
    return ttdi_arg_strings(x->sig, (size_t)k, &ev[0], &ev[1], &s[0], &s[1]);
}

/* Argument k of x in run (TTD_GOOD, TTD_BAD) as text: a small struct by
 * its fields, its string when both runs recorded one, else vtext's. */
static const char *argtext(ectx *e, const ttdi_xcall *x, int run, int k)
{
    const ttf_param *p = param(x, k);
    ttf_string s[2];
    char v[128];
    if (p && p->type.fields && !p->byref && p->reg >= 0) { /* a small struct: its fields */
        ttf_event ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = TTF_EV_ENTER;
        ev.has_values = 1;
        memcpy(ev.argregs, x->args[run == TTD_GOOD ? 0 : 1], sizeof ev.argregs);
        ttf_param_format(v, sizeof v, p, &ev);
        return ttfi_arena_strcpy(e->in->arena, v);
    }
    if (!xstrings(x, k, s))
        return vtext(e, run, argreg(x, run == TTD_GOOD ? 0 : 1, k), &p->type,
                     run == TTD_GOOD ? x->gtime_ns : x->time_ns);
    ttf_string_format(v, sizeof v, &s[run == TTD_GOOD ? 0 : 1]);
    return ttfi_arena_strcpy(e->in->arena, v);
}

static const char *fname(ectx *e, const xpair *xp, const ttdi_xcall *x)
{
    (void)xp;
    return ttdi_norm_func_at(&e->in->r[TTD_BAD].norm, x->addr, 0, x->time_ns);
}

static const char *thread_name(ectx *e, size_t pair)
{
    const ttdi_tinfo *t = &e->in->r[TTD_BAD].ti[e->in->s->ip[pair].t[1]];
    return t->name;
}

/* ---- replays ---------------------------------------------------------------- */

/* The values of the calls inside pair p's twinned work items (pools.c:
 * items another worker of the good run's pool did, same calls and same
 * values) say only which worker took which item: not compared. */
static void hide_twins(ttdi_replay *rp, const ttdi_ipair *p)
{
    for (size_t k = 1; p->ntwins && k < rp->n; k++) {
        ttdi_xcall *x = &rp->c[k];
        size_t a = 0, z = p->ntwins;
        while (a < z) { /* the first range ending after the ENTER */
            size_t m = a + (z - a) / 2;
            if (p->twins[2 * m + 1] <= x->enter[1])
                a = m + 1;
            else
                z = m;
        }
        if (a < p->ntwins && p->twins[2 * a] <= x->enter[1]) {
            x->argdiff = 0;
            x->retdiff = 0;
        }
    }
}

/* Replay pair i up to bad key index stop or bad time stop_ns. */
static int replay(ectx *e, size_t i, uint64_t stop, uint64_t stop_ns)
{
    const ttdi_in *in = e->in;
    xpair *x = &e->xp[i];

    if (x->done)
        return 0;
    x->done = 1;
    x->pair = i;
    x->rp.norm[0] = &in->r[TTD_GOOD].norm;
    x->rp.norm[1] = &in->r[TTD_BAD].norm;
    x->rp.thread[0] = in->s->ip[i].t[0];
    x->rp.thread[1] = in->s->ip[i].t[1];
    x->rp.h = in->s->ip[i].h;
    x->rp.nh = in->s->ip[i].nh;
    x->rp.stop = stop;
    x->rp.stop_ns = stop_ns;
    x->rp.noise = in->o->nbaselines ? &in->s->noise : NULL;
    x->rp.tim = in->s->ip[i].tim;
    int rc = ttdi_replay_run(&x->rp, in->s->ip[i].rpre);
    if (rc >= 0)
        hide_twins(&x->rp, &in->s->ip[i]);
    if (rc >= 0)
        rc = ttdi_replay_timeouts(&x->rp);
    return rc < 0 ? rc : ttdi_replay_swaps(&x->rp);
}

/* A differing return that counts (not noise). */
static int real_ret(const xpair *xp, const ttdi_xcall *x)
{
    return x->returned && x->retdiff && !ttdi_replay_retnoise(&xp->rp, x);
}

/* Did node x's return value turn into an error (or out of one): by its
 * type (negative, NULL, false, a yes/no), or by what the function's other
 * calls returned (a class of value the other run's calls never gave:
 * ttdi_replay_failure)? */
static int ret_flips(const xpair *xp, const ttdi_xcall *x)
{
    if (!x->sig || !x->returned)
        return 0;
    return ttdi_value_flip(&x->sig->ret, x->ret[0], x->ret[1]) ||
           (xp && ttdi_replay_failure(&xp->rp, x, NULL) >= 0);
}

/* Which run's return value of node x is the failure: TTD_BAD, TTD_GOOD,
 * or -1 (a yes/no answer: neither reads as one). */
static int failed_run(const xpair *xp, const ttdi_xcall *x, uint32_t *calls)
{
    if (ttdi_value_error(&x->sig->ret, x->ret[1]) == 1)
        return TTD_BAD;
    if (ttdi_value_error(&x->sig->ret, x->ret[0]) == 1)
        return TTD_GOOD;
    return xp ? ttdi_replay_failure(&xp->rp, x, calls) : -1;
}

/* ---- chain steps ------------------------------------------------------------ */

static ttd_cause *add_step(ectx *e, int kind, const xpair *xp, int32_t node)
{
    xchain *c = &e->ch;

    if (c->n >= CHAIN_MAX + 2)
        return NULL;
    ttd_cause *s = &c->step[c->n];
    memset(s, 0, sizeof *s);
    s->kind = kind;
    s->arg = -1;
    s->function = "";
    s->bad_index = UINT64_MAX;
    s->pair = xp ? xp->pair : 0;
    s->thread = xp ? thread_name(e, xp->pair) : "";
    c->from[c->n] = xp;
    c->node[c->n] = node;
    c->wrote[c->n] = NULL;
    c->n++;
    return s;
}

/* A call returned another value. */
static int step_returned(ectx *e, const xpair *xp, int32_t id, int strong)
{
    const ttdi_xcall *x = &xp->rp.c[id];
    ttd_cause *s = add_step(e, TTD_CAUSE_RETURNED, xp, id);

    if (!s)
        return 0;
    s->function = fname(e, xp, x);
    s->good_value = rettext(e, x, TTD_GOOD);
    s->bad_value = rettext(e, x, TTD_BAD);
    s->bad_index = x->exit_idx;
    s->bad_time_ns = x->exit_ns;
    s->strong = strong;
    snprintf(e->buf, sizeof e->buf, "`%s` returned %s in the bad run, %s in the good run",
             s->function, s->bad_value, s->good_value);
    s->text = ttfi_arena_strcpy(e->in->arena, e->buf);
    return s->good_value && s->bad_value && s->text ? 1 : TT_ENOMEM;
}

/* A call got another argument k. */
static int step_argument(ectx *e, const xpair *xp, int32_t id, int k, int strong)
{
    const ttdi_xcall *x = &xp->rp.c[id];
    const ttf_param *p = param(x, k);
    ttd_cause *s = add_step(e, TTD_CAUSE_ARGUMENT, xp, id);

    if (!s || !p)
        return 0;
    s->function = fname(e, xp, x);
    s->arg = k;
    s->param = p->name ? p->name : "";
    s->good_value = argtext(e, x, TTD_GOOD, k);
    s->bad_value = argtext(e, x, TTD_BAD, k);
    s->bad_index = x->enter[1];
    s->bad_time_ns = x->time_ns;
    s->strong = strong;
    snprintf(e->buf, sizeof e->buf, "`%s` was called with %s%s%s = %s in the bad run, %s in "
             "the good run", s->function, s->param[0] ? "" : "argument ",
             s->param[0] ? s->param : "", s->param[0] ? "" : "", s->bad_value, s->good_value);
    if (!s->param[0])
        snprintf(e->buf, sizeof e->buf, "`%s` was called with argument %d = %s in the bad "
                 "run, %s in the good run", s->function, k + 1, s->bad_value, s->good_value);
    s->text = ttfi_arena_strcpy(e->in->arena, e->buf);
    return s->good_value && s->bad_value && s->text ? 1 : TT_ENOMEM;
}

static void set_end(ectx *e, const char *fmt, const char *a, const char *b)
{
    snprintf(e->buf, sizeof e->buf, fmt, a, b);
    e->ch.end = ttfi_arena_strcpy(e->in->arena, e->buf);
}

/* ---- following values ---------------------------------------------------------- */

static int explain_call(ectx *e, const xpair *xp, int32_t id, int depth);
static const char *pointer_words(const ttdi_xcall *x, char *buf, size_t len);

/* The first differing, non-noise parameter of x, -1 if none. */
static int first_arg(const ttdi_xcall *x)
{
    for (int k = 0; k < TTDI_MAXP; k++)
        if (x->argdiff & (1u << k))
            return k;
    return -1;
}

/* The nearest earlier call of the caller of node id (a sibling that
 * returned before id began) that returned the value of id's argument k
 * in both runs, -1 if none. */
static int32_t returned_before(const xpair *xp, int32_t id, int k)
{
    const ttdi_xcall *x = &xp->rp.c[id], *c = xp->rp.c;
    const ttf_param *p = param(x, k);
    int32_t found = -1;

    if (!p || x->parent < 0)
        return -1;
    for (int32_t s = c[x->parent].first; s >= 0 && c[s].enter[1] < x->enter[1]; s = c[s].next)
        if (real_ret(xp, &c[s]) && c[s].exit_idx < x->enter[1] &&
            same_values(&c[s].sig->ret, c[s].ret[0], c[s].ret[1], &p->type,
                        argreg(x, 0, k), argreg(x, 1, k)))
            found = s;              /* the nearest before the call */
    return found;
}

/* Argument k of node id differs: who produced it? */
static int explain_arg(ectx *e, const xpair *xp, int32_t id, int k, int depth)
{
    const ttdi_xcall *x = &xp->rp.c[id], *c = xp->rp.c;
    const ttf_param *p = param(x, k);
    int32_t pid = x->parent;

    if (depth > CHAIN_MAX || !p)
        return 0;
    if (pid <= 0) {
        set_end(e, "`%s` is where the thread begins: the argument came from outside it%s",
                fname(e, xp, x), xp->pair == 0 ? " (the program's input)" : "");
        e->ch.memory = xp->pair != 0;   /* another thread may have passed it */
        return 0;
    }
    const ttdi_xcall *par = &c[pid];
    int32_t found = returned_before(xp, id, k);
    if (found >= 0) {
        int rc = step_returned(e, xp, found, 1);
        return rc < 0 ? rc : explain_call(e, xp, found, depth + 1);
    }
    for (int j = 0; j < TTDI_MAXP; j++) {
        const ttf_param *q = param(par, j);
        if (!(par->argdiff & (1u << j)) || !q ||
            !same_values(&q->type, argreg(par, 0, j), argreg(par, 1, j), &p->type,
                         argreg(x, 0, k), argreg(x, 1, k)))
            continue;
        int rc = step_argument(e, xp, pid, j, 1);
        return rc < 0 ? rc : explain_arg(e, xp, pid, j, depth + 1);
    }
    e->ch.origin = fname(e, xp, par);
    e->ch.origin_pair = xp->pair;
    int j = first_arg(par);
    const ttf_param *q = j >= 0 ? param(par, j) : NULL;
    snprintf(e->buf, sizeof e->buf, "`%s` computed the argument: no earlier call returned "
             "it and `%s` did not receive it as is%s%s%s", e->ch.origin, e->ch.origin,
             q ? " (its own argument " : "", q && q->name ? q->name : "",
             q ? " differs too)" : "");
    e->ch.end = ttfi_arena_strcpy(e->in->arena, e->buf);
    return 0;
}

/* 1 if node a is node b or encloses it. */
static int encloses(const ttdi_replay *rp, int32_t a, int32_t b)
{
    for (int n = 0; b > 0 && n < 100000; n++, b = rp->c[b].parent)
        if (b == a)
            return 1;
    return a == b;
}

/* A value pair too common to link two calls by equality alone: 0, 1, -1
 * in both runs (flags, counts of one). */
static int common_pair(const ttf_vtype *ty, uint64_t g, uint64_t b)
{
    int64_t x = as_i64(g, ty), y = as_i64(b, ty);
    return x >= -1 && x <= 1 && y >= -1 && y <= 1;
}

/* Data stored and read back (issue 33): node id returned a value none of
 * its calls or arguments explain (it read memory). The nearest earlier call
 * of the same thread, neither enclosing it nor inside it, that was passed
 * that value as an argument (the same in each run, differing between
 * them): a setter whose value the getter returned. Its node, with *karg
 * its argument; -1 if none. */
static int32_t stored_by(const xpair *xp, int32_t id, int *karg)
{
    const ttdi_replay *rp = &xp->rp;
    const ttdi_xcall *x = &rp->c[id];
    int32_t best = -1;

    if (!x->sig || !x->returned || common_pair(&x->sig->ret, x->ret[0], x->ret[1]))
        return -1;
    for (size_t i = 1; i < rp->n; i++) {
        const ttdi_xcall *c = &rp->c[i];
        if (!c->argdiff || c->time_ns >= x->time_ns || encloses(rp, (int32_t)i, id) ||
            encloses(rp, id, (int32_t)i) || (best >= 0 && c->time_ns <= rp->c[best].time_ns))
            continue;
        for (int k = 0; k < TTDI_MAXP; k++) {
            const ttf_param *p = param(c, k);
            if ((c->argdiff & (1u << k)) && p &&
                same_values(&p->type, argreg(c, 0, k), argreg(c, 1, k), &x->sig->ret,
                            x->ret[0], x->ret[1])) {
                best = (int32_t)i;
                *karg = k;
                break;
            }
        }
    }
    return best;
}

/* The setter step of stored_by: the argument, said to be read back. */
static int step_stored(ectx *e, const xpair *xp, int32_t setter, int k, int32_t getter)
{
    int rc = step_argument(e, xp, setter, k, 1);
    ttd_cause *s = e->ch.n ? &e->ch.step[e->ch.n - 1] : NULL;

    if (rc <= 0 || !s || s->kind != TTD_CAUSE_ARGUMENT)
        return rc;
    snprintf(e->buf, sizeof e->buf, "%s; stored, and returned later by `%s` (read back)",
             s->text, fname(e, xp, &xp->rp.c[getter]));
    s->text = ttfi_arena_strcpy(e->in->arena, e->buf);
    return s->text ? 1 : TT_ENOMEM;
}

/* The answer that flipped inside node w (an error for success, a yes/no,
 * a class of value the other run's calls never gave: ret_flips), the last
 * to return: the writer computed what it stored from it, as own_flip
 * links one inside a call that returned the same. -1 if none. */
static int32_t flip_inside(const xpair *xp, int32_t w)
{
    const ttdi_replay *rp = &xp->rp;
    int32_t best = -1;

    for (size_t i = 1; i < rp->n; i++) {
        const ttdi_xcall *x = &rp->c[i];
        if ((int32_t)i == w || !real_ret(xp, x) || x->exit_idx >= rp->c[w].exit_idx ||
            !encloses(rp, w, (int32_t)i) || !ret_flips(xp, x) ||
            (best >= 0 && x->exit_idx <= rp->c[best].exit_idx))
            continue;
        best = (int32_t)i;
    }
    return best;
}

/* The writer of what node `reader` read (written.c: the same object, a
 * field the writer's code writes and the reader's reads, an argument that
 * differs) as the next step: "`plan` was called with size = 8180 ...
 * and the object `check` reads". A call that returned that argument is
 * followed on (it produced the value written), else an answer that
 * flipped inside the writer (flip_inside); else the chain stops at the
 * writer and says so: what it stored is not in the trace. 1 when linked,
 * 0 when no writer, or a TT_E* code. */
static int written_link(ectx *e, const xpair *xp, int32_t reader, int depth)
{
    ttdi_writer w, o;
    const xpair *wx = xp, *rx = xp;
    uint64_t t = e->x->first ? e->x->first->bad_time_ns : UINT64_MAX;
    int rc;

    if (!ttdi_written_by(&xp->rp, &xp->rp, reader, &w) || w.arg < 0) {
        /* another thread's, replayed to the split as other_threads does */
        w.node = -1;
        for (size_t i = 0; i < e->in->s->nip; i++) {
            if (i == xp->pair || !e->in->s->ip[i].vf.found ||
                e->in->s->ip[i].vf.first.ev[1].time_ns >= xp->rp.c[reader].time_ns)
                continue;
            if ((rc = replay(e, i, UINT64_MAX, t)) < 0)
                return rc;
            if (ttdi_written_by(&e->xp[i].rp, &xp->rp, reader, &o) && o.arg >= 0 &&
                (w.node < 0 || e->xp[i].rp.c[o.node].time_ns > wx->rp.c[w.node].time_ns)) {
                w = o;
                wx = &e->xp[i];
            }
        }
        if (w.node < 0)
            return 0;
    }
    xp = wx;
    if ((rc = step_argument(e, xp, w.node, w.arg, 0)) <= 0)
        return rc;      /* not strong: the reader read what it made of it */
    ttd_cause *s = &e->ch.step[e->ch.n - 1];
    const ttf_param *rp = param(&rx->rp.c[reader], w.rtie);
    const char *rn = fname(e, rx, &rx->rp.c[reader]);
    const char *wn = s->function;
    if (w.made)
        snprintf(e->buf, sizeof e->buf, "%s, and returned the object `%s` reads (%s): it made "
                 "it (written here, read back later)", s->text, rn,
                 rp && rp->name ? rp->name : "a pointer argument");
    else
        snprintf(e->buf, sizeof e->buf, "%s, and the object `%s` reads (%s): its code writes "
                 "%s, which `%s`'s code reads (written here, read back later)", s->text, rn,
                 rp && rp->name ? rp->name : "a pointer argument", w.field, rn);
    s->text = ttfi_arena_strcpy(e->in->arena, e->buf);
    e->ch.wrote[e->ch.n - 1] = ttfi_arena_strcpy(e->in->arena, w.field);
    if (!s->text || !e->ch.wrote[e->ch.n - 1])
        return TT_ENOMEM;
    int32_t from = returned_before(xp, w.node, w.arg);
    int strong = from >= 0;
    if (from < 0)
        from = flip_inside(xp, w.node);
    if (from >= 0 && depth <= CHAIN_MAX) {
        if ((rc = step_returned(e, xp, from, strong)) < 0 ||
            (rc = explain_call(e, xp, from, depth + 1)) < 0)
            return rc;
        return 1;
    }
    snprintf(e->buf, sizeof e->buf, "`%s` wrote what `%s` read back: the trace holds what it "
             "was given, not what it stored", wn, rn);
    e->ch.end = ttfi_arena_strcpy(e->in->arena, e->buf);
    return e->ch.end ? 1 : TT_ENOMEM;
}

/* The callee of node id to follow: one that passed the same value on,
 * else the last that returned another value (before bound). */
static int32_t pick_callee(const xpair *xp, int32_t id, uint64_t bound, int *strong)
{
    const ttdi_xcall *c = xp->rp.c, *x = &c[id];
    int32_t last = -1, same = -1;

    for (int32_t s = x->first; s >= 0; s = c[s].next) {
        if (!real_ret(xp, &c[s]) || c[s].exit_idx >= bound)
            continue;
        last = s;
        if (x->returned && x->sig && same_values(&c[s].sig->ret, c[s].ret[0], c[s].ret[1],
                                                 &x->sig->ret, x->ret[0], x->ret[1]))
            same = s;
    }
    *strong = same >= 0;
    return same >= 0 ? same : last;
}

/* The chain stops at call x: no callee's value, no argument differs.
 * Its pointers were compared as pointers only (no string recorded): said
 * so ("no earlier value differs (pointer name compared, not its
 * contents)"), as the input a user would look at next. */
static int end_unexplained(ectx *e, const ttdi_xcall *x)
{
    char pw[160];
    e->ch.memory = 1;
    e->ch.end = "no earlier value differs";
    if (!*pointer_words(x, pw, sizeof pw))
        return 0;
    snprintf(e->buf, sizeof e->buf, "no earlier value differs%s", pw);
    e->ch.end = ttfi_arena_strcpy(e->in->arena, e->buf);
    return e->ch.end ? 0 : TT_ENOMEM;
}

/* Node id returned another value: why? */
static int explain_call(ectx *e, const xpair *xp, int32_t id, int depth)
{
    const ttdi_xcall *x = &xp->rp.c[id];
    int strong, rc;

    if (depth > CHAIN_MAX) {
        e->ch.end = "the chain is longer than it follows";
        return 0;
    }
    int32_t s = pick_callee(xp, id, x->exit_idx, &strong);
    if (s >= 0) {
        if ((rc = step_returned(e, xp, s, strong)) < 0)
            return rc;
        return explain_call(e, xp, s, depth + 1);
    }
    int k = first_arg(x);
    if (k >= 0) {
        if ((rc = step_argument(e, xp, id, k, 0)) < 0)
            return rc;
        return explain_arg(e, xp, id, k, depth + 1);
    }
    int32_t set = stored_by(xp, id, &k);
    if (set >= 0) {
        if ((rc = step_stored(e, xp, set, k, id)) < 0)
            return rc;
        return explain_arg(e, xp, set, k, depth + 1);
    }
    if ((rc = written_link(e, xp, id, depth + 1)) != 0)
        return rc < 0 ? rc : 0;
    return end_unexplained(e, x);
}

/* The frame branched having seen no other difference than a value no
 * input decides, z, which it passed to a later call: a cause only because
 * the calls after it depend on it, and said so ("a clock value decided").
 * A clock read and not passed on is no evidence (libuv's uv__io_poll
 * branches on what epoll returned, untraced): the evidence stops there. */
static int step_decided(ectx *e, const xpair *xp, const ttdi_xnoisy *z)
{
    ttd_cause *s = add_step(e, TTD_CAUSE_RETURNED, xp, -1);
    const char *what = z->why == TTDI_NOISE_CLOCK ? "a clock value"
                       : z->why == TTDI_NOISE_BASELINE ? "a value that varies between good runs"
                       : "an address or time stamp";

    if (!s)
        return 0;
    s->function = ttdi_norm_func_at(&e->in->r[TTD_BAD].norm, z->addr, 0, z->time_ns);
    if (!s->function)
        s->function = "?";
    s->good_value = vtext(e, TTD_GOOD, z->ret[0], &z->sig->ret, z->gexit_ns);
    s->bad_value = vtext(e, TTD_BAD, z->ret[1], &z->sig->ret, z->exit_ns);
    s->bad_index = z->exit_idx;
    s->bad_time_ns = z->exit_ns;
    if (!s->good_value || !s->bad_value)
        return TT_ENOMEM;
    snprintf(e->buf, sizeof e->buf, "%s decided: `%s` returned %s in the bad run, %s in the "
             "good run, and the calls after it depend on it", what, s->function, s->bad_value,
             s->good_value);
    s->nondet = what;
    s->text = ttfi_arena_strcpy(e->in->arena, e->buf);
    e->decided = s;
    e->decided_values = 1 + (uint64_t)z->used;
    return s->text ? 1 : TT_ENOMEM;
}

/* The frame at the split (node id) decided: on what? Its callees'
 * values before the split, else its arguments, else a value no input
 * decides that it read and passed on (the only difference it saw). */
static int explain_frame(ectx *e, const xpair *xp, int32_t id, uint64_t split,
                         const ttdi_xnoisy *z)
{
    int strong, rc;
    int32_t s = pick_callee(xp, id, split, &strong);

    if (s >= 0) {
        if ((rc = step_returned(e, xp, s, 0)) < 0)
            return rc;
        return explain_call(e, xp, s, 1);
    }
    int k = id > 0 ? first_arg(&xp->rp.c[id]) : -1;
    if (k >= 0) {
        if ((rc = step_argument(e, xp, id, k, 0)) < 0)
            return rc;
        return explain_arg(e, xp, id, k, 1);
    }
    if (z && z->why && z->used && z->sig && z->exit_idx < split) {
        if ((rc = step_decided(e, xp, z)) < 0)
            return rc;
        e->ch.end = "no input decides that value (it varies from run to run)";
        return 0;
    }
    e->ch.end = "no earlier value differs";
    return 0;
}

/* Depth of node id (0 for the top level). */
static int node_depth(const ttdi_replay *rp, int32_t id)
{
    int n = 0;
    while (id > 0 && n < 100000) {
        id = rp->c[id].parent;
        n++;
    }
    return n;
}

/* A differing value of a replay: node, and argument (-1: its return). */
typedef struct vcand {
    const xpair *xp;
    int32_t node;
    int arg;
    int flips;                  /* its answer flipped */
    int same;                   /* the same values as the chain's start */
    int depth;                  /* node depth */
    uint64_t t;                 /* bad-run time */
} vcand;

/* Is a better than b? The same value first, then flips, the outermost,
 * the latest. */
static int better(const vcand *a, const vcand *b)
{
    if (!b->xp || a->same != b->same)
        return !b->xp || a->same > b->same;
    if (a->flips != b->flips)
        return a->flips > b->flips;
    if (a->depth != b->depth)
        return a->depth < b->depth;
    return a->t >= b->t;
}

/* Are the values of candidate c the texts g, b? */
static int same_text(ectx *e, const vcand *c, const char *g, const char *b)
{
    const ttdi_xcall *x = &c->xp->rp.c[c->node];
    const ttf_param *p = c->arg >= 0 ? param(x, c->arg) : NULL;
    const ttf_vtype *ty = p ? &p->type : &x->sig->ret;
    char vg[128], vb[128];
    ttf_string st[2];

    if (!g || !b)
        return 0;
    ttf_value_format(vg, sizeof vg, p ? argreg(x, 0, c->arg) : x->ret[0], ty);
    ttf_value_format(vb, sizeof vb, p ? argreg(x, 1, c->arg) : x->ret[1], ty);
    if (p && xstrings(x, c->arg, st)) {
        ttf_string_format(vg, sizeof vg, &st[0]);
        ttf_string_format(vb, sizeof vb, &st[1]);
    }
    if (!p && ttdi_ret_struct(x->sig)) {
        const char *sg = rettext(e, x, TTD_GOOD), *sb = rettext(e, x, TTD_BAD);
        return sg && sb && strcmp(sg, g) == 0 && strcmp(sb, b) == 0;
    }
    return strcmp(vg, g) == 0 && strcmp(vb, b) == 0;
}

/* Value k (-1: the return) of node i of xp as a candidate before time t
 * into *best when it is better. */
static void consider(ectx *e, const xpair *xp, size_t i, int k, uint64_t t,
                     const ttd_cause *want, vcand *best)
{
    const ttdi_xcall *x = &xp->rp.c[i];
    const ttf_param *p = k >= 0 ? param(x, k) : NULL;

    if (k < 0 ? !real_ret(xp, x) || x->exit_ns >= t
              : !(x->argdiff & (1u << k)) || x->time_ns >= t)
        return;
    vcand c = {xp, (int32_t)i, k, 0, 0, node_depth(&xp->rp, (int32_t)i),
               k < 0 ? x->exit_ns : x->time_ns};
    c.flips = k < 0 ? ret_flips(xp, x)
              : p && ttdi_value_flip(&p->type, argreg(x, 0, k), argreg(x, 1, k));
    c.same = want && same_text(e, &c, want->good_value, want->bad_value);
    if (better(&c, best))
        *best = c;
}

/* The best differing value of replay xp before time t into *best. */
static void best_before(ectx *e, const xpair *xp, uint64_t t, const ttd_cause *want,
                        vcand *best)
{
    for (size_t i = 1; i < xp->rp.n; i++)
        for (int k = -1; k < TTDI_MAXP; k++)
            consider(e, xp, i, k, t, want, best);
}

/* Any differing value (return or argument, not noise) in a replay? */
static int has_values(const xpair *xp)
{
    for (size_t i = 1; i < xp->rp.n; i++)
        if (real_ret(xp, &xp->rp.c[i]) || xp->rp.c[i].argdiff)
            return 1;
    return 0;
}

/* Candidate c as the chain's next step, and the chain on from it. 1, or
 * a TT_E* code. */
static int link_value(ectx *e, const vcand *c)
{
    int rc;

    e->ch.end = NULL;
    if (c->arg < 0) {
        if ((rc = step_returned(e, c->xp, c->node, c->same)) < 0)
            return rc;
        rc = explain_call(e, c->xp, c->node, 1);
    } else {
        if ((rc = step_argument(e, c->xp, c->node, c->arg, c->same)) < 0)
            return rc;
        rc = explain_arg(e, c->xp, c->node, c->arg, 1);
    }
    return rc < 0 ? rc : 1;
}

/* Another thread's value difference before time t as the next step
 * (pairs replayed up to t): one with the same values as want (the chain's
 * earliest step, NULL if none) is linked by value; else, with weak set,
 * the best by time (better()), or with weak clear only an answer that
 * flipped. 0 when none, 1 when added, or a TT_E* code. */
static int other_threads(ectx *e, size_t self, uint64_t t, const ttd_cause *want,
                         int weak)
{
    const ttdi_in *in = e->in;
    vcand best;
    int rc;

    memset(&best, 0, sizeof best);
    for (size_t i = 0; i < in->s->nip; i++) {
        if (i == self || !in->s->ip[i].vf.found || in->s->ip[i].vf.first.ev[1].time_ns >= t)
            continue;
        if (e->x->followed && e->x->followed->pair == i)
            continue;       /* follows the progress, reaches no split (order.c) */
        if ((rc = replay(e, i, UINT64_MAX, t)) < 0)
            return rc;
        best_before(e, &e->xp[i], t, want, &best);
    }
    if (!best.xp || (!weak && !best.same && !best.flips))
        return 0;
    return link_value(e, &best);
}

/* The split's frame saw no value differ (explain_frame's chain is the
 * split alone), yet its own thread's values differ before the split,
 * inside calls that returned the same to it: the frame read what they
 * left in memory. An answer that flipped there (an error for success, a
 * yes/no, an end of the type the other run's calls never gave: a range
 * check that fired) is the next step, linked by time, as memory_link
 * links another thread's; a value that only differs is not (the input
 * passed along: parsers return other numbers for other text). 0 when
 * none, 1 when added, or a TT_E* code. */
static int own_flip(ectx *e, const xpair *xp, uint64_t t)
{
    vcand best;

    memset(&best, 0, sizeof best);
    best_before(e, xp, t, NULL, &best);
    return best.xp && best.flips ? link_value(e, &best) : 0;
}

/* The chain stopped at a value computed from what the values do not show
 * (memory): an earlier value difference of another thread may have put it
 * there. Linked by the same values, or by time when its answer flipped
 * (an error in a worker). */
static int memory_link(ectx *e, size_t self)
{
    const ttd_cause *first = e->ch.n ? &e->ch.step[e->ch.n - 1] : NULL;

    if (!e->ch.memory || !first || (first->kind != TTD_CAUSE_RETURNED &&
                                    first->kind != TTD_CAUSE_ARGUMENT))
        return 0;
    e->ch.memory = 0;
    return other_threads(e, self, first->bad_time_ns, first, 0);
}

/* ---- the chains -------------------------------------------------------------- */

/* What an event does, in a few words: "calls `f`", "calls `f` from
 * g:12", "crashes (SIGSEGV)". */
static void ev_words(const ttd_event *ev, char *buf, size_t n)
{
    const char *f = ev->name ? ev->name : "?";

    switch (ev->kind) {
    case TTF_EV_ENTER:          /* with its call site when that aligns */
        snprintf(buf, n, "calls `%s`%s%s", f, ev->from ? " from " : "",
                 ev->from ? ev->from : "");
        break;
    case TTF_EV_EXIT: snprintf(buf, n, "returns from `%s`", f); break;
    case TTF_EV_CRASH: snprintf(buf, n, "crashes (%s)", ev->text ? ev->text : "?"); break;
    default: snprintf(buf, n, "logs in `%s`", f);
    }
}

static int split_step(ectx *e, const ttd_divergence *dv, const xpair *xp, int32_t node)
{
    ttd_cause *s = add_step(e, TTD_CAUSE_SPLIT, xp, node);
    /* the innermost frame, an inlined one included (lines.c) */
    const char *f = dv->nframes ? dv->frames[dv->nframes - 1].name : "(the top level)";
    char g[200], b[200];

    if (!s)
        return 0;
    s->function = dv->nframes ? f : "";
    s->bad_index = dv->bad_index;
    s->bad_time_ns = dv->bad_time_ns;
    if (dv->ngood)
        ev_words(&dv->good[0], g, sizeof g);
    if (dv->nbad)
        ev_words(&dv->bad[0], b, sizeof b);
    if (dv->ngood && dv->nbad)
        snprintf(e->buf, sizeof e->buf, "the calls part in `%s`: the good run %s, the bad "
                 "run %s", f, g, b);
    else if (dv->ngood || dv->nbad)
        snprintf(e->buf, sizeof e->buf, "the calls part in `%s`: only the %s run %s", f,
                 dv->nbad ? "bad" : "good", dv->nbad ? b : g);
    else
        snprintf(e->buf, sizeof e->buf, "the calls part in `%s`", f);
    s->text = ttfi_arena_strcpy(e->in->arena, e->buf);
    return s->text ? 0 : TT_ENOMEM;
}

/* The chain of the first divergence. */
static int chain_split(ectx *e, const ttd_divergence *dv)
{
    const ttdi_in *in = e->in;
    int rc;

    if (!in->values) {
        if ((rc = split_step(e, dv, NULL, -1)) < 0)
            return rc;
        e->ch.step[0].pair = dv->pair;
        e->ch.step[0].thread = thread_name(e, dv->pair);
        e->ch.end = e->x->values_note ? "values not recorded" : "values not recorded";
        return 0;
    }
    if ((rc = replay(e, dv->pair, dv->bad_index, UINT64_MAX)) < 0)
        return rc;
    xpair *xp = &e->xp[dv->pair];
    size_t fi = dv->nstack <= xp->rp.npath ? dv->nstack : xp->rp.npath;
    int32_t node = fi ? xp->rp.path[fi - 1] : 0;
    const ttdi_xnoisy *z = fi && node >= 0 && xp->rp.pnoisy ? &xp->rp.pnoisy[fi - 1] : NULL;
    if (node < 0)
        node = 0;
    if ((rc = split_step(e, dv, xp, node)) < 0)
        return rc;
    if ((rc = explain_frame(e, xp, node, dv->bad_index, z)) < 0)
        return rc;
    /* the frame saw no value differ: what it read, an earlier call of its
       thread may have written (the same object, a field both name) */
    if (e->ch.n == 1 && node > 0 && (rc = written_link(e, xp, node, 1)) != 0)
        return rc < 0 ? rc : 0;
    if (e->ch.n == 1 && !has_values(xp))
        rc = other_threads(e, dv->pair, dv->bad_time_ns, NULL, 1);
    else if (e->ch.n == 1)
        rc = own_flip(e, xp, dv->bad_time_ns);
    else
        rc = memory_link(e, dv->pair);
    return rc < 0 ? rc : 0;
}

/* Same calls, another end: the exit status step and why. */
static int chain_exit(ectx *e)
{
    const ttdi_in *in = e->in;
    const ttd_outcome *o = e->x->outcome;
    char g[32], b[32];
    int rc;

    if (!in->s->nip)
        return 0;
    ttd_cause *s = add_step(e, TTD_CAUSE_EXIT, NULL, -1);
    snprintf(g, sizeof g, o->signal[0] ? "signal %d" : o->has_exit[0] ? "%d" : "none",
             o->signal[0] ? o->signal[0] : o->exit_status[0]);
    snprintf(b, sizeof b, o->signal[1] ? "signal %d" : o->has_exit[1] ? "%d" : "none",
             o->signal[1] ? o->signal[1] : o->exit_status[1]);
    s->good_value = ttfi_arena_strcpy(in->arena, g);
    s->bad_value = ttfi_arena_strcpy(in->arena, b);
    s->thread = thread_name(e, 0);
    snprintf(e->buf, sizeof e->buf, "%s but ended differently: "
             "exit status %s in the bad run, %s in the good run",
             e->x->ncounts ? "each thread's calls align (not their counts)"
                           : "the runs made the same calls", b, g);
    s->text = ttfi_arena_strcpy(in->arena, e->buf);
    if (!in->values) {
        e->ch.end = "values not recorded";
        return 0;
    }
    if ((rc = replay(e, 0, UINT64_MAX, UINT64_MAX)) < 0)
        return rc;
    const xpair *xp = &e->xp[0];
    int32_t top = -1;
    for (int32_t c = xp->rp.c[0].first; c >= 0; c = xp->rp.c[c].next)
        if (real_ret(xp, &xp->rp.c[c]))
            top = c;
    if (top >= 0) {
        if ((rc = step_returned(e, xp, top, 0)) < 0 ||
            (rc = explain_call(e, xp, top, 1)) < 0 || (rc = memory_link(e, 0)) < 0)
            return rc;
        return 0;
    }
    e->ch.end = "no value differs";
    rc = other_threads(e, 0, UINT64_MAX, NULL, 1);
    return rc < 0 ? rc : 0;
}

/* ---- code changed between the builds ------------------------------------------- */

static int changed(const ectx *e, const char *f)
{
    return e->cd && f && f[0] && ttdi_codediff_changed(e->cd, f) == 1;
}

/* Put the chain in the result, earliest first, with a code_changed step
 * before the first step of each function whose code changed. */
static int publish_chain(ectx *e)
{
    const ttdi_in *in = e->in;
    size_t n = e->ch.n, m = 0;
    ttd_cause *out = ttfi_arena_zalloc(in->arena, (2 * n + 1) * sizeof *out);

    if (!out)
        return TT_ENOMEM;
    for (size_t i = n; i-- > 0;) {
        const ttd_cause *s = &e->ch.step[i];
        int dup = 0;
        for (size_t j = 0; j < m; j++)
            dup |= out[j].kind == TTD_CAUSE_CODE && strcmp(out[j].function, s->function) == 0;
        if (!dup && changed(e, s->function)) {
            ttd_cause *c = &out[m++];
            *c = *s;
            c->kind = TTD_CAUSE_CODE;
            c->good_value = c->bad_value = NULL;
            c->arg = -1;
            c->param = NULL;
            snprintf(e->buf, sizeof e->buf, "`%s`'s machine code differs between the two "
                     "builds", s->function);
            c->text = ttfi_arena_strcpy(in->arena, e->buf);
        }
        out[m++] = *s;
    }
    e->out->chain = out;
    e->out->nchain = m;
    e->out->chain_end = e->ch.end ? e->ch.end : "no earlier value differs";
    return 0;
}


/* ---- suspects --------------------------------------------------------------- */

static ttd_suspect *find_sus(ttd_suspect *s, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s[i].name, name) == 0)
            return &s[i];
    return NULL;
}

static int on_stack(const ttd_divergence *dv, const char *name)
{
    for (size_t i = 0; i < dv->nstack; i++)
        if (strcmp(dv->stack[i].name, name) == 0)
            return 1;
    return 0;
}

/* The suspect for function name (added when missing, at node x of pair
 * pair if known). */
static ttd_suspect *suspect_of(ectx *e, const ttd_divergence *dv, ttd_suspect *s, size_t *n,
                               const char *name, size_t pair, const ttdi_xcall *x)
{
    ttd_suspect *f = find_sus(s, *n, name);

    if (f)
        return f;
    f = &s[(*n)++];
    memset(f, 0, sizeof *f);
    f->name = name;
    f->pair = pair;
    f->role = on_stack(dv, name) ? TTD_SUSPECT_CALLER : TTD_SUSPECT_EARLIER;
    if (x) {
        ttdi_norm_locate(&e->in->r[TTD_BAD].norm, x->addr, 0, x->time_ns,
                         &f->file, &f->line);
        f->index = x->exit_idx != UINT64_MAX ? x->exit_idx : x->enter[1];
        if (pair == dv->pair && f->index < dv->bad_index)
            f->distance = dv->bad_index - 1 - f->index;
    }
    for (size_t i = 0; i < dv->nstack && !x; i++)
        if (strcmp(dv->stack[i].name, name) == 0) {
            f->file = dv->stack[i].file;
            f->line = dv->stack[i].line;
        }
    return f;
}

/* Did the value of chain step i (a return or an argument) flip: an error
 * for success, NULL for non-NULL, 0 for 1? */
static int step_flips(const xchain *c, size_t i)
{
    const ttd_cause *st = &c->step[i];
    const ttdi_xcall *x = c->from[i] && c->node[i] >= 0 ? &c->from[i]->rp.c[c->node[i]] : NULL;

    if (!x)
        return 0;
    if (st->kind == TTD_CAUSE_RETURNED)
        return ret_flips(c->from[i], x);
    if (st->kind != TTD_CAUSE_ARGUMENT)
        return 0;
    const ttf_param *p = param(x, st->arg);
    return p && ttdi_value_flip(&p->type, argreg(x, 0, st->arg), argreg(x, 1, st->arg));
}

/* Is chain step i (latest first) where the decision was made? Its answer
 * flipped; its cause (i + 1) did not flip and pass it on as is (then the
 * decision is there); and no later step (i - 1) turned it into another
 * flipped answer (then the decision is that one's: `find_user` returning
 * NULL because `same` said 0). */
static int error_appears(const xchain *c, size_t i)
{
    if (c->step[i].kind != TTD_CAUSE_RETURNED || !step_flips(c, i))
        return 0;
    if (i + 1 < c->n && c->wrote[i + 1])
        return 0;   /* it returned what a writer left in memory */
    if (i + 1 < c->n && c->step[i + 1].strong && step_flips(c, i + 1))
        return 0;
    return !(i > 0 && !c->step[i].strong && step_flips(c, i - 1));
}

/* After "its inputs did not": the pointers among them were compared as
 * pointers (NULL or not), not by what they point to (a string "cc"
 * against "cx" is not seen): " (pointer key compared, not its contents)",
 * " (pointers compared, not their contents)", or "" with none. Strings
 * whose first bytes both runs recorded (format 1.6) were compared by
 * them: not counted. */
static const char *pointer_words(const ttdi_xcall *x, char *buf, size_t len)
{
    const ttf_signature *sig = x->sig;
    const char *name = NULL;
    int n = 0;
    for (size_t k = 0; sig && k < sig->nparams; k++) {
        const ttf_param *p = &sig->params[k];
        ttf_string st[2];
        if (p->reg < 0 || p->type.cls != TTF_VC_POINTER || (p->name && !strcmp(p->name, "this")) ||
            xstrings(x, (int)k, st))
            continue;
        name = n++ ? name : p->name;
    }
    if (n == 1 && name && name[0])
        snprintf(buf, len, " (pointer %s " TTDI_PTR_UNSEEN " its contents)", name);
    else
        snprintf(buf, len, "%s", n ? " (pointers " TTDI_PTR_UNSEEN " their contents)" : "");
    return buf;
}

/* The error-origin evidence of suspect f, whose call x (of replay xp)
 * turned ordinary results into a failure. A failure-looking value (-1,
 * NULL) that the other run's calls of it returned too (EOF's -1 from a
 * character reader) is not called an error: "a value the good run
 * returns too". Pointer inputs were compared as pointers: pw says so. */
static int error_evidence(struct ttfi_arena *a, ttd_suspect *f, const xpair *xp,
                          const ttdi_xcall *x, const ttd_cause *st, const char *pw)
{
    uint32_t calls = 0;
    int run = failed_run(xp, x, &calls);
    /* an end of the type (INT64_MIN) reads as negative, an error by its
       type; what makes it a failure is that the other run's calls never
       gave that end (ttdi_replay_failure's class) */
    int end = run >= 0 ? ttdi_type_end(&x->sig->ret, x->ret[run]) : 0;
    if (end && (!xp || ttdi_replay_failure(&xp->rp, x, &calls) != run))
        end = 0;
    int learnt = run >= 0 && (end || ttdi_value_error(&x->sig->ret, x->ret[run]) != 1);

    if (run < 0)
        return ttdi_evid_add(a, f, TTD_EV_ERROR, TTDI_W_ERROR, "its answer flipped here "
                             "(yes/no), its inputs did not%s", pw);
    if (!learnt && xp && ttdi_replay_returned_error(&xp->rp, x, !run))
        return ttdi_evid_add(a, f, TTD_EV_ERROR, TTDI_W_ERROR, "its answer flipped here (a "
                             "value the %s run returns too), its inputs did not%s",
                             run == TTD_BAD ? "good" : "bad", pw);
    if (!learnt)
        return ttdi_evid_add(a, f, TTD_EV_ERROR, TTDI_W_ERROR, "its answer flipped here (an "
                             "error in the %s run), its inputs did not%s",
                             run == TTD_BAD ? "bad" : "good", pw);
    return ttdi_evid_add(a, f, TTD_EV_ERROR, TTDI_W_ERROR, "the failure starts here: it "
                         "returned %s in the %s run%s, which none of its %" PRIu32 " call%s in "
                         "the %s run did; its inputs gave no failure%s",
                         run == TTD_BAD ? st->bad_value : st->good_value,
                         run == TTD_BAD ? "bad" : "good",
                         !end ? "" : end < 0 ? " (its type's minimum: a range check's answer)"
                                             : " (its type's maximum: a range check's answer)",
                         calls, calls == 1 ? "" : "s", run == TTD_BAD ? "good" : "bad", pw);
}

/* 1 if the chain has a value step in the split's own thread: a data link
 * that a step of another thread linked by time alone must not outrank. */
static int own_value(const xchain *c, const ttd_divergence *dv)
{
    for (size_t i = 0; i < c->n; i++)
        if (c->step[i].pair == dv->pair && (c->step[i].kind == TTD_CAUSE_RETURNED ||
                                            c->step[i].kind == TTD_CAUSE_ARGUMENT))
            return 1;
    return 0;
}

/* Evidence from chain step i. */
static int step_evidence(ectx *e, const ttd_divergence *dv, ttd_suspect *s, size_t *n, size_t i)
{
    const xchain *c = &e->ch;
    const ttd_cause *st = &c->step[i];
    const ttdi_xcall *x = c->from[i] && c->node[i] >= 0 ? &c->from[i]->rp.c[c->node[i]] : NULL;
    struct ttfi_arena *a = e->in->arena;
    int rc = 0;

    char pw[160];

    if (st->kind != TTD_CAUSE_RETURNED && st->kind != TTD_CAUSE_ARGUMENT)
        return 0;
    if (st == e->decided && dv->nstack) {
        /* a value no input decides is no suspect by itself: the frame
         * that branched on it is (the clock is right, its use is not) */
        ttd_suspect *fr = suspect_of(e, dv, s, n, dv->stack[dv->nstack - 1].name, dv->pair,
                                     NULL);
        return ttdi_evid_add(a, fr, TTD_EV_CHAIN, TTDI_W_CHAIN, "%s", st->text);
    }
    ttd_suspect *f = suspect_of(e, dv, s, n, st->function, st->pair, x);
    int origin = i + 1 == c->n && !c->origin && !e->frame_decides;
    if (st->kind == TTD_CAUSE_RETURNED) {
        if (!f->value_differs) {
            f->value_differs = 1;
            f->good_value = st->good_value;
            f->bad_value = st->bad_value;
            f->trivial = 0;
            /* another call of it differs */
            if ((rc = ttdi_evid_drop(a, f, TTD_EV_TRIVIAL)) < 0 ||
                (rc = ttdi_evid_drop(a, f, TTD_EV_NOISE)) < 0)
                return rc;
        }
        rc = ttdi_evid_add(a, f, TTD_EV_VALUE, TTDI_W_VALUE, "returned %s in the bad "
                           "run, %s in the good run", st->bad_value, st->good_value);
        if (rc >= 0 && error_appears(c, i))
            rc = error_evidence(a, f, c->from[i], x, st, pointer_words(x, pw, sizeof pw));
    } else {
        rc = ttdi_evid_add(a, f, TTD_EV_ARGS, TTDI_W_ARGS, "called with %s = %s in the bad "
                           "run, %s in the good run", st->param && st->param[0] ? st->param
                           : "an argument", st->bad_value, st->good_value);
        if (rc >= 0 && c->wrote[i] && i > 0)  /* a leaf that writes is no trivial one */
            rc = ttdi_evid_drop(a, f, TTD_EV_TRIVIAL);
        if (rc >= 0 && c->wrote[i] && i > 0 && !*c->wrote[i])
            rc = ttdi_evid_add(a, f, TTD_EV_WRITTEN, TTDI_W_WRITTEN, "it made the object `%s` "
                               "reads later (it returned it), given a value that differs",
                               c->step[i - 1].function);
        else if (rc >= 0 && c->wrote[i] && i > 0)
            rc = ttdi_evid_add(a, f, TTD_EV_WRITTEN, TTDI_W_WRITTEN, "it was given the object "
                               "`%s` reads later and a value that differs, and its code "
                               "writes %s, which `%s`'s code reads", c->step[i - 1].function,
                               c->wrote[i], c->step[i - 1].function);
    }
    /* another thread's step linked by time alone lends no chain weight
       (a writer of what the split's thread read is linked by its object) */
    int timed = st->pair != dv->pair && !st->strong && !c->wrote[i];
    if (rc >= 0 && !timed)
        rc = ttdi_evid_add(a, f, TTD_EV_CHAIN, TTDI_W_CHAIN + (origin ? TTDI_W_CHAIN_ORIGIN : 0),
                           "%s (step %zu of %zu)", origin ? "the earliest cause on the "
                           "cause chain" : "on the cause chain", c->n - i, c->n);
    /* linked by time alone while the split's thread has a value of its
     * own on the chain, its value may only say the shared state it read
     * was not ready yet: it counts against, below that data link */
    timed = timed && own_value(c, dv);
    if (rc >= 0 && st->pair != dv->pair)
        rc = ttdi_evid_add(a, f, TTD_EV_THREAD, timed ? TTDI_W_THREAD_TIMED : TTDI_W_THREAD,
                           "in thread %s, %.3f ms before the split in thread %s%s",
                           st->thread, (double)(dv->bad_time_ns - st->bad_time_ns) / 1e6,
                           thread_name(e, dv->pair), timed ? ", linked to it by time only "
                           "(what it read in shared state may not have been ready yet)" : "");
    return rc;
}

/* Code changed: candidates and changed frames of the stack. When the
 * source of some changed function changed too (codediff.c reads each
 * build's source back), those functions are the change and weigh more
 * (SOURCE); one whose machine code changed with the same source only
 * carries a change made elsewhere (a changed callee inlined into it, code
 * laid out anew) and weighs less (CODE_CARRIED). With no source read,
 * every changed function weighs CODE. */
static int code_evidence(ectx *e, const ttd_divergence *dv, ttd_suspect *s, size_t *n)
{
    int rc = 0;

    if (!e->cd)
        return 0;
    for (size_t i = 0; i < dv->nstack && rc >= 0; i++)
        if (changed(e, dv->stack[i].name))
            suspect_of(e, dv, s, n, dv->stack[i].name, dv->pair, NULL);
    int src = ttdi_codediff_source_changed(e->cd) > 0;
    for (size_t i = 0; i < *n && rc >= 0; i++) {
        if (!changed(e, s[i].name))
            continue;
        int st = src ? ttdi_codediff_source(e->cd, s[i].name) : TTDI_SRC_UNKNOWN;
        if (st == TTDI_SRC_CHANGED)
            rc = ttdi_evid_add(e->in->arena, &s[i], TTD_EV_CODE, TTDI_W_CODE + TTDI_W_SOURCE,
                               "its source and machine code differ between the two builds");
        else if (st == TTDI_SRC_SAME)
            rc = ttdi_evid_add(e->in->arena, &s[i], TTD_EV_CODE, TTDI_W_CODE_CARRIED,
                               "its machine code differs between the two builds, its source "
                               "does not (it carries a change made elsewhere: code inlined "
                               "into it, or laid out anew)");
        else
            rc = ttdi_evid_add(e->in->arena, &s[i], TTD_EV_CODE, TTDI_W_CODE,
                               "its machine code differs between the two builds");
    }
    return rc;
}

/* ---- inside the deciding function ---------------------------------------------- */

#define INLINED_MAX 3           /* inlined functions made suspects per host */

/* Did the traced calls of node id of xp differ: a hunk inside its range
 * in either run, or a callee that returned another value? */
static int calls_differ(const xpair *xp, int32_t id)
{
    const ttdi_xcall *c = xp->rp.c, *x = &c[id];

    for (size_t i = 0; i < xp->rp.nh; i++) {
        const ttdi_hunk *h = &xp->rp.h[i];
        if (h->b1 > h->b0 && h->b0 < x->exit_idx && h->b1 > x->enter[1])
            return 1;
        if (h->a1 > h->a0 && h->a0 < x->gexit_idx && h->a1 > x->enter[0])
            return 1;
    }
    for (int32_t k = x->first; k >= 0; k = c[k].next)
        if (real_ret(xp, &c[k]))
            return 1;
    return 0;
}

/* The chain's origin when its answer flipped while its inputs, its calls
 * and their values did not: the decision was made in its own machine
 * code. Its step index, or -1. */
static int flipped_origin(const xchain *c)
{
    if (!c->n)
        return -1;
    size_t i = c->n - 1;
    if (c->origin || !c->from[i] || c->node[i] <= 0 || !error_appears(c, i))
        return -1;
    const xpair *xp = c->from[i];
    if (xp->rp.c[c->node[i]].argdiff || calls_differ(xp, c->node[i]))
        return -1;
    return (int)i;
}

/* The suspect for function in, inlined into host h (added when missing,
 * where h is). */
static ttd_suspect *inlined_suspect(ttd_suspect *s, size_t *n, const ttd_suspect *h,
                                    const ttf_inlined *in)
{
    ttd_suspect *f = find_sus(s, *n, in->function);

    if (!f) {
        f = &s[(*n)++];
        memset(f, 0, sizeof *f);
        f->name = in->function;
        f->file = in->decl_file;
        f->line = in->decl_line;
        f->role = h->role;
        f->index = h->index;
        f->distance = h->distance;  /* ties keep the deepest first */
        f->depth = h->depth;
        f->pair = h->pair;
    }
    if (!f->inlined_into)
        f->inlined_into = h->name;
    return f;
}

/* The identifier of a function's name: "f" of "ns::C::f(int) const". */
static void base_ident(const char *name, char *buf, size_t len)
{
    const char *end = strchr(name, '('), *p = name;

    end = end ? end : name + strlen(name);
    for (const char *q = name; q + 1 < end; q++)
        if (q[0] == ':' && q[1] == ':')
            p = q + 2;
    size_t n = (size_t)(end - p) < len ? (size_t)(end - p) : len - 1;
    memcpy(buf, p, n);
    buf[n] = 0;
}

/* 1 if host call x's function only passes on the answer of a function
 * inlined into it (its source's every return is a call of it, one of
 * in[]: ttf_sym_inlined_in's list); that function's name in *callee. */
static int passes_on(ectx *e, const ttdi_xcall *x, const ttf_inlined *in, size_t k,
                     const char **callee)
{
    const ttf_inline_frame *fr = NULL;
    size_t nf = 0;
    char name[128], id[128];

    if (ttf_sym_inline(e->in->r[TTD_BAD].norm.sym, x->addr, x->time_ns, &fr, &nf) != 0 || !nf)
        return 0;
    const ttf_inline_frame *o = &fr[nf - 1];
    if (!o->decl_file || o->decl_line <= 0 || ttf_system_file(o->decl_file) ||
        ttf_source_passes_on(o->decl_file, o->decl_line, name, sizeof name) != 1)
        return 0;
    for (size_t j = 0; j < k; j++) {
        if (!in[j].function || in[j].depth != 1)
            continue;
        base_ident(in[j].function, id, sizeof id);
        if (strcmp(id, name) == 0) {
            *callee = in[j].function;
            return 1;
        }
    }
    return 0;
}

/* The functions the compiler inlined into the chain's origin whose answer
 * flipped with the same inputs and calls (they have no ENTER of their own
 * in values mode): suspects below it, deepest first, at most INLINED_MAX,
 * each weighing half the origin's score. When the origin's source only
 * returns the answer of a function inlined into it (a wrapper: passes_on),
 * its own code decided nothing: that function and those inlined deeper
 * weigh the origin's whole score, deepest first, and the origin loses its
 * error evidence (the failure starts in the code inlined into it). */
static int inlined_suspects(ectx *e, ttd_suspect *s, size_t *n)
{
    int i = flipped_origin(&e->ch);
    ttf_inlined in[TTF_INLINED_MAX];
    size_t k = 0;
    const char *callee = NULL;

    if (i < 0)
        return 0;
    const ttdi_xcall *x = &e->ch.from[i]->rp.c[e->ch.node[i]];
    ttd_suspect *h = find_sus(s, *n, e->ch.step[i].function);
    if (!h || h->score <= 0)
        return 0;
    int rc = ttf_sym_inlined_in(e->in->r[TTD_BAD].norm.sym, x->addr, x->time_ns, in,
                                TTF_INLINED_MAX, &k);
    if (rc)
        return rc == TT_ENOMEM ? rc : 0;
    int wrapper = passes_on(e, x, in, k, &callee);
    double score = h->score;
    const char *host = h->name;
    for (size_t j = 0, m = 0; j < k && m < INLINED_MAX && rc >= 0; j++) {
        if (!in[j].function || strcmp(in[j].function, host) == 0)
            continue;
        int inside = wrapper && (in[j].depth > 1 || strcmp(in[j].function, callee) == 0);
        ttd_suspect *f = inlined_suspect(s, n, h, &in[j]);
        if (inside)
            rc = ttdi_evid_add(e->in->arena, f, TTD_EV_INLINED, score, "inlined into `%s`, "
                               "whose source only returns `%s`'s answer, which flipped with "
                               "the same inputs: the decision is in this code", host, callee);
        else
            rc = ttdi_evid_add(e->in->arena, f, TTD_EV_INLINED, score * TTDI_W_INLINED_SHARE,
                               "inlined into `%s`, whose answer flipped with the same inputs: "
                               "its code ran inside it", host);
        m++;
    }
    if (rc >= 0 && wrapper)
        rc = ttdi_evid_drop(e->in->arena, find_sus(s, *n, host), TTD_EV_ERROR);
    return rc;
}

/* ---- the frame that decided on an ordinary value ---------------------------------- */

/* Is chain step i a return of an ordinary number: an integer that reads
 * as no failure in either run (not negative for a signed type, not an
 * error code, not a yes/no answer, no class of value the other run's
 * calls never gave)? */
static int ordinary_return(const xchain *c, size_t i)
{
    const ttdi_xcall *x = c->from[i] && c->node[i] > 0 ? &c->from[i]->rp.c[c->node[i]] : NULL;

    if (!x || !x->sig || c->step[i].kind != TTD_CAUSE_RETURNED)
        return 0;
    const ttf_vtype *ty = &x->sig->ret;
    if (ty->cls != TTF_VC_SIGNED && ty->cls != TTF_VC_UNSIGNED)
        return 0;
    return !ret_flips(c->from[i], x) && ttdi_value_error(ty, x->ret[0]) != 1 &&
           ttdi_value_error(ty, x->ret[1]) != 1;
}

/* Error origin at the split (issue 33 item 2): the chain is one value
 * passed up as is to the frame that split, in the split's thread: an
 * ordinary number (a checksum, a length) that a call computed from what
 * it read (its arguments and callees the same: data that differs), with
 * no failure anywhere on the way and no changed code on the chain. That
 * call only produced a value; the frame turned it into the failure (its
 * calls part on it): the decision is the frame's, which ranks above the
 * producer. 1 if so. */
static int frame_decides(const ectx *e, const ttd_divergence *dv)
{
    const xchain *c = &e->ch;

    if (c->n < 2 || c->origin || c->step[0].kind != TTD_CAUSE_SPLIT || !dv->nstack ||
        c->step[0].pair != dv->pair || e->decided)
        return 0;
    for (size_t i = 1; i < c->n; i++)
        if (c->step[i].pair != dv->pair || !ordinary_return(c, i) || (i > 1 && !c->step[i].strong) ||
            changed(e, c->step[i].function))
            return 0;
    return 1;   /* the earliest step is a return: its arguments and callees
                   gave nothing that differs (explain_call) */
}

/* The frame_decides evidence: the split's frame is where the failure
 * starts (weighing the error and the chain's origin both, above the
 * producer, which keeps its value and chain evidence). */
static int decider_evidence(ectx *e, const ttd_divergence *dv, ttd_suspect *s, size_t *n)
{
    const ttd_cause *v = &e->ch.step[1];
    ttd_suspect *f = suspect_of(e, dv, s, n, dv->stack[dv->nstack - 1].name, dv->pair, NULL);

    return ttdi_evid_add(e->in->arena, f, TTD_EV_ERROR, TTDI_W_ERROR + TTDI_W_CHAIN_ORIGIN,
                         "the failure starts here: its calls part on an ordinary value, "
                         "`%s` returned %s in the bad run, %s in the good run, computed from "
                         "data that differs with no failure before", v->function,
                         v->bad_value, v->good_value);
}

/* Weigh the first divergence's suspects again with the chain's evidence. */
static int rank_suspects(ectx *e, const ttd_divergence *dv)
{
    size_t n = 0, want = e->in->o->suspects;
    int rc = 0;

    if (!want || !dv->suspects)
        return 0;
    while (dv->suspects[n].name)
        n++;
    size_t cap = n + e->ch.n + dv->nstack + 2 + INLINED_MAX;
    ttd_suspect *s = ttfi_arena_zalloc(e->in->arena, (cap + 1) * sizeof *s);
    if (!s)
        return TT_ENOMEM;
    memcpy(s, dv->suspects, n * sizeof *s);
    e->frame_decides = frame_decides(e, dv);
    for (size_t i = 0; i < e->ch.n && rc >= 0; i++)
        rc = step_evidence(e, dv, s, &n, i);
    if (rc >= 0 && e->frame_decides)
        rc = decider_evidence(e, dv, s, &n);
    if (rc >= 0 && e->ch.origin) {
        ttd_suspect *f = suspect_of(e, dv, s, &n, e->ch.origin, e->ch.origin_pair, NULL);
        rc = ttdi_evid_add(e->in->arena, f, TTD_EV_ARG_ORIGIN, TTDI_W_ARG_ORIGIN, "%s",
                           e->ch.end ? e->ch.end : "computed the differing argument");
        if (rc >= 0)
            rc = ttdi_evid_add(e->in->arena, f, TTD_EV_CHAIN,
                               TTDI_W_CHAIN + TTDI_W_CHAIN_ORIGIN, "the earliest cause on "
                               "the cause chain: it computed the value the chain starts with");
    }
    if (rc >= 0)
        rc = code_evidence(e, dv, s, &n);
    if (rc >= 0)
        rc = inlined_suspects(e, s, &n);
    if (rc < 0)
        return rc;
    if (ttdi_suspects_rank(e->in->arena, s, n) < 0)
        return TT_ENOMEM;
    e->out->suspects = s;
    e->out->nsuspects = n < want ? n : want;
    return 0;
}

/* ---- the headline ------------------------------------------------------------ */

#define VSTACK_MAX 256 /* frames kept in a value difference's stack */

/* The bad run's arguments of call x as text, NULL when not recorded. */
static const char *call_args(ectx *e, const ttdi_xcall *x)
{
    ttf_event ev;
    char v[512];

    if (!x->values)
        return NULL;
    memset(&ev, 0, sizeof ev);
    ev.kind = TTF_EV_ENTER;
    ev.addr = x->addr;
    ev.time_ns = x->time_ns;
    ev.has_values = 1;
    memcpy(ev.argregs, x->args[1], sizeof ev.argregs);
    ev.strs = x->strs[1];
    ev.strs_len = x->strs_len[1];
    if (!ttdi_values_text(&e->in->r[TTD_BAD].norm, &ev, v, sizeof v))
        return NULL;
    return ttfi_arena_strcpy(e->in->arena, v);
}

/* v's caller and stack: the calls enclosing node x in xp's replay (its
 * parents up to the root node 0), outermost first; at most VSTACK_MAX,
 * the innermost kept. 0 or TT_ENOMEM. */
static int value_stack(ectx *e, const xpair *xp, const ttdi_xcall *x, ttd_value_diff *v)
{
    const ttdi_xcall *c = xp->rp.c;
    size_t n = 0;

    for (int32_t i = x->parent; i > 0 && n < VSTACK_MAX; i = c[i].parent)
        n++;
    ttd_frame *fr = ttfi_arena_zalloc(e->in->arena, (n + 1) * sizeof *fr);
    if (!fr)
        return TT_ENOMEM;
    size_t k = n;
    for (int32_t i = x->parent; i > 0 && k > 0; i = c[i].parent) {
        ttd_frame *f = &fr[--k];
        f->name = fname(e, xp, &c[i]);
        ttdi_norm_locate(&e->in->r[TTD_BAD].norm, c[i].addr, 0, c[i].time_ns,
                         &f->file, &f->line);
        f->args = call_args(e, &c[i]);
        f->code_changed = e->cd && f->name && ttdi_codediff_changed(e->cd, f->name) == 1;
    }
    v->stack = fr;
    v->nstack = n;
    v->caller = n ? fr[n - 1].name : NULL;
    return 0;
}

/* Value difference out of node x of xp: its return (arg < 0) or argument. */
static int value_of(ectx *e, const xpair *xp, const ttdi_xcall *x, int arg, ttd_value_diff *v)
{
    const ttf_param *p = arg >= 0 ? param(x, arg) : NULL;
    const ttf_vtype *ty = p ? &p->type : &x->sig->ret;

    memset(v, 0, sizeof *v);
    v->pair = xp->pair;
    v->what = p ? TTD_VAL_ARG : TTD_VAL_RETURN;
    v->arg = p ? arg : 0;
    v->function = fname(e, xp, x);
    v->param = p && p->name ? p->name : "";
    v->type = ty->name ? ty->name : "";
    v->cls = ty->cls;
    v->good_raw = p ? argreg(x, 0, arg) : x->ret[0];
    v->bad_raw = p ? argreg(x, 1, arg) : x->ret[1];
    ttf_string st[2];
    v->is_string = p && xstrings(x, arg, st);
    v->good_value = p ? argtext(e, x, TTD_GOOD, arg) : rettext(e, x, TTD_GOOD);
    v->bad_value = p ? argtext(e, x, TTD_BAD, arg) : rettext(e, x, TTD_BAD);
    v->good_is_code = ttf_value_errcode(v->good_raw, ty, &v->good_code);
    v->bad_is_code = ttf_value_errcode(v->bad_raw, ty, &v->bad_code);
    v->good_index = p ? x->enter[0] : x->gexit_idx;
    v->bad_index = p ? x->enter[1] : x->exit_idx;
    v->good_time_ns = p ? x->gtime_ns : x->gexit_ns;
    v->bad_time_ns = p ? x->time_ns : x->exit_ns;
    ttdi_norm_locate(&e->in->r[TTD_BAD].norm, x->addr, 0, x->time_ns,
                     &v->file, &v->line);
    if (!v->good_value || !v->bad_value)
        return TT_ENOMEM;
    return value_stack(e, xp, x, v);
}

/* One differing value found by a replay. */
typedef struct vref {
    const xpair *xp;
    int32_t node;
    int arg;                    /* -1: the return value */
    uint64_t t;                 /* bad-run time */
} vref;

static int vref_cmp(const void *x, const void *y)
{
    const vref *a = x, *b = y;
    return a->t < b->t ? -1 : a->t > b->t;
}

static int on_chain(const ectx *e, const vref *r)
{
    for (size_t i = 0; i < e->ch.n; i++)
        if (e->ch.from[i] == r->xp && e->ch.node[i] == r->node &&
            (e->ch.step[i].kind == TTD_CAUSE_RETURNED ? -1 : e->ch.step[i].arg) == r->arg)
            return 1;
    return 0;
}

/* A growing list of value differences. */
typedef struct vrefs {
    vref *v;
    size_t n, cap;
} vrefs;

/* The real differences of node i of xp into l. 0 or TT_ENOMEM. */
static int node_refs(const xpair *xp, size_t i, vrefs *l)
{
    const ttdi_xcall *x = &xp->rp.c[i];

    for (int k = -1; k < TTDI_MAXP; k++) {
        if (k < 0 ? !real_ret(xp, x) : !(x->argdiff & (1u << k)))
            continue;
        if (l->n == l->cap &&
            ttdi_grow(&l->v, &l->cap, l->n + 1, sizeof *l->v, 64) < 0)
            return TT_ENOMEM;
        l->v[l->n++] = (vref){xp, (int32_t)i, k, k < 0 ? x->exit_ns : x->time_ns};
    }
    return 0;
}

/* Every real value difference of the replays, earliest first, into l.
 * 0 or TT_ENOMEM. */
static int collect(ectx *e, vrefs *l)
{
    int rc = 0;

    for (size_t p = 0; p < e->in->s->nip && rc >= 0; p++)
        for (size_t i = 1; e->xp[p].done && i < e->xp[p].rp.n && rc >= 0; i++)
            rc = node_refs(&e->xp[p], i, l);
    if (rc >= 0 && l->n)
        qsort(l->v, l->n, sizeof *l->v, vref_cmp);
    return rc;
}

/* With --thread, --function or --exclude only part of the calls are
 * compared: another end alone is then no divergence. */
int ttdi_ended_differently(const ttd_outcome *o, const ttd_options *opt)
{
    return o->differs && o->same_calls && !opt->thread && !opt->function && !opt->exclude;
}

static int ended_differently(const ectx *e)
{
    return ttdi_ended_differently(e->x->outcome, e->in->o);
}

/* value_first: the chain's earliest value step, else (no chain value) the
 * earliest real difference; value_others: the rest not on the chain. */
static int headline(ectx *e)
{
    const ttdi_in *in = e->in;
    ttd_value_diff *first = NULL;
    int rc = 0;

    for (size_t i = e->ch.n; i-- > 0 && !first;) {
        const ttd_cause *s = &e->ch.step[i];
        if ((s->kind != TTD_CAUSE_RETURNED && s->kind != TTD_CAUSE_ARGUMENT) ||
            e->ch.node[i] < 0)
            continue;   /* (a value no input decides is no value divergence) */
        if (!(first = ttfi_arena_alloc(in->arena, sizeof *first)))
            return TT_ENOMEM;
        if ((rc = value_of(e, e->ch.from[i], &e->ch.from[i]->rp.c[e->ch.node[i]],
                           s->kind == TTD_CAUSE_RETURNED ? -1 : s->arg, first)) < 0)
            return rc;
        first->before_split = 1;
    }
    vrefs l = {NULL, 0, 0};
    ttd_value_diff *others = ttfi_arena_zalloc(in->arena, (OTHERS_MAX + 1) * sizeof *others);
    if (!others || collect(e, &l) < 0) {
        free(l.v);
        return TT_ENOMEM;
    }
    size_t no = 0;
    for (size_t i = 0; i < l.n && no < OTHERS_MAX && rc >= 0; i++) {
        if (on_chain(e, &l.v[i]))
            continue;
        const ttdi_xcall *x = &l.v[i].xp->rp.c[l.v[i].node];
        if (first) {
            rc = value_of(e, l.v[i].xp, x, l.v[i].arg, &others[no++]);
            continue;
        }
        if (!(first = ttfi_arena_alloc(in->arena, sizeof *first)))
            rc = TT_ENOMEM;
        else if ((rc = value_of(e, l.v[i].xp, x, l.v[i].arg, first)) >= 0)
            first->before_split = !e->x->first && !ended_differently(e);
    }
    free(l.v);
    if (rc < 0)
        return rc;
    e->out->headline = 1;
    e->out->value_first = first;
    e->out->value_others = others;
    e->out->nvalue_others = no;
    return rc;
}

/* With no split, every pair whose values differ is replayed whole. */
static int replay_all(ectx *e)
{
    int rc = 0;

    for (size_t i = 0; i < e->in->s->nip && rc >= 0; i++)
        if (e->in->s->ip[i].vf.found)
            rc = replay(e, i, UINT64_MAX, UINT64_MAX);
    return rc;
}

static void finish(ectx *e)
{
    for (size_t i = 0; e->xp && i < e->in->s->nip; i++) {
        if (!e->xp[i].done)
            continue;
        const ttdi_replay *rp = &e->xp[i].rp;
        e->out->values_ignored += rp->ignored;
        for (size_t k = 1; k < rp->n; k++)
            e->out->values_ignored += rp->c[k].retdiff && rp->c[k].retnoise != TTDI_NOISE_TIMEOUT &&
                                      rp->c[k].retnoise != TTDI_NOISE_DEADLINE &&
                                      rp->c[k].retnoise != TTDI_NOISE_ROUNDED &&
                                      ttdi_replay_retnoise(rp, &rp->c[k]);
        e->out->values_timeout += rp->timeouts;
        if (rp->tmo_text[0] && !e->out->timeout_text)
            e->out->timeout_text = ttfi_arena_strcpy(e->in->arena, rp->tmo_text);
        e->out->values_deadline += rp->deadlines;
        if (rp->dl_text[0] && !e->out->deadline_text)
            e->out->deadline_text = ttfi_arena_strcpy(e->in->arena, rp->dl_text);
        e->out->values_rounded += rp->rounded;
        if (rp->rnd_text[0] && !e->out->rounded_text)
            e->out->rounded_text = ttfi_arena_strcpy(e->in->arena, rp->rnd_text);
        e->out->values_swapped += rp->swaps;
        if (rp->swap_text[0] && !e->out->swap_text)
            e->out->swap_text = ttfi_arena_strcpy(e->in->arena, rp->swap_text);
        ttdi_replay_free(&e->xp[i].rp);
    }
    /* on the path to the divergence: not "not taken as causes" */
    e->out->values_ignored -= e->decided_values < e->out->values_ignored
                              ? e->decided_values : e->out->values_ignored;
    free(e->xp);
}

static int explain_all(ectx *e)
{
    const ttdi_in *in = e->in;
    const ttd_divergence *dv = e->x->first;
    int rc = 0;

    if (dv)
        rc = chain_split(e, dv);
    else if (ended_differently(e))
        rc = chain_exit(e);
    if (rc >= 0 && e->ch.n)
        rc = publish_chain(e);
    if (rc < 0)
        return rc;
    int vals = in->values && !e->x->values_progress; /* order.c: not causes */
    if (vals && !dv && (rc = replay_all(e)) < 0)
        return rc;
    if (vals && (rc = headline(e)) < 0)
        return rc;
    if (dv && (rc = rank_suspects(e, dv)) < 0)
        return rc;
    return 0;
}

int ttdi_explain(const ttdi_in *in, const ttdi_explain_in *x, ttdi_explained *out)
{
    ectx e;
    int rc;

    memset(&e, 0, sizeof e);
    memset(out, 0, sizeof *out);
    e.in = in;
    e.x = x;
    e.out = out;
    if (!(e.xp = calloc(in->s->nip + 1, sizeof *e.xp)))
        return TT_ENOMEM;
    e.cd = in->cd;           /* empty when the build-ids match */
    rc = explain_all(&e);
    finish(&e);
    return rc;
}
