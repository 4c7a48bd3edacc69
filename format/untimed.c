/*
 * untimed.c - the times of events the writer did not time: EXITs of
 * sparse chunks (format 1.4, the sparse clock: FORMAT.md 4.5), ENTERs and
 * EXITs of lazy chunks (1.7, the lazy clock: FORMAT.md 4.7, at the end of
 * this file). Stage 3 decode of format/STAGES, beside decode.c, which
 * calls it (its header: read_int.h).
 *
 * Design. In a sparse chunk every ENTER carries a measured time, and so
 * do the EXITs of big calls, of calls around a sync operation, the
 * ninth of a run of untimed ones, a thread's first 4096, and one in 32
 * of the rest, drawn at random (SAMPLE).
 * An untimed EXIT happened between the previous event (lo) and the next
 * measured time of its chunk (hi); which point of that interval is not
 * known, and the choice matters: for a short call in a loop, hi - lo is
 * the call plus the caller's code up to its next call, and taking hi
 * gives the caller's time to the callee (measured on jq: a small leaf's
 * self time five times its every-event figure). The reader learns the
 * split from the samples, as sampling profilers learn time from counts
 * (gprof; Intel PT's decoders interpolate between timing packets the same
 * way): while opening, each SAMPLE EXIT adds its own (exit - lo) and
 * (hi - lo) to its function's sums, lo being the chunk's last measured
 * time before it; after the scan a function's ratio is their quotient,
 * pulled towards the trace's ratio when it has few samples (shrinkage:
 * n / (n + 4)). The sums are kept by the interval's width, in bands that
 * double from 8 ticks (a stratified ratio estimate, as survey sampling
 * does for a skewed population): most intervals are a short call and
 * its caller's few instructions, but a few hold a stall (an interrupt, a
 * preemption, a page fault) thousands of times longer, and in one ratio
 * over all widths a handful of stalls among a function's samples set
 * the split of all its short intervals (measured on jq: leaves 15-49%
 * off by total time; by bands within 1% on the short intervals, the rest
 * being where in a stall the exit fell, which no estimate knows). A
 * band's prior is the trace's ratio for that band, so the rare long
 * intervals learn from every function's samples. An untimed EXIT of
 * function f is then placed at lo + ratio(f, band of hi - lo) * (hi - lo)
 * with the same lo, or at the previous event's time when that is later
 * (a run of returns): times never go back, never pass hi, and a
 * function's total over many calls is an unbiased estimate as far as its
 * samples are like its other calls (they are drawn at random, so a
 * loop's period cannot line up with them).
 * (Measured on one jq run, every EXIT timed then dropped by the writer's
 * rules: taking lo as the previous event instead, and learning only from
 * samples after a measured event, put the per-function totals up to 23%
 * off; one ratio per function over all widths, up to 49%.)
 * Error bound, per event: the true time is in [lo, hi], and ttf_event's
 * untimed flag says so. While opening (the scan) untimed EXITs take hi:
 * the ratios are not known yet, and the scan needs only first and last
 * times. (A lazy chunk's runs of untimed events take hi too, but the scan
 * finds it by decoding on to the record that ends the run, not by a
 * look-ahead: read_int.h ttfi_scan_untimed; the look-ahead only where the
 * chunk ends first, ttfi_scan_run_end.)
 *
 * The table maps function addresses to their sums (open addressing, grown
 * at half full); the decoder keeps a small cache of each function's bands
 * by function cache slot, so a lookup is paid once per function and chunk
 * slot.
 */
#include <stdlib.h>
#include <string.h>

#include "read_int.h"

#define RATIO_ONE 65536u        /* ratios are 16.16 fixed point, 0 .. 1 */
#define SHRINK 4                /* samples worth the trace's ratio */

/* ---- finding hi: the next measured time of the chunk --------------------- */

/* A uvar at *p before end, without reporting: 1 with *v, 0 if damaged. */
static int peek_uvar(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    uint64_t x = 0;
    for (unsigned sh = 0; *p < end && sh < 64; sh += 7) {
        uint8_t b = *(*p)++;
        x |= (uint64_t)(b & 0x7f) << sh;
        if (!(b & 0x80)) {
            *v = x;
            return 1;
        }
    }
    return 0;
}

/* The values after an EXIT of a values chunk (rax, and xmm0 in an XMM
 * chunk), skipped. */
