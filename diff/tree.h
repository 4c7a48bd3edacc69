/*
 * tree.h - internal interface of the call-tree aligner (tree.c): a thread's
 * kept events as a compact call tree with subtree hashes, built as they
 * stream in, and the alignment of two such trees into hunks that begin and
 * end at call boundaries. Not public: ttdiff.h is.
 */
#ifndef TTDI_TREE_H
#define TTDI_TREE_H

#include "align.h"

/* Node flags. */
#define TTDI_NODE_CALL 1u   /* an ENTER and what it called (else a leaf) */
#define TTDI_NODE_CLOSED 2u /* the call's own EXIT was seen */
#define TTDI_NODE_MAX (1u << 30) /* nodes per thread (size has 30 bits) */
/* Low bits of info that flag a shared node (CLOSED alone is never a
 * node's flags): a returned call whose subtree is stored once, at the
 * node info >> 2, an earlier copy (ttdi_tree.share). Its size is 1. */
#define TTDI_NODE_SHARED 2u

/* One node (24 bytes), in preorder: its subtree is nodes [i, i + size)
 * (a shared node: size 1, its children at ttdi_tree_body). Node 0 is the
 * thread's top level (no events of its own). Where a node
 * starts is not stored: the first child starts one event after its parent
 * (at 0 for the root's), each next sibling where the previous one ends. */
typedef struct ttdi_node {
    uint64_t hash;          /* subtree hash: XXH3 chained over the key,
                               the children's hashes in order, the end */
    uint64_t key;           /* ENTER key of a call, the key of a leaf */
    uint32_t info;          /* size << 2 | TTDI_NODE_* flags */
    uint32_t len;           /* key indexes it spans (root: capped) */
} ttdi_node;

static inline uint32_t ttdi_node_size(const ttdi_node *nd)
{
    return (nd->info & 3u) == TTDI_NODE_SHARED ? 1u : nd->info >> 2;
}

static inline uint32_t ttdi_node_flags(const ttdi_node *nd)
{
    uint32_t f = nd->info & 3u;

    return f == TTDI_NODE_SHARED ? TTDI_NODE_CALL | TTDI_NODE_CLOSED : f;
}

/* One open call while building. */
typedef struct ttdi_tframe {
    size_t node;            /* its node */
    uint64_t raw0;          /* key index of its ENTER */
    uint64_t h;             /* hash of the key and children so far */
    uint64_t xkey;          /* the EXIT key that closes it */
} ttdi_tframe;

/* A recent subtree, by hash (share mode). */
typedef struct ttdi_tshare {
    uint64_t hash;          /* its hash */
    uint32_t node;          /* its root node, 0 if none */
    uint32_t info, len;     /* that node's info and len */
} ttdi_tshare;

/* A thread's call tree. */
typedef struct ttdi_tree {
    ttdi_keybuf nb;         /* the nodes, 3 words each */
    size_t n;               /* nodes used (node 0 is the root) */
    uint64_t raw;           /* keys fed */
    ttdi_tframe *st;        /* open calls, st[0] the root */
    size_t nst, stcap;
    int pend;               /* 1: the last key was an ENTER, its call
                               (node n - 1) open but not yet on st */
    ttdi_openset open;      /* EXIT keys of st[1..nst) while live */
    int live;               /* 1: open is kept (the stack grew deep) */
    int done;               /* 1: ttdi_tree_finish ran */
    int share;              /* 1: a returned call equal to a recent one
                               is one shared node (set before reset) */
    ttdi_dmcache sh;        /* share: recent subtrees (ttdi_tshare slots) */
} ttdi_tree;

/* Node i of t. */
static inline ttdi_node *ttdi_tree_node(const ttdi_tree *t, size_t i)
{
    return (ttdi_node *)(void *)(t->nb.k + 3 * i);
}

/* The node that holds node i's children: i, or the copy a shared node
 * points at. Its children are the nodes after it, within its size. */
static inline size_t ttdi_tree_body(const ttdi_tree *t, size_t i)
{
    uint32_t info = ttdi_tree_node(t, i)->info;

    return (info & 3u) == TTDI_NODE_SHARED ? info >> 2 : i;
}

/* Open calls, the root included (the stack depth while building). */
static inline size_t ttdi_tree_depth(const ttdi_tree *t)
{
    return t->nst + (size_t)t->pend;
}

/* Start a new tree in t (memory kept); bound = keys expected. With
 * t->share set, a returned call equal to a recent one (same hash, size
 * and length) keeps only its own node, pointing at the
 * earlier copy (TTDI_NODE_SHARED): the aligner sees the same tree, in
 * fewer nodes. 0 or TT_ENOMEM. */
int ttdi_tree_reset(ttdi_tree *t, size_t bound);
/* Add the next kept key, of event kind (TTF_EV_*). An EXIT closes the
 * innermost open call it matches, and every call above it (a longjmp);
 * one that matches none is a leaf. 0, or TT_ENOMEM (also past
 * TTDI_NODE_MAX nodes: such a thread needs --flat). */
int ttdi_tree_feed(ttdi_tree *t, uint64_t key, int kind);
/* Close the calls still open (the thread ended or died inside them) and
 * the root. Call once, after the last feed; a tree whose reset failed (or
 * never ran) is only marked done. */
void ttdi_tree_finish(ttdi_tree *t);
void ttdi_tree_free(ttdi_tree *t);

/* Align two finished trees. *out (malloc'd, caller frees, NULL if none)
 * gets the hunks in key-index space, ascending; a hunk with reps[0] set is
 * a loop count change: a group of sibling calls repeated reps[0] times in
 * a and reps[1] in b, the range being the extra repetitions. Every hunk
 * side is whole sibling subtrees and EXITs of calls that returned in one
 * run only: no call begun in a hunk continues after it. minimal: exact
 * Myers on every list (no cost cap). 0 or TT_ENOMEM. */
int ttdi_tree_align(const ttdi_tree *a, const ttdi_tree *b, int minimal,
                    ttdi_xhunk **out, size_t *nout);

/* Items the aligner's loop collapse decided (a list prefix that both runs
 * share is decided once), and the groups of siblings it looked for repeats
 * of (none at a child whose hash none of the next 8 has), all calls added
 * up: for the tests. */
extern uint64_t ttdi_talign_items, ttdi_talign_groups;

#endif
