/*
 * ptree.c - two recorded process trees compared (ttdiff GOOD_DIR BAD_DIR):
 * the processes of the two runs paired, each traced pair diffed by the
 * engine, and the first diverging process chosen for the full report.
 * Stage 6 tree of diff/STAGES, above the engine; it never prints.
 *
 * Design. A process is the chain of images of one pid (a fork child and
 * what it exec'd: the shell's child that became test-parse is test-parse);
 * it is named by its last image's executable and arguments. Its key, what
 * pairs it, is that name normalised: the executable's base name, and each
 * argument with temporary paths and digit runs (pids, ports, counters)
 * folded, as threads' names are. Pairing goes down the tree: the roots
 * pair, then the children of each pair, by key, the k-th child of a key in
 * one run with the k-th in the other (siblings in start order). Children
 * of one parent that share a key are look-alikes (a pre-fork server's
 * workers, a parallel test runner's jobs): a pool, as thread pools are.
 * Which worker took which request is the scheduler's choice, so a bad
 * member pairs with a good member whose trace it matches when there is
 * one, and with the next unused one otherwise; a pool of identical workers
 * is never a divergence. A process found in one run only is paired with
 * nothing, and so are its descendants.
 *
 * Each pair's result: diverged (the engine found a split in the calls),
 * exit_differs (same calls, another end: exit status or signal), same, or
 * not_traced (neither side traced: only the end is compared). The first
 * diverging process is the first, in tree order (parent before child,
 * siblings by start time), whose subtree holds no other difference: a
 * shell or make that fails because a child did is on the path, not the
 * answer. Its engine diff is kept for the full report; the others are
 * freed as soon as their result is known.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttdiff.h"

/* A process of one run: its images chained, its place in the tree. */
struct node {
    size_t first, last;         /* its first and last image (table rows) */
    int64_t parent;             /* node index, -1 root */
    size_t *kids, nkids;
    char *name, *key;
    int64_t peer;               /* paired node of the other run, -1 none */
    int known_same;             /* a pool match found the pair's traces the same */
    uint64_t events;            /* its events then */
    int64_t out;                /* its entry in the result, -1 not yet */
};

struct side {
    const char *dir;
    ttf_ptable *tab;
    struct node *n;
    size_t nn;
    size_t *roots, nroots;
};

struct ttd_tree {
    struct side s[2];
    ttd_tree_proc *procs;
    size_t nprocs, cap;
    ttd_tree_result res;
    ttd_diff *first_diff;
    char **owned;               /* the trace paths handed out */
    size_t nowned;
    const ttd_tree_options *o;
    ttd_regex *re;
};

/* ---- the tree of one run ----------------------------------------------- */

/* The image that exec'd from row r (its successor), -1 none. */
static int64_t exec_next(const ttf_ptable *t, size_t r)
{
    for (size_t i = 0; i < ttf_ptable_count(t); i++) {
        const ttf_proc *p = ttf_ptable_get(t, i);
        if (p->how == TTF_PROC_EXEC && p->parent == (int64_t)r)
            return (int64_t)i;
    }
    return -1;
}

/* 1 when the digit run at a[k] is a number that varies between runs: the
 * whole argument (a pid, a port, a count), or 4 digits or more inside one
 * (a temporary name, a time stamp); "test2" keeps its 2. */
static int varies(const char *a, size_t k)
{
    size_t e = k;
    while (a[e] >= '0' && a[e] <= '9')
        e++;
    return (k == 0 && !a[e]) || e - k >= 4;
}

/* A long path argument keeps its end, where its name is:
 * "/long/checkout/fixtures/suite.sh" -> ".../fixtures/suite.sh", the tail
 * from a '/' that leaves at most 36 bytes; where the tree was checked out
 * does not decide what a process is called. Else a itself. */
static const char *tail_of(const char *a, int *cut)
{
    size_t n = strlen(a);
    const char *q = n > 40 ? strchr(a + n - 36, '/') : NULL;

    *cut = q != NULL;
    return q ? q : a;
}

