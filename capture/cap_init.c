/*
 * cap_init.c - starting and ending a trace: environment, file and header,
 * the PROCESS record, clean exit (exit, _exit, _Exit, daemon's parent),
 * exec (EXEC) and fork, a fork from a signal handler included; the top of
 * capture/STAGES, it wires the writer's hooks (cap_policy_hooks) and the
 * thread-end destructor (cap_policy.c). Hot path: cap_core.c; modules:
 * cap_modules.c; dlopen/pthread interposers: cap_interpose.c; fatal
 * signals: cap_sig.c; manual API: cap_api.c; values mode: cap_values.c.
 *
 * fork. The child handler runs in a copy of the process in which every
 * other thread is gone, perhaps holding glibc's environment lock or the
 * loader's locks for ever, so it does only async-signal-safe work: system
 * calls, stores, its own formatting (no stdio, no setenv, no
 * dl_iterate_phdr, no getenv). The modules come from the table the parent
 * kept (cap_replay_modules), the parent trace's name from memory, and
 * TTCAP_TRACE (which names the trace of exec'd images' parent) is a buffer
 * of ours that the environment points to (putenv at start), rewritten in
 * place. Until the child itself calls dlopen or dlclose it does not look
 * at the loader's list again (cap.loader_suspect).
 *
 * Secure execution (setuid, setgid, capabilities): TTCAP_* is not read,
 * and is removed from the environment, as glibc removes LD_PRELOAD: a
 * setuid program that becomes root for good and execs another traced
 * program would otherwise hand it the caller's choice of file.
 */
#include <dlfcn.h>
#include <elf.h>
#include <stdarg.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <stdio.h>
#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include <stdlib.h>
#include <sys/auxv.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cap_int.h"
#include "cap_vstr.h"

#define CAP_DEFAULT_CHUNK (256u << 10)

/* ---- small helpers -------------------------------------------------------- */

static void say(const char *msg)
{
    ssize_t r = write(2, msg, strlen(msg));
    (void)r;
}

/* Append s at out[*o] (room len, always NUL-terminated, cut when full).
 * Async-signal-safe, as put_dec: the fork child formats with these. */
static void put_s(char *out, size_t len, size_t *o, const char *s)
{
    while (*s && *o + 1 < len)
        out[(*o)++] = *s++;
    out[*o] = 0;
}

static void put_dec(char *out, size_t len, size_t *o, unsigned long v)
{
    char d[24];
    size_t n = 0;
    do
        d[n++] = (char)('0' + v % 10);
    while ((v /= 10) != 0);
    while (n && *o + 1 < len)
        out[(*o)++] = d[--n];
    out[*o] = 0;
}

/* A value quoted for a stderr line: at most 64 bytes, anything but
 * printable ASCII shown as '?' (the value may be anything). */
static void quote_value(char *out, size_t len, const char *v)
{
    size_t o = 0;
    for (; *v && o + 4 < len && o < 64; v++)
        out[o++] = *v >= 0x20 && *v < 0x7f ? *v : '?';
    if (*v) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    out[o] = 0;
}

/* One line on stderr: "ttcap: NAME='value' WHY; using WHAT". */
static void env_warn(const char *name, const char *v, const char *why, const char *what)
{
    char q[80], msg[320];
    quote_value(q, sizeof q, v);
    snprintf(msg, sizeof msg, "ttcap: %s='%s' %s; using %s\n", name, q, why, what);
    say(msg);
}

/* The decimal number in variable name, lo..hi: dflt when unset or empty;
 * anything else gets one stderr line naming the variable, the value, what
 * is wrong ("out of range" for a number outside lo..hi, even one too large
 * for a long; "not a number" otherwise), the range and the default, and
 * dflt. */
static long env_num(const char *name, long lo, long hi, long dflt)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return dflt;
    char *end, why[96], what[48];
    errno = 0;
    long n = strtol(v, &end, 10);
    int number = !*end && end != v;
    if (number && errno == 0 && n >= lo && n <= hi)
        return n;
    snprintf(why, sizeof why, number ? "is out of range (%ld..%ld)" : "is not a number (%ld..%ld)",
             lo, hi);
    snprintf(what, sizeof what, "the default %ld", dflt);
    env_warn(name, v, why, what);
    return dflt;
}

/* TTCAP_CHUNK_KB: 16 .. 64 MiB, a power of two (a value between two is
 * rounded up, and says so). The chunk size in bytes. */
static uint32_t env_chunk(void)
{
    long kb = env_num("TTCAP_CHUNK_KB", 16, (long)(TTF_CHUNK_MAX >> 10),
                      (long)(CAP_DEFAULT_CHUNK >> 10));
    uint32_t size = 16u << 10;
    while (size < (uint64_t)kb << 10 && size < TTF_CHUNK_MAX)
        size <<= 1;
    if ((uint64_t)kb << 10 != size) {
        char v[24], what[48];
        snprintf(v, sizeof v, "%ld", kb);
        snprintf(what, sizeof what, "%u (the next power of two)", size >> 10);
        env_warn("TTCAP_CHUNK_KB", v, "is not a power of two", what);
    }
    return size;
}

/* TTCAP_RING=MiB (1 .. 65536; 0 or unset = off): chunks kept per thread,
 * at least 2 (a smaller ring says so). */
static uint32_t env_ring(uint32_t chunk_size)
{
    long ring = env_num("TTCAP_RING", 0, 65536, 0);
    if (ring <= 0)
        return 0;
    uint64_t n = ((uint64_t)ring << 20) / chunk_size;
    if (n >= 2)
        return (uint32_t)n;
    char v[24], what[64];
    snprintf(v, sizeof v, "%ld", ring);
    snprintf(what, sizeof what, "2 chunks (%u KiB)", 2 * (chunk_size >> 10));
    env_warn("TTCAP_RING", v, "holds fewer than 2 chunks", what);
    return 2;
}

