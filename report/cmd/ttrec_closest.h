/*
 * ttrec_closest.h - which passing run is closest to the failing one
 * (report/cmd/ttrec_closest.c). Part of the ttrec command, not of
 * libttreport.
 */
#ifndef TTREC_CLOSEST_H
#define TTREC_CLOSEST_H

#include <stddef.h>
#include <stdint.h>

/* One trace's calls, thread by thread, as keys that do not depend on
 * where the modules were loaded. */
typedef struct ttri_calls ttri_calls;

/* How far a passing run follows the failing one from the start. */
typedef struct ttri_prefix {
    uint64_t common;        /* calls in common prefixes, summed over threads */
    uint64_t calls;         /* calls of the failing run's paired threads
                               (the most common could be) */
    size_t threads;         /* threads paired (by index, creation order) */
    size_t procs;           /* trees: traced processes paired */
} ttri_prefix;

/* Read the calls of the trace at path (each thread's first
 * TTRI_CALLS_MAX): 0 and *out, or a TT_E* code with a message in err. */
#define TTRI_CALLS_MAX (1u << 20)
int ttri_calls_load(const char *path, ttri_calls **out, char *err, size_t errlen);
void ttri_calls_free(ttri_calls *c);

/* Compare the trace at path with the failing run's calls: thread i with
 * thread i, the length of the common prefix of their call sequences (a
 * call is its function, module-relative, and its depth), summed into
 * *out. 0, or a TT_E* code with a message in err. */
int ttri_calls_prefix(const ttri_calls *fail, const char *path, ttri_prefix *out,
                      char *err, size_t errlen);

/* Trees (ttrec --until-fail -o DIR/): score each of the n passing trees
 * in pass_dirs against the failing tree in fail_dir into sc[n]: the
 * failing tree's traced processes pair with the passing tree's by program
 * and argv (the k-th alike with the k-th), the rest by program alone (the
 * first left, in table order); the score sums ttri_calls_prefix over the
 * pairs. A passing tree whose table cannot be read scores 0. 0, or a TT_E*
 * code with a message in err (the failing tree's table unreadable, no
 * memory); a failing process's trace that cannot be read is left out, and
 * err says so while the result is 0. */
int ttri_tree_prefix(const char *fail_dir, const char *const *pass_dirs, size_t n,
                     ttri_prefix *sc, char *err, size_t errlen);

/* Order n scores best first into order[] (indexes into scores): the
 * longest common prefix first, ties to the lower index (the earlier run). */
void ttri_rank(const ttri_prefix *scores, size_t n, size_t *order);

#endif
