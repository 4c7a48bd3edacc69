/*
 * overlap.c - another thread's call in flight over the split (issue 33
 * item 4). Stage 3 explain of diff/STAGES (its header: explain.h).
 *
 * Design. A callback that runs before its caller clears a flag leaves a
 * window: while the callback runs, the flag still says "a callback is
 * coming", and another thread that looks at it then is told nothing is
 * needed:
 *
 *     loop:      dispatch() { if (!pending) return; on_wake(); pending = 0; }
 *     producer:  send()     { if (pending) return; pending = 1; wake(); }
 *
 * When the producer's send comes while on_wake still runs, it is folded
 * away and its message is never handled. The trace shows the split in the
 * producer's send (the good run wakes, the bad run does not); the plain
 * rules name that branch. The branch acted rightly on what it read; the
 * cause is the call the split's thread ran inside: dispatch, entered before
 * the split and not yet returned, which writes what the branch read after
 * the split. This rule names it when all of these hold, and only then
 * (the verdict asks when its best cause is the split's own branch):
 *   - what the split reads: the writable globals the code of the
 *     split's frame (the innermost call open at the split in its thread,
 *     with its direct callees, format's ttf_sym_code_globals) reads, and
 *     the struct fields it reads through its pointer parameters (format's
 *     ttf_sym_code_fields: the pointed-to type from DWARF and the
 *     offset); none named, no cause (the rule stops before walking any
 *     other thread);
 *   - the window: a call C of another thread B of the bad run open at the
 *     split's time (entered before, not returned), while in the good run,
 *     at the paired point (the split's time there), the same call was not
 *     open: it had returned, or it had not begun. B's calls up to both
 *     points must be the same in both runs (no hunk of B's pair before
 *     either point: the calls are then the same events by position), and
 *     the same call is the same position: walking the run that is behind
 *     from its point to the other's, the calls of B's stack at the split
 *     deeper than the lowest depth reached are the ones that differ;
 *   - C writes what the split reads: C's own code writes one of those
 *     globals, or the same offset of the same struct type through a
 *     pointer parameter, or a call B made inside C after the split
 *     (before C returned) does. A field matches by type, not by object:
 *     two threads that touch the same field of the same struct type with
 *     no lock both hold is the shape of a data race on a heap object (an
 *     event loop's handle, a connection's state), but the two pointers
 *     may point to different objects of that type; the innermost such C, past lock wrappers
 *     (ttdi_lock_wrapper: a lock takes no decision, its caller does);
 *   - nothing orders the two: the split's frame's call (up to the split)
 *     and C hold no mutex in common at any time during them (diff/flagrace.c
 *     ttdi_flag_unordered: calls that overlap in time are otherwise
 *     unordered).
 * Then the verdict names C (kind `race`: the read and the write are
 * unordered, and the runs' timings put the read inside C in the bad run
 * and after it in the good run), its thread, the split's frame and the
 * global or field; it is "possible" (the trace shows no memory access,
 * the code names the global only where an operand does, and a field is
 * a may-alias by type).
 * Costs. Only when its cheap preconditions hold (a split, two threads or
 * more, sync records, a global named by the split frame's code): each
 * other thread is read by run walks from the marks the thread order left
 * a 64th of the way before the split (ttdi_walk_open_at), to the split's
 * time in each run (at most OV_BEFORE events from the mark), and the bad
 * run on from there until B's calls open at the split have returned, at
 * most OV_AFTER events (past either, no cause in that thread: it cannot
 * tell). The split thread is read from the
 * timing scan's pin before its split to the split.
 * Limits. A window whose calls differ in B before the split (a hunk) is
 * not judged; happens-before is by locks held in both calls only (the
 * calls overlap, so an edge between them cannot order a read inside C
 * against C's write after it).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"

#define OV_AFTER (1u << 16)     /* events read past the split, at most */
#define OV_BEFORE (1u << 20)    /* events read from a mark to the split */
#define OV_SYNCS 4096           /* sync records kept per thread */
#define OV_GLOBALS 32           /* globals and fields a function names, kept */
#define OV_DEPTH 256            /* frames of a stack looked at */

/* What the code names: a global by module and link-time address, or a
 * struct field by type and offset (type NULL for a global). */
typedef struct oglobal {
    long module;
    uint64_t addr;
    const char *type;
    int64_t off;
} oglobal;

