/*
 * test_format.c - trace format v1: writer/reader round trip of every record
 * kind, header refusal (version, features, magic damage), unknown records,
 * sequence gaps, ring-style reused chunks, the merged iterator, times and
 * message formatting. Damage sweeps are in test_format_damage.c.
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

#define F1 0x401000u
#define F2 0x401230u
#define F3 0x7f0000102340ull

static const uint8_t msg_types[] = {TTF_ARG_I64, TTF_ARG_U64, TTF_ARG_F64,
                                    TTF_ARG_PTR, TTF_ARG_STR};

/* A trace with every record kind the writer has; returns its path. */
static const char *write_all_kinds(const char *name, int close_it)
{
    const char *path = tu_path(name);
    ttf_writer_opts o = {.chunk_size = 4096, .timed = 1, .tsc_hz = 2000000000u,
                         .start_realtime_ns = 1700000000000000000ull};
    ttf_writer *w;
    const char *argv[] = {"./prog", "-x", "arg two"};
    static const uint8_t bid[] = {0xde, 0xad, 0xbe, 0xef};
    uint8_t args[64], *p = args;

    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    assert_int_equal(ttf_writer_open(path, &o, &(ttf_writer *){0}), TT_EIO);
    assert_int_equal(ttf_write_process(w, 1234, 1, "/usr/bin/prog", 3, argv, ""), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 1000, 1234, "main"), 0);
    assert_int_equal(ttf_write_module(w, 0, 1000, 0x400000, 0x10000, bid, 4, "/usr/bin/prog"), 0);
    assert_int_equal(ttf_write_module(w, 0, 1001, 0x7f0000100000ull, 0x8000, NULL, 0, "libx.so"), 0);
    ttf_callsite log = {.id = 1, .kind = TTF_SITE_LOG, .level = 2, .line = 42,
                        .fmt = "i=%lld u=%llu f=%.2f p=%p s=%s", .file = "a.c",
                        .func = "main", .nargs = 5, .types = msg_types};
    ttf_callsite mark = {.id = 2, .kind = TTF_SITE_MARK, .fmt = "checkpoint",
                         .file = "a.c", .func = "main"};
    ttf_callsite scope = {.id = 3, .kind = TTF_SITE_SCOPE, .fmt = "", .file = "a.c",
                          .func = "work_scope"};
    assert_int_equal(ttf_write_callsite(w, 0, &log), 0);
    assert_int_equal(ttf_write_callsite(w, 0, &mark), 0);
    assert_int_equal(ttf_write_callsite(w, 0, &scope), 0);
    assert_int_equal(ttf_write_enter(w, 0, 1010, F1), 0);   /* miss */
    assert_int_equal(ttf_write_enter(w, 0, 1020, F2), 0);   /* miss */
    assert_int_equal(ttf_write_exit(w, 0, 1030, F2), 0);    /* hit */
    p = ttf_put_svar(p, -5);
    p = ttf_put_uvar(p, 7);
    double d = 3.25;
    uint64_t dv;
    memcpy(&dv, &d, 8);
    ttf_put_u64(p, dv);
    p += 8;
    p = ttf_put_uvar(p, 0x1000);
    p = ttf_put_str(p, "hi", 2);
    assert_int_equal(ttf_write_message(w, 0, 1040, 1, args, (size_t)(p - args)), 0);
    assert_int_equal(ttf_write_mark(w, 0, 1050, 2), 0);
    assert_int_equal(ttf_write_scope(w, 0, 1060, 3, 1), 0);
    assert_int_equal(ttf_write_scope(w, 0, 1070, 3, 0), 0);
    assert_int_equal(ttf_write_thread_start(w, 1, 1080, 1240, "worker"), 0);
    assert_int_equal(ttf_write_enter(w, 1, 1090, F3), 0);
    assert_int_equal(ttf_write_thread_name(w, 1, 1100, "worker-2"), 0);
    assert_int_equal(ttf_write_lost(w, 1, 1110, 17, 300), 0);
    assert_int_equal(ttf_write_pause(w, 1, 1120, 1), 0);
    assert_int_equal(ttf_write_pause(w, 1, 1130, 0), 0);
    assert_int_equal(ttf_write_exit(w, 1, 1140, F3), 0);
    assert_int_equal(ttf_write_thread_end(w, 1, 1150), 0);
    assert_int_equal(ttf_write_module_unload(w, 0, 1160, 0x7f0000100000ull), 0);
    assert_int_equal(ttf_write_crash(w, 0, 1170, 11, -2, 0xdead), 0);
    assert_int_equal(ttf_write_exit(w, 0, 1180, F1), 0);
    if (close_it)
        assert_int_equal(ttf_writer_close(w, 3), 0);
    else
        assert_int_equal(ttf_writer_abandon(w), 0);
    return path;
}

struct want {
    int kind;
    uint64_t tsc;
    uint64_t addr;
    uint32_t site;
    int depth;
};

static const struct want want0[] = {
    {TTF_EV_THREAD_START, 1000, 0, 0, 0},
    {TTF_EV_MODULE_LOAD, 1000, 0x400000, 0, 0},
    {TTF_EV_MODULE_LOAD, 1001, 0x7f0000100000ull, 1, 0},
    {TTF_EV_ENTER, 1010, F1, 0, 0},
    {TTF_EV_ENTER, 1020, F2, 0, 1},
    {TTF_EV_EXIT, 1030, F2, 0, 2},
    {TTF_EV_MESSAGE, 1040, 0, 1, 1},
    {TTF_EV_MARK, 1050, 0, 2, 1},
    {TTF_EV_ENTER, 1060, 0, 3, 1},
    {TTF_EV_EXIT, 1070, 0, 3, 2},
    {TTF_EV_MODULE_UNLOAD, 1160, 0x7f0000100000ull, 1, 1}, /* module 1's */
    {TTF_EV_CRASH, 1170, 0, 0, 1},
    {TTF_EV_EXIT, 1180, F1, 0, 1},
    {TTF_EV_END, 1180, 0, 0, 0},
};

static const struct want want1[] = {
    {TTF_EV_THREAD_START, 1080, 0, 0, 0},
    {TTF_EV_ENTER, 1090, F3, 0, 0},
    {TTF_EV_THREAD_NAME, 1100, 0, 0, 1},
    {TTF_EV_LOST, 1110, 0, 0, 1},
    {TTF_EV_PAUSE, 1120, 0, 0, 1},
    {TTF_EV_RESUME, 1130, 0, 0, 1},
    {TTF_EV_EXIT, 1140, F3, 0, 1},
    {TTF_EV_THREAD_END, 1150, 0, 0, 0},
};

