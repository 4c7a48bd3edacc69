/*
 * state.h - the script and what the stages above prepare take: the align
 * stage's context (ttdi_aligner: the runs, options, baselines) and the
 * script it writes for every thread pair (ttdi_ipair: its hunks, which of
 * them good runs share, loop counts, differing values; ttdi_script), the
 * drivers that fill a pair's script (pair_align.c), and the input of every
 * stage above align (ttdi_in: the runs, the script as const, the options).
 * The engine's own state (struct ttd_diff) is engine.c's alone.
 * Internal to libttdiff (ttdi_, hidden).
 */
#ifndef TTDI_STATE_H
#define TTDI_STATE_H

#include "align.h"

struct ttdi_codediff;       /* codediff.h */

/* ---- a pair's script (pair_align.c, pools.c, timing.c) -------------------- */

/* One work item of a pool thread: a call (or leaf) under its worker loop. */
typedef struct ttdi_item {
    uint64_t hash;          /* subtree hash (tree.h) */
    uint64_t raw0, raw1;    /* its key index range */
    uint32_t grp;           /* pools.c: its hash group in the pool */
    uint8_t state;          /* pools.c: 1 differing (only one run did it) */
    uint32_t parent;        /* a sub-item: the item it is a child of */
    uint64_t key;           /* its call's ENTER key (a leaf's key) */
} ttdi_item;

/* One level on a pool thread's way down to its worker loop: a call and
 * its children (pools.c). */
typedef struct ttdi_level {
    uint64_t key;           /* the call's ENTER key (level 0, the top: 0) */
    uint64_t lr[2];         /* key index range of its children */
    ttdi_item *items;       /* its children, when the pair's trees differ
                               (at the deepest level, those the pair's
                               hunks touch) */
    size_t n;               /* how many kept */
    size_t total;           /* its children, kept or not */
    uint8_t kept;           /* 1: items kept (the pair's trees differ) */
    uint8_t over;           /* 1: more than POOL_ITEMS_MAX touched: none
                               kept, the pool is not compared as one */
    ttdi_item *subs;        /* the deepest level: its items' children (the
                               second look at items that differ), by item */
    size_t nsubs;
    ttdi_item *vitems;      /* values compared: all its children, to match
                               items by their calls and values (pools.c);
                               state 1: matched with an item of the other
                               run */
    size_t nv;
    uint8_t vover;          /* 1: more children than pools.c keeps for
                               that: none kept */
} ttdi_level;

/* A pool of look-alike threads (pools.c). */
typedef struct ttdi_pool {
    char id[16];            /* "pool#1" */
    const char *start;      /* start function */
    size_t level;           /* the worker loop's level, common to all */
    uint64_t items[2];      /* items of each run */
    uint64_t differing;     /* items only one run did */
    int over;               /* 1: not compared (too many items differ) */
} ttdi_pool;

/* A spin on a clock's evidence (timing.c, TTD_TIMING_SPIN). */
typedef struct ttdi_spin {
    uint64_t iters;         /* extra iterations */
    uint64_t keys;          /* events of one iteration */
    const char *clock;      /* the call whose result read as the clock */
    uint64_t value;         /* its reading in the first iteration */
    uint64_t unit_ns;       /* the reading's unit */
} ttdi_spin;

/* One aligned thread pair. */
typedef struct ttdi_ipair {
    uint32_t t[2];          /* thread index in the good and the bad run */
    uint64_t n[2];          /* normalised events of each */
    uint64_t crash;         /* bad side: key index of a CRASH, UINT64_MAX */
    ttdi_hunk *h;           /* its hunks (from ttdi_align) */
    size_t nh;              /* hunk count */
    uint8_t *exp;           /* per hunk: 1 if also varies between good runs
                               (NULL: no baselines) */
    uint64_t *reps;         /* per hunk: loop counts good, bad (NULL: no
                               --collapse-loops) */
    ttdi_vfound vf;         /* what comparing its call values found */
    int pool;               /* index in d->pools, -1: not in a pool */
    ttdi_level *lv[2];      /* pool pair: each side's way down to its
                               worker loop (pools.c), level 0 the top */
    size_t nlv[2];
    uint8_t *tim;           /* per hunk: TTD_TIMING_* (timing.c), NULL
                               until judged */
    uint64_t *waitns;       /* per hunk: a wait loop's recorded waits,
                               2 per hunk: their count and the time they
                               blocked in all, both sides (timing.c) */
    ttdi_spin *spin;        /* per hunk: a spin on a clock's evidence
                               (timing.c), NULL: none */
    ttdi_rprefix *rpre;     /* the replay over its common prefix (values,
                               tree mode, the threads' lengths differ),
                               NULL: none */
    uint64_t *twins;        /* pool pair: bad key ranges [twins[2k],
                               twins[2k+1]) of work items whose values
                               differ from their partner's and which
                               another worker of the good run's pool did,
                               same calls and values (pools.c), ascending;
                               NULL: none */
    size_t ntwins;
    int same;               /* 1: both sides are the same keys (tree mode:
                               the trees' root hashes and lengths agree),
                               so anything counted from the keys is too */
} ttdi_ipair;

