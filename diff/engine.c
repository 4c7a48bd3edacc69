/*
 * engine.c - ttdiff's engine: pair the threads of two runs, normalise each
 * pair to keys, align them (as call trees: tree.c, talign.c; with --flat
 * as key sequences: align.c) and resolve the hunks into the plain structs
 * of ttdiff.h. It never prints.
 * Stage 4 engine of diff/STAGES: the top, on resolve.h.
 *
 * Design. Memory is the budget that matters (a trace may hold hundreds of
 * millions of events), so only one thread pair is held at a time: by
 * default as two call trees (24 bytes per call or other event, at most
 * 12 per event and side, and a repeated subtree stored once: about 5.5
 * on the mostly-equal 10M benchmark); with --flat as the 8-byte keys
 * past the common prefix: both threads are normalised in step and their
 * common prefix is compared on the fly, never stored (two identical runs
 * need no key memory).
 * Nothing points back into the trace: the k-th key is the k-th event that
 * passes the (deterministic) normaliser, so to show an event the engine
 * walks the thread again, applying the same filter, until it reaches k.
 * Those walks happen for a handful of windows (each hunk's first events,
 * the first divergence's context, stacks and the other threads' last
 * events) and stop as soon as the last wanted index is reached, so a report
 * costs about one more pass over the prefix of the run before the split:
 * that pass leaves marks (walker.c) where the later walks of the same
 * thread start: the timing scan's (align) for resolve's pass, the details
 * and the order checks (with one thread a run and values, the marks of
 * run walks read aside while the tree build reads in step, for resolve's
 * pass); the thread order's (interleave.c, run walks of
 * the threads nothing marked) for the details' other threads, so the
 * first divergence is detailed in two steps around the thread order.
 *
 * The first divergence is the hunk that starts earliest in the bad run's
 * time across all thread pairs: a thread that goes wrong first is more
 * likely the cause than one that merely reacts later. Its suspects come
 * from the same walk: a ring of the last common events before the split
 * gives the calls that returned there (see suspects.c).
 *
 * With baselines (more good runs) the good thread of a pair is aligned
 * with its partner in each baseline first, to learn where and in what good
 * runs vary, then with the bad thread; hunks that only show such variation
 * are marked expected and sorted after the real divergences, so the first
 * divergence is the first difference no good run shows. Two rules mark
 * them: by position (--flat: the pair is stored whole as key sequences,
 * seq.c, 8 bytes per event and side, 16 with the loop map; a hunk inside a
 * zone where the good runs differ, made of keys that differ there) and by
 * function (both aligners, fnoise.c: every event's context, its function
 * and caller, also differs between good runs, or was only displaced), so
 * a poll loop that ran longer at another place every time is noise too.
 * A hunk that only begins with such noise is split, the noise expected.
 * (--collapse-loops with --flat stores pairs whole as well.)
 * The tree aligner keeps the good tree and reloads the other side per
 * baseline; --first-only then reads whole threads.
 *
 * The files are stages (diff/STAGES, checked by make check-stages: it
 * draws the data flow), each with its header, a stage using only those
 * below it, and the engine runs them in that order: kit (kit.h: arrays,
 * maps, tables of records, fixed tables, direct-mapped caches, key
 * bitmaps, the open-frame multiset) and prepare (prepare.h: normalise.c,
 * regex.c, walker.c the one trace walker: run, raw and keyed walks;
 * pair.c, codediff.c)
 * -> align (align.h, tree.h; state.h: pair_align.c aligns one pair into
 * the script, pools.c, timing.c) -> resolve (resolve.h: walk.c the passes
 * over one thread; hunks.c and order.c the hunks resolved and ordered;
 * setup.c the run information and outcome; detail.c, lines.c and
 * suspects.c the details of one hunk; interleave.c, noise.c) -> explain
 * (explain.h: replay.c, explain.c, races.c) -> this file, the entry
 * points, on top.
 * No stage below sees struct ttd_diff: the align stage works on a
 * ttdi_aligner, every later stage takes a ttdi_in (the runs, the script as
 * const, the options, the arena) and returns a result of its own, which
 * the engine keeps apart (stage_out) and merges once, in merge(), the one
 * place ttd_result is written; the verdict is decided once, in verdict().
 * Result memory is one arena
 * (format/ttf_util.h). Above the engine, report/'s model (report/model.c)
 * builds every sentence of a report once from the const result.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codediff.h"
#include "explain.h"
#include "tree.h"

/* Each stage's result as the engine keeps it until merge() puts them all
 * into the result: the one place ttd_result is written. */
typedef struct stage_out {
    /* prepare */
    const ttd_unpaired *unpaired; /* threads left unpaired */
    size_t nunpaired;
    const ttd_run_info *baselines; /* the baseline runs' info */
    size_t nbaselines;
    const char *values_note;    /* why values are not compared, NULL */
    /* resolve */
    ttdi_resolved rs;           /* the hunks resolved and ordered */
    ttd_run_info runs[2];       /* both runs' info */
    int values;                 /* 1: values compared (some were) */
    uint64_t values_compared;   /* over all pairs */
    uint64_t values_noise;      /* differing ones varying between good runs */
    uint64_t values_twinned;    /* pool items hidden as another worker's twin */
    uint64_t values_times;      /* differing ones that are times (deadlines) */
    const ttd_value_diff *value_first; /* the earliest over all pairs */
    const char **siblings;      /* traces beside the good one */
    size_t nsiblings;
    ttd_divergence *first;      /* the first divergence (= detail[0]) */
    ttd_outcome outcome;        /* how the runs ended */
    /* explain */
    ttdi_explained xo;          /* chain, headline, suspects ranked again */
    const ttd_race *races;      /* the races, NULL */
    size_t nraces;
    const ttd_count *counts;    /* counts no good run had (counts.c) */
    size_t ncounts;
    const ttd_hang *hang;       /* the bad run hung (hang.c), NULL */
    /* the engine */
    int diverged;               /* the verdict (verdict()) */
} stage_out;

/* The engine's state: what it prepared, the script, the stages' input and
 * the result being merged. Only this file sees it (make check-stages). */
