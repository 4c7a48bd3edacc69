/*
 * lines.c - inside the frame: the functions the compiler inlined between
 * the traced frames of a split, and the deciding line (issue 21).
 * Stage 2 resolve of diff/STAGES (its header: resolve.h).
 *
 * Every ENTER of a format 1.2 trace carries its call site, the return
 * address in the caller. Mapped through the caller's DWARF inline chain
 * (ttf_sym_inline, at the address - 1, inside the call instruction) it
 * says which inlined functions the call was made from, innermost first,
 * each at the line it was at, and ends in the out-of-line function: the
 * traced frame it was made from. So between two traced frames the chain
 * of the inner one's call site gives the inlined frames; the chain is
 * anchored at the traced caller by name (searched from its out-of-line
 * end: in plain mode gcc instruments inlined copies too, and a traced
 * frame can itself be an inlined copy, which then adds nothing). A chain
 * that does not hold the traced caller (no debug info, a call site that
 * is not the caller's, as gcc gives an inlined copy's own ENTER) adds
 * nothing.
 *
 * Below the innermost traced frame the split itself speaks: each run's
 * first differing call has a call site; the inlined frames the two chains
 * share (same function entered from the same line) are frames of the
 * common stack too, so a static helper the compiler inlined is the
 * diverging frame in values mode as it is in plain mode, where it has an
 * ENTER of its own. In that frame the deciding line is each run's
 * position (the line of its first differing call), the last common call
 * made from it (the traced frame's last call before the split, when its
 * chain passes through the same inlined frames), and the narrowest range
 * holding the branch: from the common call (or, without one, the
 * function's first line) to the furthest differing call. The source
 * lines of that range are read when the file is there.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "codediff.h"
#include "resolve.h"

#define SOURCE_BYTES_MAX (16u << 20) /* larger source files are not read */

/* A run's position inside traced frame T: the chain of a call made from
 * it, and T's place in that chain (the frames c[0..j) are inlined in T). */
typedef struct where {
    const ttf_inline_frame *c;  /* the chain, innermost first; NULL: none */
    size_t n;                   /* its frames */
    size_t j;                   /* T's index in it */
} where;

/* 1 if a and b name the same function, gcc's clone suffixes aside
 * ("parse.constprop.0" is parse). */
static int same_func(const char *a, const char *b)
{
    if (!a || !b)
        return 0;
    size_t la = strcspn(a, "."), lb = strcspn(b, ".");
    return la == lb && strncmp(a, b, la) == 0;
}

/* The position of a call made at `site` from traced frame `caller` of run
 * ri: 1 and *w filled, 0 if unknown. */
static int locate(const ttdi_in *in, int ri, uint64_t site, uint64_t t,
                  const char *caller, where *w)
{
    const ttf_inline_frame *c = NULL;
    size_t n = 0;

    memset(w, 0, sizeof *w);
    if (!site || !caller ||
        ttf_sym_inline(in->r[ri].norm.sym, site - 1, t, &c, &n) < 0)
        return 0;
    for (size_t j = n; j-- > 0;) {
        if (c[j].function && same_func(c[j].function, caller)) {
            w->c = c;
            w->n = n;
            w->j = j;
            return 1;
        }
    }
    return 0;
}

/* The frame q levels inside T on w's path (q = 0: T itself). */
static const ttf_inline_frame *at_depth(const where *w, size_t q)
{
    return w->c && q <= w->j ? &w->c[w->j - q] : NULL;
}

/* How many inlined frames below T the paths a and b share: the same
 * function entered from the same line. */
static size_t shared(const where *a, const where *b)
{
    size_t q = 0;

    if (!a->c || !b->c)
        return 0;
    while (q < a->j && q < b->j) {
        const ttf_inline_frame *x = at_depth(a, q + 1), *y = at_depth(b, q + 1);
        if (!x->function || !y->function || strcmp(x->function, y->function) ||
            at_depth(a, q)->line != at_depth(b, q)->line)
            break;
        q++;
    }
    return q;
}

