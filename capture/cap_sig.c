/*
 * cap_sig.c - fatal signals: the CRASH record, and keeping our handler in
 * place when the program installs its own after the trace started (crash
 * reporters, runtimes, test frameworks) through the sigaction(), signal()
 * and __sysv_signal() interposers.
 *
 * While our handler is installed for a fatal signal, the program's view of
 * that signal is virtual: what it installs is kept as the handler ours
 * chains to, and what it queries is what it installed last. The kernel
 * keeps on_fatal, with the program's sa_mask and SA_NODEFER, so the
 * program's handler runs with the mask it asked for. The handler reads its
 * chain from one of two copies, switched by an atomic index, so an update
 * racing with a fault never shows it half a struct.
 */
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>

#include "cap_int.h"

static const int fatal_sigs[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT };
#define NFATAL (sizeof fatal_sigs / sizeof fatal_sigs[0])

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);
typedef void (*handler_fn)(int);
typedef handler_fn (*signal_fn)(int, handler_fn);

/* What one fatal signal chains to. */
struct chain {
    struct sigaction act[2];    /* the program's action, double-buffered */
    _Atomic int cur;            /* the copy on_fatal reads */
    _Atomic int ours;           /* on_fatal is installed for this signal */
};

static struct chain chain[NFATAL];
static atomic_flag chain_lock = ATOMIC_FLAG_INIT; /* serialises updates */
static sigaction_fn real_sigaction;     /* libc's, resolved once */

static void on_fatal(int sig, siginfo_t *si, void *uc);

static int fatal_index(int sig)
{
    for (size_t i = 0; i < NFATAL; i++)
        if (fatal_sigs[i] == sig)
            return (int)i;
    return -1;
}

/* libc's sigaction; NULL only if the dynamic linker cannot find it. */
static sigaction_fn resolve(void)
{
    if (!real_sigaction)
        real_sigaction = (sigaction_fn)dlsym(RTLD_NEXT, "sigaction");
    return real_sigaction;
}

static int is_function(const struct sigaction *a)
{
    return a->sa_handler != SIG_DFL && a->sa_handler != SIG_IGN;
}

/* Publish a as signal i's chain. Callers hold chain_lock (or won it). */
static void set_chain(size_t i, const struct sigaction *a)
{
    int n = !atomic_load(&chain[i].cur);
    chain[i].act[n] = *a;
    atomic_store(&chain[i].cur, n);
}

/* (Re)install on_fatal for signal i, with the mask and SA_NODEFER of the
 * program's handler a (none for SIG_DFL / SIG_IGN). */
static int install_ours(size_t i, const struct sigaction *a)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fatal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (a && is_function(a)) {
        sa.sa_mask = a->sa_mask;
        sa.sa_flags |= a->sa_flags & SA_NODEFER;
    }
    return real_sigaction(fatal_sigs[i], &sa, NULL);
}

/* Called once, at trace start: on_fatal for every fatal signal, chaining to
 * whatever was there before. */
void cap_signals_install(void)
{
    if (!resolve())
        return;
    for (size_t i = 0; i < NFATAL; i++) {
        struct sigaction was;
        if (real_sigaction(fatal_sigs[i], NULL, &was) != 0)
            continue;
        set_chain(i, &was);
        if (install_ours(i, &was) == 0)
            atomic_store(&chain[i].ours, 1);
    }
}

/* The default action of sig, with libc's sigaction (signal() is ours). */
static void set_default(int sig)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_DFL;
    sigemptyset(&sa.sa_mask);
    real_sigaction(sig, &sa, NULL);
}

static void write_crash(int sig, const siginfo_t *si)
{
    struct tstate *t = &cap_tls;
    if (cap_on)
        cap_cut_publish(t);     /* a cut thread: its count into the header */
    uint8_t *p = cap_on ? cap_reserve_room(t) : NULL;
    if (!p)
        return;
    if (t->busy) {              /* interrupted mid-write: drop the partial record */
        size_t n = (size_t)(t->limit + CAP_RESERVE - p);
        memset(p, 0, n < 8192 ? n : 8192);
    }
    uint8_t *q = cap_put_t(t, p + 2);
    q = ttf_put_uvar(q, (uint64_t)sig);
    q = ttf_put_svar(q, si ? si->si_code : 0);
    q = ttf_put_uvar(q, si ? (uint64_t)(uintptr_t)si->si_addr : 0);
    cap_commit(t, p, TTF_R_CRASH, cap_ext_close(p, q));
}

int cap_probe_ready(void)
{
    return atomic_load_explicit(&chain[0].ours, memory_order_relaxed) &&
           atomic_load_explicit(&chain[1].ours, memory_order_relaxed);
}

#if defined(__x86_64__) && defined(__linux__)
extern const char cap_probe_load[], cap_probe_fault[];  /* cap_probe.S */

