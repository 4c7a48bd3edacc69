/*
 * pools.c - look-alike threads compared as a pool: which worker took which
 * work item is no difference; an item that one run did and the other did
 * not (an error path) is, and stays a hunk of the thread that did it.
 * Stage 1 align of diff/STAGES (its header: state.h).
 *
 * Design. A pool is a set of thread pairs whose threads start in one
 * function and are named alike but for their digits ("worker-0",
 * "worker-1"; or all unnamed), two pairs or more. Pairing (pair.c) has
 * already matched such threads by what they did, but a queue hands its
 * items out by timing: worker 1 does items 1, 4, 5 in one run and 2, 3, 6
 * in the next, and no pairing makes those threads alike. So the pool's
 * work is compared as a whole: each thread's worker loop is found in its
 * call tree (from the top, the biggest call of a caller that made at most
 * three, at the deepest level all the pool's threads share: a loop
 * wrapped in setup and teardown calls), its children are the work items, and an item is its subtree hash (tree.h: the normalised calls it
 * made, in order). The good run's items and the bad run's are two
 * multisets; a hash that one run has more often is a surplus (good-only
 * or bad-only items). The per-thread alignment still runs as ever (it
 * gives the hunks their places, events and contexts), and then a hunk
 * inside a worker loop stays only when it touches a surplus item; the
 * others are items that another worker of the pool did in the other run.
 * Surplus items go first to hunks that touch a bad-only item (the hunk
 * that aligned the error path against its good counterpart), so the one
 * hunk kept is the one that shows what the item did differently.
 *
 * Cost: a pool pair whose trees are equal costs a walk over its loop's
 * children to count them, nothing else (the bench's swapped workers).
 * A pair that differs keeps only the items its hunks touch (40 bytes
 * each, and their children): an item no hunk touches is matched with an
 * equal item of the paired thread and cancels out of the multiset anyway.
 * Past POOL_ITEMS_MAX touched items on a side, the pair keeps its
 * per-thread hunks (memory stays bounded on runs that differ everywhere).
 * Hunks outside the loops (before it, after it, or across its end: a
 * crash) are never touched. Pools need the call trees: --flat and
 * --first-only do without them.
 *
 * Values. With call values compared, a work item is its calls and its
 * values: zstd's checksum_job(&jobs[1]) in worker 1 and checksum_job(
 * &jobs[0]) in worker 2 in one good run, the other way round in the next,
 * are the same two items. A value difference of a pool pair (its walk's
 * first one and its differing returns, ipair.vf) lies in an item at the
 * deepest level up to the pool's whose children hold it on both sides
 * (a worker that took one item: its arguments are a level above the loop
 * the tree finds inside it). At that level every item of the pool is
 * matched one to one: first with its partner, the item at the same place
 * of the paired thread (taken from the pair's own walk where its threads
 * are the same keys up to there), then the bad items left over against
 * the good ones left over, same calls (hash) and every value the same as
 * the values walk compares them (values.c ttdi_values_span). A
 * difference stays when its bad item found no twin: an item run with
 * other values, or one of the same values twice where the good run ran
 * it once. When a pair's recorded difference had a twin and went, its
 * first bad item without one (against its partner) becomes its first
 * difference: the walk keeps only the first argument that differs. The
 * twinned items' ranges (ipair.twins) tell the explain stage's replay
 * not to show their values. Cost: only pools with a value difference are
 * matched, a walk over their pairs that differ; past VITEMS_MAX items a
 * level, VLEFT_MAX left over or VSPAN_MAX events compared, the rule by
 * the calls alone (call_kept).
 */
#include <stdlib.h>
#include <string.h>

#include "state.h"
#include "tree.h"

#define LOOP_DEPTH 64       /* levels searched for a worker loop */
#define WRAP_MAX 3          /* calls of a caller that wraps a loop, at most */
#define POOL_ITEMS_MAX (1u << 20) /* items that differ per thread, at most */
#define VITEMS_MAX (1u << 16) /* items per level kept to match by values */
#define VLEFT_MAX 256       /* items per side and level left to match
                               across the pool's threads */
#define VSPAN_MAX (1u << 24) /* events compared to match those */

/* ---- finding the pools ----------------------------------------------------- */

void ttdi_name_skeleton(const char *name, char *out, size_t n)
{
    size_t k = 0;

    for (const char *p = name; *p && k + 1 < n; p++) {
        if (*p < '0' || *p > '9') {
            out[k++] = *p;
            continue;
        }
        out[k++] = '#';
        while (p[1] >= '0' && p[1] <= '9')
            p++;
    }
    out[k] = '\0';
}

/* A pair as the grouping sees it. */
typedef struct pkey {
    const char *start;      /* start function, both runs */
    char skel[64];          /* name skeleton, both runs */
    size_t i;               /* pair index */
} pkey;

static int cmp_pkey(const void *x, const void *y)
{
    const pkey *a = x, *b = y;
    int c = strcmp(a->start, b->start);
    if (!c)
        c = strcmp(a->skel, b->skel);
    return c ? c : (a->i > b->i) - (a->i < b->i);
}

/* The key of pair p, 0 if it can be in no pool (start functions differ
 * or are unknown, names differ but for digits). */
static int pool_key(const ttdi_aligner *al, const ttdi_ipair *p, size_t i, pkey *k)
{
    const ttdi_tinfo *g = &al->r[TTD_GOOD].ti[p->t[0]], *b = &al->r[TTD_BAD].ti[p->t[1]];
    char sb[64];

    if (!g->start[0] || strcmp(g->start, b->start))
        return 0;
    ttdi_name_skeleton(g->name, k->skel, sizeof k->skel);
    ttdi_name_skeleton(b->name, sb, sizeof sb);
    k->start = g->start;
    k->i = i;
    return strcmp(k->skel, sb) == 0;
}

