/*
 * test_races.c - races named through happens-before (diff/races.c) on
 * traces written with the format writer (ttf_write_sync_op): the vector
 * clocks order two check-act windows through a lock (unlock, then lock in
 * the other thread), a create, a join and a condition (signal, woken);
 * without those the same windows are unordered, and overlapping ones are
 * named "both between"; a good run that overlapped too is said so; the
 * check nearest the act ranks first. A caught failure (bad_failed) with
 * the same calls is a divergence in the outcome.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "resolve.h"
#include "ttdiff.h"
#include "diff_traces.h"
#include "tmpdir.h"

#define MUTEX 0x5000u
#define MUTEX2 0x5100u
#define COND 0x6000u

static const char *const names[] = {"main", "seller-0", "seller-1"};

/* A sync operation on thread th, 10 ns after its last event. */
static void op(dt *t, uint32_t th, int code, uint64_t obj, int64_t arg)
{
    t->now[th] += 10;
    assert_int_equal(ttf_write_sync_op(t->w, th, t->now[th], code, obj, arg), 0);
}

static void run(dt *t, uint32_t th, const char *s)
{
    assert_int_equal(dt_run(t, th, s), 0);
}

/* "work{ lock unlock }": the act, taking mutex m. */
static void act(dt *t, uint32_t th, uint64_t m)
{
    run(t, th, "work{");
    op(t, th, TTF_SOP_LOCK, m, 0);
    op(t, th, TTF_SOP_UNLOCK, m, 0);
    run(t, th, "}");
}

static char *path_of(const char *name)
{
    static char buf[4][512];
    static int k;
    char *p = buf[k++ % 4];
    snprintf(p, 512, "%s/%s", tu_tmpdir, name);
    return p;
}

static void open_trace(dt *t, const char *name)
{
    remove(path_of(name));
    assert_int_equal(dt_open(t, path_of(name), 0, (const char *const *)names, 3), 0);
}

/* The races of trace name (compared with good traces, may be none). */
static size_t races_of(const char *name, const char *const *good, size_t ngood,
                       const ttd_race **out, struct ttfi_arena *a)
{
    ttf_trace *t[4] = {NULL};
    ttdi_norm nm[4];
    ttdi_race_run g[3];
    ttd_race *v = NULL;
    size_t n = 0;

    memset(nm, 0, sizeof nm);
    assert_true(ngood < 4);
    for (size_t i = 0; i <= ngood; i++) {
        assert_int_equal(ttf_open(path_of(i ? good[i - 1] : name), &t[i], NULL), 0);
        assert_int_equal(ttdi_norm_init(&nm[i], t[i], TTD_MSG_SITE, NULL, NULL, 0), 0);
        if (i)
            g[i - 1] = (ttdi_race_run){t[i], &nm[i], NULL, UINT64_MAX, UINT64_MAX, -1};
    }
    /* the symptom: main's state at the end of the run */
    ttdi_races_in in = {{t[0], &nm[0], NULL, UINT64_MAX, UINT64_MAX, 0}, g, ngood, 0};
    assert_int_equal(ttdi_races_build(a, &in, &v, &n), 0);
    /* names live in the normalisers: copy what the tests read */
    for (size_t i = 0; i < n; i++) {
        v[i].check = ttfi_arena_strcpy(a, v[i].check);
        v[i].act = ttfi_arena_strcpy(a, v[i].act);
        v[i].text = ttfi_arena_strcpy(a, v[i].text);
        for (int k = 0; k < 2; k++) {
            v[i].thread_name[k] = ttfi_arena_strcpy(a, v[i].thread_name[k]);
            for (size_t j = 0; j < v[i].nstacks[k]; j++)
                ((const char **)v[i].stacks[k])[j] = ttfi_arena_strcpy(a, v[i].stacks[k][j]);
        }
    }
    for (size_t i = 0; i <= ngood; i++) {
        ttdi_norm_free(&nm[i]);
        ttf_close(t[i]);
    }
    *out = v;
    return n;
}

/* Two sellers: parse{ check{} work{lock unlock} }, seller-1's check while
 * seller-0 is between its check and its unlock; seller-1 locks after. */
static void overlapping(const char *name)
{
    dt t;
    open_trace(&t, name);
    run(&t, 1, "@1000 parse{ check{}");       /* check 1020..1030 */
    act(&t, 1, MUTEX);                        /* lock 1050, unlock 1060 */
    run(&t, 2, "@1005 parse{ check{} work{"); /* check 1025 */
    run(&t, 2, "@1095");
    op(&t, 2, TTF_SOP_LOCK, MUTEX, 0);
    op(&t, 2, TTF_SOP_UNLOCK, MUTEX, 0);
    run(&t, 2, "} }");
    run(&t, 1, "}");
    assert_int_equal(ttf_writer_close(t.w, 1), 0);
}

static void test_overlap_named(void **state)
{
    struct ttfi_arena a = {0};
    const ttd_race *r;
    (void)state;

    overlapping("over.trc");
    assert_int_equal(races_of("over.trc", NULL, 0, &r, &a), 1);
    assert_int_equal(r->kind, TTD_RACE_CHECK_ACT);
    assert_int_equal(r->run, TTD_BAD);
    assert_true(r->overlapped);
    assert_int_equal(r->count, 1);
    assert_string_equal(r->check, "dt_check");
    assert_string_equal(r->act, "dt_work");
    assert_string_equal(r->lock, "mutex#1");
    assert_int_equal(r->thread[0], 1);
    assert_int_equal(r->thread[1], 2);
    assert_string_equal(r->thread_name[0], "seller-0");
    /* ns since the trace's start (1000) */
    assert_int_equal(r->time_ns, 25);       /* the later check */
    assert_int_equal(r->check_ns[0], 20);
    /* the releases: each thread's next event after its UNLOCK record */
    assert_int_equal(r->release_ns[0], 70);
    assert_int_equal(r->release_ns[1], 125);
    assert_false(r->check_locked);
    assert_true(r->act_locked);
    assert_false(r->good_compared);
    assert_int_equal(r->nstacks[0], 2);
    assert_string_equal(r->stacks[1][0], "dt_parse");
    assert_string_equal(r->stacks[1][1], "dt_work");
    assert_non_null(strstr(r->text, "in the bad run, seller-0 and seller-1 were both between "
                                    "`dt_check` and `dt_work` at 0.0 ms, not ordered by any "
                                    "lock; the check is outside mutex#1, the act inside"));
    ttfi_arena_free(&a);
}

/* The lazy clock (FORMAT.md 4.7): seller-1's lex returns untimed, so its
 * check's ENTER (true 1045) is untimed too, in the run [1025, 1310] that
 * ends at the check's timed EXIT; the reader places it by estimate, past
 * seller-0's unlock (1060), but it may have come as early as 1025: the
 * window overlap takes that bound, never the estimate. timed: the same
 * calls all measured, the check entered at 1210: apart. */
static void lazy_pair(const char *name, int timed)
{
    ttf_writer_opts o = {.chunk_size = 1 << 16, .timed = 1, .sparse = 1, .lazy = 1};
    dt t;
    remove(path_of(name));
    assert_int_equal(dt_open_opts(&t, path_of(name), 0, (const char *const *)names, 3, &o), 0);
    run(&t, 1, "@1000 parse{ check{}");       /* check 1020..1030 */
    act(&t, 1, MUTEX);                        /* lock 1050, unlock 1060 */
    run(&t, 2, timed ? "@1005 parse{ lex{} @1200 check{ @1300 }" /* check 1210 */
                     : "@1005 parse{ lex{~} check{ @1300 }");  /* check ~, 1025.. */
    run(&t, 2, "work{ @1395");
    op(&t, 2, TTF_SOP_LOCK, MUTEX, 0);
    op(&t, 2, TTF_SOP_UNLOCK, MUTEX, 0);
    run(&t, 2, "} }");
    run(&t, 1, "}");
    assert_int_equal(ttf_writer_close(t.w, 1), 0);
}

/* seller-1's ENTER of check: its placed time and earliest bound. */
static void check_enter(const char *name, ttf_event *out)
{
    ttf_trace *tr;
    ttf_iter *it;
    ttf_event ev;
    int n = 0;

    assert_int_equal(ttf_open(path_of(name), &tr, NULL), 0);
    assert_int_equal(ttf_iter_open(tr, 2, &it), 0);
    while (ttf_iter_next(it, &ev) > 0)
        if (ev.kind == TTF_EV_ENTER && ++n == 3)
            *out = ev;      /* parse, lex, check */
    ttf_iter_close(it);
    ttf_close(tr);
}

static void test_lazy_bounds_overlap(void **state)
{
    struct ttfi_arena a = {0};
    const ttd_race *r;
    ttf_event ev = {0};
    (void)state;

    lazy_pair("lazy.trc", 0);
    check_enter("lazy.trc", &ev);
    assert_true(ev.untimed);
    assert_true(ev.time_ns > 60);           /* placed after seller-0's unlock */
    assert_int_equal(ttf_event_early_ns(&ev), 25);  /* but it may be before */
    assert_int_equal(races_of("lazy.trc", NULL, 0, &r, &a), 1);
    assert_true(r->overlapped);
    assert_int_equal(r->check_ns[1], 25);   /* the earliest it began */
    assert_int_equal(r->release_ns[0], 70);
    assert_non_null(strstr(r->text, "were both between"));
    ttfi_arena_free(&a);

    lazy_pair("lazytimed.trc", 1);          /* measured: apart, only unordered */
    check_enter("lazytimed.trc", &ev);
    assert_false(ev.untimed);
    assert_int_equal(ev.time_ns, 210);
    assert_int_equal(races_of("lazytimed.trc", NULL, 0, &r, &a), 1);
    assert_false(r->overlapped);
    assert_int_equal(r->check_ns[1], 210);
    assert_null(strstr(r->text, "were both between"));
    ttfi_arena_free(&a);
}

/* seller-0's act writes its UNLOCK record at 1060 and returns at 1090:
 * the real unlock, and with it the act's stores as the other threads see
 * them, came in between. seller-1's check enters at check_at, locks at
 * 1210. */
static void late_release(const char *name, uint64_t check_at)
{
    dt t;
    char at[32];

    open_trace(&t, name);
    run(&t, 1, "@1000 parse{ check{} work{");  /* check 1020..1030 */
    op(&t, 1, TTF_SOP_LOCK, MUTEX, 0);         /* 1050 */
    op(&t, 1, TTF_SOP_UNLOCK, MUTEX, 0);       /* 1060 */
    run(&t, 1, "@1080 } }");                  /* work returns at 1090 */
    snprintf(at, sizeof at, "@%llu parse{", (unsigned long long)(check_at - 20));
    run(&t, 2, at);
    run(&t, 2, "check{} work{ @1200");
    op(&t, 2, TTF_SOP_LOCK, MUTEX, 0);         /* 1210 */
    op(&t, 2, TTF_SOP_UNLOCK, MUTEX, 0);       /* 1220 */
    run(&t, 2, "} }");
    assert_int_equal(ttf_writer_close(t.w, 1), 0);
}

/* seller-0's act ends in a condition wait (its release at the WAIT
 * record, 1060), woken at 1510; seller-1 checks at 1075, between the two:
 * the wake-up bounds nothing, the windows are apart. */
