/*
 * test_format_chain.c - format v1.9, the chain rule of the lazy clock
 * (FORMAT.md 4.7, TTF_REQ_CHAIN, TTF_CHUNK_CHAIN): in a chain chunk an
 * ENTER right after an untimed ENTER carries no time either, so the
 * ENTERs of nested calls after an untimed EXIT join its run. Byte by byte
 * (a callee entered right after its caller's untimed ENTER; a sync record
 * gives the next ENTER its time back, and a timed ENTER the one after
 * it); the chunk flag's conditions (the header bit, a lazy chunk); the
 * hand writer's opts.chain keeping the rule (and opts.lazy alone not);
 * the placement of untimed ENTERs in their run by the learnt gaps (each at
 * its true time when the gaps are regular); the in-line path (hot_decode)
 * and the general decoder giving the same events on drawn nested calls,
 * in plain and values chunks; the open's scan bounds of runs cut by chunk
 * ends and by damage (the look-ahead past it).
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
#define FA 0x401200u
#define FB 0x401300u
#define FC 0x401400u

#define LAZY_FLAGS (TTF_CHUNK_TIMED | TTF_CHUNK_SPARSE | TTF_CHUNK_LAZY)
#define CHAIN_FLAGS (LAZY_FLAGS | TTF_CHUNK_CHAIN)
#define CHAIN_REQ (TTF_REQ_EVENTS_V1 | TTF_REQ_SPARSE | TTF_REQ_LAZY | TTF_REQ_CHAIN)

/* A v1.9 file (1 tick = 1 ns) and a chunk of thread 0 at tsc 1000. */
static void chain_file(struct tb *b, uint32_t req, uint16_t flags)
{
    tb_init(b, 4096, 1000000000u);
    ttf_put_u16(b->buf + TTF_H_VMINOR, 9);
    ttf_put_u32(b->buf + TTF_H_REQ, req);
    tb_chunk(b, 0, 0, 0, 1, 0, 1000, 0);
    ttf_put_u16(b->buf + b->coff + TTF_C_FLAGS, flags);
}

/* An ENTER or EXIT miss of fn after prev, with delta t unless t < 0. */
static void miss(struct tb *b, uint8_t tag, uint64_t fn, uint64_t prev, int64_t t)
{
    tb_u8(b, tag);
    tb_uvar(b, ttf_zigzag((int64_t)(fn - prev)));
    if (t >= 0)
        tb_uvar(b, (uint64_t)t);
}

/* A hit of fn (ENTER or EXIT), with delta t unless t < 0. */
static void hit(struct tb *b, int ex, uint64_t fn, int64_t t)
{
    tb_u8(b, (uint8_t)((ex ? TTF_T_EXIT_HIT : TTF_T_ENTER_HIT) | TTF_SLOT(fn)));
    if (t >= 0)
        tb_uvar(b, (uint64_t)t);
}

/* main -> A -> B timed; B's untimed EXIT; B entered again (untimed, after
 * the EXIT) and C inside it (untimed, after the ENTER: a miss with no
 * delta); their untimed EXITs; a SYNC_OP (t 50: 1080) reads the clock, so
 * B's next ENTER has a delta (1090) and C's after it too (1095: after a
 * timed ENTER); then C's untimed EXIT, C, EXIT C, EXIT B, B, C all
 * untimed, ended by C's TIMED EXIT (1125). */
static void chain_bytes(struct tb *b)
{
    miss(b, TTF_T_ENTER_MISS, MAIN, 0, 10);     /* 1010 */
    miss(b, TTF_T_ENTER_MISS, FA, MAIN, 10);    /* 1020 */
    miss(b, TTF_T_ENTER_MISS, FB, FA, 10);      /* 1030 */
    hit(b, 1, FB, -1);
    hit(b, 0, FB, -1);
    miss(b, TTF_T_ENTER_MISS, FC, FB, -1);      /* untimed, after an untimed ENTER */
    hit(b, 1, FC, -1);
    hit(b, 1, FB, -1);
    static const uint8_t sync[] = {TTF_R_SYNC_OP, 4, 50, TTF_SOP_LOCK, 0, 0};
    tb_raw(b, sync, sizeof sync);               /* 1080 */
    hit(b, 0, FB, 10);                          /* 1090 */
    hit(b, 0, FC, 5);                           /* 1095 */
    hit(b, 1, FC, -1);
    hit(b, 0, FC, -1);
    hit(b, 1, FC, -1);
    hit(b, 1, FB, -1);
    hit(b, 0, FB, -1);
    hit(b, 0, FC, -1);
    tb_u8(b, TTF_T_TIMED);
    hit(b, 1, FC, 30);                          /* 1125 */
    tb_u8(b, TTF_T_TIMED);
    hit(b, 1, FB, 5);                           /* 1130 */
    tb_u8(b, TTF_T_TIMED);
    hit(b, 1, FA, 5);                           /* 1135 */
    tb_u8(b, TTF_T_TIMED);
    hit(b, 1, MAIN, 5);                         /* 1140 */
}

