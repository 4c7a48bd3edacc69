/*
 * gen_trace.c - synthetic good/bad trace pairs for the ttdiff benchmark
 * (bench_diff.sh): a deterministic call tree of a few hundred functions,
 * written with the format library's writer and, for GNU diff and git diff,
 * as text with one line per event ("E f123" / "X f123").
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttfmt.h"

#define NFUNC 400               /* functions, 10 levels of 40 */
#define PER_LEVEL 40
#define MOD_BASE 0x555555400000ull  /* load address of the fake module */
#define MOD_PATH "/nonexistent/tt-bench/prog" /* never resolves: module+off */
#define EV_CRASH UINT32_MAX     /* sequence code of the crash record */
#define NS_PER_EVENT 37         /* fake time between events */

/* An event sequence: code = function << 1 | is_exit, or EV_CRASH. */
typedef struct seq {
    uint32_t *ev;               /* the events */
    size_t n, cap;              /* used, allocated */
} seq;

/* The static call graph: who calls whom. */
typedef struct graph {
    uint16_t callee[NFUNC][4];  /* up to 4 callees, one level down */
    int ncallee[NFUNC];         /* how many */
} graph;

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static size_t below(size_t n)
{
    return (size_t)(rnd() % n);
}

static void push(seq *s, uint32_t code)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 1024;
        s->ev = realloc(s->ev, s->cap * sizeof *s->ev);
        if (!s->ev) {
            fprintf(stderr, "gen_trace: out of memory\n");
            exit(2);
        }
    }
    s->ev[s->n++] = code;
}

static void make_graph(graph *g)
{
    int f, i;

    for (f = 0; f < NFUNC; f++) {
        int level = f / PER_LEVEL;

        g->ncallee[f] = level < NFUNC / PER_LEVEL - 1 ? 1 + (int)below(4) : 0;
        for (i = 0; i < g->ncallee[f]; i++)
            g->callee[f][i] = (uint16_t)((level + 1) * PER_LEVEL + below(PER_LEVEL));
    }
}

/* One call of f and what it calls (each callee 0-2 times, data-dependent),
 * while the budget of n events lasts; depth frames are open above it. */
static void call(const graph *g, seq *s, int f, size_t n, size_t depth)
{
    int i;

    push(s, (uint32_t)f << 1);
    for (i = 0; i < g->ncallee[f]; i++) {
        size_t reps = below(3), r;

        for (r = 0; r < reps && s->n + depth + 4 <= n; r++)
            call(g, s, g->callee[f][i], n, depth + 1);
    }
    push(s, (uint32_t)f << 1 | 1);
}

/* The good run: main calls level-0 functions until about n events. */
static void make_good(const graph *g, seq *s, size_t n)
{
    while (s->n + 4 <= n)
        call(g, s, (int)below(PER_LEVEL), n, 0);
}

/* Scattered edits on leaf calls (E f, X f): replace f, drop the call, or
 * insert a new leaf call before it, a third each. */
static void make_edits(const seq *good, seq *bad, size_t nedit)
{
    size_t gap = good->n / (nedit + 1), i, k;
    size_t next = gap / 2 + below(gap);

    for (i = 0, k = 0; i < good->n; i++) {
        uint32_t e = good->ev[i];
        int leaf = i + 1 < good->n && !(e & 1) && good->ev[i + 1] == (e | 1);
        uint32_t other = (uint32_t)(NFUNC - PER_LEVEL + below(PER_LEVEL)) << 1;

        if (!leaf || i < next || k == nedit) {
            push(bad, e);
            continue;
        }
        k++;
        next = i + gap / 2 + below(gap);
        switch (k % 3) {
        case 0: /* replaced */
            push(bad, other);
            push(bad, other | 1);
            i++;
            break;
        case 1: /* dropped */
            i++;
            break;
        default: /* a call inserted before this one */
            push(bad, other);
            push(bad, other | 1);
            push(bad, e);
        }
    }
}

static void make_crash(const seq *good, seq *bad)
{
    size_t i;

    for (i = 0; i < good->n / 10; i++)
        push(bad, good->ev[i]);
    push(bad, EV_CRASH);
}