static void wait_release(const char *name)
{
    dt t;

    open_trace(&t, name);
    run(&t, 1, "@1000 parse{ check{} work{");  /* check 1020..1030 */
    op(&t, 1, TTF_SOP_LOCK, MUTEX, 0);         /* 1050 */
    op(&t, 1, TTF_SOP_WAIT, COND, MUTEX);      /* 1060 */
    run(&t, 1, "@1500");
    op(&t, 1, TTF_SOP_WOKE, COND, 0);          /* 1510 */
    op(&t, 1, TTF_SOP_UNLOCK, MUTEX, 0);
    run(&t, 1, "} }");
    run(&t, 2, "@1055 parse{ check{} work{ @1600"); /* check 1075 */
    op(&t, 2, TTF_SOP_LOCK, MUTEX, 0);
    op(&t, 2, TTF_SOP_UNLOCK, MUTEX, 0);
    run(&t, 2, "} }");
    assert_int_equal(ttf_writer_close(t.w, 1), 0);
}

/* A check that entered after the other thread's UNLOCK record but before
 * that thread's next event may have read the state before the act: both
 * between. One that entered after the next event: apart, only unordered
 * (ttrec_race's natural failure under load, as CHANGELOG 1.26.2 tells).
 * A condition wait's release keeps its record's time. */
static void test_release_takes_effect_late(void **state)
{
    struct ttfi_arena a = {0};
    const ttd_race *r;
    (void)state;

    late_release("late.trc", 1075);
    assert_int_equal(races_of("late.trc", NULL, 0, &r, &a), 1);
    assert_true(r->overlapped);
    assert_int_equal(r->time_ns, 75);
    assert_int_equal(r->release_ns[0], 90);
    assert_int_equal(r->end_ns, 90);
    assert_non_null(strstr(r->text, "were both between `dt_check` and `dt_work`"));
    ttfi_arena_free(&a);

    late_release("later.trc", 1095);
    assert_int_equal(races_of("later.trc", NULL, 0, &r, &a), 1);
    assert_false(r->overlapped);
    assert_int_equal(r->check_ns[1], 95);
    assert_null(strstr(r->text, "were both between"));
    ttfi_arena_free(&a);

    wait_release("waitrel.trc");
    assert_int_equal(races_of("waitrel.trc", NULL, 0, &r, &a), 1);
    assert_false(r->overlapped);
    assert_int_equal(r->release_ns[0], 60);
    ttfi_arena_free(&a);
}

/* seller-1 checks after seller-0's act; ordered iff, before its check, it
 * acquired what seller-0 released (lock: mutex; cond: woken by a signal). */
static void after(const char *name, int how)
{
    dt t;
    open_trace(&t, name);
    run(&t, 1, "@1000 parse{ check{}");
    act(&t, 1, MUTEX);                        /* unlock at 1060 */
    if (how == 2) {
        run(&t, 1, "helper{");
        op(&t, 1, TTF_SOP_SIGNAL, COND, 0);   /* 1090 */
        run(&t, 1, "}");
    }
    run(&t, 1, "}");
    run(&t, 2, "@1200 parse{ lex{");
    if (how == 1) {                           /* the same mutex: ordered */
        op(&t, 2, TTF_SOP_LOCK, MUTEX, 0);
        op(&t, 2, TTF_SOP_UNLOCK, MUTEX, 0);
    } else if (how == 2) {                    /* woken after the signal */
        op(&t, 2, TTF_SOP_LOCK, MUTEX2, 0);
        op(&t, 2, TTF_SOP_WAIT, COND, MUTEX2);
        op(&t, 2, TTF_SOP_WOKE, COND, 0);
        op(&t, 2, TTF_SOP_UNLOCK, MUTEX2, 0);
    } else {                                  /* another mutex: unordered */
        op(&t, 2, TTF_SOP_LOCK, MUTEX2, 0);
        op(&t, 2, TTF_SOP_UNLOCK, MUTEX2, 0);
    }
    run(&t, 2, "} check{}");
    act(&t, 2, MUTEX);
    run(&t, 2, "}");
    assert_int_equal(ttf_writer_close(t.w, 1), 0);
}

static void test_lock_orders(void **state)
{
    struct ttfi_arena a = {0};
    const ttd_race *r;
    (void)state;

    after("lock.trc", 1);
    assert_int_equal(races_of("lock.trc", NULL, 0, &r, &a), 0);
    after("nolock.trc", 0);
    assert_int_equal(races_of("nolock.trc", NULL, 0, &r, &a), 1);
    assert_false(r->overlapped);            /* could have: nothing ordered them */
    assert_non_null(strstr(r->text, "nothing ordered seller-0's `dt_check` ... `dt_work` "
                                    "and seller-1's"));
    ttfi_arena_free(&a);
}

static void test_cond_orders(void **state)
{
    struct ttfi_arena a = {0};
    const ttd_race *r;
    (void)state;

    after("cond.trc", 2);
    assert_int_equal(races_of("cond.trc", NULL, 0, &r, &a), 0);
    ttfi_arena_free(&a);
}

/* main's window, then it creates seller-0 (the create orders them) or
 * seller-0 just starts later. */
static void create_join(const char *name, int edges)
{
    dt t;
    open_trace(&t, name);
    run(&t, 0, "@1000 parse{ check{}");
    act(&t, 0, MUTEX);                        /* unlock 1060 */
    if (edges)
        op(&t, 0, TTF_SOP_CREATE, 0xa1, 1);   /* 1080 */
    run(&t, 1, "@1100 parse{ check{}");
    act(&t, 1, MUTEX);
    run(&t, 1, "}");
    run(&t, 0, "}");
    assert_int_equal(ttf_writer_close(t.w, 0), 0);
}

static void test_create_orders(void **state)
{
    struct ttfi_arena a = {0};
    const ttd_race *r;
    (void)state;

    create_join("create.trc", 1);
    assert_int_equal(races_of("create.trc", NULL, 0, &r, &a), 0);
    create_join("nocreate.trc", 0);
    assert_int_equal(races_of("nocreate.trc", NULL, 0, &r, &a), 1);
    assert_int_equal(r->thread[0], 0);
    assert_int_equal(r->thread[1], 1);
    ttfi_arena_free(&a);
}

/* seller-0 works first; main joins it, then makes its own window. */
static void joined(const char *name, int join)
{
    dt t;
    open_trace(&t, name);
    run(&t, 1, "@1000 parse{ check{}");
    act(&t, 1, MUTEX);
    run(&t, 1, "}");
    op(&t, 0, TTF_SOP_CREATE, 0xa1, 1);       /* at 1010: before seller-0's work */
    run(&t, 0, "@1200");
    if (join)
        op(&t, 0, TTF_SOP_JOIN, 0xa1, 0);
    run(&t, 0, "parse{ check{}");
    act(&t, 0, MUTEX2);
    run(&t, 0, "}");
    assert_int_equal(ttf_writer_close(t.w, 0), 0);
}

static void test_join_orders(void **state)
{
    struct ttfi_arena a = {0};
    const ttd_race *r;
    (void)state;

    joined("join.trc", 1);
    assert_int_equal(races_of("join.trc", NULL, 0, &r, &a), 0);
    joined("nojoin.trc", 0);
    assert_int_equal(races_of("nojoin.trc", NULL, 0, &r, &a), 1);
    assert_false(r->overlapped);
    ttfi_arena_free(&a);
}

/* A good run with the same windows one after the other, ordered (the
 * second seller locked before checking): the race never happened there.
 * A good run that overlapped too: seen_in_good, ranked lower. */
static void test_good_runs(void **state)
{
    struct ttfi_arena a = {0};
    const ttd_race *r;
    const char *good[2] = {"g-ordered.trc", "g-over.trc"};
    (void)state;

    overlapping("bad.trc");
    after(good[0], 1);
    overlapping(good[1]);
    assert_int_equal(races_of("bad.trc", good, 1, &r, &a), 1);
    assert_true(r->good_compared);
    assert_false(r->seen_in_good);
    assert_non_null(strstr(r->text, "; never in the good runs"));
    double alone = r->score;
    assert_int_equal(races_of("bad.trc", good, 2, &r, &a), 1);
    assert_true(r->seen_in_good);
    assert_int_equal(r->good_count, 1);
    assert_true(r->score < alone);
    assert_non_null(strstr(r->text, "the good runs had that too (1 time, 1 in the bad run)"));
    ttfi_arena_free(&a);
}

/* parse{ helper{} check{} work{...} } in both sellers: (check, work) and
 * (helper, work) both overlap; the check nearest the act ranks first. */
static void test_nearest_check_first(void **state)
{
    struct ttfi_arena a = {0};
    const ttd_race *r;
    dt t;
    (void)state;

    open_trace(&t, "near.trc");
    run(&t, 1, "@1000 parse{ helper{} check{}");
    act(&t, 1, MUTEX);                        /* unlock 1080 */
    run(&t, 2, "@1003 parse{ helper{} check{} work{ @1100");
    op(&t, 2, TTF_SOP_LOCK, MUTEX, 0);
    op(&t, 2, TTF_SOP_UNLOCK, MUTEX, 0);
    run(&t, 2, "} }");
    run(&t, 1, "}");
    assert_int_equal(ttf_writer_close(t.w, 1), 0);
    assert_int_equal(races_of("near.trc", NULL, 0, &r, &a), 2);
    assert_string_equal(r[0].check, "dt_check");
    assert_string_equal(r[1].check, "dt_helper");
    assert_true(r[0].score > r[1].score);
    ttfi_arena_free(&a);
}

/* A lock held during the check: no window (the check is not lock-free). */
static void test_locked_check_no_race(void **state)
{
    struct ttfi_arena a = {0};
    const ttd_race *r;
    dt t;
    (void)state;

    open_trace(&t, "held.trc");
    for (uint32_t th = 1; th <= 2; th++) {
        run(&t, th, th == 1 ? "@1000 parse{" : "@1200 parse{");
        op(&t, th, TTF_SOP_LOCK, MUTEX, 0);
        run(&t, th, "check{} work{}");
        op(&t, th, TTF_SOP_UNLOCK, MUTEX, 0);
        run(&t, th, "}");
    }
    assert_int_equal(ttf_writer_close(t.w, 0), 0);
    assert_int_equal(races_of("held.trc", NULL, 0, &r, &a), 0);
    ttfi_arena_free(&a);
}

/* A function whose calls take a lock, called by two threads at once
 * without it (the unprotected call, learnt from the run itself): named;
 * called the same way one after the other with the lock passed between
 * them: not. The threads are walked apart, so the later call in time may
 * be seen first. */
static void unprotected(const char *name, int overlap)
{
    dt t;
    open_trace(&t, name);
    run(&t, 1, "@1000 parse{ lex{");          /* a locking call of lex */
    op(&t, 1, TTF_SOP_LOCK, MUTEX, 0);
    op(&t, 1, TTF_SOP_UNLOCK, MUTEX, 0);      /* 1040 */
    run(&t, 1, "} lex{ @2000 }");             /* lex without it: 1060..2010 */
    if (!overlap) {                           /* then a release */
        run(&t, 1, "work{");
        op(&t, 1, TTF_SOP_LOCK, MUTEX, 0);
        op(&t, 1, TTF_SOP_UNLOCK, MUTEX, 0);
        run(&t, 1, "}");
    }
    run(&t, 1, "}");
    run(&t, 2, overlap ? "@1100" : "@2100");
    /* the mutex orders the calls; another one does not (the walk reaches
     * seller-1's calls after this, when seller-0's locking lex is known) */
    op(&t, 2, TTF_SOP_LOCK, overlap ? MUTEX2 : MUTEX, 0);
    op(&t, 2, TTF_SOP_UNLOCK, overlap ? MUTEX2 : MUTEX, 0);
    run(&t, 2, "parse{ lex{ } }");            /* lex without it, inside 1060..2010 */
    assert_int_equal(ttf_writer_close(t.w, 1), 0);
}

