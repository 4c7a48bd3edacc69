/*
 * ttdiff.c - the ttdiff command: parse options, run the engine, render.
 * Exit status like diff(1): 0 no divergence, 1 divergence, 2 trouble (a
 * one-line "ttdiff: ..." message on stderr). Errors, colour, filters,
 * --help and --version go through the shared cli.c.
 * Stage 2 commands of report/cmd/STAGES.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "ttdiff_gdb.h"

static const char usage[] =
    "usage: ttdiff [options] [--baseline GOOD2.trc ...] GOOD.trc BAD.trc\n"
    "       ttdiff [options] GOOD_DIR BAD_DIR\n"
    "Align two traces of a program per thread and show where they diverge; or\n"
    "pair the processes of two recorded trees (ttrec -o DIR/) and report the\n"
    "first diverging process, with its path from the root.\n"
    "\n"
    "  -t, --thread REGEX  only threads whose name (or first name) matches; a\n"
    "                      whole number N selects thread N (creation order)\n"
    "  -f, --function REGEX  keep only functions matching REGEX (PCRE2)\n"
    "  --exclude REGEX     drop functions matching REGEX\n"
    "  --context N         common events shown before the divergence (5)\n"
    "  --all               list every further divergence, not only the first few\n"
    "  --order-rows N      rows of the thread-order block shown (8; 0 = all the\n"
    "                      engine kept, 24 per run); the block only appears when\n"
    "                      two threads used one lock or object near the split\n"
    "  --messages MODE     site (default), text or off: how messages compare\n"
    "  --minimal           exact alignment, no cost cap (slower on big changes)\n"
    "  --flat              align the flat event sequences instead of the call\n"
    "                      trees (hunks may then cut across calls)\n"
    "  --first-only        only the first divergence of each thread pair, read\n"
    "                      no further than the call that holds it\n"
    "  --jobs N            threads reading the two traces: 2 (default; each\n"
    "                      trace opened, sketched and aligned by its own) or\n"
    "                      1; the report is the same\n"
    "  --suspects N        functions ranked as suspects of the first divergence (3):\n"
    "                      calls that returned just before the split, and the\n"
    "                      frame whose calls differ; 0 for none\n"
    "  --baseline FILE     another good run (repeatable): differences that also\n"
    "                      occur between the good runs (there, or in the same\n"
    "                      calls anywhere) are expected variation, listed\n"
    "                      apart and never the first divergence\n"
    "  --bad-failed HOW    the bad run is known to have failed, as HOW says (ttrec\n"
    "                      --until-fail passes it): the runs then always differ,\n"
    "                      in their outcome at least, and exit status is 1\n"
    "  --pair good#N=bad#M pair thread N of the good run with thread M of the\n"
    "                      bad run (repeatable; numbers as in the threads table);\n"
    "                      other threads pair by name, start function, then by\n"
    "                      what they did when those tie\n"
    "  --collapse-loops    show loop count changes as xN vs xM: a group of up to\n"
    "                      8 sibling calls repeated back to back is one item with\n"
    "                      a count, iteration k aligned with iteration k\n"
    "  --format FMT        text (default), json, or html (one self-contained page)\n"
    "  --no-demangle       show and compare C++ function names mangled\n"
    "  --demangle=full     C++ names whole in text and HTML (default short:\n"
    "                      std::string, std::vector<T>, deep templates as ...;\n"
    "                      JSON always has them whole)\n"
    "  --exe FILE          symbols from FILE for the module with its build-id\n"
    "                      (a program rebuilt or moved since; repeatable)\n"
    "  --debug-dir DIR     look for modules by build-id in DIR/.build-id\n"
    "                      (repeatable; each trace's folder is always searched)\n"
    "  --no-values         ignore recorded call values (-pg -mfentry builds):\n"
    "                      no value divergence, suspects ranked without them\n"
    "  --ignore-call-sites calls of one function align whatever place they\n"
    "                      were called from (by default, when both traces\n"
    "                      recorded call sites, a call from another line is\n"
    "                      another event)\n"
    "  --profile           compare per-function profiles instead: calls and\n"
    "                      times side by side, bad - good, largest change first\n"
    "                      (text or json; exit 1 if call counts differ or a\n"
    "                      function is in one run only); --thread, --function\n"
    "                      and --exclude choose the threads and functions\n"
    "  --sort COL          --profile order: total (default), self, calls, avg\n"
    "  -o FILE             write the report to FILE (created 0600; never through\n"
    "                      a symbolic link)\n"
    "  --force             let -o and --gdb replace an existing file\n"
    "  --gdb FILE          also write a gdb script to FILE that runs the bad run's\n"
    "                      command line and stops at the first divergence: in its\n"
    "                      thread, at the entry of the diverging frame (gdb -x FILE,\n"
    "                      from the folder the bad run started in); with two trees\n"
    "                      it starts the first diverging process (its program, argv,\n"
    "                      working folder and environment as recorded; a forked\n"
    "                      worker through its parent, following the fork)\n"
    "  --process P         trees: only process pairs whose name (\"exe args\")\n"
    "                      matches regex P, or the one numbered P (as listed)\n"
    "  --color WHEN        auto (default: on a terminal, unless NO_COLOR), always, never\n"
    "  -h, --help          this help\n"
    "  -V, --version       print the version\n"
    "\n"
    "Exit status: 0 no divergence, 1 divergence found, 2 trouble.\n";

/* What the command line asked for. */
typedef struct cli {
    ttd_options o;          /* engine options */
    ttr_options r;          /* renderer options */
    int json;               /* --format: 0 text, 1 json, 2 html */
    int color;              /* TTRI_CLI_COLOR_* */
    ttri_cli_filter filter;  /* --thread, --function, --exclude */
    const char *out;        /* -o FILE, NULL = stdout */
    int force;              /* --force: -o may replace a file */
    const char *gdb;        /* --gdb FILE, NULL = none */
    const char *process;    /* --process P (trees) */
    const char *files[2];   /* GOOD, BAD */
    int profile;            /* 1: --profile */
    int sort;               /* --sort column (TTD_PROF_*), 0 = total */
    int sort_given;         /* 1: --sort was given */
    const char **base;      /* --baseline files (argv strings) */
    size_t nbase;
    ttd_hand_pair *pairs;   /* --pair */
    size_t npairs;
} cli;

