/*
 * test_tree.c - the call-tree builder and aligner (diff/tree.c, talign.c).
 *
 * 10k random pairs of small call trees (loops, longjmps, crashes, stray
 * EXITs) against brute force: the hunks must be a valid edit script of the
 * flat key sequences, the first one must start at their longest common
 * prefix (the split goes where the runs first differ, talign.c), no call
 * begun in a hunk may go on after it,
 * and the cost (events in hunks) is bounded below by the optimal top-down
 * tree edit distance (Selkow 1977: a node can match only if its parent
 * does; computed by dynamic programming), which it must reach on most.
 * Hand-made pairs where two alignments are equally good by function key
 * check which one the split rule picks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tree.h"

#define MAXEV 400
#define NFUNC 5
#define INF (1u << 30)

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static unsigned below(unsigned n)
{
    return n ? (unsigned)(rnd() % n) : 0;
}

/* A stream of kept events. */
typedef struct stream {
    uint64_t key[MAXEV];
    int kind[MAXEV];
    size_t n;
} stream;

/* A generated call tree (before it is written as events). */
typedef struct gnode {
    int fn;                 /* function, or -1 - message number */
    int cut;                /* 1: left by longjmp (no EXIT written) */
    int nk;
    struct gnode *k[12];
} gnode;

static uint64_t enter_key(int fn)
{
    return 0x1000 + ((uint64_t)fn << 32) * 0x10001; /* distinct above the site bits */
}

/* Every generated node, freed together after each pair (mutations drop
 * and share nodes). */
static gnode **all;
static size_t nall, allcap;

static gnode *new_gnode(void)
{
    if (nall == allcap) {
        allcap = allcap ? 2 * allcap : 1024;
        all = realloc(all, allcap * sizeof *all);
        assert_non_null(all);
    }
    all[nall] = calloc(1, sizeof **all);
    assert_non_null(all[nall]);
    return all[nall++];
}

static void free_gnodes(void)
{
    while (nall)
        free(all[--nall]);
}

static gnode *gen(int depth)
{
    gnode *g = new_gnode();

    if (depth > 0 && below(5) == 0) {
        g->fn = -1 - (int)below(2);
        return g;
    }
    g->fn = (int)below(NFUNC);
    g->cut = depth > 1 && below(25) == 0;
    int nk = depth > 3 ? 0 : (int)below(4);
    for (int i = 0; i < nk && g->nk < 12; i++) {
        gnode *c = gen(depth + 1);
        int reps = below(5) == 0 ? 2 + (int)below(3) : 1;
        g->k[g->nk++] = c;
        for (int r = 1; r < reps && g->nk < 12; r++) {  /* a loop (shared) */
            g->k[g->nk++] = c;
        }
    }
    return g;
}

static gnode *copy(const gnode *g)
{
    gnode *c = new_gnode();

    *c = *g;
    for (int i = 0; i < g->nk; i++)
        c->k[i] = i && g->k[i] == g->k[i - 1] ? c->k[i - 1] : copy(g->k[i]);
    return c;
}

/* Change c somewhere: a function, a child dropped, added or repeated. */
static void mutate(gnode *g, int depth)
{
    unsigned what = below(6);

    if (g->fn < 0)
        return;
    if (g->nk && what < 3) {
        mutate(g->k[below((unsigned)g->nk)], depth + 1);
        return;
    }
    if (what == 3 && g->nk) {
        int i = (int)below((unsigned)g->nk);
        memmove(&g->k[i], &g->k[i + 1], (size_t)(g->nk - i - 1) * sizeof g->k[0]);
        g->nk--;
    } else if (what == 4 && g->nk < 12) {
        int i = (int)below((unsigned)g->nk + 1);
        memmove(&g->k[i + 1], &g->k[i], (size_t)(g->nk - i) * sizeof g->k[0]);
        g->k[i] = gen(depth + 2);
        g->nk++;
    } else if (g->nk && g->nk < 12) {
        int i = (int)below((unsigned)g->nk);
        memmove(&g->k[i + 1], &g->k[i], (size_t)(g->nk - i) * sizeof g->k[0]);
        g->nk++;
    } else {
        g->fn = (int)below(NFUNC);
    }
}

static void put(stream *s, uint64_t key, int kind)
{
    if (s->n < MAXEV) {
        s->key[s->n] = key;
        s->kind[s->n++] = kind;
    }
}

