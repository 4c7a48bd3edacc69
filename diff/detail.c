/*
 * detail.c - the details of one hunk, computed when asked: its events,
 * the context before it, the common call stack, its suspects (suspects.c)
 * and what the other threads did up to the split.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"

#define SUSPECT_WINDOW 4096 /* common events searched back from a split */

/* Source file and line of a function (addr) or scope (site) of the bad
 * run, through the module loaded at time_ns. */
void ttd_locate(ttd_diff *d, uint64_t addr, uint32_t site, uint64_t time_ns,
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
static const char *frame_args(ttd_diff *d, const ttd_frame_id *f)
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
    return ttfi_arena_strcpy(&d->arena, v);
}

/* Common prefix (by name) of the stacks before the split in both runs. */
static int common_stack(ttd_diff *d, const ttd_pass_spec *g, const ttd_pass_spec *b,
                        ttd_divergence *dv)
{
    size_t n = 0;

    while (n < g->nstack && n < b->nstack &&
           strcmp(g->stack[n].name, b->stack[n].name) == 0)
        n++;
    ttd_frame *fr = ttfi_arena_zalloc(&d->arena, (n + 1) * sizeof *fr);
    if (!fr)
        return TT_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        fr[i].name = b->stack[i].name;
        ttd_locate(d, b->stack[i].addr, b->stack[i].site, b->stack[i].time_ns,
               &fr[i].file, &fr[i].line);
        fr[i].args = frame_args(d, &b->stack[i]);
    }
    dv->stack = fr;
    dv->nstack = n;
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
    ttd_walk w;
    size_t n = 0;
    int rc = ttd_walk_open(&w, &d->r[ri], th);

    if (rc < 0)
        return rc;
    while ((rc = ttd_walk_next(&w)) > 0 && w.ev.time_ns <= limit) {
        if (!w.kept)
            continue;
        ring[n % k].ev = w.ev;
        ring[n % k].idx = w.idx;
        n++;
    }
    size_t m = n < k ? n : k;
    ttd_event *evs = rc < 0 ? NULL : ttfi_arena_zalloc(&d->arena, (m + 1) * sizeof *evs);
    if (rc >= 0 && !evs)
        rc = TT_ENOMEM;
    for (size_t i = 0; rc >= 0 && i < m; i++) {
        const ring_ev *re = &ring[(n - m + i) % k];
        w.ev = re->ev;
        w.idx = re->idx;
        rc = ttd_walk_fill(d, &w, &evs[i]);
    }
    ttd_walk_close(&w);
    out->events = evs;
    out->nevents = m;
    return rc < 0 ? rc : 0;
}

#define MAX_OTHERS 32

/* What the other threads of run ri did up to time limit. */
static int others(ttd_diff *d, int ri, uint32_t skip, uint64_t limit,
                  ttd_divergence *dv)
{
    ttd_run_state *r = &d->r[ri];
    size_t k = d->o.other_events, n = 0;
    ttd_other *o = ttfi_arena_zalloc(&d->arena, (MAX_OTHERS + 1) * sizeof *o);
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
    const ttd_ipair *p = &d->ip[h->pair];
    uint64_t ng = min64(h->good_count, d->o.max_lines);
    uint64_t nb = min64(h->bad_count, d->o.max_lines);
    uint64_t nctx = min64(d->o.context, h->bad_index);
    ttd_event *ev = ttfi_arena_zalloc(&d->arena, (ng + nb + nctx + 3) * sizeof *ev);
    ttd_event *probe = ev + ng + nb + nctx; /* [0] good, [1] bad, [2] crash */
    ttd_req rq[5];
    ttd_pass_spec ps[2] = {{rq, 0, h->good_index, NULL, 0, NULL, 0, 0},
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
    uint64_t gp = ng ? UINT64_MAX : ttd_probe_index(h->good_index, p->n[0]);
    uint64_t bp = nb ? UINT64_MAX : ttd_probe_index(h->bad_index, p->n[1]);
    ttd_add_req(rq, &ps[0].nrq, h->good_index, h->good_index + ng, ev);
    ttd_add_req(rq, &ps[0].nrq, gp, gp + 1, &probe[0]);
    ps[1].rq = rq + ps[0].nrq;
    ttd_add_req(ps[1].rq, &ps[1].nrq, h->bad_index - nctx, h->bad_index, before);
    ttd_add_req(ps[1].rq, &ps[1].nrq, h->bad_index, h->bad_index + nb, bad);
    ttd_add_req(ps[1].rq, &ps[1].nrq, bp, bp + 1, &probe[1]);
    int crashed = p->crash >= h->bad_index && p->crash < h->bad_index + h->bad_count;
    if (crashed)
        ttd_add_req(ps[1].rq, &ps[1].nrq, p->crash, p->crash + 1, &probe[2]);
    probe[0].time_ns = ttf_get_thread(d->r[TTD_GOOD].t, p->t[0])->start_ns;
    probe[1].time_ns = ttf_get_thread(d->r[TTD_BAD].t, p->t[1])->start_ns;
    for (int s = 0; s < 2; s++)
        if ((rc = ttd_run_pass(d, s, p->t[s], &ps[s])) < 0)
            goto out;
    dv->good_time_ns = ng ? dv->good[0].time_ns : probe[0].time_ns;
    dv->bad_time_ns = nb ? dv->bad[0].time_ns : probe[1].time_ns;
    dv->crash = crashed ? &probe[2] : NULL;
    if ((rc = common_stack(d, &ps[0], &ps[1], dv)) < 0 ||
        (rc = ttd_suspects(d, p, &ps[1], dv)) < 0)
        goto out;
    if ((rc = others(d, TTD_GOOD, p->t[0], dv->good_time_ns, dv)) < 0)
        goto out;
    if ((rc = others(d, TTD_BAD, p->t[1], dv->bad_time_ns, dv)) < 0)
        goto out;
    rc = ttd_noise_of(&d->arena, dv);
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
        ttd_divergence *dv = ttfi_arena_zalloc(&d->arena, sizeof *dv);
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

