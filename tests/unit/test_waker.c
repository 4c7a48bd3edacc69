/*
 * test_waker.c - a wait that never ended and the thread it waited for
 * (diff/waker.c, issue 33 item 4: a cause in another thread, after the
 * split in time), on hand-made traces with no sync records (as a library
 * that waits by futex leaves them). main runs `parse`, which calls
 * `check`; the good run goes on (`lex`) and ends at 3000 ns; the bad run
 * stops after `check` (killed with main waiting). The worker runs
 * `log{ work{ helper{} ... } ... }`: in the good run its `work` waits
 * (`wait`) at 1000 ns, before main gets there; in the bad run `work`
 * returns early at 1000 ns, after main stopped, and `log` calls `tally`.
 * Fires: `log` named (it made the worker's last calls after it parted;
 * kind order, possible), `work` when `log` calls nothing after; main may
 * make calls after the split and enter a wait (`fail`, `wait`). Must not:
 * the bad run ended cleanly; the worker parted before main stopped (after
 * the split, before main entered its wait); in
 * the good run the worker parted after the split (it followed main);
 * main went on after the split in the bad run; the worker ran on for
 * more than 4096 events after it parted; two good runs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ttdiff.h"
#include "diff_traces.h"
#include "tmpdir.h"

static const char *const names[] = {"main", "worker"};

/* What a run does differently (0: the good run of the variant). */
enum {
    GOOD = 0,
    BAD = 1,        /* fires: log calls tally after work returns */
    BAD_QUIET,      /* fires: log calls nothing after work returns */
    BAD_WAITS,      /* fires: main calls fail, then enters wait and stops */
    BAD_CLOSED,     /* must not: the bad run ended cleanly */
    BAD_EARLY,      /* must not: as BAD_WAITS, the worker parted after the
                       split and before main stopped */
    BAD_WENT_ON,    /* must not: main went on after the split */
    BAD_RAN_ON,     /* must not: the worker ran on after it parted */
    GOOD_LATE       /* a good run whose worker parted after the split */
};

static char *path_of(const char *name)
{
    static char buf[4][512];
    static int k;
    char *p = buf[k++ % 4];
    snprintf(p, 512, "%s/%s", tu_tmpdir, name);
    return p;
}

static void run(dt *t, uint32_t th, const char *s)
{
    assert_int_equal(dt_run(t, th, s), 0);
}

static void make(const char *name, int how)
{
    dt t;
    int bad = how != GOOD && how != GOOD_LATE;

    remove(path_of(name));
    assert_int_equal(dt_open(&t, path_of(name), 0, names, 2), 0);
    run(&t, 0, "@1000000 main{ parse{ check{}");
    if (!bad)
        run(&t, 0, "@3000000 lex{} } }");
    else if (how == BAD_WENT_ON)
        run(&t, 0, "fail{} } }");
    else if (how == BAD_WAITS || how == BAD_EARLY)
        run(&t, 0, "fail{} @1500000 wait{");
    t.now[1] = how == BAD_EARLY ? 1200000 : how == GOOD_LATE ? 5000000 : 2000000;
    run(&t, 1, "log{ work{ helper{}");
    if (!bad)
        run(&t, 1, "wait{} } tally{} }");
    else if (how == BAD_QUIET)
        run(&t, 1, "} }");
    else
        run(&t, 1, "} tally{} }");
    for (int i = 0; how == BAD_RAN_ON && i < 2100; i++)
        run(&t, 1, "peek{}");
    assert_int_equal(dt_close(&t, bad && how != BAD_CLOSED), 0);
}

/* The verdict's cause of good run g against bad run b. */
static ttd_diff *diff(int g, int b, const ttd_place **cause)
{
    ttd_diff *d = NULL;
    make("g.trc", g);
    make("b.trc", b);
    assert_int_equal(ttd_diff_files(path_of("g.trc"), path_of("b.trc"), NULL, &d, NULL), 0);
    const ttd_result *r = ttd_get_result(d);
    assert_non_null(r->verdict);
    *cause = r->verdict->cause;
    return d;
}

