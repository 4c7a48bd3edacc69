/*
 * test_format_sparse.c - format v1.4, the sparse clock (FORMAT.md 4.5):
 * its example decoded (an untimed EXIT placed by its function's SAMPLE,
 * late_ns at the next measured time, prefixed EXITs with their own
 * times); untimed EXITs in a row and at a chunk's end (placed in turn,
 * never going back, bounded by the next chunk's start); prefixes that are
 * damage (not followed by an EXIT, at the end of a chunk, outside a sparse
 * chunk); the header bit and version; ttf_event_late_ns; an XMM values
 * chunk's EXIT values skipped when looking for the next measured time;
 * an iteration cloned part-way (ttf_iter_clone); a few stalls among the
 * samples do not set the split of the short untimed intervals (bands).
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

#define MAIN 0x401136u
#define LEAF 0x401200u          /* slot 0x24 (main's is 0x17) */

/* A v1.4 file (1 tick = 1 ns) and chunk slot `slot` of thread 0 at tsc,
 * sparse unless plain. */
static void sparse_file(struct tb *b)
{
    tb_init(b, 4096, 1000000000u);
    ttf_put_u16(b->buf + TTF_H_VMINOR, 4);
    ttf_put_u32(b->buf + TTF_H_REQ, TTF_REQ_EVENTS_V1 | TTF_REQ_SPARSE);
}

static void sparse_chunk(struct tb *b, uint32_t slot, uint32_t seq, uint64_t tsc, int plain)
{
    tb_chunk(b, slot, 0, seq, 1, 0, tsc, 0);
    if (!plain)
        ttf_put_u16(b->buf + b->coff + TTF_C_FLAGS, TTF_CHUNK_TIMED | TTF_CHUNK_SPARSE);
}

/* ENTER miss of fn (prev: the previous miss), time delta t. */
static void enter_miss(struct tb *b, uint64_t fn, uint64_t prev, uint64_t t)
{
    tb_u8(b, TTF_T_ENTER_MISS);
    tb_uvar(b, ttf_zigzag((int64_t)(fn - prev)));
    tb_uvar(b, t);
}

/* A sparse file whose first chunk (tsc 1000) enters main and leaf at
 * 1010 and 1020 (misses: both cached after). */
static void main_leaf(struct tb *b)
{
    sparse_file(b);
    sparse_chunk(b, 0, 0, 1000, 0);
    enter_miss(b, MAIN, 0, 10);
    enter_miss(b, LEAF, MAIN, 10);
}

/* FORMAT.md 4.5's example, after two misses that fill the cache. */
static void test_example(void **state)
{
    (void)state;
    struct tb b;
    sparse_file(&b);
    sparse_chunk(&b, 0, 0, 1000, 0);
    enter_miss(&b, MAIN, 0, 0);                 /* 1000: main and leaf cached */
    enter_miss(&b, LEAF, MAIN, 0);
    static const uint8_t cached[] = {0xe4, 0x47, 0xd7, 0x00};  /* EXIT leaf, TIMED EXIT main 1000 */
    tb_raw(&b, cached, sizeof cached - 1);
    tb_u8(&b, 0x00);                            /* main's EXIT: t 0 */
    static const uint8_t example[] = {
        0x97, 0x0a,                             /* ENTER main, 1010 */
        0xa4, 0x0a,                             /* ENTER leaf, 1020 */
        0xe4,                                   /* EXIT leaf, untimed */
        0xa4, 0x14,                             /* ENTER leaf, 1040 */
        0x48, 0xe4, 0x02,                       /* SAMPLE EXIT leaf, 1042 */
        0x47, 0xd7, 0x08,                       /* TIMED EXIT main, 1050 */
    };
    tb_raw(&b, example, sizeof example);
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    assert_int_equal(ttf_get_header(t)->version_minor, 4);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 10);
    static const struct { int kind; uint64_t fn, tsc; int untimed; uint64_t late; } want[] = {
        {TTF_EV_EXIT, LEAF, 1000, 1, 0},        /* before the example: in [1000, 1000] */
        {TTF_EV_EXIT, MAIN, 1000, 0, 0},
        {TTF_EV_ENTER, MAIN, 1010, 0, 0},
        {TTF_EV_ENTER, LEAF, 1020, 0, 0},
        {TTF_EV_EXIT, LEAF, 1024, 1, 40},       /* 1020 + 0.2 * (1040 - 1020) */
        {TTF_EV_ENTER, LEAF, 1040, 0, 0},
        {TTF_EV_EXIT, LEAF, 1042, 0, 0},
        {TTF_EV_EXIT, MAIN, 1050, 0, 0},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const ttf_event *ev = &e.ev[i + 2];
        assert_int_equal(ev->kind, want[i].kind);
        assert_int_equal(ev->addr, want[i].fn);
        assert_int_equal(ev->tsc, want[i].tsc);
        assert_int_equal(ev->time_ns, want[i].tsc - 1000);
        assert_int_equal(ev->untimed, want[i].untimed);
        assert_int_equal(ttf_event_late_ns(ev), want[i].untimed ? want[i].late : ev->time_ns);
    }
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 0);
    free(e.ev);
    ttf_close(t);
    free(b.buf);
}

