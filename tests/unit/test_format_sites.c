/*
 * test_format_sites.c - format v1.2 call sites: FORMAT.md 4.3's example
 * decoded byte for byte and written back the same by the writer; what a
 * site costs (nothing once the path has seen it: one place, two in turn,
 * three in a cycle; a byte for one of the slot's ways); the fast paths
 * against the rule; prefixes that are damage (not followed by an ENTER, at the end of
 * a chunk, a second prefix, in a file without the feature bit); values and
 * sites together; the header (1.2, required bit 0x4) and the refusal an
 * older reader gives; 1.0 and 1.1 files unchanged.
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

#define FN 0x401200u
#define SITE_A 0x40115au
#define SITE_B 0x401172u

/* A v1.2 file header (sites bit when req_sites) and one timed chunk at tsc
 * 1000. */
static void sites_file(struct tb *b, int req_sites)
{
    tb_init(b, 4096, 1000000000u);
    ttf_put_u16(b->buf + TTF_H_VMINOR, 2);
    ttf_put_u32(b->buf + TTF_H_REQ, TTF_REQ_EVENTS_V1 |
                                    (req_sites ? TTF_REQ_SITES : 0));
    tb_chunk(b, 0, 0, 0, 1, 0, 1000, 0);
}

/* FORMAT.md 4.3's example. */
static const uint8_t example[] = {
    0x46, 0xb4, 0xc5, 0x80, 0x04,       /* SITE_NEW +0x40115a */
    0x40, 0x80, 0xc8, 0x80, 0x04, 0x01, /* ENTER miss 0x401200, t 1 */
    0xe4, 0x01,                         /* EXIT hit */
    0xa4, 0x01,                         /* ENTER hit: way 0 predicts A */
    0xe4, 0x01,
    0x46, 0x30, 0xa4, 0x04,             /* SITE_NEW +0x18, ENTER hit */
    0xe4, 0x01,
    0x43, 0xa4, 0x01,                   /* SITE_WAY 1, ENTER hit: A */
    0xe4, 0x01,
    0xa4, 0x01,                         /* the path after A predicts B */
    0xe4, 0x01,
    0xa4, 0x01,                         /* after B, A */
    0xe4, 0x01,
    0xa4, 0x01,                         /* and B */
};

static void test_example_bytes(void **state)
{
    (void)state;
    struct tb b;
    sites_file(&b, 1);
    tb_raw(&b, example, sizeof example);
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    struct evs e = tu_events(t, 0, 0);
    static const struct { int kind; uint64_t tsc, site; } want[] = {
        {TTF_EV_ENTER, 1001, SITE_A}, {TTF_EV_EXIT, 1002, 0},
        {TTF_EV_ENTER, 1003, SITE_A}, {TTF_EV_EXIT, 1004, 0},
        {TTF_EV_ENTER, 1008, SITE_B}, {TTF_EV_EXIT, 1009, 0},
        {TTF_EV_ENTER, 1010, SITE_A}, {TTF_EV_EXIT, 1011, 0},
        {TTF_EV_ENTER, 1012, SITE_B}, {TTF_EV_EXIT, 1013, 0},
        {TTF_EV_ENTER, 1014, SITE_A}, {TTF_EV_EXIT, 1015, 0},
        {TTF_EV_ENTER, 1016, SITE_B},
    };
    assert_int_equal(e.n, sizeof want / sizeof want[0]);
    for (size_t i = 0; i < e.n; i++) {
        assert_int_equal(e.ev[i].kind, want[i].kind);
        assert_int_equal(e.ev[i].addr, FN);
        assert_int_equal(e.ev[i].tsc, want[i].tsc);
        assert_int_equal(e.ev[i].call_site, want[i].site);
    }
    assert_int_equal(ttf_notice_count(t), 0);
    assert_int_equal(ttf_get_summary(t)->sites, 1);
    free(e.ev);
    ttf_close(t);
    free(b.buf);
}

