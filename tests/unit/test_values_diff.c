/*
 * test_values_diff.c - ttdiff's value comparison (diff/values.c) on traces
 * made with the format writer whose module map is this test binary (built
 * with -g), so its functions below have real signatures: pointers compare
 * by NULL / non-NULL only, an int's upper register half is ignored, an
 * argument difference is named with its parameter, baseline noise, suspect
 * ranking with values, --no-values, a size_t error code's signed form
 * in the result and the three reports; values compared on both sides of a
 * hunk (the load's prefix and the walk after it), each pair once; a
 * lazy pair's differing value at its exact time though the walk in step
 * skips times.
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

#include "ttdiff.h"
#include "align.h"
#include "ttreport.h"
#include "report_util.h"
#include "self_module.h"
#include "tmpdir.h"

__attribute__((noinline)) int vt_status(int x);
__attribute__((noinline)) const char *vt_find(const char *key);
__attribute__((noinline)) void vt_leaf(int x);
__attribute__((noinline)) int vt_check(int x);
__attribute__((noinline)) void vt_run(void);
__attribute__((noinline)) void vt_ok(void);
__attribute__((noinline)) void vt_fail(void);
__attribute__((noinline)) size_t vt_decode(int x);

int vt_status(int x) { return x ? -22 : 0; }
const char *vt_find(const char *key) { return key; }
void vt_leaf(int x) { __asm__ volatile("" :: "g"(x)); }
int vt_check(int x) { vt_leaf(x); return x; }
void vt_run(void) { __asm__ volatile(""); }
void vt_ok(void) { __asm__ volatile(""); }
void vt_fail(void) { __asm__ volatile(""); }
size_t vt_decode(int x) { return x ? (size_t)-20 : 5; }

/* A comparator (memcmp's result returned), one whose result is a count,
 * and one returning an indirect call's result (a relay, as a C++ virtual
 * Compare is called). */
__attribute__((noinline)) int vt_cmp(const char *a, const char *b, size_t n);
__attribute__((noinline)) int vt_count(const char *a, const char *b, size_t n);
__attribute__((noinline)) int vt_relay(const char *a, const char *b, size_t n);
int vt_cmp(const char *a, const char *b, size_t n) { return memcmp(a, b, n); }
int vt_count(const char *a, const char *b, size_t n)
{
    int c = 0;
    for (size_t i = 0; i < n; i++)
        c += a[i] != b[i];
    return c;
}
int (*volatile vt_cmp_ptr)(const char *, const char *, size_t) = vt_cmp;
int vt_relay(const char *a, const char *b, size_t n)
{
    int r = vt_cmp_ptr(a, b, n);
    vt_leaf(r);
    return r;
}

/* One step of a script: enter fn with args, or exit it with ret. */
struct op {
    void *fn;                   /* NULL ends the script */
    int exit;                   /* 1: exit */
    uint64_t a0;                /* first argument (enter) or result (exit) */
};

#define E(f, a) {(void *)(f), 0, (uint64_t)(a)}
/* The step that moves the test binary's module to base a0 (unloaded,
 * then loaded there). */
#define MOVE ((void *)1)
#define X(f, r) {(void *)(f), 1, (uint64_t)(r)}

/* A values trace at path (writer options o) with thread 0 "main" started
 * and this test binary loaded at its own base. */
static ttf_writer *open_values(const char *path, const ttf_writer_opts *o)
{
    ttf_writer *w;

    assert_int_equal(ttf_writer_open(path, o, &w), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 100, 1, "main"), 0);
    assert_int_equal(ttf_write_module(w, 0, 100, tu_self.base, tu_self.size,
                                      tu_self.build_id, tu_self.build_id_len, tu_self.path), 0);
    return w;
}

static int trace_no;

static const char *write_trace(const struct op *ops)
{
    static char name[4][512];
    char *path = name[trace_no % 4];
    ttf_writer_opts o = {.chunk_size = 65536, .timed = 1, .values = 1};
    ttf_writer *w;
    uint64_t tsc = 1000;

    snprintf(path, 512, "%s/v%d.trc", tu_tmpdir, trace_no++);
    w = open_values(path, &o);
    for (; ops->fn; ops++) {
        uint64_t a = (uint64_t)(uintptr_t)ops->fn;
        if (ops->fn == MOVE) {  /* the module unloaded, and loaded at a0 */
            assert_int_equal(ttf_write_module_unload(w, 0, tsc += 10, tu_self.base), 0);
            assert_int_equal(ttf_write_module(w, 0, tsc += 10, ops->a0, tu_self.size,
                                              tu_self.build_id, tu_self.build_id_len,
                                              tu_self.path), 0);
            continue;
        }
        uint64_t r[TTF_VALUE_REGS] = {ops->a0, 0x1111, 0, 0, 0, 0};
        if (ops->exit)
            assert_int_equal(ttf_write_exit_value(w, 0, tsc += 10, a, ops->a0), 0);
        else
            assert_int_equal(ttf_write_enter_values(w, 0, tsc += 10, a, r), 0);
    }
    assert_int_equal(ttf_writer_close(w, 0), 0);
    return path;
}

static ttd_diff *diff(const struct op *g, const struct op *b, const ttd_options *o)
{
    ttd_diff *d = NULL;
    ttf_error err;
    char gp[512];
    snprintf(gp, sizeof gp, "%s", write_trace(g));
    int rc = ttd_diff_files(gp, write_trace(b), o, &d, &err);
    if (rc)
        fail_msg("ttd_diff_files: %s", err.msg);
    return d;
}

/* Two non-NULL pointers are the same value; an int's upper half is not
 * part of it: no value divergence, values compared. */
static void test_same(void **state)
{
    (void)state;
    const struct op g[] = {E(vt_run, 0), E(vt_find, 0x5000), X(vt_find, 0x5000),
                           E(vt_status, 0), X(vt_status, 0), X(vt_run, 0), {0}};
    const struct op b[] = {E(vt_run, 0), E(vt_find, 0x7000), X(vt_find, 0x9000),
                           E(vt_status, 0xabcd00000000ull), X(vt_status, 0xdead00000000ull),
                           X(vt_run, 0), {0}};
    ttd_diff *d = diff(g, b, NULL);
    const ttd_result *r = ttd_get_result(d);
    assert_int_equal(r->values, 1);
    assert_null(r->values_note);
    assert_true(r->values_compared >= 4);
    assert_null(r->value_first);
    assert_int_equal(r->diverged, 0);
    ttd_free(d);
}

/* The result of run g's script against b's: the value divergence's bad
 * value, NULL for none. */
