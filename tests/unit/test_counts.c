/*
 * test_counts.c - counts are facts (diff/counts.c, issue 31): whole diffs
 * of hand-made traces. Sellers that share one queue of work differently
 * in every run but make the same number of calls all told give no count;
 * one more call in the bad run is a count fact (and a divergence) even
 * when the threads' shares also vary between the good runs (baselines),
 * or when the pool hides the extra item; a wait loop that ran more times
 * with its waits recorded (timing) gives none, the same loop with no
 * waits does; a function --exclude drops is never one. And a thread the
 * process exit cut short inside a call (timing.c's "cut").
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
#include "prepare.h"
#include "ttdiff.h"
#include "tmpdir.h"

static char *next_path(char *buf, size_t len)
{
    static int seq;
    snprintf(buf, len, "%s/c%d.trc", tu_tmpdir, seq++);
    return buf;
}

static const char *const NAMES[] = {"main", "seller-0", "seller-1"};

/* A run: main, then two sellers running s0 and s1. */
static void sellers(char *path, size_t len, const char *s0, const char *s1)
{
    dt t;

    assert_int_equal(dt_open(&t, next_path(path, len), 0, NAMES, 3), 0);
    assert_int_equal(dt_run(&t, 0, "main{ }"), 0);
    assert_int_equal(dt_run(&t, 1, s0), 0);
    assert_int_equal(dt_run(&t, 2, s1), 0);
    assert_int_equal(dt_close(&t, 0), 0);
}

static int first_only, jobs;    /* ttd_options' for diff() */

static const ttd_result *diff(const char *g, const char *b, const char *const *base, size_t nb,
                              const char *exclude, ttd_diff **d)
{
    ttd_options o;
    ttf_error err;

    ttd_options_init(&o);
    o.first_only = first_only;
    o.jobs = jobs;
    o.baselines = base;
    o.nbaselines = nb;
    o.exclude = exclude;
    if (ttd_diff_files(g, b, &o, d, &err))
        fail_msg("ttd_diff_files: %s", err.msg);
    return ttd_get_result(*d);
}

static const ttd_count *count_of(const ttd_result *r, const char *fn)
{
    for (size_t i = 0; i < r->verdict->ncounts; i++)
        if (!strcmp(r->verdict->counts[i].function, fn))
            return &r->verdict->counts[i];
    return NULL;
}

/* "check{} parse{}" is one seat: the check, then the sale. */
#define SEAT "check{} parse{} "

/* Four seats shared 3:1, 1:3 and 2:2: no count; five in the bad run (one
 * seat sold twice): parse and check 5 times, every good run 4. */
static void extra_call_is_a_fact(void **state)
{
    (void)state;
    char pg[256], pb[256], p1[256], p2[256];
    const char *base[2] = {p1, p2};
    ttd_diff *d;

    sellers(pg, sizeof pg, "work{ " SEAT SEAT SEAT "check{} }", "work{ " SEAT "check{} }");
    sellers(p1, sizeof p1, "work{ " SEAT "check{} }", "work{ " SEAT SEAT SEAT "check{} }");
    sellers(p2, sizeof p2, "work{ " SEAT SEAT "check{} }", "work{ " SEAT SEAT "check{} }");
    const ttd_result *r = diff(pg, p2, base, 1, NULL, &d);
    assert_int_equal(r->verdict->ncounts, 0);        /* shares differ, totals do not */
    ttd_free(d);
    sellers(pb, sizeof pb, "work{ " SEAT SEAT "check{} }", "work{ " SEAT SEAT SEAT "check{} }");
    r = diff(pg, pb, base, 2, NULL, &d);
    const ttd_count *c = count_of(r, "dt_parse");
    assert_non_null(c);
    assert_int_equal(c->bad, 5);
    assert_int_equal(c->good_min, 4);
    assert_int_equal(c->good_max, 4);
    assert_int_equal(c->good_runs, 3);
    assert_int_equal(r->diverged, 1);
    assert_null(count_of(r, "dt_work"));    /* 2 in every run */
    assert_int_equal(r->verdict->status, TTD_VERDICT_DIVERGED);
    assert_int_equal(r->verdict->exit, 1);
    ttd_free(d);
    /* a function --exclude drops is not counted */
    r = diff(pg, pb, base, 2, "parse", &d);
    assert_null(count_of(r, "dt_parse"));
    assert_non_null(count_of(r, "dt_check"));
    ttd_free(d);
    /* the good runs disagree (3 to 4 seats): a count that varies between
     * good runs is no fact, even outside their range */
    sellers(p1, sizeof p1, "work{ " SEAT SEAT "check{} }", "work{ " SEAT "check{} }");
    r = diff(pg, pb, base, 2, NULL, &d);
    assert_null(count_of(r, "dt_parse"));
    ttd_free(d);
    /* within the good runs' range: no fact (3 to 5 seats) */
    sellers(p1, sizeof p1, "work{ " SEAT SEAT SEAT "check{} }", "work{ " SEAT SEAT "check{} }");
    r = diff(pg, pb, base, 2, NULL, &d);
    assert_null(count_of(r, "dt_parse"));
    ttd_free(d);
}

