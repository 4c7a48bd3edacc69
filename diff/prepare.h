/*
 * prepare.h - stage 0 of diff/ (diff/STAGES), what every later stage
 * builds on: the normaliser that turns an event into a 64-bit key and
 * names it (normalise.c, with the filters of regex.c and the symbol
 * lookup of a function's source line), the open-frame multiset
 * (kit.h: ttdi_openset) and the pairing of the two runs' threads (pair.c).
 * Internal to libttdiff: names carry ttdi_ and are hidden
 * (-fvisibility=hidden); ttdiff.h is the public side.
 */
#ifndef TTDI_PREPARE_H
#define TTDI_PREPARE_H

#include "kit.h"
#include "ttdiff.h"

/* ---- per-address cache: records of a ttdi_table (kit.h) ----------------- */

typedef struct ttdi_slot {
    uint64_t id;        /* the table's key: address, or site id | TTDI_SITE_BIT */
    uint64_t hash;      /* XXH3 of what identifies it (name; site fmt+func) */
    const char *name;   /* function name (symbols' or call site's string) */
    int keep;           /* 1: passes --function/--exclude */
    uint64_t target;    /* call sites across builds: the function the call
                           there calls, when it is a direct call; else 0 */
} ttdi_slot;

#define TTDI_SITE_BIT (1ull << 63)

/* ---- normaliser: one per run ------------------------------------------- */

/* A module's mapped extent and lifetime (ttdi_norm.mods). */
typedef struct ttdi_modrange {
    uint64_t lo, hi;        /* [base, base + size) */
    uint64_t load_ns, unload_ns;
} ttdi_modrange;

typedef struct ttdi_norm {
    const ttf_trace *trace; /* the run */
    ttf_sym *sym;           /* its symbols (owned by the norm) */
    int messages;           /* TTD_MSG_* */
    const ttd_regex *keep;  /* --function, NULL = all */
    const ttd_regex *drop;  /* --exclude, NULL = none */
    ttdi_table funcs;       /* ttdi_slot: ENTER/EXIT by address (scopes by site) */
    ttdi_table sites;       /* ttdi_slot: MESSAGE/MARK by site id */
    char *buf;              /* formatted message text */
    size_t buflen;          /* its size */
    int oom;                /* 1: a name or text read "?" for want of
                               memory (ttd_status) */
    int site_on;            /* ENTER keys carry their call site (ttdi_norm_sites) */
    uint8_t *mod_same;      /* per module: the other run has the same build */
    const struct ttdi_codediff *cd; /* the two builds' changed functions
                               (ttdi_norm_sites), NULL = unknown */
    ttdi_table csites;      /* ttdi_slot: call sites by address: hash = the key part */
    ttdi_modrange *mods;    /* the trace's modules, copied at first use by
                               pointer comparisons (values_ptr.c) */
    size_t nmods;
    int mods_ready;
    uint64_t gaps[4][2];    /* [lo, hi): address ranges that no module's
                               extent meets, at any time (values_ptr.c) */
    unsigned gap_next;      /* the one to replace next */
    uint64_t *epochs;       /* the times a module was loaded or unloaded,
                               ascending: between two, every address is
                               in the same module (values_ptr.c) */
    size_t nepochs;
    uint64_t ep_lo, ep_hi;  /* the last epoch asked, [ep_lo, ep_hi): its
                               times (ttdi_epoch_at; empty at first) */
    uint32_t ep;            /* and its number */
    ttdi_dmcache fns;       /* (function address, epoch) -> its signature
                               and comparator kind as asked (values.c) */
    ttdi_dmcache ptrs;      /* pointer pairs compared with this run as the
                               second, and their answers (values_ptr.c) */
    ttdi_dmcache plans;     /* comparison plans of function pairs with this
                               run as the second (values.c vplan) */
    char *real_path;        /* the trace's path resolved (realpath), NULL if
                               it cannot be: the strings' own-path rule
                               (values.c) */
    ttdi_map cmps;          /* function address -> 1 + its TTF_CMPRET_*
                               (format's ttf_sym_code_cmpret): comparators'
                               results compared by sign (values.c) */
} ttdi_norm;

/* Bits of an ENTER key that hold its call site (format 1.2): the low 20.
 * An EXIT key has them 0, so that the EXIT closing a call is found from
 * its ENTER's key whatever site that had (ttdi_norm_exit_of). */
#define TTDI_SITE_MASK ((1ull << 20) - 1)

/* Set up n over trace t (opens its symbols, C++ names demangled unless
 * no_demangle). 0, TT_ENOMEM or a symbol error. */
int ttdi_norm_init(ttdi_norm *n, const ttf_trace *t, int messages,
                   const ttd_regex *keep, const ttd_regex *drop,
                   int no_demangle);
void ttdi_norm_free(ttdi_norm *n);

/* Call sites in the keys (format 1.2; both runs must be set up alike):
 * with on, and both n's run and other recorded sites, an ENTER's key also
 * says where it was called from, so that two calls of one function from
 * different places are different events. The site is named so that it
 * compares across runs: in a module of the same build in both runs (same
 * build-id; same path and size without one) by its offset in the module
 * (ASLR moves only the base); in a module rebuilt between them by the
 * calling function and which of its call instructions it is, counted in
 * its machine code (code moved elsewhere, lines moved above it, a function
 * inlined from elsewhere change neither), when cd (codediff.h, the two
 * builds compared) says that function's code is the same in both builds;
 * in a function that changed (or is unknown, or without its code) not at
 * all: the call matches by its function, as with on = 0 (a function
 * inlined in one build only moves its callees' sites into its callers,
 * whose code then differs).
 * 0 or TT_ENOMEM. */
struct ttdi_codediff;
int ttdi_norm_sites(ttdi_norm *n, const ttf_trace *other, int on,
                    const struct ttdi_codediff *cd);
/* The same for a third run (a baseline) set up as ref was: on if ref's are
 * and n's run has sites; a module named by offset where ref names the same
 * build's so, else by caller and line. 0 or TT_ENOMEM. */
int ttdi_norm_sites_like(ttdi_norm *n, const ttdi_norm *ref);

/* "parse:330" (the calling function and the call's line) or "parse+0x3c"
 * for an ENTER's call site, into buf; "" when sites are off for n or the
 * event has none. Returns buf. */
const char *ttdi_norm_site_text(ttdi_norm *n, const ttf_event *ev, char *buf,
                                size_t len);

