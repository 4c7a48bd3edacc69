/*
 * hang.c - a bad run that hung (issue 33): which threads ended waiting,
 * for what, and why. Stage 3 explain of diff/STAGES (its header:
 * explain.h); the verdict (verdict.c) words it.
 *
 * Design. A common flaky failure never finishes: a test harness kills
 * the run (SIGTERM or SIGKILL: no clean end, no crash record). libttcap
 * keeps every record written up to the kill, and it records the start of
 * each wait that can block for ever: a condition wait (WAIT, its return
 * WOKE), a lock another thread holds (LOCKING: the lock's first try
 * failed, then LOCK when it is taken), a join (JOINING, then JOIN). A
 * thread whose last operation is such a start, with no call entered or
 * left after it, ended blocked there. That alone is no cause: a pool's
 * workers wait on their queue at the end of every run. It counts when
 * the good run's partner thread completed the same operation: it got
 * more locks, wake-ups or joins than the blocked thread did.
 *
 * Why, in the order the rules are tried (each needs what it names seen
 * in the trace, nothing guessed):
 *   - a deadlock: following "waits for a lock held by" (a lock held =
 *     taken, by LOCK, a trylock that succeeded or a wait's wake-up, and
 *     not released) from a blocked thread comes back to it, every thread
 *     on the way blocked on a lock. The cycle is complete evidence: each
 *     thread's wanted lock and its holder, where the holder took it;
 *   - a lost wake-up that hangs: the thread waits on condition C; in the
 *     bad run another thread signalled C after this thread's previous
 *     wake-up on C and before this wait began, and nothing signalled C
 *     after (session 14's rule, ordercause.c, for a wait that returned by
 *     its timeout; here the wait never returns). When the waiter held
 *     the wait's mutex from before the signal to the wait (its check's
 *     critical section), the signal was sent, and the state the waiter
 *     tests changed, without that lock (ttd_hang.unlocked: the
 *     signaller is the cause, ordercause.c says why);
 *   - a lock held across a wait: a thread waits for a lock whose holder
 *     waits itself (a condition, a semaphore, a join), and no thread was
 *     left running that could end the holder's wait: the holder took
 *     the lock, then blocked with it held (held() below says why the
 *     place it took the lock is the cause);
 *   - a wait for something that never came: a join of a thread that is
 *     itself blocked is followed to that thread; a condition wait's other
 *     side is the thread that signalled the wake-up of the partner's same
 *     wait in the good run (its partner in the bad run): named with what
 *     it did last in the bad run (its last call) and whether it ended or
 *     waits itself (a semaphore's wait likewise: the good run's post
 *     that let the partner's same wait take one); a lock's other side is its holder (a lock taken and
 *     never released: its holder ended, or runs on, or waits elsewhere).
 * A wait, or where a lock was taken, is named by the call that made the
 * operation past lock wrappers (a lock of `std::mutex::lock` called by
 * `MutexLock::MutexLock` called by `DBImpl::Write` is `DBImpl::Write`'s,
 * ttdi_lock_wrapper), as the thread order names its operations.
 * Objects are named as the bad run first used them, per kind ("mutex#1",
 * "cond#1"); a joined thread by its index ("thread #2"). The work is done
 * only when the bad run was killed and has SYNC_OP records: a stack walk
 * of every thread of the bad run, then, when one ended in a wait, of the
 * good run's (no other stage needs them).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"

#define HFRAMES 4           /* frames kept of an operation's stack */

/* One SYNC_OP of a thread, with the innermost frames it happened in. */
typedef struct hop {
    uint64_t time_ns;
    uint64_t addr;          /* its object */
    int64_t arg;
    int code;               /* TTF_SOP_* */
    uint64_t fn[HFRAMES];   /* the innermost frames' ids, innermost first
                               (0: none) */
} hop;

/* A held lock. */
typedef struct hheld {
    uint64_t addr;
    uint64_t fn[HFRAMES];   /* the frames that took it */
    uint64_t time_ns;
} hheld;

