/*
 * test_format_vlazy.c - format v1.8, the lazy clock in values chunks
 * (FORMAT.md 4.7, TTF_REQ_VLAZY): a values chunk flagged LAZY whose
 * ENTERs right after an untimed EXIT carry no time but keep their values.
 * The hand writer's trace read back with every value and every time
 * (regular gaps: each untimed event placed at its true time, which needs
 * the run's look-ahead to step over the values of its untimed records);
 * the in-line path (hot_decode) against the general decoder; the header
 * bit (without it such a chunk is corrupt, as for a 1.7 reader); a
 * corrupt and a truncated untimed values ENTER inside a run giving one
 * one-line notice, the events before it intact; times skipped and taken
 * back (ttf_iter_times) with the registers kept across.
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
#define NCALLS 12000

/* Call i's registers, SSE registers and return value: varied lengths
 * (one-byte deltas, strides, large jumps, unchanged SSE registers). */
static void call_regs(int i, uint64_t r[TTF_VALUE_REGS], uint64_t x[TTF_XMM_REGS])
{
    for (int k = 0; k < TTF_VALUE_REGS; k++)
        r[k] = 0;
    for (int k = 0; k < TTF_XMM_REGS; k++)
        x[k] = 0;
    r[0] = (uint64_t)i;                             /* a stride */
    r[1] = (uint64_t)i * 1000003u * (uint64_t)(i % 7);
    r[2] = i % 3 ? 0x7ffd12345678ull : (uint64_t)i << 40;
    r[5] = (uint64_t)-(int64_t)(i % 11);
    x[0] = i % 5 ? 0x3ff0000000000000ull : (uint64_t)i * 0x10001ull;
    x[3] = i % 13 == 0 ? 0x400921fb54442d18ull : 0;
}

static uint64_t call_ret(int i)
{
    return i % 4 == 0 ? 0 : i % 4 == 1 ? (uint64_t)-1 : (uint64_t)i * 0x9e3779b9u;
}

/* A values trace of the lazy clock: main calls LEAF and LONG in turn
 * (LEAF 10 ticks, LONG 40; main's code before them 5 and 25); the first
 * 1000 EXITs timed, then one in nine. Returns the true times. */
static uint64_t *write_vlazy(const char *path, uint32_t chunk)
{
    ttf_writer_opts o = {.chunk_size = chunk, .timed = 1, .sparse = 1, .lazy = 1,
                         .values = 1, .xmm = 1};
    ttf_writer *w;
    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 1000, 1, "main"), 0);
    assert_int_equal(ttf_write_enter(w, 0, 1000, MAIN), 0);
    uint64_t *truth = calloc(2 * NCALLS, sizeof *truth), t = 2000;
    assert_non_null(truth);
    for (int i = 0; i < NCALLS; i++) {
        int lng = i & 1;
        uint64_t r[TTF_VALUE_REGS], x[TTF_XMM_REGS];
        call_regs(i, r, x);
        t += lng ? 25 : 5;
        truth[2 * i] = t;
        assert_int_equal(ttf_write_enter_xmm(w, 0, t, lng ? LONG : LEAF, r, x), 0);
        t += lng ? 40 : 10;
        truth[2 * i + 1] = t;
        int timed = i < 1000 || i % 9 == 0 || i == NCALLS - 1;
        assert_int_equal(ttf_write_exit_value_sparse(w, 0, t, lng ? LONG : LEAF, call_ret(i),
                                                     timed ? TTF_EXIT_TIMED : TTF_EXIT_UNTIMED),
                         0);
    }
    assert_int_equal(ttf_write_exit(w, 0, t + 5, MAIN), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    return truth;
}

/* Every call's values read back, and with one chunk its times (each
 * untimed event at its true time, the gaps being regular); most ENTERs
 * untimed; times never going back. */
