/*
 * ttdiff.c - the ttdiff command: parse options, run the engine, render.
 * Exit status like diff(1): 0 no divergence, 1 divergence, 2 trouble (a
 * one-line "ttdiff: ..." message on stderr).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ttdiff.h"
#include "ttreport.h"

static const char usage[] =
    "usage: ttdiff [options] [--baseline GOOD2.trc ...] GOOD.trc BAD.trc\n"
    "Align two traces of a program per thread and show where they diverge.\n"
    "\n"
    "  --thread REGEX      only threads whose name or creation number matches\n"
    "  --function REGEX    keep only functions matching REGEX (PCRE2)\n"
    "  --exclude REGEX     drop functions matching REGEX\n"
    "  --context N         common events shown before the divergence (5)\n"
    "  --all               list every further divergence, not only the first few\n"
    "  --messages MODE     site (default), text or off: how messages compare\n"
    "  --minimal           exact alignment, no cost cap (slower on big changes)\n"
    "  --suspects N        functions ranked as suspects of the first divergence (3):\n"
    "                      calls that returned just before the split, and the\n"
    "                      frame whose calls differ; 0 for none\n"
    "  --baseline FILE     another good run (repeatable): differences that also\n"
    "                      occur between the good runs are expected variation,\n"
    "                      listed apart and never the first divergence\n"
    "  --collapse-loops    align a run of identical repeated call subtrees as one\n"
    "                      item with a count; a count change shows as xN vs xM\n"
    "  --format FMT        text (default), json, or html (one self-contained page)\n"
    "  --no-demangle       show and compare C++ function names mangled\n"
    "  --no-values         ignore recorded call values (-pg -mfentry builds):\n"
    "                      no value divergence, suspects ranked without them\n"
    "  --profile           compare per-function profiles instead: calls and\n"
    "                      times side by side, bad - good, largest change first\n"
    "                      (text or json; exit 1 if call counts differ or a\n"
    "                      function is in one run only); --thread, --function\n"
    "                      and --exclude choose the threads and functions\n"
    "  --sort COL          --profile order: total (default), self, calls, avg\n"
    "  -o FILE             write the report to FILE\n"
    "  --color WHEN        auto (default: on a terminal, unless NO_COLOR), always, never\n"
    "  -h, --help          this help\n"
    "  --version           print the version\n"
    "\n"
    "Exit status: 0 no divergence, 1 divergence found, 2 trouble.\n";

/* What the command line asked for. */
typedef struct cli {
    ttd_options o;          /* engine options */
    ttr_options r;          /* renderer options */
    int json;               /* --format: 0 text, 1 json, 2 html */
    int color;              /* -1 auto, 0 never, 1 always */
    const char *out;        /* -o FILE, NULL = stdout */
    const char *files[2];   /* GOOD, BAD */
    int profile;            /* 1: --profile */
    int sort;               /* --sort column (TTF_PROF_*), 0 = total */
    const char **base;      /* --baseline files (argv strings) */
    size_t nbase;
} cli;

static int fail(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "ttdiff: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return 2;
}

static int parse_uint(const char *s, unsigned *out)
{
    char *end;

    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (!*s || *end || errno || v > UINT_MAX || s[0] == '-')
        return -1;
    *out = (unsigned)v;
    return 0;
}

/* Check a regex now, so a bad one is reported before any trace is read. */
static int check_regex(const char *flag, const char *pattern)
{
    ttf_regex *re;
    ttf_error e;

    if (ttf_regex_compile(pattern, &re, &e) < 0)
        return fail("%s: %s", flag, e.msg);
    ttf_regex_free(re);
    return 0;
}

