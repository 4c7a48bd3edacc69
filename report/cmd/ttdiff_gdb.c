/*
 * ttdiff_gdb.c - ttdiff --gdb FILE: "take me there". The report says where
 * the bad run parted from the good one: a thread, a call stack, an event.
 * This writes a gdb script that runs the bad run's recorded command line
 * and stops in that thread at the entry of the stack's innermost function
 * (the diverging frame), at the right one of its calls: the Nth entry of
 * that function in that thread, N counted in the bad trace.
 *
 * Finding N: the engine gives the split as a time and the common call
 * stack there. The bad thread's events are walked from the start, keeping
 * the open frames and, per frame, which entry of its function it is; the
 * split is the first event at or after the split time at which the open
 * frames are tt's stack. gdb numbers threads in the order it sees them
 * start, so thread #K of the trace (creation order) is gdb's thread K+1;
 * the breakpoint (Python, in the script) counts entries in that thread
 * only. A lone trace does not record the folder the bad run started in:
 * run the script from there. For a process of a recorded tree (ttdiff
 * --gdb FILE GOOD_DIR BAD_DIR) the process table row gives the program,
 * argv and working folder (gdb's "set cwd"); the table records no
 * environment, which the script's comments say. A forked process that did
 * not exec has no command line of its own: refused.
 * Stage 1 modules of report/cmd/STAGES.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ttdiff_gdb.h"
#include "ttfmt.h"

#define MAXDEPTH 4096           /* frames followed; deeper ones are skipped */

/* The walker's view of one open frame. */
typedef struct frame {
    const char *name;           /* function (ttf_sym's, until sym closes) */
    uint64_t entry;             /* which entry of that name in the thread */
} frame;

/* Where the split is in the bad thread. */
typedef struct place {
    uint64_t entry;             /* entry number of the innermost frame */
    const char *func;           /* its function (copy, malloc'd) */
} place;

/* Per-name entry counts: an open-addressed table of name -> count. */
typedef struct counts {
    const char **names;         /* ttf_sym strings, NULL = free slot */
    uint64_t *n;                /* entries of names[i] so far */
    size_t cap, used;           /* slots (a power of two), taken */
} counts;

/* FNV-1a of a string. */
static size_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return (size_t)h;
}

/* The slot of name in names[cap]: its own, or the free one it would take. */
static size_t slot(const char **names, size_t cap, const char *name)
{
    size_t j = hash_str(name) & (cap - 1);
    while (names[j] && strcmp(names[j], name))
        j = (j + 1) & (cap - 1);
    return j;
}

/* Double the table (at least 256 slots). 0 or TT_ENOMEM. */
static int counts_grow(counts *c)
{
    counts g = { NULL, NULL, c->cap ? c->cap * 2 : 256, c->used };
    g.names = calloc(g.cap, sizeof *g.names);
    g.n = calloc(g.cap, sizeof *g.n);
    if (!g.names || !g.n) {
        free(g.names);
        free(g.n);
        return TT_ENOMEM;
    }
    for (size_t i = 0; i < c->cap; i++) {
        if (!c->names[i])
            continue;
        size_t j = slot(g.names, g.cap, c->names[i]);
        g.names[j] = c->names[i];
        g.n[j] = c->n[i];
    }
    free(c->names);
    free(c->n);
    *c = g;
    return 0;
}

/* The entry number the next call of name gets (1 for the first); 0 on no
 * memory. Compared as strings: two addresses may carry one name. */
static uint64_t count_entry(counts *c, const char *name)
{
    if (c->used * 2 >= c->cap && counts_grow(c) < 0)
        return 0;
    size_t j = slot(c->names, c->cap, name);
    if (!c->names[j]) {
        c->names[j] = name;
        c->used++;
    }
    return ++c->n[j];
}

/* 1 if the open frames f[0..depth) are tt's stack dv->stack. */
static int at_stack(const frame *f, int depth, const ttd_divergence *dv)
{
    if ((size_t)depth != dv->nstack)
        return 0;
    for (size_t i = 0; i < dv->nstack; i++)
        if (!f[i].name || strcmp(f[i].name, dv->stack[i].name))
            return 0;
    return 1;
}

