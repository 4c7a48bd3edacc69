/*
 * walk.c - the engine's passes over one thread, on the one trace walker
 * (walker.c): a pass records the events at the key indices a report asks
 * for, the stack at a split and the suspects' ring, and turns walked
 * events into report events (ttdi_walk_fill).
 * Stage 2 resolve of diff/STAGES (its header: resolve.h).
 */
#include <stdlib.h>
#include <string.h>

#include "resolve.h"

/* Turn the walk's current event into a report event (strings in the arena). */
int ttdi_walk_fill(const ttdi_in *in, ttdi_walk *w, ttd_event *out)
{
    const ttf_event *ev = &w->ev;

    memset(out, 0, sizeof *out);
    out->kind = ev->kind;
    out->thread = ev->thread;
    out->index = w->idx;
    out->time_ns = ev->time_ns;
    out->early_ns = ttf_event_early_ns(ev);
    out->late_ns = ttf_event_late_ns(ev);
    out->depth = ev->depth;
    if (ev->kind == TTF_EV_ENTER || ev->kind == TTF_EV_EXIT) {
        char v[512];
        out->name = ttdi_norm_func(&w->r->norm, ev);
        if (ev->kind == TTF_EV_ENTER && ev->call_site && w->r->norm.site_on &&
            ttdi_norm_site_text(&w->r->norm, ev, v, sizeof v)[0] &&
            !(out->from = ttfi_arena_strcpy(in->arena, v)))
            return TT_ENOMEM;
        if (!in->values || !ttdi_values_text(&w->r->norm, ev, v, sizeof v))
            return 0;
        out->value = ttfi_arena_strcpy(in->arena, v);
        return out->value ? 0 : TT_ENOMEM;
    }
    if (ev->kind == TTF_EV_CRASH) {
        char sig[24];
        out->name = w->nstack ? ttdi_walk_frame_name(w, &w->stack[w->nstack - 1]) : NULL;
        out->text = ttfi_arena_strcpy(in->arena,
                                      ttfi_signal_name(ev->signo, sig, sizeof sig));
        out->signo = ev->signo;
        out->fault_addr = ev->fault_addr;
        return out->text ? 0 : TT_ENOMEM;
    }
    const ttf_callsite *cs = ttf_get_callsite(w->r->t, ev->site);
    out->name = cs && cs->func ? cs->func : "";
    out->text = ttfi_arena_strcpy(in->arena, ttdi_norm_text(&w->r->norm, ev));
    return out->text ? 0 : TT_ENOMEM;
}

/* 1 if events ev[0..n) hold an enter of function name. */
static int enters(const ttd_event *ev, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (ev[i].kind == TTF_EV_ENTER && ev[i].name && name && !strcmp(ev[i].name, name))
            return 1;
    return 0;
}

static void trim_side(ttd_event *ev, size_t n, const ttd_event *other, size_t no)
{
    for (size_t i = 0; i < n; i++)
        if (ev[i].from && !enters(other, no, ev[i].name))
            ev[i].from = NULL;
}

void ttdi_sites_trim(ttd_event *g, size_t ng, ttd_event *b, size_t nb, ttd_event *c,
                     size_t nc, ttd_event *crash)
{
    for (size_t i = 0; c && i < nc; i++)
        c[i].from = NULL;
    if (crash)
        crash->from = NULL;
    if (g)
        trim_side(g, ng, b, b ? nb : 0);
    if (b)
        trim_side(b, nb, g, g ? ng : 0);
}

void ttdi_sites_trim_pair(ttd_event *good, ttd_event *bad)
{
    int same = good && bad && good->kind == TTF_EV_ENTER && bad->kind == TTF_EV_ENTER &&
               good->name && bad->name && !strcmp(good->name, bad->name);
    if (good && !same)
        good->from = NULL;
    if (bad && !same)
        bad->from = NULL;
}

static int req_cmp(const void *x, const void *y)
{
    const ttdi_req *a = x, *b = y;
    return a->lo < b->lo ? -1 : a->lo > b->lo;
}

static void keep_ring(ttdi_walk *w, ttdi_pass_spec *ps)
{
    const ttdi_sus_ev *prev = ps->nring ? &ps->ring[(ps->nring - 1) % ps->ringcap] : NULL;
    int leaf = prev && w->ev.kind == TTF_EV_EXIT && prev->kind == TTF_EV_ENTER &&
               prev->addr == (w->ev.site ? 0 : w->ev.addr) && prev->site == w->ev.site;
    ttdi_sus_ev *e = &ps->ring[ps->nring++ % ps->ringcap];

    e->leaf = leaf;
    e->has_values = w->ev.has_values;
    e->retval = w->ev.retval;
    e->idx = w->idx;
    e->kind = w->ev.kind;
    e->nstack = w->nstack;
    e->addr = w->ev.site ? 0 : w->ev.addr;
    e->time_ns = w->ev.time_ns;
    e->site = w->ev.site;
    e->name = w->ev.kind == TTF_EV_EXIT ? ttdi_norm_func(&w->r->norm, &w->ev) : NULL;
}

