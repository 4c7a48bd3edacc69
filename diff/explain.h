/*
 * explain.h - the explain stage of diff/ (issue 20): why the runs differ,
 * not just where. It runs after the hunks are resolved and the first
 * divergence detailed, reads the alignment's result (each pair's hunks as
 * key-index ranges) and replays events through the reader; it never sees
 * an aligner's internals. replay.c walks one thread pair along its
 * alignment and keeps the calls whose values differ as a tree; explain.c
 * follows values back from the split or the exit status (the cause
 * chain), weighs the suspects' evidence and picks the headline.
 */
#ifndef TTDI_EXPLAIN_H
#define TTDI_EXPLAIN_H

#include "resolve.h"

#define TTDI_MAXP 16                /* parameters compared per call */
#define TTDI_REPLAY_NODES 65536     /* calls kept per replay (the oldest
                                       closed ones are dropped beyond) */

/* One call of a replayed pair that matters to an explanation: its return
 * value or an argument differs between the runs, or it encloses such a
 * call, or it was open at the stop. Node 0 is the thread's top level. */
typedef struct ttdi_xcall {
    int32_t parent;             /* enclosing call's node, -1 for node 0 */
    int32_t first, last, next;  /* children in order; next sibling; -1 none */
    uint64_t key;               /* function key (its ENTER's, normalise.c) */
    uint64_t addr;              /* bad run: function address */
    uint64_t time_ns;           /* bad run: ENTER time */
    uint64_t enter[2];          /* key index of the ENTER in good, bad */
    uint64_t gtime_ns;          /* good run: ENTER time */
    uint64_t exit_idx;          /* bad key index of its EXIT; UINT64_MAX if it
                                   did not return in step before the stop */
    uint64_t gexit_idx;         /* good key index of its EXIT (returned) */
    uint64_t exit_ns;           /* bad run: EXIT time */
    uint64_t gexit_ns;          /* good run: EXIT time */
    const ttf_signature *sig;   /* bad run's signature, NULL if unknown */
    uint64_t args[2][TTF_VALUE_SLOTS]; /* argument registers, good and bad */
    const uint8_t *strs[2];     /* their strings' first bytes (format 1.6: the
                                   ENTERs' ttf_event strs), NULL: none */
    uint32_t strs_len[2];
    uint64_t ret[2];            /* return registers (returned) */
    uint64_t retx[2];           /* xmm0's low 8 bytes: a small struct
                                   result's SSE eightbyte (ttdi_ret_struct) */
    uint8_t values;             /* 1: both runs recorded values */
    uint8_t returned;           /* 1: its EXIT was matched: ret is valid */
    uint8_t retdiff;            /* 1: the return value differs */
    uint8_t retnoise;           /* TTDI_NOISE_* when that difference is noise */
    uint16_t argdiff;           /* bit i: parameter i differs (not noise) */
    uint16_t argnoisy;          /* bit i: parameter i differs, as noise */
    uint8_t argwhy;             /* TTDI_NOISE_* of the first noisy one */
} ttdi_xcall;

/* Return-value statistics of one function within each run (clocks). */
typedef struct ttdi_rstat {
    uint64_t key;               /* function key, 0 = free slot */
    uint64_t last[2];           /* last value seen per run */
    uint32_t n[2];              /* values seen */
    uint32_t rises[2];          /* times it grew */
    uint8_t falls[2];           /* 1: it once went down */
    uint8_t errs[2];            /* 1: it returned a failure-looking value
                                   (ttdi_value_error) in that run */
    uint32_t zero[2];           /* values that were 0 */
    uint32_t neg[2];            /* values negative as the declared signed
                                   type (0 for unsigned types) */
} ttdi_rstat;

/* The last callee of a frame whose result differed only as noise (a value
 * no input decides: a clock, an address, one that varies between good
 * runs): why = TTDI_NOISE_*, 0 when none. */
typedef struct ttdi_xnoisy {
    uint64_t addr, time_ns;     /* bad run: its function, ENTER time */
    uint64_t exit_idx;          /* bad key index of its EXIT */
    uint64_t exit_ns, gexit_ns; /* EXIT time, bad and good run */
    uint64_t ret[2];            /* return registers, good and bad */
    const ttf_signature *sig;   /* bad run's signature */
    uint8_t why;
    uint8_t used;               /* arguments of later callees of the frame
                                   that took that value (the calls after it
                                   depend on it), 0: none */
} ttdi_xnoisy;

/* One recorded I/O wait (a SLEEP sync op): when it began, the time asked
 * and the time it blocked (until the thread's next record, at the latest
 * that record can have been), in ns; blocked UINT64_MAX: no record after
 * it was read. */
typedef struct ttdi_wait {
    uint64_t t, asked, blocked;
} ttdi_wait;

/* The I/O waits of one side, kept as the replay's walk reads its records
 * (at most TTDI_WAITS, the first ones; replay.c), for timeouts.c. */
