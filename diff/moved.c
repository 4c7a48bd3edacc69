/*
 * moved.c - the same calls at another time: another thread's block of
 * calls moved against the split thread's timeline (issue 33). Stage 3
 * explain of diff/STAGES (its header: explain.h).
 *
 * Design. Two runs of one program can make the same calls in every
 * thread and still part, because one thread's calls came at another time
 * against another thread's: a plugin loader that initialises a library
 * again after the main thread's first use of it (late), a stop that
 * frees a pool before a worker is done with it (early). Nothing orders
 * the two (or only a queue's lock, in the order the calls came), so the
 * alignment sees the other thread's calls alike, the races see no window
 * that the good runs lack, and the report names the symptom: the branch
 * in the split's thread that read what the other thread left there.
 * The trace shows the shape. The split's thread S enters its split frame's
 * function F at the split and entered it before, at A, with the same
 * calls up to the split in both runs (a common prefix): F decided one way
 * at A in both runs and the other way at the split in one run only, so
 * what F read changed between A and the split in one run and not in the
 * other. This rule names another thread T when, between A and the split,
 *   - T made calls in one run X (the bad run looked at first) and none in
 *     the other run Y: there T was idle (asleep, waiting, or done);
 *   - in Y it made those same calls (kept indices: T's pair has no hunk
 *     before the last of them, so the same calls by position) all before
 *     A or all after the split, and far from the window: the gap between
 *     them and it is at least the window's own length in Y (scheduling
 *     jitter moves a call past a nearby point; it does not empty a whole
 *     window nor move calls by more than the window);
 *   - T made calls before A in both runs (it had started: a thread that
 *     the split's thread created in between is new work, not moved work).
 * Then the runs differ by when T's block ran, before the split: X's F
 * read the state after T's calls and Y's before them (the block came
 * earlier in X: a stop, a reset), or the reverse (later: an
 * initialisation after the first use). Which call of the block is named:
 * the outermost call of T open at X's split (T was inside it when S
 * parted: a shutdown that was freeing what S read); else the first call
 * of the block whose machine code writes a writable global that the code
 * of S's frames at the split reads (format's ttf_sym_code_globals; S's
 * outermost frame left out: main reads what all its callees do), and
 * inside it the first callee that writes one too, as deep as they go (the
 * initialiser, not the plugin hook that called it). No such call: no
 * cause. A build with -pg (values mode) has no frame for what the
 * compiler inlined, which -finstrument-functions traces: a stop_service
 * inlined into main leaves shutdown() as T's outermost open call. So when
 * the open call's site lies in an inlined copy (its inline chain, from
 * the call site's DWARF) and that copy began inside the window (the last
 * call at that depth before the copy's first, in the block or before A
 * under the same caller, was made from elsewhere: ttdi_moved_inline), the
 * copy is named, as the other build would, with where it was inlined and
 * the call it made; when the sites cannot tell, the call is. The
 * verdict asks this last, when its best cause is the split's own branch
 * and no other rule spoke; it is "possible" (timing, not a data link,
 * ties T's calls to the split).
 * Costs. Only with a split, two threads or more, and the split frame's
 * function entered before at the same depth within reach: S is read once
 * per run, from the mark at least MV_BACK kept events before its split;
 * each other thread by one run walk per run from the mark before A to
 * the first event past the split (on to its first call after the split
 * in the run where it was idle, when its calls came after), none when
 * the details' last events of the threads before the split show it idle
 * since before A in both runs; X's window once more for the thread that
 * passes; at most MV_READ events a walk.
 * Limits. A pool's threads (matched as work items, not by position) and
 * uncertain pairs are not judged; a block split across A is not (part of
 * it before A in Y: not all moved).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"

#define MV_BACK 4096            /* S's kept events read back from its split, at least */
#define MV_READ (1u << 20)      /* events read from a mark to a point, at most */
#define MV_CALLS 8192           /* calls of T's block kept */
#define MV_GLOBALS 64           /* globals S's frames read, kept */
#define MV_DEPTH 256            /* frames looked at */

/* ---- the judgement and the pick (unit-tested on hand-made numbers) -------- */

