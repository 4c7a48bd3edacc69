/*
 * report_util.h - a renderer's report of a diff as a string, for the
 * report tests (report_util.c).
 */
#ifndef REPORT_UTIL_H
#define REPORT_UTIL_H

#include <stdio.h>

#include "ttreport.h"

typedef int (*tu_renderer)(FILE *f, ttd_diff *d, const ttr_options *opts);

/* fn's report (ttr_text, ttr_html, ttr_json) of d with o, malloc'ed;
 * *len its length when len is not NULL. The renderer must succeed (a
 * cmocka failure otherwise). */
char *tu_report(ttd_diff *d, tu_renderer fn, const ttr_options *o, size_t *len);

#endif