/* The value of an option: "--opt=value" or the next argument. */
static const char *value(int argc, char **argv, int *i, const char *name)
{
    size_t n = strlen(name);
    const char *a = argv[*i];

    if (a[n] == '=')
        return a + n + 1;
    if (*i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

static int matches(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

static int option(cli *c, int argc, char **argv, int *i)
{
    static const char *const with_value[] = {"--thread", "--function", "--exclude",
        "--context", "--messages", "--format", "--color", "-o", "--sort",
        "--suspects", "--baseline"};
    const char *a = argv[*i], *v = NULL, *name = NULL;

    for (size_t k = 0; k < sizeof with_value / sizeof *with_value && !name; k++)
        if (matches(a, with_value[k]))
            name = with_value[k];
    if (!name)
        return fail("unknown option '%s'%s (see ttdiff --help)", a, "");
    if (!(v = value(argc, argv, i, name)))
        return fail("%s needs a value%s", name, "");
    if (!strcmp(name, "--thread") || !strcmp(name, "--function") ||
        !strcmp(name, "--exclude")) {
        if (check_regex(name, v))
            return 2;
        *(name[2] == 't' ? &c->o.thread : name[2] == 'f' ? &c->o.function
                                                         : &c->o.exclude) = v;
    } else if (!strcmp(name, "--suspects")) {
        if (parse_uint(v, &c->o.suspects) < 0)
            return fail("--suspects: not a count: '%s'%s", v, "");
    } else if (!strcmp(name, "--baseline")) {
        c->base[c->nbase++] = v;
    } else if (!strcmp(name, "--context")) {
        if (parse_uint(v, &c->o.context) < 0)
            return fail("--context: not a count: '%s'%s", v, "");
    } else if (!strcmp(name, "--messages")) {
        int m = !strcmp(v, "site") ? TTD_MSG_SITE : !strcmp(v, "text") ? TTD_MSG_TEXT
              : !strcmp(v, "off") ? TTD_MSG_OFF : -1;
        if (m < 0)
            return fail("--messages: '%s' is not site, text or off%s", v, "");
        c->o.messages = m;
    } else if (!strcmp(name, "--format")) {
        if (strcmp(v, "text") && strcmp(v, "json") && strcmp(v, "html"))
            return fail("--format: '%s' is not text, json or html%s", v, "");
        c->json = !strcmp(v, "json") ? 1 : !strcmp(v, "html") ? 2 : 0;
    } else if (!strcmp(name, "--sort")) {
        c->sort = ttf_profile_column(v);
        if (c->sort != TTF_PROF_TOTAL && c->sort != TTF_PROF_SELF &&
            c->sort != TTF_PROF_CALLS && c->sort != TTF_PROF_AVG)
            return fail("--sort: '%s' is not total, self, calls or avg%s", v, "");
    } else if (!strcmp(name, "--color")) {
        c->color = !strcmp(v, "always") ? 1 : !strcmp(v, "never") ? 0
                 : !strcmp(v, "auto") ? -1 : -2;
        if (c->color == -2)
            return fail("--color: '%s' is not auto, always or never%s", v, "");
    } else {
        c->out = v;
    }
    return 0;
}

/* 0 to go on, 2 on a usage error, 3 when done (help, version). */
static int parse(cli *c, int argc, char **argv)
{
    int nfiles = 0, rest = 0;

    memset(c, 0, sizeof *c);
    ttd_options_init(&c->o);
    if (!(c->base = calloc((size_t)argc + 1, sizeof *c->base)))
        return fail("out of memory%s%s", "", "");
    ttr_options_init(&c->r);
    c->color = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int rc = 0;
        if (rest || a[0] != '-' || !a[1]) {
            if (nfiles == 2)
                return fail("too many files: '%s'%s (want GOOD.trc BAD.trc)", a, "");
            c->files[nfiles++] = a;
        } else if (!strcmp(a, "--")) {
            rest = 1;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            return 3;
        } else if (!strcmp(a, "--version")) {
            printf("ttdiff %d.%d.%d\n", TTD_VERSION_MAJOR, TTD_VERSION_MINOR,
                   TTD_VERSION_PATCH);
            return 3;
        } else if (!strcmp(a, "--all")) {
            c->o.max_hunks = 0;
            c->r.all = 1;
        } else if (!strcmp(a, "--minimal")) {
            c->o.minimal = 1;
        } else if (!strcmp(a, "--collapse-loops")) {
            c->o.collapse_loops = 1;
        } else if (!strcmp(a, "--profile")) {
            c->profile = 1;
        } else if (!strcmp(a, "--no-demangle")) {
            c->o.no_demangle = 1;
        } else if (!strcmp(a, "--no-values")) {
            c->o.no_values = 1;
        } else {
            rc = option(c, argc, argv, &i);
        }
        if (rc)
            return rc;
    }
    if (nfiles < 2)
        return fail("need two traces: GOOD.trc BAD.trc%s%s", "", " (see ttdiff --help)");
    c->o.baselines = c->base;
    c->o.nbaselines = c->nbase;
    return 0;
}

static int use_color(const cli *c, FILE *out)
{
    const char *nc = getenv("NO_COLOR");

    if (c->color >= 0)
        return c->color;
    if (nc && nc[0])
        return 0;
    return isatty(fileno(out));
}

/* ttdiff --profile: 0 same functions and call counts, 1 not, 2 trouble. */
static int profile_main(cli *c)
{
    ttd_profile *p = NULL;
    ttf_error err;
    FILE *out = stdout;

    if (c->json == 2)
        return fail("--profile: --format html is not supported (text or json)%s%s", "", "");
    memset(&err, 0, sizeof err);
    int rc = ttd_profile_diff_files(c->files[0], c->files[1], &c->o, c->sort,
                                    &p, &err);
    if (rc < 0)
        return fail("%s%s", err.msg[0] ? err.msg : ttf_strerror(rc), "");
    if (c->out && !(out = fopen(c->out, "w"))) {
        ttd_profile_free(p);
        return fail("%s: %s", c->out, strerror(errno));
    }
    c->r.color = use_color(c, out);
    rc = c->json ? ttr_profile_json(out, p, &c->r) : ttr_profile_text(out, p, &c->r);
    int changed = ttd_profile_get_result(p)->changed > 0;
    ttd_profile_free(p);
    if (fflush(out) != 0 && rc == 0)
        rc = TT_EIO;
    if (out != stdout && fclose(out) != 0 && rc == 0)
        rc = TT_EIO;
    if (rc < 0)
        return fail("%s: %s", c->out ? c->out : "output", ttf_strerror(rc));
    return changed;
}

int main(int argc, char **argv)
{
    cli c;
    ttd_diff *d = NULL;
    ttf_error err;
    FILE *out = stdout;
    int rc = parse(&c, argc, argv);

    if (rc) {
        free(c.base);
        return rc == 3 ? 0 : rc;
    }
    if (c.profile) {
        if (c.nbase || c.o.collapse_loops)
            rc = fail("--profile: --baseline and --collapse-loops do not apply%s%s", "", "");
        else
            rc = profile_main(&c);
        free(c.base);
        return rc;
    }
    rc = ttd_diff_files(c.files[0], c.files[1], &c.o, &d, &err);
    free(c.base);
    if (rc < 0)
        return fail("%s%s", err.msg[0] ? err.msg : ttf_strerror(rc), "");
    if (c.out && !(out = fopen(c.out, "w"))) {
        ttd_free(d);
        return fail("%s: %s", c.out, strerror(errno));
    }
    c.r.color = use_color(&c, out);
    rc = c.json == 2 ? ttr_html(out, d, &c.r)
       : c.json ? ttr_json(out, d, &c.r) : ttr_text(out, d, &c.r);
    const ttd_result *res = ttd_get_result(d);
    int diverged = res->diverged || res->nunpaired > 0;
    ttd_free(d);
    if (fflush(out) != 0 && rc == 0)
        rc = TT_EIO;
    if (out != stdout && fclose(out) != 0 && rc == 0)
        rc = TT_EIO;
    if (rc < 0)
        return fail("%s: %s", c.out ? c.out : "output", ttf_strerror(rc));
    return diverged ? 1 : 0;
}
