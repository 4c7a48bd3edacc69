/*
 * test_overlap.c - which call of another thread, in flight over the
 * split, the verdict names (diff/overlap.c ttdi_overlap_pick, issue 33
 * item 4), on a hand-made stack of that thread (B, index 0) at the split
 * and hand-made sync records of both threads. The split's thread A
 * (index 1) is inside its split frame's call [100, 150] ns at the split
 * (150); B's stack: main and loop_run open in both runs, dispatch [90,
 * 400], on_wake [95, 390], handle [96, 380] open over the split in the
 * bad run only. Fires: dispatch writes what the split reads, no lock;
 * the innermost writer wins; a lock wrapper is passed over. Must not:
 * dispatch takes the mutex the split's frame held (ordered by the lock);
 * no call writes what the split reads (no shared state); the writer was
 * open at the paired point in the good run too; it returned before the
 * split or began after it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "explain.h"
#include "prepare.h"

#define M 0x1000u       /* a mutex */
#define M2 0x3000u      /* another */

static const ttdi_flag_call SPLIT = {100, 150};

/* B's stack at the split: main, loop_run (open in the good run too),
 * dispatch (writes the flag), on_wake, handle. */
static void stack(ttdi_ov_frame *f)
{
    f[0] = (ttdi_ov_frame){"main", 1, UINT64_MAX, 1, 1, 0};
    f[1] = (ttdi_ov_frame){"loop_run", 2, UINT64_MAX, 1, 1, 0};
    f[2] = (ttdi_ov_frame){"dispatch", 90, 400, 0, 1, 0};
    f[3] = (ttdi_ov_frame){"on_wake", 95, 390, 0, 0, 0};
    f[4] = (ttdi_ov_frame){"handle", 96, 380, 0, 0, 0};
}

static int pick(const ttdi_flag_sync *as, size_t na, const ttdi_flag_sync *bs, size_t nb,
                const ttdi_ov_frame *f, size_t n)
{
    ttdi_flag_view a = {1, as, na}, b = {0, bs, nb};
    return ttdi_overlap_pick(&a, &SPLIT, &b, f, n);
}

static void fires(void **state)
{
    ttdi_ov_frame f[5];
    (void)state;
    stack(f);
    assert_int_equal(pick(NULL, 0, NULL, 0, f, 5), 2);
    /* a lock only one side holds, or two different locks: still unordered */
    ttdi_flag_sync as[] = {{110, M, 0, TTF_SOP_LOCK}, {120, M, 0, TTF_SOP_UNLOCK}};
    ttdi_flag_sync bs[] = {{395, M2, 0, TTF_SOP_LOCK}, {396, M2, 0, TTF_SOP_UNLOCK}};
    assert_int_equal(pick(as, 2, NULL, 0, f, 5), 2);
    assert_int_equal(pick(as, 2, bs, 2, f, 5), 2);
    /* A's lock released before its split frame's call: not held in it */
    ttdi_flag_sync early[] = {{50, M, 0, TTF_SOP_LOCK}, {60, M, 0, TTF_SOP_UNLOCK}};
    ttdi_flag_sync bm[] = {{395, M, 0, TTF_SOP_LOCK}, {396, M, 0, TTF_SOP_UNLOCK}};
    assert_int_equal(pick(early, 2, bm, 2, f, 5), 2);
}

static void innermost(void **state)
{
    ttdi_ov_frame f[5];
    (void)state;
    stack(f);
    f[3].writes = 1;    /* on_wake writes it too (a call made inside it) */
    assert_int_equal(pick(NULL, 0, NULL, 0, f, 5), 3);
    f[3].wrapper = 1;   /* ... but it is a lock wrapper: its caller decides */
    assert_int_equal(pick(NULL, 0, NULL, 0, f, 5), 2);
}

static void ordered_by_lock(void **state)
{
    ttdi_ov_frame f[5];
    (void)state;
    stack(f);
    /* A read under M; dispatch takes M after the split to write */
    ttdi_flag_sync as[] = {{110, M, 0, TTF_SOP_LOCK}, {120, M, 0, TTF_SOP_UNLOCK}};
    ttdi_flag_sync bs[] = {{395, M, 0, TTF_SOP_LOCK}, {396, M, 0, TTF_SOP_UNLOCK}};
    assert_int_equal(pick(as, 2, bs, 2, f, 5), -1);
    /* held by A across the split, taken by B before it (inside on_wake) */
    ttdi_flag_sync ah[] = {{105, M, 0, TTF_SOP_LOCK}};
    ttdi_flag_sync bb[] = {{97, M, 0, TTF_SOP_LOCK}, {98, M, 0, TTF_SOP_UNLOCK}};
    assert_int_equal(pick(ah, 1, bb, 2, f, 5), -1);
}

static void no_shared_state(void **state)
{
    ttdi_ov_frame f[5];
    (void)state;
    stack(f);
    f[2].writes = 0;    /* nothing B had open writes what the split read */
    assert_int_equal(pick(NULL, 0, NULL, 0, f, 5), -1);
}

static void not_a_window(void **state)
{
    ttdi_ov_frame f[5];
    (void)state;
    stack(f);
    f[2].in_good = 1;   /* the good run was inside the same call too */
    assert_int_equal(pick(NULL, 0, NULL, 0, f, 5), -1);
    stack(f);
    f[2].exit_ns = 140; /* returned before the split */
    assert_int_equal(pick(NULL, 0, NULL, 0, f, 5), -1);
    stack(f);
    f[2].enter_ns = 160;    /* began after it */
    assert_int_equal(pick(NULL, 0, NULL, 0, f, 5), -1);
    assert_int_equal(pick(NULL, 0, NULL, 0, f, 0), -1);
}

/* The threads a verdict names (flag race, overlap, hang): two threads of
 * the same name are told apart by number ("#1 counter"), never "counter"
 * and "counter"; a thread without a name is "#N". */
static void thread_labels(void **state)
{
    ttdi_tinfo ti[4] = {{.name = "main"}, {.name = "counter"}, {.name = "counter"}, {.name = ""}};
    ttdi_run_state r = {.ti = ti, .nt = 4};
    struct ttfi_arena a = {0};
    (void)state;
    assert_string_equal(ttdi_thread_label(&r, &a, 0), "main");
    assert_string_equal(ttdi_thread_label(&r, &a, 1), "#1 counter");
    assert_string_equal(ttdi_thread_label(&r, &a, 2), "#2 counter");
    assert_string_equal(ttdi_thread_label(&r, &a, 3), "#3");
    assert_string_equal(ttdi_thread_label(&r, &a, 7), "#7");
    ttfi_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fires),
        cmocka_unit_test(innermost),
        cmocka_unit_test(ordered_by_lock),
        cmocka_unit_test(no_shared_state),
        cmocka_unit_test(not_a_window),
        cmocka_unit_test(thread_labels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
