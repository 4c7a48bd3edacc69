/*
 * pair_align.c - one thread pair normalised and aligned: in step with the
 * common prefix only compared (the default), or both sides stored whole
 * and checked against the zones where baseline good runs vary (full mode),
 * or as two call trees (tree mode, the default: tree.c, talign.c).
 * What it writes is the pair's script (ttdi_ipair, state.h): the hunks,
 * which of them good runs share, loop counts, differing call values.
 * Once a pair has parted, the next pairs' threads are read by run walks
 * (src_runs), which keep what the thread order would read them again for
 * (their keys from the walks' lock-set tap, ttdi_walk_tapped_key, else
 * through a cache of recent ones, ttdi_norm_key_hot); so is a
 * pair that already looks different (its sketches differ), whose walks
 * also keep the timing scan's prefix state at their marks (timing.c
 * ttdi_tpre_*: the scan of its split thread starts near the split).
 * The keyed walks that read a thread whole from its start (no
 * --first-only; with values, the prefix read in step and its replay's
 * reads too) count its calls as they go (ttdi_walk_count_open), so the
 * count facts read it no more (counts.c).
 * A one-thread values pair likely to part is also read aside, by a run
 * walk of each side without values in a thread of its own, for the marks
 * resolve's pass starts from (aside_start).
 * Stage 1 align of diff/STAGES, on top of that stage (its header: state.h).
 */
#include <stdlib.h>
#include <string.h>

#include "state.h"
#include "tree.h"

/* One thread's key stream while a pair is normalised. */
typedef struct src {
    ttdi_run_state *r;                /* its run */
    ttdi_walk wk;           /* its events (a keyed walk) */
    uint64_t crash;         /* key index of its first CRASH, UINT64_MAX */
    size_t bound;           /* raw events of the thread (>= keys) */
    int kind;               /* kind of the event of the last key */
    ttdi_replay *rp;        /* the prefix replay its reads go to, NULL */
    int side;               /* its side there */
    int run;                /* 1: wk is a run walk (ttdi_walk_open) */
    struct ttdi_tpre *pre;  /* a run walk of a pair that looks different:
                               the timing scan's prefix state, kept at its
                               marks in *snaps (timing.c), NULL */
    struct ttdi_tsnaps **snaps; /* ... (al's, or its own while read in a
                               thread of its own) and its run there */
    int ri;
    ttdi_ccount *cc;        /* a keyed walk read whole from its start: its
                               thread's calls (ttdi_walk_count_open), NULL */
    uint64_t epochs_end;    /* the values in step: its run's last module
                               load or unload (times_off) */
} src;

static int src_open(src *s, ttdi_run_state *r, uint32_t thread)
{
    const ttf_thread *th = ttf_get_thread(r->t, thread);

    s->r = r;
    s->crash = UINT64_MAX;
    s->bound = (size_t)(th ? th->events : 0);
    return ttdi_walk_keyed(&s->wk, &r->norm, thread);
}

/* ttdi_walk_next_key_to of a keyed walk that counts its thread's calls
 * (s->cc): every ENTER read, kept or not, as the calls-only pass of the
 * count facts would (counts.c); told at the end. In line in both callers
 * (feed_counted: the plain tree build's hot loop). */
static inline __attribute__((always_inline)) int counted_next(src *s, uint64_t *key)
{
    int rc;

    while ((rc = ttdi_walk_next(&s->wk)) > 0) {
        if (s->wk.ev.kind == TTF_EV_ENTER && (rc = ttdi_ccount_add(s->cc, &s->wk.ev)) < 0)
            return rc;
        if ((rc = ttdi_walk_take(&s->wk, key)) != 0)
            return rc;
    }
    if (rc == 0)
        ttdi_walk_counted(s->cc);
    return rc;
}

/* The next key: 1, 0 at the end, or a TT_E* code. In line in the reads
 * in step (read_both: a values pair's every event, issue 38). */
static inline __attribute__((always_inline)) int src_next_in(src *s, uint64_t *key)
{
    const ttf_event *ev = &s->wk.ev;
    int rc = s->rp ? ttdi_replay_next(s->rp, s->side, &s->wk, s->cc)
             : s->cc ? counted_next(s, key)
                     : ttdi_walk_next_key_to(&s->wk, key);

    if (rc == 0)
        ttdi_walk_counted(s->cc);
    if (rc <= 0)
        return rc;
    if (s->rp)
        *key = s->wk.key;
    if (ev->kind == TTF_EV_CRASH && s->crash == UINT64_MAX)
        s->crash = s->wk.idx;
    s->kind = ev->kind;
    return 1;
}

static int src_next(src *s, uint64_t *key)
{
    return src_next_in(s, key);
}

/* The rest of s into kb after the m keys already there; *n = keys stored. */
static int drain(src *s, ttdi_keybuf *kb, size_t m, size_t *n)
{
    int rc = ttdi_keybuf_reserve(kb, s->bound - (size_t)s->wk.next + m + 16, m);

    while (rc >= 0) {
        if (m == kb->cap && (rc = ttdi_keybuf_reserve(kb, 2 * m, m)) < 0)
            break;
        if ((rc = src_next(s, &kb->k[m])) <= 0)
            break;
        m++;
    }
    *n = m;
    return rc < 0 ? rc : 0;
}

/* Normalise both threads of a pair in step: the common prefix is only
 * compared, never stored (identical runs cost no key memory at all); from
 * the first difference on, the rest of each side goes to kb. */
