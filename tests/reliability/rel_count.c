/*
 * rel_count.c - reliability check (b): exact accounting. T threads each
 * call work() in a loop; work() bumps the thread's counter in a shared
 * file mapping (MAP_SHARED, so the count survives SIGKILL), which is the
 * truth the trace is checked against: each thread's recorded ENTERs of
 * work() must equal its counter, or exceed it by the one call in flight;
 * its EXITs may lack only that call. Thread i is trace thread i + 1.
 * Usage: rel_count COUNTFILE THREADS [segv|abort AFTER_CALLS]
 * Runs until killed, or dies by SIGSEGV / abort() in thread 0 after
 * AFTER_CALLS calls of its own.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAXT 256

static volatile uint64_t *count;  /* the shared counters, one per thread */
static long die_after;            /* thread 0 dies after this many calls (0 = never) */
static int die_how;               /* 1 SIGSEGV, 2 abort() */
static atomic_int ready;          /* threads started */

__attribute__((noinline)) void work(int i)
{
    count[i] = count[i] + 1;
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void die(void)
{
    if (die_how == 2)
        abort();
    *(volatile int *)(uintptr_t)16 = 1;
}

static void *run(void *arg)
{
    int i = (int)(intptr_t)arg;
    atomic_fetch_add(&ready, 1);
    for (long n = 1;; n++) {
        work(i);
        if (i == 0 && die_after && n == die_after)
            die();
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int t = atoi(argv[2]);
    if (t < 1 || t > MAXT)
        return 2;
    if (argc > 4) {
        die_how = strcmp(argv[3], "abort") == 0 ? 2 : 1;
        die_after = atol(argv[4]);
    }
    int fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 || ftruncate(fd, MAXT * 8) != 0)
        return 2;
    count = mmap(NULL, MAXT * 8, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (count == MAP_FAILED)
        return 2;
    pthread_t th[MAXT];
    for (int i = 0; i < t; i++)
        pthread_create(&th[i], NULL, run, (void *)(intptr_t)i);
    while (atomic_load(&ready) < t)
        usleep(100);
    printf("ready\n");
    fflush(stdout);
    for (int i = 0; i < t; i++)
        pthread_join(th[i], NULL);
    return 0;
}