static void write_ev(const gnode *g, stream *s)
{
    if (g->fn < 0) {
        put(s, 0x7000 + (uint64_t)(-g->fn), TTF_EV_MESSAGE);
        return;
    }
    put(s, enter_key(g->fn), TTF_EV_ENTER);
    for (int i = 0; i < g->nk; i++)
        write_ev(g->k[i], s);
    if (!g->cut)
        put(s, ttdi_norm_exit_of(enter_key(g->fn)), TTF_EV_EXIT);
}

/* A run: a few top-level calls; sometimes a stray EXIT first or a crash
 * (the end cut off). */
static void write_run(gnode **top, int ntop, int stray, size_t crash_at,
                      stream *s)
{
    s->n = 0;
    if (stray)
        put(s, ttdi_norm_exit_of(enter_key(stray - 1)), TTF_EV_EXIT);
    for (int i = 0; i < ntop; i++)
        write_ev(top[i], s);
    if (crash_at && crash_at < s->n) {
        s->n = crash_at;
        put(s, 0x9999, TTF_EV_CRASH);
    }
}

static void build(ttdi_tree *t, const stream *s)
{
    assert_int_equal(ttdi_tree_reset(t, s->n), 0);
    for (size_t i = 0; i < s->n; i++)
        assert_int_equal(ttdi_tree_feed(t, s->key[i], s->kind[i]), 0);
    ttdi_tree_finish(t);
}

/* ---- brute force ----------------------------------------------------- */

typedef struct kids {
    size_t node[MAXEV + 1];
    uint64_t raw0[MAXEV + 1];   /* [n]: end of the children */
    size_t n;
} kids;

static void kids_of(const ttdi_tree *t, size_t p, uint64_t r, kids *k)
{
    const ttdi_node *pn = ttdi_tree_node(t, p);
    size_t c = p + 1, end = p ? p + ttdi_node_size(pn) : t->n;
    uint64_t raw = r + (p ? 1 : 0);

    k->n = 0;
    while (c < end) {
        k->node[k->n] = c;
        k->raw0[k->n++] = raw;
        raw += ttdi_tree_node(t, c)->len;
        c += ttdi_node_size(ttdi_tree_node(t, c));
    }
    k->raw0[k->n] = raw;
}

/* Optimal top-down edit cost (events) of two matched nodes. */
static unsigned selkow(const ttdi_tree *a, size_t ia, uint64_t ra,
                       const ttdi_tree *b, size_t ib, uint64_t rb)
{
    kids *ka = malloc(sizeof *ka), *kb = malloc(sizeof *kb);
    const ttdi_node *x = ttdi_tree_node(a, ia), *y = ttdi_tree_node(b, ib);
    unsigned r;

    assert_true(ka && kb);
    kids_of(a, ia, ra, ka);
    kids_of(b, ib, rb, kb);
    unsigned *d = malloc((ka->n + 1) * (kb->n + 1) * sizeof *d);
    assert_non_null(d);
#define D(i, j) d[(i) * (kb->n + 1) + (j)]
    for (size_t i = 0; i <= ka->n; i++) {
        for (size_t j = 0; j <= kb->n; j++) {
            unsigned best = INF;
            if (!i && !j)
                best = 0;
            if (i)
                best = D(i - 1, j) + (unsigned)(ka->raw0[i] - ka->raw0[i - 1]);
            if (j && D(i, j - 1) + (unsigned)(kb->raw0[j] - kb->raw0[j - 1]) < best)
                best = D(i, j - 1) + (unsigned)(kb->raw0[j] - kb->raw0[j - 1]);
            if (i && j) {
                const ttdi_node *u = ttdi_tree_node(a, ka->node[i - 1]);
                const ttdi_node *v = ttdi_tree_node(b, kb->node[j - 1]);
                unsigned sub = INF;
                if (u->hash == v->hash)
                    sub = 0;
                else if (u->key == v->key && (ttdi_node_flags(u) & TTDI_NODE_CALL) &&
                         (ttdi_node_flags(v) & TTDI_NODE_CALL))
                    sub = selkow(a, ka->node[i - 1], ka->raw0[i - 1], b,
                                 kb->node[j - 1], kb->raw0[j - 1]);
                if (D(i - 1, j - 1) + sub < best)
                    best = D(i - 1, j - 1) + sub;
            }
            D(i, j) = best;
        }
    }
    r = D(ka->n, kb->n);
#undef D
    r += (ttdi_node_flags(x) & TTDI_NODE_CLOSED) != (ttdi_node_flags(y) & TTDI_NODE_CLOSED);
    free(d);
    free(ka);
    free(kb);
    return r;
}

