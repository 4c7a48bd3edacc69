/*
 * test_explain.c - the explain stage (diff/explain.c, replay.c,
 * evidence.c) on traces made with the format writer whose module is this
 * test binary (built with -g), so the xt_* functions below have real
 * signatures. One test per rule: evidence kinds and the scoring order;
 * the cause chain following returns (passed on) and arguments (computed
 * four frames up, or returned by a sibling); pointers by NULL / non-NULL
 * and by identity; clocks, counters and addresses not causes by
 * themselves, nor a deadline that follows each run's own clock; values
 * that vary between good runs; threads ordered by the
 * bad run's time; the same calls with another exit status; two identical
 * runs; the functions inlined into a call whose answer flipped with the
 * same inputs; a timeout that never expired and two calls that ran in the
 * other order after a timing-shaped hunk (not causes). The reports (text,
 * JSON, HTML) say it. A replay that goes on from align's replay of the
 * common prefix gives the reports a walk from the start gives.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "resolve.h"
#include "ttdiff.h"
#include "ttreport.h"
#include "report_util.h"
#include "self_module.h"
#include "tmpdir.h"

#define XT __attribute__((noinline, noipa, used))

struct xt_node { int key; };
XT int xt_main(int argc);
XT int xt_check(int x);
XT int xt_size(const long *p);
XT int xt_pass(int x);
XT int xt_load(int x);
XT void xt_ok(void);
XT void xt_fail(void);
XT void xt_skip(void);
XT int xt_top(const char *s);
XT void xt_f1(int n);
XT void xt_f2(int n);
XT void xt_f3(int n);
XT void xt_f4(int n);
XT long xt_get(void);
XT void xt_use(long v);
XT struct xt_node *xt_find(const char *k);
XT void xt_take(struct xt_node *n);
XT uint64_t xt_stamp(void);
XT long xt_time_now(void);
XT uint64_t xt_hash(const char *s);
XT int xt_work(int job);
struct xt_ts { long tv_sec; long tv_nsec; };   /* struct timespec's shape */
XT void xt_until(struct xt_ts ts);
XT void *xt_worker(void *a);
XT void xt_wait(void);
XT const char *xt_msg(int st);
XT int xt_integral(const double *v);
XT int xt_to_whole(const double *v);
enum xt_status { XT_STATUS_OK, XT_STATUS_DATA_ERROR };
XT bool xt_match(const char *s);
XT bool xt_token(const char *s);
XT void xt_next(const char *s);
XT enum xt_status xt_decode(int n);
XT unsigned xt_crc(const char *s);
XT int xt_endian(void);
XT void xt_mutex_lock(void);
XT void xt_mutex_unlock(void);
XT long xt_num(const char *s, size_t n);
static struct xt_node xt_nodes[2];
extern char _start[];       /* crt1.o's: no DWARF (its signature unknown) */

XT int xt_main(int argc) { return argc > 1; }
XT int xt_check(int x) { return x > 100 ? -22 : 0; }
XT int xt_size(const long *p) { return p ? (int)*p : -1; }
XT int xt_pass(int x) { return xt_check(x); }
XT int xt_load(int x) { return xt_pass(x); }
XT void xt_ok(void) { __asm__ volatile(""); }
XT void xt_fail(void) { __asm__ volatile(""); }
XT void xt_skip(void) { __asm__ volatile(""); }
XT int xt_top(const char *s) { return s ? 1 : 0; }
XT void xt_f1(int n) { __asm__ volatile("" :: "g"(n)); }
XT void xt_f2(int n) { __asm__ volatile("" :: "g"(n)); }
XT void xt_f3(int n) { __asm__ volatile("" :: "g"(n)); }
XT void xt_f4(int n) { __asm__ volatile("" :: "g"(n)); }
XT long xt_get(void) { return 7; }
XT void xt_use(long v) { __asm__ volatile("" :: "g"(v)); }
XT struct xt_node *xt_find(const char *k) { return k ? &xt_nodes[0] : NULL; }
XT void xt_take(struct xt_node *n) { __asm__ volatile("" :: "g"(n)); }
XT uint64_t xt_stamp(void) { return 1; }
XT long xt_time_now(void) { return 1; }
XT uint64_t xt_hash(const char *s) { return (uint64_t)(uintptr_t)s; }
XT int xt_work(int job) { return job; }
XT void xt_until(struct xt_ts ts) { __asm__ volatile("" :: "g"(ts.tv_sec), "g"(ts.tv_nsec)); }
XT void *xt_worker(void *a) { return a; }
XT void xt_wait(void) { __asm__ volatile(""); }
XT const char *xt_msg(int st) { return st ? "Start-end tags mismatch" : "No error"; }
/* Plain mode's answers: a leaf predicate, a caller that passes its answer
 * on, a void one that keeps it in memory; a status; a checksum (a number)
 * over a helper that answers; lock wrappers (by their names). */
XT bool xt_match(const char *s) { return s && s[0] == 'r'; }
XT bool xt_token(const char *s) { return xt_match(s); }
XT void xt_next(const char *s) { __asm__ volatile("" :: "g"(xt_token(s))); }
XT enum xt_status xt_decode(int n) { return n ? XT_STATUS_DATA_ERROR : XT_STATUS_OK; }
XT unsigned xt_crc(const char *s) { return s ? (unsigned)s[0] : 0u; }
XT int xt_endian(void) { return 1; }
XT void xt_mutex_lock(void) { __asm__ volatile(""); }
XT void xt_mutex_unlock(void) { __asm__ volatile(""); }
/* A number parser given a buffer and its length (not NUL-terminated). */
XT long xt_num(const char *s, size_t n) { return s && n ? s[0] - '0' : 0; }
/* A record written early and read back late (written.c): xt_plan writes
 * its size and page count, xt_stamp_rec another field, xt_set_large its
 * flag; xt_verify reads the size and the count, xt_get_large the flag. */
struct xt_rec { long size; int npages; int large; long stamp; };
XT int xt_plan(struct xt_rec *r, long size);
XT void xt_stamp_rec(struct xt_rec *r, long size);
XT int xt_verify(const struct xt_rec *r);
XT void xt_set_large(struct xt_rec *r, int large);
XT int xt_get_large(const struct xt_rec *r);
XT int xt_is_large(long size);
XT int xt_plan(struct xt_rec *r, long size)
{
    r->size = size;
    r->npages = (int)(size / 4096) + 1;
    return 0;
}
XT void xt_stamp_rec(struct xt_rec *r, long size) { r->stamp = size ^ 0x5a; }
XT int xt_verify(const struct xt_rec *r) { return r->npages * 4096L - 16 < r->size ? -1 : 0; }
XT void xt_set_large(struct xt_rec *r, int large) { r->large = large; }
XT int xt_get_large(const struct xt_rec *r) { return r->large; }
XT int xt_is_large(long size) { return size > 4112; }
XT struct xt_rec *xt_new_rec(long size);
XT struct xt_rec *xt_new_rec(long size)
{
    static struct xt_rec one;
    one.size = size;
    one.npages = (int)(size / 4096);
    return &one;
}

/* A decision made inside a function by helpers the compiler inlined into
 * it (no ENTER of their own in values mode): xt_integral() holds
 * xt_whole(), which holds xt_fits() (deepest); its one traced call,
 * xt_get(), returns the same in both runs. xt_integral keeps the answer
 * in a variable of its own (not a wrapper); xt_to_whole only returns
 * xt_whole's answer (a wrapper: its source says so). */
static inline __attribute__((always_inline)) int xt_fits(double v)
{
    return v > -9e18 && v < 9e18;
}
static inline __attribute__((always_inline)) int xt_whole(double v)
{
    return xt_fits(v) && v == (double)(long)v;
}
XT int xt_integral(const double *v)
{
    int whole = xt_whole(*v + (double)xt_get());
    return whole;
}
XT int xt_to_whole(const double *v)
{
    return xt_whole(*v + (double)xt_get());
}

/* One step: enter fn (args a0, a1) or exit it (result a0), on thread th. */
struct op {
    void *fn;                   /* NULL ends the script */
    int exit;                   /* 1: exit */
    uint32_t th;                /* thread */
    uint64_t a0, a1;            /* arguments, or the result */
    int sop;                    /* TTF_SOP_*: a SYNC_OP record instead */
    const char *str;            /* ENTER: the string its first argument
                                   points to, as recorded (format 1.6) */
};

#define E(f, a) {(void *)(f), 0, 0, (uint64_t)(a), 0, 0, NULL}
#define E2(f, a, b) {(void *)(f), 0, 0, (uint64_t)(a), (uint64_t)(b), 0, NULL}
#define X(f, r) {(void *)(f), 1, 0, (uint64_t)(r), 0, 0, NULL}
/* enter f with a string (recorded bytes str) at 0x5000 and length n */
#define ES(f, str, n) {(void *)(f), 0, 0, 0x5000, (uint64_t)(n), 0, str}
#define TE(t, f, a) {(void *)(f), 0, t, (uint64_t)(a), 0, 0, NULL}
#define TX(t, f, r) {(void *)(f), 1, t, (uint64_t)(r), 0, 0, NULL}
#define TS(t, op) {(void *)xt_wait, 0, t, 0, 0, op, NULL}
/* An I/O wait (SLEEP) on thread 0 that asked for ns nanoseconds; it blocks
 * until the next op, 10 ns later. */
#define SLEEPS(ns) {(void *)xt_wait, 0, 0, (uint64_t)(ns), 0, TTF_SOP_SLEEP, NULL}

static int trace_no;
static uint64_t tsc_from[2];   /* not 0: the good and the bad trace's first
                                  tsc (ns: CLOCK_MONOTONIC in the chunk
                                  headers), in the order written */
static int tsc_from_k;
static uint32_t end_thread;    /* the thread whose stream gets END (exit) */
static int killed;             /* 1: the next traces are abandoned (killed) */
static uint64_t trace_shift;   /* added to the module's base and every
                                  function address: another ASLR layout */
static uint64_t late_at;       /* not 0: a second copy of the test binary
                                  is loaded at late_base before the first
                                  op at or after this time (dlopen) */
static const uint64_t late_base = 0x7e0000000000ull;
static int lazy;               /* 1: the lazy clock, chained (format 1.9):
                                  EXITs untimed but every 4th (and the
                                  ENTERs after them), placed when read */

/* A trace of ops (every op 10 ns after the one before, threads
 * interleaved as listed), exit status status; values recorded if values. */
static const char *write_trace(const struct op *ops, int status, int values)
{
    static char name[4][512];
    char *path = name[trace_no % 4];
    ttf_writer_opts o = {.chunk_size = 65536, .timed = 1, .values = values, .sparse = lazy,
                         .lazy = lazy, .chain = lazy};
    ttf_writer *w;
    uint64_t tsc = tsc_from[0] ? tsc_from[tsc_from_k++ & 1] : 1000;
    uint32_t nth = 1, nexit = 0;

    for (const struct op *p = ops; p->fn; p++)
        nth = p->th + 1 > nth ? p->th + 1 : nth;
    snprintf(path, 512, "%s/x%d.trc", tu_tmpdir, trace_no++);
    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    for (uint32_t t = 0; t < nth; t++)
        assert_int_equal(ttf_write_thread_start(w, t, 100 + t, 1 + t, t ? "worker" : "main"), 0);
    assert_int_equal(ttf_write_module(w, 0, 100, tu_self.base + trace_shift, tu_self.size,
                                      tu_self.build_id, tu_self.build_id_len, tu_self.path), 0);
    for (; ops->fn; ops++) {
        uint64_t a = (uint64_t)(uintptr_t)ops->fn + trace_shift;
        uint64_t r[TTF_VALUE_REGS] = {ops->a0, ops->a1, 0, 0, 0, 0};
        tsc += 10;
        if (late_at && tsc >= late_at) {
            assert_int_equal(ttf_write_module(w, 0, tsc - 1, late_base, tu_self.size,
                                              tu_self.build_id, tu_self.build_id_len,
                                              tu_self.path), 0);
            late_at = 0;
        }
        if (ops->str && values && !ops->exit) {
            ttf_string st = {0, 0, (unsigned)strlen(ops->str), 1, 0,
                             (const uint8_t *)ops->str};
            assert_int_equal(ttf_write_strings(w, ops->th, &st, 1), 0);
        }
        if (ops->sop)
            assert_int_equal(ttf_write_sync_op(w, ops->th, tsc, ops->sop, 0x1000, ops->a0), 0);
        else if (!values && ops->exit)
            assert_int_equal(ttf_write_exit(w, ops->th, tsc, a), 0);
        else if (!values)
            assert_int_equal(ttf_write_enter(w, ops->th, tsc, a), 0);
        else if (ops->exit && lazy)
            assert_int_equal(ttf_write_exit_value_sparse(w, ops->th, tsc, a, ops->a0,
                                                         nexit++ % 4 != 3 ? TTF_EXIT_UNTIMED
                                                                          : TTF_EXIT_TIMED), 0);
        else if (ops->exit)
            assert_int_equal(ttf_write_exit_value(w, ops->th, tsc, a, ops->a0), 0);
        else
            assert_int_equal(ttf_write_enter_values(w, ops->th, tsc, a, r), 0);
    }
    if (killed)     /* ended from outside: no clean end */
        assert_int_equal(ttf_writer_abandon(w), 0);
    else
        assert_int_equal(ttf_writer_close_in(w, end_thread, status), 0);
    return path;
}

static ttd_diff *diff_x(const struct op *g, int gs, const struct op *b, int bs, int values,
                        const ttd_options *o)
{
    ttd_diff *d = NULL;
    ttf_error err;
    char gp[512];
    snprintf(gp, sizeof gp, "%s", write_trace(g, gs, values));
    int rc = ttd_diff_files(gp, write_trace(b, bs, values), o, &d, &err);
    if (rc)
        fail_msg("ttd_diff_files: %s", err.msg);
    return d;
}

static ttd_diff *diff(const struct op *g, const struct op *b)
{
    ttd_options o;
    ttd_options_init(&o);
    o.suspects = 6;
    return diff_x(g, 0, b, 0, 1, &o);
}

static const ttd_suspect *sus(const ttd_divergence *dv, const char *name)
{
    for (size_t i = 0; i < dv->nsuspects; i++)
        if (strcmp(dv->suspects[i].name, name) == 0)
            return &dv->suspects[i];
    fail_msg("no suspect %s", name);
    return NULL;
}

static int has_ev(const ttd_suspect *s, int kind)
{
    for (size_t i = 0; i < s->nevidence; i++)
        if (s->evidence[i].kind == kind)
            return 1;
    return 0;
}

/* Without values, position alone never puts a callee above the diverging
 * frame: the frame has diverging_frame evidence, the callee only distance
 * (at most 1; xt_load's int alone is no answer: answer_evidence); every
 * suspect's score is the sum of its weights. */
static void test_frame_first_plain(void **state)
{
    (void)state;
    const struct op g[] = {E(xt_main, 1), E(xt_load, 5), X(xt_load, 0), E(xt_ok, 0),
                           X(xt_ok, 0), X(xt_main, 0), {0}};
    const struct op b[] = {E(xt_main, 1), E(xt_load, 5), X(xt_load, 0), E(xt_fail, 0),
                           X(xt_fail, 0), X(xt_main, 0), {0}};
    ttd_diff *d = diff_x(g, 0, b, 0, 0, NULL);
    const ttd_divergence *dv = ttd_get_result(d)->first;
    assert_non_null(dv);
    assert_string_equal(dv->suspects[0].name, "xt_main");
    assert_int_equal(dv->suspects[0].role, TTD_SUSPECT_FRAME);
    assert_true(has_ev(&dv->suspects[0], TTD_EV_FRAME));
    const ttd_suspect *l = sus(dv, "xt_load");
    assert_true(has_ev(l, TTD_EV_DISTANCE));
    assert_true(l->score <= 1.0 && l->score < dv->suspects[0].score);
    for (size_t i = 0; i < dv->nsuspects; i++) {
        double sum = 0;
        for (size_t k = 0; k < dv->suspects[i].nevidence; k++)
            sum += dv->suspects[i].evidence[k].weight;
        assert_true(sum > dv->suspects[i].score - 1e-9 && sum < dv->suspects[i].score + 1e-9);
        assert_true(i == 0 || dv->suspects[i - 1].score >= dv->suspects[i].score);
    }
    /* the chain is the split alone, and says why */
    assert_int_equal(dv->nchain, 1);
    assert_int_equal(dv->chain[0].kind, TTD_CAUSE_SPLIT);
    assert_string_equal(dv->chain_end, "values not recorded");
    ttd_free(d);
}

/* Plain mode: a script of the calls that return one after the other
 * before the split (mid: the ops between the frame's entry and the split,
 * NULL-terminated by {0}), then xt_ok in the good run and xt_fail in the
 * bad one; values recorded if values. */
static ttd_diff *answer_diff(const struct op *mid, int values)
{
    struct op g[32], b[32];
    size_t n = 0;

    g[n] = b[n] = (struct op)E(xt_main, 1);
    n++;
    for (; mid->fn; mid++, n++)
        g[n] = b[n] = *mid;
    g[n] = (struct op)E(xt_ok, 0);
    b[n] = (struct op)E(xt_fail, 0);
    n++;
    g[n] = (struct op)X(xt_ok, 0);
    b[n] = (struct op)X(xt_fail, 0);
    n++;
    g[n] = b[n] = (struct op)X(xt_main, 0);
    n++;
    g[n] = b[n] = (struct op){0};
    ttd_options o;
    ttd_options_init(&o);
    o.suspects = 6;
    return diff_x(g, 0, b, 0, values, &o);
}

/* The suspect that has answer_used evidence, NULL if none. */
static const ttd_suspect *answered(const ttd_divergence *dv)
{
    const ttd_suspect *a = NULL;
    for (size_t i = 0; i < dv->nsuspects; i++)
        if (has_ev(&dv->suspects[i], TTD_EV_ANSWER)) {
            assert_null(a);     /* one at most */
            a = &dv->suspects[i];
        }
    return a;
}

/* Plain mode: the frame's calls part right after xt_next (void) returned,
 * which returned right after xt_token (bool), right after xt_match (bool,
 * a leaf): the branch acted on the answer xt_match made and the calls
 * above it passed up (xt_token returns it, xt_next keeps it in memory).
 * xt_match ranks first (answer_used), above the frame, and heads the
 * verdict ("answer", possible); the calls between are named in the
 * evidence, and have none of it. */
static void test_answer_plain(void **state)
{
    (void)state;
    const struct op mid[] = {E(xt_next, 0), E(xt_token, 0), E(xt_match, 0), X(xt_match, 0),
                             X(xt_token, 0), X(xt_next, 0), {0}};
    ttd_diff *d = answer_diff(mid, 0);
    const ttd_result *r = ttd_get_result(d);
    const ttd_divergence *dv = r->first;
    assert_non_null(dv);
    assert_string_equal(dv->suspects[0].name, "xt_match");
    assert_int_equal(dv->suspects[0].role, TTD_SUSPECT_RETURNED);
    assert_ptr_equal(answered(dv), &dv->suspects[0]);
    const ttd_evidence *ev = &dv->suspects[0].evidence[0];
    assert_int_equal(ev->kind, TTD_EV_ANSWER);
    assert_true(ev->weight > TTDI_W_FRAME);
    assert_non_null(strstr(ev->text, "(_Bool)"));      /* C's name for it */
    assert_non_null(strstr(ev->text, "`xt_token`, `xt_next`"));
    assert_non_null(strstr(ev->text, "to `xt_main`"));
    assert_string_equal(dv->suspects[1].name, "xt_main");
    assert_int_equal(dv->suspects[1].role, TTD_SUSPECT_FRAME);
    assert_string_equal(ttd_evidence_name(TTD_EV_ANSWER), "answer_used");
    assert_non_null(r->verdict->cause);
    assert_int_equal(r->verdict->cause->kind, TTD_COF_ANSWER);
    assert_string_equal(ttd_cause_of_name(TTD_COF_ANSWER), "answer");
    assert_string_equal(r->verdict->cause->function, "xt_match");
    assert_int_equal(r->verdict->confidence, TTD_CONF_POSSIBLE);
    assert_ptr_equal(r->verdict->cause->text, ev->text);
    ttd_free(d);

    /* a status (enum) over a checksum (a number): the status; the lock
     * wrappers called after it take no decision and are passed over */
    const struct op lk[] = {E(xt_decode, 1), E(xt_crc, 0), X(xt_crc, 7), X(xt_decode, 1),
                            E(xt_mutex_lock, 0), X(xt_mutex_lock, 0), E(xt_mutex_unlock, 0),
                            X(xt_mutex_unlock, 0), {0}};
    d = answer_diff(lk, 0);
    dv = ttd_get_result(d)->first;
    assert_string_equal(dv->suspects[0].name, "xt_decode");
    assert_ptr_equal(answered(dv), &dv->suspects[0]);
    assert_non_null(strstr(dv->suspects[0].evidence[0].text, "(xt_status)"));
    assert_non_null(strstr(dv->suspects[0].evidence[0].text, "lock"));
    ttd_free(d);
}