static void test_rule(void **state)
{
    (void)state;
    struct tb b;
    chain_file(&b, CHAIN_REQ, CHAIN_FLAGS);
    chain_bytes(&b);
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    assert_int_equal(ttf_get_header(t)->version_minor, 9);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 0);
    assert_int_equal(ttf_notice_count(t), 0);
    struct evs e = tu_events(t, 0, 0);
    static const struct { int kind; uint64_t fn; int untimed, depth; uint64_t lo, hi; } want[] = {
        {TTF_EV_ENTER, MAIN, 0, 0, 1010, 1010},
        {TTF_EV_ENTER, FA, 0, 1, 1020, 1020},
        {TTF_EV_ENTER, FB, 0, 2, 1030, 1030},
        {TTF_EV_EXIT, FB, 1, 3, 1030, 1080},
        {TTF_EV_ENTER, FB, 1, 2, 1030, 1080},
        {TTF_EV_ENTER, FC, 1, 3, 1030, 1080},
        {TTF_EV_EXIT, FC, 1, 4, 1030, 1080},
        {TTF_EV_EXIT, FB, 1, 3, 1030, 1080},
        {TTF_EV_SYNC_OP, 0, 0, 2, 1080, 1080},
        {TTF_EV_ENTER, FB, 0, 2, 1090, 1090},
        {TTF_EV_ENTER, FC, 0, 3, 1095, 1095},
        {TTF_EV_EXIT, FC, 1, 4, 1095, 1125},
        {TTF_EV_ENTER, FC, 1, 3, 1095, 1125},
        {TTF_EV_EXIT, FC, 1, 4, 1095, 1125},
        {TTF_EV_EXIT, FB, 1, 3, 1095, 1125},
        {TTF_EV_ENTER, FB, 1, 2, 1095, 1125},
        {TTF_EV_ENTER, FC, 1, 3, 1095, 1125},
        {TTF_EV_EXIT, FC, 0, 4, 1125, 1125},
        {TTF_EV_EXIT, FB, 0, 3, 1130, 1130},
        {TTF_EV_EXIT, FA, 0, 2, 1135, 1135},
        {TTF_EV_EXIT, MAIN, 0, 1, 1140, 1140},
    };
    assert_int_equal(e.n, sizeof want / sizeof want[0]);
    uint64_t last = 0;
    for (size_t i = 0; i < e.n; i++) {
        const ttf_event *ev = &e.ev[i];
        assert_int_equal(ev->kind, want[i].kind);
        if (want[i].fn)
            assert_int_equal(ev->addr, want[i].fn);
        assert_int_equal(ev->untimed, want[i].untimed);
        assert_int_equal(ev->depth, want[i].depth);
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

/* The chunk flag's conditions: without the header bit, or on a chunk
 * that is not lazy, the chunk is corrupt (one notice, none of its events
 * read); a lazy chunk of the same file without the flag keeps 1.7's rule
 * (a byte that would be the untimed C's next record is read as its delta). */
static void test_bad_flags(void **state)
{
    (void)state;
    static const struct { uint32_t req; uint16_t flags; const char *why; } bad[] = {
        {CHAIN_REQ & ~TTF_REQ_CHAIN, CHAIN_FLAGS, "lacks the lazy-chain feature"},
        {CHAIN_REQ, TTF_CHUNK_TIMED | TTF_CHUNK_SPARSE | TTF_CHUNK_CHAIN, "lazy-chain but not lazy"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        struct tb b;
        chain_file(&b, bad[i].req, bad[i].flags);
        chain_bytes(&b);
        ttf_trace *t = tu_open_mem(b.buf, b.len);
        assert_int_equal(ttf_get_summary(t)->chunks_damaged, 1);
        assert_true(tu_has_notice(t, bad[i].why));
        ttf_close(t);
        free(b.buf);
    }
    struct tb b;
    chain_file(&b, CHAIN_REQ, LAZY_FLAGS);
    chain_bytes(&b);
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    struct evs e = tu_events(t, 0, 0);
    assert_true(e.n > 6);
    assert_int_equal(e.ev[5].addr, FC);
    assert_int_equal(e.ev[5].untimed, 0);   /* 1.7's rule: it has a delta */
    free(e.ev);
    ttf_close(t);
    free(b.buf);
}

/* The hand writer: with opts.chain an ENTER right after an untimed ENTER
 * drops its time (the header says 1.9 and the bit); with opts.lazy alone
 * it keeps it (1.7); opts.chain without lazy writes no chain bit. */
static void writer_check(int chain)
{
    ttf_writer_opts o = {.chunk_size = 4096, .timed = 1, .sparse = 1, .lazy = 1, .chain = chain};
    ttf_writer *w;
    const char *path = tu_path(chain ? "writer_chain.trc" : "writer_lazy.trc");
    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 1000, 1, "main"), 0);
    assert_int_equal(ttf_write_enter(w, 0, 1010, MAIN), 0);
    assert_int_equal(ttf_write_enter(w, 0, 1020, FA), 0);
    assert_int_equal(ttf_write_exit_sparse(w, 0, 0, FA, TTF_EXIT_UNTIMED), 0);
    assert_int_equal(ttf_write_enter(w, 0, 1035, FA), 0);      /* untimed: 1035 dropped */
    assert_int_equal(ttf_write_enter(w, 0, 1038, FB), 0);      /* chain: untimed too */
    assert_int_equal(ttf_write_exit_sparse(w, 0, 1042, FB, TTF_EXIT_SAMPLE), 0);
    assert_int_equal(ttf_write_enter(w, 0, 1045, FB), 0);      /* timed */
    assert_int_equal(ttf_write_enter(w, 0, 1047, FC), 0);      /* after a timed ENTER: timed */
    assert_int_equal(ttf_write_exit(w, 0, 1048, FC), 0);
    assert_int_equal(ttf_write_exit(w, 0, 1049, FB), 0);
    assert_int_equal(ttf_write_exit(w, 0, 1050, FA), 0);
    assert_int_equal(ttf_write_exit(w, 0, 1051, MAIN), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    ttf_trace *t;
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    const ttf_header *h = ttf_get_header(t);
    assert_int_equal(h->version_minor, chain ? 9 : 7);
    assert_int_equal(h->required_features & TTF_REQ_CHAIN, chain ? TTF_REQ_CHAIN : 0);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 14);                  /* start, 12 events of calls, END */
    assert_int_equal(e.ev[4].untimed, 1);       /* ENTER A after the untimed EXIT */
    assert_int_equal(e.ev[5].kind, TTF_EV_ENTER);
    assert_int_equal(e.ev[5].addr, FB);
    assert_int_equal(e.ev[5].untimed, chain);   /* ENTER B after the untimed ENTER */
    if (chain) {
        assert_true(e.ev[4].tsc <= e.ev[5].tsc && e.ev[5].tsc <= 1042);
        assert_int_equal(e.ev[5].early_ns, 20);
        assert_int_equal(e.ev[5].late_ns, 42);
    } else {
        assert_int_equal(e.ev[5].tsc, 1038);
    }
    assert_int_equal(e.ev[6].tsc, 1042);
    assert_int_equal(e.ev[7].untimed, 0);
    assert_int_equal(e.ev[8].untimed, 0);
    assert_int_equal(e.ev[8].tsc, 1047);
    free(e.ev);
    ttf_close(t);
}

