/*
 * interleave.c - the order of the threads before a divergence, from the
 * SYNC_OP records (locks, conditions, thread create/join): the last
 * operations of all threads in each run, the first place where one object
 * saw its operations in another thread order, and a bad-run call that took
 * no lock where every good-run call of the same function took one (the
 * unprotected operation), with what the other threads did meanwhile.
 * Stage 2 resolve of diff/STAGES (its header: resolve.h).
 *
 * Each run is walked once up to the split: each thread alone, its lock
 * operations kept as records and merged by time afterwards (by_thread(),
 * issue 38 item 4: no heap step per event; the merged walk, walk_run(),
 * each thread's walk stepped in the reader's merge order, where that
 * could not give the same answer). Every thread is read by a run walk
 * (walker.c), whose call stack is the run walks' (issue 35 item 2):
 * this file keeps no stack of its own, only its data per open call (key,
 * lock set, entry time, name) in step with the walk's frames, and closes
 * what the walker's rule closes (ttdi_walk_depth_after): an EXIT returns
 * from its own frame, frames above it a longjmp left close unreturned,
 * and the frames an UNWIND left close at the next ENTER; what a frame
 * closed unreturned took passes to the frame below (a lock taken before
 * the longjmp was taken inside the call it returned into). (Before, an
 * EXIT only closed the innermost frame of its function and UNWINDs were
 * ignored: after a longjmp the calls below it never returned, so their
 * lock sets were never learnt or checked; on traces without UNWIND or
 * skipped exits both rules agree.) A thread no run walk has marked yet
 * (the other threads than the split's) is read by one that leaves marks
 * (values aside, which no rule here reads): they let the details' walks
 * for the other threads' last events before the split start near it
 * (the engine details the first divergence's other threads after this:
 * ttdi_detail_others); a marked one (the split thread, which the timing
 * scan read further than the split) by a stack walk (ttdi_walk_stack: the
 * same events and the same call-stack rule, without the run walk's
 * filter, key indexes and records, its stack changes inline), which
 * leaves nothing behind. A run walk that stopped at the split near its
 * thread's end reads on to it while the run counts calls
 * (ttdi_walk_read_out): the count facts then read the thread no more.
 * Issue 38 item 4 (session 15): while the engine asks (lock_tap), the
 * run walks that first read a thread keep this file's per-thread data as
 * they go (walker.c ttdi_walk_tap: the open calls with their lock sets by
 * the rule above, ttdi_lock_call; each SYNC_OP's innermost call; the
 * first return of each function and lock set), so by_thread() reads a
 * thread only from its latest mark before the split to the first event
 * past it (from_tap): the split thread from the timing scan's marks, not
 * from its start; the other threads by the run walk that keeps the data
 * as it leaves marks (one pinned a 64th of the way before the split by
 * time, ttdi_walk_pin_ns: the details' walks for their last events start
 * there), or, for the threads of the pairs aligned after one that parted
 * (session 18: the tree build read them by run walks that kept the data,
 * pair_align.c src_runs), from their last mark before the split, pinning
 * that mark on the way. That data counts one call per lock set: the good
 * run's calls of a function are counted by a walk again only when an
 * unprotected call is found (recount). Where it is not there or not
 * exact (more than 64 locks in a thread, ticks or times going back
 * before the split), the thread is walked as before. The records a
 * thread's data holds are merged where the run walks keep them
 * (merge_records), not copied first (session 25: a 25M-event pair's
 * 3M records a run). With two jobs, the
 * walks from_tap takes (tap_walk: from the mark to the split, then read
 * out) are made first for both runs at once, each run's by a thread of
 * its own (pre_walks, kit.c ttdi_both; they touch only their run's marks
 * and records), and by_thread() takes their results in its order: the
 * good run's lock sets still come before the bad run's candidates.
 * A return whose time was not measured (the sparse clock) counts at the
 * latest it can have been (ttf_event_late_ns), and an entry whose time
 * was not measured (the lazy clock, FORMAT.md 4.7) at the earliest
 * (ttf_event_early_ns, the thread order's frames, ttdi_lframe t0): a
 * call is never taken as shorter, nor as over before another began, than
 * it may have been.
 * Objects have no stable address across runs, so each run numbers them by
 * first use, per kind (mutex#1, cond#1; threads by the index CREATE gave).
 * The good run keeps each object's operations in order; the bad run's
 * are compared with them as they come (first_order wants the first
 * difference only), so only the good run's are kept.
 * A thread's locks are a 64-bit set of mutex numbers; a call's set is the
 * locks held at its entry or taken inside it (children's sets flow up at
 * their exit); the good run keeps, per function (by name key), the locks
 * all its calls had, and the bad run's first call missing one of them is
 * the unprotected one.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resolve.h"

#define WINDOW 24           /* operations shown per run */
#define OBJ_CAP 4096        /* objects numbered per run (hash slots) */
#define SEQ_OBJS 64         /* objects whose operation order is compared */
#define SEQ_MAX (1u << 20)  /* operations kept per object */
#define FN_CAP (1u << 16)   /* functions tracked (hash slots) */
#define DURING_MAX 32       /* events listed during the unprotected call */

/* An object of one run. */
typedef struct obj {
    uint64_t addr;          /* its address, 0 = free slot */
    int kind;               /* 0 mutex, 1 cond, 2 thread */
    int num;                /* number within its kind, from 1 */
    int seq;                /* index in the order sequences, -1 if none */
    const char *label;      /* "mutex#1" (arena) */
} obj;

/* One operation in an object's order: who did what, when. */
typedef struct opcode {
    uint32_t code;          /* who (ttdi_ilv_run who_of) << 8 | op */
    uint32_t thread;        /* thread index in its run */
    uint64_t time_ns;       /* when */
    const char *func;       /* innermost function */
    const char *within;     /* the call it is named by (ttdi_lock_caller) */
} opcode;

/* An operation as a good run's order keeps it: 16 bytes, not 32 (a
 * 25M-event pair's 1M operations of one mutex were a seventh of its page
 * faults): who did it (thread and names) an index into the run's
 * table of them (opwho: a run makes its operations from few calls). */
typedef struct opkept {
    uint32_t code;          /* as opcode's */
    uint32_t who;           /* index into xrun.who */
    uint64_t time_ns;
} opkept;

typedef struct opwho {
    uint32_t thread;
    const char *func, *within;
} opwho;

/* The operations on one object, in order. The bad run's are compared
 * with the good run's as they come (first_order needs no more), not
 * kept: a 25M-event pair's 1M operations of one mutex a run were 14% of
 * its page faults. */
