/*
 * races.c - races named: calls of two threads that overlapped with
 * nothing ordering them, from one run's happens-before order.
 * Stage 3 explain of diff/STAGES (its header: resolve.h).
 *
 * Design. FastTrack (Flanagan and Freund, PLDI 2009) keeps a vector
 * clock per thread and per lock, and an epoch (clock@thread) per memory
 * location: an access races with an earlier one when the earlier epoch is
 * not below the accessing thread's clock entry for that thread. The trace
 * has no memory accesses, but it has every call and every SYNC_OP, so the
 * same clocks work at function granularity:
 *   lock, successful trylock, condition woken: acquire (the thread's
 *     clock joins the lock's or the condition's);
 *   unlock, condition wait (its mutex): release (the lock's clock becomes
 *     the thread's; the thread's own entry goes up by one);
 *   signal, broadcast: release into the condition's clock;
 *   create: the child's clock joins the parent's (then the parent's entry
 *     goes up); join: the joiner's clock joins the joined thread's.
 * An event x of thread t at epoch e happens before an event y of thread u
 * iff e <= C_u[t] at y. Clocks start at 1 for the thread's own entry.
 *
 * What is compared is a check-then-act: a call that held no lock and took
 * none (the check, e.g. tickets_left) followed in the same caller by a
 * call during which a lock is taken (the act, take_ticket). Each thread's
 * window runs from the check's entry to the act's release of its last lock
 * (the act's effect is visible from there). Two windows of the same check
 * and act in two threads race when the first one's release does not
 * happen before the second one's check: nothing made the second thread
 * check after the first one acted. They "overlapped" when, moreover, the
 * second check came before that release in time: both threads were
 * between check and act at once, the shape of an oversold last ticket.
 * Unordered windows that did not overlap are what could have happened
 * (reported when nothing overlapped, as candidates). A check is one of the
 * last CANDS lock-free calls of the caller since its last locking call
 * (the stretch before the act); each makes its own window, so
 * `if (left()) { work(); take(); }` yields (left, take) and (work, take),
 * and the good runs tell them apart: a pair that overlapped in a good run
 * too ranks lower. The check is the call whose result the branch used:
 * one that returns nothing ranks below its rivals, and in values mode the
 * one whose value decided whether the act followed ranks above them
 * (decides.c: the walk notes each candidate's return value and what
 * followed it; that needs the values the first walk skips, so the bad
 * run is walked again with them only when checks vie for one act). When
 * no value decided (plain mode), the code does: a check reads the state
 * its branch tests, so a rival whose machine code reads only its own
 * stack and scalar arguments ranks below one that reads memory other
 * threads can write (format/reads.c, asked only of the few rival checks
 * once the walk is done).
 *
 * The same clocks generalise interleave.c's "unprotected" rule, which
 * needs good runs to learn which functions lock: a function whose calls
 * take a lock themselves (learnt from the bad run), called by two threads
 * with nothing ordering the calls and at least one without the lock, is
 * named too (race_queue's reserve_slot).
 *
 * The call stack is the run walks' (issue 35 item 2): each thread is read
 * by a stack walk (walker.c), and this file keeps only its data per open
 * call (function, entry, locks, candidate checks) in step with the walk's
 * frames, closing what the walker's rule closes (ttdi_walk_depth_after):
 * an EXIT returns from its own frame (at any depth), the frames above it
 * a longjmp left close unreturned, and the frames an UNWIND left close at
 * the next ENTER. A frame closed unreturned is no call (neither a
 * candidate check nor a call of a lock-taking function), and a lock taken
 * in it was taken inside the frame below, whose stretch it ends as a
 * locking call does (as the thread order passes its locks down). (Before,
 * an EXIT closed its frame only when found within 8 frames of the top,
 * the frames above it counting as returned calls, and UNWINDs were
 * ignored; on traces without UNWIND records or skipped exits both rules
 * agree.)
 *
 * Times. Which windows or calls race is the clocks' answer; times say
 * only whether two of them overlapped ("both between" rather than "could
 * have been") and which one to show. A call's entry is taken at the
 * earliest it can have been and its return at the latest (an untimed
 * ENTER of the lazy clock at early_ns, an untimed EXIT at late_ns,
 * FORMAT.md 4.5 and 4.7), so that the reader's estimate of an untimed
 * event never makes two calls look apart when they may have overlapped;
 * measured events keep their times. The window's release is the latest
 * it can have taken effect: the thread's next event after its UNLOCK
 * record (measured in libttcap's traces: a clock read clears the lazy
 * flag, and the EXIT of a call holding a sync record is timed), since
 * libttcap writes the record just before the real unlock and the act's
 * stores may reach the other threads only as that returns. So a window
 * compares once its thread's next event is read (settle); a condition
 * wait's release keeps the record's time (the next event is the wake-up).
 *
 * Cost. One pass over the run: each thread is read alone up to its next
 * sync operation (calls touch only their own thread's state), and the
 * held sync operations are taken in time order, ties by thread, as the
 * reader merges; so no merge step per event. Per event a few compares (an
 * ENTER pushes a frame; an EXIT pops it, keeps a lock-free call as a
 * candidate check, and keeps a call of a lock-taking function, found
 * through a one-bit filter tested in line, with its clock); clocks are
 * joined only at sync operations; a window's close scans the last RING
 * windows of the other threads, newest first, up to the first one ordered
 * before it. Neither compare runs before another thread has something to
 * compare with: a call of a lock-taking function is compared once a
 * second thread kept a call of that function (fnstat.first), a window
 * once a second thread opened one of its shape, check, act and caller
 * (wkey, by a hash of the shape: two shapes of one hash only make a
 * compare run that finds nothing; past WKEY_CAP / 2 shapes every window
 * compares), so a thread's own functions and shapes cost no scan of the
 * others. No names are looked up until the few races found are written
 * out. The
 * engine runs it only when threads matter (a split while two threads ran,
 * or a failing outcome) and the traces recorded sync operations, and not
 * at all when what the run walks kept shows that it can find nothing
 * (ttdi_races_possible, issue 38 item 4: every finding pairs two threads'
 * returned calls of one function, one of them at least lock-free, and the
 * thread order's first return of each function and lock set in each
 * thread, ttdi_walk_tap, says whether a function returned lock-free in
 * one thread and returned in another; on data it cannot vouch for, a
 * thread not read past the walk's end, lock sets not exact, a return the
 * filter drops, an UNLOCK of a mutex not held, a call inside a condition
 * wait, it walks). A
 * thread read ahead of the others can meet a lock-free call of a function
 * before the call that shows the function locks: the rule then misses it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "resolve.h"

#define CANDS 4             /* candidate checks kept per caller */
#define RING 8              /* windows kept per thread */
#define STACK_KEEP 12       /* frames kept per window (innermost ones) */
#define AGG_CAP 64          /* distinct (check, act) pairs per run */
#define OBJ_CAP 4096        /* sync objects per run (hash slots) */
#define UP_MAX 4            /* callers searched for a check above the lock */
#define FN_CAP 4096         /* lock-taking functions tracked (hash slots) */
#define FN_BLOOM (1u << 16) /* bits of their filter */
#define UNPROT UINT64_MAX   /* agg.caller of an unprotected-call finding */
#define FN_SHARED UINT16_MAX /* fnstat.first: two threads kept calls */
#define WKEY_CAP 1024       /* window shapes tracked (hash slots; half
                               of them at most, then every window
                               compares) */
#define CBUCKETS 16         /* buckets of a thread's calls of lock-taking */
#define CDEPTH 4            /* functions, calls kept per bucket */

/* A candidate check: a lock-free call that returned in its caller. */
typedef struct cand {
    uint64_t fn;            /* function id */
    uint64_t t0;            /* its entry */
    uint32_t ver;           /* the thread's clock version then */
    uint8_t has_ret;        /* 1: ret was recorded (values mode) */
    uint64_t ret;           /* its return value */
} cand;

/* One open call. f[0] of a thread is its top level. */
typedef struct hframe {
    uint64_t fn;            /* function id (address, or scope site) */
    uint64_t t0;            /* entered at */
    uint8_t locked;         /* 1: held or took a lock */
    uint8_t ncand;          /* candidate checks among its children */
    uint16_t lock;          /* the first mutex it took itself (its own
                               code, not a callee's), 0 none */
    uint32_t ver;           /* the thread's clock version at entry */
    cand c[CANDS];          /* oldest first */
} hframe;