/* Walk the bad thread's events of trace t up to the split; fill *pl.
 * 0, 1 if the split was not found, or a negative TT_E* code. */
static int walk(const ttf_trace *t, ttf_sym *sym, uint32_t thread,
                const ttd_divergence *dv, frame *f, place *pl)
{
    ttf_iter *it;
    ttf_event ev;
    counts c = { NULL, NULL, 0, 0 };
    int rc = ttf_iter_open(t, thread, &it), depth = 0;
    if (rc < 0)
        return rc;
    while ((rc = ttf_iter_next(it, &ev)) > 0) {
        if (ev.time_ns >= dv->bad_time_ns && depth > 0 && at_stack(f, depth, dv)) {
            pl->entry = f[depth - 1].entry;
            pl->func = f[depth - 1].name;
            break;
        }
        if (ev.kind == TTF_EV_ENTER && ev.depth >= 0 && ev.depth < MAXDEPTH) {
            depth = ev.depth + 1;
            f[ev.depth].name = ttf_sym_event_name(sym, &ev);
            f[ev.depth].entry = count_entry(&c, f[ev.depth].name);
            rc = f[ev.depth].entry ? 1 : TT_ENOMEM;
        } else if (ev.kind == TTF_EV_EXIT && ev.depth >= 1 && ev.depth <= MAXDEPTH) {
            depth = ev.depth - 1;
        }
        if (rc < 0)
            break;
    }
    ttf_iter_close(it);
    free(c.names);
    free(c.n);
    return rc < 0 ? rc : pl->func ? 0 : 1;
}

/* Find the split in the bad trace (thread index thread): pl->func is then
 * malloc'd. 0, or an error line and TTRI_CLI_TROUBLE. */
static int locate_split(const ttd_result *res, const ttd_divergence *dv,
                        uint32_t thread, int demangle, place *pl)
{
    const char *path = res->runs[TTD_BAD].path;
    ttf_trace *t = NULL;
    ttf_sym *sym = NULL;
    ttf_error err;
    frame *f = calloc(MAXDEPTH, sizeof *f);
    int rc = f ? ttf_open(path, &t, &err) : TT_ENOMEM;
    if (rc < 0) {
        free(f);
        return ttri_cli_fail("--gdb: %s: %s", path,
                            f && err.msg[0] ? err.msg : ttf_strerror(rc));
    }
    if ((rc = ttf_sym_open(t, &sym)) == 0) {
        ttf_sym_set_demangle(sym, demangle);
        rc = walk(t, sym, thread, dv, f, pl);
    }
    if (rc == 0 && !(pl->func = strdup(pl->func)))
        rc = TT_ENOMEM;
    ttf_sym_close(sym);
    ttf_close(t);
    free(f);
    if (rc == 1)
        return ttri_cli_fail("--gdb: %s: the split (thread #%u at %.3f ms) is not "
                            "found in the trace", path, thread, (double)dv->bad_time_ns / 1e6);
    return rc < 0 ? ttri_cli_fail("--gdb: %s: %s", path, ttf_strerror(rc)) : 0;
}

/* s as one sh word in single quotes (gdb's "set args" goes through the
 * shell). */
static void put_sh(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++)
        if (*s == '\'')
            fputs("'\\''", f);
        else
            fputc(*s, f);
    fputc('\'', f);
}

/* s as a Python string literal. */
static void put_py(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            fprintf(f, "\\%c", ch);
        else if (ch < 0x20 || ch >= 0x7f)
            fprintf(f, "\\x%02x", ch);
        else
            fputc(ch, f);
    }
    fputc('"', f);
}

/* tt's stack as "a > b > c" into f. */
static void put_stack(FILE *f, const ttd_divergence *dv)
{
    for (size_t i = 0; i < dv->nstack; i++)
        fprintf(f, "%s%s", i ? " > " : "", dv->stack[i].name);
}

