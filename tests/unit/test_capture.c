/*
 * test_capture.c - cmocka tests of libttcap linked statically: the disabled
 * library (no file, arguments not evaluated), the _Generic argument types,
 * and a traced re-run of this binary (TTCAP_OUT set, 4 threads logging
 * messages of every type across small chunks) checked with the reader,
 * and a re-run whose chunk claims fail (the header's cut table).
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

#include "ttcap.h"
#include "ttf_wire.h"
#include "ttfmt.h"

/* capture/ writes these codes without seeing ttfmt.h: they must agree */
_Static_assert((int)TTCAP_ARG_I64 == (int)TTF_ARG_I64 &&
               (int)TTCAP_ARG_U64 == (int)TTF_ARG_U64 &&
               (int)TTCAP_ARG_F64 == (int)TTF_ARG_F64 &&
               (int)TTCAP_ARG_PTR == (int)TTF_ARG_PTR &&
               (int)TTCAP_ARG_STR == (int)TTF_ARG_STR,
               "ttcap.h argument types follow ttfmt.h");
_Static_assert((int)TTCAP_SITE_LOG == (int)TTF_SITE_LOG &&
               (int)TTCAP_SITE_VALUE == (int)TTF_SITE_VALUE &&
               (int)TTCAP_SITE_RETURN == (int)TTF_SITE_RETURN &&
               (int)TTCAP_SITE_MARK == (int)TTF_SITE_MARK &&
               (int)TTCAP_SITE_SCOPE == (int)TTF_SITE_SCOPE,
               "ttcap.h site kinds follow ttfmt.h");

#define THREADS 4
#define PER_THREAD 3000

static void test_disabled(void **state)
{
    (void)state;
    int x = 0;
    assert_int_equal(ttcap_version(), TTCAP_VERSION_NUMBER);
    assert_int_equal(ttcap_enabled(), 0);
    assert_null(ttcap_path());
    assert_true(ttcap_threshold < 0);
    TT_LOG(TTCAP_ERROR, "never %d", ++x);   /* not recorded: not evaluated */
    TT_VALUE("x", ++x);
    assert_int_equal(x, 0);
    TT_MARK("nothing");
    ttcap_pause();
    ttcap_resume();
    ttcap_flush();
    ttcap_thread_name("quiet");
}

static void test_arg_types(void **state)
{
    (void)state;
    char buf[4] = "abc";
    int i = 0;
    assert_int_equal(TTCAP_AT_(i), TTCAP_ARG_I64);
    assert_int_equal(TTCAP_AT_((short)1), TTCAP_ARG_I64);
    assert_int_equal(TTCAP_AT_(1u), TTCAP_ARG_U64);
    assert_int_equal(TTCAP_AT_((_Bool)1), TTCAP_ARG_U64);
    assert_int_equal(TTCAP_AT_(1ull), TTCAP_ARG_U64);
    assert_int_equal(TTCAP_AT_(1.0f), TTCAP_ARG_F64);
    assert_int_equal(TTCAP_AT_(1.0), TTCAP_ARG_F64);
    assert_int_equal(TTCAP_AT_("lit"), TTCAP_ARG_STR);
    assert_int_equal(TTCAP_AT_(buf), TTCAP_ARG_STR);
    assert_int_equal(TTCAP_AT_((const char *)buf), TTCAP_ARG_STR);
    assert_int_equal(TTCAP_AT_(&i), TTCAP_ARG_PTR);
    assert_int_equal(TTCAP_AT_((void *)0), TTCAP_ARG_PTR);
    assert_true(TTCAP_AV_(-5).i == -5);
    assert_true(TTCAP_AV_(2.5f).f == 2.5);
    assert_ptr_equal(TTCAP_AV_(buf).s, buf);
    assert_true(TTCAP_AV_(&i).u == (uintptr_t)&i);
}

/* ---- the traced child --------------------------------------------------- */

static void *child_thread(void *arg)
{
    long id = (long)arg;
    char big[200];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = 0;
    for (int i = 0; i < PER_THREAD; i++) {
        TT_SCOPE();
        if (i % 3 == 0)
            TT_LOG(TTCAP_INFO, "t%ld i=%d u=%u f=%.1f", id, i, (unsigned)i * 2, i * 0.5);
        else if (i % 3 == 1)
            TT_LOG(TTCAP_INFO, "t%ld big %s %p", id, big, (void *)(uintptr_t)i);
        else
            TT_VALUE("i", (long long)i);
    }
    return NULL;
}

static int child_main(void)
{
    pthread_t th[THREADS];
    if (!ttcap_enabled())
        return 3;
    for (long i = 0; i < THREADS; i++)
        pthread_create(&th[i], NULL, child_thread, (void *)i);
    for (int i = 0; i < THREADS; i++)
        pthread_join(th[i], NULL);
    return 7;
}

