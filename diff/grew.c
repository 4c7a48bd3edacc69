/*
 * grew.c - a pool that started one more worker in one run: the extra
 * thread and what its creator did to start it are no divergence when the
 * pool did the same work in both runs. Stage 1 align of diff/STAGES (its
 * header: state.h).
 *
 * Design. A thread pool that starts workers on demand starts one more
 * when a job finds none free (xz's get_thread: initialize_new_thread in
 * one run; in the next the first worker was free again and took the
 * job). The extra thread has no partner, and its creator made calls the
 * other run did not. Both are timing, not the program, when the trace
 * proves the same work was done; per run X that has threads without a
 * partner while the other run Y has none, per group of them that share a
 * start function and a name but for its digits (pools.c's key), with at
 * least one pair of such threads:
 * - the work: the calls each thread of the group made at its top level's
 *   first level (the children of its start function: the worker loop's
 *   items), over all the group's threads of each run, compared as two
 *   multisets of subtree hashes (a call that made no calls by its ENTER
 *   alone, so a wait the process exit cut equals one that returned). Y
 *   must have no item X lacks, and each item only X has must be a call
 *   that made no calls and recorded a lock, unlock, condition wait or
 *   signal itself (what a worker does around taking a job), at most one
 *   of each function per extra thread: the extra worker's own turn of the
 *   loop's locking, nothing of the work;
 * - the creator: the thread whose CREATE started the extra thread, paired.
 *   Each of its hunks not otherwise judged, one-sided in X, is the
 *   creation itself (one whole call that holds that CREATE) or lies inside
 *   the first call K of its function (call site included) after that
 *   CREATE whose subtree is, call for call, the subtree of the first call
 *   of that function after the creator started its first worker of the
 *   pool, in X and in Y alike (the fresh-worker template: xz's
 *   lzma_block_decoder_init for a new thread, where the other run's reused
 *   thread ran the shorter path).
 * The hunks of the group's pairs that lie inside both threads' start
 * calls are then which worker took which item (the work is alike), as in
 * pools.c. One extra thread per group (a pool that grew by more is left
 * alone). Those hunks are marked TTD_TIMING_GREW, all of them or none,
 * and the extra thread is recorded (ttdi_script.grown) so that counts.c
 * does not take its calls for facts and the verdict states the evidence.
 * Anything else (a worker that did an item no thread of the other run
 * did, a creator whose call after the creation is not the template, a
 * thread of the other run left without partner) leaves every difference
 * as it was: a divergence.
 * Cost: nothing unless a run has a thread without a partner; then one
 * keyed walk over each thread of the group and two over the creator,
 * one over its partner (at most GROUP_MAX threads, HUNKS_MAX hunks).
 */
#include <stdlib.h>
#include <string.h>

#include "state.h"

#define GROUP_MAX 64        /* threads of one group compared, at most */
#define HUNKS_MAX 64        /* creator hunks judged, at most */
#define STACK_MAX 4096      /* open calls a walk follows */
#define OPEN_MARK 0x5bd1e995u    /* an item still open at the thread's end */

/* One open call of a walk. */
typedef struct frame {
    uint64_t key, lo, pre;  /* ENTER key, its key index, prefix hash before */
    uint32_t calls;         /* calls it made */
    uint8_t sync;           /* a lock, unlock, wait or signal recorded in it */
} frame;

/* One item: a call at the first level under a thread's start function. */
typedef struct item {
    uint64_t hash, key;
    uint8_t leaf, sync;
} item;

/* What a walk of a creator reports. */
typedef struct hole {
    uint64_t lo, hi;        /* a hunk's one side (key indexes) */
    uint64_t exact;         /* a call exactly [lo, hi) that holds the CREATE
                               of `target`: 1 */
    uint64_t key, klo, khash; /* the innermost call strictly around it */
    int found;
} hole;

typedef struct query {
    uint64_t key;           /* first call of this key ... */
    int64_t after;          /* ... after the CREATE of this thread */
    uint64_t pos;           /* where that CREATE was (key index), armed */
    int armed, done;
    uint64_t lo, hash;      /* the answer */
} query;

