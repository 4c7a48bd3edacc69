/*
 * test_format_golden.c - the committed golden traces (fixtures/traces/)
 * read field by field against the scripts that made them (golden.h), and
 * today's writer checked to produce the very same bytes: formats 1.0
 * (basic, crashed, damaged), 1.1 (values), 1.2 (sites), 1.4 (sparse: the
 * sparse clock's untimed EXITs) and 1.5 (xmm: SSE registers). A format change
 * that breaks old files, or changes what the writer emits, fails here.
 * Values traces read with ttf_iter_skip_values: the same events minus
 * their values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "format_util.h"
#include "golden.h"     /* fixtures/traces/ (-Ifixtures/traces) */

/* One expected event, from playing a script through a model of the reader. */
struct xev {
    int kind;
    uint32_t thread;
    uint64_t tsc, addr;
    uint32_t site;
    int depth;
    const char *text;           /* thread name / module path / message text */
    uint64_t n1, n2;            /* CRASH signo, fault; LOST events, bytes */
    int vals;                   /* 1: a call of a values trace */
    uint64_t regs[TTF_VALUE_REGS]; /* its argument registers (ENTER) */
    uint64_t ret;               /* its return value (EXIT) */
    uint64_t call_site;         /* ENTER: its call site (format 1.2) */
    int xm;                     /* 1: a call of an xmm trace (format 1.5) */
    uint64_t xmm[TTF_XMM_REGS]; /* ENTER: xmm0..7; EXIT: xmm[0] = xmm0 */
    int untimed;                /* 1: an EXIT of the sparse clock whose time
                                   was not measured (format 1.4), or an
                                   ENTER of the lazy clock (1.7) */
    uint64_t lo, hi;            /* untimed: the measured times around it */
};

struct model {
    struct xev ev[8192];        /* expected events, script order */
    size_t n;
    uint64_t start;             /* earliest timed op */
};

static void model_push(struct model *m, const struct xev *x)
{
    assert_true(m->n < sizeof m->ev / sizeof m->ev[0]);
    m->ev[m->n++] = *x;
}

/* The bounds of each untimed EXIT: the latest measured time before it in
 * its thread (lo) and the next one after it (hi; lo when none). */
static void model_untimed(struct model *m)
{
    for (size_t i = 0; i < m->n; i++) {
        struct xev *x = &m->ev[i];
        if (!x->untimed)
            continue;
        x->lo = x->hi = 0;
        for (size_t k = i; k-- > 0 && !x->lo;)
            if (m->ev[k].thread == x->thread && !m->ev[k].untimed)
                x->lo = m->ev[k].tsc;
        for (size_t k = i + 1; k < m->n && !x->hi; k++)
            if (m->ev[k].thread == x->thread && !m->ev[k].untimed)
                x->hi = m->ev[k].tsc;
        x->hi = x->hi ? x->hi : x->lo;
        x->tsc = x->lo;         /* checked against [lo, hi] (check_time) */
    }
}

/* A lazy trace (format 1.7): an ENTER right after an untimed EXIT of its
 * thread (no record with a time between) is untimed too; in a chain
 * trace (1.9) one right after an untimed ENTER as well. */
static void model_lazy(struct model *m, int lazy, int chain)
{
    int ux[4] = {0};
    for (size_t i = 0; lazy && i < m->n; i++) {
        struct xev *x = &m->ev[i];
        if (x->kind == TTF_EV_ENTER && !x->site)
            x->untimed = ux[x->thread];
        ux[x->thread] = (x->kind == TTF_EV_EXIT || (chain && x->kind == TTF_EV_ENTER)) &&
                        !x->site && x->untimed;
    }
}

