/*
 * model.c - the report model (issue 35 item 3): every sentence and note
 * the reports say about a result is built here, once, from the engine's
 * const results; text.c and html.c only serialise it (ttri_put), JSON takes
 * a sentence as a plain string (ttri_model_plain).
 *
 * Design: a sentence is a list of spans (ttr_int.h): trusted words and
 * numbers, trace strings, function names, engine sentences, an event, and
 * what surrounds the sentence in each format (the text line's end and
 * colours, the HTML paragraph and its markup). The text and HTML reports
 * grew apart in their wording (capitals, "note:" prefixes, a clause more
 * or less); a report must not change by one byte in this step, so where
 * they differ a builder writes both wordings side by side, each span
 * marked with its format (T: text, H: HTML, L: both). The facts - which
 * numbers, which names, which condition says what - are decided once, here;
 * unifying a wording later is deleting its other half.
 *
 * Storage: spans and formatted strings live in chunks the model owns,
 * freed at once by ttri_model_free. An allocation that fails sets
 * m->failed (the renderer returns TT_ENOMEM) and the sentence comes out
 * short, never a crash.
 * Stage 2 model of report/STAGES.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttr_int.h"
#include "ttreport.h"

#define BOLD "\033[1m"
#define RED "\033[31m"
#define YELLOW "\033[33m"
#define RESET "\033[0m"

struct ttri_chunk {
    struct ttri_chunk *next;
    size_t used, cap;
    char data[];
};

/* The sentence being built and its model. */
typedef struct sb {
    ttri_model *m;
    ttri_sent *s;
} sb;

static void *mem(ttri_model *m, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    struct ttri_chunk *c = m->chunk;
    if (!c || c->cap - c->used < n) {
        size_t cap = n > 8192 ? n : 8192;
        c = malloc(sizeof *c + cap);
        if (!c) {
            m->failed = 1;
            return NULL;
        }
        c->next = m->chunk;
        c->used = 0;
        c->cap = cap;
        m->chunk = c;
    }
    void *p = c->data + c->used;
    c->used += n;
    return p;
}

static ttri_sent *begin(ttri_model *m, sb *b)
{
    static ttri_sent none;      /* a failed allocation: an empty sentence */
    ttri_sent *s = mem(m, sizeof *s);
    b->m = m;
    b->s = s;
    if (!s) {
        b->s = NULL;
        return &none;
    }
    s->first = s->last = NULL;
    return s;
}

static void span(sb *b, int kind, int only, const char *s, const ttd_event *ev)
{
    if (!b->s)
        return;
    ttri_span *p = mem(b->m, sizeof *p);
    if (!p)
        return;
    *p = (ttri_span){NULL, (unsigned char)kind, (unsigned char)only, s, ev};
    if (b->s->last)
        b->s->last->next = p;
    else
        b->s->first = p;
    b->s->last = p;
}

static void vlit(sb *b, int only, const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    char *p = n < 0 ? NULL : mem(b->m, (size_t)n + 1);
    if (!p)
        return;
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    span(b, TTRI_SP_LIT, only, p, NULL);
}

/* Words for the format(s) only, both formats, the text report only, the
 * HTML report only. */
