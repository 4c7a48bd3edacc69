/*
 * swaps.c - two calls of one function that ran in the other order, the
 * order set by a difference already hidden as timing: nondeterministic,
 * not a cause. Stage 3 explain of diff/STAGES (its header: explain.h).
 *
 * Design. An event loop closes its handles in the order they were queued,
 * and the queue's order follows when each close was asked for: libuv's
 * uv__finish_close(&watchdog) then uv__finish_close(&later) in one run,
 * the other way round in the next, because one run found the worker's
 * completion one poll turn later (a retry timing.c already hid). The
 * aligner matches the two calls in step, by their function, so each shows
 * as a differing argument. The proof is read from the replay, never from
 * names; two nodes x and y of one thread pair (the replay is per pair)
 * are the same two calls swapped when
 * - they are calls of one function (call site aside) made by one caller
 *   (sibling nodes), both compared in step with values in both runs;
 * - every argument that differs in either of them is the same across
 *   (x's good value is y's bad value, y's good value x's bad value, as the
 *   diff compares values: ttdi_value_differs), and so is every argument
 *   that does not, and the return values when both returned: the same
 *   two calls, each whole, in the other order;
 * - a hunk hidden as timing (TTD_TIMING_*) lies between them on one side
 *   (after the first of the two ENTERs, ending at or before the second),
 *   or ends right at the first of them (no matched event in between): the
 *   order followed how the threads were timed.
 * A swap with no timing hunk there, argument sets that differ (f(1), f(2)
 * against f(2), f(3)), calls of two functions or of two callers, three
 * calls that rotate: a divergence, as before. The hidden values are
 * counted apart (ttdi_replay.swaps) with the first pair's evidence, for
 * the verdict's "not counted as a divergence because the calls ran in the
 * other order".
 * Cost: the differing nodes, pairwise (at most SWAP_NODES of them).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "explain.h"

#define SWAP_NODES 256          /* differing nodes judged per pair, at most */

/* x's value in run rx against y's in run ry, as the diff compares: the
 * same (1) or not (0). k: parameter index, -1 the return value. */
static int same_across(ttdi_replay *rp, const ttdi_xcall *x, int rx, const ttdi_xcall *y,
                       int ry, int k)
{
    const ttf_vtype *ty = k < 0 ? &x->sig->ret : &x->sig->params[k].type;
    int reg = k < 0 ? 0 : x->sig->params[k].reg;
    uint64_t a = k < 0 ? x->ret[rx] : x->args[rx][reg];
    uint64_t b = k < 0 ? y->ret[ry] : y->args[ry][reg];
    uint64_t an = rx ? x->time_ns : x->gtime_ns, bn = ry ? y->time_ns : y->gtime_ns;

    return !ttdi_value_differs(rp->norm[rx], rp->norm[ry], ty, a, b, an, bn);
}

/* Are x and y the same two calls, swapped (their values)? */
static int swapped(ttdi_replay *rp, const ttdi_xcall *x, const ttdi_xcall *y)
{
    const ttf_signature *s = x->sig;
    uint16_t noisy = x->argnoisy & y->argnoisy;

    if (!s || y->sig != s || !x->values || !y->values || x->parent != y->parent ||
        ((x->key ^ y->key) & ~(uint64_t)TTDI_SITE_MASK) || !x->argdiff || !y->argdiff)
        return 0;
    for (size_t k = 0; k < s->nparams && k < TTDI_MAXP; k++) {
        if (s->params[k].reg < 0 || !ttf_value_comparable(&s->params[k].type) ||
            (noisy >> k & 1))
            continue;   /* not compared, or noise in both already */
        if (!same_across(rp, x, 0, y, 1, (int)k) || !same_across(rp, y, 0, x, 1, (int)k))
            return 0;
    }
    if (!x->returned || !y->returned || !ttf_value_comparable(&s->ret))
        return 1;
    return same_across(rp, x, 0, y, 1, -1) && same_across(rp, y, 0, x, 1, -1);
}

/* Does a hunk hidden as timing lie between key indexes lo < hi of side s
 * (after lo, ending by hi), or end right at lo? Its index, else -1. */
