/*
 * test_format_fast.c - the reader's in-line path for ENTER/EXIT (hits and
 * misses, varints of every length, timed and untimed chunks, values
 * chunks and values of every varint length, chunks with call-site prefixes) gives the events the writer was given, every field of them set
 * even when the caller scribbled over the event between calls, in single
 * thread and merged iteration alike.
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

#define NEV 20000u              /* ENTER/EXIT events per thread */
#define NFUNC 200u              /* distinct functions: misses and hits */

/* One written event, to compare with what is read. */
struct want {
    int kind;                   /* TTF_EV_ENTER or TTF_EV_EXIT */
    uint64_t tsc, addr;         /* as written */
    int depth;                  /* depth before it */
    uint64_t site;              /* ENTER: its call site (sites traces) */
};

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

/* A time step whose varint has 1, 2, 3 or many bytes (or is 0). */
static uint64_t time_step(void)
{
    static const uint64_t range[5] = {1, 128, 16384, 2097152, 1ull << 40};
    return next_rand() % range[next_rand() % 5];
}

/* Function i: near neighbours (short deltas) and far ones (long). */
static uint64_t func_addr(uint64_t i)
{
    return i % 4 == 0 ? 0x7f0000000000ull + i * 0x123456789ull
                      : 0x401000u + i * 0x30u;
}

/* A call site for a call of fn: mostly one of its two usual sites, at
 * times a third or one far away, or none. */
static uint64_t call_site(uint64_t fn)
{
    uint64_t r = next_rand() % 16;
    if (r < 9)
        return fn + 0x1000 + 5 * (r % 2);
    if (r < 13)
        return 0x401000u + next_rand() % 0x100000;
    return r < 15 ? 0x7f0000000000ull + next_rand() : 0;
}

/* Thread th's events: a random walk of calls and returns. */
static struct want *plan(uint64_t tsc0)
{
    struct want *w = calloc(NEV, sizeof *w);
    uint64_t stack[NEV], tsc = tsc0;
    int depth = 0;

    assert_non_null(w);
    for (uint32_t i = 0; i < NEV; i++) {
        int enter = depth == 0 || (i + (uint32_t)depth < NEV && next_rand() % 2);
        tsc += time_step();
        if (enter)
            stack[depth] = func_addr(next_rand() % NFUNC);
        else
            depth--;
        w[i] = (struct want){enter ? TTF_EV_ENTER : TTF_EV_EXIT, tsc,
                             stack[depth], enter ? depth : depth + 1,
                             enter ? call_site(stack[depth]) : 0};
        if (enter)
            depth++;
    }
    return w;
}

/* A writer of a 2-thread trace at name (4 KiB chunks) into *wr: its path. */
static const char *open_two(const char *name, int timed, int values, ttf_writer **wr)
{
    const char *path = tu_path(name);
    ttf_writer_opts o = {.chunk_size = 4096, .timed = timed, .values = values};

    assert_int_equal(ttf_writer_open(path, &o, wr), 0);
    for (uint32_t th = 0; th < 2; th++)
        assert_int_equal(ttf_write_thread_start(*wr, th, 1000 + th, 7 + th, "t"), 0);
    return path;
}

static const char *write_plan(const char *name, int timed, int values,
                              int sites, struct want *w[2])
{
    uint64_t regs[TTF_VALUE_REGS] = {0};
    ttf_writer *wr;
    const char *path = open_two(name, timed, values, &wr);

    for (uint32_t i = 0; i < NEV; i++) {
        for (uint32_t th = 0; th < 2; th++) {
            const struct want *e = &w[th][i];
            if (e->kind == TTF_EV_ENTER && sites && values)
                assert_int_equal(ttf_write_enter_values_site(wr, th, e->tsc, e->addr,
                                                             e->site, regs), 0);
            else if (e->kind == TTF_EV_ENTER && sites)
                assert_int_equal(ttf_write_enter_site(wr, th, e->tsc, e->addr, e->site), 0);
            else if (e->kind == TTF_EV_ENTER)
                assert_int_equal(ttf_write_enter(wr, th, e->tsc, e->addr), 0);
            else
                assert_int_equal(ttf_write_exit(wr, th, e->tsc, e->addr), 0);
        }
    }
    assert_int_equal(ttf_writer_close(wr, 0), 0);
    return path;
}

