/*
 * ttrec_closest.c - ttrec --until-fail chooses, among the passing runs it
 * kept, the one closest to the failing run as ttdiff's good run (the
 * others become baselines).
 *
 * Design. Two runs of a flaky program start alike and part somewhere; the
 * passing run that stays with the failing one longest shares the most of
 * its history, so what differs after the common part is more likely the
 * failure and less likely scheduling noise from the start (a worker that
 * took another item first). Closeness is measured cheaply, through
 * libttfmt alone and without symbols: each thread of a run is the
 * sequence of its calls (ENTER events), each call a key made of its
 * function's module path and offset in that module (so address space
 * layout randomisation does not matter) and its depth. Threads pair by
 * index (creation order); the score is the sum over paired threads of the
 * length of their common prefix. The failing run's keys are held in memory
 * (each thread's first TTRI_CALLS_MAX calls); each candidate is streamed
 * against them and stops at its first difference per thread, so a
 * candidate costs little more than reading up to where it parts.
 *
 * Trees (ttrec --until-fail -o DIR/, each run a folder of traces): a
 * tree's score is the sum of its traced processes' scores against the
 * failing tree's, processes paired by program and command line (the k-th
 * alike with the k-th, so the suite's third "test-x --quick" meets the
 * third), those left by program alone (a failing "step2 fail" meets the
 * passing "step2"). Not the root's alone (the root is often an untraced
 * shell), and not the first diverging pair's (that needs every pair
 * diffed, per candidate): the whole tree's common history, as for threads.
 * Stage 1 modules of report/cmd/STAGES.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttfmt.h"
#include "ttrec_closest.h"

/* One thread's call keys. */
struct tcalls {
    uint64_t *key;
    size_t n, cap;
};

struct ttri_calls {
    struct tcalls *th;      /* by thread index */
    size_t nth;
};

/* FNV-1a of a string: a module's identity across runs. */
static uint64_t str_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; s && *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

/* The modules of a trace: enough to make an address module-relative. */
struct mods {
    const ttf_trace *t;
    size_t n;
    size_t last;            /* the module hit last (calls cluster) */
};

/* The key of a call: its function as (module, offset) and its depth. */
static uint64_t call_key(struct mods *m, const ttf_event *ev)
{
    uint64_t where = ev->addr ? ev->addr : 0x5c09e000000000ull + ev->site;

    for (size_t k = 0; ev->addr && k < m->n; k++) {
        size_t i = (m->last + k) % m->n;
        const ttf_module *mod = ttf_get_module(m->t, i);
        if (ev->addr >= mod->base && ev->addr - mod->base < mod->size) {
            m->last = i;
            where = str_hash(mod->path) ^ ((ev->addr - mod->base) * 0x9e3779b97f4a7c15ull);
            break;
        }
    }
    return where * 31 + (uint64_t)(int64_t)ev->depth;
}

static int open_trace(const char *path, ttf_trace **t, char *err, size_t errlen)
{
    ttf_error e;
    int rc = ttf_open(path, t, &e);
    if (rc)
        snprintf(err, errlen, "%s: %s", path, e.msg);
    return rc;
}

static int push(struct tcalls *tc, uint64_t key)
{
    if (tc->n == tc->cap) {
        size_t cap = tc->cap ? tc->cap * 2 : 256;
        uint64_t *k = realloc(tc->key, cap * sizeof *k);
        if (!k)
            return TT_ENOMEM;
        tc->key = k;
        tc->cap = cap;
    }
    tc->key[tc->n++] = key;
    return 0;
}

/* Thread i's calls into tc. */
static int load_thread(const ttf_trace *t, uint32_t i, struct tcalls *tc)
{
    struct mods m = {t, ttf_module_count(t), 0};
    ttf_iter *it = NULL;
    ttf_event ev;
    int rc = ttf_iter_open(t, i, &it);

    while (!rc && tc->n < TTRI_CALLS_MAX && (rc = ttf_iter_next(it, &ev)) == 1) {
        rc = 0;
        if (ev.kind == TTF_EV_ENTER)
            rc = push(tc, call_key(&m, &ev));
    }
    if (it)
        ttf_iter_close(it);
    return rc < 0 ? rc : 0;
}

int ttri_calls_load(const char *path, ttri_calls **out, char *err, size_t errlen)
{
    ttf_trace *t;
    int rc = open_trace(path, &t, err, errlen);
    ttri_calls *c;

    *out = NULL;
    if (rc)
        return rc;
    c = calloc(1, sizeof *c);
    if (c)
        c->nth = ttf_thread_count(t);
    if (!c || !(c->th = calloc(c->nth ? c->nth : 1, sizeof *c->th))) {
        free(c);
        ttf_close(t);
        snprintf(err, errlen, "%s: out of memory", path);
        return TT_ENOMEM;
    }
    for (size_t i = 0; i < c->nth && !rc; i++)
        rc = load_thread(t, (uint32_t)i, &c->th[i]);
    ttf_close(t);
    if (rc) {
        snprintf(err, errlen, "%s: %s", path, ttf_strerror(rc));
        ttri_calls_free(c);
        return rc;
    }
    *out = c;
    return 0;
}

void ttri_calls_free(ttri_calls *c)
{
    for (size_t i = 0; c && i < c->nth; i++)
        free(c->th[i].key);
    if (c)
        free(c->th);
    free(c);
}

/* The common prefix of thread i of t with the failing run's tc. */
static int thread_prefix(const ttf_trace *t, uint32_t i, const struct tcalls *tc,
                         uint64_t *common)
{
    struct mods m = {t, ttf_module_count(t), 0};
    ttf_iter *it = NULL;
    ttf_event ev;
    int rc = ttf_iter_open(t, i, &it);
    size_t n = 0;

    while (!rc && n < tc->n && (rc = ttf_iter_next(it, &ev)) == 1) {
        rc = 0;
        if (ev.kind != TTF_EV_ENTER)
            continue;
        if (call_key(&m, &ev) != tc->key[n])
            break;
        n++;
    }
    if (it)
        ttf_iter_close(it);
    *common += n;
    return rc < 0 ? rc : 0;
}

