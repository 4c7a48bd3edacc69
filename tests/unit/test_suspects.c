/*
 * test_suspects.c - ttdiff beyond the first divergence, on traces written
 * with the format writer: suspects (ranking, depth, --suspects N), baseline
 * good runs (expected hunks by position and by function, the first real
 * one still found) and collapsed
 * loops (count hunks, nested loops, the rest aligned).
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

static const char *write1(char *buf, size_t len, const char *s)
{
    dt t;
    snprintf(buf, len, "%s/t%d.trc", tu_tmpdir, seq++);
    assert_int_equal(dt_open(&t, buf, 0, MAIN_ONLY, 1), 0);
    assert_int_equal(dt_site(&t, 0, 1, "value %d", "dt_log"), 0);
    assert_int_equal(dt_run(&t, 0, s), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    return buf;
}

/* Diff good vs bad with baselines base[0..nb). */
static ttd_diff *diffn(const char *good, const char *bad, const char *const *base,
                       size_t nb, ttd_options *o)
{
    char pg[256], pb[256], pk[8][256];
    const char *paths[8];
    ttd_options def;
    ttd_diff *d = NULL;
    ttf_error err;

    if (!o) {
        ttd_options_init(&def);
        o = &def;
    }
    for (size_t i = 0; i < nb; i++)
        paths[i] = write1(pk[i], sizeof pk[i], base[i]);
    o->baselines = paths;
    o->nbaselines = nb;
    write1(pg, sizeof pg, good);
    write1(pb, sizeof pb, bad);
    if (ttd_diff_files(pg, pb, o, &d, &err) < 0)
        fail_msg("ttd_diff_files: %s", err.msg);
    memset(pg, 'x', sizeof pg - 1); /* the engine keeps copies of the paths */
    memset(pk, 'x', sizeof pk);
    return d;
}

static void test_suspect_order(void **state)
{
    (void)state;
    /* check{} returns, then parse takes fail{} instead of work{} */
    ttd_diff *d = diffn("main{ parse{ lex{} check{ helper{} } work{} } }",
                        "main{ parse{ lex{} check{ helper{} } fail{} } }", NULL, 0, NULL);
    const ttd_divergence *f = ttd_get_result(d)->first;

    /* no values: position alone never ranks a callee above the diverging
     * frame; but the dt_* functions return int, and helper{} made the
     * answer the branch came right after, which check{} (an int too)
     * passed up, returning right after it: it ranks first (answer_used:
     * explain tests), the frame next, the other callees after it,
     * nearest first */
    assert_non_null(f);
    assert_int_equal(f->nsuspects, 3);
    assert_string_equal(f->suspects[0].name, "dt_helper");
    assert_int_equal(f->suspects[0].role, TTD_SUSPECT_RETURNED);
    assert_int_equal(f->suspects[0].evidence[0].kind, TTD_EV_ANSWER);
    assert_int_equal(f->suspects[0].depth, 2);
    assert_int_equal(f->suspects[0].distance, 1);
    assert_string_equal(f->suspects[1].name, "dt_parse");
    assert_int_equal(f->suspects[1].role, TTD_SUSPECT_FRAME);
    assert_string_equal(f->suspects[2].name, "dt_check");
    assert_int_equal(f->suspects[2].role, TTD_SUSPECT_RETURNED);
    assert_int_equal(f->suspects[2].distance, 0);
    assert_int_equal(f->suspects[2].depth, 1);
    assert_non_null(f->suspects[2].file);
    assert_true(f->suspects[2].line > 0);
    assert_true(f->suspects[0].score > f->suspects[1].score);
    assert_true(f->suspects[1].score > f->suspects[2].score);
    assert_non_null(strstr(ttd_get_result(d)->runs[TTD_GOOD].path, tu_tmpdir)); /* a copy */
    ttd_free(d);
}

static void test_suspect_sibling_and_limit(void **state)
{
    (void)state;
    ttd_options o;
    ttd_options_init(&o);
    o.suspects = 1;
    /* lex{} (a sibling of the diverging frame) returned before it; calls
     * of main's caller's history before parse began are not suspects */
    ttd_diff *d = diffn("work{} main{ lex{} parse{ helper{} } }",
                        "work{} main{ lex{} parse{ fail{} } }", NULL, 0, &o);
    const ttd_divergence *f = ttd_get_result(d)->first;
    assert_int_equal(f->nsuspects, 1);
    assert_string_equal(f->suspects[0].name, "dt_parse");
    ttd_free(d);

    ttd_options_init(&o);
    d = diffn("work{} main{ lex{} parse{ helper{} } }",
              "work{} main{ lex{} parse{ fail{} } }", NULL, 0, &o);
    f = ttd_get_result(d)->first;
    assert_int_equal(f->nsuspects, 2); /* parse, lex; never work (outside main) */
    assert_string_equal(f->suspects[1].name, "dt_lex");
    assert_int_equal(f->suspects[1].depth, 0);
    ttd_free(d);

    ttd_options_init(&o);
    o.suspects = 0;
    d = diffn("main{ lex{} }", "main{ fail{} }", NULL, 0, &o);
    assert_int_equal(ttd_get_result(d)->first->nsuspects, 0);
    ttd_free(d);
}

