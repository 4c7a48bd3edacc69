/*
 * ttcc.c - the ttcc command: a compiler wrapper that builds a program for
 * tracing with libttcap, whatever the build system. `CC="ttcc gcc"`,
 * `CXX="ttcc g++"`, or `ttcc --values gcc ...` for values mode.
 *
 * Why a wrapper: a build system passes one set of flags to the compiler and
 * another, in an order it chooses, to the link. Values mode needs -pg at
 * compile time and must not have it at link time (gcc then links gprof's
 * gcrt1.o), and libttcap must stay on the link line even under
 * --as-needed, where LDFLAGS before the objects would be dropped. Both
 * are decided per command here, where the whole command line is in view:
 *
 * - No input file (--version, -dumpmachine, -print-prog-name=ld ...): the
 *   command runs unchanged: build systems probe the compiler this way.
 * - Preprocessing (-E, -M, -MM): only libttcap's include folder is added
 *   (-idirafter, searched after the system's, so it shadows nothing).
 * - Compiling (-c, -S, -fsyntax-only): the mode's flags come first (so a
 *   -fno-instrument-functions or -g0 of the project's, later, still wins),
 *   then the command, then the include folder.
 * - Linking (executables and shared libraries alike; not -r, a partial
 *   link, which only loses -pg): -pg and -p are taken
 *   out and libttcap is added at the end between
 *   -Wl,--push-state,--no-as-needed and -Wl,--pop-state, with -L and an
 *   rpath to its folder (beside ttcc in a build tree, PREFIX/lib when
 *   installed). A command that compiles and links at once while -pg is in
 *   effect is split: each source is compiled to a temporary object with
 *   -pg, then the objects are linked without it.
 * - Values mode, after a link (a program or a shared library): its string
 *   table (which functions take a char * or std::string, from its debug
 *   info) goes into it as the section .ttcap.vt (add_value_table):
 *   libttcap then records those strings' first bytes. `ttcc --add-table
 *   FILE...` does the same for files another build system linked.
 *
 * Response files (@file) are read for what they ask, never rewritten.
 * Arguments are never re-parsed by a shell: the compiler is exec'd with an
 * argument vector. Standalone on purpose (no tt library linked): it runs
 * once per compile. Errors: one line "ttcc: what", exit status 2.
 * Stage 2 commands of report/cmd/STAGES.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef TT_VERSION
#define TT_VERSION "0"
#endif

#ifndef TT_TRACE_FORMAT    /* the trace format libttcap writes, given by ttcc.mk */
#define TT_TRACE_FORMAT "?"
#endif

#define TROUBLE 2

static const char usage[] =
    "usage: ttcc [--values | --plain] [--show] COMPILER [ARGS...]\n"
    "       ttcc [--show] --add-table FILE...\n"
    "Run COMPILER (gcc, g++, clang, cc ...) with ARGS, adding what tracing with\n"
    "libttcap needs: CC=\"ttcc gcc\" CXX=\"ttcc g++\" for any build system.\n"
    "\n"
    "  --plain             plain mode (default): compile with -finstrument-functions\n"
    "                      -fno-plt -g; every call's entry and exit is recorded\n"
    "  --values            values mode (x86-64): compile with -pg -mfentry -g, and\n"
    "                      with gcc the flags that keep functions called once,\n"
    "                      split or cloned traced (see ttcc(1)); calls also\n"
    "                      record their argument registers and return value\n"
    "  --show              print each command run to stderr (shell-quoted)\n"
    "  --add-table FILE... store the string table in programs and shared libraries\n"
    "                      built with values mode's flags but linked without ttcc\n"
    "                      (CMake's ttcap::values, pkg-config): what ttcc --values\n"
    "                      does after its links; run it after each link\n"
    "  -h, --help          this help\n"
    "  -V, --version       print the version\n"
    "\n"
    "Environment: TTCC_MODE=plain|values chooses the mode when neither option is\n"
    "given (for build systems that cannot pass one); TTCC_SHOW=1 is --show.\n"
    "Options go before COMPILER; everything after it is the compiler's.\n"
    "At link time (executables and shared libraries) ttcc adds libttcap so that\n"
    "--as-needed cannot drop it, with -L and an rpath to its folder, and takes\n"
    "-pg out; a command that compiles and links at once with -pg is split into\n"
    "compiles and a link. In values mode each link is followed by\n"
    "ttdump --value-table and objcopy, which store which functions take strings\n"
    "(section .ttcap.vt: libttcap records their first bytes; OBJCOPY names the\n"
    "objcopy). Commands without input files (--version, -v, -print-...) run\n"
    "unchanged; -E and -M only get libttcap's include folder.\n"
    "Exit status: the compiler's; 2 for ttcc's own errors (bad options, no\n"
    "compiler, libttcap not found, the compiler would not start; with\n"
    "--add-table a FILE that is not an ELF file or a failing step); 0 when\n"
    "--add-table added every table it could (a FILE without debug info or\n"
    "string parameters gets none, with one line).\n";

