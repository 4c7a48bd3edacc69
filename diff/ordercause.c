/*
 * ordercause.c - when the threads' order is the cause (issue 33 item 2).
 * Stage 3 explain of diff/STAGES (its header: explain.h).
 *
 * Design. Thread order differs between two runs of most threaded
 * programs without being why they part: workers take a queue's lock in
 * another order, the consumer gets the same items. So an order difference
 * alone is no evidence (in 4 of the 5 threaded cases of make realbugs'
 * dev half the order differed and was not the cause). It is the cause
 * when the split can have read nothing else: the interleave's first
 * object whose operations came in another thread order is a lock or a
 * condition, and
 *   - the two threads swapped there are the split's thread S and another
 *     thread T (not two other threads: that is the workers' case; the
 *     workers of one pool, S aside, are one thread in that order
 *     (engine.c order_who), so two look-alike workers that took a lock
 *     in the other order hide no later swap of S and a worker);
 *   - S's last operation before its calls part was on that object: what
 *     it decided, it read under it;
 *   - the swap is at that last critical section, not at an earlier one
 *     (a thread that polls under the lock saw the other's first visit at
 *     another turn, then many turns alike): after the bad run's operation
 *     at the swapped place, S took the object no more (its own operation
 *     went first) or once (the other's did: S's next look read it), as
 *     far as the window of last operations shows (else no cause);
 *   - T made the same calls in both runs up to the split (no hunk of its
 *     own before it, timing aside): it did nothing else, only at another
 *     time;
 *   - and the verdict has nothing better: the first suspect is only the
 *     split's own branch (no value on the chain, no code changed), no race
 *     reaches the symptom (verdict.c asks these).
 * Then the runs differ by that order alone, before the split: an order
 * violation (S went ahead of T's publication: a use before an
 * initialisation) or T came in between (a reset, a cancel racing a
 * worker). Which one decides what the verdict names: S's function when S
 * went first in the bad run (it did not wait), T's when T did (its
 * operation came in between). A condition or thread operation that orders
 * the two (a join) would have shown as a different operation count, not a
 * swap; that case, and values that differ under the lock, stay with the
 * other rules.
 * In values mode the split's branch often tests what a getter returned
 * under the lock (`lock; p = config_port(); unlock; if (p < 0) fail`):
 * the first divergence is then that value, and the value rules name the
 * getter (it returned -1, an error, in the bad run only). The getter read
 * what the other thread had or had not published yet, so when the order
 * conditions above hold and the getter's call returned while S held the
 * swapped object in both runs (S's last operation on it before the
 * return was an acquisition, in each run's window), the order is the
 * cause and the value its evidence (ttdi_order_cause_getter). A getter
 * called outside that critical section, or whose value came first in
 * another thread, stays the value's cause.
 * A condition's order has a shape of its own: a signal wakes only a
 * thread already waiting, so a signal sent before the waiter waits is
 * lost, and the wait then ends by its timeout (or never). When, in the
 * bad run's window, the split's thread S last acquired something at the
 * return of a wait on condition C, nobody signalled C during that wait,
 * and another thread T had signalled C before it began; and in the good
 * run S's wait on C came first and T's signal ended it (T made the same
 * calls in both runs up to the split), the cause is that order: a lost
 * wake-up (ttdi_lost_wakeup_find), the waiter named (its wait needs a
 * state to test before it waits, or the signaller one to set).
 * Which side is wrong shows in the waiter's lock. A condition's state is
 * tested and changed under its mutex, so a signaller that holds it can
 * signal only before the waiter's check (the waiter then finds the state
 * set, if it tests one) or during its wait (which the signal ends). When
 * in the bad run the waiter S held a lock from before T's signal through
 * to its wait (its last acquisition came before the signal, no release
 * between), the signal came between S's check and its wait, inside S's
 * critical section: T signalled, and changed what S tests, without that
 * lock, and no predicate loop in S can catch it. Then the signaller is
 * named (ttdi_order_cause.held; kind race in the verdict), else the
 * waiter (it waits without a state to test). In values
 * mode the wait's answer (ETIMEDOUT) is passed up and is the first
 * divergence: it counts when it was returned after the wait returned.
 * Behind an order cause where S went ahead on a mutex there can be an
 * atomicity violation (a check-then-act across two critical sections: a
 * get-or-create that looks up under the lock, unlocks, makes, and inserts
 * under the lock again), and then neither S's function nor T's is the
 * cause: the function whose two sections should have been one is
 * (ttdi_order_atomic). It is named when, in the bad run,
 *   - T was between two critical sections on that mutex at S's operation:
 *     its last acquisition before it (the check's) and its next after it
 *     (the act's), with a call open from the one through the other; the
 *     innermost such call is F's;
 *   - the two sections were taken by two functions (each named past lock
 *     wrappers): a check and an act, not one operation repeated (a loop
 *     that takes the lock once a turn is between two sections always);
 *   - S's operation was inside a call of F too (S checked the same way);
 * and, must not, in the good run, at S's last acquisition of the mutex
 * before its split, T was not between two sections in a call of F (the
 * ordercause swap already says T's two sections came before S's there:
 * this rules out a later pair of them, as a loop's). F, kind race,
 * "possible": the trace shows the two sections and the other thread's
 * between them, not what they read and wrote. Cost: a run walk of S from
 * the mark before its operation to it, and two of T (the bad run and the
 * good one) from the mark before its check's acquisition to its act's, at
 * most AT_READ events each: the sync records the run walks kept (the
 * timing scan's, the thread order's) find the acquisitions, the walks
 * only the stacks. Not judged: T came in between (other_first: S's own
 * two sections split by T's) -- the same shape seen from the other side,
 * left for a case that shows it.
 */
