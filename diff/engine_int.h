/*
 * engine_int.h - what the files of diff/ share and nobody else sees: the
 * normaliser (event -> 64-bit key), the thread pairing, and the engine's
 * state and functions shared by its files (engine.c, walk.c, setup.c,
 * pair_align.c, hunks.c, detail.c, suspects.c).
 * Names carry the ttd_ prefix but are hidden (-fvisibility=hidden).
 */
#ifndef TTD_ENGINE_INT_H
#define TTD_ENGINE_INT_H

#include "align.h"
#include "ttf_util.h"
#include "ttdiff.h"

/* ---- per-address cache (open addressing, power-of-two size) ------------ */

typedef struct ttdi_slot {
    uint64_t id;        /* address, or site id | TTDI_SITE_BIT */
    uint64_t hash;      /* XXH3 of what identifies it (name; site fmt+func) */
    const char *name;   /* function name (symbols' or call site's string) */
    int keep;           /* 1: passes --function/--exclude */
    int used;           /* 1: slot taken */
} ttdi_slot;

typedef struct ttdi_cache {
    ttdi_slot *slots;    /* cap slots */
    size_t cap;         /* power of two, 0 before the first insert */
    size_t n;           /* slots used */
} ttdi_cache;

#define TTDI_SITE_BIT (1ull << 63)

/* ---- normaliser: one per run ------------------------------------------- */

typedef struct ttdi_norm {
    const ttf_trace *trace; /* the run */
    ttf_sym *sym;           /* its symbols (owned by the norm) */
    int messages;           /* TTD_MSG_* */
    const ttd_regex *keep;  /* --function, NULL = all */
    const ttd_regex *drop;  /* --exclude, NULL = none */
    ttdi_cache funcs;        /* ENTER/EXIT by address (scopes by site) */
    ttdi_cache sites;        /* MESSAGE/MARK by site id */
    char *buf;              /* formatted message text */
    size_t buflen;          /* its size */
} ttdi_norm;

/* Set up n over trace t (opens its symbols, C++ names demangled unless
 * no_demangle). 0, TT_ENOMEM or a symbol error. */
int ttdi_norm_init(ttdi_norm *n, const ttf_trace *t, int messages,
                  const ttd_regex *keep, const ttd_regex *drop,
                  int no_demangle);
void ttdi_norm_free(ttdi_norm *n);

/* The key of ev: 1 with *key set if it takes part in the alignment, 0 if
 * it is filtered out or never compared (thread, module, sync events), or
 * TT_ENOMEM. */
int ttdi_norm_key(ttdi_norm *n, const ttf_event *ev, uint64_t *key);
/* ttdi_norm_key's answer without the key: 1 if ev takes part, 0 if not,
 * or TT_ENOMEM. With no --function/--exclude, an ENTER/EXIT needs no
 * look-up (the walks' fast path). */
int ttdi_norm_kept(ttdi_norm *n, const ttf_event *ev);

/* The function name of an ENTER/EXIT event (cached). */
const char *ttdi_norm_func(ttdi_norm *n, const ttf_event *ev);

/* The formatted text of a MESSAGE/MARK event in n->buf ("?" on failure). */
const char *ttdi_norm_text(ttdi_norm *n, const ttf_event *ev);

/* The EXIT key that closes a call entered with ENTER key k (keys are the
 * function's hash with the kind's mixed in: normalise.c). Inline: the
 * tree builder asks once per call. */
static inline uint64_t ttdi_norm_exit_of(uint64_t enter_key)
{
    return enter_key ^ ttfi_mix64((uint64_t)TTF_EV_ENTER) ^ ttfi_mix64((uint64_t)TTF_EV_EXIT);
}

/* ---- open-frame counts (openset.c) --------------------------------------- */

/* How many open frames carry each key: a multiset kept beside a call
 * stack, so an EXIT that closes no open frame is told in O(1) expected
 * instead of by a scan of the whole stack. */
typedef struct ttdi_openset {
    struct ttdi_oslot *slot; /* open addressing, power-of-two size */
    size_t cap;             /* slots (0 before the first add) */
    size_t used;            /* slots holding a key */
} ttdi_openset;

