/*
 * test_engine.c - the ttdiff engine on traces written with the format
 * writer: identical runs, one changed call (thread, indexes, stack), thread
 * pairing, filters, other load addresses, message modes, a crash, the
 * earliest divergence across threads and what the other threads did.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "diff_traces.h"
#include "ttdiff.h"

#include "tmpdir.h"
static int seq;

static const char *const MAIN_ONLY[] = {"main"};

/* A fresh file name for the next trace. */
static const char *next_path(char *buf, size_t len)
{
    snprintf(buf, len, "%s/t%d.trc", tu_tmpdir, seq++);
    return buf;
}

/* Write a one-thread trace from script s (base shifted by shift). */
static void one(const char *path, uint64_t shift, const char *s, int crashed)
{
    dt t;
    assert_int_equal(dt_open(&t, path, shift, MAIN_ONLY, 1), 0);
    assert_int_equal(dt_site(&t, 0, 1, "value %d", "dt_log"), 0);
    assert_int_equal(dt_site(&t, 0, 2, "other %d", "dt_log"), 0);
    assert_int_equal(dt_run(&t, 0, s), 0);
    assert_int_equal(dt_close(&t, crashed), 0);
}

/* Diff two one-thread scripts. */
static ttd_diff *diff2(const char *good, const char *bad, const ttd_options *o,
                       uint64_t shift, int crashed)
{
    char pg[256], pb[256];
    ttd_diff *d = NULL;
    ttf_error err;

    one(next_path(pg, sizeof pg), 0, good, 0);
    one(next_path(pb, sizeof pb), shift, bad, crashed);
    int rc = ttd_diff_files(pg, pb, o, &d, &err);
    if (rc < 0)
        fail_msg("ttd_diff_files: %s", err.msg);
    return d;
}

static void test_identical(void **state)
{
    (void)state;
    const char *s = "main{ parse{ lex{} lex{} } check{ } }";
    ttd_diff *d = diff2(s, s, NULL, 0, 0);
    const ttd_result *r = ttd_get_result(d);

    assert_int_equal(r->diverged, 0);
    assert_null(r->first);
    assert_int_equal(r->hunks_total, 0);
    assert_int_equal(r->npairs, 1);
    assert_int_equal(r->pairs[0].paired_by, TTD_PAIR_MAIN);
    assert_int_equal(r->pairs[0].good.events, 10);
    assert_int_equal(r->pairs[0].bad.events, 10);
    assert_int_equal(r->nunpaired, 0);
    ttd_free(d);
}

static void test_changed_call(void **state)
{
    (void)state;
    ttd_diff *d = diff2("main{ parse{ lex{} check{} } lex{} }",
                        "main{ parse{ lex{} fail{} } lex{} }", NULL, 0, 0);
    const ttd_result *r = ttd_get_result(d);
    const ttd_divergence *f = r->first;

    assert_int_equal(r->diverged, 1);
    assert_non_null(f);
    assert_int_equal(f->good_index, 4);
    assert_int_equal(f->bad_index, 4);
    assert_int_equal(f->nstack, 2);
    assert_string_equal(f->stack[0].name, "dt_main");
    assert_string_equal(f->stack[1].name, "dt_parse");
    assert_non_null(f->stack[1].file);
    assert_non_null(strstr(f->stack[1].file, "diff_traces.c"));
    assert_true(f->stack[1].line > 0);
    assert_int_equal(f->ngood, 2);
    assert_string_equal(f->good[0].name, "dt_check");
    assert_int_equal(f->good[0].kind, TTF_EV_ENTER);
    assert_int_equal(f->nbad, 2);
    assert_string_equal(f->bad[0].name, "dt_fail");
    assert_int_equal(f->nbefore, 4);
    assert_string_equal(f->before[3].name, "dt_lex");
    assert_int_equal(f->before[3].kind, TTF_EV_EXIT);
    assert_null(f->crash);
    assert_int_equal(r->pairs[0].hunks, 1);
    ttd_free(d);
}