static int skip_exit_value(const struct dec *d, const uint8_t **p, const uint8_t *end)
{
    uint64_t v;
    if (!d->values)
        return 1;
    return peek_uvar(p, end, &v) && (!d->xmm || peek_uvar(p, end, &v));
}

int ttfi_ext_timed(unsigned tag)
{
    if (tag == TTF_R_PROCESS || tag == TTF_R_CALLSITE)
        return 0;
    return tag <= TTF_R_CUT || tag == TTF_R_SYNC_OP || tag == TTF_R_EXEC ||
           tag == TTF_R_VFORK || tag == TTF_R_UNWIND;
}

/* A TIMED or SAMPLE prefix's EXIT at *p: its time delta. */
static int prefixed_exit_time(const uint8_t *p, const uint8_t *end, uint64_t *dt)
{
    uint64_t v;
    if (p >= end)
        return 0;
    unsigned tag = *p++;
    if (tag == TTF_T_EXIT_MISS)
        return peek_uvar(&p, end, &v) && peek_uvar(&p, end, dt);
    return tag >= TTF_T_EXIT_HIT && peek_uvar(&p, end, dt);
}

/* One record at *p that carries no time: skipped (1), or 0 at damage. */
static int skip_untimed(const struct dec *d, unsigned tag, const uint8_t **p,
                        const uint8_t *end)
{
    uint64_t v;
    if (tag >= TTF_T_EXIT_HIT)
        return skip_exit_value(d, p, end);
    if (tag == TTF_T_EXIT_MISS)
        return peek_uvar(p, end, &v) && skip_exit_value(d, p, end);
    if (tag >= TTF_T_SITE_WAY && tag <= TTF_T_SITE_NEW)
        return tag != TTF_T_SITE_NEW || peek_uvar(p, end, &v);  /* its ENTER is next */
    if (tag > TTF_R_LAST || !peek_uvar(p, end, &v) || v > (uint64_t)(end - *p))
        return 0;
    *p += v;                    /* an extended record without a time */
    return 1;
}

/* The time delta of the next record from p that carries one: 1 with *dt
 * and *rec (its first byte), 0 at the chunk's end or damage. No state
 * moves. */
static int peek_next_time(const struct dec *d, const uint8_t *p, uint64_t *dt,
                          const uint8_t **rec)
{
    const uint8_t *end = d->c.end;
    uint64_t v;
    while (p < end && *p != TTF_T_END) {
        unsigned tag = *p;
        *rec = p++;
        if (tag == TTF_T_TIMED || tag == TTF_T_SAMPLE)
            return prefixed_exit_time(p, end, dt);
        if ((tag & 0xC0) == TTF_T_ENTER_HIT)
            return peek_uvar(&p, end, dt);
        if (tag == TTF_T_ENTER_MISS)
            return peek_uvar(&p, end, &v) && peek_uvar(&p, end, dt);
        if (tag >= TTF_T_EXIT_MISS || !ttfi_ext_timed(tag)) {
            if (!skip_untimed(d, tag, &p, end))
                return 0;
            continue;
        }
        const uint8_t *body = p;    /* an extended record: t comes first */
        return peek_uvar(&body, end, &v) && peek_uvar(&body, end, dt);
    }
    return 0;
}

uint64_t ttfi_untimed_hi(struct dec *d, const uint8_t *q)
{
    uint64_t dt;
    const uint8_t *rec = NULL;
    if (peek_next_time(d, q, &dt, &rec)) {
        d->ub_rec = rec;
        d->ub_tsc = d->tsc + dt;
        return d->ub_tsc;
    }
    d->ub_rec = d->c.end;       /* no time after it in the chunk */
    d->ub_tsc = d->next_tsc > d->tsc ? d->next_tsc : d->tsc;
    return d->ub_tsc;
}

/* ---- the ratio table ------------------------------------------------------ */

static size_t slot_of(uint64_t fn, size_t cap)
{
    return (size_t)((fn * 0x9E3779B97F4A7C15ull) >> 32) & (cap - 1);
}

static struct xratio *find(const ttf_trace *t, uint64_t fn)
{
    if (!t->xr_cap)
        return NULL;
    for (size_t i = slot_of(fn, t->xr_cap);; i = (i + 1) & (t->xr_cap - 1)) {
        struct xratio *x = &t->xr[i];
        if (x->fn == fn)
            return x;
        if (!x->fn)
            return NULL;
    }
}

