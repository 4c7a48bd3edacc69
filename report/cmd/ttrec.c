/*
 * ttrec.c - the ttrec command: record a run of a program with libttcap, or
 * rerun it until it fails (--until-fail N), keep the first failing trace
 * and a few passing ones, and hand them to ttdiff: as the good run the
 * passing run closest to the failing one (the longest common call prefix,
 * ttrec_closest.c), the others as --baseline, so timing noise between good
 * runs is expected. --chaos shakes each run's schedule (libttcap's chaos
 * mode, TTCAP_CHAOS, a seed per run) so a rare race shows sooner.
 * Preloads libttcap when the program was built with -finstrument-functions
 * or -pg -mfentry but not linked with it. -o DIR/ records a process tree
 * (every process into DIR, libttcap preloaded into all); with
 * --until-fail each run is such a tree in its own folder (run/, then
 * fail/ or pass-K/), scored by ttri_tree_prefix. Exit status: see usage[]. Errors,
 * --help and --version go through the shared cli.c.
 * Stage 2 commands of report/cmd/STAGES.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <gelf.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ttfmt.h"
#include "ttrec_closest.h"

static const char usage[] =
    "usage: ttrec [options] -- PROG [ARGS...]\n"
    "       ttrec --until-fail N [options] -- PROG [ARGS...]\n"
    "Record a run of PROG with libttcap; or run it up to N times until it fails,\n"
    "then compare the failing run with passing ones (ttdiff).\n"
    "\n"
    "  -o PATH             one run: the trace file (default PROG.trc, or PROG.2.trc...\n"
    "                      if taken); --until-fail: the folder for the traces\n"
    "                      (default PROG.ttrec), which holds fail.trc, fail.out,\n"
    "                      pass-1.trc... and, with --format json or html,\n"
    "                      report.json or report.html (text goes to stdout)\n"
    "                      one run, -o DIR/ (a trailing slash, or a folder that\n"
    "                      exists): record every process PROG starts into DIR,\n"
    "                      one trace per instrumented process and the process\n"
    "                      table DIR/processes.ttp (libttcap preloaded into all)\n"
    "                      --until-fail -o DIR/: each run such a tree, in its own\n"
    "                      folder (fail/, pass-1/...); the closest passing tree\n"
    "                      (common call prefixes summed over its traced processes,\n"
    "                      paired by program and args) is diffed with fail/\n"
    "  -f                  replace an existing trace file (one run), or the\n"
    "                      recorded tree in DIR\n"
    "  --until-fail N      run up to N times; stop at the first failing run once\n"
    "                      K passing runs are kept\n"
    "  --keep K            passing runs kept (default 3: one good run and two\n"
    "                      baselines for ttdiff)\n"
    "  --candidates C      passing runs kept while hunting (default 8, at most\n"
    "                      64, the oldest replaced); the one sharing the longest\n"
    "                      call prefix with the failing run is the good run, the\n"
    "                      next K-1 the baselines\n"
    "  --chaos[=SEED]      shake the schedule: random yields and short sleeps\n"
    "                      before lock, unlock, create, join and condition calls\n"
    "                      (libttcap's TTCAP_CHAOS); --until-fail gives run n a\n"
    "                      seed made from SEED (default: random) and n, one run\n"
    "                      uses SEED itself; the failing run's seed is reported\n"
    "  --chaos-entries     with --chaos, also at random function entries\n"
    "  --fail-if CMD       also a failure: CMD (run by /bin/sh, with the run's\n"
    "                      stdout and stderr on its stdin) exits 0, e.g.\n"
    "                      --fail-if 'grep -q ERROR'\n"
    "  --timeout SECS      a run still going after SECS is killed (SIGTERM, then\n"
    "                      SIGKILL) and counts as failing (a hang)\n"
    "  --preload / --no-preload  force LD_PRELOAD of libttcap on or off (default:\n"
    "                      on when PROG calls __cyg_profile_func_enter or\n"
    "                      __fentry__ but does not link libttcap)\n"
    "  --format FMT        the ttdiff report: text (default), json or html\n"
    "  --ttdiff-arg ARG    pass ARG to ttdiff (repeatable), e.g. --ttdiff-arg=--all\n"
    "  -q, --quiet         no progress lines\n"
    "  -h, --help          this help\n"
    "  -V, --version       print the version\n"
    "\n"
    "--keep, --candidates, --fail-if, --format and --ttdiff-arg go with --until-fail.\n"
    "Failure: an exit status other than 0, a signal, a timeout, or --fail-if.\n"
    "Exit status, one run: the program's (128+N for signal N). --until-fail:\n"
    "1 once a failure was caught (ttdiff's: a caught failure is a divergence, in\n"
    "the outcome at least), 0 when none of the N runs failed (a line says so),\n"
    "2 trouble (bad options, PROG would not start, no passing run to compare with).\n";

#define TTREC_SLOTS 64      /* most passing runs kept at once */

/* What the command line asked for. */
typedef struct opts {
    const char *out;        /* -o */
    int force;              /* -f */
    unsigned runs;          /* --until-fail N, 0 = one run */
    unsigned keep;          /* --keep K */
    unsigned candidates;    /* --candidates C */
    int chaos;              /* --chaos or --chaos-entries */
    int chaos_entries;      /* --chaos-entries */
    int chaos_given;        /* --chaos=SEED */
    uint64_t chaos_seed;    /* SEED, or a random one */
    const char *fail_if;    /* --fail-if CMD */
    unsigned timeout;       /* --timeout SECS, 0 = none */
    int preload;            /* -1 auto, 0 off, 1 on */
    const char *format;     /* --format */
    const char **targs;     /* --ttdiff-arg values */
    size_t ntargs;
    int quiet;              /* -q */
    const char *hunt_only;  /* an option given that only --until-fail uses */
    char **argv;            /* PROG ARGS..., NULL-terminated */
    char *prog;             /* PROG resolved in PATH (malloc'd) */
    char *lib;              /* libttcap.so to preload, NULL = none */
    int tree;               /* -o DIR/ (or an existing folder): the whole tree */
    int tty;                /* stderr is a terminal: one updating line */
} opts;