/* ---- the stack with inlined frames ------------------------------------- */

/* A growing list of frames. */
typedef struct fbuf {
    ttd_frame *f;
    size_t n, cap;
} fbuf;

static ttd_frame *fb_add(fbuf *b)
{
    if (b->n == b->cap &&
        ttdi_grow(&b->f, &b->cap, b->n + 1, sizeof *b->f, 16) < 0)
        return NULL;
    memset(&b->f[b->n], 0, sizeof b->f[b->n]);
    return &b->f[b->n++];
}

/* path as the traced frames name files: the debug info's own (often
 * relative) name when one of them names the same file, else path. */
static const char *as_traced(const ttd_divergence *dv, const char *path)
{
    size_t np = path ? strlen(path) : 0;

    for (size_t i = 0; i < dv->nstack; i++) {
        const char *f = dv->stack[i].file;
        size_t nf = f ? strlen(f) : 0;
        if (nf && nf < np && path[np - nf - 1] == '/' && !strcmp(path + np - nf, f))
            return f;
    }
    return path;
}

/* Append the inlined frames q = 1..depth of w's path; the frame before
 * them gets its call line. 0 or TT_ENOMEM. */
static int add_inlined(fbuf *b, const where *w, size_t depth,
                       const ttd_divergence *dv)
{
    const ttf_inline_frame *up = at_depth(w, 0);

    b->f[b->n - 1].call_line = up->line;
    b->f[b->n - 1].call_file = up->file;
    for (size_t q = 1; q <= depth; q++) {
        const ttf_inline_frame *x = at_depth(w, q);
        ttd_frame *f = fb_add(b);
        if (!f)
            return TT_ENOMEM;
        f->name = x->function ? x->function : "?";
        f->file = as_traced(dv, x->decl_file);
        f->line = x->decl_line;
        f->inlined = 1;
        f->call_line = x->line;
        f->call_file = x->file;
    }
    return 0;
}

/* The traced frames of dv with the inlined ones between them. */
static int between(const ttdi_in *in, const ttdi_pass_spec *b, const ttd_divergence *dv,
                   fbuf *out)
{
    where w;

    for (size_t i = 0; i < dv->nstack; i++) {
        ttd_frame *f = fb_add(out);
        if (!f)
            return TT_ENOMEM;
        *f = dv->stack[i];
        if (i + 1 < dv->nstack &&
            locate(in, TTD_BAD, b->stack[i + 1].call_site, b->stack[i + 1].time_ns,
                   dv->stack[i].name, &w) &&
            add_inlined(out, &w, w.j, dv) < 0)
            return TT_ENOMEM;
    }
    return 0;
}

/* ---- the deciding line ------------------------------------------------- */

/* What the frame q levels inside T did next on path w: the inlined
 * function it entered, else the traced function called (addr of run ri). */
static const char *next_call(const ttdi_in *in, int ri, const where *w, size_t q,
                             uint64_t addr, uint64_t t)
{
    ttf_event ev;

    if (q < w->j && w->c[w->j - q - 1].function)
        return w->c[w->j - q - 1].function;
    memset(&ev, 0, sizeof ev);
    ev.kind = TTF_EV_ENTER;
    ev.addr = addr;
    ev.time_ns = t;
    return ttf_sym_event_name(in->r[ri].norm.sym, &ev);
}

/* A run's position q levels inside T as a ttd_line_call (arena). */
static ttd_line_call *position(const ttdi_in *in, int ri, const where *w, size_t q,
                               uint64_t addr, uint64_t t)
{
    const ttf_inline_frame *x = at_depth(w, q);
    ttd_line_call *lc = ttfi_arena_zalloc(in->arena, sizeof *lc);

    if (!lc || !x)
        return lc;
    lc->line = x->line;
    lc->file = x->file;
    lc->calls = next_call(in, ri, w, q, addr, t);
    return lc;
}

