/* Two jobs on nng's aio framework (nng 1.5.2): each aio sleeps 20 ms
 * (nng_sleep_aio), then its completion callback, run by one of nng's taskq
 * threads, checksums a block (100 ms of "work" first). The main thread
 * waits for each aio (nng_aio_wait: "wait for the operation and its
 * callback to complete", nng_aio_wait(3)), then merges the checksums.
 *
 *   app [GAP]   GAP: ms of the main thread's own work before it waits (0)
 *
 * Exit 0 with the merged checksum; 1 when a block was not finished when
 * its nng_aio_wait returned. */
#include <nng/nng.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define NBLOCKS 2
#define BLOCK 4096

struct block {
    nng_aio *aio;
    int id;
    unsigned char data[BLOCK];
    uint64_t sum;
    int done;
};

static struct block blocks[NBLOCKS];

/* the completion callback (taskq thread) */
static void checksum_cb(void *arg)
{
    struct block *b = arg;
    uint64_t h = 1469598103934665603ULL;

    usleep(100000);     /* the job's work */
    for (int i = 0; i < BLOCK; i++)
        h = (h ^ b->data[i]) * 1099511628211ULL;
    b->sum = h;
    b->done = 1;
}

static __attribute__((noinline)) uint64_t merge_block(uint64_t acc, const struct block *b)
{
    return acc * 31 + b->sum;
}

/* the main thread's read of the results: the number of blocks not done */
static __attribute__((noinline)) int collect(uint64_t *acc)
{
    int missing = 0;

    *acc = 0;
    for (int i = 0; i < NBLOCKS; i++) {
        if (!blocks[i].done)
            missing++;
        else
            *acc = merge_block(*acc, &blocks[i]);
    }
    return missing;
}

int main(int argc, char **argv)
{
    int gap = argc > 1 ? atoi(argv[1]) : 0;
    uint64_t acc;
    int missing, rv;

    for (int i = 0; i < NBLOCKS; i++) {
        blocks[i].id = i;
        for (int j = 0; j < BLOCK; j++)
            blocks[i].data[j] = (unsigned char)(j * 7 + i * 13);
        if ((rv = nng_aio_alloc(&blocks[i].aio, checksum_cb, &blocks[i])) != 0) {
            fprintf(stderr, "nng_aio_alloc: %s\n", nng_strerror(rv));
            return 2;
        }
    }
    for (int i = 0; i < NBLOCKS; i++)
        nng_sleep_aio(20, blocks[i].aio);
    if (gap > 0)
        usleep(gap * 1000);
    for (int i = 0; i < NBLOCKS; i++)
        nng_aio_wait(blocks[i].aio);
    missing = collect(&acc);
    if (missing)
        printf("%d of %d blocks not finished when nng_aio_wait returned\n", missing, NBLOCKS);
    else
        printf("checksum of %d blocks: %016llx\n", NBLOCKS, (unsigned long long)acc);
    for (int i = 0; i < NBLOCKS; i++)
        nng_aio_free(blocks[i].aio);
    nng_fini();
    return missing ? 1 : 0;
}
