/*
 * walker.c - the one trace walker of diff/ (issue 35 item 2): a walk over
 * one thread of a run replays its events through the normaliser's filter
 * with the running call stack (the frames open before each event), as
 * uftrace's fstack serves every command; a raw walk (ttdi_walk_raw) gives
 * a thread's (or every thread's) events as recorded, no filter, no stack,
 * no values (no raw pass reads registers: a values trace's are stepped
 * over, ttf_iter_skip_values, and cost what a plain trace does);
 * a keyed walk (ttdi_walk_keyed) the events that take part with their keys
 * and indexes, no stack; a stack walk (ttdi_walk_stack) a raw walk's
 * events with the call stack, frame ids only, for a pass with no run state
 * (the races). Its call-stack rule (every run and stack walk's): an ENTER
 * opens a frame; an EXIT closes its own frame (the innermost with its
 * function's id) and the frames above it, which a longjmp left, or
 * nothing when no frame is its own (the trace began inside it); the
 * frames an UNWIND left close at the next ENTER (an EXIT finds its own
 * frame anyway). A consumer that keeps data per frame (the thread order,
 * interleave.c; the races' happens-before walk, races.c) asks what an
 * event closes (ttdi_walk_depth_after) rather than keeping a stack of its
 * own.
 * Marks (issue 38: the prefix before a split is read once). A run walk
 * leaves its whole state (iterator, stack, indexes) every TTDI_MARK_EVERY
 * kept events in the run state, past where earlier walks of the thread
 * went, and where its consumer pins one (ttdi_walk_pin: the timing scan
 * TTDI_PIN_BACK kept events before the split thread's first hunk, so the
 * walks to the split start there, not up to 64K events earlier; the
 * thread order by time, ttdi_walk_pin_ns, a 64th of the way before the
 * split on the other threads; a pinned mark goes among the marks past it
 * when an earlier walk read further, insert_pin: the tree build's run
 * walks of the pairs after one that parted, pair_align.c, read their
 * threads whole); a later
 * run walk that needs nothing before a mark starts there
 * (ttdi_walk_open_at) and shows every event after it exactly as a walk
 * from the start would. So the timing scan of a split thread (align)
 * leaves marks that resolve's pass to the split, its detail, the order
 * checks and a second detail batch start from, and the thread order's
 * walks of the other threads (interleave.c) leave marks for the detail's
 * walks to their last events, instead of each reading the prefix again
 * (ttdi_walk_span_ns adds up how far walks went, for the tests). A thread
 * keeps at most MARKS (an iterator's state is ~43 KB): when they are
 * there, every other one goes and the spacing doubles, so a resumed walk
 * reads at most 1/MARKS x 2 of the walked part again. A consumer that
 * keeps state of its own at the marks (the tree build's run walks keep
 * the timing scan's, timing.c) sees where a walk left one (w->left) and
 * starts a later walk at exactly that mark (ttdi_walk_open_mark).
 * A run walk that needs values only from some kept index on (resolve's
 * pass on a values trace: ttdi_walk_values_from) steps over them up to
 * there and leaves no mark before (a mark's state has its values); there
 * it takes them back (its chunk read again, ttf_iter_values; the open
 * frames' arguments by their ENTERs' offsets, ttf_iter_values_at) and
 * pins a mark, so every event and frame from there on is as read with
 * values from the start. An aside walk (ttdi_walk_open_aside: a values
 * pair's run walks read in a thread of their own while the tree build
 * reads the same runs in step, pair_align.c) reads without values and
 * writes nothing of the run but its marks (no records, counts or lock
 * sets; what takes part told with no look-up, ttdi_norm_kept_pure); its
 * marks (vskip) serve only a walk that takes the values back before it
 * uses them (ttdi_walk_open_values: resolve's pass); every other walk,
 * and ttdi_walk_marked, passes them by. Past the run's last module load
 * or unload it reads without times too (ttdi_walk_aside_notimes: the
 * lazy clock's look-ahead was a quarter of its work); a walk started at
 * such a mark takes back the exact times of its event and of the frames
 * entered since (times_back; a frame's last call's time only picks a
 * module, all of the last epoch there), and a walk that asks for a mark
 * by time counts none of them as no later than its time (theirs are
 * lower bounds).
 * SYNC_OP records (issue 38 item 4: the sync records, not every event
 * again). The walk that first reads a part of a thread keeps its
 * SYNC_OPs (SLEEPs aside) with the latest time of the other events before
 * each, so a pass that needs a thread's sync operations up to a time (the
 * order checks' lock views) takes them from the records (ttdi_walk_syncs)
 * exactly as a raw walk stopping there would read them, with no walk.
 * A record is 48 bytes (a 25M-event parted pair keeps 3M a run): the
 * names of the calls it was made in are an index into its thread's pairs
 * of names (ttdi_callnames), and a long thread's records get room for
 * what its events promise at the rate so far, not doubled (rec_room).
 * While the engine asks (ttdi_run_state.count_calls: from the timing scan
 * to the count facts), that walk also counts the ENTERs per function (a
 * direct-mapped cache of the recent functions before the map), so
 * a thread run walks read whole needs no pass of its own for its calls
 * (ttdi_walk_calls; not told when a part of it was read uncounted). A
 * walk whose consumer stopped near the thread's end reads on to it then
 * (ttdi_walk_read_out: the timing scan, the thread order), its reach
 * noted where the consumer stopped.
 * The thread order's lock sets (issue 38 item 4: the split thread is not
 * read again). While the engine asks (ttdi_run_state.lock_tap: from the
 * timing scan to the thread order), that walk also keeps the thread
 * order's open calls with their lock sets (ttdi_lock_call, the one copy
 * of interleave.c's rule), each SYNC_OP record's innermost call, and the
 * first return of each (function, lock set), in the thread's own lock
 * bits (by address, up to 64): up to any time, a function's calls all had
 * the locks its first returns had, and a thread's first call that misses
 * a lock is among them (ttdi_walk_tap), so the thread order reads the
 * split thread only from the timing scan's last mark before the split,
 * and the races' walk (races.c ttdi_races_possible) is spared when no
 * function returned lock-free in one thread and returned in another
 * (ttdi_ltap.partial: the first returns may miss a lock-free one).
 * Small direct-mapped caches spare a map look-up per call (the counts,
 * the first returns) and a normaliser look-up per ENTER.
 * The passes that record what a report asks for sit above it (walk.c).
 * Stage 0 prepare of diff/STAGES (its header: prepare.h).
 */
#include <stdlib.h>
#include <string.h>

#include "prepare.h"

/* The time thread `thread` of t starts at (0: all threads, or unknown). */
static uint64_t start_of(const ttf_trace *t, uint32_t thread)
{
    const ttf_thread *th = thread == TTF_ALL_THREADS ? NULL : ttf_get_thread(t, thread);
    return th ? th->start_ns : 0;
}

/* ---- SYNC_OP records: a thread's sync operations, read once ----------- */

#define HOT 256 /* slots of a thread's records' caches of recent functions */

/* The slot of x in a cache of HOT slots. */
static inline size_t hot_slot(uint64_t x)
{
    return ttdi_slot8(x);
}

