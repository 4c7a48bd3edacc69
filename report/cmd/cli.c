/*
 * cli.c - the command-line module of the commands (cli.h): one wording of
 * errors, one colour decision, one meaning of the filter options. Only the
 * commands use it; the renderers never print errors of their own.
 * Stage 0 cli of report/cmd/STAGES.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static const char *prog_name = "tt";    /* set by ttri_cli_init */

void ttri_cli_init(const char *prog)
{
    prog_name = prog;
}

/* One error line. Its text names files, and a file name (from the
 * command line, a trace, the file system) may hold anything: it is written
 * as ttf_put_text writes trace strings, so nothing in it can act as a
 * control sequence or split the line. */
static void vline(const char *fmt, va_list ap)
{
    char buf[4096];
    fflush(stdout);
    vsnprintf(buf, sizeof buf, fmt, ap);
    fprintf(stderr, "%s: ", prog_name);
    ttf_put_text(stderr, buf);
    fputc('\n', stderr);
}

int ttri_cli_fail(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vline(fmt, ap);
    va_end(ap);
    return TTRI_CLI_TROUBLE;
}

void ttri_cli_die(const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vline(fmt, ap);
    va_end(ap);
    exit(TTRI_CLI_TROUBLE);
}

/* What stands at path, when it is no regular file (lstat: a link is not
 * followed); NULL for a regular file. */
static const char *odd_kind(const struct stat *st)
{
    if (S_ISLNK(st->st_mode))
        return "a symbolic link";
    if (S_ISDIR(st->st_mode))
        return "a folder";
    if (!S_ISREG(st->st_mode))
        return "a FIFO, device or socket";
    return NULL;
}

/* 0 if what stands at path may be replaced (nothing, or a regular file
 * with force), else an error line and -1; *exists says whether it is there. */
static int replaceable(const char *path, int force, const char *force_flag, int *exists)
{
    struct stat st;

    *exists = lstat(path, &st) == 0;
    if (!*exists)
        return 0;
    const char *odd = odd_kind(&st);
    if (odd) {
        ttri_cli_fail("%s: is %s: not replaced", path, odd);
        return -1;
    }
    if (!force) {
        ttri_cli_fail("%s: exists (use %s to replace it)", path, force_flag);
        return -1;
    }
    return 0;
}

int ttri_cli_can_create(const char *path, int force, const char *force_flag)
{
    int exists;
    char dir[PATH_MAX];

    if (replaceable(path, force, force_flag, &exists) < 0)
        return TTRI_CLI_TROUBLE;
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    if (access(dir, W_OK | X_OK) != 0)
        return ttri_cli_fail("%s: %s", path, strerror(errno));
    return 0;
}

FILE *ttri_cli_create(const char *path, int force, const char *force_flag)
{
    int exists;

    if (replaceable(path, force, force_flag, &exists) < 0)
        return NULL;
    if (exists && unlink(path) != 0) {
        ttri_cli_fail("%s: %s", path, strerror(errno));
        return NULL;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        ttri_cli_fail("%s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
    }
    return f;
}

FILE *ttri_cli_report_open(ttri_cli_report *r, const char *path, int force,
                           const char *force_flag)
{
    struct stat st;
    memset(r, 0, sizeof *r);
    if (lstat(path, &st) == 0) {
        const char *odd = odd_kind(&st);
        if (odd) {
            ttri_cli_fail("%s: is %s: not replaced", path, odd);
            return NULL;
        }
        if (!force) {
            ttri_cli_fail("%s: exists (use %s to replace it)", path, force_flag);
            return NULL;
        }
    }
    const char *slash = strrchr(path, '/');
    size_t dlen = slash ? (size_t)(slash - path) + 1 : 0;
    size_t n = strlen(path) + 16;
    r->path = strdup(path);
    r->tmp = malloc(n);
    if (!r->path || !r->tmp) {
        free(r->path);
        free(r->tmp);
        ttri_cli_fail("%s: %s", path, strerror(ENOMEM));
        return NULL;
    }
    snprintf(r->tmp, n, "%.*s.%s.XXXXXX", (int)dlen, path, path + dlen);
    int fd = mkostemp(r->tmp, O_CLOEXEC);
    r->f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!r->f) {
        int e = errno;
        if (fd >= 0) {
            close(fd);
            unlink(r->tmp);
        }
        ttri_cli_fail("%s: %s", path, strerror(e));
        free(r->path);
        free(r->tmp);
        memset(r, 0, sizeof *r);
    }
    return r->f;
}

