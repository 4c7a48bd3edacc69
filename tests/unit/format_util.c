/*
 * format_util.c - helpers for the format tests (format_util.h): temporary
 * paths, whole file reads, a byte builder for hand-made traces and event
 * capture.
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

char tu_dir[256];

/* A fresh path in a per-process temporary directory (file not created). */
const char *tu_path(const char *name)
{
    static char buf[8][512];
    static int k;
    if (!tu_dir[0]) {
        snprintf(tu_dir, sizeof tu_dir, "/tmp/tt_fmt_XXXXXX");
        assert_non_null(mkdtemp(tu_dir));
    }
    char *p = buf[k++ % 8];
    snprintf(p, 512, "%s/%s", tu_dir, name);
    unlink(p);
    return p;
}

void tu_cleanup(void)
{
    char cmd[300];
    if (!tu_dir[0])
        return;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tu_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tu_dir);
}

/* A cmocka group teardown that removes the scratch directory. */
int tu_teardown_all(void **state)
{
    (void)state;
    tu_cleanup();
    return 0;
}

uint8_t *tu_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(n > 0 ? (size_t)n : 1);
    assert_non_null(b);
    assert_int_equal(fread(b, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* ---- byte builder ------------------------------------------------------ */

void tb_reserve(struct tb *b, size_t len)
{
    if (len <= b->len)
        return;
    b->buf = realloc(b->buf, len);
    assert_non_null(b->buf);
    memset(b->buf + b->len, 0, len - b->len);
    b->len = len;
}

/* A v1 header; chunk slots are added by tb_chunk. */
void tb_init(struct tb *b, uint32_t chunk, uint64_t hz)
{
    memset(b, 0, sizeof *b);
    b->chunk = chunk;
    tb_reserve(b, TTF_DATA_OFFSET);
    memcpy(b->buf, TTF_MAGIC, 8);
    ttf_put_u16(b->buf + TTF_H_VMAJOR, 1);
    ttf_put_u16(b->buf + TTF_H_VMINOR, 0);
    ttf_put_u16(b->buf + TTF_H_MINREAD, 1);
    ttf_put_u16(b->buf + TTF_H_HSIZE, 64);
    ttf_put_u32(b->buf + TTF_H_ENDIAN, TTF_ENDIAN_MARK);
    ttf_put_u32(b->buf + TTF_H_REQ, TTF_REQ_EVENTS_V1);
    ttf_put_u32(b->buf + TTF_H_CHUNK, chunk);
    ttf_put_u32(b->buf + TTF_H_DATAOFF, TTF_DATA_OFFSET);
    ttf_put_u64(b->buf + TTF_H_TSCHZ, hz);
}

/* Start chunk slot `slot` (grows the file to hold it). */
void tb_chunk(struct tb *b, uint32_t slot, uint32_t thread, uint32_t seq,
              int timed, int32_t depth, uint64_t tsc, uint64_t mono)
{
    b->coff = TTF_DATA_OFFSET + (size_t)slot * b->chunk;
    tb_reserve(b, b->coff + b->chunk);
    uint8_t *h = b->buf + b->coff;
    memset(h, 0, b->chunk);
    ttf_put_u32(h, TTF_CHUNK_MAGIC);
    ttf_put_u32(h + TTF_C_THREAD, thread);
    ttf_put_u32(h + TTF_C_SEQ, seq);
    ttf_put_u16(h + TTF_C_FLAGS, timed ? TTF_CHUNK_TIMED : 0);
    ttf_put_u16(h + TTF_C_HSIZE, TTF_CHUNK_HDR);
    ttf_put_u32(h + TTF_C_DEPTH, (uint32_t)depth);
    ttf_put_u64(h + TTF_C_TSC, tsc);
    ttf_put_u64(h + TTF_C_MONO, mono);
    b->cpos = b->coff + TTF_CHUNK_HDR;
}

void tb_raw(struct tb *b, const void *p, size_t n)
{
    assert_true(b->cpos + n <= b->coff + b->chunk);
    memcpy(b->buf + b->cpos, p, n);
    b->cpos += n;
}

void tb_u8(struct tb *b, uint8_t v)
{
    tb_raw(b, &v, 1);
}

void tb_uvar(struct tb *b, uint64_t v)
{
    uint8_t t[10];
    tb_raw(b, t, (size_t)(ttf_put_uvar(t, v) - t));
}

/* An extended record: tag, uvar length, payload (built by the caller). */
void tb_ext(struct tb *b, uint8_t tag, const uint8_t *pl, size_t n)
{
    tb_u8(b, tag);
    tb_uvar(b, n);
    tb_raw(b, pl, n);
}

void pl_uvar(struct pl *p, uint64_t v)
{
    p->n = (size_t)(ttf_put_uvar(p->b + p->n, v) - p->b);
}

void pl_svar(struct pl *p, int64_t v)
{
    pl_uvar(p, ttf_zigzag(v));
}

void pl_u8(struct pl *p, uint8_t v)
{
    p->b[p->n++] = v;
}

void pl_str(struct pl *p, const char *s)
{
    p->n = (size_t)(ttf_put_str(p->b + p->n, s, strlen(s)) - p->b);
}

void pl_f64(struct pl *p, double d)
{
    uint64_t v;
    memcpy(&v, &d, 8);
    ttf_put_u64(p->b + p->n, v);
    p->n += 8;
}

/* ---- reading ------------------------------------------------------------- */

void evs_push(struct evs *e, const ttf_event *ev)
{
    if (e->n == e->cap) {
        e->cap = e->cap ? e->cap * 2 : 64;
        e->ev = realloc(e->ev, e->cap * sizeof *e->ev);
        assert_non_null(e->ev);
    }
    e->ev[e->n++] = *ev;
}

/* All events of thread (or TTF_ALL_THREADS); skip_lost drops LOST events. */
struct evs tu_events(const ttf_trace *t, uint32_t thread, int skip_lost)
{
    struct evs e = {0};
    ttf_iter *it;
    ttf_event ev;
    int r;
    assert_int_equal(ttf_iter_open(t, thread, &it), 0);
    while ((r = ttf_iter_next(it, &ev)) == 1)
        if (!skip_lost || ev.kind != TTF_EV_LOST)
            evs_push(&e, &ev);
    assert_int_equal(r, 0);
    ttf_iter_close(it);
    return e;
}

/* ev as e's event f, times too when timed, values too when values. */
static void same_event(const ttf_event *f, const ttf_event *ev, int timed, int values)
{
    assert_int_equal(f->kind, ev->kind);
    assert_int_equal(f->addr, ev->addr);
    assert_int_equal(f->offset, ev->offset);
    assert_int_equal(f->depth, ev->depth);
    assert_int_equal(f->untimed, ev->untimed);
    if (timed) {
        assert_int_equal(f->tsc, ev->tsc);
        assert_int_equal(f->time_ns, ev->time_ns);
        assert_int_equal(ttf_event_early_ns(f), ttf_event_early_ns(ev));
        assert_int_equal(ttf_event_late_ns(f), ttf_event_late_ns(ev));
    }
    assert_int_equal(f->has_values, ev->has_values);
    if (!values || !f->has_values)
        return;
    if (f->kind == TTF_EV_EXIT) {
        assert_int_equal(f->retval, ev->retval);
        if (f->has_xmm)
            assert_int_equal(f->retxmm, ev->retxmm);
        return;
    }
    for (int j = 0; f->kind == TTF_EV_ENTER && j < TTF_VALUE_SLOTS; j++)
        assert_int_equal(f->argregs[j], ev->argregs[j]);
}

size_t tu_times_back(const ttf_trace *t, const struct evs *e, uint64_t seed)
{
    ttf_iter *it, *all;
    ttf_event ev;
    size_t n = 0, back = 0;
    int keep = 0;
    uint64_t r = seed;

    assert_int_equal(ttf_iter_open(t, 0, &it), 0);
    assert_int_equal(ttf_iter_open(t, TTF_ALL_THREADS, &all), 0);
    assert_int_equal(ttf_iter_next(all, &ev), 1);
    assert_int_equal(ttf_iter_times(all, &ev), TT_EINVAL);  /* merged */
    assert_int_equal(ttf_iter_times(NULL, &ev), TT_EINVAL);
    ttf_iter_close(all);
    assert_int_equal(ttf_iter_skip_times(it), 0);
    while (ttf_iter_next(it, &ev) == 1) {
        assert_true(n < e->n);
        const ttf_event *f = &e->ev[n++];
        same_event(f, &ev, keep || !f->untimed, 1);
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        if (keep && (r >> 33) % 500 == 0) {    /* skip them again */
            assert_int_equal(ttf_iter_skip_times(it), 0);
            keep = 0;
        }
        if (keep || (r >> 40) % 61 != 0)
            continue;
        ttf_event wrong = ev;
        wrong.offset++;
        assert_int_equal(ttf_iter_times(it, &wrong), TT_EINVAL);
        assert_int_equal(ttf_iter_times(it, &ev), 0);
        same_event(f, &ev, 1, 1);
        back++;
        keep = (r >> 50) % 3 == 0;              /* and the next ones'? */
        if (!keep)
            assert_int_equal(ttf_iter_skip_times(it), 0);
    }
    assert_int_equal(n, e->n);
    ttf_iter_close(it);
    return back;
}

size_t tu_times_at(const ttf_trace *t, const struct evs *e, uint64_t seed)
{
    ttf_iter *it, *cl;
    ttf_event ev, *seen = malloc((e->n + 1) * sizeof *seen);
    size_t n = 0, asked = 0;
    uint64_t r = seed;

    assert_non_null(seen);
    assert_int_equal(ttf_iter_open(t, 0, &it), 0);
    assert_int_equal(ttf_iter_skip_times(it), 0);
    while (ttf_iter_next(it, &ev) == 1) {
        assert_true(n < e->n);
        same_event(&e->ev[n], &ev, !e->ev[n].untimed, 1);
        seen[n++] = ev;
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        if ((r >> 40) % 37 != 0)
            continue;
        /* a few events read before, in the order read, from a drawn one */
        for (size_t j = (r >> 20) % n, k = 0; k < 4 && j < n; j += 1 + (r >> (8 + 4 * k++)) % 9) {
            ttf_event x = seen[j];
            if (x.kind == TTF_EV_LOST)
                continue;
            assert_int_equal(ttf_iter_times_at(it, &x), 0);
            same_event(&e->ev[j], &x, 1, 1);
            asked++;
        }
        ttf_event wrong = ev;
        wrong.kind = ev.kind == TTF_EV_ENTER ? TTF_EV_EXIT : TTF_EV_ENTER;
        assert_int_equal(ttf_iter_times_at(it, &wrong), TT_EINVAL);
        wrong.offset = 0;       /* the file header: no chunk of the thread */
        assert_int_equal(ttf_iter_times_at(it, &wrong), TT_EINVAL);
        if (asked % 3)
            continue;
        assert_int_equal(ttf_iter_clone(it, &cl), 0);   /* its reading not shared */
        ttf_iter_close(cl);
    }
    assert_int_equal(n, e->n);
    ttf_iter_close(it);
    free(seen);
    return asked;
}

/* f without its values in ev (an event read without them). */
static void same_novalues(const ttf_event *f, const ttf_event *ev)
{
    ttf_event g = *f;
    g.has_values = 0;
    same_event(&g, ev, 1, 0);
    assert_int_equal(ev->has_xmm, 0);
    assert_null(ev->strs);
}

/* f's values in ev, strings too (an event read with its values). */
static void same_values(const ttf_event *f, const ttf_event *ev)
{
    same_event(f, ev, 1, 1);
    assert_int_equal(f->has_xmm, ev->has_xmm);
    assert_int_equal(f->strs_len, ev->strs_len);
    assert_true(f->strs == ev->strs);
}

size_t tu_values_back(const ttf_trace *t, const struct evs *e, uint64_t seed)
{
    ttf_iter *it, *all;
    ttf_event ev;
    size_t n = 0, back = 0;
    int on = 0;
    uint64_t r = seed;

    assert_int_equal(ttf_iter_open(t, 0, &it), 0);
    assert_int_equal(ttf_iter_open(t, TTF_ALL_THREADS, &all), 0);
    assert_int_equal(ttf_iter_next(all, &ev), 1);
    assert_int_equal(ttf_iter_values(all, &ev), TT_EINVAL);    /* merged */
    assert_int_equal(ttf_iter_values(NULL, &ev), TT_EINVAL);
    ttf_iter_close(all);
    assert_int_equal(ttf_iter_skip_values(it), 0);
    while (ttf_iter_next(it, &ev) == 1) {
        assert_true(n < e->n);
        const ttf_event *f = &e->ev[n++];
        if (on)
            same_values(f, &ev);
        else
            same_novalues(f, &ev);
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        if (on && (r >> 33) % 97 == 0) {      /* skip them again */
            assert_int_equal(ttf_iter_skip_values(it), 0);
            on = 0;
            continue;
        }
        if (on || (r >> 40) % 29 != 0)
            continue;
        if (f->kind != TTF_EV_LOST) {
            ttf_event wrong = ev;
            wrong.offset++;
            assert_int_equal(ttf_iter_values(it, &wrong), TT_EINVAL);
        }
        assert_int_equal(ttf_iter_values(it, &ev), 0);
        if (f->kind != TTF_EV_LOST)
            same_values(f, &ev);
        assert_int_equal(ttf_iter_values(it, &ev), 0);  /* on already */
        back++;
        on = 1;
    }
    assert_int_equal(n, e->n);
    ttf_iter_close(it);
    return back;
}

size_t tu_values_at(const ttf_trace *t, const struct evs *e, uint64_t seed)
{
    ttf_iter *it, *cl;
    ttf_event ev, *seen = malloc((e->n + 1) * sizeof *seen);
    size_t n = 0, asked = 0;
    uint64_t r = seed;

    assert_non_null(seen);
    assert_int_equal(ttf_iter_open(t, 0, &it), 0);
    assert_int_equal(ttf_iter_skip_values(it), 0);
    while (ttf_iter_next(it, &ev) == 1) {
        assert_true(n < e->n);
        same_novalues(&e->ev[n], &ev);
        seen[n++] = ev;
        r = r * 6364136223846793005ull + 1442695040888963407ull;
        if ((r >> 40) % 37 != 0)
            continue;
        for (size_t j = (r >> 20) % n, k = 0; k < 4 && j < n; j += 1 + (r >> (8 + 4 * k++)) % 9) {
            ttf_event x = seen[j];
            if (x.kind == TTF_EV_LOST)
                continue;
            assert_int_equal(ttf_iter_values_at(it, &x), 0);
            same_values(&e->ev[j], &x);
            asked++;
        }
        ttf_event wrong = ev;
        wrong.kind = ev.kind == TTF_EV_ENTER ? TTF_EV_EXIT : TTF_EV_ENTER;
        assert_int_equal(ttf_iter_values_at(it, &wrong), TT_EINVAL);
        wrong.offset = 0;       /* the file header: no chunk of the thread */
        assert_int_equal(ttf_iter_values_at(it, &wrong), TT_EINVAL);
        if (asked % 3)
            continue;
        assert_int_equal(ttf_iter_clone(it, &cl), 0);   /* its reading not shared */
        ttf_iter_close(cl);
    }
    assert_int_equal(n, e->n);
    ttf_iter_close(it);
    free(seen);
    return asked;
}

ttf_trace *tu_open_mem(const uint8_t *b, size_t n)
{
    ttf_trace *t = NULL;
    ttf_error err;
    int r = ttf_open_mem(b, n, "mem.trc", &t, &err);
    if (r)
        fprintf(stderr, "open failed: %s\n", err.msg);
    assert_int_equal(r, 0);
    return t;
}

int tu_has_notice(const ttf_trace *t, const char *needle)
{
    for (size_t i = 0; i < ttf_notice_count(t); i++)
        if (strstr(ttf_get_notice(t, i), needle))
            return 1;
    return 0;
}

void tu_one_enter_then_damage(struct tb *b, size_t bad_at, const char *notice)
{
    ttf_trace *t = tu_open_mem(b->buf, b->len);
    struct evs e = tu_events(t, 0, 0);
    assert_int_equal(e.n, 2);
    assert_int_equal(e.ev[0].kind, TTF_EV_ENTER);
    assert_int_equal(e.ev[1].kind, TTF_EV_LOST);
    assert_int_equal(e.ev[1].offset, bad_at);
    assert_int_equal(ttf_get_summary(t)->chunks_damaged, 1);
    if (!tu_has_notice(t, notice))
        fail_msg("no notice \"%s\" (%s)", notice,
                 ttf_notice_count(t) ? ttf_get_notice(t, 0) : "none");
    free(e.ev);
    ttf_close(t);
    free(b->buf);
}
