/*
 * gen_trace.c - synthetic good/bad trace pairs for the ttdiff benchmark
 * (bench_diff.sh): a deterministic call tree of a few hundred functions,
 * written with the format library's writer and, for GNU diff and git diff,
 * as text with one line per event ("E f123" / "X f123"; with several
 * threads, "T1 E f123"). Modes lua:SEED (an interpreter running a random
 * script on input SEED: runs of two seeds differ everywhere) and
 * threads3:K (three threads, K edits each) are for the tree aligner.
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

/* Threads s[0..nt) into one trace, interleaved in blocks of 4096 events
 * in time order. */
static void write_trace(const seq *s, int nt, const char *path)
{
    static const uint8_t build_id[20] = { 0x7b, 0xe5, 0x1c, 0x0d };
    static const char *const names[] = { "main", "worker1", "worker2" };
    const char *argv[] = { MOD_PATH, "--bench" };
    ttf_writer *w = NULL;
    uint64_t t = 1000;
    size_t at[3] = { 0, 0, 0 }, left = 0;
    int crashed = 0, th;

    check(ttf_writer_open(path, NULL, &w), "open", path);
    check(ttf_write_process(w, 4242, 1, MOD_PATH, 2, argv, ""), "process", path);
    for (th = 0; th < nt; th++) {
        check(ttf_write_thread_start(w, (uint32_t)th, t, 4242 + th, names[th]),
              "thread", path);
        left += s[th].n;
    }
    check(ttf_write_module(w, 0, t, MOD_BASE, 0x100000, build_id,
                           sizeof build_id, MOD_PATH), "module", path);
    for (th = 0; left; th = (th + 1) % nt) {
        size_t end = at[th] + 4096 < s[th].n ? at[th] + 4096 : s[th].n;
        for (; at[th] < end; at[th]++, left--) {
            uint32_t e = s[th].ev[at[th]];
            uint64_t addr = MOD_BASE + 0x1000 + (uint64_t)(e >> 1) * 0x60;

            t += NS_PER_EVENT;
            if (e == EV_CRASH) {
                check(ttf_write_crash(w, (uint32_t)th, t, 11, 1, 0x10), "crash", path);
                crashed = 1;
            } else if (e & 1) {
                check(ttf_write_exit(w, (uint32_t)th, t, addr), "exit", path);
            } else {
                check(ttf_write_enter(w, (uint32_t)th, t, addr), "enter", path);
            }
        }
    }
    if (crashed) {
        check(ttf_writer_abandon(w), "abandon", path);
        return;
    }
    for (th = nt - 1; th >= 0; th--)
        check(ttf_write_thread_end(w, (uint32_t)th, t + 1), "thread end", path);
    check(ttf_writer_close(w, 0), "close", path);
}

static void write_text(const seq *s, int nt, const char *path)
{
    FILE *f = fopen(path, "w");
    size_t i;
    int th;

    if (!f) {
        perror(path);
        exit(2);
    }
    for (th = 0; th < nt; th++) {
        for (i = 0; i < s[th].n; i++) {
            uint32_t e = s[th].ev[i];

            if (nt > 1)
                fprintf(f, "T%d ", th);
            if (e == EV_CRASH)
                fputs("CRASH SIGSEGV\n", f);
            else
                fprintf(f, "%c f%u\n", e & 1 ? 'X' : 'E', e >> 1);
        }
    }
    if (fclose(f) != 0) {
        perror(path);
        exit(2);
    }
}

/* ---- an interpreter running a random script (lua:SEED) ------------------ */

enum { L_MAIN = 0, L_PCALL, L_DCALL, L_EXEC, L_PRECALL, L_POSCALL, L_GC,
       L_PROPAGATE, L_SWEEP, L_GETSTR, L_NEWSTR, L_HASH, L_INTERN, L_RESIZE,
       L_REHASH, L_SETINT, L_ARITH, L_CONCAT, L_TOSTR, L_EQ, L_GETTABLE,
       L_FINISHGET, L_MARKOBJ, L_FREEOBJ, L_NFUNC };

