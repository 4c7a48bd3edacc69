/*
 * html.c - ttdiff results as one self-contained HTML page: the two runs,
 * the thread pairs and the first divergence with its stack and suspects on
 * top, then a side-by-side window around each resolved divergence, the
 * differences that also vary between good runs (--baseline), and the JSON
 * of ttr_json embedded for tools. No external resources; every string that
 * comes from a trace goes through esc().
 *
 * Design: the page is complete without scripts. Subtrees are nested
 * <details> (collapsible natively), divergences are <details> with anchor
 * links between them. The inline script (html_assets.h) only adds the n/p
 * keys, the prev/next buttons and the filter box. A Content-Security-Policy
 * forbids every network load, so the page works offline and leaks nothing.
 * The page stays small on huge traces: it shows only the engine's windows
 * (context + differing events, capped by ttd_options.max_lines) for at most
 * a few divergences, and says how many events were left out.
 * Stage 3 renderers of report/STAGES.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "html_assets.h"
#include "ttreport.h"
#include "ttr_int.h"

#ifndef TT_VERSION   /* the toolkit version, given by the Makefile */
#define TT_VERSION "?"
#endif

#define WINDOWS_ALL 20      /* divergence windows with opts->all (each one
                               decodes its thread again: O(events)) */
#define ROWS_MAX 1000       /* one-line divergences after the windows */

/* Which side(s) a row shows. */
enum { SIDE_GOOD, SIDE_BAD, SIDE_BOTH };

/* How a row's event is drawn. */
enum { ROW_LINE, ROW_LEAF, ROW_OPEN, ROW_CLOSE };

typedef struct hw {
    FILE *f;                /* output */
    const ttd_result *r;    /* the results */
    int base;               /* call level drawn at indent 0 in this window */
    uint64_t shown;         /* trace events drawn in windows so far */
    int full_names;         /* 1: C++ names whole (--demangle=full) */
    ttri_model *m;          /* the sentences (model.c) */
} hw;

/* Trusted text only (markup, numbers): never a trace string. */
static void raw(hw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void raw(hw *w, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vfprintf(w->f, fmt, ap);
    va_end(ap);
}

/* One ASCII byte as HTML text or attribute content. */
static void esc_byte(FILE *f, unsigned c)
{
    switch (c) {
    case '&': fputs("&amp;", f); return;
    case '<': fputs("&lt;", f); return;
    case '>': fputs("&gt;", f); return;
    case '"': fputs("&quot;", f); return;
    case '\'': fputs("&#39;", f); return;
    case '\n': fputs("\\n", f); return;
    case '\t': fputs("\\t", f); return;
    case '\r': fputs("\\r", f); return;
    }
    if (c < 0x20 || c == 0x7F)
        fprintf(f, "\\x%02x", c);
    else
        putc((int)c, f);
}

/* A trace string, safe in HTML text and in quoted attributes: markup
 * characters as entities, control bytes (C0, DEL, C1) as visible escapes,
 * invalid UTF-8 as U+FFFD. NULL writes nothing. */
static void esc(hw *w, const char *str)
{
    const unsigned char *s = (const unsigned char *)(str ? str : "");

    while (*s) {
        size_t n = ttf_utf8_len(s);
        if (n == 0) {
            fputs("\xEF\xBF\xBD", w->f);
            s++;
        } else if (n == 2 && s[0] == 0xC2 && s[1] < 0xA0) {
            fprintf(w->f, "\\u%04x", s[1]);
            s += 2;
        } else if (n > 1) {
            fwrite(s, 1, n, w->f);
            s += n;
        } else {
            esc_byte(w->f, *s++);
        }
    }
}

/* A function name, short unless --demangle=full (names.c). */
static void esc_name(hw *w, const char *s)
{
    char buf[TTRI_NAME_MAX];
    esc(w, !s || w->full_names ? s : ttri_short_name(s, buf, sizeof buf));
}

/* A sentence of the engine's, its `quoted` names short unless
 * --demangle=full. */
static void esc_sent(hw *w, const char *s)
{
    char buf[TTRI_NAME_MAX];
    esc(w, !s || w->full_names ? s : ttri_short_quoted(s, buf, sizeof buf));
}

static void ms(hw *w, uint64_t ns)
{
    raw(w, "%" PRIu64 ".%03" PRIu64, ns / 1000000, ns / 1000 % 1000);
}

/* A duration in the unit that reads best. */
static void dur(hw *w, uint64_t ns)
{
    if (ns < 1000000)
        raw(w, "%" PRIu64 ".%03" PRIu64 " &micro;s", ns / 1000, ns % 1000);
    else if (ns < UINT64_C(1000000000))
        raw(w, "%" PRIu64 ".%03" PRIu64 " ms", ns / 1000000, ns / 1000 % 1000);
    else
        raw(w, "%" PRIu64 ".%03" PRIu64 " s", ns / 1000000000, ns / 1000000 % 1000);
}

/* Wall-clock time as UTC, millisecond precision. */
static void wall(hw *w, uint64_t ns)
{
    time_t t = (time_t)(ns / 1000000000);
    struct tm tm;
    char buf[64];

    if (!ns || !gmtime_r(&t, &tm) || !strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm)) {
        raw(w, "unknown");
        return;
    }
    raw(w, "%s.%03" PRIu64 " UTC", buf, ns / 1000000 % 1000);
}

/* ---- events ---------------------------------------------------------------- */

static void fn(hw *w, const char *name)
{
    raw(w, "<span class=\"fn\">");
    esc_name(w, name && name[0] ? name : "?");
    raw(w, "</span>");
}

static void crash_text(hw *w, const ttd_event *e)
{
    esc(w, e->text ? e->text : "?");
    raw(w, " (signal %d) at 0x%" PRIx64, e->signo, e->fault_addr);
    if (e->name && e->name[0]) {
        raw(w, " in ");
        fn(w, e->name);
    }
}

/* A sentence of the report model (model.c) in the HTML report's words. */
static void put(hw *w, const ttri_sent *s)
{
    for (const ttri_span *p = s ? s->first : NULL; p; p = p->next) {
        if (p->only == TTRI_TEXT)
            continue;
        switch (p->kind) {
        case TTRI_SP_LIT: raw(w, "%s", p->s); break;
        case TTRI_SP_STR: esc(w, p->s); break;
        case TTRI_SP_NAME: esc_name(w, p->s); break;
        case TTRI_SP_SENT: esc_sent(w, p->s); break;
        case TTRI_SP_FN: fn(w, p->s); break;
        case TTRI_SP_EVENT: crash_text(w, p->ev); break;
        }
    }
}

/* The value of e as one side shows it: the good run's own on the good
 * side of a common event whose values differ (marked), else e's. */
static void val(hw *w, const ttd_event *e, int good)
{
    const char *v = good && e->good_value ? e->good_value : e->value;
    raw(w, "<span class=\"val%s\">", e->good_value ? " vd" : "");
    esc(w, v);
    raw(w, "</span>");
}

