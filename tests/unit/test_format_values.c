/*
 * test_format_values.c - format v1.1 values: writer/reader round trip of
 * argument registers and return values across chunk restarts, the exact
 * bytes of FORMAT.md's example decoded from a hand-made chunk, a corrupt
 * mask (bit 7), registers that follow their stride (bit 6), a values
 * chunk in a file without the feature bit, format 1.5's SSE registers
 * (round trip, bytes, an xmm chunk without its feature bit), libttcap's
 * encoder writing the reference's bytes, the
 * refusal an older reader gives (unknown required bit), and v1.0 files
 * reading as before.
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

#define FA 0x401000u
#define FB 0x401230u

/* Register set number i of the round trip: small, negative, pointer-like
 * and repeated values, so masks of every shape occur. */
static void regs_of(uint64_t i, uint64_t r[TTF_VALUE_REGS])
{
    r[0] = i % 5;
    r[1] = 0x7ffd00001000ull + (i / 3) * 16;
    r[2] = (uint64_t)-(int64_t)(i % 7);
    r[3] = i % 2 ? 0xffffffffffffffffull : 0;
    r[4] = 42;
    r[5] = i * 0x10001;
}

static uint64_t ret_of(uint64_t i)
{
    return i % 3 == 0 ? (uint64_t)-22 : i % 3 == 1 ? 0 : 0x5555deadbeefull + i;
}

static const char *write_values(const char *name, uint64_t n)
{
    const char *path = tu_path(name);
    ttf_writer_opts o = {.chunk_size = 4096, .timed = 1, .values = 1};
    ttf_writer *w;
    uint64_t r[TTF_VALUE_REGS];

    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 10, 1, "main"), 0);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t f = i % 2 ? FA : FB;
        regs_of(i, r);
        assert_int_equal(ttf_write_enter_values(w, 0, 100 + 10 * i, f, r), 0);
        assert_int_equal(ttf_write_exit_value(w, 0, 105 + 10 * i, f, ret_of(i)), 0);
    }
    assert_int_equal(ttf_write_enter(w, 0, 100 + 10 * n, FA), 0); /* zeros */
    assert_int_equal(ttf_write_exit(w, 0, 101 + 10 * n, FA), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    return path;
}

static void test_roundtrip(void **state)
{
    (void)state;
    const uint64_t n = 3000;            /* several 4 KiB chunks */
    const char *path = write_values("v.trc", n);
    ttf_trace *t;
    ttf_error err;

    assert_int_equal(ttf_open(path, &t, &err), 0);
    const ttf_header *h = ttf_get_header(t);
    assert_int_equal(h->version_minor, 1);
    assert_int_equal(h->required_features, 0x3);
    assert_int_equal(ttf_get_summary(t)->values, 1);
    assert_true(ttf_get_thread(t, 0)->chunks > 2);
    assert_int_equal(ttf_notice_count(t), 0);
    struct evs e = tu_events(t, 0, 0);
    size_t k = 1;                       /* after THREAD_START */
    uint64_t r[TTF_VALUE_REGS];
    for (uint64_t i = 0; i < n; i++, k += 2) {
        const ttf_event *en = &e.ev[k], *ex = &e.ev[k + 1];
        regs_of(i, r);
        assert_int_equal(en->kind, TTF_EV_ENTER);
        assert_int_equal(en->has_values, 1);
        assert_memory_equal(en->argregs, r, sizeof r);
        assert_true(en->changed < 0x40);
        assert_int_equal(ex->kind, TTF_EV_EXIT);
        assert_int_equal(ex->has_values, 1);
        assert_int_equal(ex->retval, ret_of(i));
        assert_int_equal(ex->addr, i % 2 ? FA : FB);
    }
    static const uint64_t zero[TTF_VALUE_REGS];
    assert_memory_equal(e.ev[k].argregs, zero, sizeof zero);
    assert_int_equal(e.ev[k + 1].retval, 0);
    free(e.ev);
    ttf_close(t);
}