static void test_context_and_caps(void **state)
{
    (void)state;
    ttd_options o;
    ttd_options_init(&o);
    o.context = 2;
    o.max_lines = 3;
    ttd_diff *d = diff2("main{ parse{} lex{} check{} }",
                        "main{ parse{} fail{} fail{} fail{} }", &o, 0, 0);
    const ttd_divergence *f = ttd_get_result(d)->first;

    assert_non_null(f);
    assert_int_equal(f->nbefore, 2);
    assert_int_equal(f->nbad, 3);
    assert_int_equal(f->bad_more, 3);
    assert_int_equal(f->ngood, 3);
    assert_int_equal(f->good_more, 1);
    ttd_free(d);
}

static void test_load_addresses(void **state)
{
    (void)state;
    const char *s = "main{ parse{ lex{} } check{} }";
    ttd_diff *d = diff2(s, s, NULL, 0x40000000, 0);
    const ttd_result *r = ttd_get_result(d);

    assert_int_equal(r->diverged, 0);
    assert_string_equal(r->pairs[0].good.start, "dt_main");
    assert_string_equal(r->pairs[0].bad.start, "dt_main");
    ttd_free(d);

    /* and a real change is still seen at the other base */
    d = diff2(s, "main{ parse{ lex{} } fail{} }", NULL, 0x40000000, 0);
    assert_non_null(ttd_get_result(d)->first);
    assert_string_equal(ttd_get_result(d)->first->bad[0].name, "dt_fail");
    ttd_free(d);
}

static void test_filters(void **state)
{
    (void)state;
    const char *g = "main{ log{} parse{} }", *b = "main{ log{} log{} parse{} }";
    ttd_options o;
    ttd_diff *d = diff2(g, b, NULL, 0, 0);

    assert_int_equal(ttd_get_result(d)->diverged, 1);
    ttd_free(d);

    ttd_options_init(&o);
    o.exclude = "^dt_log$";
    d = diff2(g, b, &o, 0, 0);
    assert_int_equal(ttd_get_result(d)->diverged, 0);
    assert_int_equal(ttd_get_result(d)->pairs[0].good.events, 4);
    ttd_free(d);

    ttd_options_init(&o);
    o.function = "main|parse";
    d = diff2(g, b, &o, 0, 0);
    assert_int_equal(ttd_get_result(d)->diverged, 0);
    ttd_free(d);

    ttd_options_init(&o);
    o.function = "main|log";
    d = diff2(g, b, &o, 0, 0);
    assert_int_equal(ttd_get_result(d)->diverged, 1);
    ttd_free(d);
}

static void test_bad_regex(void **state)
{
    (void)state;
    char pg[256], pb[256];
    ttd_options o;
    ttd_diff *d = (ttd_diff *)&o;
    ttf_error err;

    one(next_path(pg, sizeof pg), 0, "main{}", 0);
    one(next_path(pb, sizeof pb), 0, "main{}", 0);
    ttd_options_init(&o);
    o.function = "(";
    assert_int_equal(ttd_diff_files(pg, pb, &o, &d, &err), TT_EINVAL);
    assert_null(d);
    assert_non_null(strstr(err.msg, "--function"));
    assert_non_null(strstr(err.msg, "offset 1"));
    assert_int_equal(ttd_diff_files(pg, "/nonexistent/x.trc", NULL, &d, &err), TT_EIO);
    assert_null(d);
    assert_non_null(strstr(err.msg, "x.trc"));
}

