/*
 * test_unwind.c - ttdiff's call stacks on unbalanced traces: a deep stack
 * followed by many EXITs of a function that is not open (each must leave
 * the stack alone, and cheaply), and longjmp-style EXITs of a frame below
 * the top (they pop to it), with and without --collapse-loops.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "diff_traces.h"
#include "ttdiff.h"

#define DEEP 50000

#include "tmpdir.h"
static int seq;

/* Write n ENTERs (kind TTF_EV_ENTER) or EXITs of function name. */
static void events(dt *t, int kind, const char *name, long n)
{
    uint64_t a = dt_addr(t, name, strlen(name));

    for (long i = 0; i < n; i++) {
        t->now[0] += 10;
        int rc = kind == TTF_EV_ENTER ? ttf_write_enter(t->w, 0, t->now[0], a)
                                      : ttf_write_exit(t->w, 0, t->now[0], a);
        assert_int_equal(rc, 0);
    }
}

/* main{, DEEP parse{, DEEP unmatched lex EXITs, DEEP parse EXITs, then
 * call{} and main's EXIT: a trace whose stack stays deep while
 * thousands of EXITs match nothing. */
static void deep_trace(const char *path, const char *call)
{
    static const char *const names[] = {"main"};
    dt t;

    assert_int_equal(dt_open(&t, path, 0, names, 1), 0);
    events(&t, TTF_EV_ENTER, "main", 1);
    events(&t, TTF_EV_ENTER, "parse", DEEP);
    events(&t, TTF_EV_EXIT, "lex", DEEP);
    events(&t, TTF_EV_EXIT, "parse", DEEP);
    events(&t, TTF_EV_ENTER, call, 1);
    events(&t, TTF_EV_EXIT, call, 1);
    events(&t, TTF_EV_EXIT, "main", 1);
    assert_int_equal(dt_close(&t, 0), 0);
}

/* A one-thread trace from script s (see diff_traces.h). */
static void scripted(const char *path, const char *s)
{
    static const char *const names[] = {"main"};
    dt t;

    assert_int_equal(dt_open(&t, path, 0, names, 1), 0);
    assert_int_equal(dt_site(&t, 0, 1, "value %d", "dt_log"), 0);
    assert_int_equal(dt_run(&t, 0, s), 0);
    assert_int_equal(dt_close(&t, 0), 0);
}

static ttd_diff *diff_paths(const char *g, const char *b, int collapse)
{
    ttd_options o;
    ttd_diff *d = NULL;
    ttf_error err;

    ttd_options_init(&o);
    o.collapse_loops = collapse;
    if (ttd_diff_files(g, b, &o, &d, &err) < 0)
        fail_msg("ttd_diff_files: %s", err.msg);
    return d;
}

static void check_first(ttd_diff *d, uint64_t index, const char *const *stack,
                        size_t nstack, const char *good, const char *bad)
{
    const ttd_result *r = ttd_get_result(d);
    const ttd_divergence *f = r->first;

    assert_int_equal(r->diverged, 1);
    assert_non_null(f);
    assert_int_equal(f->good_index, index);
    assert_int_equal(f->bad_index, index);
    assert_int_equal(f->nstack, nstack);
    for (size_t i = 0; i < nstack; i++)
        assert_string_equal(f->stack[i].name, stack[i]);
    assert_true(f->ngood >= 1 && f->nbad >= 1);
    assert_string_equal(f->good[0].name, good);
    assert_int_equal(f->good[0].kind, TTF_EV_ENTER);
    assert_string_equal(f->bad[0].name, bad);
}

static void test_unmatched_exits(void **state)
{
    static const char *const stack[] = {"dt_main"};
    char g[256], b[256];

    (void)state;
    snprintf(g, sizeof g, "%s/t%d.trc", tu_tmpdir, seq++);
    snprintf(b, sizeof b, "%s/t%d.trc", tu_tmpdir, seq++);
    deep_trace(g, "check");
    deep_trace(b, "fail");
    for (int collapse = 0; collapse < 2; collapse++) {
        ttd_diff *d = diff_paths(g, b, collapse);
        check_first(d, 1 + 3 * (uint64_t)DEEP, stack, 1, "dt_check", "dt_fail");
        ttd_free(d);
    }
}

/* Two open frames of one function: the first EXIT closes only the inner
 * one, so the count of open frames must not drop to zero too early. */
static void test_nested_same(void **state)
{
    static const struct {
        const char *good, *bad;     /* scripts */
        uint64_t index;             /* first divergence */
        const char *stack[3];       /* common stack there */
        size_t nstack;
    } cases[] = {
        {"main{ parse{ parse{ } } check{} }", "main{ parse{ parse{ } } fail{} }",
         5, {"dt_main"}, 1},
        {"main{ parse{ parse{ } check{} } }", "main{ parse{ parse{ } fail{} } }",
         4, {"dt_main", "dt_parse"}, 2},
    };
    char g[256], b[256];

    (void)state;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        snprintf(g, sizeof g, "%s/t%d.trc", tu_tmpdir, seq++);
        snprintf(b, sizeof b, "%s/t%d.trc", tu_tmpdir, seq++);
        scripted(g, cases[c].good);
        scripted(b, cases[c].bad);
        for (int collapse = 0; collapse < 2; collapse++) {
            ttd_diff *d = diff_paths(g, b, collapse);
            check_first(d, cases[c].index, cases[c].stack, cases[c].nstack,
                        "dt_check", "dt_fail");
            ttd_free(d);
        }
    }
}

/* main{ parse{ lex{ check{ then EXIT parse (longjmp over lex, check), an
 * EXIT of lex (closed by the longjmp: nothing open), then work{ call{} }
 * }: the stack at call must be main, work. */
static void jump_trace(const char *path, const char *call)
{
    static const char *const names[] = {"main"};
    dt t;

    assert_int_equal(dt_open(&t, path, 0, names, 1), 0);
    events(&t, TTF_EV_ENTER, "main", 1);
    events(&t, TTF_EV_ENTER, "parse", 1);
    events(&t, TTF_EV_ENTER, "lex", 1);
    events(&t, TTF_EV_ENTER, "check", 1);
    events(&t, TTF_EV_EXIT, "parse", 1);
    events(&t, TTF_EV_EXIT, "lex", 1);
    events(&t, TTF_EV_ENTER, "work", 1);
    events(&t, TTF_EV_ENTER, call, 1);
    events(&t, TTF_EV_EXIT, call, 1);
    events(&t, TTF_EV_EXIT, "work", 1);
    events(&t, TTF_EV_EXIT, "main", 1);
    assert_int_equal(dt_close(&t, 0), 0);
}

static void test_jump_below_top(void **state)
{
    static const char *const stack[] = {"dt_main", "dt_work"};
    char g[256], b[256];

    (void)state;
    snprintf(g, sizeof g, "%s/t%d.trc", tu_tmpdir, seq++);
    snprintf(b, sizeof b, "%s/t%d.trc", tu_tmpdir, seq++);
    jump_trace(g, "helper");
    jump_trace(b, "fail");
    for (int collapse = 0; collapse < 2; collapse++) {
        ttd_diff *d = diff_paths(g, b, collapse);
        check_first(d, 7, stack, 2, "dt_helper", "dt_fail");
        ttd_free(d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unmatched_exits),
        cmocka_unit_test(test_nested_same),
        cmocka_unit_test(test_jump_below_top),
    };
    return cmocka_run_group_tests(tests, tu_tmpdir_setup, tu_tmpdir_teardown);
}