/* TTCAP_CHAOS=SEED[,entries] (cap_chaos.c): SEED a decimal number; unset
 * or empty = off; anything else says so once and leaves chaos off. */
static void env_chaos(void)
{
    const char *v = getenv("TTCAP_CHAOS");
    memset(&cap_chaos, 0, sizeof cap_chaos);
    if (!v || !*v)
        return;
    char *end;
    errno = 0;
    unsigned long long seed = strtoull(v, &end, 10);
    int ok = end != v && *v != '-' && errno == 0;
    if (ok && *end == ',' && strcmp(end + 1, "entries") == 0)
        cap_chaos.entries = 1;
    else if (ok && *end)
        ok = 0;
    if (!ok) {
        env_warn("TTCAP_CHAOS", v, "is not SEED or SEED,entries", "no chaos");
        cap_chaos.entries = 0;
        return;
    }
    cap_chaos.seed = (uint64_t)seed;
    cap_chaos.on = 1;
    cap_sync_chaos_on();
}

#if defined(__x86_64__) && defined(__linux__)
/* 1 if the CPU has SSE4.1 (cap_fentry.S's assembly ENTER uses pcmpeqq). */
static int have_sse41(void)
{
    unsigned a, b, c, d;
    return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSE4_1);
}

/* 1 if the CPU has AVX and the kernel keeps its state (XCR0's SSE and AVX
 * bits): the assembly ENTER then codes the registers in AVX's
 * three-operand forms, else with SSE4.1 alone. */
static int have_avx(void)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & bit_AVX) || !(c & bit_OSXSAVE))
        return 0;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (lo & 6) == 6;
}
#endif

/* Everything but the output name: chunk, level, clock, ring, chaos, tests. */
static void read_env(void)
{
    cap.chunk_size = env_chunk();
    cap.level = (int)env_num("TTCAP_LEVEL", 0, TTCAP_TRACE, TTCAP_DEBUG);
    const char *clk = getenv("TTCAP_CLOCK");
    cap.timed = CAP_CLOCK_CHAIN;        /* tsc: the chain clock (format 1.9) */
    if (clk && strcmp(clk, "none") == 0)
        cap.timed = CAP_CLOCK_NONE;
    else if (clk && strcmp(clk, "every") == 0)
        cap.timed = CAP_CLOCK_EVERY;
    else if (clk && strcmp(clk, "sparse") == 0)
        cap.timed = CAP_CLOCK_SPARSE;   /* format 1.4's: every ENTER timed */
    else if (clk && strcmp(clk, "lazy") == 0)
        cap.timed = CAP_CLOCK_LAZY;     /* format 1.7's: nested ENTERs timed */
    else if (clk && *clk && strcmp(clk, "tsc") != 0 && strcmp(clk, "chain") != 0)
        env_warn("TTCAP_CLOCK", clk, "is not tsc, chain, lazy, sparse, every or none",
                 "the default tsc");
    cap.ring_n = env_ring(cap.chunk_size);
    cap.sync = env_num("TTCAP_SYNC", 0, 1, 1) != 0;
    const char *store = getenv("TTCAP_STORE"); /* here: a fork child reads no environ */
    snprintf(cap.store_env, sizeof cap.store_env, "%s", store ? store : "");
    env_chaos();
    long fail = env_num("TTCAP_TEST_FAIL_AFTER", 0, 0x7fffffff, 0); /* fault injection */
    cap.fail_after = (uint64_t)fail;
#if defined(__x86_64__) && defined(__linux__)
    /* tests: values mode's ENTERs and EXITs by the C path only
     * (values_fentry*.sh); the ENTERs so on a CPU without SSE4.1 (the
     * assembly ENTER's pcmpeqq); without AVX the assembly ENTER takes its
     * SSE4.1 way (cap_fentry_sse), which TTCAP_TEST_FENTRY_SSE=1 forces */
    cap_fexit_c = env_num("TTCAP_TEST_FENTRY_C", 0, 1, 0) != 0;
    cap_fentry_sse = env_num("TTCAP_TEST_FENTRY_SSE", 0, 1, 0) != 0 || !have_avx();
    cap_fentry_c = cap_fexit_c || !have_sse41();
#endif
    cap_test_paths = env_num("TTCAP_TEST_PATHS", 0, 1, 0) != 0;
}

/* The output name template from TTCAP_OUT or TTCAP=1 into cap.tmpl: 0,
 * or -1 when this run is not traced. */
/* What is wrong with the template t (into why), or NULL: only %p, %e and
 * %% are known; an unknown one is refused rather than taken literally. */
static const char *bad_template(const char *t, char *why, size_t len)
{
    for (; *t; t++) {
        if (*t != '%')
            continue;
        t++;
        if (!*t)
            return "ends in a lone %";
        if (*t == 'p' || *t == 'e' || *t == '%')
            continue;
        snprintf(why, len, "has an unknown %%%c (known: %%p %%e %%%%)",
                 *t >= 0x20 && *t < 0x7f ? *t : '?');
        return why;
    }
    return NULL;
}