/* A v1.1 file header with the values bit, and a values chunk. */
static void values_file(struct tb *b, int req_values)
{
    tb_init(b, 4096, 1000000000u);
    ttf_put_u16(b->buf + TTF_H_VMINOR, 1);
    ttf_put_u32(b->buf + TTF_H_REQ, TTF_REQ_EVENTS_V1 |
                                    (req_values ? TTF_REQ_VALUES : 0));
    tb_chunk(b, 0, 0, 0, 1, 0, 500, 0);
    ttf_put_u16(b->buf + b->coff + TTF_C_FLAGS, TTF_CHUNK_TIMED | TTF_CHUNK_VALUES);
}

/* FORMAT.md 4.1's example, byte for byte. */
static void test_example_bytes(void **state)
{
    (void)state;
    struct tb b;
    values_file(&b, 1);
    tb_u8(&b, TTF_T_ENTER_MISS);
    tb_uvar(&b, ttf_zigzag(0x401200));
    tb_uvar(&b, 1);
    tb_u8(&b, 0x03);                                /* rdi, rsi changed */
    tb_uvar(&b, ttf_zigzag(3));
    tb_uvar(&b, ttf_zigzag(0x7ffd1000));
    tb_u8(&b, 0xe4);                                /* EXIT hit 0x24 */
    tb_uvar(&b, 2);
    tb_uvar(&b, ttf_zigzag(0));
    static const uint8_t example[] = {0xa4, 0x04, 0x01, 0x03, 0xe4, 0x05, 0x2b};
    tb_raw(&b, example, sizeof example);
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 4);
    assert_int_equal(e.ev[0].argregs[0], 3);
    assert_int_equal(e.ev[0].argregs[1], 0x7ffd1000);
    assert_int_equal(e.ev[0].changed, 0x03);
    assert_int_equal(e.ev[2].kind, TTF_EV_ENTER);
    assert_int_equal(e.ev[2].addr, 0x401200);
    assert_int_equal(e.ev[2].tsc, 507);
    assert_int_equal(e.ev[2].argregs[0], 1);
    assert_int_equal(e.ev[2].argregs[1], 0x7ffd1000);
    assert_int_equal(e.ev[2].argregs[2], 0);
    assert_int_equal(e.ev[2].changed, 0x01);
    assert_int_equal((int64_t)e.ev[3].retval, -22);
    assert_int_equal(e.ev[3].depth, 1);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 0);
    free(e.ev);
    ttf_close(t);
    free(b.buf);
}

/* Bit 6 (STRIDE): registers not given move by what they moved at the
 * previous ENTER; without it they stay. changed says which moved. */
static void test_stride(void **state)
{
    (void)state;
    struct tb b;
    values_file(&b, 1);
    static const struct { uint8_t mask; int64_t d; uint64_t rdi; unsigned changed; } st[] = {
        {0x03, 5, 5, 0x03},     /* rdi = 5, rsi = 5 */
        {0x01, 3, 8, 0x01},     /* rdi += 3; rsi stays */
        {0x40, 0, 11, 0x01},    /* rdi follows its stride 3, rsi its 0 */
        {0x40, 0, 14, 0x01},
        {0x41, 0, 14, 0x00},    /* rdi given: +0, the stride is now 0 */
        {0x40, 0, 14, 0x00},
        {0x00, 0, 14, 0x00},
    };
    tb_u8(&b, TTF_T_ENTER_MISS);
    tb_uvar(&b, ttf_zigzag(0x1000));
    for (size_t i = 0; i < sizeof st / sizeof st[0]; i++) {
        if (i)
            tb_u8(&b, (uint8_t)(TTF_T_ENTER_HIT | TTF_SLOT(0x1000)));
        tb_uvar(&b, 1);
        tb_u8(&b, st[i].mask);
        if (st[i].mask & 1)
            tb_uvar(&b, ttf_zigzag(st[i].d));
        if (st[i].mask & 2)
            tb_uvar(&b, ttf_zigzag(st[i].d));
    }
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, sizeof st / sizeof st[0]);
    for (size_t i = 0; i < e.n; i++) {
        assert_int_equal(e.ev[i].argregs[0], st[i].rdi);
        assert_int_equal(e.ev[i].argregs[1], 5);
        assert_int_equal(e.ev[i].changed, i == 0 ? 0x03 : st[i].changed);
    }
    assert_int_equal(ttf_notice_count(t), 0);
    free(e.ev);
    ttf_close(t);
    free(b.buf);
}

