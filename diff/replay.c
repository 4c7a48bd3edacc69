/*
 * replay.c - one thread pair walked again along its alignment, keeping the
 * calls whose values differ as a tree, for the explain stage (explain.c).
 * Stage 1 align of diff/STAGES (its header: align.h): align's values walk
 * over the common prefix feeds it (below).
 *
 * Design. The two threads are read in step, as values.c does: whatever
 * lies between two hunks was matched one to one by the aligner, so the
 * k-th kept event outside the hunks of one side is the partner of the
 * k-th of the other. Each side keeps its own call stack (a hunk may enter
 * or leave frames on one side only); a frame entered in step carries both
 * runs' arguments. At a matched EXIT the return values are compared, at a
 * matched ENTER the arguments, by the bad run's signature (integers,
 * enums and bools exactly, pointers by NULL / non-NULL and by what they
 * name in a module's image: values.c's rules, ttdi_value_differs; a
 * comparator's result by its sign, ttdi_cmp_result).
 * A difference becomes a node, and so does every enclosing frame up to the
 * top level, so the tree holds exactly the paths to what differs: the
 * explanation follows values along them (explain.c), never whole threads.
 * Memory is bounded: at TTDI_REPLAY_NODES nodes, the closed calls are
 * dropped (the open ones stay) and counted.
 * Noise is marked where it is known: a slot that varies between good runs
 * (the --baseline set, values.c's keys), a value that looks like an
 * address or time stamp, a clock-named function's result, a time near each
 * run's own CLOCK_MONOTONIC (a deadline: ttdi_time_like), a double of
 * seconds near its clock (ttdi_float_time_like); and at the end,
 * a function whose result grew from call to call within a run
 * (ttdi_replay_retnoise); and after the walk, a value that was only the
 * timeout of an I/O wait woken early in both runs, or the time left to one
 * deadline by the clock readings kept as it went (rp->clk), of waits that
 * ran to it in both (timeouts.c, run by explain.c after the walk).
 * The prefix read once (issue 38). Before the first difference the two
 * threads are read in step by the tree aligner's load (pair_align.c),
 * which compares the prefix's values (values.c) as it goes; where the
 * threads' lengths differ (the pair will part, so the explain stage will
 * replay it), the same reads also feed a replay of the prefix
 * (ttdi_rprefix: every record through ttdi_replay_next, every pair
 * through the step the walk below takes), which has no stop, and keeps
 * both walks at the first difference. A replay whose pairs before its
 * stop include the whole prefix, with no hunk inside it and no baselines'
 * noise set, starts from a copy of that state and those walks: the same
 * records reach the same steps in the same order, so the result is the
 * one a walk from the start gives (test_explain's test_prefix_replay
 * compares both on every case it builds). One side effect is not the
 * walk's own: a function's signature asked of the run's symbols the first
 * time may add a notice (no DWARF entry, no DWARF), in the order asked.
 * So the prefix replay asks the bad run's symbols only for what the
 * values walk asked just before (an event with values on both sides
 * whose good signature is known, values.c's compare_pair); at the first
 * ENTER that would ask for more, it ends there (ttdi_rprefix_pair), and
 * the explain stage's replay asks from there on, as before. Otherwise
 * (the stop inside the prefix: another thread's replay up to an earlier
 * time; threads of the same length) it walks from the start, as before.
 * The prefix's values are then decoded once, not twice: a quarter of a
 * values diff of jq. Its walks skip the lazy clock's times past the last
 * module load or unload as the values walk's do (pair_align.c times_off:
 * a value compares by the modules' epochs, all of the last one there),
 * and the replay takes back what it keeps: the times of the step's
 * events where a value differs, a node's EXIT, a wait begins or ends
 * (ttdi_walk_times), and by offset those of the ENTERs of the calls that
 * become nodes, and of every call still open where the prefix ends, with
 * the latest bad time among its pairs (frame_times, prefix_times:
 * ttdi_walk_times_at, a chunk read again up to it); each frame says
 * which of its ENTERs were read without (rframe.skipped).
 * Compared cheaply (issue 38): most matched pairs of two like runs are
 * the same, so what compare_args decides from a signature alone (which
 * parameters, a string or not, a small struct's fields, each scalar's
 * rule) is decided once per signature into a plan of operations, the
 * ones values.c's plans use (ttdi_vop), kept in the signature cache; an
 * ENTER pair whose operations all answer "the same" and that has no
 * string to compare costs a few register reads, anything else goes to
 * compare_args from the start, as before. Each EXIT's comparator kind is
 * kept per function address (ttdi_cmp_kind, one answer per address once
 * asked). On jq's parted values pair: ~825 instructions a matched pair
 * before, ~500 after.
 * Asked once (issue 38). The prefix replay's pairs were compared just
 * before by the values walk (values.c's plans), which hands its answer on
 * when its plan found the pair the same (ttdi_vsame): an ENTER pair whose
 * plan has the operations of the replay's own (args_same_as_values), an
 * EXIT pair whose result it compared by value with the operation
 * exit_frame applies (ret_same_as_values), take that answer "the same"
 * instead of comparing again: the same operations on the same events
 * give the same answer, and every first ask of the symbols was the
 * values walk's. Which plan matched is kept in the signature cache (a
 * plan is named by its slot and how many were made there), so the
 * operations are compared once per pair of plans.
 */
#include <stdlib.h>
#include <string.h>

#include "align.h"

#define NZ 8                    /* noisy values remembered per frame */

/* One open call of one side. */
typedef struct ttdi_rframe {
    uint64_t key;               /* its ENTER key */
    uint64_t exit_key;          /* the EXIT key that closes it */
    int32_t node;               /* bad side: its node, -1 if none yet */
    int matched;                /* bad side: entered in step */
    uint64_t enter[2];          /* bad side: ENTER key index per run */
    ttf_event ev[2];            /* bad side: the ENTER events (good, bad) */
    const ttf_signature *sig;   /* bad side: signature, NULL if unknown */
    uint16_t argdiff, argnoisy; /* bad side: arguments that differ */
    uint8_t argwhy;
    uint8_t clone;              /* bad side: ttdi_clone_name of it */
    uint8_t real_in;            /* bad side: an argument or a callee's result
                                   differed for real */
    uint8_t noise_why;          /* bad side: TTDI_NOISE_* of the last noisy
                                   input (argument or callee result), 0 none */
    uint8_t nnz;                /* noisy values seen in it (nz holds the last) */
    uint8_t skipped;            /* bad side: bit r: ev[r]'s times were
                                   skipped (its walk read it without them):
                                   frame_times takes them back */
    uint64_t nz[NZ][2];         /* bad side: the last noisy callee results
                                   and arguments, good and bad registers */
    ttdi_xnoisy noisy;          /* bad side: its last noisy callee */
} ttdi_rframe;

/* One side being read: a keyed walk (walker.c); ev the current event
 * that takes part, key its key, idx its key index, norm its normaliser. */
typedef ttdi_walk rside;

/* ---- stacks --------------------------------------------------------------- */

