/*
 * test_codediff.c - two builds compared function by function
 * (diff/codediff.c over format/code.c, with the x86-64 decoder of
 * format/x86len.c): one C file compiled in several variants here with cc, as
 * PIE and as a position-dependent executable, each with a one-module trace
 * pointing at it. Checks that exactly the changed function is marked, that
 * a function added above the others (every address moves, string literals
 * too) marks only itself and its caller, that matching build-ids read
 * nothing, that a missing binary gives a note and "unknown", that a
 * function instrumented in one build only is an artifact; and that the
 * decoder's instruction boundaries agree with objdump's on real code.
 */
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "codediff.h"
#include "ttdiff.h"
#include "ttreport.h"
#include "report_util.h"
#include "self_module.h"
#include "tmpdir.h"
#include "ttfmt.h"
#include "x86len.h"

static int trace_no;
static int have_cc;

/* The program compiled in variants: CHANGED edits key_hash's loop, EXTRA
 * adds a function (and a string) above all others, NOINSTR leaves show()
 * uninstrumented. The hooks are stubs, so no libttcap is needed. */
static const char source[] =
    "#include <stdio.h>\n"
    "#define F __attribute__((noipa))\n"
    "#define NI __attribute__((no_instrument_function))\n"
    "NI F void __cyg_profile_func_enter(void *f, void *c) { (void)f; (void)c; }\n"
    "NI F void __cyg_profile_func_exit(void *f, void *c) { (void)f; (void)c; }\n"
    "static int counter;\n"
    "static char buf[64];\n"
    "#ifdef EXTRA\n"
    "F int extra_above(int x) { puts(\"an extra string\"); return x * 7 + counter; }\n"
    "#endif\n"
    "F int key_hash(const char *k)\n"
    "{\n"
    "    unsigned h = 5381;\n"
    "#ifdef CHANGED\n"
    "    for (int i = 0; i < 4 && k[i]; i++) h = h * 33 + (unsigned char)k[i];\n"
    "#else\n"
    "    for (; *k; k++) h = h * 33 + (unsigned char)*k;\n"
    "#endif\n"
    "    return (int)(h % 8);\n"
    "}\n"
    "F int lookup(const char *k) { counter++; return key_hash(k) + counter; }\n"
    "#ifdef NOINSTR\n"
    "NI\n"
    "#endif\n"
    "F void show(const char *k) { snprintf(buf, sizeof buf, \"key %s\", k); puts(buf); }\n"
    "F int table_sum(int n)\n"
    "{\n"
    "    static const int t[] = {1, 2, 3, 5, 8, 13};\n"
    "    int s = 0;\n"
    "    for (int i = 0; i < n && i < 6; i++) s += t[i];\n"
    "    return s;\n"
    "}\n"
    "F int pick(int c)\n"
    "{\n"
    "    switch (c) { case 0: return 11; case 1: return counter; case 2: return 37;\n"
    "    case 3: return 41 + counter; case 4: return 5; default: return -1; }\n"
    "}\n"
    "#ifdef TWINS\n"
    "int other_entry(int x);\n"
    "static __attribute__((noipa)) int helper(int x) { return x + 40; }\n"
    "#endif\n"
    "__attribute__((cold, noinline)) static void die(const char *m, int x)\n"
    "{ fprintf(stderr, \"%s %d\\n\", m, x); }\n"
    "F int checked(int x)\n"
    "{\n"
    "    int r = x * 2;\n"
    "    if (x < 0) {\n"
    "        for (int i = 0; i < 3; i++)\n"
    "            fprintf(stderr, \"negative %d\\n\", x + i);\n"
    "#ifdef COLDMSG\n"
    "        die(\"worse\", x);\n"
    "#else\n"
    "        die(\"bad\", x);\n"
    "#endif\n"
    "    }\n"
    "    return r;\n"
    "}\n"
    "#ifdef MANY\n"
    "#define G(n) F int g##n(int x) { return x + n + counter; }\n"
    "#define G8(n) G(n##0) G(n##1) G(n##2) G(n##3) G(n##4) G(n##5) G(n##6) G(n##7)\n"
    "G8(1) G8(2) G8(3) G8(4) G8(5)\n"
    "#endif\n"
    "int main(int argc, char **argv)\n"
    "{\n"
    "    int r = lookup(argc > 1 ? argv[1] : \"user1\");\n"
    "#ifdef TWINS\n"
    "    r += other_entry(argc) + helper(argc);\n"
    "#endif\n"
    "#ifdef EXTRA\n"
    "    r += extra_above(argc);\n"
    "#endif\n"
    "    show(\"x\");\n"
    "    r += checked(argc);\n"
    "    return r + table_sum(argc) + pick(argc) + printf(\"%d\\n\", counter);\n"
    "}\n";

/* A second file with a static function of the same name as one in
 * source: twins, told apart by their code. */
static const char other[] =
    "static __attribute__((noipa)) int helper(int x) { return x * 5 - 3; }\n"
    "__attribute__((noipa)) int other_entry(int x) { return helper(x) + 1; }\n";

/* A program whose function logged() passes __LINE__ to note(), in files
 * built from this text with PAD (empty, or lines added above logged())
 * and BODY (logged()'s result: an edit of its source). */
static const char lines_src[] =
    "#define F __attribute__((noipa))\n"
    "#define NI __attribute__((no_instrument_function))\n"
    "NI F void __cyg_profile_func_enter(void *f, void *c) { (void)f; (void)c; }\n"
    "NI F void __cyg_profile_func_exit(void *f, void *c) { (void)f; (void)c; }\n"
    "#ifndef BUMP\n"
    "#define BUMP 0\n"
    "#endif\n"
    "static int sum;\n"
    "F void note(int line, int x) { sum += line * %d + x; }\n"
    "%s"
    "F int logged(int x)\n"
    "{\n"
    "    if (x > 3)\n"
    "        note(__LINE__ + BUMP, x);\n"
    "    note(__LINE__, x + 1);\n"
    "    return %s;\n"
    "}\n"
    "int main(int argc, char **argv)\n"
    "{\n"
    "    (void)argv;\n"
    "    return logged(argc) + sum;\n"
    "}\n";

/* A program whose scale() the compiler always inlines into outer() and
 * alpha() (and, untraced, has no symbol of its own: as -pg leaves inlined
 * code), built
 * from this text with scale's and outer's results (an edit of their
 * source); ADD a macro whose value -D can change without a source edit. */
