/*
 * hunks.c - the hunks of every pair resolved into the result: which ones
 * (the first divergences, then the expected ones), their first events and
 * times, all sorted so the first divergence comes first.
 * Stage 2 resolve of diff/STAGES (its header: resolve.h).
 */
#include <stdlib.h>
#include <string.h>

#include "resolve.h"

/* Index whose time stands for a split at key index i of a thread with n
 * keys: the event at i, else the last one; UINT64_MAX if it has none. */
uint64_t ttdi_probe_index(uint64_t i, uint64_t n)
{
    if (i < n)
        return i;
    return n ? n - 1 : UINT64_MAX;
}

int ttdi_add_req(ttdi_req *rq, size_t *n, uint64_t lo, uint64_t hi, ttd_event *out)
{
    if (lo == UINT64_MAX || hi <= lo)
        return 0;
    rq[*n].lo = lo;
    rq[*n].hi = hi;
    rq[*n].out = out;
    (*n)++;
    return 0;
}

/* A hunk's place: divergences, then timing-shaped ones, then expected. */
static int hunk_class(const ttd_hunk_info *h)
{
    return h->expected ? 2 : h->timing ? 1 : 0;
}

static int hunk_cmp(const void *x, const void *y)
{
    const ttd_hunk_info *a = x, *b = y;
    if (hunk_class(a) != hunk_class(b))
        return hunk_class(a) - hunk_class(b);
    if (a->time_ns != b->time_ns)
        return a->time_ns < b->time_ns ? -1 : 1;
    if (a->pair != b->pair)
        return a->pair < b->pair ? -1 : 1;
    return a->bad_index < b->bad_index ? -1 : a->bad_index > b->bad_index;
}

#define TAIL_OPS 64             /* sync operations compared after a split */
#define CHECK_MAX 8             /* bad-only events before a last wait that
                                   may only have checked its condition */

/* The lock, condition and thread operations thread th of trace t did
 * after its last call event before time `until` (UINT64_MAX: to its end),
 * at most TAIL_OPS of them into ops; their count, or a TT_E* code. */
static int sync_tail(const ttf_trace *t, uint32_t th, uint64_t until, int *ops)
{
    ttdi_walk wk;
    int rc, n = 0;

    if ((rc = ttdi_walk_raw(&wk, t, th)) < 0)
        return rc;
    while ((rc = ttdi_walk_next(&wk)) > 0 && wk.ev.time_ns < until) {
        if (wk.ev.kind == TTF_EV_ENTER || wk.ev.kind == TTF_EV_EXIT)
            n = 0;
        else if (wk.ev.kind == TTF_EV_SYNC_OP && n < TAIL_OPS)
            ops[n++] = wk.ev.code;
    }
    ttdi_walk_close(&wk);
    return rc < 0 ? rc : n;
}

/* The bad run's end time when hunk h of pair p (good side's first event
 * g) only says that the bad thread was cut off by the end of the process,
 * else 0. A thread that waits (a pool worker between jobs, a main thread
 * joining) while another thread calls exit or crashes has a stream that
 * just stops: its last event says when it last did something, not when
 * it went another way. So when the bad thread ran out of events and
 * ended in a condition wait it never came back from, after the same
 * lock and condition operations as the good thread made at that point,
 * and the good thread went past that point (one operation more at least:
 * it was woken, or found its work there and took it) before its first
 * differing event, the hunk happens when the process ends: it sorts
 * after the difference of the thread that ended the process, whose
 * stream lasts to the end (the latest last event of the run) and keeps
 * its own time. A thread that skipped a call before it got to the wait
 * (the good one's differing call comes first) went another way at its
 * own time; threads that ended by themselves are not cut. When the bad
 * run says which thread ended it (the END record of exit() is in that
 * thread's stream), another thread whose stream just stops was cut by it
 * waiting or running (preempted between two calls, its last event can be
 * just before the exiting thread's split): it need not end in a wait,
 * only have made the same operations as the good thread after its last
 * call (none, or a lock it took); and one that checked a condition first
 * (a few calls only the bad run made, CHECK_MAX events at most) and then
 * waited where the good thread found its data ready was cut waiting too:
 * what differs is that it had to wait, which is timing. */