/* The code cell of an event: "foo();", "foo() {", "}", a message...; a
 * call with nothing inside is one line with its EXIT ex ("foo(1) = 2;").
 * good: the good run's half of a common row. */
static void code(hw *w, const ttd_event *e, const ttd_event *ex, int mode, int good)
{
    switch (e->kind) {
    case TTF_EV_ENTER:
        fn(w, e->name);
        if (!e->value && !(ex && ex->value)) {
            raw(w, "%s", ttri_call_suffix(e->name, mode == ROW_LEAF));
        } else {
            if (e->value)
                val(w, e, good);
            else if (!strchr(e->name, '('))
                raw(w, "(...)");
            if (ex && ex->value) {
                raw(w, " = ");
                val(w, ex, good);
            }
            raw(w, "%s", mode == ROW_LEAF ? ";" : " {");
        }
        if (e->from) {              /* its call site (format 1.2) */
            raw(w, " <span class=\"cm\">/* from ");
            esc_name(w, e->from);
            raw(w, " */</span>");
        }
        return;
    case TTF_EV_EXIT:
        raw(w, "}");
        if (mode != ROW_CLOSE || e->value) {
            raw(w, " <span class=\"cm\">/* ");
            esc_name(w, e->name);
            if (e->value) {
                raw(w, " = ");
                val(w, e, good);
            }
            raw(w, " */</span>");
        }
        return;
    case TTF_EV_CRASH:
        raw(w, "<span class=\"mk x\">crash</span>");
        crash_text(w, e);
        return;
    case TTF_EV_MESSAGE:
    case TTF_EV_MARK:
        raw(w, "<span class=\"mk\">%s</span>", e->kind == TTF_EV_MARK ? "mark" : "log");
        raw(w, "<span class=\"txt\">");
        esc(w, e->text);
        raw(w, "</span> <span class=\"cm\">in ");
        esc_name(w, e->name && e->name[0] ? e->name : "?");
        raw(w, "</span>");
        return;
    }
    raw(w, "<span class=\"mk\">%s</span>", ttr_kind_name(e->kind));
    esc_name(w, e->name);
}

/* One half of a row: event number, time (ms since run start), code (ex:
 * a leaf's EXIT; good: the good run's half of a common row). */
static void half(hw *w, const ttd_event *e, const ttd_event *ex, uint64_t index,
                 int good, int mode)
{
    int timed = !good;
    int l = ttri_level(e) - w->base;

    raw(w, "<span class=\"h\"><span class=\"n\">%" PRIu64 "</span><span class=\"t\">", index);
    if (timed)
        ms(w, e->time_ns);
    raw(w, "</span><span class=\"c\" style=\"--l:%d\">", l > 0 ? (l < 40 ? l : 40) : 0);
    code(w, e, ex, mode, good);
    raw(w, "</span></span>");
}

/* One row: both halves for common history (the good run's index is gidx;
 * its times are not decoded), else the one side. */
static void row(hw *w, const char *cls, const ttd_event *e, int side, uint64_t gidx,
                int mode)
{
    const ttd_event *ex = mode == ROW_LEAF ? e + 1 : NULL;
    const char *tag = mode == ROW_OPEN ? "summary" : "div";

    raw(w, "<%s class=\"r%s%s\"", tag, cls[0] ? " " : "", cls);
    if (mode == ROW_LINE || mode == ROW_LEAF) {
        raw(w, " data-fn=\"");
        esc_name(w, e->name);
        raw(w, "\"");
    }
    raw(w, ">");
    if (side == SIDE_BOTH)
        half(w, e, ex, gidx, 1, mode);
    half(w, e, ex, e->index, 0, mode);
    raw(w, "</%s>\n", tag);
}

static int is_leaf(const ttd_event *ev, size_t n, size_t i)
{
    return ev[i].kind == TTF_EV_ENTER && i + 1 < n && ev[i + 1].kind == TTF_EV_EXIT &&
           ev[i].name && ev[i + 1].name && strcmp(ev[i].name, ev[i + 1].name) == 0;
}

/* ev[0..n) as a call tree: each call that ends inside the window is a
 * collapsible <details>; a call and its immediate return is one line. */
static void tree(hw *w, const ttd_event *ev, size_t n, int side, uint64_t gfirst,
                 const char *cls)
{
    int open = 0;

    w->shown += n;
    for (size_t i = 0; i < n; i++) {
        const ttd_event *e = &ev[i];
        int mode = is_leaf(ev, n, i) ? ROW_LEAF
                 : e->kind == TTF_EV_ENTER ? ROW_OPEN
                 : e->kind == TTF_EV_EXIT && open ? ROW_CLOSE : ROW_LINE;
        const char *c = e->kind == TTF_EV_CRASH ? "crash" : cls;
        if (mode == ROW_OPEN) {
            raw(w, "<details open class=\"sub\" data-fn=\"");
            esc_name(w, e->name);
            raw(w, "\">");
            open++;
        }
        row(w, c, e, side, gfirst + i, mode);
        if (mode == ROW_CLOSE) {
            raw(w, "</details>\n");
            open--;
        }
        i += mode == ROW_LEAF;
    }
    for (; open > 0; open--)
        raw(w, "</details>\n");
}

/* ---- top of the page -------------------------------------------------------- */

static void argv_cell(hw *w, const ttd_run_info *r)
{
    raw(w, "<td class=\"argv\"><code>");
    for (int i = 0; r->argv && i < r->argc; i++) {
        const char *a = r->argv[i];
        int quote = !a[0] || strpbrk(a, " \t\"'\\$`;&|<>") != NULL;
        raw(w, "%s%s", i ? " " : "", quote ? "'" : "");
        esc(w, a);
        raw(w, "%s", quote ? "'" : "");
    }
    raw(w, "</code></td>");
}

static void end_cell(hw *w, const ttd_run_info *r)
{
    raw(w, "<td>");
    if (r->crash) {
        raw(w, "<span class=\"bad\">crashed: ");
        crash_text(w, r->crash);
        raw(w, "</span>");
    } else if (r->closed) {
        raw(w, "<span class=\"%s\">exit %d</span>", r->exit_status ? "warn" : "ok",
            r->exit_status);
    } else {
        raw(w, "<span class=\"warn\">no clean end recorded</span>");
    }
    raw(w, "</td>");
}

/* Two builds: the functions whose machine code differs, and notes. */
static void code_list(hw *w)
{
    const ttd_result *r = w->r;
    static const char *const what[] = {"", "", " (new)", " (removed)"};
    for (size_t i = 0; i < r->ncode_notes; i++) {
        raw(w, "<p class=\"note\">");
        esc(w, r->code_notes[i]);
        raw(w, "</p>\n");
    }
    if (!r->code_compared)
        return;
    put(w, w->m->code);
    if (!r->nchanged_functions)
        return;
    raw(w, "<ul class=\"chgl\" id=\"tt-changed\">\n");
    for (size_t i = 0; i < r->nchanged_functions; i++) {
        const ttd_code_change *c = &r->changed_functions[i];
        raw(w, "<li>");
        fn(w, c->function);
        raw(w, "<span class=\"loc\">");
        esc(w, c->module);
        raw(w, "%s%s</span></li>\n", what[c->status & 3],
            c->artifact ? ", instrumented in one build only" : "");
    }
    raw(w, "</ul>\n");
}