/* The writer codes a strided register for free: ENTERs whose rdi and rcx
 * step by 1 and 8 take tag, tdelta and mask only. */
static void test_stride_bytes(void **state)
{
    (void)state;
    const char *path = tu_path("s.trc");
    ttf_writer_opts o = {.chunk_size = 4096, .timed = 1, .values = 1};
    ttf_writer *w;
    uint64_t r[TTF_VALUE_REGS] = {0};

    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 10, 1, "main"), 0);
    for (uint64_t i = 0; i < 200; i++) {
        r[0] = i;
        r[3] = 0x7ffd0000 + 8 * i;
        assert_int_equal(ttf_write_enter_values(w, 0, 100 + 10 * i, FA, r), 0);
        assert_int_equal(ttf_write_exit_value(w, 0, 105 + 10 * i, FA, i & 7), 0);
    }
    assert_int_equal(ttf_writer_close(w, 0), 0);
    ttf_trace *t;
    ttf_error err;
    assert_int_equal(ttf_open(path, &t, &err), 0);
    /* 200 calls: 6 bytes each after the first two, which set the strides */
    assert_true(ttf_get_summary(t)->data_bytes <= 200 * 6 + 40);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.ev[2 * 199 + 1].argregs[3], 0x7ffd0000 + 8 * 199);
    free(e.ev);
    ttf_close(t);
}

/* libttcap's encoder (ttf_put_enter_values_step: masks built with
 * compare and carry on x86-64, deltas read back from the new strides)
 * writes the same bytes and leaves the same state as the reference
 * (ttf_put_enter_values, then ttf_values_advance), for register sets of
 * every shape: ties between the two predictions, strides, zeros, the
 * extremes of int64. */
static void test_step_same_bytes(void **state)
{
    (void)state;
    static const uint64_t pick[] = {0, 1, 2, 3, 5, 8, 0x7fffffffffffffffull,
                                    0x8000000000000000ull, 0xffffffffffffffffull,
                                    0x7ffd00001000ull, 0x7ffd00001008ull, 42};
    const unsigned np = sizeof pick / sizeof pick[0];
    uint64_t prev_a[TTF_ARGREGS] = {0}, stride_a[TTF_ARGREGS] = {0};
    uint64_t prev_b[TTF_ARGREGS] = {0}, stride_b[TTF_ARGREGS] = {0};
    uint64_t rng = 0x9e3779b97f4a7c15ull;
    unsigned strided = 0;
    for (unsigned n = 0; n < 200000; n++) {
        uint64_t r[TTF_ARGREGS];
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        for (int i = 0; i < TTF_ARGREGS; i++) {
            unsigned how = (unsigned)(rng >> (40 + 3 * i)) & 7;
            r[i] = how < 3 ? prev_a[i]                      /* same */
                 : how < 6 ? prev_a[i] + stride_a[i]        /* strided */
                 : how == 6 ? pick[(rng >> (20 + i)) % np]
                 : prev_a[i] + (rng >> 50) - 8;
        }
        uint8_t a[TTF_ENTER_VALUES_MAX], b[TTF_ENTER_VALUES_MAX];
        uint8_t *ea = ttf_put_enter_values(a, r, prev_a, stride_a);
        ttf_values_advance(r, prev_a, stride_a);
        uint8_t *eb = ttf_put_enter_values_step(b, r, prev_b, stride_b);
        assert_int_equal(eb - b, ea - a);
        assert_memory_equal(a, b, (size_t)(ea - a));
        assert_memory_equal(prev_a, prev_b, sizeof prev_a);
        assert_memory_equal(stride_a, stride_b, sizeof stride_a);
        strided += (a[0] & TTF_MASK_STRIDE) != 0;
    }
    assert_true(strided > 10000);   /* both predictions were taken */
}

