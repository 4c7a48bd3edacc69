/*
 * test_pools.c - pools of look-alike threads (diff/pools.c) and
 * timing-shaped hunks (diff/timing.c), issue 22: the multiset of work
 * items by itself, then whole diffs of synthetic traces whose workers
 * took the items of one queue in another order (no divergence), one of
 * which took an error path (one hunk, in the thread that did it, showing
 * the error call), a poll loop that ran more times with idle gaps
 * (timing, not a divergence) against one that ran more times without
 * (a divergence), the same with the lazy clock, whose wait calls block
 * less than GAP_NS by the reader's estimate of their untimed ENTERs and
 * more from their earliest bound (timing; measured short waits: a
 * divergence), a worker that took no item (still in the pool), a
 * wait loop that ran once in one run only (check, wait, check: timing;
 * also with the wait at the hunk's start),
 * a wait alone (timing), also behind a wrapper named like a wait, that
 * does not hide a pool item of another
 * function the bad run left out, more checks inside a call named like a
 * wait (timing), a loop that spun until a clock turned (values: timing;
 * a worker stamping items, no clock, no turn, a clock that moved twice,
 * plain: not),
 * a lock's own slow path that one run alone took (contended; a lock
 * the program took once more is not),
 * an attempt that one run made again later (retried), work that one run
 * found at once and the other one wait later (retried), a call that
 * moved to another thread (moved work), and a pool that started one more
 * worker in one run (grew.c: no divergence when its work is the same and
 * its creator's calls repeat the first worker's; a divergence when the
 * extra worker did other work, locked more than its turn, or the
 * creator's call after the creation is not that template); and the
 * timing scan's prefix path before the first hunk (issue 38 item 4: the
 * same report with it off, the scan's whole per-event work only from the
 * hunks on).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diff_traces.h"
#include "report_util.h"
#include "state.h"
#include "tmpdir.h"

static char *next_path(char *buf, size_t len)
{
    static int seq;
    snprintf(buf, len, "%s/p%d.trc", tu_tmpdir, seq++);
    return buf;
}

/* ---- the multiset ----------------------------------------------------------- */

static void surplus_of_items(void **state)
{
    (void)state;
    ttdi_item g[5] = {{1, 0, 0, 0, 0, 0, 0}, {2, 0, 0, 0, 0, 0, 0}, {3, 0, 0, 0, 0, 0, 0},
                      {3, 0, 0, 0, 0, 0, 0}, {3, 0, 0, 0, 0, 0, 0}};
    ttdi_item b[4] = {{3, 0, 0, 0, 0, 0, 0}, {1, 0, 0, 0, 0, 0, 0}, {4, 0, 0, 0, 0, 0, 0},
                      {3, 0, 0, 0, 0, 0, 0}};
    ttdi_item *gp[5], *bp[4];
    uint64_t *sur;

    for (int i = 0; i < 5; i++)
        gp[i] = &g[i];
    for (int i = 0; i < 4; i++)
        bp[i] = &b[i];
    long n = ttdi_items_surplus(gp, 5, bp, 4, &sur);
    assert_int_equal(n, 4);                 /* hashes 1, 2, 3, 4 */
    assert_int_equal(g[0].grp, b[1].grp);   /* same hash, same group */
    assert_int_equal(g[2].grp, b[0].grp);
    assert_int_not_equal(g[0].grp, g[1].grp);
    /* hash 1: one each; 2: good only; 3: 3 good, 2 bad; 4: bad only */
    assert_int_equal(sur[2 * g[0].grp], 0);
    assert_int_equal(sur[2 * g[0].grp + 1], 0);
    assert_int_equal(sur[2 * g[1].grp], 1);
    assert_int_equal(sur[2 * g[2].grp], 1);
    assert_int_equal(sur[2 * g[2].grp + 1], 0);
    assert_int_equal(sur[2 * b[2].grp + 1], 1);
    assert_int_equal(sur[2 * b[2].grp], 0);
    free(sur);
    /* empty sides */
    assert_int_equal(ttdi_items_surplus(gp, 0, bp, 0, &sur), 0);
    free(sur);
}

/* ---- whole diffs --------------------------------------------------------------- */

static const char *const NAMES[] = {"main", "worker-1", "worker-2", "worker-3"};

/* A run: main, then three workers running w[0..3) (scripts). */
static void pool_run(char *path, size_t len, const char *const w[3])
{
    dt t;

    assert_int_equal(dt_open(&t, next_path(path, len), 0, NAMES, 4), 0);
    assert_int_equal(dt_run(&t, 0, "main{ }"), 0);
    for (uint32_t i = 0; i < 3; i++)
        assert_int_equal(dt_run(&t, i + 1, w[i]), 0);
    assert_int_equal(dt_close(&t, 0), 0);
}

static const ttd_result *diff(const char *g, const char *b, ttd_diff **d)
{
    ttf_error err;
    int rc = ttd_diff_files(g, b, NULL, d, &err);
    if (rc)
        fail_msg("ttd_diff_files: %s", err.msg);
    return ttd_get_result(*d);
}

/* Items: "check{}" takes one from the queue; "parse{lex{}}", "helper{}",
 * "log{lex{}lex{}}" are the work; "parse{lex{}fail{}}" the error path. */
static const char *const GOOD[3] = {
    "work{ check{} parse{lex{}} check{} helper{} check{} }",
    "work{ check{} log{lex{}lex{}} check{} }",
    "work{ check{} parse{lex{}} check{} }"};
static const char *const SHUFFLED[3] = {
    "work{ check{} log{lex{}lex{}} check{} parse{lex{}} check{} }",
    "work{ check{} helper{} check{} }",
    "work{ check{} parse{lex{}} check{} }"};
static const char *const FAILED[3] = {
    "work{ check{} log{lex{}lex{}} check{} parse{lex{}fail{}} check{} }",
    "work{ check{} helper{} check{} }",
    "work{ check{} parse{lex{}} check{} }"};

static void pool_shuffled_is_same(void **state)
{
    (void)state;
    char pg[256], pb[256];
    ttd_diff *d;

    pool_run(pg, sizeof pg, GOOD);
    pool_run(pb, sizeof pb, SHUFFLED);
    const ttd_result *r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 0);
    assert_int_equal(r->hunks_total, 0);
    assert_int_equal(r->npools, 1);
    const ttd_pool *pl = &r->pools[0];
    assert_string_equal(pl->id, "pool#1");
    assert_string_equal(pl->start, "dt_work");
    assert_int_equal(pl->ngood, 3);
    assert_int_equal(pl->nbad, 3);
    assert_int_equal(pl->items_good, 11);
    assert_int_equal(pl->items_bad, 11);
    assert_int_equal(pl->items_differing, 0);
    assert_int_equal(pl->compared, 1);
    assert_null(r->pairs[0].pool);
    for (size_t i = 1; i < r->npairs; i++)
        assert_string_equal(r->pairs[i].pool, "pool#1");
    ttd_free(d);
}

static void pool_error_item_named(void **state)
{
    (void)state;
    char pg[256], pb[256];
    ttd_diff *d;

    pool_run(pg, sizeof pg, GOOD);
    pool_run(pb, sizeof pb, FAILED);
    const ttd_result *r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 1);
    assert_int_equal(r->hunks_total, 1);
    assert_int_equal(r->pools[0].items_differing, 2); /* parse good-only, failed parse */
    const ttd_hunk_info *h = &r->hunks[0];
    assert_int_equal(r->pairs[h->pair].bad.index, 1);
    assert_non_null(r->first);
    int saw_fail = 0;
    for (size_t i = 0; i < r->first->nbad; i++)
        saw_fail |= r->first->bad[i].name && !strcmp(r->first->bad[i].name, "dt_fail");
    assert_true(saw_fail);
    ttd_free(d);
}

/* The worker loops' items, each side's by a thread of its own with two
 * jobs (the bad side's apart: ttdi_pool_jobs_apart), give the report one
 * job gives, byte for byte (issue 38 item 4); trees smaller than
 * ttdi_pool_jobs_min (these, at its default) are not split. */