#include <stdint.h>
#include <string.h>

#include "explain.h"

/* Thread pair p has a hunk of its own (not timing, not expected) that
 * starts before ns in the bad run. */
static int diverged_before(const ttd_result *r, size_t p, uint64_t ns)
{
    for (size_t i = 0; i < r->nhunks; i++) {
        const ttd_hunk_info *h = &r->hunks[i];
        if (h->pair == p && !h->timing && !h->expected && h->time_ns < ns)
            return 1;
    }
    return 0;
}

/* Is e an operation on obj? */
static int on(const ttd_xev *e, const char *obj)
{
    return e->object && strcmp(e->object, obj) == 0;
}

/* Pair s's last operation in the bad run's window before the split was
 * on object obj. */
static int last_op_on(const ttd_interleave *il, int64_t s, const char *obj)
{
    for (size_t i = il->nwindow[1]; i-- > 0;) {
        const ttd_xev *e = &il->window[1][i];
        if (e->pair == s && e->kind == TTF_EV_SYNC_OP)
            return on(e, obj);
    }
    return 0;
}

/* Is e's operation an acquisition: a lock, a trylock, a condition's
 * wake-up (its mutex taken again)? */
static int acquires(const ttd_xev *e)
{
    return e->op == TTF_SOP_LOCK || e->op == TTF_SOP_TRYLOCK || e->op == TTF_SOP_WOKE;
}

/* Pair s's acquisitions of obj (lock, trylock, a condition's wake-up)
 * after ns in the bad run's window; -1 when the window does not reach
 * back to ns (it cannot tell). */
static int64_t taken_after(const ttd_interleave *il, int64_t s, const char *obj, uint64_t ns)
{
    int64_t n = 0;

    if (!il->nwindow[1] || il->window[1][0].time_ns > ns)
        return -1;
    for (size_t i = 0; i < il->nwindow[1]; i++) {
        const ttd_xev *e = &il->window[1][i];
        n += e->pair == s && e->time_ns > ns && on(e, obj) && acquires(e);
    }
    return n;
}

static int lock_or_cond(const char *obj)
{
    return obj && (strncmp(obj, "mutex#", 6) == 0 || strncmp(obj, "cond#", 5) == 0);
}

