/*
 * earlywait.c - a wait that returned before the work it waits for was
 * done (issue 33 item 4: a thread's order as the cause). Stage 3 explain
 * of diff/STAGES (its header: explain.h); the verdict (verdict.c) words
 * it.
 *
 * Design. A thread S that hands work to other threads and then waits for
 * it (a pool's join, a barrier, a "wait until idle") reads the results
 * when its wait returns. If the wait's condition says less than "the work
 * is done" (the queue is empty, not the workers idle; a count taken
 * before the work, not after), the wait returns while a worker is still
 * inside the work, and S reads what is not there yet. In a run where the
 * work was quick, or S came late, the work had ended before S waited,
 * and the same calls read a finished result: the runs part in S, at the
 * branch that read it, and that branch is not the defect. The trace
 * shows the shape; this rule names the wait when all of these hold:
 *   - in the bad run, S's last wait before the split returned (a
 *     condition's wake-up, a semaphore taken) in function J, and S made
 *     no operation after it but in J: what S did next it did on J's word;
 *   - in the good run too, S's last operations before the split were in
 *     J (the same call, whether it had to wait or not);
 *   - another thread T that operated on an object of S's J (the
 *     condition, its mutex: T is a party to that wait) was inside a call
 *     C when S's wait returned, and still at the split;
 *   - in the good run, calls of C had returned before S's J began (at
 *     least one, in the events read back from there), and no thread but
 *     S was inside C, or entered it, from then to the split: there the
 *     work was over when S waited.
 * A wait or a signal made through the program's own wrapper (a call
 * that only waits, or only signals, between two of the thread's
 * operations in one other function: a cv_wait around pthread_cond_wait
 * between pool_join's lock and unlock; ew_owner) is that function's: J
 * is the caller, the good run's J begins at its caller's first operation
 * (the wrapper's waits in it too), and the signaller is the worker's
 * function, not the wrapper.
 * Then S's wait let it go on before the work it waits for: the wait is
 * named, J, kind "order", "possible" (timing ties C to the split, not a
 * data link). One exception decides for the other side: when the signal
 * or post that ended S's wait came from T while T was inside C, T said
 * "done" before it was, and the function that signalled is named. The
 * first C that qualifies is used, outermost first (a worker's loop is
 * open in both runs and never qualifies; the job inside it does).
 * Costs. Only with a split whose best cause is its own branch (the
 * verdict asks last), two threads or more and sync records. The pick
 * reads the thread order's windows (ttd_interleave) alone; then one run
 * walk per party thread in the bad run, from the mark before S's wake
 * to the split, and one per thread in the good run, from EW_BACK kept
 * events before J's start to the split; at most EW_READ events a walk.
 * Limits. The windows hold the last operations of all threads before the
 * split: a party whose operations scrolled out of them is not seen. A
 * wait the trace does not record (a spin, an atomic counter) is not one.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"

#define EW_BACK 4096            /* good run: kept events read before J began */
#define EW_READ (1u << 20)      /* events a walk reads, at most */
#define EW_DEPTH 64             /* frames looked at */
#define EW_CAND 16              /* calls of C's kind kept */

/* ---- the pick, from the thread order's windows (unit-tested) ------------- */

static const char *ew_fn(const ttd_xev *e)
{
    return e->within ? e->within : e->func;
}

static int ew_is_wake(const ttd_xev *e)
{
    return e->kind == TTF_EV_SYNC_OP && (e->op == TTF_SOP_WOKE || e->op == TTF_SOP_SEM_TAKEN);
}

static int ew_is_wait(const ttd_xev *e)
{
    return e->kind == TTF_EV_SYNC_OP && (e->op == TTF_SOP_WAIT || e->op == TTF_SOP_SEM_WAITING ||
                                         e->op == TTF_SOP_JOINING || e->op == TTF_SOP_SLEEP);
}

static int ew_is_send(const ttd_xev *e)
{
    return e->kind == TTF_EV_SYNC_OP && (e->op == TTF_SOP_SIGNAL || e->op == TTF_SOP_BROADCAST ||
                                         e->op == TTF_SOP_SEM_POST);
}

/* Of one kind: both a wait's own (its start, its return) or both sends. */
static int ew_alike(const ttd_xev *a, const ttd_xev *b)
{
    return ((ew_is_wait(a) || ew_is_wake(a)) && (ew_is_wait(b) || ew_is_wake(b))) ||
           (ew_is_send(a) && ew_is_send(b));
}

static int ew_same(const char *a, const char *b)
{
    return a && b && !strcmp(a, b);
}

/* The thread's operation before (dir -1) or after (+1) w[i] in w[0..n),
 * skipping those in function fn alike w[i] (skip set); -1: none. */