static int push(ttdi_replay *rp, int side, const rside *s)
{
    if (rp->nst[side] == rp->stcap[side] &&
        ttdi_grow(&rp->st[side], &rp->stcap[side], rp->nst[side] + 1, sizeof *rp->st[side], 64) < 0)
        return TT_ENOMEM;
    ttdi_rframe *f = &rp->st[side][rp->nst[side]++];
    f->key = s->key;
    f->exit_key = ttdi_norm_exit_of(s->key);
    if (side == 0)
        return 0;           /* the good side's frames only match EXITs */
    /* the bad side's, field by field: a frame is about 600 bytes, most
     * of it events and noise slots that are written before they are read
     * (pushed twice per call: a memset was 4% of a values diff); the good
     * run's ENTER (ev[0]) is set by the caller: enter_pair copies it, lone
     * clears what is read of it */
    f->node = -1;
    f->matched = 0;
    f->enter[0] = 0;
    f->enter[1] = s->idx;
    f->ev[1] = s->ev;
    f->skipped = (uint8_t)(!ttdi_walk_timed(s) << 1);
    f->sig = NULL;
    f->argdiff = f->argnoisy = 0;
    f->argwhy = f->clone = f->real_in = f->noise_why = f->nnz = 0;
    f->noisy.why = 0;
    return 0;
}

/* The frame an EXIT with key k closes: the innermost with that exit key
 * (frames above it were left by a longjmp), or -1. */
static long find_open(const ttdi_replay *rp, int side, uint64_t k)
{
    for (size_t i = rp->nst[side]; i > 0; i--)
        if (rp->st[side][i - 1].exit_key == k)
            return (long)(i - 1);
    return -1;
}

/* Frame f's ENTERs their exact times, where their walks skipped them
 * (the prefix replay's walks past the last module load or unload,
 * pair_align.c): by their offsets, through the walks of the step
 * (ttdi_walk_times_at). 0 or a TT_E* code. */
static int frame_times(ttdi_replay *rp, ttdi_rframe *f)
{
    for (int r = 0; r < 2 && f->skipped; r++) {
        int rc = !(f->skipped >> r & 1) ? 0 : !rp->rd[r] ? TT_EINVAL
                 : ttdi_walk_times_at(rp->rd[r], &f->ev[r]);
        if (rc < 0)
            return rc;
    }
    f->skipped = 0;
    return 0;
}

/* The events of the step (s) their exact times, where their walks
 * skipped them (ttdi_walk_times). 0 or a TT_E* code. */
static int step_times(rside *const s[2])
{
    int rc = ttdi_walk_times(s[0], 0);
    return rc < 0 ? rc : ttdi_walk_times(s[1], 0);
}

/* ---- nodes ---------------------------------------------------------------- */

/* Keep only node 0 and the open frames' nodes (renumbered). */
static void compact(ttdi_replay *rp)
{
    size_t m = 1;
    int32_t prev = 0;

    rp->c[0].first = rp->c[0].last = -1;
    for (size_t i = 0; i < rp->nst[1]; i++) {
        ttdi_rframe *f = &rp->st[1][i];
        if (f->node < 0)
            continue;
        rp->c[m] = rp->c[f->node];
        rp->c[m].parent = prev;
        rp->c[m].first = rp->c[m].last = rp->c[m].next = -1;
        rp->c[prev].first = rp->c[prev].last = (int32_t)m;
        f->node = (int32_t)m;
        prev = (int32_t)m++;
    }
    rp->dropped += rp->n - m;
    rp->n = m;
}

/* A new node under parent: its index, -1 out of memory, -2 full. */
static int32_t new_node(ttdi_replay *rp, int32_t parent)
{
    if (rp->n == rp->cap) {
        if (rp->cap >= TTDI_REPLAY_NODES)
            return -2;
        if (ttdi_grow(&rp->c, &rp->cap, rp->n + 1, sizeof *rp->c, 256) < 0)
            return -1;
    }
    int32_t id = (int32_t)rp->n++;
    ttdi_xcall *x = &rp->c[id];
    memset(x, 0, sizeof *x);
    x->parent = parent;
    x->first = x->last = x->next = -1;
    x->exit_idx = UINT64_MAX;
    if (parent >= 0) {
        ttdi_xcall *p = &rp->c[parent];
        if (p->last >= 0)
            rp->c[p->last].next = id;
        else
            p->first = id;
        p->last = id;
    }
    return id;
}

/* Nodes for the bad side's frames 0..i (those that have none yet); when
 * the nodes are full, the closed calls' go first (compact), and if the
 * open ones alone fill them, none. */
static int ensure(ttdi_replay *rp, size_t i)
{
    int32_t parent = 0;

    if (rp->cap >= TTDI_REPLAY_NODES && rp->n + i + 1 >= rp->cap)
        compact(rp);
    for (size_t j = 0; j <= i; j++) {
        ttdi_rframe *f = &rp->st[1][j];
        if (f->node >= 0) {
            parent = f->node;
            continue;
        }
        int rc = frame_times(rp, f);
        if (rc < 0)
            return rc;
        int32_t id = new_node(rp, parent);
        if (id < 0)
            return id == -1 ? TT_ENOMEM : 0;
        ttdi_xcall *x = &rp->c[id];
        x->key = f->key;
        x->addr = f->ev[1].addr;
        x->time_ns = f->ev[1].time_ns;
        x->gtime_ns = f->ev[0].time_ns;
        x->enter[0] = f->enter[0];
        x->enter[1] = f->enter[1];
        x->sig = f->sig;
        x->values = f->matched && f->ev[0].has_values && f->ev[1].has_values;
        memcpy(x->args[0], f->ev[0].argregs, sizeof x->args[0]);
        memcpy(x->args[1], f->ev[1].argregs, sizeof x->args[1]);
        for (int r = 0; r < 2; r++) {
            x->strs[r] = f->ev[r].strs;
            x->strs_len[r] = f->ev[r].strs_len;
        }
        x->argdiff = f->argdiff;
        x->argnoisy = f->argnoisy;
        x->argwhy = f->argwhy;
        f->node = id;
        parent = id;
    }
    return 0;
}

/* ---- return statistics ---------------------------------------------------- */

/* The statistics of function key (added when new); NULL out of memory.
 * Keys are kept per function, whichever call site (the site bits off),
 * as key | 1 (as they always were: a key and its neighbour differing in
 * bit 0 share statistics). */
static ttdi_rstat *rstat(ttdi_replay *rp, uint64_t key)
{
    key &= ~(uint64_t)TTDI_SITE_MASK;   /* per function, whichever call site */
    uint64_t *ix = ttdi_map_get(&rp->rsmap, key | 1);

    if (ix)
        return &rp->rs[*ix];
    if (rp->rsn == rp->rscap &&
        ttdi_grow(&rp->rs, &rp->rscap, rp->rsn + 1, sizeof *rp->rs, 256) < 0)
        return NULL;
    if (!(ix = ttdi_map_put(&rp->rsmap, key | 1, NULL)))
        return NULL;
    *ix = rp->rsn;
    ttdi_rstat *st = &rp->rs[rp->rsn++];
    memset(st, 0, sizeof *st);
    st->key = key | 1;
    return st;
}

/* The statistics of function key if any (a lookup, as rstat files them). */
static const ttdi_rstat *rstat_find(const ttdi_replay *rp, uint64_t key)
{
    const uint64_t *ix = ttdi_map_get(&rp->rsmap, (key & ~(uint64_t)TTDI_SITE_MASK) | 1);
    return ix ? &rp->rs[*ix] : NULL;
}

static void rstat_add(ttdi_rstat *s, int run, uint64_t v, const ttf_vtype *ty, int end)
{
    s->zero[run] += v == 0;
    s->neg[run] += ty->cls == TTF_VC_SIGNED && (int64_t)v < 0;
    s->lo[run] += end < 0;
    s->hi[run] += end > 0;
    if (s->n[run] && v > s->last[run])
        s->rises[run]++;
    if (s->n[run] && v < s->last[run])
        s->falls[run] = 1;
    s->last[run] = v;
    s->n[run]++;
}

