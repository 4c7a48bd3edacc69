/*
 * test_sites_diff.c - call sites in the alignment (issue 21 item 4): two
 * calls of one function from different places are different events when
 * both traces recorded sites, and align with ignore_call_sites; another
 * load address (ASLR) changes nothing; a trace without sites against one
 * with them, or two without, compares as before; an ENTER key with a site
 * still finds its EXIT (ttdi_norm_exit_of); the reported event says where
 * it was called from.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "diff_traces.h"
#include "prepare.h"
#include "tmpdir.h"
#include "ttdiff.h"

static int seq;
static const char *const MAIN_ONLY[] = {"main"};

static const char *one(char *path, size_t len, uint64_t shift, const char *s)
{
    dt t;
    snprintf(path, len, "%s/s%d.trc", tu_tmpdir, seq++);
    assert_int_equal(dt_open(&t, path, shift, MAIN_ONLY, 1), 0);
    assert_int_equal(dt_run(&t, 0, s), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    return path;
}

/* Diverged (1) or not (0), with the first divergence's events in *dv. */
static int differ(const char *good, const char *bad, uint64_t shift, int ignore,
                  ttd_diff **out)
{
    char pg[256], pb[256];
    ttd_options o;
    ttf_error err;
    ttd_options_init(&o);
    o.ignore_call_sites = ignore;
    one(pg, sizeof pg, 0, good);
    one(pb, sizeof pb, shift, bad);
    if (ttd_diff_files(pg, pb, &o, out, &err) < 0)
        fail_msg("ttd_diff_files: %s", err.msg);
    return ttd_get_result(*out)->diverged;
}

static void test_other_site(void **state)
{
    (void)state;
    ttd_diff *d;
    const char *g = "main{ parse:3{ lex:2{} lex:2{} check:5{} } }";
    const char *b = "main{ parse:3{ lex:2{} lex:4{} check:5{} } }";
    assert_int_equal(differ(g, b, 0, 0, &d), 1);
    const ttd_divergence *dv = ttd_get_result(d)->first;
    assert_non_null(dv);
    assert_int_equal(dv->ngood, 2);         /* lex:2{} against lex:4{} */
    assert_int_equal(dv->nbad, 2);
    assert_string_equal(dv->good[0].name, "dt_lex");
    assert_string_equal(dv->bad[0].name, "dt_lex");
    assert_non_null(dv->good[0].from);
    assert_non_null(dv->bad[0].from);
    /* "caller:line": one line here (the test's functions are one line) */
    assert_non_null(strstr(dv->good[0].from, "dt_parse"));
    assert_non_null(strstr(dv->bad[0].from, "dt_parse"));
    assert_null(dv->good[1].from);          /* an exit has none */
    ttd_free(d);

    assert_int_equal(differ(g, b, 0, 1, &d), 0);    /* ignore_call_sites */
    ttd_free(d);
    assert_int_equal(differ(g, g, 0, 0, &d), 0);
    ttd_free(d);
}

/* Another load address moves every site: the offsets still match. */
static void test_aslr(void **state)
{
    (void)state;
    ttd_diff *d;
    const char *s = "main{ parse:3{ lex:2{} lex:4{} } check:5{} }";
    assert_int_equal(differ(s, s, 0x200000, 0, &d), 0);
    ttd_free(d);
    assert_int_equal(differ(s, "main{ parse:3{ lex:4{} lex:2{} } check:5{} }",
                            0x200000, 0, &d), 1);
    ttd_free(d);
}

/* Without sites on both sides, the sites play no part. */
static void test_without_sites(void **state)
{
    (void)state;
    ttd_diff *d;
    assert_int_equal(differ("main{ parse{ lex{} } }", "main{ parse:2{ lex:4{} } }",
                            0, 0, &d), 0);
    const ttd_result *r = ttd_get_result(d);
    assert_int_equal(r->diverged, 0);
    ttd_free(d);
    assert_int_equal(differ("main{ parse{ lex{} } }", "main{ parse{ lex{} check{} } }",
                            0, 0, &d), 1);
    assert_null(ttd_get_result(d)->first->bad[0].from);
    ttd_free(d);
}

/* The keys: a site changes an ENTER's key in its site bits only, and the
 * EXIT of the call is found from the ENTER's key whatever its site. */
static void test_keys(void **state)
{
    (void)state;
    char p[256];
    ttf_trace *t;
    ttdi_norm n;
    one(p, sizeof p, 0, "main{ lex:2{} lex:4{} lex{} }");
    assert_int_equal(ttf_open(p, &t, NULL), 0);
    assert_int_equal(ttdi_norm_init(&n, t, TTD_MSG_SITE, NULL, NULL, 0), 0);
    assert_int_equal(ttdi_norm_sites(&n, t, 1, NULL), 0);
    assert_int_equal(n.site_on, 1);
    ttf_iter *it;
    ttf_event ev;
    uint64_t k[16];
    size_t nk = 0;
    assert_int_equal(ttf_iter_open(t, 0, &it), 0);
    while (ttf_iter_next(it, &ev) == 1 && nk < 16)
        if (ev.kind == TTF_EV_ENTER || ev.kind == TTF_EV_EXIT)
            assert_int_equal(ttdi_norm_key(&n, &ev, &k[nk++]), 1);
    ttf_iter_close(it);
    assert_int_equal(nk, 8);                /* main, 3 x lex, their exits */
    assert_true(k[1] != k[3] && k[1] != k[5] && k[3] != k[5]);
    assert_int_equal((k[1] ^ k[3]) & ~TTDI_SITE_MASK, 0);
    assert_int_equal(ttdi_norm_exit_of(k[1]), k[2]);
    assert_int_equal(ttdi_norm_exit_of(k[3]), k[4]);
    assert_int_equal(ttdi_norm_exit_of(k[5]), k[6]);
    assert_int_equal(ttdi_norm_exit_of(k[0]), k[7]);
    char buf[128];
    it = NULL;
    assert_int_equal(ttf_iter_open(t, 0, &it), 0);
    while (ttf_iter_next(it, &ev) == 1 && !(ev.kind == TTF_EV_ENTER && ev.call_site))
        ;
    assert_non_null(strstr(ttdi_norm_site_text(&n, &ev, buf, sizeof buf), "dt_main"));
    ttf_iter_close(it);
    assert_int_equal(ttdi_norm_sites(&n, t, 0, NULL), 0);     /* off: no site bits */
    assert_int_equal(n.site_on, 0);
    assert_string_equal(ttdi_norm_site_text(&n, &ev, buf, sizeof buf), "");
    ttdi_norm_free(&n);
    ttf_close(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_other_site),
        cmocka_unit_test(test_aslr),
        cmocka_unit_test(test_without_sites),
        cmocka_unit_test(test_keys),
    };
    return cmocka_run_group_tests(tests, tu_tmpdir_setup, tu_tmpdir_teardown);
}