static void pool_items_two_jobs(void **state)
{
    (void)state;
    char pg[256], pb[256], *rep[2];
    ttd_options o;
    ttf_error err;

    pool_run(pg, sizeof pg, GOOD);
    pool_run(pb, sizeof pb, FAILED);
    size_t min = ttdi_pool_jobs_min;
    ttdi_pool_jobs_min = 0;
    for (int j = 0; j < 2; j++) {
        ttd_diff *d;
        uint64_t apart = ttdi_pool_jobs_apart;
        ttd_options_init(&o);
        o.jobs = j + 1;
        assert_int_equal(ttd_diff_files(pg, pb, &o, &d, &err), 0);
        assert_int_equal(ttd_get_result(d)->pools[0].items_differing, 2);
        /* the pairs that differ: worker 1's (the failed parse) and 2's */
        assert_true(j ? ttdi_pool_jobs_apart > apart : ttdi_pool_jobs_apart == apart);
        rep[j] = tu_report(d, ttr_json, NULL, NULL);
        ttd_free(d);
    }
    assert_string_equal(rep[0], rep[1]);
    free(rep[0]);
    free(rep[1]);
    uint64_t apart = ttdi_pool_jobs_apart;
    ttd_diff *d;
    assert_int_equal(ttd_diff_files(pg, pg, &o, &d, &err), 0);
    assert_int_equal(ttd_get_result(d)->diverged, 0);
    assert_true(ttdi_pool_jobs_apart > apart);     /* the same trees too */
    ttdi_pool_jobs_min = min;
    apart = ttdi_pool_jobs_apart;
    ttd_free(d);
    assert_int_equal(ttd_diff_files(pg, pb, &o, &d, &err), 0);
    assert_int_equal(ttdi_pool_jobs_apart, apart);
    ttd_free(d);
}

/* The loop wrapped in setup and a run call (work{ helper{} log{ items } }),
 * one worker taking a single item: the pool level is the loop, where the
 * workers that took many items say it is. */
static void pool_wrapped_loop(void **state)
{
    (void)state;
    static const char *const G[3] = {
        "work{ helper{} log{ check{} parse{lex{}} check{} helper{} check{} parse{lex{}} check{} } }",
        "work{ helper{} log{ check{} } }",
        "work{ helper{} log{ check{} lex{} check{} } }"};
    static const char *const B[3] = {
        "work{ helper{} log{ check{} lex{} check{} parse{lex{}} check{} helper{} check{} } }",
        "work{ helper{} log{ check{} parse{lex{}} check{} } }",
        "work{ helper{} log{ check{} } }"};
    static const char *const F[3] = {
        "work{ helper{} log{ check{} lex{} check{} parse{lex{}} check{} helper{} check{} } }",
        "work{ helper{} log{ check{} parse{lex{}fail{}} check{} } }",
        "work{ helper{} log{ check{} } }"};
    char pg[256], pb[256];
    ttd_diff *d;
    pool_run(pg, sizeof pg, G);
    pool_run(pb, sizeof pb, B);
    const ttd_result *r = diff(pg, pb, &d);
    assert_int_equal(r->npools, 1);
    assert_int_equal(r->diverged, 0);
    assert_int_equal(r->pools[0].items_differing, 0);
    ttd_free(d);
    pool_run(pb, sizeof pb, F);
    r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 1);
    assert_int_equal(r->hunks_total, 1);
    assert_int_equal(r->pairs[r->hunks[0].pair].bad.index, 2);
    int saw_fail = 0;
    for (size_t i = 0; i < r->first->nbad; i++)
        saw_fail |= r->first->bad[i].name && !strcmp(r->first->bad[i].name, "dt_fail");
    assert_true(saw_fail);
    ttd_free(d);
}

/* A worker that took no item (its start function made no calls) has an
 * empty worker loop, not none: the pool is still compared item by item
 * (zstd's poolTests, 4 workers for 16 jobs; a worker here waits for
 * its items without calls, as POOL_thread does). Before, the idle worker put
 * the pool's level at the whole thread, and a worker with one more item
 * was a divergence. An error path in an item still shows. */
static void pool_idle_worker(void **state)
{
    (void)state;
    static const char *const G[3] = {
        "work{ parse{lex{}} helper{} }", "work{ log{lex{}lex{}} }", "work{ }"};
    static const char *const B[3] = {
        "work{ parse{lex{}} }", "work{ log{lex{}lex{}} }", "work{ helper{} }"};
    static const char *const F[3] = {
        "work{ parse{lex{}fail{}} }", "work{ log{lex{}lex{}} }", "work{ helper{} }"};
    char pg[256], pb[256];
    ttd_diff *d;

    pool_run(pg, sizeof pg, G);
    pool_run(pb, sizeof pb, B);
    const ttd_result *r = diff(pg, pb, &d);
    assert_int_equal(r->npools, 1);
    assert_int_equal(r->diverged, 0);
    assert_int_equal(r->hunks_total, 0);
    assert_int_equal(r->pools[0].items_good, 3);
    assert_int_equal(r->pools[0].items_bad, 3);
    assert_int_equal(r->pools[0].items_differing, 0);
    ttd_free(d);
    pool_run(pb, sizeof pb, F);
    r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 1);
    assert_non_null(r->first);
    int saw_fail = 0;
    for (size_t i = 0; i < r->first->nbad; i++)
        saw_fail |= r->first->bad[i].name && !strcmp(r->first->bad[i].name, "dt_fail");
    assert_true(saw_fail);
    ttd_free(d);
}

/* Without the pool view the same runs differ in every worker: the pool is
 * what makes them equal (the test would pass for nothing otherwise). */
static void pool_needs_the_pool(void **state)
{
    (void)state;
    static const char *const names[] = {"main", "alpha", "beta", "gamma"};
    char pg[256], pb[256];
    dt t;
    ttd_diff *d;

    /* distinct names: not a pool, paired by name */
    for (int run = 0; run < 2; run++) {
        const char *const *w = run ? SHUFFLED : GOOD;
        assert_int_equal(dt_open(&t, next_path(run ? pb : pg, 256), 0, names, 4), 0);
        assert_int_equal(dt_run(&t, 0, "main{ }"), 0);
        for (uint32_t i = 0; i < 3; i++)
            assert_int_equal(dt_run(&t, i + 1, w[i]), 0);
        assert_int_equal(dt_close(&t, 0), 0);
    }
    const ttd_result *r = diff(pg, pb, &d);
    assert_int_equal(r->npools, 0);
    assert_int_equal(r->diverged, 1);
    ttd_free(d);
}

/* ---- timing ----------------------------------------------------------------------- */

static void two_threads(char *path, size_t len, const char *main_s, const char *poll_s)
{
    static const char *const names[] = {"main", "poller"};
    dt t;

    assert_int_equal(dt_open(&t, next_path(path, len), 0, names, 2), 0);
    assert_int_equal(dt_run(&t, 0, main_s), 0);
    assert_int_equal(dt_run(&t, 1, poll_s), 0);
    assert_int_equal(dt_close(&t, 0), 0);
}

/* A poll loop (check, then wait, a traced call named like a wait
 * that blocked 100 us) that ran 2 times in one run and 4 in the other:
 * timing. */
static void poll_loop_is_timing(void **state)
{
    (void)state;
    char pg[256], pb[256];
    ttd_diff *d;

    two_threads(pg, sizeof pg, "main{ parse{} }",
                "work{ check{} wait{ @100000 } check{} wait{ @200000 } check{} lex{} }");
    two_threads(pb, sizeof pb, "main{ parse{} }",
                "work{ check{} wait{ @100000 } check{} wait{ @200000 } check{} "
                "wait{ @300000 } check{} wait{ @400000 } check{} lex{} }");
    const ttd_result *r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 0);
    assert_int_equal(r->hunks_total, 0);
    assert_int_equal(r->timing_total, 1);
    assert_int_equal(r->ntiming, 1);
    assert_int_equal(r->hunks[0].timing, TTD_TIMING_WAIT);
    assert_null(r->first);
    ttd_free(d);
}

