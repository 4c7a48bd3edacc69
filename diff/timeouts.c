/*
 * timeouts.c - a differing value that was only a timeout that never
 * expired decided nothing: nondeterministic, not a cause.
 *
 * Design. An event loop computes how long it may wait from a clock (a
 * timer's remaining milliseconds: libuv's uv__next_timeout returned 2997
 * in one run and 2988 in the other) and passes it down as the timeout of
 * an I/O wait (epoll_wait). When that wait was woken by what it waited
 * for before the timeout ran out, in both runs, the value changed nothing
 * the runs did: it is noise, though it does not look like a clock. The
 * proof is read from the trace, never from names:
 * - the sink: a call that received the value as an argument and, between
 *   its ENTER and EXIT, recorded an I/O wait (SLEEP sync op) whose asked
 *   time is that value (in s, ms, us or ns) in each run, and every such
 *   wait ended before its timeout in both runs (blocked < asked: the next
 *   record of the thread came earlier);
 * - every other place the replay saw the same pair of values (good, bad)
 *   is a step towards a sink: an argument passed further down (a call
 *   below it that holds the value too), a return value passed on by its
 *   caller (returned up again, or given to a later call of the same
 *   caller with no parted calls in between: a branch on it would have
 *   parted them), or an argument of a call after the sink began when no
 *   call parts from there on (libev hands the timeout it waited for to
 *   time_update, which checks for a time jump with it: whatever it did
 *   there decided no call).
 * A value that is also used otherwise (returned to a caller that passes
 * it nowhere, given to a call that does not wait on it before the sink,
 * or after it when calls part later), whose wait ran
 * to its timeout in one run only (the timer decided: a lost wake-up made
 * good by a timeout is the bug class), or that no wait record links stays
 * a divergence. The hidden values are counted apart from the clocks
 * (ttdi_replay.timeouts) with the first one's evidence, for the verdict's
 * "not counted as a divergence because a timeout never expired".
 * The time left to one deadline. A timer loop's waits run to their
 * timeouts in both runs, and the timeouts still differ (libuv's
 * uv__next_timeout returned 10 ms in one run, 9 in the other: its loop
 * time, uv__hrtime's ns cut to ms, passed a millisecond between the
 * timer's start and the wait in one run only). Such a value is hidden
 * too (TTDI_NOISE_DEADLINE, counted in ttdi_replay.deadlines) when
 * - its sinks' waits ran to their timeouts in both runs, in one unit;
 * - the replay saw the thread read a clock (a result that differed as
 *   TTDI_NOISE_CLOCK: it grew from call to call, is named like a clock or
 *   lies near each run's CLOCK_MONOTONIC; the last TTDI_CLOCKS kept,
 *   replay.c) before the sink, and for the last such reading b and an
 *   earlier one a, the elapsed time E = b - a in the timeout's unit (each
 *   reading cut to it first, or their difference cut) gives vg - vb ==
 *   Eb - Eg exactly: timeout = deadline - now, one deadline. The clock's
 *   own unit (ns, us, ms, s) is the one whose elapsed times agree with
 *   the trace's times between the two readings in both runs (within half
 *   of them, one clock step and CLOCK_SLACK_NS): a number that only
 *   happens to line up in some unit is not a clock's;
 * - no call parts from the sink on (a hunk after it would be a branch that
 *   the value, or the wait's end, decided: the value stays on the chain).
 * The same proof holds for doubles (an event loop that keeps time in
 * floating seconds: libev's ev_tstamp, libev-skipcheck's identical runs):
 * a double timeout is a wait's asked time within a millisecond (the
 * coarsest wait call's step; libev rounds up to whole ms), in s or ms;
 * the clock is a double result taken as a time (vrules.c
 * ttdi_float_time_like), in s or ms as the trace's times agree; and
 * vg - vb == Eb - Eg holds within the doubles' rounding (four units in
 * the last place of the numbers involved, in ns), not exactly.
 * A double timeout rounded away. A double is cut to the wait's step on
 * its way down (libev: EV_TS_TO_MSEC, whole ms, 0.019844 and 0.019895 s
 * both 20 ms; its clock read inside time_update, inlined, so no reading
 * for the deadline proof). When every wait inside the sink asked the same
 * time in both runs (as many waits, each the same ns, each within a
 * millisecond of its run's value) and no call parts from the sink on,
 * the difference never reached the system: hidden too
 * (TTDI_NOISE_ROUNDED, ttdi_replay.rounded: "a timeout its wait took as
 * the same time in both runs"), whether the waits were woken or not.
 * A timeout that differs otherwise (a wrong unit, a computation that
 * changed), a wait woken early in one run, or calls that part later stay a
 * divergence.
 * Cost: no pass of its own. The replay's walk hands every record of each
 * side to ttdi_waits_see (replay.c), which keeps its I/O waits (at most TTDI_WAITS,
 * the first ones). The walk stops at the split, but a sink is a call that
 * returned before it, so every wait inside a sink and the record after it
 * were read (a raw pass over each whole thread found the same waits).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"

#define OCCS 256                /* value occurrences judged per pair */
#define CLOCK_SLACK_NS 100000u  /* a clock reading's time in the trace may be
                                   an estimate (lazy clock: FORMAT.md 4.5) */

