/*
 * untimed.c - the times of EXITs the writer did not time (format 1.4, the
 * sparse clock: FORMAT.md 4.5). Stage 3 decode of format/STAGES, beside
 * decode.c, which calls it (its header: read_int.h).
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
 * pulled towards the trace's overall ratio when it has few samples
 * (shrinkage: n / (n + 4)). An untimed EXIT of function f is then placed
 * at lo + ratio(f) * (hi - lo) with the same lo, or at the previous
 * event's time when that is later (a run of returns): times never go
 * back, never pass hi, and a function's total over many calls is an
 * unbiased estimate as far as its samples are like its other calls (they
 * are drawn at random, so a loop's period cannot line up with them).
 * (Measured on one jq run, every EXIT timed then dropped by the writer's
 * rules: taking lo as the previous event instead, and learning only from
 * samples after a measured event, put the per-function totals up to 23%
 * off; this way 10%.)
 * Error bound, per event: the true time is in [lo, hi], and ttf_event's
 * untimed flag says so. While opening (the scan) untimed EXITs take hi:
 * the ratios are not known yet, and the scan needs only first and last
 * times.
 *
 * The table maps function addresses to their sums (open addressing, grown
 * at half full); the decoder keeps a small cache of ratios by function
 * cache slot, so a lookup is paid once per function and chunk slot.
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

/* Does the extended record tag carry a time (its payload's first field)? */
static int ext_timed(unsigned tag)
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
        if (tag >= TTF_T_EXIT_MISS || !ext_timed(tag)) {
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

/* While opening: a SAMPLE EXIT of fn at tsc te, lo the previous event's
 * (measured) time, hi the next measured time. */
static void add_sample(ttf_trace *t, uint64_t fn, uint64_t te, uint64_t lo, uint64_t hi)
{
    if (!fn || hi <= lo || te < lo || te > hi)
        return;
    struct xratio *x = find(t, fn);
    if (!x) {
        if ((t->xr_n + 1) * 2 > t->xr_cap && grow(t) != 0)
            return;             /* no memory: the trace's ratio serves */
        size_t i = slot_of(fn, t->xr_cap);
        while (t->xr[i].fn)
            i = (i + 1) & (t->xr_cap - 1);
        x = &t->xr[i];
        x->fn = fn;
        t->xr_n++;
    }
    x->num += te - lo;
    x->den += hi - lo;
    x->n++;
    t->xr_num += te - lo;
    t->xr_den += hi - lo;
}

static uint32_t quotient(uint64_t num, uint64_t den)
{
    if (!den)
        return RATIO_ONE / 2;
    unsigned __int128 r = (unsigned __int128)num * RATIO_ONE / den;
    return r > RATIO_ONE ? RATIO_ONE : (uint32_t)r;
}

void ttfi_untimed_finish(ttf_trace *t)
{
    t->xr_all = quotient(t->xr_num, t->xr_den);
    for (size_t i = 0; i < t->xr_cap; i++) {
        struct xratio *x = &t->xr[i];
        if (!x->fn)
            continue;
        uint64_t own = quotient(x->num, x->den);
        x->r = (uint32_t)((own * x->n + (uint64_t)t->xr_all * SHRINK) / (x->n + SHRINK));
    }
}

uint32_t ttfi_untimed_ratio(struct dec *d, uint64_t fn)
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