/* A result that grew at least twice and never fell, in a run with three
 * calls or more, and fell in none: a clock, a counter, an id source. */
static int clock_like(const ttdi_rstat *s)
{
    int seen = 0;

    for (int r = 0; r < 2; r++) {
        if (s->falls[r])
            return 0;
        seen |= s->n[r] >= 3 && s->rises[r] >= 2;
    }
    return seen;
}

int ttdi_replay_retnoise(const ttdi_replay *rp, const ttdi_xcall *x)
{
    if (x->retnoise || !x->retdiff || !rp->rscap)
        return x->retnoise;
    const ttdi_rstat *st = rstat_find(rp, x->key);
    return st && clock_like(st) ? TTDI_NOISE_CLOCK : 0;
}

int ttdi_replay_returned_error(const ttdi_replay *rp, const ttdi_xcall *x, int run)
{
    const ttdi_rstat *st = rp->rscap ? rstat_find(rp, x->key) : NULL;
    return st && st->errs[run];
}

/* Is v (of type ty) a failure by the statistics of the other run o (its
 * calls never gave a value of v's class: 0, negative, not 0, or an end of
 * the type, the answer of a range check that fired, ttdi_type_end)? */
static int failure_of(const ttdi_rstat *s, int o, const ttf_vtype *ty, uint64_t v,
                      uint64_t other)
{
    int end = ttdi_type_end(ty, v);
    v = ttf_value_norm(v, ty);
    other = ttf_value_norm(other, ty);
    if (!s->n[o])
        return 0;
    if (end && ttdi_type_end(ty, other) != end && (end < 0 ? s->lo[o] : s->hi[o]) == 0)
        return 1;
    if (v == 0 && other != 0)
        return s->zero[o] == 0;
    if (ty->cls == TTF_VC_SIGNED && (int64_t)v < 0 && (int64_t)other >= 0)
        return s->neg[o] == 0;
    return v != 0 && other == 0 && s->zero[o] == s->n[o];
}

int ttdi_replay_failure(const ttdi_replay *rp, const ttdi_xcall *x, uint32_t *calls)
{
    const ttf_vtype *ty = x->sig ? &x->sig->ret : NULL;

    if (!ty || !x->returned || (ty->cls != TTF_VC_SIGNED && ty->cls != TTF_VC_UNSIGNED) ||
        !rp->rscap)
        return -1;
    const ttdi_rstat *s = rstat_find(rp, x->key);
    if (!s)
        return -1;
    int run = failure_of(s, TTD_GOOD, ty, x->ret[1], x->ret[0]) ? TTD_BAD
              : failure_of(s, TTD_BAD, ty, x->ret[0], x->ret[1]) ? TTD_GOOD : -1;
    if (calls && run >= 0)
        *calls = s->n[!run];
    return run;
}

/* ---- comparing ------------------------------------------------------------- */

/* The noise-set key of a value slot, as values.c makes it. */
static int baseline_noise(const ttdi_replay *rp, uint64_t key, int slot)
{
    return rp->noise && ttdi_openset_count(rp->noise, ttdi_value_slot_key(key, slot));
}

/* Why a difference at slot (-1 return) of function key is noise, 0 if not;
 * gev, ev: the good and the bad run's events of the value. */
static int noise_of(ttdi_replay *rp, uint64_t key, int slot, const ttf_vtype *ty,
                    uint64_t g, uint64_t b, const ttf_event *gev, const ttf_event *ev)
{
    if (baseline_noise(rp, key, slot))
        return TTDI_NOISE_BASELINE;
    int why = ttdi_value_noise(ty, g, b, slot < 0 ? ttdi_norm_func(rp->norm[1], ev) : NULL,
                               slot < 0);
    const ttf_process *pg = ttf_get_process(rp->norm[0]->trace),
                      *pb = ttf_get_process(rp->norm[1]->trace);
    int64_t pid[2] = {pg ? pg->pid : 0, pb ? pb->pid : 0};
    if (!why && ttdi_own_pid(ty, g, b, pid))
        why = TTDI_NOISE_CLOCK;
    const ttf_trace *t[2] = {rp->norm[0]->trace, rp->norm[1]->trace};
    uint64_t clk[2][2] = {{ttf_monotonic_ns(t[0], gev->time_ns), ttf_monotonic_ns(t[1], ev->time_ns)},
                          {ttf_realtime_ns(t[0], gev->time_ns), ttf_realtime_ns(t[1], ev->time_ns)}};
    if (!why && (ttdi_time_like(ty, g, b, clk[0]) || ttdi_float_time_like(ty, g, b, clk)))
        why = TTDI_NOISE_CLOCK;
    return why;
}

/* Frame f saw a noisy value (g, b) for reason why: what is computed from
 * it alone is noise too (taint), unless the reason is the baselines. */
static void remember(ttdi_rframe *f, uint64_t g, uint64_t b, int why)
{
    if (why == TTDI_NOISE_BASELINE)
        return;     /* the good runs vary there, and so would what follows
                       from it: the baselines say so slot by slot */
    f->nz[f->nnz % NZ][0] = g;
    f->nz[f->nnz % NZ][1] = b;
    f->nnz = (uint8_t)(f->nnz + 1 < 255 ? f->nnz + 1 : NZ);
    f->noise_why = (uint8_t)why;
}

/* Is (g, b) a noisy value frame f saw (a callee's result or its own
 * argument)? Its reason, else 0: a value passed on from noise is noise. */
static int derived(const ttdi_rframe *f, uint64_t g, uint64_t b)
{
    size_t n = f->nnz < NZ ? f->nnz : NZ;
    for (size_t i = 0; f && i < n; i++)
        if (f->nz[i][0] == g && f->nz[i][1] == b)
            return f->noise_why ? f->noise_why : TTDI_NOISE_CLOCK;
    return 0;
}

/* Why argument i of frame f (parameter p), a string or (agg) a small
 * struct that differs, is noise: the baselines say so, or the struct is
 * a clock reading in both runs (a timespec: ttdi_struct_arg_time); else 0. */
static int content_noise(ttdi_replay *rp, const ttdi_rframe *f, const ttf_param *p, int i,
                         int agg)
{
    if (baseline_noise(rp, f->key, i))
        return TTDI_NOISE_BASELINE;
    return agg && ttdi_struct_arg_time(rp->norm[0], rp->norm[1], p, &f->ev[0], &f->ev[1])
               ? TTDI_NOISE_CLOCK : 0;
}

/* Compare the arguments of a frame entered in step (its caller: up, NULL
 * at the top). 0 or a TT_E* code. */