/* Mask bit 7 ends the chunk there (one corruption report), as does a
 * values chunk in a file that lacks the feature bit. */
static void test_bad_mask(void **state)
{
    (void)state;
    struct tb b;
    values_file(&b, 1);
    tb_u8(&b, TTF_T_ENTER_MISS);
    tb_uvar(&b, ttf_zigzag(0x1000));
    tb_uvar(&b, 1);
    tb_u8(&b, 0x00);
    size_t bad_at = b.cpos;
    tb_u8(&b, (uint8_t)(TTF_T_ENTER_HIT | TTF_SLOT(0x1000)));
    tb_uvar(&b, 1);
    tb_u8(&b, 0x81);                                /* bit 7: corrupt */
    tb_uvar(&b, 2);
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 2);
    assert_int_equal(e.ev[1].kind, TTF_EV_LOST);
    assert_int_equal(e.ev[1].offset, bad_at);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 1);
    assert_true(tu_has_notice(t, "ENTER value mask 0x81 has bit 7 set"));
    free(e.ev);
    ttf_close(t);
    free(b.buf);

    values_file(&b, 0);
    tb_u8(&b, TTF_T_ENTER_MISS);
    tb_uvar(&b, ttf_zigzag(0x1000));
    tb_uvar(&b, 1);
    tb_u8(&b, 0x00);
    t = tu_open_mem(b.buf, b.len);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 1);
    assert_int_equal(ttf_get_summary(t)->events, 0);
    assert_true(tu_has_notice(t, "chunk carries values but the header lacks"));
    ttf_close(t);
    free(b.buf);
}

/* Format 1.5: the SSE registers round trip through the writer (doubles
 * that repeat, change a little, or not at all), the trace says 1.4 and
 * its feature, an EXIT's xmm0 is apart from rax; plain ENTER/EXIT calls
 * on an xmm writer record zeros. */
static void test_xmm_roundtrip(void **state)
{
    (void)state;
    const char *path = tu_path("x.trc");
    ttf_writer_opts o = {.chunk_size = 4096, .timed = 1, .values = 1, .xmm = 1};
    ttf_writer *w;
    uint64_t r[TTF_VALUE_REGS] = {0}, x[TTF_XMM_REGS] = {0};
    const uint64_t n = 1500;            /* several chunks */

    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 10, 1, "main"), 0);
    for (uint64_t i = 0; i < n; i++) {
        double d = 0.5 * (double)i;
        memcpy(&x[i % 3], &d, sizeof d);
        x[7] = i % 5 == 0 ? 0x3ff0000000000000ull : x[7];
        r[0] = i;
        assert_int_equal(ttf_write_enter_xmm(w, 0, 100 + 10 * i, FA, r, x), 0);
        assert_int_equal(ttf_write_exit_xmm(w, 0, 105 + 10 * i, FA, i, x[i % 3] ^ 1), 0);
    }
    assert_int_equal(ttf_write_enter(w, 0, 100 + 10 * n, FB), 0);
    assert_int_equal(ttf_write_exit(w, 0, 101 + 10 * n, FB), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);

    ttf_trace *t;
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    assert_int_equal(ttf_get_header(t)->version_minor, 5);
    assert_int_equal(ttf_get_header(t)->required_features,
                     TTF_REQ_EVENTS_V1 | TTF_REQ_VALUES | TTF_REQ_XMM);
    assert_true(ttf_get_thread(t, 0)->chunks > 2);
    assert_int_equal(ttf_notice_count(t), 0);
    struct evs e = tu_events(t, 0, 0);
    uint64_t want[TTF_XMM_REGS] = {0};
    size_t k = 1;
    for (uint64_t i = 0; i < n; i++, k += 2) {
        double d = 0.5 * (double)i;
        memcpy(&want[i % 3], &d, sizeof d);
        want[7] = i % 5 == 0 ? 0x3ff0000000000000ull : want[7];
        assert_int_equal(e.ev[k].kind, TTF_EV_ENTER);
        assert_int_equal(e.ev[k].has_xmm, 1);
        assert_int_equal(e.ev[k].argregs[0], i);
        assert_memory_equal(e.ev[k].argregs + TTF_XMM_SLOT(0), want, sizeof want);
        assert_int_equal(e.ev[k + 1].retval, i);
        assert_int_equal(e.ev[k + 1].retxmm, want[i % 3] ^ 1);
    }
    assert_int_equal(e.ev[k].argregs[TTF_XMM_SLOT(7)], 0);    /* zeros */
    assert_int_equal(e.ev[k].has_xmm, 1);
    assert_int_equal(e.ev[k + 1].retxmm, 0);
    free(e.ev);
    ttf_close(t);
}