static void check_vlazy(uint32_t chunk)
{
    const char *path = tu_path(chunk < 65536 ? "vlazy_small.trc" : "vlazy.trc");
    uint64_t *truth = write_vlazy(path, chunk);
    ttf_trace *tr;
    assert_int_equal(ttf_open(path, &tr, NULL), 0);
    const ttf_header *h = ttf_get_header(tr);
    assert_int_equal(h->version_minor, 8);
    assert_int_equal(h->required_features & (TTF_REQ_LAZY | TTF_REQ_VLAZY | TTF_REQ_VALUES),
                     TTF_REQ_LAZY | TTF_REQ_VLAZY | TTF_REQ_VALUES);
    assert_int_equal(ttf_get_summary(tr)->chunks_damaged, 0);
    struct evs e = tu_events(tr, 0, 0);
    size_t k = 0, untimed_enters = 0, exact = 0;
    uint64_t last = 0;
    for (size_t i = 0; i < e.n; i++) {
        const ttf_event *ev = &e.ev[i];
        if ((ev->kind != TTF_EV_ENTER && ev->kind != TTF_EV_EXIT) || ev->addr == MAIN)
            continue;
        assert_true(k < 2 * NCALLS);
        int call = (int)(k / 2);
        uint64_t want = truth[k++];
        assert_int_equal(ev->addr, call & 1 ? LONG : LEAF);
        assert_true(ev->has_values);
        if (ev->kind == TTF_EV_ENTER) {
            uint64_t r[TTF_VALUE_REGS], x[TTF_XMM_REGS];
            call_regs(call, r, x);
            for (int j = 0; j < TTF_VALUE_REGS; j++)
                assert_int_equal(ev->argregs[j], r[j]);
            for (int j = 0; j < TTF_XMM_REGS; j++)
                assert_int_equal(ev->argregs[TTF_XMM_SLOT(j)], x[j]);
            untimed_enters += ev->untimed;
        } else {
            assert_int_equal(ev->retval, call_ret(call));
        }
        if (ev->untimed)
            assert_true(ev->early_ns <= ev->time_ns && ev->time_ns <= ev->late_ns);
        assert_true(ev->tsc >= last);
        last = ev->tsc;
        /* the hand writer's next chunk starts at the last measured time
           (it has no other): a chunk's last run is not placed exactly */
        if (chunk < 65536)
            continue;
        assert_true(ev->tsc + 1 >= want && ev->tsc <= want + 1);
        exact++;
    }
    assert_int_equal(k, 2 * NCALLS);
    assert_true(untimed_enters > NCALLS / 2);
    assert_true(chunk < 65536 || exact == 2 * NCALLS);

    /* the in-line path gives what the general decoder gives */
    struct titer ti;
    ttfi_titer_init(&ti, tr, 0, NULL);
    ttf_event ev;
    size_t n = 0;
    while (ttfi_titer_step(&ti, &ev) == 1) {
        assert_true(n < e.n);
        const ttf_event *f = &e.ev[n++];
        assert_int_equal(f->kind, ev.kind);
        assert_int_equal(f->addr, ev.addr);
        assert_int_equal(f->tsc, ev.tsc);
        assert_int_equal(f->untimed, ev.untimed);
        assert_int_equal(f->offset, ev.offset);
        assert_int_equal(ttf_event_late_ns(f), ttf_event_late_ns(&ev));
    }
    assert_int_equal(n, e.n);
    free(e.ev);
    free(truth);
    ttf_close(tr);
}

static void test_roundtrip(void **state)
{
    (void)state;
    check_vlazy(1 << 20);       /* one chunk */
    check_vlazy(8192);          /* runs cut by chunk ends */
}

/* Without TTF_REQ_VLAZY (what a 1.7 writer could not write, and a 1.7
 * reader, which knows no 0x40, would meet) a lazy values chunk is corrupt:
 * no event of it is read, one notice says why. */
static void test_header_bit(void **state)
{
    (void)state;
    const char *path = tu_path("vlazy_bit.trc");
    free(write_vlazy(path, 1 << 20));
    size_t n;
    uint8_t *buf = tu_read(path, &n);
    uint32_t req = (uint32_t)ttf_get_le(buf + TTF_H_REQ, 4);
    ttf_put_u32(buf + TTF_H_REQ, req & ~TTF_REQ_VLAZY);
    ttf_trace *t = tu_open_mem(buf, n);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 1);
    assert_true(tu_has_notice(t, "lacks the lazy-values feature"));
    ttf_close(t);
    free(buf);
}

/* A lazy values chunk by hand (no SSE registers): main and leaf entered
 * (timed, masks 0), leaf's untimed EXIT (rax 1), then the untimed ENTER
 * of leaf (no delta) whose values are bad (mask 0x80 without SSE) or cut
 * by the end of the file. */
static size_t vlazy_chunk(struct tb *b)
{
    tb_init(b, 4096, 1000000000u);
    ttf_put_u16(b->buf + TTF_H_VMINOR, 8);
    ttf_put_u32(b->buf + TTF_H_REQ, TTF_REQ_EVENTS_V1 | TTF_REQ_VALUES | TTF_REQ_SPARSE |
                                        TTF_REQ_LAZY | TTF_REQ_VLAZY);
    tb_chunk(b, 0, 0, 0, 1, 0, 1000, 0);
    ttf_put_u16(b->buf + b->coff + TTF_C_FLAGS, TTF_CHUNK_TIMED | TTF_CHUNK_SPARSE |
                                                   TTF_CHUNK_LAZY | TTF_CHUNK_VALUES);
    static const uint8_t recs[] = {
        TTF_T_ENTER_MISS, 0xec, 0xc4, 0x80, 0x04, 10, 0x00, /* ENTER main +0x401136, 1010 */
        TTF_T_ENTER_MISS, 0x94, 0x03, 10, 0x00,         /* ENTER leaf +0xca, 1020, mask 0 */
        0xe4, 0x02,                                     /* EXIT leaf untimed, rax 1 */
        0xa4, 0x01, 0x06,                               /* ENTER leaf untimed, rdi +3 */
        0xe4, 0x04,                                     /* EXIT leaf untimed, rax 2 */
    };
    tb_raw(b, recs, sizeof recs);
    return b->coff + TTF_CHUNK_HDR + 14;     /* the untimed ENTER */
}

