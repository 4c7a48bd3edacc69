/*
 * explain.h - the explain stage of diff/ (issue 20): why the runs differ,
 * not just where. It runs after the hunks are resolved and the first
 * divergence detailed, reads the alignment's result (each pair's hunks as
 * key-index ranges) and replays pairs along it (replay.c, in stage 1
 * align: the replay goes on from where align's values walk left it over
 * the common prefix; align.h); it never sees an aligner's internals.
 * explain.c follows values back from the split or the exit status (the
 * cause chain), weighs the suspects' evidence and picks the headline;
 * timeouts.c and swaps.c mark the values a replay found that no input
 * decided.
 */
#ifndef TTDI_EXPLAIN_H
#define TTDI_EXPLAIN_H

#include "resolve.h"

/* After the run: mark as TTDI_NOISE_TIMEOUT each differing value whose
 * every use the replay shows (returned up, passed down) ends as the
 * timeout of an I/O wait recorded inside the call it was passed to, a
 * wait that was woken before that timeout in both runs (timeouts.c); as
 * TTDI_NOISE_DEADLINE each such value whose waits ran to their timeouts
 * in both runs, the values differing by the runs' own clock readings
 * before the wait (the time left to one deadline), no call parting from
 * the wait on. 0 or a TT_E* code. */
int ttdi_replay_timeouts(ttdi_replay *rp);
/* After the run: mark as TTDI_NOISE_SWAP the differing arguments of two
 * calls of one function by one caller that are the same two calls in the
 * other order (each one's good values are the other's bad ones), when a
 * hunk hidden as timing (rp->tim) lies between them on one side or ends
 * right at the first (swaps.c). 0 or a TT_E* code. */
int ttdi_replay_swaps(ttdi_replay *rp);

/* The writer of what a reader read (written.c, issue 33 items 2-3): an
 * earlier call given the reader's object (a pointer parameter equal in
 * each run) and a value that differs, whose code writes a struct field
 * the reader's code reads; or one that made the object (returned it)
 * given a value that differs. */
typedef struct ttdi_writer {
    int32_t node;               /* the writer's node, -1 if none */
    int arg;                    /* its differing argument, -1: a callee's
                                   result differed instead */
    int tie;                    /* its parameter that is the object */
    int rtie;                   /* the reader's parameter that is it */
    int made;                   /* 1: the writer returned the object (made
                                   it); field is "" */
    char field[160];            /* "+0x10 of a `struct record`" */
} ttdi_writer;
/* The writer, among the calls of replay rp, of the object node `reader`
 * of replay rr (rp itself: the same thread) read: the nearest before it
 * by time. 1 and *out, or 0 (out->node -1). */
int ttdi_written_by(const ttdi_replay *rp, const ttdi_replay *rr, int32_t reader,
                    ttdi_writer *out);

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
    uint64_t values_deadline;   /* of those, the time left to one deadline
                                   by the clock, waits that ran to it */
    const char *deadline_text;  /* the first one's evidence, NULL if none */
    uint64_t values_rounded;    /* of those, a double timeout its waits took
                                   as the same time in both runs */
    const char *rounded_text;   /* the first one's evidence, NULL if none */
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
    const ttdi_in *in;          /* the runs (a race on a flag walks the bad
                                   run's threads: flagrace.c), NULL: not asked */
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
    const ttd_xev *held;        /* lost: the split thread's acquisition of the
                                   lock it held from before the signal to its
                                   wait (the signal came inside its check's
                                   critical section, sent without that lock:
                                   the signaller is named), NULL */
} ttdi_order_cause;
/* 1 and *out filled when the order is the cause, else 0. */
int ttdi_order_cause_find(const ttd_result *r, ttdi_order_cause *out);
/* An atomicity violation behind that order (ordercause.c): the split's
 * thread S went first on a mutex (other_first 0) while the other thread T
 * was between two critical sections on it in one call of a function F,
 * taken by two functions (a check, then an act), and S's operation was
 * inside a call of F too; in the good run, at S's last acquisition, T was
 * not between two sections in a call of F. F's two sections should have
 * been one. */
typedef struct ttdi_atomic {
    int found;
    const char *function;       /* F */
    const char *check, *act;    /* the functions T's two sections are named by */
    const char *split_by;       /* the function S's operation is named by */
    const char *object;         /* "mutex#1" */
    int64_t pair;               /* T's pair */
    int64_t split_pair;         /* S's */
    uint64_t check_ns, split_ns, act_ns; /* T's first section, S's, T's second
                                   (bad run) */
} ttdi_atomic;
/* 1 and *out filled, 0 if not, or a TT_E* code. Run walks of S and T from
 * the marks before their operations, AT_READ events at most each. */