static void test_messages(void **state)
{
    (void)state;
    const char *g = "main{ #1:1 parse{} }", *b = "main{ #1:2 parse{} }";
    const char *b2 = "main{ #2:1 parse{} }";
    ttd_options o;

    ttd_options_init(&o);
    ttd_diff *d = diff2(g, b, &o, 0, 0);
    assert_int_equal(ttd_get_result(d)->diverged, 0); /* same site */
    ttd_free(d);
    d = diff2(g, b2, &o, 0, 0);
    assert_int_equal(ttd_get_result(d)->diverged, 1); /* other site */
    assert_int_equal(ttd_get_result(d)->first->bad[0].kind, TTF_EV_MESSAGE);
    assert_string_equal(ttd_get_result(d)->first->bad[0].text, "other 1");
    assert_string_equal(ttd_get_result(d)->first->bad[0].name, "dt_log");
    ttd_free(d);

    o.messages = TTD_MSG_TEXT;
    d = diff2(g, b, &o, 0, 0);
    assert_int_equal(ttd_get_result(d)->diverged, 1);
    assert_string_equal(ttd_get_result(d)->first->good[0].text, "value 1");
    assert_string_equal(ttd_get_result(d)->first->bad[0].text, "value 2");
    ttd_free(d);

    o.messages = TTD_MSG_OFF;
    d = diff2(g, b2, &o, 0, 0);
    assert_int_equal(ttd_get_result(d)->diverged, 0);
    assert_int_equal(ttd_get_result(d)->pairs[0].good.events, 4);
    ttd_free(d);
}

/* Site ids depend on firing order; the same TT_LOG with another id in the
 * other run must still compare equal. */
