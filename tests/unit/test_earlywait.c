/*
 * test_earlywait.c - a wait that returned before the work it waits for
 * was done (diff/earlywait.c, issue 33): the pick (ttdi_early_wait_pick)
 * on hand-made thread-order windows. Fires: the split's thread S's last
 * wait in the bad run returned in J (a condition's wake-up, or a
 * semaphore taken) with only J's operations after it, its last
 * operations in the good run were in J too, and a worker operated on J's
 * objects (the party, and the signal or post that woke S). Must not: a
 * wait that S began after the wake-up, an operation of S's in another
 * function after it, the good run's S last in another function, no wake
 * (S only locked), no other thread on J's objects, a wake-up S never had
 * (a timeout with no signal still fires: the waker is then NULL). Who is
 * named: the signaller when the signal came from the worker inside the
 * work, else the wait (ttdi_early_wait_signaller). Through the program's
 * own wrappers (a call that only waits, or only signals, between two of
 * the thread's operations in its caller) the wait and the signal are the
 * callers'. The
 * walks (a party inside a call at the wake-up and at the split, the good
 * run done with it before J) are the e2e test's (ttdiff_earlywait.sh, on
 * fixtures/progs/early_join.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "explain.h"

#define S 0u    /* the split's thread */
#define W1 1u   /* workers */
#define W2 2u

static ttd_xev x(uint32_t th, int op, uint64_t t, const char *obj, const char *fn)
{
    return (ttd_xev){TTF_EV_SYNC_OP, op, th, th, t, obj, fn, fn};
}

/* The pool's shape: S locks, waits on cond#2 in pool_join; worker 1
 * takes its job and signals; S wakes and unlocks. The good run's S
 * found the queue empty: a lock and an unlock in pool_join. */
static size_t bad_window(ttd_xev *b)
{
    size_t n = 0;
    b[n++] = x(S, TTF_SOP_LOCK, 10, "mutex#1", "pool_add");
    b[n++] = x(S, TTF_SOP_UNLOCK, 11, "mutex#1", "pool_add");
    b[n++] = x(S, TTF_SOP_LOCK, 20, "mutex#1", "pool_join");
    b[n++] = x(S, TTF_SOP_WAIT, 21, "cond#2", "pool_join");
    b[n++] = x(W1, TTF_SOP_LOCK, 22, "mutex#1", "worker");
    b[n++] = x(W2, TTF_SOP_LOCK, 23, "mutex#3", "logger");
    b[n++] = x(W1, TTF_SOP_SIGNAL, 24, "cond#2", "worker");
    b[n++] = x(W1, TTF_SOP_UNLOCK, 25, "mutex#1", "worker");
    b[n++] = x(S, TTF_SOP_WOKE, 26, "cond#2", "pool_join");
    b[n++] = x(S, TTF_SOP_UNLOCK, 27, "mutex#1", "pool_join");
    return n;
}

static size_t good_window(ttd_xev *g)
{
    size_t n = 0;
    g[n++] = x(W1, TTF_SOP_SIGNAL, 24, "cond#2", "worker");
    g[n++] = x(S, TTF_SOP_LOCK, 300, "mutex#1", "pool_join");
    g[n++] = x(S, TTF_SOP_UNLOCK, 301, "mutex#1", "pool_join");
    return n;
}

static int pick(ttd_xev *b, size_t nb, ttd_xev *g, size_t ng, ttdi_ew_pick *pk)
{
    ttd_interleave iv;
    const uint32_t s[2] = {S, S};

    memset(&iv, 0, sizeof iv);
    iv.window[TTD_BAD] = b;
    iv.nwindow[TTD_BAD] = nb;
    iv.window[TTD_GOOD] = g;
    iv.nwindow[TTD_GOOD] = ng;
    return ttdi_early_wait_pick(&iv, s, pk);
}

static void fires(void **state)
{
    ttd_xev b[16], g[16];
    size_t nb = bad_window(b), ng = good_window(g);
    ttdi_ew_pick pk;
    (void)state;

    assert_int_equal(pick(b, nb, g, ng, &pk), 1);
    assert_string_equal(pk.function, "pool_join");
    assert_ptr_equal(pk.wake, &b[8]);
    assert_ptr_equal(pk.waker, &b[6]);
    assert_ptr_equal(pk.good_begin, &g[1]);
    /* the party: the worker on mutex#1 and cond#2, not the logger */
    assert_int_equal(pk.nparty, 1);
    assert_int_equal(pk.party[0], W1);
    /* a semaphore: taken after a post */
    b[6].op = TTF_SOP_SEM_POST;
    b[8].op = TTF_SOP_SEM_TAKEN;
    assert_int_equal(pick(b, nb, g, ng, &pk), 1);
    assert_ptr_equal(pk.waker, &b[6]);
    /* a wake-up no signal explains (a timeout): fires, no waker */
    b[6].op = TTF_SOP_UNLOCK;
    b[8].op = TTF_SOP_WOKE;
    assert_int_equal(pick(b, nb, g, ng, &pk), 1);
    assert_null(pk.waker);
}

