/*
 * cap_log.c - cost of one TT_LOG with two integer arguments, for the capture
 * bench. Built twice (capture.mk): with libttcap, and with -DCAP_NO_LOG where
 * the macro only consumes its arguments, giving the cost of the loop itself.
 *
 * usage: cap_log CALLS  ->  "ns_per_call=.. cpu_ns_per_call=.. calls=.. ..."
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "ttcap.h"

#ifdef CAP_NO_LOG
#undef TT_LOG
#define TT_LOG(level, fmt, a, b) __asm__ volatile("" :: "r"(a), "r"(b) : "memory")
#endif

static double now_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    uint64_t calls = argc == 2 ? strtoull(argv[1], NULL, 10) : 0;
    if (calls == 0 || calls > INT32_MAX) {
        fprintf(stderr, "usage: cap_log CALLS (1..2^31-1)\n");
        return 2;
    }
    int n = (int)calls;
    double t0 = now_ns(CLOCK_MONOTONIC), c0 = now_ns(CLOCK_THREAD_CPUTIME_ID);
    for (int i = 0; i < n; i++) {
        int j = i * 3 + 1;
        TT_LOG(TTCAP_INFO, "i=%d j=%d", i, j);
    }
    double cpu = now_ns(CLOCK_THREAD_CPUTIME_ID) - c0;
    double ns = now_ns(CLOCK_MONOTONIC) - t0;
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("ns_per_call=%.3f cpu_ns_per_call=%.3f calls=%d threads=1 "
           "maxrss_kb=%ld\n", ns / (double)n, cpu / (double)n, n, ru.ru_maxrss);
    return 0;
}
