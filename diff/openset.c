/*
 * openset.c - a counting multiset of 64-bit keys, kept beside a call stack
 * (the walk's frames, the collapser's open calls) so that an EXIT whose
 * function has no open frame costs O(1) expected rather than a scan of the
 * whole stack. Linear probing; a slot with count 0 is empty, and a key
 * whose count drops to 0 is removed by shifting its followers back, so the
 * table holds only keys of frames still open.
 * Stage 0 prepare of diff/STAGES (its header: prepare.h).
 */
#include <stdlib.h>
#include <string.h>

#include "prepare.h"

struct ttdi_oslot {
    uint64_t key;           /* the key */
    uint64_t count;         /* open frames with it, 0 = empty slot */
};

static size_t home(const ttdi_openset *o, uint64_t k)
{
    return (size_t)ttfi_mix64(k) & (o->cap - 1);
}

/* The slot of k, or the empty slot where it would go. */
static struct ttdi_oslot *find(const ttdi_openset *o, uint64_t k)
{
    size_t i = home(o, k);

    while (o->slot[i].count && o->slot[i].key != k)
        i = (i + 1) & (o->cap - 1);
    return &o->slot[i];
}

static int grow(ttdi_openset *o)
{
    ttdi_openset n = {0};

    n.cap = o->cap ? 2 * o->cap : 64;
    n.slot = calloc(n.cap, sizeof *n.slot);
    if (!n.slot)
        return TT_ENOMEM;
    for (size_t i = 0; i < o->cap; i++) {
        if (!o->slot[i].count)
            continue;
        *find(&n, o->slot[i].key) = o->slot[i];
        n.used++;
    }
    free(o->slot);
    *o = n;
    return 0;
}

int ttdi_openset_add(ttdi_openset *o, uint64_t k)
{
    if (2 * (o->used + 1) > o->cap && grow(o) < 0)
        return TT_ENOMEM;
    struct ttdi_oslot *s = find(o, k);
    if (!s->count) {
        s->key = k;
        o->used++;
    }
    s->count++;
    return 0;
}

void ttdi_openset_del(ttdi_openset *o, uint64_t k)
{
    if (!o->cap)
        return;
    struct ttdi_oslot *s = find(o, k);
    if (!s->count || --s->count)
        return;
    /* s is now empty: move back every follower whose home is not
     * cyclically in (hole, j], so no probe chain crosses an empty slot */
    size_t mask = o->cap - 1, hole = (size_t)(s - o->slot);
    o->used--;
    for (size_t j = (hole + 1) & mask; o->slot[j].count; j = (j + 1) & mask) {
        size_t h = home(o, o->slot[j].key);
        if (((j - h) & mask) < ((j - hole) & mask))
            continue;
        o->slot[hole] = o->slot[j];
        o->slot[j].count = 0;
        hole = j;
    }
}

uint64_t ttdi_openset_count(const ttdi_openset *o, uint64_t k)
{
    return o->cap ? find(o, k)->count : 0;
}

void ttdi_openset_clear(ttdi_openset *o)
{
    if (o->used)
        memset(o->slot, 0, o->cap * sizeof *o->slot);
    o->used = 0;
}

void ttdi_openset_free(ttdi_openset *o)
{
    free(o->slot);
    memset(o, 0, sizeof *o);
}
