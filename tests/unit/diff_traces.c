/*
 * diff_traces.c - small synthetic traces for the ttdiff tests (diff_traces.h):
 * the functions a script names, and the writer calls.
 */
#include <link.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diff_traces.h"

#define DT_NOINLINE __attribute__((noinline, used))

/* Distinct bodies, so the compiler cannot fold them into one. */
DT_NOINLINE int dt_main(void) { return 101; }
DT_NOINLINE int dt_parse(void) { return 102; }
DT_NOINLINE int dt_lex(void) { return 103; }
DT_NOINLINE int dt_check(void) { return 104; }
DT_NOINLINE int dt_fail(void) { return 105; }
DT_NOINLINE int dt_work(void) { return 106; }
DT_NOINLINE int dt_log(void) { return 107; }
DT_NOINLINE int dt_helper(void) { return 108; }
DT_NOINLINE int dt_wait(void) { return 109; }
/* Two that read memory other threads could write (globals). */
volatile int dt_word, dt_word2;
DT_NOINLINE int dt_peek(void) { return dt_word + 110; }
DT_NOINLINE int dt_tally(void) { return dt_word2 + 111; }
/* One named as a lock wrapper is (a lock takes no decision: its caller). */
DT_NOINLINE int dt_mutex_lock(void) { return 112; }
DT_NOINLINE int dt_mutex_slowpath(void) { return 113; }
/* A wrapper of a wait, named like one (nng's nni_plat_cv_wait). */
DT_NOINLINE int dt_cond_wait(void) { return 114; }
/* A function whose result a script sets (a clock's reading, by its
 * values: its name says nothing of time). */
DT_NOINLINE int dt_stamp(void) { return 115; }

const struct dt_fn dt_fns[DT_NFNS] = {
    {"main", dt_main}, {"parse", dt_parse}, {"lex", dt_lex},
    {"check", dt_check}, {"fail", dt_fail}, {"work", dt_work},
    {"log", dt_log}, {"helper", dt_helper}, {"wait", dt_wait},
    {"peek", dt_peek}, {"tally", dt_tally}, {"mutex_lock", dt_mutex_lock},
    {"mutex_slowpath", dt_mutex_slowpath}, {"cond_wait", dt_cond_wait},
    {"stamp", dt_stamp},
};

static int dt_first_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    *(uint64_t *)data = info->dlpi_addr;
    return 1; /* the main program comes first */
}

static uint64_t dt_bias(void)
{
    uint64_t bias = 0;
    dl_iterate_phdr(dt_first_object, &bias);
    return bias;
}

uint64_t dt_addr(const dt *t, const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof dt_fns / sizeof dt_fns[0]; i++)
        if (strlen(dt_fns[i].name) == len && !strncmp(dt_fns[i].name, name, len))
            return (uint64_t)(uintptr_t)dt_fns[i].fn + t->shift;
    fprintf(stderr, "diff_traces: unknown function '%.*s'\n", (int)len, name);
    abort();
}

/* Start a trace at path with threads named names[0..n) (NULL: unnamed);
 * the test binary is its one module, loaded shift bytes above where it is. */
int dt_open(dt *t, const char *path, uint64_t shift,
            const char *const *names, int n)
{
    return dt_open_opts(t, path, shift, names, n, NULL);
}

int dt_open_opts(dt *t, const char *path, uint64_t shift, const char *const *names, int n,
                 const ttf_writer_opts *o)
{
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    const char *argv[] = {"prog", "arg"};
    int rc;

    memset(t, 0, sizeof *t);
    t->shift = shift;
    if (len < 0)
        return -1;
    self[len] = '\0';
    if ((rc = ttf_writer_open(path, o, &t->w)) < 0)
        return rc;
    if ((rc = ttf_write_process(t->w, 1234, 1, self, 2, argv, "")) < 0)
        return rc;
    for (int i = 0; i < n; i++) {
        t->now[i] = 1000 + (uint64_t)i;
        if ((rc = ttf_write_thread_start(t->w, (uint32_t)i, t->now[i], 1234 + i,
                                         names[i] ? names[i] : "")) < 0)
            return rc;
    }
    return ttf_write_module(t->w, 0, t->now[0], dt_bias() + shift, 64u << 20,
                            NULL, 0, self);
}