static long ew_next(const ttd_xev *w, size_t n, size_t i, int dir, int skip)
{
    for (long k = (long)i + dir; k >= 0 && (size_t)k < n; k += dir) {
        const ttd_xev *e = &w[k];
        if (e->kind != TTF_EV_SYNC_OP || e->thread != w[i].thread)
            continue;
        if (!skip || !ew_same(ew_fn(e), ew_fn(&w[i])) || !ew_alike(e, &w[i]))
            return k;
    }
    return -1;
}

/* The function w[i] (a wait's return, a signal, a post) is named by: its
 * own (ew_fn), or its caller's when it sits in a call that made only it
 * (a program's wrapper: a cond-wait wrapper around pthread_cond_wait,
 * waiting once or more, or a signal wrapper): the thread's operations in
 * that call around w[i] are all of its kind (waits and their returns, or
 * sends), and its operations just before and just after them are in one
 * other function J, the wrapper's caller (a lock and an unlock around a
 * condition wait). *wrap: the wrapper then, else NULL. */
static const char *ew_owner(const ttd_xev *w, size_t n, size_t i, const char **wrap)
{
    const char *fn = ew_fn(&w[i]);
    long before = ew_next(w, n, i, -1, 1), after = ew_next(w, n, i, 1, 1);
    const char *j = before >= 0 ? ew_fn(&w[before]) : NULL;

    *wrap = NULL;
    if (!fn || !j || !*j || ew_same(j, fn) || after < 0 || !ew_same(ew_fn(&w[after]), j))
        return fn;
    *wrap = fn;
    return j;
}

/* The first of S's last operations in run k's window that are all in
 * function fn (S's last one included), or a wait's own in its wrapper
 * wrap (NULL: none), its index; -1 when S's last operation is not in fn
 * or S has none. */
static long group_start(const ttd_xev *w, size_t n, uint32_t s, const char *fn, const char *wrap)
{
    long at = -1;

    for (size_t i = n; i-- > 0;) {
        if (w[i].kind != TTF_EV_SYNC_OP || w[i].thread != s)
            continue;
        const char *f = ew_fn(&w[i]);
        int wrapped = wrap && ew_same(f, wrap) && (ew_is_wait(&w[i]) || ew_is_wake(&w[i]));
        if (!ew_same(f, fn) && !wrapped)
            break;
        at = (long)i;
    }
    return at;
}

/* 1 when object obj is one of S's operations' in w[from..n). */
static int s_object(const ttd_xev *w, size_t n, size_t from, uint32_t s, const char *obj)
{
    for (size_t i = from; i < n; i++)
        if (w[i].kind == TTF_EV_SYNC_OP && w[i].thread == s && w[i].object &&
            !strcmp(w[i].object, obj))
            return 1;
    return 0;
}

/* The signal or post that ended wake w[at] (the last one on its object,
 * by another thread, before it), -1. */
static long waker_of(const ttd_xev *w, size_t at)
{
    int post = w[at].op == TTF_SOP_SEM_TAKEN;

    for (size_t i = at; i-- > 0;) {
        const ttd_xev *e = &w[i];
        int sends = post ? e->op == TTF_SOP_SEM_POST
                         : (e->op == TTF_SOP_SIGNAL || e->op == TTF_SOP_BROADCAST);
        if (e->kind == TTF_EV_SYNC_OP && sends && e->thread != w[at].thread && e->object &&
            w[at].object && !strcmp(e->object, w[at].object))
            return (long)i;
    }
    return -1;
}

int ttdi_early_wait_pick(const ttd_interleave *iv, const uint32_t s[2], ttdi_ew_pick *out)
{
    memset(out, 0, sizeof *out);
    if (!iv)
        return 0;
    const ttd_xev *b = iv->window[TTD_BAD], *g = iv->window[TTD_GOOD];
    size_t nb = iv->nwindow[TTD_BAD], ng = iv->nwindow[TTD_GOOD];
    long wake = -1;

    /* S's last wake-up, with nothing of S's after it but in its function */
    for (size_t i = nb; i-- > 0 && wake < 0;) {
        if (b[i].kind != TTF_EV_SYNC_OP || b[i].thread != s[TTD_BAD])
            continue;
        if (ew_is_wait(&b[i]))
            return 0;   /* a wait began after it: not the last word */
        if (ew_is_wake(&b[i]))
            wake = (long)i;
    }
    if (wake < 0 || !ew_fn(&b[wake]) || !*ew_fn(&b[wake]) || !b[wake].object)
        return 0;
    const char *wrap;
    const char *fn = ew_owner(b, nb, (size_t)wake, &wrap);
    long bs = group_start(b, nb, s[TTD_BAD], fn, wrap);
    long gs = group_start(g, ng, s[TTD_GOOD], fn, wrap);
    if (bs < 0 || bs > wake || gs < 0)
        return 0;
    /* the parties: the other threads that operated on an object of S's J */
    for (size_t i = 0; i < nb && out->nparty < TTDI_EW_PARTIES; i++) {
        const ttd_xev *e = &b[i];
        int seen = 0;
        if (e->kind != TTF_EV_SYNC_OP || e->thread == s[TTD_BAD] || !e->object ||
            !s_object(b, nb, (size_t)bs, s[TTD_BAD], e->object))
            continue;
        for (size_t k = 0; k < out->nparty; k++)
            seen |= out->party[k] == e->thread;
        if (!seen)
            out->party[out->nparty++] = e->thread;
    }
    if (!out->nparty)
        return 0;
    out->wake = &b[wake];
    long wk = waker_of(b, (size_t)wake);
    out->waker = wk >= 0 ? &b[wk] : NULL;
    out->waker_func = wk >= 0 ? ew_owner(b, nb, (size_t)wk, &wrap) : NULL;
    out->good_begin = &g[gs];
    out->function = fn;
    return 1;
}