static void model_build(struct model *m, const struct gop *g)
{
    int lazy = golden_has_lazy(g), chain = golden_has_chain(g);
    int depth[4] = {0};
    int vals = golden_has_values(g), xm = golden_has_xmm(g);
    uint32_t mods = 0;
    const struct gop *mod[8];   /* the G_MOD of each module index */
    uint64_t now = 0;

    memset(m, 0, sizeof *m);
    m->start = UINT64_MAX;
    for (; g->op != G_DONE; g++) {
        struct xev x = {.thread = g->thread, .tsc = g->tsc, .depth = depth[g->thread]};
        int *d = &depth[g->thread];
        if (g->op != G_PROC && g->op != G_SITE && g->op != G_UEXIT && g->op != G_LAZY &&
            g->op != G_CHAIN) {
            if (g->tsc < m->start)
                m->start = g->tsc;
            uint64_t last = g->op == G_LOOP || g->op == G_SLOOP || g->op == G_ULOOP
                                ? g->tsc + g->a * 80 : g->tsc;
            now = last > now ? last : now;
        }
        switch (g->op) {
        case G_PROC: case G_SITE: case G_LAZY: case G_CHAIN: continue;
        case G_TSTART: x.kind = TTF_EV_THREAD_START; x.text = g->s1; break;
        case G_TNAME: x.kind = TTF_EV_THREAD_NAME; x.text = g->s1; break;
        case G_TEND: x.kind = TTF_EV_THREAD_END; break;
        case G_MOD: x.kind = TTF_EV_MODULE_LOAD; x.addr = g->a; x.site = mods;
            assert_true(mods < sizeof mod / sizeof mod[0]);
            mod[mods++] = g;
            x.text = g->s1; break;
        case G_UNLOAD: x.kind = TTF_EV_MODULE_UNLOAD; x.addr = g->a;
            /* the module it unloads, by index and path (issue 37 item 9:
               it was module 0, the program) */
            x.site = UINT32_MAX;
            for (uint32_t k = 0; k < mods; k++)
                if (mod[k]->a == g->a) {
                    x.site = k;
                    x.text = mod[k]->s1;
                }
            break;
        case G_ENTER: x.kind = TTF_EV_ENTER; x.addr = g->a; x.vals = vals;
            x.call_site = g->b; (*d)++; break;
        case G_EXIT: x.kind = TTF_EV_EXIT; x.addr = g->a; x.vals = vals; (*d)--; break;
        case G_VENTER: x.kind = TTF_EV_ENTER; x.addr = g->a; x.vals = 1;
            x.call_site = g->b; golden_regs(g->s1, x.regs); (*d)++; break;
        case G_VEXIT: x.kind = TTF_EV_EXIT; x.addr = g->a; x.vals = 1; x.ret = g->b;
            (*d)--; break;
        case G_UEXIT: x.kind = TTF_EV_EXIT; x.addr = g->a; x.untimed = 1; x.vals = vals;
            x.ret = vals ? g->b : 0; (*d)--; break;
        case G_SEXIT: x.kind = TTF_EV_EXIT; x.addr = g->a; x.vals = vals; (*d)--; break;
        case G_XENTER: x.kind = TTF_EV_ENTER; x.addr = g->a; x.vals = x.xm = 1;
            golden_regs(g->s1, x.regs); golden_nums(g->s2, x.xmm, TTF_XMM_REGS);
            (*d)++; break;
        case G_XEXIT: x.kind = TTF_EV_EXIT; x.addr = g->a; x.vals = x.xm = 1; x.ret = g->b;
            golden_nums(g->s1, x.xmm, 1); (*d)--; break;
        case G_MSG: x.kind = TTF_EV_MESSAGE; x.site = (uint32_t)g->a; x.text = g->s2; break;
        case G_MARK: x.kind = TTF_EV_MARK; x.site = (uint32_t)g->a; x.text = g->s2; break;
        case G_SCOPE_IN: x.kind = TTF_EV_ENTER; x.site = (uint32_t)g->a; (*d)++; break;
        case G_SCOPE_OUT: x.kind = TTF_EV_EXIT; x.site = (uint32_t)g->a; (*d)--; break;
        case G_CRASH: x.kind = TTF_EV_CRASH; x.n1 = g->a; x.n2 = g->b; break;
        case G_LOST: x.kind = TTF_EV_LOST; x.n1 = g->a; x.n2 = g->b; break;
        case G_PAUSE: x.kind = TTF_EV_PAUSE; break;
        case G_RESUME: x.kind = TTF_EV_RESUME; break;
        default: /* G_LOOP, G_SLOOP, G_ULOOP */
            for (uint64_t i = 0; i < g->a; i++) {
                struct xev e = {.kind = TTF_EV_ENTER, .thread = g->thread,
                                .tsc = g->tsc + i * 80, .addr = g->b, .depth = *d,
                                .vals = vals, .xm = xm};
                if (g->op == G_SLOOP) {
                    e.addr = GOLDEN_SLOOP_FN;
                    e.call_site = golden_sloop_site(g->b, i);
                }
                model_push(m, &e);
                e.kind = TTF_EV_EXIT;
                e.call_site = 0;
                e.tsc += 40;
                e.untimed = g->op == G_ULOOP && golden_uloop_clock(i) == TTF_EXIT_UNTIMED;
                e.depth = *d + 1;
                model_push(m, &e);
            }
            continue;
        }
        x.xm = xm && (x.kind == TTF_EV_ENTER || x.kind == TTF_EV_EXIT) && !x.site;
        model_push(m, &x);
    }
    if (g->a) {                 /* closed: END on thread 0 at the last time */
        struct xev x = {.kind = TTF_EV_END, .tsc = now, .depth = depth[0],
                        .n1 = g->b};
        model_push(m, &x);
    }
    model_lazy(m, lazy, chain);
    model_untimed(m);
}