/* 1 if a and b are the same global, or the same field of one type. */
static int same_state(const oglobal *a, const oglobal *b)
{
    if (!a->type || !b->type)
        return !a->type && !b->type && a->module == b->module && a->addr == b->addr;
    return a->off == b->off && !strcmp(a->type, b->type);
}

typedef struct octx {
    const ttdi_in *in;
    const ttd_result *r;
    ttdi_run_state *run;        /* the bad run */
    uint64_t until;             /* the split's time in the bad run */
    oglobal g[OV_GLOBALS];      /* what the split's frame reads */
    size_t ng;
    ttdi_map writes;            /* function address -> 1 writes one of g, 2 not */
    int oom;
    ttdi_flag_sync sy[OV_SYNCS];
} octx;

/* ---- the pick (unit-tested on hand-made frames) --------------------------- */

int ttdi_overlap_pick(const ttdi_flag_view *a, const ttdi_flag_call *ac,
                      const ttdi_flag_view *b, const ttdi_ov_frame *f, size_t n)
{
    for (size_t i = n; i-- > 0;) {
        const ttdi_ov_frame *c = &f[i];
        if (c->in_good || !c->writes || c->wrapper || c->enter_ns > ac->exit_ns ||
            c->exit_ns <= ac->exit_ns)
            continue;
        ttdi_flag_call cc = {c->enter_ns, c->exit_ns};
        return ttdi_flag_unordered(a, ac, b, &cc) ? (int)i : -1;
    }
    return -1;
}

/* ---- what the code reads and writes ---------------------------------------- */

/* The writable globals function addr (time ns) names with access acc,
 * then the struct fields it reaches through its pointer parameters
 * (ttf_sym_code_fields), at most OV_GLOBALS in all. */
static size_t globals_of(octx *c, uint64_t addr, uint64_t ns, unsigned acc, oglobal *out)
{
    ttf_code_global cg[OV_GLOBALS];
    ttf_code_field cf[OV_GLOBALS];
    const ttf_code_info *ci;
    ttdi_norm *n = &c->run->norm;
    size_t k = 0, kf = 0, m = 0;
    long mi = ttdi_module_at(n, addr, ns);

    if (mi < 0 || ttf_sym_code(n->sym, (size_t)mi, &ci) != 0 || addr < ci->bias ||
        ttf_sym_code_globals(n->sym, (size_t)mi, addr - ci->bias, cg, OV_GLOBALS, &k) != 0)
        return 0;
    for (size_t i = 0; i < k && i < OV_GLOBALS; i++)
        if (cg[i].access & acc)
            out[m++] = (oglobal){mi, cg[i].addr, NULL, 0};
    if (ttf_sym_code_fields(n->sym, (size_t)mi, addr - ci->bias, cf, OV_GLOBALS, &kf) != 0)
        return m;
    for (size_t i = 0; i < kf && i < OV_GLOBALS && m < OV_GLOBALS; i++)
        if (cf[i].access & acc)
            out[m++] = (oglobal){mi, 0, cf[i].type, cf[i].offset};
    return m;
}

/* 1 if function addr writes one of the split's globals (cached). */
static int writes_read(octx *c, uint64_t addr, uint64_t ns)
{
    oglobal f[OV_GLOBALS];
    int added = 0;
    uint64_t *v = ttdi_map_put(&c->writes, addr, &added);

    if (!v) {
        c->oom = 1;
        return 0;
    }
    if (added) {
        size_t k = globals_of(c, addr, ns, TTF_GLOBAL_WRITE, f);
        *v = 2;
        for (size_t i = 0; i < k && *v == 2; i++)
            for (size_t j = 0; j < c->ng; j++)
                if (same_state(&f[i], &c->g[j]))
                    *v = 1;
    }
    return *v == 1;
}

/* The name of a global of the split's that function addr writes, or of
 * a field ("+0x78 of struct T", *field 1). */
