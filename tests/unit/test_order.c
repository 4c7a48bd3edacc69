/*
 * test_order.c - the first divergence when one thread's difference only
 * follows how far another had got (diff/order.c), on traces written with
 * the format writer. The main thread reads a queue under mutex M; the
 * decoder finishes its job under M. In the good run the decoder was
 * quick (it took M before the main thread did), in the bad one slow, so
 * the main thread's read went another way first in time (an extra call
 * under M); the decoder's own difference (it calls fail instead of
 * helper) comes later, before it takes M. That one heads the report and
 * the main thread's is marked as following the progress; it does not
 * when the main thread's split reached the decoder first (an unlock the
 * decoder then locked), when the main thread held no lock, nor when the
 * decoder's difference is under a lock whose holders differ too. The
 * text, JSON and HTML reports say it. Runs that ended alike whose only
 * difference follows the progress are timing-shaped ("progress").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ttdiff.h"
#include "ttreport.h"
#include "diff_traces.h"
#include "report_util.h"
#include "tmpdir.h"

#define MUTEX 0x5000u
#define MUTEX2 0x5100u

static const char *const names[] = {"main", "decoder"};

static void op(dt *t, uint32_t th, int code, uint64_t obj)
{
    t->now[th] += 10;
    assert_int_equal(ttf_write_sync_op(t->w, th, t->now[th], code, obj, 0), 0);
}

static void run(dt *t, uint32_t th, const char *s)
{
    assert_int_equal(dt_run(t, th, s), 0);
}

static char *path_of(const char *name)
{
    static char buf[4][512];
    static int k;
    char *p = buf[k++ % 4];
    snprintf(p, 512, "%s/%s", tu_tmpdir, name);
    return p;
}

enum shape {
    PLAIN,          /* as described above */
    REACHED,        /* the decoder takes M after the main thread's split,
                       before its own */
    NO_LOCK,        /* the main thread's read holds no lock */
    DEC_LOCKED,     /* the decoder's split is under a second mutex the
                       main thread took in the bad run only (before its
                       own split) */
    SLOW_ONLY,      /* the decoder does the same calls in both runs, only
                       later in the bad one: main's split is all there is */
    SLOW_NO_LOCK    /* the same, but main's read holds no lock */
};

/* The main thread: main{ [lock M] parse{ [lex{}] } [unlock M] check{} }
 * with the read at 1200 (threads start at 1000); lex only in the bad run. */
static void main_thread(dt *t, int bad, enum shape s)
{
    run(t, 0, "@1010 main{ @1200");
    if (s == DEC_LOCKED && bad) {       /* before its split: not reached */
        op(t, 0, TTF_SOP_LOCK, MUTEX2);
        op(t, 0, TTF_SOP_UNLOCK, MUTEX2);
    }
    if (s != NO_LOCK && s != SLOW_NO_LOCK)
        op(t, 0, TTF_SOP_LOCK, MUTEX);              /* 210 */
    run(t, 0, bad ? "parse{ lex{} }" : "parse{ }"); /* 220.. */
    if (s != NO_LOCK && s != SLOW_NO_LOCK)
        op(t, 0, TTF_SOP_UNLOCK, MUTEX);
    run(t, 0, "check{} }");
}

/* The decoder: work{ check{} helper{} (good) | fail{} (bad) } with M
 * taken at 1030 in the good run (before the main thread's read), at 300
 * in the bad one (after its own split at ~1260). */
