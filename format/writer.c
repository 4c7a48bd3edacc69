/*
 * writer.c - a simple single-process trace writer (ttf_writer_*): events go
 * to per-thread chunks in memory, each flushed whole into the next free
 * chunk slot of the file. Produces exactly the ttf_wire.h encoding that
 * libttcap writes, so tests and benchmarks can make traces without a program.
 *
 * Design. Each thread owns one open chunk buffer of chunk_size bytes with
 * its own decode state (function cache, previous address, running tsc),
 * reset at every chunk exactly as the reader resets it. A record is encoded
 * against the open chunk; if it does not fit, the chunk is flushed (zero
 * tail, header filled, pwrite at data_offset + slot * chunk_size) and the
 * record is encoded again in a fresh one, since cache hits and deltas
 * depend on the chunk. The chunk's base tsc is fixed by its first timed
 * record (whose delta is then 0), so untimed records (PROCESS, CALLSITE)
 * never pin a chunk to a stale time. Times that go backwards within a
 * thread are written as delta 0 (the wire has no negative deltas).
 * A values writer (opts.values, format 1.1) appends to each ENTER the
 * register mask and deltas against the chunk's previous ENTER, and to each
 * EXIT its return value; those registers restart at 0 with every chunk.
 * A sites writer (format 1.2: opts.sites, or the first ENTER written with
 * a call site) puts a SITE_WAY or SITE_NEW prefix before an ENTER whose
 * call site is not the predicted one (FORMAT.md 4.3), exactly as
 * libttcap does; the site state restarts with every chunk too.
 * A sparse writer (opts.sparse, format 1.4) flags its chunks SPARSE: an
 * EXIT written by ttf_write_exit_sparse as untimed carries no delta and
 * leaves the running tsc alone; every other EXIT gets the TIMED prefix (or
 * SAMPLE, when asked), so traces of the sparse clock can be made without
 * libttcap (the golden file sparse.trc). A lazy writer (opts.lazy,
 * format 1.7) also flags its chunks LAZY and keeps the format's rule: an
 * ENTER right after an untimed EXIT (no timed record between) carries no
 * delta, its tsc dropped (the golden file lazy.trc); with values too
 * (format 1.8, TTF_REQ_VLAZY), whose ENTERs keep their values. A chain
 * writer (opts.chain too, format 1.9, TTF_REQ_CHAIN) flags them CHAIN as
 * well: an ENTER right after an untimed ENTER carries no delta either.
 * Stage 0 base of format/STAGES.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ttf_wire.h"
#include "ttfmt.h"

#define THREADS_MAX (1u << 20)  /* same caps as the reader: an index must */
#define THREAD_SLACK 1024u      /* be below threads created so far + this */
#define STR_CAP 4096            /* longest string the writer keeps */
#define DEFAULT_CHUNK (256u * 1024u)

struct wthread {
    uint8_t *buf;               /* chunk_size bytes: header + records */
    size_t used;                /* bytes filled (header included); 0 = closed */
    uint32_t seq;               /* sequence number of the open/next chunk */
    int has_base;               /* the open chunk's base tsc is fixed */
    uint64_t base;              /* chunk header tsc */
    uint64_t tsc;               /* running tsc in the open chunk */
    uint64_t last_tsc;          /* latest tsc written by this thread */
    uint64_t prev;              /* previous miss address in the open chunk */
    int64_t depth;              /* call depth now */
    int64_t chunk_depth;        /* call depth when the open chunk began */
    uint64_t cache[TTF_SLOTS];  /* function cache of the open chunk */
    uint64_t regs[TTF_ARGREGS]; /* registers of the chunk's last ENTER */
    uint64_t stride[TTF_ARGREGS]; /* how far each moved at that ENTER */
    uint64_t xregs[TTF_XMMREGS]; /* SSE registers of that ENTER (v1.5) */
    uint64_t xret;              /* xmm0 of the chunk's last EXIT (v1.5) */
    struct ttf_sites sites;     /* call sites of the open chunk (v1.2) */
    int ux;                     /* lazy: the last hot or timed record was an
                                   untimed EXIT (chain: or ENTER): the next
                                   ENTER has no time */
};