#define TTDI_WAITS 4096
typedef struct ttdi_waits {
    ttdi_wait *w;               /* TTDI_WAITS slots once a wait is seen */
    size_t n;
    size_t open;                /* 1 + the wait whose end is the next
                                   record, 0: none */
} ttdi_waits;

/* A replay of one thread pair. Set the inputs, run, read the outputs. */
typedef struct ttdi_replay {
    /* in */
    ttdi_norm *norm[2];          /* the runs' normalisers (good, bad) */
    uint32_t thread[2];         /* the pair's threads */
    const ttdi_hunk *h;          /* its hunks (raw key indexes, ascending) */
    size_t nh;
    uint64_t stop;              /* stop before this bad key index */
    uint64_t stop_ns;           /* or before the first bad event after this
                                   time (UINT64_MAX: no limit) */
    const ttdi_openset *noise;   /* value slots varying between good runs */
    const uint8_t *tim;         /* per hunk: TTD_TIMING_* (NULL: none) */
    /* out */
    ttdi_xcall *c;              /* the calls kept; c[0] the top level */
    size_t n, cap;
    int32_t *path;              /* at the stop: the bad stack's nodes,
                                   outermost first */
    size_t npath;
    ttdi_xnoisy *pnoisy;        /* at the stop: per path frame, its last
                                   noisy callee (why 0: none) */
    uint64_t compared;          /* values compared */
    uint64_t ignored;           /* differing values taken as noise */
    uint64_t timeouts;          /* differing values that were only a timeout
                                   that never expired (timeouts.c) */
    char tmo_text[320];         /* the first one's evidence, "" if none */
    uint64_t swaps;             /* differing values of two calls that ran
                                   in the other order, the order set by a
                                   hunk hidden as timing (swaps.c) */
    char swap_text[400];        /* the first pair's evidence, "" if none */
    uint64_t dropped;           /* calls dropped to stay within the cap */
    int ended;                  /* 1: a thread ended before the stop */
    /* walk state (replay.c) */
    struct ttdi_rframe *st[2];  /* open calls per run */
    size_t nst[2], stcap[2];
    ttdi_rstat *rs;             /* return statistics, rsn of rscap */
    size_t rscap, rsn;
    ttdi_map rsmap;             /* function key | 1 -> its index in rs */
    ttdi_dmcache sc;            /* signatures by function key (ttdi_rsig
                                   slots, replay.c) */
    ttdi_waits waits[2];        /* each side's I/O waits up to where the
                                   walk stopped (timeouts.c reads them) */
} ttdi_replay;

/* Walk the pair along its alignment up to the stop, comparing the values
 * of every pair of matched calls (return value, each comparable
 * parameter) and keeping the differing ones (and their enclosing calls)
 * as nodes. 0 or a TT_E* code. */
int ttdi_replay_run(ttdi_replay *rp);
/* After the run: mark as TTDI_NOISE_TIMEOUT each differing value whose
 * every use the replay shows (returned up, passed down) ends as the
 * timeout of an I/O wait recorded inside the call it was passed to, a
 * wait that was woken before that timeout in both runs (timeouts.c).
 * 0 or a TT_E* code. */
int ttdi_replay_timeouts(ttdi_replay *rp);
/* After the run: mark as TTDI_NOISE_SWAP the differing arguments of two
 * calls of one function by one caller that are the same two calls in the
 * other order (each one's good values are the other's bad ones), when a
 * hunk hidden as timing (rp->tim) lies between them on one side or ends
 * right at the first (swaps.c). 0 or a TT_E* code. */
int ttdi_replay_swaps(ttdi_replay *rp);
void ttdi_replay_free(ttdi_replay *rp);

/* Noise of node x's return difference by the run's statistics (a value
 * that grows from call to call: clocks and counters), else as recorded. */
int ttdi_replay_retnoise(const ttdi_replay *rp, const ttdi_xcall *x);
/* 1 if x's function returned a failure-looking value (negative, NULL,
 * false, an error code: ttdi_value_error) in run (TTD_GOOD, TTD_BAD) in
 * a call compared before the stop: one the run's normal paths return
 * too, so not taken for an error there. */
int ttdi_replay_returned_error(const ttdi_replay *rp, const ttdi_xcall *x, int run);

/* Which run's return value of node x is a failure, learnt from the
 * function's other calls in the runs (their compared results up to the
 * stop): TTD_BAD when the bad run's value is one the good run's calls
 * never returned, in a class that marks failures: 0 (NULL, false) where
 * every good call returned non-zero, a negative value where none was, a
 * non-zero value where every good call returned 0 (a status); TTD_GOOD the
 * same the other way round; -1 when neither (or not an integer). *calls
 * (may be NULL): the other run's calls learnt from. */
int ttdi_replay_failure(const ttdi_replay *rp, const ttdi_xcall *x, uint32_t *calls);

/* What the explain stage reads besides the runs and the script: what the
 * stages below it found (read-only). */