/* A check-act window of one thread. */
typedef struct win {
    uint64_t check, act;    /* function ids (act 0: the caller's own lock) */
    uint64_t caller;        /* the caller of both */
    uint64_t a;             /* check entry */
    uint64_t r;             /* release of the act's last lock (its record) */
    uint64_t vis;           /* the latest the release took effect: the
                               thread's next event (calls: r) */
    uint32_t erel;          /* the thread's epoch at that release */
    int lock;               /* the act's mutex number (0: unknown) */
    int open;               /* 1: the act still holds its lock */
    int pend;               /* 1: released, its vis not known yet */
    int nearest;            /* 1: the check was the last call before the act */
    uint32_t *vc;           /* the clock at the check (nt entries) */
    uint64_t stack[STACK_KEEP]; /* callers, outermost first, then the act */
    uint8_t nstack;
} win;

/* A thread during the walk. */
typedef struct hthread {
    uint32_t *vc;           /* its vector clock */
    uint32_t ver;           /* bumped when an acquire changed another
                               thread's entry of vc */
    hframe *f;              /* open calls, f[0] the top level, f[i + 1]
                               the walk's frame i */
    size_t n, cap;
    int held;               /* mutexes held */
    int nopen;              /* windows open */
    int npend;              /* windows released, not yet settled */
    uint64_t wait_mutex;    /* the mutex of a condition wait */
    win ring[RING];         /* last windows */
    uint64_t nwin;          /* windows made */
    win calls[CBUCKETS][CDEPTH]; /* last calls of lock-taking functions,
                               by function hash (check = act = the
                               function, caller UNPROT, a..r the call,
                               lock 0 when it took none) */
    uint64_t ncalls[CBUCKETS]; /* calls kept per bucket */
} hthread;

/* A function that took a lock in some call of the run. */
typedef struct fnstat {
    uint64_t fn;            /* 0: free slot */
    uint64_t locked;        /* its calls that took a lock */
    uint16_t lock;          /* the first one's mutex number (a frame's) */
    uint16_t first;         /* 1 + the first thread that kept a call of
                               it (lockfn_call), 0 none yet, FN_SHARED:
                               another thread kept one too (until then a
                               call has no other to compare with) */
} fnstat;

/* The threads that opened windows of one shape (check, act, caller), by
 * a hash of it: a window whose shape no other thread opened has nothing
 * to compare with (two shapes of one hash only make a compare run). */
typedef struct wkey {
    uint64_t key;           /* the hash, never 0; 0: free slot */
    uint32_t first;         /* 1 + the first thread that opened one */
    int shared;             /* 1: another thread opened one too */
} wkey;

/* A sync object. */
typedef struct hobj {
    uint64_t addr;          /* 0: free slot */
    int kind;               /* 0 mutex, 1 cond, 2 thread */
    int num;                /* number within its kind, from 1 */
    int64_t thread;         /* thread: its index (CREATE), -1 */
    uint32_t *vc;           /* lock / condition clock, NULL until released */
} hobj;

/* One (check, act) pair's findings in a run. */
typedef struct agg {
    uint64_t check, act, caller;
    uint64_t overlaps;      /* windows that overlapped */
    uint64_t unordered;     /* unordered windows that did not */
    int best_over;          /* the kept instance overlapped */
    int best_q;             /* its quality: 2 overlapped + 1 both lock-free */
    int nearest;            /* its check was the last call before the act */
    uint64_t dist;          /* its distance from the focus */
    uint32_t th[2];         /* its threads, first act first */
    uint64_t time, end;     /* both between / the first release */
    uint64_t a[2], r[2];    /* each thread's check entry and release (vis) */
    uint32_t erel[2];       /* each thread's epoch at that release */
    int plock[2];           /* unprotected calls: each call's lock, 0 none */
    int lock;
    uint64_t stack[2][STACK_KEEP];
    uint8_t nstack[2];
} agg;

struct ttdi_hb {
    size_t nt;              /* threads */
    uint64_t focus;         /* instances nearest it are kept */
    hthread *th;
    hobj *objs;             /* OBJ_CAP slots */
    int nkind[3];
    agg ag[AGG_CAP];
    size_t nag;
    uint64_t last_ns;       /* latest event time */
    fnstat *fns;            /* FN_CAP slots */
    uint64_t *bloom;        /* FN_BLOOM bits: fn may be in fns */
    wkey *wkeys;            /* WKEY_CAP slots, NULL until a window opens */
    size_t nwkeys;          /* shapes in them */
    int wfull;              /* 1: no more shapes tracked (all compare) */
    int64_t fthread;        /* the symptom's thread, -1 none */
    uint32_t *fvc;          /* its clock at the focus: as before its first
                               sync operation after it (NULL: none) */
    int fset;               /* 1: fvc taken */
    struct ttdi_dec *dec;   /* what followed each check's value (decides.c;
                               NULL until a call returns a recorded value) */
    int values;             /* 1: the walk reads values (a second walk) */
};

static uint32_t *vc_new(size_t nt)
{
    return calloc(nt ? nt : 1, sizeof(uint32_t));
}

/* a = a join b; 1 if a changed. */
static int vc_join(uint32_t *a, const uint32_t *b, size_t nt)
{
    int ch = 0;
    for (size_t i = 0; i < nt; i++)
        if (b[i] > a[i]) {
            a[i] = b[i];
            ch = 1;
        }
    return ch;
}

int ttdi_hb_open(size_t nt, uint64_t focus, struct ttdi_hb **out)
{
    struct ttdi_hb *h = calloc(1, sizeof *h);

    *out = NULL;
    if (!h || !(h->th = calloc(nt + 1, sizeof *h->th)) ||
        !(h->objs = calloc(OBJ_CAP, sizeof *h->objs)) ||
        !(h->fns = calloc(FN_CAP, sizeof *h->fns)) ||
        !(h->bloom = calloc(FN_BLOOM / 64, sizeof *h->bloom))) {
        ttdi_hb_free(h);
        return TT_ENOMEM;
    }
    h->nt = nt;
    h->focus = focus;
    h->fthread = -1;
    for (size_t i = 0; i < nt; i++) {
        hthread *t = &h->th[i];
        t->cap = 64;
        t->f = calloc(t->cap, sizeof *t->f);
        t->vc = vc_new(nt);
        for (size_t k = 0; k < RING && t->vc; k++)
            if (!(t->ring[k].vc = vc_new(nt)))
                t->vc = NULL;
        for (size_t k = 0; k < CBUCKETS * CDEPTH && t->vc; k++)
            if (!(t->calls[k / CDEPTH][k % CDEPTH].vc = vc_new(nt)))
                t->vc = NULL;
        if (!t->f || !t->vc) {
            ttdi_hb_free(h);
            return TT_ENOMEM;
        }
        t->vc[i] = 1;
        t->n = 1;           /* the top level */
    }
    *out = h;
    return 0;
}

void ttdi_hb_free(struct ttdi_hb *h)
{
    if (!h)
        return;
    for (size_t i = 0; h->th && i < h->nt; i++) {
        free(h->th[i].vc);
        free(h->th[i].f);
        for (size_t k = 0; k < RING; k++)
            free(h->th[i].ring[k].vc);
        for (size_t k = 0; k < CBUCKETS * CDEPTH; k++)
            free(h->th[i].calls[k / CDEPTH][k % CDEPTH].vc);
    }
    for (size_t i = 0; h->objs && i < OBJ_CAP; i++)
        free(h->objs[i].vc);
    free(h->th);
    free(h->objs);
    free(h->fns);
    free(h->bloom);
    free(h->wkeys);
    free(h->fvc);
    ttdi_dec_free(h->dec);
    free(h);
}

/* ---- objects --------------------------------------------------------------- */

static int op_kind(int op)
{
    if (op >= TTF_SOP_WAIT && op <= TTF_SOP_BROADCAST)
        return 1;
    return op == TTF_SOP_CREATE || op == TTF_SOP_JOIN ? 2 : 0;
}

/* The object at addr, numbered by first use per kind (as interleave.c
 * numbers them); NULL when the table is full. */
static hobj *object(struct ttdi_hb *h, uint64_t addr, int kind)
{
    int fresh;

    addr = addr ? addr : 1;
    hobj *o = ttdi_probe(h->objs, OBJ_CAP, sizeof *o,
                         (size_t)((addr * 0x9E3779B97F4A7C15ull) >> 52), addr, 1, &fresh);
    if (o && fresh) {
        o->kind = kind;
        o->num = ++h->nkind[kind];
        o->thread = -1;
    }
    return o;
}

