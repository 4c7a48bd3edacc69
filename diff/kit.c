/*
 * kit.c - the containers of diff/ (kit.h): the growable array, the hash
 * map of 64-bit keys, and the counting multiset of open frames (below: a
 * multiset of 64-bit keys kept beside a call stack, the walk's frames and
 * the collapser's open calls, so that an EXIT whose function has no open
 * frame costs O(1) expected rather than a scan of the whole stack; linear
 * probing, a slot with count 0 is empty, and a key whose count drops to 0
 * is removed by shifting its followers back, so the table holds only keys
 * of frames still open).
 * Stage 0 kit of diff/STAGES (its header: kit.h).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "kit.h"

#define HUGE_PAGE ((uintptr_t)2 << 20)

typedef struct job {
    ttdi_job_fn fn;
    void *arg;
    int rc;
} job;

__thread int ttdi_job_apart;

static void *run_job(void *arg)
{
    job *j = arg;
    ttdi_job_apart = 1;
    j->rc = j->fn(j->arg);
    return NULL;
}

void ttdi_both(int two, ttdi_job_fn fn, void *a, void *b, int rc[2])
{
    job jb = {fn, b, 0};
    pthread_t th;

    if (two && pthread_create(&th, NULL, run_job, &jb) == 0) {
        rc[0] = fn(a);
        pthread_join(th, NULL);
        rc[1] = jb.rc;
        return;
    }
    rc[0] = fn(a);
    rc[1] = fn(b);
}

uint64_t ttdi_aside_started;

static void *run_aside(void *arg)
{
    ttdi_aside *a = arg;

    __atomic_fetch_add(&ttdi_aside_started, 1, __ATOMIC_RELAXED);
    ttdi_job_apart = 1;
    a->rc = a->fn(a->arg);
    return NULL;
}

void ttdi_aside_start(ttdi_aside *a, int two, ttdi_job_fn fn, void *arg)
{
    memset(a, 0, sizeof *a);
    a->fn = fn;
    a->arg = arg;
    a->running = two && pthread_create(&a->th, NULL, run_aside, a) == 0;
}

int ttdi_aside_join(ttdi_aside *a)
{
    if (!a->fn)
        return 0;
    if (a->running)
        pthread_join(a->th, NULL);
    else
        a->rc = a->fn(a->arg);
    a->fn = NULL;
    a->running = 0;
    return a->rc;
}

/* A big array (4 MB or more) grows in huge pages where the kernel gives
 * them on request (transparent huge pages in madvise mode): one fault per
 * 2 MB instead of 512. Advice only: an error changes nothing. */
