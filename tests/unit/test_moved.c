/*
 * test_moved.c - another thread's block of calls moved against the split
 * thread (diff/moved.c, issue 33): the judgement (ttdi_moved_judge) on
 * hand-made counts and times of a thread T against the split thread's
 * window [A, split] in each run, and the pick (ttdi_moved_pick) on a
 * hand-made block of T's calls. Fires: T's calls between A and the split
 * in the bad run, none there in the good run, where it made them long
 * before A (late: an initialisation after the first use) or long after
 * the split (early: a stop before a worker is done); the good run's
 * window held them (the reverse). Must not: T busy in both windows (a
 * loop: jitter), idle in both, its calls differ before (a hunk), only a
 * little before A or after the split (jitter near the window), part of
 * the block on each side in the other run, T not begun before A. The
 * open call made from an inlined copy (ttdi_moved_inline) on hand-made
 * sites: the copy named only when it began inside the window.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "explain.h"

#define NONE UINT64_MAX

/* T in the loader's shape: the good run made its 10 calls (kept events
 * 2..12) at 1-2 ms, long before A (500 ms); the bad run made them at
 * 1500 ms, between A (500 ms) and the split (1540 ms). */
static void late(ttdi_mv_side s[2])
{
    s[TTD_GOOD] = (ttdi_mv_side){500, 600, 12, 12, 2, NONE};
    s[TTD_BAD] = (ttdi_mv_side){500, 1540, 2, 12, 1, NONE};
}

/* T in the stop's shape: the good run makes its calls (kept events
 * 100..600) at 1500 ms, long after the split (54 ms); the bad run at 21
 * ms, between A (20 ms) and the split (22 ms). */
static void early(ttdi_mv_side s[2])
{
    s[TTD_GOOD] = (ttdi_mv_side){44, 54, 100, 100, 28, 1500};
    s[TTD_BAD] = (ttdi_mv_side){20, 22, 100, 600, 2, 23};
}

static void fires(void **state)
{
    ttdi_mv_side s[2];
    (void)state;
    late(s);
    assert_int_equal(ttdi_moved_judge(s, NONE), TTD_BAD);
    early(s);
    assert_int_equal(ttdi_moved_judge(s, NONE), TTD_BAD);
    /* the reverse: the good run's window held them, the bad run's none */
    ttdi_mv_side t[2] = {s[TTD_BAD], s[TTD_GOOD]};
    assert_int_equal(ttdi_moved_judge(t, NONE), TTD_GOOD);
    /* a hunk of T's after the calls compared changes nothing */
    assert_int_equal(ttdi_moved_judge(s, 600), TTD_BAD);
}

static void not_moved(void **state)
{
    ttdi_mv_side s[2];
    (void)state;
    /* busy in both windows (a loop: jitter moves a call or two) */
    late(s);
    s[TTD_GOOD].n_split = 13;
    assert_int_equal(ttdi_moved_judge(s, NONE), -1);
    /* idle in both */
    late(s);
    s[TTD_BAD].n_a = 12;
    assert_int_equal(ttdi_moved_judge(s, NONE), -1);
    /* T's calls differ before the last compared: not the same calls */
    late(s);
    assert_int_equal(ttdi_moved_judge(s, 11), -1);
    early(s);
    assert_int_equal(ttdi_moved_judge(s, 599), -1);
}

static void jitter(void **state)
{
    ttdi_mv_side s[2];
    (void)state;
    /* the good run made them just before A: by less than the window */
    late(s);
    s[TTD_GOOD].before_ns = 450;
    assert_int_equal(ttdi_moved_judge(s, NONE), -1);
    s[TTD_GOOD].before_ns = 400;    /* by the window's length: moved */
    assert_int_equal(ttdi_moved_judge(s, NONE), TTD_BAD);
    /* the good run made them just after the split */
    early(s);
    s[TTD_GOOD].after_ns = 60;
    assert_int_equal(ttdi_moved_judge(s, NONE), -1);
    /* ... or never (T's thread ended first): no far place seen */
    s[TTD_GOOD].after_ns = NONE;
    assert_int_equal(ttdi_moved_judge(s, NONE), -1);
}

static void split_block(void **state)
{
    ttdi_mv_side s[2];
    (void)state;
    /* in the good run T's kept events before A are 7: five of the block
     * before A, the rest after the split: not all moved */
    late(s);
    s[TTD_GOOD].n_a = s[TTD_GOOD].n_split = 7;
    s[TTD_GOOD].after_ns = 5000;
    assert_int_equal(ttdi_moved_judge(s, NONE), -1);
    /* T had not begun before A in the good run: new work, not moved */
    early(s);
    s[TTD_GOOD].n_a = s[TTD_GOOD].n_split = 0;
    s[TTD_BAD].n_a = 0;
    assert_int_equal(ttdi_moved_judge(s, NONE), -1);
}

/* The loader's block: plugin_register { init { alloc, alloc },
 * set_codec { code_of } }, all returned before the split. */