static void runs(hw *w)
{
    const ttd_run_info *g = &w->r->runs[TTD_GOOD], *b = &w->r->runs[TTD_BAD];

    raw(w, "<section><h2>Runs</h2><table class=\"runs\"><tr><th></th><th>good</th>"
           "<th>bad</th></tr>\n");
    raw(w, "<tr><td>trace</td><td><code>");
    esc(w, g->path);
    raw(w, "</code></td><td><code>");
    esc(w, b->path);
    raw(w, "</code></td></tr>\n<tr><td>program</td><td><code>");
    esc(w, g->exe[0] ? g->exe : "?");
    raw(w, "</code></td><td><code>");
    esc(w, b->exe[0] ? b->exe : "?");
    raw(w, "</code></td></tr>\n<tr><td>command</td>");
    argv_cell(w, g);
    argv_cell(w, b);
    raw(w, "</tr>\n<tr><td>pid</td><td>%" PRId64 "</td><td>%" PRId64 "</td></tr>\n",
        g->pid, b->pid);
    raw(w, "<tr><td>started</td><td>");
    wall(w, g->start_realtime_ns);
    raw(w, "</td><td>");
    wall(w, b->start_realtime_ns);
    raw(w, "</td></tr>\n<tr><td>duration</td><td>");
    dur(w, g->duration_ns);
    raw(w, "</td><td>");
    dur(w, b->duration_ns);
    raw(w, "</td></tr>\n<tr><td>events</td><td>%" PRIu64 " in %zu thread%s</td>"
           "<td>%" PRIu64 " in %zu thread%s</td></tr>\n",
        g->events, g->threads, g->threads == 1 ? "" : "s",
        b->events, b->threads, b->threads == 1 ? "" : "s");
    raw(w, "<tr><td>end</td>");
    end_cell(w, g);
    end_cell(w, b);
    raw(w, "</tr>\n</table>\n");
    put(w, w->m->program);
    code_list(w);
    for (size_t i = 0; i < w->r->nbaselines; i++) {
        const ttd_run_info *x = &w->r->baselines[i];
        raw(w, "<p class=\"note\">baseline good run: <code>");
        esc(w, x->path);
        raw(w, "</code> (pid %" PRId64 ", %" PRIu64 " events)</p>\n", x->pid, x->events);
    }
    raw(w, "</section>\n");
}

/* Reader and symbol notices of both runs. */
static void notices(hw *w)
{
    const ttd_result *r = w->r;

    if (!r->runs[0].nnotices && !r->runs[1].nnotices)
        return;
    raw(w, "<section><h2>Notes</h2><ul class=\"notes\">\n");
    for (int ri = 0; ri < 2; ri++)
        for (size_t i = 0; i < r->runs[ri].nnotices; i++) {
            raw(w, "<li><b>%s:</b> ", ri ? "bad" : "good");
            esc(w, r->runs[ri].notices[i]);
            raw(w, "</li>\n");
        }
    raw(w, "</ul></section>\n");
}

static void thread_cell(hw *w, const ttd_thread_info *t)
{
    raw(w, "<td title=\"started in ");
    esc(w, t->start[0] ? t->start : "?");
    raw(w, "\">#%u <code>", t->index);
    esc(w, t->name[0] ? t->name : "(unnamed)");
    raw(w, "</code></td>");
}

static void threads(hw *w)
{
    const ttd_result *r = w->r;

    raw(w, "<section><h2>Threads</h2><table><tr><th>good</th><th>bad</th>"
           "<th>paired by</th><th>events</th><th>divergences</th>"
           "<th>first (ms)</th><th>pool</th></tr>\n");
    for (size_t i = 0; i < r->npairs; i++) {
        const ttd_pair *p = &r->pairs[i];
        raw(w, "<tr>");
        thread_cell(w, &p->good);
        thread_cell(w, &p->bad);
        char how[32];
        ttri_paired_by(p, how, sizeof how);
        raw(w, "<td%s>%s</td><td>%" PRIu64 " / %" PRIu64 "</td><td class=\"%s\">%zu</td><td>",
            p->uncertain ? " class=\"warn\" title=\"uncertain pairing: use --pair\"" : "",
            how, p->good.events, p->bad.events,
            p->hunks ? "bad" : "ok", p->hunks);
        if (p->hunks)
            ms(w, p->first_time_ns);
        raw(w, "</td><td>");
        if (p->pool)
            esc(w, p->pool);
        raw(w, "</td></tr>\n");
    }
    for (size_t i = 0; i < r->nunpaired; i++) {
        const ttd_unpaired *u = &r->unpaired[i];
        raw(w, "<tr class=\"warn\">");
        if (u->run == TTD_BAD)
            raw(w, "<td>&mdash;</td>");
        thread_cell(w, &u->thread);
        if (u->run == TTD_GOOD)
            raw(w, "<td>&mdash;</td>");
        raw(w, "<td>unpaired</td><td>%" PRIu64 "</td><td></td><td></td><td></td></tr>\n",
            u->thread.events);
    }
    raw(w, "</table></section>\n");
}

/* The first differing event of a side, for the one-line summaries. */
static void first_event(hw *w, const char *sign, const ttd_event *e)
{
    if (!e)
        return;
    raw(w, " <code class=\"%s\">%s ", sign[0] == '-' ? "bad" : "ok", sign);
    if (e->kind == TTF_EV_ENTER || e->kind == TTF_EV_EXIT) {
        raw(w, "%s", e->kind == TTF_EV_EXIT ? "return from " : "");
        esc_name(w, e->name);
        raw(w, "%s", e->kind == TTF_EV_ENTER && !strchr(e->name, '(') ? "()" : "");
    } else {
        code(w, e, NULL, ROW_LINE, 0);
    }
    raw(w, "</code>");
}

/* The frames of d with the inlined ones (the traced stack if none). */
static const ttd_frame *frames_of(const ttd_divergence *d, size_t *n)
{
    *n = d->nframes ? d->nframes : d->nstack;
    return d->nframes ? d->frames : d->stack;
}

static void frame_item(hw *w, const ttd_frame *fr)
{
    fn(w, fr->name);
    if (fr->args) {
        raw(w, "<span class=\"val\">");
        esc(w, fr->args);
        raw(w, "</span>");
    }
    if (fr->inlined)
        raw(w, "<span class=\"tag inl\" title=\"the compiler inlined it into the "
               "frame above: it has no call of its own; known from the call sites' "
               "debug info\">inlined</span>");
    if (fr->file && fr->line > 0) {
        raw(w, "<span class=\"loc\">");
        esc(w, fr->file);
        raw(w, ":%d</span>", fr->line);
    }
    if (fr->call_line > 0)
        raw(w, "<span class=\"loc\">calling at line %d</span>", fr->call_line);
    if (fr->code_changed)
        raw(w, "<span class=\"chg\" title=\"its machine code differs between "
               "the two builds\">code changed</span>");
}

