/*
 * ttdiff.h - compare two traces of the same program and name the first
 * point where they diverge: per-thread alignment of normalised events.
 *
 * The engine's public header; the profiles (one run's, and the profile
 * diff) are libttdiff's other API, in ttprof.h. The engine never prints: it returns
 * plain structs (ttd_result) that renderers (report/ttreport.h) turn into
 * text, JSON or HTML. Errors are 0 or a negative TT_E* code from ttfmt.h.
 */
#ifndef TTDIFF_H
#define TTDIFF_H

#include <stddef.h>
#include <stdint.h>

/* installed side by side; in the source tree, -Iformat finds it */
#include "ttfmt.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1.2: ttd_regex_* and ttd_prof_* (one run's profile), formerly ttf_regex_*
 * and ttf_profile_* in libttfmt 1.x (both profile APIs, one run's and the
 * profile diff, are declared in ttprof.h since 1.5).
 * 1.4: call values (format 1.1): ttd_value_diff, ttd_result value_first,
 * values, values_compared, values_noise, values_note; ttd_event value,
 * ttd_frame args, ttd_suspect value_differs, trivial, good_value,
 * bad_value; ttd_options no_values. They work with both aligners (the
 * call-tree one of 1.3 and --flat).
 * 1.5: ttd_hunk_details (several hunks' details in one read of each
 * thread); ttd_hunk_info good_time_ns; ttd_value_diff good_is_code,
 * bad_is_code, good_code, bad_code (a size_t error code's signed form).
 * 1.6: ttd_run_info cut (a trace cut by a full disk); ttd_status.
 * 1.7: two builds: ttd_result changed_functions, nchanged_functions,
 * code_compared, code_functions, code_notes; ttd_code_change; ttd_frame
 * code_changed; ttd_divergence build_artifact. Why, not just where
 * (diff/explain.c): ttd_suspect score, evidence, pair; ttd_evidence;
 * ttd_cause and ttd_divergence chain, nchain, chain_end (also in
 * ttd_result for runs with no split); ttd_outcome in ttd_result;
 * ttd_result values_ignored, value_others; value_first is now the
 * headline value difference (see explain.c).
 * 1.8: call sites (format 1.2): ttd_options ignore_call_sites, ttd_event
 * from. Inside the frame (issue 21): ttd_divergence frames, nframes (the
 * stack with the functions the compiler inlined, from the call sites'
 * DWARF inline chains), ttd_frame inlined, call_line, call_file;
 * ttd_divergence lines (ttd_lines: the deciding line).
 * Values read well (issue 23 part 4): ttd_value_diff caller, stack,
 * nstack (where the call was made); ttd_event good_value (a common event
 * whose value differs shows each run's own). Pools and timing-shaped
 * hunks (issue 22): ttd_pool, ttd_result pools, npools, ntiming,
 * timing_total; ttd_pair pool, timing; ttd_hunk_info timing;
 * ttd_timing_name; ttd_interleave shared. Races (diff/races.c): ttd_race,
 * ttd_result races, nraces; ttd_races_find, ttd_races_list,
 * ttd_races_free (one run alone); ttd_options bad_failed, ttd_outcome
 * failed (a caught failure is never "no divergence"). Inside the
 * deciding function: ttd_suspect inlined_into and TTD_EV_INLINED (the
 * functions the compiler inlined into the chain's origin when its answer
 * flipped with the same inputs and the same calls, from libttfmt's
 * ttf_sym_inlined_in).
 * 1.9: threads ordered by happens-before (diff/order.c): ttd_hunk_info
 * order_dep, order_pair, enum ttd_order; ttd_result followed (a first
 * split that only followed the threads' progress, put after another
 * thread's own); TTD_TIMING_PROGRESS and ttd_result values_progress (runs
 * that ended alike and differ only by the threads' progress).
 * 1.11: strings by content (format 1.6): ttd_value_diff is_string; string
 * arguments are compared, and shown, by their recorded first bytes. Two
 * calls swapped by timing (ttd_result values_swapped, swap_evidence) and
 * a pool grown by one worker (TTD_TIMING_GREW, ttd_unpaired grew...) are
 * no divergence (issue 31).
 * 1.12: ttd_race decided: the check of a check-then-act is the one whose
 * value decided whether the act followed (values mode, issue 33); the
 * cause kind "order" (the threads' order at a lock, diff/ordercause.c).
 * 1.13: a bad run killed while threads waited (diff/hang.c): ttd_result
 * hang (ttd_hang, ttd_blocked, enum ttd_hang_cause); cause kinds
 * TTD_COF_DEADLOCK and TTD_COF_HANG.
 * 1.14: a lock operation is named by its caller past lock wrappers
 * (ttd_xev within; ttd_blocked function and taken_in); a thread that
 * waited holding a lock another blocked thread wanted, nothing left
 * running (TTD_HANG_HELD, ttd_hang waiter).
 * 1.15: no values recorded (plain mode): the call whose yes/no or status
 * answer the split's branch came right after, the deepest of the calls
 * that returned one after the other just before it (TTD_EV_ANSWER,
 * "answer_used"; the verdict's cause kind TTD_COF_ANSWER, "answer").
 * 1.16: ttd_place label.
 * 1.17: ttd_result values_twinned (a pool's work items whose values were
 * hidden as another worker's twin: how many) and values_times (differing
 * integers that are times near each run's own clock: how many).
 * 1.18: data written early and read back later: the call that wrote the
 * object the split's frame (or a getter on the chain) read, tied to it by
 * the same pointer and a struct field its code writes and the reader's
 * reads, or by having made (returned) that object (TTD_EV_WRITTEN,
 * "wrote_read_back"; the verdict's cause kind TTD_COF_WRITTEN,
 * "written").
 * 1.19: ttd_hang unlocked (a lost wake-up that hangs, its signal sent
 * while the waiter held the lock it checks under).
 * 1.20: TTD_TIMING_CONTENDED ("contended": a lock's own slow path that
 * one run alone took); ttd_hidden timing (which timing shape a hidden
 * hunk has).
 * 1.21: ttd_options jobs (the two runs read by two threads where each is
 * read alone; 1: one thread).
 * 1.21.1: "contended" only while another thread of that run was alive.
 * 1.22: threads ordered by time bounds (lazy clock, issue 33): ttd_event
 * early_ns, late_ns; ttd_hunk_info early_ns, late_ns, clock_order,
 * clock_pair, enum ttd_clock (two threads' first divergences whose
 * times overlap: which came first is not known from the clock);
 * ttd_place inlined (a changed function's change named by the inlined
 * callee whose source changed).
 * 1.23: ttd_result values_deadline, deadline_evidence (a value that was
 * only the time left to one deadline, by the clock); a verdict cause of
 * kind "order" also from diff/moved.c (another thread's calls moved
 * against the split's timeline).
 * 1.24: a verdict cause of kind "order" also from diff/earlywait.c (a
 * wait that returned before the work it waits for was done); the
 * code-changed cause names the innermost changed scope.
 * 1.25: TTD_TIMING_SPIN ("spin": a loop that spun on a clock, proven by
 * its values) and ttd_hunk_info spins, spin_events, spin_clock, spin_value,
 * spin_unit_ns; TTD_TIMING_INLINED ("inlined": calls that one build's
 * inlining of an untraced library's function made visible) and
 * TTD_HIDDEN_BUILD ("build").
 * 1.26: ttd_result values_rounded, rounded_evidence (a double timeout
 * whose waits asked the same time in both runs: the difference rounded
 * away).
 * 1.26.1: the parted pairs' records in less memory (a SYNC_OP record 32
 * bytes, a thread order's kept operation 16).
 * 1.26.2: a race's release_ns is the latest the release took effect (the
 * thread's next event after its UNLOCK record), and overlapped compares
 * the checks with it.
 * 1.26.3: a values pair's aside walks read without the lazy clock's times
 * past the last module load (no API or report change; ~10% less CPU). */
#define TTD_VERSION_MAJOR 1
#define TTD_VERSION_MINOR 26
#define TTD_VERSION_PATCH 3
#define TTD_VERSION_NUMBER \
    (TTD_VERSION_MAJOR * 10000 + TTD_VERSION_MINOR * 100 + TTD_VERSION_PATCH)

/* The library's own version at run time (TTD_VERSION_NUMBER it was built with). */
int ttd_version(void);

/* ---- filters (diff/regex.c: PCRE2, shared by the commands and the engine) */

typedef struct ttd_regex ttd_regex;

/* Compile a PCRE2 pattern (JIT-compiled when the library supports it).
 * Errors: TT_EINVAL for a bad pattern, with err->msg like
 * "bad regex 'a(b': missing closing parenthesis at offset 3"; TT_ENOMEM. */
int ttd_regex_compile(const char *pattern, ttd_regex **out, ttf_error *err);
/* 1 if s matches anywhere, 0 if not. */
int ttd_regex_match(const ttd_regex *re, const char *s);
void ttd_regex_free(ttd_regex *re);

/* The one meaning of --thread in every command: 1 if the thread numbered
 * index (creation order) with name (its last name) and first_name (either
 * may be NULL) is selected by pattern, compiled as re. A whole number
 * selects that thread index only ("1" is thread 1, not 10 or 11);
 * anything else is a regex matched anywhere in the name or the first
 * name. NULL pattern selects every thread. (1.4) */
int ttd_thread_match(const char *pattern, const ttd_regex *re, uint32_t index,
                     const char *name, const char *first_name);

/* ---- options ------------------------------------------------------------ */

enum ttd_messages {
    TTD_MSG_SITE = 0,   /* a message compares by call site (format + function) */
    TTD_MSG_TEXT,       /* by its formatted text (and function) */
    TTD_MSG_OFF         /* messages and marks take no part */
};

typedef struct ttd_options {
    const char *thread;     /* ttd_thread_match: a thread index or a name regex; NULL = all */
    const char *function;   /* PCRE2: keep only matching functions; NULL = all
                               (messages: by the function that logged them) */
    const char *exclude;    /* PCRE2: drop matching functions; NULL = none */
    int messages;           /* TTD_MSG_* */
    int minimal;            /* 1: exact alignment, no cost cap */
    unsigned context;       /* common events shown before a divergence (5) */
    unsigned max_lines;     /* differing events kept per side of a hunk (40) */
    unsigned max_hunks;     /* hunks resolved per thread pair; 0 = all (10) */
    unsigned other_events;  /* last events kept per other thread (2) */
    unsigned suspects;      /* suspects ranked at a divergence (3), 0 = none */
    const char *const *baselines; /* more good runs (trace files), NULL = none:
                               what differs between them is expected */
    size_t nbaselines;      /* entries in baselines */
    int collapse_loops;     /* 1: a run of identical call subtrees aligns as
                               one item with a repeat count */
    int no_demangle;        /* 1: C++ names compared and shown mangled */
    int no_values;          /* 1: call values (format 1.1) take no part:
                               not compared, not shown, suspects ranked
                               as without them */
    const struct ttd_hand_pair *pairs; /* threads paired by hand (--pair),
                               before any rule; NULL = none */
    size_t npairs;          /* entries in pairs */
    int flat;               /* 1: align the flat event sequences (Myers on
                               keys) instead of the call trees */
    int first_only;         /* 1: per thread pair, only the first divergence,
                               reading no further than the call holding it
                               (pair event counts are then what was read) */
    int ignore_call_sites;  /* 1: calls of one function align whatever
                               their call sites (format 1.2); 0: a call
                               from another place is another event, when
                               both runs recorded sites (ttdi_norm_sites) */
    const char *bad_failed; /* the bad run is known to have failed, and how
                               ("exit 0, --fail-if said failure"; ttrec
                               --until-fail): the runs then always differ,
                               in their outcome at least (1.8); NULL = not
                               known */
    int jobs;               /* threads that read the two runs: 0 (the
                               default) or 2: two, each run read by its
                               own while the runs are read alone (opening,
                               thread sketches, the call trees); 1: one.
                               The result is the same; the wall time is
                               not (1.21) */
} ttd_options;

/* A thread pair given by hand: good run thread `good` with bad run thread
 * `bad` (creation numbers, as ttdump and the reports show them). */
typedef struct ttd_hand_pair {
    uint32_t good, bad;     /* thread indexes */
} ttd_hand_pair;

/* Fill o with the defaults above. */
void ttd_options_init(ttd_options *o);

/* ---- results ------------------------------------------------------------ */

enum ttd_run { TTD_GOOD = 0, TTD_BAD = 1 };

/* How a thread pair was matched. */
enum ttd_paired_by {
    TTD_PAIR_MAIN = 1,  /* thread 0 with thread 0 */
    TTD_PAIR_NAME_START,/* same name and same start function */
    TTD_PAIR_NAME,      /* same name */
    TTD_PAIR_START,     /* same start function */
    TTD_PAIR_ORDER,     /* neither: the next unpaired in creation order */
    TTD_PAIR_CONTENT,   /* several candidates tied under a rule (ttd_pair.tie):
                           the most similar by what they did */
    TTD_PAIR_HAND       /* given by hand (ttd_options.pairs) */
};

/* One event as shown in a report (decoded again from the trace). */
typedef struct ttd_event {
    int kind;           /* TTF_EV_* (ENTER, EXIT, MESSAGE, MARK, CRASH) */
    uint32_t thread;    /* thread index in its run */
    uint64_t index;     /* position in the thread's normalised sequence */
    uint64_t time_ns;   /* ns since its run's start */
    int depth;          /* call depth before the event (as recorded) */
    const char *name;   /* function (ENTER/EXIT; message: logging function) */
    const char *text;   /* MESSAGE/MARK: formatted text; CRASH: signal name;
                           else NULL */
    int signo;          /* CRASH: signal number */
    uint64_t fault_addr;/* CRASH: faulting address */
    const char *value;  /* ENTER: its arguments "(1, NULL)"; EXIT: its
                           return value "-22"; NULL if not recorded, not
                           described by debug info, or void */
    const char *from;   /* an ENTER of the differing events whose function
                           the other run enters there too, its call site
                           taking part in the alignment (format 1.2,
                           ttd_options ignore_call_sites off): where it was
                           called, "parse:330" (caller:line) or
                           "parse+0x3c"; else NULL (also on common events) */
    const char *good_value; /* a common event (ttd_divergence before) of
                           the bad run whose value text differs from the
                           good run's same event: the good run's text
                           (value is the bad run's); else NULL (1.8) */
    uint64_t early_ns;  /* bounds of time_ns: an event whose time was not
                           measured (the sparse clock's EXITs, the lazy
                           clock's runs, FORMAT.md 4.5 and 4.7) happened
                           between them and time_ns is an estimate; both
                           time_ns when it was measured (1.22) */
    uint64_t late_ns;
} ttd_event;

/* One frame of a call stack. */
typedef struct ttd_frame {
    const char *name;   /* function name */
    const char *file;   /* source file of the function, NULL if unknown */
    int line;           /* its line, 0 if unknown */
    const char *args;   /* the bad run's arguments "(1, NULL)", NULL if
                           not recorded */
    int code_changed;   /* 1: its machine code changed (or it is new)
                           between the good and the bad run's builds */
    int inlined;        /* 1: the compiler inlined it into the frame before
                           it (its caller): it has no ENTER of its own and
                           is known from the call sites' debug info (1.8) */
    int call_line;      /* the line in it where the next frame was called
                           (the innermost frame: where the bad run's first
                           differing call was made); 0 if unknown (1.8) */
    const char *call_file; /* the file of call_line, NULL if unknown */
} ttd_frame;

/* One run's position in the diverging frame (ttd_lines). */
typedef struct ttd_line_call {
    int line;           /* source line of the call, 0 if unknown */
    const char *file;   /* its file, NULL if unknown */
    const char *calls;  /* the function called there; "" when the frame
                           returned instead of calling */
} ttd_line_call;

/* One source line (ttd_lines.source). */
typedef struct ttd_source_line {
    int line;           /* its number, from 1 */
    const char *text;   /* its text, without the newline */
} ttd_source_line;

/* The deciding line: where in the diverging frame each run went (1.8).
 * Positions come from the calls' call sites (format 1.2) mapped through
 * the debug info, so an inlined helper is a frame of its own. */
typedef struct ttd_lines {
    const char *function;   /* the diverging frame (innermost of frames) */
    int inlined;            /* 1: it is an inlined frame */
    const char *file;       /* the source file of the lines, NULL if unknown */
    const ttd_line_call *common; /* the last call both runs made from it
                               before the split, NULL if none (the split is
                               its first call, or that call is elsewhere) */
    const ttd_line_call *good;   /* each run's first differing call there; */
    const ttd_line_call *bad;    /* NULL if the run has none (no call site) */
    int first, last;        /* the narrowest line range holding the branch
                               (the positions above, or from the function's
                               first line when there is no common call); 0
                               if unknown */
    const ttd_source_line *source; /* lines first..last of file (at most
                               TTD_SOURCE_MAX), NULL if not readable */
    size_t nsource;
    const char *source_missing; /* why source is NULL ("file not found:
                               /src/parse.c"), NULL if it is not */
    const char *text;       /* the sentence: "in parse_item (inlined into
                               parse): good: parse.c:36 calls add_node;
                               bad: parse.c:33 calls set_error" */
} ttd_lines;

#define TTD_SOURCE_MAX 40   /* source lines kept per ttd_lines */

/* Why a function is a suspect. */
enum ttd_suspect_role {
    TTD_SUSPECT_RETURNED = 1, /* a call of it returned in the common events
                                 just before the split, at the diverging
                                 frame's depth or deeper */
    TTD_SUSPECT_FRAME,        /* the diverging frame: its children differ */
    TTD_SUSPECT_CALLER,       /* an enclosing frame of the split (it computed
                                 a differing argument, or its code changed)
                                 (1.7) */
    TTD_SUSPECT_EARLIER       /* a call on the cause chain that returned
                                 before the suspects' window, or in another
                                 thread (1.7) */
};

/* What a piece of evidence about a suspect says (ttd_evidence.kind). */
enum ttd_evidence_kind {
    TTD_EV_FRAME = 1,   /* "diverging_frame": its calls differ at the split */
    TTD_EV_VALUE,       /* "value_differs": it returned another value */
    TTD_EV_ARGS,        /* "args_differ": it was called with other arguments */
    TTD_EV_ARG_ORIGIN,  /* "arg_origin": it computed an argument that differs
                           and was passed down to the split */
    TTD_EV_CODE,        /* "code_changed": its machine code differs between
                           the two builds */
    TTD_EV_NOISE,       /* "varies_in_good_runs": its differing value is
                           noise (varies between good runs, a clock or
                           counter, an address): counts against it */
    TTD_EV_DISTANCE,    /* "distance": how near the split it returned (a
                           weak tie-breaker) */
    TTD_EV_THREAD,      /* "earlier_in_other_thread": its value differed in
                           another thread earlier in the bad run's time */
    TTD_EV_CHAIN,       /* "on_cause_chain": a step of the cause chain */
    TTD_EV_ERROR,       /* "error_appears": its value turned into an error
                           (negative, NULL, false) where its inputs did not */
    TTD_EV_TRIVIAL,     /* "trivial": a leaf returning the same value or
                           void, or a lock wrapper: counts against it */
    TTD_EV_INLINED,     /* "inlined_into": the compiler inlined it into the
                           function whose answer flipped with the same
                           inputs (the chain's origin): its code ran inside
                           it, unseen by the trace (1.8) */
    TTD_EV_ANSWER,      /* "answer_used": no values recorded: it returned a
                           yes/no or status answer (bool, enum; an int
                           another int passed up) last before the split,
                           passed up by the calls that returned right
                           after it (1.15) */
    TTD_EV_WRITTEN      /* "wrote_read_back": given the object a later
                           reader read (the same pointer in each run) and a
                           value that differs, its code writes a struct
                           field the reader's code reads (1.18) */
};

/* One reason a function is (or is not) a suspect. */
typedef struct ttd_evidence {
    int kind;           /* TTD_EV_* */
    double weight;      /* its part of the score; negative counts against */
    const char *text;   /* in words: "returned -22 in the bad run, 0 in the
                           good run" */
} ttd_evidence;

/* "diverging_frame", "value_differs"... for a TTD_EV_* kind; "?" if unknown. */
const char *ttd_evidence_name(int kind);

/* One suspect of a divergence: a function that may have decided it. */
typedef struct ttd_suspect {
    const char *name;   /* function name */
    const char *file;   /* its source file, NULL if unknown */
    int line;           /* its line, 0 if unknown */
    int role;           /* TTD_SUSPECT_* */
    uint64_t index;     /* RETURNED: key index (bad run) of its last return
                           before the split; FRAME: of the split */
    uint64_t distance;  /* common events between that return and the split
                           (0: the event right before it); FRAME: 0 */
    int depth;          /* frames below the diverging frame's parent: 0 for
                           the frame and its siblings, 1 its children... */
    int value_differs;  /* RETURNED: 1 if that call returned another value
                           than the same call in the good run */
    const char *good_value; /* then: the return values as text; NULL if */
    const char *bad_value;  /* the value was not compared */
    int trivial;        /* RETURNED: a leaf (no callees) that returned the
                           same value (or void), or a lock wrapper: never
                           ranked first */
    double score;       /* sum of the evidence weights; suspects are ranked
                           by it, highest first (1.7) */
    const ttd_evidence *evidence; /* why, strongest first (1.7) */
    size_t nevidence;
    size_t pair;        /* index in ttd_result.pairs of the thread it ran in
                           (another thread's: earlier_in_other_thread) */
    const char *inlined_into; /* the function it was inlined into, whose
                           answer flipped with the same inputs (evidence
                           inlined_into; file and line: its definition;
                           role: that function's); NULL otherwise (1.8) */
} ttd_suspect;

/* What one step of a cause chain is (ttd_cause.kind). */
enum ttd_cause_kind {
    TTD_CAUSE_RETURNED = 1, /* "returned": a call returned another value */
    TTD_CAUSE_ARGUMENT,     /* "argument": a call got another argument */
    TTD_CAUSE_SPLIT,        /* "split": the calls part (the divergence) */
    TTD_CAUSE_EXIT,         /* "exit_status": the runs ended differently */
    TTD_CAUSE_CODE          /* "code_changed": the function's code differs
                               between the builds */
};

/* One step of a cause chain: earliest cause first, each step explaining
 * the next ("because" read backwards). */
typedef struct ttd_cause {
    int kind;               /* TTD_CAUSE_* */
    const char *function;   /* the function of the step ("" if none) */
    size_t pair;            /* index in ttd_result.pairs of its thread */
    const char *thread;     /* that thread's name */
    int arg;                /* ARGUMENT: parameter index, 0 = first; else -1 */
    const char *param;      /* ARGUMENT: its name ("" if unnamed), else NULL */
    const char *good_value; /* the value in each run as text, NULL if none */
    const char *bad_value;
    uint64_t bad_index;     /* key index (bad run) of the event: the call's
                               ENTER (argument), EXIT (returned), the split;
                               UINT64_MAX if none */
    uint64_t bad_time_ns;   /* its time in the bad run (0 if none) */
    int strong;             /* 1: its value is the next step's, passed on
                               as is (an equal value in both runs); 0: the
                               next step follows by position or time */
    const char *text;       /* the step in words */
    const char *nondet;     /* RETURNED: the value is one no input decides
                               ("a clock value", "an address or time
                               stamp", "a value that varies between good
                               runs"), the only difference the frame that
                               branched saw before it: the calls after it
                               depend on it; NULL otherwise */
} ttd_cause;

/* How the two runs ended. */
typedef struct ttd_outcome {
    int has_exit[2];        /* 1: the run recorded a clean end (TTD_GOOD, TTD_BAD) */
    int exit_status[2];     /* its exit status then */
    int signal[2];          /* signal of its crash, 0 if none */
    int same_calls;         /* 1: every thread pair made the same calls (no
                               hunk, no unpaired thread) */
    int differs;            /* 1: the runs ended differently (exit status or
                               signal) */
    int failed;             /* 1: the bad run is known to have failed
                               (options.bad_failed): a divergence in the
                               outcome even with the same end (1.8) */
} ttd_outcome;

/* What a race is (ttd_race.kind). */
enum ttd_race_kind {
    TTD_RACE_CHECK_ACT = 1, /* "unordered_check_act": two threads each
                               between a lock-free call (the check) and a
                               later call of the same caller that took a
                               lock (the act), with nothing ordering one
                               thread's act before the other's check */
    TTD_RACE_UNPROTECTED    /* "unordered_unprotected_call": two threads'
                               calls of a function whose other calls in the
                               run take a lock, at least one of the two
                               without it, with nothing ordering them (the
                               "unprotected" of ttd_interleave without good
                               runs to learn from); check = act = it */
};

/* A race: calls of two threads of one run that nothing (no lock, no
 * condition, no create or join) ordered, found through the run's
 * happens-before order (vector clocks at function granularity: races.c).
 * Both threads made the same check and act. (1.8) */
typedef struct ttd_race {
    int kind;               /* TTD_RACE_* */
    int run;                /* TTD_BAD or TTD_GOOD: the run it is seen in */
    uint32_t thread[2];     /* thread indexes in that run, lower first */
    const char *thread_name[2]; /* their names ("#N" when unnamed) */
    int64_t pair[2];        /* their index in ttd_result.pairs, -1 if none */
    const char *check;      /* the lock-free call */
    const char *act;        /* the call that took the lock */
    uint64_t time_ns;       /* when both were between check and act (the
                               later check's entry); unordered only: the
                               later check's entry too */
    uint64_t end_ns;        /* when the first act released its lock */
    uint64_t check_ns[2];   /* each thread's check entry (thread[] order) */
    uint64_t release_ns[2]; /* each thread's act released its lock: the
                               latest it took effect, the thread's next
                               event after the UNLOCK record (libttdiff
                               1.26.2; before, the record's time; unprotected
                               calls: the call's return) */
    const char *lock;       /* the act's lock ("mutex#1"), NULL if none */
    int check_locked;       /* 1: a lock was held during the check
                               (UNPROTECTED: thread[0]'s call took one) */
    int act_locked;         /* 1: the act took or held a lock
                               (UNPROTECTED: thread[1]'s call took one) */
    uint64_t locked_calls;  /* UNPROTECTED: the run's other calls of the
                               function that took the lock; else 0 */
    int overlapped;         /* 1: both threads were between check and act
                               at once; 0: they were not, but nothing
                               ordered them (they could have been) */
    uint64_t count;         /* times the pair of calls overlapped in the run
                               (overlapped), or were unordered (else) */
    int good_compared;      /* 1: good runs were walked for the same pair */
    int seen_in_good;       /* 1: the same check and act overlapped in two
                               threads of a good run too */
    uint64_t good_count;    /* times they did there (0 if not compared) */
    int reaches_symptom;    /* 1: both threads' acts happened before the
                               symptom in its thread's order (a lock, a
                               condition or a join between them: the
                               symptom's thread could read what they wrote)
                               (1.10) */
    double score;           /* ranking, highest first: overlapped, not seen
                               in good runs, near the split or the end */
    const char *const *stacks[2]; /* each thread's stack at its act,
                               outermost first, the act last */
    size_t nstacks[2];
    const char *text;       /* the finding in one sentence */
    const char *decided;    /* CHECK_ACT: in values mode why the check's
                               value decided whether the act followed (its
                               values before the act and before anything
                               else never met); when none did, why its
                               machine code makes it the check (it reads
                               shared memory, a rival nearer the act only
                               its own stack); NULL when not known (1.11) */
} ttd_race;

/* One thread of one run. */
typedef struct ttd_thread_info {
    uint32_t index;     /* creation order in its run, 0 = main */
    const char *name;   /* its name ("" if none) */
    const char *start;  /* first function it entered ("" if none) */
    uint64_t events;    /* events in the normalised sequence (0 if not read) */
} ttd_thread_info;

/* A pair of threads, one from each run. */
typedef struct ttd_pair {
    ttd_thread_info good;   /* the good run's thread */
    ttd_thread_info bad;    /* the bad run's thread */
    int paired_by;          /* TTD_PAIR_* */
    int tie;                /* TTD_PAIR_CONTENT: the rule under which the
                               threads tied (TTD_PAIR_NAME_START...) */
    double similarity;      /* TTD_PAIR_CONTENT: score 0..1 (0.8 x cosine of
                               the function histograms + 0.2 x event count
                               ratio); -1 otherwise */
    double second;          /* best score of another candidate of either
                               thread, -1 if none */
    int uncertain;          /* 1: a low score or a close second: check it,
                               or pair by hand (--pair) */
    size_t hunks;           /* hunks in this pair's alignment that no good
                               run shows (with no baselines: all) */
    size_t expected;        /* hunks that also vary between good runs */
    uint64_t first_time_ns; /* bad-run time of its first hunk (if hunks) */
    const char *pool;       /* its pool ("pool#1": look-alike threads whose
                               work is compared as a multiset of work
                               items, ttd_pool), NULL if none (1.8) */
    size_t timing;          /* hunks judged timing-shaped (not counted in
                               hunks) (1.8) */
} ttd_pair;

/* A pool: look-alike threads (same start function, names alike but for
 * their digits) in both runs, whose work is compared as a multiset of
 * work items (the calls of each thread's worker loop, by subtree hash):
 * which worker took which item is no difference; an item that only one
 * run did (an error path) is, and stays a hunk of the thread that did it
 * (1.8). */
typedef struct ttd_pool {
    const char *id;             /* "pool#1", ... */
    const char *start;          /* the threads' start function */
    const uint32_t *good_threads; /* thread indexes in the good run */
    size_t ngood;
    const uint32_t *bad_threads;  /* and in the bad run */
    size_t nbad;
    uint64_t items_good;        /* work items of the pool, good run */
    uint64_t items_bad;         /* bad run */
    uint64_t items_differing;   /* items only one run did (good-only plus
                                   bad-only, by subtree hash) */
    int compared;               /* 0: too many items differ (more than 2^20
                                   in a thread): per-thread hunks only,
                                   items_differing 0 */
} ttd_pool;

/* A thread with no partner in the other run. */
typedef struct ttd_unpaired {
    int run;                /* TTD_GOOD or TTD_BAD */
    ttd_thread_info thread; /* the thread (events = its raw event count) */
    int grew;               /* 1: a pool's extra worker (diff/grew.c): its
                               look-alike threads did the same work in the
                               other run with one thread less, and its
                               creator's hunks that started it are
                               TTD_TIMING_GREW (1.10) */
    size_t grew_creator;    /* grew: the pair of the thread that created it */
    uint64_t grew_items;    /* grew: the pool's work items (the calls at the
                               top of its workers' loops), the other run */
    uint64_t grew_extra;    /* grew: lock or wait calls only its run made
                               (the extra worker's own turn of the loop) */
    size_t grew_workers[2]; /* grew: the pool's threads, good and bad run */
} ttd_unpaired;

/* A hunk: good[good_index, +good_count) replaced by bad[bad_index, +bad_count). */
typedef struct ttd_hunk_info {
    size_t pair;            /* index in ttd_result.pairs */
    uint64_t good_index;    /* first differing event in the good thread */
    uint64_t good_count;    /* events only the good run has */
    uint64_t bad_index;     /* first differing event in the bad thread */
    uint64_t bad_count;     /* events only the bad run has */
    uint64_t time_ns;       /* bad-run time where it starts */
    uint64_t good_time_ns;  /* good-run time where it starts (the event at
                               good_index, else the thread's last one,
                               else the thread's start) */
    const ttd_event *good_first; /* first good-only event, NULL if none */
    const ttd_event *bad_first;  /* first bad-only event, NULL if none */
    int expected;           /* 1: also varies between the good runs */
    uint64_t good_reps;     /* loop count hunk (--collapse-loops): times the */
    uint64_t bad_reps;      /* repeated subtree ran in each run; 0 if not one.
                               The ranges are then the extra iterations. */
    int timing;             /* TTD_TIMING_*: the hunk is timing-shaped, not a
                               divergence (1.8) */
    int order_dep;          /* TTD_ORDER_*, 0 if none: it came first in the
                               bad run's time, but its thread held a lock (or
                               took one just before) that another thread had
                               taken a different number of times by then in
                               the two runs: it follows how far the threads
                               had got, and the first divergence, another
                               thread's own, was put before it
                               (ttd_result.followed; 1.9) */
    size_t order_pair;      /* order_dep: the pair of that other thread
                               (== npairs: a thread with no partner) */
    uint64_t waits;         /* timing TTD_TIMING_WAIT: the recorded waits
                               that made it one (blocking operations, wait
                               calls that blocked), both runs' sides */
    uint64_t wait_ns;       /* ... the time they blocked in all (a blocking
                               operation until the thread's next record, a
                               wait call from its entry to its return) */
    uint64_t early_ns;      /* bounds of time_ns: the split's event was not
                               measured (lazy clock) and happened between */
    uint64_t late_ns;       /* them; both time_ns when measured (1.22) */
    int clock_order;        /* TTD_CLOCK_*, 0 if not: the first divergence
                               (hunks[0]) whose bounds overlap another
                               pair's first divergence's, and no lock,
                               signal, create or join ordered the two: which
                               thread parted first is not known from the
                               clock (the order of estimates is no evidence);
                               the value says what put this one first (1.22) */
    size_t clock_pair;      /* clock_order: that other pair */
    uint64_t spins;         /* timing TTD_TIMING_SPIN: the extra iterations
                               (1.25) */
    uint64_t spin_events;   /* ... the events of one iteration */
    const char *spin_clock; /* ... the call whose result read as the run's
                               own clock, the same in every extra
                               iteration */
    uint64_t spin_value;    /* ... that reading (the register) */
    uint64_t spin_unit_ns;  /* ... its unit: 1000 (us), 10^6 (ms), 10^9 (s) */
} ttd_hunk_info;

/* What put the first divergence first when the clock could not
 * (ttd_hunk_info.clock_order). */
enum ttd_clock {
    TTD_CLOCK_SYMPTOM = 1,  /* its thread is where the bad run failed (the
                               thread that crashed, else the one that ended
                               the process) and the other's is not */
    TTD_CLOCK_ESTIMATE      /* nothing else tells: the estimated times */
};

/* Why a divergence that followed the threads' progress was put after
 * another thread's own (ttd_hunk_info.order_dep). */
enum ttd_order {
    TTD_ORDER_UNORDERED = 1, /* nothing it did after its split reached the
                                other thread before that one's split */
    TTD_ORDER_CHANGED        /* the other split's innermost frame is code
                                that changed between the two builds */
};

/* Why a hunk is timing-shaped (ttd_hunk_info.timing). */
enum ttd_timing {
    TTD_TIMING_NONE = 0,
    TTD_TIMING_WAIT,        /* "wait_loop": only one run has them, they
                               repeat calls beside them (a loop ran more
                               times) and they wait: a blocking operation,
                               a wait call that blocked (recorded; an idle
                               gap alone is no evidence) */
    TTD_TIMING_MOVED,       /* "moved": the same calls, whole, are missing in
                               one thread and extra in another (who won a
                               once or lock race did the work) */
    TTD_TIMING_RETRY,       /* "retry": an attempt that did its work in one
                               run failed in the other, which made it again
                               later and then did the same work (a trylock,
                               a try-add to a full queue) */
    TTD_TIMING_PROGRESS,    /* "progress": the runs ended alike, and every
                               thread that differs first went another way
                               holding a lock whose earlier holders differ
                               (it followed how far the other threads had
                               got: a context created because none was free
                               yet); all of those threads' hunks (1.9) */
    TTD_TIMING_CUT,         /* "cut": the end of a thread that was still
                               running when its process exited (no thread
                               end recorded): the other run's thread got
                               further before the exit; both processes
                               exited alike (1.10) */
    TTD_TIMING_GREW,        /* "grew": what a thread did to start one more
                               worker of a pool that did the same work in
                               both runs (ttd_unpaired.grew): the creation,
                               and a call that repeats, call for call, the
                               one made after starting the first worker
                               (1.10) */
    TTD_TIMING_CONTENDED,   /* "contended": a lock's own slow path that one
                               run alone took: whole calls inside a call
                               named like a lock, entering only functions
                               named so (another thread held or wanted the
                               lock at that instant) (1.20) */
    TTD_TIMING_SPIN,        /* "spin": values mode: whole extra iterations
                               of the loop beside them, no wait recorded,
                               every value (arguments, results) as in the
                               iteration before, but a call whose result
                               reads as the run's own coarse clock (us,
                               ms, s), the same all through but rising once
                               where the loop left: a loop that spun until
                               the clock turned
                               (ttd_hunk_info spins, spin_clock) (1.25) */
    TTD_TIMING_INLINED      /* "inlined": two builds; whole calls of a
                               function whose code lies in a library that
                               calls no tracing hook and that both builds
                               share, in one run only, inside a function
                               whose machine code changed and its source
                               did not: one build inlined an instrumented
                               copy, the other called the library
                               (diff/inlined.c) (1.25) */
};

/* "wait_loop", "moved", "retry", "progress", "cut", "grew", "contended",
 * "spin", "inlined", or NULL for TTD_TIMING_NONE. */
const char *ttd_timing_name(int timing);

/* Last events of one other thread just before a divergence. */
typedef struct ttd_other {
    uint32_t thread;        /* thread index in its run */
    const char *name;       /* thread name */
    const ttd_event *events;/* oldest first */
    size_t nevents;
} ttd_other;

/* One event of a cross-thread interleaving: a lock, condition or thread
 * operation (SYNC_OP), or an enter/exit around an unprotected call. */
typedef struct ttd_xev {
    int kind;               /* TTF_EV_SYNC_OP, TTF_EV_ENTER or TTF_EV_EXIT */
    int op;                 /* SYNC_OP: TTF_SOP_* (ttfmt.h); else 0 */
    uint32_t thread;        /* thread index in its run */
    int64_t pair;           /* index in ttd_result.pairs of its thread, -1 */
    uint64_t time_ns;       /* ns since its run's start */
    const char *object;     /* SYNC_OP: "mutex#1", "cond#2", "thread #3" (the
                               run's objects numbered by first use, per kind);
                               else NULL */
    const char *func;       /* ENTER/EXIT: the function; SYNC_OP: the
                               innermost open function of the thread, "" */
    const char *within;     /* SYNC_OP: the function the operation is named
                               by, its innermost open call that is not a lock
                               wrapper (a word lock, mutex... in its name:
                               std::mutex::lock, MutexLock::MutexLock), the
                               one that took the lock through them; = func
                               when none is; NULL when not known (1.14) */
} ttd_xev;

/* The order of the threads around a divergence (traces with SYNC_OP
 * records, TTF_HEADER_SYNC). */
typedef struct ttd_interleave {
    const ttd_xev *window[2];   /* last operations of all threads before the
                                   split, per run, oldest first */
    size_t nwindow[2];
    uint64_t ops[2];            /* operations before the split, per run */
    int order_differs;          /* 1: an object saw its operations in another
                                   thread order (or count) in the two runs */
    const char *order_object;   /* that object (numbered as in the good run) */
    uint64_t order_index;       /* position in its operation sequence, from 0 */
    ttd_xev order[2];           /* the operation there in each run (kind 0:
                                   the run had no more operations on it) */
    int unprotected;            /* 1: a bad-run call took no lock where every
                                   good-run call of that function took one */
    const char *unprot_func;    /* the function */
    const char *unprot_lock;    /* the lock its good-run calls all took */
    ttd_xev unprot_call;        /* its ENTER in the bad run (thread, time) */
    uint64_t unprot_end_ns;     /* when it returned */
    uint64_t good_calls;        /* good-run calls of it (all took the lock) */
    int overlapped;             /* 1: another thread was inside the same
                                   function when it returned (overlap) */
    ttd_xev overlap;            /* that thread's ENTER (bad run) */
    const ttd_xev *during;      /* what the other threads did meanwhile: their
                                   calls of the same function and their
                                   operations, oldest first */
    size_t nduring;
    int shared;                 /* 1: in a run's window, two or more threads
                                   operated on one object (the order can
                                   matter); 0: each object had one thread
                                   (1.8) */
} ttd_interleave;

/* Everything shown about one hunk. */
typedef struct ttd_divergence {
    size_t hunk;            /* index in ttd_result.hunks */
    size_t pair;            /* index in ttd_result.pairs */
    uint64_t good_index;    /* as in the hunk */
    uint64_t bad_index;
    uint64_t good_time_ns;  /* time at the split in each run */
    uint64_t bad_time_ns;
    const ttd_frame *stack; /* common call stack, outermost first: the traced
                               frames (an ENTER each) */
    size_t nstack;
    const ttd_frame *frames; /* the same with the inlined frames between and
                               below them (call sites through the debug
                               info), outermost first; = stack when none
                               (1.8) */
    size_t nframes;
    const ttd_lines *lines; /* the deciding line, NULL when the calls carry
                               no call sites or no debug info (1.8) */
    const ttd_event *before;/* last common events (context), oldest first */
    size_t nbefore;
    const ttd_event *good;  /* good-only events, at most max_lines */
    size_t ngood;
    uint64_t good_more;     /* good-only events not in good[] */
    const ttd_event *bad;   /* bad-only events, at most max_lines */
    size_t nbad;
    uint64_t bad_more;      /* bad-only events not in bad[] */
    const ttd_event *crash; /* the bad run's crash if it died in this hunk */
    const ttd_other *others[2]; /* other threads just before, per run */
    size_t nothers[2];
    const ttd_suspect *suspects; /* best first, at most options.suspects */
    size_t nsuspects;
    const ttd_interleave *interleave; /* thread order before the split,
                               NULL without SYNC_OP records (first
                               divergence only) */
    int noise;              /* TTD_NOISE_*: why it may be timing noise */
    const char *noise_calls;/* TTD_NOISE_WAIT: the waiting calls, "a, b" */
    const ttd_cause *chain; /* first divergence: why the calls part, earliest
                               cause first, the split last (1.7); NULL for
                               the other hunks */
    size_t nchain;
    const char *chain_end;  /* why the chain stops where it does ("no
                               earlier value differs", "values not
                               recorded"...), NULL with no chain */
    const char *build_artifact; /* two builds: the function of the first
                               differing event when that difference looks
                               like an artifact of the build rather than of
                               the run (instrumented in one build only: an
                               inline function from a header), else NULL */
} ttd_divergence;

/* What a value divergence is about. */
enum ttd_value_what { TTD_VAL_RETURN = 1, TTD_VAL_ARG };

/* A value divergence: the first pair of aligned calls (same place in both
 * runs' call sequences) whose comparable return value or argument differs
 * (integers, enums, bools exactly; pointers as NULL / non-NULL). */
typedef struct ttd_value_diff {
    size_t pair;            /* index in ttd_result.pairs */
    int what;               /* TTD_VAL_RETURN or TTD_VAL_ARG */
    int arg;                /* ARG: parameter index, 0 = first */
    const char *function;   /* the function called */
    const char *param;      /* ARG: parameter name ("" if unnamed) */
    const char *type;       /* the value's declared type ("int", "node *") */
    int cls;                /* TTF_VC_* of that type */
    const char *file;       /* the function's source file, NULL if unknown */
    int line;               /* its line, 0 if unknown */
    uint64_t good_raw;      /* the registers as recorded */
    uint64_t bad_raw;
    const char *good_value; /* as text: "NULL", "-22", "0x7ffd... " */
    const char *bad_value;
    int good_is_code;       /* 1: an unsigned 64-bit value within 4096 of */
    int bad_is_code;        /* 2^64 (ttf_value_errcode): an error code */
    int64_t good_code;      /* then its signed form: -20 for */
    int64_t bad_code;       /* 18446744073709551596 */
    uint64_t good_index;    /* key index of the call's ENTER (ARG) or EXIT */
    uint64_t bad_index;     /* (RETURN) in each thread */
    uint64_t good_time_ns;  /* when, in each run */
    uint64_t bad_time_ns;
    int before_split;       /* 1: earlier than the first control-flow
                               divergence (or there is none): it is the
                               first divergence; 0: the calls parted first */
    const char *caller;     /* the function that made the call, in the bad
                               run; NULL when it is the thread's first
                               traced call (1.8) */
    const ttd_frame *stack; /* the bad run's call stack at the call,
                               outermost first, the caller last (the
                               function called is not in it); NULL when
                               not known (1.8) */
    size_t nstack;          /* frames in stack */
    int is_string;          /* 1: a char * or std::string argument compared
                               by its recorded first bytes (format 1.6);
                               good_value and bad_value are them, quoted
                               ("\"cc\"", ttf_string_format) (1.11) */
} ttd_value_diff;
/* Why a divergence may be timing noise, not the failure. */
enum ttd_noise {
    TTD_NOISE_NONE = 0,
    TTD_NOISE_WAIT          /* its calls poll or sleep (a wait loop ran a
                               different number of times) */
};

/* What happened to a function's machine code between two builds. */
enum ttd_code_status {
    TTD_CODE_CHANGED = 1,   /* in both builds, its code differs */
    TTD_CODE_ADDED,         /* only in the bad run's build */
    TTD_CODE_REMOVED        /* only in the good run's build */
};

/* A function whose machine code differs between the good and the bad
 * run's builds (compared with addresses normalised: diff/codediff.c). */
typedef struct ttd_code_change {
    const char *function;   /* its name as the report shows it */
    const char *module;     /* its file's name ("prog", "libfoo.so") */
    int status;             /* TTD_CODE_* */
    int artifact;           /* 1: instrumented in one build only (see
                               ttd_divergence.build_artifact) */
} ttd_code_change;

/* One run (trace) as a whole. */
typedef struct ttd_run_info {
    const char *path;       /* trace file name (a copy, owned by the result) */
    int64_t pid;            /* recorded process id */
    const char *exe;        /* executable ("" if unknown) */
    int argc;               /* command line */
    const char *const *argv;
    uint64_t start_realtime_ns; /* CLOCK_REALTIME at start */
    uint64_t duration_ns;   /* last event - first */
    uint64_t events;        /* decodable events, all threads */
    size_t threads;         /* threads in the trace */
    int closed;             /* 1: clean end recorded */
    int exit_status;        /* valid when closed */
    const ttd_event *crash; /* the crash event, NULL if none */
    size_t nnotices;        /* reader and symbol notices (the cut first) */
    const char *const *notices;
    const char *cut;        /* the run's trace was cut (disk full...):
                               "trace cut: disk full after N events; M
                               events could not be written (1 thread cut)"
                               (ttf_cut_text); NULL if not. A thread's
                               events past its cut are never a divergence */
    const uint8_t *build_id;/* the program's build-id (its module whose path
                               is exe, else the first; a copy owned by the
                               result), NULL if none */
    size_t build_id_len;    /* bytes of build_id */
    unsigned chaos;         /* TTF_PROC_CHAOS*: run under libttcap's chaos
                               mode (ttrec --chaos); 0 = not */
    uint64_t chaos_seed;    /* its seed (TTCAP_CHAOS=seed repeats the
                               perturbation), when chaos != 0 */
} ttd_run_info;

/* Whether the two runs are of the same program (ttd_result.program). */
enum ttd_program {
    TTD_PROGRAM_SAME = 0,   /* same executable path and build-id (or unknown) */
    TTD_PROGRAM_BUILD,      /* same path, another build-id: two builds */
    TTD_PROGRAM_OTHER       /* different executables */
};

/* ---- the verdict (issues 31, 33) ----------------------------------------- */

/* What the runs did, in one word (ttd_verdict.status). */
enum ttd_verdict_status {
    TTD_VERDICT_SAME = 0,       /* "same": same calls, same outcome */
    TTD_VERDICT_NONDET,         /* "nondeterministic": same calls and outcome,
                                   only values no input decides differ */
    TTD_VERDICT_DIVERGED,       /* "diverged": the calls part */
    TTD_VERDICT_OUTCOME         /* "outcome_differs": same calls, another end */
};

/* What kind of cause the verdict names (ttd_place.kind of its cause). */
enum ttd_cause_of {
    TTD_COF_COUNT = 1,      /* "count": a call made more or fewer times than
                               in every passing run */
    TTD_COF_VALUE,          /* "value": a value on the cause chain */
    TTD_COF_ERROR_ORIGIN,   /* "error_origin": where ordinary results became
                               a failure */
    TTD_COF_RACE,           /* "race": an unprotected or check-then-act
                               window only in the bad run */
    TTD_COF_ORDER,          /* "order": another thread's divergence first */
    TTD_COF_CODE,           /* "code_changed": two builds */
    TTD_COF_SPLIT,          /* "split": nothing earlier, the split itself */
    TTD_COF_DEADLOCK,       /* "deadlock": the bad run hung in a cycle of
                               threads each waiting for a lock the next
                               holds (1.13) */
    TTD_COF_HANG,           /* "hang": the bad run hung with a thread
                               waiting for something that never came
                               (1.13) */
    TTD_COF_ANSWER,         /* "answer": no values recorded: the call whose
                               yes/no or status answer the split's branch
                               came right after (TTD_EV_ANSWER) (1.15) */
    TTD_COF_WRITTEN         /* "written": data a call wrote into an object
                               early, read back later by the split's frame
                               or a getter on the chain (TTD_EV_WRITTEN)
                               (1.18) */
};

/* How sure the verdict is (ttd_verdict.confidence). */
enum ttd_confidence {
    TTD_CONF_UNKNOWN = 0,   /* "unknown": the evidence stops (stops_at) */
    TTD_CONF_POSSIBLE,      /* "possible" */
    TTD_CONF_LIKELY         /* "likely" */
};

/* "same", "count", "likely"... for the enums above; "?" if unknown. */
const char *ttd_verdict_status_name(int status);
const char *ttd_cause_of_name(int kind);
const char *ttd_confidence_name(int confidence);

/* A place the verdict names: its cause or its symptom. */
typedef struct ttd_place {
    int kind;               /* cause: TTD_COF_*; symptom: 0 */
    const char *function;   /* the function ("" if none: an exit status) */
    const char *thread;     /* its thread's name in the bad run, NULL if none */
    int64_t pair;           /* index in ttd_result.pairs, -1 if none */
    const char *file;       /* the function's source file, NULL if unknown */
    int line;               /* its line, 0 if unknown */
    uint64_t bad_index;     /* key index (bad run) of the event, UINT64_MAX
                               if none */
    const char *text;       /* the place in words (`quoted` names) */
    const char *decided_by; /* cause: the branch read a value no input
                               decides, and nothing else that differs
                               (ttd_cause.nondet: "a clock value"); NULL */
    const char *label;      /* thread in words: `thread`, or "#3 app" when
                               another pair's thread has that name too;
                               NULL if no thread (1.16) */
    const char *inlined;    /* cause TTD_COF_CODE: the function the compiler
                               inlined into `function` whose source changed
                               between the builds, no out-of-line one's
                               having changed: the change is its, and sits
                               in function's code; else NULL (1.22) */
} ttd_place;

/* A call whose count in the bad run no passing run had. */
typedef struct ttd_count {
    const char *function;
    uint64_t bad;           /* calls in the bad run */
    uint64_t good_min;      /* fewest and most calls in a passing run */
    uint64_t good_max;
    uint32_t good_runs;     /* passing runs compared (1 without baselines) */
} ttd_count;

/* Why a difference is not counted as a divergence (ttd_hidden.kind). */
enum ttd_hidden_kind {
    TTD_HIDDEN_TIMING = 1,  /* "timing" */
    TTD_HIDDEN_POOL,        /* "pool" */
    TTD_HIDDEN_PROGRESS,    /* "progress" */
    TTD_HIDDEN_NONDET,      /* "nondeterministic" */
    TTD_HIDDEN_BASELINE,    /* "baseline" */
    TTD_HIDDEN_BUILD        /* "build": how the two builds inlined (1.25) */
};

/* A difference not counted as a divergence. */
typedef struct ttd_hidden {
    int kind;               /* TTD_HIDDEN_* */
    int64_t pair;           /* index in ttd_result.pairs, -1 if none */
    const char *function;   /* NULL if none */
    const char *text;       /* "not counted as a divergence because ..." */
    const char *evidence;   /* the recorded fact */
    int timing;             /* a hunk's TTD_TIMING_* when it is one, else
                               TTD_TIMING_NONE (1.20) */
} ttd_hidden;

/* ---- a hang (issue 33, diff/hang.c) ------------------------------------ */

/* A thread of the bad run whose trace ends inside a blocking operation: a
 * lock it never got (TTF_SOP_LOCKING), a condition wait that never
 * returned (TTF_SOP_WAIT), a join that never returned
 * (TTF_SOP_JOINING). (1.13) */
typedef struct ttd_blocked {
    int64_t pair;           /* index in ttd_result.pairs, -1 if none */
    uint32_t thread;        /* its index in the bad run */
    const char *thread_name;/* its name ("#N" when unnamed) */
    int op;                 /* TTF_SOP_LOCKING, TTF_SOP_WAIT, TTF_SOP_JOINING */
    const char *object;     /* what it waited for: "mutex#2", "cond#1" (the
                               bad run's objects numbered by first use, per
                               kind), "thread #1" (a joined thread) */
    const char *function;   /* the innermost traced function it waited in
                               (for a lock: its caller past lock wrappers,
                               as ttd_xev within) */
    const char *file;       /* that function's source, NULL if unknown */
    int line;               /* its line, 0 if unknown */
    uint64_t time_ns;       /* when the wait began */
    int good_done;          /* 1: the good run's partner thread completed
                               the same operation (more locks, wake-ups or
                               joins than this thread got) */
    int64_t waits_for;      /* LOCKING: the index in ttd_hang.blocked of
                               the thread holding the mutex (taken and not
                               released), JOINING: of the joined thread,
                               when it is blocked too; -1 if none */
    const char *holder;     /* LOCKING: the holder's name, NULL if none */
    const char *taken_in;   /* LOCKING: the function the holder took the
                               mutex in (its caller past lock wrappers, as
                               ttd_xev within), NULL if unknown */
} ttd_blocked;

/* Why the bad run hung (ttd_hang.cause). */
enum ttd_hang_cause {
    TTD_HANG_UNEXPLAINED = 0, /* threads waited; no rule names why */
    TTD_HANG_DEADLOCK,      /* a cycle of threads, each waiting for a lock
                               the next holds */
    TTD_HANG_LOST_WAKEUP,   /* a condition signalled before its waiter
                               waited, never after */
    TTD_HANG_NEVER,         /* a wait for a signal (or a join of a thread)
                               that never came: the thread that signalled
                               in the good run did not */
    TTD_HANG_HELD           /* a thread waited (a condition, a semaphore, a
                               join) holding a lock another blocked thread
                               waited for, and no thread of the bad run was
                               left running to end its wait (1.14) */
};

/* The bad run ended (it was killed: no clean end, no crash) while threads
 * waited (ttd_result.hang). (1.13) */
typedef struct ttd_hang {
    const ttd_blocked *blocked; /* the bad run's blocked threads, by index */
    size_t nblocked;
    int cause;              /* TTD_HANG_* */
    size_t root;            /* the blocked thread the cause is about: the
                               cycle's first (DEADLOCK), the waiter; HELD:
                               the one that waited holding the lock */
    size_t ncycle;          /* DEADLOCK: threads in the cycle, from root
                               following waits_for */
    int complete;           /* DEADLOCK: every thread of the cycle is seen
                               waiting and every lock's holder known */
    const char *other;      /* LOST_WAKEUP: the thread that signalled before
                               the wait; NEVER: the thread that signalled in
                               the good run (or the joined thread); HELD: the
                               thread that waited for the lock; NULL */
    int64_t other_pair;     /* its index in ttd_result.pairs, -1 */
    const char *other_function; /* LOST_WAKEUP: the function that
                               signalled; NEVER: the one that signalled in
                               the good run; NULL */
    uint64_t other_time_ns; /* LOST_WAKEUP: the signal's time (bad run) */
    const char *other_last; /* NEVER: the other thread's last call in the
                               bad run, NULL if none */
    int other_ended;        /* NEVER: 1 the other thread's trace ended
                               outside any call (it returned: exited) */
    int64_t other_blocked;  /* NEVER: the other thread's index in blocked
                               when it is blocked itself, else -1 */
    int64_t waiter;         /* HELD: the index in blocked of the thread that
                               waited for the lock root held, else -1 (1.14) */
    int unlocked;           /* LOST_WAKEUP: 1 when the waiter held its
                               wait's mutex from before the signal through
                               to the wait: the signal came between its check
                               and its wait, sent without that lock (1.19) */
} ttd_hang;

#define TTD_VERDICT_EVIDENCE_MAX 2

/* The verdict: what the runs did, the likely cause and how sure, then the
 * symptom (where the calls part). Built once, when the diff is done, from
 * every kind of evidence (diff/verdict.c); every report opens with it.
 * (1.10) */
typedef struct ttd_verdict {
    int status;             /* TTD_VERDICT_* */
    int exit;               /* ttdiff's exit status for it: 0 or 1 */
    const ttd_place *cause; /* the likely cause, NULL when status is same or
                               nondeterministic */
    const char *const *evidence; /* one or two sentences for it, strongest
                               first */
    size_t nevidence;
    int confidence;         /* TTD_CONF_* */
    const char *stops_at;   /* TTD_CONF_UNKNOWN: where the evidence stops,
                               else NULL */
    const ttd_place *symptom; /* where the calls part (the first divergence),
                               or the exit status (outcome_differs); NULL when
                               the runs did not diverge */
    const ttd_count *counts;/* calls whose count no passing run had */
    size_t ncounts;
    const ttd_hidden *hidden; /* differences not counted as divergences */
    size_t nhidden;
} ttd_verdict;

typedef struct ttd_result {
    ttd_run_info runs[2];       /* TTD_GOOD, TTD_BAD */
    int program;                /* TTD_PROGRAM_*: the runs' executables compared
                                   (still diffed, by function name, when they
                                   differ) */
    int diverged;               /* 1 if any pair has a hunk no good run shows */
    const ttd_pair *pairs;      /* thread pairs, in good-run creation order */
    size_t npairs;
    const ttd_unpaired *unpaired;
    size_t nunpaired;
    const ttd_hunk_info *hunks; /* resolved hunks: the divergences ordered by
                                   bad-run time, then the expected ones
                                   (also in good runs) by bad-run time */
    size_t nhunks;              /* all of them */
    size_t nexpected;           /* the expected ones, hunks[nhunks-nexpected..] */
    uint64_t hunks_total;       /* divergences of all pairs (>= nhunks - nexpected) */
    uint64_t expected_total;    /* expected hunks of all pairs (>= nexpected) */
    const ttd_divergence *first;/* the first divergence, NULL if none */
    const ttd_run_info *baselines; /* the baseline good runs (path, pid...;
                                   no crash event) */
    size_t nbaselines;
    const char *const *siblings; /* with no baselines: traces beside the good
                                   one named like it but for its numbers
                                   (more good runs?), at most 8 */
    size_t nsiblings;
    ttd_options options;        /* as used (regex strings owned by the caller;
                                   baselines copied, owned by the result) */
    int values;                 /* 1: both runs recorded call values and
                                   they were compared */
    const char *values_note;    /* why not (values == 0), else NULL: "the
                                   good run has no values (compiled without
                                   -pg -mfentry)", "--no-values", ... */
    const ttd_value_diff *value_first; /* the first value divergence (earliest
                                   in the bad run), NULL if none */
    uint64_t values_compared;   /* values compared, all pairs */
    uint64_t values_noise;      /* differing values ignored because they also
                                   vary between good runs (--baseline) */
    ttd_outcome outcome;        /* how the runs ended; a different end with
                                   the same calls is a divergence (1.7) */
    uint64_t values_ignored;    /* differing values not taken as causes by
                                   themselves: clocks and counters, values
                                   that look like addresses or time stamps
                                   (explain.c) (1.7) */
    const ttd_value_diff *value_others; /* other value differences that do
                                   not lead to the split or the exit status,
                                   earliest first, at most 8 (1.7) */
    size_t nvalue_others;
    const ttd_cause *chain;     /* the cause chain of the outcome: the first
                                   divergence's (first->chain), or with the
                                   same calls, of the exit status (1.7) */
    size_t nchain;
    const char *chain_end;      /* why it stops, NULL with no chain */
    int code_compared;          /* 1: the runs' programs (or a module they
                                   share) are two builds, and their machine
                                   code was compared function by function */
    size_t code_functions;      /* functions found in both builds */
    const ttd_code_change *changed_functions; /* what differs: changed,
                                   then added, then removed, each by module
                                   and name */
    size_t nchanged_functions;
    const char *const *code_notes; /* why some code was not compared: "prog:
                                   the good run's build (build-id 1a2b...)
                                   not found; its code not compared" */
    size_t ncode_notes;
    const ttd_pool *pools;      /* pools of look-alike threads (1.8) */
    size_t npools;
    size_t ntiming;             /* timing-shaped hunks resolved: they follow
                                   the divergences in hunks, before the
                                   expected ones (hunks[nhunks - nexpected -
                                   ntiming .. nhunks - nexpected)) (1.8) */
    uint64_t timing_total;      /* timing-shaped hunks of all pairs (not in
                                   hunks_total) (1.8) */
    const ttd_race *races;      /* races of the bad run, best first (at most
                                   8), when threads are involved: a split
                                   with two threads running, or a caught
                                   failure (1.8); NULL if none */
    size_t nraces;
    uint64_t values_progress;   /* runs that ended alike whose differences
                                   all follow the threads' progress (see
                                   TTD_TIMING_PROGRESS): the thread pairs
                                   whose values differ, not causes; no value
                                   divergence is reported (1.9) */
    const ttd_hunk_info *followed; /* the divergence that came first in the
                                   bad run's time but follows the threads'
                                   progress (order_dep), in hunks right
                                   after the first; NULL if none (1.9) */
    const ttd_verdict *verdict; /* the verdict, never NULL (1.10) */
    uint64_t values_timeout;    /* differing values whose every use ends as
                                   the timeout of an I/O wait woken early in
                                   both runs: a timeout that never expired
                                   decided nothing (not in values_ignored)
                                   (1.10) */
    const char *timeout_evidence; /* the first one's evidence, NULL if none */
    uint64_t values_deadline;   /* differing values whose every use ends as
                                   the timeout of I/O waits that ran to it
                                   in both runs, the values differing by
                                   what each run's own clock readings before
                                   the wait say (timeout = deadline - now,
                                   in the timeout's unit), no call parting
                                   from the wait on: the time left to one
                                   deadline (not in values_ignored) */
    const char *deadline_evidence; /* the first one's evidence, NULL if none */
    uint64_t values_rounded;    /* differing doubles whose every use ends as
                                   the timeout of I/O waits that asked the
                                   same time in both runs (the wait's step
                                   rounded the difference away: libev's
                                   ev_tstamp to whole ms), no call parting
                                   from the wait on (1.26) */
    const char *rounded_evidence; /* the first one's evidence, NULL if none
                                   (1.26) */
    uint64_t values_swapped;    /* differing values of two calls of one
                                   function by one caller that ran in the
                                   other order (each one's good values the
                                   other's bad ones), the order set by a
                                   hunk hidden as timing between them (not
                                   in values_ignored) (1.10) */
    const char *swap_evidence;  /* the first pair's evidence, NULL if none */
    const struct ttd_hang *hang; /* the bad run was killed (no clean end, no
                                   crash) while threads waited: who waited
                                   for what, and why (diff/hang.c); NULL if
                                   not (1.13) */
    uint64_t values_twinned;    /* work items of a pool whose calls or
                                   values differ from their partner's (the
                                   item at their place in the paired
                                   thread) and which another worker of the
                                   good run's pool did, same calls and same
                                   values: which worker took which item,
                                   their values not compared (pools.c)
                                   (1.17) */
    uint64_t values_times;      /* differing integers that are times: in
                                   each run near that run's own
                                   CLOCK_MONOTONIC at the call, apart by
                                   the runs' clock offset (a deadline from
                                   a clock the trace does not show): no
                                   difference (1.17); and (1.25) small
                                   structs of seconds and ns or us passed
                                   by value (a timespec) that are each
                                   run's own clock within a second, the
                                   two runs' distances within a ms */
} ttd_result;

/* ---- the engine --------------------------------------------------------- */

typedef struct ttd_diff ttd_diff;

/* Compare two open traces; both must outlive the ttd_diff. opts NULL means
 * the defaults. Baseline traces (opts->baselines) are opened by path here
 * and closed again before the call returns: every hunk of BAD vs GOOD is
 * checked against what differs between GOOD and each baseline (see
 * engine.c), and hunks that also vary between the good runs are marked
 * expected and never the first divergence. Errors: TT_EINVAL (bad regex,
 * err->msg names the option and the offset), TT_ENOMEM, and reader errors
 * (TT_ECORRUPT..., also of a baseline: err->msg names its file) while
 * decoding. err may be NULL. On error *out is NULL. */
int ttd_diff_traces(const ttf_trace *good, const ttf_trace *bad,
                    const ttd_options *opts, ttd_diff **out, ttf_error *err);

/* The same over two files, opened (and closed by ttd_free) by the engine.
 * The path strings are copied; the caller may free them at once. */
int ttd_diff_files(const char *good, const char *bad,
                   const ttd_options *opts, ttd_diff **out, ttf_error *err);

/* The results. Valid until ttd_free. */
const ttd_result *ttd_get_result(const ttd_diff *d);
/* TT_ENOMEM if anything of d so far (the diff, details and names asked
 * for since) was degraded for want of memory: a name read "?", a notice
 * went missing. 0 otherwise. A tool checks it after rendering. */
int ttd_status(const ttd_diff *d);

/* Details of hunk i of ttd_result.hunks (computed on first call, then kept
 * until ttd_free). Errors: TT_EINVAL (no such hunk), TT_ENOMEM, reader
 * errors. */
int ttd_hunk_detail(ttd_diff *d, size_t i, const ttd_divergence **out);

/* Compute the details of hunks first..first+n-1 together (those not
 * computed yet), so that each thread of each run is read once for all of
 * them rather than once per hunk; ttd_hunk_detail then returns them at
 * once. For a report that shows several hunks. Errors: TT_EINVAL (d NULL
 * or the range past the hunks), TT_ENOMEM, reader errors. */
int ttd_hunk_details(ttd_diff *d, size_t first, size_t n);

/* Release everything. NULL is fine. */
void ttd_free(ttd_diff *d);

/* ---- process trees (diff/ptree.c; ttdiff GOOD_DIR BAD_DIR, issue 34) ----- */

enum ttd_proc_result {
    TTD_PROC_SAME = 0,          /* same calls, same end */
    TTD_PROC_DIVERGED,          /* the calls part (the engine's divergence) */
    TTD_PROC_EXIT_DIFFERS,      /* same calls (or untraced), another end */
    TTD_PROC_GOOD_ONLY,         /* in the good run only */
    TTD_PROC_BAD_ONLY,          /* in the bad run only */
    TTD_PROC_NOT_TRACED         /* paired, same end, no traces: lifecycle only */
};

/* A process of the trees (a chain of images of one pid), paired or not. */
typedef struct ttd_tree_proc {
    int64_t parent;             /* index in procs, -1 a root */
    const char *name;           /* "exe args..." of its last image, shortened */
    const char *key;            /* the name normalised: what pairs it */
    int pool;                   /* one of look-alike siblings (a pool) */
    int selected;               /* chosen by --process (when given) */
    int traced;                 /* both sides have a trace */
    const ttf_proc *row[2];     /* its last image per run (TTD_GOOD, TTD_BAD), NULL none */
    const ttf_proc *first_row[2];/* its first image (its start, how it began) */
    const char *trace[2];       /* its trace's path per run, NULL none */
    uint64_t events[2];         /* events per run, when diffed */
    int result;                 /* enum ttd_proc_result */
    uint64_t good_index, bad_index; /* with DIVERGED: the first split's events */
} ttd_tree_proc;

typedef struct ttd_tree_result {
    const char *dir[2];         /* the two folders */
    const ttd_tree_proc *procs; /* tree order: parent before child, siblings by start */
    size_t nprocs;
    size_t paired, traced, good_only, bad_only, exit_differs, diverged;
    int64_t first;              /* the first diverging process, -1 none */
    int64_t shown;              /* the process diff reports: first, else the first
                                   traced pair (-1 none) */
    const ttd_diff *diff;       /* shown's engine diff, NULL when not traced */
} ttd_tree_result;

typedef struct ttd_tree_options {
    const ttd_options *diff;    /* for each pair's engine diff (NULL defaults) */
    const char *process;        /* --process: a regex on names, or a number */
    int64_t process_index;      /* the number (an index in procs), -1 a regex */
    int process_only;           /* 1: only the processes --process chose */
} ttd_tree_options;

typedef struct ttd_tree ttd_tree;

/* Pair the processes of the trees recorded in good_dir and bad_dir (their
 * process tables, ttf_ptable_open) and diff each traced pair. Errors: the
 * table's (TT_EIO no table, TT_ECORRUPT), a trace's, TT_ENOTFOUND (a
 * --process that chooses nothing), TT_ENOMEM; err says which. */
int ttd_tree_diff(const char *good_dir, const char *bad_dir, const ttd_tree_options *o,
                  ttd_tree **out, ttf_error *err);
const ttd_tree_result *ttd_tree_get(const ttd_tree *t);
/* The engine diff of the shown pair, for the renderers' detail calls. */
ttd_diff *ttd_tree_pair_diff(ttd_tree *t);
void ttd_tree_free(ttd_tree *t);

/* ---- one run's races (diff/races.c) -------------------------------------- */

typedef struct ttd_races ttd_races;

/* The races of one run alone, with no good run to compare with (ttdump
 * --races): candidate pairs ranked, best first, at most 8, as in
 * ttd_result.races (run TTD_BAD, good_compared 0, pair -1). t must
 * outlive *out; opts may be NULL (only no_demangle is read). None found
 * (no SYNC_OP records, one thread) is not an error: the list is empty.
 * Errors: TT_EINVAL, TT_ENOMEM, symbol and reader errors (err may be
 * NULL). (1.8) */
int ttd_races_find(const ttf_trace *t, const ttd_options *opts, ttd_races **out,
                   ttf_error *err);
/* The list (n set to its length); valid until ttd_races_free. */
const ttd_race *ttd_races_list(const ttd_races *r, size_t *n);
/* NULL is fine. */
void ttd_races_free(ttd_races *r);

/* "main", "name+start", "name", "start", "order", "content", "hand". */
const char *ttd_paired_by_name(int paired_by);

#ifdef __cplusplus
}
#endif

#endif