/* A record whose latest earlier time lies 2^31 ns or more from its own
 * (ttdi_syncrec.before_d is INT32_MIN): that time, by the record's index. */
typedef struct ttdi_far {
    size_t k;               /* the record */
    uint64_t before_ns;     /* its latest time before it */
} ttdi_far;

/* One thread's records: every SYNC_OP (SLEEPs aside) of its first `upto`
 * events, which run walks read (walks start at the start or at a mark,
 * so that part is a prefix, and only a walk standing at its end extends
 * it). */
typedef struct ttdi_syncs {
    ttdi_syncrec *rec;
    size_t n, cap;
    ttdi_far *far;          /* records whose before_d does not fit, in order */
    size_t nfar, capfar;
    ttdi_callnames *cn;     /* the records' call names, each pair once */
    size_t ncn, capcn;      /*   ([0]: {NULL, NULL}) */
    uint32_t cnhot[HOT];    /* index + 1 of a recent pair, by pointers */
    uint64_t upto;          /* events read (SLEEPs too) */
    uint64_t max_ns;        /* the latest time of those not SYNC_OPs */
    int ended;              /* 1: a walk read past the thread's last event */
    ttdi_ccount calls;      /* ENTERs per function of those events */
    int uncounted;          /* 1: some were read with count_calls off */
    ttdi_ccount kcalls;     /* ... of a keyed walk that read the thread
                               whole from its start (ttdi_walk_count_open) */
    /* the thread order's data (r->lock_tap, ttdi_walk_tap) */
    int untapped;           /* 1: some were read with lock_tap off */
    ttdi_lthread lt;        /* open calls and their lock sets */
    uint64_t paddr[64];     /* bit i: lock address paddr[i] */
    int nprov;
    ttdi_lret *lr;          /* first return of each (key, lock set) */
    size_t nlr, caplr;
    ttdi_map lseen;         /* key ^ mix(set) -> lr index */
    uint64_t lhot[HOT][2];  /* (key, set) pairs in lr, direct-mapped */
    uint64_t lmax_ns;       /* the latest time of those read (SLEEPs aside) */
    int partial;            /* 1: lr may miss a lock-free return: a call
                               the filter drops returned (no key), an
                               UNLOCK of a lock not held here, or a call
                               between a condition WAIT and its WOKE (the
                               races count the mutex released there) */
    int waiting;            /* 1: a WAIT with no WOKE yet */
    uint64_t prev_tsc;      /* the tick of the last one */
    uint64_t loose;         /* 0, or 1 + the latest time before the first
                               event past which the data is not exact (a
                               tick or a time went back, a 65th lock) */
} ttdi_syncs;

int ttdi_ccount_miss(ttdi_ccount *c, const ttf_event *ev, uint64_t id, size_t h)
{
    int added;
    uint64_t *v = ttdi_map_put(&c->fcat, id, &added);   /* the profile's key */

    if (!v)
        return TT_ENOMEM;
    if (added) {
        if (c->nfc == c->capfc &&
            ttdi_grow(&c->fc, &c->capfc, c->nfc + 1, sizeof *c->fc, 64) < 0)
            return TT_ENOMEM;
        const char *name = ttf_sym_event_name(c->sym, ev);
        c->fc[c->nfc] = (ttdi_fcalls){name ? name : "?", 0};
        *v = c->nfc++;
    }
    c->hot[h] = id;
    c->hotix[h] = (uint32_t)*v + 1;
    c->fc[*v].calls++;
    return 0;
}

static void ccount_free(ttdi_ccount *c)
{
    free(c->fc);
    ttdi_map_free(&c->fcat);
}

/* An ENTER of the records' part counted (r->count_calls). */
static int count_call(ttdi_syncs *sy, const ttf_event *ev)
{
    return ttdi_ccount_add(&sy->calls, ev);     /* calls.sym: ttdi_walk_open */
}

ttdi_ccount *ttdi_walk_count_open(ttdi_run_state *r, uint32_t thread)
{
    if (!r->count_calls || thread >= r->nt ||
        (!r->syncs && !(r->syncs = calloc(r->nt, sizeof *r->syncs))))
        return NULL;
    ttdi_ccount *c = &r->syncs[thread].kcalls;
    if (c->state)
        return NULL;    /* counted, or begun, before */
    c->state = 1;
    c->sym = r->norm.sym;
    return c;
}

void ttdi_walk_counted(ttdi_ccount *c)
{
    if (c && c->state == 1)
        c->state = 2;
}

/* ---- the thread order's lock sets ---------------------------------------- */

/* Frames [n, t->n) closed without returning (an UNWIND or a longjmp
 * left them): what they took was taken inside the frame below. */
static void abandon(ttdi_lthread *t, size_t n)
{
    while (t->n > n && --t->n)
        t->f[t->n - 1].mask |= t->f[t->n].mask;
}

/* The normaliser's key, name and answer for ENTER ev (function id) into
 * cache slot c: c, or NULL for TT_ENOMEM. Apart from lock_push, whose hits
 * then need no frame of their own. */
static __attribute__((noinline)) struct ttdi_lname *lname_miss(ttdi_norm *norm,
                                                               struct ttdi_lname *c,
                                                               const ttf_event *ev, uint64_t id)
{
    uint64_t key = 0;
    const char *name = "";
    int rc = ttdi_norm_enter(norm, ev, &key, &name);

    if (rc < 0)
        return NULL;
    *c = (struct ttdi_lname){id, ev->call_site, key, name, rc,
                             !name || ttdi_lock_wrapper(name)};
    return c;
}

/* An ENTER opens a frame at depth d of the walk's stack: its key (0 for
 * a call the filter drops, which then shows its caller's name). */
static inline __attribute__((always_inline)) int lock_push(ttdi_norm *norm, ttdi_lthread *t,
                                                           const ttf_event *ev, size_t d)
{
    uint64_t id = ev->site ? (ev->site | TTDI_SITE_BIT) : ev->addr;
    struct ttdi_lname *c = &t->nc[ttdi_slot8(id ^ ev->call_site)];

    /* the normaliser's answer depends on these two only */
    if (!(c->id == id && c->site == ev->call_site && id) && !(c = lname_miss(norm, c, ev, id)))
        return TT_ENOMEM;
    abandon(t, d);
    if (t->n == t->cap && ttdi_grow(&t->f, &t->cap, t->n + 1, sizeof *t->f, 32) < 0)
        return TT_ENOMEM;
    const char *name = c->keep ? c->name : t->n ? t->f[t->n - 1].name : "";
    int skip = c->keep ? c->skip : t->n ? t->f[t->n - 1].skip : ttdi_lock_wrapper("");
    t->f[t->n++] = (ttdi_lframe){c->keep ? c->key : 0, t->held, ttf_event_early_ns(ev), name,
                                  skip};
    return 0;
}