int ttdi_order_cause_find(const ttd_result *r, ttdi_order_cause *out)
{
    const ttd_divergence *d = r->first;
    const ttd_interleave *il = d ? d->interleave : NULL;

    memset(out, 0, sizeof *out);
    if (!il || !il->order_differs || !lock_or_cond(il->order_object) ||
        !il->order[0].kind || !il->order[1].kind || il->order[0].pair == il->order[1].pair)
        return 0;
    int64_t s = (int64_t)d->pair;
    int bad_s = il->order[1].pair == s;     /* S's operation came first in the bad run */
    if (!bad_s && il->order[0].pair != s)
        return 0;                           /* two other threads swapped */
    const ttd_xev *t = &il->order[bad_s ? 0 : 1];
    if (t->pair < 0 || (size_t)t->pair >= r->npairs ||
        diverged_before(r, (size_t)t->pair, d->bad_time_ns) ||
        !last_op_on(il, s, il->order_object))
        return 0;
    /* the swap is at S's last critical section: S took the object no more
     * after its own swapped operation, or once after the other's */
    if (taken_after(il, s, il->order_object, il->order[1].time_ns) != (bad_s ? 0 : 1))
        return 0;
    out->self = &il->order[bad_s ? 1 : 0];
    out->other = t;
    out->other_first = !bad_s;
    out->object = il->order_object;
    return 1;
}

/* Pair s held obj at time ns of run k: its last operation on obj up to
 * ns in the window was an acquisition (the window reaching back to it). */
static int held_at(const ttd_interleave *il, int k, int64_t s, const char *obj, uint64_t ns)
{
    for (size_t i = il->nwindow[k]; i-- > 0;) {
        const ttd_xev *e = &il->window[k][i];
        if (e->pair == s && e->kind == TTF_EV_SYNC_OP && e->time_ns <= ns && on(e, obj))
            return acquires(e);
    }
    return 0;
}

int ttdi_order_cause_getter(const ttd_result *r, const ttdi_order_cause *o,
                            const ttd_value_diff *v)
{
    const ttd_divergence *d = r->first;
    const ttd_interleave *il = d ? d->interleave : NULL;

    if (!il || !v || v->what != TTD_VAL_RETURN || !v->before_split || v->pair != d->pair)
        return 0;
    return held_at(il, 0, (int64_t)v->pair, o->object, v->good_time_ns) &&
           held_at(il, 1, (int64_t)v->pair, o->object, v->bad_time_ns);
}

/* Did pair q other than s operate on obj in run k's window? */
static int others_on(const ttd_interleave *il, int k, int64_t s, const char *obj)
{
    for (size_t i = 0; i < il->nwindow[k]; i++)
        if (il->window[k][i].pair != s && on(&il->window[k][i], obj))
            return 1;
    return 0;
}

const char *ttdi_shared_lock_held(const ttd_result *r, size_t pair, uint64_t bad_ns)
{
    const ttd_interleave *il = r->first ? r->first->interleave : NULL;

    for (size_t i = 0; il && i < il->nwindow[1]; i++) {
        const ttd_xev *e = &il->window[1][i];
        if (e->pair != (int64_t)pair || e->time_ns > bad_ns || !acquires(e) ||
            !lock_or_cond(e->object))
            continue;
        if (held_at(il, 1, e->pair, e->object, bad_ns) && others_on(il, 1, e->pair, e->object))
            return e->object;
    }
    return NULL;
}

/* ---- lost wake-ups ------------------------------------------------------------ */

static int is_signal(const ttd_xev *e)
{
    return e->kind == TTF_EV_SYNC_OP && (e->op == TTF_SOP_SIGNAL || e->op == TTF_SOP_BROADCAST);
}

/* In run k's window: pair s's last acquisition before the split, when it
 * is the return of a wait on a condition (*woke, *wait: its index and
 * that of s's wait on the same condition before it). 0 if not. */
