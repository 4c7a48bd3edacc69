/* A periodic ticker on nng's aio framework (nng 1.5.2), stopped while a
 * tick runs: an aio sleeps 10 ms (nng_sleep_aio); its completion callback,
 * run by one of nng's taskq threads, does the tick's work (100 ms) and
 * re-arms the aio for the next tick (at most 5). The main thread stops
 * the ticker 60 ms in, while the first tick works: nng_aio_stop(3): "If
 * the callback function is already running when this function is called,
 * then it is allowed to complete before returning to the caller. No new
 * operations will be started on this aio", so the first tick's re-arm
 * fails and no tick follows.
 *
 * Exit 0 when no tick started after nng_aio_stop was called; 1 when the
 * ticker ran on. */
#include <nng/nng.h>
#include <stdio.h>
#include <unistd.h>

#define MAX_TICKS 5

static nng_aio *aio;
static int ticks;
static volatile int stopping;
static int late_ticks;

static __attribute__((noinline)) void tick_work(void)
{
    usleep(100000);
}

/* the completion callback (taskq thread): one tick, then re-arm */
static void on_tick(void *arg)
{
    (void)arg;
    if (nng_aio_result(aio) != 0)
        return;
    ticks++;
    if (stopping)
        late_ticks++;
    tick_work();
    if (ticks < MAX_TICKS)
        nng_sleep_aio(10, aio);
}

int main(void)
{
    int rv;

    if ((rv = nng_aio_alloc(&aio, on_tick, NULL)) != 0) {
        fprintf(stderr, "nng_aio_alloc: %s\n", nng_strerror(rv));
        return 2;
    }
    nng_sleep_aio(10, aio);
    usleep(60000);
    stopping = 1;
    nng_aio_stop(aio);
    printf("%d tick(s), %d after nng_aio_stop\n", ticks, late_ticks);
    nng_aio_free(aio);
    nng_fini();
    return late_ticks ? 1 : 0;
}