/* ttdi_lock_call, inline in the walks' own tap (one call less per event). */
static inline __attribute__((always_inline)) int lock_call(ttdi_norm *norm, ttdi_lthread *t,
                                                           const ttdi_walk *wk, ttdi_lframe *f)
{
    if (wk->ev.kind == TTF_EV_ENTER)
        return lock_push(norm, t, &wk->ev, ttdi_walk_depth_after(wk));
    if (wk->ev.kind != TTF_EV_EXIT)
        return 0;
    size_t d = ttdi_walk_depth_after(wk);
    if (d >= t->n)
        return 0;
    abandon(t, d + 1);
    *f = t->f[--t->n];
    if (t->n)
        t->f[t->n - 1].mask |= f->mask;
    return f->key != 0;
}

int ttdi_lock_call(ttdi_norm *norm, ttdi_lthread *t, const ttdi_walk *wk, ttdi_lframe *f)
{
    return lock_call(norm, t, wk, f);
}

void ttdi_lock_bits(ttdi_lthread *t, const ttf_event *ev, uint64_t bit)
{
    if (ttdi_sop_took(ev->code, ev->sync_arg)) {
        t->held |= bit;
        if (t->n)
            t->f[t->n - 1].mask |= bit;
    } else if (ev->code == TTF_SOP_UNLOCK) {
        t->held &= ~bit;
    }
}

const char *ttdi_lock_caller(const ttdi_lthread *t)
{
    for (size_t i = t->n; i-- > 0;)     /* skip: the name asked once */
        if (!t->f[i].skip)
            return t->f[i].name;
    return t->n && t->f[t->n - 1].name ? t->f[t->n - 1].name : "";
}

/* The data is not exact from the current event on. */
static void loosen(ttdi_syncs *sy)
{
    if (!sy->loose)
        sy->loose = sy->lmax_ns + 1;
}

/* The thread's bit of SYNC_OP ev's lock address (added unless an unlock;
 * 0 when not known, or past 64: not exact from here). */
static uint64_t tap_bit(ttdi_syncs *sy, const ttf_event *ev)
{
    uint64_t addr = ev->addr ? ev->addr : 1;

    for (int i = 0; i < sy->nprov; i++)
        if (sy->paddr[i] == addr)
            return 1ull << i;
    if (ev->code == TTF_SOP_UNLOCK)
        return 0;
    if (sy->nprov == 64) {
        loosen(sy);
        return 0;
    }
    sy->paddr[sy->nprov] = addr;
    return 1ull << sy->nprov++;
}

/* A call returned: kept when the thread has not returned one of the
 * same function with the same lock set before. */
static int tap_return(ttdi_syncs *sy, const ttdi_lframe *f, const ttf_event *ev)
{
    int added;
    uint64_t h = f->key ^ (f->mask ? ttfi_mix64(f->mask) : 0);   /* mix64(0) = 0 */
    uint64_t *hot = sy->lhot[hot_slot(h)];

    if (hot[0] == f->key && hot[1] == f->mask && f->key)
        return 0;       /* kept before: no map look-up per call */
    hot[0] = f->key;
    hot[1] = f->mask;
    uint64_t *v = ttdi_map_put(&sy->lseen, h, &added);
    if (!v)
        return TT_ENOMEM;
    if (!added && sy->lr[*v].f.key == f->key && sy->lr[*v].f.mask == f->mask)
        return 0;
    if (sy->nlr == sy->caplr && ttdi_grow(&sy->lr, &sy->caplr, sy->nlr + 1, sizeof *sy->lr, 64) < 0)
        return TT_ENOMEM;
    if (added)
        *v = sy->nlr;
    sy->lr[sy->nlr++] = (ttdi_lret){*f, ev->tsc, ttf_event_late_ns(ev), ev->time_ns,
                                  sy->lmax_ns};
    return 0;
}

/* SYNC_OP ev into the thread order's lock sets; what would make them
 * hold a lock the races' count (races.c) has let go of marks the data
 * partial (ttdi_ltap.partial). */
static void tap_sop(ttdi_syncs *sy, const ttf_event *ev)
{
    if (ev->code == TTF_SOP_WAIT || ev->code == TTF_SOP_WOKE) {
        sy->waiting = ev->code == TTF_SOP_WAIT;
        return;
    }
    if (ev->code != TTF_SOP_LOCK && ev->code != TTF_SOP_TRYLOCK && ev->code != TTF_SOP_UNLOCK)
        return;
    uint64_t bit = tap_bit(sy, ev);
    if (ev->code == TTF_SOP_UNLOCK && !(sy->lt.held & bit))
        sy->partial = 1;    /* not held here: the races' count goes down */
    ttdi_lock_bits(&sy->lt, ev, bit);
}

/* EXIT ev of walk w into the thread order's open calls (lock_call's
 * EXIT, the frame it closes read in place). 0 or TT_ENOMEM. */
static inline int tap_exit(ttdi_syncs *sy, ttdi_walk *w, const ttf_event *ev)
{
    ttdi_lthread *t = &sy->lt;
    size_t d = ttdi_walk_depth_after(w);

    if (d >= t->n)
        return 0;
    abandon(t, d + 1);
    const ttdi_lframe *f = &t->f[--t->n];   /* stays there: no push below */
    if (t->n)
        t->f[t->n - 1].mask |= f->mask;
    if (!f->key) {
        sy->partial = 1;    /* a return with key 0: not in lr */
        return 0;
    }
    w->key = ttdi_norm_exit_of(f->key);     /* ttdi_walk_tapped_key */
    w->tapped = w->nraw;
    return tap_return(sy, f, ev);
}

/* Walk w's current event (not a SLEEP) into the thread order's data. */
static int tap(ttdi_walk *w)
{
    ttdi_syncs *sy = w->sy;
    const ttf_event *ev = &w->ev;
    int rc = 0;

    /* (prev_tsc and lmax_ns are 0 before the first event: never back) */
    if (ev->tsc < sy->prev_tsc || ev->time_ns < sy->lmax_ns)
        loosen(sy);     /* as a stack walk's consumer would see it go back */
    sy->prev_tsc = ev->tsc;
    if (ev->kind == TTF_EV_ENTER) {
        rc = lock_push(&w->r->norm, &sy->lt, ev, ttdi_walk_depth_after(w));
        w->key = rc ? w->key : sy->lt.f[sy->lt.n - 1].key;  /* ttdi_walk_tapped_key */
        w->tapped = rc ? w->tapped : w->nraw;
        sy->partial |= sy->waiting; /* a call in a condition wait */
    } else if (ev->kind == TTF_EV_EXIT) {
        rc = tap_exit(sy, w, ev);
        sy->partial |= sy->waiting;
    } else if (ev->kind == TTF_EV_SYNC_OP) {
        tap_sop(sy, ev);
    } else {
        sy->partial |= sy->waiting;
    }
    sy->lmax_ns = ev->time_ns > sy->lmax_ns ? ev->time_ns : sy->lmax_ns;
    return rc < 0 ? rc : 0;
}

/* The index of names (func, within) among sy's call names, added if
 * new: a direct-mapped cache by the pointers, then a scan (a thread makes
 * its sync operations from a few calls). TT_ENOMEM when full (2^24 - 1
 * pairs: a record keeps its index in 24 bits). */
