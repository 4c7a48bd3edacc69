/*
 * test_format_lazy.c - format v1.7, the lazy clock (FORMAT.md 4.7): an
 * ENTER right after an untimed EXIT carries no time, with no byte saying
 * so (decoded by the rule; a sync record between gives the ENTER its time
 * back); the times of a run of untimed events split by the gap means
 * learnt from the measured pairs (each placed at its true time when the
 * gaps are regular, never going back, within early_ns and late_ns); the
 * untimed events at a chunk's end placed from their last measured time by
 * the gap means, not spread up to the next chunk's start (the writer's
 * switch lies between); the chunk flag's conditions (the header bit,
 * sparse, no values); the in-line path (hot_decode) giving what the
 * general decoder gives, field by field, on a lazy trace of misses, hits,
 * runs and sync records; the hand
 * writer's opts.lazy keeping the rule; the header's version and bit;
 * ttf_iter_skip_times leaving untimed events at their earliest bound,
 * and ttf_iter_times giving them their times back, exactly;
 * the open's scan giving untimed events their run's end without the
 * look-ahead (as a pass with times bounds them; past damage as before);
 * run_div (a run's placement by its weights' reciprocal) exact.
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

#include "format_util.h"
#include "read_int.h"

#define MAIN 0x401136u
#define LEAF 0x401200u          /* slot 0x24 (main's is 0x17) */
#define LONG 0x401300u          /* another leaf, four times as long */

/* A v1.7 file (1 tick = 1 ns) and a lazy chunk of thread 0 at tsc. */
static void lazy_file(struct tb *b, uint16_t flags)
{
    tb_init(b, 4096, 1000000000u);
    ttf_put_u16(b->buf + TTF_H_VMINOR, 7);
    ttf_put_u32(b->buf + TTF_H_REQ, TTF_REQ_EVENTS_V1 | TTF_REQ_SPARSE | TTF_REQ_LAZY);
    tb_chunk(b, 0, 0, 0, 1, 0, 1000, 0);
    ttf_put_u16(b->buf + b->coff + TTF_C_FLAGS, flags);
}

#define LAZY_FLAGS (TTF_CHUNK_TIMED | TTF_CHUNK_SPARSE | TTF_CHUNK_LAZY)

static void enter_miss(struct tb *b, uint64_t fn, uint64_t prev, uint64_t t)
{
    tb_u8(b, TTF_T_ENTER_MISS);
    tb_uvar(b, ttf_zigzag((int64_t)(fn - prev)));
    tb_uvar(b, t);
}

/* The rule, byte by byte: main and leaf entered (misses, timed); leaf's
 * untimed EXIT; the ENTER after it has no delta (0xa4 alone, untimed);
 * its EXIT untimed; a SYNC_OP (t 30) reads the clock, so the ENTER after
 * it carries a delta although an untimed EXIT came before; TIMED EXIT. */