/* What the script starts: the bad run's program, its command line and,
 * for a process of a recorded tree, its working folder and its place. */
typedef struct target {
    const char *exe;            /* the program */
    int argc;
    const char *const *argv;
    const char *cwd;            /* NULL: not recorded (a lone trace) */
    int64_t index;              /* a tree's process number, -1 a lone trace */
    const char *name;           /* its name in the tree report */
    const char *dir;            /* the bad tree's folder */
} target;

/* The script's opening comments: what it does and tt's stack. */
static void put_header(FILE *f, const ttd_result *res, const ttd_divergence *dv,
                       const ttd_thread_info *th, const place *pl, const target *tg)
{
    fprintf(f, "# gdb script written by ttdiff --gdb: run the bad run again and stop at\n"
               "# its first divergence from the good run.\n"
               "#   good: %s\n#   bad:  %s\n", res->runs[TTD_GOOD].path,
            res->runs[TTD_BAD].path);
    if (tg->index >= 0)
        fprintf(f, "# Process %lld of the tree in %s (the first diverging process):\n"
                   "#   %s\n"
                   "# started with its recorded program, arguments and working folder\n"
                   "# (set cwd below). The process table records no environment: it\n"
                   "# runs with gdb's own (yours), tt's TTCAP* variables unset. Run:\n",
                (long long)tg->index, tg->dir, tg->name);
    else
        fputs("# Run it from the folder the bad run started in (not recorded):\n", f);
    fprintf(f, "#   gdb -x THIS-FILE\n"
               "# It stops at entry %llu of %s in thread #%u \"%s\" (gdb's thread %u),\n"
               "# the diverging frame; tt's call stack there, outermost first:\n",
            (unsigned long long)pl->entry, pl->func, th->index, th->name, th->index + 1);
    for (size_t i = 0; i < dv->nstack; i++) {
        const ttd_frame *fr = &dv->stack[i];
        fprintf(f, "#   %*s%s", (int)(2 * i), "", fr->name);
        if (fr->file)
            fprintf(f, "  at %s:%d", fr->file, fr->line);
        fputc('\n', f);
    }
}

/* The commands: program, arguments, working folder, environment, the
 * counting breakpoint, run, and what to show at the stop. 0, or -1 if an
 * argument or the folder cannot be passed (a newline). */
static int put_commands(FILE *f, const target *tg, const ttd_divergence *dv,
                        const ttd_thread_info *th, const place *pl)
{
    for (int i = 0; i < tg->argc; i++)
        if (strchr(tg->argv[i], '\n'))
            return -1;
    if (tg->cwd && strchr(tg->cwd, '\n'))
        return -1;
    fputs("set pagination off\nset confirm off\nset breakpoint pending on\n", f);
    fputs("file ", f);
    put_sh(f, tg->exe);
    fputs("\nset args", f);
    for (int i = 1; i < tg->argc; i++) {
        fputc(' ', f);
        put_sh(f, tg->argv[i]);
    }
    if (tg->cwd && tg->cwd[0])
        fprintf(f, "\nset cwd %s", tg->cwd);
    fputs("\nunset environment TTCAP_OUT\nunset environment TTCAP\n", f);
    if (tg->index >= 0)
        fputs("unset environment TTCAP_PROC\n", f);
    fputs("python\nimport gdb\n\nclass TTDiffSplit(gdb.Breakpoint):\n"
          "    \"\"\"Stop at entry N of a function in one thread only.\"\"\"\n"
          "    def __init__(self, func, thread, n):\n"
          "        gdb.Breakpoint.__init__(self, func)\n"
          "        self.tt_thread, self.n, self.seen = thread, n, 0\n\n"
          "    def stop(self):\n"
          "        if gdb.selected_thread().num != self.tt_thread:\n"
          "            return False\n"
          "        self.seen += 1\n"
          "        return self.seen == self.n\n\n", f);
    fputs("split = TTDiffSplit(", f);
    put_py(f, pl->func);
    fprintf(f, ", %u, %llu)\nend\n", th->index + 1, (unsigned long long)pl->entry);
    fputs("run\npython\nif gdb.selected_thread() is None or split.seen < split.n:\n"
          "    print(\"== ttdiff: the program did not reach entry %d of %s in gdb's \"\n"
          "          \"thread %d (another input, build or folder?)\" % (split.n, ", f);
    put_py(f, pl->func);
    fputs(", split.tt_thread))\nelse:\n    print(\"== ttdiff: the first divergence: entry %d of %s"
          " in thread #%d\" % (split.n, ", f);
    put_py(f, pl->func);
    fprintf(f, ", %u))\n    print(\"== tt's call stack there: \" + ", th->index);
    char *st = NULL;
    size_t stn = 0;
    FILE *m = open_memstream(&st, &stn);
    if (m) {
        put_stack(m, dv);
        fclose(m);
    }
    put_py(f, st ? st : "");
    free(st);
    fputs(")\n    gdb.execute(\"backtrace\")\nend\n", f);
    return 0;
}