static void test_writer(void **state)
{
    (void)state;
    writer_check(1);
    writer_check(0);
    ttf_writer_opts nolazy = {.chunk_size = 4096, .timed = 1, .sparse = 1, .chain = 1};
    ttf_writer *w;
    const char *path = tu_path("writer_chain_nl.trc");
    assert_int_equal(ttf_writer_open(path, &nolazy, &w), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 1000, 1, "main"), 0);
    assert_int_equal(ttf_write_enter(w, 0, 1010, MAIN), 0);
    assert_int_equal(ttf_write_exit(w, 0, 1020, MAIN), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    ttf_trace *t;
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    assert_int_equal(ttf_get_header(t)->required_features & (TTF_REQ_CHAIN | TTF_REQ_LAZY), 0);
    ttf_close(t);
}

/* A loop of nested calls main -> A -> B -> C with regular gaps: A's ENTER
 * 5 ticks after the previous EXIT, B 3 after A, C 4 after B, C's body 10,
 * B's EXIT 2 after C's, A's 2 after B's. The first 2000 rounds are all
 * timed (the writer's warm-up), then A's EXIT is timed once in three
 * rounds (so a run has at most 8 untimed EXITs), the others untimed; the
 * chain rule leaves every ENTER of a round after an untimed EXIT untimed.
 * The gaps are regular, so every untimed event, ENTERs after untimed
 * ENTERs included, is placed at its true time (within a tick); past the
 * warm-up only the three ENTERs after a timed EXIT and that EXIT are
 * measured: 4 events in 3 rounds. */