static void test_rule(void **state)
{
    (void)state;
    struct tb b;
    lazy_file(&b, LAZY_FLAGS);
    enter_miss(&b, MAIN, 0, 10);                /* 1010 */
    enter_miss(&b, LEAF, MAIN, 10);             /* 1020 */
    static const uint8_t recs[] = {
        0xe4,                                   /* EXIT leaf, untimed */
        0xa4,                                   /* ENTER leaf, untimed: no delta */
        0xe4,                                   /* EXIT leaf, untimed */
        TTF_R_SYNC_OP, 4, 30, TTF_SOP_LOCK, 0, 0, /* 1050: a clock read */
        0xa4, 0x0a,                             /* ENTER leaf, 1060 */
        0x47, 0xe4, 0x05,                       /* TIMED EXIT leaf, 1065 */
        0xa4, 0x05,                             /* ENTER leaf, 1070 */
        0xe4,                                   /* EXIT leaf, untimed */
        0xa4,                                   /* ENTER leaf, untimed */
        0x48, 0xe4, 0x14,                       /* SAMPLE EXIT leaf, 1090 */
        0x47, 0xd7, 0x0a,                       /* TIMED EXIT main, 1100 */
    };
    tb_raw(&b, recs, sizeof recs);
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    assert_int_equal(ttf_get_header(t)->version_minor, 7);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 0);
    struct evs e = tu_events(t, 0, 0);
    static const struct { int kind; uint64_t fn; int untimed; uint64_t lo, hi; } want[] = {
        {TTF_EV_ENTER, MAIN, 0, 1010, 1010},
        {TTF_EV_ENTER, LEAF, 0, 1020, 1020},
        {TTF_EV_EXIT, LEAF, 1, 1020, 1050},
        {TTF_EV_ENTER, LEAF, 1, 1020, 1050},
        {TTF_EV_EXIT, LEAF, 1, 1020, 1050},
        {TTF_EV_SYNC_OP, 0, 0, 1050, 1050},
        {TTF_EV_ENTER, LEAF, 0, 1060, 1060},
        {TTF_EV_EXIT, LEAF, 0, 1065, 1065},
        {TTF_EV_ENTER, LEAF, 0, 1070, 1070},
        {TTF_EV_EXIT, LEAF, 1, 1070, 1090},
        {TTF_EV_ENTER, LEAF, 1, 1070, 1090},
        {TTF_EV_EXIT, LEAF, 0, 1090, 1090},
        {TTF_EV_EXIT, MAIN, 0, 1100, 1100},
    };
    assert_int_equal(e.n, sizeof want / sizeof want[0]);
    uint64_t last = 0;
    for (size_t i = 0; i < e.n; i++) {
        const ttf_event *ev = &e.ev[i];
        assert_int_equal(ev->kind, want[i].kind);
        if (want[i].fn)
            assert_int_equal(ev->addr, want[i].fn);
        assert_int_equal(ev->untimed, want[i].untimed);
        assert_int_equal(ttf_event_early_ns(ev), want[i].lo - 1000);
        assert_int_equal(ttf_event_late_ns(ev), want[i].hi - 1000);
        assert_true(ev->time_ns >= ttf_event_early_ns(ev) && ev->time_ns <= ttf_event_late_ns(ev));
        assert_true(ev->tsc >= last);           /* never back */
        last = ev->tsc;
        if (!want[i].untimed)
            assert_int_equal(ev->tsc, want[i].lo);
    }
    free(e.ev);
    ttf_close(t);
    free(b.buf);
}

/* A chunk whose leaf calls take 10 ticks, 10 apart (200 calls, all
 * timed: the gaps are learnt), ending with an untimed EXIT, ENTER and
 * EXIT; the next chunk starts 100,000 ticks later (the writer's switch:
 * mmap, page faults). The three are placed 10 ticks apart after the last
 * measured time, not a third of the way to the next chunk each; their
 * late bound is still the next chunk's start. */
static void test_chunk_end(void **state)
{
    (void)state;
    struct tb b;
    lazy_file(&b, LAZY_FLAGS);
    enter_miss(&b, MAIN, 0, 10);                /* 1010 */
    enter_miss(&b, LEAF, MAIN, 10);             /* 1020 */
    static const uint8_t first_exit[] = {0x47, 0xe4, 0x0a};   /* TIMED EXIT leaf, 1030 */
    tb_raw(&b, first_exit, sizeof first_exit);
    for (int i = 0; i < 200; i++) {
        static const uint8_t call[] = {0xa4, 0x0a, 0x47, 0xe4, 0x0a};
        tb_raw(&b, call, sizeof call);          /* +10 ENTER, +10 TIMED EXIT */
    }
    uint64_t lo = 1030 + 200 * 20;
    static const uint8_t tail[] = {0xa4, 0x0a, 0xe4, 0xa4, 0xe4};  /* ENTER lo+10, then untimed */
    tb_raw(&b, tail, sizeof tail);
    tb_chunk(&b, 1, 0, 1, 1, 1, 100000, 0);
    ttf_put_u16(b.buf + b.coff + TTF_C_FLAGS, LAZY_FLAGS);
    tb_u8(&b, TTF_T_TIMED);                     /* TIMED EXIT main (a miss), 100005 */
    tb_u8(&b, TTF_T_EXIT_MISS);
    tb_uvar(&b, ttf_zigzag((int64_t)MAIN));
    tb_uvar(&b, 5);
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 0);
    struct evs e = tu_events(t, 0, 0);
    size_t n = e.n;
    assert_true(n >= 5);
    const ttf_event *u = &e.ev[n - 4];          /* EXIT, ENTER, EXIT leaf, EXIT main */
    for (int i = 0; i < 3; i++) {
        assert_int_equal(u[i].untimed, 1);
        assert_int_equal(u[i].late_ns, 100000 - 1000);
        assert_true(u[i].tsc >= lo + 10 + 10 * (uint64_t)(i + 1) - 2);
        assert_true(u[i].tsc <= lo + 10 + 10 * (uint64_t)(i + 1) + 2);
    }
    assert_int_equal(u[3].tsc, 100005);
    free(e.ev);
    ttf_close(t);
    free(b.buf);
}

