/*
 * interleave.c - the order of the threads before a divergence, from the
 * SYNC_OP records (locks, conditions, thread create/join): the last
 * operations of all threads in each run, the first place where one object
 * saw its operations in another thread order, and a bad-run call that took
 * no lock where every good-run call of the same function took one (the
 * unprotected operation), with what the other threads did meanwhile.
 * Stage 2 resolve of diff/STAGES (its header: resolve.h).
 *
 * Each run is walked once, all threads merged by time, up to the split.
 * A return whose time was not measured (the sparse clock) counts at the
 * latest it can have been (ttf_event_late_ns): a call is never taken as
 * shorter, nor as over before another began, than it may have been.
 * Objects have no stable address across runs, so each run numbers them by
 * first use, per kind (mutex#1, cond#1; threads by the index CREATE gave).
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
    uint32_t code;          /* pair index << 8 | op */
    uint32_t thread;        /* thread index in its run */
    uint64_t time_ns;       /* when */
    const char *func;       /* innermost function */
} opcode;

/* The operations on one object, in order. */
typedef struct oseq {
    const char *label;      /* the object */
    opcode *op;             /* its operations */
    size_t n, cap;
} oseq;

/* One open call of a thread. */
typedef struct xframe {
    uint64_t key;           /* function key (ttdi_norm_key of its ENTER) */
    uint64_t mask;          /* locks held at entry or taken inside */
    uint64_t t0;            /* entered at */
    const char *name;       /* function */
} xframe;

/* A thread's state during the walk. */
typedef struct xthread {
    xframe *f;              /* open calls, innermost last */
    size_t n, cap;
    uint64_t held;          /* mutexes held (bit = number - 1) */
} xthread;

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
    ttd_xev ring[WINDOW];   /* last operations */
    uint64_t nops;          /* operations seen */
} xrun;

static const char *const kinds[] = {"mutex", "cond", "thread"};

