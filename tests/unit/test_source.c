/*
 * test_source.c - ttf_source_hash (format/source.c): a function's source
 * text fingerprinted from its declaration's line to the end of its body.
 * Comments, spacing and the lines before and after do not count, a token
 * does; a constructor's member initialisers (brace-initialised too) are
 * part of it; a declaration, a missing file or a line past the end is not
 * found; braces inside comments and literals do not end the body.
 * ttf_source_hash_skip: the lines of a function defined inside another (a
 * lambda) left out, an edit there does not count, one elsewhere does.
 * ttf_source_passes_on: a function whose every return is one callee's
 * call passes its answer on; any other return, two callees, none, or a
 * "return" inside a comment, a literal or another word do not.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ttfmt.h"
#include "tmpdir.h"

/* Write text to a new file; its path into buf. */
static const char *put(char *buf, size_t len, const char *text)
{
    static int seq;
    snprintf(buf, len, "%s/s%d.c", tu_tmpdir, seq++);
    FILE *f = fopen(buf, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return buf;
}

static uint64_t hash_at(const char *text, int line, int *last)
{
    char p[256];
    uint64_t h = 0;
    assert_int_equal(ttf_source_hash(put(p, sizeof p, text), line, &h, last), 0);
    assert_true(h != 0);
    return h;
}

#define STEP "unsigned step(unsigned h, unsigned char c)\n{\n    return h * 31u + c;\n}\n"

static void tokens_count(void **state)
{
    (void)state;
    int last = 0;
    uint64_t a = hash_at("int x;\n" STEP "int y;\n", 2, &last);
    assert_int_equal(last, 5);
    /* other lines around it, comments, spacing: the same */
    assert_true(hash_at("/* v2 */\nint x = 1;\n\n" STEP, 4, NULL) == a);
    assert_true(hash_at("unsigned step(unsigned h,unsigned char c) {\n"
                        "  // mix one byte in\n  return h*31u+c; /* } */\n}\n",
                        1, NULL) == a);
    /* a token: another source */
    assert_true(hash_at("unsigned step(unsigned h, unsigned char c)\n{\n"
                        "    return h * 33u + c;\n}\n", 1, NULL) != a);
    /* words parted by white space stay parted: "unsigned h" is not "unsignedh" */
    assert_true(hash_at("unsigned step(unsignedh, unsigned char c)\n{\n"
                        "    return h * 31u + c;\n}\n", 1, NULL) != a);
    /* a literal's contents count, braces in it do not end the body */
    uint64_t s1 = hash_at("const char *f(void)\n{\n    return \"}{ a\";\n}\nint z;\n", 1, &last);
    assert_int_equal(last, 4);
    assert_true(hash_at("const char *f(void)\n{\n    return \"}{  a\";\n}\n", 1, NULL) != s1);
}

static void cxx_bodies(void **state)
{
    (void)state;
    int last = 0;
    /* member initialisers, one brace-initialised: the body is the last group */
    const char *ctor = "Foo::Foo(int a)\n    : n(a), v{1, 2} /* init */\n{\n"
                       "    if (a) { n++; }\n}\nint after;\n";
    uint64_t h = hash_at(ctor, 1, &last);
    assert_int_equal(last, 5);
    assert_true(hash_at("Foo::Foo(int a)\n    : n(a), v{1, 3} /* init */\n{\n"
                        "    if (a) { n++; }\n}\n", 1, NULL) != h);
    /* a member function defined in its class */
    assert_int_equal(hash_at("struct S {\n    int get() const { return k; }\n    int k;\n};\n",
                             2, &last) != 0, 1);
    assert_int_equal(last, 2);
}

static int passes(const char *text, int line, char *callee, size_t len)
{
    char p[256];
    return ttf_source_passes_on(put(p, sizeof p, text), line, callee, len);
}

static void passes_on(void **state)
{
    char c[64];
    (void)state;
    /* a wrapper: its one return is a call (strings, comments, nested
     * parentheses in the arguments) */
    assert_int_equal(passes("int to_int(const T *o, long *p, int mode)\n{\n    T v;\n"
                            "    if (from_text(o, &v)) /* return early() */\n        o = &v;\n"
                            "    return to_int_ns(o, p, (mode) + f(\"return x;\"));\n}\n",
                            1, c, sizeof c), 1);
    assert_string_equal(c, "to_int_ns");
    /* every return the same call */
    assert_int_equal(passes("int f(int x)\n{\n    if (x) return g(x);\n    return g(0);\n}\n",
                            1, c, sizeof c), 1);
    assert_string_equal(c, "g");
    /* must not: a return of a constant, of two callees, of an expression,
     * none at all, a name too long for callee */
    assert_int_equal(passes("int f(int x)\n{\n    if (x) return g(x);\n    return 0;\n}\n",
                            1, c, sizeof c), 0);
    assert_string_equal(c, "");
    assert_int_equal(passes("int f(int x)\n{\n    if (x) return g(x);\n    return h(x);\n}\n",
                            1, c, sizeof c), 0);
    assert_int_equal(passes("int f(int x)\n{\n    return g(x) + 1;\n}\n", 1, c, sizeof c), 0);
    assert_int_equal(passes("void f(int x)\n{\n    g(x); /* return g(x); */\n}\n", 1, c,
                            sizeof c), 0);
    assert_int_equal(passes("int f(int x)\n{\n    int returned = g(x);\n"
                            "    return returned;\n}\n", 1, c, sizeof c), 0);
    assert_int_equal(passes("int f(int x)\n{\n    return a_long_name(x);\n}\n", 1, c, 4), 0);
    /* errors: a declaration only, bad arguments */
    assert_int_equal(passes("int f(int x);\n", 1, c, sizeof c), TT_ENOTFOUND);
    assert_int_equal(ttf_source_passes_on(NULL, 1, c, sizeof c), TT_EINVAL);
}

/* A function holding a lambda (lines 4-6), the lambda's body edited in
 * one copy, the function's own text in another. */
#define OUTER(lam, own) "#include <cstddef>\n" \
    "int walk(const char *s, int n)\n{\n" \
    "    auto step = [](const char *p) {\n" \
    "        return " lam ";\n" \
    "    };\n" \
    "    int k = 0;\n" \
    "    for (int i = 0; i < n; i += step(s + i)) k += " own ";\n" \
    "    return k;\n}\n"

static uint64_t skip_at(const char *text, const int *skip, size_t nskip)
{
    char p[256];
    uint64_t h = 0;
    int last = 0;
    assert_int_equal(ttf_source_hash_skip(put(p, sizeof p, text), 2, skip, nskip, &h, &last), 0);
    assert_int_equal(last, 10);
    assert_true(h != 0);
    return h;
}

static void skip_nested(void **state)
{
    (void)state;
    const int lam[2] = {4, 6};
    char p[256];
    uint64_t h;
    uint64_t a = skip_at(OUTER("*p ? 1 : 2", "1"), lam, 1);
    /* the lambda edited: the whole differs, the rest does not */
    assert_true(hash_at(OUTER("*p ? 1 : 2", "1"), 2, NULL) !=
                hash_at(OUTER("*p ? 2 : 1", "1"), 2, NULL));
    assert_true(skip_at(OUTER("*p ? 2 : 1", "1"), lam, 1) == a);
    /* the function's own text edited: differs without the lambda too */
    assert_true(skip_at(OUTER("*p ? 1 : 2", "2"), lam, 1) != a);
    /* no range left out: ttf_source_hash's */
    assert_true(skip_at(OUTER("*p ? 1 : 2", "1"), NULL, 0) ==
                hash_at(OUTER("*p ? 1 : 2", "1"), 2, NULL));
    /* errors */
    assert_int_equal(ttf_source_hash_skip(put(p, sizeof p, STEP), 1, NULL, 1, &h, NULL),
                     TT_EINVAL);
    assert_int_equal(ttf_source_hash_skip(p, 9, lam, 1, &h, NULL), TT_ENOTFOUND);
}

static void not_found(void **state)
{
    (void)state;
    char p[256];
    uint64_t h = 7;
    /* a declaration only */
    assert_int_equal(ttf_source_hash(put(p, sizeof p, "int f(int);\nint g;\n"), 1, &h, NULL),
                     TT_ENOTFOUND);
    assert_int_equal(h, 0);
    /* past the end, braces that never close, no file, a folder */
    assert_int_equal(ttf_source_hash(put(p, sizeof p, STEP), 9, &h, NULL), TT_ENOTFOUND);
    assert_int_equal(ttf_source_hash(put(p, sizeof p, "int f(void)\n{\n  if (1) {\n"), 1, &h,
                                     NULL), TT_ENOTFOUND);
    snprintf(p, sizeof p, "%s/none.c", tu_tmpdir);
    assert_int_equal(ttf_source_hash(p, 1, &h, NULL), TT_ENOTFOUND);
    assert_int_equal(ttf_source_hash(tu_tmpdir, 1, &h, NULL), TT_ENOTFOUND);
    assert_int_equal(ttf_source_hash(NULL, 1, &h, NULL), TT_EINVAL);
    assert_int_equal(ttf_source_hash(p, 0, &h, NULL), TT_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tokens_count),
        cmocka_unit_test(cxx_bodies),
        cmocka_unit_test(not_found),
        cmocka_unit_test(skip_nested),
        cmocka_unit_test(passes_on),
    };
    return cmocka_run_group_tests(tests, tu_tmpdir_setup, tu_tmpdir_teardown);
}
