/*
 * tree.c - two process trees compared (diff/ptree.c), rendered: text, JSON
 * and HTML. Each is the usual report of one process pair (the first
 * diverging process, else the first traced pair) with the trees around
 * it: text puts the process summary and the path from the root
 * ("make check > sh run-tests > test-parse --strict") before the pair's
 * report and the tree after it; JSON is the pair's document with
 * processes[] and first_process added (report/JSON.md, "The verdict and
 * process trees"); HTML is the pair's page with the tree at the top, the
 * branch to the diverging process open.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttreport.h"

static const char *const result_name[] = {
    [TTD_PROC_SAME] = "same", [TTD_PROC_DIVERGED] = "diverged",
    [TTD_PROC_EXIT_DIFFERS] = "exit_differs", [TTD_PROC_GOOD_ONLY] = "good_only",
    [TTD_PROC_BAD_ONLY] = "bad_only", [TTD_PROC_NOT_TRACED] = "not_traced"};

/* "exit 0", "signal 11", "signal 9 (reaped: ...)", "no end (killed?)" */
static void end_text(const ttf_proc *p, char *buf, size_t n)
{
    if (!p)
        snprintf(buf, n, "-");
    else if (p->ended == TTF_PROC_SIGNALED)
        snprintf(buf, n, "signal %d%s", p->signal, p->reaped ? " (recorded by its parent)" : "");
    else if (p->ended)
        snprintf(buf, n, "exit %d", p->status);
    else
        snprintf(buf, n, "no end recorded (killed, or still running)");
}

static size_t depth_of(const ttd_tree_result *r, size_t i)
{
    size_t d = 0;
    for (int64_t a = r->procs[i].parent; a >= 0; a = r->procs[a].parent)
        d++;
    return d;
}

/* The path from the root to process i: "a > b > c". */
static void path_text(FILE *f, const ttd_tree_result *r, int64_t i)
{
    int64_t chain[256];
    size_t n = 0;
    for (int64_t a = i; a >= 0 && n < 256; a = r->procs[a].parent)
        chain[n++] = a;
    while (n--)
        fprintf(f, "%s%s", r->procs[chain[n]].name, n ? " > " : "");
}

static void proc_line(FILE *f, const ttd_tree_result *r, size_t i)
{
    const ttd_tree_proc *p = &r->procs[i];
    char g[96], b[96];
    end_text(p->row[TTD_GOOD], g, sizeof g);
    end_text(p->row[TTD_BAD], b, sizeof b);
    fprintf(f, "  %3zu %*s%s  [%s", i, (int)(2 * depth_of(r, i)), "", p->name,
            result_name[p->result]);
    if (p->result == TTD_PROC_EXIT_DIFFERS)
        fprintf(f, ": good %s, bad %s", g, b);
    else if (p->result == TTD_PROC_GOOD_ONLY || p->result == TTD_PROC_BAD_ONLY)
        fprintf(f, ": %s", p->result == TTD_PROC_GOOD_ONLY ? g : b);
    else if (p->result == TTD_PROC_DIVERGED)
        fprintf(f, ": good event %llu, bad event %llu", (unsigned long long)p->good_index,
                (unsigned long long)p->bad_index);
    fprintf(f, "%s%s]\n", p->pool ? ", pool" : "", p->traced ? "" : ", not traced");
}

int ttr_tree_text(FILE *f, ttd_tree *t, const ttr_options *opts)
{
    const ttd_tree_result *r = ttd_tree_get(t);
    if (!r || !f)
        return TT_EINVAL;
    fprintf(f, "good: %s\nbad : %s\n", r->dir[TTD_GOOD], r->dir[TTD_BAD]);
    fprintf(f, "processes: %zu paired (%zu traced), %zu only in the good run, %zu only "
            "in the bad run, %zu with another end, %zu diverged\n", r->paired, r->traced,
            r->good_only, r->bad_only, r->exit_differs, r->diverged);
    for (size_t i = 0; i < r->nprocs; i++) {
        const ttd_tree_proc *p = &r->procs[i];
        if (p->result == TTD_PROC_SAME || p->result == TTD_PROC_NOT_TRACED)
            continue;
        proc_line(f, r, i);
    }
    if (r->first >= 0) {
        const ttd_tree_proc *p = &r->procs[r->first];
        fprintf(f, "first diverging process: ");
        path_text(f, r, r->first);
        fprintf(f, " (good pid %u, bad pid %u)\n", p->row[TTD_GOOD] ? p->row[TTD_GOOD]->pid : 0,
                p->row[TTD_BAD] ? p->row[TTD_BAD]->pid : 0);
    } else {
        fprintf(f, "no process diverges\n");
    }
    int rc = 0;
    ttd_diff *d = ttd_tree_pair_diff(t);
    if (d && (r->first < 0 || r->procs[r->first].traced)) {
        fprintf(f, "\n== process %lld: ", (long long)r->shown);
        path_text(f, r, r->shown);
        fprintf(f, "\n");
        rc = ttr_text(f, d, opts);
    }
    fprintf(f, "\nprocess tree (good run's order; [result]):\n");
    for (size_t i = 0; i < r->nprocs; i++)
        proc_line(f, r, i);
    return ferror(f) ? TT_EIO : rc;
}

