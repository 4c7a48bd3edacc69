/*
 * test_walker.c - the one trace walker's marks (diff/walker.c): a run walk
 * leaves its state every TTDI_MARK_EVERY kept events, and a later run walk
 * of the same thread started with ttdi_walk_open_at from one of them shows
 * every event after it exactly as a walk from the start does (key index,
 * kind, function, the whole call stack), and keeps a ring of the last
 * events before a time as from the start. And the run walks' call-stack
 * rule: an UNWIND's frames close at the next ENTER, an EXIT closes
 * its own frame and those a longjmp left above it (ttdi_walk_depth_after),
 * and a stack walk (the races') keeps the same stack. And the SYNC_OP records run walks keep for the order checks' lock views.
 * And a run walk that steps over values up to an index
 * (ttdi_walk_values_from) shows from there every event and open frame
 * with the values a walk from the start reads, leaving no mark before.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diff_traces.h"
#include "prepare.h"
#include "tmpdir.h"

#define REPS 50000  /* script rounds: 8 kept events, every 3rd 10 and
                       deeper: 433,336 events, marks at 1..6 x
                       TTDI_MARK_EVERY (at enters and exits), the latest
                       four (3..6) kept */

/* One kept event as a walk from the start saw it. */
typedef struct seen {
    int kind;
    uint64_t addr, time_ns;
    size_t nstack;
    uint64_t top;       /* innermost open frame's id, 0 */
    uint64_t outer;     /* outermost open frame's id, 0 */
} seen;

static const char *trace_path(void)
{
    static char p[512];
    snprintf(p, sizeof p, "%s/walker.trc", tu_tmpdir);
    return p;
}

