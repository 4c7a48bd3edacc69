/* app.c - the libuv1-cancelrun case's application (benchmark code): queues
 * one job on libuv's thread pool (uv_queue_work), and 100 ms later, before
 * the loop has run, the user changes their mind: uv_cancel. By then the
 * job's work has run (it takes a few ms), so uv_cancel must fail with
 * UV_EBUSY (docs/src/threadpool.rst: only requests still waiting in the
 * queue can be cancelled) and the completion callback gets status 0.
 * Exit 0 when the outcome is consistent; 1 when the request was reported
 * cancelled although its work ran (the result is thrown away). */
#include <stdio.h>
#include <unistd.h>
#include "uv.h"

static uv_work_t job;
static unsigned long result;
static int computed, failed;

static void work(uv_work_t *req)
{
    unsigned long i, s = 0;
    (void)req;
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

int main(void)
{
    uv_loop_t *loop = uv_default_loop();
    int r;
    uv_queue_work(loop, &job, work, after);
    usleep(100000); /* the user cancels 100 ms later */
    r = uv_cancel((uv_req_t *)&job);
    printf("uv_cancel: %s\n", r ? uv_err_name(r) : "0 (cancelled)");
    uv_run(loop, UV_RUN_DEFAULT);
    return failed;
}