/* Count one more frame with key k. 0 or TT_ENOMEM. */
int ttdi_openset_add(ttdi_openset *o, uint64_t k);
/* Count one frame fewer with key k (it must have been added). */
void ttdi_openset_del(ttdi_openset *o, uint64_t k);
/* Frames open with key k. */
uint64_t ttdi_openset_count(const ttdi_openset *o, uint64_t k);
/* Forget all keys (the memory is kept). */
void ttdi_openset_clear(ttdi_openset *o);
void ttdi_openset_free(ttdi_openset *o);

/* ---- key sequences (seq.c) ---------------------------------------------- */

/* A growable array of 64-bit words, mapped with huge pages where allowed. */
typedef struct ttdi_keybuf {
    uint64_t *k;            /* the words */
    size_t cap;             /* words that fit */
    size_t bytes;           /* mapped size */
} ttdi_keybuf;

/* Room for n words, keeping the first keep. 0 or TT_ENOMEM. */
int ttdi_keybuf_reserve(ttdi_keybuf *kb, size_t n, size_t keep);
void ttdi_keybuf_free(ttdi_keybuf *kb);

/* A collapsed loop: item `item` stands for `count` identical subtrees of
 * `unit` raw events each. */
typedef struct ttdi_loop {
    size_t item;            /* its item index */
    uint64_t count;         /* repetitions (>= 2) */
    uint64_t unit;          /* raw events in one repetition */
} ttdi_loop;

/* One open call while collapsing (see seq.c). */
typedef struct ttdi_cframe ttdi_cframe;

/* What one thread contributes to an alignment: its keys, or with collapse
 * the items (a raw key, or one loop item per run of identical subtrees)
 * with the raw index where each starts. */
typedef struct ttdi_seq {
    ttdi_keybuf k;           /* item keys */
    ttdi_keybuf map;         /* collapse: raw index of item i */
    size_t n;               /* items */
    uint64_t raw;           /* raw keys fed */
    int collapse;           /* 1: collapse loops */
    ttdi_loop *loops;        /* collapsed loops by item index */
    size_t nloops, loopcap;
    ttdi_cframe *st;         /* open calls, [0] is the thread's top level */
    size_t nst, stcap;
    ttdi_openset open;       /* EXIT keys of st[1..nst) */
} ttdi_seq;

/* Start filling s again (its memory is kept); bound = raw events expected. */
int ttdi_seq_reset(ttdi_seq *s, int collapse, size_t bound);
/* Add the next raw key (of event kind). 0 or TT_ENOMEM. */
int ttdi_seq_feed(ttdi_seq *s, uint64_t key, int kind);
void ttdi_seq_free(ttdi_seq *s);
/* Raw index where item i starts (i == s->n: s->raw). */
uint64_t ttdi_seq_raw(const ttdi_seq *s, size_t i);
/* The loop at item i, NULL if item i is no loop. */
const ttdi_loop *ttdi_seq_loop(const ttdi_seq *s, size_t i);

/* A hunk in item space; a loop count hunk has reps set and covers one
 * matched loop item on each side. */
typedef struct ttdi_xhunk {
    size_t a0, a1, b0, b1;  /* items as in ttdi_hunk */
    uint64_t reps[2];       /* count hunk: repetitions good, bad; else 0 */
} ttdi_xhunk;

/* Align a and b (ttdi_align) and add a count hunk for every matched pair of
 * loop items whose counts differ. *out malloc'd, ascending. 0 or
 * TT_ENOMEM. */
int ttdi_seq_align(const ttdi_seq *a, const ttdi_seq *b, int minimal,
                  ttdi_xhunk **out, size_t *nout);
/* The raw ranges of item hunk x (count hunk: the extra repetitions). */
void ttdi_seq_to_raw(const ttdi_seq *a, const ttdi_seq *b, const ttdi_xhunk *x,
                    ttdi_hunk *out);

/* Where the good run varies: closed item ranges of the good sequence, each
 * with the keys seen differing there (sorted, unique). */
typedef struct ttdi_zones {
    size_t *lo, *hi;        /* range of zone i */
    size_t *k0, *nk;        /* its keys: keys[k0[i] .. + nk[i]) */
    size_t n, cap;
    uint64_t *keys;         /* all zones' keys */
    size_t nkeys, keycap;
} ttdi_zones;

/* Add the zones of good sequence g vs another good run o (hunks x[nx]):
 * each hunk's range widened over neighbouring good items whose keys also
 * differ in it. 0 or TT_ENOMEM. */