/* "good#N=bad#M" (the "good"/"bad" words and '#' optional: "N=M"). */
static int parse_pair(const char *s, ttd_hand_pair *out)
{
    unsigned long v[2];
    char *end;

    for (int k = 0; k < 2; k++) {
        const char *word = k ? "bad" : "good";
        if (!strncmp(s, word, strlen(word)))
            s += strlen(word);
        if (*s == '#')
            s++;
        if (*s < '0' || *s > '9')
            return -1;
        errno = 0;
        v[k] = strtoul(s, &end, 10);
        if (errno || v[k] > UINT32_MAX || *end != (k ? '\0' : '='))
            return -1;
        s = end + 1;
    }
    out->good = (uint32_t)v[0];
    out->bad = (uint32_t)v[1];
    return 0;
}

static int option(cli *c, int argc, char **argv, int *i)
{
    static const char *const with_value[] = {"--context", "--order-rows", "--messages",
        "--format", "--color", "-o", "--sort", "--suspects", "--baseline", "--pair",
        "--exe", "--debug-dir", "--gdb", "--bad-failed", "--process", "--jobs"};
    const char *a = argv[*i], *v = NULL, *name = NULL;

    int rc = ttri_cli_filter_arg(&c->filter, argc, argv, i, 1);
    if (rc)
        return rc == 1 ? 0 : rc;
    for (size_t k = 0; k < sizeof with_value / sizeof *with_value && !name; k++)
        if (ttri_cli_is(a, with_value[k]))
            name = with_value[k];
    if (!name)
        return ttri_cli_fail("unknown option '%s' (see ttdiff --help)", a);
    if (!(v = ttri_cli_value(argc, argv, i, name)))
        return ttri_cli_fail("%s needs a value", name);
    if (!strcmp(name, "--suspects"))
        return ttri_cli_uint("--suspects", v, &c->o.suspects);
    if (!strcmp(name, "--context"))
        return ttri_cli_uint("--context", v, &c->o.context);
    if (!strcmp(name, "--jobs")) {
        unsigned j;
        int r = ttri_cli_uint("--jobs", v, &j);
        if (r)
            return r;
        if (j < 1 || j > 2)
            return ttri_cli_fail("--jobs: '%s' is not 1 or 2", v);
        c->o.jobs = (int)j;
        return 0;
    }
    if (!strcmp(name, "--order-rows"))
        return ttri_cli_uint("--order-rows", v, &c->r.order_rows);
    if (!strcmp(name, "--color"))
        return ttri_cli_color_mode(v, &c->color);
    if (!strcmp(name, "--exe") || !strcmp(name, "--debug-dir"))
        return ttri_cli_sym_option(name, v);
    if (!strcmp(name, "--baseline")) {
        c->base[c->nbase++] = v;
    } else if (!strcmp(name, "--bad-failed")) {
        c->o.bad_failed = v;
    } else if (!strcmp(name, "--pair")) {
        if (parse_pair(v, &c->pairs[c->npairs]) < 0)
            return ttri_cli_fail("--pair: '%s' is not good#N=bad#M", v);
        c->npairs++;
    } else if (!strcmp(name, "--messages")) {
        int m = !strcmp(v, "site") ? TTD_MSG_SITE : !strcmp(v, "text") ? TTD_MSG_TEXT
              : !strcmp(v, "off") ? TTD_MSG_OFF : -1;
        if (m < 0)
            return ttri_cli_fail("--messages: '%s' is not site, text or off", v);
        c->o.messages = m;
    } else if (!strcmp(name, "--format")) {
        if (strcmp(v, "text") && strcmp(v, "json") && strcmp(v, "html"))
            return ttri_cli_fail("--format: '%s' is not text, json or html", v);
        c->json = !strcmp(v, "json") ? 1 : !strcmp(v, "html") ? 2 : 0;
    } else if (!strcmp(name, "--gdb")) {
        c->gdb = v;
    } else if (!strcmp(name, "--process")) {
        c->process = v;
    } else if (!strcmp(name, "--sort")) {
        c->sort = ttd_prof_column(v);
        c->sort_given = 1;
        if (c->sort != TTD_PROF_TOTAL && c->sort != TTD_PROF_SELF &&
            c->sort != TTD_PROF_CALLS && c->sort != TTD_PROF_AVG)
            return ttri_cli_fail("--sort: '%s' is not total, self, calls or avg", v);
    } else {
        c->out = v;
    }
    return 0;
}

