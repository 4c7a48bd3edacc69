/* app.c - the libzstd-pooldrain case's application (benchmark code): uses
 * zstd's thread pool (lib/common/pool.c: the pool ZSTDMT's compression
 * jobs and the dictionary builder run on) with one worker and a queue of
 * four, queues four checksum jobs, waits until the first has started and
 * frees the pool while it runs. pool.c's contract (POOL_thread's comment:
 * on shutdown "enough threads will remain active to finish the queue")
 * is that every queued job runs before POOL_free returns. Prints each
 * job's checksum; exit 0 when all four ran, 1 when one did not. */
#include <pthread.h>
#include <semaphore.h>
#include <stdio.h>
#include <unistd.h>
#include "pool.h"

#define NJOBS 4
#define BLOCK 65536

struct job {
    int id;
    int ran;
    unsigned long sum;
};

static struct job jobs[NJOBS];
static sem_t started;

/* the checksum of block ID of a generated stream (Adler-like) */
static unsigned long block_sum(int id)
{
    unsigned long a = 1, b = 0, x = (unsigned long)id * 2654435761u + 1;
    int i;
    for (i = 0; i < BLOCK; i++) {
        x = x * 6364136223846793005ul + 1442695040888963407ul;
        a = (a + (x >> 56)) % 65521;
        b = (b + a) % 65521;
    }
    return b << 16 | a;
}

static void checksum_job(void *opaque)
{
    struct job *j = opaque;
    if (j->id == 0) {
        sem_post(&started);
        usleep(50000); /* the first job is a long one */
    }
    j->sum = block_sum(j->id);
    j->ran = 1;
}

int main(void)
{
    POOL_ctx *pool;
    int i, missing = 0;

    sem_init(&started, 0, 0);
    pool = POOL_create(1, NJOBS);
    if (pool == NULL) { fprintf(stderr, "POOL_create failed\n"); return 2; }
    for (i = 0; i < NJOBS; i++) {
        jobs[i].id = i;
        POOL_add(pool, checksum_job, &jobs[i]);
    }
    sem_wait(&started);
    POOL_free(pool); /* the other three jobs are still queued */
    for (i = 0; i < NJOBS; i++) {
        if (jobs[i].ran)
            printf("block %d: %08lx\n", i, jobs[i].sum);
        else {
            printf("block %d: never ran\n", i);
            missing++;
        }
    }
    return missing ? 1 : 0;
}