static const char *global_name(octx *c, uint64_t addr, uint64_t ns, int *field)
{
    oglobal f[OV_GLOBALS];
    const ttf_code_info *ci;
    char buf[320];
    size_t k = globals_of(c, addr, ns, TTF_GLOBAL_WRITE, f);

    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < c->ng; j++) {
            if (!same_state(&f[i], &c->g[j]))
                continue;
            *field = f[i].type != NULL;
            if (f[i].type) {
                snprintf(buf, sizeof buf, "%s0x%" PRIx64 " of a `%s`", f[i].off < 0 ? "-" : "+",
                         f[i].off < 0 ? -(uint64_t)f[i].off : (uint64_t)f[i].off, f[i].type);
                return ttfi_arena_strcpy(c->in->arena, buf);
            }
            if (ttf_sym_code(c->run->norm.sym, (size_t)f[i].module, &ci) == 0) {
                const char *nm = ttf_sym_name(c->run->norm.sym, f[i].addr + ci->bias);
                return nm ? ttfi_arena_strcpy(c->in->arena, nm) : NULL;
            }
        }
    return NULL;
}

/* ---- the walks ------------------------------------------------------------- */

/* Thread th's sync records up to the split (the run walks' records) into
 * c->sy; their number, or -1 when the run walks did not read so far. */
static long syncs_to_split(octx *c, uint32_t th)
{
    const ttdi_syncrec *rec;
    size_t n = 0, k = 0;

    if (!ttdi_walk_syncs(c->run, th, c->until, &rec, &n))
        return -1;
    for (size_t i = 0; i < n && k < OV_SYNCS; i++)
        if (!TTDI_SOP_ASIDE(ttdi_sr_code(&rec[i])))
            c->sy[k++] = (ttdi_flag_sync){ttdi_sr_ns(c->run->t, &rec[i]), rec[i].addr,
                                          rec[i].sync_arg, ttdi_sr_code(&rec[i])};
    return (long)k;
}

/* Open a run walk of thread th of run r at the last mark before ns and
 * read to its first event later than ns, or its kept event idx (the
 * split's own thread: the split's event) (w->stack: the calls open then,
 * w->idx the kept events before). 1, 0 at the thread's end (the same),
 * 2 when that took more than OV_BEFORE events, or a TT_E* code (with
 * 2 and a code, w closed). */
static int walk_to(ttdi_walk *w, ttdi_run_state *r, uint32_t th, uint64_t ns, uint64_t idx)
{
    int rc = ttdi_walk_open_at(w, r, th, idx, ns, 0);
    uint64_t n = 0;

    if (rc < 0)
        return rc;
    while ((rc = ttdi_walk_next(w)) > 0 && w->ev.time_ns <= ns && !(w->kept && w->idx >= idx))
        if (++n > OV_BEFORE) {
            rc = 2;     /* no mark near enough: it cannot tell */
            break;
        }
    if (rc < 0 || rc == 2)
        ttdi_walk_close(w);
    return rc;
}

/* Read walk w on (it stands at an event; rc its answer) until its kept
 * index reaches idx: the lowest depth its stack had. *low SIZE_MAX when
 * it could not get there (the end, OV_AFTER). */
static int lowest_to(ttdi_walk *w, int rc, uint64_t idx, size_t *low)
{
    size_t lo = w->nstack;
    uint64_t n = 0;

    for (; rc > 0 && w->idx < idx; rc = ttdi_walk_next(w)) {
        if (++n > OV_AFTER) {
            *low = SIZE_MAX;
            return 0;
        }
        size_t k = ttdi_walk_depth_after(w);
        if (k < lo)
            lo = k;
    }
    *low = rc < 0 || w->idx < idx ? SIZE_MAX : lo;
    return rc < 0 ? rc : 0;
}

uint64_t ttdi_pair_parts(const ttd_result *r, size_t p)
{
    uint64_t lo = UINT64_MAX;

    for (size_t i = 0; i < r->nhunks; i++)
        if (r->hunks[i].pair == p) {
            uint64_t k = r->hunks[i].good_index < r->hunks[i].bad_index ? r->hunks[i].good_index
                                                                        : r->hunks[i].bad_index;
            if (k < lo)
                lo = k;
        }
    return lo;
}

/* One other thread B at the split: its calls open then in the bad run
 * (f: which of them the good run had not open at the paired point, what
 * they write, when they returned), and the function whose code writes
 * the split's global for each (its own, or a call made inside it). */
typedef struct othread {
    ttdi_ov_frame f[OV_DEPTH];
    uint64_t addr[OV_DEPTH], by[OV_DEPTH], by_ns[OV_DEPTH];
    size_t n;
} othread;

