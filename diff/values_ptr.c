/*
 * values_ptr.c - pointer values compared by what they point at, when the
 * run's module images say it: static data, string literals, functions.
 * Stage 1 align of diff/STAGES (its header: align.h).
 *
 * Design. Two runs place the heap, the stacks and every module at other
 * addresses (ASLR), so a pointer's number means nothing across runs and
 * pointers compare as NULL / non-NULL. But a pointer into a module's
 * image (its static data, read-only data or code) names something that
 * exists in both runs: a data symbol, a string literal, a function. Two
 * such pointers are the same value when they name the same thing: the
 * same symbol at the same offset, or for bytes in a read-only section
 * that no symbol covers (string literals), the same bytes up to the NUL
 * (read from the module's file, so two builds compare too); in a
 * writable section without a symbol, the same section and offset of the
 * same build. A pointer into an image and one that is not (heap, stack)
 * differ; so do two that name different things ("No error" vs
 * "Start-end tags mismatch", two static messages of one function). A
 * pointer outside every image, or into an image whose file cannot be
 * read, is only compared as NULL / non-NULL, as before. The module is the
 * one loaded at the event's time; two builds of one program match by the
 * module file's base name.
 * Cost. A program passes the same few static objects again and again, and
 * naming one is a symbol search and two string compares (8% of a values
 * diff). So the answer for a pair of pointers is kept (a direct-mapped
 * cache in the second run's normaliser) with the pair's epochs: the
 * module loads and unloads cut each run into epochs within which every
 * address lies in the same module, so the same pair in the same epochs
 * gets the same answer. Most pointers lie in no image in either run (heap,
 * stack): those pairs are answered by the modules' extents first, before
 * the cache, whose slot a new heap pair would only miss; the last few
 * address ranges found to lie between every module's extent are kept, so
 * most such answers are two compares (issue 38).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "align.h"

/* What a pointer names. */
typedef struct pointee {
    int kind;               /* 0: not known (outside the images, no file);
                               else TTF_REF_SYMBOL or TTF_REF_DATA */
    const char *module;     /* the module file's base name */
    const uint8_t *build_id;
    size_t build_id_len;
    ttf_code_ref ref;
} pointee;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The modules' extents and the epochs' bounds, copied once into n. */
static void mods_init(ttdi_norm *n)
{
    size_t k = ttf_module_count(n->trace);

    n->mods_ready = 1;
    n->mods = calloc(k ? k : 1, sizeof *n->mods);
    n->epochs = calloc(2 * k + 1, sizeof *n->epochs);
    if (!n->mods || !n->epochs) {
        free(n->mods);
        free(n->epochs);
        n->mods = NULL;
        n->epochs = NULL;
        return;         /* no module: pointers compare as NULL / non-NULL */
    }
    n->nmods = k;
    for (size_t i = 0; i < k; i++) {
        const ttf_module *m = ttf_get_module(n->trace, i);
        n->mods[i] = (ttdi_modrange){m->base, m->base + m->size, m->load_ns, m->unload_ns};
        n->epochs[n->nepochs++] = m->load_ns;
        if (m->unload_ns != UINT64_MAX)
            n->epochs[n->nepochs++] = m->unload_ns;
    }
    qsort(n->epochs, n->nepochs, sizeof *n->epochs, cmp_u64);
}

/* Address a lies in no module's extent at any time: the range between
 * the extents around it kept in n (one of four, the oldest replaced). */
static void note_gap(ttdi_norm *n, uint64_t a)
{
    uint64_t lo = 0, hi = UINT64_MAX;
    for (size_t i = 0; i < n->nmods; i++) {
        const ttdi_modrange *m = &n->mods[i];
        if (a >= m->lo && a < m->hi)
            return;                 /* in one, at another time */
        if (m->hi <= a && m->hi > lo)
            lo = m->hi;
        if (m->lo > a && m->lo < hi)
            hi = m->lo;
    }
    n->gaps[n->gap_next][0] = lo;
    n->gaps[n->gap_next][1] = hi;
    n->gap_next = (n->gap_next + 1) % 4;
}

