/*
 * text.c - the human report of a ttdiff result: the value divergence (a
 * call that returned another value), the first divergence with its stack,
 * suspects, context and both sides as indented call trees
 * (-/+), the crash, what other threads were doing, further hunks, those
 * that also vary between good runs, and the thread pairs. Colour is ANSI,
 * only when asked; trace strings are made printable.
 */
#include <inttypes.h>
#include <string.h>

#include "ttreport.h"
#include "ttr_int.h"

#define RED "\033[31m"
#define YELLOW "\033[33m"
#define GREEN "\033[32m"
#define DIM "\033[2m"
#define BOLD "\033[1m"
#define RESET "\033[0m"

typedef struct tw {
    FILE *f;                /* output */
    int color;              /* 1: ANSI colours */
    int full_names;         /* 1: C++ names whole (--demangle=full) */
} tw;

static void on(tw *w, const char *code)
{
    if (w->color)
        fputs(code, w->f);
}

/* A trace string made inert for a terminal (ttf_put_text). */
static void safe(tw *w, const char *s)
{
    ttf_put_text(w->f, s ? s : "?");
}

/* A function name, short unless --demangle=full (names.c). */
static void nm(tw *w, const char *s)
{
    char buf[TTRI_NAME_MAX];
    safe(w, !s || w->full_names ? s : ttri_short_name(s, buf, sizeof buf));
}

/* A sentence of the engine's, its `quoted` names short unless
 * --demangle=full. */
static void sent(tw *w, const char *s)
{
    char buf[TTRI_NAME_MAX];
    safe(w, !s || w->full_names ? s : ttri_short_quoted(s, buf, sizeof buf));
}

static void ms(tw *w, uint64_t ns)
{
    fprintf(w->f, "%" PRIu64 ".%03" PRIu64 " ms", ns / 1000000, ns / 1000 % 1000);
}

/* One event on one line: "enter foo", "log foo: text", "crash SIGSEGV in foo". */
static void describe(tw *w, const ttd_event *e)
{
    switch (e->kind) {
    case TTF_EV_ENTER:
    case TTF_EV_EXIT:
        fputs(e->kind == TTF_EV_ENTER ? "enter " : "exit ", w->f);
        nm(w, e->name);
        if (e->value) {
            fputs(e->kind == TTF_EV_EXIT ? " = " : "", w->f);
            safe(w, e->value);
        }
        if (e->from) {
            fputs(" from ", w->f);
            nm(w, e->from);
        }
        break;
    case TTF_EV_CRASH:
        fprintf(w->f, "crash %s (signal %d) at 0x%" PRIx64, e->text ? e->text : "?",
                e->signo, e->fault_addr);
        if (e->name) {
            fputs(" in ", w->f);
            nm(w, e->name);
        }
        break;
    default:
        fputs(e->kind == TTF_EV_MARK ? "mark " : "log ", w->f);
        nm(w, e->name && e->name[0] ? e->name : "?");
        fputs(": ", w->f);
        safe(w, e->text);
    }
}

/* "f(1, NULL) {", or "f(1, NULL) = 0;" for a call with nothing inside
 * (its EXIT ex), "f();" / "f() {" without values; a common call whose
 * values differ adds the good run's in a C comment after it: "good run:
 * (1) = 3" (the arguments or the result only when only they differ). */
static void call_line(tw *w, const ttd_event *e, const ttd_event *ex, int leaf)
{
    nm(w, e->name);
    if (!e->value && !(ex && ex->value)) {
        fputs(ttri_call_suffix(e->name, leaf), w->f);
        return;
    }
    safe(w, e->value ? e->value : strchr(e->name, '(') ? "" : "(...)");
    if (ex && ex->value) {
        fputs(" = ", w->f);
        safe(w, ex->value);
    }
    fputs(leaf ? ";" : " {", w->f);
    const char *ga = e->good_value, *gr = ex ? ex->good_value : NULL;
    if (!ga && !gr)
        return;
    fputs("  /* good run: ", w->f);     /* a common call, other values */
    safe(w, ga ? ga : "");
    fputs(ga && gr ? " = " : "", w->f);
    safe(w, gr ? gr : "");
    fputs(" */", w->f);
}

/* Call-tree lines of ev[0..n) with marker m; an ENTER directly followed by
 * its EXIT prints as "foo();". */
static void tree(tw *w, char m, const char *col, const ttd_event *ev, size_t n,
                 int base)
{
    for (size_t i = 0; i < n; i++) {
        const ttd_event *e = &ev[i];
        int folded = ttri_folds(ev, n, i);
        int ind = ttri_level(e) - base;
        on(w, col);
        int cols = ind < 0 ? 0 : ind > TTRI_MAX_INDENT ? TTRI_MAX_INDENT : ind;
        fprintf(w->f, "  %c %8" PRIu64 "  %*s", m, e->index, 2 * cols, "");
        if (ind > TTRI_MAX_INDENT)
            fprintf(w->f, "[depth %d] ", ind);
        if (e->kind == TTF_EV_ENTER) {
            call_line(w, e, folded ? &ev[i + 1] : NULL, folded);
            if (e->from) {          /* its call site (format 1.2) */
                fputs("  /* from ", w->f);
                nm(w, e->from);
                fputs(" */", w->f);
            }
        } else if (e->kind == TTF_EV_EXIT) {
            fputs("} /* ", w->f);
            nm(w, e->name);
            if (e->value) {
                fputs(" = ", w->f);
                safe(w, e->value);
            }
            if (e->good_value) {
                fputs("; good run: ", w->f);
                safe(w, e->good_value);
            }
            fputs(" */", w->f);
        } else {
            describe(w, e);
        }
        on(w, RESET);
        putc('\n', w->f);
        i += (size_t)folded;
    }
}