static int read_out(void)
{
    const char *out = getenv("TTCAP_OUT");
    const char *on = getenv("TTCAP");
    char why[64];
    const char *bad;
    if (out && !*out) {
        env_warn("TTCAP_OUT", out, "is empty", "no trace");
        return -1;
    }
    if (out && (bad = bad_template(out, why, sizeof why)) != NULL) {
        env_warn("TTCAP_OUT", out, bad, "no trace");
        return -1;
    }
    if (out && cap_tree_dir(out) == 0) {
        /* DIR/: the whole tree, one trace per traced process */
        size_t n = strlen(cap_tree.dir);  /* < sizeof cap.tmpl - 64 (cap_tree_dir) */
        memcpy(cap.tmpl, cap_tree.dir, n);
        memcpy(cap.tmpl + n, "/%e.%p.trc", sizeof "/%e.%p.trc");
        return 0;
    }
    if (out) {
        if (strlen(out) < sizeof cap.tmpl - 64) {
            snprintf(cap.tmpl, sizeof cap.tmpl, "%s", out);
            return 0;
        }
        env_warn("TTCAP_OUT", out, "is longer than 4031 bytes", "no trace");
        return -1;
    }
    if (!on || !*on || strcmp(on, "0") == 0)
        return -1;
    if (strcmp(on, "1") != 0) {
        env_warn("TTCAP", on, "is not 0 or 1", "the default 0 (no trace)");
        return -1;
    }
    snprintf(cap.tmpl, sizeof cap.tmpl, "%%e.%%p.trc");
    return 0;
}

/* Expand the output template (checked by read_out): %p pid, %e program
 * name, %% percent. In a child of a traced process (forked, or exec'd from
 * one: TTCAP_TRACE set) a template without %p gets ".<pid>" appended.
 * Async-signal-safe (the fork child runs it). */
static void expand_path(char *out, size_t len, const char *tmpl, int forked)
{
    size_t o = 0;
    int had_pid = 0;
    out[0] = 0;
    for (const char *s = tmpl; *s && o + 32 < len; s++) {
        if (s[0] != '%' || !s[1]) {
            out[o++] = *s;
            out[o] = 0;
            continue;
        }
        s++;
        if (*s == 'p') {
            put_dec(out, len, &o, (unsigned long)getpid());
            had_pid = 1;
        } else if (*s == 'e') {
            put_s(out, len, &o, program_invocation_short_name);
        } else {
            out[o++] = *s;
            out[o] = 0;
        }
    }
    if (forked && !had_pid && o + 16 < len) {
        put_s(out, len, &o, ".");
        put_dec(out, len, &o, (unsigned long)getpid());
    }
}

/* What stands at path (lstat: a link is not followed), for the refusal
 * message; NULL when nothing or a regular file does. */
static const char *odd_kind(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return NULL;
    if (S_ISLNK(st.st_mode))
        return "a symbolic link";
    if (S_ISFIFO(st.st_mode))
        return "a FIFO";
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
        return "a device";
    if (S_ISDIR(st.st_mode))
        return "a directory";
    if (S_ISSOCK(st.st_mode))
        return "a socket";
    return NULL;
}

/* Create path for writing: never through a symbolic link, never an
 * existing file of any kind. The descriptor, or -1 with errno. */
static int create_trace(const char *path)
{
    return open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
}

/* Make p absolute (so a forked child can name its parent's file).
 * Async-signal-safe. */
static void absolutize(char *p, size_t len)
{
    if (p[0] == '/')
        return;
    char cwd[CAP_PATH_MAX], tmp[CAP_PATH_MAX];
    if (syscall(SYS_getcwd, cwd, sizeof cwd) < 0)
        return;
    size_t o = 0;
    put_s(tmp, sizeof tmp, &o, cwd);
    put_s(tmp, sizeof tmp, &o, "/");
    put_s(tmp, sizeof tmp, &o, p);
    if (o + 1 < sizeof tmp && o < len)
        memcpy(p, tmp, o + 1);
}

static uint64_t calibrate(void)
{
#ifdef CAP_HAVE_TSC
    uint64_t m0 = cap_clock_ns(CLOCK_MONOTONIC), t0 = cap_tsc(), m1, t1;
    do {
        m1 = cap_clock_ns(CLOCK_MONOTONIC);
        t1 = cap_tsc();
    } while (m1 - m0 < 2000000);
    return (uint64_t)((double)(t1 - t0) * 1e9 / (double)(m1 - m0));
#else
    return 1000000000u;
#endif
}

/* ---- PROCESS record ---------------------------------------------------------- */

static void write_process(struct tstate *t, const char *parent)
{
    static char args[8192];
    char exe[CAP_PATH_MAX];
    ssize_t ne = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[ne > 0 ? ne : 0] = 0;
    size_t na = cap_read_cmdline(args, sizeof args);
    size_t npar = strlen(parent);
    /* the record's length field holds at most 16383 bytes: the command
     * line gives way (exe and parent paths are at most 4 KiB each) */
    size_t fixed = 96 + 4 * 64 + strlen(exe) + npar;
    size_t budget = fixed < 16000 ? 16000 - fixed : 0;
    if (na > budget)
        na = budget;
    uint8_t *p = cap_room(t, 96 + strlen(exe) + npar + na + 4 * 64);
    if (!p)
        return;
    uint8_t *q = ttf_put_uvar(p + 2, (uint64_t)getpid());
    q = ttf_put_uvar(q, (uint64_t)getppid());
    q = ttf_put_uvar(q, cap.start_real);
    q = ttf_put_uvar(q, cap.tsc_hz);
    q = ttf_put_str(q, exe, strlen(exe));
    uint64_t argc = 0;
    for (size_t i = 0; i < na; i += strnlen(args + i, na - i) + 1)
        argc++;
    q = ttf_put_uvar(q, argc);
    for (size_t i = 0; i < na; i += strnlen(args + i, na - i) + 1)
        q = ttf_put_str(q, args + i, strnlen(args + i, na - i));
    q = ttf_put_str(q, parent, npar);
    if (cap_chaos.on) {         /* appended fields (FORMAT.md): the seed to reproduce */
        q = ttf_put_uvar(q, TTF_CHAOS_ON | (cap_chaos.entries ? TTF_CHAOS_ENTRIES : 0));
        q = ttf_put_uvar(q, cap_chaos.seed);
    }
    cap_commit(t, p, TTF_R_PROCESS, cap_ext_close(p, q));
}

