/*
 * fnoise.c - noise by function: the calls that vary between good runs,
 * wherever they vary. A poll loop runs a different number of times at
 * different places in every run, so the zones of variation (seq.c) of one
 * pair of good runs never cover those of another; its calls, though, are
 * always the same few, made by the same callers.
 * Stage 1 align of diff/STAGES (its header: align.h).
 *
 * Design. An event's context is what the aligner matched it by: with the
 * tree aligner its key and the ENTER key of the call it happens in (its
 * caller, for an ENTER or EXIT; 0 at a thread's top level), with --flat
 * its key alone (the flat alignment pairs a call with any call of the same
 * function, whoever made it). The contexts of every good-vs-baseline hunk,
 * on both sides, form the set of what varies. In a good-vs-bad hunk an
 * event is noise when its context is in that set, or when it was only
 * displaced: the pair's hunks hold its context as often on the good side
 * as on the bad (a poll loop that ran longer made the aligner match a
 * neighbouring call elsewhere; the runs made the same such calls). A hunk
 * is expected when all its events are noise and one at least varies; a
 * hunk that only starts so is split there (pair_align.c), so the first
 * divergence begins at the first event no good run explains. A real bug
 * stays a divergence when it adds, drops or replaces a call that never
 * varied between good runs (or a varying one in another caller, with the
 * tree aligner); it hides only as more or fewer of the calls the good runs
 * already vary in, or as calls reordered right beside such noise.
 * Contexts come from one more pass over each thread up to its last hunk
 * (raw key indexes: both aligners are served alike), with the call stack
 * kept as the tree builder keeps it (tree.c): an EXIT closes the innermost
 * open call it matches. The hunks' contexts are held in memory (8 bytes
 * per hunk event and side).
 */
#include <stdlib.h>
#include <string.h>

#include "align.h"

/* One walk over a thread with its call stack of ENTER keys. */
typedef struct cwalk {
    ttdi_walk wk;           /* its events (a keyed walk) */
    uint64_t *st;           /* open calls' ENTER keys, innermost last */
    size_t nst, cap;        /* open, room */
    int by_caller;          /* 1: contexts carry the caller (tree mode) */
} cwalk;

/* A context: key k inside a call entered with key parent. */
static uint64_t context(uint64_t parent, uint64_t k)
{
    return k ^ ttfi_mix64(parent + 0x9E3779B97F4A7C15ull);
}

/* Apply event key k of kind to the stack; *ctx = its context. */
static int cw_apply(cwalk *w, uint64_t k, int kind, uint64_t *ctx)
{
    size_t f = w->nst;

    if (!w->by_caller) {
        *ctx = k;
        return 0;
    }
    if (kind == TTF_EV_EXIT)
        while (f > 0 && ttdi_norm_exit_of(w->st[f - 1]) != k)
            f--;
    if (kind == TTF_EV_EXIT && f > 0)
        w->nst = f - 1; /* it closes that call and those above it */
    *ctx = context(w->nst ? w->st[w->nst - 1] : 0, k);
    if (kind != TTF_EV_ENTER)
        return 0;
    if (w->nst == w->cap &&
        ttdi_grow(&w->st, &w->cap, w->nst + 1, sizeof *w->st, 64) < 0)
        return TT_ENOMEM;
    w->st[w->nst++] = k;
    return 0;
}

/* The next kept event's context: 1, 0 at the end, or a TT_E* code. */
static int cw_next(cwalk *w, uint64_t *ctx)
{
    int rc = ttdi_walk_next_key(&w->wk);

    if (rc <= 0)
        return rc;
    return cw_apply(w, w->wk.key, w->wk.ev.kind, ctx) < 0 ? TT_ENOMEM : 1;
}

/* Events of side s of the hunks h[nh]. */
static size_t side_events(const ttdi_hunk *h, size_t nh, int s)
{
    size_t n = 0;

    for (size_t i = 0; i < nh; i++)
        n += s ? h[i].b1 - h[i].b0 : h[i].a1 - h[i].a0;
    return n;
}

/* The contexts of the events of side s of h[nh], in order, from thread f:
 * *out malloc'd (side_events of them; 0 for an event the thread does not
 * have). 0 or a TT_E* code. */
