/*
 * talign.c - the call-tree aligner of libttdiff: two threads' call trees
 * (tree.c) aligned top down, children list by children list, into hunks
 * that begin and end at call boundaries.
 * Stage 1 align of diff/STAGES (its header: tree.h).
 *
 * Design. This is execution indexing (B. Xin, W. N. Sumner, X. Zhang,
 * "Efficient program execution indexing", PLDI 2008): an event of one run
 * corresponds to an event of the other when their call paths correspond.
 * Start with the two roots matched. For a matched pair of calls whose
 * subtree hashes differ (same function, different content):
 *   1. list the children of each (the calls it made, its messages);
 *   2. collapse loops: a group of k <= MAX_PERIOD sibling subtrees
 *      repeated r >= 2 times back to back becomes one item with a count,
 *      keyed by the group's hashes only, so a loop that ran 3 times in one
 *      run and 5 in the other still matches;
 *   3. align the two item lists with Myers (align.c) on the subtree
 *      hashes: equal subtrees match in O(1), whatever their size;
 *   4. matched loop items with different counts: the first min(counts)
 *      iterations align iteration by iteration (they are equal); the rest
 *      is a count hunk, or, when a differing region follows, joins it (the
 *      loop ended early because an iteration changed);
 *   5. inside each differing region, the items are expanded back to single
 *      children and aligned again on function keys: two calls of the same
 *      function pair up and are aligned in turn (back to 1), the rest are
 *      hunks of whole subtrees;
 *   6. a call that returned in one run and not in the other adds a hunk of
 *      its EXIT.
 * Same calls, same order: while the two children lists are the same
 * functions in the same order (their common key prefix), child i pairs
 * with child i, and only the rest goes through 2-5, unless one list is
 * all prefix and the other goes on (a loop that ran more times: which of
 * its iterations are the extra ones is what 2-5 decide; a pool worker that
 * took more items would otherwise show them all as one hunk, its
 * last ones, whatever items they were). That is execution
 * indexing itself: the k-th iteration of a loop is the k-th in both runs
 * as long as both runs made the same calls. Myers on hashes would rather
 * match equal subtrees out of place, and a producer whose 16 pushes
 * waited for room a different number of times each (zstd's POOL_add:
 * isQueueFull, wait, isQueueFull) came out as "a push only the good run
 * made" here and "one only the bad run made" there, where the runs made
 * the same 16 pushes and only their waits differ (timing.c then says
 * so); and a loop whose polls varied between good runs taught the
 * baselines that its calls vary at the caller's level (poll_moves: the
 * bad run's real split then hid behind them). The first hunk is still at
 * the flat first difference: the pairs before it are equal. Later hunks
 * can cost more events than Myers' script (an item dropped at the front
 * of a list of same-function calls pairs each later call with its
 * neighbour): test_tree's random pairs reach the top-down edit distance in
 * 97.8% rather than 98.0%.
 * Work is proportional to the children lists of the calls that differ,
 * not to the events: a 10M-event call that is the same costs one compare.
 * Lists are usually short; a long one (an interpreter's dispatch loop) is
 * what Myers' cost cap and the loop collapse are for. The collapse itself
 * is linear in the list: a child whose hash none of the next MAX_PERIOD
 * children has is an item alone (8 compares), and the items of a prefix
 * both lists share are found once, on one list, up to the first item that
 * reads past that prefix (a worker's 125K calls that part near their end:
 * 107M instructions of the 1M-event parted pair before, 14M after, the
 * same items); and the children before the last of those shared items
 * are not kept in the lists at all (gather_pair: one side's hashes decide
 * them first), since no later step does anything with them.
 *
 * The first hunk starts where the flat key sequences first differ: each
 * list is aligned with its common prefix trimmed, and within a region the
 * first items either differ in function (the hunk starts there) or pair up
 * (the difference is inside). Pairs are worked through with an explicit
 * stack (deep recursion in a trace is not deep recursion here), each pair's
 * actions pushed in reverse so hunks come out in ascending order; hunks
 * that touch are merged.
 *
 * Where the split goes. Many alignments of two lists are as good as each
 * other; which one is reported decides where "the runs first differ" is
 * said to be, and so the diverging frame. git's xdiff meets this with
 * hunks that can slide (xdl_change_compact: a group of changed lines moves
 * up or down while the line leaving it equals the line entering it, and a
 * heuristic picks the place). Here it matters most at the split, the first
 * hunk, and the rule is: the split goes where the two runs' events first
 * differ, never before. Whatever the runs did after that point, up to it
 * they did the same thing, event for event; a hunk that starts earlier
 * says "the good run made this call, the bad run did not" of a call that
 * both runs made at that very point. So when the first children that
 * differ, one per run, are calls of one function, they are paired and the
 * difference is looked for inside them, even when Myers on subtree hashes
 * found a cheaper script that drops the first one whole and matches the
 * second with an equal call further on (a loop that ran four times in one
 * run and twice in the other: its second iteration in one run equals its
 * last in the other, and matching those two puts the split in the caller,
 * at the start of an iteration that both runs began the same way). By
 * function key, the two scripts match as many children; by events, the one
 * kept here can cost more (the paired calls' insides differ where an equal
 * copy matched), which is the price of a first difference that is a fact
 * about the runs rather than a choice of the aligner. Only the split
 * slides: the pairs worked through before the first hunk is out, the chain
 * of calls that holds it. Past the split, "the same point in both runs" is
 * itself a product of the alignment, not a fact, and the script with the
 * fewest differing events says best what changed (a call dropped whole is
 * one hunk, not a pair that differs inside plus a dropped copy: when every
 * pair slid, bench_diff's 10M events with 10k edits gave 1.4% more hunks,
 * and the tree aligner reached the top-down edit distance on 97.4% of
 * test_tree's random pairs; 98.0% with the split alone sliding, 99.1%
 * without the rule). The rest of the list after a slid pair is aligned
 * again on hashes, so its later hunks keep the cheap script; the cost is
 * one more list alignment per call on the chain. It is also what the flat
 * aligner (--flat) does by construction, its common prefix being trimmed
 * first; both put the first hunk at the longest common prefix of the flat
 * key sequences (tests/unit/test_tree.c checks it on 10k random pairs).
 */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "tree.h"

