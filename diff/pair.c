/*
 * pair.c - match the threads of the good run with those of the bad run:
 * pairs given by hand (--pair), main with main, then rounds by name and
 * start function, by name alone, by start function alone, and last any two
 * threads with nothing telling them apart. What is left stays unpaired.
 * Stage 0 prepare of diff/STAGES (its header: prepare.h).
 *
 * Within a round a thread with exactly one candidate (and that candidate
 * with only it) is paired by the round's rule. Threads that tie (a pool of
 * look-alike workers) are paired by what they did: each thread's sketch is
 * a histogram of the function keys it entered (the first SKETCH_EVENTS
 * kept ENTERs and messages, square-rooted counts hashed into SKETCH_BINS bins, unit
 * length), and a candidate pair scores 0.8 x the cosine of the sketches +
 * 0.2 x the ratio of the threads' event counts (smaller / larger). The
 * assignment is greedy: best score first (ties in creation order), which
 * is the minimum-cost assignment whenever each thread has one clear match.
 * In a values trace the order also weighs what the threads worked on: a
 * second histogram of their calls' numeric arguments (below 2^32: sizes,
 * indexes, flags; addresses differ between any two runs), its cosine
 * x VALUE_WEIGHT added, so among candidates whose calls score within that
 * much of each other, the two that did the same work pair (two decoder
 * workers whose blocks changed hands between the runs: the block that
 * failed is compared with the same block, not with the other one, which
 * made the same calls). The score shown and the uncertainty stay the
 * calls' own.
 * Rounds work on groups of equal key, so any number of threads pairs in
 * O(n log n); big look-alike pools pair in creation order (see below).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prepare.h"

#define SKETCH_BINS 256             /* histogram bins */
#define VALUE_BINS 256              /* ... of the values (values traces) */
#define VALUE_SMALL (1ull << 32)    /* an argument or result below this is a
                                       number (a size, an index, a flag);
                                       above, mostly an address */
#define VALUE_WEIGHT 0.05           /* the values' part of the order of a
                                       tie's candidates (TTDI_PAIR_MARGIN:
                                       they decide among near-equal calls) */
#define SKETCH_EVENTS (1u << 21)    /* kept ENTERs (and messages) read per
                                       thread at most */

uint64_t ttdi_sketch_events = SKETCH_EVENTS;

static int same(const char *x, const char *y)
{
    return x[0] && strcmp(x, y) == 0;
}

/* Do g and b match under the rule of this round? */
static int fits(const ttdi_tinfo *g, const ttdi_tinfo *b, int round)
{
    switch (round) {
    case TTD_PAIR_NAME_START:
        return same(g->start, b->start) && strcmp(g->name, b->name) == 0;
    case TTD_PAIR_NAME:
        return same(g->name, b->name);
    case TTD_PAIR_START:
        return same(g->start, b->start);
    default: /* ORDER: no name and no start function that differ */
        return (!g->name[0] || !b->name[0] || !strcmp(g->name, b->name)) &&
               (!g->start[0] || !b->start[0] || !strcmp(g->start, b->start));
    }
}

static void join(ttdi_tinfo *g, ttdi_tinfo *b, int how, int tie)
{
    g->partner = b->index;
    b->partner = g->index;
    g->paired_by = b->paired_by = how;
    g->tie = b->tie = tie;
}

/* The values of a values trace's call (key: its function) into the
 * values histogram h: each argument register below VALUE_SMALL, by
 * function, register and value. Pointers differ between any two runs
 * (ASLR, heap), so they are left out; numbers tell which work a worker
 * did (a block's size, an item's index), where its calls look alike. */
static void values_of(float *h, uint64_t key, const ttf_event *ev)
{
    for (unsigned r = 0; r < 6; r++) {
        uint64_t v = ev->argregs[r];
        if (v >= VALUE_SMALL)
            continue;
        uint64_t x = key ^ (v * 0x9E3779B97F4A7C15ull) ^ ((uint64_t)r << 59);
        h[((x * 0xff51afd7ed558ccdull) >> 40) % VALUE_BINS] += 1.0f;
    }
}