static void test_unprotected_call(void **state)
{
    struct ttfi_arena a = {0};
    const ttd_race *r;
    (void)state;

    unprotected("unprot.trc", 1);
    assert_int_equal(races_of("unprot.trc", NULL, 0, &r, &a), 1);
    assert_int_equal(r->kind, TTD_RACE_UNPROTECTED);
    assert_true(r->overlapped);
    assert_string_equal(r->check, "dt_lex");
    assert_string_equal(r->lock, "mutex#1");
    assert_false(r->check_locked);
    assert_false(r->act_locked);
    assert_int_equal(r->locked_calls, 1);
    assert_int_equal(r->check_ns[1], 140);  /* the later entry */
    assert_non_null(strstr(r->text, "seller-0 and seller-1 were both inside `dt_lex` at "
                                    "0.0 ms, not ordered by any lock; neither call took "
                                    "mutex#1, which 1 other call of it took"));
    assert_string_equal(r->stacks[0][1], "dt_lex");
    unprotected("unprot-later.trc", 0);
    assert_int_equal(races_of("unprot-later.trc", NULL, 0, &r, &a), 0);
    ttfi_arena_free(&a);
}

/* The sellers race (overlapping's windows, each seller's acts under
 * MUTEX); main, the symptom's thread, created them and then either joins
 * both (it reads what they wrote), takes MUTEX after their acts (the
 * same), or takes another mutex only (nothing orders their acts before
 * its end: the race does not reach it). */
static void symptom_after(const char *name, int how, const char *const *tnames)
{
    dt t;
    remove(path_of(name));
    assert_int_equal(dt_open(&t, path_of(name), 0, tnames, 3), 0);
    op(&t, 0, TTF_SOP_CREATE, 0xa1, 1);
    op(&t, 0, TTF_SOP_CREATE, 0xa2, 2);
    run(&t, 1, "@1000 parse{ check{}");
    act(&t, 1, MUTEX);
    run(&t, 2, "@1005 parse{ check{} work{");
    run(&t, 2, "@1095");
    op(&t, 2, TTF_SOP_LOCK, MUTEX, 0);
    op(&t, 2, TTF_SOP_UNLOCK, MUTEX, 0);
    run(&t, 2, "} }");
    run(&t, 1, "}");
    run(&t, 0, "@1300 main{");
    if (how == 1) {
        op(&t, 0, TTF_SOP_JOIN, 0xa1, 0);
        op(&t, 0, TTF_SOP_JOIN, 0xa2, 0);
    } else {
        op(&t, 0, TTF_SOP_LOCK, how == 2 ? MUTEX : MUTEX2, 0);
        op(&t, 0, TTF_SOP_UNLOCK, how == 2 ? MUTEX : MUTEX2, 0);
    }
    run(&t, 0, "lex{} }");
    assert_int_equal(ttf_writer_close(t.w, 1), 0);
}

static void test_reaches_symptom(void **state)
{
    struct ttfi_arena a = {0};
    const ttd_race *r;
    (void)state;

    symptom_after("reach-join.trc", 1, names);
    assert_int_equal(races_of("reach-join.trc", NULL, 0, &r, &a), 1);
    assert_true(r->overlapped);
    assert_true(r->reaches_symptom);
    symptom_after("reach-lock.trc", 2, names);
    assert_int_equal(races_of("reach-lock.trc", NULL, 0, &r, &a), 1);
    assert_true(r->reaches_symptom);
    symptom_after("reach-none.trc", 0, names);
    assert_int_equal(races_of("reach-none.trc", NULL, 0, &r, &a), 1);
    assert_true(r->overlapped);
    assert_false(r->reaches_symptom);
    ttfi_arena_free(&a);
}

/* Two threads of one name are told apart by their indexes. */
static void test_same_names_apart(void **state)
{
    static const char *const same[] = {"main", "counter", "counter"};
    struct ttfi_arena a = {0};
    const ttd_race *r;
    (void)state;

    symptom_after("same-names.trc", 1, same);
    assert_int_equal(races_of("same-names.trc", NULL, 0, &r, &a), 1);
    assert_string_equal(r->thread_name[0], "#1 counter");
    assert_string_equal(r->thread_name[1], "#2 counter");
    assert_non_null(strstr(r->text, "#1 counter and #2 counter were both between"));
    ttfi_arena_free(&a);
}

/* The race as the verdict's cause: a good run where seller-1 checks after
 * seller-0's act (the same calls, one after the other), a bad run where both were between
 * check and act at once; main then reads what they wrote (it joins them,
 * how 1) and its calls part (check in the good run, fail in the bad one),
 * and the bad run exits 1. The race heads the verdict; when nothing
 * orders the sellers' acts before main's split (how 0), it does not. */
static void racing_run(const char *name, int bad, int how)
{
    dt t;
    remove(path_of(name));
    assert_int_equal(dt_open(&t, path_of(name), 0, (const char *const *)names, 3), 0);
    op(&t, 0, TTF_SOP_CREATE, 0xa1, 1);
    op(&t, 0, TTF_SOP_CREATE, 0xa2, 2);
    run(&t, 1, "@1000 parse{ check{}");
    act(&t, 1, MUTEX);                        /* unlock at 1060 */
    run(&t, 1, "}");
    run(&t, 2, bad ? "@1005 parse{ check{} work{" : "@1100 parse{ check{} work{");
    run(&t, 2, bad ? "@1095" : "@1150");
    op(&t, 2, TTF_SOP_LOCK, MUTEX, 0);
    op(&t, 2, TTF_SOP_UNLOCK, MUTEX, 0);
    run(&t, 2, "} }");
    run(&t, 0, "@1300 main{");
    if (how) {
        op(&t, 0, TTF_SOP_JOIN, 0xa1, 0);
        op(&t, 0, TTF_SOP_JOIN, 0xa2, 0);
    }
    run(&t, 0, bad ? "lex{ fail{} } }" : "lex{ check{} } }");
    assert_int_equal(ttf_writer_close(t.w, bad), 0);
}

static void test_verdict_names_race(void **state)
{
    ttd_diff *d = NULL;
    (void)state;

    racing_run("vg.trc", 0, 1);
    racing_run("vb.trc", 1, 1);
    assert_int_equal(ttd_diff_files(path_of("vg.trc"), path_of("vb.trc"), NULL, &d, NULL), 0);
    const ttd_result *res = ttd_get_result(d);
    assert_non_null(res->first);
    assert_true(res->nraces >= 1);
    assert_true(res->races[0].reaches_symptom);
    const ttd_verdict *v = res->verdict;
    assert_int_equal(v->status, TTD_VERDICT_DIVERGED);
    assert_int_equal(v->exit, 1);
    assert_non_null(v->cause);
    assert_int_equal(v->cause->kind, TTD_COF_RACE);
    assert_string_equal(v->cause->function, "dt_check");
    assert_string_equal(v->symptom->function, "dt_lex");
    assert_int_equal(v->confidence, TTD_CONF_POSSIBLE);   /* a check-then-act window */
    ttd_free(d);
    /* nothing orders the sellers' acts before main's split */
    racing_run("vg0.trc", 0, 0);
    racing_run("vb0.trc", 1, 0);
    assert_int_equal(ttd_diff_files(path_of("vg0.trc"), path_of("vb0.trc"), NULL, &d, NULL), 0);
    res = ttd_get_result(d);
    assert_true(res->nraces >= 1);
    assert_false(res->races[0].reaches_symptom);
    assert_non_null(res->verdict->cause);
    assert_int_not_equal(res->verdict->cause->kind, TTD_COF_RACE);
    ttd_free(d);
}

/* Busy work between the check and the act: a call that returns nothing
 * (its debug info says void), so no branch used its result. */
__attribute__((noinline, used)) static void rt_busy(void)
{
    __asm__ volatile("");
}

static void busy(dt *t, uint32_t th)
{
    uint64_t a = (uint64_t)(uintptr_t)rt_busy + t->shift;
    t->now[th] += 10;
    assert_int_equal(ttf_write_enter(t->w, th, t->now[th], a), 0);
    t->now[th] += 10;
    assert_int_equal(ttf_write_exit(t->w, th, t->now[th], a), 0);
}

/* Both sellers: parse{ check{} busy{} work{lock unlock} }, overlapping.
 * The windows (check, work) and (busy, work) both race; busy is nearer
 * the act, but the check is the call whose result the branch used. */
static void test_void_check_last(void **state)
{
    struct ttfi_arena a = {0};
    const ttd_race *r;
    dt t;
    (void)state;

    open_trace(&t, "busy.trc");
    run(&t, 1, "@1000 parse{ check{}");
    busy(&t, 1);
    act(&t, 1, MUTEX);
    run(&t, 2, "@1005 parse{ check{}");
    busy(&t, 2);
    run(&t, 2, "work{ @1200");
    op(&t, 2, TTF_SOP_LOCK, MUTEX, 0);
    op(&t, 2, TTF_SOP_UNLOCK, MUTEX, 0);
    run(&t, 2, "} }");
    run(&t, 1, "}");
    assert_int_equal(ttf_writer_close(t.w, 1), 0);
    size_t n = races_of("busy.trc", NULL, 0, &r, &a);
    assert_int_equal(n, 2);
    assert_string_equal(r[0].check, "dt_check");
    assert_string_equal(r[1].check, "rt_busy");
    assert_true(r[0].overlapped && r[1].overlapped);
    ttfi_arena_free(&a);
}

/* Both sellers: parse{ check{} helper{} work{lock unlock} check{} },
 * overlapping; helper (busy work that returns a value too) is nearer the
 * act. With values, each check returns 1 before the act and last at the
 * end of parse, helper 901 or 902. */
static void busy_values(const char *name, int values, int last)
{
    ttf_writer_opts o = {.values = 1};
    char s1[96], s2[96], end[32];
    const char *v = values ? "=1" : "";
    dt t;

    remove(path_of(name));
    assert_int_equal(dt_open_opts(&t, path_of(name), 0, (const char *const *)names, 3,
                                  values ? &o : NULL), 0);
    snprintf(s1, sizeof s1, "@1000 parse{ check{}%s helper{}%s", v, values ? "=901" : "");
    snprintf(s2, sizeof s2, "@1005 parse{ check{}%s helper{}%s work{ @1200", v,
             values ? "=902" : "");
    snprintf(end, sizeof end, "check{}%s%d }", values ? "=" : "", values ? last : 0);
    if (!values)
        snprintf(end, sizeof end, "check{} }");
    run(&t, 1, s1);
    act(&t, 1, MUTEX);
    run(&t, 2, s2);
    op(&t, 2, TTF_SOP_LOCK, MUTEX, 0);
    op(&t, 2, TTF_SOP_UNLOCK, MUTEX, 0);
    run(&t, 2, "}");
    run(&t, 2, end);
    run(&t, 1, end);
    assert_int_equal(ttf_writer_close(t.w, 1), 0);
}

/* Values mode: the check whose value decided whether the act followed
 * (1 before it, 0 when parse went on without it) ranks above busy work
 * nearer the act (decides.c), and says why. Must not: the check returned
 * 1 both ways (its value decided nothing seen), or no values: the nearest
 * first, as before. */
