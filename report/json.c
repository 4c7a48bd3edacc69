/*
 * json.c - ttdiff results as one JSON document (schema in report/JSON.md).
 * A tiny streaming writer: it tracks nesting and commas, pretty-prints with
 * two-space indents, and escapes every string from a trace so the output
 * is valid UTF-8 JSON and safe to embed in an HTML page.
 * Stage 1 json of report/STAGES.
 */
#include <inttypes.h>
#include <string.h>

#include "ttreport.h"
#include "ttf_util.h"
#include "ttr_int.h"

int ttr_version(void)
{
    return TTR_VERSION_NUMBER;
}

void ttr_options_init(ttr_options *o)
{
    memset(o, 0, sizeof *o);
    o->hunk_lines = 10;
    o->order_rows = 8;
}

const char *ttr_kind_name(int kind)
{
    return ttfi_kind_name(kind);
}

const char *ttr_signal_name(int signo, char *buf, size_t n)
{
    return ttfi_signal_name(signo, buf, n);
}

/* The one JSON string escaper of report/ (JSON.md, Conventions): ttr_json
 * and the Chrome export (chrome.c) both write through it. */
char *ttri_json_esc(char *p, const unsigned char **s)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *u = *s;
    size_t n = ttf_utf8_len(u);
    unsigned c = u[0];          /* the code written as \uXXXX, if any */

    if (n == 0) {
        memcpy(p, "\\ufffd", 6);
        *s = u + 1;
        return p + 6;
    }
    *s = u + n;
    if (n == 3 && u[0] == 0xE2 && u[1] == 0x80 && (u[2] == 0xA8 || u[2] == 0xA9)) {
        c = 0x2000u + (u[2] & 0x3Fu);
    } else if (n == 2 && u[0] == 0xC2 && u[1] < 0xA0) {
        c = u[1];               /* C1 control: inert on a terminal */
    } else if (n > 1) {
        memcpy(p, u, n);
        return p + n;
    } else {
        const char *e = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\n' ? "\\n"
                      : c == '\t' ? "\\t" : c == '\r' ? "\\r" : NULL;
        if (e) {
            memcpy(p, e, 2);
            return p + 2;
        }
        if (c >= 0x20 && c != 0x7F && c != '<' && c != '>' && c != '&') {
            *p = (char)c;
            return p + 1;
        }
    }
    p[0] = '\\';
    p[1] = 'u';
    p[2] = hex[c >> 12];
    p[3] = hex[(c >> 8) & 15];
    p[4] = hex[(c >> 4) & 15];
    p[5] = hex[c & 15];
    return p + 6;
}

int ttr_json_string(FILE *f, const char *str)
{
    const unsigned char *s = (const unsigned char *)str;
    char buf[512];
    size_t n = 0;

    if (!s) {
        fputs("null", f);
        return ferror(f) ? TT_EIO : 0;
    }
    buf[n++] = '"';
    while (*s) {
        if (n + TTRI_JSON_ESC_MAX + 1 > sizeof buf) {   /* room for it and the quote */
            fwrite(buf, 1, n, f);
            n = 0;
        }
        n = (size_t)(ttri_json_esc(buf + n, &s) - buf);
    }
    buf[n++] = '"';
    fwrite(buf, 1, n, f);
    return ferror(f) ? TT_EIO : 0;
}

/* ---- the writer ---------------------------------------------------------- */

#define MAX_DEPTH 16

typedef struct jw {
    FILE *f;                /* output */
    int depth;              /* open containers */
    int count[MAX_DEPTH];   /* items written in each */
    int inline_from;        /* depth from which items stay on one line */
} jw;

static void item(jw *w)
{
    if (w->depth == 0)
        return;
    if (w->count[w->depth - 1]++)
        putc(',', w->f);
    if (w->depth > w->inline_from) {
        if (w->count[w->depth - 1] > 1)
            putc(' ', w->f);
        return;
    }
    fprintf(w->f, "\n%*s", 2 * w->depth, "");
}

static void key(jw *w, const char *k)
{
    item(w);
    fprintf(w->f, "\"%s\": ", k);
    w->count[w->depth - 1] |= 0x10000; /* the value that follows is no item */
}

/* Before a value: a comma and indent unless it follows a key. */
static void value(jw *w)
{
    if (w->depth && (w->count[w->depth - 1] & 0x10000)) {
        w->count[w->depth - 1] &= ~0x10000;
        return;
    }
    item(w);
}

static void open_c(jw *w, char c)
{
    value(w);
    putc(c, w->f);
    if (w->depth < MAX_DEPTH)
        w->count[w->depth] = 0;
    w->depth++;
}

static void close_c(jw *w, char c)
{
    w->depth--;
    if (w->count[w->depth] && w->depth < w->inline_from)
        fprintf(w->f, "\n%*s", 2 * w->depth, "");
    putc(c, w->f);
}

static void v_str(jw *w, const char *s)
{
    value(w);
    ttr_json_string(w->f, s);
}

static void v_u64(jw *w, uint64_t v)
{
    value(w);
    fprintf(w->f, "%" PRIu64, v);
}

static void v_i64(jw *w, int64_t v)
{
    value(w);
    fprintf(w->f, "%" PRId64, v);
}

static void v_lit(jw *w, const char *lit)
{
    value(w);
    fputs(lit, w->f);
}