/* FORMAT.md 4.1's xmm example byte for byte: mask bit 7 brings the xmm
 * mask and byte-swapped XOR deltas; an EXIT's uvar after rax is xmm0. In a
 * chunk without TTF_CHUNK_XMM bit 7 stays corrupt, and an xmm chunk in a
 * file without TTF_REQ_XMM is refused. */
static void test_xmm_bytes(void **state)
{
    (void)state;
    struct tb b;
    values_file(&b, 1);
    ttf_put_u16(b.buf + TTF_H_VMINOR, 5);
    ttf_put_u32(b.buf + TTF_H_REQ, TTF_REQ_EVENTS_V1 | TTF_REQ_VALUES | TTF_REQ_XMM);
    ttf_put_u16(b.buf + b.coff + TTF_C_FLAGS,
                TTF_CHUNK_TIMED | TTF_CHUNK_VALUES | TTF_CHUNK_XMM);
    tb_u8(&b, TTF_T_ENTER_MISS);
    tb_uvar(&b, ttf_zigzag(0x401200));
    static const uint8_t ex[] = {
        0x04, 0x81, 0x05,                   /* tdelta 4, rdi + xmm, rdi = -3 */
        0x01, 0xbf, 0xe0, 0x03,             /* xmm0 = 1.0: bswap = 0xf03f */
        0xe4, 0x05, 0x2b, 0xc0, 0x10,       /* EXIT: rax -22, xmm0 = 3.0:
                                               bswap = 0x0840 */
    };
    tb_raw(&b, ex, sizeof ex);
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 2);
    double d;
    memcpy(&d, &e.ev[0].argregs[TTF_XMM_SLOT(0)], sizeof d);
    assert_true(d == 1.0);
    assert_int_equal((int64_t)e.ev[0].argregs[0], -3);
    assert_int_equal(e.ev[0].xchanged, 1);
    memcpy(&d, &e.ev[1].retxmm, sizeof d);
    assert_true(d == 3.0);
    assert_int_equal((int64_t)e.ev[1].retval, -22);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 0);
    free(e.ev);
    ttf_close(t);
    ttf_put_u32(b.buf + TTF_H_REQ, TTF_REQ_EVENTS_V1 | TTF_REQ_VALUES);
    ttf_open_mem(b.buf, b.len, "x", &t, NULL);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 1);
    assert_true(tu_has_notice(t, "chunk carries SSE registers but the header lacks"));
    ttf_close(t);
    free(b.buf);
}

/* What an older reader does with a values trace: the required bit it does
 * not know makes it refuse up front. Here a bit this reader does not know
 * stands in for 0x2 (a v1.0 reader's TTF_REQ_KNOWN is 0x1). */