/* Text for a name: "base arg arg", each part at most 40 bytes. */
static char *name_of(const ttf_proc *p, int normalise)
{
    size_t cap = 64, o = 0;
    for (size_t i = 1; i < p->argc; i++)
        cap += 48;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    const char *base = strrchr(p->exe, '/');
    base = base ? base + 1 : p->exe;
    o += (size_t)snprintf(s, cap, "%.40s", base);
    for (size_t i = 1; i < p->argc && o + 48 < cap; i++) {
        int cut;
        const char *a = tail_of(p->argv[i], &cut);
        s[o++] = ' ';
        size_t start = o;
        if (cut)
            o += (size_t)snprintf(s + o, cap - o, "...");
        for (size_t k = 0; a[k] && o - start < 40; k++) {
            char c = a[k];
            if (normalise && !strncmp(a + k, "/tmp/", 5)) {
                memcpy(s + o, "/tmp/*", 6);
                o += 6;
                k += 4;
                while (a[k + 1] && a[k + 1] != '/' && a[k + 1] != ' ')
                    k++;
                continue;
            }
            if (normalise && c >= '0' && c <= '9' && varies(a, k)) {
                s[o++] = 'N';
                while (a[k + 1] >= '0' && a[k + 1] <= '9')
                    k++;
                continue;
            }
            s[o++] = c == '\n' || c == '\t' ? ' ' : c;
        }
    }
    s[o] = 0;
    return s;
}

static int by_start(const struct side *s, size_t a, size_t b)
{
    uint64_t x = ttf_ptable_get(s->tab, s->n[a].first)->start_ns;
    uint64_t y = ttf_ptable_get(s->tab, s->n[b].first)->start_ns;
    return x < y ? -1 : x > y;
}

/* Insert node k into list (n entries) in start order. */
static void add_sorted(const struct side *s, size_t *list, size_t *n, size_t k)
{
    size_t i = *n;
    while (i > 0 && by_start(s, list[i - 1], k) > 0) {
        list[i] = list[i - 1];
        i--;
    }
    list[i] = k;
    (*n)++;
}

/* Build the nodes of one run: one per chain of images. */
static int build_side(struct side *s)
{
    size_t n = ttf_ptable_count(s->tab);
    int64_t *node_of = malloc((n + 1) * sizeof *node_of);
    s->n = calloc(n + 1, sizeof *s->n);
    s->roots = malloc((n + 1) * sizeof *s->roots);
    if (!node_of || !s->n || !s->roots) {
        free(node_of);
        return TT_ENOMEM;
    }
    for (size_t i = 0; i < n; i++)
        node_of[i] = -1;
    for (size_t i = 0; i < n; i++) {     /* chain heads: not an exec'd image */
        const ttf_proc *p = ttf_ptable_get(s->tab, i);
        if (p->how == TTF_PROC_EXEC && p->parent >= 0)
            continue;
        struct node *d = &s->n[s->nn];
        d->first = d->last = i;
        d->peer = d->out = -1;
        node_of[i] = (int64_t)s->nn;
        int64_t nx;
        while ((nx = exec_next(s->tab, d->last)) >= 0 && node_of[nx] < 0) {
            d->last = (size_t)nx;
            node_of[nx] = (int64_t)s->nn;
        }
        s->nn++;
    }
    for (size_t k = 0; k < s->nn; k++) {
        struct node *d = &s->n[k];
        const ttf_proc *p = ttf_ptable_get(s->tab, d->first);
        d->parent = p->parent >= 0 ? node_of[p->parent] : -1;
        d->name = name_of(ttf_ptable_get(s->tab, d->last), 0);
        d->key = name_of(ttf_ptable_get(s->tab, d->last), 1);
        d->kids = malloc((s->nn + 1) * sizeof *d->kids);
        if (!d->name || !d->key || !d->kids) {
            free(node_of);
            return TT_ENOMEM;
        }
    }
    free(node_of);
    for (size_t k = 0; k < s->nn; k++) {
        int64_t par = s->n[k].parent;
        if (par >= 0 && par != (int64_t)k)
            add_sorted(s, s->n[par].kids, &s->n[par].nkids, k);
        else
            add_sorted(s, s->roots, &s->nroots, k);
    }
    return 0;
}

/* ---- one pair ---------------------------------------------------------- */

