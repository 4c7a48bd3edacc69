/*
 * tree.c - a thread's kept events as a call tree with subtree hashes, built
 * in one streaming pass (the aligner on top is talign.c).
 * Stage 1 align of diff/STAGES (its header: tree.h).
 *
 * Design. Each call (ENTER up to its EXIT) and each other kept event (a
 * message, a mark, a crash, an EXIT that closes nothing) is one node of 24
 * bytes, stored in preorder, so a subtree is a contiguous range and a call
 * costs 12 bytes per event whatever its depth. A stack of open calls
 * carries, per call, a running hash: XXH3 of the next child's hash seeded
 * with the hash so far, starting from the function key; when the call ends
 * the end (its EXIT, or "left without one") is folded in and the result is
 * the call's subtree hash, folded into its parent in turn. Two subtrees
 * with the same hash are the same calls in the same order (up to a 64-bit
 * collision), which the aligner uses to match them in O(1).
 *
 * Shared subtrees (ttdiff's trees): a returned call whose subtree equals
 * a recent one (a table of recent subtrees by hash, size and length)
 * keeps only its own node, pointing at the copy; its children nodes are
 * dropped from the end of the array. Programs repeat themselves (loop
 * bodies, leaf helpers), so a 10M-event run keeps 2.3M nodes rather
 * than 5M; the aligner reads a shared node's children at the copy.
 *
 * A call goes on the stack only when something happens inside it: most
 * calls return at once (the ENTER, then its EXIT), and such a call is
 * closed as a node with no frame ("pending" in between).
 *
 * Unbalanced streams: an EXIT closes the innermost open call with that
 * function (a scan of the stack; past 64 open calls, open-key counts make
 * "none" an O(1) answer) and every call
 * above it, which ended without an EXIT (longjmp, exceptions); an EXIT with
 * no open call is a leaf (the trace began inside it); calls still open at
 * the end (a crash, a thread that never returned) are closed there.
 */
#include <stdlib.h>
#include <string.h>
#define XXH_INLINE_ALL      /* chain() runs once or twice per event */
#include <xxhash.h>

#include "tree.h"

#define END_EXIT 0x45584954ull      /* folded in when a call returned */
#define END_CUT 0x43555421ull       /* ... when it ended without an EXIT */
#define END_ROOT 0x524f4f54ull      /* ... for the root */

/* Open calls up to which an EXIT that is not the innermost call's looks
 * for its call by scanning the stack; deeper, the open set counts the
 * open EXIT keys, so an EXIT that closes nothing costs O(1). */
#define SCAN_DEPTH 64

static uint64_t chain(uint64_t h, uint64_t x)
{
    return XXH3_64bits_withSeed(&x, sizeof x, h);
}

/* Room for one more node: 0, or TT_ENOMEM (also at TTDI_NODE_MAX). */
__attribute__((noinline))
static int node_room(ttdi_tree *t)
{
    if (t->n + 1 >= TTDI_NODE_MAX)
        return TT_ENOMEM;
    return ttdi_keybuf_reserve(&t->nb, 6 * t->n + 64, 3 * t->n);
}

/* A new node at the end, all of it set; NULL on ENOMEM. */
static inline ttdi_node *new_node(ttdi_tree *t, uint64_t key, uint64_t hash,
                                  uint32_t flags)
{
    if ((3 * (t->n + 1) > t->nb.cap || t->n + 1 >= TTDI_NODE_MAX) && node_room(t) < 0)
        return NULL;
    ttdi_node *nd = ttdi_tree_node(t, t->n++);
    *nd = (ttdi_node){hash, key, 1u << 2 | flags, 1};
    return nd;
}

static int push_call(ttdi_tree *t, size_t node, uint64_t raw0, uint64_t key)
{
    if (t->nst == t->stcap &&
        ttdi_grow(&t->st, &t->stcap, t->nst + 1, sizeof *t->st, 64) < 0)
        return TT_ENOMEM;
    uint64_t x = node ? ttdi_norm_exit_of(key) : 0;
    t->st[t->nst++] = (ttdi_tframe){node, raw0, key, x};
    return t->live ? ttdi_openset_add(&t->open, x) : 0;
}

/* The share table for a tree of about bound keys, emptied: a slot per 4
 * keys, 64 to 8192 (192 KB: it must stay in the cache, a miss per call
 * costs more than the nodes it saves; it holds recent subtrees, not all).
 * 0 or TT_ENOMEM. */