/* One thread as read. */
typedef struct hthr {
    hop *op;
    size_t n, cap;
    hheld *held;            /* locks held at the end */
    size_t nheld, hcap;
    int moved;              /* a call entered or left after its last op */
    uint64_t last_fn, last_ns; /* its last ENTER: frame id, time */
    size_t depth;           /* frames open at its end */
    int entered;            /* it entered a call */
    uint64_t done[4];       /* completed: locks, wake-ups, joins, semaphores */
    int64_t blocked;        /* its index in the blocked list, -1 */
} hthr;

typedef struct hrun {
    ttdi_run_state *rs;
    hthr *th;
    size_t nt;
} hrun;

/* One object's name in the bad run. */
typedef struct hobj {
    uint64_t addr;
    int cls;                /* 0 mutex, 1 cond, 2 semaphore */
} hobj;

typedef struct hctx {
    const ttdi_in *in;
    hrun run[2];
    hobj *obj;
    size_t nobj, ocap;
    ttd_blocked *b;
    size_t nb;
    ttd_hang *h;
} hctx;

static int is_start(int code)
{
    return code == TTF_SOP_LOCKING || code == TTF_SOP_WAIT || code == TTF_SOP_JOINING ||
           code == TTF_SOP_SEM_WAITING;
}

/* Which count a completion adds to: 0 lock, 1 wake-up, 2 join, 3 a
 * semaphore taken; -1. */
static int done_kind(const hop *o)
{
    if (ttdi_sop_took(o->code, o->arg))
        return 0;
    return o->code == TTF_SOP_WOKE ? 1 : o->code == TTF_SOP_JOIN ? 2
           : o->code == TTF_SOP_SEM_TAKEN ? 3 : -1;
}

/* The count a wait's operation is compared by (as done_kind). */
static int start_kind(int code)
{
    return code == TTF_SOP_LOCKING || code == TTF_SOP_LOCK ? 0
           : code == TTF_SOP_WAIT || code == TTF_SOP_WOKE ? 1
           : code == TTF_SOP_SEM_WAITING || code == TTF_SOP_SEM_TAKEN ? 3 : 2;
}

static int hold(hthr *t, uint64_t addr, const uint64_t *fn, uint64_t ns)
{
    if (t->nheld == t->hcap && ttdi_grow(&t->held, &t->hcap, t->nheld + 1, sizeof *t->held, 4) < 0)
        return TT_ENOMEM;
    hheld *h = &t->held[t->nheld++];
    h->addr = addr;
    memcpy(h->fn, fn, sizeof h->fn);
    h->time_ns = ns;
    return 0;
}

static void release(hthr *t, uint64_t addr)
{
    for (size_t i = t->nheld; i-- > 0;)
        if (t->held[i].addr == addr) {
            memmove(&t->held[i], &t->held[i + 1], (t->nheld - i - 1) * sizeof *t->held);
            t->nheld--;
            return;
        }
}

/* The mutex a condition wait released (its last WAIT on obj). */
static uint64_t wait_mutex(const hthr *t, uint64_t cond)
{
    for (size_t i = t->n; i-- > 0;)
        if (t->op[i].code == TTF_SOP_WAIT && t->op[i].addr == cond)
            return (uint64_t)t->op[i].arg;
    return 0;
}

/* Thread t's last op o, seen: its counts and held locks. */
static int apply(hthr *t, const hop *o)
{
    int k = done_kind(o);

    if (k >= 0)
        t->done[k]++;
    switch (o->code) {
    case TTF_SOP_LOCK:
    case TTF_SOP_TRYLOCK:
        return k == 0 ? hold(t, o->addr, o->fn, o->time_ns) : 0;
    case TTF_SOP_UNLOCK:
        release(t, o->addr);
        return 0;
    case TTF_SOP_WAIT:
        release(t, (uint64_t)o->arg);
        return 0;
    case TTF_SOP_WOKE:
        return hold(t, wait_mutex(t, o->addr), o->fn, o->time_ns);
    default:
        return 0;
    }
}