static char *trace_path(const struct side *s, const struct node *d)
{
    for (size_t r = d->last + 1; r-- > d->first;) {     /* the last traced image */
        const ttf_proc *p = ttf_ptable_get(s->tab, r);
        if (p->traced && p->trace[0]) {
            size_t n = strlen(s->dir) + strlen(p->trace) + 2;
            char *path = malloc(n);
            if (path)
                snprintf(path, n, "%s/%s", s->dir, p->trace);
            return path;
        }
        if (r == d->first)
            break;
    }
    return NULL;
}

static int same_end(const ttf_proc *g, const ttf_proc *b)
{
    int ge = g->ended == TTF_PROC_EXECED ? TTF_PROC_EXITED : g->ended;
    int be = b->ended == TTF_PROC_EXECED ? TTF_PROC_EXITED : b->ended;
    return ge == be && g->status == b->status && g->signal == b->signal;
}

/* Diff a traced pair: *diverged set; the diff kept in *keep when asked
 * (else freed). 0 or a TT_E* code with err set. */
static int diff_pair(ttd_tree *t, const char *g, const char *b, int *diverged,
                     ttd_tree_proc *out, ttd_diff **keep, ttf_error *err)
{
    ttd_diff *d = NULL;
    int rc = ttd_diff_files(g, b, t->o ? t->o->diff : NULL, &d, err);
    if (rc < 0)
        return rc;
    const ttd_result *r = ttd_get_result(d);
    /* the same calls, another end (a child killed mid-run): the ends,
     * compared from the tables, say it: exit_differs */
    *diverged = (r->diverged && !r->outcome.same_calls) || r->nunpaired > 0;
    out->events[TTD_GOOD] = r->runs[TTD_GOOD].events;
    out->events[TTD_BAD] = r->runs[TTD_BAD].events;
    if (r->first) {
        out->good_index = r->first->good_index;
        out->bad_index = r->first->bad_index;
    }
    if (keep)
        *keep = d;
    else
        ttd_free(d);
    return 0;
}

/* ---- pairing ----------------------------------------------------------- */

static ttd_tree_proc *new_proc(ttd_tree *t)
{
    if (t->nprocs == t->cap) {
        size_t nc = t->cap ? 2 * t->cap : 64;
        ttd_tree_proc *np = realloc(t->procs, nc * sizeof *np);
        if (!np)
            return NULL;
        t->procs = np;
        t->cap = nc;
    }
    ttd_tree_proc *p = &t->procs[t->nprocs++];
    memset(p, 0, sizeof *p);
    p->parent = -1;
    return p;
}

/* Fill entry e for node gi of the good run and bi of the bad (-1 none). */
static int fill(ttd_tree *t, size_t e, int64_t gi, int64_t bi, ttf_error *err)
{
    ttd_tree_proc *p = &t->procs[e];
    const struct node *nd[2] = {gi >= 0 ? &t->s[0].n[gi] : NULL,
                                bi >= 0 ? &t->s[1].n[bi] : NULL};
    for (int k = 0; k < 2; k++) {
        if (!nd[k])
            continue;
        p->row[k] = ttf_ptable_get(t->s[k].tab, nd[k]->last);
        p->first_row[k] = ttf_ptable_get(t->s[k].tab, nd[k]->first);
        char *path = trace_path(&t->s[k], nd[k]);
        if (path) {
            char **no = realloc(t->owned, (t->nowned + 1) * sizeof *no);
            if (!no) {
                free(path);
                return TT_ENOMEM;
            }
            t->owned = no;
            t->owned[t->nowned++] = path;
        }
        p->trace[k] = path;
        p->name = nd[k]->name;
        p->key = nd[k]->key;
    }
    if (!nd[0] || !nd[1]) {
        p->result = nd[0] ? TTD_PROC_GOOD_ONLY : TTD_PROC_BAD_ONLY;
        return 0;
    }
    p->traced = p->trace[0] && p->trace[1];
    p->result = TTD_PROC_NOT_TRACED;
    if (p->traced && nd[1]->known_same) {
        p->result = TTD_PROC_SAME;  /* diffed already, by the pool pairing */
        p->events[TTD_GOOD] = nd[0]->events;
        p->events[TTD_BAD] = nd[1]->events;
    } else if (p->traced && !(t->o && t->o->process_only && !p->selected)) {
        int div = 0;
        int rc = diff_pair(t, p->trace[0], p->trace[1], &div, p, NULL, err);
        if (rc < 0)
            return rc;
        p->result = div ? TTD_PROC_DIVERGED : TTD_PROC_SAME;
    }
    if (p->result != TTD_PROC_DIVERGED && !same_end(p->row[0], p->row[1]))
        p->result = TTD_PROC_EXIT_DIFFERS;
    return 0;
}

