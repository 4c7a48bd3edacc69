/*
 * rel_scale.c - reliability check (e): scale. Usage:
 *   rel_scale threads T N   T threads (at once) each call leaf() N times
 *   rel_scale short N       N short-lived threads, one leaf() call each
 *                           (at most 64 alive at a time)
 *   rel_scale deep D        one recursion D calls deep
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile unsigned sink;
static long per_thread;

__attribute__((noinline)) void leaf(long i) { sink += (unsigned)i; }

__attribute__((noinline)) void recurse(long d)
{
    if (d > 1)
        recurse(d - 1);
    sink++;
}

static void *worker(void *arg)
{
    (void)arg;
    for (long i = 0; i < per_thread; i++)
        leaf(i);
    return NULL;
}

static int spawn(long t)
{
    pthread_t *th = calloc((size_t)t, sizeof *th);
    pthread_attr_t a;
    pthread_attr_init(&a);
    pthread_attr_setstacksize(&a, 256 << 10);
    if (!th)
        return 1;
    long made = 0;
    for (; made < t; made++)
        if (pthread_create(&th[made], &a, worker, NULL) != 0)
            break;
    for (long i = 0; i < made; i++)
        pthread_join(th[i], NULL);
    free(th);
    printf("threads %ld\n", made);
    return made == t ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    long a = atol(argv[2]);
    if (strcmp(argv[1], "threads") == 0 && argc > 3) {
        per_thread = atol(argv[3]);
        return spawn(a);
    }
    if (strcmp(argv[1], "short") == 0) {
        per_thread = 1;
        for (long done = 0; done < a; done += 64)
            if (spawn(a - done < 64 ? a - done : 64) != 0)
                return 1;
        return 0;
    }
    if (strcmp(argv[1], "deep") == 0) {
        recurse(a);
        return 0;
    }
    return 2;
}
