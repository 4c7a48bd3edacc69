/*
 * kit.h - the containers every file of diff/ uses (issue 35 item 4): the
 * arena (format/ttf_util.h's ttfi_arena: many small allocations freed
 * together, all result memory), a growable array (ttdi_grow), a hash
 * map of 64-bit keys (ttdi_map), a table of records by such a key
 * (ttdi_table: the normalisers' caches), a counting multiset of keys kept
 * beside a call stack (ttdi_openset), fixed tables probed from the
 * caller's home slot (ttdi_probe), a direct-mapped cache (ttdi_dmcache:
 * the tree's shared subtrees, the replay's signatures) and a bitmap of
 * hashed keys (ttdi_keybits: the aligner's discard pass). One place for
 * them, so no file keeps a realloc path or a probing loop of its own.
 * Stage 0 kit of diff/STAGES (kit.c). Internal to libttdiff (ttdi_, hidden).
 */
#ifndef TTDI_KIT_H
#define TTDI_KIT_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "ttf_util.h"

/* ---- growable array -------------------------------------------------------- */

/* Make the array whose pointer is at pp (any T **; NULL at first) hold at
 * least need elements of size bytes: its capacity *cap doubles from
 * itself (from first when 0) until it does. On failure the array and *cap
 * stay as they were and this returns TT_ENOMEM, else 0. The caller keeps
 * the fast test: if (n == cap && ttdi_grow(&v, &cap, n + 1, sizeof *v, 64)). */
int ttdi_grow(void *pp, size_t *cap, size_t need, size_t size, size_t first);
/* The same for an array whose final size can be guessed (SYNC_OP records
 * from a thread's events, an object's operations from the records left):
 * room for n elements at guess when guess > *cap and it can be had (one
 * realloc, no doubling: each doubling below glibc's mmap threshold is a
 * copy), else ttdi_grow's. 0 or TT_ENOMEM. */
int ttdi_grow_guess(void *pp, size_t *cap, size_t need, double guess, size_t size,
                    size_t first);

/* ---- two independent jobs (the two runs) ----------------------------------- */

/* fn(a) and fn(b): with two (the engine's ttd_options.jobs not 1) fn(b)
 * in a thread of its own while the caller runs fn(a), else (or when no
 * thread starts) both in the caller, a first. The jobs must share nothing
 * they write (one run's trace, normaliser and trees each). rc[0], rc[1]:
 * their results. The engine's passes over both runs that read each run
 * alone (opening, sketches, the tree build; after the split a pool pair's
 * worker loops, the timing scans, the thread order's walks) run so: their
 * results are the same either way, only the wall time differs (issue 38). */
typedef int (*ttdi_job_fn)(void *arg);
void ttdi_both(int two, ttdi_job_fn fn, void *a, void *b, int rc[2]);
/* 1 in the thread ttdi_both started for b (a pass's tests count the jobs
 * that ran apart). */
extern __thread int ttdi_job_apart;
/* One job aside: fn(arg) in a thread of its own while the caller goes on
 * with other work (the tree build of a values pair: pair_align.c's aside
 * walks), joined before the caller uses what it wrote. The job must share
 * nothing the caller writes or reads meanwhile. */
typedef struct ttdi_aside {
    ttdi_job_fn fn;
    void *arg;
    int rc;                 /* fn's result once joined */
    int running;            /* 1: in its thread (else run at the join) */
    pthread_t th;           /* its thread, while running */
} ttdi_aside;
/* Start fn(arg) aside when two (ttd_options.jobs not 1) and a thread
 * starts; otherwise ttdi_aside_join runs it, in the caller: the result is
 * the same either way. */
void ttdi_aside_start(ttdi_aside *a, int two, ttdi_job_fn fn, void *arg);
/* Wait for the job (or run it now, when it did not start aside): its
 * result. */
int ttdi_aside_join(ttdi_aside *a);
/* Aside jobs started in a thread of their own so far (tests; jobs of
 * several engines may start at once: an atomic count). */
extern uint64_t ttdi_aside_started;

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

/* ---- table of records by a 64-bit key ------------------------------------ */

