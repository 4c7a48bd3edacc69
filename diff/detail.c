/*
 * detail.c - the details of one hunk, computed when asked: its events,
 * the context before it, the common call stack, its suspects (suspects.c)
 * and what the other threads did up to the split.
 * Stage 2 resolve of diff/STAGES (its header: resolve.h).
 *
 * A report may ask for the details of several hunks (the HTML page asks
 * for up to 20). Each needs a pass over its pair's threads up to the hunk
 * (by key index) and the last events of every other thread up to the
 * split's time. Hunk by hunk, a page over hunks spread along a long run
 * read each thread twice (once by index, once by time) or many times. So
 * a batch of hunks is detailed together: every thread of each run is
 * walked once, in thread order, and that one walk serves all the passes
 * on it (sorted by where they start) and all the other-thread requests
 * (sorted by time). The times are known before any walk: ttdi_resolve put
 * them in the hunk info. What is computed is what a walk per request
 * would compute. A walk starts at the latest mark an earlier run walk of
 * the thread left (walker.c: the timing scan of the split thread, a batch
 * before) that is early enough for its passes and its other-thread rings.
 * For the first divergence the engine asks in two steps (ttdi_detail_own,
 * then ttdi_detail_others after the thread order, whose run walks of the
 * other threads leave the marks their last events are read from).
 */
#include <stdlib.h>
#include <string.h>

#include "codediff.h"
#include "resolve.h"

#define SUSPECT_WINDOW 4096 /* common events searched back from a split */

/* The arguments of a frame of the bad run as text, NULL if unknown. */
static const char *frame_args(const ttdi_in *in, const ttdi_frame_id *f)
{
    ttf_event ev;
    char v[512];

    if (!in->values || !f->has_values || f->site)
        return NULL;
    memset(&ev, 0, sizeof ev);
    ev.kind = TTF_EV_ENTER;
    ev.addr = f->addr;
    ev.time_ns = f->time_ns;
    ev.has_values = 1;
    memcpy(ev.argregs, f->argregs, sizeof ev.argregs);
    if (!ttdi_values_text(&in->r[TTD_BAD].norm, &ev, v, sizeof v))
        return NULL;
    return ttfi_arena_strcpy(in->arena, v);
}

/* Common prefix (by name) of the stacks before the split in both runs. */
static int common_stack(const ttdi_in *in, const ttdi_pass_spec *g, const ttdi_pass_spec *b,
                        ttd_divergence *dv)
{
    size_t n = 0;

    while (n < g->nstack && n < b->nstack &&
           strcmp(g->stack[n].name, b->stack[n].name) == 0)
        n++;
    ttd_frame *fr = ttfi_arena_zalloc(in->arena, (n + 1) * sizeof *fr);
    if (!fr)
        return TT_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        fr[i].name = b->stack[i].name;
        ttdi_norm_locate(&in->r[TTD_BAD].norm, b->stack[i].addr, b->stack[i].site,
                         b->stack[i].time_ns, &fr[i].file, &fr[i].line);
        fr[i].args = frame_args(in, &b->stack[i]);
        fr[i].code_changed = ttdi_codediff_changed(in->cd, fr[i].name) == 1;
    }
    dv->stack = fr;
    dv->nstack = n;
    return 0;
}

#define MAX_OTHERS 32 /* other threads shown per run */
#define BATCH TTDI_DETAIL_BATCH /* hunks detailed by one set of walks (each holds a
                         suspects ring of SUSPECT_WINDOW events) */

/* One hunk being detailed. */
typedef struct job {
    ttd_divergence *dv;     /* its details, being filled */
    ttd_event *ev;          /* dv->good, then dv->bad, being filled */
    ttd_event *before;      /* dv->before, being filled */
    const ttdi_ipair *p;    /* its pair */
    ttdi_req rq[6];         /* the ranges its passes record */
    ttdi_pass_spec ps[2];   /* its passes over the pair's good, bad thread */
    ttd_event *probe;       /* [0] good, [1] bad, [2] crash */
    ttd_event *gctx;        /* the good run's events at the places of
                               dv->before (the same distance from the
                               split); kind 0 where the good run has none */
    int crashed;            /* 1: the bad run's crash is in the hunk */
    uint64_t limit[2];      /* per run: time the other threads are shown to */
    ttd_other *oth[2];      /* per run: the other threads (MAX_OTHERS + 1) */
    size_t noth[2];         /* per run: those with events, so far */
} job;