/* A run that returned from T at the split: no line, calls "". */
static ttd_line_call *returned(const ttdi_in *in)
{
    ttd_line_call *lc = ttfi_arena_zalloc(in->arena, sizeof *lc);
    if (lc)
        lc->calls = "";
    return lc;
}

/* 1 if the common call's path c passes through the q frames b shares. */
static int within(const where *c, const where *b, size_t q)
{
    if (!c->c || c->j < q)
        return 0;
    for (size_t k = 1; k <= q; k++) {
        const ttf_inline_frame *x = at_depth(c, k), *y = at_depth(b, k);
        if (!x->function || strcmp(x->function, y->function) ||
            at_depth(c, k - 1)->line != at_depth(b, k - 1)->line)
            return 0;
    }
    return 1;
}

static int same_file(const char *a, const char *b);

/* Widen [*lo, *hi] to hold line (of file) when it is in file f. */
static void widen(int *lo, int *hi, const ttd_line_call *lc, const char *f)
{
    if (!lc || lc->line <= 0 || !same_file(lc->file, f))
        return;
    if (!*lo || lc->line < *lo)
        *lo = lc->line;
    if (lc->line > *hi)
        *hi = lc->line;
}

/* 1 if paths a and b name the same file: equal, or one is the other
 * with folders in front (the debug info's relative name and the absolute
 * one made with the compile folder). */
static int same_file(const char *a, const char *b)
{
    size_t na = a ? strlen(a) : 0, nb = b ? strlen(b) : 0;

    if (!na || !nb)
        return 0;
    if (na < nb)
        return same_file(b, a);
    return !strcmp(a + na - nb, b) && (na == nb || a[na - nb - 1] == '/');
}

/* The range holding the branch: the positions; from the function's first
 * line when there is no common call, or when every position is one line
 * (a loop whose condition decided: it is above that line); to the
 * function's last line (end, 0 if unknown) when a run returned (its
 * return statement is not known: it is below the common call). */
static void range_of(ttd_lines *l, const ttd_frame *df, int end)
{
    int lo = 0, hi = 0;

    widen(&lo, &hi, l->good, l->file);
    widen(&lo, &hi, l->bad, l->file);
    if (!hi)
        return;
    if (l->common)
        widen(&lo, &hi, l->common, l->file);
    if ((!l->common || lo == hi) && df->line > 0 && df->line < lo &&
        same_file(df->file, l->file))
        lo = df->line;
    int ret = (l->good && !l->good->calls[0]) || (l->bad && !l->bad->calls[0]);
    if (ret && end > hi)
        hi = end;
    l->first = lo;
    l->last = hi;
}

/* Read lines [first, last] of l->file into l->source (the last
 * TTD_SOURCE_MAX of them), or say why not. 0 or TT_ENOMEM. */
static int read_source(const ttdi_in *in, ttd_lines *l)
{
    struct stat st;
    char msg[600], *buf = NULL;
    size_t cap = 0;
    int first = l->last - TTD_SOURCE_MAX + 1 > l->first ? l->last - TTD_SOURCE_MAX + 1 : l->first;
    FILE *f = stat(l->file, &st) == 0 && S_ISREG(st.st_mode) &&
              (uint64_t)st.st_size <= SOURCE_BYTES_MAX ? fopen(l->file, "r") : NULL;

    if (!f && errno == ENOMEM)
        return TT_ENOMEM;
    if (!f) {
        snprintf(msg, sizeof msg, "source not readable: %.500s (%s)", l->file,
                 errno ? strerror(errno) : "not a regular file or too large");
        l->source_missing = ttfi_arena_strcpy(in->arena, msg);
        return l->source_missing ? 0 : TT_ENOMEM;
    }
    ttd_source_line *s = ttfi_arena_zalloc(in->arena, TTD_SOURCE_MAX * sizeof *s);
    int no = 0, rc = s ? 0 : TT_ENOMEM;
    errno = 0;
    while (rc == 0 && no < l->last && getline(&buf, &cap, f) >= 0) {
        if (++no < first)
            continue;
        buf[strcspn(buf, "\n")] = 0;
        s[l->nsource].line = no;
        if (!(s[l->nsource++].text = ttfi_arena_strcpy(in->arena, buf)))
            rc = TT_ENOMEM;
    }
    if (rc == 0 && errno == ENOMEM) /* getline could not grow buf */
        rc = TT_ENOMEM;
    free(buf);
    fclose(f);
    l->source = l->nsource ? s : NULL;
    if (rc == 0 && l->nsource == 0)
        l->source_missing = "source file shorter than its debug info says (another version?)";
    return rc;
}