/* ---- start --------------------------------------------------------------------- */

static void write_header(void)
{
    uint8_t *h = cap.hdr;
    ttf_put_header_req(h, TTF_REQ_EVENTS_V1 | TTF_REQ_SITES |  /* format 1.2 */
                       (cap.timed >= CAP_CLOCK_SPARSE ? TTF_REQ_SPARSE : 0) | /* 1.4 */
                       (cap.timed >= CAP_CLOCK_LAZY ? TTF_REQ_LAZY : 0) | /* 1.7 */
                       (cap.timed == CAP_CLOCK_CHAIN ? TTF_REQ_CHAIN : 0), /* 1.9 */
                       (cap.ring_n ? TTF_OPT_RING : 0) |
                       (cap.timed ? 0 : TTF_OPT_NOCLOCK) | TTF_OPT_CUTINFO,
                       cap.chunk_size, cap.tsc_hz, cap.start_real);
    ttf_put_u16(h + TTF_H_HSIZE, TTF_HEADER_SIZE_CUT); /* cut fields: cap_core.c */
    atomic_thread_fence(memory_order_release);
    memcpy(h, TTF_MAGIC, TTF_MAGIC_LEN);
}

static void on_exit_cb(int status, void *arg);
static void fork_prepare(void);
static void fork_parent(void);
static void fork_parent_walks(void);
static void fork_child(void);
static void refork(struct tstate *t);

typedef void (*exit_fn)(int);
static exit_fn real_exit;       /* libc's _exit, resolved at start */

/* The real exec functions and daemon, found at start (exec_prime, from
 * the constructor): an exec usually runs in a fork child, where dlsym
 * could wait for ever on a loader lock another thread of the parent held
 * at the fork. */
enum { X_EXECVE, X_EXECV, X_EXECVP, X_EXECVPE, X_DAEMON, X_N };
static void *_Atomic xreal[X_N];

static void *exec_real(int k)
{
    static const char *const names[X_N] = {"execve", "execv", "execvp", "execvpe", "daemon"};
    return cap_next_fn(&xreal[k], names[k]);
}

static void exec_prime(void)
{
    for (int k = 0; k < X_N; k++)
        exec_real(k);
}


static void install_hooks(void)
{
    if (cap.hooks_ok)
        return;
    cap.hooks_ok = 1;
    cap.key_ok = pthread_key_create(&cap.key, cap_thread_end) == 0;
    on_exit(on_exit_cb, NULL);
    pthread_atfork(fork_prepare, fork_parent, fork_child);
    cap_signals_install();
}

/* "ttcap: cannot WHAT trace 'PATH': WHY; running untraced", one line.
 * Async-signal-safe (strerrordesc_np: no locale, no lock). */
static void say_untraced(const char *what, const char *why, const char *refused)
{
    char msg[4 * CAP_PATH_MAX + 160];
    size_t o = 0;
    put_s(msg, sizeof msg, &o, "ttcap: cannot ");
    put_s(msg, sizeof msg, &o, what);
    put_s(msg, sizeof msg, &o, " trace '");
    cap_put_esc(msg, sizeof msg, &o, cap.path);
    put_s(msg, sizeof msg, &o, "': ");
    put_s(msg, sizeof msg, &o, why ? why : "unknown error");
    put_s(msg, sizeof msg, &o, refused);
    put_s(msg, sizeof msg, &o, "; running untraced\n");
    say(msg);
}

/* Create the file named by cap.tmpl (numbered when the name is taken in a
 * child of a traced process): its descriptor, or -1 said on stderr. */
static int create_named(const char *parent, int forked)
{
    expand_path(cap.path, sizeof cap.path, cap.tmpl, forked || parent[0] != 0);
    absolutize(cap.path, sizeof cap.path);
    int fd = create_trace(cap.path);
    size_t n = strlen(cap.path);
    for (unsigned i = 1; fd < 0 && errno == EEXIST && parent[0] && i < 100; i++) {
        /* a traced process's exec'd image or child: the name is taken
         * (by our own parent, most likely), so number a new one */
        size_t o = n;
        put_s(cap.path, sizeof cap.path, &o, ".");
        put_dec(cap.path, sizeof cap.path, &o, i);
        fd = create_trace(cap.path);
    }
    if (fd < 0 && parent[0])
        cap.path[n] = 0;
    if (fd < 0) {
        int err = errno;
        const char *kind = err == EEXIST || err == ELOOP ? odd_kind(cap.path) : NULL;
        say_untraced("create", kind ? kind : strerrordesc_np(err),
                     kind ? " is there, refused" : "");
        return -1;
    }
    int high = fcntl(fd, F_DUPFD_CLOEXEC, 512); /* out of the way of dup2(x, 3) */
    if (high >= 0) {
        close(fd);
        fd = high;
    }
    return fd;
}

/* The header page (allocated, so its later stores need no new block on a
 * full disk), the first growth and the header mapping. 0, or -1 with
 * errno. Never passes RLIMIT_FSIZE (SIGXFSZ would kill the program). */
