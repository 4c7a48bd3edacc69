/*
 * test_format_hostile.c - the reader against hostile sizes (issue 37 item
 * 7): a 4 GiB sparse file holding 8 KiB of data, and a chunk whose thread
 * index is 2^20 - 1, cost work and memory by the data present (chunks that
 * hold records, threads that have them), not by the sizes the file claims;
 * a thread index that leaves a small gap still reads, its missing threads
 * without times (issue 37 item 9).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "format_util.h"

#define GIB4 (4ull << 30)
#define RSS_MAX_KB (64 * 1024)  /* growth allowed while opening (KiB) */
#define SECONDS_MAX 3.0         /* 8.6 s before, over 30 s under load */

static long maxrss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A trace of one chunk (slot 0) for thread `thread`: ENTER and EXIT of one
 * function, n times; written to path, then (size > its length) grown to
 * size bytes as a hole. */
static void write_sparse(const char *path, uint32_t thread, int n, uint64_t size)
{
    struct tb b;
    tb_init(&b, 4096, 1000000000ull);
    tb_chunk(&b, 0, thread, 0, 1, 0, 1000, 0);
    for (int i = 0; i < n; i++) {
        tb_u8(&b, TTF_T_ENTER_MISS);
        tb_uvar(&b, ttf_zigzag(i ? 0 : 0x401000));
        tb_uvar(&b, 10);
        tb_u8(&b, TTF_T_EXIT_MISS);
        tb_uvar(&b, 0);
        tb_uvar(&b, 10);
    }
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b.buf, 1, b.len, f), b.len);
    assert_int_equal(fclose(f), 0);
    if (size > b.len)
        assert_int_equal(truncate(path, (off_t)size), 0);
    free(b.buf);
}

/* Open path and walk every thread; the time and the peak RSS growth. */
static ttf_trace *open_measured(const char *path, double *secs, long *rss_kb)
{
    ttf_trace *t = NULL;
    ttf_error err;
    long rss0 = maxrss_kb();
    double t0 = now_s();
    int rc = ttf_open(path, &t, &err);
    if (rc)
        fail_msg("%s", err.msg);
    for (size_t i = 0; i < ttf_thread_count(t); i++) {
        struct evs e = tu_events(t, (uint32_t)i, 0);
        free(e.ev);
    }
    *secs = now_s() - t0;
    *rss_kb = maxrss_kb() - rss0;
    return t;
}

static void test_sparse_4g(void **state)
{
    (void)state;
    const char *path = tu_path("sparse.trc");
    double secs;
    long rss;
    write_sparse(path, 0, 50, GIB4);
    ttf_trace *t = open_measured(path, &secs, &rss);
    print_message("4 GiB sparse, 8 KiB of data: %.3f s, peak RSS +%ld KiB\n", secs, rss);
    assert_int_equal(ttf_thread_count(t), 1);
    assert_int_equal(ttf_get_thread(t, 0)->events, 100);
    assert_int_equal(ttf_get_summary(t)->chunks_total, (GIB4 - 4096) / 4096);
    assert_int_equal(ttf_get_summary(t)->chunks_used, 1);
    assert_true(rss < RSS_MAX_KB);
    assert_true(secs < SECONDS_MAX);
    ttf_close(t);
    unlink(path);
}

static void test_thread_index_far(void **state)
{
    (void)state;
    const char *path = tu_path("far.trc");
    double secs;
    long rss;
    write_sparse(path, (1u << 20) - 1, 5, GIB4);
    ttf_trace *t = open_measured(path, &secs, &rss);
    print_message("chunk of thread 2^20-1: %zu threads, %.3f s, peak RSS +%ld KiB\n",
                  ttf_thread_count(t), secs, rss);
    /* no million phantom threads: the index is beyond what the file holds */
    assert_true(ttf_thread_count(t) <= 2048);
    assert_true(tu_has_notice(t, "thread index 1048575 out of range"));
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 1);
    assert_true(rss < RSS_MAX_KB);
    assert_true(secs < SECONDS_MAX);
    ttf_close(t);
    unlink(path);
}

/* Thread 5 has the only chunk: threads 0-4 never got one. They are listed
 * (indexes are creation order) with no times: start and end 0, not the
 * distance from time 0 to tick 0. */
static void test_threads_without_chunks(void **state)
{
    (void)state;
    struct tb b;
    tb_init(&b, 4096, 1000000000ull);
    tb_chunk(&b, 0, 5, 0, 1, 0, 5000000000000ull, 0);
    tb_u8(&b, TTF_T_ENTER_MISS);
    tb_uvar(&b, ttf_zigzag(0x401000));
    tb_uvar(&b, 10);
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    assert_int_equal(ttf_thread_count(t), 6);
    for (uint32_t i = 0; i < 5; i++) {
        const ttf_thread *th = ttf_get_thread(t, i);
        assert_int_equal(th->chunks, 0);
        assert_int_equal(th->events, 0);
        assert_int_equal(th->start_ns, 0);
        assert_int_equal(th->end_ns, 0);
    }
    assert_int_equal(ttf_get_thread(t, 5)->events, 1);
    assert_int_equal(ttf_get_thread(t, 5)->start_ns, 10);
    ttf_close(t);
    free(b.buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sparse_4g),
        cmocka_unit_test(test_thread_index_far),
        cmocka_unit_test(test_threads_without_chunks),
    };
    return cmocka_run_group_tests(tests, NULL, tu_teardown_all);
}
