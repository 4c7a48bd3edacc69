/*
 * order.c - a first divergence that only follows how far the other
 * threads had got. Stage 2 resolve of diff/STAGES (its header: resolve.h).
 *
 * The hunks are sorted by the bad run's time, so the first divergence is
 * the first place any thread went another way. With threads that is not
 * always where the runs began to differ: a main thread that reads a
 * queue under its lock finds a job finished in the good run and not yet
 * in the bad one, because the worker doing it was slower, and branches;
 * the worker's own difference (the job failed) comes a few microseconds
 * later in wall-clock time, yet nothing the main thread did reached it.
 * Clock order between threads is an accident of the schedule; the order
 * that means something is happens-before.
 *
 * So when the first divergence's thread held a lock at its split, or took
 * one between its last common event (or its last wake-up, a condition
 * wait's return or a join, if earlier: what a thread decides between two
 * waits follows what it found when it woke) and the split, and another thread
 * had taken that lock a different number of times before it did in the
 * two runs (the lock's earlier holders differ: what it read under the
 * lock follows their progress), its split "follows the threads'
 * progress". If another thread's first divergence does not (its thread
 * held no such lock) and the first split does not happen before it (no
 * unlock, signal, create or join after the split reaches that thread
 * before its own split: the walk below taints threads and objects
 * forward from the split), that divergence is independent of the first
 * and is put first; the other is marked (ttd_hunk_info.order_dep) and
 * stays in the list right after it. In values mode a thread's first
 * difference can be a value on a common event (a call that returned
 * another value) before its calls split: that point is used (a value
 * no input decided, a clock reading, is passed over: not where the thread
 * went its own way), so a worker whose job failed is judged where the failure showed, before the locks
 * it took to report it. Between two builds, a divergence whose innermost
 * frame is a function whose machine code changed (codediff.c) is its own
 * whatever reached it, and the first is never put back when its own
 * frame changed. When both follow the progress, or the first
 * reaches the second, or the runs have no SYNC_OP records, the clock
 * order stands. It stands too when the first divergence's thread left
 * its loop first in one run (left_side()): from its split it made fewer
 * calls than the other run's and ended by itself (a worker, not the main
 * thread, not cut off or crashed), while the other run's went around
 * again: whatever it read under the lock, stopping was its own decision,
 * and what the other threads then did otherwise (a queue nobody drained,
 * a join that waited) follows from that stop. kyotocabinet's TaskQueue
 * workers that found a stop flag set before the queue was drained: the
 * worker's run is the split, not the main thread's poll of the queue
 * that never emptied (in code that changed between the builds). Such a
 * thread's extra turns in the other run can have a wait loop's shape
 * (timing.c: each turn blocked; there the worker's task is a sleep), so
 * before the rule a wait loop's hunk of another pair that came before the
 * first divergence is a divergence again (unhide) when its thread left
 * its loop first in one run and had ended there before the first
 * divergence, while the other run's was still running at it: its loop
 * did not wait more or fewer times, its thread stopped, and the runs
 * parted there first. A wait loop of threads that end alike (both
 * before, or both after, the first divergence) stays timing.
 *
 * The clock order itself first (issue 33): on a lazy-clock trace an
 * untimed split has only bounds, the thread's measured times before and
 * after it, and its time is an estimate between them. Before the rule
 * above, the first divergence's bounds are set against each other pair's
 * first divergence's: when they overlap, which came first is not known
 * from the clock, nor from the sync operations (measured records: one
 * that orders two splits leaves their bounds apart), and the thread the
 * bad run failed in (crashed, else ended the process) goes first, else
 * the estimates' order stands; the first divergence says which
 * (ttd_hunk_info.clock_order) and the reports say the order is unknown.
 *
 * The same test says when two runs that ended alike differ only by the
 * threads' progress (ttdi_order_progress): both closed with one exit
 * status, no crash, no failure known, and every pair that diverged went
 * another way first following the progress (a worker that created a
 * compression context because none was free yet, where the other run
 * reused one): all their hunks, the consequences in those threads
 * included (the fresh context's first use), are timing-shaped
 * (TTD_TIMING_PROGRESS), not divergences; so are, in values mode, the
 * values of such threads when their first difference is a value read
 * under such a lock (ttd_result.values_progress). One pair whose first split is
 * its own keeps every hunk a divergence; runs that ended otherwise keep
 * them all too (the failure is what the user is after).
 *
 * Locks are matched across runs by their order of first use in the split
 * thread (its events before the split are common to both runs); the
 * other threads by their pairs. Cost: only when the first divergence is
 * in a run with two or more diverging pairs: one walk of each thread of
 * both runs up to the split, and one merged walk of the bad run from the
 * split to the latest other divergence; nothing otherwise. Where a split
 * lies (the time of the event before it) comes from resolve's walk to it
 * (ttdi_resolved.prev), not from a walk of its own; the locks the split
 * thread holds there (the progress check's lock views) from the SYNC_OP
 * records the run walks kept as they first read the thread (the timing
 * scan's, walker.c ttdi_walk_syncs), not from a walk of their own either
 * (a raw walk only where the records cannot tell, issue 38 item 4).
 */
#include <stdlib.h>
#include <string.h>

#include "codediff.h"
#include "resolve.h"

#define LOCKS_MAX 64            /* locks of a split thread followed */
#define NEAR_MAX 8              /* other pairs' first divergences judged */
#define OBJ_SLOTS 4096          /* objects the taint walk follows (hash) */

