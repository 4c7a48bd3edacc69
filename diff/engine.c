/*
 * engine.c - ttdiff's engine: pair the threads of two runs, normalise each
 * pair to key sequences, align them (align.c) and resolve the hunks into
 * the plain structs of ttdiff.h. It never prints.
 *
 * Design. Memory is the budget that matters (a trace may hold hundreds of
 * millions of events), so the only per-event state is the 8-byte key of
 * each thread pair being aligned, and only one pair's keys live at a time.
 * Both threads of a pair are normalised in step and their common prefix is
 * compared on the fly, never stored: two identical runs need no key memory.
 * Nothing points back into the trace: the k-th key is the k-th event that
 * passes the (deterministic) normaliser, so to show an event the engine
 * walks the thread again, applying the same filter, until it reaches k.
 * Those walks happen for a handful of windows (each hunk's first events,
 * the first divergence's context, stacks and the other threads' last
 * events) and stop as soon as the last wanted index is reached, so a report
 * costs about one more pass over the prefix of the run before the split.
 *
 * The first divergence is the hunk that starts earliest in the bad run's
 * time across all thread pairs: a thread that goes wrong first is more
 * likely the cause than one that merely reacts later. Its suspects come
 * from the same walk: a ring of the last common events before the split
 * gives the calls that returned there (see suspects()).
 *
 * With baselines (more good runs) or --collapse-loops a pair is stored
 * whole instead (seq.c, 8 bytes per event and side, 16 with the loop
 * map): the good thread is aligned with its partner in each baseline
 * first, to learn where good runs vary, then with the bad thread; hunks
 * inside that variation are marked expected and sorted after the real
 * divergences, so the first divergence is the first difference no good
 * run shows.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"

int ttd_version(void)
{
    return TTD_VERSION_NUMBER;
}

void ttd_options_init(ttd_options *o)
{
    memset(o, 0, sizeof *o);
    o->messages = TTD_MSG_SITE;
    o->context = 5;
    o->max_lines = 40;
    o->max_hunks = 10;
    o->other_events = 2;
    o->suspects = 3;
}

const char *ttd_paired_by_name(int paired_by)
{
    static const char *const names[] = {"?", "main", "name+start", "name",
                                        "start", "order"};
    if (paired_by < 0 || paired_by > TTD_PAIR_ORDER)
        return "?";
    return names[paired_by];
}

/* ---- arena -------------------------------------------------------------- */

struct ttd_block {
    struct ttd_block *next; /* older block */
    size_t used, cap;       /* bytes of data used / available */
    max_align_t data[];     /* the memory */
};