static const char inl_src[] =
    "#define F __attribute__((noipa))\n"
    "#define NI __attribute__((no_instrument_function))\n"
    "NI F void __cyg_profile_func_enter(void *f, void *c) { (void)f; (void)c; }\n"
    "NI F void __cyg_profile_func_exit(void *f, void *c) { (void)f; (void)c; }\n"
    "#ifndef ADD\n"
    "#define ADD 0\n"
    "#endif\n"
    "static inline __attribute__((always_inline)) NI int scale(int x)\n"
    "{\n"
    "    return %s;\n"
    "}\n"
    "F int outer(int x)\n"
    "{\n"
    "    return %s;\n"
    "}\n"
    "F int alpha(int x) { return scale(x + 1) - x; }\n"
    "F int tail(int x) { return x - 1; }\n"
    "int main(int argc, char **argv)\n"
    "{\n"
    "    (void)argv;\n"
    "    return outer(argc) + tail(argc) + (argc > 9 ? alpha(argc) : 0);\n"
    "}\n";

/* A program whose scale() one build calls out of line and the other
 * inlines into outer() (-DINLINE_IT: and has no symbol of its own), built
 * from this text with scale's result (an edit of its source). */
static const char split_src[] =
    "#define F __attribute__((noipa))\n"
    "#define NI __attribute__((no_instrument_function))\n"
    "NI F void __cyg_profile_func_enter(void *f, void *c) { (void)f; (void)c; }\n"
    "NI F void __cyg_profile_func_exit(void *f, void *c) { (void)f; (void)c; }\n"
    "#ifdef INLINE_IT\n"
    "#define HOW static inline __attribute__((always_inline)) NI\n"
    "#else\n"
    "#define HOW static F\n"
    "#endif\n"
    "HOW int scale(int x)\n"
    "{\n"
    "    return %s;\n"
    "}\n"
    "F int outer(int x)\n"
    "{\n"
    "    return scale(x) + 1;\n"
    "}\n"
    "F int tail(int x) { return x - 1; }\n"
    "int main(int argc, char **argv)\n"
    "{\n"
    "    (void)argv;\n"
    "    return outer(argc) + tail(argc);\n"
    "}\n";

/* A program whose walk() holds a nested function step() (GNU C), both
 * inlined into holder() with no symbol of their own, built from this
 * text with step's result and walk's: an edit of step is an edit of
 * walk's text too, walk's own lines the same. */
static const char nest_src[] =
    "#define F __attribute__((noipa))\n"
    "#define NI __attribute__((no_instrument_function))\n"
    "#define AI __attribute__((always_inline)) inline\n"
    "NI F void __cyg_profile_func_enter(void *f, void *c) { (void)f; (void)c; }\n"
    "NI F void __cyg_profile_func_exit(void *f, void *c) { (void)f; (void)c; }\n"
    "int tail(int x);\n"
    "static AI NI int walk(int x)\n"
    "{\n"
    "    NI AI int step(int y)\n"
    "    {\n"
    "        return %s;\n"
    "    }\n"
    "    return %s;\n"
    "}\n"
    "F int holder(int x)\n"
    "{\n"
    "    return walk(x) + 1;\n"
    "}\n"
    "F int tail(int x) { return x - 1; }\n"
    "int main(int argc, char **argv)\n"
    "{\n"
    "    (void)argv;\n"
    "    return holder(argc) + tail(argc);\n"
    "}\n";

/* One build: its binary and build-id. */
struct build {
    char path[512];
    uint8_t id[64];
    size_t idlen;
    int pie;
};

/* Compile source with defs (e.g. "-DCHANGED") into tu_tmpdir/name. */
static int compile(struct build *b, const char *name, const char *defs, int pie)
{
    char cmd[2048];
    snprintf(b->path, sizeof b->path, "%s/%s", tu_tmpdir, name);
    b->pie = pie;
    const char *first = strstr(defs, "-DOTHER_FIRST") ? "other" : "prog";
    const char *second = strstr(defs, "-DTWINS") ? (first[0] == 'o' ? "prog" : "other") : NULL;
    char files[1300];
    snprintf(files, sizeof files, "'%s/%s.c'", tu_tmpdir, first);
    if (second)
        snprintf(files + strlen(files), sizeof files - strlen(files), " '%s/%s.c'",
                 tu_tmpdir, second);
    snprintf(cmd, sizeof cmd,
             "cc -O2 -g -finstrument-functions -fno-plt %s %s -o '%s' %s "
             "-Wl,--build-id 2>/dev/null",
             pie ? "-fPIE -pie" : "-fno-pic -no-pie", defs, b->path, files);
    if (system(cmd) != 0)
        return -1;
    return self_module_file_id(b->path, b->id, &b->idlen);
}

/* A one-thread trace of build b (its only module is the program). */
static ttf_trace *trace_of(const struct build *b)
{
    char path[600];
    ttf_writer *w = NULL;
    ttf_trace *t = NULL;
    const char *argv[] = {b->path};
    uint64_t base = b->pie ? 0x555555554000ull : 0; /* non-PIE: code at 4 MiB up */

    snprintf(path, sizeof path, "%s/t%d.trc", tu_tmpdir, trace_no++);
    assert_int_equal(ttf_writer_open(path, NULL, &w), 0);
    assert_int_equal(ttf_write_process(w, 42, 1, b->path, 1, argv, ""), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 100, 42, "main"), 0);
    assert_int_equal(ttf_write_module(w, 0, 100, base, 1 << 23, b->id, b->idlen,
                                      b->path), 0);
    assert_int_equal(ttf_write_thread_end(w, 0, 1000), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    return t;
}

static struct build b_base[2], b_changed[2], b_extra[2], b_noinstr, b_twins[2],
                    b_coldmsg, b_many[2];

/* lines_src as tu_tmpdir/<name>.c, nine lines added above logged() when
 * moved, logged() returning body, note() multiplying by times; built as
 * build b with defs. 0 or -1. */
static int compile_lines(struct build *b, const char *name, int moved, const char *body,
                         const char *defs, int pie, int times)
{
    char path[600], cmd[4096];
    snprintf(path, sizeof path, "%s/%s.c", tu_tmpdir, name);
    FILE *f = fopen(path, "w");
    if (!f || fprintf(f, lines_src, times, moved ? "/* nine lines\n\n\n\n\n\n\n\n"
                      "   added above */\n" : "", body) < 0 || fclose(f) != 0)
        return -1;
    snprintf(b->path, sizeof b->path, "%s/%s", tu_tmpdir, name);
    b->pie = pie;
    snprintf(cmd, sizeof cmd, "cc -O2 -g -finstrument-functions -fno-plt %s %s -o '%s' '%s' "
             "-Wl,--build-id 2>/dev/null", pie ? "-fPIE -pie" : "-fno-pic -no-pie", defs,
             b->path, path);
    if (system(cmd) != 0)
        return -1;
    return self_module_file_id(b->path, b->id, &b->idlen);
}