int ttdi_zones_add(ttdi_zones *z, const ttdi_seq *g, const ttdi_seq *o,
                  const ttdi_xhunk *x, size_t nx);
/* Sort and merge overlapping zones (keys united). 0 or TT_ENOMEM. */
int ttdi_zones_finish(ttdi_zones *z);
/* 1 if hunk x of g vs b lies in one zone and every key it holds on either
 * side differs there between good runs too. */
int ttdi_zones_cover(const ttdi_zones *z, const ttdi_seq *g, const ttdi_seq *b,
                    const ttdi_xhunk *x);
void ttdi_zones_clear(ttdi_zones *z);     /* empty, memory kept */
void ttdi_zones_free(ttdi_zones *z);

/* ---- values (values.c) --------------------------------------------------- */

/* A value that differed between two aligned calls. */
typedef struct ttdi_vdiff {
    uint64_t idx[2];        /* key index of the ENTER/EXIT in good, bad */
    ttf_event ev[2];        /* the two events (good, bad) */
    int what;               /* TTD_VAL_RETURN or TTD_VAL_ARG */
    int arg;                /* ARG: parameter index */
    const ttf_signature *sig; /* the bad run's signature of the function */
} ttdi_vdiff;

/* What comparing the values of one thread pair found. */
typedef struct ttdi_vfound {
    int found;              /* 1: first holds the first difference */
    ttdi_vdiff first;        /* the first differing value (events order) */
    ttdi_vdiff *rets;        /* differing return values, bad index order */
    size_t nrets, capr;     /* (at most TTDI_VRETS_MAX kept) */
    uint64_t compared;      /* values compared */
    uint64_t noise;         /* differences ignored as good-run noise */
} ttdi_vfound;

#define TTDI_VRETS_MAX 65536

/* One side of a value comparison: a thread of a run. */
typedef struct ttdi_vside {
    ttdi_norm *norm;         /* the run's normaliser (and symbols) */
    uint32_t thread;        /* thread index */
    uint64_t stop;          /* key index the walk ends at (the bad side's
                               counts; UINT64_MAX: the thread's end) */
} ttdi_vside;

/* Walk threads g and b in step over the events aligned outside hunks
 * h[nh] (raw key indexes, ascending) and compare the values of each pair
 * of calls (comparable return values and arguments, by signature). With
 * collect_noise set (g against another good run), every difference's
 * (function, value) goes into noise; otherwise differences already in
 * noise are skipped and counted, and *out gets the first difference and
 * the differing returns. 0 or a TT_E* code. */
int ttdi_values_compare(ttdi_vside g, ttdi_vside b, const ttdi_hunk *h,
                       size_t nh, ttdi_openset *noise, int collect_noise,
                       ttdi_vfound *out);
void ttdi_vfound_free(ttdi_vfound *f);
/* The differing return at bad key index idx, NULL if none. */
const ttdi_vdiff *ttdi_vfound_ret(const ttdi_vfound *f, uint64_t idx);

/* The noise-set key of a function's value slot: slot -1 is the return
 * value (key: the function's EXIT key), parameters 0.. (its ENTER key). */
uint64_t ttdi_value_slot_key(uint64_t key, int slot);

/* 1 if both traces carry values (format 1.1). */
int ttdi_values_on(const ttf_trace *g, const ttf_trace *b);

/* Text of a call's values by signature into buf: "(1, NULL)" for an ENTER,
 * "-22" for an EXIT; 0 with "" when there is nothing to show (no values,
 * no signature, a void, float or struct result). Returns the length. */
size_t ttdi_values_text(ttdi_norm *n, const ttf_event *ev, char *buf,
                       size_t len);

/* 1 if name reads as a lock wrapper (a word lock, unlock, mutex, spin...
 * in snake_case or CamelCase: pthread_mutex_lock, LockGuard; not
 * read_block). */
int ttdi_lock_wrapper(const char *name);


/* Fill out (pair, file and line left to the caller) from difference v of
 * the bad run's normaliser nb; strings in a. 0 or TT_ENOMEM. */
int ttdi_values_result(struct ttfi_arena *a, ttdi_norm *nb, const ttdi_vdiff *v,
                      ttd_value_diff *out);

/* ---- thread pairing ----------------------------------------------------- */

