/*
 * counts.c - counts are facts (issue 31): the calls whose count in the
 * whole bad run no good run had. "The bad run called take_seat 41 times,
 * every passing run 40" holds whatever else varies between passing runs:
 * which seller sold which seat differs from run to run (each thread's
 * count varies, the alignment files those as differences good runs share),
 * the whole run's count does not. Stage 1 align of diff/STAGES (its
 * header: state.h).
 *
 * Design. Each run's calls are counted per thread and function once the
 * pairs are aligned (the baselines', ttdi_counts_tally, while they are
 * open; the good and the bad run's as late as the engine can,
 * ttdi_counts_runs, before the facts are judged): what the run walks
 * counted of a thread they read whole as they went (ttdi_walk_calls: the
 * timing scan's split threads, the thread order's others, issue 38 item
 * 4: no pass again; or what the tree build's keyed walks counted of a
 * thread they read whole from its start, ttdi_walk_count_open: a
 * program with one thread no run walk reads whole), a bad thread whose
 * kept events are its partner's keys (ttdi_ipair.same) its partner's
 * counts, and the rest by the
 * calls-only pass of run_profile.c (ttdi_prof_calls: its ENTERs, no
 * stack, no times), once the pairs are
 * aligned, with the baselines still open, and only when some pair differs
 * or a thread has no partner: identical runs pay nothing
 * (ttdi_counts_tally); never when a trace was cut short (disk full, a
 * truncated file: its counts are only lower bounds). Once the hunks are resolved (the timing of each
 * known, the threads' progress too), a function is a count fact when
 * every good run (the good run and the baselines) called it as many
 * times and the bad run did not (a count that varies between good runs,
 * a poll loop's, is no fact), and the difference is not all in thread
 * pairs whose every difference was judged timing with the wait recorded
 * (timing.c: a wait loop that ran more times is the threads' timing, not a
 * fact of the program; order.c: a signal sent because the other thread
 * had got that far; grew.c: what a creator did to start one more worker
 * of a pool) nor in a pool's extra worker, whose work the other run's
 * workers did (grew.c) (ttdi_counts_judge). Functions --function and
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
    uint64_t loud;          /* threads whose pair is not all timing */
};

/* One function in one thread (rows of the good and the bad run). */
struct trow {
    const char *name;       /* in the tally's arena */
    uint32_t thread;
    uint64_t calls;
};

#define GROWN (-2)         /* pair_of: a pool's extra worker (grew.c) */

struct ttdi_counts {
    struct trow *rows[2];   /* good, bad: per thread and function */
    size_t nrows[2];
    int64_t *pair_of[2];    /* thread -> script pair, -1, GROWN */
    size_t nt[2];
    struct tally **bt;      /* per baseline: per function, by name */
    size_t *bn;
    size_t nb;
    struct ttfi_arena *names; /* function names */
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

/* Merge tally entries of one name (sorted first). */
static size_t merge_names(struct tally *t, size_t n)
{
    size_t m = 0;

    qsort(t, n, sizeof *t, by_name);
    for (size_t i = 0; i < n; i++) {
        if (m && !strcmp(t[m - 1].name, t[i].name)) {
            t[m - 1].all += t[i].all;
            t[m - 1].loud += t[i].loud;
        } else {
            t[m++] = t[i];
        }
    }
    return m;
}

static int kept(const ttdi_norm *nm, const char *name)
{
    return !(nm->keep && ttd_regex_match(nm->keep, name) <= 0) &&
           !(nm->drop && ttd_regex_match(nm->drop, name) > 0);
}

/* Row (name, thread, calls) at the end of *t (n rows, room for *cap),
 * the name copied into a, unless the filters leave the function out. */
static int add_trow(const ttdi_run_state *r, struct ttfi_arena *a, struct trow **t, size_t *n,
                    size_t *cap, const char *name, uint32_t thread, uint64_t calls)
{
    if (!kept(&r->norm, name))
        return 0;
    if (*n == *cap && ttdi_grow(t, cap, *n + 1, sizeof **t, 64) < 0)
        return TT_ENOMEM;
    if (!((*t)[*n].name = ttfi_arena_strcpy(a, name)))
        return TT_ENOMEM;
    (*t)[*n].thread = thread;
    (*t)[(*n)++].calls = calls;
    return 0;
}

/* The rows of the threads of sel that run walks read whole, counting
 * (ttdi_walk_calls: the timing scan's split thread), taken out of sel. */
static int walked_rows(const ttdi_run_state *r, char *sel, struct ttfi_arena *a,
                       struct trow **t, size_t *n, size_t *cap)
{
    int rc = 0;