static void k_str(jw *w, const char *k, const char *s) { key(w, k); v_str(w, s); }
static void k_u64(jw *w, const char *k, uint64_t v) { key(w, k); v_u64(w, v); }
static void k_i64(jw *w, const char *k, int64_t v) { key(w, k); v_i64(w, v); }
static void k_bool(jw *w, const char *k, int b) { key(w, k); v_lit(w, b ? "true" : "false"); }
static void k_null(jw *w, const char *k) { key(w, k); v_lit(w, "null"); }

/* A number with three decimals (similarity, score, weight). */
static void v_dbl(jw *w, double v)
{
    value(w);
    fprintf(w->f, "%.3f", v);
}

static void k_dbl(jw *w, const char *k, double v)
{
    key(w, k);
    v_dbl(w, v);
}

/* ---- documents ----------------------------------------------------------- */

static void event(jw *w, const ttd_event *e)
{
    char hex[32];
    int save = w->inline_from;

    if (!e) {
        v_lit(w, "null");
        return;
    }
    if (w->inline_from > w->depth)
        w->inline_from = w->depth;
    open_c(w, '{');
    k_u64(w, "index", e->index);
    k_str(w, "kind", ttr_kind_name(e->kind));
    k_str(w, "function", e->name);
    if (e->text)
        k_str(w, "text", e->text);
    if (e->value)
        k_str(w, "value", e->value);
    if (e->from)
        k_str(w, "from", e->from);
    if (e->good_value)
        k_str(w, "good_value", e->good_value);
    k_i64(w, "depth", e->depth);
    k_u64(w, "thread", e->thread);
    k_u64(w, "time_ns", e->time_ns);
    if (e->kind == TTF_EV_CRASH) {
        k_i64(w, "signal", e->signo);
        snprintf(hex, sizeof hex, "0x%" PRIx64, e->fault_addr);
        k_str(w, "fault_addr", hex);
    }
    close_c(w, '}');
    w->inline_from = save;
}

static void events(jw *w, const char *k, const ttd_event *ev, size_t n)
{
    key(w, k);
    open_c(w, '[');
    for (size_t i = 0; i < n; i++)
        event(w, &ev[i]);
    close_c(w, ']');
}

static void run(jw *w, const ttd_run_info *r)
{
    open_c(w, '{');
    k_str(w, "path", r->path);
    k_i64(w, "pid", r->pid);
    k_str(w, "exe", r->exe);
    char hex[132];
    if (r->build_id)
        k_str(w, "build_id", ttri_build_id_hex(r, hex, sizeof hex));
    else
        k_null(w, "build_id");
    key(w, "argv");
    open_c(w, '[');
    for (int i = 0; r->argv && i < r->argc; i++)
        v_str(w, r->argv[i]);
    close_c(w, ']');
    k_u64(w, "start_realtime_ns", r->start_realtime_ns);
    k_u64(w, "duration_ns", r->duration_ns);
    k_u64(w, "events", r->events);
    k_u64(w, "threads", r->threads);
    k_bool(w, "closed", r->closed);
    if (r->closed)
        k_i64(w, "exit_status", r->exit_status);
    else
        k_null(w, "exit_status");
    key(w, "crash");
    event(w, r->crash);
    if (r->cut)
        k_str(w, "cut", r->cut);
    else
        k_null(w, "cut");
    key(w, "notices");
    open_c(w, '[');
    for (size_t i = 0; i < r->nnotices; i++)
        v_str(w, r->notices[i]);
    close_c(w, ']');
    close_c(w, '}');
}

static void thread(jw *w, const char *k, const ttd_thread_info *t)
{
    key(w, k);
    open_c(w, '{');
    k_u64(w, "index", t->index);
    k_str(w, "name", t->name);
    k_str(w, "start", t->start);
    k_u64(w, "events", t->events);
    close_c(w, '}');
}

static void options(jw *w, const ttd_result *r)
{
    const ttd_options *o = &r->options;
    static const char *const msg[] = {"site", "text", "off"};
    key(w, "options");
    open_c(w, '{');
    k_str(w, "thread", o->thread);
    k_str(w, "function", o->function);
    k_str(w, "exclude", o->exclude);
    k_str(w, "messages", msg[o->messages >= 0 && o->messages <= 2 ? o->messages : 0]);
    k_bool(w, "minimal", o->minimal);
    k_u64(w, "context", o->context);
    k_u64(w, "max_lines", o->max_lines);
    k_u64(w, "max_hunks", o->max_hunks);
    k_u64(w, "suspects", o->suspects);
    k_bool(w, "collapse_loops", o->collapse_loops);
    k_bool(w, "no_demangle", o->no_demangle);
    k_bool(w, "no_values", o->no_values);
    k_bool(w, "ignore_call_sites", o->ignore_call_sites);
    k_str(w, "bad_failed", o->bad_failed);
    key(w, "baselines");
    open_c(w, '[');
    for (size_t i = 0; o->baselines && i < o->nbaselines; i++)
        v_str(w, o->baselines[i]);
    close_c(w, ']');
    if (r->runs[TTD_BAD].chaos)
        k_u64(w, "chaos_seed", r->runs[TTD_BAD].chaos_seed);
    else
        k_null(w, "chaos_seed");
    close_c(w, '}');
}