/* A poll loop that checked 4 times instead of 2, each check followed by
 * a wait that blocked (recorded): timing, no count. The same loop whose
 * waits are not recorded (an idle gap in helper): a count. */
static void wait_loop_is_no_fact(void **state)
{
    (void)state;
    char pg[256], pb[256];
    ttd_diff *d;

    sellers(pg, sizeof pg, "main{ parse{} }",
            "work{ check{} wait{ @100000 } check{} wait{ @200000 } check{} lex{} }");
    sellers(pb, sizeof pb, "main{ parse{} }",
            "work{ check{} wait{ @100000 } check{} wait{ @200000 } check{} "
            "wait{ @300000 } check{} wait{ @400000 } check{} lex{} }");
    const ttd_result *r = diff(pg, pb, NULL, 0, NULL, &d);
    assert_int_equal(r->timing_total, 1);
    assert_int_equal(r->verdict->ncounts, 0);
    assert_int_equal(r->diverged, 0);
    /* hidden, with its evidence, and said so: nondeterministic, exit 0 */
    assert_int_equal(r->verdict->status, TTD_VERDICT_NONDET);
    assert_int_equal(r->verdict->exit, 0);
    assert_int_equal(r->verdict->nhidden, 1);
    assert_int_equal(r->verdict->hidden[0].kind, TTD_HIDDEN_TIMING);
    assert_non_null(strstr(r->verdict->hidden[0].text, "not counted as a divergence because"));
    assert_non_null(strstr(r->verdict->hidden[0].evidence, "waited"));
    /* the evidence says how long the extra iterations blocked: the two
     * extra wait calls, 0.1 ms each (ENTER to EXIT) */
    assert_non_null(strstr(r->verdict->hidden[0].evidence, "2 recorded waits"));
    assert_non_null(strstr(r->verdict->hidden[0].evidence, "0.200 ms blocked"));
    assert_int_equal(r->hunks[0].waits, 2);
    assert_true(r->hunks[0].wait_ns >= 199000 && r->hunks[0].wait_ns <= 201000);
    ttd_free(d);
    sellers(pg, sizeof pg, "main{ parse{} }",
            "work{ check{} helper{ @100000 } check{} helper{ @200000 } check{} lex{} }");
    sellers(pb, sizeof pb, "main{ parse{} }",
            "work{ check{} helper{ @100000 } check{} helper{ @200000 } check{} "
            "helper{ @300000 } check{} helper{ @400000 } check{} lex{} }");
    r = diff(pg, pb, NULL, 0, NULL, &d);
    const ttd_count *c = count_of(r, "dt_check");
    assert_non_null(c);
    assert_int_equal(c->bad, 5);
    assert_int_equal(c->good_min, 3);
    assert_int_equal(c->good_runs, 1);
    assert_int_equal(r->diverged, 1);
    ttd_free(d);
}

/* A thread of two poll loops, of n and m checks, with a call to w
 * between two checks (each 0.1 ms later), lex{} after each loop. */
static void polls(char *path, size_t len, const char *w, int n, int m)
{
    char buf[2048];
    int k = snprintf(buf, sizeof buf, "work{ ");
    unsigned at = 0;

    for (int l = 0; l < 2; l++) {
        k += snprintf(buf + k, sizeof buf - (size_t)k, "check{} ");
        for (int i = 1; i < (l ? m : n); i++)
            k += snprintf(buf + k, sizeof buf - (size_t)k, "%s{ @%u } check{} ", w,
                          at += 100000);
        k += snprintf(buf + k, sizeof buf - (size_t)k, "lex{} ");
    }
    snprintf(buf + k, sizeof buf - (size_t)k, "}");
    sellers(path, len, "main{ parse{} }", buf);
}