/* The key of ev: 1 with *key set if it takes part in the alignment, 0 if
 * it is filtered out or never compared (thread, module, sync events), or
 * TT_ENOMEM. */
int ttdi_norm_key(ttdi_norm *n, const ttf_event *ev, uint64_t *key);
/* ttdi_norm_key through a direct-mapped cache of the recent ENTER and
 * EXIT keys (TTDI_KEYHOT slots, zeroed before the first use; the
 * normaliser's answer depends on the kind, the function and an ENTER's
 * call site only): a pass that asks for every key of a thread (the timing
 * scan) looks up the normaliser's tables per miss, not per event. */
#define TTDI_KEYHOT 256
typedef struct ttdi_keyhot {
    uint64_t addr, call_site;
    uint32_t site;
    int kind;               /* 0: an empty slot */
    int keep;               /* ttdi_norm_key's answer */
    uint64_t key;
} ttdi_keyhot;
/* ttdi_norm_key of ev into *key, its answer kept in slot h when whole. */
int ttdi_norm_key_miss(ttdi_norm *n, ttdi_keyhot *h, const ttf_event *ev, uint64_t *key);
static inline int ttdi_norm_key_hot(ttdi_norm *n, ttdi_keyhot *hot, const ttf_event *ev,
                                    uint64_t *key)
{
    uint64_t cs = ev->kind == TTF_EV_ENTER ? ev->call_site : 0;
    ttdi_keyhot *h = &hot[ttdi_slot8(ev->addr ^ (uint64_t)ev->site << 32 ^ cs * 3 ^
                                     (uint64_t)ev->kind)];

    if (h->kind == ev->kind && h->addr == ev->addr && h->site == ev->site &&
        h->call_site == cs) {   /* never a slot of another kind: ENTER and EXIT only */
        *key = h->key;
        return h->keep;
    }
    return ttdi_norm_key_miss(n, h, ev, key);
}
/* ttdi_norm_key and ttdi_norm_func of ENTER ev in one look-up: 1 with
 * *key and *name set if it takes part, 0 if filtered out (*key, *name set
 * all the same), or TT_ENOMEM. */
int ttdi_norm_enter(ttdi_norm *n, const ttf_event *ev, uint64_t *key, const char **name);
/* ttdi_norm_key's answer without the key: 1 if ev takes part, 0 if not,
 * or TT_ENOMEM. With no --function/--exclude, an ENTER/EXIT needs no
 * look-up (the walks' fast path). */
static inline int ttdi_norm_kept(ttdi_norm *n, const ttf_event *ev)
{
    uint64_t key;

    if ((ev->kind == TTF_EV_ENTER || ev->kind == TTF_EV_EXIT) && !n->keep && !n->drop)
        return 1;   /* inline: a run walk asks for every event */
    return ttdi_norm_key(n, ev, &key);
}

/* ttdi_norm_kept of a normaliser with no --function/--exclude, with no
 * look-up and nothing written: an aside walk's (ttdi_walk_open_aside),
 * which reads a run in a thread of its own while the caller uses n. */
static inline int ttdi_norm_kept_pure(const ttdi_norm *n, const ttf_event *ev)
{
    switch (ev->kind) {
    case TTF_EV_ENTER:
    case TTF_EV_EXIT:
    case TTF_EV_CRASH:
        return 1;
    case TTF_EV_MESSAGE:
    case TTF_EV_MARK:
        return n->messages != TTD_MSG_OFF;
    default:
        return 0;
    }
}

/* The function name of an ENTER/EXIT event (cached). */
const char *ttdi_norm_func(ttdi_norm *n, const ttf_event *ev);
/* The same for function addr (or scope site, addr 0) of the module loaded
 * at time_ns, without an event at hand (a frame, a call kept aside). */
const char *ttdi_norm_func_at(ttdi_norm *n, uint64_t addr, uint32_t site, uint64_t time_ns);
/* 1 if name reads as a lock wrapper (a word lock, unlock, mutex, spin...
 * in snake_case or CamelCase: pthread_mutex_lock, LockGuard; not
 * read_block). */
int ttdi_lock_wrapper(const char *name);

/* The formatted text of a MESSAGE/MARK event in n->buf ("?" on failure). */
const char *ttdi_norm_text(ttdi_norm *n, const ttf_event *ev);

/* Source file and line of a function (addr) or scope (site) of n's run,
 * through the module loaded at time_ns (NULL, 0 if unknown). */
void ttdi_norm_locate(ttdi_norm *n, uint64_t addr, uint32_t site,
                      uint64_t time_ns, const char **file, int *line);

/* The EXIT key that closes a call entered with ENTER key k (keys are the
 * function's hash with the kind's mixed in, an ENTER's with its call site
 * in the TTDI_SITE_MASK bits, which an EXIT's has 0: normalise.c).
 * Inline: the tree builder asks once per call. */
static inline uint64_t ttdi_norm_exit_of(uint64_t enter_key)
{
    return (enter_key ^ ttfi_mix64((uint64_t)TTF_EV_ENTER) ^
            ttfi_mix64((uint64_t)TTF_EV_EXIT)) & ~TTDI_SITE_MASK;
}

/* ---- thread pairing ----------------------------------------------------- */

/* One thread as the pairing sees it. */
typedef struct ttdi_tinfo {
    uint32_t index;     /* creation order */
    const char *name;   /* last name, else first name, else "" */
    const char *first;  /* first name, NULL if none */
    const char *start;  /* first function entered, "" if none */
    uint64_t events;    /* raw events of the thread */
    uint64_t digest;    /* its calls in order as one hash (ttf_thread) */
    int64_t partner;    /* thread index in the other run, -1 if none */
    int paired_by;      /* TTD_PAIR_* when paired */
    int tie;            /* TTD_PAIR_CONTENT: the round whose rule tied */
    double score;       /* TTD_PAIR_CONTENT: similarity 0..1, else -1 */
    double second;      /* best other candidate's score, -1 if none */
    float *sketch;      /* content histogram, NULL until a tie needs it
                           (malloc'd: ttdi_tinfo_free), then the values'
                           histogram (pair.c) */
    int capped;         /* 1: the sketch stopped at its cap (it read
                           the thread's first kept events only) */
} ttdi_tinfo;