static void stack_list(hw *w, const ttd_divergence *d)
{
    size_t n;
    const ttd_frame *frames = frames_of(d, &n);

    raw(w, "<ol class=\"stk\" id=\"tt-stack\">\n");
    if (!n)
        raw(w, "<li class=\"mut\">(top level of the thread)</li>\n");
    for (size_t i = 0; i < n; i++) {
        size_t k = w->full_names ? i : ttri_system_run(frames, i, n);
        if (k > i) {        /* frames[i..k) in system headers: folded, as in text */
            raw(w, "<li class=\"mut\" style=\"padding-left:%zuch\"><details><summary>"
                   "%zu frames in system headers</summary>", 2 * i, k - i);
            for (size_t j = i; j < k; j++) {
                raw(w, "<div>");
                frame_item(w, &frames[j]);
                raw(w, "</div>");
            }
            raw(w, "</details></li>\n");
            i = k - 1;
            continue;
        }
        raw(w, "<li%s style=\"padding-left:%zuch\">",
            frames[i].inlined ? " class=\"inl\"" : "", 2 * i);
        frame_item(w, &frames[i]);
        raw(w, "</li>\n");
    }
    raw(w, "<li class=\"here\" style=\"padding-left:%zuch\">&#8627;", 2 * n);
    first_event(w, "-", d->ngood ? &d->good[0] : NULL);
    first_event(w, "+", d->nbad ? &d->bad[0] : NULL);
    raw(w, "</li>\n</ol>\n");
}

/* The class of source line no in the deciding-line listing. */
static const char *src_class(const ttd_lines *l, int no)
{
    if (l->bad && l->bad->line == no)
        return " class=\"sb\"";
    if (l->good && l->good->line == no)
        return " class=\"sg\"";
    if (l->common && l->common->line == no)
        return " class=\"sc\"";
    return "";
}

/* The deciding line: the sentence, then the source lines of the range
 * (good's, bad's and the common call's lines marked), or why not. */
static void lines_block(hw *w, const ttd_lines *l)
{
    if (!l)
        return;
    put(w, w->m->lines_head);
    esc(w, l->text);
    raw(w, "</div>\n");
    if (!l->source) {
        raw(w, "<div class=\"mut\">No source shown: ");
        esc(w, l->source_missing ? l->source_missing : "unknown file");
        raw(w, "</div></div>\n");
        return;
    }
    raw(w, "<pre class=\"src\" title=\"");
    esc(w, l->file);
    raw(w, "\">");
    for (size_t i = 0; i < l->nsource; i++) {
        raw(w, "<span%s><i>%5d</i> ", src_class(l, l->source[i].line), l->source[i].line);
        esc(w, l->source[i].text);
        raw(w, "</span>"); /* display:block: no newline */
    }
    raw(w, "</pre><div class=\"mut\"><span class=\"sc\">common call</span> "
           "<span class=\"sg\">good</span> <span class=\"sb\">bad</span></div></div>\n");
}

static void suspect_list(hw *w, const ttd_divergence *d)
{
    if (!d->nsuspects)
        return;
    put(w, w->m->suspects_head);
    for (size_t i = 0; i < d->nsuspects; i++) {
        const ttd_suspect *s = &d->suspects[i];
        raw(w, "<li>");
        fn(w, s->name);
        if (s->inlined_into) {
            raw(w, " <span class=\"mut\">[inlined into ");
            fn(w, s->inlined_into);
            raw(w, "]</span>");
        }
        if (s->file && s->line > 0) {
            raw(w, " <span class=\"loc\">");
            esc(w, s->file);
            raw(w, ":%d</span>", s->line);
        }
        raw(w, " <span class=\"mut\">score %.1f</span><ul class=\"evid\">", s->score);
        for (size_t k = 0; k < s->nevidence; k++) {
            raw(w, "<li class=\"%s\" title=\"%s, weight %.2f\">",
                s->evidence[k].weight < 0 ? "against" : "for",
                ttd_evidence_name(s->evidence[k].kind), s->evidence[k].weight);
            esc_sent(w, s->evidence[k].text);
            raw(w, "</li>");
        }
        raw(w, "</ul></li>\n");
    }
    raw(w, "</ol>\n");
}

/* The cause chain, earliest first, each later step "because of" the one
 * before; why it starts there. */
static void chain_list(hw *w, const ttd_cause *c, size_t n, const char *end)
{
    if (!n)
        return;
    put(w, w->m->chain_head);
    for (size_t i = 0; i < n; i++)
        put(w, ttri_m_chain_link(w->m, c, i));
    put(w, ttri_m_chain_end(w->m, end));
}

/* ---- thread order picture (SYNC_OP) ------------------------------------------- */

#define SVG_W 900           /* picture width */
#define SVG_LABEL 150       /* lane label column */
#define SVG_LANE 18         /* lane height */

/* The lanes: pair indexes seen in either window (-1: unpaired), sorted. */
static void add_lane(int64_t *lane, size_t *n, size_t cap, int64_t p)
{
    size_t k = 0;
    while (k < *n && lane[k] != p)
        k++;
    if (k == *n && *n < cap)
        lane[(*n)++] = p;
}

static size_t lanes(const ttd_interleave *il, int64_t *lane, size_t cap)
{
    size_t n = 0;

    for (int r = 0; r < 2; r++)
        for (size_t i = 0; i < il->nwindow[r]; i++)
            add_lane(lane, &n, cap, il->window[r][i].pair);
    if (il->unprotected)
        add_lane(lane, &n, cap, il->unprot_call.pair);
    if (il->overlapped)
        add_lane(lane, &n, cap, il->overlap.pair);
    for (size_t i = 1; i < n; i++)  /* insertion sort: few lanes */
        for (size_t k = i; k > 0 && lane[k - 1] > lane[k]; k--) {
            int64_t t = lane[k];
            lane[k] = lane[k - 1];
            lane[k - 1] = t;
        }
    return n;
}

static size_t lane_of(const int64_t *lane, size_t n, int64_t pair)
{
    for (size_t i = 0; i < n; i++)
        if (lane[i] == pair)
            return i;
    return 0;
}

static const char *op_color(int op)
{
    if (op == TTF_SOP_LOCK || op == TTF_SOP_TRYLOCK)
        return "#1a7f37";
    if (op == TTF_SOP_UNLOCK)
        return "#8c959f";
    return op >= TTF_SOP_CREATE ? "#8250df" : "#0969da";
}

/* x of time t on an axis from t0 to t1. */
static double xpos(uint64_t t, uint64_t t0, uint64_t t1)
{
    double span = t1 > t0 ? (double)(t1 - t0) : 1.0;
    double f = t < t0 ? 0.0 : (double)(t - t0) / span;
    return SVG_LABEL + 10 + f * (SVG_W - SVG_LABEL - 30);
}

/* One run's block of lanes at y0: events, the unprotected call (bad run),
 * the split as a red line. */