    if (ttdi_prof_by_time(r->t))
        return 0;   /* the profile names each event by its time */
    for (uint32_t th = 0; th < r->nt && rc >= 0; th++) {
        const ttdi_fcalls *fc;
        size_t nf;
        if (!sel[th] || !ttdi_walk_calls(r, th, &fc, &nf))
            continue;
        sel[th] = 0;
        for (size_t i = 0; i < nf && rc >= 0; i++)
            rc = add_trow(r, a, t, n, cap, fc[i].name, th, fc[i].calls);
    }
    return rc;
}

/* One run's rows while they are gathered: those of the threads run walks
 * read whole, then (a job of ttdi_both, which reads that run's trace and
 * symbols only) a calls-only pass (ttdi_prof_calls) over the threads
 * rest leaves. */
typedef struct rows_job {
    const ttdi_run_state *r;
    char *rest;             /* threads the pass counts (NULL: all) */
    ttd_prof *prof;         /* its result */
    struct trow *t;         /* the rows */
    size_t n, cap;
} rows_job;

static int calls_one(void *arg)
{
    rows_job *j = arg;
    ttd_prof_opts po = {1, j->rest, j->rest ? j->r->nt : 0};

    return ttdi_prof_calls(j->r->t, j->r->norm.sym, &po, &j->prof);
}

/* Run r's calls per thread (sel[i]: thread i counted; NULL all) and
 * function, names copied into a: first the threads run walks read whole
 * as they counted (rows_start), then the pass's (rows_end). */
static int rows_start(rows_job *j, const ttdi_run_state *r, const char *sel,
                      struct ttfi_arena *a)
{
    j->r = r;
    if (!sel)
        return 0;
    if (!(j->rest = malloc(r->nt + 1)))
        return TT_ENOMEM;
    memcpy(j->rest, sel, r->nt);
    return walked_rows(r, j->rest, a, &j->t, &j->n, &j->cap);
}

static int rows_end(rows_job *j, struct ttfi_arena *a)
{
    int rc = 0;

    for (size_t i = 0; rc >= 0 && i < ttd_prof_count(j->prof); i++) {
        const ttd_prof_row *row = ttd_prof_get(j->prof, i);
        rc = add_trow(j->r, a, &j->t, &j->n, &j->cap, row->name, row->thread, row->calls);
    }
    return rc;
}

/* rows_start, the pass and rows_end in the caller: run r's rows into
 * *out, *nout. */
static int rows_of(const ttdi_run_state *r, const char *sel, struct ttfi_arena *a,
                   struct trow **out, size_t *nout)
{
    rows_job j;
    int rc;