/* Square roots of h[0..n)'s counts, then unit length (all 0 stays 0). */
static void unit(float *h, size_t n)
{
    double len = 0;

    for (size_t i = 0; i < n; i++) {
        h[i] = sqrtf(h[i]);
        len += (double)h[i] * h[i];
    }
    for (size_t i = 0; len > 0 && i < n; i++)
        h[i] = (float)(h[i] / sqrt(len));
}

/* The content sketch of thread ti of the run n normalises (computed once). */
static int sketch(ttdi_norm *n, ttdi_tinfo *ti)
{
    ttdi_walk wk;
    uint64_t key, seen = 0, cap = ttdi_sketch_events;
    int rc;

    if (ti->sketch)
        return 0;
    if (!(ti->sketch = calloc(SKETCH_BINS + VALUE_BINS, sizeof *ti->sketch)))
        return TT_ENOMEM;
    const ttf_summary *sm = ttf_get_summary(n->trace);
    rc = sm && sm->values ? ttdi_walk_raw_values(&wk, n->trace, ti->index)
                          : ttdi_walk_raw(&wk, n->trace, ti->index);
    if (rc < 0)
        return rc;
    ttdi_walk_notimes(&wk);     /* keys (and values) only */
    while (seen < cap && (rc = ttdi_walk_next(&wk)) > 0) {
        if (wk.ev.kind != TTF_EV_ENTER && wk.ev.kind != TTF_EV_MESSAGE)
            continue;
        if ((rc = ttdi_norm_key(n, &wk.ev, &key)) < 0)
            break;
        seen += (uint64_t)rc;
        if (rc)
            ti->sketch[(key >> 40) % SKETCH_BINS] += 1.0f;
        if (rc && wk.ev.has_values)
            values_of(ti->sketch + SKETCH_BINS, key, &wk.ev);
    }
    ti->capped = rc > 0;    /* it stopped at the cap */
    ttdi_walk_close(&wk);
    unit(ti->sketch, SKETCH_BINS);
    unit(ti->sketch + SKETCH_BINS, VALUE_BINS);
    return rc < 0 ? rc : 0;
}

static double dot(const float *x, const float *y, size_t n)
{
    double d = 0;

    for (size_t i = 0; i < n; i++)
        d += (double)x[i] * y[i];
    return d;
}

static double similarity(const ttdi_tinfo *g, const ttdi_tinfo *b)
{
    uint64_t lo = g->events < b->events ? g->events : b->events;
    uint64_t hi = g->events < b->events ? b->events : g->events;

    return 0.8 * dot(g->sketch, b->sketch, SKETCH_BINS) +
           0.2 * (hi ? (double)lo / (double)hi : 1.0);
}

double ttdi_pair_order(const ttdi_tinfo *g, const ttdi_tinfo *b, double score)
{
    return score + VALUE_WEIGHT * dot(g->sketch + SKETCH_BINS, b->sketch + SKETCH_BINS,
                                      VALUE_BINS);
}

/* A tied candidate pair of one round. */
typedef struct cand {
    uint32_t g, b;          /* thread indexes */
    double score;           /* similarity */
    double order;           /* ... with the values' part: the greedy order */
} cand;

static int cand_cmp(const void *x, const void *y)
{
    const cand *a = x, *b = y;
    if (a->order != b->order)
        return a->order > b->order ? -1 : 1;
    if (a->g != b->g)
        return a->g < b->g ? -1 : 1;
    return a->b < b->b ? -1 : a->b > b->b;
}

/* Best score among the candidates other than c that share a thread with it. */
static double runner_up(const cand *c, const cand *all, size_t n)
{
    double best = -1;
    for (size_t i = 0; i < n; i++) {
        const cand *o = &all[i];
        if (o != c && (o->g == c->g || o->b == c->b) && o->score > best)
            best = o->score;
    }
    return best;
}

/* ---- one round ------------------------------------------------------------
 * The rules of the first three rounds are equalities on a key (name and
 * start function, name, start function), so a round sorts the unpaired
 * threads of both runs by key once and works group by group: O(n log n)
 * for any number of threads. A group of one thread per run is a unique
 * fit. A tie of up to SMALL_TIE candidate pairs is scored pair by pair
 * (greedy, best first); a bigger one (a pool of thousands of look-alike
 * workers) pairs in creation order where the content agrees, then same
 * content by creation order, then what is left by creation order: linear
 * in the threads, every thread paired. */

