/*
 * engine_int.h - what the files of diff/ share and nobody else sees: the
 * normaliser (event -> 64-bit key), the thread pairing and the string arena.
 * Names carry the ttd_ prefix but are hidden (-fvisibility=hidden).
 */
#ifndef TTD_ENGINE_INT_H
#define TTD_ENGINE_INT_H

#include "align.h"
#include "ttdiff.h"

/* ---- per-address cache (open addressing, power-of-two size) ------------ */

typedef struct ttd_slot {
    uint64_t id;        /* address, or site id | TTD_SITE_BIT */
    uint64_t hash;      /* XXH3 of what identifies it (name; site fmt+func) */
    const char *name;   /* function name (symbols' or call site's string) */
    int keep;           /* 1: passes --function/--exclude */
    int used;           /* 1: slot taken */
} ttd_slot;

typedef struct ttd_cache {
    ttd_slot *slots;    /* cap slots */
    size_t cap;         /* power of two, 0 before the first insert */
    size_t n;           /* slots used */
} ttd_cache;

#define TTD_SITE_BIT (1ull << 63)

/* ---- normaliser: one per run ------------------------------------------- */

typedef struct ttd_norm {
    const ttf_trace *trace; /* the run */
    ttf_sym *sym;           /* its symbols (owned by the norm) */
    int messages;           /* TTD_MSG_* */
    const ttd_regex *keep;  /* --function, NULL = all */
    const ttd_regex *drop;  /* --exclude, NULL = none */
    ttd_cache funcs;        /* ENTER/EXIT by address (scopes by site) */
    ttd_cache sites;        /* MESSAGE/MARK by site id */
    char *buf;              /* formatted message text */
    size_t buflen;          /* its size */
} ttd_norm;

/* Set up n over trace t (opens its symbols, C++ names demangled unless
 * no_demangle). 0, TT_ENOMEM or a symbol error. */
int ttd_norm_init(ttd_norm *n, const ttf_trace *t, int messages,
                  const ttd_regex *keep, const ttd_regex *drop,
                  int no_demangle);
void ttd_norm_free(ttd_norm *n);

/* The key of ev: 1 with *key set if it takes part in the alignment, 0 if
 * it is filtered out or never compared (thread, module, sync events), or
 * TT_ENOMEM. */
int ttd_norm_key(ttd_norm *n, const ttf_event *ev, uint64_t *key);

/* The function name of an ENTER/EXIT event (cached). */
const char *ttd_norm_func(ttd_norm *n, const ttf_event *ev);

/* The formatted text of a MESSAGE/MARK event in n->buf ("?" on failure). */
const char *ttd_norm_text(ttd_norm *n, const ttf_event *ev);

/* The EXIT key that closes a call entered with ENTER key k. */
uint64_t ttd_norm_exit_of(uint64_t enter_key);

/* ---- open-frame counts (openset.c) --------------------------------------- */

/* How many open frames carry each key: a multiset kept beside a call
 * stack, so an EXIT that closes no open frame is told in O(1) expected
 * instead of by a scan of the whole stack. */
typedef struct ttd_openset {
    struct ttd_oslot *slot; /* open addressing, power-of-two size */
    size_t cap;             /* slots (0 before the first add) */
    size_t used;            /* slots holding a key */
} ttd_openset;

/* Count one more frame with key k. 0 or TT_ENOMEM. */
int ttd_openset_add(ttd_openset *o, uint64_t k);
/* Count one frame fewer with key k (it must have been added). */
void ttd_openset_del(ttd_openset *o, uint64_t k);
/* Frames open with key k. */
uint64_t ttd_openset_count(const ttd_openset *o, uint64_t k);
/* Forget all keys (the memory is kept). */
void ttd_openset_clear(ttd_openset *o);
void ttd_openset_free(ttd_openset *o);

/* ---- key sequences (seq.c) ---------------------------------------------- */

/* A growable array of 64-bit words, mapped with huge pages where allowed. */
typedef struct ttd_keybuf {
    uint64_t *k;            /* the words */
    size_t cap;             /* words that fit */
    size_t bytes;           /* mapped size */
} ttd_keybuf;

