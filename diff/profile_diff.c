/*
 * profile_diff.c - ttdiff --profile: profile two runs (run_profile.c), pair
 * their functions by name and order them by the largest change, bad minus
 * good. Functions seen in one run only are kept and flagged. Both profiles
 * are sorted by name and merged in one pass. --thread selects the threads
 * profiled, --function/--exclude the functions compared, as in the diff.
 * Stage 5 profile-diff of diff/STAGES (its header: ttprof.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ttprof.h"
#include "ttf_util.h"

struct ttd_profile {
    ttf_trace *own[2];          /* traces opened by ttd_profile_diff_files */
    ttf_sym *sym[2];            /* name the functions of each run */
    ttd_prof *prof[2];       /* each run's profile */
    ttd_profile_delta *rows;    /* the pairs */
    ttd_profile_result res;     /* handed out */
    ttd_regex *re[3];           /* --thread, --function, --exclude; NULL = none */
};

/* The profile diff's wording of an error: "FILE: what". */
static void set_err(ttf_error *err, int code, const char *path,
                    const char *what)
{
    ttfi_set_err(err, code, 0, "%s: %s", path ? path : "profile", what);
}

static double pct(int64_t d, uint64_t base)
{
    return base ? 100.0 * (double)d / (double)base : NAN;
}

static int64_t sub(uint64_t b, uint64_t g)
{
    return (int64_t)(b - g);
}

static void fill(ttd_profile_delta *d, const ttd_prof_row *g,
                 const ttd_prof_row *b)
{
    memset(d, 0, sizeof *d);
    d->only = !b ? TTD_PROF_ONLY_GOOD : !g ? TTD_PROF_ONLY_BAD : TTD_PROF_BOTH;
    d->name = g ? g->name : b->name;
    if (g)
        d->good = *g;
    if (b)
        d->bad = *b;
    d->calls = sub(d->bad.calls, d->good.calls);
    d->total_ns = sub(d->bad.total_ns, d->good.total_ns);
    d->self_ns = sub(d->bad.self_ns, d->good.self_ns);
    d->avg_ns = sub(d->bad.avg_ns, d->good.avg_ns);
    d->calls_pct = pct(d->calls, d->good.calls);
    d->total_pct = pct(d->total_ns, d->good.total_ns);
    d->self_pct = pct(d->self_ns, d->good.self_ns);
    d->avg_pct = pct(d->avg_ns, d->good.avg_ns);
}