static void test_placement(void **state)
{
    (void)state;
    ttf_writer_opts o = {.chunk_size = 1 << 20, .timed = 1, .sparse = 1, .lazy = 1, .chain = 1};
    ttf_writer *w;
    const char *path = tu_path("chain_place.trc");
    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 1000, 1, "main"), 0);
    assert_int_equal(ttf_write_enter(w, 0, 1000, MAIN), 0);
    static const uint64_t fn[3] = {FA, FB, FC}, in[3] = {5, 3, 4}, out[3] = {2, 2, 10};
    uint64_t t = 2000;
    int n = 12000;
    uint64_t *truth = calloc(6 * (size_t)n, sizeof *truth);
    assert_non_null(truth);
    size_t k = 0;
    for (int i = 0; i < n; i++) {
        for (int d = 0; d < 3; d++) {
            t += in[d];
            truth[k++] = t;
            assert_int_equal(ttf_write_enter(w, 0, t, fn[d]), 0);
        }
        for (int d = 2; d >= 0; d--) {
            t += out[d];
            truth[k++] = t;
            int timed = i < 2000 || (d == 0 && i % 3 == 0) || (d == 0 && i == n - 1);
            assert_int_equal(ttf_write_exit_sparse(w, 0, t, fn[d],
                                                   timed ? TTF_EXIT_TIMED : TTF_EXIT_UNTIMED), 0);
        }
    }
    assert_int_equal(ttf_write_exit(w, 0, t + 5, MAIN), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    ttf_trace *tr;
    assert_int_equal(ttf_open(path, &tr, NULL), 0);
    assert_int_equal(ttf_get_header(tr)->version_minor, 9);
    struct evs e = tu_events(tr, 0, 0);
    size_t j = 0, chained = 0, measured = 0;
    for (size_t i = 0; i < e.n; i++) {
        const ttf_event *ev = &e.ev[i];
        if ((ev->kind != TTF_EV_ENTER && ev->kind != TTF_EV_EXIT) || ev->addr == MAIN)
            continue;
        assert_true(j < k);
        uint64_t want = truth[j++];
        if (ev->tsc + 1 < want || ev->tsc > want + 1)
            fail_msg("event %zu (%s of 0x%llx%s) at %llu, truly at %llu", i,
                     ev->kind == TTF_EV_ENTER ? "ENTER" : "EXIT", (unsigned long long)ev->addr,
                     ev->untimed ? ", untimed" : "", (unsigned long long)ev->tsc,
                     (unsigned long long)want);
        if (ev->untimed) {
            assert_true(ev->early_ns <= ev->time_ns && ev->time_ns <= ev->late_ns);
            chained += ev->kind == TTF_EV_ENTER && ev->addr != FA;
        } else {
            measured++;
        }
    }
    assert_int_equal(j, k);
    assert_true(chained > (size_t)(n - 2000) * 2 * 6 / 10);
    assert_true(measured <= 2000 * 6 + (size_t)(n - 2000) * 4 / 3 + 4);
    free(e.ev);
    free(truth);
    ttf_close(tr);
}

/* Writes path: n steps of a random walk of nested calls (up to 12 deep)
 * over 300 functions (cache misses and hits), each EXIT untimed, sampled
 * or timed by a draw from seed, a SYNC_OP now and then; with values,
 * every call's registers and return value drawn too. */