static void test_deciding_check_first(void **state)
{
    struct ttfi_arena a = {0};
    const ttd_race *r;
    (void)state;

    busy_values("dec.trc", 1, 0);
    assert_int_equal(races_of("dec.trc", NULL, 0, &r, &a), 2);
    assert_string_equal(r[0].check, "dt_check");
    assert_string_equal(r[1].check, "dt_helper");
    assert_true(r[0].overlapped && r[1].overlapped);
    assert_non_null(r[0].decided);
    assert_non_null(strstr(r[0].decided, "returned a positive value each time `dt_work` "
                                          "followed and zero each time it did not"));
    assert_null(r[1].decided);
    busy_values("nodec.trc", 1, 1);
    assert_int_equal(races_of("nodec.trc", NULL, 0, &r, &a), 2);
    assert_string_equal(r[0].check, "dt_helper");
    assert_null(r[0].decided);
    assert_null(r[1].decided);
    busy_values("plain.trc", 0, 0);
    assert_int_equal(races_of("plain.trc", NULL, 0, &r, &a), 2);
    assert_string_equal(r[0].check, "dt_helper");
    ttfi_arena_free(&a);
}

/* Plain mode (no values): both sellers run parse{ CHECK{} BUSY{}
 * work{lock unlock} } overlapping. The check is the last call before the
 * act whose machine code reads shared memory (format/reads.c): dt_peek
 * reads a global, dt_helper only returns a constant, so peek ranks first
 * though helper is nearer, and says why. Must not: both read shared
 * memory (tally nearer: it stays first, no sentence); neither does
 * (check and helper: the nearest first, as before). */
static void busy_plain(const char *name, const char *check, const char *busy)
{
    char s1[96], s2[96];
    dt t;

    remove(path_of(name));
    assert_int_equal(dt_open(&t, path_of(name), 0, (const char *const *)names, 3), 0);
    snprintf(s1, sizeof s1, "@1000 parse{ %s{} %s{}", check, busy);
    snprintf(s2, sizeof s2, "@1005 parse{ %s{} %s{} work{ @1200", check, busy);
    run(&t, 1, s1);
    act(&t, 1, MUTEX);
    run(&t, 2, s2);
    op(&t, 2, TTF_SOP_LOCK, MUTEX, 0);
    op(&t, 2, TTF_SOP_UNLOCK, MUTEX, 0);
    run(&t, 2, "} }");
    run(&t, 1, "}");
    assert_int_equal(ttf_writer_close(t.w, 1), 0);
}

static void test_reading_check_first(void **state)
{
    struct ttfi_arena a = {0};
    const ttd_race *r;
    (void)state;

    busy_plain("rd.trc", "peek", "helper");
    assert_int_equal(races_of("rd.trc", NULL, 0, &r, &a), 2);
    assert_string_equal(r[0].check, "dt_peek");
    assert_string_equal(r[1].check, "dt_helper");
    assert_true(r[0].overlapped && r[1].overlapped);
    assert_non_null(r[0].decided);
    assert_non_null(strstr(r[0].decided, "`dt_peek` reads memory other threads can write and "
                                         "`dt_helper`, also between it and `dt_work`, only its "
                                         "own stack"));
    assert_null(r[1].decided);
    busy_plain("rd2.trc", "peek", "tally");
    assert_int_equal(races_of("rd2.trc", NULL, 0, &r, &a), 2);
    assert_string_equal(r[0].check, "dt_tally");
    assert_null(r[0].decided);
    assert_null(r[1].decided);
    busy_plain("rd3.trc", "check", "helper");
    assert_int_equal(races_of("rd3.trc", NULL, 0, &r, &a), 2);
    assert_string_equal(r[0].check, "dt_helper");
    assert_null(r[0].decided);
    ttfi_arena_free(&a);
}

/* decides.c alone: a value read at its declared width (an int's -1 is
 * 0x00000000ffffffff in rax), signed or not; one side unseen: unknown. */
static void test_decides_widths(void **state)
{
    struct ttdi_dec *d = NULL;
    unsigned cls[2];
    (void)state;

    assert_int_equal(ttdi_dec_open(&d), 0);
    ttdi_dec_note(d, 1, 2, 3, 0xffffffffu);         /* -1 before act 3 */
    ttdi_dec_note(d, 1, 2, TTDI_DEC_NONE, 5);        /* 5 before none */
    assert_int_equal(ttdi_dec_decides(d, 1, 2, 3, 4, 1, cls), 1);
    assert_string_equal(ttdi_dec_class_text(cls[0]), "a negative value");
    assert_string_equal(ttdi_dec_class_text(cls[1]), "a positive value");
    assert_int_equal(ttdi_dec_decides(d, 1, 2, 3, 8, 1, cls), 0);
    assert_int_equal(ttdi_dec_decides(d, 1, 2, 3, 4, 0, cls), 0);
    ttdi_dec_note(d, 1, 4, 3, 0);                    /* check 4: one side only */
    assert_int_equal(ttdi_dec_decides(d, 1, 4, 3, 4, 1, cls), -1);
    ttdi_dec_note(d, 1, 4, 7, 1);                    /* another act follows 1 */
    assert_int_equal(ttdi_dec_decides(d, 1, 4, 3, 4, 1, cls), 1);
    assert_int_equal(ttdi_dec_decides(d, 9, 2, 3, 4, 1, cls), -1); /* another caller */
    ttdi_dec_free(d);
}

/* An order violation: main (thread 0) starts seller-0 as a loader that
 * publishes under MUTEX (parse{ work{lock unlock} }); main reads under
 * MUTEX in lex and calls check (good: the loader was first) or fail (bad:
 * main was first). how 1: main then takes MUTEX2 alone before its calls
 * part (it decided on what it read there, not under MUTEX); how 2: the
 * loader publishes in seller-0 and seller-1 (they swap), main reads
 * under MUTEX2 alone; how 3: main looks under MUTEX twice, the loader
 * publishing between the looks in the bad run (the swap is at the first
 * look, and main's last look came after the loader's in both runs); how
 * 6: both take MUTEX through a lock wrapper (`mutex_lock`); how 7: as 2,
 * the second loader named `clerk` and publishing from other calls (the
 * two are no pool of look-alike workers); how 8: as 0, every thread named
 * `app`. */
static void order_run(const char *name, int bad, int how)
{
    static const char *const apart[] = {"main", "seller-0", "clerk"};
    static const char *const alike[] = {"app", "app", "app"};
    const char *load = "parse{ work{";
    ttf_writer_opts o = {.values = 1};
    dt t;

    remove(path_of(name));
    assert_int_equal(dt_open_opts(&t, path_of(name), 0, how == 7 ? apart : how == 8 ? alike : names, 3,
                                  how >= 4 ? &o : NULL), 0);
    op(&t, 0, TTF_SOP_CREATE, 0xa1, 1);
    op(&t, 0, TTF_SOP_CREATE, 0xa2, 2);
    int two = how == 2 || how == 7;     /* two loaders that swap */
    for (int k = 0; k < 2; k++) {   /* the loader: first in the good run */
        uint32_t th = two ? (uint32_t)(bad ? 2 - k : 1 + k) : 1;
        if (!two && k)
            break;
        t.now[th] = bad && !two ? (how == 3 ? 1150 : 1200)
                                : 1000 + (how == 7 ? 60 : 20) * (uint64_t)k;
        run(&t, th, how == 7 && th == 2 ? "helper{ tally{} log{ work{" : load);
        run(&t, th, how == 6 ? "mutex_lock{" : "");
        op(&t, th, TTF_SOP_LOCK, MUTEX, 0);
        run(&t, th, how == 6 ? "}" : "");
        op(&t, th, TTF_SOP_UNLOCK, MUTEX, 0);
        run(&t, th, how == 7 && th == 2 ? "} } }" : "} }");
    }
    run(&t, 0, how == 6 ? "@1100 main{ lex{ mutex_lock{" : "@1100 main{ lex{");
    op(&t, 0, TTF_SOP_LOCK, two ? MUTEX2 : MUTEX, 0);
    run(&t, 0, how == 6 ? "}" : "");
    if (how == 4)       /* a getter under the lock: what the loader left */
        run(&t, 0, bad ? "peek{}=0" : "peek{}=1");
    op(&t, 0, TTF_SOP_UNLOCK, two ? MUTEX2 : MUTEX, 0);
    if (how == 5)       /* the getter after the unlock */
        run(&t, 0, bad ? "peek{}=0" : "peek{}=1");
    if (how == 1) {
        op(&t, 0, TTF_SOP_LOCK, MUTEX2, 0);
        op(&t, 0, TTF_SOP_UNLOCK, MUTEX2, 0);
    }
    if (how == 3) {
        run(&t, 0, "@1300");
        op(&t, 0, TTF_SOP_LOCK, MUTEX, 0);
        op(&t, 0, TTF_SOP_UNLOCK, MUTEX, 0);
    }
    run(&t, 0, bad ? "fail{} } }" : "check{} } }");
    assert_int_equal(ttf_writer_close(t.w, bad), 0);
}

/* The verdict of order_run(how) good against bad. */
static const ttd_verdict *order_verdict(int how, ttd_diff **d)
{
    char g[32], b[32];
    snprintf(g, sizeof g, "og%d.trc", how);
    snprintf(b, sizeof b, "ob%d.trc", how);
    order_run(g, 0, how);
    order_run(b, 1, how);
    *d = NULL;
    assert_int_equal(ttd_diff_files(path_of(g), path_of(b), NULL, d, NULL), 0);
    const ttd_result *res = ttd_get_result(*d);
    assert_non_null(res->first);
    assert_non_null(res->verdict->cause);
    /* the order differs in every case but 2: alone, it is no cause; in
     * case 2 the two loaders are look-alike workers (a pool), and which of
     * them took the lock first is no difference */
    assert_non_null(res->first->interleave);
    assert_int_equal(res->first->interleave->order_differs, how != 2);
    if (how != 2)
        assert_string_equal(res->first->interleave->order_object, "mutex#1");
    return res->verdict;
}

/* The threads' order as the cause: main went ahead of the loader on the
 * lock it then decided on, and the loader made the same calls in both
 * runs. Must not: main's last operation before its split was on another
 * lock (how 1); the order differs between two other threads (how 7),
 * two look-alike workers of a pool (how 2: no difference at all); the
 * swap was at an earlier look than main's last (how 3). */