static void expect_timing(const char *pg, const char *pb, int kind, size_t n);
static void expect_divergence(const char *pg, const char *pb);

/* two_threads with the lazy clock (FORMAT.md 4.7): "check{ ~}" returns
 * untimed, and the ENTER after it is untimed too. */
static void two_lazy(char *path, size_t len, const char *main_s, const char *poll_s)
{
    static const char *const names[] = {"main", "poller"};
    ttf_writer_opts o = {.chunk_size = 1 << 16, .timed = 1, .sparse = 1, .lazy = 1};
    dt t;

    assert_int_equal(dt_open_opts(&t, next_path(path, len), 0, names, 2, &o), 0);
    assert_int_equal(dt_run(&t, 0, main_s), 0);
    assert_int_equal(dt_run(&t, 1, poll_s), 0);
    assert_int_equal(dt_close(&t, 0), 0);
}

/* Thread 1's first wait call of path: the time from its ENTER, placed
 * and earliest, to its EXIT (ns). */
static void first_wait(const char *path, uint64_t *placed, uint64_t *early)
{
    ttf_trace *tr;
    ttf_iter *it;
    ttf_event ev;
    uint64_t at = 0, lo = 0;
    int n = 0;

    assert_int_equal(ttf_open(path, &tr, NULL), 0);
    assert_int_equal(ttf_iter_open(tr, 1, &it), 0);
    while (n < 3 && ttf_iter_next(it, &ev) > 0) {
        if (ev.kind == TTF_EV_ENTER && (n += 1) == 3) {    /* work, check, wait */
            assert_true(ev.untimed);
            at = ev.time_ns;
            lo = ttf_event_early_ns(&ev);
        }
    }
    assert_int_equal(ttf_iter_next(it, &ev), 1);
    assert_int_equal(ev.kind, TTF_EV_EXIT);
    assert_false(ev.untimed);
    *placed = ev.time_ns - at;
    *early = ev.time_ns - lo;
    ttf_iter_close(it);
    ttf_close(tr);
}

/* The lazy clock: each iteration's wait call is entered right after the
 * check's untimed return, so its ENTER is untimed, placed by estimate
 * in [check's ENTER, wait's EXIT] (30 us): the estimate makes the wait
 * block less than GAP_NS (20 us), its earliest start 30 us. A wait that
 * may have blocked is taken as blocked: timing. Must not be hidden: the
 * same calls measured, the check returning just before a wait call of
 * 10 ns (the wait did not block): a divergence. */
static void lazy_wait_is_timing(void **state)
{
    (void)state;
    char pg[256], pb[256];
    uint64_t placed, early;

    two_lazy(pg, sizeof pg, "main{ parse{} }",
             "work{ check{ ~} wait{ @31000 } check{ ~} wait{ @61000 } check{} lex{} }");
    two_lazy(pb, sizeof pb, "main{ parse{} }",
             "work{ check{ ~} wait{ @31000 } check{ ~} wait{ @61000 } check{ ~} "
             "wait{ @91000 } check{ ~} wait{ @121000 } check{} lex{} }");
    first_wait(pb, &placed, &early);
    assert_true(placed < 20000);    /* by estimate, no wait */
    assert_true(early >= 20000);    /* but it may have blocked 30 us */
    expect_timing(pg, pb, TTD_TIMING_WAIT, 1);
    two_lazy(pg, sizeof pg, "main{ parse{} }",
             "work{ check{ @30980 } wait{} check{ @60980 } wait{} check{} lex{} }");
    two_lazy(pb, sizeof pb, "main{ parse{} }",
             "work{ check{ @30980 } wait{} check{ @60980 } wait{} check{ @90980 } "
             "wait{} check{ @120980 } wait{} check{} lex{} }");
    expect_divergence(pg, pb);
}

/* Must not be hidden: the same loop whose only sign of waiting is an idle
 * gap (helper took 100 us: it may have computed, or slept in untraced
 * code), and the sleeping loop in a program of one thread. */
static void idle_gap_is_no_wait(void **state)
{
    (void)state;
    static const char *const one[] = {"main"};
    char pg[256], pb[256];
    ttd_diff *d;
    dt t;

    two_threads(pg, sizeof pg, "main{ parse{} }",
                "work{ check{} helper{ @100000 } check{} helper{ @200000 } check{} lex{} }");
    two_threads(pb, sizeof pb, "main{ parse{} }",
                "work{ check{} helper{ @100000 } check{} helper{ @200000 } check{} "
                "helper{ @300000 } check{} helper{ @400000 } check{} lex{} }");
    const ttd_result *r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 1);
    assert_int_equal(r->timing_total, 0);
    ttd_free(d);
    assert_int_equal(dt_open(&t, next_path(pg, sizeof pg), 0, one, 1), 0);
    assert_int_equal(dt_run(&t, 0, "main{ check{} wait{ @100000 } check{} lex{} }"), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    assert_int_equal(dt_open(&t, next_path(pb, sizeof pb), 0, one, 1), 0);
    assert_int_equal(dt_run(&t, 0, "main{ check{} wait{ @100000 } check{} "
                                   "wait{ @200000 } check{} lex{} }"), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 1);
    assert_int_equal(r->timing_total, 0);
    assert_non_null(r->first);
    ttd_free(d);
}

/* The same loop with no waits between its iterations decides the outcome
 * (a consumer that found fewer items): a divergence. */
static void busy_loop_is_divergence(void **state)
{
    (void)state;
    char pg[256], pb[256];
    ttd_diff *d;

    two_threads(pg, sizeof pg, "main{ parse{} }",
                "work{ check{} helper{} check{} helper{} check{} lex{} }");
    two_threads(pb, sizeof pb, "main{ parse{} }",
                "work{ check{} helper{} check{} helper{} check{} helper{} check{} "
                "helper{} check{} lex{} }");
    const ttd_result *r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 1);
    assert_int_equal(r->hunks_total, 1);
    assert_int_equal(r->timing_total, 0);
    assert_non_null(r->first);
    ttd_free(d);
}

/* The poller of two_threads with a condition wait written in the middle
 * of its script: s1, then a wait and its waking 150 us later, then s2. */
static void wait_between(char *path, size_t len, const char *s1, const char *s2)
{
    static const char *const names[] = {"main", "poller"};
    dt t;

    assert_int_equal(dt_open(&t, next_path(path, len), 0, names, 2), 0);
    assert_int_equal(dt_run(&t, 0, "main{ parse{} }"), 0);
    assert_int_equal(dt_run(&t, 1, s1), 0);
    if (s2) {
        t.now[1] += 10;
        assert_int_equal(ttf_write_sync_op(t.w, 1, t.now[1], TTF_SOP_WAIT, 0x1000, 0x2000), 0);
        t.now[1] += 150000;
        assert_int_equal(ttf_write_sync_op(t.w, 1, t.now[1], TTF_SOP_WOKE, 0x1000, 0), 0);
        assert_int_equal(dt_run(&t, 1, s2), 0);
    }
    assert_int_equal(dt_close(&t, 0), 0);
}

/* Must not be hidden: a call the bad run alone made (a leaf, made nowhere
 * else in the thread) in a stretch where the thread slept (a SLEEP that
 * libttcap recorded): a sleep is a wait, not the condition of a wait loop
 * (poll_moves' corrupt_block, next to the work's usleep). */
static void sleep_beside_call_is_divergence(void **state)
{
    (void)state;
    static const char *const names[] = {"main", "poller"};
    char pg[256], pb[256];
    ttd_diff *d;
    dt t;

    two_threads(pg, sizeof pg, "main{ parse{} }", "work{ check{} lex{} }");
    assert_int_equal(dt_open(&t, next_path(pb, sizeof pb), 0, names, 2), 0);
    assert_int_equal(dt_run(&t, 0, "main{ parse{} }"), 0);
    assert_int_equal(dt_run(&t, 1, "work{ check{} helper{}"), 0);
    t.now[1] += 10;
    assert_int_equal(ttf_write_sync_op(t.w, 1, t.now[1], TTF_SOP_SLEEP, 0x3000, 200000), 0);
    t.now[1] += 200000;
    assert_int_equal(dt_run(&t, 1, "fail{} lex{} }"), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    const ttd_result *r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 1);
    assert_int_equal(r->timing_total, 0);
    ttd_free(d);
}

