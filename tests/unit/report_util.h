/*
 * report_util.h - a renderer's report of a diff as a string, for the
 * report tests (include after cmocka.h).
 */
#ifndef REPORT_UTIL_H
#define REPORT_UTIL_H

#include <stdio.h>

#include "ttreport.h"

typedef int (*tu_renderer)(FILE *f, ttd_diff *d, const ttr_options *opts);

/* fn's report (ttr_text, ttr_html, ttr_json) of d with o, malloc'ed;
 * *len its length when len is not NULL. The renderer must succeed. */
static inline char *tu_report(ttd_diff *d, tu_renderer fn, const ttr_options *o,
                              size_t *len)
{
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);

    assert_non_null(f);
    assert_int_equal(fn(f, d, o), 0);
    assert_int_equal(fclose(f), 0);
    if (len)
        *len = n;
    return buf;
}

#endif