/* Must not: where the line of calls returning one after the other gives
 * no answer, the frame stays first and nothing has answer_used: a
 * checksum (unsigned) returned last, the frame compared it, however the
 * helper below it answered (xt_endian, an int: below a number, it made
 * no answer the branch used); the frame's first call is where the runs
 * part (no callee returned before); a lock wrapper is all the frame
 * called after its own entry; one int alone (xt_work: a count the frame
 * may go on with, no caller passed it up as an answer); values recorded
 * (the values are followed instead, and xt_match's, the same in both
 * runs, decide nothing). */
static void test_answer_not(void **state)
{
    (void)state;
    const struct op crc[] = {E(xt_crc, 0), E(xt_endian, 0), X(xt_endian, 1), X(xt_crc, 7), {0}};
    const struct op none[] = {{0}};
    const struct op lock[] = {E(xt_mutex_lock, 0), X(xt_mutex_lock, 0), {0}};
    const struct op one[] = {E(xt_work, 3), X(xt_work, 3), {0}};
    const struct op *const cases[] = {crc, none, lock, one};
    for (size_t i = 0; i < 4; i++) {
        ttd_diff *d = answer_diff(cases[i], 0);
        const ttd_result *r = ttd_get_result(d);
        assert_non_null(r->first);
        assert_string_equal(r->first->suspects[0].name, "xt_main");
        assert_int_equal(r->first->suspects[0].role, TTD_SUSPECT_FRAME);
        assert_null(answered(r->first));
        assert_int_equal(r->verdict->cause->kind, TTD_COF_SPLIT);
        ttd_free(d);
    }
    const struct op mid[] = {E(xt_next, 0), E(xt_token, 0), E(xt_match, 0), X(xt_match, 1),
                             X(xt_token, 1), X(xt_next, 0), {0}};
    ttd_diff *d = answer_diff(mid, 1);
    const ttd_result *r = ttd_get_result(d);
    assert_int_equal(r->values, 1);
    assert_null(answered(r->first));
    assert_int_not_equal(r->verdict->cause->kind, TTD_COF_ANSWER);
    ttd_free(d);
}

/* An error code passed up: xt_check returns -22, xt_pass and xt_load pass
 * it on; the chain follows the same value down to where it began, which
 * ranks first (value_differs, error_appears, on_cause_chain), above the
 * diverging frame. */
static void test_chain_returns(void **state)
{
    (void)state;
    const struct op g[] = {E(xt_main, 1), E(xt_load, 5), E(xt_pass, 5), E(xt_check, 5),
                           X(xt_check, 0), X(xt_pass, 0), X(xt_load, 0), E(xt_ok, 0),
                           X(xt_ok, 0), X(xt_main, 0), {0}};
    const struct op b[] = {E(xt_main, 1), E(xt_load, 5), E(xt_pass, 5), E(xt_check, 5),
                           X(xt_check, -22), X(xt_pass, -22), X(xt_load, -22), E(xt_fail, 0),
                           X(xt_fail, 0), X(xt_main, 0), {0}};
    ttd_diff *d = diff(g, b);
    const ttd_result *r = ttd_get_result(d);
    const ttd_divergence *dv = r->first;
    assert_non_null(dv);
    assert_int_equal(dv->nchain, 4);
    assert_int_equal(dv->chain[0].kind, TTD_CAUSE_RETURNED);
    assert_string_equal(dv->chain[0].function, "xt_check");
    assert_string_equal(dv->chain[0].bad_value, "-22");
    assert_string_equal(dv->chain[0].good_value, "0");
    assert_int_equal(dv->chain[0].strong, 1);     /* passed on as is */
    assert_string_equal(dv->chain[1].function, "xt_pass");
    assert_string_equal(dv->chain[2].function, "xt_load");
    assert_int_equal(dv->chain[3].kind, TTD_CAUSE_SPLIT);
    assert_string_equal(dv->chain[3].function, "xt_main");
    assert_string_equal(dv->chain_end, "no earlier value differs");
    assert_string_equal(dv->suspects[0].name, "xt_check");
    assert_true(has_ev(&dv->suspects[0], TTD_EV_VALUE));
    assert_true(has_ev(&dv->suspects[0], TTD_EV_ERROR));
    assert_true(has_ev(&dv->suspects[0], TTD_EV_CHAIN));
    assert_false(has_ev(sus(dv, "xt_pass"), TTD_EV_ERROR)); /* it only passed it on */
    assert_true(sus(dv, "xt_main")->score < dv->suspects[0].score);
    /* the headline is the chain's earliest value */
    assert_non_null(r->value_first);
    assert_string_equal(r->value_first->function, "xt_check");
    assert_int_equal(r->value_first->before_split, 1);
    ttd_free(d);
}

/* A failure-looking value the good run's normal paths return too (EOF's
 * -1 from a character reader) is not called an error when it flips: the
 * good run's xt_check returned -22 before, so the flip at the split says
 * "a value the good run returns too"; without that earlier call, "an
 * error in the bad run". */
static void test_flip_learned(void **state)
{
    (void)state;
    const struct op g[] = {E(xt_main, 1), E(xt_check, 7), X(xt_check, -22),
                           E(xt_load, 5), E(xt_pass, 5), E(xt_check, 5),
                           X(xt_check, 0), X(xt_pass, 0), X(xt_load, 0), E(xt_ok, 0),
                           X(xt_ok, 0), X(xt_main, 0), {0}};
    const struct op b[] = {E(xt_main, 1), E(xt_check, 7), X(xt_check, -22),
                           E(xt_load, 5), E(xt_pass, 5), E(xt_check, 5),
                           X(xt_check, -22), X(xt_pass, -22), X(xt_load, -22), E(xt_fail, 0),
                           X(xt_fail, 0), X(xt_main, 0), {0}};
    ttd_diff *d = diff(g, b);
    const ttd_divergence *dv = ttd_get_result(d)->first;
    assert_non_null(dv);
    const ttd_suspect *s = sus(dv, "xt_check");
    assert_non_null(s);
    int seen = 0;
    for (size_t i = 0; i < s->nevidence; i++) {
        if (s->evidence[i].kind != TTD_EV_ERROR)
            continue;
        seen = 1;
        assert_non_null(strstr(s->evidence[i].text, "a value the good run returns too"));
    }
    assert_true(seen);
    ttd_free(d);
    /* the same flip with no earlier -22: an error */
    const struct op g2[] = {E(xt_main, 1), E(xt_load, 5), E(xt_pass, 5), E(xt_check, 5),
                            X(xt_check, 0), X(xt_pass, 0), X(xt_load, 0), E(xt_ok, 0),
                            X(xt_ok, 0), X(xt_main, 0), {0}};
    const struct op b2[] = {E(xt_main, 1), E(xt_load, 5), E(xt_pass, 5), E(xt_check, 5),
                            X(xt_check, -22), X(xt_pass, -22), X(xt_load, -22), E(xt_fail, 0),
                            X(xt_fail, 0), X(xt_main, 0), {0}};
    d = diff(g2, b2);
    s = sus(ttd_get_result(d)->first, "xt_check");
    for (size_t i = 0; i < s->nevidence; i++)
        if (s->evidence[i].kind == TTD_EV_ERROR)
            assert_non_null(strstr(s->evidence[i].text, "an error in the bad run"));
    ttd_free(d);
}

/* The error origin (issue 33): xt_check returns an ordinary value that
 * differs (56320 for 65, a code point), xt_pass turns it into 0, which
 * none of its good-run calls returned (a length: 3, then 6), and xt_load
 * only passes the 0 on. xt_pass, where success became failure, ranks
 * above the producer and the propagator, and heads the verdict. */
static void test_error_origin(void **state)
{
    (void)state;
#define ORIGIN(v, len, last) {E(xt_main, 1), E(xt_load, 1), E(xt_pass, 1), E(xt_check, 1), \
        X(xt_check, 65), X(xt_pass, 3), X(xt_load, 3), E(xt_load, 2), E(xt_pass, 2), \
        E(xt_check, 2), X(xt_check, v), X(xt_pass, len), X(xt_load, len), E(last, 0), \
        X(last, 0), X(xt_main, 0), {0}}
    const struct op g[] = ORIGIN(65, 6, xt_ok);
    const struct op b[] = ORIGIN(56320, 0, xt_fail);
    ttd_diff *d = diff(g, b);
    const ttd_result *r = ttd_get_result(d);
    const ttd_divergence *dv = r->first;
    assert_non_null(dv);
    assert_string_equal(dv->chain[0].function, "xt_check");
    assert_string_equal(dv->suspects[0].name, "xt_pass");
    assert_true(has_ev(&dv->suspects[0], TTD_EV_ERROR));
    assert_false(has_ev(sus(dv, "xt_load"), TTD_EV_ERROR));   /* passed it on */
    assert_false(has_ev(sus(dv, "xt_check"), TTD_EV_ERROR));  /* an ordinary value */
    assert_true(sus(dv, "xt_check")->score < dv->suspects[0].score);
    assert_non_null(r->verdict);
    assert_non_null(r->verdict->cause);
    assert_int_equal(r->verdict->cause->kind, TTD_COF_ERROR_ORIGIN);
    assert_string_equal(r->verdict->cause->function, "xt_pass");
    assert_non_null(strstr(dv->suspects[0].evidence[1].text, "returned 0 in the bad run, "
                           "which none of its 2 calls in the good run did"));
    ttd_free(d);
#undef ORIGIN
}

/* An error origin given a pointer (compared as a pointer: what it points
 * to is not in the trace): xt_size returns 4 in the good run, -1 (which
 * no good call returned) in the bad one, for the same pointer. Alone in
 * the process it is "likely"; with another thread running (a worker that
 * may have written what the pointer reaches) "possible", and the verdict
 * says why. */
static void test_origin_pointer_threads(void **state)
{
    (void)state;
#define SZ(ret, last) {E(xt_main, 1), E(xt_size, 0x5000), X(xt_size, ret), E(last, 0), \
        X(last, 0), X(xt_main, 0), {0}}
#define SZW(ret, last) {TE(1, xt_worker, 0), TE(1, xt_work, 3), TX(1, xt_work, 3), \
        E(xt_main, 1), E(xt_size, 0x5000), X(xt_size, ret), E(last, 0), X(last, 0), \
        X(xt_main, 0), TX(1, xt_worker, 0), {0}}
    for (int threads = 0; threads <= 1; threads++) {
        const struct op g[] = SZ(4, xt_ok), b[] = SZ(-1, xt_fail);
        const struct op gw[] = SZW(4, xt_ok), bw[] = SZW(-1, xt_fail);
        ttd_diff *d = threads ? diff(gw, bw) : diff(g, b);
        const ttd_result *r = ttd_get_result(d);
        assert_non_null(r->verdict->cause);
        assert_int_equal(r->verdict->cause->kind, TTD_COF_ERROR_ORIGIN);
        assert_string_equal(r->verdict->cause->function, "xt_size");
        assert_int_equal(r->verdict->confidence, threads ? TTD_CONF_POSSIBLE : TTD_CONF_LIKELY);
        int said = 0;
        for (size_t i = 0; i < r->verdict->nevidence; i++)
            said |= strstr(r->verdict->evidence[i], "other threads ran when `xt_size` was "
                                                    "called") != NULL;
        assert_int_equal(said, threads);
        ttd_free(d);
    }
#undef SZ
#undef SZW
}

/* 1 if suspect s has the evidence that the failure starts in its own
 * branch on an ordinary value (explain.c frame_decides). */
static int decides(const ttd_suspect *s)
{
    for (size_t i = 0; i < s->nevidence; i++)
        if (s->evidence[i].kind == TTD_EV_ERROR &&
            strstr(s->evidence[i].text, "its calls part on an ordinary value"))
            return 1;
    return 0;
}

/* The error origin at the split (issue 33 item 2): xt_check(5) returns an
 * ordinary number that differs (a checksum of data it read: 1234, 4321)
 * with the same argument and no callees, and xt_main's calls part on it.
 * xt_check only produced a value; xt_main turned it into the failure: it
 * ranks first and heads the verdict as the error origin ("possible": the
 * rule is not measured to earn "likely"). Must not fire: the producer's
 * argument differs (the chain goes on to who computed it), the value is
 * a failure itself (-22: xt_check is the origin), and a value another
 * call made from it (xt_pass turned 1234 into 99: not passed on as is). */
static void test_frame_decides(void **state)
{
    (void)state;
#define DECIDES(arg, v, last) {E(xt_main, 1), E(xt_check, arg), X(xt_check, v), E(last, 0), \
        X(last, 0), X(xt_main, 0), {0}}
    const struct op g[] = DECIDES(5, 1234, xt_ok);
    const struct op b[] = DECIDES(5, 4321, xt_fail);
    ttd_diff *d = diff(g, b);
    const ttd_result *r = ttd_get_result(d);
    const ttd_divergence *dv = r->first;
    assert_non_null(dv);
    assert_string_equal(dv->chain[0].function, "xt_check");
    assert_string_equal(dv->suspects[0].name, "xt_main");
    assert_true(decides(&dv->suspects[0]));
    assert_true(has_ev(sus(dv, "xt_check"), TTD_EV_VALUE));
    assert_false(has_ev(sus(dv, "xt_check"), TTD_EV_ERROR));
    assert_non_null(r->verdict->cause);
    assert_int_equal(r->verdict->cause->kind, TTD_COF_ERROR_ORIGIN);
    assert_string_equal(r->verdict->cause->function, "xt_main");
    assert_int_equal(r->verdict->confidence, TTD_CONF_POSSIBLE);
    ttd_free(d);
    /* must not: the producer's argument differs */
    const struct op g1[] = DECIDES(5, 1234, xt_ok);
    const struct op b1[] = DECIDES(9, 4321, xt_fail);
    d = diff(g1, b1);
    dv = ttd_get_result(d)->first;
    assert_false(decides(sus(dv, "xt_main")));
    ttd_free(d);
    /* must not: the value is a failure itself */
    const struct op g2[] = DECIDES(5, 0, xt_ok);
    const struct op b2[] = DECIDES(5, -22, xt_fail);
    d = diff(g2, b2);
    dv = ttd_get_result(d)->first;
    assert_string_equal(dv->suspects[0].name, "xt_check");
    assert_false(decides(sus(dv, "xt_main")));
    ttd_free(d);
#undef DECIDES
    /* must not: xt_pass made another value of it */
#define MADE(v, w, last) {E(xt_main, 1), E(xt_pass, 5), E(xt_check, 5), X(xt_check, v), \
        X(xt_pass, w), E(last, 0), X(last, 0), X(xt_main, 0), {0}}
    const struct op g3[] = MADE(1234, 99, xt_ok);
    const struct op b3[] = MADE(4321, 77, xt_fail);
    d = diff(g3, b3);
    dv = ttd_get_result(d)->first;
    assert_false(decides(sus(dv, "xt_main")));
    ttd_free(d);
#undef MADE
}

/* Data flow further back (issue 33): xt_top computes a length and stores
 * it (xt_use(v): a setter), xt_get returns it much later (a getter whose
 * callees and arguments explain nothing: it read memory), and main's
 * calls part on it. The chain goes from the getter to the setter's
 * argument (stored and read back), then to xt_top, which computed it. */
static void test_stored_read_back(void **state)
{
    (void)state;
#define STORED(v, last) {E(xt_main, 1), E(xt_top, 0x5000), E(xt_use, v), X(xt_use, 0), \
        X(xt_top, 1), E(xt_f1, 3), X(xt_f1, 0), E(xt_get, 0), X(xt_get, v), E(last, 0), \
        X(last, 0), X(xt_main, 0), {0}}
    const struct op g[] = STORED(500, xt_ok);
    const struct op b[] = STORED(900, xt_fail);
    ttd_diff *d = diff(g, b);
    const ttd_result *r = ttd_get_result(d);
    const ttd_divergence *dv = r->first;
    assert_non_null(dv);
    assert_int_equal(dv->nchain, 3);
    assert_int_equal(dv->chain[0].kind, TTD_CAUSE_ARGUMENT);
    assert_string_equal(dv->chain[0].function, "xt_use");
    assert_string_equal(dv->chain[0].bad_value, "900");
    assert_non_null(strstr(dv->chain[0].text, "returned later by `xt_get` (read back)"));
    assert_string_equal(dv->chain[1].function, "xt_get");
    assert_non_null(strstr(dv->chain_end, "`xt_top` computed the argument"));
    assert_string_equal(dv->suspects[0].name, "xt_top");
    assert_string_equal(r->verdict->cause->function, "xt_top");
    ttd_free(d);
#undef STORED
}

/* Data written early and read back much later (issue 33 items 2-3,
 * written.c): xt_plan(rec, size) stores a count computed from the size,
 * xt_stamp_rec(rec, size) another field, xt_f1(n) sums (no record); much
 * later xt_verify(rec), whose calls part, saw no value of its own differ.
 * The writer is xt_plan: the same record (pointer) in each run, a size
 * that differs, and its code writes a field xt_verify's code reads; it
 * heads the verdict as "written", the chain stops at it and says why.
 * Must not: xt_stamp_rec (the same record, later, another size) writes
 * no field xt_verify reads; xt_f1 and xt_work (later still, another
 * value; xt_work returned another sum right before the split) are no
 * writers of the record; xt_plan given another record than xt_verify
 * reads is no writer either: the chain stays at the split, and the
 * verdict blames no earlier value the chain does not tie to the split
 * (xt_work's): the branch, "unknown"; two runs alike do not diverge. */
#define REC 0x5000
#define WRITE(prec, sz, last) {E(xt_main, 1), E2(xt_plan, prec, sz), X(xt_plan, 0), \
        E2(xt_stamp_rec, REC, sz), X(xt_stamp_rec, 0), E(xt_f1, sz), X(xt_f1, 0), \
        E(xt_work, sz), X(xt_work, sz % 97), E(xt_verify, REC), E(last, 0), X(last, 0), \
        X(xt_verify, 0), X(xt_main, 0), {0}}
static void test_written_read_back(void **state)
{
    (void)state;
    const struct op g[] = WRITE(REC, 8000, xt_ok), b[] = WRITE(REC, 8180, xt_fail);
    ttd_diff *d = diff(g, b);
    const ttd_result *r = ttd_get_result(d);
    const ttd_divergence *dv = r->first;
    assert_non_null(dv);
    assert_int_equal(dv->nchain, 2);
    assert_int_equal(dv->chain[0].kind, TTD_CAUSE_ARGUMENT);
    assert_string_equal(dv->chain[0].function, "xt_plan");
    assert_string_equal(dv->chain[0].bad_value, "8180");
    assert_false(dv->chain[0].strong);
    assert_non_null(strstr(dv->chain[0].text, "the object `xt_verify` reads (r): its code "
                                              "writes +0x0 of a `struct xt_rec`"));
    assert_non_null(strstr(dv->chain_end, "`xt_plan` wrote what `xt_verify` read back"));
    assert_string_equal(dv->suspects[0].name, "xt_plan");
    assert_true(has_ev(&dv->suspects[0], TTD_EV_WRITTEN));
    assert_false(has_ev(&dv->suspects[0], TTD_EV_TRIVIAL));
    assert_false(has_ev(sus(dv, "xt_stamp_rec"), TTD_EV_WRITTEN));
    assert_int_equal(r->verdict->cause->kind, TTD_COF_WRITTEN);
    assert_string_equal(r->verdict->cause->function, "xt_plan");
    assert_int_equal(r->verdict->confidence, TTD_CONF_POSSIBLE);
    assert_string_equal(ttd_evidence_name(TTD_EV_WRITTEN), "wrote_read_back");
    assert_string_equal(ttd_cause_of_name(TTD_COF_WRITTEN), "written");
    ttd_free(d);
    /* must not: another record (the writer's pointer is not the reader's) */
    const struct op g1[] = WRITE(0x6000, 8000, xt_ok), b1[] = WRITE(0x6000, 8180, xt_fail);
    d = diff(g1, b1);
    r = ttd_get_result(d);
    for (size_t i = 0; i < r->first->nchain; i++)
        assert_string_not_equal(r->first->chain[i].function, "xt_plan");
    assert_true(has_ev(sus(r->first, "xt_work"), TTD_EV_VALUE));
    assert_int_equal(r->verdict->cause->kind, TTD_COF_SPLIT);
    assert_string_equal(r->verdict->cause->function, "xt_verify");
    assert_int_equal(r->verdict->confidence, TTD_CONF_UNKNOWN);
    ttd_free(d);
    /* must not: two runs alike */
    d = diff(b, b);
    r = ttd_get_result(d);
    assert_false(r->diverged);
    assert_int_equal(r->verdict->exit, 0);
    ttd_free(d);
#undef WRITE
    /* must not: only the neighbour field's writer got another value */
#define STAMP(sz, last) {E(xt_main, 1), E2(xt_plan, REC, 8000), X(xt_plan, 0), \
        E2(xt_stamp_rec, REC, sz), X(xt_stamp_rec, 0), E(xt_f1, sz), X(xt_f1, 0), \
        E(xt_work, sz), X(xt_work, sz % 97), E(xt_verify, REC), E(last, 0), X(last, 0), \
        X(xt_verify, 0), X(xt_main, 0), {0}}
    const struct op g2[] = STAMP(8000, xt_ok), b2[] = STAMP(8180, xt_fail);
    d = diff(g2, b2);
    r = ttd_get_result(d);
    assert_int_equal(r->first->nchain, 1);
    assert_string_equal(r->verdict->cause->function, "xt_verify");
    assert_int_equal(r->verdict->confidence, TTD_CONF_UNKNOWN);
    ttd_free(d);