/* Two untimed EXITs at the end of a chunk: placed inside [1020, 2000]
 * (the last measured time, the next chunk's start) by the trace's ratio
 * 0.5 (no sample), the second never before the first. */
static void test_run_at_chunk_end(void **state)
{
    (void)state;
    struct tb b;
    main_leaf(&b);
    tb_u8(&b, 0xe4);                            /* EXIT leaf */
    tb_u8(&b, 0xd7);                            /* EXIT main */
    sparse_chunk(&b, 1, 1, 2000, 0);
    enter_miss(&b, MAIN, 0, 5);
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 5);
    assert_int_equal(e.ev[2].tsc, 1510);        /* 1020 + 0.5 * 980 */
    assert_int_equal(e.ev[3].tsc, 1510);        /* the same point, not before it */
    assert_true(e.ev[2].untimed && e.ev[3].untimed);
    assert_int_equal(e.ev[2].late_ns, 1000);
    assert_int_equal(e.ev[3].late_ns, 1000);
    assert_int_equal(e.ev[4].tsc, 2005);
    /* the merged stream gives the same times */
    struct evs m = tu_events(t, TTF_ALL_THREADS, 0);
    assert_int_equal(m.n, e.n);
    for (size_t i = 0; i < e.n; i++)
        assert_int_equal(m.ev[i].tsc, e.ev[i].tsc);
    free(m.ev);
    free(e.ev);
    ttf_close(t);
    free(b.buf);
}

/* A sparse values chunk with SSE registers (v1.5): the next measured time
 * after an untimed EXIT is found past its rax and its xmm0 (which here
 * look like an ENTER of main 127 ticks later): the EXITs lie in [1020,
 * 1070], the ENTER after them. */
static void test_xmm_values(void **state)
{
    (void)state;
    struct tb b;
    sparse_file(&b);
    ttf_put_u16(b.buf + TTF_H_VMINOR, 5);
    ttf_put_u32(b.buf + TTF_H_REQ, TTF_REQ_EVENTS_V1 | TTF_REQ_SPARSE | TTF_REQ_VALUES |
                                       TTF_REQ_XMM);
    sparse_chunk(&b, 0, 0, 1000, 0);
    ttf_put_u16(b.buf + b.coff + TTF_C_FLAGS, TTF_CHUNK_TIMED | TTF_CHUNK_SPARSE |
                                                  TTF_CHUNK_VALUES | TTF_CHUNK_XMM);
    enter_miss(&b, MAIN, 0, 10);
    tb_u8(&b, 0x00);                            /* no register changed */
    enter_miss(&b, LEAF, MAIN, 10);
    tb_u8(&b, 0x00);
    static const uint8_t tail[] = {
        0xe4, 0x00, 0x97, 0x7f,                 /* EXIT leaf: rax 0, xmm0 */
        0xd7, 0x00, 0x00,                       /* EXIT main: rax 0, xmm0 0 */
        0x97, 0x32, 0x00,                       /* ENTER main at 1070 */
    };
    tb_raw(&b, tail, sizeof tail);
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 5);
    assert_true(e.ev[2].untimed && e.ev[3].untimed);
    assert_int_equal(e.ev[2].late_ns, 70);
    assert_int_equal(e.ev[3].late_ns, 70);
    assert_int_equal(e.ev[2].tsc, 1045);        /* 1020 + 0.5 * 50 */
    assert_int_equal(e.ev[4].tsc, 1070);
    assert_int_equal(ttf_get_summary(t)->duration_ns, 60);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 0);
    free(e.ev);
    ttf_close(t);
    free(b.buf);
}

/* A clone of an iteration part-way through the example (after the
 * untimed EXIT, with the placement state) gives the same events after as
 * the original, each on its own; a merged iteration is not cloned. */