#define MAX_PERIOD 8                    /* longest loop body, in siblings */
#define LOOP_SALT 0x4C4F4F50C0FFEE11ull /* seeds a loop item's hash */

/* A child in a list, with the key index where it starts. */
typedef struct kid {
    size_t node;            /* its node */
    uint64_t raw0;          /* its first key index */
} kid;

/* One side's children list of the pair being aligned. */
typedef struct side {
    const ttdi_tree *t;     /* its tree */
    kid *k;                 /* children, plus a sentinel at n (raw0 = end) */
    uint64_t *kh;           /* children's hashes */
    uint64_t *ih;           /* items (loops collapsed): hashes */
    size_t *ik;             /* items: first child; ik[ni] = n */
    uint32_t *per, *cnt;    /* items: loop period and count (1, 1: none) */
    uint64_t *keys;         /* scratch: keys of a region's children */
    size_t n, ni, cap;      /* children, items, room of every array */
} side;

/* Something to do, in output order: align a pair, or emit a hunk. */
typedef struct task {
    int pair;               /* 1: align nodes v[0], v[2] at raws v[1], v[3] */
    uint64_t v[4];          /* pair: node, raw0 per side; hunk: a0 a1 b0 b1 */
    uint64_t reps[2];       /* hunk: loop counts, 0 if none */
} task;

typedef struct tvec {
    task *v;                /* tasks */
    size_t n, cap;
} tvec;

typedef struct tctx {
    side s[2];              /* the two lists */
    tvec stack;             /* pending tasks, next on top */
    tvec acts;              /* the current pair's actions, in order */
    ttdi_xhunk *out;        /* hunks so far */
    size_t nout, outcap;
    int minimal;            /* exact Myers */
    int nomem;              /* an allocation failed */
} tctx;