static void write_nested(const char *path, int values, uint64_t seed, int n, uint32_t chunk)
{
    ttf_writer_opts o = {.chunk_size = chunk, .timed = 1, .sparse = 1, .lazy = 1, .chain = 1,
                         .values = values};
    ttf_writer *w;
    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 1000, 1, "main"), 0);
    uint64_t t = 2000, r = seed, stack[16];
    int depth = 0;
    for (int i = 0; i < n || depth > 0; i++) {
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        int down = i < n && depth < 12 && (depth == 0 || (r >> 61) >= 3);
        t += 1 + (r >> 60);
        if (down) {
            uint64_t fn = 0x401000 + 16 * ((r >> 33) % 300);
            uint64_t regs[TTF_VALUE_REGS] = {r >> 50, (uint64_t)i, fn, 0, (r >> 20) & 7, 0};
            stack[depth++] = fn;
            assert_int_equal(values ? ttf_write_enter_values(w, 0, t, fn, regs)
                                    : ttf_write_enter(w, 0, t, fn), 0);
            continue;
        }
        uint64_t fn = stack[--depth];
        unsigned draw = (unsigned)(r >> 40) % 16;
        int clock = draw == 0 ? TTF_EXIT_SAMPLE : draw == 1 ? TTF_EXIT_TIMED : TTF_EXIT_UNTIMED;
        assert_int_equal(values ? ttf_write_exit_value_sparse(w, 0, t, fn, r >> 45, clock)
                                : ttf_write_exit_sparse(w, 0, t, fn, clock), 0);
        if (draw == 2)
            assert_int_equal(ttf_write_sync_op(w, 0, ++t, TTF_SOP_LOCK, 0x1000, 0), 0);
    }
    assert_int_equal(ttf_writer_close(w, 0), 0);
}

/* A drawn chain trace read twice: by the iterator (the in-line path) and
 * by the general decoder alone (ttfi_titer_step): the same events, times,
 * bounds (and values); untimed ENTERs right after untimed ENTERs among
 * them. Then the open's scan bounds: the trace's duration is the span of
 * the events' late bounds (runs cut by chunk ends among them). */
static void fast_check(int values, uint64_t seed)
{
    const char *path = tu_path(values ? "chain_fast_v.trc" : "chain_fast.trc");
    write_nested(path, values, seed, 30000, 1 << 13);
    ttf_trace *tr;
    assert_int_equal(ttf_open(path, &tr, NULL), 0);
    assert_int_equal(ttf_get_summary(tr)->chunks_damaged, 0);
    assert_true(ttf_get_summary(tr)->chunks_used > 4);
    assert_int_equal(ttf_get_header(tr)->required_features & TTF_REQ_VLAZY,
                     values ? TTF_REQ_VLAZY : 0);
    struct evs e = tu_events(tr, 0, 0);
    struct titer ti;
    ttfi_titer_init(&ti, tr, 0, NULL);
    ttf_event ev;
    size_t n = 0, chained = 0;
    int prev_untimed_enter = 0;
    uint64_t lo = UINT64_MAX, hi = 0;
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
        if (values && ev.kind == TTF_EV_ENTER)
            assert_memory_equal(f->argregs, ev.argregs, TTF_VALUE_REGS * sizeof ev.argregs[0]);
        if (values && ev.kind == TTF_EV_EXIT)
            assert_int_equal(f->retval, ev.retval);
        chained += (size_t)(prev_untimed_enter && ev.untimed && ev.kind == TTF_EV_ENTER);
        prev_untimed_enter = ev.untimed && ev.kind == TTF_EV_ENTER;
        uint64_t b = ttf_event_late_ns(&ev);
        lo = b < lo ? b : lo;
        hi = b > hi ? b : hi;
    }
    assert_int_equal(n, e.n);
    assert_true(chained > 1000);
    assert_int_equal(ttf_get_summary(tr)->duration_ns, hi - lo);
    free(e.ev);
    ttf_close(tr);
}

static void test_fast_path(void **state)
{
    (void)state;
    fast_check(0, 12345);
    fast_check(0, 99);
    fast_check(1, 4242);
}