typedef struct oseq {
    const char *label;      /* the object */
    opkept *op;             /* its operations (the good run's) */
    size_t n, cap;          /* how many (kept or not), room */
    int cmp;                /* 1: the bad run's, compared with ref's */
    const struct oseq *ref; /* cmp: the good run's of the same label, NULL */
    size_t diff;            /* cmp: the first index where ref has no
                               operation or another one, SIZE_MAX: none */
    opcode at;              /* cmp: the operation there */
} oseq;

/* One open call of a thread, and a thread's open calls and held locks
 * (walker.c keeps them for the walks that read a thread first: the
 * same rule here). */
typedef ttdi_lframe xframe;
typedef ttdi_lthread xthread;

/* Per function, what the good run's calls all had. */
typedef struct fnslot {
    uint64_t key;           /* 0 = free */
    uint64_t mask;          /* locks every call had */
    uint64_t calls;         /* calls seen */
} fnslot;

/* One run's walk. */
typedef struct xrun {
    const ttdi_ilv_run *in; /* the run */
    xthread *th;            /* per thread */
    obj *objs;              /* OBJ_CAP slots */
    int nkind[3];           /* objects numbered per kind */
    oseq seq[SEQ_OBJS];     /* order per object */
    size_t nseq;
    opwho *who;             /* the kept operations' threads and names */
    size_t nwho, capwho;
    ttdi_map whomap;        /* their hash -> index + 1 (the first of a hash) */
    uint32_t whohot[256];   /* index + 1 of a recent one, by hash */
    const struct xrun *good; /* the bad run: the good run's walk (its
                               orders compared as they come), NULL */
    int tapped;             /* 1: a thread from the walks' data (from_tap):
                               the good run's calls counted one per set */
    int notap;              /* 1: walk every thread (recount) */
    struct prewalk *pre;    /* per thread: its walk to the split done ahead
                               (pre_walks), NULL */
    ttd_xev ring[WINDOW];   /* last operations */
    uint64_t nops;          /* operations seen */
    size_t merging, merged; /* merge_records: its records, those merged
                               so far (0, 0: not merging) */
} xrun;

static const char *const kinds[] = {"mutex", "cond", "thread"};

static int op_kind(int op)
{
    if (op >= TTF_SOP_WAIT && op <= TTF_SOP_BROADCAST)
        return 1;
    return op == TTF_SOP_CREATE || op == TTF_SOP_JOIN ? 2 : 0;
}

/* A new object's order, labelled label: in the bad run, compared with
 * the good run's of the same label (first_order pairs them so). */
static void seq_open(const xrun *x, oseq *s, const char *label)
{
    s->label = label;
    s->cmp = x->good != NULL;
    s->diff = SIZE_MAX;
    for (size_t k = 0; x->good && label && k < x->good->nseq && !s->ref; k++)
        if (x->good->seq[k].label && !strcmp(x->good->seq[k].label, label))
            s->ref = &x->good->seq[k];
}

/* The object at addr (numbered on first use); NULL when the table is full. */
static obj *object(struct ttfi_arena *a, xrun *x, const ttf_event *ev)
{
    uint64_t addr = ev->addr ? ev->addr : 1;
    int fresh;
    obj *o = ttdi_probe(x->objs, OBJ_CAP, sizeof *o,
                        (size_t)((addr * 0x9E3779B97F4A7C15ull) >> 52), addr, 1, &fresh);

    if (o && fresh) {
        char buf[48];
        o->kind = op_kind(ev->code);
        o->num = ++x->nkind[o->kind];
        if (o->kind == 2 && ev->code == TTF_SOP_CREATE)
            snprintf(buf, sizeof buf, "thread #%lld", (long long)ev->sync_arg);
        else
            snprintf(buf, sizeof buf, "%s#%d", kinds[o->kind], o->num);
        o->label = ttfi_arena_strcpy(a, buf);
        o->seq = x->nseq < SEQ_OBJS ? (int)x->nseq++ : -1;
        if (o->seq >= 0)
            seq_open(x, &x->seq[o->seq], o->label);
        return o->label ? o : NULL;
    }
    return o;
}

static fnslot *fn_find(fnslot *t, uint64_t key, int add)
{
    int fresh;
    fnslot *f = ttdi_probe(t, FN_CAP, sizeof *t, (size_t)(key >> 20), key, add, &fresh);

    if (fresh)
        f->mask = ~0ull;
    return f;
}

/* Room for the next operation of s, a good run's order. Past SEQ_GUESS
 * operations, while merging records (merge_records), room for as many as
 * the records left promise at this object's rate so far, up to SEQ_MAX:
 * a 25M-event pair's 1M of one mutex grow once or twice, not by
 * doubling (each a copy). 0 or TT_ENOMEM. */
#define SEQ_GUESS 4096
static int seq_room(oseq *s, const xrun *x)
{
    double guess = s->n >= SEQ_GUESS && x->merged && x->merging > x->merged
                       ? (double)s->n * (double)x->merging / (double)x->merged * 1.125
                       : 0;

    return ttdi_grow_guess(&s->op, &s->cap, s->n + 1, guess > SEQ_MAX ? SEQ_MAX : guess,
                           sizeof *s->op, 64);
}

static uint64_t who_hash(uint32_t thread, const char *func, const char *within)
{
    return ttfi_mix64(((uint64_t)(uintptr_t)func * 3 ^ (uint64_t)(uintptr_t)within) * 31 +
                      thread);
}

static int who_is(const opwho *w, uint32_t thread, const char *func, const char *within)
{
    return w->thread == thread && w->func == func && w->within == within;
}

/* The index of e's thread and names in x's table, added if new (a
 * recent one's slot, the first of its hash, else a scan): >= 0, or
 * TT_ENOMEM. */
static int64_t who_index(xrun *x, const ttd_xev *e)
{
    uint64_t h = who_hash(e->thread, e->func, e->within);
    uint32_t *hot = &x->whohot[ttdi_slot8(h)];
    uint64_t *first = ttdi_map_get(&x->whomap, h);
    size_t i;

    if (*hot && who_is(&x->who[*hot - 1], e->thread, e->func, e->within))
        return *hot - 1;
    if (first && who_is(&x->who[*first - 1], e->thread, e->func, e->within)) {
        i = *first - 1;
    } else {
        for (i = 0; first && i < x->nwho; i++)  /* two of one hash */
            if (who_is(&x->who[i], e->thread, e->func, e->within))
                break;
        if (!first || i == x->nwho) {
            if (x->nwho >= UINT32_MAX - 1 ||
                ttdi_grow(&x->who, &x->capwho, x->nwho + 1, sizeof *x->who, 16) < 0)
                return TT_ENOMEM;
            i = x->nwho++;
            x->who[i] = (opwho){e->thread, e->func, e->within};
            int added;
            uint64_t *v = first ? first : ttdi_map_put(&x->whomap, h, &added);
            if (!v)
                return TT_ENOMEM;
            *v = first ? *v : i + 1;
        }
    }
    *hot = (uint32_t)i + 1;
    return (int64_t)i;
}