struct ttd_diff {
    ttdi_run_state r[2];    /* TTD_GOOD, TTD_BAD */
    ttd_options o;          /* options as given */
    ttd_regex *re[3];       /* --thread, --function, --exclude */
    ttdi_script s;          /* the script the align stage writes */
    ttdi_base *base;        /* baseline good runs (open while aligning) */
    size_t nbase;           /* baselines open */
    int full;               /* 1: pairs are stored whole (baselines, loops) */
    ttdi_counts *tally;     /* calls per thread and function (counts.c),
                               from the align stage to the resolved hunks */
    struct ttfi_arena arena; /* all result memory (ttf_util.h) */
    stage_out x;            /* the stages' results, until merged */
    ttd_result res;         /* what ttd_get_result hands out (merge()) */
    ttd_divergence **detail; /* per resolved hunk, computed lazily (detail.c) */
    int values;             /* 1: compare call values (both runs have them) */
    struct ttdi_codediff *cd; /* two builds: whose code changed (codediff.h,
                               prepare stage) */
    ttdi_aligner al;        /* what the align stage works with */
    ttdi_in in;             /* what the stages above align take (s const) */
};

int ttd_version(void)
{
    return TTD_VERSION_NUMBER;
}

void ttd_options_init(ttd_options *o)
{
    memset(o, 0, sizeof *o);
    o->messages = TTD_MSG_SITE;
    o->context = 5;
    o->max_lines = 40;
    o->max_hunks = 10;
    o->other_events = 2;
    o->suspects = 3;
}

const char *ttd_timing_name(int timing)
{
    return timing == TTD_TIMING_WAIT ? "wait_loop"
         : timing == TTD_TIMING_MOVED ? "moved"
         : timing == TTD_TIMING_RETRY ? "retry"
         : timing == TTD_TIMING_PROGRESS ? "progress"
         : timing == TTD_TIMING_CUT ? "cut"
         : timing == TTD_TIMING_GREW ? "grew"
         : timing == TTD_TIMING_CONTENDED ? "contended"
         : timing == TTD_TIMING_SPIN ? "spin"
         : timing == TTD_TIMING_INLINED ? "inlined" : NULL;
}

const char *ttd_paired_by_name(int paired_by)
{
    static const char *const names[] = {"?", "main", "name+start", "name",
                                        "start", "order", "content", "hand"};
    if (paired_by < 0 || paired_by > TTD_PAIR_HAND)
        return "?";
    return names[paired_by];
}

/* ---- public entry points ------------------------------------------------ */

/* Open the baseline runs and pair each one's threads with the good run's. */
static int open_baselines(ttd_diff *d, ttf_error *err)
{
    ttdi_run_state *g = &d->r[TTD_GOOD];
    ttd_run_info *info;
    int rc = 0;

    if (!d->o.nbaselines)
        return 0;
    d->base = calloc(d->o.nbaselines, sizeof *d->base);
    info = ttfi_arena_zalloc(&d->arena, d->o.nbaselines * sizeof *info);
    ttdi_tinfo *gt = malloc((g->nt + 1) * sizeof *gt);
    if (!d->base || !info || !gt) {
        free(gt);
        return TT_ENOMEM;
    }
    const char **paths = ttfi_arena_zalloc(&d->arena, d->o.nbaselines * sizeof *paths);
    if (!paths) {
        free(gt);
        return TT_ENOMEM;
    }
    d->x.baselines = info;
    for (size_t k = 0; k < d->o.nbaselines && rc >= 0; k++) {
        ttdi_base *b = &d->base[k];
        b->path = d->o.baselines[k];
        b->r.crash_thread = -1;
        if (!b->path || !(paths[k] = ttfi_arena_strcpy(&d->arena, b->path))) {
            rc = b->path ? TT_ENOMEM : TT_EINVAL;
            break;
        }
        if ((rc = ttf_open(b->path, &b->r.owned, err)) < 0)
            break;
        d->nbase++;
        b->r.t = b->r.owned;
        if ((rc = ttdi_norm_init(&b->r.norm, b->r.t, d->o.messages, d->re[1], d->re[2],
                                 d->o.no_demangle)) < 0 ||
            (rc = ttdi_norm_sites_like(&b->r.norm, &g->norm)) < 0 ||
            (rc = ttdi_load_threads(&b->r)) < 0)
            break;
        if (!(b->partner = malloc((g->nt + 1) * sizeof *b->partner))) {
            rc = TT_ENOMEM;
            break;
        }
        memcpy(gt, g->ti, g->nt * sizeof *gt);
        ttdi_pairing pg = {gt, b->r.ti, g->nt, b->r.nt, &g->norm, &b->r.norm,
                          NULL, 0, NULL, d->o.jobs != 1};
        rc = ttdi_pair_threads(&pg);
        for (size_t i = 0; i < g->nt; i++) {
            b->partner[i] = gt[i].partner;
            g->ti[i].sketch = gt[i].sketch; /* computed once, kept by g */
        }
        if (rc < 0)
            break;
        ttdi_fill_run_info(&d->arena, &b->r, b->path, &info[k]);
        info[k].exe = "";
        info[k].argc = 0;
        info[k].argv = NULL;
        d->x.nbaselines = k + 1;
    }
    free(gt);
    d->o.baselines = paths; /* the result's options hold copies */
    return rc < 0 ? rc : 0;
}

/* After the alignment: what the align stage held of the baselines goes;
 * their traces stay open for the races (opened once). */
static void release_baselines(ttd_diff *d)
{
    for (size_t k = 0; k < d->nbase; k++) {
        ttdi_base *b = &d->base[k];
        ttdi_marks_free(&b->r);
        ttdi_norm_free(&b->r.norm);
        memset(&b->r.norm, 0, sizeof b->r.norm);
        ttdi_tinfo_free(b->r.ti, b->r.nt);
        free(b->r.ti);
        b->r.ti = NULL;
        b->r.nt = 0;
        free(b->partner);
        b->partner = NULL;
    }
    d->al.base = NULL;
    d->al.nbase = 0;
}

static void close_baselines(ttd_diff *d)
{
    release_baselines(d);
    for (size_t k = 0; k < d->nbase; k++)
        ttf_close(d->base[k].r.owned);
    free(d->base);
    d->base = NULL;
    d->nbase = 0;
}