#if defined(__SANITIZE_ADDRESS__)
/* ttcc lives for one command and ends in exec or exit: the argument
 * vectors it builds are not freed on every path (the kernel does), so an
 * ASan build's leak report at exit would only turn its exit status into
 * LeakSanitizer's. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
    return "detect_leaks=0";
}
#endif

/* What ttcc was asked to do, and where libttcap is. */
typedef struct conf {
    int values;             /* 1 values mode, 0 plain mode */
    int show;               /* --show / TTCC_SHOW: print commands */
    int add_table;          /* --add-table: argv from the index returned are files */
    int clang;              /* 1: the compiler's name has "clang" in it */
    char libdir[PATH_MAX + 16];  /* folder holding libttcap.so */
    char incdir[PATH_MAX + 16];  /* folder holding ttcap.h */
    char bindir[PATH_MAX];  /* ttcc's own folder (ttdump is beside it) */
} conf;

/* A growable argument vector, NULL-terminated. */
typedef struct vec {
    char **v;               /* the arguments, v[n] == NULL */
    size_t n;               /* number of arguments */
    size_t cap;             /* allocated slots */
} vec;

/* What a command line asks the compiler for. */
typedef struct scan {
    int stop;               /* -c, -S or -fsyntax-only: no link */
    int pre;                /* -E, -M or -MM: preprocess only */
    size_t inputs;          /* input files (sources, objects, @files) */
    size_t sources;         /* inputs the compiler compiles */
    int pg;                 /* -pg or -p given */
    int partial;            /* -r: a relocatable (partial) link */
    size_t rsp_sources;     /* sources named inside @files */
} scan;

static void fail_exit(const char *fmt, const char *a, const char *b)
    __attribute__((noreturn));

/* One error line "ttcc: ..." (fmt with up to two %s), exit 2. */
static void fail_exit(const char *fmt, const char *a, const char *b)
{
    fputs("ttcc: ", stderr);
    fprintf(stderr, fmt, a ? a : "", b ? b : "");
    fputc('\n', stderr);
    exit(TROUBLE);
}

/* Append s (not copied: it must outlive the vector) to v; exits on no
 * memory. */
static void push(vec *v, char *s)
{
    if (v->n + 2 > v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 64;
        char **nv = realloc(v->v, cap * sizeof *nv);
        if (!nv)
            fail_exit("out of memory%s%s", NULL, NULL);
        v->v = nv;
        v->cap = cap;
    }
    v->v[v->n++] = s;
    v->v[v->n] = NULL;
}

/* A malloc'd concatenation of a and b; exits on no memory. */
static char *cat(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    char *s = malloc(la + lb + 1);
    if (!s)
        fail_exit("out of memory%s%s", NULL, NULL);
    memcpy(s, a, la);
    memcpy(s + la, b, lb + 1);
    return s;
}