static void check_events(const struct evs *e, const struct want *w, size_t n)
{
    assert_int_equal(e->n, n);
    for (size_t i = 0; i < n; i++) {
        const ttf_event *ev = &e->ev[i];
        if (ev->kind != w[i].kind || ev->tsc != w[i].tsc || ev->addr != w[i].addr ||
            ev->site != w[i].site || ev->depth != w[i].depth)
            fail_msg("event %zu: kind %d tsc %llu addr %llx site %u depth %d; "
                     "want kind %d tsc %llu addr %llx site %u depth %d", i,
                     ev->kind, (unsigned long long)ev->tsc,
                     (unsigned long long)ev->addr, ev->site, ev->depth, w[i].kind,
                     (unsigned long long)w[i].tsc, (unsigned long long)w[i].addr,
                     w[i].site, w[i].depth);
    }
}

/* test_roundtrip, part 1: the header and summary. */
static void check_rt_header(const ttf_trace *t)
{
    const ttf_header *h = ttf_get_header(t);
    assert_int_equal(h->version_major, 1);
    assert_int_equal(h->chunk_size, 4096);
    assert_int_equal(h->flags & TTF_FLAG_CLOSED, TTF_FLAG_CLOSED);
    assert_int_equal(h->exit_status, 3);
    assert_int_equal(h->tsc_hz, 2000000000u);
    const ttf_summary *s = ttf_get_summary(t);
    assert_int_equal(s->closed, 1);
    assert_int_equal(s->crashed, 1);
    assert_int_equal(s->events, 22);
    assert_int_equal(s->lost_events, 17);
    assert_int_equal(s->chunks_used, 2);
    assert_int_equal(s->chunks_damaged, 0);
    assert_int_equal(s->duration_ns, 90);        /* 180 ticks at 2 GHz */
    assert_int_equal(ttf_notice_count(t), 0);
}

/* test_roundtrip, part 2: the process and its modules. */
static void check_rt_process(const ttf_trace *t)
{
    const ttf_process *pr = ttf_get_process(t);
    assert_int_equal(pr->pid, 1234);
    assert_string_equal(pr->exe, "/usr/bin/prog");
    assert_int_equal(pr->argc, 3);
    assert_string_equal(pr->argv[2], "arg two");
    assert_int_equal(pr->exited, 1);
    assert_int_equal(pr->exit_status, 3);
    assert_int_equal(pr->exit_thread, 0);

    assert_int_equal(ttf_module_count(t), 2);
    const ttf_module *m = ttf_get_module(t, 0);
    assert_string_equal(m->path, "/usr/bin/prog");
    assert_int_equal(m->base, 0x400000);
    assert_int_equal(m->size, 0x10000);
    assert_int_equal(m->build_id_len, 4);
    assert_memory_equal(m->build_id, "\xde\xad\xbe\xef", 4);
    assert_int_equal(m->unload_ns, UINT64_MAX);
    m = ttf_get_module(t, 1);
    assert_int_equal(m->unload_ns, 80);          /* (1160 - 1000) / 2 */
    assert_null(ttf_get_module(t, 2));
}

/* test_roundtrip, part 3: threads and call sites. */
static void check_rt_threads(const ttf_trace *t)
{
    assert_int_equal(ttf_thread_count(t), 2);
    const ttf_thread *th = ttf_get_thread(t, 1);
    assert_int_equal(th->tid, 1240);
    assert_string_equal(th->first_name, "worker");
    assert_string_equal(th->name, "worker-2");
    assert_int_equal(th->ended, 1);
    assert_int_equal(th->start_ns, 40);
    assert_int_equal(th->end_ns, 75);
    assert_int_equal(th->lost_events, 17);
    assert_string_equal(ttf_get_thread(t, 0)->name, "main");
    assert_null(ttf_get_thread(t, 2));

    const ttf_callsite *cs = ttf_get_callsite(t, 1);
    assert_non_null(cs);
    assert_int_equal(cs->level, 2);
    assert_int_equal(cs->line, 42);
    assert_int_equal(cs->nargs, 5);
    assert_memory_equal(cs->types, msg_types, 5);
    assert_string_equal(cs->func, "main");
    assert_null(ttf_get_callsite(t, 9));
}

/* test_roundtrip, part 4: every event of both threads. */
static void check_rt_events(ttf_trace *t)
{
    char buf[256];

    struct evs e0 = tu_events(t, 0, 0), e1 = tu_events(t, 1, 0);
    check_events(&e0, want0, sizeof want0 / sizeof want0[0]);
    check_events(&e1, want1, sizeof want1 / sizeof want1[0]);
    assert_string_equal(e0.ev[0].text, "main");
    assert_string_equal(e0.ev[2].text, "libx.so");
    assert_int_equal(e0.ev[3].time_ns, 5);
    assert_int_equal(e0.ev[11].signo, 11);
    assert_int_equal(e0.ev[11].code, -2);
    assert_int_equal(e0.ev[11].fault_addr, 0xdead);
    assert_int_equal(e0.ev[13].signo, 3);
    assert_string_equal(e1.ev[2].text, "worker-2");
    assert_int_equal(e1.ev[3].lost_events, 17);
    assert_int_equal(e1.ev[3].lost_bytes, 300);
    assert_int_equal(ttf_format_message(t, &e0.ev[6], buf, sizeof buf), 29);
    assert_string_equal(buf, "i=-5 u=7 f=3.25 p=0x1000 s=hi");
    assert_true(ttf_format_message(t, &e0.ev[7], buf, sizeof buf) > 0);
    assert_string_equal(buf, "checkpoint");
    assert_int_equal(ttf_format_message(t, &e0.ev[3], buf, sizeof buf), TT_EINVAL);
    assert_int_equal(ttf_realtime_ns(t, 5), 1700000000000000005ull);
    free(e0.ev);
    free(e1.ev);
}

static void test_roundtrip(void **state)
{
    (void)state;
    const char *path = write_all_kinds("all.trc", 1);
    ttf_trace *t;
    ttf_error err;

    assert_int_equal(ttf_open(path, &t, &err), 0);
    assert_string_equal(ttf_path(t), path);
    check_rt_header(t);
    check_rt_process(t);
    check_rt_threads(t);
    check_rt_events(t);
    assert_int_equal(ttf_iter_open(t, 2, &(ttf_iter *){0}), TT_EINVAL);
    ttf_close(t);
    ttf_close(NULL);
}

static void test_abandoned(void **state)
{
    (void)state;
    const char *path = write_all_kinds("abandoned.trc", 0);
    ttf_trace *t;
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    assert_int_equal(ttf_get_summary(t)->closed, 0);
    assert_int_equal(ttf_get_header(t)->flags & TTF_FLAG_CLOSED, 0);
    assert_int_equal(ttf_get_process(t)->exited, 0);
    assert_int_equal(ttf_get_process(t)->exit_thread, -1);
    struct evs e0 = tu_events(t, 0, 0);
    check_events(&e0, want0, sizeof want0 / sizeof want0[0] - 1);  /* no END */
    free(e0.ev);
    ttf_close(t);
}

/* The end marker in the stream of the thread that called exit: the
 * reader names that thread (ttf_process exit_thread). */