/* What ttdi_pair_threads works on. */
typedef struct ttdi_pairing {
    ttdi_tinfo *g, *b;  /* the threads of both runs, by index */
    size_t ng, nb;
    ttdi_norm *gn, *bn; /* their normalisers (content sketches) */
    const ttd_hand_pair *hand; /* pairs given by hand, applied first */
    size_t nhand;
    const ttd_hand_pair *bad_hand; /* out: the hand pair refused */
    int two;            /* sketch both runs' threads at once (ttdi_both) */
} ttdi_pairing;

/* Pair the threads of two runs; fills partner, paired_by, tie, score and
 * second on both sides (see pair.c). Deterministic. 0, TT_EINVAL (a hand
 * pair names a missing or already paired thread: p->bad_hand), TT_ENOMEM
 * or a reader error while sketching. */
int ttdi_pair_threads(ttdi_pairing *p);

/* Thresholds of an uncertain content pair: a score below LOW, or another
 * candidate within MARGIN of it unless both look alike (score >= ALIKE). */
#define TTDI_PAIR_LOW 0.8
#define TTDI_PAIR_MARGIN 0.05
#define TTDI_PAIR_ALIKE 0.98

/* The order of a tied candidate pair (g, b) whose calls scored `score`
 * (both sketched): score plus the values' part (pair.c VALUE_WEIGHT x the
 * cosine of their values histograms, 0 without values). */
double ttdi_pair_order(const ttdi_tinfo *g, const ttdi_tinfo *b, double score);

/* 1 if a content pair with this score and runner-up is uncertain. */
int ttdi_pair_uncertain(double score, double second);

/* 1 when threads g and b (of two runs) were both sketched and their
 * sketches or event counts differ, or a sketch stopped at its cap and
 * their digests differ (a difference past what the
 * sketches read): a pair that already looks different (likely to part:
 * the aligner reads it by run walks), else 0. */
int ttdi_tinfo_differ(const ttdi_tinfo *g, const ttdi_tinfo *b);

/* The kept ENTERs a sketch reads per thread at most (pair.c
 * SKETCH_EVENTS; a test lowers it). */
extern uint64_t ttdi_sketch_events;
/* Free the sketches of t[0..n). */
void ttdi_tinfo_free(ttdi_tinfo *t, size_t n);

/* ---- a run prepared (pair.c) -------------------------------------------- */

/* One run being compared. */
typedef struct ttdi_run_state {
    const ttf_trace *t;     /* the trace */
    ttf_trace *owned;       /* the same, when the engine opened it */
    ttdi_norm norm;         /* its normaliser and symbols */
    ttdi_tinfo *ti;         /* its threads, by index */
    size_t nt;              /* thread count */
    int64_t crash_thread;   /* thread of its CRASH, -1 if unknown/none */
    struct ttdi_marks *marks; /* per thread: where run walks stood
                               (walker.c), NULL until one left a mark */
    uint64_t mark_every;    /* kept events between marks at first; 0:
                               TTDI_MARK_EVERY (tests make it small) */
    struct ttdi_syncs *syncs; /* per thread: the SYNC_OPs run walks read
                               (walker.c), NULL until one opened */
    int count_calls;        /* 1: run walks count the ENTERs per function
                               of what they first read (ttdi_walk_calls) */
    int lock_tap;           /* 1: run walks keep the thread order's lock
                               sets of what they first read (ttdi_walk_tap) */
} ttdi_run_state;

/* Name and start function of each thread of r (r->t and r->norm set):
 * r->ti, r->nt. 0 or a TT_E* code. */
int ttdi_load_threads(ttdi_run_state *r);
/* Thread i of r as reports name it: its name, "#N name" when another
 * thread of r has the same name (issue 33: "#1 counter" and "#2
 * counter", never "counter and counter"), "#N" when it has none;
 * strings in a. */
const char *ttdi_thread_label(const ttdi_run_state *r, struct ttfi_arena *a, uint32_t i);
/* Fill a result's run info for run r opened from path (NULL: its own);
 * strings in a. */
void ttdi_fill_run_info(struct ttfi_arena *a, const ttdi_run_state *r, const char *path,
                        ttd_run_info *ri_out);
/* The two runs' programs compared: TTD_PROGRAM_*. */
int ttdi_same_program(const ttd_run_info *g, const ttd_run_info *b);

/* ---- the one trace walker (walker.c) ------------------------------------ */

/* One open call of a walk. */
typedef struct ttdi_frame_id {
    uint64_t id;            /* address, or site | TTDI_SITE_BIT */
    uint64_t addr;          /* function address (0 for scopes) */
    uint32_t site;          /* scope's call site, 0 for functions */
    int has_values;         /* 1: argregs recorded (beside site: the
                               frame stays 192 bytes with offset) */
    uint64_t time_ns;       /* when it was entered (picks the module) */
    const char *name;       /* function name, NULL until asked
                               (ttdi_walk_frame_name) */
    uint64_t argregs[TTF_VALUE_SLOTS]; /* its arguments (format 1.1, 1.4) */
    uint64_t call_site;     /* its ENTER's call site (format 1.2), 0 = none */
    uint64_t offset;        /* its ENTER's file offset (its arguments read
                               back: ttdi_walk_values_from) */
    uint64_t last_site;     /* call site of the last kept call it made, 0 */
    uint64_t last_addr;     /* that call's function (0: none made yet) */
    uint64_t last_time;     /* that call's time (picks the module) */
} ttdi_frame_id;


/* A walk over one thread: every raw event, the keys of kept ones, the
 * running call stack. */