static int setup_file(int fd)
{
    struct cap_xfsz g;
    int rc = -1;
    cap_xfsz_hold(&g);
    if (cap_fsize_limit() < TTF_DATA_OFFSET) {
        errno = EFBIG;
    } else if (fallocate(fd, 0, 0, TTF_DATA_OFFSET) != 0 &&
               (errno == ENOSPC || errno == EFBIG || ftruncate(fd, TTF_DATA_OFFSET) != 0)) {
        /* errno set */
    } else {
        int why = cap_grow(0);
        if (why)
            errno = why == CAP_WHY_LIMIT ? EFBIG : why == CAP_WHY_FULL ? ENOSPC : EIO;
        else if ((cap.hdr = mmap(NULL, TTF_DATA_OFFSET, PROT_READ | PROT_WRITE, MAP_SHARED,
                                 fd, 0)) != MAP_FAILED)
            rc = 0;
    }
    cap_xfsz_release(&g);
    return rc;
}

/* TTCAP_TRACE=<this trace> for exec'd images (they name it as their
 * parent). The environment points at this buffer (putenv at the first
 * start); a forked child rewrites it in place, taking no lock. */
static char trace_env[CAP_PATH_MAX + 16];

static void name_for_children(int forked)
{
    size_t o = 0;
    put_s(trace_env, sizeof trace_env, &o, "TTCAP_TRACE=");
    put_s(trace_env, sizeof trace_env, &o, cap.path);
    if (!forked)
        putenv(trace_env);
}

/* Create the trace file named by cap.tmpl and write its first records.
 * 0, or -1 with the process left untraced (one line on stderr). forked:
 * from the fork child handler, which must stay async-signal-safe. */
int cap_start(const char *parent, int forked)
{
    int fd = create_named(parent, forked);
    if (fd < 0)
        return -1;
    cap.fd = fd;
    cap.pid = (int)getpid();
    struct stat st;
    cap.ino = fstat(fd, &st) == 0 ? (uint64_t)st.st_ino : 0;
    cap.dev = cap.ino ? (uint64_t)st.st_dev : 0;
    atomic_store(&cap.next_chunk, 0);
    atomic_store(&cap.cap_chunks, 0);
    atomic_store(&cap.next_thread, 0);
    atomic_store(&cap.retry_at, 0);
    cap.retry_wait = 0;
    atomic_flag_clear(&cap.grow_lock);
    atomic_flag_clear(&cap.mod_lock);
    if (setup_file(fd) != 0) {
        say_untraced("write", strerrordesc_np(errno), "");
        close(fd);
        unlink(cap.path);       /* ours (O_EXCL), and not a trace: no header */
        cap.fd = -1;
        cap.hdr = NULL;
        return -1;
    }
    if (!cap.tsc_hz)
        cap.tsc_hz = calibrate();
    cap.start_real = cap_clock_ns(CLOCK_REALTIME);
    write_header();
    cap_policy_hooks(&cap_hooks);   /* before the first chunk is claimed */
    install_hooks();
    struct tstate *t = &cap_tls;
    t->busy = 1;
    cap_thread_begin(t);
    write_process(t, parent);
    cap_store_init();
    if (!forked)                /* (a fork child has its parent's) */
        cap_vtab_load();        /* strings by content (values mode) */
    if (forked) {
        cap_replay_modules(t);  /* no dl_iterate_phdr in a fork child */
    } else {
        cap.nmods = 0;
        cap_check_modules(t, 1);
    }
    atomic_flag_clear(&cap.site_lock);
    for (struct ttcap_site *s = atomic_load(&cap.sites); s; s = s->next)
        cap_write_site(t, s);   /* forked: sites the parent defined */
    t->busy = 0;
    name_for_children(forked);
    ttcap_threshold = cap.level;
    cap_on = cap_chaos.on && cap_chaos.entries ? CAP_ON_CHAOS : 1;
    return 0;
}

/* Defined by a program that says TTCAP_ALLOW_SECURE_EXEC() (ttcap.h). */
extern const int ttcap_allow_secure_exec __attribute__((weak));

/* 1 when this run may be traced: not in secure-execution mode (setuid,
 * setgid, raised capabilities: the kernel sets AT_SECURE), or the program
 * or the library build opted in. Otherwise whoever starts the program
 * would choose where a privileged process writes: TTCAP_* is not read. */
static int secure_ok(void)
{
#ifdef CAP_ALLOW_SECURE_EXEC     /* build-time opt-in: make CAPDEFS=-DCAP_ALLOW_SECURE_EXEC */
    return 1;
#else
    if (!getauxval(AT_SECURE))
        return 1;
    return &ttcap_allow_secure_exec != NULL && ttcap_allow_secure_exec;
#endif
}

/* Secure execution: TTCAP and every TTCAP_* variable out of environ (in
 * place, as unsetenv does), so no program this one execs sees them. */
static void strip_env(void)
{
    char **w = environ;
    for (char **r = environ; r && *r; r++)
        if (strncmp(*r, "TTCAP", 5) != 0 || ((*r)[5] != '=' && (*r)[5] != '_' && (*r)[5]))
            *w++ = *r;
    if (w)
        *w = NULL;
}