/* Release thread t's clock into object o (its clock becomes a join). */
static int release_into(struct ttdi_hb *h, hthread *t, uint32_t self, hobj *o)
{
    if (o && !o->vc && !(o->vc = vc_new(h->nt)))
        return TT_ENOMEM;
    if (o)
        vc_join(o->vc, t->vc, h->nt);
    t->vc[self]++;
    return 0;
}

static void acquire_from(struct ttdi_hb *h, hthread *t, const uint32_t *vc)
{
    if (vc && vc_join(t->vc, vc, h->nt))
        t->ver++;
}

/* ---- windows ----------------------------------------------------------------- */

static uint64_t absdiff(uint64_t a, uint64_t b)
{
    return a > b ? a - b : b - a;
}

static agg *agg_of(struct ttdi_hb *h, const win *w)
{
    for (size_t i = 0; i < h->nag; i++)
        if (h->ag[i].check == w->check && h->ag[i].act == w->act &&
            h->ag[i].caller == w->caller)
            return &h->ag[i];
    if (h->nag == AGG_CAP)
        return NULL;
    agg *g = &h->ag[h->nag++];
    memset(g, 0, sizeof *g);
    g->check = w->check;
    g->act = w->act;
    g->caller = w->caller;
    return g;
}

/* Windows p (thread tp, released first) and w (thread tw) are unordered:
 * count them, and keep them when they are the best instance so far. */
static void found(struct ttdi_hb *h, uint32_t tp, const win *p, uint32_t tw,
                  const win *w)
{
    agg *g = agg_of(h, w);
    uint64_t when = p->a > w->a ? p->a : w->a;
    uint64_t end = p->vis < w->vis ? p->vis : w->vis;
    int over = when < end;

    if (!g)
        return;
    if (over)
        g->overlaps++;
    else
        g->unordered++;
    uint64_t dist = absdiff(when, h->focus);
    int q = 2 * over + (!p->lock && !w->lock); /* both calls without it: better */
    if (g->overlaps + g->unordered > 1 && (g->best_q > q || (g->best_q == q && dist > g->dist)))
        return;
    int lo = tp > tw;       /* the lower thread index first */
    g->best_q = q;
    const win *x[2] = {p, w};
    uint32_t th[2] = {tp, tw};
    g->best_over = over;
    g->nearest = p->nearest && w->nearest;
    g->dist = dist;
    g->time = when;
    g->end = end;
    g->lock = w->lock ? w->lock : p->lock;
    for (int k = 0; k < 2; k++) {
        g->plock[k] = x[k ^ lo]->lock;
        g->th[k] = th[k ^ lo];
        g->a[k] = x[k ^ lo]->a;
        g->r[k] = x[k ^ lo]->vis;
        g->erel[k] = x[k ^ lo]->erel;
        memcpy(g->stack[k], x[k ^ lo]->stack, sizeof p->stack);
        g->nstack[k] = x[k ^ lo]->nstack;
    }
}

/* The slot of w's shape (added when add), NULL if none (or full). */
static wkey *shape(struct ttdi_hb *h, const win *w, int add)
{
    uint64_t k = (w->check * 0x9E3779B97F4A7C15ull) ^ (w->act * 0xC2B2AE3D27D4EB4Full) ^
                 (w->caller * 0x165667B19E3779F9ull);
    int fresh;

    k |= 1;
    return ttdi_probe(h->wkeys, WKEY_CAP, sizeof(wkey), (size_t)(k >> 52), k, add, &fresh);
}

/* Thread self opened window w: its shape notes the thread (the table
 * made at the first window; out of memory or half full, every window
 * compares from then on). */
static void shape_opened(struct ttdi_hb *h, uint32_t self, const win *w)
{
    if (!h->wfull && !h->wkeys && !(h->wkeys = calloc(WKEY_CAP, sizeof *h->wkeys)))
        h->wfull = 1;
    wkey *e = h->wfull ? NULL : shape(h, w, 1);

    if (!e || (!e->first && ++h->nwkeys > WKEY_CAP / 2)) {
        h->wfull = 1;
        return;
    }
    if (!e->first)
        e->first = self + 1;
    e->shared |= e->first != self + 1;
}

/* 0 when no other thread opened a window of w's shape: compare() would
 * find nothing. */
static int shape_shared(struct ttdi_hb *h, const win *w)
{
    const wkey *e = h->wfull || !h->wkeys ? NULL : shape(h, w, 0);

    return !e || e->shared;
}

/* Window w of thread u closed: compare it with the other threads' closed
 * windows of the same check and act. w's clock is u's at its check: the
 * other window's release happened before that check iff its epoch is at
 * most w->vc[t]. */
static void compare(struct ttdi_hb *h, uint32_t u, const win *w)
{
    for (uint32_t t = 0; t < h->nt; t++) {
        const hthread *o = &h->th[t];
        uint64_t nw = o->nwin;
        const win *ring = o->ring;
        size_t n = nw < RING ? (size_t)nw : RING;
        if (t == u)
            continue;
        /* newest first: a thread's releases only go up, so once one
         * happened before w's check, all older ones did */
        for (size_t j = 0; j < n; j++) {
            const win *p = &ring[(nw - 1 - j) % RING];
            if (p->open || p->pend)
                continue;   /* a pending one compares when it settles */
            if (p->erel <= w->vc[t])
                break;
            if (p->check == w->check && p->act == w->act && p->caller == w->caller &&
                p->r <= w->r)
                found(h, t, p, u, w);
        }
    }
}

/* The lock was released (the thread holds none now): close its windows;
 * they compare once settled (settle). */
static void close_windows(struct ttdi_hb *h, uint32_t self, uint64_t now)
{
    hthread *t = &h->th[self];

    for (uint64_t j = t->nwin; j-- > 0 && t->nopen && t->nwin - j <= RING;) {
        win *w = &t->ring[j % RING];  /* the open ones are the newest */
        if (!w->open)
            continue;
        w->open = 0;
        t->nopen--;
        w->r = now;
        w->erel = t->vc[self];
        w->pend = 1;
        t->npend++;
    }
}

/* Thread self's next event after a release came at vis at the latest (the
 * release's own time when none came): the windows it closed took effect
 * by then, and are compared. libttcap writes an UNLOCK before the real
 * unlock, and the act's stores may reach the other threads only as that
 * returns, so a check that began after the record and before the next
 * event can still have seen the state before the act (a natural oversold
 * ticket did: seller-1 entered the check 10 ns after seller-0's UNLOCK
 * record, and read the stock its act had not yet left). */
static void settle(struct ttdi_hb *h, uint32_t self, uint64_t vis)
{
    hthread *t = &h->th[self];

    for (uint64_t j = t->nwin; j-- > 0 && t->npend && t->nwin - j <= RING;) {
        win *w = &t->ring[j % RING];
        if (!w->pend)
            continue;
        w->pend = 0;
        t->npend--;
        w->vis = vis > w->r ? vis : w->r;
        if (shape_shared(h, w))
            compare(h, self, w);
    }
}

/* A window per candidate check of caller frame j (act: frame j+1, or the
 * lock itself when j is the innermost frame). */
static void open_windows(struct ttdi_hb *h, hthread *t, size_t j, int lock)
{
    hframe *c = &t->f[j];
    size_t first = j >= STACK_KEEP - 1 ? j - (STACK_KEEP - 2) : 1;

    for (size_t k = 0; k < c->ncand; k++) {
        if (c->c[k].has_ret)
            ttdi_dec_note(h->dec, c->fn, c->c[k].fn, j + 1 < t->n ? t->f[j + 1].fn : 0,
                          c->c[k].ret);
        if (c->c[k].ver != t->ver)
            continue;   /* it acquired between check and act: not this shape
                           (and no slot: an old window left in a new place
                           would end compare()'s newest-first scan early) */
        win *w = &t->ring[t->nwin++ % RING];
        t->nopen += !w->open;
        w->check = c->c[k].fn;
        w->act = j + 1 < t->n ? t->f[j + 1].fn : 0;
        w->caller = c->fn;
        w->a = c->c[k].t0;
        w->lock = lock;
        w->open = 1;
        w->pend = 0;
        w->nearest = k + 1 == c->ncand;
        memcpy(w->vc, t->vc, h->nt * sizeof *w->vc); /* the clock at the check */
        size_t i = first;
        for (; i <= j + 1 && i < t->n; i++)
            w->stack[i - first] = t->f[i].fn;
        w->nstack = (uint8_t)(i - first);
        shape_opened(h, (uint32_t)(t - h->th), w);
    }
    c->ncand = 0;
}

