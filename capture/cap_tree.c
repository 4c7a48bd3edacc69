/*
 * cap_tree.c - recording a process tree (TTCAP_OUT=DIR/, ttrec -o DIR):
 * every process of the tree appends its lifecycle to DIR/processes.ttp,
 * the process table (FORMAT.md section 11), and an instrumented one also
 * writes its trace into DIR. libttcap is preloaded into every process of
 * the tree (LD_PRELOAD, inherited), so a shell, make or python that has no
 * instrumented code still leaves its rows: START (pid, parent, how it
 * began, executable, build-id, argv, working folder, trace name) and END
 * (how it ended, status or signal), and nothing else.
 *
 * Design. Many processes write the table at once, and any of them may be
 * killed at any moment. Each row is one write(2) to a descriptor opened
 * with O_APPEND just for it: the kernel puts each write whole at the end
 * of the file (one inode lock per write on a local file system), so rows
 * of different processes never interleave and no lock, shared mapping or
 * coordinator is needed; a row written is in the page cache at once, so a
 * SIGKILL after it loses nothing, and a row cut by a full disk is the
 * file's last bytes, which the reader drops. Each row carries a magic and
 * a checksum, so damage is found, never misread. A process has no END row
 * when it was killed by a signal it could not catch (SIGKILL) or is still
 * running; the reader says so.
 *
 * A row is named by (pid, start time). A process passes its name on in
 * TTCAP_PROC=pid:ns: a fork child knows its parent's from memory, a new
 * image reads it from the environment: the same pid means an exec of this
 * process, another pid a process that began with an exec (vfork + exec,
 * posix_spawn, system). A shell that builds the environment of its
 * children itself passes its own name; the reader finds the fork child
 * whose exec that was by pid. Slow path only: start, fork, exec, exit.
 * Async-signal-safe where a fork child or _exit needs it.
 *
 * The environment (for ttdiff --gdb) is written once per distinct
 * content: START names it by a 64-bit hash of its variables (TTCAP_PROC
 * and TTCAP_TRACE, which name each process, left out) and ENV rows carry the variables,
 * written just before the first START that names them. Whether a hash
 * is in the table already: the parent's (TTCAP_PROC's third field, or
 * memory in a fork child, which records its parent's environment: walking
 * environ there could meet another thread's setenv cut by the fork), else
 * DIR/processes.envs, the hashes written so far, each appended after its
 * rows (a writer killed between the two leaves only a duplicate). Most
 * processes of a tree share their parent's environment and write nothing
 * more; the others read a file of 8 bytes per distinct environment.
 *
 * A fork child's START says which fork of its parent's image it is (the
 * parent counts its forks in the fork's prepare handler, the child reads
 * the count it inherited): children start in the scheduler's order, and
 * ttdiff --gdb follows the k-th fork.
 *
 * A process killed by SIGKILL cannot write its END. Its parent, when it
 * reaps it through wait, waitpid, wait3, wait4 or waitid (interposed,
 * cap_interpose.c), appends a REAP row for it: the pid, the time and the
 * signal; the reader gives it to the last image of that pid with no END.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cap_int.h"

struct cap_tree cap_tree;

static char proc_env[96];       /* TTCAP_PROC=pid:ns:env, in environ once put */
static char build_id[132];      /* the main program's, hex (kept over fork) */
static atomic_flag row_lock = ATOMIC_FLAG_INIT;
static uint8_t row[TTF_PT_HDR + TTF_PT_MAX];

/* Append n decimal digits of v to out[*o]. */
static void put_num(char *out, size_t len, size_t *o, uint64_t v)
{
    char d[24];
    int k = 0;
    do {
        d[k++] = (char)('0' + v % 10);
        v /= 10;
    } while (v && k < 24);
    while (k && *o + 1 < len)
        out[(*o)++] = d[--k];
    out[*o] = 0;
}

int cap_tree_dir(const char *out)
{
    size_t n = strlen(out);
    if (!n || out[n - 1] != '/' || n >= sizeof cap_tree.dir - 64)
        return -1;
    while (n > 1 && out[n - 1] == '/')
        n--;
    memcpy(cap_tree.dir, out, n);
    cap_tree.dir[n] = 0;
    mkdir(cap_tree.dir, 0755);  /* ttrec made it already, or the root makes it */
    cap_tree.on = 1;
    return 0;
}

/* A dl_iterate_phdr callback: 1 (stop) at a module that calls the hooks,
 * __fentry__ or the ttcap_ API; the main program's build-id kept. */