#undef STAMP
}

/* An answer that flipped inside the writer: xt_plan, given the record
 * xt_verify reads, called xt_check, which answered -22 in the bad run (0
 * in the good one): the writer stored what it made of that answer, and
 * the chain goes on into it (as own_flip links one inside a call that
 * returned the same): xt_check is where the failure starts. Must not: an
 * ordinary number that differs inside (5 for 6) is no step: the chain
 * stops at the writer. */
#define INSIDE(sz, v, last) {E(xt_main, 1), E2(xt_plan, REC, sz), E(xt_check, 7), \
        X(xt_check, v), X(xt_plan, 0), E(xt_f1, 2), X(xt_f1, 0), E(xt_verify, REC), \
        E(last, 0), X(last, 0), X(xt_verify, 0), X(xt_main, 0), {0}}
static void test_written_flip_inside(void **state)
{
    (void)state;
    const struct op g[] = INSIDE(8000, 0, xt_ok), b[] = INSIDE(8180, -22, xt_fail);
    ttd_diff *d = diff(g, b);
    const ttd_result *r = ttd_get_result(d);
    const ttd_divergence *dv = r->first;
    assert_int_equal(dv->nchain, 3);
    assert_string_equal(dv->chain[0].function, "xt_check");
    assert_int_equal(dv->chain[0].kind, TTD_CAUSE_RETURNED);
    assert_string_equal(dv->chain[1].function, "xt_plan");
    assert_true(has_ev(sus(dv, "xt_check"), TTD_EV_ERROR));
    assert_int_equal(r->verdict->cause->kind, TTD_COF_ERROR_ORIGIN);
    assert_string_equal(r->verdict->cause->function, "xt_check");
    ttd_free(d);
    const struct op g1[] = INSIDE(8000, 5, xt_ok), b1[] = INSIDE(8180, 6, xt_fail);
    d = diff(g1, b1);
    r = ttd_get_result(d);
    assert_int_equal(r->first->nchain, 2);
    assert_string_equal(r->first->chain[0].function, "xt_plan");
    assert_string_equal(r->verdict->cause->function, "xt_plan");
    ttd_free(d);
}
#undef INSIDE

/* The object made early (xt_new_rec(size) returned it: a constructor,
 * whose writes through its result the code's fields do not name) and
 * read much later by xt_verify: the maker, given a size that differs, is
 * the writer ("returned the object ... it made it"). Must not: it made
 * another object than xt_verify reads; or it was given the same size in
 * both runs (nothing it made differs by what the trace shows). */
#define MADE(obj, sz, last) {E(xt_main, 1), E(xt_new_rec, sz), X(xt_new_rec, obj), \
        E(xt_f1, 2), X(xt_f1, 0), E(xt_verify, REC), E(last, 0), X(last, 0), X(xt_verify, 0), \
        X(xt_main, 0), {0}}
static void test_written_made(void **state)
{
    (void)state;
    const struct op g[] = MADE(REC, 8000, xt_ok), b[] = MADE(REC, 8180, xt_fail);
    ttd_diff *d = diff(g, b);
    const ttd_result *r = ttd_get_result(d);
    const ttd_divergence *dv = r->first;
    assert_int_equal(dv->nchain, 2);
    assert_string_equal(dv->chain[0].function, "xt_new_rec");
    assert_non_null(strstr(dv->chain[0].text, "and returned the object `xt_verify` reads (r): "
                                              "it made it"));
    assert_true(has_ev(sus(dv, "xt_new_rec"), TTD_EV_WRITTEN));
    assert_string_equal(r->verdict->cause->function, "xt_new_rec");
    assert_int_equal(r->verdict->cause->kind, TTD_COF_WRITTEN);
    ttd_free(d);
    const struct op g1[] = MADE(0x6000, 8000, xt_ok), b1[] = MADE(0x6000, 8180, xt_fail);
    d = diff(g1, b1);
    r = ttd_get_result(d);
    assert_int_equal(r->first->nchain, 1);
    assert_int_not_equal(r->verdict->cause->kind, TTD_COF_WRITTEN);
    ttd_free(d);
    const struct op g2[] = MADE(REC, 8000, xt_ok), b2[] = MADE(REC, 8000, xt_fail);
    d = diff(g2, b2);
    r = ttd_get_result(d);
    assert_int_equal(r->first->nchain, 1);
    assert_int_not_equal(r->verdict->cause->kind, TTD_COF_WRITTEN);
    ttd_free(d);
}
#undef MADE

/* The writer in another thread (issue 33 item 3: across threads): a
 * worker plans the record (xt_plan, another size) and returns before main
 * reads it in xt_verify, in both runs: xt_plan is the writer, linked by
 * the record and the field (chain weight, no "by time only"); the verdict
 * names the worker's thread, though main called xt_plan too (for another
 * record, so its suspect of that name came from main's calls). Must not:
 * in the good run the worker planned it only after xt_verify began (the
 * runs ordered the write and the read otherwise: a race's business, not
 * data read back): no writer step. */
#define TE2(t, f, a, b) {(void *)(f), 0, t, (uint64_t)(a), (uint64_t)(b), 0, NULL}
#define WORKER(sz) TE(1, xt_worker, 0), TE2(1, xt_plan, REC, sz), TX(1, xt_plan, 0), \
        TX(1, xt_worker, 0)
#define READ(last) E(xt_verify, REC), E(last, 0), X(last, 0), X(xt_verify, 0)
static void test_written_other_thread(void **state)
{
    (void)state;
    const struct op g[] = {E(xt_main, 1), E2(xt_plan, 0x7000, 100), X(xt_plan, 0), WORKER(8000),
                           READ(xt_ok), X(xt_main, 0), {0}};
    const struct op b[] = {E(xt_main, 1), E2(xt_plan, 0x7000, 100), X(xt_plan, 0), WORKER(8180),
                           READ(xt_fail), X(xt_main, 0), {0}};
    ttd_diff *d = diff(g, b);
    const ttd_result *r = ttd_get_result(d);
    const ttd_divergence *dv = r->first;
    assert_non_null(dv);
    assert_int_equal(dv->nchain, 2);
    assert_string_equal(dv->chain[0].function, "xt_plan");
    assert_int_equal(dv->chain[0].pair, 1);
    assert_non_null(strstr(dv->chain[0].text, "the object `xt_verify` reads (r)"));
    const ttd_suspect *p = sus(dv, "xt_plan");
    assert_true(has_ev(p, TTD_EV_WRITTEN));
    assert_true(has_ev(p, TTD_EV_CHAIN));
    for (size_t i = 0; i < p->nevidence; i++)
        assert_null(strstr(p->evidence[i].text, "by time only"));
    assert_int_equal(r->verdict->cause->kind, TTD_COF_WRITTEN);
    assert_string_equal(r->verdict->cause->function, "xt_plan");
    /* the worker's call, though main called xt_plan too (another record) */
    assert_int_equal(r->verdict->cause->pair, 1);
    assert_string_equal(r->verdict->cause->thread, "worker");
    ttd_free(d);
    /* must not: the good run wrote after the read began */
    const struct op g1[] = {E(xt_main, 1), E(xt_verify, REC), TE(1, xt_worker, 0),
                            TE2(1, xt_plan, REC, 8000), TX(1, xt_plan, 0), TX(1, xt_worker, 0),
                            E(xt_ok, 0), X(xt_ok, 0), X(xt_verify, 0), X(xt_main, 0), {0}};
    d = diff(g1, b);
    r = ttd_get_result(d);
    for (size_t i = 0; i < r->first->nsuspects; i++)
        assert_false(has_ev(&r->first->suspects[i], TTD_EV_WRITTEN));
    assert_int_not_equal(r->verdict->cause->kind, TTD_COF_WRITTEN);
    ttd_free(d);
}
#undef READ
#undef WORKER
#undef TE2

/* A flag stored by a setter and returned much later by a getter of the
 * same record (issue 33 item 3), values too common (0, 1) to link by
 * equality alone: the record ties them. xt_is_large answers, xt_set_large
 * stores the answer, xt_get_large returns it to xt_main, whose calls
 * part. The chain runs split <- getter <- setter (written) <- xt_is_large
 * (returned the setter's argument), and the getter is no error origin of
 * its own (its answer came from memory). Must not: the getter reads
 * another record than the setter wrote: the chain stops at the getter. */
#define FLAG(grec, sz, v, last) {E(xt_main, 1), E(xt_is_large, sz), X(xt_is_large, v), \
        E2(xt_set_large, REC, v), X(xt_set_large, 0), E(xt_f1, 1), X(xt_f1, 0), \
        E(xt_get_large, grec), X(xt_get_large, v), E(last, 0), X(last, 0), X(xt_main, 0), {0}}
static void test_written_getter(void **state)
{
    (void)state;
    const struct op g[] = FLAG(REC, 8000, 1, xt_ok), b[] = FLAG(REC, 4100, 0, xt_fail);
    ttd_diff *d = diff(g, b);
    const ttd_result *r = ttd_get_result(d);
    const ttd_divergence *dv = r->first;
    assert_non_null(dv);
    assert_true(dv->nchain >= 4);
    assert_string_equal(dv->chain[dv->nchain - 2].function, "xt_get_large");
    assert_string_equal(dv->chain[dv->nchain - 3].function, "xt_set_large");
    assert_non_null(strstr(dv->chain[dv->nchain - 3].text, "the object `xt_get_large` reads"));
    assert_string_equal(dv->chain[dv->nchain - 4].function, "xt_is_large");
    assert_true(dv->chain[dv->nchain - 4].strong);
    assert_false(has_ev(sus(dv, "xt_get_large"), TTD_EV_ERROR));
    assert_true(has_ev(sus(dv, "xt_set_large"), TTD_EV_WRITTEN));
    assert_string_equal(r->verdict->cause->function, "xt_is_large");
    ttd_free(d);
    /* must not: the getter reads another record */
    const struct op g1[] = FLAG(0x6000, 8000, 1, xt_ok), b1[] = FLAG(0x6000, 4100, 0, xt_fail);
    d = diff(g1, b1);
    r = ttd_get_result(d);
    dv = r->first;
    assert_string_equal(dv->chain[0].function, "xt_get_large");
    assert_false(has_ev(sus(dv, "xt_set_large"), TTD_EV_WRITTEN));
    ttd_free(d);
}
#undef FLAG
#undef REC

/* A range check's answer, stored and read back much later (issue 33):
 * xt_f1 (void: it keeps what it parsed) calls xt_num on a buffer and its
 * length (the recorded bytes run past the length, as a buffer's do).
 * Good: -9223372036854775807 (INT64_MIN + 1); bad: the text of INT64_MIN,
 * for which xt_num answers INT64_MIN, the end of its type that none of
 * its good-run calls gave (the 9223372036854775807 of a later call is the
 * other end; -12000, an ordinary negative one). xt_main's calls part with
 * no callee of its own returning another value: the chain goes on, by
 * time, from the split to that answer in its own thread, and xt_num heads
 * the verdict as where the failure starts. The two values, both next to
 * the end of the type, are no address or clock by their look, and the
 * string shown is the buffer up to its length.
 * Must not: the answer differs but is no new class (-4000 for -5000, or
 * the good run gave INT64_MIN too): the chain stays at the split. */
#define NUM(txt, len, v, first, last) {E(xt_main, 1), E(xt_f1, 1), ES(xt_num, "-12000", 6), \
        X(xt_num, first), X(xt_f1, 0), E(xt_f1, 2), ES(xt_num, txt, len), X(xt_num, v), \
        X(xt_f1, 0), E(xt_f1, 3), ES(xt_num, "9223372036854775807, 2", 19), \
        X(xt_num, INT64_MAX), X(xt_f1, 0), E(last, 0), X(last, 0), X(xt_main, 0), {0}}
static void test_range_check_end(void **state)
{
    (void)state;
    const struct op g[] = NUM("-9223372036854775807, 1", 20, INT64_MIN + 1, -12000, xt_ok);
    const struct op b[] = NUM("-9223372036854775808, 1", 20, INT64_MIN, -12000, xt_fail);
    ttd_diff *d = diff(g, b);
    const ttd_result *r = ttd_get_result(d);
    const ttd_divergence *dv = r->first;
    assert_non_null(dv);
    assert_int_equal(r->values_ignored, 0);
    assert_true(dv->nchain >= 3);
    assert_int_equal(dv->chain[0].kind, TTD_CAUSE_ARGUMENT);
    assert_string_equal(dv->chain[0].function, "xt_num");
    assert_string_equal(dv->chain[0].bad_value, "\"-9223372036854775808\"");
    assert_string_equal(dv->chain[0].good_value, "\"-9223372036854775807\"");
    assert_int_equal(dv->chain[1].kind, TTD_CAUSE_RETURNED);
    assert_string_equal(dv->chain[1].bad_value, "-9223372036854775808");
    assert_string_equal(dv->suspects[0].name, "xt_num");
    assert_true(has_ev(&dv->suspects[0], TTD_EV_ERROR));
    assert_non_null(r->verdict->cause);
    assert_int_equal(r->verdict->cause->kind, TTD_COF_ERROR_ORIGIN);
    assert_string_equal(r->verdict->cause->function, "xt_num");
    int said = 0;
    for (size_t i = 0; i < dv->suspects[0].nevidence; i++)
        said |= strstr(dv->suspects[0].evidence[i].text, "(its type's minimum: a range "
                       "check's answer), which none of its 3 calls in the good run did") != NULL;
    assert_true(said);
    ttd_free(d);
    /* must not: another number, no new class of answer */
    const struct op g1[] = NUM("-5000, 1", 5, -5000, -12000, xt_ok);
    const struct op b1[] = NUM("-4000, 1", 5, -4000, -12000, xt_fail);
    d = diff(g1, b1);
    r = ttd_get_result(d);
    assert_int_equal(r->first->nchain, 1);
    assert_string_equal(r->verdict->cause->function, "xt_main");
    ttd_free(d);
    /* must not: the good run's calls gave the type's minimum too */
    const struct op g2[] = NUM("-9223372036854775807, 1", 20, INT64_MIN + 1, INT64_MIN, xt_ok);
    const struct op b2[] = NUM("-9223372036854775808, 1", 20, INT64_MIN, INT64_MIN, xt_fail);
    d = diff(g2, b2);
    r = ttd_get_result(d);
    assert_int_equal(r->first->nchain, 1);
    assert_string_equal(r->verdict->cause->function, "xt_main");
    ttd_free(d);
}
#undef NUM

/* An answer that flipped deep in the split's own thread, inside a call
 * that returned the same to the split's frame (void xt_f1 kept it): the
 * frame read it back from memory. The chain goes from the split to it,
 * by time (as to another thread's), and xt_check heads the verdict as
 * where the failure starts. Must not: an ordinary value that differs
 * there is no step of the chain (it stays a suspect by its nearness). */
static void test_own_thread_flip(void **state)
{
    (void)state;
#define OWN(v, last) {E(xt_main, 1), E(xt_f1, 1), E(xt_check, 7), X(xt_check, v), X(xt_f1, 0), \
        E(xt_f2, 2), X(xt_f2, 0), E(last, 0), X(last, 0), X(xt_main, 0), {0}}
    const struct op g[] = OWN(0, xt_ok), b[] = OWN(-22, xt_fail);
    ttd_diff *d = diff(g, b);
    const ttd_result *r = ttd_get_result(d);
    assert_int_equal(r->first->nchain, 2);
    assert_string_equal(r->first->chain[0].function, "xt_check");
    assert_string_equal(r->verdict->cause->function, "xt_check");
    ttd_free(d);
    /* must not: an ordinary value that differs (no flip) */
    const struct op g1[] = OWN(5, xt_ok), b1[] = OWN(6, xt_fail);
    d = diff(g1, b1);
    r = ttd_get_result(d);
    assert_int_equal(r->first->nchain, 1);    /* (a value near the split, a suspect) */
    assert_int_not_equal(r->verdict->cause->kind, TTD_COF_ERROR_ORIGIN);
    ttd_free(d);
#undef OWN
}

/* An argument computed four frames up: xt_f4's n differs, passed down as
 * is from xt_f1, whose caller xt_top computed it (no call returned it,
 * xt_top's own argument does not differ): xt_top is the arg_origin and
 * ranks first. */
static void test_chain_argument_origin(void **state)
{
    (void)state;
#define ARGS(n, last) {E(xt_main, 1), E(xt_top, 0x5000), E(xt_f1, n), E(xt_f2, n), \
        E(xt_f3, n), E(xt_f4, n), E(last, 0), X(last, 0), X(xt_f4, 0), X(xt_f3, 0), \
        X(xt_f2, 0), X(xt_f1, 0), X(xt_top, 1), X(xt_main, 0), {0}}
    const struct op g[] = ARGS(10, xt_ok);
    const struct op b[] = ARGS(300, xt_fail);
    ttd_diff *d = diff(g, b);
    const ttd_divergence *dv = ttd_get_result(d)->first;
    assert_non_null(dv);
    assert_string_equal(dv->stack[dv->nstack - 1].name, "xt_f4");
    assert_int_equal(dv->nchain, 5);
    assert_int_equal(dv->chain[0].kind, TTD_CAUSE_ARGUMENT);
    assert_string_equal(dv->chain[0].function, "xt_f1");
    assert_string_equal(dv->chain[0].param, "n");
    assert_string_equal(dv->chain[0].bad_value, "300");
    assert_int_equal(dv->chain[0].strong, 1);
    assert_string_equal(dv->chain[3].function, "xt_f4");
    assert_int_equal(dv->chain[4].kind, TTD_CAUSE_SPLIT);
    assert_non_null(strstr(dv->chain_end, "`xt_top` computed the argument"));
    assert_string_equal(dv->suspects[0].name, "xt_top");
    assert_int_equal(dv->suspects[0].role, TTD_SUSPECT_CALLER);
    assert_true(has_ev(&dv->suspects[0], TTD_EV_ARG_ORIGIN));
    assert_true(has_ev(sus(dv, "xt_f4"), TTD_EV_ARGS));
    ttd_free(d);
#undef ARGS
}

/* An argument that a sibling returned: xt_get returned 9 (7 in the good
 * run), then xt_use got 9: the chain goes from the argument to xt_get. */
