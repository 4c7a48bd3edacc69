/*
 * clocksim.c - what a sparser clock would cost a profile, simulated on one
 * run (issue 38: fewer than one clock read per call). Reads a trace
 * recorded with TTCAP_CLOCK=every (every ENTER and EXIT timed), decides
 * per event which times a clock policy would have read, places the others
 * between their measured neighbours, and compares each function's total
 * and self time with the every-event truth. The policies:
 *
 *   exits       the default since format 1.4 (every ENTER timed; an EXIT
 *               when its call had 64 events, 8 EXITs in a row went
 *               without, among the thread's first 4096, or a 1-in-32
 *               sample);
 *   after-exit  the same EXITs, and an ENTER goes untimed when the event
 *               before it is an untimed EXIT (a sampled or timed EXIT
 *               times the ENTER after it: that gap is measured);
 *   after-exit+pairs  the same, and 1 in 32 of those ENTERs is
 *               sampled instead, timing the event after it too;
 *   after-untimed  as after-exit, but an ENTER right after an untimed
 *               ENTER goes untimed too (a descent keeps the run going;
 *               the run cap still counts EXITs only: issue 38's chain);
 *   enters K    an ENTER after an untimed EXIT goes untimed while fewer
 *               than K events in a row did;
 *   any K       any hot event goes untimed while fewer than K in a row
 *               did (EXITs of big calls, the warm-up still timed).
 *
 * For "enters" and "any" a sample (1 in 32 candidates) times the event
 * after it too, so that a gap is measured with both ends. The placement
 * is the same for all policies, so they compare with each other: the
 * untimed events between two measured times lo and hi split hi - lo in
 * proportion to the mean gap before each event, per (previous event,
 * event) kind and function. "oracle" takes those means from the
 * every-event truth (the best a reader placing by mean gaps could learn
 * from samples); "learnt" from the gaps the policy itself measured (both
 * ends timed), gaps over 25000 ticks (about 10 us) left out as stalls: a
 * crude learner, not libttfmt's (bench_clock.sh measures libttfmt's
 * estimate of the default policy). CLOCKSIM_SAMPLES=1 learns only from
 * the gaps that start at a sample: unbiased, but fewer, so noisier.
 * Reads per call count every timed ENTER and EXIT (sync and other
 * records left out).
 *
 * usage: clocksim EVERY.trc [MIN_PCT]  ->  per policy and learner: reads
 * per call, functions above MIN_PCT (1) percent of the self time within
 * 5% by total and by self time, the worst of each; CLOCKSIM_ROWS=1 adds
 * each function's errors. Exit 2 when the trace cannot be read or has
 * untimed events.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttfmt.h"

#define BIG_CALL 64
#define UNTIMED_RUN 8
#define SAMPLE_BITS 6
#define WARM 4096
#define EVAT 64
#define STALL_TICKS 25000       /* ~10 us at 2.5 GHz: a learnt gap over it is a stall */

enum { K_ENTER, K_EXIT, K_OTHER };

struct ev {
    uint64_t tsc;
    uint32_t fn;                /* function index; 0 for other records */
    uint8_t kind;
};

struct thr {
    struct ev *e;
    size_t n, cap;
};

static struct thr *thr;
static size_t nthr;
static uint64_t *fnaddr;
static uint32_t nfn, fncap;
static uint32_t *fnhash;        /* open addressing: 1 + index */
static size_t hcap = 1u << 20;

static uint32_t fn_of(uint64_t a)
{
    size_t h = (size_t)((a >> 4) * 0x9E3779B97F4A7C15ull) & (hcap - 1);
    for (;; h = (h + 1) & (hcap - 1)) {
        if (!fnhash[h])
            break;
        if (fnaddr[fnhash[h] - 1] == a)
            return fnhash[h] - 1;
    }
    if (nfn == fncap) {
        fncap = fncap ? 2 * fncap : 1024;
        fnaddr = realloc(fnaddr, fncap * sizeof *fnaddr);
    }
    fnaddr[nfn] = a;
    fnhash[h] = ++nfn;
    return nfn - 1;
}

static void push(uint32_t th, struct ev e)
{
    while (th >= nthr) {
        thr = realloc(thr, (nthr + 1) * sizeof *thr);
        memset(&thr[nthr++], 0, sizeof *thr);
    }
    struct thr *t = &thr[th];
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 4096;
        t->e = realloc(t->e, t->cap * sizeof *t->e);
    }
    t->e[t->n++] = e;
}

/* ---- policies: measured[i] 1 timed, 2 sample ---------------------------- */

struct policy {
    const char *name;
    int mode;                   /* 0 exits, 1 enters K, 2 any K */
    int k;
};

