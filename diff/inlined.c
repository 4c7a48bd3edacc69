/*
 * inlined.c - calls that one build's inlining made visible: between two
 * builds, whole calls of a function whose own code lies in a library
 * nothing traces, present in one run only, inside a function whose
 * machine code changed while its source did not. They are the builds'
 * inlining, not the run's, and are marked TTD_TIMING_INLINED (listed after
 * the divergences, never the first divergence, not counted in the exit
 * status). Stage 1 align of diff/STAGES (its header: state.h).
 *
 * Design. -finstrument-functions also instruments a copy of a function
 * that the compiler inlined, and names it by the function's address. When
 * the function is an extern template or a gnu_inline function whose
 * out-of-line definition sits in a shared library (libstdc++'s
 * std::string members), that address resolves into the library, although
 * the library itself calls no tracing hook: the events can only come from
 * an instrumented copy inlined into the program. Whether the compiler
 * inlines it is its decision per build: an edit elsewhere in a unit
 * changes it (CLI11's std::string(const char *) constructor inlined
 * _Alloc_hider's constructor in one build, and called the library's copy
 * in the other), and then every construction of a string differs by a
 * few calls, from the static initialisers on, before anything the edit
 * meant to change. So one side of a hunk, the other side empty, is the
 * builds' inlining when
 *   - the traces are two builds (the code diff found changed functions),
 *   - its events are whole calls (ENTERs and EXITs only, balanced, never
 *     below its start's depth),
 *   - each of its outermost calls' functions lies in a module that is the
 *     same build in both runs and whose code calls no tracing hook
 *     (ttf_code_info instrumented 0); what they called is the inlined
 *     copy's own work (an allocator constructor of the program's own,
 *     which the library's copy inlines untraced in the other build),
 *   - the builds differ there, not the runs: in the hunk's thread, every
 *     call of the function F open at the hunk's start calls each such
 *     function G directly, and in the other run's thread of the pair no
 *     call of F ever does (one build's F holds the copy, the other's calls
 *     the library; a call that F makes on some inputs only, and the other
 *     run's input never asked for, is seen in some of F's calls and not in
 *     others, and stays a divergence), and
 *   - the innermost call open at its start is a function whose machine
 *     code differs between the builds and whose source is not known to
 *     differ (the builds compiled the same source otherwise: that is the
 *     inlining decision; a function whose source changed may have added
 *     those calls on purpose).
 * Anything else stays a divergence: a library call the program made in
 * one run only from code that did not change, a call of a traced
 * library, one run of a single build.
 * Cost: nothing unless the two runs are two builds with changed code and
 * a pair has one-sided hunks; then one keyed walk of the side's thread up
 * to its last such hunk, once per library module its symbol table, and,
 * when a hunk passes, one keyed walk of each thread of the pair that
 * names every ENTER.
 */
#include <stdlib.h>
#include <string.h>

#include "codediff.h"
#include "state.h"

#define SPAN_MAX 4096       /* a hunk longer than this is no inlined copy */
#define STACK_MAX 4096      /* open calls followed */
#define PAIRS_MAX 64        /* (F, G) pairs of a side's passing hunks */
#define MEMO 1024           /* names a thread's walk tells apart at once */

/* What is known of a module: unknown, or whether it calls tracing hooks. */
enum { MOD_UNKNOWN = 0, MOD_FOREIGN, MOD_OWN };

typedef struct side_ctx {
    ttdi_run_state *r;
    const struct ttdi_codediff *cd;
    uint8_t *mod;           /* per module: MOD_* */
    size_t nmod;
    uint64_t *st;           /* open calls: function address and time
                               (judge_side); as F of which pairs and the
                               G they called (count_pairs) */
    size_t n;
    const char *f[PAIRS_MAX], *g[PAIRS_MAX]; /* passing hunks: the call open
                               at the start, an outermost call in it */
    size_t npairs;
    size_t *pass;           /* the passing hunks: index */
    uint64_t *uses;         /* ... and their (F, G) pairs, a bit each */
    size_t npass;
} side_ctx;