/* 1 if opt takes the next argument as its value (gcc's and clang's
 * separate-argument options; "-o" "-x" "-I" as whole arguments). */
static int takes_value(const char *opt)
{
    static const char *const names[] = {
        "-o", "-x", "-I", "-D", "-U", "-L", "-l", "-include", "-imacros",
        "-isystem", "-idirafter", "-iprefix", "-iwithprefix",
        "-iwithprefixbefore", "-iquote", "-isysroot", "-imultilib", "-MF",
        "-MT", "-MQ", "-T", "-Xlinker", "-Xassembler", "-Xpreprocessor",
        "-Xclang", "-aux-info", "--param", "-u", "-e", "-z", "-B", "-G",
        "-A", "-dumpdir", "-dumpbase", "-dumpbase-ext", "-target", "-arch",
        "--sysroot", "-wrapper", "-specs", "-Xarch_host", "-Xarch_device",
        NULL
    };
    for (size_t i = 0; names[i]; i++)
        if (!strcmp(opt, names[i]))
            return 1;
    return 0;
}

/* 1 if path names a file gcc compiles (by its suffix) rather than one it
 * hands to the linker. */
static int is_source(const char *path)
{
    static const char *const ext[] = {
        "c", "i", "ii", "cc", "cp", "cxx", "cpp", "CPP", "c++", "C", "m",
        "mi", "mm", "M", "mii", "s", "S", "sx", NULL
    };
    const char *dot = strrchr(path, '.');
    if (!dot || strchr(dot, '/'))
        return 0;
    for (size_t i = 0; ext[i]; i++)
        if (!strcmp(dot + 1, ext[i]))
            return 1;
    return 0;
}

/* Classify one option (argv[i] starts with '-' and is not "-") into sc. */
static void scan_option(scan *sc, const char *a)
{
    if (!strcmp(a, "-c") || !strcmp(a, "-S") || !strcmp(a, "-fsyntax-only"))
        sc->stop = 1;
    else if (!strcmp(a, "-E") || !strcmp(a, "-M") || !strcmp(a, "-MM"))
        sc->pre = 1;
    else if (!strcmp(a, "-pg") || !strcmp(a, "-p"))
        sc->pg = 1;
    else if (!strcmp(a, "-r"))
        sc->partial = 1;
}

/* The arguments in response file path (gcc's @file: words split at white
 * space, '...' and "..." quoted, backslash escapes), as a vector of
 * malloc'd strings; an empty one if it cannot be read (gcc then takes
 * "@path" as a file name). */
static vec read_rsp(const char *path)
{
    vec v = { NULL, 0, 0 };
    FILE *f = fopen(path, "r");
    if (!f)
        return v;
    char *w = NULL;
    size_t len = 0;
    FILE *m = NULL;
    int c, q = 0;
    while ((c = fgetc(f)) != EOF) {
        if (!q && (c == ' ' || c == '\t' || c == '\n' || c == '\r')) {
            if (m && !fclose(m))
                push(&v, w);
            m = NULL;
            continue;
        }
        if (!m && !(m = open_memstream(&w, &len)))
            break;
        int esc = c == '\\';
        if (esc && (c = fgetc(f)) == EOF)
            break;
        if (!esc && q && c == q)
            q = 0;
        else if (!esc && !q && (c == '\'' || c == '"'))
            q = c;
        else
            fputc(c, m);
    }
    if (m && !fclose(m))
        push(&v, w);
    fclose(f);
    return v;
}

/* Classify args[0..n) into sc; lang is the current -x language (NULL: by
 * suffix). A response file's words count as if given here (one level):
 * its sources in sc->rsp_sources too. */
