/*
 * read_int.h - the reader's internals shared by its stage files (format/
 * STAGES: trace.c header.c, chunks.c meta.c, decode.c, threads.c iter.c,
 * reader.c): the open trace, the per-chunk decoding state, and the hot
 * path kept in line for its two users (the scan of threads.c and the
 * iteration of iter.c). Not installed; users read ttfmt.h.
 */
#ifndef READ_INT_H
#define READ_INT_H

#include <stdint.h>
#include <string.h>

#include "ttf_int.h"
#include "ttf_wire.h"

#define THREADS_MAX (1u << 20)          /* thread indexes above are corrupt */
#define THREAD_SLACK 1024u              /* ... and those past slots + this;
                                           threads missing below one with
                                           chunks, past what damage and the
                                           cut table account for */
#define NOTICES_MAX 200                 /* notices kept; the rest counted */
#define DATA_OFFSET_MAX (64u << 20)     /* larger data_offset is corrupt */
#define NS 1000000000u

/* One chunk with a valid header. */
struct chunk {
    uint64_t off;               /* file offset of the chunk header */
    uint64_t end;               /* one past its last byte in the file */
    uint64_t vend;              /* where its good records end (after scan) */
    uint64_t tsc;               /* header: time base */
    uint64_t mono, real;        /* header: clock-sync point (0 = unknown) */
    uint32_t thread, seq;       /* header: owner and sequence */
    int32_t depth;              /* header: call depth at chunk start */
    uint16_t flags, hsize;      /* header: TTF_CHUNK_*, header bytes */
    uint8_t cut;                /* the file ends inside this chunk */
    uint8_t damaged;            /* records end early at vend */
};

struct tthread {
    ttf_thread pub;             /* what ttf_get_thread returns */
    size_t first, n;            /* its chunks: t->chunks[first .. first+n) */
    int has_ev, has_start;      /* an event / THREAD_START was seen */
    uint64_t first_tsc, last_tsc; /* first and last event times */
    uint64_t start_tsc, end_tsc; /* THREAD_START / THREAD_END times */
};

/* Text and index of a record, found by its file offset while iterating. */
struct aux {
    uint64_t off;               /* file offset of the record */
    const char *text;           /* thread name, module path */
    uint32_t index;             /* module index */
};

struct modrec {
    ttf_module pub;             /* what ttf_get_module returns */
    uint64_t load_tsc;          /* raw load time */
    uint64_t off;               /* file offset of its MODULE_LOAD */
};

struct unload {
    uint64_t tsc, base;         /* MODULE_UNLOAD time and base */
    uint64_t off;               /* file offset of the record */
};

struct syncpt {
    uint64_t tsc, ns;           /* counter value and CLOCK_MONOTONIC ns */
};

struct siterec {
    ttf_callsite pub;           /* what ttf_get_callsite returns */
    size_t order;               /* scan order, to keep the first definition */
};

/* A growable array: a pointer, its count and its capacity. */
#define VEC(type, name) type *name; size_t n_##name, cap_##name

/* One function's SAMPLE EXITs (untimed.c): where in [lo, hi] they fell,
 * by the interval's width (XR_BANDS bands, doubling from 8 ticks). */
#define XR_BANDS 16
struct xratio {
    uint64_t fn;                /* function address, 0 = free entry */
    uint64_t num[XR_BANDS];     /* sums of exit - lo, by band of hi - lo */
    uint64_t den[XR_BANDS];     /* sums of hi - lo */
    uint32_t n[XR_BANDS];       /* samples */
    uint32_t r[XR_BANDS];       /* after the scan: the ratios, 16.16 */
    uint64_t gsum[4];           /* lazy chunks (v1.7): measured gaps before an
                                   event of fn, by LZ_KEY(previous kind, kind) */
    uint32_t gn[4];             /* their count */
    uint32_t gw[4];             /* after the scan: mean gaps (1/16 tick, >= 1) */
};
/* Lazy chunks: the measured gaps between an event of function a, kind
 * ka, and the next, of function b, kind kb (untimed.c). */
struct gpair {
    uint64_t a, b;              /* the functions (a pair of 0s: free entry) */
    unsigned k;                 /* LZ_KEY(ka, kb) + 1 */
    uint32_t n;                 /* gaps */
    uint64_t sum;               /* their sum (ticks) */
    uint32_t w;                 /* after the scan: the mean (1/16 tick) */
};
/* The key of a gap in a lazy chunk: the kinds (0 ENTER, 1 EXIT) of the
 * event before it and of the event it ends at. */
#define LZ_KEY(pk, k) ((unsigned)(pk) * 2u + (unsigned)(k))