/* The bad walk w (at the first event after the split; rc) read on: the
 * lowest depth of B's stack until its kept index reaches ng (*low, when
 * the good run was further: what B returned from since), and on until
 * B's calls open at the split from that depth have returned, at most
 * OV_AFTER events: each one's return, and whether a call it made after
 * the split writes the split's globals; B's syncs after the split
 * appended to c->sy (from *nsy). *low SIZE_MAX when it could not tell. */
static int after_split(octx *c, ttdi_walk *w, int rc, othread *o, uint64_t ng, size_t *low,
                       size_t *nsy)
{
    size_t m = o->n, lo = *low;
    uint64_t n = 0;

    for (; rc > 0 && !c->oom; rc = ttdi_walk_next(w)) {
        const ttf_event *e = &w->ev;
        int behind = w->idx < ng;
        if (!behind && m <= lo)
            break;
        if (++n > OV_AFTER) {
            if (behind)
                lo = SIZE_MAX;
            break;
        }
        if (e->kind == TTF_EV_SYNC_OP) {
            if (*nsy < OV_SYNCS && !TTDI_SOP_ASIDE(e->code))
                c->sy[(*nsy)++] = (ttdi_flag_sync){e->time_ns, e->addr, e->sync_arg, e->code};
            continue;
        }
        if (!w->pending || (e->kind != TTF_EV_EXIT && e->kind != TTF_EV_ENTER))
            continue;
        size_t k = ttdi_walk_depth_after(w);
        if (behind && k < lo)
            lo = k;
        if (e->kind == TTF_EV_EXIT && k >= m && m && !o->f[m - 1].writes &&
            writes_read(c, e->addr, e->time_ns)) {
            o->f[m - 1].writes = 1;     /* a call made inside B's open call */
            o->by[m - 1] = e->addr;
            o->by_ns[m - 1] = e->time_ns;
        }
        for (; m > k; m--)
            o->f[m - 1].exit_ns = e->time_ns;
    }
    if (rc <= 0 && w->idx < ng)
        lo = SIZE_MAX;
    *low = lo;
    return rc < 0 ? rc : 0;
}

/* B (pair p) at the split into o. 1 when judged, 0 when it cannot tell,
 * or a TT_E* code. */
static int other_thread(octx *c, size_t p, othread *o, size_t *nsy)
{
    const ttd_result *r = c->r;
    const ttd_divergence *d = r->first;
    uint32_t tb = r->pairs[p].bad.index, tg = r->pairs[p].good.index;
    ttdi_walk wb, wg;
    size_t low = SIZE_MAX;
    long ns0 = syncs_to_split(c, tb);
    int rc, rg;

    if (ns0 < 0)
        return 0;
    *nsy = (size_t)ns0;
    if ((rc = walk_to(&wb, c->run, tb, c->until, UINT64_MAX)) < 0 || rc == 2)
        return rc == 2 ? 0 : rc;
    o->n = wb.nstack < OV_DEPTH ? wb.nstack : OV_DEPTH;
    for (size_t i = 0; i < o->n; i++) {
        ttdi_frame_id *fi = &wb.stack[i];
        const char *nm = ttdi_walk_frame_name(&wb, fi);
        int wr = fi->addr && writes_read(c, fi->addr, fi->time_ns);
        o->addr[i] = o->by[i] = fi->addr;
        o->by_ns[i] = fi->time_ns;
        o->f[i] = (ttdi_ov_frame){nm ? nm : "?", fi->time_ns, UINT64_MAX, 0, wr,
                                  nm && ttdi_lock_wrapper(nm)};
    }
    uint64_t nb = wb.idx;
    if ((rg = walk_to(&wg, &c->in->r[TTD_GOOD], tg, d->good_time_ns, UINT64_MAX)) < 0 ||
        rg == 2) {
        ttdi_walk_close(&wb);
        return rg == 2 ? 0 : rg;
    }
    uint64_t ng = wg.idx;
    if (ttdi_pair_parts(r, p) >= (nb > ng ? nb : ng) && o->n) {
        if (ng > nb)    /* the good run was further: what B returned from since */
            low = o->n;
        else            /* the bad run was: what B entered since the good's point */
            rg = lowest_to(&wg, rg, nb, &low);
    }
    ttdi_walk_close(&wg);
    if (rg >= 0 && low != SIZE_MAX)
        rc = after_split(c, &wb, rc, o, ng > nb ? ng : 0, &low, nsy);
    ttdi_walk_close(&wb);
    if (c->oom)
        return TT_ENOMEM;
    if (rc < 0 || rg < 0)
        return rc < 0 ? rc : rg;
    for (size_t i = 0; i < o->n; i++)
        o->f[i].in_good = i < low;
    return low != SIZE_MAX && low < o->n;
}

