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

static char proc_env[64];       /* TTCAP_PROC=pid:ns, in environ once put */
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
    return dl_iterate_phdr(scan_one, &first) != 0;
}

int cap_tree_other_copy(void)
{
    void *f = dlsym(RTLD_DEFAULT, "ttcap_enabled");
    return f && f != (void *)&ttcap_enabled;
}

/* Put the header of a row of kind whose payload ends at q, and append it
 * to the table: one write. */
static void append_row(int kind, uint8_t *q)
{
    size_t n = (size_t)(q - row) - TTF_PT_HDR;
    ttf_put_u32(row, TTF_PT_MAGIC);
    ttf_put_u16(row + 4, (uint16_t)kind);
    ttf_put_u16(row + 6, 0);
    ttf_put_u32(row + 8, (uint32_t)n);
    ttf_put_u32(row + 12, ttf_fnv1a(row + TTF_PT_HDR, n));
    char path[CAP_PATH_MAX + 32];
    size_t o = strlen(cap_tree.dir);
    memcpy(path, cap_tree.dir, o);
    memcpy(path + o, "/" TTF_PT_NAME, sizeof "/" TTF_PT_NAME);
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0)
        return;
    struct cap_xfsz g;
    cap_xfsz_hold(&g);
    ssize_t w = write(fd, row, (size_t)(q - row));
    (void)w;
    cap_xfsz_release(&g);
    close(fd);
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

/* Read TTCAP_PROC=pid:ns into *pid, *ns (0 when absent or malformed). */
static void parent_name(uint64_t *pid, uint64_t *ns)
{
    *pid = *ns = 0;
    const char *e = getenv("TTCAP_PROC");
    if (!e)
        return;
    char *end;
    unsigned long long p = strtoull(e, &end, 10);
    if (*end != ':')
        return;
    unsigned long long t = strtoull(end + 1, &end, 10);
    if (*end)
        return;
    *pid = p;
    *ns = t;
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
    if (!forked)
        putenv(proc_env);
}

void cap_tree_begin(int forked, const char *trace)
{
    if (!cap_tree.on || atomic_flag_test_and_set(&row_lock))
        return;
    uint64_t ppid = (uint64_t)getppid(), par_pid = 0, par_ns = 0;
    int how = TTF_PT_ROOT;
    if (forked) {
        how = TTF_PT_FORK;
        par_pid = (uint64_t)cap_tree.pid;
        par_ns = cap_tree.start_ns;
    } else {
        parent_name(&par_pid, &par_ns);
        if (par_pid)
            how = par_pid == (uint64_t)getpid() ? TTF_PT_EXEC : TTF_PT_SPAWN;
        else
            par_pid = ppid;
        int first = 1;          /* the build-id (a fork child has it already) */
        build_id[0] = 0;
        dl_iterate_phdr(scan_one, &first);
    }
    cap_tree.pid = (int)getpid();
    cap_tree.start_ns = cap_clock_ns(CLOCK_REALTIME);
    cap_tree.ended = 0;
    name_self(forked);
    char exe[CAP_PATH_MAX], cwd[CAP_PATH_MAX];
    ssize_t ne = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[ne > 0 ? ne : 0] = 0;
    if (syscall(SYS_getcwd, cwd, sizeof cwd) < 0)
        cwd[0] = 0;
    const char *base = strrchr(trace, '/');
    base = base ? base + 1 : trace;
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
    append_row(TTF_PT_START, q);
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
    append_row(TTF_PT_END, q);
    atomic_flag_clear(&row_lock);
}

void cap_tree_exec_failed(void)
{
    if (cap_tree.pid == (int)getpid())
        cap_tree.ended = 0;     /* the image goes on: its END comes later */
}
