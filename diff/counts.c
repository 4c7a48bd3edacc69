/*
 * counts.c - counts are facts (issue 31): the calls whose count in the
 * whole bad run no good run had. "The bad run called take_seat 41 times,
 * every passing run 40" holds whatever else varies between passing runs:
 * which seller sold which seat differs from run to run (each thread's
 * count varies, the alignment files those as differences good runs share),
 * the whole run's count does not. Stage 1 align of diff/STAGES (its
 * header: state.h).
 *
 * Design. Each run's calls are counted per thread and function (the
 * profile of run_profile.c, one pass over each trace) once the pairs are
 * aligned and their timing judged, and only when some pair differs or a
 * thread has no partner: identical runs pay nothing. A function is a
 * count fact when its count in the bad run lies outside the counts of
 * every good run (the good run and the baselines), and the difference is
 * not all in threads whose every difference was judged timing with the
 * wait recorded (timing.c: a wait loop that ran more times is the
 * threads' timing, not a fact of the program). Functions --function and
 * --exclude leave out are not counted; with --thread only the paired
 * threads are. The facts are sorted by name here; the engine puts those
 * a divergence starts with first.
 */
#include <stdlib.h>
#include <string.h>

#include "state.h"
#include "ttprof.h"
#include "ttf_util.h"

/* One function of one run, summed over threads. */
struct tally {
    const char *name;
    uint64_t all;           /* every counted thread */
    uint64_t loud;          /* threads not judged all timing */
};

static int by_name(const void *a, const void *b)
{
    return strcmp(((const struct tally *)a)->name, ((const struct tally *)b)->name);
}

static int count_by_name(const void *a, const void *b)
{
    return strcmp(((const ttd_count *)a)->function, ((const ttd_count *)b)->function);
}

static const struct tally *find(const struct tally *t, size_t n, const char *name)
{
    struct tally k = {name, 0, 0};
    return n ? bsearch(&k, t, n, sizeof *t, by_name) : NULL;
}

/* Threads of run ri whose pair differs only in timing (quiet[i] = 1), and
 * the threads counted at all (sel[i] = 1). */
static void mark_threads(const ttdi_aligner *al, int ri, char *sel, char *quiet, size_t nt)
{
    const ttdi_script *s = al->s;
    int all = !al->o->thread;

    memset(sel, all, nt);
    memset(quiet, 0, nt);
    for (size_t i = 0; i < s->nip; i++) {
        const ttdi_ipair *p = &s->ip[i];
        size_t t = p->t[ri], timed = 0;
        if (t >= nt)
            continue;
        sel[t] = 1;
        for (size_t h = 0; h < p->nh && p->tim; h++)
            timed += p->tim[h] != TTD_TIMING_NONE;
        quiet[t] = p->nh > 0 && timed == p->nh;
    }
}

/* Run r's calls per function, summed over its selected threads (sel NULL:
 * all), quiet threads apart; sorted by name, names kept in the profile. */
static int tally_run(const ttdi_run_state *r, const char *sel, const char *quiet,
                     ttd_prof **prof, struct tally **out, size_t *nout)
{
    ttd_prof_opts po = {1, sel, sel ? r->nt : 0};
    const ttdi_norm *nm = &r->norm;
    int rc = ttd_prof_build(r->t, nm->sym, &po, prof, NULL);

    *out = NULL;
    *nout = 0;
    if (rc < 0)
        return rc;
    size_t nr = ttd_prof_count(*prof), n = 0;
    struct tally *t = calloc(nr + 1, sizeof *t);
    if (!t)
        return TT_ENOMEM;
    for (size_t i = 0; i < nr; i++) {
        const ttd_prof_row *row = ttd_prof_get(*prof, i);
        if ((nm->keep && ttd_regex_match(nm->keep, row->name) <= 0) ||
            (nm->drop && ttd_regex_match(nm->drop, row->name) > 0))
            continue;
        t[n++] = (struct tally){row->name, row->calls,
                                quiet && row->thread < r->nt && quiet[row->thread] ? 0 : row->calls};
    }
    qsort(t, n, sizeof *t, by_name);
    size_t m = 0;           /* rows of one name (one per thread) merged */
    for (size_t i = 0; i < n; i++) {
        if (m && !strcmp(t[m - 1].name, t[i].name)) {
            t[m - 1].all += t[i].all;
            t[m - 1].loud += t[i].loud;
        } else {
            t[m++] = t[i];
        }
    }
    *out = t;
    *nout = m;
    return 0;
}

/* Does any pair differ, or any thread lack a partner? */
static int runs_differ(const ttdi_aligner *al, size_t nunpaired)
{
    for (size_t i = 0; i < al->s->nip; i++)
        if (al->s->ip[i].nh || al->s->ip[i].n[0] != al->s->ip[i].n[1])
            return 1;
    return nunpaired > 0;
}