static const char *thread_name(const ttd_pair *p)
{
    return p->bad.name[0] ? p->bad.name : p->good.name[0] ? p->good.name : "(unnamed)";
}

/* "  [inlined]" after a frame's name. */
static void frame_marks(tw *w, const ttd_frame *fr)
{
    if (fr->inlined) {
        on(w, BOLD);
        fputs("  [inlined]", w->f);
        on(w, RESET);
    }
}

/* "  calling at line N" after a frame's location. */
static void frame_call(tw *w, const ttd_frame *fr)
{
    if (fr->call_line > 0)
        fprintf(w->f, "  calling at line %d", fr->call_line);
}

static void stack(tw *w, const ttd_divergence *d)
{
    const ttd_frame *frames = d->nframes ? d->frames : d->stack;
    size_t n = d->nframes ? d->nframes : d->nstack;

    fputs("call stack (outermost first):\n", w->f);
    if (!n)
        fputs("    (top level)\n", w->f);
    for (size_t i = 0; i < n; i++) {
        const ttd_frame *fr = &frames[i];
        size_t k = i;       /* frames[i..k) in system headers; the innermost shows */
        while (!w->full_names && k + 1 < n && ttri_system_file(frames[k].file))
            k++;
        if (k - i >= 2) {
            fprintf(w->f, "    %*s... %zu frames in system headers (--demangle=full shows "
                    "them)\n", (int)(2 * (i < TTRI_MAX_INDENT ? i : TTRI_MAX_INDENT)), "", k - i);
            i = k - 1;
            continue;
        }
        fprintf(w->f, "    %*s", (int)(2 * (i < TTRI_MAX_INDENT ? i : TTRI_MAX_INDENT)), "");
        if (i > TTRI_MAX_INDENT)
            fprintf(w->f, "[depth %zu] ", i);
        nm(w, fr->name);
        if (fr->args)
            safe(w, fr->args);
        frame_marks(w, fr);
        if (fr->file && fr->line > 0) {
            on(w, DIM);
            fputs("  at ", w->f);
            safe(w, fr->file);
            fprintf(w->f, ":%d", fr->line);
            on(w, RESET);
        }
        frame_call(w, fr);
        fputs(fr->code_changed ? "  (code changed between the builds)\n" : "\n", w->f);
    }
}

/* A suspect's evidence in words, strongest first: "score 11.0: returned
 * -22 in the bad run, 0 in the good run; ...". */
static void evidence(tw *w, const ttd_suspect *s)
{
    fprintf(w->f, "  (score %.1f", s->score);
    for (size_t i = 0; i < s->nevidence; i++) {
        fputs(i ? "; " : ": ", w->f);
        if (s->evidence[i].weight < 0)
            fputs("against: ", w->f);
        sent(w, s->evidence[i].text);
    }
    fputs(")\n", w->f);
}

static void suspects(tw *w, const ttd_divergence *d)
{
    if (!d->nsuspects)
        return;
    fputs("suspects (most likely first, by evidence):\n", w->f);
    for (size_t i = 0; i < d->nsuspects; i++) {
        const ttd_suspect *s = &d->suspects[i];
        fprintf(w->f, "  %zu. ", i + 1);
        nm(w, s->name);
        if (s->inlined_into) {
            fputs(" [inlined into ", w->f);
            nm(w, s->inlined_into);
            fputc(']', w->f);
        }
        if (s->file && s->line > 0) {
            on(w, DIM);
            fputs("  at ", w->f);
            safe(w, s->file);
            fprintf(w->f, ":%d", s->line);
            on(w, RESET);
        }
        evidence(w, s);
    }
}

/* The cause chain, earliest first: each later step "because of" the one
 * before it; then why it starts where it does. */
static void chain(tw *w, const ttd_cause *c, size_t n, const char *end)
{
    if (!n)
        return;
    fputs("cause chain (earliest first):\n", w->f);
    for (size_t i = 0; i < n; i++) {
        fprintf(w->f, "  %zu. ", i + 1);
        if (i > 0 && c[i].kind != TTD_CAUSE_CODE && c[i - 1].kind != TTD_CAUSE_CODE &&
            c[i].pair != c[i - 1].pair)
            fprintf(w->f, "after %zu (thread ", i);
        else if (i > 0)
            fprintf(w->f, "because of %zu%s: ", i, c[i - 1].strong ? " (the same value)" : "");
        if (i > 0 && c[i].kind != TTD_CAUSE_CODE && c[i - 1].kind != TTD_CAUSE_CODE &&
            c[i].pair != c[i - 1].pair) {
            safe(w, c[i - 1].thread);
            fputs(" first, in the bad run's time): ", w->f);
        }
        sent(w, c[i].text);
        putc('\n', w->f);
    }
    fputs("  it starts at 1: ", w->f);
    safe(w, end);
    putc('\n', w->f);
}

/* " loop xN vs xM" for a loop count hunk. */
static void reps(tw *w, const ttd_hunk_info *h)
{
    if (h->good_reps || h->bad_reps)
        fprintf(w->f, "  loop x%" PRIu64 " vs x%" PRIu64, h->good_reps, h->bad_reps);
}