static int scan_one(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    int *first = arg, is_main = *first;
    if (is_main) {
        const uint8_t *id;
        size_t nid;
        cap_elf_build_id(info, &id, &nid);
        for (size_t i = 0; i < nid && 2 * i + 2 < sizeof build_id; i++) {
            build_id[2 * i] = "0123456789abcdef"[id[i] >> 4];
            build_id[2 * i + 1] = "0123456789abcdef"[id[i] & 15];
            build_id[2 * i + 2] = 0;
        }
        *first = 0;
    }
    struct cap_refs rf;
    cap_elf_refs(info, (uintptr_t)&cap_hook_enter, &rf);
    if (rf.self)
        return is_main;         /* libttcap.so itself, or linked into the program */
    return rf.hooks || rf.fentry || rf.api;
}

int cap_tree_instrumented(void)
{
    int first = 1;
    return cap_dl_iterate(scan_one, &first) != 0;
}

int cap_tree_other_copy(void)
{
    void *f = dlsym(RTLD_DEFAULT, "ttcap_enabled");
    return f && f != (void *)&ttcap_enabled;
}

/* DIR/name into path[CAP_PATH_MAX + 32] (name is one of ours, short). */
static void in_dir(char *path, const char *name)
{
    size_t o = strlen(cap_tree.dir), n = strlen(name);
    memcpy(path, cap_tree.dir, o);
    path[o] = '/';
    memcpy(path + o + 1, name, n + 1);
}

/* Open the file name of the tree's folder with flags. */
static int open_in_dir(const char *name, int flags)
{
    char path[CAP_PATH_MAX + 32];
    in_dir(path, name);
    return open(path, flags | O_CLOEXEC | O_NOFOLLOW, 0644);
}

/* 0 if the file name of the tree's folder exists. */
static int access_in_dir(const char *name)
{
    char path[CAP_PATH_MAX + 32];
    in_dir(path, name);
    return access(path, F_OK);
}

static void unlink_in_dir(const char *name)
{
    char path[CAP_PATH_MAX + 32];
    in_dir(path, name);
    unlink(path);
}

/* Append n bytes to the file name of the tree's folder: one write. */
static void append_to(const char *name, const void *b, size_t n)
{
    int was = cap_cancel_off();
    int fd = open_in_dir(name, O_WRONLY | O_APPEND | O_CREAT);
    if (fd >= 0) {
        struct cap_xfsz g;
        cap_xfsz_hold(&g);
        ssize_t w = write(fd, b, n);
        (void)w;
        cap_xfsz_release(&g);
        close(fd);
    }
    cap_cancel_restore(was);
}

/* Put the header of a row of kind in buf whose payload ends at q, and
 * append it to the table: one write. */
static void append_row(uint8_t *buf, int kind, uint8_t *q)
{
    size_t n = (size_t)(q - buf) - TTF_PT_HDR;
    ttf_put_u32(buf, TTF_PT_MAGIC);
    ttf_put_u16(buf + 4, (uint16_t)kind);
    ttf_put_u16(buf + 6, 0);
    ttf_put_u32(buf + 8, (uint32_t)n);
    ttf_put_u32(buf + 12, ttf_fnv1a(buf + TTF_PT_HDR, n));
    append_to(TTF_PT_NAME, buf, (size_t)(q - buf));
}

/* Room left in row after q for a string of n bytes plus what must follow. */
static size_t fit(const uint8_t *q, size_t n, size_t after)
{
    size_t room = (size_t)(row + sizeof row - q);
    room = room > after + 16 ? room - after - 16 : 0;
    return n < room ? n : room;
}

static uint8_t *put_s(uint8_t *q, const char *s, size_t after)
{
    size_t n = fit(q, strlen(s), after);
    return ttf_put_str(q, s, n);
}

size_t cap_read_cmdline(char *args, size_t len)
{
    size_t na = 0;
    int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        ssize_t r;
        while (na < len && (r = read(fd, args + na, len - na)) > 0)
            na += (size_t)r;
        close(fd);
    }
    return na;
}

/* The command line, from /proc (no argv is kept by libc): argc strings. */
static uint8_t *put_argv(uint8_t *q)
{
    static char args[16384];
    size_t na = cap_read_cmdline(args, sizeof args);
    uint64_t argc = 0;
    for (size_t i = 0; i < na; i += strnlen(args + i, na - i) + 1)
        argc++;
    q = ttf_put_uvar(q, argc);
    for (size_t i = 0; i < na; i += strnlen(args + i, na - i) + 1) {
        size_t n = fit(q, strnlen(args + i, na - i), 0);
        q = ttf_put_str(q, args + i, n);
    }
    return q;
}

/* Read TTCAP_PROC=pid:ns[:env] into *pid, *ns, *env (0 when absent or
 * malformed; env 0 also from a writer that did not record it). */
