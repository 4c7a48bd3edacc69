/* app.c - the libzstd-joinrace case's application (benchmark code), the
 * same as libzstd-joinearly's but for a pause: uses zstd's thread pool
 * (lib/common/pool.c) with two workers: queues two checksum jobs (each
 * waits 50 ms for its input first), does other work for PAUSE ms (the
 * argument, default 0), waits for the jobs with POOL_joinJobs ("Waits for
 * all queued jobs to finish executing", pool.h:42-45), then merges the
 * finished blocks' checksums into one and frees the pool. Exit 0 when
 * both blocks were finished when POOL_joinJobs returned, 1 when one was
 * not. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "pool.h"

#define NJOBS 2
#define BLOCK 65536

struct job {
    int id;
    volatile int done;
    unsigned long sum;
};

static struct job jobs[NJOBS];
static unsigned long total;

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
    usleep(50000); /* the block's input arrives after 50 ms */
    j->sum = block_sum(j->id);
    j->done = 1;
}

/* noinline: the merge is a call in the -pg build too (benchmark code) */
__attribute__((noinline)) static void merge_block(const struct job *j)
{
    total = total * 31 + j->sum;
}

/* merges the finished blocks; returns how many were not finished */
__attribute__((noinline)) static int collect(void)
{
    int i, missing = 0;
    for (i = 0; i < NJOBS; i++) {
        if (jobs[i].done)
            merge_block(&jobs[i]);
        else
            missing++;
    }
    return missing;
}

int main(int argc, char **argv)
{
    POOL_ctx *pool;
    int i, missing, pause = argc > 1 ? atoi(argv[1]) : 0;

    pool = POOL_create(NJOBS, NJOBS);
    if (pool == NULL) { fprintf(stderr, "POOL_create failed\n"); return 2; }
    for (i = 0; i < NJOBS; i++) {
        jobs[i].id = i;
        POOL_add(pool, checksum_job, &jobs[i]);
    }
    usleep(pause * 1000); /* other work */
    POOL_joinJobs(pool);
    missing = collect();
    POOL_free(pool);
    if (missing)
        printf("%d of %d blocks not finished when POOL_joinJobs returned\n", missing, NJOBS);
    else
        printf("checksum of %d blocks: %016lx\n", NJOBS, total);
    return missing ? 1 : 0;
}