static void test_refused_by_older_reader(void **state)
{
    (void)state;
    size_t n;
    uint8_t *buf = tu_read(write_values("old.trc", 10), &n);
    ttf_trace *t;
    ttf_error err;

    assert_int_equal(ttf_get_le(buf + TTF_H_REQ, 4), TTF_REQ_EVENTS_V1 | TTF_REQ_VALUES);
    ttf_put_u32(buf + TTF_H_REQ, TTF_REQ_EVENTS_V1 | TTF_REQ_VALUES | 0x100);
    assert_int_equal(ttf_open_mem(buf, n, "old.trc", &t, &err), TT_EFEATURE);
    assert_null(t);
    assert_non_null(strstr(err.msg, "needs unknown required feature bits 0x100"));
    assert_non_null(strstr(err.msg, "events-v1, values"));
    free(buf);
}

/* A v1.0 trace: no values, version 1.0 bytes; the *_values calls need a
 * values writer. */
static void test_v10_unchanged(void **state)
{
    (void)state;
    const char *path = tu_path("v10.trc");
    ttf_writer *w;
    uint64_t r[TTF_VALUE_REGS] = {1, 2, 3, 4, 5, 6};
    assert_int_equal(ttf_writer_open(path, NULL, &w), 0);
    assert_int_equal(ttf_write_enter_values(w, 0, 1, FA, r), TT_EINVAL);
    assert_int_equal(ttf_write_exit_value(w, 0, 1, FA, 0), TT_EINVAL);
    assert_int_equal(ttf_write_enter(w, 0, 1, FA), 0);
    assert_int_equal(ttf_write_exit(w, 0, 2, FA), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    assert_int_equal(ttf_write_enter_values(NULL, 0, 1, FA, r), TT_EINVAL);
    ttf_trace *t;
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    assert_int_equal(ttf_get_header(t)->version_minor, 0);
    assert_int_equal(ttf_get_header(t)->required_features, TTF_REQ_EVENTS_V1);
    assert_int_equal(ttf_get_summary(t)->values, 0);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 3);
    assert_int_equal(e.ev[0].has_values, 0);
    assert_int_equal(e.ev[1].has_values, 0);
    free(e.ev);
    ttf_close(t);
}

/* Records the in-line reader leaves to the general decoder (a time delta
 * of three bytes): while opening and in an iteration without values
 * (ttf_iter_skip_values) their values are stepped over, with the SSE
 * registers of an xmm chunk too: the same events and counts as when they
 * are read, none with values then; read with values, every register as
 * written. A bad mask in such a record is found either way, at the same
 * offset. */