struct runs {
    ttd_prof *prof[2];
    struct tally *t[2];
    size_t n[2];
    ttd_prof **bprof;
    struct tally **bt;
    size_t *bn;
    size_t nb;
};

static void runs_free(struct runs *w)
{
    for (int ri = 0; ri < 2; ri++) {
        ttd_prof_free(w->prof[ri]);
        free(w->t[ri]);
    }
    for (size_t k = 0; k < w->nb; k++) {
        if (w->bprof)
            ttd_prof_free(w->bprof[k]);
        if (w->bt)
            free(w->bt[k]);
    }
    free(w->bprof);
    free(w->bt);
    free(w->bn);
}

static int tally_all(const ttdi_aligner *al, struct runs *w)
{
    int rc = 0;

    for (int ri = 0; ri < 2 && rc >= 0; ri++) {
        const ttdi_run_state *r = &al->r[ri];
        char *sel = calloc(r->nt + 1, 2);
        if (!sel)
            return TT_ENOMEM;
        mark_threads(al, ri, sel, sel + r->nt + 1, r->nt);
        rc = tally_run(r, sel, sel + r->nt + 1, &w->prof[ri], &w->t[ri], &w->n[ri]);
        free(sel);
    }
    w->nb = al->nbase;
    w->bprof = calloc(w->nb + 1, sizeof *w->bprof);
    w->bt = calloc(w->nb + 1, sizeof *w->bt);
    w->bn = calloc(w->nb + 1, sizeof *w->bn);
    if (!w->bprof || !w->bt || !w->bn)
        return TT_ENOMEM;
    for (size_t k = 0; k < w->nb && rc >= 0; k++)
        rc = tally_run(&al->base[k].r, NULL, NULL, &w->bprof[k], &w->bt[k], &w->bn[k]);
    return rc;
}

/* The count fact of bad-run function b, if it is one: its count outside
 * every good run's, not all in threads that only waited differently. */
static int fact(const struct runs *w, const struct tally *b, const struct tally *g,
                ttd_count *c)
{
    uint64_t lo = g ? g->all : 0, hi = lo;

    for (size_t k = 0; k < w->nb; k++) {
        const struct tally *x = find(w->bt[k], w->bn[k], b->name);
        uint64_t v = x ? x->all : 0;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    if (b->all >= lo && b->all <= hi)
        return 0;
    uint64_t gl = g ? g->loud : 0;  /* the same sign outside quiet threads */
    if (b->all > hi ? b->loud <= gl : b->loud >= gl)
        return 0;
    *c = (ttd_count){b->name, b->all, lo, hi, (uint32_t)(w->nb + 1)};
    return 1;
}

int ttdi_counts_find(const ttdi_aligner *al, size_t nunpaired, struct ttfi_arena *a,
                     const ttd_count **out, size_t *nout)
{
    struct runs w;
    ttd_count *c = NULL;
    size_t n = 0;
    int rc;

    *out = NULL;
    *nout = 0;
    if (!runs_differ(al, nunpaired))
        return 0;
    memset(&w, 0, sizeof w);
    if ((rc = tally_all(al, &w)) < 0)
        goto out;
    /* every function of either run: the bad run's, then the good run's
     * that the bad run never called */
    size_t cap = w.n[TTD_BAD] + w.n[TTD_GOOD];
    if (!(c = ttfi_arena_zalloc(a, (cap + 1) * sizeof *c))) {
        rc = TT_ENOMEM;
        goto out;
    }
    for (size_t i = 0; i < w.n[TTD_BAD]; i++)
        n += fact(&w, &w.t[TTD_BAD][i], find(w.t[TTD_GOOD], w.n[TTD_GOOD], w.t[TTD_BAD][i].name),
                  &c[n]);
    for (size_t i = 0; i < w.n[TTD_GOOD]; i++) {
        const struct tally *g = &w.t[TTD_GOOD][i];
        struct tally none = {g->name, 0, 0};
        if (!find(w.t[TTD_BAD], w.n[TTD_BAD], g->name))
            n += fact(&w, &none, g, &c[n]);
    }
    for (size_t i = 0; i < n && rc >= 0; i++)   /* names outlive the profiles */
        if (!(c[i].function = ttfi_arena_strcpy(a, c[i].function)))
            rc = TT_ENOMEM;
    qsort(c, n, sizeof *c, count_by_name);
out:
    runs_free(&w);
    if (rc >= 0) {
        *out = c;
        *nout = n;
    }
    return rc < 0 ? rc : 0;
}