/* pg against pb: no divergence, n timing-shaped hunks, the first of kind. */
static void expect_timing(const char *pg, const char *pb, int kind, size_t n)
{
    ttd_diff *d;
    const ttd_result *r = diff(pg, pb, &d);

    assert_int_equal(r->diverged, 0);
    assert_int_equal(r->hunks_total, 0);
    assert_int_equal(r->timing_total, n);
    assert_int_equal(r->hunks[0].timing, kind);
    ttd_free(d);
}

/* pg against pb: a divergence, nothing timing-shaped. */
static void expect_divergence(const char *pg, const char *pb)
{
    ttd_diff *d;
    const ttd_result *r = diff(pg, pb, &d);

    assert_int_equal(r->diverged, 1);
    assert_int_equal(r->timing_total, 0);
    ttd_free(d);
}

/* A wait loop that ran once in one run and not at all in the other:
 * check, wait on the condition, check again (zstd's
 * AIO_ReadPool_getNextCompletedJob: numReadsInFlight, the wait, the
 * re-check from another line), calls made nowhere else in the thread.
 * Calls that return at once with the wait between them: timing. The same
 * calls without the wait, or with a call that itself made calls, are a
 * divergence. */
static void wait_once_is_timing(void **state)
{
    (void)state;
    char pg[256], pb[256];

    wait_between(pg, sizeof pg, "work{ check{} lex{} }", NULL);
    wait_between(pb, sizeof pb, "work{ check{} helper{}", "log{} lex{} }");
    expect_timing(pg, pb, TTD_TIMING_WAIT, 1);
    two_threads(pb, sizeof pb, "main{ parse{} }", "work{ check{} helper{} log{} lex{} }");
    expect_divergence(pg, pb);
    wait_between(pb, sizeof pb, "work{ check{} helper{}", "log{fail{}} lex{} }");
    expect_divergence(pg, pb);
}

/* The wait of a check-wait-check-again iteration right at the hunk's
 * start: the aligner matched the run's first check with the other
 * run's, so the extra iteration it shows begins after the condition wait
 * (zstd's AIO_ReadPool_getNextCompletedJob, two good runs: the
 * re-check from line 473, log here, and numReadsInFlight, check here,
 * once more). The hunk calls the check that came just before the wait
 * again: timing. Must not be hidden: a call after that wait that is no
 * re-check (the hunk does not call check again), and a re-check whose
 * call made calls. */
static void wait_at_start_is_timing(void **state)
{
    (void)state;
    char pg[256], pb[256];

    wait_between(pg, sizeof pg, "work{ helper{} check{} lex{} }", NULL);
    wait_between(pb, sizeof pb, "work{ helper{} check{}", "log{} check{} lex{} }");
    expect_timing(pg, pb, TTD_TIMING_WAIT, 1);
    wait_between(pb, sizeof pb, "work{ helper{} check{}", "fail{} lex{} }");
    expect_divergence(pg, pb);
    wait_between(pb, sizeof pb, "work{ helper{} check{}", "log{ fail{} } check{} lex{} }");
    expect_divergence(pg, pb);
}

/* A wait alone: one run waited once more (a call named like a wait that
 * blocked inside and made no call: xz's worker waiting for its first
 * input, its check inline): timing. The same call not blocking is a
 * divergence. */
static void wait_alone_is_timing(void **state)
{
    (void)state;
    char pg[256], pb[256];
    ttd_diff *d;

    wait_between(pg, sizeof pg, "work{ check{} lex{} }", NULL);
    wait_between(pb, sizeof pb, "work{ check{} wait{", "} lex{} }");
    const ttd_result *r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 0);
    assert_int_equal(r->timing_total, 1);
    assert_int_equal(r->hunks[0].timing, TTD_TIMING_WAIT);
    ttd_free(d);
    two_threads(pb, sizeof pb, "main{ parse{} }", "work{ check{} wait{} lex{} }");
    r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 1);
    assert_int_equal(r->timing_total, 0);
    ttd_free(d);
}

/* A wait alone behind a wrapper (nng's nni_plat_cv_wait calling
 * nni_pthread_cond_wait: every call named like a wait, the inner one
 * blocked): timing. Must not be hidden: a wrapper not named like a wait
 * around it (work that waited), and the same chain not blocking. */
static void wait_chain_is_timing(void **state)
{
    (void)state;
    char pg[256], pb[256];
    ttd_diff *d;

    wait_between(pg, sizeof pg, "work{ check{} lex{} }", NULL);
    wait_between(pb, sizeof pb, "work{ check{} cond_wait{ wait{", "} } lex{} }");
    const ttd_result *r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 0);
    assert_int_equal(r->timing_total, 1);
    assert_int_equal(r->hunks[0].timing, TTD_TIMING_WAIT);
    assert_true(r->hunks[0].waits >= 1);
    ttd_free(d);
    wait_between(pb, sizeof pb, "work{ check{} helper{ wait{", "} } lex{} }");
    expect_divergence(pg, pb);
    two_threads(pb, sizeof pb, "main{ parse{} }", "work{ check{} cond_wait{ wait{} } lex{} }");
    expect_divergence(pg, pb);
}

/* Inside a call named like a wait, calls that return at once and repeat
 * beside the hunk (the check of the loop the wait runs, once more in one
 * run): timing; the same inside a call not named like one: a divergence. */
static void wait_checks_are_timing(void **state)
{
    (void)state;
    char pg[256], pb[256];
    ttd_diff *d;

    two_threads(pg, sizeof pg, "main{ parse{} }",
                "work{ check{} wait{ check{} lex{} check{} lex{} check{} @300000 } helper{} }");
    two_threads(pb, sizeof pb, "main{ parse{} }",
                "work{ check{} wait{ check{} lex{} check{} @300000 } helper{} }");
    const ttd_result *r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 0);
    assert_true(r->timing_total >= 1);
    assert_int_equal(r->hunks[0].timing, TTD_TIMING_WAIT);
    ttd_free(d);
    /* the same wait that did not block: no recorded wait, a divergence */
    two_threads(pg, sizeof pg, "main{ parse{} }",
                "work{ check{} wait{ check{} lex{} check{} lex{} check{} } helper{} }");
    two_threads(pb, sizeof pb, "main{ parse{} }",
                "work{ check{} wait{ check{} lex{} check{} } helper{} }");
    r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 1);
    ttd_free(d);
    two_threads(pg, sizeof pg, "main{ parse{} }",
                "work{ check{} log{ check{} lex{} check{} lex{} check{} } helper{} }");
    two_threads(pb, sizeof pb, "main{ parse{} }",
                "work{ check{} log{ check{} lex{} check{} } helper{} }");
    r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 1);
    ttd_free(d);
}

/* The poller of two_threads with call values (FORMAT.md: "}=N" sets a
 * result), the run's CLOCK_REALTIME at its start at SPIN_EPOCH s. */
#define SPIN_EPOCH 1700000000ull
static void two_values(char *path, size_t len, const char *poll_s, int values)
{
    static const char *const names[] = {"main", "poller"};
    ttf_writer_opts o = {.chunk_size = 1 << 16, .timed = 1, .values = values,
                         .start_realtime_ns = SPIN_EPOCH * 1000000000ull};
    dt t;

    assert_int_equal(dt_open_opts(&t, next_path(path, len), 0, names, 2, &o), 0);
    assert_int_equal(dt_run(&t, 0, "main{ parse{} }"), 0);
    assert_int_equal(dt_run(&t, 1, poll_s), 0);
    assert_int_equal(dt_close(&t, 0), 0);
}

/* poll's script: "work{ " + n iterations of it (each "%1$s" the clock's
 * reading, "%2$d" the iteration) + last + " }". */