int ttdi_order_atomic(const ttdi_in *in, const ttd_result *r, const ttdi_order_cause *o,
                      ttdi_atomic *out);
/* 1 if value v (the first divergence: a value a call returned in the
 * split's thread) was returned while that thread held the object o names
 * in both runs: a getter read under the lock what the order left there. */
int ttdi_order_cause_getter(const ttd_result *r, const ttdi_order_cause *o,
                            const ttd_value_diff *v);
/* The words an error origin's evidence carries when a pointer among its
 * inputs was compared as a pointer, not by what it points to (explain.c
 * pointer_words; verdict.c reads them: such an origin may have read what
 * another thread wrote). */
#define TTDI_PTR_UNSEEN "compared, not"
/* The lock (or a condition's mutex) pair held at bad_ns in the bad run,
 * by its last operations before the split (the interleave's window),
 * that another thread operated on there too: what it read under it that
 * thread may have written. NULL if none (or no window). */
const char *ttdi_shared_lock_held(const ttd_result *r, size_t pair, uint64_t bad_ns);
/* A lost wake-up: in the bad run another thread signalled a condition
 * before the split's thread waited on it, and nothing signalled it during
 * that wait (it returned by a timeout); in the good run the wait came
 * first and that thread's signal ended it. 1 and *out filled (lost 1),
 * else 0. v: the first divergence's value when it is the verdict's first
 * suspect (NULL: the split itself is): it must have been returned after
 * the wait did (the wait's answer, passed up). */
int ttdi_lost_wakeup_find(const ttd_result *r, const ttd_value_diff *v,
                          ttdi_order_cause *out);

/* A hang (hang.c): when the bad run was killed (no clean end, no crash)
 * with SYNC_OP records, its threads whose trace ends inside a wait
 * (LOCKING, WAIT, JOINING) that the good run's partner completed, and
 * why: a deadlock, a lost wake-up, a wait for what never came. *out NULL
 * when there is none; arena memory. 0 or a TT_E* code. */
int ttdi_hang_find(const ttdi_in *in, const ttd_run_info *bad, const ttd_hang **out);

/* A race on a flag (flagrace.c): the call whose answer the split's
 * branch used (the poller) read a writable global that a call of another
 * thread (the setter) wrote, before the split in the bad run, with no
 * lock held by both and no happens-before edge between the two calls. */
typedef struct ttdi_flag_race {
    int found;
    const char *poller, *setter;        /* the functions */
    const char *poller_thread, *setter_thread; /* bad run's names, "#N" */
    int64_t poller_pair, setter_pair;   /* pair indexes, -1 if unpaired */
    const char *poller_at, *setter_at;  /* their calls' lines ("prog.c:90"),
                                           NULL if unknown */
    const char *global;                 /* the global's name, NULL */
    uint64_t poll_ns, set_ns;           /* the poll's return, the set's call */
    int setter_after;                   /* 1: the setter's call returned after
                                           the poll's */
    int overlapped;                     /* 1: the two calls overlapped */
} ttdi_flag_race;
/* The happens-before test of a race on a flag, on a thread's sync
 * records (flagrace.c walks them; unit tests make them up). */
typedef struct ttdi_flag_sync {
    uint64_t ns, obj;       /* when, the object (SYNC_OP addr) */
    int64_t arg;            /* sync_arg */
    int op;                 /* TTF_SOP_* */
} ttdi_flag_sync;
typedef struct ttdi_flag_view {
    uint32_t index;         /* the thread's index in the run */
    const ttdi_flag_sync *sy; /* its SYNC_OPs in time order, up to the split */
    size_t nsy;
} ttdi_flag_view;
typedef struct ttdi_flag_call {
    uint64_t enter_ns, exit_ns;
} ttdi_flag_call;
/* 1 if nothing orders poller thread p's call pc and setter thread s's
 * call sc: no mutex both held at some time during their calls, and,
 * when one returned before the other began, no release in its thread
 * after it acquired in the other's before the other call (an unlock and
 * the lock, a signal and the wake-up, a wait's release of its mutex and
 * the lock, a semaphore's post and a take; the other thread created
 * after it; its thread joined, when the other created it). 0 if ordered
 * or protected. */
int ttdi_flag_unordered(const ttdi_flag_view *p, const ttdi_flag_call *pc,
                        const ttdi_flag_view *s, const ttdi_flag_call *sc);