int ttdi_pools_find(ttdi_aligner *al)
{
    pkey *k = malloc((al->s->nip + 1) * sizeof *k);
    size_t n = 0, npools = 0;

    if (!k)
        return TT_ENOMEM;
    for (size_t i = 0; i < al->s->nip; i++) {
        al->s->ip[i].pool = -1;
        n += (size_t)pool_key(al, &al->s->ip[i], i, &k[n]);
    }
    qsort(k, n, sizeof *k, cmp_pkey);
    al->s->pools = calloc(n / 2 + 1, sizeof *al->s->pools);
    for (size_t s = 0, t; al->s->pools && s < n; s = t) {
        for (t = s + 1; t < n && !strcmp(k[s].start, k[t].start) &&
                        !strcmp(k[s].skel, k[t].skel); t++)
            ;
        if (t - s < 2)
            continue;
        for (size_t j = s; j < t; j++)
            al->s->ip[k[j].i].pool = (int)npools;
        al->s->pools[npools++].start = k[s].start;
    }
    free(k);
    if (!al->s->pools)
        return TT_ENOMEM;
    /* ids in the order of the pools' first pairs */
    int next = 1;
    for (size_t i = 0; i < al->s->nip; i++) {
        ttdi_pool *pl = al->s->ip[i].pool >= 0 ? &al->s->pools[al->s->ip[i].pool] : NULL;
        if (pl && !pl->id[0])
            snprintf(pl->id, sizeof pl->id, "pool#%d", next++);
    }
    al->s->npools = npools;
    return 0;
}

/* ---- a thread's worker loop ------------------------------------------------- */

/* Children of node nd (first key index r): how many, the biggest (node,
 * key index, length) and their total length. */
typedef struct kids {
    size_t n, big;
    uint64_t bigraw, biglen, total;
} kids;

static void scan_kids(const ttdi_tree *t, size_t nd, uint64_t r, kids *k)
{
    size_t b = ttdi_tree_body(t, nd);
    size_t c = b + 1, end = nd ? b + ttdi_node_size(ttdi_tree_node(t, b)) : t->n;
    uint64_t raw = r + (nd ? 1 : 0);

    memset(k, 0, sizeof *k);
    while (c < end) {
        const ttdi_node *cn = ttdi_tree_node(t, c);
        if (cn->len > k->biglen || !k->n)
            k->big = c, k->bigraw = raw, k->biglen = cn->len;
        k->n++;
        k->total += cn->len;
        raw += cn->len;
        c += ttdi_node_size(cn);
    }
}

/* A growing array of items. */
typedef struct ivec {
    ttdi_item *v;
    size_t n, cap;
} ivec;

static int ivec_push(ivec *iv, ttdi_item it)
{
    if (iv->n == iv->cap &&
        ttdi_grow(&iv->v, &iv->cap, iv->n + 1, sizeof *iv->v, 64) < 0)
        return TT_ENOMEM;
    iv->v[iv->n++] = it;
    return 0;
}

/* One side's hunks, walked in step with the items (key order): an item
 * is kept only if a hunk touches it. NULL: keep every item. */
typedef struct rng {
    const ttdi_xhunk *x;
    size_t nx, at;
    int side;
} rng;

/* Does a hunk of rg touch key range [lo, hi)? (lo ascending per walk) */
static int hit(rng *rg, uint64_t lo, uint64_t hi)
{
    if (!rg)
        return 1;
    for (; rg->at < rg->nx; rg->at++) {
        const ttdi_xhunk *h = &rg->x[rg->at];
        uint64_t h0 = rg->side ? h->b0 : h->a0, h1 = rg->side ? h->b1 : h->a1;
        if (h1 > lo || h0 >= hi)
            return h0 < hi && lo < h1;
    }
    return 0;
}

/* Append the children of node nd (at key index r) to iv, each with parent,
 * if keep and a hunk of rg touches it; count them all in *total; their key
 * range into lr. 0 or TT_ENOMEM. */
static int children(const ttdi_tree *t, size_t nd, uint64_t r, int keep, uint32_t parent,
                    rng *rg, ivec *iv, size_t *total, uint64_t lr[2])
{
    size_t b = ttdi_tree_body(t, nd);
    size_t c = b + 1, end = nd ? b + ttdi_node_size(ttdi_tree_node(t, b)) : t->n;
    uint64_t raw = r + (nd ? 1 : 0);

    lr[0] = raw;
    for (; c < end; c += ttdi_node_size(ttdi_tree_node(t, c)), (*total)++) {
        const ttdi_node *cn = ttdi_tree_node(t, c);
        uint64_t r0 = raw;
        raw += cn->len;
        if (keep && hit(rg, r0, raw) &&
            ivec_push(iv, (ttdi_item){cn->hash, r0, raw, 0, 0, parent, cn->key}) < 0)
            return TT_ENOMEM;
    }
    lr[1] = raw;
    return 0;
}

/* The children of node nd (at key index r) as level lv: key, range,
 * count, and the items themselves if keep (those rg touches). */
static int level_of(const ttdi_tree *t, size_t nd, uint64_t r, int keep, rng *rg,
                    ttdi_level *lv)
{
    ivec iv = {NULL, 0, 0};

    lv->total = 0;
    int rc = children(t, nd, r, keep, 0, rg, &iv, &lv->total, lv->lr);
    lv->key = nd ? ttdi_tree_node(t, nd)->key : 0;
    lv->items = iv.v;
    lv->n = iv.n;
    lv->kept = (uint8_t)keep;
    return rc;
}

/* With values: every child of node nd (at key index r) into lv->vitems,
 * none past VITEMS_MAX (vover). 0 or TT_ENOMEM. */
static int value_items(const ttdi_tree *t, size_t nd, uint64_t r, ttdi_level *lv)
{
    ivec iv = {NULL, 0, 0};
    size_t total = 0;
    uint64_t lr[2];

    if (lv->total > VITEMS_MAX) {
        lv->vover = 1;
        return 0;
    }
    int rc = children(t, nd, r, 1, 0, NULL, &iv, &total, lr);
    lv->vitems = iv.v;
    lv->nv = iv.n;
    return rc;
}

/* The children of each kept item of the loop level lv (node nd) as its
 * sub-items, for the second look at the items that differ. */
static int sub_items(const ttdi_tree *t, size_t nd, ttdi_level *lv)
{
    size_t b = ttdi_tree_body(t, nd);
    size_t c = b + 1, end = nd ? b + ttdi_node_size(ttdi_tree_node(t, b)) : t->n;
    ivec iv = {NULL, 0, 0};
    uint64_t lr[2], raw = lv->lr[0];
    size_t i = 0, count = 0;
    int rc = 0;

    for (; c < end && i < lv->n && rc >= 0; c += ttdi_node_size(ttdi_tree_node(t, c))) {
        const ttdi_node *cn = ttdi_tree_node(t, c);
        int call = (ttdi_node_flags(cn) & TTDI_NODE_CALL) != 0;
        if (raw == lv->items[i].raw0 && call)
            rc = children(t, c, raw, 1, (uint32_t)i, NULL, &iv, &count, lr);
        i += raw == lv->items[i].raw0;
        raw += cn->len;
    }
    lv->subs = iv.v;
    lv->nsubs = iv.n;
    return rc;
}