struct wr {
    uint16_t ev, evat[EVAT];
    int since, run;
    uint32_t rng;
    uint8_t skip;
    int warm;
    int depth;
};

static int draw(struct wr *w)
{
    if (--w->skip == 0) {
        w->rng = w->rng * 1664525u + 1013904223u;
        w->skip = (uint8_t)(1 + (w->rng >> (32 - SAMPLE_BITS)));
        return 1;
    }
    return 0;
}

static void decide(const struct policy *p, const struct thr *t, uint8_t *m)
{
    struct wr w;
    memset(&w, 0, sizeof w);
    int force_next = 0;
    for (size_t i = 0; i < t->n; i++) {
        const struct ev *e = &t->e[i];
        int r = 1;
        if (e->kind == K_OTHER) {
            w.ev = (uint16_t)(w.ev + BIG_CALL);
        } else if (e->kind == K_ENTER) {
            w.evat[(uint32_t)w.depth % EVAT] = w.ev++;
            w.depth++;
            int cand = 0;
            if (p->mode == 1)
                cand = w.run > 0 && w.run < p->k && i > 0 && t->e[i - 1].kind == K_EXIT && !m[i - 1];
            else if (p->mode == 2)
                cand = w.run < p->k && w.warm >= WARM;
            else if (p->mode == 5)  /* after-untimed: an untimed ENTER too */
                cand = i > 0 && t->e[i - 1].kind != K_OTHER && !m[i - 1] && w.warm >= WARM;
            else if (p->mode >= 3)
                cand = i > 0 && t->e[i - 1].kind == K_EXIT && !m[i - 1] && w.warm >= WARM;
            if (p->mode == 4 && cand && draw(&w)) {
                m[i] = 2;       /* a sampled ENTER: its next event is timed too */
                w.since = 0;
                w.run = 0;
                force_next = 1;
                continue;
            }
            if (p->mode >= 3) {
                m[i] = cand && !force_next ? 0 : 1;
                force_next = 0;
                if (m[i])
                    w.since = 0;
                w.run = m[i] ? 0 : w.run + 1;
                continue;
            }
            if (cand && !force_next)
                r = draw(&w) ? 2 : 0;
        } else {
            uint16_t n = (uint16_t)(w.ev++ - w.evat[(uint32_t)(w.depth - 1) % EVAT]);
            w.depth--;
            int lim = p->mode == 0 || p->mode >= 3 ? UNTIMED_RUN : p->k;
            int cnt = p->mode == 0 || p->mode >= 3 ? w.since : w.run;
            if (n >= BIG_CALL || cnt >= lim || w.warm < WARM) {
                if (w.warm < WARM)
                    w.warm++;
                r = 1;
            } else if (force_next) {
                r = 1;
            } else {
                r = draw(&w) ? 2 : 0;
            }
        }
        force_next = 0;
        if (r == 2 && (p->mode == 1 || p->mode == 2))
            force_next = 1;     /* a sample times the next event too: a gap */
        m[i] = (uint8_t)r;
        if (r) {
            w.since = 0;
            w.run = 0;
        } else {
            w.run++;
            if (e->kind == K_EXIT)
                w.since++;
        }
    }
}

/* ---- placement ------------------------------------------------------------ */

static uint32_t key(const struct ev *e)
{
    return e->fn * 3u + e->kind;
}

/* mean gap per (key before, key) pair: a hash of pairs */
struct gap {
    uint64_t pk;
    double sum;
    uint64_t n;
};
static struct gap *gaps;
static size_t gcap = 1u << 22;
static double *kmean_sum;
static uint64_t *kmean_n;
static double gmean_sum;
static uint64_t gmean_n;

static struct gap *gap_at(uint64_t pk, int add)
{
    size_t h = (size_t)((pk + 1) * 0x9E3779B97F4A7C15ull >> 20) & (gcap - 1);
    for (;; h = (h + 1) & (gcap - 1)) {
        if (gaps[h].pk == pk + 1)
            return &gaps[h];
        if (!gaps[h].pk) {
            if (!add)
                return NULL;
            gaps[h].pk = pk + 1;
            return &gaps[h];
        }
    }
}

static void learn_reset(void)
{
    memset(gaps, 0, gcap * sizeof *gaps);
    memset(kmean_sum, 0, 3 * (size_t)nfn * sizeof *kmean_sum);
    memset(kmean_n, 0, 3 * (size_t)nfn * sizeof *kmean_n);
    gmean_sum = 0;
    gmean_n = 0;
}

