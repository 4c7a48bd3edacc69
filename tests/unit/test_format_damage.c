/*
 * test_format_damage.c - the reader against damaged traces: a cut at every
 * byte offset gives a prefix of the right events (or a clear error), a
 * half-written chunk reads clean, and thousands of random bit flips and
 * byte smashes never crash and keep the counts consistent. Everything runs
 * twice: on a v1.0 trace and on a v1.1 trace whose calls carry values.
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

static uint8_t *g_buf;          /* the reference trace */
static size_t g_len;
static struct evs g_ev[2];      /* its events per thread (no LOST) */
static int g_values;            /* the reference trace carries values */

static const uint8_t g_types[] = {TTF_ARG_I64, TTF_ARG_STR, TTF_ARG_F64};

/* Enter and exit f, with values when the trace has them. */
static void call_edge(ttf_writer *w, uint32_t th, uint64_t tsc, uint64_t f,
                      int exit, int i)
{
    uint64_t r[TTF_VALUE_REGS] = {(uint64_t)i, 0x7ffd0000ull + (uint64_t)i * 8,
                                  (uint64_t)-i, 3, 0, (uint64_t)i << 40};
    if (!g_values && exit)
        assert_int_equal(ttf_write_exit(w, th, tsc, f), 0);
    else if (!g_values)
        assert_int_equal(ttf_write_enter(w, th, tsc, f), 0);
    else if (exit)
        assert_int_equal(ttf_write_exit_value(w, th, tsc, f, (uint64_t)(i % 3 - 1)), 0);
    else
        assert_int_equal(ttf_write_enter_values(w, th, tsc, f, r), 0);
}