static void svg_run(hw *w, const ttd_interleave *il, int r, const int64_t *lane,
                    size_t nl, int y0)
{
    const ttd_xev *v = il->window[r];
    size_t n = il->nwindow[r];
    uint64_t t0 = n ? v[0].time_ns : 0, t1 = r ? w->r->first->bad_time_ns
                                                 : w->r->first->good_time_ns;

    if (r && il->overlapped && il->overlap.time_ns < t0)
        t0 = il->overlap.time_ns;   /* show the overlapping calls */
    if (r && il->nduring && il->during[0].time_ns < t0)
        t0 = il->during[0].time_ns;

    raw(w, "<text x=\"4\" y=\"%d\" font-weight=\"bold\">%s run</text>\n", y0 - 4,
        r ? "bad" : "good");
    for (size_t i = 0; i < nl; i++) {
        int y = y0 + (int)i * SVG_LANE + SVG_LANE / 2;
        const ttd_pair *p = lane[i] >= 0 ? &w->r->pairs[lane[i]] : NULL;
        const ttd_thread_info *ti = p ? (r ? &p->bad : &p->good) : NULL;
        raw(w, "<text x=\"4\" y=\"%d\">#%u ", y + 4, ti ? ti->index : 0);
        esc(w, ti ? ti->name : "unpaired");
        raw(w, "</text><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#d0d7de\"/>\n",
            SVG_LABEL, y, SVG_W - 10, y);
    }
    if (r && il->unprotected && lane_of(lane, nl, il->unprot_call.pair) < nl) {
        int y = y0 + (int)lane_of(lane, nl, il->unprot_call.pair) * SVG_LANE;
        double xa = xpos(il->unprot_call.time_ns, t0, t1), xb = xpos(il->unprot_end_ns, t0, t1);
        raw(w, "<rect class=\"unprot\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
               "fill=\"#cf222e\" opacity=\"0.25\"><title>", xa, y + 2, xb - xa + 1, SVG_LANE - 4);
        esc_name(w, il->unprot_func);
        raw(w, " without %s</title></rect>\n", "its lock");
    }
    for (size_t i = 0; r && i < il->nduring; i++) {
        const ttd_xev *e = &il->during[i];
        if (e->kind == TTF_EV_SYNC_OP)
            continue;
        int y = y0 + (int)lane_of(lane, nl, e->pair) * SVG_LANE;
        raw(w, "<rect x=\"%.1f\" y=\"%d\" width=\"2\" height=\"%d\" fill=\"#cf222e\"><title>"
               "%.3f ms %s ", xpos(e->time_ns, t0, t1), y + 2, SVG_LANE - 4,
            (double)e->time_ns / 1e6, e->kind == TTF_EV_ENTER ? "enter" : "exit");
        esc_name(w, e->func);
        raw(w, "</title></rect>\n");
    }
    for (size_t i = 0; i < n; i++) {
        double x = xpos(v[i].time_ns, t0, t1);
        int y = y0 + (int)lane_of(lane, nl, v[i].pair) * SVG_LANE + SVG_LANE / 2;
        raw(w, "<circle cx=\"%.1f\" cy=\"%d\" r=\"4\" fill=\"%s\"><title>%.3f ms %s ",
            x, y, op_color(v[i].op), (double)v[i].time_ns / 1e6, ttf_sync_op_name(v[i].op));
        esc(w, v[i].object ? v[i].object : "");
        raw(w, " in ");
        esc_name(w, v[i].func ? v[i].func : "");
        raw(w, "</title></circle>\n");
    }
    double xs = xpos(t1, t0, t1);
    raw(w, "<line class=\"split\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#cf222e\" "
           "stroke-width=\"2\"/><text x=\"%.1f\" y=\"%d\" fill=\"#cf222e\" text-anchor=\"end\">"
           "divergence</text>\n", xs, y0, xs, y0 + (int)nl * SVG_LANE, xs - 4, y0 - 4);
}

/* The picture: one lane per thread on a time axis, good above bad. */
static void order_section(hw *w, const ttd_interleave *il)
{
    int64_t lane[32];
    size_t nl = lanes(il, lane, 32);
    int block = (int)nl * SVG_LANE + 24;

    raw(w, "<section class=\"order\" id=\"order\"><h2>Thread order before the divergence</h2>\n"
           "<p class=\"mut\">The last lock, condition and thread operations of all threads "
           "(%zu of %" PRIu64 " in the good run, %zu of %" PRIu64 " in the bad run); objects "
           "are numbered by first use. Hover a dot for details.</p>\n",
        il->nwindow[0], il->ops[0], il->nwindow[1], il->ops[1]);
    raw(w, "<svg width=\"%d\" height=\"%d\" "
           "font-size=\"11\" font-family=\"monospace\" role=\"img\">\n", SVG_W, 2 * block + 8);
    svg_run(w, il, 0, lane, nl, 18);
    svg_run(w, il, 1, lane, nl, 18 + block);
    raw(w, "</svg>\n");
    put(w, w->m->order_diff);
    put(w, w->m->unprotected);
    raw(w, "</section>\n");
}

/* ---- races (diff/races.c) ----------------------------------------------------- */

/* One race's lanes: each thread's window from its check to its act's
 * release, the moment both were inside as a red line. */
static void race_svg(hw *w, const ttd_race *x)
{
    uint64_t t0 = x->check_ns[0] < x->check_ns[1] ? x->check_ns[0] : x->check_ns[1];
    uint64_t t1 = x->release_ns[0] > x->release_ns[1] ? x->release_ns[0] : x->release_ns[1];
    uint64_t pad = (t1 - t0) / 8 + 1;

    t0 = t0 > pad ? t0 - pad : 0;
    t1 += pad;
    raw(w, "<svg class=\"race\" width=\"%d\" height=\"%d\" font-size=\"11\" "
           "font-family=\"monospace\" role=\"img\">\n", SVG_W, 2 * SVG_LANE + 24);
    for (int k = 0; k < 2; k++) {
        int y = 16 + k * SVG_LANE;
        double xa = xpos(x->check_ns[k], t0, t1), xb = xpos(x->release_ns[k], t0, t1);
        raw(w, "<text x=\"4\" y=\"%d\">#%u ", y + SVG_LANE / 2 + 4, x->thread[k]);
        esc(w, x->thread_name[k]);
        raw(w, "</text><line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#d0d7de\"/>\n",
            SVG_LABEL, y + SVG_LANE / 2, SVG_W - 10, y + SVG_LANE / 2);
        raw(w, "<rect class=\"window\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
               "fill=\"#cf222e\" opacity=\"0.3\"><title>%.3f..%.3f ms: ", xa, y + 2,
            xb - xa > 3 ? xb - xa : 3, SVG_LANE - 4, (double)x->check_ns[k] / 1e6,
            (double)x->release_ns[k] / 1e6);
        esc_name(w, x->check);
        raw(w, " ... ");
        esc_name(w, x->act);
        raw(w, "</title></rect>\n");
    }
    double xs = xpos(x->time_ns, t0, t1);
    raw(w, "<line class=\"both\" x1=\"%.1f\" y1=\"12\" x2=\"%.1f\" y2=\"%d\" "
           "stroke=\"#cf222e\" stroke-width=\"2\"/><text x=\"%.1f\" y=\"10\" "
           "fill=\"#cf222e\">%.3f ms</text>\n</svg>\n", xs, xs, 16 + 2 * SVG_LANE, xs + 3,
        (double)x->time_ns / 1e6);
}

