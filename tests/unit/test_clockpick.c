/*
 * test_clockpick.c - cmocka tests of the sparse and lazy clocks' choice of
 * which EXITs read the clock (capture/cap_int.h cap_exit_reads, the rule
 * values mode's assembly EXIT in cap_tramp.S copies): against a reference
 * model written as the rule reads (big call, untimed run, warm-up, then a
 * sample at random gaps, each tested at every EXIT), over call sequences
 * of several shapes driven through the hooks' bookkeeping (ENTER counts,
 * the lazy flag, clock reads, sync records), every decision and the whole
 * clock state (ev, since, skip, warm, rng, ux) must be the same. And the
 * ENTERs' choice through cap_hot_head, the hooks' record head: the lazy
 * clock (format 1.7) leaves an ENTER untimed right after an untimed EXIT,
 * the chain clock (1.9, the default) right after an untimed ENTER too,
 * against a model of the rule over the same shapes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cap_int.h"

/* The rule as it reads (session 21's code): every test at every EXIT. */
static unsigned ref_exit_reads(struct tstate *t)
{
    uint16_t n = (uint16_t)(t->ev++ - t->evat[(uint32_t)(t->depth - 1) % CAP_EVAT]);
    if (n >= CAP_BIG_CALL || t->since >= CAP_UNTIMED_RUN || t->warm < CAP_WARM) {
        if (t->warm < CAP_WARM)
            t->warm++;
        return TTF_T_TIMED;
    }
    if (--t->skip == 0) {
        t->rng = t->rng * 1664525u + 1013904223u;
        t->skip = (uint8_t)(1 + (t->rng >> (32 - CAP_SAMPLE_BITS)));
        return TTF_T_SAMPLE;
    }
    t->since++;
    t->ux = t->timed & 1;
    return 0;
}

/* A clock read's bookkeeping (cap_put_t_at without the record). */
static void read_clock(struct tstate *t)
{
    t->since = 0;
    t->ux = 0;
}

/* One ENTER as cap_hot_head keeps the clock state: counted, then read
 * unless the lazy flag says the ENTER goes untimed. */
static void enter(struct tstate *t)
{
    cap_enter_count(t);
    if (t->ux)
        t->ux = 0;
    else
        read_clock(t);
    t->depth++;
}

/* One EXIT: the choice (0, TTF_T_TIMED, TTF_T_SAMPLE), the read it asks for. */
static unsigned leave(struct tstate *t, int ref)
{
    unsigned pre = ref ? ref_exit_reads(t) : cap_exit_reads(t);
    if (pre)
        read_clock(t);
    t->depth--;
    return pre;
}

static void same_state(const struct tstate *a, const struct tstate *b)
{
    assert_int_equal(a->ev, b->ev);
    assert_int_equal(a->since, b->since);
    assert_int_equal(a->skip, b->skip);
    assert_int_equal(a->warm, b->warm);
    assert_int_equal(a->rng, b->rng);
    assert_int_equal(a->ux, b->ux);
    assert_int_equal(a->depth, b->depth);
}

/* A shape's next step for both states at once: 0 ENTER, 1 EXIT, 2 a sync
 * record (counted as a big call's worth of events, its time read). */
static void step(struct tstate *a, struct tstate *b, int what, unsigned counts[3])
{
    if (what == 0) {
        enter(a);
        enter(b);
    } else if (what == 1) {
        unsigned pa = leave(a, 1), pb = leave(b, 0);
        assert_int_equal(pa, pb);
        counts[pa == 0 ? 0 : pa == TTF_T_TIMED ? 1 : 2]++;
    } else {
        cap_sync_counts(a);
        cap_sync_counts(b);
        read_clock(a);
        read_clock(b);
    }
    same_state(a, b);
}

/* Both clocks (sparse 2, lazy 3), each shape long past the warm-up. */
static void run_shape(int timed, int shape)
{
    struct tstate *a = calloc(1, sizeof *a), *b = calloc(1, sizeof *b);
    assert_non_null(a);
    assert_non_null(b);
    a->timed = b->timed = (uint8_t)timed;
    unsigned counts[3] = {0, 0, 0};
    uint64_t r = 0x9e3779b97f4a7c15ull * (uint64_t)(shape + 1);
    for (int i = 0; i < 60000; i++) {
        switch (shape) {
        case 0:                 /* a loop of leaf calls */
            step(a, b, 0, counts);
            step(a, b, 1, counts);
            break;
        case 1:                 /* a chain three deep */
            for (int k = 0; k < 3; k++)
                step(a, b, 0, counts);
            for (int k = 0; k < 3; k++)
                step(a, b, 1, counts);
            break;
        case 2:                 /* recursion past CAP_EVAT frames, now and then */
            for (int k = 0; k < (i % 97 == 0 ? 70 : 2); k++)
                step(a, b, 0, counts);
            while (a->depth > 0)
                step(a, b, 1, counts);
            break;
        default:                /* random calls, returns and sync records */
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            int what = (int)(r >> 62);
            if (what == 3 || (what == 1 && a->depth == 0))
                what = 0;
            if (what == 2 && (r >> 40 & 31) != 0)
                what = 1;
            step(a, b, what, counts);
            break;
        }
    }
    /* every kind of choice was made, the warm-up was left */
    assert_true(counts[0] > 0 && counts[1] >= CAP_WARM && counts[2] > 0);
    assert_int_equal(a->warm, CAP_WARM);
    free(a);
    free(b);
}