struct ttf_writer {
    int fd;                     /* the trace file */
    uint32_t chunk_size;        /* bytes per chunk */
    int timed;                  /* hot events carry time deltas */
    int ring;                   /* TTF_OPT_RING set */
    int values;                 /* TTF_REQ_VALUES: ENTER/EXIT carry values */
    int xmm;                    /* TTF_REQ_XMM: ... and SSE registers */
    int sparse;                 /* TTF_REQ_SPARSE: EXITs timed on request */
    int lazy;                   /* TTF_REQ_LAZY: ENTERs too (format 1.7) */
    int chain;                  /* TTF_REQ_CHAIN: after untimed ENTERs too (1.9) */
    int sync;                   /* TTF_OPT_SYNC set (a SYNC_OP was written) */
    int sites;                  /* TTF_REQ_SITES: ENTERs may carry call sites */
    int strings;                /* TTF_OPT_STRINGS: a STRINGS record was written */
    uint64_t hz;                /* tsc ticks per second */
    uint64_t start_real;        /* CLOCK_REALTIME at start (header) */
    unsigned chaos;             /* PROCESS: chaos mode bits, 0 = none */
    uint64_t chaos_seed;        /* and its seed */
    uint64_t cut_events;        /* header cut counters (ttf_write_cut) */
    uint32_t cut_threads, cut_reason;
    struct { uint32_t thread, reason; uint64_t lost; } cut[TTF_CUT_ENTRIES];
    struct wthread **th;        /* threads by index (NULL = not seen) */
    uint32_t nth;               /* entries in th */
    uint32_t created;           /* threads seen so far */
    uint64_t next_slot;         /* next free chunk slot */
    uint64_t now;               /* latest tsc seen on any thread */
    uint8_t *scratch;           /* payload of the extended record being built */
    int err;                    /* first I/O error, sticky */
};

static uint64_t tsc_to_ns(const ttf_writer *w, uint64_t tsc)
{
    if (w->hz == 1000000000u)
        return tsc;
    return (uint64_t)((unsigned __int128)tsc * 1000000000u / w->hz);
}

static int write_all(ttf_writer *w, const void *p, size_t n, uint64_t off)
{
    const uint8_t *b = p;
    while (n) {
        ssize_t k = pwrite(w->fd, b, n, (off_t)off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            w->err = TT_EIO;
            return TT_EIO;
        }
        b += k;
        n -= (size_t)k;
        off += (uint64_t)k;
    }
    return 0;
}

/* The cut counters and table into header h (as libttcap keeps them);
 * returns the header bytes to write. */
static size_t put_cutinfo(const ttf_writer *w, uint8_t *h)
{
    size_t n = w->cut_threads < TTF_CUT_ENTRIES ? w->cut_threads : TTF_CUT_ENTRIES;
    ttf_put_u32(h + TTF_H_OPT, (uint32_t)ttf_get_le(h + TTF_H_OPT, 4) | TTF_OPT_CUTINFO);
    ttf_put_u16(h + TTF_H_HSIZE, TTF_HEADER_SIZE_CUT);
    ttf_put_u64(h + TTF_H_CUTEV, w->cut_events);
    ttf_put_u32(h + TTF_H_CUTTHR, w->cut_threads);
    ttf_put_u32(h + TTF_H_CUTWHY, w->cut_reason);
    for (size_t i = 0; i < n; i++) {
        uint8_t *e = h + TTF_CUT_TABLE + i * TTF_CUT_ENTRY;
        ttf_put_u64(e + TTF_CUTE_LOST, w->cut[i].lost);
        ttf_put_u32(e + TTF_CUTE_REASON, w->cut[i].reason);
        ttf_put_u32(e + TTF_CUTE_THREAD, w->cut[i].thread + 1);
    }
    return TTF_CUT_TABLE + n * TTF_CUT_ENTRY;
}

static int write_header(ttf_writer *w, uint32_t flags, int32_t status)
{
    uint8_t h[TTF_CUT_TABLE + TTF_CUT_ENTRIES * TTF_CUT_ENTRY] = {0};
    size_t len = TTF_HEADER_SIZE;
    memcpy(h, TTF_MAGIC, TTF_MAGIC_LEN);
    ttf_put_header_req(h, TTF_REQ_EVENTS_V1 | (w->values ? TTF_REQ_VALUES : 0) |
                              (w->sites ? TTF_REQ_SITES : 0) |
                              (w->xmm ? TTF_REQ_XMM : 0) |
                              (w->sparse ? TTF_REQ_SPARSE : 0) |
                              (w->lazy ? TTF_REQ_LAZY : 0) |
                              (w->lazy && w->values ? TTF_REQ_VLAZY : 0) |
                              (w->chain ? TTF_REQ_CHAIN : 0),
                       (w->ring ? TTF_OPT_RING : 0) |
                       (w->timed ? 0 : TTF_OPT_NOCLOCK) |
                       (w->sync ? TTF_OPT_SYNC : 0) |
                       (w->strings ? TTF_OPT_STRINGS : 0),
                       w->chunk_size, w->hz, w->start_real);
    ttf_put_u32(h + TTF_H_FLAGS, flags);
    ttf_put_u32(h + TTF_H_EXIT, (uint32_t)status);
    if (w->cut_threads)
        len = put_cutinfo(w, h);
    return write_all(w, h, len, 0);
}

