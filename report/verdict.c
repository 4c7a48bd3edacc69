/*
 * verdict.c - the verdict's sentences, one builder for every format
 * (issue 33): the text report's first lines, the HTML report's first
 * screen and the JSON report's verdict.headline say the same words.
 *
 * Design. The engine decides (diff/verdict.c: status, cause, evidence,
 * confidence, symptom); this file only words it. The headline is one
 * sentence: the status, then the cause by its kind and how sure, then
 * where it ran ("diverged: possible cause: a race in `reserve_slot`
 * (threads producer-1 and producer-2)"). The lines below it give the
 * cause's own sentence with its source place, the evidence that is not
 * that sentence again, the confidence when it is "unknown" (where the
 * evidence stops), and the symptom: where the calls part, which is
 * where the older reports started.
 * Stage 0 base of report/STAGES.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "ttr_int.h"

/* The cause by its kind, as the headline names it. */
static void cause_phrase(const ttd_place *c, char *buf, size_t n)
{
    const char *f = c->function && *c->function ? c->function : "?";

    switch (c->kind) {
    case TTD_COF_COUNT:
        if (c->text && *c->text)
            snprintf(buf, n, "%s", c->text);
        else
            snprintf(buf, n, "`%s` called another number of times", f);
        break;
    case TTD_COF_VALUE:
        if (c->decided_by)
            snprintf(buf, n, "%s decided the branch in `%s`", c->decided_by, f);
        else
            snprintf(buf, n, "a value from `%s`", f);
        break;
    case TTD_COF_ERROR_ORIGIN: snprintf(buf, n, "the failure starts in `%s`", f); break;
    case TTD_COF_RACE: snprintf(buf, n, "a race in `%s`", f); break;
    case TTD_COF_ORDER: snprintf(buf, n, "the threads' order at `%s`", f); break;
    case TTD_COF_CODE:
        if (c->inlined)
            snprintf(buf, n, "the code of `%s` changed (inlined into `%s`)", c->inlined, f);
        else
            snprintf(buf, n, "the code of `%s` changed", f);
        break;
    case TTD_COF_DEADLOCK: snprintf(buf, n, "a deadlock at `%s`", f); break;
    case TTD_COF_HANG: snprintf(buf, n, "a wait that never ended in `%s`", f); break;
    case TTD_COF_ANSWER: snprintf(buf, n, "the answer `%s` returned", f); break;
    case TTD_COF_WRITTEN: snprintf(buf, n, "data `%s` wrote, read back later", f); break;
    default:    /* no function: the same calls, another end */
        if (c->function && *c->function)
            snprintf(buf, n, "the branch in `%s`", f);
        else
            snprintf(buf, n, "the runs' ends");
    }
}

static const char *status_words(const ttd_verdict *v)
{
    switch (v->status) {
    case TTD_VERDICT_SAME: return "same";
    case TTD_VERDICT_NONDET: return "nondeterministic";
    case TTD_VERDICT_OUTCOME: return "outcome differs";
    default: return "diverged";
    }
}

/* The timing clause: "timing (" and the shapes the hidden hunks have,
 * each once, in enum order; the old summary of all of them when no
 * hidden entry says which (a swap after a hidden hunk). */
static size_t timing_clause(const ttd_verdict *v, char *buf, size_t n)
{
    static const char *const shape[] = {
        NULL, "a loop that waits ran more times", "work moved to another thread",
        "an attempt was retried", NULL, NULL, "a pool started one more worker",
        "a lock was contended", "a loop spun until a clock turned"};
    unsigned seen = 0;
    size_t o = 0;

    for (size_t i = 0; i < v->nhidden; i++)
        if (v->hidden[i].kind == TTD_HIDDEN_TIMING && v->hidden[i].timing > 0 &&
            v->hidden[i].timing < (int)(sizeof shape / sizeof *shape) &&
            shape[v->hidden[i].timing])
            seen |= 1u << v->hidden[i].timing;
    if (!seen)
        return (size_t)snprintf(buf, n, "timing (a loop that waits ran more times, work "
                                "moved or retried)");
    o = (size_t)snprintf(buf, n, "timing (");
    for (unsigned k = 1; k < sizeof shape / sizeof *shape && o < n; k++)
        if (seen >> k & 1)
            o += (size_t)snprintf(buf + o, n - o, "%s%s", o > 8 ? ", " : "", shape[k]);
    return o < n ? o + (size_t)snprintf(buf + o, n - o, ")") : o;
}

/* What varied between runs that did not diverge, in one clause: each
 * kind of hidden difference once (the timing shapes by name). */