/* A hash map whose values are records of size bytes (size >= 8) that begin
 * with their uint64_t key: open addressing on ttfi_mix64 of the key,
 * linear probing, at most half full, doubling from 1024 slots; a slot with
 * key 0 is free, and the record of key 0 is kept apart. Records move when
 * the table grows: a pointer holds until the next ttdi_table_add. The
 * look-up is inline, for the per-event callers (the normalisers' caches). */
typedef struct ttdi_table {
    unsigned char *slot;    /* cap records, NULL while empty */
    unsigned char *zero;    /* the record of key 0, NULL while absent */
    size_t cap;             /* a power of two, or 0 */
    size_t used;            /* records held in slot */
    size_t size;            /* bytes per record */
} ttdi_table;

/* An empty table of records of size bytes. */
void ttdi_table_init(ttdi_table *t, size_t size);

/* The record of key, NULL if the table has none. */
static inline void *ttdi_table_get(const ttdi_table *t, uint64_t key)
{
    if (!key)
        return t->zero;
    if (!t->cap)
        return NULL;
    size_t mask = t->cap - 1;
    for (size_t i = (size_t)ttfi_mix64(key) & mask;; i = (i + 1) & mask) {
        unsigned char *r = t->slot + i * t->size;
        uint64_t have;
        memcpy(&have, r, sizeof have);
        if (have == key)
            return r;
        if (!have)
            return NULL;
    }
}

/* A new record for key, which the table does not hold: zeroed but for its
 * key. NULL when memory runs out. */
void *ttdi_table_add(ttdi_table *t, uint64_t key);
/* Free the table (empty again, its record size kept). */
void ttdi_table_free(ttdi_table *t);

/* ---- direct-mapped cache ------------------------------------------------- */

/* A fixed number (a power of two) of slots of size bytes, each keyed by the
 * low bits of a hash the caller makes: a cache of recent items, where a new
 * item overwrites the one in its slot (the tree's shared subtrees, the
 * replay's signatures). What a slot holds is the caller's. */
typedef struct ttdi_dmcache {
    unsigned char *slot;    /* cap slots, NULL before ttdi_dmcache_reset */
    size_t cap;             /* a power of two, or 0 */
    size_t size;            /* bytes per slot */
} ttdi_dmcache;

/* Make c hold at least cap (a power of two) slots of size bytes, all
 * zero; a larger cache of the same size of slot stays as large. 0 or
 * TT_ENOMEM (c is empty then). */
int ttdi_dmcache_reset(ttdi_dmcache *c, size_t cap, size_t size);

/* The slot of hash h. */
static inline void *ttdi_dmcache_slot(const ttdi_dmcache *c, uint64_t h)
{
    return c->slot + ((size_t)h & (c->cap - 1)) * c->size;
}

void ttdi_dmcache_free(ttdi_dmcache *c);

/* The slot (0..255) of x in a direct-mapped cache of 256 slots, by one
 * multiply (Fibonacci hashing: the top byte of the product depends on
 * every bit of x). For caches only, whose answers do not depend on the
 * slot (a hit is checked against the whole item): a walk asks several
 * per event, where ttfi_mix64 costs three times as much (issue 38). */
static inline size_t ttdi_slot8(uint64_t x)
{
    return (size_t)((x * 0x9e3779b97f4a7c15ull) >> 56);
}

/* ---- key bitmap: which 64-bit keys may be in a set ------------------------ */

/* 2^bits bits, one per hashed key (ttfi_mix64's top bits): a key whose
 * bit is clear is surely not in the set; one whose bit is set may be. */
typedef struct ttdi_keybits {
    uint8_t *bits;          /* 2^nbits bits */
    int nbits;              /* 3..63 */
} ttdi_keybits;

/* A bitmap of 2^nbits bits holding keys x[0..n). 0 or TT_ENOMEM. */
int ttdi_keybits_fill(ttdi_keybits *kb, int nbits, const uint64_t *x, size_t n);

/* 1 when key may be in the set, 0 when it surely is not. */
static inline int ttdi_keybits_has(const ttdi_keybits *kb, uint64_t key)
{
    size_t h = (size_t)(ttfi_mix64(key) >> (64 - kb->nbits));
    return kb->bits[h >> 3] >> (h & 7) & 1;
}

void ttdi_keybits_free(ttdi_keybits *kb);

#endif