static void others(tw *w, const char *run, const ttd_other *o, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        fprintf(w->f, "  %-4s #%u ", run, o[i].thread);
        safe(w, o[i].name[0] ? o[i].name : "(unnamed)");
        fputs(":", w->f);
        for (size_t j = 0; j < o[i].nevents; j++) {
            fputs(j ? "; " : " ", w->f);
            describe(w, &o[i].events[j]);
            on(w, DIM);
            fputs(" @", w->f);
            ms(w, o[i].events[j].time_ns);
            on(w, RESET);
        }
        putc('\n', w->f);
    }
}

/* "last N common events:", saying why fewer lines follow when they do. */
static void before_heading(tw *w, const ttd_result *r, const ttd_divergence *d)
{
    size_t lines = ttri_tree_lines(d->before, d->nbefore);
    if (d->nbefore == 0) {
        fputs("no common events before the split (the threads differ from their start)\n",
              w->f);
        return;
    }
    fprintf(w->f, "last %zu common events", d->nbefore);
    if (d->nbefore < r->options.context)
        fprintf(w->f, " (all there are before the split; --context %u)",
                r->options.context);
    if (lines < d->nbefore)
        fprintf(w->f, ", in %zu line%s (a call that returns at once takes one)", lines,
                lines == 1 ? "" : "s");
    fputs(":\n", w->f);
}

/* How the bad run ended, when it stopped early: its signal or exit status
 * and the events it had left after this split. */
static void bad_end(tw *w, const ttd_result *r, const ttd_divergence *d)
{
    const ttd_run_info *b = &r->runs[TTD_BAD];
    const ttd_pair *p = &r->pairs[d->pair];
    uint64_t left = p->bad.events > d->bad_index ? p->bad.events - d->bad_index : 0;
    uint64_t gleft = p->good.events > d->good_index ? p->good.events - d->good_index : 0;
    on(w, BOLD RED);
    if (d->crash || b->crash) {
        fputs(d->crash ? "the bad run died here: " : "the bad run died later: ", w->f);
        describe(w, d->crash ? d->crash : b->crash);
    } else if (b->closed) {
        fprintf(w->f, "the bad run stopped early: exit status %d", b->exit_status);
    } else {
        fputs("the bad run stopped early: no clean end recorded (killed?)", w->f);
    }
    on(w, RESET);
    fprintf(w->f, "; after the split this thread had %" PRIu64 " more event%s in the bad run, %"
            PRIu64 " in the good run\n", left, left == 1 ? "" : "s", gleft);
}

/* The bad-only side of a divergence, then how the bad run ended. */
static void bad_side(tw *w, const ttd_result *r, const ttd_divergence *d, int base)
{
    tree(w, '+', GREEN, d->bad, d->nbad, base);
    if (d->bad_more)
        fprintf(w->f, "  + ... %" PRIu64 " more bad-only events\n", d->bad_more);
    if (d->crash || ttri_bad_stopped_early(r))
        bad_end(w, r, d);
}

/* "NULL", "0x5555 (non-NULL)", "-22", "\"No error\" (0x5555)": a value
 * as the diff compared it (a bare address only as NULL / non-NULL; one
 * into a module's image by what it names there). */
static void value(tw *w, const ttd_value_diff *v, const char *text)
{
    safe(w, text);
    if (v->cls == TTF_VC_POINTER && strncmp(text, "0x", 2) == 0)
        fputs(" (non-NULL)", w->f);
}

/* "f` returned B in the bad run, G" or "f` was called with argument N
 * (param) = B in the bad run, G": a value difference after its opening
 * backquote, up to the good run's value (the caller ends the sentence). */
static void value_both(tw *w, const ttd_value_diff *v)
{
    nm(w, v->function);
    if (v->what == TTD_VAL_RETURN) {
        fputs("` returned ", w->f);
    } else {
        fprintf(w->f, "` was called with argument %d", v->arg + 1);
        if (v->param[0]) {
            fputs(" (", w->f);
            safe(w, v->param);
            putc(')', w->f);
        }
        fputs(" = ", w->f);
    }
    value(w, v, v->bad_value);
    fputs(" in the bad run, ", w->f);
    value(w, v, v->good_value);
}

#define VSTACK_SHOWN 8 /* innermost frames a value's stack line shows */

/* "  called by `g` at f.c:12; stack: main > ... > g": where the call with
 * the differing value was made (the bad run's stack). */
static void value_caller(tw *w, const ttd_value_diff *v)
{
    if (!v->stack)
        return;
    if (!v->caller) {
        fputs("  called at the top of its thread (no traced caller)\n", w->f);
        return;
    }
    const ttd_frame *c = &v->stack[v->nstack - 1];
    fputs("  called by `", w->f);
    nm(w, v->caller);
    putc('`', w->f);
    if (c->file && c->line > 0) {
        fputs(" at ", w->f);
        safe(w, c->file);
        fprintf(w->f, ":%d", c->line);
    }
    fputs("; stack: ", w->f);
    size_t from = v->nstack > VSTACK_SHOWN ? v->nstack - VSTACK_SHOWN : 0;
    if (from)
        fprintf(w->f, "(%zu more) > ", from);
    for (size_t i = from; i < v->nstack; i++) {
        nm(w, v->stack[i].name);
        fputs(i + 1 < v->nstack ? " > " : "", w->f);
    }
    fputs(" > ", w->f);
    nm(w, v->function);
    putc('\n', w->f);
}

