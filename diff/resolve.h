/*
 * resolve.h - stage 2 of diff/STAGES: from the script of state.h (const)
 * to results of its own. Every entry takes a ttdi_in (the runs, the
 * script, the options, the arena) and fills a result the engine merges:
 * the passes over one thread (on prepare.h's walker) that record ranges of
 * its events (walk.c), the runs' information, notices, crash and outcome
 * (setup.c), the hunks resolved
 * (hunks.c: ttdi_resolved) and ordered (order.c: a ttdi_resolved of its
 * own), a batch of hunks detailed (detail.c) with their deciding lines
 * (lines.c) and suspects (suspects.c, evidence.c), the thread order
 * around a divergence (interleave.c) and the noise hints (noise.c). The
 * races' declarations (races.c, an explain-level file) sit here too.
 * Internal to libttdiff (ttdi_, hidden).
 */
#ifndef TTDI_RESOLVE_H
#define TTDI_RESOLVE_H

#include "state.h"

/* ---- a pass's snapshot (walk.c; the walk itself: prepare.h, walker.c) --- */

/* The event a pass stood on at its stack snapshot (the hunk's first
 * event in that run), as the deciding line needs it. */
typedef struct ttdi_split_ev {
    int kind;               /* TTF_EV_*; 0: the thread had ended */
    uint64_t addr;          /* ENTER/EXIT: the function (0 for scopes) */
    uint64_t call_site;     /* ENTER: its call site, 0 = not recorded */
    uint64_t time_ns;       /* when */
} ttdi_split_ev;

/* ---- passes over one thread (walk.c) -------------------------------------- */

/* Record kept events [lo, hi) into out[0..hi-lo). */
typedef struct ttdi_req {
    uint64_t lo, hi;        /* key index range */
    ttd_event *out;         /* hi - lo slots */
} ttdi_req;

/* One common event before a split, as the suspects need it. */
typedef struct ttdi_sus_ev {
    uint64_t idx;           /* key index */
    uint64_t addr;          /* function address (EXIT) */
    uint32_t site;          /* scope's call site (EXIT of a scope) */
    uint64_t time_ns;       /* when (picks the module) */
    int kind;               /* TTF_EV_* */
    size_t nstack;          /* frames open before it */
    const char *name;       /* function (EXIT) */
    int leaf;               /* EXIT right after its own ENTER: no callees */
    int has_values;         /* EXIT: retval recorded */
    uint64_t retval;        /* EXIT: its return value */
} ttdi_sus_ev;

/* What one pass over a thread collects. */
typedef struct ttdi_pass_spec {
    ttdi_req *rq;           /* ranges to record (sorted here) */
    size_t nrq;             /* range count */
    uint64_t stack_at;      /* snapshot the stack before this key index */
    ttdi_frame_id *stack;   /* out: malloc'd copy, outermost first */
    size_t nstack;          /* frames in it */
    ttdi_split_ev at;       /* out: the event at stack_at */
    ttdi_sus_ev *ring;      /* last events before stack_at, NULL = not kept */
    size_t ringcap;         /* its size */
    uint64_t nring;         /* events put in it */
    size_t first;           /* walk state: ranges rq[0..first) are passed */
} ttdi_pass_spec;

/* ---- walks and passes (walk.c) ------------------------------------------- */

/* Turn the walk's current event into a report event (strings in the
 * arena). 0 or TT_ENOMEM. */
int ttdi_walk_fill(const ttdi_in *in, ttdi_walk *w, ttd_event *out);
/* Call sites shown only where they tell calls apart: keep ttd_event.from on
 * a differing enter (good[], bad[]) whose function the other side also
 * enters there, and on a hunk's first good and bad event when both enter
 * one function; clear it elsewhere (common events, the crash). */
void ttdi_sites_trim(ttd_event *good, size_t ngood, ttd_event *bad, size_t nbad,
                     ttd_event *before, size_t nbefore, ttd_event *crash);
void ttdi_sites_trim_pair(ttd_event *good, ttd_event *bad);
/* One pass over thread `thread` of run ri collecting what ps asks for
 * (ps->rq is sorted here); on a values trace, values stepped over up to
 * TTDI_PIN_BACK kept events before its low (ttdi_walk_values_from). 0 or
 * a TT_E* code. */
