/*
 * run_profile_table.c - one run's profile (ttd_prof, diff/run_profile.c) as the
 * tables of ttdump --profile: a summary, the rows (one table per thread
 * when per-thread), times in microseconds, then where each never-returning
 * function first failed to return. Prints only; the numbers are the diff
 * layer's.
 * Stage 3 renderers of report/STAGES.
 */
#include <inttypes.h>
#include <stdio.h>

#include "ttreport.h"

static void put_us(FILE *f, int width, uint64_t ns)
{
    fprintf(f, " %*" PRIu64 ".%03u", width - 4, ns / 1000, (unsigned)(ns % 1000));
}

static void put_thread(FILE *f, const ttf_trace *t, uint32_t i)
{
    const ttf_thread *th = ttf_get_thread(t, i);

    fprintf(f, "thread %" PRIu32 " \"", i);
    ttf_put_text(f, th && th->name ? th->name : "");
    fprintf(f, "\" (tid %" PRId64 ")", th ? th->tid : 0);
}

static void put_row(FILE *f, const ttd_prof_row *r)
{
    fprintf(f, "%10" PRIu64, r->calls);
    put_us(f, 14, r->total_ns);
    put_us(f, 14, r->self_ns);
    put_us(f, 12, r->min_ns);
    put_us(f, 12, r->avg_ns);
    put_us(f, 12, r->max_ns);
    fprintf(f, " %6" PRIu64 "  ", r->never_returned);
    ttf_put_text(f, r->name);
    fputc('\n', f);
}

static void put_where(FILE *f, const ttf_trace *t, const ttd_prof_row *r)
{
    const ttd_prof_where *w = &r->where;

    fputs("  ", f);
    ttf_put_text(f, r->name);
    fprintf(f, ": %" PRIu64 " of %" PRIu64 " calls; first in ",
            r->never_returned, r->calls);
    put_thread(f, t, w->thread);
    fprintf(f, ", entered +%" PRIu64 ".%03uus, closed +%" PRIu64 ".%03uus (%s)",
            w->enter_ns / 1000, (unsigned)(w->enter_ns % 1000),
            w->close_ns / 1000, (unsigned)(w->close_ns % 1000),
            ttd_prof_end_name(w->reason));
    if (w->caller && w->caller[0]) {
        fputs(", called from ", f);
        ttf_put_text(f, w->caller);
    }
    fputc('\n', f);
}

int ttr_prof_text(FILE *f, const ttd_prof *p, const ttf_trace *t,
                  const ttd_regex *function, const ttd_regex *exclude)
{
    const ttd_prof_info *in = ttd_prof_get_info(p);
    size_t n = ttd_prof_count(p);
    uint32_t thread = UINT32_MAX - 1;
    uint64_t never = 0;

    fprintf(f, "profile: %" PRIu32 " thread%s, %" PRIu64 " events, %s, "
            "sorted by %s; times in microseconds\n", in->threads,
            in->threads == 1 ? "" : "s", in->events,
            in->per_thread ? "per thread" : "all threads merged",
            ttd_prof_column_name(in->sort));
    fprintf(f, "paused %" PRIu64 ".%03uus (left out of self), %" PRIu64
            " stray exits, %" PRIu64 " frames never returned\n",
            in->paused_ns / 1000, (unsigned)(in->paused_ns % 1000),
            in->stray_exits, in->never_returned);
    for (size_t i = 0; i < n; i++) {
        const ttd_prof_row *r = ttd_prof_get(p, i);
        if ((function && !ttd_regex_match(function, r->name)) ||
            ttd_regex_match(exclude, r->name))
            continue;
        never += r->never_returned != 0;
        if (r->thread != thread || i == 0) {
            if (in->per_thread) {
                fputc('\n', f);
                put_thread(f, t, r->thread);
                fputs(":\n", f);
            }
            fprintf(f, "%10s %14s %14s %12s %12s %12s %6s  %s\n", "calls",
                    "total", "self", "min", "avg", "max", "never", "function");
            thread = r->thread;
        }
        put_row(f, r);
    }
    if (never)
        fprintf(f, "never returned:\n");
    for (size_t i = 0; i < n && never; i++) {
        const ttd_prof_row *r = ttd_prof_get(p, i);
        if (r->never_returned && (!function || ttd_regex_match(function, r->name)))
            put_where(f, t, r);
    }
    return ferror(f) ? TT_EIO : 0;
}