static void test_order_cause(void **state)
{
    ttd_diff *d;
    (void)state;

    const ttd_verdict *v = order_verdict(0, &d);
    assert_int_equal(v->cause->kind, TTD_COF_ORDER);
    assert_string_equal(v->cause->function, "dt_lex");
    assert_string_equal(v->cause->thread, "main");
    assert_non_null(strstr(v->cause->text, "`dt_lex` (thread main) took mutex#1 before `dt_work` "
                                           "(thread seller-0) did in the bad run"));
    assert_true(v->nevidence >= 2);
    assert_int_equal(v->confidence, TTD_CONF_POSSIBLE);
    ttd_free(d);
    /* the locks taken through a wrapper: the calls that took them, which
     * decide under them, are named, not the wrapper */
    v = order_verdict(6, &d);
    assert_int_equal(v->cause->kind, TTD_COF_ORDER);
    assert_string_equal(v->cause->function, "dt_lex");
    assert_non_null(strstr(v->cause->text, "`dt_lex` (thread main) took mutex#1 before `dt_work` "
                                           "(thread seller-0) did in the bad run"));
    const ttd_interleave *il = ttd_get_result(d)->first->interleave;
    assert_string_equal(il->order[1].func, "dt_mutex_lock");
    assert_string_equal(il->order[1].within, "dt_lex");
    ttd_free(d);
    /* threads of one name told apart in every sentence (issue 33 item 4),
     * the cause's thread field still the name */
    v = order_verdict(8, &d);
    assert_int_equal(v->cause->kind, TTD_COF_ORDER);
    assert_string_equal(v->cause->thread, "app");
    assert_non_null(strstr(v->cause->text, "`dt_lex` (thread #0 app) took mutex#1 before "
                                           "`dt_work` (thread #1 app) did in the bad run"));
    assert_true(v->nevidence >= 2);
    assert_non_null(strstr(v->evidence[0], "thread #1 app made the same calls"));
    assert_non_null(strstr(v->evidence[0], "with thread #0 app on mutex#1"));
    ttd_free(d);
    for (int how = 1; how <= 7; how++) {
        if (how == 4 || how == 5 || how == 6)
            continue;
        v = order_verdict(how, &d);
        assert_int_not_equal(v->cause->kind, TTD_COF_ORDER);
        assert_string_equal(v->cause->function, "dt_lex");   /* the split's branch */
        ttd_free(d);
    }
}

/* An atomicity violation (a get-or-create): seller-0 in parse (the
 * helper) looks an entry up under MUTEX in peek (nothing there), makes one
 * (work) and adds it under MUTEX in tally; seller-1 does the same, in the
 * good run after seller-0's tally (peek finds it: check), in the bad run
 * between seller-0's peek and tally (peek finds nothing: work, then fail).
 * how 1: seller-0's second section is peek again (one operation
 * repeated, not a check and an act); how 2: seller-1's peek is called
 * from helper, not from a call of parse; how 3: seller-0's parse looks
 * again (peek) at 2100, so in the good run too seller-1's peek (2000)
 * falls between two of its sections in one call of parse. */
static void atomic_run(const char *name, int bad, int how)
{
    dt t;

    open_trace(&t, name);
    op(&t, 0, TTF_SOP_CREATE, 0xa1, 1);
    op(&t, 0, TTF_SOP_CREATE, 0xa2, 2);
    run(&t, 1, "@1000 parse{ peek{");
    op(&t, 1, TTF_SOP_LOCK, MUTEX, 0);
    op(&t, 1, TTF_SOP_UNLOCK, MUTEX, 0);
    run(&t, 1, how == 1 ? "} work{} @1500 peek{" : "} work{} @1500 tally{");
    op(&t, 1, TTF_SOP_LOCK, MUTEX, 0);
    op(&t, 1, TTF_SOP_UNLOCK, MUTEX, 0);
    run(&t, 1, how == 3 ? "} work{} @2100 peek{" : "}");
    if (how == 3) {
        op(&t, 1, TTF_SOP_LOCK, MUTEX, 0);
        op(&t, 1, TTF_SOP_UNLOCK, MUTEX, 0);
        run(&t, 1, "}");
    }
    run(&t, 1, "}");
    run(&t, 2, bad ? "@1200 " : "@2000 ");
    run(&t, 2, how == 2 ? "helper{ peek{" : "parse{ peek{");
    op(&t, 2, TTF_SOP_LOCK, MUTEX, 0);
    op(&t, 2, TTF_SOP_UNLOCK, MUTEX, 0);
    run(&t, 2, bad ? "} work{} } fail{}" : "} check{} } log{}");
    assert_int_equal(ttf_writer_close(t.w, bad), 0);
}

/* The threads' order on MUTEX differs at seller-1's peek, which went
 * ahead of seller-0's tally in the bad run: behind it, seller-1's section
 * fell between seller-0's two sections of one call of parse, and
 * seller-1's own was inside a call of parse too: parse is named, a race
 * (an atomicity violation), "possible". Must not: seller-0's two
 * sections taken by one function (how 1), seller-1's section outside any
 * call of parse (how 2), seller-1's section between two of seller-0's in
 * one call of parse in the good run too (how 3): the threads' order, as
 * before. */
static void test_atomicity(void **state)
{
    (void)state;
    for (int how = 0; how <= 3; how++) {
        char g[32], b[32];
        ttd_diff *d = NULL;
        snprintf(g, sizeof g, "ag%d.trc", how);
        snprintf(b, sizeof b, "ab%d.trc", how);
        atomic_run(g, 0, how);
        atomic_run(b, 1, how);
        assert_int_equal(ttd_diff_files(path_of(g), path_of(b), NULL, &d, NULL), 0);
        const ttd_result *res = ttd_get_result(d);
        assert_non_null(res->first);
        const ttd_verdict *v = res->verdict;
        assert_non_null(v->cause);
        if (how == 0) {
            assert_int_equal(v->cause->kind, TTD_COF_RACE);
            assert_string_equal(v->cause->function, "dt_parse");
            assert_string_equal(v->cause->thread, "seller-0");
            assert_non_null(strstr(v->cause->text, "took mutex#1 in `dt_peek`"));
            assert_non_null(strstr(v->cause->text, "again in `dt_tally`"));
            assert_non_null(strstr(v->cause->text, "in one call of `dt_parse`; thread seller-1 "
                                                   "took it in between"));
            assert_int_equal(v->nevidence, 2);
            assert_non_null(strstr(v->evidence[0], "thread seller-1 took mutex#1 in `dt_peek`, "
                                                   "inside a call of `dt_parse` of its own"));
            assert_int_equal(v->confidence, TTD_CONF_POSSIBLE);
        } else {
            assert_int_equal(v->cause->kind, TTD_COF_ORDER);
            assert_string_equal(v->cause->function, "dt_peek");
        }
        ttd_free(d);
    }
}

/* An error origin that read shared state: main's check returns 5 in the
 * good run and -1 (a failure no good call returned) in the bad one, its
 * callee peek 7 in both; then main calls ok or fail. held: main calls
 * check holding MUTEX, which seller-0 took too before; else seller-0
 * takes MUTEX2 and main MUTEX alone. */
static void origin_run(const char *name, int bad, int held)
{
    ttf_writer_opts o = {.values = 1};
    dt t;

    remove(path_of(name));
    assert_int_equal(dt_open_opts(&t, path_of(name), 0, (const char *const *)names, 2, &o), 0);
    op(&t, 0, TTF_SOP_CREATE, 0xa1, 1);
    t.now[1] = 1000;
    run(&t, 1, "parse{ work{");
    op(&t, 1, TTF_SOP_LOCK, held ? MUTEX : MUTEX2, 0);
    op(&t, 1, TTF_SOP_UNLOCK, held ? MUTEX : MUTEX2, 0);
    run(&t, 1, "} }");
    run(&t, 0, "@1100 main{ lex{");
    op(&t, 0, TTF_SOP_LOCK, MUTEX, 0);
    run(&t, 0, bad ? "check{ peek{}=7 }=-1" : "check{ peek{}=7 }=5");
    op(&t, 0, TTF_SOP_UNLOCK, MUTEX, 0);
    run(&t, 0, bad ? "fail{} } }" : "log{} } }");
    assert_int_equal(ttf_writer_close(t.w, bad), 0);
}

/* The error origin is "likely" only when nothing but its inputs could
 * have decided its answer: called holding a lock another thread took,
 * it read what that thread may have written ("possible", said why).
 * Must not: the other thread took another lock (likely again). */
static void test_origin_shared(void **state)
{
    (void)state;
    for (int held = 0; held <= 1; held++) {
        char g[32], b[32];
        snprintf(g, sizeof g, "eg%d.trc", held);
        snprintf(b, sizeof b, "eb%d.trc", held);
        origin_run(g, 0, held);
        origin_run(b, 1, held);
        ttd_diff *d = NULL;
        assert_int_equal(ttd_diff_files(path_of(g), path_of(b), NULL, &d, NULL), 0);
        const ttd_verdict *v = ttd_get_result(d)->verdict;
        assert_non_null(v->cause);
        assert_int_equal(v->cause->kind, TTD_COF_ERROR_ORIGIN);
        assert_string_equal(v->cause->function, "dt_check");
        assert_int_equal(v->confidence, held ? TTD_CONF_POSSIBLE : TTD_CONF_LIKELY);
        int said = 0;
        for (size_t i = 0; i < v->nevidence; i++)
            said |= strstr(v->evidence[i], "ran holding mutex#1, which another thread took "
                                           "too") != NULL;
        assert_int_equal(said, held);
        ttd_free(d);
    }
}

/* A lost wake-up: seller-0 posts (lock, signal COND, unlock in work);
 * main waits on COND in lex and branches on whether it was woken. Good:
 * main waits first and the post ends its wait; bad: the post comes
 * first, main's wait ends at 5 ms with no signal and main fails. how 1
 * (must not): seller-1 posts too, after main's wait in the good run and
 * during it in the bad run (main was woken: the signal before its wait
 * was not what it missed). how 2: seller-0 signals without the lock
 * while main holds it, between its lock (0.9 us) and its wait: the
 * signaller is named, kind race. how 3 (must not for that): the same
 * unlocked signal before main took the lock: the waiter is named. */
static void lost_run(const char *name, int bad, int how)
{
    dt t;
    int nolock = how == 2 || how == 3;

    open_trace(&t, name);
    op(&t, 0, TTF_SOP_CREATE, 0xa1, 1);
    t.now[1] = bad ? 1000 : 1200;
    run(&t, 1, "parse{ work{");
    if (!nolock)
        op(&t, 1, TTF_SOP_LOCK, MUTEX, 0);
    op(&t, 1, TTF_SOP_SIGNAL, COND, 0);
    if (!nolock)
        op(&t, 1, TTF_SOP_UNLOCK, MUTEX, 0);
    run(&t, 1, "} }");
    if (how == 1) {
        op(&t, 0, TTF_SOP_CREATE, 0xa2, 2);
        t.now[2] = bad ? 2000 : 1400;
        run(&t, 2, "parse{ work{");
        op(&t, 2, TTF_SOP_LOCK, MUTEX, 0);
        op(&t, 2, TTF_SOP_SIGNAL, COND, 0);
        op(&t, 2, TTF_SOP_UNLOCK, MUTEX, 0);
        run(&t, 2, "} }");
    }
    run(&t, 0, how == 2 ? "@900 main{ lex{" : "@1100 main{ lex{");
    op(&t, 0, TTF_SOP_LOCK, MUTEX, 0);
    run(&t, 0, "@1100");
    op(&t, 0, TTF_SOP_WAIT, COND, (int64_t)MUTEX);
    run(&t, 0, !bad ? "@1300" : how == 1 ? "@2100" : "@5000");
    op(&t, 0, TTF_SOP_WOKE, COND, bad && how != 1 ? 110 : 0);
    op(&t, 0, TTF_SOP_UNLOCK, MUTEX, 0);
    run(&t, 0, bad ? "} fail{} }" : "} check{} }");
    assert_int_equal(ttf_writer_close(t.w, bad), 0);
}