static void test_exit_thread(void **state)
{
    (void)state;
    const char *path = tu_path("exit_thread.trc");
    ttf_writer *w;
    ttf_trace *t;
    ttf_writer_opts o = {.chunk_size = 4096, .timed = 1};

    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 10, 100, "main"), 0);
    assert_int_equal(ttf_write_thread_start(w, 1, 11, 110, "writer"), 0);
    assert_int_equal(ttf_write_enter(w, 1, 120, 0x401000), 0);
    assert_int_equal(ttf_writer_close_in(w, 1, 70), 0);
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    const ttf_process *pr = ttf_get_process(t);
    assert_int_equal(pr->exited, 1);
    assert_int_equal(pr->exit_status, 70);
    assert_int_equal(pr->exit_thread, 1);
    struct evs e1 = tu_events(t, 1, 0);
    assert_true(e1.n >= 1);
    assert_int_equal(e1.ev[e1.n - 1].kind, TTF_EV_END);
    free(e1.ev);
    ttf_close(t);
}

static void test_open_errors(void **state)
{
    (void)state;
    ttf_trace *t = (ttf_trace *)1;
    ttf_error err;
    assert_int_equal(ttf_open(tu_path("missing.trc"), &t, &err), TT_EIO);
    assert_null(t);
    assert_int_equal(err.code, TT_EIO);
    assert_non_null(strstr(err.msg, "missing.trc"));
    assert_int_equal(ttf_open_mem("", 0, "e.trc", &t, &err), TT_ETRUNC);
    assert_int_equal(ttf_open_mem("\x89TTF", 4, "e.trc", &t, &err), TT_ETRUNC);
    assert_int_equal(ttf_open_mem("hello world, this is text", 25, "e.trc", &t, &err),
                     TT_ECORRUPT);
    assert_non_null(strstr(err.msg, "e.trc: offset 0: not a tt trace"));
    assert_int_equal(ttf_open_mem(NULL, 0, NULL, NULL, NULL), TT_EINVAL);
}

/* Header damage is refused in the documented order, naming what. */
static void test_header_checks(void **state)
{
    (void)state;
    struct tb b;
    ttf_trace *t;
    ttf_error err;
    uint8_t *h;

    tb_init(&b, 4096, 0);
    h = b.buf;
    assert_int_equal(ttf_open_mem(h, 40, "x.trc", &t, &err), TT_ETRUNC);
    assert_non_null(strstr(err.msg, "x.trc: offset 0: truncated file header"));

    ttf_put_u16(h + TTF_H_VMAJOR, 2);                 /* newer, readable */
    assert_int_equal(ttf_open_mem(h, b.len, "x.trc", &t, &err), 0);
    ttf_close(t);
    ttf_put_u16(h + TTF_H_MINREAD, 2);                /* newer, not readable */
    assert_int_equal(ttf_open_mem(h, b.len, "x.trc", &t, &err), TT_EVERSION);
    assert_int_equal(err.offset, TTF_H_MINREAD);
    assert_non_null(strstr(err.msg, "version 2.0 needs a reader of major version 2"));
    ttf_put_u16(h + TTF_H_VMAJOR, 1);
    ttf_put_u16(h + TTF_H_MINREAD, 1);

    ttf_put_u32(h + TTF_H_REQ, TTF_REQ_EVENTS_V1 | 0x300);
    assert_int_equal(ttf_open_mem(h, b.len, "x.trc", &t, &err), TT_EFEATURE);
    assert_non_null(strstr(err.msg, "offset 20: needs unknown required feature bits 0x300"));
    ttf_put_u32(h + TTF_H_REQ, TTF_REQ_EVENTS_V1);
    ttf_put_u32(h + TTF_H_OPT, 0xffff0000u);          /* unknown optional: fine */
    assert_int_equal(ttf_open_mem(h, b.len, "x.trc", &t, &err), 0);
    ttf_close(t);

    /* endian before version: both wrong names the endian marker */
    ttf_put_u32(h + TTF_H_ENDIAN, 0x04030201u);
    ttf_put_u16(h + TTF_H_MINREAD, 9);
    assert_int_equal(ttf_open_mem(h, b.len, "x.trc", &t, &err), TT_ECORRUPT);
    assert_non_null(strstr(err.msg, "big-endian"));
    ttf_put_u32(h + TTF_H_ENDIAN, TTF_ENDIAN_MARK);
    ttf_put_u16(h + TTF_H_MINREAD, 1);

    ttf_put_u32(h + TTF_H_CHUNK, 5000);
    assert_int_equal(ttf_open_mem(h, b.len, "x.trc", &t, &err), TT_ECORRUPT);
    assert_non_null(strstr(err.msg, "offset 28: bad chunk size 5000"));
    ttf_put_u32(h + TTF_H_CHUNK, 1u << 30);
    assert_int_equal(ttf_open_mem(h, b.len, "x.trc", &t, &err), TT_ECORRUPT);
    ttf_put_u32(h + TTF_H_CHUNK, 4096);
    ttf_put_u32(h + TTF_H_DATAOFF, 4000);
    assert_int_equal(ttf_open_mem(h, b.len, "x.trc", &t, &err), TT_ECORRUPT);
    assert_non_null(strstr(err.msg, "bad data offset"));
    ttf_put_u32(h + TTF_H_DATAOFF, 4096);
    ttf_put_u16(h + TTF_H_HSIZE, 32);
    assert_int_equal(ttf_open_mem(h, b.len, "x.trc", &t, &err), TT_ECORRUPT);
    ttf_put_u16(h + TTF_H_HSIZE, 64);

    /* text-mode damage to the magic is named */
    uint8_t crlf[4096];
    memcpy(crlf, h, sizeof crlf);
    memmove(crlf + 4, crlf + 5, sizeof crlf - 5);    /* "\r\n" -> "\n" */
    assert_int_equal(ttf_open_mem(crlf, sizeof crlf, "x.trc", &t, &err), TT_ECORRUPT);
    assert_non_null(strstr(err.msg, "CR LF became LF"));
    memcpy(crlf, h, sizeof crlf);
    crlf[0] = 0x09;
    assert_int_equal(ttf_open_mem(crlf, sizeof crlf, "x.trc", &t, &err), TT_ECORRUPT);
    assert_non_null(strstr(err.msg, "high bit stripped"));

    /* the header without the rest of its page was cut (issue 37 item 8);
       the header page alone is an empty trace */
    assert_int_equal(ttf_open_mem(h, 64, "x.trc", &t, &err), TT_ETRUNC);
    assert_non_null(strstr(err.msg, "x.trc: offset 64: truncated file header"));
    assert_int_equal(ttf_open_mem(h, 4096, "x.trc", &t, &err), 0);
    assert_int_equal(ttf_thread_count(t), 0);
    assert_int_equal(ttf_get_summary(t)->events, 0);
    ttf_iter *it;
    ttf_event ev;
    assert_int_equal(ttf_iter_open(t, TTF_ALL_THREADS, &it), 0);
    assert_int_equal(ttf_iter_next(it, &ev), 0);
    ttf_iter_close(it);
    ttf_close(t);
    free(b.buf);
}