static int grow(ttf_trace *t)
{
    size_t cap = t->xr_cap ? t->xr_cap * 2 : 256;
    struct xratio *n = calloc(cap, sizeof *n);
    if (!n)
        return -1;
    for (size_t i = 0; i < t->xr_cap; i++) {
        struct xratio *x = &t->xr[i];
        size_t j = slot_of(x->fn, cap);
        if (!x->fn)
            continue;
        while (n[j].fn)
            j = (j + 1) & (cap - 1);
        n[j] = *x;
    }
    free(t->xr);
    t->xr = n;
    t->xr_cap = cap;
    return 0;
}

static struct xratio *find_or_add(ttf_trace *t, uint64_t fn);

/* While opening: a SAMPLE EXIT of fn at tsc te, lo the previous event's
 * (measured) time, hi the next measured time. */
static void add_sample(ttf_trace *t, uint64_t fn, uint64_t te, uint64_t lo, uint64_t hi)
{
    if (!fn || hi <= lo || te < lo || te > hi)
        return;
    struct xratio *x = find_or_add(t, fn);
    if (!x)
        return;                 /* no memory: the trace's ratios serve */
    unsigned b = ttfi_xr_band(hi - lo);
    x->num[b] += te - lo;
    x->den[b] += hi - lo;
    x->n[b]++;
    t->xr_num[b] += te - lo;
    t->xr_den[b] += hi - lo;
    t->xr_nb[b]++;
}

static uint32_t quotient(uint64_t num, uint64_t den)
{
    if (!den)
        return RATIO_ONE / 2;
    unsigned __int128 r = (unsigned __int128)num * RATIO_ONE / den;
    return r > RATIO_ONE ? RATIO_ONE : (uint32_t)r;
}

/* own (from n samples) pulled towards prior as n is small. */
static uint32_t shrink(uint32_t own, uint64_t n, uint32_t prior)
{
    return (uint32_t)(((uint64_t)own * n + (uint64_t)prior * SHRINK) / (n + SHRINK));
}

/* The last band of the trace's short intervals: the one where 99% of
 * its samples have been counted (the rest are its stalls). The trace's
 * ratio over these bands is the prior of bands with few samples. */
static unsigned short_bands(const ttf_trace *t)
{
    uint64_t all = 0, seen = 0;
    for (unsigned b = 0; b < XR_BANDS; b++)
        all += t->xr_nb[b];
    for (unsigned b = 0; b < XR_BANDS; b++) {
        seen += t->xr_nb[b];
        if (seen * 100 >= all * 99)
            return b;
    }
    return XR_BANDS - 1;
}

static void lazy_finish(ttf_trace *t);

void ttfi_untimed_finish(ttf_trace *t)
{
    lazy_finish(t);
    unsigned k = short_bands(t);
    uint64_t num = 0, den = 0;
    for (unsigned b = 0; b <= k; b++) {
        num += t->xr_num[b];
        den += t->xr_den[b];
    }
    uint32_t all = quotient(num, den);
    for (unsigned b = 0; b < XR_BANDS; b++)
        t->xr_all[b] = shrink(quotient(t->xr_num[b], t->xr_den[b]), t->xr_nb[b], all);
    for (size_t i = 0; i < t->xr_cap; i++) {
        struct xratio *x = &t->xr[i];
        if (!x->fn)
            continue;
        for (unsigned b = 0; b < XR_BANDS; b++)
            x->r[b] = shrink(quotient(x->num[b], x->den[b]), x->n[b], t->xr_all[b]);
    }
}

const uint32_t *ttfi_untimed_ratios(struct dec *d, uint64_t fn)
{
    unsigned s = TTF_SLOT(fn);
    const struct xratio *x = find(d->t, fn);
    d->xr_fn[s] = fn;
    d->xr_r[s] = x ? x->r : d->t->xr_all;
    return d->xr_r[s];
}

/* ---- samples ------------------------------------------------------------------- */

void ttfi_untimed_sample(struct dec *d, uint64_t fn, uint64_t before)
{
    if (!d->scan)
        return;
    uint64_t te = d->tsc;
    uint64_t hi = ttfi_untimed_hi(d, d->c.p);
    add_sample(d->scan, fn, te, before, hi);
}

/* ---- lazy chunks (format 1.7) ------------------------------------------------ */

