/*
 * trace.c - what every stage of the reader shares about the open trace:
 * its notices (capped, the rest counted), its growable arrays and their
 * sorting, and its clock (ticks to nanoseconds since time 0).
 * Stage 1 trace of format/STAGES (its header: read_int.h).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read_int.h"

/* The array a with room for n + 1 elements (a itself if it has room), or
 * NULL if that needs memory that is not there (a is then unchanged). */
void *ttfi_rd_grow(void *a, size_t *cap, size_t n, size_t elem)
{
    if (n < *cap)
        return a;
    size_t c = *cap ? *cap * 2 : 16;
    void *p = realloc(a, c * elem);
    if (p)
        *cap = c;
    return p;
}

void ttfi_note(ttf_trace *t, const char *fmt, ...)
{
    char buf[400];
    va_list ap;
    if (t->n_notes >= NOTICES_MAX) {
        t->notes_dropped++;
        return;
    }
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char *s = ttfi_arena_strdup(&t->arena, (const uint8_t *)buf,
                                n < 0 ? 0 : strnlen(buf, sizeof buf));
    char **slot = PUSH(t, notes);
    if (!s || !slot) {
        t->oom = 1;
        if (slot)
            t->n_notes--;
        return;
    }
    *slot = s;
}

void ttfi_note_problem(ttf_trace *t, const struct ttfi_problem *pb,
                         const char *tail)
{
    ttfi_note(t, "%s: offset %llu: %s%s", t->name, (unsigned long long)pb->offset,
         pb->what, tail);
}

void ttfi_set_hz(ttf_trace *t, uint64_t hz)
{
    t->hz = hz;
    t->ident = hz == NS;
    t->whole = NS / hz;
    /* 1e9/hz = whole + frac/2^64, frac rounded up so whole ns stay whole */
    unsigned __int128 rem = (unsigned __int128)(NS % hz) << 64;
    t->frac = (uint64_t)(rem / hz) + (rem % hz != 0);
}

/* tsc_hz from the header or PROCESS record, else from the two sync points
 * furthest apart, else 1 tick = 1 ns. */
void ttfi_choose_hz(ttf_trace *t)
{
    if (t->hdr.tsc_hz || t->proc_hz) {
        ttfi_set_hz(t, t->hdr.tsc_hz ? t->hdr.tsc_hz : t->proc_hz);
        return;
    }
    struct syncpt lo = {UINT64_MAX, 0}, hi = {0, 0};
    for (size_t i = 0; i < t->n_syncs; i++) {
        struct syncpt s = t->syncs[i];
        if (s.tsc < lo.tsc)
            lo = s;
        if (s.tsc >= hi.tsc)
            hi = s;
    }
    if (t->n_syncs >= 2 && hi.tsc > lo.tsc && hi.ns > lo.ns) {
        unsigned __int128 hz = (unsigned __int128)(hi.tsc - lo.tsc) * NS /
                               (hi.ns - lo.ns);
        if (hz >= 1000 && hz <= (unsigned __int128)1 << 42) {
            ttfi_set_hz(t, (uint64_t)hz);
            return;
        }
    }
    ttfi_set_hz(t, NS);
}

/* qsort that accepts an empty (NULL) array. */
void ttfi_sort_n(void *a, size_t n, size_t size,
                   int (*cmp)(const void *, const void *))
{
    if (n > 1)
        qsort(a, n, size, cmp);
}
