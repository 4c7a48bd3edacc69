/* app.c - the libuv1-asyncrace case's application (benchmark code), the
 * same as libuv1-asyncclear's but for one pause: a producer thread hands
 * two messages to the loop thread through a locked list and a uv_async_t
 * (uv_async_send from the producer, the callback on the loop). The
 * producer puts message 2 in the list GAP ms (the argument: "300" or
 * "000") after the loop took message 1 (a semaphore the callback posts);
 * the callback handles a message in 100 ms. With GAP 300 message 2 is
 * sent after the callback for message 1 has returned; with GAP 0 while it
 * still runs, which uv_async_send allows too ("the callback will be called
 * on the loop thread" after the call; calls may be coalesced, never lost).
 * A 2-second watchdog timer. Exit 0 when both messages were handled, 1
 * when the watchdog fired first. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "uv.h"

#define NMSG 2

static uv_async_t wake;
static uv_timer_t watchdog;
static uv_thread_t producer;
static uv_mutex_t lock;
static uv_sem_t taken;
static int list[NMSG], nlist, handled, stuck, gap_ms;

static void produce(void *arg)
{
    int i;
    (void)arg;
    for (i = 1; i <= NMSG; i++) {
        if (i > 1)
            usleep(gap_ms * 1000); /* the next message is ready GAP ms later */
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

int main(int argc, char **argv)
{
    uv_loop_t *loop = uv_default_loop();
    gap_ms = argc > 1 ? atoi(argv[1]) : 0;
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