/* In a lazy chunk an ENTER goes untimed after an untimed EXIT, so a run
 * of untimed events between two measured times lo and hi is a few calls
 * (at most 8 untimed EXITs, the writer's CAP_UNTIMED_RUN, and the ENTERs
 * between them; in a chain chunk, format 1.9, an ENTER after an untimed
 * ENTER too, so nested calls join the run: any number of ENTERs). One
 * ratio per event would crowd them at one point and give the calls of
 * the run no length; instead hi - lo is split in
 * proportion to the mean gap before each event of the run and before the
 * measured event that ends it, each learnt, while opening, from the
 * measured gaps between the same pair of events: function and kind of
 * the event and of the one before it (the gap from a leaf's ENTER to its
 * EXIT is its body, from an EXIT of f to an ENTER of g the caller's code
 * between those two calls). A SAMPLE or TIMED EXIT times the ENTER after
 * it, so each pair is measured at random like the untimed ones it stands
 * for, and a thread's first 4096 EXITs are all timed. A pair's mean is
 * pulled towards its event's (function and the two kinds) by
 * n / (n + GAP_SHRINK), that towards the trace's for the two kinds the
 * same way; gaps of GAP_MAX ticks or more (stalls: a preemption, a page
 * fault) are not learnt, as a few of them would set the split of every
 * short run. (A key without the previous function put 2 of 13 Lua
 * functions above 1% of the time 7.6% off; with it, see PERFORMANCE.md.)
 * (Measured in session 20 with tests/bench/clocksim.c, which replays an
 * every-event trace under this policy: 13 of 13 functions above 1% of a
 * Lua run within 5% of their every-event totals and self times.) */

#define GAP_MAX 32768           /* ticks: longer measured gaps are not learnt */
#define GAP_SHRINK 4            /* gaps worth the trace's mean for the key */
#define GAP_ONE 16              /* means are kept in 1/16 tick */
#define RUN_OV 16               /* cache misses a run's look-ahead keeps */

static struct xratio *find_or_add(ttf_trace *t, uint64_t fn)
{
    struct xratio *x = find(t, fn);
    if (x)
        return x;
    if ((t->xr_n + 1) * 2 > t->xr_cap && grow(t) != 0)
        return NULL;            /* no memory: the trace's means serve */
    size_t i = slot_of(fn, t->xr_cap);
    while (t->xr[i].fn)
        i = (i + 1) & (t->xr_cap - 1);
    x = &t->xr[i];
    x->fn = fn;
    t->xr_n++;
    return x;
}

static size_t pair_slot(uint64_t a, uint64_t b, unsigned k, size_t cap)
{
    uint64_t h = (a * 0x9E3779B97F4A7C15ull) ^ (b + k) * 0xC2B2AE3D27D4EB4Full;
    return (size_t)(h >> 32) & (cap - 1);
}

static inline __attribute__((always_inline))
struct gpair *pair_find(const ttf_trace *t, uint64_t a, uint64_t b, unsigned k)
{
    if (!t->gpr_cap)
        return NULL;
    for (size_t i = pair_slot(a, b, k, t->gpr_cap);; i = (i + 1) & (t->gpr_cap - 1)) {
        struct gpair *g = &t->gpr[i];
        if (g->a == a && g->b == b && g->k == k + 1)
            return g;
        if (!g->k)
            return NULL;
    }
}

static int pair_grow(ttf_trace *t)
{
    size_t cap = t->gpr_cap ? t->gpr_cap * 2 : 1024;
    struct gpair *n = calloc(cap, sizeof *n);
    if (!n)
        return -1;
    for (size_t i = 0; i < t->gpr_cap; i++) {
        struct gpair *g = &t->gpr[i];
        if (!g->k)
            continue;
        size_t j = pair_slot(g->a, g->b, g->k - 1, cap);
        while (n[j].k)
            j = (j + 1) & (cap - 1);
        n[j] = *g;
    }
    free(t->gpr);
    t->gpr = n;
    t->gpr_cap = cap;
    return 0;
}

static void pair_add(ttf_trace *t, uint64_t a, uint64_t b, unsigned k, uint64_t gap)
{
    struct gpair *g = pair_find(t, a, b, k);
    if (!g) {
        if ((t->gpr_n + 1) * 2 > t->gpr_cap && pair_grow(t) != 0)
            return;             /* no memory: the function's means serve */
        size_t i = pair_slot(a, b, k, t->gpr_cap);
        while (t->gpr[i].k)
            i = (i + 1) & (t->gpr_cap - 1);
        g = &t->gpr[i];
        g->a = a;
        g->b = b;
        g->k = k + 1;
        t->gpr_n++;
    }
    g->sum += gap;
    g->n++;
}