/* The races of the bad run, best first (at most 3), with both stacks. */
static void races_section(hw *w)
{
    const ttd_result *r = w->r;
    size_t n = r->nraces < 3 ? r->nraces : 3;

    if (!n)
        return;
    put(w, w->m->races);
    for (size_t i = 0; i < n; i++) {
        const ttd_race *x = &r->races[i];
        raw(w, "<p class=\"%s race\">", i ? "note" : "bad");
        esc_sent(w, x->text);
        raw(w, "</p>\n");
        race_svg(w, x);
        for (int k = 0; k < 2; k++) {
            raw(w, "<div class=\"mut\"><code>");
            esc(w, x->thread_name[k]);
            raw(w, "</code>:");
            for (size_t j = 0; j < x->nstacks[k]; j++) {
                raw(w, j ? " &gt; <code>" : " <code>");
                esc_name(w, x->stacks[k][j]);
                raw(w, "</code>");
            }
            raw(w, "</div>\n");
        }
    }
    raw(w, "</section>\n");
}

static void first_section(hw *w)
{
    const ttd_divergence *d = w->r->first;

    put(w, w->m->split);
    lines_block(w, d->lines);
    put(w, w->m->stack_head);
    stack_list(w, d);
    suspect_list(w, d);
    chain_list(w, d->chain, d->nchain, d->chain_end);
    put(w, w->m->bad_end);
    put(w, w->m->followed);
    put(w, w->m->clock_order);
    put(w, w->m->artifact);
    put(w, w->m->noise);
    put(w, w->m->siblings);
    raw(w, "</section>\n");
    if (d->interleave && (d->interleave->shared || d->interleave->unprotected))
        order_section(w, d->interleave); /* only when the order can matter */
}

static void filter_item(hw *w, const char *opt, const char *val)
{
    if (!val)
        return;
    raw(w, " <code>%s ", opt);
    esc(w, val);
    raw(w, "</code>");
}

/* The options that chose what was compared, when any did. */
static void filters(hw *w)
{
    const ttd_options *o = &w->r->options;
    static const char *const msg[] = {"site", "text", "off"};
    if (!o->thread && !o->function && !o->exclude && o->messages == TTD_MSG_SITE &&
        !o->collapse_loops && !o->nbaselines)
        return;
    raw(w, "<p class=\"note\" id=\"tt-filters\">Compared with:");
    filter_item(w, "--thread", o->thread);
    filter_item(w, "--function", o->function);
    filter_item(w, "--exclude", o->exclude);
    if (o->messages != TTD_MSG_SITE && o->messages >= 0 && o->messages <= TTD_MSG_OFF)
        filter_item(w, "--messages", msg[o->messages]);
    if (o->collapse_loops)
        raw(w, " <code>--collapse-loops</code>");
    if (o->nbaselines)
        raw(w, " <code>--baseline</code> &times;%zu", o->nbaselines);
    raw(w, "</p>\n");
}

/* The verdict in verdict.c's words, the first thing on the page. */
static void cause_verdict(hw *w)
{
    ttri_verdict_text t;
    const ttd_verdict *v = w->r->verdict;

    ttri_verdict_words(w->r, &t);
    raw(w, "<section class=\"note\" id=\"tt-verdict\"><p><strong>Verdict:</strong> ");
    esc_sent(w, t.headline);
    raw(w, "</p>\n");
    if (!*t.cause && !t.nevidence && !*t.symptom) {
        raw(w, "</section>\n");
        return;
    }
    raw(w, "<ul>\n");
    if (*t.cause) {
        raw(w, "<li>cause (%s): ", v ? ttd_confidence_name(v->confidence) : "?");
        esc_sent(w, t.cause);
        raw(w, "</li>\n");
    }
    for (size_t i = 0; i < t.nevidence; i++) {
        raw(w, "<li>evidence: ");
        esc_sent(w, t.evidence[i]);
        raw(w, "</li>\n");
    }
    if (v && v->confidence == TTD_CONF_UNKNOWN && v->cause) {
        raw(w, "<li>confidence: ");
        esc_sent(w, t.confidence);
        raw(w, "</li>\n");
    }
    if (*t.symptom) {
        raw(w, "<li>symptom: ");
        esc_sent(w, t.symptom);
        raw(w, "</li>\n");
    }
    raw(w, "</ul></section>\n");
}

static void verdict(hw *w)
{
    raw(w, "<p class=\"verdict\">");
    put(w, w->m->headline);
}

/* ---- divergence windows ------------------------------------------------------- */

static void others(hw *w, const ttd_divergence *d)
{
    if (!d->nothers[0] && !d->nothers[1])
        return;
    raw(w, "<div class=\"others\"><h3>Other threads just before</h3><table>"
           "<tr><th>run</th><th>thread</th><th>last events (ms)</th></tr>\n");
    for (int ri = 0; ri < 2; ri++)
        for (size_t i = 0; i < d->nothers[ri]; i++) {
            const ttd_other *o = &d->others[ri][i];
            raw(w, "<tr><td>%s</td><td>#%u <code>", ri ? "bad" : "good", o->thread);
            esc(w, o->name[0] ? o->name : "(unnamed)");
            raw(w, "</code></td><td class=\"mono\">");
            for (size_t j = 0; j < o->nevents; j++) {
                raw(w, "%s", j ? "; " : "");
                code(w, &o->events[j], NULL, ROW_LINE, 0);
                raw(w, " <span class=\"cm\">@");
                ms(w, o->events[j].time_ns);
                raw(w, "</span>");
            }
            raw(w, "</td></tr>\n");
        }
    raw(w, "</table></div>\n");
}

static void gap_row(hw *w, const char *text, uint64_t more)
{
    raw(w, "<div class=\"r gap\"><span class=\"h\"><span class=\"n\"></span>"
           "<span class=\"t\"></span><span class=\"c\">");
    if (more)
        raw(w, "&hellip; %" PRIu64 " more %s", more, text);
    else
        raw(w, "%s", text);
    raw(w, "</span></span></div>\n");
}

static void side(hw *w, int s, const ttd_event *ev, size_t n, uint64_t more)
{
    raw(w, "<div class=\"side %s\">\n", s == SIDE_GOOD ? "good" : "bad");
    tree(w, ev, n, s, 0, s == SIDE_GOOD ? "del" : "ins");
    if (more)
        gap_row(w, s == SIDE_GOOD ? "good-only events" : "bad-only events", more);
    if (!n && !more)
        gap_row(w, s == SIDE_GOOD ? "(nothing here: only the bad run has these events)"
                                  : "(nothing here: only the good run has these events)", 0);
    raw(w, "</div>\n");
}