int ttri_cli_report_close(ttri_cli_report *r, int keep, int err)
{
    int rc = 0;
    if (!r->f)
        return 0;
    if (!err && fflush(r->f) != 0)
        err = errno ? errno : EIO;
    if (!err && fsync(fileno(r->f)) != 0 && errno != EINVAL)
        err = errno;
    if (fclose(r->f) != 0 && !err)
        err = errno ? errno : EIO;
    if (err == ENOSPC || err == EDQUOT)
        rc = ttri_cli_fail("%s: no space left on device; the report is not written", r->path);
    else if (err == EFBIG)
        rc = ttri_cli_fail("%s: larger than the file size limit; the report is not written",
                           r->path);
    else if (err)
        rc = ttri_cli_fail("%s: %s; the report is not written", r->path, strerror(err));
    if (keep && !rc && rename(r->tmp, r->path) != 0)
        rc = ttri_cli_fail("%s: %s", r->path, strerror(errno));
    if (!keep || rc)
        unlink(r->tmp);
    free(r->path);
    free(r->tmp);
    memset(r, 0, sizeof *r);
    return rc;
}

int ttri_cli_own_dir(const char *dir)
{
    struct stat st;
    if (lstat(dir, &st) != 0)
        return ttri_cli_fail("%s: %s", dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return ttri_cli_fail("%s: is %s, not a folder", dir,
                            odd_kind(&st) ? odd_kind(&st) : "a file");
    if (st.st_uid != geteuid())
        return ttri_cli_fail("%s: owned by user %u, not by you: not written into",
                            dir, (unsigned)st.st_uid);
    if (st.st_mode & S_IWOTH)
        return ttri_cli_fail("%s: anyone can write into it (mode %03o): not "
                            "written into", dir, (unsigned)(st.st_mode & 0777));
    return 0;
}

int ttri_cli_is(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

const char *ttri_cli_value(int argc, char **argv, int *i, const char *name)
{
    const char *a = argv[*i];
    size_t n = strlen(name);

    if (a[n] == '=')
        return a + n + 1;
    if (*i + 1 >= argc)
        return NULL;
    return argv[++*i];
}

int ttri_cli_uint(const char *flag, const char *s, unsigned *out)
{
    char *end;

    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (!*s || *end || errno || v > UINT_MAX || s[0] == '-')
        return ttri_cli_fail("%s: not a count: '%s'", flag, s);
    *out = (unsigned)v;
    return 0;
}

int ttri_cli_color_mode(const char *when, int *mode)
{
    if (strcmp(when, "always") == 0)
        *mode = TTRI_CLI_COLOR_ALWAYS;
    else if (strcmp(when, "never") == 0)
        *mode = TTRI_CLI_COLOR_NEVER;
    else if (strcmp(when, "auto") == 0)
        *mode = TTRI_CLI_COLOR_AUTO;
    else
        return ttri_cli_fail("--color: expected auto, always or never, not '%s'",
                             when);
    return 0;
}

int ttri_cli_use_color(int mode, FILE *f)
{
    const char *nc = getenv("NO_COLOR");

    if (mode != TTRI_CLI_COLOR_AUTO)
        return mode == TTRI_CLI_COLOR_ALWAYS;
    if (nc && nc[0])
        return 0;
    return isatty(fileno(f));
}

int ttri_cli_regex(const char *flag, const char *pattern, ttd_regex **re)
{
    ttf_error err;

    memset(&err, 0, sizeof err);
    *re = NULL;
    int rc = ttd_regex_compile(pattern, re, &err);
    if (rc == 0)
        return 0;
    const char *why = err.msg[0] ? err.msg : ttf_strerror(rc);
    if (flag)
        return ttri_cli_fail("%s: %s", flag, why);
    return ttri_cli_fail("%s", why);
}

int ttri_cli_filter_set(ttri_cli_filter *f, const char *flag, const char *value,
                        int flag_in_error)
{
    const char **pat = &f->exclude;
    ttd_regex **re = &f->exclude_re;

    if (strcmp(flag, "--thread") == 0) {
        pat = &f->thread;
        re = &f->thread_re;
    } else if (strcmp(flag, "--function") == 0) {
        pat = &f->function;
        re = &f->function_re;
    }
    ttd_regex_free(*re);
    *pat = value;
    return ttri_cli_regex(flag_in_error ? flag : NULL, value, re);
}

int ttri_cli_filter_arg(ttri_cli_filter *f, int argc, char **argv, int *i,
                        int flag_in_error)
{
    static const char *const flags[] = {"--thread", "--function", "--exclude"};
    const char *flag = NULL;

    for (size_t k = 0; k < sizeof flags / sizeof *flags && !flag; k++)
        if (ttri_cli_is(argv[*i], flags[k]))
            flag = flags[k];
    if (!flag)
        return 0;
    const char *v = ttri_cli_value(argc, argv, i, flag);
    if (!v)
        return ttri_cli_fail("%s needs a value", flag);
    int rc = ttri_cli_filter_set(f, flag, v, flag_in_error);
    return rc ? rc : 1;
}

int ttri_cli_function_kept(const ttri_cli_filter *f, const char *name)
{
    if (f->function_re && !ttd_regex_match(f->function_re, name))
        return 0;
    return !f->exclude_re || !ttd_regex_match(f->exclude_re, name);
}

void ttri_cli_filter_free(ttri_cli_filter *f)
{
    ttd_regex_free(f->thread_re);
    ttd_regex_free(f->function_re);
    ttd_regex_free(f->exclude_re);
    f->thread_re = f->function_re = f->exclude_re = NULL;
}

void ttri_cli_help(const char *usage)
{
    fputs(usage, stdout);
    exit(0);
}

#ifndef TT_VERSION   /* the toolkit version, given by the Makefile */
#define TT_VERSION "?"
#endif

void ttri_cli_version(void)
{
    const ttf_format_info *fi = ttf_format();

    printf("%s %s (trace format %u.%u)\n", prog_name, TT_VERSION, fi->major, fi->minor);
    exit(0);
}

/* ---- symbol search (--exe, --debug-dir) --------------------------------- */

#define SYM_MAX 64              /* --exe and --debug-dir values kept */

static const char *sym_exe[SYM_MAX];   /* --exe values (argv strings) */
static size_t sym_nexe;
static char sym_dirs[8192];            /* --debug-dir values, ':'-joined */

/* 0 if path is an ELF executable or shared object (a program, a library,
 * or a separate debug file of one), else an error line and
 * TTRI_CLI_TROUBLE: a mistyped --exe would otherwise only show as names
 * that stay offsets. */
static int elf_program(const char *path)
{
    unsigned char h[18];
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    struct stat st;

    if (fd < 0)
        return ttri_cli_fail("--exe: %s: %s", path, strerror(errno));
    ssize_t n = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? read(fd, h, sizeof h) : -1;
    close(fd);
    /* e_ident: magic, class, data (1 little-endian, 2 big); e_type at 16 */
    unsigned type = n < (ssize_t)sizeof h ? 0
                  : h[5] == 2 ? (unsigned)h[16] << 8 | h[17] : (unsigned)h[17] << 8 | h[16];
    if (n < (ssize_t)sizeof h || memcmp(h, "\177ELF", 4) != 0 || (type != 2 && type != 3))
        return ttri_cli_fail("--exe: %s: not an ELF executable or shared library", path);
    return 0;
}

int ttri_cli_sym_option(const char *flag, const char *value)
{
    if (!value || !value[0])
        return ttri_cli_fail("%s needs a value", flag);
    if (strcmp(flag, "--exe") == 0) {
        if (elf_program(value) != 0)
            return TTRI_CLI_TROUBLE;
        if (sym_nexe == SYM_MAX)
            return ttri_cli_fail("--exe: at most %d", SYM_MAX);
        sym_exe[sym_nexe++] = value;
        return 0;
    }
    size_t n = strlen(sym_dirs);
    if (n + strlen(value) + 2 > sizeof sym_dirs)
        return ttri_cli_fail("--debug-dir: too long");
    snprintf(sym_dirs + n, sizeof sym_dirs - n, "%s%s", n ? ":" : "", value);
    return 0;
}

int ttri_cli_sym_apply(void)
{
    if (!sym_nexe && !sym_dirs[0])
        return 0;
    int rc = ttf_sym_search(sym_exe, sym_nexe, sym_dirs[0] ? sym_dirs : NULL);
    return rc == 0 ? 0 : ttri_cli_fail("%s", ttf_strerror(rc));
}