static int read_thread(hrun *r, uint32_t i)
{
    hthr *t = &r->th[i];
    ttdi_walk w;
    int rc = ttdi_walk_stack(&w, r->rs->t, i, 0);

    t->blocked = -1;
    if (rc < 0)
        return rc;
    w.waits = 1;
    while ((rc = ttdi_walk_stack_next(&w)) == 1) {
        const ttf_event *ev = &w.ev;
        if ((TTDI_STACK_KINDS >> (ev->kind & 31)) & 1) {
            t->moved = 1;
            t->depth = ttdi_walk_depth_after(&w);
            if (ev->kind == TTF_EV_ENTER) {
                t->last_fn = ev->site ? ev->site | TTDI_SITE_BIT : ev->addr;
                t->last_ns = ev->time_ns;
                t->entered = 1;
            }
            continue;
        }
        if (ev->kind != TTF_EV_SYNC_OP || ev->code == TTF_SOP_SLEEP)
            continue;
        if (t->n == t->cap && ttdi_grow(&t->op, &t->cap, t->n + 1, sizeof *t->op, 16) < 0) {
            rc = TT_ENOMEM;
            break;
        }
        hop *o = &t->op[t->n++];
        *o = (hop){ev->time_ns, ev->addr, ev->sync_arg, ev->code, {0}};
        for (size_t k = 0; k < HFRAMES && k < w.nstack; k++)
            o->fn[k] = w.stack[w.nstack - 1 - k].id;
        t->moved = 0;
        if ((rc = apply(t, o)) < 0)
            break;
    }
    ttdi_walk_close(&w);
    return rc;
}

