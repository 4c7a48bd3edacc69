/*
 * poolpair.c - the look-alike workers of a pool paired by the work they
 * did, before the alignment: an extra work item in one run is then an
 * item one worker did more, not a worker that did everything differently
 * from an idle one. Stage 1 align of diff/STAGES (its header: state.h).
 *
 * Design. Pairing (pair.c) matches look-alike threads by a sketch of the
 * functions they entered. Two work items of the same functions look the
 * same to it: libuv's pool with two workers, one lookup in the good run
 * (worker 1 did it, worker 2 stayed idle), two in the bad run (one each);
 * either bad worker sketches like good worker 1, and when the one that
 * did the second lookup is paired with it, the one that did the first is
 * paired with the idle worker: its whole work becomes a hunk at the time
 * of the first lookup, before the split that caused the second. So, for
 * each pool (pools.c ttdi_pools_find) whose content-paired pairs (pair.c
 * TTD_PAIR_CONTENT) do not all look alike already (ttdi_tinfo_differ),
 * each of their threads' call trees is built, its way down to the worker
 * loop found by pools.c's rule (ttdi_pool_way), and the pool's level (the
 * deepest all its threads share) gives the work items, as pools.c will
 * see them. The items of each subtree hash are matched across the runs
 * in the order they started (the k-th of that hash in the good run's pool
 * with the k-th in the bad run's: of two alike items where the good run
 * did one, the later is the extra one, as a job posted later is), and two
 * threads share the length of the items matched between them.
 * Guards: a pool that did the same work in both runs (the same multiset
 * of items: workers that swapped items, which pools.c settles anyway)
 * keeps its pairs. Else the pairs are chosen again, most shared first
 * (ties: the pair as it was, then creation order; never two threads of
 * different names when their tie was by name), and taken only if
 * together they share more than the pairs as they were.
 * Cost: nothing when a pool's pairs look alike; else one keyed walk and
 * one tree per thread of the pool, at most PP_PAIRS pairs and PP_KEYS
 * keys per thread (past either, the pairs stay as they were).
 */
#include <stdlib.h>
#include <string.h>

#include "state.h"
#include "tree.h"

#define PP_PAIRS 16             /* content pairs of one pool re-paired, at most */
#define PP_KEYS (1u << 21)      /* keys read per thread, at most */
#define LEAF 2                  /* keys of a call that made no calls */

uint64_t ttdi_pools_repaired;   /* pools whose pairs changed (tests) */

/* One work item: its subtree hash, length (keys), start and thread. */
typedef struct pitem {
    uint64_t hash, len, ns;
    uint32_t who;           /* slot of its thread's pair */
    uint8_t side;           /* 0 good, 1 bad */
} pitem;

/* One thread of the pool on its way down to the worker loop. */
typedef struct pthr {
    size_t nway;                            /* levels */
    uint64_t key[TTDI_LOOP_DEPTH + 1];      /* each level's ENTER key */
    pitem *items[TTDI_LOOP_DEPTH + 1];      /* each level's children */
    size_t nitems[TTDI_LOOP_DEPTH + 1];
} pthr;

/* A pool's content pairs being re-paired. */
typedef struct ppool {
    ttdi_aligner *al;
    size_t pair[PP_PAIRS];  /* slot -> index in al->s->ip */
    size_t m;               /* slots */
    pthr th[2][PP_PAIRS];   /* per side and slot */
    uint64_t w[PP_PAIRS][PP_PAIRS]; /* keys of the items good slot i and
                               bad slot j share */
} ppool;

static ttdi_tinfo *tinfo(const ppool *pp, int s, size_t slot)
{
    return &pp->al->r[s].ti[pp->al->s->ip[pp->pair[slot]].t[s]];
}

/* Thread `slot` of side s: its tree (t, memory reused), way and items of
 * every level on it. 1, 0 when it is past PP_KEYS, or a TT_E* code. */
