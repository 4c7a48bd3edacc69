/*
 * align.h - stage 1 of diff/ (diff/STAGES): the aligners. Keys in, hunks
 * out: Myers' O(ND) on two key sequences (align.c), a thread's keys with
 * loops collapsed and the zones where good runs vary (seq.c), the call
 * trees of tree.h (tree.c, talign.c), the comparison of call values along
 * an alignment (values.c) and the noise by function learnt from good runs
 * (fnoise.c); the value rules every stage shares (vrules.c) and the
 * replay of a pair's values as a tree of calls (replay.c), which goes on
 * from what align's values walk replayed over the common prefix. Built on
 * prepare.h only; the engine's state (state.h) and what drives these over
 * a thread pair (pair_align.c) sit on top.
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

/* A thread's last EXIT as the values walk passed it: a relay's result is
 * a comparator's when it is the one its last callee returned (values.c). */
typedef struct ttdi_vlast {
    uint64_t ret;           /* its raw result */
    int depth;              /* its ttf_event depth */
    int cmp;                /* 1: a comparator's result (ttdi_cmp_result) */
} ttdi_vlast;

/* 1 if EXIT ev of run n returns a comparator's result, whose callers may
 * use only its sign: its function's machine code returns a sign-only C
 * library comparison's result unchanged (format's ttf_sym_code_cmpret,
 * cached in n), or an indirect call's result (a C++ virtual Compare) and
 * last, the thread's EXIT before it, is its callee's, returned the same
 * 32 bits and was a comparator's. */
int ttdi_cmp_result(ttdi_norm *n, const ttf_event *ev, const ttdi_vlast *last);
/* The comparator kind (TTF_CMPRET_*) of the function of EXIT ev (with
 * values, no site) of run n, as ttdi_cmp_result asks it (once per
 * function address and run: its answer for every later EXIT there). */
unsigned ttdi_cmp_kind(ttdi_norm *n, const ttf_event *ev);
/* 1 if integer results g and b of type ty differ by their sign class
 * (negative, zero, positive): 1 against 3 is the same, 1 against 0 or -1
 * is not. */
int ttdi_sign_differs(const ttf_vtype *ty, uint64_t g, uint64_t b);

/* What comparing the values of one thread pair found. */
typedef struct ttdi_vfound {
    int found;              /* 1: first holds the first difference */
    ttdi_vdiff first;       /* the first differing value (events order) */
    ttdi_vdiff *rets;       /* differing return values, bad index order */
    size_t nrets, capr;     /* (at most TTDI_VRETS_MAX kept) */
    uint64_t compared;      /* values compared */
    uint64_t noise;         /* differences ignored as good-run noise */
    uint64_t times;         /* differences that are times near each run's
                               own clock (ttdi_time_like): not differences */
    ttdi_vlast last[2];     /* each run's last EXIT passed (relays) */
} ttdi_vfound;

#define TTDI_VRETS_MAX 65536

/* The values a pass that reads both threads in step anyway (the tree
 * aligner's load, while the keys agree) compared on the way, so that the
 * walk after the alignment need not read that prefix again. */
/* The values walk's answer for one pair it compared by a plan and found
 * the same: the plan's operations (all answered "the same"), the values
 * it counted, whether a parameter may be compared as a string (values.c
 * vplan). The prefix replay, comparing the same pair by its own rules
 * (replay.c), takes that answer where its own comparisons are these. */
typedef struct ttdi_vsame {
    const struct ttdi_vop *op; /* NULL: no such answer for the pair */
    unsigned nops;
    uint32_t counted;
    int strings;
    uint32_t version;       /* op's plan: how many were made in its slot
                               (op and version name one plan) */
    int kind;               /* TTF_EV_ENTER or TTF_EV_EXIT */
    int sign;               /* EXIT: both returned a comparator's result
                               (a signed one compared by its sign) */
} ttdi_vsame;

typedef struct ttdi_vstep {
    int on;                 /* 1: the pass compared in step */
    uint64_t n;             /* key indexes [0, n) were compared */
    ttdi_vfound vf;         /* what they found (no noise set) */
    int ended;              /* a side ended at n (nothing after to compare) */
    int held;               /* 1: w holds the walks at key index n */
    ttdi_walk w[2];         /* clones of both walks there, its event read */
    int share;              /* 1: a prefix replay takes the answers (same) */
    ttdi_vsame same;        /* with share, the last pair's, when its plan
                               found it the same (valid until the next step) */
} ttdi_vstep;