/* Kept operation k of s (a good run's order, of run x) in full. */
static opcode op_full(const xrun *x, const oseq *s, size_t k)
{
    const opkept *o = &s->op[k];
    const opwho *w = &x->who[o->who];

    return (opcode){o->code, w->thread, o->time_ns, w->func, w->within};
}

static int seq_add(xrun *x, oseq *s, uint32_t code, const ttd_xev *e)
{
    if (s->n == SEQ_MAX)
        return 0;
    if (s->cmp) {
        if (s->diff == SIZE_MAX && (!s->ref || s->n >= s->ref->n || s->ref->op[s->n].code != code)) {
            s->diff = s->n;
            s->at = (opcode){code, e->thread, e->time_ns, e->func, e->within};
        }
        s->n++;
        return 0;
    }
    if (s->n == s->cap && seq_room(s, x) < 0)
        return TT_ENOMEM;
    int64_t who = who_index(x, e);
    if (who < 0)
        return (int)who;
    s->op[s->n++] = (opkept){code, (uint32_t)who, e->time_ns};
    return 0;
}

/* What the walk of the bad run found unprotected. */
typedef struct unprot {
    int found;              /* 1 once the first one is seen */
    uint64_t key;           /* its function */
    ttd_xev call;           /* its ENTER */
    uint64_t end;           /* its return */
    uint64_t lock;          /* the lock bit it missed */
    uint64_t calls;         /* good-run calls of it */
} unprot;

/* A call returned: the good run learns, the bad run checks against what
 * the good run learnt. */
static void ret(xrun *x, const xframe *f, uint32_t th, uint64_t now, fnslot *fns, int bad,
                unprot *u)
{
    fnslot *s = fn_find(fns, f->key, !bad);
    if (!s)
        return;
    if (!bad) {
        s->mask &= f->mask;
        s->calls++;
        return;
    }
    uint64_t miss = s->calls ? s->mask & ~f->mask : 0;
    if (!miss || u->found)
        return;
    u->found = 1;
    u->key = f->key;
    u->end = now;
    u->lock = miss & -miss;
    u->calls = s->calls;
    u->call = (ttd_xev){TTF_EV_ENTER, 0, th, x->in->pair_of[th], f->t0, NULL, f->name, NULL};
}

/* What needs the operations of all threads in order: the object numbered
 * on first use, the last operations, the object's order. *out the object
 * (NULL when the table is full); func the thread's innermost call, within
 * the one the operation is named by (ttdi_lock_caller). */
static int sync_order(struct ttfi_arena *a, xrun *x, const ttf_event *ev, const char *func,
                      const char *within, obj **out)
{
    obj *o = object(a, x, ev);
    ttd_xev e = {TTF_EV_SYNC_OP, ev->code, ev->thread, x->in->pair_of[ev->thread],
                 ev->time_ns, o ? o->label : "?", func, within};

    x->ring[x->nops++ % WINDOW] = e;
    *out = o;
    int64_t who = x->in->who_of ? x->in->who_of[ev->thread] : e.pair;
    if (!o || o->seq < 0 || e.pair < 0 || who < 0)
        return 0;
    return seq_add(x, &x->seq[o->seq], (uint32_t)who << 8 | (uint32_t)ev->code, &e);
}

/* A SYNC_OP of thread th, in the merged walk. */
static int sync_event(struct ttfi_arena *a, xrun *x, xthread *t, const ttf_event *ev)
{
    obj *o;
    int rc = sync_order(a, x, ev, t->n ? t->f[t->n - 1].name : "", ttdi_lock_caller(t), &o);

    if (o)
        ttdi_lock_bits(t, ev, o->kind == 0 && o->num <= 64 ? 1ull << (o->num - 1) : 0);
    return rc;
}

/* Thread th of run in from its start, the call stack by the walker's
 * rule: a run walk that leaves marks when no run walk marked the thread
 * yet (the details' walks to the other threads' last events start from
 * them), else a stack walk that reads no values and leaves nothing (the
 * split thread, which the timing scan marked); a thread past the run's
 * threads raw (its events only stop the walk). */
static int open_thread(const ttdi_ilv_run *in, uint32_t th, ttdi_walk *wk)
{
    if (th >= in->r->nt)
        return ttdi_walk_raw(wk, in->r->t, th);
    return ttdi_walk_marked(in->r, th) ? ttdi_walk_stack(wk, in->r->t, th, 0)
                                       : ttdi_walk_open(wk, in->r, th);
}

/* The next event of a walk open_thread opened. */
static inline int next_event(ttdi_walk *wk)
{
    return wk->stacked && !wk->r ? ttdi_walk_stack_next(wk) : ttdi_walk_next(wk);
}

/* An event of thread th in the merged walk. */
static int merged_event(struct ttfi_arena *a, xrun *x, const ttdi_walk *wk, uint32_t th,
                        fnslot *fns, int bad, unprot *u)
{
    xframe f;
    int rc;

    if (th >= x->in->r->nt)
        return 0;
    xthread *t = &x->th[th];
    if (wk->ev.kind == TTF_EV_SYNC_OP)
        return sync_event(a, x, t, &wk->ev);
    if ((rc = ttdi_lock_call(&x->in->r->norm, t, wk, &f)) > 0)
        ret(x, &f, th, ttf_event_late_ns(&wk->ev), fns, bad, u);
    return rc;
}

/* The thread whose event the reader's merge gives next: the lowest
 * (tick, thread) of the walks with an event (more[i]); n when none. */
static size_t first_head(const ttdi_walk *wk, const uint8_t *more, size_t n)
{
    size_t m = n;

    for (size_t i = 0; i < n; i++)
        if (more[i] && (m == n || wk[i].ev.tsc < wk[m].ev.tsc))
            m = i;
    return m;
}

/* Walk run x up to its split, all threads merged as the reader merges
 * them (by tick, ties by thread), each thread by its own walk (the
 * fallback of by_thread()). */