/* ---- JSON ---------------------------------------------------------------- */

static void side_json(FILE *f, const ttd_tree_proc *p, int k)
{
    const ttf_proc *row = p->row[k];
    if (!row) {
        fputs("null", f);
        return;
    }
    fprintf(f, "{\"pid\": %u, \"exit_status\": ", row->pid);
    if (row->ended && row->ended != TTF_PROC_SIGNALED)
        fprintf(f, "%d", row->status);
    else
        fputs("null", f);
    fprintf(f, ", \"signal\": ");
    if (row->ended == TTF_PROC_SIGNALED)
        fprintf(f, "%d", row->signal);
    else
        fputs("null", f);
    fputs(", \"trace\": ", f);
    ttr_json_string(f, p->trace[k]);
    fprintf(f, ", \"events\": %llu, \"start_ns\": %llu, \"end_ns\": ",
            (unsigned long long)p->events[k],
            (unsigned long long)(p->first_row[k] ? p->first_row[k]->start_ns : row->start_ns));
    if (row->end_ns)
        fprintf(f, "%llu}", (unsigned long long)row->end_ns);
    else
        fputs("null}", f);
}

static void proc_json(FILE *f, const ttd_tree_result *r, size_t i)
{
    const ttd_tree_proc *p = &r->procs[i];
    const ttf_proc *row = p->row[TTD_GOOD] ? p->row[TTD_GOOD] : p->row[TTD_BAD];
    fprintf(f, "{\"id\": %zu, \"parent\": ", i);
    if (p->parent >= 0)
        fprintf(f, "%lld", (long long)p->parent);
    else
        fputs("null", f);
    fputs(", \"path\": [", f);
    int64_t chain[256];
    size_t n = 0;
    for (int64_t a = (int64_t)i; a >= 0 && n < 256; a = r->procs[a].parent)
        chain[n++] = a;
    while (n--) {
        ttr_json_string(f, r->procs[chain[n]].name);
        fputs(n ? ", " : "", f);
    }
    fputs("], \"exe\": ", f);
    ttr_json_string(f, row->exe);
    fputs(", \"argv\": [", f);
    for (size_t k = 0; k < row->argc; k++) {
        ttr_json_string(f, row->argv[k]);
        fputs(k + 1 < row->argc ? ", " : "", f);
    }
    fprintf(f, "], \"traced\": %s, \"pool\": ", p->traced ? "true" : "false");
    if (p->pool)
        ttr_json_string(f, p->key);
    else
        fputs("null", f);
    fputs(", \"good\": ", f);
    side_json(f, p, TTD_GOOD);
    fputs(", \"bad\": ", f);
    side_json(f, p, TTD_BAD);
    fprintf(f, ", \"result\": \"%s\", \"first_divergence\": ", result_name[p->result]);
    if (p->result == TTD_PROC_DIVERGED)
        fprintf(f, "{\"good_index\": %llu, \"bad_index\": %llu}",
                (unsigned long long)p->good_index, (unsigned long long)p->bad_index);
    else
        fputs("null", f);
    fputs("}", f);
}

/* processes[] and first_process, as members of an open object. */
static void tree_members(FILE *f, const ttd_tree_result *r)
{
    fputs("\"processes\": [", f);
    for (size_t i = 0; i < r->nprocs; i++) {
        fputs(i ? ",\n  " : "\n  ", f);
        proc_json(f, r, i);
    }
    fputs("],\n\"first_process\": ", f);
    if (r->first >= 0)
        fprintf(f, "%lld", (long long)r->first);
    else
        fputs("null", f);
}

/* The pair's document in a buffer (malloc'd), NULL when there is none. */
static char *pair_json(ttd_tree *t, const ttr_options *opts, int *rc)
{
    ttd_diff *d = ttd_tree_pair_diff(t);
    char *buf = NULL;
    size_t len = 0;
    if (!d)
        return NULL;
    FILE *m = open_memstream(&buf, &len);
    if (!m) {
        *rc = TT_ENOMEM;
        return NULL;
    }
    *rc = ttr_json(m, d, opts);
    if (fclose(m) != 0 && !*rc)
        *rc = TT_ENOMEM;
    char *end = buf ? strrchr(buf, '}') : NULL;
    if (!end || *rc) {
        free(buf);
        return NULL;
    }
    *end = 0;                   /* the object stays open for our members */
    return buf;
}