/* 1 if no call that begins in [x0, x1) of t goes on after it. */
static int on_boundaries(const ttdi_tree *t, uint64_t x0, uint64_t x1)
{
    kids k;
    size_t stack[MAXEV + 1], sraw[MAXEV + 1], n = 0;

    stack[n] = 0;
    sraw[n++] = 0;
    while (n) {
        size_t p = stack[--n];
        kids_of(t, p, sraw[n], &k);
        for (size_t i = 0; i < k.n; i++) {
            const ttdi_node *c = ttdi_tree_node(t, k.node[i]);
            if (k.raw0[i] >= x0 && k.raw0[i] < x1 && k.raw0[i] + c->len > x1)
                return 0;
            if (ttdi_node_flags(c) & TTDI_NODE_CALL) {
                stack[n] = k.node[i];
                sraw[n++] = k.raw0[i];
            }
        }
    }
    return 1;
}

static size_t differing;

static ttdi_tree tra, trb;      /* reused: reset keeps their memory */

static int check_pair(const stream *sa, const stream *sb)
{
    ttdi_xhunk *h = NULL;
    size_t nh = 0, x = 0, y = 0, lcp = 0;
    unsigned cost = 0;

    build(&tra, sa);
    build(&trb, sb);
    assert_int_equal(tra.raw, sa->n);
    assert_int_equal(ttdi_tree_align(&tra, &trb, 0, &h, &nh), 0);
    while (lcp < sa->n && lcp < sb->n && sa->key[lcp] == sb->key[lcp])
        lcp++;
    if (lcp == sa->n && lcp == sb->n) {
        assert_int_equal(nh, 0);
    } else {
        assert_true(nh > 0);
        /* at the flat first difference, never before it */
        assert_int_equal(h[0].a0, lcp);
        assert_int_equal(h[0].b0, lcp);
        differing++;
    }
    for (size_t k = 0; k <= nh; k++) {
        size_t ex = k < nh ? h[k].a0 : sa->n, ey = k < nh ? h[k].b0 : sb->n;
        assert_int_equal(ex - x, ey - y);
        for (; x < ex; x++, y++)
            assert_true(sa->key[x] == sb->key[y]);
        if (k == nh)
            break;
        assert_true(h[k].a0 <= h[k].a1 && h[k].b0 <= h[k].b1);
        assert_true(h[k].a1 > h[k].a0 || h[k].b1 > h[k].b0);
        assert_true(on_boundaries(&tra, h[k].a0, h[k].a1));
        assert_true(on_boundaries(&trb, h[k].b0, h[k].b1));
        cost += (unsigned)(h[k].a1 - h[k].a0 + h[k].b1 - h[k].b0);
        x = h[k].a1;
        y = h[k].b1;
    }
    assert_int_equal(x, sa->n);
    assert_int_equal(y, sb->n);
    unsigned best = ttdi_tree_node(&tra, 0)->hash == ttdi_tree_node(&trb, 0)->hash
                    ? 0 : selkow(&tra, 0, 0, &trb, 0, 0);
    assert_true(cost >= best);
    free(h);
    return cost == best;
}

/* A random pair: one to three top-level calls, the second run mutated
 * up to three times, either maybe beginning with a stray EXIT, the
 * second maybe cut off by a crash. */
static void random_pair(stream *sa, stream *sb)
{
    gnode *ga[4], *gb[4];
    int n = 1 + (int)below(3);

    for (int i = 0; i < n; i++) {
        ga[i] = gen(0);
        gb[i] = copy(ga[i]);
    }
    for (unsigned m = below(4); m > 0; m--)
        mutate(gb[below((unsigned)n)], 0);
    write_run(ga, n, below(10) == 0 ? 1 + (int)below(NFUNC) : 0, 0, sa);
    write_run(gb, n, below(10) == 0 ? 1 + (int)below(NFUNC) : 0,
              below(8) == 0 ? 1 + below(MAXEV / 2) : 0, sb);
}

static void random_trees(void **state)
{
    static stream sa, sb;
    size_t optimal = 0, total = 10000;

    (void)state;
    for (size_t it = 0; it < total; it++) {
        random_pair(&sa, &sb);
        optimal += (size_t)check_pair(&sa, &sb);
        free_gnodes();
    }
    ttdi_tree_free(&tra);
    ttdi_tree_free(&trb);
    free(all);
    all = NULL;
    allcap = 0;
    printf("tree aligner: optimal (top-down edit distance) on %zu of %zu"
           " (%zu differ; the first hunk at the flat first difference in"
           " all)\n", optimal, total, differing);
    assert_true(optimal * 100 >= total * 95);
}