/* Room for n words, keeping the first keep. 0 or TT_ENOMEM. */
int ttd_keybuf_reserve(ttd_keybuf *kb, size_t n, size_t keep);
void ttd_keybuf_free(ttd_keybuf *kb);

/* A collapsed loop: item `item` stands for `count` identical subtrees of
 * `unit` raw events each. */
typedef struct ttd_loop {
    size_t item;            /* its item index */
    uint64_t count;         /* repetitions (>= 2) */
    uint64_t unit;          /* raw events in one repetition */
} ttd_loop;

/* One open call while collapsing (see seq.c). */
typedef struct ttd_cframe ttd_cframe;

/* What one thread contributes to an alignment: its keys, or with collapse
 * the items (a raw key, or one loop item per run of identical subtrees)
 * with the raw index where each starts. */
typedef struct ttd_seq {
    ttd_keybuf k;           /* item keys */
    ttd_keybuf map;         /* collapse: raw index of item i */
    size_t n;               /* items */
    uint64_t raw;           /* raw keys fed */
    int collapse;           /* 1: collapse loops */
    ttd_loop *loops;        /* collapsed loops by item index */
    size_t nloops, loopcap;
    ttd_cframe *st;         /* open calls, [0] is the thread's top level */
    size_t nst, stcap;
    ttd_openset open;       /* EXIT keys of st[1..nst) */
} ttd_seq;

/* Start filling s again (its memory is kept); bound = raw events expected. */
int ttd_seq_reset(ttd_seq *s, int collapse, size_t bound);
/* Add the next raw key (of event kind). 0 or TT_ENOMEM. */
int ttd_seq_feed(ttd_seq *s, uint64_t key, int kind);
void ttd_seq_free(ttd_seq *s);
/* Raw index where item i starts (i == s->n: s->raw). */
uint64_t ttd_seq_raw(const ttd_seq *s, size_t i);
/* The loop at item i, NULL if item i is no loop. */
const ttd_loop *ttd_seq_loop(const ttd_seq *s, size_t i);

/* A hunk in item space; a loop count hunk has reps set and covers one
 * matched loop item on each side. */
typedef struct ttd_xhunk {
    size_t a0, a1, b0, b1;  /* items as in ttd_hunk */
    uint64_t reps[2];       /* count hunk: repetitions good, bad; else 0 */
} ttd_xhunk;

/* Align a and b (ttd_align) and add a count hunk for every matched pair of
 * loop items whose counts differ. *out malloc'd, ascending. 0 or
 * TT_ENOMEM. */
int ttd_seq_align(const ttd_seq *a, const ttd_seq *b, int minimal,
                  ttd_xhunk **out, size_t *nout);
/* The raw ranges of item hunk x (count hunk: the extra repetitions). */
void ttd_seq_to_raw(const ttd_seq *a, const ttd_seq *b, const ttd_xhunk *x,
                    ttd_hunk *out);

/* Where the good run varies: closed item ranges of the good sequence, each
 * with the keys seen differing there (sorted, unique). */
typedef struct ttd_zones {
    size_t *lo, *hi;        /* range of zone i */
    size_t *k0, *nk;        /* its keys: keys[k0[i] .. + nk[i]) */
    size_t n, cap;
    uint64_t *keys;         /* all zones' keys */
    size_t nkeys, keycap;
} ttd_zones;

/* Add the zones of good sequence g vs another good run o (hunks x[nx]):
 * each hunk's range widened over neighbouring good items whose keys also
 * differ in it. 0 or TT_ENOMEM. */
int ttd_zones_add(ttd_zones *z, const ttd_seq *g, const ttd_seq *o,
                  const ttd_xhunk *x, size_t nx);
/* Sort and merge overlapping zones (keys united). 0 or TT_ENOMEM. */
int ttd_zones_finish(ttd_zones *z);
/* 1 if hunk x of g vs b lies in one zone and every key it holds on either
 * side differs there between good runs too. */
int ttd_zones_cover(const ttd_zones *z, const ttd_seq *g, const ttd_seq *b,
                    const ttd_xhunk *x);
void ttd_zones_clear(ttd_zones *z);     /* empty, memory kept */
void ttd_zones_free(ttd_zones *z);