static int compare_args(ttdi_replay *rp, ttdi_rframe *f, ttdi_rframe *up)
{
    const ttf_signature *sig = f->sig;

    for (size_t i = 0; sig && i < sig->nparams && i < TTDI_MAXP; i++) {
        const ttf_param *p = &sig->params[i];
        ttf_string s0, s1;
        int str = p->reg >= 0 && ttdi_arg_strings(sig, i, &f->ev[0], &f->ev[1], &s0, &s1);
        int agg = p->reg >= 0 && !str && p->type.fields && !p->byref;  /* a small struct */
        if (p->reg < 0 || (!str && !agg && !ttf_value_comparable(&p->type)))
            continue;
        uint64_t g = f->ev[0].argregs[p->reg], b = f->ev[1].argregs[p->reg];
        rp->compared++;
        if (str ? ttdi_strings_same(rp->norm[0], rp->norm[1], &s0, &s1)
            : agg ? !ttdi_struct_differs(rp->norm[0], rp->norm[1], p, p, &f->ev[0], &f->ev[1])
                : !ttdi_value_differs(rp->norm[0], rp->norm[1], &p->type, g, b,
                                      f->ev[0].time_ns, f->ev[1].time_ns))
            continue;
        int why = frame_times(rp, f);   /* (noise_of reads them) */
        if (why < 0)
            return why;
        if (str || agg) {   /* by content */
            g = str ? ttdi_string_hash(&s0) : ttdi_struct_hash(p, &f->ev[0]);
            b = str ? ttdi_string_hash(&s1) : ttdi_struct_hash(p, &f->ev[1]);
            why = content_noise(rp, f, p, (int)i, agg);
        } else {
            why = noise_of(rp, f->key, (int)i, &p->type, g, b, &f->ev[0], &f->ev[1]);
            if (!why && up)
                why = derived(up, g, b);
        }
        if (up && up->noisy.why && up->noisy.ret[0] == g && up->noisy.ret[1] == b)
            up->noisy.used = (uint8_t)(up->noisy.used + (up->noisy.used < 255)); /* passed on */
        if (!why) {
            f->argdiff |= (uint16_t)(1u << i);
            f->real_in = 1;
            continue;
        }
        if (!f->argnoisy)
            f->argwhy = (uint8_t)why;
        f->argnoisy |= (uint16_t)(1u << i);
        remember(f, g, b, why);
        rp->ignored++;
    }
    return 0;
}

/* One function's signature and clone kind, by its ENTER key, and what
 * compare_args does with its parameters decided once from the signature
 * (as values.c's plans: ttdi_vop): an ENTER pair whose operations all
 * answer "the same", with no parameter compared as a string, is what
 * compare_args answers when nothing differs (`compared` grows by the
 * parameters it compares, nothing else changes); any difference, strings
 * on both sides where a parameter may be one, a signature the operations
 * cannot hold: compare_args from the start. */
#define RPLAN_OPS 16
enum { RPLAN_SLOW, RPLAN_OPS_ };

int ttdi_replay_plans_off;
uint64_t ttdi_replay_planned, ttdi_replay_shared;

typedef struct ttdi_rsig {
    uint64_t key;               /* 0: empty */
    const ttf_signature *sig;
    uint8_t clone;
    uint8_t plan;               /* RPLAN_* */
    uint8_t strings;            /* a parameter may be compared as a string */
    uint8_t nops;
    uint32_t counted;           /* the parameters compare_args compares */
    ttdi_vop op[RPLAN_OPS];
    const ttdi_vop *vop;        /* the values walk's plan found to have these
                                   operations (ttdi_vsame op and version), */
    uint32_t vversion;          /*   NULL: none yet */
    const ttdi_vop *rvop;       /* ... and one found to compare the result as */
    uint32_t rversion;          /*   exit_frame does (ret_same_as_values) */
} ttdi_rsig;

#define RSIG 1024               /* cache slots (a power of two) */

/* compare_args' operations for signature sig into c (its plan). */
static void plan_args(ttdi_rsig *c, const ttf_signature *sig)
{
    c->plan = RPLAN_SLOW;
    c->strings = 0;
    c->nops = 0;
    c->counted = 0;
    c->vop = c->rvop = NULL;
    for (size_t i = 0; sig && i < sig->nparams && i < TTDI_MAXP; i++) {
        const ttf_param *p = &sig->params[i];
        if (p->reg < 0)
            continue;
        if (p->reg < TTF_VALUE_REGS && !(p->name[0] == 't' && !strcmp(p->name, "this")))
            c->strings = 1;     /* ttdi_arg_strings may take it */
        int agg = p->type.fields && !p->byref;
        if (!agg && !ttf_value_comparable(&p->type))
            continue;           /* not compared, not counted */
        c->counted++;
        if (agg ? ttdi_vop_struct_arg(c->op, &c->nops, RPLAN_OPS, p, p) < 0
                : p->reg >= TTF_VALUE_SLOTS || c->nops >= RPLAN_OPS)
            return;
        if (!agg)
            c->op[c->nops++] = ttdi_vop_scalar(&p->type, p->reg, p->reg, 0);
    }
    c->plan = RPLAN_OPS_;
}

/* compare_args of frame f by the plan c of its signature: 0 when every
 * argument it compares is the same (rp->compared moved on as compare_args
 * would), 1 when compare_args must answer (nothing changed). */
static int args_planned(ttdi_replay *rp, const ttdi_rsig *c, const ttdi_rframe *f)
{
    const ttf_event *g = &f->ev[0], *b = &f->ev[1];

    if (!c || c->plan != RPLAN_OPS_ || c->sig != f->sig || ttdi_replay_plans_off ||
        (c->strings && g->strs_len && b->strs_len))
        return 1;
    for (unsigned i = 0; i < c->nops; i++) {
        const ttdi_vop *o = &c->op[i];
        if (ttdi_vop_differs(o, rp->norm[0], rp->norm[1], g->argregs[o->rg] >> o->sh,
                             b->argregs[o->rb] >> o->sh, g->time_ns, b->time_ns))
            return 1;
    }
    rp->compared += c->counted;
    ttdi_replay_planned++;
    return 0;
}

/* Does the values walk's plan v make plan c's comparisons: the same
 * operations (registers, shift, type and rule), string rule and count? */
static int plan_is_values(const ttdi_rsig *c, const ttdi_vsame *v)
{
    if (v->nops != c->nops || v->counted != c->counted || v->strings != c->strings)
        return 0;
    for (unsigned i = 0; i < c->nops; i++) {
        const ttdi_vop *a = &v->op[i], *b = &c->op[i];
        if (a->kind != b->kind || a->mask != b->mask || a->ty != b->ty || a->rg != b->rg ||
            a->rb != b->rb || a->sh != b->sh || a->sign != b->sign)
            return 0;
    }
    return 1;
}

/* args_planned's answer "the same" for frame f by plan c, taken from the
 * values walk's for the same pair (rp->same, the prefix replay's step):
 * its operations all answered "the same", and they are c's (asked once
 * per plan of each: c keeps the one found), on the same events (the same
 * normalisers, registers and times), with the same string rule (both
 * plans send a pair with strings to their slow comparison alike) and
 * count. 1 with rp->compared moved on as args_planned would, else 0
 * (nothing changed). */
static int args_same_as_values(ttdi_replay *rp, ttdi_rsig *c, const ttdi_rframe *f)
{
    const ttdi_vsame *v = rp->same;

    if (!v || !v->op || v->kind != TTF_EV_ENTER || !c || c->plan != RPLAN_OPS_ ||
        c->sig != f->sig || ttdi_replay_plans_off)
        return 0;
    if (c->vop != v->op || c->vversion != v->version) {
        if (!plan_is_values(c, v))
            return 0;
        c->vop = v->op;
        c->vversion = v->version;
    }
    rp->compared += c->counted;
    ttdi_replay_planned++;
    ttdi_replay_shared++;
    return 1;
}

/* The signature of the bad run's ENTER s (NULL if unknown, or a clone
 * whose registers are not its values) and its clone kind, into f: asked
 * per matched call, so kept per function key (a direct-mapped cache: a
 * collision only asks again). Its cache slot (with the plan of its
 * arguments), or NULL. */
