/* app.c - the libevent-delnowait / libevent-delrace cases' application
 * (benchmark code): a loop thread runs an event_base (libevent with
 * pthreads: evthread_use_pthreads) with nothing to wait for but work
 * handed over by the main thread (EVLOOP_NO_EXIT_ON_EMPTY). The main
 * thread activates a job's event from its own thread (event_active), and
 * once the job's callback has started (a mutex and condition variable)
 * and GAP ms have passed (the argument: "050" or "300"), cancels the job
 * with event_del and retires the job's record (poisons it: back to a
 * pool). event.h: "If the event's callback is running in another thread,
 * event_del() blocks until it has finished" (event_del, not EV_FINALIZE),
 * so after event_del the record is the main thread's again. The job's
 * callback works 200 ms with the record, then stores its result in it.
 * The callback then stops the loop (event_base_loopbreak from the loop
 * thread itself), and the main thread joins the loop thread. Exit 0 when the job finished with a live record; 1 when the record
 * was retired under the running callback. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <event2/event.h>
#include <event2/thread.h>

struct job {
    int id;
    int alive;              /* 0: retired */
    char result[32];
};

static struct event_base *base;
static pthread_mutex_t step_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t step_cond = PTHREAD_COND_INITIALIZER;
static int started;
static int status;

static void store_result(struct job *j)
{
    snprintf(j->result, sizeof j->result, "job %d: 42", j->id);
    printf("%s\n", j->result);
}

static void job_gone(struct job *j)
{
    printf("job %d: its record was retired while the callback ran\n", j->id);
    status = 1;
}

static void on_job(evutil_socket_t fd, short what, void *arg)
{
    struct job *j = arg;
    (void)fd;
    (void)what;
    pthread_mutex_lock(&step_lock);
    started = 1;
    pthread_cond_broadcast(&step_cond);
    pthread_mutex_unlock(&step_lock);
    usleep(200000);         /* the job's work: 200 ms */
    if (j->alive)
        store_result(j);
    else
        job_gone(j);
    event_base_loopbreak(base);     /* one job: the loop is done */
}

static void *run_loop(void *arg)
{
    (void)arg;
    event_base_loop(base, EVLOOP_NO_EXIT_ON_EMPTY);
    return NULL;
}

static void retire_job(struct job *j)
{
    j->alive = 0;           /* poisoned: back to the pool */
    j->id = -1;
}

int main(int argc, char **argv)
{
    static struct job job = { 7, 1, "" };
    struct event *ev;
    pthread_t loop;
    int gap = argc > 1 ? atoi(argv[1]) : 50;
    evthread_use_pthreads();
    base = event_base_new();
    if (base == NULL) { fprintf(stderr, "event_base_new failed\n"); return 2; }
    ev = event_new(base, -1, 0, on_job, &job);
    pthread_create(&loop, NULL, run_loop, NULL);
    usleep(50000);          /* the loop thread waits for work */
    event_active(ev, EV_TIMEOUT, 1);
    pthread_mutex_lock(&step_lock);
    while (!started)
        pthread_cond_wait(&step_cond, &step_lock);
    pthread_mutex_unlock(&step_lock);
    usleep(gap * 1000);     /* the cancel comes GAP ms after the start */
    event_del(ev);          /* blocks while on_job runs in the loop thread */
    retire_job(&job);
    pthread_join(loop, NULL);
    event_free(ev);
    event_base_free(base);
    return status;
}