/* Template tmpl (its %s: body, then body2 when it has two) as
 * tu_tmpdir/<name>.c, built PIE as build b with defs. 0 or -1. */
static int compile_tmpl(struct build *b, const char *tmpl, const char *name, const char *body,
                        const char *body2, const char *defs)
{
    char path[600], cmd[4096];
    snprintf(path, sizeof path, "%s/%s.c", tu_tmpdir, name);
    FILE *f = fopen(path, "w");
    if (!f || fprintf(f, tmpl, body, body2) < 0 || fclose(f) != 0)
        return -1;
    snprintf(b->path, sizeof b->path, "%s/%s", tu_tmpdir, name);
    b->pie = 1;
    snprintf(cmd, sizeof cmd, "cc -O2 -g -finstrument-functions -fno-plt -fPIE -pie %s -o '%s' "
             "'%s' -Wl,--build-id 2>/dev/null", defs, b->path, path);
    if (system(cmd) != 0)
        return -1;
    return self_module_file_id(b->path, b->id, &b->idlen);
}

/* inl_src as tu_tmpdir/<name>.c with scale returning sbody and outer
 * obody, built PIE as build b with defs. 0 or -1. */
static int compile_inl(struct build *b, const char *name, const char *sbody, const char *obody,
                       const char *defs)
{
    return compile_tmpl(b, inl_src, name, sbody, obody, defs);
}

static int setup_all(void **state)
{
    char path[600];
    (void)state;
    if (tu_tmpdir_setup(state))
        return -1;
    snprintf(path, sizeof path, "%s/prog.c", tu_tmpdir);
    FILE *f = fopen(path, "w");
    if (!f || fputs(source, f) < 0 || fclose(f) != 0)
        return -1;
    snprintf(path, sizeof path, "%s/other.c", tu_tmpdir);
    f = fopen(path, "w");
    if (!f || fputs(other, f) < 0 || fclose(f) != 0)
        return -1;
    have_cc = system("cc --version >/dev/null 2>&1") == 0;
    for (int pie = 0; have_cc && pie < 2; pie++) {
        const char *sfx[2] = {"_nopie", "_pie"};
        char n[64];
        snprintf(n, sizeof n, "base%s", sfx[pie]);
        have_cc &= compile(&b_base[pie], n, "", pie) == 0;
        snprintf(n, sizeof n, "changed%s", sfx[pie]);
        have_cc &= compile(&b_changed[pie], n, "-DCHANGED", pie) == 0;
        snprintf(n, sizeof n, "extra%s", sfx[pie]);
        have_cc &= compile(&b_extra[pie], n, "-DEXTRA", pie) == 0;
    }
    if (have_cc)
        have_cc &= compile(&b_noinstr, "noinstr_pie", "-DNOINSTR", 1) == 0;
    if (have_cc)
        have_cc &= compile(&b_coldmsg, "coldmsg_pie", "-DCOLDMSG", 1) == 0;
    if (have_cc)
        have_cc &= compile(&b_many[0], "many_pie", "-DMANY", 1) == 0 &&
                   compile(&b_many[1], "many_changed_pie", "-DMANY -DCHANGED", 1) == 0;
    if (have_cc)
        have_cc &= compile(&b_twins[0], "twins_a", "-DTWINS", 1) == 0 &&
                   compile(&b_twins[1], "twins_b", "-DTWINS -DOTHER_FIRST", 1) == 0;
    return 0;
}

static int teardown_all(void **state)
{
    return tu_tmpdir_teardown(state);
}

/* Diff build g against build b; the changes as "status:function ..." */
static struct ttdi_codediff *diff(const struct build *g, const struct build *b,
                                  char *list, size_t len)
{
    ttf_trace *tg = trace_of(g), *tb = trace_of(b);
    struct ttdi_codediff *cd = NULL;
    size_t k = 0;
    assert_int_equal(ttdi_codediff_open(&cd, tg, tb), 0);
    list[0] = 0;
    for (size_t i = 0; i < ttdi_codediff_count(cd); i++) {
        const struct ttdi_code_change *c = ttdi_codediff_get(cd, i);
        k += (size_t)snprintf(list + k, len - k, "%s%d:%s", i ? " " : "",
                              c->status, c->function);
        assert_true(k < len);
    }
    ttf_close(tg);
    ttf_close(tb);
    return cd;
}

static void skip_without_cc(void)
{
    if (!have_cc) {
        print_message("no cc: skipped\n");
        skip();
    }
}

/* The traced address of function name in build b's trace t (PIE). */
static uint64_t fn_addr(ttf_trace *t, const char *name)
{
    ttf_sym *sym = NULL;
    const ttf_code_info *ci = NULL;
    uint64_t a = 0;
    assert_int_equal(ttf_sym_open(t, &sym), 0);
    assert_int_equal(ttf_sym_code(sym, 0, &ci), 0);
    for (size_t i = 0; i < ci->nfuncs && !a; i++)
        if (strcmp(ci->funcs[i].name, name) == 0)
            a = ci->funcs[i].addr + ci->bias;
    ttf_sym_close(sym);
    assert_true(a != 0);
    return a;
}

/* A plain trace of build b: main calls key_hash, then g10..g57 (40
 * functions), then `last`; returns its path. */
static const char *calls_trace(const struct build *b, const char *last, char *path,
                               size_t len)
{
    ttf_trace *t = trace_of(b);
    ttf_writer *w = NULL;
    const char *argv[] = {b->path};
    uint64_t tsc = 200, m = fn_addr(t, "main");
    char g[16];

    snprintf(path, len, "%s/t%d.trc", tu_tmpdir, trace_no++);
    assert_int_equal(ttf_writer_open(path, NULL, &w), 0);
    assert_int_equal(ttf_write_process(w, 42, 1, b->path, 1, argv, ""), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 100, 42, "main"), 0);
    assert_int_equal(ttf_write_module(w, 0, 100, 0x555555554000ull, 1 << 22, b->id, b->idlen,
                                      b->path), 0);
    assert_int_equal(ttf_write_enter(w, 0, tsc++, m), 0);
    for (int i = -1; i < 41; i++) {
        if (i >= 0)
            snprintf(g, sizeof g, "g%d", 10 + (i / 8) * 10 + i % 8);
        uint64_t a = fn_addr(t, i < 0 ? "key_hash" : i == 40 ? last : g);
        assert_int_equal(ttf_write_enter(w, 0, tsc++, a), 0);
        assert_int_equal(ttf_write_exit(w, 0, tsc++, a), 0);
    }
    assert_int_equal(ttf_write_exit(w, 0, tsc++, m), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    ttf_close(t);
    return path;
}