int ttdi_run_pass(const ttdi_in *in, int ri, uint32_t thread, ttdi_pass_spec *ps);
/* Tests only: 1 = ttdi_run_pass reads values from its start (as before
 * session 28). */
extern int ttdi_pass_values_all;
/* The same pass on an open walk w, which must not have read past
 * ttdi_pass_low(ps); w stays open, positioned after the last event read.
 * 1 if the thread ended, 0 if not, or a TT_E* code. */
int ttdi_pass_walk(const ttdi_in *in, ttdi_walk *w, ttdi_pass_spec *ps);
/* Lowest key index a pass for ps must read (its suspects ring included). */
uint64_t ttdi_pass_low(const ttdi_pass_spec *ps);
/* A pass driven by the caller's own walk (several passes and other work
 * on one walk): ttdi_pass_begin sorts ps->rq and returns the key index
 * the pass is done at (it needs the kept events below it); ttdi_pass_take
 * gives it the walk's current kept event (0 or TT_ENOMEM); ttdi_pass_end
 * closes it when the thread ends first (0 or TT_ENOMEM). */
uint64_t ttdi_pass_begin(ttdi_pass_spec *ps);
int ttdi_pass_take(const ttdi_in *in, ttdi_walk *w, ttdi_pass_spec *ps);
int ttdi_pass_end(ttdi_walk *w, ttdi_pass_spec *ps);

/* ---- setup.c ------------------------------------------------------------- */

/* Reader and symbol notices of run ri into out (after out->cut is set).
 * 0 or TT_ENOMEM. */
int ttdi_notices(const ttdi_in *in, int ri, ttd_run_info *out);
/* Run ri's crash event into out->crash, if it crashed. 0 or a TT_E* code. */
int ttdi_find_crash(const ttdi_in *in, int ri, ttd_run_info *out);

/* ---- a hunk's details (detail.c) ------------------------------------------ */

#define TTDI_DETAIL_BATCH 32        /* hunks detailed by one set of walks */

/* The details of hunks hunks[hi[0..n)] (n <= TTDI_DETAIL_BATCH) into
 * out[0..n) (memory in the arena): each thread of each run walked once
 * for all of them. 0 or a TT_E* code. */
int ttdi_detail_batch(const ttdi_in *in, const ttd_hunk_info *hunks, const size_t *hi,
                      size_t n, ttd_divergence **out);
/* The same in two steps, so that a pass between them can walk the other
 * threads first and leave marks their last events are read from
 * (interleave.c): ttdi_detail_own all but what the other threads did up
 * to the split (dv->others empty), then ttdi_detail_others that into
 * dv[0..n) (the same hunks): together what ttdi_detail_batch gives. */
int ttdi_detail_own(const ttdi_in *in, const ttd_hunk_info *hunks, const size_t *hi,
                    size_t n, ttd_divergence **out);
int ttdi_detail_others(const ttdi_in *in, const ttd_hunk_info *hunks, const size_t *hi,
                       size_t n, ttd_divergence *const *dv);

/* How the runs ended (runs' info, after the order stage: hunks_total
 * divergences, nunpaired threads unpaired) into *o. */
void ttdi_outcome(const ttd_run_info runs[2], uint64_t hunks_total, size_t nunpaired,
                  const ttd_options *opt, ttd_outcome *o);

/* ---- noise hints (noise.c) ----------------------------------------------- */

/* Traces beside good (same folder, same name but for its numbers: ttrec's
 * pass-1.trc, pass-2.trc...), not good or bad themselves, sorted, at most
 * 8; strings and the array in arena a. 0 or TT_ENOMEM. */
int ttdi_siblings(struct ttfi_arena *a, const char *good, const char *bad,
                  const char ***out, size_t *nout);

/* Mark dv (noise, noise_calls) when its differing calls wait or poll:
 * every differing call has a waiting name (sleep, poll, wait, yield...),
 * repeats a call of the common events just before, or returns at once
 * beside a waiting call of its side (a loop's condition), and one at least
 * waits. 0 or TT_ENOMEM. */
int ttdi_noise_of(struct ttfi_arena *a, ttd_divergence *dv);

/* ---- lines.c --------------------------------------------------------------- */