/* Does the code of module m of the run call no tracing hook while the
 * other run has the same build of it? */
static int foreign_module(side_ctx *c, long m)
{
    const ttf_code_info *ci = NULL;

    if (m < 0 || (size_t)m >= c->nmod || !c->r->norm.mod_same || !c->r->norm.mod_same[m])
        return 0;
    if (c->mod[m] == MOD_UNKNOWN)
        c->mod[m] = ttf_sym_code(c->r->norm.sym, (size_t)m, &ci) == 0 && ci && !ci->instrumented
                        ? MOD_FOREIGN : MOD_OWN;
    return c->mod[m] == MOD_FOREIGN;
}

/* Is f a function whose code changed between the builds while its
 * source did not? */
static int changed_alone(const side_ctx *c, const char *f)
{
    return ttdi_codediff_changed(c->cd, f) == 1 &&
           ttdi_codediff_source(c->cd, f) != TTDI_SRC_CHANGED;
}

int ttdi_inlined_judge(const ttdi_inl_ev *ev, size_t n, int around_changed)
{
    size_t depth = 0;

    if (!n || !around_changed)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (ev[i].kind == TTF_EV_ENTER && (depth || ev[i].foreign))
            depth++;
        else if (ev[i].kind == TTF_EV_EXIT && depth)
            depth--;
        else
            return 0;
    }
    return depth == 0;
}

/* One-sided in run x, not judged yet, short enough to be a copy. */
static int candidate(const ttdi_ipair *p, size_t i, int x)
{
    const ttdi_hunk *h = &p->h[i];
    size_t lo = x ? h->b0 : h->a0, hi = x ? h->b1 : h->a1;
    size_t olo = x ? h->a0 : h->b0, ohi = x ? h->a1 : h->b1;

    return !p->tim[i] && !(p->exp && p->exp[i]) && hi > lo && hi - lo <= SPAN_MAX &&
           ohi == olo;
}

static void track(side_ctx *c, const ttf_event *ev)
{
    if (ev->kind == TTF_EV_ENTER && c->n < STACK_MAX) {
        c->st[2 * c->n] = ev->addr;
        c->st[2 * c->n + 1] = ev->time_ns;
    }
    if (ev->kind == TTF_EV_ENTER)
        c->n++;
    else if (ev->kind == TTF_EV_EXIT && c->n)
        c->n--;
}

/* Bit of pair (f, g) among the side's (added), or 0 when there is no
 * room or no name. */
static uint64_t pair_bit(side_ctx *c, const char *f, const char *g)
{
    if (!f || !g)
        return 0;
    for (size_t k = 0; k < c->npairs; k++)
        if (strcmp(c->f[k], f) == 0 && strcmp(c->g[k], g) == 0)
            return 1ull << k;
    if (c->npairs == PAIRS_MAX)
        return 0;
    c->f[c->npairs] = f;
    c->g[c->npairs] = g;
    return 1ull << c->npairs++;
}

/* Hunk i's side passed the rule: keep it with its (F, G) pairs; none
 * when one had no room (uses then lacks a bit: all or none). */
static void passed(side_ctx *c, size_t i, uint64_t uses, int full)
{
    if (!uses || !full)
        return;
    c->pass[c->npass] = i;
    c->uses[c->npass++] = uses;
}

/* The candidate hunks of pair p in run x, in order, judged by one keyed
 * walk of its thread; those that pass into c->pass. */