static int tpush(tvec *v, const task *t)
{
    if (v->n == v->cap &&
        ttdi_grow(&v->v, &v->cap, v->n + 1, sizeof *v->v, 64) < 0)
        return TT_ENOMEM;
    v->v[v->n++] = *t;
    return 0;
}

static int side_room(side *s, size_t n)
{
    if (n <= s->cap)
        return 0;
    size_t ncap = s->cap ? s->cap : 64;
    while (ncap < n)
        ncap *= 2;
    int rc = ttfi_regrow(&s->k, ncap, sizeof *s->k);
    rc |= ttfi_regrow(&s->kh, ncap, sizeof *s->kh);
    rc |= ttfi_regrow(&s->ih, ncap, sizeof *s->ih);
    rc |= ttfi_regrow(&s->ik, ncap, sizeof *s->ik);
    rc |= ttfi_regrow(&s->per, ncap, sizeof *s->per);
    rc |= ttfi_regrow(&s->cnt, ncap, sizeof *s->cnt);
    rc |= ttfi_regrow(&s->keys, ncap, sizeof *s->keys);
    if (rc)
        return TT_ENOMEM;
    s->cap = ncap;
    return 0;
}

static void side_free(side *s)
{
    free(s->k);
    free(s->kh);
    free(s->ih);
    free(s->ik);
    free(s->per);
    free(s->cnt);
    free(s->keys);
}

/* Node p's children list in s's tree: its first child's node *c, its
 * end *end, the first key index *raw of that child (p's first key index
 * r); a shared node's are those of the copy it points at. */
static void list_of(const side *s, size_t p, uint64_t r, size_t *c, size_t *end, uint64_t *raw)
{
    size_t b = ttdi_tree_body(s->t, p);

    *c = b + 1;
    *end = p ? b + ttdi_node_size(ttdi_tree_node(s->t, b)) : s->t->n;
    *raw = r + (p ? 1 : 0);
}

/* s's children from node c (first key index raw) to end into s->k and
 * s->kh from index 0 on, with the sentinel. */
static void fill(side *s, size_t c, size_t end, uint64_t raw)
{
    s->n = 0;
    while (c < end) {
        const ttdi_node *cn = ttdi_tree_node(s->t, c);
        s->k[s->n] = (kid){c, raw};
        s->kh[s->n++] = cn->hash;
        raw += cn->len;
        c += ttdi_node_size(cn);
    }
    s->k[s->n] = (kid){end, raw};
}

/* s's children's hashes alone, from node c to end, into s->kh. */
static void fill_hashes(side *s, size_t c, size_t end)
{
    for (s->n = 0; c < end; c += ttdi_node_size(ttdi_tree_node(s->t, c)))
        s->kh[s->n++] = ttdi_tree_node(s->t, c)->hash;
}

/* Node c and key index *raw moved past m children of s's list. */
static size_t skip_kids(const side *s, size_t c, size_t m, uint64_t *raw)
{
    for (; m > 0; m--) {
        const ttdi_node *v = ttdi_tree_node(s->t, c);
        *raw += v->len;
        c += ttdi_node_size(v);
    }
    return c;
}

static int item_at(const side *s, size_t i, size_t lim, size_t *pk, uint32_t *pr);

/* The children of matched calls na (first key index ra) and nb (rb) into
 * the two sides' lists, less the children before the last loop item the
 * two lists share (issue 38 item 4: a worker's 3M calls that part near
 * their end were 24 bytes a child a side, a third of a 25M-event parted
 * pair's page faults). Those children are the same in both lists, and
 * every step after this reads them to no effect: the key prefix and the
 * common hash prefix only grow by them, paired children with equal hashes
 * make no action, align_list trims them as common prefix, and the loop
 * items of the rest are the same (items are decided left to right, each
 * from its own start on, and the dropped ones end at an item's start:
 * collapse_both decides the same shared items from there, once more for
 * the last). So they are found first, on a's hashes alone (collapse_both's
 * rule over the common hash prefix), and only the lists from the last
 * shared item on are kept; the raw indexes stay absolute. */
