/*
 * ttdump.c - print a tt trace: every header field by name, the process,
 * modules, threads and notices, then each thread's events as an indented
 * call tree with times since the trace start (or --merged, --stats).
 * Events are streamed through ttf_iter: memory stays flat on huge traces.
 * Errors, colour, --help and --version go through the shared cli.c.
 * Stage 2 commands of report/cmd/STAGES.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

#define MAX_INDENT 64          /* deeper frames print at this level */
#define MSG_MAX 4096           /* longest message text printed */
#define KIND_MAX 20            /* TTF_EV_* values are below this */

/* What the command line asked for. */
struct opts {
    const char *path;          /* the trace file */
    int merged;                /* 1: one time-ordered stream of all threads */
    int stats;                 /* 1: counts instead of events */
    int lines;                 /* 1: file:line on enter events */
    int sites;                 /* 1: call sites on enter events (format 1.2) */
    int header;                /* 1: print the sections before the events */
    int color;                 /* 1: ANSI colours */
    ttri_cli_filter filter;     /* --thread, --function, --exclude */
    int profile;               /* 1: --profile, per-function table */
    int sort;                  /* --sort column, TTD_PROF_* */
    int per_thread;            /* 1: --per-thread profile */
    int chrome;                /* 1: --chrome, trace-event JSON */
    int no_demangle;           /* 1: --no-demangle, C++ names as stored */
    int raw_values;            /* 1: --raw-values, registers not parameters */
    const char *value_table;   /* --value-table OUT: write the ELF file's table */
    int races;                 /* 1: --races, the run's races alone */
};

/* State of one dump run. */
struct dump {
    const struct opts *o;      /* options */
    ttf_trace *t;              /* the open trace */
    ttf_sym *sym;              /* symbol resolver (events only) */
    FILE *out;                 /* where the dump goes (stdout) */
    size_t nthreads;           /* threads in the trace */
    struct tstack *stacks;     /* per thread: open frames, for the indent */
    char *selected;            /* per thread: 1 if --thread selects it */
};

/* One thread's open frames as the tree shows them. The reader's depth
 * counts enters minus exits, so a longjmp that skips frames would leave
 * every later line indented too deep; skew is what it overcounts. */
struct tstack {
    uint64_t *key;             /* function address (~site for scopes) */
    unsigned char *sel;        /* per frame: 1 if --function selects it */
    size_t n, cap;             /* open frames, allocated entries */
    int nsel;                  /* frames in key[0..n) --function selects */
    int skew;                  /* frames closed by a longjmp, not by EXITs */
    int next;                  /* reader depth expected at the next call */
    int seen;                  /* 1: next is valid */
};

/* Per-thread counts for --stats. */
struct tstats {
    uint64_t count[KIND_MAX];  /* events by TTF_EV_* kind */
    uint64_t bytes[KIND_MAX];  /* record bytes by kind (measured spans) */
    uint64_t spans[KIND_MAX];  /* events whose size could be measured */
};

/* ttdump spells a kind as reports do with '-' for '_' ("thread-start");
 * NULL for a kind that is not a TTF_EV_* value. */
static const char *kind_label(int kind)
{
    static char labels[KIND_MAX][16];

    if (kind <= 0 || kind > TTF_EV_UNWIND || kind >= KIND_MAX)
        return NULL;
    if (!labels[kind][0]) {
        snprintf(labels[kind], sizeof labels[kind], "%s", ttr_kind_name(kind));
        for (char *c = labels[kind]; *c; c++)
            *c = *c == '_' ? '-' : *c;
    }
    return labels[kind];
}

static const char *const usage_text =
    "usage: ttdump [options] TRACE\n"
    "Print a tt trace: header, process, modules, threads, notices, then\n"
    "each thread's events as a call tree (times since the trace start).\n"
    "\n"
    "  -m, --merged          all threads in one time-ordered stream\n"
    "  -t, --thread REGEX    only threads whose name (or first name) matches;\n"
    "                        a whole number N selects thread N (creation order)\n"
    "  -f, --function REGEX  only events of matching functions\n"
    "      --exclude REGEX   drop events of matching functions\n"
    "  -s, --stats           counts per thread and kind instead of events\n"
    "      --profile         per function: calls, total, self (pauses left\n"
    "                        out), min/avg/max per call, never-returned\n"
    "      --sort COL        profile order: total (default), self, calls,\n"
    "                        min, avg, max, never, name\n"
    "      --per-thread      one profile table per thread\n"
    "      --chrome          Chrome trace-event JSON (Perfetto UI,\n"
    "                        chrome://tracing) instead of events\n"
    "      --races           the run's races instead of events: calls of two\n"
    "                        threads that no lock, condition, create or join\n"
    "                        ordered (check-then-act, unprotected calls),\n"
    "                        ranked, with no good run to compare with\n"
    "  -l, --lines           file:line on enter events\n"
    "      --sites           where each call came from: 'from caller+0x1a'\n"
    "                        (and the call's file:line with --lines), for\n"
    "                        traces with call sites (format 1.2)\n"
    "      --no-demangle     show C++ function names mangled, as stored\n"
    "      --exe FILE        symbols from FILE for the module with its build-id\n"
    "                        (the program rebuilt or moved since; repeatable)\n"
    "      --debug-dir DIR   look for modules by build-id in DIR/.build-id\n"
    "                        (repeatable; the trace's folder is always searched)\n"
    "      --raw-values      calls of a trace with values: the six argument\n"
    "                        registers and rax as recorded, not the declared\n"
    "                        parameters and result (the default where debug\n"
    "                        info describes the function)\n"
    "      --value-table OUT with an ELF file instead of a trace: write its\n"
    "                        functions' string parameters (from its debug\n"
    "                        info) to OUT, the table ttcc --values adds to a\n"
    "                        program as its .ttcap.vt section (nothing\n"
    "                        written when it has none)\n"
    "  -n, --no-header       events only, no header/process/threads sections\n"
    "      --color WHEN      auto, always or never (default auto)\n"
    "  -h, --help            this text\n"
    "  -V, --version         version\n"
    "\n"
    "Exit status: 0 success, 2 bad usage, unreadable or corrupt trace.\n";

/* ---- small helpers ------------------------------------------------------ */

static void fmt_rel(char *buf, size_t n, uint64_t ns)
{
    snprintf(buf, n, "+%" PRIu64 ".%03" PRIu64 "us", ns / 1000, ns % 1000);
}