int ttri_calls_prefix(const ttri_calls *fail, const char *path, ttri_prefix *out,
                      char *err, size_t errlen)
{
    ttf_trace *t;
    int rc = open_trace(path, &t, err, errlen);

    memset(out, 0, sizeof *out);
    if (rc)
        return rc;
    size_t n = ttf_thread_count(t);
    out->threads = n < fail->nth ? n : fail->nth;
    for (size_t i = 0; i < out->threads && !rc; i++) {
        out->calls += fail->th[i].n;
        rc = thread_prefix(t, (uint32_t)i, &fail->th[i], &out->common);
    }
    ttf_close(t);
    if (rc)
        snprintf(err, errlen, "%s: %s", path, ttf_strerror(rc));
    return rc;
}

/* 1 if a and b run the same program with the same argv (exact 1). */
static int alike(const ttf_proc *a, const ttf_proc *b, int exact)
{
    if (strcmp(a->exe, b->exe))
        return 0;
    if (!exact)
        return 1;
    if (a->argc != b->argc)
        return 0;
    for (size_t i = 0; i < a->argc; i++)
        if (strcmp(a->argv[i], b->argv[i]))
            return 0;
    return 1;
}

/* The first row of pass not used yet, traced and alike f; -1 none. */
static int64_t find_row(const ttf_ptable *pass, const ttf_proc *f, const char *used, int exact)
{
    for (size_t j = 0; j < ttf_ptable_count(pass); j++) {
        const ttf_proc *q = ttf_ptable_get(pass, j);
        if (!used[j] && q->traced && alike(f, q, exact))
            return (int64_t)j;
    }
    return -1;
}

/* Pair the failing tree's traced rows with pass's: pair[i] = row of pass,
 * or -1. Exact matches first, then by program. */
static void pair_rows(const ttf_ptable *fail, const ttf_ptable *pass, int64_t *pair,
                      char *used)
{
    size_t nf = ttf_ptable_count(fail);
    for (size_t i = 0; i < nf; i++)
        pair[i] = -1;
    for (int exact = 1; exact >= 0; exact--)
        for (size_t i = 0; i < nf; i++) {
            const ttf_proc *f = ttf_ptable_get(fail, i);
            if (!f->traced || pair[i] >= 0)
                continue;
            if ((pair[i] = find_row(pass, f, used, exact)) >= 0)
                used[pair[i]] = 1;
        }
}

/* Add the common prefix of a failing process's calls with q's trace
 * (in dir) to *sc. */
static void add_pair(const ttri_calls *calls, const char *dir, const ttf_proc *q,
                     ttri_prefix *sc, char *err, size_t errlen)
{
    char path[4096];
    ttri_prefix p;
    snprintf(path, sizeof path, "%s/%s", dir, q->trace);
    if (ttri_calls_prefix(calls, path, &p, err, errlen))
        return;
    sc->common += p.common;
    sc->calls += p.calls;
    sc->threads += p.threads;
    sc->procs++;
}

int ttri_tree_prefix(const char *fail_dir, const char *const *pass_dirs, size_t n,
                     ttri_prefix *sc, char *err, size_t errlen)
{
    ttf_ptable *fail = NULL, **pass = calloc(n ? n : 1, sizeof *pass);
    int64_t **pair = calloc(n ? n : 1, sizeof *pair);
    ttf_error e = {0};
    char path[4096];
    int rc = pass && pair ? ttf_ptable_open(fail_dir, &fail, &e) : TT_ENOMEM;

    memset(sc, 0, n * sizeof *sc);
    err[0] = 0;
    if (rc)
        snprintf(err, errlen, "%s", e.msg[0] ? e.msg : ttf_strerror(rc));
    size_t nf = fail ? ttf_ptable_count(fail) : 0;
    for (size_t k = 0; !rc && k < n; k++) {
        if (ttf_ptable_open(pass_dirs[k], &pass[k], &e) != 0)
            continue;
        char *used = calloc(ttf_ptable_count(pass[k]) + 1, 1);
        if (used && (pair[k] = malloc((nf + 1) * sizeof **pair)))
            pair_rows(fail, pass[k], pair[k], used);
        free(used);
    }
    for (size_t i = 0; !rc && i < nf; i++) {
        const ttf_proc *f = ttf_ptable_get(fail, i);
        ttri_calls *calls = NULL;
        snprintf(path, sizeof path, "%s/%s", fail_dir, f->trace);
        if (!f->traced || ttri_calls_load(path, &calls, err, errlen))
            continue;
        for (size_t k = 0; k < n; k++)
            if (pair[k] && pair[k][i] >= 0)
                add_pair(calls, pass_dirs[k], ttf_ptable_get(pass[k], (size_t)pair[k][i]),
                         &sc[k], err, errlen);
        ttri_calls_free(calls);
    }
    for (size_t k = 0; k < n && pass && pair; k++) {
        ttf_ptable_close(pass[k]);
        free(pair[k]);
    }
    ttf_ptable_close(fail);
    free(pass);
    free(pair);
    return rc;
}

void ttri_rank(const ttri_prefix *scores, size_t n, size_t *order)
{
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    for (size_t i = 1; i < n; i++) {   /* insertion sort: stable, n is small */
        size_t x = order[i], j = i;
        for (; j > 0 && scores[order[j - 1]].common < scores[x].common; j--)
            order[j] = order[j - 1];
        order[j] = x;
    }
}
