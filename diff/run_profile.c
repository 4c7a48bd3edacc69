/*
 * run_profile.c - one run's profile: per-function calls, inclusive and
 * exclusive time from a trace's ENTER/EXIT events (ttd_prof_* in
 * ttprof.h), for ttdump --profile and the profile diff of ttdiff
 * --profile (profile_diff.c). Computes only: report/run_profile_table.c
 * prints the tables.
 * Stage 0 run-profile of diff/STAGES (its header: ttprof.h).
 *
 * Design. Threads are read one after the other (never merged: a thread's
 * stream is all a call stack needs), each with a shadow stack of open
 * frames. Self time is accrued between consecutive events to whatever frame
 * is on top, unless the thread is paused, so callees and PAUSE..RESUME
 * intervals drop out of it without any bookkeeping at EXIT. Inclusive time
 * is added only when a frame of a function closes with no other frame of
 * the same function open below it (an active count per function), so
 * recursion is not counted twice. Streams need not balance: an EXIT is
 * matched to the nearest open frame of its function; the frames above it
 * were skipped by a longjmp and close there as "unwound"; an EXIT with no
 * open frame is counted and ignored; frames open when the thread's events
 * stop close at its last event time, with the reason (crash, thread end,
 * trace end). Functions are merged by name; the address to function map is
 * a small open-addressing table, so the hot path does no symbol lookups.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "prepare.h"
#include "ttprof.h"

#define SCOPE_KEY (1ull << 63)   /* key bit of TT_SCOPE frames (site ids) */

/* One open frame of the thread being read. */
struct frame {
    uint32_t fid;               /* function */
    int outer;                  /* 1: no other frame of fid below it */
    uint64_t enter_ns;          /* when it was entered */
};

/* Counters of one function (in one thread, or all threads). */
struct fstat {
    uint64_t calls, total, self, sum;   /* see ttd_prof_row; sum of durations */
    uint64_t min, max;                  /* per call; min is UINT64_MAX at first */
    uint64_t never;                     /* frames closed without an EXIT */
    uint32_t threads;                   /* threads seen (all-thread stats) */
    ttd_prof_where where;               /* first never-returned frame */
};

struct ttd_prof {
    const ttf_trace *t;         /* the trace read */
    ttf_sym *sym;               /* names functions */
    ttd_prof_info info;         /* totals, order */
    ttd_prof_row *rows;         /* the result */
    size_t nrows, caprows;
    const char **names;         /* per function: its name */
    uint32_t nfn, capfn;        /* functions, slots of the per-function arrays */
    struct fstat *all;          /* per function: all threads */
    struct fstat *cur;          /* per function: the thread being read */
    uint32_t *active;           /* per function: open frames in this thread */
    uint32_t *touched;          /* functions the thread used, ntouched */
    uint32_t ntouched;
    ttdi_map addrs;             /* address (or SCOPE_KEY | site) -> function */
    ttdi_map nmap;              /* XXH3 of a name -> function (a name whose
                                   hash another has: the hash mixed again) */
    int by_time;                /* 1: modules were unloaded, resolve per event */
    int calls_only;             /* 1: count ENTERs, no stack, no times */
    struct frame *stack;        /* open frames of the thread being read */
    size_t depth, capstack;
};

/* State of the thread being read. */
struct tstate {
    uint32_t thread;            /* its index */
    uint64_t last;              /* time of its last event */
    uint64_t pause_start;       /* when the current pause began */
    int paused;                 /* nesting of PAUSE */
    int crashed, ended;         /* saw CRASH, THREAD_END */
};

static void set_err(ttf_error *err, int code, const ttf_trace *t,
                    const char *what)
{
    ttfi_set_err(err, code, 0, "%.160s: profile: %s",
                 t ? ttf_path(t) : "trace", what);
}

/* ---- function tables ---------------------------------------------------- */