/* One race of the bad run (top level "races", diff/races.c). */
static void race(jw *w, const ttd_race *x)
{
    open_c(w, '{');
    k_str(w, "kind", x->kind == TTD_RACE_UNPROTECTED ? "unordered_unprotected_call"
                                                     : "unordered_check_act");
    k_str(w, "run", x->run == TTD_BAD ? "bad" : "good");
    key(w, "threads");
    open_c(w, '[');
    v_str(w, x->thread_name[0]);
    v_str(w, x->thread_name[1]);
    close_c(w, ']');
    key(w, "thread_indexes");
    open_c(w, '[');
    v_u64(w, x->thread[0]);
    v_u64(w, x->thread[1]);
    close_c(w, ']');
    k_str(w, "check", x->check);
    k_str(w, "act", x->act);
    k_dbl(w, "time_ms", (double)x->time_ns / 1e6);
    k_dbl(w, "end_ms", (double)x->end_ns / 1e6);
    key(w, "windows_ms");
    open_c(w, '[');
    for (int k = 0; k < 2; k++) {
        open_c(w, '[');
        v_dbl(w, (double)x->check_ns[k] / 1e6);
        v_dbl(w, (double)x->release_ns[k] / 1e6);
        close_c(w, ']');
    }
    close_c(w, ']');
    k_str(w, "lock", x->lock);
    k_bool(w, "check_locked", x->check_locked);
    k_bool(w, "act_locked", x->act_locked);
    k_bool(w, "overlapped", x->overlapped);
    k_u64(w, "count", x->count);
    k_u64(w, "locked_calls", x->locked_calls);
    k_bool(w, "seen_in_good", x->seen_in_good);
    if (x->good_compared)
        k_u64(w, "good_count", x->good_count);
    else
        k_null(w, "good_count");
    k_bool(w, "reaches_symptom", x->reaches_symptom);
    k_dbl(w, "score", x->score);
    key(w, "stacks");
    open_c(w, '[');
    for (int k = 0; k < 2; k++) {
        open_c(w, '[');
        for (size_t i = 0; i < x->nstacks[k]; i++)
            v_str(w, x->stacks[k][i]);
        close_c(w, ']');
    }
    close_c(w, ']');
    k_str(w, "text", x->text);
    close_c(w, '}');
}

static void races(jw *w, const ttd_result *r)
{
    key(w, "races");
    open_c(w, '[');
    for (size_t i = 0; i < r->nraces; i++)
        race(w, &r->races[i]);
    close_c(w, ']');
}

static void others(jw *w, const char *k, const ttd_other *o, size_t n)
{
    key(w, k);
    open_c(w, '[');
    for (size_t i = 0; i < n; i++) {
        open_c(w, '{');
        k_u64(w, "thread", o[i].thread);
        k_str(w, "name", o[i].name);
        events(w, "events", o[i].events, o[i].nevents);
        close_c(w, '}');
    }
    close_c(w, ']');
}

static void frame(jw *w, const ttd_frame *f)
{
    int save = w->inline_from;

    if (w->inline_from > w->depth)
        w->inline_from = w->depth;
    open_c(w, '{');
    k_str(w, "function", f->name);
    k_str(w, "file", f->file);
    if (f->line > 0)
        k_i64(w, "line", f->line);
    else
        k_null(w, "line");
    k_str(w, "args", f->args);
    k_bool(w, "code_changed", f->code_changed);
    k_bool(w, "inlined", f->inlined);
    if (f->call_line > 0)
        k_i64(w, "call_line", f->call_line);
    else
        k_null(w, "call_line");
    close_c(w, '}');
    w->inline_from = save;
}

/* {"line", "calls"} of one position of the deciding line, or null. */
static void line_call(jw *w, const char *k, const ttd_line_call *lc)
{
    key(w, k);
    if (!lc) {
        v_lit(w, "null");
        return;
    }
    open_c(w, '{');
    if (lc->line > 0)
        k_i64(w, "line", lc->line);
    else
        k_null(w, "line");
    k_str(w, "calls", lc->calls);
    close_c(w, '}');
}

/* first_divergence.lines (JSON.md): the deciding line, or null. */
static void lines(jw *w, const ttd_lines *l)
{
    key(w, "lines");
    if (!l) {
        v_lit(w, "null");
        return;
    }
    open_c(w, '{');
    k_str(w, "function", l->function);
    k_str(w, "file", l->file);
    line_call(w, "common", l->common);
    line_call(w, "good", l->good);
    line_call(w, "bad", l->bad);
    key(w, "range");
    if (l->first) {
        open_c(w, '{');
        k_i64(w, "first", l->first);
        k_i64(w, "last", l->last);
        close_c(w, '}');
    } else {
        v_lit(w, "null");
    }
    key(w, "source");
    if (l->source) {
        open_c(w, '[');
        for (size_t i = 0; i < l->nsource; i++) {
            open_c(w, '{');
            k_i64(w, "line", l->source[i].line);
            k_str(w, "text", l->source[i].text);
            close_c(w, '}');
        }
        close_c(w, ']');
    } else {
        v_lit(w, "null");
    }
    k_str(w, "source_missing", l->source_missing);
    k_str(w, "text", l->text);
    close_c(w, '}');
}