static int gather_pair(tctx *c, size_t na, uint64_t ra, size_t nb, uint64_t rb)
{
    side *a = &c->s[0], *b = &c->s[1];
    size_t ca, ea, cb, eb, x, y, nka = 0, nkb = 0, lcp = 0, from = 0;
    uint64_t xa, xb;
    int same = 1;

    list_of(a, na, ra, &ca, &ea, &xa);
    list_of(b, nb, rb, &cb, &eb, &xb);
    for (x = ca, y = cb; x < ea || y < eb;) {   /* counted first: room made once */
        const ttdi_node *u = x < ea ? ttdi_tree_node(a->t, x) : NULL;
        const ttdi_node *v = y < eb ? ttdi_tree_node(b->t, y) : NULL;
        same &= u && v && u->hash == v->hash;
        lcp += (size_t)same;
        nka += u != NULL;
        nkb += v != NULL;
        x += u ? ttdi_node_size(u) : 0;
        y += v ? ttdi_node_size(v) : 0;
    }
    if (side_room(a, nka + 2) < 0 || side_room(b, nkb + 2) < 0)
        return TT_ENOMEM;
    fill_hashes(a, ca, ea);
    for (size_t i = 0, k; i < lcp;) {   /* collapse_both's shared items */
        uint32_t r;
        if (!item_at(a, i, lcp, &k, &r))
            break;
        from = i;
        i += k * r;
    }
    ca = skip_kids(a, ca, from, &xa);
    cb = skip_kids(b, cb, from, &xb);
    fill(a, ca, ea, xa);
    fill(b, cb, eb, xb);
    return 0;
}

uint64_t ttdi_talign_items, ttdi_talign_groups;

/* Repetitions of the k children at i, back to back (the first hashes
 * compared before the memcmp: most groups do not repeat at all). */
static uint32_t reps_at(const side *s, size_t i, size_t k)
{
    uint32_t r = 1;

    ttdi_talign_groups++;
    while (i + (r + 1) * k <= s->n && s->kh[i + r * k] == s->kh[i] &&
           memcmp(s->kh + i, s->kh + i + r * k, k * sizeof *s->kh) == 0)
        r++;
    return r;
}

/* 1 if a child among the MAX_PERIOD after i (those a group at i could
 * repeat from) has i's hash: else no group at i repeats, and the item is
 * the child alone (most are: 8 compares, not 8 loops). */
static int starts_loop(const side *s, size_t i)
{
    for (size_t k = 1; k <= MAX_PERIOD && i + 2 * k <= s->n; k++)
        if (s->kh[i + k] == s->kh[i])
            return 1;
    return 0;
}

/* The item at child i: the longest run of a repeated group of up to
 * MAX_PERIOD siblings (shortest group on a tie), period *pk and count *pr
 * (1, 1: a single child). 1 if deciding it read only children before lim
 * and every period fit below lim (so a list that agrees with s's up to
 * lim has the same item at i). */
static int item_at(const side *s, size_t i, size_t lim, size_t *pk, uint32_t *pr)
{
    size_t best = 0;
    int inside = i + 2 * MAX_PERIOD <= lim;

    ttdi_talign_items++;
    *pk = 1;
    *pr = 1;
    if (!starts_loop(s, i))
        return inside;
    for (size_t k = 1; k <= MAX_PERIOD && i + 2 * k <= s->n; k++) {
        uint32_t r = reps_at(s, i, k);
        inside &= i + (r + 1) * k <= lim;
        if (r >= 2 && r * k > best) {
            best = r * k;
            *pk = k;
            *pr = r;
        }
    }
    return inside;
}

static void add_item(side *s, size_t i, size_t k, uint32_t r)
{
    uint64_t h = s->kh[i];

    if (r >= 2)
        h = XXH3_64bits_withSeed(s->kh + i, k * sizeof *s->kh, LOOP_SALT);
    s->ih[s->ni] = h;
    s->ik[s->ni] = i;
    s->per[s->ni] = (uint32_t)k;
    s->cnt[s->ni++] = r;
}

