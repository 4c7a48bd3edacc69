/*
 * test_profile.c - ttd_prof on synthetic traces with exact times (every
 * scripted event is 10 ns after the previous one): inclusive and self time,
 * recursion, pauses, longjmp-style unwinding, a crash, stray exits, sorting,
 * per-thread rows; the profile diff (ttd_profile_diff) and the Chrome export;
 * the calls-only pass of the count facts (ttdi_prof_calls).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diff_traces.h"
#include "prepare.h"
#include "ttprof.h"
#include "ttreport.h"

#include "tmpdir.h"
static int seq;

static const char *const ONE[] = {"main"};
static const char *const TWO[] = {"main", "worker"};

/* An open trace, its symbols and profile. */
struct prof {
    ttf_trace *t;
    ttf_sym *sym;
    ttd_prof *p;
};

static const char *next_path(void)
{
    static char buf[4][256];
    char *b = buf[seq % 4];
    snprintf(b, 256, "%s/t%d.trc", tu_tmpdir, seq++);
    return b;
}

/* Write scripts s0 (thread 0) and s1 (thread 1, NULL = one thread). */
static const char *write2(const char *s0, const char *s1, int crashed)
{
    const char *path = next_path();
    dt t;

    assert_int_equal(dt_open(&t, path, 0, s1 ? TWO : ONE, s1 ? 2 : 1), 0);
    assert_int_equal(dt_site(&t, 0, 1, "value \"%d\"\n", "dt_log"), 0);
    assert_int_equal(dt_run(&t, 0, s0), 0);
    if (s1)
        assert_int_equal(dt_run(&t, 1, s1), 0);
    assert_int_equal(dt_close(&t, crashed), 0);
    return path;
}

static void prof_open(struct prof *pr, const char *path, int per_thread)
{
    ttd_prof_opts o = {per_thread, NULL, 0};
    ttf_error err;

    assert_int_equal(ttf_open(path, &pr->t, &err), 0);
    assert_int_equal(ttf_sym_open(pr->t, &pr->sym), 0);
    int rc = ttd_prof_build(pr->t, pr->sym, &o, &pr->p, &err);
    if (rc < 0)
        fail_msg("ttd_prof_build: %s", err.msg);
}

static void prof_close(struct prof *pr)
{
    ttd_prof_free(pr->p);
    ttf_sym_close(pr->sym);
    ttf_close(pr->t);
}

/* The row of a function (in thread th, or merged when th is ALL). */
static const ttd_prof_row *row(const struct prof *pr, const char *name,
                                  uint32_t th)
{
    for (size_t i = 0; i < ttd_prof_count(pr->p); i++) {
        const ttd_prof_row *r = ttd_prof_get(pr->p, i);
        if (strcmp(r->name, name) == 0 && r->thread == th)
            return r;
    }
    fail_msg("no row for %s in thread %u", name, th);
    return NULL;
}

static void test_times(void **state)
{
    (void)state;
    struct prof pr;
    prof_open(&pr, write2("main{ parse{ lex{} lex{} } }", NULL, 0), 0);
    const ttd_prof_row *m = row(&pr, "dt_main", TTF_ALL_THREADS);
    const ttd_prof_row *p = row(&pr, "dt_parse", TTF_ALL_THREADS);
    const ttd_prof_row *l = row(&pr, "dt_lex", TTF_ALL_THREADS);

    /* events at 10, 20, ... 80 ns: main 10-80, parse 20-70, lex 30-40, 50-60 */
    assert_int_equal(m->calls, 1);
    assert_int_equal(m->total_ns, 70);
    assert_int_equal(m->self_ns, 20);
    assert_int_equal(p->total_ns, 50);
    assert_int_equal(p->self_ns, 30);
    assert_int_equal(l->calls, 2);
    assert_int_equal(l->total_ns, 20);
    assert_int_equal(l->self_ns, 20);
    assert_int_equal(l->min_ns, 10);
    assert_int_equal(l->avg_ns, 10);
    assert_int_equal(l->max_ns, 10);
    assert_int_equal(m->never_returned, 0);
    assert_int_equal(ttd_prof_get_info(pr.p)->never_returned, 0);
    /* default order: total, largest first */
    assert_string_equal(ttd_prof_get(pr.p, 0)->name, "dt_main");
    assert_string_equal(ttd_prof_get(pr.p, 2)->name, "dt_lex");
    prof_close(&pr);
}

