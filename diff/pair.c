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
 * kept events, square-rooted counts hashed into SKETCH_BINS bins, unit
 * length), and a candidate pair scores 0.8 x the cosine of the sketches +
 * 0.2 x the ratio of the threads' event counts (smaller / larger). The
 * assignment is greedy: best score first (ties in creation order), which
 * is the minimum-cost assignment whenever each thread has one clear match.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "prepare.h"

#define SKETCH_BINS 256             /* histogram bins */
#define SKETCH_EVENTS (1u << 21)    /* kept events read per thread at most */
#define MAX_CANDIDATES (1u << 18)   /* more tied pairs: creation order */

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

/* The content sketch of thread ti of the run n normalises (computed once). */
static int sketch(ttdi_norm *n, ttdi_tinfo *ti)
{
    ttf_iter *it;
    ttf_event ev;
    uint64_t key, seen = 0;
    int rc;

    if (ti->sketch)
        return 0;
    if (!(ti->sketch = calloc(SKETCH_BINS, sizeof *ti->sketch)))
        return TT_ENOMEM;
    if ((rc = ttf_iter_open(n->trace, ti->index, &it)) < 0)
        return rc;
    while (seen < SKETCH_EVENTS && (rc = ttf_iter_next(it, &ev)) > 0) {
        if (ev.kind != TTF_EV_ENTER && ev.kind != TTF_EV_MESSAGE)
            continue;
        if ((rc = ttdi_norm_key(n, &ev, &key)) < 0)
            break;
        seen += (uint64_t)rc;
        if (rc)
            ti->sketch[(key >> 40) % SKETCH_BINS] += 1.0f;
    }
    ttf_iter_close(it);
    double len = 0;
    for (size_t i = 0; i < SKETCH_BINS; i++) {
        ti->sketch[i] = sqrtf(ti->sketch[i]);
        len += (double)ti->sketch[i] * ti->sketch[i];
    }
    for (size_t i = 0; len > 0 && i < SKETCH_BINS; i++)
        ti->sketch[i] = (float)(ti->sketch[i] / sqrt(len));
    return rc < 0 ? rc : 0;
}

static double similarity(const ttdi_tinfo *g, const ttdi_tinfo *b)
{
    double dot = 0;
    uint64_t lo = g->events < b->events ? g->events : b->events;
    uint64_t hi = g->events < b->events ? b->events : g->events;

    for (size_t i = 0; i < SKETCH_BINS; i++)
        dot += (double)g->sketch[i] * b->sketch[i];
    return 0.8 * dot + 0.2 * (hi ? (double)lo / (double)hi : 1.0);
}

/* A tied candidate pair of one round. */
typedef struct cand {
    uint32_t g, b;          /* thread indexes */
    double score;           /* similarity */
} cand;

static int cand_cmp(const void *x, const void *y)
{
    const cand *a = x, *b = y;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
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

/* The tied candidates of one round: pairs that fit where either side has
 * more than one fit. cg/cb count the fits per thread. */
static size_t tied(ttdi_pairing *p, int round, uint32_t *cg, uint32_t *cb, cand *c)
{
    size_t n = 0;

    for (size_t i = 0; i < p->ng; i++)
        for (size_t j = 0; j < p->nb && p->g[i].partner < 0; j++)
            if (p->b[j].partner < 0 && fits(&p->g[i], &p->b[j], round) &&
                (cg[i] > 1 || cb[j] > 1) && n < MAX_CANDIDATES)
                c[n++] = (cand){(uint32_t)i, (uint32_t)j, 0};
    return n;
}

/* One round: unique fits by the rule, ties by content. */
static int round_pairs(ttdi_pairing *p, int round, uint32_t *cg, uint32_t *cb,
                       cand *c)
{
    memset(cg, 0, p->ng * sizeof *cg);
    memset(cb, 0, p->nb * sizeof *cb);
    for (size_t i = 0; i < p->ng; i++)
        for (size_t j = 0; j < p->nb && p->g[i].partner < 0; j++)
            if (p->b[j].partner < 0 && fits(&p->g[i], &p->b[j], round)) {
                cg[i]++;
                cb[j]++;
            }
    for (size_t i = 0; i < p->ng; i++)
        for (size_t j = 0; j < p->nb && p->g[i].partner < 0; j++)
            if (cg[i] == 1 && cb[j] == 1 && p->b[j].partner < 0 &&
                fits(&p->g[i], &p->b[j], round))
                join(&p->g[i], &p->b[j], round, 0);
    size_t n = tied(p, round, cg, cb, c);
    for (size_t k = 0; k < n; k++) {
        int rc = sketch(p->gn, &p->g[c[k].g]);
        if (rc < 0 || (rc = sketch(p->bn, &p->b[c[k].b])) < 0)
            return rc;
        c[k].score = similarity(&p->g[c[k].g], &p->b[c[k].b]);
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
    size_t nc = p->ng * p->nb < MAX_CANDIDATES ? p->ng * p->nb : MAX_CANDIDATES;
    uint32_t *cnt = malloc((2 * big + 1) * sizeof *cnt);
    cand *c = malloc((nc + 1) * sizeof *c);
    int rc = TT_ENOMEM;

    for (size_t i = 0; i < p->ng; i++)
        p->g[i].partner = -1, p->g[i].score = p->g[i].second = -1;
    for (size_t i = 0; i < p->nb; i++)
        p->b[i].partner = -1, p->b[i].score = p->b[i].second = -1;
    if (!cnt || !c)
        goto out;
    if ((rc = by_hand(p)) < 0)
        goto out;
    if (p->ng && p->nb && p->g[0].partner < 0 && p->b[0].partner < 0)
        join(&p->g[0], &p->b[0], TTD_PAIR_MAIN, 0);
    for (int round = TTD_PAIR_NAME_START; round <= TTD_PAIR_ORDER && rc >= 0; round++)
        rc = round_pairs(p, round, cnt, cnt + big, c);
out:
    free(cnt);
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

void ttdi_tinfo_free(ttdi_tinfo *t, size_t n)
{
    for (size_t i = 0; t && i < n; i++) {
        free(t[i].sketch);
        t[i].sketch = NULL;
    }
}