static int normalise_pair(ttdi_aligner *al, ttdi_ipair *p, ttdi_keybuf kb[2], size_t *prefix,
                          size_t m[2])
{
    src s[2] = {{0}, {0}};
    uint64_t k[2];
    int got[2] = {0, 0}, rc;

    if ((rc = src_open(&s[0], &al->r[TTD_GOOD], p->t[0])) < 0)
        return rc;
    if ((rc = src_open(&s[1], &al->r[TTD_BAD], p->t[1])) < 0)
        goto out;
    do {
        if ((got[0] = src_next(&s[0], &k[0])) < 0 || (got[1] = src_next(&s[1], &k[1])) < 0) {
            rc = got[0] < 0 ? got[0] : got[1];
            goto out;
        }
    } while (got[0] && got[1] && k[0] == k[1]);
    *prefix = (size_t)s[0].wk.next - (size_t)got[0];
    for (int i = 0; i < 2 && rc >= 0; i++) {
        if ((rc = ttdi_keybuf_reserve(&kb[i], 16, 0)) < 0)
            break;
        kb[i].k[0] = k[i];
        rc = drain(&s[i], &kb[i], (size_t)got[i], &m[i]);
    }
    p->n[0] = s[0].wk.next;
    p->n[1] = s[1].wk.next;
    p->crash = s[1].crash;
out:
    ttdi_walk_close(&s[0].wk);
    ttdi_walk_close(&s[1].wk);
    return rc < 0 ? rc : 0;
}

/* Thread th of run r, whole, into s; *crash = key index of its CRASH. */
static int load_seq(ttdi_run_state *r, uint32_t th, int collapse, ttdi_seq *s,
                    uint64_t *crash)
{
    src in = {0};
    uint64_t key;
    int rc = src_open(&in, r, th);

    if (rc >= 0)
        rc = ttdi_seq_reset(s, collapse, in.bound);
    while (rc >= 0 && (rc = src_next(&in, &key)) > 0)
        rc = ttdi_seq_feed(s, key, in.kind);
    if (crash)
        *crash = in.crash;
    ttdi_walk_close(&in.wk);
    return rc < 0 ? rc : 0;
}

/* ---- a run cut short (disk full) ------------------------------------------ */

/* A thread whose stream was cut (a full disk: the writer could get no
 * chunk) stops where the cut is, not where the program stopped: what the
 * other run did after that point is unknown here, not a divergence. Drop
 * the trailing hunks that only add events of the other side after the cut
 * side's last event (flat or tree hunks alike: the missing calls and the
 * exits of the calls left open). A difference before the cut stays. */
static void drop_cut_tail(const ttdi_aligner *al, ttdi_ipair *p)
{
    const ttf_thread *g = ttf_get_thread(al->r[TTD_GOOD].t, p->t[0]);
    const ttf_thread *b = ttf_get_thread(al->r[TTD_BAD].t, p->t[1]);
    int gcut = g && g->cut, bcut = b && b->cut;

    while (p->nh && (gcut || bcut)) {
        const ttdi_hunk *h = &p->h[p->nh - 1];
        int tail_b = bcut && h->b0 == h->b1 && h->b0 == p->n[1];
        int tail_g = gcut && h->a0 == h->a1 && h->a0 == p->n[0];
        if (!tail_b && !tail_g)
            break;
        p->nh--;
    }
}

/* ---- call values (values.c) --------------------------------------------- */

/* Compare the call values of pair p along its alignment, whichever
 * aligner made it: flat and tree hunks alike are key-index ranges,
 * ascending in both threads, so the walk steps over them the same way.
 * With --first-only only the first hunk is known, so the walk stops
 * where it begins. */
static int pair_values(ttdi_aligner *al, ttdi_ipair *p, ttdi_vstep *vs)
{
    ttdi_vside g = {&al->r[TTD_GOOD].norm, p->t[0], UINT64_MAX};
    ttdi_vside b = {&al->r[TTD_BAD].norm, p->t[1], UINT64_MAX};

    drop_cut_tail(al, p);
    if (!al->values)
        return 0;
    if (al->o->first_only && p->nh)
        b.stop = p->h[0].b0;
    return ttdi_values_compare(g, b, p->h, p->nh, al->nbase ? &al->s->noise : NULL, 0, vs,
                               &p->vf);
}

/* What baseline k varies in against the good run, from their hunks h[nh]
 * (raw key indexes): the contexts of its calls (fnoise.c) and the value
 * slots that differ along the rest (values.c). */
static int baseline_learn(ttdi_aligner *al, const ttdi_ipair *p, size_t k,
                          const ttdi_hunk *h, size_t nh)
{
    ttdi_base *bk = &al->base[k];
    ttdi_vside g = {&al->r[TTD_GOOD].norm, p->t[0], UINT64_MAX};
    ttdi_vside o = {&bk->r.norm, (uint32_t)bk->partner[p->t[0]], UINT64_MAX};
    ttdi_vfound vf;
    ttdi_fside fg = {al->r[TTD_GOOD].t, &al->r[TTD_GOOD].norm, p->t[0]};
    ttdi_fside fo = {bk->r.t, &bk->r.norm, o.thread};
    int rc = ttdi_fnoise_learn(&al->calls, !al->o->flat, fg, fo, h, nh);

    if (rc < 0 || !al->values || !ttf_get_summary(bk->r.t)->values)
        return rc;
    memset(&vf, 0, sizeof vf);
    rc = ttdi_values_compare(g, o, h, nh, &al->s->noise, 1, NULL, &vf);
    ttdi_vfound_free(&vf);
    return rc;
}

/* The same from the item hunks x[nx] of fu->seq. */
static int baseline_items(ttdi_aligner *al, const ttdi_ipair *p, size_t k, ttdi_full *fu,
                          const ttdi_xhunk *x, size_t nx)
{
    ttdi_hunk *h = malloc((nx + 1) * sizeof *h);
    int rc;

    if (!h)
        return TT_ENOMEM;
    for (size_t i = 0; i < nx; i++)
        ttdi_seq_to_raw(&fu->seq[0], &fu->seq[1], &x[i], &h[i]);
    rc = baseline_learn(al, p, k, h, nx);
    free(h);
    return rc;
}

/* ---- noise by function (fnoise.c) ---------------------------------------- */

/* Hunk i of p becomes two: its first la good and lb bad events, expected,
 * then the rest, into h, exp, reps at k (reps NULL: none). */