static void test_recursion(void **state)
{
    (void)state;
    struct prof pr;
    prof_open(&pr, write2("main{ work{ work{ work{} } } }", NULL, 0), 0);
    const ttd_prof_row *w = row(&pr, "dt_work", TTF_ALL_THREADS);

    /* work frames: 20-70, 30-60, 40-50: inclusive counts the outer one */
    assert_int_equal(w->calls, 3);
    assert_int_equal(w->total_ns, 50);
    assert_int_equal(w->self_ns, 50);
    assert_int_equal(w->min_ns, 10);
    assert_int_equal(w->max_ns, 50);
    assert_int_equal(w->avg_ns, 30);
    prof_close(&pr);
}

static void test_pause(void **state)
{
    (void)state;
    const char *path = next_path();
    struct prof pr;
    dt t;

    assert_int_equal(dt_open(&t, path, 0, ONE, 1), 0);
    assert_int_equal(dt_run(&t, 0, "main{ work{"), 0);    /* 1010, 1020 */
    assert_int_equal(ttf_write_pause(t.w, 0, 2000, 1), 0);
    assert_int_equal(ttf_write_pause(t.w, 0, 6000, 0), 0);
    assert_int_equal(dt_run(&t, 0, "@6000 } }"), 0);     /* 6010, 6020 */
    assert_int_equal(dt_close(&t, 0), 0);
    prof_open(&pr, path, 0);
    const ttd_prof_row *w = row(&pr, "dt_work", TTF_ALL_THREADS);
    assert_int_equal(w->total_ns, 4990);
    assert_int_equal(w->self_ns, 4990 - 4000);
    assert_int_equal(row(&pr, "dt_main", TTF_ALL_THREADS)->self_ns, 20);
    assert_int_equal(ttd_prof_get_info(pr.p)->paused_ns, 4000);
    prof_close(&pr);
}