typedef struct ttdi_walk {
    ttdi_run_state *r;      /* the run; NULL: a raw or keyed walk */
    ttdi_norm *norm;        /* a keyed walk: its normaliser; else NULL */
    uint64_t key;           /* a keyed walk: ev's key (ttdi_norm_key); a
                               run walk: ev's, where tapped says */
    ttf_iter *it;           /* its iterator on one thread */
    ttf_event ev;           /* the current event */
    int kept;               /* 1: ev takes part (its index is idx) */
    uint64_t idx;           /* key index of ev if kept; else of the next */
    uint64_t next;          /* key index the next kept event gets */
    int pending;            /* ev's ENTER/EXIT not yet applied to the stack */
    ttdi_frame_id *stack;   /* the call stack before ev, outermost first */
    size_t nstack, cap;     /* frames open, room for */
    ttdi_openset open;      /* ids of stack[0..nstack) while live */
    int live;               /* 1: open is kept (the stack grew deep) */
    uint32_t unwound;       /* innermost frames an UNWIND left (format 1.3),
                               closed before the next ENTER: the stack at
                               the unwind itself still shows where it began */
    int lean;               /* 1: its frames hold their id only
                               (ttdi_walk_stack) */
    int stacked;            /* 1: it keeps the call stack (a run walk, or
                               a stack walk: ttdi_walk_stack) */
    int waits;              /* a stack walk: 1: the starts of waits too
                               (LOCKING, JOINING: hang.c); 0: skipped */
    int sleeps;             /* 1: SLEEP sync ops too (timing.c); 0: they
                               are skipped, no other stage reads them */
    uint32_t thread;        /* a run walk: its thread */
    uint64_t max_ns;        /* a run walk: latest time of the events read */
    uint64_t prev_ns;       /* ... of those before ev */
    uint64_t mark_at;       /* a run walk: kept index of its next mark */
    uint64_t pin_at;        /* ... and where it leaves one besides (its
                               consumer's ttdi_walk_pin), 0: none */
    uint64_t pin_ns;        /* ... or at its first kept event at or after
                               this time (ttdi_walk_pin_ns), 0: none */
    uint64_t left;          /* 1 + the kept index of the last mark it
                               left (ttdi_walk_open_mark opens it), 0: none */
    uint64_t from_ns;       /* where it started: its thread's start, or
                               the mark's time (ttdi_walk_span_ns) */
    uint64_t nraw;          /* a run walk: events read, its current one
                               included (SLEEPs too) */
    struct ttdi_syncs *sy;  /* a run walk: its thread's SYNC_OP records */
    int read_out;           /* 1: read on past its consumer's stop
                               (ttdi_walk_read_out), its reach noted there */
    uint64_t tapped;        /* a run walk: nraw of the last ENTER or EXIT
                               whose key the lock sets' tap found (key; 0
                               there: ask), 0: none (ttdi_walk_tapped_key) */
    int notimes;            /* 1: its untimed events are not placed
                               (ttdi_walk_notimes; ttdi_walk_times) */
    uint64_t timed;         /* notimes: 1 + the offset of the event that
                               ttdi_walk_times gave its times, 0: none */
    uint32_t retimed;       /* how many it did */
    uint64_t vfrom;         /* a run walk that steps over values up to
                               this kept index (ttdi_walk_values_from),
                               0: none */
    uint64_t untimed_from;  /* an aside walk read without times
                               (ttdi_walk_aside_notimes): 1 + the offset
                               of its last event read with them; its
                               marks' walks take them back (times_back) */
    int vskip;              /* 1: an aside walk's state (ttdi_walk_open_aside):
                               read without values, what takes part told
                               with no look-up; its marks serve only a walk
                               that takes the values back before it uses
                               them (ttdi_walk_open_values) */
} ttdi_walk;

/* The names of the calls a SYNC_OP record was made in (ttdi_sr_call:
 * a thread keeps each pair once). */
typedef struct ttdi_callnames {
    const char *func;       /* the innermost call's name by the thread
                               order's rule (ttdi_lock_call), "" (r->lock_tap
                               on; else NULL) */
    const char *within;     /* the call it is named by (ttdi_lock_caller), as
                               func */
} ttdi_callnames;

/* One SYNC_OP of a thread as run walks read it (SLEEPs aside): 32 bytes
 * (a 25M-event pair keeps 3M of them a run; 48 bytes were a third of
 * its page faults). A SYNC_OP's time is always measured, so its tick
 * says it (ttdi_sr_ns); the latest time of the thread's events before it
 * is walker.c's, kept as a difference. */
typedef struct ttdi_syncrec {
    uint64_t tsc;           /* its tick (the reader's merge key) */
    uint64_t addr;          /* its object */
    int64_t sync_arg;
    int32_t before_d;       /* walker.c: its time minus that latest time,
                               or INT32_MIN: in its thread's far list */
    uint32_t cc;            /* call << 8 | code: code TTF_SOP_* (a byte
                               in the format); call its calls' names, an
                               index into its thread's ttdi_ltap.calls
                               (0: {NULL, NULL}; fewer than 2^24) */
} ttdi_syncrec;

static inline int ttdi_sr_code(const ttdi_syncrec *s)
{
    return (int)(s->cc & 0xff);
}

static inline uint32_t ttdi_sr_call(const ttdi_syncrec *s)
{
    return s->cc >> 8;
}

/* Record s's time in trace t (its run's). */
static inline uint64_t ttdi_sr_ns(const ttf_trace *t, const ttdi_syncrec *s)
{
    return ttf_tick_ns(t, s->tsc);
}

/* ---- the thread order's lock sets (issue 38 item 4) ----------------------
 * One open call of a thread as the thread order sees it (interleave.c):
 * its key (0: a call the filter drops, named as its caller), the locks
 * held at its entry or taken inside it (a bit per lock), its entry. */
typedef struct ttdi_lframe {
    uint64_t key;           /* function key (ttdi_norm_key of its ENTER) */
    uint64_t mask;          /* locks held at entry or taken inside */
    uint64_t t0;            /* entered at, the earliest (an untimed ENTER of
                               the lazy clock: ttf_event_early_ns) */
    const char *name;       /* function */
    int skip;               /* 1: no name, or a lock wrapper's
                               (ttdi_lock_wrapper): ttdi_lock_caller passes
                               it; asked once per name, at its slot's miss */
} ttdi_lframe;

/* A thread's open calls, in step with a run or stack walk's frames, and
 * the locks it holds. */
typedef struct ttdi_lthread {
    ttdi_lframe *f;         /* open calls, innermost last */
    size_t n, cap;
    uint64_t held;          /* locks held (a bit each) */
    struct ttdi_lname {     /* recent ENTERs' keys and names, direct-mapped */
        uint64_t id;        /*   function (0: an empty slot) */
        uint64_t site;      /*   the ENTER's call site (a key's part) */
        uint64_t key;
        const char *name;
        int keep;           /*   ttdi_norm_enter's answer */
        int skip;           /*   !name || ttdi_lock_wrapper(name) */
    } nc[256];              /* (slot: ttdi_slot8(id ^ site)) */
} ttdi_lthread;

/* wk's current event (an ENTER or EXIT; others change nothing) on t, by
 * the run walks' call-stack rule (ttdi_walk_depth_after): an ENTER opens
 * a call; an EXIT returns from its own frame, the frames above it close
 * unreturned, and what a frame closed took passes to the frame below.
 * 1 with *f the call that returned (a kept one: key not 0), 0, or
 * TT_ENOMEM. */