/* The keys of node i's subtree, in order, appended to out (a shared
 * node's children are those of the copy it points at). */
static void expand(const ttdi_tree *t, size_t i, stream *out)
{
    const ttdi_node *nd = ttdi_tree_node(t, i);
    size_t b = ttdi_tree_body(t, i);
    size_t c = b + 1, end = i ? b + ttdi_node_size(ttdi_tree_node(t, b)) : t->n;

    if (i)
        put(out, nd->key, TTF_EV_ENTER);
    if (i && !(ttdi_node_flags(nd) & TTDI_NODE_CALL))
        return;
    for (; c < end; c += ttdi_node_size(ttdi_tree_node(t, c)))
        expand(t, c, out);
    if (ttdi_node_flags(nd) & TTDI_NODE_CLOSED)
        put(out, ttdi_norm_exit_of(nd->key), TTF_EV_EXIT);
}

/* Trees with repeated subtrees stored once (ttdi_tree.share, as ttdiff
 * builds them) hold the same events and align exactly as the full
 * trees: the same hunks, on the same 10k kinds of random pairs. */
static void shared_subtrees(void **state)
{
    static stream sa, sb, ex;
    static ttdi_tree fa, fb, ha, hb;
    size_t fewer = 0, total = 10000;

    (void)state;
    ha.share = hb.share = 1;
    for (size_t it = 0; it < total; it++) {
        random_pair(&sa, &sb);
        build(&fa, &sa);
        build(&fb, &sb);
        build(&ha, &sa);
        build(&hb, &sb);
        ex.n = 0;
        expand(&ha, 0, &ex);
        assert_int_equal(ex.n, sa.n);
        assert_memory_equal(ex.key, sa.key, sa.n * sizeof *sa.key);
        assert_true(ttdi_tree_node(&ha, 0)->hash == ttdi_tree_node(&fa, 0)->hash);
        fewer += ha.n < fa.n;

        ttdi_xhunk *h = NULL, *g = NULL;
        size_t nh = 0, ng = 0;
        assert_int_equal(ttdi_tree_align(&fa, &fb, 0, &h, &nh), 0);
        assert_int_equal(ttdi_tree_align(&ha, &hb, 0, &g, &ng), 0);
        assert_int_equal(nh, ng);
        if (nh)
            assert_memory_equal(h, g, nh * sizeof *h);
        free(h);
        free(g);
        free_gnodes();
    }
    ttdi_tree_free(&fa);
    ttdi_tree_free(&fb);
    ttdi_tree_free(&ha);
    ttdi_tree_free(&hb);
    printf("shared subtrees: fewer nodes in %zu of %zu trees\n", fewer, total);
    assert_true(fewer * 10 >= total);
}

/* ---- deep stacks --------------------------------------------------- */

#define DEEPEV 6000

/* The open calls left after EXIT key x: below the innermost it closes. */
static size_t unwind(const uint64_t *open, size_t depth, uint64_t x)
{
    for (size_t i = depth; i-- > 0;)
        if (ttdi_norm_exit_of(open[i]) == x)
            return i;
    return depth;
}

/* A random walk down to about 300 open calls and back, several times
 * (the builder keeps open-key counts past 64 open calls and drops them
 * under 32), among 5 functions, so the same function is open at many
 * depths: mostly a call or the innermost return, sometimes the EXIT of
 * an outer call (a longjmp) or of one not open, or a message. */
static size_t deep_stream(uint64_t *key, int *kind)
{
    size_t n = 0, depth = 0;
    uint64_t open[DEEPEV];

    while (n < DEEPEV) {
        unsigned r = below(100), down = (n / 1000) % 2 == 0;
        if (r < (down ? 60u : 35u)) {
            open[depth++] = enter_key((int)below(NFUNC));
            key[n] = open[depth - 1];
            kind[n++] = TTF_EV_ENTER;
        } else if (r < 95 && depth) {
            key[n] = ttdi_norm_exit_of(open[--depth]);
            kind[n++] = TTF_EV_EXIT;
        } else if (r < 98) {
            key[n] = ttdi_norm_exit_of(enter_key((int)below(NFUNC)));
            kind[n++] = TTF_EV_EXIT;
            depth = unwind(open, depth, key[n - 1]);
        } else {
            key[n] = 0x7001;
            kind[n++] = TTF_EV_MESSAGE;
        }
    }
    return n;
}