/* A measured time is the script's; an untimed EXIT's placed time lies in
 * its [lo, hi] and its late_ns is hi (FORMAT.md 4.5). */
static void check_time(const ttf_event *ev, const struct xev *x, uint64_t start, size_t i)
{
    assert_int_equal(ev->untimed, x->untimed);
    if (!x->untimed) {
        assert_int_equal(ev->time_ns, (x->tsc - start) * 2 / 5);   /* 2.5 GHz */
        return;
    }
    if (ev->tsc < x->lo || ev->tsc > x->hi)
        fail_msg("event %zu: untimed event placed at %llu, outside [%llu, %llu]", i,
                 (unsigned long long)ev->tsc, (unsigned long long)x->lo,
                 (unsigned long long)x->hi);
    assert_int_equal(ev->late_ns, (x->hi - start) * 2 / 5);
    assert_int_equal(ttf_event_late_ns(ev), ev->late_ns);
    assert_true(ttf_event_early_ns(ev) >= (x->lo - start) * 2 / 5);    /* a chunk's */
    assert_true(ttf_event_early_ns(ev) <= ev->time_ns);             /* start: later */
}

/* SSE registers of a call of an xmm trace (format 1.5). */
static void check_xmm(const ttf_event *ev, const struct xev *x)
{
    assert_int_equal(ev->has_xmm, x->xm);
    if (x->xm && x->kind == TTF_EV_ENTER)
        for (int k = 0; k < TTF_XMM_REGS; k++)
            assert_int_equal(ev->argregs[TTF_XMM_SLOT(k)], x->xmm[k]);
    if (x->xm && x->kind == TTF_EV_EXIT)
        assert_int_equal(ev->retxmm, x->xmm[0]);
}

static void check_event(const ttf_trace *t, const ttf_event *ev,
                        const struct xev *x, uint64_t start, size_t i)
{
    char buf[256];
    if (ev->kind != x->kind || ev->thread != x->thread ||
        (!x->untimed && ev->tsc != x->tsc) ||
        ev->addr != x->addr || ev->site != x->site || ev->depth != x->depth)
        fail_msg("event %zu: got kind %d thread %u tsc %llu addr %llx site %u "
                 "depth %d; want kind %d thread %u tsc %llu addr %llx site %u "
                 "depth %d", i, ev->kind, ev->thread, (unsigned long long)ev->tsc,
                 (unsigned long long)ev->addr, ev->site, ev->depth, x->kind,
                 x->thread, (unsigned long long)x->tsc, (unsigned long long)x->addr,
                 x->site, x->depth);
    check_time(ev, x, start, i);
    check_xmm(ev, x);
    if (ev->call_site != x->call_site)
        fail_msg("event %zu: call site %llx, want %llx", i,
                 (unsigned long long)ev->call_site, (unsigned long long)x->call_site);
    assert_int_equal(ev->has_values, x->vals);
    if (x->vals && x->kind == TTF_EV_ENTER)
        assert_memory_equal(ev->argregs, x->regs, sizeof x->regs);
    if (x->vals && x->kind == TTF_EV_EXIT)
        assert_int_equal(ev->retval, x->ret);
    switch (x->kind) {
    case TTF_EV_THREAD_START: case TTF_EV_THREAD_NAME: case TTF_EV_MODULE_LOAD:
        assert_string_equal(ev->text, x->text);
        break;
    case TTF_EV_MESSAGE: case TTF_EV_MARK:
        assert_true(ttf_format_message(t, ev, buf, sizeof buf) > 0);
        assert_string_equal(buf, x->text);
        break;
    case TTF_EV_CRASH:
        assert_int_equal(ev->signo, x->n1);
        assert_int_equal(ev->code, 1);
        assert_int_equal(ev->fault_addr, x->n2);
        break;
    case TTF_EV_LOST:
        assert_int_equal(ev->lost_events, x->n1);
        assert_int_equal(ev->lost_bytes, x->n2);
        break;
    case TTF_EV_END:
        assert_int_equal(ev->signo, x->n1);
        break;
    default:
        break;
    }
}