/* The way down t to its worker loop, level by level into lv[0..*n): from
 * the top, go down into the biggest call of a caller that made at most
 * WRAP_MAX (a loop wrapped in setup and teardown), if it made calls
 * itself, or if it is its caller's only call (a worker that took no
 * item: its loop is there, empty, and the pool's other workers still
 * compare item by item). A thread that took one item goes down into it too; the pool
 * works at the deepest level all its threads share (settle_pool), which
 * the threads that took many items decide. With keep, each level keeps the items a hunk (x,
 * side s) touches, the deepest also their children: the items no hunk
 * touches are matched one to one with the paired thread's (same hash) and
 * cancel out of the multiset anyway.
 * 0 or TT_ENOMEM. */
static int find_loop(const ttdi_tree *t, int keep, int values, const ttdi_xhunk *x, size_t nx,
                     int s, ttdi_level *lv, size_t *n)
{
    size_t nd = 0;
    uint64_t r = 0;
    kids k, kk;

    *n = 0;
    for (int depth = 0; depth < LOOP_DEPTH; depth++) {
        rng rg = {x, nx, 0, s};
        if (level_of(t, nd, r, keep, &rg, &lv[(*n)++]) < 0 ||
            (values && value_items(t, nd, r, &lv[*n - 1]) < 0))
            return TT_ENOMEM;
        scan_kids(t, nd, r, &k);
        if (!k.n || !(ttdi_node_flags(ttdi_tree_node(t, k.big)) & TTDI_NODE_CALL))
            break;
        scan_kids(t, k.big, k.bigraw, &kk);
        if (k.n > WRAP_MAX || (!kk.n && k.n > 1))
            break;
        nd = k.big;
        r = k.bigraw;
    }
    if (!keep)
        return 0;
    ttdi_level *last = &lv[*n - 1];
    if (last->n > POOL_ITEMS_MAX) { /* too many differ: per-thread hunks */
        free(last->items);
        last->items = NULL;
        last->n = 0;
        last->kept = 0;
        last->over = 1;
        return 0;
    }
    return sub_items(t, nd, last);
}

/* One side's worker loop (ttdi_pool_items), in ttdi_both: it reads only
 * its own tree and writes only its own levels. */
typedef struct side_job {
    ttdi_ipair *p;
    const ttdi_tree *t;
    const ttdi_xhunk *x;
    size_t nx;
    int s, differ, values;
} side_job;

uint64_t ttdi_pool_jobs_apart;
size_t ttdi_pool_jobs_min = 1u << 16;

static int side_items(void *arg)
{
    const side_job *j = arg;
    ttdi_ipair *p = j->p;

    if (ttdi_job_apart)
        __atomic_fetch_add(&ttdi_pool_jobs_apart, 1, __ATOMIC_RELAXED);
    if (!(p->lv[j->s] = calloc(LOOP_DEPTH + 1, sizeof *p->lv[j->s])))
        return TT_ENOMEM;
    return find_loop(j->t, j->differ, j->values, j->x, j->nx, j->s, p->lv[j->s], &p->nlv[j->s]);
}

int ttdi_pool_items(ttdi_ipair *p, const ttdi_tree *tr, const ttdi_xhunk *x, size_t nx,
                    int values, int two)
{
    int differ = ttdi_tree_node(&tr[0], 0)->hash != ttdi_tree_node(&tr[1], 0)->hash, rc[2];
    side_job j[2] = {{p, &tr[0], x, nx, 0, differ, values}, {p, &tr[1], x, nx, 1, differ, values}};

    /* big trees: each side's levels by a thread of its own (issue 38: a
       worker loop of a million items costs a list walk each; a thread's
       start is not worth it for a small one) */
    ttdi_both(two && tr[0].n + tr[1].n >= ttdi_pool_jobs_min, side_items, &j[0], &j[1], rc);
    return rc[0] < 0 || rc[1] < 0 ? TT_ENOMEM : 0;
}

void ttdi_pool_free(ttdi_ipair *p)
{
    for (int s = 0; s < 2; s++) {
        for (size_t j = 0; p->lv[s] && j < p->nlv[s]; j++) {
            free(p->lv[s][j].items);
            free(p->lv[s][j].subs);
            free(p->lv[s][j].vitems);
        }
        free(p->lv[s]);
        p->lv[s] = NULL;
        p->nlv[s] = 0;
    }
}

/* ---- the multiset ------------------------------------------------------------- */

/* One item in the pool's sort. */
typedef struct ient {
    uint64_t hash;
    ttdi_item *it;
    int side;
} ient;

static int cmp_ient(const void *x, const void *y)
{
    const ient *a = x, *b = y;
    return (a->hash > b->hash) - (a->hash < b->hash);
}

long ttdi_items_surplus(ttdi_item *const *g, size_t ng, ttdi_item *const *b,
                        size_t nb, uint64_t **sur)
{
    ient *e = malloc((ng + nb + 1) * sizeof *e);
    uint64_t *s = malloc(2 * (ng + nb + 1) * sizeof *s);
    size_t n = 0, groups = 0;

    *sur = NULL;
    if (!e || !s) {
        free(e);
        free(s);
        return TT_ENOMEM;
    }
    for (size_t i = 0; i < ng; i++)
        e[n++] = (ient){g[i]->hash, g[i], 0};
    for (size_t i = 0; i < nb; i++)
        e[n++] = (ient){b[i]->hash, b[i], 1};
    qsort(e, n, sizeof *e, cmp_ient);
    for (size_t i = 0, j; i < n; i = j, groups++) {
        uint64_t c[2] = {0, 0};
        for (j = i; j < n && e[j].hash == e[i].hash; j++) {
            c[e[j].side]++;
            e[j].it->grp = (uint32_t)groups;
            e[j].it->state = 0;
        }
        uint64_t m = c[0] < c[1] ? c[0] : c[1];
        s[2 * groups] = c[0] - m;
        s[2 * groups + 1] = c[1] - m;
    }
    free(e);
    *sur = s;
    return (long)groups;
}

/* ---- settling a pool ----------------------------------------------------------- */

/* Is hunk h of p inside both worker loops (at level L)? */
static int inside(const ttdi_ipair *p, const ttdi_hunk *h, size_t L)
{
    const uint64_t *g = p->lv[0][L].lr, *b = p->lv[1][L].lr;
    return h->a0 >= g[0] && h->a1 <= g[1] && h->b0 >= b[0] && h->b1 <= b[1];
}