/* 1 if the verdict names the worker's frames as this rule does (when
 * the worker parts first, its own split names `dt_work`, kind split). */
static int names_worker(const ttd_place *c)
{
    return c && c->function && c->kind == TTD_COF_ORDER &&
           (!strcmp(c->function, "dt_log") || !strcmp(c->function, "dt_work"));
}

static void fires(void **state)
{
    const ttd_place *c;
    (void)state;
    ttd_diff *d = diff(GOOD, BAD, &c);
    const ttd_verdict *v = ttd_get_result(d)->verdict;
    assert_non_null(c);
    assert_string_equal(c->function, "dt_log");
    assert_int_equal(c->kind, TTD_COF_ORDER);
    assert_string_equal(c->thread, "worker");
    assert_int_equal(v->confidence, TTD_CONF_POSSIBLE);
    assert_non_null(strstr(c->text, "thread main stopped in `dt_parse` at the split and never "
                                    "went on; thread worker parted from its good run only "
                                    "after that"));
    assert_non_null(strstr(c->text, "then made its last calls in `dt_log`"));
    assert_non_null(strstr(v->evidence[0], "in the good run thread worker parted at 1.999 ms, "
                                           "before the calls part at 2.999 ms"));
    assert_non_null(v->symptom);
    assert_string_equal(v->symptom->function, "dt_parse");
    ttd_free(d);
}

/* The frame whose callee returned early made no call after: it is named. */
static void quiet_caller(void **state)
{
    const ttd_place *c;
    (void)state;
    ttd_diff *d = diff(GOOD, BAD_QUIET, &c);
    assert_non_null(c);
    assert_string_equal(c->function, "dt_work");
    ttd_free(d);
}

/* main made calls after the split, then entered a wait and stopped. */
static void waits_after_split(void **state)
{
    const ttd_place *c;
    (void)state;
    ttd_diff *d = diff(GOOD, BAD_WAITS, &c);
    assert_non_null(c);
    assert_string_equal(c->function, "dt_log");
    assert_int_equal(c->kind, TTD_COF_ORDER);
    ttd_free(d);
}

static void must_not(void **state)
{
    static const int bads[] = {BAD_CLOSED, BAD_EARLY, BAD_WENT_ON, BAD_RAN_ON};
    const ttd_place *c;
    (void)state;
    for (size_t i = 0; i < sizeof bads / sizeof *bads; i++) {
        ttd_diff *d = diff(GOOD, bads[i], &c);
        if (names_worker(c))
            fail_msg("variant %d: named `%s`", bads[i], c->function);
        ttd_free(d);
    }
    /* the worker parted after the split in the good run: it followed main */
    ttd_diff *d = diff(GOOD_LATE, BAD, &c);
    assert_false(names_worker(c));
    ttd_free(d);
    /* two good runs: no divergence, no cause */
    d = diff(GOOD, GOOD, &c);
    assert_null(c);
    ttd_free(d);
}

/* ---- a wake-up that came while its waiter was busy (ttdi_wakewin_find) ----
 * The loop thread waits (a timed wait of 1 s, a SLEEP record) in `parse`,
 * is woken at 2 us and handles it in `work` (to 5 us), then waits again
 * from 5.1 us: in the good run that wait ends at 6 us and the loop calls
 * `work` again; in the bad run it runs its full second and the loop
 * calls `fail`. The producer's `log` calls `check` (the send) at 1.5 us,
 * then again: at 5.5 us in the good run (during the wait), at 3 us in the
 * bad run (inside `work`). Fires: `work` named, kind race. Must not: the
 * bad wait ended early (WW_SHORT); the bad send came after `work`
 * returned (WW_AFTER_WORK: no call of the handling open); the producer's
 * calls differ before the send (WW_DIFF); the loop's first wait was made
 * inside `work` (WW_OVER, both runs: `work` is the wait's call, not the
 * handling of what woke it); two good runs. */