/* A baseline good run: compared with the good run only. */
typedef struct ttdi_base {
    ttdi_run_state r;       /* the run (owned trace, normaliser, threads) */
    int64_t *partner;       /* good run thread i -> its thread here, -1 */
    const char *path;       /* its file (the caller's string) */
} ttdi_base;

/* A pool's extra worker (grew.c): a thread of one run without a partner
 * whose pool did the same work in the other run with one thread less; its
 * creator's hunks that started it are TTD_TIMING_GREW. */
typedef struct ttdi_grown {
    int run;                /* TTD_GOOD or TTD_BAD: the run that had it */
    uint32_t thread;        /* its index there */
    size_t creator;         /* the pair of the thread that created it */
    uint64_t items;         /* the pool's work items in the other run */
    uint64_t extra;         /* lock or wait calls only its run made */
    size_t workers[2];      /* the pool's threads, good and bad run */
} ttdi_grown;

#define TTDI_GROWN_MAX 8

/* ---- the script: what the align stage hands the stages above it ----------- */

/* Written by the align stage (pair_align.c, pools.c, timing.c); from then
 * on read-only: every stage above takes it as const. */
typedef struct ttdi_script {
    ttdi_ipair *ip;         /* aligned pairs */
    size_t nip;             /* pair count */
    ttdi_pool *pools;       /* pools of look-alike threads (pools.c) */
    size_t npools;
    ttdi_openset noise;     /* value slots that vary between good runs */
    ttdi_grown grown[TTDI_GROWN_MAX]; /* pools' extra workers (grew.c) */
    size_t ngrown;
} ttdi_script;

/* What a stage above align takes: the runs, the script, the options; it
 * returns its own result (memory in arena). */
typedef struct ttdi_in {
    ttdi_run_state *r;      /* the runs, TTD_GOOD and TTD_BAD (not const:
                               their normalisers cache names and symbols) */
    const ttdi_script *s;   /* the script, read-only */
    const ttd_options *o;   /* the options */
    int values;             /* 1: call values are compared */
    struct ttdi_codediff *cd; /* two builds: whose code changed (prepare) */
    struct ttfi_arena *arena; /* result memory */
} ttdi_in;

/* What the align stage works with: the runs, the options, the baseline
 * good runs open while it aligns, and the script it writes. */
typedef struct ttdi_aligner {
    ttdi_run_state *r;      /* the runs, TTD_GOOD and TTD_BAD */
    const ttd_options *o;   /* the options */
    int values;             /* 1: compare call values */
    ttdi_base *base;        /* baseline good runs (open while aligning) */
    size_t nbase;           /* baselines open */
    ttdi_openset calls;     /* contexts of the calls that vary between good
                               runs in the pair being aligned (fnoise.c) */
    ttdi_script *s;         /* the script being written */
    const struct ttdi_codediff *cd; /* two builds: whose code changed (the
                               engine's, prepare stage), NULL */
    int parted;             /* 1: a pair aligned so far has hunks: the
                               next pairs' threads are read by run walks
                               (pair_align.c src_runs) */
    struct ttdi_tsnaps *snaps; /* the timing scan's prefix state at the
                               marks of the run walks of pairs that looked
                               different (timing.c, ttdi_tpre_*), NULL */
} ttdi_aligner;


/* What full mode reuses from pair to pair. */
typedef struct ttdi_full {
    ttdi_seq seq[2];        /* the good thread; the other run's thread */
    ttdi_zones z;           /* where the good runs vary */
} ttdi_full;

/* ---- a pair's script from the aligners (pair_align.c) --------------------- */

/* Normalise and align pair p in step (keys only past the common prefix,
 * in kb). 0 or a TT_E* code. */
int ttdi_align_pair(ttdi_aligner *al, ttdi_ipair *p, ttdi_keybuf kb[2]);
/* Full mode: p's threads stored whole (loops collapsed if asked), hunks
 * checked against the zones where good runs vary. 0 or a TT_E* code. */
