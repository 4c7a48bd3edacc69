/*
 * flagrace.c - a race on a flag as the cause (issue 33 item 4). Stage 3
 * explain of diff/STAGES (its header: explain.h).
 *
 * Design. A stop, cancel or ready flag that one thread sets and another
 * polls, neither under a lock (a plain int, a relaxed atomic), races:
 *
 *     worker:  while (!stop_requested()) write_chunk(i);
 *     main:    request_stop(); close_output();     (no join first)
 *
 * When the worker polls just before the stop it sees 0, goes on, and
 * writes after the close. The trace shows the split in the worker right
 * after the poll; the value rules (values mode) name the poller's flipped
 * answer as a failure's origin, the plain rules the worker's branch. The
 * cause is neither: it is that nothing orders the setter's write and the
 * poller's read. This rule says so when all of these hold, and only then
 * (the verdict asks, verdict.c, when its best cause is the split's own
 * branch or the poller's value):
 *   - the poller: the call whose answer the split's branch used. Values
 *     mode: the first divergence's value, a return in the split's thread
 *     before the split (`stop_requested` returned 0 in the bad run, 1 in
 *     the good run). Plain mode: of the last FR_BACK calls that returned
 *     before the split in its thread, the latest whose machine code reads
 *     a writable global (format's ttf_sym_code_globals: operands that name
 *     the global; a thread-local flag or a stack value names none);
 *   - the setter: a call of another thread of the bad run, before the
 *     split, whose code writes one of the globals the poller reads, and
 *     that returned after the poll began (a write done before the poll
 *     began, the poll would have seen; a flag set too early is an order,
 *     not this race; the setter's latest return against the poll's
 *     earliest start, so that the reader's estimate of an untimed ENTER
 *     or EXIT, FORMAT.md 4.5 and 4.7, never makes a setter look too
 *     early); the innermost such call, the latest one;
 *   - no lock held by both: the mutexes each thread held at some time
 *     during its call (held at its entry, or taken inside it) share none;
 *   - no happens-before edge between the two calls: when one returned
 *     before the other began, no release in the first one's thread after
 *     it (an unlock, a signal, a semaphore's post, a thread's creation)
 *     is acquired in the other's before its call (the lock taken, the
 *     wait woken on that condition, the semaphore taken, the created
 *     thread being the other one), and no join of
 *     the poller's thread by the setter's between them. Calls that overlap
 *     in time are unordered. These compare a thread's records with each
 *     other (placed times keep their order), so no bound is needed; the
 *     verdict's "overlapped" takes the bounds (earliest entry, latest
 *     return: measured times are taken as they are).
 * Then the verdict names the poller (kind `race`), the setter, both
 * threads and lines, the global, and which came first in the bad run; it
 * is "possible": the trace shows no memory access, and the code names
 * the global only where an operand does.
 * Costs. The rule walks the bad run's threads itself, only once its cheap
 * preconditions hold (a split, two threads or more, sync records in the
 * trace, a poller named), each thread at most FR_EVENTS events up to the
 * split's time and FR_SYNCS sync records, FR_BUDGET events in all (past
 * that, no cause: it cannot tell). Each thread is read by a stack walk
 * from its start that keeps its SYNC_OPs as it goes, the semaphores'
 * posts and takes among them: the records run walks keep
 * (ttdi_walk_syncs) and their marks set those aside, and a post that a
 * take follows orders two calls as an unlock and a lock do (on the
 * stored realbugs recordings the rule reads at most 23,000 events of a
 * thread). It does not touch races.c's walk.
 * Limits. Happens-before is one hop: a release acquired through a third
 * thread is not seen (the calls then look unordered); a join is seen
 * only when the setter's thread created the poller's (the pthread_t is
 * in its CREATE). A global reached through a pointer or an index
 * register is not named by the code, so such a flag is missed.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"

#define FR_EVENTS (1u << 21)    /* events read per thread, at most */
#define FR_BUDGET (1u << 23)    /* events read in all, at most */
#define FR_SYNCS 4096           /* sync records kept per thread */
#define FR_THREADS 64           /* other threads walked, at most */
#define FR_BACK 8               /* calls before the split looked at */
#define FR_GLOBALS 16           /* globals a function names, kept */
#define FR_DEPTH 256            /* frames whose entry is kept */

/* A call that returned: its entry and return (placed times: the order
 * within its thread) and the earliest it can have begun and the latest
 * it can have returned (lo_ns, hi_ns: the same unless untimed). */
