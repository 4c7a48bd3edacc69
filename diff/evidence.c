/*
 * evidence.c - what a suspect's rank rests on: pieces of evidence, each
 * with a kind, a weight and a sentence, summed into the suspect's score;
 * the ranking by score. The value rules it weighs with (is a differing
 * value noise? did an error appear?) are every stage's: vrules.c.
 *
 * Weights. The diverging frame starts at FRAME (3): in most real bugs the
 * function whose calls part is where the decision was made. Another
 * function ranks above it only on evidence: a differing return value
 * (VALUE, 4), its answer flipping there while its inputs did not (ERROR,
 * 4: an error appears, NULL for non-NULL, 0 for 1: a decision), being the
 * origin of a differing argument passed down (ARG_ORIGIN, 4: a length or
 * a flag computed frames up), a step of the cause
 * chain (CHAIN, 2, and CHAIN_ORIGIN, 2 more for its earliest step), code
 * changed between the builds (CODE, 6: the strongest single clue in a
 * regression; 8 when its source changed too, and only 2 when its source
 * did not while another changed function's did: it carries that change,
 * inlined into it), a value difference earlier in another thread (THREAD, 2;
 * -2 when linked to the split by time alone while the split's own thread
 * has a value on the chain: a query of shared state another thread had not
 * filled yet is timing, the data link in the split's thread is evidence).
 * Position is a tie-breaker only: DISTANCE is 1 / (1 + events between the
 * return and the split), at most 1, below any real evidence. Noise and
 * trivial calls count against (NOISE -2, TRIVIAL -1.5). A function the
 * compiler inlined into the chain's origin whose answer flipped with the
 * same inputs (INLINED) weighs half the origin's score (explain.c): the
 * decision is in the origin's code, which includes it; its whole score
 * when the origin's source only returns an inlined callee's answer (a
 * wrapper), which then loses its ERROR evidence. The split's frame gets
 * ERROR + CHAIN_ORIGIN when the chain is one ordinary number passed up
 * to it (a checksum computed from data that differs): it turned the
 * value into the failure, and the producer loses its CHAIN_ORIGIN.
 * Without values (plain mode), the call whose yes/no or status answer
 * the split's branch came right after (ANSWER, 3.5: suspects.c) ranks
 * above the frame, which only acted on it, and below any evidence a
 * value or a code change gives.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resolve.h"

const char *ttd_evidence_name(int kind)
{
    static const char *const names[] = {
        "?", "diverging_frame", "value_differs", "args_differ", "arg_origin",
        "code_changed", "varies_in_good_runs", "distance",
        "earlier_in_other_thread", "on_cause_chain", "error_appears", "trivial",
        "inlined_into", "answer_used", "wrote_read_back"};

    if (kind < 0 || kind > TTD_EV_WRITTEN)
        return "?";
    return names[kind];
}

/* A copy of x's evidence (with room for extra more) that this suspect
 * alone owns: a suspect copied from another stage's result shares that
 * stage's array, which stays as it was published. NULL when memory runs
 * out. */
static ttd_evidence *own_evidence(struct ttfi_arena *a, const ttd_suspect *x, size_t extra)
{
    ttd_evidence *e = ttfi_arena_zalloc(a, (x->nevidence + extra) * sizeof *e);

    if (e && x->nevidence)
        memcpy(e, x->evidence, x->nevidence * sizeof *e);
    return e;
}

int ttdi_evid_add(struct ttfi_arena *a, ttd_suspect *x, int kind, double weight,
                  const char *fmt, ...)
{
    char buf[512];
    va_list ap;

    if (x->nevidence >= TTDI_EVID_MAX)
        return 0;
    for (size_t i = 0; i < x->nevidence; i++)
        if (x->evidence[i].kind == kind)
            return 0;       /* each kind once: the first reason stands */
    ttd_evidence *v = own_evidence(a, x, 1);
    if (!v)
        return TT_ENOMEM;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    ttd_evidence *e = &v[x->nevidence];
    if (!(e->text = ttfi_arena_strcpy(a, buf)))
        return TT_ENOMEM;
    e->kind = kind;
    e->weight = weight;
    x->evidence = v;
    x->nevidence++;
    x->score += weight;
    return 0;
}

int ttdi_evid_drop(struct ttfi_arena *a, ttd_suspect *x, int kind)
{
    for (size_t i = 0; i < x->nevidence; i++) {
        if (x->evidence[i].kind != kind)
            continue;
        ttd_evidence *e = own_evidence(a, x, 0);
        if (!e)
            return TT_ENOMEM;
        x->score -= e[i].weight;
        memmove(&e[i], &e[i + 1], (x->nevidence - i - 1) * sizeof *e);
        x->evidence = e;
        x->nevidence--;
        return 0;
    }
    return 0;
}

int ttdi_evid_has(const ttd_suspect *x, int kind)
{
    for (size_t i = 0; i < x->nevidence; i++)
        if (x->evidence[i].kind == kind)
            return 1;
    return 0;
}

static double absd(double v)
{
    return v < 0 ? -v : v;
}

/* Evidence of one suspect, strongest first (insertion: at most a dozen). */
static int sort_evidence(struct ttfi_arena *a, ttd_suspect *x)
{
    if (!x->nevidence)
        return 0;
    ttd_evidence *e = own_evidence(a, x, 0);
    if (!e)
        return TT_ENOMEM;
    for (size_t i = 1; i < x->nevidence; i++) {
        ttd_evidence v = e[i];
        size_t j = i;
        for (; j > 0 && absd(e[j - 1].weight) < absd(v.weight); j--)
            e[j] = e[j - 1];
        e[j] = v;
    }
    x->evidence = e;
    return 0;
}

/* Higher score first; equal scores: the nearer return (the frame counts as
 * distance 0), then the order found. */
static int before(const ttd_suspect *a, const ttd_suspect *b)
{
    if (a->score != b->score)
        return a->score > b->score;
    return a->distance < b->distance;
}

int ttdi_suspects_rank(struct ttfi_arena *a, ttd_suspect *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (sort_evidence(a, &s[i]) < 0)
            return TT_ENOMEM;
    for (size_t i = 1; i < n; i++) {
        ttd_suspect x = s[i];
        size_t j = i;
        for (; j > 0 && before(&x, &s[j - 1]); j--)
            s[j] = s[j - 1];
        s[j] = x;
    }
    /* code from system headers (glibc's getc_unlocked, std::_Rb_tree's
     * internals) after the program's own, unless nothing else is left:
     * a stable partition of the ranking */
    for (size_t i = 1; i < n; i++) {
        ttd_suspect x = s[i];
        size_t j = i;
        for (; j > 0 && !ttf_system_file(x.file) && ttf_system_file(s[j - 1].file); j--)
            s[j] = s[j - 1];
        s[j] = x;
    }
    return 0;
}