/* The items of v[0..n) (ascending) that key range [lo, hi) touches:
 * [*i0, *i1). An empty range touches the item it lies strictly inside
 * (the other run's events there: that item differs). */
static void touched_in(const ttdi_item *v, size_t n, uint64_t lo, uint64_t hi, size_t *i0,
                       size_t *i1)
{
    size_t a = 0, z = n;

    while (a < z) { /* first item ending after lo */
        size_t m = a + (z - a) / 2;
        if (v[m].raw1 <= lo)
            a = m + 1;
        else
            z = m;
    }
    *i0 = a;
    if (lo == hi) { /* a point: inside an item (not at its start) or none */
        *i1 = a < n && v[a].raw0 < lo ? a + 1 : a;
        return;
    }
    while (a < n && v[a].raw0 < hi)
        a++;
    *i1 = a;
}

static void touched(const ttdi_level *lv, uint64_t lo, uint64_t hi, size_t *i0, size_t *i1)
{
    touched_in(lv->items, lv->n, lo, hi, i0, i1);
}

/* Mark the not yet marked items of side s touched by hunk h as differing
 * while their group has surplus left; 1 if h touches a differing item of
 * that side. */
static int claim(ttdi_ipair *p, size_t L, const ttdi_hunk *h, int s, uint64_t *sur)
{
    size_t i0, i1;
    int any = 0;

    touched(&p->lv[s][L], s ? h->b0 : h->a0, s ? h->b1 : h->a1, &i0, &i1);
    for (size_t i = i0; i < i1; i++) {
        ttdi_item *it = &p->lv[s][L].items[i];
        if (!(it->state & 1) && sur[2 * it->grp + (uint32_t)s]) {
            sur[2 * it->grp + (uint32_t)s]--;
            it->state |= 1;
        }
        any |= it->state & 1;
    }
    return any;
}

/* 1 if hunk h touches an item of side s marked differing. */
static int marked(const ttdi_ipair *p, size_t L, const ttdi_hunk *h, int s)
{
    size_t i0, i1;

    touched(&p->lv[s][L], s ? h->b0 : h->a0, s ? h->b1 : h->a1, &i0, &i1);
    for (size_t i = i0; i < i1; i++)
        if (p->lv[s][L].items[i].state & 1)
            return 1;
    return 0;
}

/* Is pair p part of pool k's comparison (its items kept at the pool's
 * level)? */
static int in_pool(const ttdi_aligner *al, const ttdi_ipair *p, size_t k)
{
    size_t L = al->s->pools[k].level;
    return p->pool == (int)k && p->nlv[0] > L && p->nlv[1] > L && p->lv[0][L].kept &&
           p->lv[1][L].kept;
}

/* Drop the hunks of p whose keep[] is 0. */
static void drop_hunks(ttdi_ipair *p, const uint8_t *keep)
{
    size_t n = 0;

    for (size_t i = 0; i < p->nh; i++) {
        if (!keep[i])
            continue;
        p->h[n] = p->h[i];
        if (p->exp)
            p->exp[n] = p->exp[i];
        if (p->reps) {
            p->reps[2 * n] = p->reps[2 * i];
            p->reps[2 * n + 1] = p->reps[2 * i + 1];
        }
        n++;
    }
    p->nh = n;
}

/* ---- the second look: inside the items that differ ----------------------------- */

/* The sub-items of side s of p, when its loop level is L (its deepest). */
static const ttdi_level *subs_of(const ttdi_ipair *p, int s, size_t L)
{
    return p->nlv[s] == L + 1 && p->lv[s][L].subs ? &p->lv[s][L] : NULL;
}

/* Select (state bit 2) the items whose calls the second look compares:
 * the bad run's items that differ (those its hunks touch), and as many of
 * the good run's items of each hash as it did more often than the bad run
 * (which of them does not matter: same hash, same calls). cnt: the
 * surplus per group, used up here. */
static void select_good(ttdi_level *lv, uint64_t *cnt, int pass)
{
    for (size_t j = 0; j < lv->n; j++) {
        ttdi_item *it = &lv->items[j];
        uint64_t *left = &cnt[2 * it->grp];
        if (*left && !(it->state & 2) && (pass || (it->state & 1))) {
            it->state |= 2;
            --*left;
        }
    }
}

static void select_items(ttdi_aligner *al, size_t k, uint64_t *cnt)
{
    size_t L = al->s->pools[k].level;

    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < al->s->nip; i++) {
            const ttdi_ipair *p = &al->s->ip[i];
            if (!in_pool(al, p, k))
                continue;
            select_good(&p->lv[0][L], cnt, pass);
            ttdi_item *b = p->lv[1][L].items;
            for (size_t j = 0; !pass && j < p->lv[1][L].n; j++)
                b[j].state |= (uint8_t)((b[j].state & 1) << 1);
        }
}

/* The calls made by the selected items (select_items), both runs, as one
 * more multiset: a sub-item one run made more often is marked differing
 * (state 1), the first ones in the pool's order. */
/* The sub-items of lv whose item is selected: counted into *n, and into
 * v at *m if v. */
static void collect_subs(const ttdi_level *lv, ttdi_item **v, size_t *m, size_t *n)
{
    for (size_t j = 0; lv && j < lv->nsubs; j++) {
        lv->subs[j].state = 0;
        if (!(lv->items[lv->subs[j].parent].state & 2))
            continue;
        if (v)
            v[(*m)++] = &lv->subs[j];
        else
            (*n)++;
    }
}

static int sub_surplus(ttdi_aligner *al, size_t k, uint64_t *cnt)
{
    size_t L = al->s->pools[k].level, n[2] = {0, 0};

    select_items(al, k, cnt);
    for (int pass = 0; pass < 2; pass++) {
        ttdi_item **v = NULL;
        if (pass && !(v = malloc((n[0] + n[1] + 1) * sizeof *v)))
            return TT_ENOMEM;
        size_t m[2] = {0, n[0]};
        for (size_t i = 0; i < al->s->nip; i++)
            for (int s = 0; s < 2 && in_pool(al, &al->s->ip[i], k); s++)
                collect_subs(subs_of(&al->s->ip[i], s, L), v, &m[s], &n[s]);
        if (!pass)
            continue;
        uint64_t *sur;
        long groups = ttdi_items_surplus(v, n[0], v + n[0], n[1], &sur);
        for (size_t j = 0; groups >= 0 && j < n[0] + n[1]; j++) {
            uint64_t *left = &sur[2 * v[j]->grp + (j >= n[0])];
            v[j]->state = *left > 0;
            *left -= *left > 0;
        }
        free(v);
        free(sur);
        if (groups < 0)
            return (int)groups;
    }
    return 0;
}

