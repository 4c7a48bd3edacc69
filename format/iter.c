/*
 * iter.c - the events of one thread, or of all merged by time: one
 * iteration per thread (decode.c, the hot path in line from read_int.h)
 * and, merged, a min-heap of each thread's next event (ties by index).
 * A one-thread iteration can be cloned (ttf_iter_clone): a second reader
 * that goes on from the same event, for passes that resume there. One that
 * skipped times gets them back exactly (ttf_iter_times) by reading its
 * chunk again from the chunk's start: a chunk's times are its own.
 * Stage 4 streams of format/STAGES (its header: read_int.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read_int.h"

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
        ttfi_titer_init(&it->one, t, thread, NULL);
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
        ttfi_titer_init(&it->subs[i], t, i, NULL);
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
    ev->has_values &= !it->novalues;    /* a head read before the skip */
    ev->has_xmm &= !it->novalues;
    struct titer *ti = &it->subs[top];
    if ((it->novalues ? titer_next_novalues(ti, &it->heads[top])
                      : titer_next(ti, &it->heads[top])) != 1)
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
    if (it->novalues)
        return titer_next_novalues(&it->one, ev);
    return titer_next(&it->one, ev);
}

int ttf_iter_skip_values(ttf_iter *it)
{
    if (!it)
        return TT_EINVAL;
    it->novalues = 1;
    it->one.d.skipv = 1;
    for (size_t i = 0; it->subs && i < it->t->nthreads; i++)
        it->subs[i].d.skipv = 1;
    return 0;
}

int ttf_iter_skip_times(ttf_iter *it)
{
    if (!it)
        return TT_EINVAL;
    it->one.d.notimes = 1;
    for (size_t i = 0; it->subs && i < it->t->nthreads; i++)
        it->subs[i].d.notimes = 1;
    return 0;
}

/* ttf_iter_times' reading: sh, a new iteration of ti's thread with times
 * and without values, decodes ti's chunk from its start to where ti is
 * (its cursor), so its decoder then holds every time state ti's would
 * have had; *x its last event. 1, or 0 when it does not get there. */
static int replay_chunk(const struct titer *ti, struct titer *sh, ttf_event *x)
{
    const ttf_trace *t = ti->d.t;
    const uint8_t *at = ti->d.c.p;
    int rc;

    ttfi_titer_init(sh, t, (size_t)(ti->th - t->threads), NULL);
    sh->k = ti->k - 1;          /* the chunk ti is in, begun again */
    sh->prev_seq = ti->k >= 2 ? t->chunks[ti->th->first + ti->k - 2].seq : 0;
    sh->d.skipv = 1;
    do
        rc = titer_next_novalues(sh, x);
    while (rc == 1 && sh->k == ti->k && sh->d.c.p != at);
    return rc == 1 && sh->k == ti->k && sh->d.c.p == at && sh->in_chunk;
}

int ttf_iter_times(ttf_iter *it, ttf_event *ev)
{
    if (!it || !ev || it->subs)
        return TT_EINVAL;
    struct titer *ti = &it->one;
    struct dec *d = &ti->d;
    if (!d->notimes)
        return 0;
    if (!ti->in_chunk) {        /* between chunks: no time state (a LOST
                                   event's time is the running one) */
        d->notimes = 0;
        return 0;
    }
    struct titer *sh = malloc(sizeof *sh);
    ttf_event x;
    if (!sh)
        return TT_ENOMEM;
    if (!replay_chunk(ti, sh, &x) || x.offset != ev->offset || x.kind != ev->kind) {
        free(sh);
        return TT_EINVAL;
    }
    ev->tsc = x.tsc;
    ev->time_ns = x.time_ns;
    ev->untimed = x.untimed;
    ev->early_ns = x.early_ns;
    if (x.untimed)              /* (a measured event's is not set) */
        ev->late_ns = x.late_ns;
    /* sh's decoder is ti's with times but without values: ti's values
       state, then the rest of sh's */
    memcpy(sh->d.regs, d->regs, sizeof d->regs);
    memcpy(sh->d.stride, d->stride, sizeof d->stride);
    memcpy(sh->d.xregs, d->xregs, sizeof d->xregs);
    sh->d.xret = d->xret;
    sh->d.skipv = d->skipv;
    *d = sh->d;
    d->c.pb = &d->pb;
    free(sh);
    return 0;
}

int ttf_iter_clone(const ttf_iter *it, ttf_iter **out)
{
    ttf_iter *c;

    if (!out)
        return TT_EINVAL;
    *out = NULL;
    if (!it || it->subs)
        return TT_EINVAL;       /* one thread's iteration only */
    if (!(c = malloc(sizeof *c)))
        return TT_ENOMEM;
    memcpy(c, it, sizeof *c);   /* the decoder's state is all values ... */
    c->one.d.c.pb = &c->one.d.pb; /* ... but its cursor's problem */
    *out = c;
    return 0;
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