static int walk_run(struct ttfi_arena *a, xrun *x, fnslot *fns, int bad, unprot *u)
{
    const ttdi_ilv_run *in = x->in;
    size_t n = ttf_thread_count(in->r->t), opened = 0, m;
    ttdi_walk *wk = calloc(n + 1, sizeof *wk);
    uint8_t *more = calloc(n + 1, 1);
    int rc = wk && more ? 0 : TT_ENOMEM;

    for (; rc >= 0 && opened < n; opened++)
        if ((rc = open_thread(in, (uint32_t)opened, &wk[opened])) >= 0)
            more[opened] = (rc = next_event(&wk[opened])) > 0;
    while (rc >= 0 && (m = first_head(wk, more, n)) < n && wk[m].ev.time_ns <= in->split_ns)
        if ((rc = merged_event(a, x, &wk[m], (uint32_t)m, fns, bad, u)) >= 0)
            more[m] = (rc = next_event(&wk[m])) > 0;
    for (size_t i = 0; i < opened; i++)
        ttdi_walk_close(&wk[i]);
    free(wk);
    free(more);
    return rc < 0 ? rc : 0;
}

/* ---- the walk by thread (issue 38 item 4) ----------------------------------
 * The merged walk above pays a heap step per event of every thread. Only
 * the SYNC_OPs need the threads' order (objects numbered by first use, the
 * last operations, each object's order); calls and their lock sets are a
 * thread's own. So by_thread() walks each thread alone up to the split,
 * keeping its calls as walk_run does, and keeps its SYNC_OPs (with the
 * innermost call's name) as records; merging the records by (tsc, thread),
 * the reader's order, then numbers the objects and fills the ring and the
 * sequences exactly as walk_run would. A lock's bit is not known while a
 * thread walks alone (its number comes from the merged order), so the
 * lock sets use a provisional bit per lock address, mapped to the final
 * numbers afterwards (the sets only meet through and, or and not, bit by
 * bit, so the mapping commutes). The bad run's first call that misses a
 * lock (in merged order) is chosen among each thread's calls that may
 * miss one (the first of each function and lock set), once the numbers
 * are known. When that cannot be exact, it falls back to walk_run: more
 * than 64 lock addresses, a thread whose ticks go back, a merged walk that
 * would not stop where the threads' walks did, the function table full. */

#define PROV_MAX 64         /* lock addresses with a provisional bit */

/* A SYNC_OP kept for the merge. */
typedef struct srec {
    uint64_t tsc;           /* the reader's merge key (then the thread) */
    uint64_t time_ns;
    uint64_t addr;
    int64_t sync_arg;
    const char *func;       /* the thread's innermost call, "" */
    const char *within;     /* the call it is named by (ttdi_lock_caller) */
    uint32_t thread;
    int code;
} srec;

/* A bad-run call that may miss a lock the good run's calls all took. */
typedef struct cand {
    uint64_t tsc;           /* of its return */
    uint64_t end;           /* its return, at the latest */
    xframe f;               /* the call, its locks in provisional bits */
} cand;

/* One run walked by thread. */
typedef struct tpass {
    srec *rec;              /* SYNC_OPs of the threads walked, thread after
                               thread */
    size_t nrec, rcap;
    size_t *from;           /* per thread: its first record; [nt] = nrec */
    const ttdi_syncrec **vrec; /* per thread from the run walks' data
                               (from_tap): its records there, read in
                               place, not copied (no walk of that thread
                               grows them after: merge_records), NULL */
    const ttdi_callnames **vcn; /* ... and their names */
    const ttf_trace *vt;    /* ... and their run's trace (their times) */
    size_t *vn;             /* ... and how many */
    uint64_t paddr[PROV_MAX]; /* provisional bit i: lock address */
    int nprov;
    cand *c;                /* bad run: thread after thread */
    size_t nc, ccap;
    size_t *cfrom;          /* per thread: its first candidate */
    ttdi_map seen;          /* this thread's candidates by function and set */
    int exact;              /* 0: fall back to walk_run */
} tpass;

static uint64_t obj_addr(const ttf_event *ev)
{
    return ev->addr ? ev->addr : 1;
}

/* The provisional bit of a lock address, added when add (0 when not
 * known, or past PROV_MAX: inexact). */
static uint64_t prov_addr(tpass *p, uint64_t addr, int add)
{
    for (int i = 0; i < p->nprov; i++)
        if (p->paddr[i] == addr)
            return 1ull << i;
    if (!add)
        return 0;
    if (p->nprov == PROV_MAX) {
        p->exact = 0;
        return 0;
    }
    p->paddr[p->nprov] = addr;
    return 1ull << p->nprov++;
}

static uint64_t prov_bit(tpass *p, const ttf_event *ev, int add)
{
    return prov_addr(p, obj_addr(ev), add);
}

static int keep_sync(tpass *p, xthread *t, const ttf_event *ev)
{
    if (ttdi_sop_took(ev->code, ev->sync_arg) || ev->code == TTF_SOP_UNLOCK)
        ttdi_lock_bits(t, ev, prov_bit(p, ev, ev->code != TTF_SOP_UNLOCK));
    if (p->nrec == p->rcap &&
        ttdi_grow(&p->rec, &p->rcap, p->nrec + 1, sizeof *p->rec, 256) < 0)
        return TT_ENOMEM;
    p->rec[p->nrec++] = (srec){ev->tsc, ev->time_ns, ev->addr, ev->sync_arg,
                               t->n ? t->f[t->n - 1].name : "", ttdi_lock_caller(t), ev->thread,
                               ev->code};
    return 0;
}

/* A bad-run call returned (its return's tick and latest time): kept when
 * the good run's calls of its function all had a lock (numbered) and this
 * thread has not kept one of the same function and provisional set
 * before. */
static int keep_cand(tpass *p, const xframe *f, uint64_t tsc, uint64_t late, fnslot *fns)
{
    fnslot *s = fn_find(fns, f->key, 0);
    int added;

    if (!s || !s->calls || !s->mask)
        return 0;
    uint64_t *v = ttdi_map_put(&p->seen, f->key ^ ttfi_mix64(f->mask), &added);
    if (!v)
        return TT_ENOMEM;
    if (!added && p->c[*v].f.key == f->key && p->c[*v].f.mask == f->mask)
        return 0;
    if (p->nc == p->ccap && ttdi_grow(&p->c, &p->ccap, p->nc + 1, sizeof *p->c, 64) < 0)
        return TT_ENOMEM;
    if (added)
        *v = p->nc;
    p->c[p->nc++] = (cand){tsc, late, *f};
    return 0;
}

/* Lock set m in a thread's own bits (paddr) as the run's provisional bits. */
static uint64_t run_bits(tpass *p, const uint64_t *paddr, uint64_t m)
{
    uint64_t out = 0;

    for (; m; m &= m - 1)
        out |= prov_addr(p, paddr[__builtin_ctzll(m)], 1);
    return out;
}

int ttdi_ilv_notap;

/* A thread's walk to the split (tap_walk), done ahead. */
typedef struct prewalk {
    int done;               /* 1: walked (rc, last, over hold its result) */
    int rc;
    uint64_t last, over;
} prewalk;