typedef ttdi_wait wait_rec;

/* How a sink's waits show the value decided nothing. */
enum { SINK_EARLY = 1, SINK_DEADLINE, SINK_ROUNDED };

/* One place a differing integer or double value was seen: node,
 * argument k (-1: the return value), the values (good, bad) as its type
 * reads them (a double: its raw bits in v, its value in d). */
typedef struct occ {
    int32_t node;
    int k;
    int64_t v[2];
    double d[2];
    uint8_t fl;                 /* a double */
    uint8_t sink, acc;          /* sink: SINK_* (0 none); accounted for */
    const wait_rec *w[2];       /* sink: the waits it timed */
    const ttdi_clockread *cb;   /* SINK_DEADLINE: the clock's last reading
                                   before the wait */
    uint64_t e[2];              /* ... the elapsed time it showed since an
                                   earlier reading, good and bad, in unit
                                   (a double clock: in ns) */
    uint64_t unit, cunit;       /* ... the timeout's unit, the clock's (ns) */
} occ;

typedef struct tctx {
    ttdi_replay *rp;
    const wait_rec *w[2];       /* the replay's waits of each side */
    size_t nw[2];
    occ o[OCCS];
    size_t no;
} tctx;

static int is_int(const ttf_vtype *ty)
{
    return ty && (ty->cls == TTF_VC_SIGNED || ty->cls == TTF_VC_UNSIGNED);
}

static int is_double(const ttf_vtype *ty)
{
    return ty && ty->cls == TTF_VC_FLOAT && ty->size == 8;
}

static double as_double(uint64_t raw)
{
    double d;
    memcpy(&d, &raw, sizeof d);
    return d;
}

static int64_t as_int(uint64_t raw, const ttf_vtype *ty)
{
    return (int64_t)ttf_value_norm(raw, ty);
}

static void add_occ(tctx *c, int32_t node, int k, const ttf_vtype *ty, uint64_t g, uint64_t b)
{
    int fl = is_double(ty);
    if (c->no >= OCCS || (!is_int(ty) && !fl))
        return;
    occ *o = &c->o[c->no++];
    memset(o, 0, sizeof *o);
    o->node = node;
    o->k = k;
    o->fl = (uint8_t)fl;
    o->v[0] = fl ? (int64_t)g : as_int(g, ty);
    o->v[1] = fl ? (int64_t)b : as_int(b, ty);
    o->d[0] = fl ? as_double(g) : 0;
    o->d[1] = fl ? as_double(b) : 0;
}

/* The differing integer and double values of the replay that count (not
 * noise). */
