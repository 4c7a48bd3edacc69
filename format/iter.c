/*
 * iter.c - the events of one thread, or of all merged by time: one
 * iteration per thread (decode.c, the hot path in line from read_int.h)
 * and, merged, a min-heap of each thread's next event (ties by index).
 * A one-thread iteration can be cloned (ttf_iter_clone): a second reader
 * that goes on from the same event, for passes that resume there. One that
 * skipped times gets them back exactly (ttf_iter_times) by reading its
 * chunk again from the chunk's start: a chunk's times are its own; so
 * does an event it gave earlier, by its offset (ttf_iter_times_at), with
 * that reading kept, so that the later events of one chunk cost one read.
 * Values come back the same way (ttf_iter_values, ttf_iter_values_at): a
 * chunk's registers are its own too (FORMAT.md 4.1).
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

/* The chunk (its index among the thread's) of ti's thread holding file
 * offset off, among those ti has begun; SIZE_MAX: none. */
static size_t chunk_of(const struct titer *ti, uint64_t off)
{
    const struct chunk *c = &ti->d.t->chunks[ti->th->first];

    for (size_t k = ti->k; k-- > 0;)
        if (off >= c[k].off && off < c[k].end)
            return k;
    return SIZE_MAX;
}

/* The times' reading: sh, an iteration of ti's thread with times and
 * without values (with them: values), decodes chunk k from its start (or goes on from where
 * it stands in it, before off) up to the record at file offset off, so
 * its decoder then holds every time state ti's had there (a chunk's
 * times are its own); *x that event. 1, or 0 when it does not get there
 * (sh then stands nowhere). */
static int replay_to(const struct titer *ti, struct titer *sh, size_t k, uint64_t off,
                     ttf_event *x, int values, int notimes)
{
    const ttf_trace *t = ti->d.t;
    int rc;

    if (!sh->in_chunk || sh->th != ti->th || sh->k != k + 1 ||
        off < (uint64_t)(sh->d.c.p - sh->d.buf)) {
        ttfi_titer_init(sh, t, (size_t)(ti->th - t->threads), NULL);
        sh->k = k;              /* chunk k, begun again */
        sh->prev_seq = k ? t->chunks[ti->th->first + k - 1].seq : 0;
        sh->d.skipv = !values;
        sh->d.notimes = notimes;
    }
    do
        rc = values ? titer_next(sh, x) : titer_next_novalues(sh, x);
    while (rc == 1 && sh->k == k + 1 && x->offset < off);
    if (rc == 1 && sh->k == k + 1 && x->offset == off && sh->in_chunk)
        return 1;
    sh->in_chunk = 0;
    return 0;
}

/* x's times into ev. */
static void take_times(ttf_event *ev, const ttf_event *x)
{
    ev->tsc = x->tsc;
    ev->time_ns = x->time_ns;
    ev->untimed = x->untimed;
    ev->early_ns = x->early_ns;
    if (x->untimed)             /* (a measured event's is not set) */
        ev->late_ns = x->late_ns;
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
    sh->in_chunk = 0;
    if (!replay_to(ti, sh, ti->k - 1, ev->offset, &x, 0, 0) || sh->d.c.p != d->c.p ||
        x.kind != ev->kind) {
        free(sh);
        return TT_EINVAL;
    }
    take_times(ev, &x);
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

int ttf_iter_times_at(ttf_iter *it, ttf_event *ev)
{
    if (!it || !ev || it->subs)
        return TT_EINVAL;
    size_t k = chunk_of(&it->one, ev->offset);
    ttf_event x;
    if (k == SIZE_MAX)
        return TT_EINVAL;
    if (!it->at && !(it->at = calloc(1, sizeof *it->at)))
        return TT_ENOMEM;
    it->at->d.c.pb = &it->at->d.pb;
    if (!replay_to(&it->one, it->at, k, ev->offset, &x, 0, 0) || x.kind != ev->kind)
        return TT_EINVAL;
    take_times(ev, &x);
    return 0;
}

/* x's values into ev. */
static void take_values(ttf_event *ev, const ttf_event *x)
{
    ev->has_values = x->has_values;
    ev->has_xmm = x->has_xmm;
    memcpy(ev->argregs, x->argregs, sizeof ev->argregs);
    ev->retval = x->retval;
    if (x->has_xmm)
        ev->retxmm = x->retxmm;
    ev->strs = x->strs;
    ev->strs_len = x->strs_len;
}

/* The values' reading of ev (an event of ti's thread in a chunk begun)
 * by *sh (times skipped: notimes), which goes on from where it stands
 * when it can; x: ev with its values. 1, or 0 (no such event). */
static int values_read(const struct titer *ti, struct titer *sh, const ttf_event *ev,
                       ttf_event *x, int notimes)
{
    size_t k = chunk_of(ti, ev->offset);

    if (k == SIZE_MAX)
        return 0;
    memset(x, 0, sizeof *x);
    sh->d.c.pb = &sh->d.pb;
    return replay_to(ti, sh, k, ev->offset, x, 1, notimes) && x->kind == ev->kind;
}

int ttf_iter_values(ttf_iter *it, ttf_event *ev)
{
    if (!it || !ev || it->subs)
        return TT_EINVAL;
    struct titer *ti = &it->one;
    struct dec *d = &ti->d;
    if (!it->novalues)
        return 0;
    struct titer *sh = malloc(sizeof *sh);
    ttf_event x;
    if (!sh)
        return TT_ENOMEM;
    sh->in_chunk = 0;
    int in = ti->in_chunk;      /* else between chunks: the next begins afresh */
    int got = values_read(ti, sh, ev, &x, d->notimes);
    if (!got ? in || ev->kind != TTF_EV_LOST
             : in && (sh->k != ti->k || sh->d.c.p != d->c.p)) {
        free(sh);
        return TT_EINVAL;
    }
    if (got)                    /* (a LOST event between chunks has none) */
        take_values(ev, &x);
    if (in) {                   /* sh's decoder is ti's with values (times
                                   skipped as ti skips them) */
        *d = sh->d;
        d->c.pb = &d->pb;
    }
    d->skipv = 0;
    it->novalues = 0;
    free(sh);
    return 0;
}

int ttf_iter_values_at(ttf_iter *it, ttf_event *ev)
{
    ttf_event x;

    if (!it || !ev || it->subs)
        return TT_EINVAL;
    if (!it->vat && !(it->vat = calloc(1, sizeof *it->vat)))
        return TT_ENOMEM;
    if (!values_read(&it->one, it->vat, ev, &x, 1))
        return TT_EINVAL;
    take_values(ev, &x);
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
    c->at = NULL;               /* (ttf_iter_times_at's reading its own) */
    c->vat = NULL;
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
    free(it->at);
    free(it->vat);
    free(it);
}