static void scan_into(scan *sc, char **args, size_t n, const char **lang, int in_rsp)
{
    for (size_t i = 0; i < n; i++) {
        const char *a = args[i];
        if (a[0] == '-' && a[1]) {
            if (!strncmp(a, "-x", 2))
                *lang = a[2] ? a + 2 : i + 1 < n ? args[i + 1] : NULL;
            if (*lang && !strcmp(*lang, "none"))
                *lang = NULL;
            scan_option(sc, a);
            i += takes_value(a) && i + 1 < n;
            continue;
        }
        if (a[0] == '@' && !in_rsp) {
            vec r = read_rsp(a + 1);
            scan_into(sc, r.v, r.n, lang, 1);
            sc->inputs += !r.v;         /* unreadable: gcc's file name */
            for (size_t k = 0; k < r.n; k++)
                free(r.v[k]);
            free(r.v);
            continue;
        }
        sc->inputs++;
        int src = *lang || is_source(a);
        sc->sources += src;
        sc->rsp_sources += src && in_rsp;
    }
}

/* What the compiler arguments args[0..n) ask for. */
static scan scan_args(char **args, size_t n)
{
    scan sc;
    const char *lang = NULL;
    memset(&sc, 0, sizeof sc);
    scan_into(&sc, args, n, &lang, 0);
    return sc;
}

/* Print v to stderr, each argument shell-quoted where it needs it. */
static void show(const vec *v)
{
    fputs("ttcc:", stderr);
    for (size_t i = 0; i < v->n; i++) {
        const char *s = v->v[i];
        if (*s && !s[strcspn(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~")]) {
            fprintf(stderr, " %s", s);
            continue;
        }
        fputs(" '", stderr);
        for (; *s; s++)
            if (*s == '\'')
                fputs("'\\''", stderr);
            else
                fputc(*s, stderr);
        fputc('\'', stderr);
    }
    fputc('\n', stderr);
}

/* Replace this process with the command v. Never returns. */
static void run_exec(const conf *c, const vec *v) __attribute__((noreturn));
static void run_exec(const conf *c, const vec *v)
{
    if (c->show)
        show(v);
    fflush(NULL);
    execvp(v->v[0], v->v);
    fail_exit("%s: cannot run: %s", v->v[0], strerror(errno));
}

/* Run the command v and wait: its exit status (128+N for signal N), or 2
 * if it could not start (one line said so). */
static int run_wait(const conf *c, const vec *v)
{
    if (c->show)
        show(v);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "ttcc: fork: %s\n", strerror(errno));
        return TROUBLE;
    }
    if (pid == 0) {
        execvp(v->v[0], v->v);
        fprintf(stderr, "ttcc: %s: cannot run: %s\n", v->v[0], strerror(errno));
        _exit(TROUBLE);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return TROUBLE;
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

#ifndef TTCC_VALUES_GCC
#define TTCC_VALUES_GCC ""
#endif

/* Values mode's gcc flags (TTCC_VALUES_GCC, from the Makefile's
 * VALUES_GCC_FLAGS, as in ttcap-values.pc), one by one into v. */
static void push_values_gcc(vec *v)
{
    static char flags[] = TTCC_VALUES_GCC;
    static int split;
    static char *one[16];
    static size_t n;
    if (!split) {
        for (char *t = strtok(flags, " "); t && n < 16; t = strtok(NULL, " "))
            one[n++] = t;
        split = 1;
    }
    for (size_t i = 0; i < n; i++)
        push(v, one[i]);
}

/* Add the mode's compile flags to v: values mode's gcc flags unless the
 * compiler is clang (which rejects them). */
static void push_mode(const conf *c, vec *v)
{
    if (c->values) {
        push(v, "-pg");
        push(v, "-mfentry");
    } else {
        push(v, "-finstrument-functions");
        push(v, "-fno-plt");
    }
    push(v, "-g");
    if (c->values && !c->clang)
        push_values_gcc(v);
}

/* Add libttcap's link flags to v: kept under --as-needed, found at run
 * time through the rpath. */
static void push_link(const conf *c, vec *v)
{
    push(v, cat("-L", c->libdir));
    push(v, cat("-Wl,-rpath,", c->libdir));
    push(v, "-Wl,--push-state,--no-as-needed");
    push(v, "-lttcap");
    push(v, "-Wl,--pop-state");
}

/* 1 if a is a link-only option (left out of a split's compile commands). */
static int link_only(const char *a)
{
    return !strncmp(a, "-l", 2) || !strncmp(a, "-L", 2) ||
           !strncmp(a, "-Wl,", 4) || !strcmp(a, "-Xlinker") ||
           !strcmp(a, "-shared") || !strcmp(a, "-static") ||
           !strcmp(a, "-rdynamic") || !strcmp(a, "-pie") ||
           !strcmp(a, "-no-pie") || !strcmp(a, "-T");
}

/* Copy args[0..n) into v for a link: -pg and -p dropped; with objs (a
 * split), source i is replaced by objs[k] in order, and -x and its value
 * are dropped (the objects need no language). */
static void push_link_args(vec *v, char **args, size_t n, char **objs)
{
    const char *lang = NULL;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        char *a = args[i];
        if (a[0] == '-' && a[1]) {
            int val = takes_value(a) && i + 1 < n;
            if (objs && !strncmp(a, "-x", 2)) {
                lang = val ? args[i + 1] : a + 2;
                lang = strcmp(lang, "none") ? lang : NULL;
                i += val;
                continue;
            }
            if (strcmp(a, "-pg") && strcmp(a, "-p"))
                push(v, a);
            if (val)
                push(v, args[++i]);
            continue;
        }
        push(v, objs && a[0] != '@' && (lang || is_source(a)) ? objs[k++] : a);
    }
}

/* Into opts, the options of args[0..n) that a compile of one source
 * takes: all but -o, -x and link-only ones (with their values). */
static void compile_options(vec *opts, char **args, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char *a = args[i];
        if (a[0] != '-' || !a[1])
            continue;
        int val = takes_value(a) && i + 1 < n;
        int keep = strncmp(a, "-o", 2) && strncmp(a, "-x", 2) && !link_only(a);
        if (keep)
            push(opts, a);
        if (keep && val)
            push(opts, args[i + 1]);
        i += val;
    }
}

