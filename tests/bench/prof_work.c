/*
 * prof_work.c - the workload of the profile benchmark (bench_profile.sh):
 * ITER iterations of a small call tree, 4 calls (8 enter/exit events) each:
 * prof_a -> prof_b -> prof_c, prof_a -> prof_c. Built with
 * -finstrument-functions against libttcap, and with -pg for uftrace.
 * usage: prof_work ITER
 */
#include <stdio.h>
#include <stdlib.h>

#define WORK __attribute__((noinline))
#define KEEP() __asm__ volatile("" ::: "memory")

static volatile unsigned long sink;

WORK void prof_c(unsigned long i)
{
    sink += i;
    KEEP();
}

WORK void prof_b(unsigned long i)
{
    prof_c(i);
    KEEP();
}

WORK void prof_a(unsigned long i)
{
    prof_b(i);
    prof_c(i + 1);
    KEEP();
}

int main(int argc, char **argv)
{
    unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;

    for (unsigned long i = 0; i < n; i++)
        prof_a(i);
    printf("%lu\n", (unsigned long)sink);
    return 0;
}