static void collect(tctx *c)
{
    ttdi_replay *rp = c->rp;

    for (size_t i = 1; i < rp->n; i++) {
        const ttdi_xcall *x = &rp->c[i];
        if (!x->sig)
            continue;
        if (x->returned && x->retdiff && !ttdi_replay_retnoise(rp, x))
            add_occ(c, (int32_t)i, -1, &x->sig->ret, x->ret[0], x->ret[1]);
        for (size_t k = 0; k < x->sig->nparams && k < TTDI_MAXP; k++) {
            const ttf_param *p = &x->sig->params[k];
            if ((x->argdiff >> k & 1) && p->reg >= 0)
                add_occ(c, (int32_t)i, (int)k, &p->type, x->args[0][p->reg],
                        x->args[1][p->reg]);
        }
    }
    if (c->no >= OCCS)
        c->no = 0;      /* too many to judge them all: judge none */
}

static const uint64_t units[] = {1000000000ull, 1000000ull, 1000ull, 1ull}; /* s ms us ns */

/* The unit (ns: of s, ms, us or ns) in which asked (ns) is the timeout v;
 * 0 if in none. */
static uint64_t asked_is(uint64_t asked, int64_t v)
{
    if (v <= 0 || asked == UINT64_MAX)
        return 0;
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++)
        if ((uint64_t)v <= UINT64_MAX / units[u] && (uint64_t)v * units[u] == asked)
            return units[u];
    return 0;
}

/* The same for a double timeout d (s or ms): the wait's system call takes
 * whole milliseconds at the coarsest (poll, epoll_wait; libev's
 * EV_TS_TO_MSEC rounds 0.01983 s up to 20 ms), so asked lies within one
 * of d's time. */
static uint64_t asked_is_f(uint64_t asked, double d)
{
    if (!(d > 0) || asked == UINT64_MAX)
        return 0;
    for (size_t u = 0; u < 2; u++) {
        double x = d * (double)units[u];
        if (x < 1.8e19 && fabs((double)asked - x) <= 1e6)
            return units[u];
    }
    return 0;
}

/* The unit in which asked is o's value in run r (asked_is, asked_is_f). */
static uint64_t asked_of(const occ *o, int r, uint64_t asked)
{
    return o->fl ? asked_is_f(asked, o->d[r]) : asked_is(asked, o->v[r]);
}

/* Run r's waits inside (lo, hi) timed by o's value: the first into
 * *first; 1 when there is one and each ended before its timeout, else 0. */
static int woken_early(const tctx *c, int r, uint64_t lo, uint64_t hi, const occ *o,
                       const wait_rec **first)
{
    size_t n = 0;

    for (size_t i = 0; i < c->nw[r]; i++) {
        const wait_rec *w = &c->w[r][i];
        if (w->t <= lo || w->t >= hi || !asked_of(o, r, w->asked))
            continue;
        if (w->blocked >= w->asked)
            return 0;   /* it ran to its timeout: the value decided */
        if (!n++)
            *first = w;
    }
    return n > 0;
}

/* Run r's waits inside (lo, hi) timed by o's value: the first into
 * *first; their unit (ns) when there is one and each ran to its timeout,
 * else 0. */
static uint64_t expired(const tctx *c, int r, uint64_t lo, uint64_t hi, const occ *o,
                        const wait_rec **first)
{
    uint64_t unit = 0;

    for (size_t i = 0; i < c->nw[r]; i++) {
        const wait_rec *w = &c->w[r][i];
        uint64_t u = w->t > lo && w->t < hi ? asked_of(o, r, w->asked) : 0;
        if (!u)
            continue;
        if (w->blocked == UINT64_MAX || w->blocked < w->asked)
            return 0;   /* woken early (or not known): not one deadline */
        if (!unit)
            *first = w;
        unit = u;
    }
    return unit;
}

/* Elapsed time between clock readings a and b of run r in steps of d:
 * each truncated to d first (form 0: a millisecond clock made from a
 * nanosecond one, libuv's loop time), or their difference (form 1); 0 and
 * *ok 0 when the clock went back. */