/* splitmix64: run seeds from the base seed, and a random base seed. */
static uint64_t mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* A base seed when --chaos gives none: from the clock and the pid, kept
 * to 31 bits so it is easy to type back. */
static uint64_t random_seed(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return mix64((uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^
                 ((uint64_t)getpid() << 48)) >> 33;
}

/* Run n's seed under --until-fail: 31 bits, a function of the base seed and
 * n only (the same command line gives the same seeds). */
static uint64_t run_seed(uint64_t base, unsigned n)
{
    return mix64(base ^ mix64(n)) >> 33;
}

static int parse_count(const char *s, unsigned *out)
{
    char *end;

    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (!*s || *end || errno || v > 1000000 || s[0] == '-')
        return -1;
    *out = (unsigned)v;
    return 0;
}

static int matches(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

/* An option with a value ("--opt=v" or "--opt v"); 2 on a usage error. */
static int valued(opts *o, int argc, char **argv, int *i, const char *name)
{
    const char *a = argv[*i], *v;
    size_t n = strlen(name);

    if (a[n] == '=')
        v = a + n + 1;
    else if (*i + 1 < argc)
        v = argv[++*i];
    else
        return ttri_cli_fail("%s needs a value", name);
    if (strcmp(name, "-o") && strcmp(name, "--timeout") && strcmp(name, "--until-fail"))
        o->hunt_only = name;
    if (!strcmp(name, "-o"))
        o->out = v;
    else if (!strcmp(name, "--fail-if"))
        o->fail_if = v;
    else if (!strcmp(name, "--ttdiff-arg"))
        o->targs[o->ntargs++] = v;
    else if (!strcmp(name, "--format")) {
        if (strcmp(v, "text") && strcmp(v, "json") && strcmp(v, "html"))
            return ttri_cli_fail("--format: '%s' is not text, json or html", v);
        o->format = v;
    } else {
        unsigned *dst = !strcmp(name, "--until-fail") ? &o->runs
                      : !strcmp(name, "--keep") ? &o->keep
                      : !strcmp(name, "--candidates") ? &o->candidates : &o->timeout;
        if (parse_count(v, dst) < 0 || (dst == &o->runs && !*dst))
            return ttri_cli_fail("%s: not a count: '%s'", name, v);
    }
    return 0;
}

/* --chaos or --chaos=SEED (a decimal number); 2 on a usage error. */
static int chaos_option(opts *o, const char *a)
{
    const char *v = a[7] == '=' ? a + 8 : NULL;
    char *end;

    o->chaos = 1;
    if (!v)
        return 0;
    errno = 0;
    unsigned long long seed = strtoull(v, &end, 10);
    if (!*v || *end || errno || v[0] == '-')
        return ttri_cli_fail("--chaos: not a seed (a decimal number): '%s'", v);
    o->chaos_seed = (uint64_t)seed;
    o->chaos_given = 1;
    return 0;
}

static int option(opts *o, int argc, char **argv, int *i)
{
    static const char *const with_value[] = {"-o", "--until-fail", "--keep",
        "--fail-if", "--timeout", "--format", "--ttdiff-arg", "--candidates"};
    const char *a = argv[*i];

    if (!strcmp(a, "-f"))
        o->force = 1;
    else if (!strcmp(a, "--preload") || !strcmp(a, "--no-preload"))
        o->preload = a[2] == 'p';
    else if (!strcmp(a, "-q") || !strcmp(a, "--quiet"))
        o->quiet = 1;
    else if (matches(a, "--chaos"))
        return chaos_option(o, a);
    else if (!strcmp(a, "--chaos-entries"))
        o->chaos = o->chaos_entries = 1;
    else {
        for (size_t k = 0; k < sizeof with_value / sizeof *with_value; k++)
            if (matches(a, with_value[k]))
                return valued(o, argc, argv, i, with_value[k]);
        return ttri_cli_fail("unknown option '%s' (see ttrec --help)", a);
    }
    return 0;
}

/* 0 to go on, 2 on a usage error (--help and --version exit here). */
static int parse(opts *o, int argc, char **argv)
{
    int i;

    memset(o, 0, sizeof *o);
    o->keep = 3;
    o->candidates = 8;
    o->preload = -1;
    o->format = "text";
    if (!(o->targs = calloc((size_t)argc + 1, sizeof *o->targs)))
        return ttri_cli_fail("out of memory");
    for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
        int rc = 0;
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
            ttri_cli_help(usage);
        if (!strcmp(argv[i], "-V") || !strcmp(argv[i], "--version"))
            ttri_cli_version();
        if (argv[i][0] != '-')
            return ttri_cli_fail("'%s': put the program after -- (ttrec [options] -- PROG ARGS)",
                        argv[i]);
        if ((rc = option(o, argc, argv, &i)))
            return rc;
    }
    if (i + 1 >= argc)
        return ttri_cli_fail("no program to run (ttrec [options] -- PROG ARGS; see ttrec --help)");
    o->argv = argv + i + 1;
    if (!o->runs && o->hunt_only)
        return ttri_cli_fail("%s goes with --until-fail (one run: -o, -f, --chaos, "
                             "--timeout, --preload)", o->hunt_only);
    if (o->runs && o->keep == 0)
        return ttri_cli_fail("--keep: at least one passing run is needed to compare with");
    if (o->candidates == 0 || o->candidates > TTREC_SLOTS)
        return ttri_cli_fail("--candidates: %u is not 1..%d", o->candidates, TTREC_SLOTS);
    if (o->keep > TTREC_SLOTS)
        return ttri_cli_fail("--keep: %u is more than %d", o->keep, TTREC_SLOTS);
    if (o->chaos && !o->chaos_given)
        o->chaos_seed = random_seed();
    return 0;
}

/* ---- the program and libttcap ------------------------------------------- */

/* PROG as execvp would find it (malloc'd), NULL if not found. */
static char *resolve(const char *prog)
{
    const char *path = getenv("PATH");
    char buf[PATH_MAX];

    if (strchr(prog, '/'))
        return access(prog, X_OK) == 0 ? strdup(prog) : NULL;
    for (const char *p = path ? path : "/usr/bin:/bin"; p; ) {
        const char *colon = strchr(p, ':');
        int n = colon ? (int)(colon - p) : (int)strlen(p);
        snprintf(buf, sizeof buf, "%.*s/%s", n, n ? p : ".", prog);
        if (access(buf, X_OK) == 0)
            return strdup(buf);
        p = colon ? colon + 1 : NULL;
    }
    return NULL;
}

/* Facts from entry k of section sh (see elf_facts). */
static int elf_entry(Elf *e, const GElf_Shdr *sh, Elf_Data *data, size_t k)
{
    const char *name;

    if (sh->sh_type == SHT_DYNAMIC) {
        GElf_Dyn dyn;
        if (!gelf_getdyn(data, (int)k, &dyn) || dyn.d_tag != DT_NEEDED)
            return 0;
        name = elf_strptr(e, sh->sh_link, dyn.d_un.d_val);
        return name && strstr(name, "libttcap") ? 2 : 0;
    }
    if (sh->sh_type != SHT_DYNSYM && sh->sh_type != SHT_SYMTAB)
        return 0;
    GElf_Sym sym;
    if (!gelf_getsym(data, (int)k, &sym) ||
        !(name = elf_strptr(e, sh->sh_link, sym.st_name)))
        return 0;
    if (!strcmp(name, "ttcap_version"))
        return sym.st_shndx != SHN_UNDEF ? 2 : 0;
    if (strcmp(name, "__cyg_profile_func_enter") && strcmp(name, "__fentry__"))
        return 0;
    return sym.st_shndx == SHN_UNDEF ? 1 : 2;
}

/* What the ELF file's dynamic section says: bit 0 it calls
 * __cyg_profile_func_enter or __fentry__ (built with -finstrument-functions
 * or -pg -mfentry), bit 1 it
 * needs or defines libttcap. -1 if it is no ELF file we can read. */
static int elf_facts(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC), facts = 0;
    Elf *e;
    Elf_Scn *scn = NULL;

    if (fd < 0)
        return -1;
    elf_version(EV_CURRENT);
    if (!(e = elf_begin(fd, ELF_C_READ, NULL)) || elf_kind(e) != ELF_K_ELF) {
        elf_end(e);
        close(fd);
        return -1;
    }
    while ((scn = elf_nextscn(e, scn))) {
        GElf_Shdr sh;
        Elf_Data *data = elf_getdata(scn, NULL);
        if (!gelf_getshdr(scn, &sh) || !data || !sh.sh_entsize)
            continue;
        for (size_t k = 0; k < sh.sh_size / sh.sh_entsize; k++)
            facts |= elf_entry(e, &sh, data, k);
    }
    elf_end(e);
    close(fd);
    return facts;
}