static int64_t call_index(ttdi_syncs *sy, const char *func, const char *within)
{
    if (!func && !within)
        return 0;
    uint64_t h = ttfi_mix64((uint64_t)(uintptr_t)func * 3 ^ (uint64_t)(uintptr_t)within);
    uint32_t *hot = &sy->cnhot[hot_slot(h)];
    size_t i = *hot;

    if (i && sy->cn[i - 1].func == func && sy->cn[i - 1].within == within)
        return (int64_t)i - 1;
    for (i = 1; i < sy->ncn; i++)
        if (sy->cn[i].func == func && sy->cn[i].within == within)
            break;
    if (i >= sy->ncn) {
        i = sy->ncn ? sy->ncn : 1;  /* [0]: no names (the tap was off) */
        if (i >= (1u << 24) - 1 || ttdi_grow(&sy->cn, &sy->capcn, i + 1, sizeof *sy->cn, 16) < 0)
            return TT_ENOMEM;
        sy->cn[0] = (ttdi_callnames){NULL, NULL};
        sy->cn[i] = (ttdi_callnames){func, within};
        sy->ncn = i + 1;
    }
    *hot = (uint32_t)i + 1;
    return (int64_t)i;
}

/* Room for walk w's thread's next record. Past REC_GUESS records, room
 * for as many as the thread's events promise at the rate so far (an
 * eighth more), so that a long thread's records grow once or twice, not
 * by doubling (each a copy: 9% of the page faults of a 25M-event parted
 * pair). 0 or TT_ENOMEM. */
#define REC_GUESS 4096
static int rec_room(ttdi_walk *w)
{
    ttdi_syncs *sy = w->sy;
    const ttf_thread *th = ttf_get_thread(w->r->t, w->thread);
    double guess = sy->n >= REC_GUESS && th && th->events > sy->upto
                       ? (double)sy->n * (double)th->events / (double)sy->upto * 1.125
                       : 0;

    return ttdi_grow_guess(&sy->rec, &sy->cap, sy->n + 1, guess, sizeof *sy->rec, 64);
}

/* Walk w's current event, the first past its thread's records: kept. */
static int record(ttdi_walk *w)
{
    ttdi_syncs *sy = w->sy;
    const ttf_event *ev = &w->ev;

    sy->upto++;
    if (!w->r->count_calls)
        sy->uncounted = 1;
    else if (ev->kind == TTF_EV_ENTER && count_call(sy, ev) < 0)
        return TT_ENOMEM;
    if (ev->kind == TTF_EV_SYNC_OP && TTDI_SOP_ASIDE(ev->code))
        return 0;       /* raw walks skip them: neither kept nor a time */
    if (!w->r->lock_tap)
        sy->untapped = 1;
    else if (!sy->untapped && tap(w) < 0)
        return TT_ENOMEM;
    if (ev->kind != TTF_EV_SYNC_OP) {
        sy->max_ns = ev->time_ns > sy->max_ns ? ev->time_ns : sy->max_ns;
        return 0;
    }
    if (sy->n == sy->cap && rec_room(w) < 0)
        return TT_ENOMEM;
    const char *func = sy->untapped ? NULL : sy->lt.n ? sy->lt.f[sy->lt.n - 1].name : "";
    const char *within = sy->untapped ? NULL : ttdi_lock_caller(&sy->lt);
    int64_t call = call_index(sy, func, within);
    if (call < 0)
        return TT_ENOMEM;
    int64_t d = (int64_t)(ev->time_ns - sy->max_ns);
    if (d <= INT32_MIN || d > INT32_MAX) {
        if (sy->nfar == sy->capfar &&
            ttdi_grow(&sy->far, &sy->capfar, sy->nfar + 1, sizeof *sy->far, 16) < 0)
            return TT_ENOMEM;
        sy->far[sy->nfar++] = (ttdi_far){sy->n, sy->max_ns};
        d = INT32_MIN;
    }
    sy->rec[sy->n++] = (ttdi_syncrec){ev->tsc, ev->addr, ev->sync_arg, (int32_t)d,
                                      (uint32_t)call << 8 | (uint8_t)ev->code};
    return 0;
}