/* 1 when a run recorded lock, condition or thread operations. */
static int syncs_recorded(const ttd_diff *d)
{
    return ((ttf_get_header(d->r[0].t)->optional_features |
             ttf_get_header(d->r[1].t)->optional_features) & TTF_HEADER_SYNC) != 0;
}

/* Who pair k is in an object's order (ttdi_ilv_run who_of): a worker of
 * a pool, other than the split's own thread, is its pool's first such
 * pair; else k. */
static int64_t order_who(const ttd_diff *d, size_t k, size_t split)
{
    int pool = d->s.ip[k].pool;

    if (pool < 0 || k == split)
        return (int64_t)k;
    for (size_t j = 0; j < k; j++)
        if (j != split && d->s.ip[j].pool == pool)
            return (int64_t)j;
    return (int64_t)k;
}

/* The interleaving of the threads before the first divergence, when a
 * run recorded lock, condition or thread operations (interleave.c). */
static int thread_order(ttd_diff *d, ttd_divergence *dv)
{
    ttdi_ilv_run in[2];
    int64_t *map[2] = {NULL, NULL};
    int rc = 0;

    if (!syncs_recorded(d))
        return 0;
    for (int r = 0; r < 2 && rc >= 0; r++) {
        size_t nt = d->r[r].nt;
        if (!(map[r] = malloc((2 * nt + 1) * sizeof *map[r]))) {
            rc = TT_ENOMEM;
            break;
        }
        for (size_t i = 0; i < 2 * nt; i++)
            map[r][i] = -1;
        for (size_t k = 0; k < d->s.nip; k++) {
            map[r][d->s.ip[k].t[r]] = (int64_t)k;
            map[r][nt + d->s.ip[k].t[r]] = order_who(d, k, dv->pair);
        }
        in[r] = (ttdi_ilv_run){&d->r[r], map[r], map[r] + nt,
                               r ? dv->bad_time_ns : dv->good_time_ns, d->o.jobs != 1};
    }
    ttd_interleave *il = NULL;
    if (rc >= 0)
        rc = ttdi_interleave_build(&d->arena, in, &il);
    dv->interleave = il;
    free(map[0]);
    free(map[1]);
    return rc;
}

/* Threads of trace t running at time ns (started, not yet ended). */
static size_t running_at(const ttf_trace *t, uint64_t ns)
{
    size_t n = 0;

    for (size_t i = 0; i < ttf_thread_count(t); i++) {
        const ttf_thread *th = ttf_get_thread(t, i);
        n += th && th->start_ns <= ns && (!th->ended || th->end_ns >= ns);
    }
    return n;
}

/* The baselines as the races see them (their traces still open; names
 * through a normaliser of their own, unfiltered). */
static int race_bases(ttd_diff *d, ttdi_race_run *g, ttdi_norm *nm)
{
    int rc = 0;

    for (size_t k = 0; k < d->nbase && rc >= 0; k++) {
        const ttf_trace *t = d->base[k].r.t;
        if ((rc = ttdi_norm_init(&nm[k], t, d->o.messages, NULL, NULL, d->o.no_demangle)) < 0)
            break;
        g[k + 1] = (ttdi_race_run){t, &nm[k], NULL, ttdi_trace_end(t), UINT64_MAX, -1};
    }
    return rc;
}

/* The races of the bad run (races.c), when threads matter: the split came
 * while two threads of the bad run ran, or the runs ended differently (or
 * the bad run is known to have failed). Only with SYNC_OP records, and
 * only when the run walks' first returns do not show that none can be
 * found (ttdi_races_possible: no function returned lock-free in one
 * thread and returned in another; then the bad run is not read again). */
static int races(ttd_diff *d)
{
    const ttf_trace *bt = d->r[TTD_BAD].t;
    const ttd_divergence *dv = d->x.first;
    int fail = d->x.outcome.differs || d->x.outcome.failed;

    if (!(ttf_get_header(bt)->optional_features & TTF_HEADER_SYNC) || d->r[TTD_BAD].nt < 2 ||
        !d->x.diverged || (!fail && (!dv || running_at(bt, dv->bad_time_ns) < 2)) ||
        !ttdi_races_possible(&d->r[TTD_BAD], UINT64_MAX))   /* the walk's until_ns */
        return 0;
    size_t nb = d->nbase;
    int64_t *map = malloc((d->r[TTD_BAD].nt + 1) * sizeof *map);
    ttdi_race_run *g = calloc(nb + 1, sizeof *g);
    ttdi_norm *nm = calloc(nb + 1, sizeof *nm);
    int rc = map && g && nm ? 0 : TT_ENOMEM;
    for (size_t i = 0; rc >= 0 && i < d->r[TTD_BAD].nt; i++)
        map[i] = -1;
    for (size_t k = 0; rc >= 0 && k < d->s.nip; k++)
        map[d->s.ip[k].t[TTD_BAD]] = (int64_t)k;
    if (rc >= 0) {
        g[0] = (ttdi_race_run){d->r[TTD_GOOD].t, &d->r[TTD_GOOD].norm, NULL,
                              dv ? dv->good_time_ns : ttdi_trace_end(d->r[TTD_GOOD].t), UINT64_MAX,
                              -1};
        rc = race_bases(d, g, nm);
    }
    /* the symptom's thread: the split's, else the main thread (the end) */
    int64_t focus = dv && dv->pair < d->s.nip ? (int64_t)d->s.ip[dv->pair].t[TTD_BAD] : 0;
    ttdi_races_in in = {{bt, &d->r[TTD_BAD].norm, map, dv ? dv->bad_time_ns : ttdi_trace_end(bt),
                         UINT64_MAX, focus}, g, nb + 1, 0};
    ttd_race *v = NULL;
    if (rc >= 0)
        rc = ttdi_races_build(&d->arena, &in, &v, &d->x.nraces);
    d->x.races = v;
    for (size_t k = 0; nm && k < nb; k++)
        ttdi_norm_free(&nm[k]);
    free(map);
    free(g);
    free(nm);
    return rc;
}