/* In step: compare the values of the pair of events at g and b (the same
 * key index, the same key, w->key set). 0 or a TT_E* code. */
int ttdi_values_step(ttdi_walk *g, ttdi_walk *b, ttdi_vstep *vs);
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
/* Tests only: 1 makes the values walk compare every pair by the general
 * path, never by a plan of its pair of functions (values.c vplan);
 * ttdi_values_planned counts the pairs a plan answered. */
extern int ttdi_values_plans_off;
extern uint64_t ttdi_values_planned;
/* Read keyed walk w on until its current event is the one at key index
 * idx: 1, 0 when the thread ends first or has no event there, or a TT_E*
 * code. */
int ttdi_values_seek(ttdi_walk *w, uint64_t idx);
/* Compare n events of walks wg and wb from their current ones (read, the
 * walks advanced): 1 when the keys agree all along and no value differs
 * (differences in noise skipped, as ttdi_values_compare does), 0 when
 * not (out->found and out->first: the first value that differs, if one
 * did), or a TT_E* code. The caller frees out (ttdi_vfound_free). */
int ttdi_values_span(ttdi_walk *wg, ttdi_walk *wb, uint64_t n, ttdi_openset *noise,
                     ttdi_vfound *out);

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

/* Whether values g (good run, normaliser ng, at time gns) and b (bad
 * run) of type ty differ as the diff compares them: integers, enums and
 * bools by ttf_value_norm; pointers by NULL / non-NULL and, when either
 * points into a module's image, by what it names there (a data symbol and
 * offset, a string literal's bytes, a function: values_ptr.c), so two
 * static messages differ and one object at two addresses does not. NULL
 * normalisers: pointers by NULL / non-NULL only. 1 differs, 0 same. */
int ttdi_value_differs(ttdi_norm *ng, ttdi_norm *nb, const ttf_vtype *ty, uint64_t g,
                       uint64_t b, uint64_t gns, uint64_t bns);
/* The module of run n holding address a at time ns (its index in the
 * trace), or -1 (values_ptr.c: the extents copied once into n). */
long ttdi_module_at(ttdi_norm *n, uint64_t a, uint64_t ns);
/* The epoch of time ns in run n (values_ptr.c): how many of its modules'
 * loads and unloads came at or before ns. Within one epoch every module
 * is loaded or not alike, so what an address names (its module, its
 * function, its signature) is the same at every time of the epoch. The
 * last epoch's times are kept in n (ep_lo, ep_hi): a thread's events come
 * in time order, so most asks are two compares; ttdi_epoch_slow counts. */
uint32_t ttdi_epoch_slow(ttdi_norm *n, uint64_t ns);
/* The time of run n's last module load or unload (0: none): every time
 * from there on is of its last epoch, so a pass that reads times only
 * through the epochs (the values compared in step, pair_align.c) needs
 * none past it. */
uint64_t ttdi_epochs_end(ttdi_norm *n);
static inline uint32_t ttdi_epoch_at(ttdi_norm *n, uint64_t ns)
{
    return ns >= n->ep_lo && ns < n->ep_hi ? n->ep : ttdi_epoch_slow(n, ns);
}
/* Address a lies in one of the ranges of run n found to be between every
 * module's extent at any time (ttdi_norm.gaps: no module holds it, ever;
 * 0 also when a is not in one of those kept). */
static inline int ttdi_in_gaps(const ttdi_norm *n, uint64_t a)
{
    for (int k = 0; k < 4; k++)
        if (a - n->gaps[k][0] < n->gaps[k][1] - n->gaps[k][0])
            return 1;
    return 0;
}
/* One scalar comparison decided once from the types (values.c's plans of
 * a pair of functions, replay.c's of a signature): registers rg, rb
 * (argregs index, or TTDI_VOP_RETVAL / TTDI_VOP_RETXMM) shifted right by
 * sh bits, compared by ttdi_value_differs' rules for type ty. */