static const char *thread_text(octx *c, uint32_t idx)
{
    return ttdi_thread_label(c->run, c->in->arena, idx);
}

/* The split's thread: its frame at the split (function, entry) and its
 * globals read into c->g; its syncs into sy. 1, 0 if none named, or a
 * TT_E* code. */
static int split_frame(octx *c, uint32_t ta, ttdi_flag_sync *sy, size_t *nsy,
                       ttdi_flag_call *call, uint64_t *addr, const char **name)
{
    ttdi_walk w;
    int rc = walk_to(&w, c->run, ta, c->until, c->r->first->bad_index);
    long k;

    if (rc < 0 || rc == 2)
        return rc == 2 ? 0 : rc;
    if (w.nstack) {
        ttdi_frame_id *f = &w.stack[w.nstack - 1];
        *addr = f->addr;
        *name = ttdi_walk_frame_name(&w, f);
        *call = (ttdi_flag_call){f->time_ns, c->until};
        c->ng = f->addr ? globals_of(c, f->addr, f->time_ns, TTF_GLOBAL_READ, c->g) : 0;
    }
    ttdi_walk_close(&w);
    if (!c->ng || !*name || (k = syncs_to_split(c, ta)) < 0)
        return 0;
    memcpy(sy, c->sy, (size_t)k * sizeof *sy);
    *nsy = (size_t)k;
    return 1;
}

int ttdi_overlap_find(const ttdi_in *in, const ttd_result *r, ttdi_overlap *out)
{
    const ttd_divergence *d = r ? r->first : NULL;
    octx *c;
    othread *o;
    ttdi_flag_sync *asy;
    ttdi_flag_call ac = {0, 0};
    uint64_t aaddr = 0;
    const char *aname = NULL;
    size_t nasy = 0;
    int rc = 0;

    memset(out, 0, sizeof *out);
    if (!in || !d || d->pair >= r->npairs || !d->good_time_ns || !d->bad_time_ns ||
        in->r[TTD_BAD].nt < 2 ||
        !(ttf_get_header(in->r[TTD_BAD].t)->optional_features & TTF_HEADER_SYNC))
        return 0;
    c = calloc(1, sizeof *c);
    o = calloc(1, sizeof *o);
    asy = calloc(OV_SYNCS, sizeof *asy);
    if (!c || !o || !asy) {
        free(c);
        free(o);
        free(asy);
        return TT_ENOMEM;
    }
    c->in = in;
    c->r = r;
    c->run = &in->r[TTD_BAD];
    c->until = d->bad_time_ns;
    uint32_t ta = r->pairs[d->pair].bad.index;
    rc = split_frame(c, ta, asy, &nasy, &ac, &aaddr, &aname);
    for (size_t p = 0; rc == 1 && p < r->npairs && !out->found; p++) {
        size_t nsy = 0;
        if (p == d->pair || r->pairs[p].bad.index == ta)
            continue;
        int k = other_thread(c, p, o, &nsy);
        if (k < 0) {
            rc = k;
            break;
        }
        ttdi_flag_view av = {ta, asy, nasy}, bv = {r->pairs[p].bad.index, c->sy, nsy};
        int i = k ? ttdi_overlap_pick(&av, &ac, &bv, o->f, o->n) : -1;
        if (i < 0)
            continue;
        const ttdi_ov_frame *f = &o->f[i];
        int field = 0;
        const char *gl = global_name(c, o->by[i], o->by_ns[i], &field);
        *out = (ttdi_overlap){1, f->name, thread_text(c, r->pairs[p].bad.index), (int64_t)p,
                              aname, thread_text(c, ta), (int64_t)d->pair, gl, NULL,
                              f->enter_ns, f->exit_ns, c->until, field};
        if (o->by[i] != o->addr[i])     /* written by a call made inside it */
            out->writer = ttdi_norm_func_at(&c->run->norm, o->by[i], 0, o->by_ns[i]);
    }
    ttdi_map_free(&c->writes);
    free(c);
    free(o);
    free(asy);
    return rc < 0 ? rc : out->found;
}