/* A walk's state. */
typedef struct gwalk {
    frame st[STACK_MAX];
    size_t depth;
    uint64_t pre, idx;
    int over;               /* deeper than STACK_MAX: give up */
    uint64_t top[2];        /* the first top-level call: its ENTER's and
                               EXIT's key index (UINT64_MAX: never left) */
    /* items (pool threads) */
    int want;               /* 1: collect items */
    item *it;
    size_t nit, cap;
    /* creator */
    int64_t target;         /* the extra thread (its CREATE) */
    uint64_t tpos;          /* where its CREATE was, UINT64_MAX none */
    int64_t first;          /* the first pool thread it created, -1 */
    const uint8_t *group;   /* per thread of the run: 1 in the group */
    size_t ngroup;
    hole *ho;
    size_t nho;
    query *q;
    size_t nq;
} gwalk;

static int is_sync(int code)
{
    return code == TTF_SOP_LOCK || code == TTF_SOP_TRYLOCK || code == TTF_SOP_UNLOCK ||
           code == TTF_SOP_WAIT || code == TTF_SOP_WOKE || code == TTF_SOP_SIGNAL ||
           code == TTF_SOP_BROADCAST;
}

static int push_item(gwalk *g, item x)
{
    if (g->nit == g->cap && ttdi_grow(&g->it, &g->cap, g->nit + 1, sizeof *g->it, 64) < 0)
        return TT_ENOMEM;
    g->it[g->nit++] = x;
    return 0;
}

/* A sync operation or CREATE record at key index g->idx. */
static void sync_op(gwalk *g, const ttf_event *ev)
{
    if (is_sync(ev->code) && g->depth)
        g->st[g->depth - 1].sync = 1;
    if (ev->code != TTF_SOP_CREATE || ev->sync_arg < 0)
        return;
    if (ev->sync_arg == g->target && g->tpos == UINT64_MAX)
        g->tpos = g->idx;
    if (g->first < 0 && g->group && (size_t)ev->sync_arg < g->ngroup &&
        g->group[ev->sync_arg] && ev->sync_arg != g->target)
        g->first = ev->sync_arg;
    for (size_t i = 0; i < g->nq; i++)
        if (!g->q[i].armed && g->q[i].after == ev->sync_arg) {
            g->q[i].armed = 1;
            g->q[i].pos = g->idx;
        }
}

/* The call f closed at key index hi (exclusive) with hash h. */
static void closed(gwalk *g, const frame *f, uint64_t hi, uint64_t h)
{
    for (size_t i = 0; i < g->nho; i++) {
        hole *o = &g->ho[i];
        if (f->lo == o->lo && hi == o->hi && g->tpos > f->lo && g->tpos < hi)
            o->exact = 1;
        int around = f->lo < o->lo && o->hi < hi;
        if (around && (!o->found || f->lo > o->klo)) {  /* the innermost */
            o->found = 1;
            o->key = f->key;
            o->klo = f->lo;
            o->khash = h;
        }
    }
    for (size_t i = 0; i < g->nq; i++) {
        query *q = &g->q[i];
        if (q->armed && !q->done && q->key == f->key && f->lo > q->pos) {
            q->done = 1;
            q->lo = f->lo;
            q->hash = h;
        }
    }
}

/* The item hash of frame f (closed at hi with prefix hash h, or open). */
static uint64_t item_hash(const frame *f, uint64_t h, int open)
{
    if (!f->calls)
        return f->key * TTDI_HB + 1;     /* by its ENTER alone */
    return open ? h ^ OPEN_MARK : h;
}

static int enter(gwalk *g, uint64_t key)
{
    if (g->depth >= STACK_MAX) {
        g->over = 1;
        return 0;
    }
    if (g->depth)
        g->st[g->depth - 1].calls++;
    else if (g->top[0] == UINT64_MAX)
        g->top[0] = g->idx;
    g->st[g->depth++] = (frame){key, g->idx, g->pre, 0, 0};
    return 0;
}

