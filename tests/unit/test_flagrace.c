/*
 * test_flagrace.c - the happens-before test of a race on a flag
 * (diff/flagrace.c ttdi_flag_unordered, issue 33 item 4) on hand-made
 * sync records of two threads: the poller's thread P (index 1) and the
 * setter's S (index 0). The poll is the call [100, 110] ns, the set
 * [200, 210] (or as each case says). Fires (unordered): no sync at all;
 * a lock only one call holds; a release before the poll; calls that
 * overlap. Must not (ordered or protected): one mutex taken in both calls
 * (the locked twin); P's unlock after the poll taken by S before the set;
 * P's signal woken on by S; P's semaphore post taken by S; S joining P
 * (S created it); S creating P after the set (set first); a wait's
 * release of its mutex taken by the other thread.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "explain.h"

#define M 0x1000u       /* a mutex */
#define C 0x2000u       /* a condition */
#define TID 0x7700u     /* P's pthread_t */

static int unordered(const ttdi_flag_sync *ps, size_t np, const ttdi_flag_sync *ss, size_t ns,
                     ttdi_flag_call pc, ttdi_flag_call sc)
{
    ttdi_flag_view p = {1, ps, np}, s = {0, ss, ns};
    return ttdi_flag_unordered(&p, &pc, &s, &sc);
}

static const ttdi_flag_call POLL = {100, 110}, SET = {200, 210};

static void fires(void **state)
{
    (void)state;
    ttdi_flag_sync p1[] = {{102, M, 0, TTF_SOP_LOCK}, {104, M, 0, TTF_SOP_UNLOCK}};
    ttdi_flag_sync s_early[] = {{50, M, 0, TTF_SOP_LOCK}, {60, M, 0, TTF_SOP_UNLOCK}};
    ttdi_flag_sync p_early[] = {{40, M, 0, TTF_SOP_LOCK}, {45, M, 0, TTF_SOP_UNLOCK}};
    assert_int_equal(unordered(NULL, 0, NULL, 0, POLL, SET), 1);
    assert_int_equal(unordered(p1, 2, NULL, 0, POLL, SET), 1);          /* the poller alone locks */
    assert_int_equal(unordered(p_early, 2, s_early, 2, POLL, SET), 1); /* released before */
    assert_int_equal(unordered(NULL, 0, NULL, 0, POLL, (ttdi_flag_call){105, 120}), 1);
}

static void protected_by_lock(void **state)
{
    (void)state;
    ttdi_flag_sync p[] = {{102, M, 0, TTF_SOP_LOCK}, {104, M, 0, TTF_SOP_UNLOCK}};
    ttdi_flag_sync s[] = {{202, M, 0, TTF_SOP_LOCK}, {204, M, 0, TTF_SOP_UNLOCK}};
    ttdi_flag_sync s_held[] = {{20, M, 0, TTF_SOP_LOCK}, {300, M, 0, TTF_SOP_UNLOCK}};
    assert_int_equal(unordered(p, 2, s, 2, POLL, SET), 0);
    /* held from before the set's call to after it: still both */
    assert_int_equal(unordered(p, 2, s_held, 2, POLL, SET), 0);
    /* and overlapping calls under the one lock */
    assert_int_equal(unordered(p, 2, s, 2, POLL, (ttdi_flag_call){101, 205}), 0);
}

static void ordered_by_edges(void **state)
{
    (void)state;
    /* the poller's unlock after the poll, the setter's lock before the set */
    ttdi_flag_sync pu[] = {{120, M, 0, TTF_SOP_LOCK}, {130, M, 0, TTF_SOP_UNLOCK}};
    ttdi_flag_sync sl[] = {{150, M, 0, TTF_SOP_LOCK}, {160, M, 0, TTF_SOP_UNLOCK}};
    assert_int_equal(unordered(pu, 2, sl, 2, POLL, SET), 0);
    /* a signal and the wake-up */
    ttdi_flag_sync ps[] = {{130, C, 0, TTF_SOP_SIGNAL}};
    ttdi_flag_sync sw[] = {{140, C, M, TTF_SOP_WAIT}, {150, C, 0, TTF_SOP_WOKE}};
    assert_int_equal(unordered(ps, 1, sw, 2, POLL, SET), 0);
    /* the same wake-up before the signal orders nothing */
    ttdi_flag_sync sw0[] = {{30, C, M, TTF_SOP_WAIT}, {40, C, 0, TTF_SOP_WOKE}};
    assert_int_equal(unordered(ps, 1, sw0, 2, POLL, SET), 1);
    /* the setter's thread created the poller's and joined it */
    ttdi_flag_sync sj[] = {{10, TID, 1, TTF_SOP_CREATE}, {150, TID, 0, TTF_SOP_JOIN}};
    assert_int_equal(unordered(NULL, 0, sj, 2, POLL, SET), 0);
    ttdi_flag_sync sj0[] = {{10, TID, 1, TTF_SOP_CREATE}};
    assert_int_equal(unordered(NULL, 0, sj0, 1, POLL, SET), 1);     /* no join: unordered */
    /* set first, then the setter's thread created the poller's */
    ttdi_flag_sync sc[] = {{60, TID, 1, TTF_SOP_CREATE}};
    assert_int_equal(unordered(NULL, 0, sc, 1, POLL, (ttdi_flag_call){40, 50}), 0);
    /* a semaphore's post and the other thread's take of it */
    ttdi_flag_sync pp[] = {{130, C, 0, TTF_SOP_SEM_POST}};
    ttdi_flag_sync st[] = {{140, C, 0, TTF_SOP_SEM_WAITING}, {150, C, 0, TTF_SOP_SEM_TAKEN}};
    assert_int_equal(unordered(pp, 1, st, 2, POLL, SET), 0);
    assert_int_equal(unordered(NULL, 0, st, 2, POLL, SET), 1);      /* taken, no post: unordered */
    /* a wait releases its mutex: the other thread's lock of it after */
    ttdi_flag_sync pw[] = {{115, M, 0, TTF_SOP_LOCK}, {120, C, M, TTF_SOP_WAIT}};
    assert_int_equal(unordered(pw, 2, sl, 2, POLL, SET), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fires),
        cmocka_unit_test(protected_by_lock),
        cmocka_unit_test(ordered_by_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