int ttdi_align_full(ttdi_aligner *al, ttdi_ipair *p, ttdi_full *fu);
/* Tree mode (the default): p's threads as call trees in tr[0..2) (reused from
 * pair to pair), aligned call by call (tree.h); with --first-only read
 * only up to the end of the call holding the first difference. 0 or a
 * TT_E* code. */
struct ttdi_tree;
int ttdi_align_tree(ttdi_aligner *al, ttdi_ipair *p, struct ttdi_tree *tr);

/* ---- the script's pairs (pair_align.c) ----------------------------------- */

/* Fill a result's thread info for thread i of r. */
void ttdi_fill_thread_info(const ttdi_run_state *r, uint32_t i, uint64_t events,
                           ttd_thread_info *out);
/* The pairs to align into s->ip (paired threads of which either side is
 * selected by --thread: pattern, re; in the good run's creation order) and
 * the threads left unpaired into *unpaired, *nunpaired (memory in a).
 * 0 or TT_ENOMEM. */
int ttdi_make_pairs(const ttdi_run_state *r, const char *pattern, const ttd_regex *re,
                    struct ttfi_arena *a, ttdi_script *s, ttd_unpaired **unpaired,
                    size_t *nunpaired);

/* ---- pools of look-alike threads (pools.c) -------------------------------- */

/* Group the pairs (d->ip, after ttdi_make_pairs) into pools: pairs whose
 * threads share a start function and a name but for its digits, two or
 * more of them. Sets ipair.pool. 0 or TT_ENOMEM. */
int ttdi_pools_find(ttdi_aligner *al);
/* Tree mode, pool pair p with both trees in tr[0..2) and their hunks
 * x[0..nx): find each side's worker loop and count its items; when the
 * trees differ, keep those the hunks touch; with values (call values
 * compared), keep every level's items (ttdi_level.vitems). With two and
 * trees of ttdi_pool_jobs_min nodes or more together, each side by a
 * thread of its own (ttdi_both; the same result). 0 or TT_ENOMEM. */
int ttdi_pool_items(ttdi_ipair *p, const struct ttdi_tree *tr, const ttdi_xhunk *x,
                    size_t nx, int values, int two);
/* Sides ttdi_pool_items ran in a thread of their own (tests), and the
 * trees' nodes from which it starts one (65,536; tests 0). */
extern uint64_t ttdi_pool_jobs_apart;
extern size_t ttdi_pool_jobs_min;
/* Free what ttdi_pool_items kept in p. */
void ttdi_pool_free(ttdi_ipair *p);
/* After every pair is aligned: per pool, the multiset of the good run's
 * items against the bad run's; a hunk inside a worker loop stays only if
 * it touches an item one run did more often than the other; a call value
 * difference (ipair.vf) only if its item has no twin, same calls and
 * values, in the other run's pool. 0 or a TT_E* code. */
int ttdi_pools_settle(ttdi_aligner *al);
/* The multiset comparison itself (pools.c, also for the unit tests):
 * items g[0..ng) and b[0..nb), hashes set; groups them by hash (grp) and
 * writes each group's surplus, the items of that hash that one run did
 * more often, into *sur (malloc'd, 2 per group: good, bad; caller frees).
 * Returns the groups (>= 0) or TT_ENOMEM. */
long ttdi_items_surplus(ttdi_item *const *g, size_t ng, ttdi_item *const *b,
                        size_t nb, uint64_t **sur);

/* ---- timing-shaped hunks (timing.c) ---------------------------------------- */

/* Judge every pair's one-sided hunks: extra iterations of a loop that
 * waits (TTD_TIMING_WAIT), the same calls missing in one thread and
 * extra in another (TTD_TIMING_MOVED), or an attempt made again later
 * (TTD_TIMING_RETRY). Sets ipair.tim. 0 or a TT_E* code
 * (reader errors). */
int ttdi_timing_mark(ttdi_aligner *al);
/* The timing scan's prefix state, kept by the tree build's run walks of a
 * pair that already looks different (pair_align.c; ttdi_tinfo_differ):
 * each kept event with its key (ttdi_tpre_kept), and the state after the
 * kept event idx of run `run`'s thread th where the walk left a mark
 * (ttdi_tpre_save: its w->left is idx + 1). The timing scan of that thread
 * then starts at the last such mark before the pair's first hunk, with
 * that state, instead of at the thread's start; ttdi_tpre_drop frees the
 * snapshots (after ttdi_timing_mark). 0 or TT_ENOMEM. */
struct ttdi_tpre;
int ttdi_tpre_open(struct ttdi_tpre **out);
void ttdi_tpre_kept(struct ttdi_tpre *p, const ttf_event *ev, uint64_t key);
int ttdi_tpre_save(struct ttdi_tsnaps **snaps, int run, uint32_t th, uint64_t idx,
                   const struct ttdi_tpre *p);