/* The script for the bad run tg names: checks, the split, the file. */
static int write_script(const char *path, const ttd_result *res, const target *tg,
                        int demangle, int force)
{
    const ttd_divergence *dv = res->first;
    if (!dv)
        return ttri_cli_fail("--gdb: no divergence in the calls: nothing to stop at");
    const ttd_thread_info *th = &res->pairs[dv->pair].bad;
    if (!dv->nstack)
        return ttri_cli_fail("--gdb: the divergence is outside any call (thread #%u's "
                            "first events): no function to stop in", th->index);
    if (tg->argc < 1 || !tg->exe || !tg->exe[0])
        return ttri_cli_fail("--gdb: %s: no command line recorded", res->runs[TTD_BAD].path);
    const char *inner = dv->stack[dv->nstack - 1].name;
    if (strstr(inner, "+0x") || !strncmp(inner, "0x", 2))
        return ttri_cli_fail("--gdb: the diverging frame %s has no symbol (a stripped "
                            "binary? see --exe)", inner);
    place pl = { 0, NULL };
    int rc = locate_split(res, dv, th->index, demangle, &pl);
    if (rc)
        return rc;
    FILE *f = ttri_cli_create(path, force, "--force");
    if (!f) {
        free((char *)pl.func);
        return TTRI_CLI_TROUBLE;
    }
    put_header(f, res, dv, th, &pl, tg);
    rc = put_commands(f, tg, dv, th, &pl);
    free((char *)pl.func);
    if (fclose(f) != 0 && rc == 0)
        return ttri_cli_fail("--gdb: %s: %s", path, strerror(errno));
    if (rc < 0)
        return ttri_cli_fail("--gdb: an argument or the working folder of the bad run "
                            "holds a newline: gdb cannot pass it");
    return 0;
}

int ttri_gdb_script(const char *path, const ttd_result *res, int demangle,
                    int force)
{
    const ttd_run_info *run = &res->runs[TTD_BAD];
    target tg = { run->exe && run->exe[0] ? run->exe : run->argc > 0 ? run->argv[0] : "",
                  run->argc, run->argv, NULL, -1, NULL, NULL };
    return write_script(path, res, &tg, demangle, force);
}

int ttri_gdb_script_proc(const char *path, const ttd_result *res, const ttf_proc *row,
                         int64_t index, const char *name, const char *dir,
                         int demangle, int force)
{
    if (row->how == TTF_PROC_FORK)
        return ttri_cli_fail("--gdb: process %lld (%s, bad pid %u) began by fork and did "
                            "not exec: it has no command line of its own to start (its "
                            "parent's, with gdb's follow-fork-mode child, may reach it)",
                            (long long)index, name, row->pid);
    target tg = { row->exe, (int)row->argc, row->argv, row->cwd, index, name, dir };
    return write_script(path, res, &tg, demangle, force);
}