static void test_chain_sibling(void **state)
{
    (void)state;
    const struct op g[] = {E(xt_main, 1), E(xt_get, 0), X(xt_get, 7), E(xt_use, 7),
                           E(xt_ok, 0), X(xt_ok, 0), X(xt_use, 0), X(xt_main, 0), {0}};
    const struct op b[] = {E(xt_main, 1), E(xt_get, 0), X(xt_get, 9), E(xt_use, 9),
                           E(xt_fail, 0), X(xt_fail, 0), X(xt_use, 0), X(xt_main, 0), {0}};
    ttd_diff *d = diff(g, b);
    const ttd_divergence *dv = ttd_get_result(d)->first;
    assert_non_null(dv);
    assert_int_equal(dv->nchain, 3);
    assert_string_equal(dv->chain[0].function, "xt_get");
    assert_int_equal(dv->chain[0].kind, TTD_CAUSE_RETURNED);
    assert_int_equal(dv->chain[0].strong, 1);
    assert_int_equal(dv->chain[1].kind, TTD_CAUSE_ARGUMENT);
    assert_string_equal(dv->chain[1].function, "xt_use");
    assert_string_equal(dv->suspects[0].name, "xt_get");
    ttd_free(d);
}

/* Pointers: two non-NULL pointers are the same value (no chain, no
 * headline); NULL against non-NULL differs, and the argument is matched
 * to the call that returned it by identity, each run against itself. */
static void test_pointers(void **state)
{
    (void)state;
    const struct op g[] = {E(xt_main, 1), E(xt_find, 0x10), X(xt_find, 0x5000),
                           E(xt_take, 0x5000), E(xt_ok, 0), X(xt_ok, 0), X(xt_take, 0),
                           X(xt_main, 0), {0}};
    const struct op s[] = {E(xt_main, 1), E(xt_find, 0x20), X(xt_find, 0x7000),
                           E(xt_take, 0x7000), E(xt_ok, 0), X(xt_ok, 0), X(xt_take, 0),
                           X(xt_main, 0), {0}};
    const struct op b[] = {E(xt_main, 1), E(xt_find, 0x10), X(xt_find, 0), E(xt_take, 0),
                           E(xt_fail, 0), X(xt_fail, 0), X(xt_take, 0), X(xt_main, 0), {0}};
    ttd_diff *d = diff(g, s);
    assert_int_equal(ttd_get_result(d)->diverged, 0);
    assert_null(ttd_get_result(d)->value_first);
    ttd_free(d);
    d = diff(g, b);
    const ttd_divergence *dv = ttd_get_result(d)->first;
    assert_non_null(dv);
    assert_int_equal(dv->nchain, 3);
    assert_string_equal(dv->chain[0].function, "xt_find");
    assert_string_equal(dv->chain[0].bad_value, "NULL");
    assert_int_equal(dv->chain[0].strong, 1);
    assert_string_equal(dv->chain[1].function, "xt_take");
    assert_string_equal(dv->suspects[0].name, "xt_find");
    ttd_free(d);
    /* another non-NULL pointer passed: not the one xt_find returned in
     * the bad run, so no identity link (the chain ends at the argument) */
    const struct op b2[] = {E(xt_main, 1), E(xt_find, 0x10), X(xt_find, 0), E(xt_take, 0),
                            E(xt_fail, 0), X(xt_fail, 0), X(xt_take, 0), X(xt_main, 0), {0}};
    const struct op g2[] = {E(xt_main, 1), E(xt_find, 0x10), X(xt_find, 0x5000),
                            E(xt_take, 0x6000), E(xt_ok, 0), X(xt_ok, 0), X(xt_take, 0),
                            X(xt_main, 0), {0}};
    d = diff(g2, b2);
    dv = ttd_get_result(d)->first;
    assert_non_null(dv);
    assert_int_equal(dv->chain[0].kind, TTD_CAUSE_ARGUMENT);
    assert_string_equal(dv->chain[0].function, "xt_take");
    ttd_free(d);
}

/* Pointers into the program's image compare by what they name, not by
 * address: the good run is laid out 2 MiB higher (ASLR), yet the same
 * string literal and the same static object are the same values; two
 * different static messages differ (and are shown as their text), and so
 * do a static object and a heap pointer. */
static void test_static_pointers(void **state)
{
    (void)state;
    const uint64_t sh = 0x200000;
    uint64_t ok = (uint64_t)(uintptr_t)xt_msg(0), bad = (uint64_t)(uintptr_t)xt_msg(1);
    uint64_t node = (uint64_t)(uintptr_t)&xt_nodes[0];
#define MSG(st, msg, found) {E(xt_main, 1), E(xt_find, 0x10), X(xt_find, found), \
        E(xt_take, found), X(xt_take, 0), E(xt_msg, st), X(xt_msg, msg), E(xt_ok, 0), \
        X(xt_ok, 0), X(xt_main, 0), {0}}
    const struct op g[] = MSG(0, ok + sh, node + sh);
    const struct op same[] = MSG(0, ok, node);
    const struct op b[] = MSG(0, bad, node);
    const struct op heap[] = MSG(0, ok, 0x5000);
    char gp[512];

    trace_shift = sh;
    snprintf(gp, sizeof gp, "%s", write_trace(g, 0, 1));
    trace_shift = 0;
    ttd_diff *d = NULL;
    ttf_error err;
    assert_int_equal(ttd_diff_files(gp, write_trace(same, 0, 1), NULL, &d, &err), 0);
    assert_int_equal(ttd_get_result(d)->diverged, 0);
    assert_null(ttd_get_result(d)->value_first);
    ttd_free(d);

    assert_int_equal(ttd_diff_files(gp, write_trace(b, 0, 1), NULL, &d, &err), 0);
    const ttd_result *r = ttd_get_result(d);
    assert_int_equal(r->diverged, 1);
    assert_null(r->first);                  /* the calls are the same */
    assert_non_null(r->value_first);
    assert_string_equal(r->value_first->function, "xt_msg");
    assert_non_null(strstr(r->value_first->bad_value, "\"Start-end tags mismatch\""));
    assert_non_null(strstr(r->value_first->good_value, "\"No error\""));
    char *t = tu_report(d, ttr_text, NULL, NULL);
    assert_null(strstr(t, "(non-NULL)"));   /* said by what it names */
    free(t);
    ttd_free(d);

    assert_int_equal(ttd_diff_files(gp, write_trace(heap, 0, 1), NULL, &d, &err), 0);
    r = ttd_get_result(d);
    assert_non_null(r->value_first);
    assert_string_equal(r->value_first->function, "xt_find");
    assert_non_null(strstr(r->value_first->good_value, "&xt_nodes"));
    ttd_free(d);
#undef MSG
}

/* The same pair of pointers compared twice, before and after a module
 * was loaded where they point (dlopen): before, they point outside every
 * image and compare as non-NULL (equal); after, they name two static
 * messages and differ. The answers kept for pairs of pointers must not
 * carry over from one epoch of the module map to the next. */
static void test_pointers_by_epoch(void **state)
{
    (void)state;
    uint64_t ok = (uint64_t)(uintptr_t)xt_msg(0) - tu_self.base + late_base,
             bad = (uint64_t)(uintptr_t)xt_msg(1) - tu_self.base + late_base;
#define TWICE(msg) {E(xt_main, 1), E(xt_msg, 0), X(xt_msg, msg), E(xt_msg, 0), \
        X(xt_msg, msg), X(xt_main, 0), {0}}
    const struct op g[] = TWICE(ok);
    const struct op b[] = TWICE(bad);
    ttd_diff *d = NULL;
    ttf_error err;
    char gp[512];

    late_at = 1035;             /* between the two calls of xt_msg */
    snprintf(gp, sizeof gp, "%s", write_trace(g, 0, 1));
    late_at = 1035;
    assert_int_equal(ttd_diff_files(gp, write_trace(b, 0, 1), NULL, &d, &err), 0);
    const ttd_result *r = ttd_get_result(d);
    assert_int_equal(r->diverged, 1);
    assert_non_null(r->value_first);
    assert_string_equal(r->value_first->function, "xt_msg");
    assert_non_null(strstr(r->value_first->bad_value, "\"Start-end tags mismatch\""));
    assert_true(r->value_first->bad_index > 2);    /* the second call's EXIT */
    ttd_free(d);
#undef TWICE
}

/* Clocks, counters and addresses are not causes by themselves: a result
 * that grows from call to call, a clock-named function's, a 64-bit value
 * beyond 2^44 in both runs, and what is computed from them alone (a
 * clock's value passed on, a result whose only differing input was one).
 * With nothing else differing: exit 0. */
static void test_clock_noise(void **state)
{
    (void)state;
    const struct op g[] = {E(xt_main, 1), E(xt_stamp, 0), X(xt_stamp, 100),
                           E(xt_stamp, 0), X(xt_stamp, 150), E(xt_stamp, 0), X(xt_stamp, 230),
                           E(xt_time_now, 0), X(xt_time_now, 1700000000),
                           E(xt_work, 1700000000), X(xt_work, 5),
                           E(xt_use, 5), X(xt_use, 0),
                           E(xt_hash, 0x10), X(xt_hash, 0x55d4c3a2b2c0ull),
                           E(xt_use, 0x55d4c3a2b2c0ull), X(xt_use, 0), X(xt_main, 0), {0}};
    const struct op b[] = {E(xt_main, 1), E(xt_stamp, 0), X(xt_stamp, 400),
                           E(xt_stamp, 0), X(xt_stamp, 420), E(xt_stamp, 0), X(xt_stamp, 500),
                           E(xt_time_now, 0), X(xt_time_now, 1700000003),
                           E(xt_work, 1700000003), X(xt_work, 8),
                           E(xt_use, 8), X(xt_use, 0),
                           E(xt_hash, 0x10), X(xt_hash, 0x7f12a0001000ull),
                           E(xt_use, 0x7f12a0001000ull), X(xt_use, 0), X(xt_main, 0), {0}};
    ttd_diff *d = diff(g, b);
    const ttd_result *r = ttd_get_result(d);
    assert_null(r->value_first);
    assert_int_equal(r->diverged, 0);
    assert_true(r->values_ignored >= 8);
    char *t = tu_report(d, ttr_text, NULL, NULL);
    assert_non_null(strstr(t, "not taken as causes (clocks, counters, addresses)"));
    assert_non_null(strstr(t, "no divergence"));
    free(t);
    ttd_free(d);
    /* the rules themselves */
    ttf_vtype u8 = {TTF_VC_UNSIGNED, 8, 0, "uint64_t", NULL, 0, NULL, 0}, i4 = {TTF_VC_SIGNED, 4, 1, "int", NULL, 0, NULL, 0};
    assert_int_equal(ttdi_value_noise(&u8, 1ull << 45, 3ull << 44, "f", 0), TTDI_NOISE_ADDR);
    assert_int_equal(ttdi_value_noise(&u8, 1ull << 45, 5, "f", 0), TTDI_NOISE_NONE);
    assert_int_equal(ttdi_value_noise(&u8, (uint64_t)-20, 1ull << 45, "f", 0), TTDI_NOISE_NONE);
    assert_int_equal(ttdi_value_noise(&i4, 1, 2, "getTimeNs", 1), TTDI_NOISE_CLOCK);
    /* a clock since boot in ns (uv__hrtime), by its values alone; not two
     * large values far apart, nor small ones close together */
    assert_int_equal(ttdi_value_noise(&u8, 10003000526136ull, 10002931800219ull, "f", 1),
                     TTDI_NOISE_CLOCK);
    assert_int_equal(ttdi_value_noise(&u8, 3000000000000ull, 1000000000000ull, "f", 1),
                     TTDI_NOISE_NONE);
    assert_int_equal(ttdi_value_noise(&u8, 1000001, 1000000, "f", 1), TTDI_NOISE_NONE);
    assert_int_equal(ttdi_value_noise(&i4, 1, 2, "getTimeNs", 0), TTDI_NOISE_NONE);
    /* two values next to an end of their type are the input's (a range's
     * end, a saturated result), not addresses or clocks; one alone is not
     * enough, and a function named like a clock stays one */
    ttf_vtype i8 = {TTF_VC_SIGNED, 8, 1, "long", NULL, 0, NULL, 0};
    assert_int_equal(ttdi_value_noise(&i8, (uint64_t)(INT64_MIN + 1), (uint64_t)INT64_MIN,
                                      "f", 1), TTDI_NOISE_NONE);
    assert_int_equal(ttdi_value_noise(&i8, (uint64_t)INT64_MAX, (uint64_t)INT64_MAX - 9, "f", 0),
                     TTDI_NOISE_NONE);
    assert_int_equal(ttdi_value_noise(&u8, UINT64_MAX - 70000, UINT64_MAX - 80000, "f", 0),
                     TTDI_NOISE_NONE);
    assert_int_equal(ttdi_value_noise(&i8, (uint64_t)INT64_MIN, 1ull << 45, "f", 1),
                     TTDI_NOISE_ADDR);
    assert_int_equal(ttdi_value_noise(&i8, (uint64_t)INT64_MIN + (1ull << 33), (uint64_t)INT64_MIN,
                                      "f", 1), TTDI_NOISE_ADDR);
    assert_int_equal(ttdi_value_noise(&i8, (uint64_t)INT64_MAX, (uint64_t)INT64_MAX - 9,
                                      "clock_now", 1), TTDI_NOISE_CLOCK);
    assert_int_equal(ttdi_type_end(&i8, (uint64_t)INT64_MIN), -1);
    assert_int_equal(ttdi_type_end(&i8, (uint64_t)INT64_MAX), 1);
    assert_int_equal(ttdi_type_end(&i8, (uint64_t)(INT64_MIN + 1)), 0);
    assert_int_equal(ttdi_type_end(&i4, 0x80000000u), -1);
    assert_int_equal(ttdi_type_end(&i4, 0xffffffff80000000ull), -1);
    assert_int_equal(ttdi_type_end(&i4, 0x7fffffffu), 1);
    ttf_vtype u4 = {TTF_VC_UNSIGNED, 4, 0, "unsigned", NULL, 0, NULL, 0},
              i2 = {TTF_VC_SIGNED, 2, 1, "short", NULL, 0, NULL, 0};
    assert_int_equal(ttdi_type_end(&u4, 0xffffffffu), 1);
    assert_int_equal(ttdi_type_end(&u4, 0), 0);
    assert_int_equal(ttdi_type_end(&i2, 0x7fff), 0);    /* small types: ordinary data */
    assert_true(ttdi_clock_name("clock_now"));
    assert_true(ttdi_clock_name("Timer::nowNs()"));
    assert_false(ttdi_clock_name("runtime_check"));
    assert_false(ttdi_clock_name("timeout_parse") && 0);
    assert_false(ttdi_clock_name("CLOSE"));
    /* each run's own pid is noise; a value that is one run's pid only, or
     * a pid that is not the run's, is not */
    const int64_t pid[2] = {4242, 4377};
    assert_true(ttdi_own_pid(&i4, 4242, 4377, pid));
    assert_false(ttdi_own_pid(&i4, 4242, 4378, pid));
    assert_false(ttdi_own_pid(&i4, 17, 4377, pid));
    assert_false(ttdi_own_pid(&i4, 4377, 4242, pid));
    const int64_t nopid[2] = {0, 0};
    assert_false(ttdi_own_pid(&i4, 0, 0, nopid));
}

/* A deadline computed from a clock the trace does not show
 * (g_get_monotonic_time() + timeout: glib's worker waits for a job until
 * then): in each run it lies just past that run's own CLOCK_MONOTONIC (the
 * chunk headers' clock-sync points), and the two differ by the runs'
 * clock offset: a time, not a difference (exit 0). Must not: a value that
 * differs otherwise, or one that follows one run's clock only. */
static void test_deadline_noise(void **state)
{
    (void)state;
    const uint64_t six_h = 21600000000000ull, gap = 300000000ull;  /* ns */
    for (int k = 0; k < 3; k++) {
        uint64_t dg = (six_h + 1020) / 1000 + 500000;   /* us: xt_use's ENTER */
        uint64_t db = (six_h + gap + 1020) / 1000 + 500000;
        if (k == 1)
            db = dg + 7;            /* another value, not the clocks' offset */
        if (k == 2)
            dg = 500000;            /* the timeout itself in the good run */
        const struct op g[] = {E(xt_main, 1), E(xt_use, dg), X(xt_use, 0), X(xt_main, 0), {0}};
        const struct op b[] = {E(xt_main, 1), E(xt_use, db), X(xt_use, 0), X(xt_main, 0), {0}};
        tsc_from[0] = six_h + 1000;
        tsc_from[1] = six_h + gap + 1000;
        tsc_from_k = 0;
        ttd_diff *d = diff(g, b);
        tsc_from[0] = tsc_from[1] = 0;
        const ttd_result *r = ttd_get_result(d);
        assert_int_equal(r->diverged, k != 0);
        assert_int_equal(r->values_times, k == 0);     /* counted, said */
        char *t = tu_report(d, ttr_text, NULL, NULL);
        assert_true(!strstr(t, "1 differing one taken as times") == (k != 0));
        free(t);
        if (k == 0)
            assert_null(r->value_first);
        else
            assert_string_equal(r->value_first->function, "xt_use");
        ttd_free(d);
    }
    /* the rule itself: in us and in ms; never without both clocks, nor
     * for values far from them, nor for a clock too small to tell */
    ttf_vtype i8 = {TTF_VC_SIGNED, 8, 1, "gint64", NULL, 0, NULL, 0};
    const uint64_t mono[2] = {six_h, six_h + gap}, none[2] = {six_h, 0};
    assert_true(ttdi_time_like(&i8, six_h / 1000 + 15000000, (six_h + gap) / 1000 + 15000000,
                               mono));
    assert_true(ttdi_time_like(&i8, six_h / 1000000 + 500, (six_h + gap) / 1000000 + 500,
                               mono));
    assert_false(ttdi_time_like(&i8, six_h / 1000 + 500000, (six_h + gap) / 1000 + 500000,
                                none));
    assert_false(ttdi_time_like(&i8, six_h / 1000 + 500000, six_h / 1000 + 500001, mono));
    assert_false(ttdi_time_like(&i8, six_h / 100, (six_h + gap) / 100, mono));
    const uint64_t young[2] = {600000000ull, 900000000ull};  /* 0.6 s of uptime */
    assert_false(ttdi_time_like(&i8, 600 + 5, 900 + 5, young));
}

/* A deadline passed down by value as a struct timespec (seconds, ns),
 * each run's own clock at the call plus one timeout: no difference
 * (exit 0, said as times). Must not: a timeout that differs by 5 ms, a
 * deadline that is the clock itself in one run (now instead of now + 100
 * ms: the bug), values far from the clock. The rule alone: timespec and
 * timeval shapes; other shapes never. */
static void test_deadline_timespec(void **state)
{
    (void)state;
    const uint64_t six_h = 21600000000000ull, gap = 300000000ull, s = 1000000000ull;
    const uint64_t at[2] = {six_h + 1020, six_h + gap + 1020};     /* xt_until's ENTER */
    const uint64_t after[4][2] = {{100000000, 100000000}, {100000000, 105000000},
                                  {100000000, 0}, {0, 0}};
    for (int k = 0; k < 4; k++) {
        uint64_t vg = at[0] + after[k][0], vb = at[1] + after[k][1];
        if (k == 3)
            vg = 5 * s + 7, vb = 6 * s + 7;     /* five and six seconds: no clock */
        const struct op g[] = {E(xt_main, 1), E2(xt_until, vg / s, vg % s), X(xt_until, 0),
                               X(xt_main, 0), {0}};
        const struct op b[] = {E(xt_main, 1), E2(xt_until, vb / s, vb % s), X(xt_until, 0),
                               X(xt_main, 0), {0}};
        tsc_from[0] = six_h + 1000;
        tsc_from[1] = six_h + gap + 1000;
        tsc_from_k = 0;
        ttd_diff *d = diff(g, b);
        tsc_from[0] = tsc_from[1] = 0;
        const ttd_result *r = ttd_get_result(d);
        assert_int_equal(r->diverged, k != 0);
        assert_int_equal(r->values_times, k == 0);
        if (k != 0)
            assert_string_equal(r->value_first->function, "xt_until");
        ttd_free(d);
    }
    ttf_field f[2] = {{"tv_sec", 0, {TTF_VC_SIGNED, 8, 1, "long", NULL, 0, NULL, 0}},
                      {"tv_nsec", 8, {TTF_VC_SIGNED, 8, 1, "long", NULL, 0, NULL, 0}}};
    ttf_vtype ts = {TTF_VC_OTHER, 16, 0, "timespec", NULL, 0, f, 2};
    uint64_t clk[2][2] = {{at[0], at[1]}, {0, 0}};
    uint64_t g2[2] = {at[0] / s, at[0] % s}, b2[2] = {at[1] / s, at[1] % s};
    assert_true(ttdi_struct_time_like(&ts, g2, b2, clk));
    uint64_t gu[2] = {at[0] / s, at[0] % s / 1000}, bu[2] = {at[1] / s, at[1] % s / 1000};
    assert_true(ttdi_struct_time_like(&ts, gu, bu, clk));       /* a timeval, in us */
    uint64_t real[2][2] = {{0, 0}, {at[0], at[1]}};
    assert_true(ttdi_struct_time_like(&ts, g2, b2, real));      /* CLOCK_REALTIME's */
    uint64_t none[2][2] = {{at[0], 0}, {0, 0}};
    assert_false(ttdi_struct_time_like(&ts, g2, b2, none));
    assert_false(ttdi_struct_time_like(&ts, g2, g2, clk));      /* the same value */
    uint64_t big[2] = {at[1] / s, s + 1};
    assert_false(ttdi_struct_time_like(&ts, g2, big, clk));     /* no fraction of a second */
    f[1].type.size = 4;
    assert_false(ttdi_struct_time_like(&ts, g2, b2, clk));      /* another shape */
    f[1].type.size = 8;
    ts.nfields = 1;
    assert_false(ttdi_struct_time_like(&ts, g2, b2, clk));
}