int ttf_writer_open(const char *path, const ttf_writer_opts *opts,
                    ttf_writer **out)
{
    ttf_writer_opts o = {0};
    ttf_writer *w;
    static const uint8_t zero[TTF_DATA_OFFSET];

    if (!out)
        return TT_EINVAL;
    *out = NULL;
    if (!path)
        return TT_EINVAL;
    if (opts)
        o = *opts;
    else
        o.timed = 1;
    if (!o.chunk_size)
        o.chunk_size = DEFAULT_CHUNK;
    if (o.chunk_size < TTF_CHUNK_MIN || o.chunk_size > TTF_CHUNK_MAX ||
        (o.chunk_size & (o.chunk_size - 1)))
        return TT_EINVAL;
    w = calloc(1, sizeof *w);
    if (!w)
        return TT_ENOMEM;
    w->scratch = malloc(o.chunk_size);
    if (!w->scratch) {
        free(w);
        return TT_ENOMEM;
    }
    w->chunk_size = o.chunk_size;
    w->timed = o.timed != 0;
    w->ring = o.ring != 0;
    w->values = o.values != 0;
    w->xmm = w->values && o.xmm != 0;
    w->sites = o.sites != 0;
    w->sparse = w->timed && o.sparse != 0;
    w->lazy = w->sparse && o.lazy != 0;  /* with values: format 1.8 */
    w->chain = w->lazy && o.chain != 0;  /* format 1.9 */
    w->hz = o.tsc_hz ? o.tsc_hz : 1000000000u;
    w->start_real = o.start_realtime_ns;
    w->chaos = o.chaos;
    w->chaos_seed = o.chaos ? o.chaos_seed : 0;
    w->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (w->fd < 0 || write_all(w, zero, sizeof zero, 0) ||
        write_header(w, 0, 0)) {
        if (w->fd >= 0) {
            close(w->fd);
            unlink(path);
        }
        free(w->scratch);
        free(w);
        return TT_EIO;
    }
    *out = w;
    return 0;
}

static int bad_index(const ttf_writer *w, uint32_t thread)
{
    if (thread < w->nth && w->th[thread])
        return 0;
    return thread >= THREADS_MAX || thread >= w->created + THREAD_SLACK;
}

static struct wthread *get_thread(ttf_writer *w, uint32_t thread)
{
    if (bad_index(w, thread))
        return NULL;
    if (thread >= w->nth) {
        uint32_t n = w->nth ? w->nth : 8;
        while (n <= thread)
            n *= 2;
        struct wthread **a = realloc(w->th, n * sizeof *a);
        if (!a)
            return NULL;
        memset(a + w->nth, 0, (n - w->nth) * sizeof *a);
        w->th = a;
        w->nth = n;
    }
    if (!w->th[thread]) {
        struct wthread *t = calloc(1, sizeof *t);
        if (!t || !(t->buf = malloc(w->chunk_size))) {
            free(t);
            return NULL;
        }
        w->th[thread] = t;
        w->created++;
    }
    return w->th[thread];
}

static void open_chunk(struct wthread *t)
{
    t->used = TTF_CHUNK_HDR;
    t->has_base = 0;
    t->base = t->last_tsc;
    t->tsc = t->last_tsc;
    t->prev = 0;
    t->chunk_depth = t->depth;
    t->ux = 0;
    memset(t->cache, 0, sizeof t->cache);
    memset(t->regs, 0, sizeof t->regs);
    memset(t->stride, 0, sizeof t->stride);
    memset(t->xregs, 0, sizeof t->xregs);
    t->xret = 0;
    memset(&t->sites, 0, sizeof t->sites);
}

static int flush_chunk(ttf_writer *w, uint32_t index, struct wthread *t)
{
    uint8_t *h = t->buf;
    uint64_t mono = tsc_to_ns(w, t->base);

    if (!t->used)
        return 0;
    memset(h, 0, TTF_CHUNK_HDR);
    ttf_put_u32(h, TTF_CHUNK_MAGIC);
    ttf_put_u32(h + TTF_C_THREAD, index);
    ttf_put_u32(h + TTF_C_SEQ, t->seq);
    ttf_put_u16(h + TTF_C_FLAGS, (w->timed ? TTF_CHUNK_TIMED : 0) |
                                 (w->values ? TTF_CHUNK_VALUES : 0) |
                                 (w->xmm ? TTF_CHUNK_XMM : 0) |
                                 (w->sparse ? TTF_CHUNK_SPARSE : 0) |
                                 (w->lazy ? TTF_CHUNK_LAZY : 0) |
                                 (w->chain ? TTF_CHUNK_CHAIN : 0));
    ttf_put_u16(h + TTF_C_HSIZE, TTF_CHUNK_HDR);
    ttf_put_u32(h + TTF_C_DEPTH, (uint32_t)(int32_t)t->chunk_depth);
    ttf_put_u64(h + TTF_C_TSC, t->base);
    ttf_put_u64(h + TTF_C_MONO, mono);
    ttf_put_u64(h + TTF_C_REAL, w->start_real ? w->start_real + mono : 0);
    memset(h + t->used, 0, w->chunk_size - t->used);
    uint64_t off = TTF_DATA_OFFSET + w->next_slot++ * (uint64_t)w->chunk_size;
    t->used = 0;
    t->seq++;
    return write_all(w, h, w->chunk_size, off);
}