static size_t split_one(const ttdi_ipair *p, size_t i, size_t la, size_t lb,
                        ttdi_hunk *h, uint8_t *exp, uint64_t *reps, size_t k)
{
    const ttdi_hunk *x = &p->h[i];

    if (la || lb) {
        h[k] = (ttdi_hunk){x->a0, x->a0 + la, x->b0, x->b0 + lb};
        exp[k++] = 1;
    }
    h[k] = (ttdi_hunk){x->a0 + la, x->a1, x->b0 + lb, x->b1};
    exp[k] = p->exp[i];
    if (reps) {
        reps[2 * k] = p->reps[2 * i];
        reps[2 * k + 1] = p->reps[2 * i + 1];
    }
    return k + 1;
}

/* Mark the hunks of p whose events all vary between good runs by function
 * too (fnoise.c), and split one that only starts with such events into
 * that start, expected, and the rest: the first divergence then begins at
 * the first event no good run varies in. Loop count hunks stay whole. */
static int mark_noise(ttdi_aligner *al, ttdi_ipair *p)
{
    size_t nh = p->nh, n = nh, *lead = malloc((2 * nh + 1) * sizeof *lead);
    ttdi_fside fg = {al->r[TTD_GOOD].t, &al->r[TTD_GOOD].norm, p->t[0]};
    ttdi_fside fb = {al->r[TTD_BAD].t, &al->r[TTD_BAD].norm, p->t[1]};
    int rc = lead ? 0 : TT_ENOMEM;

    if (rc == 0)
        rc = ttdi_fnoise_mark(&al->calls, !al->o->flat, fg, fb, p->h, nh, p->exp, lead);
    for (size_t i = 0; rc == 0 && i < nh; i++) {
        if (p->exp[i] || (p->reps && p->reps[2 * i]))
            lead[i] = lead[nh + i] = 0;
        n += lead[i] || lead[nh + i];
    }
    if (rc < 0 || n == nh) {
        free(lead);
        return rc;
    }
    ttdi_hunk *h = malloc((n + 1) * sizeof *h);
    uint8_t *exp = calloc(n + 1, 1);
    uint64_t *reps = p->reps ? calloc(2 * n + 2, sizeof *reps) : NULL;
    if (!h || !exp || (p->reps && !reps)) {
        free(h);
        free(exp);
        free(reps);
        free(lead);
        return TT_ENOMEM;
    }
    for (size_t i = 0, k = 0; i < nh; i++)
        k = split_one(p, i, lead[i], lead[nh + i], h, exp, reps, k);
    free(p->h);
    free(p->exp);
    free(p->reps);
    free(lead);
    p->h = h;
    p->exp = exp;
    p->reps = reps;
    p->nh = n;
    return 0;
}

/* ---- flat mode ----------------------------------------------------------- */

/* The good run's zones of variation against every baseline, for pair p. */
static int pair_zones(ttdi_aligner *al, const ttdi_ipair *p, ttdi_full *fu)
{
    ttdi_xhunk *x = NULL;
    size_t nx = 0;
    int rc = 0;

    ttdi_zones_clear(&fu->z);
    ttdi_openset_clear(&al->calls);
    for (size_t k = 0; rc >= 0 && k < al->nbase; k++) {
        int64_t tk = al->base[k].partner[p->t[0]];
        if (tk < 0)
            continue;
        rc = load_seq(&al->base[k].r, (uint32_t)tk, al->o->collapse_loops, &fu->seq[1], NULL);
        if (rc >= 0)
            rc = ttdi_seq_align(&fu->seq[0], &fu->seq[1], al->o->minimal, &x, &nx);
        if (rc >= 0)
            rc = ttdi_zones_add(&fu->z, &fu->seq[0], &fu->seq[1], x, nx);
        if (rc >= 0)
            rc = baseline_items(al, p, k, fu, x, nx);
        free(x);
        x = NULL;
    }
    return rc < 0 ? rc : ttdi_zones_finish(&fu->z);
}

/* Full mode: both threads stored whole (loops collapsed if asked), hunks
 * checked against the zones where good runs vary. */
int ttdi_align_full(ttdi_aligner *al, ttdi_ipair *p, ttdi_full *fu)
{
    ttdi_xhunk *x = NULL;
    size_t nx = 0;
    int rc = load_seq(&al->r[TTD_GOOD], p->t[0], al->o->collapse_loops, &fu->seq[0], NULL);

    if (rc >= 0)
        rc = pair_zones(al, p, fu);
    if (rc >= 0)
        rc = load_seq(&al->r[TTD_BAD], p->t[1], al->o->collapse_loops, &fu->seq[1], &p->crash);
    if (rc >= 0)
        rc = ttdi_seq_align(&fu->seq[0], &fu->seq[1], al->o->minimal, &x, &nx);
    if (rc < 0)
        return rc;
    p->n[0] = fu->seq[0].raw;
    p->n[1] = fu->seq[1].raw;
    p->h = malloc((nx + 1) * sizeof *p->h);
    p->exp = calloc(nx + 1, 1);
    p->reps = calloc(2 * nx + 2, sizeof *p->reps);
    if (!p->h || !p->exp || !p->reps) {
        free(x);
        return TT_ENOMEM;
    }
    for (size_t i = 0; i < nx; i++) {
        ttdi_seq_to_raw(&fu->seq[0], &fu->seq[1], &x[i], &p->h[i]);
        p->exp[i] = (uint8_t)(al->nbase && ttdi_zones_cover(&fu->z, &fu->seq[0], &fu->seq[1], &x[i]));
        p->reps[2 * i] = x[i].reps[0];
        p->reps[2 * i + 1] = x[i].reps[1];
    }
    p->nh = nx;
    free(x);
    if (p->crash != UINT64_MAX)
        al->r[TTD_BAD].crash_thread = p->t[1];
    if (al->nbase && (rc = mark_noise(al, p)) < 0)
        return rc;
    return pair_values(al, p, NULL);
}