static long timing_between(const ttdi_replay *rp, int s, uint64_t lo, uint64_t hi)
{
    for (size_t i = 0; rp->tim && i < rp->nh; i++) {
        uint64_t h0 = s ? rp->h[i].b0 : rp->h[i].a0, h1 = s ? rp->h[i].b1 : rp->h[i].a1;
        if (!rp->tim[i] || h0 == h1)
            continue;
        if ((h0 > lo && h1 <= hi) || h1 == lo)
            return (long)i;
    }
    return -1;
}

/* The hunk that set x and y's order (x first in both runs' replay
 * order), on which side into *side; -1 if none. */
static long order_set(const ttdi_replay *rp, const ttdi_xcall *x, const ttdi_xcall *y, int *side)
{
    for (int s = 0; s < 2; s++) {
        uint64_t a = x->enter[s], b = y->enter[s];
        long h = timing_between(rp, s, a < b ? a : b, a < b ? b : a);
        if (h >= 0) {
            *side = s;
            return h;
        }
    }
    return -1;
}

/* The first differing argument of x as text, run r, into buf. */
static void arg_text(ttdi_replay *rp, const ttdi_xcall *x, int r, char *buf, size_t len)
{
    for (size_t k = 0; k < x->sig->nparams && k < TTDI_MAXP; k++) {
        if (!(x->argdiff >> k & 1))
            continue;
        const ttf_param *p = &x->sig->params[k];
        ttdi_value_text(rp->norm[r], x->args[r][p->reg], &p->type,
                        r ? x->time_ns : x->gtime_ns, buf, len);
        return;
    }
    snprintf(buf, len, "?");
}

/* The evidence of the first swap hidden (x first), its timing hunk h on
 * side s. */
static void evidence(ttdi_replay *rp, const ttdi_xcall *x, const ttdi_xcall *y, size_t h, int s)
{
    const char *f = ttdi_norm_func_at(rp->norm[1], x->addr, 0, x->time_ns);
    uint64_t h0 = s ? rp->h[h].b0 : rp->h[h].a0, h1 = s ? rp->h[h].b1 : rp->h[h].a1;
    char a[64], b[64];

    arg_text(rp, x, 0, a, sizeof a);
    arg_text(rp, y, 0, b, sizeof b);
    snprintf(rp->swap_text, sizeof rp->swap_text,
             "`%s` was called with %s, then with %s, in the good run, the other way round in "
             "the bad run; the %s run's %" PRIu64 " events %s them are hidden as timing",
             f ? f : "?", a, b, s ? "bad" : "good", h1 - h0,
             h1 == (x->enter[s] < y->enter[s] ? x->enter[s] : y->enter[s]) ? "right before"
                                                                             : "between");
}

/* Hide x's differing arguments as a swap. */
static void hide(ttdi_replay *rp, ttdi_xcall *x)
{
    for (size_t k = 0; k < TTDI_MAXP; k++) {
        if (!(x->argdiff >> k & 1))
            continue;
        rp->swaps++;
        if (!x->argnoisy)
            x->argwhy = TTDI_NOISE_SWAP;
        x->argnoisy |= (uint16_t)(1u << k);
    }
    x->argdiff = 0;
}

int ttdi_replay_swaps(ttdi_replay *rp)
{
    size_t n = 0;

    for (size_t i = 1; i < rp->n; i++)
        n += rp->c[i].argdiff != 0;
    if (!rp->tim || n < 2 || n > SWAP_NODES)
        return 0;
    for (size_t i = 1; i < rp->n; i++) {
        for (size_t j = i + 1; rp->c[i].argdiff && j < rp->n; j++) {
            ttdi_xcall *x = &rp->c[i], *y = &rp->c[j];
            int side = 0;
            long h = swapped(rp, x, y) ? order_set(rp, x, y, &side) : -1;
            if (h < 0)
                continue;
            if (!rp->swap_text[0])
                evidence(rp, x, y, (size_t)h, side);
            hide(rp, x);
            hide(rp, y);
        }
    }
    return 0;
}