int ttdi_early_wait_signaller(const ttd_xev *waker, uint32_t th, uint64_t enter_ns)
{
    return waker && waker->thread == th && waker->time_ns >= enter_ns;
}

/* ---- the walks ------------------------------------------------------------ */

typedef struct ewframe {
    uint64_t addr, time_ns;
    const char *name;
} ewframe;

/* The frames open before w's current event, at most EW_DEPTH, into f:
 * their number, or -1 (no memory). */
static long snap(ttdi_walk *w, ewframe *f)
{
    size_t n = w->nstack < EW_DEPTH ? w->nstack : EW_DEPTH;

    for (size_t i = 0; i < n; i++) {
        f[i] = (ewframe){w->stack[i].addr, w->stack[i].time_ns, ttdi_walk_frame_name(w, &w->stack[i])};
        if (!f[i].name)
            return -1;
    }
    return (long)n;
}

/* Thread th of the bad run: its calls open when S woke (wake_ns) and
 * still open at the split (split_ns), outermost first, into f (their
 * number), 0 when none, or a TT_E* code. */
static int open_through(ttdi_run_state *run, uint32_t th, uint64_t wake_ns, uint64_t split_ns,
                        ewframe *f, size_t *nf)
{
    ewframe at[EW_DEPTH], end[EW_DEPTH];
    long na = -2, ne = 0;
    uint64_t m = 0;
    ttdi_walk w;
    int rc = ttdi_walk_open_at(&w, run, th, UINT64_MAX, wake_ns, 0);

    *nf = 0;
    if (rc < 0)
        return rc;
    while ((rc = ttdi_walk_next(&w)) > 0 && ++m <= EW_READ) {
        if (na == -2 && w.ev.time_ns > wake_ns)
            na = snap(&w, at);
        if (w.ev.time_ns > split_ns) {
            ne = snap(&w, end);
            break;
        }
    }
    if (na == -2)
        na = 0;     /* the thread ended before S woke: nothing open */
    ttdi_walk_close(&w);
    if (rc < 0)
        return rc;
    if (na < 0 || ne < 0 || m > EW_READ)
        return na == -1 || ne == -1 ? TT_ENOMEM : 0;
    for (long i = 0; i < na && i < ne; i++)
        if (at[i].addr == end[i].addr && at[i].time_ns == end[i].time_ns && at[i].time_ns <= wake_ns)
            f[(*nf)++] = at[i];
    return *nf > 0;
}

/* A frame named nm that returned before J began (later 0: counted in
 * ret) or ran after (later 1: busy), against the calls named in c[0..n). */
static void tally(const ewframe *c, size_t n, const char *nm, int later, uint64_t *ret, int *busy)
{
    for (size_t k = 0; nm && k < n; k++) {
        if (strcmp(nm, c[k].name))
            continue;
        busy[k] |= later;
        ret[k] += !later;
    }
}

/* Thread th of the good run against the calls named in c[0..n): ret[i]
 * counts those that returned before begin_ns (read from EW_BACK kept
 * events before it), busy[i] is set when one was open at begin_ns or
 * began before split_ns. 1, 0 when it could not tell, or a TT_E* code. */