/* ev is what the writer's e became; fields it does not use are empty. */
static void check_event(const ttf_event *ev, const struct want *e,
                        uint32_t th, int timed, int values, int sites)
{
    assert_int_equal(ev->call_site, sites ? e->site : 0);
    assert_int_equal(ev->kind, e->kind);
    assert_int_equal(ev->thread, th);
    assert_int_equal(ev->addr, e->addr);
    assert_int_equal(ev->depth, e->depth);
    if (timed)
        assert_int_equal(ev->tsc, e->tsc);
    assert_int_equal(ev->site, 0);
    assert_null(ev->args);
    assert_int_equal(ev->args_len, 0);
    assert_int_equal(ev->signo, 0);
    assert_int_equal(ev->code, 0);
    assert_int_equal(ev->fault_addr, 0);
    assert_int_equal(ev->lost_events, 0);
    assert_int_equal(ev->lost_bytes, 0);
    assert_null(ev->text);
    assert_int_equal(ev->has_values, values);
    assert_int_equal(ev->sync_arg, 0);
}

/* Read thread th (or all threads) scribbling over ev between calls. */
static void read_back(ttf_trace *t, uint32_t which, struct want *w[2],
                      int timed, int values, int sites)
{
    ttf_iter *it;
    ttf_event ev;
    uint32_t k[2] = {0, 0};
    uint64_t last_off[2] = {0, 0}, last_ns = 0;
    int r;

    assert_int_equal(ttf_iter_open(t, which, &it), 0);
    for (;;) {
        memset(&ev, 0xa5, sizeof ev);
        if ((r = ttf_iter_next(it, &ev)) != 1)
            break;
        if (ev.kind != TTF_EV_ENTER && ev.kind != TTF_EV_EXIT)
            continue;
        assert_true(ev.thread < 2);
        assert_true(k[ev.thread] < NEV);
        check_event(&ev, &w[ev.thread][k[ev.thread]++], ev.thread, timed, values, sites);
        assert_true(ev.offset > last_off[ev.thread]);
        last_off[ev.thread] = ev.offset;
        assert_true(which != TTF_ALL_THREADS || ev.time_ns >= last_ns);
        last_ns = ev.time_ns;
    }
    assert_int_equal(r, 0);
    ttf_iter_close(it);
    for (uint32_t th = 0; th < 2; th++)
        assert_int_equal(k[th], which == TTF_ALL_THREADS || which == th ? NEV : 0);
}

static void round_trip(const char *name, int timed, int values, int sites)
{
    struct want *w[2] = {plan(1000), plan(1001)};
    const char *path = write_plan(name, timed, values, sites, w);
    ttf_trace *t;

    assert_int_equal(ttf_open(path, &t, NULL), 0);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 0);
    assert_int_equal(ttf_get_summary(t)->events, 2 * (NEV + 1) + 1);  /* + THREAD_STARTs, END */
    assert_int_equal(ttf_get_summary(t)->sites, sites);
    read_back(t, 0, w, timed, values, sites);
    read_back(t, 1, w, timed, values, sites);
    if (timed)
        read_back(t, TTF_ALL_THREADS, w, timed, values, sites);
    ttf_close(t);
    free(w[0]);
    free(w[1]);
}

static void test_timed(void **state)
{
    (void)state;
    round_trip("timed.trc", 1, 0, 0);
}

static void test_untimed(void **state)
{
    (void)state;
    round_trip("untimed.trc", 0, 0, 0);
}

static void test_values(void **state)
{
    (void)state;
    round_trip("values.trc", 1, 1, 0);
}

static void test_sites(void **state)
{
    (void)state;
    round_trip("sites.trc", 1, 0, 1);
    round_trip("sites_untimed.trc", 0, 0, 1);
    round_trip("sites_values.trc", 1, 1, 1);
}

/* ---- SYNC_OP records in line -------------------------------------------- */

#define NSYNC 3000u             /* SYNC_OP records per thread */

/* Objects and arguments whose varints have 1 to 10 bytes. */
static const uint64_t sync_obj[] = {0, 1, 0x7f, 0x80, 0x3fff, 0x4000, 0x5000, 0x1fffff,
                                    0x7f1234567890ull, 0xffffffffffffull, 1ull << 56,
                                    1ull << 63, UINT64_MAX};
static const int64_t sync_arg[] = {0, 1, -1, 63, -64, 64, -110, 0x5000, 1000000000,
                                   0x7f1234567890ll, INT64_MAX, INT64_MIN};

/* Two threads, each: an ENTER, a SYNC_OP (op 1..255 in turn: every known
 * operation and unknown ones), an EXIT, NSYNC times. */
