/*
 * test_closest.c - cmocka tests of ttrec's choice of the good run
 * (report/cmd/ttrec_closest.c): synthetic traces written with ttf_writer,
 * a failing run and passing runs that part from it after different numbers
 * of calls, in one thread or another, with modules loaded at other
 * addresses; the prefix lengths and the ranking are checked.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmpdir.h"
#include "ttfmt.h"
#include "ttrec_closest.h"

#define EXE "/opt/prog"
#define LIBC "/lib/libc.so.6"

/* A run: per thread a string of calls, one letter each ('a'..'z' a
 * function of the program at 0x100 * letter, 'A'..'Z' one of libc); a
 * '(' before a letter makes the call nested (depth + 1), ')' returns. The
 * program is loaded at base, libc at base2. */
static void write_run(const char *path, const char *const *threads, size_t n,
                      uint64_t base, uint64_t base2)
{
    ttf_writer *w;
    uint64_t tsc = 1;
    assert_int_equal(ttf_writer_open(path, NULL, &w), 0);
    assert_int_equal(ttf_write_process(w, 1, 0, EXE, 0, NULL, ""), 0);
    for (uint32_t t = 0; t < n; t++) {
        uint64_t stack[64];
        int depth = 0;
        assert_int_equal(ttf_write_thread_start(w, t, tsc++, 100 + t, ""), 0);
        if (t == 0) {
            assert_int_equal(ttf_write_module(w, 0, tsc++, base, 0x10000, NULL, 0, EXE), 0);
            assert_int_equal(ttf_write_module(w, 0, tsc++, base2, 0x10000, NULL, 0, LIBC), 0);
        }
        for (const char *c = threads[t]; *c; c++) {
            if (*c == ')') {
                assert_int_equal(ttf_write_exit(w, t, tsc++, stack[--depth]), 0);
                continue;
            }
            int nest = *c == '(';
            c += nest;
            uint64_t a = *c >= 'a' ? base + 0x100u * (unsigned)*c : base2 + 0x100u * (unsigned)*c;
            assert_int_equal(ttf_write_enter(w, t, tsc++, a), 0);
            if (nest) {
                stack[depth++] = a;
                continue;
            }
            assert_int_equal(ttf_write_exit(w, t, tsc++, a), 0);
        }
        while (depth > 0)
            assert_int_equal(ttf_write_exit(w, t, tsc++, stack[--depth]), 0);
    }
    assert_int_equal(ttf_writer_close(w, 0), 0);
}

static const char *file(const char *name)
{
    static char buf[4][320];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", tu_tmpdir, name);
    unlink(buf[k]);
    return buf[k];
}

static uint64_t prefix(const ttri_calls *fail, const char *path, ttri_prefix *p)
{
    char err[256];
    assert_int_equal(ttri_calls_prefix(fail, path, p, err, sizeof err), 0);
    return p->common;
}

/* Prefixes per thread, summed; modules moved do not matter; depth does. */
static void test_prefix(void **state)
{
    (void)state;
    const char *fail_t[] = {"ab(cdX)e", "ppqqrs"};
    const char *same[] = {"ab(cdX)e", "ppqqrs"};
    const char *late[] = {"ab(cdX)f", "ppqx"};      /* 5 + 3 */
    const char *early[] = {"ax", "ppqqrs"};         /* 1 + 6 */
    const char *flat[] = {"abcdXe", "ppqqrs"};      /* depth differs after 'b': 3 + 6 */
    const char *one[] = {"ab(cdX)e"};               /* one thread: 6 */
    ttri_calls *fail;
    ttri_prefix p;
    char err[256];
    const char *f = file("fail.trc");

    write_run(f, fail_t, 2, 0x400000, 0x7f0000000000);
    assert_int_equal(ttri_calls_load(f, &fail, err, sizeof err), 0);
    const char *s = file("s.trc");
    write_run(s, same, 2, 0x555500000000, 0x7f1234560000);
    assert_int_equal(prefix(fail, s, &p), 12);
    assert_int_equal(p.calls, 12);
    assert_int_equal(p.threads, 2);
    s = file("late.trc");
    write_run(s, late, 2, 0x400000, 0x7f0000000000);
    assert_int_equal(prefix(fail, s, &p), 8);
    s = file("early.trc");
    write_run(s, early, 2, 0x400000, 0x7f0000000000);
    assert_int_equal(prefix(fail, s, &p), 7);
    s = file("flat.trc");
    write_run(s, flat, 2, 0x400000, 0x7f0000000000);
    assert_int_equal(prefix(fail, s, &p), 9);
    s = file("one.trc");
    write_run(s, one, 1, 0x400000, 0x7f0000000000);
    assert_int_equal(prefix(fail, s, &p), 6);
    assert_int_equal(p.threads, 1);
    assert_int_equal(p.calls, 6);
    ttri_calls_free(fail);
}

/* Best first; ties keep the earlier run first. */
static void test_rank(void **state)
{
    (void)state;
    ttri_prefix sc[5] = {{3, 10, 1, 0}, {9, 10, 1, 0}, {3, 10, 1, 0}, {12, 10, 1, 0}, {9, 10, 1, 0}};
    size_t order[5];
    ttri_rank(sc, 5, order);
    assert_int_equal(order[0], 3);
    assert_int_equal(order[1], 1);
    assert_int_equal(order[2], 4);
    assert_int_equal(order[3], 0);
    assert_int_equal(order[4], 2);
    ttri_rank(sc, 1, order);
    assert_int_equal(order[0], 0);
}

/* A file that is no trace: an error with its name, no crash. */
static void test_bad_file(void **state)
{
    (void)state;
    ttri_calls *c = (ttri_calls *)1;
    char err[256];
    const char *f = file("junk.trc");
    FILE *fp = fopen(f, "w");
    assert_non_null(fp);
    fputs("not a trace at all, just some words", fp);
    fclose(fp);
    assert_true(ttri_calls_load(f, &c, err, sizeof err) < 0);
    assert_null(c);
    assert_non_null(strstr(err, "junk.trc"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_prefix),
        cmocka_unit_test(test_rank),
        cmocka_unit_test(test_bad_file),
    };
    return cmocka_run_group_tests(tests, tu_tmpdir_setup, tu_tmpdir_teardown);
}