static int pair_level(ttd_tree *t, const size_t *g, size_t ng, const size_t *b, size_t nb,
                      int64_t parent, ttf_error *err);

/* Entries for node k of run side and its subtree, unpaired. */
static int lone(ttd_tree *t, int side, size_t k, int64_t parent, ttf_error *err)
{
    ttd_tree_proc *p = new_proc(t);
    if (!p)
        return TT_ENOMEM;
    size_t e = t->nprocs - 1;
    p->parent = parent;
    int rc = fill(t, e, side == 0 ? (int64_t)k : -1, side == 1 ? (int64_t)k : -1, err);
    const struct node *d = &t->s[side].n[k];
    for (size_t i = 0; !rc && i < d->nkids; i++)
        rc = lone(t, side, d->kids[i], (int64_t)e, err);
    return rc;
}

/* Does the bad member b of a pool match good member g (their traces the
 * same, their ends the same)? Noted in the nodes, so the pair is not
 * diffed twice. */
static int pool_match(ttd_tree *t, size_t g, size_t b)
{
    struct node *ng = &t->s[0].n[g], *nb = &t->s[1].n[b];
    if (!same_end(ttf_ptable_get(t->s[0].tab, ng->last), ttf_ptable_get(t->s[1].tab, nb->last)))
        return 0;
    char *pg = trace_path(&t->s[0], ng), *pb = trace_path(&t->s[1], nb);
    int same = !pg && !pb;
    if (pg && pb) {
        ttd_diff *d = NULL;
        ttf_error e;
        if (ttd_diff_files(pg, pb, t->o ? t->o->diff : NULL, &d, &e) >= 0) {
            const ttd_result *r = ttd_get_result(d);
            same = !r->diverged && !r->nunpaired;
            nb->known_same = same;
            ng->events = r->runs[TTD_GOOD].events;
            nb->events = r->runs[TTD_BAD].events;
        }
        ttd_free(d);
    }
    free(pg);
    free(pb);
    return same;
}

/* 1 if a pool's members are worth matching by their traces: always,
 * unless --process names processes by a regex (not a number: numbers come
 * after the pairing) that no member's name matches (no pair of it will be
 * diffed, so any pairing of it does). */
static int pool_wanted(const ttd_tree *t, const size_t *g, size_t ng, const size_t *b, size_t nb)
{
    if (!t->o || !t->o->process_only || !t->re || t->o->process_index >= 0)
        return 1;
    for (size_t i = 0; i < ng; i++)
        if (ttd_regex_match(t->re, t->s[0].n[g[i]].name) > 0)
            return 1;
    for (size_t j = 0; j < nb; j++)
        if (ttd_regex_match(t->re, t->s[1].n[b[j]].name) > 0)
            return 1;
    return 0;
}

/* Pair one pool (the good and bad members sharing a key). */
static void pair_pool(ttd_tree *t, const size_t *g, size_t ng, const size_t *b, size_t nb)
{
    /* a lone pair needs no matching: fill diffs it, once */
    int match = (ng > 1 || nb > 1) && pool_wanted(t, g, ng, b, nb);
    for (size_t j = 0; j < nb; j++) {
        int64_t pick = -1;
        for (size_t i = 0; match && i < ng && pick < 0; i++)
            if (t->s[0].n[g[i]].peer < 0 && pool_match(t, g[i], b[j]))
                pick = (int64_t)i;
        for (size_t i = 0; i < ng && pick < 0; i++)
            if (t->s[0].n[g[i]].peer < 0)
                pick = (int64_t)i;
        if (pick < 0)
            break;
        t->s[0].n[g[pick]].peer = (int64_t)b[j];
        t->s[1].n[b[j]].peer = (int64_t)g[pick];
    }
}

