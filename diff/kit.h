/*
 * kit.h - the containers every file of diff/ uses (issue 35 item 4): the
 * arena (format/ttf_util.h's ttfi_arena: many small allocations freed
 * together, all result memory), a growable array (ttdi_grow) and a hash
 * map of 64-bit keys (ttdi_map) and a counting multiset of them kept
 * beside a call stack (ttdi_openset). One place for them, so no file keeps a
 * realloc path or a probing loop of its own.
 * Stage 0 kit of diff/STAGES (kit.c). Internal to libttdiff (ttdi_, hidden).
 */
#ifndef TTDI_KIT_H
#define TTDI_KIT_H

#include <stddef.h>
#include <stdint.h>

#include "ttf_util.h"

/* ---- growable array -------------------------------------------------------- */

/* Make the array whose pointer is at pp (any T **; NULL at first) hold at
 * least need elements of size bytes: its capacity *cap doubles from
 * itself (from first when 0) until it does. On failure the array and *cap
 * stay as they were and this returns TT_ENOMEM, else 0. The caller keeps
 * the fast test: if (n == cap && ttdi_grow(&v, &cap, n + 1, sizeof *v, 64)). */
int ttdi_grow(void *pp, size_t *cap, size_t need, size_t size, size_t first);

/* ---- counting multiset of 64-bit keys (open frames) ------------------------ */

/* How many open frames carry each key: a multiset kept beside a call
 * stack, so an EXIT that closes no open frame is told in O(1) expected
 * instead of by a scan of the whole stack. */
typedef struct ttdi_openset {
    struct ttdi_oslot *slot; /* open addressing, power-of-two size */
    size_t cap;             /* slots (0 before the first add) */
    size_t used;            /* slots holding a key */
} ttdi_openset;

/* Count one more frame with key k. 0 or TT_ENOMEM. */
int ttdi_openset_add(ttdi_openset *o, uint64_t k);
/* Count one frame fewer with key k (it must have been added). */
void ttdi_openset_del(ttdi_openset *o, uint64_t k);
/* Frames open with key k. */
uint64_t ttdi_openset_count(const ttdi_openset *o, uint64_t k);
/* Forget all keys (the memory is kept). */
void ttdi_openset_clear(ttdi_openset *o);
void ttdi_openset_free(ttdi_openset *o);

/* ---- fixed tables: linear probing over slots keyed by their first field --- */

/* Tables of a fixed size whose slots (size bytes each) begin with a
 * uint64_t key, 0 in a free slot; the caller picks the home slot (its own
 * hash). From home, the slot holding key; else, with add, the first free
 * slot on the way, key written and *fresh set (the caller fills the rest);
 * else NULL (the table is full, or key is absent and add is 0). A key of
 * 0 finds the first free slot, unchanged. fresh may be NULL. */
void *ttdi_probe(void *slots, size_t cap, size_t size, size_t home, uint64_t key, int add,
                 int *fresh);

/* ---- hash map: 64-bit key -> 64-bit value ---------------------------------- */

/* Open addressing with linear probing on ttfi_mix64 of the key, at most
 * half full; any key (0 too). Not ordered: no caller may depend on where
 * a key sits. */
typedef struct ttdi_map {
    struct ttdi_mslot *slot;    /* cap slots, NULL while empty */
    size_t cap;                 /* a power of two, or 0 */
    size_t used;                /* keys held */
} ttdi_map;

/* The value of key, NULL if the map does not hold it. */
uint64_t *ttdi_map_get(const ttdi_map *m, uint64_t key);
/* The value of key, added as 0 when missing (*added 1 then, else 0; added
 * may be NULL); NULL when memory runs out. The pointer holds until the
 * next ttdi_map_put. */
uint64_t *ttdi_map_put(ttdi_map *m, uint64_t key, int *added);
/* Free the map (it is empty again; a zeroed map is fine). */
void ttdi_map_free(ttdi_map *m);

#endif
