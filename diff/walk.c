/*
 * walk.c - the engine's passes over one thread: a walk replays a thread's
 * events with the normaliser's filter and the running call stack, and one
 * pass records the events at the key indices a report asks for.
 * Stage 2 resolve of diff/STAGES (its header: resolve.h).
 */
#include <stdlib.h>
#include <string.h>

#include "resolve.h"

int ttdi_walk_open(ttdi_walk *w, ttdi_run_state *r, uint32_t thread)
{
    memset(w, 0, sizeof *w);
    w->r = r;
    return ttf_iter_open(r->t, thread, &w->it);
}

void ttdi_walk_close(ttdi_walk *w)
{
    ttf_iter_close(w->it);
    free(w->stack);
    ttdi_openset_free(&w->open);
}

/* Frames up to which an EXIT that is not the innermost frame's looks for
 * its frame by scanning the stack; deeper, the open set counts the open
 * ids, so an EXIT with no open frame costs O(1) rather than a scan. */
#define SCAN_DEPTH 64

static int push(ttdi_walk *w, const ttf_event *ev)
{
    if (w->nstack == w->cap &&
        ttdi_grow(&w->stack, &w->cap, w->nstack + 1, sizeof *w->stack, 64) < 0)
        return TT_ENOMEM;
    if (w->nstack && w->kept && !ev->site) {
        ttdi_frame_id *up = &w->stack[w->nstack - 1];
        up->last_site = ev->call_site;
        up->last_addr = ev->addr;
        up->last_time = ev->time_ns;
    }
    ttdi_frame_id *f = &w->stack[w->nstack++];
    f->id = ev->site ? (ev->site | TTDI_SITE_BIT) : ev->addr;
    f->call_site = ev->call_site;
    f->last_site = f->last_addr = f->last_time = 0;
    f->addr = ev->site ? 0 : ev->addr;
    f->site = ev->site;
    f->time_ns = ev->time_ns;
    f->name = NULL; /* looked up when asked: frame_name() */
    f->has_values = ev->has_values;
    if (ev->has_values)
        memcpy(f->argregs, ev->argregs, sizeof f->argregs);
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
static void drop_to(ttdi_walk *w, size_t n)
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

/* Pop to the frame ev leaves; an exit with no matching frame (the trace
 * began inside it, or a longjmp) leaves the stack alone. Mostly it is the
 * innermost frame; else a scan, or the open counts when deep. */
static int pop(ttdi_walk *w, const ttf_event *ev)
{
    uint64_t id = ev->site ? (ev->site | TTDI_SITE_BIT) : ev->addr;
    size_t i = w->nstack;

    if (i && w->stack[i - 1].id == id) {
        drop_to(w, i - 1);
        return 0;
    }
    if (!w->live && i > SCAN_DEPTH && go_live(w) < 0)
        return TT_ENOMEM;
    if (w->live && !ttdi_openset_count(&w->open, id))
        return 0;
    while (i > 0 && w->stack[i - 1].id != id)
        i--;
    if (i > 0)
        drop_to(w, i - 1);
    return 0;
}

/* Next raw event: 1, 0 at the end, or a TT_E* code. */
int ttdi_walk_next(ttdi_walk *w)
{
    if (w->pending) {
        w->pending = 0;
        if (w->ev.kind == TTF_EV_ENTER && push(w, &w->ev) < 0)
            return TT_ENOMEM;
        if (w->ev.kind == TTF_EV_EXIT && pop(w, &w->ev) < 0)
            return TT_ENOMEM;
    }
    int rc = ttf_iter_next(w->it, &w->ev);
    if (rc <= 0)
        return rc;
    w->pending = w->ev.kind == TTF_EV_ENTER || w->ev.kind == TTF_EV_EXIT;
    rc = ttdi_norm_kept(&w->r->norm, &w->ev);
    if (rc < 0)
        return rc;
    w->kept = rc;
    w->idx = w->next;
    w->next += (uint64_t)rc;
    return 1;
}

/* The name of frame f, looked up on first use (the cache has it: its
 * ENTER went through the normaliser before). */
static const char *frame_name(ttdi_walk *w, ttdi_frame_id *f)
{
    if (!f->name)
        f->name = ttdi_norm_func_at(&w->r->norm, f->addr, f->site, f->time_ns);
    return f->name;
}

/* Turn the walk's current event into a report event (strings in the arena). */
int ttdi_walk_fill(const ttdi_in *in, ttdi_walk *w, ttd_event *out)
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
        out->name = w->nstack ? frame_name(w, &w->stack[w->nstack - 1]) : NULL;
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
        frame_name(w, &w->stack[i]);
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

int ttdi_run_pass(const ttdi_in *in, int ri, uint32_t thread, ttdi_pass_spec *ps)
{
    ttdi_walk w;
    int rc = ttdi_walk_open(&w, &in->r[ri], thread);

    if (rc < 0)
        return rc;
    rc = ttdi_pass_walk(in, &w, ps);
    ttdi_walk_close(&w);
    return rc < 0 ? rc : 0;
}