__attribute__((constructor(101)))
static void cap_init(void)
{
    ttcap_threshold = -0x7fffffff;
    real_exit = (exit_fn)dlsym(RTLD_NEXT, "_exit"); /* now, not in a handler */
    cap_jumps_prime();
    cap_waits_prime();
    exec_prime();
    if (!secure_ok()) {
        /* no value of TTCAP_* is used; only say why nothing is traced */
        if (getenv("TTCAP_OUT") || getenv("TTCAP"))
            say("ttcap: secure execution (setuid, setgid or capabilities):"
                " TTCAP_* ignored, not traced\n");
        strip_env();
        return;
    }
    if (read_out() != 0)
        return;
    read_env();
    char parent[CAP_PATH_MAX] = "";
    const char *prev = getenv("TTCAP_TRACE"); /* set by a traced ancestor */
    if (prev && strlen(prev) < sizeof parent)
        snprintf(parent, sizeof parent, "%s", prev);
    else if (prev)
        env_warn("TTCAP_TRACE", prev, "is longer than 4095 bytes", "no parent trace");
    if (cap_tree.on && cap_tree_other_copy())
        return;                 /* the program's own libttcap records it */
    if (cap_tree.on && !cap_tree_instrumented()) {
        /* sh, make, python: only their lifecycle, in the table */
        cap_tree_begin(0, "");
        on_exit(on_exit_cb, NULL);
        pthread_atfork(fork_prepare, fork_parent_walks, fork_child);
        cap.hooks_ok = 1;
        return;
    }
    if (cap_start(parent, 0) == 0)
        cap_check_start();
    cap_tree_begin(0, cap_on ? cap.path : "");
}

/* ---- the end ------------------------------------------------------------------ */

/* The clean end: END (with the exit status) in the calling thread's chunk,
 * then the exit status and the CLOSED flag in the header. quick: from
 * _exit, perhaps in a signal handler, so no module scan (dl_iterate_phdr
 * takes the loader's lock); the rest is system calls and plain stores. */
static void finish(int status, int quick)
{
    struct tstate *t = &cap_tls;
    if (t->refork) {            /* a fork child ending in the handler that forked */
        t->busy = 1;
        refork(t);
        t->busy = 0;
        if (!cap_on)
            return;
    }
    if (!t->busy) {
        t->busy = 1;
        if (t->state == TS_NEW)
            cap_thread_begin(t);
        if (t->state == TS_LIVE) {
            cap_check_names(t);
            if (!quick) {
                cap_check_modules(t, 0);
                cap_check_end(t);
            }
            cap_flush_lost(t);
        }
        uint8_t *p = t->state == TS_LIVE ? cap_room(t, 24) : NULL;
        if (p) {
            uint8_t *q = cap_put_t(t, p + 2);
            q = ttf_put_svar(q, status);
            cap_commit(t, p, TTF_R_END, cap_ext_close(p, q));
        }
        cap_cut_publish(t);     /* a cut thread: its count into the header */
        t->busy = 0;
    }
    cap_on = 0;
    ttcap_threshold = -0x7fffffff;
    ttf_put_u32(cap.hdr + TTF_H_EXIT, (uint32_t)status);
    atomic_thread_fence(memory_order_release);
    ttf_put_u32(cap.hdr + TTF_H_FLAGS, TTF_FLAG_CLOSED);
    cap_file_shrink(t, 0);
}

/* TTCAP_TEST_PATHS=1: the records values mode wrote the C way, not by
 * the assembly paths (cap_fentry.S, cap_tramp.S), on stderr at the end. */
static void say_paths(void)
{
    char m[96];
    int n = snprintf(m, sizeof m, "ttcap: test: C ENTERs %llu, C EXITs %llu\n",
                     (unsigned long long)__atomic_load_n(&cap_c_enters, __ATOMIC_RELAXED),
                     (unsigned long long)__atomic_load_n(&cap_c_exits, __ATOMIC_RELAXED));
    ssize_t r = write(2, m, (size_t)n);
    (void)r;
}

static void on_exit_cb(int status, void *arg)
{
    (void)arg;
    if (cap_test_paths && cap_on && !cap_tls.vforked && cap.pid == (int)getpid())
        say_paths();
    if (cap_on && !cap_tls.vforked && cap.pid == (int)getpid())
        finish(status, 0);      /* not in a vfork child (end_now) */
    if (!cap_tls.vforked)
        cap_tree_end(TTF_PT_EXITED, status, 0);
}

/* fork, before: the module table must not be half-updated in the child. */
static void fork_prepare(void)
{
    cap_tree_forking();
    if (cap_on)
        cap_modules_fork_prepare();
    cap_walks_fork_prepare();
}

/* daemon(): glibc's forks (our fork handlers run) and its parent then
 * calls its own _exit, which no interposer sees: fork_parent ends the
 * parent's trace (END, status 0) when the fork is daemon's. Per thread. */
static __thread int in_daemon __attribute__((tls_model("initial-exec")));

/* fork, after, in the parent of a process only in the table: the walks
 * held back go on (fork_prepare held them). */
static void fork_parent_walks(void)
{
    cap_walks_fork_done(0);
}

static void fork_parent(void)
{
    cap_walks_fork_done(0);
    cap_modules_fork_parent();
    if (in_daemon && cap_on && cap.pid == (int)getpid())
        finish(0, 0);           /* daemon's parent: _exit(0) comes next */
    if (in_daemon)
        cap_tree_end(TTF_PT_EXITED, 0, 0);
}

__attribute__((visibility("default")))
int daemon(int nochdir, int noclose)
{
    int (*real)(int, int) = (int (*)(int, int))exec_real(X_DAEMON);
    if (!real) {
        errno = ENOSYS;
        return -1;
    }
    in_daemon = 1;
    int rc = real(nochdir, noclose);    /* returns in the child only */
    in_daemon = 0;
    return rc;
}

