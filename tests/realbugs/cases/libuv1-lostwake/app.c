/* app.c - the libuv1-lostwake case's application (benchmark code): runs
 * two jobs one after the other on libuv's thread pool (uv_queue_work; the
 * second is queued 20 ms after the first's completion callback, from a
 * timer on the loop thread), with a 3-second watchdog timer. Prints each
 * job's result; exit 0 when both ran, 1 when the watchdog fired first. */
#include <stdio.h>
#include "uv.h"

static uv_work_t job1, job2;
static uv_timer_t watchdog, later;
static unsigned long result[2];
static int stuck;

static void work(uv_work_t *req)
{
    unsigned long i, s = 0, n = req == &job1 ? 100000 : 200000;
    for (i = 0; i < n; i++) s += i % 7;
    result[req == &job1 ? 0 : 1] = s;
}

static void after2(uv_work_t *req, int status)
{
    (void)req;
    printf("job 2: %lu (status %d)\n", result[1], status);
    uv_timer_stop(&watchdog);
    uv_close((uv_handle_t *)&watchdog, NULL);
}

static void queue_job2(uv_timer_t *t)
{
    uv_close((uv_handle_t *)t, NULL);
    uv_queue_work(uv_default_loop(), &job2, work, after2);
}

static void after1(uv_work_t *req, int status)
{
    (void)req;
    printf("job 1: %lu (status %d)\n", result[0], status);
    uv_timer_init(uv_default_loop(), &later);
    uv_timer_start(&later, queue_job2, 20, 0);
}

static void on_watchdog(uv_timer_t *t)
{
    (void)t;
    printf("watchdog: the jobs did not finish within 3 s\n");
    stuck = 1;
    uv_stop(uv_default_loop());
}

int main(void)
{
    uv_loop_t *loop = uv_default_loop();
    uv_timer_init(loop, &watchdog);
    uv_timer_start(&watchdog, on_watchdog, 3000, 0);
    uv_queue_work(loop, &job1, work, after1);
    uv_run(loop, UV_RUN_DEFAULT);
    return stuck;
}
