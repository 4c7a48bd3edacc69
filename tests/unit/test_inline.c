/*
 * test_inline.c - inline chains from DWARF (ttf_sym_inline, format/inline.c)
 * on a small library compiled here at -O2 -g: a call made inside two
 * levels of inlined static helpers maps to both helpers, innermost first,
 * each with the line of the call it made, then the out-of-line function;
 * a call with nothing inlined is one frame; answers are cached; no debug
 * info or no module is TT_ENOTFOUND. The other way round
 * (ttf_sym_inlined_in): the functions inlined into outer(), each once,
 * the deepest first, from any address of its code; the count capped.
 * A C++ lambda inlined into a function: its operator() (artificial, no
 * line of its own in gcc's debug info) is defined at the lambda's line.
 */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "self_module.h"
#include "tmpdir.h"
#include "ttfmt.h"

/* The library's source; the L_* lines below are its line numbers. */
static const char lib_src[] =
    "void *ras[8];\n"                                       /* 1 */
    "int nra;\n"                                            /* 2 */
    "__attribute__((noinline)) void sink(int x)\n"          /* 3 */
    "{\n"                                                   /* 4 */
    "    ras[nra++ & 7] = __builtin_return_address(0);\n"   /* 5 */
    "    __asm__ volatile(\"\" :: \"r\"(x) : \"memory\");\n" /* 6 */
    "}\n"                                                   /* 7 */
    "static inline __attribute__((always_inline)) int deep(int x)\n" /* 8 */
    "{\n"                                                   /* 9 */
    "    sink(x + 1);\n"                                    /* 10 */
    "    return x * 2;\n"                                   /* 11 */
    "}\n"                                                   /* 12 */
    "static inline __attribute__((always_inline)) int check(int x)\n" /* 13 */
    "{\n"                                                   /* 14 */
    "    if (x > 3)\n"                                      /* 15 */
    "        return deep(x);\n"                             /* 16 */
    "    return 0;\n"                                       /* 17 */
    "}\n"                                                   /* 18 */
    "int outer(int x)\n"                                    /* 19 */
    "{\n"                                                   /* 20 */
    "    int r = check(x);\n"                               /* 21 */
    "    sink(r);\n"                                        /* 22 */
    "    return r + 1;\n"                                   /* 23 */
    "}\n"                                                   /* 24 */
    "int twice(int x)\n"                                    /* 25 */
    "{\n"                                                   /* 26 */
    "    return check(x) + check(x + 7);\n"                 /* 27 */
    "}\n";                                                  /* 28 */
enum {
    L_DEEP_DECL = 8, L_DEEP_CALL = 10, L_CHECK_DECL = 13,
    L_CHECK_CALL = 16, L_OUTER_DECL = 19, L_OUTER_CALL = 21, L_SINK2 = 22,
    L_OUTER_END = 24
};

/* One library built and loaded. */
struct lib {
    char path[512];
    void *h;
    struct self_module mod;
    uint64_t ra[2];          /* return addresses of outer(5)'s two sinks */
};

/* Write text as tu_tmpdir/<file>, compile it with compiler and cflags
 * into <file>.so and load it. */
static void load_lib(struct lib *l, const char *file, const char *text, const char *compiler,
                     const char *cflags)
{
    char src[512], cmd[1536];

    memset(l, 0, sizeof *l);
    snprintf(src, sizeof src, "%s/%s", tu_tmpdir, file);
    snprintf(l->path, sizeof l->path, "%s/%s.so", tu_tmpdir, file);
    FILE *f = fopen(src, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "%s %s -shared -fPIC -Wl,--build-id -o '%s' '%s'",
             compiler, cflags, l->path, src);
    assert_int_equal(system(cmd), 0);
    l->h = dlopen(l->path, RTLD_NOW | RTLD_LOCAL);
    assert_non_null(l->h);
    assert_int_equal(self_module_find(l->path, &l->mod), 0);
}

