/*
 * detail.c - the details of one hunk, computed when asked: its events,
 * the context before it, the common call stack, its suspects (suspects.c)
 * and what the other threads did up to the split.
 *
 * A report asks for the details of several hunks in index order (the HTML
 * page asks for up to 20). Each needs a pass over its pair's threads up to
 * the hunk and a pass over every other thread up to the split's time; done
 * from the start each time, a page over hunks spread along a long run read
 * the run many times over. So the walks stay open in d->wc and the next
 * detail resumes them when it needs nothing they have already passed (and
 * reopens them otherwise): what is computed is the same, read once.
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

#define CACHED_THREADS 64 /* threads per run whose walks are kept */

/* A walk over another thread, kept for the next detail. */
typedef struct other_walk {
    ttd_walk w;             /* the walk, valid if open */
    int open;               /* 1: w is open */
    int state;              /* 1: w.ev (time > limit) not yet taken; 2: ended */
    uint64_t limit;         /* time it was walked to */
    ring_ev *ring;          /* its last k kept events */
    size_t n;               /* kept events put in ring */
} other_walk;

/* The walks d->wc keeps (see the essay). */
struct ttd_walk_cache {
    ttd_walk pass[2][CACHED_THREADS]; /* per run and thread: detail passes */
    int pass_open[2][CACHED_THREADS]; /* 1: pass[ri][th] is open */
    other_walk oth[2][CACHED_THREADS]; /* per run and thread: others() walks */
};

static void other_close(other_walk *o)
{
    if (o->open)
        ttd_walk_close(&o->w);
    free(o->ring);
    memset(o, 0, sizeof *o);
}

void ttd_walk_cache_free(ttd_diff *d)
{
    if (!d->wc)
        return;
    for (int ri = 0; ri < 2; ri++) {
        for (size_t i = 0; i < CACHED_THREADS; i++) {
            if (d->wc->pass_open[ri][i])
                ttd_walk_close(&d->wc->pass[ri][i]);
            other_close(&d->wc->oth[ri][i]);
        }
    }
    free(d->wc);
    d->wc = NULL;
}

static struct ttd_walk_cache *cache(ttd_diff *d)
{
    if (!d->wc)
        d->wc = calloc(1, sizeof *d->wc);
    return d->wc;
}

/* ttd_run_pass, resuming the kept walk of run ri when it can. */
static int cached_pass(ttd_diff *d, int ri, uint32_t th, ttd_pass_spec *ps)
{
    struct ttd_walk_cache *c = th < CACHED_THREADS ? cache(d) : NULL;
    int rc;

    if (!c)
        return th < CACHED_THREADS ? TT_ENOMEM : ttd_run_pass(d, ri, th, ps);
    ttd_walk *w = &c->pass[ri][th];
    int *open = &c->pass_open[ri][th];
    if (*open && w->next > ttd_pass_low(ps)) {
        ttd_walk_close(w);
        *open = 0;
    }
    if (!*open) {
        if ((rc = ttd_walk_open(w, &d->r[ri], th)) < 0)
            return rc;
        *open = 1;
    }
    rc = ttd_pass_walk(d, w, ps);
    if (rc != 0) { /* ended or failed: nothing to resume */
        ttd_walk_close(w);
        *open = 0;
    }
    return rc < 0 ? rc : 0;
}

/* Walk o on to time limit, putting kept events in its ring of k. */
static int other_advance(other_walk *o, uint64_t limit, size_t k)
{
    int rc = 1;

    o->limit = limit;
    if (o->state == 2)
        return 0;
    if (o->state == 1 && o->w.ev.time_ns > limit)
        return 0;
    if (o->state != 1)
        rc = ttd_walk_next(&o->w);
    for (; rc > 0; rc = ttd_walk_next(&o->w)) {
        if (o->w.ev.time_ns > limit) {
            o->state = 1;
            return 0;
        }
        if (!o->w.kept)
            continue;
        o->ring[o->n % k].ev = o->w.ev;
        o->ring[o->n % k].idx = o->w.idx;
        o->n++;
    }
    o->state = 2;
    return rc;
}

/* The kept walk of thread th of run ri, walked on to time limit; a fresh
 * one if it was past limit. NULL on error (*rc). */
static other_walk *other_at(ttd_diff *d, int ri, uint32_t th, uint64_t limit,
                            other_walk *own, int *rc)
{
    size_t k = d->o.other_events;
    struct ttd_walk_cache *c = th < CACHED_THREADS ? cache(d) : NULL;
    other_walk *o = c ? &c->oth[ri][th] : own;

    if (o->open && o->limit > limit)
        other_close(o);
    if (!o->open) {
        if (!(o->ring = malloc((k + 1) * sizeof *o->ring))) {
            *rc = TT_ENOMEM;
            return NULL;
        }
        if ((*rc = ttd_walk_open(&o->w, &d->r[ri], th)) < 0) {
            other_close(o);
            return NULL;
        }
        o->open = 1;
    }
    if ((*rc = other_advance(o, limit, k)) < 0) {
        other_close(o);
        return NULL;
    }
    return o;
}

static int last_events(ttd_diff *d, int ri, uint32_t th, uint64_t limit,
                       ttd_other *out)
{
    size_t k = d->o.other_events;
    other_walk own;
    int rc = 0;

    memset(&own, 0, sizeof own);
    other_walk *o = other_at(d, ri, th, limit, &own, &rc);
    if (!o)
        return rc;
    size_t m = o->n < k ? o->n : k;
    ttd_event *evs = ttfi_arena_zalloc(&d->arena, (m + 1) * sizeof *evs);
    if (!evs)
        rc = TT_ENOMEM;
    ttd_walk w = o->w; /* its stack as it stands; event from the ring */
    for (size_t i = 0; rc >= 0 && i < m; i++) {
        const ring_ev *re = &o->ring[(o->n - m + i) % k];
        w.ev = re->ev;
        w.idx = re->idx;
        rc = ttd_walk_fill(d, &w, &evs[i]);
    }
    if (o == &own)
        other_close(o);
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
    int rc = 0;

    if (!o)
        return TT_ENOMEM;
    for (size_t i = 0; k && i < r->nt && n < MAX_OTHERS; i++) {
        const ttf_thread *th = ttf_get_thread(r->t, i);
        if (i == skip || !th || th->start_ns > limit)
            continue;
        o[n].thread = (uint32_t)i;
        o[n].name = r->ti[i].name;
        if ((rc = last_events(d, ri, (uint32_t)i, limit, &o[n])) < 0)
            break;
        n += o[n].nevents > 0;
    }
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
        if ((rc = cached_pass(d, s, p->t[s], &ps[s])) < 0)
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