/* One lock of the split thread. */
typedef struct olock {
    uint64_t addr;              /* the mutex */
    uint64_t acq_ns;            /* the thread's last acquisition of it */
    int held;                   /* 1: held at the split */
} olock;

/* A thread's locks at its split, numbered by first use (index + 1). */
typedef struct oview {
    olock l[LOCKS_MAX];
    size_t n;
    uint64_t woke_ns;           /* its last wake-up (a condition wait's
                                   return, a join) before it, 0: none */
} oview;

/* Where a thread's first difference is, in one run. */
typedef struct opoint {
    uint32_t th;                /* the thread */
    uint64_t from_ns;           /* its last common event before it */
    int call;                   /* 1: a split of the calls (else a value on a
                                   common event: only locks held count) */
    int woke;                   /* 1: locks taken since the thread last woke
                                   up count too (not for a pool's worker: its
                                   items come from the queue it waits on, and
                                   the pool compares them; its own locks do) */
    uint64_t at_ns;             /* the difference */
} opoint;

/* The mutex ev acquires (a lock, a trylock that got it, the return of a
 * condition wait: the mutex of the thread's last wait), else 0. */
static uint64_t acquired(const ttf_event *ev, uint64_t waitmx)
{
    if (ev->kind != TTF_EV_SYNC_OP)
        return 0;
    if (ev->code == TTF_SOP_LOCK)
        return ev->addr;
    if (ev->code == TTF_SOP_TRYLOCK)
        return ev->sync_arg == 0 ? ev->addr : 0;
    return ev->code == TTF_SOP_WOKE ? waitmx : 0;
}

/* The mutex ev releases (an unlock, a condition wait's), else 0. */
static uint64_t released(const ttf_event *ev)
{
    if (ev->kind != TTF_EV_SYNC_OP)
        return 0;
    if (ev->code == TTF_SOP_UNLOCK)
        return ev->addr;
    return ev->code == TTF_SOP_WAIT ? (uint64_t)ev->sync_arg : 0;
}

static olock *view_lock(oview *v, uint64_t addr, int add)
{
    for (size_t i = 0; i < v->n; i++)
        if (v->l[i].addr == addr)
            return &v->l[i];
    if (!add || v->n == LOCKS_MAX)
        return NULL;
    v->l[v->n] = (olock){addr, 0, 0};
    return &v->l[v->n++];
}

/* A SYNC_OP of p's thread into its view: the locks it holds, when it
 * took each, its last wake-up. *waitmx: the mutex of its last wait. */
static void view_event(oview *v, const ttf_event *ev, uint64_t *waitmx)
{
    if (ev->code == TTF_SOP_WAIT)
        *waitmx = (uint64_t)ev->sync_arg;
    if (ev->code == TTF_SOP_WOKE || ev->code == TTF_SOP_JOIN)
        v->woke_ns = ev->time_ns;
    uint64_t a = acquired(ev, *waitmx), r = released(ev);
    olock *l = a ? view_lock(v, a, 1) : NULL;
    if (l) {
        l->acq_ns = ev->time_ns;
        l->held = 1;
    }
    if (r && (l = view_lock(v, r, 0)))
        l->held = 0;
}

/* The view from the SYNC_OP records run walks kept (walker.c): 1, or 0
 * when they cannot tell (then walk). */
static int view_kept(const ttdi_run_state *r, const opoint *p, oview *v)
{
    const ttdi_syncrec *rec;
    uint64_t waitmx = 0;
    size_t n;
    ttf_event ev;

    if (!ttdi_walk_syncs(r, p->th, p->at_ns, &rec, &n))
        return 0;
    memset(&ev, 0, sizeof ev);
    ev.kind = TTF_EV_SYNC_OP;
    for (size_t i = 0; i < n; i++) {
        ev.code = ttdi_sr_code(&rec[i]);
        ev.time_ns = ttdi_sr_ns(r->t, &rec[i]);
        ev.addr = rec[i].addr;
        ev.sync_arg = rec[i].sync_arg;
        view_event(v, &ev, &waitmx);
    }
    return 1;
}

/* The locks of p's thread in run r up to its difference: from the
 * records run walks kept (the timing scan read the thread to its split),
 * else by a raw walk. */
static int view_of(const ttdi_run_state *r, const opoint *p, oview *v)
{
    ttdi_walk wk;
    uint64_t waitmx = 0;
    int rc;

    v->n = 0;
    v->woke_ns = 0;
    if (view_kept(r, p, v))
        return 0;
    if ((rc = ttdi_walk_raw(&wk, r->t, p->th)) < 0)
        return rc;
    while ((rc = ttdi_walk_next(&wk)) > 0) {
        if (wk.ev.time_ns > p->at_ns || (wk.ev.time_ns == p->at_ns && wk.ev.kind != TTF_EV_SYNC_OP))
            break;
        if (wk.ev.kind == TTF_EV_SYNC_OP)
            view_event(v, &wk.ev, &waitmx);
    }
    ttdi_walk_close(&wk);
    return rc < 0 ? rc : 0;
}

/* Lock l of view v counts at p: held at the difference; for a split of
 * the calls also taken since the thread last woke up (what it decides
 * between two waits follows what it found when it woke: the input a
 * reader thread had supplied by then) or since the last common event. */
static int counts_at(const olock *l, const oview *v, const opoint *p)
{
    uint64_t from = p->from_ns;

    if (p->woke && v->woke_ns && v->woke_ns <= from)
        from = v->woke_ns - 1;
    return l->addr && (l->held || ((p->call || p->woke) && l->acq_ns > from));
}

