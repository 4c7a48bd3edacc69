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
 * argv, working folder (gdb's "set cwd") and environment: gdb starts it
 * through "env -i NAME=value..." (its exec-wrapper, documented for this:
 * the program gets exactly the recorded variables, and none of gdb's
 * LINES and COLUMNS), less tt's own (TTCAP*, libttcap in LD_PRELOAD); a
 * table of an older writer has none, which the script says.
 *
 * A process that began by fork and did not exec (a pre-fork server's
 * worker) has no command line of its own: the script starts the nearest
 * ancestor image that has one and follows the forks down to it, the k-th
 * fork of each image as its START row says (older tables: the k-th fork
 * child by start time, which the scheduler may have reordered): "catch fork" counts them, "follow-fork-mode
 * child" at the right one (set at the catch, it decides the follow when
 * gdb resumes), "parent" at the others, detach-on-fork on, so gdb keeps
 * one process. The breakpoint counts only once the last fork is followed
 * (ancestors run the same code), and numbers threads from the process's
 * main thread (gdb numbers them per inferior, not from 1 after a fork).
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

/* 1 if the open frames f[0..depth) are tt's stack dv->stack. Frames open
 * before the trace began (a fork child starts mid-call, below its first
 * event's depth) have no name and are not part of tt's stack. */
static int at_stack(const frame *f, int depth, const ttd_divergence *dv)
{
    if ((size_t)depth < dv->nstack)
        return 0;
    size_t below = (size_t)depth - dv->nstack;
    for (size_t j = 0; j < below; j++)
        if (f[j].name)
            return 0;
    for (size_t i = 0; i < dv->nstack; i++)
        if (!f[below + i].name || strcmp(f[below + i].name, dv->stack[i].name))
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
    const char *const *env;     /* the recorded environment, NULL none */
    size_t nenv;
    const size_t *forks;        /* the forks to follow from exe: the k-th
                                   (from 1) of each image, outermost first */
    size_t nforks;
    uint32_t pid;               /* the process's bad pid (for the comments) */
} target;

/* The script's opening comments: what it does and tt's stack. */
static void put_header(FILE *f, const ttd_result *res, const ttd_divergence *dv,
                       const ttd_thread_info *th, const place *pl, const target *tg)
{
    fprintf(f, "# gdb script written by ttdiff --gdb: run the bad run again and stop at\n"
               "# its first divergence from the good run.\n"
               "#   good: %s\n#   bad:  %s\n", res->runs[TTD_GOOD].path,
            res->runs[TTD_BAD].path);
    if (tg->index >= 0) {
        fprintf(f, "# Process %lld of the tree in %s (the first diverging process):\n"
                   "#   %s\n", (long long)tg->index, tg->dir, tg->name);
        if (tg->nforks)
            fprintf(f, "# began by fork and did not exec (bad pid %u): its ancestor below is\n"
                       "# started and gdb follows %zu fork%s down to it (catch fork).\n",
                    tg->pid, tg->nforks, tg->nforks == 1 ? "" : "s");
        fprintf(f, "# started with the recorded program, arguments, working folder (set\n"
                   "# cwd) and %s. Run:\n", tg->env ? "environment (exec-wrapper env -i; tt's "
                   "TTCAP* and libttcap left out)" : "no environment: the process table "
                   "records no environment\n# (an older writer): it runs with gdb's own "
                   "(yours), tt's TTCAP* unset");
    } else
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

/* 1 if the variable v is tt's own, not passed to the program in gdb. */
static int tt_var(const char *v)
{
    return !strncmp(v, "TTCAP", 5);
}

/* LD_PRELOAD=... without libttcap's entries ("" if none remain) into buf. */
static void strip_preload(const char *v, char *buf, size_t n)
{
    size_t o = (size_t)snprintf(buf, n, "LD_PRELOAD="), start = o;
    for (const char *p = v + 11; *p && o < n;) {
        size_t k = strcspn(p, ": ");
        if (k && !memmem(p, k, "libttcap", 8))
            o += (size_t)snprintf(buf + o, n - o, "%s%.*s", o > start ? ":" : "", (int)k, p);
        p += k + (p[k] != 0);
    }
    if (o == start || o >= n)
        buf[0] = 0;
}

/* The recorded environment: gdb's exec-wrapper "env -i NAME=value...";
 * without one, tt's variables unset in gdb's own. */
static void put_env(FILE *f, const target *tg)
{
    if (!tg->env) {
        fputs("unset environment TTCAP_OUT\nunset environment TTCAP\n", f);
        if (tg->index >= 0)
            fputs("unset environment TTCAP_PROC\n", f);
        return;
    }
    for (size_t i = 0; i < tg->nenv; i++)
        if (strchr(tg->env[i], '\n'))
            fprintf(f, "# not passed (a newline in it): %.*s\n",
                    (int)strcspn(tg->env[i], "=\n"), tg->env[i]);
    fputs("set exec-wrapper env -i", f);
    for (size_t i = 0; i < tg->nenv; i++) {
        const char *v = tg->env[i];
        char pre[4096];
        if (tt_var(v) || strchr(v, '\n') || !strchr(v, '='))
            continue;
        if (!strncmp(v, "LD_PRELOAD=", 11)) {
            strip_preload(v, pre, sizeof pre);
            if (!pre[0])
                continue;
            v = pre;
        }
        fputc(' ', f);
        put_sh(f, v);
    }
    fputc('\n', f);
}

/* Follow the forks down to the process (tg->forks): count fork events,
 * follow the child at the k-th of each level, then arm the breakpoint. */
static void put_forks(FILE *f, const target *tg)
{
    fputs("set detach-on-fork on\nset follow-fork-mode parent\n"
          "set $tt_level = 0\nset $tt_forks = 0\ncatch fork\ncommands\nsilent\n"
          "set $tt_forks = $tt_forks + 1\nset follow-fork-mode parent\n", f);
    for (size_t l = 0; l < tg->nforks; l++) {
        fprintf(f, "if $tt_level == %zu && $tt_forks == %zu\nset follow-fork-mode child\n"
                   "set $tt_level = %zu\nset $tt_forks = 0\n", l, tg->forks[l], l + 1);
        if (l + 1 == tg->nforks)
            fputs("python split.armed = True\n", f);
        fputs("end\n", f);
    }
    fputs("continue\nend\n", f);
}

/* The commands: program, arguments, working folder, environment, the
 * counting breakpoint, the forks to follow, run, and what to show at the
 * stop. 0, or -1 if an argument or the folder cannot be passed (a
 * newline). */
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
    fputc('\n', f);
    put_env(f, tg);
    fputs("python\nimport gdb\n\nclass TTDiffSplit(gdb.Breakpoint):\n"
          "    \"\"\"Stop at entry N of a function in one thread of one process.\"\"\"\n"
          "    def __init__(self, func, thread, n, armed):\n"
          "        gdb.Breakpoint.__init__(self, func)\n"
          "        self.tt_thread, self.n, self.seen = thread, n, 0\n"
          "        self.armed, self.base = armed, {}\n\n"
          "    def stop(self):\n"
          "        if not self.armed:\n"
          "            return False\n"
          "        t = gdb.selected_thread()\n"
          "        pid = t.ptid[0]\n"
          "        if pid not in self.base:\n"
          "            main = [x.num for x in t.inferior.threads() if x.ptid[1] == pid]\n"
          "            self.base[pid] = main[0] - 1 if main else 0\n"
          "        if t.num - self.base[pid] != self.tt_thread:\n"
          "            return False\n"
          "        self.seen += 1\n"
          "        return self.seen == self.n\n\n", f);
    fputs("split = TTDiffSplit(", f);
    put_py(f, pl->func);
    fprintf(f, ", %u, %llu, %s)\nend\n", th->index + 1, (unsigned long long)pl->entry,
            tg->nforks ? "False" : "True");
    if (tg->nforks)
        put_forks(f, tg);
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
                  run->argc, run->argv, NULL, -1, NULL, NULL, NULL, 0, NULL, 0, 0 };
    return write_script(path, res, &tg, demangle, force);
}