/* The walk from_tap reads thread th of run in with: a run walk from the
 * latest mark before the split to the first event past it, giving *last
 * and *over as walk_thread's walk would, then on to the thread's end when
 * little is left (ttdi_walk_read_out). It reads and writes only the run's
 * own state (its marks and records). 0 or a TT_E* code. */
static int tap_walk(const ttdi_ilv_run *in, uint32_t th, uint64_t *last, uint64_t *over)
{
    ttdi_walk wk;
    int rc = ttdi_walk_open_at(&wk, in->r, th, UINT64_MAX, in->split_ns, 0);
    const ttf_thread *t = ttf_get_thread(in->r->t, th);

    uint64_t pin = t && t->start_ns < in->split_ns
                       ? in->split_ns - (in->split_ns - t->start_ns) / 64 : 0;
    if (rc >= 0 && pin && (!wk.nraw || wk.max_ns < pin))  /* from before it */
        ttdi_walk_pin_ns(&wk, pin);
    *last = rc >= 0 && wk.nraw ? wk.ev.tsc + 1 : 0;     /* the mark's event */
    *over = UINT64_MAX;
    while (rc >= 0 && (rc = ttdi_walk_next(&wk)) > 0) {
        if (wk.ev.time_ns > in->split_ns) {
            *over = wk.ev.tsc;
            break;
        }
        *last = wk.ev.tsc + 1;
    }
    if (rc >= 0)
        rc = ttdi_walk_read_out(&wk);
    ttdi_walk_close(&wk);
    return rc < 0 ? rc : 0;
}

/* Thread th of run x from what the run walks that read it first kept
 * (ttdi_walk_tap, issue 38 item 4): a run walk from the latest mark
 * before the split (the timing scan's, on the split thread) to the first
 * event past it gives *last and *over as walk_thread's walk would, then
 * the SYNC_OP records and the first return of each (function, lock set)
 * up to there stand for the thread's events: the good run's lock sets per
 * function are those returns' sets anded (the calls counted are one per
 * set: the engine counts again when a finding shows the number), the bad
 * run's candidates are those returns. *used 0 when the data is not there
 * (then walk_thread walks the thread). */
static int from_tap(xrun *x, uint32_t th, fnslot *fns, int bad, tpass *p, uint64_t *last,
                    uint64_t *over, int *used)
{
    const ttdi_ilv_run *in = x->in;
    ttdi_ltap tp;
    int rc;

    *used = 0;
    if (x->pre && x->pre[th].done) {
        rc = x->pre[th].rc;
        *last = x->pre[th].last;
        *over = x->pre[th].over;
    } else {
        rc = tap_walk(in, th, last, over);
    }
    if (rc < 0 || !ttdi_walk_tap(in->r, th, in->split_ns, &tp))
        return rc < 0 ? rc : 0;
    *used = 1;
    p->vrec[th] = tp.rec;   /* read in place by merge_records */
    p->vcn[th] = tp.calls;
    p->vn[th] = tp.nrec;
    for (size_t k = 0; k < tp.nret && rc >= 0; k++) {
        xframe f = tp.ret[k].f;
        f.mask = run_bits(p, tp.paddr, f.mask);
        if (bad)
            rc = keep_cand(p, &f, tp.ret[k].tsc, tp.ret[k].late_ns, fns);
        else
            ret(x, &f, th, 0, fns, 0, NULL);
    }
    return rc;
}

/* Thread th of run x alone, up to its first event past the split: *last
 * the merge key of the last event taken (0: none), *over that of the
 * first past the split (UINT64_MAX: none); ticks going back make it
 * inexact. */
static int walk_thread(xrun *x, uint32_t th, fnslot *fns, int bad, tpass *p, uint64_t *last,
                       uint64_t *over)
{
    const ttdi_ilv_run *in = x->in;
    ttdi_walk wk;
    xframe f;
    uint64_t prev = 0;
    int used = 0, rc;

    if (in->r->lock_tap && !ttdi_ilv_notap && !x->notap && th < in->r->nt &&
        ((rc = from_tap(x, th, fns, bad, p, last, over, &used)) < 0 || used)) {
        x->tapped |= used;
        return rc;
    }
    rc = open_thread(in, th, &wk);

    *last = 0;
    *over = UINT64_MAX;
    while (rc >= 0 && (rc = next_event(&wk)) > 0) {
        if (wk.ev.tsc < prev)
            p->exact = 0;
        prev = wk.ev.tsc;
        if (wk.ev.time_ns > in->split_ns) {
            *over = wk.ev.tsc;
            break;
        }
        *last = wk.ev.tsc + 1;
        if (th >= in->r->nt)
            continue;
        xthread *t = &x->th[th];
        if (wk.ev.kind == TTF_EV_SYNC_OP)
            rc = keep_sync(p, t, &wk.ev);
        else if ((rc = ttdi_lock_call(&in->r->norm, t, &wk, &f)) > 0)
            rc = bad ? keep_cand(p, &f, wk.ev.tsc, ttf_event_late_ns(&wk.ev), fns)
                     : (ret(x, &f, th, 0, fns, 0, NULL), 0);
    }
    if (rc >= 0 && wk.r)    /* its calls counted: the count facts read it no more */
        rc = ttdi_walk_read_out(&wk);
    ttdi_walk_close(&wk);
    return rc < 0 ? rc : 0;
}

/* The final bits of a provisional set: the locks numbered 1..64. */
static uint64_t final_bits(const xrun *x, const tpass *p, uint64_t prov)
{
    uint64_t out = 0;

    for (int i = 0; i < p->nprov; i++) {
        if (!(prov >> i & 1))
            continue;
        uint64_t addr = p->paddr[i];
        obj *o = ttdi_probe(x->objs, OBJ_CAP, sizeof *o,
                            (size_t)((addr * 0x9E3779B97F4A7C15ull) >> 52), addr, 0, NULL);
        if (o && o->kind == 0 && o->num <= 64)
            out |= 1ull << (o->num - 1);
    }
    return out;
}

/* The merge key of thread i's record k (1), or 0 past its last. */
static inline int rec_tsc(const tpass *p, size_t i, size_t k, uint64_t *tsc)
{
    if (p->vrec[i]) {
        if (k >= p->vn[i])
            return 0;
        *tsc = p->vrec[i][k].tsc;
        return 1;
    }
    if (p->from[i] + k >= p->from[i + 1])
        return 0;
    *tsc = p->rec[p->from[i] + k].tsc;
    return 1;
}

/* Thread i's record k as the SYNC_OP event *ev (its other fields as
 * they were), with its call's names. */