static void test_baseline_expected(void **state)
{
    (void)state;
    /* good runs poll 2 or 4 times; the bad run polls 3 times (expected)
     * and then calls fail{} (the real divergence) */
    const char *g = "main{ work{} lex{} lex{} check{} helper{} }";
    const char *base[] = {"main{ work{} lex{} lex{} lex{} lex{} check{} helper{} }"};
    const char *b = "main{ work{} lex{} lex{} lex{} check{} fail{} }";
    ttd_diff *d = diffn(g, b, NULL, 0, NULL);
    const ttd_result *r = ttd_get_result(d);

    assert_int_equal(r->hunks_total, 2);
    assert_int_equal(r->expected_total, 0);
    assert_string_equal(r->first->bad[0].name, "dt_lex");
    ttd_free(d);

    d = diffn(g, b, base, 1, NULL);
    r = ttd_get_result(d);
    assert_int_equal(r->diverged, 1);
    assert_int_equal(r->hunks_total, 1);
    assert_int_equal(r->expected_total, 1);
    assert_int_equal(r->nexpected, 1);
    assert_int_equal(r->nhunks, 2);
    assert_int_equal(r->hunks[1].expected, 1);
    assert_int_equal(r->hunks[0].expected, 0);
    assert_int_equal(r->pairs[0].hunks, 1);
    assert_int_equal(r->pairs[0].expected, 1);
    assert_string_equal(r->first->bad[0].name, "dt_fail");
    assert_string_equal(r->first->suspects[0].name, "dt_main");   /* the frame */
    assert_string_equal(r->first->suspects[1].name, "dt_check");
    assert_int_equal(r->nbaselines, 1);
    assert_non_null(strstr(r->baselines[0].path, tu_tmpdir));
    assert_non_null(strstr(r->options.baselines[0], tu_tmpdir));
    ttd_free(d);

    /* fewer polls than every good run: still only poll keys, expected */
    d = diffn(g, "main{ work{} lex{} check{} helper{} }", base, 1, NULL);
    r = ttd_get_result(d);
    assert_int_equal(r->diverged, 0);
    assert_null(r->first);
    assert_int_equal(r->expected_total, 1);
    ttd_free(d);

    /* a new function where the good runs vary is no expected variation */
    d = diffn(g, "main{ work{} lex{} fail{} lex{} check{} helper{} }", base, 1, NULL);
    r = ttd_get_result(d);
    assert_int_equal(r->diverged, 1);
    assert_string_equal(r->first->bad[0].name, "dt_fail");
    ttd_free(d);

    /* the same variation elsewhere is no expected variation either */
    d = diffn(g, "main{ work{} work{} lex{} lex{} check{} helper{} }", base, 1, NULL);
    assert_int_equal(ttd_get_result(d)->diverged, 1);
    ttd_free(d);
}

static void test_baseline_errors(void **state)
{
    (void)state;
    ttd_options o;
    ttd_diff *d = NULL;
    ttf_error err;
    char pg[256], pb[256];
    const char *missing[] = {"/nonexistent/base.trc"};

    write1(pg, sizeof pg, "main{}");
    write1(pb, sizeof pb, "main{}");
    ttd_options_init(&o);
    o.baselines = missing;
    o.nbaselines = 1;
    assert_true(ttd_diff_files(pg, pb, &o, &d, &err) < 0);
    assert_null(d);
    assert_non_null(strstr(err.msg, "base.trc"));
    o.baselines = NULL;
    assert_int_equal(ttd_diff_files(pg, pb, &o, &d, &err), TT_EINVAL);
}

static ttd_diff *loops(const char *g, const char *b)
{
    ttd_options o;
    ttd_options_init(&o);
    o.collapse_loops = 1;
    return diffn(g, b, NULL, 0, &o);
}

static void test_loop_counts(void **state)
{
    (void)state;
    ttd_diff *d = loops("main{ work{} lex{} lex{} lex{} check{} }",
                        "main{ work{} lex{} lex{} lex{} lex{} lex{} check{} }");
    const ttd_result *r = ttd_get_result(d);

    assert_int_equal(r->hunks_total, 1);
    assert_int_equal(r->hunks[0].good_reps, 3);
    assert_int_equal(r->hunks[0].bad_reps, 5);
    assert_int_equal(r->hunks[0].good_index, 9);   /* after 3 common iterations */
    assert_int_equal(r->hunks[0].good_count, 0);
    assert_int_equal(r->hunks[0].bad_index, 9);
    assert_int_equal(r->hunks[0].bad_count, 4);
    assert_string_equal(r->first->bad[0].name, "dt_lex");
    ttd_free(d);

    /* the same counts: nothing; a change after the loop: one plain hunk */
    d = loops("main{ lex{} lex{} check{} }", "main{ lex{} lex{} check{} }");
    assert_int_equal(ttd_get_result(d)->diverged, 0);
    ttd_free(d);
    d = loops("main{ lex{} lex{} lex{} check{} }", "main{ lex{} lex{} lex{} fail{} }");
    r = ttd_get_result(d);
    assert_int_equal(r->hunks_total, 1);
    assert_int_equal(r->hunks[0].good_reps, 0);
    assert_int_equal(r->hunks[0].good_index, 7);
    assert_string_equal(r->first->bad[0].name, "dt_fail");
    ttd_free(d);
}