typedef struct fcall {
    uint64_t addr, site, enter_ns, exit_ns, lo_ns, hi_ns;
} fcall;


/* A global by module and link-time address. */
typedef struct fglobal {
    long module;
    uint64_t addr;
    unsigned access;
} fglobal;

/* What a walk kept of a thread. */
typedef struct fthread {
    ttdi_flag_view v;           /* its index and sync records (sy) */
    ttdi_flag_sync sy[FR_SYNCS];
    fcall back[FR_BACK];        /* ring of the last calls returned */
    size_t nback;
    fcall hit;                  /* a setter's call (has hit) */
    int has_hit;
    uint64_t fr_addr[FR_DEPTH], fr_ns[FR_DEPTH], fr_lo[FR_DEPTH], fr_site[FR_DEPTH];
} fthread;

/* The rule's state. */
typedef struct fctx {
    const ttdi_in *in;
    ttdi_run_state *run;        /* the bad run */
    uint64_t until;             /* the split's time in the bad run */
    uint64_t budget;            /* events left to read (FR_BUDGET) */
    uint64_t poll_enter;        /* when the poller's call began, earliest */
    fglobal g[FR_GLOBALS];      /* the poller's globals read */
    size_t ng;
    ttdi_map writes;            /* function address -> 1 writes one of g, 2 not */
} fctx;

/* The writable globals function addr (run n, time ns) names, into out. */
static size_t globals_of(ttdi_norm *n, uint64_t addr, uint64_t ns, fglobal *out)
{
    ttf_code_global cg[FR_GLOBALS];
    const ttf_code_info *ci;
    size_t k = 0;
    long mi = ttdi_module_at(n, addr, ns);

    if (mi < 0 || ttf_sym_code(n->sym, (size_t)mi, &ci) != 0 || addr < ci->bias ||
        ttf_sym_code_globals(n->sym, (size_t)mi, addr - ci->bias, cg, FR_GLOBALS, &k) != 0)
        return 0;
    if (k > FR_GLOBALS)
        k = FR_GLOBALS;
    for (size_t i = 0; i < k; i++)
        out[i] = (fglobal){mi, cg[i].addr, cg[i].access};
    return k;
}

/* 1 if function addr writes one of the poller's globals (cached). */
static int writes_flag(fctx *c, uint64_t addr, uint64_t ns, int *oom)
{
    fglobal f[FR_GLOBALS];
    int added = 0;
    uint64_t *v = ttdi_map_put(&c->writes, addr, &added);

    if (!v) {
        *oom = 1;
        return 0;
    }
    if (added) {
        size_t k = globals_of(&c->run->norm, addr, ns, f);
        *v = 2;
        for (size_t i = 0; i < k && *v == 2; i++)
            for (size_t j = 0; j < c->ng; j++)
                if ((f[i].access & TTF_GLOBAL_WRITE) && f[i].module == c->g[j].module &&
                    f[i].addr == c->g[j].addr)
                    *v = 1;
    }
    return *v == 1;
}

/* A call of thread th returned: kept in its ring; for another thread
 * (setter search, c->ng set), its hit when it writes the flag and is the
 * latest such call not around the one kept. */
static void returned(fctx *c, fthread *th, const fcall *k, int *oom)
{
    th->back[th->nback++ % FR_BACK] = *k;
    if (!c->ng || k->hi_ns < c->poll_enter || !writes_flag(c, k->addr, k->enter_ns, oom))
        return;
    if (th->has_hit && k->enter_ns <= th->hit.enter_ns && k->exit_ns >= th->hit.exit_ns)
        return;     /* its caller: the innermost call is the setter */
    th->hit = *k;
    th->has_hit = 1;
}

/* One event of a walk of th. 0, or 1 to stop (too many records). */
static int walk_event(fctx *c, fthread *th, ttdi_walk *w, int *oom)
{
    const ttf_event *e = &w->ev;

    if (e->kind == TTF_EV_SYNC_OP) {
        if (th->v.nsy == FR_SYNCS)
            return 1;
        th->sy[th->v.nsy++] = (ttdi_flag_sync){e->time_ns, e->addr, e->sync_arg, e->code};
        return 0;
    }
    if (!w->pending)
        return 0;
    size_t k = ttdi_walk_depth_after(w);
    if (e->kind == TTF_EV_ENTER && k < FR_DEPTH) {
        th->fr_addr[k] = e->addr;
        th->fr_ns[k] = e->time_ns;
        th->fr_lo[k] = ttf_event_early_ns(e);
        th->fr_site[k] = e->call_site;
    } else if (e->kind == TTF_EV_EXIT && k < w->nstack && k < FR_DEPTH &&
               th->fr_addr[k] == e->addr) {
        fcall f = {e->addr, th->fr_site[k], th->fr_ns[k], e->time_ns, th->fr_lo[k],
                   ttf_event_late_ns(e)};
        returned(c, th, &f, oom);
    }
    return 0;
}

