/*
 * normalise.c - turn trace events into 64-bit keys that compare equal
 * across runs: XXH3 over the function's name (never its address, so ASLR
 * and rebuilt binaries compare), a message's call site (format + function,
 * not the site id, which depends on firing order) or its formatted text.
 * Each distinct address or site is symbolised, filtered and hashed once.
 * The same symbols answer where a function's source is (ttdi_norm_locate).
 * Call sites (format 1.2) go into an ENTER key's low bits when both runs
 * have them (ttdi_norm_sites: by module offset within one build, by the
 * calling function and which of its calls it is across builds); an EXIT
 * key keeps those bits 0.
 * Whether a name reads as a lock wrapper (ttdi_lock_wrapper) is decided
 * here too, once for every stage: a suspect that only took a lock, and
 * the function a lock operation is named by (its caller past wrappers).
 * Stage 0 prepare of diff/STAGES (its header: prepare.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "codediff.h"
#include "prepare.h"
#include "x86len.h"

/* Give every event kind its own key space. */
static uint64_t mix(uint64_t h, int kind)
{
    return h ^ ttfi_mix64((uint64_t)kind);
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
    ttdi_table_init(&n->funcs, sizeof(ttdi_slot));
    ttdi_table_init(&n->sites, sizeof(ttdi_slot));
    ttdi_table_init(&n->csites, sizeof(ttdi_slot));
    n->buflen = 512;
    n->buf = malloc(n->buflen);
    if (!n->buf)
        return TT_ENOMEM;
    n->real_path = ttf_path(t) ? realpath(ttf_path(t), NULL) : NULL;
    int rc = ttf_sym_open(t, &n->sym);
    if (rc < 0) {
        free(n->buf);
        free(n->real_path);
        n->buf = NULL;
        n->real_path = NULL;
        return rc;
    }
    return ttf_sym_set_demangle(n->sym, !no_demangle);
}

void ttdi_norm_free(ttdi_norm *n)
{
    if (!n)
        return;
    ttf_sym_close(n->sym);
    free(n->mod_same);
    ttdi_table_free(&n->csites);
    ttdi_table_free(&n->funcs);
    ttdi_table_free(&n->sites);
    free(n->buf);
    free(n->mods);
    free(n->epochs);
    ttdi_dmcache_free(&n->ptrs);
    ttdi_dmcache_free(&n->plans);
    ttdi_dmcache_free(&n->fns);
    free(n->real_path);
    ttdi_map_free(&n->cmps);
    memset(n, 0, sizeof *n);
}

/* The new slot of an address or scope site: named, filtered, hashed. */
static __attribute__((noinline)) ttdi_slot *func_add(ttdi_norm *n,
                                                     const ttf_event *ev,
                                                     uint64_t id)
{
    ttdi_slot *s = ttdi_table_add(&n->funcs, id);

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
    ttdi_slot *s = ttdi_table_get(&n->funcs, id);

    return s ? s : func_add(n, ev, id);
}

const char *ttdi_norm_func(ttdi_norm *n, const ttf_event *ev)
{
    ttdi_slot *s = func_slot(n, ev);
    n->oom |= !s;
    return s ? s->name : "?";
}

const char *ttdi_norm_func_at(ttdi_norm *n, uint64_t addr, uint32_t site, uint64_t time_ns)
{
    ttf_event ev;

    memset(&ev, 0, sizeof ev);
    ev.kind = TTF_EV_ENTER;
    ev.addr = addr;
    ev.site = site;
    ev.time_ns = time_ns;
    return ttdi_norm_func(n, &ev);
}