static int judge_side(side_ctx *c, ttdi_ipair *p, int x, ttdi_inl_ev *buf)
{
    ttdi_walk w;
    uint64_t key, uses = 0;
    size_t i = 0, nb = 0, lo = 0, hi = 0, d0 = 0;
    int rc, around = 0, full = 1;
    const char *f = NULL;

    for (; i < p->nh && !candidate(p, i, x); i++)
        ;
    if (i == p->nh)
        return 0;
    if ((rc = ttdi_walk_keyed(&w, &c->r->norm, p->t[x])) < 0 ||
        (rc = ttdi_walk_novalues(&w)) < 0)
        goto out;
    c->n = 0;
    lo = x ? p->h[i].b0 : p->h[i].a0;
    hi = x ? p->h[i].b1 : p->h[i].a1;
    while (i < p->nh && (rc = ttdi_walk_next_key_to(&w, &key)) > 0) {
        if (w.idx == lo) {
            nb = 0;
            uses = 0;
            full = 1;
            d0 = c->n;
            f = c->n && c->n <= STACK_MAX ? ttdi_norm_func_at(&c->r->norm, c->st[2 * (c->n - 1)],
                                                              0, c->st[2 * (c->n - 1) + 1]) : NULL;
            around = f && changed_alone(c, f);
        }
        if (w.idx >= lo && w.idx < hi && around) {
            int top = w.ev.kind == TTF_EV_ENTER && c->n == d0;
            long m = top ? ttdi_module_at(&c->r->norm, w.ev.addr, w.ev.time_ns) : -1;
            int fo = m >= 0 && foreign_module(c, m);
            uint64_t bit = fo ? pair_bit(c, f, ttdi_norm_func(&c->r->norm, &w.ev)) : 0;
            full &= !fo || bit;
            uses |= bit;
            buf[nb++] = (ttdi_inl_ev){w.ev.kind, fo};
        }
        track(c, &w.ev);
        if (w.idx + 1 < hi)
            continue;
        if (ttdi_inlined_judge(buf, nb, around))
            passed(c, i, uses, full);
        for (i++; i < p->nh && !candidate(p, i, x); i++)
            ;
        lo = i < p->nh ? (x ? p->h[i].b0 : p->h[i].a0) : 0;
        hi = i < p->nh ? (x ? p->h[i].b1 : p->h[i].a1) : 0;
    }
out:
    ttdi_walk_close(&w);
    return rc < 0 ? rc : 0;
}

/* What a thread's calls of each pair's F did: bit k of `seen` when F_k
 * was called, of `some` when a call of F_k called G_k directly, of
 * `notall` when one did not. */
typedef struct fg_count {
    uint64_t seen, some, notall;
} fg_count;

/* A name's bits among c's pairs (as F, as G), memoised by its pointer
 * (a run's names are cached: one function, one pointer). */
typedef struct memo {
    const char *name;
    uint64_t fm, gm;
} memo;

static const memo *memo_of(const side_ctx *c, memo *tab, const char *name)
{
    size_t h = (size_t)(((uintptr_t)name >> 4) * 0x9E3779B97F4A7C15ull >> 54) & (MEMO - 1);
    memo *m = &tab[h];

    if (m->name == name)
        return m;
    m->name = name;
    m->fm = m->gm = 0;
    for (size_t k = 0; k < c->npairs; k++) {
        m->fm |= strcmp(c->f[k], name) == 0 ? 1ull << k : 0;
        m->gm |= strcmp(c->g[k], name) == 0 ? 1ull << k : 0;
    }
    return m;
}

/* A call returned: it was F of pairs fm, and called the G of pairs got. */
static void returned(fg_count *out, uint64_t fm, uint64_t got)
{
    out->seen |= fm;
    out->some |= fm & got;
    out->notall |= fm & ~got;
}