/* Fix the chunk base on the first timed record; the delta to tsc (0 if
 * time went backwards). Does not commit. */
static uint64_t delta_for(const struct wthread *t, uint64_t tsc)
{
    if (!t->has_base)
        return 0;
    return tsc > t->tsc ? tsc - t->tsc : 0;
}

static void commit_time(ttf_writer *w, struct wthread *t, uint64_t tsc)
{
    t->ux = 0;
    if (!t->has_base) {
        t->has_base = 1;
        t->base = tsc;
        t->tsc = tsc;
    }
    if (tsc > t->tsc)
        t->tsc = tsc;
    if (t->tsc > t->last_tsc)
        t->last_tsc = t->tsc;
    if (t->tsc > w->now)
        w->now = t->tsc;
}

/* An ENTER or EXIT: exit 0 with regs (ENTER values), 1 with ret (EXIT). */
struct hot {
    uint64_t addr;              /* function address */
    int exit;                   /* 1: EXIT */
    const uint64_t *regs;       /* ENTER: argument registers (values mode) */
    uint64_t ret;               /* EXIT: return value (values mode) */
    uint64_t site;              /* ENTER: call site (0 = not recorded) */
    const uint64_t *xmm;        /* ENTER: xmm0..7, EXIT: xmm0 (xmm mode) */
    int clock;                  /* EXIT in a sparse writer: TTF_EXIT_* */
    int untimed;                /* ENTER in a lazy writer: no time */
};

/* Does h carry a time delta? Every hot record of a timed writer, but in a
 * sparse one (format 1.4) an EXIT only when TIMED or SAMPLE. */
static int hot_timed(const ttf_writer *w, const struct hot *h)
{
    return w->timed && !(w->sparse && h->exit && h->clock == TTF_EXIT_UNTIMED) &&
           !(!h->exit && h->untimed);
}

/* Encode h against t's open chunk into tmp; returns the bytes used, *pre
 * those of a call-site prefix (the ENTER or EXIT record starts there). */
static size_t encode_hot(const ttf_writer *w, const struct wthread *t,
                         const struct hot *h, uint64_t tsc, uint8_t *tmp,
                         size_t *pre)
{
    unsigned slot = TTF_SLOT(h->addr);
    uint8_t *p = tmp, ptag = 0;

    if (!h->exit)
        p = ttf_put_site_prefix(p, &t->sites, h->addr, h->site, &ptag);
    if (p != tmp)
        tmp[0] = ptag;
    if (w->sparse && h->exit && h->clock != TTF_EXIT_UNTIMED)
        *p++ = h->clock == TTF_EXIT_SAMPLE ? TTF_T_SAMPLE : TTF_T_TIMED;
    *pre = (size_t)(p - tmp);
    if (t->cache[slot] == h->addr) {
        *p++ = (uint8_t)((h->exit ? TTF_T_EXIT_HIT : TTF_T_ENTER_HIT) | slot);
    } else {
        *p++ = h->exit ? TTF_T_EXIT_MISS : TTF_T_ENTER_MISS;
        p = ttf_put_svar(p, (int64_t)(h->addr - t->prev));
    }
    if (hot_timed(w, h))
        p = ttf_put_uvar(p, delta_for(t, tsc));
    uint64_t xs[TTF_XMMREGS], xr = t->xret;    /* moved on at the commit */
    uint8_t *mask = p;
    if (w->values && h->exit)
        p = ttf_put_exit_value(p, h->ret);
    else if (w->values)
        p = ttf_put_enter_values(p, h->regs, t->regs, t->stride);
    memcpy(xs, t->xregs, sizeof xs);
    if (w->xmm && h->exit)
        p = ttf_put_exit_xmm(p, h->xmm[0], &xr);
    else if (w->xmm)
        p = ttf_put_enter_xmm_step(p, mask, h->xmm, xs);
    return (size_t)(p - tmp);
}

static int put_hot(ttf_writer *w, uint32_t thread, uint64_t tsc,
                   const struct hot *h)
{
    static const uint64_t zeros[TTF_XMMREGS];
    struct hot hv = *h;
    struct wthread *t;

    if (w->err)
        return w->err;
    if (!(t = get_thread(w, thread)))
        return bad_index(w, thread) ? TT_EINVAL : TT_ENOMEM;
    if (!hv.regs)
        hv.regs = zeros;
    if (!hv.xmm)
        hv.xmm = zeros;
    for (;;) {
        uint8_t tmp[3 + 3 * TTF_UVAR_MAX + TTF_ENTER_VALUES_MAX + TTF_ENTER_XMM_MAX];
        size_t pre;
        if (!t->used)
            open_chunk(t);
        hv.untimed = w->lazy && !hv.exit && t->ux;  /* FORMAT.md 4.7 */
        size_t n = encode_hot(w, t, &hv, tsc, tmp, &pre);
        if (t->used + n <= w->chunk_size) {
            memcpy(t->buf + t->used, tmp, n);
            t->used += n;
            unsigned slot = TTF_SLOT(hv.addr);
            if (tmp[pre] < TTF_T_ENTER_HIT)
                t->prev = hv.addr;
            t->cache[slot] = hv.addr;
            if (!hv.exit)
                ttf_site_advance(&t->sites, hv.addr, hv.site);
            if (hot_timed(w, &hv))
                commit_time(w, t, tsc);
            t->ux = w->lazy && (hv.exit || w->chain) && !hot_timed(w, &hv);
            if (w->values && !hv.exit)
                ttf_values_advance(hv.regs, t->regs, t->stride);
            if (w->xmm && !hv.exit)
                memcpy(t->xregs, hv.xmm, sizeof t->xregs);
            else if (w->xmm)
                t->xret = hv.xmm[0];
            t->depth += hv.exit ? -1 : 1;
            return 0;
        }
        int r = flush_chunk(w, thread, t);
        if (r)
            return r;
    }
}