int ttdi_lock_call(ttdi_norm *norm, ttdi_lthread *t, const ttdi_walk *wk, ttdi_lframe *f);
/* Did a sync operation take a mutex (a LOCK, or a TRYLOCK whose result
 * arg is 0: it got it)? */
static inline int ttdi_sop_took(int code, int64_t arg)
{
    return code == TTF_SOP_LOCK || (code == TTF_SOP_TRYLOCK && arg == 0);
}
/* A lock operation's bit into t's held set (and its innermost call's set
 * when taken): LOCK and a TRYLOCK that took it add, UNLOCK removes. */
void ttdi_lock_bits(ttdi_lthread *t, const ttf_event *ev, uint64_t bit);
/* The function a lock operation of t is named by: its innermost open call
 * that is not a lock wrapper (ttdi_lock_wrapper: std::mutex::lock,
 * MutexLock::MutexLock), the call that took the lock through them and
 * decides under it; the innermost call when all are; "" when none. */
const char *ttdi_lock_caller(const ttdi_lthread *t);

/* The first return of a call of one function with one lock set in a
 * thread (the lock set in the thread's own bits: ttdi_ltap.paddr). */
typedef struct ttdi_lret {
    ttdi_lframe f;          /* the call (mask: its lock set) */
    uint64_t tsc;           /* its return's tick */
    uint64_t late_ns;       /* its return, at the latest (ttf_event_late_ns) */
    uint64_t time_ns;       /* its return's time */
    uint64_t before_ns;     /* the latest time of the thread's events
                               before its return (SLEEPs aside) */
} ttdi_lret;

/* What run walks kept of a thread for the thread order up to a time. */
typedef struct ttdi_ltap {
    const ttdi_lret *ret;   /* first returns, in order, up to the time */
    size_t nret;
    const ttdi_syncrec *rec; /* its SYNC_OPs up to the time (func set) */
    size_t nrec;
    const ttdi_callnames *calls; /* the records' names (ttdi_sr_call) */
    const uint64_t *paddr;  /* bit i of a lock set: lock address paddr[i] */
    int nprov;
    int partial;            /* 1: ret may miss a lock-free return in what
                               was read (a call the filter drops
                               returned, an UNLOCK of a lock not held, a
                               call between a condition WAIT and its
                               WOKE): ttdi_races_possible walks */
} ttdi_ltap;

/* The thread order's data of thread `thread` of r up to its first event
 * later than ns (SLEEPs aside, as a stack walk skips them): 1 with *tap
 * when run walks read the thread with r->lock_tap on from its start to
 * past that event (or to its end), and the data is exact there (ticks
 * and times never went back before it, at most 64 lock addresses);
 * else 0: walk it. The run walk that first reads an event keeps, beside
 * the SYNC_OP records, the thread's open calls with their lock sets, and
 * the first return of each (function, lock set): up to any time, the
 * calls of a function all had the locks their first returns with each
 * set had, and the first call missing a lock is among them. */
int ttdi_walk_tap(const ttdi_run_state *r, uint32_t thread, uint64_t ns, ttdi_ltap *tap);

/* The SYNC_OP records of thread `thread` of r that a raw walk of the
 * thread reads before it stops at its first event later than ns, or at
 * ns and not a SYNC_OP (SLEEPs aside, as raw walks skip them): 1 with
 * *recs and *n (the first *n records) when run walks read the thread far
 * enough to know (to an event that stops it, or to its end); else 0:
 * walk it. Run walks keep the records of
 * the part of the thread they read first, as they go (a few compares per
 * event), so a pass that needs only the sync operations (the order
 * checks' lock views) reads no event again. */
int ttdi_walk_syncs(const ttdi_run_state *r, uint32_t thread, uint64_t ns,
                    const ttdi_syncrec **recs, size_t *n);

/* One function's calls in a thread, as run walks counted them. */
typedef struct ttdi_fcalls {
    const char *name;       /* as ttf_sym_event_name names its ENTER */
    uint64_t calls;         /* ENTERs */
} ttdi_fcalls;

/* A thread's ENTERs per function as a walk counts them (the profile's
 * key: address, or scope site | TTDI_SITE_BIT; a direct-mapped cache of
 * the recent functions before the map): run walks' (ttdi_walk_calls) and
 * a keyed walk's (ttdi_walk_count_open). */
#define TTDI_CHOT 256 /* slots of its cache (ttdi_slot8) */
typedef struct ttdi_ccount {
    ttdi_fcalls *fc;        /* per function */
    size_t nfc, capfc;
    ttdi_map fcat;          /* function -> fc index */
    uint64_t hot[TTDI_CHOT];    /* the last functions counted: */
    uint32_t hotix[TTDI_CHOT];  /*   their fc index + 1 (0: empty) */
    ttf_sym *sym;           /* names them (ttf_sym_event_name) */
    int state;              /* a keyed walk's: 1 counting, 2 whole */
} ttdi_ccount;
/* ttdi_ccount_add's miss (walker.c). */
int ttdi_ccount_miss(ttdi_ccount *c, const ttf_event *ev, uint64_t id, size_t h);
/* ENTER ev counted into c: 0 or TT_ENOMEM. */
static inline int ttdi_ccount_add(ttdi_ccount *c, const ttf_event *ev)
{
    uint64_t id = ev->addr == 0 && ev->site ? ev->site | TTDI_SITE_BIT : ev->addr;
    size_t h = ttdi_slot8(id);

    if (c->hotix[h] && c->hot[h] == id) {       /* no map look-up per call */
        c->fc[c->hotix[h] - 1].calls++;
        return 0;
    }
    return ttdi_ccount_miss(c, ev, id, h);
}
/* A keyed walk that reads thread `thread` of r whole from its start (the
 * tree build's, pair_align.c) counts its ENTERs (ttdi_ccount_add) into
 * the count this returns, and once at the thread's end (ttdi_walk_counted)
 * ttdi_walk_calls tells it: on a program with one thread, whose split
 * thread no run walk reads whole, the count facts then read no thread
 * again (issue 38: that pass was 19% of a parted pair). NULL when
 * r->count_calls is off or a keyed walk counted (or began) the thread
 * before. */
ttdi_ccount *ttdi_walk_count_open(ttdi_run_state *r, uint32_t thread);
/* The keyed walk counting into c (NULL: none) read its thread's last event. */
void ttdi_walk_counted(ttdi_ccount *c);