/* The value divergence: which call, which value, both runs. */
static void value_divergence(tw *w, const ttd_result *r, const ttd_value_diff *v)
{
    const ttd_pair *p = &r->pairs[v->pair];

    on(w, BOLD);
    fputs(ttri_headline(r) == TTRI_HL_ENDED ? (v->before_split ? "the first value difference that "
                                  "matters: `" : "a value differs too: `")
          : v->before_split ? "first divergence: `" : "a value differs too: `", w->f);
    value_both(w, v);
    fputs(" in the good run", w->f);
    on(w, RESET);
    fputs("\n  a value: thread ", w->f);
    safe(w, thread_name(p));
    fprintf(w->f, ", good event %" PRIu64 ", bad event %" PRIu64 ", at ",
            v->good_index, v->bad_index);
    ms(w, v->bad_time_ns);
    fputs(" in the bad run", w->f);
    if (v->file && v->line > 0) {
        fputs("; ", w->f);
        nm(w, v->function);
        fputs(" at ", w->f);
        safe(w, v->file);
        fprintf(w->f, ":%d", v->line);
    }
    fputs(v->type && v->type[0] ? " (" : "", w->f);
    safe(w, v->type && v->type[0] ? v->type : "");
    fputs(v->type && v->type[0] ? ")\n" : "\n", w->f);
    value_caller(w, v);
    if (!r->first)
        fputs("the call sequences do not part after it\n", w->f);
}

/* "exit status 1", "signal 11", "no clean end" of run i. */
static void end_words(tw *w, const ttd_outcome *o, int i)
{
    if (o->signal[i])
        fprintf(w->f, "signal %d", o->signal[i]);
    else if (o->has_exit[i])
        fprintf(w->f, "exit status %d", o->exit_status[i]);
    else
        fputs("no clean end", w->f);
}

static void outcome_line(tw *w, const ttd_result *r)
{
    on(w, BOLD);
    if (r->verdict && r->verdict->ncounts)    /* aligned per thread, but counts differ */
        fputs("first divergence: each thread's calls align (not their counts: see the "
              "verdict) but the runs ended differently: ", w->f);
    else
        fputs("first divergence: the runs made the same calls but ended differently: ", w->f);
    end_words(w, &r->outcome, TTD_BAD);
    fputs(" in the bad run, ", w->f);
    end_words(w, &r->outcome, TTD_GOOD);
    fputs(" in the good run", w->f);
    on(w, RESET);
    putc('\n', w->f);
}

/* Value differences that do not lead to the split or the exit status. */
static void value_others(tw *w, const ttd_result *r)
{
    if (!r->nvalue_others)
        return;
    fputs("other values differ (not on the cause chain):\n", w->f);
    for (size_t i = 0; i < r->nvalue_others; i++) {
        const ttd_value_diff *v = &r->value_others[i];
        fputs("  `", w->f);
        value_both(w, v);
        fprintf(w->f, " in the good run (thread ");
        safe(w, thread_name(&r->pairs[v->pair]));
        fprintf(w->f, ", bad event %" PRIu64 ")\n", v->bad_index);
    }
}

/* How values took part: compared, ignored as noise, or why not. */
static void values_line(tw *w, const ttd_result *r)
{
    if (r->values) {
        fprintf(w->f, "values: %" PRIu64 " compared", r->values_compared);
        if (r->values_noise)
            fprintf(w->f, ", %" PRIu64 " differing ones ignored (they vary between "
                    "good runs)", r->values_noise);
        if (r->values_progress)
            fprintf(w->f, ", differing ones in %" PRIu64 " thread%s follow the threads'"
                    " progress", r->values_progress, r->values_progress == 1 ? "" : "s");
        if (r->values_ignored)
            fprintf(w->f, ", %" PRIu64 " differing ones not taken as causes (clocks, "
                    "counters, addresses)", r->values_ignored);
        putc('\n', w->f);
    } else if (r->values_note && strncmp(r->values_note, "not recorded", 12) != 0) {
        fputs("values: ", w->f);
        safe(w, r->values_note);
        putc('\n', w->f);
    }
}

/* The divergence that came first in time but follows the threads'
 * progress (order.c), in one line. */
static void followed(tw *w, const ttd_result *r)
{
    const ttd_hunk_info *h = r->followed;

    if (!h)
        return;
    const ttd_pair *p = &r->pairs[h->pair];
    fputs("earlier in time: thread ", w->f);
    safe(w, thread_name(p));
    fprintf(w->f, " (bad #%u) went another way at ", p->bad.index);
    ms(w, h->time_ns);
    fputs(", holding a lock that ", w->f);
    if (h->order_pair < r->npairs) {
        fputs("thread ", w->f);
        safe(w, thread_name(&r->pairs[h->order_pair]));
        fprintf(w->f, " (bad #%u)", r->pairs[h->order_pair].bad.index);
    } else
        fputs("a thread with no partner", w->f);
    fputs(h->order_dep == TTD_ORDER_CHANGED
              ? " had taken a different number of times by then: it follows how far the"
                " threads had got, and this one is in code that changed between the builds\n"
              : " had taken a different number of times by then: it follows how far the"
                " threads had got, and nothing orders it before this one\n", w->f);
}