static void big_pages(void *p, size_t bytes)
{
    uintptr_t a = ((uintptr_t)p + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1);
    uintptr_t e = ((uintptr_t)p + bytes) & ~(uintptr_t)(HUGE_PAGE - 1);

#ifdef MADV_HUGEPAGE
    if (bytes >= 2 * HUGE_PAGE && e > a)
        (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
#else
    (void)a, (void)e, (void)bytes;
#endif
}

int ttdi_grow_guess(void *pp, size_t *cap, size_t need, double guess, size_t size,
                    size_t first)
{
    void *p, *np;

    if (need <= *cap)
        return 0;
    if (guess > (double)need && guess < (double)(SIZE_MAX / 2 / size)) {
        size_t n = (size_t)guess;
        memcpy(&p, pp, sizeof p);
        if (n > *cap && (np = realloc(p, n * size))) {
            big_pages(np, n * size);
            memcpy(pp, &np, sizeof np);
            *cap = n;
            return 0;
        }
    }
    return ttdi_grow(pp, cap, need, size, first);
}

int ttdi_grow(void *pp, size_t *cap, size_t need, size_t size, size_t first)
{
    void *p, *np;

    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? *cap : first ? first : 1;
    while (ncap < need)
        ncap *= 2;
    memcpy(&p, pp, sizeof p);
    if (!(np = realloc(p, ncap * size)))
        return TT_ENOMEM;
    big_pages(np, ncap * size);
    memcpy(pp, &np, sizeof np);
    *cap = ncap;
    return 0;
}

void *ttdi_probe(void *slots, size_t cap, size_t size, size_t home, uint64_t key, int add,
                 int *fresh)
{
    unsigned char *t = slots;
    size_t i = home % cap;

    if (fresh)
        *fresh = 0;
    for (size_t k = 0; k < cap; k++, i = (i + 1) % cap) {
        uint64_t have;
        memcpy(&have, t + i * size, sizeof have);
        if (have == key)
            return t + i * size;
        if (have)
            continue;
        if (!add)
            return NULL;
        memcpy(t + i * size, &key, sizeof key);
        if (fresh)
            *fresh = 1;
        return t + i * size;
    }
    return NULL;
}

struct ttdi_mslot {
    uint64_t key;           /* the key */
    uint64_t value;         /* its value */
    uint8_t full;           /* 1: holds a key */
};

/* The slot of key, or the empty slot where it would go (cap > 0). */
static struct ttdi_mslot *find(const ttdi_map *m, uint64_t key)
{
    size_t i = (size_t)ttfi_mix64(key) & (m->cap - 1);

    while (m->slot[i].full && m->slot[i].key != key)
        i = (i + 1) & (m->cap - 1);
    return &m->slot[i];
}

static int grow(ttdi_map *m)
{
    ttdi_map n = {NULL, m->cap ? 2 * m->cap : 64, 0};

    if (!(n.slot = calloc(n.cap, sizeof *n.slot)))
        return TT_ENOMEM;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slot[i].full) {
            *find(&n, m->slot[i].key) = m->slot[i];
            n.used++;
        }
    free(m->slot);
    *m = n;
    return 0;
}

uint64_t *ttdi_map_get(const ttdi_map *m, uint64_t key)
{
    if (!m->cap)
        return NULL;
    struct ttdi_mslot *s = find(m, key);
    return s->full ? &s->value : NULL;
}

uint64_t *ttdi_map_put(ttdi_map *m, uint64_t key, int *added)
{
    if (added)
        *added = 0;
    if (2 * (m->used + 1) > m->cap && grow(m) < 0)
        return NULL;
    struct ttdi_mslot *s = find(m, key);
    if (!s->full) {
        s->full = 1;
        s->key = key;
        s->value = 0;
        m->used++;
        if (added)
            *added = 1;
    }
    return &s->value;
}

void ttdi_map_free(ttdi_map *m)
{
    free(m->slot);
    memset(m, 0, sizeof *m);
}

/* ---- the counting multiset (ttdi_openset) ---------------------------------- */

struct ttdi_oslot {
    uint64_t key;           /* the key */
    uint64_t count;         /* open frames with it, 0 = empty slot */
};

static size_t oset_home(const ttdi_openset *o, uint64_t k)
{
    return (size_t)ttfi_mix64(k) & (o->cap - 1);
}

/* The slot of k, or the empty slot where it would go. */
static struct ttdi_oslot *oset_find(const ttdi_openset *o, uint64_t k)
{
    size_t i = oset_home(o, k);

    while (o->slot[i].count && o->slot[i].key != k)
        i = (i + 1) & (o->cap - 1);
    return &o->slot[i];
}

static int oset_grow(ttdi_openset *o)
{
    ttdi_openset n = {0};

    n.cap = o->cap ? 2 * o->cap : 64;
    n.slot = calloc(n.cap, sizeof *n.slot);
    if (!n.slot)
        return TT_ENOMEM;
    for (size_t i = 0; i < o->cap; i++) {
        if (!o->slot[i].count)
            continue;
        *oset_find(&n, o->slot[i].key) = o->slot[i];
        n.used++;
    }
    free(o->slot);
    *o = n;
    return 0;
}