/* The writer emits the example's very bytes. */
static void test_writer_bytes(void **state)
{
    (void)state;
    const char *path = tu_path("ex.trc");
    ttf_writer_opts o = {.chunk_size = 4096, .timed = 1, .sites = 1};
    ttf_writer *w;
    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    static const uint64_t seq[] = {SITE_A, SITE_A, SITE_B, SITE_A, SITE_B, SITE_A, SITE_B};
    static const uint64_t at[] = {1000, 1002, 1007, 1009, 1011, 1013, 1015};
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
        assert_int_equal(ttf_write_enter_site(w, 0, at[i], FN, seq[i]), 0);
        if (i + 1 < sizeof seq / sizeof seq[0])
            assert_int_equal(ttf_write_exit(w, 0, at[i] + 1, FN), 0);
    }
    assert_int_equal(ttf_writer_abandon(w), 0);
    size_t n;
    uint8_t *buf = tu_read(path, &n);
    assert_true(n >= 4096 + 48 + sizeof example);
    assert_int_equal(ttf_get_le(buf + TTF_H_VMINOR, 2), 2);
    assert_int_equal(ttf_get_le(buf + TTF_H_REQ, 4), TTF_REQ_EVENTS_V1 | TTF_REQ_SITES);
    /* the first record's delta is 0 (the chunk's base is its time) */
    static const uint8_t first[] = {0x46, 0xb4, 0xc5, 0x80, 0x04,
                                    0x40, 0x80, 0xc8, 0x80, 0x04, 0x00};
    assert_memory_equal(buf + 4096 + 48, first, sizeof first);
    assert_memory_equal(buf + 4096 + 48 + sizeof first, example + sizeof first,
                        sizeof example - sizeof first);
    assert_int_equal(buf[4096 + 48 + sizeof example], 0);
    free(buf);
}

/* What sites cost: a function always called from one place costs nothing
 * over a trace without sites (after its first call in the chunk), nor two
 * or three places in a cycle once the path table has seen each step (a
 * SITE_NEW per new site, one SITE_WAY for the first step back); five
 * places in an order the path does not repeat cost at most a SITE_WAY
 * byte (one of the slot's four ways) or a short SITE_NEW a call. */
static uint64_t site_of(uint64_t i, int nsites)
{
    if (nsites > 0)             /* in a cycle */
        return SITE_A + 0x20 * (i % (uint64_t)nsites);
    return SITE_A + 0x20 * ((i * i + i / 3) % (uint64_t)-nsites);     /* no cycle */
}

static uint64_t data_bytes(const char *name, int sites, int nsites)
{
    const char *path = tu_path(name);
    ttf_writer_opts o = {.chunk_size = 65536, .timed = 1, .sites = sites};
    ttf_writer *w;
    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    for (uint64_t i = 0; i < 1000; i++) {
        uint64_t site = sites ? site_of(i, nsites) : 0;
        assert_int_equal(ttf_write_enter_site(w, 0, 10 * i, FN, site), 0);
        assert_int_equal(ttf_write_exit(w, 0, 10 * i + 5, FN), 0);
    }
    assert_int_equal(ttf_writer_close(w, 0), 0);
    ttf_trace *t;
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    assert_int_equal(ttf_get_summary(t)->sites, sites);
    struct evs e = tu_events(t, 0, 0);
    for (size_t i = 0; i < 2000; i += 2)
        assert_int_equal(e.ev[i].call_site,
                         sites ? site_of(i / 2, nsites) : 0);
    uint64_t n = ttf_get_summary(t)->data_bytes;
    free(e.ev);
    ttf_close(t);
    return n;
}

static void test_cost(void **state)
{
    (void)state;
    uint64_t none = data_bytes("none.trc", 0, 1);
    uint64_t one = data_bytes("one.trc", 1, 1);
    uint64_t two = data_bytes("two.trc", 1, 2);
    uint64_t three = data_bytes("three.trc", 1, 3);
    uint64_t five = data_bytes("five.trc", 1, -5);
    assert_int_equal(one, none + 5);            /* the first call's SITE_NEW */
    assert_int_equal(two, none + 5 + 2 + 1);    /* the second's, one WAY */
    assert_int_equal(three, none + 5 + 2 + 2 + 1);
    assert_true(five <= none + 1000 * 2);       /* a WAY or a short NEW */
}

/* A prefix must be followed by an ENTER: an EXIT, a second prefix, an
 * extended record or the chunk's end there is damage at the prefix, and a
 * prefix in a file without the sites bit is an invalid tag. */
static void damaged_after(const uint8_t *tail, size_t n, int req_sites,
                          const char *notice)
{
    struct tb b;
    sites_file(&b, req_sites);
    tb_u8(&b, TTF_T_ENTER_MISS);
    tb_uvar(&b, ttf_zigzag(FN));
    tb_uvar(&b, 1);
    size_t bad_at = b.cpos;
    tb_raw(&b, tail, n);
    tu_one_enter_then_damage(&b, bad_at, notice);
}