static void varied(const ttd_verdict *v, char *buf, size_t n)
{
    static const char *const what[] = {
        "", NULL,
        "a pool's threads shared the same work differently",
        "how far threads had got (a lock's holders, a thread the exit cut short)",
        "values no input decides (clocks, counters, addresses)",
        "what also varies between the good runs",
        "how the two builds inlined library code"};
    size_t o = 0, cnt[7] = {0};

    buf[0] = '\0';
    for (size_t i = 0; i < v->nhidden; i++)
        if (v->hidden[i].kind > 0 && v->hidden[i].kind < 7)
            cnt[v->hidden[i].kind]++;
    for (int k = 1; k < 7 && o < n; k++) {
        if (!cnt[k])
            continue;
        if (o)
            o += (size_t)snprintf(buf + o, n - o, "; ");
        if (o < n)
            o += k == TTD_HIDDEN_TIMING ? timing_clause(v, buf + o, n - o)
                                         : (size_t)snprintf(buf + o, n - o, "%s", what[k]);
    }
}

static void headline(const ttd_result *r, ttri_verdict_text *t)
{
    const ttd_verdict *v = r->verdict;
    char what[TTRI_VERDICT_LINE];
    size_t o;

    if (!v->cause) {
        o = (size_t)snprintf(t->headline, sizeof t->headline, "%s: ", status_words(v));
        if (v->status != TTD_VERDICT_SAME && v->status != TTD_VERDICT_NONDET) {
            snprintf(t->headline + o, sizeof t->headline - o, "%s",
                     v->symptom && v->symptom->text ? v->symptom->text : "no cause found");
            return;
        }
        o += (size_t)snprintf(t->headline + o, sizeof t->headline - o,
                              "no divergence in %zu thread pair%s", r->npairs,
                              r->npairs == 1 ? "" : "s");
        if (v->nhidden && o < sizeof t->headline) {
            char vary[TTRI_VERDICT_LINE];
            varied(v, vary, sizeof vary);
            /* cut to the line if need be: the headline is one line (same:
             * only the builds' inlining differed, no run) */
            if (snprintf(t->headline + o, sizeof t->headline - o, "; %s: %s",
                         v->status == TTD_VERDICT_NONDET ? "only this varied" : "not counted",
                         vary) < 0)
                t->headline[o] = '\0';
        }
        return;
    }
    cause_phrase(v->cause, what, sizeof what);
    if (v->confidence == TTD_CONF_UNKNOWN)
        o = (size_t)snprintf(t->headline, sizeof t->headline, "%s: cause unknown, the "
                             "evidence stops at %s", status_words(v), what);
    else
        o = (size_t)snprintf(t->headline, sizeof t->headline, "%s: %s cause: %s",
                             status_words(v), ttd_confidence_name(v->confidence), what);
    if (v->cause->thread && o < sizeof t->headline)
        snprintf(t->headline + o, sizeof t->headline - o, " (thread %s)",
                 v->cause->label);
}

void ttri_verdict_words(const ttd_result *r, ttri_verdict_text *t)
{
    const ttd_verdict *v = r->verdict;

    memset(t, 0, sizeof *t);
    if (!v) {
        snprintf(t->headline, sizeof t->headline, "no verdict");
        return;
    }
    headline(r, t);
    snprintf(t->confidence, sizeof t->confidence, "%s", ttd_confidence_name(v->confidence));
    if (v->confidence == TTD_CONF_UNKNOWN && v->stops_at)
        snprintf(t->confidence, sizeof t->confidence, "unknown: the evidence stops at %s",
                 v->stops_at);
    if (v->cause) {
        const ttd_place *c = v->cause;
        size_t o = (size_t)snprintf(t->cause, sizeof t->cause, "%s",
                                    c->text && *c->text ? c->text : "");
        if (c->file && o < sizeof t->cause)
            snprintf(t->cause + o, sizeof t->cause - o, "%s(%s:%d)", o ? " " : "", c->file,
                     c->line);
    }
    for (size_t i = 0; i < v->nevidence; i++)
        if (!v->cause || !v->cause->text || strcmp(v->evidence[i], v->cause->text) != 0)
            t->evidence[t->nevidence++] = v->evidence[i];
    if (v->symptom) {
        const ttd_place *s = v->symptom;
        size_t o = (size_t)snprintf(t->symptom, sizeof t->symptom, "%s", s->text ? s->text : "");
        if (s->thread && s->bad_index != UINT64_MAX && o < sizeof t->symptom)
            snprintf(t->symptom + o, sizeof t->symptom - o, " (thread %s, bad event %" PRIu64 ")",
                     s->label, s->bad_index);
    }
}