static uint64_t elapsed(const ttdi_clockread *a, const ttdi_clockread *b, int r, uint64_t d,
                        int form, int *ok)
{
    *ok = b->v[r] >= a->v[r];
    if (!*ok)
        return 0;
    return form ? (b->v[r] - a->v[r]) / d : b->v[r] / d - a->v[r] / d;
}

/* Does the clock read in cunit (ns) agree with the trace's own times
 * between readings a and b in run r: what it showed within half the time
 * the trace shows, one of its steps and CLOCK_SLACK_NS? (A clock in us
 * read as one in ns would show a thousandth of it.) */
static int clock_agrees(const ttdi_clockread *a, const ttdi_clockread *b, int r, uint64_t cunit)
{
    if (b->v[r] < a->v[r] || b->t[r] < a->t[r] ||
        (b->v[r] - a->v[r]) > UINT64_MAX / cunit)
        return 0;
    uint64_t shown = (b->v[r] - a->v[r]) * cunit, trace = b->t[r] - a->t[r];
    uint64_t off = shown > trace ? shown - trace : trace - shown;
    return off <= trace / 2 + cunit + CLOCK_SLACK_NS;
}

/* Run r's first wait from index i on inside (lo, hi) timed by o's
 * value; c->nw[r] if none. */
static size_t next_wait(const tctx *c, int r, size_t i, uint64_t lo, uint64_t hi, const occ *o)
{
    while (i < c->nw[r] && (c->w[r][i].t <= lo || c->w[r][i].t >= hi ||
                            !asked_of(o, r, c->w[r][i].asked)))
        i++;
    return i;
}

/* Did the waits inside the sink timed by the double o ask the same times
 * in both runs (as many, each the same ns: the wait's step rounded the
 * difference away, libev's EV_TS_TO_MSEC)? The first of each into o->w.
 * x: the sink's call. */
static int same_asked(const tctx *c, const ttdi_xcall *x, occ *o)
{
    size_t i[2] = {0, 0}, n = 0;

    for (;;) {
        i[0] = next_wait(c, 0, i[0], x->gtime_ns, x->gexit_ns, o);
        i[1] = next_wait(c, 1, i[1], x->time_ns, x->exit_ns, o);
        int end0 = i[0] == c->nw[0], end1 = i[1] == c->nw[1];
        if (end0 || end1)
            return end0 && end1 && n > 0;
        if (c->w[0][i[0]].asked != c->w[1][i[1]].asked)
            return 0;
        if (!n++) {
            o->w[0] = &c->w[0][i[0]];
            o->w[1] = &c->w[1][i[1]];
        }
        i[0]++;
        i[1]++;
    }
}

/* Do readings a and b, in a clock of cunit ns, show elapsed times Eg, Eb
 * in steps of unit ns (either form) with vg - vb == Eb - Eg? Into o. */
static int one_deadline(const ttdi_clockread *a, const ttdi_clockread *b, uint64_t cunit,
                        uint64_t unit, int64_t vg, int64_t vb, occ *o)
{
    if (a->fl || b->fl || cunit > unit || unit % cunit || !clock_agrees(a, b, 0, cunit) ||
        !clock_agrees(a, b, 1, cunit))
        return 0;   /* a clock coarser than the timeout, or not in that unit */
    for (int form = 0; form < 2; form++) {
        int okg, okb;
        uint64_t eg = elapsed(a, b, 0, unit / cunit, form, &okg);
        uint64_t eb = elapsed(a, b, 1, unit / cunit, form, &okb);
        if (!okg || !okb || eg == eb || (int64_t)(eb - eg) != vg - vb)
            continue;
        o->cb = b;
        o->e[0] = eg;
        o->e[1] = eb;
        o->cunit = cunit;
        return 1;
    }
    return 0;
}

/* The same for a double clock (in s or ms: cunit ns) and a double timeout
 * (o->d, in unit ns), as an event loop in floating seconds computes it
 * (libev: the timer's `at` - get_clock()): the clock agrees with the
 * trace as above, and vg - vb == Eb - Eg within the doubles' rounding (a
 * few units in the last place of each number, in ns), the elapsed times
 * differing by more than that. */