enum {
    TTDI_VOP_BITS,          /* differ when the masked bits differ (integers,
                               enums, floats cut to their size) */
    TTDI_VOP_BOOL,          /* a bool: its masked bits zero or not */
    TTDI_VOP_PTR            /* a pointer: ttdi_value_differs */
};
#define TTDI_VOP_RETVAL TTF_VALUE_SLOTS     /* register numbers past argregs */
#define TTDI_VOP_RETXMM (TTF_VALUE_SLOTS + 1)
typedef struct ttdi_vop {
    uint64_t mask;          /* TTDI_VOP_BITS, TTDI_VOP_BOOL */
    const ttf_vtype *ty;    /* the type */
    uint8_t kind;           /* TTDI_VOP_* */
    uint8_t rg, rb;         /* the registers */
    uint8_t sh;             /* a field's bit offset in its eightbyte */
    uint8_t sign;           /* values.c: a signed result, by its sign class
                               when both runs returned a comparator's */
} ttdi_vop;
/* The operation comparing scalar type ty (ttdi_value_differs' rules:
 * ttf_value_norm of an integer, enum or float is a cut to its size, of a
 * bool the cut's zero or not) from registers rg, rb shifted by sh bits. */
ttdi_vop ttdi_vop_scalar(const ttf_vtype *ty, int rg, int rb, unsigned sh);
/* The fields of struct types tg, tb as ttdi_struct_differs compares them
 * (registers rg[k], rb[k] of eightbyte k, okg[k], okb[k]: recorded), as
 * operations after the *n of ops (cap at most): 0, -1 when too many. */
int ttdi_vop_fields(ttdi_vop *ops, uint8_t *n, unsigned cap, const ttf_vtype *tg,
                    const ttf_vtype *tb, const int rg[2], const int rb[2], const int okg[2],
                    const int okb[2]);
/* ttdi_struct_differs' operations for parameters pg, pb, the same way. */
int ttdi_vop_struct_arg(ttdi_vop *ops, uint8_t *n, unsigned cap, const ttf_param *pg,
                        const ttf_param *pb);
static inline uint64_t ttdi_vop_reg(const ttf_event *ev, unsigned r)
{
    return r < TTF_VALUE_SLOTS ? ev->argregs[r] : r == TTDI_VOP_RETVAL ? ev->retval : ev->retxmm;
}
/* Do the values vg, vb (registers already read and shifted) of events at
 * gns, bns differ by op o? ttdi_value_differs' answer. */
static inline int ttdi_vop_differs(const ttdi_vop *o, ttdi_norm *ng, ttdi_norm *nb, uint64_t vg,
                                   uint64_t vb, uint64_t gns, uint64_t bns)
{
    if (o->kind == TTDI_VOP_BITS)
        return ((vg ^ vb) & o->mask) != 0;
    if (o->kind == TTDI_VOP_BOOL)
        return !(vg & o->mask) != !(vb & o->mask);
    if (!vg || !vb)
        return !vg != !vb;
    if (ttdi_in_gaps(ng, vg) && ttdi_in_gaps(nb, vb))
        return 0;   /* heap or stack in both (ttdi_value_differs' answer) */
    return ttdi_value_differs(ng, nb, o->ty, vg, vb, gns, bns);
}
/* Parameter i of sig's strings in the ENTERs g and b (format 1.6: the
 * first bytes of a char * or std::string, ttf_event_string): 1 with *sg
 * and *sb when both runs recorded them and they are a string's (not the
 * implicit `this`, not a buffer whose length is the next parameter), and
 * then the parameter is compared by content (ttf_string_same), not as a
 * pointer; else 0. */
int ttdi_arg_strings(const ttf_signature *sig, size_t i, const ttf_event *g,
                     const ttf_event *b, ttf_string *sg, ttf_string *sb);
/* Bytes at the end of sg and sb that are a user-space address the string
 * ran into (ASLR changes it in every run), cut: six bytes with a high
 * byte 0x55/0x56/0x7f; in the other run, the same address with a zero
 * byte among its low five, 1-5 bytes past the same text. */
void ttdi_drop_addresses(ttf_string *sg, ttf_string *sb);
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
/* 1 when such a struct argument p of the ENTERs g and b is a clock
 * reading in both runs: seconds and a fraction of one near each run's own
 * clock at the call (ttdi_struct_time_like; the events' times exact). A
 * struct result of two integers comes back in rax and rdx, and EXITs do
 * not record rdx: results are not asked. */
int ttdi_struct_arg_time(const ttdi_norm *ng, const ttdi_norm *nb, const ttf_param *p,
                         const ttf_event *g, const ttf_event *b);
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

/* ---- the value rules every stage shares (vrules.c) ------------------------ */

