/* c-blosc-inittwice: an archiver that detaches into the background. At
 * start it sets Blosc up (blosc_init, 2 compression threads) and compresses
 * its warm-up snapshot; then it loads its codec plugin, whose registration
 * calls blosc_init as well (each module initialises the libraries it uses,
 * as Blosc's docs ask), and archives 6 chunks. Before it forks into the
 * background it releases Blosc (blosc_destroy) and checks that it is down
 * to its own thread: fork() keeps only the calling thread. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "blosc.h"

#define CHUNK (2 * 1024 * 1024)

static uint32_t chunk[CHUNK / sizeof(uint32_t)];
static unsigned char out[CHUNK + BLOSC_MAX_OVERHEAD];

static void fill_chunk(int i)
{
    for (size_t j = 0; j < CHUNK / sizeof(uint32_t); j++)
        chunk[j] = (uint32_t)(i * 100000 + (int)(j / 64));
}

static int archive_chunk(int i, FILE *f)
{
    fill_chunk(i);
    int c = blosc_compress(5, BLOSC_SHUFFLE, sizeof(uint32_t), CHUNK, chunk,
                           out, sizeof out);
    if (c <= 0)
        return -1;
    fwrite(out, 1, (size_t)c, f);
    return c;
}

/* the codec plugin's registration */
static void plugin_register(void)
{
    blosc_init();
    blosc_set_compressor("zlib");
}

/* the threads of this process, from /proc/self/status */
static int thread_count(void)
{
    char line[128];
    int n = -1;
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, "Threads:", 8) == 0)
            n = atoi(line + 8);
    fclose(f);
    return n;
}

int main(void)
{
    FILE *f = fopen("archive.blo", "wb");
    if (!f)
        return 2;
    blosc_init();
    blosc_set_nthreads(2);
    blosc_set_compressor("zlib");
    if (archive_chunk(0, f) < 0) /* the warm-up snapshot */
        return 2;
    plugin_register();
    for (int i = 1; i <= 6; i++)
        if (archive_chunk(i, f) < 0)
            return 2;
    fclose(f);
    blosc_destroy();
    int n = thread_count();
    if (n != 1) {
        fprintf(stderr, "archiver: %d threads left after blosc_destroy, not detaching\n", n);
        return 1;
    }
    puts("archiver: detached");
    return 0;
}
