/*
 * test_chaos.c - cmocka tests of libttcap's chaos mode (capture/cap_chaos.c,
 * linked statically): the splitmix64 stream, per-thread seeds, the
 * decision at sync operations and function entries (rates and sleep
 * lengths), a point repeating its decisions for the same seed and thread,
 * and traced re-runs of this binary with TTCAP_CHAOS set (the PROCESS
 * record carries the mode and seed; a bad value means no chaos).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>
#include <pthread.h>

#include "cap_int.h"
#include "ttfmt.h"

_Static_assert(TTF_CHAOS_ON == TTF_PROC_CHAOS && TTF_CHAOS_ENTRIES == TTF_PROC_CHAOS_ENTRIES,
               "the wire's chaos bits are the reader's");

/* splitmix64 seeded with 0 starts with the published reference values. */
static void test_stream(void **state)
{
    (void)state;
    uint64_t s = 0;
    assert_true(cap_chaos_next(&s) == 0xe220a8397b1dcdafull);
    assert_true(cap_chaos_next(&s) == 0x6e789e6aa1b965f4ull);
    assert_true(cap_chaos_next(&s) == 0x06c45d188009454full);
}

/* Each thread its own stream: the same (seed, index) gives the same state,
 * another index or seed another one. */
static void test_thread_seeds(void **state)
{
    (void)state;
    uint64_t a = cap_chaos_thread_seed(42, 0), b = cap_chaos_thread_seed(42, 1);
    assert_true(a == cap_chaos_thread_seed(42, 0));
    assert_true(a != b);
    assert_true(a != cap_chaos_thread_seed(43, 0));
    assert_true(b != cap_chaos_thread_seed(43, 1));
    assert_true(cap_chaos_thread_seed(0, 0) != 0);
}

/* Counts of sleeps and yields over n draws of one stream. */
static void rates(int kind, unsigned n, unsigned *sleeps, unsigned *yields)
{
    uint64_t s = cap_chaos_thread_seed(7, 3);
    *sleeps = *yields = 0;
    for (unsigned i = 0; i < n; i++) {
        unsigned d = cap_chaos_decide(cap_chaos_next(&s), kind);
        if (d == CAP_CHAOS_YIELD) {
            ++*yields;
        } else if (d) {
            ++*sleeps;
            assert_true(d >= 10 && d <= 89);    /* tens of microseconds */
        }
    }
}

/* At sync operations 1 in 8 draws sleeps and 1 in 8 yields; at function
 * entries 1 in 512 and 1 in 64 (within 10% over 2^20 draws). */
static void test_decide_rates(void **state)
{
    (void)state;
    unsigned n = 1u << 20, sl, yi;
    rates(CAP_CHAOS_SYNC, n, &sl, &yi);
    assert_true(sl > n / 8 * 9 / 10 && sl < n / 8 * 11 / 10);
    assert_true(yi > n / 8 * 9 / 10 && yi < n / 8 * 11 / 10);
    rates(CAP_CHAOS_ENTRY, n, &sl, &yi);
    assert_true(sl > n / 512 * 9 / 10 && sl < n / 512 * 11 / 10);
    assert_true(yi > n / 64 * 9 / 10 && yi < n / 64 * 11 / 10);
}

/* The decision is a function of the draw: fixed draws, fixed answers. */
static void test_decide_values(void **state)
{
    (void)state;
    assert_int_equal(cap_chaos_decide(0, CAP_CHAOS_SYNC), 10);
    assert_int_equal(cap_chaos_decide(5 | (79u << 10), CAP_CHAOS_SYNC), 89);
    assert_int_equal(cap_chaos_decide(200, CAP_CHAOS_SYNC), CAP_CHAOS_YIELD);
    assert_int_equal(cap_chaos_decide(300, CAP_CHAOS_SYNC), 0);
    assert_int_equal(cap_chaos_decide(1023, CAP_CHAOS_SYNC), 0);
    assert_int_equal(cap_chaos_decide(1, CAP_CHAOS_ENTRY), 10);
    assert_int_equal(cap_chaos_decide(17, CAP_CHAOS_ENTRY), CAP_CHAOS_YIELD);
    assert_int_equal(cap_chaos_decide(18, CAP_CHAOS_ENTRY), 0);
}

/* A point seeds a thread's stream on first use from the run's seed and the
 * thread's index, and two threads with the same index (two runs) go
 * through the same states. */
static void test_point_repeats(void **state)
{
    (void)state;
    static struct tstate a, b, c;
    cap_chaos.seed = 99;
    a.state = b.state = c.state = TS_LIVE;
    a.index = b.index = 2;
    c.index = 3;
    for (int i = 0; i < 40; i++) {
        cap_chaos_point(&a, CAP_CHAOS_ENTRY);
        cap_chaos_point(&b, CAP_CHAOS_ENTRY);
        cap_chaos_point(&c, CAP_CHAOS_ENTRY);
        assert_true(a.chaos_rng == b.chaos_rng);
        assert_true(a.chaos_rng != c.chaos_rng);
    }
    uint64_t s = cap_chaos_thread_seed(99, 2);
    for (int i = 0; i < 40; i++)
        cap_chaos_next(&s);
    assert_true(s == a.chaos_rng);
    cap_chaos.seed = 0;
}

/* The traced child: threads taking a lock, so chaos points are hit. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;

static void *child_thread(void *arg)
{
    (void)arg;
    for (int i = 0; i < 200; i++) {
        pthread_mutex_lock(&lock);
        counter++;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static int child_main(void)
{
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&th[i], NULL, child_thread, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(th[i], NULL);
    return counter == 400 ? 7 : 1;
}

/* Run this binary traced with TTCAP_CHAOS=value; the trace's process. */
static void traced(const char *value, unsigned *chaos, uint64_t *seed)
{
    char path[] = "/tmp/tt_test_chaos_XXXXXX";
    int fd = mkstemp(path), st;
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("TTCAP_OUT", path, 1);
        setenv("TTCAP_CHAOS", value, 1);
        setenv("TT_TEST_CHAOS_CHILD", "1", 1);
        execl("/proc/self/exe", "test_chaos", (char *)NULL);
        _exit(99);
    }
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 7);
    ttf_trace *t;
    ttf_error err;
    assert_int_equal(ttf_open(path, &t, &err), 0);
    *chaos = ttf_get_process(t)->chaos;
    *seed = ttf_get_process(t)->chaos_seed;
    ttf_close(t);
    unlink(path);
}

static void test_traced_seed(void **state)
{
    (void)state;
    unsigned chaos;
    uint64_t seed;
    traced("1234", &chaos, &seed);
    assert_int_equal(chaos, TTF_PROC_CHAOS);
    assert_true(seed == 1234);
    traced("18446744073709551615,entries", &chaos, &seed);
    assert_int_equal(chaos, TTF_PROC_CHAOS | TTF_PROC_CHAOS_ENTRIES);
    assert_true(seed == UINT64_MAX);
    traced("12,sometimes", &chaos, &seed);  /* refused, with a warning: off */
    assert_int_equal(chaos, 0);
    assert_true(seed == 0);
    traced("", &chaos, &seed);
    assert_int_equal(chaos, 0);
}

int main(void)
{
    if (getenv("TT_TEST_CHAOS_CHILD"))
        return child_main();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stream),
        cmocka_unit_test(test_thread_seeds),
        cmocka_unit_test(test_decide_rates),
        cmocka_unit_test(test_decide_values),
        cmocka_unit_test(test_point_repeats),
        cmocka_unit_test(test_traced_seed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
