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
 * line at start too. Slow path only: start and exit. Above the writer
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

/* One line when the program was linked with -pg: gprof's profiler runs
 * beside the trace (SIGPROF every 10 ms interrupts system calls, gmon.out
 * is written at exit) and libttcap needs none of it. */
static void check_gprof(void)
{
    char msg[512];
    if (!main_refs.gprof)
        return;
    snprintf(msg, sizeof msg,
             "ttcap: %s: linked with -pg: glibc's gprof profiler runs too (a "
             "SIGPROF timer, gmon.out at exit); -pg is for compiling only: "
             "link without it ($(pkg-config --libs ttcap-values))\n",
             program_invocation_short_name);
    say(msg);
}

typedef void *(*open_fn)(const char *, int);
typedef int (*close_fn)(void *);

/* At trace start: warn (one line) when the program's calls of the hooks do
 * not reach libttcap, or when it was linked with -pg. */
void cap_check_start(void)
{
    dl_iterate_phdr(main_cb, &main_refs);
    check_gprof();
    if (main_refs.self || !main_refs.hooks)
        return;
    /* the program's scope (RTLD_DEFAULT would search ours, which holds
     * libttcap even when it came in as a dlopen'd plugin's dependency),
     * through the loader's dlopen and dlclose: this only looks, and our
     * interposers (cap_interpose.c) would rescan modules and forget the
     * program's call sites */
    open_fn real_open = (open_fn)dlsym(RTLD_NEXT, "dlopen");
    close_fn real_close = (close_fn)dlsym(RTLD_NEXT, "dlclose");
    void *prog = real_open && real_close ? real_open(NULL, RTLD_NOW | RTLD_NOLOAD) : NULL;
    void *bound = prog ? dlsym(prog, "__cyg_profile_func_enter") : NULL;
    if (prog)
        real_close(prog);
    if (!prog || bound == (void *)&cap_hook_enter)
        return;
    Dl_info di;
    const char *who = bound && dladdr(bound, &di) && di.dli_fname ? di.dli_fname
                                                                   : "nowhere";
    char msg[CAP_PATH_MAX + 512];
    snprintf(msg, sizeof msg,
             "ttcap: %s: the program's -finstrument-functions hooks go to %s, not "
             "libttcap: no function calls will be traced; link it with "
             "$(pkg-config --libs ttcap) (keeps -lttcap under --as-needed) or "
             "LD_PRELOAD=libttcap.so\n", program_invocation_short_name, who);
    say(msg);
}

/* At the end: the thread t ends the trace. One line when no function call
 * was recorded and the program has neither hooks nor ttcap_ calls. */
void cap_check_end(struct tstate *t)
{
    if (t->prev)
        cap.any_calls = 1;
    if (cap.any_calls || main_refs.hooks || main_refs.api || main_refs.self)
        return;
    char msg[CAP_PATH_MAX + 512];
    snprintf(msg, sizeof msg,
             "ttcap: %s: no function call traced: the program was not built with "
             "-finstrument-functions ($(pkg-config --cflags ttcap)); %s holds no calls\n",
             program_invocation_short_name, cap.path);
    say(msg);
}