/* Compile source src (in language lang, NULL = by its suffix) to obj with
 * the mode's flags and opts: the compiler's exit status. */
static int compile_one(const conf *c, const char *compiler, const vec *opts,
                       const char *lang, char *src, char *obj)
{
    vec v = { NULL, 0, 0 };
    push(&v, (char *)compiler);
    push_mode(c, &v);
    for (size_t j = 0; j < opts->n; j++)
        push(&v, opts->v[j]);
    push(&v, "-c");
    push(&v, "-x");
    push(&v, (char *)(lang ? lang : "none"));
    push(&v, src);
    push(&v, "-o");
    push(&v, obj);
    push(&v, cat("-idirafter", c->incdir));
    int rc = run_wait(c, &v);
    free(v.v[v.n - 1]);
    free(v.v);
    return rc;
}

/* Compile each source of args[0..n) to dir/K.o (objs[k], malloc'd); the
 * first failing compile's status, or 0. */
static int split_compile(const conf *c, const char *compiler, char **args,
                         size_t n, const char *dir, char **objs)
{
    vec opts = { NULL, 0, 0 };
    const char *lang = NULL;
    size_t k = 0;
    int rc = 0;
    compile_options(&opts, args, n);
    for (size_t i = 0; i < n && !rc; i++) {
        char *a = args[i];
        if (a[0] == '-' && a[1]) {
            int val = takes_value(a) && i + 1 < n;
            if (!strncmp(a, "-x", 2)) {
                lang = val ? args[i + 1] : a + 2;
                lang = strcmp(lang, "none") ? lang : NULL;
            }
            i += val;
            continue;
        }
        if (a[0] == '@' || !(lang || is_source(a)))
            continue;
        char num[32];
        snprintf(num, sizeof num, "/%zu.o", k);
        objs[k] = cat(dir, num);
        rc = compile_one(c, compiler, &opts, lang, a, objs[k++]);
    }
    free(opts.v);
    return rc;
}

