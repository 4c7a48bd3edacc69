/*
 * rel_gen.c - traces for the reliability checks (issue 24), written with
 * the format's writer. Usage:
 *   rel_gen cut GOOD BAD N AT [DIV] GOOD: one thread calling f0..f7 in
 *                                  turn, N calls; BAD: the same, cut (disk
 *                                  full) after AT calls, the other N - AT
 *                                  calls counted as never written (as
 *                                  libttcap counts them in the mapped
 *                                  header); call DIV (if given) of BAD is f9
 *   rel_gen threads GOOD BAD T DIV T look-alike threads (same name, same
 *                                  start function, same calls) started one
 *                                  after another; in BAD, thread DIV (0: none)
 *                                  makes one other call in the middle
 *   rel_gen module OUT PATH        one thread whose calls lie in a module
 *                                  recorded at PATH (a FIFO, a device...)
 *   rel_gen lazyorder GOOD BAD END the lazy clock (format 1.7): threads main,
 *                                  worker, idle; main's split (f4, bad f5)
 *                                  is an untimed ENTER between 40 and 310
 *                                  us, the worker's (f7, bad f5) measured
 *                                  at 55 us, inside those bounds; thread END
 *                                  ends the process with status 1
 * Functions are addresses of no module: they read "0x401000"... in both
 * runs alike, which is all the engine needs to compare them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttfmt.h"

#define FN(i) (0x401000ull + 0x40ull * (uint64_t)(i))

static int opened(const char *path, ttf_writer **w)
{
    const char *argv[] = {"rel_gen"};
    ttf_writer_opts o = {.chunk_size = 4096, .timed = 1}; /* many threads */
    remove(path);
    if (ttf_writer_open(path, &o, w) != 0)
        return -1;
    return ttf_write_process(*w, 100, 1, "rel_gen", 1, argv, "");
}

/* One call of fn at *tsc (enter, exit). */
static int call(ttf_writer *w, uint32_t th, uint64_t *tsc, uint64_t fn)
{
    int rc = ttf_write_enter(w, th, *tsc += 10, fn);
    return rc | ttf_write_exit(w, th, *tsc += 10, fn);
}

static int gen_cut(const char *path, long n, long at, long div)
{
    ttf_writer *w;
    uint64_t tsc = 1000;
    if (opened(path, &w) != 0)
        return -1;
    int rc = ttf_write_thread_start(w, 0, tsc, 100, "main");
    rc |= ttf_write_enter(w, 0, tsc += 10, FN(100));      /* main */
    for (long i = 0; i < n && i < at && rc == 0; i++)
        rc = call(w, 0, &tsc, FN(i == div ? 9 : i % 8));
    if (at < n) /* events never written: the calls left and main's exit */
        return rc | ttf_write_cut(w, 0, tsc += 10, TTF_CUT_FULL,
                                  2 * (uint64_t)(n - at) + 1) |
               ttf_writer_close(w, 0);
    rc |= ttf_write_exit(w, 0, tsc += 10, FN(100));
    rc |= ttf_write_thread_end(w, 0, tsc += 10);
    return rc | ttf_writer_close(w, 0);
}

/* T threads started one after another, each: enter worker, 4 calls
 * (thread div calls f7 instead of f2), exit worker. */
static int gen_threads(const char *path, long t, long div)
{
    ttf_writer *w;
    uint64_t tsc = 1000;
    if (opened(path, &w) != 0)
        return -1;
    int rc = ttf_write_thread_start(w, 0, tsc, 100, "main");
    rc |= ttf_write_enter(w, 0, tsc += 10, FN(100));
    for (long i = 1; i <= t && rc == 0; i++) {
        uint32_t th = (uint32_t)i;
        rc |= ttf_write_thread_start(w, th, tsc += 10, 100 + i, "worker");
        rc |= ttf_write_enter(w, th, tsc += 10, FN(101));
        for (int k = 0; k < 4; k++)
            rc |= call(w, th, &tsc, FN(i == div && k == 2 ? 7 : k));
        rc |= ttf_write_exit(w, th, tsc += 10, FN(101));
        rc |= ttf_write_thread_end(w, th, tsc += 10);
    }
    rc |= ttf_write_exit(w, 0, tsc += 10, FN(100));
    rc |= ttf_write_thread_end(w, 0, tsc += 10);
    return rc | ttf_writer_close(w, 0);
}