static ttdi_slot *site_slot(ttdi_norm *n, uint32_t site)
{
    ttdi_slot *s = ttdi_table_get(&n->sites, site);

    if (s || !(s = ttdi_table_add(&n->sites, site)))
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

/* ---- call sites (format 1.2) ---------------------------------------------- */

/* 1 if the other run has module m's build: the same build-id, or with
 * none on either side the same path and size. */
static int same_build(const ttf_module *m, const ttf_trace *other)
{
    for (size_t j = 0; j < ttf_module_count(other); j++) {
        const ttf_module *o = ttf_get_module(other, j);
        if (m->build_id_len && o->build_id_len == m->build_id_len &&
            memcmp(m->build_id, o->build_id, m->build_id_len) == 0)
            return 1;
        if (!m->build_id_len && !o->build_id_len && m->size == o->size &&
            strcmp(m->path, o->path) == 0)
            return 1;
    }
    return 0;
}

int ttdi_norm_sites(ttdi_norm *n, const ttf_trace *other, int on,
                    const struct ttdi_codediff *cd)
{
    free(n->mod_same);
    n->mod_same = NULL;
    n->cd = cd;
    n->site_on = on && other && ttf_get_summary(n->trace)->sites &&
                 ttf_get_summary(other)->sites;
    if (!n->site_on)
        return 0;
    size_t nm = ttf_module_count(n->trace);
    if (!(n->mod_same = calloc(nm ? nm : 1, 1))) {
        n->site_on = 0;
        return TT_ENOMEM;
    }
    for (size_t i = 0; i < nm; i++)
        n->mod_same[i] = (uint8_t)same_build(ttf_get_module(n->trace, i), other);
    return 0;
}

int ttdi_norm_sites_like(ttdi_norm *n, const ttdi_norm *ref)
{
    free(n->mod_same);
    n->mod_same = NULL;
    n->cd = ref->cd;
    n->site_on = ref->site_on && ttf_get_summary(n->trace)->sites;
    if (!n->site_on)
        return 0;
    size_t nm = ttf_module_count(n->trace);
    if (!(n->mod_same = calloc(nm ? nm : 1, 1))) {
        n->site_on = 0;
        return TT_ENOMEM;
    }
    for (size_t i = 0; i < nm; i++) {
        const ttf_module *m = ttf_get_module(n->trace, i);
        for (size_t j = 0; j < ttf_module_count(ref->trace) && !n->mod_same[i]; j++) {
            const ttf_module *o = ttf_get_module(ref->trace, j);
            int same = m->build_id_len ? o->build_id_len == m->build_id_len &&
                                         memcmp(m->build_id, o->build_id, m->build_id_len) == 0
                                       : !o->build_id_len && m->size == o->size &&
                                         strcmp(m->path, o->path) == 0;
            n->mod_same[i] = (uint8_t)(same && ref->mod_same[j]);
        }
    }
    return 0;
}

/* The module holding the call before return address site: index or -1
 * (the later of two at one place). */
static int site_module(const ttf_trace *t, uint64_t site)
{
    int found = -1;
    for (size_t i = 0; i < ttf_module_count(t); i++) {
        const ttf_module *m = ttf_get_module(t, i);
        if (site - 1 >= m->base && site - 1 - m->base < (m->size ? m->size : 1))
            found = (int)i;
    }
    return found;
}

/* 1 if insn at p is a call (e8 rel32, or ff /2), past its prefixes. */
static int is_call(const uint8_t *p, const struct ttfi_insn *in)
{
    unsigned i = 0;
    while (i + 1 < in->len && (p[i] == 0x66 || p[i] == 0x67 || p[i] == 0xf2 ||
                               p[i] == 0xf3 || p[i] == 0x2e || p[i] == 0x3e ||
                               p[i] == 0x26 || p[i] == 0x36 || p[i] == 0x64 ||
                               p[i] == 0x65 || p[i] == 0xf0))
        i++;
    if (i + 1 < in->len && (p[i] & 0xf0) == 0x40)
        i++;                    /* REX */
    if (p[i] == 0xe8)
        return 1;
    return p[i] == 0xff && i + 1 < in->len && ((p[i + 1] >> 3) & 7) == 2;
}

/* Which call of its function a call site is: 1 + the calls before it in
 * the calling function's machine code, decoded from its start; 0 when the
 * code is unknown or the site is no call's end. A rebuilt function whose
 * calls are the same has the same ordinals, whatever moved around it.
 * *target: what a direct call there calls (in the run's addresses), else 0. */
static uint64_t call_ordinal(const ttf_site_where *w, uint64_t site, uint64_t *target)
{
    const uint8_t *c = w->caller_code;
    uint64_t at = 0, calls = 0;
    *target = 0;
    if (!c || w->caller_offset > w->caller_size)
        return 0;
    while (at < w->caller_offset) {
        struct ttfi_insn in;
        const uint8_t *p = c + at;
        if (ttfi_x86_decode(p, (size_t)(w->caller_size - at), &in) < 0)
            return 0;
        calls += (uint64_t)is_call(p, &in);
        at += in.len;
        if (at != w->caller_offset)
            continue;
        if (!is_call(p, &in))
            return 0;
        if (in.branch && in.imm_len == 4) {
            const uint8_t *r = p + in.imm_off;
            uint32_t rel = (uint32_t)r[0] | (uint32_t)r[1] << 8 | (uint32_t)r[2] << 16 |
                           (uint32_t)r[3] << 24;
            *target = site + (uint64_t)(int64_t)(int32_t)rel;
        }
        return calls;
    }
    return 0;
}

/* What names site across runs (ttdi_norm_sites), hashed; 0: nothing does.
 * *target as call_ordinal's, across builds. */
static uint64_t site_hash(ttdi_norm *n, uint64_t site, uint64_t *target)
{
    int mi = site_module(n->trace, site);
    if (mi < 0)
        return 0;
    const ttf_module *m = ttf_get_module(n->trace, (size_t)mi);
    if (n->mod_same[mi]) {
        uint64_t off = site - m->base;
        uint64_t seed = m->build_id_len ? XXH3_64bits(m->build_id, m->build_id_len)
                                        : XXH3_64bits(m->path, strlen(m->path));
        return XXH3_64bits_withSeed(&off, sizeof off, seed);
    }
    ttf_site_where w;
    int rc = ttf_sym_site(n->sym, n->trace, site, &w);
    n->oom |= rc == TT_ENOMEM;
    if (rc < 0 || !w.caller || !n->cd || ttdi_codediff_changed(n->cd, w.caller) != 0)
        return 0;
    uint64_t k = call_ordinal(&w, site, target);
    return k ? XXH3_64bits_withSeed(w.caller, strlen(w.caller), ttfi_mix64(k)) : 0;
}

/* The part of an ENTER key that says where it was called from (cached by
 * site). Across builds, a direct call there that calls another function
 * than fn says the site is another frame's (fn was tail-called, or
 * inlined, in one build maybe only): then none. */
static __attribute__((noinline)) uint64_t site_part(ttdi_norm *n, uint64_t site,
                                                    uint64_t fn)
{
    ttdi_slot *s = ttdi_table_get(&n->csites, site);
    if (!s) {
        uint64_t target = 0, h = site_hash(n, site, &target) & TTDI_SITE_MASK;
        if (!(s = ttdi_table_add(&n->csites, site))) {
            n->oom = 1;
            return 0;
        }
        s->hash = h;
        s->target = target;
    }
    return s->target && s->target != fn ? 0 : s->hash;
}

const char *ttdi_norm_site_text(ttdi_norm *n, const ttf_event *ev, char *buf,
                                size_t len)
{
    ttf_site_where w;
    if (len)
        buf[0] = 0;
    if (!n->site_on || ev->kind != TTF_EV_ENTER || !ev->call_site || !len ||
        ttf_sym_site(n->sym, n->trace, ev->call_site, &w) < 0)
        return buf;
    if (w.caller && w.line)
        snprintf(buf, len, "%s:%d", w.caller, w.line);
    else if (w.caller)
        snprintf(buf, len, "%s+0x%llx", w.caller, (unsigned long long)w.caller_offset);
    else
        snprintf(buf, len, "%s", ttf_sym_name(n->sym, ev->call_site));
    return buf;
}

/* The key of ENTER ev of function slot s. */
static uint64_t enter_key(ttdi_norm *n, const ttdi_slot *s, const ttf_event *ev)
{
    uint64_t key = mix(s->hash, TTF_EV_ENTER);  /* a constant kind: folded */

    if (n->site_on && ev->call_site)
        key ^= site_part(n, ev->call_site, ev->addr);
    return key;
}

int ttdi_norm_key(ttdi_norm *n, const ttf_event *ev, uint64_t *key)
{
    if (ev->kind != TTF_EV_ENTER && ev->kind != TTF_EV_EXIT)
        return other_key(n, ev, key);
    ttdi_slot *s = func_slot(n, ev);
    if (!s)
        return TT_ENOMEM;
    /* constant kinds: the compiler folds their mix */
    if (ev->kind == TTF_EV_EXIT) {
        *key = mix(s->hash, TTF_EV_EXIT) & ~TTDI_SITE_MASK;
        return s->keep;
    }
    *key = enter_key(n, s, ev);
    return s->keep;
}

int ttdi_norm_key_miss(ttdi_norm *n, ttdi_keyhot *h, const ttf_event *ev, uint64_t *key)
{
    int oom = n->oom, rc = ttdi_norm_key(n, ev, key);

    if (rc >= 0 && n->oom == oom && (ev->kind == TTF_EV_ENTER || ev->kind == TTF_EV_EXIT))
        *h = (ttdi_keyhot){ev->addr, ev->kind == TTF_EV_ENTER ? ev->call_site : 0, ev->site,
                           ev->kind, rc, *key};   /* a whole answer: kept */
    return rc;
}

int ttdi_norm_enter(ttdi_norm *n, const ttf_event *ev, uint64_t *key, const char **name)
{
    ttdi_slot *s = func_slot(n, ev);

    if (!s)
        return TT_ENOMEM;
    *key = enter_key(n, s, ev);
    *name = s->name;
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

/* Is tok one of the words a lock wrapper is named with? */
static int lock_word(const char *tok, size_t n)
{
    static const char *const words[] = {"lock", "unlock", "trylock", "mutex",
                                        "spinlock", "spin", "rwlock", "rdlock",
                                        "wrlock", "futex", NULL};
    for (size_t i = 0; words[i]; i++)
        if (strlen(words[i]) == n && strncmp(words[i], tok, n) == 0)
            return 1;
    return 0;
}

int ttdi_lock_wrapper(const char *name)
{
    char low[128];
    size_t n = 0, start = 0;

    for (size_t i = 0; name[i] && n + 1 < sizeof low; i++) {
        char c = name[i];
        int upper = c >= 'A' && c <= 'Z';
        int alnum = upper || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        if (!alnum || (upper && n > start)) {   /* a word ends here */
            if (lock_word(low + start, n - start))
                return 1;
            start = alnum ? n : n + 1;
        }
        low[n++] = upper ? (char)(c - 'A' + 'a') : alnum ? c : ' ';
    }
    return lock_word(low + start, n - start);
}
