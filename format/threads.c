/*
 * threads.c - each thread decoded once while opening (the scan): its
 * events counted, its first and last times, its cut, its digest (what it
 * did, in order, as one hash); then its start and end times and the
 * summary's sums.
 * Stage 4 streams of format/STAGES (its header: read_int.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read_int.h"

#define DIGEST_MUL 0x100000001B3ull /* FNV-1a's 64-bit prime */

/* The digest h taken on over event ev: its kind, and an ENTER's or EXIT's
 * address within its page (ASLR moves modules by whole pages). */
static inline uint64_t digest_step(uint64_t h, const ttf_event *ev)
{
    uint64_t x = (uint64_t)ev->kind << 12;

    if (ev->kind == TTF_EV_ENTER || ev->kind == TTF_EV_EXIT)
        x |= ev->addr & 0xfff;
    return (h ^ x) * DIGEST_MUL;
}

/* The times of a run of untimed events of a lazy chunk (FORMAT.md 4.7),
 * all its end's while opening: the decoder gives them none (no
 * look-ahead) and says when their run is closed (ttfi_scan_timed), and
 * they join the range then; first and last too when the thread's first
 * event or the last event so far was one of them. */
struct pending {
    int open;                   /* untimed events wait for their run's end */
    int first;                  /* the thread's first event is one */
    int last;                   /* the last event read is one */
    uint64_t closed;            /* the decoder's srun_closed when it opened */
};

static void pending_take(struct pending *pd, const struct dec *d, uint64_t *first,
                         uint64_t *last, uint64_t *lo, uint64_t *hi)
{
    uint64_t h = d->srun_hi;
    *lo = h < *lo ? h : *lo;
    *hi = h > *hi ? h : *hi;
    *first = pd->first ? h : *first;
    *last = pd->last ? h : *last;
    pd->open = pd->first = pd->last = 0;
}

/* Count thread i's events, find their time range and take their digest:
 * all the scan needs of them. hit is a local whose address goes nowhere but hot_decode, so
 * the compiler keeps only the fields read here (so SYNC_OPs are read in
 * line by sync_read, hot_decode's syncs 2, not by the out-of-line
 * ttfi_sync_fast, which would take its address); values are
 * stepped over, not decoded (the iteration decodes every chunk again).
 * lazy: the file may have lazy chunks (else no run is ever pending: the
 * loop without them, for the other files). */
static inline __attribute__((always_inline)) void scan_loop(ttf_trace *t, size_t i,
                                                           const int lazy)
{
    struct titer ti;
    ttf_event ev, hit;
    uint64_t n = 0, lost = 0, first = 0, last = 0, dg = 0xcbf29ce484222325ull;
    uint64_t lo = t->ev_min, hi = t->ev_max, tsc;
    struct pending pd = {0};
    int cut = -1, untimed;

    ttfi_titer_init(&ti, t, i, t);
    for (;;) {
        if (hot_decode(&ti.d, &hit, 1, 2)) {
            tsc = hit.tsc;
            untimed = hit.untimed;
            dg = digest_step(dg, &hit);
        } else if (ttfi_titer_step(&ti, &ev) == 1) {
            tsc = ev.tsc;
            untimed = ev.untimed;
            dg = digest_step(dg, &ev);
            lost += ev.lost_events;
            cut = ev.kind == TTF_EV_CUT && cut < 0 ? ev.code : cut;
        } else {
            break;
        }
        if (lazy && __builtin_expect(untimed | pd.open, 0)) {
            if (pd.open && ti.d.srun_closed != pd.closed)
                pending_take(&pd, &ti.d, &first, &last, &lo, &hi);
            if (untimed && ti.d.lazy) {     /* its time: its run's end's */
                if (!pd.open)
                    pd = (struct pending){1, n == 0, 1, ti.d.srun_closed};
                pd.last = 1;
                n++;
                continue;
            }
            pd.last = 0;
        }
        last = tsc;
        first = n++ ? first : last;
        lo = last < lo ? last : lo;
        hi = last > hi ? last : hi;
    }
    if (lazy && pd.open)        /* closed at the last chunk's end */
        pending_take(&pd, &ti.d, &first, &last, &lo, &hi);
    struct tthread *th = ti.th;
    th->pub.events = n;
    th->pub.digest = n ? dg : 0;
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

static void scan_events(ttf_trace *t, size_t i)
{
    if (t->hdr.required_features & TTF_REQ_LAZY)
        scan_loop(t, i, 1);
    else
        scan_loop(t, i, 0);
}

void ttfi_scan_threads(ttf_trace *t)
{
    t->ev_min = UINT64_MAX;
    for (size_t i = 0; i < t->nthreads; i++) {
        scan_events(t, i);
        if (!t->threads[i].n)
            ttfi_note(t, "%s: thread %zu has no chunks (lost or overwritten)",
                 t->name, i);
    }
}

void ttfi_finish_threads(ttf_trace *t)
{
    for (size_t i = 0; i < t->nthreads; i++) {
        struct tthread *th = &t->threads[i];
        if (th->has_ev || th->has_start) {  /* else no times: 0 and 0 */
            th->pub.start_ns = to_ns(t, th->has_start ? th->start_tsc : th->first_tsc);
            th->pub.end_ns = to_ns(t, th->pub.ended ? th->end_tsc : th->last_tsc);
        }
        t->sum.events += th->pub.events;
        t->sum.lost_events += th->pub.lost_events;
    }
}

/* ---- accessors ---------------------------------------------------------- */

size_t ttf_thread_count(const ttf_trace *t)
{
    return t ? t->nthreads : 0;
}

const ttf_thread *ttf_get_thread(const ttf_trace *t, size_t i)
{
    return t && i < t->nthreads ? &t->threads[i].pub : NULL;
}