static int one_deadline_f(const ttdi_clockread *a, const ttdi_clockread *b, uint64_t cunit,
                          uint64_t unit, occ *o)
{
    double x[2][2] = {{as_double(a->v[0]), as_double(b->v[0])},
                      {as_double(a->v[1]), as_double(b->v[1])}};
    double cu = (double)cunit, e[2];
    double mag = (fabs(x[0][0]) + fabs(x[0][1]) + fabs(x[1][0]) + fabs(x[1][1])) * cu +
                 (fabs(o->d[0]) + fabs(o->d[1])) * (double)unit;
    double tol = 4 * DBL_EPSILON * mag + 1;

    if (!a->fl || !b->fl)
        return 0;
    for (int r = 0; r < 2; r++) {
        e[r] = (x[r][1] - x[r][0]) * cu;
        double trace = (double)b->t[r] - (double)a->t[r];
        if (!(e[r] >= 0) || trace < 0 ||
            fabs(e[r] - trace) > trace / 2 + CLOCK_SLACK_NS)
            return 0;   /* not this clock, or not in this unit */
    }
    double dv = (o->d[0] - o->d[1]) * (double)unit;
    if (fabs(e[1] - e[0]) <= tol || fabs((e[1] - e[0]) - dv) > tol)
        return 0;
    o->cb = b;
    o->e[0] = (uint64_t)e[0];
    o->e[1] = (uint64_t)e[1];
    o->cunit = cunit;
    return 1;
}

/* Do vg and vb (the timeout in the good and the bad run, in steps of unit
 * ns) differ by what the runs' clocks say, the other way round: vg - vb
 * == Eb - Eg, E the elapsed time, in that unit, between an earlier reading
 * and the last one before bad key index at, both of the timeout's kind
 * (integers, or doubles: a double clock's readings in the ring do not
 * stand in for an integer one's) (the clock read in ns, us, ms
 * or s: the unit whose elapsed times agree with the trace's)? Then each
 * run waited for the time left to one deadline fixed at the earlier
 * reading. The evidence into o. */
static int by_clock(const tctx *c, uint64_t unit, uint64_t at, occ *o)
{
    const ttdi_replay *rp = c->rp;
    size_t n = rp->nclk, lo = n > TTDI_CLOCKS ? n - TTDI_CLOCKS : 0, j = n;

    while (j > lo && (rp->clk[(j - 1) % TTDI_CLOCKS].idx >= at ||
                      rp->clk[(j - 1) % TTDI_CLOCKS].fl != o->fl))
        j--;            /* the last reading before it, of the timeout's kind */
    if (j-- <= lo)
        return 0;
    const ttdi_clockread *b = &rp->clk[j % TTDI_CLOCKS];
    for (size_t i = lo; i < j; i++) {
        const ttdi_clockread *a = &rp->clk[i % TTDI_CLOCKS];
        for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
            int one = o->fl ? u < 2 && one_deadline_f(a, b, units[u], unit, o)
                            : one_deadline(a, b, units[u], unit, o->v[0], o->v[1], o);
            if (one)
                return 1;
        }
    }
    return 0;
}

/* Did the calls part (a hunk begins) after bad key index lo or good key
 * index glo? */
static int parts_after(const ttdi_replay *rp, uint64_t lo, uint64_t glo)
{
    for (size_t i = 0; i < rp->nh; i++)
        if (rp->h[i].b0 >= lo || rp->h[i].a0 >= glo)
            return 1;
    return 0;
}

/* Occurrence o an argument that timed a wait woken early in both runs
 * (SINK_EARLY), or waits that ran to their timeouts in both, the values
 * differing by the runs' clocks (one deadline), and no call parts from
 * there on (SINK_DEADLINE), or a double whose waits asked the same times
 * in both runs, no call parting from there on (SINK_ROUNDED)? 0 if none. */