/* Hand-made chunk: hot records with hits, misses, an unknown optional
 * record (skipped), then an unknown required one (ends the chunk). */
static void test_unknown_records(void **state)
{
    (void)state;
    struct tb b;
    struct pl p = {0};
    tb_init(&b, 4096, 1000000000u);
    tb_chunk(&b, 0, 0, 0, 1, 0, 500, 0);
    tb_u8(&b, TTF_T_ENTER_MISS);
    tb_uvar(&b, ttf_zigzag(0x1000));
    tb_uvar(&b, 5);                                  /* tsc 505 */
    pl_uvar(&p, 3);
    pl_str(&p, "future stuff");
    tb_ext(&b, 0x25, p.b, p.n);                      /* optional: skipped */
    tb_u8(&b, (uint8_t)(TTF_T_EXIT_HIT | TTF_SLOT(0x1000)));
    tb_uvar(&b, 2);                                  /* tsc 507 */
    tb_u8(&b, TTF_T_ENTER_MISS);
    tb_uvar(&b, ttf_zigzag(-0x10));                  /* 0xff0 */
    tb_uvar(&b, 1);
    size_t bad_at = b.cpos;
    tb_ext(&b, 0x15, p.b, p.n);                      /* required: damage */
    tb_u8(&b, (uint8_t)(TTF_T_EXIT_HIT | TTF_SLOT(0xff0)));
    tb_uvar(&b, 1);

    ttf_trace *t = tu_open_mem(b.buf, b.len);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 4);
    assert_int_equal(e.ev[0].addr, 0x1000);
    assert_int_equal(e.ev[0].tsc, 505);
    assert_int_equal(e.ev[1].kind, TTF_EV_EXIT);
    assert_int_equal(e.ev[1].addr, 0x1000);
    assert_int_equal(e.ev[1].tsc, 507);
    assert_int_equal(e.ev[2].addr, 0xff0);
    assert_int_equal(e.ev[3].kind, TTF_EV_LOST);
    assert_int_equal(e.ev[3].offset, bad_at);
    assert_int_equal(e.ev[3].depth, 1);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 1);
    assert_int_equal(ttf_get_summary(t)->events, 4);
    assert_true(tu_has_notice(t, "unknown required record 0x15"));
    assert_true(tu_has_notice(t, "skipped 1 unknown optional record(s) with tag 0x25"));
    char off[64];
    snprintf(off, sizeof off, "mem.trc: offset %zu:", bad_at);
    assert_true(tu_has_notice(t, off));
    free(e.ev);
    ttf_close(t);
    free(b.buf);
}

/* Many events over small chunks: order, depth and seq across chunks; then
 * a missing chunk gives one LOST event and the depth resyncs. */
/* test_chunks_and_gaps, part 1: two threads over many 4 KiB chunks. */
static uint8_t *write_chunks(size_t *len)
{
    const char *path = tu_path("chunks.trc");
    ttf_writer_opts o = {.chunk_size = 4096, .timed = 1};
    ttf_writer *w;
    uint64_t tsc = 100;
    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    for (int i = 0; i < 5000; i++) {
        for (int th = 0; th < 2; th++) {
            uint64_t f = 0x500000u + (uint64_t)(i % 100) * 0x40;
            assert_int_equal(ttf_write_enter(w, (uint32_t)th, tsc, f), 0);
            assert_int_equal(ttf_write_enter(w, (uint32_t)th, tsc + 1, f + 0x10000), 0);
            assert_int_equal(ttf_write_exit(w, (uint32_t)th, tsc + 2, f + 0x10000), 0);
        }
        tsc += 7;
    }
    assert_int_equal(ttf_writer_abandon(w), 0);   /* every enter stays open */
    return tu_read(path, len);
}

/* test_chunks_and_gaps, part 2: thread 0's seq 1 chunk removed (slot
 * magic zeroed, put back before returning); e is the full run. */
static void check_chunk_gap(uint8_t *buf, size_t len, struct evs e)
{
    ttf_trace *t;

    /* remove thread 0's seq 1 chunk: find its slot */
    size_t gap_slot = SIZE_MAX;
    for (size_t s = 0; TTF_DATA_OFFSET + (s + 1) * 4096 <= len; s++) {
        uint8_t *c = buf + TTF_DATA_OFFSET + s * 4096;
        if (ttf_get_le(c + TTF_C_THREAD, 4) == 0 && ttf_get_le(c + TTF_C_SEQ, 4) == 1)
            gap_slot = s;
    }
    assert_true(gap_slot != SIZE_MAX);
    uint8_t *gc = buf + TTF_DATA_OFFSET + gap_slot * 4096;
    ttf_put_u32(gc, 0);
    t = tu_open_mem(buf, len);
    assert_int_equal(ttf_get_thread(t, 0)->seq_gaps, 1);
    assert_true(tu_has_notice(t, "thread 0: 1 chunk(s) missing before seq 2"));
    struct evs g = tu_events(t, 0, 0);
    size_t lost = SIZE_MAX;
    for (size_t i = 0; i < g.n; i++)
        if (g.ev[i].kind == TTF_EV_LOST) {
            assert_int_equal(lost, SIZE_MAX);
            lost = i;
        }
    assert_true(lost != SIZE_MAX && lost > 0);
    assert_int_equal(g.ev[lost].lost_bytes, 4096);
    /* after the gap: same events as the full run, depths included */
    size_t skip = e.n - (g.n - 1);
    for (size_t i = lost + 1; i < g.n; i++) {
        assert_int_equal(g.ev[i].addr, e.ev[i - 1 + skip].addr);
        assert_int_equal(g.ev[i].depth, e.ev[i - 1 + skip].depth);
        assert_int_equal(g.ev[i].tsc, e.ev[i - 1 + skip].tsc);
    }
    for (size_t i = 0; i < lost; i++)
        assert_int_equal(g.ev[i].tsc, e.ev[i].tsc);
    free(g.ev);
    ttf_close(t);
    ttf_put_u32(gc, TTF_CHUNK_MAGIC);
}