static void learn(const struct ev *a, const struct ev *b)
{
    uint64_t d = b->tsc - a->tsc;
    uint64_t pk = (uint64_t)key(a) << 32 | key(b);
    struct gap *g = gap_at(pk, 1);
    g->sum += (double)d;
    g->n++;
    kmean_sum[key(b)] += (double)d;
    kmean_n[key(b)]++;
    gmean_sum += (double)d;
    gmean_n++;
}

static double weight(const struct ev *a, const struct ev *b)
{
    struct gap *g = gap_at((uint64_t)key(a) << 32 | key(b), 0);
    if (g && g->n)
        return g->sum / (double)g->n + 1e-3;
    if (kmean_n[key(b)])
        return kmean_sum[key(b)] / (double)kmean_n[key(b)] + 1e-3;
    return gmean_n ? gmean_sum / (double)gmean_n + 1e-3 : 1;
}

/* est[i] for every event: measured ones keep their tsc */
static void place(const struct thr *t, const uint8_t *m, double *est)
{
    size_t last = 0;
    int have = 0;
    for (size_t i = 0; i <= t->n; i++) {
        if (i < t->n && !m[i])
            continue;
        if (i < t->n)
            est[i] = (double)t->e[i].tsc;
        if (!have) {            /* untimed before the first measured: none */
            for (size_t j = 0; j < i && j < t->n; j++)
                est[j] = (double)t->e[i < t->n ? i : 0].tsc;
            have = 1;
            last = i;
            continue;
        }
        size_t n = i - last - 1;
        if (n) {
            double lo = (double)t->e[last].tsc;
            double hi = i < t->n ? (double)t->e[i].tsc : lo;
            double tot = 0, w[4096];
            double *ws = n + 1 <= 4096 ? w : malloc((n + 1) * sizeof *ws);
            for (size_t j = 0; j <= n; j++) {
                size_t b = last + 1 + j;
                ws[j] = b < t->n ? weight(&t->e[b - 1], &t->e[b]) : 0;
                tot += ws[j];
            }
            double acc = 0;
            for (size_t j = 0; j < n; j++) {
                acc += ws[j];
                est[last + 1 + j] = lo + (tot > 0 ? acc / tot : 0) * (hi - lo);
            }
            if (ws != w)
                free(ws);
        }
        last = i;
    }
}

/* ---- profiles ------------------------------------------------------------ */

