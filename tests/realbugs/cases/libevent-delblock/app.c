/* app.c - the libevent-delblock case's application (benchmark code), with
 * the lock-order deadlock libevent's whatsnew-2.1.txt (section 1.3.1)
 * describes: a loop thread runs an event_base (libevent with pthreads,
 * EVLOOP_NO_EXIT_ON_EMPTY); the main thread activates a job's event from
 * its own thread (event_active); the job's callback works for 100 ms,
 * then stores its result under the application's lock. GAP ms after the
 * activation (the argument: "300" or "050") the main thread cancels the
 * job: under the same lock it calls event_del on the job's event (made
 * without EV_FINALIZE) and reads whether a result came. Then it stops the
 * loop and joins it. Exit 0 when the run ends; a run that does not end is
 * ended by the case's timeout. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <event2/event.h>
#include <event2/thread.h>

static struct event_base *base;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int result, have_result;

/* the job: 100 ms of work, then its result, stored under the lock */
__attribute__((noinline)) static void on_job(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    (void)arg;
    usleep(100000);
    pthread_mutex_lock(&lock);
    result = 42;
    have_result = 1;
    pthread_mutex_unlock(&lock);
}

static void *run_loop(void *arg)
{
    (void)arg;
    event_base_loop(base, EVLOOP_NO_EXIT_ON_EMPTY);
    return NULL;
}

/* cancel the job if it has not run; returns whether its result came */
__attribute__((noinline)) static int cancel_job(struct event *job)
{
    int got;
    pthread_mutex_lock(&lock);
    event_del(job);
    got = have_result;
    pthread_mutex_unlock(&lock);
    return got;
}

int main(int argc, char **argv)
{
    struct event *job;
    pthread_t loop;
    int gap = argc > 1 ? atoi(argv[1]) : 50, got;
    evthread_use_pthreads();
    base = event_base_new();
    if (base == NULL) { fprintf(stderr, "event_base_new failed\n"); return 2; }
    job = event_new(base, -1, 0, on_job, NULL);
    pthread_create(&loop, NULL, run_loop, NULL);
    usleep(50000); /* the loop thread waits for work */
    event_active(job, EV_TIMEOUT, 1);
    usleep(gap * 1000); /* the user cancels GAP ms later */
    got = cancel_job(job);
    printf("job %s\n", got ? "done before the cancel" : "cancelled");
    event_base_loopbreak(base);
    pthread_join(loop, NULL);
    event_free(job);
    event_base_free(base);
    return 0;
}
