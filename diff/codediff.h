/*
 * codediff.h - functions whose machine code differs between the two runs'
 * builds (issue 20, item 5). STUB until branch s5-codediff lands: every
 * answer is "unknown". Interface as agreed with that branch.
 */
#ifndef TTDI_CODEDIFF_H
#define TTDI_CODEDIFF_H

#include "ttfmt.h"

struct ttdi_codediff;

/* Compare the builds of good and bad: 0 or a TT_E* code; empty when the
 * build-ids match. */
int ttdi_codediff_open(struct ttdi_codediff **out, const ttf_trace *good,
                       const ttf_trace *bad);
/* 1 changed or added, 0 the same, -1 unknown. */
int ttdi_codediff_changed(const struct ttdi_codediff *cd, const char *function);
void ttdi_codediff_free(struct ttdi_codediff *cd);

#endif