int ttdi_align_pair(ttdi_aligner *al, ttdi_ipair *p, ttdi_keybuf kb[2])
{
    size_t prefix = 0, m[2] = {0, 0};
    int rc = normalise_pair(al, p, kb, &prefix, m);

    if (rc < 0)
        return rc;
    if (p->crash != UINT64_MAX)
        al->r[TTD_BAD].crash_thread = p->t[1];
    rc = ttdi_align(kb[0].k, m[0], kb[1].k, m[1], al->o->minimal, &p->h, &p->nh);
    if (al->o->first_only && p->nh > 1)
        p->nh = 1;
    for (size_t i = 0; rc >= 0 && i < p->nh; i++) {
        p->h[i].a0 += prefix;
        p->h[i].a1 += prefix;
        p->h[i].b0 += prefix;
        p->h[i].b1 += prefix;
    }
    return rc < 0 ? rc : pair_values(al, p, NULL);
}


/* ---- tree mode ----------------------------------------------------------- */

/* src_next of a run walk (src_runs): the next kept event, its key into
 * *key (the keyed walk's events and keys: the same normaliser's,
 * ttdi_norm_kept answering as ttdi_norm_key does), through hot (a cache
 * of recent keys: ttdi_norm_key_hot, as the timing scan's), or from the
 * walk's lock-set tap when it found it (ttdi_walk_tapped_key). */
static int src_run_next(src *s, ttdi_keyhot *hot, uint64_t *key)
{
    int rc;

    while ((rc = ttdi_walk_next(&s->wk)) > 0)
        if (s->wk.kept && (ttdi_walk_tapped_key(&s->wk, key) ||
                           (rc = ttdi_norm_key_hot(&s->r->norm, hot, &s->wk.ev, key)) != 0))
            break;
    if (rc <= 0)
        return rc;
    if (s->wk.ev.kind == TTF_EV_CRASH && s->crash == UINT64_MAX)
        s->crash = s->wk.idx;
    s->kind = s->wk.ev.kind;
    return 1;
}

/* feed_rest of a run walk (src_runs: whole, no stop). */
static __attribute__((noinline)) int feed_run(src *s, ttdi_tree *t)
{
    uint64_t key;
    ttdi_keyhot *hot = calloc(TTDI_KEYHOT, sizeof *hot);
    int rc = hot ? 0 : TT_ENOMEM;

    while (hot && (rc = src_run_next(s, hot, &key)) > 0) {
        if ((rc = ttdi_tree_feed(t, key, s->kind)) < 0)
            break;
        if (!s->pre)
            continue;
        ttdi_tpre_kept(s->pre, &s->wk.ev, key);
        if (s->wk.left == s->wk.idx + 1 &&
            (rc = ttdi_tpre_save(s->snaps, s->ri, s->wk.thread, s->wk.idx, s->pre)) < 0)
            break;
    }
    free(hot);
    return rc < 0 ? rc : 0;
}

/* feed_rest of a keyed walk that counts its thread's calls (s->cc: read
 * whole, no stop): src_next through counted_next. */
static __attribute__((noinline)) int feed_counted(src *s, ttdi_tree *t)
{
    uint64_t key;
    int rc;

    while ((rc = counted_next(s, &key)) > 0) {
        if (s->wk.ev.kind == TTF_EV_CRASH && s->crash == UINT64_MAX)
            s->crash = s->wk.idx;
        s->kind = s->wk.ev.kind;
        if ((rc = ttdi_tree_feed(t, key, s->kind)) < 0)
            break;
    }
    return rc < 0 ? rc : 0;
}

/* Feed the rest of s into t; with stop > 0, only until the open call at
 * stack position stop - 1 has ended. */
static int feed_rest(src *s, ttdi_tree *t, size_t stop)
{
    uint64_t key;
    int rc = 0;

    if (s->run)
        return feed_run(s, t);
    if (s->cc && !s->rp && !stop)
        return (rc = ttdi_walk_notimes(&s->wk)) < 0 ? rc : feed_counted(s, t);
    if (!s->rp && (rc = ttdi_walk_notimes(&s->wk)) < 0)
        return rc;              /* a keyed walk: its keys only from here */
    while ((!stop || ttdi_tree_depth(t) >= stop) && (rc = src_next(s, &key)) > 0)
        if ((rc = ttdi_tree_feed(t, key, s->kind)) < 0)
            break;
    return rc < 0 ? rc : 0;
}

/* The keys k of both sides s read in step: with vs, the values of the
 * pair compared (same keys) or, at the first difference, the walks kept
 * there (values.c). 0 or a TT_E* code. */
static int step_values(src s[2], const uint64_t k[2], const int got[2], ttdi_vstep *vs)
{
    if (!vs)
        return 0;
    s[0].wk.key = k[0];
    s[1].wk.key = k[1];
    if (got[0] && got[1] && k[0] == k[1])
        return ttdi_values_step(&s[0].wk, &s[1].wk, vs);
    return ttdi_values_hold(&s[0].wk, &s[1].wk, got[0], got[1], vs);
}

/* With vs, where the threads' lengths differ (the pair will part, and the
 * explain stage replay it), the reads of the prefix in step feed its
 * replay too (replay.c): *pre, with both sides' reads routed through it
 * (their SLEEPs too, for its I/O waits). 0 or TT_ENOMEM. */
static int prefix_replay(ttdi_aligner *al, ttdi_ipair *p, src s[2], const ttdi_vstep *vs,
                         ttdi_rprefix **pre)
{
    *pre = NULL;
    if (!vs || s[0].bound == s[1].bound || ttdi_replay_prefix_off)
        return 0;
    int rc = ttdi_rprefix_start(pre, &al->r[TTD_GOOD].norm, &al->r[TTD_BAD].norm, p->t[0],
                                p->t[1]);
    for (int i = 0; i < 2 && rc >= 0; i++) {
        s[i].rp = &(*pre)->rp;
        s[i].side = i;
        s[i].wk.sleeps = 1;
    }
    return rc;
}