/* Pair the good and the bad run's threads (hand pairs first). */
static int pair_runs(ttd_diff *d, ttf_error *err)
{
    ttdi_run_state *g = &d->r[TTD_GOOD], *b = &d->r[TTD_BAD];
    ttdi_pairing p = {g->ti, b->ti, g->nt, b->nt, &g->norm, &b->norm,
                     d->o.pairs, d->o.npairs, NULL, d->o.jobs != 1};
    int rc = ttdi_pair_threads(&p);

    if (rc == TT_EINVAL && p.bad_hand)
        ttfi_set_err(err, rc, 0, "--pair good#%u=bad#%u: %s", p.bad_hand->good,
                     p.bad_hand->bad,
                     p.bad_hand->good >= g->nt || p.bad_hand->bad >= b->nt
                         ? "no such thread (see the threads table)"
                         : "a thread paired twice");
    return rc;
}

/* Whether call values are compared, and if not, why. */
static void values_setup(ttd_diff *d)
{
    const ttf_trace *g = d->r[TTD_GOOD].t, *b = d->r[TTD_BAD].t;

    d->values = !d->o.no_values && ttdi_values_on(g, b);
    if (d->o.no_values)
        d->x.values_note = "turned off (--no-values)";
    else if (!ttf_get_summary(g)->values && !ttf_get_summary(b)->values)
        d->x.values_note = "not recorded (build with -pg -mfentry to record them)";
    else if (!d->values)
        d->x.values_note = ttf_get_summary(g)->values
            ? "the bad run has none (built without -pg -mfentry)"
            : "the good run has none (built without -pg -mfentry)";
}

/* The first value divergence over all pairs: the earliest in the bad run. */
static int value_first(ttd_diff *d)
{
    const ttdi_vdiff *best = NULL;
    size_t bp = 0;

    for (size_t i = 0; i < d->s.nip; i++) {
        const ttdi_vfound *f = &d->s.ip[i].vf;
        d->x.values_compared += f->compared;
        d->x.values_noise += f->noise;
        d->x.values_twinned += d->s.ip[i].ntwins;
        d->x.values_times += f->times;
        if (f->found && (!best || f->first.ev[1].time_ns < best->ev[1].time_ns)) {
            best = &f->first;
            bp = i;
        }
    }
    if (d->values && !d->x.values_compared)
        d->x.values_note = "none comparable (no debug info, or only void, "
                             "float or struct values)";
    d->x.values = d->values && d->x.values_compared > 0;
    if (!best || d->x.rs.values_progress)
        return 0;
    ttd_value_diff *v = ttfi_arena_alloc(&d->arena, sizeof *v);
    if (!v || ttdi_values_result(&d->arena, &d->r[TTD_GOOD].norm, &d->r[TTD_BAD].norm, best, v) < 0)
        return TT_ENOMEM;
    v->pair = bp;
    ttdi_norm_locate(&d->r[TTD_BAD].norm, best->ev[1].addr, 0, best->ev[1].time_ns,
                     &v->file, &v->line);
    const ttdi_resolved *rs = &d->x.rs;
    const ttd_hunk_info *h = rs->nhunks > rs->nexpected + rs->ntiming ? &rs->hunks[0] : NULL;
    v->before_split = !h || (h->pair == bp ? best->idx[1] < h->bad_index
                                           : best->ev[1].time_ns < h->time_ns);
    d->x.value_first = v;
    return 0;
}

/* Two builds: the functions whose machine code differs into the result
 * (names as the report shows them: mangled with no_demangle). */
static int code_results(ttd_diff *d)
{
    const struct ttdi_codediff *cd = d->cd;
    size_t n = ttdi_codediff_count(cd), nn = ttdi_codediff_note_count(cd);
    ttd_code_change *ch = ttfi_arena_zalloc(&d->arena, (n + 1) * sizeof *ch);
    const char **notes = ttfi_arena_zalloc(&d->arena, (nn + 1) * sizeof *notes);
    if (!ch || !notes)
        return TT_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        const struct ttdi_code_change *c = ttdi_codediff_get(cd, i);
        ch[i].function = d->o.no_demangle ? c->symbol : c->function;
        ch[i].module = c->module;
        ch[i].status = c->status;
        ch[i].artifact = ttdi_codediff_artifact(cd, c->function);
    }
    for (size_t i = 0; i < nn; i++)
        notes[i] = ttdi_codediff_note(cd, i);
    d->res.code_functions = ttdi_codediff_compared(cd);
    d->res.code_compared = d->res.code_functions > 0 || n > 0;
    d->res.changed_functions = ch;
    d->res.nchanged_functions = n;
    d->res.code_notes = notes;
    d->res.ncode_notes = nn;
    return 0;
}

/* The first divergence's first differing event, when it is a call of a
 * function that the two builds instrument differently. */
static void build_artifact(ttd_diff *d, ttd_divergence *dv)
{
    const ttd_event *e[2] = {dv->ngood ? &dv->good[0] : NULL,
                             dv->nbad ? &dv->bad[0] : NULL};
    for (int i = 0; i < 2 && !dv->build_artifact; i++)
        if (e[i] && (e[i]->kind == TTF_EV_ENTER || e[i]->kind == TTF_EV_EXIT) &&
            e[i]->name && ttdi_codediff_artifact(d->cd, e[i]->name))
            dv->build_artifact = e[i]->name;
}

/* The resolve and order stages' result into the result. */
static void publish_resolved(ttd_result *r, const ttdi_resolved *rs)
{
    r->pairs = rs->pairs;
    r->npairs = rs->npairs;
    r->hunks = rs->hunks;
    r->nhunks = rs->nhunks;
    r->nexpected = rs->nexpected;
    r->ntiming = rs->ntiming;
    r->hunks_total = rs->hunks_total;
    r->expected_total = rs->expected_total;
    r->timing_total = rs->timing_total;
    r->pools = rs->pools;
    r->npools = rs->npools;
    r->followed = rs->followed;
    r->values_progress = rs->values_progress;
}

/* The explain stage's result into the first divergence (the engine's own
 * copy: detail[0]). */
static void explained_first(ttd_diff *d)
{
    const ttdi_explained *x = &d->x.xo;
    ttd_divergence *dv = d->x.first;

    if (!dv)
        return;
    dv->chain = x->chain;
    dv->nchain = x->nchain;
    dv->chain_end = x->chain_end;
    if (x->suspects) {
        dv->suspects = x->suspects;
        dv->nsuspects = x->nsuspects;
    }
}

