/*
 * reader.c - open, check and index a trace file (format v1.2, FORMAT.md),
 * then hand out its events one thread at a time or merged by time.
 *
 * Design. Opening does all the distrust: the header is checked field by
 * field (magic first, so text-mode damage is named), then every chunk slot
 * is looked at once. Valid chunk headers are sorted by (thread, seq); each
 * thread's chunks are then decoded in order by the very iterator that
 * ttf_iter_next uses, in "scan" mode, which also collects the metadata
 * (process, modules, threads, call sites) and counts events. The scan
 * records for every chunk where its good records end (vend) and whether
 * bytes were damaged there. Iteration later decodes only up to vend, so
 * counts, LOST markers and events are the same in both passes by
 * construction. The hot path is in line in both passes (hot_fast): an
 * ENTER or EXIT with short varints is a tag test, a cache load and a
 * byte or two; anything else (other records, values, long varints, the
 * end of a chunk, damage) goes to dec_next untouched, which stays the
 * one decoder of all of it. No allocation per event.
 *
 * Recovery. Bad bytes never fail the trace: they end their chunk, leave a
 * notice ("bad.trc: offset 8231: invalid record tag 0x55; rest of chunk
 * skipped") and a LOST event at that spot; missing sequence numbers give a
 * LOST event at the gap, and the next chunk's header restores the call
 * depth. Only the file header can make ttf_open fail.
 *
 * Bounds. Every byte is read through struct ttfi_cursor (ttf_int.h), which
 * checks what is left; every count is checked against the bytes that would
 * hold it before anything is allocated, so memory is O(file size).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ttf_int.h"
#include "ttf_wire.h"

#define THREADS_MAX (1u << 20)          /* thread indexes above are corrupt */
#define THREAD_SLACK 1024u              /* ... and those past slots + this */
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
    uint64_t start_tsc;         /* earliest chunk tsc: time 0 */
    uint64_t hz;                /* ticks per second used */
    uint64_t whole, frac;       /* ns = ticks * whole + ticks * frac >> 64 */
    int ident;                  /* ticks are ns: skip the multiply */
    uint64_t real0;             /* CLOCK_REALTIME ns at time 0 */
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
    int fast;                   /* in a chunk without values: hot_fast may
                                   decode its next record */
    int timed;                  /* hot events carry a time delta */
    int values;                 /* hot events carry values (v1.1) */
    uint64_t tsc;               /* running counter value */
    uint64_t prev;              /* last miss address */
    int64_t depth;              /* call depth now */
    struct ttfi_problem pb;     /* what stopped the chunk, if anything */
    uint64_t cache[TTF_SLOTS];  /* function cache */
    uint64_t regs[TTF_ARGREGS]; /* argument registers at the last ENTER */
    uint64_t stride[TTF_ARGREGS]; /* how far each moved at that ENTER */
    int sites_ok;               /* the file may have site prefixes (v1.2) */
    unsigned pend;              /* the site prefix read before this ENTER:
                                   TTF_T_SITE_WAY + way, TTF_T_SITE_NEW or 0 */
    uint64_t pend_site;         /* SITE_NEW: the site it gives */
    const uint8_t *pend_rec;    /* the prefix's first byte */
    struct ttf_sites sites;     /* call sites of the chunk (v1.2) */
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
};

static const char *const rec_names[] = {
    "END-OF-DATA", "PROCESS", "MODULE_LOAD", "MODULE_UNLOAD", "THREAD_START",
    "THREAD_NAME", "THREAD_END", "CALLSITE", "MESSAGE", "SCOPE_ENTER",
    "SCOPE_EXIT", "CRASH", "LOST", "END", "SYNC", "PAUSE", "RESUME", "CUT",
};

static const char *rec_name(unsigned tag)
{
    if (tag < sizeof rec_names / sizeof rec_names[0])
        return rec_names[tag];
    return tag <= TTF_R_REQUIRED_LAST ? "unknown required record"
                                      : "unknown optional record";
}

/* The array a with room for n + 1 elements (a itself if it has room), or
 * NULL if that needs memory that is not there (a is then unchanged). */
static void *grow(void *a, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return a;
    size_t c = *cap ? *cap * 2 : 16;
    void *p = realloc(a, c * elem);
    if (p)
        *cap = c;
    return p;
}

/* Append a zeroed element to a VEC; NULL (and t->oom) if out of memory. */
#define PUSH(t, v) ({ \
    void *np_ = grow((t)->v, &(t)->cap_##v, (t)->n_##v, sizeof *(t)->v); \
    __typeof__((t)->v) el_ = NULL; \
    if (np_) { \
        (t)->v = np_; \
        el_ = &(t)->v[(t)->n_##v++]; \
        memset(el_, 0, sizeof *el_); \
    } else { \
        (t)->oom = 1; \
    } \
    el_; })