static void check_first(const struct op *g, const struct op *b, const char *fn,
                        const char *bad)
{
    ttd_diff *d = diff(g, b, NULL);
    const ttd_result *r = ttd_get_result(d);
    assert_true(r->values_compared >= 2);
    if (!bad) {
        assert_null(r->value_first);
        assert_int_equal(r->diverged, 0);
    } else {
        assert_non_null(r->value_first);
        assert_string_equal(r->value_first->function, fn);
        assert_string_equal(r->value_first->bad_value, bad);
        assert_int_equal(r->diverged, 1);
    }
    ttd_free(d);
}

/* A comparator's result (its machine code returns memcmp's: format's
 * ttf_sym_code_cmpret) by its sign only: 1 against 3 is the same, 1
 * against -1 or 0 differs; a count's 1 against 3 still differs; a relay
 * (an indirect call's result returned) is a comparator's when it returns
 * what its callee, a comparator, just returned, and not otherwise. */
static void test_comparator_sign(void **state)
{
    (void)state;
    const struct op g[] = {E(vt_run, 0), E(vt_cmp, 1), X(vt_cmp, 1), X(vt_run, 0), {0}};
    const struct op b[] = {E(vt_run, 0), E(vt_cmp, 1), X(vt_cmp, 3), X(vt_run, 0), {0}};
    check_first(g, b, NULL, NULL);
    const struct op neg[] = {E(vt_run, 0), E(vt_cmp, 1), X(vt_cmp, (uint32_t)-2),
                             X(vt_run, 0), {0}};
    check_first(g, neg, "vt_cmp", "-2");
    const struct op zero[] = {E(vt_run, 0), E(vt_cmp, 1), X(vt_cmp, 0), X(vt_run, 0), {0}};
    check_first(g, zero, "vt_cmp", "0");
    const struct op cg[] = {E(vt_run, 0), E(vt_count, 1), X(vt_count, 1), X(vt_run, 0), {0}};
    const struct op cb[] = {E(vt_run, 0), E(vt_count, 1), X(vt_count, 3), X(vt_run, 0), {0}};
    check_first(cg, cb, "vt_count", "3");
    const struct op rg[] = {E(vt_run, 0), E(vt_relay, 1), E(vt_cmp, 1), X(vt_cmp, 1),
                            E(vt_leaf, 1), X(vt_leaf, 0), X(vt_relay, 1), X(vt_run, 0), {0}};
    const struct op rb[] = {E(vt_run, 0), E(vt_relay, 1), E(vt_cmp, 1), X(vt_cmp, 3),
                            E(vt_leaf, 1), X(vt_leaf, 0), X(vt_relay, 3), X(vt_run, 0), {0}};
    /* vt_leaf's call comes after: the relay's last callee is vt_leaf */
    check_first(rg, rb, "vt_relay", "3");
    const struct op rg2[] = {E(vt_run, 0), E(vt_relay, 1), E(vt_cmp, 1), X(vt_cmp, 1),
                             X(vt_relay, 1), X(vt_run, 0), {0}};
    const struct op rb2[] = {E(vt_run, 0), E(vt_relay, 1), E(vt_cmp, 1), X(vt_cmp, 3),
                             X(vt_relay, 3), X(vt_run, 0), {0}};
    check_first(rg2, rb2, NULL, NULL);
    const struct op rb3[] = {E(vt_run, 0), E(vt_relay, 1), E(vt_cmp, 1), X(vt_cmp, 3),
                             X(vt_relay, 5), X(vt_run, 0), {0}};
    check_first(rg2, rb3, "vt_relay", "5");
}

/* NULL against non-NULL: a value divergence before the calls part. */
static void test_null_return(void **state)
{
    (void)state;
    const struct op g[] = {E(vt_run, 0), E(vt_find, 0x5000), X(vt_find, 0x5000),
                           E(vt_ok, 0), X(vt_ok, 0), X(vt_run, 0), {0}};
    const struct op b[] = {E(vt_run, 0), E(vt_find, 0x5000), X(vt_find, 0),
                           E(vt_fail, 0), X(vt_fail, 0), X(vt_run, 0), {0}};
    ttd_diff *d = diff(g, b, NULL);
    const ttd_result *r = ttd_get_result(d);
    const ttd_value_diff *v = r->value_first;
    assert_non_null(v);
    assert_int_equal(r->diverged, 1);
    assert_string_equal(v->function, "vt_find");
    assert_int_equal(v->what, TTD_VAL_RETURN);
    assert_int_equal(v->cls, TTF_VC_POINTER);
    assert_string_equal(v->bad_value, "NULL");
    assert_string_equal(v->good_value, "0x5000");
    assert_string_equal(v->type, "char *");
    assert_int_equal(v->before_split, 1);
    assert_int_equal(v->bad_index, 2);
    assert_non_null(r->first);
    assert_true(r->first->nsuspects >= 1);
    assert_string_equal(r->first->suspects[0].name, "vt_find");
    assert_int_equal(r->first->suspects[0].value_differs, 1);
    assert_string_equal(r->first->suspects[0].bad_value, "NULL");
    /* the context shows values */
    const ttd_divergence *dv = r->first;
    assert_string_equal(dv->before[dv->nbefore - 1].value, "NULL");
    assert_string_equal(dv->stack[0].args, "()");
    ttd_free(d);
}

/* Values compared before the calls part and after (the tree aligner's
 * load compares the common prefix in step, the walk after the alignment
 * goes on from there past the hunk): each pair once, the first
 * difference the prefix's. */
static void test_prefix_then_rest(void **state)
{
    (void)state;
    const struct op g[] = {E(vt_run, 0), E(vt_status, 1), X(vt_status, 0), E(vt_ok, 0),
                           X(vt_ok, 0), E(vt_status, 3), X(vt_status, 0), E(vt_status, 5),
                           X(vt_status, 7), X(vt_run, 0), {0}};
    const struct op b[] = {E(vt_run, 0), E(vt_status, 1), X(vt_status, -22), E(vt_fail, 0),
                           X(vt_fail, 0), E(vt_status, 4), X(vt_status, 0), E(vt_status, 5),
                           X(vt_status, 8), X(vt_run, 0), {0}};
    ttd_diff *d = diff(g, b, NULL);
    const ttd_result *r = ttd_get_result(d);
    assert_int_equal(r->values_compared, 6);
    const ttd_value_diff *v = r->value_first;
    assert_non_null(v);
    assert_int_equal(v->what, TTD_VAL_RETURN);
    assert_string_equal(v->bad_value, "-22");
    assert_int_equal(v->bad_index, 2);
    ttd_free(d);
    /* --first-only reads in step too, and stops at the first hunk */
    ttd_options o;
    ttd_options_init(&o);
    o.first_only = 1;
    d = diff(g, b, &o);
    assert_int_equal(ttd_get_result(d)->values_compared, 2);
    ttd_free(d);
}