    memset(&j, 0, sizeof j);
    if ((rc = rows_start(&j, r, sel, a)) >= 0 && (rc = calls_one(&j)) >= 0)
        rc = rows_end(&j, a);
    ttd_prof_free(j.prof);
    free(j.rest);
    *out = j.t;
    *nout = j.n;
    return rc;
}

/* A baseline's calls per function, all threads, by name. */
static int totals_of(const ttdi_run_state *r, struct ttfi_arena *a, struct tally **out,
                     size_t *nout)
{
    struct trow *rows;
    size_t n;
    int rc = rows_of(r, NULL, a, &rows, &n);

    *out = NULL;
    *nout = 0;
    struct tally *t = rc < 0 ? NULL : calloc(n + 1, sizeof *t);
    if (t) {
        for (size_t i = 0; i < n; i++)
            t[i] = (struct tally){rows[i].name, rows[i].calls, rows[i].calls};
        *out = t;
        *nout = merge_names(t, n);
    }
    free(rows);
    return rc < 0 ? rc : t ? 0 : TT_ENOMEM;
}

/* Was any thread of t cut short by the writer (disk full, a truncated
 * file)? Its counts are then only lower bounds. */
static int cut_trace(const ttf_trace *t)
{
    for (size_t i = 0; i < ttf_thread_count(t); i++) {
        const ttf_thread *th = ttf_get_thread(t, i);
        if (th && th->cut)
            return 1;
    }
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

void ttdi_counts_free(ttdi_counts *c)
{
    if (!c)
        return;
    for (int ri = 0; ri < 2; ri++) {
        free(c->rows[ri]);
        free(c->pair_of[ri]);
    }
    for (size_t k = 0; k < c->nb; k++)
        free(c->bt[k]);
    free(c->bt);
    free(c->bn);
    free(c);
}

/* Is the bad thread of pair p counted from its partner's rows? When its
 * kept events are the good thread's keys (ttdi_ipair.same) and no filter
 * leaves an ENTER out of the keys, each function had as many calls in
 * both: one pass fewer. */
static int copied(const ttdi_aligner *al, const ttdi_ipair *p)
{
    return p->same && !al->r[TTD_GOOD].norm.keep && !al->r[TTD_GOOD].norm.drop &&
           !al->r[TTD_BAD].norm.keep && !al->r[TTD_BAD].norm.drop;
}

/* Threads counted (all, or with --thread the paired ones) and each
 * thread's pair; the bad threads copied() are left to copy_rows. */
static int threads_of(const ttdi_aligner *al, int ri, ttdi_counts *c, char **sel)
{
    const ttdi_run_state *r = &al->r[ri];

    c->nt[ri] = r->nt;
    if (!(c->pair_of[ri] = malloc((r->nt + 1) * sizeof *c->pair_of[ri])) ||
        !(*sel = malloc(r->nt + 1)))
        return TT_ENOMEM;
    memset(*sel, !al->o->thread, r->nt);
    for (size_t i = 0; i < r->nt; i++)
        c->pair_of[ri][i] = -1;
    for (size_t i = 0; i < al->s->nip; i++) {
        size_t t = al->s->ip[i].t[ri];
        if (t < r->nt) {
            c->pair_of[ri][t] = (int64_t)i;
            (*sel)[t] = 1;
        }
    }
    for (size_t k = 0; k < al->s->ngrown; k++)
        if (al->s->grown[k].run == ri && al->s->grown[k].thread < r->nt)
            c->pair_of[ri][al->s->grown[k].thread] = GROWN;
    for (size_t i = 0; ri == TTD_BAD && i < al->s->nip; i++)
        if (copied(al, &al->s->ip[i]))
            (*sel)[al->s->ip[i].t[1]] = 0;
    return 0;
}

/* The bad rows of the threads copied(): their partners' good rows. */
static int copy_rows(const ttdi_aligner *al, ttdi_counts *c)
{
    size_t n = c->nrows[TTD_BAD], add = 0;

    for (size_t i = 0; i < c->nrows[TTD_GOOD]; i++) {
        int64_t p = c->rows[TTD_GOOD][i].thread < c->nt[TTD_GOOD]
                  ? c->pair_of[TTD_GOOD][c->rows[TTD_GOOD][i].thread] : -1;
        add += p >= 0 && copied(al, &al->s->ip[p]);
    }
    if (!add)
        return 0;
    struct trow *t = realloc(c->rows[TTD_BAD], (n + add + 1) * sizeof *t);
    if (!t)
        return TT_ENOMEM;
    c->rows[TTD_BAD] = t;
    for (size_t i = 0; i < c->nrows[TTD_GOOD]; i++) {
        const struct trow *g = &c->rows[TTD_GOOD][i];
        int64_t p = g->thread < c->nt[TTD_GOOD] ? c->pair_of[TTD_GOOD][g->thread] : -1;
        if (p >= 0 && copied(al, &al->s->ip[p]))
            t[n++] = (struct trow){g->name, al->s->ip[p].t[1], g->calls};
    }
    c->nrows[TTD_BAD] = n;
    return 0;
}

/* Both runs' rows: the calls-only passes, the only reading, by
 * ttdi_both (each run's in a thread of its own); the rows the good run's
 * first, as read one after the other. */
int ttdi_counts_runs(ttdi_counts *c, const ttdi_aligner *al)
{
    rows_job j[2];
    int rc = 0, prc[2] = {0, 0};

    if (!c)
        return 0;
    memset(j, 0, sizeof j);
    for (int ri = 0; ri < 2 && rc >= 0; ri++) {
        char *sel = NULL;
        if ((rc = threads_of(al, ri, c, &sel)) >= 0)
            rc = rows_start(&j[ri], &al->r[ri], sel, c->names);
        free(sel);
    }
    if (rc >= 0)
        ttdi_both(al->o->jobs != 1, calls_one, &j[0], &j[1], prc);
    rc = rc < 0 ? rc : prc[0] < 0 ? prc[0] : prc[1];
    for (int ri = 0; ri < 2; ri++) {
        if (rc >= 0)
            rc = rows_end(&j[ri], c->names);
        c->rows[ri] = j[ri].t;
        c->nrows[ri] = j[ri].n;
        ttd_prof_free(j[ri].prof);
        free(j[ri].rest);
    }
    return rc < 0 ? rc : copy_rows(al, c);
}

int ttdi_counts_tally(const ttdi_aligner *al, size_t nunpaired, struct ttfi_arena *a,
                      ttdi_counts **out)
{
    int rc = 0;

    *out = NULL;
    if (!runs_differ(al, nunpaired) || cut_trace(al->r[0].t) || cut_trace(al->r[1].t))
        return 0;
    for (size_t k = 0; k < al->nbase; k++)
        if (cut_trace(al->base[k].r.t))
            return 0;
    ttdi_counts *c = calloc(1, sizeof *c);
    if (!c)
        return TT_ENOMEM;
    c->names = a;
    c->nb = al->nbase;
    if (rc >= 0 && (!(c->bt = calloc(c->nb + 1, sizeof *c->bt)) ||
                    !(c->bn = calloc(c->nb + 1, sizeof *c->bn))))
        rc = TT_ENOMEM;
    for (size_t k = 0; k < c->nb && rc >= 0; k++)
        rc = totals_of(&al->base[k].r, a, &c->bt[k], &c->bn[k]);
    if (rc < 0) {
        ttdi_counts_free(c);
        return rc;
    }
    *out = c;
    return 0;
}

/* Run ri's rows summed per function, threads of quiet pairs apart. */
static int tally_run(const ttdi_counts *c, int ri, const uint8_t *quiet, struct tally **out,
                     size_t *nout)
{
    size_t n = c->nrows[ri];
    struct tally *t = calloc(n + 1, sizeof *t);

    *out = t;
    *nout = 0;
    if (!t)
        return TT_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        const struct trow *w = &c->rows[ri][i];
        int64_t p = w->thread < c->nt[ri] ? c->pair_of[ri][w->thread] : -1;
        int q = p == GROWN || (p >= 0 && quiet && quiet[p]);
        t[i] = (struct tally){w->name, w->calls, q ? 0 : w->calls};
    }
    *nout = merge_names(t, n);
    return 0;
}

/* The count fact of bad-run function b, if it is one: every good run
 * had one count, the bad run another, not all in threads that only waited
 * differently. */
static int fact(const ttdi_counts *w, const struct tally *b, const struct tally *g,
                ttd_count *c)
{
    uint64_t lo = g ? g->all : 0, hi = lo;

    for (size_t k = 0; k < w->nb; k++) {
        const struct tally *x = find(w->bt[k], w->bn[k], b->name);
        uint64_t v = x ? x->all : 0;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    if ((b->all >= lo && b->all <= hi) || lo != hi)
        return 0;   /* within the good runs, or they disagree: not a fact */
    uint64_t gl = g ? g->loud : 0;  /* the same sign outside quiet threads */
    if (b->all > hi ? b->loud <= gl : b->loud >= gl)
        return 0;
    *c = (ttd_count){b->name, b->all, lo, hi, (uint32_t)(w->nb + 1)};
    return 1;
}

int ttdi_counts_judge(const ttdi_counts *w, const uint8_t *quiet, struct ttfi_arena *a,
                      const ttd_count **out, size_t *nout)
{
    struct tally *t[2] = {NULL, NULL};
    size_t nt[2] = {0, 0}, n = 0;
    ttd_count *c = NULL;
    int rc = 0;

    *out = NULL;
    *nout = 0;
    if (!w)
        return 0;
    for (int ri = 0; ri < 2 && rc >= 0; ri++)
        rc = tally_run(w, ri, quiet, &t[ri], &nt[ri]);
    /* every function of either run: the bad run's, then the good run's
     * that the bad run never called */
    if (rc >= 0 && !(c = ttfi_arena_zalloc(a, (nt[0] + nt[1] + 1) * sizeof *c)))
        rc = TT_ENOMEM;
    for (size_t i = 0; i < nt[TTD_BAD] && rc >= 0; i++)
        n += fact(w, &t[TTD_BAD][i], find(t[TTD_GOOD], nt[TTD_GOOD], t[TTD_BAD][i].name), &c[n]);
    for (size_t i = 0; i < nt[TTD_GOOD] && rc >= 0; i++) {
        struct tally none = {t[TTD_GOOD][i].name, 0, 0};
        if (!find(t[TTD_BAD], nt[TTD_BAD], none.name))
            n += fact(w, &none, &t[TTD_GOOD][i], &c[n]);
    }
    if (rc >= 0)
        qsort(c, n, sizeof *c, count_by_name);
    free(t[0]);
    free(t[1]);
    if (rc >= 0) {
        *out = c;
        *nout = n;
    }
    return rc;
}