static void decoder(dt *t, int bad, enum shape s)
{
    run(t, 1, "@1020 work{");
    if (!bad) {
        op(t, 1, TTF_SOP_LOCK, MUTEX);
        op(t, 1, TTF_SOP_UNLOCK, MUTEX);
        run(t, 1, "@1220 check{}");
    } else if (s == REACHED) {
        run(t, 1, "@1265");
        op(t, 1, TTF_SOP_LOCK, MUTEX);              /* after main's unlock */
        op(t, 1, TTF_SOP_UNLOCK, MUTEX);
        run(t, 1, "check{}");
    } else {
        run(t, 1, "@1230 check{}");
    }
    if (s == DEC_LOCKED) {
        op(t, 1, TTF_SOP_LOCK, MUTEX2);
        run(t, 1, bad ? "fail{}" : "helper{}");
        op(t, 1, TTF_SOP_UNLOCK, MUTEX2);
    } else if (s == SLOW_ONLY || s == SLOW_NO_LOCK) {
        run(t, 1, "helper{}");
    } else {
        run(t, 1, bad ? "fail{}" : "helper{}");
    }
    if (bad && s != REACHED) {
        run(t, 1, "@1300");
        op(t, 1, TTF_SOP_LOCK, MUTEX);
        op(t, 1, TTF_SOP_UNLOCK, MUTEX);
    }
    run(t, 1, "}");
}

static void write_run(const char *name, int bad, enum shape s)
{
    dt t;
    remove(path_of(name));
    assert_int_equal(dt_open(&t, path_of(name), 0, names, 2), 0);
    main_thread(&t, bad, s);
    decoder(&t, bad, s);
    assert_int_equal(ttf_writer_close(t.w, 0), 0);
}

/* write_run, the decoder created by main (CREATE names thread 1) and, if
 * join, joined by it at its end. */
static void write_run_join(const char *name, int bad, enum shape s, int join)
{
    dt t;
    remove(path_of(name));
    assert_int_equal(dt_open(&t, path_of(name), 0, names, 2), 0);
    main_thread(&t, bad, s);
    decoder(&t, bad, s);
    t.now[0] += 10;
    assert_int_equal(ttf_write_sync_op(t.w, 0, t.now[0], TTF_SOP_CREATE, 0x7000, 1), 0);
    t.now[0] += 10;
    if (join)
        assert_int_equal(ttf_write_sync_op(t.w, 0, t.now[0], TTF_SOP_JOIN, 0x7000, 0), 0);
    assert_int_equal(ttf_writer_close(t.w, 0), 0);
}

/* The bad-run thread of the first divergence, and whether one was put
 * before a hunk that came earlier (followed). */
static uint32_t first_thread(enum shape s, const ttd_hunk_info **followed, ttd_diff **d)
{
    ttd_options o;

    write_run("g.trc", 0, s);
    write_run("b.trc", 1, s);
    ttd_options_init(&o);
    assert_int_equal(ttd_diff_files(path_of("g.trc"), path_of("b.trc"), &o, d, NULL), 0);
    const ttd_result *r = ttd_get_result(*d);
    assert_true(r->diverged);
    assert_non_null(r->first);
    *followed = r->followed;
    return r->pairs[r->first->pair].bad.index;
}

static void test_independent_first(void **state)
{
    const ttd_hunk_info *f;
    ttd_diff *d;
    (void)state;

    assert_int_equal(first_thread(PLAIN, &f, &d), 1);  /* the decoder */
    const ttd_result *r = ttd_get_result(d);
    assert_non_null(f);
    assert_ptr_equal(f, &r->hunks[1]);
    assert_true(f->order_dep);
    assert_int_equal(r->pairs[f->pair].bad.index, 0);  /* main's, marked */
    assert_int_equal(r->pairs[f->order_pair].bad.index, 1);
    assert_true(f->time_ns < r->hunks[0].time_ns);     /* it came first in time */
    assert_false(r->hunks[0].order_dep);
    /* said in words in every report */
    ttr_options o;
    ttr_options_init(&o);
    char *text = tu_report(d, ttr_text, &o, NULL);
    assert_non_null(strstr(text, "earlier in time: thread main (bad #0) went another way"));
    assert_non_null(strstr(text, "holding a lock that thread decoder (bad #1)"));
    char *json = tu_report(d, ttr_json, &o, NULL);
    assert_non_null(strstr(json, "\"follows_progress\": true"));
    assert_non_null(strstr(json, "\"progress_pair\": 1"));
    char *html = tu_report(d, ttr_html, &o, NULL);
    assert_non_null(strstr(html, "id=\"tt-followed\""));
    free(text);
    free(json);
    free(html);
    ttd_free(d);
}