/* An int argument differs: named with its parameter. */
static void test_argument(void **state)
{
    (void)state;
    const struct op g[] = {E(vt_status, 1), X(vt_status, 0), {0}};
    const struct op b[] = {E(vt_status, 2), X(vt_status, 0), {0}};
    ttd_diff *d = diff(g, b, NULL);
    const ttd_value_diff *v = ttd_get_result(d)->value_first;
    assert_non_null(v);
    assert_int_equal(v->what, TTD_VAL_ARG);
    assert_int_equal(v->arg, 0);
    assert_string_equal(v->param, "x");
    assert_string_equal(v->good_value, "1");
    assert_string_equal(v->bad_value, "2");
    assert_null(ttd_get_result(d)->first);       /* the calls never part */
    ttd_free(d);
}

/* A size_t near 2^64 is an error code: its signed form too, in the
 * result, the text, the HTML and the JSON; small size_t values and the
 * edges (2^64 - 4096 is one, 2^64 - 4097 is not) as they are. */
static void test_size_t_code(void **state)
{
    (void)state;
    const struct op g[] = {E(vt_decode, 0), X(vt_decode, 5), {0}};
    const struct op b[] = {E(vt_decode, 0), X(vt_decode, (uint64_t)-20), {0}};
    ttd_diff *d = diff(g, b, NULL);
    const ttd_value_diff *v = ttd_get_result(d)->value_first;
    assert_non_null(v);
    assert_string_equal(v->type, "size_t");
    assert_string_equal(v->good_value, "5");
    assert_string_equal(v->bad_value, "18446744073709551596 (-20)");
    assert_int_equal(v->good_is_code, 0);
    assert_int_equal(v->bad_is_code, 1);
    assert_int_equal(v->bad_code, -20);
    char *t = tu_report(d, ttr_text, NULL, NULL), *h = tu_report(d, ttr_html, NULL, NULL);
    char *j = tu_report(d, ttr_json, NULL, NULL);
    assert_non_null(strstr(t, "`vt_decode` returned 18446744073709551596 (-20) in the bad run, 5 in the good run"));
    assert_non_null(strstr(h, "<b class=\"val\">18446744073709551596 (-20)</b>"));
    assert_non_null(strstr(j, "\"bad_value\": \"18446744073709551596 (-20)\""));
    assert_non_null(strstr(j, "\"good_signed\": null"));
    assert_non_null(strstr(j, "\"bad_signed\": -20"));
    free(t);
    free(h);
    free(j);
    ttd_free(d);

    ttf_vtype z = {TTF_VC_UNSIGNED, 8, 0, "size_t", NULL, 0, NULL, 0}, u4 = {TTF_VC_UNSIGNED, 4, 0, "unsigned", NULL, 0, NULL, 0};
    ttf_vtype l = {TTF_VC_SIGNED, 8, 0, "long", NULL, 0, NULL, 0};
    int64_t code = 0;
    char buf[64];
    assert_int_equal(ttf_value_errcode((uint64_t)-4096, &z, &code), 1);
    assert_int_equal(code, -4096);
    assert_int_equal(ttf_value_errcode((uint64_t)-4097, &z, &code), 0);
    assert_int_equal(ttf_value_errcode((uint64_t)-1, &z, NULL), 1);
    assert_int_equal(ttf_value_errcode(0xfffffffe, &u4, NULL), 0);
    assert_int_equal(ttf_value_errcode((uint64_t)-20, &l, NULL), 0);
    assert_int_equal(ttf_value_errcode((uint64_t)-20, NULL, NULL), 0);
    ttf_value_format(buf, sizeof buf, (uint64_t)-4097, &z);
    assert_string_equal(buf, "18446744073709547519");
    ttf_value_format(buf, sizeof buf, (uint64_t)-1, &z);
    assert_string_equal(buf, "18446744073709551615 (-1)");
    ttf_value_format(buf, sizeof buf, 0xffffffec, &u4);
    assert_string_equal(buf, "4294967276");
    ttf_value_format(buf, sizeof buf, (uint64_t)-20, &l);
    assert_string_equal(buf, "-20");
}

/* Suspects: the call that returned another value first, even when a
 * trivial leaf returned later; the leaf is never first. */
static void test_suspect_rank(void **state)
{
    (void)state;
    const struct op g[] = {E(vt_run, 0), E(vt_status, 0), X(vt_status, 0),
                           E(vt_check, 4), E(vt_leaf, 4), X(vt_leaf, 0),
                           X(vt_check, 4), E(vt_ok, 0), X(vt_ok, 0),
                           X(vt_run, 0), {0}};
    const struct op b[] = {E(vt_run, 0), E(vt_status, 0), X(vt_status, -22),
                           E(vt_check, 4), E(vt_leaf, 4), X(vt_leaf, 0),
                           X(vt_check, 4), E(vt_fail, 0), X(vt_fail, 0),
                           X(vt_run, 0), {0}};
    ttd_options o;
    ttd_options_init(&o);
    o.suspects = 5;
    ttd_diff *d = diff(g, b, &o);
    const ttd_divergence *dv = ttd_get_result(d)->first;
    assert_non_null(dv);
    assert_true(dv->nsuspects >= 3);
    assert_string_equal(dv->suspects[0].name, "vt_status");
    assert_string_equal(dv->suspects[0].bad_value, "-22");
    assert_string_equal(dv->suspects[0].good_value, "0");
    const ttd_suspect *last = &dv->suspects[dv->nsuspects - 1];
    assert_string_equal(last->name, "vt_leaf");
    assert_int_equal(last->trivial, 1);
    ttd_free(d);

    o.no_values = 1;                            /* as without values */
    d = diff(g, b, &o);
    const ttd_result *r = ttd_get_result(d);
    assert_null(r->value_first);
    assert_int_equal(r->values, 0);
    assert_string_equal(r->values_note, "turned off (--no-values)");
    assert_string_equal(r->first->suspects[0].name, "vt_run");  /* the frame */
    assert_string_equal(r->first->suspects[1].name, "vt_check");
    assert_null(r->first->before[r->first->nbefore - 1].value);
    ttd_free(d);
}

