/*
 * fuzz_diff.c - libFuzzer target for ttdiff's engine and renderers: the
 * input is split in two traces (at its first 4-byte "\0TT|" separator, or
 * at a position named by its first two bytes), both are opened and diffed
 * once, good then bad, and one report, chosen by the input's last byte, is
 * written to /dev/null: text, JSON or HTML of the diff, or the profile
 * diff as text or JSON (the byte's higher bits pick the options). One
 * order and one renderer per input keep it fast enough to explore (it ran
 * both orders and five renderers: 1 to 11 inputs per second). Built by
 * `make fuzz` (build/fuzz_diff); the reliability suite runs it for a set
 * time.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "ttdiff.h"
#include "ttreport.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;

/* The diff of good and bad in one report: sel % 5 picks it, sel / 5 its
 * options. */
static void report(const ttf_trace *good, const ttf_trace *bad, unsigned sel)
{
    unsigned variant = sel / 5;
    ttf_error err;
    if (sel % 5 >= 3) {
        ttd_profile *p = NULL;
        if (ttd_profile_diff(good, bad, NULL, 0, &p, &err) == 0) {
            if (sel % 5 == 3)
                (void)ttr_profile_text(sink, p, NULL);
            else
                (void)ttr_profile_json(sink, p, NULL);
        }
        ttd_profile_free(p);
        return;
    }
    ttd_options o;
    ttd_options_init(&o);
    o.collapse_loops = variant & 1;
    o.messages = (int)(variant % 3);
    o.max_hunks = 0;
    ttd_diff *d = NULL;
    if (ttd_diff_traces(good, bad, &o, &d, &err) == 0) {
        ttr_options r;
        ttr_options_init(&r);
        r.all = variant & 2 ? 1 : 0;
        r.color = variant & 4 ? 1 : 0;
        if (sel % 5 == 0)
            (void)ttr_text(sink, d, &r);
        else if (sel % 5 == 1)
            (void)ttr_json(sink, d, &r);
        else
            (void)ttr_html(sink, d, &r);
    }
    ttd_free(d);
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
        report(a, b, size > 2 ? data[size - 1] : 0);
    }
    ttf_close(b);
    ttf_close(a);
    return 0;
}