static void test_reached_keeps_time(void **state)
{
    const ttd_hunk_info *f;
    ttd_diff *d;
    (void)state;

    assert_int_equal(first_thread(REACHED, &f, &d), 0);
    assert_null(f);
    ttd_free(d);
}

static void test_no_lock_keeps_time(void **state)
{
    const ttd_hunk_info *f;
    ttd_diff *d;
    (void)state;

    assert_int_equal(first_thread(NO_LOCK, &f, &d), 0);
    assert_null(f);
    ttd_free(d);
}

static void test_both_follow_keeps_time(void **state)
{
    const ttd_hunk_info *f;
    ttd_diff *d;
    (void)state;

    assert_int_equal(first_thread(DEC_LOCKED, &f, &d), 0);
    assert_null(f);
    ttd_free(d);
}

/* Runs that ended alike whose only difference is main's read under a
 * lock the slow decoder took later: timing-shaped ("progress"), no
 * divergence; not when main's read held no lock, nor when the bad run is
 * known to have failed, nor when the decoder was joined in one run only. */
static void test_progress_only(void **state)
{
    ttd_options o;
    ttd_diff *d;
    (void)state;

    write_run("g.trc", 0, SLOW_ONLY);
    write_run("b.trc", 1, SLOW_ONLY);
    ttd_options_init(&o);
    assert_int_equal(ttd_diff_files(path_of("g.trc"), path_of("b.trc"), &o, &d, NULL), 0);
    const ttd_result *r = ttd_get_result(d);
    assert_false(r->diverged);
    assert_null(r->first);
    assert_int_equal(r->hunks_total, 0);
    assert_true(r->timing_total >= 1);
    assert_int_equal(r->hunks[0].timing, TTD_TIMING_PROGRESS);
    assert_string_equal(ttd_timing_name(r->hunks[0].timing), "progress");
    assert_int_equal(r->pairs[r->hunks[0].pair].bad.index, 0);
    ttr_options ro;
    ttr_options_init(&ro);
    char *text = tu_report(d, ttr_text, &ro, NULL);
    assert_non_null(strstr(text, "(follows the threads' progress: a lock's earlier holders differ)"));
    free(text);
    ttd_free(d);
    o.bad_failed = "exit 0, the test said it failed";
    assert_int_equal(ttd_diff_files(path_of("g.trc"), path_of("b.trc"), &o, &d, NULL), 0);
    r = ttd_get_result(d);
    assert_true(r->diverged);
    assert_int_equal(r->pairs[r->first->pair].bad.index, 0);
    ttd_free(d);
    write_run("g.trc", 0, SLOW_NO_LOCK);
    write_run("b.trc", 1, SLOW_NO_LOCK);
    ttd_options_init(&o);
    assert_int_equal(ttd_diff_files(path_of("g.trc"), path_of("b.trc"), &o, &d, NULL), 0);
    assert_true(ttd_get_result(d)->diverged);
    ttd_free(d);
    /* the decoder joined in both runs: still progress; joined in the good
     * run only (detached in the bad one, pbzip2-detach): a divergence */
    write_run_join("g.trc", 0, SLOW_ONLY, 1);
    write_run_join("b.trc", 1, SLOW_ONLY, 1);
    assert_int_equal(ttd_diff_files(path_of("g.trc"), path_of("b.trc"), &o, &d, NULL), 0);
    assert_false(ttd_get_result(d)->diverged);
    ttd_free(d);
    write_run_join("b.trc", 1, SLOW_ONLY, 0);
    assert_int_equal(ttd_diff_files(path_of("g.trc"), path_of("b.trc"), &o, &d, NULL), 0);
    assert_true(ttd_get_result(d)->diverged);
    ttd_free(d);
}

/* The decoder fails holding M (taken after the main thread's turn in the
 * bad run, before it in the good one: its split follows the progress)
 * and ends the process (its stream holds END); the main thread, cut off
 * inside parse, has no split of its own to put first: the decoder's
 * stays first, nothing is marked. */