#define SMALL_TIE (1u << 16)        /* candidate pairs scored one by one */

/* One thread in a round's sort: run 0 good, 1 bad; its index. */
typedef struct entry {
    uint32_t run, i;
} entry;

typedef struct rsort {
    ttdi_pairing *p;
    int round;
} rsort;

static const ttdi_tinfo *info_of(const ttdi_pairing *p, const entry *e)
{
    return e->run ? &p->b[e->i] : &p->g[e->i];
}

/* The round's key of t: strcmp order of (k1, k2). */
static void key_of(const ttdi_tinfo *t, int round, const char **k1, const char **k2)
{
    *k1 = round == TTD_PAIR_START ? t->start : t->name;
    *k2 = round == TTD_PAIR_NAME_START ? t->start : "";
}

static int cmp_entry(const void *x, const void *y, void *ctx)
{
    const rsort *r = ctx;
    const entry *a = x, *b = y;
    const char *a1, *a2, *b1, *b2;
    key_of(info_of(r->p, a), r->round, &a1, &a2);
    key_of(info_of(r->p, b), r->round, &b1, &b2);
    int c = strcmp(a1, b1);
    if (!c)
        c = strcmp(a2, b2);
    if (!c && a->run != b->run)
        c = a->run < b->run ? -1 : 1;
    if (!c && a->i != b->i)
        c = a->i < b->i ? -1 : 1;
    return c;
}

/* Can t take part in a round by key (its key is set)? */
static int keyed(const ttdi_tinfo *t, int round)
{
    if (t->partner >= 0)
        return 0;
    return round == TTD_PAIR_NAME ? t->name[0] != 0 : t->start[0] != 0;
}

/* Sketches made ahead, one run's by each of two threads (ttdi_both):
 * its threads c[k].g (side 0) or c[k].b (side 1) of n candidates, or
 * idx[0..n). A sketch that fails is dropped, to be made again (and fail)
 * in its turn, so the errors are the ones of one thread. */
typedef struct ahead {
    ttdi_norm *norm;
    ttdi_tinfo *t;
    const cand *c;
    const uint32_t *idx;
    size_t n;
    int side;
} ahead;

static int ahead_run(void *arg)
{
    ahead *a = arg;
    for (size_t k = 0; k < a->n; k++) {
        ttdi_tinfo *ti = &a->t[a->idx ? a->idx[k] : a->side ? a->c[k].b : a->c[k].g];
        if (sketch(a->norm, ti) < 0) {
            free(ti->sketch);
            ti->sketch = NULL;
        }
    }
    return 0;
}

static void sketch_ahead(ttdi_pairing *p, const cand *c, size_t n, const uint32_t *gi,
                         size_t ng, const uint32_t *bi, size_t nb)
{
    ahead a[2] = {{p->gn, p->g, c, gi, c ? n : ng, 0}, {p->bn, p->b, c, bi, c ? n : nb, 1}};
    int rc[2];

    if (p->two && a[0].n && a[1].n)
        ttdi_both(1, ahead_run, &a[0], &a[1], rc);
}

/* Score c[0..n) and pair them greedily, best first (ties in creation
 * order), as the content pairing of one tied group. */
static int greedy(ttdi_pairing *p, int round, cand *c, size_t n)
{
    sketch_ahead(p, c, n, NULL, 0, NULL, 0);
    for (size_t k = 0; k < n; k++) {
        int rc = sketch(p->gn, &p->g[c[k].g]);
        if (rc < 0 || (rc = sketch(p->bn, &p->b[c[k].b])) < 0)
            return rc;
        c[k].score = similarity(&p->g[c[k].g], &p->b[c[k].b]);
        c[k].order = ttdi_pair_order(&p->g[c[k].g], &p->b[c[k].b], c[k].score);
    }
    qsort(c, n, sizeof *c, cand_cmp);
    for (size_t k = 0; k < n; k++) {
        ttdi_tinfo *g = &p->g[c[k].g], *b = &p->b[c[k].b];
        if (g->partner >= 0 || b->partner >= 0)
            continue;
        join(g, b, TTD_PAIR_CONTENT, round);
        g->score = b->score = c[k].score;
        g->second = b->second = runner_up(&c[k], c, n);
    }
    return 0;
}

