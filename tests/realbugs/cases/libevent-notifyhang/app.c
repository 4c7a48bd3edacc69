/* app.c - the libevent-notifyhang case's application (benchmark code): a
 * loop thread runs an event_base (libevent with pthreads, so other threads
 * may use the base: evthread_use_pthreads) with nothing to wait for but
 * work handed over by the main thread (EVLOOP_NO_EXIT_ON_EMPTY); the main
 * thread hands it two jobs, one after the other, by activating the job's
 * event from its own thread (event_active: "make an event active",
 * event.h; the base wakes its loop), waits until the loop thread reports
 * the job handled, then stops the loop (event_base_loopbreak) and joins
 * it. Exit 0 when both jobs were handled; a run that does not end is ended
 * by the case's timeout. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include <event2/event.h>
#include <event2/thread.h>

static struct event_base *base;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int handled;

static void on_job(evutil_socket_t fd, short what, void *arg)
{
    (void)fd;
    (void)what;
    pthread_mutex_lock(&lock);
    handled++;
    printf("job %d handled\n", (int)(long)arg);
    pthread_cond_signal(&cond);
    pthread_mutex_unlock(&lock);
}

static void *run_loop(void *arg)
{
    (void)arg;
    event_base_loop(base, EVLOOP_NO_EXIT_ON_EMPTY);
    return NULL;
}

/* wait until N jobs were handled */
static void wait_handled(int n)
{
    pthread_mutex_lock(&lock);
    while (handled < n)
        pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
}

int main(void)
{
    struct event *job1, *job2;
    pthread_t loop;
    evthread_use_pthreads();
    base = event_base_new();
    if (base == NULL) { fprintf(stderr, "event_base_new failed\n"); return 2; }
    job1 = event_new(base, -1, 0, on_job, (void *)1L);
    job2 = event_new(base, -1, 0, on_job, (void *)2L);
    pthread_create(&loop, NULL, run_loop, NULL);
    usleep(50000); /* the loop thread waits for work */
    event_active(job1, EV_TIMEOUT, 1);
    wait_handled(1);
    usleep(50000); /* the next job is ready 50 ms later */
    event_active(job2, EV_TIMEOUT, 1);
    wait_handled(2);
    event_base_loopbreak(base);
    pthread_join(loop, NULL);
    event_free(job1);
    event_free(job2);
    event_base_free(base);
    printf("both jobs handled\n");
    return 0;
}