/* ---- values (values.c) --------------------------------------------------- */

/* A value that differed between two aligned calls. */
typedef struct ttd_vdiff {
    uint64_t idx[2];        /* key index of the ENTER/EXIT in good, bad */
    ttf_event ev[2];        /* the two events (good, bad) */
    int what;               /* TTD_VAL_RETURN or TTD_VAL_ARG */
    int arg;                /* ARG: parameter index */
    const ttf_signature *sig; /* the bad run's signature of the function */
} ttd_vdiff;

/* What comparing the values of one thread pair found. */
typedef struct ttd_vfound {
    int found;              /* 1: first holds the first difference */
    ttd_vdiff first;        /* the first differing value (events order) */
    ttd_vdiff *rets;        /* differing return values, bad index order */
    size_t nrets, capr;     /* (at most TTD_VRETS_MAX kept) */
    uint64_t compared;      /* values compared */
    uint64_t noise;         /* differences ignored as good-run noise */
} ttd_vfound;

#define TTD_VRETS_MAX 65536

/* One side of a value comparison: a thread of a run. */
typedef struct ttd_vside {
    ttd_norm *norm;         /* the run's normaliser (and symbols) */
    uint32_t thread;        /* thread index */
} ttd_vside;

/* Walk threads g and b in step over the events aligned outside hunks
 * h[nh] (raw key indexes, ascending) and compare the values of each pair
 * of calls (comparable return values and arguments, by signature). With
 * collect_noise set (g against another good run), every difference's
 * (function, value) goes into noise; otherwise differences already in
 * noise are skipped and counted, and *out gets the first difference and
 * the differing returns. 0 or a TT_E* code. */
int ttd_values_compare(ttd_vside g, ttd_vside b, const ttd_hunk *h,
                       size_t nh, ttd_openset *noise, int collect_noise,
                       ttd_vfound *out);
void ttd_vfound_free(ttd_vfound *f);
/* The differing return at bad key index idx, NULL if none. */
const ttd_vdiff *ttd_vfound_ret(const ttd_vfound *f, uint64_t idx);

/* 1 if both traces carry values (format 1.1). */
int ttd_values_on(const ttf_trace *g, const ttf_trace *b);

/* Text of a call's values by signature into buf: "(1, NULL)" for an ENTER,
 * "-22" for an EXIT; 0 with "" when there is nothing to show (no values,
 * no signature, a void, float or struct result). Returns the length. */
size_t ttd_values_text(ttd_norm *n, const ttf_event *ev, char *buf,
                       size_t len);

/* 1 if name reads as a lock wrapper (a word lock, unlock, mutex, spin...
 * in snake_case or CamelCase: pthread_mutex_lock, LockGuard; not
 * read_block). */
int ttd_lock_wrapper(const char *name);

typedef struct ttd_arena ttd_arena;

/* Fill out (pair, file and line left to the caller) from difference v of
 * the bad run's normaliser nb; strings in a. 0 or TT_ENOMEM. */
int ttd_values_result(ttd_arena *a, ttd_norm *nb, const ttd_vdiff *v,
                      ttd_value_diff *out);

/* ---- thread pairing ----------------------------------------------------- */

/* One thread as the pairing sees it. */
typedef struct ttd_tinfo {
    uint32_t index;     /* creation order */
    const char *name;   /* last name, else first name, else "" */
    const char *start;  /* first function entered, "" if none */
    int64_t partner;    /* thread index in the other run, -1 if none */
    int paired_by;      /* TTD_PAIR_* when paired */
} ttd_tinfo;

/* Pair the threads of two runs (g[ng], b[nb]); fills partner and paired_by
 * on both sides. Deterministic; never fails. */
void ttd_pair_threads(ttd_tinfo *g, size_t ng, ttd_tinfo *b, size_t nb);

/* ---- arena: result memory, freed at once -------------------------------- */

struct ttd_arena {
    struct ttd_block *head; /* newest block first */
};

void *ttd_arena_alloc(ttd_arena *a, size_t size);  /* zeroed, NULL on ENOMEM */
char *ttd_arena_strdup(ttd_arena *a, const char *s);
void ttd_arena_free(ttd_arena *a);

#endif
