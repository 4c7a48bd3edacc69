/*
 * regex.c - the PCRE2 filters shared by ttdump and ttdiff (--thread,
 * --function). A thin wrapper: compile once (JIT when the library has it),
 * match many times with one cached match block. Not thread-safe: one
 * ttd_regex must not be matched from two threads at once.
 * Stage 0 prepare of diff/STAGES (its header: prepare.h).
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prepare.h"

#define BAD_REGEX "bad regex '%s': %s at offset %zu"  /* pattern, why, offset */

struct ttd_regex {
    pcre2_code *code;          /* the compiled pattern */
    pcre2_match_data *md;      /* reused by every match (ovector of 1 pair) */
    int jit;                   /* 1: JIT-compiled, match through the JIT */
};

int ttd_regex_compile(const char *pattern, ttd_regex **out, ttf_error *err)
{
    int ecode = 0;
    PCRE2_SIZE eoff = 0;
    PCRE2_UCHAR why[160];

    if (!out)
        return TT_EINVAL;
    *out = NULL;
    if (!pattern) {
        ttfi_set_err(err, TT_EINVAL, 0, BAD_REGEX, "(null)", "no pattern",
                     (size_t)0);
        return TT_EINVAL;
    }
    ttd_regex *re = calloc(1, sizeof *re);
    if (!re)
        return TT_ENOMEM;
    re->code = pcre2_compile((PCRE2_SPTR)pattern, PCRE2_ZERO_TERMINATED, 0,
                             &ecode, &eoff, NULL);
    if (!re->code) {
        if (pcre2_get_error_message(ecode, why, sizeof why) < 0)
            snprintf((char *)why, sizeof why, "error %d", ecode);
        ttfi_set_err(err, TT_EINVAL, eoff, BAD_REGEX, pattern,
                     (const char *)why, (size_t)eoff);
        free(re);
        return TT_EINVAL;
    }
    /* JIT is an optimisation: any failure just means interpreted matching */
    re->jit = pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE) == 0;
    re->md = pcre2_match_data_create(1, NULL);
    if (!re->md) {
        ttd_regex_free(re);
        return TT_ENOMEM;
    }
    *out = re;
    return 0;
}

int ttd_regex_match(const ttd_regex *re, const char *s)
{
    int rc;

    if (!re || !s)
        return 0;
    if (re->jit)
        rc = pcre2_jit_match(re->code, (PCRE2_SPTR)s, strlen(s), 0, 0,
                             re->md, NULL);
    else
        rc = pcre2_match(re->code, (PCRE2_SPTR)s, strlen(s), 0, 0, re->md,
                         NULL);
    return rc >= 0;
}

void ttd_regex_free(ttd_regex *re)
{
    if (!re)
        return;
    pcre2_match_data_free(re->md);
    pcre2_code_free(re->code);
    free(re);
}

/* A whole number (digits only, at most 10 of them) as a thread index;
 * -1 if pattern is anything else. */
static int64_t thread_number(const char *pattern)
{
    int64_t v = 0;
    size_t n = 0;

    for (; pattern[n]; n++) {
        if (pattern[n] < '0' || pattern[n] > '9' || n >= 10)
            return -1;
        v = v * 10 + (pattern[n] - '0');
    }
    return n ? v : -1;
}

int ttd_thread_match(const char *pattern, const ttd_regex *re, uint32_t index,
                     const char *name, const char *first_name)
{
    if (!pattern)
        return 1;
    int64_t number = thread_number(pattern);
    if (number >= 0)
        return number == (int64_t)index;
    return ttd_regex_match(re, name) || ttd_regex_match(re, first_name);
}

int ttdi_compile_filter(ttd_regex **re, const char *pattern, const char *flag,
                        ttf_error *err)
{
    ttf_error e;
    char msg[sizeof e.msg + 32];

    if (!pattern)
        return 0;
    int rc = ttd_regex_compile(pattern, re, &e);
    if (rc < 0 && err) {
        snprintf(msg, sizeof msg, "%s: %s", flag, rc == TT_EINVAL ? e.msg : ttf_strerror(rc));
        ttfi_set_err(err, rc, 0, "%s", msg);
    }
    return rc;
}

