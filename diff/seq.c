/*
 * seq.c - what ttdiff aligns when a pair is not compared on the fly: a
 * thread's whole key sequence, optionally with loops collapsed
 * (--collapse-loops), the hunks between two such sequences including loop
 * count changes, and the zones where good runs vary (--baseline).
 * Stage 1 align of diff/STAGES (its header: align.h).
 *
 * Design. Collapsing is one streaming pass over the keys as they are
 * normalised: a stack of open calls, each with a running hash of its
 * subtree. When a call returns and its subtree hash equals that of the
 * sibling just before it, the two become one loop item (key: the subtree
 * hash, never the count) and later equal siblings only raise the count,
 * so the output never holds more than one unit of a loop. Items remember
 * the raw index where they start (8 bytes), loops their count and unit
 * length in a side table, so hunks translate back to raw event indexes.
 * Two loop items match in the alignment whatever their counts; a count
 * difference is found afterwards, walking the matched items.
 *
 * A zone is where the good runs differ from each other: a hunk of GOOD vs
 * another good run, widened over neighbouring GOOD items whose keys also
 * differ in it (a poll loop that ran 3 or 5 times varies over its whole
 * length). A hunk of BAD is expected when it lies in one zone and every
 * key it holds, on either side, is one that differs there between good
 * runs: BAD did something good runs also do differently at that place.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "align.h"

#define LOOP_SALT 0x5C0FFEE15B00C1EAull
#define HUGE_PAGE (2u << 20)

/* ---- keybuf -------------------------------------------------------------- */

/* Key buffers are big and written once, front to back: map them with
 * transparent huge pages where the kernel allows, so filling 80 MB costs
 * 40 page faults rather than 20000. */