int ttdi_moved_judge(const ttdi_mv_side s[2], uint64_t parts)
{
    for (int x = TTD_BAD; x >= TTD_GOOD; x--) {
        const ttdi_mv_side *X = &s[x], *Y = &s[!x];
        uint64_t win = Y->split_ns - Y->a_ns;
        if (X->n_split <= X->n_a || Y->n_split != Y->n_a || !X->n_a || !Y->n_a ||
            Y->split_ns < Y->a_ns)
            continue;   /* calls in X's window, none in Y's, T begun in both */
        uint64_t last = Y->n_a > X->n_split ? Y->n_a : X->n_split;
        if (parts < last)
            continue;   /* T's calls differ before: not the same calls */
        if (Y->n_a >= X->n_split && Y->a_ns >= Y->before_ns && Y->a_ns - Y->before_ns >= win)
            return x;   /* in Y all before A, far before */
        if (Y->n_a <= X->n_a && Y->after_ns != UINT64_MAX && Y->after_ns >= Y->split_ns &&
            Y->after_ns - Y->split_ns >= win)
            return x;   /* in Y all after the split, far after */
    }
    return -1;
}

int ttdi_moved_pick(const ttdi_mv_call *c, size_t n)
{
    size_t lo = SIZE_MAX;
    long at = -1;

    for (size_t i = 0; i < n; i++)
        if (c[i].exit_ns == UINT64_MAX && c[i].depth < lo) {
            lo = c[i].depth;
            at = (long)i;
        }
    if (at >= 0)
        return (int)at;
    for (size_t i = 0; i < n && at < 0; i++)
        if (c[i].writes)
            at = (long)i;
    /* inside it, the first callee that writes too, as deep as they go */
    for (size_t i = (size_t)(at + 1); at >= 0 && i < n && c[i].enter_ns < c[at].exit_ns; i++)
        if (c[i].depth == c[at].depth + 1 && c[i].writes)
            at = (long)i;
    return (int)at;
}

static int same_copy(const ttdi_mv_site *a, const ttdi_mv_site *b)
{
    return a->inl && b->inl && a->line == b->line && strcmp(a->inl, b->inl) == 0;
}

int ttdi_moved_inline(const ttdi_mv_call *c, const ttdi_mv_site *s, size_t i,
                      const ttdi_mv_site *before)
{
    size_t first = i;

    if (!s[i].known || !s[i].inl)
        return -1;
    for (size_t k = i; k-- > 0;) {
        if (c[k].depth != c[i].depth)
            continue;
        if (!s[k].known)
            return -1;
        if (!same_copy(&s[k], &s[i]))
            return (int)first;
        first = k;
    }
    if (!before || !before->known || same_copy(before, &s[i]))
        return -1;
    return (int)first;
}

/* ---- the walks ------------------------------------------------------------- */

typedef struct mctx {
    const ttdi_in *in;
    const ttd_result *r;
    uint64_t a_ns[2], a_idx[2];     /* S's earlier call of F, per run */
    uint64_t split_ns[2];
    const char *fname;              /* F */
    struct { long module; uint64_t addr; } g[2][MV_GLOBALS]; /* S's frames
                                       read, per run */
    size_t ng[2];
    ttdi_mv_call calls[MV_CALLS];
    uint64_t addr[MV_CALLS];
    uint64_t site[MV_CALLS];        /* each call's site, 0: none */
    ttdi_mv_site msite[MV_CALLS];   /* ... where it is, by its inline chain */
    uint32_t open[MV_CALLS];        /* the calls not returned yet */
    size_t ncalls, nopen;
    uint64_t before[MV_DEPTH + 1];  /* T's last call site at each depth before
                                       A, under the frame open above it (0:
                                       none), and its time */
    uint64_t before_ns[MV_DEPTH + 1];
    int oom;
} mctx;

/* The writable globals function addr (time ns) of run k addresses with
 * access acc, into g (cap), their number. */
static size_t globals_of(ttdi_run_state *run, uint64_t addr, uint64_t ns, unsigned acc,
                         long *mod, uint64_t *g, size_t cap)
{
    ttf_code_global cg[MV_GLOBALS];
    const ttf_code_info *ci;
    size_t k = 0, m = 0;
    long mi = ttdi_module_at(&run->norm, addr, ns);

    if (mi < 0 || ttf_sym_code(run->norm.sym, (size_t)mi, &ci) != 0 || addr < ci->bias ||
        ttf_sym_code_globals(run->norm.sym, (size_t)mi, addr - ci->bias, cg, MV_GLOBALS, &k))
        return 0;
    for (size_t i = 0; i < k && i < MV_GLOBALS && m < cap; i++)
        if (cg[i].access & acc)
            g[m++] = cg[i].addr;
    *mod = mi;
    return m;
}