/* The chunk flag's conditions: without the header bit, with values,
 * without SPARSE: the chunk is corrupt (none of its events read). */
static void test_bad_flags(void **state)
{
    (void)state;
    static const struct { uint32_t req; uint16_t flags; } bad[] = {
        {TTF_REQ_EVENTS_V1 | TTF_REQ_SPARSE, LAZY_FLAGS},
        {TTF_REQ_EVENTS_V1 | TTF_REQ_SPARSE | TTF_REQ_LAZY | TTF_REQ_VALUES,
         LAZY_FLAGS | TTF_CHUNK_VALUES},
        {TTF_REQ_EVENTS_V1 | TTF_REQ_SPARSE | TTF_REQ_LAZY, TTF_CHUNK_TIMED | TTF_CHUNK_LAZY},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct tb b;
        lazy_file(&b, bad[i].flags);
        ttf_put_u32(b.buf + TTF_H_REQ, bad[i].req);
        enter_miss(&b, MAIN, 0, 10);
        ttf_trace *t = tu_open_mem(b.buf, b.len);
        assert_int_equal(ttf_get_summary(t)->chunks_damaged, 1);
        ttf_close(t);
        free(b.buf);
    }
}

/* A loop calling two leaves in turn: LEAF runs 10 ticks, LONG 40; main's
 * code before LEAF takes 5, before LONG 25. The first 2000 calls are all
 * timed (the writer's warm-up), then one EXIT in nine is (the writer's
 * run limit), and the ENTERs after the untimed EXITs go untimed by the
 * rule. The gaps are regular, so every untimed event is placed at its
 * true time (within a tick); the reads per call fall below 0.6. */
static void test_placement(void **state)
{
    (void)state;
    ttf_writer_opts o = {.chunk_size = 1 << 20, .timed = 1, .sparse = 1, .lazy = 1};
    ttf_writer *w;
    const char *path = tu_path("lazy_place.trc");
    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 1000, 1, "main"), 0);
    assert_int_equal(ttf_write_enter(w, 0, 1000, MAIN), 0);
    uint64_t t = 2000;
    int n = 20000;
    uint64_t *truth = calloc(2 * (size_t)n, sizeof *truth);
    assert_non_null(truth);
    for (int i = 0; i < n; i++) {
        int lng = i & 1;
        t += lng ? 25 : 5;
        truth[2 * i] = t;
        assert_int_equal(ttf_write_enter(w, 0, t, lng ? LONG : LEAF), 0);
        t += lng ? 40 : 10;
        truth[2 * i + 1] = t;
        int timed = i < 2000 || i % 9 == 0 || i == n - 1;   /* main's EXIT: no gap learnt */
        assert_int_equal(ttf_write_exit_sparse(w, 0, t, lng ? LONG : LEAF,
                                               timed ? TTF_EXIT_TIMED : TTF_EXIT_UNTIMED), 0);
    }
    assert_int_equal(ttf_write_exit(w, 0, t + 5, MAIN), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    ttf_trace *tr;
    assert_int_equal(ttf_open(path, &tr, NULL), 0);
    assert_int_equal(ttf_get_header(tr)->version_minor, 7);
    assert_true(ttf_get_header(tr)->required_features & TTF_REQ_LAZY);
    struct evs e = tu_events(tr, 0, 0);
    size_t k = 0, untimed_enters = 0, measured = 0;
    for (size_t i = 0; i < e.n; i++) {
        const ttf_event *ev = &e.ev[i];
        if ((ev->kind != TTF_EV_ENTER && ev->kind != TTF_EV_EXIT) || ev->addr == MAIN)
            continue;
        assert_true(k < 2 * (size_t)n);
        uint64_t want = truth[k++];
        assert_true(ev->tsc + 1 >= want && ev->tsc <= want + 1);
        if (ev->untimed) {
            assert_true(ev->early_ns <= ev->time_ns && ev->time_ns <= ev->late_ns);
            untimed_enters += ev->kind == TTF_EV_ENTER;
        } else {
            measured++;
        }
    }
    assert_int_equal(k, 2 * (size_t)n);
    assert_true(untimed_enters > (size_t)n * 7 / 10);
    assert_true(measured < (size_t)n * 6 / 10);
    free(e.ev);
    free(truth);
    ttf_close(tr);
}