static void W(sb *b, int only, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void W(sb *b, int only, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlit(b, only, fmt, ap);
    va_end(ap);
}

static void L(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void T(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void H(sb *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void L(sb *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlit(b, TTRI_ALL, fmt, ap);
    va_end(ap);
}

static void T(sb *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlit(b, TTRI_TEXT, fmt, ap);
    va_end(ap);
}

static void H(sb *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlit(b, TTRI_HTML, fmt, ap);
    va_end(ap);
}

static void str(sb *b, int only, const char *s) { span(b, TTRI_SP_STR, only, s, NULL); }
static void name(sb *b, int only, const char *s) { span(b, TTRI_SP_NAME, only, s, NULL); }
static void fn(sb *b, int only, const char *s) { span(b, TTRI_SP_FN, only, s, NULL); }
static void style(sb *b, const char *code) { span(b, TTRI_SP_STYLE, TTRI_TEXT, code, NULL); }

/* "41.200 ms" (ms since the run's start, three decimals), for the
 * format(s) only. */
static void ms_for(sb *b, int only, uint64_t ns)
{
    W(b, only, "%" PRIu64 ".%03" PRIu64 " ms", ns / 1000000, ns / 1000 % 1000);
}

/* Nanoseconds as ms with 6 decimals: the "order unknown" line's bounds,
 * which can be microseconds or less apart (3 decimals read "0.000 ms"). */
static void ms_ns_for(sb *b, int only, uint64_t ns)
{
    W(b, only, "%" PRIu64 ".%06" PRIu64 " ms", ns / 1000000, ns % 1000000);
}

static void ms(sb *b, uint64_t ns)
{
    ms_for(b, TTRI_ALL, ns);
}

static const char *plural(uint64_t n)
{
    return n == 1 ? "" : "s";
}

const char *ttri_pair_name(const ttd_pair *p)
{
    return p->bad.name[0] ? p->bad.name : p->good.name[0] ? p->good.name : "(unnamed)";
}

/* ---- the verdict --------------------------------------------------------- */

/* "exit status 1", "signal 11", "no clean end" of run i (text). */
static void end_words(sb *b, const ttd_outcome *o, int i)
{
    if (o->signal[i])
        T(b, "signal %d", o->signal[i]);
    else if (o->has_exit[i])
        T(b, "exit status %d", o->exit_status[i]);
    else
        T(b, "no clean end");
}

static void hl_ended(sb *b, const ttd_result *r)
{
    style(b, BOLD);
    if (r->verdict && r->verdict->ncounts) {   /* aligned per thread, but counts differ */
        T(b, "first divergence: each");
        H(b, "<span class=\"pill bad\">diverged</span>Each");
        L(b, " thread's calls align (not their counts: see the verdict) but the runs"
             " ended differently");
    } else {
        T(b, "first divergence: the");
        H(b, "<span class=\"pill bad\">diverged</span>The");
        L(b, " runs made the same calls but ended differently");
    }
    T(b, ": ");
    end_words(b, &r->outcome, TTD_BAD);
    T(b, " in the bad run, ");
    end_words(b, &r->outcome, TTD_GOOD);
    T(b, " in the good run");
    H(b, " (exit status %d in the bad run, %d in the good run).</p>\n",
      r->outcome.exit_status[TTD_BAD], r->outcome.exit_status[TTD_GOOD]);
    style(b, RESET);
    T(b, "\n");
}

static void hl_failed(sb *b, const ttd_result *r)
{
    style(b, BOLD);
    T(b, "first divergence: the");
    H(b, "<span class=\"pill bad\">diverged</span>The");
    L(b, " outcome: the bad run failed (");
    str(b, TTRI_ALL, r->options.bad_failed);
    L(b, "), the good run did not");
    style(b, RESET);
    L(b, "%s", r->outcome.same_calls ? "; every thread made the same calls" : "");
    H(b, ".</p>\n");
    T(b, "\n");
}

static void hl_value(sb *b, const ttd_result *r)
{
    H(b, "<span class=\"pill bad\">diverged</span>A value differs: <code>");
    name(b, TTRI_HTML, r->value_first->function);
    H(b, "</code>; the calls do not part.</p>\n");
}

/* How many of the listed timing-shaped hunks are the builds' inlining. */
static size_t inlined_listed(const ttd_result *r)
{
    size_t inl = 0;
    for (size_t i = r->nhunks - r->nexpected - r->ntiming; i < r->nhunks - r->nexpected; i++)
        inl += r->hunks[i].timing == TTD_TIMING_INLINED;
    return inl;
}

static void hl_same(sb *b, const ttd_result *r)
{
    const ttd_run_info *g = &r->runs[TTD_GOOD], *bad = &r->runs[TTD_BAD];
    style(b, BOLD);
    T(b, "n");
    H(b, "<span class=\"pill ok\">same</span>N");
    L(b, "o divergence in %zu thread pair%s", r->npairs, plural(r->npairs));
    if (g->cut || bad->cut)
        T(b, " before the %s run's trace was cut", bad->cut ? "bad" : "good");
    if (r->nunpaired)
        L(b, ", but %zu unpaired thread%s", r->nunpaired, plural(r->nunpaired));
    if (r->expected_total) {
        L(b, " (%" PRIu64 " difference%s ", r->expected_total, plural(r->expected_total));
        T(b, "that also occur%s", r->expected_total == 1 ? "s" : "");
        H(b, "also seen");
        L(b, " between the good runs)");
    }
    if (r->timing_total)
        T(b, " (%" PRIu64 " timing-shaped%s difference%s)", r->timing_total,
          inlined_listed(r) ? " or build" : "", plural(r->timing_total));
    style(b, RESET);
    T(b, "\n");
    H(b, ".</p>\n");
}

/* The HTML verdict when the calls part (the text report says it in the
 * first divergence's line, m->split). */
static void hl_split(sb *b, const ttd_result *r)
{
    const ttd_divergence *d = r->first;
    const ttd_event *e = d->nbad ? &d->bad[0] : d->ngood ? &d->good[0] : NULL;
    const ttd_run_info *bad = &r->runs[TTD_BAD];

    H(b, "<span class=\"pill bad\">diverged</span>%" PRIu64 " divergence%s; the first in "
      "thread <code>", r->hunks_total, plural(r->hunks_total));
    str(b, TTRI_HTML, ttri_pair_name(&r->pairs[d->pair]));
    H(b, "</code>");
    if (d->nframes) { /* the innermost frame, an inlined one included */
        H(b, " inside <code>");
        name(b, TTRI_HTML, d->frames[d->nframes - 1].name);
        H(b, "</code>%s", d->frames[d->nframes - 1].inlined ? " (inlined)" : "");
    }
    if (e && (e->kind == TTF_EV_ENTER || e->kind == TTF_EV_EXIT)) {
        H(b, " at <code>");
        name(b, TTRI_HTML, e->name);
        H(b, "</code>");
    }
    H(b, ", after ");
    ms_for(b, TTRI_HTML, d->bad_time_ns);
    H(b, ".%s", bad->crash ? " The bad run crashed." : "");
    if (!bad->crash && ttri_bad_stopped_early(r))
        H(b, " The bad run stopped early (%s %d).", bad->closed ? "exit status"
          : "no clean end, last status", bad->exit_status);
    H(b, "</p>\n");
}

static ttri_sent *headline(ttri_model *m)
{
    sb b;
    ttri_sent *s = begin(m, &b);
    switch (ttri_headline(m->r)) {
    case TTRI_HL_ENDED: hl_ended(&b, m->r); break;
    case TTRI_HL_FAILED: hl_failed(&b, m->r); break;
    case TTRI_HL_VALUE: hl_value(&b, m->r); break;
    case TTRI_HL_SAME: hl_same(&b, m->r); break;
    default: hl_split(&b, m->r);
    }
    return s;
}

/* ---- the runs ------------------------------------------------------------ */

static ttri_sent *program(ttri_model *m)
{
    const ttd_result *r = m->r;
    char g[132], h[132];
    sb b;

    if (r->program != TTD_PROGRAM_OTHER && r->program != TTD_PROGRAM_BUILD)
        return NULL;
    ttri_sent *s = begin(m, &b);
    T(&b, "note: ");
    H(&b, "<p class=\"note\" id=\"tt-program\"><b>Note:</b> ");
    if (r->program == TTD_PROGRAM_OTHER) {
        L(&b, "different programs");
        T(&b, ": ");
        H(&b, " (<code>");
        str(&b, TTRI_ALL, r->runs[TTD_GOOD].exe);
        T(&b, " vs ");
        H(&b, "</code> vs <code>");
        str(&b, TTRI_ALL, r->runs[TTD_BAD].exe);
        T(&b, " (compared by function name)\n");
        H(&b, "</code>)");
    } else {
        ttri_build_id_hex(&r->runs[TTD_GOOD], g, sizeof g);
        ttri_build_id_hex(&r->runs[TTD_BAD], h, sizeof h);
        L(&b, "two builds of ");
        H(&b, "<code>");
        str(&b, TTRI_ALL, r->runs[TTD_BAD].exe);
        T(&b, ": build-id %.12s vs %.12s (compared by function name)\n", g, h);
        H(&b, "</code> (build-id <code>%.12s</code> vs <code>%.12s</code>)", g, h);
    }
    H(&b, "; compared by function name.</p>\n");
    return s;
}

static ttri_sent *chaos(ttri_model *m)
{
    const ttd_run_info *x = &m->r->runs[TTD_BAD];
    int ent = (x->chaos & TTF_PROC_CHAOS_ENTRIES) != 0;
    sb b;

    if (!x->chaos)
        return NULL;
    ttri_sent *s = begin(m, &b);
    T(&b, "chaos: the");
    H(&b, "<p class=\"note\" id=\"tt-chaos\">The");
    L(&b, " bad run ran in chaos mode, seed ");
    H(&b, "<code>");
    L(&b, "%" PRIu64, x->chaos_seed);
    H(&b, "</code>");
    L(&b, " (yields and sleeps at thread operations%s); ", ent ? " and function entries" : "");
    H(&b, "<code>");
    L(&b, "TTCAP_CHAOS=%" PRIu64 "%s", x->chaos_seed, ent ? ",entries" : "");
    T(&b, " or ttrec --chaos=%" PRIu64 "%s", x->chaos_seed, ent ? " --chaos-entries" : "");
    H(&b, "</code>");
    L(&b, " repeats them");
    T(&b, "\n");
    H(&b, ".</p>\n");
    return s;
}

/* "changed between the builds: f, g (new) (+N more) (of M functions in
 * both)"; the HTML report lists every function after it itself. */
static ttri_sent *code(ttri_model *m)
{
    const ttd_result *r = m->r;
    size_t n = r->nchanged_functions, shown = n <= 6 ? n : 5;
    sb b;

    if (!r->code_compared)
        return NULL;
    ttri_sent *s = begin(m, &b);
    T(&b, "c");
    H(&b, "<p class=\"note\" id=\"tt-code\"><b>C");
    L(&b, "hanged between the builds");
    H(&b, "</b> (machine code compared, %zu function%s in both)", r->code_functions,
      plural(r->code_functions));
    L(&b, ": %s", n ? "" : "none");
    for (size_t i = 0; i < shown; i++) {
        const ttd_code_change *c = &r->changed_functions[i];
        T(&b, "%s", i ? ", " : "");
        name(&b, TTRI_TEXT, c->function);
        T(&b, "%s", c->status == TTD_CODE_ADDED ? " (new)"
          : c->status == TTD_CODE_REMOVED ? " (removed)" : "");
    }
    if (n > shown)
        T(&b, " (+%zu more)", n - shown);
    T(&b, " (of %zu function%s in both)\n", r->code_functions, plural(r->code_functions));
    H(&b, "</p>\n");
    return s;
}

/* ---- a value divergence -------------------------------------------------- */

/* A value as the diff compared it: a bare address only as NULL or
 * non-NULL; markup marks it in HTML. */
static void value(sb *b, const ttd_value_diff *v, const char *text)
{
    H(b, " <b class=\"val\">");
    str(b, TTRI_ALL, text);
    H(b, "</b>");
    L(b, "%s", v->cls == TTF_VC_POINTER && strncmp(text, "0x", 2) == 0 ? " (non-NULL)" : "");
}

/* "`f` returned B in the bad run, G" or "`f` was called with argument N
 * (param) = B in the bad run, G" (the caller ends the sentence). */
static void value_both(sb *b, const ttd_value_diff *v)
{
    T(b, "`");
    H(b, "<code>");
    fn(b, TTRI_ALL, v->function);
    T(b, "`");
    H(b, "</code>");
    if (v->what == TTD_VAL_RETURN) {
        L(b, " returned");
        T(b, " ");
    } else {
        L(b, " was called with argument %d", v->arg + 1);
        if (v->param[0]) {
            L(b, " (");
            H(b, "<code>");
            str(b, TTRI_ALL, v->param);
            H(b, "</code>");
            L(b, ")");
        }
        L(b, " =");
        T(b, " ");
    }
    value(b, v, v->bad_value);
    L(b, " in the bad run,");
    T(b, " ");
    value(b, v, v->good_value);
}

#define VSTACK_SHOWN 8 /* innermost frames the text report's stack line shows */

/* Where the call with the differing value was made: its caller and the
 * bad run's stack (text: the innermost VSTACK_SHOWN frames). */
static void value_caller(sb *b, const ttd_value_diff *v)
{
    if (!v->stack)
        return;
    if (!v->caller) {
        T(b, "  called");
        H(b, "<p class=\"mut\" id=\"tt-value-stack\">Called");
        L(b, " at the top of its thread (no traced caller)");
        T(b, "\n");
        H(b, ".</p>\n");
        return;
    }
    const ttd_frame *c = &v->stack[v->nstack - 1];
    T(b, "  called by `");
    H(b, "<p class=\"mut\" id=\"tt-value-stack\">Called by <code>");
    fn(b, TTRI_ALL, v->caller);
    T(b, "`");
    H(b, "</code>");
    if (c->file && c->line > 0) {
        T(b, " at ");
        H(b, " <span class=\"loc\">");
        str(b, TTRI_ALL, c->file);
        L(b, ":%d", c->line);
        H(b, "</span>");
    }
    L(b, "; stack: ");
    size_t from = v->nstack > VSTACK_SHOWN ? v->nstack - VSTACK_SHOWN : 0;
    if (from)
        T(b, "(%zu more) > ", from);
    for (size_t i = 0; i < v->nstack; i++) {
        H(b, "<code>");
        fn(b, i < from ? TTRI_HTML : TTRI_ALL, v->stack[i].name);
        H(b, "</code> &gt; ");
        if (i >= from)
            T(b, "%s", i + 1 < v->nstack ? " > " : "");
    }
    T(b, " > ");
    H(b, "<code>");
    fn(b, TTRI_ALL, v->function);
    T(b, "\n");
    H(b, "</code></p>\n");
}

static ttri_sent *value_block(ttri_model *m)
{
    const ttd_result *r = m->r;
    const ttd_value_diff *v = r->value_first;
    sb b;

    if (!v)
        return NULL;
    ttri_sent *s = begin(m, &b);
    style(&b, BOLD);
    T(&b, "%s", ttri_headline(r) == TTRI_HL_ENDED && v->before_split
      ? "the first value difference that matters: "
      : v->before_split ? "first divergence: " : "a value differs too: ");
    H(&b, "<section class=\"first\" id=\"value\"><h2>%s</h2>\n<p id=\"tt-value\">",
      v->before_split ? "First divergence: a value" : "A value differs too");
    value_both(&b, v);
    L(&b, " in the good run");
    style(&b, RESET);
    if (v->file && v->line > 0) {
        H(&b, " <span class=\"loc\">");
        str(&b, TTRI_HTML, v->file);
        H(&b, ":%d</span>", v->line);
    }
    T(&b, "\n  a value: thread ");
    H(&b, ".</p>\n<p class=\"mut\">Thread <code>");
    str(&b, TTRI_ALL, ttri_pair_name(&r->pairs[v->pair]));
    H(&b, "</code>");
    L(&b, ", good event %" PRIu64 ", bad event %" PRIu64 ", at ", v->good_index,
      v->bad_index);
    ms(&b, v->bad_time_ns);
    L(&b, " in the bad run");
    if (v->file && v->line > 0) {
        T(&b, "; ");
        name(&b, TTRI_TEXT, v->function);
        T(&b, " at ");
        str(&b, TTRI_TEXT, v->file);
        T(&b, ":%d", v->line);
    }
    if (v->type && v->type[0]) {
        T(&b, " (");
        str(&b, TTRI_TEXT, v->type);
        T(&b, ")");
    }
    T(&b, "\n");
    H(&b, ".%s</p>\n", !r->first ? " The calls do not part after it." : v->before_split
      ? " The control-flow divergence it led to follows."
      : " The calls parted before it (below).");
    value_caller(&b, v);
    if (!r->first)
        T(&b, "the call sequences do not part after it\n");
    H(&b, "</section>\n");
    return s;
}

const ttri_sent *ttri_m_value_other(ttri_model *m, const ttd_value_diff *v)
{
    sb b;
    ttri_sent *s = begin(m, &b);
    T(&b, "  ");
    value_both(&b, v);
    T(&b, " in the good run (thread ");
    str(&b, TTRI_TEXT, ttri_pair_name(&m->r->pairs[v->pair]));
    T(&b, ", bad event %" PRIu64 ")\n", v->bad_index);
    return s;
}

/* ---- the first divergence ------------------------------------------------ */

/* "thread T (good #1, bad #1), good event N, bad event M, at 1.2 ms in
 * the bad run", with the loop counts (text) or the good run's time and a
 * link to the window (HTML). */
static ttri_sent *split(ttri_model *m)
{
    const ttd_result *r = m->r;
    const ttd_divergence *d = r->first;
    sb b;

    if (!d)
        return NULL;
    const ttd_pair *p = &r->pairs[d->pair];
    const ttd_hunk_info *h = &r->hunks[d->hunk];
    ttri_sent *s = begin(m, &b);
    style(&b, BOLD);
    T(&b, "%s", r->value_first && r->value_first->before_split
      ? "then the call sequences part: thread " : "first divergence: thread ");
    H(&b, "<section class=\"first\" id=\"first\"><h2>First divergence</h2>\n<p>Thread <b><code>");
    str(&b, TTRI_ALL, ttri_pair_name(p));
    H(&b, "</code></b>");
    L(&b, " (good #%u, bad #%u)", p->good.index, p->bad.index);
    T(&b, ",");
    H(&b, ":");
    L(&b, " good event %" PRIu64 ", bad event %" PRIu64 ", at ", d->good_index, d->bad_index);
    ms(&b, d->bad_time_ns);
    L(&b, " in the bad run");
    if (h->good_reps || h->bad_reps)
        T(&b, "  loop x%" PRIu64 " vs x%" PRIu64, h->good_reps, h->bad_reps);
    style(&b, RESET);
    T(&b, "\n");
    H(&b, " (");
    ms_for(&b, TTRI_HTML, d->good_time_ns);
    H(&b, " in the good run). <a href=\"#d1\" data-go=\"1\">Side by side &#8595;</a></p>\n");
    return s;
}

static ttri_sent *followed(ttri_model *m)
{
    const ttd_result *r = m->r;
    const ttd_hunk_info *h = r->followed;
    sb b;

    if (!h || !r->first)
        return NULL;
    const ttd_pair *p = &r->pairs[h->pair];
    ttri_sent *s = begin(m, &b);
    T(&b, "earlier in time: thread ");
    H(&b, "<p class=\"note\" id=\"tt-followed\">Earlier in time, thread <code>");
    str(&b, TTRI_ALL, ttri_pair_name(p));
    H(&b, "</code>");
    L(&b, " (bad #%u) went another way", p->bad.index);
    T(&b, " at ");
    ms_for(&b, TTRI_TEXT, h->time_ns);
    L(&b, ", holding a lock that ");
    if (h->order_pair < r->npairs) {
        const ttd_pair *o = &r->pairs[h->order_pair];
        L(&b, "thread ");
        H(&b, "<code>");
        str(&b, TTRI_ALL, ttri_pair_name(o));
        H(&b, "</code>");
        L(&b, " (bad #%u)", o->bad.index);
    } else {
        L(&b, "a thread with no partner");
    }
    L(&b, " had taken a different number of times by then: it follows how far the threads "
      "had got, and %s", h->order_dep == TTD_ORDER_CHANGED
      ? "this one is in code that changed between the builds"
      : "nothing orders it before this one");
    T(&b, "\n");
    H(&b, ".</p>\n");
    return s;
}

/* The first divergence's order against another thread's, not known from
 * the clock (ttd_hunk_info.clock_order). */
static ttri_sent *clock_order(ttri_model *m)
{
    const ttd_result *r = m->r;
    const ttd_hunk_info *h = r->nhunks ? &r->hunks[0] : NULL;
    sb b;

    if (!h || !r->first || !h->clock_order || h->clock_pair >= r->npairs)
        return NULL;
    const ttd_pair *o = &r->pairs[h->clock_pair];
    const ttd_hunk_info *oh = NULL;
    for (size_t i = 1; i < r->nhunks && !oh; i++)
        if (r->hunks[i].pair == h->clock_pair && !r->hunks[i].expected && !r->hunks[i].timing)
            oh = &r->hunks[i];
    ttri_sent *s = begin(m, &b);
    T(&b, "order unknown: ");
    H(&b, "<p class=\"note\" id=\"tt-clock-order\">Order unknown: ");
    L(&b, "which thread parted first is not known from the clock: this split (");
    ms_ns_for(&b, TTRI_ALL, h->early_ns);
    L(&b, " to ");
    ms_ns_for(&b, TTRI_ALL, h->late_ns);
    L(&b, ") and thread ");
    H(&b, "<code>");
    str(&b, TTRI_ALL, ttri_pair_name(o));
    H(&b, "</code>");
    L(&b, "'s (bad #%u", o->bad.index);
    if (oh) {
        L(&b, ", ");
        ms_ns_for(&b, TTRI_ALL, oh->early_ns);
        L(&b, " to ");
        ms_ns_for(&b, TTRI_ALL, oh->late_ns);
    }
    L(&b, ") overlap, and no lock, signal, create or join orders them; %s",
      h->clock_order == TTD_CLOCK_SYMPTOM
      ? "this one is put first because its thread is where the bad run failed"
      : "this one is put first by the estimated times alone");
    T(&b, "\n");
    H(&b, ".</p>\n");
    return s;
}

static ttri_sent *artifact(ttri_model *m)
{
    const ttd_divergence *d = m->r->first;
    sb b;

    if (!d || !d->build_artifact)
        return NULL;
    ttri_sent *s = begin(m, &b);
    style(&b, YELLOW);
    T(&b, "note: this");
    H(&b, "<p class=\"note noise\" id=\"tt-artifact\">This");
    L(&b, " looks like an artifact of the build, not of the run: ");
    H(&b, "<code>");
    str(&b, TTRI_ALL, d->build_artifact);
    H(&b, "</code>");
    L(&b, " is instrumented in one build only (an inline function from a header, "
      "compiled or inlined differently)");
    style(&b, RESET);
    T(&b, "\n");
    H(&b, ".</p>\n");
    return s;
}

static ttri_sent *noise(ttri_model *m)
{
    const ttd_divergence *d = m->r->first;
    int base = m->r->nbaselines != 0;
    sb b;

    if (!d || d->noise != TTD_NOISE_WAIT)
        return NULL;
    ttri_sent *s = begin(m, &b);
    style(&b, YELLOW);
    T(&b, "note: this");
    H(&b, "<p class=\"note noise\">This");
    L(&b, " may be timing noise: the differing calls wait or poll (");
    H(&b, "<code>");
    str(&b, TTRI_ALL, d->noise_calls);
    H(&b, "</code>");
    L(&b, "), a wait loop that ran a different number of times");
    style(&b, RESET);
    H(&b, ".");
    if (!base) {
        T(&b, "; g");
        H(&b, " G");
        L(&b, "ood runs that vary here too tell noise from the failure: record more and ");
        T(&b, "add them with --baseline (ttrec --until-fail does both)");
        H(&b, "pass them with <code>--baseline</code> (<code>ttrec --until-fail</code> "
          "does both).");
    }
    T(&b, "\n");
    H(&b, "</p>\n");
    return s;
}

static ttri_sent *siblings(ttri_model *m)
{
    const ttd_result *r = m->r;
    sb b;

    if (!r->first || !r->nsiblings)
        return NULL;
    ttri_sent *s = begin(m, &b);
    T(&b, "note: more");
    H(&b, "<p class=\"note siblings\">More");
    L(&b, " runs lie beside the good one; if they passed, compare with them as baselines:");
    T(&b, "\n     ");
    H(&b, " <code>");
    for (size_t i = 0; i < r->nsiblings; i++) {
        L(&b, " --baseline ");
        str(&b, TTRI_ALL, r->siblings[i]);
    }
    T(&b, "\n");
    H(&b, "</code></p>\n");
    return s;
}

/* "The bad run died here: ... at 1.2 ms" (HTML, under a window). */
static void crash_here(sb *b, const ttd_event *e)
{
    H(b, "<p class=\"crashnote\">The bad run died here: ");
    span(b, TTRI_SP_EVENT, TTRI_HTML, NULL, e);
    H(b, " at ");
    ms_for(b, TTRI_HTML, e->time_ns);
    H(b, "</p>\n");
}

const ttri_sent *ttri_m_crash_here(ttri_model *m, const ttd_event *e)
{
    sb b;
    ttri_sent *s = begin(m, &b);
    crash_here(&b, e);
    return s;
}

/* How the bad run ended, when it died at the split or stopped early: its
 * signal or exit status, and the events it had left after the split. */
static ttri_sent *bad_end(ttri_model *m)
{
    const ttd_result *r = m->r;
    const ttd_divergence *d = r->first;
    sb b;

    if (!d || (!d->crash && !ttri_bad_stopped_early(r)))
        return NULL;
    const ttd_run_info *x = &r->runs[TTD_BAD];
    const ttd_pair *p = &r->pairs[d->pair];
    uint64_t left = p->bad.events > d->bad_index ? p->bad.events - d->bad_index : 0;
    uint64_t gleft = p->good.events > d->good_index ? p->good.events - d->good_index : 0;
    ttri_sent *s = begin(m, &b);
    style(&b, BOLD RED);
    if (d->crash || x->crash) {
        T(&b, d->crash ? "the bad run died here: " : "the bad run died later: ");
        span(&b, TTRI_SP_EVENT, TTRI_TEXT, NULL, d->crash ? d->crash : x->crash);
    } else {
        T(&b, "the bad run stopped early: ");
        if (x->closed)
            T(&b, "exit status %d", x->exit_status);
        else
            T(&b, "no clean end recorded (killed?)");
    }
    style(&b, RESET);
    T(&b, "; a");
    if (d->crash) {
        crash_here(&b, d->crash);
    } else {
        H(&b, "<p class=\"crashnote\">The bad run stopped early: ");
        if (x->crash)
            span(&b, TTRI_SP_EVENT, TTRI_HTML, NULL, x->crash);
        else if (x->closed)
            H(&b, "exit status %d", x->exit_status);
        else
            H(&b, "no clean end recorded (killed?)");
        H(&b, ". A");
    }
    W(&b, d->crash ? TTRI_TEXT : TTRI_ALL, "fter the split this thread had %" PRIu64
      " more event%s in the bad run, %" PRIu64 " in the good run", left, plural(left), gleft);
    T(&b, "\n");
    if (!d->crash)
        H(&b, "; what the bad run did instead is on the right below.</p>\n");
    return s;
}

/* A bad-run call that took no lock its good-run calls all took (the
 * text report lists what the other threads did meanwhile after it). */
static ttri_sent *unprotected(ttri_model *m)
{
    const ttd_divergence *d = m->r->first;
    const ttd_interleave *il = d ? d->interleave : NULL;
    sb b;

    if (!il || !il->unprotected)
        return NULL;
    ttri_sent *s = begin(m, &b);
    style(&b, BOLD);
    T(&b, "u");
    H(&b, "<p class=\"bad unprot\">U");
    L(&b, "nprotected: ");
    H(&b, "<code>");
    name(&b, TTRI_ALL, il->unprot_func);
    H(&b, "</code>");
    L(&b, " in bad ");
    H(&b, "thread ");
    L(&b, "#%u ran without ", il->unprot_call.thread);
    T(&b, "%s", il->unprot_lock);
    H(&b, "<code>");
    str(&b, TTRI_HTML, il->unprot_lock);
    H(&b, "</code>");
    L(&b, " (%.3f..%.3f ms)", (double)il->unprot_call.time_ns / 1e6,
      (double)il->unprot_end_ns / 1e6);
    T(&b, "; all %" PRIu64 " good-run calls of it took %s", il->good_calls, il->unprot_lock);
    H(&b, ", which all %" PRIu64 " good-run calls took", il->good_calls);
    style(&b, RESET);
    if (il->overlapped) {
        T(&b, "; bad #%u was inside %s too, since %.3f ms: the two calls overlap",
          il->overlap.thread, il->unprot_func, (double)il->overlap.time_ns / 1e6);
        H(&b, "; thread #%u was inside it too since %.3f ms", il->overlap.thread,
          (double)il->overlap.time_ns / 1e6);
    }
    T(&b, "%s", il->nduring ? ". Meanwhile:\n" : "; no other thread acted meanwhile\n");
    H(&b, ".</p>\n");
    return s;
}

/* The first difference in the order of operations on one object (the
 * text report shows both runs' operations on lines after it). */
static ttri_sent *order_diff(ttri_model *m)
{
    const ttd_divergence *d = m->r->first;
    const ttd_interleave *il = d ? d->interleave : NULL;
    sb b;

    if (!il || !il->order_differs)
        return NULL;
    ttri_sent *s = begin(m, &b);
    T(&b, "f");
    H(&b, "<p>F");
    L(&b, "irst difference in the order on ");
    T(&b, "%s", il->order_object);
    H(&b, "<code>");
    str(&b, TTRI_HTML, il->order_object);
    H(&b, "</code>");
    L(&b, " (operation %" PRIu64 "):", il->order_index + 1);
    T(&b, "\n");
    H(&b, " good thread #%u, bad thread #%u.</p>\n", il->order[0].thread, il->order[1].thread);
    return s;
}

/* ---- headings and notes -------------------------------------------------- */

static ttri_sent *races_head(ttri_model *m)
{
    size_t n = m->r->nraces, shown = n < 3 ? n : 3;
    sb b;

    if (!n)
        return NULL;
    ttri_sent *s = begin(m, &b);
    T(&b, "races (c");
    H(&b, "<section class=\"races\" id=\"races\"><h2>Races</h2>\n<p class=\"mut\">C");
    L(&b, "alls of two threads that no lock, condition, create or join ordered");
    H(&b, " (the bad run's happens-before order)");
    L(&b, "; %zu found", n);
    T(&b, "):\n");
    H(&b, ", the best %zu here. Each lane is a thread from its check to its act's "
      "release.</p>\n", shown);
    return s;
}

/* A heading: "call stack (outermost first):" (text), "Call stack,
 * outermost first:" (HTML), and what opens the list after it. */
static ttri_sent *heading(ttri_model *m, const char *what, const char *text_more,
                          const char *html_more, const char *html_list)
{
    sb b;
    ttri_sent *s = begin(m, &b);
    T(&b, "%c%s (%s):\n", what[0], what + 1, text_more);
    H(&b, "<div class=\"mut\">%c%s, %s:</div>\n%s", what[0] - 'a' + 'A', what + 1, html_more,
      html_list);
    return s;
}

static ttri_sent *lines_head(ttri_model *m)
{
    sb b;
    ttri_sent *s = begin(m, &b);
    T(&b, "d");
    H(&b, "<div class=\"dec\" id=\"tt-lines\"><div><b>D");
    L(&b, "eciding line:");
    H(&b, "</b>");
    L(&b, " ");
    return s;
}

/* The timing-shaped and the expected differences: the text report's
 * heading of their list, the HTML report's note under it. Two builds'
 * inlining (TTD_TIMING_INLINED) is named so: alone when every one of them
 * is listed and is that, else beside the timing. */
static ttri_sent *timing_note(ttri_model *m)
{
    const ttd_result *r = m->r;
    uint64_t n = r->timing_total;
    size_t inl = inlined_listed(r);
    sb b;
    ttri_sent *s = begin(m, &b);

    if (inl && inl == r->ntiming && n == r->ntiming) {
        T(&b, "the builds' inlining (calls one build alone traced, not divergences): %" PRIu64
          "\n", n);
        H(&b, "<p class=\"note\">%" PRIu64 " difference%s only in how the two builds inlined "
          "library code: calls of a library function that one build inlined with the tracing "
          "hooks and the other called.</p></section>\n", n, plural(n));
        return s;
    }
    T(&b, "timing-shaped (how the threads were timed%s, not divergences): %" PRIu64 "\n",
      inl ? ", or the builds' inlining" : "", n);
    H(&b, "<p class=\"note\">%" PRIu64 " difference%s only in how the threads were timed: a "
      "loop that waits ran more times, or work moved to another thread%s.</p></section>\n", n,
      plural(n), inl ? "; or in how the two builds inlined library code" : "");
    return s;
}

static ttri_sent *expected_note(ttri_model *m)
{
    uint64_t n = m->r->expected_total;
    sb b;
    ttri_sent *s = begin(m, &b);
    T(&b, "also varies between good runs (expected, not divergences): %" PRIu64 "\n", n);
    H(&b, "<p class=\"note\">%" PRIu64 " difference%s of the bad run also occur%s between the "
      "good runs (<code>--baseline</code>): not divergences.</p></section>\n", n, plural(n),
      n == 1 ? "s" : "");
    return s;
}

/* 1 when two hidden differences read alike (kind, reason, evidence): a
 * run of them is listed once with its count (the same inlined call in
 * every string a build constructs). */
static int same_hidden(const ttd_hidden *a, const ttd_hidden *b)
{
    return a->kind == b->kind && a->pair == b->pair && a->text && b->text && a->evidence &&
           b->evidence && !strcmp(a->text, b->text) && !strcmp(a->evidence, b->evidence);
}

/* Every difference the verdict did not count (issue 31: hidden only with
 * proof), each with the evidence that hid it: a list after the hunk lists
 * (text), a section (HTML); JSON has verdict.hidden. */
static ttri_sent *hidden(ttri_model *m)
{
    const ttd_verdict *v = m->r->verdict;
    sb b;

    if (!v || !v->nhidden)
        return NULL;
    ttri_sent *s = begin(m, &b);
    T(&b, "not counted as divergences, and the evidence: %zu\n", v->nhidden);
    H(&b, "<section id=\"hidden\"><h2>Not counted as divergences</h2>\n<ul class=\"mut\">\n");
    for (size_t i = 0, n; i < v->nhidden; i += n) {
        const ttd_hidden *h = &v->hidden[i];
        const char *why = h->text ? h->text : "";
        for (n = 1; i + n < v->nhidden && same_hidden(h, &v->hidden[i + n]); n++)
            ;
        T(&b, "  - ");
        H(&b, "<li>");
        if (!strncmp(why, "not counted as a divergence because ", 36))
            why += 36;
        str(&b, TTRI_ALL, why);
        L(&b, ": ");
        str(&b, TTRI_ALL, h->evidence ? h->evidence : "");
        if (n > 1)
            L(&b, " (%zu alike in a row)", n);
        T(&b, "\n");
        H(&b, "</li>\n");
    }
    H(&b, "</ul></section>\n");
    return s;
}

/* ---- notes one format says ---------------------------------------------- */

/* How values took part: compared, ignored as noise, or why not (text). */
static ttri_sent *values(ttri_model *m)
{
    const ttd_result *r = m->r;
    sb b;

    if (!r->values && (!r->values_note || strncmp(r->values_note, "not recorded", 12) == 0))
        return NULL;
    ttri_sent *s = begin(m, &b);
    T(&b, "values: ");
    if (!r->values) {
        str(&b, TTRI_TEXT, r->values_note);
        T(&b, "\n");
        return s;
    }
    T(&b, "%" PRIu64 " compared", r->values_compared);
    if (r->values_noise)
        T(&b, ", %" PRIu64 " differing ones ignored (they vary between good runs)",
          r->values_noise);
    if (r->values_progress)
        T(&b, ", differing ones in %" PRIu64 " thread%s follow the threads' progress",
          r->values_progress, plural(r->values_progress));
    if (r->values_ignored)
        T(&b, ", %" PRIu64 " differing ones not taken as causes (clocks, counters, addresses)",
          r->values_ignored);
    if (r->values_times)
        T(&b, ", %" PRIu64 " differing one%s taken as times (each near its run's own "
          "clock)", r->values_times, plural(r->values_times));
    if (r->values_twinned)
        T(&b, ", %" PRIu64 " pool work item%s not compared (another worker did %s, the same "
          "calls and values, in the good run)", r->values_twinned, plural(r->values_twinned),
          r->values_twinned == 1 ? "it" : "each");
    T(&b, "\n");
    return s;
}

/* "last N common events:", saying why fewer lines follow when they do
 * (text, above the first divergence's common events). */
static ttri_sent *before_head(ttri_model *m)
{
    const ttd_divergence *d = m->r->first;
    sb b;

    if (!d)
        return NULL;
    ttri_sent *s = begin(m, &b);
    if (d->nbefore == 0) {
        T(&b, "no common events before the split (the threads differ from their start)\n");
        return s;
    }
    size_t lines = ttri_tree_lines(d->before, d->nbefore);
    T(&b, "last %zu common events", d->nbefore);
    if (d->nbefore < m->r->options.context)
        T(&b, " (all there are before the split; --context %u)", m->r->options.context);
    if (lines < d->nbefore)
        T(&b, ", in %zu line%s (a call that returns at once takes one)", lines, plural(lines));
    T(&b, ":\n");
    return s;
}

/* Further hunks, and those not resolved (text: the count above the list;
 * HTML: a note under the windows). */
static ttri_sent *further(ttri_model *m)
{
    const ttd_result *r = m->r;
    size_t ndiv = r->nhunks - r->nexpected - r->ntiming;
    sb b;
    ttri_sent *s = begin(m, &b);

    if (r->hunks_total > 1)
        T(&b, "further hunks: %" PRIu64 "\n", r->hunks_total - 1);
    if (r->hunks_total > ndiv)
        H(&b, "<p class=\"note\">%" PRIu64 " more divergences were not resolved; "
          "<code>ttdiff --all</code> resolves every one.</p>\n", r->hunks_total - ndiv);
    return s;
}

const ttri_sent *ttri_m_more(ttri_model *m, uint64_t more)
{
    sb b;
    ttri_sent *s = begin(m, &b);
    T(&b, "  ... %" PRIu64 " more (--all shows them)\n", more);
    H(&b, "<p class=\"note\">%" PRIu64 " more not listed here; <code>ttdiff --all</code> "
      "(text or <code>--format json</code>) lists every one.</p>\n", more);
    return s;
}

const char *ttri_timing_words(int timing)
{
    return timing == TTD_TIMING_MOVED ? "moved: the other run did it in another thread"
         : timing == TTD_TIMING_RETRY ? "retried: one run's attempt did it at once"
         : timing == TTD_TIMING_PROGRESS ? "follows the threads' progress: a lock's earlier"
                                           " holders differ"
         : timing == TTD_TIMING_CUT ? "cut: the thread was still running when its process"
                                      " exited"
         : timing == TTD_TIMING_GREW ? "grew: a pool that did the same work started one"
                                       " more worker"
         : timing == TTD_TIMING_CONTENDED ? "contended: a lock's own slow path; another"
                                            " thread held or wanted the lock"
         : timing == TTD_TIMING_SPIN ? "a loop spun until a clock turned, the same values"
                                       " each time"
         : timing == TTD_TIMING_INLINED ? "inlined: one build inlined a traced copy of a"
                                          " library function the other build called"
         : "a loop that waits ran more times";
}

/* A pool of look-alike threads (text, under the thread pairs). */
const ttri_sent *ttri_m_pool(ttri_model *m, const ttd_pool *pl)
{
    sb b;
    ttri_sent *s = begin(m, &b);
    T(&b, "  %s: %zu look-alike threads starting in ", pl->id, pl->nbad);
    str(&b, TTRI_TEXT, pl->start);
    if (!pl->compared)
        T(&b, ": %" PRIu64 " work items good, %" PRIu64 " bad, too many differ to compare "
          "them as a pool\n", pl->items_good, pl->items_bad);
    else
        T(&b, ", compared as a pool: %" PRIu64 " work items good, %" PRIu64 " bad, %" PRIu64
          " done by one run only\n", pl->items_good, pl->items_bad, pl->items_differing);
    return s;
}

/* A pairing the content could not settle (text), and how to choose. */
const ttri_sent *ttri_m_uncertain(ttri_model *m, const ttd_pair *p)
{
    sb b;
    ttri_sent *s = begin(m, &b);
    T(&b, "  uncertain pairing: good #%u with bad #%u (similarity %.2f", p->good.index,
      p->bad.index, p->similarity);
    if (p->second >= 0)
        T(&b, ", next best %.2f", p->second);
    T(&b, "); to choose: --pair good#%u=bad#M\n", p->good.index);
    return s;
}

/* A thread with no partner (text). */
const ttri_sent *ttri_m_unpaired(ttri_model *m, const ttd_unpaired *u)
{
    sb b;
    ttri_sent *s = begin(m, &b);
    T(&b, "  unpaired: %s #%u ", u->run == TTD_GOOD ? "good" : "bad", u->thread.index);
    str(&b, TTRI_TEXT, u->thread.name[0] ? u->thread.name : "(unnamed)");
    T(&b, " (start ");
    str(&b, TTRI_TEXT, u->thread.start[0] ? u->thread.start : "?");
    T(&b, ", %" PRIu64 " events%s)\n", u->thread.events,
      u->grew ? "; the pool's extra worker: not a divergence" : "");
    return s;
}

/* How much of the traces the page shows (HTML), shown events drawn. */
const ttri_sent *ttri_m_left_out(ttri_model *m, uint64_t shown)
{
    const ttd_run_info *g = &m->r->runs[TTD_GOOD], *x = &m->r->runs[TTD_BAD];
    uint64_t all = g->events + x->events;
    uint64_t out = all > shown ? all - shown : 0;
    sb b;
    ttri_sent *s = begin(m, &b);
    H(&b, "<p class=\"note\" id=\"tt-left-out\">This page shows %" PRIu64 " of the %" PRIu64
      " recorded events (windows around the divergences); %" PRIu64 " are left out. See every "
      "event with <code>ttdump ", shown, all, out);
    str(&b, TTRI_HTML, g->path);
    H(&b, "</code> and <code>ttdump ");
    str(&b, TTRI_HTML, x->path);
    H(&b, "</code> (<code>-t N</code> for one thread, <code>-l</code> for source lines).</p>\n");
    return s;
}

/* ---- the cause chain ----------------------------------------------------- */

const ttri_sent *ttri_m_chain_link(ttri_model *m, const ttd_cause *c, size_t i)
{
    int other = i > 0 && c[i].pair != c[i - 1].pair && c[i].kind != TTD_CAUSE_CODE &&
                c[i - 1].kind != TTD_CAUSE_CODE;
    sb b;
    ttri_sent *s = begin(m, &b);

    T(&b, "  %zu. ", i + 1);
    H(&b, "<li data-kind=\"%d\">", c[i].kind);
    if (other) {
        H(&b, "<span class=\"mut\">");
        L(&b, "after %zu (thread ", i);
        H(&b, "<code>");
        str(&b, TTRI_ALL, c[i - 1].thread);
        H(&b, "</code>");
        L(&b, " first, in the bad run's time):");
        H(&b, "</span>");
        L(&b, " ");
    } else if (i > 0) {
        H(&b, "<span class=\"mut\">");
        L(&b, "because of %zu%s:", i, c[i - 1].strong ? " (the same value)" : "");
        H(&b, "</span>");
        L(&b, " ");
    }
    span(&b, TTRI_SP_SENT, TTRI_ALL, c[i].text, NULL);
    T(&b, "\n");
    H(&b, "</li>\n");
    return s;
}

const ttri_sent *ttri_m_chain_end(ttri_model *m, const char *end)
{
    sb b;
    ttri_sent *s = begin(m, &b);
    T(&b, "  i");
    H(&b, "</ol>\n<p class=\"mut\" id=\"tt-chain-end\">I");
    L(&b, "t starts at 1: ");
    str(&b, TTRI_ALL, end);
    T(&b, "\n");
    H(&b, "</p>\n");
    return s;
}

/* ---- the model ----------------------------------------------------------- */

int ttri_model_init(ttri_model *m, const ttd_result *r)
{
    memset(m, 0, sizeof *m);
    m->r = r;
    m->headline = headline(m);
    m->program = program(m);
    m->chaos = chaos(m);
    m->code = code(m);
    m->value = value_block(m);
    m->split = split(m);
    m->followed = followed(m);
    m->clock_order = clock_order(m);
    m->artifact = artifact(m);
    m->noise = noise(m);
    m->siblings = siblings(m);
    m->bad_end = bad_end(m);
    m->unprotected = unprotected(m);
    m->order_diff = order_diff(m);
    m->races = races_head(m);
    m->stack_head = heading(m, "call stack", "outermost first", "outermost first", "");
    m->suspects_head = heading(m, "suspects", "most likely first, by evidence",
                               "most likely first", "<ol class=\"sus\" id=\"tt-suspects\">\n");
    m->chain_head = heading(m, "cause chain", "earliest first", "earliest first",
                            "<ol class=\"chain\" id=\"tt-chain\">\n");
    m->lines_head = lines_head(m);
    m->timing_note = timing_note(m);
    m->expected_note = expected_note(m);
    m->hidden = hidden(m);
    m->values = values(m);
    m->before_head = before_head(m);
    m->further = further(m);
    return m->failed ? TT_ENOMEM : 0;
}

void ttri_model_free(ttri_model *m)
{
    while (m && m->chunk) {
        struct ttri_chunk *c = m->chunk;
        m->chunk = c->next;
        free(c);
    }
}

const char *ttri_model_plain(ttri_model *m, const ttri_sent *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);

    if (!f) {
        m->failed = 1;
        return "";
    }
    for (const ttri_span *p = s ? s->first : NULL; p; p = p->next) {
        if (p->only == TTRI_HTML || p->kind == TTRI_SP_STYLE)
            continue;
        if (p->kind == TTRI_SP_EVENT)    /* a crash, as the text report says it */
            fprintf(f, "crash %s (signal %d) at 0x%" PRIx64 "%s%s", p->ev->text ? p->ev->text
                    : "?", p->ev->signo, p->ev->fault_addr, p->ev->name ? " in " : "",
                    p->ev->name ? p->ev->name : "");
        else
            fputs(p->s ? p->s : p->kind == TTRI_SP_LIT ? "" : "?", f);
    }
    int bad = fclose(f) != 0 || !buf;
    while (!bad && len && buf[len - 1] == '\n')   /* a line's end is the text's */
        buf[--len] = 0;
    char *out = bad ? NULL : mem(m, len + 1);
    if (out)
        memcpy(out, buf, len + 1);
    free(buf);
    return out ? out : "";
}
