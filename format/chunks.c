/*
 * chunks.c - the chunk index: every chunk slot's header looked at once
 * (magic, size, owner, flags), the valid ones sorted by (thread, seq) with
 * repeats dropped, and the thread table they make. A bad chunk header is
 * counted and noted, never fatal.
 * Stage 2 index of format/STAGES (its header: read_int.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "read_int.h"

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
    /* a file its writer cut inside its last slot at a clean end (the
     * header's end_offset) ends there by design, not by damage */
    c.end_is_eof = avail < t->hdr.chunk_size && t->hdr.end_offset != t->len;
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
    if ((f[3] & TTF_CHUNK_XMM) && (!(f[3] & TTF_CHUNK_VALUES) ||
                                   !(t->hdr.required_features & TTF_REQ_XMM))) {
        CORRUPT(&c, "chunk carries SSE registers but %s",
                f[3] & TTF_CHUNK_VALUES ? "the header lacks the xmm feature"
                                        : "no values");
        goto bad;
    }
    /* lazy with values: format 1.8 only (TTF_REQ_VLAZY) */
    int vlazy_bad = (f[3] & TTF_CHUNK_VALUES) && !(t->hdr.required_features & TTF_REQ_VLAZY);
    if ((f[3] & TTF_CHUNK_LAZY) && (!(t->hdr.required_features & TTF_REQ_LAZY) || vlazy_bad ||
                                    !(f[3] & TTF_CHUNK_SPARSE) || !(f[3] & TTF_CHUNK_TIMED))) {
        CORRUPT(&c, "chunk is lazy but %s",
                !(t->hdr.required_features & TTF_REQ_LAZY) ? "the header lacks the lazy feature"
                : vlazy_bad ? "carries values (the header lacks the lazy-values feature)"
                            : "not sparse");
        goto bad;
    }
    /* the chain rule: format 1.9 only (TTF_REQ_CHAIN), on a lazy chunk */
    if ((f[3] & TTF_CHUNK_CHAIN) && (!(t->hdr.required_features & TTF_REQ_CHAIN) ||
                                     !(f[3] & TTF_CHUNK_LAZY))) {
        CORRUPT(&c, "chunk is lazy-chain but %s",
                !(t->hdr.required_features & TTF_REQ_CHAIN) ? "the header lacks the lazy-chain feature"
                                                             : "not lazy");
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
    ttfi_note_problem(t, &pb, "; chunk skipped");
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
int ttfi_index_chunks(ttf_trace *t)
{
    size_t n = 0;
    /* Threads without a chunk below one with chunks: indexes are given in
     * creation order, so a thread that never traced, or was cut before its
     * first chunk, or whose chunks were all lost leaves a gap. The gaps
     * together may not pass what the file can account for (its damaged
     * slots, its cut table) plus THREAD_SLACK: a thread table, and every
     * report listing it, is bounded by the data present, not by an index
     * a chunk header claims. */
    uint64_t budget = THREAD_SLACK + t->sum.chunks_damaged + t->ncuts;
    uint64_t missing = 0;
    ttfi_sort_n(t->chunks, t->n_chunks, sizeof *t->chunks, chunk_cmp);
    for (size_t i = 0; i < t->n_chunks; i++) {
        struct chunk *ch = &t->chunks[i];
        if (n && t->chunks[n - 1].thread == ch->thread &&
            t->chunks[n - 1].seq == ch->seq) {
            t->sum.chunks_damaged++;
            ttfi_note(t, "%s: offset %llu: chunk repeats thread %u seq %u; skipped",
                 t->name, (unsigned long long)ch->off, ch->thread, ch->seq);
            continue;
        }
        uint64_t next = n ? (uint64_t)t->chunks[n - 1].thread + 1 : 0;
        if (ch->thread > next && ch->thread - next > budget - missing) {
            t->sum.chunks_damaged++;
            ttfi_note(t, "%s: offset %llu: chunk thread index %u out of range "
                      "(%llu threads missing before it, at most %llu); chunk skipped",
                      t->name, (unsigned long long)ch->off, ch->thread,
                      (unsigned long long)(missing + ch->thread - next),
                      (unsigned long long)budget);
            continue;
        }
        if (ch->thread > next)
            missing += ch->thread - next;
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

void ttfi_scan_slots(ttf_trace *t, int fd)
{
    uint64_t cs = t->hdr.chunk_size, d0 = t->hdr.data_offset, i = 0;
    off_t pos = (off_t)d0;

    /* A file's holes read as zeros, which are unused slots: only the slots
     * that overlap data are looked at (a 4 GiB sparse file holding 8 KiB
     * costs two slots, not a million page faults). Without fd, or where
     * the file system cannot say, every slot is data. */
    while (i < t->sum.chunks_total) {
        uint64_t end = t->sum.chunks_total;
        if (fd >= 0) {
            off_t data = lseek(fd, pos, SEEK_DATA);
            if (data < 0 && errno == ENXIO)
                break;          /* only a hole is left */
            off_t hole = data < 0 ? -1 : lseek(fd, data, SEEK_HOLE);
            if (data >= 0 && hole > data) {
                uint64_t first = ((uint64_t)data - d0) / cs;
                i = first > i ? first : i;
                end = ((uint64_t)hole - d0 + cs - 1) / cs;
                end = end < t->sum.chunks_total ? end : t->sum.chunks_total;
                pos = hole;
            }
        }
        for (; i < end; i++)
            scan_slot(t, i);
    }
}