static void test_clone(void **state)
{
    (void)state;
    struct tb b;
    main_leaf(&b);
    static const uint8_t tail[] = {0xe4, 0xa4, 0x14, 0x48, 0xe4, 0x02, 0x47, 0xd7, 0x08,
                                   0x97, 0x05, 0xa4, 0x05, 0xe4, 0xd7};
    tb_raw(&b, tail, sizeof tail);
    sparse_chunk(&b, 1, 1, 5000, 0);
    enter_miss(&b, MAIN, 0, 5);
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    ttf_iter *it, *c, *m;
    ttf_event ev, ec;
    assert_int_equal(ttf_iter_open(t, 0, &it), 0);
    for (int i = 0; i < 3; i++)
        assert_int_equal(ttf_iter_next(it, &ev), 1);
    assert_int_equal(ev.untimed, 1);
    assert_int_equal(ttf_iter_clone(it, &c), 0);
    int n = 0, r;
    while ((r = ttf_iter_next(it, &ev)) == 1) {
        assert_int_equal(ttf_iter_next(c, &ec), 1);
        assert_int_equal(ev.kind, ec.kind);
        assert_int_equal(ev.addr, ec.addr);
        assert_int_equal(ev.tsc, ec.tsc);
        assert_int_equal(ev.untimed, ec.untimed);
        assert_int_equal(ttf_event_late_ns(&ev), ttf_event_late_ns(&ec));
        n++;
    }
    assert_int_equal(r, 0);
    assert_int_equal(ttf_iter_next(c, &ec), 0);
    assert_int_equal(n, 8);
    ttf_iter_close(it);
    ttf_iter_close(c);
    assert_int_equal(ttf_iter_open(t, TTF_ALL_THREADS, &m), 0);
    assert_int_equal(ttf_iter_clone(m, &c), TT_EINVAL);
    assert_null(c);
    ttf_iter_close(m);
    ttf_close(t);
    free(b.buf);
}

/* After ENTER f at 1010: tail (bytes), read as damage with notice. */
static void damaged(const uint8_t *tail, size_t n, int plain, const char *notice)
{
    struct tb b;
    sparse_file(&b);
    sparse_chunk(&b, 0, 0, 1000, plain);
    enter_miss(&b, MAIN, 0, 10);
    size_t bad_at = b.cpos;
    tb_raw(&b, tail, n);
    tu_one_enter_then_damage(&b, bad_at, notice);
}

static void test_bad_prefix(void **state)
{
    (void)state;
    static const uint8_t then_enter[] = {0x47, 0x97, 0x01};
    static const uint8_t two[] = {0x48, 0x47, 0xd7, 0x01};
    static const uint8_t at_end[] = {0x47};
    damaged(then_enter, sizeof then_enter, 0, "TIMED record not followed by an EXIT");
    damaged(two, sizeof two, 0, "TIMED record not followed by an EXIT");
    /* the chunk is zero-filled after it: the prefix meets the end marker */
    damaged(at_end, sizeof at_end, 0, "TIMED record not followed by an EXIT");
    static const uint8_t plain[] = {0x47, 0xd7, 0x01};
    damaged(plain, sizeof plain, 1, "invalid record tag 0x47");
}

/* A TIMED chunk in a 1.4 file reads as before: every EXIT has its time. */
static void test_plain_chunk(void **state)
{
    (void)state;
    struct tb b;
    sparse_file(&b);
    sparse_chunk(&b, 0, 0, 1000, 1);
    enter_miss(&b, MAIN, 0, 10);
    static const uint8_t ex[] = {0xd7, 0x07};
    tb_raw(&b, ex, sizeof ex);
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 2);
    assert_int_equal(e.ev[1].tsc, 1017);
    assert_int_equal(e.ev[1].untimed, 0);
    free(e.ev);
    ttf_close(t);
    free(b.buf);
}

/* The writer (libttfmt 2.9): FORMAT.md 4.5's example written by
 * ttf_write_exit_sparse reads back with one untimed EXIT, a SAMPLE and a
 * TIMED one; the call is refused on a writer that is not sparse, and for
 * an unknown clock. */