static int sink(tctx *c, occ *o)
{
    const ttdi_xcall *x = &c->rp->c[o->node];

    if (o->k < 0 || !x->returned)
        return 0;
    if (woken_early(c, 0, x->gtime_ns, x->gexit_ns, o, &o->w[0]) &&
        woken_early(c, 1, x->time_ns, x->exit_ns, o, &o->w[1]))
        return SINK_EARLY;
    if (parts_after(c->rp, x->enter[1], x->enter[0]))
        return 0;
    uint64_t ug = expired(c, 0, x->gtime_ns, x->gexit_ns, o, &o->w[0]);
    uint64_t ub = expired(c, 1, x->time_ns, x->exit_ns, o, &o->w[1]);
    o->unit = ub;
    if (ug && ug == ub && by_clock(c, ub, x->enter[1], o))
        return SINK_DEADLINE;
    return o->fl && same_asked(c, x, o) ? SINK_ROUNDED : 0;
}

static int same(const occ *a, const occ *b)
{
    return a->fl == b->fl && a->v[0] == b->v[0] && a->v[1] == b->v[1];
}

/* Is node d below node a? */
static int below(const ttdi_replay *rp, int32_t d, int32_t a)
{
    for (int n = 0; d > 0 && n < 100000; n++) {
        d = rp->c[d].parent;
        if (d == a)
            return 1;
    }
    return 0;
}

/* Did the calls part (a hunk begins) between bad key indexes lo and hi,
 * or good ones glo and ghi? */
static int parted(const ttdi_replay *rp, uint64_t lo, uint64_t hi, uint64_t glo, uint64_t ghi)
{
    for (size_t i = 0; i < rp->nh; i++)
        if ((rp->h[i].b0 > lo && rp->h[i].b0 < hi) || (rp->h[i].a0 > glo && rp->h[i].a0 < ghi))
            return 1;
    return 0;
}

/* Is o's value, seen as accounted elsewhere by p, passed on to p? */
static int passed_to(const tctx *c, const occ *o, const occ *p)
{
    const ttdi_replay *rp = c->rp;
    const ttdi_xcall *x = &rp->c[o->node], *y = &rp->c[p->node];

    if (o->k >= 0)
        return p->node != o->node && below(rp, p->node, o->node);  /* passed down */
    if (p->k < 0)
        return x->parent > 0 && p->node == x->parent;              /* returned up again */
    return y->parent == x->parent && y->enter[1] > x->exit_idx &&
           y->enter[0] > x->gexit_idx &&
           !parted(rp, x->exit_idx, y->enter[1], x->gexit_idx, y->enter[0]);
}

/* Was o's value given to a call after sink s began, in both runs, with
 * no call parting from there on? What the value did there decided no
 * call. (A return is not: it hands the value up to a caller that may
 * keep it.) */
static int after_sink(const tctx *c, const occ *o, const occ *s)
{
    const ttdi_xcall *x = &c->rp->c[o->node], *y = &c->rp->c[s->node];

    return s->sink && o->k >= 0 && x->enter[1] > y->enter[1] && x->enter[0] > y->enter[0] &&
           !parts_after(c->rp, y->enter[1], y->enter[0]);
}

/* Mark occurrences accounted for until nothing changes. */
static void account(tctx *c)
{
    for (size_t i = 0; i < c->no; i++)
        c->o[i].acc = (c->o[i].sink = (uint8_t)sink(c, &c->o[i])) != 0;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < c->no; i++)
            for (size_t j = 0; j < c->no && !c->o[i].acc; j++)
                if (c->o[j].acc && same(&c->o[i], &c->o[j]) &&
                    (passed_to(c, &c->o[i], &c->o[j]) || after_sink(c, &c->o[i], &c->o[j])))
                    changed = c->o[i].acc = 1;
    }
}

static const char *name_of(const tctx *c, int32_t node)
{
    const ttdi_xcall *x = &c->rp->c[node];
    const char *f = ttdi_norm_func_at(c->rp->norm[1], x->addr, 0, x->time_ns);
    return f ? f : "?";
}