/* First half as in the good run, second half its events in random order. */
static void make_shuffle(const seq *good, seq *bad)
{
    size_t h = good->n / 2, i;

    for (i = 0; i < good->n; i++)
        push(bad, good->ev[i]);
    for (i = bad->n - 1; i > h; i--) {
        size_t j = h + below(i - h + 1);
        uint32_t t = bad->ev[i];

        bad->ev[i] = bad->ev[j];
        bad->ev[j] = t;
    }
}

static int check(int rc, const char *what, const char *path)
{
    if (rc == 0)
        return 0;
    fprintf(stderr, "gen_trace: %s: %s: %s\n", path, what, ttf_strerror(rc));
    exit(2);
}

static void write_trace(const seq *s, const char *path)
{
    static const uint8_t build_id[20] = { 0x7b, 0xe5, 0x1c, 0x0d };
    const char *argv[] = { MOD_PATH, "--bench" };
    ttf_writer *w = NULL;
    uint64_t t = 1000;
    size_t i;
    int crashed = 0;

    check(ttf_writer_open(path, NULL, &w), "open", path);
    check(ttf_write_process(w, 4242, 1, MOD_PATH, 2, argv, ""), "process", path);
    check(ttf_write_thread_start(w, 0, t, 4242, "main"), "thread", path);
    check(ttf_write_module(w, 0, t, MOD_BASE, 0x100000, build_id,
                           sizeof build_id, MOD_PATH), "module", path);
    for (i = 0; i < s->n; i++) {
        uint32_t e = s->ev[i];
        uint64_t addr = MOD_BASE + 0x1000 + (uint64_t)(e >> 1) * 0x60;

        t += NS_PER_EVENT;
        if (e == EV_CRASH) {
            check(ttf_write_crash(w, 0, t, 11, 1, 0x10), "crash", path);
            crashed = 1;
        } else if (e & 1) {
            check(ttf_write_exit(w, 0, t, addr), "exit", path);
        } else {
            check(ttf_write_enter(w, 0, t, addr), "enter", path);
        }
    }
    if (crashed) {
        check(ttf_writer_abandon(w), "abandon", path);
        return;
    }
    check(ttf_write_thread_end(w, 0, t + 1), "thread end", path);
    check(ttf_writer_close(w, 0), "close", path);
}

static void write_text(const seq *s, const char *path)
{
    FILE *f = fopen(path, "w");
    size_t i;

    if (!f) {
        perror(path);
        exit(2);
    }
    for (i = 0; i < s->n; i++) {
        uint32_t e = s->ev[i];

        if (e == EV_CRASH)
            fputs("CRASH SIGSEGV\n", f);
        else
            fprintf(f, "%c f%u\n", e & 1 ? 'X' : 'E', e >> 1);
    }
    if (fclose(f) != 0) {
        perror(path);
        exit(2);
    }
}

static const char usage[] =
    "usage: gen_trace N MODE OUT.trc OUT.txt\n"
    "  N     events of the good run (about)\n"
    "  MODE  good | edits:K | crash | shuffle\n"
    "Writes the good run, or a bad run derived from it (same seed), as a\n"
    "trace and as text; prints the event count.\n";

int main(int argc, char **argv)
{
    seq good = { 0 }, bad = { 0 };
    const seq *out = &bad;
    graph g;
    size_t n;

    if (argc != 5 || (n = strtoull(argv[1], NULL, 10)) < 16) {
        fputs(usage, stderr);
        return 2;
    }
    make_graph(&g);
    make_good(&g, &good, n);
    if (strcmp(argv[2], "good") == 0)
        out = &good;
    else if (strncmp(argv[2], "edits:", 6) == 0)
        make_edits(&good, &bad, strtoull(argv[2] + 6, NULL, 10));
    else if (strcmp(argv[2], "crash") == 0)
        make_crash(&good, &bad);
    else if (strcmp(argv[2], "shuffle") == 0)
        make_shuffle(&good, &bad);
    else {
        fputs(usage, stderr);
        return 2;
    }
    remove(argv[3]);
    write_trace(out, argv[3]);
    write_text(out, argv[4]);
    printf("%zu\n", out->n);
    free(good.ev);
    free(bad.ev);
    return 0;
}