/* Side i's reads no longer go to the prefix replay. */
static void prefix_off(src *s)
{
    s->rp = NULL;
    s->wk.sleeps = 0;
}

/* One step of the prefix in step (keys k, got: each side read one) into
 * the prefix replay *feed (NULL: none, or no longer fed): a pair, or
 * where the prefix ends, both walks kept there. When the prefix replay
 * ends before the prefix does (ttdi_rprefix_pair), the reads no longer go
 * to it. A pair's step may take the values walk's answer for it (vs, set
 * whenever *feed is). 0 or a TT_E* code. */
static int step_prefix(ttdi_rprefix **feed, src s[2], const uint64_t k[2], const int got[2],
                       const ttdi_vstep *vs)
{
    int same = got[0] && got[1] && k[0] == k[1];
    int rc = !*feed ? 0 : same ? ttdi_rprefix_pair(*feed, &s[0].wk, &s[1].wk, &vs->same)
                              : ttdi_rprefix_hold(*feed, &s[0].wk, &s[1].wk, got[0], got[1]);
    if (rc > 0 || (*feed && !same)) {
        prefix_off(&s[0]);
        prefix_off(&s[1]);
        *feed = NULL;
    }
    return rc < 0 ? rc : 0;
}

/* Both sides' next keys in step. The prefix replay's walk reads the bad
 * side only while the good one has not ended: so does its reads' replay. */
static int read_both(src s[2], uint64_t k[2], int got[2])
{
    for (int i = 0; i < 2; i++) {
        if (i == 1 && !got[0])
            prefix_off(&s[1]);
        if ((got[i] = src_next_in(&s[i], &k[i])) < 0)
            return got[i];
    }
    return 0;
}

/* The values compared in step (vs) read times only through the modules'
 * epochs (values_ptr.c) but where a value differs, which takes its own
 * (values.c exact_times), and where the keys part, whose clones take
 * theirs (ttdi_values_hold); so does the prefix replay they feed (feed:
 * the threads' lengths differ), which takes back by offset the times of
 * what it keeps (replay.c: the calls that become nodes, those still open
 * at its end, its waits, ttdi_walk_times_at): so each side's walk skips
 * them (ttdi_walk_notimes; the lazy clock's look-ahead is a fifth of such
 * a walk) once an event's earliest time is past its run's last module
 * load or unload (ttdi_epochs_end), from where every time is of the last
 * epoch; but a walk that took back more than TTDI_RETIMES keeps its times
 * (each took a chunk's read). 0 or a TT_E* code. */
static int times_off(src s[2], const int got[2])
{
    int rc = 0;

    for (int i = 0; i < 2 && rc >= 0; i++)
        if (got[i] && !s[i].wk.notimes && s[i].wk.retimed <= TTDI_RETIMES &&
            ttf_event_early_ns(&s[i].wk.ev) >= s[i].epochs_end)
            rc = ttdi_walk_notimes(&s[i].wk);
    return rc;
}

/* Did the pairing sketch both threads of p, and do the sketches or event
 * counts differ (ttdi_tinfo_differ)? */
static int sketches_differ(const ttdi_aligner *al, const ttdi_ipair *p)
{
    return al->r[TTD_GOOD].ti && al->r[TTD_BAD].ti && p->t[0] < al->r[TTD_GOOD].nt &&
           p->t[1] < al->r[TTD_BAD].nt &&
           ttdi_tinfo_differ(&al->r[TTD_GOOD].ti[p->t[0]], &al->r[TTD_BAD].ti[p->t[1]]);
}

/* Is pair p likely to part: a pair before it parted, or its threads'
 * event counts or sketches differ? Then the count facts will want its
 * threads' calls, and the tree build's keyed walks that read them whole
 * count them (ttdi_walk_count_open); identical runs pay nothing. */
static int likely_parts(const ttdi_aligner *al, const ttdi_ipair *p)
{
    const ttf_thread *g = ttf_get_thread(al->r[TTD_GOOD].t, p->t[0]);
    const ttf_thread *b = ttf_get_thread(al->r[TTD_BAD].t, p->t[1]);

    return al->parted || (g && b && g->events != b->events) || sketches_differ(al, p);
}

/* Once a pair parted (al->parted), the thread order will read the other
 * threads to the split (interleave.c): so the next pairs' threads are
 * read by run walks (issue 38 item 4), whose records, lock sets, counts
 * and marks (walker.c) it then takes instead of walking each thread from
 * its start again, reading only from the last mark before the split.
 * So is a pair that already looks different (the pairing sketched both
 * threads, and the sketches or event counts differ, or a sketch stopped at
 * its cap and the threads' digests differ: ttdi_tinfo_differ),
 * likely to part: its run walks also keep the timing scan's prefix state
 * at their marks (timing.c, ttdi_tpre_*), and the timing scan, the first
 * run walk of a split thread otherwise, starts near the first hunk.
 * Plain traces read whole (no values, no --first-only), and only when the
 * engine asks for the lock sets (the runs recorded sync operations); the
 * other pairs before the first that parted are read by keyed walks, and
 * runs whose pairs never part or look different pay nothing. 0 or a TT_E*
 * code. */
static int src_runs(ttdi_aligner *al, const ttdi_ipair *p, src s[2])
{
    int rc = 0, differ = !ttdi_timing_nosnap && sketches_differ(al, p);

    if ((!al->parted && !differ) || al->o->first_only || !al->r[TTD_GOOD].lock_tap ||
        ttf_get_summary(al->r[TTD_GOOD].t)->values || ttf_get_summary(al->r[TTD_BAD].t)->values)
        return 0;
    for (int i = 0; i < 2 && rc >= 0; i++) {
        ttdi_walk_close(&s[i].wk);
        rc = ttdi_walk_open(&s[i].wk, s[i].r, p->t[i]);
        s[i].run = 1;
        s[i].snaps = &al->snaps;
        s[i].ri = i;
        if (rc >= 0 && differ)
            rc = ttdi_tpre_open(&s[i].pre);
    }
    return rc;
}