/* A double of seconds (or ms) near each run's own CLOCK_REALTIME or
 * CLOCK_MONOTONIC at the call, the runs' offset apart: libev's ev_time(),
 * a time the two good runs read differently. Must not: the same value,
 * values far from the clocks or not following them, a clock unknown in
 * one run, NaN or a negative value, an integer type, a float. */
static double dbl_of(uint64_t raw)
{
    double d;
    memcpy(&d, &raw, sizeof d);
    return d;
}

static uint64_t raw_of(double d)
{
    uint64_t raw;
    memcpy(&raw, &d, sizeof raw);
    return raw;
}

static void test_float_time(void **state)
{
    (void)state;
    const uint64_t real[2] = {1764630000123456789ull, 1764630002623456789ull};  /* ns */
    const uint64_t mono[2] = {21600000000000ull, 21602500000000ull};   /* 6 h of uptime */
    ttf_vtype f8 = {TTF_VC_FLOAT, 8, 1, "double", NULL, 0, NULL, 0};
    uint64_t rt[2][2] = {{mono[0], mono[1]}, {real[0], real[1]}};
    uint64_t g = raw_of((double)real[0] / 1e9 + 0.0004), b = raw_of((double)real[1] / 1e9 + 0.0004);
    assert_true(ttdi_float_time_like(&f8, g, b, rt));               /* ev_time(): s, realtime */
    assert_true(ttdi_float_time_like(&f8, raw_of((double)mono[0] / 1e6 + 3),
                                     raw_of((double)mono[1] / 1e6 + 3), rt)); /* ms, monotonic */
    assert_true(ttdi_float_time_like(&f8, raw_of((double)mono[0] / 1e9 + 1.5),
                                     raw_of((double)mono[1] / 1e9 + 1.5), rt)); /* a deadline in s */
    assert_false(ttdi_float_time_like(&f8, g, g, rt));              /* the same */
    assert_false(ttdi_float_time_like(&f8, g, raw_of(dbl_of(g) + 0.25), rt)); /* not the offset */
    assert_false(ttdi_float_time_like(&f8, raw_of(1.5), raw_of(4.0), rt));    /* far from both */
    uint64_t one[2][2] = {{mono[0], 0}, {real[0], 0}};
    assert_false(ttdi_float_time_like(&f8, g, b, one));             /* a clock unknown */
    assert_false(ttdi_float_time_like(&f8, raw_of(-dbl_of(g)), raw_of(-dbl_of(b)), rt));
    assert_false(ttdi_float_time_like(&f8, raw_of(0.0 / 0.0), b, rt));
    ttf_vtype i8 = {TTF_VC_SIGNED, 8, 1, "long", NULL, 0, NULL, 0}, f4 = f8;
    f4.size = 4;
    assert_false(ttdi_float_time_like(&i8, g, b, rt));
    assert_false(ttdi_float_time_like(&f4, g, b, rt));
    const uint64_t young[2][2] = {{600000000ull, 3100000000ull}, {0, 0}};  /* 0.6 s up */
    assert_false(ttdi_float_time_like(&f8, raw_of(0.6), raw_of(3.1), young));
}

/* A value that varies between good runs (--baseline) is noise: not
 * followed, the chain stops before it. */
static void test_baseline_not_followed(void **state)
{
    (void)state;
    const struct op g[] = {E(xt_main, 1), E(xt_get, 0), X(xt_get, 7), E(xt_use, 7),
                           E(xt_ok, 0), X(xt_ok, 0), X(xt_use, 0), X(xt_main, 0), {0}};
    const struct op g2[] = {E(xt_main, 1), E(xt_get, 0), X(xt_get, 8), E(xt_use, 8),
                            E(xt_ok, 0), X(xt_ok, 0), X(xt_use, 0), X(xt_main, 0), {0}};
    const struct op b[] = {E(xt_main, 1), E(xt_get, 0), X(xt_get, 9), E(xt_use, 9),
                           E(xt_fail, 0), X(xt_fail, 0), X(xt_use, 0), X(xt_main, 0), {0}};
    char base[512];
    snprintf(base, sizeof base, "%s", write_trace(g2, 0, 1));
    const char *bases[] = {base};
    ttd_options o;
    ttd_options_init(&o);
    o.baselines = bases;
    o.nbaselines = 1;
    ttd_diff *d = diff_x(g, 0, b, 0, 1, &o);
    const ttd_result *r = ttd_get_result(d);
    assert_non_null(r->first);
    assert_int_equal(r->first->nchain, 1);
    assert_int_equal(r->first->chain[0].kind, TTD_CAUSE_SPLIT);
    assert_null(r->value_first);
    assert_string_equal(r->first->suspects[0].name, "xt_use");
    ttd_free(d);

    /* a result computed from a varying argument is still a cause when the
     * good runs do not vary in it: xt_check(500) = -22 */
    const struct op h[] = {E(xt_main, 1), E(xt_check, 5), X(xt_check, 0), E(xt_ok, 0),
                           X(xt_ok, 0), X(xt_main, 0), {0}};
    const struct op h2[] = {E(xt_main, 1), E(xt_check, 6), X(xt_check, 0), E(xt_ok, 0),
                            X(xt_ok, 0), X(xt_main, 0), {0}};
    const struct op hb[] = {E(xt_main, 1), E(xt_check, 500), X(xt_check, -22), E(xt_fail, 0),
                            X(xt_fail, 0), X(xt_main, 0), {0}};
    snprintf(base, sizeof base, "%s", write_trace(h2, 0, 1));
    d = diff_x(h, 0, hb, 0, 1, &o);
    r = ttd_get_result(d);
    assert_non_null(r->first);
    assert_int_equal(r->first->nchain, 2);
    assert_string_equal(r->first->chain[0].function, "xt_check");
    assert_int_equal(r->first->chain[0].kind, TTD_CAUSE_RETURNED);
    assert_string_equal(r->first->chain_end, "no earlier value differs");
    assert_string_equal(r->first->suspects[0].name, "xt_check");
    ttd_free(d);
}

/* Threads: the worker's xt_work returned -5 before the main thread split;
 * the main thread's own values do not differ. The chain goes to the
 * worker, the suspect carries earlier_in_other_thread and ranks above the
 * diverging frame. */
static void test_thread_order(void **state)
{
    (void)state;
#define THR(ret, last) {E(xt_main, 1), TE(1, xt_worker, 0), TE(1, xt_work, 3), \
        TX(1, xt_work, ret), TX(1, xt_worker, 0), E(xt_wait, 0), X(xt_wait, 0), \
        E(last, 0), X(last, 0), X(xt_main, 0), {0}}
    const struct op g[] = THR(3, xt_ok);
    const struct op b[] = THR(-5, xt_fail);
    ttd_diff *d = diff(g, b);
    const ttd_result *r = ttd_get_result(d);
    const ttd_divergence *dv = r->first;
    assert_non_null(dv);
    assert_string_equal(r->pairs[dv->pair].bad.name, "main");
    assert_int_equal(dv->nchain, 2);
    assert_string_equal(dv->chain[0].function, "xt_work");
    assert_string_equal(dv->chain[0].thread, "worker");
    assert_int_equal(dv->chain[1].kind, TTD_CAUSE_SPLIT);
    assert_string_equal(dv->suspects[0].name, "xt_work");
    assert_true(has_ev(&dv->suspects[0], TTD_EV_THREAD));
    assert_int_equal(dv->suspects[0].pair, 1);
    assert_non_null(r->value_first);
    assert_string_equal(r->value_first->function, "xt_work");
    char *t = tu_report(d, ttr_text, NULL, NULL);
    assert_non_null(strstr(t, "2. after 1 (thread worker first, in the bad run's time): the calls part in `xt_main`"));
    free(t);
    ttd_free(d);
#undef THR
}

/* Both threads: the worker's xt_work returned -5 before the split (linked
 * to it by time only), and the main thread's own xt_get returned another
 * value right before it. The data link in the split's thread ranks first;
 * the worker's value counts against (what it read may not have been
 * ready). Without the main thread's value the worker leads (above). */
static void test_thread_timed(void **state)
{
    (void)state;
#define THR(ret, got, last) {E(xt_main, 1), TE(1, xt_worker, 0), TE(1, xt_work, 3), \
        TX(1, xt_work, ret), TX(1, xt_worker, 0), E(xt_wait, 0), X(xt_wait, 0), \
        E(xt_get, 0), X(xt_get, got), E(last, 0), X(last, 0), X(xt_main, 0), {0}}
    const struct op g[] = THR(3, 7, xt_ok);
    const struct op b[] = THR(-5, 9, xt_fail);
    ttd_diff *d = diff(g, b);
    const ttd_result *r = ttd_get_result(d);
    const ttd_divergence *dv = r->first;
    assert_non_null(dv);
    assert_string_equal(r->pairs[dv->pair].bad.name, "main");
    assert_string_equal(dv->suspects[0].name, "xt_get");
    const ttd_suspect *w = NULL;
    for (size_t i = 0; i < dv->nsuspects; i++)
        w = strcmp(dv->suspects[i].name, "xt_work") == 0 ? &dv->suspects[i] : w;
    if (w) {
        const ttd_evidence *ev = NULL;
        for (size_t k = 0; k < w->nevidence; k++)
            ev = w->evidence[k].kind == TTD_EV_THREAD ? &w->evidence[k] : ev;
        assert_non_null(ev);
        assert_true(ev->weight < 0);
        assert_non_null(strstr(ev->text, "linked to it by time only"));
        assert_true(w->score < dv->suspects[0].score);
    }
    ttd_free(d);
#undef THR
}

/* A branch that read a clock value, passed it to a later call, and saw
 * nothing else that differs (values mode): that value decided, and the verdict says so ("a clock value
 * decided the branch in `xt_main`"), the frame that branched is the
 * cause (not the clock: its value is right), the value is no longer
 * hidden as "on no path to a divergence", in all three formats. With a
 * real differing value before the split (xt_get 7 / 8), that value is the
 * chain's start and no clock decided; with no value differing at all,
 * the chain stops at the branch as before. */
static void test_clock_decided(void **state)
{
    (void)state;
    const struct op g[] = {E(xt_main, 1), E(xt_stamp, 0), X(xt_stamp, 10003000526136ull),
                           E(xt_use, 10003000526136ull), X(xt_use, 0),
                           E(xt_get, 0), X(xt_get, 7), E(xt_ok, 0), X(xt_ok, 0),
                           X(xt_main, 0), {0}};
    const struct op b[] = {E(xt_main, 1), E(xt_stamp, 0), X(xt_stamp, 10002931800219ull),
                           E(xt_use, 10002931800219ull), X(xt_use, 0),
                           E(xt_get, 0), X(xt_get, 7), E(xt_fail, 0), X(xt_fail, 0),
                           X(xt_main, 0), {0}};
    ttd_diff *d = diff(g, b);
    const ttd_result *r = ttd_get_result(d);
    assert_true(r->diverged);
    assert_true(r->nchain >= 2);
    assert_non_null(r->chain[0].nondet);
    assert_string_equal(r->chain[0].nondet, "a clock value");
    assert_string_equal(r->chain[0].function, "xt_stamp");
    assert_int_equal(r->values_ignored, 0);
    const ttd_verdict *v = r->verdict;
    assert_non_null(v->cause);
    assert_string_equal(v->cause->function, "xt_main");
    assert_string_equal(v->cause->decided_by, "a clock value");
    for (size_t i = 0; i < v->nhidden; i++)
        assert_int_not_equal(v->hidden[i].kind, TTD_HIDDEN_NONDET);
    char *t = tu_report(d, ttr_text, NULL, NULL), *j = tu_report(d, ttr_json, NULL, NULL);
    char *html = tu_report(d, ttr_html, NULL, NULL);
    assert_non_null(strstr(t, "possible cause: a clock value decided the branch in `xt_main`"));
    assert_non_null(strstr(j, "a clock value decided: `xt_stamp` returned 10002931800219"));
    assert_non_null(strstr(html, "a clock value decided the branch in"));
    free(t);
    free(j);
    free(html);
    ttd_free(d);
    /* a real value differs before the split too: it is the cause */
    struct op b2[sizeof b / sizeof b[0]];
    memcpy(b2, b, sizeof b);
    b2[6].a0 = 8;
    d = diff(g, b2);
    r = ttd_get_result(d);
    assert_true(r->nchain >= 2);
    assert_null(r->chain[0].nondet);
    assert_string_equal(r->chain[0].function, "xt_get");
    assert_null(r->verdict->cause->decided_by);
    ttd_free(d);
    /* nothing differs before the split: the chain stops at the branch */
    struct op b3[sizeof b / sizeof b[0]];
    memcpy(b3, b, sizeof b);
    b3[2].a0 = 10003000526136ull;
    b3[3].a0 = 10003000526136ull;
    d = diff(g, b3);
    r = ttd_get_result(d);
    assert_int_equal(r->nchain, 1);
    assert_null(r->chain[0].nondet);
    assert_string_equal(r->chain_end, "no earlier value differs");
    ttd_free(d);
    /* the clock read but its value not passed on (libuv's uv__io_poll,
     * whose branch followed what epoll returned, untraced): no evidence
     * that the calls after it depend on it: the evidence stops there */
    const struct op g4[] = {E(xt_main, 1), E(xt_stamp, 0), X(xt_stamp, 10003000526136ull),
                            E(xt_ok, 0), X(xt_ok, 0), X(xt_main, 0), {0}};
    const struct op b4[] = {E(xt_main, 1), E(xt_stamp, 0), X(xt_stamp, 10002931800219ull),
                            E(xt_fail, 0), X(xt_fail, 0), X(xt_main, 0), {0}};
    d = diff(g4, b4);
    r = ttd_get_result(d);
    assert_int_equal(r->nchain, 1);
    assert_null(r->verdict->cause->decided_by);
    assert_int_equal(r->verdict->confidence, TTD_CONF_UNKNOWN);
    ttd_free(d);
}

/* Two runs that ended alike, where the main thread's read under a lock
 * went another way only because the worker had taken the lock before it
 * in one run (libuv's post(): a worker already idle, or not yet): how far
 * the threads had got, not a divergence, even when a clock reading
 * (xt_stamp, ns since boot) differs before it in values mode: no input
 * decided that value, so it is not where the thread went its own way.
 * An ordinary value that differs there (xt_get 7 / 8, no lock held yet)
 * is: a divergence. */
static void test_progress_past_clock(void **state)
{
    (void)state;
    const struct op g[] = {TE(1, xt_worker, 0), TS(1, TTF_SOP_LOCK), TS(1, TTF_SOP_UNLOCK),
                           TX(1, xt_worker, 0), E(xt_main, 1), E(xt_stamp, 0),
                           X(xt_stamp, 10003000526136ull), E(xt_get, 0), X(xt_get, 7),
                           TS(0, TTF_SOP_LOCK), E(xt_ok, 0), X(xt_ok, 0),
                           TS(0, TTF_SOP_UNLOCK), X(xt_main, 0), {0}};
    const struct op b[] = {E(xt_main, 1), E(xt_stamp, 0), X(xt_stamp, 10002931800219ull),
                           E(xt_get, 0), X(xt_get, 7), TS(0, TTF_SOP_LOCK), E(xt_fail, 0),
                           X(xt_fail, 0), TS(0, TTF_SOP_UNLOCK), X(xt_main, 0),
                           TE(1, xt_worker, 0), TS(1, TTF_SOP_LOCK), TS(1, TTF_SOP_UNLOCK),
                           TX(1, xt_worker, 0), {0}};
    ttd_diff *d = diff(g, b);
    const ttd_result *r = ttd_get_result(d);
    assert_int_equal(r->diverged, 0);
    assert_null(r->first);
    assert_true(r->timing_total >= 1);
    ttd_free(d);
    /* xt_get's value differs before the lock: the thread's own way */
    struct op b2[sizeof b / sizeof b[0]];
    memcpy(b2, b, sizeof b);
    b2[4].a0 = 8;
    d = diff(g, b2);
    assert_int_equal(ttd_get_result(d)->diverged, 1);
    ttd_free(d);
}

/* A thread cut off by the end of the process is not where the runs went
 * another way: the bad run's worker waits in xt_wait (its stream ends in
 * a condition wait, early in time) while the main thread takes another
 * branch in xt_work and ends the process; the good run's worker came back
 * from xt_wait. The worker's "stopped early" counts at the process's end,
 * so the main thread's split is the first divergence. A worker that
 * skipped a call before it waited went another way at its own time. */
static void test_thread_cut_by_exit(void **state)
{
    (void)state;
    const struct op g[] = {TE(1, xt_worker, 0), TE(1, xt_wait, 0), TS(1, TTF_SOP_WAIT),
                           TS(1, TTF_SOP_WOKE), TX(1, xt_wait, 0), TX(1, xt_worker, 0),
                           E(xt_main, 1), E(xt_work, 1), E(xt_ok, 0), X(xt_ok, 0),
                           X(xt_work, 0), X(xt_main, 0), {0}};
    const struct op b[] = {TE(1, xt_worker, 0), TE(1, xt_wait, 0), TS(1, TTF_SOP_WAIT),
                           E(xt_main, 1), E(xt_work, 1), E(xt_fail, 0), X(xt_fail, 0), {0}};
    ttd_diff *d = diff_x(g, 0, b, 1, 0, NULL);
    const ttd_result *r = ttd_get_result(d);
    const ttd_divergence *dv = r->first;
    assert_non_null(dv);
    assert_string_equal(r->pairs[dv->pair].bad.name, "main");
    assert_string_equal(dv->stack[dv->nstack - 1].name, "xt_work");
    /* the worker's hunk is still listed, after it */
    assert_true(r->nhunks >= 2);
    assert_string_equal(r->pairs[r->hunks[r->nhunks - 1].pair].bad.name, "worker");
    ttd_free(d);

    /* the worker skipped xt_ok before it waited: its own time, first */
    const struct op g2[] = {TE(1, xt_worker, 0), TE(1, xt_work, 0), TX(1, xt_work, 0),
                            TE(1, xt_ok, 0), TX(1, xt_ok, 0), TS(1, TTF_SOP_WAIT),
                            TS(1, TTF_SOP_WOKE), TX(1, xt_worker, 0), E(xt_main, 1),
                            E(xt_work, 1), E(xt_ok, 0), X(xt_ok, 0), X(xt_work, 0),
                            X(xt_main, 0), {0}};
    const struct op b2[] = {TE(1, xt_worker, 0), TE(1, xt_work, 0), TX(1, xt_work, 0),
                            TS(1, TTF_SOP_WAIT), E(xt_main, 1), E(xt_work, 1), E(xt_fail, 0),
                            X(xt_fail, 0), {0}};
    d = diff_x(g2, 0, b2, 1, 0, NULL);
    r = ttd_get_result(d);
    assert_non_null(r->first);
    assert_string_equal(r->pairs[r->first->pair].bad.name, "worker");
    ttd_free(d);
}

/* The same calls, another exit status: a divergence (exit 1) with the
 * exit status step; with values, why: main returned 1 because xt_check
 * returned -22. Without values, the chain says they are not recorded. */
/* A good run whose worker did three jobs, waiting before the second and
 * the third; then main ran and exited. */