#define MAXFORKS 64             /* fork levels followed */

/* The fork chain above row i of table t: forks[] (the k-th fork child of
 * each image, outermost first), *n of them; the image to start in *top.
 * 0, or -1 when an image that forked is not in the table (no command line
 * to start) or the chain is deeper than MAXFORKS. */
static int fork_chain(const ttf_ptable *t, size_t i, size_t *forks, size_t *n, size_t *top)
{
    size_t rev[MAXFORKS], k = 0;
    const ttf_proc *p = ttf_ptable_get(t, i);
    while (p->how == TTF_PROC_FORK) {
        if (p->parent < 0 || k == MAXFORKS)
            return -1;
        size_t nth = p->fork_nth;   /* else (an older writer) by start */
        for (size_t j = 0; !p->fork_nth && j < ttf_ptable_count(t); j++) {
            const ttf_proc *q = ttf_ptable_get(t, j);
            nth += q->how == TTF_PROC_FORK && q->parent == p->parent && q->start_ns <= p->start_ns;
        }
        rev[k++] = nth;
        i = (size_t)p->parent;
        p = ttf_ptable_get(t, i);
    }
    for (size_t l = 0; l < k; l++)
        forks[l] = rev[k - 1 - l];
    *n = k;
    *top = i;
    return 0;
}

/* A forked process that did not exec: its ancestor started, the forks
 * followed (see the top of the file). */
static int script_forked(const char *path, const ttd_result *res, const ttf_proc *row,
                         target *tg, int demangle, int force)
{
    ttf_ptable *t = NULL;
    ttf_error err;
    if (ttf_ptable_open(tg->dir, &t, &err) != 0)
        return ttri_cli_fail("--gdb: %s", err.msg);
    size_t i = 0, n = ttf_ptable_count(t), top = 0, forks[MAXFORKS], nforks = 0;
    while (i < n && (ttf_ptable_get(t, i)->pid != row->pid ||
                     ttf_ptable_get(t, i)->start_ns != row->start_ns))
        i++;
    int rc = i < n ? fork_chain(t, i, forks, &nforks, &top) : -1;
    if (rc == 0) {
        const ttf_proc *a = ttf_ptable_get(t, top);
        tg->exe = a->exe;
        tg->argc = (int)a->argc;
        tg->argv = a->argv;
        tg->cwd = a->cwd;
        tg->env = a->env;
        tg->nenv = a->nenv;
        tg->forks = forks;
        tg->nforks = nforks;
        rc = write_script(path, res, tg, demangle, force);
    } else {
        rc = ttri_cli_fail("--gdb: process %lld (%s, bad pid %u) began by fork and did not "
                           "exec, and the image that forked it is not in the process table: "
                           "no command line to start", (long long)tg->index, tg->name, row->pid);
    }
    ttf_ptable_close(t);
    return rc;
}

int ttri_gdb_script_proc(const char *path, const ttd_result *res, const ttf_proc *row,
                         int64_t index, const char *name, const char *dir,
                         int demangle, int force)
{
    target tg = { row->exe, (int)row->argc, row->argv, row->cwd, index, name, dir,
                  row->env, row->nenv, NULL, 0, row->pid };
    if (row->how == TTF_PROC_FORK)
        return script_forked(path, res, row, &tg, demangle, force);
    return write_script(path, res, &tg, demangle, force);
}