/* The module of run n holding address a at time ns, or -1. The modules'
 * extents are copied once into n (ttdi_norm.mods), so the look-up that
 * every pointer value pays is a scan of a small array; most pointers (the
 * heap's, the stacks') lie between the modules, in one of the last few
 * ranges found to be between them all (ttdi_norm.gaps): two compares. */
long ttdi_module_at(ttdi_norm *n, uint64_t a, uint64_t ns)
{
    if (!n->mods_ready)
        mods_init(n);
    if (ttdi_in_gaps(n, a))
        return -1;
    for (size_t i = 0; i < n->nmods; i++) {
        const ttdi_modrange *m = &n->mods[i];
        if (a >= m->lo && a < m->hi && m->load_ns <= ns && ns < m->unload_ns)
            return (long)i;
    }
    note_gap(n, a);
    return -1;
}

/* The epoch of time ns in run n: the loads and unloads up to ns. Two
 * times of one epoch see every module loaded or not alike (a module is
 * loaded from its load_ns, included, to its unload_ns, excluded). Its
 * times are kept for ttdi_epoch_at (n->ep_lo, ep_hi). */
uint32_t ttdi_epoch_slow(ttdi_norm *n, uint64_t ns)
{
    uint32_t e = 0;

    if (!n->mods_ready)
        mods_init(n);
    while (e < n->nepochs && n->epochs[e] <= ns)
        e++;
    n->ep = e;
    n->ep_lo = e ? n->epochs[e - 1] : 0;
    n->ep_hi = e < n->nepochs ? n->epochs[e] : UINT64_MAX;
    return e;
}

uint64_t ttdi_epochs_end(ttdi_norm *n)
{
    if (!n->mods_ready)
        mods_init(n);
    return n->nepochs ? n->epochs[n->nepochs - 1] : 0;
}

/* What pointer p of run n at time ns names, into *o. 0, or TT_ENOMEM. */
static int pointee_of(ttdi_norm *n, uint64_t p, uint64_t ns, pointee *o)
{
    memset(o, 0, sizeof *o);
    long mi = ttdi_module_at(n, p, ns);
    if (mi < 0)
        return 0;
    const ttf_module *m = ttf_get_module(n->trace, (size_t)mi);
    const ttf_code_info *ci;
    int rc = ttf_sym_code(n->sym, (size_t)mi, &ci);
    if (rc == 0)
        rc = ttf_sym_code_ref(n->sym, (size_t)mi, p - ci->bias, &o->ref);
    if (rc == TT_ENOMEM)
        return rc;
    if (rc != 0 || (o->ref.kind != TTF_REF_SYMBOL && o->ref.kind != TTF_REF_DATA))
        return 0;
    const char *slash = strrchr(m->path, '/');
    o->kind = o->ref.kind;
    o->module = slash ? slash + 1 : m->path;
    o->build_id = m->build_id;
    o->build_id_len = m->build_id_len;
    return 0;
}

/* The run's image position of pointer p at time ns: 1 inside a module's
 * mapped extent, 0 not. */
static int in_image(ttdi_norm *n, uint64_t p, uint64_t ns)
{
    return ttdi_module_at(n, p, ns) >= 0;
}

/* Same thing named: 1 yes, 0 no, -1 cannot tell. */
static int same_pointee(const pointee *a, const pointee *b)
{
    if (!a->kind || !b->kind)
        return -1;
    if (a->kind != b->kind || strcmp(a->module, b->module) != 0)
        return 0;
    if (a->kind == TTF_REF_SYMBOL)
        return a->ref.offset == b->ref.offset && strcmp(a->ref.name, b->ref.name) == 0;
    if (a->ref.bytes && b->ref.bytes)       /* read-only: the contents */
        return a->ref.nbytes == b->ref.nbytes &&
               memcmp(a->ref.bytes, b->ref.bytes, a->ref.nbytes) == 0;
    if (a->ref.bytes || b->ref.bytes)
        return 0;
    if (a->build_id_len != b->build_id_len ||
        memcmp(a->build_id, b->build_id, a->build_id_len) != 0)
        return -1;                          /* writable, two builds: unknown */
    return a->ref.offset == b->ref.offset && strcmp(a->ref.name, b->ref.name) == 0;
}