#define L_SCRIPT 48             /* script functions */
#define L_OPS 40                /* ops per script function, at most */

/* The script: the same in every run (fixed seed). */
typedef struct lscript {
    uint8_t op[L_SCRIPT][L_OPS];    /* op kinds */
    uint8_t arg[L_SCRIPT][L_OPS];   /* callee of a call op */
    int nop[L_SCRIPT];
} lscript;

typedef struct lrun {
    const lscript *sc;
    seq *s;
    size_t n;                   /* event budget */
    uint64_t in;                /* input rng (the run's seed) */
    unsigned alloc;             /* allocations since the last GC step */
} lrun;

static uint64_t lin(lrun *r)
{
    r->in ^= r->in << 13;
    r->in ^= r->in >> 7;
    r->in ^= r->in << 17;
    return r->in;
}

static void lcall(lrun *r, int f)
{
    push(r->s, (uint32_t)f << 1);
}

static void lret(lrun *r, int f)
{
    push(r->s, (uint32_t)f << 1 | 1);
}

static void lleaf(lrun *r, int f)
{
    lcall(r, f);
    lret(r, f);
}

static void lalloc(lrun *r)
{
    unsigned k;

    if (++r->alloc < 40 + lin(r) % 40)
        return;
    r->alloc = 0;
    lcall(r, L_GC);
    for (k = 0; k < 2 + lin(r) % 6; k++) {
        lcall(r, L_PROPAGATE);
        lleaf(r, L_MARKOBJ);
        if (lin(r) % 3 == 0)
            lleaf(r, L_MARKOBJ);
        lret(r, L_PROPAGATE);
    }
    if (lin(r) % 2) {
        lcall(r, L_SWEEP);
        for (k = 0; k < lin(r) % 4; k++)
            lleaf(r, L_FREEOBJ);
        lret(r, L_SWEEP);
    }
    lret(r, L_GC);
}

static void lnewstr(lrun *r)
{
    lcall(r, L_NEWSTR);
    lleaf(r, L_HASH);
    if (lin(r) % 4 != 0) {
        lleaf(r, L_INTERN);
        lalloc(r);
    }
    lret(r, L_NEWSTR);
}

static void lexec(lrun *r, int fn, int depth);

/* One op of the script; i may skip ahead (a loop runs the next ops). */
static void lop(lrun *r, int fn, int *i, int depth)
{
    int op = r->sc->op[fn][*i], k, reps, j;

    switch (op) {
    case 0: lleaf(r, L_GETSTR); break;
    case 1: lnewstr(r); break;
    case 2:
        lleaf(r, L_PRECALL);
        if (depth < 24)
            lexec(r, r->sc->arg[fn][*i], depth + 1);
        lleaf(r, L_POSCALL);
        break;
    case 3: /* a loop over the next three ops, input-dependent count */
        reps = 1 + (int)(lin(r) % 6);
        for (k = 0; k < reps && r->s->n + 64 < r->n; k++)
            for (j = 1; j <= 3 && *i + j < r->sc->nop[fn]; j++) {
                int at = *i + j;
                if (r->sc->op[fn][at] != 3)
                    lop(r, fn, &at, depth);
            }
        *i += 3;
        break;
    case 4:
        lcall(r, L_SETINT);
        if (lin(r) % 8 == 0) {
            lcall(r, L_RESIZE);
            for (k = 0; k < 1 + (int)(lin(r) % 5); k++)
                lleaf(r, L_REHASH);
            lalloc(r);
            lret(r, L_RESIZE);
        }
        lret(r, L_SETINT);
        break;
    case 5:
        if (lin(r) % 2) {
            lleaf(r, L_ARITH);
        } else {
            lcall(r, L_CONCAT);
            lleaf(r, L_TOSTR);
            lnewstr(r);
            lret(r, L_CONCAT);
        }
        break;
    case 6:
        lcall(r, L_GETTABLE);
        if (lin(r) % 3 == 0)
            lleaf(r, L_FINISHGET);
        lret(r, L_GETTABLE);
        break;
    default:
        if (lin(r) % 2)
            lleaf(r, L_EQ);
    }
}

