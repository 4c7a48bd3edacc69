/*
 * cap_work.c - call-heavy workloads for the capture benchmark. Built several
 * ways from this one source (plain, -finstrument-functions with empty hooks,
 * glibc's stub hooks, libttcap shared and static; see capture.mk), so every
 * variant runs the same machine code apart from the hooks.
 *
 * usage: cap_work leaf|chain|fib CALLS THREADS
 * Each thread makes about CALLS instrumented calls and times its own loop
 * with CLOCK_MONOTONIC and the thread CPU clock (startup, thread creation
 * and exit excluded). Prints one line: ns_per_call and cpu_ns_per_call (mean
 * over threads), calls per thread, threads, peak RSS in KiB (getrusage).
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#if defined(__clang__)
#define WORK __attribute__((noinline))
#else
#define WORK __attribute__((noinline, noclone))
#endif
#define DRIVER __attribute__((no_instrument_function))

/* An empty asm keeps the compiler from dropping, merging or tail-calling the
 * calls below: each one is a real call and a real return in every build. */
#define KEEP() __asm__ volatile("" ::: "memory")

#define FIB_N 24                /* one fib(24) = 150049 calls */

/* One thread's share of the run. */
struct job {
    int kind;                   /* 0 leaf, 1 chain, 2 fib */
    uint64_t calls;             /* calls asked for */
    uint64_t done;              /* calls made */
    double ns;                  /* loop time (CLOCK_MONOTONIC) */
    double cpu;                 /* loop time on the CPU (thread CPU clock) */
    pthread_barrier_t *start;   /* all threads start together (NULL: one) */
};

void leaf(void);
void chain_a(void);
void chain_b(void);
void chain_c(void);
int fib(int n);

WORK void leaf(void)
{
    KEEP();
}

WORK void chain_c(void)
{
    KEEP();
}

WORK void chain_b(void)
{
    chain_c();
    KEEP();
}

WORK void chain_a(void)
{
    chain_b();
    KEEP();
}

WORK int fib(int n)
{
    if (n < 2)
        return n;
    int a = fib(n - 1);
    KEEP();
    int b = fib(n - 2);
    KEEP();
    return a + b;
}

DRIVER static uint64_t fib_calls(int n)
{
    uint64_t x = 0, y = 1;      /* F(0), F(1) */
    for (int i = 0; i <= n; i++) {
        uint64_t z = x + y;
        x = y;
        y = z;
    }
    return 2 * x - 1;           /* calls of fib(n) = 2 F(n+1) - 1 */
}

DRIVER static double now_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

DRIVER static uint64_t run_loop(int kind, uint64_t calls)
{
    volatile int sink = 0;
    if (kind == 0) {
        for (uint64_t i = 0; i < calls; i++)
            leaf();
        return calls;
    }
    if (kind == 1) {
        uint64_t n = calls / 3;
        for (uint64_t i = 0; i < n; i++)
            chain_a();
        return 3 * n;
    }
    uint64_t per = fib_calls(FIB_N), reps = (calls + per - 1) / per;
    for (uint64_t i = 0; i < reps; i++)
        sink += fib(FIB_N);
    return sink >= 0 ? reps * per : 0;  /* sink read back: the sum is used */
}

DRIVER static void *worker(void *arg)
{
    struct job *j = arg;
    if (j->start)
        pthread_barrier_wait(j->start);
    double t0 = now_ns(CLOCK_MONOTONIC), c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
    j->done = run_loop(j->kind, j->calls);
    j->cpu = now_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
    j->ns = now_ns(CLOCK_MONOTONIC) - t0;
    return NULL;
}

DRIVER int main(int argc, char **argv)
{
    static const char *kinds[] = { "leaf", "chain", "fib" };
    int kind = -1;
    for (int i = 0; argc == 4 && i < 3; i++)
        if (strcmp(argv[1], kinds[i]) == 0)
            kind = i;
    long threads = argc == 4 ? strtol(argv[3], NULL, 10) : 0;
    uint64_t calls = argc == 4 ? strtoull(argv[2], NULL, 10) : 0;
    if (kind < 0 || threads < 1 || threads > 64 || calls == 0) {
        fprintf(stderr, "usage: cap_work leaf|chain|fib CALLS THREADS(1-64)\n");
        return 2;
    }
    struct job jobs[64];
    pthread_t tids[64];
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, (unsigned)threads);
    for (long i = 0; i < threads; i++)
        jobs[i] = (struct job){ kind, calls, 0, 0, 0, threads > 1 ? &start : NULL };
    if (threads == 1)
        worker(&jobs[0]);
    for (long i = 0; threads > 1 && i < threads; i++)
        if (pthread_create(&tids[i], NULL, worker, &jobs[i]) != 0) {
            fprintf(stderr, "cap_work: pthread_create failed\n");
            return 1;
        }
    for (long i = 0; threads > 1 && i < threads; i++)
        pthread_join(tids[i], NULL);
    double sum = 0, cpu = 0;
    for (long i = 0; i < threads; i++) {
        sum += jobs[i].ns / (double)jobs[i].done;
        cpu += jobs[i].cpu / (double)jobs[i].done;
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("ns_per_call=%.3f cpu_ns_per_call=%.3f calls=%llu threads=%ld "
           "maxrss_kb=%ld\n", sum / (double)threads, cpu / (double)threads,
           (unsigned long long)jobs[0].done, threads, ru.ru_maxrss);
    return 0;
}