/* 0 to go on, 2 on a usage error, 3 for --help, 4 for --version. */
static int parse(cli *c, int argc, char **argv)
{
    int nfiles = 0, rest = 0;

    memset(c, 0, sizeof *c);
    ttd_options_init(&c->o);
    if (!(c->base = calloc((size_t)argc + 1, sizeof *c->base)) ||
        !(c->pairs = calloc((size_t)argc + 1, sizeof *c->pairs)))
        return ttri_cli_fail("out of memory");
    ttr_options_init(&c->r);
    c->color = TTRI_CLI_COLOR_AUTO;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc = 0;
        if (rest || a[0] != '-' || !a[1]) {
            if (nfiles == 2)
                return ttri_cli_fail("too many files: '%s' (want GOOD.trc BAD.trc)", a);
            c->files[nfiles++] = a;
        } else if (!strcmp(a, "--")) {
            rest = 1;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            return 3;
        } else if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
            return 4;
        } else if ((!strcmp(a, "-t") || !strcmp(a, "-f")) && i + 1 < argc) {
            rc = ttri_cli_filter_set(&c->filter, a[1] == 't' ? "--thread" : "--function",
                                     argv[++i], 1);
        } else if (!strcmp(a, "--all")) {
            c->o.max_hunks = 0;
            c->r.all = 1;
        } else if (!strcmp(a, "--force")) {
            c->force = 1;
        } else if (!strcmp(a, "--minimal")) {
            c->o.minimal = 1;
        } else if (!strcmp(a, "--flat")) {
            c->o.flat = 1;
        } else if (!strcmp(a, "--first-only")) {
            c->o.first_only = 1;
        } else if (!strcmp(a, "--collapse-loops")) {
            c->o.collapse_loops = 1;
        } else if (!strcmp(a, "--profile")) {
            c->profile = 1;
        } else if (!strcmp(a, "--no-demangle")) {
            c->o.no_demangle = 1;
        } else if (!strcmp(a, "--demangle=full")) {
            c->r.full_names = 1;
        } else if (!strcmp(a, "--demangle=short")) {
            c->r.full_names = 0;
        } else if (!strcmp(a, "--ignore-call-sites")) {
            c->o.ignore_call_sites = 1;
        } else if (!strcmp(a, "--no-values")) {
            c->o.no_values = 1;
        } else {
            rc = option(c, argc, argv, &i);
        }
        if (rc)
            return rc;
    }
    if (nfiles < 2)
        return ttri_cli_fail("need two traces: GOOD.trc BAD.trc (see ttdiff --help)");
    if (c->sort_given && !c->profile)
        return ttri_cli_fail("--sort goes with --profile");
    /* a file that cannot be written fails now, not after the whole diff */
    if (c->out && ttri_cli_can_create(c->out, c->force, "--force"))
        return TTRI_CLI_TROUBLE;
    if (c->gdb && ttri_cli_can_create(c->gdb, c->force, "--force"))
        return TTRI_CLI_TROUBLE;
    if (ttri_cli_sym_apply() != 0)
        return TTRI_CLI_TROUBLE;
    c->o.thread = c->filter.thread;
    c->o.function = c->filter.function;
    c->o.exclude = c->filter.exclude;
    c->o.baselines = c->base;
    c->o.nbaselines = c->nbase;
    c->o.pairs = c->pairs;
    c->o.npairs = c->npairs;
    return 0;
}