static void fmt_iso(char *buf, size_t n, uint64_t ns)
{
    time_t sec = (time_t)(ns / 1000000000u);
    struct tm tm;

    if (ns == 0 || !gmtime_r(&sec, &tm)) {
        snprintf(buf, n, "unknown");
        return;
    }
    size_t k = strftime(buf, n, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(buf + k, n - k, ".%09" PRIu64 "Z", ns % 1000000000u);
}

/* Print s inert for a terminal, one event on one line (ttf_put_text:
 * C0, C1, DEL and invalid UTF-8 escaped). */
static void put_clean(FILE *f, const char *s)
{
    ttf_put_text(f, s);
}

static void put_quoted(FILE *f, const char *s)
{
    fputc('"', f);
    put_clean(f, s ? s : "");
    fputc('"', f);
}

static void color_on(const struct dump *d, const char *code)
{
    if (d->o->color)
        fprintf(d->out, "\033[%sm", code);
}

static void color_off(const struct dump *d)
{
    if (d->o->color)
        fputs("\033[0m", d->out);
}

/* ---- header sections ---------------------------------------------------- */

/* "0x3 (a, b)" for a bit mask with names, unknown bits in hex. */
static void put_bits(FILE *f, uint32_t v, const char *const *names, int n)
{
    const char *sep = "";

    fprintf(f, "0x%" PRIx32 " (", v);
    if (v == 0)
        fputs("none", f);
    for (int i = 0; i < 32; i++) {
        uint32_t bit = 1u << i;
        if (!(v & bit))
            continue;
        if (i < n && names[i])
            fprintf(f, "%s%s", sep, names[i]);
        else
            fprintf(f, "%sunknown 0x%" PRIx32, sep, bit);
        sep = ", ";
    }
    fputs(")\n", f);
}

static void print_header(const struct dump *d)
{
    static const char *const req[] = {"events-v1", "values", "sites", "sparse", "xmm", "lazy",
                                       "lazy-values", "lazy-chain"};
    static const char *const opt[] = {"ring", "noclock", "sync", "cutinfo", "strings"};
    static const char *const flags[] = {"closed", "exec"};
    const ttf_header *h = ttf_get_header(d->t);
    FILE *f = d->out;
    char when[64];

    fputs("trace: ", f);
    put_clean(f, ttf_path(d->t));
    fputs("\nheader:\n", f);
    fprintf(f, "  magic:             ok\n");
    fprintf(f, "  version:           %u.%u\n", h->version_major,
            h->version_minor);
    fprintf(f, "  min reader:        %u\n", h->min_reader_major);
    fprintf(f, "  header size:       %u\n", h->header_size);
    fprintf(f, "  endian:            little (0x%08x)\n", ttf_format()->endian_mark);
    fprintf(f, "  required features: ");
    put_bits(f, h->required_features, req, (int)(sizeof req / sizeof *req));
    fprintf(f, "  optional features: ");
    put_bits(f, h->optional_features, opt, (int)(sizeof opt / sizeof *opt));
    fprintf(f, "  chunk size:        %" PRIu32 "\n", h->chunk_size);
    fprintf(f, "  data offset:       %" PRIu32 "\n", h->data_offset);
    fprintf(f, "  flags:             ");
    put_bits(f, h->flags, flags, (int)(sizeof flags / sizeof *flags));
    if (h->flags & TTF_HEADER_CLOSED)
        fprintf(f, "  exit status:       %" PRId32 "\n", h->exit_status);
    else
        fprintf(f, "  exit status:       none (not closed)\n");
    fprintf(f, "  tsc_hz:            %" PRIu64 "\n", h->tsc_hz);
    fmt_iso(when, sizeof when, h->start_realtime_ns);
    fprintf(f, "  start time:        %s\n", when);
}

/* What a gap in a thread's chunk sequence is: in a ring-mode trace
 * (TTF_OPT_RING) chunks the writer reused for newer events, "overwritten"
 * (or damaged, if the file has damaged chunks: those leave gaps too);
 * otherwise NULL (missing chunks, shown as seq gaps). */
static const char *gap_word(const struct dump *d)
{
    if (!(ttf_get_header(d->t)->optional_features & TTF_HEADER_RING))
        return NULL;
    return ttf_get_summary(d->t)->chunks_damaged ? "overwritten or damaged" : "overwritten";
}

/* Missing sequence numbers over every thread. */
static uint64_t total_gaps(const struct dump *d)
{
    uint64_t n = 0;
    for (uint32_t i = 0; i < d->nthreads; i++)
        n += ttf_get_thread(d->t, i)->seq_gaps;
    return n;
}

static void print_summary(const struct dump *d)
{
    const ttf_summary *s = ttf_get_summary(d->t);
    FILE *f = d->out;
    char dur[48];

    fmt_rel(dur, sizeof dur, s->duration_ns);
    fprintf(f, "summary:\n");
    fprintf(f, "  file bytes:        %" PRIu64 "\n", s->bytes);
    fprintf(f, "  chunks:            %" PRIu64 " total, %" PRIu64 " used, %"
            PRIu64 " damaged\n", s->chunks_total, s->chunks_used,
            s->chunks_damaged);
    fprintf(f, "  events:            %" PRIu64 " (lost %" PRIu64 ")\n",
            s->events, s->lost_events);
    char cut[200];
    if (ttf_cut_text(d->t, cut, sizeof cut))
        fprintf(f, "  cut:               %s\n", cut);
    uint64_t gaps = total_gaps(d);
    if (gaps && gap_word(d))
        fprintf(f, "  %-19s%" PRIu64 " chunks (ring: %" PRIu64 " bytes of the oldest "
                "events, not counted as lost)\n", strcmp(gap_word(d), "overwritten") ?
                "overwritten/damaged:" : "overwritten:", gaps,
                gaps * ttf_get_header(d->t)->chunk_size);
    fprintf(f, "  data bytes:        %" PRIu64, s->data_bytes);
    if (s->events)
        fprintf(f, " (%.2f bytes/event)",
                (double)s->data_bytes / (double)s->events);
    fprintf(f, "\n  duration:          %s\n", dur + 1);
    if (s->values)
        fprintf(f, "  values:            arguments and return values recorded\n");
}

/* The first CRASH event, if the summary says there is one (one extra pass
 * over the events, only for crashed traces). */
static int find_crash(const struct dump *d, ttf_event *crash)
{
    ttf_iter *it = NULL;
    int rc, found = 0;

    if (!ttf_get_summary(d->t)->crashed)
        return 0;
    if (ttf_iter_open(d->t, TTF_ALL_THREADS, &it) != 0)
        return 0;
    while (!found && (rc = ttf_iter_next(it, crash)) == 1)
        found = crash->kind == TTF_EV_CRASH;
    ttf_iter_close(it);
    return found;
}

static void print_exit(const struct dump *d)
{
    const ttf_summary *s = ttf_get_summary(d->t);
    const ttf_process *p = ttf_get_process(d->t);
    const ttf_header *h = ttf_get_header(d->t);
    FILE *f = d->out;

    if (p->exec_path && p->exec_path[0]) {
        fprintf(f, "  exit:              exec ");
        put_quoted(f, p->exec_path);
        fputc('\n', f);
    } else if (p->exited)
        fprintf(f, "  exit:              status %d\n", p->exit_status);
    else if (s->closed)
        fprintf(f, "  exit:              status %" PRId32 "\n", h->exit_status);
    else
        fprintf(f, "  exit:              not closed cleanly: recovered %"
                PRIu64 " events from %" PRIu64 " chunks\n", s->events,
                s->chunks_used);
}

static void print_crash(const struct dump *d)
{
    ttf_event ev;
    char sig[32], at[48];
    FILE *f = d->out;

    if (!find_crash(d, &ev)) {
        fprintf(f, "  crash:             %s\n",
                ttf_get_summary(d->t)->crashed ? "yes" : "no");
        return;
    }
    fmt_rel(at, sizeof at, ev.time_ns);
    fprintf(f, "  crash:             %s (code %d) fault address 0x%" PRIx64
            " in thread %" PRIu32 " at %s\n",
            ttr_signal_name(ev.signo, sig, sizeof sig), ev.code, ev.fault_addr,
            ev.thread, at);
}

static void print_process(const struct dump *d)
{
    const ttf_process *p = ttf_get_process(d->t);
    FILE *f = d->out;
    char when[64];

    fprintf(f, "process:\n");
    fprintf(f, "  pid:               %" PRId64 "\n", p->pid);
    fprintf(f, "  ppid:              %" PRId64 "\n", p->ppid);
    fprintf(f, "  exe:               ");
    put_clean(f, p->exe ? p->exe : "");
    fprintf(f, "\n  command line:     ");
    for (int i = 0; i < p->argc; i++) {
        fputc(' ', f);
        put_quoted(f, p->argv[i]);
    }
    fputc('\n', f);
    if (p->parent_trace && p->parent_trace[0]) {
        fprintf(f, "  parent trace:      ");
        put_clean(f, p->parent_trace);
        fputc('\n', f);
    }
    if (p->chaos)
        fprintf(f, "  chaos:             seed %" PRIu64 "%s (TTCAP_CHAOS=%" PRIu64 "%s repeats it)\n",
                p->chaos_seed, p->chaos & TTF_PROC_CHAOS_ENTRIES ? ", at sync operations and function entries" : ", at sync operations",
                p->chaos_seed, p->chaos & TTF_PROC_CHAOS_ENTRIES ? ",entries" : "");
    fmt_iso(when, sizeof when, p->start_realtime_ns);
    fprintf(f, "  start time:        %s\n", when);
    print_exit(d);
    print_crash(d);
}

static void print_module(FILE *f, size_t i, const ttf_module *m)
{
    char t0[48], t1[48];

    fprintf(f, "  [%zu] base 0x%" PRIx64 " size 0x%" PRIx64 " build-id ", i,
            m->base, m->size);
    for (size_t k = 0; k < m->build_id_len; k++)
        fprintf(f, "%02x", m->build_id[k]);
    if (m->build_id_len == 0)
        fputs("none", f);
    fputc(' ', f);
    put_clean(f, m->path && m->path[0] ? m->path : "(no path)");
    if (m->load_ns != 0 || m->unload_ns != UINT64_MAX) {
        fmt_rel(t0, sizeof t0, m->load_ns);
        fmt_rel(t1, sizeof t1, m->unload_ns);
        fprintf(f, " (loaded %s, %s %s)", t0,
                m->unload_ns == UINT64_MAX ? "still loaded" : "unloaded",
                m->unload_ns == UINT64_MAX ? "at end" : t1);
    }
    fputc('\n', f);
}

static void print_thread_info(FILE *f, const ttf_thread *th, const char *gap)
{
    char t0[48], t1[48];

    if (!th->chunks) {          /* an index and nothing else: no times */
        fprintf(f, "  [%" PRIu32 "] no chunks (never traced, cut before its "
                "first chunk, or its chunks lost)\n", th->index);
        return;
    }
    fmt_rel(t0, sizeof t0, th->start_ns);
    fmt_rel(t1, sizeof t1, th->end_ns);
    fprintf(f, "  [%" PRIu32 "] tid %" PRId64 " ", th->index, th->tid);
    put_quoted(f, th->name);
    if (th->first_name && strcmp(th->first_name, th->name ? th->name : "")) {
        fputs(" (was ", f);
        put_quoted(f, th->first_name);
        fputc(')', f);
    }
    fprintf(f, " start %s end %s events %" PRIu64 " lost %" PRIu64
            " chunks %" PRIu32, t0, th->ended ? t1 : "-", th->events,
            th->lost_events, th->chunks);
    if (th->seq_gaps && gap)
        fprintf(f, " %s %" PRIu32 " chunks (ring)", gap, th->seq_gaps);
    else if (th->seq_gaps)
        fprintf(f, " seq-gaps %" PRIu32, th->seq_gaps);
    fputc('\n', f);
}

/* The header's cut table: every thread cut off, with what it lost (one
 * that never got a chunk appears only here). */
static void print_cuts(FILE *f, const ttf_trace *t)
{
    size_t n = ttf_cut_count(t);
    if (!n)
        return;
    fprintf(f, "cut threads: %zu\n", n);
    for (size_t i = 0; i < n; i++) {
        const ttf_cut *c = ttf_get_cut(t, i);
        fprintf(f, "  [%" PRIu32 "] tid %" PRId64 " cut (%s): %" PRIu64
                " events lost%s%s%s\n", c->thread, c->tid,
                ttf_cut_reason_name(c->reason), c->lost,
                c->flags & TTF_CUTFL_NOCHUNK ? ", never had a chunk" : "",
                c->flags & TTF_CUTFL_RESUMED ? ", resumed later" : "",
                c->flags & TTF_CUTFL_ENDED ? ", ended" : "");
    }
}

static void print_sections(const struct dump *d)
{
    FILE *f = d->out;
    size_t n;

    print_header(d);
    print_summary(d);
    print_process(d);
    n = ttf_module_count(d->t);
    fprintf(f, "modules: %zu\n", n);
    for (size_t i = 0; i < n; i++)
        print_module(f, i, ttf_get_module(d->t, i));
    fprintf(f, "threads: %zu\n", d->nthreads);
    for (size_t i = 0; i < d->nthreads; i++)
        print_thread_info(f, ttf_get_thread(d->t, i), gap_word(d));
    print_cuts(f, d->t);
    n = ttf_notice_count(d->t);
    fprintf(f, "notices: %zu\n", n);
    for (size_t i = 0; i < n; i++) {
        fputs("  ", f);
        put_clean(f, ttf_get_notice(d->t, i));
        fputc('\n', f);
    }
}

/* ---- events ------------------------------------------------------------- */

static const char *thread_name(const struct dump *d, uint32_t i)
{
    const ttf_thread *th = ttf_get_thread(d->t, i);
    return th && th->name ? th->name : "";
}

/* Does --function select this function name? */
static uint64_t func_hits;     /* names --function selected (0: a typo?) */

static int func_ok(const struct dump *d, const char *name)
{
    int ok = ttri_cli_function_kept(&d->o->filter, name);
    func_hits += (uint64_t)ok;
    return ok;
}

/* Time, thread (merged) and indentation of one event line. The time of a
 * return the sparse clock did not measure (format 1.4, ttf_event
 * untimed: placed between the events around it), or of a call the lazy
 * clock did not (1.7), is marked "~". */
static void line_start(const struct dump *d, const ttf_event *ev, int depth)
{
    char at[48];

    fmt_rel(at + 1, sizeof at - 1, ev->time_ns);
    at[0] = '~';
    fprintf(d->out, "%16s ", ev->untimed ? at : at + 1);
    if (d->o->merged) {
        fprintf(d->out, "[%" PRIu32 " ", ev->thread);
        put_clean(d->out, thread_name(d, ev->thread));
        fputs("] ", d->out);
    }
    if (depth < 0)
        depth = 0;
    if (depth > MAX_INDENT)
        fprintf(d->out, "[depth %d] ", depth);
    fprintf(d->out, "%*s", 2 * (depth > MAX_INDENT ? MAX_INDENT : depth), "");
}

static void put_where(const struct dump *d, const ttf_event *ev)
{
    const char *file = NULL;
    int line = 0;

    if (ttf_sym_event_line(d->sym, ev, &file, &line) != 0)
        return;
    fputs(" (", d->out);
    put_clean(d->out, file);
    fprintf(d->out, ":%d)", line);
}

static void push_frame(struct tstack *s, uint64_t key, int sel)
{
    if (s->n == s->cap) {
        size_t ncap = s->cap ? 2 * s->cap : 64;
        uint64_t *nk = realloc(s->key, ncap * sizeof *nk);
        if (nk)
            s->key = nk;
        unsigned char *ns = nk ? realloc(s->sel, ncap) : NULL;
        if (!ns)
            return;            /* the indent may drift, nothing worse */
        s->sel = ns;
        s->cap = ncap;
    }
    s->sel[s->n] = (unsigned char)sel;
    s->key[s->n++] = key;
    s->nsel += sel;
}

/* The indent of ev: the reader's depth less the frames a longjmp skipped.
 * An EXIT of a frame below the top closes the frames above it too (as
 * the profile and the Chrome export do); an EXIT matching no open frame
 * changes nothing; a jump in the reader's depth (a ring-mode gap, a
 * damaged chunk) starts the thread's stack over. With --function the
 * indent is the number of selected frames on that same stack. */
static int tree_depth(const struct dump *d, const ttf_event *ev)
{
    struct tstack *s = &d->stacks[ev->thread < d->nthreads ? ev->thread
                                                          : d->nthreads];
    int enter = ev->kind == TTF_EV_ENTER;
    uint64_t key = ev->site ? ~(uint64_t)ev->site : ev->addr;

    int filtered = d->o->filter.function_re || d->o->filter.exclude_re;

    if (ev->kind == TTF_EV_UNWIND) {   /* the innermost frames end here */
        for (uint32_t i = 0; i < ev->unwound && s->n > 0; i++)
            s->nsel -= s->sel[--s->n];
        s->seen = 1;
        s->next = ev->depth - (int)ev->unwound;
        return filtered ? s->nsel : s->next - s->skew;
    }
    if (!enter && ev->kind != TTF_EV_EXIT)
        return filtered ? s->nsel : ev->depth - s->skew;
    if (s->seen && ev->depth != s->next) {
        s->n = 0;
        s->nsel = 0;
        s->skew = 0;
    }
    s->seen = 1;
    s->next = enter ? ev->depth + 1 : ev->depth - 1;
    if (enter) {
        int depth = filtered ? s->nsel : ev->depth - s->skew;
        push_frame(s, key, filtered && func_ok(d, ttf_sym_event_name(d->sym, ev)));
        return depth;
    }
    size_t k = s->n;
    while (k > 0 && s->key[k - 1] != key)
        k--;
    if (k > 0) {
        s->skew += (int)(s->n - k);
        while (s->n >= k)
            s->nsel -= s->sel[--s->n];
    }
    return filtered ? s->nsel : ev->depth - 1 - s->skew;
}

/* The SSE registers of a format 1.5 call, as bit patterns: the non-zero
 * ones of xmm0..7 and the mask of those that changed (ENTER), xmm0 (EXIT). */
static void put_raw_xmm(const struct dump *d, const ttf_event *ev)
{
    if (!ev->has_xmm)
        return;
    if (ev->kind == TTF_EV_EXIT) {
        fprintf(d->out, " xmm0=0x%llx", (unsigned long long)ev->retxmm);
        return;
    }
    for (int k = 0; k < TTF_XMM_REGS; k++)
        if (ev->argregs[TTF_XMM_SLOT(k)])
            fprintf(d->out, " xmm%d=0x%llx", k,
                    (unsigned long long)ev->argregs[TTF_XMM_SLOT(k)]);
    fprintf(d->out, " xchanged=0x%02x", ev->xchanged);
}

/* The registers as recorded: all six argument registers and the mask of
 * those that changed (ENTER), rax (EXIT); the SSE ones after them. */
static void put_raw_values(const struct dump *d, const ttf_event *ev)
{
    static const char *const regs[TTF_VALUE_REGS] = {"rdi", "rsi", "rdx",
                                                     "rcx", "r8", "r9"};
    char v[64];
    if (ev->kind == TTF_EV_EXIT) {
        ttf_value_format(v, sizeof v, ev->retval, NULL);
        fprintf(d->out, " = %s", v);
        put_raw_xmm(d, ev);
        return;
    }
    fputs(" [", d->out);
    for (int i = 0; i < TTF_VALUE_REGS; i++) {
        ttf_value_format(v, sizeof v, ev->argregs[i], NULL);
        fprintf(d->out, "%s%s=%s", i ? " " : "", regs[i], v);
    }
    fprintf(d->out, " changed=0x%02x", ev->changed);
    put_raw_xmm(d, ev);
    fputc(']', d->out);
}

/* The values of a call by its signature: "(1, NULL, {x=1, y=2})" after an
 * ENTER (ttf_param_format: "?" for a parameter not recorded), " = -22"
 * after an EXIT (ttf_ret_format; nothing for void); the raw registers
 * without debug info. */
static void put_values(const struct dump *d, const ttf_event *ev)
{
    const ttf_signature *sig = NULL;
    char v[256];

    if (d->o->raw_values || ttf_sym_signature(d->sym, ev, &sig) != 0) {
        put_raw_values(d, ev);
        return;
    }
    if (ev->kind == TTF_EV_EXIT) {
        if (sig->ret.cls == TTF_VC_VOID)
            return;
        ttf_ret_format(v, sizeof v, sig, ev);
        fprintf(d->out, " = %s", v);
        return;
    }
    fputc('(', d->out);
    for (size_t i = 0; i < sig->nparams; i++) {
        ttf_param_format(v, sizeof v, &sig->params[i], ev);
        fprintf(d->out, "%s%s", i ? ", " : "", v);
    }
    fputs(sig->variadic ? (sig->nparams ? ", ...)" : "...)") : ")", d->out);
}

/* --sites: " from caller+0x1a" after an ENTER with a call site (format 1.2): the
 * function holding the call and the return address's offset in it; the
 * module and offset without a symbol table; with --lines also the call's
 * file:line. */
static void put_site(const struct dump *d, const ttf_event *ev)
{
    ttf_site_where w;
    int rc = ttf_sym_site(d->sym, d->t, ev->call_site, &w);

    fputs(" from ", d->out);
    if (rc == 0 && w.caller) {
        put_clean(d->out, w.caller);
        fprintf(d->out, "+0x%" PRIx64, w.caller_offset);
    } else if (rc == 0) {
        put_clean(d->out, ttf_sym_name(d->sym, ev->call_site));
    } else {
        fprintf(d->out, "0x%" PRIx64, ev->call_site);
    }
    if (d->o->lines && rc == 0 && w.file) {
        fputs(" at ", d->out);
        put_clean(d->out, w.file);
        fprintf(d->out, ":%d", w.line);
    }
}

/* ENTER and EXIT; --function may leave them out. */
static void print_call(const struct dump *d, const ttf_event *ev, int depth)
{
    const char *name = ttf_sym_event_name(d->sym, ev);
    int enter = ev->kind == TTF_EV_ENTER;

    if (!func_ok(d, name))
        return;
    line_start(d, ev, depth);
    color_on(d, enter ? "32" : "36");
    fputs(enter ? "> " : "< ", d->out);
    put_clean(d->out, name);
    color_off(d);
    if (ev->has_values)
        put_values(d, ev);
    if (enter && d->o->lines)
        put_where(d, ev);
    if (enter && ev->call_site && d->o->sites)
        put_site(d, ev);
    fputc('\n', d->out);
}

static const char *site_label(const ttf_callsite *cs)
{
    switch (cs ? cs->kind : 0) {
    case TTF_SITE_LOG:
        return "log";
    case TTF_SITE_VALUE:
        return "value";
    case TTF_SITE_RETURN:
        return "return";
    case TTF_SITE_MARK:
        return "mark";
    default:
        return "message";
    }
}

/* MESSAGE and MARK: the call site's function decides --function. */
static void print_message(const struct dump *d, const ttf_event *ev,
                          int depth)
{
    const ttf_callsite *cs = ttf_get_callsite(d->t, ev->site);
    char text[MSG_MAX];

    if ((d->o->filter.function_re || d->o->filter.exclude_re) &&
        !(cs && cs->func && func_ok(d, cs->func)))
        return;
    int n = ttf_format_message(d->t, ev, text, sizeof text);
    if (n < 0)
        snprintf(text, sizeof text, "<bad arguments: %s>", ttf_strerror(n));
    line_start(d, ev, depth);
    color_on(d, ev->kind == TTF_EV_MARK ? "1;33" : "33");
    put_clean(d->out, site_label(cs));
    fputs(": ", d->out);
    put_clean(d->out, text);
    if (n >= (int)sizeof text)
        fputs("...", d->out);
    color_off(d);
    if (d->o->lines && cs && cs->file) {
        fputs(" (", d->out);
        put_clean(d->out, cs->file);
        fprintf(d->out, ":%" PRIu32 ")", cs->line);
    }
    fputc('\n', d->out);
}

/* CRASH, LOST and CUT: always shown, in red. */
static void print_trouble(const struct dump *d, const ttf_event *ev,
                          int depth)
{
    char sig[32];

    line_start(d, ev, depth);
    color_on(d, "1;31");
    if (ev->kind == TTF_EV_CRASH)
        fprintf(d->out, "!! crash: %s (code %d) fault address 0x%" PRIx64,
                ttr_signal_name(ev->signo, sig, sizeof sig), ev->code,
                ev->fault_addr);
    else if (ev->kind == TTF_EV_CUT)
        fputs("!! stream cut: the thread could write no further data", d->out);
    else if (ev->lost_events)
        fprintf(d->out, "!! lost %" PRIu64 " events (%" PRIu64 " bytes)",
                ev->lost_events, ev->lost_bytes);
    else
        fprintf(d->out, "!! lost data here (%" PRIu64 " bytes, events "
                "unknown)", ev->lost_bytes);
    color_off(d);
    fputc('\n', d->out);
}

/* Thread, module and process life events. */
static void print_life(const struct dump *d, const ttf_event *ev, int depth)
{
    const ttf_module *m = NULL;

    line_start(d, ev, depth);
    fprintf(d->out, "-- %s", kind_label(ev->kind));
    switch (ev->kind) {
    case TTF_EV_THREAD_NAME:
        fputc(' ', d->out);
        put_quoted(d->out, ev->text);
        break;
    case TTF_EV_MODULE_LOAD:
    case TTF_EV_MODULE_UNLOAD:
        m = ttf_get_module(d->t, ev->site);
        fprintf(d->out, " 0x%" PRIx64 " ", ev->addr);
        put_clean(d->out, m && m->path ? m->path : "");
        break;
    case TTF_EV_END:
        fprintf(d->out, ": exit status %d", ev->signo);
        break;
    case TTF_EV_EXEC:
        fputc(' ', d->out);
        put_quoted(d->out, ev->text ? ev->text : "");
        if (ev->code)
            fprintf(d->out, " failed: %s", strerror(ev->code));
        break;
    case TTF_EV_VFORK:
        fprintf(d->out, ": child %d ran here until it exec'd or exited (its calls"
                " are not recorded)", ev->code);
        break;
    case TTF_EV_UNWIND:
        fprintf(d->out, " by %s: %" PRIu32 " frame%s left without return",
                ttf_unwind_name(ev->code), ev->unwound, ev->unwound == 1 ? "" : "s");
        break;
    default:
        break;
    }
    fputc('\n', d->out);
}

/* A lock, condition or thread operation (SYNC_OP). */
static void print_sync(const struct dump *d, const ttf_event *ev, int depth)
{
    const char *op = ttf_sync_op_name(ev->code);

    line_start(d, ev, depth);
    color_on(d, "36");
    fprintf(d->out, "~~ %s 0x%" PRIx64, op, ev->addr);
    if (ev->code == TTF_SOP_WAIT)
        fprintf(d->out, " (releases mutex 0x%" PRIx64 ")", (uint64_t)ev->sync_arg);
    else if (ev->code == TTF_SOP_CREATE)
        fprintf(d->out, " (thread #%" PRId64 ")", ev->sync_arg);
    else if ((ev->code == TTF_SOP_TRYLOCK || ev->code == TTF_SOP_WOKE) && ev->sync_arg)
        fprintf(d->out, " (%s)", strerror((int)ev->sync_arg));
    else if (ev->code == TTF_SOP_SLEEP || ev->code > TTF_SOP_SEM_POST)
        fprintf(d->out, " (op %d, arg %" PRId64 ")", ev->code, ev->sync_arg);
    color_off(d);
    fputc('\n', d->out);
}

static void print_event(const struct dump *d, const ttf_event *ev)
{
    int depth = tree_depth(d, ev);

    switch (ev->kind) {
    case TTF_EV_ENTER:
    case TTF_EV_EXIT:
        print_call(d, ev, depth);
        break;
    case TTF_EV_MESSAGE:
    case TTF_EV_MARK:
        print_message(d, ev, depth);
        break;
    case TTF_EV_CRASH:
    case TTF_EV_LOST:
    case TTF_EV_CUT:
        print_trouble(d, ev, depth);
        break;
    case TTF_EV_SYNC_OP:
        print_sync(d, ev, depth);
        break;
    default:
        if (kind_label(ev->kind))
            print_life(d, ev, depth);
        break;
    }
}

/* Stream one thread's events (or all, merged) through fn. */
static void each_event(struct dump *d, uint32_t thread,
                       void (*fn)(struct dump *, const ttf_event *, void *),
                       void *arg)
{
    ttf_iter *it = NULL;
    ttf_event ev;
    int rc = ttf_iter_open(d->t, thread, &it);

    if (rc != 0)
        ttri_cli_die("%s: cannot iterate events: %s", d->o->path, ttf_strerror(rc));
    while ((rc = ttf_iter_next(it, &ev)) == 1) {
        if (thread == TTF_ALL_THREADS &&
            (ev.thread >= d->nthreads || !d->selected[ev.thread]))
            continue;
        fn(d, &ev, arg);
    }
    ttf_iter_close(it);
    if (rc < 0)
        ttri_cli_die("%s: reading events: %s", d->o->path, ttf_strerror(rc));
}

static void print_event_cb(struct dump *d, const ttf_event *ev, void *arg)
{
    (void)arg;
    print_event(d, ev);
}

static void thread_title(const struct dump *d, uint32_t i)
{
    const ttf_thread *th = ttf_get_thread(d->t, i);

    fprintf(d->out, "thread %" PRIu32 " ", i);
    put_quoted(d->out, th->name);
    fprintf(d->out, " (tid %" PRId64 "):\n", th->tid);
}

static void open_sym(struct dump *d)
{
    if (ttf_sym_open(d->t, &d->sym) != 0)
        ttri_cli_die("%s: cannot open symbol resolver: out of memory", d->o->path);
    ttf_sym_set_demangle(d->sym, !d->o->no_demangle);
    for (size_t i = 0; i < ttf_sym_notice_count(d->sym); i++) {
        fputs("ttdump: ", stderr);      /* may name a path from the trace */
        put_clean(stderr, ttf_sym_get_notice(d->sym, i));
        fputc('\n', stderr);
    }
}

static void print_events(struct dump *d)
{
    open_sym(d);
    fprintf(d->out, "events:\n");
    if (d->o->merged) {
        each_event(d, TTF_ALL_THREADS, print_event_cb, NULL);
        return;
    }
    for (uint32_t i = 0; i < d->nthreads; i++) {
        if (!d->selected[i])
            continue;
        thread_title(d, i);
        each_event(d, i, print_event_cb, NULL);
    }
}

/* ---- stats -------------------------------------------------------------- */

/* Count one event; its size is the distance to the next record of the same
 * chunk, so each event's size is settled when the next one arrives. */
struct stat_run {
    struct tstats st;          /* counts so far */
    int prev_kind;             /* kind of the previous event, 0 = none */
    uint64_t prev_offset;      /* its byte offset */
    uint64_t data_offset;      /* the header's: where chunk slots begin */
    uint64_t slot_mask;        /* ~(chunk size - 1): offsets past data_offset
                                  in one slot agree in these bits (the reader
                                  takes only powers of two as chunk sizes) */
};

static void stat_cb(struct dump *d, const ttf_event *ev, void *arg)
{
    struct stat_run *r = arg;
    int kind = ev->kind > 0 && ev->kind < KIND_MAX ? ev->kind : 0;
    uint64_t same = (ev->offset - r->data_offset) ^ (r->prev_offset - r->data_offset);

    (void)d;
    r->st.count[kind]++;
    if (r->prev_kind && ev->offset > r->prev_offset && !(same & r->slot_mask)) {
        r->st.bytes[r->prev_kind] += ev->offset - r->prev_offset;
        r->st.spans[r->prev_kind]++;
    }
    r->prev_kind = kind;
    r->prev_offset = ev->offset;
}

static void print_stats_thread(struct dump *d, uint32_t i)
{
    const ttf_thread *th = ttf_get_thread(d->t, i);
    const ttf_header *h = ttf_get_header(d->t);
    struct stat_run r;
    uint64_t total = 0;

    memset(&r, 0, sizeof r);
    r.data_offset = h->data_offset;
    r.slot_mask = ~(uint64_t)(h->chunk_size ? h->chunk_size - 1 : 0);
    each_event(d, i, stat_cb, &r);
    for (int k = 0; k < KIND_MAX; k++)
        total += r.st.count[k];
    thread_title(d, i);
    fprintf(d->out, "  events %" PRIu64 ", chunks %" PRIu32 ", lost %" PRIu64,
            total, th->chunks, th->lost_events);
    if (gap_word(d))
        fprintf(d->out, ", %s %" PRIu32 " chunks (ring)\n", gap_word(d), th->seq_gaps);
    else
        fprintf(d->out, ", seq gaps %" PRIu32 "\n", th->seq_gaps);
    for (int k = 1; k < KIND_MAX; k++) {
        if (!r.st.count[k])
            continue;
        fprintf(d->out, "  %-14s %12" PRIu64, kind_label(k), r.st.count[k]);
        if (r.st.spans[k])
            fprintf(d->out, "  %.2f bytes/event",
                    (double)r.st.bytes[k] / (double)r.st.spans[k]);
        fputc('\n', d->out);
    }
}

static void print_stats(struct dump *d)
{
    const ttf_summary *s = ttf_get_summary(d->t);

    fprintf(d->out, "stats:\n");
    for (uint32_t i = 0; i < d->nthreads; i++) {
        if (d->selected[i])
            print_stats_thread(d, i);
    }
    fprintf(d->out, "total: %" PRIu64 " events (lost %" PRIu64 "), %" PRIu64
            " data bytes", s->events, s->lost_events, s->data_bytes);
    if (s->events)
        fprintf(d->out, " (%.2f bytes/event)",
                (double)s->data_bytes / (double)s->events);
    fprintf(d->out, ", chunks %" PRIu64 " used of %" PRIu64 ", %" PRIu64
            " damaged", s->chunks_used, s->chunks_total, s->chunks_damaged);
    if (gap_word(d))
        fprintf(d->out, ", %s %" PRIu64 " (ring)", gap_word(d), total_gaps(d));
    fputc('\n', d->out);
    char cut[200];
    if (ttf_cut_text(d->t, cut, sizeof cut))
        fprintf(d->out, "%s\n", cut);
}

/* ---- profile and Chrome JSON (diff/run_profile.c, report/chrome.c) ----- */


static void print_profile(struct dump *d)
{
    ttd_prof_opts po = {d->o->per_thread, d->selected, d->nthreads};
    ttd_prof *p = NULL;
    ttf_error err;

    open_sym(d);
    int rc = ttd_prof_build(d->t, d->sym, &po, &p, &err);
    if (rc < 0)
        ttri_cli_die("%s: profile: %s", d->o->path, err.msg);
    if (d->o->sort)
        ttd_prof_sort(p, d->o->sort);
    ttr_prof_text(d->out, p, d->t, d->o->filter.function_re,
                  d->o->filter.exclude_re);
    ttd_prof_free(p);
}

/* Bytes of Chrome JSON per trace event, measured on the fixtures and on
 * two real programs (75 to 86; names are most of it). */
#define CHROME_BYTES_PER_EVENT 80
#define CHROME_WARN_BYTES (1ull << 30)

/* One stderr line when the export of the selected threads would pass
 * 1 GiB (Perfetto and chrome://tracing give up long before), naming the
 * busiest thread and the filters to use. Not with --function or
 * --exclude: what they keep is not known before the export. */
static void chrome_size_warning(const struct dump *d)
{
    uint64_t events = 0, most = 0;
    size_t busiest = 0, n = 0;
    if (d->o->filter.function_re || d->o->filter.exclude_re)
        return;
    for (size_t i = 0; i < d->nthreads; i++) {
        const ttf_thread *th = ttf_get_thread(d->t, i);
        if (!d->selected[i] || !th)
            continue;
        events += th->events;
        n++;
        if (th->events > most) {
            most = th->events;
            busiest = i;
        }
    }
    if (events * CHROME_BYTES_PER_EVENT <= CHROME_WARN_BYTES)
        return;
    const ttf_thread *b = ttf_get_thread(d->t, busiest);
    fflush(d->out);
    fprintf(stderr, "ttdump: --chrome: about %.1f GB of JSON (%llu events in %zu "
            "thread%s; viewers give up past 1 GB): choose with ",
            (double)(events * CHROME_BYTES_PER_EVENT) / 1e9, (unsigned long long)events,
            n, n == 1 ? "" : "s");
    if (!d->o->filter.thread)
        fprintf(stderr, "--thread %zu (\"%s\": %llu events), ", busiest,
                b && b->name ? b->name : "", (unsigned long long)most);
    fprintf(stderr, "--function REGEX or --exclude REGEX\n");
}

static void print_chrome(struct dump *d)
{
    ttr_chrome_opts co = {0, d->selected, d->nthreads, d->o->filter.function_re,
                          d->o->filter.exclude_re};
    ttf_error err;

    open_sym(d);
    chrome_size_warning(d);
    int rc = ttr_chrome_write(d->out, d->t, d->sym, &co, &err);
    if (rc < 0)
        ttri_cli_die("%s", err.msg[0] ? err.msg : ttf_strerror(rc));
}

/* ---- command line ------------------------------------------------------- */

/* Set a filter option (ttri_cli_filter_set), or exit after its error. */
static void filter_or_die(struct opts *o, const char *flag, const char *value)
{
    if (ttri_cli_filter_set(&o->filter, flag, value, 1) != 0)
        exit(TTRI_CLI_TROUBLE);
}

/* The option getopt just refused: a short one by its letter, else the
 * argument it was in. */
static const char *bad_option(char **argv)
{
    static char letter[3] = "-?";
    const char *arg = argv[optind - 1];

    if (optopt == 0 || strncmp(arg, "--", 2) == 0)
        return arg;
    letter[1] = (char)optopt;
    return letter;
}

static void parse_args(int argc, char **argv, struct opts *o)
{
    static const struct option longs[] = {
        {"merged", no_argument, NULL, 'm'},
        {"thread", required_argument, NULL, 't'},
        {"function", required_argument, NULL, 'f'},
        {"exclude", required_argument, NULL, 'X' + 256},
        {"stats", no_argument, NULL, 's'},
        {"lines", no_argument, NULL, 'l'},
        {"no-header", no_argument, NULL, 'n'},
        {"color", required_argument, NULL, 'C'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {"profile", no_argument, NULL, 'P' + 256},
        {"sort", required_argument, NULL, 'S' + 256},
        {"per-thread", no_argument, NULL, 'T' + 256},
        {"chrome", no_argument, NULL, 'J' + 256},
        {"no-demangle", no_argument, NULL, 'D' + 256},
        {"exe", required_argument, NULL, 'E' + 256},
        {"debug-dir", required_argument, NULL, 'G' + 256},
        {"raw-values", no_argument, NULL, 'R' + 256},
        {"sites", no_argument, NULL, 'W' + 256},
        {"races", no_argument, NULL, 'Q' + 256},
        {"value-table", required_argument, NULL, 'V' + 256},
        {NULL, 0, NULL, 0},
    };
    const char *color = "auto";
    int c;

    opterr = 0;
    while ((c = getopt_long(argc, argv, ":mt:f:slnhV", longs, NULL)) != -1) {
        switch (c) {
        case 'm': o->merged = 1; break;
        case 't': filter_or_die(o, "--thread", optarg); break;
        case 'f': filter_or_die(o, "--function", optarg); break;
        case 'X' + 256: filter_or_die(o, "--exclude", optarg); break;
        case 's': o->stats = 1; break;
        case 'l': o->lines = 1; break;
        case 'W' + 256: o->sites = 1; break;
        case 'n': o->header = 0; break;
        case 'C': color = optarg; break;
        case 'P' + 256: o->profile = 1; break;
        case 'S' + 256: o->sort = ttd_prof_column(optarg);
                        if (o->sort < 0 || o->sort == TTD_PROF_THREAD)
                            ttri_cli_die("--sort: '%s' is not total, self, calls, min, "
                                "avg, max, never or name", optarg);
                        break;
        case 'T' + 256: o->per_thread = 1; break;
        case 'J' + 256: o->chrome = 1; break;
        case 'D' + 256: o->no_demangle = 1; break;
        case 'E' + 256: if (ttri_cli_sym_option("--exe", optarg)) exit(TTRI_CLI_TROUBLE);
                        break;
        case 'G' + 256: if (ttri_cli_sym_option("--debug-dir", optarg))
                            exit(TTRI_CLI_TROUBLE);
                        break;
        case 'R' + 256: o->raw_values = 1; break;
        case 'Q' + 256: o->races = 1; break;
        case 'V' + 256: o->value_table = optarg; break;
        case 'h': ttri_cli_help(usage_text);
        case 'V': ttri_cli_version();
        case ':': ttri_cli_die("%s needs a value", bad_option(argv));
        default:  ttri_cli_die("unknown option '%s' (see ttdump --help)",
                               bad_option(argv));
        }
    }
    if (optind >= argc)
        ttri_cli_die("no trace file given: ttdump [options] TRACE.trc (see ttdump --help)");
    if (optind + 1 < argc)
        ttri_cli_die("%s: one trace file only (see ttdump --help)", argv[optind + 1]);
    o->path = argv[optind];
    if (o->chrome + o->profile + o->stats + o->races > 1)
        ttri_cli_die("--chrome, --profile, --stats and --races go one at a time");
    if ((o->sort || o->per_thread) && !o->profile)
        ttri_cli_die("--sort and --per-thread go with --profile");
    int mode;
    if (ttri_cli_color_mode(color, &mode) != 0)
        exit(TTRI_CLI_TROUBLE);
    o->color = ttri_cli_use_color(mode, stdout);
    if (ttri_cli_sym_apply() != 0)
        exit(TTRI_CLI_TROUBLE);
}

/* --races: the run's races alone (libttdiff, diff/races.c), best first,
 * each with both threads' stacks. */
static void print_races(struct dump *d)
{
    ttd_options opts;
    ttd_races *r = NULL;
    ttf_error err;
    size_t n;

    ttd_options_init(&opts);
    opts.no_demangle = d->o->no_demangle;
    if (ttd_races_find(d->t, &opts, &r, &err) < 0)
        ttri_cli_die("%s: races: %s", d->o->path, err.msg[0] ? err.msg : "failed");
    const ttd_race *v = ttd_races_list(r, &n);
    if (!(ttf_get_header(d->t)->optional_features & TTF_HEADER_SYNC))
        fputs("races: none looked for (no lock operations recorded: TTCAP_SYNC=0?)\n", d->out);
    else
        fprintf(d->out, "races (no good run to compare with: candidates, ranked; %zu "
                "found):\n", n);
    for (size_t i = 0; i < n; i++) {
        fprintf(d->out, "  %zu. ", i + 1);
        ttf_put_text(d->out, v[i].text);
        fputc('\n', d->out);
        for (int k = 0; k < 2; k++) {
            fputs("     ", d->out);
            ttf_put_text(d->out, v[i].thread_name[k]);
            fputc(':', d->out);
            for (size_t j = 0; j < v[i].nstacks[k]; j++) {
                fputs(j ? " > " : " ", d->out);
                ttf_put_text(d->out, v[i].stacks[k][j]);
            }
            fputc('\n', d->out);
        }
    }
    ttd_races_free(r);
}

/* --value-table OUT: the string parameters of the ELF file elf's functions
 * (libttfmt's ttf_value_table) in the layout libttcap reads from a
 * program's .ttcap.vt section (capture/cap_vtab.c): "TTVT", u32 version 1,
 * u32 n, u32 entry size 16, then n x {u64 addr, u8 cstr, u8 sstr, u8
 * flags, 5 x 0}, little-endian. Only functions with a string parameter;
 * nothing is written when there is none (or no debug info). */
static void put_le(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static int write_value_table(const char *elf, const char *out)
{
    ttf_vt_entry *e = NULL;
    size_t n = 0, k = 0;
    int rc = ttf_value_table(elf, &e, &n);
    if (rc == TT_ENOTFOUND)
        return 0;
    if (rc < 0)
        ttri_cli_die("%s: cannot read its functions: %s", elf, ttf_strerror(rc));
    for (size_t i = 0; i < n; i++)
        if (e[i].cstr | e[i].sstr)
            e[k++] = e[i];
    if (k == 0 || k > UINT32_MAX / 16) {
        free(e);
        return 0;
    }
    FILE *f = fopen(out, "wb");
    if (!f)
        ttri_cli_die("%s: cannot create: %s", out, strerror(errno));
    uint8_t h[16] = {'T', 'T', 'V', 'T', 1, 0, 0, 0};
    put_le(h + 8, k, 4);
    put_le(h + 12, 16, 4);
    fwrite(h, 1, sizeof h, f);
    for (size_t i = 0; i < k; i++) {
        uint8_t r[16] = {0};
        put_le(r, e[i].addr, 8);
        r[8] = e[i].cstr;
        r[9] = e[i].sstr;
        r[10] = e[i].flags;
        fwrite(r, 1, sizeof r, f);
    }
    free(e);
    if (fclose(f) != 0)
        ttri_cli_die("%s: write error", out);
    return 0;
}

/* Mark the threads --thread selects; selecting none is an error. */
static void select_threads(struct dump *d)
{
    const struct opts *o = d->o;
    size_t n = 0;

    for (size_t i = 0; i < d->nthreads; i++) {
        const ttf_thread *th = ttf_get_thread(d->t, i);
        d->selected[i] = (char)ttd_thread_match(o->filter.thread,
            o->filter.thread_re, (uint32_t)i, th->name, th->first_name);
        n += d->selected[i] != 0;
    }
    if (o->filter.thread && n == 0)
        ttri_cli_die("--thread '%s': no such thread in %s (%zu threads)",
            o->filter.thread, o->path, d->nthreads);
}

static void open_trace(struct dump *d)
{
    ttf_error err;

    memset(&err, 0, sizeof err);
    int rc = ttf_open(d->o->path, &d->t, &err);
    if (rc != 0 && err.msg[0])
        ttri_cli_die("%s", err.msg);
    if (rc != 0)
        ttri_cli_die("%s: %s", d->o->path, ttf_strerror(rc));
    d->nthreads = ttf_thread_count(d->t);
    d->selected = calloc(d->nthreads + 1, 1);
    d->stacks = calloc(d->nthreads + 1, sizeof *d->stacks);
    if (!d->selected || !d->stacks)
        ttri_cli_die("%s: out of memory", d->o->path);
    select_threads(d);
}

int main(int argc, char **argv)
{
    static char outbuf[1 << 16];
    struct opts o = {.header = 1};
    struct dump d = {.o = &o, .out = stdout};

    ttri_cli_init("ttdump");
    parse_args(argc, argv, &o);
    if (o.value_table)
        return write_value_table(o.path, o.value_table);
    setvbuf(stdout, outbuf, _IOFBF, sizeof outbuf);
    open_trace(&d);
    if (o.header && !o.chrome && !o.races)
        print_sections(&d);
    if (o.chrome)
        print_chrome(&d);
    else if (o.races)
        print_races(&d);
    else if (o.profile)
        print_profile(&d);
    else if (o.stats)
        print_stats(&d);
    else
        print_events(&d);
    if (fflush(stdout) != 0 || ferror(stdout))
        ttri_cli_die("stdout: write error");
    if (ttf_sym_status(d.sym) < 0)  /* a name or notice printed as "?" */
        ttri_cli_die("out of memory");
    if (o.filter.function_re && !func_hits && !o.chrome && !o.profile && !o.stats && !o.races)
        ttri_cli_die("--function '%s': no function matches in %s", o.filter.function,
                     o.path);
    ttf_sym_close(d.sym);
    ttf_close(d.t);
    ttri_cli_filter_free(&o.filter);
    free(d.selected);
    for (size_t i = 0; d.stacks && i <= d.nthreads; i++) {
        free(d.stacks[i].key);
        free(d.stacks[i].sel);
    }
    free(d.stacks);
    return 0;
}