static void spin_script(char *buf, size_t len, const char *it, int n, uint64_t clk,
                        const char *last)
{
    size_t o = (size_t)snprintf(buf, len, "work{ ");
    char c[32];

    snprintf(c, sizeof c, "%llu", (unsigned long long)clk);
    for (int i = 0; i < n && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, it, c, i + 2);
    snprintf(buf + o, len - o, "%s }", last);
}

/* A loop that spins on a clock (nng's nni_aio_expire_loop rescanning
 * until the millisecond turns): its iterations stamp{} (a reading of the
 * run's own clock in seconds, by its value: the function's name says
 * nothing) and check{} (the same result each time), no wait; one run
 * spun 2 times, the other 6, the last reading one tick later. Values
 * prove it: timing (spin), with its evidence. Must not be hidden: the
 * same loop whose check returns another value each time (a worker that
 * stamps each item it takes), one whose stamp is no clock (a count the
 * program decided), one whose clock never turned (it left for another
 * reason), a clock that moved twice (the loop took longer than a tick:
 * it worked), and the same runs without values (plain mode has only the
 * calls: unchanged). */
static void clock_spin_is_timing(void **state)
{
    (void)state;
    static char pg[256], pb[512], g[256], b[512];
    ttd_diff *d;

    spin_script(g, sizeof g, "stamp{}=%1$s check{}=0 ", 2, SPIN_EPOCH, "lex{}=1");
    spin_script(b, sizeof b, "stamp{}=%1$s check{}=0 ", 5, SPIN_EPOCH,
                "stamp{ @1000000500 }=1700000001 check{}=0 lex{}=1");
    two_values(pg, sizeof pg, g, 1);
    two_values(pb, sizeof pb, b, 1);
    const ttd_result *r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 0);
    assert_int_equal(r->timing_total, 1);
    assert_int_equal(r->hunks[0].timing, TTD_TIMING_SPIN);
    assert_string_equal(ttd_timing_name(r->hunks[0].timing), "spin");
    assert_true(r->hunks[0].spins >= 3);
    assert_int_equal(r->hunks[0].spin_events, 4);
    assert_string_equal(r->hunks[0].spin_clock, "dt_stamp");
    assert_int_equal(r->hunks[0].spin_value, SPIN_EPOCH);
    assert_int_equal(r->hunks[0].spin_unit_ns, 1000000000ull);
    ttd_free(d);
    /* a worker stamping items: another result each iteration */
    spin_script(g, sizeof g, "stamp{}=%1$s check{}=%2$d ", 2, SPIN_EPOCH, "lex{}=1");
    spin_script(b, sizeof b, "stamp{}=%1$s check{}=%2$d ", 6, SPIN_EPOCH, "lex{}=1");
    two_values(pg, sizeof pg, g, 1);
    two_values(pb, sizeof pb, b, 1);
    expect_divergence(pg, pb);
    /* no clock: the same small value each time */
    spin_script(g, sizeof g, "stamp{}=7 check{}=0 ", 2, 0, "lex{}=1");
    spin_script(b, sizeof b, "stamp{}=7 check{}=0 ", 6, 0, "lex{}=1");
    two_values(pg, sizeof pg, g, 1);
    two_values(pb, sizeof pb, b, 1);
    expect_divergence(pg, pb);
    /* the clock never turned: the loop left for another reason (a worker
     * taking items into one buffer it reuses: the same values each time) */
    spin_script(g, sizeof g, "stamp{}=%1$s check{}=0 ", 2, SPIN_EPOCH, "lex{}=1");
    spin_script(b, sizeof b, "stamp{}=%1$s check{}=0 ", 6, SPIN_EPOCH, "lex{}=1");
    two_values(pg, sizeof pg, g, 1);
    two_values(pb, sizeof pb, b, 1);
    expect_divergence(pg, pb);
    /* the clock moved twice within the extra iterations */
    spin_script(g, sizeof g, "stamp{}=%1$s check{}=0 ", 2, SPIN_EPOCH, "lex{}=1");
    spin_script(b, sizeof b, "stamp{}=%1$s check{}=0 ", 3, SPIN_EPOCH,
                "stamp{ @1000000500 }=1700000001 check{}=0 stamp{ @2000000500 }=1700000002 "
                "check{}=0 stamp{}=1700000002 check{}=0 lex{}=1");
    two_values(pg, sizeof pg, g, 1);
    two_values(pb, sizeof pb, b, 1);
    expect_divergence(pg, pb);
    /* plain: the calls alone */
    spin_script(g, sizeof g, "stamp{} check{} ", 2, 0, "lex{}");
    spin_script(b, sizeof b, "stamp{} check{} ", 6, 0, "lex{}");
    two_values(pg, sizeof pg, g, 0);
    two_values(pb, sizeof pb, b, 0);
    expect_divergence(pg, pb);
}

/* A pool whose bad run waited once more in one worker (a wait item, bad
 * run only) and left out another function's item (helper, good run
 * only): the missing helper is still a divergence (an item the bad run
 * did instead would be one of its own function), the wait is timing. */
static void pool_wait_keeps_missing_item(void **state)
{
    (void)state;
    char pg[256], pb[256];
    ttd_diff *d;
    dt t;

    pool_run(pg, sizeof pg, GOOD);
    assert_int_equal(dt_open(&t, next_path(pb, sizeof pb), 0, NAMES, 4), 0);
    assert_int_equal(dt_run(&t, 0, "main{ }"), 0);
    assert_int_equal(dt_run(&t, 1, "work{ wait{"), 0);
    t.now[1] += 10;
    assert_int_equal(ttf_write_sync_op(t.w, 1, t.now[1], TTF_SOP_WAIT, 0x1000, 0x2000), 0);
    t.now[1] += 150000;
    assert_int_equal(ttf_write_sync_op(t.w, 1, t.now[1], TTF_SOP_WOKE, 0x1000, 0), 0);
    assert_int_equal(dt_run(&t, 1, "} check{} parse{lex{}} check{} check{} }"), 0);
    assert_int_equal(dt_run(&t, 2, GOOD[1]), 0);
    assert_int_equal(dt_run(&t, 3, GOOD[2]), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    const ttd_result *r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 1);
    assert_int_equal(r->hunks_total, 1);
    assert_non_null(r->hunks[0].good_first);
    assert_string_equal(r->hunks[0].good_first->name, "dt_helper");
    assert_int_equal(r->timing_total, 1);
    ttd_free(d);
}

/* A try-add that did its work (helper) at once in the good run and found
 * the queue full in the bad one, which tried again on the next round of
 * its loop and did the same work then: check{ lex{} helper{} } is the
 * attempt (POOL_tryAdd: isQueueFull, POOL_add_internal), log{} the check
 * of its result. Retried, timing; a later attempt that went otherwise is
 * a divergence. */
static void retried_attempt_is_timing(void **state)
{
    (void)state;
    char pg[256], pb[256];
    ttd_diff *d;

    two_threads(pg, sizeof pg, "main{ parse{} }",
                "work{ parse{ check{ lex{} helper{} } log{} } parse{ check{ lex{} helper{} } log{} } "
                "parse{ log{} } }");
    two_threads(pb, sizeof pb, "main{ parse{} }",
                "work{ parse{ check{ lex{} } log{} } parse{ check{ lex{} helper{} } log{} } "
                "parse{ check{ lex{} helper{} } log{} } }");
    const ttd_result *r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 0);
    assert_int_equal(r->hunks_total, 0);
    assert_int_equal(r->timing_total, 2);
    assert_int_equal(r->hunks[0].timing, TTD_TIMING_RETRY);
    assert_int_equal(r->hunks[1].timing, TTD_TIMING_RETRY);
    assert_string_equal(ttd_timing_name(TTD_TIMING_RETRY), "retry");
    ttd_free(d);
    two_threads(pb, sizeof pb, "main{ parse{} }",
                "work{ parse{ check{ lex{} } log{} } parse{ check{ lex{} helper{} } log{} } "
                "parse{ check{ lex{} fail{} } log{} } }");
    r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 1);
    assert_int_equal(r->timing_total, 0);
    ttd_free(d);
}

/* A poller thread in pieces: pre, then (if post) a SLEEP (an I/O wait
 * that asked for ask ns and blocked 50 us) and post. */
