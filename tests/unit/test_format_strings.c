/*
 * test_format_strings.c - format 1.6 STRINGS records: the writer/reader
 * round trip (strings given to the ENTER that follows, across a call-site
 * prefix and chunk ends, the header's minor version and optional bit),
 * FORMAT.md 4.6's example byte for byte, damaged records (a cut entry, a
 * bad register, a register twice, a record not followed by an ENTER)
 * ending their chunk with a notice, one cut by the end of the file, the text
 * form (quoted, escaped, cut, unreadable) and the comparison of two
 * strings known only as far as they were read.
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

static ttf_string mk(unsigned reg, const char *s, int complete)
{
    ttf_string r = {reg, 0, (unsigned)strlen(s), complete, 0, (const uint8_t *)s};
    return r;
}

static void test_roundtrip(void **state)
{
    (void)state;
    const char *path = tu_path("s.trc");
    ttf_writer_opts o = {.chunk_size = 4096, .timed = 1, .values = 1};
    ttf_writer *w;
    uint64_t r[TTF_VALUE_REGS] = {0x1000, 7, 0x2000, 0, 0, 0};
    const int n = 400;                  /* several 4 KiB chunks */

    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 10, 1, "main"), 0);
    for (int i = 0; i < n; i++) {
        char a[48];
        snprintf(a, sizeof a, "key-%d-%s", i, i % 3 ? "x" : "a long tail to cut here");
        ttf_string s[2] = {mk(0, a, i % 3 != 0), mk(2, "", 1)};
        s[1].unreadable = i % 2;
        s[1].complete = !s[1].unreadable;
        s[1].std = 1;
        assert_int_equal(ttf_write_strings(w, 0, s, 2), 0);
        if (i % 5 == 0)
            assert_int_equal(ttf_write_enter_values_site(w, 0, 100 + 10 * (uint64_t)i, FA,
                                                         0x401777 + (uint64_t)i, r), 0);
        else
            assert_int_equal(ttf_write_enter_values(w, 0, 100 + 10 * (uint64_t)i, FA, r), 0);
        assert_int_equal(ttf_write_exit_value(w, 0, 105 + 10 * (uint64_t)i, FA, 0), 0);
        assert_int_equal(ttf_write_enter_values(w, 0, 106 + 10 * (uint64_t)i, FB, r), 0);
        assert_int_equal(ttf_write_exit_value(w, 0, 107 + 10 * (uint64_t)i, FB, 0), 0);
    }
    assert_int_equal(ttf_writer_close(w, 0), 0);

    ttf_trace *t;
    ttf_error err;
    assert_int_equal(ttf_open(path, &t, &err), 0);
    const ttf_header *h = ttf_get_header(t);
    assert_int_equal(h->version_minor, 6);
    assert_true(h->optional_features & TTF_HEADER_STRINGS);
    assert_true(ttf_get_thread(t, 0)->chunks > 2);
    assert_int_equal(ttf_notice_count(t), 0);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 0);
    struct evs e = tu_events(t, 0, 0);
    size_t k = 1;
    for (int i = 0; i < n; i++, k += 4) {
        char a[48];
        snprintf(a, sizeof a, "key-%d-%s", i, i % 3 ? "x" : "a long tail to cut here");
        const ttf_event *en = &e.ev[k];
        ttf_string s;
        assert_int_equal(en->kind, TTF_EV_ENTER);
        assert_int_equal(en->addr, FA);
        assert_int_equal(ttf_event_string(en, 0, &s), 1);
        assert_int_equal(s.len, strlen(a));
        assert_memory_equal(s.text, a, s.len);
        assert_int_equal(s.complete, i % 3 != 0);
        assert_int_equal(s.std, 0);
        assert_int_equal(ttf_event_string(en, 1, &s), 0);
        assert_int_equal(ttf_event_string(en, 2, &s), 1);
        assert_int_equal(s.std, 1);
        assert_int_equal(s.len, 0);
        assert_int_equal(s.unreadable, i % 2);
        assert_null(e.ev[k + 1].strs);                  /* its EXIT */
        assert_null(e.ev[k + 2].strs);                  /* the next ENTER: none */
        assert_int_equal(ttf_event_string(&e.ev[k + 2], 0, &s), 0);
    }
    /* an ENTER's strings come back with its values (ttf_iter_values*) */
    assert_true(tu_values_back(t, &e, 3) > 5);
    assert_true(tu_values_at(t, &e, 5) > 20);
    free(e.ev);
    ttf_close(t);
}