/* The end of a command that wrote to out, stdout or -o's report (rep): the
 * answer (0 or 1) when all was written, else an error line and 2. The
 * report is kept only with an answer of 0 or 1 (issue #37.3: a failed,
 * killed or empty run leaves nothing under its name). rc: the renderer's
 * result, werr: errno after it failed. */
static int end_output(const cli *c, FILE *out, ttri_cli_report *rep, int rc, int werr,
                      int answer)
{
    if (out == stdout) {
        if (fflush(out) != 0 && rc == 0)
            rc = TT_EIO;
        return rc < 0 ? ttri_cli_fail("output: %s", ttf_strerror(rc)) : answer;
    }
    if (rc < 0 && rc != TT_EIO) {
        ttri_cli_report_close(rep, 0, 0);
        return ttri_cli_fail("%s: %s", c->out, ttf_strerror(rc));
    }
    if (ttri_cli_report_close(rep, rc >= 0 && answer <= 1,
                              rc == TT_EIO ? (werr ? werr : EIO) : 0) != 0)
        return TTRI_CLI_TROUBLE;
    return answer;
}

/* ttdiff --profile: 0 same functions and call counts, 1 not, 2 trouble. */
static int profile_main(cli *c)
{
    ttd_profile *p = NULL;
    ttf_error err;
    FILE *out = stdout;
    ttri_cli_report rep;

    if (c->json == 2)
        return ttri_cli_fail("--profile: --format html is not supported (text or json)");
    memset(&err, 0, sizeof err);
    int rc = ttd_profile_diff_files(c->files[0], c->files[1], &c->o, c->sort,
                                    &p, &err);
    if (rc < 0)
        return ttri_cli_fail("%s", err.msg[0] ? err.msg : ttf_strerror(rc));
    if (c->out && !(out = ttri_cli_report_open(&rep, c->out, c->force, "--force"))) {
        ttd_profile_free(p);
        return TTRI_CLI_TROUBLE;
    }
    c->r.color = ttri_cli_use_color(c->color, out);
    rc = c->json ? ttr_profile_json(out, p, &c->r) : ttr_profile_text(out, p, &c->r);
    int werr = rc < 0 ? errno : 0;
    int changed = ttd_profile_get_result(p)->changed > 0;
    ttd_profile_free(p);
    return end_output(c, out, &rep, rc, werr, changed);
}