/* Build lib_src with cflags, load it, run outer(5). */
static void build_lib(struct lib *l, const char *name, const char *cflags)
{
    char file[256];

    snprintf(file, sizeof file, "%s.c", name);
    load_lib(l, file, lib_src, "cc", cflags);
    int (*outer)(int) = NULL;
    void *sym = dlsym(l->h, "outer");
    assert_non_null(sym);
    memcpy(&outer, &sym, sizeof outer);
    assert_int_equal(outer(5), 11);
    void **ras = dlsym(l->h, "ras");
    assert_non_null(ras);
    l->ra[0] = (uint64_t)(uintptr_t)ras[0];
    l->ra[1] = (uint64_t)(uintptr_t)ras[1];
}

/* A trace whose one module is the library; opened with its resolver. */
static void open_trace(const struct lib *l, ttf_trace **t, ttf_sym **s)
{
    char path[600];
    ttf_writer *w = NULL;
    ttf_error err;
    const char *argv[] = {"test_inline"};

    snprintf(path, sizeof path, "%s.trc", l->path);
    assert_int_equal(ttf_writer_open(path, NULL, &w), 0);
    assert_int_equal(ttf_write_process(w, 42, 1, "test_inline", 1, argv, ""), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 100, 42, "main"), 0);
    assert_int_equal(ttf_write_module(w, 0, 100, l->mod.base, l->mod.size,
                                      l->mod.build_id, l->mod.build_id_len,
                                      l->path), 0);
    assert_int_equal(ttf_write_thread_end(w, 0, 1000), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    memset(&err, 0, sizeof err);
    assert_int_equal(ttf_open(path, t, &err), 0);
    assert_int_equal(ttf_sym_open(*t, s), 0);
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = s ? strlen(s) : 0, m = strlen(tail);
    return n >= m && strcmp(s + n - m, tail) == 0;
}

/* The call of sink() inside deep() inside check() inside outer(). */
static void test_chain(void **state)
{
    struct lib l;
    ttf_trace *t = NULL;
    ttf_sym *s = NULL;
    const ttf_inline_frame *fr = NULL, *again = NULL;
    size_t n = 0, m = 0;

    (void)state;
    build_lib(&l, "inl", "-O2 -g");
    open_trace(&l, &t, &s);
    assert_int_equal(ttf_sym_inline(s, l.ra[0] - 1, 500, &fr, &n), 0);
    assert_int_equal(n, 3);
    assert_string_equal(fr[0].function, "deep");
    assert_int_equal(fr[0].inlined, 1);
    assert_int_equal(fr[0].line, L_DEEP_CALL);
    assert_int_equal(fr[0].decl_line, L_DEEP_DECL);
    assert_true(ends_with(fr[0].file, "/inl.c"));
    assert_true(ends_with(fr[0].decl_file, "/inl.c"));
    assert_string_equal(fr[1].function, "check");
    assert_int_equal(fr[1].inlined, 1);
    assert_int_equal(fr[1].line, L_CHECK_CALL);
    assert_int_equal(fr[1].decl_line, L_CHECK_DECL);
    assert_true(ends_with(fr[1].file, "/inl.c"));
    assert_string_equal(fr[2].function, "outer");
    assert_int_equal(fr[2].inlined, 0);
    assert_int_equal(fr[2].line, L_OUTER_CALL);
    assert_int_equal(fr[2].decl_line, L_OUTER_DECL);
    assert_int_equal(fr[2].end_line, L_OUTER_END);
    assert_int_equal(fr[0].end_line, 0);
    /* the same answer from the cache, at any time the module is loaded */
    assert_int_equal(ttf_sym_inline(s, l.ra[0] - 1, UINT64_MAX, &again, &m), 0);
    assert_ptr_equal(again, fr);
    assert_int_equal(m, 3);
    /* a call outside every inlined copy: the function alone */
    assert_int_equal(ttf_sym_inline(s, l.ra[1] - 1, 500, &fr, &n), 0);
    assert_int_equal(n, 1);
    assert_string_equal(fr[0].function, "outer");
    assert_int_equal(fr[0].inlined, 0);
    assert_int_equal(fr[0].line, L_SINK2);
    ttf_sym_close(s);
    ttf_close(t);
    dlclose(l.h);
}