/* A file beside this executable ("libttcap.so", "ttdiff"), else in
 * ../lib (installed); malloc'd, NULL if there is none. */
static char *beside_me(const char *name, const char *installed)
{
    char self[PATH_MAX], buf[PATH_MAX + 64];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);

    if (n <= 0)
        return NULL;
    self[n] = '\0';
    char *dir = dirname(self);
    snprintf(buf, sizeof buf, "%s/%s", dir, name);
    if (access(buf, F_OK) == 0)
        return strdup(buf);
    if (!installed)
        return NULL;
    snprintf(buf, sizeof buf, "%s/../lib/%s", dir, installed);
    return access(buf, F_OK) == 0 ? strdup(buf) : NULL;
}

/* Decide on LD_PRELOAD (o->lib) for o->prog. 0 or 2 (trouble). */
static int choose_preload(opts *o)
{
    const char *env = getenv("TTREC_LIBTTCAP");
    int facts = o->preload == 1 ? 1 : o->preload == 0 ? 2 : elf_facts(o->prog);

    if (o->tree)
        facts = 1;  /* a tree: into every process, instrumented or not */
    if (facts != 1)
        return 0;  /* links libttcap already, not instrumented, or no ELF */
    o->lib = env && env[0] ? strdup(env) : beside_me("libttcap.so", "libttcap.so.1");
    if (!o->lib)
        return ttri_cli_fail("%s is built with -finstrument-functions or -pg -mfentry "
                    "but not linked with libttcap, and libttcap.so was not found (set "
                    "TTREC_LIBTTCAP)",
                    o->prog);
    return 0;
}

/* ---- one run -------------------------------------------------------------- */

/* How one run ended. */
typedef struct outcome {
    int status;             /* waitpid status */
    int timed_out;          /* 1: killed after --timeout */
} outcome;

/* In the child: TTCAP_CHAOS for this run (*seed), or none inherited
 * (seed NULL). */
