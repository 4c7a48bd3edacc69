/*
 * report_util.c - a renderer's report of a diff as a string (report_util.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "report_util.h"

char *tu_report(ttd_diff *d, tu_renderer fn, const ttr_options *o, size_t *len)
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