void *ttd_arena_alloc(ttd_arena *a, size_t size)
{
    size = (size + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
    struct ttd_block *b = a->head;
    if (!b || b->cap - b->used < size) {
        size_t cap = size > 65536 ? size : 65536;
        b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->next = a->head;
        b->used = 0;
        b->cap = cap;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

char *ttd_arena_strdup(ttd_arena *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = ttd_arena_alloc(a, n);
    if (p)
        memcpy(p, s, n);
    return p;
}

void ttd_arena_free(ttd_arena *a)
{
    while (a->head) {
        struct ttd_block *b = a->head;
        a->head = b->next;
        free(b);
    }
}

/* ---- the diff state ----------------------------------------------------- */

/* One run being compared. */
typedef struct run {
    const ttf_trace *t;     /* the trace */
    ttf_trace *owned;       /* the same, when the engine opened it */
    ttd_norm norm;          /* its normaliser and symbols */
    ttd_tinfo *ti;          /* its threads, by index */
    size_t nt;              /* thread count */
    int64_t crash_thread;   /* thread of its CRASH, -1 if unknown/none */
} run;

/* One aligned thread pair. */
typedef struct ipair {
    uint32_t t[2];          /* thread index in the good and the bad run */
    uint64_t n[2];          /* normalised events of each */
    uint64_t crash;         /* bad side: key index of a CRASH, UINT64_MAX */
    ttd_hunk *h;            /* its hunks (from ttd_align) */
    size_t nh;
    uint8_t *exp;           /* per hunk: 1 if also varies between good runs
                               (NULL: no baselines) */
    uint64_t *reps;         /* per hunk: loop counts good, bad (NULL: no
                               --collapse-loops) */
    ttd_vfound vf;          /* what comparing its call values found */
} ipair;

/* A baseline good run: compared with the good run only. */
typedef struct base {
    run r;                  /* the run (owned trace, normaliser, threads) */
    int64_t *partner;       /* good run thread i -> its thread here, -1 */
    const char *path;       /* its file (the caller's string) */
} base;

struct ttd_diff {
    run r[2];               /* TTD_GOOD, TTD_BAD */
    ttd_options o;          /* options as given */
    ttd_regex *re[3];       /* --thread, --function, --exclude */
    ipair *ip;              /* aligned pairs */
    size_t nip;
    base *base;             /* baseline good runs (open while aligning) */
    size_t nbase;
    int full;               /* 1: pairs are stored whole (baselines, loops) */
    ttd_arena arena;        /* all result memory */
    ttd_result res;         /* what ttd_get_result hands out */
    const ttd_divergence **detail; /* per resolved hunk, computed lazily */
    int values;             /* 1: compare call values (both runs have them) */
    ttd_openset noise;      /* value slots that vary between good runs */
};

/* A walk over one thread: every raw event, the keys of kept ones, the
 * running call stack. */
typedef struct frame_id {
    uint64_t id;            /* address, or site | TTD_SITE_BIT */
    uint64_t addr;          /* function address (0 for scopes) */
    uint32_t site;          /* scope's call site, 0 for functions */
    uint64_t time_ns;       /* when it was entered (picks the module) */
    const char *name;       /* function name */
    int has_values;         /* 1: argregs recorded */
    uint64_t argregs[TTF_VALUE_REGS]; /* its arguments (format 1.1) */
} frame_id;

typedef struct walk {
    run *r;                 /* the run */
    ttf_iter *it;           /* its iterator on one thread */
    ttf_event ev;           /* the current event */
    int kept;               /* 1: ev takes part (its index is idx) */
    uint64_t idx;           /* key index of ev if kept; else of the next */
    uint64_t next;          /* key index the next kept event gets */
    int pending;            /* ev's ENTER/EXIT not yet applied to the stack */
    frame_id *stack;        /* the call stack before ev, outermost first */
    size_t nstack, cap;
    ttd_openset open;       /* ids of stack[0..nstack) */
} walk;

static int walk_open(walk *w, run *r, uint32_t thread)
{
    memset(w, 0, sizeof *w);
    w->r = r;
    return ttf_iter_open(r->t, thread, &w->it);
}

static void walk_close(walk *w)
{
    ttf_iter_close(w->it);
    free(w->stack);
    ttd_openset_free(&w->open);
}

static int push(walk *w, const ttf_event *ev)
{
    if (w->nstack == w->cap) {
        size_t ncap = w->cap ? w->cap * 2 : 64;
        frame_id *ns = realloc(w->stack, ncap * sizeof *ns);
        if (!ns)
            return TT_ENOMEM;
        w->stack = ns;
        w->cap = ncap;
    }
    frame_id *f = &w->stack[w->nstack++];
    f->id = ev->site ? (ev->site | TTD_SITE_BIT) : ev->addr;
    f->addr = ev->site ? 0 : ev->addr;
    f->site = ev->site;
    f->time_ns = ev->time_ns;
    f->name = ttd_norm_func(&w->r->norm, ev);
    f->has_values = ev->has_values;
    if (ev->has_values)
        memcpy(f->argregs, ev->argregs, sizeof f->argregs);
    return ttd_openset_add(&w->open, f->id);
}

/* Pop to the frame ev leaves; an exit with no matching frame (the trace
 * began inside it, or a longjmp) leaves the stack alone. The open counts
 * make that case O(1); otherwise the scan stops at the frames it pops. */
static void pop(walk *w, const ttf_event *ev)
{
    uint64_t id = ev->site ? (ev->site | TTD_SITE_BIT) : ev->addr;
    size_t i = w->nstack;

    if (!ttd_openset_count(&w->open, id))
        return;
    while (i > 0 && w->stack[i - 1].id != id)
        i--;
    if (i == 0)
        return;
    while (w->nstack >= i)
        ttd_openset_del(&w->open, w->stack[--w->nstack].id);
}

/* Next raw event: 1, 0 at the end, or a TT_E* code. */
static int walk_next(walk *w)
{
    uint64_t key;

    if (w->pending) {
        w->pending = 0;
        if (w->ev.kind == TTF_EV_ENTER && push(w, &w->ev) < 0)
            return TT_ENOMEM;
        if (w->ev.kind == TTF_EV_EXIT)
            pop(w, &w->ev);
    }
    int rc = ttf_iter_next(w->it, &w->ev);
    if (rc <= 0)
        return rc;
    w->pending = w->ev.kind == TTF_EV_ENTER || w->ev.kind == TTF_EV_EXIT;
    rc = ttd_norm_key(&w->r->norm, &w->ev, &key);
    if (rc < 0)
        return rc;
    w->kept = rc;
    w->idx = w->next;
    w->next += (uint64_t)rc;
    return 1;
}

static const char *signal_name(int signo)
{
    static const struct { int no; const char *name; } sigs[] = {
        {SIGSEGV, "SIGSEGV"}, {SIGBUS, "SIGBUS"}, {SIGFPE, "SIGFPE"},
        {SIGILL, "SIGILL"}, {SIGABRT, "SIGABRT"}, {SIGTRAP, "SIGTRAP"},
        {SIGSYS, "SIGSYS"}, {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"},
        {SIGKILL, "SIGKILL"}, {SIGPIPE, "SIGPIPE"}, {SIGQUIT, "SIGQUIT"},
    };
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (sigs[i].no == signo)
            return sigs[i].name;
    return "signal";
}

/* Turn the walk's current event into a report event (strings in the arena). */
static int fill(ttd_diff *d, walk *w, ttd_event *out)
{
    const ttf_event *ev = &w->ev;

    memset(out, 0, sizeof *out);
    out->kind = ev->kind;
    out->thread = ev->thread;
    out->index = w->idx;
    out->time_ns = ev->time_ns;
    out->depth = ev->depth;
    if (ev->kind == TTF_EV_ENTER || ev->kind == TTF_EV_EXIT) {
        char v[512];
        out->name = ttd_norm_func(&w->r->norm, ev);
        if (!d->values || !ttd_values_text(&w->r->norm, ev, v, sizeof v))
            return 0;
        out->value = ttd_arena_strdup(&d->arena, v);
        return out->value ? 0 : TT_ENOMEM;
    }
    if (ev->kind == TTF_EV_CRASH) {
        out->name = w->nstack ? w->stack[w->nstack - 1].name : NULL;
        out->text = signal_name(ev->signo);
        out->signo = ev->signo;
        out->fault_addr = ev->fault_addr;
        return 0;
    }
    const ttf_callsite *cs = ttf_get_callsite(w->r->t, ev->site);
    out->name = cs && cs->func ? cs->func : "";
    out->text = ttd_arena_strdup(&d->arena, ttd_norm_text(&w->r->norm, ev));
    return out->text ? 0 : TT_ENOMEM;
}

/* ---- passes over one thread ---------------------------------------------- */

/* Record kept events [lo, hi) into out[0..hi-lo). */
typedef struct req {
    uint64_t lo, hi;        /* key index range */
    ttd_event *out;         /* hi - lo slots */
} req;

static int req_cmp(const void *x, const void *y)
{
    const req *a = x, *b = y;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* One common event before a split, as the suspects need it. */
typedef struct sus_ev {
    uint64_t idx;           /* key index */
    uint64_t addr;          /* function address (EXIT) */
    uint32_t site;          /* scope's call site (EXIT of a scope) */
    uint64_t time_ns;       /* when (picks the module) */
    int kind;               /* TTF_EV_* */
    size_t nstack;          /* frames open before it */
    const char *name;       /* function (EXIT) */
    int leaf;               /* EXIT right after its own ENTER: no callees */
    int has_values;         /* EXIT: retval recorded */
    uint64_t retval;        /* EXIT: its return value */
} sus_ev;

/* What one pass over a thread collects. */
typedef struct pass_spec {
    req *rq;                /* ranges to record (sorted here) */
    size_t nrq;
    uint64_t stack_at;      /* snapshot the stack before this key index */
    frame_id *stack;        /* out: malloc'd copy, outermost first */
    size_t nstack;
    sus_ev *ring;           /* last events before stack_at, NULL = not kept */
    size_t ringcap;         /* its size */
    uint64_t nring;         /* events put in it */
} pass_spec;

static void keep_ring(walk *w, pass_spec *ps)
{
    const sus_ev *prev = ps->nring ? &ps->ring[(ps->nring - 1) % ps->ringcap] : NULL;
    int leaf = prev && w->ev.kind == TTF_EV_EXIT && prev->kind == TTF_EV_ENTER &&
               prev->addr == (w->ev.site ? 0 : w->ev.addr) && prev->site == w->ev.site;
    sus_ev *e = &ps->ring[ps->nring++ % ps->ringcap];

    e->leaf = leaf;
    e->has_values = w->ev.has_values;
    e->retval = w->ev.retval;
    e->idx = w->idx;
    e->kind = w->ev.kind;
    e->nstack = w->nstack;
    e->addr = w->ev.site ? 0 : w->ev.addr;
    e->time_ns = w->ev.time_ns;
    e->site = w->ev.site;
    e->name = w->ev.kind == TTF_EV_EXIT ? ttd_norm_func(&w->r->norm, &w->ev) : NULL;
}

static int snapshot(walk *w, pass_spec *ps)
{
    if (ps->stack || ps->stack_at == UINT64_MAX)
        return 0;
    ps->stack = malloc((w->nstack + 1) * sizeof *ps->stack);
    if (!ps->stack)
        return TT_ENOMEM;
    if (w->nstack)
        memcpy(ps->stack, w->stack, w->nstack * sizeof *ps->stack);
    ps->nstack = w->nstack;
    return 0;
}

static int record(ttd_diff *d, walk *w, pass_spec *ps, size_t *first)
{
    while (*first < ps->nrq && ps->rq[*first].hi <= w->idx)
        (*first)++;
    for (size_t i = *first; i < ps->nrq && ps->rq[i].lo <= w->idx; i++) {
        req *q = &ps->rq[i];
        if (w->idx >= q->hi)
            continue;
        int rc = fill(d, w, &q->out[w->idx - q->lo]);
        if (rc < 0)
            return rc;
    }
    return 0;
}

static int run_pass(ttd_diff *d, int ri, uint32_t thread, pass_spec *ps)
{
    walk w;
    uint64_t stop = ps->stack_at == UINT64_MAX ? 0 : ps->stack_at + 1;
    size_t first = 0;
    int rc;

    qsort(ps->rq, ps->nrq, sizeof *ps->rq, req_cmp);
    for (size_t i = 0; i < ps->nrq; i++)
        stop = ps->rq[i].hi > stop ? ps->rq[i].hi : stop;
    rc = walk_open(&w, &d->r[ri], thread);
    if (rc < 0)
        return rc;
    while (w.next < stop && (rc = walk_next(&w)) > 0) {
        if (!w.kept)
            continue;
        if (ps->ring && w.idx < ps->stack_at)
            keep_ring(&w, ps);
        if (w.idx == ps->stack_at && (rc = snapshot(&w, ps)) < 0)
            break;
        if ((rc = record(d, &w, ps, &first)) < 0)
            break;
    }
    if (rc >= 0) /* the split is at the very end */
        rc = snapshot(&w, ps);
    walk_close(&w);
    return rc < 0 ? rc : 0;
}

/* ---- setup: threads, pairing, normalisation, alignment ------------------ */

static void set_err(ttf_error *err, int code, const char *msg)
{
    if (!err)
        return;
    err->code = code;
    err->offset = 0;
    size_t n = strlen(msg);
    if (n >= sizeof err->msg)
        n = sizeof err->msg - 1;
    memcpy(err->msg, msg, n);
    err->msg[n] = '\0';
}

/* Name and start function of each thread (walks up to its first ENTER). */
static int load_threads(run *r)
{
    r->nt = ttf_thread_count(r->t);
    r->ti = calloc(r->nt + 1, sizeof *r->ti);
    if (!r->ti)
        return TT_ENOMEM;
    for (size_t i = 0; i < r->nt; i++) {
        const ttf_thread *th = ttf_get_thread(r->t, i);
        ttd_tinfo *ti = &r->ti[i];
        ti->index = (uint32_t)i;
        ti->name = th && th->name && th->name[0] ? th->name
                   : th && th->first_name ? th->first_name : "";
        ti->start = "";
        ttf_iter *it;
        ttf_event ev;
        int rc = ttf_iter_open(r->t, (uint32_t)i, &it);
        if (rc < 0)
            return rc;
        while ((rc = ttf_iter_next(it, &ev)) > 0 && ev.kind != TTF_EV_ENTER)
            ;
        if (rc > 0)
            ti->start = ttd_norm_func(&r->norm, &ev);
        ttf_iter_close(it);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* One thread's key stream while a pair is normalised. */
typedef struct src {
    run *r;                 /* its run */
    ttf_iter *it;           /* its events */
    uint64_t n;             /* keys produced so far */
    uint64_t crash;         /* key index of its first CRASH, UINT64_MAX */
    size_t bound;           /* raw events of the thread (>= keys) */
    int kind;               /* kind of the event of the last key */
} src;

static int src_open(src *s, run *r, uint32_t thread)
{
    const ttf_thread *th = ttf_get_thread(r->t, thread);

    s->r = r;
    s->n = 0;
    s->crash = UINT64_MAX;
    s->bound = (size_t)(th ? th->events : 0);
    return ttf_iter_open(r->t, thread, &s->it);
}

/* The next key: 1, 0 at the end, or a TT_E* code. */
static int src_next(src *s, uint64_t *key)
{
    ttf_event ev;
    int rc;

    while ((rc = ttf_iter_next(s->it, &ev)) > 0) {
        rc = ttd_norm_key(&s->r->norm, &ev, key);
        if (rc == 0)
            continue;
        if (rc < 0)
            return rc;
        if (ev.kind == TTF_EV_CRASH && s->crash == UINT64_MAX)
            s->crash = s->n;
        s->kind = ev.kind;
        s->n++;
        return 1;
    }
    return rc;
}

/* The rest of s into kb after the m keys already there; *n = keys stored. */
static int drain(src *s, ttd_keybuf *kb, size_t m, size_t *n)
{
    int rc = ttd_keybuf_reserve(kb, s->bound - (size_t)s->n + m + 16, m);

    while (rc >= 0) {
        if (m == kb->cap && (rc = ttd_keybuf_reserve(kb, 2 * m, m)) < 0)
            break;
        if ((rc = src_next(s, &kb->k[m])) <= 0)
            break;
        m++;
    }
    *n = m;
    return rc < 0 ? rc : 0;
}

/* What full mode reuses from pair to pair. */
typedef struct full {
    ttd_seq seq[2];         /* the good thread; the other run's thread */
    ttd_zones z;            /* where the good runs vary */
} full;

/* Compare the call values of pair p along its alignment (values.c). */
static int pair_values(ttd_diff *d, ipair *p)
{
    ttd_vside g = {&d->r[TTD_GOOD].norm, p->t[0]}, b = {&d->r[TTD_BAD].norm, p->t[1]};

    if (!d->values)
        return 0;
    return ttd_values_compare(g, b, p->h, p->nh, d->nbase ? &d->noise : NULL, 0,
                              &p->vf);
}

/* Learn which value slots vary between the good run and baseline k from
 * their alignment x[nx] (item hunks of fu->seq). */
static int baseline_values(ttd_diff *d, const ipair *p, size_t k, full *fu,
                           const ttd_xhunk *x, size_t nx)
{
    ttd_vside g = {&d->r[TTD_GOOD].norm, p->t[0]};
    ttd_vside o = {&d->base[k].r.norm, (uint32_t)d->base[k].partner[p->t[0]]};
    ttd_vfound vf;
    ttd_hunk *h;

    if (!d->values || !ttf_get_summary(d->base[k].r.t)->values)
        return 0;
    if (!(h = malloc((nx + 1) * sizeof *h)))
        return TT_ENOMEM;
    for (size_t i = 0; i < nx; i++)
        ttd_seq_to_raw(&fu->seq[0], &fu->seq[1], &x[i], &h[i]);
    memset(&vf, 0, sizeof vf);
    int rc = ttd_values_compare(g, o, h, nx, &d->noise, 1, &vf);
    ttd_vfound_free(&vf);
    free(h);
    return rc;
}

/* Normalise both threads of a pair in step: the common prefix is only
 * compared, never stored (identical runs cost no key memory at all); from
 * the first difference on, the rest of each side goes to kb. */
static int normalise_pair(ttd_diff *d, ipair *p, ttd_keybuf kb[2], size_t *prefix,
                          size_t m[2])
{
    src s[2] = {{0}, {0}};
    uint64_t k[2];
    int got[2] = {0, 0}, rc;

    if ((rc = src_open(&s[0], &d->r[TTD_GOOD], p->t[0])) < 0)
        return rc;
    if ((rc = src_open(&s[1], &d->r[TTD_BAD], p->t[1])) < 0)
        goto out;
    do {
        if ((got[0] = src_next(&s[0], &k[0])) < 0 || (got[1] = src_next(&s[1], &k[1])) < 0) {
            rc = got[0] < 0 ? got[0] : got[1];
            goto out;
        }
    } while (got[0] && got[1] && k[0] == k[1]);
    *prefix = (size_t)s[0].n - (size_t)got[0];
    for (int i = 0; i < 2 && rc >= 0; i++) {
        if ((rc = ttd_keybuf_reserve(&kb[i], 16, 0)) < 0)
            break;
        kb[i].k[0] = k[i];
        rc = drain(&s[i], &kb[i], (size_t)got[i], &m[i]);
    }
    p->n[0] = s[0].n;
    p->n[1] = s[1].n;
    p->crash = s[1].crash;
out:
    ttf_iter_close(s[0].it);
    ttf_iter_close(s[1].it);
    return rc < 0 ? rc : 0;
}


/* Thread th of run r, whole, into s; *crash = key index of its CRASH. */
static int load_seq(run *r, uint32_t th, int collapse, ttd_seq *s,
                    uint64_t *crash)
{
    src in = {0};
    uint64_t key;
    int rc = src_open(&in, r, th);

    if (rc >= 0)
        rc = ttd_seq_reset(s, collapse, in.bound);
    while (rc >= 0 && (rc = src_next(&in, &key)) > 0)
        rc = ttd_seq_feed(s, key, in.kind);
    if (crash)
        *crash = in.crash;
    ttf_iter_close(in.it);
    return rc < 0 ? rc : 0;
}

/* The good run's zones of variation against every baseline, for pair p. */
static int pair_zones(ttd_diff *d, const ipair *p, full *fu)
{
    ttd_xhunk *x = NULL;
    size_t nx = 0;
    int rc = 0;

    ttd_zones_clear(&fu->z);
    for (size_t k = 0; rc >= 0 && k < d->nbase; k++) {
        int64_t tk = d->base[k].partner[p->t[0]];
        if (tk < 0)
            continue;
        rc = load_seq(&d->base[k].r, (uint32_t)tk, d->o.collapse_loops, &fu->seq[1], NULL);
        if (rc >= 0)
            rc = ttd_seq_align(&fu->seq[0], &fu->seq[1], d->o.minimal, &x, &nx);
        if (rc >= 0)
            rc = ttd_zones_add(&fu->z, &fu->seq[0], &fu->seq[1], x, nx);
        if (rc >= 0)
            rc = baseline_values(d, p, k, fu, x, nx);
        free(x);
        x = NULL;
    }
    return rc < 0 ? rc : ttd_zones_finish(&fu->z);
}

/* Full mode: both threads stored whole (loops collapsed if asked), hunks
 * checked against the zones where good runs vary. */
static int align_full(ttd_diff *d, ipair *p, full *fu)
{
    ttd_xhunk *x = NULL;
    size_t nx = 0;
    int rc = load_seq(&d->r[TTD_GOOD], p->t[0], d->o.collapse_loops, &fu->seq[0], NULL);

    if (rc >= 0)
        rc = pair_zones(d, p, fu);
    if (rc >= 0)
        rc = load_seq(&d->r[TTD_BAD], p->t[1], d->o.collapse_loops, &fu->seq[1], &p->crash);
    if (rc >= 0)
        rc = ttd_seq_align(&fu->seq[0], &fu->seq[1], d->o.minimal, &x, &nx);
    if (rc < 0)
        return rc;
    p->n[0] = fu->seq[0].raw;
    p->n[1] = fu->seq[1].raw;
    p->h = malloc((nx + 1) * sizeof *p->h);
    p->exp = calloc(nx + 1, 1);
    p->reps = calloc(2 * nx + 2, sizeof *p->reps);
    if (!p->h || !p->exp || !p->reps) {
        free(x);
        return TT_ENOMEM;
    }
    for (size_t i = 0; i < nx; i++) {
        ttd_seq_to_raw(&fu->seq[0], &fu->seq[1], &x[i], &p->h[i]);
        p->exp[i] = (uint8_t)(d->nbase && ttd_zones_cover(&fu->z, &fu->seq[0], &fu->seq[1], &x[i]));
        p->reps[2 * i] = x[i].reps[0];
        p->reps[2 * i + 1] = x[i].reps[1];
    }
    p->nh = nx;
    free(x);
    if (p->crash != UINT64_MAX)
        d->r[TTD_BAD].crash_thread = p->t[1];
    return pair_values(d, p);
}

static int align_pair(ttd_diff *d, ipair *p, ttd_keybuf kb[2])
{
    size_t prefix = 0, m[2] = {0, 0};
    int rc = normalise_pair(d, p, kb, &prefix, m);

    if (rc < 0)
        return rc;
    if (p->crash != UINT64_MAX)
        d->r[TTD_BAD].crash_thread = p->t[1];
    rc = ttd_align(kb[0].k, m[0], kb[1].k, m[1], d->o.minimal, &p->h, &p->nh);
    for (size_t i = 0; rc >= 0 && i < p->nh; i++) {
        p->h[i].a0 += prefix;
        p->h[i].a1 += prefix;
        p->h[i].b0 += prefix;
        p->h[i].b1 += prefix;
    }
    return rc < 0 ? rc : pair_values(d, p);
}

static int thread_selected(const ttd_diff *d, const ttd_tinfo *t)
{
    char num[16];

    if (!d->re[0])
        return 1;
    snprintf(num, sizeof num, "%u", t->index);
    return ttd_regex_match(d->re[0], t->name) || ttd_regex_match(d->re[0], num);
}

static void thread_info(const run *r, uint32_t i, uint64_t events,
                        ttd_thread_info *out)
{
    out->index = i;
    out->name = r->ti[i].name;
    out->start = r->ti[i].start;
    out->events = events;
}

/* Build the ipairs (selected, in good creation order) and the unpaired list. */
static int make_pairs(ttd_diff *d)
{
    run *g = &d->r[TTD_GOOD], *b = &d->r[TTD_BAD];
    ttd_unpaired *up = ttd_arena_alloc(&d->arena, (g->nt + b->nt + 1) * sizeof *up);

    d->ip = calloc(g->nt + 1, sizeof *d->ip);
    if (!d->ip || !up)
        return TT_ENOMEM;
    d->res.unpaired = up;
    for (size_t i = 0; i < g->nt; i++) {
        ttd_tinfo *t = &g->ti[i];
        if (t->partner < 0 || !(thread_selected(d, t) ||
                                thread_selected(d, &b->ti[t->partner])))
            continue;
        ipair *p = &d->ip[d->nip++];
        p->t[0] = (uint32_t)i;
        p->t[1] = (uint32_t)t->partner;
    }
    for (int ri = 0; ri < 2; ri++) {
        for (size_t i = 0; i < d->r[ri].nt; i++) {
            const ttd_tinfo *t = &d->r[ri].ti[i];
            if (t->partner >= 0 || !thread_selected(d, t))
                continue;
            const ttf_thread *th = ttf_get_thread(d->r[ri].t, i);
            ttd_unpaired *u = &up[d->res.nunpaired++];
            u->run = ri;
            thread_info(&d->r[ri], (uint32_t)i, th ? th->events : 0, &u->thread);
        }
    }
    return 0;
}

static int compile(ttd_diff *d, int i, const char *pattern, const char *flag,
                   ttf_error *err)
{
    ttf_error e;
    char msg[sizeof e.msg + 32];

    if (!pattern)
        return 0;
    int rc = ttd_regex_compile(pattern, &d->re[i], &e);
    if (rc < 0 && err) {
        snprintf(msg, sizeof msg, "%s: %s", flag, rc == TT_EINVAL ? e.msg : ttf_strerror(rc));
        set_err(err, rc, msg);
    }
    return rc;
}

static void run_info(ttd_diff *d, run *r, const char *path, ttd_run_info *ri_out)
{
    const ttf_process *pr = ttf_get_process(r->t);
    const ttf_summary *s = ttf_get_summary(r->t);

    path = path ? path : ttf_path(r->t);
    ri_out->path = ttd_arena_strdup(&d->arena, path ? path : "");
    if (!ri_out->path)
        ri_out->path = "";
    ri_out->exe = "";
    if (pr) {
        ri_out->pid = pr->pid;
        ri_out->exe = pr->exe ? pr->exe : "";
        ri_out->argc = pr->argc;
        ri_out->argv = pr->argv;
        ri_out->start_realtime_ns = pr->start_realtime_ns;
    }
    if (s) {
        ri_out->duration_ns = s->duration_ns;
        ri_out->events = s->events;
        ri_out->closed = s->closed;
    }
    if (pr && pr->exited)
        ri_out->exit_status = pr->exit_status;
    ri_out->threads = r->nt;
}

/* Reader and symbol notices of one run, copied into the result. */
static int notices(ttd_diff *d, int ri)
{
    run *r = &d->r[ri];
    size_t n1 = ttf_notice_count(r->t), n2 = ttf_sym_notice_count(r->norm.sym);
    const char **v = ttd_arena_alloc(&d->arena, (n1 + n2 + 1) * sizeof *v);

    if (!v)
        return TT_ENOMEM;
    for (size_t i = 0; i < n1; i++)
        v[i] = ttf_get_notice(r->t, i);
    for (size_t i = 0; i < n2; i++)
        v[n1 + i] = ttf_sym_get_notice(r->norm.sym, i);
    d->res.runs[ri].notices = v;
    d->res.runs[ri].nnotices = n1 + n2;
    return 0;
}

/* The first CRASH event in one thread, with the function it hit; 1 found. */
static int crash_in(ttd_diff *d, int ri, uint32_t th, ttd_event *ev)
{
    walk w;
    int rc = walk_open(&w, &d->r[ri], th);

    if (rc < 0)
        return rc;
    while ((rc = walk_next(&w)) > 0 && w.ev.kind != TTF_EV_CRASH)
        ;
    if (rc > 0 && (rc = fill(d, &w, ev)) == 0)
        rc = 1;
    walk_close(&w);
    return rc;
}

/* The run's crash event: in the thread found while normalising, else
 * looked for in every thread. */
static int find_crash(ttd_diff *d, int ri)
{
    run *r = &d->r[ri];
    const ttf_summary *s = ttf_get_summary(r->t);
    ttd_event *ev = ttd_arena_alloc(&d->arena, sizeof *ev);
    int rc = 0;

    if (!s || !s->crashed)
        return 0;
    if (!ev)
        return TT_ENOMEM;
    if (r->crash_thread >= 0)
        rc = crash_in(d, ri, (uint32_t)r->crash_thread, ev);
    for (size_t i = 0; rc == 0 && i < r->nt; i++)
        rc = crash_in(d, ri, (uint32_t)i, ev);
    if (rc > 0)
        d->res.runs[ri].crash = ev;
    return rc < 0 ? rc : 0;
}

/* ---- hunks --------------------------------------------------------------- */

/* Index whose time stands for a split at key index i of a thread with n
 * keys: the event at i, else the last one; UINT64_MAX if it has none. */
static uint64_t probe_index(uint64_t i, uint64_t n)
{
    if (i < n)
        return i;
    return n ? n - 1 : UINT64_MAX;
}

static int add_req(req *rq, size_t *n, uint64_t lo, uint64_t hi, ttd_event *out)
{
    if (lo == UINT64_MAX || hi <= lo)
        return 0;
    rq[*n].lo = lo;
    rq[*n].hi = hi;
    rq[*n].out = out;
    (*n)++;
    return 0;
}

static int hunk_cmp(const void *x, const void *y)
{
    const ttd_hunk_info *a = x, *b = y;
    if (a->expected != b->expected)
        return a->expected - b->expected;
    if (a->time_ns != b->time_ns)
        return a->time_ns < b->time_ns ? -1 : 1;
    if (a->pair != b->pair)
        return a->pair < b->pair ? -1 : 1;
    return a->bad_index < b->bad_index ? -1 : a->bad_index > b->bad_index;
}

/* Resolve hunks sel[0..m) of pair pi into hs[0..m). */
static int resolve_pair(ttd_diff *d, size_t pi, const size_t *sel, size_t m,
                        ttd_hunk_info *hs)
{
    ipair *p = &d->ip[pi];
    ttd_event *ev = ttd_arena_alloc(&d->arena, 3 * m * sizeof *ev);
    req *rq = malloc(2 * m * sizeof *rq);
    pass_spec ps[2] = {{0}, {0}};
    int rc = TT_ENOMEM;

    if (!ev || !rq)
        goto out;
    for (int s = 0; s < 2; s++) {
        ps[s].rq = rq + s * m;
        ps[s].stack_at = UINT64_MAX;
    }
    for (size_t k = 0; k < m; k++) {
        const ttd_hunk *h = &p->h[sel[k]];
        hs[k].expected = p->exp ? p->exp[sel[k]] : 0;
        hs[k].good_reps = p->reps ? p->reps[2 * sel[k]] : 0;
        hs[k].bad_reps = p->reps ? p->reps[2 * sel[k] + 1] : 0;
        add_req(ps[0].rq, &ps[0].nrq, h->a0, h->a1 > h->a0 ? h->a0 + 1 : 0, &ev[3 * k]);
        uint64_t bi = h->b1 > h->b0 ? h->b0 : probe_index(h->b0, p->n[1]);
        add_req(ps[1].rq, &ps[1].nrq, bi, bi + 1, &ev[3 * k + 1]);
        ev[3 * k + 1].time_ns = ttf_get_thread(d->r[TTD_BAD].t, p->t[1])->start_ns;
        hs[k].pair = pi;
        hs[k].good_index = h->a0;
        hs[k].good_count = h->a1 - h->a0;
        hs[k].bad_index = h->b0;
        hs[k].bad_count = h->b1 - h->b0;
        hs[k].good_first = h->a1 > h->a0 ? &ev[3 * k] : NULL;
        hs[k].bad_first = h->b1 > h->b0 ? &ev[3 * k + 1] : NULL;
    }
    for (int s = 0; s < 2; s++)
        if ((rc = run_pass(d, s, p->t[s], &ps[s])) < 0)
            goto out;
    for (size_t k = 0; k < m; k++)
        hs[k].time_ns = ev[3 * k + 1].time_ns;
    rc = 0;
out:
    free(rq);
    return rc;
}

/* Which hunks of p to resolve: the first max_hunks divergences, then the
 * first max_hunks expected ones, into sel; counts of each kind. */
static size_t select_hunks(const ttd_diff *d, const ipair *p, size_t *sel,
                           size_t *ndiv, size_t *nexp)
{
    size_t cap = d->o.max_hunks, m = 0, got[2] = {0, 0};

    *ndiv = *nexp = 0;
    for (int e = 0; e < 2; e++)
        for (size_t i = 0; i < p->nh; i++) {
            int x = p->exp ? p->exp[i] : 0;
            if (x != e)
                continue;
            *(e ? nexp : ndiv) += 1;
            if (!cap || got[e] < cap) {
                got[e]++;
                sel[m++] = i;
            }
        }
    return m;
}

static int resolve(ttd_diff *d)
{
    size_t m = 0, maxh = 0;
    ttd_pair *pairs = ttd_arena_alloc(&d->arena, (d->nip + 1) * sizeof *pairs);

    if (!pairs)
        return TT_ENOMEM;
    for (size_t i = 0; i < d->nip; i++) {
        size_t nh = d->ip[i].nh, k = d->o.max_hunks && nh > 2 * d->o.max_hunks
                                     ? 2 * d->o.max_hunks : nh;
        m += k;
        maxh = nh > maxh ? nh : maxh;
    }
    ttd_hunk_info *hs = ttd_arena_alloc(&d->arena, (m + 1) * sizeof *hs);
    size_t *sel = malloc((maxh + 1) * sizeof *sel);
    d->detail = calloc(m + 1, sizeof *d->detail);
    if (!hs || !sel || !d->detail) {
        free(sel);
        return TT_ENOMEM;
    }
    size_t at = 0;
    for (size_t i = 0; i < d->nip; i++) {
        ipair *p = &d->ip[i];
        size_t ndiv, nexp, k = select_hunks(d, p, sel, &ndiv, &nexp);
        int rc = resolve_pair(d, i, sel, k, hs + at);
        if (rc < 0) {
            free(sel);
            return rc;
        }
        thread_info(&d->r[TTD_GOOD], p->t[0], p->n[0], &pairs[i].good);
        thread_info(&d->r[TTD_BAD], p->t[1], p->n[1], &pairs[i].bad);
        pairs[i].paired_by = d->r[TTD_GOOD].ti[p->t[0]].paired_by;
        pairs[i].hunks = ndiv;
        pairs[i].expected = nexp;
        pairs[i].first_time_ns = ndiv ? hs[at].time_ns : 0;
        d->res.hunks_total += ndiv;
        d->res.expected_total += nexp;
        for (size_t j = 0; j < k; j++)
            d->res.nexpected += (size_t)hs[at + j].expected;
        at += k;
    }
    free(sel);
    qsort(hs, at, sizeof *hs, hunk_cmp);
    d->res.pairs = pairs;
    d->res.npairs = d->nip;
    d->res.hunks = hs;
    d->res.nhunks = at;
    d->res.diverged = d->res.hunks_total > 0;
    return 0;
}

/* ---- the details of one hunk -------------------------------------------- */

/* Source file and line of a function (addr) or scope (site) of the bad
 * run, through the module loaded at time_ns. */
static void locate(ttd_diff *d, uint64_t addr, uint32_t site, uint64_t time_ns,
                   const char **file, int *line)
{
    ttf_event ev;

    memset(&ev, 0, sizeof ev);
    ev.kind = TTF_EV_ENTER;
    ev.addr = addr;
    ev.site = site;
    ev.time_ns = time_ns;
    if (ttf_sym_event_line(d->r[TTD_BAD].norm.sym, &ev, file, line) < 0) {
        *file = NULL;
        *line = 0;
    }
}

/* The arguments of a frame of the bad run as text, NULL if unknown. */
static const char *frame_args(ttd_diff *d, const frame_id *f)
{
    ttf_event ev;
    char v[512];

    if (!d->values || !f->has_values || f->site)
        return NULL;
    memset(&ev, 0, sizeof ev);
    ev.kind = TTF_EV_ENTER;
    ev.addr = f->addr;
    ev.time_ns = f->time_ns;
    ev.has_values = 1;
    memcpy(ev.argregs, f->argregs, sizeof ev.argregs);
    if (!ttd_values_text(&d->r[TTD_BAD].norm, &ev, v, sizeof v))
        return NULL;
    return ttd_arena_strdup(&d->arena, v);
}

/* Common prefix (by name) of the stacks before the split in both runs. */
static int common_stack(ttd_diff *d, const pass_spec *g, const pass_spec *b,
                        ttd_divergence *dv)
{
    size_t n = 0;

    while (n < g->nstack && n < b->nstack &&
           strcmp(g->stack[n].name, b->stack[n].name) == 0)
        n++;
    ttd_frame *fr = ttd_arena_alloc(&d->arena, (n + 1) * sizeof *fr);
    if (!fr)
        return TT_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        fr[i].name = b->stack[i].name;
        locate(d, b->stack[i].addr, b->stack[i].site, b->stack[i].time_ns,
               &fr[i].file, &fr[i].line);
        fr[i].args = frame_args(d, &b->stack[i]);
    }
    dv->stack = fr;
    dv->nstack = n;
    return 0;
}

/* ---- suspects ------------------------------------------------------------ */

#define SUSPECT_WINDOW 4096 /* common events searched back from a split */

static int listed(const ttd_suspect *s, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s[i].name, name) == 0)
            return 1;
    return 0;
}

static void add_frame(const ttd_divergence *dv, ttd_suspect *s, size_t *n)
{
    const ttd_frame *f = &dv->stack[dv->nstack - 1];

    if (listed(s, *n, f->name))
        return;
    memset(&s[*n], 0, sizeof s[*n]);
    s[*n].name = f->name;
    s[*n].file = f->file;
    s[*n].line = f->line;
    s[*n].role = TTD_SUSPECT_FRAME;
    s[*n].index = dv->bad_index;
    (*n)++;
}

/* Values and triviality of a call that returned before the split: did it
 * return another value than in the good run (the pair's value walk says),
 * and is it a lock wrapper, or a leaf that returned void or the same
 * value? Nothing with --no-values. */
static void judge(ttd_diff *d, const ipair *p, const sus_ev *e, ttd_suspect *x)
{
    const ttf_signature *sig;
    ttf_event ev;
    char v[64];

    if (d->o.no_values)
        return;
    x->trivial = ttd_lock_wrapper(x->name);
    const ttd_vdiff *vd = d->values ? ttd_vfound_ret(&p->vf, e->idx) : NULL;
    if (vd) {
        x->value_differs = 1;
        x->trivial = 0;
        ttf_value_format(v, sizeof v, vd->ev[0].retval, &vd->sig->ret);
        x->good_value = ttd_arena_strdup(&d->arena, v);
        ttf_value_format(v, sizeof v, vd->ev[1].retval, &vd->sig->ret);
        x->bad_value = ttd_arena_strdup(&d->arena, v);
        return;
    }
    memset(&ev, 0, sizeof ev);
    ev.kind = TTF_EV_EXIT;
    ev.addr = e->addr;
    ev.time_ns = e->time_ns;
    if (!e->leaf || e->site || ttf_sym_signature(d->r[TTD_BAD].norm.sym, &ev, &sig))
        return;
    if (sig->ret.cls == TTF_VC_VOID ||
        (d->values && e->has_values && ttf_value_comparable(&sig->ret)))
        x->trivial = 1;
}

static int tier(const ttd_suspect *x)
{
    return x->value_differs ? 0 : x->trivial ? 2 : 1;
}

/* Stable order by tier: calls that returned another value first, trivial
 * leaves and lock wrappers last. */
static void rank(ttd_suspect *s, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        ttd_suspect x = s[i];
        size_t j = i;
        for (; j > 0 && tier(&s[j - 1]) > tier(&x); j--)
            s[j] = s[j - 1];
        s[j] = x;
    }
}

/* A value that can be told apart from a yes/no answer: an integer other
 * than -1, 0 and 1 (an error code such as -34), not a pointer or bool. */
static int distinctive(const char *v)
{
    char *end;
    long long x = v ? strtoll(v, &end, 10) : 0;
    return v && *v && !*end && (x < -1 || x > 1);
}

/* An error code passed up a chain of callers: among the calls that
 * returned another value, one that returned the same distinctive value
 * as a nearer one (its caller passing it on) is where the value began, so
 * it moves in front of the first of them. Booleans and pointers are not
 * followed: two calls answering "no" need not be one answer passed on. */
static void origins_first(ttd_suspect *s, size_t n)
{
    for (size_t i = 0; i < n && s[i].value_differs; i++) {
        size_t origin = i;
        if (!distinctive(s[i].bad_value))
            continue;
        for (size_t j = i + 1; j < n && s[j].value_differs; j++)
            if (strcmp(s[j].bad_value, s[i].bad_value) == 0 &&
                strcmp(s[j].good_value, s[i].good_value) == 0)
                origin = j;
        if (origin == i)
            continue;
        ttd_suspect x = s[origin];
        memmove(&s[i + 1], &s[i], (origin - i) * sizeof *s);
        s[i] = x;
    }
}

#define SUSPECT_EXTRA 32 /* candidates looked at beyond those shown */

/* Rank the suspects of a split from the common events before it (b->ring,
 * bad run): every call that returned there at the diverging frame's depth
 * or deeper (its earlier siblings, their callees, its own callees), before
 * the walk back leaves the diverging frame's caller, nearest return first,
 * each function once. The diverging frame itself comes second: the call
 * that returned right before the split most often made the decision its
 * caller then acts on (a validator saying no, a lookup finding nothing),
 * and the diverging frame is where that answer was read. With values
 * (unless --no-values) the list is then re-ranked: a call that returned
 * another value than in the good run goes first, trivial leaves and lock
 * wrappers last (judge()). */
static int suspects(ttd_diff *d, const ipair *p, const pass_spec *b,
                    ttd_divergence *dv)
{
    size_t want = d->o.suspects, n = 0, depth = dv->nstack;
    size_t cap = d->o.no_values ? want : want + SUSPECT_EXTRA;
    uint64_t have = b->nring < b->ringcap ? b->nring : b->ringcap;
    int frame = depth > 0;

    if (!want || !b->ring)
        return 0;
    ttd_suspect *s = ttd_arena_alloc(&d->arena, (cap + 1) * sizeof *s);
    if (!s)
        return TT_ENOMEM;
    for (uint64_t i = 0; i < have && n < cap; i++) {
        const sus_ev *e = &b->ring[(b->nring - 1 - i) % b->ringcap];
        if (depth && e->nstack + 1 < depth)
            break; /* before the diverging frame's caller began */
        if (e->kind != TTF_EV_EXIT || e->nstack < depth || !e->name ||
            listed(s, n, e->name))
            continue;
        ttd_suspect *x = &s[n++];
        x->name = e->name;
        locate(d, e->addr, e->site, e->time_ns, &x->file, &x->line);
        x->role = TTD_SUSPECT_RETURNED;
        x->index = e->idx;
        x->distance = dv->bad_index - 1 - e->idx;
        x->depth = (int)(e->nstack - (depth ? depth : 1));
        judge(d, p, e, x);
        if (frame && n < cap) {
            add_frame(dv, s, &n);
            frame = 0;
        }
    }
    if (frame && n < cap)
        add_frame(dv, s, &n);
    rank(s, n);
    origins_first(s, n);
    dv->suspects = s;
    dv->nsuspects = n < want ? n : want;
    return 0;
}

/* Ring of the last events of one thread up to time limit. */
typedef struct ring_ev {
    ttf_event ev;           /* the raw event */
    uint64_t idx;           /* its key index */
} ring_ev;

static int last_events(ttd_diff *d, int ri, uint32_t th, uint64_t limit,
                       ring_ev *ring, size_t k, ttd_other *out)
{
    walk w;
    size_t n = 0;
    int rc = walk_open(&w, &d->r[ri], th);

    if (rc < 0)
        return rc;
    while ((rc = walk_next(&w)) > 0 && w.ev.time_ns <= limit) {
        if (!w.kept)
            continue;
        ring[n % k].ev = w.ev;
        ring[n % k].idx = w.idx;
        n++;
    }
    size_t m = n < k ? n : k;
    ttd_event *evs = rc < 0 ? NULL : ttd_arena_alloc(&d->arena, (m + 1) * sizeof *evs);
    if (rc >= 0 && !evs)
        rc = TT_ENOMEM;
    for (size_t i = 0; rc >= 0 && i < m; i++) {
        const ring_ev *re = &ring[(n - m + i) % k];
        w.ev = re->ev;
        w.idx = re->idx;
        rc = fill(d, &w, &evs[i]);
    }
    walk_close(&w);
    out->events = evs;
    out->nevents = m;
    return rc < 0 ? rc : 0;
}

#define MAX_OTHERS 32

/* What the other threads of run ri did up to time limit. */
static int others(ttd_diff *d, int ri, uint32_t skip, uint64_t limit,
                  ttd_divergence *dv)
{
    run *r = &d->r[ri];
    size_t k = d->o.other_events, n = 0;
    ttd_other *o = ttd_arena_alloc(&d->arena, (MAX_OTHERS + 1) * sizeof *o);
    ring_ev *ring = malloc((k + 1) * sizeof *ring);
    int rc = 0;

    if (!o || !ring) {
        free(ring);
        return TT_ENOMEM;
    }
    for (size_t i = 0; k && i < r->nt && n < MAX_OTHERS; i++) {
        const ttf_thread *th = ttf_get_thread(r->t, i);
        if (i == skip || !th || th->start_ns > limit)
            continue;
        o[n].thread = (uint32_t)i;
        o[n].name = r->ti[i].name;
        if ((rc = last_events(d, ri, (uint32_t)i, limit, ring, k, &o[n])) < 0)
            break;
        n += o[n].nevents > 0;
    }
    free(ring);
    dv->others[ri] = o;
    dv->nothers[ri] = n;
    return rc;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

static int detail(ttd_diff *d, size_t hi, ttd_divergence *dv)
{
    const ttd_hunk_info *h = &d->res.hunks[hi];
    const ipair *p = &d->ip[h->pair];
    uint64_t ng = min64(h->good_count, d->o.max_lines);
    uint64_t nb = min64(h->bad_count, d->o.max_lines);
    uint64_t nctx = min64(d->o.context, h->bad_index);
    ttd_event *ev = ttd_arena_alloc(&d->arena, (ng + nb + nctx + 3) * sizeof *ev);
    ttd_event *probe = ev + ng + nb + nctx; /* [0] good, [1] bad, [2] crash */
    req rq[5];
    pass_spec ps[2] = {{rq, 0, h->good_index, NULL, 0, NULL, 0, 0},
                       {rq + 1, 0, h->bad_index, NULL, 0, NULL, 0, 0}};
    int rc;

    if (!ev)
        return TT_ENOMEM;
    if (d->o.suspects) {
        ps[1].ringcap = SUSPECT_WINDOW;
        if (!(ps[1].ring = malloc(SUSPECT_WINDOW * sizeof *ps[1].ring)))
            return TT_ENOMEM;
    }
    dv->hunk = hi;
    dv->pair = h->pair;
    dv->good_index = h->good_index;
    dv->bad_index = h->bad_index;
    dv->good = ev;
    dv->ngood = ng;
    dv->good_more = h->good_count - ng;
    ttd_event *bad = ev + ng, *before = ev + ng + nb;
    dv->bad = bad;
    dv->nbad = nb;
    dv->bad_more = h->bad_count - nb;
    dv->before = before;
    dv->nbefore = nctx;
    uint64_t gp = ng ? UINT64_MAX : probe_index(h->good_index, p->n[0]);
    uint64_t bp = nb ? UINT64_MAX : probe_index(h->bad_index, p->n[1]);
    add_req(rq, &ps[0].nrq, h->good_index, h->good_index + ng, ev);
    add_req(rq, &ps[0].nrq, gp, gp + 1, &probe[0]);
    ps[1].rq = rq + ps[0].nrq;
    add_req(ps[1].rq, &ps[1].nrq, h->bad_index - nctx, h->bad_index, before);
    add_req(ps[1].rq, &ps[1].nrq, h->bad_index, h->bad_index + nb, bad);
    add_req(ps[1].rq, &ps[1].nrq, bp, bp + 1, &probe[1]);
    int crashed = p->crash >= h->bad_index && p->crash < h->bad_index + h->bad_count;
    if (crashed)
        add_req(ps[1].rq, &ps[1].nrq, p->crash, p->crash + 1, &probe[2]);
    probe[0].time_ns = ttf_get_thread(d->r[TTD_GOOD].t, p->t[0])->start_ns;
    probe[1].time_ns = ttf_get_thread(d->r[TTD_BAD].t, p->t[1])->start_ns;
    for (int s = 0; s < 2; s++)
        if ((rc = run_pass(d, s, p->t[s], &ps[s])) < 0)
            goto out;
    dv->good_time_ns = ng ? dv->good[0].time_ns : probe[0].time_ns;
    dv->bad_time_ns = nb ? dv->bad[0].time_ns : probe[1].time_ns;
    dv->crash = crashed ? &probe[2] : NULL;
    if ((rc = common_stack(d, &ps[0], &ps[1], dv)) < 0 ||
        (rc = suspects(d, p, &ps[1], dv)) < 0)
        goto out;
    if ((rc = others(d, TTD_GOOD, p->t[0], dv->good_time_ns, dv)) < 0)
        goto out;
    rc = others(d, TTD_BAD, p->t[1], dv->bad_time_ns, dv);
out:
    free(ps[0].stack);
    free(ps[1].stack);
    free(ps[1].ring);
    return rc;
}

int ttd_hunk_detail(ttd_diff *d, size_t i, const ttd_divergence **out)
{
    if (!d || !out || i >= d->res.nhunks)
        return TT_EINVAL;
    if (!d->detail[i]) {
        ttd_divergence *dv = ttd_arena_alloc(&d->arena, sizeof *dv);
        if (!dv)
            return TT_ENOMEM;
        int rc = detail(d, i, dv);
        if (rc < 0)
            return rc;
        d->detail[i] = dv;
    }
    *out = d->detail[i];
    return 0;
}

/* ---- public entry points ------------------------------------------------ */

/* Open the baseline runs and pair each one's threads with the good run's. */
static int open_baselines(ttd_diff *d, ttf_error *err)
{
    run *g = &d->r[TTD_GOOD];
    ttd_run_info *info;
    int rc = 0;

    if (!d->o.nbaselines)
        return 0;
    d->base = calloc(d->o.nbaselines, sizeof *d->base);
    info = ttd_arena_alloc(&d->arena, d->o.nbaselines * sizeof *info);
    ttd_tinfo *gt = malloc((g->nt + 1) * sizeof *gt);
    if (!d->base || !info || !gt) {
        free(gt);
        return TT_ENOMEM;
    }
    const char **paths = ttd_arena_alloc(&d->arena, d->o.nbaselines * sizeof *paths);
    if (!paths) {
        free(gt);
        return TT_ENOMEM;
    }
    d->res.baselines = info;
    for (size_t k = 0; k < d->o.nbaselines && rc >= 0; k++) {
        base *b = &d->base[k];
        b->path = d->o.baselines[k];
        b->r.crash_thread = -1;
        if (!b->path || !(paths[k] = ttd_arena_strdup(&d->arena, b->path))) {
            rc = b->path ? TT_ENOMEM : TT_EINVAL;
            break;
        }
        if ((rc = ttf_open(b->path, &b->r.owned, err)) < 0)
            break;
        d->nbase++;
        b->r.t = b->r.owned;
        if ((rc = ttd_norm_init(&b->r.norm, b->r.t, d->o.messages, d->re[1], d->re[2],
                                 d->o.no_demangle)) < 0 ||
            (rc = load_threads(&b->r)) < 0)
            break;
        if (!(b->partner = malloc((g->nt + 1) * sizeof *b->partner))) {
            rc = TT_ENOMEM;
            break;
        }
        memcpy(gt, g->ti, g->nt * sizeof *gt);
        ttd_pair_threads(gt, g->nt, b->r.ti, b->r.nt);
        for (size_t i = 0; i < g->nt; i++)
            b->partner[i] = gt[i].partner;
        run_info(d, &b->r, b->path, &info[k]);
        info[k].exe = "";
        info[k].argc = 0;
        info[k].argv = NULL;
        d->res.nbaselines = k + 1;
    }
    free(gt);
    d->o.baselines = paths; /* the result's options hold copies */
    return rc < 0 ? rc : 0;
}

static void close_baselines(ttd_diff *d)
{
    for (size_t k = 0; k < d->nbase; k++) {
        ttd_norm_free(&d->base[k].r.norm);
        free(d->base[k].r.ti);
        free(d->base[k].partner);
        ttf_close(d->base[k].r.owned);
    }
    free(d->base);
    d->base = NULL;
    d->nbase = 0;
}

/* Whether call values are compared, and if not, why. */
static void values_setup(ttd_diff *d)
{
    const ttf_trace *g = d->r[TTD_GOOD].t, *b = d->r[TTD_BAD].t;

    d->values = !d->o.no_values && ttd_values_on(g, b);
    if (d->o.no_values)
        d->res.values_note = "turned off (--no-values)";
    else if (!ttf_get_summary(g)->values && !ttf_get_summary(b)->values)
        d->res.values_note = "not recorded (build with -pg -mfentry to record them)";
    else if (!d->values)
        d->res.values_note = ttf_get_summary(g)->values
            ? "the bad run has none (built without -pg -mfentry)"
            : "the good run has none (built without -pg -mfentry)";
}

/* The first value divergence over all pairs: the earliest in the bad run. */
static int value_first(ttd_diff *d)
{
    const ttd_vdiff *best = NULL;
    size_t bp = 0;

    for (size_t i = 0; i < d->nip; i++) {
        const ttd_vfound *f = &d->ip[i].vf;
        d->res.values_compared += f->compared;
        d->res.values_noise += f->noise;
        if (f->found && (!best || f->first.ev[1].time_ns < best->ev[1].time_ns)) {
            best = &f->first;
            bp = i;
        }
    }
    if (d->values && !d->res.values_compared)
        d->res.values_note = "none comparable (no debug info, or only void, "
                             "float or struct values)";
    d->res.values = d->values && d->res.values_compared > 0;
    if (!best)
        return 0;
    ttd_value_diff *v = ttd_arena_alloc(&d->arena, sizeof *v);
    if (!v || ttd_values_result(&d->arena, &d->r[TTD_BAD].norm, best, v) < 0)
        return TT_ENOMEM;
    v->pair = bp;
    locate(d, best->ev[1].addr, 0, best->ev[1].time_ns, &v->file, &v->line);
    const ttd_hunk_info *h = d->res.nhunks > d->res.nexpected ? &d->res.hunks[0] : NULL;
    v->before_split = !h || (h->pair == bp ? best->idx[1] < h->bad_index
                                           : best->ev[1].time_ns < h->time_ns);
    d->res.value_first = v;
    d->res.diverged = 1;
    return 0;
}

static int diff_all(ttd_diff *d, const char *paths[2], ttf_error *err)
{
    int rc;

    if ((rc = compile(d, 0, d->o.thread, "--thread", err)) < 0 ||
        (rc = compile(d, 1, d->o.function, "--function", err)) < 0 ||
        (rc = compile(d, 2, d->o.exclude, "--exclude", err)) < 0)
        return rc;
    for (int ri = 0; ri < 2; ri++) {
        run *r = &d->r[ri];
        r->crash_thread = -1;
        if ((rc = ttd_norm_init(&r->norm, r->t, d->o.messages, d->re[1], d->re[2],
                                 d->o.no_demangle)) < 0)
            return rc;
        if ((rc = load_threads(r)) < 0)
            return rc;
    }
    ttd_pair_threads(d->r[0].ti, d->r[0].nt, d->r[1].ti, d->r[1].nt);
    values_setup(d);
    if ((rc = make_pairs(d)) < 0 || (rc = open_baselines(d, err)) < 0)
        return rc;
    ttd_keybuf kb[2] = {{0}, {0}};
    full fu;
    memset(&fu, 0, sizeof fu);
    for (size_t i = 0; i < d->nip && rc >= 0; i++)
        rc = d->full ? align_full(d, &d->ip[i], &fu) : align_pair(d, &d->ip[i], kb);
    ttd_keybuf_free(&kb[0]);
    ttd_keybuf_free(&kb[1]);
    ttd_seq_free(&fu.seq[0]);
    ttd_seq_free(&fu.seq[1]);
    ttd_zones_free(&fu.z);
    close_baselines(d);
    if (rc < 0)
        return rc;
    if ((rc = resolve(d)) < 0 || (rc = value_first(d)) < 0)
        return rc;
    for (int ri = 0; ri < 2; ri++) {
        run_info(d, &d->r[ri], paths ? paths[ri] : NULL, &d->res.runs[ri]);
        if ((rc = notices(d, ri)) < 0 || (rc = find_crash(d, ri)) < 0)
            return rc;
    }
    d->res.options = d->o;
    if (d->res.nhunks > d->res.nexpected)
        return ttd_hunk_detail(d, 0, &d->res.first);
    return 0;
}

static int start(const ttf_trace *good, const ttf_trace *bad,
                 const ttd_options *opts, ttd_diff **out)
{
    ttd_diff *d;

    if (!out)
        return TT_EINVAL;
    *out = NULL;
    if (!good || !bad)
        return TT_EINVAL;
    if (opts && (opts->messages < TTD_MSG_SITE || opts->messages > TTD_MSG_OFF))
        return TT_EINVAL;
    if (opts && opts->nbaselines && !opts->baselines)
        return TT_EINVAL;
    if (!(d = calloc(1, sizeof *d)))
        return TT_ENOMEM;
    if (opts)
        d->o = *opts;
    else
        ttd_options_init(&d->o);
    d->r[TTD_GOOD].t = good;
    d->r[TTD_BAD].t = bad;
    d->full = d->o.collapse_loops || d->o.nbaselines;
    *out = d;
    return 0;
}

static int finish(ttd_diff *d, const char *paths[2], ttd_diff **out,
                  ttf_error *err)
{
    int rc = diff_all(d, paths, err);

    if (rc < 0) {
        if (err && err->code == 0)
            set_err(err, rc, ttf_strerror(rc));
        ttd_free(d);
        *out = NULL;
    }
    return rc;
}

int ttd_diff_traces(const ttf_trace *good, const ttf_trace *bad,
                    const ttd_options *opts, ttd_diff **out, ttf_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
    int rc = start(good, bad, opts, out);
    if (rc < 0) {
        set_err(err, rc, ttf_strerror(rc));
        return rc;
    }
    return finish(*out, NULL, out, err);
}

int ttd_diff_files(const char *good, const char *bad,
                   const ttd_options *opts, ttd_diff **out, ttf_error *err)
{
    ttf_trace *t[2] = {NULL, NULL};
    const char *paths[2] = {good, bad};
    int rc;

    if (err)
        memset(err, 0, sizeof *err);
    if (!out || !good || !bad) {
        set_err(err, TT_EINVAL, ttf_strerror(TT_EINVAL));
        return TT_EINVAL;
    }
    *out = NULL;
    if ((rc = ttf_open(good, &t[0], err)) < 0)
        return rc;
    if ((rc = ttf_open(bad, &t[1], err)) < 0) {
        ttf_close(t[0]);
        return rc;
    }
    if ((rc = start(t[0], t[1], opts, out)) < 0) {
        ttf_close(t[0]);
        ttf_close(t[1]);
        set_err(err, rc, ttf_strerror(rc));
        return rc;
    }
    (*out)->r[0].owned = t[0];
    (*out)->r[1].owned = t[1];
    return finish(*out, paths, out, err);
}

const ttd_result *ttd_get_result(const ttd_diff *d)
{
    return d ? &d->res : NULL;
}

void ttd_free(ttd_diff *d)
{
    if (!d)
        return;
    close_baselines(d);
    for (size_t i = 0; i < d->nip; i++) {
        free(d->ip[i].h);
        free(d->ip[i].exp);
        free(d->ip[i].reps);
        ttd_vfound_free(&d->ip[i].vf);
    }
    ttd_openset_free(&d->noise);
    free(d->ip);
    free(d->detail);
    for (int ri = 0; ri < 2; ri++) {
        ttd_norm_free(&d->r[ri].norm);
        free(d->r[ri].ti);
        ttf_close(d->r[ri].owned);
    }
    for (int i = 0; i < 3; i++)
        ttd_regex_free(d->re[i]);
    ttd_arena_free(&d->arena);
    free(d);
}