int ttf_write_enter(ttf_writer *w, uint32_t thread, uint64_t tsc,
                    uint64_t addr)
{
    struct hot h = {addr, 0, NULL, 0, 0, NULL, 0, 0};
    return w ? put_hot(w, thread, tsc, &h) : TT_EINVAL;
}

int ttf_write_enter_site(ttf_writer *w, uint32_t thread, uint64_t tsc,
                         uint64_t addr, uint64_t call_site)
{
    struct hot h = {addr, 0, NULL, 0, call_site, NULL, 0, 0};
    if (!w)
        return TT_EINVAL;
    w->sites |= call_site != 0;
    return put_hot(w, thread, tsc, &h);
}

int ttf_write_enter_values_site(ttf_writer *w, uint32_t thread, uint64_t tsc,
                                uint64_t addr, uint64_t call_site,
                                const uint64_t regs[TTF_VALUE_REGS])
{
    struct hot h = {addr, 0, regs, 0, call_site, NULL, 0, 0};
    if (!w || !w->values || !regs)
        return TT_EINVAL;
    w->sites |= call_site != 0;
    return put_hot(w, thread, tsc, &h);
}

int ttf_write_exit(ttf_writer *w, uint32_t thread, uint64_t tsc,
                   uint64_t addr)
{
    struct hot h = {addr, 1, NULL, 0, 0, NULL, TTF_EXIT_TIMED, 0};
    return w ? put_hot(w, thread, tsc, &h) : TT_EINVAL;
}

int ttf_write_exit_sparse(ttf_writer *w, uint32_t thread, uint64_t tsc,
                          uint64_t addr, int clock)
{
    struct hot h = {addr, 1, NULL, 0, 0, NULL, clock, 0};
    if (!w || !w->sparse || clock < TTF_EXIT_UNTIMED || clock > TTF_EXIT_SAMPLE)
        return TT_EINVAL;
    return put_hot(w, thread, tsc, &h);
}

int ttf_write_enter_values(ttf_writer *w, uint32_t thread, uint64_t tsc,
                           uint64_t addr, const uint64_t regs[TTF_VALUE_REGS])
{
    struct hot h = {addr, 0, regs, 0, 0, NULL, 0, 0};
    if (!w || !w->values || !regs)
        return TT_EINVAL;
    return put_hot(w, thread, tsc, &h);
}

int ttf_write_exit_value(ttf_writer *w, uint32_t thread, uint64_t tsc,
                         uint64_t addr, uint64_t retval)
{
    struct hot h = {addr, 1, NULL, retval, 0, NULL, TTF_EXIT_TIMED, 0};
    if (!w || !w->values)
        return TT_EINVAL;
    return put_hot(w, thread, tsc, &h);
}

int ttf_write_exit_value_sparse(ttf_writer *w, uint32_t thread, uint64_t tsc,
                                uint64_t addr, uint64_t retval, int clock)
{
    struct hot h = {addr, 1, NULL, retval, 0, NULL, clock, 0};
    if (!w || !w->values || !w->sparse || clock < TTF_EXIT_UNTIMED ||
        clock > TTF_EXIT_SAMPLE)
        return TT_EINVAL;
    return put_hot(w, thread, tsc, &h);
}

int ttf_write_enter_xmm(ttf_writer *w, uint32_t thread, uint64_t tsc,
                        uint64_t addr, const uint64_t regs[TTF_VALUE_REGS],
                        const uint64_t xmm[TTF_XMM_REGS])
{
    struct hot h = {addr, 0, regs, 0, 0, xmm, 0, 0};
    if (!w || !w->xmm || !regs || !xmm)
        return TT_EINVAL;
    return put_hot(w, thread, tsc, &h);
}

int ttf_write_exit_xmm(ttf_writer *w, uint32_t thread, uint64_t tsc,
                       uint64_t addr, uint64_t retval, uint64_t xmm0)
{
    struct hot h = {addr, 1, NULL, retval, 0, &xmm0, TTF_EXIT_TIMED, 0};
    if (!w || !w->xmm)
        return TT_EINVAL;
    return put_hot(w, thread, tsc, &h);
}

