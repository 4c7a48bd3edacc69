/*
 * normalise.c - turn trace events into 64-bit keys that compare equal
 * across runs: XXH3 over the function's name (never its address, so ASLR
 * and rebuilt binaries compare), a message's call site (format + function,
 * not the site id, which depends on firing order) or its formatted text.
 * Each distinct address or site is symbolised, filtered and hashed once.
 * The same symbols answer where a function's source is (ttdi_norm_locate).
 * Stage 0 prepare of diff/STAGES (its header: prepare.h).
 */
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "prepare.h"

/* Give every event kind its own key space. */
static uint64_t mix(uint64_t h, int kind)
{
    return h ^ ttfi_mix64((uint64_t)kind);
}

static size_t slot_of(uint64_t id, size_t cap)
{
    return (size_t)ttfi_mix64(id) & (cap - 1);
}

static int cache_grow(ttdi_cache *c)
{
    size_t ncap = c->cap ? c->cap * 2 : 1024;
    ttdi_slot *ns = calloc(ncap, sizeof *ns);

    if (!ns)
        return TT_ENOMEM;
    for (size_t i = 0; i < c->cap; i++) {
        if (!c->slots[i].used)
            continue;
        size_t j = slot_of(c->slots[i].id, ncap);
        while (ns[j].used)
            j = (j + 1) & (ncap - 1);
        ns[j] = c->slots[i];
    }
    free(c->slots);
    c->slots = ns;
    c->cap = ncap;
    return 0;
}

/* The slot of id, or NULL if it has none yet: the per-event look-up. */
static inline ttdi_slot *cache_find(const ttdi_cache *c, uint64_t id)
{
    if (!c->cap)
        return NULL;
    for (size_t j = slot_of(id, c->cap); c->slots[j].used;
         j = (j + 1) & (c->cap - 1)) {
        if (c->slots[j].id == id)
            return &c->slots[j];
    }
    return NULL;
}

/* A new slot for id, which has none (fields to fill); NULL if out of
 * memory. Out of line: once per distinct address or site. */
static __attribute__((noinline)) ttdi_slot *cache_add(ttdi_cache *c, uint64_t id)
{
    if ((c->n + 1) * 2 > c->cap && cache_grow(c) < 0)
        return NULL;
    size_t j = slot_of(id, c->cap);
    while (c->slots[j].used)
        j = (j + 1) & (c->cap - 1);
    c->slots[j].used = 1;
    c->slots[j].id = id;
    c->n++;
    return &c->slots[j];
}

static int passes(const ttdi_norm *n, const char *name)
{
    if (n->keep && !ttd_regex_match(n->keep, name))
        return 0;
    if (n->drop && ttd_regex_match(n->drop, name))
        return 0;
    return 1;
}

int ttdi_norm_init(ttdi_norm *n, const ttf_trace *t, int messages,
                   const ttd_regex *keep, const ttd_regex *drop,
                   int no_demangle)
{
    memset(n, 0, sizeof *n);
    n->trace = t;
    n->messages = messages;
    n->keep = keep;
    n->drop = drop;
    n->buflen = 512;
    n->buf = malloc(n->buflen);
    if (!n->buf)
        return TT_ENOMEM;
    int rc = ttf_sym_open(t, &n->sym);
    if (rc < 0) {
        free(n->buf);
        n->buf = NULL;
        return rc;
    }
    return ttf_sym_set_demangle(n->sym, !no_demangle);
}

void ttdi_norm_free(ttdi_norm *n)
{
    if (!n)
        return;
    ttf_sym_close(n->sym);
    free(n->funcs.slots);
    free(n->sites.slots);
    free(n->buf);
    free(n->mods);
    memset(n, 0, sizeof *n);
}

/* The new slot of an address or scope site: named, filtered, hashed. */
static __attribute__((noinline)) ttdi_slot *func_add(ttdi_norm *n,
                                                     const ttf_event *ev,
                                                     uint64_t id)
{
    ttdi_slot *s = cache_add(&n->funcs, id);

    if (!s)
        return NULL;
    s->name = ttf_sym_event_name(n->sym, ev);
    if (!s->name)
        s->name = "?";
    s->hash = XXH3_64bits(s->name, strlen(s->name));
    s->keep = passes(n, s->name);
    return s;
}

