/*
 * profile_diff_table.c - render a profile diff (ttd_profile, diff/ttprof.h) as a text
 * table or as JSON ("tt-profile-diff", version TTR_PROFILE_SCHEMA_VERSION).
 * Deltas are bad minus good everywhere; the order is the engine's (largest
 * change first).
 * Stage 3 renderers of report/STAGES.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ttreport.h"

/* ---- text --------------------------------------------------------------- */

static void us(char *b, size_t n, uint64_t ns)
{
    snprintf(b, n, "%" PRIu64 ".%03u", ns / 1000, (unsigned)(ns % 1000));
}

static void sus(char *b, size_t n, int64_t ns)
{
    uint64_t m = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    snprintf(b, n, "%c%" PRIu64 ".%03u", ns < 0 ? '-' : '+', m / 1000,
             (unsigned)(m % 1000));
}

static void percent(char *b, size_t n, double v, int only)
{
    if (only == TTD_PROF_ONLY_BAD || isnan(v))
        snprintf(b, n, "new");
    else
        snprintf(b, n, "%+.1f%%", v);
}

static void run_line(FILE *f, const char *what, const ttd_profile_result *r,
                     int run)
{
    const ttd_prof_info *in = &r->info[run];

    fprintf(f, "%s %s: %" PRIu64 " events, %" PRIu32 " thread%s, %" PRIu64
            " frames never returned\n", what, r->path[run] ? r->path[run] : "",
            in->events, in->threads, in->threads == 1 ? "" : "s",
            in->never_returned);
}

static void text_row(FILE *f, const ttd_profile_delta *d, int color)
{
    char gt[32], bt[32], dt[32], ds[32], pt[16], ps[16];
    const char *mark = d->only == TTD_PROF_ONLY_GOOD ? "  [only in good]"
                     : d->only == TTD_PROF_ONLY_BAD ? "  [only in bad]" : "";

    us(gt, sizeof gt, d->good.total_ns);
    us(bt, sizeof bt, d->bad.total_ns);
    sus(dt, sizeof dt, d->total_ns);
    sus(ds, sizeof ds, d->self_ns);
    percent(pt, sizeof pt, d->total_pct, d->only);
    percent(ps, sizeof ps, d->self_pct, d->only);
    if (color && (d->total_ns || d->only))
        fputs(d->total_ns > 0 || d->only == TTD_PROF_ONLY_BAD ? "\033[31m"
                                                               : "\033[32m", f);
    fprintf(f, "%10" PRIu64 " %10" PRIu64 " %+9" PRId64 " %14s %14s %14s %8s "
            "%14s %8s  ", d->good.calls, d->bad.calls, d->calls, gt, bt,
            dt, pt, ds, ps);
    ttf_put_text(f, d->name);
    fputs(mark, f);
    if (color && (d->total_ns || d->only))
        fputs("\033[0m", f);
    fputc('\n', f);
}

int ttr_profile_text(FILE *f, const ttd_profile *p, const ttr_options *opts)
{
    const ttd_profile_result *r = ttd_profile_get_result(p);
    int color = opts ? opts->color : 0;

    if (!r)
        return TT_EINVAL;
    run_line(f, "good", r, TTD_GOOD);
    run_line(f, "bad ", r, TTD_BAD);
    fprintf(f, "%zu functions, %zu with other call counts or in one run only; "
            "deltas are bad - good, times in microseconds, largest %s change "
            "first\n", r->nrows, r->changed, ttd_prof_column_name(r->sort));
    fprintf(f, "%10s %10s %9s %14s %14s %14s %8s %14s %8s  %s\n", "calls",
            "calls", "calls", "total", "total", "total", "total", "self",
            "self", "function");
    fprintf(f, "%10s %10s %9s %14s %14s %14s %8s %14s %8s\n", "good", "bad",
            "delta", "good", "bad", "delta", "delta%", "delta", "delta%");
    for (size_t i = 0; i < r->nrows; i++)
        text_row(f, &r->rows[i], color);
    return ferror(f) ? TT_EIO : 0;
}

/* ---- JSON --------------------------------------------------------------- */

static void json_pct(FILE *f, const char *name, double v, const char *sep)
{
    if (isnan(v) || isinf(v))
        fprintf(f, "\"%s\":null%s", name, sep);
    else
        fprintf(f, "\"%s\":%.3f%s", name, v, sep);
}

static void json_row(FILE *f, const ttd_prof_row *r, int present)
{
    if (!present) {
        fputs("null", f);
        return;
    }
    fprintf(f, "{\"calls\":%" PRIu64 ",\"total_ns\":%" PRIu64 ",\"self_ns\":%"
            PRIu64 ",\"min_ns\":%" PRIu64 ",\"avg_ns\":%" PRIu64 ",\"max_ns\":%"
            PRIu64 ",\"never_returned\":%" PRIu64 ",\"threads\":%" PRIu32 "}",
            r->calls, r->total_ns, r->self_ns, r->min_ns, r->avg_ns, r->max_ns,
            r->never_returned, r->threads);
}

static void json_run(FILE *f, const ttd_profile_result *r, int run)
{
    const ttd_prof_info *in = &r->info[run];

    fputs("{\"trace\":", f);
    ttr_json_string(f, r->path[run]);
    fprintf(f, ",\"events\":%" PRIu64 ",\"threads\":%" PRIu32 ",\"paused_ns\":%"
            PRIu64 ",\"stray_exits\":%" PRIu64 ",\"never_returned\":%" PRIu64 "}",
            in->events, in->threads, in->paused_ns, in->stray_exits,
            in->never_returned);
}

static void json_delta(FILE *f, const ttd_profile_delta *d)
{
    static const char *const only[] = {"both", "good", "bad"};

    fputs("{\"name\":", f);
    ttr_json_string(f, d->name);
    fprintf(f, ",\"only\":\"%s\",\"good\":", only[d->only]);
    json_row(f, &d->good, d->only != TTD_PROF_ONLY_BAD);
    fputs(",\"bad\":", f);
    json_row(f, &d->bad, d->only != TTD_PROF_ONLY_GOOD);
    fprintf(f, ",\"delta\":{\"calls\":%" PRId64 ",\"total_ns\":%" PRId64
            ",\"self_ns\":%" PRId64 ",\"avg_ns\":%" PRId64 "},\"percent\":{",
            d->calls, d->total_ns, d->self_ns, d->avg_ns);
    json_pct(f, "calls", d->calls_pct, ",");
    json_pct(f, "total", d->total_pct, ",");
    json_pct(f, "self", d->self_pct, ",");
    json_pct(f, "avg", d->avg_pct, "}}");
}

int ttr_profile_json(FILE *f, const ttd_profile *p, const ttr_options *opts)
{
    const ttd_profile_result *r = ttd_profile_get_result(p);

    (void)opts;
    if (!r)
        return TT_EINVAL;
    fprintf(f, "{\"schema\":\"tt-profile-diff\",\"version\":%d,\"good\":",
            TTR_PROFILE_SCHEMA_VERSION);
    json_run(f, r, TTD_GOOD);
    fputs(",\"bad\":", f);
    json_run(f, r, TTD_BAD);
    fprintf(f, ",\"sort\":\"%s\",\"changed\":%zu,\"functions\":[",
            ttd_prof_column_name(r->sort), r->changed);
    for (size_t i = 0; i < r->nrows; i++) {
        fputs(i ? ",\n" : "\n", f);
        json_delta(f, &r->rows[i]);
    }
    fputs("\n]}\n", f);
    return ferror(f) ? TT_EIO : 0;
}