/* test_chunks_and_gaps, part 3: ring-style reuse of the slots. */
static void check_chunk_ring(const uint8_t *buf, size_t len, struct evs e)
{
    ttf_trace *t;

    /* ring-style reuse: chunks shuffled across slots, the oldest one of
     * thread 1 overwritten by a newer chunk of thread 0 */
    size_t nslots = (len - TTF_DATA_OFFSET) / 4096;
    uint8_t *ring = malloc(len), *tmp = malloc(4096);
    memcpy(ring, buf, len);
    for (size_t s = 0; s < nslots / 2; s++) {        /* reverse slot order */
        uint8_t *a = ring + TTF_DATA_OFFSET + s * 4096;
        uint8_t *z = ring + TTF_DATA_OFFSET + (nslots - 1 - s) * 4096;
        memcpy(tmp, a, 4096);
        memcpy(a, z, 4096);
        memcpy(z, tmp, 4096);
    }
    for (size_t s = 0; s < nslots; s++) {
        uint8_t *c = ring + TTF_DATA_OFFSET + s * 4096;
        if (ttf_get_le(c + TTF_C_THREAD, 4) == 1 && ttf_get_le(c + TTF_C_SEQ, 4) == 0)
            ttf_put_u32(c, 0);                       /* overwritten: unused */
    }
    t = tu_open_mem(ring, len);
    struct evs r0 = tu_events(t, 0, 0), r1 = tu_events(t, 1, 0);
    assert_int_equal(r0.n, e.n);
    for (size_t i = 0; i < e.n; i++)
        assert_int_equal(r0.ev[i].tsc, e.ev[i].tsc);
    assert_int_equal(r1.ev[0].kind, TTF_EV_LOST);    /* oldest chunk gone */
    assert_int_equal(ttf_get_thread(t, 1)->seq_gaps, 1);
    assert_int_equal(r1.ev[r1.n - 1].tsc, e.ev[e.n - 1].tsc);
    for (size_t i = 1; i < r1.n; i++) {          /* the rest: a suffix */
        const ttf_event *x = &e.ev[e.n - r1.n + i];
        assert_int_equal(r1.ev[i].tsc, x->tsc);
        assert_int_equal(r1.ev[i].addr, x->addr);
        assert_int_equal(r1.ev[i].depth, x->depth);
    }
    free(r0.ev);
    free(r1.ev);
    ttf_close(t);
    free(ring);
    free(tmp);
}

static void test_chunks_and_gaps(void **state)
{
    (void)state;
    size_t len;
    uint8_t *buf = write_chunks(&len);
    ttf_trace *t = tu_open_mem(buf, len);
    assert_true(ttf_get_thread(t, 0)->chunks > 3);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 15000);
    for (size_t i = 0; i < e.n; i++) {
        assert_int_equal(e.ev[i].depth, (int)(i / 3 + i % 3));
        assert_int_equal(e.ev[i].tsc, 100 + (i / 3) * 7 + i % 3);
    }
    ttf_close(t);

    check_chunk_gap(buf, len, e);
    check_chunk_ring(buf, len, e);
    free(e.ev);
    free(buf);
}

static void test_merged(void **state)
{
    (void)state;
    const char *path = tu_path("merged.trc");
    ttf_writer *w;
    ttf_writer_opts o = {.chunk_size = 4096, .timed = 1};
    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    /* thread t writes at times 10*i + t*3 (mod 10 puts ties at t=0/t=... ) */
    for (int i = 0; i < 3000; i++)
        for (uint32_t th = 0; th < 3; th++) {
            uint64_t when = (uint64_t)(i * 10 + (th == 2 ? 0 : (int)th * 5));
            assert_int_equal(ttf_write_enter(w, th, when, 0x1000 + th), 0);
        }
    assert_int_equal(ttf_writer_close(w, 0), 0);
    ttf_trace *t;
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    struct evs e = tu_events(t, TTF_ALL_THREADS, 0);
    assert_int_equal(e.n, ttf_get_summary(t)->events);
    assert_int_equal(e.n, 9001);                     /* + END */
    for (size_t i = 1; i < e.n; i++) {
        const ttf_event *a = &e.ev[i - 1], *b = &e.ev[i];
        assert_true(a->tsc < b->tsc || (a->tsc == b->tsc && a->thread < b->thread) ||
                    (a->tsc == b->tsc && a->thread == b->thread &&
                     b->kind == TTF_EV_END));
    }
    /* thread 0 and 2 tie at every multiple of 10: thread 0 comes first */
    assert_int_equal(e.ev[0].thread, 0);
    assert_int_equal(e.ev[1].thread, 2);
    assert_int_equal(e.ev[2].thread, 1);
    free(e.ev);
    ttf_close(t);
}

/* tsc_hz given, absent (estimated from sync points) or unusable; CLOCK_MONOTONIC
 * from the earliest sync point (ttf_monotonic_ns), 0 with none. */
static void test_time(void **state)
{
    (void)state;
    struct tb b;
    tb_init(&b, 4096, 0);
    ttf_put_u64(b.buf + TTF_H_START, 5000000000ull);
    tb_chunk(&b, 0, 0, 0, 1, 0, 1000000, 7000000);   /* tsc 1e6 at 7 ms */
    tb_u8(&b, TTF_T_ENTER_MISS);
    tb_uvar(&b, ttf_zigzag(0x40));
    tb_uvar(&b, 3000);
    tb_chunk(&b, 1, 0, 1, 1, 1, 4000000, 8000000);   /* 3e6 ticks per ms */
    tb_u8(&b, TTF_T_EXIT_MISS);
    tb_uvar(&b, ttf_zigzag(0x40));
    tb_uvar(&b, 300000);
    ttf_trace *t = tu_open_mem(b.buf, b.len);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 2);
    assert_int_equal(e.ev[0].time_ns, 1000);         /* 3000 ticks at 3 GHz */
    assert_int_equal(e.ev[1].time_ns, 1100000);
    assert_int_equal(e.ev[1].depth, 1);              /* from the chunk header */
    for (size_t i = 0; i < e.n; i++)                 /* a tick's time, alone */
        assert_int_equal(ttf_tick_ns(t, e.ev[i].tsc), e.ev[i].time_ns);
    assert_int_equal(ttf_realtime_ns(t, 1000), 5000001000ull);
    /* CLOCK_MONOTONIC from the earliest sync point: 7 ms at time 0 */
    assert_int_equal(ttf_monotonic_ns(t, 1000), 7001000ull);
    free(e.ev);
    ttf_close(t);

    ttf_put_u64(b.buf + TTF_DATA_OFFSET + 4096 + TTF_C_MONO, 0);  /* one sync left */
    t = tu_open_mem(b.buf, b.len);
    e = tu_events(t, 0, 0);
    assert_int_equal(e.ev[0].time_ns, 3000);         /* ticks as ns */
    assert_int_equal(ttf_monotonic_ns(t, 3000), 7003000ull);
    free(e.ev);
    ttf_close(t);
    ttf_put_u64(b.buf + TTF_DATA_OFFSET + TTF_C_MONO, 0);   /* no sync point: unknown */
    t = tu_open_mem(b.buf, b.len);
    assert_int_equal(ttf_monotonic_ns(t, 3000), 0);
    ttf_close(t);

    ttf_put_u64(b.buf + TTF_H_TSCHZ, 2500000000ull);
    t = tu_open_mem(b.buf, b.len);
    e = tu_events(t, 0, 0);
    assert_int_equal(e.ev[0].time_ns, 1200);
    assert_int_equal(e.ev[1].time_ns, 1320000);
    assert_int_equal(ttf_tick_ns(t, e.ev[1].tsc), 1320000);
    assert_int_equal(ttf_get_summary(t)->duration_ns, 1318800);
    free(e.ev);
    ttf_close(t);
    free(b.buf);
}

/* ---- messages ------------------------------------------------------------ */