/* One side's feed_rest in ttdi_both. */
typedef struct feed_job {
    src *s;
    ttdi_tree *t;
} feed_job;

static int feed_one(void *arg)
{
    feed_job *j = arg;
    int rc = ttdi_walk_novalues(&j->s->wk);
    return rc < 0 ? rc : feed_rest(j->s, j->t, 0);
}

/* Both sides of a pair read whole from their start (nothing read in
 * step), each by a thread of its own: the bad side keeps its timing
 * prefix snapshots apart and adds them after the good side's, as when
 * read one after the other. The good side's error first. */
static int feed_both(src s[2], ttdi_tree tr[2])
{
    struct ttdi_tsnaps *own = NULL, **al_snaps = s[1].snaps;
    feed_job j[2] = {{&s[0], &tr[0]}, {&s[1], &tr[1]}};
    int rc[2];

    if (al_snaps)
        s[1].snaps = &own;
    ttdi_both(1, feed_one, &j[0], &j[1], rc);
    if (al_snaps) {
        s[1].snaps = al_snaps;
        int trc = ttdi_tpre_take(al_snaps, &own);
        rc[1] = rc[1] < 0 ? rc[1] : trc;
    }
    return rc[0] < 0 ? rc[0] : rc[1];
}

/* ---- aside walks (issue 38 item 3) ---------------------------------------- */

/* The run walks of a values pair read aside: each side's thread whole,
 * no values (ttdi_walk_open_aside). */
typedef struct aside_job {
    ttdi_walk w[2];
    int open[2];            /* 1: w[i] opened */
    uint64_t stop[2];       /* side i's walk may stop past this kept index:
                               where the reads in step found the first
                               difference (written by the tree build while
                               the walks go on: atomic) */
    uint64_t epochs_end[2]; /* side i's last module load or unload: past
                               it, its walk reads without times */
} aside_job;

static int aside_walks(void *arg)
{
    aside_job *j = arg;
    int rc = 0;

    for (int i = 0; i < 2 && rc >= 0; i++)
        while (j->open[i] && (rc = ttdi_walk_next(&j->w[i])) > 0) {
            if (!j->w[i].notimes && ttf_event_early_ns(&j->w[i].ev) >= j->epochs_end[i] &&
                (rc = ttdi_walk_aside_notimes(&j->w[i])) < 0)
                break;
            if (j->w[i].next > __atomic_load_n(&j->stop[i], __ATOMIC_RELAXED))
                break;
        }
    return rc < 0 ? rc : 0;
}

/* The reads in step found the first difference at the sides' kept index
 * at[i]: the aside walks need read no further (resolve's pass starts
 * before the first hunk). */
static void aside_stop(aside_job *j, const src s[2])
{
    for (int i = 0; i < 2; i++)
        __atomic_store_n(&j->stop[i], s[i].wk.next, __ATOMIC_RELAXED);
}

/* Resolve's pass over the split thread of a pair that parted reads it from
 * the last mark a run walk left before the split (walk.c ttdi_run_pass):
 * the timing scan's, in a program with more threads. With one thread a
 * run, none reads it before, and a values pair's tree build reads in step
 * (keyed walks, no stack, no marks): so resolve's pass would read both
 * threads again from their start. When the pair is likely to part (it is
 * replayed, or likely_parts), a run walk of each side's thread reads it
 * aside meanwhile, in a thread of its own while the tree build's reads in
 * step go on, without values and touching nothing the tree build reads
 * or writes (ttdi_walk_open_aside): the marks it leaves are where
 * resolve's pass starts (ttdi_walk_open_values, its values taken back
 * where it needs them), and where it starts changes no event it reads.
 * Not with --jobs 1 (no thread to read it aside: resolve's pass reads
 * from the start as before) nor --first-only. 1 when started, 0 when
 * not, or a TT_E* code. */
static int aside_start(const ttdi_aligner *al, const ttdi_ipair *p, int pre, ttdi_aside *a,
                       aside_job *j)
{
    int rc = 0;

    memset(j, 0, sizeof *j);
    j->stop[0] = j->stop[1] = UINT64_MAX;
    if (al->o->jobs == 1 || al->o->first_only || (!pre && !likely_parts(al, p)) ||
        ttf_thread_count(al->r[TTD_GOOD].t) > 1 || ttf_thread_count(al->r[TTD_BAD].t) > 1 ||
        !ttdi_walk_aside_ok(&al->r[TTD_GOOD], p->t[0]) ||
        !ttdi_walk_aside_ok(&al->r[TTD_BAD], p->t[1]))
        return 0;
    for (int i = 0; i < 2 && rc >= 0; i++)
        if ((rc = ttdi_walk_open_aside(&j->w[i], &al->r[i], p->t[i])) >= 0) {
            j->open[i] = 1;
            j->epochs_end[i] = ttdi_epochs_end(&al->r[i].norm);
        }
    if (rc >= 0) {
        ttdi_aside_start(a, 1, aside_walks, j);
        return 1;
    }
    for (int i = 0; i < 2; i++)
        if (j->open[i])
            ttdi_walk_close(&j->w[i]);
    return rc;
}

/* The aside walks joined and closed: their result. */
static int aside_end(ttdi_aside *a, aside_job *j)
{
    int rc = ttdi_aside_join(a);

    for (int i = 0; i < 2; i++)
        if (j->open[i])
            ttdi_walk_close(&j->w[i]);
    return rc;
}

/* Both threads of p as call trees. With --first-only, read in step up to
 * the first difference, then each side only until the call open there
 * (the deepest common one) has ended: the first hunk lies inside it.
 * With vs (values on), read in step too, comparing the values of the
 * common prefix on the way (the values walk then starts where it ends),
 * and replaying it where the threads' lengths differ (p->rpre). */