static void test_lost_wakeup(void **state)
{
    ttd_diff *d;
    (void)state;

    for (int how = 0; how <= 3; how++) {
        char g[32], b[32];
        snprintf(g, sizeof g, "lg%d.trc", how);
        snprintf(b, sizeof b, "lb%d.trc", how);
        lost_run(g, 0, how);
        lost_run(b, 1, how);
        assert_int_equal(ttd_diff_files(path_of(g), path_of(b), NULL, &d, NULL), 0);
        const ttd_verdict *v = ttd_get_result(d)->verdict;
        assert_non_null(v->cause);
        if (how == 2) {
            assert_int_equal(v->cause->kind, TTD_COF_RACE);
            assert_string_equal(v->cause->function, "dt_work");
            assert_string_equal(v->cause->thread, "seller-0");
            assert_non_null(strstr(v->cause->text, "`dt_work` (thread seller-0) signalled "
                                                   "cond#1 while thread main held mutex#1 "
                                                   "(taken in `dt_lex` at "));
            assert_non_null(strstr(v->cause->text, "a signal sent without the lock the waiter "
                                                   "checks under came between its check and "
                                                   "its wait"));
            assert_non_null(strstr(v->cause->text, "(a lost wake-up)"));
            assert_int_equal(v->confidence, TTD_CONF_POSSIBLE);
            /* must not: the good runs alike */
            ttd_free(d);
            lost_run("lg2b.trc", 0, how);
            assert_int_equal(ttd_diff_files(path_of(g), path_of("lg2b.trc"), NULL, &d, NULL), 0);
            assert_int_equal(ttd_get_result(d)->verdict->exit, 0);
            assert_null(ttd_get_result(d)->verdict->cause);
        } else if (how == 0 || how == 3) {
            assert_int_equal(v->cause->kind, TTD_COF_ORDER);
            assert_string_equal(v->cause->function, "dt_lex");
            assert_non_null(strstr(v->cause->text, "`dt_work` (thread seller-0) signalled "
                                                   "cond#1 before `dt_lex` (thread main) waited "
                                                   "on it in the bad run"));
            assert_non_null(strstr(v->cause->text, "(a lost wake-up)"));
            assert_non_null(strstr(v->evidence[0], "nothing signalled cond#1 while thread main "
                                                   "waited in the bad run"));
            assert_int_equal(v->confidence, TTD_CONF_POSSIBLE);
        } else {
            assert_null(strstr(v->cause->text, "lost wake-up"));
        }
        ttd_free(d);
    }
}

/* Values mode: main's branch tests what a getter (peek: 1 in the good
 * run, 0 in the bad) returned under the lock the loader publishes under;
 * the first divergence is that value, and the order is still the cause,
 * the getter's answer its evidence (how 4). Must not: the getter called
 * after the unlock (how 5): its value stays the cause. */
static void test_order_cause_getter(void **state)
{
    ttd_diff *d;
    (void)state;

    const ttd_verdict *v = order_verdict(4, &d);
    assert_int_equal(v->cause->kind, TTD_COF_ORDER);
    assert_string_equal(v->cause->function, "dt_lex");
    assert_true(v->nevidence >= 1);
    assert_non_null(strstr(v->evidence[0], "`dt_peek`, called under mutex#1 in both runs, "
                                           "returned 0 in the bad run, 1 in the good run"));
    assert_int_equal(v->confidence, TTD_CONF_POSSIBLE);
    ttd_free(d);
    v = order_verdict(5, &d);
    assert_int_not_equal(v->cause->kind, TTD_COF_ORDER);
    assert_string_equal(v->cause->function, "dt_peek");
    ttd_free(d);
}

/* One run alone through the public API: the same race, "in this run". */
static void test_one_run_alone(void **state)
{
    ttf_trace *t = NULL;
    ttd_races *r = NULL;
    size_t n = 9;
    (void)state;

    overlapping("alone.trc");
    assert_int_equal(ttf_open(path_of("alone.trc"), &t, NULL), 0);
    assert_int_equal(ttd_races_find(t, NULL, &r, NULL), 0);
    const ttd_race *v = ttd_races_list(r, &n);
    assert_int_equal(n, 1);
    assert_false(v[0].good_compared);
    assert_int_equal(v[0].pair[0], -1);
    assert_non_null(strstr(v[0].text, "in this run, seller-0 and seller-1 were both between"));
    ttd_races_free(r);
    assert_int_equal(ttd_races_find(NULL, NULL, &r, NULL), TT_EINVAL);
    assert_null(ttd_races_list(NULL, &n));
    assert_int_equal(n, 0);
    ttd_races_free(NULL);
    ttf_close(t);
}

/* The engine: the same calls, the same exit status, but the bad run is
 * known to have failed: a divergence in the outcome, with the race. */
static void test_caught_failure(void **state)
{
    ttd_options o;
    ttd_diff *d = NULL;
    (void)state;

    overlapping("cg.trc");
    overlapping("cb.trc");
    ttd_options_init(&o);
    assert_int_equal(ttd_diff_files(path_of("cg.trc"), path_of("cb.trc"), &o, &d, NULL), 0);
    const ttd_result *res = ttd_get_result(d);
    assert_false(res->diverged);            /* not known: the same */
    assert_int_equal(res->nraces, 0);
    ttd_free(d);
    o.bad_failed = "exit 0, --fail-if said failure";
    assert_int_equal(ttd_diff_files(path_of("cg.trc"), path_of("cb.trc"), &o, &d, NULL), 0);
    res = ttd_get_result(d);
    assert_true(res->diverged);
    assert_true(res->outcome.failed);
    assert_true(res->outcome.same_calls);
    assert_null(res->first);
    assert_int_equal(res->nraces, 1);
    assert_true(res->races[0].overlapped);
    assert_true(res->races[0].seen_in_good); /* the good run had it too */
    assert_int_equal(res->races[0].pair[0], 1);
    ttd_free(d);
}

/* ---- interleave.c: walked by thread = walked merged ---------------------- */

static uint32_t rnd_state;

static uint32_t rnd(uint32_t n)
{
    rnd_state = rnd_state * 1103515245u + 12345u;
    return (rnd_state >> 8) % n;
}

/* Three threads calling parse/lex/check/work at close, often equal times
 * (ties between threads), taking one of nlocks mutexes (a trylock now and
 * then, a condition signalled); with skip, seller-1's lex calls from its
 * 20th on take no lock (the unprotected call); with skip 2 both sellers
 * run the same script, both without it (a tie: the lower thread's). */
static int rnd_steps = 120, rnd_skip_from = 20;   /* random_run's calls a thread, and
                                                    where skip starts */

static void random_run(const char *name, uint32_t seed, int nlocks, int skip)
{
    static const char *const fn[] = {"parse{", "lex{", "check{", "work{"};
    dt t;

    rnd_state = seed;
    open_trace(&t, name);
    for (uint32_t th = 0; th < 3; th++) {
        t.now[th] = 1000;
        if (skip == 2 && th)
            rnd_state = seed;
        for (int i = 0; i < rnd_steps; i++) {
            int f = (int)rnd(4);
            uint64_t m = MUTEX + 0x40u * rnd((uint32_t)nlocks);
            if (rnd(4) == 0)
                t.now[th] += 10 * rnd(3);
            run(&t, th, fn[f]);
            if (f == 1 && !(skip && th >= 3 - (uint32_t)skip && i >= rnd_skip_from)) {
                op(&t, th, rnd(8) ? TTF_SOP_LOCK : TTF_SOP_TRYLOCK, m, 0);
                if (rnd(2))
                    run(&t, th, "check{ }");
                op(&t, th, TTF_SOP_UNLOCK, m, 0);
            } else if (f == 3 && rnd(3) == 0) {
                op(&t, th, TTF_SOP_SIGNAL, COND, 0);
            } else if (rnd(2)) {
                run(&t, th, "check{ }");
            }
            run(&t, th, "}");
        }
    }
    assert_int_equal(ttf_writer_close(t.w, 1), 0);
}

static void same_xev(const ttd_xev *a, const ttd_xev *b)
{
    assert_int_equal(a->kind, b->kind);
    assert_int_equal(a->op, b->op);
    assert_int_equal(a->thread, b->thread);
    assert_int_equal(a->pair, b->pair);
    assert_int_equal(a->time_ns, b->time_ns);
    assert_true(a->object == b->object || (a->object && b->object && !strcmp(a->object, b->object)));
    assert_true(a->func == b->func || (a->func && b->func && !strcmp(a->func, b->func)));
}

static void same_ilv(const ttd_interleave *a, const ttd_interleave *b)
{
    assert_true((a == NULL) == (b == NULL));
    if (!a)
        return;
    for (int r = 0; r < 2; r++) {
        assert_int_equal(a->nwindow[r], b->nwindow[r]);
        assert_int_equal(a->ops[r], b->ops[r]);
        for (size_t i = 0; i < a->nwindow[r]; i++)
            same_xev(&a->window[r][i], &b->window[r][i]);
        same_xev(&a->order[r], &b->order[r]);
    }
    assert_int_equal(a->order_differs, b->order_differs);
    assert_int_equal(a->order_index, b->order_index);
    assert_int_equal(a->unprotected, b->unprotected);
    assert_int_equal(a->unprot_end_ns, b->unprot_end_ns);
    assert_int_equal(a->good_calls, b->good_calls);
    assert_int_equal(a->overlapped, b->overlapped);
    assert_int_equal(a->nduring, b->nduring);
    assert_int_equal(a->shared, b->shared);
    same_xev(&a->unprot_call, &b->unprot_call);
    same_xev(&a->overlap, &b->overlap);
    for (size_t i = 0; i < a->nduring; i++)
        same_xev(&a->during[i], &b->during[i]);
    if (a->unprotected)
        assert_string_equal(a->unprot_lock, b->unprot_lock);
}

/* The runs one interleaving was built from: open until ilv_done, since
 * the result names functions through their normalisers. */
struct ilv_runs {
    ttdi_run_state rs[2];
};

static void run_state(ttdi_run_state *rs, ttf_trace *t);

/* The interleaving of good and bad up to split, walked one way: merged
 * 0 each thread alone, 1 merged, 2 each thread alone from what run walks
 * kept as they first read it (r->lock_tap), thread 1 read whole first (as
 * the timing scan reads the split thread: the thread order walks it only
 * from its last mark before the split); 3 as 2 with the two runs' walks
 * to the split by two threads first (ttdi_ilv_run.two). */
static int ilv_of(const char *good, const char *bad, uint64_t split, int merged,
                  struct ttfi_arena *a, struct ilv_runs *u, ttd_interleave **out)
{
    static const int64_t pairs[3] = {0, 1, 2};
    ttdi_ilv_run in[2];

    for (int r = 0; r < 2; r++) {
        ttf_trace *t = NULL;
        assert_int_equal(ttf_open(path_of(r ? bad : good), &t, NULL), 0);
        run_state(&u->rs[r], t);
        in[r] = (ttdi_ilv_run){&u->rs[r], pairs, NULL, split, merged == 3};
        u->rs[r].lock_tap = merged >= 2;
        if (merged >= 2 && u->rs[r].nt > 1) {
            ttdi_walk w;
            assert_int_equal(ttdi_walk_open(&w, &u->rs[r], 1), 0);
            while (ttdi_walk_next(&w) > 0) {
            }
            ttdi_walk_close(&w);
        }
    }
    ttdi_ilv_merged = merged == 1;
    int rc = ttdi_interleave_build(a, in, out);
    ttdi_ilv_merged = 0;
    return rc;
}

static void ilv_done(struct ilv_runs *u)
{
    for (int r = 0; r < 2; r++) {
        ttdi_marks_free(&u->rs[r]);
        ttdi_norm_free(&u->rs[r].norm);
        ttf_close((ttf_trace *)u->rs[r].t);
    }
}