struct ttf_trace {
    char *name;                 /* path or caller's name, for messages */
    const uint8_t *buf;         /* the file's bytes */
    size_t len;                 /* their count */
    void *map;                  /* mmap'd region to unmap, or NULL */
    ttf_header hdr;             /* header fields as stored */
    ttf_summary sum;            /* what the scan found */
    ttf_process proc;           /* PROCESS record (zeros/"" if none) */
    int have_proc;              /* a PROCESS record was seen */
    uint64_t proc_hz;           /* tsc_hz of the PROCESS record */
    VEC(struct chunk, chunks);  /* valid chunks, sorted (thread, seq) */
    struct tthread *threads;    /* dense by index */
    size_t nthreads;            /* max thread index + 1 */
    VEC(struct modrec, mods);   /* modules, sorted by load time */
    VEC(struct unload, unl);    /* module unloads */
    VEC(struct siterec, sites); /* call sites, sorted by id, unique */
    VEC(struct aux, aux);       /* record texts, sorted by offset */
    VEC(struct syncpt, syncs);  /* clock-sync points */
    VEC(char *, notes);         /* notices */
    uint64_t notes_dropped;     /* notices past NOTICES_MAX */
    uint64_t skipped[32];       /* unknown optional records, by tag - 0x20 */
    struct ttfi_arena arena;    /* owns strings and small arrays */
    struct xratio *xr;          /* sparse clock: ratios by function (untimed.c) */
    size_t xr_cap, xr_n;        /* entries (a power of two), used */
    uint64_t xr_num[XR_BANDS], xr_den[XR_BANDS]; /* the sums over every
                                   function, by band */
    uint64_t xr_nb[XR_BANDS];   /* samples over every function, by band */
    uint32_t xr_all[XR_BANDS];  /* their ratios: functions without samples */
    uint64_t gp_sum[4];         /* lazy chunks: every function's gaps by key */
    uint64_t gp_n[4];
    uint32_t gp_w[4];           /* their means: functions without gaps */
    struct gpair *gpr;          /* gaps by pair of events (untimed.c) */
    size_t gpr_cap, gpr_n;      /* entries (a power of two), used */
    uint64_t start_tsc;         /* earliest chunk tsc: time 0 */
    uint64_t hz;                /* ticks per second used */
    uint64_t whole, frac;       /* ns = ticks * whole + ticks * frac >> 64 */
    int ident;                  /* ticks are ns: skip the multiply */
    uint64_t real0;             /* CLOCK_REALTIME ns at time 0 */
    uint64_t mono0;             /* CLOCK_MONOTONIC ns at time 0 (from the
                                   earliest clock-sync point), 0 unknown */
    uint64_t ev_min, ev_max;    /* first and last event tsc */
    int oom;                    /* an allocation failed while opening */
    ttf_cut cuts[TTF_CUT_ENTRIES]; /* the header's cut table, used entries */
    size_t ncuts;
};

/* Decoding state of one chunk; reset at every chunk like the writer's. */
struct dec {
    struct ttfi_cursor c;       /* over the chunk's records */
    const ttf_trace *t;         /* the trace */
    ttf_trace *scan;            /* while opening: collect metadata here */
    struct chunk *ch;           /* the chunk */
    const uint8_t *buf;         /* t->buf: offsets are counted from here */
    uint32_t thread;            /* ch->thread */
    int fast;                   /* in a chunk: hot_fast may decode its next
                                   record */
    int timed;                  /* hot events carry a time delta */
    int xtimed;                 /* EXITs carry one (timed, not sparse) */
    int values;                 /* hot events carry values (v1.1) */
    int skipv;                  /* an iteration without values
                                   (ttf_iter_skip_values): dec_next steps
                                   over them too, as the scan does */
    int xmm;                    /* ... and SSE registers (v1.5) */
    uint64_t tsc;               /* running counter value */
    uint64_t prev;              /* last miss address */
    int64_t depth;              /* call depth now */
    struct ttfi_problem pb;     /* what stopped the chunk, if anything */
    uint64_t cache[TTF_SLOTS];  /* function cache */
    uint64_t regs[TTF_ARGREGS]; /* argument registers at the last ENTER */
    uint64_t stride[TTF_ARGREGS]; /* how far each moved at that ENTER */
    uint64_t xregs[TTF_XMMREGS]; /* SSE registers at the last ENTER (v1.5) */
    uint64_t xret;              /* xmm0 at the last EXIT (v1.5) */
    int sites_ok;               /* the file may have site prefixes (v1.2) */
    unsigned pend;              /* the site prefix read before this ENTER:
                                   TTF_T_SITE_WAY + way, TTF_T_SITE_NEW or 0 */
    uint64_t pend_site;         /* SITE_NEW: the site it gives */
    const uint8_t *pend_rec;    /* the prefix's first byte */
    struct ttf_sites sites;     /* call sites of the chunk (v1.2) */
    const uint8_t *pstr;        /* a STRINGS record's payload read before
                                   this ENTER (v1.6), else NULL */
    uint32_t pstr_len;          /* its bytes */
    const uint8_t *pstr_rec;    /* the record's first byte */
    const uint8_t *ptimed;      /* a sparse chunk's TIMED or SAMPLE prefix
                                   read before this EXIT (v1.4), else NULL */
    uint64_t lo;                /* the time given to the last untimed EXIT */
    const uint8_t *lo_end;      /* the end of its record */
    const uint8_t *ub_rec;      /* sparse: the next record with a time, after
                                   the last untimed EXIT (NULL: not found yet) */
    uint64_t ub_tsc;            /* its time: untimed EXITs before it get it */
    uint64_t next_tsc;          /* the thread's next chunk's tsc (0: none):
                                   the time of untimed EXITs at a chunk's end */
    int notimes;                /* ttf_iter_skip_times: an untimed event
                                   takes the last measured time (d->tsc),
                                   not placed in its run or interval */
    int lazy;                   /* v1.7: an ENTER right after an untimed
                                   EXIT carries no time (FORMAT.md 4.7) */
    int chain;                  /* v1.9, a lazy chunk flagged CHAIN: an ENTER
                                   right after an untimed ENTER carries no
                                   time either (FORMAT.md 4.7) */
    int lastk;                  /* lazy: kind of the last hot event (0 ENTER,
                                   1 EXIT; 0 at the chunk's start) */
    int lastm;                  /* lazy: it had a measured time */
    uint64_t lastfn;            /* lazy: its function (0 at the chunk's start) */
    int ux;                     /* lazy: the last record that is hot or has
                                   a time was an untimed EXIT (chain: or
                                   ENTER): an ENTER now carries no time
                                   (FORMAT.md 4.7) */
    const uint8_t *run_end;     /* lazy: the measured record that ends the
                                   run of untimed events being read */
    uint64_t run_hi;            /* its time (the run's late bound) */
    uint64_t run_to;            /* where the run is placed up to: run_hi, or
                                   before it at a chunk's end */
    uint64_t run_w, run_acc;    /* the run's gap weights: all of them (the
                                   measured event's included), so far */
    uint64_t run_inv;           /* (2^64 - 1) / run_w (run_div) */
    uint64_t run_prev;          /* the time given to the run's last event */
    uint32_t run_wt[32];        /* the weights of its first events, in order
                                   (the look-ahead's: not looked up again) */
    uint32_t run_i;             /* the next event's index in run_wt */
    int srun;                   /* while opening, lazy: a run of untimed
                                   events is open; they all take its end's
                                   time (srun_hi), known when a record with
                                   a time closes it (no look-ahead), or at
                                   the chunk's end (ttfi_scan_run_end) */
    int srun_ex;                /* its first event's kind (1 EXIT) */
    const uint8_t *srun_q;      /* the end of that event's record */
    uint64_t srun_lo;           /* the running time when it opened */
    uint64_t srun_hi;           /* the time of the last run closed */
    uint64_t srun_closed;       /* runs closed so far (threads.c reads it) */
    uint64_t gx_fn[TTF_SLOTS];  /* functions whose lazy gap means are at */
    const uint32_t *gx_w[TTF_SLOTS]; /* gx_w (by function cache slot) */
    uint64_t xr_fn[TTF_SLOTS];  /* functions whose untimed-EXIT ratios are */
    const uint32_t *xr_r[TTF_SLOTS]; /* at xr_r (by function cache slot, each
                                   XR_BANDS long; untimed.c) */
};

