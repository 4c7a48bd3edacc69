/* app.c - the libzstd-joinhang case's application (benchmark code): uses
 * zstd's thread pool (lib/common/pool.c) with two workers and a queue of
 * four: queues two checksum jobs (50 ms each), GAP ms later (the
 * argument: "200" or "000") waits for both with POOL_joinJobs ("Waits for
 * all queued jobs to finish executing", pool.h), frees the pool and prints
 * the two checksums. Exit 0 when both jobs ran; a run that does not end
 * is ended by the case's timeout. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "pool.h"

#define BLOCK 65536

struct job { unsigned long seed, sum; int done; };

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

/* a job: 50 ms of waiting for its block, then its checksum */
static void checksum_job(void *opaque)
{
    struct job *j = opaque;
    usleep(50000);
    j->sum = mix(j->seed, BLOCK);
    j->done = 1;
}

int main(int argc, char **argv)
{
    static struct job jobs[2] = { { 7, 0, 0 }, { 11, 0, 0 } };
    int gap = argc > 1 ? atoi(argv[1]) : 0;
    POOL_ctx *pool = POOL_create(2, 4);
    if (pool == NULL) { fprintf(stderr, "POOL_create failed\n"); return 2; }
    usleep(20000); /* the workers start and wait for jobs */
    POOL_add(pool, checksum_job, &jobs[0]);
    POOL_add(pool, checksum_job, &jobs[1]);
    usleep(gap * 1000); /* other work for GAP ms */
    POOL_joinJobs(pool);
    POOL_free(pool);
    printf("job 1: %08lx (%s), job 2: %08lx (%s)\n", jobs[0].sum, jobs[0].done ? "done" : "not done",
           jobs[1].sum, jobs[1].done ? "done" : "not done");
    return jobs[0].done && jobs[1].done ? 0 : 1;
}
