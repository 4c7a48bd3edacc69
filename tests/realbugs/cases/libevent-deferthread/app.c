/* app.c - the libevent-deferthread case's application (benchmark code): a
 * job queue is an evbuffer (locked: evbuffer_enable_locking) whose
 * callbacks are deferred to an event_base (evbuffer_defer_callbacks:
 * "they are run from the event loop", buffer.h), run by a loop thread
 * (libevent with pthreads, EVLOOP_NO_EXIT_ON_EMPTY). The main thread adds
 * a job line to the queue; the queue's callback (on_queue_changed) must
 * run in the loop thread, which owns the jobs, and hands the answer back
 * (a mutex and condition variable). The main thread then stops the loop
 * (event_base_loopbreak) and joins it. Exit 0 when the callback ran in the
 * loop thread; 1 when it ran in another thread. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <event2/thread.h>

static struct event_base *base;
static pthread_t loop_thread;
static pthread_mutex_t step_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t step_cond = PTHREAD_COND_INITIALIZER;
static int done;
static int status;

static void take_jobs(struct evbuffer *queue)
{
    printf("loop thread: %zu bytes of jobs queued\n", evbuffer_get_length(queue));
}

static void wrong_thread(void)
{
    printf("queue callback ran outside the loop thread\n");
    status = 1;
}

static void on_queue_changed(struct evbuffer *queue, const struct evbuffer_cb_info *info, void *arg)
{
    (void)arg;
    if (info->n_added == 0)
        return;
    if (pthread_equal(pthread_self(), loop_thread))
        take_jobs(queue);
    else
        wrong_thread();
    pthread_mutex_lock(&step_lock);
    done = 1;
    pthread_cond_broadcast(&step_cond);
    pthread_mutex_unlock(&step_lock);
}

static void *run_loop(void *arg)
{
    (void)arg;
    event_base_loop(base, EVLOOP_NO_EXIT_ON_EMPTY);
    return NULL;
}

int main(void)
{
    struct evbuffer *queue;
    evthread_use_pthreads();
    base = event_base_new();
    if (base == NULL) { fprintf(stderr, "event_base_new failed\n"); return 2; }
    queue = evbuffer_new();
    evbuffer_enable_locking(queue, NULL);
    evbuffer_defer_callbacks(queue, base);
    evbuffer_add_cb(queue, on_queue_changed, NULL);
    pthread_create(&loop_thread, NULL, run_loop, NULL);
    usleep(50000);          /* the loop thread waits for work */
    evbuffer_add(queue, "resize 7\n", 9);
    pthread_mutex_lock(&step_lock);
    while (!done)
        pthread_cond_wait(&step_cond, &step_lock);
    pthread_mutex_unlock(&step_lock);
    event_base_loopbreak(base);
    pthread_join(loop_thread, NULL);
    evbuffer_free(queue);
    event_base_free(base);
    return status;
}