_Static_assert(TTF_ARGREGS == TTF_VALUE_REGS, "wire and API register counts");

/* One thread's event stream across its chunks. */
struct titer {
    struct dec d;               /* current chunk */
    struct tthread *th;         /* the thread */
    size_t k;                   /* chunks begun */
    uint32_t prev_seq;          /* seq of the previous chunk */
    int in_chunk;               /* d is decoding a chunk */
};

struct ttf_iter {
    const ttf_trace *t;         /* the trace */
    struct titer one;           /* single-thread iteration */
    struct titer *subs;         /* merged: one per thread, else NULL */
    ttf_event *heads;           /* merged: each thread's next event */
    uint32_t *heap;             /* merged: min-heap of thread indexes */
    size_t nheap;               /* entries in heap */
    int novalues;               /* ttf_iter_skip_values: values stepped over */
    struct titer *at;           /* ttf_iter_times_at's reading: the thread
                                   with times, without values, in the chunk
                                   of the last event it was asked for (its
                                   own, never cloned), NULL: none */
    struct titer *vat;          /* ttf_iter_values_at's: the same with
                                   values (and times), NULL: none */
};

/* ---- trace.c: notices, growable arrays, sorting, the clock ---------------- */

/* The array a with room for n + 1 elements (a itself if it has room), or
 * NULL if that needs memory that is not there (a is then unchanged). */
void *ttfi_rd_grow(void *a, size_t *cap, size_t n, size_t elem);

/* Append a zeroed element to a VEC; NULL (and t->oom) if out of memory. */
#define PUSH(t, v) ({ \
    void *np_ = ttfi_rd_grow((t)->v, &(t)->cap_##v, (t)->n_##v, sizeof *(t)->v); \
    __typeof__((t)->v) el_ = NULL; \
    if (np_) { \
        (t)->v = np_; \
        el_ = &(t)->v[(t)->n_##v++]; \
        memset(el_, 0, sizeof *el_); \
    } else { \
        (t)->oom = 1; \
    } \
    el_; })