static void chaos_env(const opts *o, const uint64_t *seed)
{
    char v[40];

    if (!seed) {
        unsetenv("TTCAP_CHAOS");
        return;
    }
    snprintf(v, sizeof v, "%llu%s", (unsigned long long)*seed,
             o->chaos_entries ? ",entries" : "");
    setenv("TTCAP_CHAOS", v, 1);
}

static void child(const opts *o, const char *trace, const char *out, const uint64_t *seed)
{
    if (out) {
        int fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
        if (fd < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(127);
    }
    setenv("TTCAP_OUT", trace, 1);
    chaos_env(o, seed);
    if (o->lib) {
        const char *old = getenv("LD_PRELOAD");
        char *v = malloc(strlen(o->lib) + (old ? strlen(old) : 0) + 2);
        if (!v)
            _exit(127);
        sprintf(v, "%s%s%s", o->lib, old && old[0] ? " " : "", old ? old : "");
        setenv("LD_PRELOAD", v, 1);
    }
    execv(o->prog, o->argv);
    fprintf(stderr, "ttrec: %s: %s\n", o->prog, strerror(errno));
    _exit(127);
}

/* Wait for pid, killing it after o->timeout seconds. */
static int await(const opts *o, pid_t pid, outcome *r)
{
    struct timespec tick = {0, 5000000};
    unsigned long waited = 0, limit = o->timeout * 200ul;

    memset(r, 0, sizeof *r);
    for (;;) {
        pid_t w = waitpid(pid, &r->status, o->timeout ? WNOHANG : 0);
        if (w == pid)
            return 0;
        if (w < 0 && errno != EINTR)
            return -1;
        if (!o->timeout || w < 0)
            continue;
        nanosleep(&tick, NULL);
        if (++waited == limit) {
            r->timed_out = 1;
            kill(pid, SIGTERM);
        } else if (waited == limit + 400) {
            kill(pid, SIGKILL);
        }
    }
}

/* Run PROG once, traced into trace (output into out, NULL = inherited),
 * in chaos mode with *seed (NULL: not). */
static int run_once(const opts *o, const char *trace, const char *out, const uint64_t *seed,
                    outcome *r)
{
    fflush(NULL);
    pid_t pid = fork();

    if (pid < 0)
        return ttri_cli_fail("fork: %s", strerror(errno));
    if (pid == 0)
        child(o, trace, out, seed);
    if (await(o, pid, r) < 0)
        return ttri_cli_fail("waitpid: %s", strerror(errno));
    if (WIFSIGNALED(r->status))     /* a tree's root that could not write its end */
        ttf_ptable_reaped(trace, (uint32_t)pid, WTERMSIG(r->status));
    if (WIFEXITED(r->status) && WEXITSTATUS(r->status) == 127 && access(trace, F_OK) != 0)
        return ttri_cli_fail("%s could not be started", o->prog);
    return 0;
}

/* The user's predicate on a run's output: 1 it says failure, 0 not, -1
 * it could not run. */
static int predicate(const char *cmd, const char *out)
{
    fflush(NULL);
    pid_t pid = fork();
    int st;

    if (pid < 0)
        return -1;
    if (pid == 0) {
        int fd = open(out, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || dup2(fd, 0) < 0)
            _exit(127);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static int failed(const opts *o, const outcome *r, const char *out)
{
    if (r->timed_out || !WIFEXITED(r->status) || WEXITSTATUS(r->status) != 0)
        return 1;
    return o->fail_if && out && predicate(o->fail_if, out) == 1;
}

/* "exit 3", "SIGSEGV", "timeout" */
static void describe(const outcome *r, char *buf, size_t n)
{
    if (r->timed_out)
        snprintf(buf, n, "timed out");
    else if (WIFSIGNALED(r->status))
        snprintf(buf, n, "killed by signal %d (%s)", WTERMSIG(r->status),
                 strsignal(WTERMSIG(r->status)));
    else
        snprintf(buf, n, "exit %d", WEXITSTATUS(r->status));
}

/* ---- one recorded run ------------------------------------------------------ */

/* A free trace name for one run: o->out, else PROG.trc, PROG.2.trc... */
static int trace_name(const opts *o, char *buf, size_t n)
{
    char prog[PATH_MAX];

    if (o->out) {
        snprintf(buf, n, "%s", o->out);
        if (access(buf, F_OK) == 0 && (!o->force || unlink(buf) < 0))
            return ttri_cli_fail("%s exists (use -f to replace it, or -o another name)",
                        buf);
        return 0;
    }
    snprintf(prog, sizeof prog, "%s", o->prog);
    const char *base = basename(prog);
    snprintf(buf, n, "%s.trc", base);
    for (int k = 2; access(buf, F_OK) == 0; k++)
        snprintf(buf, n, "%s.%d.trc", base, k);
    return 0;
}

/* Why a run of o->prog left no trace, for the line that says so. */
static void why_no_trace(const opts *o, char *buf, size_t n)
{
    int facts = o->lib ? 0 : elf_facts(o->prog);

    if (o->lib)
        snprintf(buf, n, "libttcap was preloaded but wrote nothing (see its line above, "
                 "if any)");
    else if (facts < 0)
        snprintf(buf, n, "%s is no ELF program, and nothing it ran was traced", o->prog);
    else if (facts & 2)
        snprintf(buf, n, "%s links libttcap, which wrote nothing (see its line above, "
                 "if any)", o->prog);
    else if (facts & 1)
        snprintf(buf, n, "libttcap was not loaded (--no-preload)");
    else
        snprintf(buf, n, "%s is not instrumented (build it with -finstrument-functions "
                 "or -pg -mfentry, e.g. CC=\"ttcc gcc\", or use libttcap's macros)",
                 o->prog);
}

/* -o DIR/: DIR made, or emptied of a recorded tree with -f. 0 or 2. */
static int tree_dir(const opts *o, char *buf, size_t n)
{
    size_t len = strlen(o->out);
    while (len > 1 && o->out[len - 1] == '/')
        len--;
    snprintf(buf, n, "%.*s/", (int)len, o->out);
    if (mkdir(buf, 0755) != 0 && errno != EEXIST)
        return ttri_cli_fail("%s: cannot make the folder: %s", buf, strerror(errno));
    char table[PATH_MAX + 32];
    snprintf(table, sizeof table, "%s%s", buf, TTF_PTABLE_NAME);
    if (access(table, F_OK) != 0)
        return 0;
    if (!o->force)
        return ttri_cli_fail("%s holds a recorded tree (use -f to replace it, or -o "
                             "another folder)", buf);
    char cmd[2 * PATH_MAX + 64];   /* the old tree's table and traces */
    unlink(table);
    snprintf(table, sizeof table, "%s%s", buf, TTF_PTABLE_ENVS);
    unlink(table);
    snprintf(cmd, sizeof cmd, "%s", buf);
    DIR *d = opendir(cmd);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strlen(e->d_name) > 4 && !strcmp(e->d_name + strlen(e->d_name) - 4, ".trc")) {
            snprintf(cmd, sizeof cmd, "%s%s", buf, e->d_name);
            unlink(cmd);
        }
    if (d)
        closedir(d);
    return 0;
}

/* One run of a tree: the table read back and summed up on stderr. */
static int record_tree(const opts *o)
{
    char dir[PATH_MAX], how[128];
    outcome r;
    int rc;

    if ((rc = tree_dir(o, dir, sizeof dir)) ||
        (rc = run_once(o, dir, NULL, o->chaos ? &o->chaos_seed : NULL, &r)))
        return rc;
    describe(&r, how, sizeof how);
    ttf_ptable *t;
    ttf_error err = {0};
    if (ttf_ptable_open(dir, &t, &err) != 0) {
        fprintf(stderr, "ttrec: %s %s; no process table was written: %s\n", o->argv[0],
                how, err.msg);
    } else if (!o->quiet) {
        size_t n = ttf_ptable_count(t), traced = 0;
        for (size_t i = 0; i < n; i++)
            traced += ttf_ptable_get(t, i)->traced;
        fprintf(stderr, "ttrec: %s %s, tree in %s: %zu process image%s, %zu traced\n",
                o->argv[0], how, dir, n, n == 1 ? "" : "s", traced);
    }
    ttf_ptable_close(t);
    if (WIFSIGNALED(r.status))
        return 128 + WTERMSIG(r.status);
    return WEXITSTATUS(r.status);
}

static int record_one(const opts *o)
{
    char trace[PATH_MAX], how[128];
    outcome r;
    int rc;

    if ((rc = trace_name(o, trace, sizeof trace)) ||
        (rc = run_once(o, trace, NULL, o->chaos ? &o->chaos_seed : NULL, &r)))
        return rc;
    describe(&r, how, sizeof how);
    if (access(trace, F_OK) != 0) {
        char why[PATH_MAX + 160];
        why_no_trace(o, why, sizeof why);
        fprintf(stderr, "ttrec: %s %s; no trace was written: %s\n", o->argv[0], how, why);
    } else if (!o->quiet) {
        fprintf(stderr, "ttrec: %s %s, trace in %s%s\n", o->argv[0], how, trace,
                o->lib ? " (libttcap preloaded)" : "");
    }
    if (!o->quiet && o->chaos)
        fprintf(stderr, "ttrec: chaos seed %llu%s\n", (unsigned long long)o->chaos_seed,
                o->chaos_entries ? " (and function entries)" : "");
    if (WIFSIGNALED(r.status))
        return 128 + WTERMSIG(r.status);
    return WEXITSTATUS(r.status);
}

/* ---- --until-fail ---------------------------------------------------------- */

/* The state of a hunt for a failing run. Passing runs go into slots
 * (pass-1.trc ... pass-S.trc, S = max(--keep, --candidates)); when all are
 * taken the oldest is replaced, so the disk holds at most S + 1 traces. */
typedef struct hunt {
    char dir[PATH_MAX];     /* where the traces go */
    unsigned n;             /* runs done */
    unsigned slots;         /* S */
    unsigned passes;        /* slots holding a passing run */
    unsigned oldest;        /* with all slots taken: the next to replace (0-based) */
    unsigned run[TTREC_SLOTS];      /* run number in each slot */
    uint64_t seed[TTREC_SLOTS];     /* its chaos seed */
    unsigned fails;         /* failing runs seen */
    unsigned first_fail;    /* run number of the kept failing run, 0 = none */
    uint64_t fail_seed;     /* its chaos seed */
    int calm_said;          /* said that runs after the failure are calm */
    int tree;               /* -o DIR/: each run a tree, in a folder (run/,
                               fail/, pass-1/...) instead of a file */
    char how[128];          /* how it failed */
} hunt;

static void path_in(const hunt *h, char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", h->dir, name);
}

/* A run's recording: DIR/STEM.trc, or the folder DIR/STEM for a tree. */
static void run_path(const hunt *h, char *buf, size_t n, const char *stem)
{
    snprintf(buf, n, "%s/%s%s", h->dir, stem, h->tree ? "" : ".trc");
}

/* The recording's name as the messages give it: "fail.trc" or "fail/". */
static const char *rec_ext(const hunt *h)
{
    return h->tree ? "/" : ".trc";
}

static void slot_path(const hunt *h, char *buf, size_t n, const char *stem, unsigned k)
{
    snprintf(buf, n, "%s/%s-%u%s", h->dir, stem, k, h->tree ? "" : ".trc");
}

static int drop_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
    (void)st;
    (void)flag;
    (void)f;
    remove(path);
    return 0;
}

/* Remove a recording: a trace file, or a tree's folder and all in it. */
static void drop(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode))
        nftw(path, drop_one, 16, FTW_DEPTH | FTW_PHYS);
    else
        unlink(path);
}