static uint64_t cut_time(const ttdi_in *in, const ttdi_ipair *p, const ttdi_hunk *h,
                         const ttd_event *g)
{
    const ttf_trace *t = in->r[TTD_BAD].t;
    const ttf_thread *th = ttf_get_thread(t, p->t[1]);
    uint64_t end = 0;
    int bo[TAIL_OPS], go[TAIL_OPS];

    if (!th || th->ended || h->b1 < p->n[1] || h->a1 == h->a0)
        return 0;               /* not at the end of the bad stream */
    for (size_t i = 0; i < ttf_thread_count(t); i++) {
        const ttf_thread *o = ttf_get_thread(t, i);
        if (o && !o->ended && o->end_ns > end)
            end = o->end_ns;
    }
    if (th->end_ns >= end)
        return 0;
    const ttf_process *pr = ttf_get_process(t);
    int other_exit = pr && pr->exit_thread >= 0 && pr->exit_thread != (int64_t)p->t[1];
    int nb = sync_tail(t, p->t[1], UINT64_MAX, bo);
    if (nb < 0 || nb >= TAIL_OPS)
        return 0;
    int waits = nb > 0 && bo[nb - 1] == TTF_SOP_WAIT;
    if (!waits && !other_exit)
        return 0;               /* not blocked in a wait at its end */
    int checked = h->b1 > h->b0; /* bad-only calls, then the wait */
    if (checked && (!other_exit || !waits || h->b1 - h->b0 > CHECK_MAX))
        return 0;
    int ng = sync_tail(in->r[TTD_GOOD].t, p->t[0], g->time_ns, go);
    if (ng < nb - (checked ? waits : 0))
        return 0;               /* the good thread's difference came first */
    for (int i = 0; i < nb - waits; i++)
        if (go[i] != bo[i])
            return 0;
    return end;
}

/* The start of thread th of run ri (0 when unknown). */
static uint64_t start_of(const ttdi_in *in, int ri, uint32_t th)
{
    const ttf_thread *t = ttf_get_thread(in->r[ri].t, th);
    return t ? t->start_ns : 0;
}

/* Hunk h's time bounds from its bad event ev: ev's own when the walk read
 * it (an estimate between them when it was not measured), else the time
 * it stands at (the thread's start) both. */
static void bounds(const ttd_event *ev, ttd_hunk_info *h)
{
    int read = ev->early_ns <= ev->time_ns && ev->time_ns <= ev->late_ns && ev->late_ns;

    h->early_ns = read ? ev->early_ns : ev->time_ns;
    h->late_ns = read ? ev->late_ns : ev->time_ns;
}

/* Resolve hunks sel[0..m) of pair pi into hs[0..m), and where each split
 * lies into pr[0..m): the same walk reads the key event before it. */