/* The ENTERs of thread `thread` of r per function (address or scope
 * site: a name may come twice), named as ttf_sym_event_name names the
 * first: 1 with *fc and *n when run walks read the whole thread with
 * r->count_calls set from its start (they count what they first read,
 * as they keep the records), or a keyed walk counted it whole
 * (ttdi_walk_count_open), else 0. A pass that needs every thread's
 * calls (the count facts, counts.c) reads no event of such a thread. */
int ttdi_walk_calls(const ttdi_run_state *r, uint32_t thread, const ttdi_fcalls **fc,
                    size_t *n);

/* Run walk w, done with its thread, reads on to the thread's end when it
 * stands where no walk got further, the run counts calls and at most an
 * eighth of the thread is left: the pass that needs every thread's calls
 * then reads none of this one (ttdi_walk_calls). 0 or a TT_E* code. */
int ttdi_walk_read_out(ttdi_walk *w);

/* Tests only: the trace time every walk went over, from where it started
 * (its thread's start, or the mark it started at) to the last event it
 * read, added at its close: on a trace whose events come at even
 * intervals, what the passes over it cost, with no cost per event. */
extern uint64_t ttdi_walk_span_ns;
/* The same of the aside walks (ttdi_walk_open_aside), which read in a
 * thread of their own while the engine's passes go on. */
extern uint64_t ttdi_walk_aside_span_ns;

/* Start a walk over thread `thread` of run r: events through r's
 * normaliser (kept, idx), the call stack before each. 0 or a TT_E* code.
 * A run walk leaves marks in r as it goes past where earlier walks of the
 * thread went (every TTDI_MARK_EVERY kept events; at most 16 a thread,
 * further apart as the walked part grows): its whole state there, so a
 * later run walk of the thread that needs nothing before a mark starts
 * from it instead of reading the prefix again (ttdi_walk_open_at). */
int ttdi_walk_open(ttdi_walk *w, ttdi_run_state *r, uint32_t thread);
#define TTDI_MARK_EVERY 65536
/* The same walk as ttdi_walk_open's, started from the latest mark a run
 * walk left on the thread such that: every kept event of index >= idx is
 * still to come; no event up to the mark is later than ns; and, if keep,
 * at least keep kept events after the mark, none later than ns, come
 * before the first event later than ns (a ring of the last keep events
 * before ns fills as from the start; known from a later mark, or from how
 * far the furthest closed run walk of the thread got, its reach: the
 * thread order's walks stop at the split). With no such mark, from the
 * start.
 * The caller sees the events after the mark exactly as a walk from the
 * start would show them (same kept, idx, stack). 0 or a TT_E* code. */
int ttdi_walk_open_at(ttdi_walk *w, ttdi_run_state *r, uint32_t thread, uint64_t idx,
                      uint64_t ns, uint64_t keep);
/* The same from the mark a run walk left at kept index idx exactly (its
 * w->left then was idx + 1): 1, 0 when no mark is there now (none was
 * left, or a thinning dropped it; w holds nothing then), or a TT_E*
 * code. For a consumer that kept its own state where the marks are
 * (timing.c: the tree build's prefix state). */
int ttdi_walk_open_mark(ttdi_walk *w, ttdi_run_state *r, uint32_t thread, uint64_t idx);
/* Run walk w also leaves a mark at kept index idx (0: none), as it does
 * every TTDI_MARK_EVERY: where its consumer knows the later walks of the
 * thread will start (the timing scan: TTDI_PIN_BACK before the split
 * thread's first hunk, so resolve's pass, the details and the thread
 * order start there, not at the last periodic mark up to 64K events
 * earlier). A thinning may drop it as any other mark. */
void ttdi_walk_pin(ttdi_walk *w, uint64_t idx);
/* The same at the first kept event at or after time ns (0: none): the
 * thread order's walks of the other threads, a 64th of the way before
 * the split (the details' walks for their last events start there). */
void ttdi_walk_pin_ns(ttdi_walk *w, uint64_t ns);
/* Run walk w (a values trace read with values, not yet past idx) steps
 * over the values of its events before kept index idx (a pass that needs
 * them from there on: ttdi_run_pass) and leaves no mark there (a mark's
 * state has its values); at idx it takes them back (ttf_iter_values: its
 * chunk read again), the arguments of the calls open there by their
 * ENTERs' offsets (ttf_iter_values_at), and pins a mark: every event and
 * frame from idx on is as without the skip. idx 0, or a walk that leaves
 * no marks: nothing changes. 0 or a TT_E* code. */
int ttdi_walk_values_from(ttdi_walk *w, uint64_t idx);
/* ttdi_walk_open_at(w, r, thread, idx, UINT64_MAX, 0) then
 * ttdi_walk_values_from(w, vfrom) (vfrom < idx): resolve's pass on a values
 * trace. It may also start at an aside walk's mark (ttdi_walk_open_aside:
 * no values) before vfrom - 1, when that is later than the mark the other
 * way would take: the values come back at vfrom all the same. 0 or a
 * TT_E* code. */
int ttdi_walk_open_values(ttdi_walk *w, ttdi_run_state *r, uint32_t thread, uint64_t idx,
                          uint64_t vfrom);
/* A run walk of thread `thread` of r to read aside (pair_align.c: in a
 * thread of its own while the caller reads the same runs by keyed walks):
 * no values, no SYNC_OP records, counts or lock sets (ttdi_run_state's
 * records are the caller's), no reach noted at its close, what takes part
 * told by ttdi_norm_kept_pure (so r's normaliser must have no
 * --function/--exclude: ttdi_walk_aside_ok). Its marks (ttdi_walk.vskip)
 * serve only ttdi_walk_open_values. r->marks of the thread is its own
 * until it closes. 0 or a TT_E* code. */
int ttdi_walk_open_aside(ttdi_walk *w, ttdi_run_state *r, uint32_t thread);
/* Aside walk w reads its next events without times (ttf_iter_skip_times:
 * the lazy clock's look-ahead, a quarter of such a walk, skipped), for a
 * caller past the run's last module load or unload (ttdi_epochs_end: the
 * frames' call times, which pick a module, are then all of the last
 * epoch). A walk started at one of its marks after that
 * (ttdi_walk_open_values) takes back the exact times of its event and of
 * the frames entered since (ttf_iter_times, ttf_iter_times_at), so it
 * reads on as from a mark with times. 0 or a TT_E* code. */
int ttdi_walk_aside_notimes(ttdi_walk *w);
/* 1 when an aside walk may read thread `thread` of r: a normaliser with
 * no --function/--exclude, a values trace, no mark left on the thread. */