static void divergence(tw *w, const ttd_result *r, const ttd_divergence *d)
{
    const ttd_pair *p = &r->pairs[d->pair];
    int base = ttri_min_level(d->before, d->nbefore, 1 << 30);

    base = ttri_min_level(d->good, d->ngood, ttri_min_level(d->bad, d->nbad, base));
    on(w, BOLD);
    fputs(r->value_first && r->value_first->before_split
          ? "then the call sequences part: thread " : "first divergence: thread ", w->f);
    safe(w, thread_name(p));
    fprintf(w->f, " (good #%u, bad #%u), good event %" PRIu64 ", bad event %" PRIu64
            ", at ", p->good.index, p->bad.index, d->good_index, d->bad_index);
    ms(w, d->bad_time_ns);
    fputs(" in the bad run", w->f);
    reps(w, &r->hunks[d->hunk]);
    on(w, RESET);
    putc('\n', w->f);
    followed(w, r);
    if (d->lines) {
        fputs("deciding line: ", w->f);
        safe(w, d->lines->text);
        putc('\n', w->f);
    }
    stack(w, d);
    suspects(w, d);
    chain(w, d->chain, d->nchain, d->chain_end);
    before_heading(w, r, d);
    tree(w, ' ', DIM, d->before, d->nbefore, base);
    fputs("differing events (- good only, + bad only):\n", w->f);
    int early = ttri_bad_stopped_early(r);
    if (early)  /* what the bad run did instead comes first */
        bad_side(w, r, d, base);
    tree(w, '-', RED, d->good, d->ngood, base);
    if (d->good_more)
        fprintf(w->f, "  - ... %" PRIu64 " more good-only events\n", d->good_more);
    if (!early)
        bad_side(w, r, d, base);
    if (d->nothers[0] || d->nothers[1]) {
        fputs("other threads just before the divergence:\n", w->f);
        others(w, "good", d->others[TTD_GOOD], d->nothers[TTD_GOOD]);
        others(w, "bad", d->others[TTD_BAD], d->nothers[TTD_BAD]);
    }
}

/* One interleaving event in at most width columns: "1.074 #2 producer-2
 * lock mutex#1 (produce)". */
static void xev_cell(tw *w, const ttd_result *r, int run, const ttd_xev *e, int width)
{
    char buf[160];
    const ttd_pair *p = e->pair >= 0 ? &r->pairs[e->pair] : NULL;
    const char *name = !p ? "" : run == TTD_GOOD ? p->good.name : p->bad.name;
    const char *what = e->kind == TTF_EV_SYNC_OP ? ttf_sync_op_name(e->op)
                     : e->kind == TTF_EV_ENTER ? "enter" : "exit";
    int sync = e->kind == TTF_EV_SYNC_OP, in = sync && e->func && e->func[0];
    int n = snprintf(buf, sizeof buf, "%.3f #%u %s %s %s%s%s%s", (double)e->time_ns / 1e6,
                     e->thread, name, what, sync ? e->object : e->func,
                     in ? " (" : "", in ? e->func : "", in ? ")" : "");
    if (width > 0 && n > width)
        buf[width] = '\0';
    safe(w, buf);
    if (width > 0)
        fprintf(w->f, "%*s", width - (n < width ? n : width), "");
}

/* The threads' order before the split, both runs side by side: only
 * when two threads used one object in it (else the order says nothing),
 * its last o->order_rows rows, the cut ones counted. */
static void order_rows(tw *w, const ttd_result *r, const ttd_interleave *il,
                       const ttr_options *o)
{
    size_t all = il->nwindow[0] > il->nwindow[1] ? il->nwindow[0] : il->nwindow[1];
    size_t n = o->order_rows && o->order_rows < all ? o->order_rows : all;
    size_t sg = il->nwindow[0] < n ? il->nwindow[0] : n;
    size_t sb = il->nwindow[1] < n ? il->nwindow[1] : n;
    char head[64];

    fputs("thread order before the divergence (lock, condition, thread operations; "
          "objects numbered by first use):\n", w->f);
    snprintf(head, sizeof head, "good (last %zu of %" PRIu64 ")", sg, il->ops[0]);
    fprintf(w->f, "  %-48s | bad (last %zu of %" PRIu64 ")\n", head, sb, il->ops[1]);
    if (all > n)
        fprintf(w->f, "  ... %zu earlier rows (--order-rows %zu shows them)\n", all - n, all);
    for (size_t i = 0; i < n; i++) {
        size_t g = i + il->nwindow[0] - n, b = i + il->nwindow[1] - n;
        fputs("  ", w->f);
        if (i + il->nwindow[0] >= n)
            xev_cell(w, r, TTD_GOOD, &il->window[0][g], 48);
        else
            fprintf(w->f, "%48s", "");
        fputs(" | ", w->f);
        if (i + il->nwindow[1] >= n)
            xev_cell(w, r, TTD_BAD, &il->window[1][b], 0);
        putc('\n', w->f);
    }
    if (il->order_differs) {
        fprintf(w->f, "first difference in the order on %s (operation %" PRIu64 "):\n",
                il->order_object, il->order_index + 1);
        for (int k = 0; k < 2; k++) {
            fputs(k ? "  bad : " : "  good: ", w->f);
            if (il->order[k].kind)
                xev_cell(w, r, k, &il->order[k], 0);
            else
                fputs("(no more operations on it)", w->f);
            putc('\n', w->f);
        }
    }
}

/* A bad-run call that took no lock its good-run calls all took. */
static void unprotected(tw *w, const ttd_result *r, const ttd_interleave *il)
{
    if (!il->unprotected)
        return;
    on(w, BOLD);
    fputs("unprotected: ", w->f);
    nm(w, il->unprot_func);
    fprintf(w->f, " in bad #%u ran without %s (%.3f..%.3f ms); all %" PRIu64
            " good-run calls of it took %s", il->unprot_call.thread, il->unprot_lock,
            (double)il->unprot_call.time_ns / 1e6, (double)il->unprot_end_ns / 1e6, il->good_calls,
            il->unprot_lock);
    on(w, RESET);
    if (il->overlapped) {
        fprintf(w->f, "; bad #%u was inside %s too, since %.3f ms: the two calls overlap",
                il->overlap.thread, il->unprot_func, (double)il->overlap.time_ns / 1e6);
    }
    fputs(il->nduring ? ". Meanwhile:\n" : "; no other thread acted meanwhile\n", w->f);
    for (size_t i = 0; i < il->nduring; i++) {
        fputs("  ", w->f);
        xev_cell(w, r, TTD_BAD, &il->during[i], 0);
        putc('\n', w->f);
    }
}