static int last_wait(const ttd_interleave *il, int k, int64_t s, size_t *woke, size_t *wait)
{
    const ttd_xev *w = il->window[k];
    size_t i = il->nwindow[k];

    while (i-- > 0)
        if (w[i].pair == s && w[i].kind == TTF_EV_SYNC_OP && acquires(&w[i]))
            break;
    if (i == SIZE_MAX || w[i].op != TTF_SOP_WOKE || !w[i].object)
        return 0;
    *woke = i;
    while (i-- > 0)
        if (w[i].pair == s && w[i].op == TTF_SOP_WAIT && on(&w[i], w[*woke].object)) {
            *wait = i;
            return 1;
        }
    return 0;
}

/* The last signal of obj in run k's window within [from, to), by a
 * pair other than s; SIZE_MAX if none. */
static size_t signal_in(const ttd_interleave *il, int k, const char *obj, int64_t s, size_t from,
                        size_t to)
{
    for (size_t i = to; i-- > from;)
        if (is_signal(&il->window[k][i]) && on(&il->window[k][i], obj) &&
            il->window[k][i].pair != s)
            return i;
    return SIZE_MAX;
}

/* In run k's window: pair s's last acquisition before its wait at
 * index wait when it came before index before and s released nothing
 * between it and the wait (s held a lock from before `before` through
 * to its wait: a mutex or a condition's wake-up); SIZE_MAX if not. */
static size_t held_across(const ttd_interleave *il, int k, int64_t s, size_t before, size_t wait)
{
    const ttd_xev *w = il->window[k];

    for (size_t i = wait; i-- > 0;) {
        if (w[i].pair != s || w[i].kind != TTF_EV_SYNC_OP)
            continue;
        if (w[i].op == TTF_SOP_UNLOCK || w[i].op == TTF_SOP_WAIT)
            return SIZE_MAX;
        if (acquires(&w[i]))
            return i < before ? i : SIZE_MAX;
    }
    return SIZE_MAX;
}

int ttdi_lost_wakeup_find(const ttd_result *r, const ttd_value_diff *v, ttdi_order_cause *out)
{
    const ttd_divergence *d = r->first;
    const ttd_interleave *il = d ? d->interleave : NULL;
    size_t bw, bi, gw, gi;

    memset(out, 0, sizeof *out);
    if (!il || !last_wait(il, 1, (int64_t)d->pair, &bw, &bi) ||
        !last_wait(il, 0, (int64_t)d->pair, &gw, &gi))
        return 0;
    int64_t s = (int64_t)d->pair;
    const ttd_xev *b = il->window[1], *g = il->window[0];
    const char *obj = b[bw].object;
    size_t early = signal_in(il, 1, obj, s, 0, bi);     /* before the bad wait */
    size_t ended = signal_in(il, 0, obj, s, gi, gw);    /* during the good wait */
    if (!on(&g[gw], obj) || signal_in(il, 1, obj, s, bi, bw) != SIZE_MAX ||
        early == SIZE_MAX || ended == SIZE_MAX || b[early].pair != g[ended].pair ||
        b[early].pair < 0 || (size_t)b[early].pair >= r->npairs ||
        diverged_before(r, (size_t)b[early].pair, d->bad_time_ns))
        return 0;
    if (v && (v->what != TTD_VAL_RETURN || v->pair != d->pair || v->bad_time_ns < b[bw].time_ns))
        return 0;
    out->self = &b[bi];
    out->other = &b[early];
    out->other_first = 1;
    out->object = obj;
    out->lost = 1;
    out->woke = &b[bw];
    size_t h = held_across(il, 1, s, early, bi);
    out->held = h == SIZE_MAX ? NULL : &b[h];
    return 1;
}

/* ---- a check-then-act split across two critical sections ----------------- */

#define AT_READ (1u << 20)      /* events a walk reads to find a section */
#define AT_DEPTH 256            /* frames of the taker's stack looked at */

/* Did e take a mutex (a lock, a trylock that got it)? */
static int took(const ttf_event *e)
{
    return e->kind == TTF_EV_SYNC_OP && ttdi_sop_took(e->code, e->sync_arg);
}

static int took_rec(const ttdi_syncrec *r)
{
    return ttdi_sop_took(ttdi_sr_code(r), r->sync_arg);
}

