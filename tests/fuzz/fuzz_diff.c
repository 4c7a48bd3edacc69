/*
 * fuzz_diff.c - libFuzzer target for ttdiff's engine and renderers: the
 * input is split in two traces (at its first 4-byte "\0TT|" separator, or
 * at a position named by its first two bytes), both are opened, diffed in
 * both orders, and every report (text, JSON, HTML, profile) is written to
 * /dev/null. Built by `make fuzz` (build/fuzz_diff); the reliability suite
 * runs it for a set time.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ttdiff.h"
#include "ttreport.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;

static void report(const ttf_trace *good, const ttf_trace *bad, int variant)
{
    ttd_options o;
    ttd_options_init(&o);
    o.collapse_loops = variant & 1;
    o.messages = variant % 3;
    o.max_hunks = 0;
    ttd_diff *d = NULL;
    ttf_error err;
    if (ttd_diff_traces(good, bad, &o, &d, &err) == 0) {
        ttr_options r;
        ttr_options_init(&r);
        r.all = variant & 2 ? 1 : 0;
        r.color = variant & 4 ? 1 : 0;
        (void)ttr_text(sink, d, &r);
        (void)ttr_json(sink, d, &r);
        (void)ttr_html(sink, d, &r);
    }
    ttd_free(d);
    ttd_profile *p = NULL;
    if (ttd_profile_diff(good, bad, NULL, 0, &p, &err) == 0) {
        (void)ttr_profile_text(sink, p, NULL);
        (void)ttr_profile_json(sink, p, NULL);
    }
    ttd_profile_free(p);
}

/* Where the second trace starts: after the first "\0TT|" if any, else at
 * the offset the first two bytes give (modulo the size). */
static size_t split_at(const uint8_t *data, size_t size, size_t *skip)
{
    static const uint8_t sep[4] = { 0, 'T', 'T', '|' };
    for (size_t i = 0; i + 4 <= size; i++) {
        if (memcmp(data + i, sep, 4) == 0) {
            *skip = 4;
            return i;
        }
    }
    *skip = 0;
    return size < 2 ? 0 : (size_t)(data[0] | data[1] << 8) % size;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t skip, at = split_at(data, size, &skip);
    ttf_trace *a = NULL, *b = NULL;
    ttf_error err;

    if (!sink)
        sink = fopen("/dev/null", "w");
    if (!sink)
        return 0;
    if (ttf_open_mem(data, at, "a.trc", &a, &err) != 0)
        return 0;
    if (ttf_open_mem(data + at + skip, size - at - skip, "b.trc", &b, &err) == 0) {
        int variant = size > 2 ? data[size - 1] : 0;
        report(a, b, variant);
        report(b, a, variant >> 3);
    }
    ttf_close(b);
    ttf_close(a);
    return 0;
}