static void test_writer(void **state)
{
    (void)state;
    ttf_writer_opts o = {.chunk_size = 4096, .timed = 1, .sparse = 1};
    ttf_writer *w;
    const char *path = tu_path("writer_sparse.trc");
    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 1000, 1, "main"), 0);
    assert_int_equal(ttf_write_enter(w, 0, 1010, MAIN), 0);
    assert_int_equal(ttf_write_enter(w, 0, 1020, LEAF), 0);
    assert_int_equal(ttf_write_exit_sparse(w, 0, 0, LEAF, TTF_EXIT_UNTIMED), 0);
    assert_int_equal(ttf_write_enter(w, 0, 1040, LEAF), 0);
    assert_int_equal(ttf_write_exit_sparse(w, 0, 1042, LEAF, TTF_EXIT_SAMPLE), 0);
    assert_int_equal(ttf_write_exit_sparse(w, 0, 1050, MAIN, 3), TT_EINVAL);
    assert_int_equal(ttf_write_exit(w, 0, 1050, MAIN), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    ttf_trace *t;
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    assert_int_equal(ttf_get_header(t)->version_minor, 4);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 8);                   /* start, 6 events of calls, END */
    assert_int_equal(e.ev[3].untimed, 1);
    assert_true(e.ev[3].tsc >= 1020 && e.ev[3].tsc <= 1040);
    assert_int_equal(e.ev[3].late_ns, 40);
    assert_int_equal(e.ev[5].untimed, 0);
    assert_int_equal(e.ev[5].tsc, 1042);
    assert_int_equal(e.ev[6].untimed, 0);
    assert_int_equal(e.ev[6].tsc, 1050);
    free(e.ev);
    ttf_close(t);

    ttf_writer_opts plain = {.chunk_size = 4096, .timed = 1};
    assert_int_equal(ttf_writer_open(tu_path("writer_plain.trc"), &plain, &w), 0);
    assert_int_equal(ttf_write_exit_sparse(w, 0, 5, MAIN, TTF_EXIT_TIMED), TT_EINVAL);
    ttf_writer_abandon(w);
}

/* A leaf of 10 ticks in a loop whose calls start 20 apart: one EXIT in
 * 32 a SAMPLE, the rest untimed; after four of the samples the caller
 * stalled for 100,000 ticks (a preemption). The untimed EXITs' interval
 * has no stall: their placed durations must add up to the leaf's true
 * time. One ratio over all widths (the samples' 40 ticks against 400,000)
 * placed each at about lo + 0 (the leaf's time lost); the width bands
 * keep the stalls apart (untimed.c). */
static void test_stalls_in_bands(void **state)
{
    (void)state;
    ttf_writer_opts o = {.chunk_size = 1 << 20, .timed = 1, .sparse = 1};
    ttf_writer *w;
    const char *path = tu_path("stalls.trc");
    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 1000, 1, "main"), 0);
    assert_int_equal(ttf_write_enter(w, 0, 1000, MAIN), 0);
    uint64_t t = 2000;
    int stalls = 0;
    for (int i = 0; i < 3200; i++) {
        int sample = i % 32 == 31;
        assert_int_equal(ttf_write_enter(w, 0, t, LEAF), 0);
        assert_int_equal(ttf_write_exit_sparse(w, 0, t + 10, LEAF,
                                               sample ? TTF_EXIT_SAMPLE : TTF_EXIT_UNTIMED), 0);
        t += 20;
        if (sample && stalls < 4 && i % 640 == 31) {
            t += 100000;
            stalls++;
        }
    }
    assert_int_equal(stalls, 4);
    assert_int_equal(ttf_write_exit(w, 0, t, MAIN), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    ttf_trace *tr;
    assert_int_equal(ttf_open(path, &tr, NULL), 0);
    struct evs e = tu_events(tr, 0, 0);
    uint64_t enter = 0, placed = 0, n = 0;
    for (size_t i = 0; i < e.n; i++) {
        const ttf_event *ev = &e.ev[i];
        if (ev->kind == TTF_EV_ENTER && ev->addr == LEAF)
            enter = ev->tsc;
        if (ev->kind != TTF_EV_EXIT || ev->addr != LEAF || !ev->untimed)
            continue;
        assert_true(ev->tsc >= enter && ev->tsc <= enter + 20);
        placed += ev->tsc - enter;
        n++;
    }
    assert_int_equal(n, 3100);
    assert_true(placed >= 31000 * 95 / 100 && placed <= 31000 * 105 / 100);
    free(e.ev);
    ttf_close(tr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_example),
        cmocka_unit_test(test_run_at_chunk_end),
        cmocka_unit_test(test_bad_prefix),
        cmocka_unit_test(test_plain_chunk),
        cmocka_unit_test(test_xmm_values),
        cmocka_unit_test(test_clone),
        cmocka_unit_test(test_writer),
        cmocka_unit_test(test_stalls_in_bands),
    };
    return cmocka_run_group_tests(tests, NULL, tu_teardown_all);
}