/* A value that differs between good runs is noise with --baseline. */
static void test_baseline_noise(void **state)
{
    (void)state;
    const struct op g[] = {E(vt_status, 0), X(vt_status, 0), {0}};
    const struct op g2[] = {E(vt_status, 0), X(vt_status, 7), {0}};
    const struct op b[] = {E(vt_status, 0), X(vt_status, -22), {0}};
    char base[512];
    snprintf(base, sizeof base, "%s", write_trace(g2));
    const char *bases[] = {base};
    ttd_options o;
    ttd_options_init(&o);
    o.baselines = bases;
    o.nbaselines = 1;
    ttd_diff *d = diff(g, b, &o);
    const ttd_result *r = ttd_get_result(d);
    assert_null(r->value_first);
    assert_int_equal(r->values_noise, 1);
    assert_int_equal(r->diverged, 0);
    ttd_free(d);
}

/* A string that ran into a pointer past its end: ASLR changes the
 * pointer in every run. Six bytes with a high 0x7f are cut; in the other
 * run the same pointer with a zero byte among its low five leaves only
 * 1-5 of its bytes before the NUL: cut too, when the first run's string
 * was cut at an address right there. A real difference stays. */
static ttf_string str_of(const char *bytes, unsigned len)
{
    ttf_string s = {0};
    s.len = len;
    s.complete = 1;
    s.text = (const uint8_t *)bytes;
    return s;
}

static void test_string_into_address(void **state)
{
    (void)state;
    /* "name" then 0x7ffd9a001c56: the zero byte after two low bytes */
    static const char full[] = "name\x2d\x1c\x8b\x9a\xfd\x7f";
    static const char part[] = "name\x56\x1c";
    ttf_string g = str_of(full, 10), b = str_of(part, 6);
    ttdi_drop_addresses(&g, &b);
    assert_int_equal(g.len, 4);
    assert_int_equal(b.len, 4);
    assert_true(ttf_string_same(&g, &b));
    g = str_of(part, 6);            /* either side */
    b = str_of(full, 10);
    ttdi_drop_addresses(&g, &b);
    assert_true(ttf_string_same(&g, &b));
    /* no address cut in the other run: the bytes are compared */
    static const char text[] = "name\x56\x1c";
    g = str_of("name", 4);
    b = str_of(text, 6);
    ttdi_drop_addresses(&g, &b);
    assert_false(ttf_string_same(&g, &b));
    /* other text before it, or more than five bytes, or cut short by the
     * recording: not the same pointer */
    g = str_of(full, 10);
    b = str_of("nome\x56\x1c", 6);
    ttdi_drop_addresses(&g, &b);
    assert_false(ttf_string_same(&g, &b));
    static const char six[] = "name\x56\x1c\x01\x02\x03\x04";
    g = str_of(full, 10);
    b = str_of(six, 10);
    b.text = (const uint8_t *)six;
    ttdi_drop_addresses(&g, &b);
    assert_int_equal(b.len, 10);
    g = str_of(full, 10);
    b = str_of(part, 6);
    b.complete = 0;
    ttdi_drop_addresses(&g, &b);
    assert_false(ttf_string_same(&g, &b));
}

/* The epochs of a run (ttdi_epoch_at): how many module loads and unloads
 * came at or before a time, whatever order the times are asked in (the
 * last epoch's times are kept); the module at an address and time
 * (ttdi_module_at), the ranges between modules kept. */
static void test_epochs(void **state)
{
    (void)state;
    const struct op ops[] = {E(vt_run, 0), X(vt_run, 0), {MOVE, 0, tu_self.base + 0x100000},
                             E(vt_run, 0), X(vt_run, 0), {0}};
    const char *path = write_trace(ops);
    ttf_trace *t = NULL;
    ttdi_norm n;
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    assert_int_equal(ttdi_norm_init(&n, t, TTD_MSG_SITE, NULL, NULL, 0), 0);
    assert_int_equal(ttf_module_count(t), 2);
    const ttf_module *a = ttf_get_module(t, 0), *b = ttf_get_module(t, 1);
    uint64_t bound[3] = {a->load_ns, a->unload_ns, b->load_ns};
    assert_true(bound[0] < bound[1] && bound[1] < bound[2] && b->unload_ns == UINT64_MAX);
    uint64_t ask[] = {bound[2] + 5, 0, bound[1], bound[2] - 1, bound[0], bound[1] - 1,
                      bound[2], bound[0] - 1, UINT64_MAX - 1, bound[1] + 1, bound[0] + 1};
    for (size_t i = 0; i < sizeof ask / sizeof *ask; i++) {
        uint32_t want = 0;
        for (int k = 0; k < 3; k++)
            want += bound[k] <= ask[i];
        assert_int_equal(ttdi_epoch_at(&n, ask[i]), want);
        assert_int_equal(ttdi_epoch_at(&n, ask[i]), want);     /* kept */
    }
    /* the module holding an address at a time: between the modules (the
       ranges kept, ttdi_norm.gaps), in one at its time or not */
    uint64_t addr[] = {0, a->base - 1, a->base, a->base + a->size - 1, a->base + a->size,
                       b->base - 1, b->base, b->base + b->size - 1, b->base + b->size,
                       b->base + b->size + 0x1000, a->base - 0x1000, UINT64_MAX - 1};
    uint64_t when[] = {bound[0], bound[1], bound[2], bound[2] + 5};
    for (int round = 0; round < 2; round++)
        for (size_t i = 0; i < sizeof addr / sizeof *addr; i++)
            for (size_t j = 0; j < sizeof when / sizeof *when; j++) {
                uint64_t x = addr[(i * 5 + (size_t)round) % (sizeof addr / sizeof *addr)];
                long want = -1;
                for (size_t k = 0; k < 2 && want < 0; k++) {
                    const ttf_module *m = ttf_get_module(t, k);
                    if (x >= m->base && x - m->base < m->size && m->load_ns <= when[j] &&
                        when[j] < m->unload_ns)
                        want = (long)k;
                }
                assert_int_equal(ttdi_module_at(&n, x, when[j]), want);
            }
    ttdi_norm_free(&n);
    ttf_close(t);
}

/* A function's signature is kept per address and epoch: once the module
 * moves (unloaded, loaded again elsewhere), the address vt_status had
 * names vt_cmp, whose first parameter is a pointer (0x5000 and 0x7000:
 * the same value), not vt_status's int (which would differ). */