static const char *write_syncs(const char *name, int timed, int values, int sites)
{
    uint64_t tsc = 1000;
    ttf_writer *wr;
    const char *path = open_two(name, timed, values, &wr);

    for (uint32_t i = 0; i < NSYNC; i++) {
        for (uint32_t th = 0; th < 2; th++) {
            uint64_t fn = func_addr(next_rand() % NFUNC);
            tsc += time_step();
            if (sites)
                assert_int_equal(ttf_write_enter_site(wr, th, tsc, fn, call_site(fn)), 0);
            else
                assert_int_equal(ttf_write_enter(wr, th, tsc, fn), 0);
            tsc += time_step();
            assert_int_equal(ttf_write_sync_op(wr, th, tsc, 1 + (int)(i % 255),
                                               sync_obj[next_rand() % 13],
                                               sync_arg[next_rand() % 12]), 0);
            tsc += time_step();
            assert_int_equal(ttf_write_exit(wr, th, tsc, fn), 0);
        }
    }
    assert_int_equal(ttf_writer_close(wr, 0), 0);
    return path;
}

/* Thread th of t read twice in step: as ttf_iter_next reads it (the in-line
 * path first) and by dec_next alone (ttfi_titer_step), each event over
 * the same scribbled bytes. A SYNC_OP is the same to the byte, any other
 * event in its fields; *fast counts the SYNC_OPs read in line. The
 * SYNC_OPs read. */
static uint32_t sync_both_ways(const ttf_trace *t, uint32_t th, uint32_t *fast)
{
    struct titer a, b;
    ttf_event ea, eb;
    uint32_t n = 0;

    ttfi_titer_init(&a, t, th, NULL);
    ttfi_titer_init(&b, t, th, NULL);
    for (;;) {
        memset(&ea, 0xa5, sizeof ea);
        memset(&eb, 0xa5, sizeof eb);
        int in_line = hot_fast(&a.d, &ea);
        int ra = in_line ? 1 : ttfi_titer_step(&a, &ea);
        int rb = ttfi_titer_step(&b, &eb);
        assert_int_equal(ra, rb);
        if (ra != 1)
            break;
        assert_int_equal(ea.kind, eb.kind);
        assert_int_equal(ea.offset, eb.offset);
        assert_int_equal(ea.tsc, eb.tsc);
        assert_int_equal(ea.time_ns, eb.time_ns);
        assert_int_equal(ea.addr, eb.addr);
        assert_int_equal(ea.depth, eb.depth);
        assert_int_equal(ea.call_site, eb.call_site);
        if (ea.kind != TTF_EV_SYNC_OP)
            continue;
        assert_memory_equal(&ea, &eb, sizeof ea);
        n++;
        *fast += (uint32_t)in_line;
    }
    return n;
}

static void sync_round_trip(const char *name, int timed, int values, int sites)
{
    const char *path = write_syncs(name, timed, values, sites);
    ttf_trace *t;
    uint32_t fast = 0;

    assert_int_equal(ttf_open(path, &t, NULL), 0);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 0);
    for (uint32_t th = 0; th < 2; th++)
        assert_int_equal(sync_both_ways(t, th, &fast), NSYNC);
    /* all in line but a chunk's first record (dec_next begins a chunk) */
    assert_true(fast > 2 * NSYNC - ttf_get_summary(t)->chunks_used);
    ttf_close(t);
}

static void test_sync_ops(void **state)
{
    (void)state;
    sync_round_trip("sync_timed.trc", 1, 0, 0);
    sync_round_trip("sync_untimed.trc", 0, 0, 0);
    sync_round_trip("sync_values.trc", 1, 1, 0);
    sync_round_trip("sync_sites.trc", 1, 0, 1);
}

/* A SYNC_OP whose payload ends after its time (length 1): the in-line
 * path leaves it to dec_next, which ends the chunk there (one damaged
 * chunk) with what it decoded before it the same both ways. */