static void test_traced_child(void **state)
{
    (void)state;
    char path[] = "/tmp/tt_test_capture_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);               /* the library creates it (O_EXCL) */
    pid_t pid = fork();
    if (pid == 0) {
        setenv("TTCAP_OUT", path, 1);
        setenv("TTCAP_CHUNK_KB", "16", 1);
        setenv("TT_TEST_CAPTURE_CHILD", "1", 1);
        execl("/proc/self/exe", "test_capture", (char *)NULL);
        _exit(99);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 7);

    ttf_trace *t;
    ttf_error err;
    assert_int_equal(ttf_open(path, &t, &err), 0);
    const ttf_summary *s = ttf_get_summary(t);
    assert_int_equal(s->closed, 1);
    assert_int_equal(s->lost_events, 0);
    assert_int_equal(s->chunks_damaged, 0);
    assert_true(s->chunks_used > THREADS);  /* small chunks: many switches */
    assert_int_equal(ttf_get_header(t)->exit_status, 7);
    assert_int_equal(ttf_thread_count(t), THREADS + 1);
    unsigned seen = 0;          /* worker ids found (index order is first-event order) */
    for (uint32_t th = 1; th <= THREADS; th++) {
        char who = 0;
        ttf_iter *it;
        ttf_event ev;
        int r, depth = 0, maxdepth = 0;
        unsigned long scopes = 0, msgs = 0, values = 0;
        assert_int_equal(ttf_iter_open(t, th, &it), 0);
        while ((r = ttf_iter_next(it, &ev)) == 1) {
            char text[512];
            if (ev.kind == TTF_EV_ENTER) {
                scopes++;
                maxdepth = ++depth > maxdepth ? depth : maxdepth;
            } else if (ev.kind == TTF_EV_EXIT) {
                depth--;
            } else if (ev.kind == TTF_EV_MESSAGE) {
                assert_true(ttf_format_message(t, &ev, text, sizeof text) > 0);
                const ttf_callsite *cs = ttf_get_callsite(t, ev.site);
                assert_non_null(cs);
                if (cs->kind == TTF_SITE_VALUE) {
                    values++;
                    assert_int_equal(strncmp(text, "i = ", 4), 0);
                } else {
                    msgs++;
                    assert_int_equal(text[0], 't');
                    if (!who)
                        who = text[1];
                    assert_int_equal(text[1], who);
                    assert_int_equal(who, (char)('0' + th - 1)); /* creation order */
                }
            }
            assert_int_not_equal(ev.kind, TTF_EV_LOST);
        }
        assert_int_equal(r, 0);
        ttf_iter_close(it);
        assert_int_equal(scopes, PER_THREAD);
        assert_int_equal(msgs, PER_THREAD / 3 * 2);
        assert_int_equal(values, PER_THREAD / 3);
        assert_int_equal(depth, 0);
        assert_int_equal(maxdepth, 1);
        assert_true(who >= '0' && who < '0' + THREADS);
        seen |= 1u << (who - '0');
    }
    assert_int_equal(seen, (1u << THREADS) - 1);
    ttf_close(t);
    unlink(path);
}

/* ---- cut threads: the header's cut table ----------------------------------
 * TTCAP_TEST_FAIL_AFTER=1: the main thread's first chunk is the only one,
 * so the workers are cut before their first chunk (NOCHUNK). Each must be
 * in the cut table, ended, with every scope, message and value it made
 * counted (the call sites' definitions, written by whichever thread uses
 * a site first, may add one each), and cut_events must hold the sum. */
static void test_cut_table(void **state)
{
    (void)state;
    char path[] = "/tmp/tt_test_capture_cut_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    unlink(path);
    pid_t pid = fork();
    if (pid == 0) {
        setenv("TTCAP_OUT", path, 1);
        setenv("TTCAP_TEST_FAIL_AFTER", "1", 1);
        setenv("TT_TEST_CAPTURE_CHILD", "1", 1);
        execl("/proc/self/exe", "test_capture", (char *)NULL);
        _exit(99);
    }
    int st;
    assert_int_equal(waitpid(pid, &st, 0), pid);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 7);
    uint8_t h[TTF_DATA_OFFSET];
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    assert_int_equal(fread(h, 1, sizeof h, f), sizeof h);
    fclose(f);
    assert_true(ttf_get_le(h + TTF_H_OPT, 4) & TTF_OPT_CUTINFO);
    assert_int_equal(ttf_get_le(h + TTF_H_HSIZE, 2), TTF_HEADER_SIZE_CUT);
    assert_int_equal(ttf_get_le(h + TTF_H_CUTTHR, 4), THREADS);
    assert_int_equal(ttf_get_le(h + TTF_H_CUTWHY, 4), TTF_LOST_IO);
    assert_true(ttf_get_le(h + TTF_H_CUTTIME, 8) >= ttf_get_le(h + TTF_H_START, 8));
    uint64_t sum = 0;
    unsigned seen = 0;
    for (unsigned i = 0; i < THREADS; i++) {
        const uint8_t *e = h + TTF_CUT_TABLE + i * TTF_CUT_ENTRY;
        uint32_t th = (uint32_t)ttf_get_le(e + TTF_CUTE_THREAD, 4);
        assert_true(th >= 2 && th <= THREADS + 1);    /* workers: index 1..4 */
        seen |= 1u << (th - 2);
        assert_int_equal(ttf_get_le(e + TTF_CUTE_FLAGS, 4), TTF_CUTF_NOCHUNK | TTF_CUTF_ENDED);
        assert_int_equal(ttf_get_le(e + TTF_CUTE_REASON, 4), TTF_LOST_IO);
        assert_true(ttf_get_le(e + TTF_CUTE_TID, 4) > 0);
        uint64_t lost = ttf_get_le(e + TTF_CUTE_LOST, 8);
        assert_in_range(lost, 3 * PER_THREAD, 3 * PER_THREAD + 4);
        sum += lost;
    }
    assert_int_equal(seen, (1u << THREADS) - 1);
    assert_int_equal(ttf_get_le(h + TTF_CUT_TABLE + THREADS * TTF_CUT_ENTRY, 4), 0);
    assert_int_equal(ttf_get_le(h + TTF_H_CUTEV, 8), sum);
    assert_true(sum >= 3 * PER_THREAD * THREADS && sum <= 3 * PER_THREAD * THREADS + 4);
    unlink(path);
}

int main(void)
{
    if (getenv("TT_TEST_CAPTURE_CHILD"))
        return child_main();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_disabled),
        cmocka_unit_test(test_arg_types),
        cmocka_unit_test(test_traced_child),
        cmocka_unit_test(test_cut_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