static int leave(gwalk *g)
{
    if (!g->depth)
        return 0;
    frame *f = &g->st[--g->depth];
    uint64_t hi = g->idx + 1, h = g->pre - f->pre * ttdi_hb_pow(hi - f->lo);
    if (!g->depth && f->lo == g->top[0])
        g->top[1] = g->idx;
    closed(g, f, hi, h);
    if (g->depth == 1 && g->want)
        return push_item(g, (item){item_hash(f, h, 0), f->key, (uint8_t)!f->calls, f->sync});
    return 0;
}

/* Walk thread th of run r: its items into g->it when want, its CREATE
 * records, the hunks' calls (g->ho) and the queries (g->q). 0 or a TT_E*
 * code; g->over set when the calls went deeper than STACK_MAX (then
 * nothing is judged). */
static int walk(ttdi_run_state *r, uint32_t th, gwalk *g, int want)
{
    ttdi_walk w;
    uint64_t key;
    int rc;

    g->depth = 0;
    g->over = 0;
    g->pre = 0;
    g->idx = 0;
    g->tpos = UINT64_MAX;
    g->top[0] = g->top[1] = UINT64_MAX;
    if ((rc = ttdi_walk_keyed(&w, &r->norm, th)) < 0)
        return rc;
    if ((rc = ttdi_walk_novalues(&w)) < 0)
        goto out;
    g->want = want;
    while (!g->over && (rc = ttdi_walk_next(&w)) > 0) {
        if (w.ev.kind == TTF_EV_SYNC_OP) {
            g->idx = w.next;
            sync_op(g, &w.ev);
            continue;
        }
        if ((rc = ttdi_norm_key(w.norm, &w.ev, &key)) < 0)
            goto out;
        if (!rc)
            continue;
        g->idx = w.next++;
        rc = w.ev.kind == TTF_EV_ENTER ? enter(g, key) : 0;    /* prefix before it */
        g->pre = g->pre * TTDI_HB + key;
        if (rc >= 0 && w.ev.kind == TTF_EV_EXIT)
            rc = leave(g);                                     /* prefix with it */
        if (rc < 0)
            goto out;
    }
    /* an item still open at the end: the exit cut it (a wait that never
     * returned) */
    if (rc >= 0 && want && g->depth >= 2) {
        const frame *f = &g->st[1];
        rc = push_item(g, (item){item_hash(f, g->pre, 1), f->key, (uint8_t)!f->calls, f->sync});
    }
out:
    ttdi_walk_close(&w);
    return rc < 0 ? rc : 0;
}

/* ---- the group and its work ------------------------------------------------- */

/* Is thread t of run r in the group of start function start and name
 * skeleton skel? */
static int in_group(const ttdi_run_state *r, uint32_t t, const char *start, const char *skel)
{
    char s[64];

    if (strcmp(r->ti[t].start, start))
        return 0;
    ttdi_name_skeleton(r->ti[t].name, s, sizeof s);
    return strcmp(s, skel) == 0;
}

static int cmp_item(const void *x, const void *y)
{
    const item *a = x, *b = y;
    return (a->hash > b->hash) - (a->hash < b->hash);
}

/* Do run x's items v[0] cover run y's v[1] as an extra worker's would
 * (module comment)? The surplus count into *extra. */
static int work_alike(item *v[2], size_t n[2], size_t extras, uint64_t *extra)
{
    size_t i = 0, j = 0;
    uint64_t keys[64];
    uint32_t cnt[64];
    size_t nk = 0;

    qsort(v[0], n[0], sizeof *v[0], cmp_item);
    qsort(v[1], n[1], sizeof *v[1], cmp_item);
    *extra = 0;
    while (i < n[0] || j < n[1]) {
        if (i < n[0] && j < n[1] && v[0][i].hash == v[1][j].hash) {
            i++, j++;
            continue;
        }
        if (i >= n[0] || (j < n[1] && v[1][j].hash < v[0][i].hash))
            return 0;   /* an item only the run without the extra thread did */
        const item *s = &v[0][i++];
        if (!s->leaf || !s->sync)
            return 0;   /* work, or a call that did no locking */
        size_t k = 0;
        while (k < nk && keys[k] != s->key)
            k++;
        if (k == nk && nk == 64)
            return 0;
        if (k == nk)
            keys[nk] = s->key, cnt[nk++] = 0;
        if (++cnt[k] > extras)
            return 0;   /* more than one per extra thread */
        ++*extra;
    }
    return 1;
}