static int share_reset(ttdi_tree *t, size_t bound)
{
    size_t cap = 64;

    while (cap < 8192 && 4 * cap < bound)
        cap *= 2;
    return ttdi_dmcache_reset(&t->sh, cap, sizeof(ttdi_tshare));
}

int ttdi_tree_reset(ttdi_tree *t, size_t bound)
{
    int rc = ttdi_keybuf_reserve(&t->nb, 3 * (bound / 2) + 64, 0);

    t->n = 0;
    t->raw = 0;
    t->nst = 0;
    t->pend = 0;
    t->done = 0;
    t->live = 0;
    ttdi_openset_clear(&t->open);
    if (rc == 0 && t->share)
        rc = share_reset(t, bound);
    if (rc < 0)
        return rc;
    if (!new_node(t, 0, 0, 0))
        return TT_ENOMEM;
    return push_call(t, 0, 0, 0);
}

void ttdi_tree_free(ttdi_tree *t)
{
    ttdi_keybuf_free(&t->nb);
    free(t->st);
    ttdi_dmcache_free(&t->sh);
    ttdi_openset_free(&t->open);
    memset(t, 0, sizeof *t);
}

/* Drop nodes [from, n): the share slots that name them are emptied
 * (only returned calls with children are named; these nodes were just
 * written, their slots just used: both still in the cache). */
static void drop_from(ttdi_tree *t, size_t from)
{
    for (size_t i = from; i < t->n; i++) {
        const ttdi_node *c = ttdi_tree_node(t, i);
        if ((c->info & 3u) != (TTDI_NODE_CALL | TTDI_NODE_CLOSED) || c->info >> 2 < 2)
            continue;
        ttdi_tshare *s = ttdi_dmcache_slot(&t->sh, c->hash);
        if (s->node == i)
            s->node = 0;
    }
    t->n = from;
}

/* The returned call at node at, its subtree [at, n) just closed: if the
 * share table holds a copy (same hash, size in nodes and length: the
 * same subtree, as far as a 64-bit hash tells, which is what the aligner
 * goes by too), the call becomes one node pointing at it; else it is the
 * copy from now on. A copy is never dropped while a node points at it:
 * nodes are dropped only from the end, and what points at a node comes
 * after it; a slot whose node is dropped is emptied. The copy is not
 * read: that would be a cache miss per call. */
static void share(ttdi_tree *t, size_t at)
{
    ttdi_node *nd = ttdi_tree_node(t, at);
    ttdi_tshare *s = ttdi_dmcache_slot(&t->sh, nd->hash);

    if (s->node && s->hash == nd->hash && s->info == nd->info && s->len == nd->len) {
        drop_from(t, at + 1);
        nd->info = s->node << 2 | TTDI_NODE_SHARED;
        return;
    }
    *s = (ttdi_tshare){nd->hash, (uint32_t)at, nd->info, nd->len};
}

/* Close the innermost open call, ending at key index end; its end marker
 * is `how`. Its hash goes into its parent. */
static void close_top(ttdi_tree *t, uint64_t end, uint64_t how)
{
    ttdi_tframe *f = &t->st[--t->nst];
    ttdi_node *nd = ttdi_tree_node(t, f->node);
    uint64_t h = chain(f->h, how);
    int shared = t->share && how == END_EXIT && t->n - f->node > 1;

    if (shared)     /* its slot loads while the parent's hash is made */
        __builtin_prefetch(ttdi_dmcache_slot(&t->sh, h));
    nd->hash = h;
    nd->len = (uint32_t)(end - f->raw0);
    nd->info = (uint32_t)(t->n - f->node) << 2 | TTDI_NODE_CALL |
               (how == END_EXIT ? TTDI_NODE_CLOSED : 0);
    if (t->live)
        ttdi_openset_del(&t->open, f->xkey);
    t->st[t->nst - 1].h = chain(t->st[t->nst - 1].h, h);
    if (shared)
        share(t, f->node);
}

/* Make the open set live: the EXIT keys of every open call. 0 or
 * TT_ENOMEM (the set is then left idle, emptied). */
static int go_live(ttdi_tree *t)
{
    for (size_t i = 1; i < t->nst; i++)
        if (ttdi_openset_add(&t->open, t->st[i].xkey) < 0) {
            ttdi_openset_clear(&t->open);
            return TT_ENOMEM;
        }
    t->live = 1;
    return 0;
}

