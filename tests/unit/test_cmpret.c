/*
 * test_cmpret.c - format/cmpret.c on real machine code: does a function
 * return a C library comparison's result unchanged (ttf_sym_code_cmpret)?
 * One C file compiled here with cc -O2 as a PIE, once plain (calls through
 * the PLT) and once as a values build compiles it (-pg -mfentry, and
 * -fno-plt: calls through GOT slots), each with a one-module trace
 * pointing at it. Comparators: a key comparator returning memcmp's result
 * (or the lengths' order when it is 0), a tail call of strcmp, strcmp's
 * result negated (a reversed order), a function
 * returning such a comparator's result (a direct call followed); an
 * indirect call's result returned is a relay. Not comparators: memcmp's
 * result tested (`memcmp(...) == 0`, a bool), an index found with memcmp,
 * a count of memcmp's results.
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

#include "self_module.h"
#include "tmpdir.h"
#include "ttfmt.h"

static const char source[] =
    "#include <string.h>\n"
    "#include <stddef.h>\n"
    "struct key { const char *p; size_t n; };\n"
    "int hits;\n"
    "__attribute__((noinline)) int cmp_key(const struct key *a, const struct key *b)\n"
    "{\n"
    "    size_t n = a->n < b->n ? a->n : b->n;\n"
    "    int r = memcmp(a->p, b->p, n);\n"
    "    if (r == 0)\n"
    "        r = (a->n > b->n) - (a->n < b->n);\n"
    "    return r;\n"
    "}\n"
    "__attribute__((noinline)) int cmp_eq(const char *a, const char *b, size_t n)\n"
    "{\n"
    "    return memcmp(a, b, n) == 0;\n"
    "}\n"
    "__attribute__((noinline)) int find_index(const char *const *v, int n, const char *k,\n"
    "                                    size_t len)\n"
    "{\n"
    "    for (int i = 0; i < n; i++)\n"
    "        if (memcmp(v[i], k, len) == 0)\n"
    "            return i;\n"
    "    return -1;\n"
    "}\n"
    "__attribute__((noinline)) int by_name(const char *a, const char *b)\n"
    "{\n"
    "    return strcmp(a, b);\n"
    "}\n"
    "__attribute__((noinline)) int rev_name(const char *a, const char *b)\n"
    "{\n"
    "    return -strcmp(a, b);\n"
    "}\n"
    "__attribute__((noinline)) int count_less(const char *const *v, int n, const char *k,\n"
    "                                    size_t len)\n"
    "{\n"
    "    int c = 0;\n"
    "    for (int i = 0; i < n; i++)\n"
    "        c += memcmp(v[i], k, len) < 0;\n"
    "    return c;\n"
    "}\n"
    "__attribute__((noinline)) int outer(const struct key *a, const struct key *b)\n"
    "{\n"
    "    int r = cmp_key(a, b);\n"
    "    hits += r != 0;\n"
    "    return r;\n"
    "}\n"
    "__attribute__((noinline)) int relay(int (*f)(const char *, const char *), const char *a,\n"
    "                                    const char *b)\n"
    "{\n"
    "    int r = f(a, b);\n"
    "    hits += r == 0;\n"
    "    return r;\n"
    "}\n"
    "int main(int argc, char **argv)\n"
    "{\n"
    "    struct key a = {argv[0], strlen(argv[0])}, b = {\"x\", 1};\n"
    "    const char *v[2] = {\"a\", argv[0]};\n"
    "    return cmp_key(&a, &b) + cmp_eq(argv[0], \"y\", 1) + find_index(v, 2, \"a\", 1) +\n"
    "           by_name(argv[0], \"z\") + rev_name(argv[0], \"r\") +\n"
    "           count_less(v, 2, \"b\", 1) + outer(&a, &b) +\n"
    "           relay(strcmp, argv[0], \"q\") + argc;\n"
    "}\n"
;

struct build {
    char path[512];
    uint8_t id[64];
    size_t idlen;
};

static struct build builds[2];
static int have_cc;
static int trace_no;

static int compile(struct build *b, const char *name, const char *flags)
{
    char cmd[2048];
    snprintf(b->path, sizeof b->path, "%s/%s", tu_tmpdir, name);
    snprintf(cmd, sizeof cmd, "cc -O2 -g -fPIE -pie %s -o '%s' '%s/fx.c' -Wl,--build-id "
             "2>/dev/null", flags, b->path, tu_tmpdir);
    if (system(cmd) != 0)
        return -1;
    return self_module_file_id(b->path, b->id, &b->idlen);
}

static int setup_all(void **state)
{
    char path[600];
    if (tu_tmpdir_setup(state))
        return -1;
    snprintf(path, sizeof path, "%s/fx.c", tu_tmpdir);
    FILE *f = fopen(path, "w");
    if (!f || fputs(source, f) < 0 || fclose(f) != 0)
        return -1;
    have_cc = system("cc --version >/dev/null 2>&1") == 0 &&
              compile(&builds[0], "plain", "") == 0 &&
              compile(&builds[1], "values", "-pg -mfentry -fno-plt") == 0;
    return 0;
}

static int teardown_all(void **state)
{
    return tu_tmpdir_teardown(state);
}

/* TTF_CMPRET_* of function name in build b. */
static unsigned cmpret_of(const struct build *b, const char *name)
{
    char path[600];
    ttf_writer *w = NULL;
    ttf_trace *t = NULL;
    ttf_sym *sym = NULL;
    const ttf_code_info *ci = NULL;
    const char *argv[] = {b->path};
    uint64_t a = 0;
    unsigned out = 99;

    snprintf(path, sizeof path, "%s/t%d.trc", tu_tmpdir, trace_no++);
    assert_int_equal(ttf_writer_open(path, NULL, &w), 0);
    assert_int_equal(ttf_write_process(w, 42, 1, b->path, 1, argv, ""), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 100, 42, "main"), 0);
    assert_int_equal(ttf_write_module(w, 0, 100, 0x555555554000ull, 1 << 22, b->id,
                                      b->idlen, b->path), 0);
    assert_int_equal(ttf_write_thread_end(w, 0, 1000), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    assert_int_equal(ttf_sym_open(t, &sym), 0);
    assert_int_equal(ttf_sym_code(sym, 0, &ci), 0);
    for (size_t i = 0; i < ci->nfuncs && !a; i++)
        if (strcmp(ci->funcs[i].name, name) == 0)
            a = ci->funcs[i].addr;
    assert_true(a != 0);
    assert_int_equal(ttf_sym_code_cmpret(sym, 0, a + 1, &out), 0);
    assert_int_equal(out, 0);       /* not a function's start: no answer */
    assert_int_equal(ttf_sym_code_cmpret(NULL, 0, a, &out), TT_EINVAL);
    assert_int_equal(ttf_sym_code_cmpret(sym, 0, a, NULL), TT_EINVAL);
    assert_int_equal(ttf_sym_code_cmpret(sym, 0, a, &out), 0);
    ttf_sym_close(sym);
    ttf_close(t);
    return out;
}