struct msgcase {
    int kind;                   /* TTF_SITE_* */
    const char *fmt;
    const char *types;          /* one char per arg: i u f p s */
    const char *want;           /* expected text */
};

static const struct msgcase msgcases[] = {
    {TTF_SITE_LOG, "plain text", "", "plain text"},
    {TTF_SITE_LOG, "%d %i %u", "iiu", "-7 -7 4000000000"},
    {TTF_SITE_LOG, "%x %X %o %#x", "uuuu", "ff FF 10 0xff"},
    {TTF_SITE_LOG, "%ld %lld %zu %lu", "iiuu", "-1 -9000000000 12 18446744073709551615"},
    {TTF_SITE_LOG, "%5d|%-5d|%05d|%+d", "iiii", "   42|42   |00042|+42"},
    {TTF_SITE_LOG, "%x", "i", "ffffffff"},             /* int -1, 32-bit */
    {TTF_SITE_LOG, "%hhu %hd", "ii", "255 -1"},
    {TTF_SITE_LOG, "%f %.3f %g %e", "ffff", "1.500000 2.250 0.1 1.000000e+03"},
    {TTF_SITE_LOG, "%8.2f|%-8.1e|", "ff", "    3.14|3.1e+00 |"},
    {TTF_SITE_LOG, "%p %p", "pp", "0x1234 (nil)"},
    {TTF_SITE_LOG, "[%s] [%.2s] [%5s] [%-4s]", "ssss", "[hello] [he] [   ab] [x   ]"},
    {TTF_SITE_LOG, "%c%c%c", "iii", "abc"},
    {TTF_SITE_LOG, "100%% %d%%", "i", "100% 5%"},
    {TTF_SITE_LOG, "%*d|%.*f", "iiif", "   17|2.72"},
    {TTF_SITE_LOG, "%d and %d", "i", "3 and (missing)"},
    {TTF_SITE_LOG, "%s %d %f", "ifs", "5 2 str"},       /* mismatched types */
    {TTF_SITE_LOG, "%d", "ii", "1"},                     /* extra args ignored */
    {TTF_SITE_LOG, "%q %d %", "i", "%q 9 %"},            /* unknown, dangling */
    {TTF_SITE_LOG, "n=%n|%d", "ii", "n=|2"},
    {TTF_SITE_VALUE, "count", "i", "count = -3"},
    {TTF_SITE_VALUE, "ratio", "f", "ratio = 0.1"},
    {TTF_SITE_VALUE, "ptr", "p", "ptr = 0xbeef"},
    {TTF_SITE_VALUE, "name", "s", "name = bob"},
    {TTF_SITE_VALUE, "big", "u", "big = 18446744073709551615"},
    {TTF_SITE_RETURN, "", "i", "return = 0"},
    {TTF_SITE_RETURN, "", "", "return = (missing)"},
    {TTF_SITE_MARK, "the label", "", "the label"},
};

/* Argument values per case, consumed in order by type. */
static const int64_t ivals[][4] = {
    {0}, {-7, -7}, {0}, {-1, -9000000000ll}, {42, 42, 42, 42}, {-1}, {-1, -1},
    {0}, {0}, {0}, {0}, {'a', 'b', 'c'}, {5}, {5, 17, 2}, {3}, {5}, {1, 2},
    {9}, {1, 2}, {-3}, {0}, {0}, {0}, {0}, {0}, {0}, {0},
};
static const uint64_t uvals[][4] = {
    {0}, {4000000000u}, {255, 255, 8, 255}, {12, UINT64_MAX}, {0}, {0}, {0},
    {0}, {0}, {0x1234, 0}, {0}, {0}, {0}, {0}, {0}, {0}, {0}, {0}, {0}, {0},
    {0}, {0xbeef}, {0}, {UINT64_MAX}, {0}, {0}, {0},
};
static const double fvals[][4] = {
    {0}, {0}, {0}, {0}, {0}, {0}, {0}, {1.5, 2.25, 0.1, 1000}, {3.14159, 3.14159},
    {0}, {0}, {0}, {0}, {2.71828}, {0}, {2.9}, {0}, {0}, {0}, {0}, {0.1}, {0},
    {0}, {0}, {0}, {0}, {0},
};
static const char *const svals[][4] = {
    {0}, {0}, {0}, {0}, {0}, {0}, {0}, {0}, {0}, {0}, {"hello", "hello", "ab", "x"},
    {0}, {0}, {0}, {0}, {"str"}, {0}, {0}, {0}, {0}, {0}, {0}, {"bob"}, {0}, {0},
    {0}, {0},
};

static void test_messages(void **state)
{
    (void)state;
    size_t n = sizeof msgcases / sizeof msgcases[0];
    const char *path = tu_path("msg.trc");
    ttf_writer *w;
    assert_int_equal(sizeof ivals / sizeof ivals[0], n);
    assert_int_equal(sizeof svals / sizeof svals[0], n);
    assert_int_equal(ttf_writer_open(path, NULL, &w), 0);
    for (size_t k = 0; k < n; k++) {
        const struct msgcase *mc = &msgcases[k];
        uint8_t types[8], args[256], *p = args;
        size_t ni = 0, nu = 0, nf = 0, ns = 0, na = strlen(mc->types);
        for (size_t a = 0; a < na; a++) {
            switch (mc->types[a]) {
            case 'i': types[a] = TTF_ARG_I64; p = ttf_put_svar(p, ivals[k][ni++]); break;
            case 'u': types[a] = TTF_ARG_U64; p = ttf_put_uvar(p, uvals[k][nu++]); break;
            case 'p': types[a] = TTF_ARG_PTR; p = ttf_put_uvar(p, uvals[k][nu++]); break;
            case 'f': {
                uint64_t v;
                types[a] = TTF_ARG_F64;
                memcpy(&v, &fvals[k][nf++], 8);
                ttf_put_u64(p, v);
                p += 8;
                break;
            }
            default:
                types[a] = TTF_ARG_STR;
                p = ttf_put_str(p, svals[k][ns], strlen(svals[k][ns]));
                ns++;
            }
        }
        ttf_callsite cs = {.id = (uint32_t)(100 + k), .kind = mc->kind, .fmt = mc->fmt,
                           .file = "m.c", .func = "f", .nargs = (uint32_t)na,
                           .types = types};
        assert_int_equal(ttf_write_callsite(w, 0, &cs), 0);
        assert_int_equal(ttf_write_message(w, 0, k, cs.id, args, (size_t)(p - args)), 0);
    }
    /* corrupt: site says I64 but no bytes; unknown type; undefined site */
    static const uint8_t one_i64[] = {TTF_ARG_I64}, bad_type[] = {9};
    ttf_callsite c1 = {.id = 900, .kind = TTF_SITE_LOG, .fmt = "%d", .nargs = 1,
                       .types = one_i64};
    ttf_callsite c2 = {.id = 901, .kind = TTF_SITE_LOG, .fmt = "%d", .nargs = 1,
                       .types = bad_type};
    assert_int_equal(ttf_write_callsite(w, 0, &c1), 0);
    assert_int_equal(ttf_write_callsite(w, 0, &c2), 0);
    assert_int_equal(ttf_write_message(w, 0, 1000, 900, "\x80", 1), 0);
    assert_int_equal(ttf_write_message(w, 0, 1001, 901, "\x01", 1), 0);
    assert_int_equal(ttf_write_message(w, 0, 1002, 902, NULL, 0), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);

    ttf_trace *t;
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, n + 4);
    for (size_t k = 0; k < n; k++) {
        char buf[256];
        int r = ttf_format_message(t, &e.ev[k], buf, sizeof buf);
        if (r < 0 || strcmp(buf, msgcases[k].want) != 0)
            fail_msg("case %zu '%s': got %d '%s', want '%s'", k, msgcases[k].fmt, r,
                     buf, msgcases[k].want);
        assert_int_equal((size_t)r, strlen(msgcases[k].want));
        assert_int_equal(e.ev[k].kind,
                         msgcases[k].kind == TTF_SITE_MARK ? TTF_EV_MARK : TTF_EV_MESSAGE);
        /* snprintf rules: short buffers truncate, length stays */
        char small[5];
        assert_int_equal(ttf_format_message(t, &e.ev[k], small, sizeof small), r);
        assert_int_equal(strlen(small), (size_t)r < 4 ? (size_t)r : 4);
        assert_int_equal(ttf_format_message(t, &e.ev[k], NULL, 0), r);
    }
    char buf[64];
    assert_int_equal(ttf_format_message(t, &e.ev[n], buf, sizeof buf), TT_ECORRUPT);
    assert_int_equal(ttf_format_message(t, &e.ev[n + 1], buf, sizeof buf), TT_ECORRUPT);
    assert_int_equal(ttf_format_message(t, &e.ev[n + 2], buf, sizeof buf), TT_ENOTFOUND);
    free(e.ev);
    ttf_close(t);
}

