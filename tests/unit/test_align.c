/*
 * test_align.c - property tests of the Myers aligner (diff/align.c).
 *
 * Thousands of random small pairs against a brute-force LCS, edge cases,
 * and validity plus completion on large, capped and adversarial inputs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "align.h"

static uint64_t rng_state = 0x243F6A8885A308D3ull;

static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static size_t rnd_below(size_t n)
{
    return n ? (size_t)(rnd() % n) : 0;
}

/* Length of a longest common subsequence, by the textbook DP. */
static size_t lcs(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
    size_t *row = calloc((na + 1) * (nb + 1), sizeof *row);
    size_t i, j, r;

    assert_non_null(row);
    for (i = 1; i <= na; i++) {
        for (j = 1; j <= nb; j++) {
            size_t up = row[(i - 1) * (nb + 1) + j];
            size_t left = row[i * (nb + 1) + j - 1];
            size_t diag = row[(i - 1) * (nb + 1) + j - 1] + (a[i - 1] == b[j - 1]);

            row[i * (nb + 1) + j] = diag > up ? (diag > left ? diag : left)
                                              : (up > left ? up : left);
        }
    }
    r = row[na * (nb + 1) + nb];
    free(row);
    return r;
}

/* Check that h[0..nh) is a valid edit script from a to b: ordered,
 * non-empty, separated by at least one match, matched runs equal, and
 * replaying it on a gives b. Returns the number of edited elements. */
static size_t check_script(const uint64_t *a, size_t na, const uint64_t *b,
                           size_t nb, const ttdi_hunk *h, size_t nh)
{
    uint64_t *out = malloc((nb + 1) * sizeof *out);
    size_t k, ia = 0, ib = 0, no = 0, edits = 0;

    assert_non_null(out);
    assert_true(nh == 0 || h != NULL);
    for (k = 0; k <= nh; k++) {
        size_t ea = k < nh ? h[k].a0 : na, eb = k < nh ? h[k].b0 : nb;

        /* the matched run before hunk k (or the tail) */
        assert_true(ea >= ia && eb >= ib);
        assert_int_equal(ea - ia, eb - ib);
        assert_true(k == 0 || k == nh || ea > ia);
        for (; ia < ea; ia++, ib++) {
            assert_true(a[ia] == b[ib]);
            out[no++] = a[ia];
        }
        if (k == nh)
            break;
        assert_true(h[k].a1 >= h[k].a0 && h[k].b1 >= h[k].b0);
        assert_true(h[k].a1 > h[k].a0 || h[k].b1 > h[k].b0);
        assert_true(h[k].a1 <= na && h[k].b1 <= nb);
        for (; ib < h[k].b1; ib++)
            out[no++] = b[ib];
        edits += (h[k].a1 - h[k].a0) + (h[k].b1 - h[k].b0);
        ia = h[k].a1;
    }
    assert_int_equal(ia, na);
    assert_int_equal(no, nb);
    assert_true(nb == 0 || memcmp(out, b, nb * sizeof *b) == 0);
    free(out);
    return edits;
}

/* Align, check validity, and (when exact) minimality against the DP. */
static void check_pair(const uint64_t *a, size_t na, const uint64_t *b,
                       size_t nb, int minimal, int want_exact)
{
    ttdi_hunk *h = NULL;
    size_t nh = 0, edits;

    assert_int_equal(ttdi_align(a, na, b, nb, minimal, &h, &nh), 0);
    assert_true((nh == 0) == (h == NULL));
    edits = check_script(a, na, b, nb, h, nh);
    if (want_exact)
        assert_int_equal(edits, na + nb - 2 * lcs(a, na, b, nb));
    free(h);
}

static void fill(uint64_t *x, size_t n, size_t alpha, uint64_t base)
{
    size_t i;

    for (i = 0; i < n; i++)
        x[i] = base + rnd_below(alpha);
}

/* Random pairs, alphabets of 2-6 symbols, lengths 0..40; b's alphabet is
 * sometimes shifted so some keys occur on one side only (discard pass). */
static void test_random_small(void **state)
{
    uint64_t a[40], b[40];
    int iter;

    (void)state;
    for (iter = 0; iter < 6000; iter++) {
        size_t alpha = 2 + rnd_below(5), na = rnd_below(41), nb = rnd_below(41);
        uint64_t shift = iter % 3 == 0 ? rnd_below(4) : 0;

        fill(a, na, alpha, 1000);
        fill(b, nb, alpha, 1000 + shift);
        if (iter % 5 == 0 && na > 0) {
            /* b as a lightly edited copy of a */
            nb = na;
            memcpy(b, a, na * sizeof *a);
            b[rnd_below(nb)] = 1000 + rnd_below(alpha + 2);
        }
        check_pair(a, na, b, nb, 1, 1);
        /* far below the cost cap: the capped path must be exact too */
        check_pair(a, na, b, nb, 0, 1);
    }
}

