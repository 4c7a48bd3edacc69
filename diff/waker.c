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
 *
 * The second rule: a wake-up that came while its waiter was busy
 * (ttdi_wakewin_find). An event loop S waits for work with a time-out
 * (a SLEEP record: poll, epoll_wait) and another thread T wakes it (a
 * write to a pipe, an eventfd: no record of its own). When the waking
 * call comes while S still handles the previous wake-up, a handler that
 * clears its "a wake-up is coming" state after the callback (or a sender
 * that folds its wake-up on that state) loses it: S's next wait runs its
 * full time. The split then lies in S after that wait, and with an
 * inlined send no call of T's differs at all. It holds when:
 *   - S's last timed wait before the split ran its full time (within
 *     2%) in the bad run, with at most WW_AFTER kept events from its end
 *     to the split, and the good run's ended before half its time (it
 *     was woken);
 *   - T's call N that may have woken the good run's wait (the innermost
 *     call open when it ended, else the last one T returned from before
 *     it) is, in the bad run, the same call (T's calls the same up to
 *     its return: no hunk of T's before it; the same function at the
 *     same kept position) and returned before the bad run's wait began
 *     (by the latest it can have returned: an untimed EXIT's late_ns,
 *     FORMAT.md 4.5, not the reader's estimate): it came, and woke
 *     nobody;
 *   - at N's return in the bad run S was inside a call W that it had
 *     left by the point where the good run's S was when N began (S's
 *     calls the same up to both points), entered after S's last timed
 *     wait before N ended: the handling of what woke it, not the call
 *     the wait was made in (an event loop's poll function holds both).
 * W is named, the outermost such: the handler whose window the wake-up
 * fell in (the callback it runs is inside it). Kind race, "possible":
 * the trace shows no memory, and the fault may be the sender's test as
 * well as the handler's late clear. Costs: run walks of S (the bad run
 * and the good one, from the marks before the split, at most WW_SLACK
 * kept events before it), of T around the good run's wake-up (from the
 * mark WW_SLACK kept events before it, at most WK_BEFORE + WK_AFTER
 * events) and to N in the bad run, and of S around N in each run (from
 * WW_SLACK kept events before it), each bounded by WK_BEFORE.
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

/* ---- a wake-up that came while its waiter was busy ------------------------- */

#define WW_SLACK 256            /* kept events read before the split for S's wait */
#define WW_AFTER 64             /* S's kept events from its wait's end to the split */
#define WW_DEPTH 256            /* frames of S's stack looked at */

/* A thread's last timed wait (SLEEP record) before a point. */
typedef struct wwait {
    uint64_t t0, asked, end;    /* began, time asked (ns), its next event */
    uint64_t after;             /* kept events from its end to the point */
} wwait;

/* Thread th's last timed wait before its kept event idx (time ns) in run
 * rs into *o: 1, 0 if none (or it cannot tell), or a TT_E* code. */
static int last_sleep(ttdi_run_state *rs, uint32_t th, uint64_t idx, uint64_t ns, wwait *o)
{
    ttdi_walk w;
    uint64_t n = 0;
    int rc = ttdi_walk_open_at(&w, rs, th, idx > WW_SLACK ? idx - WW_SLACK : 0, ns, 0), open = 0;

    memset(o, 0, sizeof *o);
    if (rc < 0)
        return rc;
    w.sleeps = 1;
    while ((rc = ttdi_walk_next(&w)) > 0 && !(w.kept && w.idx >= idx)) {
        if (++n > WK_BEFORE) {
            rc = 0;
            break;
        }
        if (w.ev.kind == TTF_EV_SYNC_OP && w.ev.code == TTF_SOP_SLEEP) {
            *o = (wwait){w.ev.time_ns, w.ev.sync_arg > 0 ? (uint64_t)w.ev.sync_arg : 0, 0, 0};
            open = 1;
            continue;
        }
        if (open)
            o->end = w.ev.time_ns;
        open = 0;
        o->after += o->end && w.kept;
    }
    if (rc > 0 && open)     /* the point itself ended the wait */
        o->end = w.ev.time_ns;
    ttdi_walk_close(&w);
    if (rc < 0)
        return rc;
    return rc > 0 && o->asked && o->end > o->t0;
}

/* The earliest kept index where pair p's calls part, UINT64_MAX if none. */
static uint64_t parts_at(const ttd_result *r, size_t p)
{
    uint64_t lo = UINT64_MAX;

    for (size_t i = 0; i < r->nhunks; i++)
        if (r->hunks[i].pair == p && !r->hunks[i].expected) {
            const ttd_hunk_info *h = &r->hunks[i];
            uint64_t k = h->good_index < h->bad_index ? h->good_index : h->bad_index;
            lo = k < lo ? k : lo;
        }
    return lo;
}

/* T's calls that may have ended S's wait at ns in run rs (thread th):
 * the innermost call open then (c[0]) and the last one returned before
 * it (c[1]), each by its return (name, kept index, time; the open one's
 * return read on, at most WK_AFTER events). The walk starts at least
 * WW_SLACK kept events before ns: a mark between the last return and ns
 * (a timed record right after it) must not hide it. The number found
 * (c[k].fn NULL when not), or a TT_E* code. */