/* A notice (at most NOTICES_MAX kept, the rest counted). */
void ttfi_note(ttf_trace *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "FILE: offset N: what" + tail, from a cursor's problem. */
void ttfi_note_problem(ttf_trace *t, const struct ttfi_problem *pb, const char *tail);
/* qsort that accepts an empty (NULL) array. */
void ttfi_sort_n(void *a, size_t n, size_t size, int (*cmp)(const void *, const void *));
/* Ticks per second: hz, and the multiplier to_ns uses. */
void ttfi_set_hz(ttf_trace *t, uint64_t hz);
/* tsc_hz from the header or PROCESS record, else from the two sync points
 * furthest apart, else 1 tick = 1 ns. */
void ttfi_choose_hz(ttf_trace *t);

static inline uint64_t to_ns(const ttf_trace *t, uint64_t tsc)
{
    uint64_t d = tsc - t->start_tsc;
    if (t->ident)
        return d;
    return d * t->whole + (uint64_t)(((unsigned __int128)d * t->frac) >> 64);
}

static inline int clamp_depth(int64_t v)
{
    if (__builtin_expect(v == (int32_t)v, 1))
        return (int)v;
    return v > 0 ? INT32_MAX : INT32_MIN;
}

/* Every field set one by one: cheaper than zeroing the struct first (a
 * compound literal becomes "rep stos"), and this is the per-event path. */
static inline void ev_fill(ttf_event *ev, int kind, uint32_t thread,
                           uint64_t tsc, uint64_t ns, int depth, uint64_t off)
{
    ev->kind = kind;
    ev->thread = thread;
    ev->tsc = tsc;
    ev->time_ns = ns;
    ev->addr = 0;
    ev->site = 0;
    ev->args = NULL;
    ev->args_len = 0;
    ev->depth = depth;
    ev->signo = 0;
    ev->code = 0;
    ev->fault_addr = 0;
    ev->lost_events = 0;
    ev->lost_bytes = 0;
    ev->text = NULL;
    ev->offset = off;
    ev->has_values = 0;
    ev->has_xmm = 0;
    ev->sync_arg = 0;
    ev->call_site = 0;
    ev->unwound = 0;
    ev->untimed = 0;
    ev->early_ns = 0;
    ev->strs = NULL;
    ev->strs_len = 0;
}

/* ---- header.c: the file header ----------------------------------------- */

/* Check and read the file header into t->hdr (and its cut table). 0, or
 * the code with *pb saying what and where (TT_ETRUNC, TT_ECORRUPT,
 * TT_EVERSION, TT_EFEATURE). */
int ttfi_parse_header(ttf_trace *t, struct ttfi_problem *pb);

/* ---- chunks.c: the chunk index ------------------------------------------ */

/* Read every chunk slot's header into t->chunks (valid ones), counting and
 * noting the bad; with fd (the file, else -1) the slots in holes are
 * skipped unread (they read as zeros: unused). */
void ttfi_scan_slots(ttf_trace *t, int fd);
/* Sort chunks, drop repeated (thread, seq) and those whose thread index
 * leaves more threads missing than the file accounts for, build the
 * thread table. 0 or TT_ENOMEM. */
int ttfi_index_chunks(ttf_trace *t);

/* ---- meta.c: process, modules, call sites, record texts ----------------- */

/* The text and index kept for the record at file offset off, or NULL. */
const struct aux *ttfi_aux_find(const ttf_trace *t, uint64_t off);
/* While scanning: remember a record's text for the iterator. */
const char *ttfi_keep_text(struct dec *d, const uint8_t *s, size_t n, uint32_t index);
/* While iterating: the text kept for the record at rec ("" if none). */
const char *ttfi_text_of(const struct dec *d, const uint8_t *rec);
/* PROCESS, CALLSITE and SYNC: parsed only while scanning. 0 or TT_E*. */
int ttfi_meta_record(struct dec *d, unsigned tag, struct ttfi_cursor *s);
/* The call site with this id, or NULL. */
const ttf_callsite *ttfi_find_site(const ttf_trace *t, uint32_t id);
/* After the scan: call sites sorted and unique, record texts sorted. */
void ttfi_finish_sites(ttf_trace *t);
/* After choose_hz: modules sorted by load time, unloads matched to them
 * (each unload's record text is then its module's path and index). */
void ttfi_finish_modules(ttf_trace *t);

/* ---- decode.c: records to events ---------------------------------------- */

/* Next event of the thread, any record: 1 with *ev, 0 at the end. */
int ttfi_titer_step(struct titer *ti, ttf_event *ev) __attribute__((noinline));
/* A SYNC_OP record at d->c.p (hot_decode's other common record: locks,
 * conditions, thread create and join) decoded as dec_next would, without
 * its generality: 1 with *ev; 0 (nothing read or changed) if the record
 * runs off its chunk or a varint overflows: dec_next then reads it and
 * reports the damage. */
int ttfi_sync_fast(struct dec *d, ttf_event *ev);

/* ---- untimed.c: untimed EXITs of sparse chunks (v1.4) -------------------- */

/* The next measured time of the chunk after q (an ENTER, a TIMED or SAMPLE
 * EXIT, an extended record with a time), else the thread's next chunk's
 * start, else the running time (a writer that died); cached in d. */
uint64_t ttfi_untimed_hi(struct dec *d, const uint8_t *q);
/* The ratios of fn's untimed EXITs (16.16, by band), looked up and cached
 * in d. */
const uint32_t *ttfi_untimed_ratios(struct dec *d, uint64_t fn) __attribute__((noinline));
/* The band of an untimed EXIT's interval hi - lo (ticks): 0 below 8
 * ticks, then one per doubling, the last open-ended. */
static inline unsigned ttfi_xr_band(uint64_t width)
{
    unsigned b = width < 8 ? 0 : (unsigned)(63 - __builtin_clzll(width)) - 2;
    return b < XR_BANDS ? b : XR_BANDS - 1;
}
/* While opening: the SAMPLE EXIT of fn just read (the running time before
 * its delta was before) joins fn's sums. */
void ttfi_untimed_sample(struct dec *d, uint64_t fn, uint64_t before);
/* After the scan: each function's ratio from its sums. */
void ttfi_untimed_finish(ttf_trace *t);
/* Does the extended record tag carry a time (its payload's first field)? */
int ttfi_ext_timed(unsigned tag);
/* Lazy chunks (v1.7): while opening, the measured gap (ticks) from a
 * measured hot event of kind d->lastk to this one, of fn and kind ex. */
void ttfi_lazy_gap(struct dec *d, uint64_t fn, int ex, uint64_t gap);
/* Lazy chunks: a new run of untimed events, from the one of fn (kind ex)
 * whose record ends at q: its end, bounds and weights into d (run_*), by a
 * look-ahead over the chunk (untimed.c). */
void ttfi_lazy_run(struct dec *d, uint64_t fn, int ex, const uint8_t *q);
/* The mean gap before the untimed event of fn (kind ex) just read, past
 * the run_wt the look-ahead filled (untimed.c). */
uint64_t ttfi_lazy_w(struct dec *d, uint64_t fn, int ex);

/* While opening, lazy chunks: an untimed event (kind ex, its record
 * ending at q) joins the open run of untimed events, or opens one. Its
 * time is the run's end's (FORMAT.md 4.7: while opening an untimed event
 * takes hi), which threads.c takes once the run is closed: by the next
 * record with a time (ttfi_scan_timed), else at the chunk's end
 * (ttfi_scan_run_end). No look-ahead: the decoding finds the end. */
static inline void ttfi_scan_untimed(struct dec *d, int ex, const uint8_t *q)
{
    if (d->srun)
        return;
    d->srun = 1;
    d->srun_ex = ex;
    d->srun_q = q;
    d->srun_lo = d->tsc;
}

/* While opening: a record with a time (d->tsc, its delta added) was read:
 * it closes the open run, whose events all had that time. */
static inline void ttfi_scan_timed(struct dec *d)
{
    if (!d->srun)
        return;
    d->srun = 0;
    d->srun_hi = d->tsc > d->srun_lo ? d->tsc : d->srun_lo;
    d->srun_closed++;
}

/* While opening: the chunk ended (cleanly or at damage) with a run open:
 * its end by the look-ahead from its first event, the time it had before
 * (the next chunk's start, or the time of a record beyond damage the
 * look-ahead steps over: untimed.c). */
void ttfi_scan_run_end(struct dec *d);

/* n / d->run_w (n < 2^64) by the run's reciprocal, not a division an
 * event (~15 cycles, ~3% of a timed walk of a lazy trace): run_inv =
 * floor((2^64 - 1) / run_w) makes n * run_inv >> 64 at most 2 below the
 * quotient and never above it; each step up is checked. */
static inline uint64_t run_div(const struct dec *d, uint64_t n)
{
    uint64_t q = (uint64_t)(((unsigned __int128)n * d->run_inv) >> 64);
    while (n - q * d->run_w >= d->run_w)
        q++;
    return q;
}

/* Lazy chunks: the time of the untimed hot event of fn (kind ex) at rec,
 * its record ending at q; *lo and *hi its bounds (the last measured time
 * and the next). While opening hi, after it a point between by the gap
 * means of the events of its run (FORMAT.md 4.7). In line: a run's first
 * event pays the look-ahead (ttfi_lazy_run), the others add the weight it
 * left in run_wt. */
static inline __attribute__((always_inline))
uint64_t ttfi_lazy_at(struct dec *d, uint64_t fn, int ex, const uint8_t *rec,
                      const uint8_t *q, uint64_t *lo, uint64_t *hi)
{
    if (!d->run_end || rec >= d->run_end)
        ttfi_lazy_run(d, fn, ex, q);
    else if (!d->scan)
        d->run_acc += d->run_i < sizeof d->run_wt / sizeof d->run_wt[0]
                          ? d->run_wt[d->run_i++]
                          : ttfi_lazy_w(d, fn, ex);
    uint64_t l = d->tsc, h = d->run_hi, at = h;
    if (!d->scan && d->run_w) {
        uint64_t acc = d->run_acc < d->run_w ? d->run_acc : d->run_w;
        uint64_t span = d->run_to - l;
        at = l + (span < (1u << 24) && acc < (1ull << 40)   /* no 128-bit division */
                      ? run_div(d, span * acc)
                      : (uint64_t)((unsigned __int128)span * acc / d->run_w));
    }
    at = at < d->run_prev ? d->run_prev : at;
    d->run_prev = at;
    *lo = l;
    *hi = h;
    return at;
}

/* The time of the untimed EXIT of fn at rec (its record ends at q),
 * *late the latest it can have been (hi): while opening, hi (the ratios
 * are not known yet); after, between the previous event's time (lo) and
 * hi by fn's ratio (FORMAT.md 4.5, untimed.c). hi is read in line when an
 * ENTER hit follows (a call in a loop), else from the chunk (cached). */
static inline __attribute__((always_inline))
uint64_t untimed_at(struct dec *d, uint64_t fn, const uint8_t *rec, const uint8_t *q,
                    uint64_t *late)
{
    uint64_t lo = d->tsc, prev = d->lo_end == rec ? d->lo : lo, hi, dt;
    const uint8_t *n = q + 1;
    if (q < d->c.end && (*q & 0xC0) == TTF_T_ENTER_HIT && uvar_short(&n, d->c.end, &dt))
        hi = d->tsc + dt;
    else if (d->ub_rec && rec < d->ub_rec)
        hi = d->ub_tsc;
    else
        hi = ttfi_untimed_hi(d, q);
    hi = hi < prev ? prev : hi;
    uint64_t at = hi;
    if (!d->scan) {
        unsigned s = TTF_SLOT(fn);
        const uint32_t *rs = d->xr_fn[s] == fn && d->xr_r[s] ? d->xr_r[s]
                                                             : ttfi_untimed_ratios(d, fn);
        uint32_t r = rs[ttfi_xr_band(hi - lo)];
        at = lo + (uint64_t)(((unsigned __int128)(hi - lo) * r + 0x8000u) >> 16);
        at = at < prev ? prev : at;
    }
    *late = hi;
    d->lo = at;
    d->lo_end = q;
    return at;
}
/* A thread's iteration over its chunks; scan: collect into it (opening). */
void ttfi_titer_init(struct titer *ti, const ttf_trace *t, size_t thread, ttf_trace *scan);

/* A uvar of up to 10 bytes at *p, before end, without reporting: 1 with
 * *v and *p past it; 0 (nothing moved) if it runs off the end or
 * overflows (dec_next then reads and reports it). */
/* The length of the uvar at b, when it has at most 8 bytes and 8 bytes
 * lie before end (read as one little-endian word into *w); else 0. */
static inline unsigned uvar_word(const uint8_t *b, const uint8_t *end, uint64_t *w)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (end - b < 8)
        return 0;
    memcpy(w, b, 8);
    uint64_t t = ~*w & 0x8080808080808080ull;    /* the bytes that end one */
    return t ? (unsigned)__builtin_ctzll(t) / 8 + 1 : 0;
#else
    (void)b, (void)end, (void)w;
    return 0;
#endif
}