int ttdi_openset_add(ttdi_openset *o, uint64_t k)
{
    if (2 * (o->used + 1) > o->cap && oset_grow(o) < 0)
        return TT_ENOMEM;
    struct ttdi_oslot *s = oset_find(o, k);
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
    struct ttdi_oslot *s = oset_find(o, k);
    if (!s->count || --s->count)
        return;
    /* s is now empty: move back every follower whose home is not
     * cyclically in (hole, j], so no probe chain crosses an empty slot */
    size_t mask = o->cap - 1, hole = (size_t)(s - o->slot);
    o->used--;
    for (size_t j = (hole + 1) & mask; o->slot[j].count; j = (j + 1) & mask) {
        size_t h = oset_home(o, o->slot[j].key);
        if (((j - h) & mask) < ((j - hole) & mask))
            continue;
        o->slot[hole] = o->slot[j];
        o->slot[j].count = 0;
        hole = j;
    }
}

uint64_t ttdi_openset_count(const ttdi_openset *o, uint64_t k)
{
    return o->cap ? oset_find(o, k)->count : 0;
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

/* ---- the table of records (ttdi_table) ------------------------------------ */

void ttdi_table_init(ttdi_table *t, size_t size)
{
    memset(t, 0, sizeof *t);
    t->size = size;
}

/* The free slot where key goes in slots of cap (key absent, cap > 0). */
static unsigned char *table_hole(unsigned char *slot, size_t cap, size_t size, uint64_t key)
{
    size_t i = (size_t)ttfi_mix64(key) & (cap - 1);
    for (;; i = (i + 1) & (cap - 1)) {
        uint64_t have;
        memcpy(&have, slot + i * size, sizeof have);
        if (!have)
            return slot + i * size;
    }
}

static int table_grow(ttdi_table *t)
{
    size_t cap = t->cap ? 2 * t->cap : 1024;
    unsigned char *n = calloc(cap, t->size);

    if (!n)
        return TT_ENOMEM;
    for (size_t i = 0; i < t->cap; i++) {
        unsigned char *r = t->slot + i * t->size;
        uint64_t key;
        memcpy(&key, r, sizeof key);
        if (key)
            memcpy(table_hole(n, cap, t->size, key), r, t->size);
    }
    free(t->slot);
    t->slot = n;
    t->cap = cap;
    return 0;
}

void *ttdi_table_add(ttdi_table *t, uint64_t key)
{
    unsigned char *r;

    if (!key) {
        if (!t->zero && !(t->zero = calloc(1, t->size)))
            return NULL;
        return t->zero;
    }
    if (2 * (t->used + 1) > t->cap && table_grow(t) < 0)
        return NULL;
    r = table_hole(t->slot, t->cap, t->size, key);
    memset(r, 0, t->size);
    memcpy(r, &key, sizeof key);
    t->used++;
    return r;
}

void ttdi_table_free(ttdi_table *t)
{
    size_t size = t->size;
    free(t->slot);
    free(t->zero);
    ttdi_table_init(t, size);
}

/* ---- the direct-mapped cache (ttdi_dmcache) -------------------------------- */

int ttdi_dmcache_reset(ttdi_dmcache *c, size_t cap, size_t size)
{
    if (cap > c->cap || size != c->size) {
        free(c->slot);
        c->cap = 0;
        if (!(c->slot = malloc(cap * size)))
            return TT_ENOMEM;
        c->cap = cap;
        c->size = size;
    }
    memset(c->slot, 0, c->cap * c->size);
    return 0;
}

void ttdi_dmcache_free(ttdi_dmcache *c)
{
    free(c->slot);
    memset(c, 0, sizeof *c);
}

/* ---- the key bitmap (ttdi_keybits) ----------------------------------------- */

int ttdi_keybits_fill(ttdi_keybits *kb, int nbits, const uint64_t *x, size_t n)
{
    size_t bytes = ((size_t)1 << nbits) / 8;

    kb->nbits = nbits;
    if (!(kb->bits = calloc(bytes, 1)))
        return TT_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        size_t h = (size_t)(ttfi_mix64(x[i]) >> (64 - nbits));
        kb->bits[h >> 3] |= (uint8_t)(1u << (h & 7));
    }
    return 0;
}

void ttdi_keybits_free(ttdi_keybits *kb)
{
    free(kb->bits);
    kb->bits = NULL;
}