/* One thread as the pairing sees it. */
typedef struct ttdi_tinfo {
    uint32_t index;     /* creation order */
    const char *name;   /* last name, else first name, else "" */
    const char *first;  /* first name, NULL if none */
    const char *start;  /* first function entered, "" if none */
    uint64_t events;    /* raw events of the thread */
    int64_t partner;    /* thread index in the other run, -1 if none */
    int paired_by;      /* TTD_PAIR_* when paired */
    int tie;            /* TTD_PAIR_CONTENT: the round whose rule tied */
    double score;       /* TTD_PAIR_CONTENT: similarity 0..1, else -1 */
    double second;      /* best other candidate's score, -1 if none */
    float *sketch;      /* content histogram, NULL until a tie needs it
                           (malloc'd: ttdi_tinfo_free) */
} ttdi_tinfo;

/* What ttdi_pair_threads works on. */
typedef struct ttdi_pairing {
    ttdi_tinfo *g, *b;   /* the threads of both runs, by index */
    size_t ng, nb;
    ttdi_norm *gn, *bn;  /* their normalisers (content sketches) */
    const ttd_hand_pair *hand; /* pairs given by hand, applied first */
    size_t nhand;
    const ttd_hand_pair *bad_hand; /* out: the hand pair refused */
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

/* 1 if a content pair with this score and runner-up is uncertain. */
int ttdi_pair_uncertain(double score, double second);

/* Free the sketches of t[0..n). */
void ttdi_tinfo_free(ttdi_tinfo *t, size_t n);

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

/* ---- thread order around a divergence (interleave.c) --------------------- */

/* One run as the interleaving sees it. */
typedef struct ttdi_ilv_run {
    const ttf_trace *t;     /* the trace */
    ttdi_norm *norm;         /* its normaliser (function keys and names) */
    size_t nt;              /* its threads */
    const int64_t *pair_of; /* thread index -> index in ttd_result.pairs, -1 */
    uint64_t split_ns;      /* walk up to this time (the split in this run) */
} ttdi_ilv_run;

/* The interleaving of both runs (in[0] good, in[1] bad) before their
 * splits; *out NULL when neither run has SYNC_OP records. Memory in a.
 * 0, TT_ENOMEM or a reader error. */
int ttdi_interleave_build(struct ttfi_arena *a, const ttdi_ilv_run in[2],
                         ttd_interleave **out);

/* ---- the diff state ----------------------------------------------------- */

/* One run being compared. */
typedef struct ttdi_run_state {
    const ttf_trace *t;     /* the trace */
    ttf_trace *owned;       /* the same, when the engine opened it */
    ttdi_norm norm;          /* its normaliser and symbols */
    ttdi_tinfo *ti;          /* its threads, by index */
    size_t nt;              /* thread count */
    int64_t crash_thread;   /* thread of its CRASH, -1 if unknown/none */
} ttdi_run_state;

/* One aligned thread pair. */
typedef struct ttdi_ipair {
    uint32_t t[2];          /* thread index in the good and the bad run */
    uint64_t n[2];          /* normalised events of each */
    uint64_t crash;         /* bad side: key index of a CRASH, UINT64_MAX */
    ttdi_hunk *h;            /* its hunks (from ttdi_align) */
    size_t nh;              /* hunk count */
    uint8_t *exp;           /* per hunk: 1 if also varies between good runs
                               (NULL: no baselines) */
    uint64_t *reps;         /* per hunk: loop counts good, bad (NULL: no
                               --collapse-loops) */
    ttdi_vfound vf;          /* what comparing its call values found */
} ttdi_ipair;

/* A baseline good run: compared with the good run only. */
typedef struct ttdi_base {
    ttdi_run_state r;        /* the run (owned trace, normaliser, threads) */
    int64_t *partner;       /* good run thread i -> its thread here, -1 */
    const char *path;       /* its file (the caller's string) */
} ttdi_base;

struct ttd_diff {
    ttdi_run_state r[2];     /* TTD_GOOD, TTD_BAD */
    ttd_options o;          /* options as given */
    ttd_regex *re[3];       /* --thread, --function, --exclude */
    ttdi_ipair *ip;          /* aligned pairs */
    size_t nip;             /* pair count */
    ttdi_base *base;         /* baseline good runs (open while aligning) */
    size_t nbase;           /* baselines open */
    int full;               /* 1: pairs are stored whole (baselines, loops) */
    struct ttfi_arena arena; /* all result memory (ttf_util.h) */
    ttd_result res;         /* what ttd_get_result hands out */
    const ttd_divergence **detail; /* per resolved hunk, computed lazily */
    int values;             /* 1: compare call values (both runs have them) */
    ttdi_openset noise;      /* value slots that vary between good runs */
    ttdi_openset calls;      /* contexts of the calls that vary between good
                               runs in the pair being aligned (fnoise.c) */
};

/* One open call of a walk. */
typedef struct ttdi_frame_id {
    uint64_t id;            /* address, or site | TTDI_SITE_BIT */
    uint64_t addr;          /* function address (0 for scopes) */
    uint32_t site;          /* scope's call site, 0 for functions */
    uint64_t time_ns;       /* when it was entered (picks the module) */
    const char *name;       /* function name, NULL until asked (ttdi_frame_name) */
    int has_values;         /* 1: argregs recorded */
    uint64_t argregs[TTF_VALUE_REGS]; /* its arguments (format 1.1) */
} ttdi_frame_id;

/* A walk over one thread: every raw event, the keys of kept ones, the
 * running call stack. */
typedef struct ttdi_walk {
    ttdi_run_state *r;       /* the run */
    ttf_iter *it;           /* its iterator on one thread */
    ttf_event ev;           /* the current event */
    int kept;               /* 1: ev takes part (its index is idx) */
    uint64_t idx;           /* key index of ev if kept; else of the next */
    uint64_t next;          /* key index the next kept event gets */
    int pending;            /* ev's ENTER/EXIT not yet applied to the stack */
    ttdi_frame_id *stack;    /* the call stack before ev, outermost first */
    size_t nstack, cap;     /* frames open, room for */
    ttdi_openset open;       /* ids of stack[0..nstack) while live */
    int live;               /* 1: open is kept (the stack grew deep) */
} ttdi_walk;

/* ---- passes over one thread ---------------------------------------------- */

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
    ttdi_req *rq;            /* ranges to record (sorted here) */
    size_t nrq;             /* range count */
    uint64_t stack_at;      /* snapshot the stack before this key index */
    ttdi_frame_id *stack;    /* out: malloc'd copy, outermost first */
    size_t nstack;          /* frames in it */
    ttdi_sus_ev *ring;       /* last events before stack_at, NULL = not kept */
    size_t ringcap;         /* its size */
    uint64_t nring;         /* events put in it */
    size_t first;           /* walk state: ranges rq[0..first) are passed */
} ttdi_pass_spec;