static inline int uvar_fast(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    const uint8_t *b = *p;
    uint64_t x = 0;
    if (b < end && *b < 0x80) { /* one byte (a zero delta, a small result) */
        *v = *b;
        *p = b + 1;
        return 1;
    }
    unsigned n = uvar_word(b, end, &x);
    if (n) {                    /* (the values' deltas: most have 3-8 bytes) */
        /* its n bytes' low 7 bits, packed by halving steps: byte pairs
           into 14 bits, those pairs into 28, then 56 */
        x &= (n == 8 ? ~0ull : (1ull << (8 * n)) - 1) & 0x7f7f7f7f7f7f7f7full;
        x = (x & 0x007f007f007f007full) | (x >> 1 & 0x3f803f803f803f80ull);
        x = (x & 0x00003fff00003fffull) | (x >> 2 & 0x0fffc0000fffc000ull);
        x = (x & 0x000000000fffffffull) | (x >> 4 & 0x00fffffff0000000ull);
        *v = x;
        *p = b + n;
        return 1;
    }
    x = 0;
    for (unsigned sh = 0; b < end && sh < 64; sh += 7) {
        uint8_t c = *b++;
        if (sh == 63 && c > 1)
            return 0;
        x |= (uint64_t)(c & 0x7f) << sh;
        if (!(c & 0x80)) {
            *v = x;
            *p = b;
            return 1;
        }
    }
    return 0;
}

