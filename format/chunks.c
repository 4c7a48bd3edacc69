/*
 * chunks.c - the chunk index: every chunk slot's header looked at once
 * (magic, size, owner, flags), the valid ones sorted by (thread, seq) with
 * repeats dropped, and the thread table they make. A bad chunk header is
 * counted and noted, never fatal.
 * Stage 2 index of format/STAGES (its header: read_int.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void ttfi_scan_slots(ttf_trace *t)
{
    for (uint64_t i = 0; i < t->sum.chunks_total; i++)
        scan_slot(t, i);
}