void ttfi_lazy_gap(struct dec *d, uint64_t fn, int ex, uint64_t gap)
{
    ttf_trace *t = d->scan;
    if (!t || !fn || gap >= GAP_MAX)
        return;
    unsigned k = LZ_KEY(d->lastk, ex);
    t->gp_sum[k] += gap;
    t->gp_n[k]++;
    struct xratio *x = find_or_add(t, fn);
    if (x) {
        x->gsum[k] += gap;
        x->gn[k]++;
    }
    if (d->lastfn)
        pair_add(t, d->lastfn, fn, k, gap);
}

static uint32_t gap_mean(uint64_t sum, uint64_t n, uint64_t prior)
{
    uint64_t m = (sum * GAP_ONE + prior * GAP_SHRINK) / (n + GAP_SHRINK);
    return m < 1 ? 1 : m > UINT32_MAX ? UINT32_MAX : (uint32_t)m;
}

/* After the scan (ttfi_untimed_finish): each key's means. */
static void lazy_finish(ttf_trace *t)
{
    uint64_t s = 0, n = 0;
    for (unsigned k = 0; k < 4; k++) {
        s += t->gp_sum[k];
        n += t->gp_n[k];
    }
    uint64_t all = n ? s * GAP_ONE / n : GAP_ONE;
    for (unsigned k = 0; k < 4; k++)
        t->gp_w[k] = gap_mean(t->gp_sum[k], t->gp_n[k], all);
    for (size_t i = 0; i < t->xr_cap; i++) {
        struct xratio *x = &t->xr[i];
        for (unsigned k = 0; x->fn && k < 4; k++)
            x->gw[k] = gap_mean(x->gsum[k], x->gn[k], t->gp_w[k]);
    }
    for (size_t i = 0; i < t->gpr_cap; i++) {
        struct gpair *g = &t->gpr[i];
        if (!g->k)
            continue;
        const struct xratio *x = find(t, g->b);
        uint32_t prior = x ? x->gw[g->k - 1] : t->gp_w[g->k - 1];
        g->w = gap_mean(g->sum, g->n, prior);
    }
}

/* The mean gap before an event of fn with key k after one of function a
 * (0: none known): the pair's, else fn's (cached by slot in d). */
static inline __attribute__((always_inline))
uint64_t gap_w(struct dec *d, uint64_t a, uint64_t fn, unsigned k)
{
    const struct gpair *g = a ? pair_find(d->t, a, fn, k) : NULL;
    if (g)
        return g->w;
    unsigned s = TTF_SLOT(fn);
    if (d->gx_fn[s] != fn || !d->gx_w[s]) {
        const struct xratio *x = find(d->t, fn);
        d->gx_fn[s] = fn;
        d->gx_w[s] = x ? x->gw : d->t->gp_w;
    }
    return d->gx_w[s][k];
}

/* The function of a hot record's tag: hits by the chunk's cache, or by
 * the misses the look-ahead passed (newest first). */
static uint64_t run_fn(const struct dec *d, unsigned slot, const uint64_t *ova,
                       const unsigned *ovs, unsigned nov)
{
    while (nov--)
        if (ovs[nov] == slot)
            return ova[nov];
    return d->cache[slot];
}

/* A lazy values chunk (format 1.8): the values after an untimed ENTER or
 * EXIT's address, stepped over (0: damaged or cut). Its own path, out of
 * line: lazy chunks without values never come here. */
static __attribute__((noinline)) int run_values_skip(const struct dec *d, const uint8_t **p,
                                                     const uint8_t *end, unsigned x)
{
    return values_skip_fast(d, p, end, (int)x);
}

/* A new run of untimed events, from the one of fn (kind ex) whose record
 * ends at q: its end (the next measured time of the chunk: a prefixed
 * ENTER or EXIT, an extended record with a time; else the thread's next
 * chunk's start, else lo) and, after the scan, its weights. Damage ends
 * the look-ahead as the chunk's end does: dec_next reports it. */