static void rec_event(const tpass *p, size_t i, size_t k, ttf_event *ev, const char **func,
                      const char **within)
{
    ev->kind = TTF_EV_SYNC_OP;
    if (p->vrec[i]) {
        const ttdi_syncrec *r = &p->vrec[i][k];
        ev->code = ttdi_sr_code(r);
        ev->thread = (uint32_t)i;
        ev->tsc = r->tsc;
        ev->time_ns = ttdi_sr_ns(p->vt, r);
        ev->addr = r->addr;
        ev->sync_arg = r->sync_arg;
        *func = p->vcn[i] ? p->vcn[i][ttdi_sr_call(r)].func : NULL;
        *within = p->vcn[i] ? p->vcn[i][ttdi_sr_call(r)].within : NULL;
        return;
    }
    const srec *m = &p->rec[p->from[i] + k];
    ev->code = m->code;
    ev->thread = m->thread;
    ev->tsc = m->tsc;
    ev->time_ns = m->time_ns;
    ev->addr = m->addr;
    ev->sync_arg = m->sync_arg;
    *func = m->func;
    *within = m->within;
}

/* The records merged by (tsc, thread): numbered, the ring, the orders.
 * The records read in place
 * (p->vrec) are the run state's: no walk of their thread runs between
 * from_tap and here, so none grows (moves) them. */
static int merge_records(struct ttfi_arena *a, xrun *x, const tpass *p, size_t nt)
{
    size_t *at = calloc(nt + 1, sizeof *at), total = p->nrec;
    ttf_event ev;
    int rc = at ? 0 : TT_ENOMEM;

    memset(&ev, 0, sizeof ev);
    for (size_t i = 0; i < nt; i++)
        total += p->vn[i];
    for (size_t k = 0; k < total && rc >= 0; k++) {
        uint64_t best = 0, tsc;
        size_t mi = nt;
        for (size_t i = 0; i < nt; i++)     /* ties: the lower thread */
            if (rec_tsc(p, i, at[i], &tsc) && (mi == nt || tsc < best)) {
                best = tsc;
                mi = i;
            }
        const char *func, *within;
        rec_event(p, mi, at[mi]++, &ev, &func, &within);
        obj *o;
        x->merging = total;
        x->merged = k;
        rc = sync_order(a, x, &ev, func, within, &o);
    }
    x->merging = x->merged = 0;
    free(at);
    return rc;
}

/* The bad run's first call (merged order) missing a lock. */
static void first_miss(const xrun *x, const tpass *p, fnslot *fns, size_t nt, unprot *u)
{
    uint64_t best = 0;

    for (size_t th = 0; th < nt; th++)
        for (size_t k = p->cfrom[th]; k < p->cfrom[th + 1]; k++) {
            const cand *c = &p->c[k];
            fnslot *s = fn_find(fns, c->f.key, 0);
            uint64_t miss = s->mask & ~final_bits(x, p, c->f.mask);
            if (!miss)
                continue;
            if (!u->found || c->tsc < best) {   /* a tie: the lower thread */
                best = c->tsc;
                u->found = 1;
                u->key = c->f.key;
                u->end = c->end;
                u->lock = miss & -miss;
                u->calls = s->calls;
                u->call = (ttd_xev){TTF_EV_ENTER, 0, (uint32_t)th, x->in->pair_of[th], c->f.t0,
                                    NULL, c->f.name, NULL};
            }
            break;
        }
}

/* Did the threads' walks take what the merged walk takes? It stops at
 * the first event past the split in (tsc, thread) order: every thread's
 * last event taken must come before it. */
static int same_stop(const uint64_t *last, const uint64_t *over, size_t n)
{
    size_t s = n;

    for (size_t i = 0; i < n; i++)
        if (over[i] != UINT64_MAX && (s == n || over[i] < over[s]))
            s = i;
    for (size_t i = 0; i < n && s < n; i++)
        if (last[i] && (last[i] - 1 > over[s] || (last[i] - 1 == over[s] && i > s)))
            return 0;
    return 1;
}

/* The good run's lock sets per function in final bits; 0 when the table
 * filled (which functions it kept would depend on the order). */
static int final_fns(const xrun *x, const tpass *p, fnslot *fns)
{
    size_t used = 0;

    for (size_t i = 0; i < FN_CAP; i++)
        if (fns[i].key) {
            used++;
            fns[i].mask = final_bits(x, p, fns[i].mask);
        }
    return used < FN_CAP;
}

/* Run x walked by thread (see above); *exact 0 when the caller must walk
 * it merged instead (x and fns may be half filled then). */
static int by_thread(struct ttfi_arena *a, xrun *x, fnslot *fns, int bad, unprot *u,
                     int *exact)
{
    size_t n = ttf_thread_count(x->in->r->t), nt = x->in->r->nt < n ? x->in->r->nt : n;
    tpass p = {.exact = 1, .vt = x->in->r->t};
    uint64_t *last = calloc(2 * n + 1, sizeof *last), *over = last + n;
    int rc = last ? 0 : TT_ENOMEM;

    if (last && (!(p.from = calloc(nt + 1, sizeof *p.from)) ||
                 !(p.cfrom = calloc(nt + 1, sizeof *p.cfrom)) ||
                 !(p.vrec = calloc(nt + 1, sizeof *p.vrec)) ||
                 !(p.vn = calloc(nt + 1, sizeof *p.vn)) ||
                 !(p.vcn = calloc(nt + 1, sizeof *p.vcn))))
        rc = TT_ENOMEM;
    for (size_t th = 0; th < n && rc >= 0 && p.exact; th++) {
        if (th <= nt) {
            p.from[th] = p.nrec;
            p.cfrom[th] = p.nc;
        }
        ttdi_map_free(&p.seen);
        rc = walk_thread(x, (uint32_t)th, fns, bad, &p, &last[th], &over[th]);
    }
    if (rc >= 0 && p.exact) {
        p.from[nt] = p.nrec;
        p.cfrom[nt] = p.nc;
        p.exact = same_stop(last, over, n);
    }
    if (rc >= 0 && p.exact)
        rc = merge_records(a, x, &p, nt);
    if (rc >= 0 && p.exact && !bad)
        p.exact = final_fns(x, &p, fns);
    if (rc >= 0 && p.exact && bad)
        first_miss(x, &p, fns, nt, u);
    *exact = p.exact;
    ttdi_map_free(&p.seen);
    free(p.rec);
    free(p.c);
    free(p.from);
    free(p.cfrom);
    free(p.vrec);
    free(p.vn);
    free(p.vcn);
    free(last);
    return rc;
}