/* Items from s's children from child i on (s->ni items before it). */
static void collapse(side *s, size_t i)
{
    while (i < s->n) {
        size_t k;
        uint32_t r;
        item_at(s, i, 0, &k, &r);
        add_item(s, i, k, r);
        i += k * r;
    }
    s->ik[s->ni] = s->n;
}

/* Items of both lists. While the items are decided by children the two
 * lists share (their common hash prefix), they are found once, on a; each
 * list goes on alone from the first item that reads past the shared
 * children. The same items as collapsing each list whole, at half the
 * cost of a long common prefix (a worker's 125K calls that part near
 * their end). Those shared items are the same in both lists, matched one
 * to one with nothing to do, so only the last of them is stored, on both
 * (extra() may read it, before the first hunk): the items before it are
 * counted, not written (a worker's 3M), and the return value, how many
 * items both lists share that way, says where the lists' items are read
 * from (list_actions). */
static size_t collapse_both(side *a, side *b)
{
    size_t lcp = 0, i = 0, k, shared = 0, li = 0, lk = 1;
    uint32_t r, lr = 1;

    while (lcp < a->n && lcp < b->n && a->kh[lcp] == b->kh[lcp])
        lcp++;
    while (i < lcp && item_at(a, i, lcp, &k, &r)) {
        li = i;
        lk = k;
        lr = r;
        shared++;
        i += k * r;
    }
    a->ni = b->ni = shared ? shared - 1 : 0;
    if (shared) {           /* b's children there are a's: the same item */
        add_item(a, li, lk, lr);
        add_item(b, li, lk, lr);
    }
    collapse(a, i);
    collapse(b, i);
    return shared;
}

/* Align two lists: Myers on what is left after the common ends. */
static int align_list(const uint64_t *a, size_t na, const uint64_t *b,
                      size_t nb, int minimal, ttdi_hunk **h, size_t *nh)
{
    size_t p = 0, n, m;

    *h = NULL;
    *nh = 0;
    while (p < na && p < nb && a[p] == b[p])
        p++;
    n = na - p;
    m = nb - p;
    while (n && m && a[p + n - 1] == b[p + m - 1]) {
        n--;
        m--;
    }
    if (!n && !m)
        return 0;
    if (!n || !m || (n == 1 && m == 1)) {
        if (!(*h = malloc(sizeof **h)))
            return TT_ENOMEM;
        **h = (ttdi_hunk){p, p + n, p, p + m};
        *nh = 1;
        return 0;
    }
    int rc = ttdi_align(a + p, n, b + p, m, minimal, h, nh);
    for (size_t i = 0; rc == 0 && i < *nh; i++) {
        (*h)[i].a0 += p;
        (*h)[i].a1 += p;
        (*h)[i].b0 += p;
        (*h)[i].b1 += p;
    }
    return rc;
}

static int act_hunk(tctx *c, uint64_t a0, uint64_t a1, uint64_t b0,
                    uint64_t b1, uint64_t ra, uint64_t rb)
{
    task t = {0, {a0, a1, b0, b1}, {ra, rb}};
    return tpush(&c->acts, &t);
}

/* Children a[x], b[y] matched: align them if they differ. */
static int act_pair(tctx *c, size_t x, size_t y)
{
    const kid *ka = &c->s[0].k[x], *kb = &c->s[1].k[y];

    if (c->s[0].kh[x] == c->s[1].kh[y])
        return 0;
    task t = {1, {ka->node, ka->raw0, kb->node, kb->raw0}, {0, 0}};
    return tpush(&c->acts, &t);
}

/* Children a[x0..x1), b[y0..y1) differ as items: pair calls of the same
 * function, the rest are hunks. */