static void test_loop_nested(void **state)
{
    (void)state;
    /* an outer loop whose iterations hold inner loops of other counts: the
     * iterations are not identical, so they stay apart and only the one
     * inner count that changed is reported */
    const char *g = "main{ parse{ lex{} lex{} } parse{ lex{} lex{} lex{} } helper{} }";
    const char *b = "main{ parse{ lex{} lex{} } parse{ lex{} lex{} lex{} lex{} } helper{} }";
    ttd_diff *d = loops(g, b);
    const ttd_result *r = ttd_get_result(d);

    assert_int_equal(r->hunks_total, 1);
    assert_int_equal(r->hunks[0].good_reps, 3);
    assert_int_equal(r->hunks[0].bad_reps, 4);
    assert_int_equal(r->hunks[0].bad_index, 14);
    assert_int_equal(r->first->nstack, 2);
    assert_string_equal(r->first->stack[1].name, "dt_parse");
    ttd_free(d);

    /* identical outer iterations (with their inner loops) collapse too */
    d = loops("main{ parse{ lex{} lex{} } parse{ lex{} lex{} } parse{ lex{} lex{} } }",
              "main{ parse{ lex{} lex{} } parse{ lex{} lex{} } }");
    r = ttd_get_result(d);
    assert_int_equal(r->hunks_total, 1);
    assert_int_equal(r->hunks[0].good_reps, 3);
    assert_int_equal(r->hunks[0].bad_reps, 2);
    assert_int_equal(r->hunks[0].good_index, 13); /* main{ + 2 iterations of 6 */
    assert_int_equal(r->hunks[0].good_count, 6);
    ttd_free(d);
}

static void test_loop_baseline(void **state)
{
    (void)state;
    ttd_options o;
    const char *base[] = {"main{ lex{} lex{} lex{} lex{} check{} helper{} }"};
    ttd_options_init(&o);
    o.collapse_loops = 1;
    ttd_diff *d = diffn("main{ lex{} lex{} check{} helper{} }",
                        "main{ lex{} lex{} lex{} check{} fail{} }", base, 1, &o);
    const ttd_result *r = ttd_get_result(d);

    assert_int_equal(r->hunks_total, 1);
    assert_int_equal(r->expected_total, 1);
    assert_int_equal(r->hunks[1].bad_reps, 3);
    assert_string_equal(r->first->bad[0].name, "dt_fail");
    ttd_free(d);
}

/* Baselines know noise by function too: a poll that varies between good
 * runs in one place is noise in another place with the same caller (with
 * --flat: any caller); a call that never varied is not, and a hunk that
 * only starts with noise is split there. */
static void test_baseline_by_function(void **state)
{
    (void)state;
    const char *g = "main{ parse{ lex{} } work{} parse{ lex{} } }";
    const char *base[] = {"main{ parse{ lex{} lex{} } work{} parse{ lex{} } }"};
    const char *g2 = "main{ parse{ lex{} } check{ lex{} } }";
    const char *base2[] = {"main{ parse{ lex{} lex{} } check{ lex{} } }"};
    ttd_options o;

    for (int flat = 0; flat < 2; flat++) {
        ttd_options_init(&o);
        o.flat = flat;
        ttd_diff *d = diffn(g, "main{ parse{ lex{} } work{} parse{ lex{} lex{} } }", base, 1, &o);
        const ttd_result *r = ttd_get_result(d);
        assert_int_equal(r->diverged, 0);
        assert_int_equal(r->expected_total, 1);
        ttd_free(d);

        d = diffn(g, "main{ parse{ lex{} } work{} parse{ lex{} lex{} fail{} } }", base, 1, &o);
        r = ttd_get_result(d);
        assert_int_equal(r->diverged, 1);
        assert_int_equal(r->hunks_total, 1);
        assert_int_equal(r->expected_total, 1);
        assert_string_equal(r->first->bad[0].name, "dt_fail");
        ttd_free(d);

        ttd_options_init(&o);
        o.flat = flat;
        d = diffn(g2, "main{ parse{ lex{} } check{ lex{} lex{} } }", base2, 1, &o);
        r = ttd_get_result(d);
        assert_int_equal(r->diverged, !flat); /* lex varied in parse only */
        if (!flat)
            assert_string_equal(r->first->bad[0].name, "dt_lex");
        ttd_free(d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_suspect_order),
        cmocka_unit_test(test_suspect_sibling_and_limit),
        cmocka_unit_test(test_baseline_expected),
        cmocka_unit_test(test_baseline_errors),
        cmocka_unit_test(test_loop_counts),
        cmocka_unit_test(test_loop_nested),
        cmocka_unit_test(test_loop_baseline),
        cmocka_unit_test(test_baseline_by_function),
    };
    return cmocka_run_group_tests(tests, tu_tmpdir_setup, tu_tmpdir_teardown);
}