static int grow_fn(ttd_prof *p)
{
    uint32_t cap = p->capfn ? p->capfn * 2 : 256;
    int rc = ttfi_regrow(&p->names, cap, sizeof *p->names);
    rc |= ttfi_regrow(&p->all, cap, sizeof *p->all);
    rc |= ttfi_regrow(&p->cur, cap, sizeof *p->cur);
    rc |= ttfi_regrow(&p->active, cap, sizeof *p->active);
    rc |= ttfi_regrow(&p->touched, cap, sizeof *p->touched);
    if (rc)
        return TT_ENOMEM;
    p->capfn = cap;
    return 0;
}

/* The function named name, added if new: its id, or a negative TT_E*. */
static int64_t fid_of_name(ttd_prof *p, const char *name)
{
    uint64_t h = XXH3_64bits(name, strlen(name));
    int added;

    if (p->nfn == p->capfn && grow_fn(p) < 0)
        return TT_ENOMEM;
    for (;;) {
        uint64_t *v = ttdi_map_put(&p->nmap, h, &added);
        if (!v)
            return TT_ENOMEM;
        if (added) {
            uint32_t f = p->nfn++;
            p->names[f] = name;
            memset(&p->all[f], 0, sizeof p->all[f]);
            memset(&p->cur[f], 0, sizeof p->cur[f]);
            p->all[f].min = p->cur[f].min = UINT64_MAX;
            p->active[f] = 0;
            *v = f;
            return f;
        }
        if (strcmp(p->names[*v], name) == 0)
            return (int64_t)*v;
        h = ttfi_mix64(h + 1);  /* two names, one hash: the next key */
    }
}

/* The function of an ENTER/EXIT event: its id, or a negative TT_E*. */
static int64_t fid_of(ttd_prof *p, const ttf_event *ev)
{
    uint64_t key = ev->addr == 0 && ev->site ? SCOPE_KEY | ev->site : ev->addr;

    if (p->by_time)
        return fid_of_name(p, ttf_sym_event_name(p->sym, ev));
    uint64_t *v = ttdi_map_get(&p->addrs, key);
    if (v)
        return (int64_t)*v;
    int64_t f = fid_of_name(p, ttf_sym_event_name(p->sym, ev));
    if (f < 0)
        return f;
    if (!(v = ttdi_map_put(&p->addrs, key, NULL)))
        return TT_ENOMEM;
    *v = (uint64_t)f;
    return f;
}

/* ---- one thread --------------------------------------------------------- */

static void note_touch(ttd_prof *p, uint32_t f)
{
    if (p->cur[f].calls == 0)
        p->touched[p->ntouched++] = f;
}

/* A frame closed without its EXIT: counted, and the first one kept. */
static __attribute__((noinline)) void never_returned(ttd_prof *p,
                                                     const struct tstate *ts,
                                                     const struct frame *fr,
                                                     uint64_t now, int reason)
{
    struct fstat *s = &p->cur[fr->fid];

    p->info.never_returned++;
    if (s->never++ == 0) {
        s->where.reason = reason;
        s->where.thread = ts->thread;
        s->where.enter_ns = fr->enter_ns;
        s->where.close_ns = now;
        s->where.caller = p->depth ? p->names[p->stack[p->depth - 1].fid] : "";
    }
}

/* Close the top frame at time now; reason 0 for a real EXIT. */
static inline void pop(ttd_prof *p, const struct tstate *ts, uint64_t now,
                       int reason)
{
    struct frame *fr = &p->stack[--p->depth];
    struct fstat *s = &p->cur[fr->fid];
    uint64_t dur = now > fr->enter_ns ? now - fr->enter_ns : 0;

    s->sum += dur;
    if (dur < s->min)
        s->min = dur;
    if (dur > s->max)
        s->max = dur;
    if (fr->outer)
        s->total += dur;
    p->active[fr->fid]--;
    if (reason)
        never_returned(p, ts, fr, now, reason);
}