/* "parse.c:36 calls add_node", "returns", "line unknown". */
static void say_pos(char *buf, size_t len, const ttd_line_call *lc)
{
    const char *f = lc->file ? strrchr(lc->file, '/') : NULL;

    f = f ? f + 1 : lc->file;
    if (!lc->calls[0])
        snprintf(buf, len, "returns");
    else if (lc->line > 0 && f)
        snprintf(buf, len, "%.200s:%d calls %.200s", f, lc->line, lc->calls);
    else
        snprintf(buf, len, "calls %.200s (line unknown)", lc->calls);
}

/* The sentence the text report prints. 0 or TT_ENOMEM. */
static int sentence(const ttdi_in *in, ttd_lines *l, const char *outer)
{
    char t[1400], g[420], b[420], c[420];
    int n = snprintf(t, sizeof t, "in %.200s", l->function);

    if (l->inlined)
        n += snprintf(t + n, sizeof t - (size_t)n, " (inlined into %.200s)", outer);
    if (l->common) {
        say_pos(c, sizeof c, l->common);
        n += snprintf(t + n, sizeof t - (size_t)n, ", after %s", c);
    }
    if (l->good || l->bad) {
        if (l->good)
            say_pos(g, sizeof g, l->good);
        n += snprintf(t + n, sizeof t - (size_t)n, "%s good: %s", l->common ? ";" : ":",
                      l->good ? g : "makes no call there");
    }
    if (l->bad || l->good) {   /* the side with no differing event there */
        if (l->bad)
            say_pos(b, sizeof b, l->bad);
        n += snprintf(t + n, sizeof t - (size_t)n, "; bad: %s",
                      l->bad ? b : "makes no call there");
    }
    if (l->first && l->last > l->first)
        snprintf(t + n, sizeof t - (size_t)n, " (the branch is in lines %d-%d)",
                 l->first, l->last);
    else if (l->first)
        snprintf(t + n, sizeof t - (size_t)n, " (line %d)", l->first);
    l->text = ttfi_arena_strcpy(in->arena, t);
    return l->text ? 0 : TT_ENOMEM;
}

/* Where each run was in T at the split (the split events' call sites). */
static void split_paths(const ttdi_in *in, const ttd_hunk_info *h, const ttdi_pass_spec *ps,
                        const ttd_divergence *dv, where w[2])
{
    const char *caller = dv->nstack ? dv->stack[dv->nstack - 1].name : NULL;
    uint64_t count[2] = {h->good_count, h->bad_count};

    for (int ri = 0; ri < 2; ri++) {
        memset(&w[ri], 0, sizeof w[ri]);
        if (count[ri] && ps[ri].at.kind == TTF_EV_ENTER)
            locate(in, ri, ps[ri].at.call_site, ps[ri].at.time_ns, caller, &w[ri]);
    }
}

/* One run's position at the split, q levels inside T, the innermost of
 * the nstack common frames (NULL: unknown). */