/* The fingerprint of a thread's content: its sketch and event count. */
static uint64_t print_of(const ttdi_tinfo *t)
{
    uint64_t h = t->events * 0x9E3779B97F4A7C15ull;
    for (size_t i = 0; i < SKETCH_BINS; i++) {
        uint32_t v;
        memcpy(&v, &t->sketch[i], sizeof v);
        h = (h ^ v) * 0x100000001B3ull;
    }
    return h;
}

/* Join g and b of a big tie: their own score, the runner-up as good when
 * look-alikes remain (alike: another thread had the same content). */
static void join_alike(ttdi_tinfo *g, ttdi_tinfo *b, int round, int alike)
{
    join(g, b, TTD_PAIR_CONTENT, round);
    g->score = b->score = similarity(g, b);
    g->second = b->second = alike ? g->score : -1;
}

typedef struct pent {
    uint64_t fp;            /* content fingerprint */
    uint32_t i;             /* thread index */
} pent;

static int cmp_pent(const void *x, const void *y)
{
    const pent *a = x, *b = y;
    if (a->fp != b->fp)
        return a->fp < b->fp ? -1 : 1;
    return a->i < b->i ? -1 : a->i > b->i;
}

/* Same content, by creation order: walk both runs' threads sorted by
 * (fingerprint, index) in step. */
static void pair_same_content(ttdi_pairing *p, int round, pent *g, size_t ng,
                              pent *b, size_t nb)
{
    qsort(g, ng, sizeof *g, cmp_pent);
    qsort(b, nb, sizeof *b, cmp_pent);
    for (size_t i = 0, j = 0; i < ng && j < nb;) {
        if (g[i].fp != b[j].fp) {
            g[i].fp < b[j].fp ? i++ : j++;
            continue;
        }
        if (p->g[g[i].i].partner < 0 && p->b[b[j].i].partner < 0)
            join_alike(&p->g[g[i].i], &p->b[b[j].i], round, 1);
        i++, j++;
    }
}

/* A big tied group: gi[ng] and bi[nb] thread indexes, creation order. */
static int big_tie(ttdi_pairing *p, int round, const uint32_t *gi, size_t ng,
                   const uint32_t *bi, size_t nb)
{
    pent *g = malloc((ng + 1) * sizeof *g), *b = malloc((nb + 1) * sizeof *b);
    int rc = g && b ? 0 : TT_ENOMEM;
    sketch_ahead(p, NULL, 0, gi, ng, bi, nb);
    for (size_t i = 0; rc >= 0 && i < ng; i++)
        if ((rc = sketch(p->gn, &p->g[gi[i]])) >= 0)
            g[i] = (pent){print_of(&p->g[gi[i]]), gi[i]};
    for (size_t j = 0; rc >= 0 && j < nb; j++)
        if ((rc = sketch(p->bn, &p->b[bi[j]])) >= 0)
            b[j] = (pent){print_of(&p->b[bi[j]]), bi[j]};
    /* creation order where the content agrees */
    for (size_t k = 0; rc >= 0 && k < ng && k < nb; k++)
        if (g[k].fp == b[k].fp)
            join_alike(&p->g[gi[k]], &p->b[bi[k]], round, 1);
    if (rc >= 0)
        pair_same_content(p, round, g, ng, b, nb);
    /* the rest by creation order */
    for (size_t i = 0, j = 0; rc >= 0 && i < ng && j < nb;) {
        if (p->g[gi[i]].partner >= 0 || p->b[bi[j]].partner >= 0) {
            p->g[gi[i]].partner >= 0 ? i++ : j++;
            continue;
        }
        join_alike(&p->g[gi[i++]], &p->b[bi[j++]], round, 0);
    }
    free(g);
    free(b);
    return rc;
}