/* A lock acquired with none held: the act of the nearest caller, at most
 * UP_MAX levels up, that has candidate checks. */
static void act_begins(struct ttdi_hb *h, hthread *t, int lock)
{
    for (size_t up = 0; up < UP_MAX && up + 1 < t->n; up++) {
        size_t j = t->n - 1 - up;
        if (t->f[j].ncand) {
            open_windows(h, t, j, lock);
            return;
        }
    }
}

/* ---- calls --------------------------------------------------------------------- */

static void no_act(struct ttdi_hb *h, const hframe *p, size_t k);

/* Frames [n, t->n) closed without returning (an UNWIND or a longjmp left
 * them): no call of theirs is kept, and none is a candidate check (it
 * returned nothing); their own candidates leave with no act after them;
 * what they took was taken inside the frame below, so a lock taken in one
 * ends that frame's stretch as a locking call does (their own first mutex
 * stays theirs: code of a callee's). */
static void abandon(struct ttdi_hb *h, hthread *t, size_t n)
{
    while (t->n > n) {
        const hframe *f = &t->f[--t->n];
        for (size_t k = 0; h->values && k < f->ncand; k++)
            no_act(h, f, k);
        if (f->locked) {
            t->f[t->n - 1].locked = 1;
            t->f[t->n - 1].ncand = 0;
        }
    }
}

/* An ENTER opens a frame above the d frames of the walk's stack that stay
 * open (f[0], the top level, is not one: f[d + 1] is the new frame); now:
 * the earliest it can have been (ttf_event_early_ns). */
static int push(struct ttdi_hb *h, hthread *t, uint64_t fn, uint64_t now, size_t d)
{
    if (t->n > d + 1)
        abandon(h, t, d + 1);
    if (t->n == t->cap &&
        ttdi_grow(&t->f, &t->cap, t->n + 1, sizeof *t->f, 16) < 0)
        return TT_ENOMEM;
    hframe *f = &t->f[t->n++];
    f->fn = fn;
    f->t0 = now;
    f->locked = t->held > 0;
    f->ncand = 0;
    f->lock = 0;
    f->ver = t->ver;
    return 0;
}

/* ---- unprotected calls --------------------------------------------------------- */

static size_t fn_hash(uint64_t fn)
{
    return (size_t)((fn * 0x9E3779B97F4A7C15ull) >> 40);
}

/* 0 when fn took no lock in any call yet (its filter bit is clear): the
 * common case, tested in line before a call is kept. */
static inline int fn_maybe(const struct ttdi_hb *h, uint64_t fn)
{
    size_t b = fn_hash(fn) % FN_BLOOM;

    return (int)(h->bloom[b / 64] >> (b % 64) & 1);
}

/* The lock-taking function fn (added when add), NULL if not (or full). */
static fnstat *fn_find(struct ttdi_hb *h, uint64_t fn, int add)
{
    size_t b = fn_hash(fn) % FN_BLOOM;
    fnstat *home = &h->fns[fn_hash(fn) % FN_CAP];
    int fresh;

    if (!add && !fn_maybe(h, fn))
        return NULL;        /* the common case: one bit */
    if (home->fn == fn)
        return home;        /* where the probe starts: mostly there */
    fnstat *f = ttdi_probe(h->fns, FN_CAP, sizeof *f, fn_hash(fn), fn, add, &fresh);
    if (fresh)
        h->bloom[b / 64] |= 1ull << (b % 64);
    return f;
}

/* Call w of thread u (of a lock-taking function) against the other
 * threads' calls of it: unordered when neither one's exit happened before
 * the other's entry, and at least one of them took no lock. The threads
 * are walked apart between sync operations, so either may come first. */
static void compare_calls(struct ttdi_hb *h, uint32_t u, const win *w, size_t b)
{
    for (uint32_t t = 0; t < h->nt; t++) {
        const hthread *o = &h->th[t];
        size_t n = o->ncalls[b] < CDEPTH ? (size_t)o->ncalls[b] : CDEPTH;
        if (t == u)
            continue;
        for (size_t j = 0; j < n; j++) {
            const win *p = &o->calls[b][(o->ncalls[b] - 1 - j) % CDEPTH];
            if (p->erel <= w->vc[t])
                break;      /* p and all older ones before w */
            if (p->check != w->check || (p->lock && w->lock) || w->erel <= p->vc[u])
                continue;
            if (p->r <= w->r)
                found(h, t, p, u, w);
            else
                found(h, u, w, t, p);
        }
    }
}

/* A call f of a lock-taking function returned (thread self, f at depth
 * t->n): kept; a lock-free one is compared with the other threads' calls
 * of it (at least one of two overlapping calls then ran without the lock
 * the function's other calls take). */
static void lockfn_call(struct ttdi_hb *h, uint32_t self, const hframe *f, uint64_t now)
{
    hthread *t = &h->th[self];
    fnstat *s = fn_find(h, f->fn, f->lock != 0);

    if (!s || (f->locked && !f->lock))
        return;             /* not lock-taking, or inside an outer lock */
    if (f->lock && !s->locked++)
        s->lock = f->lock;
    size_t b = fn_hash(f->fn) % CBUCKETS;
    win *w = &t->calls[b][t->ncalls[b]++ % CDEPTH];
    size_t first = t->n >= STACK_KEEP ? t->n - (STACK_KEEP - 1) : 1;
    w->check = w->act = f->fn;
    w->caller = UNPROT;
    w->a = f->t0;
    w->r = w->vis = now;
    w->erel = t->vc[self];
    w->lock = f->lock;
    w->open = 0;
    w->nearest = 1;
    w->nstack = (uint8_t)(t->n + 1 - first);
    for (size_t i = first; i <= t->n; i++)
        w->stack[i - first] = t->f[i].fn;
    /* the clock at its entry: the same now for a lock-free call (no
     * acquire since, nor a join); a locking call keeps its clock at the
     * exit (later: it can only hide a race, never make one up) */
    memcpy(w->vc, t->vc, h->nt * sizeof *w->vc);
    if (s->first != self + 1)
        s->first = s->first ? FN_SHARED : (uint16_t)(self + 1);
    if (s->first == FN_SHARED && (f->lock || f->ver == t->ver))
        compare_calls(h, self, w, b);
}

/* Candidate k of frame p leaves the stretch with no act after it. */
static void no_act(struct ttdi_hb *h, const hframe *p, size_t k)
{
    if (p->c[k].has_ret)
        ttdi_dec_note(h->dec, p->fn, p->c[k].fn, TTDI_DEC_NONE, p->c[k].ret);
}

/* Frame f returned into its caller p (ev: its EXIT with the value, NULL
 * when none was recorded): a locking call ends p's stretch; a lock-free
 * one is a candidate check (the newest; a function seen again moves to
 * the end, its older call followed by no act). */
static void returned(struct ttdi_hb *h, hthread *t, hframe *p, const hframe *f,
                     const ttf_event *ev)
{
    size_t k = 0;

    if (f->locked) {
        p->locked = 1;
        p->ncand = 0;
        return;
    }
    while (k < p->ncand && p->c[k].fn != f->fn)
        k++;
    if (k == CANDS)         /* full: forget the oldest */
        k = 0;
    if (k < p->ncand) {
        no_act(h, p, k);
        memmove(&p->c[k], &p->c[k + 1], (size_t)(p->ncand - k - 1) * sizeof p->c[0]);
    } else
        p->ncand++;
    p->c[p->ncand - 1] = (cand){f->fn, f->t0, t->ver, ev != NULL, ev ? ev->retval : 0};
}

/* An EXIT ev of thread self whose own frame is the walk's frame d (f[d + 1];
 * d at or past the walk's depth: none is its own, nothing returns): the
 * frames above it close unreturned, it returns into its caller. */
static void exit_call(struct ttdi_hb *h, uint32_t self, size_t d, const ttf_event *ev)
{
    hthread *t = &h->th[self];

    if (d + 1 >= t->n)
        return;
    if (ev->has_values && !h->dec && ttdi_dec_open(&h->dec) < 0)
        h->dec = NULL;      /* no memory: which check decided stays unknown */
    if (t->n > d + 2)
        abandon(h, t, d + 2);
    t->n--;
    if (t->f[t->n].lock || (!t->f[t->n].locked && fn_maybe(h, t->f[t->n].fn)))
        lockfn_call(h, self, &t->f[t->n], ttf_event_late_ns(ev));
    for (size_t k = 0; h->values && k < t->f[t->n].ncand; k++)
        no_act(h, &t->f[t->n], k);  /* without values no candidate has one */
    returned(h, t, &t->f[t->n - 1], &t->f[t->n], ev->has_values ? ev : NULL);
}