/* Walk thread th->v.index of the bad run up to the split's time: a stack
 * walk from its start that shows the starts of waits and the semaphores'
 * operations too (waits: the run walks' records and marks set those
 * aside, and a post is an edge). 0, 1 when it could not be read whole
 * (too long), or a TT_E* code. */
static int walk_thread(fctx *c, fthread *th)
{
    ttdi_walk w;
    int rc = ttdi_walk_stack(&w, c->run->t, th->v.index, 0), oom = 0, whole = 1;
    uint64_t n = 0;

    if (rc < 0)
        return rc;
    w.waits = 1;
    while (!oom && (rc = ttdi_walk_stack_next(&w)) > 0 && w.ev.time_ns <= c->until) {
        if (++n > FR_EVENTS || !c->budget || walk_event(c, th, &w, &oom)) {
            whole = 0;
            break;
        }
        c->budget--;
    }
    ttdi_walk_close(&w);
    return oom ? TT_ENOMEM : rc < 0 ? rc : !whole;
}

/* ---- happens-before ------------------------------------------------------- */

static int acquires(const ttdi_flag_sync *s)
{
    return ttdi_sop_took(s->op, s->arg) || s->op == TTF_SOP_WOKE;
}

/* The mutex an operation takes (its object; a wake-up retakes the wait's). */
static uint64_t taken(const ttdi_flag_sync *s, const ttdi_flag_view *th, size_t i)
{
    if (s->op != TTF_SOP_WOKE)
        return s->obj;
    while (i-- > 0)
        if (th->sy[i].op == TTF_SOP_WAIT && th->sy[i].obj == s->obj)
            return (uint64_t)th->sy[i].arg;
    return 0;
}

/* The mutexes th held at some time during [a, b]: held at a, or taken
 * inside. Into out (at most cap), their number. */
static size_t held_during(const ttdi_flag_view *th, uint64_t a, uint64_t b, uint64_t *out,
                          size_t cap)
{
    size_t n = 0;

    for (size_t i = 0; i < th->nsy && th->sy[i].ns <= b; i++) {
        const ttdi_flag_sync *s = &th->sy[i];
        uint64_t m = acquires(s) ? taken(s, th, i) : 0;
        if (m && n < cap)
            out[n++] = m;
        if ((s->op == TTF_SOP_UNLOCK || s->op == TTF_SOP_WAIT) && s->ns < a)
            for (size_t k = 0; k < n; k++)
                if (out[k] == (s->op == TTF_SOP_WAIT ? (uint64_t)s->arg : s->obj)) {
                    out[k--] = out[--n];
                    break;
                }
    }
    return n;
}

/* 1 if a lock was held by both calls. */
static int both_locked(const ttdi_flag_view *p, const ttdi_flag_call *pc, const ttdi_flag_view *s,
                       const ttdi_flag_call *sc)
{
    uint64_t a[32], b[32];
    size_t na = held_during(p, pc->enter_ns, pc->exit_ns, a, 32);
    size_t nb = held_during(s, sc->enter_ns, sc->exit_ns, b, 32);

    for (size_t i = 0; i < na; i++)
        for (size_t k = 0; k < nb; k++)
            if (a[i] == b[k])
                return 1;
    return 0;
}

/* The pthread_t thread `idx` was created as, by th's CREATE; 0 if none. */
static uint64_t created_as(const ttdi_flag_view *th, uint32_t idx)
{
    for (size_t i = 0; i < th->nsy; i++)
        if (th->sy[i].op == TTF_SOP_CREATE && th->sy[i].arg == (int64_t)idx)
            return th->sy[i].obj;
    return 0;
}

/* 1 if first's call f, which returned before then's call t began, is
 * ordered before it: a release in first's thread after f acquired in
 * then's thread before t (a lock, a condition's wake-up), then's thread
 * created after f by first's, or first's thread joined by then's. */