/* A --thread or --function that matches nothing is a mistake (a typo
 * would read as "identical"): 0, or an error line and TTRI_CLI_TROUBLE. */
static int filters_matched(const cli *c, const ttd_result *r)
{
    uint64_t events = 0;
    if (c->o.thread && !r->npairs && !r->nunpaired)
        return ttri_cli_fail("--thread '%s': no thread matches in %s or %s", c->o.thread,
                             c->files[0], c->files[1]);
    for (size_t i = 0; i < r->npairs; i++)
        events += r->pairs[i].good.events + r->pairs[i].bad.events;
    for (size_t i = 0; i < r->nunpaired; i++)
        events += r->unpaired[i].thread.events;
    if (c->o.function && !events)
        return ttri_cli_fail("--function '%s': no function matches in %s or %s%s",
                             c->o.function, c->files[0], c->files[1],
                             c->o.thread ? " (threads chosen by --thread)" : "");
    return 0;
}

/* Threads without a partner that count: not a pool's extra worker whose
 * work the other run's workers did (ttd_unpaired.grew). */
static size_t lone_threads(const ttd_result *res)
{
    size_t n = 0;

    for (size_t i = 0; i < res->nunpaired; i++)
        n += !res->unpaired[i].grew;
    return n;
}

/* The diff of the two traces c names, rendered: 0, 1 or 2 as main. */
static int diff_main(cli *c)
{
    ttd_diff *d = NULL;
    ttf_error err;
    FILE *out = stdout;
    ttri_cli_report rep;

    int rc = ttd_diff_files(c->files[0], c->files[1], &c->o, &d, &err);
    if (rc < 0)
        return ttri_cli_fail("%s", err.msg[0] ? err.msg : ttf_strerror(rc));
    if (c->out && !(out = ttri_cli_report_open(&rep, c->out, c->force, "--force"))) {
        ttd_free(d);
        return TTRI_CLI_TROUBLE;
    }
    const ttd_result *res = ttd_get_result(d);
    if ((rc = filters_matched(c, res)) != 0) {
        ttd_free(d);
        if (out != stdout)
            ttri_cli_report_close(&rep, 0, 0);
        return rc;
    }
    if (res->program != TTD_PROGRAM_SAME)
        fprintf(stderr, "ttdiff: warning: %s: %s and %s; diffing by function name\n",
                res->program == TTD_PROGRAM_OTHER ? "different programs"
                                                  : "two builds (other build-ids)",
                res->runs[TTD_GOOD].exe, res->runs[TTD_BAD].exe);
    c->r.color = ttri_cli_use_color(c->color, out);
    rc = c->json == 2 ? ttr_html(out, d, &c->r)
       : c->json ? ttr_json(out, d, &c->r) : ttr_text(out, d, &c->r);
    int werr = rc < 0 ? errno : 0;
    int diverged = res->diverged || lone_threads(res) > 0;
    if (rc >= 0)
        rc = ttd_status(d);  /* a name or detail lost for want of memory */
    int grc = rc >= 0 && c->gdb ? ttri_gdb_script(c->gdb, res, !c->o.no_demangle, c->force) : 0;
    ttd_free(d);
    if ((rc = end_output(c, out, &rep, rc, werr, grc ? grc : diverged)) > 1)
        return rc;
    if (c->gdb)
        fprintf(stderr, "ttdiff: gdb script in %s (gdb -x %s)\n", c->gdb, c->gdb);
    return diverged ? 1 : 0;
}

