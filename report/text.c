/*
 * text.c - the human report of a ttdiff result: the value divergence (a
 * call that returned another value), the first divergence with its stack,
 * suspects, context and both sides as indented call trees
 * (-/+), the crash, what other threads were doing, further hunks, those
 * that also vary between good runs, and the thread pairs. Colour is ANSI,
 * only when asked; trace strings are made printable.
 * Stage 3 renderers of report/STAGES.
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
    ttri_model *m;          /* the sentences (model.c) */
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

/* A sentence of the report model (model.c) in the text report's words. */
static void put(tw *w, const ttri_sent *s)
{
    for (const ttri_span *p = s ? s->first : NULL; p; p = p->next) {
        if (p->only == TTRI_HTML)
            continue;
        switch (p->kind) {
        case TTRI_SP_LIT: fputs(p->s, w->f); break;
        case TTRI_SP_STR: safe(w, p->s); break;
        case TTRI_SP_NAME:
        case TTRI_SP_FN: nm(w, p->s); break;
        case TTRI_SP_SENT: sent(w, p->s); break;
        case TTRI_SP_EVENT: describe(w, p->ev); break;
        case TTRI_SP_STYLE: on(w, p->s); break;
        }
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

    put(w, w->m->stack_head);
    if (!n)
        fputs("    (top level)\n", w->f);
    for (size_t i = 0; i < n; i++) {
        const ttd_frame *fr = &frames[i];
        size_t k = w->full_names ? i : ttri_system_run(frames, i, n);
        if (k > i) {        /* frames[i..k) in system headers */
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
    put(w, w->m->suspects_head);
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
    put(w, w->m->chain_head);
    for (size_t i = 0; i < n; i++)
        put(w, ttri_m_chain_link(w->m, c, i));
    put(w, ttri_m_chain_end(w->m, end));
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

/* The bad-only side of a divergence, then how the bad run ended. */
static void bad_side(tw *w, const ttd_result *r, const ttd_divergence *d, int base)
{
    tree(w, '+', GREEN, d->bad, d->nbad, base);
    if (d->bad_more)
        fprintf(w->f, "  + ... %" PRIu64 " more bad-only events\n", d->bad_more);
    (void)r;
    (void)d;
    put(w, w->m->bad_end);
}

/* Value differences that do not lead to the split or the exit status. */
static void value_others(tw *w, const ttd_result *r)
{
    if (!r->nvalue_others)
        return;
    fputs("other values differ (not on the cause chain):\n", w->f);
    for (size_t i = 0; i < r->nvalue_others; i++)
        put(w, ttri_m_value_other(w->m, &r->value_others[i]));
}

static void divergence(tw *w, const ttd_result *r, const ttd_divergence *d)
{
    int base = ttri_min_level(d->before, d->nbefore, 1 << 30);

    base = ttri_min_level(d->good, d->ngood, ttri_min_level(d->bad, d->nbad, base));
    put(w, w->m->split);
    put(w, w->m->followed);
    put(w, w->m->clock_order);
    if (d->lines) {
        put(w, w->m->lines_head);
        safe(w, d->lines->text);
        putc('\n', w->f);
    }
    stack(w, d);
    suspects(w, d);
    chain(w, d->chain, d->nchain, d->chain_end);
    put(w, w->m->before_head);
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
        put(w, w->m->order_diff);
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
    put(w, w->m->unprotected);
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
    put(w, w->m->races);
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

/* Hints that the divergence may be noise: a waiting loop, siblings, an
 * artifact of two builds. */
static void noise_notes(tw *w)
{
    put(w, w->m->artifact);
    put(w, w->m->noise);
    put(w, w->m->siblings);
}

static void hunk_line(tw *w, const ttd_result *r, const ttd_hunk_info *h)
{
    fputs("  ", w->f);
    safe(w, ttri_pair_name(&r->pairs[h->pair]));
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
        fprintf(w->f, "  (%s)", ttri_timing_words(h->timing));
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
        put(w, ttri_m_more(w->m, total - show));
}

static void hunks(tw *w, const ttd_result *r, const ttr_options *o)
{
    size_t ndiv = r->nhunks - r->nexpected - r->ntiming;

    if (r->hunks_total > 1) {
        put(w, w->m->further);
        hunk_lines(w, r, o, ndiv ? 1 : 0, ndiv, r->hunks_total - 1);
    }
    if (r->timing_total) {
        put(w, w->m->timing_note);
        hunk_lines(w, r, o, ndiv, ndiv + r->ntiming, r->timing_total);
    }
    ndiv += r->ntiming;
    if (r->expected_total) {
        put(w, w->m->expected_note);
        hunk_lines(w, r, o, ndiv, r->nhunks, r->expected_total);
    }
    put(w, w->m->hidden);
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
    for (size_t i = 0; i < r->npools; i++)
        put(w, ttri_m_pool(w->m, &r->pools[i]));
    for (size_t i = 0; i < r->npairs; i++)
        if (r->pairs[i].uncertain)
            put(w, ttri_m_uncertain(w->m, &r->pairs[i]));
    for (size_t i = 0; i < r->nunpaired; i++)
        put(w, ttri_m_unpaired(w->m, &r->unpaired[i]));
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

/* Why some code was not compared, then "changed between the builds: f,
 * g (new) (+N more)" when two builds' code was compared. */
static void code_line(tw *w, const ttd_result *r)
{
    for (size_t i = 0; i < r->ncode_notes; i++) {
        fputs("note: ", w->f);
        safe(w, r->code_notes[i]);
        putc('\n', w->f);
    }
    put(w, w->m->code);
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
    ttri_model m;
    tw w = {f, 0, 0, &m};

    if (!r || !f)
        return TT_EINVAL;
    if (!opts) {
        ttr_options_init(&def);
        opts = &def;
    }
    w.color = opts->color;
    w.full_names = opts->full_names;
    if (ttri_model_init(&m, r) < 0) {
        ttri_model_free(&m);
        return TT_ENOMEM;
    }
    verdict(&w, r);
    run_line(&w, "good", &r->runs[TTD_GOOD]);
    run_line(&w, "bad ", &r->runs[TTD_BAD]);
    for (size_t i = 0; i < r->nbaselines; i++)
        run_line(&w, "base", &r->baselines[i]);
    put(&w, m.chaos);
    put(&w, m.program);
    code_line(&w, r);
    put(&w, m.values);
    const ttd_value_diff *v = r->value_first;
    int hl = ttri_headline(r);
    if (hl == TTRI_HL_ENDED)
        put(&w, m.headline);
    if (v && v->before_split)
        put(&w, m.value);
    if (r->first) {
        divergence(&w, r, r->first);
        if (r->first->interleave && r->first->interleave->shared)
            order_rows(&w, r, r->first->interleave, opts);
        if (r->first->interleave)
            unprotected(&w, r, r->first->interleave);
        noise_notes(&w);
    } else if (hl == TTRI_HL_ENDED) {
        chain(&w, r->chain, r->nchain, r->chain_end);
    } else if (hl == TTRI_HL_FAILED || hl == TTRI_HL_SAME) {
        put(&w, m.headline);
    }
    if (v && !v->before_split && (r->first || hl == TTRI_HL_ENDED))
        put(&w, m.value);
    races(&w, r);
    value_others(&w, r);
    hunks(&w, r, opts);
    threads(&w, r);
    int rc = m.failed ? TT_ENOMEM : ferror(f) ? TT_EIO : 0;
    ttri_model_free(&m);
    return rc;
}
