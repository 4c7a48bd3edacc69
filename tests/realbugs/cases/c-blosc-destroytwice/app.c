/* c-blosc-destroytwice: a backup agent. Its backup thread opens the codec
 * (blosc_init, 2 compression threads), compresses a data set's 8 chunks (2 MiB)
 * into backup.blo and closes the codec when done (blosc_destroy). The main
 * thread waits for it, writes the index, and at shutdown releases the
 * libraries it may have used: blosc_destroy again, as Blosc's docs ask of
 * a program that is done with it. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blosc.h"

#define NCHUNKS 8
#define CHUNK (2 * 1024 * 1024)

struct backup {
    const char *path;
    uint32_t sizes[NCHUNKS];
    int done;
};

static void codec_open(void)
{
    blosc_init();
    blosc_set_nthreads(2);
    blosc_set_compressor("zlib");
}

static void codec_close(void)
{
    blosc_destroy();
}

/* chunk i of the data set: counters that grow slowly */
static void fill_chunk(int i, uint32_t *c)
{
    for (size_t j = 0; j < CHUNK / sizeof *c; j++)
        c[j] = (uint32_t)(i * 100000 + (int)(j / 64));
}

static void *backup_thread(void *arg)
{
    struct backup *b = arg;
    static uint32_t chunk[CHUNK / sizeof(uint32_t)];
    static unsigned char out[CHUNK + BLOSC_MAX_OVERHEAD];
    FILE *f = fopen(b->path, "wb");
    if (!f)
        return NULL;
    codec_open();
    for (int i = 0; i < NCHUNKS; i++) {
        fill_chunk(i, chunk);
        int c = blosc_compress(5, BLOSC_SHUFFLE, sizeof(uint32_t), CHUNK,
                               chunk, out, sizeof out);
        if (c <= 0)
            break;
        fwrite(out, 1, (size_t)c, f);
        b->sizes[i] = (uint32_t)c;
        b->done++;
    }
    codec_close();
    fclose(f);
    return NULL;
}

static int write_index(const struct backup *b)
{
    FILE *f = fopen("backup.idx", "w");
    uint64_t total = 0;
    if (!f)
        return -1;
    for (int i = 0; i < b->done; i++) {
        total += b->sizes[i];
        fprintf(f, "%d %u\n", i, b->sizes[i]);
    }
    fclose(f);
    printf("backup: %d chunks, %llu bytes\n", b->done, (unsigned long long)total);
    return b->done == NCHUNKS ? 0 : -1;
}

/* the agent is done with its libraries */
static void agent_shutdown(void)
{
    blosc_destroy();
}

int main(void)
{
    struct backup b = {"backup.blo", {0}, 0};
    pthread_t t;
    if (pthread_create(&t, NULL, backup_thread, &b) != 0)
        return 1;
    pthread_join(t, NULL);
    int rc = write_index(&b);
    agent_shutdown();
    puts("agent stopped");
    return rc == 0 ? 0 : 1;
}