/* Make the folder (o->out, else PROG.ttrec); an existing one only with -f. */
static int make_dir(const opts *o, hunt *h)
{
    char prog[PATH_MAX];

    snprintf(prog, sizeof prog, "%s", o->prog);
    if (o->out) {
        snprintf(h->dir, sizeof h->dir, "%s", o->out);
        for (size_t n = strlen(h->dir); n > 1 && h->dir[n - 1] == '/'; n--)
            h->dir[n - 1] = 0;   /* DIR/ (a tree): the folder DIR */
    } else
        snprintf(h->dir, sizeof h->dir, "%s.ttrec", basename(prog));
    if (mkdir(h->dir, 0700) == 0)
        return 0;
    if (errno != EEXIST || !o->force)
        return ttri_cli_fail("%s: %s (use -f to reuse a folder, or -o another one)", h->dir,
                    errno == EEXIST ? "exists" : strerror(errno));
    return ttri_cli_own_dir(h->dir); /* ours alone: its file names are fixed */
}

static void progress(const opts *o, const hunt *h, int last)
{
    if (o->quiet)
        return;
    fprintf(stderr, "%sttrec: run %u of %u, %u failing, %u passing kept%s",
            o->tty ? "\r" : "", h->n, o->runs, h->fails, h->passes,
            o->tty ? "\033[K" : "\n");
    if (o->tty && last)
        fputc('\n', stderr);
}