/* dv's frames with the inlined ones (dv->frames; = its traced stack when
 * the calls carry no call sites) and its deciding line (dv->lines, NULL
 * if unknown), from the passes ps[TTD_GOOD], ps[TTD_BAD] over its pair
 * (their snapshots at the split) and its hunk h. Needs dv->stack. 0 or TT_ENOMEM. */
int ttdi_lines(const ttdi_in *in, const ttd_hunk_info *h, const ttdi_pass_spec ps[2],
               ttd_divergence *dv);

/* ---- thread order around a divergence (interleave.c) --------------------- */

/* One run as the interleaving sees it. */
typedef struct ttdi_ilv_run {
    ttdi_run_state *r;      /* the run (trace, normaliser, threads): each
                               thread is read by a run walk, the call stack
                               by the walker's rule; a thread no run walk
                               has marked yet by one that leaves marks for
                               the details' walks of the other threads
                               (walker.c) */
    const int64_t *pair_of; /* thread index -> index in ttd_result.pairs, -1 */
    const int64_t *who_of;  /* thread index -> who it is in an object's order:
                               its pair, or for a worker of a pool (not the
                               split's thread) the pool's first pair, since
                               which of look-alike workers went first is no
                               difference; NULL: pair_of */
    uint64_t split_ns;      /* walk up to this time (the split in this run) */
    int two;                /* in[0]'s: each run's walks of its threads to
                               the split (from the marks the run walks left)
                               by a thread of its own first (ttdi_both) */
} ttdi_ilv_run;

/* The interleaving of both runs (in[0] good, in[1] bad) before their
 * splits; *out NULL when neither run has SYNC_OP records. Memory in a.
 * 0, TT_ENOMEM or a reader error. */
int ttdi_interleave_build(struct ttfi_arena *a, const ttdi_ilv_run in[2],
                          ttd_interleave **out);
/* Tests only: 1 walks every run merged, never by thread (the two must give
 * the same result: tests/unit/test_races.c). */
extern int ttdi_ilv_merged;
/* Tests: 1 = every thread walked by the thread order itself, none taken
 * from what the run walks kept (ttdi_walk_tap). */
extern int ttdi_ilv_notap;
/* Tests: the runs whose walks to the split ran in a thread of their own. */
extern uint64_t ttdi_ilv_jobs_apart;
/* ---- races: happens-before at function granularity (races.c) ------------ */

#define TTDI_HB_THREADS 256         /* runs with more threads are not walked */

/* One run's happens-before walk (vector clocks per thread, lock, condition),
 * fed each thread's events by a stack walk (the run walks' call-stack
 * rule, walker.c), sync operations in time order; instances nearest focus
 * are kept. */
struct ttdi_hb;
/* A walk over nt threads. 0 or TT_ENOMEM (*out NULL). */
int ttdi_hb_open(size_t nt, uint64_t focus, struct ttdi_hb **out);
/* Close the windows still open (the stop). */
void ttdi_hb_finish(struct ttdi_hb *h);
/* Feed trace t's events up to until_ns, then finish. 0 or a reader error. */
int ttdi_hb_walk(struct ttdi_hb *h, const ttf_trace *t, uint64_t until_ns);
void ttdi_hb_free(struct ttdi_hb *h);

/* Which candidate check's value decided an act (decides.c): the classes of
 * value (zero, positive, negative) each check returned before each act,
 * or before no act (TTDI_DEC_NONE). */
#define TTDI_DEC_NONE UINT64_MAX
struct ttdi_dec;
/* An empty table. 0 or TT_ENOMEM (*out NULL). */
int ttdi_dec_open(struct ttdi_dec **out);
void ttdi_dec_free(struct ttdi_dec *d);
/* check, called by caller, returned ret; then act (its function id, 0 the
 * caller's own lock) or TTDI_DEC_NONE followed. A full table forgets. */
void ttdi_dec_note(struct ttdi_dec *d, uint64_t caller, uint64_t check, uint64_t act,
                   uint64_t ret);
/* 1: the classes check returned before act and before anything else are
 * both seen and never meet (read at size bytes, signed or not: the
 * declared return type); 0: they meet; -1: one side was never seen. The
 * classes in cls[0] (before act) and cls[1] (else): bit 0 zero, bit 1
 * positive, bit 2 negative. */