/* A node as a plain stack simulation says it must be. */
typedef struct refnode {
    uint64_t start, len;
    int call, closed;
} refnode;

/* The nodes of key[n] in preorder (one per ENTER and per event no call
 * takes), by scanning the stack for every EXIT. */
static size_t deep_ref(const uint64_t *key, const int *kind, size_t n, refnode *rn)
{
    size_t st[DEEPEV], nst = 0, nn = 0;

    for (size_t e = 0; e < n; e++) {
        size_t i = nst;
        if (kind[e] == TTF_EV_EXIT)
            while (i > 0 && ttdi_norm_exit_of(key[rn[st[i - 1]].start]) != key[e])
                i--;
        if (kind[e] == TTF_EV_EXIT && i > 0) {
            for (; nst > i; nst--)
                rn[st[nst - 1]].len = e - rn[st[nst - 1]].start;
            rn[st[i - 1]].len = e + 1 - rn[st[i - 1]].start;
            rn[st[--nst]].closed = 1;
            continue;
        }
        rn[nn] = (refnode){e, 1, kind[e] == TTF_EV_ENTER, 0};
        if (kind[e] == TTF_EV_ENTER)
            st[nst++] = nn;
        nn++;
    }
    while (nst--)
        rn[st[nst]].len = n - rn[st[nst]].start;
    return nn;
}

/* Deep stacks: every node as the stack simulation has it; shared trees
 * align as full ones. */
static void deep_stacks(void **state)
{
    static uint64_t ka[DEEPEV], kb[DEEPEV];
    static int da[DEEPEV], db[DEEPEV];
    static refnode rn[DEEPEV];
    static ttdi_tree fa, fb, ha, hb;

    (void)state;
    ha.share = hb.share = 1;
    for (int it = 0; it < 20; it++) {
        size_t n = deep_stream(ka, da), nn = deep_ref(ka, da, n, rn);
        memcpy(kb, ka, sizeof ka);
        memcpy(db, da, sizeof da);
        for (int m = 0; m < 5; m++)
            kb[below(DEEPEV)] = 0x7002;     /* 5 events become messages */
        for (size_t i = 0; i < DEEPEV; i++)
            db[i] = kb[i] == 0x7002 ? TTF_EV_MESSAGE : db[i];
        ttdi_tree *tv[4] = {&fa, &fb, &ha, &hb};
        for (int k = 0; k < 4; k++) {
            assert_int_equal(ttdi_tree_reset(tv[k], n), 0);
            for (size_t i = 0; i < n; i++)
                assert_int_equal(ttdi_tree_feed(tv[k], k % 2 ? kb[i] : ka[i],
                                                k % 2 ? db[i] : da[i]), 0);
            ttdi_tree_finish(tv[k]);
        }
        assert_int_equal(fa.n, nn + 1);
        for (size_t i = 0; i < nn; i++) {
            const ttdi_node *nd = ttdi_tree_node(&fa, i + 1);
            assert_int_equal(nd->len, rn[i].len);
            assert_int_equal(!!(ttdi_node_flags(nd) & TTDI_NODE_CALL), rn[i].call);
            assert_int_equal(!!(ttdi_node_flags(nd) & TTDI_NODE_CLOSED), rn[i].closed);
        }
        ttdi_xhunk *h = NULL, *g = NULL;
        size_t nh = 0, ng = 0;
        assert_true(ttdi_tree_node(&ha, 0)->hash == ttdi_tree_node(&fa, 0)->hash);
        assert_int_equal(ttdi_tree_align(&fa, &fb, 0, &h, &nh), 0);
        assert_int_equal(ttdi_tree_align(&ha, &hb, 0, &g, &ng), 0);
        assert_true(nh > 0 && nh == ng);
        assert_memory_equal(h, g, nh * sizeof *h);
        free(h);
        free(g);
    }
    ttdi_tree_free(&fa);
    ttdi_tree_free(&fb);
    ttdi_tree_free(&ha);
    ttdi_tree_free(&hb);
}

