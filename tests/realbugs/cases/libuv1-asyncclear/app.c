/* app.c - the libuv1-asyncclear case's application (benchmark code): a
 * producer thread hands two messages to the loop thread through a locked
 * list and a uv_async_t (uv_async_send from the producer, the callback on
 * the loop). Flow control: the producer sends the next message only when
 * the loop has taken the previous one off the list (a semaphore the
 * callback posts); the callback then handles what it took, 100 ms a
 * message. So message 2 is sent while the callback is still handling
 * message 1, which uv_async_send allows ("the callback will be called on
 * the loop thread" after the call; calls may be coalesced, never lost).
 * A 2-second watchdog timer. Exit 0 when both messages were handled, 1 when
 * the watchdog fired first. */
#include <stdio.h>
#include <unistd.h>
#include "uv.h"

#define NMSG 2

static uv_async_t wake;
static uv_timer_t watchdog;
static uv_thread_t producer;
static uv_mutex_t lock;
static uv_sem_t taken;
static int list[NMSG], nlist, handled, stuck;

static void produce(void *arg)
{
    int i;
    (void)arg;
    for (i = 1; i <= NMSG; i++) {
        uv_mutex_lock(&lock);
        list[nlist++] = i;
        uv_mutex_unlock(&lock);
        uv_async_send(&wake);
        uv_sem_wait(&taken); /* until the loop took it */
    }
}

static void handle(int msg)
{
    usleep(100000); /* handling a message takes 100 ms */
    printf("message %d handled\n", msg);
    handled++;
}

static void on_wake(uv_async_t *h)
{
    int got[NMSG], n, i;
    (void)h;
    uv_mutex_lock(&lock);
    n = nlist;
    for (i = 0; i < n; i++) got[i] = list[i];
    nlist = 0;
    uv_mutex_unlock(&lock);
    for (i = 0; i < n; i++) uv_sem_post(&taken);
    for (i = 0; i < n; i++) handle(got[i]);
    if (handled == NMSG) {
        uv_close((uv_handle_t *)&wake, NULL);
        uv_close((uv_handle_t *)&watchdog, NULL);
    }
}

static void on_watchdog(uv_timer_t *t)
{
    (void)t;
    printf("watchdog: %d of %d messages handled within 2 s\n", handled, NMSG);
    stuck = 1;
    uv_sem_post(&taken); /* let the producer end */
    uv_close((uv_handle_t *)&wake, NULL);
    uv_close((uv_handle_t *)&watchdog, NULL);
}

int main(void)
{
    uv_loop_t *loop = uv_default_loop();
    uv_mutex_init(&lock);
    uv_sem_init(&taken, 0);
    uv_async_init(loop, &wake, on_wake);
    uv_timer_init(loop, &watchdog);
    uv_timer_start(&watchdog, on_watchdog, 2000, 0);
    uv_thread_create(&producer, produce, NULL);
    uv_run(loop, UV_RUN_DEFAULT);
    uv_thread_join(&producer);
    return stuck;
}