/* ---- extended records: payload built in w->scratch, then placed -------- */

struct payload {
    uint8_t *p;                 /* next byte in scratch */
    uint8_t *end;               /* end of scratch, minus room for one item */
    int overflow;               /* did not fit a chunk */
};

static void pl_init(ttf_writer *w, struct payload *pl)
{
    pl->p = w->scratch;
    pl->end = w->scratch + w->chunk_size;
    pl->overflow = 0;
}

static void pl_uvar(struct payload *pl, uint64_t v)
{
    if (pl->end - pl->p < TTF_UVAR_MAX) {
        pl->overflow = 1;
        return;
    }
    pl->p = ttf_put_uvar(pl->p, v);
}

static void pl_svar(struct payload *pl, int64_t v)
{
    pl_uvar(pl, ttf_zigzag(v));
}

static void pl_bytes(struct payload *pl, const void *b, size_t n)
{
    if ((size_t)(pl->end - pl->p) < n) {
        pl->overflow = 1;
        return;
    }
    if (n)
        memcpy(pl->p, b, n);
    pl->p += n;
}

static void pl_str(struct payload *pl, const char *s)
{
    size_t n = s ? strnlen(s, STR_CAP) : 0;
    pl_uvar(pl, n);
    pl_bytes(pl, s, n);
}

/* Place tag + uvar length + [uvar tdelta] + body in thread's chunk. */
static int put_ext(ttf_writer *w, uint32_t thread, unsigned tag, int timed,
                   uint64_t tsc, const struct payload *pl)
{
    struct wthread *t;
    size_t body = (size_t)(pl->p - w->scratch);

    if (w->err)
        return w->err;
    if (pl->overflow)
        return TT_EINVAL;
    if (!(t = get_thread(w, thread)))
        return bad_index(w, thread) ? TT_EINVAL : TT_ENOMEM;
    for (int tries = 0; tries < 2; tries++) {
        uint8_t head[1 + 2 * TTF_UVAR_MAX], dt[TTF_UVAR_MAX];
        if (!t->used)
            open_chunk(t);
        size_t ndt = timed ? (size_t)(ttf_put_uvar(dt, delta_for(t, tsc)) - dt) : 0;
        head[0] = (uint8_t)tag;
        size_t nh = (size_t)(ttf_put_uvar(head + 1, ndt + body) - head);
        size_t n = nh + ndt + body;
        if (t->used + n <= w->chunk_size) {
            uint8_t *q = t->buf + t->used;
            memcpy(q, head, nh);
            memcpy(q + nh, dt, ndt);
            memcpy(q + nh + ndt, w->scratch, body);
            t->used += n;
            if (timed)
                commit_time(w, t, tsc);
            return 0;
        }
        if (t->used == TTF_CHUNK_HDR)
            break;              /* does not fit even an empty chunk */
        int r = flush_chunk(w, thread, t);
        if (r)
            return r;
    }
    return TT_EINVAL;
}

#define ENTER_ROOM 256          /* the longest ENTER a STRINGS record may be
                                   followed by (site prefix, values, xmm) */

int ttf_write_strings(ttf_writer *w, uint32_t thread, const ttf_string *s, size_t n)
{
    struct payload pl;
    struct wthread *t;
    unsigned seen = 0;
    if (!w || !w->values || n > TTF_ARGREGS || (n && !s))
        return TT_EINVAL;
    pl_init(w, &pl);
    uint8_t cnt = (uint8_t)n;
    pl_bytes(&pl, &cnt, 1);
    for (size_t i = 0; i < n; i++) {
        const ttf_string *e = &s[i];
        if (e->reg >= TTF_ARGREGS || (seen & (1u << e->reg)) || e->len > TTF_STRG_LEN ||
            (e->len && !e->text) || (e->complete && e->unreadable))
            return TT_EINVAL;
        seen |= 1u << e->reg;
        uint8_t hd[2] = {(uint8_t)(e->reg | (e->std ? TTF_STRW_STD : 0)),
                         (uint8_t)(e->len | (e->complete ? TTF_STRG_END : 0) |
                                   (e->unreadable ? TTF_STRG_FAULT : 0))};
        pl_bytes(&pl, hd, 2);
        pl_bytes(&pl, e->text, e->len);
    }
    if (!(t = get_thread(w, thread)))
        return bad_index(w, thread) ? TT_EINVAL : TT_ENOMEM;
    size_t need = 1 + 2 + (size_t)(pl.p - w->scratch) + ENTER_ROOM;
    if (t->used > TTF_CHUNK_HDR && t->used + need > w->chunk_size) {
        int r = flush_chunk(w, thread, t);  /* the ENTER must be in its chunk */
        if (r)
            return r;
    }
    w->strings = 1;
    return put_ext(w, thread, TTF_R_STRINGS, 0, 0, &pl);
}