/* The code that changed and ran before the split is a suspect however
 * many other functions returned after it (40 here, more than the suspects
 * looked at by position), and it ranks first on code_changed evidence. */
static void test_changed_ran(void **state)
{
    char gp[600], bp[600];
    ttd_options o;
    ttd_diff *d = NULL;
    ttf_error err;
    (void)state;
    skip_without_cc();
    ttd_options_init(&o);
    o.suspects = 3;
    calls_trace(&b_many[0], "show", gp, sizeof gp);
    calls_trace(&b_many[1], "checked", bp, sizeof bp);
    assert_int_equal(ttd_diff_files(gp, bp, &o, &d, &err), 0);
    const ttd_divergence *dv = ttd_get_result(d)->first;
    assert_non_null(dv);
    assert_string_equal(dv->stack[dv->nstack - 1].name, "main");
    assert_string_equal(dv->suspects[0].name, "key_hash");
    int code = 0;
    for (size_t k = 0; k < dv->suspects[0].nevidence; k++)
        code |= dv->suspects[0].evidence[k].kind == TTD_EV_CODE;
    assert_true(code);
    ttd_free(d);
}

/* A two-thread trace of build b: main{ lookup{} } and a worker whose
 * key_hash runs table_sum `iters` times, each followed by a condition
 * wait that blocked (WAIT, WOKE 30 us later): a wait loop. */
static const char *wait_trace(const struct build *b, int iters, char *path, size_t len)
{
    ttf_trace *t = trace_of(b);
    ttf_writer *w = NULL;
    const char *argv[] = {b->path};
    uint64_t m = fn_addr(t, "main"), lk = fn_addr(t, "lookup");
    uint64_t kh = fn_addr(t, "key_hash"), ts = fn_addr(t, "table_sum"), tsc = 200;

    snprintf(path, len, "%s/t%d.trc", tu_tmpdir, trace_no++);
    assert_int_equal(ttf_writer_open(path, NULL, &w), 0);
    assert_int_equal(ttf_write_process(w, 42, 1, b->path, 1, argv, ""), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 100, 42, "main"), 0);
    assert_int_equal(ttf_write_thread_start(w, 1, 110, 43, "worker"), 0);
    assert_int_equal(ttf_write_module(w, 0, 100, 0x555555554000ull, 1 << 22, b->id, b->idlen,
                                      b->path), 0);
    assert_int_equal(ttf_write_enter(w, 0, tsc++, m), 0);
    assert_int_equal(ttf_write_enter(w, 0, tsc++, lk), 0);
    assert_int_equal(ttf_write_exit(w, 0, tsc++, lk), 0);
    assert_int_equal(ttf_write_exit(w, 0, tsc++, m), 0);
    assert_int_equal(ttf_write_enter(w, 1, tsc++, kh), 0);
    for (int i = 0; i < iters; i++) {
        assert_int_equal(ttf_write_enter(w, 1, tsc++, ts), 0);
        assert_int_equal(ttf_write_exit(w, 1, tsc++, ts), 0);
        assert_int_equal(ttf_write_sync_op(w, 1, tsc++, TTF_SOP_WAIT, 0x7000, 0x7100), 0);
        tsc += 30000;
        assert_int_equal(ttf_write_sync_op(w, 1, tsc++, TTF_SOP_WOKE, 0x7000, 0), 0);
    }
    assert_int_equal(ttf_write_enter(w, 1, tsc++, ts), 0);
    assert_int_equal(ttf_write_exit(w, 1, tsc++, ts), 0);
    assert_int_equal(ttf_write_exit(w, 1, tsc++, kh), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    ttf_close(t);
    return path;
}

/* A wait loop that ran more times is timing in one build; between two
 * builds whose difference is the loop's own function (key_hash changed:
 * pbzip2's fileWriter with its wait predicate got wrong), it is a
 * divergence: the changed code may decide how often it waits. */
static void test_changed_wait_loop(void **state)
{
    char gp[600], bp[600];
    ttd_diff *d = NULL;
    ttf_error err;
    (void)state;
    skip_without_cc();
    wait_trace(&b_base[1], 2, gp, sizeof gp);
    wait_trace(&b_base[1], 4, bp, sizeof bp);
    assert_int_equal(ttd_diff_files(gp, bp, NULL, &d, &err), 0);
    const ttd_result *r = ttd_get_result(d);
    assert_false(r->diverged);
    assert_true(r->timing_total >= 1);
    ttd_free(d);
    wait_trace(&b_changed[1], 4, bp, sizeof bp);
    assert_int_equal(ttd_diff_files(gp, bp, NULL, &d, &err), 0);
    r = ttd_get_result(d);
    assert_true(r->diverged);
    assert_non_null(r->first);
    assert_string_equal(r->first->stack[r->first->nstack - 1].name, "key_hash");
    ttd_free(d);
}

/* One function's loop changed: that function and nothing else. */
static void test_one_changed(void **state)
{
    char list[1024];
    (void)state;
    skip_without_cc();
    for (int pie = 0; pie < 2; pie++) {
        struct ttdi_codediff *cd = diff(&b_base[pie], &b_changed[pie], list, sizeof list);
        assert_string_equal(list, "1:key_hash");
        assert_int_equal(ttdi_codediff_changed(cd, "key_hash"), 1);
        assert_int_equal(ttdi_codediff_changed(cd, "lookup"), 0);
        assert_int_equal(ttdi_codediff_changed(cd, "main"), 0);
        assert_int_equal(ttdi_codediff_changed(cd, "printf"), 0);
        assert_int_equal(ttdi_codediff_artifact(cd, "key_hash"), 0);
        assert_true(ttdi_codediff_compared(cd) >= 7);
        assert_int_equal(ttdi_codediff_note_count(cd), 0);
        ttdi_codediff_free(cd);
    }
}

/* A function added above the others moves every address (code, string
 * literals, data): only it (added) and its caller main (changed) differ. */
static void test_moved(void **state)
{
    char list[1024];
    (void)state;
    skip_without_cc();
    for (int pie = 0; pie < 2; pie++) {
        struct ttdi_codediff *cd = diff(&b_base[pie], &b_extra[pie], list, sizeof list);
        assert_string_equal(list, "1:main 2:extra_above");
        assert_int_equal(ttdi_codediff_changed(cd, "extra_above"), 1);
        assert_int_equal(ttdi_codediff_changed(cd, "show"), 0);
        assert_int_equal(ttdi_codediff_changed(cd, "table_sum"), 0);
        ttdi_codediff_free(cd);
        /* and the other way round: removed */
        cd = diff(&b_extra[pie], &b_base[pie], list, sizeof list);
        assert_string_equal(list, "1:main 3:extra_above");
        ttdi_codediff_free(cd);
    }
}