static void one_line_notice(const ttf_trace *t)
{
    assert_int_equal(ttf_notice_count(t), 1);
    const char *m = ttf_get_notice(t, 0);
    assert_non_null(m);
    assert_null(strchr(m, '\n'));
}

static void test_damage(void **state)
{
    (void)state;
    struct tb b;
    vlazy_chunk(&b);
    /* the good chunk first: the two untimed calls read with their values */
    static const uint8_t good[] = {0x47, 0xd7, 0x14, 0x00};  /* TIMED EXIT main, 1040, rax 0 */
    tb_raw(&b, good, sizeof good);
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 0);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 6);
    assert_int_equal(e.ev[2].retval, 1);
    assert_true(e.ev[2].untimed);
    assert_true(e.ev[3].untimed);
    assert_int_equal(e.ev[3].argregs[0], 3);
    assert_int_equal(e.ev[4].retval, 2);
    assert_true(e.ev[3].tsc > 1020 && e.ev[3].tsc < 1040);
    assert_int_equal(e.ev[5].tsc, 1040);
    free(e.ev);
    ttf_close(t);
    free(b.buf);

    /* corrupt: the untimed ENTER's mask has a bit no chunk without SSE
       registers may have; the look-ahead of the run before it stops there
       and the decoder reports it */
    size_t bad = vlazy_chunk(&b);
    b.buf[bad + 1] = 0x81;
    tb_raw(&b, good, sizeof good);
    t = tu_open_mem(b.buf, b.len);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 1);
    e = tu_events(t, 0, 1);
    assert_int_equal(e.n, 3);                   /* main, leaf, leaf's EXIT */
    assert_int_equal(e.ev[2].retval, 1);
    one_line_notice(t);
    free(e.ev);
    ttf_close(t);
    free(b.buf);

    /* truncated: the file ends inside the untimed ENTER's values */
    bad = vlazy_chunk(&b);
    t = tu_open_mem(b.buf, bad + 2);
    e = tu_events(t, 0, 1);
    assert_int_equal(e.n, 3);
    assert_int_equal(e.ev[2].retval, 1);
    one_line_notice(t);
    free(e.ev);
    ttf_close(t);
    free(b.buf);
}

/* ttf_iter_times on the values trace in small chunks: times skipped and
 * taken back here and there are exactly those of an iteration with them,
 * and the registers read on across the swap (tu_times_back); so are the
 * times ttf_iter_times_at gives events read before (tu_times_at). */
static void test_times_back(void **state)
{
    (void)state;
    const char *path = tu_path("vlazy_back.trc");
    free(write_vlazy(path, 4096));
    ttf_trace *tr;
    assert_int_equal(ttf_open(path, &tr, NULL), 0);
    assert_true(ttf_get_summary(tr)->chunks_used > 4);
    struct evs e = tu_events(tr, 0, 0);
    assert_true(tu_times_back(tr, &e, 7) > 50);
    assert_true(tu_times_at(tr, &e, 11) > 50);
    free(e.ev);
    ttf_close(tr);
}

/* ttf_iter_values on the same trace: values skipped and taken back here
 * and there (their chunk read again, times and all) are exactly those of
 * an iteration with them, there and on the later events until they are
 * skipped again, and the times read on across the swap (tu_values_back);
 * so are the values ttf_iter_values_at gives events read before
 * (tu_values_at). */
static void test_values_back(void **state)
{
    (void)state;
    const char *path = tu_path("vlazy_vback.trc");
    free(write_vlazy(path, 4096));
    ttf_trace *tr;
    assert_int_equal(ttf_open(path, &tr, NULL), 0);
    assert_true(ttf_get_summary(tr)->chunks_used > 4);
    struct evs e = tu_events(tr, 0, 0);
    assert_true(tu_values_back(tr, &e, 7) > 20);
    assert_true(tu_values_at(tr, &e, 11) > 50);
    free(e.ev);
    ttf_close(tr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_values_back),
        cmocka_unit_test(test_header_bit),
        cmocka_unit_test(test_damage),
        cmocka_unit_test(test_times_back),
    };
    return cmocka_run_group_tests(tests, NULL, tu_teardown_all);
}