static int setup(void **state)
{
    (void)state;
    const char *path = tu_path("ref.trc");
    ttf_writer_opts o = {.chunk_size = 4096, .timed = 1, .tsc_hz = 2500000000ull,
                         .values = g_values};
    ttf_writer *w;
    const char *argv[] = {"prog", "arg"};
    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    assert_int_equal(ttf_write_process(w, 42, 1, "prog", 2, argv, ""), 0);
    ttf_callsite cs = {.id = 1, .kind = TTF_SITE_LOG, .fmt = "n=%d s=%s f=%g",
                       .file = "x.c", .func = "f", .nargs = 3, .types = g_types};
    assert_int_equal(ttf_write_callsite(w, 0, &cs), 0);
    uint64_t tsc = 1000;
    for (uint32_t th = 0; th < 2; th++)
        assert_int_equal(ttf_write_thread_start(w, th, tsc, 100 + th, th ? "w" : "main"), 0);
    for (int i = 0; i < 250; i++) {
        for (uint32_t th = 0; th < 2; th++) {
            uint64_t f = 0x401000u + (uint64_t)(i % 13) * 0x30 + th * 0x1000;
            call_edge(w, th, tsc += 37, f, 0, i);
            if (i % 2) {                 /* big records: fewer events per chunk */
                static const char text[] = "a message argument of some sixty "
                                           "bytes, to fill chunks up";
                uint8_t a[128], *p = a;
                p = ttf_put_svar(p, -i);
                p = ttf_put_str(p, text, sizeof text - 1 - (size_t)(i % 7));
                ttf_put_u64(p, 0x3ff8000000000000ull);
                p += 8;
                assert_int_equal(ttf_write_message(w, th, tsc += 11, 1, a,
                                                   (size_t)(p - a)), 0);
            }
            call_edge(w, th, tsc += 90, f, 1, i);
        }
    }
    assert_int_equal(ttf_write_crash(w, 1, tsc += 5, 11, 1, 0x10), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    g_buf = tu_read(path, &g_len);
    ttf_trace *t = tu_open_mem(g_buf, g_len);
    assert_int_equal(ttf_thread_count(t), 2);
    assert_true(ttf_get_thread(t, 0)->chunks >= 2);
    for (uint32_t th = 0; th < 2; th++)
        g_ev[th] = tu_events(t, th, 1);
    ttf_close(t);
    return 0;
}

static int setup_values(void **state)
{
    g_values = 1;
    return setup(state);
}

static int teardown(void **state)
{
    (void)state;
    free(g_buf);
    free(g_ev[0].ev);
    free(g_ev[1].ev);
    memset(g_ev, 0, sizeof g_ev);
    tu_cleanup();
    tu_dir[0] = 0;              /* the next group makes a new folder */
    return 0;
}

static int same_event(const ttf_event *a, const ttf_event *b)
{
    return a->kind == b->kind && a->thread == b->thread && a->tsc == b->tsc &&
           a->time_ns == b->time_ns && a->addr == b->addr && a->site == b->site &&
           a->depth == b->depth && a->args_len == b->args_len &&
           (!a->args_len || memcmp(a->args, b->args, a->args_len) == 0) &&
           a->signo == b->signo && a->offset == b->offset &&
           a->has_values == b->has_values &&
           (!a->has_values || (a->kind == TTF_EV_EXIT ? a->retval == b->retval
            : memcmp(a->argregs, b->argregs, sizeof a->argregs) == 0));
}

/* Iterate every way the API offers; the counts must agree. */
static void exercise(const ttf_trace *t)
{
    uint64_t per_thread = 0, merged = 0;
    char buf[128];
    for (size_t i = 0; i < ttf_thread_count(t); i++) {
        struct evs e = tu_events(t, (uint32_t)i, 0);
        per_thread += e.n;
        assert_int_equal(e.n, ttf_get_thread(t, i)->events);
        for (size_t k = 0; k < e.n; k++)
            if (e.ev[k].kind == TTF_EV_MESSAGE || e.ev[k].kind == TTF_EV_MARK)
                (void)ttf_format_message(t, &e.ev[k], buf, sizeof buf);
        free(e.ev);
    }
    struct evs m = tu_events(t, TTF_ALL_THREADS, 0);
    merged = m.n;
    free(m.ev);
    assert_int_equal(per_thread, ttf_get_summary(t)->events);
    assert_int_equal(merged, per_thread);
    for (size_t i = 0; i < ttf_notice_count(t); i++)
        assert_non_null(ttf_get_notice(t, i));
    for (size_t i = 0; i < ttf_module_count(t); i++)
        assert_non_null(ttf_get_module(t, i)->path);
}

static void test_truncate_everywhere(void **state)
{
    (void)state;
    size_t lost_seen = 0;
    for (size_t cut = 0; cut <= g_len; cut++) {
        ttf_trace *t = NULL;
        ttf_error err;
        uint8_t *copy = malloc(cut ? cut : 1);
        memcpy(copy, g_buf, cut);
        int r = ttf_open_mem(copy, cut, "cut.trc", &t, &err);
        if (cut < TTF_DATA_OFFSET) {  /* inside the header page (issue 37 item 8) */
            assert_int_equal(r, TT_ETRUNC);
            assert_null(t);
            assert_non_null(strstr(err.msg, "cut.trc: offset"));
            free(copy);
            continue;
        }
        assert_int_equal(r, 0);
        /* a cut inside a chunk is named, and every thread that had not
           ended is cut there (issue 37 item 8) */
        int inside = (cut - TTF_DATA_OFFSET) % 4096 != 0;
        char why[256];
        assert_int_equal(ttf_get_summary(t)->truncated_at, inside ? cut : 0);
        assert_int_equal(ttf_cut_text(t, why, sizeof why), inside);
        if (inside)
            assert_non_null(strstr(why, "the file ends at offset"));
        const ttf_process *pr = ttf_get_process(t);
        for (uint32_t th = 0; inside && th < ttf_thread_count(t); th++) {
            const ttf_thread *x = ttf_get_thread(t, th);
            int exited_here = pr->exited && pr->exit_thread == (int64_t)th;
            if (x->chunks && !x->ended && !exited_here)
                assert_int_equal(x->cut, 1);
        }
        for (uint32_t th = 0; th < ttf_thread_count(t) && th < 2; th++) {
            struct evs e = tu_events(t, th, 0);
            size_t k = 0;
            for (size_t i = 0; i < e.n; i++) {
                if (e.ev[i].kind == TTF_EV_LOST) {
                    lost_seen++;
                    continue;
                }
                if (k >= g_ev[th].n || !same_event(&e.ev[i], &g_ev[th].ev[k]))
                    fail_msg("cut %zu thread %u: event %zu is not event %zu of "
                             "the full trace", cut, th, i, k);
                k++;
            }
            free(e.ev);
        }
        assert_int_equal(ttf_get_summary(t)->closed, 1);  /* header says so */
        if (cut == g_len)
            assert_int_equal(ttf_notice_count(t), 0);
        if (cut % 8 == 0 || cut > g_len - 64)
            exercise(t);
        ttf_close(t);
        free(copy);
    }
    assert_true(lost_seen > 0);
}

/* A writer that died mid-chunk leaves records whose tag is still 0: every
 * event before that point, no damage, no LOST. */
static void test_half_written(void **state)
{
    (void)state;
    uint8_t *b = malloc(g_len);
    for (size_t k = 1; k < g_ev[1].n; k += 97) {
        memcpy(b, g_buf, g_len);
        ttf_put_u32(b + TTF_H_FLAGS, 0);
        uint64_t off = g_ev[1].ev[k].offset;
        uint64_t cend = TTF_DATA_OFFSET +
                        (off - TTF_DATA_OFFSET) / 4096 * 4096 + 4096;
        memset(b + off, 0, cend - off);
        ttf_trace *t = tu_open_mem(b, g_len);
        const ttf_summary *s = ttf_get_summary(t);
        assert_int_equal(s->chunks_damaged, 0);
        struct evs e = tu_events(t, 1, 0);
        /* all events but those of the zeroed records, no LOST */
        size_t i = 0;
        for (size_t j = 0; j < g_ev[1].n; j++) {
            const ttf_event *x = &g_ev[1].ev[j];
            if (x->offset >= off && x->offset < cend)
                continue;
            assert_true(i < e.n);
            assert_true(same_event(&e.ev[i], x));
            i++;
        }
        assert_int_equal(i, e.n);
        assert_int_equal(s->closed, 1);          /* END record of thread 0 */
        free(e.ev);
        ttf_close(t);
    }
    free(b);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static void test_bit_flips(void **state)
{
    (void)state;
    uint8_t *b = malloc(g_len);
    size_t opened = 0, damaged = 0;
    for (int round = 0; round < 3000; round++) {
        memcpy(b, g_buf, g_len);
        int flips = 1 + (int)(rnd() % 4);
        for (int f = 0; f < flips; f++) {
            size_t at;
            switch (rnd() % 4) {
            case 0: at = rnd() % 64; break;                 /* file header */
            case 1: at = TTF_DATA_OFFSET + (rnd() % 5) * 4096 + rnd() % 48; break;
            default: at = rnd() % g_len; break;
            }
            if (at >= g_len)
                at = g_len - 1;
            if (rnd() % 3 == 0)
                b[at] = (uint8_t)rnd();                     /* smash a byte */
            else
                b[at] ^= (uint8_t)(1u << (rnd() % 8));
        }
        ttf_trace *t = NULL;
        ttf_error err;
        int r = ttf_open_mem(b, g_len, "flip.trc", &t, &err);
        if (r) {
            assert_true(r == TT_ECORRUPT || r == TT_EVERSION || r == TT_EFEATURE ||
                        r == TT_ETRUNC);
            assert_non_null(strstr(err.msg, "flip.trc: offset"));
            continue;
        }
        opened++;
        damaged += ttf_get_summary(t)->chunks_damaged != 0;
        exercise(t);
        ttf_close(t);
    }
    assert_true(opened > 1000);
    assert_true(damaged > 100);
    free(b);
}

/* Garbage records after a valid chunk header: any outcome but a crash. */
static void test_garbage_chunks(void **state)
{
    (void)state;
    struct tb b;
    for (int round = 0; round < 500; round++) {
        tb_init(&b, 4096, rnd() % 2 ? 0 : 3000000000ull);
        if (g_values && rnd() % 8)
            ttf_put_u32(b.buf + TTF_H_REQ, TTF_REQ_EVENTS_V1 | TTF_REQ_VALUES);
        for (uint32_t s = 0; s < 3; s++) {
            tb_chunk(&b, s, (uint32_t)(rnd() % 3), (uint32_t)(rnd() % 4),
                     (int)(rnd() % 2), (int32_t)(rnd() % 5) - 2, rnd() % 100000,
                     rnd() % 2 ? rnd() % 100000 : 0);
            if (g_values && rnd() % 4)     /* values chunks, mostly legal */
                ttf_put_u16(b.buf + b.coff + TTF_C_FLAGS,
                            (uint16_t)(ttf_get_le(b.buf + b.coff + TTF_C_FLAGS, 2) |
                                       TTF_CHUNK_VALUES));
            size_t n = (size_t)(rnd() % 600);
            for (size_t i = 0; i < n; i++) {
                uint8_t v = (uint8_t)rnd();
                if (rnd() % 4 == 0)                /* favour small tags */
                    v = (uint8_t)(rnd() % 0x12);
                tb_raw(&b, &v, 1);
            }
        }
        ttf_trace *t = tu_open_mem(b.buf, b.len - (size_t)(rnd() % 2 ? rnd() % 4096 : 0));
        exercise(t);
        ttf_close(t);
        free(b.buf);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_truncate_everywhere),
        cmocka_unit_test(test_half_written),
        cmocka_unit_test(test_bit_flips),
        cmocka_unit_test(test_garbage_chunks),
    };
    int failed = cmocka_run_group_tests_name("v1.0", tests, setup, teardown);
    return failed + cmocka_run_group_tests_name("v1.1 values", tests,
                                                setup_values, teardown);
}