/* A v1.6 file with a values chunk, made by hand. */
static void strings_file(struct tb *b)
{
    tb_init(b, 4096, 1000000000u);
    ttf_put_u16(b->buf + TTF_H_VMINOR, 6);
    ttf_put_u32(b->buf + TTF_H_REQ, TTF_REQ_EVENTS_V1 | TTF_REQ_VALUES);
    ttf_put_u32(b->buf + TTF_H_OPT, TTF_OPT_STRINGS);
    tb_chunk(b, 0, 0, 0, 1, 0, 500, 0);
    ttf_put_u16(b->buf + b->coff + TTF_C_FLAGS, TTF_CHUNK_TIMED | TTF_CHUNK_VALUES);
}

/* FORMAT.md 4.6's example, byte for byte: lookup("cc", (char *)1). */
static void test_example_bytes(void **state)
{
    (void)state;
    struct tb b;
    strings_file(&b);
    static const uint8_t ex[] = {
        0x30, 0x07, 0x02, 0x00, 0x42, 'c', 'c', 0x01, 0x80,   /* STRINGS */
        0x40, 0x80, 0xc8, 0x80, 0x04, 0x03, 0x03, 0x80, 0x40, 0x02, /* ENTER */
    };
    tb_raw(&b, ex, sizeof ex);
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 1);
    assert_int_equal(e.ev[0].kind, TTF_EV_ENTER);
    assert_int_equal(e.ev[0].addr, 0x401200);
    assert_int_equal(e.ev[0].argregs[0], 0x1000);
    assert_int_equal(e.ev[0].argregs[1], 1);
    ttf_string s;
    char buf[64];
    assert_int_equal(ttf_event_string(&e.ev[0], 0, &s), 1);
    ttf_string_format(buf, sizeof buf, &s);
    assert_string_equal(buf, "\"cc\"");
    assert_int_equal(ttf_event_string(&e.ev[0], 1, &s), 1);
    ttf_string_format(buf, sizeof buf, &s);
    assert_string_equal(buf, "(unreadable)");
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 0);
    free(e.ev);
    ttf_close(t);
    free(b.buf);
}

/* Damaged STRINGS records end their chunk with a notice; the events
 * before stay. */
static void damaged(const uint8_t *rec, size_t len, int then_enter, const char *notice)
{
    struct tb b;
    strings_file(&b);
    static const uint8_t first[] = {0x40, 0x80, 0xc8, 0x80, 0x04, 0x04, 0x00};
    tb_raw(&b, first, sizeof first);                    /* ENTER 0x401200 */
    size_t bad_at = b.cpos;
    tb_raw(&b, rec, len);
    if (then_enter == 1)
        tb_raw(&b, (const uint8_t[]){0x80 | TTF_SLOT(0x401200), 0x01, 0x00}, 3);
    if (then_enter == 2)                                /* an EXIT instead */
        tb_raw(&b, (const uint8_t[]){0xc0 | TTF_SLOT(0x401200), 0x01, 0x00}, 3);
    tu_one_enter_then_damage(&b, bad_at, notice);
}

static void test_damaged(void **state)
{
    (void)state;
    static const uint8_t cut[] = {0x30, 0x05, 0x01, 0x00, 0x45, 'a', 'b'};  /* 5 bytes said */
    damaged(cut, sizeof cut, 1, "bad STRINGS record: string 1 of 1 is damaged or cut");
    static const uint8_t reg[] = {0x30, 0x03, 0x01, 0x06, 0x40};            /* register 6 */
    damaged(reg, sizeof reg, 1, "string 1 of 1 is damaged or cut");
    static const uint8_t bits[] = {0x30, 0x03, 0x01, 0x10, 0x40};           /* what bit 4 */
    damaged(bits, sizeof bits, 1, "string 1 of 1 is damaged or cut");
    static const uint8_t both[] = {0x30, 0x03, 0x01, 0x00, 0xc0};           /* END + FAULT */
    damaged(both, sizeof both, 1, "string 1 of 1 is damaged or cut");
    static const uint8_t twice[] = {0x30, 0x05, 0x02, 0x01, 0x40, 0x01, 0x40};
    damaged(twice, sizeof twice, 1, "register 1 given twice");
    static const uint8_t empty[] = {0x30, 0x00};
    damaged(empty, sizeof empty, 1, "no string count");
    static const uint8_t ok[] = {0x30, 0x03, 0x01, 0x00, 0x40};
    damaged(ok, sizeof ok, 2, "STRINGS record not followed by an ENTER");
    damaged(ok, sizeof ok, 0, "STRINGS record not followed by an ENTER"); /* 0x00 */
    static const uint8_t two[] = {0x30, 0x03, 0x01, 0x00, 0x40, 0x30, 0x03, 0x01, 0x00, 0x40};
    damaged(two, sizeof two, 1, "STRINGS record not followed by an ENTER");
}

