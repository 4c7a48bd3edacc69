/*
 * test_html.c - the HTML renderer (report/html.c) on traces written with
 * the format writer: hostile strings are escaped everywhere, the embedded
 * JSON is ttr_json's with no '<', the page is balanced and has one window
 * per divergence, identical runs and crashes render, errors are reported.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diff_traces.h"
#include "ttreport.h"
#include "report_util.h"

#include "tmpdir.h"
static int seq;

#define EVIL "<script>alert(1)</script></script>\"q\" 'a' & \x01\x1b[1m \xff %d"
#define EVIL_THREAD "<b>t'\"&</b>"

static const char *next_path(char *buf, size_t len)
{
    snprintf(buf, len, "%s/t%d.trc", tu_tmpdir, seq++);
    return buf;
}

/* A one-thread trace from script s; site 1 logs EVIL. */
static void one(const char *path, const char *s, int crashed)
{
    static const char *const names[] = {EVIL_THREAD};
    dt t;

    assert_int_equal(dt_open(&t, path, 0, names, 1), 0);
    assert_int_equal(dt_site(&t, 0, 1, EVIL, "dt_log"), 0);
    assert_int_equal(dt_run(&t, 0, s), 0);
    assert_int_equal(dt_close(&t, crashed), 0);
}

/* The engine keeps the path pointers (ttd_run_info.path): they must live
 * as long as the ttd_diff. */
static char paths[32][256];

static ttd_diff *diff2(const char *good, const char *bad, int crashed)
{
    char *pg = paths[seq % 32], *pb = paths[(seq + 1) % 32];
    ttd_diff *d = NULL;
    ttf_error err;

    one(next_path(pg, sizeof paths[0]), good, 0);
    one(next_path(pb, sizeof paths[0]), bad, crashed);
    if (ttd_diff_files(pg, pb, NULL, &d, &err) < 0)
        fail_msg("ttd_diff_files: %s", err.msg);
    return d;
}

/* The page of d (caller frees). */
static char *render(ttd_diff *d, const ttr_options *o)
{
    size_t len;
    char *buf = tu_report(d, ttr_html, o, &len);

    assert_int_equal(strlen(buf), len);
    return buf;
}

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

/* Opening and closing tags of el balance, in order. */
static void balanced(const char *page, const char *el)
{
    char open[32], close[32];
    int depth = 0;

    snprintf(open, sizeof open, "<%s", el);
    snprintf(close, sizeof close, "</%s>", el);
    for (const char *p = page; (p = strchr(p, '<')); p++) {
        size_t n = strlen(open);
        if (!strncmp(p, open, n) && (p[n] == ' ' || p[n] == '>'))
            depth++;
        else if (!strncmp(p, close, strlen(close)))
            assert_true(--depth >= 0);
    }
    assert_int_equal(depth, 0);
}

/* The body of <script type="application/json" id="tt-data">. */
static char *json_block(const char *page)
{
    const char *tag = "<script type=\"application/json\" id=\"tt-data\">";
    const char *a = strstr(page, tag), *b;

    assert_non_null(a);
    a += strlen(tag);
    b = strstr(a, "</script>");
    assert_non_null(b);
    return strndup(a, (size_t)(b - a));
}

static void test_escaping(void **state)
{
    (void)state;
    ttd_diff *d = diff2("main{ parse{ lex{} } check{} }",
                        "main{ parse{ fail{ #1:7 } } check{} }", 0);
    char *page = render(d, NULL);

    /* exactly our two scripts; nothing hostile as markup or raw bytes */
    assert_int_equal(count(page, "<script"), 2);
    assert_null(strstr(page, "<script>alert"));
    assert_null(strstr(page, "<b>t"));
    assert_null(strchr(page, '\x01'));
    assert_null(strchr(page, '\x1b'));
    assert_null(strstr(page, "\xff"));
    /* ... but shown as text */
    assert_non_null(strstr(page, "&lt;script&gt;alert(1)&lt;/script&gt;&lt;/script&gt;"
                                 "&quot;q&quot; &#39;a&#39; &amp; \\x01\\x1b[1m \xEF\xBF\xBD 7"));
    assert_non_null(strstr(page, "&lt;b&gt;t&#39;&quot;&amp;&lt;/b&gt;"));
    free(page);
    ttd_free(d);
}