static int resolve_pair(const ttdi_in *in, size_t pi, const size_t *sel, size_t m,
                        ttd_hunk_info *hs, ttdi_prev *pr)
{
    const ttdi_ipair *p = &in->s->ip[pi];
    ttd_event *ev = ttfi_arena_zalloc(in->arena, 3 * m * sizeof *ev);
    ttd_event *pv = calloc(2 * m + 1, sizeof *pv);
    ttdi_req *rq = malloc(4 * m * sizeof *rq);
    ttdi_pass_spec ps[2] = {{0}, {0}};
    int rc = TT_ENOMEM;

    if (!ev || !pv || !rq)
        goto out;
    for (int s = 0; s < 2; s++) {
        ps[s].rq = rq + s * 2 * m;
        ps[s].stack_at = UINT64_MAX;
    }
    for (size_t k = 0; k < m; k++) {
        const ttdi_hunk *h = &p->h[sel[k]];
        hs[k].expected = p->exp ? p->exp[sel[k]] : 0;
        hs[k].timing = p->tim && !hs[k].expected ? p->tim[sel[k]] : 0;
        hs[k].waits = p->waitns && hs[k].timing == TTD_TIMING_WAIT ? p->waitns[2 * sel[k]] : 0;
        hs[k].wait_ns = hs[k].waits ? p->waitns[2 * sel[k] + 1] : 0;
        if (p->spin && hs[k].timing == TTD_TIMING_SPIN) {
            const ttdi_spin *sp = &p->spin[sel[k]];
            hs[k].spins = sp->iters;
            hs[k].spin_events = sp->keys;
            hs[k].spin_value = sp->value;
            hs[k].spin_unit_ns = sp->unit_ns;
            hs[k].spin_clock = sp->clock ? ttfi_arena_strcpy(in->arena, sp->clock) : NULL;
        }
        hs[k].good_reps = p->reps ? p->reps[2 * sel[k]] : 0;
        hs[k].bad_reps = p->reps ? p->reps[2 * sel[k] + 1] : 0;
        uint64_t gi = h->a1 > h->a0 ? h->a0 : ttdi_probe_index(h->a0, p->n[0]);
        ttdi_add_req(ps[0].rq, &ps[0].nrq, gi, gi + 1, &ev[3 * k]);
        ev[3 * k].time_ns = ttf_get_thread(in->r[TTD_GOOD].t, p->t[0])->start_ns;
        uint64_t bi = h->b1 > h->b0 ? h->b0 : ttdi_probe_index(h->b0, p->n[1]);
        ttdi_add_req(ps[1].rq, &ps[1].nrq, bi, bi + 1, &ev[3 * k + 1]);
        ev[3 * k + 1].time_ns = ttf_get_thread(in->r[TTD_BAD].t, p->t[1])->start_ns;
        uint64_t at[2] = {h->a0, h->b0};
        for (int s = 0; s < 2; s++) {
            pv[2 * k + s].time_ns = start_of(in, s, p->t[s]);
            if (at[s] > 0)
                ttdi_add_req(ps[s].rq, &ps[s].nrq, at[s] - 1, at[s], &pv[2 * k + s]);
        }
        hs[k].pair = pi;
        hs[k].good_index = h->a0;
        hs[k].good_count = h->a1 - h->a0;
        hs[k].bad_index = h->b0;
        hs[k].bad_count = h->b1 - h->b0;
        hs[k].good_first = h->a1 > h->a0 ? &ev[3 * k] : NULL;
        hs[k].bad_first = h->b1 > h->b0 ? &ev[3 * k + 1] : NULL;
    }
    for (int s = 0; s < 2; s++)
        if ((rc = ttdi_run_pass(in, s, p->t[s], &ps[s])) < 0)
            goto out;
    for (size_t k = 0; k < m; k++) {
        uint64_t cut = cut_time(in, p, &p->h[sel[k]], &ev[3 * k]);
        hs[k].time_ns = ev[3 * k + 1].time_ns;
        bounds(&ev[3 * k + 1], &hs[k]);
        hs[k].good_time_ns = ev[3 * k].time_ns;
        ttdi_sites_trim_pair(hs[k].good_first ? &ev[3 * k] : NULL,
                             hs[k].bad_first ? &ev[3 * k + 1] : NULL);
        if (cut > hs[k].time_ns)
            hs[k].time_ns = hs[k].early_ns = hs[k].late_ns = cut;
        pr[k] = (ttdi_prev){pi, {hs[k].good_index, hs[k].bad_index},
                            {pv[2 * k].time_ns, pv[2 * k + 1].time_ns}};
    }
    rc = 0;
out:
    free(pv);
    free(rq);
    return rc;
}

/* Hunk i of p: 0 a divergence, 1 timing-shaped, 2 expected. */
static int class_of(const ttdi_ipair *p, size_t i)
{
    return p->exp && p->exp[i] ? 2 : p->tim && p->tim[i] ? 1 : 0;
}