/* File the run just made (run.trc, run.out, with chaos seed) as the failing
 * one, a passing one (a free slot, else the oldest's), or nothing. */
static int keep_run(hunt *h, const outcome *r, int bad, uint64_t seed)
{
    char trc[PATH_MAX + 16], out[PATH_MAX + 16], dst[PATH_MAX + 32];
    int rc = 0;

    run_path(h, trc, sizeof trc, "run");
    path_in(h, out, sizeof out, "run.out");
    if (bad && !h->first_fail) {
        h->first_fail = h->n;
        h->fail_seed = seed;
        describe(r, h->how, sizeof h->how);
        if (!r->timed_out && WIFEXITED(r->status) && !WEXITSTATUS(r->status))
            snprintf(h->how, sizeof h->how, "exit 0, --fail-if said failure");
        path_in(h, dst, sizeof dst, "fail.out");
        rc = rename(out, dst);
        run_path(h, dst, sizeof dst, "fail");
        drop(dst);
        rc |= rename(trc, dst);
    } else if (!bad) {
        unsigned k = h->passes < h->slots ? h->passes++ : h->oldest;
        if (k == h->oldest && h->passes == h->slots)  /* full: the next oldest */
            h->oldest = (k + 1) % h->slots;
        h->run[k] = h->n;
        h->seed[k] = seed;
        slot_path(h, dst, sizeof dst, "pass", k + 1);
        drop(dst);
        rc = rename(trc, dst);
    }
    h->fails += (unsigned)bad;
    drop(trc);
    unlink(out);
    return rc ? ttri_cli_fail("%s: %s", dst, strerror(errno)) : 0;
}

/* Forget what an earlier hunt left in the folder under our names. */
static void clear_dir(const hunt *h)
{
    static const char *const names[] = {"run.out", "fail.out"};
    char buf[PATH_MAX + 32];

    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        path_in(h, buf, sizeof buf, names[i]);
        unlink(buf);
    }
    run_path(h, buf, sizeof buf, "run");
    drop(buf);
    run_path(h, buf, sizeof buf, "fail");
    drop(buf);
    for (unsigned k = 1; k <= TTREC_SLOTS + 16; k++) {
        slot_path(h, buf, sizeof buf, "pass", k);
        drop(buf);
        slot_path(h, buf, sizeof buf, "cand", k);
        drop(buf);
    }
}

static int hunt_runs(const opts *o, hunt *h, unsigned keep)
{
    char trc[PATH_MAX + 16], out[PATH_MAX + 16];
    outcome r;
    int rc;

    char table[PATH_MAX + 32], to[PATH_MAX + 32];  /* TTCAP_OUT: DIR/run/ for a tree */
    run_path(h, trc, sizeof trc, "run");
    path_in(h, out, sizeof out, "run.out");
    snprintf(table, sizeof table, "%s/%s", trc, TTF_PTABLE_NAME);
    snprintf(to, sizeof to, "%s%s", trc, h->tree ? "/" : "");
    clear_dir(h);
    while (h->n < o->runs && !(h->first_fail && h->passes >= keep)) {
        /* once the failure is caught, the passing runs still missing are
         * run calm: under chaos most runs of a racy program fail */
        int calm = !o->chaos || h->first_fail;
        uint64_t seed = calm ? 0 : run_seed(o->chaos_seed, h->n + 1);
        if (calm && o->chaos && !h->calm_said && !o->quiet) {
            h->calm_said = 1;
            fprintf(stderr, "ttrec: the failure is caught; the passing runs still "
                    "needed run without chaos\n");
        }
        if (h->tree && mkdir(trc, 0700) != 0)
            return ttri_cli_fail("%s: cannot make the folder: %s", trc, strerror(errno));
        if ((rc = run_once(o, to, out, calm ? NULL : &seed, &r)))
            return rc;
        h->n++;
        if (h->tree && access(table, F_OK) != 0)
            return ttri_cli_fail("run %u wrote no process table in %s: did %s start?",
                                 h->n, trc, o->argv[0]);
        if (access(trc, F_OK) != 0)
            return ttri_cli_fail("run %s wrote no trace: is the program built with "
                        "-finstrument-functions or -pg -mfentry (see ttrec --help)?", trc);
        if ((rc = keep_run(h, &r, failed(o, &r, out), seed)))
            return rc;
        progress(o, h, 0);
    }
    if (o->tty)
        progress(o, h, 1);
    return 0;
}