static int push(ttd_prof *p, uint32_t f, uint64_t now)
{
    if (p->depth == p->capstack &&
        ttdi_grow(&p->stack, &p->capstack, p->depth + 1, sizeof *p->stack, 256) < 0)
        return TT_ENOMEM;
    note_touch(p, f);
    p->cur[f].calls++;
    p->stack[p->depth++] = (struct frame){f, p->active[f] == 0, now};
    p->active[f]++;
    return 0;
}

/* An EXIT: close the nearest open frame of f and the frames above it. */
static void close_exit(ttd_prof *p, const struct tstate *ts, uint32_t f,
                    uint64_t now)
{
    size_t k = p->depth;

    while (k > 0 && p->stack[k - 1].fid != f)
        k--;
    if (k == 0) {
        p->info.stray_exits++;
        return;
    }
    while (p->depth > k)
        pop(p, ts, now, TTD_PROF_UNWOUND);
    pop(p, ts, now, 0);
}

static int on_event(ttd_prof *p, struct tstate *ts, const ttf_event *ev)
{
    uint64_t now = ev->time_ns > ts->last ? ev->time_ns : ts->last;

    if (p->depth && !ts->paused)
        p->cur[p->stack[p->depth - 1].fid].self += now - ts->last;
    ts->last = now;
    switch (ev->kind) {
    case TTF_EV_ENTER:
    case TTF_EV_EXIT: {
        int64_t f = fid_of(p, ev);
        if (f < 0)
            return (int)f;
        if (ev->kind == TTF_EV_ENTER)
            return push(p, (uint32_t)f, now);
        close_exit(p, ts, (uint32_t)f, now);
        return 0;
    }
    case TTF_EV_PAUSE:
        if (ts->paused++ == 0)
            ts->pause_start = now;
        return 0;
    case TTF_EV_RESUME:
        if (ts->paused > 0 && --ts->paused == 0)
            p->info.paused_ns += now - ts->pause_start;
        return 0;
    case TTF_EV_CRASH:
        ts->crashed = 1;
        return 0;
    case TTF_EV_THREAD_END:
        ts->ended = 1;
        return 0;
    default:
        return 0;
    }
}

/* The calls-only pass (ttdi_prof_calls): an ENTER counts one call of its
 * function, nothing else is read (no frame, no time). */
static int on_enter(ttd_prof *p, const ttf_event *ev)
{
    if (ev->kind != TTF_EV_ENTER)
        return 0;
    int64_t f = fid_of(p, ev);
    if (f < 0)
        return (int)f;
    note_touch(p, (uint32_t)f);
    p->cur[f].calls++;
    return 0;
}

static int add_row(ttd_prof *p, const struct fstat *s, uint32_t f,
                   uint32_t thread)
{
    if (p->nrows == p->caprows &&
        ttdi_grow(&p->rows, &p->caprows, p->nrows + 1, sizeof *p->rows, 256) < 0)
        return TT_ENOMEM;
    ttd_prof_row *r = &p->rows[p->nrows++];
    r->name = p->names[f];
    r->thread = thread;
    r->threads = thread == TTF_ALL_THREADS ? s->threads : 1;
    r->calls = s->calls;
    r->total_ns = s->total;
    r->self_ns = s->self;
    r->min_ns = s->calls && s->min != UINT64_MAX ? s->min : 0;
    r->max_ns = s->max;
    r->avg_ns = s->calls ? s->sum / s->calls : 0;
    r->never_returned = s->never;
    r->where = s->where;
    return 0;
}

/* Fold the finished thread's counters into the all-thread ones (and its
 * rows, per thread), then clear them for the next thread. */