/* Acquisitions of mutex addr before `before` by every thread of run ri
 * but self, added per pair into c[0..nip] (c[nip]: unpaired threads). */
static int holders(const ttdi_in *in, int ri, uint32_t self, uint64_t addr, uint64_t before,
                   uint64_t *c)
{
    const ttf_trace *t = in->r[ri].t;

    for (uint32_t x = 0; x < ttf_thread_count(t); x++) {
        size_t slot = in->s->nip;
        for (size_t k = 0; k < in->s->nip; k++)
            if (in->s->ip[k].t[ri] == x)
                slot = k;
        if (x == self)
            continue;
        ttdi_walk wk;
        uint64_t waitmx = 0;
        int rc = ttdi_walk_raw(&wk, t, x);
        if (rc < 0)
            return rc;
        while ((rc = ttdi_walk_next(&wk)) > 0 && wk.ev.time_ns < before) {
            if (wk.ev.kind == TTF_EV_SYNC_OP && wk.ev.code == TTF_SOP_WAIT)
                waitmx = (uint64_t)wk.ev.sync_arg;
            c[slot] += acquired(&wk.ev, waitmx) == addr;
        }
        ttdi_walk_close(&wk);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* Into *dep the pair whose thread had taken one of the locks that pair
 * pi's thread held (or took) at its difference a different number of
 * times before it did, in the two runs: nip for an unpaired thread, -1
 * for none. 0 or a TT_E* code. */
static int depends(const ttdi_in *in, size_t pi, const opoint pt[2], int64_t *out)
{
    oview *v = malloc(2 * sizeof *v);
    uint64_t *c = calloc(2 * (in->s->nip + 1), sizeof *c);
    int64_t dep = -1;
    int rc = v && c ? 0 : TT_ENOMEM;

    for (int ri = 0; ri < 2 && rc >= 0; ri++)
        rc = view_of(&in->r[ri], &pt[ri], &v[ri]);
    for (size_t i = 0; rc >= 0 && dep < 0 && i < (v ? v[1].n : 0); i++) {
        const olock *b = &v[1].l[i], *g = i < v[0].n ? &v[0].l[i] : NULL;
        if (!g || !counts_at(b, &v[1], &pt[1]) || !counts_at(g, &v[0], &pt[0]))
            continue;
        memset(c, 0, 2 * (in->s->nip + 1) * sizeof *c);
        if ((rc = holders(in, TTD_GOOD, pt[0].th, g->addr, g->acq_ns, c)) < 0 ||
            (rc = holders(in, TTD_BAD, pt[1].th, b->addr, b->acq_ns, c + in->s->nip + 1)) < 0)
            break;
        for (size_t k = 0; k <= in->s->nip && dep < 0; k++)
            if (k != pi && c[k] != c[in->s->nip + 1 + k])
                dep = (int64_t)k;
    }
    free(v);
    free(c);
    *out = dep;
    return rc < 0 ? rc : 0;
}

/* The time of key event idx of thread th in run ri; `none` if idx is past
 * the thread's keys. */
static int key_time(const ttdi_in *in, int ri, uint32_t th, uint64_t idx, uint64_t none,
                    uint64_t *out)
{
    ttd_event ev;
    ttdi_req rq;
    ttdi_pass_spec ps = {0};
    int rc;

    memset(&ev, 0, sizeof ev);
    ev.time_ns = none;
    ps.rq = &rq;
    ps.stack_at = UINT64_MAX;
    ttdi_add_req(ps.rq, &ps.nrq, idx, idx + 1, &ev);
    rc = ttdi_run_pass(in, ri, th, &ps);
    *out = ev.time_ns;
    return rc;
}

static const ttdi_vdiff *first_value(const ttdi_in *in, size_t pi);

/* What resolve read of where h splits (ttdi_prev), NULL if not there. */
static const ttdi_prev *prev_of(const ttdi_resolved *r, const ttd_hunk_info *h)
{
    for (size_t i = 0; i < r->nprev; i++)
        if (r->prev[i].pair == h->pair && r->prev[i].index[0] == h->good_index &&
            r->prev[i].index[1] == h->bad_index)
            return &r->prev[i];
    return NULL;
}

/* Where hunk h's pair first differs, in both runs: its split, or in values
 * mode a value on a common event before it, unless that value is noise by
 * its look (a clock reading: no input decided it, so the thread did not go
 * its own way there). */
static int points(const ttdi_in *in, const ttdi_resolved *r, const ttd_hunk_info *h,
                  opoint pt[2])
{
    const ttdi_prev *pv = prev_of(r, h);
    const ttdi_ipair *p = &in->s->ip[h->pair];
    const ttdi_vdiff *f = first_value(in, h->pair);
    uint64_t at[2] = {h->good_time_ns, h->time_ns};
    uint64_t idx[2] = {h->good_index, h->bad_index};
    int rc = 0;

    for (int ri = 0; ri < 2; ri++) {
        pt[ri].th = p->t[ri];
        pt[ri].call = 1;
        pt[ri].woke = p->pool < 0;
    }
    if (f && f->ev[1].time_ns < h->time_ns) {
        for (int ri = 0; ri < 2; ri++) {
            pt[ri].from_ns = pt[ri].at_ns = f->ev[ri].time_ns;
            pt[ri].call = pt[ri].woke = 0;
        }
        return 0;
    }
    for (int ri = 0; ri < 2 && rc >= 0; ri++) {
        const ttf_thread *th = ttf_get_thread(in->r[ri].t, p->t[ri]);
        pt[ri].at_ns = at[ri];
        pt[ri].from_ns = th ? th->start_ns : 0;
        if (pv)                 /* read on resolve's walk */
            pt[ri].from_ns = pv->ns[ri];
        else if (idx[ri] > 0)
            rc = key_time(in, ri, p->t[ri], idx[ri] - 1, pt[ri].from_ns, &pt[ri].from_ns);
    }
    return rc;
}

/* ---- the taint walk: what the split reaches in the bad run ------------ */

typedef struct tslot {
    uint64_t addr;              /* object, 0 = free */
    uint64_t since;             /* released by a tainted thread since */
} tslot;

typedef struct taint {
    tslot *obj;                 /* OBJ_SLOTS */
    uint64_t *th;               /* per thread: tainted since, UINT64_MAX */
    uint64_t *waitmx;           /* per thread: mutex of its last wait */
    uint64_t *tid;              /* per thread: its pthread_t (from CREATE) */
    size_t nt;
} taint;

static tslot *slot(taint *w, uint64_t addr, int add)
{
    int fresh;
    tslot *s = ttdi_probe(w->obj, OBJ_SLOTS, sizeof *s,
                          (size_t)((addr >> 4) * 0x9E3779B97F4A7C15ull >> 52), addr, add, &fresh);

    if (fresh)
        s->since = UINT64_MAX;
    return s;
}

static void mark(taint *w, uint64_t addr, uint64_t t)
{
    tslot *s = addr ? slot(w, addr, 1) : NULL;
    if (s && t < s->since)
        s->since = t;
}

/* Whether a tainted thread released object addr before t. */
static int reached(taint *w, uint64_t addr, uint64_t t)
{
    const tslot *s = addr ? slot(w, addr, 0) : NULL;
    return s && s->since <= t;
}

/* One sync operation of the merged walk. */
static void tstep(taint *w, const ttf_event *ev)
{
    uint32_t x = ev->thread;
    uint64_t t = ev->time_ns;

    if (ev->code == TTF_SOP_CREATE && ev->sync_arg >= 0 && (size_t)ev->sync_arg < w->nt)
        w->tid[ev->sync_arg] = ev->addr;
    if (ev->code == TTF_SOP_WAIT)
        w->waitmx[x] = (uint64_t)ev->sync_arg;
    if (w->th[x] <= t) {
        mark(w, released(ev), t);
        if (ev->code == TTF_SOP_SIGNAL || ev->code == TTF_SOP_BROADCAST)
            mark(w, ev->addr, t);
        if (ev->code == TTF_SOP_CREATE && ev->sync_arg >= 0 && (size_t)ev->sync_arg < w->nt &&
            w->th[ev->sync_arg] > t)
            w->th[ev->sync_arg] = t;
        return;
    }
    int in = reached(w, acquired(ev, w->waitmx[x]), t) ||
             (ev->code == TTF_SOP_WOKE && reached(w, ev->addr, t));
    for (size_t j = 0; ev->code == TTF_SOP_JOIN && j < w->nt; j++)
        in |= w->tid[j] == ev->addr && w->th[j] <= t;
    if (in)
        w->th[x] = t;
}

/* Taint thread `from` of trace t at time `at` and carry it forward over
 * the sync operations of all threads, merged by time, up to `until`:
 * w->th[x] is when thread x was first reached. */
static int taint_walk(const ttf_trace *t, uint32_t from, uint64_t at, uint64_t until, taint *w)
{
    size_t nt = w->nt;
    ttdi_walk *wk = calloc(nt + 1, sizeof *wk);
    int *live = calloc(nt + 1, sizeof *live);
    int rc = wk && live ? 0 : TT_ENOMEM;

    for (size_t x = 0; x < nt; x++)
        w->th[x] = UINT64_MAX;
    w->th[from] = at;
    for (uint32_t x = 0; x < nt && rc >= 0; x++) {
        if ((rc = ttdi_walk_raw(&wk[x], t, x)) < 0)
            break;
        const ttf_event *ev = &wk[x].ev;
        while ((rc = ttdi_walk_next(&wk[x])) > 0 && ev->time_ns < at) {
            if (ev->kind == TTF_EV_SYNC_OP && ev->code == TTF_SOP_WAIT)
                w->waitmx[x] = (uint64_t)ev->sync_arg;
            if (ev->kind == TTF_EV_SYNC_OP && ev->code == TTF_SOP_CREATE)
                tstep(w, ev);
        }
        live[x] = rc > 0;
    }
    while (rc >= 0) {
        size_t m = nt;
        for (size_t x = 0; x < nt; x++)
            if (live[x] && wk[x].ev.time_ns <= until &&
                (m == nt || wk[x].ev.time_ns < wk[m].ev.time_ns))
                m = x;
        if (m == nt)
            break;
        if (wk[m].ev.kind == TTF_EV_SYNC_OP)
            tstep(w, &wk[m].ev);
        rc = ttdi_walk_next(&wk[m]);
        live[m] = rc > 0;
    }
    for (size_t x = 0; wk && x < nt; x++)
        ttdi_walk_close(&wk[x]);
    free(wk);
    free(live);
    return rc < 0 ? rc : 0;
}

/* ---- the first divergence ------------------------------------------------ */

/* 1 if the bad run's sync operations can be walked: recorded, and not too
 * many threads for the walks. */
static int walkable(const ttdi_in *in)
{
    return in->r[TTD_BAD].nt <= TTDI_HB_THREADS &&
           (ttf_get_header(in->r[TTD_BAD].t)->optional_features & TTF_HEADER_SYNC);
}

/* Whether hunk h only says its bad thread ran out of events (cut off by
 * the end of the process: hunks.c times it at that end): no split of its
 * own to put first. */
static int cut_off(const ttdi_in *in, const ttd_hunk_info *h)
{
    return !h->bad_count && h->bad_index >= in->s->ip[h->pair].n[1];
}

/* Candidates: the first divergence of each other pair (hunks sorted), at
 * most NEAR_MAX, as indexes into r->hunks; a pair whose first is a cut
 * has none. */
static size_t others(const ttdi_in *in, const ttdi_resolved *r, size_t *k)
{
    size_t n = 0;

    for (size_t i = 1; i < r->nhunks && n < NEAR_MAX; i++) {
        const ttd_hunk_info *h = &r->hunks[i];
        int first = !h->expected && !h->timing && h->pair != r->hunks[0].pair;
        for (size_t j = 1; j < i && first; j++)
            first = r->hunks[j].pair != h->pair || r->hunks[j].expected || r->hunks[j].timing;
        if (first && !cut_off(in, h))
            k[n++] = i;
    }
    return n;
}

/* 1 if the innermost frame at hunk h's split in the bad run is a
 * function whose code changed between the two builds, else 0 (or a TT_E*
 * code). */
static int frame_changed(const ttdi_in *in, const ttd_hunk_info *h)
{
    ttdi_pass_spec ps = {0};
    int rc;

    if (!in->cd || !ttdi_codediff_count(in->cd))
        return 0;
    ps.stack_at = h->bad_index;
    if ((rc = ttdi_run_pass(in, TTD_BAD, in->s->ip[h->pair].t[1], &ps)) < 0 || !ps.nstack) {
        free(ps.stack);
        return rc < 0 ? rc : 0;
    }
    const ttdi_frame_id *f = &ps.stack[ps.nstack - 1];
    const char *name = f->addr ? ttdi_norm_func_at(&in->r[TTD_BAD].norm, f->addr, 0, f->time_ns)
                               : NULL;
    rc = name && ttdi_codediff_changed(in->cd, name) == 1;
    free(ps.stack);
    return rc;
}

/* Among the candidates k[0..n), the first whose divergence is its own:
 * in code that changed between the builds (the strongest clue there is),
 * or neither reached from the first split (w) nor following the
 * progress; its index in r->hunks, 0 for none, or a TT_E* code. */
static int64_t independent(const ttdi_in *in, const ttdi_resolved *r, const size_t *k, size_t n,
                           const taint *w, int *why)
{
    for (size_t j = 0; j < n; j++) {
        opoint pc[2];
        const ttd_hunk_info *h = &r->hunks[k[j]];
        int64_t rc = points(in, r, h, pc);
        if (rc < 0)
            return rc;
        *why = TTD_ORDER_CHANGED;
        if ((rc = frame_changed(in, h)) != 0)
            return rc < 0 ? rc : (int64_t)k[j];
        *why = TTD_ORDER_UNORDERED;
        if (w->th[pc[1].th] <= pc[1].at_ns)
            continue;           /* the first split may have led to it */
        int64_t dep;
        if ((rc = depends(in, h->pair, pc, &dep)) < 0)
            return rc;
        if (dep == -1)
            return (int64_t)k[j];
    }
    return 0;
}

/* ---- the clock's bounds -------------------------------------------------- */

/* 1 if the times of a and b overlap: either may have come first. */
static int overlap(const ttd_hunk_info *a, const ttd_hunk_info *b)
{
    return !(a->late_ns < b->early_ns || b->late_ns < a->early_ns);
}

/* The bad run's thread where it failed: the one that crashed, else the
 * one that ended the process; -1 if unknown. */
static int64_t symptom_thread(const ttdi_in *in)
{
    const ttf_process *pr = ttf_get_process(in->r[TTD_BAD].t);

    if (in->r[TTD_BAD].crash_thread >= 0)
        return in->r[TTD_BAD].crash_thread;
    return pr ? pr->exit_thread : -1;
}

/* A copy of r's hunks with hunks[i] put first, into out. */
static ttd_hunk_info *put_first(const ttdi_in *in, const ttdi_resolved *r, size_t i,
                                ttdi_resolved *out)
{
    ttd_hunk_info *hs = ttfi_arena_alloc(in->arena, (r->nhunks + 1) * sizeof *hs);

    if (!hs)
        return NULL;
    memcpy(hs, r->hunks, r->nhunks * sizeof *hs);
    ttd_hunk_info first = hs[i];
    memmove(hs + 1, hs, i * sizeof *hs);
    hs[0] = first;
    out->hunks = hs;
    return hs;
}

/* The first divergence by the clock's bounds (issue 33). Hunks are sorted
 * by the bad run's time, which on a lazy-clock trace is an estimate
 * between two measured times. Another pair's first divergence whose
 * bounds overlap the first's may have come before it: the order between
 * them is not known from the clock. Happens-before cannot tell either:
 * sync operations are measured records, so one after split a that
 * reaches b's thread before split b puts a's latest bound at or before
 * b's earliest (no overlap). What holds without time decides: the thread
 * the bad run failed in goes first (TTD_CLOCK_SYMPTOM: the symptom is
 * there), else the estimates' order stands (TTD_CLOCK_ESTIMATE); either
 * way the first says so (clock_order, clock_pair) and the report tells
 * that the order is not the clock's. */
static int by_bounds(const ttdi_in *in, const ttdi_resolved *r, ttdi_resolved *out)
{
    size_t k[NEAR_MAX], c[NEAR_MAX], m = 0;
    const ttd_hunk_info *h0 = r->hunks;

    *out = *r;
    if (r->nhunks < 2 || h0->expected || h0->timing || cut_off(in, h0))
        return 0;
    size_t n = others(in, r, k);
    for (size_t j = 0; j < n; j++)
        if (overlap(h0, &r->hunks[k[j]]))
            c[m++] = k[j];
    if (!m)
        return 0;
    int64_t st = symptom_thread(in);
    size_t first = 0, other = c[0];
    int why = TTD_CLOCK_ESTIMATE;
    if (st >= 0 && in->s->ip[h0->pair].t[1] == (uint32_t)st)
        why = TTD_CLOCK_SYMPTOM;
    for (size_t j = 0; j < m && why != TTD_CLOCK_SYMPTOM; j++)
        if (st >= 0 && in->s->ip[r->hunks[c[j]].pair].t[1] == (uint32_t)st) {
            first = c[j];
            other = 0;
            why = TTD_CLOCK_SYMPTOM;
        }
    ttd_hunk_info *hs = put_first(in, r, first, out);
    if (!hs)
        return TT_ENOMEM;
    hs[0].clock_order = why;
    hs[0].clock_pair = r->hunks[other].pair;
    return 0;
}

/* 1 when hunk h's thread left its loop first in one run: from the split
 * on, that run's thread made fewer calls, here and to its end, than the
 * other run's and then ended by itself (returned from its start routine:
 * not the main thread, whose end is the process's, nor one that crashed
 * or was cut off), while the other run's thread went around its loop
 * again or had not ended. A thread that stops working in one run has
 * decided to stop on what it read, whatever lock it read it under: the
 * work the other run's thread still did is missing from this run, and
 * the other threads' later splits (a queue nobody drains, a join that
 * waits) follow from that stop, not the other way round. So it is kept
 * first, not put after another thread's split by the progress rule. */
static int left_side(const ttdi_in *in, const ttd_hunk_info *h)
{
    const ttdi_ipair *p = &in->s->ip[h->pair];
    uint64_t idx[2] = {h->good_index, h->bad_index};
    uint64_t cnt[2] = {h->good_count, h->bad_count};
    uint64_t rest[2];

    for (int ri = 0; ri < 2; ri++)
        rest[ri] = p->n[ri] > idx[ri] ? p->n[ri] - idx[ri] : 0;
    for (int x = 0; x < 2; x++) {
        const ttf_thread *th = ttf_get_thread(in->r[x].t, p->t[x]);
        const ttf_process *pr = ttf_get_process(in->r[x].t);
        int own_end = th && th->ended && !th->cut && th->index != 0 &&
                      in->r[x].crash_thread != (int64_t)p->t[x] &&
                      !(pr && pr->exit_thread == (int64_t)p->t[x]);
        if (own_end && rest[x] < rest[!x] && cnt[x] < cnt[!x])
            return x;
    }
    return -1;
}

/* Whether r's hunk i is a wait loop's (timing.c: TTD_TIMING_WAIT) of
 * another pair than the first divergence h0's, before h0 in the bad
 * run's time, whose thread left its loop first in run x (left_side) and
 * had ended there before h0 (in run x's time), while run !x's thread was
 * still running at h0: its loop did not wait more or fewer times, its
 * thread stopped while the other run's went on (kyotocabinet's workers,
 * whose task is a 50 ms sleep: their turns wait). */
static int left_hidden(const ttdi_in *in, const ttdi_resolved *r, size_t i)
{
    const ttd_hunk_info *h0 = &r->hunks[0], *h = &r->hunks[i];
    uint64_t at[2] = {h0->good_time_ns, h0->time_ns};

    if (h->timing != TTD_TIMING_WAIT || h->expected || h->pair == h0->pair ||
        h->time_ns >= h0->time_ns)
        return 0;
    int x = left_side(in, h);
    const ttdi_ipair *p = &in->s->ip[h->pair];
    const ttf_thread *tx = x >= 0 ? ttf_get_thread(in->r[x].t, p->t[x]) : NULL;
    const ttf_thread *ty = x >= 0 ? ttf_get_thread(in->r[!x].t, p->t[!x]) : NULL;
    return tx && ty && tx->end_ns < at[x] && (!ty->ended || ty->end_ns > at[!x]);
}

/* r with its wait loops' hunks that left_hidden finds counted as
 * divergences again (no longer timing-shaped), sorted, into out (r
 * itself when there are none). 0 or TT_ENOMEM. */
static int unhide(const ttdi_in *in, const ttdi_resolved *r, ttdi_resolved *out)
{
    ttd_hunk_info *nh = NULL;
    ttd_pair *np = NULL;

    *out = *r;
    if (r->nhunks < 2 || r->hunks[0].expected || r->hunks[0].timing || !walkable(in))
        return 0;
    for (size_t k = 1; k < r->nhunks; k++) {
        if (!left_hidden(in, r, k))
            continue;
        if (!nh) {
            nh = ttfi_arena_alloc(in->arena, r->nhunks * sizeof *nh);
            np = ttfi_arena_alloc(in->arena, r->npairs * sizeof *np);
            if (!nh || !np)
                return TT_ENOMEM;
            memcpy(nh, r->hunks, r->nhunks * sizeof *nh);
            memcpy(np, r->pairs, r->npairs * sizeof *np);
            out->hunks = nh;
            out->pairs = np;
        }
        nh[k].timing = TTD_TIMING_NONE;
        nh[k].waits = nh[k].wait_ns = 0;
        ttd_pair *p = &np[nh[k].pair];
        p->timing -= p->timing > 0;
        if (!p->hunks++ || nh[k].time_ns < p->first_time_ns)
            p->first_time_ns = nh[k].time_ns;
        out->ntiming -= out->ntiming > 0;
        out->timing_total -= out->timing_total > 0;
        out->hunks_total++;
    }
    if (nh)
        ttdi_hunks_sort(nh, r->nhunks);
    return 0;
}

/* The progress rule (the file's design comment) on r, sorted. */
static int settle(const ttdi_in *in, const ttdi_resolved *r, ttdi_resolved *out)
{
    size_t k[NEAR_MAX];
    opoint p0[2], pc[2];
    int64_t rc;

    *out = *r;
    if (r->nhunks < 2 || r->hunks[0].expected || r->hunks[0].timing || !walkable(in))
        return 0;
    size_t n = others(in, r, k);
    if (!n)
        return 0;
    const ttd_hunk_info *h0 = &r->hunks[0];
    if (left_side(in, h0) >= 0)
        return 0;       /* it stopped first: its own */
    if ((rc = frame_changed(in, h0)) != 0)
        return rc < 0 ? (int)rc : 0;    /* its own code changed: its own */
    if ((rc = points(in, r, h0, p0)) < 0)
        return (int)rc;
    uint64_t start = p0[1].at_ns;
    if (p0[1].at_ns != h0->time_ns) {
        /* the first difference is a value before the split: both count */
        opoint sp[2] = {{.th = p0[0].th, .from_ns = h0->good_time_ns,
                         .at_ns = h0->good_time_ns, .call = 1, .woke = p0[0].woke},
                        {.th = p0[1].th, .from_ns = h0->time_ns, .at_ns = h0->time_ns,
                         .call = 1, .woke = p0[1].woke}};
        int64_t vdep;
        if ((rc = depends(in, h0->pair, sp, &vdep)) < 0 || vdep < 0)
            return (int)rc;
    }
    int64_t dep;
    if ((rc = depends(in, h0->pair, p0, &dep)) < 0 || dep < 0)
        return (int)rc;
    uint64_t until = 0;
    int why = 0;
    for (size_t j = 0; j < n; j++) {
        if ((rc = points(in, r, &r->hunks[k[j]], pc)) < 0)
            return (int)rc;
        until = pc[1].at_ns > until ? pc[1].at_ns : until;
    }
    size_t nt = in->r[TTD_BAD].nt;
    taint w = {calloc(OBJ_SLOTS, sizeof(tslot)), calloc(nt + 1, sizeof(uint64_t)),
               calloc(nt + 1, sizeof(uint64_t)), calloc(nt + 1, sizeof(uint64_t)), nt};
    rc = w.obj && w.th && w.waitmx && w.tid ? 0 : TT_ENOMEM;
    if (rc >= 0)
        rc = taint_walk(in->r[TTD_BAD].t, p0[1].th, start, until, &w);
    if (rc >= 0)
        rc = independent(in, r, k, n, &w, &why);
    free(w.obj);
    free(w.th);
    free(w.waitmx);
    free(w.tid);
    if (rc <= 0)
        return (int)rc;
    ttd_hunk_info *hs = ttfi_arena_alloc(in->arena, (r->nhunks + 1) * sizeof *hs);
    if (!hs)
        return TT_ENOMEM;
    memcpy(hs, r->hunks, r->nhunks * sizeof *hs);
    ttd_hunk_info first = hs[rc];
    memmove(hs + 1, hs, (size_t)rc * sizeof *hs);
    hs[0] = first;
    hs[1].order_dep = why;
    hs[1].order_pair = (size_t)dep;
    hs[1].clock_order = 0;      /* the progress put the other first */
    out->hunks = hs;
    out->followed = &hs[1];
    return 0;
}

int ttdi_order_settle(const ttdi_in *in, const ttdi_resolved *r, ttdi_resolved *out)
{
    ttdi_resolved b, u;
    int rc = by_bounds(in, r, &b);

    if (rc >= 0)
        rc = unhide(in, &b, &u);
    return rc < 0 ? rc : settle(in, &u, out);
}

/* ---- runs that ended alike ------------------------------------------------ */

/* 1 when both runs ended by themselves with one exit status (no crash, no
 * failure known), with the same threads paired. */
static int ended_alike(const ttdi_in *in, const ttd_run_info runs[2], size_t nunpaired)
{
    const ttd_run_info *g = &runs[TTD_GOOD], *b = &runs[TTD_BAD];

    return g->closed && b->closed && !g->crash && !b->crash &&
           g->exit_status == b->exit_status && !in->o->bad_failed && !nunpaired;
}

static int vdiff_noise(const ttdi_vdiff *v)
{
    const ttf_signature *sig = v->sig;

    if (!sig)
        return 0;
    if (v->what == TTD_VAL_RETURN)
        return ttdi_value_noise(&sig->ret, v->ev[0].retval, v->ev[1].retval, NULL, 1) != 0;
    if (v->arg < 0 || (size_t)v->arg >= sig->nparams)
        return 0;
    const ttf_param *p = &sig->params[v->arg];
    return p->reg >= 0 && p->reg < TTF_VALUE_REGS &&
           ttdi_value_noise(&p->type, v->ev[0].argregs[p->reg], v->ev[1].argregs[p->reg],
                            NULL, 0) != 0;
}

/* Pair pi's first differing value that is not noise by its own look (a
 * clock, an address, a time stamp: ttdi_value_noise): no input decided
 * such a value, so it is not where the thread went its own way (libuv's
 * uv__hrtime read before post() found the worker idle or not). Past a
 * noisy first value, the first differing return value that is not noise
 * (values.c keeps the returns; an argument computed from a noisy one is
 * passed over with it). NULL: none, or not values mode. */
static const ttdi_vdiff *first_value(const ttdi_in *in, size_t pi)
{
    const ttdi_vfound *f = &in->s->ip[pi].vf;

    if (!in->values || !f->found)
        return NULL;
    if (!vdiff_noise(&f->first))
        return &f->first;
    for (size_t i = 0; i < f->nrets; i++)
        if (!vdiff_noise(&f->rets[i]))
            return &f->rets[i];
    return NULL;
}

/* Whether pair pi's first difference follows the progress: its first
 * divergence h (NULL: none) as a split of the calls, or, when values
 * differ before it (or only values differ), its first value difference
 * through the locks its thread held there or took since it last woke up
 * (a count of bytes ready, read under a job's lock after a wait). 1, 0,
 * or a TT_E* code. */
static int follows(const ttdi_in *in, const ttdi_resolved *r, size_t pi,
                   const ttd_hunk_info *h)
{
    const ttdi_vdiff *f = first_value(in, pi);
    opoint pt[2];
    int64_t rc;

    if (f && (!h || f->ev[1].time_ns < h->time_ns)) {
        for (int ri = 0; ri < 2; ri++)
            pt[ri] = (opoint){.th = in->s->ip[pi].t[ri], .from_ns = f->ev[ri].time_ns,
                              .at_ns = f->ev[ri].time_ns, .call = 0,
                              .woke = in->s->ip[pi].pool < 0};
    } else if (!h) {
        return 0;
    } else if ((rc = points(in, r, h, pt)) < 0) {
        return (int)rc;
    }
    int64_t dep;
    if ((rc = depends(in, pi, pt, &dep)) < 0)
        return (int)rc;
    return dep >= 0;
}

/* 1 when a thread of some pair was joined in one run and not in the
 * other (pbzip2's writer joined in the good run, detached in the bad
 * one): the threads did not only get more or less far, the program waited
 * for one in one run only. 0, or a TT_E* code. */
static int join_differs(const ttdi_in *in)
{
    size_t n[2] = {ttf_thread_count(in->r[0].t), ttf_thread_count(in->r[1].t)};
    uint8_t *j[2] = {calloc(n[0] + 1, 1), calloc(n[1] + 1, 1)};
    int rc = j[0] && j[1] ? 0 : TT_ENOMEM;

    for (int ri = 0; ri < 2 && rc >= 0; ri++)
        rc = ttdi_joined_threads(in->r[ri].t, j[ri], n[ri]);
    for (size_t i = 0; i < in->s->nip && rc == 0; i++) {
        const uint32_t *t = in->s->ip[i].t;
        rc = t[0] < n[0] && t[1] < n[1] && j[0][t[0]] != j[1][t[1]];
    }
    free(j[0]);
    free(j[1]);
    return rc;
}

int ttdi_order_progress(const ttdi_in *in, const ttdi_resolved *r, const ttd_run_info runs[2],
                        size_t nunpaired, ttdi_resolved *out)
{
    const ttd_hunk_info *hs = r->hunks;
    size_t ndiv = r->nhunks - r->nexpected - r->ntiming, nvals = 0;

    for (size_t i = 0; in->values && i < in->s->nip; i++)
        nvals += in->s->ip[i].vf.found != 0;
    *out = *r;
    if ((!ndiv && !nvals) || !ended_alike(in, runs, nunpaired) || !walkable(in))
        return 0;
    for (size_t pi = 0; pi < in->s->nip; pi++) {
        const ttd_hunk_info *h = NULL;
        for (size_t i = 0; i < ndiv && !h; i++)
            h = hs[i].pair == pi ? &hs[i] : NULL;
        if (!h && !first_value(in, pi))
            continue;
        int rc = follows(in, r, pi, h);
        if (rc <= 0)
            return rc;          /* a thread that went its own way: a divergence */
    }
    int jd = join_differs(in);
    if (jd != 0)
        return jd < 0 ? jd : 0;
    ttd_hunk_info *nh = ttfi_arena_alloc(in->arena, r->nhunks * sizeof *nh);
    ttd_pair *np = ttfi_arena_alloc(in->arena, r->npairs * sizeof *np);
    if (!nh || !np)
        return TT_ENOMEM;
    memcpy(nh, r->hunks, r->nhunks * sizeof *nh);
    memcpy(np, r->pairs, r->npairs * sizeof *np);
    for (size_t i = 0; i < ndiv; i++) {
        nh[i].timing = TTD_TIMING_PROGRESS;
        nh[i].order_dep = 0;
    }
    for (size_t i = 0; i < r->npairs; i++) {
        ttd_pair *p = &np[i];
        p->timing += p->hunks;
        p->hunks = 0;
        p->first_time_ns = 0;
    }
    out->hunks = nh;
    out->pairs = np;
    out->timing_total += r->hunks_total;
    out->hunks_total = 0;
    out->ntiming += ndiv;
    out->followed = NULL;
    out->values_progress = nvals;
    ttdi_hunks_sort(nh, r->nhunks);
    return 0;
}
