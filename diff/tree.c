/*
 * tree.c - a thread's kept events as a call tree with subtree hashes, built
 * in one streaming pass (the aligner on top is talign.c).
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
 * Unbalanced streams: an EXIT closes the innermost open call with that
 * function (the open-key counts make "none" an O(1) answer) and every call
 * above it, which ended without an EXIT (longjmp, exceptions); an EXIT with
 * no open call is a leaf (the trace began inside it); calls still open at
 * the end (a crash, a thread that never returned) are closed there.
 */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "tree.h"

#define END_EXIT 0x45584954ull      /* folded in when a call returned */
#define END_CUT 0x43555421ull       /* ... when it ended without an EXIT */
#define END_ROOT 0x524f4f54ull      /* ... for the root */

static uint64_t chain(uint64_t h, uint64_t x)
{
    return XXH3_64bits_withSeed(&x, sizeof x, h);
}

/* A new node at the end; NULL on ENOMEM. */
static ttd_node *new_node(ttd_tree *t)
{
    if (t->n + 1 >= TTD_NODE_MAX)
        return NULL;
    if (3 * (t->n + 1) > t->nb.cap &&
        ttd_keybuf_reserve(&t->nb, 6 * t->n + 64, 3 * t->n) < 0)
        return NULL;
    ttd_node *nd = ttd_tree_node(t, t->n++);
    memset(nd, 0, sizeof *nd);
    nd->info = 1u << 2;
    nd->len = 1;
    return nd;
}

static int push_call(ttd_tree *t, size_t node, uint64_t raw0, uint64_t h)
{
    if (t->nst == t->stcap) {
        size_t ncap = t->stcap ? 2 * t->stcap : 64;
        ttd_tframe *ns = realloc(t->st, ncap * sizeof *ns);
        if (!ns)
            return TT_ENOMEM;
        t->st = ns;
        t->stcap = ncap;
    }
    t->st[t->nst++] = (ttd_tframe){node, raw0, h};
    return 0;
}

int ttd_tree_reset(ttd_tree *t, size_t bound)
{
    int rc = ttd_keybuf_reserve(&t->nb, 3 * (bound / 2) + 64, 0);

    t->n = 0;
    t->raw = 0;
    t->nst = 0;
    t->done = 0;
    ttd_openset_clear(&t->open);
    if (rc < 0)
        return rc;
    ttd_node *root = new_node(t);
    if (!root)
        return TT_ENOMEM;
    return push_call(t, 0, 0, 0);
}

void ttd_tree_free(ttd_tree *t)
{
    ttd_keybuf_free(&t->nb);
    free(t->st);
    ttd_openset_free(&t->open);
    memset(t, 0, sizeof *t);
}

/* Close the innermost open call, ending at key index end; its end marker
 * is `how`. Its hash goes into its parent. */
static void close_top(ttd_tree *t, uint64_t end, uint64_t how)
{
    ttd_tframe *f = &t->st[--t->nst];
    ttd_node *nd = ttd_tree_node(t, f->node);

    nd->hash = chain(f->h, how);
    nd->len = (uint32_t)(end - f->raw0);
    nd->info = (uint32_t)(t->n - f->node) << 2 | TTD_NODE_CALL |
               (how == END_EXIT ? TTD_NODE_CLOSED : 0);
    if (t->nst) {
        ttd_openset_del(&t->open, ttd_norm_exit_of(nd->key));
        t->st[t->nst - 1].h = chain(t->st[t->nst - 1].h, nd->hash);
    }
}

/* The open call (stack position >= 1) an EXIT with key k closes, 0 if
 * none. */
static size_t closes(const ttd_tree *t, uint64_t k)
{
    size_t top = t->nst - 1;

    if (top && ttd_norm_exit_of(ttd_tree_node(t, t->st[top].node)->key) == k)
        return top;     /* the usual case: the innermost call returns */
    if (!ttd_openset_count(&t->open, k))
        return 0;
    for (size_t i = t->nst; i-- > 1;)
        if (ttd_norm_exit_of(ttd_tree_node(t, t->st[i].node)->key) == k)
            return i;
    return 0;
}

int ttd_tree_feed(ttd_tree *t, uint64_t key, int kind)
{
    uint64_t raw = t->raw++;
    size_t f = kind == TTF_EV_EXIT ? closes(t, key) : 0;

    if (f) {
        while (t->nst > f + 1)
            close_top(t, raw, END_CUT);
        close_top(t, raw + 1, END_EXIT);
        return 0;
    }
    size_t at = t->n;
    ttd_node *nd = new_node(t);
    if (!nd)
        return TT_ENOMEM;
    nd->key = key;
    if (kind != TTF_EV_ENTER) {
        nd->hash = key;
        t->st[t->nst - 1].h = chain(t->st[t->nst - 1].h, key);
        return 0;
    }
    nd->info |= TTD_NODE_CALL;
    if (push_call(t, at, raw, key) < 0)
        return TT_ENOMEM;
    return ttd_openset_add(&t->open, ttd_norm_exit_of(key));
}

void ttd_tree_finish(ttd_tree *t)
{
    if (t->done)
        return;
    while (t->nst > 1)
        close_top(t, t->raw, END_CUT);
    ttd_node *root = ttd_tree_node(t, 0);
    root->hash = chain(t->st[0].h, END_ROOT);
    root->len = (uint32_t)(t->raw > UINT32_MAX ? UINT32_MAX : t->raw);
    root->info = (uint32_t)t->n << 2;
    t->nst = 0;
    t->done = 1;
}