static const char *golden_path(const char *name)
{
    static char buf[4][512];
    static int k;
    const char *dir = getenv("TT_SRCDIR");
    char *p = buf[k++ % 4];
    snprintf(p, 512, "%s/fixtures/traces/%s", dir ? dir : ".", name);
    return p;
}

static ttf_trace *open_golden(const char *name)
{
    ttf_trace *t;
    ttf_error err;
    int r = ttf_open(golden_path(name), &t, &err);
    if (r)
        fail_msg("%s (run the tests from the repository root or set TT_SRCDIR)",
                 err.msg);
    return t;
}

/* All events of the trace, merged, against the model; and per thread. */
static void check_model(const ttf_trace *t, const struct model *m)
{
    struct evs all = tu_events(t, TTF_ALL_THREADS, 0);
    size_t nthreads = ttf_thread_count(t);
    assert_int_equal(all.n, m->n);
    assert_int_equal(ttf_get_summary(t)->events, m->n);
    /* per thread: the model's events of that thread, in script order */
    for (uint32_t th = 0; th < nthreads; th++) {
        struct evs e = tu_events(t, th, 0);
        size_t k = 0;
        for (size_t i = 0; i < m->n; i++) {
            if (m->ev[i].thread != th)
                continue;
            assert_true(k < e.n);
            check_event(t, &e.ev[k], &m->ev[i], m->start, i);
            k++;
        }
        assert_int_equal(k, e.n);
        free(e.ev);
    }
    free(all.ev);
}

/* test_basic, part 1: header and summary. */
static void check_basic_header(const ttf_trace *t)
{
    const ttf_header *h = ttf_get_header(t);
    assert_int_equal(h->version_major, 1);
    assert_int_equal(h->version_minor, 0);
    assert_int_equal(h->min_reader_major, 1);
    assert_int_equal(h->header_size, 64);
    assert_int_equal(h->required_features, TTF_REQ_EVENTS_V1);
    assert_int_equal(h->optional_features, 0);
    assert_int_equal(h->chunk_size, GOLDEN_CHUNK);
    assert_int_equal(h->data_offset, 4096);
    assert_int_equal(h->flags, TTF_FLAG_CLOSED);
    assert_int_equal(h->exit_status, 0);
    assert_int_equal(h->tsc_hz, GOLDEN_HZ);
    assert_int_equal(h->start_realtime_ns, GOLDEN_REALTIME);

    const ttf_summary *s = ttf_get_summary(t);
    assert_int_equal(s->closed, 1);
    assert_int_equal(s->crashed, 0);
    assert_int_equal(s->chunks_total, 2);
    assert_int_equal(s->chunks_used, 2);
    assert_int_equal(s->chunks_damaged, 0);
    assert_int_equal(s->lost_events, 12);
    assert_int_equal(s->bytes, 4096 + 2 * GOLDEN_CHUNK);
    assert_int_equal(s->duration_ns, (5800 - 1000) * 2 / 5);
    assert_int_equal(ttf_notice_count(t), 0);
}

/* test_basic, part 2: process and modules. */
static void check_basic_process(const ttf_trace *t)
{
    const ttf_process *p = ttf_get_process(t);
    assert_int_equal(p->pid, 4242);
    assert_int_equal(p->ppid, 1);
    assert_string_equal(p->exe, "/opt/app/bin/server");
    assert_int_equal(p->argc, 3);
    assert_string_equal(p->argv[0], "server");
    assert_string_equal(p->argv[2], "8080");
    assert_string_equal(p->parent_trace, "");
    assert_int_equal(p->start_realtime_ns, GOLDEN_REALTIME);
    assert_int_equal(p->exited, 1);
    assert_int_equal(p->exit_status, 0);

    assert_int_equal(ttf_module_count(t), 2);
    const ttf_module *md = ttf_get_module(t, 0);
    assert_string_equal(md->path, "/opt/app/bin/server");
    assert_int_equal(md->base, 0x555555554000ull);
    assert_int_equal(md->size, 0x21000);
    assert_int_equal(md->build_id_len, 6);
    assert_memory_equal(md->build_id, "\x01\x23\x45\x67\x89\xab", 6);
    assert_int_equal(md->load_ns, 0);
    assert_int_equal(md->unload_ns, UINT64_MAX);
    md = ttf_get_module(t, 1);
    assert_string_equal(md->path, "/lib/x86_64-linux-gnu/libc.so.6");
    assert_int_equal(md->build_id_len, 0);
    assert_int_equal(md->load_ns, 2);
    assert_int_equal(md->unload_ns, (5700 - 1000) * 2 / 5);
}