/* Writes path: n calls of 300 functions (cache misses and hits) whose
 * EXITs are untimed, sampled or timed by a pseudo-random draw from seed,
 * and a SYNC_OP now and then (it gives the next ENTER its time back);
 * the lazy clock's rule when lazy, else the sparse clock's. */
static void write_drawn(const char *path, int lazy, uint64_t seed, int n)
{
    ttf_writer_opts o = {.chunk_size = 1 << 13, .timed = 1, .sparse = 1, .lazy = lazy};
    ttf_writer *w;
    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 1000, 1, "main"), 0);
    uint64_t t = 2000, r = seed;
    for (int i = 0; i < n; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t fn = 0x401000 + 16 * ((r >> 33) % 300);
        assert_int_equal(ttf_write_enter(w, 0, t, fn), 0);
        t += 3 + (r >> 60);
        unsigned draw = (unsigned)(r >> 40) % 16;
        int clock = draw == 0 ? TTF_EXIT_SAMPLE : draw == 1 ? TTF_EXIT_TIMED : TTF_EXIT_UNTIMED;
        assert_int_equal(ttf_write_exit_sparse(w, 0, t, fn, clock), 0);
        t += 2 + (r >> 62);
        if (draw == 2)
            assert_int_equal(ttf_write_sync_op(w, 0, t++, TTF_SOP_LOCK, 0x1000, 0), 0);
    }
    assert_int_equal(ttf_writer_close(w, 0), 0);
}

/* A lazy trace (write_drawn), read twice: by the iterator (the in-line
 * path) and by the general decoder alone (ttfi_titer_step): the same
 * events, times and bounds. */
static void test_fast_path(void **state)
{
    (void)state;
    const char *path = tu_path("lazy_fast.trc");
    write_drawn(path, 1, 12345, 30000);
    ttf_trace *tr;
    assert_int_equal(ttf_open(path, &tr, NULL), 0);
    assert_int_equal(ttf_get_summary(tr)->chunks_damaged, 0);
    assert_true(ttf_get_summary(tr)->chunks_used > 4);
    struct evs e = tu_events(tr, 0, 0);
    struct titer ti;
    ttfi_titer_init(&ti, tr, 0, NULL);
    ttf_event ev;
    size_t n = 0, untimed = 0;
    while (ttfi_titer_step(&ti, &ev) == 1) {
        assert_true(n < e.n);
        const ttf_event *f = &e.ev[n++];
        assert_int_equal(f->kind, ev.kind);
        assert_int_equal(f->addr, ev.addr);
        assert_int_equal(f->tsc, ev.tsc);
        assert_int_equal(f->time_ns, ev.time_ns);
        assert_int_equal(f->depth, ev.depth);
        assert_int_equal(f->offset, ev.offset);
        assert_int_equal(f->untimed, ev.untimed);
        assert_int_equal(ttf_event_early_ns(f), ttf_event_early_ns(&ev));
        assert_int_equal(ttf_event_late_ns(f), ttf_event_late_ns(&ev));
        untimed += (size_t)(ev.untimed && ev.kind == TTF_EV_ENTER);
    }
    assert_int_equal(n, e.n);
    assert_true(untimed > 10000);
    free(e.ev);
    ttf_close(tr);
}

/* ttf_iter_skip_times on a lazy and a sparse trace (write_drawn): every event as without it, but an untimed one takes
 * the last measured time as tsc, time_ns, early_ns and late_ns (not
 * placed: some were placed later without it); a clone skips them too. */