/* The good runs share a count by chance (5 checks, split 3+2 and 2+3:
 * the baseline knows the loops vary), the bad run made 6. When each
 * extra check followed a wait that blocked, the loop only polled longer:
 * no count (ttdiff_poll_moves's worker, 1 pair in 10 under load before
 * the expected hunks were judged for waits too). With a plain call in
 * its place the count is a fact, as a seat sold twice. */
static void expected_wait_loop_is_no_fact(void **state)
{
    (void)state;
    char pg[256], pb[256], p1[256];
    const char *base[1] = {p1};
    ttd_diff *d;

    polls(pg, sizeof pg, "wait", 3, 2);
    polls(p1, sizeof p1, "wait", 2, 3);
    polls(pb, sizeof pb, "wait", 3, 3);
    const ttd_result *r = diff(pg, pb, base, 1, NULL, &d);
    assert_true(r->expected_total > 0);
    assert_null(count_of(r, "dt_check"));
    assert_int_equal(r->diverged, 0);
    assert_int_equal(r->verdict->exit, 0);
    ttd_free(d);
    polls(pg, sizeof pg, "helper", 3, 2);
    polls(p1, sizeof p1, "helper", 2, 3);
    polls(pb, sizeof pb, "helper", 3, 3);
    r = diff(pg, pb, base, 1, NULL, &d);
    assert_true(r->expected_total > 0);
    const ttd_count *c = count_of(r, "dt_check");
    assert_non_null(c);
    assert_int_equal(c->bad, 6);
    assert_int_equal(c->good_min, 5);
    assert_int_equal(r->verdict->exit, 1);
    ttd_free(d);
}

/* A run of one thread: main calling s. */
static void one_thread(char *path, size_t len, const char *s)
{
    dt t;

    assert_int_equal(dt_open(&t, next_path(path, len), 0, NAMES, 1), 0);
    assert_int_equal(dt_run(&t, 0, s), 0);
    assert_int_equal(dt_close(&t, 0), 0);
}

/* The tree build's keyed walks read each thread of a pair likely to
 * part (its threads' event counts differ, or a pair before it parted)
 * whole from its start and count its calls as they go
 * (ttdi_walk_count_open, issue 38): the count facts read no such thread
 * again, with one job or two, one thread (no run walk reads a split
 * thread of a program with no sync operations whole) or several (the
 * main thread, the same in both runs, is read for the good run, the bad
 * one's copied); --first-only reads the threads to the first difference
 * only, and the calls-only pass counts them: the same facts. */
static void tree_build_counts(void **state)
{
    (void)state;
    char pg[256], pb[256], sg[256], sb[256];
    ttd_diff *d;

    one_thread(pg, sizeof pg, "main{ work{ " SEAT SEAT "check{} } " SEAT "}");
    one_thread(pb, sizeof pb, "main{ work{ " SEAT SEAT SEAT "check{} } " SEAT "}");
    sellers(sg, sizeof sg, "work{ " SEAT "check{} }", "work{ " SEAT SEAT "check{} }");
    sellers(sb, sizeof sb, "work{ " SEAT SEAT "check{} }", "work{ " SEAT SEAT "check{} }");
    for (int k = 0; k < 6; k++) {
        const char *g = k % 2 ? sg : pg, *b = k % 2 ? sb : pb;
        jobs = k / 2 % 2 ? 1 : 0;
        first_only = k / 4;
        ttdi_prof_calls_read = 0;
        const ttd_result *r = diff(g, b, NULL, 0, NULL, &d);
        const ttd_count *c = count_of(r, "dt_parse");
        assert_non_null(c);
        assert_int_equal(c->bad, 4);
        assert_int_equal(c->good_min, 3);
        assert_non_null(count_of(r, "dt_check"));
        assert_null(count_of(r, "dt_work"));
        if (first_only)
            assert_true(ttdi_prof_calls_read > (uint64_t)k % 2);
        else
            assert_int_equal(ttdi_prof_calls_read, k % 2);   /* the good main */
        ttd_free(d);
    }
    jobs = first_only = 0;
}

