/*
 * test_inlined.c - calls that one build's inlining made visible
 * (diff/inlined.c): the rule on one side of a hunk (ttdi_inlined_judge) on
 * hand-made event sequences. Fires: whole calls whose outermost functions
 * all lie in an untraced library the builds share (what those calls call
 * may be anything: the inlined copy's own work), inside a function whose
 * machine code alone changed. Must not: the call open at the start not
 * changed (or its source changed), an outermost call of a traced
 * function, a call cut at either end (an ENTER left open, an EXIT of a
 * call opened before), any other kind of event (a message, a lock), an
 * empty side. The module, code and both threads' walks (F calls G in
 * every call in one run, in none in the other) are the e2e test's
 * (ttdiff_inlined.sh, a library built untraced and two builds of one
 * program).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "state.h"

#define E(f) {TTF_EV_ENTER, f}
#define X {TTF_EV_EXIT, 0}
#define N(a) (sizeof(a) / sizeof *(a))

/* _Alloc_hider's copy and the allocator constructor it made, twice. */
static void test_fires(void **state)
{
    (void)state;
    const ttdi_inl_ev one[] = {E(1), E(1), E(0), X, X, X};
    assert_int_equal(ttdi_inlined_judge(one, N(one), 1), 1);
    const ttdi_inl_ev two[] = {E(1), X, E(1), E(0), X, X};
    assert_int_equal(ttdi_inlined_judge(two, N(two), 1), 1);
    /* what the copy calls may be traced code: only the outermost count */
    const ttdi_inl_ev deep[] = {E(1), E(0), E(0), X, X, X};
    assert_int_equal(ttdi_inlined_judge(deep, N(deep), 1), 1);
}

static void test_not_changed(void **state)
{
    (void)state;
    const ttdi_inl_ev one[] = {E(1), X};
    assert_int_equal(ttdi_inlined_judge(one, N(one), 0), 0);
}

static void test_traced_outer(void **state)
{
    (void)state;
    const ttdi_inl_ev own[] = {E(0), X};
    assert_int_equal(ttdi_inlined_judge(own, N(own), 1), 0);
    const ttdi_inl_ev second[] = {E(1), X, E(0), E(1), X, X};
    assert_int_equal(ttdi_inlined_judge(second, N(second), 1), 0);
}

static void test_cut(void **state)
{
    (void)state;
    const ttdi_inl_ev open[] = {E(1), E(1), X};
    assert_int_equal(ttdi_inlined_judge(open, N(open), 1), 0);
    const ttdi_inl_ev before[] = {X, E(1), X};
    assert_int_equal(ttdi_inlined_judge(before, N(before), 1), 0);
    const ttdi_inl_ev after[] = {E(1), X, X};
    assert_int_equal(ttdi_inlined_judge(after, N(after), 1), 0);
}

static void test_other_kinds(void **state)
{
    (void)state;
    const ttdi_inl_ev msg[] = {E(1), {TTF_EV_MESSAGE, 0}, X};
    assert_int_equal(ttdi_inlined_judge(msg, N(msg), 1), 0);
    const ttdi_inl_ev lock[] = {E(1), X, {TTF_EV_SYNC_OP, 0}};
    assert_int_equal(ttdi_inlined_judge(lock, N(lock), 1), 0);
    assert_int_equal(ttdi_inlined_judge(NULL, 0, 1), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fires),
        cmocka_unit_test(test_not_changed),
        cmocka_unit_test(test_traced_outer),
        cmocka_unit_test(test_cut),
        cmocka_unit_test(test_other_kinds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