/* test_basic, part 3: threads. */
static void check_basic_threads(const ttf_trace *t)
{
    assert_int_equal(ttf_thread_count(t), 2);
    const ttf_thread *th = ttf_get_thread(t, 0);
    assert_int_equal(th->index, 0);
    assert_int_equal(th->tid, 4242);
    assert_string_equal(th->name, "main");
    assert_int_equal(th->ended, 0);
    assert_int_equal(th->chunks, 1);
    assert_int_equal(th->seq_gaps, 0);
    th = ttf_get_thread(t, 1);
    assert_int_equal(th->tid, 4250);
    assert_string_equal(th->first_name, "worker");
    assert_string_equal(th->name, "worker/0");
    assert_int_equal(th->ended, 1);
    assert_int_equal(th->start_ns, (1305 - 1000) * 2 / 5);
    assert_int_equal(th->end_ns, (1610 - 1000) * 2 / 5);
    assert_int_equal(th->events, 8);
    assert_int_equal(th->lost_events, 12);
}

/* test_basic, part 4: every call site the golden ops declare. */
static void check_basic_sites(const ttf_trace *t)
{
    for (const struct gop *g = golden_basic; g->op != G_DONE; g++) {
        if (g->op != G_SITE)
            continue;
        const ttf_callsite *cs = ttf_get_callsite(t, (uint32_t)g->a);
        assert_non_null(cs);
        assert_int_equal(cs->kind, (int)g->b);
        assert_int_equal(cs->level, 1);
        assert_int_equal(cs->line, 100 + g->a);
        assert_string_equal(cs->fmt, g->s1);
        assert_string_equal(cs->file, "server.c");
        assert_string_equal(cs->func, g->s3);
        assert_int_equal(cs->nargs, strlen(g->s2));
        for (size_t i = 0; i < cs->nargs; i++)
            assert_int_equal(cs->types[i], golden_type(g->s2[i]));
    }
}

static void test_basic(void **state)
{
    (void)state;
    ttf_trace *t = open_golden("basic.trc");
    struct model *m = malloc(sizeof *m);
    model_build(m, golden_basic);

    check_basic_header(t);
    check_basic_process(t);
    check_basic_threads(t);
    check_basic_sites(t);
    check_model(t, m);
    assert_int_equal(ttf_realtime_ns(t, 40), GOLDEN_REALTIME + 40);
    free(m);
    ttf_close(t);
}

static void test_crashed(void **state)
{
    (void)state;
    ttf_trace *t = open_golden("crashed.trc");
    struct model *m = malloc(sizeof *m);
    model_build(m, golden_crashed);
    const ttf_summary *s = ttf_get_summary(t);
    assert_int_equal(ttf_get_header(t)->flags, 0);
    assert_int_equal(s->closed, 0);
    assert_int_equal(s->crashed, 1);
    assert_int_equal(s->chunks_used, 3);
    assert_int_equal(s->chunks_damaged, 0);
    assert_int_equal(ttf_get_thread(t, 0)->chunks, 3);
    assert_int_equal(ttf_get_process(t)->exited, 0);
    assert_int_equal(ttf_get_process(t)->pid, 777);
    check_model(t, m);
    free(m);
    ttf_close(t);
}

/* values.trc (format 1.1): header, then every value against the script. */
static void test_values(void **state)
{
    (void)state;
    ttf_trace *t = open_golden("values.trc");
    struct model *m = malloc(sizeof *m);
    model_build(m, golden_values);
    const ttf_header *h = ttf_get_header(t);
    assert_int_equal(h->version_major, 1);
    assert_int_equal(h->version_minor, 1);
    assert_int_equal(h->min_reader_major, 1);
    assert_int_equal(h->required_features, TTF_REQ_EVENTS_V1 | TTF_REQ_VALUES);
    const ttf_summary *s = ttf_get_summary(t);
    assert_int_equal(s->values, 1);
    assert_int_equal(s->closed, 1);
    assert_int_equal(s->chunks_used, 3);
    assert_int_equal(s->chunks_damaged, 0);
    assert_int_equal(ttf_notice_count(t), 0);
    check_model(t, m);
    free(m);
    ttf_close(t);
}

/* sites.trc (format 1.2): header, then every call site against the
 * script; the file is smaller than without sites by design only where a
 * site repeats (checked in test_format_sites). */