/* Forget a half-done walk of x (by_thread() fell back). */
static void xrun_reset(xrun *x)
{
    for (size_t i = 0; i < x->in->r->nt; i++) {
        free(x->th[i].f);
        memset(&x->th[i], 0, sizeof x->th[i]);
    }
    for (size_t i = 0; i < x->nseq; i++)
        free(x->seq[i].op);
    memset(x->objs, 0, OBJ_CAP * sizeof *x->objs);
    memset(x->nkind, 0, sizeof x->nkind);
    memset(x->seq, 0, sizeof x->seq);
    x->nseq = 0;
    x->nops = 0;
    x->tapped = 0;
}

int ttdi_ilv_merged;

/* Run x up to its split: by thread, else merged. */
static int walk_split(struct ttfi_arena *a, xrun *x, fnslot *fns, int bad, unprot *u)
{
    int exact = 0;
    int rc = ttdi_ilv_merged ? 0 : by_thread(a, x, fns, bad, u, &exact);

    if (rc < 0 || exact)
        return rc;
    xrun_reset(x);
    if (!bad)
        memset(fns, 0, FN_CAP * sizeof *fns);
    memset(u, 0, sizeof *u);
    return walk_run(a, x, fns, bad, u);
}

/* What the other threads of the bad run did while the unprotected call
 * ran: their calls of the same function and their operations, the last
 * DURING_MAX before it returned (where a race completes). The overlap is
 * a call of it still open at its end, else the last one that ended
 * meanwhile (an untimed return is placed by estimate: which of two
 * returns came first is then not known). */
static int during(struct ttfi_arena *a, xrun *x, const unprot *u, ttd_interleave *out)
{
    const ttdi_ilv_run *in = x->in;
    ttd_xev *v = ttfi_arena_zalloc(a, (DURING_MAX + 1) * sizeof *v);
    ttdi_walk wk;
    uint64_t key;
    size_t n = 0;
    int rc;

    ttd_xev closed = {0};   /* the last call of it another thread ended meanwhile */
    ttd_xev *open_at = calloc(in->r->nt + 1, sizeof *open_at);
    if (!v || !open_at) {
        free(open_at);
        return TT_ENOMEM;
    }
    if ((rc = ttdi_walk_raw(&wk, in->r->t, TTF_ALL_THREADS)) < 0) {
        free(open_at);
        return rc;
    }
    while ((rc = ttdi_walk_next(&wk)) > 0 && wk.ev.time_ns <= u->end) {
        if (wk.ev.thread >= in->r->nt || wk.ev.thread == u->call.thread)
            continue;
        if (wk.ev.time_ns < u->call.time_ns) { /* before: only who is inside it */
            if (wk.ev.kind == TTF_EV_EXIT && ttf_event_late_ns(&wk.ev) >= u->call.time_ns)
                continue;   /* an untimed return that may come after it began */
            if ((wk.ev.kind == TTF_EV_ENTER || wk.ev.kind == TTF_EV_EXIT) &&
                (rc = ttdi_norm_key(&in->r->norm, &wk.ev, &key)) > 0 &&
                (key == u->key || key == ttdi_norm_exit_of(u->key)))
                open_at[wk.ev.thread] = key == u->key
                    ? (ttd_xev){TTF_EV_ENTER, 0, wk.ev.thread, in->pair_of[wk.ev.thread],
                                wk.ev.time_ns, NULL, ttdi_norm_func(&in->r->norm, &wk.ev), NULL}
                    : (ttd_xev){0};
            continue;
        }
        ttd_xev e = {wk.ev.kind, 0, wk.ev.thread, in->pair_of[wk.ev.thread], wk.ev.time_ns, NULL, "",
                     NULL};
        if (wk.ev.kind == TTF_EV_SYNC_OP) {
            obj *o = object(a, x, &wk.ev);
            e.op = wk.ev.code;
            e.object = o ? o->label : "?";
        } else if (wk.ev.kind == TTF_EV_ENTER || wk.ev.kind == TTF_EV_EXIT) {
            if ((rc = ttdi_norm_key(&in->r->norm, &wk.ev, &key)) <= 0 ||
                key != (wk.ev.kind == TTF_EV_ENTER ? u->key : ttdi_norm_exit_of(u->key)))
                continue;
            e.func = ttdi_norm_func(&in->r->norm, &wk.ev);
            if (wk.ev.kind == TTF_EV_EXIT && open_at[wk.ev.thread].kind == TTF_EV_ENTER)
                closed = open_at[wk.ev.thread];     /* it overlapped, and ended first */
            open_at[wk.ev.thread] = wk.ev.kind == TTF_EV_ENTER ? e : (ttd_xev){0};
        } else {
            continue;
        }
        v[n++ % DURING_MAX] = e;
    }
    ttdi_walk_close(&wk);
    for (size_t i = 0; i < in->r->nt && !out->overlapped; i++)
        if (open_at[i].kind == TTF_EV_ENTER) {
            out->overlapped = 1;
            out->overlap = open_at[i];
        }
    if (!out->overlapped && closed.kind == TTF_EV_ENTER) {
        out->overlapped = 1;    /* none inside at its end: the last that was */
        out->overlap = closed;
    }
    free(open_at);
    if (n > DURING_MAX) { /* the ring holds the last ones: oldest first */
        ttd_xev tmp[DURING_MAX];
        for (size_t i = 0; i < DURING_MAX; i++)
            tmp[i] = v[(n + i) % DURING_MAX];
        memcpy(v, tmp, sizeof tmp);
    }
    out->during = v;
    out->nduring = n < DURING_MAX ? n : DURING_MAX;
    return rc < 0 ? rc : 0;
}

/* The first object whose operations differ in thread order (or count),
 * the one whose difference comes earliest in the bad run. */
static void first_order(const xrun *g, const xrun *b, ttd_interleave *out)
{
    uint64_t best = UINT64_MAX;

    for (size_t j = 0; j < g->nseq; j++) {
        const oseq *sg = &g->seq[j], *sb = NULL;
        for (size_t k = 0; k < b->nseq && !sb; k++)
            if (!strcmp(sg->label, b->seq[k].label))
                sb = &b->seq[k];
        if (!sb || (sb->cmp && sb->ref != sg))
            continue;       /* (labels are unique in a run) */
        /* the first index where the orders differ: the bad run's
           operations were compared with sg's as they came (seq_add) */
        size_t i = sb->diff == SIZE_MAX ? sb->n : sb->diff;
        if (i == sg->n && i == sb->n)
            continue;
        uint64_t when = i < sb->n ? sb->cmp ? sb->at.time_ns : sb->op[i].time_ns
                                  : b->in->split_ns;
        if (when >= best)
            continue;
        best = when;
        out->order_differs = 1;
        out->order_object = sg->label;
        out->order_index = i;
        const xrun *x[2] = {g, b};
        const oseq *s[2] = {sg, sb};
        for (int r = 0; r < 2; r++) {
            memset(&out->order[r], 0, sizeof out->order[r]);
            if (i >= s[r]->n)
                continue;
            opcode full = r && sb->cmp ? sb->at : op_full(x[r], s[r], i);
            const opcode *o = &full;
            out->order[r] = (ttd_xev){TTF_EV_SYNC_OP, (int)(o->code & 0xff), o->thread,
                                      x[r]->in->pair_of[o->thread], o->time_ns,
                                      sg->label, o->func, o->within};
        }
    }
}