static void cut_run(const char *name, int bad)
{
    dt t;
    remove(path_of(name));
    assert_int_equal(dt_open(&t, path_of(name), 0, names, 2), 0);
    run(&t, 0, bad ? "@1010 main{ @1200" : "@1010 main{ @1300");
    op(&t, 0, TTF_SOP_LOCK, MUTEX);     /* 1210 bad, 1310 good */
    op(&t, 0, TTF_SOP_UNLOCK, MUTEX);
    run(&t, 0, bad ? "parse{" : "parse{ lex{} } check{} }");
    run(&t, 1, "@1020 work{ @1250");
    op(&t, 1, TTF_SOP_LOCK, MUTEX);     /* 1260: after main's in the bad run */
    run(&t, 1, bad ? "check{} fail{}" : "check{} helper{}");
    if (!bad) {
        op(&t, 1, TTF_SOP_UNLOCK, MUTEX);
        run(&t, 1, "}");
    }
    assert_int_equal(ttf_writer_close_in(t.w, bad ? 1 : 0, bad ? 1 : 0), 0);
}

static void test_cut_thread_not_first(void **state)
{
    ttd_options o;
    ttd_diff *d;
    (void)state;

    cut_run("g.trc", 0);
    cut_run("b.trc", 1);
    ttd_options_init(&o);
    assert_int_equal(ttd_diff_files(path_of("g.trc"), path_of("b.trc"), &o, &d, NULL), 0);
    const ttd_result *r = ttd_get_result(d);
    assert_true(r->diverged);
    assert_non_null(r->first);
    assert_int_equal(r->pairs[r->first->pair].bad.index, 1);
    assert_null(r->followed);
    ttd_free(d);
}

/* The lazy clock (FORMAT.md 4.7): main's lex returns untimed, so the
 * ENTER of its split (check in the good run, fail in the bad) is untimed
 * too, between 1040 (lex's ENTER) and 1310 (the split call's EXIT), and
 * placed by estimate late in that run; the worker parts at 1055,
 * measured, inside those bounds: which thread parted first is not known
 * from the clock. timed: main's split measured at 1300, after the
 * worker's. The process ends in thread end_in (2: an idle thread). */
static void lazy_run(const char *name, int bad, int timed, uint32_t end_in)
{
    static const char *const three[] = {"main", "worker", "idle"};
    ttf_writer_opts o = {.chunk_size = 1 << 16, .timed = 1, .sparse = 1, .lazy = 1};
    dt t;
    remove(path_of(name));
    assert_int_equal(dt_open_opts(&t, path_of(name), 0, three, 3, &o), 0);
    run(&t, 2, "@1002 work{ helper{} }");
    run(&t, 0, timed ? "@1010 main{ parse{ lex{} @1290" : "@1010 main{ parse{ lex{~}");
    run(&t, 0, bad ? "fail{ @1300 } } }" : "check{ @1300 } } }");
    run(&t, 1, bad ? "@1035 work{ fail{} }" : "@1035 work{ helper{} }");
    assert_int_equal(ttf_writer_close_in(t.w, end_in, 1), 0);
}

/* The first divergence of the lazy runs, and the other pair's first. */
static const ttd_result *lazy_diff(int timed, uint32_t end_in, ttd_diff **d,
                                   const ttd_hunk_info **other)
{
    ttd_options o;

    lazy_run("lg.trc", 0, timed, end_in);
    lazy_run("lb.trc", 1, timed, end_in);
    ttd_options_init(&o);
    assert_int_equal(ttd_diff_files(path_of("lg.trc"), path_of("lb.trc"), &o, d, NULL), 0);
    const ttd_result *r = ttd_get_result(*d);
    assert_true(r->diverged);
    assert_non_null(r->first);
    *other = NULL;
    for (size_t i = 1; i < r->nhunks && !*other; i++)
        if (r->hunks[i].pair != r->hunks[0].pair && !r->hunks[i].expected &&
            !r->hunks[i].timing)
            *other = &r->hunks[i];
    assert_non_null(*other);
    return r;
}

/* Overlapping bounds, the process ended by main: main's split heads the
 * report though its estimate is later (the symptom's thread), and every
 * report says the clock could not tell; ended by the idle thread: the
 * estimates' order stands, said to be only that. */