static size_t loader(ttdi_mv_call *c)
{
    c[0] = (ttdi_mv_call){"plugin_register", 1, 10, 60, 1};
    c[1] = (ttdi_mv_call){"init", 2, 11, 30, 1};
    c[2] = (ttdi_mv_call){"alloc", 3, 12, 13, 0};
    c[3] = (ttdi_mv_call){"alloc", 3, 14, 15, 0};
    c[4] = (ttdi_mv_call){"set_codec", 2, 31, 50, 1};
    c[5] = (ttdi_mv_call){"code_of", 3, 32, 33, 0};
    return 6;
}

static void pick_writer(void **state)
{
    ttdi_mv_call c[8];
    size_t n = loader(c);
    (void)state;
    /* the first writer, and inside it its first writing callee */
    assert_int_equal(ttdi_moved_pick(c, n), 1);
    c[2].writes = 1;    /* init's own callee writes too: deeper */
    assert_int_equal(ttdi_moved_pick(c, n), 2);
    c[2].writes = 0;
    c[1].writes = 0;    /* init writes nothing: set_codec */
    assert_int_equal(ttdi_moved_pick(c, n), 4);
    for (size_t i = 0; i < n; i++)
        c[i].writes = 0;
    assert_int_equal(ttdi_moved_pick(c, n), -1);     /* no writer, none open */
    assert_int_equal(ttdi_moved_pick(c, 0), -1);
}

static void pick_open(void **state)
{
    ttdi_mv_call c[4];
    (void)state;
    /* the stop's block: a log call returned, then stop_service open over
     * the split with shutdown inside it: the outermost open one */
    c[0] = (ttdi_mv_call){"log", 1, 10, 20, 1};
    c[1] = (ttdi_mv_call){"stop_service", 1, 21, NONE, 0};
    c[2] = (ttdi_mv_call){"shutdown", 2, 22, NONE, 1};
    c[3] = (ttdi_mv_call){"join", 3, 23, NONE, 0};
    assert_int_equal(ttdi_moved_pick(c, 4), 1);
    c[1].exit_ns = 30;  /* it returned before the split: the writer then */
    c[2].exit_ns = 29;
    c[3].exit_ns = 28;
    assert_int_equal(ttdi_moved_pick(c, 4), 0);
}

/* The open call made from an inlined copy (a -pg build inlined
 * stop_service into main): named by the copy when the copy began inside
 * the window, by the call itself otherwise. */
static void pick_inline(void **state)
{
    ttdi_mv_call c[4];
    ttdi_mv_site s[4], before = {1, NULL, 0};   /* main's own call before A */
    const ttdi_mv_site stop = {1, "stop_service", 40}, other = {1, "stop_service", 52};
    (void)state;
    c[0] = (ttdi_mv_call){"log", 1, 10, 20, 0};
    c[1] = (ttdi_mv_call){"note_stop", 1, 21, 22, 0};
    c[2] = (ttdi_mv_call){"shutdown", 1, 23, NONE, 0};
    c[3] = (ttdi_mv_call){"join", 2, 24, NONE, 0};
    s[0] = (ttdi_mv_site){1, NULL, 0};  /* main's own code */
    s[1] = stop;
    s[2] = stop;
    s[3] = (ttdi_mv_site){0, NULL, 0};  /* other depths are not read */
    assert_int_equal(ttdi_moved_pick(c, 4), 2);
    /* the copy's first call is note_stop; log, before it, was main's own */
    assert_int_equal(ttdi_moved_inline(c, s, 2, &before), 1);
    /* another copy of the same function (another line) is not this one */
    s[0] = other;
    assert_int_equal(ttdi_moved_inline(c, s, 2, &before), 1);
    /* every call of the block from the copy: the one before A decides */
    s[0] = stop;
    assert_int_equal(ttdi_moved_inline(c, s, 2, &before), 0);
    assert_int_equal(ttdi_moved_inline(c, s, 2, &stop), -1);   /* began before A */
    assert_int_equal(ttdi_moved_inline(c, s, 2, NULL), -1);    /* cannot tell */
    before.known = 0;
    assert_int_equal(ttdi_moved_inline(c, s, 2, &before), -1);
    /* a call between whose site is unknown: cannot tell */
    s[0] = (ttdi_mv_site){1, NULL, 0};
    s[1] = (ttdi_mv_site){0, NULL, 0};
    assert_int_equal(ttdi_moved_inline(c, s, 2, &before), -1);
    /* the open call made by main's own code: no copy */
    s[1] = stop;
    s[2] = (ttdi_mv_site){1, NULL, 0};
    assert_int_equal(ttdi_moved_inline(c, s, 2, &before), -1);
    s[2] = (ttdi_mv_site){0, NULL, 0};
    assert_int_equal(ttdi_moved_inline(c, s, 2, &before), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fires),
        cmocka_unit_test(not_moved),
        cmocka_unit_test(jitter),
        cmocka_unit_test(split_block),
        cmocka_unit_test(pick_writer),
        cmocka_unit_test(pick_open),
        cmocka_unit_test(pick_inline),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
