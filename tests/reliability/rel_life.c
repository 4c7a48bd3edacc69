/*
 * rel_life.c - reliability check (c): process and thread lifecycles that
 * capture must survive. Every mode calls leaf() exactly N times in the
 * traced process (the check counts them in the trace).
 * Usage: rel_life MODE N
 *   daemon    close every descriptor first (daemon style), reopen 0-2
 *   mtfork    fork while 4 threads run; the child calls leaf() N times too
 *   vfork     vfork + exec /bin/true between the calls
 *   spawn     posix_spawn this program ("plain N") between the calls
 *   exec      exec this program ("plain N") after the calls
 *   pthexit   a thread calls pthread_exit() 50 frames deep
 *   longjmp   longjmp out of a 10000-deep recursion, 10 times
 *   plain     just the calls
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
static volatile unsigned sink;
static jmp_buf jb;
static volatile int stop;

__attribute__((noinline)) void leaf(int i) { sink += (unsigned)i; }

__attribute__((noinline)) void calls(int n)
{
    for (int i = 0; i < n; i++)
        leaf(i);
}

__attribute__((noinline)) void deep(int d, int how)
{
    if (d == 0) {
        if (how)
            pthread_exit(NULL);
        longjmp(jb, 1);
    }
    deep(d - 1, how);
    sink++;
}

__attribute__((noinline)) void spin(void)
{
    sink++;
}

static void *runner(void *arg)
{
    (void)arg;
    while (!stop)
        spin();
    return NULL;
}

static void *exiter(void *arg)
{
    (void)arg;
    deep(50, 1);
    return NULL;
}

static void mtfork(int n)
{
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, runner, NULL);
    usleep(20000);
    pid_t p = fork();
    if (p == 0) {
        calls(n);
        exit(0);
    }
    calls(n);
    stop = 1;
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    waitpid(p, NULL, 0);
}

static void daemonish(int n)
{
    for (int fd = 0; fd < 1024; fd++)
        close(fd);
    int fd = open("/dev/null", O_RDWR);
    dup2(fd, 1);
    dup2(fd, 2);
    dup2(fd, 3);        /* where a careless library kept its descriptor */
    calls(n);
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "plain";
    int n = argc > 2 ? atoi(argv[2]) : 1000;
    char num[24];
    snprintf(num, sizeof num, "%d", n);
    char *args[] = { argv[0], (char *)"plain", num, NULL };
    if (strcmp(mode, "daemon") == 0) {
        daemonish(n);
    } else if (strcmp(mode, "mtfork") == 0) {
        mtfork(n);
    } else if (strcmp(mode, "vfork") == 0) {
        calls(n / 2);
        pid_t p = vfork();
        if (p == 0) {
            execl("/bin/true", "true", (char *)NULL);
            _exit(127);
        }
        waitpid(p, NULL, 0);
        calls(n - n / 2);
    } else if (strcmp(mode, "spawn") == 0) {
        pid_t p;
        calls(n / 2);
        if (posix_spawn(&p, argv[0], NULL, NULL, args, environ) == 0)
            waitpid(p, NULL, 0);
        calls(n - n / 2);
    } else if (strcmp(mode, "exec") == 0) {
        calls(n);
        execv(argv[0], args);
        return 127;
    } else if (strcmp(mode, "pthexit") == 0) {
        pthread_t t;
        pthread_create(&t, NULL, exiter, NULL);
        pthread_join(t, NULL);
        calls(n);
    } else if (strcmp(mode, "longjmp") == 0) {
        for (int i = 0; i < 10; i++)
            if (setjmp(jb) == 0)
                deep(10000, 0);
        calls(n);
    } else {
        calls(n);
    }
    return 0;
}
