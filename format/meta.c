/*
 * meta.c - what a trace says about its process, modules and call sites,
 * collected while the scan decodes it (PROCESS, CALLSITE, SYNC, and the
 * texts of module and thread records, kept by file offset for the
 * iterator), then sorted: call sites by id (the first definition wins),
 * modules by load time, each unload matched to the module it ends.
 * Stage 2 index of format/STAGES (its header: read_int.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read_int.h"

const struct aux *ttfi_aux_find(const ttf_trace *t, uint64_t off)
{
    size_t lo = 0, hi = t->n_aux;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->aux[mid].off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->n_aux && t->aux[lo].off == off ? &t->aux[lo] : NULL;
}

/* While scanning: remember a record's text for the iterator. */
const char *ttfi_keep_text(struct dec *d, const uint8_t *s, size_t n,
                             uint32_t index)
{
    ttf_trace *t = d->scan;
    char *copy = ttfi_arena_strdup(&t->arena, s, n);
    struct aux *a = PUSH(t, aux);
    if (!copy || !a) {
        t->oom = 1;
        return "";
    }
    a->off = cur_offset(&d->c, d->c.rec);
    a->text = copy;
    a->index = index;
    return copy;
}

const char *ttfi_text_of(const struct dec *d, const uint8_t *rec)
{
    const struct aux *a = ttfi_aux_find(d->t, (uint64_t)(rec - d->t->buf));
    return a ? a->text : "";
}

static int scan_process(struct dec *d, struct ttfi_cursor *s)
{
    ttf_trace *t = d->scan;
    uint64_t pid, ppid, real, hz, argc;
    const uint8_t *exe, *par;
    size_t nexe, npar;
    int r;

    if ((r = cur_uvar(s, &pid)) || (r = cur_uvar(s, &ppid)) ||
        (r = cur_uvar(s, &real)) || (r = cur_uvar(s, &hz)) ||
        (r = cur_str(s, &exe, &nexe)) || (r = cur_uvar(s, &argc)))
        return r;
    if (argc > cur_left(s))
        return CORRUPT(s, "PROCESS argc %llu exceeds its record",
                       (unsigned long long)argc);
    const char **argv = ttfi_arena_alloc(&t->arena, (argc + 1) * sizeof *argv);
    if (!argv)
        return t->oom = 1, 0;
    for (uint64_t i = 0; i < argc; i++) {
        const uint8_t *a;
        size_t na;
        if ((r = cur_str(s, &a, &na)))
            return r;
        argv[i] = ttfi_arena_strdup(&t->arena, a, na);
        if (!argv[i])
            t->oom = 1;
    }
    argv[argc] = NULL;
    if ((r = cur_str(s, &par, &npar)))
        return r;
    uint64_t chaos = 0, seed = 0;   /* appended in chaos mode (1.1) */
    if (cur_left(s) && ((r = cur_uvar(s, &chaos)) || (r = cur_uvar(s, &seed))))
        return r;
    if (t->have_proc)
        return 0;
    t->have_proc = 1;
    t->proc.pid = (int64_t)pid;
    t->proc.ppid = (int64_t)ppid;
    t->proc.start_realtime_ns = real;
    t->proc.exe = ttfi_arena_strdup(&t->arena, exe, nexe);
    t->proc.argc = (int)argc;
    t->proc.argv = argv;
    t->proc.parent_trace = ttfi_arena_strdup(&t->arena, par, npar);
    t->proc.chaos = (unsigned)chaos;
    t->proc.chaos_seed = chaos ? seed : 0;
    t->proc_hz = hz;            /* used when the header's copy is 0 */
    return 0;
}

static int scan_callsite(struct dec *d, struct ttfi_cursor *s)
{
    ttf_trace *t = d->scan;
    uint64_t id, line, nargs;
    int64_t level;
    uint8_t kind = 0;
    const uint8_t *types, *fmt, *file, *func;
    size_t nfmt, nfile, nfunc;
    int r;

    if ((r = cur_uvar(s, &id)) || (r = cur_u8(s, &kind)) ||
        (r = cur_svar(s, &level)) || (r = cur_uvar(s, &line)) ||
        (r = cur_uvar(s, &nargs)) || (r = cur_bytes(s, nargs, &types, "arg types")) ||
        (r = cur_str(s, &fmt, &nfmt)) || (r = cur_str(s, &file, &nfile)) ||
        (r = cur_str(s, &func, &nfunc)))
        return r;
    if (id > UINT32_MAX)
        return CORRUPT(s, "CALLSITE id %llu too large", (unsigned long long)id);
    struct siterec *sr = PUSH(t, sites);
    uint8_t *ty = ttfi_arena_alloc(&t->arena, nargs + 1);
    if (!sr || !ty)
        return t->oom = 1, 0;
    memcpy(ty, types, nargs);
    sr->order = t->n_sites;
    sr->pub.id = (uint32_t)id;
    sr->pub.kind = kind;
    sr->pub.level = level > INT32_MAX ? INT32_MAX
                  : level < INT32_MIN ? INT32_MIN : (int)level;
    sr->pub.line = line > UINT32_MAX ? UINT32_MAX : (uint32_t)line;
    sr->pub.nargs = (uint32_t)nargs;
    sr->pub.types = ty;
    sr->pub.fmt = ttfi_arena_strdup(&t->arena, fmt, nfmt);
    sr->pub.file = ttfi_arena_strdup(&t->arena, file, nfile);
    sr->pub.func = ttfi_arena_strdup(&t->arena, func, nfunc);
    if (!sr->pub.fmt || !sr->pub.file || !sr->pub.func)
        t->oom = 1;
    return 0;
}