static void test_signature_by_epoch(void **state)
{
    (void)state;
    uint64_t st = (uint64_t)(uintptr_t)vt_status, cmp = (uint64_t)(uintptr_t)vt_cmp;
    uint64_t base = tu_self.base + st - cmp;     /* st is vt_cmp's address there */
    const struct op g[] = {E(vt_run, 0), E(vt_status, 1), X(vt_status, 0), X(vt_run, 0),
                           {MOVE, 0, base}, E(st, 0x5000), X(st, 0), {0}};
    const struct op b[] = {E(vt_run, 0), E(vt_status, 1), X(vt_status, 0), X(vt_run, 0),
                           {MOVE, 0, base}, E(st, 0x7000), X(st, 0), {0}};
    ttd_diff *d = diff(g, b, NULL);
    const ttd_result *r = ttd_get_result(d);
    assert_null(r->value_first);
    assert_int_equal(r->diverged, 0);
    /* vt_status's argument and result, vt_cmp's three arguments and result */
    assert_int_equal(r->values_compared, 6);
    ttd_free(d);
    /* the same call with vt_status's signature (no move) differs */
    const struct op g2[] = {E(vt_run, 0), E(vt_status, 1), X(vt_status, 0), X(vt_run, 0),
                            E(vt_status, 0x5000), X(vt_status, 0), {0}};
    const struct op b2[] = {E(vt_run, 0), E(vt_status, 1), X(vt_status, 0), X(vt_run, 0),
                            E(vt_status, 0x7000), X(vt_status, 0), {0}};
    check_first(g2, b2, "vt_status", "28672");
}

/* A function of every kind of parameter the plans compare (an int, a
 * bool, a char, a pointer, a small struct with padding), called again and
 * again. */
struct vt_q {
    char a;                     /* bytes 1-3: padding, never compared */
    int b;
};
__attribute__((noinline)) int vt_mix(int x, _Bool f, unsigned char c, const char *p,
                                     struct vt_q q);
int vt_mix(int x, _Bool f, unsigned char c, const char *p, struct vt_q q)
{
    return x + f + c + (p != NULL) + q.a + q.b;
}

/* A script of calls with all six integer registers. */
struct rop {
    void *fn;                   /* NULL ends the script */
    int exit;
    uint64_t r[TTF_VALUE_REGS]; /* an ENTER's registers; r[0] an EXIT's rax */
};

static const char *write_regs(const struct rop *ops)
{
    static char name[2][512];
    char *path = name[trace_no % 2];
    ttf_writer_opts o = {.chunk_size = 65536, .timed = 1, .values = 1};
    ttf_writer *w;
    uint64_t tsc = 1000;

    snprintf(path, 512, "%s/r%d.trc", tu_tmpdir, trace_no++);
    w = open_values(path, &o);
    for (; ops->fn; ops++) {
        uint64_t a = (uint64_t)(uintptr_t)ops->fn;
        if (ops->exit)
            assert_int_equal(ttf_write_exit_value(w, 0, tsc += 10, a, ops->r[0]), 0);
        else
            assert_int_equal(ttf_write_enter_values(w, 0, tsc += 10, a, ops->r), 0);
    }
    assert_int_equal(ttf_writer_close(w, 0), 0);
    return path;
}

/* The outcome of one diff of g against b: what the checks compare. */
struct vout {
    int diverged;
    uint64_t compared, planned;
    char fn[64], param[64], bad[64];
    uint64_t bad_index;
    int what, arg;
};

static struct vout diff_regs(const struct rop *g, const struct rop *b, int plans_off)
{
    struct vout v;
    ttd_diff *d = NULL;
    ttf_error err;
    char gp[512];

    memset(&v, 0, sizeof v);
    snprintf(gp, sizeof gp, "%s", write_regs(g));
    ttdi_values_plans_off = plans_off;
    ttdi_values_planned = 0;
    int rc = ttd_diff_files(gp, write_regs(b), NULL, &d, &err);
    ttdi_values_plans_off = 0;
    if (rc)
        fail_msg("ttd_diff_files: %s", err.msg);
    const ttd_result *r = ttd_get_result(d);
    v.diverged = r->diverged;
    v.compared = r->values_compared;
    v.planned = ttdi_values_planned;
    if (r->value_first) {
        snprintf(v.fn, sizeof v.fn, "%s", r->value_first->function);
        snprintf(v.param, sizeof v.param, "%s", r->value_first->param);
        snprintf(v.bad, sizeof v.bad, "%s", r->value_first->bad_value);
        v.bad_index = r->value_first->bad_index;
        v.what = r->value_first->what;
        v.arg = r->value_first->arg;
    }
    ttd_free(d);
    return v;
}

#define CALLS 6

/* The script: vt_run, then CALLS calls of vt_mix (each calls vt_status
 * and vt_cmp), the call at `at` with regs mix, vt_status's result st, and
 * vt_cmp's result cmp there. */
static void mix_script(struct rop *s, int at, const uint64_t mix[TTF_VALUE_REGS], uint64_t st,
                       uint64_t cmp)
{
    static const uint64_t base[TTF_VALUE_REGS] = {7, 1, 0x41, 0x5000, 0x0000000900000003ull, 0};
    size_t n = 0;
    s[n++] = (struct rop){vt_run, 0, {0}};
    for (int i = 0; i < CALLS; i++) {
        struct rop e = {vt_mix, 0, {0}};
        memcpy(e.r, i == at ? mix : base, sizeof e.r);
        s[n++] = e;
        s[n++] = (struct rop){vt_status, 0, {1}};
        s[n++] = (struct rop){vt_status, 1, {i == at ? st : 0}};
        s[n++] = (struct rop){vt_cmp, 0, {0x5000, 0x6000, 4}};
        s[n++] = (struct rop){vt_cmp, 1, {i == at ? cmp : 1}};
        s[n++] = (struct rop){vt_mix, 1, {11}};
    }
    s[n++] = (struct rop){vt_run, 1, {0}};
    s[n] = (struct rop){NULL, 0, {0}};
}

/* A pair of functions' plan (values.c vplan: what compare_pair decides
 * from the signatures, once) answers as the general path does: the same
 * divergence, at the same value, with the same count of values compared,
 * for a value that differs only where the type does not reach (an int's
 * upper half, a bool's other bits and a nonzero against another, a char's
 * upper bytes, two non-NULL pointers, a struct's padding, a comparator's
 * result of the same sign) and for one that differs (each of them in the
 * bits that count), at a call after the plan was made; and the plans do
 * answer the pairs that are the same. */
