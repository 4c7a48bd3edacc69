/*
 * test_lines.c - inlined frames and the deciding line (diff/lines.c) on
 * traces of a real library: a parser built here at -O2 -g
 * -finstrument-functions whose static helper parse_item() is inlined into
 * parse_list() and decides (add_node or set_error). The library records
 * its own calls (its hooks keep each function and call site), and the
 * test writes them as format 1.2 traces: as plain mode sees them (the
 * inlined copy has an ENTER of its own) and as values mode does (no
 * ENTER for it: it shows only through its calls' call sites). Both must
 * name parse_item as the diverging frame (an inlined frame in the second)
 * and the same deciding lines; traces without call sites give no lines.
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
#include "ttdiff.h"
#include "ttfmt.h"

static const char lib_src[] =
    "#define V __attribute__((visibility(\"default\")))\n"               /* 1 */
    "struct tt_ev { void *fn, *site; int enter; };\n"                    /* 2 */
    "V struct tt_ev evs[256];\n"                                         /* 3 */
    "V int nev;\n"                                                       /* 4 */
    "__attribute__((no_instrument_function, noinline)) void __cyg_profile_func_enter(void *fn, void *site)\n"
    "{ if (nev < 256) { evs[nev].fn = fn; evs[nev].site = site; evs[nev++].enter = 1; } }\n"
    "__attribute__((no_instrument_function, noinline)) void __cyg_profile_func_exit(void *fn, void *site)\n"
    "{ if (nev < 256) { evs[nev].fn = fn; evs[nev].site = site; evs[nev++].enter = 0; } }\n"
    "static int nodes, errors;\n"                                        /* 9 */
    "V __attribute__((noinline)) int read_token(const char *s, int *pos)\n" /* 10 */
    "{\n"                                                                /* 11 */
    "    int v = 0;\n"                                                   /* 12 */
    "    if (s[*pos] < '0' || s[*pos] > '9') { (*pos)++; return -1; }\n" /* 13 */
    "    while (s[*pos] >= '0' && s[*pos] <= '9') v = v * 10 + (s[(*pos)++] - '0');\n"
    "    return v;\n"                                                    /* 15 */
    "}\n"                                                                /* 16 */
    "V __attribute__((noinline)) void add_node(int v) { nodes += v; __asm__ volatile(\"\" ::: \"memory\"); }\n"
    "V __attribute__((noinline)) void set_error(int at) { errors += at; __asm__ volatile(\"\" ::: \"memory\"); }\n"
    "static int parse_item(const char *s, int *pos)\n"                   /* 19 */
    "{\n"                                                                /* 20 */
    "    int at = *pos;\n"                                               /* 21 */
    "    int v = read_token(s, pos);\n"                                  /* 22 */
    "    if (v < 0) {\n"                                                 /* 23 */
    "        set_error(at);\n"                                           /* 24 */
    "        return -1;\n"                                               /* 25 */
    "    }\n"                                                            /* 26 */
    "    add_node(v);\n"                                                 /* 27 */
    "    return 0;\n"                                                    /* 28 */
    "}\n"                                                                /* 29 */
    "V int parse_list(const char *s)\n"                                  /* 30 */
    "{\n"                                                                /* 31 */
    "    int pos = 0, rc = 0;\n"                                         /* 32 */
    "    while (s[pos]) {\n"                                             /* 33 */
    "        rc |= parse_item(s, &pos);\n"                               /* 34 */
    "        if (s[pos] == ',')\n"                                       /* 35 */
    "            pos++;\n"                                               /* 36 */
    "    }\n"                                                            /* 37 */
    "    return rc;\n"                                                   /* 38 */
    "}\n";                                                               /* 39 */
enum { L_ITEM_DECL = 19, L_READ = 22, L_ERROR = 24, L_ADD = 27, L_CALL_ITEM = 34 };

struct tt_ev { void *fn, *site; int enter; };

static void *lib;                 /* the library, loaded once */
static struct self_module mod;    /* as a MODULE record describes it */
static char src_path[512];

static int setup(void **state)
{
    char so[512], cmd[1400];

    if (tu_tmpdir_setup(state))
        return -1;
    snprintf(src_path, sizeof src_path, "%s/parse.c", tu_tmpdir);
    snprintf(so, sizeof so, "%s/libparse.so", tu_tmpdir);
    FILE *f = fopen(src_path, "w");
    if (!f)
        return -1;
    fputs(lib_src, f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "cc -O2 -g -finstrument-functions -fvisibility=hidden "
             "-shared -fPIC -Wl,--build-id -o '%s' '%s'", so, src_path);
    if (system(cmd) != 0 || !(lib = dlopen(so, RTLD_NOW | RTLD_LOCAL)))
        return -1;
    return self_module_find(so, &mod);
}

static int teardown(void **state)
{
    if (lib)
        dlclose(lib);
    return tu_tmpdir_teardown(state);
}

/* Run parse_list(input) and write what the hooks kept as a trace at
 * path: with call sites or without, and with or without the ENTER/EXIT
 * of parse_item (values mode has none for an inlined function). */