typedef struct ttdi_explain_in {
    const ttd_run_info *runs;   /* both runs' info (TTD_GOOD, TTD_BAD) */
    const ttd_outcome *outcome; /* how they ended (ttdi_outcome) */
    const ttd_divergence *first; /* the first divergence detailed, NULL */
    const ttd_hunk_info *followed; /* the order stage's followed divergence */
    uint64_t values_progress;   /* value differences that follow the progress
                                   (order.c: not causes) */
    const char *values_note;    /* why values are not compared, NULL */
    size_t ncounts;             /* calls whose count no good run had
                                   (counts.c): the threads' calls align, the
                                   runs did not make the same calls */
} ttdi_explain_in;

/* The explain stage's result; the engine merges it into the result (and
 * the cause chain and suspects into the first divergence). */
typedef struct ttdi_explained {
    const ttd_cause *chain;     /* the cause chain, NULL if none */
    size_t nchain;
    const char *chain_end;      /* why it stops (with a chain) */
    int headline;               /* 1: value_first and value_others replace
                                   the engine's (values compared, not
                                   following the progress) */
    const ttd_value_diff *value_first; /* the headline value difference */
    const ttd_value_diff *value_others;
    size_t nvalue_others;
    uint64_t values_ignored;    /* differing values not taken as causes */
    uint64_t values_timeout;    /* of those, timeouts that never expired */
    const char *timeout_text;   /* the first one's evidence, NULL if none */
    uint64_t values_swapped;    /* of those, two calls' values in the other
                                   order after a timing hunk (swaps.c) */
    const char *swap_text;      /* the first pair's evidence, NULL if none */
    const ttd_suspect *suspects; /* the first divergence's suspects ranked
                                   again with the chain's evidence; NULL:
                                   left as detailed */
    size_t nsuspects;
} ttdi_explained;

/* The explain stage's entry point (explain.c): cause chain, suspects'
 * evidence and ranking, headline, into *out (memory in in->arena). Called
 * by the engine once the first divergence is detailed. 0 or a TT_E* code. */
int ttdi_explain(const ttdi_in *in, const ttdi_explain_in *x, ttdi_explained *out);

/* 1 when the runs' outcome alone tells them apart: they ended differently
 * (exit status, signal) while making the same calls, and no filter hides
 * calls (--thread, --function, --exclude). */
int ttdi_ended_differently(const ttd_outcome *o, const ttd_options *opt);

/* The verdict (verdict.c): what the runs did, the likely cause and its
 * evidence, how sure, the symptom; read from the merged result r (the
 * engine calls it last, once), written into arena memory. 0 or TT_ENOMEM
 * (*out then NULL, or a verdict missing a text). */
typedef struct ttdi_verdict_in {
    const ttd_count *counts;    /* calls whose count no good run had
                                   (counts.c), those a hunk starts with first */
    size_t ncounts;
    const struct ttdi_codediff *cd; /* code changed between the builds, NULL */
} ttdi_verdict_in;
int ttdi_verdict(struct ttfi_arena *a, const ttd_result *r, const ttdi_verdict_in *in,
                 const ttd_verdict **out);

/* The threads' order as the cause of the first divergence (ordercause.c):
 * the first object whose operations came in another thread order is a
 * lock or condition, swapped between the split's thread and a thread that
 * made the same calls in both runs up to the split, and the split
 * thread's last operation before it was on that object. */
typedef struct ttdi_order_cause {
    const ttd_xev *self;        /* the split thread's operation there */
    const ttd_xev *other;       /* the other thread's (its run's, at the
                                   position where the runs differ) */
    int other_first;            /* 1: in the bad run the other thread's came
                                   first (in between); 0: the split thread's
                                   (it went ahead) */
    const char *object;         /* "mutex#1" */
    int lost;                   /* 1: a lost wake-up (ttdi_lost_wakeup_find):
                                   self is the split thread's wait on the
                                   condition `object` in the bad run, other
                                   the signal sent before it, woke the
                                   wait's return */
    const ttd_xev *woke;
} ttdi_order_cause;
/* 1 and *out filled when the order is the cause, else 0. */
int ttdi_order_cause_find(const ttd_result *r, ttdi_order_cause *out);
/* 1 if value v (the first divergence: a value a call returned in the
 * split's thread) was returned while that thread held the object o names
 * in both runs: a getter read under the lock what the order left there. */
int ttdi_order_cause_getter(const ttd_result *r, const ttdi_order_cause *o,
                            const ttd_value_diff *v);
/* A lost wake-up: in the bad run another thread signalled a condition
 * before the split's thread waited on it, and nothing signalled it during
 * that wait (it returned by a timeout); in the good run the wait came
 * first and that thread's signal ended it. 1 and *out filled (lost 1),
 * else 0. v: the first divergence's value when it is the verdict's first
 * suspect (NULL: the split itself is): it must have been returned after
 * the wait did (the wait's answer, passed up). */
int ttdi_lost_wakeup_find(const ttd_result *r, const ttd_value_diff *v,
                          ttdi_order_cause *out);

#endif