/* ---- the creator ------------------------------------------------------------- */

/* The thread of run r that created thread t (its CREATE record), or -1. */
static int creator_of(const ttdi_run_state *r, uint32_t t, int64_t *out)
{
    ttdi_walk w;
    int rc = ttdi_walk_raw(&w, r->t, TTF_ALL_THREADS);

    *out = -1;
    if (rc < 0)
        return rc;
    while (*out < 0 && (rc = ttdi_walk_next(&w)) > 0)
        if (w.ev.kind == TTF_EV_SYNC_OP && w.ev.code == TTF_SOP_CREATE &&
            w.ev.sync_arg == (int64_t)t)
            *out = w.ev.thread;
    ttdi_walk_close(&w);
    return rc < 0 ? rc : 0;
}

/* The pair whose thread in run x is t, or SIZE_MAX. */
static size_t pair_of(const ttdi_aligner *al, int x, uint32_t t)
{
    for (size_t i = 0; i < al->s->nip; i++)
        if (al->s->ip[i].t[x] == t)
            return i;
    return SIZE_MAX;
}

/* One-sided in run x and not judged yet: a hunk of the creator to judge. */
static int open_hunk(const ttdi_ipair *p, size_t i, int x)
{
    const ttdi_hunk *h = &p->h[i];
    size_t lo = x ? h->b0 : h->a0, hi = x ? h->b1 : h->a1;
    size_t olo = x ? h->a0 : h->b0, ohi = x ? h->a1 : h->b1;

    return !(p->tim && p->tim[i]) && !(p->exp && p->exp[i]) && hi > lo && ohi == olo;
}

/* A hunk to mark: pair, hunk. */
typedef struct mark {
    size_t pair, hunk;
} mark;

typedef struct gctx {
    ttdi_aligner *al;
    int x;                  /* the run with the extra thread */
    uint32_t u;             /* the extra thread */
    size_t pc;              /* the creator's pair */
    uint8_t *group[2];      /* per thread: in the group, each run */
    uint64_t (*body[2])[2]; /* per thread of the group: its start call */
    mark *m;                /* the hunks explained */
    size_t nm, cap;
} gctx;

static int add_mark(gctx *c, size_t pair, size_t hunk)
{
    if (c->nm == c->cap && ttdi_grow(&c->m, &c->cap, c->nm + 1, sizeof *c->m, 16) < 0)
        return TT_ENOMEM;
    c->m[c->nm++] = (mark){pair, hunk};
    return 0;
}

/* The creator's hunks that the extra worker explains into c->m; how many
 * are left unexplained, or a TT_E* code. */