/* longjmp: the EXIT of an outer call closes the inner ones. */
static void longjmp_and_crash(void **state)
{
    ttdi_tree t = {0};
    uint64_t f = enter_key(0), g = enter_key(1), h = enter_key(2);

    (void)state;
    assert_int_equal(ttdi_tree_reset(&t, 8), 0);
    assert_int_equal(ttdi_tree_feed(&t, ttdi_norm_exit_of(h), TTF_EV_EXIT), 0);
    assert_int_equal(ttdi_tree_feed(&t, f, TTF_EV_ENTER), 0);
    assert_int_equal(ttdi_tree_feed(&t, g, TTF_EV_ENTER), 0);
    assert_int_equal(ttdi_tree_feed(&t, h, TTF_EV_ENTER), 0);
    assert_int_equal(ttdi_tree_feed(&t, ttdi_norm_exit_of(f), TTF_EV_EXIT), 0);
    assert_int_equal(ttdi_tree_feed(&t, g, TTF_EV_ENTER), 0);
    ttdi_tree_finish(&t);
    assert_int_equal(t.n, 6); /* root, stray exit, f, g, h, g */
    const ttdi_node *n = ttdi_tree_node(&t, 0);
    assert_int_equal(ttdi_node_flags(&n[1]), 0);
    assert_int_equal(ttdi_node_flags(&n[2]), TTDI_NODE_CALL | TTDI_NODE_CLOSED);
    assert_int_equal(ttdi_node_size(&n[2]), 3);
    assert_int_equal(n[2].len, 4);  /* events 1..4 */
    assert_int_equal(ttdi_node_flags(&n[3]), TTDI_NODE_CALL);
    assert_int_equal(n[3].len, 2);  /* 2..3: cut by f's EXIT at 4 */
    assert_int_equal(n[4].len, 1);
    assert_int_equal(ttdi_node_flags(&n[5]), TTDI_NODE_CALL);
    assert_int_equal(n[5].len, 1);
    ttdi_tree_free(&t);
}

/* A loop of three sibling calls: 3 iterations against 5 is one count
 * hunk of the two extra iterations. */
static void loop_of_three(void **state)
{
    static stream sa, sb;
    ttdi_tree ta = {0}, tb = {0};
    ttdi_xhunk *h = NULL;
    size_t nh = 0;

    (void)state;
    for (int side = 0; side < 2; side++) {
        stream *s = side ? &sb : &sa;
        s->n = 0;
        put(s, enter_key(0), TTF_EV_ENTER);
        for (int it = 0; it < (side ? 5 : 3); it++)
            for (int f = 1; f <= 3; f++) {
                put(s, enter_key(f), TTF_EV_ENTER);
                put(s, ttdi_norm_exit_of(enter_key(f)), TTF_EV_EXIT);
            }
        put(s, enter_key(4), TTF_EV_ENTER);
        put(s, ttdi_norm_exit_of(enter_key(4)), TTF_EV_EXIT);
        put(s, ttdi_norm_exit_of(enter_key(0)), TTF_EV_EXIT);
    }
    build(&ta, &sa);
    build(&tb, &sb);
    assert_int_equal(ttdi_tree_align(&ta, &tb, 0, &h, &nh), 0);
    assert_int_equal(nh, 1);
    assert_int_equal(h[0].reps[0], 3);
    assert_int_equal(h[0].reps[1], 5);
    assert_int_equal(h[0].a0, 19);
    assert_int_equal(h[0].a1, 19);
    assert_int_equal(h[0].b0, 19);
    assert_int_equal(h[0].b1, 31);
    free(h);
    ttdi_tree_free(&ta);
    ttdi_tree_free(&tb);
}

/* A worker's long list of calls that parts near its end (issue 38 item
 * 4): 2000 calls the same in both runs (among 24 functions, so short
 * loops come and go), then one call that differs, then a few more. One
 * hunk, the differing call; the shared calls' loop items are decided
 * once, not once a run, and a group is looked at only where a child's
 * hash comes again within 8 (the collapse of a 125K-call list was 0.1G
 * instructions of the 1M-event parted pair). */