/* The first global of S's that function addr of run x writes, its
 * module and address (link time) in *gm, *ga; 1, else 0. */
static int writes_read(mctx *c, int x, uint64_t addr, uint64_t ns, long *gm, uint64_t *ga)
{
    uint64_t g[MV_GLOBALS];
    long mod = -1;
    size_t k = globals_of(&c->in->r[x], addr, ns, TTF_GLOBAL_WRITE, &mod, g, MV_GLOBALS);

    for (size_t i = 0; i < k; i++)
        for (size_t j = 0; j < c->ng[x]; j++)
            if (c->g[x][j].module == mod && c->g[x][j].addr == g[i]) {
                *gm = mod;
                *ga = g[i];
                return 1;
            }
    return 0;
}

/* S in run k: from the mark MV_BACK kept events before its split (kept
 * index idx, time ns), the split frame (its function's address, depth,
 * entry) and the entry of the same function at the same depth before it
 * (A: c->a_idx[k], c->a_ns[k]); the globals S's frames read (the
 * outermost aside); with the bad run, F's name. 1, 0 when there is none
 * in reach, or a TT_E* code. */
static int split_thread(mctx *c, int k, uint32_t th, uint64_t idx, uint64_t ns)
{
    ttdi_run_state *run = &c->in->r[k];
    ttdi_map mi = {0}, mt = {0};
    uint64_t pf_idx[MV_DEPTH], pf_ns[MV_DEPTH], ld_addr[MV_DEPTH], ld_ns[MV_DEPTH];
    int pf_ok[MV_DEPTH] = {0};
    ttdi_walk w;
    uint64_t n = 0;
    int rc = ttdi_walk_open_at(&w, run, th, idx, ns, MV_BACK), found = 0;

    if (rc < 0)
        return rc;
    memset(ld_addr, 0, sizeof ld_addr);
    while ((rc = ttdi_walk_next(&w)) > 0 && !(w.kept && w.idx >= idx)) {
        size_t d = w.nstack;
        if (++n > 2 * (uint64_t)MV_READ)
            break;
        if (!w.kept || !w.pending || w.ev.kind != TTF_EV_ENTER || d >= MV_DEPTH || !w.ev.addr)
            continue;
        int a1 = 0, a2 = 0;
        uint64_t key = w.ev.addr ^ ((uint64_t)d << 56);
        uint64_t *vi = ttdi_map_put(&mi, key, &a1), *vt = ttdi_map_put(&mt, key, &a2);
        if (!vi || !vt) {
            rc = TT_ENOMEM;
            break;
        }
        pf_ok[d] = !a1 && *vi;
        pf_idx[d] = *vi - 1;
        pf_ns[d] = *vt;
        *vi = w.idx + 1;
        *vt = w.ev.time_ns;
        ld_addr[d] = w.ev.addr;
        ld_ns[d] = w.ev.time_ns;
    }
    size_t D = w.nstack ? w.nstack - 1 : 0;
    if (rc > 0 && w.kept && w.idx == idx && w.nstack && D < MV_DEPTH && pf_ok[D] &&
        w.stack[D].addr && ld_addr[D] == w.stack[D].addr && ld_ns[D] == w.stack[D].time_ns) {
        found = 1;
        c->a_idx[k] = pf_idx[D];
        c->a_ns[k] = pf_ns[D];
    }
    for (size_t i = 1; found && i < w.nstack && i < MV_DEPTH; i++) {
        uint64_t g[MV_GLOBALS];
        long mod = -1;
        size_t m = globals_of(run, w.stack[i].addr, w.stack[i].time_ns, TTF_GLOBAL_READ, &mod,
                              g, MV_GLOBALS);
        for (size_t j = 0; j < m && c->ng[k] < MV_GLOBALS; j++) {
            c->g[k][c->ng[k]].module = mod;
            c->g[k][c->ng[k]++].addr = g[j];
        }
    }
    if (found && k == TTD_BAD) {
        const char *nm = ttdi_walk_frame_name(&w, &w.stack[D]);
        c->fname = nm ? ttfi_arena_strcpy(c->in->arena, nm) : NULL;
        found = c->fname != NULL;
    }
    ttdi_map_free(&mi);
    ttdi_map_free(&mt);
    ttdi_walk_close(&w);
    return rc < 0 ? rc : found;
}