/* What full mode reuses from pair to pair. */
typedef struct ttdi_full {
    ttdi_seq seq[2];         /* the good thread; the other run's thread */
    ttdi_zones z;            /* where the good runs vary */
} ttdi_full;


/* ---- the engine's files: walk.c ------------------------------------------ */

/* Start a walk over thread `thread` of run r. 0 or a TT_E* code. */
int ttdi_walk_open(ttdi_walk *w, ttdi_run_state *r, uint32_t thread);
void ttdi_walk_close(ttdi_walk *w);
/* Next raw event: 1, 0 at the end, or a TT_E* code. */
int ttdi_walk_next(ttdi_walk *w);
/* Turn the walk's current event into a report event (strings in the
 * arena). 0 or TT_ENOMEM. */
int ttdi_walk_fill(ttd_diff *d, ttdi_walk *w, ttd_event *out);
/* One pass over thread `thread` of run ri collecting what ps asks for
 * (ps->rq is sorted here). 0 or a TT_E* code. */
int ttdi_run_pass(ttd_diff *d, int ri, uint32_t thread, ttdi_pass_spec *ps);
/* The same pass on an open walk w, which must not have read past
 * ttdi_pass_low(ps); w stays open, positioned after the last event read.
 * 1 if the thread ended, 0 if not, or a TT_E* code. */
int ttdi_pass_walk(ttd_diff *d, ttdi_walk *w, ttdi_pass_spec *ps);
/* Lowest key index a pass for ps must read (its suspects ring included). */
uint64_t ttdi_pass_low(const ttdi_pass_spec *ps);
/* A pass driven by the caller's own walk (several passes and other work
 * on one walk): ttdi_pass_begin sorts ps->rq and returns the key index
 * the pass is done at (it needs the kept events below it); ttdi_pass_take
 * gives it the walk's current kept event (0 or TT_ENOMEM); ttdi_pass_end
 * closes it when the thread ends first (0 or TT_ENOMEM). */
