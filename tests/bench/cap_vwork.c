/*
 * cap_vwork.c - the values-mode benchmark workload (bench_values.sh): calls
 * that take one argument and return a value, built several ways from this
 * one source (plain, -finstrument-functions with empty hooks and with
 * libttcap, -pg -mfentry with an empty __fentry__, with libttcap's values
 * mode, and bare for uftrace; see values.mk).
 *
 * usage: cap_vwork leaf|chain|strs CALLS
 * leaf: CALLS calls of leaf(i); chain: CALLS/3 calls of chain_a(i), which
 * calls chain_b, which calls chain_c; strs: CALLS calls of sleaf(word, i),
 * the word one of four (a short one, one of 40 bytes: recorded cut), for
 * values mode's strings by content (cap_vwork.vstr, its string table added
 * as ttcc --values adds it). Prints ns_per_call, cpu_ns_per_call and
 * calls, timing the loop alone.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__clang__)
#define WORK __attribute__((noinline))
#else
#define WORK __attribute__((noinline, noclone))
#endif
#define DRIVER __attribute__((no_instrument_function))
#define KEEP() __asm__ volatile("" ::: "memory")

long leaf(long x);
long chain_a(long x);
long chain_b(long x);
long chain_c(long x);
long sleaf(const char *w, long x);

WORK long leaf(long x)
{
    KEEP();
    return x & 7;
}

WORK long chain_c(long x)
{
    KEEP();
    return x & 3;
}

WORK long chain_b(long x)
{
    long r = chain_c(x + 1);
    KEEP();
    return r + 1;
}

WORK long chain_a(long x)
{
    long r = chain_b(x + 1);
    KEEP();
    return r + 1;
}

WORK long sleaf(const char *w, long x)
{
    KEEP();
    return (w[0] + x) & 7;
}

DRIVER static double now_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

DRIVER int main(int argc, char **argv)
{
    static const char *const words[4] = {"alpha", "be",
                                         "a word of forty bytes, cut when recorded", "x"};
    int chain = argc == 3 && strcmp(argv[1], "chain") == 0;
    int strs = argc == 3 && strcmp(argv[1], "strs") == 0;
    uint64_t calls = argc == 3 ? strtoull(argv[2], NULL, 10) : 0;
    if (calls == 0 || (!chain && !strs && strcmp(argv[1], "leaf") != 0)) {
        fprintf(stderr, "usage: cap_vwork leaf|chain|strs CALLS\n");
        return 2;
    }
    volatile long sink = 0;
    long s = 0;
    double t0 = now_ns(CLOCK_MONOTONIC), c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
    if (strs) {
        for (uint64_t i = 0; i < calls; i++)
            s += sleaf(words[i & 3], (long)i);
    } else if (chain) {
        calls = calls / 3 * 3;
        for (uint64_t i = 0; i < calls / 3; i++)
            s += chain_a((long)i);
    } else {
        for (uint64_t i = 0; i < calls; i++)
            s += leaf((long)i);
    }
    double cpu = now_ns(CLOCK_THREAD_CPUTIME_ID) - c0, ns = now_ns(CLOCK_MONOTONIC) - t0;
    sink = s;
    printf("ns_per_call=%.3f cpu_ns_per_call=%.3f calls=%llu sum=%ld\n", ns / (double)calls,
           cpu / (double)calls, (unsigned long long)calls, (long)sink);
    return 0;
}