static void test_sparse_shapes(void **state)
{
    (void)state;
    for (int shape = 0; shape < 4; shape++)
        run_shape(CAP_CLOCK_SPARSE, shape);
}

static void test_lazy_shapes(void **state)
{
    (void)state;
    for (int shape = 0; shape < 4; shape++)
        run_shape(CAP_CLOCK_LAZY, shape);
}

/* An ENTER through cap_hot_head (the record written at buf, not kept):
 * 1 if it read the clock (a read zeroes since; since is put back when it
 * did not, as an ENTER leaves it alone). */
static int hot_enter(struct tstate *t, uint8_t *buf, uintptr_t fn)
{
    uint8_t tag, since = t->since;
    t->since = 200;
    cap_hot_head(t, buf, fn, TTF_T_ENTER_HIT, TTF_T_ENTER_MISS, &tag);
    int read = t->since == 0;
    if (!read)
        t->since = since;
    t->depth++;
    return read;
}

/* An EXIT through cap_hot_head: 1 if it carries a time (TIMED, SAMPLE). */
static int hot_exit(struct tstate *t, uint8_t *buf, uintptr_t fn)
{
    uint8_t tag;
    cap_hot_head(t, buf, fn, TTF_T_EXIT_HIT, TTF_T_EXIT_MISS, &tag);
    t->depth--;
    return tag == TTF_T_TIMED || tag == TTF_T_SAMPLE;
}

/* The shapes of run_shape through the record heads of clock timed
 * (CAP_CLOCK_LAZY or CAP_CLOCK_CHAIN): every ENTER's read as the model
 * says (untimed right after an untimed EXIT, or, chain, an untimed
 * ENTER; a sync record's read ends it). Returns the clock reads per call
 * of the shape past the warm-up (its ENTERs and EXITs that read). */
static double enter_shape(int timed, int shape)
{
    struct tstate *t = calloc(1, sizeof *t);
    uint8_t buf[64];
    assert_non_null(t);
    t->timed = (uint8_t)timed;
    int mux = 0, chain = timed == CAP_CLOCK_CHAIN;
    uint64_t r = 0x2545f4914f6cdd1dull * (uint64_t)(shape + 1), calls = 0, reads = 0;
    for (int i = 0; i < 40000; i++) {
        int n = shape == 0 ? 1 : shape == 1 ? 3 : shape == 2 ? (i % 97 == 0 ? 70 : 2) : 0;
        if (shape == 3) {       /* random calls, returns and sync records */
            r = r * 6364136223846793005ull + 1442695040888963407ull;
            n = (int)(r >> 62) + (t->depth == 0);
            if ((r >> 40 & 31) == 0) {
                cap_sync_counts(t);
                read_clock(t);
                mux = 0;
            }
        }
        for (int k = 0; k < n; k++) {
            int read = hot_enter(t, buf, 0x401000 + 16 * (uintptr_t)(t->depth % 5));
            assert_int_equal(read, !mux);
            mux = chain ? mux : 0;
            calls += t->warm >= CAP_WARM;
            reads += (uint64_t)read * (t->warm >= CAP_WARM);
        }
        int m = shape == 3 ? (int)(r >> 58 & 3) : t->depth;
        for (int k = 0; k < m && t->depth > 0; k++) {
            int timed_exit = hot_exit(t, buf, 0x401000 + 16 * (uintptr_t)((t->depth - 1) % 5));
            mux = !timed_exit;
            reads += (uint64_t)timed_exit * (t->warm >= CAP_WARM);
        }
    }
    assert_int_equal(t->warm, CAP_WARM);
    free(t);
    return calls ? (double)reads / (double)calls : 0;
}

static void test_chain_enters(void **state)
{
    (void)state;
    double lazy[4], chain[4];
    for (int shape = 0; shape < 4; shape++) {
        lazy[shape] = enter_shape(CAP_CLOCK_LAZY, shape);
        chain[shape] = enter_shape(CAP_CLOCK_CHAIN, shape);
    }
    /* the leaf loop reads as seldom either way; the chain three deep
       about as seldom with the chain clock, most of its ENTERs without */
    assert_true(chain[0] < 0.35 && lazy[0] < 0.35);
    assert_true(chain[1] < 0.35 && lazy[1] > 0.6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sparse_shapes),
        cmocka_unit_test(test_lazy_shapes),
        cmocka_unit_test(test_chain_enters),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
