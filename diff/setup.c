/*
 * setup.c - each run's information for the result: the run info (path,
 * process, exit, build-id), its notices and its crash event. Takes the
 * runs (ttdi_in) and fills the run's own ttd_run_info.
 * Stage 2 resolve of diff/STAGES (its header: resolve.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resolve.h"





/* Reader and symbol notices of one run, copied into the result. */
int ttdi_notices(const ttdi_in *in, int ri, ttd_run_info *out)
{
    const ttdi_run_state *r = &in->r[ri];
    size_t n1 = ttf_notice_count(r->t), n2 = ttf_sym_notice_count(r->norm.sym);
    const char **v = ttfi_arena_zalloc(in->arena, (n1 + n2 + 2) * sizeof *v);
    size_t n = 0;

    if (!v)
        return TT_ENOMEM;
    if (out->cut)
        v[n++] = out->cut;
    for (size_t i = 0; i < n1; i++)
        v[n++] = ttf_get_notice(r->t, i);
    for (size_t i = 0; i < n2; i++)
        v[n++] = ttf_sym_get_notice(r->norm.sym, i);
    out->notices = v;
    out->nnotices = n;
    return 0;
}

/* The first CRASH event in one thread, with the function it hit; 1 found. */
static int crash_in(const ttdi_in *in, int ri, uint32_t th, ttd_event *ev)
{
    ttdi_walk w;
    int rc = ttdi_walk_open(&w, &in->r[ri], th);

    if (rc < 0)
        return rc;
    while ((rc = ttdi_walk_next(&w)) > 0 && w.ev.kind != TTF_EV_CRASH)
        ;
    if (rc > 0 && (rc = ttdi_walk_fill(in, &w, ev)) == 0)
        rc = 1;
    ttdi_walk_close(&w);
    return rc;
}

/* The run's crash event: in the thread found while normalising, else
 * looked for in every thread. */
int ttdi_find_crash(const ttdi_in *in, int ri, ttd_run_info *out)
{
    const ttdi_run_state *r = &in->r[ri];
    const ttf_summary *s = ttf_get_summary(r->t);
    ttd_event *ev = ttfi_arena_zalloc(in->arena, sizeof *ev);
    int rc = 0;

    if (!s || !s->crashed)
        return 0;
    if (!ev)
        return TT_ENOMEM;
    if (r->crash_thread >= 0)
        rc = crash_in(in, ri, (uint32_t)r->crash_thread, ev);
    for (size_t i = 0; rc == 0 && i < r->nt; i++)
        rc = crash_in(in, ri, (uint32_t)i, ev);
    if (rc > 0)
        out->crash = ev;
    return rc < 0 ? rc : 0;
}

void ttdi_outcome(const ttd_run_info runs[2], uint64_t hunks_total, size_t nunpaired,
                  const ttd_options *opt, ttd_outcome *o)
{
    for (int r = 0; r < 2; r++) {
        const ttd_run_info *ri = &runs[r];
        o->has_exit[r] = ri->closed && !ri->crash;
        o->exit_status[r] = o->has_exit[r] ? ri->exit_status : 0;
        o->signal[r] = ri->crash ? ri->crash->signo : 0;
    }
    o->same_calls = hunks_total == 0 && nunpaired == 0;
    o->differs = o->has_exit[0] != o->has_exit[1] || o->signal[0] != o->signal[1] ||
                 (o->has_exit[0] && o->exit_status[0] != o->exit_status[1]);
    o->failed = opt->bad_failed != NULL; /* caught failing: never the same */
}