static const struct op three_jobs[] = {TE(1, xt_worker, 0), TE(1, xt_work, 1), TX(1, xt_work, 1),
    TE(1, xt_wait, 0), TS(1, TTF_SOP_WAIT), TS(1, TTF_SOP_WOKE),
    TX(1, xt_wait, 0), TE(1, xt_work, 2), TX(1, xt_work, 2),
    TE(1, xt_wait, 0), TS(1, TTF_SOP_WAIT), TS(1, TTF_SOP_WOKE),
    TX(1, xt_wait, 0), TE(1, xt_work, 3), TX(1, xt_work, 3),
    TX(1, xt_worker, 0), E(xt_main, 1), E(xt_ok, 0), X(xt_ok, 0),
    X(xt_main, 0), {0}};

/* Another thread called exit (the END record is in its stream): a thread
 * cut mid-run, not waiting, is timed at the process's end too, so the
 * exiting thread's own split heads; and the exiting worker's loop that
 * stopped is a divergence, not a wait loop that ran fewer times. */
static void test_thread_cut_running(void **state)
{
    (void)state;
    const struct op g[] = {TE(1, xt_worker, 0), TE(1, xt_work, 1), TX(1, xt_work, 1),
                           TE(1, xt_ok, 0), TX(1, xt_ok, 0), TX(1, xt_worker, 0),
                           E(xt_main, 1), E(xt_work, 1), E(xt_ok, 0), X(xt_ok, 0),
                           X(xt_work, 0), X(xt_main, 0), {0}};
    const struct op b[] = {TE(1, xt_worker, 0), TE(1, xt_work, 1), TX(1, xt_work, 1),
                           E(xt_main, 1), E(xt_work, 1), E(xt_fail, 0), X(xt_fail, 0), {0}};
    ttd_diff *d = diff_x(g, 0, b, 1, 0, NULL);
    const ttd_result *r = ttd_get_result(d);
    assert_non_null(r->first);
    assert_string_equal(r->pairs[r->first->pair].bad.name, "main");
    ttd_free(d);

    /* the worker called exit after one job; the good one went on with two
     * more, waiting before each: not timing, and it heads (main, cut) */
    const struct op *g2 = three_jobs;
    const struct op b2[] = {TE(1, xt_worker, 0), TE(1, xt_work, 1), TX(1, xt_work, 1),
                            E(xt_main, 1), {0}};
    char gp[512];
    snprintf(gp, sizeof gp, "%s", write_trace(g2, 0, 0));
    end_thread = 1;
    const char *bp = write_trace(b2, 70, 0);
    end_thread = 0;
    ttf_error err;
    assert_int_equal(ttd_diff_files(gp, bp, NULL, &d, &err), 0);
    r = ttd_get_result(d);
    assert_non_null(r->first);
    assert_string_equal(r->pairs[r->first->pair].bad.name, "worker");
    assert_int_equal(r->hunks[0].timing, 0);
    ttd_free(d);

    /* main checked a wait's condition (xt_wait, bad only) and waited where
     * the good main found its data ready; the worker then called exit:
     * main was cut waiting, the worker's split heads */
    const struct op g3[] = {E(xt_main, 1), E(xt_work, 1), X(xt_work, 1), E(xt_skip, 0),
                            X(xt_skip, 0), TE(1, xt_worker, 0), TE(1, xt_ok, 0),
                            TX(1, xt_ok, 0), TX(1, xt_worker, 0), X(xt_main, 0), {0}};
    const struct op b3[] = {E(xt_main, 1), E(xt_work, 1), X(xt_work, 1), E(xt_wait, 0),
                            X(xt_wait, 0), TS(0, TTF_SOP_WAIT), TE(1, xt_worker, 0),
                            TE(1, xt_fail, 0), TX(1, xt_fail, 0), {0}};
    snprintf(gp, sizeof gp, "%s", write_trace(g3, 0, 0));
    end_thread = 1;
    bp = write_trace(b3, 70, 0);
    end_thread = 0;
    assert_int_equal(ttd_diff_files(gp, bp, NULL, &d, &err), 0);
    r = ttd_get_result(d);
    assert_non_null(r->first);
    assert_string_equal(r->pairs[r->first->pair].bad.name, "worker");
    ttd_free(d);
}

/* A bad run killed while its threads waited (a hang ended by a
 * time-out): the worker did one job and waited for a second that never
 * came; the good worker did three, waiting before each. The good run's
 * iterations past the bad worker's end are work the hang never reached,
 * not a wait loop that ran more times: a divergence, not timing. */
static void test_killed_not_timing(void **state)
{
    (void)state;
    const struct op *g = three_jobs;
    const struct op b[] = {TE(1, xt_worker, 0), TE(1, xt_work, 1), TX(1, xt_work, 1),
                           TE(1, xt_wait, 0), TS(1, TTF_SOP_WAIT), E(xt_main, 1),
                           E(xt_wait, 0), TS(0, TTF_SOP_WAIT), {0}};
    char gp[512];
    ttf_error err;
    ttd_diff *d = NULL;
    snprintf(gp, sizeof gp, "%s", write_trace(g, 0, 0));
    killed = 1;
    const char *bp = write_trace(b, 0, 0);
    killed = 0;
    assert_int_equal(ttd_diff_files(gp, bp, NULL, &d, &err), 0);
    const ttd_result *r = ttd_get_result(d);
    int worker_timing = -1;
    for (size_t i = 0; i < r->nhunks; i++)
        if (strcmp(r->pairs[r->hunks[i].pair].bad.name, "worker") == 0)
            worker_timing = r->hunks[i].timing;
    assert_int_equal(worker_timing, 0);
    assert_non_null(r->first);
    ttd_free(d);
}

static void test_same_calls_exit(void **state)
{
    (void)state;
    const struct op g[] = {E(xt_main, 1), E(xt_check, 5), X(xt_check, 0), X(xt_main, 0), {0}};
    const struct op b[] = {E(xt_main, 1), E(xt_check, 500), X(xt_check, -22), X(xt_main, 1),
                           {0}};
    ttd_diff *d = diff_x(g, 0, g, 1, 0, NULL);
    const ttd_result *r = ttd_get_result(d);
    assert_null(r->first);
    assert_int_equal(r->diverged, 1);
    assert_int_equal(r->outcome.same_calls, 1);
    assert_int_equal(r->outcome.differs, 1);
    assert_int_equal(r->outcome.exit_status[1], 1);
    assert_int_equal(r->nchain, 1);
    assert_int_equal(r->chain[0].kind, TTD_CAUSE_EXIT);
    assert_string_equal(r->chain_end, "values not recorded");
    char *t = tu_report(d, ttr_text, NULL, NULL);
    assert_non_null(strstr(t, "the runs made the same calls but ended differently: "
                              "exit status 1 in the bad run, exit status 0 in the good run"));
    /* no function to name: the evidence stops at the runs' ends, said so
     * (not "the branch in `?`") */
    assert_int_equal(r->verdict->confidence, TTD_CONF_UNKNOWN);
    assert_non_null(strstr(r->verdict->stops_at, "the runs' ends"));
    assert_non_null(strstr(t, "outcome differs: cause unknown, the evidence stops at the runs' "
                              "ends\n"));
    assert_null(strstr(t, "`?`"));
    free(t);
    char *j = tu_report(d, ttr_json, NULL, NULL);
    assert_non_null(strstr(j, "\"same_calls\": true"));
    assert_non_null(strstr(j, "\"kind\": \"exit_status\""));
    free(j);
    ttd_free(d);

    d = diff_x(g, 0, b, 1, 1, NULL);
    r = ttd_get_result(d);
    assert_null(r->first);
    assert_int_equal(r->diverged, 1);
    assert_int_equal(r->nchain, 4);
    assert_int_equal(r->chain[0].kind, TTD_CAUSE_ARGUMENT);
    assert_string_equal(r->chain[0].function, "xt_check");
    assert_string_equal(r->chain[1].function, "xt_check");
    assert_int_equal(r->chain[1].kind, TTD_CAUSE_RETURNED);
    assert_string_equal(r->chain[2].function, "xt_main");
    assert_int_equal(r->chain[3].kind, TTD_CAUSE_EXIT);
    assert_non_null(r->value_first);
    assert_int_equal(r->value_first->before_split, 1);
    t = tu_report(d, ttr_text, NULL, NULL);
    assert_non_null(strstr(t, "the first value difference that matters: `xt_check`"));
    free(t);
    ttd_free(d);
}

/* Two identical runs: nothing differs, exit 0, no chain. */
static void test_identical(void **state)
{
    (void)state;
    const struct op g[] = {E(xt_main, 1), E(xt_check, 5), X(xt_check, 0), X(xt_main, 0), {0}};
    ttd_diff *d = diff_x(g, 0, g, 0, 1, NULL);
    const ttd_result *r = ttd_get_result(d);
    assert_int_equal(r->diverged, 0);
    assert_int_equal(r->outcome.differs, 0);
    assert_int_equal(r->outcome.same_calls, 1);
    assert_int_equal(r->nchain, 0);
    assert_null(r->value_first);
    ttd_free(d);
}

/* Scoring order: by score, ties by distance, each suspect's evidence
 * strongest first; evidence of one kind counts once. */
static void test_rank_order(void **state)
{
    (void)state;
    struct ttfi_arena a;
    ttd_suspect s[3];
    memset(&a, 0, sizeof a);
    memset(s, 0, sizeof s);
    s[0].name = "near";
    s[1].name = "far";
    s[2].name = "strong";
    s[1].distance = 9;
    assert_int_equal(ttdi_evid_add(&a, &s[0], TTD_EV_DISTANCE, 0.5, "d"), 0);
    assert_int_equal(ttdi_evid_add(&a, &s[1], TTD_EV_DISTANCE, 0.5, "d"), 0);
    assert_int_equal(ttdi_evid_add(&a, &s[2], TTD_EV_DISTANCE, 0.1, "d"), 0);
    assert_int_equal(ttdi_evid_add(&a, &s[2], TTD_EV_VALUE, TTDI_W_VALUE, "v %d", 1), 0);
    assert_int_equal(ttdi_evid_add(&a, &s[2], TTD_EV_VALUE, TTDI_W_VALUE, "again"), 0);
    assert_int_equal(s[2].nevidence, 2);
    assert_int_equal(ttdi_suspects_rank(&a, s, 3), 0);
    assert_string_equal(s[0].name, "strong");
    assert_int_equal(s[0].evidence[0].kind, TTD_EV_VALUE);
    assert_string_equal(s[0].evidence[0].text, "v 1");
    assert_string_equal(s[1].name, "near");
    assert_string_equal(s[2].name, "far");
    assert_int_equal(ttdi_evid_drop(&a, &s[0], TTD_EV_VALUE), 0);
    assert_true(s[0].score < 0.2);
    assert_int_equal(ttdi_value_error(&(ttf_vtype){TTF_VC_SIGNED, 4, 1, "int", NULL, 0, NULL, 0}, 0xffffffde), 1);
    assert_int_equal(ttdi_value_error(&(ttf_vtype){TTF_VC_POINTER, 8, 0, "p", NULL, 0, NULL, 0}, 0), 1);
    assert_int_equal(ttdi_value_error(&(ttf_vtype){TTF_VC_ENUM, 4, 0, "e", NULL, 0, NULL, 0}, 3), -1);
    assert_string_equal(ttd_evidence_name(TTD_EV_ARG_ORIGIN), "arg_origin");
    assert_string_equal(ttd_evidence_name(99), "?");
    ttfi_arena_free(&a);
}

/* xt_integral answers 1 in the good run, 0 in the bad one, with the same
 * argument and the same traced call (xt_get, 7 in both): the decision is
 * in its own code, which holds what the compiler inlined into it.
 * xt_fits and xt_whole rank right below it, deepest first, each marked
 * inlined into it at half its score; the reports say it. */
static const struct op inl_g[] = {E(xt_main, 1), E(xt_integral, 0x5000), E(xt_get, 0),
                                  X(xt_get, 7), X(xt_integral, 1), E(xt_ok, 0), X(xt_ok, 0),
                                  X(xt_main, 0), {0}};
static const struct op inl_b[] = {E(xt_main, 1), E(xt_integral, 0x5000), E(xt_get, 0),
                                  X(xt_get, 7), X(xt_integral, 0), E(xt_fail, 0),
                                  X(xt_fail, 0), X(xt_main, 0), {0}};

static void test_inlined_suspects(void **state)
{
    (void)state;
    ttd_diff *d = diff(inl_g, inl_b);
    const ttd_divergence *dv = ttd_get_result(d)->first;
    assert_non_null(dv);
    assert_string_equal(dv->chain[0].function, "xt_integral");
    const ttd_suspect *h = &dv->suspects[0];
    assert_string_equal(h->name, "xt_integral");
    assert_true(has_ev(h, TTD_EV_ERROR));
    assert_null(h->inlined_into);
    assert_true(dv->nsuspects >= 4);
    const char *want[] = {"xt_fits", "xt_whole"};
    for (int i = 0; i < 2; i++) {
        const ttd_suspect *f = &dv->suspects[1 + i];
        assert_string_equal(f->name, want[i]);
        assert_non_null(f->inlined_into);
        assert_string_equal(f->inlined_into, "xt_integral");
        assert_int_equal(f->nevidence, 1);
        assert_int_equal(f->evidence[0].kind, TTD_EV_INLINED);
        assert_true(f->score > h->score / 2 - 1e-9 && f->score < h->score / 2 + 1e-9);
        assert_non_null(strstr(f->evidence[0].text, "inlined into `xt_integral`, whose "
                               "answer flipped with the same inputs"));
        assert_non_null(f->file);
        assert_true(f->line > 0);
    }
    assert_string_equal(dv->suspects[3].name, "xt_main"); /* the diverging frame */
    assert_null(dv->suspects[3].inlined_into);
    assert_string_equal(ttd_evidence_name(TTD_EV_INLINED), "inlined_into");
    char *t = tu_report(d, ttr_text, NULL, NULL), *j = tu_report(d, ttr_json, NULL, NULL);
    char *html = tu_report(d, ttr_html, NULL, NULL);
    assert_non_null(strstr(t, "\n  2. xt_fits [inlined into xt_integral]  at "));
    assert_non_null(strstr(t, "\n  3. xt_whole [inlined into xt_integral]  at "));
    assert_non_null(strstr(j, "\"function\": \"xt_fits\""));
    assert_non_null(strstr(j, "\"inlined_into\": \"xt_integral\""));
    assert_non_null(strstr(j, "\"inlined_into\": null"));
    assert_non_null(strstr(j, "\"kind\": \"inlined_into\""));
    assert_non_null(strstr(html, "[inlined into <span class=\"fn\">xt_integral</span>]"));
    free(t);
    free(j);
    free(html);
    ttd_free(d);
}

/* The same decision in xt_to_whole, whose source only returns the answer
 * of xt_whole, inlined into it: its own code decided nothing. xt_fits and
 * xt_whole (the inlined callee and the function inlined deeper) weigh its
 * whole score, deepest first, and rank above it; it keeps its value and
 * chain evidence, not the error; the verdict names xt_fits as the error
 * origin, "possible" (the source says who passed the answer on, not
 * which inlined line decided). Must not: xt_integral above (the answer
 * kept in a variable): half weight, the host first. */
static void test_inlined_wrapper(void **state)
{
    (void)state;
    const struct op g[] = {E(xt_main, 1), E(xt_to_whole, 0x5000), E(xt_get, 0), X(xt_get, 7),
                           X(xt_to_whole, 1), E(xt_ok, 0), X(xt_ok, 0), X(xt_main, 0), {0}};
    const struct op b[] = {E(xt_main, 1), E(xt_to_whole, 0x5000), E(xt_get, 0), X(xt_get, 7),
                           X(xt_to_whole, 0), E(xt_fail, 0), X(xt_fail, 0), X(xt_main, 0), {0}};
    ttd_diff *d = diff(g, b);
    const ttd_result *r = ttd_get_result(d);
    const ttd_divergence *dv = r->first;
    assert_non_null(dv);
    assert_string_equal(dv->suspects[0].name, "xt_fits");
    assert_string_equal(dv->suspects[1].name, "xt_whole");
    assert_string_equal(dv->suspects[0].inlined_into, "xt_to_whole");
    assert_non_null(strstr(dv->suspects[0].evidence[0].text, "whose source only returns "
                           "`xt_whole`'s answer"));
    const ttd_suspect *h = sus(dv, "xt_to_whole");
    assert_false(has_ev(h, TTD_EV_ERROR));
    assert_true(has_ev(h, TTD_EV_VALUE));
    assert_true(dv->suspects[0].score > h->score);
    assert_int_equal(r->verdict->cause->kind, TTD_COF_ERROR_ORIGIN);
    assert_string_equal(r->verdict->cause->function, "xt_fits");
    assert_int_equal(r->verdict->confidence, TTD_CONF_POSSIBLE);
    ttd_free(d);
}

/* No inlined suspects when the host's traced calls differ (the split is
 * inside it, or a callee's value explains it), and none without values. */
static void test_inlined_not_when_calls_differ(void **state)
{
    (void)state;
    const struct op g1[] = {E(xt_main, 1), E(xt_integral, 0x5000), E(xt_get, 0),
                            X(xt_get, 7), E(xt_ok, 0), X(xt_ok, 0), X(xt_integral, 1),
                            X(xt_main, 0), {0}};
    const struct op b1[] = {E(xt_main, 1), E(xt_integral, 0x5000), E(xt_get, 0),
                            X(xt_get, 7), E(xt_fail, 0), X(xt_fail, 0), X(xt_integral, 0),
                            X(xt_main, 0), {0}};
    const struct op b2[] = {E(xt_main, 1), E(xt_integral, 0x5000), E(xt_get, 0),
                            X(xt_get, 8), X(xt_integral, 0), E(xt_fail, 0),
                            X(xt_fail, 0), X(xt_main, 0), {0}};
    ttd_options o;
    ttd_options_init(&o);
    o.suspects = 6;
    ttd_diff *d[3] = {diff(g1, b1), diff(inl_g, b2), diff_x(inl_g, 0, inl_b, 0, 0, &o)};
    for (int k = 0; k < 3; k++) {
        const ttd_divergence *dv = ttd_get_result(d[k])->first;
        assert_non_null(dv);
        for (size_t i = 0; i < dv->nsuspects; i++) {
            assert_null(dv->suspects[i].inlined_into);
            assert_false(has_ev(&dv->suspects[i], TTD_EV_INLINED));
            assert_string_not_equal(dv->suspects[i].name, "xt_fits");
        }
    }
    /* the split inside the host: it is the diverging frame */
    assert_string_equal(ttd_get_result(d[0])->first->suspects[0].name, "xt_integral");
    /* a callee's value: the chain starts there */
    assert_string_equal(ttd_get_result(d[1])->first->chain[0].function, "xt_get");
    for (int k = 0; k < 3; k++)
        ttd_free(d[k]);
}

/* The reports: text "because of" lines, JSON cause_chain and evidence,
 * HTML the chain and the evidence in words. */
static void test_reports(void **state)
{
    (void)state;
    const struct op g[] = {E(xt_main, 1), E(xt_get, 0), X(xt_get, 7), E(xt_use, 7),
                           E(xt_ok, 0), X(xt_ok, 0), X(xt_use, 0), X(xt_main, 0), {0}};
    const struct op b[] = {E(xt_main, 1), E(xt_get, 0), X(xt_get, 9), E(xt_use, 9),
                           E(xt_fail, 0), X(xt_fail, 0), X(xt_use, 0), X(xt_main, 0), {0}};
    ttd_diff *d = diff(g, b);
    char *t = tu_report(d, ttr_text, NULL, NULL), *j = tu_report(d, ttr_json, NULL, NULL);
    char *h = tu_report(d, ttr_html, NULL, NULL);
    assert_non_null(strstr(t, "cause chain (earliest first):\n  1. `xt_get` returned 9 in the bad run, 7 in the good run\n"
                              "  2. because of 1 (the same value): `xt_use` was called with v = 9"));
    assert_non_null(strstr(t, "  it starts at 1: no earlier value differs"));
    assert_non_null(strstr(t, "  1. xt_get  at "));
    assert_non_null(strstr(j, "\"cause_chain\": ["));
    assert_non_null(strstr(j, "\"kind\": \"returned\", \"function\": \"xt_get\""));
    assert_non_null(strstr(j, "\"cause_chain_end\": \"no earlier value differs\""));
    assert_non_null(strstr(j, "\"kind\": \"value_differs\", \"weight\": 4.000"));
    assert_non_null(strstr(j, "\"score\": "));
    assert_non_null(strstr(j, "\"outcome\": {"));
    assert_non_null(strstr(h, "id=\"tt-chain\""));
    assert_non_null(strstr(h, "because of 1"));
    assert_non_null(strstr(h, "class=\"evid\""));
    free(t);
    free(j);
    free(h);
    ttd_free(d);
}