/* The count facts, those a resolved hunk starts with first (in the hunks'
 * order: divergences, timing, then what also varies between good runs),
 * then the rest by name: the extra take_seat a seller's hunk shows heads
 * them, before the next_free and do_paperwork of the same iteration. */
static int counts_ordered(ttd_diff *d, const ttd_count **out)
{
    const stage_out *x = &d->x;
    size_t n = x->ncounts, k = 0;
    ttd_count *c = n ? ttfi_arena_zalloc(&d->arena, n * sizeof *c) : NULL;
    char *used = n ? calloc(n, 1) : NULL;

    *out = x->counts;
    if (!n)
        return 0;
    if (!c || !used) {
        free(used);
        return TT_ENOMEM;       /* never a report in another order */
    }
    for (size_t h = 0; h < x->rs.nhunks && k < n; h++) {
        const ttd_hunk_info *hi = &x->rs.hunks[h];
        const ttd_event *ev[2] = {hi->bad_first, hi->good_first};
        for (int e = 0; e < 2; e++)
            for (size_t i = 0; i < n && ev[e] && ev[e]->name; i++)
                if (!used[i] && !strcmp(x->counts[i].function, ev[e]->name)) {
                    used[i] = 1;
                    c[k++] = x->counts[i];
                }
    }
    for (size_t i = 0; i < n; i++)
        if (!used[i])
            c[k++] = x->counts[i];
    free(used);
    *out = c;
    return 0;
}

/* The end: every stage's result into ttd_result, the one place it is
 * written, with the verdict decided by verdict(), the programs compared,
 * the options as used and the two builds' code; last the verdict object
 * (verdict.c, issue 33), read from all of that. */
static int merge(ttd_diff *d)
{
    const stage_out *x = &d->x;
    ttd_result *r = &d->res;

    r->runs[TTD_GOOD] = x->runs[TTD_GOOD];
    r->runs[TTD_BAD] = x->runs[TTD_BAD];
    r->program = ttdi_same_program(&r->runs[0], &r->runs[1]);
    r->diverged = x->diverged;
    publish_resolved(r, &x->rs);
    r->unpaired = x->unpaired;
    r->nunpaired = x->nunpaired;
    r->first = x->first;
    r->baselines = x->baselines;
    r->nbaselines = x->nbaselines;
    r->siblings = x->siblings;
    r->nsiblings = x->nsiblings;
    r->options = d->o;
    r->values = x->values;
    r->values_note = x->values_note;
    r->value_first = x->xo.headline ? x->xo.value_first : x->value_first;
    r->values_compared = x->values_compared;
    r->values_noise = x->values_noise;
    r->outcome = x->outcome;
    r->values_ignored = x->xo.values_ignored;
    r->values_timeout = x->xo.values_timeout;
    r->timeout_evidence = x->xo.timeout_text;
    r->values_deadline = x->xo.values_deadline;
    r->deadline_evidence = x->xo.deadline_text;
    r->values_rounded = x->xo.values_rounded;
    r->rounded_evidence = x->xo.rounded_text;
    r->values_swapped = x->xo.values_swapped;
    r->values_twinned = x->values_twinned;
    r->values_times = x->values_times;
    r->swap_evidence = x->xo.swap_text;
    if (x->xo.headline) {
        r->value_others = x->xo.value_others;
        r->nvalue_others = x->xo.nvalue_others;
    }
    r->chain = x->xo.chain;
    r->nchain = x->xo.nchain;
    r->chain_end = x->xo.chain_end;
    r->races = x->races;
    r->nraces = x->nraces;
    r->hang = x->hang;
    int rc = code_results(d);
    const ttd_count *counts = NULL;
    if (rc >= 0)
        rc = counts_ordered(d, &counts);
    if (rc < 0)
        return rc;
    ttdi_verdict_in vi = {counts, x->ncounts, d->cd, &d->in};
    return ttdi_verdict(&d->arena, r, &vi, &r->verdict);
}

/* The verdict, decided here and nowhere else: the runs diverged when a
 * pair has a hunk no good run shows (that does not follow the threads'
 * progress), a call value differs (the explain stage's headline), the runs
 * ended differently making the same calls, or the bad run is known to
 * have failed. */
static int verdict(const ttd_diff *d)
{
    const stage_out *x = &d->x;
    const ttd_value_diff *vf = x->xo.headline ? x->xo.value_first : x->value_first;

    return x->rs.hunks_total > 0 || vf || ttdi_ended_differently(&x->outcome, &d->o) ||
           x->outcome.failed || x->ncounts > 0;
}

/* ---- the stages, in their order ------------------------------------------ */

static int detail(ttd_diff *d, const size_t *hi, size_t n);

/* Prepare: the filters, each run's normaliser and threads, the two builds'
 * code, the thread pairing, the baselines (stage 0); the values switch, the
 * script's pairs and pools (the align stage's start). */
static int prepare(ttd_diff *d, ttf_error *err)
{
    int rc;

    if ((rc = ttdi_compile_filter(&d->re[0], d->o.thread, "--thread", err)) < 0 ||
        (rc = ttdi_compile_filter(&d->re[1], d->o.function, "--function", err)) < 0 ||
        (rc = ttdi_compile_filter(&d->re[2], d->o.exclude, "--exclude", err)) < 0)
        return rc;
    for (int ri = 0; ri < 2; ri++) {
        ttdi_run_state *r = &d->r[ri];
        r->crash_thread = -1;
        if ((rc = ttdi_norm_init(&r->norm, r->t, d->o.messages, d->re[1], d->re[2],
                                 d->o.no_demangle)) < 0)
            return rc;
    }
    for (int ri = 0; ri < 2; ri++)
        if ((rc = ttdi_load_threads(&d->r[ri])) < 0)
            return rc;
    if ((rc = ttdi_codediff_open(&d->cd, d->r[TTD_GOOD].t, d->r[TTD_BAD].t)) < 0)
        return rc;
    for (int ri = 0; ri < 2; ri++)      /* keys with call sites, before any is made */
        if ((rc = ttdi_norm_sites(&d->r[ri].norm, d->r[!ri].t, !d->o.ignore_call_sites,
                                  d->cd)) < 0)
            return rc;
    if ((rc = pair_runs(d, err)) < 0 || (rc = open_baselines(d, err)) < 0)
        return rc;
    values_setup(d);
    d->in = (ttdi_in){d->r, &d->s, &d->o, d->values, d->cd, &d->arena};
    d->al = (ttdi_aligner){d->r, &d->o, d->values, d->base, d->nbase, {0}, &d->s, d->cd, 0, NULL};
    ttd_unpaired *up = NULL;
    rc = ttdi_make_pairs(d->r, d->o.thread, d->re[0], &d->arena, &d->s, &up, &d->x.nunpaired);
    d->x.unpaired = up;
    return rc < 0 ? rc : ttdi_pools_find(&d->al);
}