static int load_trees(ttdi_aligner *al, ttdi_ipair *p, ttdi_tree tr[2], ttdi_vstep *vs)
{
    src s[2] = {{0}, {0}};
    uint64_t k[2];
    int got[2] = {1, 1}, rc, arc;
    size_t stop = 0;
    ttdi_rprefix *pre = NULL, *feed;
    ttdi_aside aside;
    aside_job aj;

    memset(&aside, 0, sizeof aside);
    memset(&aj, 0, sizeof aj);
    if ((rc = src_open(&s[0], &al->r[TTD_GOOD], p->t[0])) < 0)
        return rc;
    if ((rc = src_open(&s[1], &al->r[TTD_BAD], p->t[1])) < 0 ||
        (rc = ttdi_tree_reset(&tr[0], s[0].bound)) < 0 ||
        (rc = ttdi_tree_reset(&tr[1], s[1].bound)) < 0 ||
        (rc = prefix_replay(al, p, s, vs, &pre)) < 0 ||
        (!vs && (rc = src_runs(al, p, s)) < 0) ||
        (vs && (rc = aside_start(al, p, pre != NULL, &aside, &aj)) < 0))
        goto out;
    for (int i = 0; i < 2 && !al->o->first_only && likely_parts(al, p); i++)
        if (!s[i].run)          /* read whole from here: counted on the way */
            s[i].cc = ttdi_walk_count_open(s[i].r, p->t[i]);
    feed = pre;
    if (vs)
        vs->share = pre != NULL;    /* (its answers go to the prefix replay) */
    for (int i = 0; i < 2 && vs; i++)
        s[i].epochs_end = ttdi_epochs_end(s[i].wk.norm);
    while (al->o->first_only || vs) {
        if ((rc = read_both(s, k, got)) < 0 || (vs && (rc = times_off(s, got)) < 0) ||
            (rc = step_values(s, k, got, vs)) < 0 || (rc = step_prefix(&feed, s, k, got, vs)) < 0)
            goto out;
        if (got[0] && got[1] && k[0] == k[1]) {
            if ((rc = ttdi_tree_feed(&tr[0], k[0], s[0].kind)) < 0 ||
                (rc = ttdi_tree_feed(&tr[1], k[1], s[1].kind)) < 0)
                goto out;
            continue;
        }
        if (al->o->first_only)
            stop = ttdi_tree_depth(&tr[0]);
        for (int i = 0; i < 2 && rc >= 0; i++)
            if (got[i])
                rc = ttdi_tree_feed(&tr[i], k[i], s[i].kind);
        break;
    }
    aside_stop(&aj, s);
    /* the rest is read for its keys: values stepped over (the values walk
       goes on from the clones step_values kept, the replay from those
       step_prefix kept); read whole from the start, each side by a
       thread of its own (issue 38) */
    if (rc >= 0 && got[0] && got[1] && !stop && !feed && !vs && al->o->jobs != 1)
        rc = feed_both(s, tr);
    else
        for (int i = 0; i < 2 && rc >= 0; i++) {
            prefix_off(&s[i]);
            if (got[i] && (rc = ttdi_walk_novalues(&s[i].wk)) >= 0)
                rc = feed_rest(&s[i], &tr[i], stop);
        }
    p->n[0] = s[0].wk.next;
    p->n[1] = s[1].wk.next;
    p->crash = s[1].crash;
    p->rpre = rc >= 0 ? pre : NULL;
    pre = rc >= 0 ? NULL : pre;
out:
    arc = aside_end(&aside, &aj);
    rc = rc < 0 ? rc : arc < 0 ? arc : rc;
    ttdi_rprefix_free(pre);
    ttdi_tree_finish(&tr[0]);
    ttdi_tree_finish(&tr[1]);
    ttdi_walk_close(&s[0].wk);
    ttdi_walk_close(&s[1].wk);
    ttdi_tpre_close(s[0].pre);
    ttdi_tpre_close(s[1].pre);
    return rc < 0 ? rc : 0;
}

/* Thread th of run r, whole, as the call tree t; *n = its keys, *crash =
 * key index of its CRASH (if crash); with count, its calls counted
 * (ttdi_walk_count_open). */
static int load_tree(ttdi_run_state *r, uint32_t th, ttdi_tree *t, uint64_t *n,
                     uint64_t *crash, int count)
{
    src s = {0};
    int rc = src_open(&s, r, th);

    s.cc = rc >= 0 && count ? ttdi_walk_count_open(r, th) : NULL;   /* read whole */
    if (rc >= 0 && (rc = ttdi_walk_novalues(&s.wk)) >= 0 &&
        (rc = ttdi_tree_reset(t, s.bound)) >= 0) {
        rc = feed_rest(&s, t, 0);
        ttdi_tree_finish(t);
    }
    *n = s.wk.next;
    if (crash)
        *crash = s.crash;
    ttdi_walk_close(&s.wk);
    return rc < 0 ? rc : 0;
}

/* Tree hunks as key-index hunks (the loop counts dropped); NULL on
 * ENOMEM. */
static ttdi_hunk *raw_hunks(const ttdi_xhunk *x, size_t nx)
{
    ttdi_hunk *h = malloc((nx + 1) * sizeof *h);

    for (size_t i = 0; h && i < nx; i++)
        h[i] = (ttdi_hunk){x[i].a0, x[i].a1, x[i].b0, x[i].b1};
    return h;
}

/* Tree mode with baselines: the good thread of p whole in tr[0], aligned
 * with its partner in every baseline (in tr[1]) to learn what varies
 * between good runs, then the bad thread whole in tr[1]. --first-only
 * reads everything here: the first hunk may be one the good runs show. */
