/*
 * waker.c - the thread a wait that never ended waited for (issue 33 item
 * 4: a cause in another thread, after the split in time). Stage 3
 * explain of diff/STAGES (its header: explain.h); the verdict (verdict.c)
 * words it.
 *
 * Design. A thread that waits waits for another thread to do its part
 * and say so (a signal, a broadcast, a post, its own end). When the runs
 * differ only in timing, the good run's thread S may find the other
 * thread's part done and not wait, while the bad run's S comes first and
 * waits: the calls part there, in S, and that split is the legitimate
 * effect of the timing (its branch read "not done yet", rightly). If the
 * bad run then hangs, the defect is where the wait should have ended: in
 * the other thread T, at the end of its part, later in time. The split's
 * branch and the values it read name S; this rule names T. It holds when
 * all of these do, each read from the runs:
 *   - the bad run was killed (no clean end, no crash, no cut: it hung);
 *   - S stopped at the split: its hunk reaches the end of its events in
 *     the bad run, at most WK_TAIL of them after the split (a wait
 *     entered, or none), while the good run's S went on (events on its
 *     side): S made no call for the rest of the bad run;
 *   - T (another pair) parted from its good run only after S had
 *     stopped, in the bad run's time (its first hunk, timing-shaped ones
 *     too, begins after S's last event; none before): S was waiting when
 *     T did what it did differently; an older difference of T's is the
 *     other rules' (T parted first);
 *   - in the good run, T's first difference came before the split (the
 *     hunk's good_time_ns before the split's good time): there T's part
 *     was done before S looked, so S had nothing to wait for. A T that
 *     parts after the split in both runs followed S (a worker starved
 *     when S stopped feeding it) and is no cause: it must not be named;
 *   - T's calls end (its last event in the bad run) within WK_AFTER
 *     events of its first hunk that is neither timing nor expected: T
 *     went quiet (ended, or blocked itself) without a call that let S go
 *     on.
 * The cause named is the frame that made T's last calls after it
 * parted: the frame the differing calls began in (for a call entered or
 * left first, the frame making it, or the one returning), lowered to the
 * caller of any call T entered after it that was made lower on the
 * stack. A callee that returned early hands the decision to its caller,
 * which acted on what it got (a worker loop deciding not to signal); the
 * frames below that made no call after are only the thread's start
 * (names: the first such frame, as the walk saw it). Kind "order",
 * "possible": the trace shows no memory and, without sync records, not
 * which object S waits on. The first pair found, in the result's order,
 * is named.
 * Costs. Only when the cheap preconditions hold (the bad run killed, S
 * stopped, a T that qualifies by its hunks): one run walk of S from the
 * mark before the split to its end (at most WK_BEFORE events from the
 * mark), one of T from the mark before its hunk to its end (the same,
 * and at most WK_AFTER from the hunk).
 */
#include <stdint.h>
#include <string.h>

#include "explain.h"

#define WK_TAIL 64              /* S's bad events after the split, at most */
#define WK_AFTER 4096           /* T's bad events from its hunk to its end */
#define WK_BEFORE (1u << 20)    /* events read from a mark to a hunk */

/* ---- the picks (unit-tested on hand-made results) -------------------------- */

long ttdi_waker_stopped(const ttd_result *r)
{
    const ttd_divergence *d = r ? r->first : NULL;

    if (!d || d->hunk >= r->nhunks || d->pair >= r->npairs || r->runs[TTD_BAD].closed ||
        r->runs[TTD_BAD].crash || r->runs[TTD_BAD].cut || !r->runs[TTD_GOOD].closed)
        return -1;
    const ttd_hunk_info *h = &r->hunks[d->hunk];
    uint64_t n = r->pairs[d->pair].bad.events;
    if (h->pair != d->pair || !h->good_count || h->bad_count > WK_TAIL ||
        h->bad_index + h->bad_count != n)
        return -1;
    return (long)d->hunk;
}

long ttdi_waker_first(const ttd_result *r, size_t p, uint64_t stop_ns)
{
    long first = -1;

    if (!r || !r->first || p == r->first->pair || p >= r->npairs)
        return -1;
    for (size_t i = 0; i < r->nhunks; i++) {
        const ttd_hunk_info *h = &r->hunks[i];
        if (h->pair != p || h->expected)
            continue;
        if (h->time_ns <= stop_ns)
            return -1;  /* T parted before S stopped */
        if (first < 0 || h->time_ns < r->hunks[first].time_ns)
            first = (long)i;
    }
    if (first < 0 || r->hunks[first].good_time_ns >= r->first->good_time_ns)
        return -1;      /* no hunk, or T parted after the split in the good run */
    return first;
}

long ttdi_waker_pick(const ttd_result *r, size_t p, long first)
{
    long best = -1;

    if (first < 0 || (size_t)first >= r->nhunks)
        return -1;
    for (size_t i = 0; i < r->nhunks; i++) {
        const ttd_hunk_info *h = &r->hunks[i];
        if (h->pair != p || h->expected || h->timing || h->time_ns < r->hunks[first].time_ns)
            continue;
        if (best < 0 || h->time_ns < r->hunks[best].time_ns)
            best = (long)i;
    }
    if (best < 0 || r->pairs[p].bad.events - r->hunks[best].bad_index > WK_AFTER)
        return -1;      /* no differing calls, or T ran on */
    return best;
}