static void skip_times_check(int lazy)
{
    const char *path = tu_path(lazy ? "skip_lazy.trc" : "skip_sparse.trc");
    write_drawn(path, lazy, 777, 20000);
    ttf_trace *tr;
    assert_int_equal(ttf_open(path, &tr, NULL), 0);
    struct evs e = tu_events(tr, 0, 0);
    ttf_iter *it, *cl = NULL;
    assert_int_equal(ttf_iter_open(tr, 0, &it), 0);
    assert_int_equal(ttf_iter_skip_times(it), 0);
    assert_int_equal(ttf_iter_skip_times(NULL), TT_EINVAL);
    ttf_event ev;
    size_t n = 0, untimed = 0, moved = 0;
    uint64_t measured = 0;
    while (ttf_iter_next(cl ? cl : it, &ev) == 1) {
        assert_true(n < e.n);
        const ttf_event *f = &e.ev[n++];
        assert_int_equal(f->kind, ev.kind);
        assert_int_equal(f->addr, ev.addr);
        assert_int_equal(f->depth, ev.depth);
        assert_int_equal(f->offset, ev.offset);
        assert_int_equal(f->untimed, ev.untimed);
        if (!f->untimed) {
            assert_int_equal(f->tsc, ev.tsc);
            assert_int_equal(f->time_ns, ev.time_ns);
            measured = f->tsc;
        } else {
            untimed++;
            moved += f->time_ns != ttf_event_early_ns(f);
            assert_true(ev.tsc >= measured);
            assert_int_equal(ev.time_ns, ttf_event_early_ns(f));
            assert_int_equal(ev.tsc - 1000, ev.time_ns);
            assert_int_equal(ttf_event_early_ns(&ev), ev.time_ns);
            assert_int_equal(ttf_event_late_ns(&ev), ev.time_ns);
        }
        if (n == e.n / 2) {     /* the rest from a clone */
            assert_int_equal(ttf_iter_clone(it, &cl), 0);
        }
    }
    assert_int_equal(n, e.n);
    assert_true(untimed > 10000);
    assert_true(moved > untimed / 2);
    ttf_iter_close(cl);
    ttf_iter_close(it);
    free(e.ev);
    ttf_close(tr);
}

static void test_skip_times(void **state)
{
    (void)state;
    skip_times_check(1);
    skip_times_check(0);
}

/* ttf_iter_times on drawn lazy and sparse traces (several chunks): an
 * iteration without times that takes them back here and there gives
 * exactly the times of one with them, there and after (tu_times_back);
 * and so does ttf_iter_times_at for events it read before
 * (tu_times_at). */
static void test_times_back(void **state)
{
    (void)state;
    for (int lazy = 0; lazy < 2; lazy++) {
        const char *path = tu_path(lazy ? "back_lazy.trc" : "back_sparse.trc");
        write_drawn(path, lazy, 4242, 20000);
        ttf_trace *tr;
        assert_int_equal(ttf_open(path, &tr, NULL), 0);
        assert_true(ttf_get_summary(tr)->chunks_used > 4);
        struct evs e = tu_events(tr, 0, 0);
        assert_true(tu_times_back(tr, &e, 99 + (uint64_t)lazy) > 50);
        assert_true(tu_times_at(tr, &e, 5 + (uint64_t)lazy) > 200);
        free(e.ev);
        ttf_close(tr);
    }
}

/* The open's scan (threads.c) gives an untimed event its run's end as
 * time, the late bound a pass with times gives it, without the
 * look-ahead: it takes the end when the decoding reaches the record that
 * closes the run, or, at a chunk's end, by the look-ahead as before. So
 * on drawn lazy traces (runs that end at chunk ends and at the thread's
 * end among them) the trace's duration is the span of the events' late
 * bounds and the thread's end the last event's, as a pass with times
 * reads them. */
static void scan_bounds_check(uint64_t seed, int n)
{
    const char *path = tu_path("scan_bounds.trc");
    write_drawn(path, 1, seed, n);
    ttf_trace *tr;
    assert_int_equal(ttf_open(path, &tr, NULL), 0);
    assert_true(ttf_get_summary(tr)->chunks_used > 4);
    struct evs e = tu_events(tr, 0, 0);
    uint64_t lo = UINT64_MAX, hi = 0, untimed = 0;
    for (size_t i = 0; i < e.n; i++) {
        uint64_t b = ttf_event_late_ns(&e.ev[i]);
        lo = b < lo ? b : lo;
        hi = b > hi ? b : hi;
        untimed += e.ev[i].untimed;
    }
    assert_true(untimed > (uint64_t)n / 2);
    assert_int_equal(ttf_get_summary(tr)->duration_ns, hi - lo);
    const ttf_thread *th = ttf_get_thread(tr, 0);
    if (!th->ended)
        assert_int_equal(th->end_ns, ttf_event_late_ns(&e.ev[e.n - 1]));
    free(e.ev);
    ttf_close(tr);
}

