/*
 * rel_forklock.c - reliability check (i): fork while another thread holds
 * a libc or loader lock. A churn thread loops in setenv/putenv/unsetenv
 * (glibc's environment lock) or dlopen/dlclose (the loader's locks) while
 * the main thread forks N times; each child makes 100 traced calls and
 * ends with exit() (so the trace's clean end runs too). A child that does
 * not finish within 3 s is counted as hung and killed. A child reports
 * with its exit status whether it was traced (0) or not (3).
 * Usage: rel_forklock env|dl N [LIBRARY]   (dl: LIBRARY, default libm.so.6)
 * Prints "forks=N finished=F traced=T hung=H".
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ttcap.h"

static volatile unsigned sink;
static volatile int stop;
static const char *lib = "libm.so.6";

__attribute__((noinline)) void leaf(int i) { sink += (unsigned)i; }

/* setenv grows and rewrites the environment under glibc's lock */
static void *env_churn(void *arg)
{
    (void)arg;
    static char a[] = "TT_CHURN_A=1", b[] = "TT_CHURN_B=2";
    char val[32];
    for (unsigned i = 0; !stop; i++) {
        snprintf(val, sizeof val, "%u", i);
        setenv("TT_CHURN", val, 1);
        putenv(i & 1 ? a : b);
        unsetenv(i & 1 ? "TT_CHURN_B" : "TT_CHURN_A");
    }
    return NULL;
}

/* dlopen/dlclose hold the loader's locks (load, and the write lock that
 * dl_iterate_phdr takes) */
static void *dl_churn(void *arg)
{
    (void)arg;
    while (!stop) {
        void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
        if (h)
            dlclose(h);
    }
    return NULL;
}

/* waitpid with a deadline: 1 = finished (*st set), 0 = still running */
static int wait_for(pid_t pid, int *st, int ms)
{
    struct timespec nap = { 0, 1000000 };
    for (int i = 0; i < ms; i++) {
        if (waitpid(pid, st, WNOHANG) == pid)
            return 1;
        nanosleep(&nap, NULL);
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int dl = strcmp(argv[1], "dl") == 0, n = atoi(argv[2]);
    if (argc > 3)
        lib = argv[3];
    pthread_t th;
    pthread_create(&th, NULL, dl ? dl_churn : env_churn, NULL);
    struct timespec warm = { 0, 20000000 };
    nanosleep(&warm, NULL);
    int finished = 0, traced = 0, hung = 0;
    for (int i = 0; i < n; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            for (int k = 0; k < 100; k++)
                leaf(k);
            exit(ttcap_enabled() ? 0 : 3);
        }
        if (pid < 0)
            break;
        int st = 0;
        if (!wait_for(pid, &st, 3000)) {
            hung++;
            kill(pid, SIGKILL);
            waitpid(pid, &st, 0);
            continue;
        }
        finished++;
        traced += WIFEXITED(st) && WEXITSTATUS(st) == 0;
    }
    stop = 1;
    pthread_join(th, NULL);
    printf("forks=%d finished=%d traced=%d hung=%d\n", n, finished, traced, hung);
    return 0;
}