uint64_t ttdi_pass_begin(ttdi_pass_spec *ps);
int ttdi_pass_take(ttd_diff *d, ttdi_walk *w, ttdi_pass_spec *ps);
int ttdi_pass_end(ttdi_walk *w, ttdi_pass_spec *ps);

/* ---- setup.c ------------------------------------------------------------- */

/* Name and start function of each thread of r. 0 or a TT_E* code. */
int ttdi_load_threads(ttdi_run_state *r);
/* Fill a result's thread info for thread i of r. */
void ttdi_fill_thread_info(const ttdi_run_state *r, uint32_t i, uint64_t events,
                          ttd_thread_info *out);
/* Build the pairs to align and the unpaired list. 0 or TT_ENOMEM. */
int ttdi_make_pairs(ttd_diff *d);
/* Compile filter i (d->re[i]) from pattern, if any; err names the flag.
 * 0 or a TT_E* code. */
int ttdi_compile_filter(ttd_diff *d, int i, const char *pattern,
                       const char *flag, ttf_error *err);
/* Fill a result's run info for run r opened from path (NULL: its own). */
void ttdi_fill_run_info(ttd_diff *d, ttdi_run_state *r, const char *path,
                       ttd_run_info *ri_out);
/* The two runs' programs compared: TTD_PROGRAM_*. */
int ttdi_same_program(const ttd_run_info *g, const ttd_run_info *b);
/* Reader and symbol notices of run ri into the result. 0 or TT_ENOMEM. */
int ttdi_notices(ttd_diff *d, int ri);
/* Run ri's crash event into the result, if it crashed. 0 or a TT_E* code. */
int ttdi_find_crash(ttd_diff *d, int ri);

/* ---- noise by function (fnoise.c) --------------------------------------- */

/* One side of a thread pair's hunks: a thread of a run. */
typedef struct ttdi_fside {
    ttdi_run_state *r;       /* the run */
    uint32_t thread;        /* the thread's index in it */
} ttdi_fside;

/* Add to set the context of every event of the hunks h[nh] (raw key
 * indexes) of thread g of the good run against thread o of another good
 * run: its key and, with by_caller (the tree aligner), its caller's. 0 or
 * a TT_E* code. */
int ttdi_fnoise_learn(ttdi_openset *set, int by_caller, ttdi_fside g, ttdi_fside o,
                     const ttdi_hunk *h, size_t nh);
/* Set exp[i] for every hunk h[i] of thread g of the good run against
 * thread b of the bad run whose events, on both sides, are all noise by
 * the rule of fnoise.c (a context in set, or displaced), one at least
 * with a context in set; for the others, lead[i] (good side) and
 * lead[nh + i] (bad side) count the noise events the hunk starts with,
 * when one of them is in set (lead: 2 * nh slots, all 0 when set is
 * empty). 0 or a TT_E* code. */
int ttdi_fnoise_mark(const ttdi_openset *set, int by_caller, ttdi_fside g,
                    ttdi_fside b, const ttdi_hunk *h, size_t nh, uint8_t *exp,
                    size_t *lead);

/* ---- pair_align.c -------------------------------------------------------- */

/* Normalise and align pair p in step (keys only past the common prefix,
 * in kb). 0 or a TT_E* code. */
int ttdi_align_pair(ttd_diff *d, ttdi_ipair *p, ttdi_keybuf kb[2]);
/* Full mode: p's threads stored whole (loops collapsed if asked), hunks
 * checked against the zones where good runs vary. 0 or a TT_E* code. */
int ttdi_align_full(ttd_diff *d, ttdi_ipair *p, ttdi_full *fu);
/* Tree mode (the default): p's threads as call trees in tr[0..2) (reused from
 * pair to pair), aligned call by call (tree.h); with --first-only read
 * only up to the end of the call holding the first difference. 0 or a
 * TT_E* code. */
struct ttdi_tree;
int ttdi_align_tree(ttd_diff *d, ttdi_ipair *p, struct ttdi_tree *tr);

/* ---- hunks.c ------------------------------------------------------------- */

/* Index whose time stands for a split at key index i of a thread with n
 * keys: the event at i, else the last one; UINT64_MAX if it has none. */