/* The functions inlined into outer(): deep() inside check(), so deep
 * first (depth 2), then check (depth 1), each with its definition; from
 * outer's entry or an address inside the inlined copies alike. */
static void test_inlined_in(void **state)
{
    struct lib l;
    ttf_trace *t = NULL;
    ttf_sym *s = NULL;
    ttf_inlined in[TTF_INLINED_MAX];
    size_t n = 0;

    (void)state;
    build_lib(&l, "inlin", "-O2 -g");
    open_trace(&l, &t, &s);
    uint64_t outer = (uint64_t)(uintptr_t)dlsym(l.h, "outer");
    uint64_t twice = (uint64_t)(uintptr_t)dlsym(l.h, "twice");
    uint64_t sink = (uint64_t)(uintptr_t)dlsym(l.h, "sink");
    assert_int_equal(ttf_sym_inlined_in(s, outer, 500, in, TTF_INLINED_MAX, &n), 0);
    assert_int_equal(n, 2);
    assert_string_equal(in[0].function, "deep");
    assert_int_equal(in[0].depth, 2);
    assert_int_equal(in[0].decl_line, L_DEEP_DECL);
    assert_true(ends_with(in[0].decl_file, "/inlin.c"));
    assert_int_equal(in[0].copies, 1);
    assert_string_equal(in[1].function, "check");
    assert_int_equal(in[1].depth, 1);
    assert_int_equal(in[1].decl_line, L_CHECK_DECL);
    assert_int_equal(in[1].copies, 1);
    /* any address of outer's code: the call inside deep() inside check() */
    assert_int_equal(ttf_sym_inlined_in(s, l.ra[0] - 1, UINT64_MAX, in,
                                        TTF_INLINED_MAX, &n), 0);
    assert_int_equal(n, 2);
    assert_string_equal(in[0].function, "deep");
    /* two copies of check() in twice(): each function once */
    assert_int_equal(ttf_sym_inlined_in(s, twice, 500, in, TTF_INLINED_MAX, &n), 0);
    assert_int_equal(n, 2);
    assert_string_equal(in[0].function, "deep");
    assert_string_equal(in[1].function, "check");
    assert_int_equal(in[1].copies, 2);
    /* capped: the deepest kept */
    assert_int_equal(ttf_sym_inlined_in(s, outer, 500, in, 1, &n), 0);
    assert_int_equal(n, 1);
    assert_string_equal(in[0].function, "deep");
    /* nothing inlined into sink() */
    assert_int_equal(ttf_sym_inlined_in(s, sink, 500, in, TTF_INLINED_MAX, &n), 0);
    assert_int_equal(n, 0);
    ttf_sym_close(s);
    ttf_close(t);
    dlclose(l.h);
}

/* A C++ library: a lambda inlined into apply(). */
static const char cxx_src[] =
    "extern \"C\" __attribute__((noinline)) void sink(int x)\n"   /* 1 */
    "{\n"                                                          /* 2 */
    "    __asm__ volatile(\"\" :: \"r\"(x) : \"memory\");\n"       /* 3 */
    "}\n"                                                          /* 4 */
    "extern \"C\" int apply(int x)\n"                               /* 5 */
    "{\n"                                                          /* 6 */
    "    auto step = [x](int y) {\n"                               /* 7 */
    "        sink(y);\n"                                           /* 8 */
    "        return y * x;\n"                                      /* 9 */
    "    };\n"                                                     /* 10 */
    "    return step(x) + step(x + 1);\n"                          /* 11 */
    "}\n";                                                         /* 12 */