static void suspect(jw *w, const ttd_suspect *s)
{
    int save = w->inline_from;

    if (w->inline_from > w->depth)
        w->inline_from = w->depth;
    open_c(w, '{');
    k_str(w, "function", s->name);
    k_str(w, "file", s->file);
    if (s->line > 0)
        k_i64(w, "line", s->line);
    else
        k_null(w, "line");
    k_str(w, "role", s->role == TTD_SUSPECT_FRAME ? "diverging_frame"
                     : s->role == TTD_SUSPECT_CALLER ? "caller"
                     : s->role == TTD_SUSPECT_EARLIER ? "earlier" : "returned");
    k_u64(w, "index", s->index);
    k_u64(w, "distance", s->distance);
    k_i64(w, "depth", s->depth);
    k_bool(w, "value_differs", s->value_differs);
    k_str(w, "good_value", s->good_value);
    k_str(w, "bad_value", s->bad_value);
    k_bool(w, "trivial", s->trivial);
    k_u64(w, "pair", s->pair);
    k_str(w, "inlined_into", s->inlined_into);
    k_dbl(w, "score", s->score);
    key(w, "evidence");
    open_c(w, '[');
    for (size_t i = 0; i < s->nevidence; i++) {
        open_c(w, '{');
        k_str(w, "kind", ttd_evidence_name(s->evidence[i].kind));
        k_dbl(w, "weight", s->evidence[i].weight);
        k_str(w, "text", s->evidence[i].text);
        close_c(w, '}');
    }
    close_c(w, ']');
    close_c(w, '}');
    w->inline_from = save;
}

static const char *const vclass[] = {"unknown", "void", "signed", "unsigned",
                                     "bool", "enum", "pointer", "float", "other"};

/* How values took part (top level "values"). */
/* Two builds: "code" (whether machine code was compared) and
 * "changed_functions". */
static void code_info(jw *w, const ttd_result *r)
{
    static const char *const status[] = {"?", "changed", "added", "removed"};
    key(w, "code");
    open_c(w, '{');
    k_bool(w, "compared", r->code_compared);
    k_u64(w, "functions", r->code_functions);
    key(w, "notes");
    open_c(w, '[');
    for (size_t i = 0; i < r->ncode_notes; i++)
        v_str(w, r->code_notes[i]);
    close_c(w, ']');
    close_c(w, '}');
    key(w, "changed_functions");
    open_c(w, '[');
    for (size_t i = 0; i < r->nchanged_functions; i++) {
        const ttd_code_change *c = &r->changed_functions[i];
        open_c(w, '{');
        k_str(w, "function", c->function);
        k_str(w, "module", c->module);
        k_str(w, "status", status[c->status & 3]);
        k_bool(w, "artifact", c->artifact);
        close_c(w, '}');
    }
    close_c(w, ']');
}

static void values_info(jw *w, const ttd_result *r)
{
    key(w, "values");
    open_c(w, '{');
    k_bool(w, "compared", r->values);
    k_str(w, "note", r->values_note);
    k_u64(w, "count", r->values_compared);
    k_u64(w, "noise", r->values_noise);
    k_u64(w, "ignored", r->values_ignored);
    k_u64(w, "progress", r->values_progress);
    k_u64(w, "twinned", r->values_twinned);
    k_u64(w, "times", r->values_times);
    close_c(w, '}');
}

/* One value difference as an object. */
static void value_obj(jw *w, const ttd_result *r, const ttd_value_diff *v)
{
    char hex[32];
    const ttd_pair *p = &r->pairs[v->pair];
    open_c(w, '{');
    k_u64(w, "pair", v->pair);
    k_str(w, "thread", p->bad.name[0] ? p->bad.name : p->good.name);
    k_str(w, "what", v->what == TTD_VAL_RETURN ? "return" : "argument");
    if (v->what == TTD_VAL_ARG) {
        k_i64(w, "arg", v->arg);
        k_str(w, "param", v->param);
    } else {
        k_null(w, "arg");
        k_null(w, "param");
    }
    k_str(w, "function", v->function);
    k_str(w, "file", v->file);
    if (v->line > 0)
        k_i64(w, "line", v->line);
    else
        k_null(w, "line");
    k_str(w, "type", v->type);
    k_str(w, "class", vclass[v->cls >= 0 && v->cls <= TTF_VC_OTHER ? v->cls : 0]);
    k_str(w, "good_value", v->good_value);
    k_str(w, "bad_value", v->bad_value);
    snprintf(hex, sizeof hex, "0x%" PRIx64, v->good_raw);
    k_str(w, "good_raw", hex);
    snprintf(hex, sizeof hex, "0x%" PRIx64, v->bad_raw);
    k_str(w, "bad_raw", hex);
    if (v->good_is_code)
        k_i64(w, "good_signed", v->good_code);
    else
        k_null(w, "good_signed");
    if (v->bad_is_code)
        k_i64(w, "bad_signed", v->bad_code);
    else
        k_null(w, "bad_signed");
    k_bool(w, "string", v->is_string);
    k_u64(w, "good_index", v->good_index);
    k_u64(w, "bad_index", v->bad_index);
    k_u64(w, "good_time_ns", v->good_time_ns);
    k_u64(w, "bad_time_ns", v->bad_time_ns);
    k_bool(w, "before_split", v->before_split);
    k_str(w, "caller", v->caller);
    if (!v->stack) {
        k_null(w, "stack");
        k_null(w, "frames");
        close_c(w, '}');
        return;
    }
    key(w, "stack");
    int save = w->inline_from;
    w->inline_from = w->depth;
    open_c(w, '[');
    for (size_t i = 0; i < v->nstack; i++)
        v_str(w, v->stack[i].name);
    close_c(w, ']');
    w->inline_from = save;
    key(w, "frames");
    open_c(w, '[');
    for (size_t i = 0; i < v->nstack; i++)
        frame(w, &v->stack[i]);
    close_c(w, ']');
    close_c(w, '}');
}