static long judge_creator(gctx *c)
{
    ttdi_ipair *p = &c->al->s->ip[c->pc];
    hole ho[HUNKS_MAX];
    size_t hix[HUNKS_MAX], nho = 0;
    gwalk *g = calloc(1, sizeof *g);
    long left = 0;
    int rc;

    if (!g)
        return TT_ENOMEM;
    for (size_t i = 0; i < p->nh; i++) {
        if (!open_hunk(p, i, c->x))
            continue;
        if (nho == HUNKS_MAX) {
            free(g);
            return 1;   /* too many to judge: all stay */
        }
        const ttdi_hunk *h = &p->h[i];
        ho[nho] = (hole){c->x ? h->b0 : h->a0, c->x ? h->b1 : h->a1, 0, 0, 0, 0, 0};
        hix[nho++] = i;
    }
    g->target = c->u;
    g->first = -1;
    g->group = c->group[c->x];
    g->ngroup = c->al->r[c->x].nt;
    g->ho = ho;
    g->nho = nho;
    if ((rc = walk(&c->al->r[c->x], p->t[c->x], g, 0)) < 0 || g->tpos == UINT64_MAX ||
        g->first < 0 || g->over) {
        free(g);
        return rc < 0 ? rc : (long)nho;
    }
    /* the template: the first call of K's function after the first
     * worker's CREATE, and K the first after the extra one's; in x */
    query q[2 * HUNKS_MAX];
    int64_t first = g->first;
    uint64_t tpos = g->tpos;
    size_t pf = pair_of(c->al, c->x, (uint32_t)first);
    for (size_t i = 0; i < nho; i++) {
        q[2 * i] = (query){ho[i].key, c->u, 0, 0, 0, 0, 0};
        q[2 * i + 1] = (query){ho[i].key, first, 0, 0, 0, 0, 0};
    }
    g->ho = NULL;
    g->nho = 0;
    g->q = q;
    g->nq = 2 * nho;
    if (pf == SIZE_MAX || (rc = walk(&c->al->r[c->x], p->t[c->x], g, 0)) < 0 || g->over) {
        free(g);
        return rc < 0 ? rc : (long)nho;
    }
    /* and in the other run: after its partner's CREATE */
    query qy[HUNKS_MAX];
    for (size_t i = 0; i < nho; i++)
        qy[i] = (query){ho[i].key, c->al->s->ip[pf].t[!c->x], 0, 0, 0, 0, 0};
    g->q = qy;
    g->nq = nho;
    g->target = -1;
    g->group = NULL;
    if ((rc = walk(&c->al->r[!c->x], p->t[!c->x], g, 0)) < 0 || g->over) {
        free(g);
        return rc < 0 ? rc : (long)nho;
    }
    uint8_t ok[HUNKS_MAX];
    rc = 0;
    for (size_t i = 0; i < nho; i++) {
        const hole *o = &ho[i];
        int tmpl = o->found && o->klo > tpos && q[2 * i].done && q[2 * i].lo == o->klo &&
                   q[2 * i + 1].done && q[2 * i + 1].lo < tpos && q[2 * i + 1].hash == o->khash &&
                   qy[i].done && qy[i].hash == o->khash;
        ok[i] = (uint8_t)(o->exact || tmpl);
        left += !ok[i];
    }
    for (size_t i = 0; i < nho && !left && rc >= 0; i++)
        rc = add_mark(c, c->pc, hix[i]);
    free(g);
    return rc < 0 ? rc : left;
}

/* The items of thread t of run r appended to g->it, its start call's
 * range into body. */
static int items_of(ttdi_run_state *r, uint32_t t, gwalk *g, uint64_t body[2])
{
    g->target = -1;
    g->group = NULL;
    int rc = walk(r, t, g, 1);
    body[0] = g->top[0];
    body[1] = g->top[1];
    return rc;
}

/* The hunks of the group's pairs, not judged yet, inside both threads'
 * start calls: which worker took which item (the work is alike), into
 * c->m; how many lie elsewhere. */
static long group_hunks(gctx *c)
{
    long left = 0;

    for (size_t i = 0; i < c->al->s->nip; i++) {
        const ttdi_ipair *p = &c->al->s->ip[i];
        if (!c->group[0][p->t[0]] || !c->group[1][p->t[1]])
            continue;
        const uint64_t *g = c->body[0][p->t[0]], *b = c->body[1][p->t[1]];
        for (size_t k = 0; k < p->nh; k++) {
            const ttdi_hunk *h = &p->h[k];
            if ((p->tim && p->tim[k]) || (p->exp && p->exp[k]))
                continue;
            int in = g[0] != UINT64_MAX && h->a0 > g[0] && h->a1 <= g[1] && b[0] != UINT64_MAX &&
                     h->b0 > b[0] && h->b1 <= b[1];
            if (!in)
                left++;
            else if (add_mark(c, i, k) < 0)
                return TT_ENOMEM;
        }
    }
    return left;
}