/* Define call site id on thread th: a TT_LOG in func with fmt and one
 * integer argument. */
int dt_site(dt *t, uint32_t th, uint32_t id, const char *fmt,
            const char *func)
{
    static const uint8_t types[1] = {TTF_ARG_I64};
    ttf_callsite cs;

    memset(&cs, 0, sizeof cs);
    cs.id = id;
    cs.kind = TTF_SITE_LOG;
    cs.line = 10 + id;
    cs.fmt = fmt;
    cs.file = "test.c";
    cs.func = func;
    cs.nargs = 1;
    cs.types = types;
    return ttf_write_callsite(t->w, th, &cs);
}

/* A signed LEB128 zigzag varint, as MESSAGE args store an I64. */
static size_t dt_svar(uint8_t *p, int64_t v)
{
    uint64_t u = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
    size_t n = 0;
    while (u >= 0x80) {
        p[n++] = (uint8_t)(u | 0x80);
        u >>= 7;
    }
    p[n++] = (uint8_t)u;
    return n;
}

int dt_sync(dt *t, uint32_t th, int code, uint64_t obj, int64_t arg)
{
    t->now[th] += 10;
    return ttf_write_sync_op(t->w, th, t->now[th], code, obj, arg);
}

/* Run a script on thread th (see the header comment; "@N" sets the clock). */
int dt_run(dt *t, uint32_t th, const char *s)
{
    int rc = 0;

    while (*s && rc >= 0) {
        char *end;
        if (*s == ' ') {
            s++;
            continue;
        }
        t->now[th] += 10;
        if (*s == '}' && s[1] == '=') {    /* "}=N": returned N (values) */
            uint64_t v = (uint64_t)strtoll(s + 2, &end, 10);
            rc = ttf_write_exit_value(t->w, th, t->now[th], t->stack[th][--t->depth[th]], v);
            s = end;
        } else if (*s == '}') {
            rc = ttf_write_exit(t->w, th, t->now[th], t->stack[th][--t->depth[th]]);
            s++;
        } else if (*s == '~' && s[1] == '}') {  /* untimed (opts.sparse) */
            rc = ttf_write_exit_sparse(t->w, th, t->now[th], t->stack[th][--t->depth[th]],
                                       TTF_EXIT_UNTIMED);
            s += 2;
        } else if (*s == '#') {
            uint32_t site = (uint32_t)strtoul(s + 1, &end, 10);
            int64_t v = strtoll(end + 1, &end, 10);
            uint8_t args[16];
            rc = ttf_write_message(t->w, th, t->now[th], site, args, dt_svar(args, v));
            s = end;
        } else if (*s == '*') {
            rc = ttf_write_crash(t->w, th, t->now[th], (int)strtol(s + 1, &end, 10), 1, 0);
            s = end;
        } else if (*s == '@') {
            t->now[th] = strtoull(s + 1, &end, 10);
            s = end;
        } else {
            const char *b = strchr(s, '{'), *c = memchr(s, ':', (size_t)(b - s));
            uint64_t a = dt_addr(t, s, (size_t)((c ? c : b) - s));
            /* "f:N{": called from N bytes into the calling function */
            uint64_t site = c ? (t->depth[th] ? t->stack[th][t->depth[th] - 1]
                                              : dt_addr(t, "main", 4)) + strtoull(c + 1, NULL, 0)
                              : 0;
            t->stack[th][t->depth[th]++] = a;
            rc = c ? ttf_write_enter_site(t->w, th, t->now[th], a, site)
                   : ttf_write_enter(t->w, th, t->now[th], a);
            s = b + 1;
        }
    }
    return rc;
}

int dt_close(dt *t, int crashed)
{
    return crashed ? ttf_writer_abandon(t->w) : ttf_writer_close(t->w, 0);
}