static void test_general_skip(void **state)
{
    (void)state;
    for (int xmm = 0; xmm < 2; xmm++) {
        const char *path = tu_path("g.trc");
        ttf_writer_opts o = {.chunk_size = 4096, .timed = 1, .values = 1, .xmm = xmm};
        ttf_writer *w;
        uint64_t r[TTF_VALUE_REGS], x[TTF_XMM_REGS] = {0}, tsc = 100;
        const uint64_t n = 700;
        assert_int_equal(ttf_writer_open(path, &o, &w), 0);
        assert_int_equal(ttf_write_thread_start(w, 0, 10, 1, "main"), 0);
        for (uint64_t i = 0; i < n; i++) {
            regs_of(i, r);
            x[i % 8] = i % 3 ? 0x3ff0000000000000ull + i : 0;
            assert_int_equal(xmm ? ttf_write_enter_xmm(w, 0, tsc += 100000, FA, r, x)
                                 : ttf_write_enter_values(w, 0, tsc += 100000, FA, r), 0);
            assert_int_equal(xmm ? ttf_write_exit_xmm(w, 0, tsc += 100000, FA, ret_of(i), x[1])
                                 : ttf_write_exit_value(w, 0, tsc += 100000, FA, ret_of(i)), 0);
        }
        assert_int_equal(ttf_writer_close(w, 0), 0);
        ttf_trace *t;
        assert_int_equal(ttf_open(path, &t, NULL), 0);
        assert_int_equal(ttf_notice_count(t), 0);
        struct evs e = tu_events(t, 0, 0);
        assert_int_equal(ttf_get_summary(t)->events, e.n);
        assert_true(tu_values_back(t, &e, 13 + (uint64_t)xmm) > 5);   /* xmm too */
        assert_true(tu_values_at(t, &e, 17 + (uint64_t)xmm) > 20);
        size_t at = 0;
        while (at < e.n && e.ev[at].kind != TTF_EV_ENTER)
            at++;
        assert_true(at + 2 * n <= e.n);
        for (uint64_t i = 0; i < n; i++) {
            const ttf_event *en = &e.ev[at + 2 * i], *ex = &e.ev[at + 1 + 2 * i];
            assert_int_equal(en->kind, TTF_EV_ENTER);
            assert_int_equal(ex->kind, TTF_EV_EXIT);
            regs_of(i, r);
            assert_int_equal(en->has_values, 1);
            assert_memory_equal(en->argregs, r, sizeof r);
            assert_int_equal(ex->retval, ret_of(i));
            if (xmm)
                assert_int_equal(ex->retxmm, en->argregs[TTF_XMM_SLOT(1)]);
        }
        ttf_iter *it;
        ttf_event ev;
        size_t k = 0;
        assert_int_equal(ttf_iter_open(t, 0, &it), 0);
        assert_int_equal(ttf_iter_skip_values(it), 0);
        while (ttf_iter_next(it, &ev) == 1) {
            assert_true(k < e.n);
            assert_int_equal(ev.kind, e.ev[k].kind);
            assert_int_equal(ev.offset, e.ev[k].offset);
            assert_int_equal(ev.tsc, e.ev[k].tsc);
            assert_int_equal(ev.has_values, 0);
            k++;
        }
        assert_int_equal(k, e.n);
        ttf_iter_close(it);
        free(e.ev);
        ttf_close(t);
    }

    struct tb b;
    values_file(&b, 1);
    tb_u8(&b, TTF_T_ENTER_MISS);
    tb_uvar(&b, ttf_zigzag(0x1000));
    tb_uvar(&b, 100000);
    tb_u8(&b, 0x01);
    tb_uvar(&b, ttf_zigzag(-5));
    size_t bad_at = b.cpos;
    tb_u8(&b, (uint8_t)(TTF_T_ENTER_HIT | TTF_SLOT(0x1000)));
    tb_uvar(&b, 100000);
    tb_u8(&b, 0x81);                                /* bit 7: corrupt */
    tb_uvar(&b, 2);
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 1);
    assert_true(tu_has_notice(t, "ENTER value mask 0x81 has bit 7 set"));
    for (int skip = 0; skip < 2; skip++) {
        ttf_iter *it;
        ttf_event ev[3];
        size_t k = 0;
        assert_int_equal(ttf_iter_open(t, 0, &it), 0);
        if (skip)
            assert_int_equal(ttf_iter_skip_values(it), 0);
        while (k < 3 && ttf_iter_next(it, &ev[k]) == 1)
            k++;
        assert_int_equal(k, 2);
        assert_int_equal(ev[0].kind, TTF_EV_ENTER);
        assert_int_equal(ev[0].has_values, !skip);
        assert_int_equal(ev[1].kind, TTF_EV_LOST);
        assert_int_equal(ev[1].offset, bad_at);
        ttf_iter_close(it);
    }
    ttf_close(t);
    free(b.buf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_example_bytes),
        cmocka_unit_test(test_stride),
        cmocka_unit_test(test_stride_bytes),
        cmocka_unit_test(test_step_same_bytes),
        cmocka_unit_test(test_bad_mask),
        cmocka_unit_test(test_xmm_roundtrip),
        cmocka_unit_test(test_xmm_bytes),
        cmocka_unit_test(test_refused_by_older_reader),
        cmocka_unit_test(test_v10_unchanged),
        cmocka_unit_test(test_general_skip),
    };
    return cmocka_run_group_tests(tests, NULL, tu_teardown_all);
}