static int gen_module(const char *path, const char *mod)
{
    ttf_writer *w;
    uint64_t tsc = 1000, base = 0x7f0000000000ull;
    if (opened(path, &w) != 0)
        return -1;
    int rc = ttf_write_thread_start(w, 0, tsc, 100, "main");
    rc |= ttf_write_module(w, 0, tsc, base, 0x10000, (const uint8_t *)"\1\2\3\4", 4, mod);
    for (int i = 0; i < 4; i++)
        rc |= call(w, 0, &tsc, base + 0x1000 + 0x10 * (uint64_t)i);
    rc |= ttf_write_thread_end(w, 0, tsc += 10);
    return rc | ttf_writer_close(w, 0);
}

/* rel_gen lazyorder: one run (bad: the splits taken); times in us. */
#define US(x) (1000ull * (x))
static int gen_lazyorder(const char *path, int bad, uint32_t end)
{
    const char *argv[] = {"rel_gen"};
    static const char *const names[] = {"main", "worker", "idle"};
    ttf_writer_opts o = {.chunk_size = 1 << 16, .timed = 1, .sparse = 1, .lazy = 1};
    ttf_writer *w;
    remove(path);
    if (ttf_writer_open(path, &o, &w) != 0 || ttf_write_process(w, 100, 1, "rel_gen", 1, argv, ""))
        return -1;
    int rc = 0;
    for (uint32_t i = 0; i < 3; i++)
        rc |= ttf_write_thread_start(w, i, US(1000) + i, 100 + i, names[i]);
    uint64_t t = US(1002);
    rc |= ttf_write_enter(w, 2, t += US(10), FN(200));        /* idle */
    rc |= ttf_write_exit(w, 2, t += US(10), FN(200));
    rc |= ttf_write_enter(w, 0, US(1020), FN(100));                /* main */
    rc |= ttf_write_enter(w, 0, US(1030), FN(1));
    rc |= ttf_write_enter(w, 0, US(1040), FN(2));
    rc |= ttf_write_exit_sparse(w, 0, US(1050), FN(2), TTF_EXIT_UNTIMED);
    rc |= ttf_write_enter(w, 0, US(1060), FN(bad ? 5 : 4));        /* untimed: lazy */
    rc |= ttf_write_exit(w, 0, US(1310), FN(bad ? 5 : 4));
    rc |= ttf_write_exit(w, 0, US(1320), FN(1)) | ttf_write_exit(w, 0, US(1330), FN(100));
    t = US(1035);                                                  /* worker */
    rc |= ttf_write_enter(w, 1, t += US(10), FN(201));
    rc |= ttf_write_enter(w, 1, t += US(10), FN(bad ? 5 : 7)); /* 1055 */
    rc |= ttf_write_exit(w, 1, t += US(10), FN(bad ? 5 : 7));
    rc |= ttf_write_exit(w, 1, t += US(10), FN(201));
    return rc | ttf_writer_close_in(w, end, 1);
}

int main(int argc, char **argv)
{
    int rc = 2;
    if ((argc == 6 || argc == 7) && !strcmp(argv[1], "cut"))
        rc = gen_cut(argv[2], atol(argv[4]), atol(argv[4]), -1) ||
             gen_cut(argv[3], atol(argv[4]), atol(argv[5]),
                     argc == 7 ? atol(argv[6]) : -1);
    else if (argc == 6 && !strcmp(argv[1], "threads"))
        rc = gen_threads(argv[2], atol(argv[4]), 0) ||
             gen_threads(argv[3], atol(argv[4]), atol(argv[5]));
    else if (argc == 4 && !strcmp(argv[1], "module"))
        rc = gen_module(argv[2], argv[3]) != 0;
    else if (argc == 5 && !strcmp(argv[1], "lazyorder"))
        rc = gen_lazyorder(argv[2], 0, (uint32_t)atol(argv[4])) != 0 ||
             gen_lazyorder(argv[3], 1, (uint32_t)atol(argv[4])) != 0;
    else
        fprintf(stderr, "usage: rel_gen cut GOOD BAD N AT [DIV] | threads GOOD BAD T DIV"
                        " | module OUT PATH | lazyorder GOOD BAD END\n");
    if (rc == 1)
        fprintf(stderr, "rel_gen: cannot write the traces\n");
    return rc;
}