static void add_value_table(const conf *c, char **args, size_t n);

/* A command that compiles and links with -pg in effect: compile each
 * source with -pg into a temporary folder, link the objects without -pg,
 * remove the folder. The first failing step's status. */
static int split_run(const conf *c, char **argv, size_t n, size_t nsrc)
{
    const char *tmp = getenv("TMPDIR");
    char *dir = cat(tmp && *tmp ? tmp : "/tmp", "/ttcc.XXXXXX");
    if (!mkdtemp(dir))
        fail_exit("%s: cannot make a temporary folder: %s", dir, strerror(errno));
    char **objs = calloc(nsrc + 1, sizeof *objs);
    if (!objs)
        fail_exit("out of memory%s%s", NULL, NULL);
    int rc = split_compile(c, argv[0], argv + 1, n - 1, dir, objs);
    if (!rc) {
        vec v = { NULL, 0, 0 };
        push(&v, argv[0]);
        push_link_args(&v, argv + 1, n - 1, objs);
        size_t owned = v.n;         /* push_link's -L and -rpath are ours */
        push_link(c, &v);
        rc = run_wait(c, &v);
        if (rc == 0 && c->values)
            add_value_table(c, argv + 1, n - 1);
        free(v.v[owned]);
        free(v.v[owned + 1]);
        free(v.v);
    }
    for (size_t k = 0; k < nsrc && objs[k]; k++) {
        unlink(objs[k]);
        free(objs[k]);
    }
    rmdir(dir);
    free(objs);
    free(dir);
    return rc;
}

/* The string table of the ELF file file: the functions whose arguments
 * are strings, read from its debug info by `ttdump --value-table` (beside
 * ttcc), stored in it as the section .ttcap.vt (`objcopy
 * --remove-section --add-section`, $OBJCOPY or objcopy: a table already
 * there is replaced; not loaded, the build-id unchanged): libttcap reads it
 * when it loads the file and records those strings' first bytes
 * (capture/cap_vtab.c, VALUES.md). A file without debug info or string
 * parameters gets none (-1: nothing to add). 0 when added; else the
 * failing step's status, with *step naming it. */
static int table_into(const conf *c, const char *file, const char **step)
{
    const char *tmp = getenv("TMPDIR"), *objcopy = getenv("OBJCOPY");
    char *table = cat(tmp && *tmp ? tmp : "/tmp", "/ttcc-vt.XXXXXX");
    int fd = mkstemp(table);
    *step = "a temporary file";
    if (fd < 0) {
        free(table);
        return TROUBLE;
    }
    close(fd);
    char *dump = cat(c->bindir, "/ttdump"), *sect = cat(".ttcap.vt=", table);
    char *dv[] = {dump, "--value-table", table, (char *)file, NULL};
    char *ov[] = {(char *)(objcopy && *objcopy ? objcopy : "objcopy"), "--remove-section",
                  ".ttcap.vt", "--add-section", sect, (char *)file, NULL};
    vec d = {dv, 4, 5}, o = {ov, 6, 7};
    struct stat st;
    *step = "ttdump --value-table";
    int rc = run_wait(c, &d);
    if (rc == 0 && (stat(table, &st) != 0 || st.st_size == 0))
        rc = -1;                /* nothing to add */
    if (rc == 0) {
        *step = o.v[0];
        rc = run_wait(c, &o);
    }
    unlink(table);
    free(table);
    free(dump);
    free(sect);
    return rc;
}