static void poll_run(char *path, size_t len, const char *pre, const char *post, uint64_t ask)
{
    static const char *const names[] = {"main", "poller"};
    dt t;

    assert_int_equal(dt_open(&t, next_path(path, len), 0, names, 2), 0);
    assert_int_equal(dt_run(&t, 0, "main{ parse{} }"), 0);
    assert_int_equal(dt_run(&t, 1, pre), 0);
    if (post) {
        t.now[1] += 10;
        assert_int_equal(ttf_write_sync_op(t.w, 1, t.now[1], TTF_SOP_SLEEP, 0x3000, ask), 0);
        t.now[1] += 50000;
        assert_int_equal(dt_run(&t, 1, post), 0);
    }
    assert_int_equal(dt_close(&t, 0), 0);
}

/* Work found one wait later (libuv's uv__io_poll(loop, 0) found the
 * worker's completion through epoll at once in one good run; the other
 * made one more turn of its loop, whose epoll_wait blocked until the
 * completion came, then ran the same uv__async_io): the work missing in
 * the first poll and the later turn that did it are both "retry". Must
 * not be hidden: the later turn without a recorded wait, with a sleep that
 * ran to its timeout (a wake-up that was lost and a timer that found the
 * work: the bug libuv1-lostwake is about), or doing other work. */
static void found_later_is_timing(void **state)
{
    (void)state;
    static const char *const pre = "work{ lex{} check{ parse{ log{} } } lex{} check{ } "
                                   "lex{} check{ lex{}";
    char pg[256], pb[256];
    ttd_diff *d;

    poll_run(pg, sizeof pg, "work{ lex{} check{ parse{ log{} } } lex{} check{ parse{ log{} } } "
             "helper{} }", NULL, 0);
    poll_run(pb, sizeof pb, pre, "parse{ log{} } } helper{} }", 1000000000);
    expect_timing(pg, pb, TTD_TIMING_RETRY, 2);
    const ttd_result *r = diff(pg, pb, &d);
    assert_int_equal(r->hunks[1].timing, TTD_TIMING_RETRY);
    ttd_free(d);
    /* no recorded wait before the work */
    poll_run(pb, sizeof pb, "work{ lex{} check{ parse{ log{} } } lex{} check{ } "
             "lex{} check{ lex{} parse{ log{} } } helper{} }", NULL, 0);
    r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 1);
    ttd_free(d);
    /* a wait that ran to its timeout (50 us asked, 50 us blocked) */
    poll_run(pb, sizeof pb, pre, "parse{ log{} } } helper{} }", 50000);
    r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 1);
    ttd_free(d);
    /* other work after the wait */
    poll_run(pb, sizeof pb, pre, "parse{ fail{} } } helper{} }", 1000000000);
    r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 1);
    ttd_free(d);
}

/* ---- the timing scan's prefix (issue 38 item 4) ----------------------------- */

#define LEAD 1000   /* calls before the hunks: 4,000 kept events */

/* main, and a poller: work{, LEAD calls peek{ tally{} }, then tail (which
 * closes work). */
static void lead_run(char *path, size_t len, const char *tail)
{
    static const char *const names[] = {"main", "poller"};
    dt t;

    assert_int_equal(dt_open(&t, next_path(path, len), 0, names, 2), 0);
    assert_int_equal(dt_run(&t, 0, "main{ parse{} }"), 0);
    assert_int_equal(dt_run(&t, 1, "work{"), 0);
    for (int i = 0; i < LEAD; i++)
        assert_int_equal(dt_run(&t, 1, "peek{ tally{} }"), 0);
    assert_int_equal(dt_run(&t, 1, tail), 0);
    assert_int_equal(dt_close(&t, 0), 0);
}

/* pg against pb with the scan's prefix path on (noprefix 0) or off: the
 * JSON report, the kept events the scan took whole into *full. */
static char *timing_report(const char *pg, const char *pb, int noprefix, uint64_t *full)
{
    ttd_diff *d;

    ttdi_timing_noprefix = noprefix;
    ttdi_timing_full = 0;
    diff(pg, pb, &d);
    *full = ttdi_timing_full;
    ttdi_timing_noprefix = 0;
    char *s = tu_report(d, ttr_json, NULL, NULL);
    ttd_free(d);
    return s;
}

/* The timing scan takes the kept events before the first hunk by the
 * prefix path (the open calls, the prefix hash and the ring only), and
 * the report is what the whole per-event work gives (and what one job
 * gives: the two runs' scans one after the other): a poll loop (wait),
 * an attempt made again (retry: the hashes of the enclosing calls, open
 * since the thread's start) and a later attempt that went otherwise (a
 * divergence), after LEAD calls. The scan takes the hunks and the calls
 * after them whole: tens of kept events a side, not the 4,000 before. */
static void timing_prefix_is_lean(void **state)
{
    (void)state;
    static const char *const tails[][2] = {
        {"check{} wait{ @100000 } check{} wait{ @200000 } check{} lex{} }",
         "check{} wait{ @100000 } check{} wait{ @200000 } check{} wait{ @300000 } check{} "
         "wait{ @400000 } check{} lex{} }"},
        {"parse{ check{ lex{} helper{} } log{} } parse{ check{ lex{} helper{} } log{} } "
         "parse{ log{} } }",
         "parse{ check{ lex{} } log{} } parse{ check{ lex{} helper{} } log{} } "
         "parse{ check{ lex{} helper{} } log{} } }"},
        {"parse{ check{ lex{} helper{} } log{} } parse{ check{ lex{} helper{} } log{} } "
         "parse{ log{} } }",
         "parse{ check{ lex{} } log{} } parse{ check{ lex{} helper{} } log{} } "
         "parse{ check{ lex{} fail{} } log{} } }"}};
    static const size_t timing[] = {1, 2, 0};
    char pg[256], pb[256];
    uint64_t apart = ttdi_timing_jobs_apart;

    for (size_t k = 0; k < sizeof tails / sizeof *tails; k++) {
        lead_run(pg, sizeof pg, tails[k][0]);
        lead_run(pb, sizeof pb, tails[k][1]);
        ttd_diff *d;
        const ttd_result *r = diff(pg, pb, &d);
        assert_int_equal(r->timing_total, timing[k]);
        assert_int_equal(r->diverged, timing[k] == 0);
        ttd_free(d);
        uint64_t lean, whole;
        char *a = timing_report(pg, pb, 0, &lean);
        char *b = timing_report(pg, pb, 1, &whole);
        assert_string_equal(a, b);
        assert_true(lean > 0 && lean < 200);
        assert_true(whole > 2 * 4 * LEAD);     /* both sides from the start */
        /* one job: the two runs' scans one after the other, the same */
        ttd_options o;
        ttf_error err;
        ttd_options_init(&o);
        o.jobs = 1;
        uint64_t before = ttdi_timing_jobs_apart;
        assert_int_equal(ttd_diff_files(pg, pb, &o, &d, &err), 0);
        assert_int_equal(ttdi_timing_jobs_apart, before);
        free(b);
        b = tu_report(d, ttr_json, NULL, NULL);
        ttd_free(d);
        assert_string_equal(a, b);
        free(a);
        free(b);
    }
    /* with two (the default), a pair with hunks on both sides had each
       run's split thread scanned at once, the bad run's apart */
    assert_true(ttdi_timing_jobs_apart > apart);
}

/* A lock's own slow path that one run alone took (glib's
 * g_mutex_unlock_slowpath when another thread waited for the mutex):
 * timing, "contended". Must-nots: a lock the program took once more (in
 * its own call), another callee inside the lock, and a program of one
 * thread stay divergences. */