/* A fork from a signal handler that interrupted one of our writes on this
 * thread (tstate.busy set: the handler's own calls are being dropped): the
 * write resumes in the child once the handler returns, with pointers into
 * the parent's chunk and header and stores to the thread's state. Until
 * it is done the child cannot have a state of its own. So the two
 * mappings become private copies (that write finishes there, not in the
 * parent's file), the file is closed (a claim it makes fails), busy says
 * CAP_BUSY_FORK (the handler's calls go on being dropped, as in the
 * parent, and counted) and limit NULL sends the next event to the slow
 * path, where t->refork starts the child's trace (refork): at the first
 * write after the interrupted one, or at the end (finish) if the handler
 * never returns. */
static char refork_parent[CAP_PATH_MAX]; /* the parent's trace, for refork */
static uint8_t *refork_base, *refork_hdr; /* the private copies, for refork */

static void fork_park(struct tstate *t)
{
    int flags = MAP_PRIVATE | MAP_FIXED;
    memcpy(refork_parent, cap.path, sizeof refork_parent);
    refork_base = refork_hdr = NULL;
    if (t->base) {
        off_t off = (off_t)(TTF_DATA_OFFSET + t->chunk * cap.chunk_size);
        if (mmap(t->base, cap.chunk_size, PROT_READ | PROT_WRITE, flags, cap.fd, off) ==
            MAP_FAILED)
            mmap(t->base, cap.chunk_size, PROT_READ | PROT_WRITE, flags | MAP_ANONYMOUS, -1, 0);
        refork_base = t->base;
    }
    if (cap.hdr) {
        if (mmap(cap.hdr, TTF_DATA_OFFSET, PROT_READ | PROT_WRITE, flags, cap.fd, 0) == MAP_FAILED)
            mmap(cap.hdr, TTF_DATA_OFFSET, PROT_READ | PROT_WRITE, flags | MAP_ANONYMOUS, -1, 0);
        refork_hdr = cap.hdr;
    }
    close(cap.fd);
    cap.fd = -1;
    atomic_flag_clear(&cap.grow_lock);  /* no other thread is left to hold them */
    atomic_flag_clear(&cap.mod_lock);
    atomic_flag_clear(&cap.site_lock);
    t->lost = t->lost_nested = 0;       /* the parent's to write */
    t->limit = NULL;
    t->refork = 1;
    t->busy = CAP_BUSY_FORK;
}

/* The child's trace, once the write a fork interrupted is done (the
 * writer calls it through cap_hooks.refork, busy set; fork_park). Keeps
 * busy and the count of events the handler had dropped, written as LOST.
 * Asynchronous signals wait meanwhile (cap_async_hold): the reset clears
 * the whole thread state, busy included, so a handler that came between
 * reading the count and the reset would have its drops forgotten, and one
 * that came after it would write into a thread state half made. */