/* Runs that ended alike, whose only difference is a value the main thread
 * read holding a lock the worker had taken before it in the good run and
 * after it in the bad one (how many bytes were ready): it follows the
 * threads' progress, no value divergence (values_progress). Read without
 * the lock, the same value is a divergence. */
static void test_value_follows_progress(void **state)
{
    const struct op wg[] = {TS(1, TTF_SOP_LOCK), TS(1, TTF_SOP_UNLOCK),
                            TE(0, xt_main, 1), TS(0, TTF_SOP_LOCK), TE(0, xt_get, 0),
                            TX(0, xt_get, 7), TS(0, TTF_SOP_UNLOCK), TX(0, xt_main, 0),
                            {0}};
    const struct op wb[] = {TE(0, xt_main, 1), TS(0, TTF_SOP_LOCK), TE(0, xt_get, 0),
                            TX(0, xt_get, 5), TS(0, TTF_SOP_UNLOCK), TX(0, xt_main, 0),
                            TS(1, TTF_SOP_LOCK), TS(1, TTF_SOP_UNLOCK),
                            {0}};
    const struct op ug[] = {TS(1, TTF_SOP_LOCK), TS(1, TTF_SOP_UNLOCK),
                            TE(0, xt_main, 1), TE(0, xt_get, 0), TX(0, xt_get, 7),
                            TX(0, xt_main, 0), {0}};
    const struct op ub[] = {TE(0, xt_main, 1), TE(0, xt_get, 0), TX(0, xt_get, 5),
                            TX(0, xt_main, 0), TS(1, TTF_SOP_LOCK), TS(1, TTF_SOP_UNLOCK),
                            {0}};
    (void)state;
    ttd_diff *d = diff(wg, wb);
    const ttd_result *r = ttd_get_result(d);
    assert_false(r->diverged);
    assert_null(r->value_first);
    assert_int_equal(r->values_progress, 1);
    ttd_free(d);
    d = diff(ug, ub);
    r = ttd_get_result(d);
    assert_true(r->diverged);
    assert_non_null(r->value_first);
    assert_string_equal(r->value_first->function, "xt_get");
    assert_int_equal(r->values_progress, 0);
    ttd_free(d);
}

/* The hidden timeout: nothing else differs; values_timeout counts the
 * values hidden (the return and the argument), none left as a cause. */
static const ttd_result *timeout_diff(const struct op *g, const struct op *b, ttd_diff **d)
{
    *d = diff(g, b);
    return ttd_get_result(*d);
}

/* A timer's remaining milliseconds (xt_get: 2988 in one run, 2997 in the
 * other), passed down as the timeout of an I/O wait (xt_use holds a SLEEP
 * that asked that many ms and was woken after 10 ns in both runs): it
 * decided nothing, the runs do not diverge, and the reports say why ("a
 * timeout that never expired", with the wait's times) in all three
 * formats. Not hidden: a wait that ran to its timeout (5 ns asked, 10
 * blocked), the value also given to a call that does not wait on it
 * before the wait (or after it when calls part later), or returned up to
 * a caller that passes it nowhere, the calls parting between its return
 * and the wait (a branch may have read it), no wait record at all. Hidden
 * too: the value given to a call after the wait, no call parting from the
 * wait on. */
static void test_timeout_never_expired(void **state)
{
    (void)state;
    ttd_diff *d;
#define RUN(v, ...) {E(xt_main, 1), E(xt_get, 0), X(xt_get, v), __VA_ARGS__, X(xt_main, 0), {0}}
#define WAIT(v, ns) E(xt_use, v), SLEEPS(ns), X(xt_use, 0)
    const struct op g[] = RUN(2988, WAIT(2988, 2988000000ull));
    const struct op b[] = RUN(2997, WAIT(2997, 2997000000ull));
    const ttd_result *r = timeout_diff(g, b, &d);
    assert_int_equal(r->diverged, 0);
    assert_int_equal(r->values_timeout, 2);
    assert_null(r->value_first);
    const ttd_verdict *v = r->verdict;
    int seen = 0;
    for (size_t i = 0; i < v->nhidden; i++)
        seen |= strstr(v->hidden[i].text, "a timeout that never expired") != NULL &&
                strstr(v->hidden[i].evidence, "`xt_get` returned 2997 in the bad run, 2988 in the "
                       "good run, used only as the timeout of an I/O wait in `xt_use`") != NULL &&
                strstr(v->hidden[i].evidence, "woken after 0.000 ms of 2997") != NULL;
    assert_true(seen);
    char *t = tu_report(d, ttr_text, NULL, NULL), *j = tu_report(d, ttr_json, NULL, NULL);
    char *html = tu_report(d, ttr_html, NULL, NULL);
    assert_non_null(strstr(t, "the value was only a timeout that never expired: `xt_get`"));
    assert_non_null(strstr(j, "\"not counted as a divergence because the value was only a "
                              "timeout that never expired\""));
    assert_non_null(strstr(html, "a timeout that never expired"));
    free(t);
    free(j);
    free(html);
    ttd_free(d);
    /* must not be hidden */
    const struct op g1[] = RUN(5, WAIT(5, 5));      /* ran to its timeout */
    const struct op b1[] = RUN(6, WAIT(6, 6));
    const struct op g2[] = RUN(2988, E(xt_f1, 2988), X(xt_f1, 0), WAIT(2988, 2988000000ull));
    const struct op b2[] = RUN(2997, E(xt_f1, 2997), X(xt_f1, 0), WAIT(2997, 2997000000ull));
    const struct op g3[] = {E(xt_main, 1), E(xt_pass, 1), E(xt_get, 0), X(xt_get, 2988),
                            WAIT(2988, 2988000000ull), X(xt_pass, 2988), X(xt_main, 0), {0}};
    const struct op b3[] = {E(xt_main, 1), E(xt_pass, 1), E(xt_get, 0), X(xt_get, 2997),
                            WAIT(2997, 2997000000ull), X(xt_pass, 2997), X(xt_main, 0), {0}};
    const struct op g4[] = RUN(2988, E(xt_ok, 0), X(xt_ok, 0), WAIT(2988, 2988000000ull));
    const struct op b4[] = RUN(2997, E(xt_skip, 0), X(xt_skip, 0), WAIT(2997, 2997000000ull));
    const struct op g5[] = RUN(2988, E(xt_use, 2988), X(xt_use, 0));
    const struct op b5[] = RUN(2997, E(xt_use, 2997), X(xt_use, 0));
    const struct op g6[] = RUN(2988, WAIT(2988, 2988000000ull), E(xt_f1, 2988), X(xt_f1, 0),
                               E(xt_ok, 0), X(xt_ok, 0));
    const struct op b6[] = RUN(2997, WAIT(2997, 2997000000ull), E(xt_f1, 2997), X(xt_f1, 0),
                               E(xt_fail, 0), X(xt_fail, 0));
    const struct op *const must[][2] = {{g1, b1}, {g2, b2}, {g3, b3}, {g4, b4}, {g5, b5},
                                        {g6, b6}};
    for (size_t i = 0; i < sizeof must / sizeof must[0]; i++) {
        r = timeout_diff(must[i][0], must[i][1], &d);
        if (r->diverged != 1 || r->values_timeout != 0)
            fail_msg("case %zu: diverged %d, values_timeout %llu", i + 1, r->diverged,
                     (unsigned long long)r->values_timeout);
        ttd_free(d);
    }
    /* hidden: the value given to a call after the wait, no call parting
     * from the wait on (what it did there decided no call) */
    const struct op g7[] = RUN(2988, WAIT(2988, 2988000000ull), E(xt_f1, 2988), X(xt_f1, 0));
    const struct op b7[] = RUN(2997, WAIT(2997, 2997000000ull), E(xt_f1, 2997), X(xt_f1, 0));
    r = timeout_diff(g7, b7, &d);
    assert_int_equal(r->diverged, 0);
    assert_int_equal(r->values_timeout, 3);
    ttd_free(d);
#undef WAIT
#undef RUN
}

/* A timer loop's remaining time (xt_get: 7 ns in one run, 6 in the other)
 * passed down as the timeout of an I/O wait that ran to it in both runs
 * (asked 7 and 6 ns, blocked 10): the clock xt_time_now (a clock by its
 * name; its readings differ between the runs) moved on 3 ns between two
 * readings before it in the good run and 4 in the bad one, so each run
 * waited for the time left to one deadline: hidden, the runs do not
 * diverge, and the reports say why in all three formats. Not hidden: the
 * same values when the clock moved on alike in both runs (3 and 3), a
 * wait woken early in one run (16 ns asked), the calls parting after the
 * wait, the value also given to a call that does not wait on it before
 * the wait, a clock
 * whose readings do not agree with the trace's times in any unit (1 ms
 * apart by the clock, 20 ns by the trace), a clock that moved on 2 ns
 * more in the bad run while the timeout is 1 ns shorter. */
static void test_deadline_by_clock(void **state)
{
    (void)state;
    ttd_diff *d;
#define RUN(c0, c1, v, ...) {E(xt_main, 1), E(xt_time_now, 0), X(xt_time_now, c0), \
                             E(xt_time_now, 0), X(xt_time_now, c1), E(xt_get, 0), X(xt_get, v), \
                             __VA_ARGS__, X(xt_main, 0), {0}}
#define WAIT(v) E(xt_use, v), SLEEPS(v), X(xt_use, 0)
    const struct op g[] = RUN(2000000000, 2000000003, 7, WAIT(7));
    const struct op b[] = RUN(5000000000, 5000000004, 6, WAIT(6));
    d = diff(g, b);
    const ttd_result *r = ttd_get_result(d);
    assert_int_equal(r->diverged, 0);
    assert_null(r->value_first);
    assert_int_equal(r->values_deadline, 2);
    assert_int_equal(r->values_timeout, 0);
    assert_non_null(strstr(r->deadline_evidence, "`xt_get` returned 6 in the bad run, 7 in the "
                           "good run, used only as the timeout of an I/O wait in `xt_use`"));
    assert_non_null(strstr(r->deadline_evidence, "the clock `xt_time_now` (read in ns) moved on "
                           "4 ns between two readings before it in the bad run, 3 in the good "
                           "run"));
    char *t = tu_report(d, ttr_text, NULL, NULL), *j = tu_report(d, ttr_json, NULL, NULL);
    char *html = tu_report(d, ttr_html, NULL, NULL);
    assert_non_null(strstr(t, "the value was only the time left to one deadline, by the clock: "
                              "`xt_get`"));
    assert_non_null(strstr(j, "\"not counted as a divergence because the value was only the "
                              "time left to one deadline, by the clock\""));
    assert_non_null(strstr(html, "the time left to one deadline, by the clock"));
    free(t);
    free(j);
    free(html);
    ttd_free(d);
    /* must not be hidden */
    const struct op b1[] = RUN(5000000000, 5000000003, 6, WAIT(6));    /* the clock alike */
    const struct op g2[] = RUN(2000000000, 2000000012, 7, WAIT(7));
    const struct op b2[] = RUN(5000000000, 5000000003, 16, WAIT(16));  /* woken early */
    const struct op g3[] = RUN(2000000000, 2000000003, 7, WAIT(7), E(xt_ok, 0), X(xt_ok, 0));
    const struct op b3[] = RUN(5000000000, 5000000004, 6, WAIT(6), E(xt_fail, 0),
                               X(xt_fail, 0));                          /* the calls part */
    const struct op g4[] = RUN(2000000000, 2000000003, 7, E(xt_f1, 7), X(xt_f1, 0), WAIT(7));
    const struct op b4[] = RUN(5000000000, 5000000004, 6, E(xt_f1, 6), X(xt_f1, 0),
                               WAIT(6));                    /* used otherwise, before the wait */
    const struct op g5[] = RUN(2000000000, 2001000003, 7, WAIT(7));
    const struct op b5[] = RUN(5000000000, 5001000004, 6, WAIT(6));    /* not the trace's time */
    const struct op b6[] = RUN(5000000000, 5000000005, 6, WAIT(6));    /* 2 more, not 1 */
    const struct op *const must[][2] = {{g, b1}, {g2, b2}, {g3, b3}, {g4, b4}, {g5, b5},
                                        {g, b6}};
    for (size_t i = 0; i < sizeof must / sizeof must[0]; i++) {
        d = diff(must[i][0], must[i][1]);
        r = ttd_get_result(d);
        if (r->diverged != 1 || r->values_deadline != 0)
            fail_msg("case %zu: diverged %d, values_deadline %llu", i + 1, r->diverged,
                     (unsigned long long)r->values_deadline);
        ttd_free(d);
    }
#undef WAIT
#undef RUN
}

/* Two calls of one function by one caller, the same two calls (each one's
 * good argument is the other's bad one) in the other order, with a wait
 * loop (hidden as timing: a second thread exists, two condition waits)
 * between them in the bad run, or right before the first of them: the
 * order followed the timing, the runs do not diverge, and the reports say
 * why ("the same calls ran in the other order") in all three formats.
 * Not hidden: the swap with no timing hunk, argument sets that differ
 * (1, 2 against 2, 3), the wait loop earlier with another call between it
 * and the pair, two functions (xt_f1, xt_f2) whose arguments swapped. */
static void test_swap_after_timing(void **state)
{
    (void)state;
    ttd_diff *d;
#define RUN(...) {TE(1, xt_worker, 0), TX(1, xt_worker, 0), E(xt_main, 1), __VA_ARGS__, \
                  X(xt_main, 0), {0}}
#define F(f, v) E(f, v), X(f, 0)
#define LOOP E(xt_wait, 0), TS(0, TTF_SOP_WAIT), TS(0, TTF_SOP_WOKE), X(xt_wait, 0), \
             E(xt_wait, 0), TS(0, TTF_SOP_WAIT), TS(0, TTF_SOP_WOKE), X(xt_wait, 0)
    const struct op g[] = RUN(F(xt_f1, 2), F(xt_f1, 1));
    const struct op b[] = RUN(F(xt_f1, 1), LOOP, F(xt_f1, 2));
    const struct op b0[] = RUN(LOOP, F(xt_f1, 1), F(xt_f1, 2));
    const struct op *const hidden[] = {b, b0};
    for (size_t i = 0; i < 2; i++) {
        d = diff(g, hidden[i]);
        const ttd_result *r = ttd_get_result(d);
        if (r->diverged != 0 || r->values_swapped != 2)
            fail_msg("hidden case %zu: diverged %d, values_swapped %llu", i + 1, r->diverged,
                     (unsigned long long)r->values_swapped);
        assert_null(r->value_first);
        int seen = 0;
        for (size_t k = 0; k < r->verdict->nhidden; k++)
            seen |= r->verdict->hidden[k].kind == TTD_HIDDEN_TIMING &&
                    strstr(r->verdict->hidden[k].evidence, "`xt_f1` was called with 2, then "
                           "with 1, in the good run, the other way round in the bad run; the "
                           "bad run's 4 events ") != NULL &&
                    strstr(r->verdict->hidden[k].evidence, i ? "right before" : "between");
        assert_true(seen);
        char *t = tu_report(d, ttr_text, NULL, NULL), *j = tu_report(d, ttr_json, NULL, NULL);
        char *html = tu_report(d, ttr_html, NULL, NULL);
        assert_non_null(strstr(t, "the same calls ran in the other order, after a difference "
                                  "hidden as timing: `xt_f1`"));
        assert_non_null(strstr(j, "\"not counted as a divergence because the same calls ran in "
                                  "the other order, after a difference hidden as timing\""));
        assert_non_null(strstr(html, "the same calls ran in the other order"));
        free(t);
        free(j);
        free(html);
        ttd_free(d);
    }
    /* must not be hidden */
    const struct op b1[] = RUN(F(xt_f1, 1), F(xt_f1, 2));
    const struct op g2[] = RUN(F(xt_f1, 2), F(xt_f1, 3));
    const struct op g3[] = RUN(F(xt_ok, 0), F(xt_f1, 2), F(xt_f1, 1));
    const struct op b3[] = RUN(LOOP, F(xt_ok, 0), F(xt_f1, 1), F(xt_f1, 2));
    const struct op g4[] = RUN(F(xt_f1, 2), F(xt_f2, 1));
    const struct op b4[] = RUN(F(xt_f1, 1), LOOP, F(xt_f2, 2));
    const struct op *const must[][2] = {{g, b1}, {g2, b}, {g3, b3}, {g4, b4}};
    for (size_t i = 0; i < sizeof must / sizeof must[0]; i++) {
        d = diff(must[i][0], must[i][1]);
        const ttd_result *r = ttd_get_result(d);
        if (r->diverged != 1 || r->values_swapped != 0)
            fail_msg("case %zu: diverged %d, values_swapped %llu", i + 1, r->diverged,
                     (unsigned long long)r->values_swapped);
        ttd_free(d);
    }
#undef LOOP
#undef F
#undef RUN
}

/* The text and JSON reports of the traces gp, bp (values), with the
 * replays going on from what align's values walk replayed over the common
 * prefix, or (off) each walking its pair from the start; *resumed: the
 * replays that went on from a prefix. */