/* Which hunks of p to resolve: the first max_hunks divergences, then the
 * first max_hunks timing-shaped and expected ones, into sel; counts of
 * each class (n[0] divergences, n[1] timing, n[2] expected). */
static size_t select_hunks(const ttdi_in *in, const ttdi_ipair *p, size_t *sel,
                           size_t n[3])
{
    size_t cap = in->o->max_hunks, m = 0, got[3] = {0, 0, 0};

    n[0] = n[1] = n[2] = 0;
    for (int e = 0; e < 3; e++)
        for (size_t i = 0; i < p->nh; i++) {
            if (class_of(p, i) != e)
                continue;
            n[e]++;
            if (!cap || got[e] < cap) {
                got[e]++;
                sel[m++] = i;
            }
        }
    return m;
}

/* The pools into the result, and each pair's pool id. */
static int pools_result(const ttdi_in *in, ttd_pair *pairs, ttdi_resolved *out)
{
    ttd_pool *v = ttfi_arena_zalloc(in->arena, (in->s->npools + 1) * sizeof *v);
    uint32_t *th = ttfi_arena_zalloc(in->arena, (2 * in->s->nip + 1) * sizeof *th);

    if (!v || !th)
        return TT_ENOMEM;
    for (size_t k = 0; k < in->s->npools; k++) {
        const ttdi_pool *pl = &in->s->pools[k];
        v[k] = (ttd_pool){ttfi_arena_strcpy(in->arena, pl->id), pl->start, th, 0, NULL, 0,
                          pl->items[0], pl->items[1], pl->differing, !pl->over};
        for (size_t i = 0; i < in->s->nip; i++)
            if (in->s->ip[i].pool == (int)k)
                th[v[k].ngood++] = in->s->ip[i].t[0];
        v[k].bad_threads = th += v[k].ngood;
        for (size_t i = 0; i < in->s->nip; i++)
            if (in->s->ip[i].pool == (int)k) {
                th[v[k].nbad++] = in->s->ip[i].t[1];
                pairs[i].pool = v[k].id;
            }
        th += v[k].nbad;
        if (!v[k].id)
            return TT_ENOMEM;
    }
    out->pools = v;
    out->npools = in->s->npools;
    return 0;
}

/* Hunk h (of the first class) only says its bad thread stopped: the bad
 * side is empty at the end of the thread's bad events, the good side went
 * on, and the bad run never ended (no clean end, no crash: it hung and
 * was killed). Its bad time is when that thread last did something, not
 * when it went another way. */
static int stopped(const ttdi_in *in, const ttd_hunk_info *h)
{
    const ttf_summary *s = ttf_get_summary(in->r[TTD_BAD].t);

    return !h->expected && !h->timing && !h->bad_count && h->good_count && h->good_first &&
           h->pair < in->s->nip && h->bad_index >= in->s->ip[h->pair].n[1] && s &&
           !s->closed && in->r[TTD_BAD].crash_thread < 0;
}

static int good_cmp(const void *x, const void *y)
{
    const ttd_hunk_info *a = *(const ttd_hunk_info *const *)x;
    const ttd_hunk_info *b = *(const ttd_hunk_info *const *)y;

    if (a->good_time_ns != b->good_time_ns)
        return a->good_time_ns < b->good_time_ns ? -1 : 1;
    return a < b ? -1 : a > b;      /* their order by the bad run */
}

/* The stopped hunks of hs[0..n) (sorted) ordered among themselves by the
 * good run's time, in the places they hold: which stopped thread went
 * another way first, the bad run cannot say (each only stopped), the good
 * run can (where it went on first). Every other hunk keeps its place. */