static ttdi_rsig *signature_of(ttdi_replay *rp, const rside *s, ttdi_rframe *f)
{
    ttdi_rsig *c = NULL;

    if (!rp->sc.slot)
        ttdi_dmcache_reset(&rp->sc, RSIG, sizeof(ttdi_rsig));
    if (rp->sc.slot && s->key) {
        c = ttdi_dmcache_slot(&rp->sc, s->key ^ s->key >> 17);
        if (c->key == s->key) {
            f->sig = c->sig;
            f->clone = c->clone;
            return c;
        }
    }
    if (s->ev.site || ttf_sym_signature(s->norm->sym, &s->ev, &f->sig) != 0)
        f->sig = NULL;
    f->clone = f->sig ? (uint8_t)ttdi_clone_name(ttdi_norm_func(s->norm, &s->ev)) : 0;
    if (f->clone == 2)
        f->sig = NULL;      /* neither its registers nor rax are its values */
    if (c) {
        c->key = s->key;
        c->sig = f->sig;
        c->clone = f->clone;
        plan_args(c, f->sig);
    }
    return c;
}

/* A matched ENTER: push on both sides, compare the arguments (by the
 * signature's plan when it answers, else compare_args). */
static int enter_pair(ttdi_replay *rp, rside *const s[2])
{
    int rc;

    if ((rc = push(rp, 0, s[0])) < 0 || (rc = push(rp, 1, s[1])) < 0)
        return rc;
    ttdi_rframe *f = &rp->st[1][rp->nst[1] - 1];
    f->matched = 1;
    f->enter[0] = s[0]->idx;
    f->ev[0] = s[0]->ev;
    f->skipped |= (uint8_t)!ttdi_walk_timed(s[0]);
    ttdi_rsig *c = signature_of(rp, s[1], f);
    if (f->sig && !f->clone && s[0]->ev.has_values && s[1]->ev.has_values &&
        !args_same_as_values(rp, c, f) && args_planned(rp, c, f) &&
        (rc = compare_args(rp, f, rp->nst[1] > 1 ? &rp->st[1][rp->nst[1] - 2] : NULL)) < 0)
        return rc;
    return f->argdiff ? ensure(rp, rp->nst[1] - 1) : 0;
}

/* A result (g, b) of function key into its statistics: failure-looking
 * values for any type, the clock's for integers. 0 or TT_ENOMEM. */
static int count_ret(ttdi_replay *rp, uint64_t key, const ttf_vtype *ty, uint64_t g,
                     uint64_t b)
{
    int eg = ttdi_value_error(ty, g) == 1, eb = g == b ? eg : ttdi_value_error(ty, b) == 1;
    int ints = ty->cls == TTF_VC_SIGNED || ty->cls == TTF_VC_UNSIGNED;
    if (!ints && !eg && !eb)
        return 0;
    ttdi_rstat *st = rstat(rp, key);
    if (!st)
        return TT_ENOMEM;
    st->errs[0] |= (uint8_t)eg;
    st->errs[1] |= (uint8_t)eb;
    if (!ints)
        return 0;
    /* (a pure function of the raw value: asked once when the runs agree) */
    uint64_t ng = ttf_value_norm(g, ty), nb = g == b ? ng : ttf_value_norm(b, ty);
    int end = ttdi_type_end(ty, ng);
    rstat_add(st, 0, ng, ty, end);
    rstat_add(st, 1, nb, ty, g == b ? end : ttdi_type_end(ty, nb));
    return 0;
}

/* Why frame f's differing result (g, b) is noise, 0 if it is not: noise
 * by its look or the baselines, a clock so far (it grew from call to call),
 * or computed from noisy inputs only (a duration from two time stamps). */
static int ret_noise(ttdi_replay *rp, const ttdi_rframe *f, const ttf_vtype *ty,
                     uint64_t g, uint64_t b, const ttf_event *gev, const ttf_event *ev)
{
    int why = noise_of(rp, f->exit_key, -1, ty, g, b, gev, ev);

    if (why)
        return why;
    if (ty->cls == TTF_VC_SIGNED || ty->cls == TTF_VC_UNSIGNED) {
        const ttdi_rstat *st = rstat(rp, f->key);
        if (st && clock_like(st))
            return TTDI_NOISE_CLOCK;
    }
    return f->noise_why && !f->real_in ? f->noise_why : 0;
}

/* A small struct result of frame f (fi on the bad side) in the EXITs of
 * s: 1 if a field differs and no baseline calls it noise. */
static int struct_ret_diff(ttdi_replay *rp, size_t fi, rside *const s[2])
{
    const ttdi_rframe *f = &rp->st[1][fi];
    rp->compared++;
    if (!ttdi_struct_ret_differs(rp->norm[0], rp->norm[1], f->sig, f->sig, &s[0]->ev, &s[1]->ev))
        return 0;
    if (baseline_noise(rp, f->key, -1)) {   /* by content: noise only from baselines */
        rp->ignored++;
        return 0;
    }
    if (fi > 0)
        rp->st[1][fi - 1].real_in = 1;
    return 1;
}

/* A result (g, b) of type ty that differed as a clock, of the call whose
 * ENTER was ev, returned by the EXITs of s: kept in the ring of the last
 * readings (timeouts.c's deadlines). An integer, or a double (its raw
 * bits). */
static void clock_read(ttdi_replay *rp, const ttf_vtype *ty, uint64_t g, uint64_t b,
                       const ttf_event *ev, rside *const s[2])
{
    int fl = ty->cls == TTF_VC_FLOAT && ty->size == 8;
    if (!fl && ty->cls != TTF_VC_SIGNED && ty->cls != TTF_VC_UNSIGNED)
        return;
    rp->clk[rp->nclk++ % TTDI_CLOCKS] = (ttdi_clockread){
        {fl ? g : ttf_value_norm(g, ty), fl ? b : ttf_value_norm(b, ty)}, s[1]->idx,
        {s[0]->ev.time_ns, s[1]->ev.time_ns}, ev->addr, ev->time_ns, (uint8_t)fl};
}

/* exit_frame's answer "the same" for the results (g, b) of frame f by
 * type ty, taken from the values walk's for the same EXIT pair (rp->same,
 * the prefix replay's step): it compared them by one operation, the
 * result as ty by value (not by a comparator's sign: values that are the
 * same have the same sign, so either way of exit_frame's answers "the
 * same"), from the registers exit_frame reads (ttf_value_ret by f's
 * signature). Asked once per plan: f's signature cache slot keeps the one
 * found. */
static int ret_same_as_values(ttdi_replay *rp, const ttdi_rframe *f, const ttf_vtype *ty)
{
    const ttdi_vsame *v = rp->same;

    if (!v || !v->op || v->kind != TTF_EV_EXIT || v->sign || v->nops != 1 ||
        ttdi_replay_plans_off || !rp->sc.slot)
        return 0;
    ttdi_rsig *c = ttdi_dmcache_slot(&rp->sc, f->key ^ f->key >> 17);
    if (c->key != f->key || c->sig != f->sig)
        return 0;
    if (c->rvop == v->op && c->rversion == v->version)
        return 1;
    int r = f->sig->ret_xmm ? TTDI_VOP_RETXMM : TTDI_VOP_RETVAL;
    ttdi_vop o = ttdi_vop_scalar(ty, r, r, 0);
    const ttdi_vop *a = v->op;
    if (a->ty != ty || a->kind != o.kind || a->mask != o.mask || a->rg != r || a->rb != r ||
        a->sh != 0)
        return 0;
    c->rvop = v->op;
    c->rversion = v->version;
    return 1;
}

/* Compare the return values of the frame fi of the bad side, closed by a
 * matched EXIT; keep a node if they differ. */