static void refork(struct tstate *t)
{
    sigset_t old;
    cap_async_hold(&old);
    uint8_t busy = t->busy;
    uint64_t dropped = t->lost_nested;
    if (refork_base)
        munmap(refork_base, cap.chunk_size);
    if (refork_hdr)
        munmap(refork_hdr, TTF_DATA_OFFSET);
    if (t->sites)
        munmap(t->sites, CAP_SITES_MAP);
    if (t->ring)
        munmap(t->ring, cap.ring_n * sizeof(uint64_t));
    refork_base = refork_hdr = NULL;
    cap.hdr = NULL;
    cap_on = 0;
    cap_thread_reset(t);        /* keeps depth; refork is 0 */
    if (cap_start(refork_parent, 1) == 0 && dropped) {
        t->busy = 1;
        t->lost_nested = dropped;
        cap_flush_lost(t);
    }
    t->busy = busy;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* fork: the child starts its own trace naming the parent's. Only
 * async-signal-safe work (see the top of this file). */
static void fork_child(void)
{
    cap_walks_fork_done(1);
    cap_modules_fork_parent();  /* the table lock, taken in fork_prepare */
    if (!cap_on) {
        cap_tree_begin(1, "");  /* a process of the tree not traced */
        return;
    }
    cap.loader_suspect = 1;
    cap.pid = (int)getpid();
    struct tstate *t = &cap_tls;
    if (t->busy) {
        fork_park(t);           /* the trace starts when the write is done */
        cap_hooks.refork = refork;
        cap_tree_begin(1, "");  /* its name is not known yet */
        return;
    }
    cap_on = 0;
    ttcap_threshold = -0x7fffffff;
    char parent[CAP_PATH_MAX];
    memcpy(parent, cap.path, sizeof parent);
    if (t->base)
        munmap(t->base, cap.chunk_size);
    if (cap.hdr)
        munmap(cap.hdr, TTF_DATA_OFFSET);
    close(cap.fd);
    cap.fd = -1;
    cap.hdr = NULL;
    cap_thread_reset(t);        /* keeps depth: the child is mid-call */
    cap_start(parent, 1);
    cap_tree_begin(1, cap_on ? cap.path : "");
}

/* ---- exec ----------------------------------------------------------------------
 *
 * The image is replaced: the trace ends with EXEC (the path as given) in
 * the calling thread's stream, and the header says closed, by exec, so it
 * does not read as a process killed. An exec that fails returns: EXEC
 * again with its errno, the header open again, and the trace goes on. Not
 * in a vfork child (the parent's memory), nor for an image already gone
 * untraced. execl, execlp and execle become execv, execvp and execve
 * here (glibc's own call its internal execve, which no interposer sees). */
static void exec_record(const char *path, int err)
{
    struct tstate *t = &cap_tls;
    size_t n = strnlen(path, CAP_PATH_MAX);
    if (t->busy)
        return;
    t->busy = 1;
    if (t->state == TS_NEW)
        cap_thread_begin(t);
    if (t->state == TS_LIVE) {
        cap_check_names(t);
        cap_flush_lost(t);
    }
    uint8_t *p = t->state == TS_LIVE ? cap_room(t, 32 + n) : NULL;
    if (p) {
        uint8_t *q = cap_put_t(t, p + 2);
        q = ttf_put_svar(q, err);
        q = ttf_put_str(q, path, n);
        cap_commit(t, p, TTF_R_EXEC, cap_ext_close(p, q));
    }
    cap_cut_publish(t);
    t->busy = 0;
}

static int exec_traced(void)
{
    return cap_on && cap.hdr && !cap_tls.vforked && cap.pid == (int)getpid();
}

static void exec_begin(const char *path)
{
    if (!cap_tls.vforked)
        cap_tree_end(TTF_PT_EXECED, 0, 0);
    if (!exec_traced())
        return;
    exec_record(path ? path : "", 0);
    ttf_put_u32(cap.hdr + TTF_H_EXIT, 0);
    atomic_thread_fence(memory_order_release);
    ttf_put_u32(cap.hdr + TTF_H_FLAGS, TTF_FLAG_CLOSED | TTF_FLAG_EXEC);
    cap_file_shrink(&cap_tls, 1);
}

static void exec_failed(const char *path, int err)
{
    cap_tree_exec_failed();
    if (!exec_traced())
        return;
    ttf_put_u32(cap.hdr + TTF_H_FLAGS, 0);
    exec_record(path ? path : "", err ? err : EINVAL);
    errno = err;
}

#define EXEC_REAL(name, k) \
    __typeof__(name) *real = (__typeof__(name) *)exec_real(k); \
    if (!real) { \
        errno = ENOSYS; \
        return -1; \
    }

__attribute__((visibility("default")))
int execve(const char *path, char *const argv[], char *const envp[])
{
    EXEC_REAL(execve, X_EXECVE);
    exec_begin(path);
    int rc = real(path, argv, envp);
    exec_failed(path, errno);
    return rc;
}

__attribute__((visibility("default")))
int execv(const char *path, char *const argv[])
{
    EXEC_REAL(execv, X_EXECV);
    exec_begin(path);
    int rc = real(path, argv);
    exec_failed(path, errno);
    return rc;
}

__attribute__((visibility("default")))
int execvp(const char *file, char *const argv[])
{
    EXEC_REAL(execvp, X_EXECVP);
    exec_begin(file);
    int rc = real(file, argv);
    exec_failed(file, errno);
    return rc;
}

__attribute__((visibility("default")))
int execvpe(const char *file, char *const argv[], char *const envp[])
{
    EXEC_REAL(execvpe, X_EXECVPE);
    exec_begin(file);
    int rc = real(file, argv, envp);
    exec_failed(file, errno);
    return rc;
}

/* How many arguments execl got (arg0, then ap up to NULL), at most
 * EXEC_ARGV_MAX (more: -1, E2BIG). */
#define EXEC_ARGV_MAX 65536

static int exec_count(const char *arg0, va_list ap)
{
    int n = 0;
    for (const char *a = arg0; a; a = va_arg(ap, const char *))
        if (++n > EXEC_ARGV_MAX)
            return -1;
    return n;
}

/* argv[0..n] from arg0 and ap (argv[n] = NULL); *envp: the pointer after
 * the NULL (execle), if envp. */
static void exec_fill(char **argv, int n, const char *arg0, va_list ap, char *const **envp)
{
    argv[0] = (char *)(uintptr_t)arg0;
    for (int i = 1; i <= n; i++)
        argv[i] = va_arg(ap, char *);
    if (envp)
        *envp = va_arg(ap, char *const *);
}

/* execl, execlp, execle: the arguments counted, then copied onto the stack
 * (as glibc does), then the v form. */
#define EXEC_L(call, want_env) \
    va_list ap; \
    va_start(ap, arg); \
    int n = exec_count(arg, ap); \
    va_end(ap); \
    if (n < 0) { \
        errno = E2BIG; \
        return -1; \
    } \
    char *argv[n + 1]; \
    char *const *envp = NULL; \
    va_start(ap, arg); \
    exec_fill(argv, n, arg, ap, want_env ? &envp : NULL); \
    va_end(ap); \
    (void)envp; \
    return call

__attribute__((visibility("default")))
int execl(const char *path, const char *arg, ...)
{
    EXEC_L(execv(path, argv), 0);
}

__attribute__((visibility("default")))
int execlp(const char *file, const char *arg, ...)
{
    EXEC_L(execvp(file, argv), 0);
}

__attribute__((visibility("default")))
int execle(const char *path, const char *arg, ...)
{
    EXEC_L(execve(path, argv, envp), 1);
}

/* _exit and _Exit end the trace as exit() does, then end the process. Not
 * in a vfork child (or any child no fork handler saw): it shares the
 * parent's memory and mappings, so it must not write a byte. */
__attribute__((noreturn))
static void end_now(int status)
{
    if (cap_on && !cap_tls.vforked && cap.pid == (int)getpid())
        finish(status, 1);
    if (!cap_tls.vforked)
        cap_tree_end(TTF_PT_EXITED, status, 0);
    if (real_exit)
        real_exit(status);
    syscall(SYS_exit_group, status);
    for (;;)
        ;
}

__attribute__((visibility("default"), noreturn))
void _exit(int status)
{
    end_now(status);
}

__attribute__((visibility("default"), noreturn))
void _Exit(int status)
{
    end_now(status);
}