static int read_thread(ppool *pp, int s, size_t slot, ttdi_tree *t, uint64_t **ns,
                       size_t *nscap)
{
    ttdi_run_state *r = &pp->al->r[s];
    uint32_t thread = pp->al->s->ip[pp->pair[slot]].t[s];
    pthr *th = &pp->th[s][slot];
    ttdi_walk wk;
    uint64_t key;
    size_t n = 0, nd[TTDI_LOOP_DEPTH + 1];
    uint64_t raw[TTDI_LOOP_DEPTH + 1];
    int rc = ttdi_walk_keyed(&wk, &r->norm, thread);

    if (rc < 0)
        return rc;
    if ((rc = ttdi_walk_novalues(&wk)) >= 0)
        rc = ttdi_tree_reset(t, (size_t)r->ti[thread].events);
    while (rc >= 0 && (rc = ttdi_walk_next_key_to(&wk, &key)) > 0) {
        if (n == PP_KEYS)
            break;
        if (n == *nscap && ttdi_grow(ns, nscap, n + 1, sizeof **ns, 4096) < 0)
            rc = TT_ENOMEM;
        else if ((rc = ttdi_tree_feed(t, key, wk.ev.kind)) >= 0)
            (*ns)[n++] = wk.ev.time_ns;
    }
    ttdi_walk_close(&wk);
    ttdi_tree_finish(t);
    if (rc != 0)
        return rc < 0 ? rc : 0;     /* 1: stopped at PP_KEYS */
    th->nway = ttdi_pool_way(t, nd, raw, th->key);
    for (size_t j = 0; j < th->nway; j++) {
        ttdi_item *it;
        size_t ni;
        if ((rc = ttdi_pool_children(t, nd[j], raw[j], &it, &ni)) < 0)
            return rc;
        th->items[j] = malloc((ni + 1) * sizeof *th->items[j]);
        for (size_t k = 0; th->items[j] && k < ni; k++)
            th->items[j][k] = (pitem){it[k].hash, it[k].raw1 - it[k].raw0,
                                      it[k].raw0 < n ? (*ns)[it[k].raw0] : UINT64_MAX,
                                      (uint32_t)slot, (uint8_t)s};
        th->nitems[j] = ni;
        free(it);
        if (!th->items[j])
            return TT_ENOMEM;
    }
    return 1;
}

/* The deepest level all the pool's threads share (same keys on the way
 * down), as pools.c's pool_level. */
static size_t shared_level(const ppool *pp)
{
    const pthr *ref = &pp->th[0][0];
    size_t L = ref->nway - 1;

    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < pp->m; i++) {
            const pthr *th = &pp->th[s][i];
            size_t j = 0;
            while (j < th->nway && j <= L && th->key[j] == ref->key[j])
                j++;
            L = j ? j - 1 : 0;
        }
    return L;
}

static int cmp_pitem(const void *x, const void *y)
{
    const pitem *a = x, *b = y;
    if (a->hash != b->hash)
        return a->hash < b->hash ? -1 : 1;
    if (a->side != b->side)
        return a->side < b->side ? -1 : 1;
    if (a->ns != b->ns)
        return a->ns < b->ns ? -1 : 1;
    return (a->who > b->who) - (a->who < b->who);
}

/* The items at level L matched across the runs, hash by hash in the
 * order they started, into pp->w: the keys of the matched items that made
 * calls (the work; a call that made none, a worker loop's lock, wait or
 * signal, says little about which job a worker did), or of every matched
 * item when none made calls. 1 when the pool's two multisets of items
 * differ, 0 when they are the same, TT_ENOMEM. */
static int share(ppool *pp, size_t L)
{
    size_t n = 0, k = 0;
    uint64_t small[PP_PAIRS][PP_PAIRS];
    int work = 0;

    memset(small, 0, sizeof small);
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < pp->m; i++)
            n += pp->th[s][i].nitems[L];
    pitem *v = malloc((n + 1) * sizeof *v);
    if (!v)
        return TT_ENOMEM;
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < pp->m; i++) {
            memcpy(v + k, pp->th[s][i].items[L], pp->th[s][i].nitems[L] * sizeof *v);
            k += pp->th[s][i].nitems[L];
        }
    qsort(v, n, sizeof *v, cmp_pitem);
    int differ = 0;
    for (size_t a = 0, z; a < n; a = z) {
        size_t g = a, b;
        for (z = a; z < n && v[z].hash == v[a].hash; z++)
            ;
        for (b = a; b < z && !v[b].side; b++)
            ;
        differ |= b - a != z - b;
        for (size_t bb = b; g < b && bb < z; g++, bb++) {
            pp->w[v[g].who][v[bb].who] += v[g].len > LEAF ? v[g].len : 0;
            small[v[g].who][v[bb].who] += v[g].len;
            work |= v[g].len > LEAF;
        }
    }
    free(v);
    if (!work)      /* no item made calls: every item counts */
        memcpy(pp->w, small, sizeof small);
    return differ;
}

/* May good slot i and bad slot j pair? Not two threads of different
 * names when their tie was by name. */
static int may_pair(const ppool *pp, size_t i, size_t j)
{
    const ttdi_tinfo *g = tinfo(pp, 0, i), *b = tinfo(pp, 1, j);
    int named = g->tie == TTD_PAIR_NAME_START || g->tie == TTD_PAIR_NAME ||
                b->tie == TTD_PAIR_NAME_START || b->tie == TTD_PAIR_NAME;
    return !named || strcmp(g->name, b->name) == 0;
}

/* A candidate pair of slots. */
typedef struct pcand {
    uint64_t w;
    uint32_t i, j;
} pcand;

static int cmp_pcand(const void *x, const void *y)
{
    const pcand *a = x, *b = y;
    if (a->w != b->w)
        return a->w > b->w ? -1 : 1;
    if ((a->i == a->j) != (b->i == b->j))
        return a->i == a->j ? -1 : 1;   /* the pair as it was first */
    if (a->i != b->i)
        return a->i < b->i ? -1 : 1;
    return (a->j > b->j) - (a->j < b->j);
}