static int load_with_baselines(ttdi_aligner *al, ttdi_ipair *p, ttdi_tree *tr)
{
    uint64_t n;
    int count = likely_parts(al, p);
    int rc = load_tree(&al->r[TTD_GOOD], p->t[0], &tr[0], &p->n[0], NULL, count);

    ttdi_openset_clear(&al->calls);
    for (size_t k = 0; rc >= 0 && k < al->nbase; k++) {
        int64_t tk = al->base[k].partner[p->t[0]];
        ttdi_xhunk *x = NULL;
        ttdi_hunk *h = NULL;
        size_t nx = 0;
        if (tk < 0)
            continue;
        if ((rc = load_tree(&al->base[k].r, (uint32_t)tk, &tr[1], &n, NULL, 0)) < 0 ||
            (rc = ttdi_tree_align(&tr[0], &tr[1], al->o->minimal, &x, &nx)) < 0)
            break;
        if (!(h = raw_hunks(x, nx)))
            rc = TT_ENOMEM;
        if (rc >= 0)
            rc = baseline_learn(al, p, k, h, nx);
        free(x);
        free(h);
    }
    if (rc >= 0)
        rc = load_tree(&al->r[TTD_BAD], p->t[1], &tr[1], &p->n[1], &p->crash, count);
    return rc;
}

/* The rest of ttdi_align_tree after the load: the hunks, pools, values
 * (going on from vs). */
static int tree_hunks(ttdi_aligner *al, ttdi_ipair *p, ttdi_tree *tr, ttdi_vstep *vs)
{
    ttdi_xhunk *x = NULL;
    size_t nx = 0;
    int rc = ttdi_tree_align(&tr[0], &tr[1], al->o->minimal, &x, &nx);

    p->same = tr[0].n && tr[1].n && p->n[0] == p->n[1] &&
              ttdi_tree_node(&tr[0], 0)->hash == ttdi_tree_node(&tr[1], 0)->hash;
    if (rc >= 0 && p->pool >= 0 && !al->o->first_only)
        rc = ttdi_pool_items(p, tr, x, nx, al->values, al->o->jobs != 1); /* pools.c */
    if (rc < 0) {
        free(x);
        return rc;
    }
    if (al->o->first_only && !al->nbase && nx > 1)
        nx = 1;
    if (p->crash != UINT64_MAX)
        al->r[TTD_BAD].crash_thread = p->t[1];
    p->h = raw_hunks(x, nx);
    p->reps = al->o->collapse_loops ? calloc(2 * nx + 2, sizeof *p->reps) : NULL;
    p->exp = al->nbase ? calloc(nx + 1, 1) : NULL;
    if (!p->h || (al->o->collapse_loops && !p->reps) || (al->nbase && !p->exp)) {
        free(x);
        return TT_ENOMEM;
    }
    for (size_t i = 0; p->reps && i < nx; i++) {
        p->reps[2 * i] = x[i].reps[0];
        p->reps[2 * i + 1] = x[i].reps[1];
    }
    p->nh = nx;
    free(x);
    if (p->exp && (rc = mark_noise(al, p)) < 0)
        return rc;
    return pair_values(al, p, vs);
}

int ttdi_align_tree(ttdi_aligner *al, ttdi_ipair *p, ttdi_tree *tr)
{
    ttdi_vstep vs;

    memset(&vs, 0, sizeof vs);
    int rc = al->nbase ? load_with_baselines(al, p, tr)
                       : load_trees(al, p, tr, al->values ? &vs : NULL);
    rc = rc < 0 ? rc : tree_hunks(al, p, tr, &vs);
    ttdi_vstep_free(&vs);
    al->parted |= rc >= 0 && p->nh > 0;    /* src_runs */
    return rc;
}


/* ---- the script's pairs -------------------------------------------------- */

/* --thread as every command means it (ttd_thread_match). */
static int thread_selected(const char *pattern, const ttd_regex *re, const ttdi_tinfo *t)
{
    return ttd_thread_match(pattern, re, t->index, t->name, t->first);
}

void ttdi_fill_thread_info(const ttdi_run_state *r, uint32_t i, uint64_t events,
                           ttd_thread_info *out)
{
    out->index = i;
    out->name = r->ti[i].name;
    out->start = r->ti[i].start;
    out->events = events;
}

/* Build the ipairs (selected, in good creation order) and the unpaired list. */
int ttdi_make_pairs(const ttdi_run_state *r, const char *pattern, const ttd_regex *re,
                    struct ttfi_arena *a, ttdi_script *s, ttd_unpaired **unpaired,
                    size_t *nunpaired)
{
    const ttdi_run_state *g = &r[TTD_GOOD], *b = &r[TTD_BAD];
    ttd_unpaired *up = ttfi_arena_zalloc(a, (g->nt + b->nt + 1) * sizeof *up);

    s->ip = calloc(g->nt + 1, sizeof *s->ip);
    if (!s->ip || !up)
        return TT_ENOMEM;
    *unpaired = up;
    for (size_t i = 0; i < g->nt; i++) {
        const ttdi_tinfo *t = &g->ti[i];
        if (t->partner < 0 || !(thread_selected(pattern, re, t) ||
                                thread_selected(pattern, re, &b->ti[t->partner])))
            continue;
        ttdi_ipair *p = &s->ip[s->nip++];
        p->t[0] = (uint32_t)i;
        p->t[1] = (uint32_t)t->partner;
    }
    for (int ri = 0; ri < 2; ri++) {
        for (size_t i = 0; i < r[ri].nt; i++) {
            const ttdi_tinfo *t = &r[ri].ti[i];
            if (t->partner >= 0 || !thread_selected(pattern, re, t))
                continue;
            const ttf_thread *th = ttf_get_thread(r[ri].t, i);
            ttd_unpaired *u = &up[(*nunpaired)++];
            u->run = ri;
            ttdi_fill_thread_info(&r[ri], (uint32_t)i, th ? th->events : 0, &u->thread);
        }
    }
    return 0;
}