static void test_plans(void **state)
{
    (void)state;
    static const uint64_t base[TTF_VALUE_REGS] = {7, 1, 0x41, 0x5000, 0x0000000900000003ull, 0};
    struct {
        int reg;                /* the register changed (-1: none) */
        uint64_t v;             /* its value then */
        uint64_t st, cmp;       /* vt_status's and vt_cmp's results */
        const char *fn;         /* the divergence's function, NULL: none */
        const char *bad;        /* its bad value */
    } cases[] = {
        {-1, 0, 0, 1, NULL, NULL},
        {0, 0xabcd000000000007ull, 0, 1, NULL, NULL},      /* int: upper half */
        {0, 8, 0, 1, "vt_mix", "8"},
        {1, 0x101, 0, 1, NULL, NULL},                      /* bool: its byte */
        {1, 2, 0, 1, NULL, NULL},                          /* true either way */
        {1, 0x100, 0, 1, "vt_mix", "false"},
        {2, 0x7741, 0, 1, NULL, NULL},                     /* unsigned char */
        {2, 0x42, 0, 1, "vt_mix", "'B' (66)"},
        {3, 0x9000, 0, 1, NULL, NULL},                     /* pointers */
        {3, 0, 0, 1, "vt_mix", "NULL"},
        {4, 0x00000009ffffff03ull, 0, 1, NULL, NULL},      /* the padding */
        {4, 0x0000000800000003ull, 0, 1, "vt_mix", NULL}, /* q.b */
        {4, 0x0000000900000004ull, 0, 1, "vt_mix", NULL},  /* q.a */
        {-1, 0, 0xffffffff00000000ull, 1, NULL, NULL},     /* the result's upper half */
        {-1, 0, 5, 1, "vt_status", "5"},
        {-1, 0, 0, 3, NULL, NULL},                         /* a comparator's sign */
        {-1, 0, 0, (uint32_t)-3, "vt_cmp", "-3"},
        {-1, 0, 0, 0, "vt_cmp", "0"},
    };
    struct rop g[CALLS * 6 + 3], b[CALLS * 6 + 3];
    mix_script(g, -1, base, 0, 1);
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        uint64_t mix[TTF_VALUE_REGS];
        memcpy(mix, base, sizeof mix);
        if (cases[k].reg >= 0)
            mix[cases[k].reg] = cases[k].v;
        for (int at = 1; at < CALLS; at += 3) {
            mix_script(b, at, mix, cases[k].st, cases[k].cmp);
            struct vout on = diff_regs(g, b, 0), off = diff_regs(g, b, 1);
            assert_int_equal(on.diverged, off.diverged);
            assert_int_equal(on.compared, off.compared);
            assert_string_equal(on.fn, off.fn);
            assert_string_equal(on.param, off.param);
            assert_string_equal(on.bad, off.bad);
            assert_int_equal(on.bad_index, off.bad_index);
            assert_int_equal(on.what, off.what);
            assert_int_equal(on.arg, off.arg);
            assert_true(on.planned > 0);
            assert_int_equal(off.planned, 0);
            assert_string_equal(on.fn, cases[k].fn ? cases[k].fn : "");
            if (cases[k].bad)
                assert_string_equal(on.bad, cases[k].bad);
            /* every pair of calls after the first of each function (the
               ones a plan was made from), up to the difference */
            if (!cases[k].fn)
                assert_int_equal(on.planned, (uint64_t)(CALLS - 1) * 6);
        }
    }
}

/* Script s (mix_script's) ended by n calls of fn before vt_run's EXIT. */
static void end_with(struct rop *s, void *fn, int n)
{
    size_t k = 0;
    while (s[k].fn)
        k++;
    struct rop last = s[k - 1];
    k--;
    for (int i = 0; i < n; i++) {
        s[k++] = (struct rop){fn, 0, {0}};
        s[k++] = (struct rop){fn, 1, {0}};
    }
    s[k++] = last;
    s[k] = (struct rop){NULL, 0, {0}};
}

/* The text and JSON reports of gp against bp (suspects on, so the explain
 * stage's replay shows), with the replay's plans off or on; *planned =
 * the ENTER pairs a plan answered. */
static char *replay_reports(const char *gp, const char *bp, int plans_off, uint64_t *planned)
{
    ttd_options o;
    ttd_diff *d = NULL;
    ttf_error err;

    ttd_options_init(&o);
    o.suspects = 6;
    ttdi_replay_plans_off = plans_off;
    ttdi_replay_planned = 0;
    int rc = ttd_diff_files(gp, bp, &o, &d, &err);
    ttdi_replay_plans_off = 0;
    *planned = ttdi_replay_planned;
    if (rc)
        fail_msg("ttd_diff_files: %s", err.msg);
    char *t = tu_report(d, ttr_text, NULL, NULL), *j = tu_report(d, ttr_json, NULL, NULL);
    size_t n = strlen(t) + strlen(j) + 1;
    char *both = malloc(n);
    assert_non_null(both);
    snprintf(both, n, "%s%s", t, j);
    free(t);
    free(j);
    ttd_free(d);
    return both;
}

/* The replay's plan of a signature (replay.c ttdi_rsig: what compare_args
 * decides from it, once) answers as compare_args does: on a pair that
 * parts (the bad run ends with two calls of vt_fail, the good one with
 * one of vt_ok: the threads' lengths differ, so align replays the common
 * prefix and the explain stage goes on from it), with a vt_mix call in
 * the prefix whose values differ only where the types do not reach or in
 * the bits that count (an int, a bool, a char, a pointer, a struct's
 * fields, a result, a comparator's result by its sign: the comparator
 * kinds the replay keeps per function), the text and JSON reports are the
 * same with the plans on and off, and the plans did answer the pairs that
 * were the same. */
static void test_replay_plans(void **state)
{
    (void)state;
    static const uint64_t base[TTF_VALUE_REGS] = {7, 1, 0x41, 0x5000, 0x0000000900000003ull, 0};
    static const struct {
        int reg;
        uint64_t v;
        uint64_t st, cmp;       /* vt_status's and vt_cmp's results */
    } cases[] = {
        {-1, 0, 0, 1},
        {0, 0xabcd000000000007ull, 0, 1}, {0, 8, 0, 1},         /* int */
        {1, 0x101, 0, 1}, {1, 2, 0, 1}, {1, 0x100, 0, 1},       /* bool */
        {2, 0x7741, 0, 1}, {2, 0x42, 0, 1},                     /* unsigned char */
        {3, 0x9000, 0, 1}, {3, 0, 0, 1},                        /* pointer */
        {4, 0x00000009ffffff03ull, 0, 1},                       /* the struct's padding */
        {4, 0x0000000800000003ull, 0, 1}, {4, 0x0000000900000004ull, 0, 1}, /* q.b, q.a */
        {-1, 0, 0xffffffff00000000ull, 1}, {-1, 0, 5, 1},       /* a result */
        {-1, 0, 0, 3}, {-1, 0, 0, (uint32_t)-3}, {-1, 0, 0, 0}, /* a comparator's sign */
    };
    struct rop g[CALLS * 6 + 8], b[CALLS * 6 + 8];
    mix_script(g, -1, base, 0, 1);
    end_with(g, (void *)vt_ok, 1);
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        uint64_t mix[TTF_VALUE_REGS], on_n, off_n;
        memcpy(mix, base, sizeof mix);
        if (cases[k].reg >= 0)
            mix[cases[k].reg] = cases[k].v;
        mix_script(b, 2, mix, cases[k].st, cases[k].cmp);
        end_with(b, (void *)vt_fail, 2);
        char gp[512], bp[512];
        snprintf(gp, sizeof gp, "%s", write_regs(g));
        snprintf(bp, sizeof bp, "%s", write_regs(b));
        char *on = replay_reports(gp, bp, 0, &on_n), *off = replay_reports(gp, bp, 1, &off_n);
        size_t at = 0;
        while (on[at] && on[at] == off[at])
            at++;
        if (on[at] || off[at])
            fail_msg("case %zu: the reports differ at byte %zu\n--- plans:\n%.300s\n--- "
                     "compare_args:\n%.300s", k, at, on + (at > 100 ? at - 100 : 0),
                     off + (at > 100 ? at - 100 : 0));
        assert_true(on_n > 0);
        assert_int_equal(off_n, 0);
        free(on);
        free(off);
    }
}

