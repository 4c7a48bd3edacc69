/*
 * cap_lock.c - cost of a pthread mutex lock/unlock pair: untraced, traced
 * with libttcap's SYNC_OP records off (TTCAP_SYNC=0) and on. Built plain
 * and against libttcap (bench_threads.sh). Prints the thread CPU ns per
 * lock+unlock pair (CPU time: the machine is shared, wall time inflates).
 * usage: cap_lock N
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static volatile long counter;

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 1000000;
    struct timespec a, b;

    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
    for (long i = 0; i < n; i++) {
        pthread_mutex_lock(&m);
        counter++;
        pthread_mutex_unlock(&m);
    }
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
    double ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
    printf("%.2f\n", ns / (double)n);
    return 0;
}