int ttdi_dec_decides(const struct ttdi_dec *d, uint64_t caller, uint64_t check, uint64_t act,
                     unsigned size, int is_signed, unsigned cls[2]);
/* Classes cls in words ("zero", "positive", "non-zero", ...). */
const char *ttdi_dec_class_text(unsigned cls);

/* One run for the races. */
typedef struct ttdi_race_run {
    const ttf_trace *t;     /* the trace */
    ttdi_norm *norm;        /* its normaliser (names) */
    const int64_t *pair_of; /* thread -> index in ttd_result.pairs, NULL */
    uint64_t focus_ns;      /* the split or the failure (end) */
    uint64_t until_ns;      /* walk up to (UINT64_MAX: the end) */
    int64_t focus_thread;   /* the symptom's thread (the split's, or the
                               main thread for a failure), -1 none; races
                               whose acts happened before focus_ns in its
                               order reach the symptom (ttd_race) */
} ttdi_race_run;

/* The runs: the bad one, and good ones to compare with (may be none). */
typedef struct ttdi_races_in {
    ttdi_race_run bad;
    const ttdi_race_run *good;
    size_t ngood;
    int alone;              /* 1: one run on its own ("in this run") */
} ttdi_races_in;

/* The races of the bad run, best first (at most 8), in *out (memory in a;
 * NULL, 0 when none or the run has fewer than 2 or more than
 * TTDI_HB_THREADS threads). Good runs are walked only when the bad run has
 * candidates. 0, TT_ENOMEM or a reader error. */
int ttdi_races_build(struct ttfi_arena *a, const ttdi_races_in *in, ttd_race **out,
                     size_t *nout);
/* 0 when ttdi_races_build can find no race in run r up to until_ns, from
 * what its run walks kept (the thread order's first returns of each
 * function and lock set, ttdi_walk_tap: no walk): every race pairs calls
 * of one function returned in two threads, one at least lock-free (a
 * check of a check-then-act returned holding no lock in both; of an
 * unprotected call's two, one took no lock), so with no function (by
 * name) returned lock-free in one thread and returned in another, there
 * is none. 1 when one may be found, or the run walks did not read every
 * thread past until_ns with the lock sets exact, or a call of a function
 * the filter drops returned (not among the first returns): walk. */
int ttdi_races_possible(const ttdi_run_state *r, uint64_t until_ns);
/* The last thread end (or start) of trace t: where a failure shows. */
uint64_t ttdi_trace_end(const ttf_trace *t);

/* ---- hunks.c ------------------------------------------------------------- */

/* Index whose time stands for a split at key index i of a thread with n
 * keys: the event at i, else the last one; UINT64_MAX if it has none. */
uint64_t ttdi_probe_index(uint64_t i, uint64_t n);
/* Append the range [lo, hi) -> out to rq[*n] (nothing if empty). */
int ttdi_add_req(ttdi_req *rq, size_t *n, uint64_t lo, uint64_t hi,
                 ttd_event *out);
/* The resolve stage's result (hunks.c), and the order stage's (order.c:
 * the same with the hunks put in another order, or made timing-shaped):
 * the fields of ttd_result they fill, merged into it by the engine. */
/* Where a resolved hunk's split lies in time: the event before it in each
 * run (hunks.c reads it on the walk to the split; order.c needs it). */
typedef struct ttdi_prev {
    size_t pair;                /* the hunk's pair */
    uint64_t index[2];          /* its good_index, bad_index */
    uint64_t ns[2];             /* the key event before each: its time; the
                                   thread's start when there is none */
} ttdi_prev;

typedef struct ttdi_resolved {
    const ttd_pair *pairs;      /* one per script pair */
    size_t npairs;
    const ttd_hunk_info *hunks; /* divergences, timing-shaped, expected */
    size_t nhunks;
    size_t nexpected, ntiming;  /* of hunks */
    uint64_t hunks_total;       /* divergences of all pairs */
    uint64_t expected_total;    /* expected hunks of all pairs */
    uint64_t timing_total;      /* timing-shaped hunks of all pairs */
    const ttd_pool *pools;      /* pools of look-alike threads */
    size_t npools;
    const ttdi_prev *prev;      /* one per resolved hunk, in pair order */
    size_t nprev;
    const ttd_hunk_info *followed; /* order.c: the divergence put second */
    uint64_t values_progress;   /* order.c: value differences that follow
                                   the progress */
} ttdi_resolved;