/* After a values-mode link of a program or shared library (not -r): its
 * string table (table_into). A step that fails leaves the file as linked,
 * with one warning line: its strings are then compared as pointers. The
 * output is -o's, or a.out. */
static void add_value_table(const conf *c, char **args, size_t n)
{
    const char *out = NULL, *step;
    int rsp = 0;
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(args[i], "-r"))
            return;
        if (!strcmp(args[i], "-o") && i + 1 < n)
            out = args[++i];
        else if (!strncmp(args[i], "-o", 2) && args[i][2])
            out = args[i] + 2;
        else if (args[i][0] == '@')
            rsp = 1;
        else if (takes_value(args[i]))
            i++;
    }
    if (!out && rsp)
        return;                 /* -o may be in the @file: not guessed */
    int rc = table_into(c, out ? out : "a.out", &step);
    if (rc > 0)
        fprintf(stderr, "ttcc: warning: %s: no string table added (%s failed; strings are "
                "compared as pointers)\n", out ? out : "a.out", step);
}

/* ttcc --add-table FILE...: the string table into programs and shared
 * libraries linked without ttcc (CMake's ttcap::values, pkg-config). Each
 * file must be an ELF file; one with nothing to add is said so and left.
 * Exits: 0, or 2 at the first error (one line). */
static void add_tables(const conf *c, char **files, int n)
{
    if (n == 0)
        fail_exit("--add-table: no file given (usage: ttcc --add-table FILE...)%s%s", NULL,
                  NULL);
    for (int i = 0; i < n; i++) {
        unsigned char m[4] = {0};
        FILE *f = fopen(files[i], "rb");
        if (!f)
            fail_exit("%s: cannot open: %s", files[i], strerror(errno));
        size_t got = fread(m, 1, 4, f);
        fclose(f);
        if (got != 4 || memcmp(m, "\177ELF", 4))
            fail_exit("%s: not an ELF file (a program or a shared library)%s", files[i], NULL);
    }
    for (int i = 0; i < n; i++) {
        const char *step;
        int rc = table_into(c, files[i], &step);
        if (rc < 0)
            fprintf(stderr, "ttcc: %s: no function with a string parameter in its debug "
                    "info: no table added\n", files[i]);
        else if (rc)
            fail_exit("%s: no string table added: %s failed", files[i], step);
    }
    exit(0);
}