static void test_edges(void **state)
{
    uint64_t a[40], b[40];
    ttdi_hunk *h = NULL;
    size_t i, nh = 7;

    (void)state;
    for (i = 0; i < 40; i++) {
        a[i] = i % 3;
        b[i] = 100 + i;
    }
    assert_int_equal(ttdi_align(a, 0, b, 0, 1, &h, &nh), 0);
    assert_null(h);
    assert_int_equal(nh, 0);
    check_pair(a, 0, b, 0, 0, 1);
    check_pair(a, 40, b, 0, 1, 1);
    check_pair(a, 0, b, 40, 1, 1);
    check_pair(a, 40, a, 40, 1, 1);
    check_pair(a, 40, a, 40, 0, 1);
    check_pair(a, 40, b, 40, 1, 1);
    check_pair(a, 40, b, 40, 0, 1);
    check_pair(a, 1, b, 1, 1, 1);

    /* identical: no hunk; disjoint: one hunk covering both */
    assert_int_equal(ttdi_align(a, 40, a, 40, 0, &h, &nh), 0);
    assert_int_equal(nh, 0);
    assert_int_equal(ttdi_align(a, 40, b, 25, 0, &h, &nh), 0);
    assert_int_equal(nh, 1);
    assert_int_equal(h[0].a0, 0);
    assert_int_equal(h[0].a1, 40);
    assert_int_equal(h[0].b0, 0);
    assert_int_equal(h[0].b1, 25);
    free(h);

    /* a single insertion in the middle is found as exactly that */
    memcpy(b, a, 20 * sizeof *a);
    b[20] = 999;
    memcpy(b + 21, a + 20, 19 * sizeof *a);
    assert_int_equal(ttdi_align(a, 39, b, 40, 0, &h, &nh), 0);
    assert_int_equal(nh, 1);
    assert_int_equal(h[0].a1 - h[0].a0, 0);
    assert_int_equal(h[0].b1 - h[0].b0, 1);
    assert_true(b[h[0].b0] == 999);
    free(h);
}

/* A call-tree-like sequence: nested enter/exit keys of nfunc functions. */
static void call_tree(uint64_t *x, size_t n, size_t nfunc)
{
    size_t stack[64], depth = 0, i;

    for (i = 0; i < n; i++) {
        int enter = depth == 0 || (depth < 64 && rnd_below(100) < 52 &&
                                   n - i > depth + 1);

        if (n - i <= depth)
            enter = 0;
        if (enter) {
            stack[depth] = rnd_below(nfunc);
            x[i] = 2 * stack[depth++];
        } else {
            x[i] = 2 * stack[--depth] + 1;
        }
    }
}

/* Large inputs: validity with the cap, exactness with minimal on a size the
 * DP can still check, and determinism. */
static void test_random_large(void **state)
{
    size_t n = 20000, i, nh1 = 0, nh2 = 0;
    uint64_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    ttdi_hunk *h1 = NULL, *h2 = NULL;
    int iter;

    (void)state;
    assert_true(a && b);
    for (iter = 0; iter < 6; iter++) {
        size_t alpha = iter < 3 ? 4 : 300;

        fill(a, n, alpha, 0);
        fill(b, n - 1000 * (size_t)iter, alpha, iter == 5 ? 150 : 0);
        check_pair(a, n, b, n - 1000 * (size_t)iter, 0, 0);
    }
    /* sparse edits in a call tree */
    call_tree(a, n, 300);
    memcpy(b, a, n * sizeof *a);
    for (i = 0; i < 200; i++)
        b[rnd_below(n)] = 7777 + rnd_below(3);
    check_pair(a, n, b, n, 0, 0);
    assert_int_equal(ttdi_align(a, n, b, n, 0, &h1, &nh1), 0);
    assert_int_equal(ttdi_align(a, n, b, n, 0, &h2, &nh2), 0);
    assert_int_equal(nh1, nh2);
    assert_memory_equal(h1, h2, nh1 * sizeof *h1);
    free(h1);
    free(h2);

    /* exact on a size the DP can check: 1500 x 1400, alphabet 3 */
    fill(a, 1500, 3, 0);
    fill(b, 1400, 3, 0);
    check_pair(a, 1500, b, 1400, 1, 1);
    /* over the cap (D > 256) on the same: valid, and no shorter than LCS */
    check_pair(a, 1500, b, 1400, 0, 0);
    free(a);
    free(b);
}

/* 200k-element call tree whose second half is shuffled in the bad run, and
 * one that ends early (a crash): both must finish (no timing assertion). */
static void test_shuffled(void **state)
{
    size_t n = 200000, i;
    uint64_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);

    (void)state;
    assert_true(a && b);
    call_tree(a, n, 300);
    memcpy(b, a, n * sizeof *a);
    for (i = n - 1; i > n / 2; i--) {
        size_t j = n / 2 + rnd_below(i - n / 2 + 1);
        uint64_t t = b[i];

        b[i] = b[j];
        b[j] = t;
    }
    check_pair(a, n, b, n, 0, 0);
    /* crash: 10% of the run, then a key never seen before */
    b[n / 10] = 0xdeadull << 32;
    check_pair(a, n, b, n / 10 + 1, 0, 0);
    check_pair(a, n, b, n / 10 + 1, 1, 0);
    free(a);
    free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_random_small),
        cmocka_unit_test(test_random_large),
        cmocka_unit_test(test_shuffled),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