static uint64_t mag(int64_t v)
{
    return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

static int64_t key(const ttd_profile_delta *d, int sort)
{
    switch (sort) {
    case TTD_PROF_SELF: return d->self_ns;
    case TTD_PROF_CALLS: return d->calls;
    case TTD_PROF_AVG: return d->avg_ns;
    default: return d->total_ns;
    }
}

static int cmp_change(const void *va, const void *vb, void *arg)
{
    const ttd_profile_delta *a = va, *b = vb;
    int sort = *(const int *)arg;
    uint64_t ka = mag(key(a, sort)), kb = mag(key(b, sort));

    if (ka != kb)
        return ka > kb ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* Does --function/--exclude keep this function? */
static int func_kept(const ttd_profile *p, const char *name)
{
    if (p->re[1] && !ttd_regex_match(p->re[1], name))
        return 0;
    return !(p->re[2] && ttd_regex_match(p->re[2], name));
}

/* Pair the two name-sorted profiles. */
static int merge(ttd_profile *p)
{
    size_t n[2] = {ttd_prof_count(p->prof[0]), ttd_prof_count(p->prof[1])};
    size_t i = 0, j = 0, k = 0;

    p->rows = calloc(n[0] + n[1] + 1, sizeof *p->rows);
    if (!p->rows)
        return TT_ENOMEM;
    while (i < n[0] || j < n[1]) {
        const ttd_prof_row *g = ttd_prof_get(p->prof[0], i);
        const ttd_prof_row *b = ttd_prof_get(p->prof[1], j);
        int c = !g ? 1 : !b ? -1 : strcmp(g->name, b->name);
        i += c <= 0;
        j += c >= 0;
        if (!func_kept(p, c <= 0 ? g->name : b->name))
            continue;
        fill(&p->rows[k], c <= 0 ? g : NULL, c >= 0 ? b : NULL);
        p->res.changed += p->rows[k].only || p->rows[k].calls;
        k++;
    }
    p->res.rows = p->rows;
    p->res.nrows = k;
    return 0;
}

/* Per thread of t: 1 if --thread (pattern, compiled in p) selects it, as
 * ttd_thread_match decides. NULL when memory runs out. */
static char *select_threads(const ttd_profile *p, const char *pattern,
                            const ttf_trace *t)
{
    size_t n = ttf_thread_count(t);
    char *sel = calloc(n + 1, 1);

    for (size_t i = 0; sel && i < n; i++) {
        const ttf_thread *th = ttf_get_thread(t, i);
        sel[i] = (char)ttd_thread_match(pattern, p->re[0], (uint32_t)i,
                                        th->name, th->first_name);
    }
    return sel;
}

static int profile_run(ttd_profile *p, int run, const ttf_trace *t,
                       const ttd_options *o, ttf_error *err)
{
    ttd_prof_opts po = {0, NULL, ttf_thread_count(t)};
    char *sel = select_threads(p, o->thread, t);
    int rc = sel ? ttf_sym_open(t, &p->sym[run]) : TT_ENOMEM;

    if (rc < 0) {
        free(sel);
        set_err(err, rc, ttf_path(t), sel ? "cannot open the symbol resolver"
                                          : "out of memory");
        return rc;
    }
    ttf_sym_set_demangle(p->sym[run], !o->no_demangle);
    if (p->re[0] && !memchr(sel, 1, po.nthreads)) {
        free(sel);
        set_err(err, TT_ENOTFOUND, ttf_path(t), "--thread matches no thread");
        return TT_ENOTFOUND;
    }
    po.threads = sel;
    rc = ttd_prof_build(t, p->sym[run], &po, &p->prof[run], err);
    free(sel);
    if (rc < 0)
        return rc;  /* err names the trace */
    ttd_prof_sort(p->prof[run], TTD_PROF_NAME);
    p->res.path[run] = ttf_path(t);
    p->res.info[run] = *ttd_prof_get_info(p->prof[run]);
    return 0;
}

static int compile(ttd_profile *p, int i, const char *pattern,
                   const char *flag, ttf_error *err)
{
    ttf_error e;

    if (!pattern)
        return 0;
    memset(&e, 0, sizeof e);
    int rc = ttd_regex_compile(pattern, &p->re[i], &e);
    if (rc < 0)
        ttfi_set_err(err, rc, 0, "%s: %.200s", flag,
                     e.msg[0] ? e.msg : ttf_strerror(rc));
    return rc;
}

int ttd_profile_diff(const ttf_trace *good, const ttf_trace *bad,
                     const ttd_options *o, int sort, ttd_profile **out,
                     ttf_error *err)
{
    ttd_options def;
    ttd_profile *p;
    int rc;

    if (!o) {
        ttd_options_init(&def);
        o = &def;
    }
    if (out)
        *out = NULL;
    if (sort == 0)
        sort = TTD_PROF_TOTAL;
    if (!good || !bad || !out || (sort != TTD_PROF_TOTAL && sort != TTD_PROF_SELF &&
                                  sort != TTD_PROF_CALLS && sort != TTD_PROF_AVG)) {
        set_err(err, TT_EINVAL, NULL, "bad argument (sort by total, self, calls or avg)");
        return TT_EINVAL;
    }
    if (!(p = calloc(1, sizeof *p))) {
        set_err(err, TT_ENOMEM, NULL, "out of memory");
        return TT_ENOMEM;
    }
    p->res.sort = sort;
    if ((rc = compile(p, 0, o->thread, "--thread", err)) < 0 ||
        (rc = compile(p, 1, o->function, "--function", err)) < 0 ||
        (rc = compile(p, 2, o->exclude, "--exclude", err)) < 0)
        goto fail;
    if ((rc = profile_run(p, TTD_GOOD, good, o, err)) < 0 ||
        (rc = profile_run(p, TTD_BAD, bad, o, err)) < 0)
        goto fail;
    if ((rc = merge(p)) < 0) {
        set_err(err, rc, NULL, "out of memory");
        goto fail;
    }
    if (p->res.nrows > 1)
        qsort_r(p->rows, p->res.nrows, sizeof *p->rows, cmp_change, &sort);
    *out = p;
    return 0;
fail:
    ttd_profile_free(p);
    return rc;
}

int ttd_profile_diff_files(const char *good, const char *bad,
                           const ttd_options *o, int sort, ttd_profile **out,
                           ttf_error *err)
{
    ttf_trace *t[2] = {NULL, NULL};
    const char *path[2] = {good, bad};
    int rc;

    if (out)
        *out = NULL;
    for (int i = 0; i < 2; i++) {
        if ((rc = ttf_open(path[i], &t[i], err)) < 0) {
            if (err && !err->msg[0])
                set_err(err, rc, path[i], ttf_strerror(rc));
            ttf_close(t[0]);
            return rc;
        }
    }
    rc = ttd_profile_diff(t[0], t[1], o, sort, out, err);
    if (rc < 0) {
        ttf_close(t[0]);
        ttf_close(t[1]);
        return rc;
    }
    (*out)->own[0] = t[0];
    (*out)->own[1] = t[1];
    return 0;
}

const ttd_profile_result *ttd_profile_get_result(const ttd_profile *p)
{
    return p ? &p->res : NULL;
}

void ttd_profile_free(ttd_profile *p)
{
    if (!p)
        return;
    for (int i = 0; i < 2; i++) {
        ttd_prof_free(p->prof[i]);
        ttf_sym_close(p->sym[i]);
        ttf_close(p->own[i]);
    }
    for (int i = 0; i < 3; i++)
        ttd_regex_free(p->re[i]);
    free(p->rows);
    free(p);
}
