/* app.c - the libzstd-claimrace case's application (benchmark code), the
 * same as libzstd-poolclaim's but for the gap: uses zstd's thread pool
 * (lib/common/pool.c) with two workers and a queue of four: queues a long
 * scan job (50 ms), GAP ms later (the argument, default 10) a short index
 * job, waits for both (POOL_joinJobs) and frees the pool. Each job must
 * run exactly once. Prints what ran; exit 0 when each job ran once, 1
 * otherwise. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "pool.h"

#define BLOCK 65536

static int scans, indexes;
static unsigned long scan_sum, index_sum;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned long mix(unsigned long seed, int n)
{
    unsigned long a = 1, b = 0, x = seed;
    int i;
    for (i = 0; i < n; i++) {
        x = x * 6364136223846793005ul + 1442695040888963407ul;
        a = (a + (x >> 56)) % 65521;
        b = (b + a) % 65521;
    }
    return b << 16 | a;
}

/* the long job: scans a generated block, 50 ms */
static void scan_part(void *opaque)
{
    unsigned long s;
    (void)opaque;
    usleep(50000);
    s = mix(7, BLOCK);
    pthread_mutex_lock(&count_lock);
    scans++;
    scan_sum = s;
    pthread_mutex_unlock(&count_lock);
}

/* the short job: writes the index entry */
static void write_index(void *opaque)
{
    unsigned long s;
    (void)opaque;
    s = mix(11, BLOCK / 16);
    pthread_mutex_lock(&count_lock);
    indexes++;
    index_sum = s;
    pthread_mutex_unlock(&count_lock);
}

int main(int argc, char **argv)
{
    int gap = argc > 1 ? atoi(argv[1]) : 10;
    POOL_ctx *pool = POOL_create(2, 4);
    if (pool == NULL) { fprintf(stderr, "POOL_create failed\n"); return 2; }
    usleep(20000); /* the workers start and wait for jobs */
    POOL_add(pool, scan_part, NULL);
    usleep(gap * 1000); /* the index entry is ready GAP ms later */
    POOL_add(pool, write_index, NULL);
    POOL_joinJobs(pool);
    POOL_free(pool);
    printf("scan_part ran %d time(s) (%08lx), write_index ran %d time(s) (%08lx)\n",
           scans, scan_sum, indexes, index_sum);
    return scans == 1 && indexes == 1 ? 0 : 1;
}