/* Same build-id: nothing read, nothing changed, every function "same". */
static void test_same_build(void **state)
{
    char list[64];
    (void)state;
    skip_without_cc();
    struct ttdi_codediff *cd = diff(&b_base[1], &b_base[1], list, sizeof list);
    assert_string_equal(list, "");
    assert_int_equal(ttdi_codediff_count(cd), 0);
    assert_int_equal(ttdi_codediff_compared(cd), 0);
    assert_int_equal(ttdi_codediff_note_count(cd), 0);
    assert_int_equal(ttdi_codediff_changed(cd, "key_hash"), 0);
    ttdi_codediff_free(cd);
}

/* The good run's binary is gone (and no copy by build-id): a note, and
 * every function unknown. */
static void test_missing(void **state)
{
    char list[64], path[600];
    struct build gone;
    (void)state;
    skip_without_cc();
    assert_int_equal(compile(&gone, "gone_pie", "-DCHANGED -DEXTRA", 1), 0);
    ttf_trace *tg = trace_of(&gone), *tb = trace_of(&b_base[1]);
    snprintf(path, sizeof path, "%s", gone.path);
    assert_int_equal(unlink(path), 0);
    struct ttdi_codediff *cd = NULL;
    assert_int_equal(ttdi_codediff_open(&cd, tg, tb), 0);
    assert_int_equal(ttdi_codediff_count(cd), 0);
    assert_int_equal(ttdi_codediff_changed(cd, "key_hash"), -1);
    assert_true(ttdi_codediff_note_count(cd) >= 1);
    assert_non_null(strstr(ttdi_codediff_note(cd, 0), "not found"));
    ttdi_codediff_free(cd);
    ttf_close(tg);
    ttf_close(tb);
    (void)list;
}

/* show() instrumented in one build only: changed, and an artifact. */
static void test_artifact(void **state)
{
    char list[256];
    (void)state;
    skip_without_cc();
    struct ttdi_codediff *cd = diff(&b_base[1], &b_noinstr, list, sizeof list);
    assert_string_equal(list, "1:show");
    assert_int_equal(ttdi_codediff_artifact(cd, "show"), 1);
    assert_int_equal(ttdi_codediff_artifact(cd, "lookup"), 0);
    ttdi_codediff_free(cd);
}

/* Two static functions named helper in two files, linked in the other
 * order (their addresses swap): paired by their code, nothing changed. */
static void test_twins(void **state)
{
    char list[256];
    (void)state;
    skip_without_cc();
    struct ttdi_codediff *cd = diff(&b_twins[0], &b_twins[1], list, sizeof list);
    assert_string_equal(list, "");
    assert_int_equal(ttdi_codediff_changed(cd, "helper"), 0);
    assert_true(ttdi_codediff_compared(cd) >= 9);
    ttdi_codediff_free(cd);
}

/* logged() moved nine lines down its file (a comment added above it):
 * its source is the same and its code differs only in the two __LINE__
 * it passes, each nine more: the same code, nothing changed. Must not
 * fire: a line constant moved by another amount than the function (the
 * source the same, a macro from the command line bumps it), and an edit
 * of its source (also moved nine lines). PIE and position-dependent. */
static void test_lines_moved(void **state)
{
    char list[256], n[64];
    struct build b[4];
    static const char *const names[4] = {"lines_a", "lines_moved", "lines_bump", "lines_edit"};
    (void)state;
    skip_without_cc();
    for (int pie = 0; pie < 2; pie++) {
        for (int i = 0; i < 4; i++) {
            snprintf(n, sizeof n, "%s%d", names[i], pie);
            assert_int_equal(compile_lines(&b[i], n, i > 0, i == 3 ? "x * 3 + 1" : "x * 2 + 1",
                                           i == 2 ? "-DBUMP=1" : "", pie, 3), 0);
        }
        struct ttdi_codediff *cd = diff(&b[0], &b[1], list, sizeof list);
        assert_string_equal(list, "");
        assert_int_equal(ttdi_codediff_changed(cd, "logged"), 0);
        assert_int_equal(ttdi_codediff_lines_moved(cd), 1);
        ttdi_codediff_free(cd);
        cd = diff(&b[0], &b[2], list, sizeof list);
        assert_string_equal(list, "1:logged");
        assert_int_equal(ttdi_codediff_source(cd, "logged"), TTDI_SRC_SAME);
        assert_int_equal(ttdi_codediff_lines_moved(cd), 0);
        ttdi_codediff_free(cd);
        cd = diff(&b[0], &b[3], list, sizeof list);
        assert_string_equal(list, "1:logged");
        assert_int_equal(ttdi_codediff_source(cd, "logged"), TTDI_SRC_CHANGED);
        assert_int_equal(ttdi_codediff_lines_moved(cd), 0);
        ttdi_codediff_free(cd);
    }
}

/* The one changed source (ttdi_codediff_source_one): logged()'s source
 * edited: logged; note()'s source edited too: two sources, none. A
 * changed function whose source is the same (a -D macro) is no changed
 * source: none. */
static void test_source_one(void **state)
{
    char list[256];
    struct build a, edit, both, bump;
    (void)state;
    skip_without_cc();
    assert_int_equal(compile_lines(&a, "one_a", 0, "x * 2 + 1", "", 1, 3), 0);
    assert_int_equal(compile_lines(&edit, "one_edit", 0, "x * 3 + 1", "", 1, 3), 0);
    assert_int_equal(compile_lines(&both, "one_both", 0, "x * 3 + 1", "", 1, 5), 0);
    assert_int_equal(compile_lines(&bump, "one_bump", 0, "x * 2 + 1", "-DBUMP=1", 1, 3), 0);
    struct ttdi_codediff *cd = diff(&a, &edit, list, sizeof list);
    assert_string_equal(list, "1:logged");
    assert_int_equal(ttdi_codediff_source_one(cd), 0);
    ttdi_codediff_free(cd);
    cd = diff(&a, &both, list, sizeof list);
    assert_string_equal(list, "1:logged 1:note");
    assert_int_equal(ttdi_codediff_source_one(cd), SIZE_MAX);
    ttdi_codediff_free(cd);
    cd = diff(&a, &bump, list, sizeof list);
    assert_string_equal(list, "1:logged");
    assert_int_equal(ttdi_codediff_source_one(cd), SIZE_MAX);
    ttdi_codediff_free(cd);
}

/* scale()'s source edited: only alpha() and outer(), where it is inlined,
 * changed in code, their own source the same: the change is scale's,
 * sitting in them (ttdi_codediff_inlined_one: the first, alpha;
 * ttdi_codediff_inlined_at each). Not when outer's source changed too
 * (an out-of-line source changed: that one), nor when only a -D macro
 * changed scale's result (no source changed). */