static void test_bad_prefix(void **state)
{
    (void)state;
    static const uint8_t exit_after[] = {0x42, 0xe4, 0x01};
    static const uint8_t two[] = {0x46, 0x02, 0x45, 0xa4, 0x01};
    static const uint8_t ext_after[] = {0x44, TTF_R_PAUSE, 0x01, 0x00};
    static const uint8_t at_end[] = {0x46, 0x02};
    static const uint8_t cut_delta[] = {0x46, 0x80};
    static const uint8_t beyond[] = {0x47, 0xa4, 0x01};
    damaged_after(exit_after, sizeof exit_after, 1,
                  "call-site record not followed by an ENTER");
    damaged_after(two, sizeof two, 1, "call-site record not followed by an ENTER");
    damaged_after(ext_after, sizeof ext_after, 1,
                  "call-site record not followed by an ENTER");
    damaged_after(at_end, sizeof at_end, 1, "call-site record");
    damaged_after(cut_delta, sizeof cut_delta, 1, "offset");
    damaged_after(beyond, sizeof beyond, 1, "invalid record tag 0x47");
    static const uint8_t ok[] = {0x42, 0xa4, 0x01};
    damaged_after(ok, sizeof ok, 0, "invalid record tag 0x42");
    static const uint8_t ok_new[] = {0x46, 0x02, 0xa4, 0x01};
    damaged_after(ok_new, sizeof ok_new, 0, "invalid record tag 0x46");
}

/* Values and sites together: the prefix, then the ENTER with its values. */
static void test_with_values(void **state)
{
    (void)state;
    const char *path = tu_path("vs.trc");
    ttf_writer_opts o = {.chunk_size = 4096, .timed = 1, .values = 1};
    ttf_writer *w;
    uint64_t r[TTF_VALUE_REGS] = {1, 2, 3, 4, 5, 6};
    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    for (uint64_t i = 0; i < 3000; i++) {
        r[0] = i;
        assert_int_equal(ttf_write_enter_values_site(w, 0, 10 * i, FN + 0x40 * (i % 3),
                                                     SITE_A + i % 5, r), 0);
        assert_int_equal(ttf_write_exit_value(w, 0, 10 * i + 5, FN + 0x40 * (i % 3), i), 0);
    }
    assert_int_equal(ttf_write_enter_values_site(NULL, 0, 1, FN, 1, r), TT_EINVAL);
    assert_int_equal(ttf_write_enter_values_site(w, 0, 1, FN, 1, NULL), TT_EINVAL);
    assert_int_equal(ttf_write_enter_site(NULL, 0, 1, FN, 1), TT_EINVAL);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    ttf_trace *t;
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    const ttf_header *h = ttf_get_header(t);
    assert_int_equal(h->version_minor, 2);
    assert_int_equal(h->required_features, TTF_REQ_EVENTS_V1 | TTF_REQ_VALUES | TTF_REQ_SITES);
    assert_true(ttf_get_thread(t, 0)->chunks > 2);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 6001);
    for (size_t i = 0; i < 3000; i++) {
        assert_int_equal(e.ev[2 * i].call_site, SITE_A + i % 5);
        assert_int_equal(e.ev[2 * i].argregs[0], i);
        assert_int_equal(e.ev[2 * i + 1].call_site, 0);
        assert_int_equal(e.ev[2 * i + 1].retval, i);
    }
    free(e.ev);
    ttf_close(t);
}

/* An older reader refuses a sites trace: here a bit this reader does not
 * know stands in for 0x4 (a v1.1 reader's known bits are 0x3). And a
 * writer that records no site writes the 1.0 or 1.1 bytes it always did. */