/* Pair the siblings g[] and b[] by key, then recurse. */
static int pair_level(ttd_tree *t, const size_t *g, size_t ng, const size_t *b, size_t nb,
                      int64_t parent, ttf_error *err)
{
    size_t *pg = malloc((ng + 1) * sizeof *pg), *pb = malloc((nb + 1) * sizeof *pb);
    if (!pg || !pb) {
        free(pg);
        free(pb);
        return TT_ENOMEM;
    }
    for (size_t i = 0; i < ng; i++) {   /* each key once, in good-run order */
        const char *key = t->s[0].n[g[i]].key;
        size_t a = 0, c = 0, seen = 0;
        for (size_t k = 0; k < i; k++)
            seen |= !strcmp(t->s[0].n[g[k]].key, key);
        if (seen)
            continue;
        for (size_t k = i; k < ng; k++)
            if (!strcmp(t->s[0].n[g[k]].key, key))
                pg[a++] = g[k];
        for (size_t k = 0; k < nb; k++)
            if (!strcmp(t->s[1].n[b[k]].key, key))
                pb[c++] = b[k];
        pair_pool(t, pg, a, pb, c);
    }
    for (size_t i = 0; i < ng; i++) {   /* then the same program, other arguments */
        struct node *d = &t->s[0].n[g[i]];
        size_t len = strcspn(d->key, " ");
        for (size_t k = 0; k < nb && d->peer < 0; k++) {
            struct node *e = &t->s[1].n[b[k]];
            if (e->peer < 0 && strcspn(e->key, " ") == len && !strncmp(e->key, d->key, len)) {
                d->peer = (int64_t)b[k];
                e->peer = (int64_t)g[i];
            }
        }
    }
    free(pg);
    free(pb);
    int rc = 0;
    for (size_t i = 0; !rc && i < ng; i++) {   /* entries: good order, then bad-only */
        const struct node *d = &t->s[0].n[g[i]];
        if (d->peer < 0) {
            rc = lone(t, 0, g[i], parent, err);
            continue;
        }
        if (!new_proc(t))
            return TT_ENOMEM;
        size_t e = t->nprocs - 1;
        t->procs[e].parent = parent;
        size_t same_key = 0;
        for (size_t k = 0; k < ng; k++)
            same_key += !strcmp(t->s[0].n[g[k]].key, d->key);
        t->procs[e].pool = same_key > 1;
        t->procs[e].selected = t->o && t->o->process_only;
        if (t->re) {
            const char *nm = d->name;
            t->procs[e].selected = ttd_regex_match(t->re, nm) > 0 ||
                (t->o->process_index >= 0 && (int64_t)e == t->o->process_index);
        } else if (t->o && t->o->process_index >= 0) {
            t->procs[e].selected = (int64_t)e == t->o->process_index;
        }
        const struct node *bd = &t->s[1].n[d->peer];
        rc = fill(t, e, (int64_t)g[i], d->peer, err);
        if (!rc)
            rc = pair_level(t, d->kids, d->nkids, bd->kids, bd->nkids, (int64_t)e, err);
    }
    for (size_t j = 0; !rc && j < nb; j++)
        if (t->s[1].n[b[j]].peer < 0)
            rc = lone(t, 1, b[j], parent, err);
    return rc;
}

/* ---- the first diverging process --------------------------------------- */

static int differs(const ttd_tree_proc *p)
{
    return p->result != TTD_PROC_SAME && p->result != TTD_PROC_NOT_TRACED;
}

/* The first differing entry, in tree order, with no differing descendant
 * (entries are in tree order already: a parent before its subtree). */
static int64_t first_leafmost(const ttd_tree *t)
{
    for (size_t i = 0; i < t->nprocs; i++) {
        const ttd_tree_proc *p = &t->procs[i];
        if (!differs(p) || (t->o && t->o->process_only && !p->selected))
            continue;
        int below = 0;
        for (size_t k = i + 1; k < t->nprocs && !below; k++) {
            int64_t a = t->procs[k].parent;
            while (a >= 0 && a != (int64_t)i)
                a = t->procs[a].parent;
            below = a == (int64_t)i && differs(&t->procs[k]) &&
                    !(t->o && t->o->process_only && !t->procs[k].selected);
        }
        if (!below)
            return (int64_t)i;
    }
    return -1;
}