/* A values chunk's EXIT values (FORMAT.md 4.1) in line: rax, and in an
 * XMM chunk xmm0 (d->xret moved on by its delta into *xret; d is not
 * changed). */
static inline int values_exit_fast(const struct dec *d, const uint8_t **q,
                                   const uint8_t *end, uint64_t *rax, uint64_t *xret)
{
    uint64_t u, x;
    if (!uvar_fast(q, end, &u) || (d->xmm && !uvar_fast(q, end, &x)))
        return 0;
    *rax = (uint64_t)unzigzag(u);
    *xret = d->xmm ? d->xret ^ __builtin_bswap64(x) : 0;
    return 1;
}

/* An XMM chunk's SSE registers after an ENTER's integer values, in line:
 * the mask byte (when the ENTER's mask has TTF_MASK_XMM) and the deltas,
 * d->xregs moved on into x (d is not changed); *xchanged the mask. */
static inline int values_xmm_fast(const struct dec *d, const uint8_t **q, const uint8_t *end,
                                  unsigned mask, uint64_t *x, unsigned *xchanged)
{
    const uint8_t *b = *q;
    unsigned m = 0;
    uint64_t u;
    if (mask & TTF_MASK_XMM) {
        if (b >= end)
            return 0;
        m = *b++;
    }
    memcpy(x, d->xregs, sizeof d->xregs);
    for (unsigned r = m; r; r &= r - 1) {   /* the registers given only */
        if (!uvar_fast(&b, end, &u))
            return 0;
        x[__builtin_ctz(r)] ^= __builtin_bswap64(u);
    }
    *xchanged = m;
    *q = b;
    return 1;
}

/* A values chunk's ENTER values in line: the registers and strides after
 * it into regs and stride (d is not changed), the changed bits; in an XMM
 * chunk the SSE registers after them into regs + TTF_ARGREGS (regs has
 * room for TTF_VALUE_SLOTS). */
static inline int values_enter_fast(const struct dec *d, const uint8_t **q,
                                    const uint8_t *end, uint64_t *regs,
                                    uint64_t *stride, unsigned *changed, unsigned *xchanged)
{
    const uint8_t *b = *q;
    if (b >= end || ((*b & TTF_MASK_BAD) && !d->xmm))
        return 0;
    unsigned mask = *b++, c = 0;
    /* each register's move: predicted (0, or its stride with STRIDE),
       then the given ones read in bit order */
    uint64_t keep = mask & TTF_MASK_STRIDE ? ~0ull : 0, u;
#pragma GCC unroll 8            /* (six registers: no loop, 10% of a values
                                   iteration's instructions) */
    for (int i = 0; i < TTF_ARGREGS; i++)
        stride[i] = d->stride[i] & keep;
    for (unsigned r = mask & ((1u << TTF_ARGREGS) - 1); r; r &= r - 1) {
        if (!uvar_fast(&b, end, &u))
            return 0;
        stride[__builtin_ctz(r)] = (uint64_t)unzigzag(u);
    }
#pragma GCC unroll 8
    for (int i = 0; i < TTF_ARGREGS; i++) {
        c |= (unsigned)(stride[i] != 0) << i;
        regs[i] = d->regs[i] + stride[i];
    }
    *changed |= c;
    if (d->xmm && !values_xmm_fast(d, &b, end, mask, regs + TTF_ARGREGS, xchanged))
        return 0;
    *q = b;
    return 1;
}

/* n uvars at *q stepped over: 1 (*q past them), 0 if one runs off the
 * end or is too long (nothing moved). */