/* Width of the event-number column: the longest number shown, its -/+
 * mark and padding (8 at least), so no number wraps. */
static int index_width(const ttd_divergence *d)
{
    uint64_t max = d->good_index > d->bad_index ? d->good_index : d->bad_index;
    for (size_t i = 0; i < d->ngood; i++)
        max = d->good[i].index > max ? d->good[i].index : max;
    for (size_t i = 0; i < d->nbad; i++)
        max = d->bad[i].index > max ? d->bad[i].index : max;
    int digits = 1;
    for (; max >= 10; max /= 10)
        digits++;
    return digits + 4 > 8 ? digits + 4 : 8;
}

static void side_by_side(hw *w, const ttd_divergence *d)
{
    const ttd_pair *p = &w->r->pairs[d->pair];

    w->base = ttri_min_level(d->before, d->nbefore, 1 << 30);
    w->base = ttri_min_level(d->good, d->ngood,
                             ttri_min_level(d->bad, d->nbad, w->base));
    if (w->base == 1 << 30)
        w->base = 0;
    raw(w, "<div class=\"sbs\" style=\"--nw:%dch\"><div class=\"hd\"><div>good &middot; "
           "thread #%u <code>", index_width(d), p->good.index);
    esc(w, p->good.name[0] ? p->good.name : "(unnamed)");
    raw(w, "</code></div><div>bad &middot; thread #%u <code>", p->bad.index);
    esc(w, p->bad.name[0] ? p->bad.name : "(unnamed)");
    raw(w, "</code></div></div>\n<div class=\"ctx\">\n");
    if (d->bad_index > d->nbefore)
        gap_row(w, "common events before (see ttdump)", d->bad_index - d->nbefore);
    tree(w, d->before, d->nbefore, SIDE_BOTH, d->good_index - d->nbefore, "");
    raw(w, "</div>\n<div class=\"chg\">\n");
    side(w, SIDE_GOOD, d->good, d->ngood, d->good_more);
    side(w, SIDE_BAD, d->bad, d->nbad, d->bad_more);
    raw(w, "</div></div>\n");
}

static void crumb(hw *w, const ttd_divergence *d)
{
    size_t n;
    const ttd_frame *frames = frames_of(d, &n);

    raw(w, "<div class=\"crumb\"><span class=\"mut\">stack:</span> ");
    if (!n)
        raw(w, "<span class=\"mut\">(top level)</span>");
    for (size_t i = 0; i < n; i++) {
        if (i)
            raw(w, "<span class=\"sep\">&rsaquo;</span>");
        fn(w, frames[i].name);
        if (frames[i].inlined)
            raw(w, "<span class=\"tag inl\">inlined</span>");
    }
    const ttd_frame *in = n ? &frames[n - 1] : NULL;
    if (in && in->file && in->line > 0) {
        raw(w, " <span class=\"mut\">(");
        esc(w, in->file);
        raw(w, ":%d)</span>", in->line);
    }
    raw(w, "</div>\n");
}

static void hunk_summary(hw *w, const ttd_hunk_info *h, size_t i)
{
    raw(w, "<span class=\"dn\">#%zu</span>thread <code>", i + 1);
    esc(w, ttri_pair_name(&w->r->pairs[h->pair]));
    raw(w, "</code> &middot; good event %" PRIu64 " (&minus;%" PRIu64 ") &middot; bad event %"
           PRIu64 " (+%" PRIu64 ") &middot; ", h->good_index, h->good_count, h->bad_index,
        h->bad_count);
    ms(w, h->time_ns);
    raw(w, " ms");
    if (h->good_reps || h->bad_reps)
        raw(w, " &middot; <span class=\"tag\">loop &times;%" PRIu64 " vs &times;%" PRIu64
               "</span>", h->good_reps, h->bad_reps);
    first_event(w, "-", h->good_first);
    first_event(w, "+", h->bad_first);
}

static void window(hw *w, const ttd_divergence *d, size_t i, size_t n)
{
    const ttd_hunk_info *h = &w->r->hunks[d->hunk];

    raw(w, "<section class=\"div\" id=\"d%zu\"><details class=\"dv\"%s><summary>", i + 1,
        i == 0 ? " open" : "");
    hunk_summary(w, h, i);
    if (i == 0)
        raw(w, "<span class=\"tag\">first</span>");
    if (d->crash)
        raw(w, "<span class=\"tag\" style=\"background:var(--del);color:var(--bad)\">crash</span>");
    raw(w, "</summary>\n<div class=\"dbody\"><nav class=\"pn\">");
    if (i > 0)
        raw(w, "<a href=\"#d%zu\" data-go=\"%zu\">&#9664; previous</a>", i, i);
    else
        raw(w, "<span>&#9664; previous</span>");
    if (i + 1 < n)
        raw(w, "<a href=\"#d%zu\" data-go=\"%zu\">next &#9654;</a>", i + 2, i + 2);
    else
        raw(w, "<span>next &#9654;</span>");
    raw(w, "</nav>\n");
    crumb(w, d);
    side_by_side(w, d);
    if (d->crash)
        put(w, ttri_m_crash_here(w->m, d->crash));
    others(w, d);
    raw(w, "</div></details></section>\n");
}

/* One line for each resolved hunk in [from, end) without a window. */
static void hunk_list(hw *w, size_t from, size_t end, const char *title)
{
    const ttd_result *r = w->r;

    size_t to = end - from > ROWS_MAX ? from + ROWS_MAX : end;

    if (from >= end)
        return;
    raw(w, "<h2>%s</h2><table>\n", title);
    for (size_t i = from; i < to; i++) {
        raw(w, "<tr><td class=\"mono\">");
        hunk_summary(w, &r->hunks[i], i);
        raw(w, "</td></tr>\n");
    }
    raw(w, "</table>\n");
    if (to < end)
        put(w, ttri_m_more(w->m, end - to));
}

/* The navigator: n windows; total divergences in all (more when some have
 * no window), said the same way as the script updates it. */
static void toolbar(hw *w, size_t n, uint64_t total)
{
    raw(w, "<div class=\"bar jsonly\"><button type=\"button\" data-step=\"-1\" "
           "title=\"previous divergence (p)\">&#9664; prev</button><span id=\"tt-count\">"
           "1 / %zu", n);
    if (total > n)
        raw(w, " (of %" PRIu64 ")", total);
    raw(w, "</span><button type=\"button\" data-step=\"1\" title=\"next divergence (n)\">"
           "next &#9654;</button><input id=\"tt-filter\" type=\"search\" "
           "placeholder=\"hide functions matching&hellip;\" aria-label=\"filter\">"
           "<span id=\"tt-hidden\" class=\"mut\"></span><span class=\"keys\"><kbd>n</kbd> next "
           "&middot; <kbd>p</kbd> previous &middot; <kbd>/</kbd> filter</span></div>\n");
}