static int region(tctx *c, size_t x0, size_t x1, size_t y0, size_t y1)
{
    side *a = &c->s[0], *b = &c->s[1];
    ttdi_hunk *h = NULL;
    size_t nh = 0, x = x0, y = y0;
    int rc = 0;

    if (x0 == x1 || y0 == y1)
        return act_hunk(c, a->k[x0].raw0, a->k[x1].raw0, b->k[y0].raw0,
                        b->k[y1].raw0, 0, 0);
    for (size_t i = x0; i < x1; i++)
        a->keys[i - x0] = ttdi_tree_node(a->t, a->k[i].node)->key;
    for (size_t i = y0; i < y1; i++)
        b->keys[i - y0] = ttdi_tree_node(b->t, b->k[i].node)->key;
    if ((rc = align_list(a->keys, x1 - x0, b->keys, y1 - y0, c->minimal, &h, &nh)) < 0)
        return rc;
    for (size_t k = 0; k <= nh && rc == 0; k++) {
        size_t ex = k < nh ? x0 + h[k].a0 : x1;
        for (; x < ex && rc == 0; x++, y++)
            rc = act_pair(c, x, y);
        if (k == nh || rc < 0)
            break;
        x = x0 + h[k].a1;
        y = y0 + h[k].b1;
        rc = act_hunk(c, a->k[x0 + h[k].a0].raw0, a->k[x].raw0,
                      b->k[y0 + h[k].b0].raw0, b->k[y].raw0, 0, 0);
    }
    free(h);
    return rc;
}

/* Matched items i, j: a count hunk if they are loops run a different
 * number of times (iteration k with iteration k, the extra ones differ). */
static int counts(tctx *c, size_t i, size_t j)
{
    const side *a = &c->s[0], *b = &c->s[1];
    uint32_t ca = a->cnt[i], cb = b->cnt[j], m = ca < cb ? ca : cb;
    size_t pa = a->per[i], pb = b->per[j];

    if (ca == cb)
        return 0;
    return act_hunk(c, a->k[a->ik[i] + m * pa].raw0, a->k[a->ik[i] + ca * pa].raw0,
                    b->k[b->ik[j] + m * pb].raw0, b->k[b->ik[j] + cb * pb].raw0,
                    ca, cb);
}

/* The EXIT of one of two matched calls, if only one returned; both
 * sides' children are gathered (their sentinels: where the EXIT goes). */
static int closure(tctx *c, size_t na, size_t nb)
{
    const ttdi_node *x = ttdi_tree_node(c->s[0].t, na);
    const ttdi_node *y = ttdi_tree_node(c->s[1].t, nb);
    uint64_t ea = c->s[0].k[c->s[0].n].raw0, eb = c->s[1].k[c->s[1].n].raw0;
    int ca = !!(ttdi_node_flags(x) & TTDI_NODE_CLOSED);
    int cb = !!(ttdi_node_flags(y) & TTDI_NODE_CLOSED);

    if (ca == cb)
        return 0;
    return act_hunk(c, ea, ea + (uint64_t)ca, eb, eb + (uint64_t)cb, 0, 0);
}

/* Where the differing region after matched items i, j begins: if they
 * are loops run a different number of times, the extra iterations join it
 * (the loop ended early because an iteration changed: that iteration is
 * aligned with what replaced it, iteration k with iteration k); else just
 * after them. 1 if the extra iterations were taken. */
static int extra(const tctx *c, size_t i, size_t j, size_t *x, size_t *y)
{
    const side *a = &c->s[0], *b = &c->s[1];
    uint32_t ca = a->cnt[i], cb = b->cnt[j], m = ca < cb ? ca : cb;

    *x = a->ik[i + 1];
    *y = b->ik[j + 1];
    if (ca == cb)
        return 0;
    *x = a->ik[i] + m * a->per[i];
    *y = b->ik[j] + m * b->per[j];
    return 1;
}

/* The actions of matched calls na, nb, whose children are gathered, in
 * order, appended to c->acts. */