static inline int uvars_skip(const uint8_t **q, const uint8_t *end, unsigned n)
{
    const uint8_t *b = *q;
    for (; n; n--) {            /* a uvar: up to 10 bytes, the last < 0x80 */
        uint64_t w;
        unsigned k = uvar_word(b, end, &w);
        if (k) {
            b += k;
            continue;
        }
        const uint8_t *v = b;
        while (b < end && (*b & 0x80) && b - v < 9)
            b++;
        if (b >= end || (*b & 0x80) || (b - v == 9 && *b > 1))
            return 0;           /* dec_next reads (and reports) it */
        b++;
    }
    *q = b;
    return 1;
}

/* The values after a hot record skipped, not decoded (the scan while
 * opening needs the records' ends, not their values: the iteration
 * decodes each chunk again from its start): the varints the ENTER's masks
 * name, or rax (and xmm0 in an XMM chunk) after an EXIT. */
/* Bits set in a mask byte (no popcnt instruction in the baseline ISA:
 * __builtin_popcount is a libgcc call there). */
static inline unsigned mask_bits(unsigned m)
{
    static const uint8_t nib[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
    return (unsigned)nib[m & 15] + nib[(m >> 4) & 15];
}

static inline int values_skip_fast(const struct dec *d, const uint8_t **q,
                                   const uint8_t *end, int is_exit)
{
    const uint8_t *b = *q;
    if (is_exit)
        return uvars_skip(q, end, 1u + (unsigned)d->xmm);
    if (b >= end || ((*b & TTF_MASK_BAD) && !d->xmm))
        return 0;
    unsigned mask = *b++, m = 0;
    if (!uvars_skip(&b, end, mask_bits(mask & ((1u << TTF_ARGREGS) - 1))))
        return 0;
    if (d->xmm && (mask & TTF_MASK_XMM)) {  /* the SSE mask after the deltas */
        if (b >= end)
            return 0;
        m = *b++;
    }
    if (!uvars_skip(&b, end, mask_bits(m)))
        return 0;
    *q = b;
    return 1;
}

/* A SYNC_OP record at d->c.p read in line: ttfi_sync_fast's body (decode.c
 * says what it does and why dec_next's checks all pass), also read in
 * line by the scan while opening (hot_decode's syncs 2), where *ev is a
 * local whose address goes nowhere else. 1 with *ev; 0 (nothing read or
 * changed) if it runs off its chunk or a varint overflows. */
static inline __attribute__((always_inline)) int sync_read(struct dec *d, ttf_event *ev)
{
    const uint8_t *p = d->c.p, *q = p + 1, *end;
    uint64_t len, dt, obj, arg;

    if (!uvar_fast(&q, d->c.end, &len) || len > (uint64_t)(d->c.end - q))
        return 0;
    end = q + len;
    if (!uvar_fast(&q, end, &dt) || q >= end)
        return 0;
    uint8_t op = *q++;
    if (!uvar_fast(&q, end, &obj) || !uvar_fast(&q, end, &arg))
        return 0;
    d->c.rec = p;
    d->c.p = end;
    d->tsc += dt;
    ev_fill(ev, TTF_EV_SYNC_OP, d->thread, d->tsc, to_ns(d->t, d->tsc),
            clamp_depth(d->depth), (uint64_t)(p - d->buf));
    ev->code = op;
    ev->addr = obj;
    ev->sync_arg = unzigzag(arg);
    return 1;
}

/* The common records decoded in line, without dec_next's generality: an
 * ENTER or EXIT, hit or miss, whose address and time varints have one or
 * two bytes (a sparse chunk's TIMED or SAMPLE EXIT too, but a SAMPLE while
 * opening), in a values chunk with its values (any length, the SSE
 * registers of an XMM chunk too); with syncs, a SYNC_OP (1: by
 * ttfi_sync_fast, out of line; 2, while opening: by sync_read in line, as
 * the scan's event is a local whose address must go nowhere but here,
 * threads.c scan_loop; its time closes a lazy run, as in ext_record).
 * 1 with *ev as
 * dec_next would fill it; 0 (nothing read or changed) if the next record
 * is any other: dec_next then starts over at the same byte, and reports
 * any damage. With skip (the scan), a values chunk's values are only
 * stepped over: *ev has no values and d's registers do not move. */
static inline __attribute__((always_inline)) int hot_decode(struct dec *d,
                                                            ttf_event *ev, const int skip,
                                                            const int syncs)
{
    const uint8_t *p = d->c.p, *q, *end = d->c.end;
    uint64_t addr, u, dt = 0;
    unsigned slot;
    int is_exit;

    if (!d->fast || p >= end)
        return 0;               /* before the first chunk p is NULL */
    q = p + 1;
    unsigned tag = *p;
    int xt = d->xtimed, sparse = d->timed && !xt;
    if (__builtin_expect(tag == TTF_T_TIMED || tag == TTF_T_SAMPLE, 0)) {
        /* a sparse chunk's timed EXIT (a SAMPLE's sums are taken while
           opening, by dec_next; a lazy chunk learns gaps instead, here) */
        if (!sparse || (tag == TTF_T_SAMPLE && d->scan && !d->lazy) || q >= end ||
            !(*q >= TTF_T_EXIT_HIT || *q == TTF_T_EXIT_MISS))
            return 0;
        p = q++;
        tag = *p;
        xt = 1;
        sparse = 0;
    }
    if (tag >= TTF_T_ENTER_HIT) {
        is_exit = tag >= TTF_T_EXIT_HIT;
        if ((is_exit ? xt : d->timed && !d->ux) && !uvar_short(&q, end, &dt))
            return 0;
        slot = tag & (TTF_SLOTS - 1);
        addr = d->cache[slot];
    } else {
        if (__builtin_expect((tag | 1) != TTF_T_EXIT_MISS, 0)) {
            if (!syncs || tag != TTF_R_SYNC_OP ||
                !(syncs == 2 ? sync_read(d, ev) : ttfi_sync_fast(d, ev)))
                return 0;
            if (syncs == 2)
                ttfi_scan_timed(d);
            d->ux = 0;          /* lazy chunks: a record with a time */
            d->lastm = 0;
            return 1;
        }
        is_exit = tag == TTF_T_EXIT_MISS;
        if (!uvar_short(&q, end, &u) ||
            ((is_exit ? xt : d->timed && !d->ux) && !uvar_short(&q, end, &dt)))
            return 0;
        addr = d->prev + (uint64_t)unzigzag(u);
        slot = TTF_SLOT(addr);
    }
    uint64_t stride[TTF_ARGREGS], rax = 0, xret = 0;
    unsigned changed = 0, xchanged = 0;
    /* an ENTER's registers go straight to ev (dec_next fills it again if
       this returns 0) */
    if (d->values && skip && !values_skip_fast(d, &q, end, is_exit))
        return 0;
    if (d->values && !skip &&
        !(is_exit ? values_exit_fast(d, &q, end, &rax, &xret)
                  : values_enter_fast(d, &q, end, ev->argregs, stride, &changed, &xchanged)))
        return 0;               /* long or damaged: dec_next reads it */
    if (tag < TTF_T_ENTER_HIT) {
        d->cache[slot] = addr;
        d->prev = addr;
    }
    d->c.p = q;
    d->tsc += dt;
    uint64_t tsc = d->tsc, hi = tsc, lo = tsc;
    int untimed = is_exit ? sparse : d->ux;
    if (__builtin_expect(d->lazy, 0)) {
        /* v1.7: an untimed event placed in its run; a measured one after
           a measured one is a gap learnt while opening; the scan leaves
           untimed events to their run's end (ttfi_scan_untimed), and a
           pass without times needs no more than ux */
        d->ux = (is_exit | d->chain) & untimed;
        if (!d->notimes) {
            if (untimed && d->scan) {
                ttfi_scan_untimed(d, is_exit, q);
            } else if (untimed) {
                tsc = ttfi_lazy_at(d, addr, is_exit, p, q, &lo, &hi);
            } else if (d->scan) {
                ttfi_scan_timed(d);
                if (d->lastm)
                    ttfi_lazy_gap(d, addr, is_exit, dt);
            }
            d->lastm = !untimed;
            d->lastk = is_exit;
            d->lastfn = addr;
        }
    } else if (untimed && !d->notimes) {   /* a sparse chunk's EXIT: no time
                                               of its own */
        tsc = untimed_at(d, addr, p, q, &hi);
    }
    ev_fill(ev, is_exit ? TTF_EV_EXIT : TTF_EV_ENTER, d->thread, tsc,
            to_ns(d->t, tsc), clamp_depth(d->depth), (uint64_t)(p - d->buf));
    if (untimed) {
        ev->untimed = 1;
        ev->early_ns = to_ns(d->t, lo);
        ev->late_ns = to_ns(d->t, hi);
    }
    ev->addr = addr;
    if (d->values && !skip) {
        ev->has_values = 1;
        ev->has_xmm = d->xmm;
        if (is_exit) {
            ev->retval = rax;
            ev->retxmm = xret;
            d->xret = xret;
        } else {
            memcpy(d->regs, ev->argregs, sizeof d->regs);
            memcpy(d->stride, stride, sizeof stride);
            ev->changed = changed;
            ev->xchanged = xchanged;
            if (d->xmm && xchanged)     /* (none given: as they were) */
                memcpy(d->xregs, ev->argregs + TTF_ARGREGS, sizeof d->xregs);
        }
    }
    if (d->sites_ok && !is_exit) {
        /* an ENTER without a prefix: its predicted site (traces
           without sites skip this: call_site is 0) */
        ev->call_site = ttf_site_take(&d->sites, addr);
    }
    d->depth += is_exit ? -1 : 1;
    return 1;
}

static inline __attribute__((always_inline)) int hot_fast(struct dec *d, ttf_event *ev)
{
    return hot_decode(d, ev, 0, 1);
}

/* Next event of the thread: 1 with *ev, 0 at its end. */
static inline __attribute__((always_inline)) int titer_next(struct titer *ti,
                                                       ttf_event *ev)
{
    return hot_fast(&ti->d, ev) ? 1 : ttfi_titer_step(ti, ev);
}

/* The same without its values (ttf_iter_skip_values): the in-line path
 * steps over them; dec_next decodes the rest (its registers are stale once
 * values were skipped: what it decodes is dropped, has_values 0). */
static inline __attribute__((always_inline)) int titer_next_novalues(struct titer *ti,
                                                                ttf_event *ev)
{
    if (hot_decode(&ti->d, ev, 1, 1))
        return 1;
    int rc = ttfi_titer_step(ti, ev);
    ev->has_values = 0;
    ev->has_xmm = 0;
    ev->strs = NULL;
    ev->strs_len = 0;
    return rc;
}

/* ---- threads.c: each thread's events counted, its times ------------------ */

/* Decode every thread once (the scan): counts, times, metadata. */
void ttfi_scan_threads(ttf_trace *t);
/* After choose_hz: each thread's start and end, the summary's sums. */
void ttfi_finish_threads(ttf_trace *t);

#endif