int ttf_write_process(ttf_writer *w, int64_t pid, int64_t ppid,
                      const char *exe, int argc, const char *const *argv,
                      const char *parent_trace)
{
    struct payload pl;
    if (!w || argc < 0 || (argc && !argv))
        return TT_EINVAL;
    pl_init(w, &pl);
    pl_uvar(&pl, (uint64_t)pid);
    pl_uvar(&pl, (uint64_t)ppid);
    pl_uvar(&pl, w->start_real);
    pl_uvar(&pl, w->hz);
    pl_str(&pl, exe);
    pl_uvar(&pl, (uint64_t)argc);
    for (int i = 0; i < argc; i++)
        pl_str(&pl, argv[i]);
    pl_str(&pl, parent_trace);
    if (w->chaos) {
        pl_uvar(&pl, w->chaos);
        pl_uvar(&pl, w->chaos_seed);
    }
    return put_ext(w, 0, TTF_R_PROCESS, 0, 0, &pl);
}

int ttf_write_thread_start(ttf_writer *w, uint32_t thread, uint64_t tsc,
                           int64_t tid, const char *name)
{
    struct payload pl;
    if (!w)
        return TT_EINVAL;
    pl_init(w, &pl);
    pl_uvar(&pl, (uint64_t)tid);
    pl_str(&pl, name);
    return put_ext(w, thread, TTF_R_THREAD_START, 1, tsc, &pl);
}

int ttf_write_thread_name(ttf_writer *w, uint32_t thread, uint64_t tsc,
                          const char *name)
{
    struct payload pl;
    if (!w)
        return TT_EINVAL;
    pl_init(w, &pl);
    pl_str(&pl, name);
    return put_ext(w, thread, TTF_R_THREAD_NAME, 1, tsc, &pl);
}

int ttf_write_thread_end(ttf_writer *w, uint32_t thread, uint64_t tsc)
{
    struct payload pl;
    if (!w)
        return TT_EINVAL;
    pl_init(w, &pl);
    return put_ext(w, thread, TTF_R_THREAD_END, 1, tsc, &pl);
}

int ttf_write_module(ttf_writer *w, uint32_t thread, uint64_t tsc,
                     uint64_t base, uint64_t size, const uint8_t *build_id,
                     size_t build_id_len, const char *path)
{
    struct payload pl;
    if (!w || (build_id_len && !build_id) || build_id_len > STR_CAP)
        return TT_EINVAL;
    pl_init(w, &pl);
    pl_uvar(&pl, base);
    pl_uvar(&pl, size);
    pl_uvar(&pl, build_id_len);
    pl_bytes(&pl, build_id, build_id_len);
    pl_str(&pl, path);
    return put_ext(w, thread, TTF_R_MODULE_LOAD, 1, tsc, &pl);
}

int ttf_write_module_unload(ttf_writer *w, uint32_t thread, uint64_t tsc,
                            uint64_t base)
{
    struct payload pl;
    if (!w)
        return TT_EINVAL;
    pl_init(w, &pl);
    pl_uvar(&pl, base);
    return put_ext(w, thread, TTF_R_MODULE_UNLOAD, 1, tsc, &pl);
}

int ttf_write_callsite(ttf_writer *w, uint32_t thread,
                       const ttf_callsite *site)
{
    struct payload pl;
    if (!w || !site || site->nargs > 255 || (site->nargs && !site->types) ||
        site->kind < 0 || site->kind > 255)
        return TT_EINVAL;
    pl_init(w, &pl);
    pl_uvar(&pl, site->id);
    uint8_t kind = (uint8_t)site->kind;
    pl_bytes(&pl, &kind, 1);
    pl_svar(&pl, site->level);
    pl_uvar(&pl, site->line);
    pl_uvar(&pl, site->nargs);
    pl_bytes(&pl, site->types, site->nargs);
    pl_str(&pl, site->fmt);
    pl_str(&pl, site->file);
    pl_str(&pl, site->func);
    return put_ext(w, thread, TTF_R_CALLSITE, 0, 0, &pl);
}

int ttf_write_message(ttf_writer *w, uint32_t thread, uint64_t tsc,
                      uint32_t site, const void *args, size_t args_len)
{
    struct payload pl;
    if (!w || (args_len && !args))
        return TT_EINVAL;
    pl_init(w, &pl);
    pl_uvar(&pl, site);
    pl_bytes(&pl, args, args_len);
    return put_ext(w, thread, TTF_R_MESSAGE, 1, tsc, &pl);
}

int ttf_write_mark(ttf_writer *w, uint32_t thread, uint64_t tsc,
                   uint32_t site)
{
    return ttf_write_message(w, thread, tsc, site, NULL, 0);
}

int ttf_write_scope(ttf_writer *w, uint32_t thread, uint64_t tsc,
                    uint32_t site, int enter)
{
    struct payload pl;
    if (!w)
        return TT_EINVAL;
    pl_init(w, &pl);
    pl_uvar(&pl, site);
    int r = put_ext(w, thread, enter ? TTF_R_SCOPE_ENTER : TTF_R_SCOPE_EXIT,
                    1, tsc, &pl);
    if (!r)
        w->th[thread]->depth += enter ? 1 : -1;
    return r;
}