/* 1 if dir/name is an existing file. */
static int has_file(const char *dir, const char *name)
{
    char p[PATH_MAX];
    struct stat st;
    return (size_t)snprintf(p, sizeof p, "%s/%s", dir, name) < sizeof p &&
           stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Find libttcap beside this executable (a build tree: libttcap.so and
 * include/ttcap.h in ttcc's folder) or in PREFIX/lib and PREFIX/include
 * (installed as PREFIX/bin/ttcc); exits with a line naming both places
 * when neither holds it. */
static void locate(conf *c)
{
    char exe[PATH_MAX], up[PATH_MAX + 16];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        fail_exit("cannot find its own executable: %s%s", strerror(errno), NULL);
    exe[len] = '\0';
    char *slash = strrchr(exe, '/');
    *slash = '\0';
    snprintf(c->bindir, sizeof c->bindir, "%s", exe);
    if (has_file(exe, "libttcap.so")) {
        snprintf(c->libdir, sizeof c->libdir, "%s", exe);
        snprintf(c->incdir, sizeof c->incdir, "%s/include", exe);
        return;
    }
    snprintf(up, sizeof up, "%s/../lib", exe);
    if (realpath(up, c->libdir) && has_file(c->libdir, "libttcap.so")) {
        snprintf(up, sizeof up, "%s/../include", exe);
        if (!realpath(up, c->incdir))
            snprintf(c->incdir, sizeof c->incdir, "%s", up);
        return;
    }
    fail_exit("libttcap.so is neither beside ttcc (%s) nor in %s/../lib", exe, exe);
}

/* Parse ttcc's own options (before COMPILER) and the environment into c;
 * the index of COMPILER in argv. --help and --version exit here. */
static int parse(conf *c, int argc, char **argv)
{
    const char *m = getenv("TTCC_MODE"), *sh = getenv("TTCC_SHOW");
    c->values = -1;
    c->add_table = 0;
    c->show = sh && *sh && strcmp(sh, "0");
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(usage, stdout);
            exit(0);
        }
        if (!strcmp(a, "-V") || !strcmp(a, "--version")) {
            printf("ttcc %s (trace format %s)\n", TT_VERSION, TT_TRACE_FORMAT);
            exit(0);
        }
        if (!strcmp(a, "--add-table")) {
            c->add_table = 1;
            return i + 1;
        }
        if (!strcmp(a, "--values") || !strcmp(a, "--plain"))
            c->values = a[2] == 'v';
        else if (!strcmp(a, "--show"))
            c->show = 1;
        else
            fail_exit("%s: unknown option (ttcc's options go before the compiler; "
                      "see ttcc --help)%s", a, NULL);
    }
    if (i >= argc)
        fail_exit("no compiler given (usage: ttcc [--values] COMPILER ARGS...)%s%s",
                  NULL, NULL);
    if (c->values < 0 && m && *m) {
        if (strcmp(m, "plain") && strcmp(m, "values"))
            fail_exit("TTCC_MODE=%s: not a mode (plain or values)%s", m, NULL);
        c->values = m[0] == 'v';
    }
    c->values = c->values > 0;
#if !defined(__x86_64__)
    if (c->values)
        fail_exit("values mode (-pg -mfentry) is x86-64 only%s%s", NULL, NULL);
#endif
    return i;
}

int main(int argc, char **argv)
{
    conf c;
    int at = parse(&c, argc, argv);
    if (c.add_table) {
        locate(&c);
        add_tables(&c, argv + at, argc - at);
    }
    char **args = argv + at + 1;
    size_t n = (size_t)(argc - at - 1);
    scan sc = scan_args(args, n);
    vec v = { NULL, 0, 0 };
    push(&v, argv[at]);
    const char *base = strrchr(argv[at], '/');
    c.clang = strstr(base ? base + 1 : argv[at], "clang") != NULL;
    if (!strcmp(base ? base + 1 : argv[at], "ttcc"))
        fail_exit("the compiler is ttcc itself: name the real one (ttcc gcc ...)%s%s",
                  NULL, NULL);
    if (!sc.inputs) {                       /* a probe: run as is */
        for (size_t i = 0; i < n; i++)
            push(&v, args[i]);
        run_exec(&c, &v);
    }
    locate(&c);
    if (sc.pre) {
        for (size_t i = 0; i < n; i++)
            push(&v, args[i]);
        push(&v, cat("-idirafter", c.incdir));
        run_exec(&c, &v);
    }
    if (!sc.stop && sc.sources && (c.values || sc.pg)) {
        if (sc.rsp_sources)
            fail_exit("a compile and link in one command with -pg, its sources in an "
                      "@file: compile (-c) and link separately%s%s", NULL, NULL);
        free(v.v);
        return split_run(&c, argv + at, n + 1, sc.sources);
    }
    if (sc.sources || sc.stop)
        push_mode(&c, &v);
    if (sc.stop) {
        for (size_t i = 0; i < n; i++)
            push(&v, args[i]);
    } else {
        push_link_args(&v, args, n, NULL);
    }
    if (sc.sources || sc.stop)
        push(&v, cat("-idirafter", c.incdir));
    if (!sc.stop && !sc.partial)
        push_link(&c, &v);
    if (sc.stop || sc.partial || !c.values)
        run_exec(&c, &v);
    int rc = run_wait(&c, &v);
    if (rc == 0)
        add_value_table(&c, args, n);
    fflush(NULL);
    _exit(rc);                  /* as exec would: the vectors are the kernel's to free */
}