static void test_sites(void **state)
{
    (void)state;
    ttf_trace *t = open_golden("sites.trc");
    struct model *m = malloc(sizeof *m);
    model_build(m, golden_sites);
    const ttf_header *h = ttf_get_header(t);
    assert_int_equal(h->version_major, 1);
    assert_int_equal(h->version_minor, 2);
    assert_int_equal(h->min_reader_major, 1);
    assert_int_equal(h->required_features, TTF_REQ_EVENTS_V1 | TTF_REQ_SITES);
    const ttf_summary *s = ttf_get_summary(t);
    assert_int_equal(s->sites, 1);
    assert_int_equal(s->values, 0);
    assert_int_equal(s->closed, 1);
    assert_int_equal(s->chunks_used, 2);
    assert_int_equal(s->chunks_damaged, 0);
    assert_int_equal(ttf_notice_count(t), 0);
    check_model(t, m);
    free(m);
    ttf_close(t);
}

/* sparse.trc (format 1.4): header, then every event against the script,
 * untimed EXITs inside their bounds, placed in order. */
static void test_sparse(void **state)
{
    (void)state;
    ttf_trace *t = open_golden("sparse.trc");
    struct model *m = malloc(sizeof *m);
    model_build(m, golden_sparse);
    const ttf_header *h = ttf_get_header(t);
    assert_int_equal(h->version_minor, 4);
    assert_int_equal(h->required_features, TTF_REQ_EVENTS_V1 | TTF_REQ_SPARSE);
    const ttf_summary *s = ttf_get_summary(t);
    assert_int_equal(s->closed, 1);
    assert_int_equal(s->chunks_used, 3);
    assert_int_equal(s->chunks_damaged, 0);
    assert_int_equal(ttf_notice_count(t), 0);
    check_model(t, m);
    struct evs e = tu_events(t, 0, 0);
    size_t untimed = 0;
    for (size_t i = 1; i < e.n; i++) {
        assert_true(e.ev[i].tsc >= e.ev[i - 1].tsc);
        untimed += (size_t)e.ev[i].untimed;
    }
    assert_true(untimed > 1000);        /* most of the loop's EXITs */
    free(e.ev);
    free(m);
    ttf_close(t);
}

/* A lazy golden file: header (format 1.minor, required features req),
 * then every event (and value) against script g, times never going back;
 * returns its events and counts the untimed ENTERs into *untimed. */
static struct evs lazy_golden(const char *file, const struct gop *g, unsigned minor,
                              uint64_t req, size_t *untimed)
{
    ttf_trace *t = open_golden(file);
    struct model *m = malloc(sizeof *m);
    model_build(m, g);
    const ttf_header *h = ttf_get_header(t);
    assert_int_equal(h->version_minor, minor);
    assert_int_equal(h->required_features, req);
    const ttf_summary *s = ttf_get_summary(t);
    assert_int_equal(s->closed, 1);
    assert_int_equal(s->chunks_damaged, 0);
    assert_int_equal(ttf_notice_count(t), 0);
    check_model(t, m);
    struct evs e = tu_events(t, 0, 0);
    *untimed = 0;
    for (size_t i = 1; i < e.n; i++) {
        assert_true(e.ev[i].tsc >= e.ev[i - 1].tsc);
        *untimed += (size_t)(e.ev[i].untimed && e.ev[i].kind == TTF_EV_ENTER);
    }
    free(m);
    ttf_close(t);
    return e;
}

/* lazy.trc (format 1.7): the untimed ENTERs and EXITs inside their
 * bounds, placed in order. */
static void test_lazy(void **state)
{
    (void)state;
    size_t untimed;
    struct evs e = lazy_golden("lazy.trc", golden_lazy, 7,
                               TTF_REQ_EVENTS_V1 | TTF_REQ_SPARSE | TTF_REQ_LAZY, &untimed);
    assert_true(untimed > 1000); /* most of the loop's ENTERs */
    free(e.ev);
}

/* vlazy.trc (format 1.8): the same with values, the untimed ENTERs'
 * values kept. */
static void test_vlazy(void **state)
{
    (void)state;
    size_t untimed;
    struct evs e = lazy_golden("vlazy.trc", golden_vlazy, 8,
                               TTF_REQ_EVENTS_V1 | TTF_REQ_VALUES | TTF_REQ_SPARSE |
                                   TTF_REQ_XMM | TTF_REQ_LAZY | TTF_REQ_VLAZY,
                               &untimed);
    assert_true(e.ev[4].untimed && e.ev[4].kind == TTF_EV_ENTER);
    assert_int_equal(e.ev[4].argregs[0], 4);
    assert_true(untimed > 1000);
    free(e.ev);
}