static int ordered(const ttdi_flag_view *first, const ttdi_flag_call *f,
                   const ttdi_flag_view *then, const ttdi_flag_call *t)
{
    uint64_t tid = created_as(then, first->index);

    for (size_t i = 0; i < first->nsy; i++) {
        const ttdi_flag_sync *r = &first->sy[i];
        if (r->ns < f->exit_ns || r->ns > t->enter_ns)
            continue;
        if (r->op == TTF_SOP_CREATE && r->arg == (int64_t)then->index)
            return 1;
        int rel = r->op == TTF_SOP_UNLOCK || r->op == TTF_SOP_SIGNAL ||
                  r->op == TTF_SOP_BROADCAST || r->op == TTF_SOP_WAIT ||
                  r->op == TTF_SOP_SEM_POST;
        uint64_t obj = r->op == TTF_SOP_WAIT ? (uint64_t)r->arg : r->obj;
        for (size_t k = 0; rel && k < then->nsy; k++) {
            const ttdi_flag_sync *q = &then->sy[k];
            if (q->ns >= r->ns && q->ns <= t->enter_ns &&
                (acquires(q) || q->op == TTF_SOP_SEM_TAKEN) &&
                (q->obj == obj || taken(q, then, k) == obj))
                return 1;
        }
    }
    for (size_t k = 0; tid && k < then->nsy; k++)
        if (then->sy[k].op == TTF_SOP_JOIN && then->sy[k].obj == tid &&
            then->sy[k].ns >= f->exit_ns && then->sy[k].ns <= t->enter_ns)
            return 1;
    return 0;
}

int ttdi_flag_unordered(const ttdi_flag_view *p, const ttdi_flag_call *pc,
                        const ttdi_flag_view *s, const ttdi_flag_call *sc)
{
    if (both_locked(p, pc, s, sc))
        return 0;
    if (sc->exit_ns <= pc->enter_ns)
        return !ordered(s, sc, p, pc);
    if (pc->exit_ns <= sc->enter_ns)
        return !ordered(p, pc, s, sc);
    return 1;   /* they overlapped */
}

/* ---- the poller and the setter ------------------------------------------------ */

/* The poller among th's last calls: values mode, the call of v's function
 * that returned v's bad value; plain mode, the latest call whose code
 * reads a writable global. Its globals read into c->g. NULL if none. */
static const fcall *poller(fctx *c, const fthread *th, const ttd_value_diff *v)
{
    size_t n = th->nback < FR_BACK ? th->nback : FR_BACK;
    fglobal f[FR_GLOBALS];

    for (size_t i = 0; i < n; i++) {
        const fcall *k = &th->back[(th->nback - 1 - i) % FR_BACK];
        if (v) {
            const char *nm = ttdi_norm_func_at(&c->run->norm, k->addr, 0, k->enter_ns);
            if (!nm || !v->function || strcmp(nm, v->function) != 0)
                continue;
        }
        size_t ng = globals_of(&c->run->norm, k->addr, k->enter_ns, f);
        c->ng = 0;
        for (size_t j = 0; j < ng; j++)
            if (f[j].access & TTF_GLOBAL_READ)
                c->g[c->ng++] = f[j];
        if (c->ng || v)
            return c->ng ? k : NULL;
    }
    return NULL;
}

/* "prog.c:90" for call site `site` of the bad run, NULL if unknown. */
static const char *site_text(fctx *c, uint64_t site)
{
    ttf_site_where w;
    char buf[256];

    if (!site || ttf_sym_site(c->run->norm.sym, c->run->t, site, &w) != 0 || !w.file || !w.line)
        return NULL;
    const char *base = strrchr(w.file, '/');
    snprintf(buf, sizeof buf, "%s:%d", base ? base + 1 : w.file, w.line);
    return ttfi_arena_strcpy(c->in->arena, buf);
}

static const char *thread_text(fctx *c, uint32_t idx)
{
    return ttdi_thread_label(c->run, c->in->arena, idx);
}

static int64_t pair_of(const ttd_result *r, uint32_t idx)
{
    for (size_t i = 0; i < r->npairs; i++)
        if (r->pairs[i].bad.index == idx)
            return (int64_t)i;
    return -1;
}