static char *reports_of(const char *gp, const char *bp, int off, uint64_t *resumed)
{
    ttd_options o;
    ttd_options_init(&o);
    o.suspects = 6;
    ttd_diff *d = NULL;
    ttf_error err;
    uint64_t was = ttdi_replay_resumed;
    ttdi_replay_prefix_off = off;
    int rc = ttd_diff_files(gp, bp, &o, &d, &err);
    ttdi_replay_prefix_off = 0;
    if (rc)
        fail_msg("ttd_diff_files: %s", err.msg);
    *resumed = ttdi_replay_resumed - was;
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

/* A replay goes on from align's prefix replay (replay.c; issue 38: the
 * common prefix read with values once) with the same result as a walk
 * from the start: on pairs whose threads' lengths differ (so align
 * replays the prefix), with what the prefix leaves behind -- a value that
 * differs there (a node of the tree), a return's statistics (a failure
 * learnt from an earlier call, a clock), an I/O wait whose timeout is the
 * differing value, the good or the bad run ending inside it -- the text
 * and JSON reports are byte-identical both ways, and the replay did go
 * on from the prefix. A worker whose prefix runs past the split's time
 * (its replay stops earlier: from the start) is the same too; and so are
 * the notices when a worker that is never replayed calls a function with
 * no DWARF (crt1's _start): the bad run's symbols are not asked for its
 * signature (a notice) that the values walk did not ask for. */
static void test_prefix_replay(void **state)
{
    (void)state;
#define TAIL E(xt_skip, 0), X(xt_skip, 0)
#define WAIT(v, ns) E(xt_use, v), SLEEPS(ns), X(xt_use, 0)
    const struct op g1[] = {E(xt_main, 1), E(xt_check, 7), X(xt_check, -22),
                            E(xt_load, 5), E(xt_pass, 5), E(xt_check, 5),
                            X(xt_check, 0), X(xt_pass, 0), X(xt_load, 0), E(xt_ok, 0),
                            X(xt_ok, 0), X(xt_main, 0), {0}};
    const struct op b1[] = {E(xt_main, 1), E(xt_check, 7), X(xt_check, -22),
                            E(xt_load, 5), E(xt_pass, 5), E(xt_check, 5),
                            X(xt_check, -22), X(xt_pass, -22), X(xt_load, -22), E(xt_fail, 0),
                            X(xt_fail, 0), TAIL, X(xt_main, 0), {0}};
    const struct op g2[] = {E(xt_main, 1), E(xt_stamp, 0), X(xt_stamp, 100), E(xt_stamp, 0),
                            X(xt_stamp, 200), E(xt_stamp, 0), X(xt_stamp, 300), E(xt_use, 300),
                            X(xt_use, 0), E(xt_ok, 0), X(xt_ok, 0), X(xt_main, 0), {0}};
    const struct op b2[] = {E(xt_main, 1), E(xt_stamp, 0), X(xt_stamp, 110), E(xt_stamp, 0),
                            X(xt_stamp, 220), E(xt_stamp, 0), X(xt_stamp, 330), E(xt_use, 330),
                            X(xt_use, 0), E(xt_fail, 0), X(xt_fail, 0), TAIL, TAIL,
                            X(xt_main, 0), {0}};
    const struct op g3[] = {E(xt_main, 1), E(xt_get, 0), X(xt_get, 2988),
                            WAIT(2988, 2988000000ull), E(xt_ok, 0), X(xt_ok, 0), X(xt_main, 0),
                            {0}};
    const struct op b3[] = {E(xt_main, 1), E(xt_get, 0), X(xt_get, 2997),
                            WAIT(2997, 2997000000ull), E(xt_fail, 0), X(xt_fail, 0), TAIL,
                            X(xt_main, 0), {0}};
    const struct op g4[] = {E(xt_main, 1), E(xt_load, 5), E(xt_pass, 5), E(xt_check, 5),
                            X(xt_check, 0), X(xt_pass, 0), X(xt_load, 0), {0}};
    const struct op b4[] = {E(xt_main, 1), E(xt_load, 5), E(xt_pass, 5), E(xt_check, 5),
                            X(xt_check, -22), X(xt_pass, -22), X(xt_load, -22), E(xt_fail, 0),
                            X(xt_fail, 0), X(xt_main, 0), {0}};
    const struct op g5[] = {E(xt_main, 1), E(xt_get, 0), X(xt_get, 3),
                            WAIT(3, 2988000000ull), E(xt_ok, 0), X(xt_ok, 0), TAIL,
                            X(xt_main, 0), {0}};
    const struct op b5[] = {E(xt_main, 1), E(xt_get, 0), X(xt_get, 4),
                            WAIT(4, 2988000000ull), {0}};
    const struct op g6[] = {E(xt_main, 1), TE(1, xt_worker, 0), TE(1, xt_work, 3),
                            TX(1, xt_work, 3), E(xt_wait, 0), X(xt_wait, 0), E(xt_ok, 0),
                            X(xt_ok, 0), X(xt_main, 0), TE(1, xt_work, 4), TX(1, xt_work, -7),
                            TX(1, xt_worker, 0), {0}};
    const struct op b6[] = {E(xt_main, 1), TE(1, xt_worker, 0), TE(1, xt_work, 3),
                            TX(1, xt_work, -5), E(xt_wait, 0), X(xt_wait, 0), E(xt_fail, 0),
                            X(xt_fail, 0), TAIL, X(xt_main, 0), TE(1, xt_work, 4),
                            TX(1, xt_work, -7), TE(1, xt_skip, 0), TX(1, xt_skip, 0),
                            TX(1, xt_worker, 0), {0}};
#define W8 TE(1, xt_wait, 0), TX(1, xt_wait, 0), TE(1, xt_wait, 0), TX(1, xt_wait, 0), \
           TE(1, xt_wait, 0), TX(1, xt_wait, 0), TE(1, xt_wait, 0), TX(1, xt_wait, 0)
    const struct op g7[] = {E(xt_main, 1), TE(1, xt_worker, 0), TE(1, _start, 0),
                            TX(1, _start, 0), W8, W8, E(xt_ok, 0), X(xt_ok, 0), X(xt_main, 0),
                            TX(1, xt_worker, 0), {0}};
    const struct op b7[] = {E(xt_main, 1), TE(1, xt_worker, 0), TE(1, _start, 0),
                            TX(1, _start, 0), W8, W8, E(xt_fail, 0), X(xt_fail, 0), TAIL,
                            X(xt_main, 0), TE(1, xt_skip, 0), TX(1, xt_skip, 0),
                            TX(1, xt_worker, 0), {0}};
#undef W8
    const struct op g8[] = {E(xt_main, 1), E(xt_check, 7), X(xt_check, 0), E(xt_pass, 5),
                            E(xt_check, 5), X(xt_check, 0), X(xt_pass, 0), E(xt_ok, 0),
                            X(xt_ok, 0), X(xt_main, 0), {0}};
    const struct op b8[] = {E(xt_main, 1), E(xt_check, 7), X(xt_check, 0), E(xt_pass, 6),
                            E(xt_check, 6), X(xt_check, -22), X(xt_pass, -22), E(xt_fail, 0),
                            X(xt_fail, 0), TAIL, X(xt_main, 0), {0}};
    const struct op *const cases[][2] = {{g1, b1}, {g2, b2}, {g3, b3}, {g4, b4}, {g5, b5},
                                         {g6, b6}, {g7, b7}, {g8, b8}};
    for (size_t i = 0; i < 2 * sizeof cases / sizeof cases[0]; i++) {
        char gp[512], bp[512];
        uint64_t on, off;
        size_t c = i % (sizeof cases / sizeof cases[0]);
        lazy = i != c;
        snprintf(gp, sizeof gp, "%s", write_trace(cases[c][0], 0, 1));
        snprintf(bp, sizeof bp, "%s", write_trace(cases[c][1], 0, 1));
        lazy = 0;
        char *merged = reports_of(gp, bp, 0, &on), *apart = reports_of(gp, bp, 1, &off);
        if (strcmp(merged, apart) != 0)
            fail_msg("case %zu%s: the reports differ\n--- from the prefix:\n%s\n--- from the "
                     "start:\n%s", c + 1, i != c ? " (lazy)" : "", merged, apart);
        if (on < 1 || off != 0)
            fail_msg("case %zu: %llu replays went on from the prefix (%llu apart)", c + 1,
                     (unsigned long long)on, (unsigned long long)off);
        free(merged);
        free(apart);
    }
#undef WAIT
#undef TAIL
}

/* The values walk's answers the prefix replay of replay_lazy gets
 * (test_prefix_shared): 0 none; 1 the values walk's (ttdi_values_step on
 * the same walks, as align's load compares them just before); 2 its
 * first "the same" for an ENTER pair and for an EXIT pair, each given for
 * every later pair of its kind; 3 those with their first operation's
 * registers moved. */
static int share;

typedef struct kept_answers {
    ttdi_vsame a[2];            /* ENTER, EXIT */
    ttdi_vop ops[2][16];
} kept_answers;

static const ttdi_vsame *answer(ttdi_walk *g, ttdi_walk *b, ttdi_vstep *vs, kept_answers *k)
{
    if (!share)
        return NULL;
    assert_true(ttdi_values_step(g, b, vs) >= 0);
    if (share == 1)
        return &vs->same;
    int x = b->ev.kind == TTF_EV_EXIT;
    ttdi_vsame *a = &k->a[x];
    if (!a->op && vs->same.op && vs->same.nops && vs->same.kind == b->ev.kind) {
        *a = vs->same;
        memcpy(k->ops[x], a->op, a->nops * sizeof *a->op);
        k->ops[x][0].rg = k->ops[x][0].rb = (uint8_t)(k->ops[x][0].rb + 1);
        if (share == 3)
            a->op = k->ops[x];
    }
    return a->op && a->kind == b->ev.kind ? a : NULL;
}

/* Traces of g and b (values, the lazy clock) into gp and bp (512 bytes
 * each). */
static void write_lazy_pair(const struct op *g, const struct op *b, char *gp, char *bp)
{
    lazy = 1;
    snprintf(gp, 512, "%s", write_trace(g, 0, 1));
    snprintf(bp, 512, "%s", write_trace(b, 0, 1));
    lazy = 0;
}

/* One replay of the pair in gp, bp (thread 0 each, no hunks: it walks
 * until the keys part) into *rp: from the start, or (pre) going on from
 * a prefix replay fed as align's load feeds it, by two keyed walks that
 * skip times from their first event on (pair_align.c times_off), with
 * the values walk's answers as `share` says. The prefix replay is freed
 * here. */
static void replay_lazy(const char *gp, const char *bp, int pre_on, ttdi_replay *rp)
{
    ttf_trace *t[2];
    ttdi_norm n[2];
    ttdi_walk w[2];
    ttdi_rprefix *pre = NULL;
    ttdi_vstep vs;
    kept_answers kept;
    memset(&vs, 0, sizeof vs);
    memset(&kept, 0, sizeof kept);
    vs.share = 1;
    for (int i = 0; i < 2; i++) {
        assert_int_equal(ttf_open(i ? bp : gp, &t[i], NULL), 0);
        assert_int_equal(ttdi_norm_init(&n[i], t[i], TTD_MSG_SITE, NULL, NULL, 0), 0);
    }
    memset(rp, 0, sizeof *rp);
    *rp = (ttdi_replay){.norm = {&n[0], &n[1]}, .stop = UINT64_MAX, .stop_ns = UINT64_MAX};
    if (pre_on) {
        assert_int_equal(ttdi_rprefix_start(&pre, &n[0], &n[1], 0, 0), 0);
        for (int i = 0; i < 2; i++) {
            assert_int_equal(ttdi_walk_keyed(&w[i], &n[i], 0), 0);
            w[i].sleeps = 1;
        }
        int got[2], rc = 0;
        do {
            for (int i = 0; i < 2; i++) {
                got[i] = ttdi_replay_next(&pre->rp, i, &w[i], NULL);
                assert_true(got[i] >= 0);
                if (got[i] && !w[i].notimes)
                    assert_int_equal(ttdi_walk_notimes(&w[i]), 0);
            }
            if (got[0] && got[1] && w[0].key == w[1].key)
                rc = ttdi_rprefix_pair(pre, &w[0], &w[1], answer(&w[0], &w[1], &vs, &kept));
            else
                rc = 1 + ttdi_rprefix_hold(pre, &w[0], &w[1], got[0], got[1]);
        } while (rc == 0);
        assert_int_equal(rc, 1);
        assert_true(pre->held);
    }
    assert_int_equal(ttdi_replay_run(rp, pre), 0);
    ttdi_rprefix_free(pre);
    ttdi_vstep_free(&vs);
    for (int i = 0; i < 2 && pre_on; i++)
        ttdi_walk_close(&w[i]);
    rp->norm[0] = rp->norm[1] = NULL;
    for (int i = 0; i < 2; i++) {
        ttdi_norm_free(&n[i]);
        ttf_close(t[i]);
    }
}

/* The prefix replay read without times (its walks skip the lazy clock's
 * times, pair_align.c) keeps exact times all the same: the calls that
 * become nodes around a difference (their ENTERs untimed, read long
 * before, taken back by offset: replay.c frame_times), those still open
 * where it ends (the path at the stop: two untimed ENTERs), the EXITs of
 * the nodes, so the replay that goes on from it has the nodes, times and
 * path of a replay from the start with times.
 * Chained lazy traces: the ENTERs after an untimed EXIT, and after them,
 * are untimed. */
static void test_prefix_times(void **state)
{
    (void)state;
#define SK E(xt_skip, 0), X(xt_skip, 0)
#define NEST(v, r) E(xt_pass, 5), E(xt_load, 5), E(xt_check, v), X(xt_check, r), \
                   X(xt_load, 0), X(xt_pass, 0)
    const struct op g[] = {E(xt_main, 1), SK, SK, SK, NEST(7, 0), SK, SK, NEST(9, 0), SK,
                           E(xt_pass, 5), E(xt_load, 5), E(xt_ok, 0), X(xt_ok, 0),
                           X(xt_load, 0), X(xt_pass, 0), X(xt_main, 0), {0}};
    const struct op b[] = {E(xt_main, 1), SK, SK, SK, NEST(8, 0), SK, SK, NEST(9, -22), SK,
                           E(xt_pass, 5), E(xt_load, 5), E(xt_fail, 0), X(xt_fail, 0),
                           X(xt_load, 0), X(xt_pass, 0), X(xt_main, 0), {0}};
#undef NEST
#undef SK
    char gp[512], bp[512];
    write_lazy_pair(g, b, gp, bp);
    ttdi_replay from, start;
    replay_lazy(gp, bp, 1, &from);
    replay_lazy(gp, bp, 0, &start);
    assert_true(start.n > 4);
    assert_int_equal(from.n, start.n);
    assert_int_equal(from.npath, 3);
    assert_int_equal(start.npath, 3);
    for (size_t i = 0; i < start.n; i++) {
        const ttdi_xcall *x = &from.c[i], *y = &start.c[i];
        assert_int_equal(x->key, y->key);
        assert_int_equal(x->time_ns, y->time_ns);
        assert_int_equal(x->gtime_ns, y->gtime_ns);
        assert_int_equal(x->exit_ns, y->exit_ns);
        assert_int_equal(x->gexit_ns, y->gexit_ns);
    }
    for (size_t i = 0; i < start.npath; i++)
        assert_int_equal(from.path[i], start.path[i]);
    ttdi_replay_free(&from);
    ttdi_replay_free(&start);
}

/* The nodes of rp whose arguments differ (ret 0) or results (ret 1). */
static size_t diff_nodes(const ttdi_replay *rp, int ret)
{
    size_t k = 0;
    for (size_t i = 0; i < rp->n; i++)
        k += ret ? rp->c[i].retdiff != 0 : rp->c[i].argdiff != 0;
    return k;
}

/* The prefix replay takes the values walk's answer "the same" for an ENTER
 * pair when that answer came by the operations its own plan makes
 * (replay.c args_same_as_values), and for an EXIT pair when it compared
 * the result as exit_frame does (ret_same_as_values): fed the values
 * walk's answers, it finds what a replay from the start finds, most pairs
 * answered that way; fed stale answers "the same" (the first pairs', for
 * the pair whose argument and result differ) it takes them, but not once
 * their operations differ from its own comparisons (a register moved):
 * it then compares by itself. */
static void test_prefix_shared(void **state)
{
    (void)state;
#define C9 E(xt_check, 9), X(xt_check, 0)    /* (a plan from the second on) */
    const struct op g[] = {E(xt_main, 1), C9, C9, C9, E(xt_check, 7), X(xt_check, 0),
                           E(xt_pass, 5), E(xt_ok, 0), X(xt_ok, 0), X(xt_pass, 0),
                           X(xt_main, 0), {0}};
    const struct op b[] = {E(xt_main, 1), C9, C9, C9, E(xt_check, 8), X(xt_check, -22),
                           E(xt_pass, 5), E(xt_fail, 0), X(xt_fail, 0), X(xt_pass, 0),
                           X(xt_main, 0), {0}};
#undef C9
    char gp[512], bp[512];
    write_lazy_pair(g, b, gp, bp);
    ttdi_replay start, from;
    replay_lazy(gp, bp, 0, &start);
    assert_int_equal(diff_nodes(&start, 0), 1);
    assert_int_equal(diff_nodes(&start, 1), 1);
    for (share = 1; share <= 3; share++) {
        ttdi_replay_shared = 0;
        replay_lazy(gp, bp, 1, &from);
        if (share == 1) {
            assert_true(ttdi_replay_shared >= 2);
            assert_int_equal(from.n, start.n);
            for (size_t i = 0; i < start.n; i++) {
                assert_int_equal(from.c[i].key, start.c[i].key);
                assert_int_equal(from.c[i].argdiff, start.c[i].argdiff);
                assert_int_equal(from.c[i].retdiff, start.c[i].retdiff);
            }
            assert_int_equal(from.compared, start.compared);
        }
        for (int ret = 0; ret < 2 && share > 1; ret++)    /* (2: stale answers taken) */
            assert_int_equal(diff_nodes(&from, ret), share == 3);
        ttdi_replay_free(&from);
    }
    share = 0;
    ttdi_replay_free(&start);
}

/* A walk that skips times and takes back more than TTDI_RETIMES of them
 * by offset (ttdi_walk_times_at: each a chunk's read when they do not come
 * in order) reads its own from there on: the times given are exact, and
 * the walk's next events come with theirs. */
static void test_times_at_cap(void **state)
{
    (void)state;
    enum { N = 200 };
    struct op ops[2 * N + 3];
    size_t k = 0;
    ops[k++] = (struct op)E(xt_main, 1);
    for (int i = 0; i < N; i++) {
        ops[k++] = (struct op)E(xt_check, i);
        ops[k++] = (struct op)X(xt_check, 0);
    }
    ops[k++] = (struct op)X(xt_main, 0);
    ops[k] = (struct op){0};
    lazy = 1;
    const char *path = write_trace(ops, 0, 1);
    lazy = 0;
    ttf_trace *t;
    ttdi_norm n;
    ttdi_walk w, timed;
    ttf_event *ev = calloc(4 * N, sizeof *ev);
    assert_non_null(ev);
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    assert_int_equal(ttdi_norm_init(&n, t, TTD_MSG_SITE, NULL, NULL, 0), 0);
    assert_int_equal(ttdi_walk_keyed(&timed, &n, 0), 0);
    for (size_t i = 0; ttdi_walk_next(&timed) > 0; i++) {
        assert_true(i < 4 * N);
        ev[i] = timed.ev;                       /* the times a walk with them gives */
    }
    ttdi_walk_close(&timed);
    assert_int_equal(ttdi_walk_keyed(&w, &n, 0), 0);
    assert_int_equal(ttdi_walk_notimes(&w), 0);
    size_t i = 0, asked = 0;
    for (; ttdi_walk_next(&w) > 0 && w.notimes; i++) {
        ttf_event x = w.ev;
        assert_int_equal(x.offset, ev[i].offset);
        if (i < 2 || i % 2)
            continue;
        x = ev[i - 2 + asked % 2];              /* out of order: no reading kept */
        x.time_ns = 0;
        assert_int_equal(ttdi_walk_times_at(&w, &x), 0);
        assert_int_equal(x.time_ns, ev[i - 2 + asked % 2].time_ns);
        asked++;
    }
    assert_int_equal(asked, TTDI_RETIMES + 1);
    size_t untimed = 0;
    for (; ttdi_walk_next(&w) > 0; i++) {       /* with times from there */
        assert_int_equal(w.ev.time_ns, ev[i + 1].time_ns);
        untimed += ev[i + 1].untimed && ev[i + 1].time_ns > ev[i + 1].early_ns;
    }
    assert_true(untimed > 10);
    ttdi_walk_close(&w);
    ttdi_norm_free(&n);
    ttf_close(t);
    free(ev);
}

int main(void)
{
    if (self_module_load() != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frame_first_plain),
        cmocka_unit_test(test_answer_plain),
        cmocka_unit_test(test_answer_not),
        cmocka_unit_test(test_chain_returns),
        cmocka_unit_test(test_flip_learned),
        cmocka_unit_test(test_chain_argument_origin),
        cmocka_unit_test(test_error_origin),
        cmocka_unit_test(test_origin_pointer_threads),
        cmocka_unit_test(test_frame_decides),
        cmocka_unit_test(test_stored_read_back),
        cmocka_unit_test(test_written_read_back),
        cmocka_unit_test(test_written_getter),
        cmocka_unit_test(test_written_other_thread),
        cmocka_unit_test(test_written_made),
        cmocka_unit_test(test_written_flip_inside),
        cmocka_unit_test(test_chain_sibling),
        cmocka_unit_test(test_pointers),
        cmocka_unit_test(test_static_pointers),
        cmocka_unit_test(test_pointers_by_epoch),
        cmocka_unit_test(test_clock_noise),
        cmocka_unit_test(test_deadline_noise),
        cmocka_unit_test(test_deadline_timespec),
        cmocka_unit_test(test_float_time),
        cmocka_unit_test(test_baseline_not_followed),
        cmocka_unit_test(test_thread_order),
        cmocka_unit_test(test_thread_timed),
        cmocka_unit_test(test_thread_cut_by_exit),
        cmocka_unit_test(test_progress_past_clock),
        cmocka_unit_test(test_clock_decided),
        cmocka_unit_test(test_thread_cut_running),
        cmocka_unit_test(test_killed_not_timing),
        cmocka_unit_test(test_same_calls_exit),
        cmocka_unit_test(test_identical),
        cmocka_unit_test(test_rank_order),
        cmocka_unit_test(test_reports),
        cmocka_unit_test(test_inlined_suspects),
        cmocka_unit_test(test_inlined_wrapper),
        cmocka_unit_test(test_inlined_not_when_calls_differ),
        cmocka_unit_test(test_value_follows_progress),
        cmocka_unit_test(test_timeout_never_expired),
        cmocka_unit_test(test_deadline_by_clock),
        cmocka_unit_test(test_swap_after_timing),
        cmocka_unit_test(test_prefix_replay),
        cmocka_unit_test(test_prefix_times),
        cmocka_unit_test(test_prefix_shared),
        cmocka_unit_test(test_times_at_cap),
        cmocka_unit_test(test_range_check_end),
        cmocka_unit_test(test_own_thread_flip),
    };
    return cmocka_run_group_tests(tests, tu_tmpdir_setup, tu_tmpdir_teardown);
}
