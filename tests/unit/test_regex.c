/*
 * test_regex.c - the PCRE2 filter of diff/regex.c: matching anywhere,
 * anchors, bad patterns reported with PCRE2's text and the offset, and
 * NULL handling.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ttdiff.h"

static ttd_regex *compile_ok(const char *pattern)
{
    ttd_regex *re = NULL;
    ttf_error err;

    memset(&err, 0, sizeof err);
    assert_int_equal(ttd_regex_compile(pattern, &re, &err), 0);
    assert_non_null(re);
    return re;
}

static void test_match_anywhere(void **state)
{
    (void)state;
    ttd_regex *re = compile_ok("work(er)?-[0-9]+");

    assert_int_equal(ttd_regex_match(re, "worker-12"), 1);
    assert_int_equal(ttd_regex_match(re, "pool/work-3/x"), 1);
    assert_int_equal(ttd_regex_match(re, "worker-"), 0);
    assert_int_equal(ttd_regex_match(re, ""), 0);
    ttd_regex_free(re);
}

static void test_anchors_and_reuse(void **state)
{
    (void)state;
    ttd_regex *re = compile_ok("^parse_(int|float)$");

    /* the cached match block is reused: alternate hits and misses */
    for (int i = 0; i < 1000; i++) {
        assert_int_equal(ttd_regex_match(re, "parse_int"), 1);
        assert_int_equal(ttd_regex_match(re, "xparse_int"), 0);
        assert_int_equal(ttd_regex_match(re, "parse_float"), 1);
        assert_int_equal(ttd_regex_match(re, "parse_floats"), 0);
    }
    ttd_regex_free(re);
}

static void test_bad_pattern(void **state)
{
    (void)state;
    ttd_regex *re = (ttd_regex *)&re; /* must be reset to NULL */
    ttf_error err;

    memset(&err, 0, sizeof err);
    assert_int_equal(ttd_regex_compile("a(b", &re, &err), TT_EINVAL);
    assert_null(re);
    assert_int_equal(err.code, TT_EINVAL);
    assert_int_equal(err.offset, 3);
    assert_string_equal(err.msg,
        "bad regex 'a(b': missing closing parenthesis at offset 3");
}

static void test_bad_pattern_other(void **state)
{
    (void)state;
    ttd_regex *re = NULL;
    ttf_error err;

    memset(&err, 0, sizeof err);
    assert_int_equal(ttd_regex_compile("x*+*", &re, &err), TT_EINVAL);
    assert_null(re);
    assert_non_null(strstr(err.msg, "bad regex 'x*+*': "));
    assert_non_null(strstr(err.msg, " at offset 3"));
    /* no error struct: still fails cleanly */
    assert_int_equal(ttd_regex_compile("[z-a]", &re, NULL), TT_EINVAL);
    assert_null(re);
}

static void test_null_arguments(void **state)
{
    (void)state;
    ttd_regex *re = NULL;

    assert_int_equal(ttd_regex_compile(NULL, &re, NULL), TT_EINVAL);
    assert_int_equal(ttd_regex_compile("x", NULL, NULL), TT_EINVAL);
    assert_int_equal(ttd_regex_match(NULL, "x"), 0);
    re = compile_ok("x");
    assert_int_equal(ttd_regex_match(re, NULL), 0);
    ttd_regex_free(re);
    ttd_regex_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_match_anywhere),
        cmocka_unit_test(test_anchors_and_reuse),
        cmocka_unit_test(test_bad_pattern),
        cmocka_unit_test(test_bad_pattern_other),
        cmocka_unit_test(test_null_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