static int op_kind(int op)
{
    if (op >= TTF_SOP_WAIT && op <= TTF_SOP_BROADCAST)
        return 1;
    return op == TTF_SOP_CREATE || op == TTF_SOP_JOIN ? 2 : 0;
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
            x->seq[o->seq].label = o->label;
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

static int push(xthread *t, uint64_t key, uint64_t time, const char *name)
{
    if (t->n == t->cap &&
        ttdi_grow(&t->f, &t->cap, t->n + 1, sizeof *t->f, 32) < 0)
        return TT_ENOMEM;
    t->f[t->n++] = (xframe){key, t->held, time, name};
    return 0;
}

static int seq_add(oseq *s, uint32_t code, const ttd_xev *e)
{
    if (s->n == SEQ_MAX)
        return 0;
    if (s->n == s->cap &&
        ttdi_grow(&s->op, &s->cap, s->n + 1, sizeof *s->op, 64) < 0)
        return TT_ENOMEM;
    s->op[s->n++] = (opcode){code, e->thread, e->time_ns, e->func};
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

/* A call returns: its locks flow to its caller; the good run learns, the
 * bad run checks against what the good run learnt. */
static void ret(xrun *x, xthread *t, uint32_t th, uint64_t now, fnslot *fns,
                int bad, unprot *u)
{
    xframe f = t->f[--t->n];

    if (t->n)
        t->f[t->n - 1].mask |= f.mask;
    fnslot *s = fn_find(fns, f.key, !bad);
    if (!s)
        return;
    if (!bad) {
        s->mask &= f.mask;
        s->calls++;
        return;
    }
    uint64_t miss = s->calls ? s->mask & ~f.mask : 0;
    if (!miss || u->found)
        return;
    u->found = 1;
    u->key = f.key;
    u->end = now;
    u->lock = miss & -miss;
    u->calls = s->calls;
    u->call = (ttd_xev){TTF_EV_ENTER, 0, th, x->in->pair_of[th], f.t0, NULL, f.name};
}

/* A SYNC_OP of thread th. */
static int sync_event(struct ttfi_arena *a, xrun *x, xthread *t, const ttf_event *ev)
{
    obj *o = object(a, x, ev);
    ttd_xev e = {TTF_EV_SYNC_OP, ev->code, ev->thread, x->in->pair_of[ev->thread],
                 ev->time_ns, o ? o->label : "?", t->n ? t->f[t->n - 1].name : ""};

    x->ring[x->nops++ % WINDOW] = e;
    if (!o)
        return 0;
    uint64_t bit = o->kind == 0 && o->num <= 64 ? 1ull << (o->num - 1) : 0;
    if (ev->code == TTF_SOP_LOCK || (ev->code == TTF_SOP_TRYLOCK && !ev->sync_arg)) {
        t->held |= bit;
        if (t->n)
            t->f[t->n - 1].mask |= bit;
    } else if (ev->code == TTF_SOP_UNLOCK) {
        t->held &= ~bit;
    }
    if (o->seq < 0 || e.pair < 0)
        return 0;
    return seq_add(&x->seq[o->seq], (uint32_t)e.pair << 8 | (uint32_t)ev->code, &e);
}

/* Walk run x up to its split. */
static int walk_run(struct ttfi_arena *a, xrun *x, fnslot *fns, int bad, unprot *u)
{
    const ttdi_ilv_run *in = x->in;
    ttdi_walk wk;
    uint64_t key;
    int rc = ttdi_walk_raw(&wk, in->t, TTF_ALL_THREADS);

    while (rc >= 0 && (rc = ttdi_walk_next(&wk)) > 0 && wk.ev.time_ns <= in->split_ns) {
        if (wk.ev.thread >= in->nt)
            continue;
        xthread *t = &x->th[wk.ev.thread];
        if (wk.ev.kind == TTF_EV_SYNC_OP) {
            rc = sync_event(a, x, t, &wk.ev);
        } else if (wk.ev.kind == TTF_EV_ENTER) {
            if ((rc = ttdi_norm_key(in->norm, &wk.ev, &key)) > 0)
                rc = push(t, key, wk.ev.time_ns, ttdi_norm_func(in->norm, &wk.ev));
        } else if (wk.ev.kind == TTF_EV_EXIT && t->n &&
                   (rc = ttdi_norm_key(in->norm, &wk.ev, &key)) > 0 &&
                   ttdi_norm_exit_of(t->f[t->n - 1].key) == key) {
            ret(x, t, wk.ev.thread, ttf_event_late_ns(&wk.ev), fns, bad, u);
        }
    }
    ttdi_walk_close(&wk);
    return rc < 0 ? rc : 0;
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
    ttd_xev *open_at = calloc(in->nt + 1, sizeof *open_at);
    if (!v || !open_at) {
        free(open_at);
        return TT_ENOMEM;
    }
    if ((rc = ttdi_walk_raw(&wk, in->t, TTF_ALL_THREADS)) < 0) {
        free(open_at);
        return rc;
    }
    while ((rc = ttdi_walk_next(&wk)) > 0 && wk.ev.time_ns <= u->end) {
        if (wk.ev.thread >= in->nt || wk.ev.thread == u->call.thread)
            continue;
        if (wk.ev.time_ns < u->call.time_ns) { /* before: only who is inside it */
            if (wk.ev.kind == TTF_EV_EXIT && ttf_event_late_ns(&wk.ev) >= u->call.time_ns)
                continue;   /* an untimed return that may come after it began */
            if ((wk.ev.kind == TTF_EV_ENTER || wk.ev.kind == TTF_EV_EXIT) &&
                (rc = ttdi_norm_key(in->norm, &wk.ev, &key)) > 0 &&
                (key == u->key || key == ttdi_norm_exit_of(u->key)))
                open_at[wk.ev.thread] = key == u->key
                    ? (ttd_xev){TTF_EV_ENTER, 0, wk.ev.thread, in->pair_of[wk.ev.thread],
                                wk.ev.time_ns, NULL, ttdi_norm_func(in->norm, &wk.ev)}
                    : (ttd_xev){0};
            continue;
        }
        ttd_xev e = {wk.ev.kind, 0, wk.ev.thread, in->pair_of[wk.ev.thread], wk.ev.time_ns, NULL, ""};
        if (wk.ev.kind == TTF_EV_SYNC_OP) {
            obj *o = object(a, x, &wk.ev);
            e.op = wk.ev.code;
            e.object = o ? o->label : "?";
        } else if (wk.ev.kind == TTF_EV_ENTER || wk.ev.kind == TTF_EV_EXIT) {
            if ((rc = ttdi_norm_key(in->norm, &wk.ev, &key)) <= 0 ||
                key != (wk.ev.kind == TTF_EV_ENTER ? u->key : ttdi_norm_exit_of(u->key)))
                continue;
            e.func = ttdi_norm_func(in->norm, &wk.ev);
            if (wk.ev.kind == TTF_EV_EXIT && open_at[wk.ev.thread].kind == TTF_EV_ENTER)
                closed = open_at[wk.ev.thread];     /* it overlapped, and ended first */
            open_at[wk.ev.thread] = wk.ev.kind == TTF_EV_ENTER ? e : (ttd_xev){0};
        } else {
            continue;
        }
        v[n++ % DURING_MAX] = e;
    }
    ttdi_walk_close(&wk);
    for (size_t i = 0; i < in->nt && !out->overlapped; i++)
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
        if (!sb)
            continue;
        size_t i = 0;
        while (i < sg->n && i < sb->n && sg->op[i].code == sb->op[i].code)
            i++;
        if (i == sg->n && i == sb->n)
            continue;
        uint64_t when = i < sb->n ? sb->op[i].time_ns : b->in->split_ns;
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
            const opcode *o = &s[r]->op[i];
            out->order[r] = (ttd_xev){TTF_EV_SYNC_OP, (int)(o->code & 0xff), o->thread,
                                      x[r]->in->pair_of[o->thread], o->time_ns,
                                      sg->label, o->func};
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
    for (size_t i = 0; x->th && i < x->in->nt; i++)
        free(x->th[i].f);
    for (size_t i = 0; i < x->nseq; i++)
        free(x->seq[i].op);
    free(x->th);
    free(x->objs);
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

int ttdi_interleave_build(struct ttfi_arena *a, const ttdi_ilv_run in[2], ttd_interleave **out)
{
    xrun x[2];
    unprot u = {0};
    fnslot *fns = calloc(FN_CAP, sizeof *fns);
    ttd_interleave *res = ttfi_arena_zalloc(a, sizeof *res);
    int rc = fns && res ? 0 : TT_ENOMEM;

    *out = NULL;
    memset(x, 0, sizeof x);
    for (int r = 0; r < 2 && rc >= 0; r++) {
        x[r].in = &in[r];
        x[r].th = calloc(in[r].nt + 1, sizeof *x[r].th);
        x[r].objs = calloc(OBJ_CAP, sizeof *x[r].objs);
        if (!x[r].th || !x[r].objs)
            rc = TT_ENOMEM;
        else if ((rc = walk_run(a, &x[r], fns, r, &u)) >= 0)
            rc = window(a, &x[r], r, res);
    }
    if (rc >= 0 && (x[0].nops || x[1].nops)) {
        first_order(&x[0], &x[1], res);
        if (u.found)
            rc = unprot_result(a, &x[1], &x[0], &u, res);
        if (rc >= 0)
            *out = res;
    }
    xrun_free(&x[0]);
    xrun_free(&x[1]);
    free(fns);
    return rc < 0 ? rc : 0;
}
