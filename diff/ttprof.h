/*
 * ttprof.h - per-function profiles of tt traces, the second public API of
 * libttdiff beside the engine of ttdiff.h.
 *
 * Two things with two prefixes: ttd_prof_* is ONE run's profile (calls,
 * total and self time per function, what never returned: ttdump
 * --profile); ttd_profile_* is the profile DIFF of two runs (each
 * function's rows side by side, bad - good, largest change first: ttdiff
 * --profile). The diff is built on one run's profile and takes the
 * engine's options and filters (ttdiff.h) for its threads and functions.
 * Like the engine, nothing here prints: report/ttreport.h renders.
 * Errors are 0 or a negative TT_E* code from ttfmt.h.
 */
#ifndef TTPROF_H
#define TTPROF_H

#include <stddef.h>
#include <stdint.h>

/* installed side by side; in the source tree, -Idiff finds it */
#include "ttdiff.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- one run's profile: ttd_prof_* (diff/run_profile.c) ------------------ */

/* Per-function calls and times from ENTER/EXIT events. Inclusive time of a
 * recursive function counts only its outermost active frame; self time
 * leaves out callees and every PAUSE..RESUME interval. Unbalanced streams
 * are expected: frames skipped by longjmp (an outer frame's EXIT arrives
 * first) and frames still open when the thread's events end are closed
 * there and counted as "never returned". Rows merge functions by name. */
typedef struct ttd_prof ttd_prof;

/* Why a frame never returned. */
enum ttd_prof_end {
    TTD_PROF_UNWOUND = 1,   /* an enclosing frame returned first (longjmp) */
    TTD_PROF_CRASH,         /* open when the thread recorded a crash */
    TTD_PROF_THREAD_END,    /* open when the thread ended */
    TTD_PROF_TRACE_END      /* open when the thread's events stop */
};

/* Sort columns (numbers sort largest first, names and threads A-Z). */
enum ttd_prof_col {
    TTD_PROF_NAME = 1, TTD_PROF_CALLS, TTD_PROF_TOTAL, TTD_PROF_SELF,
    TTD_PROF_MIN, TTD_PROF_AVG, TTD_PROF_MAX, TTD_PROF_NEVER,
    TTD_PROF_THREAD
};

/* Where a function first failed to return. */
typedef struct ttd_prof_where {
    int reason;             /* TTD_PROF_* end, 0 if it always returned */
    uint32_t thread;        /* thread index */
    uint64_t enter_ns;      /* when that frame was entered */
    uint64_t close_ns;      /* when it was closed (see reason) */
    const char *caller;     /* enclosing function, "" at the top */
} ttd_prof_where;

/* One function (in one thread, or in all threads). */
typedef struct ttd_prof_row {
    const char *name;       /* function name (ttf_sym_event_name) */
    uint32_t thread;        /* thread index, TTF_ALL_THREADS when merged */
    uint32_t threads;       /* threads that called it */
    uint64_t calls;         /* frames entered */
    uint64_t total_ns;      /* inclusive time, outermost frames only */
    uint64_t self_ns;       /* exclusive time, pauses left out */
    uint64_t min_ns;        /* shortest call (inclusive) */
    uint64_t avg_ns;        /* mean call (sum of every frame's time / calls) */
    uint64_t max_ns;        /* longest call */
    uint64_t never_returned;/* frames closed by the profiler, not an EXIT */
    ttd_prof_where where;   /* the first of those */
} ttd_prof_row;

/* The whole computation. */
typedef struct ttd_prof_info {
    uint64_t events;        /* events read */
    uint32_t threads;       /* threads profiled */
    uint64_t paused_ns;     /* PAUSE..RESUME time, all threads */
    uint64_t stray_exits;   /* EXITs matching no open frame (ignored) */
    uint64_t never_returned;/* frames closed by the profiler */
    int per_thread;         /* 1: one row per thread and function */
    int sort;               /* TTD_PROF_* column of the current order */
} ttd_prof_info;

typedef struct ttd_prof_opts {
    int per_thread;         /* 1: rows per (thread, function) */
    const char *threads;    /* per thread index: nonzero = profile it; NULL = all */
    size_t nthreads;        /* entries in threads (missing = not profiled) */
} ttd_prof_opts;