static inline ttdi_slot *func_slot(ttdi_norm *n, const ttf_event *ev)
{
    uint64_t id = ev->site ? (ev->site | TTDI_SITE_BIT) : ev->addr;
    ttdi_slot *s = cache_find(&n->funcs, id);

    return s ? s : func_add(n, ev, id);
}

const char *ttdi_norm_func(ttdi_norm *n, const ttf_event *ev)
{
    ttdi_slot *s = func_slot(n, ev);
    n->oom |= !s;
    return s ? s->name : "?";
}

static ttdi_slot *site_slot(ttdi_norm *n, uint32_t site)
{
    ttdi_slot *s = cache_find(&n->sites, site);

    if (s || !(s = cache_add(&n->sites, site)))
        return s;
    const ttf_callsite *cs = ttf_get_callsite(n->trace, site);
    const char *fmt = cs && cs->fmt ? cs->fmt : "";
    const char *func = cs && cs->func ? cs->func : "";
    uint64_t seed = XXH3_64bits(func, strlen(func)) ^ (uint64_t)(cs ? cs->kind : 0);
    s->hash = XXH3_64bits_withSeed(fmt, strlen(fmt), seed);
    s->name = func;
    s->keep = n->messages != TTD_MSG_OFF && passes(n, func);
    return s;
}

const char *ttdi_norm_text(ttdi_norm *n, const ttf_event *ev)
{
    int len = ttf_format_message(n->trace, ev, n->buf, n->buflen);

    if (len >= 0 && (size_t)len >= n->buflen) {
        char *nb = malloc((size_t)len + 1);
        if (!nb) {
            n->oom = 1;
            return "?";
        }
        free(n->buf);
        n->buf = nb;
        n->buflen = (size_t)len + 1;
        len = ttf_format_message(n->trace, ev, n->buf, n->buflen);
    }
    if (len < 0) {
        n->oom |= len == TT_ENOMEM;
        return "?";
    }
    return n->buf;
}

int ttdi_norm_kept(ttdi_norm *n, const ttf_event *ev)
{
    uint64_t key;

    if ((ev->kind == TTF_EV_ENTER || ev->kind == TTF_EV_EXIT) && !n->keep && !n->drop)
        return 1;
    return ttdi_norm_key(n, ev, &key);
}

/* ttdi_norm_key for the kinds other than ENTER and EXIT. */
static __attribute__((noinline)) int other_key(ttdi_norm *n,
                                               const ttf_event *ev,
                                               uint64_t *key)
{
    ttdi_slot *s;

    switch (ev->kind) {
    case TTF_EV_MESSAGE:
    case TTF_EV_MARK:
        s = site_slot(n, ev->site);
        if (!s)
            return TT_ENOMEM;
        if (!s->keep)
            return 0;
        *key = mix(s->hash, ev->kind);
        if (n->messages == TTD_MSG_TEXT) {
            const char *txt = ttdi_norm_text(n, ev);
            *key = mix(XXH3_64bits_withSeed(txt, strlen(txt), s->hash), ev->kind);
        }
        return 1;
    case TTF_EV_CRASH:
        *key = mix((uint64_t)ev->signo * 0x100000001B3ull, ev->kind);
        return 1;
    default:
        return 0;
    }
}

int ttdi_norm_key(ttdi_norm *n, const ttf_event *ev, uint64_t *key)
{
    if (ev->kind != TTF_EV_ENTER && ev->kind != TTF_EV_EXIT)
        return other_key(n, ev, key);
    ttdi_slot *s = func_slot(n, ev);
    if (!s)
        return TT_ENOMEM;
    /* constant kinds: the compiler folds their mix */
    *key = ev->kind == TTF_EV_ENTER ? mix(s->hash, TTF_EV_ENTER)
                                    : mix(s->hash, TTF_EV_EXIT);
    return s->keep;
}

/* Source file and line of a function (addr) or scope (site) of n's run,
 * through the module loaded at time_ns (NULL, 0 if unknown). */
void ttdi_norm_locate(ttdi_norm *n, uint64_t addr, uint32_t site,
                      uint64_t time_ns, const char **file, int *line)
{
    ttf_event ev;

    memset(&ev, 0, sizeof ev);
    ev.kind = TTF_EV_ENTER;
    ev.addr = addr;
    ev.site = site;
    ev.time_ns = time_ns;
    if (ttf_sym_event_line(n->sym, &ev, file, line) < 0) {
        *file = NULL;
        *line = 0;
    }
}