/* 1 if the fault is cap_probe_copy's load: resumed at cap_probe_fault. */
static int probe_fault(int sig, void *uc)
{
    ucontext_t *u = uc;
    if ((sig != SIGSEGV && sig != SIGBUS) || !u ||
        u->uc_mcontext.gregs[REG_RIP] != (greg_t)(uintptr_t)cap_probe_load)
        return 0;
    u->uc_mcontext.gregs[REG_RIP] = (greg_t)(uintptr_t)cap_probe_fault;
    return 1;
}
#else
static int probe_fault(int sig, void *uc)
{
    (void)sig;
    (void)uc;
    return 0;
}
#endif

/* A fatal signal: a fault of cap_probe_copy resumed (cap_probe.S), else
 * CRASH into this thread's chunk, then whatever would have happened
 * without us (the program's handler, or the default action).
 * Async-signal-safe: no locks taken, no allocation. */
static void on_fatal(int sig, siginfo_t *si, void *uc)
{
    if (probe_fault(sig, uc))
        return;
    int saved = errno;
    write_crash(sig, si);
    errno = saved;
    int i = fatal_index(sig);
    if (i < 0)
        return;
    struct sigaction o = chain[i].act[atomic_load(&chain[i].cur)];
    int sent = si && si->si_code <= 0;  /* kill/raise/abort, not a fault */
    if (o.sa_handler == SIG_IGN && sent)
        return;                 /* ignored (abort() then re-raises itself) */
    if (is_function(&o) && (o.sa_flags & SA_RESETHAND) &&
        !atomic_flag_test_and_set(&chain_lock)) {
        struct sigaction dfl;   /* one shot: the next one gets the default */
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        set_chain((size_t)i, &dfl);
        atomic_flag_clear(&chain_lock);
    }
    if (is_function(&o) && (o.sa_flags & SA_SIGINFO)) {
        o.sa_sigaction(sig, si, uc);
        return;
    }
    if (is_function(&o)) {
        o.sa_handler(sig);
        return;
    }
    cap_tree_end(TTF_PT_SIGNALED, 0, sig);  /* the default action kills it */
    set_default(sig);           /* a fault re-faults on return, into the default */
    if (sent)
        raise(sig);             /* blocked until we return, then the default */
}

/* ---- interposers ------------------------------------------------------------ */

/* sigaction(2), virtualised for the fatal signals while on_fatal is
 * installed: act becomes the chained handler, old reports the chained one.
 * Tracing off: act goes to the kernel and the signal is the program's again. */
__attribute__((visibility("default")))
int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
    if (!resolve()) {
        errno = ENOSYS;
        return -1;
    }
    int i = fatal_index(sig);
    if (i < 0 || !atomic_load(&chain[i].ours))
        return real_sigaction(sig, act, old);
    sigset_t all, mask;         /* no handler of ours may spin on the lock */
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &mask);
    cap_spin_lock(&chain_lock);
    struct sigaction was = chain[i].act[atomic_load(&chain[i].cur)];
    int rc = 0;
    if (act && !cap_on) {
        rc = real_sigaction(sig, act, NULL);
        if (rc == 0)
            atomic_store(&chain[i].ours, 0);
    } else if (act) {
        set_chain((size_t)i, act);
        rc = install_ours((size_t)i, act);
    }
    cap_spin_unlock(&chain_lock);
    pthread_sigmask(SIG_SETMASK, &mask, NULL);
    if (rc == 0 && old)
        *old = was;
    return rc;
}

/* signal() and __sysv_signal() of a fatal signal we hold: the sigaction
 * they stand for (BSD: SA_RESTART, the signal masked; System V: one shot,
 * not masked). Other signals: libc's own. */
static handler_fn via_sigaction(int sig, handler_fn h, int flags)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = h;
    sa.sa_flags = flags;
    sigemptyset(&sa.sa_mask);
    if (!(flags & SA_NODEFER))
        sigaddset(&sa.sa_mask, sig);
    return sigaction(sig, &sa, &old) == 0 ? old.sa_handler : SIG_ERR;
}

static int held(int sig, handler_fn h)
{
    int i = fatal_index(sig);
    return i >= 0 && h != SIG_ERR && atomic_load(&chain[i].ours);
}

__attribute__((visibility("default")))
handler_fn signal(int sig, handler_fn h)
{
    static signal_fn real;
    if (held(sig, h))
        return via_sigaction(sig, h, SA_RESTART);
    if (!real)
        real = (signal_fn)dlsym(RTLD_NEXT, "signal");
    if (!real) {
        errno = ENOSYS;
        return SIG_ERR;
    }
    return real(sig, h);
}

handler_fn __sysv_signal(int sig, handler_fn h);

__attribute__((visibility("default")))
handler_fn __sysv_signal(int sig, handler_fn h)
{
    static signal_fn real;
    if (held(sig, h))
        return via_sigaction(sig, h, SA_RESETHAND | SA_NODEFER);
    if (!real)
        real = (signal_fn)dlsym(RTLD_NEXT, "__sysv_signal");
    if (!real) {
        errno = ENOSYS;
        return SIG_ERR;
    }
    return real(sig, h);
}