/* Each thread walked alone gives what the merged walk gave: the objects'
 * numbers, the last operations, the first order difference, the
 * unprotected call and its overlap (with the good run's calls of it),
 * and so does each thread taken from what the run walks kept (issue 38
 * item 4: ttdi_walk_tap), also with the two runs' walks to the split made
 * first by two threads, the bad run's in a thread of its own (each run
 * walks, ttdi_ilv_jobs_apart); with 80 locks (past the provisional bits)
 * it falls back to the merged walk, alike. */
static void test_interleave_by_thread(void **state)
{
    struct ttfi_arena a = {0};
    static const int locks[] = {1, 3, 80};
    static const uint64_t splits[] = {UINT64_MAX, 3000, 2215};
    int found = 0;
    (void)state;

    for (uint32_t seed = 1; seed <= 6; seed++)
        for (size_t k = 0; k < sizeof locks / sizeof *locks; k++) {
            random_run("ilv-good.trc", seed, locks[k], 0);
            random_run("ilv-bad.trc", seed + 100, locks[k], 1 + (seed & 1));
            for (size_t s = 0; s < sizeof splits / sizeof *splits; s++) {
                ttd_interleave *x = NULL, *y = NULL, *z = NULL, *w = NULL;
                struct ilv_runs ux, uy, uz, uw;
                uint64_t apart = ttdi_ilv_jobs_apart;
                assert_int_equal(ilv_of("ilv-good.trc", "ilv-bad.trc", splits[s], 0, &a, &ux, &x), 0);
                assert_int_equal(ilv_of("ilv-good.trc", "ilv-bad.trc", splits[s], 1, &a, &uy, &y), 0);
                assert_int_equal(ilv_of("ilv-good.trc", "ilv-bad.trc", splits[s], 2, &a, &uz, &z), 0);
                assert_int_equal(ttdi_ilv_jobs_apart, apart);
                assert_int_equal(ilv_of("ilv-good.trc", "ilv-bad.trc", splits[s], 3, &a, &uw, &w), 0);
                assert_int_equal(ttdi_ilv_jobs_apart, apart + 1);
                same_ilv(x, y);
                same_ilv(x, z);
                same_ilv(x, w);
                found += x && x->unprotected;
                ilv_done(&ux);
                ilv_done(&uy);
                ilv_done(&uz);
                ilv_done(&uw);
            }
        }
    assert_true(found >= 6);   /* the unprotected call was there to find */
    ttfi_arena_free(&a);
}

/* The same with one mutex taken thousands of times, the runs parting
 * late: the first order difference lies past the good run's first room
 * guess for an object's operations (seq_room, interleave.c), and the bad
 * run's operations, compared as they come, give what the merged walk
 * (which keeps them) gives. */
static void test_interleave_long(void **state)
{
    struct ttfi_arena a = {0};
    (void)state;

    rnd_steps = 4000;
    rnd_skip_from = 3000;
    random_run("ilv-good.trc", 7, 1, 0);
    random_run("ilv-bad.trc", 7, 1, 1);
    rnd_steps = 120;
    rnd_skip_from = 20;
    ttd_interleave *x = NULL, *z = NULL;
    struct ilv_runs ux, uz;
    assert_int_equal(ilv_of("ilv-good.trc", "ilv-bad.trc", UINT64_MAX, 1, &a, &ux, &x), 0);
    assert_int_equal(ilv_of("ilv-good.trc", "ilv-bad.trc", UINT64_MAX, 2, &a, &uz, &z), 0);
    assert_non_null(x);
    assert_true(x->order_differs);
    assert_true(x->order_index > 4096);     /* past SEQ_GUESS */
    assert_true(x->ops[0] > 4096);
    assert_int_equal(x->order[0].kind, TTF_EV_SYNC_OP);
    same_ilv(x, z);
    ilv_done(&ux);
    ilv_done(&uz);
    ttfi_arena_free(&a);
}

/* A run state over t for the interleaving's run walks (marks every 16
 * kept events, the test knob); its normaliser is its own. */
static void run_state(ttdi_run_state *rs, ttf_trace *t)
{
    memset(rs, 0, sizeof *rs);
    rs->t = t;
    rs->nt = ttf_thread_count(t);
    assert_int_equal(ttdi_norm_init(&rs->norm, t, TTD_MSG_SITE, NULL, NULL, 0), 0);
    rs->mark_every = 16;
}

/* The last two kept events of thread th up to the first one past ns, as a
 * walk opened at (UINT64_MAX, ns, 2) sees them; *from the key index it
 * started at. */
static void last_two(ttdi_run_state *rs, uint32_t th, uint64_t ns, int at_mark, uint64_t out[4],
                     uint64_t *from)
{
    ttdi_walk w;
    int rc;

    memset(out, 0, 4 * sizeof *out);
    if (at_mark)
        assert_int_equal(ttdi_walk_open_at(&w, rs, th, UINT64_MAX, ns, 2), 0);
    else
        assert_int_equal(ttdi_walk_open(&w, rs, th), 0);
    *from = w.next;
    while ((rc = ttdi_walk_next(&w)) > 0 && w.ev.time_ns <= ns) {
        if (!w.kept)
            continue;
        out[0] = out[2];
        out[1] = out[3];
        out[2] = w.idx;
        out[3] = w.ev.addr ^ (uint64_t)w.nstack << 56;
    }
    assert_true(rc >= 0);
    ttdi_walk_close(&w);
}

/* A run of seller-0 (thread 1): main{ parse{ ... } parse{ ... } }, each
 * parse as `body` says: "lock" takes and releases mutex MUTEX in it;
 * "jump" enters lex, which a longjmp leaves (UNWIND of 1 frame), then parse
 * returns; "jump-enter" the same with a check{} call after the UNWIND;
 * "jump-locked" lex takes the lock before the longjmp, parse releases it. */
static void unwind_run(const char *name, const char *second)
{
    const char *body[2] = {"lock", second};
    dt t;

    open_trace(&t, name);
    run(&t, 1, "@1000 main{");
    for (int i = 0; i < 2; i++) {
        run(&t, 1, "parse{");
        if (!strcmp(body[i], "lock")) {
            op(&t, 1, TTF_SOP_LOCK, MUTEX, 0);
            op(&t, 1, TTF_SOP_UNLOCK, MUTEX, 0);
            run(&t, 1, "}");
            continue;
        }
        run(&t, 1, "lex{");
        if (!strcmp(body[i], "jump-locked"))
            op(&t, 1, TTF_SOP_LOCK, MUTEX, 0);
        t.now[1] += 10;
        assert_int_equal(ttf_write_unwind(t.w, 1, t.now[1], TTF_UNWIND_LONGJMP, 1), 0);
        t.depth[1]--;
        if (!strcmp(body[i], "jump-locked"))
            op(&t, 1, TTF_SOP_UNLOCK, MUTEX, 0);
        run(&t, 1, strcmp(body[i], "jump-enter") ? "}" : "check{} }");
    }
    run(&t, 1, "}");
    assert_int_equal(ttf_writer_close(t.w, 1), 0);
}

/* The thread order keeps the call stack by the walker's rule (issue 35
 * item 2: the run walks' rule): a call a longjmp returned into (UNWIND)
 * returns at its own EXIT, with or without an ENTER between, so a bad-run
 * parse that took no lock where the good run's parse did is the
 * unprotected call; the frames the UNWIND left pass what they took to the
 * call below (a lock taken in lex is parse's). The rule before kept lex
 * open (an EXIT only closed the innermost frame, UNWIND ignored): parse
 * never returned and nothing was found. By thread and merged alike. */
static void test_interleave_unwind(void **state)
{
    struct ttfi_arena a = {0};
    static const char *const bad[] = {"jump", "jump-enter", "jump-locked"};
    (void)state;

    unwind_run("ilu-good.trc", "lock");
    for (size_t k = 0; k < 3; k++) {
        unwind_run("ilu-bad.trc", bad[k]);
        for (int merged = 0; merged < 2; merged++) {
            ttd_interleave *x = NULL;
            struct ilv_runs u;
            assert_int_equal(ilv_of("ilu-good.trc", "ilu-bad.trc", UINT64_MAX, merged, &a, &u,
                                    &x), 0);
            assert_non_null(x);
            assert_int_equal(x->unprotected, k < 2);
            if (k < 2) {
                assert_string_equal(x->unprot_func, "dt_parse");
                assert_string_equal(x->unprot_lock, "mutex#1");
                assert_int_equal(x->good_calls, 2);
                assert_int_equal(x->unprot_call.thread, 1);
            }
            ilv_done(&u);
        }
    }
    ttfi_arena_free(&a);
}

/* Seller th (1 or 2) from time at, as `how` says: 0, parse{ check{}
 * lex{ helper{ a longjmp back into parse (UNWIND of 2 frames) work{ lock
 * unlock } }; 1, main{ parse{ nine nested lex{ helper{ ... a longjmp
 * without a record back into main: the EXIT of parse } check{} work{ lock
 * unlock } }. Seller 2 takes the lock at `lock_at`. */
static void jumping(dt *t, uint32_t th, uint64_t at, int how, uint64_t lock_at)
{
    char buf[32];

    snprintf(buf, sizeof buf, "@%llu", (unsigned long long)at);
    run(t, th, buf);
    if (how == 0) {
        run(t, th, "parse{ check{} lex{ helper{");
        t->now[th] += 10;
        assert_int_equal(ttf_write_unwind(t->w, th, t->now[th], TTF_UNWIND_LONGJMP, 2), 0);
        t->depth[th] -= 2;
    } else {
        run(t, th, "main{ parse{");
        for (int i = 0; i < 9; i++)
            run(t, th, i % 2 ? "helper{" : "lex{");
        t->depth[th] = 2;           /* the EXIT of parse, 9 frames down */
        run(t, th, "} check{}");
    }
    run(t, th, "work{");
    if (lock_at) {
        snprintf(buf, sizeof buf, "@%llu", (unsigned long long)lock_at);
        run(t, th, buf);
    }
    op(t, th, TTF_SOP_LOCK, MUTEX, 0);
    op(t, th, TTF_SOP_UNLOCK, MUTEX, 0);
    run(t, th, "} }");
}

/* The races' happens-before walk keeps the call stack by the walker's
 * rule (issue 35 item 2): after a longjmp with an UNWIND record, the next
 * ENTER (work) is a call of the frame returned into (parse), so the act
 * after parse's check is work; after one without a record, the EXIT of
 * parse nine frames down closes it and the frames above it, so check and
 * work are main's calls (the race's stacks: main, then work), and parse,
 * which returned there, is a farther check. The rule
 * before (UNWIND ignored, an EXIT found within 8 frames only) named lex
 * as the act, and helper as the caller of check and work. */
static void test_races_unwind(void **state)
{
    (void)state;
    for (int how = 0; how < 2; how++) {
        struct ttfi_arena a = {0};
        const ttd_race *r;
        dt t;
        open_trace(&t, "rcu.trc");
        jumping(&t, 1, 1000, how, 0);
        jumping(&t, 2, 1005, how, 3000);
        assert_int_equal(ttf_writer_close(t.w, 1), 0);
        /* parse returned at its EXIT (how 1): a check too, the farther */
        assert_int_equal(races_of("rcu.trc", NULL, 0, &r, &a), how ? 2 : 1);
        assert_int_equal(r->kind, TTD_RACE_CHECK_ACT);
        assert_true(r->overlapped);
        assert_string_equal(r->check, "dt_check");
        assert_string_equal(r->act, "dt_work");
        for (int k = 0; k < 2; k++) {
            assert_int_equal(r->nstacks[k], 2);
            assert_string_equal(r->stacks[k][0], how ? "dt_main" : "dt_parse");
            assert_string_equal(r->stacks[k][1], "dt_work");
        }
        if (how)
            assert_string_equal(r[1].check, "dt_parse");
        ttfi_arena_free(&a);
    }
}