/* A lazy values trace (format 1.8: untimed EXITs, and the ENTERs after
 * them, placed between their measured neighbours): vt_run calls
 * vt_status 400 times, every 8th EXIT measured; each returns 0, but
 * -22 at call bad (-1: none). */
static const char *write_lazy(int bad)
{
    static char name[2][512];
    char *path = name[bad >= 0];
    ttf_writer_opts o = {.chunk_size = 65536, .timed = 1, .sparse = 1, .lazy = 1, .values = 1};
    ttf_writer *w;
    uint64_t t = 1000, run = (uint64_t)(uintptr_t)vt_run, st = (uint64_t)(uintptr_t)vt_status;
    uint64_t r[TTF_VALUE_REGS] = {0, 0x1111, 0, 0, 0, 0};

    snprintf(path, 512, "%s/lazy%d.trc", tu_tmpdir, bad >= 0);
    w = open_values(path, &o);
    assert_int_equal(ttf_write_enter_values(w, 0, t, run, r), 0);
    for (int k = 0; k < 400; k++) {
        r[0] = (uint64_t)(k % 2);
        assert_int_equal(ttf_write_enter_values(w, 0, t += 10 + (uint64_t)(k % 5) * 3, st, r), 0);
        assert_int_equal(ttf_write_exit_value_sparse(w, 0, t += 20 + (uint64_t)(k % 3) * 9, st,
                                                     k == bad ? (uint64_t)-22 : 0,
                                                     k % 8 ? TTF_EXIT_UNTIMED : TTF_EXIT_TIMED),
                         0);
    }
    assert_int_equal(ttf_write_exit_value(w, 0, t += 10, run, 0), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    return path;
}

/* The time an iteration with times gives vt_status's EXIT of call k in
 * the trace at path; it must be an untimed one placed past its earliest
 * bound (else the check below shows nothing). */
static uint64_t lazy_exit_ns(const char *path, int k)
{
    ttf_trace *t;
    ttf_iter *it;
    ttf_event ev;
    uint64_t ns = 0;
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    assert_int_equal(ttf_iter_open(t, 0, &it), 0);
    while (ttf_iter_next(it, &ev) == 1)
        if (ev.kind == TTF_EV_EXIT && ev.addr == (uint64_t)(uintptr_t)vt_status && k-- == 0) {
            assert_true(ev.untimed && ev.time_ns > ev.early_ns);
            ns = ev.time_ns;
            break;
        }
    ttf_iter_close(it);
    ttf_close(t);
    return ns;
}

/* The values compared in step read a lazy pair without times past the
 * last module load (pair_align.c times_off): a differing value still has
 * the time an iteration with times gives it, in both runs (the walk takes
 * it back: ttdi_walk_times); the pair is the same length, nothing parts. */
static void test_lazy_times(void **state)
{
    (void)state;
    char gp[512], bp[512];
    snprintf(gp, sizeof gp, "%s", write_lazy(-1));
    snprintf(bp, sizeof bp, "%s", write_lazy(301));
    ttd_diff *d = NULL;
    ttf_error err;
    assert_int_equal(ttd_diff_files(gp, bp, NULL, &d, &err), 0);
    const ttd_result *r = ttd_get_result(d);
    const ttd_value_diff *v = r->value_first;
    assert_non_null(v);
    assert_null(r->first);
    assert_int_equal(v->what, TTD_VAL_RETURN);
    assert_string_equal(v->bad_value, "-22");
    assert_int_equal(v->good_time_ns, lazy_exit_ns(gp, 301));
    assert_int_equal(v->bad_time_ns, lazy_exit_ns(bp, 301));
    ttd_free(d);
    /* the record the walk in step keeps (engine.c value_first orders
       pairs by its time, and the explain stage starts from it): two
       keyed walks without times, compared in step as the load does */
    ttf_trace *t[2];
    ttdi_norm n[2];
    ttdi_walk w[2];
    ttdi_vstep vs;
    memset(&vs, 0, sizeof vs);
    for (int i = 0; i < 2; i++) {
        assert_int_equal(ttf_open(i ? bp : gp, &t[i], NULL), 0);
        assert_int_equal(ttdi_norm_init(&n[i], t[i], TTD_MSG_SITE, NULL, NULL, 0), 0);
        assert_int_equal(ttdi_walk_keyed(&w[i], &n[i], 0), 0);
        assert_int_equal(ttdi_walk_notimes(&w[i]), 0);
    }
    while (ttdi_walk_next_key(&w[0]) > 0 && ttdi_walk_next_key(&w[1]) > 0)
        assert_int_equal(ttdi_values_step(&w[0], &w[1], &vs), 0);
    assert_true(vs.vf.found);
    assert_int_equal(vs.vf.first.ev[0].time_ns, lazy_exit_ns(gp, 301));
    assert_int_equal(vs.vf.first.ev[1].time_ns, lazy_exit_ns(bp, 301));
    ttdi_vstep_free(&vs);
    for (int i = 0; i < 2; i++) {
        ttdi_walk_close(&w[i]);
        ttdi_norm_free(&n[i]);
        ttf_close(t[i]);
    }
}

/* The count of calls of fn among r's count facts (-1: no fact). */
static int64_t fact_count(const ttd_result *r, const char *fn)
{
    for (size_t i = 0; i < r->verdict->ncounts; i++)
        if (!strcmp(r->verdict->counts[i].function, fn))
            return (int64_t)r->verdict->counts[i].bad;
    return -1;
}

/* With values, the tree build reads a pair in step (comparing the
 * prefix's values, and replaying it where the threads' lengths differ)
 * and then the rest of each side: it counts each thread's calls as it
 * goes (ttdi_walk_count_open) when the pair is likely to part (its
 * threads' lengths differ: the prefix replay's reads), so the count
 * facts' calls-only pass reads no thread (ttdi_prof_calls_read), and the
 * facts are those of that pass: vt_status called 4 times in the bad run,
 * 3 in the good one. A pair of one thread and the same length does not
 * look like parting: the pass reads both threads (vt_fail once, never in
 * the good run), as with plain traces. */
static void test_values_counts(void **state)
{
    (void)state;
    const struct op g[] = {E(vt_run, 0), E(vt_status, 0), X(vt_status, 0), E(vt_status, 0),
                           X(vt_status, 0), E(vt_status, 0), X(vt_status, 0), X(vt_run, 0), {0}};
    const struct op b[] = {E(vt_run, 0), E(vt_status, 0), X(vt_status, 0), E(vt_status, 0),
                           X(vt_status, 0), E(vt_status, 0), X(vt_status, 0), E(vt_status, 0),
                           X(vt_status, 0), X(vt_run, 0), {0}};
    const struct op gs[] = {E(vt_run, 0), E(vt_status, 0), X(vt_status, 0), E(vt_ok, 0),
                            X(vt_ok, 0), X(vt_run, 0), {0}};
    const struct op bs[] = {E(vt_run, 0), E(vt_status, 0), X(vt_status, 0), E(vt_fail, 0),
                            X(vt_fail, 0), X(vt_run, 0), {0}};
    ttd_options o;
    ttd_options_init(&o);
    for (int k = 0; k < 4; k++) {
        o.jobs = k % 2 ? 1 : 0;
        ttdi_prof_calls_read = 0;
        ttd_diff *d = k < 2 ? diff(g, b, &o) : diff(gs, bs, &o);
        const ttd_result *r = ttd_get_result(d);
        assert_int_equal(r->values, 1);
        assert_int_equal(fact_count(r, k < 2 ? "vt_status" : "vt_fail"), k < 2 ? 4 : 1);
        assert_int_equal(ttdi_prof_calls_read, k < 2 ? 0 : 2);
        ttd_free(d);
    }
}

/* A run of three threads: main, then two look-alike workers running
 * scripts w[0] and w[1] one after the other. */
static const char *write_pool(const struct op *const w[2])
{
    static char name[2][512];
    char *path = name[trace_no % 2];
    ttf_writer_opts o = {.chunk_size = 65536, .timed = 1, .values = 1};
    ttf_writer *wr;
    uint64_t tsc = 1000;

    snprintf(path, 512, "%s/w%d.trc", tu_tmpdir, trace_no++);
    wr = open_values(path, &o);
    for (uint32_t th = 1; th <= 2; th++) {
        assert_int_equal(ttf_write_thread_start(wr, th, tsc += 10, th + 1, "worker"), 0);
        for (const struct op *op = w[th - 1]; op->fn; op++) {
            uint64_t a = (uint64_t)(uintptr_t)op->fn, r[TTF_VALUE_REGS] = {op->a0, 0, 0, 0, 0, 0};
            if (op->exit)
                assert_int_equal(ttf_write_exit_value(wr, th, tsc += 10, a, op->a0), 0);
            else
                assert_int_equal(ttf_write_enter_values(wr, th, tsc += 10, a, r), 0);
        }
        assert_int_equal(ttf_write_thread_end(wr, th, tsc += 10), 0);
    }
    assert_int_equal(ttf_writer_close(wr, 0), 0);
    return path;
}

/* Two look-alike workers whose jobs changed hands between the runs (good:
 * worker 1 job 100, worker 2 job 200; bad: the reverse), and job 100
 * failed in the bad run (vt_check returned another value, with the same
 * argument). Both ok workers make the same calls, so by calls alone good
 * worker 1 pairs with bad worker 1 (creation order) and the jobs are
 * compared crosswise: "vt_check called with 200 against 100". With the
 * values' histogram the workers that did the same job pair, and the first
 * difference is what job 100's check returned. */
static void test_pool_pairs_by_values(void **state)
{
    static const struct op j100[] = {E(vt_run, 0), E(vt_check, 100), X(vt_check, 100),
                                     E(vt_ok, 0), X(vt_ok, 0), X(vt_run, 0), {0}};
    static const struct op j200[] = {E(vt_run, 0), E(vt_check, 200), X(vt_check, 200),
                                     E(vt_ok, 0), X(vt_ok, 0), X(vt_run, 0), {0}};
    static const struct op j100_bad[] = {E(vt_run, 0), E(vt_check, 100), X(vt_check, 7),
                                         E(vt_ok, 0), X(vt_ok, 0), X(vt_run, 0), {0}};
    const struct op *const good[2] = {j100, j200}, *const bad[2] = {j200, j100_bad};
    ttd_diff *d = NULL;
    ttf_error err;
    char gp[512];
    (void)state;

    snprintf(gp, sizeof gp, "%s", write_pool(good));
    int rc = ttd_diff_files(gp, write_pool(bad), NULL, &d, &err);
    if (rc)
        fail_msg("ttd_diff_files: %s", err.msg);
    const ttd_result *r = ttd_get_result(d);
    int crossed = 0;
    for (size_t i = 0; i < r->npairs; i++)
        if (r->pairs[i].good.index == 1)
            crossed = r->pairs[i].bad.index == 2;
    assert_true(crossed);   /* good worker 1 (job 100) with bad worker 2 */
    assert_non_null(r->value_first);
    assert_string_equal(r->value_first->function, "vt_check");
    assert_int_equal(r->value_first->what, TTD_VAL_RETURN);
    ttd_free(d);
}

int main(void)
{
    if (self_module_load() != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_same),
        cmocka_unit_test(test_comparator_sign),
        cmocka_unit_test(test_string_into_address),
        cmocka_unit_test(test_null_return),
        cmocka_unit_test(test_argument),
        cmocka_unit_test(test_prefix_then_rest),
        cmocka_unit_test(test_suspect_rank),
        cmocka_unit_test(test_baseline_noise),
        cmocka_unit_test(test_size_t_code),
        cmocka_unit_test(test_epochs),
        cmocka_unit_test(test_signature_by_epoch),
        cmocka_unit_test(test_plans),
        cmocka_unit_test(test_replay_plans),
        cmocka_unit_test(test_lazy_times),
        cmocka_unit_test(test_values_counts),
        cmocka_unit_test(test_pool_pairs_by_values),
    };
    return cmocka_run_group_tests(tests, tu_tmpdir_setup, tu_tmpdir_teardown);
}