/* Identical runs: nothing counted, nothing read. */
static void same_runs_no_fact(void **state)
{
    (void)state;
    char pg[256], pb[256];
    ttd_diff *d;

    sellers(pg, sizeof pg, "work{ " SEAT "check{} }", "work{ " SEAT SEAT "check{} }");
    sellers(pb, sizeof pb, "work{ " SEAT "check{} }", "work{ " SEAT SEAT "check{} }");
    const ttd_result *r = diff(pg, pb, NULL, 0, NULL, &d);
    assert_int_equal(r->verdict->ncounts, 0);
    assert_int_equal(r->diverged, 0);
    assert_int_equal(r->verdict->status, TTD_VERDICT_SAME);
    assert_int_equal(r->verdict->nhidden, 0);
    ttd_free(d);
}

/* The same calls, but the bad run recorded no end (a SIGKILL leaves no END
 * and no CRASH): its end is told as such, not as "exited 0". */
static void killed_run_has_no_end(void **state)
{
    (void)state;
    char pg[256], pb[256];
    ttd_diff *d;
    dt t;

    sellers(pg, sizeof pg, "work{ lex{} }", "work{ lex{} }");
    assert_int_equal(dt_open(&t, next_path(pb, sizeof pb), 0, NAMES, 3), 0);
    assert_int_equal(dt_run(&t, 0, "main{ }"), 0);
    assert_int_equal(dt_run(&t, 1, "work{ lex{} }"), 0);
    assert_int_equal(dt_run(&t, 2, "work{ lex{} }"), 0);
    assert_int_equal(dt_close(&t, 1), 0);
    const ttd_result *r = diff(pg, pb, NULL, 0, NULL, &d);
    assert_int_equal(r->outcome.has_exit[TTD_BAD], 0);
    assert_int_equal(r->outcome.differs, 1);
    assert_non_null(r->verdict->symptom);
    assert_non_null(strstr(r->verdict->symptom->text, "the bad run recorded no end"));
    assert_null(strstr(r->verdict->symptom->text, "exited 0, the good run 0"));
    ttd_free(d);
}

/* A worker the exit cut short inside a call (no thread end, frames open)
 * while the other run's worker got on to return and log: not a
 * divergence, hidden with its evidence. Must stay one: the worker that
 * stopped idle (no frame open). */
static void cut_by_exit_is_hidden(void **state)
{
    (void)state;
    char pg[256], pb[256];
    ttd_diff *d;

    sellers(pg, sizeof pg, "main{ parse{} }", "work{ lex{} helper{");
    sellers(pb, sizeof pb, "main{ parse{} }", "work{ lex{} helper{} } log{}");
    const ttd_result *r = diff(pg, pb, NULL, 0, NULL, &d);
    assert_int_equal(r->diverged, 0);
    assert_int_equal(r->timing_total, 1);
    assert_int_equal(r->hunks[0].timing, TTD_TIMING_CUT);
    assert_string_equal(ttd_timing_name(TTD_TIMING_CUT), "cut");
    assert_int_equal(r->verdict->status, TTD_VERDICT_NONDET);
    assert_int_equal(r->verdict->hidden[0].kind, TTD_HIDDEN_PROGRESS);
    assert_non_null(strstr(r->verdict->hidden[0].evidence, "recorded no end"));
    ttd_free(d);
    sellers(pg, sizeof pg, "main{ parse{} }", "work{ lex{} helper{} }");
    sellers(pb, sizeof pb, "main{ parse{} }", "work{ lex{} helper{} } log{}");
    r = diff(pg, pb, NULL, 0, NULL, &d);
    assert_int_equal(r->diverged, 1);
    assert_int_equal(r->timing_total, 0);
    ttd_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(extra_call_is_a_fact),
        cmocka_unit_test(wait_loop_is_no_fact),
        cmocka_unit_test(expected_wait_loop_is_no_fact),
        cmocka_unit_test(same_runs_no_fact),
        cmocka_unit_test(cut_by_exit_is_hidden),
        cmocka_unit_test(killed_run_has_no_end),
        cmocka_unit_test(tree_build_counts),
    };
    return cmocka_run_group_tests(tests, tu_tmpdir_setup, tu_tmpdir_teardown);
}