/* Thread th of run k against S's window [s->a_ns, s->split_ns] (set):
 * its kept events before each end (n_a, n_split), the time of its last
 * kept event before A (before_ns: the mark's time when it came before the
 * mark read from, no later than the event's), and, if after, of its first
 * kept event after the split (after_ns, UINT64_MAX: none or not read), by
 * one run walk from the last mark before A. 1, 0 when it could not tell
 * (past MV_READ events), or a TT_E* code. */
static int side_of(mctx *c, int k, uint32_t th, ttdi_mv_side *s, int after)
{
    ttdi_walk w;
    uint64_t m = 0;
    int rc = ttdi_walk_open_at(&w, &c->in->r[k], th, UINT64_MAX, s->a_ns, 0), at_a = 0;

    if (rc < 0)
        return rc;
    s->before_ns = w.from_ns;
    s->after_ns = UINT64_MAX;
    while ((rc = ttdi_walk_next(&w)) > 0 && ++m <= MV_READ) {
        uint64_t t = w.ev.time_ns;
        if (!at_a && t > s->a_ns) {
            at_a = 1;
            s->n_a = w.idx;
        }
        if (t > s->split_ns && (w.kept || !after)) {
            s->after_ns = w.kept && after ? t : UINT64_MAX;
            break;
        }
        if (w.kept && !at_a)
            s->before_ns = t;
    }
    s->n_split = rc > 0 ? w.idx : w.next;
    if (!at_a)
        s->n_a = s->n_split;
    ttdi_walk_close(&w);
    return rc < 0 ? rc : m <= MV_READ;
}

/* The open calls of depth a or more returned at ns: closed, and no
 * longer scanned (an EXIT looks at the open calls, not at every call). */
static void close_calls(mctx *c, size_t a, uint64_t ns)
{
    size_t k = 0;

    for (size_t i = 0; i < c->nopen; i++) {
        ttdi_mv_call *cl = &c->calls[c->open[i]];
        if (cl->depth >= a)
            cl->exit_ns = ns;
        else
            c->open[k++] = c->open[i];
    }
    c->nopen = k;
}

/* T's calls in run x's window (its kept events [s->n_a, s->n_split))
 * into c->calls: each one's depth, entry and return (UINT64_MAX: open at
 * the split), and (bad run) whether it writes what S's frames read. 1, 0
 * when it could not tell, or a TT_E* code. */
static int block_of(mctx *c, int x, uint32_t th, const ttdi_mv_side *s)
{
    ttdi_walk w;
    uint64_t m = 0;
    int rc = ttdi_walk_open_at(&w, &c->in->r[x], th, s->n_a, s->a_ns, 0);

    if (rc < 0)
        return rc;
    c->ncalls = c->nopen = 0;
    memset(c->before, 0, sizeof c->before);
    while ((rc = ttdi_walk_next(&w)) > 0 && !(w.kept && w.idx >= s->n_split)) {
        if (++m > MV_READ || c->ncalls == MV_CALLS)
            break;
        size_t d = w.nstack;
        if (w.kept && w.pending && w.idx < s->n_a && w.ev.kind == TTF_EV_ENTER && d < MV_DEPTH) {
            c->before[d] = w.ev.call_site;
            c->before_ns[d] = w.ev.time_ns;
            c->before[d + 1] = 0;   /* a new caller for the depth below */
        }
        if (!w.kept || !w.pending || w.idx < s->n_a)
            continue;
        if (w.ev.kind == TTF_EV_ENTER && d < MV_DEPTH) {
            ttdi_mv_call *k = &c->calls[c->ncalls];
            const char *nm = ttdi_norm_func_at(&c->in->r[x].norm, w.ev.addr, w.ev.site,
                                               w.ev.time_ns);
            *k = (ttdi_mv_call){nm ? nm : "?", d, w.ev.time_ns, UINT64_MAX, 0};
            c->open[c->nopen++] = (uint32_t)c->ncalls;
            c->site[c->ncalls] = w.ev.call_site;
            c->addr[c->ncalls++] = w.ev.addr;
        } else if (w.ev.kind == TTF_EV_EXIT) {
            close_calls(c, ttdi_walk_depth_after(&w), w.ev.time_ns);
        }
    }
    ttdi_walk_close(&w);
    if (rc < 0)
        return rc;
    if (m > MV_READ || c->ncalls == MV_CALLS)
        return 0;
    return 1;
}