static void test_clock_bounds_unknown(void **state)
{
    const ttd_hunk_info *o2;
    ttd_diff *d;
    ttr_options ro;
    (void)state;

    const ttd_result *r = lazy_diff(0, 0, &d, &o2);
    const ttd_hunk_info *h = &r->hunks[0];
    assert_int_equal(r->pairs[h->pair].bad.index, 0);          /* main */
    assert_int_equal(r->pairs[o2->pair].bad.index, 1);         /* the worker */
    assert_true(h->time_ns > o2->time_ns);                     /* its estimate is later */
    assert_int_equal(h->early_ns, 40);
    assert_int_equal(h->late_ns, 310);
    assert_int_equal(o2->early_ns, 55);
    assert_int_equal(o2->late_ns, 55);
    assert_int_equal(h->clock_order, TTD_CLOCK_SYMPTOM);
    assert_int_equal(h->clock_pair, o2->pair);
    ttr_options_init(&ro);
    char *text = tu_report(d, ttr_text, &ro, NULL);
    assert_non_null(strstr(text, "order unknown: which thread parted first is not known "
                                 "from the clock: this split (0.000040 ms to 0.000310 ms) "
                                 "and thread worker's (bad #1, 0.000055 ms to 0.000055 ms) "
                                 "overlap"));
    assert_non_null(strstr(text, "because its thread is where the bad run failed"));
    char *json = tu_report(d, ttr_json, &ro, NULL);
    assert_non_null(strstr(json, "\"clock_order\": \"symptom\""));
    assert_non_null(strstr(json, "\"early_ns\": 40"));
    char *html = tu_report(d, ttr_html, &ro, NULL);
    assert_non_null(strstr(html, "id=\"tt-clock-order\""));
    free(text);
    free(json);
    free(html);
    ttd_free(d);

    r = lazy_diff(0, 2, &d, &o2);
    h = &r->hunks[0];
    assert_int_equal(r->pairs[h->pair].bad.index, 1);          /* the estimate */
    assert_int_equal(h->clock_order, TTD_CLOCK_ESTIMATE);
    assert_int_equal(r->pairs[h->clock_pair].bad.index, 0);
    text = tu_report(d, ttr_text, &ro, NULL);
    assert_non_null(strstr(text, "put first by the estimated times alone"));
    json = tu_report(d, ttr_json, &ro, NULL);
    assert_non_null(strstr(json, "\"clock_order\": \"estimate\""));
    free(text);
    free(json);
    ttd_free(d);
}

/* main's split measured after the worker's: the clock tells, nothing said. */
static void test_clock_bounds_apart(void **state)
{
    const ttd_hunk_info *o2;
    ttd_diff *d;
    ttr_options ro;
    (void)state;

    const ttd_result *r = lazy_diff(1, 0, &d, &o2);
    const ttd_hunk_info *h = &r->hunks[0];
    assert_int_equal(r->pairs[h->pair].bad.index, 1);          /* the worker, by time */
    assert_int_equal(h->early_ns, h->time_ns);
    assert_int_equal(h->late_ns, h->time_ns);
    assert_int_equal(h->clock_order, 0);
    ttr_options_init(&ro);
    char *text = tu_report(d, ttr_text, &ro, NULL);
    assert_null(strstr(text, "order unknown"));
    free(text);
    ttd_free(d);
}

/* A worker that left its loop first (kyotocabinet's TaskQueue workers
 * that read a stop flag set too early). The decoder loops: lock M, take
 * an item (check), unlock, work on it (helper); in the bad run it finds
 * its stop at its first look under M (it unlocks and its thread ends),
 * while the good run's goes around `items` times before it ends too.
 * Main takes M twice before the decoder's look in the bad run, once in
 * the good one (the decoder's split follows the progress), then parts
 * much later in parse (lex against check) holding no lock, and nothing
 * of the decoder's reaches it: by the progress rule main's split would
 * go first; the decoder's leaving stays first. When its work is a
 * sleep (wait), its good-run turns are a wait loop's by their shape
 * (timing.c) and main's split the first divergence; the decoder had
 * ended before it in the bad run, the good run's still ran there: the
 * decoder's hunk is a divergence again, and first. A decoder whose
 * thread did not end by itself in the bad run (end 0: no thread end, it
 * was cut off by the process's end) left nothing: main's goes first, as
 * before. */