/* ---- the walks ------------------------------------------------------------- */

/* Open a run walk of thread th at the last mark before kept event idx
 * (no event up to it later than ns) and read to that event (pending).
 * 1 there, 0 when the thread ends first or it took more than WK_BEFORE
 * events (w closed), or a TT_E* code (w closed). */
static int walk_to(ttdi_walk *w, ttdi_run_state *rs, uint32_t th, uint64_t idx, uint64_t ns)
{
    uint64_t n = 0;
    int rc = ttdi_walk_open_at(w, rs, th, idx, ns, 0);

    if (rc < 0)
        return rc;
    while ((rc = ttdi_walk_next(w)) > 0 && !(w->kept && w->idx >= idx))
        if (++n > WK_BEFORE) {
            rc = 0;
            break;
        }
    if (rc <= 0)
        ttdi_walk_close(w);
    return rc;
}

/* The time of S's last event in the bad run (its hunk h), UINT64_MAX
 * when it cannot tell. */
static uint64_t stop_time(ttdi_run_state *rs, uint32_t th, const ttd_hunk_info *h)
{
    ttdi_walk w;
    uint64_t t = h->time_ns, n = 0;
    int rc;

    if (!h->bad_count)      /* no event after the split: the one before */
        return h->bad_index ? h->time_ns : UINT64_MAX;
    if (walk_to(&w, rs, th, h->bad_index, h->time_ns) != 1)
        return UINT64_MAX;
    do
        t = w.ev.time_ns;
    while ((rc = ttdi_walk_next(&w)) > 0 && ++n <= WK_TAIL * 4);
    ttdi_walk_close(&w);
    return rc == 0 ? t : UINT64_MAX;
}

/* The frame that made T's last calls from its hunk h on (the design):
 * into out (function, file, line, last_ns). 1, 0 when it cannot tell,
 * or a TT_E* code. */
static int last_caller(const ttdi_in *in, uint32_t th, const ttd_hunk_info *h, ttdi_waker *out)
{
    ttdi_run_state *rs = &in->r[TTD_BAD];
    ttdi_walk w;
    uint64_t n = 0, id = 0;
    size_t lo = SIZE_MAX;
    int rc = walk_to(&w, rs, th, h->bad_index, h->time_ns);

    if (rc != 1)
        return rc;
    if (w.nstack) {
        lo = w.nstack - 1;
        out->function = ttdi_walk_frame_name(&w, &w.stack[lo]);
        id = w.stack[lo].id;
    }
    for (; rc > 0; rc = ttdi_walk_next(&w)) {
        out->last_ns = w.ev.time_ns;
        if (++n > WK_AFTER * 2) {
            rc = 0;
            lo = SIZE_MAX;
            break;
        }
        if (!w.pending || w.ev.kind != TTF_EV_ENTER)
            continue;
        size_t k = ttdi_walk_depth_after(&w);
        if (k >= 1 && k - 1 < lo) {
            lo = k - 1;
            out->function = ttdi_walk_frame_name(&w, &w.stack[lo]);
            id = w.stack[lo].id;
        }
    }
    if (rc == 0 && lo != SIZE_MAX && id && !(id & TTDI_SITE_BIT))
        (void)ttf_sym_line(rs->norm.sym, id, &out->file, &out->line);
    ttdi_walk_close(&w);
    if (rc < 0)
        return rc;
    return lo != SIZE_MAX && out->function;
}

int ttdi_waker_find(const ttdi_in *in, const ttd_result *r, ttdi_waker *out)
{
    long sh = ttdi_waker_stopped(r);

    memset(out, 0, sizeof *out);
    if (!in || sh < 0 || in->r[TTD_BAD].nt < 2)
        return 0;
    const ttd_divergence *d = r->first;
    ttdi_run_state *rs = &in->r[TTD_BAD];
    uint32_t ts = r->pairs[d->pair].bad.index;
    uint64_t stop = stop_time(rs, ts, &r->hunks[sh]);
    if (stop == UINT64_MAX)
        return 0;
    for (size_t p = 0; p < r->npairs; p++) {
        long f = ttdi_waker_first(r, p, stop), k = ttdi_waker_pick(r, p, f);
        if (k < 0 || r->pairs[p].bad.index == ts)
            continue;
        int rc = last_caller(in, r->pairs[p].bad.index, &r->hunks[k], out);
        if (rc < 0)
            return rc;
        if (rc == 0)
            continue;
        out->found = 1;
        out->thread = ttdi_thread_label(rs, in->arena, r->pairs[p].bad.index);
        out->pair = (int64_t)p;
        out->waiter_thread = ttdi_thread_label(rs, in->arena, ts);
        out->waiter_pair = (int64_t)d->pair;
        out->stop_ns = stop;
        out->part_ns = r->hunks[k].time_ns;
        out->good_part_ns = r->hunks[f].good_time_ns;
        out->split_good_ns = d->good_time_ns;
        return 1;
    }
    return 0;
}