/* The function walk w's current operation is named by: its innermost
 * open call that is not a lock wrapper (ttdi_lock_caller's rule), "". */
static const char *named_by(ttdi_walk *w)
{
    for (size_t i = w->nstack; i-- > 0;) {
        const char *n = ttdi_walk_frame_name(w, &w->stack[i]);
        if (n && !ttdi_lock_wrapper(n))
            return n;
    }
    return "";
}

/* Read walk w on to its thread's next acquisition of mutex l (any mutex:
 * l 0), at time at exactly when at is not 0, at most AT_READ events; *lo
 * the lowest depth its stack had on the way. 1 there (w at it), 0 when
 * not found, or a TT_E* code. */
static int to_taken(ttdi_walk *w, uint64_t l, uint64_t at, size_t *lo)
{
    uint64_t n = 0;
    int rc;

    while ((rc = ttdi_walk_next(w)) > 0 && ++n <= AT_READ) {
        const ttf_event *e = &w->ev;
        if (at && e->time_ns > at)
            return 0;
        if (took(e) && (!l || e->addr == l) && (!at || e->time_ns == at))
            return 1;
        if (w->pending && (e->kind == TTF_EV_ENTER || e->kind == TTF_EV_EXIT)) {
            size_t k = ttdi_walk_depth_after(w);
            if (k < *lo)
                *lo = k;
        }
    }
    return rc < 0 ? rc : 0;
}

/* A run walk of thread th of run r opened before time ns and read to its
 * acquisition of mutex l (0: any) at ns: 1 (w open, at it), 0 when not
 * found (w closed), or a TT_E* code (w closed). */
static int open_taken(ttdi_walk *w, ttdi_run_state *r, uint32_t th, uint64_t l, uint64_t ns)
{
    size_t lo = SIZE_MAX;
    int rc = ttdi_walk_open_at(w, r, th, UINT64_MAX, ns ? ns - 1 : 0, 0);

    if (rc < 0)
        return rc;
    if ((rc = to_taken(w, l, ns, &lo)) != 1)
        ttdi_walk_close(w);
    return rc;
}

/* One thread's two critical sections on a mutex around a time. */
typedef struct asect {
    uint64_t check_ns, act_ns;  /* their acquisitions */
    const char *check, *act;    /* the functions each is named by */
    const char *f;              /* the innermost call open from the first
                                   through the second */
    int has;                    /* 1: a call of `want` was open through both */
} asect;

/* Thread th of run r between two critical sections on mutex l at time y:
 * its last acquisition of l before y and its next one after it (run walks
 * from the marks, AT_READ events at most each), the calls open through
 * both. 1 with *s, 0 when not (or it cannot tell), or a TT_E* code. */
static int between(ttdi_run_state *r, uint32_t th, uint64_t l, uint64_t y, const char *want,
                   asect *s)
{
    const ttdi_syncrec *rec;
    size_t n = 0, c = SIZE_MAX, lo;
    ttdi_walk w;
    int rc;

    memset(s, 0, sizeof *s);
    if (!ttdi_walk_syncs(r, th, y, &rec, &n))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (rec[i].addr == l && took_rec(&rec[i]) && ttdi_sr_ns(r->t, &rec[i]) < y)
            c = i;
    if (c == SIZE_MAX || (rc = open_taken(&w, r, th, l, ttdi_sr_ns(r->t, &rec[c]))) != 1)
        return c == SIZE_MAX ? 0 : rc;
    s->check_ns = w.ev.time_ns;
    s->check = named_by(&w);
    lo = w.nstack;
    if ((rc = to_taken(&w, l, 0, &lo)) == 1 && w.ev.time_ns > y && lo > 0) {
        s->act_ns = w.ev.time_ns;
        s->act = named_by(&w);
        s->f = ttdi_walk_frame_name(&w, &w.stack[lo - 1]);
        for (size_t i = 0; want && i < lo; i++) {
            const char *nm = ttdi_walk_frame_name(&w, &w.stack[i]);
            s->has |= nm && !strcmp(nm, want);
        }
    }
    ttdi_walk_close(&w);
    return rc < 0 ? rc : s->act != NULL && s->f != NULL;
}