static void value_divergence(jw *w, const ttd_result *r, const ttd_value_diff *v)
{
    key(w, "value_divergence");
    if (v)
        value_obj(w, r, v);
    else
        v_lit(w, "null");
    key(w, "value_others");
    open_c(w, '[');
    for (size_t i = 0; i < r->nvalue_others; i++)
        value_obj(w, r, &r->value_others[i]);
    close_c(w, ']');
}

/* "returned", "argument"... for a TTD_CAUSE_* kind. */
static const char *cause_kind(int kind)
{
    static const char *const names[] = {"?", "returned", "argument", "split",
                                        "exit_status", "code_changed"};
    return kind >= 0 && kind <= TTD_CAUSE_CODE ? names[kind] : "?";
}

/* The cause chain, earliest first, and why it stops. */
static void cause_chain(jw *w, const ttd_cause *c, size_t n, const char *end)
{
    key(w, "cause_chain");
    open_c(w, '[');
    for (size_t i = 0; i < n; i++) {
        int save = w->inline_from;
        if (w->inline_from > w->depth)
            w->inline_from = w->depth;
        open_c(w, '{');
        k_str(w, "kind", cause_kind(c[i].kind));
        k_str(w, "function", c[i].function);
        k_str(w, "thread", c[i].thread);
        k_u64(w, "pair", c[i].pair);
        if (c[i].kind == TTD_CAUSE_ARGUMENT) {
            k_i64(w, "arg", c[i].arg);
            k_str(w, "param", c[i].param);
        }
        k_str(w, "good", c[i].good_value);
        k_str(w, "bad", c[i].bad_value);
        if (c[i].bad_index != UINT64_MAX)
            k_u64(w, "bad_index", c[i].bad_index);
        else
            k_null(w, "bad_index");
        k_bool(w, "strong", c[i].strong);
        k_str(w, "text", c[i].text);
        close_c(w, '}');
        w->inline_from = save;
    }
    close_c(w, ']');
    k_str(w, "cause_chain_end", end);
}

/* How the runs ended (top level "outcome"). */
static void outcome(jw *w, const ttd_result *r)
{
    const ttd_outcome *o = &r->outcome;
    static const char *const k[2][2] = {{"good_exit", "bad_exit"},
                                        {"good_signal", "bad_signal"}};

    key(w, "outcome");
    open_c(w, '{');
    for (int i = 0; i < 2; i++) {
        if (o->has_exit[i])
            k_i64(w, k[0][i], o->exit_status[i]);
        else
            k_null(w, k[0][i]);
    }
    for (int i = 0; i < 2; i++) {
        if (o->signal[i])
            k_i64(w, k[1][i], o->signal[i]);
        else
            k_null(w, k[1][i]);
    }
    k_bool(w, "same_calls", o->same_calls);
    k_bool(w, "differs", o->differs);
    k_bool(w, "failed", o->failed);
    k_str(w, "failure", r->options.bad_failed);
    if (!r->first && r->nchain)
        cause_chain(w, r->chain, r->nchain, r->chain_end);
    close_c(w, '}');
}

static void loop_counts(jw *w, const ttd_hunk_info *h)
{
    key(w, "loop");
    if (!h->good_reps && !h->bad_reps) {
        v_lit(w, "null");
        return;
    }
    int save = w->inline_from;
    if (w->inline_from > w->depth)
        w->inline_from = w->depth;
    open_c(w, '{');
    k_u64(w, "good_count", h->good_reps);
    k_u64(w, "bad_count", h->bad_reps);
    close_c(w, '}');
    w->inline_from = save;
}

static void xev(jw *w, const ttd_xev *e)
{
    if (!e || !e->kind) {
        v_lit(w, "null");
        return;
    }
    open_c(w, '{');
    k_str(w, "kind", ttr_kind_name(e->kind));
    if (e->kind == TTF_EV_SYNC_OP)
        k_str(w, "op", ttf_sync_op_name(e->op));
    k_u64(w, "thread", e->thread);
    if (e->pair >= 0)
        k_u64(w, "pair", (uint64_t)e->pair);
    else
        k_null(w, "pair");
    k_u64(w, "time_ns", e->time_ns);
    if (e->object)
        k_str(w, "object", e->object);
    else
        k_null(w, "object");
    k_str(w, "function", e->func ? e->func : "");
    close_c(w, '}');
}

static void xevs(jw *w, const char *k, const ttd_xev *e, size_t n)
{
    key(w, k);
    open_c(w, '[');
    for (size_t i = 0; i < n; i++)
        xev(w, &e[i]);
    close_c(w, ']');
}

static void unprotected(jw *w, const ttd_interleave *il)
{
    key(w, "unprotected");
    if (!il->unprotected) {
        v_lit(w, "null");
        return;
    }
    open_c(w, '{');
    k_str(w, "function", il->unprot_func);
    k_str(w, "lock", il->unprot_lock);
    key(w, "call");
    xev(w, &il->unprot_call);
    k_u64(w, "end_ns", il->unprot_end_ns);
    k_u64(w, "good_calls", il->good_calls);
    key(w, "overlap");
    xev(w, il->overlapped ? &il->overlap : NULL);
    xevs(w, "during", il->during, il->nduring);
    close_c(w, '}');
}