int ttf_write_crash(ttf_writer *w, uint32_t thread, uint64_t tsc, int signo,
                    int code, uint64_t fault_addr)
{
    struct payload pl;
    if (!w || signo < 0)
        return TT_EINVAL;
    pl_init(w, &pl);
    pl_uvar(&pl, (uint64_t)signo);
    pl_svar(&pl, code);
    pl_uvar(&pl, fault_addr);
    return put_ext(w, thread, TTF_R_CRASH, 1, tsc, &pl);
}

int ttf_write_lost(ttf_writer *w, uint32_t thread, uint64_t tsc,
                   uint64_t events, uint64_t bytes)
{
    struct payload pl;
    uint8_t reason = TTF_LOST_UNSPEC;
    if (!w)
        return TT_EINVAL;
    pl_init(w, &pl);
    pl_uvar(&pl, events);
    pl_uvar(&pl, bytes);
    pl_bytes(&pl, &reason, 1);
    return put_ext(w, thread, TTF_R_LOST, 1, tsc, &pl);
}

int ttf_write_cut(ttf_writer *w, uint32_t thread, uint64_t tsc, int reason,
                  uint64_t unwritten)
{
    struct payload pl;
    uint8_t u8 = (uint8_t)reason;
    if (!w || reason < 0 || reason > 255)
        return TT_EINVAL;
    pl_init(w, &pl);
    pl_bytes(&pl, &u8, 1);
    if (w->cut_threads < TTF_CUT_ENTRIES) {
        w->cut[w->cut_threads].thread = thread;
        w->cut[w->cut_threads].reason = (uint32_t)reason;
        w->cut[w->cut_threads].lost = unwritten;
    }
    if (w->cut_threads++ == 0)
        w->cut_reason = (uint32_t)reason;
    w->cut_events += unwritten;
    return put_ext(w, thread, TTF_R_CUT, 1, tsc, &pl);
}

int ttf_write_pause(ttf_writer *w, uint32_t thread, uint64_t tsc, int pause)
{
    struct payload pl;
    if (!w)
        return TT_EINVAL;
    pl_init(w, &pl);
    return put_ext(w, thread, pause ? TTF_R_PAUSE : TTF_R_RESUME, 1, tsc, &pl);
}

int ttf_write_unwind(ttf_writer *w, uint32_t thread, uint64_t tsc, int how,
                     uint32_t frames)
{
    struct payload pl;
    uint8_t u8 = (uint8_t)how;
    if (!w || how < 0 || how > 255)
        return TT_EINVAL;
    pl_init(w, &pl);
    pl_bytes(&pl, &u8, 1);
    pl_uvar(&pl, frames);
    int r = put_ext(w, thread, TTF_R_UNWIND, 1, tsc, &pl);
    if (!r)
        w->th[thread]->depth -= frames;
    return r;
}

int ttf_write_sync_op(ttf_writer *w, uint32_t thread, uint64_t tsc, int op,
                      uint64_t obj, int64_t arg)
{
    struct payload pl;
    uint8_t u8 = (uint8_t)op;
    if (!w || op < 1 || op > 255)
        return TT_EINVAL;
    pl_init(w, &pl);
    pl_bytes(&pl, &u8, 1);
    pl_uvar(&pl, obj);
    pl_svar(&pl, arg);
    w->sync = 1;
    return put_ext(w, thread, TTF_R_SYNC_OP, 1, tsc, &pl);
}

static int finish(ttf_writer *w, int closed, uint32_t thread, int exit_status)
{
    int r = w->err;

    if (closed && !r) {
        struct payload pl;
        pl_init(w, &pl);
        pl_svar(&pl, exit_status);
        r = put_ext(w, thread, TTF_R_END, 1, w->now, &pl);
    }
    for (uint32_t i = 0; i < w->nth; i++) {
        if (!w->th[i])
            continue;
        if (!r)
            r = flush_chunk(w, i, w->th[i]);
        free(w->th[i]->buf);
        free(w->th[i]);
    }
    if (!r && (closed || w->sync || w->sites))
        r = write_header(w, closed ? TTF_FLAG_CLOSED : 0, closed ? exit_status : 0);
    if (close(w->fd) && !r)
        r = TT_EIO;
    free(w->th);
    free(w->scratch);
    free(w);
    return r;
}

int ttf_writer_close(ttf_writer *w, int exit_status)
{
    return w ? finish(w, 1, 0, exit_status) : TT_EINVAL;
}

int ttf_writer_close_in(ttf_writer *w, uint32_t thread, int exit_status)
{
    return w ? finish(w, 1, thread, exit_status) : TT_EINVAL;
}

int ttf_writer_abandon(ttf_writer *w)
{
    return w ? finish(w, 0, 0, 0) : TT_EINVAL;
}