/* The address of the mutex thread th of run r took at time ns (its sync
 * records up to ns), 0 if none. */
static uint64_t taken_at(const ttdi_run_state *r, uint32_t th, uint64_t ns)
{
    const ttdi_syncrec *rec;
    size_t n = 0;

    if (!ttdi_walk_syncs(r, th, ns, &rec, &n))
        return 0;
    for (size_t i = n; i-- > 0;)
        if (ttdi_sr_ns(r->t, &rec[i]) == ns && took_rec(&rec[i]))
            return rec[i].addr;
    return 0;
}

/* Thread th of run r's last acquisition of mutex l up to ns (its sync
 * records), 0 if none. */
static uint64_t last_taken(const ttdi_run_state *r, uint32_t th, uint64_t l, uint64_t ns)
{
    const ttdi_syncrec *rec;
    size_t n = 0;

    if (!l || !ttdi_walk_syncs(r, th, ns, &rec, &n))
        return 0;
    for (size_t i = n; i-- > 0;)
        if (rec[i].addr == l && took_rec(&rec[i]) && ttdi_sr_ns(r->t, &rec[i]) <= ns)
            return ttdi_sr_ns(r->t, &rec[i]);
    return 0;
}

int ttdi_order_atomic(const ttdi_in *in, const ttd_result *r, const ttdi_order_cause *o,
                      ttdi_atomic *out)
{
    const ttd_divergence *d = r ? r->first : NULL;
    const char *fr[AT_DEPTH];
    size_t nf;
    ttdi_walk w;
    asect s, g;
    int rc;

    memset(out, 0, sizeof *out);
    if (!in || !d || !o || o->lost || o->other_first || !o->self || !o->other ||
        !o->object || strncmp(o->object, "mutex#", 6) != 0 || o->other->pair < 0 ||
        (size_t)o->other->pair >= r->npairs || !d->good_time_ns)
        return 0;
    ttdi_run_state *bad = &in->r[TTD_BAD], *good = &in->r[TTD_GOOD];
    size_t tp = (size_t)o->other->pair;
    uint32_t sb = r->pairs[d->pair].bad.index, tb = r->pairs[tp].bad.index;
    uint32_t sg = r->pairs[d->pair].good.index, tg = r->pairs[tp].good.index;
    uint64_t y = o->self->time_ns;
    /* the split's thread S at its operation: the mutex, the calls open */
    if ((rc = open_taken(&w, bad, sb, 0, y)) != 1)
        return rc;
    uint64_t l = w.ev.addr;
    nf = w.nstack < AT_DEPTH ? w.nstack : AT_DEPTH;
    for (size_t i = 0; i < nf; i++)
        fr[i] = ttdi_walk_frame_name(&w, &w.stack[i]);
    const char *sby = named_by(&w);
    ttdi_walk_close(&w);
    /* the other thread T between two sections on it, in one call, taken
     * by two functions (a check, an act: not one operation repeated) */
    if ((rc = between(bad, tb, l, y, NULL, &s)) != 1)
        return rc;
    if (!strcmp(s.check, s.act) || ttdi_lock_wrapper(s.f))
        return 0;
    size_t i = 0;
    while (i < nf && !(fr[i] && !strcmp(fr[i], s.f)))
        i++;
    if (i == nf)
        return 0;       /* S's operation was not inside a call of it */
    /* must not: in the good run, at S's last acquisition before its
     * split, T was between two sections in a call of that function too */
    uint64_t lg = taken_at(good, tg, o->other->time_ns);
    uint64_t yg = last_taken(good, sg, lg, d->good_time_ns);
    if (!lg || !yg)
        return 0;
    if ((rc = between(good, tg, lg, yg, s.f, &g)) < 0)
        return rc;
    if (rc == 1 && g.has)
        return 0;
    *out = (ttdi_atomic){1, s.f, s.check, s.act, sby, o->object, (int64_t)tp,
                         (int64_t)d->pair, s.check_ns, y, s.act_ns};
    return 1;
}