static void leave_run(const char *name, int bad, int items, int end, int wait)
{
    dt t;
    remove(path_of(name));
    assert_int_equal(dt_open(&t, path_of(name), 0, names, 2), 0);
    run(&t, 0, "@1010 main{");
    for (int i = 0; i < (bad ? 2 : 1); i++) {
        op(&t, 0, TTF_SOP_LOCK, MUTEX);
        op(&t, 0, TTF_SOP_UNLOCK, MUTEX);
    }
    run(&t, 0, "@1500 log{}");
    run(&t, 0, bad ? "@1600 parse{ check{} }" : "@1600 parse{ lex{} }");
    run(&t, 0, "}");
    run(&t, 1, "@1100 work{ @1200");
    op(&t, 1, TTF_SOP_LOCK, MUTEX);
    for (int i = 0; i < (bad ? 0 : items); i++) {
        run(&t, 1, "check{}");
        op(&t, 1, TTF_SOP_UNLOCK, MUTEX);
        run(&t, 1, "helper{");
        if (wait) {             /* its work is a sleep: its turns wait */
            assert_int_equal(dt_sync(&t, 1, TTF_SOP_SLEEP, 0x6000, 400), 0);
            t.now[1] += 400;
        }
        run(&t, 1, "}");
        op(&t, 1, TTF_SOP_LOCK, MUTEX);
    }
    op(&t, 1, TTF_SOP_UNLOCK, MUTEX);
    run(&t, 1, "}");
    if (end || !bad)
        assert_int_equal(ttf_write_thread_end(t.w, 1, t.now[1] + 10), 0);
    assert_int_equal(ttf_writer_close(t.w, bad), 0);
}

/* The first divergence's bad-run thread for leave_run's runs; *followed:
 * whether one was put before a hunk that came earlier. */
static uint32_t leave_first(int items, int end, int wait, int *followed)
{
    ttd_options o;
    ttd_diff *d;

    leave_run("g.trc", 0, items, 1, wait);
    leave_run("b.trc", 1, items, end, wait);
    ttd_options_init(&o);
    assert_int_equal(ttd_diff_files(path_of("g.trc"), path_of("b.trc"), &o, &d, NULL), 0);
    const ttd_result *r = ttd_get_result(d);
    assert_true(r->diverged);
    assert_non_null(r->first);
    uint32_t th = r->pairs[r->first->pair].bad.index;
    *followed = r->followed != NULL;
    ttd_free(d);
    return th;
}

static void test_left_loop_first(void **state)
{
    int f;
    (void)state;

    assert_int_equal(leave_first(3, 1, 0, &f), 1);  /* the decoder */
    assert_false(f);
    assert_int_equal(leave_first(1, 1, 0, &f), 1);  /* one item more is more */
    assert_false(f);
    assert_int_equal(leave_first(3, 0, 0, &f), 0);  /* not ended by itself */
    assert_true(f);
    /* the good run's turns each sleep: a wait loop's shape (timing.c), but
     * the bad run's decoder had ended before main parted, the good run's
     * was still at work there: a divergence again, and first */
    assert_int_equal(leave_first(3, 1, 1, &f), 1);
    assert_false(f);
    /* cut off, not ended: the wait loop stays timing, main's is first */
    assert_int_equal(leave_first(3, 0, 1, &f), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_independent_first),
        cmocka_unit_test(test_reached_keeps_time),
        cmocka_unit_test(test_no_lock_keeps_time),
        cmocka_unit_test(test_both_follow_keeps_time),
        cmocka_unit_test(test_progress_only),
        cmocka_unit_test(test_cut_thread_not_first),
        cmocka_unit_test(test_clock_bounds_unknown),
        cmocka_unit_test(test_clock_bounds_apart),
        cmocka_unit_test(test_left_loop_first),
    };
    return cmocka_run_group_tests(tests, tu_tmpdir_setup, tu_tmpdir_teardown);
}