/* xmm.trc (format 1.5): header, then every register against the script. */
static void test_xmm(void **state)
{
    (void)state;
    ttf_trace *t = open_golden("xmm.trc");
    struct model *m = malloc(sizeof *m);
    model_build(m, golden_xmm);
    const ttf_header *h = ttf_get_header(t);
    assert_int_equal(h->version_minor, 5);
    assert_int_equal(h->required_features,
                     TTF_REQ_EVENTS_V1 | TTF_REQ_VALUES | TTF_REQ_XMM);
    const ttf_summary *s = ttf_get_summary(t);
    assert_int_equal(s->values, 1);
    assert_int_equal(s->closed, 1);
    assert_int_equal(ttf_notice_count(t), 0);
    check_model(t, m);
    free(m);
    ttf_close(t);
}

static int same_ev(const ttf_event *a, const ttf_event *b)
{
    return a->kind == b->kind && a->tsc == b->tsc && a->time_ns == b->time_ns &&
           a->addr == b->addr && a->depth == b->depth && a->offset == b->offset;
}

/* ev (read with ttf_iter_skip_values) is e (read with values) minus its
 * values. */
static void same_but_values(const ttf_event *e, const ttf_event *ev)
{
    assert_true(same_ev(e, ev));
    assert_int_equal(ev->thread, e->thread);
    assert_int_equal(ev->site, e->site);
    assert_int_equal(ev->call_site, e->call_site);
    assert_int_equal(ev->code, e->code);
    assert_int_equal(ev->signo, e->signo);
    assert_int_equal(ev->sync_arg, e->sync_arg);
    assert_int_equal(ev->lost_events, e->lost_events);
    assert_int_equal(ev->untimed, e->untimed);
    assert_int_equal(ttf_event_late_ns(ev), ttf_event_late_ns(e));
    assert_int_equal(ev->args_len, e->args_len);
    assert_ptr_equal(ev->text, e->text);
    assert_int_equal(ev->has_values, 0);
    assert_int_equal(ev->has_xmm, 0);
}

/* A values trace read with ttf_iter_skip_values (one thread and merged,
 * the skip asked after the merged heads were read; a clone part-way):
 * the same events as without it, none with values. */
static void test_skip_values(void **state)
{
    (void)state;
    static const char *const files[] = {"values.trc", "xmm.trc"};
    for (size_t f = 0; f < 2; f++) {
        ttf_trace *t = open_golden(files[f]);
        const uint32_t threads[] = {0, TTF_ALL_THREADS};
        for (size_t k = 0; k < 2; k++) {
            struct evs e = tu_events(t, threads[k], 0);
            ttf_iter *it, *c = NULL;
            ttf_event ev;
            size_t i = 0, with = 0;
            int r;
            assert_int_equal(ttf_iter_open(t, threads[k], &it), 0);
            assert_int_equal(ttf_iter_skip_values(it), 0);
            while ((r = ttf_iter_next(it, &ev)) == 1) {
                assert_true(i < e.n);
                with += e.ev[i].has_values;
                same_but_values(&e.ev[i++], &ev);
                if (i == e.n / 2 && threads[k] == 0)
                    assert_int_equal(ttf_iter_clone(it, &c), 0);
            }
            assert_int_equal(r, 0);
            assert_int_equal(i, e.n);
            assert_true(with > e.n / 4);  /* the trace has values to skip */
            for (i = e.n / 2; c && (r = ttf_iter_next(c, &ev)) == 1; i++)
                same_but_values(&e.ev[i], &ev);
            assert_true(!c || i == e.n);
            ttf_iter_close(c);
            ttf_iter_close(it);
            free(e.ev);
        }
        ttf_close(t);
    }
    assert_int_equal(ttf_iter_skip_values(NULL), TT_EINVAL);
}