/* Record k's latest time of its thread's events before it. */
static uint64_t before_of(const ttdi_syncs *sy, size_t k, uint64_t ns)
{
    const ttdi_syncrec *s = &sy->rec[k];
    size_t lo = 0, hi = sy->nfar;

    if (s->before_d != INT32_MIN)
        return ns - (uint64_t)(int64_t)s->before_d;
    while (lo < hi) {               /* it is there: a search by index */
        size_t mid = lo + (hi - lo) / 2;
        if (sy->far[mid].k < k)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < sy->nfar ? sy->far[lo].before_ns : ns;
}

int ttdi_walk_tap(const ttdi_run_state *r, uint32_t thread, uint64_t ns, ttdi_ltap *tap_out)
{
    const ttdi_syncs *sy = r->syncs && thread < r->nt ? &r->syncs[thread] : NULL;
    size_t k = 0, j = 0;

    if (!sy || sy->untapped || !sy->upto || (sy->loose && sy->loose - 1 <= ns) ||
        (!sy->ended && sy->lmax_ns <= ns))
        return 0;       /* not read past ns, or not exact up to there */
    /* a stack walk stops at the first event later than ns */
    for (uint64_t t; k < sy->n && (t = ttdi_sr_ns(r->t, &sy->rec[k])) <= ns &&
                     before_of(sy, k, t) <= ns;)
        k++;
    while (j < sy->nlr && sy->lr[j].time_ns <= ns && sy->lr[j].before_ns <= ns)
        j++;
    *tap_out = (ttdi_ltap){sy->lr, j, sy->rec, k, sy->cn, sy->paddr, sy->nprov, sy->partial};
    return 1;
}

int ttdi_walk_syncs(const ttdi_run_state *r, uint32_t thread, uint64_t ns,
                    const ttdi_syncrec **recs, size_t *n)
{
    const ttdi_syncs *sy = r->syncs && thread < r->nt ? &r->syncs[thread] : NULL;
    size_t k = 0;

    if (!sy)
        return 0;
    /* the raw walk stops before record k when an event before it that is
     * not a SYNC_OP comes at ns or later (one that is would be a record
     * later than ns, which stopped it already) */
    for (uint64_t t; k < sy->n && (t = ttdi_sr_ns(r->t, &sy->rec[k])) <= ns &&
                     before_of(sy, k, t) < ns;)
        k++;
    if (k == sy->n && !sy->ended && sy->max_ns < ns)
        return 0;       /* the walks did not get to where it stops */
    *recs = sy->rec;
    *n = k;
    return 1;
}

int ttdi_walk_calls(const ttdi_run_state *r, uint32_t thread, const ttdi_fcalls **fc,
                    size_t *n)
{
    const ttdi_syncs *sy = r->syncs && thread < r->nt ? &r->syncs[thread] : NULL;

    if (sy && sy->ended && !sy->uncounted) {
        *fc = sy->calls.fc;
        *n = sy->calls.nfc;
        return 1;
    }
    if (!sy || sy->kcalls.state != 2)
        return 0;
    *fc = sy->kcalls.fc;
    *n = sy->kcalls.nfc;
    return 1;
}

int ttdi_walk_open(ttdi_walk *w, ttdi_run_state *r, uint32_t thread)
{
    memset(w, 0, sizeof *w);
    w->r = r;
    w->stacked = 1;
    w->thread = thread;
    w->from_ns = start_of(r->t, thread);
    w->mark_at = thread < r->nt ? 0 : UINT64_MAX; /* leave_mark finds the place */
    if (thread < r->nt && !r->syncs && !(r->syncs = calloc(r->nt, sizeof *r->syncs)))
        return TT_ENOMEM;
    w->sy = thread < r->nt ? &r->syncs[thread] : NULL;
    if (w->sy)
        w->sy->calls.sym = r->norm.sym;
    return ttf_iter_open(r->t, thread, &w->it);
}

int ttdi_walk_raw_values(ttdi_walk *w, const ttf_trace *t, uint32_t thread)
{
    memset(w, 0, sizeof *w);
    w->from_ns = start_of(t, thread);
    return ttf_iter_open(t, thread, &w->it);
}

int ttdi_walk_raw(ttdi_walk *w, const ttf_trace *t, uint32_t thread)
{
    int rc = ttdi_walk_raw_values(w, t, thread);
    return rc < 0 ? rc : ttf_iter_skip_values(w->it);
}

int ttdi_walk_stack(ttdi_walk *w, const ttf_trace *t, uint32_t thread, int values)
{
    int rc = values ? ttdi_walk_raw_values(w, t, thread) : ttdi_walk_raw(w, t, thread);

    w->stacked = 1;
    w->lean = 1;
    w->mark_at = UINT64_MAX;
    return rc;
}

int ttdi_walk_keyed(ttdi_walk *w, ttdi_norm *norm, uint32_t thread)
{
    memset(w, 0, sizeof *w);
    w->from_ns = start_of(norm->trace, thread);
    w->norm = norm;
    return ttf_iter_open(norm->trace, thread, &w->it);
}

int ttdi_walk_clone(const ttdi_walk *w, ttdi_walk *out)
{
    memset(out, 0, sizeof *out);
    if (w->stacked)
        return TT_EINVAL;       /* a run or stack walk's stack is not copied */
    out->norm = w->norm;
    out->key = w->key;
    out->ev = w->ev;
    out->kept = w->kept;
    out->idx = w->idx;
    out->next = w->next;
    out->sleeps = w->sleeps;
    out->notimes = w->notimes;
    out->timed = w->timed;
    out->retimed = w->retimed;
    out->from_ns = w->ev.time_ns;
    return ttf_iter_clone(w->it, &out->it);
}

int ttdi_walk_novalues(ttdi_walk *w)
{
    return ttf_iter_skip_values(w->it);
}

int ttdi_walk_notimes(ttdi_walk *w)
{
    if (w->r)
        return TT_EINVAL;
    w->notimes = 1;
    return ttf_iter_skip_times(w->it);
}

int ttdi_walk_times(ttdi_walk *w, int keep)
{
    if (!w->notimes || (!keep && w->timed == w->ev.offset + 1))
        return 0;               /* (this event's are there already) */
    keep |= ++w->retimed > TTDI_RETIMES;
    int rc = ttf_iter_times(w->it, &w->ev);
    if (rc < 0)
        return rc;
    w->timed = w->ev.offset + 1;
    if (!keep)
        return ttf_iter_skip_times(w->it);
    w->notimes = 0;
    return 0;
}

int ttdi_walk_times_at(ttdi_walk *w, ttf_event *ev)
{
    int rc = ttf_iter_times_at(w->it, ev);

    if (rc < 0 || !w->notimes || ++w->retimed <= TTDI_RETIMES)
        return rc;
    return ttdi_walk_times(w, 1);   /* a walk that needs many: its times from here */
}

/* ---- marks: a run walk's state, left for later walks of its thread ---- */

#define MARKS 16 /* marks kept per thread (an iterator's state is ~43 KB) */

/* A run walk as it stood right after it read a kept event: its own
 * iterator (a clone) and stack, no open set (w.live says whether it had
 * one). */
typedef struct mark {
    ttdi_walk w;
} mark;

/* One thread's marks, by key index: every `every` kept events over the
 * part of the thread walked so far (walks start at its start or at a
 * mark, so that part is a prefix); when MARKS are there, every other one
 * goes and the spacing doubles. */
typedef struct ttdi_marks {
    mark m[MARKS];
    size_t n;
    uint64_t every;         /* their spacing, 0 until the first */
    uint64_t reach_idx;     /* the furthest a closed run walk got: the */
    uint64_t reach_ns;      /*   kept events before its last event, and
                               the latest time before it (0, 0: none) */
    uint64_t stop_idx;      /* the same of the last closed run walk that */
    uint64_t stop_ns;       /*   got less far (a walk from a mark of a
                               thread read whole: to the split) */
} ttdi_marks;

static void mark_clear(mark *m)
{
    ttf_iter_close(m->w.it);
    free(m->w.stack);
    memset(m, 0, sizeof *m);
}

/* *to = *from with an iterator and a stack of its own, no open set. 0 or
 * a TT_E* code (to then holds nothing to free). */
static int copy_walk(const ttdi_walk *from, ttdi_walk *to)
{
    *to = *from;
    memset(&to->open, 0, sizeof to->open);
    to->live = 0;
    to->stack = malloc((from->nstack + 1) * sizeof *to->stack);
    to->cap = from->nstack + 1;
    int rc = to->stack ? ttf_iter_clone(from->it, &to->it) : TT_ENOMEM;
    if (rc < 0) {
        free(to->stack);
        memset(to, 0, sizeof *to);
        return rc;
    }
    if (from->nstack)
        memcpy(to->stack, from->stack, from->nstack * sizeof *to->stack);
    return 0;
}

void ttdi_marks_free(ttdi_run_state *r)
{
    for (size_t i = 0; r->marks && i < r->nt; i++)
        for (size_t k = 0; k < r->marks[i].n; k++)
            mark_clear(&r->marks[i].m[k]);
    free(r->marks);
    r->marks = NULL;
    for (size_t i = 0; r->syncs && i < r->nt; i++) {
        free(r->syncs[i].rec);
        free(r->syncs[i].far);
        free(r->syncs[i].cn);
        ccount_free(&r->syncs[i].calls);
        ccount_free(&r->syncs[i].kcalls);
        free(r->syncs[i].lt.f);
        free(r->syncs[i].lr);
        ttdi_map_free(&r->syncs[i].lseen);
    }
    free(r->syncs);
    r->syncs = NULL;
}

/* Keep every other mark of a full ms (those at multiples of twice the
 * spacing): room for as many again, twice as far apart. */
static void thin(ttdi_marks *ms)
{
    size_t k = 0;

    ms->every *= 2;
    for (size_t i = 0; i < ms->n; i++) {
        if (ms->m[i].w.idx % ms->every) {
            mark_clear(&ms->m[i]);
            continue;
        }
        ms->m[k++] = ms->m[i];
        if (k - 1 != i)
            memset(&ms->m[i], 0, sizeof ms->m[i]);
    }
    ms->n = k;
}

/* Where walk w (standing at w->idx) leaves its next mark: the next
 * multiple of the spacing, or its pin before it. */
static void next_mark(ttdi_walk *w, const ttdi_marks *ms)
{
    w->mark_at = (w->idx / ms->every + 1) * ms->every;
    if (w->pin_at > w->idx && w->pin_at < w->mark_at)
        w->mark_at = w->pin_at;
}

void ttdi_walk_pin(ttdi_walk *w, uint64_t idx)
{
    w->pin_at = idx;
    if (idx && w->r && w->mark_at != UINT64_MAX && idx > w->idx && idx < w->mark_at)
        w->mark_at = idx;
}

void ttdi_walk_pin_ns(ttdi_walk *w, uint64_t ns)
{
    if (w->r && w->mark_at != UINT64_MAX)
        w->pin_ns = ns;
}

/* A pinned mark where walk w stands, among ms's marks past it (a walk
 * that started at a mark: the thread order's, of a thread an earlier walk
 * read whole, pins one near the split, ttdi_walk_pin_ns), in order; none
 * when one is there. 0 or TT_ENOMEM. */
static int insert_pin(ttdi_walk *w, ttdi_marks *ms)
{
    mark m;

    if (ms->n == MARKS)
        thin(ms);
    size_t k = ms->n;
    while (k > 0 && ms->m[k - 1].w.idx > w->idx)
        k--;
    if (k > 0 && ms->m[k - 1].w.idx == w->idx)
        return 0;
    int rc = copy_walk(w, &m.w);
    if (rc < 0)
        return rc;
    m.w.live = w->live;
    memmove(&ms->m[k + 1], &ms->m[k], (ms->n - k) * sizeof *ms->m);
    ms->m[k] = m;
    ms->n++;
    w->left = w->idx + 1;
    return 0;
}

int ttdi_walk_values_from(ttdi_walk *w, uint64_t idx)
{
    if (!idx || !w->r || w->mark_at == UINT64_MAX || w->next >= idx || w->vfrom ||
        !ttf_get_summary(w->r->t)->values)
        return 0;
    int rc = ttf_iter_skip_values(w->it);
    if (rc < 0)
        return rc;
    w->vfrom = idx;
    w->pin_at = idx;
    w->mark_at = idx;           /* leave_mark takes them back there */
    return 0;
}

/* Values back in walk w at w->vfrom (ttdi_walk_values_from): its event's
 * and the open frames' that were read without them. 0 or a TT_E* code. */
static int values_back(ttdi_walk *w)
{
    int rc = ttf_iter_values(w->it, &w->ev);

    w->vfrom = 0;
    w->vskip = 0;           /* (from an aside walk's mark) */
    for (size_t i = 0; rc >= 0 && !w->lean && i < w->nstack; i++) {
        ttdi_frame_id *f = &w->stack[i];
        ttf_event x;
        if (f->has_values)
            continue;
        memset(&x, 0, sizeof x);
        x.kind = TTF_EV_ENTER;
        x.offset = f->offset;
        if ((rc = ttf_iter_values_at(w->it, &x)) < 0)
            break;
        f->has_values = x.has_values;
        memcpy(f->argregs, x.argregs, sizeof f->argregs);
    }
    return rc;
}

/* Leave a mark where walk w stands (a kept event) unless an earlier walk
 * of the thread got that far (a pinned one goes among them); none before
 * where it takes its values back (there first). 0 or TT_ENOMEM. */
static int leave_mark(ttdi_walk *w)
{
    ttdi_run_state *r = w->r;
    int rc;

    if (w->vfrom && w->idx < w->vfrom)
        return 0;
    if (w->vfrom && (rc = values_back(w)) < 0)
        return rc;

    if (!r->marks && !(r->marks = calloc(r->nt, sizeof *r->marks)))
        return TT_ENOMEM;
    ttdi_marks *ms = &r->marks[w->thread];
    if (!ms->every)
        ms->every = r->mark_every ? r->mark_every : TTDI_MARK_EVERY;
    int pin = (w->pin_at && w->idx == w->pin_at) || (w->pin_ns && w->ev.time_ns >= w->pin_ns);
    if (w->pin_ns && w->ev.time_ns >= w->pin_ns)
        w->pin_ns = 0;  /* once */
    next_mark(w, ms);
    if (!w->idx || (w->idx % ms->every && !pin))
        return 0;
    if (ms->n && ms->m[ms->n - 1].w.idx >= w->idx)
        return pin ? insert_pin(w, ms) : 0;
    if (ms->n == MARKS)
        thin(ms);
    if (w->idx % ms->every && !pin) {
        next_mark(w, ms);
        return 0;
    }
    rc = copy_walk(w, &ms->m[ms->n].w);
    if (rc < 0)
        return rc;
    ms->m[ms->n++].w.live = w->live;
    w->left = w->idx + 1;
    return 0;
}

/* The latest mark of ms that can start a walk asking (idx, ns, keep) of
 * ttdi_walk_open_at, NULL if none. The marks' max_ns never go down. The
 * kept events after a mark known to come before the first event later
 * than ns: up to the last mark no later than ns, or up to where a closed
 * walk got (its reach, or the last one's that got less far) if that is no
 * later than ns. */
static const mark *mark_for(const ttdi_marks *ms, uint64_t idx, uint64_t ns, uint64_t keep,
                            int any)
{
    size_t j = ms->n;       /* marks [0, j) are no later than ns */

    /* an aside mark read without times (ttdi_walk_aside_notimes) knows
       its time only as a lower bound: taken as later than ns */
    while (j > 0 && (ms->m[j - 1].w.max_ns > ns || (!any && ms->m[j - 1].w.notimes)))
        j--;
    uint64_t top = j ? ms->m[j - 1].w.idx + 1 : 0; /* kept events [0, top) before it */
    if (ms->reach_ns <= ns && ms->reach_idx > top)
        top = ms->reach_idx;
    if (ms->stop_ns <= ns && ms->stop_idx > top)
        top = ms->stop_idx;
    for (size_t k = j; k-- > 0;) {
        const mark *m = &ms->m[k];
        if (m->w.idx < idx && (any || !m->w.vskip) && (!keep || top - 1 - m->w.idx >= keep))
            return m;
    }
    return NULL;
}

static int go_live(ttdi_walk *w);

int ttdi_walk_marked(const ttdi_run_state *r, uint32_t thread)
{
    const ttdi_marks *ms = r->marks && thread < r->nt ? &r->marks[thread] : NULL;

    for (size_t k = 0; ms && k < ms->n; k++)
        if (!ms->m[k].w.vskip)
            return 1;       /* (an aside walk's serve resolve's pass alone) */
    return 0;
}

/* Walk w from mark m, as ttdi_walk_open_at starts it. 0 or a TT_E* code. */
static int open_mark(ttdi_walk *w, const mark *m)
{
    int rc = copy_walk(&m->w, w);
    if (rc < 0)
        return rc;
    w->mark_at = w->idx + 1;    /* leave_mark finds the next place */
    w->pin_at = w->pin_ns = 0;  /* the marking walk's, not this one's */
    w->sleeps = 0;              /* as ttdi_walk_open's, whatever the marking walk's */
    w->left = 0;
    w->from_ns = m->w.max_ns;
    return m->w.live ? go_live(w) : 0;
}

int ttdi_walk_open_at(ttdi_walk *w, ttdi_run_state *r, uint32_t thread, uint64_t idx,
                      uint64_t ns, uint64_t keep)
{
    const mark *m = r->marks && thread < r->nt ? mark_for(&r->marks[thread], idx, ns, keep, 0)
                                               : NULL;
    return m ? open_mark(w, m) : ttdi_walk_open(w, r, thread);
}

/* The exact times back in walk w, started at an aside mark read without
 * them from w->untimed_from (ttdi_walk_aside_notimes): those of the
 * frames entered since (by their ENTERs' offsets, in the order read) and
 * of its event; its next events come with theirs. A thread's times never
 * go down, so its latest is its event's. 0 or a TT_E* code. */
static int times_back(ttdi_walk *w)
{
    int rc = 0;

    for (size_t i = 0; rc >= 0 && i < w->nstack; i++) {
        ttdi_frame_id *f = &w->stack[i];
        ttf_event x;
        if (f->offset < w->untimed_from)
            continue;
        memset(&x, 0, sizeof x);
        x.kind = TTF_EV_ENTER;
        x.offset = f->offset;
        if ((rc = ttf_iter_times_at(w->it, &x)) >= 0)
            f->time_ns = x.time_ns;
    }
    if (rc < 0 || (rc = ttf_iter_times(w->it, &w->ev)) < 0)
        return rc;
    if (w->ev.time_ns > w->max_ns)
        w->max_ns = w->ev.time_ns;
    w->from_ns = w->max_ns;
    w->notimes = 0;
    w->untimed_from = 0;
    return 0;
}

int ttdi_walk_aside_notimes(ttdi_walk *w)
{
    if (!w->vskip || !w->it)
        return TT_EINVAL;
    if (w->notimes)
        return 0;
    int rc = ttf_iter_skip_times(w->it);
    if (rc < 0)
        return rc;
    w->notimes = 1;
    w->untimed_from = w->ev.offset + 1;
    return 0;
}

int ttdi_walk_open_values(ttdi_walk *w, ttdi_run_state *r, uint32_t thread, uint64_t idx,
                          uint64_t vfrom)
{
    const ttdi_marks *ms = r->marks && thread < r->nt ? &r->marks[thread] : NULL;
    const mark *m = ms ? mark_for(ms, idx, UINT64_MAX, 0, 0) : NULL;
    /* an aside mark before vfrom - 1: the walk there still has a kept
       event to read before vfrom, where it takes the values back */
    const mark *a = ms && vfrom > 1 ? mark_for(ms, vfrom - 1, UINT64_MAX, 0, 1) : NULL;
    int rc;

    if (a && a->w.vskip && (!m || a->w.idx > m->w.idx))
        m = a;
    rc = m ? open_mark(w, m) : ttdi_walk_open(w, r, thread);
    if (m && m == a)
        w->read_out = 0;    /* its reach noted at its close, as from the start */
    if (rc >= 0 && m && m == a && w->notimes)
        rc = times_back(w);
    if (rc >= 0 && (rc = ttdi_walk_values_from(w, vfrom)) >= 0 && w->vskip && !w->vfrom)
        rc = TT_EINVAL;     /* (no values where the caller needs them) */
    if (rc < 0)
        ttdi_walk_close(w);
    return rc;
}

int ttdi_walk_aside_ok(const ttdi_run_state *r, uint32_t thread)
{
    return thread < r->nt && !r->norm.keep && !r->norm.drop &&
           ttf_get_summary(r->t)->values && !(r->marks && r->marks[thread].n);
}

int ttdi_walk_open_aside(ttdi_walk *w, ttdi_run_state *r, uint32_t thread)
{
    int rc;

    memset(w, 0, sizeof *w);
    if (!ttdi_walk_aside_ok(r, thread))
        return TT_EINVAL;
    w->r = r;
    w->stacked = 1;
    w->thread = thread;
    w->from_ns = start_of(r->t, thread);
    w->vskip = 1;
    w->read_out = 1;        /* no reach noted: what the caller's walks know */
    if ((rc = ttf_iter_open(r->t, thread, &w->it)) < 0)
        return rc;
    return ttf_iter_skip_values(w->it);
}

int ttdi_walk_open_mark(ttdi_walk *w, ttdi_run_state *r, uint32_t thread, uint64_t idx)
{
    const ttdi_marks *ms = r->marks && thread < r->nt ? &r->marks[thread] : NULL;

    for (size_t k = 0; ms && k < ms->n; k++)
        if (ms->m[k].w.idx == idx && !ms->m[k].w.vskip) {
            int rc = open_mark(w, &ms->m[k]);
            return rc < 0 ? rc : 1;
        }
    return 0;
}

uint64_t ttdi_walk_span_ns;
uint64_t ttdi_walk_aside_span_ns;

/* How far run walk w got, for the walks opened after it (its reach). */
static void note_reach(const ttdi_walk *w)
{
    ttdi_marks *ms = w->r && w->r->marks && w->thread < w->r->nt ? &w->r->marks[w->thread]
                                                                   : NULL;
    if (ms && w->idx > ms->reach_idx) {   /* as far as it got (w->idx: the
                                             kept events before w->ev) */
        ms->reach_idx = w->idx;
        ms->reach_ns = w->prev_ns;
    } else if (ms && w->idx) {
        ms->stop_idx = w->idx;
        ms->stop_ns = w->prev_ns;
    }
}

void ttdi_walk_close(ttdi_walk *w)
{
    if (!w->read_out)
        note_reach(w);
    if (w->ev.time_ns > w->from_ns)
        __atomic_fetch_add(w->vskip && w->read_out ? &ttdi_walk_aside_span_ns : &ttdi_walk_span_ns,
                           w->ev.time_ns - w->from_ns, __ATOMIC_RELAXED);
    ttf_iter_close(w->it);
    free(w->stack);
    ttdi_openset_free(&w->open);
}

int ttdi_walk_read_out(ttdi_walk *w)
{
    const ttf_thread *t = w->sy ? ttf_get_thread(w->r->t, w->thread) : NULL;
    int rc;

    if (!t || !w->r->count_calls || w->sy->ended || w->nraw != w->sy->upto ||
        t->events - w->nraw > w->nraw / 8)
        return 0;
    note_reach(w);      /* where its consumer stopped (the split): the */
    w->read_out = 1;    /* details' walks to the events before it start near it */
    while ((rc = ttdi_walk_next(w)) > 0) {
    }
    return rc;
}

/* Frames up to which an EXIT that is not the innermost frame's looks for
 * its frame by scanning the stack; deeper, the open set counts the open
 * ids, so an EXIT with no open frame costs O(1) rather than a scan. */
#define SCAN_DEPTH 64

/* A frame's id: its function's address, or its scope's site. */
static uint64_t frame_of(const ttf_event *ev)
{
    return ev->site ? (ev->site | TTDI_SITE_BIT) : ev->addr;
}

/* What a frame shows beyond its id (a lean walk keeps none): the call
 * and, in its caller, the last call made. */
static void fill_frame(ttdi_walk *w, ttdi_frame_id *f, const ttf_event *ev)
{
    if (w->nstack > 1 && w->kept && !ev->site) {
        ttdi_frame_id *up = f - 1;
        up->last_site = ev->call_site;
        up->last_addr = ev->addr;
        up->last_time = ev->time_ns;
    }
    f->call_site = ev->call_site;
    f->offset = ev->offset;
    f->last_site = f->last_addr = f->last_time = 0;
    f->addr = ev->site ? 0 : ev->addr;
    f->site = ev->site;
    f->time_ns = ev->time_ns;
    f->name = NULL; /* looked up when asked: ttdi_walk_frame_name() */
    f->has_values = ev->has_values;
    if (ev->has_values)
        memcpy(f->argregs, ev->argregs, sizeof f->argregs);
}

static int push(ttdi_walk *w, const ttf_event *ev)
{
    if (w->nstack == w->cap &&
        ttdi_grow(&w->stack, &w->cap, w->nstack + 1, sizeof *w->stack, 64) < 0)
        return TT_ENOMEM;
    ttdi_frame_id *f = &w->stack[w->nstack++];
    f->id = frame_of(ev);
    if (!w->lean)
        fill_frame(w, f, ev);
    return w->live ? ttdi_openset_add(&w->open, f->id) : 0;
}

/* Make the open set live: the ids of every frame. */
static int go_live(ttdi_walk *w)
{
    for (size_t i = 0; i < w->nstack; i++)
        if (ttdi_openset_add(&w->open, w->stack[i].id) < 0)
            return TT_ENOMEM;
    w->live = 1;
    return 0;
}

/* Close frames stack[n..); back under SCAN_DEPTH / 2 the set goes idle
 * (its keys deleted one by one, so it is empty again). */
static inline void drop_to(ttdi_walk *w, size_t n)
{
    if (!w->live) {
        w->nstack = n;
        return;
    }
    while (w->nstack > n)
        ttdi_openset_del(&w->open, w->stack[--w->nstack].id);
    if (n >= SCAN_DEPTH / 2)
        return;
    while (n > 0)
        ttdi_openset_del(&w->open, w->stack[--n].id);
    w->live = 0;
}

/* The index of the frame an EXIT with frame id `id` leaves, or w->nstack
 * when none is its own (the trace began inside it). Mostly it is the
 * innermost frame; else a scan, or the open counts when live. */
static size_t own_frame(const ttdi_walk *w, uint64_t id)
{
    size_t i = w->nstack;

    if (i && w->stack[i - 1].id == id)
        return i - 1;
    if (w->live && !ttdi_openset_count(&w->open, id))
        return w->nstack;
    while (i > 0 && w->stack[i - 1].id != id)
        i--;
    return i ? i - 1 : w->nstack;
}

/* Pop to the frame ev leaves, and the frames above it (a longjmp left
 * them with no UNWIND record); an exit with no frame of its own leaves
 * the stack alone. A deep stack goes live first (no scan per exit). */
static int pop(ttdi_walk *w, const ttf_event *ev)
{
    uint64_t id = frame_of(ev);
    size_t n = w->nstack;

    if (n && w->stack[n - 1].id == id) {
        drop_to(w, n - 1);
        return 0;
    }
    if (!w->live && n > SCAN_DEPTH && go_live(w) < 0)
        return TT_ENOMEM;
    size_t i = own_frame(w, id);
    if (i < n)
        drop_to(w, i);
    return 0;
}

size_t ttdi_walk_depth_slow(const ttdi_walk *w)
{
    if (!w->pending || w->ev.kind != TTF_EV_EXIT)
        return w->nstack;
    return own_frame(w, frame_of(&w->ev));
}

int ttdi_walk_step(ttdi_walk *w)
{
    if (w->pending) {
        if (w->ev.kind == TTF_EV_ENTER && w->unwound) {
            drop_to(w, ttdi_walk_depth_after(w));
            w->unwound = 0;
        }
        w->pending = 0;
        if (w->ev.kind == TTF_EV_ENTER && push(w, &w->ev) < 0)
            return TT_ENOMEM;
        if (w->ev.kind == TTF_EV_EXIT) {
            w->unwound = 0;             /* it pops to its own frame */
            if (pop(w, &w->ev) < 0)
                return TT_ENOMEM;
        }
        if (w->ev.kind == TTF_EV_UNWIND)    /* frames a longjmp or exception left */
            w->unwound += w->ev.unwound;
    }
    int rc = ttf_iter_next(w->it, &w->ev);
    if (rc <= 0) {
        if (!rc && w->sy && w->nraw == w->sy->upto)
            w->sy->ended = 1;
        return rc;
    }
    w->pending = (TTDI_STACK_KINDS >> (w->ev.kind & 31)) & 1;
    if (w->sy) {
        if (w->nraw++ == w->sy->upto && record(w) < 0)
            return TT_ENOMEM;
    } else if (!w->r) {
        return 1;       /* a stack walk: no filter, no keys, no marks */
    }
    rc = __builtin_expect(w->vskip, 0) ? ttdi_norm_kept_pure(&w->r->norm, &w->ev)
                                        : ttdi_norm_kept(&w->r->norm, &w->ev);
    if (rc < 0)
        return rc;
    w->kept = rc;
    w->idx = w->next;
    w->next += (uint64_t)rc;
    w->prev_ns = w->max_ns;
    if (w->ev.time_ns > w->max_ns)
        w->max_ns = w->ev.time_ns;
    if (rc && (w->idx >= w->mark_at || (w->pin_ns && w->ev.time_ns >= w->pin_ns)) &&
        leave_mark(w) < 0)
        return TT_ENOMEM;
    return 1;
}

const char *ttdi_walk_frame_name(ttdi_walk *w, ttdi_frame_id *f)
{
    if (!f->name)
        f->name = ttdi_norm_func_at(&w->r->norm, f->addr, f->site, f->time_ns);
    return f->name;
}

int ttdi_joined_threads(const ttf_trace *t, uint8_t *joined, size_t nt)
{
    ttdi_walk w;
    uint64_t *obj = calloc(nt + 1, sizeof *obj);    /* thread i's pthread_t + 1 */
    int rc = obj ? ttdi_walk_raw(&w, t, TTF_ALL_THREADS) : TT_ENOMEM;

    if (rc < 0) {
        free(obj);
        return rc;
    }
    memset(joined, 0, nt);
    while ((rc = ttdi_walk_next(&w)) == 1) {
        if (w.ev.kind != TTF_EV_SYNC_OP)
            continue;
        if (w.ev.code == TTF_SOP_CREATE && w.ev.sync_arg >= 0 && (uint64_t)w.ev.sync_arg < nt)
            obj[w.ev.sync_arg] = w.ev.addr + 1;
        for (size_t i = 0; w.ev.code == TTF_SOP_JOIN && i < nt; i++)
            joined[i] |= obj[i] == w.ev.addr + 1;
    }
    ttdi_walk_close(&w);
    free(obj);
    return rc < 0 ? rc : 0;
}