/* main{ (parse{ lex{} work{ check{} } } | every 3rd deeper, longer)* } */
static void write_trace(void)
{
    static const char *const names[] = {"main"};
    size_t cap = (size_t)REPS * 64 + 64, n = 0;
    char *s = malloc(cap);
    dt t;

    assert_non_null(s);
    n += (size_t)snprintf(s + n, cap - n, "main{");
    for (int i = 0; i < REPS; i++)
        n += (size_t)snprintf(s + n, cap - n, i % 3 ? "parse{lex{}work{check{}}}"
                                                     : "parse{work{lex{check{}}}lex{}}");
    snprintf(s + n, cap - n, "}");
    remove(trace_path());
    assert_int_equal(dt_open(&t, trace_path(), 0, names, 1), 0);
    assert_int_equal(dt_run(&t, 0, s), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    free(s);
}

static void take(const ttdi_walk *w, seen *out)
{
    memset(out, 0, sizeof *out);
    out->kind = w->ev.kind;
    out->addr = w->ev.addr;
    out->time_ns = w->ev.time_ns;
    out->nstack = w->nstack;
    out->top = w->nstack ? w->stack[w->nstack - 1].id : 0;
    out->outer = w->nstack ? w->stack[0].id : 0;
}

/* Every kept event of thread 0 from the start: its count into *n; the
 * walk also leaves a mark at kept index pin (0: none, ttdi_walk_pin). */
static seen *walk_all_pinned(ttdi_run_state *r, size_t *n, uint64_t pin)
{
    size_t cap = (size_t)REPS * 10 + 16;
    seen *v = calloc(cap, sizeof *v);
    ttdi_walk w;
    int rc;

    assert_non_null(v);
    assert_int_equal(ttdi_walk_open(&w, r, 0), 0);
    ttdi_walk_pin(&w, pin);
    *n = 0;
    while ((rc = ttdi_walk_next(&w)) > 0) {
        if (!w.kept)
            continue;
        assert_true(w.idx == *n && *n < cap);
        take(&w, &v[(*n)++]);
    }
    assert_int_equal(rc, 0);
    ttdi_walk_close(&w);
    return v;
}

static seen *walk_all(ttdi_run_state *r, size_t *n)
{
    return walk_all_pinned(r, n, 0);
}

/* A first walk of thread 0 to its end pinned at time ns (ttdi_walk_pin_ns). */
static void walk_pinned_ns(ttdi_run_state *r, uint64_t ns)
{
    ttdi_walk w;
    int rc;

    assert_int_equal(ttdi_walk_open(&w, r, 0), 0);
    ttdi_walk_pin_ns(&w, ns);
    while ((rc = ttdi_walk_next(&w)) > 0) {
    }
    assert_int_equal(rc, 0);
    ttdi_walk_close(&w);
}

/* A walk started at a mark for idx shows ref's events from idx on; it
 * started at the mark at key index `at` (0: at the start). */
static void check_from(ttdi_run_state *r, const seen *ref, size_t n, uint64_t idx, uint64_t at)
{
    ttdi_walk w;
    seen s;
    int rc;

    assert_int_equal(ttdi_walk_open_at(&w, r, 0, idx, UINT64_MAX, 0), 0);
    assert_int_equal(w.next, at ? at + 1 : 0);
    assert_true(w.next <= idx);
    uint64_t want = w.next;
    while ((rc = ttdi_walk_next(&w)) > 0) {
        if (!w.kept)
            continue;
        assert_true(w.idx == want && want < n);
        take(&w, &s);
        assert_memory_equal(&s, &ref[want], sizeof s);
        want++;
    }
    assert_int_equal(rc, 0);
    assert_int_equal(want, n);
    ttdi_walk_close(&w);
}

/* The last `keep` kept events before the first event later than ns, from
 * a walk started for (idx, ns, keep): as ref has them. */
static void check_ring(ttdi_run_state *r, const seen *ref, size_t n, uint64_t ns, size_t keep,
                       uint64_t at)
{
    ttdi_walk w;
    uint64_t last = UINT64_MAX;
    int rc;

    assert_int_equal(ttdi_walk_open_at(&w, r, 0, UINT64_MAX, ns, keep), 0);
    assert_int_equal(w.next, at ? at + 1 : 0);
    uint64_t first = w.next;
    while ((rc = ttdi_walk_next(&w)) > 0 && w.ev.time_ns <= ns)
        if (w.kept)
            last = w.idx;
    assert_true(rc > 0 && last != UINT64_MAX && last < n);
    assert_true(last + 1 >= first + keep); /* the ring filled after the mark */
    /* from the start: the last kept event before the first later than ns */
    size_t k = 0;
    while (k < n && ref[k].time_ns <= ns)
        k++;
    assert_int_equal(last + 1, k);
    ttdi_walk_close(&w);
}

static void open_path(ttdi_run_state *r, uint64_t every, const char *path)
{
    memset(r, 0, sizeof *r);
    r->mark_every = every;
    assert_int_equal(ttf_open(path, (ttf_trace **)&r->owned, NULL), 0);
    r->t = r->owned;
    assert_int_equal(ttdi_norm_init(&r->norm, r->t, TTD_MSG_SITE, NULL, NULL, 0), 0);
    assert_int_equal(ttdi_load_threads(r), 0);
}

static void open_run(ttdi_run_state *r, uint64_t every)
{
    open_path(r, every, trace_path());
}

static void close_run(ttdi_run_state *r)
{
    ttdi_marks_free(r);
    ttdi_tinfo_free(r->ti, r->nt);
    free(r->ti);
    ttdi_norm_free(&r->norm);
    ttf_close(r->owned);
}

#define E TTDI_MARK_EVERY

static void test_marks(void **state)
{
    (void)state;
    ttdi_run_state r;
    ttdi_walk w;
    size_t n;

    write_trace();
    open_run(&r, 0);
    /* no walk yet: no mark, every walk from the start */
    assert_int_equal(ttdi_walk_open_at(&w, &r, 0, UINT64_MAX, UINT64_MAX, 0), 0);
    assert_int_equal(w.next, 0);
    ttdi_walk_close(&w);
    seen *ref = walk_all(&r, &n);
    assert_true(n > 6 * E && n < 7 * E);
    /* marks at 1..6 x E: a walk starts at the latest one before idx */
    check_from(&r, ref, n, n - 10, 6 * E);
    check_from(&r, ref, n, 3 * E + 1, 3 * E);
    check_from(&r, ref, n, 3 * E, 2 * E);
    check_from(&r, ref, n, E, 0);
    check_from(&r, ref, n, 10, 0);
    /* a ring of the last events before a time: from a mark with enough
     * events after it, none of them later */
    check_ring(&r, ref, n, ref[n - 5].time_ns, 2, 5 * E);
    check_ring(&r, ref, n, ref[4 * E + 1].time_ns, 2, 3 * E);
    check_ring(&r, ref, n, ref[E + 1].time_ns, 2, 0);
    check_ring(&r, ref, n, ref[n - 5].time_ns, 3 * E + 1, 2 * E);
    close_run(&r);
    free(ref);
}

/* A walk pinned at a kept index between the periodic marks (the timing
 * scan, TTDI_PIN_BACK before a split) leaves a mark there too: a later
 * walk for an index past it, or for a ring before a time past it, starts
 * there and shows every event (kind, function, the whole stack) as the
 * walk from the start did; the periodic marks stay; a second walk pinned
 * where the first went leaves nothing more. The same pinned by time. */
static void test_marks_pinned(void **state)
{
    (void)state;
    ttdi_run_state r;
    ttdi_walk w;
    size_t n;
    const uint64_t pin = 3 * E + 12345;

    write_trace();
    open_run(&r, 0);
    seen *ref = walk_all_pinned(&r, &n, pin);
    check_from(&r, ref, n, pin + 1, pin);
    check_from(&r, ref, n, pin + 9000, pin);
    check_from(&r, ref, n, pin, 3 * E);
    check_from(&r, ref, n, 4 * E + 1, 4 * E);
    /* a ring: no later mark tells that enough events follow the pin */
    check_ring(&r, ref, n, ref[pin + 10].time_ns, 2, 3 * E);
    check_ring(&r, ref, n, ref[pin + 10].time_ns, 0, pin);  /* by time (the thread order) */
    /* now the walks that stopped there tell it (the last one's stop) */
    check_ring(&r, ref, n, ref[pin + 10].time_ns, 2, pin);
    check_ring(&r, ref, n, ref[pin + 5].time_ns, 2, 3 * E);  /* not before it */
    check_ring(&r, ref, n, ref[pin + 5].time_ns, 2, pin);
    check_ring(&r, ref, n, ref[pin + 5].time_ns, 6, 3 * E);  /* 5 after the pin */
    /* a walk from a mark is pinned afresh: not at the marking walk's pin */
    assert_int_equal(ttdi_walk_open_at(&w, &r, 0, 2 * E + 5, UINT64_MAX, 0), 0);
    assert_int_equal(w.pin_at, 0);
    ttdi_walk_close(&w);
    /* a later walk's pin goes among the marks (insert_pin), in order */
    seen *again = walk_all_pinned(&r, &n, pin + 77);
    check_from(&r, ref, n, pin + 100, pin + 77);
    check_from(&r, ref, n, pin + 50, pin);
    check_from(&r, ref, n, 4 * E + 1, 4 * E);
    free(again);
    close_run(&r);
    /* pinned by time (the thread order's walks of the other threads): the
     * mark at the first kept event at or after it */
    open_run(&r, 0);
    walk_pinned_ns(&r, ref[pin].time_ns);
    check_from(&r, ref, n, pin + 1, pin);
    check_ring(&r, ref, n, ref[pin + 10].time_ns, 0, pin);
    check_from(&r, ref, n, 4 * E + 1, 4 * E);
    close_run(&r);
    free(ref);
}

/* 1: write_values_trace writes the lazy clock (format 1.9): most EXITs
 * untimed, and the ENTERs after them; and from the 2000th parse on, all
 * inside helper{}, whose ENTER is untimed (vforce: the EXIT before it) */
static int vlazy, vforce;

/* The EXIT of addr with result ret at *now + 10: with vlazy, measured only
 * every seventh time (a run of untimed events between). */
static void vexit(dt *t, uint64_t addr, uint64_t ret)
{
    static unsigned k;
    int clock = ++k % 7 && !vforce ? TTF_EXIT_UNTIMED : TTF_EXIT_TIMED;
    clock = vforce ? TTF_EXIT_UNTIMED : clock;
    vforce = 0;
    t->now[0] += vlazy ? 3 + k % 11 : 10;  /* (uneven: no estimate exact) */
    if (!vlazy)
        assert_int_equal(ttf_write_exit_value(t->w, 0, t->now[0], addr, ret), 0);
    else
        assert_int_equal(ttf_write_exit_value_sparse(t->w, 0, t->now[0], addr, ret, clock), 0);
}

/* A values trace: main{ (parse{ lex{} work{ check{} } })* } in 4 KiB
 * chunks, each ENTER's registers its own (i, depth), each EXIT's result. */
static void write_values_trace(const char *path)
{
    static const char *const names[] = {"main"};
    ttf_writer_opts o = {.chunk_size = 4096, .timed = 1, .values = 1, .sparse = vlazy,
                         .lazy = vlazy, .chain = vlazy};
    static const char *const fn[] = {"parse", "lex", "work", "check"};
    static const int depth[] = {1, 2, 2, 3};    /* lex closes before work */
    uint64_t r[TTF_VALUE_REGS] = {0};
    dt t;

    remove(path);
    assert_int_equal(dt_open_opts(&t, path, 0, names, 1, &o), 0);
    r[0] = 7;
    assert_int_equal(ttf_write_enter_values(t.w, 0, t.now[0] += 10, dt_addr(&t, "main", 4), r),
                     0);
    for (uint64_t i = 0; i < 3000; i++) {
        uint64_t open[4];
        int n = 0;
        if (vlazy && i == 2000)
            assert_int_equal(ttf_write_enter_values(t.w, 0, t.now[0] += 10,
                                                    dt_addr(&t, "helper", 6), r), 0);
        for (int k = 0; k < 4; k++) {
            while (n >= depth[k]) {   /* close down to the new call's caller */
                n--;
                vexit(&t, open[n], i + 9);
            }
            open[n] = dt_addr(&t, fn[k], strlen(fn[k]));
            r[0] = i * 4 + (uint64_t)k;
            r[1] = (uint64_t)depth[k] << 32 | i;
            assert_int_equal(ttf_write_enter_values(t.w, 0, t.now[0] += 10, open[n++], r), 0);
        }
        while (n > 0) {
            n--;
            vforce = vlazy && i == 1999 && n == 0;
            vexit(&t, open[n], i + 5);
        }
    }
    if (vlazy)
        vexit(&t, dt_addr(&t, "helper", 6), 0);
    assert_int_equal(ttf_write_exit_value(t.w, 0, t.now[0] += 10, dt_addr(&t, "main", 4), 1),
                     0);
    assert_int_equal(dt_close(&t, 0), 0);
}

/* One kept event of a values walk: its values and its frames' arguments
 * (a sum over the stack). */
typedef struct vseen {
    int kind, has_values;
    uint64_t time_ns, arg0, arg1, ret, frames, nvals, ftimes, max_ns;
} vseen;

static void vtake(const ttdi_walk *w, vseen *out)
{
    memset(out, 0, sizeof *out);
    out->kind = w->ev.kind;
    out->has_values = w->ev.has_values;
    out->time_ns = w->ev.time_ns;
    out->arg0 = w->ev.has_values ? w->ev.argregs[0] : 0;
    out->arg1 = w->ev.has_values ? w->ev.argregs[1] : 0;
    out->ret = w->ev.has_values ? w->ev.retval : 0;
    for (size_t i = 0; i < w->nstack; i++) {
        out->frames = out->frames * 31 + w->stack[i].argregs[0] * 7 + w->stack[i].argregs[1];
        out->nvals += (uint64_t)w->stack[i].has_values;
        out->ftimes = out->ftimes * 31 + w->stack[i].time_ns;
    }
    out->max_ns = w->max_ns;
}

/* Walk thread 0 of r from a mark for idx (ttdi_walk_open_at), values
 * stepped over up to vfrom (0: none); every kept event from max(vfrom,
 * where it started) on as ref has it, none before with values; the
 * kept index it started at into *at. */
static void vcheck_by(ttdi_run_state *r, const vseen *ref, size_t n, uint64_t idx,
                      uint64_t vfrom, uint64_t *at, int open_values)
{
    ttdi_walk w;
    vseen s;
    int rc;

    if (open_values) {
        assert_int_equal(ttdi_walk_open_values(&w, r, 0, idx, vfrom), 0);
    } else {
        assert_int_equal(ttdi_walk_open_at(&w, r, 0, idx, UINT64_MAX, 0), 0);
        assert_int_equal(ttdi_walk_values_from(&w, vfrom), 0);
    }
    *at = w.next;
    while ((rc = ttdi_walk_next(&w)) > 0) {
        if (!w.kept)
            continue;
        assert_true(w.idx < n);
        vtake(&w, &s);
        if (w.idx < vfrom)
            assert_int_equal(s.has_values, 0);
        else
            assert_memory_equal(&s, &ref[w.idx], sizeof s);
    }
    assert_int_equal(rc, 0);
    ttdi_walk_close(&w);
}

static void vcheck(ttdi_run_state *r, const vseen *ref, size_t n, uint64_t idx,
                   uint64_t vfrom, uint64_t *at)
{
    vcheck_by(r, ref, n, idx, vfrom, at, 0);
}

/* write_values_trace into tu_tmpdir/name (its path into path), opened in
 * *r (marks every 1000), read whole with values from the start: every
 * kept event's (*n of them; free the array). */
static vseen *values_ref(char *path, size_t len, const char *name, ttdi_run_state *r,
                         size_t *n)
{
    ttdi_walk w;
    size_t cap = 3000 * 8 + 16;
    vseen *ref = calloc(cap, sizeof *ref);
    int rc;

    snprintf(path, len, "%s/%s", tu_tmpdir, name);
    write_values_trace(path);
    assert_non_null(ref);
    open_path(r, 1000, path);
    assert_int_equal(ttdi_walk_open(&w, r, 0), 0);
    *n = 0;
    while ((rc = ttdi_walk_next(&w)) > 0)
        if (w.kept) {
            assert_true(w.idx == *n && *n < cap);
            vtake(&w, &ref[(*n)++]);
            assert_true(ref[*n - 1].has_values);
        }
    assert_int_equal(rc, 0);
    ttdi_walk_close(&w);
    assert_true(*n > 20000);
    return ref;
}

/* ttdi_walk_values_from (resolve's passes, walk.c): a run walk that steps
 * over values up to an index shows from there each event's values and
 * every open frame's arguments (main's from the first chunk: read back by
 * offset) as a walk with values from the start does, and pins its mark
 * there, none before (a mark's state has values); a walk from that mark
 * reads values as from the start. A plain walk of it: values from the
 * start, as without the call. */
static void test_values_from(void **state)
{
    (void)state;
    char path[512];
    ttdi_run_state r;
    ttdi_walk w;
    size_t n;
    vseen *ref = values_ref(path, sizeof path, "walker_values.trc", &r, &n);
    uint64_t at;
    int rc;

    ttdi_marks_free(&r);
    /* the first walk of the thread: no marks before 12345, one there */
    vcheck(&r, ref, n, UINT64_MAX, 12345, &at);
    assert_int_equal(at, 0);
    vcheck(&r, ref, n, 12000, 0, &at);  /* nothing before it */
    assert_int_equal(at, 0);
    vcheck(&r, ref, n, 12346, 0, &at);  /* from the pin, with values */
    assert_int_equal(at, 12346);
    vcheck(&r, ref, n, 19000, 0, &at);  /* a periodic mark after it */
    assert_int_equal(at, 18001);
    /* from a mark, stepped over again up to 20111 */
    vcheck(&r, ref, n, 12346, 20111, &at);
    assert_int_equal(at, 12346);
    vcheck(&r, ref, n, 20112, 0, &at);
    assert_int_equal(at, 20112);
    /* past where it stands: no skip (values from its start) */
    vcheck(&r, ref, n, 20112, 5, &at);
    close_run(&r);
    /* pinned by time before it (the thread order's pin): its mark is left
       where the values come back, not before */
    open_path(&r, 1000, path);
    assert_int_equal(ttdi_walk_open(&w, &r, 0), 0);
    assert_int_equal(ttdi_walk_values_from(&w, 12345), 0);
    ttdi_walk_pin_ns(&w, ref[5000].time_ns);
    while ((rc = ttdi_walk_next(&w)) > 0) {
    }
    assert_int_equal(rc, 0);
    ttdi_walk_close(&w);
    vcheck(&r, ref, n, 12000, 0, &at);
    assert_int_equal(at, 0);
    vcheck(&r, ref, n, 12346, 0, &at);
    assert_int_equal(at, 12346);
    close_run(&r);
    free(ref);
}

/* vcheck through ttdi_walk_open_values (resolve's pass on a values trace):
 * from the mark it takes for idx, values back at vfrom; *at where it
 * started. */
static void vcheck_aside(ttdi_run_state *r, const vseen *ref, size_t n, uint64_t idx,
                         uint64_t vfrom, uint64_t *at)
{
    vcheck_by(r, ref, n, idx, vfrom, at, 1);
}

/* Thread 0 of r read whole by an aside walk (no values, counted apart),
 * which leaves marks no walk that needs values from its start takes;
 * without times from kept index notimes_at on (UINT64_MAX: never). */
static void aside_read_from(ttdi_run_state *r, uint64_t notimes_at)
{
    ttdi_walk w;
    uint64_t span = ttdi_walk_span_ns;
    int rc;

    assert_true(ttdi_walk_aside_ok(r, 0));
    assert_int_equal(ttdi_walk_open_aside(&w, r, 0), 0);
    while ((rc = ttdi_walk_next(&w)) > 0) {
        assert_int_equal(w.ev.has_values, 0);
        if (w.next > notimes_at && !w.notimes)
            assert_int_equal(ttdi_walk_aside_notimes(&w), 0);
    }
    assert_int_equal(rc, 0);
    ttdi_walk_close(&w);
    assert_int_equal(ttdi_walk_span_ns, span);
    assert_false(ttdi_walk_aside_ok(r, 0));     /* marked */
    assert_false(ttdi_walk_marked(r, 0));
    assert_int_equal(ttdi_walk_open_at(&w, r, 0, 20000, UINT64_MAX, 0), 0);
    assert_int_equal(w.next, 0);                /* none for a values walk */
    ttdi_walk_close(&w);
}

static void aside_read(ttdi_run_state *r)
{
    aside_read_from(r, UINT64_MAX);
}

/* An aside walk (ttdi_walk_open_aside: pair_align.c reads it in a thread
 * of its own) leaves marks without values: no walk that needs values from
 * its start takes them (ttdi_walk_open_at, ttdi_walk_marked), but resolve's
 * pass does (ttdi_walk_open_values), from the last one at least two kept
 * events before where the values come back (one before: the walk there
 * would stand at that index and step over nothing); a values mark later
 * than it wins; every event from vfrom on as a walk with values from the
 * start reads it. */
static void test_values_aside(void **state)
{
    (void)state;
    char path[512];
    ttdi_run_state r;
    size_t n;
    vseen *ref = values_ref(path, sizeof path, "walker_aside.trc", &r, &n);
    uint64_t at;

    close_run(&r);
    for (int k = 0; k < 2; k++) {
        open_path(&r, 1000, path);
        aside_read(&r);
        /* marks every 2000 once thinned (24K kept events, 16 at most) */
        vcheck_aside(&r, ref, n, 14000, 12001 + (uint64_t)k, &at);
        assert_int_equal(at, k ? 12001 : 10001);   /* 12000 one before 12001 */
        if (!k)
            close_run(&r);
    }
    assert_true(ttdi_walk_marked(&r, 0));       /* its pin at 12002 */
    vcheck(&r, ref, n, 12003, 0, &at);          /* from the pin, with values */
    assert_int_equal(at, 12003);
    vcheck_aside(&r, ref, n, 13000, 12500, &at);   /* the pin beats 12000 */
    assert_int_equal(at, 12003);
    vcheck_aside(&r, ref, n, 18000, 16001, &at);   /* 14000 beats the pins */
    assert_int_equal(at, 14001);
    close_run(&r);
    free(ref);
}

/* The same on a trace of the lazy clock (most EXITs and the ENTERs after
 * them untimed), the aside walk reading without times
 * (ttdi_walk_aside_notimes) from kept index 3000 on: a walk from its
 * marks takes back the exact times of its event and of the frames
 * entered since, so every event from vfrom on, its time, the walk's
 * latest time and the open frames' times, is as a walk with values and
 * times from the start reads it. */
static void test_values_aside_untimed(void **state)
{
    (void)state;
    char path[512];
    ttdi_run_state r;
    size_t n, untimed = 0;
    vlazy = 1;
    vseen *ref = values_ref(path, sizeof path, "walker_aside_lazy.trc", &r, &n);
    vlazy = 0;
    uint64_t at;

    ttf_iter *it;
    ttf_event ev;
    assert_int_equal(ttf_iter_open(r.t, 0, &it), 0);
    while (ttf_iter_next(it, &ev) > 0)
        untimed += (size_t)ev.untimed;
    ttf_iter_close(it);
    assert_true(untimed > n / 2);   /* (placed between their bounds) */
    close_run(&r);
    open_path(&r, 1000, path);
    aside_read_from(&r, 3000);
    vcheck_aside(&r, ref, n, 14000, 12001, &at);
    assert_int_equal(at, 10001);
    vcheck_aside(&r, ref, n, 18000, 16001, &at);   /* 14000 beats the pin */
    assert_int_equal(at, 14001);
    vcheck_aside(&r, ref, n, 22000, 20001, &at);   /* helper open since 16001 */
    assert_int_equal(at, 18001);
    close_run(&r);
    /* before the skip began: exact times already */
    open_path(&r, 1000, path);
    aside_read_from(&r, 20000);
    vcheck_aside(&r, ref, n, 14000, 12001, &at);
    assert_int_equal(at, 10001);
    close_run(&r);
    free(ref);
}

/* A thread a first walk read whole (the tree build's run walks of the
 * pairs after one that parted, pair_align.c): a later walk from one of
 * its marks pinned by time (the thread order's, interleave.c from_tap)
 * leaves its mark among the later ones, in order, so the walks after it
 * (the details' for the other threads' last events) start there, and
 * every mark still starts a walk exactly; pinned again at the same place,
 * nothing changes. */
static void test_marks_pin_inserted(void **state)
{
    (void)state;
    ttdi_run_state r;
    ttdi_walk w;
    size_t n;
    int rc;

    write_trace();
    open_run(&r, 0);
    seen *ref = walk_all(&r, &n);
    for (int again = 0; again < 2; again++) {
        assert_int_equal(ttdi_walk_open_at(&w, &r, 0, 4 * E + 10, UINT64_MAX, 0), 0);
        assert_int_equal(w.next, 4 * E + 1);
        ttdi_walk_pin_ns(&w, ref[4 * E + 500].time_ns);
        while ((rc = ttdi_walk_next(&w)) > 0 && w.idx < 4 * E + 1000) {
        }
        assert_int_equal(rc, 1);
        ttdi_walk_close(&w);
    }
    check_from(&r, ref, n, 4 * E + 600, 4 * E + 500);
    check_from(&r, ref, n, 4 * E + 400, 4 * E);
    check_from(&r, ref, n, 5 * E + 1, 5 * E);
    check_from(&r, ref, n, 6 * E + 1, 6 * E);
    check_ring(&r, ref, n, ref[4 * E + 510].time_ns, 0, 4 * E + 500);
    close_run(&r);
    /* marks thinned to 32,768 apart (test_marks_thinned): the pin among them */
    open_run(&r, 64);
    free(walk_all(&r, &n));
    assert_int_equal(ttdi_walk_open_at(&w, &r, 0, 5 * 32768 + 10, UINT64_MAX, 0), 0);
    ttdi_walk_pin_ns(&w, ref[5 * 32768 + 100].time_ns);
    while ((rc = ttdi_walk_next(&w)) > 0 && w.idx < 5 * 32768 + 200) {
    }
    ttdi_walk_close(&w);
    check_from(&r, ref, n, 5 * 32768 + 150, 5 * 32768 + 100);
    check_from(&r, ref, n, 5 * 32768 + 50, 5 * 32768);
    check_from(&r, ref, n, n - 10, 13 * 32768);
    close_run(&r);
    free(ref);
}

/* Marks every 64 events fill a thread's room many times over: every other
 * one goes each time, and the rest still start walks exactly. */
static void test_marks_thinned(void **state)
{
    (void)state;
    ttdi_run_state r;
    size_t n;

    write_trace();
    open_run(&r, 64);
    seen *ref = walk_all(&r, &n);
    /* 433,336 events: 16 marks cover them at 32,768 apart */
    check_from(&r, ref, n, n - 10, 13 * 32768);
    check_from(&r, ref, n, 5 * 32768 + 7, 5 * 32768);
    check_from(&r, ref, n, 32768 + 1, 32768);
    check_from(&r, ref, n, 32768, 0);
    check_ring(&r, ref, n, ref[n - 5].time_ns, 2, 12 * 32768);
    close_run(&r);
    free(ref);
}

/* A walk that stopped at the first event later than a time (the thread
 * order's, at a split) tells how far it got: a ring of the last events
 * before that time starts at the last mark before it when enough kept
 * events lie between them, not one mark earlier. */
static void test_marks_reach(void **state)
{
    (void)state;
    ttdi_run_state r, rr;
    ttdi_walk w;
    size_t n;
    int rc;

    write_trace();
    open_run(&rr, 0);
    seen *ref = walk_all(&rr, &n);   /* (in a run state of its own) */
    close_run(&rr);
    open_run(&r, 0);
    uint64_t ns = ref[4 * E + 10].time_ns;
    assert_true(ref[4 * E + 11].time_ns > ns);
    assert_int_equal(ttdi_walk_open(&w, &r, 0), 0);
    while ((rc = ttdi_walk_next(&w)) > 0 && w.ev.time_ns <= ns)
        ;
    assert_int_equal(rc, 1);
    ttdi_walk_close(&w);
    /* kept events 4E+1 .. 4E+10 after the mark at 4E, none later than ns */
    check_ring(&r, ref, n, ns, 2, 4 * E);
    check_ring(&r, ref, n, ns, 10, 4 * E);
    check_ring(&r, ref, n, ns, 11, 3 * E);
    /* an earlier time than where the walk got: only the marks tell */
    check_ring(&r, ref, n, ref[4 * E + 5].time_ns, 2, 3 * E);
    close_run(&r);
    free(ref);
}

/* A walk that stops near its thread's end reads on to it when the run
 * counts calls (ttdi_walk_read_out: its calls are then told), and its
 * reach is where it stopped: a ring of the 2 events before that time
 * starts at the mark just before it (one mark earlier with the reach at
 * the end), as in test_marks_reach. */
static void test_read_out(void **state)
{
    (void)state;
    ttdi_run_state r, rr;
    ttdi_walk w;
    const ttdi_fcalls *fc;
    size_t n, nf;
    int rc;

    write_trace();
    open_run(&rr, 0);
    seen *ref = walk_all(&rr, &n);
    close_run(&rr);
    open_run(&r, 0);
    r.count_calls = 1;
    uint64_t ns = ref[6 * E + 10].time_ns;
    assert_true(ref[6 * E + 11].time_ns > ns && n - 6 * E < 6 * E / 8);
    assert_int_equal(ttdi_walk_open(&w, &r, 0), 0);
    while ((rc = ttdi_walk_next(&w)) > 0 && w.ev.time_ns <= ns)
        ;
    assert_int_equal(rc, 1);
    assert_int_equal(ttdi_walk_calls(&r, 0, &fc, &nf), 0);
    assert_int_equal(ttdi_walk_read_out(&w), 0);
    ttdi_walk_close(&w);
    assert_int_equal(ttdi_walk_calls(&r, 0, &fc, &nf), 1);
    check_ring(&r, ref, n, ns, 2, 6 * E);
    close_run(&r);
    free(ref);
}

/* The run walks' call-stack rule: an UNWIND's frames close at the next
 * ENTER; an EXIT closes its own frame and those a longjmp left above it.
 * main{ parse{ lex{ UNWIND(1) check{} work{ lex{ EXIT(work) } }:
 * per ENTER/EXIT/UNWIND, the frames open before it, what
 * ttdi_walk_depth_after says stays open, and the innermost frame; a
 * stack walk (ttdi_walk_stack, no run state: the races') the same. */
static void test_unwind_rule(void **state)
{
    static const char *const names[] = {"main"};
    static const struct { int kind; size_t before, after; const char *top; } want[] = {
        {TTF_EV_ENTER, 0, 0, NULL},      {TTF_EV_ENTER, 1, 1, "main"},
        {TTF_EV_ENTER, 2, 2, "parse"},   {TTF_EV_UNWIND, 3, 3, "lex"},
        {TTF_EV_ENTER, 3, 2, "lex"},     {TTF_EV_EXIT, 3, 2, "check"},
        {TTF_EV_ENTER, 2, 2, "parse"},   {TTF_EV_ENTER, 3, 3, "work"},
        {TTF_EV_EXIT, 4, 2, "lex"},      {TTF_EV_EXIT, 2, 1, "parse"},
        {TTF_EV_EXIT, 1, 0, "main"},
    };
    char path[512];
    ttdi_run_state r;
    ttdi_walk w;
    size_t k = 0;
    dt t;
    (void)state;

    snprintf(path, sizeof path, "%s/unwind.trc", tu_tmpdir);
    remove(path);
    assert_int_equal(dt_open(&t, path, 0, names, 1), 0);
    assert_int_equal(dt_run(&t, 0, "main{ parse{ lex{"), 0);
    assert_int_equal(ttf_write_unwind(t.w, 0, t.now[0] += 10, TTF_UNWIND_LONGJMP, 1), 0);
    t.depth[0]--;
    assert_int_equal(dt_run(&t, 0, "check{} work{ lex{"), 0);
    assert_int_equal(ttf_write_exit(t.w, 0, t.now[0] += 10, dt_addr(&t, "work", 4)), 0);
    t.depth[0] -= 2;
    assert_int_equal(dt_run(&t, 0, "} }"), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    open_path(&r, 0, path);
    for (int stack = 0; stack < 2; stack++) { /* a run walk, a stack walk */
        assert_int_equal(stack ? ttdi_walk_stack(&w, r.t, 0, 0) : ttdi_walk_open(&w, &r, 0), 0);
        for (k = 0; (stack ? ttdi_walk_stack_next(&w) : ttdi_walk_next(&w)) > 0;) {
            int kind = w.ev.kind;
            if (kind != TTF_EV_ENTER && kind != TTF_EV_EXIT && kind != TTF_EV_UNWIND)
                continue;
            assert_true(k < sizeof want / sizeof *want);
            assert_int_equal(kind, want[k].kind);
            assert_int_equal(w.nstack, want[k].before);
            assert_int_equal(ttdi_walk_depth_after(&w), want[k].after);
            if (want[k].top)
                assert_int_equal(w.stack[w.nstack - 1].id,
                                 dt_addr(&t, want[k].top, strlen(want[k].top)));
            k++;
        }
        assert_int_equal(k, sizeof want / sizeof *want);
        ttdi_walk_close(&w);
    }
    close_run(&r);
}

/* A stack walk read by ttdi_walk_stack_next (inline where the stack
 * changes at its top) gives every event with the stack a run walk gives:
 * on a trace whose stack grows past 64 frames and comes back by an EXIT
 * 29 frames down (the open set goes live and stays: 42 frames left), an
 * EXIT 70 frames down (skipped exits), by UNWINDs
 * and by EXITs of no open frame, with SLEEPs between (skipped). */
static void test_stack_walk(void **state)
{
    static const char *const names[] = {"main"};
    char path[512];
    ttdi_run_state r;
    ttdi_walk w, s;
    dt t;
    int rc;
    (void)state;

    snprintf(path, sizeof path, "%s/deep.trc", tu_tmpdir);
    remove(path);
    assert_int_equal(dt_open(&t, path, 0, names, 1), 0);
    assert_int_equal(ttf_write_exit(t.w, 0, t.now[0] += 10, dt_addr(&t, "lex", 3)), 0);
    assert_int_equal(dt_run(&t, 0, "main{"), 0);
    /* past dt's 64 frames: the deep part written directly */
    uint64_t lex = dt_addr(&t, "lex", 3), helper = dt_addr(&t, "helper", 6),
             check = dt_addr(&t, "check", 5), work = dt_addr(&t, "work", 4),
             fail = dt_addr(&t, "fail", 4);
    for (int round = 0; round < 3; round++) {
        assert_int_equal(dt_run(&t, 0, "parse{"), 0);
        for (int i = 0; i < 70; i++) {
            uint64_t fn = i % 3 ? lex : helper;
            assert_int_equal(ttf_write_enter(t.w, 0, t.now[0] += 10, i == 40 ? work : fn), 0);
            if (!(i % 3)) {     /* helper{ check{} */
                assert_int_equal(ttf_write_enter(t.w, 0, t.now[0] += 10, check), 0);
                assert_int_equal(ttf_write_exit(t.w, 0, t.now[0] += 10, check), 0);
            }
            if (i % 20 == 7)
                assert_int_equal(ttf_write_sync_op(t.w, 0, t.now[0] += 10, TTF_SOP_SLEEP,
                                                   0, 5), 0);
        }
        if (round == 0) {       /* EXIT(work) 29 frames down: 42 stay, live;
                                   fail{ lex{ EXIT(fail) at the top */
            assert_int_equal(ttf_write_exit(t.w, 0, t.now[0] += 10, work), 0);
            assert_int_equal(ttf_write_enter(t.w, 0, t.now[0] += 10, fail), 0);
            assert_int_equal(ttf_write_enter(t.w, 0, t.now[0] += 10, lex), 0);
            assert_int_equal(ttf_write_exit(t.w, 0, t.now[0] += 10, fail), 0);
        }
        if (round == 1) {       /* an UNWIND of 3, then work{} */
            assert_int_equal(ttf_write_unwind(t.w, 0, t.now[0] += 10, TTF_UNWIND_LONGJMP,
                                              3), 0);
            assert_int_equal(ttf_write_enter(t.w, 0, t.now[0] += 10, work), 0);
            assert_int_equal(ttf_write_exit(t.w, 0, t.now[0] += 10, work), 0);
        }
        assert_int_equal(dt_run(&t, 0, "}"), 0);    /* parse's EXIT, 70 frames down */
    }
    assert_int_equal(dt_run(&t, 0, "}"), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    open_path(&r, 0, path);
    assert_int_equal(ttdi_walk_open(&w, &r, 0), 0);
    assert_int_equal(ttdi_walk_stack(&s, r.t, 0, 0), 0);
    size_t deepest = 0, n = 0;
    int live = 0;
    while ((rc = ttdi_walk_next(&w)) > 0) {
        live |= s.live;
        assert_int_equal(ttdi_walk_stack_next(&s), 1);
        assert_int_equal(s.ev.kind, w.ev.kind);
        assert_int_equal(s.ev.time_ns, w.ev.time_ns);
        assert_int_equal(s.nstack, w.nstack);
        assert_int_equal(ttdi_walk_depth_after(&s), ttdi_walk_depth_after(&w));
        for (size_t i = 0; i < w.nstack; i++)
            assert_int_equal(s.stack[i].id, w.stack[i].id);
        deepest = w.nstack > deepest ? w.nstack : deepest;
        n++;
    }
    assert_int_equal(rc, 0);
    assert_int_equal(ttdi_walk_stack_next(&s), 0);
    assert_true(deepest > 70);
    assert_true(live);
    assert_true(n > 350);
    ttdi_walk_close(&w);
    ttdi_walk_close(&s);
    close_run(&r);
}

/* One SYNC_OP as a raw walk up to ns shows it. */
typedef struct rsync {
    uint64_t time_ns, addr;
    int code;
} rsync;

/* The SYNC_OPs a raw walk of thread 0 reads before it stops at its first
 * event later than ns, or at ns and not a SYNC_OP (as the order checks'
 * lock views walk); their count. */
static size_t raw_syncs(const ttf_trace *t, uint64_t ns, rsync *out, size_t cap)
{
    ttdi_walk w;
    size_t n = 0;

    assert_int_equal(ttdi_walk_raw(&w, t, 0), 0);
    while (ttdi_walk_next(&w) > 0) {
        if (w.ev.time_ns > ns || (w.ev.time_ns == ns && w.ev.kind != TTF_EV_SYNC_OP))
            break;
        if (w.ev.kind == TTF_EV_SYNC_OP && n < cap)
            out[n++] = (rsync){w.ev.time_ns, w.ev.addr, w.ev.code};
    }
    ttdi_walk_close(&w);
    return n;
}

/* Are ttdi_walk_syncs' records for ns what the raw walk reads? 1 if it
 * answered (and they are), 0 if it could not tell. */
static int syncs_match(ttdi_run_state *r, uint64_t ns, rsync *raw, size_t cap)
{
    const ttdi_syncrec *rec;
    size_t n;

    if (!ttdi_walk_syncs(r, 0, ns, &rec, &n))
        return 0;
    assert_int_equal(n, raw_syncs(r->t, ns, raw, cap));
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(ttdi_sr_ns(r->t, &rec[i]), raw[i].time_ns);
        assert_int_equal(rec[i].addr, raw[i].addr);
        assert_int_equal(ttdi_sr_code(&rec[i]), raw[i].code);
    }
    return 1;
}

/* A run walk keeps the SYNC_OPs of the part it reads (SLEEPs aside, which
 * raw walks skip), and ttdi_walk_syncs gives for any time what a raw walk
 * stopping there reads (a SYNC_OP at the time of the event before it
 * too: a lock at its call's entry), or says it cannot tell: past where
 * the walks got. */
static void test_sync_records(void **state)
{
    static const char *const names[] = {"main"};
    enum { ROUNDS = 120, CAP = 4 * ROUNDS };
    rsync *raw = calloc(CAP, sizeof *raw);
    char path[512];
    ttdi_run_state r;
    ttdi_walk w;
    dt t;
    (void)state;

    assert_non_null(raw);
    snprintf(path, sizeof path, "%s/syncs.trc", tu_tmpdir);
    remove(path);
    assert_int_equal(dt_open(&t, path, 0, names, 1), 0);
    assert_int_equal(dt_run(&t, 0, "main{"), 0);
    for (int i = 0; i < ROUNDS; i++) {
        uint64_t m = 0x5000u + 0x40u * (uint64_t)(i % 3);
        assert_int_equal(dt_run(&t, 0, "work{"), 0);   /* a lock at its time: i % 4 == 0 */
        assert_int_equal(ttf_write_sync_op(t.w, 0, t.now[0] += 10 * (i % 4 != 0), TTF_SOP_LOCK,
                                           m, 0), 0);
        if (i % 5 == 0)
            assert_int_equal(ttf_write_sync_op(t.w, 0, t.now[0] + 5, TTF_SOP_SLEEP, 0, 0), 0);
        assert_int_equal(dt_run(&t, 0, "check{}"), 0);
        assert_int_equal(ttf_write_sync_op(t.w, 0, t.now[0] += 10, TTF_SOP_UNLOCK, m, 0), 0);
        assert_int_equal(dt_run(&t, 0, "}"), 0);
    }
    assert_int_equal(dt_run(&t, 0, "}"), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    uint64_t end = t.now[0], mid = 1000 + (end - 1000) / 2;
    open_path(&r, 0, path);
    /* a run walk to the first event past mid */
    assert_int_equal(ttdi_walk_open(&w, &r, 0), 0);
    while (ttdi_walk_next(&w) > 0 && w.ev.time_ns <= mid) {
    }
    uint64_t got = w.ev.time_ns;    /* the last event it read */
    int got_sync = w.ev.kind == TTF_EV_SYNC_OP;
    ttdi_walk_close(&w);
    for (uint64_t ns = 900; ns <= end + 20; ns++)   /* told up to where it got */
        assert_int_equal(syncs_match(&r, ns, raw, CAP), ns < got || (ns == got && !got_sync));
    /* a walk to the end: every later time is told */
    assert_int_equal(ttdi_walk_open(&w, &r, 0), 0);
    while (ttdi_walk_next(&w) > 0) {
    }
    ttdi_walk_close(&w);
    assert_true(syncs_match(&r, end + 20, raw, CAP));
    assert_int_equal(raw_syncs(r.t, end + 20, raw, CAP), 2 * ROUNDS);
    close_run(&r);
    free(raw);
}

/* A record's latest earlier time kept as a difference that does not fit
 * (walker.c's far list: a gap of seconds before a SYNC_OP, the first at
 * seconds into the trace): ttdi_walk_syncs still tells at every time
 * around each what a raw walk reads. */
static void test_sync_records_far(void **state)
{
    static const char *const names[] = {"main"};
    enum { CAP = 64 };
    rsync raw[CAP];
    char path[512];
    ttdi_run_state r;
    ttdi_walk w;
    dt t;
    uint64_t at[16], prev[16];
    size_t n = 0;
    (void)state;

    snprintf(path, sizeof path, "%s/syncsfar.trc", tu_tmpdir);
    remove(path);
    assert_int_equal(dt_open(&t, path, 0, names, 1), 0);
    t.now[0] = 3000000000ull;  /* the first record with nothing before it */
    prev[n] = 0;
    assert_int_equal(ttf_write_sync_op(t.w, 0, at[n++] = t.now[0], TTF_SOP_LOCK, 0x5000, 0), 0);
    assert_int_equal(dt_run(&t, 0, "main{work{}"), 0);
    for (int i = 0; i < 6; i++) {
        prev[n] = t.now[0];
        t.now[0] += i % 2 ? 20 : 2500000000ull;     /* seconds, then a few ns */
        assert_int_equal(ttf_write_sync_op(t.w, 0, at[n++] = t.now[0],
                                           i % 2 ? TTF_SOP_UNLOCK : TTF_SOP_LOCK, 0x5000, 0), 0);
        assert_int_equal(dt_run(&t, 0, "check{}"), 0);
    }
    assert_int_equal(dt_run(&t, 0, "}"), 0);
    assert_int_equal(dt_close(&t, 0), 0);
    open_path(&r, 0, path);
    assert_int_equal(ttdi_walk_open(&w, &r, 0), 0);
    while (ttdi_walk_next(&w) > 0) {
    }
    ttdi_walk_close(&w);
    assert_int_equal(raw_syncs(r.t, UINT64_MAX - 1, raw, CAP), n);
    uint64_t off = at[0] - raw[0].time_ns;      /* the trace's times start at its start */
    for (size_t k = 0; k < n; k++) {
        uint64_t p = prev[k] ? prev[k] - off : 0, a = at[k] - off;
        uint64_t probe[] = {p ? p - 1 : 0, p, p + 1, a - 1, a, a + 1};
        for (size_t j = 0; j < sizeof probe / sizeof *probe; j++)
            assert_true(syncs_match(&r, probe[j], raw, CAP));
    }
    close_run(&r);
}

/* The calls of function `name` run walks counted in thread 0 of r (0: not
 * told, or none). */
static uint64_t counted(const ttdi_run_state *r, const char *name, int *told)
{
    const ttdi_fcalls *fc;
    size_t n;
    uint64_t calls = 0;

    *told = ttdi_walk_calls(r, 0, &fc, &n);
    for (size_t i = 0; *told && i < n; i++)
        calls += strcmp(fc[i].name, name) ? 0 : fc[i].calls;
    return calls;
}

/* A run walk over thread 0 of r from the start (or from a mark before key
 * index at), up to `upto` events read (0: the end). */
static void walk_some(ttdi_run_state *r, uint64_t at, int upto)
{
    ttdi_walk w;
    int k = 0;

    if (at)
        assert_int_equal(ttdi_walk_open_at(&w, r, 0, at, UINT64_MAX, 0), 0);
    else
        assert_int_equal(ttdi_walk_open(&w, r, 0), 0);
    while ((!upto || k++ < upto) && ttdi_walk_next(&w) > 0) {
    }
    ttdi_walk_close(&w);
}

/* ttdi_walk_calls: the ENTERs per function that run walks counted as they
 * first read a thread (r.count_calls), told once they read all of it,
 * whether one walk did or a walk from a mark went on where another
 * stopped; never when a part of it was read with counting off. */
static void test_walk_calls(void **state)
{
    static const char *const names[] = {"main"};
    char path[512];
    ttdi_run_state r;
    dt t;
    int told;
    (void)state;

    snprintf(path, sizeof path, "%s/calls.trc", tu_tmpdir);
    remove(path);
    assert_int_equal(dt_open(&t, path, 0, names, 1), 0);
    for (int i = 0; i < 3; i++)
        assert_int_equal(dt_run(&t, 0, "main{ lex{} parse{ lex{} check{} } }"), 0);
    assert_int_equal(dt_run(&t, 0, "check{ lex{} }"), 0);
    assert_int_equal(ttf_write_sync_op(t.w, 0, t.now[0] += 10, TTF_SOP_LOCK, 0x5000, 0), 0);
    assert_int_equal(dt_close(&t, 0), 0);

    open_path(&r, 4, path);
    r.count_calls = 1;
    walk_some(&r, 0, 10);
    assert_int_equal(counted(&r, "dt_lex", &told), 0);
    assert_false(told);                 /* half read */
    walk_some(&r, 0, 6);                /* behind the frontier: nothing new */
    walk_some(&r, 8, 0);                /* from a mark on to the end */
    assert_int_equal(counted(&r, "dt_lex", &told), 7);
    assert_true(told);
    assert_int_equal(counted(&r, "dt_main", &told), 3);
    assert_int_equal(counted(&r, "dt_check", &told), 4);
    assert_int_equal(counted(&r, "dt_parse", &told), 3);
    close_run(&r);

    open_path(&r, 4, path);             /* the start read with counting off */
    walk_some(&r, 0, 5);
    r.count_calls = 1;
    walk_some(&r, 0, 0);
    counted(&r, "dt_lex", &told);
    assert_false(told);
    close_run(&r);
}

/* The calls counted per function with many more functions than the
 * records' cache of recent ones (walker.c HOT): 200 addresses, function i
 * called i % 7 + 1 times, in rounds that mix them, so cache slots are
 * shared and taken over; each count must still be its own function's. */
static void test_walk_calls_many(void **state)
{
    static const char *const names[] = {"main"};
    enum { NF = 200 };
    char path[512];
    ttdi_run_state r;
    ttdi_walk w;
    dt t;
    const ttdi_fcalls *fc;
    size_t n;
    uint64_t base;
    (void)state;

    snprintf(path, sizeof path, "%s/calls_many.trc", tu_tmpdir);
    remove(path);
    assert_int_equal(dt_open(&t, path, 0, names, 1), 0);
    base = dt_addr(&t, "main", 4);
    for (int round = 0; round < 7; round++)
        for (int i = 0; i < NF; i++) {
            uint64_t a = base + 16 * (uint64_t)((i * 37 + round) % NF);
            if ((a - base) / 16 % 7 < (uint64_t)round)
                continue;
            assert_int_equal(ttf_write_enter(t.w, 0, t.now[0] += 10, a), 0);
            assert_int_equal(ttf_write_exit(t.w, 0, t.now[0] += 10, a), 0);
        }
    assert_int_equal(dt_close(&t, 0), 0);

    open_path(&r, 0, path);
    r.count_calls = 1;
    assert_int_equal(ttdi_walk_open(&w, &r, 0), 0);
    while (ttdi_walk_next(&w) > 0) {
    }
    ttdi_walk_close(&w);
    assert_int_equal(ttdi_walk_calls(&r, 0, &fc, &n), 1);
    assert_int_equal(n, NF);
    uint64_t total = 0;
    for (size_t k = 0; k < n; k++)
        total += fc[k].calls;
    assert_int_equal(total, 794);   /* i % 7 + 1 summed over i < 200 */
    for (int i = 0; i < NF; i++) {  /* first seen in round 0, order i * 37 % NF */
        uint64_t want = (uint64_t)(i * 37 % NF % 7 + 1);
        assert_int_equal(fc[i].calls, want);
    }
    close_run(&r);
}

/* The keys through the small caches with many more functions than their
 * slots (TTDI_KEYHOT; ttdi_lthread's names, walker.c): 600 functions
 * called in rounds that mix them (nested two deep), so slots are shared
 * and taken over; every ENTER's and EXIT's key from the timing scan's
 * cache (ttdi_norm_key_hot) and every frame the thread order's lock sets
 * open (ttdi_lock_call: key and name) must be the event's own, as the
 * normaliser gives them. */
static void test_keys_hot_many(void **state)
{
    static const char *const names[] = {"main"};
    enum { NF = 600 };
    char path[512];
    ttdi_run_state r;
    ttdi_walk w;
    ttdi_lthread lt;
    ttdi_lframe f;
    ttdi_keyhot *hot = calloc(TTDI_KEYHOT, sizeof *hot);
    dt t;
    uint64_t base, key, want;
    size_t enters = 0;
    int rc;
    (void)state;

    assert_non_null(hot);
    snprintf(path, sizeof path, "%s/keys_many.trc", tu_tmpdir);
    remove(path);
    assert_int_equal(dt_open(&t, path, 0, names, 1), 0);
    base = dt_addr(&t, "main", 4);
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < NF; i++) {
            uint64_t a = base + 16 * (uint64_t)((i * 37 + round) % NF);
            uint64_t b = base + 16 * (uint64_t)((i * 11 + 5 * round) % NF);
            assert_int_equal(ttf_write_enter(t.w, 0, t.now[0] += 10, a), 0);
            assert_int_equal(ttf_write_enter(t.w, 0, t.now[0] += 10, b), 0);
            assert_int_equal(ttf_write_exit(t.w, 0, t.now[0] += 10, b), 0);
            assert_int_equal(ttf_write_exit(t.w, 0, t.now[0] += 10, a), 0);
        }
    assert_int_equal(dt_close(&t, 0), 0);

    open_path(&r, 0, path);
    memset(&lt, 0, sizeof lt);
    assert_int_equal(ttdi_walk_open(&w, &r, 0), 0);
    while ((rc = ttdi_walk_next(&w)) > 0) {
        int kept = ttdi_norm_key(&r.norm, &w.ev, &want);
        assert_int_equal(ttdi_norm_key_hot(&r.norm, hot, &w.ev, &key), kept);
        if (kept)
            assert_int_equal(key, want);
        assert_true(ttdi_lock_call(&r.norm, &lt, &w, &f) >= 0);
        if (w.ev.kind != TTF_EV_ENTER)
            continue;
        enters++;
        assert_true(lt.n > 0);
        assert_int_equal(lt.f[lt.n - 1].key, kept ? want : 0);
        assert_string_equal(lt.f[lt.n - 1].name, ttdi_norm_func(&r.norm, &w.ev));
    }
    assert_int_equal(rc, 0);
    assert_int_equal(enters, 2 * 3 * NF);
    ttdi_walk_close(&w);
    free(lt.f);
    free(hot);
    close_run(&r);
}

/* The call a lock operation is named by (ttdi_lock_caller) with the
 * wrapper test asked once per name (ttdi_lframe.skip, filled at the
 * names' cache miss): a random nest of main, lex, work and the wrapper
 * mutex_lock (nested in itself too, and alone under main), every frame's
 * skip and the caller named as asking ttdi_lock_wrapper of every open
 * frame's name gives them. */
static const char *caller_asked(const ttdi_lthread *t)
{
    for (size_t i = t->n; i-- > 0;)
        if (t->f[i].name && !ttdi_lock_wrapper(t->f[i].name))
            return t->f[i].name;
    return t->n && t->f[t->n - 1].name ? t->f[t->n - 1].name : "";
}

/* A fresh one-thread trace (thread "main") named file in the scratch
 * folder: its path into path (n bytes), t open on it. */
static void fresh_main(dt *t, char *path, size_t n, const char *file)
{
    static const char *const names[] = {"main"};

    snprintf(path, n, "%s/%s", tu_tmpdir, file);
    remove(path);
    assert_int_equal(dt_open(t, path, 0, names, 1), 0);
}

/* Random call stacks of thread 0 of t (under "main", at most 7 deep) of
 * functions fns[0..nfn) over `steps` steps from seed, each closed at the
 * end, t closed; an operation on a lock at some ENTERs: with mixed, a
 * LOCK or UNLOCK of one of 8 locks at every other one, else a LOCK of one
 * lock at every third. */
static void random_stacks(dt *t, const char *const *fns, size_t nfn, int steps, uint64_t seed,
                          int mixed)
{
    uint64_t stack[8];
    int depth = 0;

    for (int i = 0; i < steps; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        unsigned r8 = (unsigned)(seed >> 59);
        if (depth < 7 && (depth == 0 || r8 < 18)) {
            const char *fn = depth == 0 ? "main" : fns[(seed >> 40) % nfn];
            stack[depth++] = dt_addr(t, fn, strlen(fn));
            assert_int_equal(ttf_write_enter(t->w, 0, t->now[0] += 10, stack[depth - 1]), 0);
            if (mixed ? r8 % 2 == 0 : r8 % 3 == 0)
                assert_int_equal(ttf_write_sync_op(t->w, 0, t->now[0] += 10,
                                                   mixed && r8 % 4 == 0 ? TTF_SOP_UNLOCK
                                                                        : TTF_SOP_LOCK,
                                                   0x5000 + (mixed ? 0x40 * (seed >> 61) : 0),
                                                   0), 0);
        } else {
            assert_int_equal(ttf_write_exit(t->w, 0, t->now[0] += 10, stack[--depth]), 0);
        }
    }
    while (depth > 0)
        assert_int_equal(ttf_write_exit(t->w, 0, t->now[0] += 10, stack[--depth]), 0);
    assert_int_equal(dt_close(t, 0), 0);
}

/* The SYNC_OP records' call names (ttdi_syncrec.call into ttdi_ltap.calls,
 * each pair of names kept once per thread) are the thread order's rule's
 * at each operation: the innermost open call's name and the call it is
 * named by (ttdi_lock_caller), as an lthread fed by ttdi_lock_call along
 * the same walk has them; with more records than the first guess of their
 * room (rec_room sizes a long thread's by the rate so far), in random
 * stacks of the test functions, lock wrappers among them (a wrapper's
 * operation is named by its caller: two names). */
static void test_sync_names(void **state)
{
    static const char *const fns[] = {"parse", "lex", "check", "fail", "work", "log",
                                       "helper", "wait", "peek", "tally", "mutex_lock",
                                       "mutex_slowpath"};
    enum { STEPS = 80000, NFN = sizeof fns / sizeof *fns };
    char path[512];
    int rc;
    size_t nsync = 0, cap = STEPS;
    ttdi_run_state r;
    ttdi_walk w;
    ttdi_lthread lt;
    ttdi_lframe f;
    ttdi_ltap tp;
    dt t;
    const char **want = calloc(2 * cap, sizeof *want);  /* func, within per record */
    uint64_t *when = calloc(cap, sizeof *when);
    (void)state;

    assert_non_null(want);
    assert_non_null(when);
    fresh_main(&t, path, sizeof path, "sync_names.trc");
    random_stacks(&t, fns, NFN, STEPS, 777, 1);

    open_path(&r, 0, path);
    r.lock_tap = 1;
    memset(&lt, 0, sizeof lt);
    assert_int_equal(ttdi_walk_open(&w, &r, 0), 0);
    while ((rc = ttdi_walk_next(&w)) > 0) {
        assert_true(ttdi_lock_call(&r.norm, &lt, &w, &f) >= 0);
        if (w.ev.kind != TTF_EV_SYNC_OP)
            continue;
        assert_true(nsync < cap);
        want[2 * nsync] = lt.n ? lt.f[lt.n - 1].name : "";
        want[2 * nsync + 1] = ttdi_lock_caller(&lt);
        when[nsync++] = w.ev.time_ns;
    }
    assert_int_equal(rc, 0);
    ttdi_walk_close(&w);
    assert_true(nsync > 3 * 4096);  /* past REC_GUESS (walker.c) */
    assert_int_equal(ttdi_walk_tap(&r, 0, t.now[0] + 20, &tp), 1);
    assert_int_equal(tp.nrec, nsync);
    size_t pairs = 0, two = 0;
    for (size_t k = 0; k < nsync; k++) {
        const ttdi_callnames *c = &tp.calls[ttdi_sr_call(&tp.rec[k])];
        assert_int_equal(ttdi_sr_ns(r.t, &tp.rec[k]), when[k]);
        assert_non_null(c->func);
        assert_non_null(c->within);
        assert_string_equal(c->func, want[2 * k]);
        assert_string_equal(c->within, want[2 * k + 1]);
        pairs = ttdi_sr_call(&tp.rec[k]) > pairs ? ttdi_sr_call(&tp.rec[k]) : pairs;
        two += strcmp(want[2 * k], want[2 * k + 1]) != 0;
    }
    assert_true(pairs > 30);    /* name pairs kept (their indexes from 1) */
    assert_true(two > 100);     /* operations in a wrapper */
    free(lt.f);
    close_run(&r);
    free(want);
    free(when);
}

static void test_lock_caller_cached(void **state)
{
    static const char *const fns[] = {"main", "lex", "work", "mutex_lock"};
    char path[512];
    int rc;
    size_t past_wrapper = 0;
    ttdi_run_state r;
    ttdi_walk w;
    ttdi_lthread lt;
    ttdi_lframe f;
    dt t;
    (void)state;

    fresh_main(&t, path, sizeof path, "lock_caller.trc");
    random_stacks(&t, fns, 4, 4000, 12345, 0);

    open_path(&r, 0, path);
    memset(&lt, 0, sizeof lt);
    assert_int_equal(ttdi_walk_open(&w, &r, 0), 0);
    while ((rc = ttdi_walk_next(&w)) > 0) {
        assert_true(ttdi_lock_call(&r.norm, &lt, &w, &f) >= 0);
        for (size_t i = 0; i < lt.n; i++)
            assert_int_equal(lt.f[i].skip, !lt.f[i].name || ttdi_lock_wrapper(lt.f[i].name));
        const char *want = caller_asked(&lt);
        if (lt.n)           /* a frame's name itself */
            assert_ptr_equal(ttdi_lock_caller(&lt), want);
        else                /* "": two literals (ASan does not merge them) */
            assert_string_equal(ttdi_lock_caller(&lt), want);
        if (lt.n && want != lt.f[lt.n - 1].name)
            past_wrapper++;
    }
    assert_int_equal(rc, 0);
    assert_true(past_wrapper > 100);    /* the wrapper was passed, many times */
    ttdi_walk_close(&w);
    free(lt.f);
    close_run(&r);
}

/* Thread 0 of path walked by run walks with the lock sets' tap on
 * (lock_tap): every key a walk hands over from the tap
 * (ttdi_walk_tapped_key: an ENTER's as the tap looked it up, an EXIT's
 * from the ENTER key of the call the tap returned from) must be the
 * event's own, as the normaliser gives it; only the walk that first reads
 * an event hands one over (a second walk, or one with lock_tap off, none).
 * Returns the keys handed over by the first walk; *calls = its ENTERs and
 * EXITs. */
static size_t tapped_keys(const char *path, int lock_tap, size_t *calls)
{
    ttdi_run_state r;
    ttdi_walk w;
    uint64_t key, want;
    size_t n = 0;
    int rc;

    open_path(&r, 0, path);
    r.lock_tap = lock_tap;
    *calls = 0;
    for (int pass = 0; pass < 2; pass++) {
        assert_int_equal(ttdi_walk_open(&w, &r, 0), 0);
        while ((rc = ttdi_walk_next(&w)) > 0) {
            *calls += !pass && (w.ev.kind == TTF_EV_ENTER || w.ev.kind == TTF_EV_EXIT);
            if (!ttdi_walk_tapped_key(&w, &key))
                continue;
            assert_int_equal(pass, 0);
            assert_int_equal(ttdi_norm_key(&r.norm, &w.ev, &want), 1);
            assert_int_equal(key, want);
            n++;
        }
        assert_int_equal(rc, 0);
        ttdi_walk_close(&w);
    }
    close_run(&r);
    return n;
}

/* The tree build's run walks take an event's key from the lock sets' tap
 * when it found it (pair_align.c src_run_next): on a random nest of 700
 * functions (more than the caches' slots) under locks, with EXITs several
 * frames down (skipped exits), EXITs of no open frame, UNWINDs and SLEEPs,
 * every key handed over is the event's own, and most calls hand one over. */
static void test_tapped_keys(void **state)
{
    enum { NF = 700 };
    char path[512];
    uint64_t stack[48], seed = 777, base;
    int depth = 0;
    size_t calls, n;
    dt t;
    (void)state;

    fresh_main(&t, path, sizeof path, "tapped.trc");
    base = dt_addr(&t, "main", 4);
    assert_int_equal(ttf_write_exit(t.w, 0, t.now[0] += 10, base + 16), 0);  /* no frame */
    for (int i = 0; i < 30000; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        unsigned r8 = (unsigned)(seed >> 56), pick = (unsigned)(seed >> 20) % NF;
        if (depth < 48 && (depth == 0 || r8 < 130)) {
            stack[depth++] = base + 16 * (uint64_t)pick;
            assert_int_equal(ttf_write_enter(t.w, 0, t.now[0] += 10, stack[depth - 1]), 0);
            if (r8 % 7 == 0)
                assert_int_equal(ttf_write_sync_op(t.w, 0, t.now[0] += 10, TTF_SOP_LOCK,
                                                   0x5000 + 8 * (r8 % 3), 0), 0);
        } else if (r8 < 140 && depth > 3) {  /* a longjmp over two frames */
            assert_int_equal(ttf_write_unwind(t.w, 0, t.now[0] += 10, TTF_UNWIND_LONGJMP, 2), 0);
            depth -= 2;
        } else if (r8 < 150 && depth > 4) {  /* an EXIT three frames down */
            depth -= 3;
            assert_int_equal(ttf_write_exit(t.w, 0, t.now[0] += 10, stack[--depth]), 0);
        } else if (r8 < 155) {               /* an EXIT of no open frame */
            assert_int_equal(ttf_write_exit(t.w, 0, t.now[0] += 10, base + 16 * NF + 16), 0);
        } else {
            if (r8 % 5 == 0)
                assert_int_equal(ttf_write_sync_op(t.w, 0, t.now[0] += 10, TTF_SOP_SLEEP,
                                                   0, 5), 0);
            if (r8 % 3 == 0)
                assert_int_equal(ttf_write_sync_op(t.w, 0, t.now[0] += 10, TTF_SOP_UNLOCK,
                                                   0x5000 + 8 * (r8 % 3), 0), 0);
            assert_int_equal(ttf_write_exit(t.w, 0, t.now[0] += 10, stack[--depth]), 0);
        }
    }
    while (depth > 0)
        assert_int_equal(ttf_write_exit(t.w, 0, t.now[0] += 10, stack[--depth]), 0);
    assert_int_equal(dt_close(&t, 0), 0);

    n = tapped_keys(path, 1, &calls);
    assert_true(calls > 25000);
    assert_true(n > calls * 9 / 10);
    assert_int_equal(tapped_keys(path, 0, &calls), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_marks),
        cmocka_unit_test(test_lock_caller_cached),
        cmocka_unit_test(test_marks_thinned),
        cmocka_unit_test(test_marks_pinned),
        cmocka_unit_test(test_values_from),
        cmocka_unit_test(test_values_aside),
        cmocka_unit_test(test_values_aside_untimed),
        cmocka_unit_test(test_marks_pin_inserted),
        cmocka_unit_test(test_marks_reach),
        cmocka_unit_test(test_unwind_rule),
        cmocka_unit_test(test_stack_walk),
        cmocka_unit_test(test_sync_records),
        cmocka_unit_test(test_sync_records_far),
        cmocka_unit_test(test_sync_names),
        cmocka_unit_test(test_walk_calls),
        cmocka_unit_test(test_walk_calls_many),
        cmocka_unit_test(test_read_out),
        cmocka_unit_test(test_keys_hot_many),
        cmocka_unit_test(test_tapped_keys),
    };
    return cmocka_run_group_tests(tests, tu_tmpdir_setup, tu_tmpdir_teardown);
}