/* A job's pass over the thread being walked. */
typedef struct pass_run {
    ttdi_pass_spec *ps;     /* the pass */
    uint64_t start, stop;   /* it takes the kept events [start, stop) */
    int done;               /* 1: past stop */
} pass_run;

/* A job's request for the last events of the thread being walked. */
typedef struct other_req {
    uint64_t limit;         /* events up to the first one past this time */
    job *j;                 /* whose */
} other_req;

/* One raw event kept for the other-thread requests. */
typedef struct ring_ev {
    ttf_event ev;           /* the raw event */
    uint64_t idx;           /* its key index */
} ring_ev;

/* One walk over a thread and what it serves. */
typedef struct serve {
    ttdi_walk w;            /* the walk */
    int ri;                 /* its run */
    uint32_t th;            /* its thread */
    pass_run *pr;           /* the passes on it, by start */
    size_t npr, nstarted, nleft; /* count, started so far, not done */
    other_req *oq;          /* the other-thread requests, by limit */
    size_t noq, nanswered;  /* count, answered so far */
    ring_ev *ring;          /* the last other_events kept events */
    uint64_t n;             /* kept events put in it */
} serve;

/* Answer request q from the ring: the thread's last events and, for a
 * crash among them, the stack as the walk stands. */
static int answer(const ttdi_in *in, serve *s, const other_req *q)
{
    size_t k = in->o->other_events;
    size_t m = s->n < k ? (size_t)s->n : k;
    job *j = q->j;
    ttd_other *o = &j->oth[s->ri][j->noth[s->ri]];
    ttd_event *evs = ttfi_arena_zalloc(in->arena, (m + 1) * sizeof *evs);
    ttdi_walk w = s->w;
    int rc = 0;

    if (!evs)
        return TT_ENOMEM;
    o->thread = s->th;
    o->name = in->r[s->ri].ti[s->th].name;
    for (size_t i = 0; rc >= 0 && i < m; i++) {
        const ring_ev *re = &s->ring[(s->n - m + i) % k];
        w.ev = re->ev;
        w.idx = re->idx;
        rc = ttdi_walk_fill(in, &w, &evs[i]);
    }
    o->events = evs;
    o->nevents = m;
    j->noth[s->ri] += m > 0;
    return rc < 0 ? rc : 0;
}

/* Answer the requests whose limit is below time t. */
static int answer_to(const ttdi_in *in, serve *s, uint64_t t)
{
    int rc;

    for (; s->nanswered < s->noq && s->oq[s->nanswered].limit < t; s->nanswered++)
        if ((rc = answer(in, s, &s->oq[s->nanswered])) < 0)
            return rc;
    return 0;
}

/* Give the walk's current kept event to the passes that want it. */
static int take(const ttdi_in *in, serve *s)
{
    uint64_t idx = s->w.idx;
    int rc;

    while (s->nstarted < s->npr && s->pr[s->nstarted].start <= idx)
        s->nstarted++;
    for (size_t i = 0; i < s->nstarted; i++) {
        pass_run *r = &s->pr[i];
        if (r->done)
            continue;
        if ((rc = ttdi_pass_take(in, &s->w, r->ps)) < 0)
            return rc;
        if (s->w.next >= r->stop) {
            r->done = 1;
            s->nleft--;
        }
    }
    return 0;
}

/* Walk s's thread once, serving everything asked of it. */
static int serve_walk(const ttdi_in *in, serve *s)
{
    size_t k = in->o->other_events;
    int rc = 0;

    while (s->nleft || s->nanswered < s->noq) {
        if ((rc = ttdi_walk_next(&s->w)) <= 0)
            break;
        if ((rc = answer_to(in, s, s->w.ev.time_ns)) < 0)
            return rc;
        if (!s->w.kept)
            continue;
        if (s->nleft && (rc = take(in, s)) < 0)
            return rc;
        if (s->nanswered < s->noq) {
            s->ring[s->n % k].ev = s->w.ev;
            s->ring[s->n % k].idx = s->w.idx;
            s->n++;
        }
    }
    if (rc < 0)
        return rc;
    /* the thread ended: the rest are answered at its end */
    if ((rc = answer_to(in, s, UINT64_MAX)) < 0)
        return rc;
    for (; s->nanswered < s->noq; s->nanswered++)
        if ((rc = answer(in, s, &s->oq[s->nanswered])) < 0)
            return rc;
    for (size_t i = 0; i < s->npr; i++)
        if (!s->pr[i].done && (rc = ttdi_pass_end(&s->w, s->pr[i].ps)) < 0)
            return rc;
    return 0;
}