/* ---- sync operations ----------------------------------------------------------- */

/* Before the acquire's join: the windows take the clock their checks
 * had (unchanged since, or the candidate is dropped). */
static void acquired(struct ttdi_hb *h, hthread *t, hobj *o, int opens)
{
    if (!t->held && opens)
        act_begins(h, t, o ? o->num : 0);
    acquire_from(h, t, o ? o->vc : NULL);
    t->held++;
    t->f[t->n - 1].locked = 1;
    if (!t->f[t->n - 1].lock && o && o->num < 65536)
        t->f[t->n - 1].lock = (uint16_t)o->num;
}

/* A release at now: an UNLOCK (late: its windows settle at the thread's
 * next event) or a condition wait's (the mutex is let go inside the wait,
 * and the thread's next event is its wake-up, no bound on that: the
 * record's time). */
static int released(struct ttdi_hb *h, uint32_t self, hobj *o, uint64_t now, int late)
{
    hthread *t = &h->th[self];

    if (t->held > 0 && !--t->held) {
        close_windows(h, self, now);
        if (!late)
            settle(h, self, 0);
    }
    return release_into(h, t, self, o);
}

/* A thread operation: create (the child starts after what its parent did)
 * or join (the joiner goes on after all the joined thread did). */
static int thread_op(struct ttdi_hb *h, uint32_t self, const ttf_event *ev)
{
    hthread *t = &h->th[self];
    hobj *o = object(h, ev->addr, 2);

    if (ev->code == TTF_SOP_CREATE) {
        if (o)
            o->thread = ev->sync_arg;
        if (ev->sync_arg >= 0 && (uint64_t)ev->sync_arg < h->nt) {
            /* no version bump: libttcap records the create once
             * pthread_create returned, and what the child did before
             * that record came after the create all the same */
            vc_join(h->th[ev->sync_arg].vc, t->vc, h->nt);
        }
        t->vc[self]++;
    } else if (o && o->thread >= 0 && (uint64_t)o->thread < h->nt) {
        acquire_from(h, t, h->th[o->thread].vc);
    }
    return 0;
}

static int sync_op(struct ttdi_hb *h, uint32_t self, const ttf_event *ev)
{
    hthread *t = &h->th[self];
    int kind = op_kind(ev->code);

    if (kind == 2)
        return thread_op(h, self, ev);
    hobj *o = object(h, ev->addr, kind);
    switch (ev->code) {
    case TTF_SOP_LOCK:
        acquired(h, t, o, 1);
        return 0;
    case TTF_SOP_TRYLOCK:
        if (!ev->sync_arg)
            acquired(h, t, o, 1);
        return 0;
    case TTF_SOP_UNLOCK:
        return released(h, self, o, ev->time_ns, 1);
    case TTF_SOP_WAIT:
        t->wait_mutex = (uint64_t)ev->sync_arg;
        return released(h, self, object(h, t->wait_mutex, 0), ev->time_ns, 0);
    case TTF_SOP_WOKE:
        acquire_from(h, t, o ? o->vc : NULL);
        acquired(h, t, object(h, t->wait_mutex, 0), 0);
        return 0;
    case TTF_SOP_SIGNAL:
    case TTF_SOP_BROADCAST:
        return release_into(h, t, self, o);
    default:
        return 0;
    }
}

/* The symptom's thread's clock at the focus, taken once: what it had
 * seen of the other threads when the symptom showed. */
static void focus_clock(struct ttdi_hb *h)
{
    if (h->fset || !h->fvc)
        return;
    memcpy(h->fvc, h->th[h->fthread].vc, h->nt * sizeof *h->fvc);
    h->fset = 1;
}

/* The current event of thread self's walk wk, not a SYNC_OP: an ENTER
 * or EXIT by the walk's call-stack rule (its stack: the frames before
 * it); the other kinds change nothing. 0 or TT_ENOMEM. */
static inline int call_event(struct ttdi_hb *h, uint32_t self, const ttdi_walk *wk)
{
    const ttf_event *ev = &wk->ev;

    if (ev->kind == TTF_EV_ENTER)
        return push(h, &h->th[self], ev->site ? TTDI_SITE_BIT | ev->site : ev->addr,
                    ttf_event_early_ns(ev), ttdi_walk_depth_after(wk));
    if (ev->kind == TTF_EV_EXIT)
        exit_call(h, self, ttdi_walk_depth_after(wk), ev);
    return 0;
}

/* A SYNC_OP of thread self, in its turn. 0 or TT_ENOMEM. */
static int sync_event(struct ttdi_hb *h, uint32_t self, const ttf_event *ev)
{
    h->last_ns = ev->time_ns > h->last_ns ? ev->time_ns : h->last_ns;
    if ((int64_t)self == h->fthread && ev->time_ns > h->focus)
        focus_clock(h);
    return sync_op(h, self, ev);
}

/* Close what is still open at the end of the walk (a lock never released
 * before the stop: its windows end there). */
void ttdi_hb_finish(struct ttdi_hb *h)
{
    if (h->fthread >= 0)
        focus_clock(h);
    for (uint32_t i = 0; i < h->nt; i++)
        if (h->th[i].held) {
            h->th[i].held = 0;
            close_windows(h, i, h->last_ns);
            settle(h, i, 0);
        }
}

/* One thread's iterator in a walk: its next event held back until the
 * other threads' earlier sync operations are done. */
typedef struct cursor {
    ttdi_walk wk;           /* its events and call stack (a stack walk);
                               wk.ev the held one */
    int held;               /* 1: ev waits its turn; 0: the thread is done */
} cursor;

/* Feed thread i's events until one must wait its turn: a sync operation
 * (calls change only their own thread; a child's calls before the create
 * record, which libttcap writes once pthread_create returned, keep the
 * clock they had: only their windows' clocks matter, taken at its first
 * acquire, in turn). 0 or an error. */
static int advance(struct ttdi_hb *h, cursor *c, uint32_t self, uint64_t until_ns)
{
    uint64_t last = h->last_ns;     /* the latest time of the events fed */
    int rc;

    c->held = 0;
    while ((rc = ttdi_walk_stack_next(&c->wk)) > 0) {
        if (h->th[self].npend)
            settle(h, self, ttf_event_late_ns(&c->wk.ev));
        if (c->wk.ev.time_ns > until_ns)
            break;
        if (c->wk.ev.kind == TTF_EV_SYNC_OP) {
            c->held = 1;
            break;
        }
        last = c->wk.ev.time_ns > last ? c->wk.ev.time_ns : last;
        if ((rc = call_event(h, self, &c->wk)) < 0)
            break;
    }
    h->last_ns = last;
    if (h->th[self].npend)
        settle(h, self, 0);     /* no next event */
    return rc < 0 ? rc : 0;
}

/* The walk runs each thread alone between its sync operations (calls
 * touch only their own thread) and takes the held events in time order
 * (ties by thread, as the reader merges): the same order as a merged
 * iteration where it matters, without a heap step per event. */
int ttdi_hb_walk(struct ttdi_hb *h, const ttf_trace *t, uint64_t until_ns)
{
    cursor *c = calloc(h->nt + 1, sizeof *c);
    int rc = c ? 0 : TT_ENOMEM;

    for (uint32_t i = 0; rc >= 0 && i < h->nt; i++)
        if ((rc = ttdi_walk_stack(&c[i].wk, t, i, h->values)) >= 0)
            rc = advance(h, &c[i], i, until_ns);
    while (rc >= 0) {
        uint32_t best = UINT32_MAX;
        for (uint32_t i = 0; i < h->nt; i++)
            if (c[i].held && (best == UINT32_MAX || c[i].wk.ev.time_ns < c[best].wk.ev.time_ns))
                best = i;
        if (best == UINT32_MAX)
            break;
        if ((rc = sync_event(h, best, &c[best].wk.ev)) >= 0)
            rc = advance(h, &c[best], best, until_ns);
    }
    for (uint32_t i = 0; c && i < h->nt; i++)
        ttdi_walk_close(&c[i].wk);
    free(c);
    ttdi_hb_finish(h);
    return rc < 0 ? rc : 0;
}

/* ---- the results ------------------------------------------------------------------ */

#define RACES_MAX 8         /* races reported */

