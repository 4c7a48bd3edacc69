/* app.c - the libuv1-cancelrace case's application (benchmark code), after
 * libuv1-cancelrun's: a warm-up job first (queued and completed with
 * uv_run, then a 20 ms pause, so the pool's one thread is started and
 * asleep before the job that matters); then it queues one job on libuv's
 * thread pool (uv_queue_work; its work takes 200 ms), and GAP ms later
 * (the argument: "050" or "400"), before the loop has run, the user
 * changes their mind: uv_cancel. A job whose work has begun cannot be
 * cancelled (docs/src/threadpool.rst: only requests still waiting in the
 * queue can be): uv_cancel must fail with UV_EBUSY, whether the work is
 * still running (050) or has finished (400), and the completion callback
 * gets status 0. Exit 0 when the outcome is consistent; 1 when the request
 * was reported cancelled although its work ran (the result is lost). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "uv.h"

static uv_work_t warm, job;
static unsigned long result;
static int computed, failed;

static void noop(uv_work_t *req)
{
    (void)req;
}

static void noop_done(uv_work_t *req, int status)
{
    (void)req;
    (void)status;
}

static void work(uv_work_t *req)
{
    unsigned long i, s = 0;
    (void)req;
    usleep(200000); /* the work takes 200 ms */
    for (i = 0; i < 300000; i++) s += i % 7;
    result = s;
    computed = 1;
}

static void after(uv_work_t *req, int status)
{
    (void)req;
    if (status == UV_ECANCELED) {
        printf("job: cancelled%s\n", computed ? ", but its work ran: result lost" : "");
        failed = computed;
        return;
    }
    printf("job: %lu (status %d)\n", result, status);
}

int main(int argc, char **argv)
{
    uv_loop_t *loop = uv_default_loop();
    int gap = argc > 1 ? atoi(argv[1]) : 400;
    int r;
    uv_queue_work(loop, &warm, noop, noop_done);
    uv_run(loop, UV_RUN_DEFAULT);
    usleep(20000); /* the pool thread waits for work */
    uv_queue_work(loop, &job, work, after);
    usleep(gap * 1000); /* the user cancels GAP ms later */
    r = uv_cancel((uv_req_t *)&job);
    printf("uv_cancel: %s\n", r ? uv_err_name(r) : "0 (cancelled)");
    uv_run(loop, UV_RUN_DEFAULT);
    return failed;
}