static int pr_cmp(const void *x, const void *y)
{
    const pass_run *a = x, *b = y;
    return a->start < b->start ? -1 : a->start > b->start;
}

static int oq_cmp(const void *x, const void *y)
{
    const other_req *a = x, *b = y;
    return a->limit < b->limit ? -1 : a->limit > b->limit;
}

/* What a set of walks computes: the passes over the hunks' own threads,
 * the other threads' last events, or both. */
#define PART_OWN 1
#define PART_OTHERS 2

/* What jobs j[0..nj) ask of thread th of run ri (of `parts`), into s
 * (arrays of nj). */
static void gather(const ttdi_in *in, job *j, size_t nj, int parts, serve *s)
{
    const ttf_thread *t = ttf_get_thread(in->r[s->ri].t, s->th);

    s->npr = s->noq = 0;
    for (size_t i = 0; i < nj; i++) {
        if (j[i].p->t[s->ri] == s->th) {
            if (!(parts & PART_OWN))
                continue;
            pass_run *r = &s->pr[s->npr++];
            r->ps = &j[i].ps[s->ri];
            r->start = ttdi_pass_low(r->ps);
            r->start -= r->start > 0; /* a ring's first event sees the one before */
            r->stop = ttdi_pass_begin(r->ps);
            r->done = 0;
        } else if ((parts & PART_OTHERS) && in->o->other_events && t &&
                   t->start_ns <= j[i].limit[s->ri] && j[i].noth[s->ri] < MAX_OTHERS) {
            s->oq[s->noq].limit = j[i].limit[s->ri];
            s->oq[s->noq++].j = &j[i];
        }
    }
    qsort(s->pr, s->npr, sizeof *s->pr, pr_cmp);
    qsort(s->oq, s->noq, sizeof *s->oq, oq_cmp);
    s->nstarted = s->nanswered = 0;
    s->nleft = s->npr;
    s->n = 0;
}

/* Open s's walk where what it serves begins: at a mark an earlier walk
 * of the thread left (resolve's, a batch before), if one is early enough
 * for every pass and keeps the other-thread rings as from the start. */
static int open_walk(const ttdi_in *in, serve *s)
{
    uint64_t idx = s->npr ? s->pr[0].start : UINT64_MAX;
    uint64_t ns = s->noq ? s->oq[0].limit : UINT64_MAX;
    uint64_t keep = s->noq ? in->o->other_events : 0;

    return ttdi_walk_open_at(&s->w, &in->r[s->ri], s->th, idx, ns, keep);
}

/* Walk every thread of run ri that jobs j[0..nj) need (for `parts`), once
 * each. */
static int walk_run(const ttdi_in *in, int ri, job *j, size_t nj, int parts)
{
    serve s;
    int rc = TT_ENOMEM;

    memset(&s, 0, sizeof s);
    s.ri = ri;
    s.pr = malloc(nj * sizeof *s.pr);
    s.oq = malloc(nj * sizeof *s.oq);
    s.ring = malloc((in->o->other_events + 1) * sizeof *s.ring);
    if (!s.pr || !s.oq || !s.ring)
        goto out;
    rc = 0;
    for (size_t th = 0; rc >= 0 && th < in->r[ri].nt; th++) {
        s.th = (uint32_t)th;
        gather(in, j, nj, parts, &s);
        if (!s.npr && !s.noq)
            continue;
        if ((rc = open_walk(in, &s)) < 0)
            break;
        rc = serve_walk(in, &s);
        ttdi_walk_close(&s.w);
    }
out:
    free(s.pr);
    free(s.oq);
    free(s.ring);
    return rc;
}