static void long_shared_list(void **state)
{
    ttdi_tree ta = {0}, tb = {0};
    ttdi_xhunk *h = NULL;
    size_t nh = 0, n = 2 + 2 * (2000 + 1 + 4);

    (void)state;
    for (int side = 0; side < 2; side++) {
        ttdi_tree *t = side ? &tb : &ta;
        uint32_t x = 12345;
        assert_int_equal(ttdi_tree_reset(t, n), 0);
        assert_int_equal(ttdi_tree_feed(t, enter_key(0), TTF_EV_ENTER), 0);
        for (int i = 0; i < 2000 + 1 + 4; i++) {
            x = x * 1103515245u + 12345u;
            int fn = i == 2000 ? 30 + side : 1 + (int)((x >> 16) % 24);
            assert_int_equal(ttdi_tree_feed(t, enter_key(fn), TTF_EV_ENTER), 0);
            assert_int_equal(ttdi_tree_feed(t, ttdi_norm_exit_of(enter_key(fn)), TTF_EV_EXIT), 0);
        }
        assert_int_equal(ttdi_tree_feed(t, ttdi_norm_exit_of(enter_key(0)), TTF_EV_EXIT), 0);
        ttdi_tree_finish(t);
    }
    uint64_t items = ttdi_talign_items, groups = ttdi_talign_groups;
    assert_int_equal(ttdi_tree_align(&ta, &tb, 0, &h, &nh), 0);
    items = ttdi_talign_items - items;
    groups = ttdi_talign_groups - groups;
    assert_int_equal(nh, 1);
    assert_int_equal(h[0].a0, 1 + 2 * 2000);
    assert_int_equal(h[0].a1, 3 + 2 * 2000);
    assert_int_equal(h[0].b0, 1 + 2 * 2000);
    assert_int_equal(h[0].b1, 3 + 2 * 2000);
    assert_true(items > 1000);      /* 1924 */
    assert_true(items < 2050);      /* both lists whole: 3808 */
    assert_true(groups < 6000);     /* 4234; 15268 with every child's 8
                                       groups looked at, 8434 with both
                                       lists whole */
    free(h);
    ttdi_tree_free(&ta);
    ttdi_tree_free(&tb);
}

/* ---- where the split goes ---------------------------------------- */

/* Events of a call tree written as letters: a letter is a call of
 * function letter - 'A' (its ENTER, then the calls in the parentheses
 * after it, if any, then its EXIT). Returns the rest of the text. */
static const char *spell(const char *t, stream *s)
{
    while (*t >= 'A' && *t <= 'Z') {
        uint64_t k = enter_key(*t++ - 'A');
        put(s, k, TTF_EV_ENTER);
        if (*t == '(') {
            t = spell(t + 1, s);
            assert_true(*t == ')');
            t++;
        }
        put(s, ttdi_norm_exit_of(k), TTF_EV_EXIT);
    }
    return t;
}

static void spell_run(const char *t, stream *s)
{
    s->n = 0;
    assert_true(*spell(t, s) == '\0');
}

/* The first hunk of a's and b's alignment, checked by check_pair (a
 * valid script that starts at the flat first difference); *optimal: the
 * script's events reach the top-down edit distance. */
static ttdi_xhunk first_hunk(const stream *sa, const stream *sb, size_t *nh,
                             int *optimal)
{
    ttdi_xhunk *h = NULL, h0;

    *optimal = check_pair(sa, sb);
    build(&tra, sa);
    build(&trb, sb);
    assert_int_equal(ttdi_tree_align(&tra, &trb, 0, &h, nh), 0);
    assert_true(*nh > 0);
    h0 = h[0];
    free(h);
    return h0;
}

/* jq-nul's shape: main (M) loops over next_input (N) and process (O).
 * The good run's N is called four times, the bad run's twice, and the bad
 * run's second N equals the good run's fourth (it reads (D) and finds
 * nothing). Myers on subtree hashes drops the good run's second and third
 * iterations whole and matches the two last N calls: by events the
 * cheapest script, but its first hunk begins at the good run's second N,
 * whose ENTER, I and R calls the bad run's second N made too. The split
 * goes where the events first differ: inside the second N of both, parser
 * (P) against read (D). By function key both scripts match as many calls. */
static void split_in_loop_iteration(void **state)
{
    static stream sa, sb;
    size_t nh;
    int optimal;

    (void)state;
    spell_run("M(EN(IRDBP(S))VO(SS)EN(IRP(S))VO(S)EN(IRP(SS))VO(SS)EN(IRD)VE)", &sa);
    spell_run("M(EN(IRDBP(S))VO(SS)EN(IRD)VE)", &sb);
    ttdi_xhunk h = first_hunk(&sa, &sb, &nh, &optimal);
    assert_true(sa.key[h.a0] == enter_key('P' - 'A'));
    assert_true(sb.key[h.b0] == enter_key('D' - 'A'));
    assert_true(sa.key[h.a0 - 5] == enter_key('N' - 'A'));
    /* the rule costs events here: the cheapest script splits in M */
    assert_false(optimal);
    ttdi_tree_free(&tra);
    ttdi_tree_free(&trb);
}