static void lexec(lrun *r, int fn, int depth)
{
    int i;

    lcall(r, L_EXEC);
    for (i = 0; i < r->sc->nop[fn] && r->s->n + 64 + 2 * depth < r->n; i++) {
        if (r->sc->op[fn][i] == 2 && lin(r) % 3 == 0)
            continue; /* a branch not taken on this input */
        lop(r, fn, &i, depth);
    }
    lret(r, L_EXEC);
}

static void make_lua(seq *s, size_t n, uint64_t seed)
{
    static lscript sc;
    lrun r = { &sc, s, n, seed * 0x9E3779B97F4A7C15ull | 1, 0 };
    int f, i;

    for (f = 0; f < L_SCRIPT; f++) {
        sc.nop[f] = 8 + (int)below(L_OPS - 8);
        for (i = 0; i < sc.nop[f]; i++) {
            sc.op[f][i] = (uint8_t)below(8);
            /* calls go to later functions: the script terminates */
            sc.arg[f][i] = (uint8_t)(f + 1 < L_SCRIPT ? (size_t)f + 1 + below((size_t)(L_SCRIPT - f - 1)) : (size_t)f);
            if (f + 1 >= L_SCRIPT && sc.op[f][i] == 2)
                sc.op[f][i] = 0;
        }
    }
    lcall(&r, L_MAIN);
    while (s->n + 256 < n) {
        lcall(&r, L_PCALL);
        lcall(&r, L_DCALL);
        lexec(&r, (int)(lin(&r) % 8), 0);
        lret(&r, L_DCALL);
        lret(&r, L_PCALL);
    }
    lret(&r, L_MAIN);
}

static const char usage[] =
    "usage: gen_trace N MODE OUT.trc OUT.txt\n"
    "  N     events of the good run (about)\n"
    "  MODE  good | edits:K | crash | shuffle | lua:SEED | threads3:K\n"
    "Writes the good run, or a bad run derived from it (same seed), as a\n"
    "trace and as text; prints the event count. lua:SEED is an interpreter\n"
    "running the same random script on input SEED; threads3:K three threads\n"
    "of N/3 events each, with K edits per thread (0: the good run).\n";

int main(int argc, char **argv)
{
    seq good = { 0 }, bad = { 0 }, th[3] = { { 0 }, { 0 }, { 0 } };
    const seq *out = &bad;
    graph g;
    size_t n, total = 0;
    int nt = 1, i;

    if (argc != 5 || (n = strtoull(argv[1], NULL, 10)) < 16) {
        fputs(usage, stderr);
        return 2;
    }
    make_graph(&g);
    if (strncmp(argv[2], "lua:", 4) == 0) {
        make_lua(&bad, n, strtoull(argv[2] + 4, NULL, 10));
    } else if (strncmp(argv[2], "threads3:", 9) == 0) {
        size_t k = strtoull(argv[2] + 9, NULL, 10);
        for (i = 0; i < 3; i++) {
            seq one = { 0 };
            rng = 0x9E3779B97F4A7C15ull + (uint64_t)i * 0x1234567ull;
            make_good(&g, &one, n / 3);
            if (k)
                make_edits(&one, &th[i], k);
            else
                th[i] = one, one.ev = NULL;
            free(one.ev);
        }
        out = th;
        nt = 3;
    } else {
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
    }
    remove(argv[3]);
    write_trace(out, nt, argv[3]);
    write_text(out, nt, argv[4]);
    for (i = 0; i < nt; i++)
        total += out[i].n;
    printf("%zu\n", total);
    free(good.ev);
    free(bad.ev);
    for (i = 0; i < 3; i++)
        free(th[i].ev);
    return 0;
}