/* The name of function id of run n (as the normaliser names it). */
static const char *fname(ttdi_norm *n, uint64_t id, uint64_t when)
{
    if (id & TTDI_SITE_BIT)
        return ttdi_norm_func_at(n, 0, (uint32_t)id, when);
    return ttdi_norm_func_at(n, id, 0, when);
}

/* What the act is called: its function, or the caller's own lock. */
static const char *act_name(struct ttfi_arena *a, ttdi_norm *n, const agg *g)
{
    char buf[300];

    if (g->act)
        return fname(n, g->act, g->time);
    snprintf(buf, sizeof buf, "%s's lock", fname(n, g->caller, g->time));
    return ttfi_arena_strcpy(a, buf);
}

/* The same check and act (act NULL: the caller's own lock) in a good run:
 * its findings, NULL if none. */
static const agg *in_good(const ttdi_race_run *gr, const struct ttdi_hb *gh,
                          const char *check, const char *act, const char *caller)
{
    for (size_t i = 0; gh && i < gh->nag; i++) {
        const agg *g = &gh->ag[i];
        if ((g->caller == UNPROT) != !caller || !g->act != !act ||
            strcmp(fname(gr->norm, g->check, 0), check) ||
            (caller && strcmp(fname(gr->norm, g->caller, 0), caller)))
            continue;
        if (!act || !strcmp(fname(gr->norm, g->act, 0), act))
            return g;
    }
    return NULL;
}

static const char *thread_label(struct ttfi_arena *a, const ttf_trace *t, uint32_t i)
{
    const ttf_thread *th = ttf_get_thread(t, i);
    char buf[64];

    if (th && th->name && th->name[0])
        return th->name;
    if (th && th->first_name && th->first_name[0])
        return th->first_name;
    snprintf(buf, sizeof buf, "#%u", i);
    return ttfi_arena_strcpy(a, buf);
}

/* Two threads of one name told apart by their indexes ("#1 counter",
 * "#2 counter"). 0 when out of memory. */
static int label_apart(struct ttfi_arena *a, ttd_race *r)
{
    char buf[96];

    if (strcmp(r->thread_name[0], r->thread_name[1]) != 0 || r->thread_name[0][0] == '#')
        return 1;
    for (int k = 0; k < 2; k++) {
        snprintf(buf, sizeof buf, "#%" PRIu32 " %s", r->thread[k], r->thread_name[k]);
        if (!(r->thread_name[k] = ttfi_arena_strcpy(a, buf)))
            return 0;
    }
    return 1;
}

static int stacks(struct ttfi_arena *a, ttdi_norm *n, const agg *g, ttd_race *r)
{
    for (int k = 0; k < 2; k++) {
        const char **v = ttfi_arena_zalloc(a, (size_t)(g->nstack[k] + 1) * sizeof *v);
        if (!v)
            return TT_ENOMEM;
        for (size_t i = 0; i < g->nstack[k]; i++)
            v[i] = fname(n, g->stack[k][i], g->time);
        r->stacks[k] = v;
        r->nstacks[k] = g->nstack[k];
    }
    return 0;
}

/* The sentence of an unprotected-call race (good: what the good runs say). */
static const char *unprot_text(struct ttfi_arena *a, const ttd_race *r, const char *lock,
                               const char *good, const char *run)
{
    char buf[1024], who[200];

    if (r->check_locked != r->act_locked)
        snprintf(who, sizeof who, "%s's call took no lock, %s's took %s",
                 r->thread_name[r->check_locked], r->thread_name[!r->check_locked], lock);
    else
        snprintf(who, sizeof who, "neither call took %s", lock);
    snprintf(buf, sizeof buf, "in %s run, %s and %s were both inside `%s` at %.1f ms%s, "
             "not ordered by any lock; %s, which %" PRIu64 " other call%s of it took%s",
             run, r->thread_name[0], r->thread_name[1], r->check,
             (double)r->time_ns / 1e6, r->overlapped ? "" : " (or could have been)", who,
             r->locked_calls, r->locked_calls == 1 ? "" : "s", good);
    return ttfi_arena_strcpy(a, buf);
}

/* The sentence of a race. */
static const char *race_text(struct ttfi_arena *a, const ttd_race *r, int alone)
{
    char buf[1024], lock[64], good[160] = "";
    const char *run = alone ? "this" : r->run ? "the bad" : "the good";

    snprintf(lock, sizeof lock, "%s", r->lock ? r->lock : "the lock");
    if (r->good_compared && !r->seen_in_good)
        snprintf(good, sizeof good, "; never in the good runs%s", r->overlapped ? "" : " either");
    else if (r->good_compared)
        snprintf(good, sizeof good, "; the good runs had that too (%" PRIu64 " time%s, "
                 "%" PRIu64 " in the bad run)", r->good_count, r->good_count == 1 ? "" : "s",
                 r->count);
    if (r->kind == TTD_RACE_UNPROTECTED)
        return unprot_text(a, r, lock, good, run);
    if (r->overlapped)
        snprintf(buf, sizeof buf, "in %s run, %s and %s were both between `%s` and `%s` "
                 "at %.1f ms, not ordered by any lock; the check is outside %s, the act "
                 "inside%s", run, r->thread_name[0], r->thread_name[1],
                 r->check, r->act, (double)r->time_ns / 1e6, lock, good);
    else
        snprintf(buf, sizeof buf, "in %s run, nothing ordered %s's `%s` ... `%s` and "
                 "%s's (at %.1f ms): they could have been between them at once; the check "
                 "is outside %s, the act inside%s", run,
                 r->thread_name[0], r->check, r->act, r->thread_name[1],
                 (double)r->time_ns / 1e6, lock, good);
    return ttfi_arena_strcpy(a, buf);
}

/* The rank of race r (findings g): it overlapped (else it only could
 * have); near the split or the end; its check was the call right before
 * the act (the narrowest window of nested ones); an overlapping call that
 * went without the lock its other calls took (the lock is missing right
 * there, stronger than a window between two calls); it never happened in
 * a good run (else less, the more often good runs had it per run than the
 * bad run did). */
static double score(const ttd_race *r, const agg *g, size_t ngood)
{
    double near = (double)g->dist / 1e6; /* ms from the focus */
    double s = (r->overlapped ? 2.0 : 0.5) + 1.0 / (1.0 + near / 10.0) +
               (g->nearest ? 0.5 : 0.0) +
               (r->overlapped && r->kind == TTD_RACE_UNPROTECTED ? 0.5 : 0.0);

    if (!r->good_compared)
        return s;
    if (!r->seen_in_good)
        return s + 1.5;
    double rate = (double)r->good_count / (double)ngood / (double)(r->count ? r->count : 1);
    return s - (rate < 1.0 ? rate : 1.0);
}

/* One race of the bad run from its findings g (and the good runs'). */
static int one_race(struct ttfi_arena *a, const ttdi_races_in *in, struct ttdi_hb *bh,
                    struct ttdi_hb *const *gh, const agg *g, ttd_race *r)
{
    const ttdi_race_run *b = &in->bad;
    int unprot = g->caller == UNPROT;
    const fnstat *fs = unprot ? fn_find(bh, g->check, 0) : NULL;
    char lock[32];

    r->kind = unprot ? TTD_RACE_UNPROTECTED : TTD_RACE_CHECK_ACT;
    r->run = TTD_BAD;
    r->check = fname(b->norm, g->check, g->time);
    r->act = unprot ? r->check : act_name(a, b->norm, g);
    const char *caller = unprot ? NULL : fname(b->norm, g->caller, g->time);
    for (int k = 0; k < 2; k++) {
        r->thread[k] = g->th[k];
        r->thread_name[k] = thread_label(a, b->t, g->th[k]);
        r->pair[k] = b->pair_of ? b->pair_of[g->th[k]] : -1;
        r->check_ns[k] = g->a[k];
        r->release_ns[k] = g->r[k];
    }
    if (!label_apart(a, r))
        return TT_ENOMEM;
    r->time_ns = g->time;
    r->end_ns = g->end;
    int lk = fs ? fs->lock : g->lock;
    snprintf(lock, sizeof lock, "mutex#%d", lk);
    r->lock = lk ? ttfi_arena_strcpy(a, lock) : NULL;
    r->check_locked = unprot && g->plock[0];
    r->act_locked = !unprot || g->plock[1];
    r->locked_calls = fs ? fs->locked - (uint64_t)(g->plock[0] != 0) -
                           (uint64_t)(g->plock[1] != 0) : 0;
    r->overlapped = g->best_over;
    r->count = g->best_over ? g->overlaps : g->unordered;
    r->good_compared = in->ngood > 0;
    for (size_t i = 0; i < in->ngood; i++) {
        const agg *q = in_good(&in->good[i], gh[i], r->check, g->act ? r->act : NULL,
                               caller);
        r->good_count += q ? q->overlaps : 0;
    }
    r->seen_in_good = r->good_count > 0;
    r->reaches_symptom = bh->fset && g->erel[0] <= bh->fvc[g->th[0]] &&
                         g->erel[1] <= bh->fvc[g->th[1]];
    r->score = score(r, g, in->ngood);
    if (stacks(a, b->norm, g, r) < 0 || !(r->text = race_text(a, r, in->alone)))
        return TT_ENOMEM;
    return 0;
}

