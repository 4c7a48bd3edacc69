/*
 * test_clockpick.c - cmocka tests of the sparse and lazy clocks' choice of
 * which EXITs read the clock (capture/cap_int.h cap_exit_reads, the rule
 * values mode's assembly EXIT in cap_tramp.S copies): against a reference
 * model written as the rule reads (big call, untimed run, warm-up, then a
 * sample at random gaps, each tested at every EXIT), over call sequences
 * of several shapes driven through the hooks' bookkeeping (ENTER counts,
 * the lazy flag, clock reads, sync records), every decision and the whole
 * clock state (ev, since, skip, warm, rng, ux) must be the same.
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sparse_shapes),
        cmocka_unit_test(test_lazy_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