static uint64_t min64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* Set job j up for hunk hi: its event slots, passes and requests. */
static int job_init(const ttdi_in *in, const ttd_hunk_info *hunks, size_t hi, job *j)
{
    const ttd_hunk_info *h = &hunks[hi];
    const ttdi_ipair *p = &in->s->ip[h->pair];
    uint64_t ng = min64(h->good_count, in->o->max_lines);
    uint64_t nb = min64(h->bad_count, in->o->max_lines);
    uint64_t nctx = min64(in->o->context, h->bad_index);
    ttd_divergence *dv = ttfi_arena_zalloc(in->arena, sizeof *dv);
    uint64_t gn = min64(nctx, h->good_index);
    ttd_event *ev = ttfi_arena_zalloc(in->arena, (ng + nb + 2 * nctx + 3) * sizeof *ev);

    j->p = p;
    j->dv = dv;
    j->ev = ev;
    for (int ri = 0; ri < 2; ri++)
        j->oth[ri] = ttfi_arena_zalloc(in->arena, (MAX_OTHERS + 1) * sizeof *j->oth[ri]);
    if (!dv || !ev || !j->oth[0] || !j->oth[1])
        return TT_ENOMEM;
    j->probe = ev + ng + nb + nctx;
    j->gctx = j->probe + 3;
    j->ps[0].stack_at = h->good_index;
    j->ps[1].stack_at = h->bad_index;
    if (in->o->suspects) {
        j->ps[1].ringcap = SUSPECT_WINDOW;
        if (!(j->ps[1].ring = malloc(SUSPECT_WINDOW * sizeof *j->ps[1].ring)))
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
    j->before = before;
    dv->nbefore = nctx;
    uint64_t gp = ng ? UINT64_MAX : ttdi_probe_index(h->good_index, p->n[0]);
    uint64_t bp = nb ? UINT64_MAX : ttdi_probe_index(h->bad_index, p->n[1]);
    j->ps[0].rq = j->rq;
    ttdi_add_req(j->rq, &j->ps[0].nrq, h->good_index, h->good_index + ng, ev);
    ttdi_add_req(j->rq, &j->ps[0].nrq, gp, gp + 1, &j->probe[0]);
    ttdi_add_req(j->rq, &j->ps[0].nrq, h->good_index - gn, h->good_index,
                 j->gctx + (nctx - gn));
    ttdi_pass_spec *b = &j->ps[1];
    b->rq = j->rq + j->ps[0].nrq;
    ttdi_add_req(b->rq, &b->nrq, h->bad_index - nctx, h->bad_index, before);
    ttdi_add_req(b->rq, &b->nrq, h->bad_index, h->bad_index + nb, bad);
    ttdi_add_req(b->rq, &b->nrq, bp, bp + 1, &j->probe[1]);
    j->crashed = p->crash >= h->bad_index && p->crash < h->bad_index + h->bad_count;
    if (j->crashed)
        ttdi_add_req(b->rq, &b->nrq, p->crash, p->crash + 1, &j->probe[2]);
    j->probe[0].time_ns = ttf_get_thread(in->r[TTD_GOOD].t, p->t[0])->start_ns;
    j->probe[1].time_ns = ttf_get_thread(in->r[TTD_BAD].t, p->t[1])->start_ns;
    j->limit[0] = h->good_time_ns;
    j->limit[1] = h->time_ns;
    return 0;
}

static int is_hex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
}

/* 1 if value texts a and b are the same but for the addresses ("0x..."):
 * pointers compare as NULL / non-NULL, as the diff compares them. */
static int same_text(const char *a, const char *b)
{
    while (*a && *a == *b) {
        if (a[0] == '0' && a[1] == 'x' && b[1] == 'x') {
            for (a += 2; is_hex(*a); a++)
                ;
            for (b += 2; is_hex(*b); b++)
                ;
            continue;
        }
        a++;
        b++;
    }
    return *a == *b;
}

/* The common events before the split whose value text differs between
 * the runs (addresses aside) get the good run's (ttd_event good_value).
 * The events at one
 * distance from the split are the same call when kind, name and depth
 * agree (an earlier hunk in reach of the context shifts them: then they
 * do not agree, or they are of the same function anyway). */
static void good_values(job *j)
{
    ttd_divergence *dv = j->dv;

    for (size_t i = 0; i < dv->nbefore; i++) {
        ttd_event *b = &j->before[i];
        const ttd_event *g = &j->gctx[i];
        if (!g->kind || g->kind != b->kind || g->depth != b->depth ||
            !g->name || !b->name || strcmp(g->name, b->name) != 0)
            continue;
        if (g->value && b->value && !same_text(g->value, b->value))
            b->good_value = g->value;
    }
}