static void test_inlined_one(void **state)
{
    char list[256];
    struct build a, edit, both, macro;
    const char *callee = "x";
    (void)state;
    skip_without_cc();
    assert_int_equal(compile_inl(&a, "inl_a", "x * 3 + ADD", "scale(x) + 1", ""), 0);
    assert_int_equal(compile_inl(&edit, "inl_edit", "x * 5 + ADD", "scale(x) + 1", ""), 0);
    assert_int_equal(compile_inl(&both, "inl_both", "x * 5 + ADD", "scale(x) + 2", ""), 0);
    assert_int_equal(compile_inl(&macro, "inl_macro", "x * 3 + ADD", "scale(x) + 1", "-DADD=2"),
                     0);
    struct ttdi_codediff *cd = diff(&a, &edit, list, sizeof list);
    assert_string_equal(list, "1:alpha 1:outer");
    assert_int_equal(ttdi_codediff_source(cd, "outer"), TTDI_SRC_SAME);
    assert_int_equal(ttdi_codediff_source_one(cd), SIZE_MAX);
    assert_int_equal(ttdi_codediff_inlined_one(cd, &callee), 0);
    assert_string_equal(callee, "scale");
    assert_string_equal(ttdi_codediff_inlined_at(cd, "outer"), "scale");
    assert_null(ttdi_codediff_inlined_at(cd, "tail"));
    ttdi_codediff_free(cd);
    cd = diff(&a, &both, list, sizeof list);
    assert_string_equal(list, "1:alpha 1:outer");
    assert_int_equal(ttdi_codediff_inlined_one(cd, &callee), SIZE_MAX);
    assert_null(callee);
    assert_null(ttdi_codediff_inlined_at(cd, "outer"));
    ttdi_codediff_free(cd);
    cd = diff(&a, &macro, list, sizeof list);
    assert_string_equal(list, "1:alpha 1:outer");
    assert_int_equal(ttdi_codediff_inlined_one(cd, &callee), SIZE_MAX);
    ttdi_codediff_free(cd);
}

/* scale()'s source edited and inlined into outer() in the bad build
 * only: outer's code changed, its source did not, scale is gone; the
 * change is scale's, compared with the good build's own copy of it (a
 * function of its own: ttdi_codediff_inlined_own). The other way round
 * (inlined in the good build only) likewise; inlined in one build only
 * with its source the same: no source changed. */
static void test_inlined_split(void **state)
{
    char list[256];
    struct build a, edit, same;
    const char *callee = "x";
    (void)state;
    skip_without_cc();
    assert_int_equal(compile_tmpl(&a, split_src, "split_a", "x * 3", NULL, ""), 0);
    assert_int_equal(compile_tmpl(&edit, split_src, "split_edit", "x * 5", NULL, "-DINLINE_IT"), 0);
    assert_int_equal(compile_tmpl(&same, split_src, "split_same", "x * 3", NULL, "-DINLINE_IT"), 0);
    struct ttdi_codediff *cd = diff(&a, &edit, list, sizeof list);
    assert_string_equal(list, "1:outer 3:scale");
    assert_int_equal(ttdi_codediff_source(cd, "outer"), TTDI_SRC_SAME);
    assert_int_equal(ttdi_codediff_inlined_one(cd, &callee), 0);
    assert_string_equal(callee, "scale");
    assert_string_equal(ttdi_codediff_inlined_at(cd, "outer"), "scale");
    assert_int_equal(ttdi_codediff_inlined_own(cd, "scale"), 1);
    ttdi_codediff_free(cd);
    cd = diff(&edit, &a, list, sizeof list);
    assert_string_equal(list, "1:outer 2:scale");
    assert_int_equal(ttdi_codediff_inlined_one(cd, &callee), 0);
    assert_string_equal(callee, "scale");
    ttdi_codediff_free(cd);
    cd = diff(&a, &same, list, sizeof list);
    assert_string_equal(list, "1:outer 3:scale");
    assert_int_equal(ttdi_codediff_inlined_one(cd, &callee), SIZE_MAX);
    assert_null(callee);
    ttdi_codediff_free(cd);
}

/* step(), nested in walk()'s text, edited; both inlined into holder():
 * walk's source differs only by step's lines, so the change is step's,
 * the innermost changed scope (no symbol of its own). An edit of walk's
 * own lines as well: two sources changed, no one callee. */
static void test_inlined_nested(void **state)
{
    char list[256];
    struct build a, edit;
    const char *callee = "x";
    (void)state;
    skip_without_cc();
    const char *w = "step(x) + step(x + 1)";
    assert_int_equal(compile_tmpl(&a, nest_src, "nest_a", "tail(y) * 3", w, ""), 0);
    assert_int_equal(compile_tmpl(&edit, nest_src, "nest_edit", "tail(y) * 5", w, ""), 0);
    struct ttdi_codediff *cd = diff(&a, &edit, list, sizeof list);
    assert_string_equal(list, "1:holder");
    assert_int_equal(ttdi_codediff_inlined_one(cd, &callee), 0);
    assert_string_equal(callee, "step");
    assert_int_equal(ttdi_codediff_inlined_own(cd, "step"), 0);
    ttdi_codediff_free(cd);
    struct build both;
    assert_int_equal(compile_tmpl(&both, nest_src, "nest_both", "tail(y) * 5", "step(x) - step(x + 1)",
                                  ""), 0);
    cd = diff(&a, &both, list, sizeof list);
    assert_string_equal(list, "1:holder");
    assert_int_equal(ttdi_codediff_inlined_one(cd, &callee), SIZE_MAX);
    ttdi_codediff_free(cd);
}

/* A trace of inl_src's (or split_src's) build b: main{ outer{} tail{} },
 * outer calling function `inner` when not NULL, and outer once more after
 * tail when twice. */