enum { L_LAMBDA = 7 };

static void test_lambda_line(void **state)
{
    struct lib l;
    ttf_trace *t = NULL;
    ttf_sym *s = NULL;
    ttf_inlined in[TTF_INLINED_MAX];
    size_t n = 0;

    (void)state;
    if (system("c++ --version > /dev/null 2>&1") != 0) {
        print_message("no c++: skipped\n");
        skip();
    }
    load_lib(&l, "lam.cc", cxx_src, "c++", "-O2 -g");
    open_trace(&l, &t, &s);
    uint64_t apply = (uint64_t)(uintptr_t)dlsym(l.h, "apply");
    assert_int_equal(ttf_sym_inlined_in(s, apply, 500, in, TTF_INLINED_MAX, &n), 0);
    size_t k = n;
    for (size_t i = 0; i < n; i++)
        if (in[i].function && strstr(in[i].function, "operator()"))
            k = i;
    assert_true(k < n);
    assert_int_equal(in[k].decl_line, L_LAMBDA);
    assert_true(ends_with(in[k].decl_file, "/lam.cc"));
    uint64_t h = 0;
    int last = 0;
    assert_int_equal(ttf_source_hash(in[k].decl_file, in[k].decl_line, &h, &last), 0);
    assert_int_equal(last, L_LAMBDA + 3);
    ttf_sym_close(s);
    ttf_close(t);
    dlclose(l.h);
}

/* No debug info, no module, bad arguments. */
static void test_not_found(void **state)
{
    struct lib l;
    ttf_trace *t = NULL;
    ttf_sym *s = NULL;
    const ttf_inline_frame *fr = NULL;
    size_t n = 7;

    (void)state;
    build_lib(&l, "nodebug", "-O2 -g0");
    open_trace(&l, &t, &s);
    assert_int_equal(ttf_sym_inline(s, l.ra[0] - 1, 500, &fr, &n), TT_ENOTFOUND);
    assert_null(fr);
    assert_int_equal(n, 0);
    assert_int_equal(ttf_sym_inline(s, 0x10, 500, &fr, &n), TT_ENOTFOUND);
    assert_int_equal(ttf_sym_inline(NULL, 0x10, 500, &fr, &n), TT_EINVAL);
    assert_int_equal(ttf_sym_inline(s, 0x10, 500, NULL, &n), TT_EINVAL);
    assert_int_equal(ttf_sym_inline(s, 0x10, 500, &fr, NULL), TT_EINVAL);
    ttf_inlined in[2];
    n = 7;
    assert_int_equal(ttf_sym_inlined_in(s, (uint64_t)(uintptr_t)dlsym(l.h, "outer"), 500,
                                        in, 2, &n), TT_ENOTFOUND);
    assert_int_equal(n, 0);
    assert_int_equal(ttf_sym_inlined_in(s, 0x10, 500, in, 2, &n), TT_ENOTFOUND);
    assert_int_equal(ttf_sym_inlined_in(NULL, 0x10, 500, in, 2, &n), TT_EINVAL);
    assert_int_equal(ttf_sym_inlined_in(s, 0x10, 500, NULL, 2, &n), TT_EINVAL);
    assert_int_equal(ttf_sym_inlined_in(s, 0x10, 500, in, 2, NULL), TT_EINVAL);
    /* the name still resolves through the symbol table */
    assert_string_equal(ttf_sym_name(s, (uint64_t)(uintptr_t)dlsym(l.h, "outer")),
                        "outer");
    ttf_sym_close(s);
    ttf_close(t);
    dlclose(l.h);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_chain),
        cmocka_unit_test(test_inlined_in),
        cmocka_unit_test(test_lambda_line),
        cmocka_unit_test(test_not_found),
    };
    return cmocka_run_group_tests(tests, tu_tmpdir_setup, tu_tmpdir_teardown);
}