/* One group of a keyed round: good threads gi[ng], bad bi[nb]. */
static int group_pairs(ttdi_pairing *p, int round, const uint32_t *gi, size_t ng,
                       const uint32_t *bi, size_t nb, cand *c)
{
    if (ng == 1 && nb == 1) {
        join(&p->g[gi[0]], &p->b[bi[0]], round, 0);
        return 0;
    }
    if (!ng || !nb)
        return 0;
    if ((uint64_t)ng * nb > SMALL_TIE)
        return big_tie(p, round, gi, ng, bi, nb);
    size_t n = 0;
    for (size_t i = 0; i < ng; i++)
        for (size_t j = 0; j < nb; j++)
            c[n++] = (cand){gi[i], bi[j], 0, 0};
    return greedy(p, round, c, n);
}

/* A keyed round: sort, then each group. idx holds room for every thread
 * of both runs; c for SMALL_TIE candidates. */
static int keyed_round(ttdi_pairing *p, int round, entry *e, uint32_t *idx, cand *c)
{
    size_t n = 0;
    for (size_t i = 0; i < p->ng; i++)
        if (keyed(&p->g[i], round))
            e[n++] = (entry){0, (uint32_t)i};
    for (size_t j = 0; j < p->nb; j++)
        if (keyed(&p->b[j], round))
            e[n++] = (entry){1, (uint32_t)j};
    rsort r = {p, round};
    qsort_r(e, n, sizeof *e, cmp_entry, &r);
    int rc = 0;
    for (size_t s = 0, t; rc >= 0 && s < n; s = t) {
        size_t ng = 0, nb = 0;
        for (t = s; t < n; t++) {
            const char *a1, *a2, *b1, *b2;
            key_of(info_of(p, &e[s]), round, &a1, &a2);
            key_of(info_of(p, &e[t]), round, &b1, &b2);
            if (strcmp(a1, b1) || strcmp(a2, b2))
                break;
            e[t].run ? nb++ : ng++;
        }
        for (size_t k = s; k < t; k++) /* good ones first (the sort) */
            idx[k - s] = e[k].i;
        rc = group_pairs(p, round, idx, ng, idx + ng, nb, c);
    }
    return rc;
}

/* The last round: threads with no name and no start function that differ.
 * Not an equality, so pairs are counted one by one (few threads are left
 * by now); past SMALL_TIE x 64 pairs, compatible threads pair in creation
 * order instead. */
static int order_round(ttdi_pairing *p, uint32_t *cg, uint32_t *cb, cand *c)
{
    size_t lg = 0, lb = 0, n = 0;
    for (size_t i = 0; i < p->ng; i++)
        lg += p->g[i].partner < 0;
    for (size_t j = 0; j < p->nb; j++)
        lb += p->b[j].partner < 0;
    if ((uint64_t)lg * lb > (uint64_t)SMALL_TIE * 64) {
        for (size_t i = 0, j = 0; i < p->ng && j < p->nb;) {
            if (p->g[i].partner >= 0 || p->b[j].partner >= 0) {
                p->g[i].partner >= 0 ? i++ : j++;
                continue;
            }
            if (fits(&p->g[i], &p->b[j], TTD_PAIR_ORDER))
                join(&p->g[i], &p->b[j], TTD_PAIR_ORDER, 0);
            i++, j++;
        }
        return 0;
    }
    memset(cg, 0, p->ng * sizeof *cg);
    memset(cb, 0, p->nb * sizeof *cb);
    for (size_t i = 0; i < p->ng; i++)
        for (size_t j = 0; j < p->nb && p->g[i].partner < 0; j++)
            if (p->b[j].partner < 0 && fits(&p->g[i], &p->b[j], TTD_PAIR_ORDER))
                cg[i]++, cb[j]++;
    for (size_t i = 0; i < p->ng; i++)
        for (size_t j = 0; j < p->nb && p->g[i].partner < 0; j++)
            if (cg[i] == 1 && cb[j] == 1 && p->b[j].partner < 0 &&
                fits(&p->g[i], &p->b[j], TTD_PAIR_ORDER))
                join(&p->g[i], &p->b[j], TTD_PAIR_ORDER, 0);
    int rc = 0;
    for (size_t i = 0; rc >= 0 && i < p->ng; i++) {
        for (size_t j = 0; j < p->nb && p->g[i].partner < 0; j++) {
            if (p->b[j].partner < 0 && fits(&p->g[i], &p->b[j], TTD_PAIR_ORDER) &&
                (cg[i] > 1 || cb[j] > 1))
                c[n++] = (cand){(uint32_t)i, (uint32_t)j, 0, 0};
            if (n == SMALL_TIE) { /* one chunk of candidates at a time */
                rc = greedy(p, TTD_PAIR_ORDER, c, n);
                n = 0;
            }
        }
    }
    return rc < 0 ? rc : greedy(p, TTD_PAIR_ORDER, c, n);
}