/* The unpaired threads again, each pool's extra worker (grew.c) marked. */
static int grew_unpaired(ttd_diff *d)
{
    stage_out *x = &d->x;

    if (!d->s.ngrown)
        return 0;
    ttd_unpaired *up = ttfi_arena_alloc(&d->arena, (x->nunpaired + 1) * sizeof *up);
    if (!up)
        return TT_ENOMEM;
    memcpy(up, x->unpaired, x->nunpaired * sizeof *up);
    for (size_t i = 0; i < x->nunpaired; i++)
        for (size_t k = 0; k < d->s.ngrown; k++) {
            const ttdi_grown *g = &d->s.grown[k];
            if (up[i].run != g->run || up[i].thread.index != d->r[g->run].ti[g->thread].index)
                continue;
            up[i].grew = 1;
            up[i].grew_creator = g->creator;
            up[i].grew_items = g->items;
            up[i].grew_extra = g->extra;
            up[i].grew_workers[0] = g->workers[0];
            up[i].grew_workers[1] = g->workers[1];
        }
    x->unpaired = up;
    return 0;
}

/* Align: every pair into the script, then the pools and timing settled.
 * The script is const from here on (ttdi_in.s). */
static int align(ttd_diff *d)
{
    ttdi_keybuf kb[2] = {{0}, {0}};
    ttdi_tree tr[2];
    ttdi_full fu;
    int rc = 0;

    memset(&fu, 0, sizeof fu);
    memset(tr, 0, sizeof tr);
    tr[0].share = tr[1].share = 1;  /* repeated subtrees stored once */
    /* the run walks up to the count facts count the calls they read first
       (the tree build's of the pairs after one that parted, pair_align.c
       src_runs; the timing scan's split threads, the thread order's
       others): the counts read those no more (count_facts); and, when the
       thread order will walk, they keep its lock sets of what they read
       first: it reads those threads no more than from a mark to the split
       (ttdi_walk_tap) */
    d->r[TTD_GOOD].count_calls = d->r[TTD_BAD].count_calls = 1;
    d->r[TTD_GOOD].lock_tap = d->r[TTD_BAD].lock_tap = syncs_recorded(d);
    for (size_t i = 0; i < d->s.nip && rc >= 0; i++) {
        ttdi_ipair *p = &d->s.ip[i];
        if (d->full)
            rc = ttdi_align_full(&d->al, p, &fu);
        else
            rc = d->o.flat ? ttdi_align_pair(&d->al, p, kb) : ttdi_align_tree(&d->al, p, tr);
    }
    ttdi_keybuf_free(&kb[0]);
    ttdi_keybuf_free(&kb[1]);
    ttdi_tree_free(&tr[0]);
    ttdi_tree_free(&tr[1]);
    ttdi_seq_free(&fu.seq[0]);
    ttdi_seq_free(&fu.seq[1]);
    ttdi_zones_free(&fu.z);
    if (rc >= 0 && !d->o.flat)
        rc = ttdi_pools_settle(&d->al);
    if (rc >= 0)
        rc = ttdi_timing_mark(&d->al);
    ttdi_tpre_drop(&d->al);
    if (rc >= 0)
        rc = ttdi_inlined_mark(&d->al);
    if (rc >= 0)
        rc = ttdi_grew_mark(&d->al);
    if (rc >= 0)
        rc = grew_unpaired(d);
    if (rc >= 0)            /* with the baselines' symbols still open */
        rc = ttdi_counts_tally(&d->al, d->x.nunpaired, &d->arena, &d->tally);
    if (!d->tally)
        d->r[TTD_GOOD].count_calls = d->r[TTD_BAD].count_calls = 0;
    release_baselines(d);
    return rc;
}

/* A pool's threads share their work differently in every run, so they are
 * quiet together: all of them when one has a timing hunk and none has
 * another kind (the wait item one worker did, its count in another
 * worker's stream). */
static void pools_quiet(const stage_out *x, uint8_t *quiet, const uint8_t *loud, size_t n)
{
    for (size_t k = 0; k < x->rs.npools; k++) {
        const char *id = x->rs.pools[k].id;
        int any = 0, noisy = 0;
        for (size_t p = 0; p < n && p < x->rs.npairs; p++) {
            if (!x->rs.pairs[p].pool || strcmp(x->rs.pairs[p].pool, id) != 0)
                continue;
            any |= quiet[p];
            noisy |= loud[p];
        }
        for (size_t p = 0; p < n && p < x->rs.npairs && any && !noisy; p++)
            if (x->rs.pairs[p].pool && strcmp(x->rs.pairs[p].pool, id) == 0)
                quiet[p] = 1;
    }
}

/* Whether resolved hunk h is timing-shaped: judged so, or expected (it
 * also varies between the good runs, which hides its timing) where
 * timing.c found the same wait. A poll loop's extra turns are both, and
 * a count the good runs happened to share is no fact then. */