void ttdi_tpre_close(struct ttdi_tpre *p);
/* The snapshots of *from (a run's tree build in a thread of its own,
 * ttdi_both) after those of *to, in that order; *from freed. 0 or
 * TT_ENOMEM (*from freed all the same). */
int ttdi_tpre_take(struct ttdi_tsnaps **to, struct ttdi_tsnaps **from);
void ttdi_tpre_drop(ttdi_aligner *al);
/* Tests: 1 scans every thread from its start (no snapshot used). */
extern int ttdi_timing_nosnap;
/* Tests: the kept events the scan took with its whole per-event work (from
 * the first candidate's start on; the prefix before it costs the open
 * calls, the prefix hash and the ring only), added up; and 1 = every kept
 * event that way (the prefix's path off). */
extern uint64_t ttdi_timing_full;
extern int ttdi_timing_noprefix;
/* Tests: the timing scans of a bad run's split thread that ran in a
 * thread of their own (ttdi_both, with the good run's at once). */
extern uint64_t ttdi_timing_jobs_apart;
/* The prefix hash of keys (timing.c, grew.c): P(i+1) = P(i) * TTDI_HB +
 * key(i), so a call [lo, hi) hashes to P(hi) - P(lo) * TTDI_HB^(hi - lo),
 * the same wherever it stands; ttdi_hb_pow(n) = TTDI_HB^n mod 2^64. */
#define TTDI_HB 0x9E3779B97F4A7C15ull
uint64_t ttdi_hb_pow(uint64_t n);

/* ---- a pool that grew (grew.c) --------------------------------------------- */

/* After timing: a thread one run has without partner, whose look-alike
 * threads did the same work in the other run (one worker less), and the
 * hunks of its creator that started it (TTD_TIMING_GREW); recorded in
 * s->grown. 0 or a TT_E* code. */
int ttdi_grew_mark(ttdi_aligner *al);
/* name with every run of digits replaced by one '#' into out[n] (pools.c:
 * look-alike threads' names). */
void ttdi_name_skeleton(const char *name, char *out, size_t n);

/* ---- calls one build's inlining made visible (inlined.c) -------------------- */

/* After timing: between two builds, one-sided hunks made of whole calls of
 * functions of an untraced library that the other build shares, inside a
 * function whose machine code alone changed (TTD_TIMING_INLINED). 0 or a
 * TT_E* code. */
int ttdi_inlined_mark(ttdi_aligner *al);
/* One event of a hunk's side as the rule sees it. */
typedef struct ttdi_inl_ev {
    int kind;               /* TTF_EV_* */
    int foreign;            /* an ENTER of a function of an untraced library
                               the two builds share */
} ttdi_inl_ev;
/* The rule on one side's n events: 1 when they are whole calls (ENTERs
 * and EXITs, balanced, never below the start), every ENTER foreign, and
 * around_changed (the call open at the start changed its machine code,
 * not its source); else 0. */
int ttdi_inlined_judge(const ttdi_inl_ev *ev, size_t n, int around_changed);

/* ---- counts are facts (counts.c) ------------------------------------------ */

/* The baselines' calls per function, read after the alignment while the
 * baselines are open; *out NULL (and nothing read) when no pair differs
 * and every thread has a partner. Names in a. 0 or a TT_E* code. */
typedef struct ttdi_counts ttdi_counts;
int ttdi_counts_tally(const ttdi_aligner *al, size_t nunpaired, struct ttfi_arena *a,
                      ttdi_counts **out);
/* Then (c NULL: nothing) the good and the bad run's calls per thread and
 * function, as late as the engine can (the count facts): what the run
 * walks counted of a thread they read whole (the timing scan's split
 * threads, the thread order's others: ttdi_walk_calls) or the tree
 * build's keyed walks of a thread they read whole from its start
 * (ttdi_walk_count_open), a bad thread
 * whose keys are its partner's copied from it, a calls-only pass over the
 * rest. 0 or a TT_E* code. */
int ttdi_counts_runs(ttdi_counts *c, const ttdi_aligner *al);
/* The calls whose count in the bad run (all threads) no good run had, by
 * name, in a; quiet[p] (NULL: none) marks script pairs whose every
 * difference is timing (their threads' counts are not facts). */
int ttdi_counts_judge(const ttdi_counts *c, const uint8_t *quiet, struct ttfi_arena *a,
                      const ttd_count **out, size_t *nout);
void ttdi_counts_free(ttdi_counts *c);
/* Does a function name say it waits (sleep, poll, wait, yield...)? */
int ttdi_waits_name(const char *name);

#endif