typedef struct wcall {
    const char *fn;
    uint64_t idx, enter_ns, exit_ns;
    uint64_t late_ns;       /* same_return: the latest it can have returned */
} wcall;

static int wakers(ttdi_run_state *rs, uint32_t th, uint64_t ns, wcall c[2])
{
    ttdi_walk w;
    uint64_t n = 0;
    size_t depth = 0;
    int rc = ttdi_walk_open_at(&w, rs, th, UINT64_MAX, ns, WW_SLACK);

    memset(c, 0, 2 * sizeof *c);
    if (rc < 0)
        return rc;
    for (; (rc = ttdi_walk_next(&w)) > 0 && ++n <= WK_BEFORE + WK_AFTER;) {
        int ret = w.pending && w.kept && w.ev.kind == TTF_EV_EXIT && w.nstack;
        if (!depth && w.ev.time_ns > ns) {     /* at ns: the call open */
            if (!w.nstack)
                break;
            depth = w.nstack;
            c[0].fn = ttdi_walk_frame_name(&w, &w.stack[depth - 1]);
            c[0].enter_ns = w.stack[depth - 1].time_ns;
        }
        if (!ret)
            continue;
        wcall *k = depth ? &c[0] : &c[1];
        if (depth && ttdi_walk_depth_after(&w) >= depth)
            continue;   /* a call made inside the open one */
        k->fn = depth ? k->fn : ttdi_walk_frame_name(&w, &w.stack[w.nstack - 1]);
        k->enter_ns = depth ? k->enter_ns : w.stack[w.nstack - 1].time_ns;
        k->idx = w.idx;
        k->exit_ns = w.ev.time_ns;
        if (depth)
            break;
    }
    ttdi_walk_close(&w);
    if (rc < 0)
        return rc;
    if (c[0].fn && !c[0].exit_ns)
        c[0].fn = NULL;     /* it did not return in sight */
    return (c[0].fn != NULL) + (c[1].fn != NULL);
}

/* The same return in the other run: thread th's kept event idx, a
 * return of function fn; its call's entry and return times into *c.
 * 1, 0 if not, or a TT_E* code. */
static int same_return(ttdi_run_state *rs, uint32_t th, uint64_t idx, const char *fn, wcall *c)
{
    ttdi_walk w;
    int rc = walk_to(&w, rs, th, idx, UINT64_MAX);

    if (rc != 1)
        return rc;
    const char *nm = w.nstack ? ttdi_walk_frame_name(&w, &w.stack[w.nstack - 1]) : NULL;
    int same = w.idx == idx && w.ev.kind == TTF_EV_EXIT && nm && !strcmp(nm, fn);
    c->fn = fn;
    c->idx = idx;
    c->enter_ns = w.nstack ? w.stack[w.nstack - 1].time_ns : 0;
    c->exit_ns = w.ev.time_ns;
    c->late_ns = ttf_event_late_ns(&w.ev);
    ttdi_walk_close(&w);
    return same;
}

/* Where thread th of run rs was at time ns: the kept events before its
 * first event later than ns; UINT64_MAX when it cannot tell. */
static uint64_t index_at(ttdi_run_state *rs, uint32_t th, uint64_t ns)
{
    ttdi_walk w;
    uint64_t n = 0, at;
    int rc = ttdi_walk_open_at(&w, rs, th, UINT64_MAX, ns, 0);

    if (rc < 0)
        return UINT64_MAX;
    while ((rc = ttdi_walk_next(&w)) > 0 && w.ev.time_ns <= ns && ++n <= WK_BEFORE)
        ;
    at = rc > 0 && n <= WK_BEFORE ? w.idx : UINT64_MAX;
    ttdi_walk_close(&w);
    return at;
}

/* S (thread ts of the bad run) at time ns, and on to its kept index
 * upto (where the good run's S was at the same return of T's): the
 * outermost call open at ns that returned before upto and was entered
 * after S's last timed wait before ns ended (the handling of what woke
 * it, not a call the wait was made in), into out (function, file, line,
 * enter_ns). S's wait is looked for from WW_SLACK kept events before ns
 * on (the handling's calls since the wait, at most). 1, 0 if none, or a
 * TT_E* code. */