/* A %s of a string argument longer than the 2 KiB a numeric conversion
 * can print: all of it (up to the 4096-byte cap), not cut at the scratch
 * buffer's size. */
static void test_message_long_string(void **state)
{
    (void)state;
    static const uint8_t one_str[] = {TTF_ARG_STR};
    static uint8_t args[6000];
    static char want[5000], buf[8000];
    const char *path = tu_path("longstr.trc");
    ttf_writer *w;

    memset(want, 'x', 3000);
    uint8_t *p = ttf_put_str(args, want, 3000);
    assert_int_equal(ttf_writer_open(path, NULL, &w), 0);
    ttf_callsite cs = {.id = 7, .kind = TTF_SITE_LOG, .fmt = "<%s>", .file = "m.c",
                       .func = "f", .nargs = 1, .types = one_str};
    assert_int_equal(ttf_write_callsite(w, 0, &cs), 0);
    assert_int_equal(ttf_write_message(w, 0, 1, 7, args, (size_t)(p - args)), 0);
    memset(want, 'y', 4500);
    p = ttf_put_str(args, want, 4500);
    assert_int_equal(ttf_write_message(w, 0, 2, 7, args, (size_t)(p - args)), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);

    ttf_trace *t;
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    struct evs e = tu_events(t, 0, 0);
    assert_true(e.n >= 2); /* the writer's END may follow */
    assert_int_equal(ttf_format_message(t, &e.ev[0], buf, sizeof buf), 3002);
    assert_int_equal(strspn(buf + 1, "x"), 3000);
    assert_string_equal(buf + 3001, ">");
    assert_int_equal(ttf_format_message(t, &e.ev[1], buf, sizeof buf), 4098);
    assert_int_equal(strspn(buf + 1, "y"), 4096);
    free(e.ev);
    ttf_close(t);
}

static void test_errors_and_version(void **state)
{
    (void)state;
    assert_int_equal(ttf_version(), TTF_VERSION_NUMBER);
    for (int a = TT_ENOTFOUND; a <= TT_OK; a++) {
        assert_non_null(ttf_strerror(a));
        for (int b = TT_ENOTFOUND; b < a; b++)
            assert_string_not_equal(ttf_strerror(a), ttf_strerror(b));
    }
    assert_non_null(ttf_strerror(-99));
    ttf_writer *w;
    ttf_writer_opts o = {.chunk_size = 5000};
    assert_int_equal(ttf_writer_open(tu_path("bad.trc"), &o, &w), TT_EINVAL);
    assert_int_equal(ttf_writer_open(tu_path("ok.trc"), NULL, &w), 0);
    assert_int_equal(ttf_write_enter(w, 1u << 20, 0, 1), TT_EINVAL);
    assert_int_equal(ttf_write_enter(w, 1025, 0, 1), TT_EINVAL);
    assert_int_equal(ttf_write_enter(w, 1023, 0, 1), 0);
    assert_int_equal(ttf_write_enter(NULL, 0, 0, 1), TT_EINVAL);
    ttf_callsite big = {.id = 1, .kind = TTF_SITE_LOG, .nargs = 300};
    assert_int_equal(ttf_write_callsite(w, 0, &big), TT_EINVAL);
    assert_int_equal(ttf_writer_close(w, 0), 0);
}

/* ---- compactness: bytes per hot event for typical call shapes ----------- */

static uint64_t jit_state = 12345;

/* ~2.5 GHz ticks: base ns * 2.5 plus up to 25% jitter */
static uint64_t ticks(uint64_t ns)
{
    jit_state = jit_state * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t t = ns * 5 / 2;
    return t + (jit_state >> 33) % (t / 4 + 1);
}

struct shape {
    const char *name;
    uint64_t tsc;               /* running time */
    ttf_writer *w;
};

static void fib(struct shape *s, int n)
{
    uint64_t f = 0x401100u;
    assert_int_equal(ttf_write_enter(s->w, 0, s->tsc += ticks(4), f), 0);
    if (n > 1) {
        fib(s, n - 1);
        fib(s, n - 2);
    }
    assert_int_equal(ttf_write_exit(s->w, 0, s->tsc += ticks(3), f), 0);
}