static void must_not(void **state)
{
    ttd_xev b[16], g[16];
    size_t nb, ng = good_window(g);
    ttdi_ew_pick pk;
    (void)state;

    /* S waits again after the wake-up: not its last word */
    nb = bad_window(b);
    b[nb++] = x(S, TTF_SOP_WAIT, 28, "cond#2", "pool_join");
    assert_int_equal(pick(b, nb, g, ng, &pk), 0);
    /* an operation of S's in another function after it */
    nb = bad_window(b);
    b[nb++] = x(S, TTF_SOP_LOCK, 28, "mutex#4", "collect");
    assert_int_equal(pick(b, nb, g, ng, &pk), 0);
    /* the good run's S last in another function */
    nb = bad_window(b);
    g[ng++] = x(S, TTF_SOP_LOCK, 302, "mutex#4", "collect");
    assert_int_equal(pick(b, nb, g, ng, &pk), 0);
    ng = good_window(g);
    /* no wake-up: S only locked and unlocked in pool_join */
    nb = bad_window(b);
    b[3].op = TTF_SOP_LOCK;
    b[8].op = TTF_SOP_LOCK;
    b[3].object = b[8].object = "mutex#1";
    assert_int_equal(pick(b, nb, g, ng, &pk), 0);
    /* no other thread on pool_join's objects */
    nb = bad_window(b);
    b[4].object = b[7].object = "mutex#5";
    b[6].object = "cond#6";
    assert_int_equal(pick(b, nb, g, ng, &pk), 0);
    /* no windows */
    assert_int_equal(ttdi_early_wait_pick(NULL, (const uint32_t[2]){S, S}, &pk), 0);
}

/* The same pool through the program's own wrappers: S waits in cv_wait
 * (a call that only waits) between its lock and unlock in pool_join, the
 * worker signals in cv_signal between its lock and unlock in worker; the
 * good run's S waited through cv_wait too. The wait is pool_join's, the
 * good run's J begins at its lock (not at the unlock after the wrapper),
 * and the signal is the worker's. A call that made a lock of its own
 * before its wait is no wrapper; nor one that S's operations do not
 * close in one function (another function's operation after it). */
static void wrapped(void **state)
{
    ttd_xev b[16], g[16];
    size_t nb = bad_window(b), ng = 0;
    ttdi_ew_pick pk;
    (void)state;

    b[3].within = b[3].func = "cv_wait";   /* S's WAIT */
    b[8].within = b[8].func = "cv_wait";   /* S's WOKE */
    b[6].within = b[6].func = "cv_signal"; /* the worker's SIGNAL */
    g[ng++] = x(S, TTF_SOP_LOCK, 300, "mutex#1", "pool_join");
    g[ng++] = x(S, TTF_SOP_WAIT, 301, "cond#2", "cv_wait");
    g[ng++] = x(W1, TTF_SOP_SIGNAL, 302, "cond#2", "cv_signal");
    g[ng++] = x(S, TTF_SOP_WOKE, 303, "cond#2", "cv_wait");
    g[ng++] = x(S, TTF_SOP_UNLOCK, 304, "mutex#1", "pool_join");
    assert_int_equal(pick(b, nb, g, ng, &pk), 1);
    assert_string_equal(pk.function, "pool_join");
    assert_ptr_equal(pk.wake, &b[8]);
    assert_ptr_equal(pk.good_begin, &g[0]);
    assert_ptr_equal(pk.waker, &b[6]);
    assert_string_equal(pk.waker_func, "worker");
    assert_int_equal(pk.nparty, 1);
    /* waited twice in the wrapper: still pool_join's */
    ttd_xev b2[16];
    size_t n2 = 0;
    for (size_t i = 0; i < nb; i++) {
        b2[n2++] = b[i];
        if (i == 3) {
            b2[n2++] = x(S, TTF_SOP_WOKE, 21, "cond#2", "cv_wait");
            b2[n2++] = x(S, TTF_SOP_WAIT, 21, "cond#2", "cv_wait");
        }
    }
    assert_int_equal(pick(b2, n2, g, ng, &pk), 1);
    assert_string_equal(pk.function, "pool_join");
    /* a lock of the wait's own call before it: cv_wait is J itself (S's
     * last operations are then not all in it: no pick) */
    b[2].within = b[2].func = "cv_wait";
    assert_int_equal(pick(b, nb, g, ng, &pk), 0);
    b[2].within = b[2].func = "pool_join";
    /* S's operation after the wrapper in another function: not closed */
    b[9].within = b[9].func = "collect";
    assert_int_equal(pick(b, nb, g, ng, &pk), 0);
    b[9].within = b[9].func = "pool_join";
    /* the worker's unlock after its signal elsewhere: the signal is
     * cv_signal's own */
    b[7].within = b[7].func = "logger";
    assert_int_equal(pick(b, nb, g, ng, &pk), 1);
    assert_string_equal(pk.waker_func, "cv_signal");
    /* without a wrapper the names are the operations' own */
    nb = bad_window(b);
    ng = good_window(g);
    assert_int_equal(pick(b, nb, g, ng, &pk), 1);
    assert_string_equal(pk.waker_func, "worker");
    assert_string_equal(pk.function, "pool_join");
}

/* Who is named: the signaller when its signal came from inside the
 * work (the worker said "done" before it was), else the wait. */
static void names(void **state)
{
    ttd_xev sig = x(W1, TTF_SOP_SIGNAL, 24, "cond#2", "sum_job");
    (void)state;
    assert_int_equal(ttdi_early_wait_signaller(&sig, W1, 20), 1);  /* inside C */
    assert_int_equal(ttdi_early_wait_signaller(&sig, W1, 24), 1);
    assert_int_equal(ttdi_early_wait_signaller(&sig, W1, 30), 0);  /* before C */
    assert_int_equal(ttdi_early_wait_signaller(&sig, W2, 20), 0);  /* another thread */
    assert_int_equal(ttdi_early_wait_signaller(NULL, W1, 20), 0);  /* a timeout */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fires),
        cmocka_unit_test(must_not),
        cmocka_unit_test(wrapped),
        cmocka_unit_test(names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