/* Read every selected thread of t (one pass, thread by thread) and build
 * the profile, sorted by total time. sym names the functions and must
 * outlive the profile; opts may be NULL. Errors: TT_EINVAL (NULL t or sym),
 * TT_ENOMEM, reader errors; err (may be NULL) says what. *out is NULL on
 * error. Memory is O(functions x threads + deepest stack). */
int ttd_prof_build(const ttf_trace *t, ttf_sym *sym, const ttd_prof_opts *opts,
                   ttd_prof **out, ttf_error *err);
void ttd_prof_free(ttd_prof *p);      /* NULL is fine */

size_t ttd_prof_count(const ttd_prof *p);
/* Row i in the current order; NULL past the end. */
const ttd_prof_row *ttd_prof_get(const ttd_prof *p, size_t i);
const ttd_prof_info *ttd_prof_get_info(const ttd_prof *p);

/* Reorder the rows by a TTD_PROF_* column (per-thread profiles keep threads
 * together, in index order). Ties go by name. TT_EINVAL for a bad column. */
int ttd_prof_sort(ttd_prof *p, int column);

/* "calls" -> TTD_PROF_CALLS (also name, total, self, min, avg, max, never,
 * thread); TT_EINVAL for anything else. */
int ttd_prof_column(const char *name);
/* The name of a column or of a TTD_PROF_* end reason ("unwound", "crash",
 * "thread end", "trace end"); "?" if unknown. */
const char *ttd_prof_column_name(int column);
const char *ttd_prof_end_name(int reason);

/* ---- the profile diff of two runs: ttd_profile_* (diff/profile_diff.c) ---- */

/* Where a function was seen. */
enum ttd_prof_only { TTD_PROF_BOTH = 0, TTD_PROF_ONLY_GOOD, TTD_PROF_ONLY_BAD };

/* One function in both runs (ttd_prof rows over all threads, by name).
 * Deltas are bad minus good; percentages are 100 * delta / good, NaN when
 * the good value is 0. */
typedef struct ttd_profile_delta {
    const char *name;           /* function name */
    int only;                   /* TTD_PROF_* */
    ttd_prof_row good, bad;  /* the two rows; zeros where absent */
    int64_t calls, total_ns, self_ns, avg_ns;   /* bad - good */
    double calls_pct, total_pct, self_pct, avg_pct; /* percent of good */
} ttd_profile_delta;

typedef struct ttd_profile_result {
    const char *path[2];        /* TTD_GOOD, TTD_BAD trace names */
    ttd_prof_info info[2];   /* each run's totals */
    const ttd_profile_delta *rows; /* largest change first */
    size_t nrows;
    int sort;                   /* TTD_PROF_TOTAL, _SELF, _CALLS or _AVG */
    size_t changed;             /* rows with other call counts or in one run */
} ttd_profile_result;

typedef struct ttd_profile ttd_profile;

/* Profile both traces (all threads merged) and pair their functions by
 * name, ordered by the largest absolute change of the sort column
 * (TTD_PROF_TOTAL, TTD_PROF_SELF, TTD_PROF_CALLS or TTD_PROF_AVG; 0 means
 * total), ties by name. Of o (NULL = defaults) thread (the threads
 * profiled, as ttd_thread_match selects them), function and exclude (the
 * functions compared) and no_demangle apply. Both traces must outlive the
 * result. Errors: TT_EINVAL (bad column or regex), TT_ENOMEM, reader
 * errors; err (may be NULL). */
int ttd_profile_diff(const ttf_trace *good, const ttf_trace *bad,
                     const ttd_options *o, int sort, ttd_profile **out,
                     ttf_error *err);
/* The same over two files, opened (and closed by ttd_profile_free) here. */
int ttd_profile_diff_files(const char *good, const char *bad,
                           const ttd_options *o, int sort, ttd_profile **out,
                           ttf_error *err);
/* Valid until ttd_profile_free. */
const ttd_profile_result *ttd_profile_get_result(const ttd_profile *p);
void ttd_profile_free(ttd_profile *p);      /* NULL is fine */

#ifdef __cplusplus
}
#endif

#endif