/* The first calls that differ are of two functions (X only in the good
 * run): the split stays at X, a whole call, and nothing is paired. */
static void split_at_other_function(void **state)
{
    static stream sa, sb;
    size_t nh;
    int optimal;

    (void)state;
    spell_run("M(EX(I)N(IRD)E)", &sa);
    spell_run("M(EN(IRD)E)", &sb);
    ttdi_xhunk h = first_hunk(&sa, &sb, &nh, &optimal);
    assert_int_equal(nh, 1);
    assert_true(optimal);
    assert_int_equal(h.a0, 3);      /* ENTER X */
    assert_int_equal(h.a1, 7);      /* after its EXIT */
    assert_int_equal(h.b0, 3);
    assert_int_equal(h.b1, 3);
    ttdi_tree_free(&tra);
    ttdi_tree_free(&trb);
}

/* A loop of F(G) ran 3 times in the good run and 4 in the bad one, and
 * the call after it is F(H): the bad run's fourth F begins as the good
 * run's F(H) does, so the split is inside that F (G against H), not a
 * count hunk in M; the loop whose next call is another function keeps its
 * count hunk (loop_of_three). */
static void split_after_loop(void **state)
{
    static stream sa, sb;
    size_t nh;
    int optimal;

    (void)state;
    spell_run("M(F(G)F(G)F(G)F(H)E)", &sa);
    spell_run("M(F(G)F(G)F(G)F(G)F(H)E)", &sb);
    ttdi_xhunk h = first_hunk(&sa, &sb, &nh, &optimal);
    assert_int_equal(h.reps[0], 0);
    assert_true(sa.key[h.a0] == enter_key('H' - 'A'));
    assert_true(sb.key[h.b0] == enter_key('G' - 'A'));
    spell_run("M(F(G)F(G)F(G)E)", &sa);
    spell_run("M(F(G)F(G)F(G)F(G)E)", &sb);
    h = first_hunk(&sa, &sb, &nh, &optimal);
    assert_int_equal(nh, 1);
    assert_int_equal(h.reps[0], 3);
    assert_int_equal(h.reps[1], 4);
    ttdi_tree_free(&tra);
    ttdi_tree_free(&trb);
}

/* A producer's loop of four P calls, each checking for room (I) until
 * there is some, then adding (A): which P waited, and how often, differs
 * between two runs that made the same four calls. The calls are the same
 * functions in the same order, so P number k pairs with P number k
 * (execution indexing) and every hunk is inside a P: the extra checks.
 * Myers on subtree hashes would match the good run's P(IIA) with the bad
 * run's first P and report a P that only the good run made. */
static void same_calls_pair_in_order(void **state)
{
    static stream sa, sb;
    ttdi_xhunk *h = NULL;
    size_t nh = 0;

    (void)state;
    spell_run("M(P(IA)P(IIA)P(IA)P(IA))", &sa);
    spell_run("M(P(IIA)P(IA)P(IA)P(IIIA))", &sb);
    (void)check_pair(&sa, &sb);
    build(&tra, &sa);
    build(&trb, &sb);
    assert_int_equal(ttdi_tree_align(&tra, &trb, 0, &h, &nh), 0);
    assert_int_equal(nh, 3);
    for (size_t i = 0; i < nh; i++) {
        for (uint64_t k = h[i].a0; k < h[i].a1; k++)
            assert_true(sa.key[k] == enter_key('I' - 'A') || sa.key[k] == ttdi_norm_exit_of(enter_key('I' - 'A')));
        for (uint64_t k = h[i].b0; k < h[i].b1; k++)
            assert_true(sb.key[k] == enter_key('I' - 'A') || sb.key[k] == ttdi_norm_exit_of(enter_key('I' - 'A')));
    }
    free(h);
    ttdi_tree_free(&tra);
    ttdi_tree_free(&trb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(longjmp_and_crash),
        cmocka_unit_test(loop_of_three),
        cmocka_unit_test(long_shared_list),
        cmocka_unit_test(split_in_loop_iteration),
        cmocka_unit_test(split_at_other_function),
        cmocka_unit_test(split_after_loop),
        cmocka_unit_test(same_calls_pair_in_order),
        cmocka_unit_test(random_trees),
        cmocka_unit_test(shared_subtrees),
        cmocka_unit_test(deep_stacks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