static void parent_name(uint64_t *pid, uint64_t *ns, uint64_t *env)
{
    *pid = *ns = *env = 0;
    const char *e = getenv("TTCAP_PROC");
    if (!e)
        return;
    char *end;
    unsigned long long p = strtoull(e, &end, 10);
    if (*end != ':')
        return;
    unsigned long long t = strtoull(end + 1, &end, 10), h = 0;
    if (*end == ':')
        h = strtoull(end + 1, &end, 10);
    if (*end)
        return;
    *pid = p;
    *ns = t;
    *env = h;
}

/* ---- the environment ---------------------------------------------------- */

/* TTCAP_PROC and TTCAP_TRACE name each process (and its trace): not part
 * of the environment recorded. */
static int env_skip(const char *v)
{
    return !strncmp(v, "TTCAP_PROC=", 11) || !strncmp(v, "TTCAP_TRACE=", 12);
}

/* The environment's hash: the sum of its variables' FNV-1a (64-bit) hashes,
 * each mixed (a shell passes its variables sorted, in another order than
 * it got them: the same environment); never 0. */
static uint64_t env_digest(void)
{
    uint64_t sum = 0;
    for (char **e = environ; e && *e; e++) {
        if (env_skip(*e))
            continue;
        uint64_t h = 1469598103934665603ull;
        for (const char *s = *e; *s; s++)
            h = (h ^ (uint8_t)*s) * 1099511628211ull;
        h ^= h >> 33;
        h *= 0xff51afd7ed558ccdull;
        h ^= h >> 33;
        sum += h;
    }
    return sum ? sum : 1;
}

/* 1 if DIR/processes.envs lists hash (the first MiB of it is read). */
static int env_seen(uint64_t hash)
{
    int was = cap_cancel_off();
    int fd = open_in_dir(TTF_PT_ENVS, O_RDONLY);
    if (fd < 0) {
        cap_cancel_restore(was);
        return 0;
    }
    uint8_t b[4096], want[8];
    ttf_put_u64(want, hash);
    ssize_t r;
    size_t total = 0;
    int found = 0;
    while (!found && total < (1u << 20) && (r = read(fd, b, sizeof b)) > 0) {
        for (ssize_t i = 0; i + 8 <= r && !found; i += 8)
            found = !memcmp(b + i, want, 8);
        total += (size_t)r;
    }
    close(fd);
    cap_cancel_restore(was);
    return found;
}

/* How many variables from e on fit one ENV row (at least one: a variable
 * longer than a row is cut). */
static size_t env_fit(char **e)
{
    size_t k = 0, used = 64;
    for (; e[k]; k++) {
        size_t need = strlen(e[k]) + 8;
        if (k && used + need > TTF_PT_MAX)
            break;
        used += need;
    }
    return k;
}

/* The ENV rows of this process's environment, then its hash in
 * processes.envs (after the rows: see the top of the file). */
static void put_env(uint64_t hash)
{
    static char *vars[4096];
    size_t total = 0;
    for (char **e = environ; e && *e && total < sizeof vars / sizeof *vars - 1; e++)
        if (!env_skip(*e))
            vars[total++] = *e;
    vars[total] = NULL;
    for (size_t first = 0; first < total;) {
        size_t n = env_fit(vars + first);
        uint8_t *q = row + TTF_PT_HDR;
        q = ttf_put_uvar(q, hash);
        q = ttf_put_uvar(q, total);
        q = ttf_put_uvar(q, first);
        q = ttf_put_uvar(q, n);
        for (size_t i = 0; i < n; i++)
            q = put_s(q, vars[first + i], 0);   /* env_fit left room */
        append_row(row, TTF_PT_ENV, q);
        first += n;
    }
    uint8_t h[8];
    ttf_put_u64(h, hash);
    append_to(TTF_PT_ENVS, h, sizeof h);
}

/* Name this process in TTCAP_PROC for the images it execs. Async-signal-
 * safe when forked (the buffer is rewritten in place). */
static void name_self(int forked)
{
    size_t o = 0;
    memcpy(proc_env, "TTCAP_PROC=", 12);
    o = 11;
    put_num(proc_env, sizeof proc_env, &o, (uint64_t)cap_tree.pid);
    proc_env[o++] = ':';
    put_num(proc_env, sizeof proc_env, &o, cap_tree.start_ns);
    proc_env[o++] = ':';
    put_num(proc_env, sizeof proc_env, &o, cap_tree.env);
    if (!forked)
        putenv(proc_env);
}