int ttdi_keybuf_reserve(ttdi_keybuf *kb, size_t n, size_t keep)
{
    if (n <= kb->cap)
        return 0;
    size_t bytes = (n * sizeof(uint64_t) + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return TT_ENOMEM;
    madvise(p, bytes, MADV_HUGEPAGE);
    if (keep)
        memcpy(p, kb->k, keep * sizeof(uint64_t));
    if (kb->k)
        munmap(kb->k, kb->bytes);
    kb->k = p;
    kb->bytes = bytes;
    kb->cap = bytes / sizeof(uint64_t);
    return 0;
}

void ttdi_keybuf_free(ttdi_keybuf *kb)
{
    if (kb->k)
        munmap(kb->k, kb->bytes);
    memset(kb, 0, sizeof *kb);
}

/* ---- collapsing ---------------------------------------------------------- */

struct ttdi_cframe {
    uint64_t enter;         /* ENTER key (0 for the top level) */
    uint64_t h;             /* hash of the children folded so far */
    uint64_t pend;          /* hash of the last child, not yet folded */
    int has_pend;           /* 1: pend holds a child */
    size_t start;           /* item of its ENTER */
    uint64_t raw0;          /* raw index of its ENTER */
    size_t prev;            /* item where the last child subtree starts,
                               SIZE_MAX if the last child is no subtree */
    uint64_t prev_unit;     /* hash of one unit of that child */
    size_t prev_loop;       /* its index in loops[], SIZE_MAX if expanded */
};

static uint64_t fold(uint64_t h, uint64_t x)
{
    return ttfi_mix64(((h << 5) | (h >> 59)) ^ x);
}

static void commit(ttdi_cframe *f)
{
    if (f->has_pend)
        f->h = fold(f->h, f->pend);
    f->has_pend = 0;
}

static int push_frame(ttdi_seq *s, uint64_t enter, size_t start, uint64_t raw0)
{
    if (s->nst == s->stcap &&
        ttdi_grow(&s->st, &s->stcap, s->nst + 1, sizeof *s->st, 64) < 0)
        return TT_ENOMEM;
    ttdi_cframe *f = &s->st[s->nst++];
    memset(f, 0, sizeof *f);
    f->enter = enter;
    f->h = fold(0, enter);
    f->start = start;
    f->raw0 = raw0;
    f->prev = SIZE_MAX;
    f->prev_loop = SIZE_MAX;
    return 0;
}

int ttdi_seq_reset(ttdi_seq *s, int collapse, size_t bound)
{
    int rc = ttdi_keybuf_reserve(&s->k, bound + 16, 0);

    if (rc == 0 && collapse)
        rc = ttdi_keybuf_reserve(&s->map, bound + 16, 0);
    s->n = 0;
    s->raw = 0;
    s->collapse = collapse;
    s->nloops = 0;
    s->nst = 0;
    ttdi_openset_clear(&s->open);
    if (rc == 0 && collapse)
        rc = push_frame(s, 0, 0, 0);
    return rc;
}

void ttdi_seq_free(ttdi_seq *s)
{
    ttdi_keybuf_free(&s->k);
    ttdi_keybuf_free(&s->map);
    free(s->loops);
    free(s->st);
    ttdi_openset_free(&s->open);
    memset(s, 0, sizeof *s);
}

/* A subtree [start, n) of hash e just closed under frame p. */
static int child_subtree(ttdi_seq *s, ttdi_cframe *p, size_t start, uint64_t e,
                         uint64_t unit)
{
    if (p->prev == SIZE_MAX || p->prev_unit != e) {
        commit(p);
        p->pend = e;
        p->has_pend = 1;
        p->prev = start;
        p->prev_unit = e;
        p->prev_loop = SIZE_MAX;
        return 0;
    }
    /* a repetition: keep one unit, as a loop item at p->prev */
    while (s->nloops && s->loops[s->nloops - 1].item > p->prev)
        s->nloops--;
    s->n = p->prev + 1;
    if (p->prev_loop == SIZE_MAX) {
        if (s->nloops == s->loopcap &&
            ttdi_grow(&s->loops, &s->loopcap, s->nloops + 1, sizeof *s->loops, 64) < 0)
            return TT_ENOMEM;
        s->k.k[p->prev] = ttfi_mix64(e ^ LOOP_SALT);
        p->prev_loop = s->nloops;
        s->loops[s->nloops++] = (ttdi_loop){p->prev, 1, unit};
    }
    ttdi_loop *l = &s->loops[p->prev_loop];
    l->count++;
    p->pend = fold(e, l->count);
    p->has_pend = 1;
    return 0;
}

/* The open frame an EXIT with key k closes, 0 if none (the top level).
 * The counts make a miss O(1); a hit scans only the frames it pops. */
static size_t match(const ttdi_seq *s, uint64_t k)
{
    if (!ttdi_openset_count(&s->open, k))
        return 0;
    for (size_t i = s->nst; i-- > 1;)
        if (ttdi_norm_exit_of(s->st[i].enter) == k)
            return i;
    return 0;
}

int ttdi_seq_feed(ttdi_seq *s, uint64_t key, int kind)
{
    size_t at = s->n;
    uint64_t raw = s->raw++;

    if (at >= s->k.cap && ttdi_keybuf_reserve(&s->k, 2 * at + 16, at) < 0)
        return TT_ENOMEM;
    s->k.k[s->n++] = key;
    if (!s->collapse)
        return 0;
    if (at >= s->map.cap && ttdi_keybuf_reserve(&s->map, 2 * at + 16, at) < 0)
        return TT_ENOMEM;
    s->map.k[at] = raw;
    if (kind == TTF_EV_ENTER) {
        if (push_frame(s, key, at, raw) < 0)
            return TT_ENOMEM;
        return ttdi_openset_add(&s->open, ttdi_norm_exit_of(key));
    }
    size_t f = kind == TTF_EV_EXIT ? match(s, key) : 0;
    if (f == 0) { /* a message, or a return from before the trace began */
        ttdi_cframe *top = &s->st[s->nst - 1];
        commit(top);
        top->pend = key;
        top->has_pend = 1;
        top->prev = SIZE_MAX;
        return 0;
    }
    ttdi_cframe c = s->st[f];
    commit(&c);
    uint64_t e = fold(c.h, key);
    /* calls left without a return (longjmp) just end here */
    for (size_t i = f; i < s->nst; i++)
        ttdi_openset_del(&s->open, ttdi_norm_exit_of(s->st[i].enter));
    s->nst = f;
    return child_subtree(s, &s->st[f - 1], c.start, e, raw + 1 - c.raw0);
}

uint64_t ttdi_seq_raw(const ttdi_seq *s, size_t i)
{
    if (i >= s->n)
        return s->raw;
    return s->collapse ? s->map.k[i] : i;
}

const ttdi_loop *ttdi_seq_loop(const ttdi_seq *s, size_t i)
{
    size_t lo = 0, hi = s->nloops;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->loops[mid].item < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->nloops && s->loops[lo].item == i ? &s->loops[lo] : NULL;
}

/* ---- hunks --------------------------------------------------------------- */

typedef struct xvec {
    ttdi_xhunk *v;          /* hunks */
    size_t n, cap;
} xvec;

static int xpush(xvec *x, const ttdi_xhunk *h)
{
    if (x->n == x->cap &&
        ttdi_grow(&x->v, &x->cap, x->n + 1, sizeof *x->v, 16) < 0)
        return TT_ENOMEM;
    x->v[x->n++] = *h;
    return 0;
}

/* Count hunks of the matched items a[i..i+n) ~ b[j..j+n). */
static int counts(const ttdi_seq *a, const ttdi_seq *b, size_t i, size_t j,
                  size_t n, xvec *x)
{
    for (size_t k = 0; k < n && a->nloops && b->nloops; k++) {
        const ttdi_loop *la = ttdi_seq_loop(a, i + k), *lb = ttdi_seq_loop(b, j + k);
        if (!la || !lb || la->count == lb->count)
            continue;
        ttdi_xhunk h = {i + k, i + k + 1, j + k, j + k + 1, {la->count, lb->count}};
        if (xpush(x, &h) < 0)
            return TT_ENOMEM;
    }
    return 0;
}

int ttdi_seq_align(const ttdi_seq *a, const ttdi_seq *b, int minimal,
                   ttdi_xhunk **out, size_t *nout)
{
    ttdi_hunk *h = NULL;
    size_t nh = 0, i = 0, j = 0;
    xvec x = {NULL, 0, 0};
    int rc = ttdi_align(a->k.k, a->n, b->k.k, b->n, minimal, &h, &nh);

    for (size_t k = 0; rc == 0 && k < nh; k++) {
        if ((rc = counts(a, b, i, j, h[k].a0 - i, &x)) < 0)
            break;
        ttdi_xhunk xh = {h[k].a0, h[k].a1, h[k].b0, h[k].b1, {0, 0}};
        rc = xpush(&x, &xh);
        i = h[k].a1;
        j = h[k].b1;
    }
    if (rc == 0)
        rc = counts(a, b, i, j, a->n - i, &x);
    free(h);
    if (rc < 0) {
        free(x.v);
        return rc;
    }
    *out = x.v;
    *nout = x.n;
    return 0;
}

void ttdi_seq_to_raw(const ttdi_seq *a, const ttdi_seq *b, const ttdi_xhunk *x,
                     ttdi_hunk *out)
{
    out->a0 = (size_t)ttdi_seq_raw(a, x->a0);
    out->a1 = (size_t)ttdi_seq_raw(a, x->a1);
    out->b0 = (size_t)ttdi_seq_raw(b, x->b0);
    out->b1 = (size_t)ttdi_seq_raw(b, x->b1);
    if (!x->reps[0])
        return;
    uint64_t c = x->reps[0] < x->reps[1] ? x->reps[0] : x->reps[1];
    out->a0 += (size_t)(c * ttdi_seq_loop(a, x->a0)->unit);
    out->b0 += (size_t)(c * ttdi_seq_loop(b, x->b0)->unit);
}

/* ---- zones --------------------------------------------------------------- */

static int u64_cmp(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return a < b ? -1 : a > b;
}

static int has_key(const uint64_t *k, size_t n, uint64_t key)
{
    return bsearch(&key, k, n, sizeof *k, u64_cmp) != NULL;
}

static int zone_room(ttdi_zones *z, size_t nkeys)
{
    size_t cap = z->cap;
    if (ttdi_grow(&z->keys, &z->keycap, z->nkeys + nkeys, sizeof *z->keys, 64) < 0)
        return TT_ENOMEM;
    if (z->n < cap)
        return 0;
    size_t ncap = cap ? 2 * cap : 64;
    size_t **v[4] = {&z->lo, &z->hi, &z->k0, &z->nk};
    for (int i = 0; i < 4; i++) {
        size_t c = cap;
        if (ttdi_grow(v[i], &c, ncap, sizeof(size_t), 64) < 0)
            return TT_ENOMEM;
    }
    z->cap = ncap;
    return 0;
}

/* Sort and dedupe keys[k0..) in place; the new count. */
static size_t uniq(uint64_t *k, size_t n)
{
    size_t m = 0;

    qsort(k, n, sizeof *k, u64_cmp);
    for (size_t i = 0; i < n; i++)
        if (!m || k[m - 1] != k[i])
            k[m++] = k[i];
    return m;
}

int ttdi_zones_add(ttdi_zones *z, const ttdi_seq *g, const ttdi_seq *o,
                   const ttdi_xhunk *x, size_t nx)
{
    for (size_t i = 0; i < nx; i++) {
        size_t na = x[i].a1 - x[i].a0, nb = x[i].b1 - x[i].b0;
        if (zone_room(z, na + nb) < 0)
            return TT_ENOMEM;
        uint64_t *k = z->keys + z->nkeys;
        memcpy(k, g->k.k + x[i].a0, na * sizeof *k);
        memcpy(k + na, o->k.k + x[i].b0, nb * sizeof *k);
        size_t nk = uniq(k, na + nb), lo = x[i].a0, hi = x[i].a1;
        while (lo > 0 && has_key(k, nk, g->k.k[lo - 1]))
            lo--;
        while (hi < g->n && has_key(k, nk, g->k.k[hi]))
            hi++;
        z->lo[z->n] = lo;
        z->hi[z->n] = hi;
        z->k0[z->n] = z->nkeys;
        z->nk[z->n++] = nk;
        z->nkeys += nk;
    }
    return 0;
}

/* Zones ordered by lo, as a permutation (qsort has no context argument). */
typedef struct zref {
    size_t lo, hi, k0, nk;  /* one zone */
} zref;

static int zref_cmp(const void *x, const void *y)
{
    const zref *a = x, *b = y;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

int ttdi_zones_finish(ttdi_zones *z)
{
    zref *r = malloc((z->n + 1) * sizeof *r);
    uint64_t *keys = malloc((z->nkeys + 1) * sizeof *keys);
    size_t m = 0, nk = 0;

    if (!r || !keys) {
        free(r);
        free(keys);
        return TT_ENOMEM;
    }
    for (size_t i = 0; i < z->n; i++)
        r[i] = (zref){z->lo[i], z->hi[i], z->k0[i], z->nk[i]};
    qsort(r, z->n, sizeof *r, zref_cmp);
    for (size_t i = 0; i < z->n; i++) {
        int join = m > 0 && r[i].lo <= z->hi[m - 1];
        if (!join) {
            z->lo[m] = r[i].lo;
            z->hi[m] = r[i].hi;
            z->k0[m] = nk;
            z->nk[m++] = 0;
        } else if (r[i].hi > z->hi[m - 1]) {
            z->hi[m - 1] = r[i].hi;
        }
        memcpy(keys + nk, z->keys + r[i].k0, r[i].nk * sizeof *keys);
        nk += r[i].nk;
        z->nk[m - 1] += r[i].nk;
    }
    size_t at = 0; /* dedupe each zone's keys, packing them */
    for (size_t i = 0; i < m; i++) {
        size_t n = uniq(keys + z->k0[i], z->nk[i]);
        memmove(keys + at, keys + z->k0[i], n * sizeof *keys);
        z->k0[i] = at;
        z->nk[i] = n;
        at += n;
    }
    free(r);
    free(z->keys);
    z->keys = keys;
    z->nkeys = at;
    z->keycap = z->nkeys + 1;
    z->n = m;
    return 0;
}

int ttdi_zones_cover(const ttdi_zones *z, const ttdi_seq *g, const ttdi_seq *b,
                     const ttdi_xhunk *x)
{
    size_t lo = 0, hi = z->n;

    while (lo < hi) { /* the last zone starting at or before x->a0 */
        size_t mid = lo + (hi - lo) / 2;
        if (z->lo[mid] <= x->a0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || z->hi[lo - 1] < x->a1)
        return 0;
    const uint64_t *k = z->keys + z->k0[lo - 1];
    size_t nk = z->nk[lo - 1];
    for (size_t i = x->a0; i < x->a1; i++)
        if (!has_key(k, nk, g->k.k[i]))
            return 0;
    for (size_t i = x->b0; i < x->b1; i++)
        if (!has_key(k, nk, b->k.k[i]))
            return 0;
    return 1;
}

void ttdi_zones_clear(ttdi_zones *z)
{
    z->n = 0;
    z->nkeys = 0;
}

void ttdi_zones_free(ttdi_zones *z)
{
    free(z->lo);
    free(z->hi);
    free(z->k0);
    free(z->nk);
    free(z->keys);
    memset(z, 0, sizeof *z);
}