static int list_actions(tctx *c, size_t na, size_t nb)
{
    side *a = &c->s[0], *b = &c->s[1];
    ttdi_hunk *h = NULL;
    size_t nh = 0, sh = collapse_both(a, b);
    size_t i = sh ? sh - 1 : 0, j = i;  /* the shared items before: equal */
    int rc;

    /* the lists past the shared items: the same hunks as aligning them
       whole (align_list trims their common prefix first) */
    if ((rc = align_list(a->ih + sh, a->ni - sh, b->ih + sh, b->ni - sh, c->minimal, &h,
                         &nh)) < 0)
        return rc;
    for (size_t k = 0; k < nh; k++) {
        h[k].a0 += sh;
        h[k].a1 += sh;
        h[k].b0 += sh;
        h[k].b1 += sh;
    }
    for (size_t k = 0; k <= nh && rc == 0; k++) {
        size_t ei = k < nh ? h[k].a0 : a->ni, x = 0, y = 0;
        int took = 0;
        for (; i < ei && rc == 0; i++, j++) {
            if (k < nh && i + 1 == ei)
                took = extra(c, i, j, &x, &y);
            if (!took)
                rc = counts(c, i, j);
        }
        if (k == nh || rc < 0)
            break;
        if (!took) {
            x = a->ik[h[k].a0];
            y = b->ik[h[k].b0];
        }
        rc = region(c, x, a->ik[h[k].a1], y, b->ik[h[k].b1]);
        i = h[k].a1;
        j = h[k].b1;
    }
    free(h);
    return rc < 0 ? rc : closure(c, na, nb);
}

/* 1 if children x of both lists are calls of one function (their ENTERs
 * are the same event), so that the flat sequences agree past x's start. */
static int same_call(const tctx *c, size_t x)
{
    const side *a = &c->s[0], *b = &c->s[1];

    if (x >= a->n || x >= b->n)
        return 0;
    const ttdi_node *u = ttdi_tree_node(a->t, a->k[x].node);
    const ttdi_node *v = ttdi_tree_node(b->t, b->k[x].node);
    return u->key == v->key && (ttdi_node_flags(u) & TTDI_NODE_CALL) &&
           (ttdi_node_flags(v) & TTDI_NODE_CALL);
}

/* Drop the first m children of s's list (the sentinel stays at the end). */
static void drop_kids(side *s, size_t m)
{
    memmove(s->k, s->k + m, (s->n - m + 1) * sizeof *s->k);
    memmove(s->kh, s->kh + m, (s->n - m) * sizeof *s->kh);
    s->n -= m;
}

/* The split slid down into children x (same_call): they are paired, and
 * the children after them aligned as a list of their own. */
static int slide_into(tctx *c, size_t na, size_t nb, size_t x)
{
    int rc;

    c->acts.n = 0;
    if ((rc = act_pair(c, x, x)) < 0)
        return rc;
    drop_kids(&c->s[0], x + 1);
    drop_kids(&c->s[1], x + 1);
    return list_actions(c, na, nb);
}

/* How many children, from the first, are the same functions in both
 * lists (one key sequence); *differ: 1 if a pair of them differs inside. */
static size_t key_prefix(const tctx *c, int *differ)
{
    const side *a = &c->s[0], *b = &c->s[1];
    size_t i = 0;

    *differ = 0;
    for (; i < a->n && i < b->n; i++) {
        if (ttdi_tree_node(a->t, a->k[i].node)->key != ttdi_tree_node(b->t, b->k[i].node)->key)
            break;
        *differ |= a->kh[i] != b->kh[i];
    }
    return i;
}

/* Same calls in the same order, the first kp children: child i with child
 * i (execution indexing), whatever equal subtrees lie elsewhere in the
 * lists; the rest aligned as a list of its own. */
static int in_order(tctx *c, size_t na, size_t nb, size_t kp)
{
    int rc = 0;

    c->acts.n = 0;
    for (size_t i = 0; i < kp && rc == 0; i++)
        rc = act_pair(c, i, i);
    if (rc < 0)
        return rc;
    if (kp == c->s[0].n && kp == c->s[1].n)
        return closure(c, na, nb);
    drop_kids(&c->s[0], kp);
    drop_kids(&c->s[1], kp);
    return list_actions(c, na, nb);
}

