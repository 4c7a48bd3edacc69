/* glib2.0-poolwait / glib2.0-freerace: an application of GLib's thread
 * pool (GThreadPool): a pool of at most 2 threads, two tasks of 100 ms
 * each, and GAP ms later (GAP: argv[1], three digits) the pool freed with
 * wait_ TRUE: g_thread_pool_free returns when every task has run. */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void work(gpointer task, gpointer user_data)
{
    g_usleep(100 * 1000);
    g_atomic_int_add((gint *)user_data, GPOINTER_TO_INT(task));
}

int main(int argc, char **argv)
{
    int gap = argc > 1 ? atoi(argv[1]) : 0;
    gint done = 0;
    GThreadPool *pool = g_thread_pool_new(work, &done, 2, FALSE, NULL);

    g_thread_pool_push(pool, GINT_TO_POINTER(1), NULL);
    g_thread_pool_push(pool, GINT_TO_POINTER(2), NULL);
    if (gap > 0)
        usleep(gap * 1000); /* libc: no call of the traced library */
    g_thread_pool_free(pool, FALSE, TRUE);
    printf("tasks done: %d\n", g_atomic_int_get(&done));
    return g_atomic_int_get(&done) == 3 ? 0 : 1;
}