uint64_t ttdi_probe_index(uint64_t i, uint64_t n);
/* Append the range [lo, hi) -> out to rq[*n] (nothing if empty). */
int ttdi_add_req(ttdi_req *rq, size_t *n, uint64_t lo, uint64_t hi,
                ttd_event *out);
/* Resolve the hunks of every pair into the result. 0 or a TT_E* code. */
int ttdi_resolve(ttd_diff *d);

/* ---- detail.c, suspects.c ------------------------------------------------ */

/* Source file and line of a function (addr) or scope (site) of the bad
 * run, through the module loaded at time_ns (NULL, 0 if unknown). */
void ttd_locate(ttd_diff *d, uint64_t addr, uint32_t site, uint64_t time_ns,
                const char **file, int *line);
/* Rank the suspects of the split in dv from the ring of pass b. 0 or
 * TT_ENOMEM. */
int ttdi_suspects(ttd_diff *d, const ttdi_ipair *p, const ttdi_pass_spec *b,
                 ttd_divergence *dv);

/* ---- evidence (evidence.c) ----------------------------------------------- */

#define TTDI_EVID_MAX 12            /* evidence kept per suspect */

/* Weights of the evidence kinds (evidence.c says why). */
#define TTDI_W_FRAME 3.0
#define TTDI_W_VALUE 4.0
#define TTDI_W_ERROR 4.0
#define TTDI_W_ARGS 1.0
#define TTDI_W_ARG_ORIGIN 4.0
#define TTDI_W_CODE 6.0
#define TTDI_W_NOISE (-2.0)
#define TTDI_W_THREAD 2.0
#define TTDI_W_CHAIN 2.0
#define TTDI_W_CHAIN_ORIGIN 2.0     /* added for the chain's earliest step */
#define TTDI_W_TRIVIAL (-1.5)

/* Why a differing value is not a cause by itself. */
enum ttdi_noise {
    TTDI_NOISE_NONE = 0,
    TTDI_NOISE_BASELINE,    /* its slot also differs between good runs */
    TTDI_NOISE_ADDR,        /* a 64-bit integer of magnitude >= 2^44 in both
                               runs: an address, a time stamp or a hash */
    TTDI_NOISE_CLOCK        /* a return value that grows from call to call
                               within a run, or of a function named like a
                               clock (time, now, tick, rand, pid...) */
};

#define TTDI_ADDR_LIKE (1ull << 44)

/* Add a piece of evidence (text by fmt) to x, its weight to x->score;
 * each kind once (a second is ignored), at most TTDI_EVID_MAX. Memory in
 * a. 0 or TT_ENOMEM. */
int ttdi_evid_add(struct ttfi_arena *a, ttd_suspect *x, int kind, double weight,
                  const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Take x's evidence of that kind back (its weight off the score). */
void ttdi_evid_drop(ttd_suspect *x, int kind);
/* 1 if x has evidence of that kind. */
int ttdi_evid_has(const ttd_suspect *x, int kind);
/* Rank s[0..n) by score, highest first (ties: nearer the split, then the
 * order given); each suspect's evidence strongest first. */
void ttdi_suspects_rank(ttd_suspect *s, size_t n);
/* 1 if a function name has a word naming a clock or chance (time, now,
 * tick, rand, seed, pid...: getTimeNs, clock_now; not runtime). */
int ttdi_clock_name(const char *name);
/* TTDI_NOISE_ADDR or _CLOCK when a differing value of type ty (good, bad:
 * the registers) is noise by its own look; func: the function, is_return:
 * 1 for its return value. TTDI_NOISE_NONE otherwise. */
int ttdi_value_noise(const ttf_vtype *ty, uint64_t good, uint64_t bad,
                     const char *func, int is_return);
/* The reason as words: "it also varies between the good runs". */
const char *ttdi_noise_words(int why);
/* 1 if a value's answer flipped between good and bad: one reads as an
 * error and the other not (ttdi_value_error), or an integer was 0 in one
 * run and 1 in the other (a yes/no answer). */
int ttdi_value_flip(const ttf_vtype *ty, uint64_t good, uint64_t bad);
/* 1 if a value reads as an error (a negative signed integer, NULL, false,
 * a size_t error code), 0 if as success, -1 if it cannot tell. */
int ttdi_value_error(const ttf_vtype *ty, uint64_t raw);

#endif