/* Why a differing value is not a cause by itself. */
enum ttdi_noise {
    TTDI_NOISE_NONE = 0,
    TTDI_NOISE_BASELINE,    /* its slot also differs between good runs */
    TTDI_NOISE_ADDR,        /* a 64-bit integer of magnitude >= 2^44 in both
                               runs (an address, a time stamp or a hash),
                               or a wall-clock time in seconds or ms since
                               1970 (2000..2100, less than 10^7 apart) */
    TTDI_NOISE_CLOCK,       /* a return value that grows from call to call
                               within a run (per function, whatever the
                               call site), two 64-bit values of 10^12 or
                               more less than 1/1000 apart (a clock in ns
                               or us since boot), each run's own pid
                               (ttdi_own_pid), or of a function named like
                               a clock (time, now, tick, rand, pid...) */
    TTDI_NOISE_TIMEOUT,     /* a value whose every use the trace shows ends
                               as the timeout of a recorded I/O wait that
                               was woken early in both runs (timeouts.c) */
    TTDI_NOISE_DEADLINE,    /* a value whose every use ends as the timeout
                                   of recorded I/O waits that ran to it in
                                   both runs, the values differing by what
                                   the runs' own clock readings say: the
                                   time left to one deadline (timeouts.c) */
    TTDI_NOISE_ROUNDED,     /* a double whose every use ends as the timeout
                               of recorded I/O waits that asked the same
                               time in both runs (the difference rounded
                               away by the wait's step), no call parting
                               from the wait on (timeouts.c) */
    TTDI_NOISE_SWAP         /* an argument of one of two calls of one
                               function that ran in the other order, the
                               order set by a hunk hidden as timing
                               (swaps.c) */
};

#define TTDI_ADDR_LIKE (1ull << 44)

/* 1 if a function name has a word naming a clock or chance (time, now,
 * tick, rand, seed, pid...: getTimeNs, clock_now; not runtime). */
int ttdi_clock_name(const char *name);
/* How far a gcc clone's registers can be trusted, by its name (until the
 * clone's own debug info is read, issue 20 item 5): 0 not a clone; 1 its
 * arguments are not the declared parameters (f.constprop.1, f.part.2,
 * f.cold: constants propagated, a split part) but its result is; 2 neither
 * (f.isra.0: IPA-SRA may drop parameters and the result). */
int ttdi_clone_name(const char *name);
/* The length of function name f without gcc's clone suffixes: "f" of
 * "f.constprop.0", "f.cold", "f(int) [clone .constprop.0] [clone .cold]". */
size_t ttdi_clone_stem(const char *f);
/* TTDI_NOISE_ADDR or _CLOCK when a differing value of type ty (good, bad:
 * the registers) is noise by its own look; func: the function, is_return:
 * 1 for its return value. TTDI_NOISE_NONE otherwise, and for two values
 * both within 2^(4 * size) of an end of their type (INT64_MIN + 1 and
 * INT64_MIN: the input's range ends, a saturated result), unless the
 * function is named like a clock. */
int ttdi_value_noise(const ttf_vtype *ty, uint64_t good, uint64_t bad,
                     const char *func, int is_return);
/* 1 when two differing integers (good, bad: the registers, type ty) are
 * each run's own process id (pid[0] the good run's, pid[1] the bad
 * run's): a value the system hands out, not the input (getpid's result
 * passed on, a pid in a file name). */
int ttdi_own_pid(const ttf_vtype *ty, uint64_t good, uint64_t bad, const int64_t pid[2]);
/* 1 when two differing integers (good, bad: the registers, type ty) are
 * times: read in ns, us or ms, each lies within 1% (at most an hour) of
 * its run's own CLOCK_MONOTONIC at the call (mono[0] the good run's,
 * mono[1] the bad run's, ns; 0 unknown: never), a clock that reads at
 * least 10^6 in that unit, and what is left of their difference once each
 * run's clock is taken off is less than half of it (the values differ by
 * the runs' clock offset). A deadline computed from a clock the trace does
 * not show (g_get_monotonic_time() + timeout) differs in every run; no
 * input gives values that follow each run's own clock. */
int ttdi_time_like(const ttf_vtype *ty, uint64_t good, uint64_t bad, const uint64_t mono[2]);
/* 1 when two differing doubles (good, bad: their 8 bytes, type ty
 * TTF_VC_FLOAT of 8 bytes) are times as ttdi_time_like's integers are,
 * read in seconds or milliseconds, near each run's own CLOCK_MONOTONIC
 * (clk[0]) or CLOCK_REALTIME (clk[1], ns) where that clock has run 16
 * minutes at least: an ev_tstamp (libev's ev_time(), ev_now()), a script
 * language's clock. */