static const char *inl_trace(const struct build *b, const char *inner, int twice, char *path,
                             size_t len)
{
    ttf_trace *t = trace_of(b);
    ttf_writer *w = NULL;
    const char *argv[] = {b->path};
    uint64_t m = fn_addr(t, "main"), o = fn_addr(t, "outer"), tl = fn_addr(t, "tail"), tsc = 200;
    uint64_t in = inner ? fn_addr(t, inner) : 0;

    snprintf(path, len, "%s/t%d.trc", tu_tmpdir, trace_no++);
    assert_int_equal(ttf_writer_open(path, NULL, &w), 0);
    assert_int_equal(ttf_write_process(w, 42, 1, b->path, 1, argv, ""), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 100, 42, "main"), 0);
    assert_int_equal(ttf_write_module(w, 0, 100, 0x555555554000ull, 1 << 22, b->id, b->idlen,
                                      b->path), 0);
    assert_int_equal(ttf_write_enter(w, 0, tsc++, m), 0);
    assert_int_equal(ttf_write_enter(w, 0, tsc++, o), 0);
    if (in) {
        assert_int_equal(ttf_write_enter(w, 0, tsc++, in), 0);
        assert_int_equal(ttf_write_exit(w, 0, tsc++, in), 0);
    }
    assert_int_equal(ttf_write_exit(w, 0, tsc++, o), 0);
    assert_int_equal(ttf_write_enter(w, 0, tsc++, tl), 0);
    assert_int_equal(ttf_write_exit(w, 0, tsc++, tl), 0);
    if (twice) {
        assert_int_equal(ttf_write_enter(w, 0, tsc++, o), 0);
        assert_int_equal(ttf_write_exit(w, 0, tsc++, o), 0);
    }
    assert_int_equal(ttf_write_exit(w, 0, tsc++, m), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    ttf_close(t);
    return path;
}

/* The verdict of two builds whose only source change is scale's, inlined
 * into alpha and outer: the code of scale changed, inlined into outer
 * (where it sits: outer ran and returned right before the split, alpha
 * never ran, though it comes first), in text, JSON and HTML; with outer's
 * own source changed too, outer's code alone. */
static void test_inlined_verdict(void **state)
{
    char gp[600], bp[600];
    struct build a, edit, both;
    ttd_diff *d = NULL;
    ttf_error err;
    ttr_options ro;
    (void)state;
    skip_without_cc();
    assert_int_equal(compile_inl(&a, "inlv_a", "x * 3 + ADD", "scale(x) + 1", ""), 0);
    assert_int_equal(compile_inl(&edit, "inlv_edit", "x * 5 + ADD", "scale(x) + 1", ""), 0);
    assert_int_equal(compile_inl(&both, "inlv_both", "x * 5 + ADD", "scale(x) + 2", ""), 0);
    inl_trace(&a, NULL, 0, gp, sizeof gp);
    inl_trace(&edit, NULL, 1, bp, sizeof bp);
    assert_int_equal(ttd_diff_files(gp, bp, NULL, &d, &err), 0);
    const ttd_verdict *v = ttd_get_result(d)->verdict;
    assert_non_null(v->cause);
    assert_int_equal(v->cause->kind, TTD_COF_CODE);
    assert_string_equal(v->cause->function, "outer");
    assert_non_null(v->cause->inlined);
    assert_string_equal(v->cause->inlined, "scale");
    ttr_options_init(&ro);
    char *text = tu_report(d, ttr_text, &ro, NULL);
    assert_non_null(strstr(text, "cause: the code of `scale` changed (inlined into `outer`)"));
    assert_non_null(strstr(text, "`scale`'s source differs between the two builds, the only "
                                 "source that does; the compiler inlined it into `outer`"));
    char *json = tu_report(d, ttr_json, &ro, NULL);
    assert_non_null(strstr(json, "\"inlined\": \"scale\""));
    char *html = tu_report(d, ttr_html, &ro, NULL);
    assert_non_null(strstr(html, "cause: the code of `scale` changed (inlined into `outer`)</p>"));
    free(text);
    free(json);
    free(html);
    ttd_free(d);
    inl_trace(&both, NULL, 1, bp, sizeof bp);
    assert_int_equal(ttd_diff_files(gp, bp, NULL, &d, &err), 0);
    v = ttd_get_result(d)->verdict;
    assert_non_null(v->cause);
    assert_string_equal(v->cause->function, "outer");
    assert_null(v->cause->inlined);
    ttd_free(d);
}

/* The verdict of two builds whose only source change is scale's, which
 * the good build calls out of line and the bad one inlines into outer:
 * scale is a function of its own, named itself ("the code of `scale`
 * changed", no "inlined into"), in text and JSON. */
static void test_inlined_own_verdict(void **state)
{
    char gp[600], bp[600];
    struct build a, edit;
    ttd_diff *d = NULL;
    ttf_error err;
    ttr_options ro;
    (void)state;
    skip_without_cc();
    assert_int_equal(compile_tmpl(&a, split_src, "splitv_a", "x * 3", NULL, ""), 0);
    assert_int_equal(compile_tmpl(&edit, split_src, "splitv_edit", "x * 5", NULL, "-DINLINE_IT"),
                     0);
    inl_trace(&a, "scale", 0, gp, sizeof gp);
    inl_trace(&edit, NULL, 0, bp, sizeof bp);
    assert_int_equal(ttd_diff_files(gp, bp, NULL, &d, &err), 0);
    const ttd_verdict *v = ttd_get_result(d)->verdict;
    assert_non_null(v->cause);
    assert_int_equal(v->cause->kind, TTD_COF_CODE);
    assert_string_equal(v->cause->function, "scale");
    assert_null(v->cause->inlined);
    ttr_options_init(&ro);
    char *text = tu_report(d, ttr_text, &ro, NULL);
    assert_non_null(strstr(text, "cause: the code of `scale` changed\n"));
    assert_non_null(strstr(text, "a function of its own, the compiler inlined it into `outer`"));
    char *json = tu_report(d, ttr_json, &ro, NULL);
    assert_non_null(strstr(json, "\"function\": \"scale\""));
    free(text);
    free(json);
    ttd_free(d);
}

/* Only the message checked() passes to die() on its cold path changed:
 * gcc put that call in checked.cold, which is listed; checked counts as
 * changed through it. */
static void test_cold(void **state)
{
    char list[256];
    (void)state;
    skip_without_cc();
    struct ttdi_codediff *cd = diff(&b_base[1], &b_coldmsg, list, sizeof list);
    if (strcmp(list, "1:checked") == 0) {
        ttdi_codediff_free(cd);
        print_message("gcc made no checked.cold: skipped\n");
        skip();
    }
    assert_string_equal(list, "1:checked.cold");
    assert_int_equal(ttdi_codediff_changed(cd, "checked.cold"), 1);
    assert_int_equal(ttdi_codediff_changed(cd, "checked"), 1);
    assert_int_equal(ttdi_codediff_changed(cd, "die"), 0);
    ttdi_codediff_free(cd);
}

static void test_errors(void **state)
{
    struct ttdi_codediff *cd = (void *)1;
    (void)state;
    assert_int_equal(ttdi_codediff_open(&cd, NULL, NULL), TT_EINVAL);
    assert_null(cd);
    assert_int_equal(ttdi_codediff_open(NULL, NULL, NULL), TT_EINVAL);
    assert_int_equal(ttdi_codediff_count(NULL), 0);
    assert_null(ttdi_codediff_get(NULL, 0));
    assert_int_equal(ttdi_codediff_changed(NULL, "x"), 0);
    ttdi_codediff_free(NULL);
}