void ttfi_lazy_run(struct dec *d, uint64_t fn, int ex, const uint8_t *q)
{
    const uint8_t *p = q, *end = d->c.end, *rec = end;
    uint64_t ova[RUN_OV], prev = d->prev, v, dt = 0, hi = 0;
    unsigned ovs[RUN_OV], nov = 0, pk = (unsigned)ex, ux = (unsigned)(ex | d->chain);
    int w = !d->scan, found = 0;
    uint64_t first = w ? gap_w(d, d->lastfn, fn, LZ_KEY(d->lastk, ex)) : 0, sum = first;
    unsigned nw = 0;
    uint64_t pf = fn;
    while (p < end && *p != TTF_T_END) {
        const uint8_t *r = p;
        unsigned tag = *p++, pre = 0;
        if (tag == TTF_T_TIMED || tag == TTF_T_SAMPLE) {
            if (p >= end)
                break;
            pre = 1;
            tag = *p++;
        }
        if (tag >= TTF_T_ENTER_HIT || tag == TTF_T_ENTER_MISS || tag == TTF_T_EXIT_MISS) {
            unsigned x = tag >= TTF_T_EXIT_HIT || tag == TTF_T_EXIT_MISS;
            unsigned timed = x ? pre : !ux;
            uint64_t a;
            if (pre && !x)
                break;          /* damage */
            if (tag >= TTF_T_ENTER_HIT) {   /* the scan needs no functions */
                a = w ? run_fn(d, tag & (TTF_SLOTS - 1), ova, ovs, nov) : 0;
            } else {
                if (!peek_uvar(&p, end, &v))
                    break;
                a = prev = prev + (uint64_t)unzigzag(v);
                if (nov < RUN_OV) {
                    ovs[nov] = TTF_SLOT(a);
                    ova[nov++] = a;
                }
            }
            if (w) {
                uint64_t g = gap_w(d, pf, a, LZ_KEY(pk, x));
                sum += g;
                if (nw < sizeof d->run_wt / sizeof d->run_wt[0])
                    d->run_wt[nw++] = (uint32_t)g;
            }
            pk = x;
            pf = a;
            ux = (x | (unsigned)d->chain) && !timed;
            if (!timed && d->values && !run_values_skip(d, &p, end, x))
                break;          /* damage */
            if (!timed)
                continue;
            found = peek_uvar(&p, end, &dt);
            rec = r;
            break;
        }
        if (pre)
            break;              /* damage */
        if (tag >= TTF_T_SITE_WAY && tag <= TTF_T_SITE_NEW) {
            if (tag == TTF_T_SITE_NEW && !peek_uvar(&p, end, &v))
                break;
            continue;
        }
        if (tag > TTF_R_LAST || !peek_uvar(&p, end, &v) || v > (uint64_t)(end - p))
            break;
        if (ttfi_ext_timed(tag)) {
            const uint8_t *body = p;
            found = peek_uvar(&body, end, &dt);   /* t, after the length */
            if (found && w)
                sum += d->t->gp_w[LZ_KEY(pk, 0)];
            rec = r;
            break;
        }
        p += v;
    }
    uint64_t to;
    if (found) {
        hi = to = d->tsc + dt;
    } else {
        /* the chunk's end: the next time known is the next chunk's start,
           after the writer's switch (mmap, page faults: often tens of
           microseconds), which followed the run's events; they are
           placed from lo by their gaps' means, not spread over it */
        rec = end;
        hi = d->next_tsc;
        if (w)
            sum += d->t->gp_w[LZ_KEY(pk, 1)];
        to = d->tsc + sum / GAP_ONE;
        to = to < hi ? to : hi;
    }
    d->run_end = rec;
    d->run_hi = hi > d->tsc ? hi : d->tsc;
    d->run_to = to > d->tsc ? to : d->tsc;
    d->run_w = sum;
    d->run_inv = sum ? UINT64_MAX / sum : 0;
    d->run_acc = first;
    d->run_prev = d->tsc;
    d->run_i = 0;
}

void ttfi_scan_run_end(struct dec *d)
{
    uint64_t tsc = d->tsc;
    d->tsc = d->srun_lo;        /* the run's lo, as when it opened */
    ttfi_lazy_run(d, 0, d->srun_ex, d->srun_q);
    d->tsc = tsc;
    d->run_end = NULL;
    d->srun = 0;
    d->srun_hi = d->run_hi;
    d->srun_closed++;
}

uint64_t ttfi_lazy_w(struct dec *d, uint64_t fn, int ex)
{
    return gap_w(d, d->lastfn, fn, LZ_KEY(d->lastk, ex));
}