/* 1 if hunk h touches a sub-item of side s marked differing. */
static int sub_marked(const ttdi_ipair *p, size_t L, const ttdi_hunk *h, int s)
{
    const ttdi_level *lv = subs_of(p, s, L);
    size_t i0, i1;

    if (!lv)
        return 0;
    touched_in(lv->subs, lv->nsubs, s ? h->b0 : h->a0, s ? h->b1 : h->a1, &i0, &i1);
    for (size_t i = i0; i < i1; i++)
        if (lv->subs[i].state)
            return 1;
    return 0;
}

/* The bad item (loop level L) that holds all of hunk h's bad side and
 * differs, or SIZE_MAX. */
static size_t bad_item_of(const ttdi_ipair *p, size_t L, const ttdi_hunk *h)
{
    size_t i0, i1;

    touched(&p->lv[1][L], h->b0, h->b1, &i0, &i1);
    return i1 == i0 + 1 && (p->lv[1][L].items[i0].state & 1) ? i0 : SIZE_MAX;
}

/* The second look, for the kept hunks of p that lie inside one bad item
 * that differs: when some of them touch a call that the items that
 * differ made more often in one run (the error path), the others (an item
 * aligned against an item of another kind, which another worker did) are
 * dropped. An item none of whose hunks touches one keeps them all (the
 * difference is deeper). */
static int second_look(const ttdi_ipair *p, size_t L, uint8_t *keep)
{
    if (!subs_of(p, 1, L))
        return 0;
    uint8_t *hit = calloc(p->lv[1][L].n + 1, 1);
    if (!hit)
        return TT_ENOMEM;
    for (int pass = 0; pass < 2; pass++)
        for (size_t j = 0; j < p->nh; j++) {
            size_t it = keep[j] ? bad_item_of(p, L, &p->h[j]) : SIZE_MAX;
            int sub = it != SIZE_MAX &&
                      (sub_marked(p, L, &p->h[j], 1) || sub_marked(p, L, &p->h[j], 0));
            if (it != SIZE_MAX && !pass)
                hit[it] |= (uint8_t)sub;
            else if (it != SIZE_MAX && hit[it] && !sub)
                keep[j] = 0;
        }
    free(hit);
    return 0;
}

/* Is key among keys[0..n) (sorted)? */
static int key_in(const uint64_t *keys, size_t n, uint64_t key)
{
    size_t a = 0, z = n;

    while (a < z) {
        size_t m = a + (z - a) / 2;
        if (keys[m] < key)
            a = m + 1;
        else
            z = m;
    }
    return a < n && keys[a] == key;
}

/* Mark the good-run items hunk h touches whose group has surplus left and
 * whose function is none of the bad-only items' (keys[0..n)). */
static void claim_other(ttdi_ipair *p, size_t L, const ttdi_hunk *h, uint64_t *sur,
                        const uint64_t *keys, size_t n)
{
    size_t i0, i1;

    touched(&p->lv[0][L], h->a0, h->a1, &i0, &i1);
    for (size_t i = i0; i < i1; i++) {
        ttdi_item *it = &p->lv[0][L].items[i];
        if (!(it->state & 1) && sur[2 * it->grp] && !key_in(keys, n, it->key)) {
            sur[2 * it->grp]--;
            it->state |= 1;
        }
    }
}

/* One pass of settle_hunks over pair p's hunks inside the loop: 0 claims
 * the bad items, 1 the good items of hunks that hold a bad one, 2 all, 3
 * the good items of functions the bad run did no item of its own of. */