/* Damage inside a run: A's untimed EXIT, A and B entered untimed (B after
 * the untimed ENTER), an unknown required record (the decoding stops),
 * then B's TIMED EXIT at 1070 that only the open's look-ahead sees. The
 * events read are ENTER main 1010, ENTER A 1020, the three untimed and
 * the LOST at the damage; the open's scan gives the untimed their run's
 * end past the damage (the duration is 60), the iteration places them in
 * order inside their bounds (the valid part of the chunk ends at the
 * damage). */
static void test_damage(void **state)
{
    (void)state;
    struct tb b;
    chain_file(&b, CHAIN_REQ, CHAIN_FLAGS);
    miss(&b, TTF_T_ENTER_MISS, MAIN, 0, 10);    /* 1010 */
    miss(&b, TTF_T_ENTER_MISS, FA, MAIN, 10);   /* 1020 */
    hit(&b, 1, FA, -1);
    hit(&b, 0, FA, -1);
    miss(&b, TTF_T_ENTER_MISS, FB, FA, -1);
    static const uint8_t rest[] = {
        0x15, 1, 0,                             /* unknown required record */
    };
    tb_raw(&b, rest, sizeof rest);
    tb_u8(&b, TTF_T_TIMED);
    hit(&b, 1, FB, 50);                         /* 1070 */
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 1);
    assert_int_equal(ttf_get_summary(t)->events, 6);
    assert_int_equal(ttf_get_summary(t)->duration_ns, 60);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 6);
    for (size_t i = 2; i < 5; i++) {
        assert_int_equal(e.ev[i].untimed, 1);
        assert_int_equal(ttf_event_early_ns(&e.ev[i]), 20);
        assert_true(ttf_event_late_ns(&e.ev[i]) <= 70);
        assert_true(e.ev[i].time_ns >= e.ev[i - 1].time_ns);
        assert_true(e.ev[i].time_ns <= ttf_event_late_ns(&e.ev[i]));
    }
    assert_int_equal(e.ev[4].addr, FB);
    assert_int_equal(e.ev[4].kind, TTF_EV_ENTER);
    assert_int_equal(e.ev[5].kind, TTF_EV_LOST);
    free(e.ev);
    ttf_close(t);
    free(b.buf);
}

/* ttf_iter_times and ttf_iter_times_at on a chain trace in small chunks
 * (the nested loop of test_placement, its untimed ENTERs after untimed
 * ENTERs): the times taken back, of the event given last or of one read
 * before, are exactly those of an iteration with times. */
static void test_times_at(void **state)
{
    (void)state;
    ttf_writer_opts o = {.chunk_size = 4096, .timed = 1, .sparse = 1, .lazy = 1, .chain = 1};
    ttf_writer *w;
    const char *path = tu_path("chain_at.trc");
    static const uint64_t fn[3] = {FA, FB, FC}, in[3] = {5, 3, 4}, out[3] = {2, 2, 10};
    uint64_t t = 2000;
    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 1000, 1, "main"), 0);
    assert_int_equal(ttf_write_enter(w, 0, 1000, MAIN), 0);
    for (int i = 0; i < 5000; i++) {
        for (int d = 0; d < 3; d++)
            assert_int_equal(ttf_write_enter(w, 0, t += in[d] + (uint64_t)(i % 7), fn[d]), 0);
        for (int d = 2; d >= 0; d--)
            assert_int_equal(ttf_write_exit_sparse(w, 0, t += out[d], fn[d],
                                                   d == 0 && i % 3 == 0 ? TTF_EXIT_TIMED
                                                                        : TTF_EXIT_UNTIMED), 0);
    }
    assert_int_equal(ttf_write_exit(w, 0, t + 5, MAIN), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    ttf_trace *tr;
    assert_int_equal(ttf_open(path, &tr, NULL), 0);
    assert_true(ttf_get_summary(tr)->chunks_used > 4);
    struct evs e = tu_events(tr, 0, 0);
    assert_true(tu_times_back(tr, &e, 3) > 50);
    assert_true(tu_times_at(tr, &e, 4) > 200);
    free(e.ev);
    ttf_close(tr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rule),
        cmocka_unit_test(test_bad_flags),
        cmocka_unit_test(test_writer),
        cmocka_unit_test(test_placement),
        cmocka_unit_test(test_times_at),
        cmocka_unit_test(test_fast_path),
        cmocka_unit_test(test_damage),
    };
    return cmocka_run_group_tests(tests, NULL, tu_teardown_all);
}