/* The open call (stack position >= 1) an EXIT with key k closes, 0 if
 * none. Mostly the innermost call; else a scan, or the open counts when
 * the stack is deep (a scan too if they cannot be had). */
static size_t closes(ttdi_tree *t, uint64_t k)
{
    size_t top = t->nst - 1;

    if (top && t->st[top].xkey == k)
        return top;
    if (!t->live && top > SCAN_DEPTH)
        go_live(t);
    if (t->live && !ttdi_openset_count(&t->open, k))
        return 0;
    for (size_t i = top; i >= 1; i--)
        if (t->st[i].xkey == k)
            return i;
    return 0;
}

/* Calls closed back under SCAN_DEPTH / 2: the set goes idle (its keys
 * deleted one by one, so it is empty again). */
static void maybe_idle(ttdi_tree *t)
{
    if (!t->live || t->nst >= SCAN_DEPTH / 2)
        return;
    for (size_t i = t->nst; i-- > 1;)
        ttdi_openset_del(&t->open, t->st[i].xkey);
    t->live = 0;
}

/* The pending call (node n - 1, entered at key index raw0) ended with
 * nothing in it: `how` as close_top would end it, without its frame. */
static void close_pending(ttdi_tree *t, uint64_t end, uint64_t raw0, uint64_t how)
{
    ttdi_node *nd = ttdi_tree_node(t, t->n - 1);

    t->pend = 0;
    nd->hash = chain(nd->key, how);
    nd->len = (uint32_t)(end - raw0);
    nd->info = 1u << 2 | TTDI_NODE_CALL | (how == END_EXIT ? TTDI_NODE_CLOSED : 0);
    t->st[t->nst - 1].h = chain(t->st[t->nst - 1].h, nd->hash);
}

/* Every key but the two common ones (an ENTER with no call pending, the
 * EXIT of the pending call): out of line, so that those take few
 * registers. A pending call that something else follows goes on the
 * stack first. */
__attribute__((noinline))
static int feed_other(ttdi_tree *t, uint64_t key, int kind, uint64_t raw)
{
    if (t->pend) {
        t->pend = 0;
        if (push_call(t, t->n - 1, raw - 1, ttdi_tree_node(t, t->n - 1)->key) < 0)
            return TT_ENOMEM;
    }
    size_t f = kind == TTF_EV_EXIT ? closes(t, key) : 0;
    if (f) {
        while (t->nst > f + 1)
            close_top(t, raw, END_CUT);
        close_top(t, raw + 1, END_EXIT);
        maybe_idle(t);
        return 0;
    }
    if (!new_node(t, key, kind == TTF_EV_ENTER ? 0 : key,
                  kind == TTF_EV_ENTER ? TTDI_NODE_CALL : 0))
        return TT_ENOMEM;
    if (kind == TTF_EV_ENTER)
        t->pend = 1;        /* on the stack when something comes inside */
    else
        t->st[t->nst - 1].h = chain(t->st[t->nst - 1].h, key);
    return 0;
}

int ttdi_tree_feed(ttdi_tree *t, uint64_t key, int kind)
{
    uint64_t raw = t->raw++;

    if (t->pend && kind == TTF_EV_EXIT &&
        key == ttdi_norm_exit_of(ttdi_tree_node(t, t->n - 1)->key)) {
        close_pending(t, raw + 1, raw - 1, END_EXIT);   /* a leaf call */
        return 0;
    }
    if (t->pend || kind != TTF_EV_ENTER)
        return feed_other(t, key, kind, raw);
    if (!new_node(t, key, 0, TTDI_NODE_CALL))
        return TT_ENOMEM;
    t->pend = 1;
    return 0;
}

void ttdi_tree_finish(ttdi_tree *t)
{
    if (t->done)
        return;
    if (t->nst == 0) { /* never reset, or its reset ran out of memory */
        t->done = 1;
        return;
    }
    if (t->pend)
        close_pending(t, t->raw, t->raw - 1, END_CUT);
    while (t->nst > 1)
        close_top(t, t->raw, END_CUT);
    ttdi_node *root = ttdi_tree_node(t, 0);
    root->hash = chain(t->st[0].h, END_ROOT);
    root->len = (uint32_t)(t->raw > UINT32_MAX ? UINT32_MAX : t->raw);
    root->info = (uint32_t)t->n << 2;
    t->nst = 0;
    t->live = 0;
    ttdi_openset_clear(&t->open);
    t->done = 1;
}