static void skip_without_cc(void)
{
    if (!have_cc) {
        print_message("no cc: skipped\n");
        skip();
    }
}

static void comparators(void **state)
{
    (void)state;
    skip_without_cc();
    for (int k = 0; k < 2; k++) {
        assert_int_equal(cmpret_of(&builds[k], "cmp_key"), TTF_CMPRET_SIGN);
        assert_int_equal(cmpret_of(&builds[k], "by_name"), TTF_CMPRET_SIGN);
        assert_int_equal(cmpret_of(&builds[k], "rev_name"), TTF_CMPRET_SIGN);
        assert_int_equal(cmpret_of(&builds[k], "outer"), TTF_CMPRET_SIGN);
        assert_int_equal(cmpret_of(&builds[k], "relay"), TTF_CMPRET_RELAY);
    }
}

static void not_comparators(void **state)
{
    (void)state;
    skip_without_cc();
    for (int k = 0; k < 2; k++) {
        assert_int_equal(cmpret_of(&builds[k], "cmp_eq"), 0);
        assert_int_equal(cmpret_of(&builds[k], "find_index"), 0);
        assert_int_equal(cmpret_of(&builds[k], "count_less"), 0);
        assert_int_equal(cmpret_of(&builds[k], "main"), 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(comparators),
        cmocka_unit_test(not_comparators),
    };
    return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