static int exit_frame(ttdi_replay *rp, size_t fi, rside *const s[2], int sign)
{
    ttdi_rframe *f = &rp->st[1][fi];
    const ttf_signature *sig = f->sig;
    int diff = 0, why = 0, rc;
    uint64_t g = s[0]->ev.retval, b = s[1]->ev.retval, rg, rb;
    int rec = sig && ttf_value_ret(sig, &s[0]->ev, &rg) && ttf_value_ret(sig, &s[1]->ev, &rb);
    if (rec) {
        g = rg;                 /* xmm0 for a float or double */
        b = rb;
    }
    if (f->matched && rec && ttf_value_comparable(&sig->ret)) {
        rp->compared++;
        if (count_ret(rp, f->key, &sig->ret, g, b) < 0)
            return TT_ENOMEM;
        diff = ret_same_as_values(rp, f, &sig->ret) ? 0 :
               sign && sig->ret.cls == TTF_VC_SIGNED ? ttdi_sign_differs(&sig->ret, g, b) :
               ttdi_value_differs(rp->norm[0], rp->norm[1], &sig->ret, g, b,
                                  s[0]->ev.time_ns, s[1]->ev.time_ns);
        if (diff && ((rc = step_times(s)) < 0 || (rc = frame_times(rp, f)) < 0))
            return rc;          /* (the noise rules and what is kept read them) */
        if (diff)
            why = ret_noise(rp, f, &sig->ret, g, b, &s[0]->ev, &s[1]->ev);
        if (why)
            rp->ignored++;
        if (why == TTDI_NOISE_CLOCK)
            clock_read(rp, &sig->ret, g, b, &f->ev[1], s);
        if (why && fi > 0) {
            remember(&rp->st[1][fi - 1], g, b, why);
            rp->st[1][fi - 1].noisy = (ttdi_xnoisy){f->ev[1].addr, f->ev[1].time_ns, s[1]->idx,
                                                    s[1]->ev.time_ns, s[0]->ev.time_ns, {g, b},
                                                    sig, (uint8_t)why, 0};
        }
        else if (diff && fi > 0)
            rp->st[1][fi - 1].real_in = 1;
        diff = diff && !why;
    } else if (f->matched && ttdi_ret_struct(sig)) {
        diff = struct_ret_diff(rp, fi, s);
    }
    if (diff && (rc = ensure(rp, fi)) < 0)
        return rc;
    f = &rp->st[1][fi];
    if (f->node < 0)
        return 0;
    if ((rc = step_times(s)) < 0)
        return rc;
    ttdi_xcall *x = &rp->c[f->node];
    x->exit_idx = s[1]->idx;
    x->exit_ns = s[1]->ev.time_ns;
    x->gexit_idx = s[0]->idx;
    x->gexit_ns = s[0]->ev.time_ns;
    x->returned = (uint8_t)(f->matched != 0);
    x->ret[0] = g;
    x->ret[1] = b;
    x->retx[0] = s[0]->ev.retxmm;
    x->retx[1] = s[1]->ev.retxmm;
    x->retdiff = (uint8_t)diff;
    return 0;
}

/* A function's comparator kind in one run (ttdi_cmp_kind) by its
 * address. */
typedef struct rcmpk {
    uint64_t addr1;             /* its address + 1, 0: empty */
    unsigned kind;
} rcmpk;

#define RCMPK 512               /* cache slots (a power of two) */

/* ttdi_cmp_kind of EXIT ev of side k (with values, no site), kept per
 * function address: asked once per EXIT of every matched pair, the kind
 * is one per address and run once asked (values.c's cmps). */
static unsigned cmp_kind(ttdi_replay *rp, int k, const ttf_event *ev)
{
    rcmpk *c = NULL;

    if (!rp->cmpk[k].slot)
        ttdi_dmcache_reset(&rp->cmpk[k], RCMPK, sizeof(rcmpk));
    if (rp->cmpk[k].slot) {
        c = ttdi_dmcache_slot(&rp->cmpk[k], ev->addr >> 4 ^ ev->addr >> 13);
        if (c->addr1 == ev->addr + 1)
            return c->kind;
    }
    unsigned kind = ttdi_cmp_kind(rp->norm[k], ev);
    if (c)
        *c = (rcmpk){ev->addr + 1, kind};
    return kind;
}

/* EXIT ev of side k: 1 if it returned a comparator's result; noted as
 * the side's last (values.c's rule, ttdi_cmp_result). */
static int note_exit(ttdi_replay *rp, int k, const ttf_event *ev)
{
    const ttdi_vlast *last = &rp->last[k];
    int c = 0;
    if (ttdi_replay_plans_off) {
        c = ttdi_cmp_result(rp->norm[k], ev, last);
    } else if (rp->norm[k] && ev->kind == TTF_EV_EXIT && !ev->site && ev->has_values) {
        unsigned kind = cmp_kind(rp, k, ev);
        c = (kind & TTF_CMPRET_SIGN) ||
            ((kind & TTF_CMPRET_RELAY) && last->cmp && last->depth == ev->depth + 1 &&
             (uint32_t)last->ret == (uint32_t)ev->retval);
    }
    rp->last[k] = (ttdi_vlast){ev->retval, ev->depth, c};
    return c;
}

/* A frame of the bad side entered alone (inside a hunk): no good run's
 * ENTER (what ensure and frame_times read of it cleared). */
static void lone_frame(ttdi_rframe *f)
{
    f->matched = 0;
    f->ev[0].time_ns = 0;
    f->ev[0].has_values = 0;
    f->ev[0].strs = NULL;
    f->ev[0].strs_len = 0;
    memset(f->ev[0].argregs, 0, sizeof f->ev[0].argregs);
}

/* One event of side `side` alone (inside a hunk): its own stack only. */
static void lone(ttdi_replay *rp, int side, const rside *s)
{
    if (s->ev.kind == TTF_EV_EXIT)
        note_exit(rp, side, &s->ev);
    if (s->ev.kind == TTF_EV_ENTER) {
        if (push(rp, side, s) == 0 && side == 1)
            lone_frame(&rp->st[1][rp->nst[1] - 1]);
    } else if (s->ev.kind == TTF_EV_EXIT) {
        long i = find_open(rp, side, s->key);
        if (i >= 0)
            rp->nst[side] = (size_t)i;
    }
}

/* A matched pair of events. */
static int pair_step(ttdi_replay *rp, rside *const s[2])
{
    rp->rd[0] = s[0];
    rp->rd[1] = s[1];
    if (s[1]->ev.kind == TTF_EV_ENTER)
        return enter_pair(rp, s);
    if (s[1]->ev.kind != TTF_EV_EXIT)
        return 0;
    long g = find_open(rp, 0, s[0]->key), b = find_open(rp, 1, s[1]->key);
    int rc = 0, cg = note_exit(rp, 0, &s[0]->ev), cb = note_exit(rp, 1, &s[1]->ev);
    if (b >= 0)
        rc = exit_frame(rp, (size_t)b, s, cg && cb);
    if (g >= 0)
        rp->nst[0] = (size_t)g;
    if (b >= 0)
        rp->nst[1] = (size_t)b;
    return rc;
}

/* ev, the next record of the side ws belongs to, ends the open wait, and
 * a SLEEP opens one. A wait's end is that record, at the latest it can
 * have been: an untimed EXIT of the sparse clock never shortens it, so a
 * wait that ran to its timeout is not taken as woken early. 0 or
 * TT_ENOMEM. */
static int ttdi_waits_see(ttdi_waits *ws, const ttf_event *ev)
{
    if (ws->open) {
        ttdi_wait *o = &ws->w[ws->open - 1];
        uint64_t end = ttf_event_late_ns(ev);
        o->blocked = end > o->t ? end - o->t : 0;
        ws->open = 0;
    }
    if (ev->kind != TTF_EV_SYNC_OP || ev->code != TTF_SOP_SLEEP || ws->n >= TTDI_WAITS)
        return 0;
    if (!ws->w && !(ws->w = malloc(TTDI_WAITS * sizeof *ws->w)))
        return TT_ENOMEM;
    ws->w[ws->n] = (ttdi_wait){ev->time_ns, (uint64_t)ev->sync_arg, UINT64_MAX};
    ws->open = ++ws->n;
    return 0;
}

