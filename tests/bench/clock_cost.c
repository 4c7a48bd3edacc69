/*
 * clock_cost.c - the floor of the capture bench on the machine it runs on:
 * the cost of one clock read (rdtsc, what libttcap's hooks read; the
 * CLOCK_MONOTONIC fallback elsewhere) in a loop that uses every value, as
 * a hook does. Prints "clock_ns=.. cpu_clock_ns=.. reads=..": wall and
 * thread CPU ns per read, median of 5 runs of N reads.
 *
 * usage: clock_cost [N]   (default 20000000)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
static inline uint64_t read_clock(void)
{
    return __rdtsc();
}
#else
static inline uint64_t read_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
#endif

static double now(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 20000000L;
    if (n < 1000) {
        fprintf(stderr, "clock_cost: N must be at least 1000\n");
        return 2;
    }
    double wall[5], cpu[5];
    volatile uint64_t sink = 0;
    for (int r = 0; r < 5; r++) {
        uint64_t acc = 0, prev = 0;
        double w0 = now(CLOCK_MONOTONIC), c0 = now(CLOCK_THREAD_CPUTIME_ID);
        for (long i = 0; i < n; i++) {
            uint64_t t = read_clock();
            acc += t - prev;    /* a delta, as a record stores */
            prev = t;
        }
        wall[r] = (now(CLOCK_MONOTONIC) - w0) / (double)n;
        cpu[r] = (now(CLOCK_THREAD_CPUTIME_ID) - c0) / (double)n;
        sink += acc;
    }
    qsort(wall, 5, sizeof wall[0], cmp);
    qsort(cpu, 5, sizeof cpu[0], cmp);
    printf("clock_ns=%.2f cpu_clock_ns=%.2f reads=%ld\n", wall[2], cpu[2], n);
    return sink == 42;
}