/* "`f` returned B in the bad run, G in the good run" (or "was called
 * with") for o, into buf. */
static void from_text(const tctx *c, const occ *o, char *buf, size_t n)
{
    char v[2][32];

    for (int r = 0; r < 2; r++) {
        if (o->fl)
            snprintf(v[r], sizeof v[r], "%.9g", o->d[r]);
        else
            snprintf(v[r], sizeof v[r], "%lld", (long long)o->v[r]);
    }
    snprintf(buf, n, "`%s` %s %s in the bad run, %s in the good run", name_of(c, o->node),
             o->k < 0 ? "returned" : "was called with", v[1], v[0]);
}

/* The evidence of the first hidden value, with its sink s. */
static void evidence(tctx *c, const occ *first, const occ *s)
{
    const ttdi_xcall *y = &c->rp->c[s->node];
    const ttf_param *p = &y->sig->params[s->k];
    char from[160];
    int named = p->name && p->name[0];

    from_text(c, first, from, sizeof from);
    snprintf(c->rp->tmo_text, sizeof c->rp->tmo_text,
             "%s, used only as the timeout of an I/O wait in `%s` (argument %d%s%s%s): the wait "
             "was woken after %.3f ms of %.0f in the bad run, %.3f ms of %.0f in the good run",
             from, name_of(c, s->node), s->k + 1, named ? ", " : "", named ? p->name : "", "", (double)s->w[1]->blocked / 1e6, (double)s->w[1]->asked / 1e6,
             (double)s->w[0]->blocked / 1e6, (double)s->w[0]->asked / 1e6);
}

static const char *unit_name(uint64_t u)
{
    return u == 1 ? "ns" : u == 1000 ? "us" : u == 1000000 ? "ms" : "s";
}

/* The evidence of the first value hidden as the time left to a deadline,
 * with its sink s. */
static void dl_evidence(tctx *c, const occ *first, const occ *s)
{
    const ttdi_xcall *y = &c->rp->c[s->node];
    const ttf_param *p = &y->sig->params[s->k];
    const char *clk = ttdi_norm_func_at(c->rp->norm[1], s->cb->addr, 0, s->cb->time_ns);
    char from[160];
    int named = p->name && p->name[0];

    from_text(c, first, from, sizeof from);
    if (s->fl) {
        snprintf(c->rp->dl_text, sizeof c->rp->dl_text,
                 "%s, used only as the timeout of an I/O wait in `%s` (argument %d%s%s) that "
                 "ran to it in both runs (%.3f ms of %.3f in the bad run, %.3f ms of %.3f in "
                 "the good run); the clock `%s` (read in %s, a double) moved on %.3f ms "
                 "between two readings before it in the bad run, %.3f in the good run: the "
                 "time left to one deadline", from, name_of(c, s->node), s->k + 1,
                 named ? ", " : "", named ? p->name : "", (double)s->w[1]->blocked / 1e6,
                 (double)s->w[1]->asked / 1e6, (double)s->w[0]->blocked / 1e6,
                 (double)s->w[0]->asked / 1e6, clk ? clk : "?", unit_name(s->cunit),
                 (double)s->e[1] / 1e6, (double)s->e[0] / 1e6);
        return;
    }
    snprintf(c->rp->dl_text, sizeof c->rp->dl_text,
             "%s, used only as the timeout of an I/O wait in `%s` (argument %d%s%s) that ran "
             "to it in both runs (%.3f ms of %.3f in the bad run, %.3f ms of %.3f in the good "
             "run); the clock `%s` (read in %s) moved on %llu %s between two readings before "
             "it in the bad run, %llu in the good run: the time left to one deadline",
             from, name_of(c, s->node), s->k + 1, named ? ", " : "", named ? p->name : "",
             (double)s->w[1]->blocked / 1e6, (double)s->w[1]->asked / 1e6,
             (double)s->w[0]->blocked / 1e6, (double)s->w[0]->asked / 1e6, clk ? clk : "?",
             unit_name(s->cunit), (unsigned long long)s->e[1], unit_name(s->unit),
             (unsigned long long)s->e[0]);
}