static void test_site_ids_differ(void **state)
{
    (void)state;
    char pg[256], pb[256];
    dt t;
    ttd_diff *d;
    ttf_error err;

    assert_int_equal(dt_open(&t, next_path(pg, sizeof pg), 0, MAIN_ONLY, 1), 0);
    assert_int_equal(dt_site(&t, 0, 1, "value %d", "dt_log"), 0);
    assert_int_equal(dt_site(&t, 0, 2, "other %d", "dt_log"), 0);
    assert_int_equal(dt_run(&t, 0, "main{ #1:5 #2:6 }"), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    assert_int_equal(dt_open(&t, next_path(pb, sizeof pb), 0, MAIN_ONLY, 1), 0);
    assert_int_equal(dt_site(&t, 0, 7, "other %d", "dt_log"), 0);
    assert_int_equal(dt_site(&t, 0, 3, "value %d", "dt_log"), 0);
    assert_int_equal(dt_run(&t, 0, "main{ #3:5 #7:6 }"), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    assert_int_equal(ttd_diff_files(pg, pb, NULL, &d, &err), 0);
    assert_int_equal(ttd_get_result(d)->diverged, 0);
    ttd_free(d);
}

static void test_crash(void **state)
{
    (void)state;
    ttd_diff *d = diff2("main{ parse{ lex{} } check{} }", "main{ parse{ *11", NULL, 0, 1);
    const ttd_result *r = ttd_get_result(d);
    const ttd_divergence *f = r->first;

    assert_non_null(f);
    assert_int_equal(f->bad_index, 2);
    assert_non_null(f->crash);
    assert_int_equal(f->crash->signo, 11);
    assert_string_equal(f->crash->name, "dt_parse");
    assert_int_equal(f->nstack, 2);
    assert_string_equal(f->stack[1].name, "dt_parse");
    assert_non_null(r->runs[TTD_BAD].crash);
    assert_null(r->runs[TTD_GOOD].crash);
    assert_int_equal(r->runs[TTD_BAD].closed, 0);
    assert_int_equal(r->runs[TTD_GOOD].closed, 1);
    ttd_free(d);
}

/* Three threads per run, in another order and with an extra one. */
static void test_pairing(void **state)
{
    (void)state;
    static const char *const gn[] = {"main", "worker", "logger", NULL};
    static const char *const bn[] = {"main", "logger", NULL, "worker", "extra"};
    char pg[256], pb[256];
    dt t;
    ttd_diff *d;
    ttf_error err;

    assert_int_equal(dt_open(&t, next_path(pg, sizeof pg), 0, gn, 4), 0);
    assert_int_equal(dt_run(&t, 0, "main{ parse{} }"), 0);
    assert_int_equal(dt_run(&t, 1, "work{ lex{} }"), 0);
    assert_int_equal(dt_run(&t, 2, "helper{ log{} }"), 0);
    assert_int_equal(dt_run(&t, 3, "check{ }"), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    assert_int_equal(dt_open(&t, next_path(pb, sizeof pb), 0, bn, 5), 0);
    assert_int_equal(dt_run(&t, 0, "main{ parse{} }"), 0);
    assert_int_equal(dt_run(&t, 1, "helper{ log{} }"), 0);
    assert_int_equal(dt_run(&t, 2, "check{ }"), 0);
    assert_int_equal(dt_run(&t, 3, "work{ fail{} }"), 0);
    assert_int_equal(dt_run(&t, 4, "work{ }"), 0);
    assert_int_equal(dt_close(&t, 0), 0);

    assert_int_equal(ttd_diff_files(pg, pb, NULL, &d, &err), 0);
    const ttd_result *r = ttd_get_result(d);
    assert_int_equal(r->npairs, 4);
    assert_int_equal(r->pairs[0].paired_by, TTD_PAIR_MAIN);
    assert_int_equal(r->pairs[1].good.index, 1);
    assert_int_equal(r->pairs[1].bad.index, 3);
    assert_int_equal(r->pairs[1].paired_by, TTD_PAIR_NAME_START);
    assert_int_equal(r->pairs[2].bad.index, 1);
    assert_int_equal(r->pairs[3].good.index, 3);
    assert_int_equal(r->pairs[3].bad.index, 2);
    assert_int_equal(r->pairs[3].paired_by, TTD_PAIR_NAME_START);
    assert_int_equal(r->nunpaired, 1);
    assert_int_equal(r->unpaired[0].run, TTD_BAD);
    assert_int_equal(r->unpaired[0].thread.index, 4);
    assert_string_equal(r->unpaired[0].thread.name, "extra");
    assert_string_equal(r->unpaired[0].thread.start, "dt_work");
    assert_non_null(r->first);
    assert_int_equal(r->first->pair, 1);
    assert_string_equal(r->first->bad[0].name, "dt_fail");
    ttd_free(d);

    /* --thread by name and by number */
    ttd_options o;
    ttd_options_init(&o);
    o.thread = "^logger$";
    assert_int_equal(ttd_diff_files(pg, pb, &o, &d, &err), 0);
    assert_int_equal(ttd_get_result(d)->npairs, 1);
    assert_int_equal(ttd_get_result(d)->diverged, 0);
    ttd_free(d);
    o.thread = "1";     /* a whole number: thread index 1 only */
    assert_int_equal(ttd_diff_files(pg, pb, &o, &d, &err), 0);
    assert_int_equal(ttd_get_result(d)->npairs, 2); /* good #1 and bad #1 */
    assert_int_equal(ttd_get_result(d)->diverged, 1);
    ttd_free(d);
}

/* Both threads diverge; the one that does so first in bad time wins, and
 * the other thread's last events before it are reported. */
static void test_earliest_and_others(void **state)
{
    (void)state;
    static const char *const names[] = {"main", "worker"};
    char pg[256], pb[256];
    dt t;
    ttd_diff *d;
    ttf_error err;

    assert_int_equal(dt_open(&t, next_path(pg, sizeof pg), 0, names, 2), 0);
    assert_int_equal(dt_run(&t, 0, "@2000 main{ parse{} check{} }"), 0);
    assert_int_equal(dt_run(&t, 1, "@1000 work{ lex{} lex{} }"), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    assert_int_equal(dt_open(&t, next_path(pb, sizeof pb), 0, names, 2), 0);
    assert_int_equal(dt_run(&t, 0, "@2000 main{ parse{} fail{} }"), 0);
    assert_int_equal(dt_run(&t, 1, "@1000 work{ lex{} helper{} } @5000 log{}"), 0);
    assert_int_equal(dt_close(&t, 0), 0);

    assert_int_equal(ttd_diff_files(pg, pb, NULL, &d, &err), 0);
    const ttd_result *r = ttd_get_result(d);
    assert_int_equal(r->hunks_total, 3); /* the worker also logs at the end */
    assert_int_equal(r->first->pair, 1);
    assert_string_equal(r->first->bad[0].name, "dt_helper");
    assert_int_equal(r->first->bad_time_ns, 1040 - 1000); /* since the trace start */
    /* main had only started when the worker split */
    assert_int_equal(r->first->nothers[TTD_BAD], 0);
    assert_int_equal(r->hunks[1].pair, 0);
    assert_string_equal(r->hunks[1].bad_first->name, "dt_fail");

    /* the detail of the second hunk: the worker was done by then */
    const ttd_divergence *h;
    assert_int_equal(ttd_hunk_detail(d, 1, &h), 0);
    assert_string_equal(h->bad[0].name, "dt_fail");
    assert_int_equal(h->nothers[TTD_BAD], 1);
    assert_string_equal(h->others[TTD_BAD][0].name, "worker");
    assert_int_equal(h->others[TTD_BAD][0].nevents, 2);
    assert_int_equal(h->others[TTD_BAD][0].events[1].kind, TTF_EV_EXIT);
    assert_string_equal(h->others[TTD_BAD][0].events[1].name, "dt_work");
    assert_int_equal(ttd_hunk_detail(d, 3, &h), TT_EINVAL);
    ttd_free(d);
}

/* Two report events alike (names by content: strings live in each diff). */
static void same_events(const ttd_event *a, const ttd_event *b, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(a[i].kind, b[i].kind);
        assert_int_equal(a[i].index, b[i].index);
        assert_int_equal(a[i].time_ns, b[i].time_ns);
        assert_string_equal(a[i].name ? a[i].name : "-", b[i].name ? b[i].name : "-");
    }
}

/* The details of one hunk from two diffs of the same traces alike. */
static void same_detail(const ttd_divergence *a, const ttd_divergence *b)
{
    assert_int_equal(a->pair, b->pair);
    assert_int_equal(a->good_index, b->good_index);
    assert_int_equal(a->bad_index, b->bad_index);
    assert_int_equal(a->good_time_ns, b->good_time_ns);
    assert_int_equal(a->bad_time_ns, b->bad_time_ns);
    assert_int_equal(a->nstack, b->nstack);
    for (size_t i = 0; i < a->nstack; i++)
        assert_string_equal(a->stack[i].name, b->stack[i].name);
    assert_int_equal(a->nbefore, b->nbefore);
    same_events(a->before, b->before, a->nbefore);
    assert_int_equal(a->ngood, b->ngood);
    same_events(a->good, b->good, a->ngood);
    assert_int_equal(a->nbad, b->nbad);
    same_events(a->bad, b->bad, a->nbad);
    assert_int_equal(a->nsuspects, b->nsuspects);
    for (size_t i = 0; i < a->nsuspects; i++)
        assert_string_equal(a->suspects[i].name, b->suspects[i].name);
    for (int ri = 0; ri < 2; ri++) {
        assert_int_equal(a->nothers[ri], b->nothers[ri]);
        for (size_t i = 0; i < a->nothers[ri]; i++) {
            assert_int_equal(a->others[ri][i].thread, b->others[ri][i].thread);
            assert_int_equal(a->others[ri][i].nevents, b->others[ri][i].nevents);
            same_events(a->others[ri][i].events, b->others[ri][i].events,
                        a->others[ri][i].nevents);
        }
    }
}

/* Write a 3-thread run whose threads take turns; bad != 0 changes some
 * calls of every thread, at interleaved times and close together. */
static void turns(const char *path, int bad)
{
    static const char *const names[] = {"main", "worker", "worker"};
    dt t;

    assert_int_equal(dt_open(&t, path, 0, names, 3), 0);
    for (uint32_t th = 0; th < 3; th++)
        assert_int_equal(dt_run(&t, th, "main{"), 0);
    for (int k = 0; k < 60; k++) {
        for (uint32_t th = 0; th < 3; th++) {
            char s[96];
            uint64_t at = 10000 + (uint64_t)k * 1000 + th * 300;
            int change = bad && (k % 4 == (int)th || k == 20 || k == 21);
            snprintf(s, sizeof s, "@%llu parse{ lex{} %s } check{}",
                     (unsigned long long)at, change ? "fail{} log{}" : "lex{}");
            assert_int_equal(dt_run(&t, th, s), 0);
        }
    }
    for (uint32_t th = 0; th < 3; th++)
        assert_int_equal(dt_run(&t, th, "}"), 0);
    assert_int_equal(dt_close(&t, 0), 0);
}

/* The details of many hunks computed together (one walk per thread) are
 * those computed one by one, in any order. */
static void test_details_batch(void **state)
{
    (void)state;
    char pg[256], pb[256];
    ttd_diff *d1, *d2;
    ttd_options o;
    ttf_error err;

    turns(next_path(pg, sizeof pg), 0);
    turns(next_path(pb, sizeof pb), 1);
    ttd_options_init(&o);
    o.max_hunks = 0;
    o.other_events = 3;
    assert_int_equal(ttd_diff_files(pg, pb, &o, &d1, &err), 0);
    assert_int_equal(ttd_diff_files(pg, pb, &o, &d2, &err), 0);
    const ttd_result *r = ttd_get_result(d1);
    size_t n = r->nhunks;
    assert_true(n > 32); /* more than one batch of details */
    assert_int_equal(ttd_hunk_details(d1, 0, n), 0);
    assert_int_equal(ttd_hunk_details(d1, n, 1), TT_EINVAL);
    assert_int_equal(ttd_hunk_details(NULL, 0, 0), TT_EINVAL);
    size_t others = 0;
    for (size_t i = n; i-- > 0;) {
        const ttd_divergence *a, *b;
        assert_int_equal(ttd_hunk_detail(d2, i, &b), 0);
        assert_int_equal(ttd_hunk_detail(d1, i, &a), 0);
        same_detail(a, b);
        others += a->nothers[TTD_BAD];
    }
    assert_true(others > n); /* the other threads were shown */
    ttd_free(d1);
    ttd_free(d2);
}

/* A walk's stack through an unbalanced stream deeper than the scan: an
 * exit with no open frame leaves it alone, an exit of an outer frame (a
 * longjmp) closes everything inside it. */
static void deep(const char *path, int bad)
{
    uint64_t a[8], now = 1000;
    dt t;

    assert_int_equal(dt_open(&t, path, 0, MAIN_ONLY, 1), 0);
    for (size_t i = 0; i < 8; i++)
        a[i] = dt_addr(&t, dt_fns[i].name, strlen(dt_fns[i].name));
    /* main work parse x100, stray exit of lex, a changed call deep down */
    assert_int_equal(ttf_write_enter(t.w, 0, now++, a[0]), 0);
    assert_int_equal(ttf_write_enter(t.w, 0, now++, a[5]), 0);
    for (int i = 0; i < 100; i++)
        assert_int_equal(ttf_write_enter(t.w, 0, now++, a[1]), 0);
    assert_int_equal(ttf_write_exit(t.w, 0, now++, a[2]), 0);
    assert_int_equal(ttf_write_enter(t.w, 0, now++, a[bad ? 6 : 7]), 0);
    assert_int_equal(ttf_write_exit(t.w, 0, now++, a[bad ? 6 : 7]), 0);
    /* work returns past its 100 open callees; a changed call in check */
    assert_int_equal(ttf_write_exit(t.w, 0, now++, a[5]), 0);
    assert_int_equal(ttf_write_enter(t.w, 0, now++, a[3]), 0);
    assert_int_equal(ttf_write_enter(t.w, 0, now++, a[bad ? 4 : 2]), 0);
    assert_int_equal(ttf_write_exit(t.w, 0, now++, a[bad ? 4 : 2]), 0);
    assert_int_equal(ttf_write_exit(t.w, 0, now++, a[3]), 0);
    assert_int_equal(ttf_write_exit(t.w, 0, now++, a[0]), 0);
    assert_int_equal(dt_close(&t, 0), 0);
}

static void test_deep_unbalanced(void **state)
{
    (void)state;
    char pg[256], pb[256];
    ttd_diff *d;
    ttf_error err;
    const ttd_divergence *h;

    deep(next_path(pg, sizeof pg), 0);
    deep(next_path(pb, sizeof pb), 1);
    assert_int_equal(ttd_diff_files(pg, pb, NULL, &d, &err), 0);
    const ttd_result *r = ttd_get_result(d);
    assert_int_equal(r->nhunks, 2);
    h = r->first;
    assert_int_equal(h->nstack, 102); /* main work parse x100: lex closed none */
    assert_string_equal(h->stack[1].name, "dt_work");
    assert_string_equal(h->stack[101].name, "dt_parse");
    assert_int_equal(ttd_hunk_detail(d, 1, &h), 0);
    assert_int_equal(h->nstack, 2); /* main check: work closed its callees */
    assert_string_equal(h->stack[0].name, "dt_main");
    assert_string_equal(h->stack[1].name, "dt_check");
    ttd_free(d);
}

static void test_api_contract(void **state)
{
    (void)state;
    char pg[256];
    ttd_options o;
    ttd_diff *d = NULL;
    ttf_error err;

    assert_int_equal(ttd_version(), TTD_VERSION_NUMBER);
    ttd_free(NULL);
    assert_null(ttd_get_result(NULL));
    assert_int_equal(ttd_hunk_detail(NULL, 0, NULL), TT_EINVAL);
    assert_int_equal(ttd_diff_files(NULL, "x", NULL, &d, &err), TT_EINVAL);
    assert_int_equal(ttd_diff_traces(NULL, NULL, NULL, &d, &err), TT_EINVAL);
    assert_null(d);
    one(next_path(pg, sizeof pg), 0, "main{}", 0);
    ttd_options_init(&o);
    o.messages = 7;
    assert_int_equal(ttd_diff_files(pg, pg, &o, &d, &err), TT_EINVAL);
    assert_null(d);
    assert_string_equal(ttd_paired_by_name(TTD_PAIR_NAME_START), "name+start");
    assert_string_equal(ttd_paired_by_name(99), "?");

    /* over traces the caller opened and keeps */
    ttf_trace *t;
    assert_int_equal(ttf_open(pg, &t, &err), 0);
    assert_int_equal(ttd_diff_traces(t, t, NULL, &d, &err), 0);
    assert_int_equal(ttd_get_result(d)->diverged, 0);
    assert_int_equal(ttd_hunk_detail(d, 0, &(const ttd_divergence *){NULL}), TT_EINVAL);
    ttd_free(d);
    ttf_close(t);
}

/* --thread means one thing everywhere: a whole number is a thread index
 * ("1" is not 10 or 11), anything else a regex on the name or first name. */
static void test_thread_match(void **state)
{
    ttd_regex *one = NULL, *work = NULL;
    ttf_error err;

    (void)state;
    assert_int_equal(ttd_regex_compile("1", &one, &err), 0);
    assert_int_equal(ttd_regex_compile("^work", &work, &err), 0);
    assert_true(ttd_thread_match(NULL, NULL, 7, "x", NULL));
    assert_true(ttd_thread_match("1", one, 1, "main", NULL));
    assert_false(ttd_thread_match("1", one, 10, "main", NULL));
    assert_false(ttd_thread_match("1", one, 11, "t1", "w1"));
    assert_false(ttd_thread_match("01x", NULL, 1, "main", NULL));
    assert_true(ttd_thread_match("^work", work, 3, "renamed", "worker"));
    assert_true(ttd_thread_match("^work", work, 3, "worker", NULL));
    assert_false(ttd_thread_match("^work", work, 3, NULL, "main"));
    ttd_regex_free(one);
    ttd_regex_free(work);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_identical),
        cmocka_unit_test(test_changed_call),
        cmocka_unit_test(test_context_and_caps),
        cmocka_unit_test(test_load_addresses),
        cmocka_unit_test(test_filters),
        cmocka_unit_test(test_bad_regex),
        cmocka_unit_test(test_messages),
        cmocka_unit_test(test_site_ids_differ),
        cmocka_unit_test(test_crash),
        cmocka_unit_test(test_pairing),
        cmocka_unit_test(test_thread_match),
        cmocka_unit_test(test_earliest_and_others),
        cmocka_unit_test(test_details_batch),
        cmocka_unit_test(test_deep_unbalanced),
        cmocka_unit_test(test_api_contract),
    };
    return cmocka_run_group_tests(tests, tu_tmpdir_setup, tu_tmpdir_teardown);
}
