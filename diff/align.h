/*
 * align.h - stage 1 of diff/ (diff/STAGES): the aligners. Keys in, hunks
 * out: Myers' O(ND) on two key sequences (align.c), a thread's keys with
 * loops collapsed and the zones where good runs vary (seq.c), the call
 * trees of tree.h (tree.c, talign.c), the comparison of call values along
 * an alignment (values.c) and the noise by function learnt from good runs
 * (fnoise.c). Built on prepare.h only; the engine's state (state.h) and
 * what drives these over a thread pair (pair_align.c) sit on top.
 * Internal to libttdiff (ttdi_, hidden).
 */
#ifndef TTDI_ALIGN_H
#define TTDI_ALIGN_H

#include <stddef.h>
#include <stdint.h>

#include "prepare.h"

/* ---- sequences of keys (align.c) ----------------------------------------- */

/* One differing region; a half-open range on each side, either may be empty. */
typedef struct ttdi_hunk {
    size_t a0, a1;  /* a[a0..a1) only in the good run (deleted) */
    size_t b0, b1;  /* b[b0..b1) only in the bad run (inserted) */
} ttdi_hunk;

/* Align two sequences of 64-bit keys. On success *out (malloc'd, caller
 * frees; NULL when *nout == 0) holds the differing regions in ascending
 * order; between two hunks, and before the first / after the last, the
 * sequences match element for element. minimal != 0 gives an exact
 * shortest edit script (no cost cap). Returns 0, or TT_ENOMEM (also when
 * the part left after trimming the common prefix and suffix has 2^29 or
 * more elements on a side). */
int ttdi_align(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
               int minimal, ttdi_hunk **out, size_t *nout);

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
    ttdi_keybuf k;          /* item keys */
    ttdi_keybuf map;        /* collapse: raw index of item i */
    size_t n;               /* items */
    uint64_t raw;           /* raw keys fed */
    int collapse;           /* 1: collapse loops */
    ttdi_loop *loops;       /* collapsed loops by item index */
    size_t nloops, loopcap;
    ttdi_cframe *st;        /* open calls, [0] is the thread's top level */
    size_t nst, stcap;
    ttdi_openset open;      /* EXIT keys of st[1..nst) */
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
void ttdi_zones_clear(ttdi_zones *z);   /* empty, memory kept */
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
    ttdi_vdiff first;       /* the first differing value (events order) */
    ttdi_vdiff *rets;       /* differing return values, bad index order */
    size_t nrets, capr;     /* (at most TTDI_VRETS_MAX kept) */
    uint64_t compared;      /* values compared */
    uint64_t noise;         /* differences ignored as good-run noise */
} ttdi_vfound;

#define TTDI_VRETS_MAX 65536

/* The values a pass that reads both threads in step anyway (the tree
 * aligner's load, while the keys agree) compared on the way, so that the
 * walk after the alignment need not read that prefix again. */
typedef struct ttdi_vstep {
    int on;                 /* 1: the pass compared in step */
    uint64_t n;             /* key indexes [0, n) were compared */
    ttdi_vfound vf;         /* what they found (no noise set) */
    int ended;              /* a side ended at n (nothing after to compare) */
    int held;               /* 1: w holds the walks at key index n */
    ttdi_walk w[2];         /* clones of both walks there, its event read */
} ttdi_vstep;

/* In step: compare the values of the pair of events at g and b (the same
 * key index, the same key, w->key set). 0 or a TT_E* code. */
int ttdi_values_step(const ttdi_walk *g, const ttdi_walk *b, ttdi_vstep *vs);
/* Where the keys first differ (or got_g / got_b is 0: a side ended):
 * keep clones of both walks, their events just read. 0 or a TT_E* code. */
int ttdi_values_hold(const ttdi_walk *g, const ttdi_walk *b, int got_g, int got_b,
                     ttdi_vstep *vs);
void ttdi_vstep_free(ttdi_vstep *vs);