int ttdi_walk_aside_ok(const ttdi_run_state *r, uint32_t thread);
#define TTDI_PIN_BACK 8192  /* kept events: the details' windows before a
                               split (detail.c SUSPECT_WINDOW 4096) */
/* 1 if run walks left marks on thread `thread` of r, else 0. */
int ttdi_walk_marked(const ttdi_run_state *r, uint32_t thread);
/* Free the marks and SYNC_OP records run walks left in r. */
void ttdi_marks_free(ttdi_run_state *r);
/* Start a raw walk over thread `thread` of trace t (TTF_ALL_THREADS: every
 * thread merged by time): w->ev only, as recorded without its values
 * (has_values 0: no raw pass reads them); no filter, no stack.
 * 0 or a TT_E* code. */
int ttdi_walk_raw(ttdi_walk *w, const ttf_trace *t, uint32_t thread);
/* The same with the values as recorded (races.c's second walk, which
 * needs the checks' return values: decides.c). */
int ttdi_walk_raw_values(ttdi_walk *w, const ttf_trace *t, uint32_t thread);
/* Start a stack walk over thread `thread` of trace t: its events as a raw
 * walk gives them (no filter, no keys: kept 0; no values unless asked), and the call
 * stack before each by the run walks' rule (ttdi_walk_depth_after), each
 * frame's id only; no marks, no SYNC_OP records: for a pass that keeps
 * its own data per call over a trace it has no run state of (the races'
 * happens-before walk; values: 1 with them, its second walk). Read by
 * ttdi_walk_stack_next. 0 or a TT_E* code. */
int ttdi_walk_stack(ttdi_walk *w, const ttf_trace *t, uint32_t thread, int values);
void ttdi_walk_close(ttdi_walk *w);
/* A keyed or raw walk w copied into *out: the same event, key and index
 * now, and the same events after (its own iterator, ttf_iter_clone). 0,
 * TT_EINVAL (a run or stack walk) or TT_ENOMEM. */
int ttdi_walk_clone(const ttdi_walk *w, ttdi_walk *out);
/* Walk w's events without their values (ttf_iter_skip_values: has_values
 * 0): for the passes that never read registers, which a values trace then
 * costs what a plain one does. Right after the open. 0 or a TT_E* code. */
int ttdi_walk_novalues(ttdi_walk *w);
/* Walk w's events without placing the untimed ones (ttf_iter_skip_times:
 * each at its earliest bound): for the passes that read keys only (the
 * thread sketches, the tree build's keyed walks), which a lazy or sparse
 * trace then costs about what an every-event one does (issue 38). A
 * keyed or raw walk whose times nothing reads. 0 or a TT_E* code. */
int ttdi_walk_notimes(ttdi_walk *w);
/* Times back in a walk w that skipped them (ttdi_walk_notimes; else
 * nothing to do): w->ev gets the times a walk with them gives it
 * (ttf_iter_times: its chunk read again up to it); with keep its next
 * events come with theirs, else without, as before, but past a few
 * (TTDI_RETIMES: a walk that needs many times pays for them once, not a
 * chunk's read each). For the values walk in step (pair_align.c), which
 * needs a time only where a value differs or where it stops. 0 or a
 * TT_E* code. */
#define TTDI_RETIMES 64
int ttdi_walk_times(ttdi_walk *w, int keep);
/* 1 when walk w's current event has its exact times (w reads them, or
 * ttdi_walk_times gave them back), else 0. */
static inline int ttdi_walk_timed(const ttdi_walk *w)
{
    return !w->notimes || w->timed == w->ev.offset + 1;
}
/* The exact times of *ev, an event of walk w's thread that w read before
 * (by its offset, ttf_iter_times_at: its chunk read again up to it, the
 * reading kept for the chunk's later events), whether w skipped times
 * then or not: for a pass that keeps events it read without times (the
 * prefix replay's open calls, replay.c) and needs the times of a few.
 * Past TTDI_RETIMES of these and ttdi_walk_times together, w reads its
 * times from its current event on (the events it reads then need none
 * taken back). 0 or a TT_E* code. */
int ttdi_walk_times_at(ttdi_walk *w, ttf_event *ev);
/* joined[i] = 1 for each thread i < nt of t that another thread joined (its
 * CREATE names i, a JOIN the same pthread_t), else 0: one pass over the
 * trace's sync operations. 0 or a TT_E* code. */
int ttdi_joined_threads(const ttf_trace *t, uint8_t *joined, size_t nt);
/* The run walks' call-stack rule (stack walks', the thread order's and
 * the races' too):
 * how many frames of w's stack (before w->ev) stay open once w->ev is
 * applied. An ENTER first closes the frames an UNWIND before it left
 * (its own frame then goes at that depth); an EXIT closes its own frame,
 * the innermost one with its id, and every frame above it (a longjmp
 * left them without an UNWIND record), or none when no frame is its own
 * (the trace began inside it): then w->nstack; any other event
 * w->nstack. Run and stack walks only (a consumer that keeps its own data per
 * frame closes what this says, as ttdi_walk_step will). The slow part
 * (an EXIT not of the innermost frame) is ttdi_walk_depth_slow. */
size_t ttdi_walk_depth_slow(const ttdi_walk *w);
static inline size_t ttdi_walk_depth_after(const ttdi_walk *w)
{
    size_t n = w->nstack;

    if (w->pending && w->ev.kind == TTF_EV_ENTER)
        return n > w->unwound ? n - w->unwound : 0;
    if (w->pending && w->ev.kind == TTF_EV_EXIT && n &&
        w->stack[n - 1].id == (w->ev.site ? (w->ev.site | TTDI_SITE_BIT) : w->ev.addr))
        return n - 1;   /* inline: mostly the innermost frame */
    return ttdi_walk_depth_slow(w);
}
/* The step of a run or stack walk (ttdi_walk_next, ttdi_walk_stack_next
 * call it). */
int ttdi_walk_step(ttdi_walk *w);
/* SYNC_OPs the walks skip: a sleep (timing.c asks for them: sleeps), the
 * start of a blocking lock or join (LOCKING, JOINING: only hang.c reads
 * them, by a raw iterator of its own; whether a lock was contended is
 * timing, never a divergence) and ops later formats add. */