enum { WW_GOOD, WW_BAD, WW_SHORT, WW_AFTER_WORK, WW_DIFF, WW_OVER, WW_OVER_GOOD };
static const char *const loop_names[] = {"loop", "producer"};

static void make_ww(const char *name, int how)
{
    dt t;
    int bad = how != WW_GOOD;

    remove(path_of(name));
    assert_int_equal(dt_open(&t, path_of(name), 0, loop_names, 2), 0);
    int over = how == WW_OVER || how == WW_OVER_GOOD;

    bad = bad && how != WW_OVER_GOOD;
    run(&t, 0, over ? "@1000 main{ parse{ work{" : "@1000 main{ parse{");
    assert_int_equal(dt_sync(&t, 0, TTF_SOP_SLEEP, 0x7000, 1000000000), 0);
    run(&t, 0, over ? "@2000 helper{} @5000 } @5100" : "@2000 work{ helper{} @5000 } @5100");
    assert_int_equal(dt_sync(&t, 0, TTF_SOP_SLEEP, 0x7000, 1000000000), 0);
    if (!bad)
        run(&t, 0, "@6000 work{ helper{} } } }");
    else
        run(&t, 0, how == WW_SHORT ? "@500006000 fail{} } }" : "@1000006000 fail{} } }");
    t.now[1] = 1500;
    run(&t, 1, how == WW_DIFF ? "log{ check{} lex{}" : "log{ check{}");
    run(&t, 1, !bad ? "@5500 check{}" : how == WW_AFTER_WORK ? "@5050 check{}" : "@3000 check{}");
    run(&t, 1, bad ? "@1000007000 }" : "@7000 }");
    assert_int_equal(dt_close(&t, 0), 0);
}

static ttd_diff *diff_ww(int g, int b, const ttd_place **cause, int *exit)
{
    ttd_diff *d = NULL;
    make_ww("wg.trc", g);
    make_ww("wb.trc", b);
    assert_int_equal(ttd_diff_files(path_of("wg.trc"), path_of("wb.trc"), NULL, &d, NULL), 0);
    const ttd_result *r = ttd_get_result(d);
    assert_non_null(r->verdict);
    *cause = r->verdict->cause;
    *exit = r->verdict->exit;
    return d;
}

static void wake_window(void **state)
{
    const ttd_place *c;
    int ex;
    (void)state;
    ttd_diff *d = diff_ww(WW_GOOD, WW_BAD, &c, &ex);
    const ttd_verdict *v = ttd_get_result(d)->verdict;
    assert_non_null(c);
    assert_int_equal(c->kind, TTD_COF_RACE);
    assert_string_equal(c->function, "dt_work");
    assert_string_equal(c->thread, "loop");
    assert_int_equal(v->confidence, TTD_CONF_POSSIBLE);
    assert_non_null(strstr(c->text, "`dt_check` (thread producer) returned at "));
    assert_non_null(strstr(c->text, "while thread loop was inside `dt_work`"));
    assert_non_null(strstr(c->text, "ran its full 1000 ms with no wake-up"));
    assert_non_null(strstr(v->evidence[0], "in the good run the same call of thread producer"));
    ttd_free(d);
    for (int how = WW_SHORT; how <= WW_OVER; how++) {
        d = diff_ww(how == WW_OVER ? WW_OVER_GOOD : WW_GOOD, how, &c, &ex);
        assert_int_equal(ex, 1);
        assert_false(c && c->kind == TTD_COF_RACE && c->function &&
                     !strcmp(c->function, "dt_work"));
        ttd_free(d);
    }
    /* the good runs alike: exit 0, no cause */
    d = diff_ww(WW_GOOD, WW_GOOD, &c, &ex);
    assert_int_equal(ex, 0);
    assert_null(c);
    ttd_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fires),
        cmocka_unit_test(quiet_caller),
        cmocka_unit_test(waits_after_split),
        cmocka_unit_test(must_not),
        cmocka_unit_test(wake_window),
    };
    return cmocka_run_group_tests(tests, tu_tmpdir_setup, tu_tmpdir_teardown);
}