static const ttd_line_call *split_pos(const ttdi_in *in, int ri, const ttdi_pass_spec *ps,
                                      const where *w, size_t q, uint64_t count,
                                      size_t nstack)
{
    if (ps->at.kind == TTF_EV_EXIT && q == 0 && ps->nstack == nstack)
        return returned(in); /* its first differing event, or (no event
                               differs in it) the next common one: it
                               returned where the other run called */
    if (!count)
        return NULL;
    return w->c ? position(in, ri, w, q, ps->at.addr, ps->at.time_ns) : NULL;
}

/* The deciding line in the frame q levels inside T (the last traced
 * frame, outer its name), from the paths w. 0 or TT_ENOMEM. */
static int decide(const ttdi_in *in, const ttd_hunk_info *h, const ttdi_pass_spec *ps,
                  ttd_divergence *dv, const where w[2], size_t q, const ttd_frame *df)
{
    const ttdi_frame_id *tf = &ps[TTD_BAD].stack[dv->nstack - 1];
    ttd_lines *l = ttfi_arena_zalloc(in->arena, sizeof *l);
    where wc;

    memset(&wc, 0, sizeof wc);
    if (!l)
        return TT_ENOMEM;
    l->function = df->name;
    l->inlined = df->inlined;
    l->good = split_pos(in, TTD_GOOD, &ps[TTD_GOOD], &w[TTD_GOOD], q, h->good_count,
                        dv->nstack);
    l->bad = split_pos(in, TTD_BAD, &ps[TTD_BAD], &w[TTD_BAD], q, h->bad_count,
                       dv->nstack);
    const where *ref = w[TTD_BAD].c ? &w[TTD_BAD] : &w[TTD_GOOD];
    if (tf->last_site && locate(in, TTD_BAD, tf->last_site, tf->last_time,
                                dv->stack[dv->nstack - 1].name, &wc) &&
        (!ref->c || within(&wc, ref, q)) && wc.j >= q)
        l->common = position(in, TTD_BAD, &wc, q, tf->last_addr, tf->last_time);
    const ttd_line_call *any = l->bad && l->bad->file ? l->bad :
                               l->good && l->good->file ? l->good : l->common;
    l->file = any ? any->file : NULL;
    const ttf_inline_frame *tfr = q == 0 ? at_depth(ref->c ? ref : &wc, 0) : NULL;
    range_of(l, df, tfr && same_file(tfr->decl_file, l->file) ? tfr->end_line : 0);
    int rc = 0;
    if (l->file && l->first)
        rc = read_source(in, l);
    else
        l->source_missing = "no source file in the debug info";
    if (rc == 0)
        rc = sentence(in, l, dv->nframes > 1 ? dv->frames[dv->nframes - 2].name : "");
    dv->lines = rc == 0 && (l->good || l->bad) ? l : NULL;
    return rc;
}

int ttdi_lines(const ttdi_in *in, const ttd_hunk_info *h, const ttdi_pass_spec ps[2],
               ttd_divergence *dv)
{
    fbuf fb = {0};
    where w[2];
    int rc = between(in, &ps[TTD_BAD], dv, &fb);

    split_paths(in, h, ps, dv, w);
    size_t q = shared(&w[TTD_GOOD], &w[TTD_BAD]);
    const where *ref = w[TTD_BAD].c ? &w[TTD_BAD] : &w[TTD_GOOD];
    if (rc == 0 && dv->nstack && ref->c)
        rc = add_inlined(&fb, ref, q, dv);
    ttd_frame *fr = rc == 0 ? ttfi_arena_zalloc(in->arena, (fb.n + 1) * sizeof *fr) : NULL;
    if (fr && fb.n)
        memcpy(fr, fb.f, fb.n * sizeof *fr);
    free(fb.f);
    if (!fr)
        return TT_ENOMEM;
    dv->frames = fr;
    dv->nframes = fb.n;
    if (!dv->nstack || (!w[TTD_GOOD].c && !w[TTD_BAD].c))
        return 0;
    return decide(in, h, ps, dv, w, q, &fr[fb.n - 1]);
}