/* ... and where damage cuts a run, the scan takes the end the look-ahead
 * finds past the damage, as it did: leaf's untimed EXIT and ENTER, an
 * unknown required record (the decoding stops: damage), then a TIMED
 * EXIT at 1070 that only the look-ahead sees. The events read are ENTER
 * main 1010, ENTER leaf 1020, the two untimed (1070) and the LOST at the
 * damage (1020): the duration is 60, the thread ends at 20. */
static void test_scan_bounds(void **state)
{
    (void)state;
    scan_bounds_check(4242, 20000);
    scan_bounds_check(99, 15000);
    struct tb b;
    lazy_file(&b, LAZY_FLAGS);
    enter_miss(&b, MAIN, 0, 10);                /* 1010 */
    enter_miss(&b, LEAF, MAIN, 10);             /* 1020 */
    static const uint8_t recs[] = {
        0xe4,                                   /* EXIT leaf, untimed */
        0xa4,                                   /* ENTER leaf, untimed */
        0x15, 1, 0,                             /* unknown required record */
        0x47, 0xe4, 0x32,                       /* TIMED EXIT leaf, 1070 */
        0x47, 0xd7, 0x0a,                       /* TIMED EXIT main, 1080 */
    };
    tb_raw(&b, recs, sizeof recs);
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 1);
    assert_int_equal(ttf_get_summary(t)->events, 5);
    assert_int_equal(ttf_get_summary(t)->duration_ns, 60);
    assert_int_equal(ttf_get_thread(t, 0)->end_ns, 20);
    ttf_close(t);
    free(b.buf);
}

/* ... and a SYNC_OP closes the run as any record with a time does: the
 * scan reads it in line (read_int.h sync_read, hot_decode's syncs 2), so
 * it must close the run there too. A chunk at depth 2 whose first event
 * is an untimed EXIT (a miss), a SYNC_OP at 1030, then a TIMED EXIT at
 * 1080: the untimed EXIT's time while opening is 1030, its late bound, so
 * the thread (no THREAD_START) starts at 30, not at 80. */
static void test_scan_sync(void **state)
{
    (void)state;
    struct tb b;
    tb_init(&b, 4096, 1000000000u);
    ttf_put_u16(b.buf + TTF_H_VMINOR, 7);
    ttf_put_u32(b.buf + TTF_H_REQ, TTF_REQ_EVENTS_V1 | TTF_REQ_SPARSE | TTF_REQ_LAZY);
    tb_chunk(&b, 0, 0, 0, 1, 2, 1000, 0);
    ttf_put_u16(b.buf + b.coff + TTF_C_FLAGS, LAZY_FLAGS);
    tb_u8(&b, TTF_T_EXIT_MISS);                 /* EXIT leaf, untimed */
    tb_uvar(&b, ttf_zigzag((int64_t)LEAF));
    static const uint8_t recs[] = {
        TTF_R_SYNC_OP, 4, 30, TTF_SOP_LOCK, 0, 0, /* 1030: a clock read */
        0x47, TTF_T_EXIT_MISS, 0x93, 0x03, 0x32, /* TIMED EXIT main, 1080 */
    };
    tb_raw(&b, recs, sizeof recs);
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 0);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 3);
    assert_int_equal(e.ev[0].untimed, 1);
    assert_int_equal(e.ev[0].late_ns, 30);
    assert_int_equal(e.ev[2].addr, MAIN);
    assert_int_equal(ttf_get_thread(t, 0)->start_ns, 30);
    assert_int_equal(ttf_get_summary(t)->duration_ns, 50);
    free(e.ev);
    ttf_close(t);
    free(b.buf);
}

/* The hand writer keeps the rule: an ENTER right after an untimed EXIT
 * drops its time, one after a timed record keeps it; opts.lazy needs
 * sparse. */
/* run_div: a run's placement divides by its weights through their
 * reciprocal; the quotient is the division's, exactly, at the bounds the
 * estimate is furthest off (n near 2^64, weights 1, 2, 3, odd, near a
 * power of two, near 2^40) and on random draws. */