static void interleave(jw *w, const ttd_interleave *il)
{
    key(w, "interleave");
    if (!il) {
        v_lit(w, "null");
        return;
    }
    open_c(w, '{');
    k_bool(w, "shared", il->shared);
    key(w, "window");
    open_c(w, '{');
    xevs(w, "good", il->window[0], il->nwindow[0]);
    xevs(w, "bad", il->window[1], il->nwindow[1]);
    close_c(w, '}');
    key(w, "operations");
    open_c(w, '{');
    k_u64(w, "good", il->ops[0]);
    k_u64(w, "bad", il->ops[1]);
    close_c(w, '}');
    key(w, "order_difference");
    if (il->order_differs) {
        open_c(w, '{');
        k_str(w, "object", il->order_object);
        k_u64(w, "index", il->order_index);
        key(w, "good");
        xev(w, &il->order[0]);
        key(w, "bad");
        xev(w, &il->order[1]);
        close_c(w, '}');
    } else {
        v_lit(w, "null");
    }
    unprotected(w, il);
    close_c(w, '}');
}

static void divergence(jw *w, const ttd_result *r, const ttd_divergence *d)
{
    const ttd_pair *p = &r->pairs[d->pair];

    open_c(w, '{');
    k_u64(w, "hunk", d->hunk);
    k_u64(w, "pair", d->pair);
    key(w, "thread");
    open_c(w, '{');
    k_str(w, "name", p->bad.name[0] ? p->bad.name : p->good.name);
    k_u64(w, "good", p->good.index);
    k_u64(w, "bad", p->bad.index);
    close_c(w, '}');
    k_u64(w, "good_index", d->good_index);
    k_u64(w, "bad_index", d->bad_index);
    k_u64(w, "good_time_ns", d->good_time_ns);
    k_u64(w, "bad_time_ns", d->bad_time_ns);
    key(w, "stack");
    int save = w->inline_from;
    w->inline_from = w->depth;
    open_c(w, '[');
    for (size_t i = 0; i < (d->nframes ? d->nframes : d->nstack); i++)
        v_str(w, d->nframes ? d->frames[i].name : d->stack[i].name);
    close_c(w, ']');
    w->inline_from = save;
    key(w, "frames");
    open_c(w, '[');
    for (size_t i = 0; i < (d->nframes ? d->nframes : d->nstack); i++)
        frame(w, d->nframes ? &d->frames[i] : &d->stack[i]);
    close_c(w, ']');
    lines(w, d->lines);
    key(w, "suspects");
    open_c(w, '[');
    for (size_t i = 0; i < d->nsuspects; i++)
        suspect(w, &d->suspects[i]);
    close_c(w, ']');
    if (d->chain)
        cause_chain(w, d->chain, d->nchain, d->chain_end);
    else
        k_null(w, "cause_chain");
    if (!d->chain)
        k_null(w, "cause_chain_end");
    loop_counts(w, &r->hunks[d->hunk]);
    events(w, "before", d->before, d->nbefore);
    events(w, "good", d->good, d->ngood);
    k_u64(w, "good_more", d->good_more);
    events(w, "bad", d->bad, d->nbad);
    k_u64(w, "bad_more", d->bad_more);
    key(w, "crash");
    event(w, d->crash);
    interleave(w, d->interleave);
    key(w, "noise");
    if (d->noise == TTD_NOISE_WAIT) {
        open_c(w, '{');
        k_str(w, "kind", "wait");
        k_str(w, "calls", d->noise_calls);
        close_c(w, '}');
    } else {
        v_lit(w, "null");
    }
    k_str(w, "build_artifact", d->build_artifact);
    key(w, "other_threads");
    open_c(w, '{');
    others(w, "good", d->others[TTD_GOOD], d->nothers[TTD_GOOD]);
    others(w, "bad", d->others[TTD_BAD], d->nothers[TTD_BAD]);
    close_c(w, '}');
    close_c(w, '}');
}

static void hunk(jw *w, const ttd_result *r, const ttd_hunk_info *h)
{
    const ttd_pair *p = &r->pairs[h->pair];

    open_c(w, '{');
    k_u64(w, "pair", h->pair);
    k_str(w, "thread", p->bad.name[0] ? p->bad.name : p->good.name);
    k_u64(w, "good_thread", p->good.index);
    k_u64(w, "bad_thread", p->bad.index);
    k_u64(w, "good_index", h->good_index);
    k_u64(w, "good_count", h->good_count);
    k_u64(w, "bad_index", h->bad_index);
    k_u64(w, "bad_count", h->bad_count);
    k_u64(w, "time_ns", h->time_ns);
    k_bool(w, "expected", h->expected);
    k_bool(w, "timing", h->timing != 0);
    k_str(w, "timing_kind", ttd_timing_name(h->timing));
    k_bool(w, "follows_progress", h->order_dep != 0);
    if (h->order_dep && h->order_pair < r->npairs)
        k_u64(w, "progress_pair", h->order_pair);
    if (h->order_dep)
        k_str(w, "first_because", h->order_dep == TTD_ORDER_CHANGED ? "code_changed"
                                                                     : "unordered");
    k_u64(w, "early_ns", h->early_ns);
    k_u64(w, "late_ns", h->late_ns);
    k_str(w, "clock_order", h->clock_order == TTD_CLOCK_SYMPTOM    ? "symptom"
                            : h->clock_order == TTD_CLOCK_ESTIMATE ? "estimate"
                                                                   : NULL);
    if (h->clock_order && h->clock_pair < r->npairs)
        k_u64(w, "clock_pair", h->clock_pair);
    loop_counts(w, h);
    if (h->timing == TTD_TIMING_SPIN) {
        key(w, "spin");
        open_c(w, '{');
        k_u64(w, "iterations", h->spins);
        k_u64(w, "events_per_iteration", h->spin_events);
        k_str(w, "clock", h->spin_clock);
        k_u64(w, "reading", h->spin_value);
        k_u64(w, "unit_ns", h->spin_unit_ns);
        close_c(w, '}');
    }
    key(w, "good_first");
    event(w, h->good_first);
    key(w, "bad_first");
    event(w, h->bad_first);
    close_c(w, '}');
}