static void claim_pass(ttdi_ipair *p, size_t L, uint64_t *sur, int pass, const uint64_t *keys,
                       size_t nkeys)
{
    for (size_t j = 0; j < p->nh; j++) {
        if (!inside(p, &p->h[j], L))
            continue;
        if (pass == 0)
            claim(p, L, &p->h[j], 1, sur);
        else if (pass == 3)
            claim_other(p, L, &p->h[j], sur, keys, nkeys);
        else if (pass == 2 || claim(p, L, &p->h[j], 1, sur))
            claim(p, L, &p->h[j], 0, sur);
    }
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* The functions (ENTER keys) of the items the bad run alone did in pool
 * k (groups with a bad-only surplus in cnt), sorted, into *out (malloc'd);
 * their count, or TT_ENOMEM. */
static long bad_only_keys(const ttdi_aligner *al, size_t k, const uint64_t *cnt, uint64_t **out)
{
    size_t L = al->s->pools[k].level, n = 0, cap = 0;

    for (size_t i = 0; i < al->s->nip; i++)
        if (in_pool(al, &al->s->ip[i], k))
            cap += al->s->ip[i].lv[1][L].n;
    uint64_t *v = malloc((cap + 1) * sizeof *v);
    if (!v)
        return TT_ENOMEM;
    for (size_t i = 0; i < al->s->nip; i++) {
        if (!in_pool(al, &al->s->ip[i], k))
            continue;
        const ttdi_level *lv = &al->s->ip[i].lv[1][L];
        for (size_t j = 0; j < lv->n; j++)
            if (cnt[2 * lv->items[j].grp + 1])
                v[n++] = lv->items[j].key;
    }
    qsort(v, n, sizeof *v, cmp_u64);
    size_t m = 0;
    for (size_t j = 0; j < n; j++)
        if (!m || v[m - 1] != v[j])
            v[m++] = v[j];
    *out = v;
    return (long)m;
}

/* Which hunks of the pool's pairs touch a surplus item: bad-only items
 * first, then the good-only ones of hunks that hold a bad-only item (the
 * item the bad run did instead); the other good-only items when the bad
 * run did nothing the good one did not (it did less), or when the bad run
 * did no item of their function of its own: an item the bad run did
 * instead is one of the same function (the job that took its error
 * path), so an extra wait in the bad run does not hide a job's missing
 * call (xz's worker: lzma_free, good run only, beside one more
 * mythread_cond_wait in the bad run). Hunks that touch none are dropped. */
static int settle_hunks(ttdi_aligner *al, size_t k, uint64_t *sur, uint64_t *cnt, long groups)
{
    uint64_t bad_only = 0, *keys = NULL;
    size_t L = al->s->pools[k].level;
    long nkeys = 0;

    for (long g = 0; g < groups; g++)
        bad_only += sur[2 * g + 1];
    if (bad_only && (nkeys = bad_only_keys(al, k, cnt, &keys)) < 0)
        return TT_ENOMEM;
    for (int pass = 0; pass < 3; pass++)
        for (size_t i = 0; i < al->s->nip; i++)
            if (in_pool(al, &al->s->ip[i], k))
                claim_pass(&al->s->ip[i], L, sur, pass == 2 && bad_only ? 3 : pass, keys,
                           (size_t)nkeys);
    free(keys);
    if (sub_surplus(al, k, cnt) < 0)
        return TT_ENOMEM;
    for (size_t i = 0; i < al->s->nip; i++) {
        ttdi_ipair *p = &al->s->ip[i];
        if (!in_pool(al, p, k) || !p->nh)
            continue;
        uint8_t *keep = malloc(p->nh);
        if (!keep)
            return TT_ENOMEM;
        for (size_t j = 0; j < p->nh; j++)
            keep[j] = (uint8_t)(!inside(p, &p->h[j], L) || marked(p, L, &p->h[j], 0) ||
                                marked(p, L, &p->h[j], 1));
        int rc = second_look(p, L, keep);
        if (rc >= 0)
            drop_hunks(p, keep);
        free(keep);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* The deepest level all of pool k's threads share (same calls on the way
 * down), where its work items are. */
static size_t pool_level(const ttdi_aligner *al, size_t k)
{
    const ttdi_ipair *ref = NULL;
    size_t L = SIZE_MAX;

    for (size_t i = 0; i < al->s->nip; i++) {
        const ttdi_ipair *p = &al->s->ip[i];
        if (p->pool != (int)k || !p->nlv[0] || !p->nlv[1])
            continue;
        if (!ref)
            ref = p;
        for (int s = 0; s < 2; s++) {
            size_t j = 0;
            while (j < p->nlv[s] && j < ref->nlv[0] && j <= L &&
                   p->lv[s][j].key == ref->lv[0][j].key)
                j++;
            L = j ? (j - 1 < L ? j - 1 : L) : 0;
        }
    }
    return L == SIZE_MAX ? 0 : L;
}

/* Pool k: its level, items and the multiset comparison. */
static int settle_pool(ttdi_aligner *al, size_t k)
{
    ttdi_pool *pl = &al->s->pools[k];
    size_t n[2] = {0, 0}, L = pl->level = pool_level(al, k);

    int over = 0;
    for (size_t i = 0; i < al->s->nip; i++) {
        const ttdi_ipair *p = &al->s->ip[i];
        for (int s = 0; s < 2 && p->pool == (int)k; s++) {
            pl->items[s] += p->nlv[s] > L ? p->lv[s][L].total : 0;
            over |= p->nlv[s] && p->lv[s][p->nlv[s] - 1].over;
        }
        if (in_pool(al, p, k))
            n[0] += p->lv[0][L].n, n[1] += p->lv[1][L].n;
    }
    pl->over = over;
    if ((!n[0] && !n[1]) || over) /* over: a thread too different, per-thread hunks */
        return 0;
    ttdi_item **v = malloc((n[0] + n[1] + 1) * sizeof *v);
    if (!v)
        return TT_ENOMEM;
    size_t m[2] = {0, n[0]};
    for (size_t i = 0; i < al->s->nip; i++)
        for (int s = 0; s < 2 && in_pool(al, &al->s->ip[i], k); s++)
            for (size_t j = 0; j < al->s->ip[i].lv[s][L].n; j++)
                v[m[s]++] = &al->s->ip[i].lv[s][L].items[j];
    uint64_t *sur;
    long groups = ttdi_items_surplus(v, n[0], v + n[0], n[1], &sur);
    free(v);
    if (groups < 0)
        return (int)groups;
    for (long g = 0; g < groups; g++)
        pl->differing += sur[2 * g] + sur[2 * g + 1];
    uint64_t *cnt = malloc(2 * ((size_t)groups + 1) * sizeof *cnt);
    int rc = cnt ? 0 : TT_ENOMEM;
    if (cnt) {
        memcpy(cnt, sur, 2 * (size_t)groups * sizeof *cnt);
        rc = settle_hunks(al, k, sur, cnt, groups);
    }
    free(cnt);
    free(sur);
    return rc;
}

/* ---- call values in a pool ------------------------------------------------------ */

/* The rule by the calls alone, where items cannot be matched by their
 * values (too many, or too long to compare): is a value difference at key
 * indexes idx (good, bad) of pool pair p one to keep? Inside the worker
 * loop only within an item the bad run alone did: elsewhere the aligned
 * calls are of whichever items the two threads took (item 4 against item
 * 7), and their arguments differ for that reason only. */
static int call_kept(const ttdi_ipair *p, size_t L, const uint64_t idx[2])
{
    const ttdi_level *g = &p->lv[0][L], *b = &p->lv[1][L];
    size_t i0, i1;

    if (idx[0] < g->lr[0] || idx[0] >= g->lr[1] || idx[1] < b->lr[0] || idx[1] >= b->lr[1])
        return 1;
    touched_in(b->items, b->n, idx[1], idx[1] + 1, &i0, &i1);
    return i1 > i0 && (b->items[i0].state & 1);
}

/* The level of the item a value difference at idx (good, bad) of pair p
 * lies in: the deepest level up to L whose children's ranges hold it on
 * both sides (a worker that took one item: the item's own arguments lie
 * a level above its loop's, inside the item). */
static size_t value_level(const ttdi_ipair *p, size_t L, const uint64_t idx[2])
{
    for (size_t j = L + 1; j-- > 0;) {
        const uint64_t *g = p->lv[0][j].lr, *b = p->lv[1][j].lr;
        if (idx[0] >= g[0] && idx[0] < g[1] && idx[1] >= b[0] && idx[1] < b[1])
            return j;
    }
    return SIZE_MAX;
}

/* An item its partner did not match (other calls or values): matched
 * across the pool afterwards. */
typedef struct vleft {
    ttdi_item *it;          /* the item (a level's vitems) */
    ttdi_walk w;            /* a walk at its first event (read) */
    size_t pair;            /* its pair */
    int hasd;               /* bad side: d holds its first value that
                               differs from its partner's */
    ttdi_vdiff d;
} vleft;

/* Matching one level of a pool by calls and values. */
typedef struct vmatch {
    ttdi_aligner *al;
    ttdi_openset *noise;    /* value slots good runs vary in, NULL */
    vleft *left[2];         /* items left after their partners, per run */
    size_t nleft[2];
    uint64_t budget;        /* events left to compare (VSPAN_MAX) */
    int undecided;          /* 1: a cap reached: the rule by the calls */
} vmatch;

/* Keep clone c of side s's walk at item it (pair i) as left over; d: the
 * difference from its partner. Takes c. 0 or TT_ENOMEM. */
static int push_left(vmatch *m, int s, ttdi_item *it, size_t i, ttdi_walk *c,
                     const ttdi_vfound *d)
{
    if (!m->left[s] && !(m->left[s] = calloc(VLEFT_MAX, sizeof *m->left[s]))) {
        ttdi_walk_close(c);
        return TT_ENOMEM;
    }
    if (m->nleft[s] >= VLEFT_MAX) {
        m->undecided = 1;
        ttdi_walk_close(c);
        return 0;
    }
    vleft *l = &m->left[s][m->nleft[s]++];
    memset(l, 0, sizeof *l);
    l->it = it;
    l->w = *c;
    l->pair = i;
    l->hasd = d && d->found;
    if (l->hasd)
        l->d = d->first;
    return 0;
}

/* Compare the calls and values of the items at walks a, b (their first
 * events read; advanced) if they have the same calls and the budget
 * allows: 1 the same, 0 not, TT_E*; f: the first difference. */
static int same_items(vmatch *m, const ttdi_item *g, const ttdi_item *b, ttdi_walk *wg,
                      ttdi_walk *wb, ttdi_vfound *f)
{
    uint64_t len = b->raw1 - b->raw0;

    if (g->hash != b->hash || g->raw1 - g->raw0 != len)
        return 0;
    if (m->budget < len) {
        m->undecided = 1;
        return 0;
    }
    m->budget -= len;
    return ttdi_values_span(wg, wb, len, m->noise, f);
}

/* Item it[0] (good) against it[1] (bad), the items at one place of pair
 * i (either NULL: that thread did fewer), with the pair's walks w: matched
 * (state 1) when the same, else each kept as left over. 0 or TT_E*. */
static int match_two(vmatch *m, size_t i, ttdi_item *it[2], ttdi_walk w[2])
{
    ttdi_walk c[2];
    ttdi_vfound f;
    int have[2] = {0, 0}, rc = 0;

    memset(&f, 0, sizeof f);
    for (int s = 0; s < 2 && rc >= 0 && !m->undecided; s++) {
        if (!it[s])
            continue;
        if ((rc = ttdi_values_seek(&w[s], it[s]->raw0)) == 0)
            m->undecided = 1;   /* the key index is not there */
        if (rc > 0 && (rc = ttdi_walk_clone(&w[s], &c[s])) >= 0)
            have[s] = 1;
    }
    if (rc >= 0 && !m->undecided && it[0] && it[1])
        rc = same_items(m, it[0], it[1], &w[0], &w[1], &f);
    if (rc > 0)
        it[0]->state = it[1]->state = 1;
    for (int s = 0; s < 2; s++) {
        if (have[s] && rc == 0 && !m->undecided)
            rc = push_left(m, s, it[s], i, &c[s], s ? &f : NULL);
        else if (have[s])
            ttdi_walk_close(&c[s]);
    }
    ttdi_vfound_free(&f);
    return rc < 0 ? rc : 0;
}

/* Has pair p's own values walk already found items g, b the same? Its
 * threads the same keys (each item against the one at its place) and no
 * value difference up to b's end. */
static int seen_same(const ttdi_ipair *p, const ttdi_item *g, const ttdi_item *b)
{
    return p->same && g && b && g->hash == b->hash &&
           (!p->vf.found || b->raw1 <= p->vf.first.idx[1]);
}

/* The first pass: each item of pair i at level j against its partner, the
 * item at the same place of the other run's thread. 0 or TT_E*. */
static int match_pair(vmatch *m, size_t i, size_t j)
{
    ttdi_ipair *p = &m->al->s->ip[i];
    ttdi_level *g = &p->lv[0][j], *b = &p->lv[1][j];
    size_t n = g->nv > b->nv ? g->nv : b->nv;
    ttdi_walk w[2];
    int open = 0, rc = 0;

    for (size_t k = 0; k < n && rc >= 0 && !m->undecided; k++) {
        ttdi_item *it[2] = {k < g->nv ? &g->vitems[k] : NULL, k < b->nv ? &b->vitems[k] : NULL};
        if (seen_same(p, it[0], it[1])) {
            it[0]->state = it[1]->state = 1;
            continue;
        }
        if (!open && (rc = ttdi_walk_keyed(&w[0], &m->al->r[TTD_GOOD].norm, p->t[0])) >= 0 &&
            (rc = ttdi_walk_keyed(&w[1], &m->al->r[TTD_BAD].norm, p->t[1])) < 0)
            ttdi_walk_close(&w[0]);
        open |= rc >= 0;
        if (rc >= 0)
            rc = match_two(m, i, it, w);
    }
    if (open) {
        ttdi_walk_close(&w[0]);
        ttdi_walk_close(&w[1]);
    }
    return rc;
}

/* The second pass: each bad item left over against the good ones left
 * over, whichever thread did them (same calls, same values: the same work
 * on another worker). 0 or TT_E*. */
static int match_left(vmatch *m)
{
    int rc = 0;

    for (size_t b = 0; b < m->nleft[1] && rc >= 0 && !m->undecided; b++) {
        vleft *lb = &m->left[1][b];
        for (size_t g = 0; g < m->nleft[0] && !(lb->it->state & 1) && rc >= 0; g++) {
            vleft *lg = &m->left[0][g];
            ttdi_walk c[2];
            ttdi_vfound f;
            if (lg->it->state & 1)
                continue;
            memset(&f, 0, sizeof f);
            if ((rc = ttdi_walk_clone(&lg->w, &c[0])) < 0)
                break;
            if ((rc = ttdi_walk_clone(&lb->w, &c[1])) >= 0) {
                rc = same_items(m, lg->it, lb->it, &c[0], &c[1], &f);
                ttdi_walk_close(&c[1]);
            }
            ttdi_walk_close(&c[0]);
            ttdi_vfound_free(&f);
            if (rc > 0)
                lg->it->state = lb->it->state = 1;
        }
    }
    return rc < 0 ? rc : 0;
}

/* Match pool k's items at level j by calls and values (vitems state 1),
 * into m. 0 or TT_E*; m->undecided when they cannot be (an item list not
 * kept, a cap reached). */
static int match_level(vmatch *m, size_t k, size_t j)
{
    ttdi_script *sc = m->al->s;
    int rc = 0;

    for (size_t i = 0; i < sc->nip && rc >= 0 && !m->undecided; i++) {
        ttdi_ipair *p = &sc->ip[i];
        if (p->pool != (int)k || p->nlv[0] <= j || p->nlv[1] <= j)
            continue;
        m->undecided = p->lv[0][j].vover || p->lv[1][j].vover;
        for (size_t v = 0; v < p->lv[0][j].nv; v++)
            p->lv[0][j].vitems[v].state = 0;
        for (size_t v = 0; v < p->lv[1][j].nv; v++)
            p->lv[1][j].vitems[v].state = 0;
        if (!m->undecided)
            rc = match_pair(m, i, j);
    }
    return rc >= 0 && !m->undecided ? match_left(m) : rc;
}

static void vmatch_free(vmatch *m)
{
    for (int s = 0; s < 2; s++) {
        for (size_t i = 0; i < m->nleft[s]; i++)
            ttdi_walk_close(&m->left[s][i].w);
        free(m->left[s]);
    }
}

/* Is a value difference at idx (good, bad) of pair p, at level j, one to
 * keep? When its bad item has no twin in the good run's pool (m). */
static int value_kept(const ttdi_ipair *p, size_t L, size_t j, const uint64_t idx[2],
                      const vmatch *m)
{
    const ttdi_level *b = &p->lv[1][j];
    size_t i0, i1;

    if (m->undecided)
        return call_kept(p, L, idx);
    touched_in(b->vitems, b->nv, idx[1], idx[1] + 1, &i0, &i1);
    return i1 == i0 || !(b->vitems[i0].state & 1);
}

/* Pair i's value differences at level j that only say which worker took
 * which item (value_kept) dropped; when none is left and its threads are
 * the same keys, its first bad item at j with no twin gives the first
 * difference (its values against its partner's): the pair's own walk
 * recorded only the first, which may have been a dropped one. */
static void drop_values(ttdi_aligner *al, size_t i, size_t L, size_t j, const vmatch *m)
{
    ttdi_ipair *p = &al->s->ip[i];
    ttdi_vfound *f = &p->vf;
    size_t n = 0;

    if (f->found && value_level(p, L, f->first.idx) == j &&
        !value_kept(p, L, j, f->first.idx, m))
        f->found = 0;
    for (size_t r = 0; r < f->nrets; r++)
        if (value_level(p, L, f->rets[r].idx) != j || value_kept(p, L, j, f->rets[r].idx, m))
            f->rets[n++] = f->rets[r];
    f->nrets = n;
    for (size_t l = 0; !f->found && p->same && !m->undecided && l < m->nleft[1]; l++) {
        const vleft *lb = &m->left[1][l];
        if (lb->pair == i && lb->hasd && !(lb->it->state & 1)) {
            f->found = 1;
            f->first = lb->d;
        }
    }
}

/* The bad items left over that found a twin (m) into their pairs' twins
 * (the explain stage's replay hides their values). 0 or TT_ENOMEM. */
static int note_twins(ttdi_aligner *al, const vmatch *m)
{
    for (size_t l = 0; l < m->nleft[1]; l++) {
        const vleft *lb = &m->left[1][l];
        ttdi_ipair *p = &al->s->ip[lb->pair];
        if (!(lb->it->state & 1))
            continue;
        uint64_t *t = realloc(p->twins, 2 * (p->ntwins + 1) * sizeof *t);
        if (!t)
            return TT_ENOMEM;
        t[2 * p->ntwins] = lb->it->raw0;
        t[2 * p->ntwins + 1] = lb->it->raw1;
        p->twins = t;
        p->ntwins++;
    }
    return 0;
}

static int cmp_range(const void *x, const void *y)
{
    const uint64_t *a = x, *b = y;
    return (a[0] > b[0]) - (a[0] < b[0]);
}

/* The levels (bit j) of pool k's value differences. */
static uint64_t value_levels(const ttdi_aligner *al, size_t k)
{
    size_t L = al->s->pools[k].level;
    uint64_t need = 0;

    for (size_t i = 0; i < al->s->nip; i++) {
        const ttdi_ipair *p = &al->s->ip[i];
        if (p->pool != (int)k || p->nlv[0] <= L || p->nlv[1] <= L)
            continue;
        size_t j = p->vf.found ? value_level(p, L, p->vf.first.idx) : SIZE_MAX;
        need |= j < 64 ? 1ull << j : 0;
        for (size_t r = 0; r < p->vf.nrets; r++)
            if ((j = value_level(p, L, p->vf.rets[r].idx)) < 64)
                need |= 1ull << j;
    }
    return need;
}

/* Drop the value differences of pool k's pairs that only say which
 * worker took which item: a bad item's values differ from its partner's,
 * but another item of the good run's pool, same calls and same values,
 * is its twin. Items are matched one to one, first with their partners,
 * then across the pool's threads, at the level of the item each
 * difference lies in; past the caps (VITEMS_MAX, VLEFT_MAX, VSPAN_MAX),
 * by the calls alone (call_kept). 0 or TT_E*. */
static int pool_values(ttdi_aligner *al, size_t k)
{
    size_t L = al->s->pools[k].level;
    uint64_t need = al->s->pools[k].over ? 0 : value_levels(al, k);
    int rc = 0;

    for (size_t j = 0; j <= L && j < 64 && rc >= 0; j++) {
        if (!(need >> j & 1))
            continue;
        vmatch m = {al, al->nbase ? &al->s->noise : NULL, {NULL, NULL}, {0, 0}, VSPAN_MAX, 0};
        rc = match_level(&m, k, j);
        for (size_t i = 0; i < al->s->nip && rc >= 0; i++) {
            const ttdi_ipair *p = &al->s->ip[i];
            if (p->pool == (int)k && p->nlv[0] > L && p->nlv[1] > L)
                drop_values(al, i, L, j, &m);
        }
        if (rc >= 0 && !m.undecided)
            rc = note_twins(al, &m);
        vmatch_free(&m);
    }
    for (size_t i = 0; i < al->s->nip && rc >= 0; i++)
        if (al->s->ip[i].pool == (int)k && al->s->ip[i].ntwins > 1)
            qsort(al->s->ip[i].twins, al->s->ip[i].ntwins, 2 * sizeof(uint64_t), cmp_range);
    return rc;
}

int ttdi_pools_settle(ttdi_aligner *al)
{
    int rc = 0;

    for (size_t k = 0; k < al->s->npools && rc >= 0; k++) {
        rc = settle_pool(al, k);
        if (rc >= 0)
            rc = pool_values(al, k);
    }
    for (size_t i = 0; i < al->s->nip; i++)
        ttdi_pool_free(&al->s->ip[i]);
    return rc;
}