static void test_unwound_and_stray(void **state)
{
    (void)state;
    const char *path = next_path();
    struct prof pr;
    dt t;

    assert_int_equal(dt_open(&t, path, 0, ONE, 1), 0);
    /* parse and lex are skipped: main's EXIT comes at 1050 */
    assert_int_equal(dt_run(&t, 0, "main{ parse{ lex{"), 0);
    assert_int_equal(ttf_write_exit(t.w, 0, 1050, (uint64_t)(uintptr_t)dt_main), 0);
    assert_int_equal(ttf_write_exit(t.w, 0, 1060, (uint64_t)(uintptr_t)dt_check), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    prof_open(&pr, path, 0);
    const ttd_prof_row *l = row(&pr, "dt_lex", TTF_ALL_THREADS);
    const ttd_prof_row *p = row(&pr, "dt_parse", TTF_ALL_THREADS);
    assert_int_equal(l->never_returned, 1);
    assert_int_equal(l->where.reason, TTD_PROF_UNWOUND);
    assert_int_equal(l->where.close_ns - l->where.enter_ns, 20);
    assert_string_equal(l->where.caller, "dt_parse");
    assert_int_equal(p->never_returned, 1);
    assert_string_equal(p->where.caller, "dt_main");
    assert_int_equal(row(&pr, "dt_main", TTF_ALL_THREADS)->never_returned, 0);
    assert_int_equal(row(&pr, "dt_main", TTF_ALL_THREADS)->total_ns, 40);
    assert_int_equal(ttd_prof_get_info(pr.p)->stray_exits, 1);
    assert_int_equal(ttd_prof_get_info(pr.p)->never_returned, 2);
    prof_close(&pr);
}

static void test_crash(void **state)
{
    (void)state;
    struct prof pr;
    prof_open(&pr, write2("main{ parse{ fail{ *11", NULL, 1), 0);
    const ttd_prof_row *f = row(&pr, "dt_fail", TTF_ALL_THREADS);
    assert_int_equal(f->never_returned, 1);
    assert_int_equal(f->where.reason, TTD_PROF_CRASH);
    assert_int_equal(f->total_ns, 10);     /* closed at the crash event */
    assert_int_equal(row(&pr, "dt_main", TTF_ALL_THREADS)->where.reason,
                     TTD_PROF_CRASH);
    assert_int_equal(ttd_prof_get_info(pr.p)->never_returned, 3);
    assert_string_equal(ttd_prof_end_name(TTD_PROF_CRASH), "crash");
    prof_close(&pr);
}

static void test_threads_and_sort(void **state)
{
    (void)state;
    struct prof pr;
    const char *path = write2("main{ lex{} lex{} work{} }", "work{ lex{} }", 0);

    prof_open(&pr, path, 1);
    assert_int_equal(row(&pr, "dt_lex", 0)->calls, 2);
    assert_int_equal(row(&pr, "dt_lex", 1)->calls, 1);
    assert_int_equal(row(&pr, "dt_work", 1)->total_ns, 30);
    assert_int_equal(ttd_prof_sort(pr.p, TTD_PROF_CALLS), 0);
    assert_int_equal(ttd_prof_get(pr.p, 0)->thread, 0);
    assert_string_equal(ttd_prof_get(pr.p, 0)->name, "dt_lex");
    assert_int_equal(ttd_prof_get(pr.p, ttd_prof_count(pr.p) - 1)->thread, 1);
    assert_int_equal(ttd_prof_sort(pr.p, 99), TT_EINVAL);
    prof_close(&pr);

    prof_open(&pr, path, 0);
    const ttd_prof_row *l = row(&pr, "dt_lex", TTF_ALL_THREADS);
    assert_int_equal(l->calls, 3);
    assert_int_equal(l->threads, 2);
    assert_int_equal(ttd_prof_sort(pr.p, TTD_PROF_NAME), 0);
    assert_string_equal(ttd_prof_get(pr.p, 0)->name, "dt_lex");
    assert_int_equal(ttd_prof_column("self"), TTD_PROF_SELF);
    assert_int_equal(ttd_prof_column("bogus"), TT_EINVAL);
    assert_string_equal(ttd_prof_column_name(TTD_PROF_AVG), "avg");
    prof_close(&pr);
}

/* ttdi_prof_calls: the rows of ttd_prof_build (per thread, per name, the
 * same calls) over skipped exits, a stray exit, an unwound frame and a
 * crash, with no times (it reads no EXIT and keeps no stack). */
static void test_calls_only(void **state)
{
    (void)state;
    const char *path = next_path();
    ttd_prof_opts o = {1, NULL, 0};
    struct prof pr;
    ttd_prof *c = NULL;
    dt t;

    assert_int_equal(dt_open(&t, path, 0, TWO, 2), 0);
    assert_int_equal(dt_run(&t, 0, "main{ parse{ lex{} lex{"), 0);
    assert_int_equal(ttf_write_exit(t.w, 0, 1050, (uint64_t)(uintptr_t)dt_main), 0);
    assert_int_equal(ttf_write_exit(t.w, 0, 1060, (uint64_t)(uintptr_t)dt_check), 0);
    assert_int_equal(dt_run(&t, 1, "work{ lex{} work{ check{} } }"), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    prof_open(&pr, path, 1);
    assert_int_equal(ttdi_prof_calls(pr.t, pr.sym, &o, &c), 0);
    assert_int_equal(ttd_prof_count(c), ttd_prof_count(pr.p));
    assert_int_equal(ttd_prof_count(c), 6);
    for (size_t i = 0; i < ttd_prof_count(c); i++) {
        const ttd_prof_row *a = ttd_prof_get(c, i);
        const ttd_prof_row *b = row(&pr, a->name, a->thread);
        assert_int_equal(a->calls, b->calls);
        assert_int_equal(a->total_ns + a->self_ns + a->min_ns + a->max_ns, 0);
        assert_int_equal(a->never_returned, 0);
    }
    assert_int_equal(row(&pr, "dt_lex", 0)->calls, 2);
    assert_int_equal(row(&pr, "dt_work", 1)->calls, 2);
    assert_int_equal(ttd_prof_get_info(c)->stray_exits, 0);
    assert_int_not_equal(ttd_prof_get_info(pr.p)->stray_exits, 0);
    ttd_prof_free(c);
    prof_close(&pr);
}

static void test_diff(void **state)
{
    (void)state;
    const char *g = write2("main{ lex{} lex{} check{} }", NULL, 0);
    const char *b = write2("main{ lex{} lex{} lex{} fail{} }", NULL, 0);
    ttd_profile *p = NULL;
    ttf_error err;
    char *buf = NULL;
    size_t len = 0;

    assert_int_equal(ttd_profile_diff_files(g, b, NULL, 0, &p, &err), 0);
    const ttd_profile_result *r = ttd_profile_get_result(p);
    assert_int_equal(r->nrows, 4);
    assert_int_equal(r->changed, 3);        /* lex calls, check, fail */
    for (size_t i = 0; i < r->nrows; i++) {
        const ttd_profile_delta *d = &r->rows[i];
        if (!strcmp(d->name, "dt_lex")) {
            assert_int_equal(d->calls, 1);
            assert_int_equal(d->total_ns, 10);
            assert_true(d->total_pct > 49.9 && d->total_pct < 50.1);
        } else if (!strcmp(d->name, "dt_check")) {
            assert_int_equal(d->only, TTD_PROF_ONLY_GOOD);
            assert_int_equal(d->calls, -1);
        } else if (!strcmp(d->name, "dt_fail")) {
            assert_int_equal(d->only, TTD_PROF_ONLY_BAD);
        } else {
            assert_string_equal(d->name, "dt_main");
            assert_int_equal(d->total_ns, 20);
        }
    }
    /* largest total change first: main +20 */
    assert_string_equal(r->rows[0].name, "dt_main");
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(ttr_profile_json(f, p, NULL), 0);
    fclose(f);
    assert_non_null(strstr(buf, "\"only\":\"bad\""));
    assert_non_null(strstr(buf, "\"percent\":{\"calls\":null"));
    free(buf);
    ttd_profile_free(p);
    assert_int_equal(ttd_profile_diff_files(g, "/nonexistent.trc", NULL, 0, &p, &err),
                     TT_EIO);
    assert_null(p);
    assert_int_equal(ttd_profile_diff_files(g, b, NULL, TTD_PROF_MIN, &p, &err),
                     TT_EINVAL);
}

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (; (s = strstr(s, what)); s++)
        n++;
    return n;
}

static void test_chrome(void **state)
{
    (void)state;
    struct prof pr;
    char *buf = NULL;
    size_t len = 0;
    ttf_error err;

    prof_open(&pr, write2("main{ parse{ #1:7 lex{ *11", "work{}", 1), 0);
    FILE *f = open_memstream(&buf, &len);
    assert_int_equal(ttr_chrome_write(f, pr.t, pr.sym, NULL, &err), 0);
    fclose(f);
    assert_int_equal(count(buf, "\"ph\":\"B\""), 4);
    assert_int_equal(count(buf, "\"ph\":\"E\""), 4);
    /* escaped as ttdiff's JSON is (report/JSON.md): \n, not \u000a */
    assert_non_null(strstr(buf, "\"name\":\"value \\\"7\\\"\\n\""));
    assert_non_null(strstr(buf, "\"name\":\"thread_name\""));
    assert_non_null(strstr(buf, "\"tid\":1235"));
    assert_non_null(strstr(buf, "\"ts\":0.010"));
    assert_non_null(strstr(buf, "crash: SIGSEGV"));
    assert_string_equal(buf + len - 3, "]}\n");
    free(buf);

    /* --function keeps matching frames only, still balanced */
    ttd_regex *re = NULL;
    assert_int_equal(ttd_regex_compile("parse|work", &re, &err), 0);
    ttr_chrome_opts o = {1, NULL, 0, re, NULL};
    f = open_memstream(&buf, &len);
    assert_int_equal(ttr_chrome_write(f, pr.t, pr.sym, &o, &err), 0);
    fclose(f);
    assert_int_equal(count(buf, "\"ph\":\"B\""), 2);
    assert_int_equal(count(buf, "\"ph\":\"E\""), 2);
    assert_null(strstr(buf, "\"name\":\"value"));   /* the message (a path may say "value") */
    free(buf);
    ttd_regex_free(re);
    prof_close(&pr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_times),
        cmocka_unit_test(test_recursion),
        cmocka_unit_test(test_pause),
        cmocka_unit_test(test_unwound_and_stray),
        cmocka_unit_test(test_crash),
        cmocka_unit_test(test_threads_and_sort),
        cmocka_unit_test(test_calls_only),
        cmocka_unit_test(test_diff),
        cmocka_unit_test(test_chrome),
    };
    return cmocka_run_group_tests(tests, tu_tmpdir_setup, tu_tmpdir_teardown);
}