static int snapshot(ttdi_walk *w, ttdi_pass_spec *ps)
{
    if (ps->stack || ps->stack_at == UINT64_MAX)
        return 0;
    ps->stack = malloc((w->nstack + 1) * sizeof *ps->stack);
    if (!ps->stack)
        return TT_ENOMEM;
    for (size_t i = 0; i < w->nstack; i++)
        ttdi_walk_frame_name(w, &w->stack[i]);
    if (w->nstack)
        memcpy(ps->stack, w->stack, w->nstack * sizeof *ps->stack);
    ps->nstack = w->nstack;
    memset(&ps->at, 0, sizeof ps->at);
    if (w->kept && w->idx == ps->stack_at) {
        ps->at.kind = w->ev.kind;
        ps->at.addr = w->ev.site ? 0 : w->ev.addr;
        ps->at.call_site = w->ev.kind == TTF_EV_ENTER ? w->ev.call_site : 0;
        ps->at.time_ns = w->ev.time_ns;
    }
    return 0;
}

static int record(const ttdi_in *in, ttdi_walk *w, ttdi_pass_spec *ps)
{
    while (ps->first < ps->nrq && ps->rq[ps->first].hi <= w->idx)
        ps->first++;
    for (size_t i = ps->first; i < ps->nrq && ps->rq[i].lo <= w->idx; i++) {
        ttdi_req *q = &ps->rq[i];
        if (w->idx >= q->hi)
            continue;
        int rc = ttdi_walk_fill(in, w, &q->out[w->idx - q->lo]);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* Lowest key index ps needs the walk to read (its ring included). */
uint64_t ttdi_pass_low(const ttdi_pass_spec *ps)
{
    uint64_t low = ps->stack_at;

    if (ps->ring && low != UINT64_MAX)
        low = low > ps->ringcap ? low - ps->ringcap : 0;
    for (size_t i = 0; i < ps->nrq; i++)
        if (ps->rq[i].lo < ps->rq[i].hi && ps->rq[i].lo < low)
            low = ps->rq[i].lo;
    return low;
}

uint64_t ttdi_pass_begin(ttdi_pass_spec *ps)
{
    uint64_t stop = ps->stack_at == UINT64_MAX ? 0 : ps->stack_at + 1;

    qsort(ps->rq, ps->nrq, sizeof *ps->rq, req_cmp);
    for (size_t i = 0; i < ps->nrq; i++)
        stop = ps->rq[i].hi > stop ? ps->rq[i].hi : stop;
    ps->first = 0;
    return stop;
}

int ttdi_pass_take(const ttdi_in *in, ttdi_walk *w, ttdi_pass_spec *ps)
{
    int rc;

    if (ps->ring && w->idx < ps->stack_at)
        keep_ring(w, ps);
    if (w->idx == ps->stack_at && (rc = snapshot(w, ps)) < 0)
        return rc;
    return record(in, w, ps);
}

int ttdi_pass_end(ttdi_walk *w, ttdi_pass_spec *ps)
{
    return snapshot(w, ps);
}

int ttdi_pass_walk(const ttdi_in *in, ttdi_walk *w, ttdi_pass_spec *ps)
{
    uint64_t stop = ttdi_pass_begin(ps);
    int rc = 0, ended = 0;

    while (w->next < stop) {
        if ((rc = ttdi_walk_next(w)) <= 0) {
            ended = rc == 0;
            break;
        }
        if (w->kept && (rc = ttdi_pass_take(in, w, ps)) < 0)
            break;
    }
    if (rc < 0)
        return rc;
    rc = snapshot(w, ps); /* the split is at the very end */
    return rc < 0 ? rc : ended;
}

/* A pass reads values only from its low on (the events it records, its
 * ring, the stack at its split: the frames open there get their arguments
 * back by offset): before, a values trace's registers are stepped over
 * (ttdi_walk_values_from), from TTDI_PIN_BACK kept events before its low,
 * where it pins a mark for the details' walks (SUSPECT_WINDOW before the
 * split) that start after it. It starts at the latest mark before then,
 * an aside walk's too (pair_align.c: read without values while the tree
 * build read in step), ttdi_walk_open_values. */
int ttdi_pass_values_all;

int ttdi_run_pass(const ttdi_in *in, int ri, uint32_t thread, ttdi_pass_spec *ps)
{
    ttdi_walk w;
    uint64_t low = ttdi_pass_low(ps);
    int vals = in->values && !ttdi_pass_values_all && low != UINT64_MAX && low > TTDI_PIN_BACK;
    int rc = vals ? ttdi_walk_open_values(&w, &in->r[ri], thread, low - 1, low - TTDI_PIN_BACK)
                  : ttdi_walk_open_at(&w, &in->r[ri], thread, low - (low > 0), UINT64_MAX, 0);

    if (rc < 0)
        return rc;          /* (w closed) */
    rc = ttdi_pass_walk(in, &w, ps);
    ttdi_walk_close(&w);
    return rc < 0 ? rc : 0;
}
