/*
 * guard.c - a fault inside libdw on damaged debug info ends that one
 * query, not the program. libdw trusts the offsets it reads: a .debug_info
 * or .debug_abbrev with bytes overwritten makes dwarf_getscopes hand back
 * DIEs that point outside the section, and the next dwarf_tag faults. The
 * caller (sym.c) runs each DWARF query of a module under a guard: SIGSEGV
 * and SIGBUS handlers are installed for the query's duration (counted, so
 * nested and concurrent guards install once), a fault in a guarded thread
 * jumps back to the guard's sigsetjmp, and the module's DWARF is not asked
 * again (its libdw session is left as it is, never freed: its state may be
 * half-built). A fault in any thread that holds no guard restores the
 * handler found at install and returns, so it faults again as it would
 * have without us.
 */
#include <pthread.h>
#include <signal.h>
#include <string.h>

#include "ttf_int.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int installed;                  /* guards open, all threads */
static struct sigaction saved[2];      /* SIGSEGV's and SIGBUS's before */
static __thread struct ttfi_guard *current;

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    struct ttfi_guard *g = current;
    (void)si;
    (void)uc;
    if (g) {
        current = g->prev;
        siglongjmp(g->jb, 1);
    }
    sigaction(sig, &saved[sig == SIGBUS], NULL);
}

void ttfi_guard_on(struct ttfi_guard *g)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    pthread_mutex_lock(&lock);
    if (installed++ == 0) {
        sigaction(SIGSEGV, &sa, &saved[0]);
        sigaction(SIGBUS, &sa, &saved[1]);
    }
    pthread_mutex_unlock(&lock);
    g->prev = current;
    current = g;
}

void ttfi_guard_off(struct ttfi_guard *g, int faulted)
{
    if (!faulted)
        current = g->prev;
    pthread_mutex_lock(&lock);
    if (--installed == 0) {
        sigaction(SIGSEGV, &saved[0], NULL);
        sigaction(SIGBUS, &saved[1], NULL);
    }
    pthread_mutex_unlock(&lock);
}