/* One pool thread as "#1 worker-0" ("#1" if unnamed). */
static void pool_thread(jw *w, const ttd_pair *pairs, size_t npairs, int run, uint32_t t)
{
    char buf[96];
    const char *name = "";

    for (size_t i = 0; i < npairs; i++) {
        const ttd_thread_info *ti = run ? &pairs[i].bad : &pairs[i].good;
        if (ti->index == t)
            name = ti->name;
    }
    snprintf(buf, sizeof buf, "#%u%s%.80s", t, name[0] ? " " : "", name);
    v_str(w, buf);
}

/* The pools of look-alike threads (issue 22). */
static void pools(jw *w, const ttd_result *r)
{
    key(w, "pools");
    open_c(w, '[');
    for (size_t i = 0; i < r->npools; i++) {
        const ttd_pool *pl = &r->pools[i];
        open_c(w, '{');
        k_str(w, "id", pl->id);
        k_str(w, "start_function", pl->start);
        key(w, "good_threads");
        open_c(w, '[');
        for (size_t j = 0; j < pl->ngood; j++)
            pool_thread(w, r->pairs, r->npairs, 0, pl->good_threads[j]);
        close_c(w, ']');
        key(w, "bad_threads");
        open_c(w, '[');
        for (size_t j = 0; j < pl->nbad; j++)
            pool_thread(w, r->pairs, r->npairs, 1, pl->bad_threads[j]);
        close_c(w, ']');
        k_u64(w, "items_good", pl->items_good);
        k_u64(w, "items_bad", pl->items_bad);
        k_u64(w, "items_differing", pl->items_differing);
        k_bool(w, "compared", pl->compared);
        close_c(w, '}');
    }
    close_c(w, ']');
}

static void pairs(jw *w, const ttd_result *r)
{
    key(w, "threads");
    open_c(w, '[');
    for (size_t i = 0; i < r->npairs; i++) {
        const ttd_pair *p = &r->pairs[i];
        open_c(w, '{');
        thread(w, "good", &p->good);
        thread(w, "bad", &p->bad);
        k_str(w, "paired_by", ttd_paired_by_name(p->paired_by));
        if (p->paired_by == TTD_PAIR_CONTENT) {
            k_str(w, "tie", ttd_paired_by_name(p->tie));
            k_dbl(w, "similarity", p->similarity);
            if (p->second >= 0)
                k_dbl(w, "second", p->second);
            else
                k_null(w, "second");
        }
        k_bool(w, "uncertain", p->uncertain);
        k_u64(w, "hunks", p->hunks);
        k_u64(w, "expected_hunks", p->expected);
        k_u64(w, "timing_hunks", p->timing);
        k_str(w, "pool", p->pool);
        if (p->hunks)
            k_u64(w, "first_time_ns", p->first_time_ns);
        else
            k_null(w, "first_time_ns");
        close_c(w, '}');
    }
    close_c(w, ']');
    pools(w, r);
    key(w, "unpaired");
    open_c(w, '[');
    for (size_t i = 0; i < r->nunpaired; i++) {
        const ttd_unpaired *u = &r->unpaired[i];
        open_c(w, '{');
        k_str(w, "run", u->run == TTD_GOOD ? "good" : "bad");
        k_u64(w, "index", u->thread.index);
        k_str(w, "name", u->thread.name);
        k_str(w, "start", u->thread.start);
        k_u64(w, "events", u->thread.events);
        k_bool(w, "grew", u->grew);
        close_c(w, '}');
    }
    close_c(w, ']');
}

/* A place of the verdict: its cause (with kind, file, line) or symptom. */
static void place(jw *w, const char *k, const ttd_place *p, int is_cause)
{
    key(w, k);
    if (!p) {
        v_lit(w, "null");
        return;
    }
    open_c(w, '{');
    if (is_cause)
        k_str(w, "kind", ttd_cause_of_name(p->kind));
    k_str(w, "function", p->function ? p->function : "");
    if (p->thread)
        k_str(w, "thread", p->thread);
    else
        k_null(w, "thread");
    if (p->pair >= 0)
        k_i64(w, "pair", p->pair);
    else
        k_null(w, "pair");
    if (is_cause) {
        if (p->kind == TTD_COF_CODE)
            k_str(w, "inlined", p->inlined);
        if (p->file)
            k_str(w, "file", p->file);
        else
            k_null(w, "file");
        k_i64(w, "line", p->line);
    }
    if (p->bad_index != UINT64_MAX)
        k_u64(w, "bad_index", p->bad_index);
    else
        k_null(w, "bad_index");
    k_str(w, "text", p->text ? p->text : "");
    close_c(w, '}');
}