/* ---- the good run: the passing run closest to the failing one ------------- */

/* Trees: every kept passing tree against the failing one (fail_dir). */
static void score_trees(const opts *o, const hunt *h, const char *fail_dir, ttri_prefix *sc)
{
    char (*dirs)[PATH_MAX + 32] = calloc(h->passes + 1, sizeof *dirs), err[512];
    const char **names = calloc(h->passes + 1, sizeof *names);

    for (unsigned k = 0; dirs && names && k < h->passes; k++) {
        slot_path(h, dirs[k], sizeof dirs[k], "pass", k + 1);
        names[k] = dirs[k];
    }
    if (!dirs || !names)
        snprintf(err, sizeof err, "out of memory");
    int rc = dirs && names ? ttri_tree_prefix(fail_dir, names, h->passes, sc, err, sizeof err)
                           : TT_ENOMEM;
    if ((rc || err[0]) && !o->quiet)
        fprintf(stderr, "ttrec: %s%s\n", err, rc ? ": the good run is the first passing "
                "one" : "");
    free(dirs);
    free(names);
}

/* Score every kept passing run against fail.trc into sc (slot order). A
 * trace that cannot be read scores 0 (and says so). */
static void score_slots(const opts *o, const hunt *h, ttri_prefix *sc)
{
    char path[PATH_MAX + 32], err[512];
    ttri_calls *fail = NULL;

    memset(sc, 0, h->passes * sizeof *sc);
    run_path(h, path, sizeof path, "fail");
    if (h->tree) {
        score_trees(o, h, path, sc);
        return;
    }
    if (ttri_calls_load(path, &fail, err, sizeof err)) {
        if (!o->quiet)
            fprintf(stderr, "ttrec: cannot compare the runs (%s): the good run is the "
                    "first passing one\n", err);
        return;
    }
    for (unsigned k = 0; k < h->passes; k++) {
        slot_path(h, path, sizeof path, "pass", k + 1);
        if (ttri_calls_prefix(fail, path, &sc[k], err, sizeof err) && !o->quiet)
            fprintf(stderr, "ttrec: %s\n", err);
    }
    ttri_calls_free(fail);
}

/* Say which run is the good one and why, and which are baselines. */
static void tell_choice(const opts *o, const hunt *h, const ttri_prefix *sc,
                        const size_t *order, unsigned kept)
{
    const ttri_prefix *g = &sc[order[0]];

    if (o->quiet)
        return;
    fprintf(stderr, "ttrec: good run: run %u (pass-1%s), the closest of %u passing "
            "run%s to the failing one: common call prefix %llu of its %llu calls "
            "(summed over %zu thread%s paired by creation order", h->run[order[0]],
            rec_ext(h), h->passes, h->passes == 1 ? "" : "s", (unsigned long long)g->common,
            (unsigned long long)g->calls, g->threads, g->threads == 1 ? "" : "s");
    if (h->tree)
        fprintf(stderr, ", of %zu traced process%s paired by program and arguments",
                g->procs, g->procs == 1 ? "" : "es");
    fputc(')', stderr);
    for (unsigned i = 1; i < kept; i++)
        fprintf(stderr, "%s run %u (pass-%u%s, %llu)", i > 1 ? "," : h->tree ?
                "; also kept (no --baseline for trees):" : "; baselines:",
                h->run[order[i]], i + 1, rec_ext(h), (unsigned long long)sc[order[i]].common);
    if (h->passes > kept)
        fprintf(stderr, "; %u farther run%s dropped", h->passes - kept,
                h->passes - kept == 1 ? "" : "s");
    fputc('\n', stderr);
}

/* Rename the kept runs so pass-1.trc is the closest, pass-2... the next
 * closest up to keep; the rest are deleted. The number kept. */
static unsigned choose_good(const opts *o, hunt *h)
{
    ttri_prefix sc[TTREC_SLOTS];
    size_t order[TTREC_SLOTS];
    unsigned run[TTREC_SLOTS], kept = h->passes < o->keep ? h->passes : o->keep;
    uint64_t seed[TTREC_SLOTS];
    char a[PATH_MAX + 32], b[PATH_MAX + 32];

    score_slots(o, h, sc);
    ttri_rank(sc, h->passes, order);
    tell_choice(o, h, sc, order, kept);
    for (unsigned k = 0; k < h->passes; k++) {
        slot_path(h, a, sizeof a, "pass", k + 1);
        slot_path(h, b, sizeof b, "cand", k + 1);
        rename(a, b);
    }
    for (unsigned i = 0; i < h->passes; i++) {
        slot_path(h, a, sizeof a, "cand", (unsigned)order[i] + 1);
        slot_path(h, b, sizeof b, "pass", i + 1);
        if (i < kept)
            rename(a, b);
        else
            drop(a);
        run[i] = h->run[order[i]];
        seed[i] = h->seed[order[i]];
    }
    memcpy(h->run, run, sizeof run);
    memcpy(h->seed, seed, sizeof seed);
    h->passes = kept;
    return kept;
}