/* Pair the slots again, most shared first, into to[] (good slot -> bad
 * slot): 1 when every slot found a partner and they share more than the
 * pairs as they were, else 0. */
static int choose(const ppool *pp, size_t *to)
{
    pcand c[PP_PAIRS * PP_PAIRS];
    uint8_t gb[2][PP_PAIRS];
    size_t n = 0, got = 0;
    uint64_t was = 0, now = 0;

    memset(gb, 0, sizeof gb);
    for (size_t i = 0; i < pp->m; i++) {
        was += pp->w[i][i];
        for (size_t j = 0; j < pp->m; j++)
            if (may_pair(pp, i, j))
                c[n++] = (pcand){pp->w[i][j], (uint32_t)i, (uint32_t)j};
    }
    qsort(c, n, sizeof *c, cmp_pcand);
    for (size_t k = 0; k < n; k++) {
        if (gb[0][c[k].i] || gb[1][c[k].j])
            continue;
        gb[0][c[k].i] = gb[1][c[k].j] = 1;
        to[c[k].i] = c[k].j;
        now += c[k].w;
        got++;
    }
    return got == pp->m && now > was;
}

/* Take the new pairs to[]: the pairs' bad threads and both runs'
 * partners, scores from the sketches (the items decided: no runner-up). */
static void apply(ppool *pp, const size_t *to)
{
    uint32_t bt[PP_PAIRS];

    for (size_t i = 0; i < pp->m; i++)
        bt[i] = pp->al->s->ip[pp->pair[i]].t[1];
    for (size_t i = 0; i < pp->m; i++) {
        ttdi_ipair *p = &pp->al->s->ip[pp->pair[i]];
        p->t[1] = bt[to[i]];
        ttdi_tinfo *g = &pp->al->r[TTD_GOOD].ti[p->t[0]], *b = &pp->al->r[TTD_BAD].ti[p->t[1]];
        g->partner = b->index;
        b->partner = g->index;
        g->score = b->score = g->sketch && b->sketch ? ttdi_pair_similarity(g, b) : -1;
        g->second = b->second = -1;
    }
}

/* The content pairs of pool k into pp's slots: 1 when there are two or
 * more, no more than PP_PAIRS, and one of them looks different. */
static int slots(ppool *pp, size_t k)
{
    const ttdi_script *sc = pp->al->s;
    int differ = 0;

    pp->m = 0;
    for (size_t i = 0; i < sc->nip; i++) {
        const ttdi_ipair *p = &sc->ip[i];
        const ttdi_tinfo *g = &pp->al->r[TTD_GOOD].ti[p->t[0]];
        const ttdi_tinfo *b = &pp->al->r[TTD_BAD].ti[p->t[1]];
        if (p->pool != (int)k || g->paired_by != TTD_PAIR_CONTENT)
            continue;
        if (pp->m == PP_PAIRS)
            return 0;
        pp->pair[pp->m++] = i;
        differ |= ttdi_tinfo_differ(g, b);
    }
    return pp->m >= 2 && differ;
}

static void ppool_free(ppool *pp)
{
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < pp->m; i++)
            for (size_t j = 0; j < pp->th[s][i].nway; j++)
                free(pp->th[s][i].items[j]);
}

/* Pool k: its content pairs re-paired by the work they did, when that
 * pairs them better. 0 or a TT_E* code. */
static int pool_pair(ttdi_aligner *al, size_t k, ttdi_tree *t, uint64_t **ns, size_t *nscap)
{
    ppool *pp = calloc(1, sizeof *pp);
    size_t to[PP_PAIRS];
    int rc = pp ? 1 : TT_ENOMEM;

    if (!pp)
        return rc;
    pp->al = al;
    if (!slots(pp, k))
        rc = 0;
    for (int s = 0; s < 2 && rc > 0; s++)
        for (size_t i = 0; i < pp->m && rc > 0; i++)
            rc = read_thread(pp, s, i, t, ns, nscap);
    if (rc > 0)
        rc = share(pp, shared_level(pp));
    if (rc > 0 && choose(pp, to)) {
        apply(pp, to);
        ttdi_pools_repaired++;
    }
    ppool_free(pp);
    free(pp);
    return rc < 0 ? rc : 0;
}

int ttdi_pools_pair(ttdi_aligner *al)
{
    ttdi_tree t;
    uint64_t *ns = NULL;
    size_t nscap = 0;
    int rc = 0;

    memset(&t, 0, sizeof t);
    t.share = 1;
    for (size_t k = 0; k < al->s->npools && rc >= 0; k++)
        rc = pool_pair(al, k, &t, &ns, &nscap);
    ttdi_tree_free(&t);
    free(ns);
    return rc;
}