/* The verdict (report/JSON.md, "The verdict and process trees"). */
static void verdict(jw *w, const ttd_result *r)
{
    const ttd_verdict *v = r->verdict;
    ttri_verdict_text t;

    key(w, "verdict");
    if (!v) {
        v_lit(w, "null");
        return;
    }
    ttri_verdict_words(r, &t);
    open_c(w, '{');
    k_str(w, "status", ttd_verdict_status_name(v->status));
    k_i64(w, "exit", v->exit);
    k_str(w, "headline", t.headline);
    place(w, "cause", v->cause, 1);
    key(w, "evidence");
    open_c(w, '[');
    for (size_t i = 0; i < v->nevidence; i++)
        v_str(w, v->evidence[i]);
    close_c(w, ']');
    k_str(w, "confidence", ttd_confidence_name(v->confidence));
    if (v->stops_at)
        k_str(w, "stops_at", v->stops_at);
    else
        k_null(w, "stops_at");
    place(w, "symptom", v->symptom, 0);
    key(w, "counts");
    open_c(w, '[');
    for (size_t i = 0; i < v->ncounts; i++) {
        const ttd_count *c = &v->counts[i];
        open_c(w, '{');
        k_str(w, "function", c->function ? c->function : "");
        k_u64(w, "bad", c->bad);
        k_u64(w, "good_min", c->good_min);
        k_u64(w, "good_max", c->good_max);
        k_u64(w, "good_runs", c->good_runs);
        close_c(w, '}');
    }
    close_c(w, ']');
    key(w, "hidden");
    open_c(w, '[');
    for (size_t i = 0; i < v->nhidden; i++) {
        static const char *const kinds[] = {"?", "timing", "pool", "progress",
                                            "nondeterministic", "baseline", "build"};
        const ttd_hidden *h = &v->hidden[i];
        open_c(w, '{');
        k_str(w, "kind", h->kind >= 1 && h->kind <= 6 ? kinds[h->kind] : "?");
        if (h->pair >= 0)
            k_i64(w, "pair", h->pair);
        else
            k_null(w, "pair");
        if (h->function)
            k_str(w, "function", h->function);
        else
            k_null(w, "function");
        k_str(w, "text", h->text ? h->text : "");
        k_str(w, "evidence", h->evidence ? h->evidence : "");
        close_c(w, '}');
    }
    close_c(w, ']');
    close_c(w, '}');
}

int ttr_json(FILE *f, ttd_diff *d, const ttr_options *opts)
{
    const ttd_result *r = ttd_get_result(d);
    jw w = {f, 0, {0}, MAX_DEPTH};
    char ver[32];

    if (!r || !f)
        return TT_EINVAL;
    (void)opts;
    open_c(&w, '{');
    k_str(&w, "schema", "tt-diff");
    k_u64(&w, "schema_version", TTR_JSON_SCHEMA_VERSION);
    snprintf(ver, sizeof ver, "%d.%d.%d", TTD_VERSION_MAJOR, TTD_VERSION_MINOR,
             TTD_VERSION_PATCH);
    k_str(&w, "ttdiff_version", ver);
    k_bool(&w, "diverged", r->diverged);
    verdict(&w, r);
    k_str(&w, "program", r->program == TTD_PROGRAM_OTHER ? "different"
                         : r->program == TTD_PROGRAM_BUILD ? "other-build" : "same");
    options(&w, r);
    key(&w, "runs");
    open_c(&w, '{');
    key(&w, "good");
    run(&w, &r->runs[TTD_GOOD]);
    key(&w, "bad");
    run(&w, &r->runs[TTD_BAD]);
    close_c(&w, '}');
    key(&w, "baselines");
    open_c(&w, '[');
    for (size_t i = 0; i < r->nbaselines; i++)
        run(&w, &r->baselines[i]);
    close_c(&w, ']');
    pairs(&w, r);
    code_info(&w, r);
    values_info(&w, r);
    outcome(&w, r);
    races(&w, r);
    value_divergence(&w, r, r->value_first);
    key(&w, "siblings");
    open_c(&w, '[');
    for (size_t i = 0; i < r->nsiblings; i++)
        v_str(&w, r->siblings[i]);
    close_c(&w, ']');
    key(&w, "first_divergence");
    if (r->first)
        divergence(&w, r, r->first);
    else
        v_lit(&w, "null");
    k_u64(&w, "hunks_total", r->hunks_total);
    k_u64(&w, "expected_total", r->expected_total);
    k_u64(&w, "timing_total", r->timing_total);
    key(&w, "hunks");
    open_c(&w, '[');
    for (size_t i = 0; i < r->nhunks - r->nexpected; i++)
        hunk(&w, r, &r->hunks[i]);
    close_c(&w, ']');
    key(&w, "expected_hunks");
    open_c(&w, '[');
    for (size_t i = r->nhunks - r->nexpected; i < r->nhunks; i++)
        hunk(&w, r, &r->hunks[i]);
    close_c(&w, ']');
    close_c(&w, '}');
    putc('\n', f);
    return ferror(f) ? TT_EIO : 0;
}