int ttdi_float_time_like(const ttf_vtype *ty, uint64_t good, uint64_t bad,
                         const uint64_t clk[2][2]);
/* 1 when a small struct of two 8-byte integers, seconds and a fraction of
 * one in ns or us (struct timespec, struct timeval: g, b the two runs'
 * fields in order), read as sec * 10^9 + the fraction in ns, lies within
 * a second of its run's own clock at the call in both runs, at distances
 * from it that agree within a millisecond (clk[0]: each run's
 * CLOCK_MONOTONIC, clk[1]: each run's CLOCK_REALTIME, ns): a clock
 * reading, or a deadline computed from one with the same timeout, passed
 * down by value. Stricter than ttdi_time_like: a deadline whose timeout
 * differs by more than a millisecond stays a difference. */
int ttdi_struct_time_like(const ttf_vtype *ty, const uint64_t g[2], const uint64_t b[2],
                          const uint64_t clk[2][2]);
/* The reason as words: "it also varies between the good runs". */
const char *ttdi_noise_words(int why);
/* 1 if a value's answer flipped between good and bad: one reads as an
 * error and the other not (ttdi_value_error), or an integer was 0 in one
 * run and 1 in the other (a yes/no answer). */
int ttdi_value_flip(const ttf_vtype *ty, uint64_t good, uint64_t bad);
/* 1 if a value reads as an error (a negative signed integer, NULL, false,
 * a size_t error code), 0 if as success, -1 if it cannot tell. */
int ttdi_value_error(const ttf_vtype *ty, uint64_t raw);
/* -1 if an integer of 4 bytes or more is its type's minimum (INT64_MIN,
 * INT32_MIN), 1 if its maximum (INT64_MAX, UINT32_MAX, UINT64_MAX), else 0
 * (and for other types): the answer of a range check that fired (strtoll's
 * LLONG_MIN and LLONG_MAX with ERANGE), a saturated result. */
int ttdi_type_end(const ttf_vtype *ty, uint64_t raw);

/* ---- the replay of a thread pair (replay.c) ------------------------------ */

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
    uint32_t lo[2], hi[2];      /* values at the type's minimum, maximum
                                   (ttdi_type_end) */
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

/* One clock reading of a replayed pair: a matched call's integer or
 * double result that differed as a clock (TTDI_NOISE_CLOCK when
 * compared), for timeouts.c's deadlines. */
#define TTDI_CLOCKS 16              /* readings kept per replay (the last) */
typedef struct ttdi_clockread {
    uint64_t v[2];              /* its results, good and bad (as unsigned;
                                   a double's raw bits) */
    uint64_t idx;               /* bad key index of its EXIT */
    uint64_t t[2];              /* its EXIT's time (ns), good and bad */
    uint64_t addr, time_ns;     /* bad run: the function, its ENTER time */
    uint8_t fl;                 /* a double (libev's ev_time), not an integer */
} ttdi_clockread;

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
    uint64_t deadlines;         /* differing values that were only the time
                                   left to one deadline, read from the
                                   clock, of a wait that ran to it in both
                                   runs (timeouts.c) */
    char dl_text[768];          /* the first one's evidence, "" if none */
    uint64_t rounded;           /* differing doubles that were only a
                                   timeout its waits took as the same time
                                   in both runs (timeouts.c) */
    char rnd_text[512];         /* the first one's evidence, "" if none */
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
    ttdi_clockread clk[TTDI_CLOCKS]; /* the last clock readings, a ring
                                   (clk[i % TTDI_CLOCKS] the i-th) */
    size_t nclk;                /* readings seen */
    ttdi_vlast last[2];         /* each side's last EXIT (comparators'
                                   results by sign, values.c) */
    ttdi_dmcache cmpk[2];       /* each side's comparator kinds by function
                                   address (ttdi_cmp_kind, replay.c) */
    ttdi_walk *rd[2];           /* the walks of the step being replayed:
                                   the open calls' skipped times are taken
                                   back through them (replay.c frame_times) */
    const ttdi_vsame *same;     /* the prefix replay's step: the values
                                   walk's answer for its pair, NULL */
} ttdi_replay;