/* Did two threads operate on one object among v[0..n)? */
static int shared(const ttd_xev *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t j = i + 1; j < n; j++)
            if (v[i].thread != v[j].thread && v[i].object && v[j].object &&
                strcmp(v[i].object, v[j].object) == 0)
                return 1;
    return 0;
}

static int window(struct ttfi_arena *a, const xrun *x, int r, ttd_interleave *out)
{
    size_t n = x->nops < WINDOW ? (size_t)x->nops : WINDOW;
    ttd_xev *v = ttfi_arena_zalloc(a, (n + 1) * sizeof *v);

    if (!v)
        return TT_ENOMEM;
    for (size_t i = 0; i < n; i++)
        v[i] = x->ring[(x->nops - n + i) % WINDOW];
    out->window[r] = v;
    out->nwindow[r] = n;
    out->shared |= shared(v, n);
    out->ops[r] = x->nops;
    return 0;
}

static void xrun_free(xrun *x)
{
    for (size_t i = 0; x->th && i < x->in->r->nt; i++)
        free(x->th[i].f);
    for (size_t i = 0; i < x->nseq; i++)
        free(x->seq[i].op);
    free(x->who);
    ttdi_map_free(&x->whomap);
    free(x->th);
    free(x->objs);
    free(x->pre);
}

static int unprot_result(struct ttfi_arena *a, xrun *b, const xrun *g, const unprot *u,
                         ttd_interleave *out)
{
    int bit = __builtin_ctzll(u->lock) + 1;

    out->unprotected = 1;
    out->unprot_func = u->call.func;
    out->unprot_call = u->call;
    out->unprot_end_ns = u->end;
    out->good_calls = u->calls;
    out->unprot_lock = "mutex";
    for (size_t i = 0; i < OBJ_CAP; i++)
        if (g->objs[i].addr && g->objs[i].kind == 0 && g->objs[i].num == bit)
            out->unprot_lock = g->objs[i].label;
    return during(a, b, u, out);
}

/* The good run's calls of u's function when its walk took threads from
 * what the run walks kept (one call per lock set there): walked again,
 * every thread by the thread order itself. */
static int recount(struct ttfi_arena *a, const ttdi_ilv_run *in, unprot *u)
{
    xrun g;
    unprot none = {0};
    fnslot *fns = calloc(FN_CAP, sizeof *fns);
    int rc = fns ? 0 : TT_ENOMEM;

    memset(&g, 0, sizeof g);
    g.in = in;
    g.notap = 1;
    g.th = calloc(in->r->nt + 1, sizeof *g.th);
    g.objs = calloc(OBJ_CAP, sizeof *g.objs);
    if (rc >= 0 && (!g.th || !g.objs))
        rc = TT_ENOMEM;
    if (rc >= 0 && (rc = walk_split(a, &g, fns, 0, &none)) >= 0) {
        const fnslot *s = fn_find(fns, u->key, 0);
        u->calls = s ? s->calls : u->calls;
    }
    xrun_free(&g);
    free(fns);
    return rc;
}

uint64_t ttdi_ilv_jobs_apart;

/* Run x's walks to the split that by_thread() will take from_tap, done
 * ahead in ttdi_both (each run's own state only: its marks, records and
 * normaliser), so both runs' are read at once; by_thread() then takes
 * their results in its order (a thread whose data is not there or not
 * exact is then walked by walk_thread, as before). Its walks leave the
 * marks and records the later walks would have (the run walks' state is
 * a cache: walks from it see every event as from the start), also of a
 * thread by_thread() would not reach after falling back to the merged
 * walk. 0 or TT_ENOMEM (the walks' errors are kept for by_thread()). */
static int pre_walks(void *arg)
{
    xrun *x = arg;
    const ttdi_ilv_run *in = x->in;
    size_t n = ttf_thread_count(in->r->t), nt = in->r->nt < n ? in->r->nt : n;

    if (ttdi_job_apart)
        __atomic_fetch_add(&ttdi_ilv_jobs_apart, 1, __ATOMIC_RELAXED);
    if (!(x->pre = calloc(nt + 1, sizeof *x->pre)))
        return TT_ENOMEM;
    for (size_t th = 0; th < nt; th++) {
        prewalk *w = &x->pre[th];
        w->rc = tap_walk(in, (uint32_t)th, &w->last, &w->over);
        w->done = 1;
        if (w->rc < 0)
            break;          /* by_thread() stops there */
    }
    return 0;
}

int ttdi_interleave_build(struct ttfi_arena *a, const ttdi_ilv_run in[2], ttd_interleave **out)
{
    xrun x[2];
    unprot u = {0};
    fnslot *fns = calloc(FN_CAP, sizeof *fns);
    ttd_interleave *res = ttfi_arena_zalloc(a, sizeof *res);
    int rc = fns && res ? 0 : TT_ENOMEM;

    *out = NULL;
    memset(x, 0, sizeof x);
    x[0].in = &in[0];
    x[1].in = &in[1];
    x[1].good = &x[0];
    if (rc >= 0 && in[0].two && !ttdi_ilv_merged && !ttdi_ilv_notap && in[0].r->lock_tap &&
        in[1].r->lock_tap) {
        int prc[2];
        ttdi_both(1, pre_walks, &x[0], &x[1], prc);
        rc = prc[0] < 0 ? prc[0] : prc[1];
    }
    for (int r = 0; r < 2 && rc >= 0; r++) {
        x[r].th = calloc(in[r].r->nt + 1, sizeof *x[r].th);
        x[r].objs = calloc(OBJ_CAP, sizeof *x[r].objs);
        if (!x[r].th || !x[r].objs)
            rc = TT_ENOMEM;
        else if ((rc = walk_split(a, &x[r], fns, r, &u)) >= 0)
            rc = window(a, &x[r], r, res);
    }
    if (rc >= 0 && (x[0].nops || x[1].nops)) {
        first_order(&x[0], &x[1], res);
        if (u.found && x[0].tapped)
            rc = recount(a, &in[0], &u);
        if (u.found && rc >= 0)
            rc = unprot_result(a, &x[1], &x[0], &u, res);
        if (rc >= 0)
            *out = res;
    }
    xrun_free(&x[0]);
    xrun_free(&x[1]);
    free(fns);
    return rc < 0 ? rc : 0;
}