/* Run ttdiff on the kept runs; its exit status, or 2. */
static int diff_runs(const opts *o, const hunt *h)
{
    char *ttdiff = beside_me("ttdiff", NULL);
    const char **av = calloc(o->ntargs + 2 * h->passes + 12, sizeof *av);
    char (*paths)[PATH_MAX + 32] = calloc(TTREC_SLOTS + 3, sizeof *paths), ext[16];
    size_t n = 0, rep = TTREC_SLOTS + 2;
    int st = 0;

    if (!av || !paths) {
        free(av);
        free(paths);
        free(ttdiff);
        return ttri_cli_fail("out of memory");
    }
    av[n++] = ttdiff ? ttdiff : "ttdiff";
    for (size_t i = 0; i < o->ntargs; i++)
        av[n++] = o->targs[i];
    av[n++] = "--format";
    av[n++] = o->format;
    if (!h->tree) {             /* a tree's table has each process's end */
        av[n++] = "--bad-failed";   /* a caught failure is never "no divergence" */
        av[n++] = h->how;
    }
    if (strcmp(o->format, "text")) {
        snprintf(ext, sizeof ext, "report.%s", o->format);
        path_in(h, paths[rep], sizeof paths[rep], ext);
        av[n++] = "-o";
        av[n++] = paths[rep];
        if (o->force)
            av[n++] = "--force";
    }
    for (unsigned k = 2; k <= h->passes && !h->tree; k++) {
        slot_path(h, paths[k], sizeof paths[k], "pass", k);
        av[n++] = "--baseline";
        av[n++] = paths[k];
    }
    slot_path(h, paths[0], sizeof paths[0], "pass", 1);
    run_path(h, paths[1], sizeof paths[1], "fail");
    av[n++] = paths[0];
    av[n++] = paths[1];
    if (!o->quiet) {
        fprintf(stderr, "ttrec:");
        for (size_t i = 0; i < n; i++)
            fprintf(stderr, strchr(av[i], ' ') ? " '%s'" : " %s", av[i]);
        fputc('\n', stderr);
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        execvp(av[0], (char *const *)av);
        fprintf(stderr, "ttrec: %s: %s\n", av[0], strerror(errno));
        _exit(2);
    }
    while (pid > 0 && waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (pid >= 0 && WIFEXITED(st) && strcmp(o->format, "text") && WEXITSTATUS(st) < 2 &&
        !o->quiet)
        fprintf(stderr, "ttrec: report in %s\n", paths[rep]);
    free(av);
    free(paths);
    free(ttdiff);
    if (pid < 0 || !WIFEXITED(st))
        return ttri_cli_fail("ttdiff did not finish");
    if (h->tree && WEXITSTATUS(st) == 0) {  /* no --bad-failed for trees */
        fprintf(stderr, "ttrec: no process of the trees differs, yet run %u failed (%s)\n",
                h->first_fail, h->how);
        return 1;
    }
    return WEXITSTATUS(st);
}

static void tell_fail(const opts *o, const hunt *h)
{
    char seed[96] = "";

    if (o->quiet)
        return;
    if (o->chaos)
        snprintf(seed, sizeof seed, " in chaos mode, seed %llu (ttrec --chaos=%llu%s -- ... repeats it)",
                 (unsigned long long)h->fail_seed, (unsigned long long)h->fail_seed,
                 o->chaos_entries ? " --chaos-entries" : "");
    fprintf(stderr, "ttrec: run %u failed (%s)%s: %s/fail%s, its output %s/fail.out; "
            "%u passing run%s kept\n", h->first_fail, h->how, seed, h->dir, rec_ext(h),
            h->dir, h->passes, h->passes == 1 ? "" : "s");
}

static int until_fail(const opts *o)
{
    hunt h;
    int rc;

    memset(&h, 0, sizeof h);
    h.tree = o->tree;
    h.slots = o->keep > o->candidates ? o->keep : o->candidates;
    if (!o->quiet && o->chaos)
        fprintf(stderr, "ttrec: chaos mode, base seed %llu%s\n",
                (unsigned long long)o->chaos_seed,
                o->chaos_entries ? " (sync operations and function entries)" : "");
    if ((rc = make_dir(o, &h)) || (rc = hunt_runs(o, &h, o->keep)))
        return rc;
    if (!h.first_fail) {
        fprintf(stderr, "ttrec: no failure in %u runs (passing traces kept in %s/)\n",
                h.n, h.dir);
        return 0;
    }
    tell_fail(o, &h);
    if (!h.passes && h.tree)
        return ttri_cli_fail("every run failed: no passing run to compare with (%s/fail/ "
                             "kept)", h.dir);
    if (!h.passes)
        return ttri_cli_fail("every run failed: no passing run to compare with (%s/fail.trc "
                    "kept; its races alone: ttdump --races %s/fail.trc)", h.dir, h.dir);
    choose_good(o, &h);
    return diff_runs(o, &h);
}

int main(int argc, char **argv)
{
    opts o;

    ttri_cli_init("ttrec");
    int rc = parse(&o, argc, argv);

    if (rc)
        goto out;
    if (!(o.prog = resolve(o.argv[0]))) {
        rc = ttri_cli_fail("%s: command not found", o.argv[0]);
        goto out;
    }
    o.tty = isatty(2);
    struct stat st;
    /* a tree: -o DIR/ (a trailing slash); one run, also an existing folder */
    o.tree = o.out && ((o.out[0] && o.out[strlen(o.out) - 1] == '/') ||
                       (!o.runs && stat(o.out, &st) == 0 && S_ISDIR(st.st_mode)));
    if ((rc = choose_preload(&o)))
        goto out;
    rc = o.runs ? until_fail(&o) : o.tree ? record_tree(&o) : record_one(&o);
out:
    free(o.targs);
    free(o.prog);
    free(o.lib);
    return rc;
}