#define TTDI_SOP_ASIDE(code) ((code) >= TTF_SOP_SLEEP)
/* The kinds that change the stack, a bit each: ENTER, EXIT, UNWIND. */
#define TTDI_STACK_KINDS (1u << TTF_EV_ENTER | 1u << TTF_EV_EXIT | 1u << TTF_EV_UNWIND)
/* Next event of a run, raw or keyed walk into w->ev: 1, 0 at the end, or
 * a TT_E* code. Inline: a raw walk costs what its reader does. */
static inline int ttdi_walk_next(ttdi_walk *w)
{
    int rc;
    do
        rc = w->r ? ttdi_walk_step(w) : ttf_iter_next(w->it, &w->ev);
    while (rc == 1 && __builtin_expect(w->ev.kind == TTF_EV_SYNC_OP, 0) &&
           TTDI_SOP_ASIDE(w->ev.code) && (!w->sleeps || w->ev.code != TTF_SOP_SLEEP));
    return rc;
}
/* 1 when stack walk w's pending ENTER or EXIT changes its stack at the
 * top (an ENTER with no UNWIND before it and room, an EXIT of the
 * innermost frame, the stack not live): applied; else 0 (ttdi_walk_step
 * applies it). */
static inline int ttdi_walk_top(ttdi_walk *w)
{
    uint64_t id = w->ev.site ? (w->ev.site | TTDI_SITE_BIT) : w->ev.addr;
    size_t n = w->nstack;

    if (w->live)
        return 0;
    if (w->ev.kind == TTF_EV_ENTER && !w->unwound && n < w->cap) {
        w->stack[n].id = id;
        w->nstack = n + 1;
    } else if (w->ev.kind == TTF_EV_EXIT && n && w->stack[n - 1].id == id) {
        w->nstack = n - 1;
        w->unwound = 0;
    } else {
        return 0;
    }
    w->pending = 0;
    return 1;
}

/* The next event of a stack walk (ttdi_walk_stack: read by this only),
 * its stack before it, SLEEPs skipped: 1, 0 at the end, or a TT_E* code.
 * Inline where the stack changes at its top (ttdi_walk_top). */
static inline int ttdi_walk_stack_next(ttdi_walk *w)
{
    int rc;

    do {
        if (w->pending && !ttdi_walk_top(w)) {
            rc = ttdi_walk_step(w);
        } else {
            rc = ttf_iter_next(w->it, &w->ev);
            w->pending = rc > 0 && ((TTDI_STACK_KINDS >> (w->ev.kind & 31)) & 1);
        }
    } while (rc == 1 && __builtin_expect(w->ev.kind == TTF_EV_SYNC_OP, 0) &&
             TTDI_SOP_ASIDE(w->ev.code) && (!w->waits || w->ev.code == TTF_SOP_SLEEP));
    return rc;
}

/* Start a keyed walk over thread `thread` of norm's trace: the events
 * that take part (ttdi_norm_key), each with its key (w->key) and key
 * index (w->idx; w->next the next one's); no stack. The one iteration of
 * every pass that reads a thread by key (replay, values, pairing's
 * aligner, the noise contexts). 0 or a TT_E* code. */
int ttdi_walk_keyed(ttdi_walk *w, ttdi_norm *norm, uint32_t thread);
/* Does a keyed walk's current event take part? 1 (its key into *key, its
 * index into w->idx), 0 if not, or a TT_E* code. */
static inline int ttdi_walk_take(ttdi_walk *w, uint64_t *key)
{
    int rc = ttdi_norm_key(w->norm, &w->ev, key);
    if (rc > 0)
        w->idx = w->next++;
    return rc;
}
/* Next event of a keyed walk that takes part, its key into *key: 1, 0 at
 * the end, or a TT_E* code. Inline: it costs what the reader and the
 * normaliser do (the aligner's key stream writes the key in place). */
static inline int ttdi_walk_next_key_to(ttdi_walk *w, uint64_t *key)
{
    int rc;
    while ((rc = ttdi_walk_next(w)) > 0)
        if ((rc = ttdi_walk_take(w, key)) != 0)
            return rc;
    return rc;
}

/* The same, the key into w->key. */
static inline int ttdi_walk_next_key(ttdi_walk *w)
{
    return ttdi_walk_next_key_to(w, &w->key);
}
/* A run walk's current ENTER's or EXIT's key as the lock sets' tap found
 * it (walker.c): an ENTER's looked up there (ttdi_norm_enter, the key
 * ttdi_norm_key gives an ENTER), an EXIT's from the ENTER key of the open
 * call it returns from (ttdi_norm_exit_of: the same function). 1 with
 * *key set when the tap read the event and it takes part, else 0 (ask
 * the normaliser). Spares the tree build's run walks a look-up per event. */
static inline int ttdi_walk_tapped_key(const ttdi_walk *w, uint64_t *key)
{
    if (w->tapped != w->nraw || !w->key)
        return 0;
#ifdef TTDI_CHECK_TAPKEY
    uint64_t k;
    if (ttdi_norm_key(&w->r->norm, &w->ev, &k) != 1 || k != w->key)
        abort();
#endif
    *key = w->key;
    return 1;
}
/* The name of frame f of walk w, looked up on first use (the cache has
 * it: its ENTER went through the normaliser before). */
const char *ttdi_walk_frame_name(ttdi_walk *w, ttdi_frame_id *f);

/* ---- one run's calls (run_profile.c, stage 0 run-profile) --------------- */

/* ttd_prof_build (ttprof.h) counting calls only: one pass over each
 * selected thread that reads ENTERs alone (no call stack, no times), for
 * the count facts (counts.c). Each row's calls, name and thread are what
 * ttd_prof_build gives; its times and never-returned count are 0. */
typedef struct ttd_prof ttd_prof;
typedef struct ttd_prof_opts ttd_prof_opts;
int ttdi_prof_calls(const ttf_trace *t, ttf_sym *sym, const ttd_prof_opts *opts,
                    ttd_prof **out);
/* Tests only: the threads calls-only passes read (ttdi_prof_calls). */
extern uint64_t ttdi_prof_calls_read;
/* 1 when a profile of t names each event by its time (a module was
 * unloaded: an address may name two functions), so names per address
 * (ttdi_walk_calls) are not the profile's; else 0. */
int ttdi_prof_by_time(const ttf_trace *t);

/* ---- the filters (regex.c) ---------------------------------------------- */

/* Compile *re from pattern, if any (NULL: no filter); err names the flag.
 * 0 or a TT_E* code. */
int ttdi_compile_filter(ttd_regex **re, const char *pattern, const char *flag,
                        ttf_error *err);

#endif