static int stopped_by_good(const ttdi_in *in, ttd_hunk_info *hs, size_t n)
{
    size_t k = 0;

    for (size_t i = 0; i < n; i++)
        k += stopped(in, &hs[i]);
    if (k < 2)
        return 0;
    const ttd_hunk_info **v = malloc(k * sizeof *v);
    ttd_hunk_info *c = malloc(k * sizeof *c);
    if (!v || !c) {
        free(v);
        free(c);
        return TT_ENOMEM;
    }
    k = 0;
    for (size_t i = 0; i < n; i++)
        if (stopped(in, &hs[i]))
            v[k++] = &hs[i];
    qsort(v, k, sizeof *v, good_cmp);
    for (size_t j = 0; j < k; j++)
        c[j] = *v[j];
    k = 0;
    for (size_t i = 0; i < n; i++)
        if (stopped(in, &hs[i]))
            hs[i] = c[k++];
    free(v);
    free(c);
    return 0;
}

void ttdi_hunks_sort(ttd_hunk_info *hs, size_t n)
{
    qsort(hs, n, sizeof *hs, hunk_cmp);
}

int ttdi_resolve(const ttdi_in *in, ttdi_resolved *out)
{
    size_t m = 0, maxh = 0;
    ttd_pair *pairs = ttfi_arena_zalloc(in->arena, (in->s->nip + 1) * sizeof *pairs);

    if (!pairs)
        return TT_ENOMEM;
    for (size_t i = 0; i < in->s->nip; i++) {
        size_t nh = in->s->ip[i].nh, k = in->o->max_hunks && nh > 3 * in->o->max_hunks
                                     ? 3 * in->o->max_hunks : nh;
        m += k;
        maxh = nh > maxh ? nh : maxh;
    }
    ttd_hunk_info *hs = ttfi_arena_zalloc(in->arena, (m + 1) * sizeof *hs);
    ttdi_prev *pr = ttfi_arena_zalloc(in->arena, (m + 1) * sizeof *pr);
    size_t *sel = malloc((maxh + 1) * sizeof *sel);
    memset(out, 0, sizeof *out);
    if (!hs || !pr || !sel) {
        free(sel);
        return TT_ENOMEM;
    }
    size_t at = 0;
    for (size_t i = 0; i < in->s->nip; i++) {
        const ttdi_ipair *p = &in->s->ip[i];
        size_t cnt[3], k = select_hunks(in, p, sel, cnt), ndiv = cnt[0], nexp = cnt[2];
        int rc = resolve_pair(in, i, sel, k, hs + at, pr + at);
        if (rc < 0) {
            free(sel);
            return rc;
        }
        ttdi_fill_thread_info(&in->r[TTD_GOOD], p->t[0], p->n[0], &pairs[i].good);
        ttdi_fill_thread_info(&in->r[TTD_BAD], p->t[1], p->n[1], &pairs[i].bad);
        const ttdi_tinfo *gt = &in->r[TTD_GOOD].ti[p->t[0]];
        pairs[i].paired_by = gt->paired_by;
        pairs[i].tie = gt->tie;
        pairs[i].similarity = gt->score;
        pairs[i].second = gt->second;
        pairs[i].uncertain = ttdi_pair_uncertain(gt->score, gt->second);
        pairs[i].hunks = ndiv;
        pairs[i].expected = nexp;
        pairs[i].timing = cnt[1];
        out->timing_total += cnt[1];
        pairs[i].first_time_ns = ndiv ? hs[at].time_ns : 0;
        out->hunks_total += ndiv;
        out->expected_total += nexp;
        for (size_t j = 0; j < k; j++) {
            out->nexpected += (size_t)hs[at + j].expected;
            out->ntiming += (size_t)(hs[at + j].timing != 0);
        }
        at += k;
    }
    free(sel);
    if (pools_result(in, pairs, out) < 0)
        return TT_ENOMEM;
    qsort(hs, at, sizeof *hs, hunk_cmp);
    if (stopped_by_good(in, hs, at) < 0)
        return TT_ENOMEM;
    out->pairs = pairs;
    out->npairs = in->s->nip;
    out->hunks = hs;
    out->nhunks = at;
    out->prev = pr;
    out->nprev = at;
    return 0;
}