/* The races of the bad run (happens-before, diff/races.c), best first:
 * at most 3, each with both threads' stacks at their act. */
static void races(tw *w, const ttd_result *r)
{
    size_t n = r->nraces < 3 ? r->nraces : 3;

    if (!n)
        return;
    fprintf(w->f, "races (calls of two threads that no lock, condition, create or join "
            "ordered; %zu found):\n", r->nraces);
    for (size_t i = 0; i < n; i++) {
        const ttd_race *x = &r->races[i];
        fprintf(w->f, "  %zu. ", i + 1);
        if (!i)
            on(w, BOLD);
        sent(w, x->text);
        on(w, RESET);
        putc('\n', w->f);
        for (int k = 0; k < 2; k++) {
            fputs("     ", w->f);
            safe(w, x->thread_name[k]);
            fputs(":", w->f);
            for (size_t j = 0; j < x->nstacks[k]; j++) {
                fputs(j ? " > " : " ", w->f);
                nm(w, x->stacks[k][j]);
            }
            putc('\n', w->f);
        }
    }
}

/* A caught failure with nothing else to show: the outcome is the
 * divergence. */
static void failed_line(tw *w, const ttd_result *r)
{
    on(w, BOLD);
    fputs("first divergence: the outcome: the bad run failed (", w->f);
    safe(w, r->options.bad_failed);
    fputs("), the good run did not", w->f);
    on(w, RESET);
    fputs(r->outcome.same_calls ? "; every thread made the same calls\n" : "\n", w->f);
}

/* Hints that the divergence may be noise: a waiting loop, siblings, an
 * artifact of two builds. */
static void noise_notes(tw *w, const ttd_result *r, const ttd_divergence *d)
{
    if (d->build_artifact) {
        on(w, YELLOW);
        fputs("note: this looks like an artifact of the build, not of the run: ", w->f);
        safe(w, d->build_artifact);
        fputs(" is instrumented in one build only (an inline function from a "
              "header, compiled or inlined differently)", w->f);
        on(w, RESET);
        putc('\n', w->f);
    }
    if (d->noise == TTD_NOISE_WAIT) {
        on(w, YELLOW);
        fputs("note: this may be timing noise: the differing calls wait or poll (", w->f);
        safe(w, d->noise_calls);
        fputs("), a wait loop that ran a different number of times", w->f);
        on(w, RESET);
        fputs(r->nbaselines ? "\n" : "; good runs that vary here too tell noise from "
              "the failure: record more and add them with --baseline (ttrec "
              "--until-fail does both)\n", w->f);
    }
    if (!r->nsiblings)
        return;
    fputs("note: more runs lie beside the good one; if they passed, compare with them "
          "as baselines:\n     ", w->f);
    for (size_t i = 0; i < r->nsiblings; i++) {
        fputs(" --baseline ", w->f);
        safe(w, r->siblings[i]);
    }
    putc('\n', w->f);
}

static void hunk_line(tw *w, const ttd_result *r, const ttd_hunk_info *h)
{
    fputs("  ", w->f);
    safe(w, thread_name(&r->pairs[h->pair]));
    fprintf(w->f, "  good %" PRIu64 " (-%" PRIu64 ")  bad %" PRIu64 " (+%" PRIu64
            ")  at ", h->good_index, h->good_count, h->bad_index, h->bad_count);
    ms(w, h->time_ns);
    reps(w, h);
    if (h->good_first) {
        on(w, RED);
        fputs("  - ", w->f);
        describe(w, h->good_first);
        on(w, RESET);
    }
    if (h->bad_first) {
        on(w, GREEN);
        fputs("  + ", w->f);
        describe(w, h->bad_first);
        on(w, RESET);
    }
    if (h->timing)
        fprintf(w->f, "  (%s)", h->timing == TTD_TIMING_MOVED
                                    ? "moved: the other run did it in another thread"
                                    : h->timing == TTD_TIMING_RETRY
                                    ? "retried: one run's attempt did it at once"
                                    : h->timing == TTD_TIMING_PROGRESS
                                    ? "follows the threads' progress: a lock's earlier"
                                      " holders differ"
                                    : h->timing == TTD_TIMING_CUT
                                    ? "cut: the thread was still running when its process"
                                      " exited"
                                    : "a loop that waits ran more times");
    putc('\n', w->f);
}

/* Lines for hunks[from..to) of total, at most o->hunk_lines unless all. */
static void hunk_lines(tw *w, const ttd_result *r, const ttr_options *o, size_t from,
                       size_t to, uint64_t total)
{
    size_t n = to - from;
    size_t show = o->all || n < o->hunk_lines ? n : o->hunk_lines;

    for (size_t i = 0; i < show; i++)
        hunk_line(w, r, &r->hunks[from + i]);
    if (total > show)
        fprintf(w->f, "  ... %" PRIu64 " more (--all shows them)\n", total - show);
}