/* Pairs given by hand; TT_EINVAL (with p->bad_hand set) when one names a
 * thread that does not exist or is already paired. */
static int by_hand(ttdi_pairing *p)
{
    for (size_t k = 0; k < p->nhand; k++) {
        const ttd_hand_pair *h = &p->hand[k];
        if (h->good >= p->ng || h->bad >= p->nb || p->g[h->good].partner >= 0 ||
            p->b[h->bad].partner >= 0) {
            p->bad_hand = h;
            return TT_EINVAL;
        }
        join(&p->g[h->good], &p->b[h->bad], TTD_PAIR_HAND, 0);
    }
    return 0;
}

int ttdi_pair_threads(ttdi_pairing *p)
{
    size_t big = p->ng > p->nb ? p->ng : p->nb;
    uint32_t *cnt = malloc((2 * big + 1) * sizeof *cnt);
    entry *e = malloc((p->ng + p->nb + 1) * sizeof *e);
    uint32_t *idx = malloc((p->ng + p->nb + 1) * sizeof *idx);
    cand *c = malloc((SMALL_TIE + 1) * sizeof *c);
    int rc = TT_ENOMEM;

    for (size_t i = 0; i < p->ng; i++)
        p->g[i].partner = -1, p->g[i].score = p->g[i].second = -1;
    for (size_t i = 0; i < p->nb; i++)
        p->b[i].partner = -1, p->b[i].score = p->b[i].second = -1;
    if (!cnt || !e || !idx || !c)
        goto out;
    if ((rc = by_hand(p)) < 0)
        goto out;
    if (p->ng && p->nb && p->g[0].partner < 0 && p->b[0].partner < 0)
        join(&p->g[0], &p->b[0], TTD_PAIR_MAIN, 0);
    for (int round = TTD_PAIR_NAME_START; round < TTD_PAIR_ORDER && rc >= 0; round++)
        rc = keyed_round(p, round, e, idx, c);
    if (rc >= 0)
        rc = order_round(p, cnt, cnt + big, c);
out:
    free(cnt);
    free(e);
    free(idx);
    free(c);
    return rc;
}

int ttdi_pair_uncertain(double score, double second)
{
    if (score < 0)
        return 0;
    if (score < TTDI_PAIR_LOW)
        return 1;
    return second >= 0 && score - second < TTDI_PAIR_MARGIN && score < TTDI_PAIR_ALIKE;
}

const char *ttdi_thread_label(const ttdi_run_state *r, struct ttfi_arena *a, uint32_t i)
{
    const char *n = i < r->nt && r->ti && r->ti[i].name ? r->ti[i].name : "";
    char buf[96];
    int twin = 0;

    for (uint32_t j = 0; *n && j < r->nt && !twin; j++)
        twin = j != i && r->ti[j].name && strcmp(r->ti[j].name, n) == 0;
    if (*n && !twin)
        return n;
    snprintf(buf, sizeof buf, *n ? "#%u %s" : "#%u", i, n);
    return ttfi_arena_strcpy(a, buf);
}

int ttdi_tinfo_differ(const ttdi_tinfo *g, const ttdi_tinfo *b)
{
    return g->sketch && b->sketch &&
           (g->events != b->events || memcmp(g->sketch, b->sketch, SKETCH_BINS * sizeof *g->sketch) ||
            ((g->capped || b->capped) && g->digest != b->digest));
}