static void test_run_div(void **state)
{
    (void)state;
    static const uint64_t ws[] = {1, 2, 3, 7, 16, 255, 4095, 4097, 65537, 1000003,
                                  (1ull << 32) - 1, (1ull << 32) + 1, (1ull << 40) - 3,
                                  (1ull << 40) + 5};
    static const uint64_t ns[] = {0, 1, 2, 3, 1u << 24, (1ull << 63) - 1, UINT64_MAX - 2,
                                  UINT64_MAX - 1, UINT64_MAX};
    struct dec d;
    uint64_t x = 88172645463325252ull;

    memset(&d, 0, sizeof d);
    for (size_t i = 0; i < sizeof ws / sizeof ws[0]; i++) {
        d.run_w = ws[i];
        d.run_inv = UINT64_MAX / ws[i];
        for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) {
            assert_int_equal(run_div(&d, ns[j]), ns[j] / ws[i]);
            assert_int_equal(run_div(&d, ns[j] / ws[i] * ws[i]), ns[j] / ws[i]);
            if (ns[j] / ws[i])
                assert_int_equal(run_div(&d, ns[j] / ws[i] * ws[i] - 1), ns[j] / ws[i] - 1);
        }
    }
    for (int k = 0; k < 200000; k++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t w = (x >> (x & 63)) | 1, n = x * 0x9E3779B97F4A7C15ull;
        d.run_w = w;
        d.run_inv = UINT64_MAX / w;
        assert_int_equal(run_div(&d, n), n / w);
    }
}

static void test_writer(void **state)
{
    (void)state;
    ttf_writer_opts o = {.chunk_size = 4096, .timed = 1, .sparse = 1, .lazy = 1};
    ttf_writer *w;
    const char *path = tu_path("writer_lazy.trc");
    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 1000, 1, "main"), 0);
    assert_int_equal(ttf_write_enter(w, 0, 1010, MAIN), 0);
    assert_int_equal(ttf_write_enter(w, 0, 1020, LEAF), 0);
    assert_int_equal(ttf_write_exit_sparse(w, 0, 0, LEAF, TTF_EXIT_UNTIMED), 0);
    assert_int_equal(ttf_write_enter(w, 0, 1035, LEAF), 0);     /* untimed: 1035 dropped */
    assert_int_equal(ttf_write_exit_sparse(w, 0, 1042, LEAF, TTF_EXIT_SAMPLE), 0);
    assert_int_equal(ttf_write_enter(w, 0, 1045, LEAF), 0);     /* timed */
    assert_int_equal(ttf_write_exit(w, 0, 1048, LEAF), 0);
    assert_int_equal(ttf_write_exit(w, 0, 1050, MAIN), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    ttf_trace *t;
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    assert_int_equal(ttf_get_header(t)->version_minor, 7);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 10);                  /* start, 8 events of calls, END */
    assert_int_equal(e.ev[3].untimed, 1);       /* EXIT leaf */
    assert_int_equal(e.ev[4].untimed, 1);       /* ENTER leaf */
    assert_int_equal(e.ev[4].kind, TTF_EV_ENTER);
    assert_true(e.ev[3].tsc <= e.ev[4].tsc && e.ev[4].tsc <= 1042);
    assert_int_equal(e.ev[4].late_ns, 42);
    assert_int_equal(e.ev[4].early_ns, 20);
    assert_int_equal(e.ev[5].tsc, 1042);
    assert_int_equal(e.ev[6].untimed, 0);
    assert_int_equal(e.ev[6].tsc, 1045);
    free(e.ev);
    ttf_close(t);

    ttf_writer_opts nosparse = {.chunk_size = 4096, .timed = 1, .lazy = 1};
    path = tu_path("writer_lazy_ns.trc");
    assert_int_equal(ttf_writer_open(path, &nosparse, &w), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 1000, 1, "main"), 0);
    assert_int_equal(ttf_write_enter(w, 0, 1010, MAIN), 0);
    assert_int_equal(ttf_write_exit(w, 0, 1020, MAIN), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    assert_int_equal(ttf_get_header(t)->required_features & TTF_REQ_LAZY, 0);
    ttf_close(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule),
        cmocka_unit_test(test_bad_flags),
        cmocka_unit_test(test_chunk_end),
        cmocka_unit_test(test_placement),
        cmocka_unit_test(test_fast_path),
        cmocka_unit_test(test_writer),
        cmocka_unit_test(test_run_div),
        cmocka_unit_test(test_skip_times),
        cmocka_unit_test(test_times_back),
        cmocka_unit_test(test_scan_bounds),
        cmocka_unit_test(test_scan_sync),
    };
    return cmocka_run_group_tests(tests, NULL, tu_teardown_all);
}