static void lock_slow_path_is_contended(void **state)
{
    (void)state;
    static const char *const bad[] = {
        "main{ parse{} mutex_lock{ mutex_slowpath{} } log{} }",  /* contended */
        "main{ parse{} mutex_lock{} mutex_lock{} log{} }",       /* the program's */
        "main{ parse{} mutex_lock{ check{} } log{} }",           /* another callee */
        "main{ parse{} mutex_lock{ mutex_slowpath{ check{} } } log{} }"};
    char pg[256], pb[256];
    ttd_diff *d;
    const ttd_result *r;

    two_threads(pg, sizeof pg, "main{ parse{} mutex_lock{} log{} }", "work{ mutex_lock{} lex{} }");
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        two_threads(pb, sizeof pb, bad[k], "work{ mutex_lock{} lex{} }");
        r = diff(pg, pb, &d);
        assert_int_equal(r->diverged, k == 0 ? 0 : 1);
        if (k == 0) {
            assert_int_equal(r->timing_total, 1);
            assert_int_equal(r->hunks[0].timing, TTD_TIMING_CONTENDED);
            assert_string_equal(ttd_timing_name(TTD_TIMING_CONTENDED), "contended");
        }
        ttd_free(d);
    }
    /* the other thread had ended before the slow path: nobody else held
     * or wanted the lock, so it is the program's doing */
    static const char *const names[] = {"main", "poller"};
    dt t;
    assert_int_equal(dt_open(&t, next_path(pb, sizeof pb), 0, names, 2), 0);
    assert_int_equal(dt_run(&t, 1, "work{ mutex_lock{} lex{} }"), 0);
    assert_int_equal(ttf_write_thread_end(t.w, 1, t.now[1] + 10), 0);
    assert_int_equal(dt_run(&t, 0, "@500000 main{ parse{} mutex_lock{ mutex_slowpath{} } log{} }"), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 1);
    assert_int_equal(r->timing_total, 0);
    ttd_free(d);
    /* one thread: nothing is timing */
    static const char *const one[] = {"main"};
    assert_int_equal(dt_open(&t, next_path(pg, sizeof pg), 0, one, 1), 0);
    assert_int_equal(dt_run(&t, 0, "main{ parse{} mutex_lock{} log{} }"), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    assert_int_equal(dt_open(&t, next_path(pb, sizeof pb), 0, one, 1), 0);
    assert_int_equal(dt_run(&t, 0, bad[0]), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 1);
    ttd_free(d);
}

/* Who won the once: the table built by main in one run, by the poller in
 * the other; what follows is the same. */
static void once_winner_is_moved(void **state)
{
    (void)state;
    char pg[256], pb[256];
    ttd_diff *d;

    two_threads(pg, sizeof pg, "main{ check{ log{lex{}lex{}} } parse{} }",
                "work{ check{} lex{} }");
    two_threads(pb, sizeof pb, "main{ check{} parse{} }",
                "work{ check{ log{lex{}lex{}} } lex{} }");
    const ttd_result *r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 0);
    assert_int_equal(r->timing_total, 2);
    assert_int_equal(r->hunks[0].timing, TTD_TIMING_MOVED);
    assert_int_equal(r->hunks[1].timing, TTD_TIMING_MOVED);
    assert_string_equal(ttd_timing_name(TTD_TIMING_MOVED), "moved");
    ttd_free(d);
    /* if the work that follows differs, it still shows */
    two_threads(pb, sizeof pb, "main{ check{} parse{} }",
                "work{ check{ log{lex{}lex{}} } fail{} }");
    r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 1);
    assert_non_null(r->first);
    assert_string_equal(r->first->bad[0].name, "dt_fail");
    ttd_free(d);
}

/* ---- a pool that grew by one worker (grew.c) ---------------------------- */

/* A sync op op on thread th of t (object obj, argument arg), 10 ns on. */
static void sop(dt *t, uint32_t th, int op, uint64_t obj, int64_t arg)
{
    t->now[th] += 10;
    assert_int_equal(ttf_write_sync_op(t->w, th, t->now[th], op, obj, arg), 0);
}

/* A run of a pool whose workers start in work{}: the creator (thread 0)
 * runs main{ helper{ CREATE } log{...} ... }, one job per after[0..2),
 * each a helper{} that creates a worker (the first n jobs) followed by
 * after[k]; worker k's items are w[k], where "L" is a lock wrapper:
 * check{} holding a LOCK record. */
static void grown_run(char *path, size_t len, const char *const *after,
                      const char *const *w, int n)
{
    static const char *const names[] = {"main", "worker-1", "worker-2"};
    dt t;

    assert_int_equal(dt_open(&t, next_path(path, len), 0, names, n + 1), 0);
    assert_int_equal(dt_run(&t, 0, "main{"), 0);
    for (int k = 0; k < 2; k++) {
        if (k < n) {
            assert_int_equal(dt_run(&t, 0, "helper{"), 0);
            sop(&t, 0, TTF_SOP_CREATE, 0x7000 + (uint64_t)k, k + 1);
            assert_int_equal(dt_run(&t, 0, "}"), 0);
        }
        assert_int_equal(dt_run(&t, 0, after[k]), 0);
    }
    assert_int_equal(dt_run(&t, 0, "}"), 0);
    for (int k = 0; k < n; k++) {
        assert_int_equal(dt_run(&t, (uint32_t)k + 1, "work{"), 0);
        for (const char *c = w[k]; *c; c++) {
            if (*c != 'L') {
                const char *e = strchr(c, 'L');
                char buf[128];
                size_t m = e ? (size_t)(e - c) : strlen(c);
                snprintf(buf, sizeof buf, "%.*s", (int)m, c);
                assert_int_equal(dt_run(&t, (uint32_t)k + 1, buf), 0);
                c += m - 1;
                continue;
            }
            assert_int_equal(dt_run(&t, (uint32_t)k + 1, "check{"), 0);
            sop(&t, (uint32_t)k + 1, TTF_SOP_LOCK, 0x9000, 0);
            assert_int_equal(dt_run(&t, (uint32_t)k + 1, "}"), 0);
        }
        assert_int_equal(dt_run(&t, (uint32_t)k + 1, "}"), 0);
    }
    assert_int_equal(dt_close(&t, 0), 0);
}

/* xz's decoder pool: the good run started a second worker (its second
 * job found no free one), the bad run's first worker took that job too.
 * The pool's work is the same (the extra worker's own lock aside), the
 * creator's helper{ CREATE } is the creation and its log{ lex{} } after
 * it repeats the one made after starting the first worker, in both runs
 * (the bad run's log{} after it is the reused worker's path): no
 * divergence, exit 0, the extra worker and the creator's hunks listed
 * with their evidence. Not hidden: the extra worker did an item no
 * thread of the other run did (fail{}), it locked twice more than its
 * turn, the creator's call after the creation is not the template
 * (log{ lex{} lex{} }). */