/* The evidence of the first value hidden as a timeout its waits took as
 * the same time in both runs, with its sink s. */
static void rnd_evidence(tctx *c, const occ *first, const occ *s)
{
    const ttdi_xcall *y = &c->rp->c[s->node];
    const ttf_param *p = &y->sig->params[s->k];
    char from[160];
    int named = p->name && p->name[0];

    from_text(c, first, from, sizeof from);
    snprintf(c->rp->rnd_text, sizeof c->rp->rnd_text,
             "%s, used only as the timeout of an I/O wait in `%s` (argument %d%s%s) that asked "
             "%.3f ms in both runs: the wait's step rounded the difference away", from,
             name_of(c, s->node), s->k + 1, named ? ", " : "", named ? p->name : "",
             (double)s->w[1]->asked / 1e6);
}

/* The bad key index where o's value was seen. */
static uint64_t seen_at(const tctx *c, const occ *o)
{
    const ttdi_xcall *x = &c->rp->c[o->node];
    return o->k < 0 ? x->exit_idx : x->enter[1];
}

/* Each group of equal values all accounted for: noise. */
static void hide(tctx *c)
{
    for (size_t i = 0; i < c->no; i++) {
        int all = 1;
        const occ *s = NULL, *first = &c->o[i];
        for (size_t j = 0; j < c->no; j++) {
            if (!same(&c->o[i], &c->o[j]))
                continue;
            if (j < i)
                all = 0;        /* the group was judged at its first member */
            all &= c->o[j].acc;
            if (c->o[j].sink && !s)
                s = &c->o[j];
            if (seen_at(c, &c->o[j]) < seen_at(c, first))
                first = &c->o[j];   /* where the value came from */
        }
        if (!all || !s)
            continue;
        int why = s->sink == SINK_DEADLINE ? TTDI_NOISE_DEADLINE
                  : s->sink == SINK_ROUNDED ? TTDI_NOISE_ROUNDED : TTDI_NOISE_TIMEOUT;
        if (why == TTDI_NOISE_DEADLINE && !c->rp->dl_text[0])
            dl_evidence(c, first, s);
        else if (why == TTDI_NOISE_ROUNDED && !c->rp->rnd_text[0])
            rnd_evidence(c, first, s);
        else if (why == TTDI_NOISE_TIMEOUT && !c->rp->tmo_text[0])
            evidence(c, first, s);
        for (size_t j = i; j < c->no; j++) {
            if (!same(&c->o[i], &c->o[j]))
                continue;
            ttdi_xcall *x = &c->rp->c[c->o[j].node];
            c->rp->deadlines += why == TTDI_NOISE_DEADLINE;
            c->rp->rounded += why == TTDI_NOISE_ROUNDED;
            c->rp->timeouts += why == TTDI_NOISE_TIMEOUT;
            if (c->o[j].k < 0) {
                x->retnoise = (uint8_t)why;
                continue;
            }
            if (!x->argnoisy)
                x->argwhy = (uint8_t)why;
            x->argdiff &= (uint16_t)~(1u << c->o[j].k);
            x->argnoisy |= (uint16_t)(1u << c->o[j].k);
        }
    }
}

int ttdi_replay_timeouts(ttdi_replay *rp)
{
    tctx *c = calloc(1, sizeof *c);
    int args = 0;

    if (!c)
        return TT_ENOMEM;
    c->rp = rp;
    collect(c);
    for (size_t i = 0; i < c->no; i++)
        args |= c->o[i].k >= 0;
    for (int r = 0; r < 2; r++) {
        c->w[r] = rp->waits[r].w;
        c->nw[r] = rp->waits[r].n;
    }
    if (args) {
        account(c);
        hide(c);
    }
    free(c);
    return 0;
}