static void test_json_embedded(void **state)
{
    (void)state;
    ttd_diff *d = diff2("main{ parse{ lex{} } check{} }",
                        "main{ parse{ fail{ #1:7 } } check{} }", 0);
    char *page = render(d, NULL), *block = json_block(page), *json = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&json, &len);

    assert_int_equal(ttr_json(f, d, NULL), 0);
    assert_int_equal(fclose(f), 0);
    assert_null(strchr(block, '<'));
    assert_string_equal(block, json); /* ttr_json already wrote no '<' */
    assert_non_null(strstr(block, "\\u003cscript\\u003ealert(1)"));
    free(json);
    free(block);
    free(page);
    ttd_free(d);
}

static void test_structure(void **state)
{
    (void)state;
    /* three separate changes: three windows, the first open */
    ttd_diff *d = diff2("main{ lex{} work{} lex{} work{} lex{} work{} lex{} work{} check{} }",
                        "main{ lex{} fail{} lex{} work{} lex{} fail{} lex{} work{} helper{} }",
                        0);
    const ttd_result *r = ttd_get_result(d);
    char *page = render(d, NULL);

    assert_int_equal(r->nhunks, 3);
    assert_int_equal(count(page, "<section class=\"div\""), 3);
    assert_int_equal(count(page, "<details class=\"dv\" open>"), 1);
    assert_non_null(strstr(page, "id=\"d3\""));
    assert_non_null(strstr(page, "<section class=\"first\" id=\"first\">"));
    assert_non_null(strstr(page, "data-go=\"2\">next"));
    assert_non_null(strstr(page, "data-fn=\"dt_fail\""));
    assert_non_null(strstr(page, "class=\"r del\""));
    assert_non_null(strstr(page, "class=\"r ins\""));
    assert_non_null(strstr(page, "<span class=\"fn\">dt_main</span>"));
    assert_null(strstr(page, "http://"));
    assert_null(strstr(page, "https://"));
    balanced(page, "details");
    balanced(page, "section");
    balanced(page, "div");
    balanced(page, "summary");
    balanced(page, "table");
    free(page);

    /* fewer windows when asked: the rest as one line each */
    ttr_options o;
    ttr_options_init(&o);
    o.hunk_lines = 0;
    page = render(d, &o);
    assert_int_equal(count(page, "<section class=\"div\""), 1);
    assert_non_null(strstr(page, "Further divergences"));
    assert_int_equal(count(page, "<span class=\"dn\">#"), 3);
    balanced(page, "div");
    free(page);
    ttd_free(d);
}

static void test_same_and_crash(void **state)
{
    (void)state;
    ttd_diff *d = diff2("main{ lex{} }", "main{ lex{} }", 0);
    char *page = render(d, NULL);

    assert_non_null(strstr(page, "No divergence in 1 thread pair"));
    assert_null(strstr(page, "<section class=\"div\""));
    assert_null(strstr(page, "id=\"first\""));
    assert_non_null(strstr(page, "id=\"tt-data\""));
    balanced(page, "div");
    free(page);
    ttd_free(d);

    d = diff2("main{ parse{ lex{} } check{} }", "main{ parse{ *11", 1);
    page = render(d, NULL);
    assert_non_null(strstr(page, "The bad run died here: SIGSEGV (signal 11)"));
    assert_non_null(strstr(page, "class=\"r crash\""));
    assert_non_null(strstr(page, "crashed: SIGSEGV"));
    balanced(page, "details");
    balanced(page, "div");
    free(page);
    ttd_free(d);
}

static void test_errors(void **state)
{
    (void)state;
    ttd_diff *d = diff2("main{ lex{} }", "main{ check{} }", 0);
    FILE *ro = fopen("/dev/null", "r");

    assert_int_equal(ttr_html(NULL, d, NULL), TT_EINVAL);
    assert_int_equal(ttr_html(stdout, NULL, NULL), TT_EINVAL);
    assert_non_null(ro);
    assert_int_equal(ttr_html(ro, d, NULL), TT_EIO); /* every write fails */
    fclose(ro);
    ttd_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escaping),
        cmocka_unit_test(test_json_embedded),
        cmocka_unit_test(test_structure),
        cmocka_unit_test(test_same_and_crash),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, tu_tmpdir_setup, tu_tmpdir_teardown);
}
