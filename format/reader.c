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
 * byte or two; a SYNC_OP too (sync_read: out of line in iteration,
 * ttfi_sync_fast, in line in the scan); anything
 * else (other records, values, long varints, the end of a chunk, damage)
 * goes to dec_next untouched, which stays the one decoder of all of it.
 * No allocation per event.
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
 *
 * The reader's files are stages (format/STAGES, checked by make
 * check-stages), bottom first, each using only those below it, all
 * sharing read_int.h:
 *
 *   1 trace: trace.c header.c
 *   2 index: chunks.c meta.c
 *   3 decode: decode.c untimed.c
 *   4 streams: threads.c iter.c
 *   5 open: reader.c
 *
 * trace.c the notices, arrays and clock; header.c the file header; chunks.c
 * the chunk index; meta.c process, modules, call sites; decode.c records to
 * events; untimed.c the times of untimed events (formats 1.4 and 1.7); threads.c the scan of each thread; iter.c the iteration; this
 * file opens, finishes the index and closes.
 * Stage 5 open of format/STAGES.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "read_int.h"

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

/* A file that ends inside a chunk slot was cut (both writers grow it by
 * whole chunks: it was copied or read while written, or cut in transfer).
 * Each thread that had not ended may have gone on past the end: its
 * stream is cut there (ttf_thread cut), so that what another run did
 * after that point is "the trace ends here", never the program's. The
 * thread that recorded the exit ended too. */
static void sum_truncation(ttf_trace *t)
{
    if ((t->len - t->hdr.data_offset) % t->hdr.chunk_size == 0 ||
        t->hdr.end_offset == t->len)
        return;                 /* whole slots, or where the writer ended it */
    t->sum.truncated_at = t->len;
    for (size_t i = 0; i < t->nthreads; i++) {
        ttf_thread *th = &t->threads[i].pub;
        if (!t->threads[i].n || th->cut || th->ended ||
            (t->proc.exited && t->proc.exit_thread == (int64_t)i))
            continue;
        th->cut = 1;
        t->sum.cut_threads++;
    }
}

/* CLOCK_MONOTONIC at time 0, from the earliest clock-sync point (a chunk
 * header's or a SYNC record's): that point's reading less its time. */
static void mono_origin(ttf_trace *t)
{
    struct syncpt first = {UINT64_MAX, 0};

    for (size_t i = 0; i < t->n_syncs; i++)
        if (t->syncs[i].tsc >= t->start_tsc && t->syncs[i].tsc < first.tsc)
            first = t->syncs[i];
    uint64_t at = first.tsc != UINT64_MAX ? to_ns(t, first.tsc) : 0;
    t->mono0 = first.tsc != UINT64_MAX && first.ns > at ? first.ns - at : 0;
}

/* Sort what the scan collected and convert its times. */
static void finish_index(ttf_trace *t)
{
    ttfi_finish_sites(t);
    ttfi_choose_hz(t);
    ttfi_finish_modules(t);
    ttfi_finish_threads(t);
    sum_cuts(t);
    sum_truncation(t);
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
    mono_origin(t);
    for (unsigned k = 0; k < 32; k++)
        if (t->skipped[k])
            ttfi_note(t, "%s: skipped %llu unknown optional record(s) with tag 0x%02x",
                 t->name, (unsigned long long)t->skipped[k],
                 k + TTF_R_OPTIONAL_FIRST);
    if (t->notes_dropped)
        ttfi_note(t, "%s: %llu more notices not shown", t->name,
             (unsigned long long)t->notes_dropped);
}

/* The reader's wording of an error: "FILE: offset N: what". */
static void fill_error(ttf_error *err, const char *name, int code,
                       uint64_t offset, const char *what)
{
    ttfi_set_err(err, code, offset, "%s: offset %llu: %s", name,
                 (unsigned long long)offset, what);
}

/* Takes ownership of t: on error it is closed. fd: the file (its holes are
 * not read), or -1. */
static int open_trace(ttf_trace *t, int fd, ttf_trace **out, ttf_error *err)
{
    struct ttfi_problem pb = {0};
    int r = ttfi_parse_header(t, &pb);

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
    ttfi_scan_slots(t, fd);
    if (!t->oom && ttfi_index_chunks(t) != 0)
        t->oom = 1;     /* the thread table could not be had */
    if (!t->oom) {
        ttfi_scan_threads(t);
        ttfi_untimed_finish(t);
    }
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
    ttfi_set_hz(t, NS);
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
    return open_trace(t, -1, out, err);
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
    int r = open_trace(t, fd, out, err);
    close(fd);
    return r;
}

void ttf_close(ttf_trace *t)
{
    if (!t)
        return;
    if (t->map)
        munmap(t->map, t->len);
    free(t->chunks);
    free(t->xr);
    free(t->gpr);
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

const ttf_summary *ttf_get_summary(const ttf_trace *t)
{
    return t ? &t->sum : NULL;
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

uint64_t ttf_tick_ns(const ttf_trace *t, uint64_t tsc)
{
    return to_ns(t, tsc);
}

uint64_t ttf_monotonic_ns(const ttf_trace *t, uint64_t time_ns)
{
    return t && t->mono0 ? t->mono0 + time_ns : 0;
}