/* The replay of a pair over its common prefix, made by align's values
 * walk in step (pair_align.c's load_trees) as it compares the prefix's
 * values: the replay's whole state after the prefix's pairs, with no stop
 * and no hunks (none starts before the first difference), and the two
 * walks at the first events after them, so a replay whose stop and hunks
 * leave the prefix whole goes on from there (ttdi_replay_run) instead of
 * reading the prefix again. */
typedef struct ttdi_rprefix {
    ttdi_replay rp;             /* the replay after the prefix's pairs */
    ttdi_walk w[2];             /* the walks at the events after them (held) */
    uint64_t n;                 /* pairs replayed: key indexes [0, n) */
    uint64_t max_ns;            /* the latest bad time among them */
    uint64_t last_off;          /* the bad event of the last of them: its */
    int last_kind;              /*   offset and kind (ttdi_walk_times_at) */
    int last_skipped;           /* 1: read without its times (its walk
                                   skipped them: taken back at the end) */
    int held;                   /* 1: w holds both walks; 0: a side ended in
                                   the prefix (the replay ends there) */
} ttdi_rprefix;

/* A prefix replay of threads tg of ng and tb of nb (good, bad) in *out
 * (malloc'd; ttdi_rprefix_free). 0 or TT_ENOMEM. */
int ttdi_rprefix_start(ttdi_rprefix **out, ttdi_norm *ng, ttdi_norm *nb, uint32_t tg,
                       uint32_t tb);
/* The next event of side `side` that takes part (a keyed walk with
 * w->sleeps set), as ttdi_walk_next_key; every record read on the way goes
 * to the side's I/O waits, SLEEPs only there, and every ENTER read, kept
 * or not, to cc (NULL: none; the tree build's count of a thread it reads
 * whole, ttdi_walk_count_open). 1, 0 at the end, or a TT_E* code. The
 * replay's own reads and the prefix walk's alike. */
int ttdi_replay_next(ttdi_replay *rp, int side, ttdi_walk *w, ttdi_ccount *cc);
/* One pair of the prefix (same key) into the replay: 0; or 1, the prefix
 * replay having ended before it, its walks held there (the pair's step
 * would be the first to ask the bad run's symbols for a signature the
 * values walk did not ask for: that first ask may add a notice, which
 * must come when the explain stage's replay makes it, as before); or a
 * TT_E* code. */
int ttdi_rprefix_pair(ttdi_rprefix *pre, ttdi_walk *g, ttdi_walk *b, const ttdi_vsame *same);
/* The prefix ends at g, b (got_g, got_b: each side's last read gave an
 * event): both walks kept there (clones, with times from there), or, a
 * side having ended, none; what the replay keeps gets the exact times the
 * walks skipped (by offset, through g and b: ttdi_walk_times_at). 0 or a
 * TT_E* code. */
int ttdi_rprefix_hold(ttdi_rprefix *pre, ttdi_walk *g, ttdi_walk *b, int got_g, int got_b);
void ttdi_rprefix_free(ttdi_rprefix *pre);

/* Walk the pair along its alignment up to the stop, comparing the values
 * of every pair of matched calls (return value, each comparable
 * parameter) and keeping the differing ones (and their enclosing calls)
 * as nodes. With pre (the pair's prefix replay, NULL: none) whose pairs
 * all come before the stop and the first hunk (and no baselines' noise
 * set), a copy of its state and walks goes on from there: the same
 * result. 0 or a TT_E* code. */
int ttdi_replay_run(ttdi_replay *rp, const ttdi_rprefix *pre);
/* Tests only: 1 makes align replay no prefix, so every replay walks
 * from the start (as before issue 38's merge); ttdi_replay_resumed counts
 * the replays that went on from a prefix. */
extern int ttdi_replay_prefix_off;
extern uint64_t ttdi_replay_resumed;
/* Tests only: 1 makes every replay compare a matched ENTER's arguments
 * by the general path (compare_args), never by its signature's plan
 * (replay.c ttdi_rsig), and ask each EXIT's comparator kind of values.c
 * (ttdi_cmp_result), not of its own cache; ttdi_replay_planned counts the
 * ENTER pairs a plan answered, ttdi_replay_shared those of them answered
 * by the values walk's plan (ttdi_vsame). */
extern int ttdi_replay_plans_off;
extern uint64_t ttdi_replay_planned, ttdi_replay_shared;
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


#endif
