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
 * goes to another object (glibc's). Slow path only: start and exit.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cap_int.h"

#if __ELF_NATIVE_CLASS == 64
#define REL_SYM ELF64_R_SYM
#else
#define REL_SYM ELF32_R_SYM
#endif

/* Pointer-valued dynamic tags: relocated in place by glibc on most targets,
 * not on some (read-only dynamic section); a value below the load bias is
 * taken as unrelocated. */
static uintptr_t dyn_ptr(const struct dl_phdr_info *info, uintptr_t v)
{
    return v < info->dlpi_addr ? v + info->dlpi_addr : v;
}

static void scan_relas(const ElfW(Rela) *r, size_t bytes, const ElfW(Sym) *sym,
                       const char *str, struct cap_refs *rf)
{
    for (size_t i = 0; r && i < bytes / sizeof *r; i++) {
        size_t s = REL_SYM(r[i].r_info);
        if (s == 0)
            continue;
        const char *name = str + sym[s].st_name;
        if (strcmp(name, "__cyg_profile_func_enter") == 0)
            rf->hooks = 1;
        else if (strncmp(name, "ttcap_", 6) == 0)
            rf->api = 1;
        else if (strcmp(name, "__monstartup") == 0)
            rf->gprof = 1;
        else if (strcmp(name, "__fentry__") == 0)
            rf->fentry = 1;
    }
}

static int is_inside(const struct dl_phdr_info *info, uintptr_t a)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && a >= lo && a < lo + ph->p_memsz)
            return 1;
    }
    return 0;
}

/* What the object info's dynamic relocations refer to, and whether it holds
 * libttcap. RELA targets only (x86-64, aarch64, riscv...); elsewhere only
 * self is found. */
void cap_module_refs(const struct dl_phdr_info *info, struct cap_refs *rf)
{
    memset(rf, 0, sizeof *rf);
    rf->self = is_inside(info, (uintptr_t)&cap_hook_enter);
    const ElfW(Dyn) *d = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
            d = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    uintptr_t sym = 0, str = 0, rela = 0, jmp = 0;
    size_t relasz = 0, jmpsz = 0, pltrel = DT_RELA;
    for (; d && d->d_tag != DT_NULL; d++) {
        switch (d->d_tag) {
        case DT_SYMTAB: sym = dyn_ptr(info, d->d_un.d_ptr); break;
        case DT_STRTAB: str = dyn_ptr(info, d->d_un.d_ptr); break;
        case DT_RELA: rela = dyn_ptr(info, d->d_un.d_ptr); break;
        case DT_RELASZ: relasz = d->d_un.d_val; break;
        case DT_JMPREL: jmp = dyn_ptr(info, d->d_un.d_ptr); break;
        case DT_PLTRELSZ: jmpsz = d->d_un.d_val; break;
        case DT_PLTREL: pltrel = d->d_un.d_val; break;
        }
    }
    if (!sym || !str)
        return;
    scan_relas((const ElfW(Rela) *)rela, relasz, (const ElfW(Sym) *)sym,
               (const char *)str, rf);
    if (pltrel == DT_RELA)
        scan_relas((const ElfW(Rela) *)jmp, jmpsz, (const ElfW(Sym) *)sym,
                   (const char *)str, rf);
}

/* The first object dl_iterate_phdr visits is the program. */
static int main_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    cap_module_refs(info, arg);
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

typedef void *(*fentry_open_fn)(const char *, int);
typedef int (*fentry_close_fn)(void *);

/* One line when the program calls __fentry__ (-pg -mfentry) and the loader
 * binds it to another object than libttcap (glibc's, which counts for
 * gprof: libttcap named after libc, or only in a dlopen'd plugin). The
 * program's scope is asked through the loader's own dlopen (not our
 * interposer, which would rescan the modules). */
static void check_fentry(void)
{
    Dl_info me, di;
    if (main_refs.self || !main_refs.fentry || !dladdr((void *)&cap_hook_enter, &me))
        return;
    /* no next one when libc comes before libttcap: then the first is libc's */
    void *o = dlsym(RTLD_NEXT, "dlopen"), *c = dlsym(RTLD_NEXT, "dlclose");
    fentry_open_fn real_open = (fentry_open_fn)(o ? o : dlsym(RTLD_DEFAULT, "dlopen"));
    fentry_close_fn real_close = (fentry_close_fn)(c ? c : dlsym(RTLD_DEFAULT, "dlclose"));
    void *prog = real_open && real_close ? real_open(NULL, RTLD_NOW | RTLD_NOLOAD) : NULL;
    void *bound = prog ? dlsym(prog, "__fentry__") : NULL;
    if (prog)
        real_close(prog);
    int found = bound && dladdr(bound, &di);
    if (!prog || (found && di.dli_fbase == me.dli_fbase))
        return;
    char msg[CAP_PATH_MAX + 512];
    snprintf(msg, sizeof msg,
             "ttcap: %s: the program's -pg -mfentry hooks (__fentry__) go to %s, not "
             "libttcap: no function calls will be traced; link it with "
             "$(pkg-config --libs ttcap-values) (keeps -lttcap under --as-needed), "
             "build with ttcc --values, or LD_PRELOAD=libttcap.so\n",
             program_invocation_short_name,
             found && di.dli_fname ? di.dli_fname : "nowhere");
    say(msg);
}

/* At trace start: warn (one line) when the program's calls of the hooks do
 * not reach libttcap, or when it was linked with -pg. */
void cap_check_start(void)
{
    dl_iterate_phdr(main_cb, &main_refs);
    check_gprof();
    check_fentry();
    if (main_refs.self || !main_refs.hooks)
        return;
    /* the program's scope (RTLD_DEFAULT would search ours, which holds
     * libttcap even when it came in as a dlopen'd plugin's dependency) */
    void *prog = dlopen(NULL, RTLD_NOW | RTLD_NOLOAD);
    void *bound = prog ? dlsym(prog, "__cyg_profile_func_enter") : NULL;
    if (prog)
        dlclose(prog);
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
    if (cap.any_calls || main_refs.hooks || main_refs.fentry || main_refs.api ||
        main_refs.self)
        return;
    char msg[CAP_PATH_MAX + 512];
    snprintf(msg, sizeof msg,
             "ttcap: %s: no function call traced: the program was not built with "
             "-finstrument-functions ($(pkg-config --cflags ttcap)); %s holds no calls\n",
             program_invocation_short_name, cap.path);
    say(msg);
}