/* The thread order leaves marks on every thread no run walk marked yet,
 * and gives what it gives on fresh runs: a later walk for the last events
 * before the split (the details' other threads) starts at one and finds
 * what a walk from the start finds. A thread marked before is read by a
 * walk that leaves none (its marks as they were). */
static void test_interleave_marks(void **state)
{
    struct ttfi_arena a = {0};
    static const uint64_t splits[] = {UINT64_MAX, 3000, 2215};
    (void)state;

    random_run("ilm-good.trc", 7, 3, 0);
    random_run("ilm-bad.trc", 107, 3, 1);
    for (size_t s = 0; s < sizeof splits / sizeof *splits; s++) {
        ttd_interleave *x = NULL, *y = NULL;
        struct ilv_runs ux;
        ttdi_run_state rs[2];
        assert_int_equal(ilv_of("ilm-good.trc", "ilm-bad.trc", splits[s], 0, &a, &ux, &x), 0);
        /* the same through run walks; thread 1 of the bad run marked before */
        static const int64_t pairs[3] = {0, 1, 2};
        ttdi_ilv_run in[2];
        for (int r = 0; r < 2; r++) {
            ttf_trace *t = NULL;
            assert_int_equal(ttf_open(path_of(r ? "ilm-bad.trc" : "ilm-good.trc"), &t, NULL), 0);
            run_state(&rs[r], t);
            in[r] = (ttdi_ilv_run){&rs[r], pairs, NULL, splits[s], 0};
        }
        uint64_t pre[4], from;
        last_two(&rs[1], 1, 1200, 0, pre, &from);   /* a run walk to 1200: marks */
        assert_true(ttdi_walk_marked(&rs[1], 1));
        size_t nmarked = 0;
        ttdi_walk probe;
        assert_int_equal(ttdi_walk_open_at(&probe, &rs[1], 1, UINT64_MAX, UINT64_MAX, 0), 0);
        nmarked = (size_t)probe.next;   /* the latest mark then */
        ttdi_walk_close(&probe);
        assert_int_equal(ttdi_interleave_build(&a, in, &y), 0);
        same_ilv(x, y);
        /* thread 1 of the bad run was read by a walk that leaves none: no mark past the walk's */
        assert_int_equal(ttdi_walk_open_at(&probe, &rs[1], 1, UINT64_MAX, UINT64_MAX, 0), 0);
        assert_int_equal(probe.next, nmarked);
        ttdi_walk_close(&probe);
        for (int r = 0; r < 2; r++)
            for (uint32_t th = 0; th < 3; th++) {
                uint64_t want[4], got[4], at0, at;
                assert_true(ttdi_walk_marked(&rs[r], th));
                last_two(&rs[r], th, splits[s], 0, want, &at0);
                last_two(&rs[r], th, splits[s], 1, got, &at);
                assert_int_equal(at0, 0);
                assert_true(at > 0);        /* from a mark */
                assert_memory_equal(got, want, sizeof got);
            }
        for (int r = 0; r < 2; r++) {
            ttdi_marks_free(&rs[r]);
            ttdi_norm_free(&rs[r].norm);
            ttf_close((ttf_trace *)rs[r].t);
        }
        ilv_done(&ux);
    }
    ttfi_arena_free(&a);
}

/* ---- ttdi_races_possible (issue 38 item 4) ------------------------------ */

/* Two workers in work{} (which always takes a lock inside, in wait{}),
 * each calling its own functions (parse, lex in seller-0, peek, tally in
 * seller-1), a lock now and then inside one, a nested call of its own now
 * and then (fail, helper); main calls log{}; with share, also check{}
 * then work{ lock unlock } now and then, the check lock-free or (every
 * other time in seller-1; with share 2 always, in both) inside a lock;
 * with odd 1 seller-0 unlocks a mutex it does not hold, with odd 2 it
 * makes a call inside a condition wait; with early, seller-0 calls fail{}
 * first (a bad run that parts there, before any race). */
static void apart_early(const char *name, uint32_t seed, int share, int odd, int early)
{
    static const char *const own[3][3] = {{"", "", ""}, {"parse{", "lex{", "fail{ }"},
                                          {"peek{", "tally{", "helper{ }"}};
    dt t;

    rnd_state = seed;
    open_trace(&t, name);
    run(&t, 0, "@1000 log{ }");
    for (uint32_t th = 1; th <= 2; th++) {
        t.now[th] = 1000;
        run(&t, th, "work{ wait{");
        op(&t, th, TTF_SOP_LOCK, MUTEX, 0);
        op(&t, th, TTF_SOP_UNLOCK, MUTEX, 0);
        run(&t, th, "}");
        if (early && th == 1)
            run(&t, th, "fail{ }");
        for (int i = 0; i < 80; i++) {
            if (share && rnd(6) == 0) {
                int locked = share == 2 || (th == 2 && i % 2);
                if (locked)
                    op(&t, th, TTF_SOP_LOCK, MUTEX2, 0);
                run(&t, th, "check{ }");
                if (locked)
                    op(&t, th, TTF_SOP_UNLOCK, MUTEX2, 0);
                act(&t, th, MUTEX);
                continue;
            }
            int locked = rnd(3) == 0;
            run(&t, th, own[th][rnd(2)]);
            if (locked)
                op(&t, th, TTF_SOP_LOCK, MUTEX2, 0);
            if (rnd(3) == 0)
                run(&t, th, own[th][2]);
            if (locked)
                op(&t, th, TTF_SOP_UNLOCK, MUTEX2, 0);
            run(&t, th, "}");
        }
        if (th == 1 && odd == 1)
            op(&t, th, TTF_SOP_UNLOCK, MUTEX2, 0);
        if (th == 1 && odd == 2) {
            op(&t, th, TTF_SOP_LOCK, MUTEX, 0);
            op(&t, th, TTF_SOP_WAIT, COND, MUTEX);
            run(&t, th, "check{ }");
            op(&t, th, TTF_SOP_WOKE, COND, 0);
            op(&t, th, TTF_SOP_UNLOCK, MUTEX, 0);
        }
        run(&t, th, "}");
    }
    assert_int_equal(ttf_writer_close(t.w, 1), 0);
}

static void apart_run(const char *name, uint32_t seed, int share, int odd)
{
    apart_early(name, seed, share, odd, 0);
}

/* ttdi_races_possible of trace name, its threads read whole by run walks
 * with the lock sets (all of them, or all but the last). */
static int possible_of(const char *name, int all)
{
    ttdi_run_state rs;
    ttf_trace *t = NULL;

    assert_int_equal(ttf_open(path_of(name), &t, NULL), 0);
    run_state(&rs, t);
    rs.lock_tap = 1;
    for (uint32_t th = 0; th + !all < rs.nt; th++) {
        ttdi_walk w;
        assert_int_equal(ttdi_walk_open(&w, &rs, th), 0);
        while (ttdi_walk_next(&w) > 0) {
        }
        ttdi_walk_close(&w);
    }
    int may = ttdi_races_possible(&rs, UINT64_MAX);
    ttdi_marks_free(&rs);
    ttdi_norm_free(&rs.norm);
    ttf_close(t);
    return may;
}

/* No race can be found when no function returned lock-free in one thread
 * and returned in another: the walk is spared (0) only then, and never
 * where the walk finds a race; unknown (a thread not read, an UNLOCK of
 * a mutex not held, a call inside a condition wait) says 1. */
static void test_races_possible(void **state)
{
    struct ttfi_arena a = {0};
    const ttd_race *v;
    int spared = 0, found = 0;
    (void)state;

    for (uint32_t seed = 1; seed <= 24; seed++) {
        int share = (int)(seed % 3);
        apart_run("apart.trc", seed, share, 0);
        int may = possible_of("apart.trc", 1);
        size_t n = races_of("apart.trc", NULL, 0, &v, &a);
        assert_true(may || n == 0);
        assert_int_equal(may, share == 1);  /* check{} lock-free in seller-0 */
        spared += !may;
        found += n > 0;
        assert_int_equal(possible_of("apart.trc", 0), 1);
    }
    assert_true(spared >= 16);
    assert_true(found >= 4);    /* the races were there to find */
    apart_run("apart.trc", 7, 0, 1);
    assert_int_equal(possible_of("apart.trc", 1), 1);
    apart_run("apart.trc", 7, 0, 2);
    assert_int_equal(possible_of("apart.trc", 1), 1);
    ttfi_arena_free(&a);
}

/* The engine asks ttdi_races_possible about the whole bad run, as the
 * walk reads it (to its end, not to the split): a bad run that parts
 * before its races still names them. */
static void test_races_past_split(void **state)
{
    struct ttfi_arena a = {0};
    const ttd_race *v;
    int named = 0;
    (void)state;

    for (uint32_t seed = 1; seed <= 24; seed += 3) {   /* share 1 */
        apart_early("early-good.trc", seed, 1, 0, 0);
        apart_early("early-bad.trc", seed, 1, 0, 1);
        size_t n = races_of("early-bad.trc", NULL, 0, &v, &a);
        ttd_diff *d = NULL;
        assert_int_equal(ttd_diff_files(path_of("early-good.trc"), path_of("early-bad.trc"),
                                        NULL, &d, NULL), 0);
        const ttd_result *r = ttd_get_result(d);
        assert_non_null(r->first);
        assert_true(r->nraces > 0 || n == 0);
        named += r->nraces > 0;
        ttd_free(d);
    }
    assert_true(named >= 2);
    ttfi_arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_overlap_named),
        cmocka_unit_test(test_lazy_bounds_overlap),
        cmocka_unit_test(test_release_takes_effect_late),
        cmocka_unit_test(test_lock_orders),
        cmocka_unit_test(test_cond_orders),
        cmocka_unit_test(test_create_orders),
        cmocka_unit_test(test_join_orders),
        cmocka_unit_test(test_good_runs),
        cmocka_unit_test(test_nearest_check_first),
        cmocka_unit_test(test_locked_check_no_race),
        cmocka_unit_test(test_unprotected_call),
        cmocka_unit_test(test_interleave_by_thread),
        cmocka_unit_test(test_interleave_long),
        cmocka_unit_test(test_interleave_marks),
        cmocka_unit_test(test_interleave_unwind),
        cmocka_unit_test(test_races_unwind),
        cmocka_unit_test(test_races_possible),
        cmocka_unit_test(test_races_past_split),
        cmocka_unit_test(test_one_run_alone),
        cmocka_unit_test(test_caught_failure),
        cmocka_unit_test(test_reaches_symptom),
        cmocka_unit_test(test_same_names_apart),
        cmocka_unit_test(test_verdict_names_race),
        cmocka_unit_test(test_void_check_last),
        cmocka_unit_test(test_deciding_check_first),
        cmocka_unit_test(test_reading_check_first),
        cmocka_unit_test(test_decides_widths),
        cmocka_unit_test(test_order_cause),
        cmocka_unit_test(test_order_cause_getter),
        cmocka_unit_test(test_atomicity),
        cmocka_unit_test(test_lost_wakeup),
        cmocka_unit_test(test_origin_shared),
    };
    return cmocka_run_group_tests(tests, tu_tmpdir_setup, tu_tmpdir_teardown);
}