static void note(ttf_trace *t, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void note(ttf_trace *t, const char *fmt, ...)
{
    char buf[400];
    va_list ap;
    if (t->n_notes >= NOTICES_MAX) {
        t->notes_dropped++;
        return;
    }
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char *s = ttfi_arena_strdup(&t->arena, (const uint8_t *)buf,
                                n < 0 ? 0 : strnlen(buf, sizeof buf));
    char **slot = PUSH(t, notes);
    if (!s || !slot) {
        t->oom = 1;
        if (slot)
            t->n_notes--;
        return;
    }
    *slot = s;
}

static void note_problem(ttf_trace *t, const struct ttfi_problem *pb,
                         const char *tail)
{
    note(t, "%s: offset %llu: %s%s", t->name, (unsigned long long)pb->offset,
         pb->what, tail);
}

/* ---- time -------------------------------------------------------------- */

static inline uint64_t to_ns(const ttf_trace *t, uint64_t tsc)
{
    uint64_t d = tsc - t->start_tsc;
    if (t->ident)
        return d;
    return d * t->whole + (uint64_t)(((unsigned __int128)d * t->frac) >> 64);
}

static void set_hz(ttf_trace *t, uint64_t hz)
{
    t->hz = hz;
    t->ident = hz == NS;
    t->whole = NS / hz;
    /* 1e9/hz = whole + frac/2^64, frac rounded up so whole ns stay whole */
    unsigned __int128 rem = (unsigned __int128)(NS % hz) << 64;
    t->frac = (uint64_t)(rem / hz) + (rem % hz != 0);
}

/* tsc_hz from the header or PROCESS record, else from the two sync points
 * furthest apart, else 1 tick = 1 ns. */
static void choose_hz(ttf_trace *t)
{
    if (t->hdr.tsc_hz || t->proc_hz) {
        set_hz(t, t->hdr.tsc_hz ? t->hdr.tsc_hz : t->proc_hz);
        return;
    }
    struct syncpt lo = {UINT64_MAX, 0}, hi = {0, 0};
    for (size_t i = 0; i < t->n_syncs; i++) {
        struct syncpt s = t->syncs[i];
        if (s.tsc < lo.tsc)
            lo = s;
        if (s.tsc >= hi.tsc)
            hi = s;
    }
    if (t->n_syncs >= 2 && hi.tsc > lo.tsc && hi.ns > lo.ns) {
        unsigned __int128 hz = (unsigned __int128)(hi.tsc - lo.tsc) * NS /
                               (hi.ns - lo.ns);
        if (hz >= 1000 && hz <= (unsigned __int128)1 << 42) {
            set_hz(t, (uint64_t)hz);
            return;
        }
    }
    set_hz(t, NS);
}

/* ---- decoding ------------------------------------------------------------ */

static void chunk_begin(struct dec *d, struct chunk *ch)
{
    const ttf_trace *t = d->t;
    d->ch = ch;
    d->c.start = t->buf;
    d->c.off0 = 0;
    d->c.p = t->buf + ch->off + ch->hsize;
    d->c.end = t->buf + (d->scan ? ch->end : ch->vend);
    d->c.end_is_eof = d->scan && ch->cut;
    d->c.rec = NULL;
    d->c.pb = &d->pb;
    d->thread = ch->thread;
    d->timed = (ch->flags & TTF_CHUNK_TIMED) != 0;
    d->values = (ch->flags & TTF_CHUNK_VALUES) != 0;
    d->fast = !d->values;
    memset(d->regs, 0, sizeof d->regs);
    memset(d->stride, 0, sizeof d->stride);
    d->tsc = ch->tsc;
    d->prev = 0;
    d->depth = ch->depth;
    memset(d->cache, 0, sizeof d->cache);
    d->sites_ok = (t->hdr.required_features & TTF_REQ_SITES) != 0;
    d->pend = 0;
    if (d->sites_ok)            /* else never read: a prefix is invalid */
        memset(&d->sites, 0, sizeof d->sites);
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
    ev->sync_arg = 0;
    ev->call_site = 0;
    ev->unwound = 0;
}

static inline void ev_begin(const struct dec *d, ttf_event *ev, int kind,
                            const uint8_t *rec)
{
    ev_fill(ev, kind, d->thread, d->tsc, to_ns(d->t, d->tsc),
            clamp_depth(d->depth), (uint64_t)(rec - d->buf));
}

static const struct aux *aux_find(const ttf_trace *t, uint64_t off)
{
    size_t lo = 0, hi = t->n_aux;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->aux[mid].off < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->n_aux && t->aux[lo].off == off ? &t->aux[lo] : NULL;
}

/* While scanning: remember a record's text for the iterator. */
static const char *keep_text(struct dec *d, const uint8_t *s, size_t n,
                             uint32_t index)
{
    ttf_trace *t = d->scan;
    char *copy = ttfi_arena_strdup(&t->arena, s, n);
    struct aux *a = PUSH(t, aux);
    if (!copy || !a) {
        t->oom = 1;
        return "";
    }
    a->off = cur_offset(&d->c, d->c.rec);
    a->text = copy;
    a->index = index;
    return copy;
}

static const char *text_of(const struct dec *d, const uint8_t *rec)
{
    const struct aux *a = aux_find(d->t, (uint64_t)(rec - d->t->buf));
    return a ? a->text : "";
}

static struct tthread *scan_thread(struct dec *d)
{
    return &d->scan->threads[d->ch->thread];
}

static int scan_process(struct dec *d, struct ttfi_cursor *s)
{
    ttf_trace *t = d->scan;
    uint64_t pid, ppid, real, hz, argc;
    const uint8_t *exe, *par;
    size_t nexe, npar;
    int r;

    if ((r = cur_uvar(s, &pid)) || (r = cur_uvar(s, &ppid)) ||
        (r = cur_uvar(s, &real)) || (r = cur_uvar(s, &hz)) ||
        (r = cur_str(s, &exe, &nexe)) || (r = cur_uvar(s, &argc)))
        return r;
    if (argc > cur_left(s))
        return CORRUPT(s, "PROCESS argc %llu exceeds its record",
                       (unsigned long long)argc);
    const char **argv = ttfi_arena_alloc(&t->arena, (argc + 1) * sizeof *argv);
    if (!argv)
        return t->oom = 1, 0;
    for (uint64_t i = 0; i < argc; i++) {
        const uint8_t *a;
        size_t na;
        if ((r = cur_str(s, &a, &na)))
            return r;
        argv[i] = ttfi_arena_strdup(&t->arena, a, na);
        if (!argv[i])
            t->oom = 1;
    }
    argv[argc] = NULL;
    if ((r = cur_str(s, &par, &npar)))
        return r;
    uint64_t chaos = 0, seed = 0;   /* appended in chaos mode (1.1) */
    if (cur_left(s) && ((r = cur_uvar(s, &chaos)) || (r = cur_uvar(s, &seed))))
        return r;
    if (t->have_proc)
        return 0;
    t->have_proc = 1;
    t->proc.pid = (int64_t)pid;
    t->proc.ppid = (int64_t)ppid;
    t->proc.start_realtime_ns = real;
    t->proc.exe = ttfi_arena_strdup(&t->arena, exe, nexe);
    t->proc.argc = (int)argc;
    t->proc.argv = argv;
    t->proc.parent_trace = ttfi_arena_strdup(&t->arena, par, npar);
    t->proc.chaos = (unsigned)chaos;
    t->proc.chaos_seed = chaos ? seed : 0;
    t->proc_hz = hz;            /* used when the header's copy is 0 */
    return 0;
}

static int scan_callsite(struct dec *d, struct ttfi_cursor *s)
{
    ttf_trace *t = d->scan;
    uint64_t id, line, nargs;
    int64_t level;
    uint8_t kind = 0;
    const uint8_t *types, *fmt, *file, *func;
    size_t nfmt, nfile, nfunc;
    int r;

    if ((r = cur_uvar(s, &id)) || (r = cur_u8(s, &kind)) ||
        (r = cur_svar(s, &level)) || (r = cur_uvar(s, &line)) ||
        (r = cur_uvar(s, &nargs)) || (r = cur_bytes(s, nargs, &types, "arg types")) ||
        (r = cur_str(s, &fmt, &nfmt)) || (r = cur_str(s, &file, &nfile)) ||
        (r = cur_str(s, &func, &nfunc)))
        return r;
    if (id > UINT32_MAX)
        return CORRUPT(s, "CALLSITE id %llu too large", (unsigned long long)id);
    struct siterec *sr = PUSH(t, sites);
    uint8_t *ty = ttfi_arena_alloc(&t->arena, nargs + 1);
    if (!sr || !ty)
        return t->oom = 1, 0;
    memcpy(ty, types, nargs);
    sr->order = t->n_sites;
    sr->pub.id = (uint32_t)id;
    sr->pub.kind = kind;
    sr->pub.level = level > INT32_MAX ? INT32_MAX
                  : level < INT32_MIN ? INT32_MIN : (int)level;
    sr->pub.line = line > UINT32_MAX ? UINT32_MAX : (uint32_t)line;
    sr->pub.nargs = (uint32_t)nargs;
    sr->pub.types = ty;
    sr->pub.fmt = ttfi_arena_strdup(&t->arena, fmt, nfmt);
    sr->pub.file = ttfi_arena_strdup(&t->arena, file, nfile);
    sr->pub.func = ttfi_arena_strdup(&t->arena, func, nfunc);
    if (!sr->pub.fmt || !sr->pub.file || !sr->pub.func)
        t->oom = 1;
    return 0;
}

static int scan_sync(struct dec *d, struct ttfi_cursor *s)
{
    uint64_t mono, real;
    int r;
    if ((r = cur_uvar(s, &mono)) || (r = cur_uvar(s, &real)))
        return r;
    struct syncpt *sp = mono ? PUSH(d->scan, syncs) : NULL;
    if (sp)
        *sp = (struct syncpt){d->tsc, mono};
    return 0;
}

/* Records that are not events: parsed only while scanning. */
static int meta_record(struct dec *d, unsigned tag, struct ttfi_cursor *s)
{
    if (!d->scan)
        return 0;
    if (tag == TTF_R_PROCESS)
        return scan_process(d, s);
    if (tag == TTF_R_CALLSITE)
        return scan_callsite(d, s);
    return scan_sync(d, s);
}

static const ttf_callsite *find_site(const ttf_trace *t, uint32_t id);

/* Event records after their time delta: one decoder per record type, each
 * reading through the record's cursor s, filling *ev and, while scanning,
 * what the index keeps. Each returns 0 or a TT_E* code. */
typedef int (*rec_decoder)(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                           ttf_event *ev);

static int dec_module_load(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                           ttf_event *ev)
{
    const uint8_t *bid, *str;
    size_t nbid, n;
    uint64_t a, b;
    int r;

    (void)tag;
    if ((r = cur_uvar(s, &a)) || (r = cur_uvar(s, &b)) ||
        (r = cur_str(s, &bid, &nbid)) || (r = cur_str(s, &str, &n)))
        return r;
    ev_begin(d, ev, TTF_EV_MODULE_LOAD, d->c.rec);
    ev->addr = a;
    if (!d->scan) {
        const struct aux *x = aux_find(d->t, ev->offset);
        ev->text = x ? x->text : "";
        ev->site = x ? x->index : 0;
        return 0;
    }
    struct modrec *m = PUSH(d->scan, mods);
    if (!m)
        return 0;
    m->pub.base = a;
    m->pub.size = b;
    m->pub.build_id = ttfi_arena_alloc(&d->scan->arena, nbid + 1);
    if (m->pub.build_id)
        memcpy((uint8_t *)m->pub.build_id, bid, nbid);
    m->pub.build_id_len = nbid;
    m->pub.unload_ns = UINT64_MAX;
    m->pub.path = keep_text(d, str, n, 0);
    m->load_tsc = d->tsc;
    m->off = ev->offset;
    return 0;
}

static int dec_module_unload(struct dec *d, unsigned tag,
                             struct ttfi_cursor *s, ttf_event *ev)
{
    uint64_t a;
    int r;

    (void)tag;
    if ((r = cur_uvar(s, &a)))
        return r;
    ev_begin(d, ev, TTF_EV_MODULE_UNLOAD, d->c.rec);
    ev->addr = a;
    if (d->scan) {
        struct unload *u = PUSH(d->scan, unl);
        if (u)
            *u = (struct unload){d->tsc, a};
    }
    return 0;
}

static int dec_thread_start(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                            ttf_event *ev)
{
    const uint8_t *str;
    size_t n;
    uint64_t a;
    int r;

    (void)tag;
    if ((r = cur_uvar(s, &a)) || (r = cur_str(s, &str, &n)))
        return r;
    ev_begin(d, ev, TTF_EV_THREAD_START, d->c.rec);
    if (!d->scan) {
        ev->text = text_of(d, d->c.rec);
        return 0;
    }
    ev->text = keep_text(d, str, n, 0);
    struct tthread *th = scan_thread(d);
    if (th->has_start)
        return 0;
    th->has_start = 1;
    th->start_tsc = d->tsc;
    th->pub.tid = (int64_t)a;
    th->pub.first_name = ev->text;
    if (!*th->pub.name)
        th->pub.name = ev->text;
    return 0;
}

static int dec_thread_name(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                           ttf_event *ev)
{
    const uint8_t *str;
    size_t n;
    int r;

    (void)tag;
    if ((r = cur_str(s, &str, &n)))
        return r;
    ev_begin(d, ev, TTF_EV_THREAD_NAME, d->c.rec);
    if (!d->scan) {
        ev->text = text_of(d, d->c.rec);
        return 0;
    }
    ev->text = keep_text(d, str, n, 0);
    scan_thread(d)->pub.name = ev->text;
    return 0;
}

static int dec_thread_end(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                          ttf_event *ev)
{
    (void)tag;
    (void)s;
    ev_begin(d, ev, TTF_EV_THREAD_END, d->c.rec);
    if (d->scan) {
        scan_thread(d)->pub.ended = 1;
        scan_thread(d)->end_tsc = d->tsc;
    }
    return 0;
}

static int dec_message(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                       ttf_event *ev)
{
    uint64_t a;
    int r;

    (void)tag;
    if ((r = cur_uvar(s, &a)))
        return r;
    if (a > UINT32_MAX)
        return CORRUPT(s, "MESSAGE site %llu too large", (unsigned long long)a);
    ev_begin(d, ev, TTF_EV_MESSAGE, d->c.rec);
    ev->site = (uint32_t)a;
    ev->args = s->p;
    ev->args_len = (size_t)cur_left(s);
    if (!d->scan) {
        const ttf_callsite *cs = find_site(d->t, ev->site);
        if (cs && cs->kind == TTF_SITE_MARK)
            ev->kind = TTF_EV_MARK;
    }
    return 0;
}

/* SCOPE_ENTER and SCOPE_EXIT. */
static int dec_scope(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                     ttf_event *ev)
{
    uint64_t a;
    int r;

    if ((r = cur_uvar(s, &a)))
        return r;
    if (a > UINT32_MAX)
        return CORRUPT(s, "scope site %llu too large", (unsigned long long)a);
    ev_begin(d, ev, tag == TTF_R_SCOPE_ENTER ? TTF_EV_ENTER : TTF_EV_EXIT,
             d->c.rec);
    ev->site = (uint32_t)a;
    d->depth += tag == TTF_R_SCOPE_ENTER ? 1 : -1;
    return 0;
}

static int dec_crash(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                     ttf_event *ev)
{
    uint64_t a, b;
    int64_t sv;
    int r;

    (void)tag;
    if ((r = cur_uvar(s, &a)) || (r = cur_svar(s, &sv)) ||
        (r = cur_uvar(s, &b)))
        return r;
    ev_begin(d, ev, TTF_EV_CRASH, d->c.rec);
    ev->signo = a > INT32_MAX ? INT32_MAX : (int)a;
    ev->code = clamp_depth(sv);
    ev->fault_addr = b;
    if (d->scan)
        d->scan->sum.crashed = 1;
    return 0;
}

static int dec_lost(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                    ttf_event *ev)
{
    uint64_t a, b;
    uint8_t u8;
    int r;

    (void)tag;
    if ((r = cur_uvar(s, &a)) || (r = cur_uvar(s, &b)) ||
        (r = cur_u8(s, &u8)))
        return r;
    ev_begin(d, ev, TTF_EV_LOST, d->c.rec);
    ev->lost_events = a;
    ev->lost_bytes = b;
    ev->code = u8;
    return 0;
}

static int dec_end(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                   ttf_event *ev)
{
    int64_t sv;
    int r;

    (void)tag;
    if ((r = cur_svar(s, &sv)))
        return r;
    ev_begin(d, ev, TTF_EV_END, d->c.rec);
    ev->signo = clamp_depth(sv);
    if (d->scan) {
        d->scan->proc.exited = 1;
        d->scan->proc.exit_status = ev->signo;
        d->scan->proc.exit_thread = d->thread;
    }
    return 0;
}

/* PAUSE and RESUME. */
static int dec_pause(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                     ttf_event *ev)
{
    (void)s;
    ev_begin(d, ev, tag == TTF_R_PAUSE ? TTF_EV_PAUSE : TTF_EV_RESUME,
             d->c.rec);
    return 0;
}

static int dec_cut(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                   ttf_event *ev)
{
    uint8_t u8;
    int r;

    (void)tag;
    if ((r = cur_u8(s, &u8)))
        return r;
    ev_begin(d, ev, TTF_EV_CUT, d->c.rec);
    ev->code = u8;
    return 0;
}

/* The decoder of each required event record tag (NULL: not an event). */
static const rec_decoder event_decoders[TTF_R_CUT + 1] = {
    [TTF_R_MODULE_LOAD] = dec_module_load,
    [TTF_R_MODULE_UNLOAD] = dec_module_unload,
    [TTF_R_THREAD_START] = dec_thread_start,
    [TTF_R_THREAD_NAME] = dec_thread_name,
    [TTF_R_THREAD_END] = dec_thread_end,
    [TTF_R_MESSAGE] = dec_message,
    [TTF_R_SCOPE_ENTER] = dec_scope,
    [TTF_R_SCOPE_EXIT] = dec_scope,
    [TTF_R_CRASH] = dec_crash,
    [TTF_R_LOST] = dec_lost,
    [TTF_R_END] = dec_end,
    [TTF_R_PAUSE] = dec_pause,
    [TTF_R_RESUME] = dec_pause,
    [TTF_R_CUT] = dec_cut,
};

/* Event record tag (<= TTF_R_CUT, not PROCESS, CALLSITE or SYNC) after its
 * time delta. Returns 0 or a TT_E* code. */
static int event_record(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                        ttf_event *ev)
{
    return event_decoders[tag](d, tag, s, ev);
}

/* SYNC_OP: u8 op, uvar object, svar arg (after t). 0 or damaged. */
static int sync_op_record(struct dec *d, struct ttfi_cursor *s, ttf_event *ev)
{
    const uint8_t *rec = d->c.rec;
    uint8_t op;
    uint64_t obj;
    int64_t arg;
    int r;

    if ((r = cur_u8(s, &op)) || (r = cur_uvar(s, &obj)) || (r = cur_svar(s, &arg)))
        return r;
    ev_begin(d, ev, TTF_EV_SYNC_OP, rec);
    ev->code = op;
    ev->addr = obj;
    ev->sync_arg = arg;
    return 0;
}

/* EXEC, VFORK and UNWIND (format 1.3, optional; FORMAT.md 4.4), after t:
 * how the process or some of its frames ended. 0 or damaged. */
static int ends_record(struct dec *d, unsigned tag, struct ttfi_cursor *s, ttf_event *ev)
{
    const uint8_t *rec = d->c.rec, *str = NULL;
    uint64_t u = 0;
    int64_t sv = 0;
    uint8_t how = 0;
    size_t n = 0;
    int r;

    if (tag == TTF_R_EXEC)
        r = cur_svar(s, &sv) ? d->pb.code : cur_str(s, &str, &n);
    else if (tag == TTF_R_VFORK)
        r = cur_uvar(s, &u);
    else
        r = cur_u8(s, &how) ? d->pb.code : cur_uvar(s, &u);
    if (r)
        return r;
    if (tag == TTF_R_UNWIND && u > INT32_MAX)
        return CORRUPT(s, "UNWIND of %llu frames", (unsigned long long)u);
    ev_begin(d, ev, tag == TTF_R_EXEC ? TTF_EV_EXEC : tag == TTF_R_VFORK ? TTF_EV_VFORK
                                                                          : TTF_EV_UNWIND, rec);
    ev->code = tag == TTF_R_EXEC ? clamp_depth(sv) : tag == TTF_R_VFORK ? clamp_depth((int64_t)u)
                                                                          : how;
    if (tag == TTF_R_UNWIND) {
        ev->unwound = (uint32_t)u;
        d->depth -= (int64_t)u;
    }
    if (tag == TTF_R_EXEC)
        ev->text = d->scan ? keep_text(d, str, n, 0) : text_of(d, rec);
    if (tag == TTF_R_EXEC && d->scan)
        d->scan->proc.exec_path = sv == 0 ? ev->text : "";
    return 0;
}

/* An extended record (tag 0x01..0x3F). 1: *ev is an event; 0: consumed,
 * nothing to report; <0: damaged. */
static int ext_record(struct dec *d, unsigned tag, ttf_event *ev)
{
    struct ttfi_cursor *c = &d->c;
    uint64_t len, dt;
    const uint8_t *body;
    int r;

    c->p++;
    if ((r = cur_uvar(c, &len)) || (r = cur_bytes(c, len, &body, rec_name(tag))))
        return r;
    int ends = tag == TTF_R_EXEC || tag == TTF_R_VFORK || tag == TTF_R_UNWIND;
    if (tag >= TTF_R_OPTIONAL_FIRST && tag != TTF_R_SYNC_OP && !ends) {
        if (d->scan)
            d->scan->skipped[tag - TTF_R_OPTIONAL_FIRST]++;
        return 0;
    }
    if (tag > TTF_R_CUT && tag < TTF_R_OPTIONAL_FIRST)
        return CORRUPT(c, "unknown required record 0x%02x", tag);
    struct ttfi_cursor s = *c;
    s.p = body;
    s.end = body + len;
    s.end_is_eof = 0;
    if (tag == TTF_R_PROCESS || tag == TTF_R_CALLSITE) {
        r = meta_record(d, tag, &s);
    } else if ((r = cur_uvar(&s, &dt)) == 0) {
        d->tsc += dt;
        if (tag == TTF_R_SYNC)
            r = meta_record(d, tag, &s);
        else if (tag == TTF_R_SYNC_OP)
            r = (r = sync_op_record(d, &s, ev)) == 0 ? 1 : r;
        else if (ends)
            r = (r = ends_record(d, tag, &s, ev)) == 0 ? 1 : r;
        else if ((r = event_record(d, tag, &s, ev)) == 0)
            r = 1;
    }
    if (r >= 0)
        return r;
    char what[sizeof d->pb.what];
    memcpy(what, d->pb.what, sizeof what);
    return CORRUPT(c, "bad %s record: %s", rec_name(tag), what);
}

/* The values after an ENTER/EXIT of a values chunk (FORMAT.md 4.1): the
 * register mask and deltas, or rax. 0 or a TT_E* code (d->pb). */
static int dec_values(struct dec *d, ttf_event *ev)
{
    struct ttfi_cursor *c = &d->c;
    int64_t v;
    uint8_t mask;

    ev->has_values = 1;
    if (ev->kind == TTF_EV_EXIT) {
        if (cur_svar(c, &v))
            return d->pb.code;
        ev->retval = (uint64_t)v;
        return 0;
    }
    if (cur_u8(c, &mask))
        return d->pb.code;
    if (mask & TTF_MASK_BAD)
        return CORRUPT(c, "ENTER value mask 0x%02x has bit 7 set", mask);
    unsigned changed = 0;
    for (int i = 0; i < TTF_ARGREGS; i++) {
        uint64_t d_i = mask & TTF_MASK_STRIDE ? d->stride[i] : 0;
        if (mask & (1u << i)) {
            if (cur_svar(c, &v))
                return d->pb.code;
            d_i = (uint64_t)v;
        }
        changed |= (unsigned)(d_i != 0) << i;
        d->stride[i] = d_i;
        d->regs[i] += d_i;
    }
    ev->changed = changed;
    memcpy(ev->argregs, d->regs, sizeof d->regs);
    return 0;
}

static inline int is_enter_tag(unsigned tag)
{
    return (tag & 0xC0) == TTF_T_ENTER_HIT || tag == TTF_T_ENTER_MISS;
}

/* A SITE_WAY or SITE_NEW prefix (v1.2) at c->rec: kept for the ENTER that
 * must follow. 0, or <0 if its delta is damaged. */
static int dec_site_prefix(struct dec *d, unsigned tag)
{
    struct ttfi_cursor *c = &d->c;
    int64_t delta = 0;
    if (d->pend)
        return CORRUPT(c, "call-site record not followed by an ENTER");
    c->p = c->rec + 1;
    if (tag == TTF_T_SITE_NEW && cur_svar(c, &delta))
        return d->pb.code;
    d->pend = tag;
    d->pend_rec = c->rec;
    d->pend_site = d->sites.last + (uint64_t)delta;
    return 0;
}

/* The call site of an ENTER of fn: the prefix's, else the predicted one;
 * the chunk's site state moves on (ttf_site_advance). */
static inline uint64_t enter_site(struct dec *d, uint64_t fn)
{
    uint64_t site;
    if (d->pend == TTF_T_SITE_NEW)
        site = d->pend_site;
    else if (d->pend)
        site = d->sites.ways[TTF_SITE_SLOT(fn)][d->pend - TTF_T_SITE_WAY];
    else
        site = ttf_site_pred(&d->sites, fn,
                             d->sites.path[TTF_SITE_PATH(fn, d->sites.last)]);
    d->pend = 0;
    ttf_site_advance(&d->sites, fn, site);
    return site;
}

/* Next event of the chunk: 1 with *ev, 0 at its end, <0 damaged (d->pb). */
static int dec_next(struct dec *d, ttf_event *ev)
{
    struct ttfi_cursor *c = &d->c;
    for (;;) {
        const uint8_t *p = c->p;
        uint64_t v = 0;
        if (p >= c->end) {
            c->rec = d->pend ? d->pend_rec : p;
            if (d->pend && !c->end_is_eof)
                return CORRUPT(c, "call-site record at the end of its chunk");
            if (!c->end_is_eof)
                return 0;
            return TRUNCATED(c, "chunk cut by the end of the file");
        }
        unsigned tag = *p;
        c->rec = p;
        if (d->pend && !is_enter_tag(tag)) {
            c->rec = d->pend_rec;
            return CORRUPT(c, "call-site record not followed by an ENTER");
        }
        if (tag >= TTF_T_ENTER_HIT) {
            c->p = p + 1;
            if (d->timed && cur_uvar(c, &v))
                return d->pb.code;
            d->tsc += v;
            ev_begin(d, ev, tag >= TTF_T_EXIT_HIT ? TTF_EV_EXIT : TTF_EV_ENTER, p);
            ev->addr = d->cache[tag & (TTF_SLOTS - 1)];
            if (tag < TTF_T_EXIT_HIT)
                ev->call_site = enter_site(d, ev->addr);
            if (d->values && dec_values(d, ev))
                return d->pb.code;
            d->depth += tag >= TTF_T_EXIT_HIT ? -1 : 1;
            return 1;
        }
        if (tag == TTF_T_END)
            return 0;
        if (tag == TTF_T_ENTER_MISS || tag == TTF_T_EXIT_MISS) {
            int64_t delta;
            c->p = p + 1;
            if (cur_svar(c, &delta) || (d->timed && cur_uvar(c, &v)))
                return d->pb.code;
            uint64_t addr = d->prev + (uint64_t)delta;
            d->cache[TTF_SLOT(addr)] = addr;
            d->prev = addr;
            d->tsc += v;
            ev_begin(d, ev, tag == TTF_T_EXIT_MISS ? TTF_EV_EXIT : TTF_EV_ENTER, p);
            ev->addr = addr;
            if (tag == TTF_T_ENTER_MISS)
                ev->call_site = enter_site(d, addr);
            if (d->values && dec_values(d, ev))
                return d->pb.code;
            d->depth += tag == TTF_T_EXIT_MISS ? -1 : 1;
            return 1;
        }
        if (tag >= TTF_T_SITE_WAY && tag <= TTF_T_SITE_NEW && d->sites_ok) {
            if (dec_site_prefix(d, tag))
                return d->pb.code;
            continue;
        }
        if (tag > TTF_R_LAST)
            return CORRUPT(c, "invalid record tag 0x%02x", tag);
        int r = ext_record(d, tag, ev);
        if (r)
            return r;
    }
}

/* While scanning: a chunk's decoding stopped with r (0 clean, <0 damaged). */
static void chunk_done(struct dec *d, int r)
{
    struct chunk *ch = d->ch;
    ttf_trace *t = d->scan;
    if (r >= 0) {
        ch->vend = cur_offset(&d->c, d->c.p);
        return;
    }
    ch->vend = cur_offset(&d->c, d->c.rec ? d->c.rec : d->c.p);
    ch->damaged = 1;
    t->sum.chunks_damaged++;
    char tail[96];
    snprintf(tail, sizeof tail, "; rest of chunk (thread %u, seq %u) skipped",
             ch->thread, ch->seq);
    note_problem(t, &d->pb, tail);
}

static void lost_here(const struct dec *d, ttf_event *ev, uint64_t off,
                      uint64_t bytes)
{
    ev_fill(ev, TTF_EV_LOST, d->ch->thread, d->tsc, to_ns(d->t, d->tsc),
            clamp_depth(d->depth), off);
    ev->lost_bytes = bytes;
}

/* The common records decoded in line, without dec_next's generality: an
 * ENTER or EXIT, hit or miss, whose varints have one or two bytes, in a
 * chunk without values. 1 with *ev as dec_next would fill it; 0 (nothing
 * read or changed) if the next record is any other: dec_next then starts
 * over at the same byte, and reports any damage. */
static inline __attribute__((always_inline)) int hot_fast(struct dec *d,
                                                          ttf_event *ev)
{
    const uint8_t *p = d->c.p, *q = p + 1, *end = d->c.end;
    uint64_t addr, u, dt = 0;
    unsigned slot;
    int is_exit;

    if (!d->fast || p >= end)
        return 0;
    unsigned tag = *p;
    if (tag >= TTF_T_ENTER_HIT) {
        if (d->timed && !uvar_short(&q, end, &dt))
            return 0;
        slot = tag & (TTF_SLOTS - 1);
        addr = d->cache[slot];
        is_exit = tag >= TTF_T_EXIT_HIT;
    } else {
        if ((tag | 1) != TTF_T_EXIT_MISS || !uvar_short(&q, end, &u) ||
            (d->timed && !uvar_short(&q, end, &dt)))
            return 0;
        addr = d->prev + (uint64_t)unzigzag(u);
        slot = TTF_SLOT(addr);
        d->cache[slot] = addr;
        d->prev = addr;
        is_exit = tag == TTF_T_EXIT_MISS;
    }
    d->c.p = q;
    d->tsc += dt;
    ev_fill(ev, is_exit ? TTF_EV_EXIT : TTF_EV_ENTER, d->thread, d->tsc,
            to_ns(d->t, d->tsc), clamp_depth(d->depth), (uint64_t)(p - d->buf));
    ev->addr = addr;
    if (d->sites_ok && !is_exit) {
        /* an ENTER without a prefix: its predicted site (traces
           without sites skip this: call_site is 0) */
        ev->call_site = ttf_site_take(&d->sites, addr);
    }
    d->depth += is_exit ? -1 : 1;
    return 1;
}

/* Next event of the thread, any record: 1 with *ev, 0 at the end. Out of
 * line, so that titer_next's fast path stays small where it is inlined. */
static __attribute__((noinline)) int titer_step(struct titer *ti,
                                                ttf_event *ev)
{
    struct dec *d = &ti->d;
    for (;;) {
        if (!ti->in_chunk) {
            if (ti->k >= ti->th->n)
                return 0;
            struct chunk *ch = &d->t->chunks[ti->th->first + ti->k];
            uint32_t gap = ti->k ? ch->seq - ti->prev_seq - 1 : ch->seq;
            ti->prev_seq = ch->seq;
            ti->k++;
            chunk_begin(d, ch);
            ti->in_chunk = 1;
            if (gap) {
                if (d->scan) {
                    ti->th->pub.seq_gaps += gap;
                    note(d->scan, "%s: offset %llu: thread %u: %u chunk(s) "
                         "missing before seq %u", d->t->name,
                         (unsigned long long)ch->off, ch->thread, gap, ch->seq);
                }
                lost_here(d, ev, ch->off, (uint64_t)gap * d->t->hdr.chunk_size);
                return 1;
            }
        }
        int r = dec_next(d, ev);
        if (r == 1)
            return 1;
        ti->in_chunk = 0;
        d->fast = 0;
        if (d->scan)
            chunk_done(d, r);
        if (r < 0 || d->ch->damaged) {
            lost_here(d, ev, d->ch->vend, d->ch->end - d->ch->vend);
            return 1;
        }
    }
}

/* Next event of the thread: 1 with *ev, 0 at its end. */
static inline __attribute__((always_inline)) int titer_next(struct titer *ti,
                                                       ttf_event *ev)
{
    return hot_fast(&ti->d, ev) ? 1 : titer_step(ti, ev);
}

static void titer_init(struct titer *ti, const ttf_trace *t, size_t thread,
                       ttf_trace *scan)
{
    memset(ti, 0, sizeof *ti);
    ti->d.t = t;
    ti->d.buf = t->buf;
    ti->d.scan = scan;
    ti->th = &((ttf_trace *)t)->threads[thread];
}

/* ---- opening ------------------------------------------------------------- */

#define REFUSE(c, code, ...) ttfi_bad((c), (code), __FILE__, __LINE__, __VA_ARGS__)

static int check_magic(struct ttfi_cursor *c, size_t len)
{
    static const char crlf_lost[] = "\x89TTF\n\x1a\n";
    const uint8_t *b = c->p;
    size_t n = len < TTF_MAGIC_LEN ? len : TTF_MAGIC_LEN;

    if (memcmp(b, TTF_MAGIC, n) == 0)
        return len < TTF_MAGIC_LEN ? TRUNCATED(c, "file ends inside the magic") : 0;
    if (len >= 7 && memcmp(b, crlf_lost, 7) == 0)
        return CORRUPT(c, "bad magic: CR LF became LF (text-mode transfer?)");
    if (len >= 4 && b[0] == 0x09 && memcmp(b + 1, "TTF", 3) == 0)
        return CORRUPT(c, "bad magic: high bit stripped (7-bit transfer?)");
    return CORRUPT(c, "not a tt trace (bad magic)");
}

/* The header's cut counters and cut table (TTF_OPT_CUTINFO: libttcap
 * keeps them in the mapped header page). Entries past the file's end or
 * data_offset are not read; an entry's thread index + 1 is stored last,
 * so 0 marks an unused (or half-written) one. */
static void parse_cutinfo(ttf_trace *t)
{
    ttf_header *h = &t->hdr;
    const uint8_t *b = t->buf;
    if (!(h->optional_features & TTF_OPT_CUTINFO) ||
        h->header_size < TTF_HEADER_SIZE_CUT || t->len < TTF_HEADER_SIZE_CUT)
        return;
    h->cut_events = ttf_get_le(b + TTF_H_CUTEV, 8);
    h->cut_threads = (uint32_t)ttf_get_le(b + TTF_H_CUTTHR, 4);
    h->cut_reason = (uint32_t)ttf_get_le(b + TTF_H_CUTWHY, 4);
    h->cut_realtime_ns = ttf_get_le(b + TTF_H_CUTTIME, 8);
    for (size_t i = 0; i < TTF_CUT_ENTRIES; i++) {
        uint64_t off = TTF_CUT_TABLE + i * TTF_CUT_ENTRY;
        if (off + TTF_CUT_ENTRY > t->len || off + TTF_CUT_ENTRY > h->data_offset)
            break;
        const uint8_t *e = b + off;
        uint32_t th1 = (uint32_t)ttf_get_le(e + TTF_CUTE_THREAD, 4);
        if (!th1)
            continue;
        uint32_t why = (uint32_t)ttf_get_le(e + TTF_CUTE_REASON, 4);
        t->cuts[t->ncuts++] = (ttf_cut){ .thread = th1 - 1,
            .tid = (int64_t)ttf_get_le(e + TTF_CUTE_TID, 4),
            .lost = ttf_get_le(e + TTF_CUTE_LOST, 8),
            .realtime_ns = ttf_get_le(e + TTF_CUTE_TIME, 8),
            .flags = (uint32_t)ttf_get_le(e + TTF_CUTE_FLAGS, 4),
            .reason = why > 255 ? 255 : (int)why };
    }
}

static int parse_header(ttf_trace *t, struct ttfi_problem *pb)
{
    struct ttfi_cursor c = {t->buf, t->buf + t->len, t->buf, 0, NULL, 1, pb};
    ttf_header *h = &t->hdr;
    enum { VMAJOR, VMINOR, MINREAD, HSIZE, ENDIAN, REQ, OPT, CHUNK, DATAOFF, FLAGS,
           EXIT, TSCHZ, START, NFIELDS };
    static const struct { uint8_t off, width; } field[NFIELDS] = {
        [VMAJOR] = {TTF_H_VMAJOR, 2}, [VMINOR] = {TTF_H_VMINOR, 2},
        [MINREAD] = {TTF_H_MINREAD, 2}, [HSIZE] = {TTF_H_HSIZE, 2},
        [ENDIAN] = {TTF_H_ENDIAN, 4}, [REQ] = {TTF_H_REQ, 4}, [OPT] = {TTF_H_OPT, 4},
        [CHUNK] = {TTF_H_CHUNK, 4}, [DATAOFF] = {TTF_H_DATAOFF, 4},
        [FLAGS] = {TTF_H_FLAGS, 4}, [EXIT] = {TTF_H_EXIT, 4}, [TSCHZ] = {TTF_H_TSCHZ, 8},
        [START] = {TTF_H_START, 8}};
    uint64_t v[NFIELDS];
    int r;

    if ((r = check_magic(&c, t->len)))
        return r;
    if (t->len < TTF_HEADER_SIZE)
        return TRUNCATED(&c, "truncated file header (needs %d bytes, %zu present)",
                         TTF_HEADER_SIZE, t->len);
    for (int i = 0; i < NFIELDS; i++) {
        c.p = t->buf + field[i].off;
        if ((r = cur_le(&c, field[i].width, &v[i])))
            return r;
    }
    c.p = t->buf + TTF_HEADER_SIZE;
    h->version_major = (uint16_t)v[VMAJOR];
    h->version_minor = (uint16_t)v[VMINOR];
    h->min_reader_major = (uint16_t)v[MINREAD];
    h->header_size = (uint16_t)v[HSIZE];
    h->required_features = (uint32_t)v[REQ];
    h->optional_features = (uint32_t)v[OPT];
    h->chunk_size = (uint32_t)v[CHUNK];
    h->data_offset = (uint32_t)v[DATAOFF];
    h->flags = (uint32_t)v[FLAGS];
    h->exit_status = (int32_t)(uint32_t)v[EXIT];
    h->tsc_hz = v[TSCHZ];
    h->start_realtime_ns = v[START];
    parse_cutinfo(t);

    c.rec = t->buf + TTF_H_ENDIAN;
    if (v[ENDIAN] == 0x04030201u)
        return CORRUPT(&c, "byte order marker 04030201: written big-endian "
                           "(unsupported)");
    if (v[ENDIAN] != TTF_ENDIAN_MARK)
        return CORRUPT(&c, "bad byte order marker 0x%08llx",
                       (unsigned long long)v[ENDIAN]);
    c.rec = t->buf + TTF_H_VMAJOR;
    if (h->version_major == 0)
        return CORRUPT(&c, "bad format version 0.%u", h->version_minor);
    c.rec = t->buf + TTF_H_MINREAD;
    if (h->min_reader_major > TTF_VERSION_MAJOR_WIRE)
        return REFUSE(&c, TT_EVERSION, "format version %u.%u needs a reader of "
                      "major version %u or later (this is %d)", h->version_major,
                      h->version_minor, h->min_reader_major, TTF_VERSION_MAJOR_WIRE);
    c.rec = t->buf + TTF_H_REQ;
    if (h->required_features & ~TTF_REQ_KNOWN)
        return REFUSE(&c, TT_EFEATURE, "needs unknown required feature bits 0x%x "
                      "(this reader knows 0x%x: events-v1, values, sites)",
                      h->required_features & ~TTF_REQ_KNOWN, TTF_REQ_KNOWN);
    c.rec = t->buf + TTF_H_HSIZE;
    if (h->header_size < TTF_HEADER_SIZE)
        return CORRUPT(&c, "header size %u is less than %d", h->header_size,
                       TTF_HEADER_SIZE);
    c.rec = t->buf + TTF_H_CHUNK;
    if (h->chunk_size < TTF_CHUNK_MIN || h->chunk_size > TTF_CHUNK_MAX ||
        (h->chunk_size & (h->chunk_size - 1)))
        return CORRUPT(&c, "bad chunk size %u (a power of two from %u to %u)",
                       h->chunk_size, TTF_CHUNK_MIN, TTF_CHUNK_MAX);
    c.rec = t->buf + TTF_H_DATAOFF;
    if (h->data_offset % 4096 || h->data_offset < h->header_size ||
        h->data_offset > DATA_OFFSET_MAX)
        return CORRUPT(&c, "bad data offset %u (a multiple of 4096 past the "
                       "header)", h->data_offset);
    return 0;
}

/* Read chunk slot i's header; append it to t->chunks if it holds data. */
static void scan_slot(ttf_trace *t, uint64_t i)
{
    uint64_t off = t->hdr.data_offset + i * t->hdr.chunk_size;
    uint64_t avail = t->len - off;
    struct ttfi_problem pb = {0};
    struct ttfi_cursor c = {t->buf + off, t->buf + t->len, t->buf, 0,
                            t->buf + off, 1, &pb};
    uint64_t f[11] = {0};
    int counted = 0;
    static const int width[11] = {4, 4, 4, 2, 2, 4, 4, 8, 8, 8, 0};

    if (avail > t->hdr.chunk_size)
        avail = t->hdr.chunk_size;
    c.end = c.p + avail;
    c.end_is_eof = avail < t->hdr.chunk_size;
    if (avail < 4 && memcmp(c.p, "\0\0\0", avail) == 0)
        return;
    for (int k = 0; width[k]; k++) {
        if (cur_le(&c, width[k], &f[k]))
            goto bad;
        if (k == 0 && f[0] == 0)
            return;             /* magic 0: an unused slot */
        if (k == 0 && f[0] != TTF_CHUNK_MAGIC) {
            CORRUPT(&c, "bad chunk magic 0x%08llx", (unsigned long long)f[0]);
            goto bad;
        }
    }
    t->sum.chunks_used++;
    counted = 1;
    if (f[4] < TTF_CHUNK_HDR || f[4] > avail) {
        if (f[4] > avail && c.end_is_eof)
            TRUNCATED(&c, "chunk header cut by the end of the file");
        else
            CORRUPT(&c, "bad chunk header size %llu", (unsigned long long)f[4]);
        goto bad;
    }
    if (f[1] >= THREADS_MAX || f[1] >= t->sum.chunks_total + THREAD_SLACK) {
        CORRUPT(&c, "chunk thread index %llu out of range", (unsigned long long)f[1]);
        goto bad;
    }
    if ((f[3] & TTF_CHUNK_VALUES) && !(t->hdr.required_features & TTF_REQ_VALUES)) {
        CORRUPT(&c, "chunk carries values but the header lacks the values feature");
        goto bad;
    }
    struct chunk *ch = PUSH(t, chunks);
    if (!ch)
        return;
    ch->off = off;
    ch->end = off + avail;
    ch->vend = ch->end;
    ch->thread = (uint32_t)f[1];
    ch->seq = (uint32_t)f[2];
    ch->flags = (uint16_t)f[3];
    ch->hsize = (uint16_t)f[4];
    ch->depth = (int32_t)(uint32_t)f[5];
    ch->tsc = f[7];
    ch->mono = f[8];
    ch->real = f[9];
    ch->cut = (uint8_t)c.end_is_eof;
    return;
bad:
    if (!counted)
        t->sum.chunks_used++;
    t->sum.chunks_damaged++;
    note_problem(t, &pb, "; chunk skipped");
}

/* qsort that accepts an empty (NULL) array. */
static void sort_n(void *a, size_t n, size_t size,
                   int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(a, n, size, cmp);
}

static int chunk_cmp(const void *a, const void *b)
{
    const struct chunk *x = a, *y = b;
    if (x->thread != y->thread)
        return x->thread < y->thread ? -1 : 1;
    if (x->seq != y->seq)
        return x->seq < y->seq ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* Sort chunks, drop repeated (thread, seq), build the thread table. */
static int index_chunks(ttf_trace *t)
{
    size_t n = 0;
    sort_n(t->chunks, t->n_chunks, sizeof *t->chunks, chunk_cmp);
    for (size_t i = 0; i < t->n_chunks; i++) {
        struct chunk *ch = &t->chunks[i];
        if (n && t->chunks[n - 1].thread == ch->thread &&
            t->chunks[n - 1].seq == ch->seq) {
            t->sum.chunks_damaged++;
            note(t, "%s: offset %llu: chunk repeats thread %u seq %u; skipped",
                 t->name, (unsigned long long)ch->off, ch->thread, ch->seq);
            continue;
        }
        t->chunks[n++] = *ch;
    }
    t->n_chunks = n;
    if (!n)
        return 0;
    t->nthreads = (size_t)t->chunks[n - 1].thread + 1;
    t->threads = calloc(t->nthreads, sizeof *t->threads);
    if (!t->threads)
        return TT_ENOMEM;
    for (size_t i = 0; i < t->nthreads; i++) {
        t->threads[i].pub.index = (uint32_t)i;
        t->threads[i].pub.name = "";
        t->threads[i].pub.first_name = "";
    }
    t->start_tsc = UINT64_MAX;
    for (size_t i = 0; i < n; i++) {
        struct chunk *ch = &t->chunks[i];
        struct tthread *th = &t->threads[ch->thread];
        if (!th->n)
            th->first = i;
        th->n++;
        th->pub.chunks++;
        if (ch->tsc < t->start_tsc)
            t->start_tsc = ch->tsc;
        struct syncpt *sp = ch->mono ? PUSH(t, syncs) : NULL;
        if (sp)
            *sp = (struct syncpt){ch->tsc, ch->mono};
    }
    return 0;
}

/* Count thread i's events and find their time range: all the scan needs
 * of them. hit is a local whose address goes nowhere but hot_fast, so the
 * compiler keeps only the fields read here. */
static void scan_events(ttf_trace *t, size_t i)
{
    struct titer ti;
    ttf_event ev, hit;
    uint64_t n = 0, lost = 0, first = 0, last = 0;
    uint64_t lo = t->ev_min, hi = t->ev_max;
    int cut = -1;

    titer_init(&ti, t, i, t);
    for (;;) {
        if (hot_fast(&ti.d, &hit)) {
            last = hit.tsc;
        } else if (titer_step(&ti, &ev) == 1) {
            last = ev.tsc;
            lost += ev.lost_events;
            cut = ev.kind == TTF_EV_CUT && cut < 0 ? ev.code : cut;
        } else {
            break;
        }
        first = n++ ? first : last;
        lo = last < lo ? last : lo;
        hi = last > hi ? last : hi;
    }
    struct tthread *th = ti.th;
    th->pub.events = n;
    th->pub.lost_events = lost;
    th->pub.cut = cut >= 0;
    if (cut >= 0 && t->sum.cut_threads++ == 0)
        t->sum.cut_reason = cut;
    th->has_ev = n != 0;
    th->first_tsc = first;
    th->last_tsc = last;
    t->ev_min = lo;
    t->ev_max = hi;
}

/* The summary's cut fields: CUT records and the header's counters (a
 * thread that never got a chunk leaves no record, only the count). */
static void sum_cuts(ttf_trace *t)
{
    const ttf_header *h = &t->hdr;
    uint64_t table = 0;
    for (size_t i = 0; i < t->ncuts; i++)
        table += t->cuts[i].lost;
    if (h->cut_threads > t->sum.cut_threads)
        t->sum.cut_threads = h->cut_threads;
    if (t->ncuts > t->sum.cut_threads)
        t->sum.cut_threads = t->ncuts;
    if (h->cut_threads || t->ncuts)
        t->sum.cut_reason = t->ncuts ? t->cuts[0].reason
                          : (int)(h->cut_reason > 255 ? 255 : h->cut_reason);
    else if (!t->sum.cut_threads)
        t->sum.cut_reason = h->cut_events ? TTF_CUT_UNSPEC : -1;
    /* exact per thread; the total may be short after a SIGKILL */
    t->sum.cut_events = h->cut_events > table ? h->cut_events : table;
    t->sum.lost_events += t->sum.cut_events;
}

static void scan_threads(ttf_trace *t)
{
    t->ev_min = UINT64_MAX;
    for (size_t i = 0; i < t->nthreads; i++) {
        scan_events(t, i);
        if (!t->threads[i].n)
            note(t, "%s: thread %zu has no chunks (lost or overwritten)",
                 t->name, i);
    }
}

static int site_cmp(const void *a, const void *b)
{
    const struct siterec *x = a, *y = b;
    if (x->pub.id != y->pub.id)
        return x->pub.id < y->pub.id ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static int mod_cmp(const void *a, const void *b)
{
    const struct modrec *x = a, *y = b;
    if (x->load_tsc != y->load_tsc)
        return x->load_tsc < y->load_tsc ? -1 : 1;
    return x->off < y->off ? -1 : x->off > y->off;
}

static int unl_cmp(const void *a, const void *b)
{
    const struct unload *x = a, *y = b;
    return x->tsc < y->tsc ? -1 : x->tsc > y->tsc;
}

static int aux_cmp(const void *a, const void *b)
{
    const struct aux *x = a, *y = b;
    return x->off < y->off ? -1 : x->off > y->off;
}

/* Sort what the scan collected and convert its times. */
static void finish_index(ttf_trace *t)
{
    size_t n = 0;

    sort_n(t->sites, t->n_sites, sizeof *t->sites, site_cmp);
    for (size_t i = 0; i < t->n_sites; i++)
        if (!n || t->sites[n - 1].pub.id != t->sites[i].pub.id)
            t->sites[n++] = t->sites[i];
    t->n_sites = n;
    sort_n(t->aux, t->n_aux, sizeof *t->aux, aux_cmp);

    choose_hz(t);
    sort_n(t->mods, t->n_mods, sizeof *t->mods, mod_cmp);
    for (size_t i = 0; i < t->n_mods; i++) {
        struct aux *a = (struct aux *)aux_find(t, t->mods[i].off);
        if (a)
            a->index = (uint32_t)i;
        t->mods[i].pub.load_ns = to_ns(t, t->mods[i].load_tsc);
    }
    sort_n(t->unl, t->n_unl, sizeof *t->unl, unl_cmp);
    for (size_t u = 0; u < t->n_unl; u++) {
        struct modrec *best = NULL;
        for (size_t i = 0; i < t->n_mods; i++) {
            struct modrec *m = &t->mods[i];
            if (m->pub.base == t->unl[u].base && m->pub.unload_ns == UINT64_MAX &&
                m->load_tsc <= t->unl[u].tsc)
                best = m;
        }
        if (best)
            best->pub.unload_ns = to_ns(t, t->unl[u].tsc);
    }
    for (size_t i = 0; i < t->nthreads; i++) {
        struct tthread *th = &t->threads[i];
        th->pub.start_ns = to_ns(t, th->has_start ? th->start_tsc : th->first_tsc);
        th->pub.end_ns = to_ns(t, th->pub.ended ? th->end_tsc : th->last_tsc);
        t->sum.events += th->pub.events;
        t->sum.lost_events += th->pub.lost_events;
    }
    sum_cuts(t);
    for (size_t i = 0; i < t->n_chunks; i++)
        t->sum.data_bytes += t->chunks[i].vend - t->chunks[i].off - t->chunks[i].hsize;
    if (t->sum.events)
        t->sum.duration_ns = to_ns(t, t->ev_max) - to_ns(t, t->ev_min);
    t->sum.closed = (t->hdr.flags & TTF_FLAG_CLOSED) || t->proc.exited;
    t->sum.values = (t->hdr.required_features & TTF_REQ_VALUES) != 0;
    t->sum.sites = (t->hdr.required_features & TTF_REQ_SITES) != 0;
    t->real0 = t->hdr.start_realtime_ns ? t->hdr.start_realtime_ns
             : t->proc.start_realtime_ns;
    for (size_t i = 0; !t->real0 && i < t->n_chunks; i++)
        if (t->chunks[i].tsc == t->start_tsc)
            t->real0 = t->chunks[i].real;
    for (unsigned k = 0; k < 32; k++)
        if (t->skipped[k])
            note(t, "%s: skipped %llu unknown optional record(s) with tag 0x%02x",
                 t->name, (unsigned long long)t->skipped[k],
                 k + TTF_R_OPTIONAL_FIRST);
    if (t->notes_dropped)
        note(t, "%s: %llu more notices not shown", t->name,
             (unsigned long long)t->notes_dropped);
}

/* The reader's wording of an error: "FILE: offset N: what". */
static void fill_error(ttf_error *err, const char *name, int code,
                       uint64_t offset, const char *what)
{
    ttfi_set_err(err, code, offset, "%s: offset %llu: %s", name,
                 (unsigned long long)offset, what);
}

/* Takes ownership of t: on error it is closed. */
static int open_trace(ttf_trace *t, ttf_trace **out, ttf_error *err)
{
    struct ttfi_problem pb = {0};
    int r = parse_header(t, &pb);

    if (r) {
        fill_error(err, t->name, r, pb.offset, pb.what);
        ttf_close(t);
        return r;
    }
    t->proc.exe = "";
    t->proc.parent_trace = "";
    t->proc.exit_thread = -1;
    t->proc.exec_path = "";
    static const char *const no_args[] = {NULL};
    t->proc.argv = no_args;
    t->sum.bytes = t->len;
    if (t->len > t->hdr.data_offset)
        t->sum.chunks_total = (t->len - t->hdr.data_offset + t->hdr.chunk_size - 1) /
                              t->hdr.chunk_size;
    for (uint64_t i = 0; i < t->sum.chunks_total; i++)
        scan_slot(t, i);
    if (!t->oom && index_chunks(t) != 0)
        t->oom = 1;     /* the thread table could not be had */
    if (!t->oom)
        scan_threads(t);
    if (!t->oom)
        finish_index(t);
    if (t->oom) {
        fill_error(err, t->name, TT_ENOMEM, 0, "out of memory");
        ttf_close(t);
        return TT_ENOMEM;
    }
    if (err)
        memset(err, 0, sizeof *err);
    *out = t;
    return 0;
}

static ttf_trace *new_trace(const char *name)
{
    ttf_trace *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->name = strdup(name);
    if (!t->name) {
        free(t);
        return NULL;
    }
    set_hz(t, NS);
    return t;
}

int ttf_open_mem(const void *buf, size_t len, const char *name,
                 ttf_trace **out, ttf_error *err)
{
    static const uint8_t empty[1];
    ttf_trace *t;

    if (!name)
        name = "<memory>";
    if (!out || (!buf && len)) {
        fill_error(err, name, TT_EINVAL, 0, "invalid argument");
        return TT_EINVAL;
    }
    *out = NULL;
    if (!(t = new_trace(name))) {
        fill_error(err, name, TT_ENOMEM, 0, "out of memory");
        return TT_ENOMEM;
    }
    t->buf = buf ? buf : empty;
    t->len = len;
    return open_trace(t, out, err);
}

int ttf_open(const char *path, ttf_trace **out, ttf_error *err)
{
    struct stat st;
    ttf_trace *t;
    int fd;

    if (!out || !path) {
        fill_error(err, path ? path : "(null)", TT_EINVAL, 0, "invalid argument");
        return TT_EINVAL;
    }
    *out = NULL;
    fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0 || fstat(fd, &st) < 0 || S_ISDIR(st.st_mode)) {
        int e = fd >= 0 && S_ISDIR(st.st_mode) ? EISDIR : errno;
        if (fd >= 0)
            close(fd);
        ttfi_set_err(err, TT_EIO, 0, "%s: %s", path, strerror(e));
        return TT_EIO;
    }
    if (!(t = new_trace(path))) {
        close(fd);
        fill_error(err, path, TT_ENOMEM, 0, "out of memory");
        return TT_ENOMEM;
    }
    t->len = (size_t)st.st_size;
    if (t->len) {
        void *m = mmap(NULL, t->len, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED) {
            int e = errno;
            close(fd);
            ttfi_set_err(err, TT_EIO, 0, "%s: mmap: %s", path, strerror(e));
            t->len = 0;
            ttf_close(t);
            return TT_EIO;
        }
        t->map = m;
        t->buf = m;
    } else {
        static const uint8_t empty[1];
        t->buf = empty;
    }
    close(fd);
    return open_trace(t, out, err);
}

void ttf_close(ttf_trace *t)
{
    if (!t)
        return;
    if (t->map)
        munmap(t->map, t->len);
    free(t->chunks);
    free(t->threads);
    free(t->mods);
    free(t->unl);
    free(t->sites);
    free(t->aux);
    free(t->syncs);
    free(t->notes);
    ttfi_arena_free(&t->arena);
    free(t->name);
    free(t);
}

/* ---- accessors ----------------------------------------------------------- */

const char *ttf_path(const ttf_trace *t)
{
    return t ? t->name : "";
}

const ttf_header *ttf_get_header(const ttf_trace *t)
{
    return t ? &t->hdr : NULL;
}

const ttf_summary *ttf_get_summary(const ttf_trace *t)
{
    return t ? &t->sum : NULL;
}

size_t ttf_cut_count(const ttf_trace *t)
{
    return t ? t->ncuts : 0;
}

const ttf_cut *ttf_get_cut(const ttf_trace *t, size_t i)
{
    return t && i < t->ncuts ? &t->cuts[i] : NULL;
}

const char *ttf_cut_reason_name(int reason)
{
    switch (reason) {
    case TTF_CUT_FULL: return "disk full";
    case TTF_CUT_IO: return "write failed";
    case TTF_CUT_LIMIT: return "file size limit";
    default: return "writer stopped";
    }
}

int ttf_cut_text(const ttf_trace *t, char *buf, size_t len)
{
    const ttf_summary *s = ttf_get_summary(t);
    if (len)
        buf[0] = 0;
    if (!s || s->cut_reason < 0)
        return 0;
    snprintf(buf, len, "trace cut: %s after %" PRIu64 " events; %" PRIu64
             " events could not be written (%" PRIu64 " thread%s cut)",
             ttf_cut_reason_name(s->cut_reason), s->events, s->cut_events,
             s->cut_threads, s->cut_threads == 1 ? "" : "s");
    return 1;
}

const ttf_process *ttf_get_process(const ttf_trace *t)
{
    return t ? &t->proc : NULL;
}

size_t ttf_module_count(const ttf_trace *t)
{
    return t ? t->n_mods : 0;
}

const ttf_module *ttf_get_module(const ttf_trace *t, size_t i)
{
    return t && i < t->n_mods ? &t->mods[i].pub : NULL;
}

size_t ttf_thread_count(const ttf_trace *t)
{
    return t ? t->nthreads : 0;
}

const ttf_thread *ttf_get_thread(const ttf_trace *t, size_t i)
{
    return t && i < t->nthreads ? &t->threads[i].pub : NULL;
}

static const ttf_callsite *find_site(const ttf_trace *t, uint32_t id)
{
    size_t lo = 0, hi = t->n_sites;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->sites[mid].pub.id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < t->n_sites && t->sites[lo].pub.id == id ? &t->sites[lo].pub : NULL;
}

const ttf_callsite *ttf_get_callsite(const ttf_trace *t, uint32_t id)
{
    return t ? find_site(t, id) : NULL;
}

size_t ttf_notice_count(const ttf_trace *t)
{
    return t ? t->n_notes : 0;
}

const char *ttf_get_notice(const ttf_trace *t, size_t i)
{
    return t && i < t->n_notes ? t->notes[i] : NULL;
}

uint64_t ttf_realtime_ns(const ttf_trace *t, uint64_t time_ns)
{
    return t ? t->real0 + time_ns : time_ns;
}

/* ---- iteration ----------------------------------------------------------- */

static int head_less(const ttf_iter *it, uint32_t a, uint32_t b)
{
    const ttf_event *x = &it->heads[a], *y = &it->heads[b];
    if (x->tsc != y->tsc)
        return x->tsc < y->tsc;
    return a < b;
}

static void sift_down(ttf_iter *it, size_t i)
{
    for (;;) {
        size_t l = 2 * i + 1, m = i;
        if (l < it->nheap && head_less(it, it->heap[l], it->heap[m]))
            m = l;
        if (l + 1 < it->nheap && head_less(it, it->heap[l + 1], it->heap[m]))
            m = l + 1;
        if (m == i)
            return;
        uint32_t x = it->heap[i];
        it->heap[i] = it->heap[m];
        it->heap[m] = x;
        i = m;
    }
}

int ttf_iter_open(const ttf_trace *t, uint32_t thread, ttf_iter **out)
{
    ttf_iter *it;

    if (!out)
        return TT_EINVAL;
    *out = NULL;
    if (!t || (thread != TTF_ALL_THREADS && thread >= t->nthreads))
        return TT_EINVAL;
    if (!(it = calloc(1, sizeof *it)))
        return TT_ENOMEM;
    it->t = t;
    if (thread != TTF_ALL_THREADS) {
        titer_init(&it->one, t, thread, NULL);
        *out = it;
        return 0;
    }
    size_t n = t->nthreads;
    it->subs = malloc((n ? n : 1) * sizeof *it->subs);
    it->heads = malloc((n ? n : 1) * sizeof *it->heads);
    it->heap = malloc((n ? n : 1) * sizeof *it->heap);
    if (!it->subs || !it->heads || !it->heap) {
        ttf_iter_close(it);
        return TT_ENOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        titer_init(&it->subs[i], t, i, NULL);
        if (titer_next(&it->subs[i], &it->heads[i]) == 1)
            it->heap[it->nheap++] = (uint32_t)i;
    }
    for (size_t i = it->nheap; i-- > 0;)
        sift_down(it, i);
    *out = it;
    return 0;
}

/* The next event of a merged iteration. Out of line, so that
 * ttf_iter_next keeps one copy of the in-line path and few registers. */
static __attribute__((noinline)) int merged_next(ttf_iter *it, ttf_event *ev)
{
    if (!it->nheap)
        return 0;
    uint32_t top = it->heap[0];
    *ev = it->heads[top];
    if (titer_next(&it->subs[top], &it->heads[top]) != 1)
        it->heap[0] = it->heap[--it->nheap];
    sift_down(it, 0);
    return 1;
}

int ttf_iter_next(ttf_iter *it, ttf_event *ev)
{
    if (!it || !ev)
        return TT_EINVAL;
    if (it->subs)
        return merged_next(it, ev);
    return titer_next(&it->one, ev);
}

void ttf_iter_close(ttf_iter *it)
{
    if (!it)
        return;
    free(it->subs);
    free(it->heads);
    free(it->heap);
    free(it);
}
