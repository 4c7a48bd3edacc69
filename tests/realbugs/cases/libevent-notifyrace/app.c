/* app.c - the libevent-notifyrace case's application (benchmark code): a
 * loop thread runs an event_base (libevent with pthreads, so other threads
 * may use the base: evthread_use_pthreads) with nothing to wait for but
 * work handed over by the main thread (EVLOOP_NO_EXIT_ON_EMPTY). The main
 * thread activates job 1's event from its own thread (event_active: "make
 * an event active", event.h; the base wakes its loop), and GAP ms later
 * (the argument: "050" or "300") job 2's; each job takes 100 ms on the
 * loop thread, and job 2's callback stops the loop (event_base_loopbreak
 * from the loop's own thread). The main thread joins the loop thread.
 * Exit 0 when both jobs were handled; a run that does not end is ended by
 * the case's timeout. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <event2/event.h>
#include <event2/thread.h>

static struct event_base *base;
static int handled;

static void on_job(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    usleep(100000); /* a job takes 100 ms */
    handled++;
    printf("job %d handled\n", (int)(long)arg);
    if ((long)arg == 2)
        event_base_loopbreak(base);
}

static void *run_loop(void *arg)
{
    (void)arg;
    event_base_loop(base, EVLOOP_NO_EXIT_ON_EMPTY);
    return NULL;
}

int main(int argc, char **argv)
{
    struct event *job1, *job2;
    pthread_t loop;
    int gap = argc > 1 ? atoi(argv[1]) : 300;
    evthread_use_pthreads();
    base = event_base_new();
    if (base == NULL) { fprintf(stderr, "event_base_new failed\n"); return 2; }
    job1 = event_new(base, -1, 0, on_job, (void *)1L);
    job2 = event_new(base, -1, 0, on_job, (void *)2L);
    pthread_create(&loop, NULL, run_loop, NULL);
    usleep(50000); /* the loop thread waits for work */
    event_active(job1, EV_TIMEOUT, 1);
    usleep(gap * 1000); /* job 2 is ready GAP ms later */
    event_active(job2, EV_TIMEOUT, 1);
    pthread_join(loop, NULL);
    event_free(job1);
    event_free(job2);
    event_base_free(base);
    printf("both jobs handled (%d)\n", handled);
    return 0;
}