/* 1 and *out filled when the first divergence's branch read a flag
 * another thread set unordered with it; 0 if not; or a TT_E* code. v:
 * values mode, the first divergence's value (the poller's answer: a
 * return in the split's thread before the split), NULL in plain mode
 * (the poller is the latest call before the split whose code reads a
 * writable global). Walks the bad run's threads up to the split. */
int ttdi_flag_race_find(const ttdi_in *in, const ttd_result *r, const ttd_value_diff *v,
                        ttdi_flag_race *out);

/* Another thread's call in flight over the split (overlap.c): a call of
 * another thread open at the split's time in the bad run and not at the
 * paired point in the good run (returned, or not begun), whose code, or
 * a call made inside it after the split, writes a global the code of the
 * split's frame reads, with no lock held by both calls. */
typedef struct ttdi_overlap {
    int found;
    const char *window;                 /* the call in flight (C) */
    const char *window_thread;          /* bad run's names, "#N" */
    int64_t window_pair;
    const char *split;                  /* the split's frame */
    const char *split_thread;
    int64_t split_pair;
    const char *global;                 /* the global's name, NULL */
    const char *writer;                 /* the call inside C that writes it,
                                           NULL when C's own code does */
    uint64_t enter_ns, exit_ns;         /* C in the bad run (exit UINT64_MAX:
                                           not seen) */
    uint64_t split_ns;                  /* the split's time in the bad run */
    int field;                          /* 1: global names a struct field
                                           reached through pointers,
                                           "+0x78 of struct T" (the same
                                           type and offset) */
} ttdi_overlap;
/* One call of the other thread's stack at the split (outermost first),
 * for the pick (overlap.c walks them; unit tests make them up). */
typedef struct ttdi_ov_frame {
    const char *name;
    uint64_t enter_ns, exit_ns;         /* exit UINT64_MAX: not seen */
    int in_good;                        /* 1: open at the paired point in
                                           the good run too */
    int writes;                         /* 1: writes what the split reads */
    int wrapper;                        /* 1: a lock wrapper */
} ttdi_ov_frame;
/* The call to name among f[0..n) (thread b) against the split's frame's
 * call ac (thread a; its exit_ns: the split's time): the innermost call
 * open over the split in the bad run only that writes what the split
 * reads, not a lock wrapper, when nothing orders it and ac
 * (ttdi_flag_unordered: no mutex held in both); its index, else -1. */
int ttdi_overlap_pick(const ttdi_flag_view *a, const ttdi_flag_call *ac,
                      const ttdi_flag_view *b, const ttdi_ov_frame *f, size_t n);
/* 1 and *out filled when the split's frame read a global that a call of
 * another thread, in flight over the split in the bad run only, writes;
 * 0 if not; or a TT_E* code. */
int ttdi_overlap_find(const ttdi_in *in, const ttd_result *r, ttdi_overlap *out);
/* The earliest kept index where pair p's calls part (its hunks'),
 * UINT64_MAX if none (overlap.c). */
uint64_t ttdi_pair_parts(const ttd_result *r, size_t p);

/* The thread a wait that never ended waited for (waker.c): the bad run
 * was killed with the split's thread S stopped at the split (no call
 * after it, while the good run's S went on); another thread T parted from
 * its good run only after that in the bad run's time, and before the
 * split in the good run's (there its part was done before S looked), and
 * went quiet soon after without a call that let S go on. */
typedef struct ttdi_waker {
    int found;
    const char *function;               /* the frame that made T's last
                                           calls after it parted */
    const char *file;                   /* its source, NULL */
    int line;
    const char *thread;                 /* T (bad run's name, "#N") */
    int64_t pair;
    const char *waiter_thread;          /* S */
    int64_t waiter_pair;
    uint64_t stop_ns;                   /* S's last event (bad run) */
    uint64_t part_ns;                   /* T's calls part (bad run) */
    uint64_t last_ns;                   /* T's last event (bad run) */
    uint64_t good_part_ns;              /* T's first difference, good run */
    uint64_t split_good_ns;             /* the split, good run */
} ttdi_waker;
/* The split pair's hunk (r->first->hunk) when the bad run was killed (no
 * clean end, no crash, no cut; the good run ended) and the split's thread
 * stopped in it: the hunk reaches the end of that thread's bad events
 * with at most 64 of them, while the good side has events; else -1. */
long ttdi_waker_stopped(const ttd_result *r);
/* Pair p's first hunk (timing-shaped too, not expected) when p is not
 * the split's pair, all its hunks begin after stop_ns (bad run) and that
 * one's good side began before the split's good time; else -1. */
