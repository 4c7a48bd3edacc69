/*
 * setup.c - what the engine sets up around the alignment: each run's
 * threads, the selected pairs, the filters, and the run information,
 * notices and crash event copied into the result.
 * Stage 2 resolve of diff/STAGES (its header: resolve.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resolve.h"

/* Name and start function of each thread (walks up to its first ENTER). */
int ttdi_load_threads(ttdi_run_state *r)
{
    r->nt = ttf_thread_count(r->t);
    r->ti = calloc(r->nt + 1, sizeof *r->ti);
    if (!r->ti)
        return TT_ENOMEM;
    for (size_t i = 0; i < r->nt; i++) {
        const ttf_thread *th = ttf_get_thread(r->t, i);
        ttdi_tinfo *ti = &r->ti[i];
        ti->index = (uint32_t)i;
        ti->name = th && th->name && th->name[0] ? th->name
                   : th && th->first_name ? th->first_name : "";
        ti->first = th ? th->first_name : NULL;
        ti->start = "";
        ti->events = th ? th->events : 0;
        ttf_iter *it;
        ttf_event ev;
        int rc = ttf_iter_open(r->t, (uint32_t)i, &it);
        if (rc < 0)
            return rc;
        while ((rc = ttf_iter_next(it, &ev)) > 0 && ev.kind != TTF_EV_ENTER)
            ;
        if (rc > 0)
            ti->start = ttdi_norm_func(&r->norm, &ev);
        ttf_iter_close(it);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* --thread as every command means it (ttd_thread_match). */
static int thread_selected(const ttd_diff *d, const ttdi_tinfo *t)
{
    return ttd_thread_match(d->o.thread, d->re[0], t->index, t->name, t->first);
}

void ttdi_fill_thread_info(const ttdi_run_state *r, uint32_t i, uint64_t events,
                           ttd_thread_info *out)
{
    out->index = i;
    out->name = r->ti[i].name;
    out->start = r->ti[i].start;
    out->events = events;
}

/* Build the ipairs (selected, in good creation order) and the unpaired list. */
int ttdi_make_pairs(ttd_diff *d)
{
    ttdi_run_state *g = &d->r[TTD_GOOD], *b = &d->r[TTD_BAD];
    ttd_unpaired *up = ttfi_arena_zalloc(&d->arena, (g->nt + b->nt + 1) * sizeof *up);

    d->ip = calloc(g->nt + 1, sizeof *d->ip);
    if (!d->ip || !up)
        return TT_ENOMEM;
    d->res.unpaired = up;
    for (size_t i = 0; i < g->nt; i++) {
        ttdi_tinfo *t = &g->ti[i];
        if (t->partner < 0 || !(thread_selected(d, t) ||
                                thread_selected(d, &b->ti[t->partner])))
            continue;
        ttdi_ipair *p = &d->ip[d->nip++];
        p->t[0] = (uint32_t)i;
        p->t[1] = (uint32_t)t->partner;
    }
    for (int ri = 0; ri < 2; ri++) {
        for (size_t i = 0; i < d->r[ri].nt; i++) {
            const ttdi_tinfo *t = &d->r[ri].ti[i];
            if (t->partner >= 0 || !thread_selected(d, t))
                continue;
            const ttf_thread *th = ttf_get_thread(d->r[ri].t, i);
            ttd_unpaired *u = &up[d->res.nunpaired++];
            u->run = ri;
            ttdi_fill_thread_info(&d->r[ri], (uint32_t)i, th ? th->events : 0, &u->thread);
        }
    }
    return 0;
}

int ttdi_compile_filter(ttd_diff *d, int i, const char *pattern, const char *flag,
                        ttf_error *err)
{
    ttf_error e;
    char msg[sizeof e.msg + 32];

    if (!pattern)
        return 0;
    int rc = ttd_regex_compile(pattern, &d->re[i], &e);
    if (rc < 0 && err) {
        snprintf(msg, sizeof msg, "%s: %s", flag, rc == TT_EINVAL ? e.msg : ttf_strerror(rc));
        ttfi_set_err(err, rc, 0, "%s", msg);
    }
    return rc;
}

void ttdi_fill_run_info(ttd_diff *d, ttdi_run_state *r, const char *path, ttd_run_info *ri_out)
{
    const ttf_process *pr = ttf_get_process(r->t);
    const ttf_summary *s = ttf_get_summary(r->t);

    path = path ? path : ttf_path(r->t);
    ri_out->path = ttfi_arena_strcpy(&d->arena, path ? path : "");
    if (!ri_out->path)
        ri_out->path = "";
    ri_out->exe = "";
    if (pr) {
        ri_out->pid = pr->pid;
        ri_out->exe = pr->exe ? pr->exe : "";
        ri_out->argc = pr->argc;
        ri_out->argv = pr->argv;
        ri_out->start_realtime_ns = pr->start_realtime_ns;
        ri_out->chaos = pr->chaos;
        ri_out->chaos_seed = pr->chaos_seed;
    }
    if (s) {
        ri_out->duration_ns = s->duration_ns;
        ri_out->events = s->events;
        ri_out->closed = s->closed;
    }
    if (pr && pr->exited)
        ri_out->exit_status = pr->exit_status;
    ri_out->threads = r->nt;
    char cut[256];
    if (ttf_cut_text(r->t, cut, sizeof cut))
        ri_out->cut = ttfi_arena_strcpy(&d->arena, cut);
    size_t nm = ttf_module_count(r->t);
    const ttf_module *m = nm ? ttf_get_module(r->t, 0) : NULL; /* else the first */
    for (size_t i = 0; i < nm; i++) {
        const ttf_module *x = ttf_get_module(r->t, i);
        if (x->path && strcmp(x->path, ri_out->exe) == 0) {
            m = x;                      /* the executable's module */
            break;
        }
    }
    /* copied: a baseline's trace is closed before the result is read */
    uint8_t *id = m && m->build_id_len ? ttfi_arena_alloc(&d->arena, m->build_id_len) : NULL;
    if (id) {
        memcpy(id, m->build_id, m->build_id_len);
        ri_out->build_id = id;
        ri_out->build_id_len = m->build_id_len;
    }
}

int ttdi_same_program(const ttd_run_info *g, const ttd_run_info *b)
{
    if (g->exe[0] && b->exe[0] && strcmp(g->exe, b->exe) != 0)
        return TTD_PROGRAM_OTHER;
    if (g->build_id && b->build_id && (g->build_id_len != b->build_id_len ||
        memcmp(g->build_id, b->build_id, g->build_id_len) != 0))
        return TTD_PROGRAM_BUILD;
    return TTD_PROGRAM_SAME;
}

/* Reader and symbol notices of one run, copied into the result. */
int ttdi_notices(ttd_diff *d, int ri)
{
    ttdi_run_state *r = &d->r[ri];
    size_t n1 = ttf_notice_count(r->t), n2 = ttf_sym_notice_count(r->norm.sym);
    const char **v = ttfi_arena_zalloc(&d->arena, (n1 + n2 + 2) * sizeof *v);
    size_t n = 0;

    if (!v)
        return TT_ENOMEM;
    if (d->res.runs[ri].cut)
        v[n++] = d->res.runs[ri].cut;
    for (size_t i = 0; i < n1; i++)
        v[n++] = ttf_get_notice(r->t, i);
    for (size_t i = 0; i < n2; i++)
        v[n++] = ttf_sym_get_notice(r->norm.sym, i);
    d->res.runs[ri].notices = v;
    d->res.runs[ri].nnotices = n;
    return 0;
}

/* The first CRASH event in one thread, with the function it hit; 1 found. */
static int crash_in(ttd_diff *d, int ri, uint32_t th, ttd_event *ev)
{
    ttdi_walk w;
    int rc = ttdi_walk_open(&w, &d->r[ri], th);

    if (rc < 0)
        return rc;
    while ((rc = ttdi_walk_next(&w)) > 0 && w.ev.kind != TTF_EV_CRASH)
        ;
    if (rc > 0 && (rc = ttdi_walk_fill(d, &w, ev)) == 0)
        rc = 1;
    ttdi_walk_close(&w);
    return rc;
}

/* The run's crash event: in the thread found while normalising, else
 * looked for in every thread. */
int ttdi_find_crash(ttd_diff *d, int ri)
{
    ttdi_run_state *r = &d->r[ri];
    const ttf_summary *s = ttf_get_summary(r->t);
    ttd_event *ev = ttfi_arena_zalloc(&d->arena, sizeof *ev);
    int rc = 0;

    if (!s || !s->crashed)
        return 0;
    if (!ev)
        return TT_ENOMEM;
    if (r->crash_thread >= 0)
        rc = crash_in(d, ri, (uint32_t)r->crash_thread, ev);
    for (size_t i = 0; rc == 0 && i < r->nt; i++)
        rc = crash_in(d, ri, (uint32_t)i, ev);
    if (rc > 0)
        d->res.runs[ri].crash = ev;
    return rc < 0 ? rc : 0;
}