/* The signature of function id of run n, NULL if unknown. */
static const ttf_signature *signature(ttdi_norm *n, uint64_t id, uint64_t when)
{
    const ttf_signature *sg = NULL;
    ttf_event ev;

    if (id & TTDI_SITE_BIT)
        return NULL;
    memset(&ev, 0, sizeof ev);
    ev.kind = TTF_EV_ENTER;
    ev.addr = id;
    ev.time_ns = when;
    return ttf_sym_signature(n->sym, &ev, &sg) == 0 ? sg : NULL;
}

#define DEC_VOID (-2)       /* the check returns nothing (its debug info) */
#define DEC_OWN (-3)        /* it reads only its own stack: busy work */

/* Whether g's check decided its act (ttdi_dec_decides: 1, 0, -1 unknown),
 * DEC_VOID when it returns nothing: no branch used its result. */
static int decided(struct ttfi_arena *a, const ttdi_races_in *in, const struct ttdi_hb *bh,
                   const agg *g, ttd_race *r)
{
    const ttf_signature *sg = signature(in->bad.norm, g->check, g->time);
    const ttf_vtype *ty = sg ? &sg->ret : NULL;
    unsigned cls[2] = {0, 0};
    char buf[384];

    if (ty && ty->cls == TTF_VC_VOID)
        return DEC_VOID;
    int sgn = !ty || ty->cls == TTF_VC_SIGNED || (ty->cls == TTF_VC_ENUM && ty->is_signed) ||
              ty->cls == TTF_VC_UNKNOWN;
    int k = ttdi_dec_decides(bh->dec, g->caller, g->check, g->act, ty && ty->size ? ty->size : 8,
                             sgn, cls);
    if (k != 1)
        return k;
    snprintf(buf, sizeof buf, "`%s` returned %s each time `%s` followed and %s each time it "
             "did not: its value decided whether the act followed", r->check,
             ttdi_dec_class_text(cls[0]), r->act, ttdi_dec_class_text(cls[1]));
    r->decided = ttfi_arena_strcpy(a, buf);
    return k;
}

static int rival_checks(const struct ttdi_hb *bh, const ttd_race *v, size_t n);

/* The argument registers (bit 0..5: rdi..r9) that may hold a pointer
 * when function id is entered: its pointer and aggregate parameters by
 * its debug info (TTF_READS_STACK_ARGS: one passed in memory); all when
 * that is not known or it is variadic. */
static unsigned pointer_args(ttdi_norm *n, uint64_t id, uint64_t when)
{
    const ttf_signature *sg = signature(n, id, when);
    unsigned m = 0;

    if (!sg || sg->variadic)
        return TTF_READS_ANY_ARGS;
    for (size_t i = 0; i < sg->nparams; i++) {
        const ttf_param *p = &sg->params[i];
        int scalar = p->type.cls == TTF_VC_SIGNED || p->type.cls == TTF_VC_UNSIGNED ||
                     p->type.cls == TTF_VC_BOOL || p->type.cls == TTF_VC_ENUM ||
                     p->type.cls == TTF_VC_FLOAT;
        if (p->reg >= 0 && p->reg < 6 && (!scalar || p->byref))
            m |= 1u << p->reg;
        if (p->reg2 >= 0 && p->reg2 < 6)
            m |= 1u << p->reg2;
        if ((p->reg < 0 || p->mem) && !scalar)
            m |= TTF_READS_STACK_ARGS;
    }
    return m;
}

/* What function id of run n reads (TTF_READS_*, format/reads.c: its
 * machine code in the module loaded at that address then). */
static int reads_of(ttdi_norm *n, uint64_t id, uint64_t when)
{
    const ttf_code_info *ci;
    int out = TTF_READS_UNKNOWN;
    long mi = id & TTDI_SITE_BIT ? -1 : ttdi_module_at(n, id, when);

    if (mi >= 0 && ttf_sym_code(n->sym, (size_t)mi, &ci) == 0 && id >= ci->bias)
        ttf_sym_code_reads(n->sym, (size_t)mi, id - ci->bias, pointer_args(n, id, when), &out);
    return out;
}

/* The sentence of a check told by what rival calls read. */
static const char *reads_text(struct ttfi_arena *a, const ttd_race *r, const char *own)
{
    char buf[384];

    snprintf(buf, sizeof buf, "`%s` reads memory other threads can write and `%s`, "
             "also between it and `%s`, only its own stack and scalar arguments (their "
             "machine code): the check is the call that reads shared state", r->check, own,
             r->act);
    return ttfi_arena_strcpy(a, buf);
}

/* Plain mode (no value decided): rival checks told apart by their code.
 * A check reads the state its branch tests, so a rival whose machine code
 * reads only its own stack and scalar arguments (busy work) ranks below
 * one that reads memory other threads can write; calls the code cannot
 * tell (UNKNOWN) keep their rank. dec[i] becomes DEC_OWN for the busy
 * work, and the reading check gets the sentence. */
static void checks_read(struct ttfi_arena *a, const ttdi_races_in *in, const struct ttdi_hb *bh,
                        ttd_race *v, size_t n, int *dec)
{
    int rd[AGG_CAP] = {0};

    for (size_t i = 0; i < bh->nag && i < n; i++)
        if (v[i].kind == TTD_RACE_CHECK_ACT && dec[i] != DEC_VOID)
            rd[i] = reads_of(in->bad.norm, bh->ag[i].check, bh->ag[i].time);
    for (size_t i = 0; i < bh->nag && i < n; i++) {
        if (rd[i] != TTF_READS_SHARED)
            continue;
        for (size_t j = 0; j < bh->nag && j < n; j++) {
            if (rd[j] != TTF_READS_OWN || bh->ag[j].act != bh->ag[i].act ||
                bh->ag[j].caller != bh->ag[i].caller)
                continue;
            dec[j] = DEC_OWN;
            if (!v[i].decided)
                v[i].decided = reads_text(a, &v[i], v[j].check);
        }
    }
}

/* Several checks before one act of one caller (the windows of its last
 * lock-free calls): the check is the call whose result the branch used,
 * so one that returns nothing (busy work between check and act) ranks
 * below those that return a value, whatever its nearness; in values
 * mode, when one check's value decided whether the act followed
 * (decides.c), the others rank below it; when none did (plain mode), one
 * whose code reads only its own stack ranks below one that reads shared
 * memory (checks_read). */
static void checks_ranked(struct ttfi_arena *a, const ttdi_races_in *in, struct ttdi_hb *bh,
                          ttd_race *v, size_t n)
{
    int dec[AGG_CAP] = {0}, any = 0;

    for (size_t i = 0; i < bh->nag && i < n; i++)
        if (v[i].kind == TTD_RACE_CHECK_ACT) {
            dec[i] = decided(a, in, bh, &bh->ag[i], &v[i]);
            any |= dec[i] == 1;
        }
    if (!any && rival_checks(bh, v, n))
        checks_read(a, in, bh, v, n, dec);
    for (size_t i = 0; i < bh->nag && i < n; i++) {
        const agg *g = &bh->ag[i];
        int rivals = 0, decider = 0;
        if (v[i].kind != TTD_RACE_CHECK_ACT)
            continue;
        for (size_t j = 0; j < bh->nag && j < n; j++) {
            int same = v[j].kind == TTD_RACE_CHECK_ACT && bh->ag[j].act == g->act &&
                       bh->ag[j].caller == g->caller;
            rivals += same && j != i;
            decider |= same && dec[j] == 1;
        }
        if (rivals && (dec[i] == DEC_VOID || dec[i] == DEC_OWN || (decider && dec[i] != 1)))
            v[i].score -= 1.5;
    }
}

/* 1 if two check-then-act races of the bad run share their act and
 * caller: rival checks, which one's value decided tells them apart. */