/* 1 when path is a folder (a recorded tree, ttrec -o DIR/). */
static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* --gdb with two trees: the script for the process the report shows when
 * its calls diverge (the first diverging process, or --process's). 0, or
 * an error line and TTRI_CLI_TROUBLE. */
static int tree_gdb(cli *c, ttd_tree *t)
{
    const ttd_tree_result *r = ttd_tree_get(t);
    ttd_diff *d = ttd_tree_pair_diff(t);
    if (r->shown < 0 || !d || r->procs[r->shown].result != TTD_PROC_DIVERGED)
        return ttri_cli_fail("--gdb: no process's calls diverge%s: nothing to stop at",
                             r->first >= 0 ? " (the processes differ in their ends or "
                             "presence only)" : "");
    const ttd_tree_proc *p = &r->procs[r->shown];
    return ttri_gdb_script_proc(c->gdb, ttd_get_result(d), p->row[TTD_BAD], r->shown,
                                p->name, r->dir[TTD_BAD], !c->o.no_demangle, c->force);
}

/* ttdiff GOOD_DIR BAD_DIR: the process trees compared; 0, 1 or 2. */
static int tree_main(cli *c)
{
    ttd_tree *t = NULL;
    ttf_error err;
    FILE *out = stdout;
    ttri_cli_report rep;
    ttd_tree_options to = {&c->o, c->process, -1, c->process != NULL};

    memset(&err, 0, sizeof err);
    if (c->nbase || c->profile)
        return ttri_cli_fail("process trees: --baseline and --profile do not apply (yet)");
    if (!is_dir(c->files[0]) || !is_dir(c->files[1]))
        return ttri_cli_fail("%s is a folder and %s is not: compare two trees (ttrec "
                             "-o DIR/) or two traces", is_dir(c->files[0]) ? c->files[0]
                             : c->files[1], is_dir(c->files[0]) ? c->files[1] : c->files[0]);
    if (c->process && c->process[0] && strspn(c->process, "0123456789") == strlen(c->process))
        to.process_index = strtoll(c->process, NULL, 10);
    int rc = ttd_tree_diff(c->files[0], c->files[1], &to, &t, &err);
    if (rc < 0)
        return ttri_cli_fail("%s", err.msg[0] ? err.msg : ttf_strerror(rc));
    if (c->out && !(out = ttri_cli_report_open(&rep, c->out, c->force, "--force"))) {
        ttd_tree_free(t);
        return TTRI_CLI_TROUBLE;
    }
    c->r.color = ttri_cli_use_color(c->color, out);
    const ttd_tree_result *r = ttd_tree_get(t);
    rc = c->json == 2 ? ttr_tree_html(out, t, &c->r)
       : c->json ? ttr_tree_json(out, t, &c->r) : ttr_tree_text(out, t, &c->r);
    int werr = rc < 0 ? errno : 0;
    int diverged = r->first >= 0;
    int grc = rc >= 0 && c->gdb ? tree_gdb(c, t) : 0;
    ttd_tree_free(t);
    if ((rc = end_output(c, out, &rep, rc, werr, grc ? grc : diverged)) > 1)
        return rc;
    if (c->gdb)
        fprintf(stderr, "ttdiff: gdb script in %s (gdb -x %s)\n", c->gdb, c->gdb);
    return diverged ? 1 : 0;
}

int main(int argc, char **argv)
{
    cli c;

    ttri_cli_init("ttdiff");
    int rc = parse(&c, argc, argv);
    if (rc == 0 && c.profile && (c.nbase || c.o.collapse_loops || c.gdb))
        rc = ttri_cli_fail("--profile: --baseline, --collapse-loops and --gdb do not apply");
    else if (rc == 0 && (is_dir(c.files[0]) || is_dir(c.files[1])))
        rc = tree_main(&c);
    else if (rc == 0)
        rc = c.profile ? profile_main(&c) : diff_main(&c);
    free(c.base);
    free(c.pairs);
    ttri_cli_filter_free(&c.filter);
    if (rc == 3)
        ttri_cli_help(usage);
    if (rc == 4)
        ttri_cli_version();
    return rc;
}