long ttdi_waker_first(const ttd_result *r, size_t p, uint64_t stop_ns);
/* Pair p's first hunk from first on that is neither timing nor expected,
 * when p's thread's bad events end within 4096 of its start; else -1. */
long ttdi_waker_pick(const ttd_result *r, size_t p, long first);
/* 1 and *out filled when such a T is found (the first in pair order), 0
 * if not, or a TT_E* code. */
int ttdi_waker_find(const ttdi_in *in, const ttd_result *r, ttdi_waker *out);

/* A wake-up that came while its waiter was busy (waker.c, the second
 * rule): the waiter S's wait before the split ran its full time in the
 * bad run and was woken early in the good run; the call N of another
 * thread T that returned last before the good run's wait ended came, in
 * the bad run, before that wait began, while S was inside a call it was
 * not inside at N's time in the good run: the outermost such, W, named. */
typedef struct ttdi_wakewin {
    int found;
    const char *function;               /* W */
    const char *file;                   /* its source, NULL */
    int line;
    const char *thread;                 /* S (bad run's name, "#N") */
    int64_t pair;
    const char *waker;                  /* N */
    const char *waker_thread;           /* T */
    int64_t waker_pair;
    uint64_t enter_ns;                  /* W entered (bad run) */
    uint64_t notify_ns;                 /* N returned (bad run) */
    uint64_t wait_ns, asked_ns, end_ns; /* S's wait that ran out (bad run):
                                           began, time asked, ended */
    uint64_t good_enter_ns;             /* N entered (good run) */
    uint64_t good_notify_ns;            /* N returned (good run) */
    uint64_t good_wait_ns, good_end_ns; /* S's wait in the good run */
} ttdi_wakewin;
/* 1 and *out filled when it holds, 0 if not, or a TT_E* code. */
int ttdi_wakewin_find(const ttdi_in *in, const ttd_result *r, ttdi_wakewin *out);

/* Another thread's block of calls moved against the split's thread
 * (moved.c): the split's thread S called its split frame's function F
 * before (at A) and again at the split; another thread T made calls
 * between the two in one run (X) and none between them in the other (Y),
 * where it made the same calls far before A or after the split. */
typedef struct ttdi_mv_side {   /* T against S's window [A, split], one run */
    uint64_t a_ns, split_ns;    /* S's earlier call of F entered, the split */
    uint64_t n_a, n_split;      /* T's kept events before a_ns, split_ns */
    uint64_t before_ns;         /* T's last kept event before a_ns (a time
                                   no later than it when not read), 0 */
    uint64_t after_ns;          /* T's first kept event after split_ns,
                                   UINT64_MAX: none */
} ttdi_mv_side;
/* The run (TTD_GOOD, TTD_BAD; the bad run first) whose window held T's
 * calls while the other's held none and had them far outside it (by
 * the window's length or more), T having called before A in both and
 * T's calls the same up to kept index parts (its pair's first hunk);
 * -1 if neither. */
int ttdi_moved_judge(const ttdi_mv_side s[2], uint64_t parts);
/* One call of T made in X's window (oldest first). */
typedef struct ttdi_mv_call {
    const char *name;
    size_t depth;               /* T's open calls when it began */
    uint64_t enter_ns, exit_ns; /* in X; exit UINT64_MAX: open at the split */
    int writes;                 /* its code writes a global S's stack reads */
} ttdi_mv_call;
/* Which of c[0..n) the verdict names: the outermost call still open at
 * X's split (T was inside it when S parted; the first such), else the
 * first that writes what S's stack reads, and inside it the first of
 * its callees that writes too, as deep as they go; -1 if none. */
int ttdi_moved_pick(const ttdi_mv_call *c, size_t n);
/* Where a call of T was made from, by the inline chain of its call site:
 * the outermost function the compiler inlined there (a copy of it, named
 * with the line of the out-of-line function it sits at), or none. */
typedef struct ttdi_mv_site {
    int known;                  /* 0: no site or no debug info for it */
    const char *inl;            /* the inlined function, NULL: the call was
                                   made by the out-of-line function's own
                                   code */
    int line;                   /* the out-of-line function's line where
                                   that copy sits (its call line) */
} ttdi_mv_site;
/* The open call c[i] (the pick) was made from an inlined copy s[i] that
 * began inside the window: the last call at c[i]'s depth before the copy's
 * first, either among c[0..i) or `before` (T's last call at that depth,
 * under the same caller, before A), was made from elsewhere. Then the
 * copy is what a build that kept it out of line would show as the open
 * call (values mode's -pg builds inline what -finstrument-functions
 * traces). The index of the copy's first call in c, else -1 (no copy,
 * a site unknown, or the copy may have begun before A). */