/* ---- the public face --------------------------------------------------- */

int ttd_tree_diff(const char *good_dir, const char *bad_dir, const ttd_tree_options *o,
                  ttd_tree **out, ttf_error *err)
{
    *out = NULL;
    ttd_tree *t = calloc(1, sizeof *t);
    if (!t)
        return TT_ENOMEM;
    t->o = o;
    t->s[0].dir = good_dir;
    t->s[1].dir = bad_dir;
    int rc = 0;
    for (int k = 0; k < 2 && !rc; k++)
        if ((rc = ttf_ptable_open(t->s[k].dir, &t->s[k].tab, err)) == 0 &&
            (rc = build_side(&t->s[k])) != 0)
            snprintf(err->msg, sizeof err->msg, "out of memory");
    if (!rc && o && o->process && o->process_index < 0 &&
        (rc = ttd_regex_compile(o->process, &t->re, err)) != 0)
        rc = rc < 0 ? rc : TT_EINVAL;
    if (!rc)
        rc = pair_level(t, t->s[0].roots, t->s[0].nroots, t->s[1].roots, t->s[1].nroots, -1,
                        err);
    if (!rc && o && o->process_only) {
        size_t chosen = 0;
        for (size_t i = 0; i < t->nprocs; i++)
            chosen += t->procs[i].selected;
        if (!chosen) {
            snprintf(err->msg, sizeof err->msg, "--process '%s': no process pair matches",
                     o->process ? o->process : "");
            rc = TT_ENOTFOUND;
        }
    }
    if (rc) {
        ttd_tree_free(t);
        return rc;
    }
    ttd_tree_result *r = &t->res;
    for (size_t i = 0; i < t->nprocs; i++) {
        int res = t->procs[i].result;
        r->good_only += res == TTD_PROC_GOOD_ONLY;
        r->bad_only += res == TTD_PROC_BAD_ONLY;
        r->exit_differs += res == TTD_PROC_EXIT_DIFFERS;
        r->diverged += res == TTD_PROC_DIVERGED;
        r->paired += res != TTD_PROC_GOOD_ONLY && res != TTD_PROC_BAD_ONLY;
        r->traced += t->procs[i].traced;
    }
    r->first = first_leafmost(t);
    int64_t show = r->first;    /* the report's pair: the first, else the first traced */
    for (size_t i = 0; show < 0 && i < t->nprocs; i++)
        if (t->procs[i].traced && !(o && o->process_only && !t->procs[i].selected))
            show = (int64_t)i;
    r->shown = show;
    if (show >= 0 && t->procs[show].traced) {
        int div = 0;
        rc = diff_pair(t, t->procs[show].trace[0], t->procs[show].trace[1], &div,
                       &t->procs[show], &t->first_diff, err);
        if (rc < 0) {
            ttd_tree_free(t);
            return rc;
        }
    }
    r->procs = t->procs;
    r->nprocs = t->nprocs;
    r->diff = t->first_diff;
    for (int k = 0; k < 2; k++)
        r->dir[k] = t->s[k].dir;
    *out = t;
    return 0;
}

ttd_diff *ttd_tree_pair_diff(ttd_tree *t)
{
    return t ? t->first_diff : NULL;
}

const ttd_tree_result *ttd_tree_get(const ttd_tree *t)
{
    return t ? &t->res : NULL;
}

void ttd_tree_free(ttd_tree *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nowned; i++)
        free(t->owned[i]);
    free(t->owned);
    for (int k = 0; k < 2; k++) {
        for (size_t i = 0; i < t->s[k].nn; i++) {
            free(t->s[k].n[i].name);
            free(t->s[k].n[i].key);
            free(t->s[k].n[i].kids);
        }
        free(t->s[k].n);
        free(t->s[k].roots);
        ttf_ptable_close(t->s[k].tab);
    }
    ttd_free(t->first_diff);
    ttd_regex_free(t->re);
    free(t->procs);
    free(t);
}