/* The rest of job j's details, from what the walks collected. */
static int job_finish(const ttdi_in *in, const ttd_hunk_info *hunks, job *j)
{
    ttd_divergence *dv = j->dv;
    int rc;

    dv->good_time_ns = dv->ngood ? dv->good[0].time_ns : j->probe[0].time_ns;
    dv->bad_time_ns = dv->nbad ? dv->bad[0].time_ns : j->probe[1].time_ns;
    dv->crash = j->crashed ? &j->probe[2] : NULL;
    good_values(j);
    if ((rc = common_stack(in, &j->ps[0], &j->ps[1], dv)) < 0 ||
        (rc = ttdi_lines(in, &hunks[dv->hunk], j->ps, dv)) < 0 ||
        (rc = ttdi_suspects(in, j->p, &j->ps[1], dv)) < 0)
        return rc;
    for (int ri = 0; ri < 2; ri++) {
        dv->others[ri] = j->oth[ri];
        dv->nothers[ri] = j->noth[ri];
    }
    return ttdi_noise_of(in->arena, dv);
}

/* The details of hunks hi[0..n) into out[0..n): `parts` of them (the
 * other threads' last events left empty without PART_OTHERS). */
static int detail_parts(const ttdi_in *in, const ttd_hunk_info *hunks, const size_t *hi,
                        size_t n, int parts, ttd_divergence **out)
{
    job *j = calloc(n + 1, sizeof *j);
    int rc = 0;

    if (!j)
        return TT_ENOMEM;
    for (size_t i = 0; rc >= 0 && i < n; i++)
        rc = job_init(in, hunks, hi[i], &j[i]);
    for (int ri = 0; rc >= 0 && ri < 2; ri++)
        rc = walk_run(in, ri, j, n, parts);
    for (size_t i = 0; rc >= 0 && i < n; i++)
        if ((rc = job_finish(in, hunks, &j[i])) >= 0) {
            ttd_divergence *dv = j[i].dv;   /* call sites where they matter */
            ttdi_sites_trim(j[i].ev, dv->ngood, j[i].ev + dv->ngood, dv->nbad, j[i].before,
                            dv->nbefore, j[i].crashed ? &j[i].probe[2] : NULL);
            out[i] = j[i].dv;
        }
    for (size_t i = 0; i < n; i++) {
        free(j[i].ps[0].stack);
        free(j[i].ps[1].stack);
        free(j[i].ps[1].ring);
    }
    free(j);
    return rc;
}

int ttdi_detail_batch(const ttdi_in *in, const ttd_hunk_info *hunks, const size_t *hi,
                      size_t n, ttd_divergence **out)
{
    return detail_parts(in, hunks, hi, n, PART_OWN | PART_OTHERS, out);
}

int ttdi_detail_own(const ttdi_in *in, const ttd_hunk_info *hunks, const size_t *hi,
                    size_t n, ttd_divergence **out)
{
    return detail_parts(in, hunks, hi, n, PART_OWN, out);
}

int ttdi_detail_others(const ttdi_in *in, const ttd_hunk_info *hunks, const size_t *hi,
                       size_t n, ttd_divergence *const *dv)
{
    job *j = calloc(n + 1, sizeof *j);
    int rc = j ? 0 : TT_ENOMEM;

    for (size_t i = 0; rc >= 0 && i < n; i++) {
        const ttd_hunk_info *h = &hunks[hi[i]];
        j[i].p = &in->s->ip[h->pair];
        j[i].dv = dv[i];
        j[i].limit[0] = h->good_time_ns;
        j[i].limit[1] = h->time_ns;
        for (int ri = 0; ri < 2; ri++)
            if (!(j[i].oth[ri] = ttfi_arena_zalloc(in->arena,
                                                   (MAX_OTHERS + 1) * sizeof *j[i].oth[ri])))
                rc = TT_ENOMEM;
    }
    for (int ri = 0; rc >= 0 && ri < 2; ri++)
        rc = walk_run(in, ri, j, n, PART_OTHERS);
    for (size_t i = 0; rc >= 0 && i < n; i++)
        for (int ri = 0; ri < 2; ri++) {
            dv[i]->others[ri] = j[i].oth[ri];
            dv[i]->nothers[ri] = j[i].noth[ri];
        }
    free(j);
    return rc;
}