static int good_side(ttdi_run_state *run, uint32_t th, uint64_t begin_ns, uint64_t split_ns,
                     const ewframe *c, size_t n, uint64_t *ret, int *busy)
{
    uint64_t m = 0;
    int at = 0;
    ttdi_walk w;
    int rc = ttdi_walk_open_at(&w, run, th, UINT64_MAX, begin_ns, EW_BACK);

    if (rc < 0)
        return rc;
    while ((rc = ttdi_walk_next(&w)) > 0 && ++m <= EW_READ && w.ev.time_ns <= split_ns) {
        int later = w.ev.time_ns > begin_ns;
        size_t from = w.nstack;
        if (w.pending && w.ev.kind == TTF_EV_EXIT)
            from = ttdi_walk_depth_after(&w);
        if (later && !at) {
            at = 1;
            from = 0;   /* the frames open at begin_ns, once */
        }
        for (size_t i = from; i < w.nstack && i < EW_DEPTH; i++)
            tally(c, n, ttdi_walk_frame_name(&w, &w.stack[i]), later, ret, busy);
        if (later && w.pending && w.ev.kind == TTF_EV_ENTER)
            tally(c, n, ttdi_norm_func_at(&run->norm, w.ev.addr, w.ev.site, w.ev.time_ns), 1,
                  ret, busy);
    }
    ttdi_walk_close(&w);
    return rc < 0 ? rc : m <= EW_READ;
}

/* The first of the bad run's open calls c[0..n) that the good run had
 * finished before J began (begin_ns), none of them running from there to
 * the split in a thread but S: 1 with its index in *k, 0, or a TT_E*
 * code. */
static int judge_good(const ttdi_in *in, uint32_t s_good, uint64_t begin_ns, uint64_t split_ns,
                      const ewframe *c, size_t n, size_t *k)
{
    uint64_t ret[EW_CAND] = {0};
    int busy[EW_CAND] = {0};
    ttdi_run_state *run = &in->r[TTD_GOOD];

    for (uint32_t th = 0; th < (uint32_t)run->nt; th++) {
        int rc = th == s_good ? 1 : good_side(run, th, begin_ns, split_ns, c, n, ret, busy);
        if (rc != 1)
            return rc;
    }
    for (*k = 0; *k < n; ++*k)
        if (ret[*k] && !busy[*k])
            return 1;
    return 0;
}

int ttdi_early_wait_find(const ttdi_in *in, const ttd_result *r, ttdi_early_wait *out)
{
    const ttd_divergence *d = r ? r->first : NULL;
    ttdi_ew_pick pk;
    ewframe c[EW_CAND];
    uint32_t cth[EW_CAND];
    size_t nc = 0;

    memset(out, 0, sizeof *out);
    if (!in || !d || d->pair >= r->npairs || !d->interleave || in->r[TTD_BAD].nt < 2 ||
        in->r[TTD_GOOD].nt < 2)
        return 0;
    const ttd_pair *sp = &r->pairs[d->pair];
    uint32_t s[2] = {sp->good.index, sp->bad.index};
    if (!ttdi_early_wait_pick(d->interleave, s, &pk))
        return 0;
    /* the parties' calls open from S's wake-up to the split (bad run) */
    for (size_t p = 0; p < pk.nparty && nc < EW_CAND; p++) {
        ewframe f[EW_DEPTH];
        size_t nf = 0;
        int rc = open_through(&in->r[TTD_BAD], pk.party[p], pk.wake->time_ns, d->bad_time_ns,
                              f, &nf);
        if (rc < 0)
            return rc;
        for (size_t i = 0; i < nf && nc < EW_CAND; i++) {
            cth[nc] = pk.party[p];
            c[nc++] = f[i];
        }
    }
    if (!nc)
        return 0;
    size_t k = 0;
    int rc = judge_good(in, s[TTD_GOOD], pk.good_begin->time_ns, d->good_time_ns, c, nc, &k);
    if (rc != 1)
        return rc;
    const ttd_xev *wk = pk.waker;
    int sig = ttdi_early_wait_signaller(wk, cth[k], c[k].time_ns);
    ttdi_run_state *bad = &in->r[TTD_BAD];
    *out = (ttdi_early_wait){
        .found = 1,
        .function = sig ? pk.waker_func : pk.function,
        .signaller = sig,
        .pair = sig ? wk->pair : (int64_t)d->pair,
        .waiter = pk.function,
        .object = pk.wake->object,
        .woke_ns = pk.wake->time_ns,
        .good_begin_ns = pk.good_begin->time_ns,
        .work = ttfi_arena_strcpy(in->arena, c[k].name),
        .work_thread = ttdi_thread_label(bad, in->arena, cth[k]),
        .work_ns = c[k].time_ns,
        .waker_func = pk.waker_func,
        .waker_thread = wk ? ttdi_thread_label(bad, in->arena, wk->thread) : NULL,
        .waker_ns = wk ? wk->time_ns : 0,
    };
    if (!out->work || !out->function)
        return out->work ? 0 : TT_ENOMEM;
    out->thread = sig ? out->waker_thread : ttdi_thread_label(bad, in->arena, s[TTD_BAD]);
    out->wait_thread = ttdi_thread_label(bad, in->arena, s[TTD_BAD]);
    return 1;
}
