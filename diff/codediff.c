/*
 * codediff.c - STUB of the code comparison between two builds (branch
 * s5-codediff replaces this file): nothing is known, every function is
 * "unknown".
 */
#include <stdlib.h>

#include "codediff.h"

struct ttdi_codediff {
    int unused;             /* the stub keeps nothing */
};

int ttdi_codediff_open(struct ttdi_codediff **out, const ttf_trace *good,
                       const ttf_trace *bad)
{
    (void)good;
    (void)bad;
    *out = calloc(1, sizeof **out);
    return *out ? 0 : TT_ENOMEM;
}

int ttdi_codediff_changed(const struct ttdi_codediff *cd, const char *function)
{
    (void)cd;
    (void)function;
    return -1;
}

void ttdi_codediff_free(struct ttdi_codediff *cd)
{
    free(cd);
}