static int end_thread(ttd_prof *p, const struct tstate *ts)
{
    int reason = ts->crashed ? TTD_PROF_CRASH
               : ts->ended ? TTD_PROF_THREAD_END : TTD_PROF_TRACE_END;
    int rc = 0;

    while (p->depth)
        pop(p, ts, ts->last, reason);
    if (ts->paused)
        p->info.paused_ns += ts->last - ts->pause_start;
    for (uint32_t i = 0; i < p->ntouched; i++) {
        uint32_t f = p->touched[i];
        struct fstat *c = &p->cur[f], *a = &p->all[f];
        if (p->info.per_thread && rc == 0)
            rc = add_row(p, c, f, ts->thread);
        if (a->never == 0 && c->never)
            a->where = c->where;
        a->calls += c->calls;
        a->total += c->total;
        a->self += c->self;
        a->sum += c->sum;
        a->never += c->never;
        a->min = c->min < a->min ? c->min : a->min;
        a->max = c->max > a->max ? c->max : a->max;
        a->threads++;
        memset(c, 0, sizeof *c);
        c->min = UINT64_MAX;
    }
    p->ntouched = 0;
    return rc;
}

uint64_t ttdi_prof_calls_read;

static int read_thread(ttd_prof *p, uint32_t thread, ttf_error *err)
{
    struct tstate ts = {.thread = thread};
    const ttf_thread *th = ttf_get_thread(p->t, thread);
    ttdi_walk wk;
    int rc = ttdi_walk_raw(&wk, p->t, thread);

    if (rc >= 0 && p->calls_only && !p->by_time)
        rc = ttdi_walk_notimes(&wk);    /* it reads no time */
    if (rc < 0) {
        set_err(err, rc, p->t, ttf_strerror(rc));
        return rc;
    }
    ts.last = th ? th->start_ns : 0;
    while ((rc = ttdi_walk_next(&wk)) == 1) {
        p->info.events++;
        rc = p->calls_only ? on_enter(p, &wk.ev) : on_event(p, &ts, &wk.ev);
        if (rc < 0)
            break;
    }
    ttdi_walk_close(&wk);
    if (p->calls_only)
        __atomic_fetch_add(&ttdi_prof_calls_read, 1, __ATOMIC_RELAXED);
    if (rc < 0) {
        set_err(err, rc, p->t, ttf_strerror(rc));
        return rc;
    }
    p->info.threads++;
    rc = end_thread(p, &ts);
    if (rc < 0)
        set_err(err, rc, p->t, "out of memory");
    return rc;
}

/* ---- the API ------------------------------------------------------------ */

int ttdi_prof_by_time(const ttf_trace *t)
{
    for (size_t i = 0; i < ttf_module_count(t); i++) {
        if (ttf_get_module(t, i)->unload_ns != UINT64_MAX)
            return 1;
    }
    return 0;
}

static int selected(const ttd_prof_opts *o, size_t i)
{
    if (!o || !o->threads)
        return 1;
    return i < o->nthreads && o->threads[i];
}

static int build(const ttf_trace *t, ttf_sym *sym, const ttd_prof_opts *opts,
                 int calls_only, ttd_prof **out, ttf_error *err)
{
    ttd_prof *p;
    int rc = TT_ENOMEM;

    if (out)
        *out = NULL;
    if (!t || !sym || !out) {
        set_err(err, TT_EINVAL, t, "NULL argument");
        return TT_EINVAL;
    }
    if (!(p = calloc(1, sizeof *p)))
        goto nomem;
    p->t = t;
    p->sym = sym;
    p->info.per_thread = opts ? opts->per_thread != 0 : 0;
    p->by_time = ttdi_prof_by_time(t);
    p->calls_only = calls_only;
    if (grow_fn(p) < 0)
        goto nomem;
    for (size_t i = 0; i < ttf_thread_count(t); i++) {
        if (selected(opts, i) && (rc = read_thread(p, (uint32_t)i, err)) < 0)
            goto fail;
    }
    for (uint32_t f = 0; f < p->nfn && !p->info.per_thread; f++) {
        if (p->all[f].calls && add_row(p, &p->all[f], f, TTF_ALL_THREADS) < 0)
            goto nomem;
    }
    ttd_prof_sort(p, TTD_PROF_TOTAL);
    *out = p;
    return 0;
nomem:
    rc = TT_ENOMEM;
    set_err(err, rc, t, "out of memory");
fail:
    ttd_prof_free(p);
    return rc;
}

