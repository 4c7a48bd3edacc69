/* app.c - the libuv1-timerorder case's application (benchmark code):
 * starts three one-shot timers with the same 10 ms timeout, in the order
 * first, second, third (libuv runs timers that are due at the same time
 * in the order they were started), and checks that their callbacks run
 * in that order. Exit 0 when they do, 1 when not. */
#include <stdio.h>
#include "uv.h"

static uv_timer_t t[3];
static int next, wrong;

__attribute__((noinline)) static void step(int i)
{
    printf("timer %d\n", i);
    if (i != next) wrong = 1;
    next++;
}

static void on_first(uv_timer_t *h) { (void)h; step(0); }
static void on_second(uv_timer_t *h) { (void)h; step(1); }
static void on_third(uv_timer_t *h) { (void)h; step(2); }

int main(void)
{
    uv_loop_t *loop = uv_default_loop();
    uv_timer_cb cb[3] = { on_first, on_second, on_third };
    int i;
    for (i = 0; i < 3; i++) {
        uv_timer_init(loop, &t[i]);
        uv_timer_start(&t[i], cb[i], 10, 0);
    }
    uv_run(loop, UV_RUN_DEFAULT);
    if (wrong) printf("timers ran out of order\n");
    return wrong;
}