/* Group of extra thread u of run x (its pool key), judged whole. */
static int judge_group(ttdi_aligner *al, int x, uint32_t u, uint8_t *const paired[2])
{
    const ttdi_run_state *rx = &al->r[x];
    char skel[64];
    gctx c = {al, x, u, SIZE_MAX, {NULL, NULL}, {NULL, NULL}, NULL, 0, 0};
    gwalk *g[2] = {calloc(1, sizeof(gwalk)), calloc(1, sizeof(gwalk))};
    size_t n[2] = {0, 0}, extras = 0;
    int rc = 0;

    ttdi_name_skeleton(rx->ti[u].name, skel, sizeof skel);
    for (int s = 0; s < 2; s++) {
        c.group[s] = calloc(al->r[s].nt + 1, 1);
        c.body[s] = calloc(al->r[s].nt + 1, sizeof *c.body[s]);
    }
    if (!g[0] || !g[1] || !c.group[0] || !c.group[1] || !c.body[0] || !c.body[1]) {
        rc = TT_ENOMEM;
        goto out;
    }
    for (int s = 0; s < 2; s++)
        for (uint32_t t = 0; t < al->r[s].nt; t++) {
            c.group[s][t] = (uint8_t)in_group(&al->r[s], t, rx->ti[u].start, skel);
            n[s] += c.group[s][t];
            extras += s == x && c.group[s][t] && !paired[s][t];
        }
    if (n[!x] == 0 || extras != 1 || n[x] != n[!x] + 1 || n[x] > GROUP_MAX)
        goto out;   /* no pair of the group, more than one more worker */
    for (int s = 0; s < 2 && rc >= 0; s++)
        for (uint32_t t = 0; t < al->r[s].nt && rc >= 0 && !g[s]->over; t++)
            if (c.group[s][t])
                rc = items_of(&al->r[s], t, g[s], c.body[s][t]);
    if (rc < 0 || g[0]->over || g[1]->over)
        goto out;
    item *v[2] = {g[0]->it, g[1]->it};
    size_t nv[2] = {g[x]->nit, g[!x]->nit};
    item *vx[2] = {v[x], v[!x]};
    uint64_t extra = 0;
    if (rc < 0 || !work_alike(vx, nv, extras, &extra))
        goto out;
    int64_t cr;
    if ((rc = creator_of(rx, u, &cr)) < 0 || cr < 0 ||
        (c.pc = pair_of(al, x, (uint32_t)cr)) == SIZE_MAX)
        goto out;
    long left = judge_creator(&c), more = left < 0 ? 0 : group_hunks(&c);
    if (left < 0 || more < 0) {
        rc = left < 0 ? (int)left : (int)more;
        goto out;
    }
    left += more;
    for (size_t k = 0; k < c.nm && !left; k++)     /* all of them, or none */
        al->s->ip[c.m[k].pair].tim[c.m[k].hunk] = TTD_TIMING_GREW;
    ttdi_grown gr = {x, u, c.pc, nv[1], extra, {n[0], n[1]}};
    if (!left && al->s->ngrown < TTDI_GROWN_MAX)
        al->s->grown[al->s->ngrown++] = gr;
out:
    for (int s = 0; s < 2; s++) {
        if (g[s])
            free(g[s]->it);
        free(g[s]);
        free(c.group[s]);
        free(c.body[s]);
    }
    free(c.m);
    return rc;
}

int ttdi_grew_mark(ttdi_aligner *al)
{
    uint8_t *paired[2] = {calloc(al->r[0].nt + 1, 1), calloc(al->r[1].nt + 1, 1)};
    size_t lone[2] = {0, 0};
    int rc = 0;

    al->s->ngrown = 0;
    if (!paired[0] || !paired[1]) {
        rc = TT_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < al->s->nip; i++)
        for (int s = 0; s < 2; s++)
            if (al->s->ip[i].t[s] < al->r[s].nt)
                paired[s][al->s->ip[i].t[s]] = 1;
    for (int s = 0; s < 2; s++)
        for (uint32_t t = 0; t < al->r[s].nt; t++)
            lone[s] += !paired[s][t];
    for (int x = 0; x < 2 && rc >= 0; x++) {
        if (!lone[x] || lone[!x])
            continue;   /* threads of both runs without partner: not this */
        for (uint32_t u = 0; u < al->r[x].nt && rc >= 0; u++)
            if (!paired[x][u] && al->r[x].ti[u].start[0])
                rc = judge_group(al, x, u, paired);
    }
out:
    free(paired[0]);
    free(paired[1]);
    return rc;
}