/* The global the setter writes (of the poller's): its symbol's name. */
static const char *global_text(fctx *c, const fcall *sc)
{
    fglobal f[FR_GLOBALS];
    const ttf_code_info *ci;
    size_t k = globals_of(&c->run->norm, sc->addr, sc->enter_ns, f);

    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < c->ng; j++)
            if ((f[i].access & TTF_GLOBAL_WRITE) && f[i].module == c->g[j].module &&
                f[i].addr == c->g[j].addr &&
                ttf_sym_code(c->run->norm.sym, (size_t)f[i].module, &ci) == 0) {
                const char *nm = ttf_sym_name(c->run->norm.sym, f[i].addr + ci->bias);
                return nm ? ttfi_arena_strcpy(c->in->arena, nm) : NULL;
            }
    return NULL;
}

/* Fill *out from the poller's call pc (thread p) and the setter's sc
 * (thread s). */
static void found(fctx *c, const ttd_result *r, const fthread *p, const fcall *pc,
                  const fthread *s, const fcall *sc, ttdi_flag_race *out)
{
    ttdi_norm *n = &c->run->norm;

    out->found = 1;
    out->poller = ttdi_norm_func_at(n, pc->addr, 0, pc->enter_ns);
    out->setter = ttdi_norm_func_at(n, sc->addr, 0, sc->enter_ns);
    out->poller_thread = thread_text(c, p->v.index);
    out->setter_thread = thread_text(c, s->v.index);
    out->poller_pair = pair_of(r, p->v.index);
    out->setter_pair = pair_of(r, s->v.index);
    out->poller_at = site_text(c, pc->site);
    out->setter_at = site_text(c, sc->site);
    out->global = global_text(c, sc);
    out->poll_ns = pc->exit_ns;
    out->set_ns = sc->enter_ns;
    out->setter_after = sc->exit_ns > pc->exit_ns;
    out->overlapped = !(sc->hi_ns <= pc->lo_ns || pc->hi_ns <= sc->lo_ns);
}

/* The other threads' setters: the latest unordered one into *out. */
static int setters(fctx *c, const ttd_result *r, fthread *p, const fcall *pc, fthread *th,
                   ttdi_flag_race *out)
{
    uint64_t best = 0;

    for (uint32_t t = 0, walked = 0; t < c->run->nt && walked < FR_THREADS; t++) {
        if (t == p->v.index)
            continue;
        memset(th, 0, offsetof(fthread, fr_addr));
        th->v.index = t;
        walked++;
        int rc = walk_thread(c, th);
        if (rc < 0)
            return rc;
        if (!c->budget) {       /* it cannot tell: no cause */
            out->found = 0;
            return 0;
        }
        ttdi_flag_call a = {pc->enter_ns, pc->exit_ns}, b = {th->hit.enter_ns, th->hit.exit_ns};
        th->v.sy = th->sy;
        if (rc == 1 || !th->has_hit || !ttdi_flag_unordered(&p->v, &a, &th->v, &b) ||
            (out->found && th->hit.exit_ns <= best))
            continue;
        best = th->hit.exit_ns;
        found(c, r, p, pc, th, &th->hit, out);
    }
    return 0;
}

int ttdi_flag_race_find(const ttdi_in *in, const ttd_result *r, const ttd_value_diff *v,
                        ttdi_flag_race *out)
{
    const ttd_divergence *d = r->first;
    fctx c = {in, NULL, 0, FR_BUDGET, 0, {{0}}, 0, {0}};
    fthread *th = NULL;
    int rc = 0;

    memset(out, 0, sizeof *out);
    if (!in || !d || d->pair >= r->npairs)
        return 0;
    c.run = &in->r[TTD_BAD];
    c.until = d->bad_time_ns;
    if (c.run->nt < 2 || !(ttf_get_header(c.run->t)->optional_features & TTF_HEADER_SYNC) ||
        (v && (v->what != TTD_VAL_RETURN || v->pair != d->pair || !v->before_split)))
        return 0;
    if (!(th = calloc(2, sizeof *th)))
        return TT_ENOMEM;
    th[0].v.index = r->pairs[d->pair].bad.index;
    th[0].v.sy = th[0].sy;
    rc = walk_thread(&c, &th[0]);
    const fcall *pc = rc == 0 ? poller(&c, &th[0], v) : NULL;
    if (pc) {
        c.poll_enter = pc->lo_ns;
        rc = setters(&c, r, &th[0], pc, &th[1], out);
    }
    ttdi_map_free(&c.writes);
    free(th);
    return rc < 0 ? rc : out->found;
}