/* The actions of one matched pair of calls, the first of them where the
 * flat sequences first differ. Subtrees and loops first. If that puts the
 * first action before the first child that differs (the loops were cut
 * differently in the two runs, or whole subtrees matched across a changed
 * one), the children align by function key alone, call with call, as the
 * flat event sequences would. While no hunk is out yet (this pair holds
 * the split), a hunk at that child when the other run's child there is a
 * call of the same function slides into them: the two are paired and the
 * rest aligned after them (see "Where the split goes"). */
static int pair_actions(tctx *c, const task *p)
{
    side *a = &c->s[0], *b = &c->s[1];
    size_t lcp = 0, na = (size_t)p->v[0], nb = (size_t)p->v[2];
    int rc;

    if ((rc = gather_pair(c, na, p->v[1], nb, p->v[3])) < 0)
        return rc;
    int differ;
    size_t kp = key_prefix(c, &differ);
    if (differ && (kp == a->n) == (kp == b->n))
        return in_order(c, na, nb, kp);
    while (lcp < a->n && lcp < b->n && a->kh[lcp] == b->kh[lcp])
        lcp++;
    c->acts.n = 0;
    if ((rc = list_actions(c, na, nb)) < 0)
        return rc;
    if (!c->acts.n)
        return 0;
    const task *t = &c->acts.v[0];
    uint64_t at = t->pair ? t->v[1] : t->v[0];
    if (!c->nout && at == a->k[lcp].raw0 && !t->pair && same_call(c, lcp))
        return slide_into(c, na, nb, lcp);
    if (at >= a->k[lcp].raw0)
        return 0;
    c->acts.n = 0;
    if ((rc = region(c, 0, a->n, 0, b->n)) < 0)
        return rc;
    return closure(c, na, nb);
}

/* Append a hunk to the output. Hunks that touch (a call's last children,
 * its EXIT, its next siblings: a crash and the returns it prevented) are
 * merged into one, as the flat alignment would show them; loop count
 * hunks stay apart. */
static int emit(tctx *c, const task *t)
{
    ttdi_xhunk x = {t->v[0], t->v[1], t->v[2], t->v[3], {t->reps[0], t->reps[1]}};
    ttdi_xhunk *last = c->nout ? &c->out[c->nout - 1] : NULL;

    if (x.a0 == x.a1 && x.b0 == x.b1)
        return 0;
    if (last && !last->reps[0] && !x.reps[0] && last->a1 == x.a0 &&
        last->b1 == x.b0) {
        last->a1 = x.a1;
        last->b1 = x.b1;
        return 0;
    }
    if (c->nout == c->outcap &&
        ttdi_grow(&c->out, &c->outcap, c->nout + 1, sizeof *c->out, 16) < 0)
        return TT_ENOMEM;
    c->out[c->nout++] = x;
    return 0;
}

static int run(tctx *c)
{
    int rc = 0;

    while (c->stack.n && rc == 0) {
        task t = c->stack.v[--c->stack.n];
        if (!t.pair) {
            rc = emit(c, &t);
            continue;
        }
        if ((rc = pair_actions(c, &t)) < 0)
            break;
        for (size_t i = c->acts.n; i-- > 0 && rc == 0;)
            rc = tpush(&c->stack, &c->acts.v[i]);
    }
    return rc;
}

int ttdi_tree_align(const ttdi_tree *a, const ttdi_tree *b, int minimal,
                    ttdi_xhunk **out, size_t *nout)
{
    tctx c;
    int rc = 0;

    memset(&c, 0, sizeof c);
    *out = NULL;
    *nout = 0;
    c.s[0].t = a;
    c.s[1].t = b;
    c.minimal = minimal;
    if (ttdi_tree_node(a, 0)->hash != ttdi_tree_node(b, 0)->hash) {
        task root = {1, {0, 0, 0, 0}, {0, 0}};
        rc = tpush(&c.stack, &root);
        if (rc == 0)
            rc = run(&c);
    }
    side_free(&c.s[0]);
    side_free(&c.s[1]);
    free(c.stack.v);
    free(c.acts.v);
    if (rc < 0) {
        free(c.out);
        return rc;
    }
    *out = c.out;
    *nout = c.nout;
    return 0;
}