int ttr_tree_json(FILE *f, ttd_tree *t, const ttr_options *opts)
{
    const ttd_tree_result *r = ttd_tree_get(t);
    if (!r || !f)
        return TT_EINVAL;
    int rc = 0;
    char *doc = pair_json(t, opts, &rc);
    if (rc)
        return rc;
    if (doc) {
        fputs(doc, f);
        fputs(",\n", f);
    } else {
        fprintf(f, "{\"schema\": \"tt-diff\", \"schema_version\": %d, \"diverged\": %s,\n",
                TTR_JSON_SCHEMA_VERSION, r->first >= 0 ? "true" : "false");
    }
    free(doc);
    tree_members(f, r);
    fputs("}\n", f);
    return ferror(f) ? TT_EIO : 0;
}

/* ---- HTML ---------------------------------------------------------------- */

static void html_esc(FILE *f, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", f);
        else if (*s == '>')
            fputs("&gt;", f);
        else if (*s == '&')
            fputs("&amp;", f);
        else if (*s == '"')
            fputs("&quot;", f);
        else
            fputc(*s, f);
    }
}

/* 1 when process i is on the path to the first diverging process. */
static int on_path(const ttd_tree_result *r, size_t i)
{
    for (int64_t a = r->first; a >= 0; a = r->procs[a].parent)
        if (a == (int64_t)i)
            return 1;
    return 0;
}

/* Process i and its subtree as nested details, the branch to the first
 * diverging process open. */
static void html_node(FILE *f, const ttd_tree_result *r, size_t i)
{
    const ttd_tree_proc *p = &r->procs[i];
    int kids = 0;
    for (size_t k = i + 1; k < r->nprocs && !kids; k++)
        kids = r->procs[k].parent == (int64_t)i;
    fprintf(f, "<li class=\"proc %s%s\">", result_name[p->result],
            (int64_t)i == r->first ? " first" : "");
    if (kids)
        fprintf(f, "<details%s><summary>", on_path(r, i) ? " open" : "");
    fprintf(f, "<code>");
    html_esc(f, p->name);
    fprintf(f, "</code> <b>%s</b>%s", result_name[p->result], p->pool ? " (pool)" : "");
    if (kids) {
        fputs("</summary><ul>", f);
        for (size_t k = i + 1; k < r->nprocs; k++)
            if (r->procs[k].parent == (int64_t)i)
                html_node(f, r, k);
        fputs("</ul></details>", f);
    }
    fputs("</li>\n", f);
}

static void html_tree(FILE *f, const ttd_tree_result *r)
{
    fprintf(f, "<section id=\"process-tree\"><h2>Process tree</h2>\n<p>%zu paired "
            "(%zu traced), %zu only in the good run, %zu only in the bad run, %zu with "
            "another end, %zu diverged.", r->paired, r->traced, r->good_only, r->bad_only,
            r->exit_differs, r->diverged);
    if (r->first >= 0) {
        fputs(" First diverging process: <code>", f);
        char *path = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&path, &len);
        if (m) {
            path_text(m, r, r->first);
            fclose(m);
            html_esc(f, path ? path : "");
            free(path);
        }
        fputs("</code>", f);
    }
    fputs("</p>\n<ul class=\"tree\">\n", f);
    for (size_t i = 0; i < r->nprocs; i++)
        if (r->procs[i].parent < 0)
            html_node(f, r, i);
    fputs("</ul></section>\n", f);
}

int ttr_tree_html(FILE *f, ttd_tree *t, const ttr_options *opts)
{
    const ttd_tree_result *r = ttd_tree_get(t);
    if (!r || !f)
        return TT_EINVAL;
    ttd_diff *d = ttd_tree_pair_diff(t);
    char *page = NULL;
    size_t len = 0;
    int rc = 0;
    if (d) {
        FILE *m = open_memstream(&page, &len);
        if (!m)
            return TT_ENOMEM;
        rc = ttr_html(m, d, opts);
        if (fclose(m) != 0 && !rc)
            rc = TT_ENOMEM;
    }
    char *body = page && !rc ? strstr(page, "<body>\n") : NULL;
    if (body) {
        fwrite(page, 1, (size_t)(body - page) + 7, f);
        html_tree(f, r);
        fputs(body + 7, f);
    } else if (!rc) {
        fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>ttdiff: process "
              "trees</title></head>\n<body>\n", f);
        html_tree(f, r);
        fputs("</body></html>\n", f);
    }
    free(page);
    return rc ? rc : ferror(f) ? TT_EIO : 0;
}