void ttdi_tinfo_free(ttdi_tinfo *t, size_t n)
{
    for (size_t i = 0; t && i < n; i++) {
        free(t[i].sketch);
        t[i].sketch = NULL;
    }
}

/* Name and start function of each thread (walks up to its first ENTER). */
int ttdi_load_threads(ttdi_run_state *r)
{
    r->nt = ttf_thread_count(r->t);
    r->ti = calloc(r->nt + 1, sizeof *r->ti);
    if (!r->ti)
        return TT_ENOMEM;
    for (size_t i = 0; i < r->nt; i++) {
        const ttf_thread *th = ttf_get_thread(r->t, i);
        ttdi_tinfo *ti = &r->ti[i];
        ti->index = (uint32_t)i;
        ti->name = th && th->name && th->name[0] ? th->name
                   : th && th->first_name ? th->first_name : "";
        ti->first = th ? th->first_name : NULL;
        ti->start = "";
        ti->events = th ? th->events : 0;
        ti->digest = th ? th->digest : 0;
        ttdi_walk wk;
        int rc = ttdi_walk_raw(&wk, r->t, (uint32_t)i);
        if (rc < 0)
            return rc;
        while ((rc = ttdi_walk_next(&wk)) > 0 && wk.ev.kind != TTF_EV_ENTER)
            ;
        if (rc > 0)
            ti->start = ttdi_norm_func(&r->norm, &wk.ev);
        ttdi_walk_close(&wk);
        if (rc < 0)
            return rc;
    }
    return 0;
}

void ttdi_fill_run_info(struct ttfi_arena *a, const ttdi_run_state *r, const char *path,
                        ttd_run_info *ri_out)
{
    const ttf_process *pr = ttf_get_process(r->t);
    const ttf_summary *s = ttf_get_summary(r->t);

    path = path ? path : ttf_path(r->t);
    ri_out->path = ttfi_arena_strcpy(a, path ? path : "");
    if (!ri_out->path)
        ri_out->path = "";
    ri_out->exe = "";
    if (pr) {
        ri_out->pid = pr->pid;
        ri_out->exe = pr->exe ? pr->exe : "";
        ri_out->argc = pr->argc;
        ri_out->argv = pr->argv;
        ri_out->start_realtime_ns = pr->start_realtime_ns;
        ri_out->chaos = pr->chaos;
        ri_out->chaos_seed = pr->chaos_seed;
    }
    if (s) {
        ri_out->duration_ns = s->duration_ns;
        ri_out->events = s->events;
        ri_out->closed = s->closed;
    }
    if (pr && pr->exited)
        ri_out->exit_status = pr->exit_status;
    ri_out->threads = r->nt;
    char cut[256];
    if (ttf_cut_text(r->t, cut, sizeof cut))
        ri_out->cut = ttfi_arena_strcpy(a, cut);
    size_t nm = ttf_module_count(r->t);
    const ttf_module *m = nm ? ttf_get_module(r->t, 0) : NULL; /* else the first */
    for (size_t i = 0; i < nm; i++) {
        const ttf_module *x = ttf_get_module(r->t, i);
        if (x->path && strcmp(x->path, ri_out->exe) == 0) {
            m = x;                      /* the executable's module */
            break;
        }
    }
    /* copied: a baseline's trace is closed before the result is read */
    uint8_t *id = m && m->build_id_len ? ttfi_arena_alloc(a, m->build_id_len) : NULL;
    if (id) {
        memcpy(id, m->build_id, m->build_id_len);
        ri_out->build_id = id;
        ri_out->build_id_len = m->build_id_len;
    }
}

int ttdi_same_program(const ttd_run_info *g, const ttd_run_info *b)
{
    if (g->exe[0] && b->exe[0] && strcmp(g->exe, b->exe) != 0)
        return TTD_PROGRAM_OTHER;
    if (g->build_id && b->build_id && (g->build_id_len != b->build_id_len ||
        memcmp(g->build_id, b->build_id, g->build_id_len) != 0))
        return TTD_PROGRAM_BUILD;
    return TTD_PROGRAM_SAME;
}