static void test_damaged(void **state)
{
    (void)state;
    ttf_trace *good = open_golden("crashed.trc"), *t = open_golden("damaged.trc");
    struct evs e = tu_events(good, 0, 0), d = tu_events(t, 0, 0);
    const ttf_summary *s = ttf_get_summary(t);
    assert_int_equal(s->chunks_damaged, 2);
    assert_int_equal(s->closed, 0);
    assert_true(tu_has_notice(t, "invalid record tag 0x55"));
    assert_true(tu_has_notice(t, "chunk cut by the end of the file"));
    /* prefix, LOST at the bad tag, the start of chunk seq 2, LOST at the cut */
    size_t k = 0;
    while (k < d.n && d.ev[k].kind != TTF_EV_LOST) {
        assert_true(same_ev(&d.ev[k], &e.ev[k]));
        k++;
    }
    assert_true(k > 100 && k + 2 < d.n);
    const ttf_event *l1 = &d.ev[k];
    uint64_t cstart = 4096 + (l1->offset - 4096) / GOLDEN_CHUNK * GOLDEN_CHUNK;
    assert_int_equal(l1->offset, e.ev[k].offset);     /* at the damaged record */
    assert_int_equal(l1->lost_bytes, cstart + GOLDEN_CHUNK - l1->offset);
    assert_int_equal(l1->depth, e.ev[k].depth);
    size_t j = k;
    while (j < e.n && e.ev[j].offset != d.ev[k + 1].offset)
        j++;
    assert_true(j < e.n);
    size_t m = k + 1;
    for (; m < d.n && d.ev[m].kind != TTF_EV_LOST; m++)
        assert_true(same_ev(&d.ev[m], &e.ev[j + m - k - 1]));
    assert_int_equal(m, d.n - 1);                     /* LOST at the cut, last */
    assert_true(d.ev[m].offset <= s->bytes && d.ev[m].offset > d.ev[k + 1].offset);
    assert_true(e.ev[j + m - k - 1].offset >= d.ev[m].offset);  /* nothing skipped */
    free(e.ev);
    free(d.ev);
    ttf_close(good);
    ttf_close(t);
}

static void test_same_bytes(void **state)
{
    (void)state;
    static const struct {
        const char *name;
        const struct gop *script;
    } files[] = {{"basic.trc", golden_basic}, {"crashed.trc", golden_crashed},
                 {"values.trc", golden_values}, {"sites.trc", golden_sites},
                 {"sparse.trc", golden_sparse}, {"xmm.trc", golden_xmm},
                 {"lazy.trc", golden_lazy}, {"vlazy.trc", golden_vlazy},
                 {"chain.trc", golden_chain}};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        const char *path = tu_path(files[i].name);
        size_t n1, n2;
        assert_int_equal(golden_write(path, files[i].script), 0);
        uint8_t *now = tu_read(path, &n1);
        uint8_t *then = tu_read(golden_path(files[i].name), &n2);
        assert_int_equal(n1, n2);
        if (memcmp(now, then, n1) != 0) {
            size_t at = 0;
            while (now[at] == then[at])
                at++;
            fail_msg("%s: the writer now emits different bytes (first at offset %zu)",
                     files[i].name, at);
        }
        if (i == 1) {
            uint64_t bad;
            size_t cut = golden_damage(now, n1, &bad), n3;
            uint8_t *dmg = tu_read(golden_path("damaged.trc"), &n3);
            assert_int_equal(cut, n3);
            assert_memory_equal(now, dmg, n3);
            free(dmg);
        }
        free(now);
        free(then);
    }
}

/* chain.trc (format 1.9): the ENTERs after untimed ENTERs untimed too
 * (C inside B's untimed ENTER, and the worker's descent), inside their
 * bounds, placed in order. */
static void test_chain(void **state)
{
    (void)state;
    size_t untimed;
    struct evs e = lazy_golden("chain.trc", golden_chain, 9,
                               TTF_REQ_EVENTS_V1 | TTF_REQ_SPARSE | TTF_REQ_LAZY | TTF_REQ_CHAIN,
                               &untimed);
    /* start, ENTER main, A, B, EXIT B, ENTER B, ENTER C: untimed */
    assert_int_equal(e.ev[6].kind, TTF_EV_ENTER);
    assert_int_equal(e.ev[6].addr, 0x401400);
    assert_true(e.ev[5].untimed && e.ev[6].untimed);
    assert_true(untimed > 1000);
    free(e.ev);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_basic),
        cmocka_unit_test(test_crashed),
        cmocka_unit_test(test_damaged),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_sites),
        cmocka_unit_test(test_sparse),
        cmocka_unit_test(test_xmm),
        cmocka_unit_test(test_lazy),
        cmocka_unit_test(test_vlazy),
        cmocka_unit_test(test_chain),
        cmocka_unit_test(test_skip_values),
        cmocka_unit_test(test_same_bytes),
    };
    return cmocka_run_group_tests(tests, NULL, tu_teardown_all);
}