/* Resolve the hunks of every pair of the script into *out (memory in the
 * arena). 0 or a TT_E* code. */
int ttdi_resolve(const ttdi_in *in, ttdi_resolved *out);

/* ---- order.c ------------------------------------------------------------- */

/* After ttdi_resolve: the first divergence by the clock's bounds (a
 * lazy-clock estimate is no order: of it and another pair's first
 * divergence whose bounds overlap it, the symptom's thread goes first,
 * and the first says the clock could not tell: clock_order); then, when
 * the first divergence follows the threads' progress (a lock whose
 * earlier holders differ) and another thread's first divergence is its
 * own and not reached from it, put that one first and mark the other
 * (ttd_hunk_info.order_dep, ttd_result.followed). 0 or a TT_E* code. */
int ttdi_order_settle(const ttdi_in *in, const ttdi_resolved *r, ttdi_resolved *out);
/* After the runs' info (exit status, crash): when the runs ended alike and
 * every pair that diverged first went another way following the
 * progress, all those hunks are timing-shaped (TTD_TIMING_PROGRESS).
 * 0 or a TT_E* code. */
int ttdi_order_progress(const ttdi_in *in, const ttdi_resolved *r, const ttd_run_info runs[2],
                        size_t nunpaired, ttdi_resolved *out);
/* Sort resolved hunks hs[0..n): divergences, timing-shaped, expected;
 * each by the bad run's time. */
void ttdi_hunks_sort(ttd_hunk_info *hs, size_t n);

/* ---- suspects.c ---------------------------------------------------------- */

/* Rank the suspects of the split in dv from the ring of pass b. 0 or
 * TT_ENOMEM. */
int ttdi_suspects(const ttdi_in *in, const ttdi_ipair *p, const ttdi_pass_spec *b,
                  ttd_divergence *dv);

/* ---- evidence (evidence.c) ----------------------------------------------- */

#define TTDI_EVID_MAX 12            /* evidence kept per suspect */

/* Weights of the evidence kinds (evidence.c says why). */
#define TTDI_W_FRAME 3.0
#define TTDI_W_VALUE 4.0
#define TTDI_W_ERROR 4.0
#define TTDI_W_ARGS 1.0
#define TTDI_W_ARG_ORIGIN 4.0
#define TTDI_W_WRITTEN 4.0          /* wrote what a later reader read */
#define TTDI_W_CODE 6.0
#define TTDI_W_SOURCE 2.0           /* added when its source changed too */
#define TTDI_W_CODE_CARRIED 2.0     /* code changed, source did not */
#define TTDI_W_NOISE (-2.0)
#define TTDI_W_THREAD 2.0
#define TTDI_W_THREAD_TIMED (-2.0)  /* another thread's step, by time only */
#define TTDI_W_CHAIN 2.0
#define TTDI_W_CHAIN_ORIGIN 2.0     /* added for the chain's earliest step */
#define TTDI_W_TRIVIAL (-1.5)
#define TTDI_W_INLINED_SHARE 0.5    /* of the host's score (explain.c) */
#define TTDI_W_ANSWER 3.5           /* plain mode: its answer, the split's branch
                                       right after (suspects.c) */


/* Add a piece of evidence (text by fmt) to x, its weight to x->score;
 * each kind once (a second is ignored), at most TTDI_EVID_MAX. Memory in
 * a. 0 or TT_ENOMEM. */
int ttdi_evid_add(struct ttfi_arena *a, ttd_suspect *x, int kind, double weight,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Take x's evidence of that kind back (its weight off the score; x gets
 * an evidence array of its own in a). 0 or TT_ENOMEM. */
int ttdi_evid_drop(struct ttfi_arena *a, ttd_suspect *x, int kind);
/* 1 if x has evidence of that kind. */
int ttdi_evid_has(const ttd_suspect *x, int kind);
/* Rank s[0..n) by score, highest first (ties: nearer the split, then the
 * order given); each suspect's evidence strongest first (sorted in an
 * array of its own, in a). 0 or TT_ENOMEM. */
int ttdi_suspects_rank(struct ttfi_arena *a, ttd_suspect *s, size_t n);


#endif