/* Count c's pairs over thread th of run o (o may be c). */
static int count_pairs(const side_ctx *c, side_ctx *o, uint32_t th, memo *tab, fg_count *out)
{
    ttdi_walk w;
    uint64_t key, *fm = o->st, *got = o->st + STACK_MAX;
    size_t n = 0;
    int rc;

    memset(tab, 0, MEMO * sizeof *tab);
    memset(out, 0, sizeof *out);
    if ((rc = ttdi_walk_keyed(&w, &o->r->norm, th)) < 0 || (rc = ttdi_walk_novalues(&w)) < 0)
        goto out;
    while ((rc = ttdi_walk_next_key_to(&w, &key)) > 0) {
        if (w.ev.kind == TTF_EV_EXIT && n) {
            n--;
            if (n < STACK_MAX)
                returned(out, fm[n], got[n]);
            continue;
        }
        if (w.ev.kind != TTF_EV_ENTER)
            continue;
        const char *name = ttdi_norm_func(&o->r->norm, &w.ev);
        const memo *m = name ? memo_of(c, tab, name) : NULL;
        if (m && n && n <= STACK_MAX)
            got[n - 1] |= m->gm & fm[n - 1];
        if (n < STACK_MAX) {
            fm[n] = m ? m->fm : 0;
            got[n] = 0;
        }
        n++;
    }
out:
    ttdi_walk_close(&w);
    return rc < 0 ? rc : 0;
}

/* Pair p's hunks judged on side x, marked when every call of F in x's
 * thread called G and none in the partner's did. */
static int judge_pair(side_ctx c[2], ttdi_ipair *p, int x, ttdi_inl_ev *buf, memo *tab)
{
    fg_count k[2];

    c[x].npairs = c[x].npass = 0;
    int rc = judge_side(&c[x], p, x, buf);
    if (rc < 0 || !c[x].npass)
        return rc;
    if ((rc = count_pairs(&c[x], &c[x], p->t[x], tab, &k[0])) < 0 ||
        (rc = count_pairs(&c[x], &c[!x], p->t[!x], tab, &k[1])) < 0)
        return rc;
    uint64_t ok = k[0].seen & ~k[0].notall & k[1].seen & ~k[1].some;
    for (size_t i = 0; i < c[x].npass; i++)
        if ((c[x].uses[i] & ok) == c[x].uses[i])
            p->tim[c[x].pass[i]] = TTD_TIMING_INLINED;
    return 0;
}

int ttdi_inlined_mark(ttdi_aligner *al)
{
    side_ctx c[2];
    ttdi_inl_ev *buf = NULL;
    memo *tab = NULL;
    size_t most = 0;
    int rc = 0;

    if (!al->cd || !ttdi_codediff_count(al->cd))
        return 0;
    for (size_t i = 0; i < al->s->nip; i++)
        most = al->s->ip[i].nh > most ? al->s->ip[i].nh : most;
    memset(c, 0, sizeof c);
    for (int x = 0; x < 2 && !rc; x++) {
        c[x].r = &al->r[x];
        c[x].cd = al->cd;
        c[x].nmod = ttf_module_count(al->r[x].t);
        c[x].mod = calloc(c[x].nmod + 1, 1);
        c[x].st = malloc(2 * STACK_MAX * sizeof *c[x].st);
        c[x].pass = malloc((most + 1) * sizeof *c[x].pass);
        c[x].uses = malloc((most + 1) * sizeof *c[x].uses);
        rc = c[x].mod && c[x].st && c[x].pass && c[x].uses ? 0 : TT_ENOMEM;
    }
    if (!rc && (!(buf = malloc(SPAN_MAX * sizeof *buf)) || !(tab = malloc(MEMO * sizeof *tab))))
        rc = TT_ENOMEM;
    for (size_t i = 0; i < al->s->nip && !rc; i++)
        for (int x = 0; x < 2 && !rc && al->s->ip[i].nh && al->s->ip[i].tim; x++)
            rc = judge_pair(c, &al->s->ip[i], x, buf, tab);
    for (int x = 0; x < 2; x++) {
        free(c[x].mod);
        free(c[x].st);
        free(c[x].pass);
        free(c[x].uses);
    }
    free(buf);
    free(tab);
    return rc;
}