int ttd_prof_build(const ttf_trace *t, ttf_sym *sym, const ttd_prof_opts *opts,
                   ttd_prof **out, ttf_error *err)
{
    return build(t, sym, opts, 0, out, err);
}

int ttdi_prof_calls(const ttf_trace *t, ttf_sym *sym, const ttd_prof_opts *opts,
                    ttd_prof **out)
{
    return build(t, sym, opts, 1, out, NULL);
}

void ttd_prof_free(ttd_prof *p)
{
    if (!p)
        return;
    free(p->rows);
    free(p->names);
    free(p->all);
    free(p->cur);
    free(p->active);
    free(p->touched);
    ttdi_map_free(&p->addrs);
    ttdi_map_free(&p->nmap);
    free(p->stack);
    free(p);
}

size_t ttd_prof_count(const ttd_prof *p)
{
    return p ? p->nrows : 0;
}

const ttd_prof_row *ttd_prof_get(const ttd_prof *p, size_t i)
{
    return p && i < p->nrows ? &p->rows[i] : NULL;
}

const ttd_prof_info *ttd_prof_get_info(const ttd_prof *p)
{
    return p ? &p->info : NULL;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
    return a < b ? 1 : a > b ? -1 : 0;   /* larger first */
}

static int cmp_rows(const void *va, const void *vb, void *arg)
{
    const ttd_prof_row *a = va, *b = vb;
    int col = *(const int *)arg, c = 0;

    if (a->thread != b->thread)
        return a->thread < b->thread ? -1 : 1;
    switch (col) {
    case TTD_PROF_CALLS: c = cmp_u64(a->calls, b->calls); break;
    case TTD_PROF_TOTAL: c = cmp_u64(a->total_ns, b->total_ns); break;
    case TTD_PROF_SELF: c = cmp_u64(a->self_ns, b->self_ns); break;
    case TTD_PROF_MIN: c = cmp_u64(a->min_ns, b->min_ns); break;
    case TTD_PROF_AVG: c = cmp_u64(a->avg_ns, b->avg_ns); break;
    case TTD_PROF_MAX: c = cmp_u64(a->max_ns, b->max_ns); break;
    case TTD_PROF_NEVER: c = cmp_u64(a->never_returned, b->never_returned); break;
    default: break;
    }
    return c ? c : strcmp(a->name, b->name);
}

int ttd_prof_sort(ttd_prof *p, int column)
{
    if (!p || column < TTD_PROF_NAME || column > TTD_PROF_THREAD)
        return TT_EINVAL;
    if (p->nrows > 1)
        qsort_r(p->rows, p->nrows, sizeof *p->rows, cmp_rows, &column);
    p->info.sort = column;
    return 0;
}

static const char *const col_names[] = {
    [TTD_PROF_NAME] = "name", [TTD_PROF_CALLS] = "calls",
    [TTD_PROF_TOTAL] = "total", [TTD_PROF_SELF] = "self",
    [TTD_PROF_MIN] = "min", [TTD_PROF_AVG] = "avg", [TTD_PROF_MAX] = "max",
    [TTD_PROF_NEVER] = "never", [TTD_PROF_THREAD] = "thread",
};

int ttd_prof_column(const char *name)
{
    for (int c = TTD_PROF_NAME; name && c <= TTD_PROF_THREAD; c++) {
        if (strcmp(name, col_names[c]) == 0)
            return c;
    }
    return TT_EINVAL;
}

const char *ttd_prof_column_name(int column)
{
    return column >= TTD_PROF_NAME && column <= TTD_PROF_THREAD
               ? col_names[column] : "?";
}

const char *ttd_prof_end_name(int reason)
{
    switch (reason) {
    case TTD_PROF_UNWOUND: return "unwound";
    case TTD_PROF_CRASH: return "crash";
    case TTD_PROF_THREAD_END: return "thread end";
    case TTD_PROF_TRACE_END: return "trace end";
    default: return "?";
    }
}