static int divergences(hw *w, ttd_diff *dd, const ttr_options *o)
{
    const ttd_result *r = w->r;
    size_t cap = o->all ? WINDOWS_ALL : (size_t)o->hunk_lines + 1;
    size_t ndiv = r->nhunks - r->nexpected - r->ntiming;
    size_t n = ndiv < cap ? ndiv : cap;

    if (r->ntiming) {
        raw(w, "<section id=\"timing\">");
        hunk_list(w, ndiv, ndiv + r->ntiming, "Timing-shaped (not divergences)");
        put(w, w->m->timing_note);
    }

    if (r->nexpected) {
        raw(w, "<section id=\"expected\">");
        hunk_list(w, ndiv + r->ntiming, r->nhunks, "Also varies between good runs (expected)");
        put(w, w->m->expected_note);
    }
    put(w, w->m->hidden);
    if (!n)
        return 0;
    raw(w, "<section id=\"divergences\"><h2>Divergences</h2>\n");
    toolbar(w, n, r->hunks_total);
    int rc = ttd_hunk_details(dd, 0, n); /* one read of each thread for all */
    if (rc < 0)
        return rc;
    for (size_t i = 0; i < n; i++) {
        const ttd_divergence *d;
        if ((rc = ttd_hunk_detail(dd, i, &d)) < 0)
            return rc;
        window(w, d, i, n);
    }
    hunk_list(w, n, ndiv, "Further divergences (no window)");
    put(w, w->m->further);
    raw(w, "</section>\n");
    return 0;
}

/* A growing buffer behind a FILE (fopencookie), that remembers a failed
 * allocation itself: glibc's open_memstream can lose bytes silently when
 * its buffer cannot grow (a corrupt embedded JSON, check_oom.sh). */
struct jbuf {
    char *p;
    size_t len, cap;
    int failed;
};

static ssize_t jbuf_write(void *c, const char *b, size_t n)
{
    struct jbuf *j = c;
    if (j->failed)
        return 0;
    if (n > j->cap - j->len) {
        size_t cap = j->cap ? j->cap : 4096;
        while (cap - j->len < n)
            cap *= 2;
        char *p = realloc(j->p, cap);
        if (!p) {
            j->failed = 1;
            return 0;
        }
        j->p = p;
        j->cap = cap;
    }
    memcpy(j->p + j->len, b, n);
    j->len += n;
    return (ssize_t)n;
}

/* Threads without a partner that count (not a pool's extra worker). */
static size_t lone(const ttd_result *r)
{
    size_t n = 0;

    for (size_t i = 0; i < r->nunpaired; i++)
        n += !r->unpaired[i].grew;
    return n;
}

/* The JSON of ttr_json, with every '<' as \u003c (ttr_json_string already
 * escapes it in strings, and JSON has none outside them), so the block can
 * never hold "</script>" or "<!--". */
static int embed_json(hw *w, ttd_diff *d, const ttr_options *o)
{
    struct jbuf j = {NULL, 0, 0, 0};
    FILE *m = fopencookie(&j, "w", (cookie_io_functions_t){.write = jbuf_write});
    int rc;

    if (!m)
        return TT_ENOMEM;
    rc = ttr_json(m, d, o);
    if (rc == 0 && ferror(m))
        rc = TT_ENOMEM;
    if (fclose(m) != 0 && rc == 0)
        rc = TT_ENOMEM;
    if (j.failed || (rc == 0 && j.len == 0))
        rc = TT_ENOMEM;         /* whatever ttr_json made of the short write */
    if (rc == 0) {
        raw(w, "<script type=\"application/json\" id=\"tt-data\">");
        for (size_t i = 0; i < j.len; i++) {
            if (j.p[i] == '<')
                fputs("\\u003c", w->f);
            else
                putc(j.p[i], w->f);
        }
        raw(w, "</script>\n");
    }
    free(j.p);
    return rc;
}

static void head(hw *w)
{
    const ttd_result *r = w->r;
    const char *exe = r->runs[TTD_BAD].exe;
    const char *base = exe ? strrchr(exe, '/') : NULL;

    base = base ? base + 1 : exe && exe[0] ? exe : "trace";
    raw(w, "<!DOCTYPE html>\n<html lang=\"en\" class=\"nojs\"><head><meta charset=\"utf-8\">\n"
           "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
           "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; "
           "base-uri 'none'; form-action 'none'\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
           "<meta name=\"generator\" content=\"ttdiff %s\">\n<title>ttdiff: ", TT_VERSION);
    esc(w, base);
    raw(w, " &mdash; %s</title>\n<style>\n%s</style>\n</head>\n<body>\n",
        r->diverged ? "diverged" : lone(r) ? "unpaired threads" : "no divergence",
        html_css);
    raw(w, "<header class=\"top\"><h1>ttdiff report<small><code>");
    esc(w, base);
    raw(w, "</code>: good vs bad run</small></h1>\n");
    cause_verdict(w);
    verdict(w);
    filters(w);     /* whatever the verdict, as the text report's header */
    put(w, w->m->chaos);
    raw(w, "</header>\n<main>\n");
}

static int page(hw *w, ttd_diff *d, const ttr_options *opts);

int ttr_html(FILE *f, ttd_diff *d, const ttr_options *opts)
{
    const ttd_result *r = ttd_get_result(d);
    ttr_options def;
    ttri_model m;
    hw w = {f, r, 0, 0, 0, &m};
    int rc;

    if (!r || !f)
        return TT_EINVAL;
    if (!opts) {
        ttr_options_init(&def);
        opts = &def;
    }
    w.full_names = opts->full_names;
    if ((rc = ttri_model_init(&m, r)) == 0)
        rc = page(&w, d, opts);
    if (rc == 0 && m.failed)
        rc = TT_ENOMEM;
    ttri_model_free(&m);
    return rc;
}

/* The page of ttr_html, the model built. */
static int page(hw *w, ttd_diff *d, const ttr_options *opts)
{
    const ttd_result *r = w->r;
    int rc;

    head(w);
    if (ttri_headline(r) == TTRI_HL_ENDED) {
        raw(w, "<section class=\"first\" id=\"outcome\"><h2>Outcome</h2>\n");
        chain_list(w, r->chain, r->nchain, r->chain_end);
        raw(w, "</section>\n");
    }
    if (r->value_first && r->value_first->before_split)
        put(w, w->m->value);
    if (r->first)
        first_section(w);
    races_section(w);
    if (r->value_first && !r->value_first->before_split)
        put(w, w->m->value);
    raw(w, "<div class=\"grid2\">\n");
    runs(w);
    raw(w, "<div>\n");
    threads(w);
    notices(w);
    raw(w, "</div></div>\n");
    if ((rc = divergences(w, d, opts)) < 0)
        return rc;
    put(w, ttri_m_left_out(w->m, w->shown));
    raw(w, "<footer>Generated by ttdiff %s. The same results as "
            "<code>ttdiff --format json</code> are embedded in this page "
            "(<code>script#tt-data</code>).</footer>\n</main>\n", TT_VERSION);
    if ((rc = embed_json(w, d, opts)) < 0)
        return rc;
    raw(w, "<script>\n%s</script>\n</body>\n</html>\n", html_js);
    return ferror(w->f) ? TT_EIO : 0;
}