static void test_versions(void **state)
{
    (void)state;
    const char *path = tu_path("s.trc");
    ttf_writer *w;
    assert_int_equal(ttf_writer_open(path, NULL, &w), 0);
    assert_int_equal(ttf_write_enter_site(w, 0, 1, FN, 0), 0);  /* no site */
    assert_int_equal(ttf_write_exit(w, 0, 2, FN), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    ttf_trace *t;
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    assert_int_equal(ttf_get_header(t)->version_minor, 0);
    assert_int_equal(ttf_get_header(t)->required_features, TTF_REQ_EVENTS_V1);
    assert_int_equal(ttf_get_summary(t)->sites, 0);
    ttf_close(t);

    path = tu_path("s2.trc");
    assert_int_equal(ttf_writer_open(path, NULL, &w), 0);
    assert_int_equal(ttf_write_enter(w, 0, 1, FN), 0);
    assert_int_equal(ttf_write_enter_site(w, 0, 2, FN + 0x40, SITE_B), 0);
    assert_int_equal(ttf_writer_abandon(w), 0);     /* the header says sites */
    size_t n;
    uint8_t *buf = tu_read(path, &n);
    assert_int_equal(ttf_get_le(buf + TTF_H_REQ, 4), TTF_REQ_EVENTS_V1 | TTF_REQ_SITES);
    ttf_error err;
    assert_int_equal(ttf_open_mem(buf, n, "s2.trc", &t, &err), 0);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 2);
    assert_int_equal(e.ev[0].call_site, 0);
    assert_int_equal(e.ev[1].call_site, SITE_B);
    free(e.ev);
    ttf_close(t);
    ttf_put_u32(buf + TTF_H_REQ, TTF_REQ_EVENTS_V1 | TTF_REQ_SITES | 0x100);
    assert_int_equal(ttf_open_mem(buf, n, "s2.trc", &t, &err), TT_EFEATURE);
    assert_null(t);
    assert_non_null(strstr(err.msg, "needs unknown required feature bits 0x100"));
    assert_non_null(strstr(err.msg, "events-v1, values, sites"));
    free(buf);
}

/* The fast paths follow the rule: over calls of a few functions from a
 * few sites in a pseudo-random order, a writer that takes ttf_site_try
 * when it can (else ttf_put_site_prefix and ttf_site_advance) and a
 * reader that takes ttf_site_take without a prefix (else the prefix's site
 * and ttf_site_advance) agree on every site and end in the same state;
 * ttf_site_try never takes what the slot's way 0 predicts. */
static int64_t get_svar(const uint8_t *p, const uint8_t *e)
{
    uint64_t u = 0;
    for (unsigned sh = 0; p < e; sh += 7)
        u |= (uint64_t)(*p & 0x7f) << sh, p++;
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

static void test_fast_paths(void **state)
{
    (void)state;
    static struct ttf_sites wr, rd;
    memset(&wr, 0, sizeof wr);
    memset(&rd, 0, sizeof rd);
    uint64_t x = 12345, fast = 0, pre = 0;
    for (int i = 0; i < 20000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t fn = FN + 0x40 * ((x >> 33) % 5);
        uint64_t site = SITE_A + 0x10 * ((x >> 40) % (i < 10000 ? 3 : 9));
        uint8_t buf[16], tag = 0, *e = buf;
        if (ttf_site_try(&wr, fn, site)) {
            fast++;
        } else {
            e = ttf_put_site_prefix(buf, &wr, fn, site, &tag);
            ttf_site_advance(&wr, fn, site);
        }
        uint64_t got;
        if (e == buf) {
            got = ttf_site_take(&rd, fn);
        } else {
            pre++;
            int64_t d = tag == TTF_T_SITE_NEW ? get_svar(buf + 1, e) : 0;
            got = tag == TTF_T_SITE_NEW ? rd.last + (uint64_t)d
                : rd.ways[TTF_SITE_SLOT(fn)][tag - TTF_T_SITE_WAY];
            ttf_site_advance(&rd, fn, got);
        }
        assert_int_equal(got, site);
    }
    assert_memory_equal(&wr, &rd, sizeof wr);
    assert_true(fast > 1000 && pre > 1000);
    /* way 0's prediction (no path entry yet) is left to the slow path */
    memset(&wr, 0, sizeof wr);
    wr.ways[TTF_SITE_SLOT(FN)][0] = SITE_A;
    assert_int_equal(ttf_site_try(&wr, FN, SITE_A), 0);
    uint8_t b[16], tag = 0;
    assert_ptr_equal(ttf_put_site_prefix(b, &wr, FN, SITE_A, &tag), b);
    assert_int_equal(ttf_site_take(&wr, FN), SITE_A);
    assert_int_equal(wr.path[TTF_SITE_PATH(FN, 0)], SITE_A);
    assert_int_equal(ttf_site_try(&wr, FN, SITE_B), 0);     /* no change */
    assert_int_equal(wr.last, SITE_A);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_paths),
        cmocka_unit_test(test_example_bytes),
        cmocka_unit_test(test_writer_bytes),
        cmocka_unit_test(test_cost),
        cmocka_unit_test(test_bad_prefix),
        cmocka_unit_test(test_with_values),
        cmocka_unit_test(test_versions),
    };
    return cmocka_run_group_tests(tests, NULL, tu_teardown_all);
}