/* Hand-made instructions: lengths and fields. */
static void test_decoder_fields(void **state)
{
    struct ttfi_insn in;
    static const uint8_t call[] = {0xe8, 1, 2, 3, 4};
    static const uint8_t lea_rip[] = {0x48, 0x8d, 0x3d, 0x10, 0, 0, 0};
    static const uint8_t movabs[] = {0x48, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8};
    static const uint8_t nopw[] = {0x66, 0x2e, 0x0f, 0x1f, 0x84, 0, 0, 0, 0, 0};
    static const uint8_t jcc8[] = {0x75, 0xfe};
    static const uint8_t vex3[] = {0xc4, 0xe3, 0x79, 0x16, 0xc0, 0x01}; /* vpextrd */
    static const uint8_t evex[] = {0x62, 0xf1, 0x7c, 0x48, 0x10, 0x44, 0x24, 0x01};
    static const uint8_t test_imm[] = {0xf6, 0x05, 1, 0, 0, 0, 0x80}; /* testb $,rip */
    static const uint8_t bad[] = {0x06};
    (void)state;
    assert_int_equal(ttfi_x86_decode(call, sizeof call, &in), 0);
    assert_true(in.len == 5 && in.branch && in.imm_off == 1 && in.imm_len == 4);
    assert_int_equal(ttfi_x86_decode(lea_rip, sizeof lea_rip, &in), 0);
    assert_true(in.len == 7 && in.riprel && in.disp_off == 3 && in.disp_len == 4);
    assert_int_equal(ttfi_x86_decode(movabs, sizeof movabs, &in), 0);
    assert_true(in.len == 10 && in.imm_len == 8 && !in.branch);
    assert_int_equal(ttfi_x86_decode(nopw, sizeof nopw, &in), 0);
    assert_true(in.len == 10 && in.nop);
    assert_int_equal(ttfi_x86_decode(jcc8, sizeof jcc8, &in), 0);
    assert_true(in.len == 2 && in.branch && in.imm_len == 1);
    assert_int_equal(ttfi_x86_decode(vex3, sizeof vex3, &in), 0);
    assert_int_equal(in.len, 6);
    assert_int_equal(ttfi_x86_decode(evex, sizeof evex, &in), 0);
    assert_int_equal(in.len, 8);
    assert_int_equal(ttfi_x86_decode(test_imm, sizeof test_imm, &in), 0);
    assert_true(in.len == 7 && in.riprel && in.imm_len == 1);
    assert_int_equal(ttfi_x86_decode(bad, sizeof bad, &in), -1);
    assert_int_equal(ttfi_x86_decode(call, 3, &in), -1); /* cut short */
}

/* Every instruction boundary objdump prints for a real file's .text is one
 * the decoder finds walking from each function's start, and vice versa. */
static void check_boundaries(const char *file)
{
    char cmd[1024], line[512];
    snprintf(cmd, sizeof cmd, "objdump -d --no-show-raw-insn -j .text '%s' 2>/dev/null", file);
    FILE *p = popen(cmd, "r");
    unsigned long long start = 0, addr, prev = 0, checked = 0;
    int in_func = 0;
    int fd = open(file, O_RDONLY);
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    Elf_Scn *scn = NULL;
    GElf_Shdr sh, text = {0};
    const uint8_t *bytes = NULL;
    size_t strndx;
    assert_non_null(p);
    assert_non_null(e);
    elf_getshdrstrndx(e, &strndx);
    while ((scn = elf_nextscn(e, scn)))
        if (gelf_getshdr(scn, &sh) && strcmp(elf_strptr(e, strndx, sh.sh_name), ".text") == 0) {
            text = sh;
            bytes = elf_getdata(scn, NULL)->d_buf;
        }
    assert_non_null(bytes);
    while (fgets(line, sizeof line, p)) {
        if (line[0] != ' ' && sscanf(line, "%llx <", &addr) == 1 && strstr(line, ">:")) {
            in_func = 1; /* a symbol: start walking here */
            start = prev = addr;
            continue;
        }
        if (!in_func || sscanf(line, " %llx:", &addr) != 1 || strstr(line, "(bad)"))
            continue;
        while (prev < addr) { /* walk to objdump's next boundary */
            struct ttfi_insn in;
            int rc = ttfi_x86_decode(bytes + (prev - text.sh_addr),
                                     text.sh_addr + text.sh_size - prev, &in);
            if (rc)
                fail_msg("%s: cannot decode at %llx (function at %llx)", file, prev, start);
            prev += in.len;
        }
        if (prev != addr)
            fail_msg("%s: boundary %llx, decoder says %llx (function at %llx)", file, addr, prev, start);
        checked++;
    }
    pclose(p);
    elf_end(e);
    close(fd);
    assert_true(checked > 100);
}

static void test_decoder_objdump(void **state)
{
    (void)state;
    if (system("objdump --version >/dev/null 2>&1") != 0) {
        print_message("no objdump: skipped\n");
        skip();
    }
    char self[512];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    assert_true(n > 0);
    self[n] = 0; /* objdump's own /proc/self/exe is objdump */
    elf_version(EV_CURRENT);
    check_boundaries(self);
    const char *more[] = {"/usr/bin/ls", "/lib/x86_64-linux-gnu/libc.so.6",
                          "/usr/lib/x86_64-linux-gnu/libdw.so.1"};
    for (size_t i = 0; i < sizeof more / sizeof *more; i++)
        if (access(more[i], R_OK) == 0)
            check_boundaries(more[i]); /* libc: hand-written AVX2, AVX-512 */
    if (have_cc)
        check_boundaries(b_base[0].path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decoder_fields),
        cmocka_unit_test(test_decoder_objdump),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_one_changed),
        cmocka_unit_test(test_changed_ran),
        cmocka_unit_test(test_changed_wait_loop),
        cmocka_unit_test(test_moved),
        cmocka_unit_test(test_same_build),
        cmocka_unit_test(test_missing),
        cmocka_unit_test(test_artifact),
        cmocka_unit_test(test_twins),
        cmocka_unit_test(test_cold),
        cmocka_unit_test(test_lines_moved),
        cmocka_unit_test(test_source_one),
        cmocka_unit_test(test_inlined_one),
        cmocka_unit_test(test_inlined_verdict),
        cmocka_unit_test(test_inlined_split),
        cmocka_unit_test(test_inlined_nested),
        cmocka_unit_test(test_inlined_own_verdict),
    };
    return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