static void profile(const struct thr *t, const double *tm, double *tot, double *self)
{
    static size_t *stk;
    static double *child;
    static size_t scap;
    size_t sp = 0;
    for (size_t i = 0; i < t->n; i++) {
        const struct ev *e = &t->e[i];
        if (e->kind == K_ENTER) {
            if (sp == scap) {
                scap = scap ? 2 * scap : 1024;
                stk = realloc(stk, scap * sizeof *stk);
                child = realloc(child, scap * sizeof *child);
            }
            stk[sp] = i;
            child[sp++] = 0;
        } else if (e->kind == K_EXIT && sp) {
            size_t o = stk[--sp];
            double d = tm[i] - tm[o];
            if (t->e[o].fn == e->fn) {
                tot[e->fn] += d;
                self[e->fn] += d - child[sp];
            }
            if (sp)
                child[sp - 1] += d;
        }
    }
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: clocksim EVERY.trc [MIN_PCT]\n");
        return 2;
    }
    double minpct = argc > 2 ? atof(argv[2]) : 1;
    ttf_trace *tr;
    ttf_error err;
    if (ttf_open(argv[1], &tr, &err) != 0) {
        fprintf(stderr, "clocksim: cannot open %s\n", argv[1]);
        return 2;
    }
    fnhash = calloc(hcap, sizeof *fnhash);
    fn_of(0);
    for (size_t th = 0; th < ttf_thread_count(tr); th++) {
        ttf_iter *it;
        if (ttf_iter_open(tr, (uint32_t)th, &it) != 0)
            continue;
        ttf_event e;
        while (ttf_iter_next(it, &e) == 1) {
            struct ev x = { e.tsc, 0, K_OTHER };
            if (e.untimed) {
                fprintf(stderr, "clocksim: record with TTCAP_CLOCK=every\n");
                return 2;
            }
            if (e.kind == TTF_EV_ENTER || e.kind == TTF_EV_EXIT) {
                x.kind = e.kind == TTF_EV_ENTER ? K_ENTER : K_EXIT;
                x.fn = fn_of(e.addr);
            } else if (e.kind == TTF_EV_MESSAGE || e.kind == TTF_EV_MARK ||
                       e.kind == TTF_EV_THREAD_NAME) {
                continue;
            }
            push((uint32_t)th, x);
        }
        ttf_iter_close(it);
    }
    gaps = calloc(gcap, sizeof *gaps);
    kmean_sum = calloc(3 * (size_t)nfn, sizeof *kmean_sum);
    kmean_n = calloc(3 * (size_t)nfn, sizeof *kmean_n);
    double *ttot = calloc(nfn, sizeof(double)), *tself = calloc(nfn, sizeof(double));
    double *etot = calloc(nfn, sizeof(double)), *eself = calloc(nfn, sizeof(double));
    size_t maxn = 0, nev = 0, ncalls = 0;
    for (size_t th = 0; th < nthr; th++) {
        maxn = thr[th].n > maxn ? thr[th].n : maxn;
        nev += thr[th].n;
        for (size_t i = 0; i < thr[th].n; i++)
            ncalls += thr[th].e[i].kind == K_ENTER;
    }
    double *tm = malloc(maxn * sizeof *tm), *est = malloc(maxn * sizeof *est);
    uint8_t *m = malloc(maxn);
    for (size_t th = 0; th < nthr; th++) {
        for (size_t i = 0; i < thr[th].n; i++)
            tm[i] = (double)thr[th].e[i].tsc;
        profile(&thr[th], tm, ttot, tself);
    }
    double selfsum = 0;
    for (uint32_t f = 0; f < nfn; f++)
        selfsum += tself[f];
    printf("events %zu, calls %zu, functions %u, threads %zu\n", nev, ncalls, nfn - 1, nthr);

    struct policy pol[] = {
        { "exits (default 1.4)", 0, 0 }, { "after-exit", 3, 0 }, { "after-exit+pairs", 4, 0 },
        { "after-untimed", 5, 0 },
        { "enters K=4", 1, 4 }, { "enters K=8", 1, 8 },
        { "any K=3", 2, 3 }, { "any K=4", 2, 4 }, { "any K=7", 2, 7 },
    };
    uint8_t first = getenv("CLOCKSIM_SAMPLES") ? 2 : 1;   /* learn from samples only */
    for (size_t pi = 0; pi < sizeof pol / sizeof *pol; pi++) {
        for (int how = 0; how < 2; how++) {
            uint64_t reads = 0, hot = 0;
            memset(etot, 0, nfn * sizeof(double));
            memset(eself, 0, nfn * sizeof(double));
            learn_reset();
            /* learn: oracle from every gap, else the policy's measured pairs */
            for (size_t th = 0; th < nthr; th++) {
                struct thr *t = &thr[th];
                decide(&pol[pi], t, m);
                for (size_t i = 1; i < t->n; i++) {
                    if (how == 0 || (m[i] && m[i - 1] >= first && t->e[i].tsc - t->e[i - 1].tsc < STALL_TICKS))
                        learn(&t->e[i - 1], &t->e[i]);
                }
            }
            for (size_t th = 0; th < nthr; th++) {
                struct thr *t = &thr[th];
                decide(&pol[pi], t, m);
                for (size_t i = 0; i < t->n; i++) {
                    if (t->e[i].kind != K_OTHER) {
                        hot++;
                        reads += m[i] != 0;
                    }
                }
                place(t, m, est);
                profile(t, est, etot, eself);
            }
            int nf = 0, okt = 0, oks = 0;
            double wt = 0, ws = 0;
            for (uint32_t f = 1; f < nfn; f++) {
                if (100 * tself[f] / selfsum < minpct)
                    continue;
                double et = 100 * (etot[f] - ttot[f]) / ttot[f];
                double es = 100 * (eself[f] - tself[f]) / tself[f];
                nf++;
                okt += fabs(et) <= 5;
                oks += fabs(es) <= 5;
                wt = fabs(et) > wt ? fabs(et) : wt;
                ws = fabs(es) > ws ? fabs(es) : ws;
            }
            printf("%-20s %-6s reads/call %.3f  within 5%%: total %d/%d self %d/%d  worst total %.1f%% self %.1f%%\n",
                   pol[pi].name, how ? "learnt" : "oracle", 2.0 * (double)reads / (double)hot, okt, nf,
                   oks, nf, wt, ws);
            if (getenv("CLOCKSIM_ROWS")) {
                for (uint32_t f = 1; f < nfn; f++) {
                    if (100 * tself[f] / selfsum < minpct)
                        continue;
                    printf("    %#14llx self %5.2f%% total err %+6.1f%% self err %+6.1f%%\n",
                           (unsigned long long)fnaddr[f], 100 * tself[f] / selfsum,
                           100 * (etot[f] - ttot[f]) / ttot[f], 100 * (eself[f] - tself[f]) / tself[f]);
                }
            }
            fflush(stdout);
        }
    }
    return 0;
}