static int collect(ttdi_fside f, int by_caller, const ttdi_hunk *h, size_t nh,
                   int s, uint64_t **out)
{
    cwalk w = {.by_caller = by_caller};
    uint64_t idx = 0, *c = calloc(side_events(h, nh, s) + 1, sizeof *c);
    size_t i = 0, k = 0;
    int rc = c ? ttdi_walk_keyed(&w.wk, f.norm, f.thread) : TT_ENOMEM;
    rc = rc < 0 ? rc : ttdi_walk_novalues(&w.wk);   /* keys and times only */

    while (rc >= 0 && i < nh) {
        size_t lo = s ? h[i].b0 : h[i].a0, hi = s ? h[i].b1 : h[i].a1;
        if (idx >= hi) {
            i++;
            continue;
        }
        if ((rc = cw_next(&w, &c[k])) <= 0)
            break;
        k += idx++ >= lo;
    }
    ttdi_walk_close(&w.wk);
    free(w.st);
    if (rc < 0)
        free(c);
    *out = rc < 0 ? NULL : c;
    return rc < 0 ? rc : 0;
}

int ttdi_fnoise_learn(ttdi_openset *set, int by_caller, ttdi_fside g, ttdi_fside o,
                      const ttdi_hunk *h, size_t nh)
{
    uint64_t *c = NULL;
    int rc = 0;

    for (int s = 0; s < 2 && rc >= 0; s++) {
        if ((rc = collect(s ? o : g, by_caller, h, nh, s, &c)) < 0)
            break;
        for (size_t k = 0, n = side_events(h, nh, s); k < n && rc >= 0; k++)
            rc = ttdi_openset_add(set, c[k]);
        free(c);
    }
    return rc < 0 ? rc : 0;
}

/* What marking one pair works with. */
typedef struct mark {
    const ttdi_openset *set; /* contexts that vary between good runs */
    uint64_t *c[2];         /* contexts of the hunks' events, per side */
    ttdi_openset cnt[2];    /* per side: the hunks' events by context */
} mark;

/* Is event k of side s noise (*varies set if its context varies)? */
static int noisy(const mark *m, int s, size_t k, int *varies)
{
    uint64_t x = m->c[s][k];

    if (ttdi_openset_count(m->set, x)) {
        *varies = 1;
        return 1;
    }
    return ttdi_openset_count(&m->cnt[0], x) == ttdi_openset_count(&m->cnt[1], x);
}

/* Hunk i (its events from k[0], k[1] on each side): expected if every
 * event is noise and one at least varies; else, if the noisy events that
 * lead it include one that varies, their count on each side in lead[i],
 * lead[nh + i]. */
static void judge(const mark *m, const ttdi_hunk *h, size_t nh, size_t i,
                  const size_t k[2], uint8_t *exp, size_t *lead)
{
    size_t n[2] = {h[i].a1 - h[i].a0, h[i].b1 - h[i].b0};
    int varies = 0, all = 1;

    for (int s = 0; s < 2; s++) {
        size_t j = 0;
        while (j < n[s] && noisy(m, s, k[s] + j, &varies))
            j++;
        lead[s * nh + i] = j;
        all = all && j == n[s];
    }
    if (all && varies)
        exp[i] = 1;
    if (exp[i] || !varies)
        lead[i] = lead[nh + i] = 0;
}

int ttdi_fnoise_mark(const ttdi_openset *set, int by_caller, ttdi_fside g,
                     ttdi_fside b, const ttdi_hunk *h, size_t nh, uint8_t *exp,
                     size_t *lead)
{
    mark m;
    int rc = 0;

    memset(lead, 0, 2 * nh * sizeof *lead);
    if (!set->used || !nh)
        return 0;
    memset(&m, 0, sizeof m);
    m.set = set;
    for (int s = 0; s < 2 && rc >= 0; s++) {
        if ((rc = collect(s ? b : g, by_caller, h, nh, s, &m.c[s])) < 0)
            break;
        for (size_t k = 0, n = side_events(h, nh, s); k < n && rc >= 0; k++)
            rc = ttdi_openset_add(&m.cnt[s], m.c[s][k]);
    }
    for (size_t i = 0, k[2] = {0, 0}; rc >= 0 && i < nh; i++) {
        if (!exp[i])
            judge(&m, h, nh, i, k, exp, lead);
        k[0] += h[i].a1 - h[i].a0;
        k[1] += h[i].b1 - h[i].b0;
    }
    for (int s = 0; s < 2; s++) {
        free(m.c[s]);
        ttdi_openset_free(&m.cnt[s]);
    }
    return rc < 0 ? rc : 0;
}