static void pool_grew_is_timing(void **state)
{
    (void)state;
    char pg[256], pb[256];
    ttd_diff *d;
    static const char *const after_g[] = {"log{ lex{} }", "log{ lex{} }"};
    static const char *const after_b[] = {"log{ lex{} }", "log{ }"};
    static const char *const wg[] = {"L parse{ lex{} } L", "L parse{ lex{} lex{} }"};
    static const char *const wb[] = {"L parse{ lex{} } L parse{ lex{} lex{} }"};

    grown_run(pg, sizeof pg, after_g, wg, 2);
    grown_run(pb, sizeof pb, after_b, wb, 1);
    const ttd_result *r = diff(pg, pb, &d);
    assert_int_equal(r->diverged, 0);
    assert_int_equal(r->nunpaired, 1);
    assert_int_equal(r->unpaired[0].grew, 1);
    assert_int_equal(r->unpaired[0].grew_extra, 1);
    size_t grew = 0, pool = 0;
    for (size_t i = 0; i < r->nhunks; i++)
        grew += r->hunks[i].timing == TTD_TIMING_GREW;
    for (size_t i = 0; i < r->verdict->nhidden; i++)
        pool += r->verdict->hidden[i].kind == TTD_HIDDEN_POOL &&
                strstr(r->verdict->hidden[i].text, "the pool started one more worker in the "
                       "good run") != NULL &&
                strstr(r->verdict->hidden[i].evidence, "but for 1 lock or wait call") != NULL;
    assert_int_equal(grew, 3);     /* the creation, the template, the worker's items */
    assert_int_equal(pool, 1);
    assert_string_equal(ttd_timing_name(TTD_TIMING_GREW), "grew");
    char *t = tu_report(d, ttr_text, NULL, NULL), *j = tu_report(d, ttr_json, NULL, NULL);
    char *html = tu_report(d, ttr_html, NULL, NULL);
    assert_non_null(strstr(t, "the pool started one more worker in the good run: thread "
                              "worker-2 (#2, start `dt_work`)"));
    assert_non_null(strstr(t, "the pool's extra worker: not a divergence"));
    assert_non_null(strstr(j, "\"grew\": true"));
    assert_non_null(strstr(j, "\"timing_kind\": \"grew\""));
    assert_non_null(strstr(html, "the pool started one more worker"));
    free(t);
    free(j);
    free(html);
    ttd_free(d);
    /* must not be hidden */
    static const char *const w1[] = {"L parse{ lex{} } L", "L parse{ lex{} lex{} } fail{}"};
    static const char *const w2[] = {"L parse{ lex{} } L", "L parse{ lex{} lex{} } L L"};
    static const char *const a3[] = {"log{ lex{} }", "log{ lex{} lex{} }"};
    const char *const *cases[][2] = {{after_g, w1}, {after_g, w2}, {a3, wg}};
    for (size_t i = 0; i < 3; i++) {
        grown_run(pg, sizeof pg, cases[i][0], cases[i][1], 2);
        r = diff(pg, pb, &d);
        if (r->diverged != 1 || r->unpaired[0].grew)
            fail_msg("case %zu: diverged %d, grew %d", i + 1, r->diverged, r->unpaired[0].grew);
        for (size_t k = 0; k < r->nhunks; k++)
            assert_int_not_equal(r->hunks[k].timing, TTD_TIMING_GREW);
        ttd_free(d);
    }
}

/* ---- call values in a pool (issue 33) --------------------------------------- */

/* A work item with an argument: its id (DWARF: one int parameter). */
__attribute__((noinline, used)) int tp_job(int id);
int tp_job(int id)
{
    return id * 3 + 1;
}

/* A values run: main, then three workers; worker i ran the jobs ids[i]
 * (0 ends the list), each tp_job(id){ lex{} } returning 0, inside work{}. */
static void job_run(char *path, size_t len, const int ids[3][3])
{
    ttf_writer_opts o = {.chunk_size = 65536, .timed = 1, .values = 1};
    uint64_t a = (uint64_t)(uintptr_t)tp_job;
    dt t;

    assert_int_equal(dt_open_opts(&t, next_path(path, len), 0, NAMES, 4, &o), 0);
    assert_int_equal(dt_run(&t, 0, "main{ }"), 0);
    for (uint32_t th = 1; th < 4; th++) {
        assert_int_equal(dt_run(&t, th, "work{"), 0);
        for (int k = 0; k < 3 && ids[th - 1][k]; k++) {
            uint64_t r[TTF_VALUE_REGS] = {(uint64_t)ids[th - 1][k], 0, 0, 0, 0, 0};
            assert_int_equal(ttf_write_enter_values(t.w, th, t.now[th] += 10, a, r), 0);
            assert_int_equal(dt_run(&t, th, "lex{}"), 0);
            assert_int_equal(ttf_write_exit_value(t.w, th, t.now[th] += 10, a, 0), 0);
        }
        assert_int_equal(dt_run(&t, th, "}"), 0);
    }
    assert_int_equal(dt_close(&t, 0), 0);
}

/* Good run g against bad run b: the first value difference's bad value
 * (tp_job's id), NULL when the runs are the same; twinned: the bad run's
 * jobs not compared because another worker of the good run did them
 * alike (ttd_result values_twinned, JSON values.twinned, the text's
 * values line). */
static void expect_job(const int g[3][3], const int b[3][3], const char *bad,
                       uint64_t twinned)
{
    char pg[256], pb[256];
    ttd_diff *d;

    job_run(pg, sizeof pg, g);
    job_run(pb, sizeof pb, b);
    const ttd_result *r = diff(pg, pb, &d);
    assert_int_equal(r->values, 1);
    assert_int_equal(r->npools, 1);
    if (!bad) {
        if (r->diverged || r->value_first)
            fail_msg("diverged %d, a value %s", r->diverged,
                     r->value_first ? r->value_first->bad_value : "(none)");
    } else {
        assert_int_equal(r->diverged, 1);
        assert_non_null(r->value_first);
        assert_string_equal(r->value_first->function, "tp_job");
        assert_string_equal(r->value_first->bad_value, bad);
        assert_int_equal(r->nvalue_others, 0); /* the swapped jobs' values: not shown */
    }
    if (r->values_twinned != twinned)
        fail_msg("values_twinned %llu, want %llu", (unsigned long long)r->values_twinned,
                 (unsigned long long)twinned);
    char *j = tu_report(d, ttr_json, NULL, NULL), want[64];
    snprintf(want, sizeof want, "\"twinned\": %llu", (unsigned long long)twinned);
    assert_non_null(strstr(j, want));
    free(j);
    char *t = tu_report(d, ttr_text, NULL, NULL);
    assert_true(!twinned == !strstr(t, "pool work item"));
    free(t);
    ttd_free(d);
}

/* A work item is its calls and its values: workers that took the same
 * jobs in another order (one each: a level above the loop the tree finds
 * inside the job; or several) are no difference, zstd's checksum_job
 * getting &jobs[1] in worker 1 and &jobs[0] in worker 2 in one good run,
 * the other way round in the next. Must-nots: a job run with another
 * argument; the same set of calls with one job twice and another never
 * (each bad job has a twin, but not one each); and a job with another
 * argument later in a worker whose first difference is a swapped job
 * (the pair's walk recorded only that one). */
static void pool_values_are_identity(void **state)
{
    (void)state;
    static const int one[3][3] = {{1}, {2}, {3}}, one_swapped[3][3] = {{2}, {1}, {3}};
    static const int one_other[3][3] = {{2}, {1}, {5}};
    static const int many[3][3] = {{1, 2}, {3}, {4}}, many_swapped[3][3] = {{3, 1}, {2}, {4}};
    static const int many_twice[3][3] = {{1, 1}, {3}, {4}};
    static const int many_later[3][3] = {{3, 7}, {1}, {4}};

    expect_job(one, one_swapped, NULL, 2);
    expect_job(many, many_swapped, NULL, 3);
    expect_job(one, one_other, "5", 2);
    expect_job(many, many_twice, "1", 0);
    expect_job(many, many_later, "7", 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(surplus_of_items),
        cmocka_unit_test(pool_shuffled_is_same),
        cmocka_unit_test(pool_items_two_jobs),
        cmocka_unit_test(pool_error_item_named),
        cmocka_unit_test(pool_needs_the_pool),
        cmocka_unit_test(pool_wrapped_loop),
        cmocka_unit_test(pool_idle_worker),
        cmocka_unit_test(poll_loop_is_timing),
        cmocka_unit_test(idle_gap_is_no_wait),
        cmocka_unit_test(sleep_beside_call_is_divergence),
        cmocka_unit_test(lazy_wait_is_timing),
        cmocka_unit_test(busy_loop_is_divergence),
        cmocka_unit_test(wait_once_is_timing),
        cmocka_unit_test(wait_at_start_is_timing),
        cmocka_unit_test(wait_alone_is_timing),
        cmocka_unit_test(wait_chain_is_timing),
        cmocka_unit_test(clock_spin_is_timing),
        cmocka_unit_test(wait_checks_are_timing),
        cmocka_unit_test(pool_wait_keeps_missing_item),
        cmocka_unit_test(retried_attempt_is_timing),
        cmocka_unit_test(once_winner_is_moved),
        cmocka_unit_test(lock_slow_path_is_contended),
        cmocka_unit_test(found_later_is_timing),
        cmocka_unit_test(timing_prefix_is_lean),
        cmocka_unit_test(pool_grew_is_timing),
        cmocka_unit_test(pool_values_are_identity),
    };
    return cmocka_run_group_tests(tests, tu_tmpdir_setup, tu_tmpdir_teardown);
}