static int read_run(hrun *r, ttdi_run_state *rs)
{
    r->rs = rs;
    r->nt = rs->nt;
    r->th = calloc(rs->nt ? rs->nt : 1, sizeof *r->th);
    if (!r->th)
        return TT_ENOMEM;
    for (uint32_t i = 0; i < rs->nt; i++) {
        int rc = read_thread(r, i);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static void free_run(hrun *r)
{
    for (size_t i = 0; r->th && i < r->nt; i++) {
        free(r->th[i].op);
        free(r->th[i].held);
    }
    free(r->th);
}

/* The thread's last op when it is a wait it never came back from. */
static const hop *open_wait(const hthr *t)
{
    const hop *o = t->n ? &t->op[t->n - 1] : NULL;
    return o && !t->moved && is_start(o->code) ? o : NULL;
}

static const char *frame_name(hctx *c, int run, uint64_t id, uint64_t ns)
{
    ttdi_norm *n = &c->run[run].rs->norm;

    if (!id)
        return "";
    return id & TTDI_SITE_BIT ? ttdi_norm_func_at(n, 0, (uint32_t)(id & ~TTDI_SITE_BIT), ns)
                              : ttdi_norm_func_at(n, id, 0, ns);
}

/* Of an operation's innermost frames fn, the one it is named by: the
 * innermost that is not a lock wrapper (ttdi_lock_wrapper: the call that
 * took the lock through them, as the thread order names it), else the
 * innermost. Its id. */
static uint64_t named_frame(hctx *c, int run, const uint64_t *fn, uint64_t ns)
{
    for (size_t k = 0; k < HFRAMES && fn[k]; k++)
        if (!ttdi_lock_wrapper(frame_name(c, run, fn[k], ns)))
            return fn[k];
    return fn[0];
}

static const char *astr(hctx *c, const char *s)
{
    return s ? ttfi_arena_strcpy(c->in->arena, s) : NULL;
}

/* Bad thread i's name (ttdi_thread_label: "#N name" when another thread
 * of the run has the same name, as the races name them). */
static const char *thread_name(hctx *c, uint32_t i)
{
    return ttdi_thread_label(c->run[TTD_BAD].rs, c->in->arena, i);
}

static int64_t pair_of(const hctx *c, uint32_t bad)
{
    for (size_t k = 0; k < c->in->s->nip; k++)
        if (c->in->s->ip[k].t[TTD_BAD] == bad)
            return (int64_t)k;
    return -1;
}

/* The bad run's name of object addr of class cls, numbered by first use
 * in time order over all threads ("mutex#2"). */
static int name_objects(hctx *c)
{
    const hrun *r = &c->run[TTD_BAD];
    size_t total = 0, k = 0;

    for (size_t i = 0; i < r->nt; i++)
        total += r->th[i].n;
    const hop **all = malloc((total ? total : 1) * sizeof *all);
    if (!all)
        return TT_ENOMEM;
    for (size_t i = 0; i < r->nt; i++)
        for (size_t j = 0; j < r->th[i].n; j++)
            all[k++] = &r->th[i].op[j];
    /* insertion by time: the ops of one thread are in order already */
    for (size_t i = 1; i < total; i++)
        for (size_t j = i; j > 0 && all[j - 1]->time_ns > all[j]->time_ns; j--) {
            const hop *x = all[j];
            all[j] = all[j - 1];
            all[j - 1] = x;
        }
    for (size_t i = 0; i < total; i++) {
        int code = all[i]->code;
        int cls = code == TTF_SOP_LOCK || code == TTF_SOP_TRYLOCK || code == TTF_SOP_UNLOCK ||
                  code == TTF_SOP_LOCKING ? 0
                  : code == TTF_SOP_WAIT || code == TTF_SOP_WOKE || code == TTF_SOP_SIGNAL ||
                  code == TTF_SOP_BROADCAST ? 1
                  : code == TTF_SOP_SEM_WAITING || code == TTF_SOP_SEM_TAKEN ||
                  code == TTF_SOP_SEM_POST ? 2 : -1;
        size_t j = 0;
        while (j < c->nobj && !(c->obj[j].addr == all[i]->addr && c->obj[j].cls == cls))
            j++;
        if (cls < 0 || j < c->nobj)
            continue;
        if (c->nobj == c->ocap && ttdi_grow(&c->obj, &c->ocap, c->nobj + 1, sizeof *c->obj, 16) < 0) {
            free(all);
            return TT_ENOMEM;
        }
        c->obj[c->nobj++] = (hobj){all[i]->addr, cls};
    }
    free(all);
    return 0;
}

static const char *object_name(hctx *c, uint64_t addr, int cls)
{
    char buf[40];
    size_t n = 0;

    for (size_t j = 0; j < c->nobj; j++) {
        n += c->obj[j].cls == cls;
        if (c->obj[j].addr == addr && c->obj[j].cls == cls)
            break;
    }
    snprintf(buf, sizeof buf, "%s#%zu", cls == 2 ? "sem" : cls ? "cond" : "mutex", n);
    return astr(c, buf);
}

/* The bad run's thread a pthread_t names (its CREATE); -1. */
static int64_t created(const hctx *c, uint64_t th)
{
    const hrun *r = &c->run[TTD_BAD];

    for (size_t i = 0; i < r->nt; i++)
        for (size_t j = 0; j < r->th[i].n; j++)
            if (r->th[i].op[j].code == TTF_SOP_CREATE && r->th[i].op[j].addr == th)
                return r->th[i].op[j].arg;
    return -1;
}

/* The bad thread holding mutex addr at the end (not self); -1. */
static int64_t holder(const hctx *c, uint64_t addr, uint32_t self, const hheld **at)
{
    const hrun *r = &c->run[TTD_BAD];

    for (size_t i = 0; i < r->nt; i++)
        for (size_t j = 0; i != self && j < r->th[i].nheld; j++)
            if (r->th[i].held[j].addr == addr) {
                *at = &r->th[i].held[j];
                return (int64_t)i;
            }
    return -1;
}

/* The good run's partner of bad thread i completed more of its kind. */
static int good_done(const hctx *c, uint32_t i, int kind)
{
    const ttdi_run_state *rs = c->run[TTD_BAD].rs;
    int64_t g = i < rs->nt && rs->ti ? rs->ti[i].partner : -1;

    if (g < 0 || (size_t)g >= c->run[TTD_GOOD].nt)
        return 0;
    return c->run[TTD_GOOD].th[g].done[kind] > c->run[TTD_BAD].th[i].done[kind];
}

static void source_of(hctx *c, uint64_t id, ttd_blocked *b)
{
    const char *file = NULL;
    int line = 0;

    if (!id || (id & TTDI_SITE_BIT) ||
        ttf_sym_line(c->run[TTD_BAD].rs->norm.sym, id, &file, &line) < 0)
        return;
    b->file = file;
    b->line = line;
}

/* The blocked threads of the bad run. */
static int list_blocked(hctx *c)
{
    hrun *r = &c->run[TTD_BAD];

    c->b = ttfi_arena_zalloc(c->in->arena, (r->nt ? r->nt : 1) * sizeof *c->b);
    if (!c->b)
        return TT_ENOMEM;
    for (uint32_t i = 0; i < r->nt; i++) {
        const hop *o = open_wait(&r->th[i]);
        if (!o)
            continue;
        ttd_blocked *b = &c->b[c->nb];
        r->th[i].blocked = (int64_t)c->nb++;
        b->pair = pair_of(c, i);
        b->thread = i;
        b->thread_name = thread_name(c, i);
        b->op = o->code;
        uint64_t fn = named_frame(c, TTD_BAD, o->fn, o->time_ns);
        b->function = frame_name(c, TTD_BAD, fn, o->time_ns);
        source_of(c, fn, b);
        b->time_ns = o->time_ns;
        b->good_done = good_done(c, i, start_kind(o->code));
        b->waits_for = -1;
        char buf[40];
        int64_t x = o->code == TTF_SOP_JOINING ? created(c, o->addr) : -1;
        snprintf(buf, sizeof buf, "thread #%lld", (long long)x);
        b->object = o->code == TTF_SOP_JOINING ? astr(c, buf)
                    : object_name(c, o->addr, o->code == TTF_SOP_WAIT ? 1
                                              : o->code == TTF_SOP_SEM_WAITING ? 2 : 0);
    }
    for (size_t k = 0; k < c->nb; k++) {
        ttd_blocked *b = &c->b[k];
        const hop *o = open_wait(&r->th[b->thread]);
        const hheld *at = NULL;
        int64_t t = o->code == TTF_SOP_LOCKING ? holder(c, o->addr, b->thread, &at)
                    : o->code == TTF_SOP_JOINING ? created(c, o->addr) : -1;
        if (t < 0 || (size_t)t >= r->nt)
            continue;
        b->waits_for = r->th[t].blocked;
        if (at) {
            b->holder = thread_name(c, (uint32_t)t);
            b->taken_in = frame_name(c, TTD_BAD, named_frame(c, TTD_BAD, at->fn, at->time_ns),
                                     at->time_ns);
        }
    }
    return 0;
}

/* A cycle of lock waits through blocked thread k: its length, else 0. */
static size_t cycle_at(const hctx *c, size_t k)
{
    size_t n = 0, j = k;

    do {
        if (c->b[j].op != TTF_SOP_LOCKING || c->b[j].waits_for < 0 || !c->b[j].holder)
            return 0;
        j = (size_t)c->b[j].waits_for;
        n++;
    } while (j != k && n <= c->nb);
    return j == k ? n : 0;
}

static int deadlock(hctx *c)
{
    for (size_t k = 0; k < c->nb; k++) {
        size_t n = c->b[k].good_done ? cycle_at(c, k) : 0;
        if (n < 2)
            continue;
        c->h->cause = TTD_HANG_DEADLOCK;
        c->h->root = k;
        c->h->ncycle = n;
        c->h->complete = 1;
        return 1;
    }
    return 0;
}

static int wakes(int code, int wait)
{
    return wait == TTF_SOP_SEM_WAITING ? code == TTF_SOP_SEM_POST
                                       : code == TTF_SOP_SIGNAL || code == TTF_SOP_BROADCAST;
}

/* The last op that ends a wait of kind `wait` on object cond (a signal or
 * broadcast of a condition, a semaphore's post) by a thread other than
 * self in run `run` within (from, to]; its thread in *who; NULL. */
static const hop *wake_in(const hctx *c, int run, int wait, uint64_t cond, uint32_t self,
                          uint64_t from, uint64_t to, uint32_t *who)
{
    const hrun *r = &c->run[run];
    const hop *best = NULL;

    for (uint32_t i = 0; i < r->nt; i++)
        for (size_t j = 0; i != self && j < r->th[i].n; j++) {
            const hop *o = &r->th[i].op[j];
            if (wakes(o->code, wait) && o->addr == cond &&
                o->time_ns > from && o->time_ns <= to && (!best || o->time_ns > best->time_ns)) {
                best = o;
                *who = i;
            }
        }
    return best;
}

/* Thread t's last wake-up on cond before its blocked wait (0: none). */
static uint64_t woke_before(const hthr *t, uint64_t cond)
{
    for (size_t j = t->n - 1; j-- > 0;)
        if (t->op[j].code == TTF_SOP_WOKE && t->op[j].addr == cond)
            return t->op[j].time_ns;
    return 0;
}

static void other_side(hctx *c, uint32_t t)
{
    const hthr *o = &c->run[TTD_BAD].th[t];

    c->h->other = thread_name(c, t);
    c->h->other_pair = pair_of(c, t);
    c->h->other_last = o->entered ? frame_name(c, TTD_BAD, o->last_fn, o->last_ns) : NULL;
    c->h->other_ended = o->entered && o->depth == 0 && !open_wait(o);
    c->h->other_blocked = o->blocked;
}

/* Did thread t hold its blocked wait w's mutex (w->arg) at time ns: its
 * last acquisition of it before w (a lock, a trylock that got it, a
 * wake-up of a wait on w's condition) came before ns, and it released
 * it (an unlock, a wait with it) nowhere between that and w? */
static int held_over(const hthr *t, const hop *w, uint64_t ns)
{
    uint64_t m = (uint64_t)w->arg;

    for (size_t j = (size_t)(w - t->op); m && j-- > 0;) {
        const hop *o = &t->op[j];
        if ((o->code == TTF_SOP_UNLOCK && o->addr == m) ||
            (o->code == TTF_SOP_WAIT && (uint64_t)o->arg == m))
            return 0;
        if (((o->code == TTF_SOP_LOCK || (o->code == TTF_SOP_TRYLOCK && !o->arg)) &&
             o->addr == m) || (o->code == TTF_SOP_WOKE && o->addr == w->addr))
            return o->time_ns < ns;
    }
    return 0;
}

static int lost_wakeup(hctx *c)
{
    const hrun *r = &c->run[TTD_BAD];

    for (size_t k = 0; k < c->nb; k++) {
        const ttd_blocked *b = &c->b[k];
        const hthr *t = &r->th[b->thread];
        const hop *w = open_wait(t);
        uint32_t who = 0, none;
        if (!b->good_done || b->op != TTF_SOP_WAIT)
            continue;
        const hop *s = wake_in(c, TTD_BAD, TTF_SOP_WAIT, w->addr, b->thread,
                               woke_before(t, w->addr), w->time_ns, &who);
        if (!s || wake_in(c, TTD_BAD, TTF_SOP_WAIT, w->addr, b->thread, w->time_ns, UINT64_MAX,
                          &none))
            continue;
        c->h->cause = TTD_HANG_LOST_WAKEUP;
        c->h->root = k;
        c->h->other = thread_name(c, who);
        c->h->other_pair = pair_of(c, who);
        c->h->other_function = frame_name(c, TTD_BAD, named_frame(c, TTD_BAD, s->fn, s->time_ns),
                                          s->time_ns);
        c->h->other_time_ns = s->time_ns;
        c->h->unlocked = held_over(t, w, s->time_ns);
        return 1;
    }
    return 0;
}

/* The good run's signaller (or poster) that ended the good partner's wait
 * matching bad thread t's blocked one, of kind `wait` (the same count of
 * such waits): its good thread in *who, its op; NULL if none. */
static const hop *good_waker(const hctx *c, uint32_t t, int wait, uint32_t *who)
{
    const hrun *g = &c->run[TTD_GOOD];
    const hthr *bt = &c->run[TTD_BAD].th[t];
    const ttdi_run_state *rs = c->run[TTD_BAD].rs;
    int64_t p = rs->ti ? rs->ti[t].partner : -1;
    size_t waits = 0, seen = 0;

    /* a semaphore is matched by its takes (a take need not wait: the post
     * may come first), a condition by its waits */
    int at = wait == TTF_SOP_SEM_WAITING ? TTF_SOP_SEM_TAKEN : wait;
    for (size_t j = 0; j < bt->n; j++)
        waits += bt->op[j].code == at;
    waits += at != wait;       /* the take the blocked wait never made */
    if (p < 0 || (size_t)p >= g->nt)
        return NULL;
    const hthr *gt = &g->th[p];
    for (size_t j = 0; j < gt->n; j++) {
        if (gt->op[j].code != at || ++seen < waits)
            continue;
        if (at != wait)         /* the last post before that take */
            return wake_in(c, TTD_GOOD, wait, gt->op[j].addr, (uint32_t)p, 0,
                           gt->op[j].time_ns, who);
        int done = wait == TTF_SOP_WAIT ? TTF_SOP_WOKE : TTF_SOP_SEM_TAKEN;
        for (size_t e = j + 1; e < gt->n; e++)
            if (gt->op[e].code == done && gt->op[e].addr == gt->op[j].addr)
                return wake_in(c, TTD_GOOD, wait, gt->op[j].addr, (uint32_t)p,
                               gt->op[j].time_ns, gt->op[e].time_ns, who);
        return NULL;
    }
    return NULL;
}

/* Is thread t still running at the bad run's end: inside a call, not
 * blocked in a wait (a sleep, an untraced wait or plain work)? */
static int running(const hthr *t)
{
    return t->entered && t->depth > 0 && !open_wait(t);
}

/* A lock held across a wait: a blocked thread waits for a lock whose
 * holder is blocked itself, on a condition, a semaphore or a join (not on
 * a lock: a cycle of lock waits is the deadlock rule's), and no thread of
 * the bad run was left running. Nothing could end the holder's wait but
 * a thread that is stuck, the lock's waiter among them, held up by the
 * holder. The holder took the lock, then blocked with it held: where it
 * took it is what made its wait hold the others up (a lock kept across a
 * wait for another thread is the lock-order hazard; the wait itself may
 * be sound: for a callback to end, for a worker to be joined). */
static int held(hctx *c)
{
    const hrun *r = &c->run[TTD_BAD];

    for (size_t i = 0; i < r->nt; i++)
        if (running(&r->th[i]))
            return 0;
    for (size_t k = 0; k < c->nb; k++) {
        const ttd_blocked *b = &c->b[k];
        if (!b->good_done || b->op != TTF_SOP_LOCKING || b->waits_for < 0 || !b->holder ||
            c->b[b->waits_for].op == TTF_SOP_LOCKING)
            continue;
        c->h->cause = TTD_HANG_HELD;
        c->h->root = (size_t)b->waits_for;
        c->h->waiter = (int64_t)k;
        c->h->other = b->thread_name;
        c->h->other_pair = b->pair;
        return 1;
    }
    return 0;
}

/* A wait for what never came: joins followed to a blocked thread, then
 * the other side of the wait: the joined thread, the lock's holder (it
 * never released it), the good run's waker of the same wait. */
static int never(hctx *c)
{
    const hrun *r = &c->run[TTD_BAD];

    for (size_t k = 0; k < c->nb; k++) {
        size_t j = k, steps = 0;
        if (!c->b[k].good_done)
            continue;
        while (c->b[j].op == TTF_SOP_JOINING && c->b[j].waits_for >= 0 && steps++ < c->nb)
            j = (size_t)c->b[j].waits_for;
        const ttd_blocked *b = &c->b[j];
        c->h->cause = TTD_HANG_NEVER;
        c->h->root = j;
        c->h->other_pair = -1;
        c->h->other_blocked = -1;
        const hop *w = open_wait(&r->th[b->thread]);
        const hheld *at = NULL;
        int64_t x = b->op == TTF_SOP_JOINING ? created(c, w->addr)
                    : b->op == TTF_SOP_LOCKING ? holder(c, w->addr, b->thread, &at) : -1;
        uint32_t gw = 0;
        const hop *s = b->op == TTF_SOP_WAIT || b->op == TTF_SOP_SEM_WAITING
                       ? good_waker(c, b->thread, b->op, &gw) : NULL;
        int64_t bw = s && gw < c->run[TTD_GOOD].rs->nt ? c->run[TTD_GOOD].rs->ti[gw].partner : -1;
        if (s)
            c->h->other_function = frame_name(c, TTD_GOOD,
                                              named_frame(c, TTD_GOOD, s->fn, s->time_ns),
                                              s->time_ns);
        if (x >= 0 && (size_t)x < r->nt)
            other_side(c, (uint32_t)x);
        else if (bw >= 0 && (size_t)bw < r->nt)
            other_side(c, (uint32_t)bw);
        return 1;
    }
    return 0;
}

/* Was the bad run killed: no clean end, no crash, sync ops recorded. */
static int killed(const ttdi_in *in, const ttd_run_info *bad)
{
    const ttf_trace *t = in->r[TTD_BAD].t;
    return t && !bad->closed && !bad->crash && !bad->cut &&
           (ttf_get_header(t)->optional_features & TTF_HEADER_SYNC);
}

int ttdi_hang_find(const ttdi_in *in, const ttd_run_info *bad, const ttd_hang **out)
{
    hctx c = {in, {{0}, {0}}, NULL, 0, 0, NULL, 0, NULL};
    int rc = 0;

    *out = NULL;
    if (!killed(in, bad) || !in->r[TTD_GOOD].t)
        return 0;
    if ((rc = read_run(&c.run[TTD_BAD], &in->r[TTD_BAD])) < 0)
        goto done;
    int any = 0;
    for (size_t i = 0; i < c.run[TTD_BAD].nt; i++)
        any |= open_wait(&c.run[TTD_BAD].th[i]) != NULL;
    if (!any || (rc = read_run(&c.run[TTD_GOOD], &in->r[TTD_GOOD])) < 0 ||
        (rc = name_objects(&c)) < 0 || (rc = list_blocked(&c)) < 0)
        goto done;
    any = 0;
    for (size_t k = 0; k < c.nb; k++)
        any |= c.b[k].good_done;
    if (!any)
        goto done;
    c.h = ttfi_arena_zalloc(in->arena, sizeof *c.h);
    if (!c.h) {
        rc = TT_ENOMEM;
        goto done;
    }
    c.h->blocked = c.b;
    c.h->nblocked = c.nb;
    c.h->other_pair = -1;
    c.h->other_blocked = -1;
    c.h->waiter = -1;
    if (!deadlock(&c) && !lost_wakeup(&c) && !held(&c))
        never(&c);
    *out = c.h;
done:
    free_run(&c.run[TTD_GOOD]);
    free_run(&c.run[TTD_BAD]);
    free(c.obj);
    return rc;
}
