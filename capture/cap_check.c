/*
 * cap_check.c - is the traced program wired to libttcap? At start, the main
 * program's dynamic relocations say whether it calls the -finstrument-
 * functions hooks (and the ttcap_ API); if it does but the loader binds the
 * hooks to another object (glibc's empty ones: libttcap came in through a
 * dlopen'd plugin, or after libc), one line on stderr says so. At the end,
 * a trace with no function call from a program that has neither hooks nor
 * macros gets one line too (libttcap preloaded into an uninstrumented
 * program). A program linked with -pg (gcrt1.o, whose start-up calls
 * glibc's __monstartup: gprof's SIGPROF timer, gmon.out at exit) gets one
 * line at start too, and so does a -pg -mfentry program whose __fentry__
 * goes to another object (glibc's). Slow path only: start and exit. Above the writer
 * (cap_core.c) and the ELF leaf (cap_elf.c); it calls the loader's own
 * dlopen, not libttcap's interposer.
 */
#include <dlfcn.h>
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cap_int.h"

/* The first object dl_iterate_phdr visits is the program. */
static int main_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    cap_elf_refs(info, (uintptr_t)&cap_hook_enter, arg);
    return 1;
}

static struct cap_refs main_refs;   /* filled by cap_check_start */

static void say(const char *msg)
{
    ssize_t r = write(2, msg, strlen(msg));
    (void)r;
}

/* s escaped for a stderr line (cap_put_esc) in out. */
static const char *esc(char *out, size_t len, const char *s)
{
    size_t o = 0;
    cap_put_esc(out, len, &o, s ? s : "");
    return out;
}

/* One line when the program was linked with -pg: gprof's profiler runs
 * beside the trace (SIGPROF every 10 ms interrupts system calls, gmon.out
 * is written at exit) and libttcap needs none of it. */
static void check_gprof(void)
{
    char msg[1024], name[256];
    if (!main_refs.gprof)
        return;
    snprintf(msg, sizeof msg,
             "ttcap: %s: linked with -pg: glibc's gprof profiler runs too (a "
             "SIGPROF timer, gmon.out at exit); -pg is for compiling only: "
             "link without it ($(pkg-config --libs ttcap-values))\n",
             esc(name, sizeof name, program_invocation_short_name));
    say(msg);
}

typedef void *(*open_fn)(const char *, int);
typedef int (*close_fn)(void *);

/* What name is bound to in the program's scope (RTLD_DEFAULT would search
 * ours, which holds libttcap even when it came in as a dlopen'd plugin's
 * dependency), through the loader's dlopen and dlclose: this only looks,
 * and our interposers (cap_interpose.c) would rescan modules and forget
 * the program's call sites. There is no next dlopen when libc comes
 * before libttcap; the first one is then libc's. *ok = 0 if the scope
 * could not be opened. */
static void *program_binding(const char *name, int *ok)
{
    void *o = dlsym(RTLD_NEXT, "dlopen"), *c = dlsym(RTLD_NEXT, "dlclose");
    open_fn real_open = (open_fn)(o ? o : dlsym(RTLD_DEFAULT, "dlopen"));
    close_fn real_close = (close_fn)(c ? c : dlsym(RTLD_DEFAULT, "dlclose"));
    void *prog = real_open && real_close ? real_open(NULL, RTLD_NOW | RTLD_NOLOAD) : NULL;
    void *bound = prog ? dlsym(prog, name) : NULL;
    if (prog)
        real_close(prog);
    *ok = prog != NULL;
    return bound;
}

/* One line when the program calls __fentry__ (-pg -mfentry) and the loader
 * binds it to another object than libttcap (glibc's, which counts for
 * gprof: libttcap named after libc, or only in a dlopen'd plugin). */
static void check_fentry(void)
{
    Dl_info me, di;
    int ok;
    if (main_refs.self || !main_refs.fentry || !dladdr((void *)&cap_hook_enter, &me))
        return;
    void *bound = program_binding("__fentry__", &ok);
    int found = bound && dladdr(bound, &di);
    if (!ok || (found && di.dli_fbase == me.dli_fbase))
        return;
    char msg[5 * CAP_PATH_MAX + 1024], name[256], path[4 * CAP_PATH_MAX];
    snprintf(msg, sizeof msg,
             "ttcap: %s: the program's -pg -mfentry hooks (__fentry__) go to %s, not "
             "libttcap: no function calls will be traced; link it with "
             "$(pkg-config --libs ttcap-values) (keeps -lttcap under --as-needed), "
             "build with ttcc --values, or LD_PRELOAD=libttcap.so\n",
             esc(name, sizeof name, program_invocation_short_name),
             esc(path, sizeof path, found && di.dli_fname ? di.dli_fname : "nowhere"));
    say(msg);
}

/* At trace start: warn (one line) when the program's calls of the hooks do
 * not reach libttcap, or when it was linked with -pg. */
void cap_check_start(void)
{
    int ok;
    cap_dl_iterate(main_cb, &main_refs);
    check_gprof();
    check_fentry();
    if (main_refs.self || !main_refs.hooks)
        return;
    void *bound = program_binding("__cyg_profile_func_enter", &ok);
    if (!ok || bound == (void *)&cap_hook_enter)
        return;
    Dl_info di;
    const char *who = bound && dladdr(bound, &di) && di.dli_fname ? di.dli_fname
                                                                   : "nowhere";
    char msg[5 * CAP_PATH_MAX + 1024], name[256], path[4 * CAP_PATH_MAX];
    snprintf(msg, sizeof msg,
             "ttcap: %s: the program's -finstrument-functions hooks go to %s, not "
             "libttcap: no function calls will be traced; link it with "
             "$(pkg-config --libs ttcap) (keeps -lttcap under --as-needed) or "
             "LD_PRELOAD=libttcap.so\n", esc(name, sizeof name, program_invocation_short_name),
             esc(path, sizeof path, who));
    say(msg);
}

/* At the end: the thread t ends the trace. One line when no function call
 * was recorded and the program has neither hooks nor ttcap_ calls. */
void cap_check_end(struct tstate *t)
{
    if (t->prev)
        cap.any_calls = 1;
    if (cap.any_calls || main_refs.hooks || main_refs.fentry || main_refs.api ||
        main_refs.self)
        return;
    char msg[5 * CAP_PATH_MAX + 1024], name[256], path[4 * CAP_PATH_MAX];
    snprintf(msg, sizeof msg,
             "ttcap: %s: no function call traced: the program was not built with "
             "-finstrument-functions ($(pkg-config --cflags ttcap)); %s holds no calls\n",
             esc(name, sizeof name, program_invocation_short_name),
             esc(path, sizeof path, cap.path));
    say(msg);
}
