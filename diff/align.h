/*
 * align.h - internal interface of libttdiff's sequence aligner (align.c).
 *
 * Aligns two sequences of 64-bit keys with Myers' O(ND) algorithm and
 * returns the regions where they differ. Not public: ttdiff.h is.
 */
#ifndef TTD_ALIGN_H
#define TTD_ALIGN_H

#include <stddef.h>
#include <stdint.h>

#include "ttfmt.h"

/* One differing region; a half-open range on each side, either may be empty. */
typedef struct ttdi_hunk {
    size_t a0, a1;  /* a[a0..a1) only in the good run (deleted) */
    size_t b0, b1;  /* b[b0..b1) only in the bad run (inserted) */
} ttdi_hunk;

/* Align two sequences of 64-bit keys. On success *out (malloc'd, caller
 * frees; NULL when *nout == 0) holds the differing regions in ascending
 * order; between two hunks, and before the first / after the last, the
 * sequences match element for element. minimal != 0 gives an exact
 * shortest edit script (no cost cap). Returns 0, or TT_ENOMEM (also when
 * the part left after trimming the common prefix and suffix has 2^29 or
 * more elements on a side). */
int ttdi_align(const uint64_t *a, size_t na, const uint64_t *b, size_t nb,
              int minimal, ttdi_hunk **out, size_t *nout);

#endif