static int rival_checks(const struct ttdi_hb *bh, const ttd_race *v, size_t n)
{
    for (size_t i = 0; i < bh->nag && i < n; i++)
        for (size_t j = i + 1; j < bh->nag && j < n; j++)
            if (v[i].kind == TTD_RACE_CHECK_ACT && v[j].kind == TTD_RACE_CHECK_ACT &&
                bh->ag[i].act == bh->ag[j].act && bh->ag[i].caller == bh->ag[j].caller)
                return 1;
    return 0;
}

/* Which check decided needs the return values the first walk skipped
 * (it reads none, to cost what a plain trace does): the bad run walked
 * again with them, only when it has them and checks vie for one act; its
 * table goes to bh. 0 or an error. */
static int values_walk(const ttdi_race_run *r, struct ttdi_hb *bh)
{
    struct ttdi_hb *vh = NULL;
    int rc;

    if (!ttf_get_summary(r->t)->values)
        return 0;
    if ((rc = ttdi_hb_open(bh->nt, r->focus_ns, &vh)) < 0)
        return rc;
    vh->values = 1;
    rc = ttdi_hb_walk(vh, r->t, r->until_ns);
    bh->dec = vh->dec;
    vh->dec = NULL;
    ttdi_hb_free(vh);
    return rc;
}

static int race_cmp(const void *x, const void *y)
{
    const ttd_race *a = x, *b = y;
    if (a->score != b->score)
        return a->score < b->score ? 1 : -1;
    return a->time_ns < b->time_ns ? -1 : a->time_ns > b->time_ns;
}

/* ---- before the walk: can it find anything? ------------------------------ */

#define SEEN_LF (1ull << 62)    /* a name's returns: one was lock-free */
#define SEEN_MULTI (1ull << 63) /* returns in two threads at least */

/* Thread i's call f returned (its function's name, whether it held or
 * took a lock): into seen (a hash of the name -> 1 + the first thread
 * that returned one, SEEN_LF, SEEN_MULTI). 1 when the name now has a
 * lock-free return and returns in two threads (or no name, or no
 * memory): a race may be found. */
static int seen_return(ttdi_map *seen, uint32_t i, const ttdi_lframe *f)
{
    int added;
    uint64_t *v = f->name ? ttdi_map_put(seen, XXH3_64bits(f->name, strlen(f->name)), &added)
                          : NULL;

    if (!v)
        return 1;
    if (added)
        *v = i + 1ull;
    if ((*v & UINT32_MAX) != i + 1ull)
        *v |= SEEN_MULTI;
    if (!f->mask)
        *v |= SEEN_LF;
    return (*v & SEEN_LF) && (*v & SEEN_MULTI);
}

int ttdi_races_possible(const ttdi_run_state *r, uint64_t until_ns)
{
    ttdi_map seen = {0};
    int may = r->nt >= 2 && r->nt <= TTDI_HB_THREADS ? 0 : 1;

    for (uint32_t i = 0; i < r->nt && !may; i++) {
        ttdi_ltap tp;
        if (!ttdi_walk_tap(r, i, until_ns, &tp) || tp.partial) {
            may = 1;        /* not known: walk */
            break;
        }
        for (size_t k = 0; k < tp.nret && !may; k++)
            may = seen_return(&seen, i, &tp.ret[k].f);
    }
    ttdi_map_free(&seen);
    return may;
}

/* Walk one run into a fresh hb (NULL: too many threads, nothing found). */
static int walk(const ttdi_race_run *r, struct ttdi_hb **out)
{
    size_t nt = ttf_thread_count(r->t);
    int rc;

    *out = NULL;
    if (nt < 2 || nt > TTDI_HB_THREADS)
        return 0;
    if ((rc = ttdi_hb_open(nt, r->focus_ns, out)) < 0)
        return rc;
    if (r->focus_thread >= 0 && (uint64_t)r->focus_thread < nt) {
        if (!((*out)->fvc = vc_new(nt)))
            return TT_ENOMEM;
        (*out)->fthread = r->focus_thread;
    }
    return ttdi_hb_walk(*out, r->t, r->until_ns);
}

int ttdi_races_build(struct ttfi_arena *a, const ttdi_races_in *in, ttd_race **out,
                     size_t *nout)
{
    struct ttdi_hb *bh = NULL, **gh = calloc(in->ngood + 1, sizeof *gh);
    ttd_race *v = NULL;
    size_t n = 0;
    int rc = gh ? walk(&in->bad, &bh) : TT_ENOMEM;

    *out = NULL;
    *nout = 0;
    if (rc < 0 || !bh || !bh->nag)
        goto done;
    for (size_t i = 0; i < in->ngood && rc >= 0; i++)
        rc = walk(&in->good[i], &gh[i]);
    if (rc < 0 || !(v = ttfi_arena_zalloc(a, (bh->nag + 1) * sizeof *v))) {
        rc = rc < 0 ? rc : TT_ENOMEM;
        goto done;
    }
    for (size_t i = 0; i < bh->nag && rc >= 0; i++) {
        rc = one_race(a, in, bh, gh, &bh->ag[i], &v[i]);
        n += v[i].kind != TTD_RACE_UNPROTECTED || v[i].locked_calls > 0;
    }
    if (rc >= 0 && rival_checks(bh, v, bh->nag))
        rc = values_walk(&in->bad, bh);
    if (rc >= 0)
        checks_ranked(a, in, bh, v, bh->nag);
    /* keep the races found (an unprotected call needs locked calls) */
    for (size_t i = 0, k = 0; rc >= 0 && i < bh->nag; i++)
        if (v[i].kind != TTD_RACE_UNPROTECTED || v[i].locked_calls > 0)
            v[k++] = v[i];
    if (rc >= 0) {
        qsort(v, n, sizeof *v, race_cmp);
        *out = v;
        *nout = n < RACES_MAX ? n : RACES_MAX;
    }
done:
    ttdi_hb_free(bh);
    for (size_t i = 0; gh && i < in->ngood; i++)
        ttdi_hb_free(gh[i]);
    free(gh);
    return rc < 0 ? rc : 0;
}

/* ---- one run alone (ttd_races_find) ------------------------------------------------ */

struct ttd_races {
    struct ttfi_arena arena;    /* the races */
    ttdi_norm norm;             /* names (its cache holds them) */
    ttd_race *v;
    size_t n;
};

uint64_t ttdi_trace_end(const ttf_trace *t)
{
    uint64_t end = 0;

    for (size_t i = 0; i < ttf_thread_count(t); i++) {
        const ttf_thread *th = ttf_get_thread(t, i);
        uint64_t e = th ? (th->ended ? th->end_ns : th->start_ns) : 0;
        end = e > end ? e : end;
    }
    return end;
}

int ttd_races_find(const ttf_trace *t, const ttd_options *opts, ttd_races **out,
                   ttf_error *err)
{
    ttd_races *r;
    int rc;

    if (err)
        memset(err, 0, sizeof *err);
    if (out)
        *out = NULL;
    if (!out || !t) {
        ttfi_set_err(err, TT_EINVAL, 0, "%s", ttf_strerror(TT_EINVAL));
        return TT_EINVAL;
    }
    if (!(*out = r = calloc(1, sizeof *r))) {
        ttfi_set_err(err, TT_ENOMEM, 0, "%s", ttf_strerror(TT_ENOMEM));
        return TT_ENOMEM;
    }
    rc = ttdi_norm_init(&r->norm, t, TTD_MSG_SITE, NULL, NULL, opts && opts->no_demangle);
    if (rc >= 0 && (ttf_get_header(t)->optional_features & TTF_HEADER_SYNC)) {
        ttdi_races_in in = {{t, &r->norm, NULL, ttdi_trace_end(t), UINT64_MAX, 0}, NULL, 0, 1};
        rc = ttdi_races_build(&r->arena, &in, &r->v, &r->n);
    }
    if (rc >= 0 && (ttf_sym_status(r->norm.sym) < 0 || r->norm.oom))
        rc = TT_ENOMEM;
    if (rc < 0) {
        ttfi_set_err(err, rc, 0, "%s", ttf_strerror(rc));
        ttd_races_free(r);
        *out = NULL;
    }
    return rc < 0 ? rc : 0;
}

const ttd_race *ttd_races_list(const ttd_races *r, size_t *n)
{
    if (n)
        *n = r ? r->n : 0;
    return r ? r->v : NULL;
}

void ttd_races_free(ttd_races *r)
{
    if (!r)
        return;
    ttdi_norm_free(&r->norm);
    ttfi_arena_free(&r->arena);
    free(r);
}