static void record(const char *path, const char *input, int sites, int values)
{
    int (*parse_list)(const char *) = NULL;
    void *sym = dlsym(lib, "parse_list");
    struct tt_ev *evs = dlsym(lib, "evs");
    int *nev = dlsym(lib, "nev");
    void *item = dlsym(lib, "parse_item"); /* static: NULL */
    void *named[] = {sym, dlsym(lib, "read_token"), dlsym(lib, "add_node"),
                     dlsym(lib, "set_error")};
    ttf_writer *w = NULL;
    const char *argv[] = {"parse"};

    assert_non_null(sym);
    assert_non_null(evs);
    assert_null(item);
    memcpy(&parse_list, &sym, sizeof parse_list);
    *nev = 0;
    parse_list(input);
    assert_int_equal(ttf_writer_open(path, NULL, &w), 0);
    assert_int_equal(ttf_write_process(w, 42, 1, "parse", 1, argv, ""), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 100, 42, "main"), 0);
    assert_int_equal(ttf_write_module(w, 0, 100, mod.base, mod.size, mod.build_id,
                                      mod.build_id_len, mod.path), 0);
    uint64_t tsc = 1000, list = (uint64_t)(uintptr_t)sym;
    for (int i = 0; i < *nev; i++, tsc += 100) {
        uint64_t fn = (uint64_t)(uintptr_t)evs[i].fn;
        uint64_t site = sites ? (uint64_t)(uintptr_t)evs[i].site : 0;
        int is_item = 1; /* the one function not exported */
        for (size_t k = 0; k < 4; k++)
            is_item &= evs[i].fn != named[k];
        if (values && is_item)
            continue;
        if (fn == list)
            site = 0; /* the test's own call: not in the library */
        if (evs[i].enter)
            assert_int_equal(ttf_write_enter_site(w, 0, tsc, fn, site), 0);
        else
            assert_int_equal(ttf_write_exit(w, 0, tsc, fn), 0);
    }
    assert_int_equal(ttf_write_thread_end(w, 0, tsc), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
}

static ttd_diff *diff(const char *tag, int sites, int values)
{
    char gp[600], bp[600];
    ttd_options o;
    ttd_diff *d = NULL;
    ttf_error err;

    snprintf(gp, sizeof gp, "%s/%s.good.trc", tu_tmpdir, tag);
    snprintf(bp, sizeof bp, "%s/%s.bad.trc", tu_tmpdir, tag);
    record(gp, "12,7,30", sites, values);
    record(bp, "12,x,30", sites, values);
    ttd_options_init(&o);
    o.suspects = 6;
    if (ttd_diff_files(gp, bp, &o, &d, &err))
        fail_msg("ttd_diff_files: %s", err.msg);
    assert_non_null(ttd_get_result(d)->first);
    return d;
}

/* The deciding line both modes must give. */
static void check_lines(const ttd_divergence *dv)
{
    const ttd_lines *l = dv->lines;

    assert_non_null(l);
    assert_string_equal(l->function, "parse_item");
    assert_non_null(l->common);
    assert_int_equal(l->common->line, L_READ);
    assert_string_equal(l->common->calls, "read_token");
    assert_non_null(l->good);
    assert_int_equal(l->good->line, L_ADD);
    assert_string_equal(l->good->calls, "add_node");
    assert_non_null(l->bad);
    assert_int_equal(l->bad->line, L_ERROR);
    assert_string_equal(l->bad->calls, "set_error");
    assert_string_equal(l->file, src_path);
    assert_int_equal(l->first, L_READ);
    assert_int_equal(l->last, L_ADD);
    assert_non_null(l->source);
    assert_int_equal(l->nsource, L_ADD - L_READ + 1);
    assert_int_equal(l->source[0].line, L_READ);
    assert_string_equal(l->source[1].text, "    if (v < 0) {");
    assert_null(l->source_missing);
    assert_non_null(strstr(l->text, "parse.c:27 calls add_node"));
    assert_non_null(strstr(l->text, "bad: parse.c:24 calls set_error"));
}

static void test_values_inlined(void **state)
{
    (void)state;
    ttd_diff *d = diff("values", 1, 1);
    const ttd_divergence *dv = ttd_get_result(d)->first;

    assert_int_equal(dv->nstack, 1);          /* parse_list, traced */
    assert_int_equal(dv->nframes, 2);
    assert_string_equal(dv->frames[0].name, "parse_list");
    assert_int_equal(dv->frames[0].inlined, 0);
    assert_int_equal(dv->frames[0].call_line, L_CALL_ITEM);
    assert_string_equal(dv->frames[1].name, "parse_item");
    assert_int_equal(dv->frames[1].inlined, 1);
    assert_int_equal(dv->frames[1].line, L_ITEM_DECL);
    assert_int_equal(dv->frames[1].call_line, L_ERROR);
    assert_int_equal(dv->lines->inlined, 1);
    assert_non_null(strstr(dv->lines->text, "in parse_item (inlined into parse_list)"));
    check_lines(dv);
    /* the inlined frame is the diverging-frame suspect */
    int found = 0;
    for (size_t i = 0; i < dv->nsuspects; i++)
        found |= dv->suspects[i].role == TTD_SUSPECT_FRAME &&
                 strcmp(dv->suspects[i].name, "parse_item") == 0;
    assert_true(found);
    ttd_free(d);
}

static void test_plain_same_line(void **state)
{
    (void)state;
    ttd_diff *d = diff("plain", 1, 0);
    const ttd_divergence *dv = ttd_get_result(d)->first;

    assert_int_equal(dv->nstack, 2);          /* parse_list > parse_item */
    assert_int_equal(dv->nframes, 2);
    assert_string_equal(dv->frames[1].name, "parse_item");
    assert_int_equal(dv->frames[1].inlined, 0);
    assert_int_equal(dv->lines->inlined, 0);
    check_lines(dv);
    ttd_free(d);
}

static void test_no_sites(void **state)
{
    (void)state;
    ttd_diff *d = diff("nosites", 0, 1);
    const ttd_divergence *dv = ttd_get_result(d)->first;

    assert_null(dv->lines);
    assert_int_equal(dv->nframes, dv->nstack);
    for (size_t i = 0; i < dv->nframes; i++)
        assert_int_equal(dv->frames[i].inlined, 0);
    ttd_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values_inlined),
        cmocka_unit_test(test_plain_same_line),
        cmocka_unit_test(test_no_sites),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
