/*
 * gen_threads.c - synthetic traces for the thread-pairing benchmark
 * (bench_threads.sh): EVENTS events in one thread, or in a main thread and
 * two unnamed workers that start in the same function and play two roles
 * (different functions); with "swap" the workers swap roles, as a thread
 * pool's workers do from run to run. Written with libttfmt's writer.
 * With SYNC 1 every 8th call of a role takes and releases a shared mutex
 * inside (SYNC_OP records, as libttcap writes them); EXIT is the exit
 * status recorded (bench_races.sh: a failing run with the same calls).
 * "late" is "same" but for one call of the first worker about LATE_BEFORE
 * events before its end, to a function no run calls elsewhere: a bad run
 * that parts near its end (issue 38 item 4: the work after the split).
 * usage: gen_threads EVENTS THREADS(1|3) same|swap|late OUT.trc [SYNC [EXIT]]
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttfmt.h"

#define MOD_BASE 0x555555400000ull  /* load address of the fake module */
#define MOD_PATH "/nonexistent/tt-bench/pool" /* never resolves: module+off */
#define NS_PER_EVENT 37             /* fake time between events */

static void check(int rc, const char *what)
{
    if (rc >= 0)
        return;
    fprintf(stderr, "gen_threads: %s: %s\n", what, ttf_strerror(rc));
    exit(2);
}

static int sync_ops;    /* SYNC argument */
static int late;        /* 1: "late": thread 1 parts near its end */

#define LATE_BEFORE 1400    /* events before the end of thread 1's role */

static uint64_t fn(unsigned f)
{
    return MOD_BASE + 0x1000 + (uint64_t)f * 0x60;
}

/* n events of role r (functions 10.. for role 0, 60.. for role 1) in thread
 * th: worker_main (function 1) around calls two deep. */
static void role(ttf_writer *w, uint32_t th, int r, uint64_t n, uint64_t *t)
{
    unsigned base = r ? 60 : 10;

    check(ttf_write_enter(w, th, *t += NS_PER_EVENT, fn(1)), "enter");
    for (uint64_t i = 0; i + 6 <= n; i += 4) {
        unsigned a = base + (unsigned)(i * 7 % 40), b = base + (unsigned)((i / 4) % 9);
        if (late && th == 1 && i + LATE_BEFORE < n && i + LATE_BEFORE + 4 >= n)
            a = base + 45;  /* the one call that differs */
        check(ttf_write_enter(w, th, *t += NS_PER_EVENT, fn(a)), "enter");
        check(ttf_write_enter(w, th, *t += NS_PER_EVENT, fn(b)), "enter");
        if (sync_ops && i % 32 == 0) {
            check(ttf_write_sync_op(w, th, *t += NS_PER_EVENT, TTF_SOP_LOCK, 0x7000, 0), "lock");
            check(ttf_write_sync_op(w, th, *t += NS_PER_EVENT, TTF_SOP_UNLOCK, 0x7000, 0),
                  "unlock");
        }
        check(ttf_write_exit(w, th, *t += NS_PER_EVENT, fn(b)), "exit");
        check(ttf_write_exit(w, th, *t += NS_PER_EVENT, fn(a)), "exit");
    }
    check(ttf_write_exit(w, th, *t += NS_PER_EVENT, fn(1)), "exit");
}

int main(int argc, char **argv)
{
    static const uint8_t build_id[20] = {0x7b, 0xe5, 0x1c, 0x0e};
    const char *av[] = {MOD_PATH};
    ttf_writer *w = NULL;
    uint64_t t = 1000;

    if (argc < 5 || argc > 7) {
        fprintf(stderr, "usage: gen_threads EVENTS THREADS(1|3) same|swap|late OUT.trc "
                "[SYNC [EXIT]]\n");
        return 2;
    }
    sync_ops = argc > 5 && atoi(argv[5]);
    int status = argc > 6 ? atoi(argv[6]) : 0;
    uint64_t n = strtoull(argv[1], NULL, 10);
    int threads = atoi(argv[2]), swap = strcmp(argv[3], "swap") == 0;
    late = strcmp(argv[3], "late") == 0;
    check(ttf_writer_open(argv[4], NULL, &w), "open");
    check(ttf_write_process(w, 4242, 1, MOD_PATH, 1, av, ""), "process");
    check(ttf_write_thread_start(w, 0, t, 4242, "pool"), "thread");
    check(ttf_write_module(w, 0, t, MOD_BASE, 0x100000, build_id, sizeof build_id,
                           MOD_PATH), "module");
    if (threads == 1) {
        role(w, 0, 0, n, &t);
    } else {
        check(ttf_write_enter(w, 0, t += NS_PER_EVENT, fn(0)), "enter");
        for (uint32_t k = 1; k <= 2; k++) {
            check(ttf_write_thread_start(w, k, t, 4242 + k, ""), "thread");
            uint64_t t0 = t;
            role(w, k, (int)(k - 1) ^ swap, n / 2, &t0);
            check(ttf_write_thread_end(w, k, t0), "thread end");
        }
        check(ttf_write_exit(w, 0, t += NS_PER_EVENT, fn(0)), "exit");
    }
    check(ttf_write_thread_end(w, 0, t + 1), "thread end");
    check(ttf_writer_close(w, status), "close");
    printf("%s: %llu events requested, %d thread(s)%s\n", argv[4], (unsigned long long)n,
           threads, swap ? ", roles swapped" : late ? ", parts near the end" : "");
    return 0;
}
