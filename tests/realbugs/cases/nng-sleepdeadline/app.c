/* A back-off with a deadline on nng's aio framework (nng 1.5.2): an aio
 * whose timeout (the deadline, 50 ms) is shorter than its sleep (the
 * back-off, 300 ms). nng_sleep_aio(3): "If a timeout is set on aio ... and
 * it is shorter than msec, then the sleep will wake up early, with a
 * result code of NNG_ETIMEDOUT"; "If the sleep finishes completely, the
 * result will always be zero". The completion callback (a taskq thread)
 * reads the result and decides: give up (deadline) or retry (back-off
 * over); the main thread waits, then reports the decision.
 *
 * Exit 0 when the decision agrees with the time that passed; 1 when the
 * back-off was reported complete before its 300 ms. */
#include <nng/nng.h>
#include <nng/supplemental/util/platform.h>
#include <stdio.h>

static nng_aio *aio;
static int decision;            /* 1 gave up at the deadline, 2 retry */

static __attribute__((noinline)) void deadline_hit(void)
{
    decision = 1;
}

static __attribute__((noinline)) void backoff_done(void)
{
    decision = 2;
}

/* the completion callback (taskq thread) */
static void on_wake(void *arg)
{
    (void)arg;
    if (nng_aio_result(aio) == NNG_ETIMEDOUT)
        deadline_hit();
    else
        backoff_done();
}

int main(void)
{
    nng_time t0, t1;
    int rv, ok;

    if ((rv = nng_aio_alloc(&aio, on_wake, NULL)) != 0) {
        fprintf(stderr, "nng_aio_alloc: %s\n", nng_strerror(rv));
        return 2;
    }
    nng_aio_set_timeout(aio, 50);
    t0 = nng_clock();
    nng_sleep_aio(300, aio);
    nng_aio_wait(aio);
    t1 = nng_clock();
    if (decision == 1) {
        printf("deadline: gave up\n");
        ok = 1;
    } else {
        /* a retry is right only once the whole back-off has passed */
        ok = t1 - t0 >= 300;
        printf("back-off over: retry%s\n", ok ? "" : " (before its 300 ms)");
    }
    nng_aio_free(aio);
    nng_fini();
    return ok ? 0 : 1;
}