static double measure(int kind, uint64_t *nev)
{
    const char *path = tu_path("shape.trc");
    struct shape s = {.tsc = 1000};
    ttf_writer_opts o = {.chunk_size = 1u << 18, .timed = 1, .tsc_hz = 2500000000ull};
    assert_int_equal(ttf_writer_open(path, &o, &s.w), 0);
    assert_int_equal(ttf_write_enter(s.w, 0, s.tsc, 0x401000), 0);   /* main */
    if (kind == 0) {
        for (int i = 0; i < 200000; i++) {                             /* leaf loop */
            assert_int_equal(ttf_write_enter(s.w, 0, s.tsc += ticks(6), 0x401200), 0);
            assert_int_equal(ttf_write_exit(s.w, 0, s.tsc += ticks(12), 0x401200), 0);
        }
    } else if (kind == 1) {
        static const uint64_t chain[3] = {0x401300, 0x401380, 0x4014a0};
        for (int i = 0; i < 70000; i++) {                              /* a->b->c */
            for (int d = 0; d < 3; d++)
                assert_int_equal(ttf_write_enter(s.w, 0, s.tsc += ticks(5), chain[d]), 0);
            for (int d = 2; d >= 0; d--)
                assert_int_equal(ttf_write_exit(s.w, 0, s.tsc += ticks(8), chain[d]), 0);
        }
    } else if (kind == 2) {
        fib(&s, 25);                                                   /* recursion */
    } else {
        for (int i = 0; i < 100000; i++) {      /* 40 functions, 20 ns .. 2 us */
            uint64_t f = 0x402000u + (uint64_t)(i * 7 % 40) * 0x90;
            assert_int_equal(ttf_write_enter(s.w, 0, s.tsc += ticks(20 + (uint64_t)i % 400), f), 0);
            assert_int_equal(ttf_write_exit(s.w, 0, s.tsc += ticks((uint64_t)i * 13 % 2000), f), 0);
        }
    }
    assert_int_equal(ttf_write_exit(s.w, 0, s.tsc += ticks(5), 0x401000), 0);
    assert_int_equal(ttf_writer_abandon(s.w), 0);
    ttf_trace *t;
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    const ttf_summary *sum = ttf_get_summary(t);
    *nev = sum->events;
    double bpe = (double)sum->data_bytes / (double)sum->events;
    ttf_close(t);
    unlink(path);
    return bpe;
}

/* SYNC_OP records: written, the optional feature bit set, read back with
 * op, object and argument. */
static void test_sync_ops(void **state)
{
    (void)state;
    const char *path = tu_path("sync.trc");
    ttf_writer_opts o = {.chunk_size = 4096, .timed = 1, .tsc_hz = 1000000000u};
    ttf_writer *w;
    ttf_trace *t;
    ttf_iter *it;
    ttf_event ev;

    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 100, 1, "main"), 0);
    assert_int_equal(ttf_write_sync_op(w, 0, 110, TTF_SOP_LOCK, 0x5000, 0), 0);
    assert_int_equal(ttf_write_sync_op(w, 0, 120, TTF_SOP_WAIT, 0x6000, 0x5000), 0);
    assert_int_equal(ttf_write_sync_op(w, 0, 130, TTF_SOP_WOKE, 0x6000, -110), 0);
    assert_int_equal(ttf_write_sync_op(w, 0, 140, 0, 0x6000, 0), TT_EINVAL);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    assert_true(ttf_get_header(t)->optional_features & TTF_HEADER_SYNC);
    assert_int_equal(ttf_iter_open(t, 0, &it), 0);
    static const int op[] = {TTF_SOP_LOCK, TTF_SOP_WAIT, TTF_SOP_WOKE};
    static const uint64_t obj[] = {0x5000, 0x6000, 0x6000};
    static const int64_t arg[] = {0, 0x5000, -110};
    int k = 0;
    while (ttf_iter_next(it, &ev) == 1) {
        if (ev.kind != TTF_EV_SYNC_OP)
            continue;
        assert_true(k < 3);
        assert_int_equal(ev.code, op[k]);
        assert_int_equal(ev.addr, obj[k]);
        assert_int_equal(ev.sync_arg, arg[k]);
        assert_int_equal(ev.tsc, 110 + 10 * (uint64_t)k);
        k++;
    }
    assert_int_equal(k, 3);
    ttf_iter_close(it);
    ttf_close(t);
}

static void test_compactness(void **state)
{
    (void)state;
    static const char *const names[] = {"leaf-call loop", "3-deep chain",
                                        "recursive fib(25)", "mixed 20ns..2us"};
    double total = 0;
    for (int k = 0; k < 4; k++) {
        uint64_t n;
        double bpe = measure(k, &n);
        printf("    compactness: %-18s %8llu events  %.2f bytes/event\n", names[k],
               (unsigned long long)n, bpe);
        assert_true(bpe >= 1.0);            /* a tag byte at least */
        total += bpe;
    }
    printf("    compactness: average %.2f bytes/event (target <= 4)\n", total / 4);
    assert_true(total / 4 <= 4.0);
}

/* One thread's calls (fns[], each entered and left in turn) from base,
 * times t0 + 10 ns apart, into path; its digest (ttf_thread.digest). */
static uint64_t digest_of(const char *path, uint64_t base, uint64_t t0, const unsigned *fns,
                          int n)
{
    ttf_writer_opts o = {.chunk_size = 4096, .timed = 1, .tsc_hz = 1000000000u};
    ttf_writer *w;
    ttf_trace *t;
    uint64_t now = t0;

    assert_int_equal(ttf_writer_open(path, &o, &w), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, now, 1, "main"), 0);
    for (int i = 0; i < n; i++) {
        assert_int_equal(ttf_write_enter(w, 0, now += 10, base + fns[i]), 0);
        assert_int_equal(ttf_write_exit(w, 0, now += 10, base + fns[i]), 0);
    }
    assert_int_equal(ttf_writer_close(w, 0), 0);
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    uint64_t d = ttf_get_thread(t, 0)->digest;
    ttf_close(t);
    return d;
}

/* ttf_thread.digest (2.25, issue 38): the same calls in the same order
 * give the same digest at other times and another load address (ASLR
 * moves a module by whole pages); another call, or the same calls in
 * another order, another digest. */
static void test_digest(void **state)
{
    (void)state;
    static const unsigned calls[] = {0x110, 0x220, 0x110, 0x330};
    static const unsigned other[] = {0x110, 0x220, 0x110, 0x440};
    static const unsigned swapped[] = {0x110, 0x110, 0x220, 0x330};
    uint64_t a = digest_of(tu_path("dg1.trc"), 0x555555554000ull, 1000, calls, 4);

    assert_int_not_equal(a, 0);
    assert_int_equal(digest_of(tu_path("dg2.trc"), 0x7f0012345000ull, 5000, calls, 4), a);
    assert_int_not_equal(digest_of(tu_path("dg3.trc"), 0x555555554000ull, 1000, other, 4), a);
    assert_int_not_equal(digest_of(tu_path("dg4.trc"), 0x555555554000ull, 1000, swapped, 4), a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_roundtrip),
        cmocka_unit_test(test_sync_ops),
        cmocka_unit_test(test_digest),
        cmocka_unit_test(test_abandoned),
        cmocka_unit_test(test_exit_thread),
        cmocka_unit_test(test_open_errors),
        cmocka_unit_test(test_header_checks),
        cmocka_unit_test(test_unknown_records),
        cmocka_unit_test(test_chunks_and_gaps),
        cmocka_unit_test(test_merged),
        cmocka_unit_test(test_time),
        cmocka_unit_test(test_messages),
        cmocka_unit_test(test_message_long_string),
        cmocka_unit_test(test_errors_and_version),
        cmocka_unit_test(test_compactness),
    };
    return cmocka_run_group_tests(tests, NULL, tu_teardown_all);
}