void cap_tree_begin(int forked, const char *trace)
{
    if (!cap_tree.on || atomic_flag_test_and_set(&row_lock))
        return;
    uint64_t ppid = (uint64_t)getppid(), par_pid = 0, par_ns = 0, known = cap_tree.env;
    int how = TTF_PT_ROOT;
    cap_tree.nth = 0;
    if (forked) {
        how = TTF_PT_FORK;      /* its parent's environment (see the top) */
        par_pid = (uint64_t)cap_tree.pid;
        par_ns = cap_tree.start_ns;
        cap_tree.nth = atomic_load(&cap_tree.forks);
    } else {
        parent_name(&par_pid, &par_ns, &known);
        cap_tree.env = env_digest();
        if (par_pid)
            how = par_pid == (uint64_t)getpid() ? TTF_PT_EXEC : TTF_PT_SPAWN;
        else
            par_pid = ppid;
        int first = 1;          /* the build-id (a fork child has it already) */
        build_id[0] = 0;
        cap_dl_iterate(scan_one, &first);
    }
    cap_tree.pid = (int)getpid();
    cap_tree.start_ns = cap_clock_ns(CLOCK_REALTIME);
    atomic_store(&cap_tree.forks, 0);
    cap_tree.ended = 0;
    name_self(forked);
    char exe[CAP_PATH_MAX], cwd[CAP_PATH_MAX];
    ssize_t ne = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[ne > 0 ? ne : 0] = 0;
    if (syscall(SYS_getcwd, cwd, sizeof cwd) < 0)
        cwd[0] = 0;
    const char *base = strrchr(trace, '/');
    base = base ? base + 1 : trace;
    if (how == TTF_PT_ROOT && access_in_dir(TTF_PT_NAME) != 0)
        unlink_in_dir(TTF_PT_ENVS);     /* a new table: the list of an old one goes */
    if (cap_tree.env && cap_tree.env != known && !env_seen(cap_tree.env))
        put_env(cap_tree.env);
    uint8_t *q = row + TTF_PT_HDR;
    q = ttf_put_uvar(q, (uint64_t)cap_tree.pid);
    q = ttf_put_uvar(q, ppid);
    q = ttf_put_uvar(q, cap_tree.start_ns);
    q = ttf_put_uvar(q, par_pid);
    q = ttf_put_uvar(q, par_ns);
    q = ttf_put_uvar(q, (uint64_t)how);
    q = ttf_put_uvar(q, base[0] != 0);
    q = put_s(q, exe, 4096);
    q = put_s(q, build_id, 4096);
    q = put_s(q, cwd, 4096);
    q = put_s(q, base, 4096);
    q = put_argv(q);
    q = ttf_put_uvar(q, cap_tree.env);      /* since table revision 2 */
    q = ttf_put_uvar(q, cap_tree.nth);
    append_row(row, TTF_PT_START, q);
    atomic_flag_clear(&row_lock);
}

void cap_tree_end(int how, int status, int sig)
{
    if (!cap_tree.on || cap_tree.ended || cap_tree.pid != (int)getpid() ||
        atomic_flag_test_and_set(&row_lock))
        return;
    cap_tree.ended = 1;
    uint8_t *q = row + TTF_PT_HDR;
    q = ttf_put_uvar(q, (uint64_t)cap_tree.pid);
    q = ttf_put_uvar(q, cap_tree.start_ns);
    q = ttf_put_uvar(q, cap_clock_ns(CLOCK_REALTIME));
    q = ttf_put_uvar(q, (uint64_t)how);
    q = ttf_put_svar(q, status);
    q = ttf_put_uvar(q, (uint64_t)sig);
    append_row(row, TTF_PT_END, q);
    atomic_flag_clear(&row_lock);
}

void cap_tree_exec_failed(void)
{
    if (cap_tree.pid == (int)getpid())
        cap_tree.ended = 0;     /* the image goes on: its END comes later */
}

void cap_tree_forking(void)
{
    if (cap_tree.on)
        atomic_fetch_add(&cap_tree.forks, 1);
}

void cap_tree_reaped(int pid, int sig)
{
    if (!cap_tree.on || pid <= 0 || cap_tree.pid != (int)getpid())
        return;                 /* another copy of libttcap records this process */
    uint8_t b[TTF_PT_HDR + 64], *q = b + TTF_PT_HDR;
    q = ttf_put_uvar(q, (uint64_t)pid);
    q = ttf_put_uvar(q, cap_clock_ns(CLOCK_REALTIME));
    q = ttf_put_uvar(q, (uint64_t)sig);
    q = ttf_put_uvar(q, (uint64_t)cap_tree.pid);
    q = ttf_put_uvar(q, cap_tree.start_ns);
    append_row(b, TTF_PT_REAP, q);
}