static void test_sync_damaged(void **state)
{
    (void)state;
    const char *path = write_syncs("sync_bad.trc", 1, 0, 0);
    ttf_trace *t;
    ttf_iter *it;
    ttf_event ev;
    uint64_t off = 0;
    uint32_t k = 0, fast = 0;

    assert_int_equal(ttf_open(path, &t, NULL), 0);
    assert_int_equal(ttf_iter_open(t, 0, &it), 0);
    while (ttf_iter_next(it, &ev) == 1 && !off)
        off = ev.kind == TTF_EV_SYNC_OP && ++k == 100 ? ev.offset : 0;
    ttf_iter_close(it);
    ttf_close(t);
    assert_true(off > 0);
    size_t len;
    uint8_t *buf = tu_read(path, &len);
    assert_int_equal(buf[off], TTF_R_SYNC_OP);
    assert_true(buf[off + 1] >= 3 && buf[off + 1] < 0x80);  /* a one-byte length */
    buf[off + 1] = 1;
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(buf, 1, len, f), len);
    fclose(f);
    free(buf);
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 1);
    uint32_t n = sync_both_ways(t, 0, &fast);
    assert_true(n < NSYNC && n >= 99);
    assert_int_equal(sync_both_ways(t, 1, &fast), NSYNC);
    ttf_close(t);
}

/* A register value whose delta from anything has 1 to 10 bytes as a
 * varint: any magnitude, either sign, at times the same as before. */
static uint64_t any_value(uint64_t before)
{
    uint64_t r = next_rand() % 8;
    if (r == 0)
        return before;
    uint64_t v = next_rand() >> (next_rand() % 64);
    return r < 3 ? before + v : r < 5 ? before - v : v;
}

/* Values of every varint length (the in-line decoder reads up to 8 bytes
 * as a word, longer ones and those near a chunk's end byte by byte), the
 * integer and SSE registers of ENTERs and an EXIT's rax and xmm0, read
 * back as written; the scan while opening steps over them. */
static void test_value_varints(void **state)
{
    (void)state;
    enum { N = 30000 };
    const char *path = tu_path("varints.trc");
    ttf_writer_opts o = {.chunk_size = 4096, .timed = 1, .values = 1, .xmm = 1};
    ttf_writer *wr;
    uint64_t (*regs)[TTF_VALUE_REGS + TTF_XMM_REGS] = calloc(N, sizeof *regs);
    uint64_t prev[TTF_VALUE_REGS + TTF_XMM_REGS] = {0}, tsc = 1000;

    assert_non_null(regs);
    assert_int_equal(ttf_writer_open(path, &o, &wr), 0);
    assert_int_equal(ttf_write_thread_start(wr, 0, tsc, 7, "t"), 0);
    for (uint32_t i = 0; i < N; i++) {
        for (int k = 0; k < TTF_VALUE_REGS + TTF_XMM_REGS; k++)
            regs[i][k] = prev[k] = any_value(prev[k]);
        uint64_t fn = func_addr(i % NFUNC);
        if (i % 2 == 0)
            assert_int_equal(ttf_write_enter_xmm(wr, 0, tsc += time_step(), fn, regs[i],
                                                 regs[i] + TTF_VALUE_REGS), 0);
        else
            assert_int_equal(ttf_write_exit_xmm(wr, 0, tsc += time_step(), fn, regs[i][0],
                                                regs[i][TTF_VALUE_REGS]), 0);
    }
    assert_int_equal(ttf_writer_close(wr, 0), 0);

    ttf_trace *t;
    ttf_iter *it;
    ttf_event ev;
    uint32_t i = 0;
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 0);
    assert_int_equal(ttf_get_summary(t)->events, N + 2);        /* + THREAD_START, END */
    assert_int_equal(ttf_iter_open(t, 0, &it), 0);
    while (ttf_iter_next(it, &ev) == 1) {
        if (ev.kind != TTF_EV_ENTER && ev.kind != TTF_EV_EXIT)
            continue;
        assert_true(i < N);
        assert_int_equal(ev.has_values, 1);
        assert_int_equal(ev.has_xmm, 1);
        if (ev.kind == TTF_EV_ENTER) {
            for (int k = 0; k < TTF_VALUE_REGS; k++)
                assert_int_equal(ev.argregs[k], regs[i][k]);
            for (int k = 0; k < TTF_XMM_REGS; k++)
                assert_int_equal(ev.argregs[TTF_XMM_SLOT(k)], regs[i][TTF_VALUE_REGS + k]);
        } else {
            assert_int_equal(ev.retval, regs[i][0]);
            assert_int_equal(ev.retxmm, regs[i][TTF_VALUE_REGS]);
        }
        i++;
    }
    assert_int_equal(i, N);
    ttf_iter_close(it);
    ttf_close(t);
    free(regs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timed),
        cmocka_unit_test(test_untimed),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_value_varints),
        cmocka_unit_test(test_sites),
        cmocka_unit_test(test_sync_ops),
        cmocka_unit_test(test_sync_damaged),
    };
    return cmocka_run_group_tests(tests, NULL, tu_teardown_all);
}