/* The name of global (module, addr) of run x, NULL. */
static const char *global_name(mctx *c, int x, long mod, uint64_t addr)
{
    const ttf_code_info *ci;
    ttdi_run_state *run = &c->in->r[x];

    if (mod < 0 || ttf_sym_code(run->norm.sym, (size_t)mod, &ci) != 0)
        return NULL;
    const char *nm = ttf_sym_name(run->norm.sym, addr + ci->bias);
    return nm ? ttfi_arena_strcpy(c->in->arena, nm) : NULL;
}

/* 1 when the details' last events of the other threads before the split
 * (ttd_divergence.others) show thread th[k] idle since before A in both
 * runs: no walk needed. */
static int idle_both(const mctx *c, const uint32_t th[2])
{
    const ttd_divergence *d = c->r->first;
    int idle = 0;

    for (int k = 0; k < 2; k++)
        for (size_t i = 0; i < d->nothers[k]; i++) {
            const ttd_other *o = &d->others[k][i];
            if (o->thread == th[k] && o->nevents && o->events[o->nevents - 1].time_ns < c->a_ns[k])
                idle++;
        }
    return idle == 2;
}

/* The inline chain of call site `site` of run x (time ns) as a
 * ttdi_mv_site; *fr, *n the chain (n 0: none). */
static ttdi_mv_site site_of(mctx *c, int x, uint64_t site, uint64_t ns,
                            const ttf_inline_frame **fr, size_t *n)
{
    ttdi_mv_site s = {0, NULL, 0};

    *n = 0;
    if (!site || ttf_sym_inline(c->in->r[x].norm.sym, site - 1, ns, fr, n) != 0 || !*n)
        return s;
    s.known = 1;
    if (*n >= 2 && (*fr)[*n - 2].function) {
        s.inl = (*fr)[*n - 2].function;
        s.line = (*fr)[*n - 1].line;
    }
    return s;
}

/* The open call c->calls[i] of run x made from an inlined copy that began
 * in the window (ttdi_moved_inline): out's function becomes that copy's,
 * the call its `via`. 1 if so, 0 if not, TT_ENOMEM. */
static int inline_open(mctx *c, int x, size_t i, ttdi_moved *out)
{
    ttdi_mv_site *s = c->msite;     /* only the calls at c[i]'s depth are read */
    const ttf_inline_frame *fr, *fi = NULL;
    size_t n, ni = 0;
    struct ttfi_arena *a = c->in->arena;

    for (size_t k = 0; k <= i; k++) {
        s[k] = (ttdi_mv_site){0, NULL, 0};
        if (c->calls[k].depth != c->calls[i].depth)
            continue;
        s[k] = site_of(c, x, c->site[k], c->calls[k].enter_ns, &fr, &n);
        if (k == i) {
            fi = fr;
            ni = n;
        }
    }
    size_t d = c->calls[i].depth;
    ttdi_mv_site before = site_of(c, x, c->before[d], c->before_ns[d], &fr, &n);
    int f = ttdi_moved_inline(c->calls, s, i, &before);
    if (f < 0 || ni < 2)
        return 0;
    const ttf_inline_frame *cp = &fi[ni - 2], *outer = &fi[ni - 1];
    out->via = ttfi_arena_strcpy(a, out->function);
    out->function = ttfi_arena_strcpy(a, cp->function);
    out->inlined_into = outer->function ? ttfi_arena_strcpy(a, outer->function) : NULL;
    out->file = cp->decl_file ? ttfi_arena_strcpy(a, cp->decl_file) : NULL;
    out->line = cp->decl_file ? cp->decl_line : 0;
    out->enter_ns = c->calls[f].enter_ns;
    if (!out->via || !out->function || (outer->function && !out->inlined_into) ||
        (cp->decl_file && !out->file))
        return TT_ENOMEM;
    return 1;
}

/* Other thread T (pair p) against S's window: 1 with *out filled, 0, or
 * a TT_E* code. */