/* One side of a value comparison: a thread of a run. */
typedef struct ttdi_vside {
    ttdi_norm *norm;        /* the run's normaliser (and symbols) */
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
 * the differing returns. With vs (may be NULL), without noise, it goes on
 * from the pairs vs compared when no hunk starts before them (else it
 * reads from the start). 0 or a TT_E* code. */
int ttdi_values_compare(ttdi_vside g, ttdi_vside b, const ttdi_hunk *h,
                        size_t nh, ttdi_openset *noise, int collect_noise,
                        ttdi_vstep *vs, ttdi_vfound *out);
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

/* Whether values g (good run, normaliser ng, at time gns) and b (bad
 * run) of type ty differ as the diff compares them: integers, enums and
 * bools by ttf_value_norm; pointers by NULL / non-NULL and, when either
 * points into a module's image, by what it names there (a data symbol and
 * offset, a string literal's bytes, a function: values_ptr.c), so two
 * static messages differ and one object at two addresses does not. NULL
 * normalisers: pointers by NULL / non-NULL only. 1 differs, 0 same. */
int ttdi_value_differs(ttdi_norm *ng, ttdi_norm *nb, const ttf_vtype *ty, uint64_t g,
                       uint64_t b, uint64_t gns, uint64_t bns);
/* Parameter i of sig's strings in the ENTERs g and b (format 1.6: the
 * first bytes of a char * or std::string, ttf_event_string): 1 with *sg
 * and *sb when both runs recorded them and they are a string's (not the
 * implicit `this`, not a buffer whose length is the next parameter), and
 * then the parameter is compared by content (ttf_string_same), not as a
 * pointer; else 0. */
int ttdi_arg_strings(const ttf_signature *sig, size_t i, const ttf_event *g,
                     const ttf_event *b, ttf_string *sg, ttf_string *sb);
/* Are the strings sg (the good run's) and sb the same (ttf_string_same)?
 * Bytes from where a string holds its own run's trace path on (TTCAP_OUT
 * in an environment the program walks: "good.trc" against "bad.trc") do
 * not count. May cut sg and sb. */
int ttdi_strings_same(const ttdi_norm *ng, const ttdi_norm *nb, ttf_string *sg, ttf_string *sb);
/* A struct or class of at most 16 bytes that both runs passed in the same
 * registers (ttf_param reg, reg2, fields), in the ENTERs g and b: 1 if a
 * field differs. Field by field, each cut from its eightbyte as a scalar
 * of its type and compared as one (ttdi_value_differs: a pointer field as
 * pointers are); padding bytes, which hold whatever the caller left
 * there, are never compared; a union, a bit-field or a base class has no
 * fields, and a class passed by reference is not in registers: 0. */
int ttdi_struct_differs(ttdi_norm *ng, ttdi_norm *nb, const ttf_param *pg, const ttf_param *pb,
                        const ttf_event *g, const ttf_event *b);
/* 1 if sig's result is a small struct whose eightbytes are all in rax
 * and xmm0 (ttf_signature ret_eb), which EXIT events record. */
int ttdi_ret_struct(const ttf_signature *sig);
/* Such a result of the EXITs g (signature sg) and b (sb): 1 if a field
 * differs, by the rules of ttdi_struct_differs. */
int ttdi_struct_ret_differs(ttdi_norm *ng, ttdi_norm *nb, const ttf_signature *sg,
                            const ttf_signature *sb, const ttf_event *g, const ttf_event *b);
/* A hash of such a struct's eightbytes in ev (to remember a pair as
 * noise, never to compare). */
uint64_t ttdi_struct_hash(const ttf_param *p, const ttf_event *ev);
/* A content hash of s (equal strings, as far as ttf_string_same can
 * tell, may still hash apart when one was cut: use it to remember a pair
 * as noise, never to compare). */
uint64_t ttdi_string_hash(const ttf_string *s);

/* What pointer p of run n at time ns names in a module's image, as text
 * into buf (len bytes): "\"No error\"" for a string literal, "&name" or
 * "&name+8" for a symbol; "" and 0 when it names nothing known. The
 * length written. */
size_t ttdi_pointee_text(ttdi_norm *n, uint64_t p, uint64_t ns, char *buf, size_t len);

/* Raw value v of type ty of run n at time ns as text into buf (len
 * bytes): a pointer into a module's image as what it names there and its
 * address ("\"No error\" (0x55d0c1a2b9e8)"), else ttf_value_format's. */
void ttdi_value_text(ttdi_norm *n, uint64_t v, const ttf_vtype *ty, uint64_t ns, char *buf,
                     size_t len);

/* Fill out (pair, file and line left to the caller) from difference v of
 * the runs' normalisers ng, nb (names from nb; a pointer into a module's
 * image is shown as what it names there too); strings in a. 0 or
 * TT_ENOMEM. */
int ttdi_values_result(struct ttfi_arena *a, ttdi_norm *ng, ttdi_norm *nb, const ttdi_vdiff *v,
                       ttd_value_diff *out);

/* ---- noise by function (fnoise.c) --------------------------------------- */

/* One side of a thread pair's hunks: a thread of a run. */
typedef struct ttdi_fside {
    const ttf_trace *t;     /* the run */
    ttdi_norm *norm;        /* its normaliser */
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

#endif