static int scan_sync(struct dec *d, struct ttfi_cursor *s)
{
    uint64_t mono, real;
    int r;
    if ((r = cur_uvar(s, &mono)) || (r = cur_uvar(s, &real)))
        return r;
    struct syncpt *sp = mono ? PUSH(d->scan, syncs) : NULL;
    if (sp)
        *sp = (struct syncpt){d->tsc, mono};
    return 0;
}

/* Records that are not events: parsed only while scanning. */
int ttfi_meta_record(struct dec *d, unsigned tag, struct ttfi_cursor *s)
{
    if (!d->scan)
        return 0;
    if (tag == TTF_R_PROCESS)
        return scan_process(d, s);
    if (tag == TTF_R_CALLSITE)
        return scan_callsite(d, s);
    return scan_sync(d, s);
}

const ttf_callsite *ttfi_find_site(const ttf_trace *t, uint32_t id)
{
    size_t lo = 0, hi = t->n_sites;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->sites[mid].pub.id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->n_sites && t->sites[lo].pub.id == id ? &t->sites[lo].pub : NULL;
}

static int site_cmp(const void *a, const void *b)
{
    const struct siterec *x = a, *y = b;
    if (x->pub.id != y->pub.id)
        return x->pub.id < y->pub.id ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static int mod_cmp(const void *a, const void *b)
{
    const struct modrec *x = a, *y = b;
    if (x->load_tsc != y->load_tsc)
        return x->load_tsc < y->load_tsc ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off;
}

static int unl_cmp(const void *a, const void *b)
{
    const struct unload *x = a, *y = b;
    return x->tsc < y->tsc ? -1 : x->tsc > y->tsc;
}

static int aux_cmp(const void *a, const void *b)
{
    const struct aux *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

void ttfi_finish_sites(ttf_trace *t)
{
    size_t n = 0;

    ttfi_sort_n(t->sites, t->n_sites, sizeof *t->sites, site_cmp);
    for (size_t i = 0; i < t->n_sites; i++)
        if (!n || t->sites[n - 1].pub.id != t->sites[i].pub.id)
            t->sites[n++] = t->sites[i];
    t->n_sites = n;
    ttfi_sort_n(t->aux, t->n_aux, sizeof *t->aux, aux_cmp);
}

void ttfi_finish_modules(ttf_trace *t)
{
    ttfi_sort_n(t->mods, t->n_mods, sizeof *t->mods, mod_cmp);
    for (size_t i = 0; i < t->n_mods; i++) {
        struct aux *a = (struct aux *)ttfi_aux_find(t, t->mods[i].off);
        if (a)
            a->index = (uint32_t)i;
        t->mods[i].pub.load_ns = to_ns(t, t->mods[i].load_tsc);
    }
    ttfi_sort_n(t->unl, t->n_unl, sizeof *t->unl, unl_cmp);
    for (size_t u = 0; u < t->n_unl; u++) {
        struct modrec *best = NULL;
        for (size_t i = 0; i < t->n_mods; i++) {
            struct modrec *m = &t->mods[i];
            if (m->pub.base == t->unl[u].base && m->pub.unload_ns == UINT64_MAX &&
                m->load_tsc <= t->unl[u].tsc)
                best = m;
        }
        if (!best)
            continue;
        best->pub.unload_ns = to_ns(t, t->unl[u].tsc);
        struct aux *a = PUSH(t, aux);  /* the iterator names the module */
        if (a)
            *a = (struct aux){t->unl[u].off, best->pub.path,
                              (uint32_t)(best - t->mods)};
    }
    ttfi_sort_n(t->aux, t->n_aux, sizeof *t->aux, aux_cmp);
}

/* ---- accessors ---------------------------------------------------------- */

const ttf_process *ttf_get_process(const ttf_trace *t)
{
    return t ? &t->proc : NULL;
}

size_t ttf_module_count(const ttf_trace *t)
{
    return t ? t->n_mods : 0;
}

const ttf_module *ttf_get_module(const ttf_trace *t, size_t i)
{
    return t && i < t->n_mods ? &t->mods[i].pub : NULL;
}

const ttf_callsite *ttf_get_callsite(const ttf_trace *t, uint32_t id)
{
    return t ? ttfi_find_site(t, id) : NULL;
}