/* A STRINGS record cut by the end of the file: truncated, not corrupt. */
static void test_truncated(void **state)
{
    (void)state;
    struct tb b;
    strings_file(&b);
    static const uint8_t first[] = {0x40, 0x80, 0xc8, 0x80, 0x04, 0x04, 0x00};
    tb_raw(&b, first, sizeof first);
    static const uint8_t rec[] = {0x30, 0x09, 0x02, 0x00, 0x42};
    tb_raw(&b, rec, sizeof rec);
    size_t len = b.cpos;                                /* the file ends here */
    ttf_trace *t = tu_open_mem(b.buf, len);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 2);
    assert_int_equal(e.ev[1].kind, TTF_EV_LOST);
    assert_true(tu_has_notice(t, "STRINGS"));
    free(e.ev);
    ttf_close(t);
    free(b.buf);
}

static void test_format(void **state)
{
    (void)state;
    char buf[128];
    ttf_string s = mk(0, "a\"b\\c\n\x01", 1);
    ttf_string_format(buf, sizeof buf, &s);
    assert_string_equal(buf, "\"a\\\"b\\\\c\\n\\x01\"");
    s = mk(0, "abcd", 0);
    ttf_string_format(buf, sizeof buf, &s);
    assert_string_equal(buf, "\"abcd\"\xe2\x80\xa6");
    s.unreadable = 1;
    ttf_string_format(buf, sizeof buf, &s);
    assert_string_equal(buf, "\"abcd\"\xe2\x80\xa6 (unreadable after)");
    s = mk(0, "", 0);
    s.unreadable = 1;
    ttf_string_format(buf, sizeof buf, &s);
    assert_string_equal(buf, "(unreadable)");
    assert_int_equal(ttf_string_format(buf, 3, &s), 12);    /* snprintf's count */
}

static void test_same(void **state)
{
    (void)state;
    ttf_string cc = mk(0, "cc", 1), cx = mk(0, "cx", 1), c = mk(0, "c", 1);
    ttf_string long1 = mk(0, "abcdef", 0), long2 = mk(0, "abcdeg", 0), pre = mk(0, "abc", 0);
    ttf_string abc = mk(0, "abc", 1), abcd_cut = mk(0, "abcd", 0);
    ttf_string bad = mk(0, "", 0), bad2 = mk(0, "", 0);
    bad.unreadable = bad2.unreadable = 1;
    assert_true(ttf_string_same(&cc, &cc));
    assert_false(ttf_string_same(&cc, &cx));
    assert_false(ttf_string_same(&cc, &c));             /* "c" ends where "cc" has 'c' */
    assert_false(ttf_string_same(&long1, &long2));
    assert_true(ttf_string_same(&long1, &pre));         /* both cut: rest unknown */
    assert_true(ttf_string_same(&abc, &pre));           /* "abc" may be all "abc..." had */
    assert_false(ttf_string_same(&abc, &abcd_cut));     /* 'd' where "abc" ended */
    assert_true(ttf_string_same(&bad, &bad2));
    assert_false(ttf_string_same(&bad, &cc));
}

/* A reader of 1.5 skips the record: the writer's bytes are an optional
 * record (0x20..0x3F) with a length, and the ENTER after it reads as
 * before. Shown here with the record's tag in the range a 1.5 reader
 * skips and counts. */
static void test_optional_tag(void **state)
{
    (void)state;
    assert_true(TTF_R_STRINGS >= TTF_R_OPTIONAL_FIRST && TTF_R_STRINGS <= TTF_R_LAST);
    assert_int_equal(TTF_VERSION_MINOR_WIRE, 9);   /* 1.9: chain chunks */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_example_bytes),
        cmocka_unit_test(test_damaged),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_format),
        cmocka_unit_test(test_same),
        cmocka_unit_test(test_optional_tag),
    };
    return cmocka_run_group_tests(tests, NULL, tu_teardown_all);
}