/* Next event of side `side` that takes part, as ttdi_walk_next_key; every
 * record read on the way goes to the side's waits (timeouts.c), SLEEPs
 * only there (the walk asks for them: sleeps), and every ENTER to cc
 * (NULL: none). */
static int rnext(ttdi_replay *rp, int side, rside *w, ttdi_ccount *cc)
{
    ttdi_waits *ws = &rp->waits[side];
    int rc;

    while ((rc = ttdi_walk_next(w)) > 0) {
        int sync = w->ev.kind == TTF_EV_SYNC_OP;
        if (cc && w->ev.kind == TTF_EV_ENTER && ttdi_ccount_add(cc, &w->ev) < 0)
            return TT_ENOMEM;
        if ((ws->open || (sync && ws->n < TTDI_WAITS)) && (rc = ttdi_walk_times(w, 0)) < 0)
            return rc;          /* a wait's times (a walk that skipped them) */
        if ((ws->open || sync) && ttdi_waits_see(ws, &w->ev) < 0)
            return TT_ENOMEM;
        if (sync && TTDI_SOP_ASIDE(w->ev.code))
            continue;
        if ((rc = ttdi_walk_take(w, &w->key)) != 0)
            return rc;
    }
    return rc;
}

/* Is the bad side at or past the stop? */
static int at_stop(const ttdi_replay *rp, const rside *b)
{
    return b->idx >= rp->stop || b->ev.time_ns > rp->stop_ns;
}


int ttdi_replay_next(ttdi_replay *rp, int side, ttdi_walk *w, ttdi_ccount *cc)
{
    return rnext(rp, side, w, cc);
}

/* Skip the hunks starting at the sides' positions, replaying their events
 * on each side's own stack. 1 to go on, 0 at an end or the stop, <0 on
 * error. */
static int skip(ttdi_replay *rp, rside *const s[2], size_t *hi, int *stopped)
{
    int rc = 1;

    while (rc > 0 && *hi < rp->nh &&
           (s[0]->idx >= rp->h[*hi].a0 || s[1]->idx >= rp->h[*hi].b0)) {
        const ttdi_hunk *h = &rp->h[(*hi)++];
        while (rc > 0 && s[0]->idx < h->a1) {
            lone(rp, 0, s[0]);
            rc = rnext(rp, 0, s[0], NULL);
        }
        while (rc > 0 && s[1]->idx < h->b1 && !at_stop(rp, s[1])) {
            lone(rp, 1, s[1]);
            rc = rnext(rp, 1, s[1], NULL);
        }
        if (rc > 0 && at_stop(rp, s[1])) {
            *stopped = 1;
            return 0;
        }
    }
    return rc;
}

/* The nodes of the bad stack at the stop. */
static int stop_path(ttdi_replay *rp)
{
    int rc;

    if (rp->nst[1] && (rc = ensure(rp, rp->nst[1] - 1)) < 0)
        return rc;
    rp->path = malloc((rp->nst[1] + 1) * sizeof *rp->path);
    rp->pnoisy = malloc((rp->nst[1] + 1) * sizeof *rp->pnoisy);
    if (!rp->path || !rp->pnoisy)
        return TT_ENOMEM;
    for (size_t i = 0; i < rp->nst[1]; i++) {
        rp->path[i] = rp->st[1][i].node;
        rp->pnoisy[i] = rp->st[1][i].noisy;
    }
    rp->npath = rp->nst[1];
    return 0;
}

/* The walk from where both sides stand (resume: their events read, as a
 * prefix replay left them) or from the start. */
static int walk(ttdi_replay *rp, rside *const s[2], int resume)
{
    size_t hi = 0;
    int rc = 1, stopped = 0;

    for (;; resume = 0) {
        if (!resume &&
            ((rc = rnext(rp, 0, s[0], NULL)) <= 0 || (rc = rnext(rp, 1, s[1], NULL)) <= 0))
            break;
        if (at_stop(rp, s[1]))
            return 0;
        if ((rc = skip(rp, s, &hi, &stopped)) <= 0)
            break;
        if (at_stop(rp, s[1]))
            return 0;
        if (s[0]->key != s[1]->key)
            break;              /* out of step: stop rather than guess */
        if ((rc = pair_step(rp, s)) < 0)
            return rc;
    }
    if (rc == 0 && !stopped)
        rp->ended = 1;
    return rc < 0 ? rc : 0;
}

/* ---- the prefix, replayed by align's values walk ----------------------------- */

int ttdi_replay_prefix_off;
uint64_t ttdi_replay_resumed;

int ttdi_rprefix_start(ttdi_rprefix **out, ttdi_norm *ng, ttdi_norm *nb, uint32_t tg,
                       uint32_t tb)
{
    ttdi_rprefix *pre = calloc(1, sizeof *pre);

    *out = pre;
    if (!pre)
        return TT_ENOMEM;
    pre->rp.norm[0] = ng;
    pre->rp.norm[1] = nb;
    pre->rp.thread[0] = tg;
    pre->rp.thread[1] = tb;
    pre->rp.stop = pre->rp.stop_ns = UINT64_MAX;
    return new_node(&pre->rp, -1) < 0 ? TT_ENOMEM : 0;
}

/* Would the step of the pair g, b ask the bad run's symbols for a
 * signature the values walk did not ask for just before (values.c's
 * compare_pair asks only for an event with values on both sides whose
 * good signature is known)? An ENTER whose signature is not in the cache
 * and is not such an event: its first ask may add a notice (a function
 * with no DWARF entry, a module with no DWARF: ttf_sym_signature), which
 * a replay from the start makes only when the explain stage runs it. */
static int asks_new(const ttdi_replay *rp, const ttdi_walk *g, const ttdi_walk *b)
{
    const ttf_signature *sig;

    if (b->ev.kind != TTF_EV_ENTER || b->ev.site)
        return 0;
    if (rp->sc.slot && b->key) {
        const ttdi_rsig *c = ttdi_dmcache_slot(&rp->sc, b->key ^ b->key >> 17);
        if (c->key == b->key)
            return 0;
    }
    return g->ev.site || !g->ev.has_values || !b->ev.has_values ||
           ttf_sym_signature(g->norm->sym, &g->ev, &sig) != 0;
}

int ttdi_rprefix_pair(ttdi_rprefix *pre, ttdi_walk *g, ttdi_walk *b, const ttdi_vsame *same)
{
    ttdi_walk *const s[2] = {g, b};
    int rc;

    if (asks_new(&pre->rp, g, b)) {     /* the prefix replay ends here */
        rc = ttdi_rprefix_hold(pre, g, b, 1, 1);
        return rc < 0 ? rc : 1;
    }
    pre->n = b->idx + 1;
    pre->max_ns = b->ev.time_ns > pre->max_ns ? b->ev.time_ns : pre->max_ns;
    pre->last_off = b->ev.offset;
    pre->last_kind = b->ev.kind;
    pre->last_skipped = !ttdi_walk_timed(b);
    pre->rp.same = same;
    rc = pair_step(&pre->rp, s);
    pre->rp.same = NULL;
    return rc;
}