int ttdi_moved_inline(const ttdi_mv_call *c, const ttdi_mv_site *s, size_t i,
                      const ttdi_mv_site *before);
typedef struct ttdi_moved {
    int found;
    const char *function;       /* the call named (T) */
    const char *thread;         /* T (bad run's name) */
    int64_t pair;               /* T's pair */
    const char *split;          /* F */
    const char *split_thread;   /* S */
    int in_run;                 /* X: TTD_GOOD or TTD_BAD */
    int earlier;                /* 1: in Y, T made them before A; 0: after
                                   the split */
    uint64_t calls;             /* T's calls (ENTERs) in X's window */
    uint64_t a_ns[2], split_ns[2]; /* S's window per run */
    uint64_t enter_ns;          /* the named call entered (X) */
    uint64_t y_ns;              /* in Y: T's last call before A, or its first
                                   after the split */
    int open;                   /* 1: open at X's split */
    const char *global;         /* a global it writes that S's stack reads */
    const char *inlined_into;   /* function is a copy the compiler inlined
                                   into this out-of-line function (its call
                                   site's inline chain), NULL */
    const char *via;            /* ... and the open call it made, T's frame
                                   at the split */
    const char *file;           /* ... its definition, NULL if unknown */
    int line;
} ttdi_moved;
/* 1 and *out filled when it holds, 0 if not, or a TT_E* code. Run walks
 * of S from the marks before its split and of the other threads from the
 * marks before A and the split in each run, bounded. */
int ttdi_moved_find(const ttdi_in *in, const ttd_result *r, ttdi_moved *out);

/* A wait that returned before the work it waits for was done
 * (earlywait.c): the split's thread S's last wait before the split
 * returned in function J while another thread T, a party to that wait,
 * was inside a call C that the good run had finished before its J. */
#define TTDI_EW_PARTIES 8
typedef struct ttdi_ew_pick {
    const ttd_xev *wake;        /* bad run: S's last wake-up (WOKE, SEM_TAKEN) */
    const ttd_xev *waker;       /* ... the signal or post before it on its
                                   object by another thread, NULL */
    const ttd_xev *good_begin;  /* good run: the first of S's last operations,
                                   all in J */
    const char *function;       /* J (past a wrapper that only waited) */
    const char *waker_func;     /* the waker's function (past a wrapper that
                                   only signalled), NULL */
    uint32_t party[TTDI_EW_PARTIES]; /* bad run: other threads that operated
                                   on an object of S's last operations in J */
    size_t nparty;
} ttdi_ew_pick;
/* From the thread order's windows alone (s: S's thread index per run): 1
 * and *out filled when S's last wait in the bad run returned in J with
 * nothing of S's after it but in J, S's last operations in the good run
 * were in J too, and another thread took part; else 0. */
int ttdi_early_wait_pick(const ttd_interleave *iv, const uint32_t s[2], ttdi_ew_pick *out);
/* 1 when the signal or post that woke S (waker, NULL: none) came from
 * thread th (bad run) at or after th entered its open call C (enter_ns):
 * T said "done" from inside the work, and the signaller is named; else
 * 0 (the wait is). */
int ttdi_early_wait_signaller(const ttd_xev *waker, uint32_t th, uint64_t enter_ns);
typedef struct ttdi_early_wait {
    int found;
    const char *function;       /* named: J, or the signaller's function */
    const char *thread;         /* its thread (bad run's name) */
    int64_t pair;               /* its pair */
    int signaller;              /* 1: T signalled from inside C: it is named */
    const char *waiter;         /* J */
    const char *wait_thread;    /* S */
    const char *object;         /* what S waited on ("cond#2") */
    uint64_t woke_ns;           /* bad run: S's wake-up */
    uint64_t good_begin_ns;     /* good run: S's J began (its first operation) */
    const char *work;           /* C */
    const char *work_thread;    /* T */
    uint64_t work_ns;           /* bad run: C entered */
    const char *waker_func;     /* the signal or post that woke S, NULL */
    const char *waker_thread;
    uint64_t waker_ns;
} ttdi_early_wait;
/* 1 and *out filled when it holds, 0 if not, or a TT_E* code. Run walks
 * of the parties in the bad run from the mark before S's wake-up, and of
 * every other thread in the good run from before J, to the split. */
int ttdi_early_wait_find(const ttdi_in *in, const ttd_result *r, ttdi_early_wait *out);

#endif