static void hunks(tw *w, const ttd_result *r, const ttr_options *o)
{
    size_t ndiv = r->nhunks - r->nexpected - r->ntiming;

    if (r->hunks_total > 1) {
        fprintf(w->f, "further hunks: %" PRIu64 "\n", r->hunks_total - 1);
        hunk_lines(w, r, o, ndiv ? 1 : 0, ndiv, r->hunks_total - 1);
    }
    if (r->timing_total) {
        fprintf(w->f, "timing-shaped (how the threads were timed, not divergences): %" PRIu64
                "\n", r->timing_total);
        hunk_lines(w, r, o, ndiv, ndiv + r->ntiming, r->timing_total);
    }
    ndiv += r->ntiming;
    if (r->expected_total) {
        fprintf(w->f, "also varies between good runs (expected, not divergences): %" PRIu64
                "\n", r->expected_total);
        hunk_lines(w, r, o, ndiv, r->nhunks, r->expected_total);
    }
}

static void thread_cell(tw *w, const ttd_thread_info *t)
{
    int n = fprintf(w->f, "#%u ", t->index);
    const char *s = t->name[0] ? t->name : "(unnamed)";
    n += (int)strlen(s);
    safe(w, s);
    fprintf(w->f, "%*s", n < 20 ? 20 - n : 1, "");
}

static void threads(tw *w, const ttd_result *r)
{
    fputs("threads:\n  good                bad                 paired by    events good/bad        hunks\n", w->f);
    for (size_t i = 0; i < r->npairs; i++) {
        const ttd_pair *p = &r->pairs[i];
        fputs("  ", w->f);
        thread_cell(w, &p->good);
        thread_cell(w, &p->bad);
        char ev[48];
        snprintf(ev, sizeof ev, "%" PRIu64 "/%" PRIu64, p->good.events, p->bad.events);
        char how[32];
        ttri_paired_by(p, how, sizeof how);
        fprintf(w->f, "%-12s %-22s %zu", how, ev, p->hunks);
        if (p->pool)
            fprintf(w->f, "%*s%s", p->hunks < 10 ? 6 : 2, "", p->pool);
        putc('\n', w->f);
    }
    for (size_t i = 0; i < r->npools; i++) {
        const ttd_pool *pl = &r->pools[i];
        fprintf(w->f, "  %s: %zu look-alike threads starting in ", pl->id, pl->nbad);
        safe(w, pl->start);
        if (!pl->compared) {
            fprintf(w->f, ": %" PRIu64 " work items good, %" PRIu64 " bad, too many "
                    "differ to compare them as a pool\n", pl->items_good, pl->items_bad);
            continue;
        }
        fprintf(w->f, ", compared as a pool: %" PRIu64 " work items good, %" PRIu64
                " bad, %" PRIu64 " done by one run only\n", pl->items_good, pl->items_bad,
                pl->items_differing);
    }
    for (size_t i = 0; i < r->npairs; i++) {
        const ttd_pair *p = &r->pairs[i];
        if (!p->uncertain)
            continue;
        fprintf(w->f, "  uncertain pairing: good #%u with bad #%u (similarity %.2f",
                p->good.index, p->bad.index, p->similarity);
        if (p->second >= 0)
            fprintf(w->f, ", next best %.2f", p->second);
        fprintf(w->f, "); to choose: --pair good#%u=bad#M\n", p->good.index);
    }
    for (size_t i = 0; i < r->nunpaired; i++) {
        const ttd_unpaired *u = &r->unpaired[i];
        fprintf(w->f, "  unpaired: %s #%u ", u->run == TTD_GOOD ? "good" : "bad",
                u->thread.index);
        safe(w, u->thread.name[0] ? u->thread.name : "(unnamed)");
        fputs(" (start ", w->f);
        safe(w, u->thread.start[0] ? u->thread.start : "?");
        fprintf(w->f, ", %" PRIu64 " events)\n", u->thread.events);
    }
}

static void run_line(tw *w, const char *label, const ttd_run_info *r)
{
    fprintf(w->f, "%s: ", label);
    safe(w, r->path);
    fprintf(w->f, " (pid %" PRId64 ", %" PRIu64 " events, %zu thread%s, ", r->pid,
            r->events, r->threads, r->threads == 1 ? "" : "s");
    if (r->crash) {
        describe(w, r->crash);
    } else if (r->closed) {
        fprintf(w->f, "exit %d", r->exit_status);
    } else {
        fputs("no clean end", w->f);
    }
    fputs(")\n", w->f);
    for (size_t i = 0; r->notices && i < r->nnotices; i++) {
        fprintf(w->f, "  note: ");
        safe(w, r->notices[i]);
        putc('\n', w->f);
    }
}

/* One line when the bad run's schedule was shaken (ttrec --chaos): the
 * seed that repeats the perturbation. */
static void chaos_line(tw *w, const ttd_run_info *b)
{
    if (!b->chaos)
        return;
    fprintf(w->f, "chaos: the bad run ran in chaos mode, seed %" PRIu64 " (yields and sleeps at "
            "thread operations%s); TTCAP_CHAOS=%" PRIu64 "%s or ttrec --chaos=%" PRIu64
            "%s repeats them\n", b->chaos_seed,
            b->chaos & TTF_PROC_CHAOS_ENTRIES ? " and function entries" : "", b->chaos_seed,
            b->chaos & TTF_PROC_CHAOS_ENTRIES ? ",entries" : "", b->chaos_seed,
            b->chaos & TTF_PROC_CHAOS_ENTRIES ? " --chaos-entries" : "");
}

/* One line when the runs are of different programs or builds. */
static void program_note(tw *w, const ttd_result *r)
{
    char g[132], b[132];
    if (r->program == TTD_PROGRAM_OTHER) {
        fputs("note: different programs: ", w->f);
        safe(w, r->runs[TTD_GOOD].exe);
        fputs(" vs ", w->f);
        safe(w, r->runs[TTD_BAD].exe);
        fputs(" (compared by function name)\n", w->f);
    } else if (r->program == TTD_PROGRAM_BUILD) {
        fputs("note: two builds of ", w->f);
        safe(w, r->runs[TTD_BAD].exe);
        fprintf(w->f, ": build-id %.12s vs %.12s (compared by function name)\n",
                ttri_build_id_hex(&r->runs[TTD_GOOD], g, sizeof g),
                ttri_build_id_hex(&r->runs[TTD_BAD], b, sizeof b));
    }
}