/* Where the prefix replay ends (g, b: its walks), what it keeps its exact
 * times: the open calls' ENTERs (the explain stage's replay goes on from
 * them) and the latest bad time among its pairs, the last pair's (times
 * never go back in a thread: format's untimed.c; the others' read
 * without times are their earliest bounds, below it). 0 or a TT_E*
 * code. */
static int prefix_times(ttdi_rprefix *pre, ttdi_walk *g, ttdi_walk *b)
{
    int rc = 0;

    pre->rp.rd[0] = g;
    pre->rp.rd[1] = b;
    for (size_t i = 0; i < pre->rp.nst[1] && rc >= 0; i++)
        rc = frame_times(&pre->rp, &pre->rp.st[1][i]);
    ttf_event last = {.offset = pre->last_off, .kind = pre->last_kind};
    if (rc >= 0 && pre->last_skipped && (rc = ttdi_walk_times_at(b, &last)) >= 0)
        pre->max_ns = last.time_ns > pre->max_ns ? last.time_ns : pre->max_ns;
    pre->rp.rd[0] = pre->rp.rd[1] = NULL;
    return rc < 0 ? rc : 0;
}

int ttdi_rprefix_hold(ttdi_rprefix *pre, ttdi_walk *g, ttdi_walk *b, int got_g, int got_b)
{
    int rc = prefix_times(pre, g, b);

    if (rc < 0 || !got_g || !got_b)
        return rc;              /* (a side ended: the replay's next read ends it) */
    if ((rc = ttdi_walk_clone(g, &pre->w[0])) < 0 || (rc = ttdi_walk_clone(b, &pre->w[1])) < 0)
        return rc;
    pre->held = 1;
    /* the replay goes on from there with times (clones that skipped them
       get them back) */
    for (int i = 0; i < 2 && rc >= 0; i++) {
        rc = ttdi_walk_times(&pre->w[i], 1);
        pre->w[i].from_ns = pre->w[i].ev.time_ns;
    }
    return rc < 0 ? rc : 0;
}

void ttdi_rprefix_free(ttdi_rprefix *pre)
{
    if (!pre)
        return;
    if (pre->held) {
        ttdi_walk_close(&pre->w[0]);
        ttdi_walk_close(&pre->w[1]);
    }
    ttdi_replay_free(&pre->rp);
    free(pre);
}

/* Does rp's walk read the prefix's pairs as the prefix replay did: all
 * before the stop and the first hunk, no noise set (align's values walk
 * has none)? */
static int prefix_fits(const ttdi_replay *rp, const ttdi_rprefix *pre)
{
    return pre && !rp->noise && pre->n <= rp->stop &&
           pre->max_ns <= rp->stop_ns &&
           (!rp->nh || (rp->h[0].a0 >= pre->n && rp->h[0].b0 >= pre->n));
}

/* n elements of size sz of from, in a new array of cap (>= n) elements
 * at *to. 0 or TT_ENOMEM. */
static int copy_array(void *to, const void *from, size_t n, size_t cap, size_t sz)
{
    void *p = cap ? malloc(cap * sz) : NULL;

    if (cap && !p)
        return TT_ENOMEM;
    if (n)
        memcpy(p, from, n * sz);
    *(void **)to = p;
    return 0;
}

/* rp's walk state and findings as the prefix replay left them (a copy:
 * the script is read-only), the same capacities (the node cap decides
 * when closed calls are dropped); the signature cache starts empty. */
static int copy_prefix(ttdi_replay *rp, const ttdi_replay *from)
{
    int rc = 0;

    rp->n = from->n;
    rp->cap = from->cap;
    rp->rsn = from->rsn;
    rp->rscap = from->rscap;
    rp->compared = from->compared;
    rp->ignored = from->ignored;
    rp->dropped = from->dropped;
    memcpy(rp->clk, from->clk, sizeof rp->clk);
    rp->nclk = from->nclk;
    for (int r = 0; r < 2 && rc >= 0; r++) {
        rp->nst[r] = from->nst[r];
        rp->stcap[r] = from->stcap[r];
        rc = copy_array(&rp->st[r], from->st[r], from->nst[r], from->stcap[r],
                        sizeof *from->st[r]);
        rp->waits[r].n = from->waits[r].n;
        rp->waits[r].open = from->waits[r].open;
        if (rc >= 0 && from->waits[r].w)
            rc = copy_array(&rp->waits[r].w, from->waits[r].w, from->waits[r].n, TTDI_WAITS,
                            sizeof *from->waits[r].w);
    }
    if (rc >= 0)
        rc = copy_array(&rp->c, from->c, from->n, from->cap, sizeof *from->c);
    if (rc >= 0)
        rc = copy_array(&rp->rs, from->rs, from->rsn, from->rscap, sizeof *from->rs);
    for (size_t i = 0; rc >= 0 && i < rp->rsn; i++) {
        uint64_t *ix = ttdi_map_put(&rp->rsmap, rp->rs[i].key, NULL);
        if (!ix)
            rc = TT_ENOMEM;
        else
            *ix = i;
    }
    return rc;
}

/* Both sides' walks from the start, or, when the prefix replay fits, its
 * state and walks: 1 resumed (*ended: a side ended in the prefix), 0 from
 * the start, or a TT_E* code. */
static int open_sides(ttdi_replay *rp, const ttdi_rprefix *pre, rside s[2], int *ended)
{
    int rc;

    if (!prefix_fits(rp, pre)) {
        if (new_node(rp, -1) < 0)
            return TT_ENOMEM;
        if ((rc = ttdi_walk_keyed(&s[0], rp->norm[0], rp->thread[0])) < 0 ||
            (rc = ttdi_walk_keyed(&s[1], rp->norm[1], rp->thread[1])) < 0)
            return rc;
        return 0;
    }
    ttdi_replay_resumed++;
    *ended = !pre->held;
    if ((rc = copy_prefix(rp, &pre->rp)) < 0)
        return rc;
    if (pre->held && ((rc = ttdi_walk_clone(&pre->w[0], &s[0])) < 0 ||
                      (rc = ttdi_walk_clone(&pre->w[1], &s[1])) < 0))
        return rc;
    return 1;
}

int ttdi_replay_run(ttdi_replay *rp, const ttdi_rprefix *pre)
{
    rside s[2];
    rside *const sp[2] = {&s[0], &s[1]};
    int ended = 0;

    memset(s, 0, sizeof s);
    int rc = open_sides(rp, pre, s, &ended);
    s[0].sleeps = s[1].sleeps = 1;  /* rnext keeps them apart */
    if (rc >= 0 && ended)
        rp->ended = 1;          /* the walk's next read ends it */
    else if (rc >= 0)
        rc = walk(rp, sp, rc);
    if (rc >= 0)
        rc = stop_path(rp);
    ttdi_walk_close(&s[0]);
    ttdi_walk_close(&s[1]);
    return rc < 0 ? rc : 0;
}

void ttdi_replay_free(ttdi_replay *rp)
{
    free(rp->c);
    free(rp->path);
    free(rp->pnoisy);
    rp->pnoisy = NULL;
    free(rp->st[0]);
    free(rp->st[1]);
    free(rp->rs);
    ttdi_map_free(&rp->rsmap);
    ttdi_dmcache_free(&rp->sc);
    ttdi_dmcache_free(&rp->cmpk[0]);
    ttdi_dmcache_free(&rp->cmpk[1]);
    for (int r = 0; r < 2; r++) {
        free(rp->waits[r].w);
        rp->waits[r] = (ttdi_waits){0};
    }
    rp->c = NULL;
    rp->path = NULL;
    rp->st[0] = rp->st[1] = NULL;
    rp->rs = NULL;
    rp->n = rp->cap = rp->npath = 0;
}