static int busy_in(const ttdi_in *in, uint32_t ts, uint64_t ns, uint64_t upto, ttdi_wakewin *out)
{
    ttdi_run_state *rs = &in->r[TTD_BAD];
    ttdi_walk w;
    uint64_t n = 0, woke = 0;
    int rc = ttdi_walk_open_at(&w, rs, ts, UINT64_MAX, ns, WW_SLACK), open = 0;

    if (rc < 0)
        return rc;
    w.sleeps = 1;
    while ((rc = ttdi_walk_next(&w)) > 0 && w.ev.time_ns <= ns) {
        if (++n > WK_BEFORE) {
            rc = 0;
            break;
        }
        if (w.ev.kind == TTF_EV_SYNC_OP && w.ev.code == TTF_SOP_SLEEP)
            open = 1;
        else if (open)
            woke = w.ev.time_ns, open = 0;
    }
    w.sleeps = 0;
    size_t depth = w.nstack < WW_DEPTH ? w.nstack : WW_DEPTH, lo = depth;
    ttdi_frame_id f[WW_DEPTH];
    memcpy(f, w.stack, depth * sizeof *f);
    const char *nm[WW_DEPTH];
    for (size_t i = 0; i < depth; i++)
        nm[i] = ttdi_walk_frame_name(&w, &w.stack[i]);
    if (rc > 0 && w.idx >= upto)
        rc = 0;             /* S was not behind: no call it was busy in */
    for (n = 0; rc > 0 && w.idx < upto; rc = ttdi_walk_next(&w)) {
        if (++n > WK_BEFORE) {
            rc = 0;
            break;
        }
        size_t k = ttdi_walk_depth_after(&w);
        lo = k < lo ? k : lo;
    }
    ttdi_walk_close(&w);
    while (lo < depth && f[lo].time_ns < woke)
        lo++;               /* open over S's last wait: not the handling */
    if (rc <= 0 || lo >= depth || !woke || !nm[lo] || ttdi_lock_wrapper(nm[lo]))
        return rc < 0 ? rc : 0;
    out->function = nm[lo];
    out->enter_ns = f[lo].time_ns;
    if (f[lo].id && !(f[lo].id & TTDI_SITE_BIT))
        (void)ttf_sym_line(rs->norm.sym, f[lo].id, &out->file, &out->line);
    return 1;
}

int ttdi_wakewin_find(const ttdi_in *in, const ttd_result *r, ttdi_wakewin *out)
{
    const ttd_divergence *d = r ? r->first : NULL;
    wwait b, g;
    int rc;

    memset(out, 0, sizeof *out);
    if (!in || !d || d->pair >= r->npairs || in->r[TTD_BAD].nt < 2 || !d->good_time_ns ||
        !(ttf_get_header(in->r[TTD_BAD].t)->optional_features & TTF_HEADER_SYNC))
        return 0;
    ttdi_run_state *bad = &in->r[TTD_BAD], *good = &in->r[TTD_GOOD];
    uint32_t ts = r->pairs[d->pair].bad.index, sg = r->pairs[d->pair].good.index;
    /* S's wait before the split ran its full time in the bad run, just
     * before the split, and ended well before its time in the good run */
    if ((rc = last_sleep(bad, ts, d->bad_index, d->bad_time_ns, &b)) != 1)
        return rc;
    if (b.end - b.t0 < b.asked - b.asked / 50 || b.after > WW_AFTER)
        return 0;
    if ((rc = last_sleep(good, sg, d->good_index, d->good_time_ns, &g)) != 1)
        return rc;
    if (g.end - g.t0 >= g.asked / 2 || g.after > WW_AFTER)
        return 0;
    for (size_t p = 0; p < r->npairs; p++) {
        uint32_t tb = r->pairs[p].bad.index, tg = r->pairs[p].good.index;
        wcall c[2], bn = {0}, *gn = NULL;
        if (p == d->pair || tb == ts)
            continue;
        /* N: T's call open when the good wait ended, or the last one it
         * returned from before; the same call (T's calls the same up to
         * it) returned before the bad wait began: it came, woke nobody */
        if ((rc = wakers(good, tg, g.end, c)) < 0)
            return rc;
        for (int k = 0; rc > 0 && k < 2 && !gn; k++) {
            if (!c[k].fn || parts_at(r, p) <= c[k].idx)
                continue;
            int same = same_return(bad, tb, c[k].idx, c[k].fn, &bn);
            if (same < 0)
                return same;
            if (same && bn.late_ns < b.t0)   /* surely before: never by estimate */
                gn = &c[k];
        }
        if (!gn)
            continue;
        /* S in the bad run inside a call it had left at N in the good one */
        uint64_t at = index_at(good, sg, gn->enter_ns);
        if (at == UINT64_MAX || parts_at(r, d->pair) < at)
            continue;
        if ((rc = busy_in(in, ts, bn.exit_ns, at, out)) < 0)
            return rc;
        if (rc == 0)
            continue;
        out->found = 1;
        out->thread = ttdi_thread_label(bad, in->arena, ts);
        out->pair = (int64_t)d->pair;
        out->waker = gn->fn;
        out->waker_thread = ttdi_thread_label(bad, in->arena, tb);
        out->waker_pair = (int64_t)p;
        out->notify_ns = bn.exit_ns;
        out->wait_ns = b.t0;
        out->asked_ns = b.asked;
        out->end_ns = b.end;
        out->good_enter_ns = gn->enter_ns;
        out->good_notify_ns = gn->exit_ns;
        out->good_wait_ns = g.t0;
        out->good_end_ns = g.end;
        return 1;
    }
    return 0;
}