static int judge_pair(mctx *c, size_t p, ttdi_moved *out)
{
    const ttd_result *r = c->r;
    const ttd_pair *pr = &r->pairs[p];
    uint32_t th[2] = {pr->good.index, pr->bad.index};
    ttdi_mv_side s[2];
    int rc = 1;

    if (idle_both(c, th))
        return 0;
    for (int k = 0; k < 2 && rc == 1; k++) {
        s[k].a_ns = c->a_ns[k];
        s[k].split_ns = c->split_ns[k];
        rc = side_of(c, k, th[k], &s[k], 0);
    }
    /* busy in one window only: where T's calls came after the split in
     * the idle run, read on there to the first of them */
    int busy[2] = {rc == 1 && s[0].n_split > s[0].n_a, rc == 1 && s[1].n_split > s[1].n_a};
    if (busy[0] == busy[1])
        return rc < 0 ? rc : 0;
    int y = busy[TTD_GOOD];
    if (s[y].n_a <= s[!y].n_a)
        rc = side_of(c, y, th[y], &s[y], 1);
    int x = rc == 1 ? ttdi_moved_judge(s, ttdi_pair_parts(r, p)) : -1;
    if (x < 0 || (rc = block_of(c, x, th[x], &s[x])) != 1)
        return rc < 0 ? rc : 0;
    long gm[MV_CALLS];
    uint64_t ga[MV_CALLS];
    int i = ttdi_moved_pick(c->calls, c->ncalls);   /* an open call: no writes asked */
    for (size_t k = 0; i < 0 && k < c->ncalls; k++)
        c->calls[k].writes = writes_read(c, x, c->addr[k], c->calls[k].enter_ns, &gm[k], &ga[k]);
    if (i < 0)
        i = ttdi_moved_pick(c->calls, c->ncalls);
    if (i < 0)
        return 0;
    const ttdi_mv_side *Y = &s[!x];
    int earlier = Y->n_a >= s[x].n_split;
    *out = (ttdi_moved){1, c->calls[i].name, ttdi_thread_label(&c->in->r[TTD_BAD], c->in->arena,
                                                                th[TTD_BAD]),
                        (int64_t)p, c->fname, NULL, x, earlier, 0,
                        {c->a_ns[0], c->a_ns[1]}, {c->split_ns[0], c->split_ns[1]},
                        c->calls[i].enter_ns, earlier ? Y->before_ns : Y->after_ns,
                        c->calls[i].exit_ns == UINT64_MAX,
                        c->calls[i].writes ? global_name(c, x, gm[i], ga[i]) : NULL,
                        NULL, NULL, NULL, 0};
    out->calls = c->ncalls;
    if (out->open && (rc = inline_open(c, x, (size_t)i, out)) != 0)
        return rc;
    out->function = ttfi_arena_strcpy(c->in->arena, out->function);
    return out->function ? 1 : TT_ENOMEM;
}

int ttdi_moved_find(const ttdi_in *in, const ttd_result *r, ttdi_moved *out)
{
    const ttd_divergence *d = r ? r->first : NULL;
    int rc = 1;

    memset(out, 0, sizeof *out);
    if (!in || !d || d->pair >= r->npairs || !d->good_time_ns || !d->bad_time_ns ||
        in->r[TTD_BAD].nt < 2 || in->r[TTD_GOOD].nt < 2)
        return 0;
    mctx *c = calloc(1, sizeof *c);
    if (!c)
        return TT_ENOMEM;
    c->in = in;
    c->r = r;
    const ttd_pair *sp = &r->pairs[d->pair];
    uint32_t ts[2] = {sp->good.index, sp->bad.index};
    uint64_t idx[2] = {d->good_index, d->bad_index};
    c->split_ns[TTD_GOOD] = d->good_time_ns;
    c->split_ns[TTD_BAD] = d->bad_time_ns;
    for (int k = 0; k < 2 && rc == 1; k++)
        rc = split_thread(c, k, ts[k], idx[k], c->split_ns[k]);
    if (rc == 1 && c->a_idx[0] != c->a_idx[1])
        rc = 0;     /* not the same earlier call: no common window */
    for (size_t p = 0; rc == 1 && p < r->npairs && !out->found; p++) {
        const ttd_pair *pr = &r->pairs[p];
        if (p == d->pair || pr->bad.index == ts[TTD_BAD] || pr->pool || pr->uncertain)
            continue;
        int k = judge_pair(c, p, out);
        if (k < 0)
            rc = k;
    }
    if (out->found) {
        out->split_thread = ttdi_thread_label(&in->r[TTD_BAD], in->arena, ts[TTD_BAD]);
        out->split = c->fname;
    }
    free(c);
    return rc < 0 ? rc : out->found;
}