static int timing_shaped(const ttd_diff *d, const ttd_hunk_info *h)
{
    if (h->timing || !h->expected || h->pair >= d->s.nip)
        return h->timing != 0;
    const ttdi_ipair *p = &d->s.ip[h->pair];
    size_t lo = 0, hi = p->tim ? p->nh : 0;
    while (lo < hi) {           /* the pair's hunks are in order */
        size_t mid = lo + (hi - lo) / 2;
        if (p->h[mid].b0 < h->bad_index ||
            (p->h[mid].b0 == h->bad_index && p->h[mid].a0 < h->good_index))
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->nh && p->tim && p->h[lo].a0 == h->good_index &&
           p->h[lo].b0 == h->bad_index && p->tim[lo] != 0;
}

/* The count facts, once the hunks' timing (and the threads' progress) is
 * known: pairs whose every resolved hunk is timing-shaped are quiet. */
static int count_facts(ttd_diff *d)
{
    stage_out *x = &d->x;
    uint8_t *quiet;
    int rc;

    rc = ttdi_counts_runs(d->tally, &d->al);
    d->r[TTD_GOOD].count_calls = d->r[TTD_BAD].count_calls = 0;
    if (!d->tally || rc < 0)
        return rc;
    if (!(quiet = calloc(d->s.nip + 1, 2)))
        return TT_ENOMEM;
    uint8_t *loud = quiet + d->s.nip + 1;
    for (size_t h = 0; h < x->rs.nhunks; h++) {
        size_t p = x->rs.hunks[h].pair;
        if (p < d->s.nip && timing_shaped(d, &x->rs.hunks[h]))
            quiet[p] = 1;
        else if (p < d->s.nip)
            loud[p] = 1;
    }
    for (size_t p = 0; p < d->s.nip; p++)
        quiet[p] &= !loud[p];
    pools_quiet(x, quiet, loud, d->s.nip);
    rc = ttdi_counts_judge(d->tally, quiet, &d->arena, &x->counts, &x->ncounts);
    free(quiet);
    ttdi_counts_free(d->tally);
    d->tally = NULL;
    return rc;
}

/* Resolve: the hunks, their order, the runs' information and outcome, the
 * first value difference, the first divergence detailed with the thread
 * order around it. */
static int resolve(ttd_diff *d, const char *paths[2])
{
    stage_out *x = &d->x;
    ttdi_resolved rs, os;
    int rc;

    if ((rc = ttdi_resolve(&d->in, &rs)) < 0 || (rc = ttdi_order_settle(&d->in, &rs, &os)) < 0)
        return rc;
    if (!(d->detail = calloc(rs.nhunks + 1, sizeof *d->detail)))
        return TT_ENOMEM;
    for (int ri = 0; ri < 2; ri++) {
        ttdi_fill_run_info(&d->arena, &d->r[ri], paths ? paths[ri] : NULL, &x->runs[ri]);
        if ((rc = ttdi_notices(&d->in, ri, &x->runs[ri])) < 0 ||
            (rc = ttdi_find_crash(&d->in, ri, &x->runs[ri])) < 0)
            return rc;
    }
    if ((rc = ttdi_order_progress(&d->in, &os, x->runs, x->nunpaired, &x->rs)) < 0 ||
        (rc = value_first(d)) < 0)
        return rc;
    /* siblings are hinted when calls or values differ */
    if (!d->o.nbaselines && (x->rs.hunks_total > 0 || x->value_first) &&
        (rc = ttdi_siblings(&d->arena, x->runs[0].path, x->runs[1].path, &x->siblings,
                            &x->nsiblings)) < 0)
        return rc;
    if (x->rs.nhunks > x->rs.nexpected + x->rs.ntiming) {
        size_t first = 0;
        /* the other threads' last events after the thread order, which
         * walks them first and leaves marks those walks start from */
        if ((rc = ttdi_detail_own(&d->in, x->rs.hunks, &first, 1, &d->detail[0])) < 0)
            return rc;
        x->first = d->detail[0];
        build_artifact(d, x->first);
        if ((rc = thread_order(d, x->first)) < 0 ||
            (rc = ttdi_detail_others(&d->in, x->rs.hunks, &first, 1, &x->first)) < 0)
            return rc;
    }
    d->r[TTD_GOOD].lock_tap = d->r[TTD_BAD].lock_tap = 0;
    ttdi_outcome(x->runs, x->rs.hunks_total, x->nunpaired, &d->o, &x->outcome);
    return count_facts(d);
}

/* Explain: the cause chain, the suspects ranked again, the headline. */
static int explain(ttd_diff *d)
{
    const stage_out *x = &d->x;
    ttdi_explain_in xi = {x->runs, &x->outcome, x->first, x->rs.followed,
                          x->rs.values_progress, x->values_note, x->ncounts};
    int rc = ttdi_explain(&d->in, &xi, &d->x.xo);

    if (rc >= 0)
        explained_first(d);
    return rc;
}

/* Notices that came after resolve() collected them (a libdw fault on
 * damaged debug info met while explaining or detailing: sym.c adds its
 * notice then): both runs' lists again, into the stage output and the
 * result, when either grew. */
static int late_notices(ttd_diff *d)
{
    for (int ri = 0; ri < 2; ri++) {
        const ttdi_run_state *r = &d->in.r[ri];
        ttd_run_info *ru = &d->x.runs[ri];
        size_t had = ru->nnotices - (ru->cut != NULL);
        if (!r->t || ttf_notice_count(r->t) + ttf_sym_notice_count(r->norm.sym) == had)
            continue;
        int rc = ttdi_notices(&d->in, ri, ru);
        if (rc < 0)
            return rc;
        d->res.runs[ri].notices = ru->notices;
        d->res.runs[ri].nnotices = ru->nnotices;
    }
    return 0;
}

static int diff_all(ttd_diff *d, const char *paths[2], ttf_error *err)
{
    int rc;

    if ((rc = prepare(d, err)) < 0 || (rc = align(d)) < 0 || (rc = resolve(d, paths)) < 0 ||
        (rc = explain(d)) < 0)
        return rc;
    d->x.diverged = verdict(d);
    if ((rc = races(d)) < 0 ||      /* explain stage, when the verdict says so */
        (d->x.diverged &&
         (rc = ttdi_hang_find(&d->in, &d->x.runs[TTD_BAD], &d->x.hang)) < 0) ||
        (rc = late_notices(d)) < 0)
        return rc;
    close_baselines(d);
    return merge(d);
}

/* Detail hunks hi[0..n) of the result, not detailed yet (the cache). */
static int detail(ttd_diff *d, const size_t *hi, size_t n)
{
    ttd_divergence *dv[TTDI_DETAIL_BATCH] = {NULL};
    int rc = ttdi_detail_batch(&d->in, d->x.rs.hunks, hi, n, dv);

    for (size_t i = 0; i < n; i++)
        if (dv[i])
            d->detail[hi[i]] = dv[i];
    return rc;
}

int ttd_hunk_details(ttd_diff *d, size_t first, size_t n)
{
    size_t hi[TTDI_DETAIL_BATCH], m = 0;
    int rc;

    if (!d || first > d->x.rs.nhunks || n > d->x.rs.nhunks - first)
        return TT_EINVAL;
    for (size_t i = first; i < first + n; i++) {
        if (d->detail[i])
            continue;
        hi[m++] = i;
        if (m == TTDI_DETAIL_BATCH) {
            if ((rc = detail(d, hi, m)) < 0)
                return rc;
            m = 0;
        }
    }
    if (m && (rc = detail(d, hi, m)) < 0)
        return rc;
    return late_notices(d);
}

int ttd_hunk_detail(ttd_diff *d, size_t i, const ttd_divergence **out)
{
    if (!d || !out || i >= d->x.rs.nhunks)
        return TT_EINVAL;
    if (!d->detail[i]) {
        int rc = detail(d, &i, 1);
        if (rc < 0 || (rc = late_notices(d)) < 0)
            return rc;
    }
    *out = d->detail[i];
    return 0;
}

static int start(const ttf_trace *good, const ttf_trace *bad,
                 const ttd_options *opts, ttd_diff **out)
{
    ttd_diff *d;

    if (!out)
        return TT_EINVAL;
    *out = NULL;
    if (!good || !bad)
        return TT_EINVAL;
    if (opts && (opts->messages < TTD_MSG_SITE || opts->messages > TTD_MSG_OFF))
        return TT_EINVAL;
    if (opts && opts->nbaselines && !opts->baselines)
        return TT_EINVAL;
    if (!(d = calloc(1, sizeof *d)))
        return TT_ENOMEM;
    if (opts)
        d->o = *opts;
    else
        ttd_options_init(&d->o);
    d->r[TTD_GOOD].t = good;
    d->r[TTD_BAD].t = bad;
    d->full = d->o.flat && (d->o.nbaselines || d->o.collapse_loops);
    *out = d;
    return 0;
}

static int finish(ttd_diff *d, const char *paths[2], ttd_diff **out,
                  ttf_error *err)
{
    int rc = diff_all(d, paths, err);

    if (rc >= 0)
        rc = ttd_status(d);
    if (rc < 0) {
        if (err && err->code == 0)
            ttfi_set_err(err, rc, 0, "%s", ttf_strerror(rc));
        ttd_free(d);
        *out = NULL;
    }
    return rc;
}

int ttd_diff_traces(const ttf_trace *good, const ttf_trace *bad,
                    const ttd_options *opts, ttd_diff **out, ttf_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
    int rc = start(good, bad, opts, out);
    if (rc < 0) {
        ttfi_set_err(err, rc, 0, "%s", ttf_strerror(rc));
        return rc;
    }
    return finish(*out, NULL, out, err);
}

/* One run's trace opened (ttdi_both: both at once). */
typedef struct open_job {
    const char *path;
    ttf_trace *t;
    ttf_error err;
} open_job;

static int open_one(void *arg)
{
    open_job *j = arg;
    return ttf_open(j->path, &j->t, &j->err);
}

int ttd_diff_files(const char *good, const char *bad,
                   const ttd_options *opts, ttd_diff **out, ttf_error *err)
{
    ttf_trace *t[2] = {NULL, NULL};
    const char *paths[2] = {good, bad};
    open_job oj[2] = {{.path = good}, {.path = bad}};
    int rc, orc[2];

    if (err)
        memset(err, 0, sizeof *err);
    if (!out || !good || !bad) {
        ttfi_set_err(err, TT_EINVAL, 0, "%s", ttf_strerror(TT_EINVAL));
        return TT_EINVAL;
    }
    *out = NULL;
    /* the good run's error first, as when opened one after the other */
    ttdi_both(!opts || opts->jobs != 1, open_one, &oj[0], &oj[1], orc);
    for (int i = 0; i < 2; i++) {
        if (orc[i] >= 0)
            continue;
        if (err)
            *err = oj[i].err;
        ttf_close(oj[0].t);
        ttf_close(oj[1].t);
        return orc[i];
    }
    t[0] = oj[0].t;
    t[1] = oj[1].t;
    if ((rc = start(t[0], t[1], opts, out)) < 0) {
        ttf_close(t[0]);
        ttf_close(t[1]);
        ttfi_set_err(err, rc, 0, "%s", ttf_strerror(rc));
        return rc;
    }
    (*out)->r[0].owned = t[0];
    (*out)->r[1].owned = t[1];
    return finish(*out, paths, out, err);
}

int ttd_status(const ttd_diff *d)
{
    if (!d)
        return TT_EINVAL;
    for (int i = 0; i < 2; i++)
        if (ttf_sym_status(d->r[i].norm.sym) < 0 || d->r[i].norm.oom)
            return TT_ENOMEM;
    return 0;
}

const ttd_result *ttd_get_result(const ttd_diff *d)
{
    return d ? &d->res : NULL;
}

void ttd_free(ttd_diff *d)
{
    if (!d)
        return;
    close_baselines(d);
    for (size_t i = 0; i < d->s.nip; i++) {
        free(d->s.ip[i].h);
        free(d->s.ip[i].exp);
        free(d->s.ip[i].reps);
        free(d->s.ip[i].tim);
        free(d->s.ip[i].waitns);
        free(d->s.ip[i].spin);
        free(d->s.ip[i].twins);
        ttdi_pool_free(&d->s.ip[i]);
        ttdi_vfound_free(&d->s.ip[i].vf);
        ttdi_rprefix_free(d->s.ip[i].rpre);
    }
    ttdi_openset_free(&d->s.noise);
    ttdi_openset_free(&d->al.calls);
    ttdi_counts_free(d->tally);
    ttdi_codediff_free(d->cd);
    free(d->s.pools);
    free(d->s.ip);
    free(d->detail);
    for (int ri = 0; ri < 2; ri++) {
        ttdi_marks_free(&d->r[ri]);
        ttdi_norm_free(&d->r[ri].norm);
        ttdi_tinfo_free(d->r[ri].ti, d->r[ri].nt);
        free(d->r[ri].ti);
        ttf_close(d->r[ri].owned);
    }
    for (int i = 0; i < 3; i++)
        ttd_regex_free(d->re[i]);
    ttfi_arena_free(&d->arena);
    free(d);
}