/* Two non-NULL pointers: 1 if they differ, 0 if not, TT_ENOMEM. */
static int pointers_differ(ttdi_norm *ng, ttdi_norm *nb, uint64_t g, uint64_t b, uint64_t gns,
                           uint64_t bns)
{
    int ig = in_image(ng, g, gns), ib = in_image(nb, b, bns);
    if (!ig && !ib)
        return 0;
    pointee pg, pb;
    if (pointee_of(ng, g, gns, &pg) < 0 || pointee_of(nb, b, bns, &pb) < 0)
        return TT_ENOMEM;
    if (ig != ib)                           /* static vs heap or stack */
        return (ig ? pg.kind : pb.kind) != 0;
    return same_pointee(&pg, &pb) == 0;
}

/* A pair of pointers compared, and the answer (ttdi_norm.ptrs). */
typedef struct ptrpair {
    const ttdi_norm *ng;    /* the first run; NULL: an empty slot */
    uint64_t g, b;
    uint32_t eg, eb;        /* their epochs */
    int differs;
} ptrpair;

#define PTRPAIRS 4096       /* cache slots (a power of two) */

int ttdi_value_differs(ttdi_norm *ng, ttdi_norm *nb, const ttf_vtype *ty, uint64_t g,
                       uint64_t b, uint64_t gns, uint64_t bns)
{
    if (g == b && (ty->cls != TTF_VC_POINTER || !g))
        return 0;   /* (most values of two like runs: ttf_value_norm is a
                       function of the raw value) */
    if (ty->cls != TTF_VC_POINTER)
        return ttf_value_norm(g, ty) != ttf_value_norm(b, ty);
    if (!g || !b)
        return !g != !b;
    if (!ng || !nb)
        return 0;
    if (!in_image(ng, g, gns) && !in_image(nb, b, bns))
        return 0;   /* heap or stack in both (pointers_differ's answer): most
                       pointers, a scan of a few modules, where a look-up
                       in the cache missed it (a cache line each, 2% of a
                       values diff) */
    uint32_t eg = ttdi_epoch_at(ng, gns), eb = ttdi_epoch_at(nb, bns);
    ptrpair *c = NULL;
    if (nb->ptrs.slot || ttdi_dmcache_reset(&nb->ptrs, PTRPAIRS, sizeof(ptrpair)) == 0)
        c = ttdi_dmcache_slot(&nb->ptrs, ttfi_mix64(g ^ (b * 0x9e3779b97f4a7c15ull)));
    if (c && c->ng == ng && c->g == g && c->b == b && c->eg == eg && c->eb == eb)
        return c->differs;
    int d = pointers_differ(ng, nb, g, b, gns, bns);
    if (d < 0)
        return 0;                           /* out of memory: as before */
    if (c)
        *c = (ptrpair){ng, g, b, eg, eb, d};
    return d;
}

size_t ttdi_pointee_text(ttdi_norm *n, uint64_t p, uint64_t ns, char *buf, size_t len)
{
    pointee o;

    if (!len)
        return 0;
    buf[0] = 0;
    if (!p || !n || pointee_of(n, p, ns, &o) < 0 || !o.kind)
        return 0;
    if (o.kind == TTF_REF_SYMBOL) {
        int w = o.ref.offset ? snprintf(buf, len, "&%s+%llu", o.ref.name,
                                        (unsigned long long)o.ref.offset)
                             : snprintf(buf, len, "&%s", o.ref.name);
        return w < 0 ? 0 : (size_t)w < len ? (size_t)w : len - 1;
    }
    if (!o.ref.bytes || !o.ref.nbytes || o.ref.bytes[o.ref.nbytes - 1] != 0)
        return 0;                           /* not a whole string */
    size_t k = 0;
    buf[k++] = '"';
    for (size_t i = 0; i + 1 < o.ref.nbytes && k + 5 < len; i++) {
        uint8_t c = o.ref.bytes[i];
        if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
            k += (size_t)snprintf(buf + k, len - k, "\\x%02x", c);
        else
            buf[k++] = (char)c;
    }
    if (k + 1 >= len)
        return 0;
    buf[k++] = '"';
    buf[k] = 0;
    return k;
}
