/*
 * ttreport.h - render ttdiff results (diff/ttdiff.h) as text, JSON or one
 * self-contained HTML page, and the profile diff as text or JSON. Renderers
 * only read the engine's results; they never compute a diff. The JSON
 * schema is documented in report/JSON.md.
 */
#ifndef TTREPORT_H
#define TTREPORT_H

#include <stdio.h>

/* installed side by side; in the source tree, -Idiff -Iformat find them */
#include "ttdiff.h"
#include "ttprof.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 1.1: ttr_prof_text and ttr_chrome_write, formerly ttf_profile_write_text
 * and ttf_chrome_write in libttfmt 1.x. 1.2: ttr_prof_text takes exclude,
 * ttr_chrome_opts has exclude (ttdump --exclude). 1.3: ttr_signal_name.
 * 1.4: ttr_options.full_names (short C++ names by default). */
#define TTR_VERSION_MAJOR 1
#define TTR_VERSION_MINOR 4
#define TTR_VERSION_PATCH 0
#define TTR_VERSION_NUMBER \
    (TTR_VERSION_MAJOR * 10000 + TTR_VERSION_MINOR * 100 + TTR_VERSION_PATCH)

/* Version of the JSON schema written by ttr_json (report/JSON.md). */
#define TTR_JSON_SCHEMA_VERSION 2

/* The library's own version at run time. */
int ttr_version(void);

typedef struct ttr_options {
    int color;          /* 1: ANSI colours (red -, green +, dim context) */
    int all;            /* 1: a line for every resolved hunk */
    unsigned hunk_lines;/* hunk lines shown when all is 0 (10) */
    unsigned order_rows;/* rows of the thread-order block (8); 0 = all */
    int full_names;     /* 1: C++ names whole in text and HTML (1.4); 0:
                           short (std::string, no default template
                           arguments); JSON always has them whole */
} ttr_options;

/* Fill o with the defaults (no colour, 10 hunk lines, 8 order rows). */
void ttr_options_init(ttr_options *o);

/* Write the human report of d to f. opts may be NULL. Returns 0, TT_EIO if
 * writing failed, or an engine error (TT_ENOMEM, reader errors) from
 * ttd_hunk_detail. */
int ttr_text(FILE *f, ttd_diff *d, const ttr_options *opts);

/* Write d as one JSON document (schema TTR_JSON_SCHEMA_VERSION) and a
 * newline. Errors as ttr_text. */
int ttr_json(FILE *f, ttd_diff *d, const ttr_options *opts);

/* Write d as one self-contained HTML page (report/html.c): the runs, the
 * thread pairs, the first divergence with its stack, a side-by-side window
 * around each resolved divergence (at most hunk_lines + 1, 20 with all),
 * and the ttr_json document embedded. No external resources; every trace
 * string escaped; readable without scripts. Errors as ttr_text (TT_ENOMEM
 * also if the embedded JSON cannot be buffered). */
int ttr_html(FILE *f, ttd_diff *d, const ttr_options *opts);

/* Two process trees compared (ttd_tree_diff): the shown pair's report
 * with the trees around it, as text, JSON (the pair's document plus
 * processes[] and first_process, report/JSON.md) or HTML (the pair's page
 * with the tree first, the diverging branch open). Errors as ttr_text. */
int ttr_tree_text(FILE *f, ttd_tree *t, const ttr_options *opts);
int ttr_tree_json(FILE *f, ttd_tree *t, const ttr_options *opts);
int ttr_tree_html(FILE *f, ttd_tree *t, const ttr_options *opts);

/* Write s as a JSON string literal, quotes included: control bytes (C0,
 * DEL, C1 U+0080..U+009F: inert on a terminal too), quote
 * and backslash escaped, '<' '>' '&' U+2028 U+2029 as \u escapes (safe to
 * embed in HTML), each byte of invalid UTF-8 as U+FFFD. NULL writes null.
 * Returns 0 or TT_EIO. */
int ttr_json_string(FILE *f, const char *s);

/* Name of an event kind as used in reports: "enter", "exit", "message",
 * "mark", "crash", ... */
const char *ttr_kind_name(int kind);

/* Name of a signal as reports spell it: "SIGSEGV" for one this system
 * knows, else "signal N"; written to buf (n bytes; 24 hold any) and
 * returned. */
const char *ttr_signal_name(int signo, char *buf, size_t n);

/* ---- the profile diff of two runs (report/profile_diff_table.c) ---------- */

/* Version of the JSON written by ttr_profile_json ("tt-profile-diff"). */
#define TTR_PROFILE_SCHEMA_VERSION 1

/* ttdiff --profile: a table of the functions of both runs, largest change
 * first, with calls and times of each run and the deltas (bad - good,
 * absolute and percent); functions of one run only are marked. Times in
 * microseconds. opts may be NULL (colour: red slower, green faster).
 * 0 or TT_EIO. */
int ttr_profile_text(FILE *f, const ttd_profile *p, const ttr_options *opts);

/* The same as one JSON document and a newline: {"schema":"tt-profile-diff",
 * "version":1, "good":{...}, "bad":{...}, "sort":..., "functions":[...]},
 * times in ns, percentages null where the good value is 0. 0 or TT_EIO. */
int ttr_profile_json(FILE *f, const ttd_profile *p, const ttr_options *opts);

/* ---- one run's profile as tables (report/run_profile_table.c) ----------- */

/* Print p as tables (ttdump --profile): a summary line, the rows (one table
 * per thread when per-thread) with times in microseconds, then where each
 * never-returning function first failed to return. function (may be NULL)
 * keeps only matching rows, exclude (may be NULL) drops matching rows. t
 * names the threads. 0 or TT_EIO. */
int ttr_prof_text(FILE *f, const ttd_prof *p, const ttf_trace *t,
                  const ttd_regex *function, const ttd_regex *exclude);

/* ---- Chrome trace-event JSON (report/chrome.c) -------------------------- */

typedef struct ttr_chrome_opts {
    int no_messages;        /* 1: leave messages and marks out */
    const char *threads;    /* per thread index: nonzero = write it; NULL = all */
    size_t nthreads;        /* entries in threads */
    const ttd_regex *function; /* only frames of matching functions; NULL = all */
    const ttd_regex *exclude;  /* no frames of matching functions; NULL = none */
} ttr_chrome_opts;

/* Stream t to f as one Chrome trace-event JSON document (Perfetto UI and
 * chrome://tracing load it): process_name / thread_name metadata, one track
 * per thread (pid = traced pid, tid = OS tid), perfectly nested B/E events
 * (frames left open are closed at the thread's last event, frames skipped
 * by longjmp where an outer frame returns), messages, marks, crashes and
 * pauses as thread-scoped instant events. ts is microseconds since the trace
 * start with ns precision. Memory: the deepest stack and one escaped name
 * per function, never the document. opts may be NULL. Errors: TT_EINVAL,
 * TT_ENOMEM, TT_EIO (writing failed), reader errors. */
int ttr_chrome_write(FILE *f, const ttf_trace *t, ttf_sym *sym,
                     const ttr_chrome_opts *opts, ttf_error *err);

#ifdef __cplusplus
}
#endif

#endif