/* "changed between the builds: f, g (new) (+N more)" when two builds'
 * code was compared, and why some was not. */
static void code_line(tw *w, const ttd_result *r)
{
    size_t n = r->nchanged_functions, shown = n <= 6 ? n : 5;
    for (size_t i = 0; i < r->ncode_notes; i++) {
        fputs("note: ", w->f);
        safe(w, r->code_notes[i]);
        putc('\n', w->f);
    }
    if (!r->code_compared)
        return;
    fputs("changed between the builds: ", w->f);
    fputs(n ? "" : "none", w->f);
    for (size_t i = 0; i < shown; i++) {
        const ttd_code_change *c = &r->changed_functions[i];
        fputs(i ? ", " : "", w->f);
        nm(w, c->function);
        fputs(c->status == TTD_CODE_ADDED ? " (new)"
              : c->status == TTD_CODE_REMOVED ? " (removed)" : "", w->f);
    }
    if (n > shown)
        fprintf(w->f, " (+%zu more)", n - shown);
    fprintf(w->f, " (of %zu function%s in both)\n", r->code_functions,
            r->code_functions == 1 ? "" : "s");
}

/* The verdict (verdict.c's words): the report's first lines. */
static void verdict(tw *w, const ttd_result *r)
{
    ttri_verdict_text t;

    ttri_verdict_words(r, &t);
    on(w, BOLD);
    fputs("verdict: ", w->f);
    sent(w, t.headline);
    on(w, RESET);
    putc('\n', w->f);
    if (*t.cause) {
        fputs("  cause: ", w->f);
        sent(w, t.cause);
        putc('\n', w->f);
    }
    for (size_t i = 0; i < t.nevidence; i++) {
        fputs("  evidence: ", w->f);
        sent(w, t.evidence[i]);
        putc('\n', w->f);
    }
    if (r->verdict && r->verdict->confidence == TTD_CONF_UNKNOWN && r->verdict->cause) {
        fputs("  confidence: ", w->f);
        sent(w, t.confidence);
        putc('\n', w->f);
    }
    if (*t.symptom) {
        fputs("  symptom: ", w->f);
        sent(w, t.symptom);
        putc('\n', w->f);
    }
}

int ttr_text(FILE *f, ttd_diff *d, const ttr_options *opts)
{
    const ttd_result *r = ttd_get_result(d);
    ttr_options def;
    tw w = {f, 0, 0};

    if (!r || !f)
        return TT_EINVAL;
    if (!opts) {
        ttr_options_init(&def);
        opts = &def;
    }
    w.color = opts->color;
    w.full_names = opts->full_names;
    verdict(&w, r);
    run_line(&w, "good", &r->runs[TTD_GOOD]);
    run_line(&w, "bad ", &r->runs[TTD_BAD]);
    for (size_t i = 0; i < r->nbaselines; i++)
        run_line(&w, "base", &r->baselines[i]);
    chaos_line(&w, &r->runs[TTD_BAD]);
    program_note(&w, r);
    code_line(&w, r);
    values_line(&w, r);
    const ttd_value_diff *v = r->value_first;
    int hl = ttri_headline(r), ended = hl == TTRI_HL_ENDED;
    if (ended)
        outcome_line(&w, r);
    if (v && v->before_split)
        value_divergence(&w, r, v);
    if (r->first) {
        divergence(&w, r, r->first);
        if (r->first->interleave && r->first->interleave->shared)
            order_rows(&w, r, r->first->interleave, opts);
        if (r->first->interleave)
            unprotected(&w, r, r->first->interleave);
        noise_notes(&w, r, r->first);
        if (v && !v->before_split)
            value_divergence(&w, r, v);
    } else if (ended) {
        chain(&w, r->chain, r->nchain, r->chain_end);
        if (v && !v->before_split)
            value_divergence(&w, r, v);
    } else if (hl == TTRI_HL_FAILED) {
        failed_line(&w, r);
    } else if (hl == TTRI_HL_SAME) {
        on(&w, BOLD);
        fprintf(f, "no divergence in %zu thread pair%s", r->npairs,
                r->npairs == 1 ? "" : "s");
        if (r->runs[TTD_GOOD].cut || r->runs[TTD_BAD].cut)
            fprintf(f, " before the %s run's trace was cut",
                    r->runs[TTD_BAD].cut ? "bad" : "good");
        if (r->nunpaired)
            fprintf(f, ", but %zu unpaired thread%s", r->nunpaired,
                    r->nunpaired == 1 ? "" : "s");
        if (r->expected_total)
            fprintf(f, " (%" PRIu64 " difference%s that also occur%s between the good runs)",
                    r->expected_total, r->expected_total == 1 ? "" : "s",
                    r->expected_total == 1 ? "s" : "");
        if (r->timing_total)
            fprintf(f, " (%" PRIu64 " timing-shaped difference%s)", r->timing_total,
                    r->timing_total == 1 ? "" : "s");
        on(&w, RESET);
        putc('\n', f);
    }
    races(&w, r);
    value_others(&w, r);
    hunks(&w, r, opts);
    threads(&w, r);
    return ferror(f) ? TT_EIO : 0;
}
