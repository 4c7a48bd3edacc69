/*
 * suspects.c - the calls most likely behind a divergence, ranked from the
 * ring of common events a pass keeps before the split; with call values
 * (format 1.1) re-ranked by what each call returned (judge(), rank(),
 * origins_first()).
 * Stage 2 resolve of diff/STAGES (its header: resolve.h).
 */
#include <stdlib.h>
#include <string.h>

#include "resolve.h"

static int listed(const ttd_suspect *s, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s[i].name, name) == 0)
            return 1;
    return 0;
}

static void add_frame(const ttd_divergence *dv, ttd_suspect *s, size_t *n)
{
    const ttd_frame *f = &dv->stack[dv->nstack - 1];

    if (listed(s, *n, f->name))
        return;
    memset(&s[*n], 0, sizeof s[*n]);
    s[*n].name = f->name;
    s[*n].file = f->file;
    s[*n].line = f->line;
    s[*n].role = TTD_SUSPECT_FRAME;
    s[*n].index = dv->bad_index;
    (*n)++;
}

/* A call whose return value differs from the good run's (vd): both
 * values as text. */
static void value_differs(ttd_diff *d, const ttdi_vdiff *vd, ttd_suspect *x)
{
    char v[64];

    x->value_differs = 1;
    x->trivial = 0;
    ttf_value_format(v, sizeof v, vd->ev[0].retval, &vd->sig->ret);
    x->good_value = ttfi_arena_strcpy(&d->arena, v);
    ttf_value_format(v, sizeof v, vd->ev[1].retval, &vd->sig->ret);
    x->bad_value = ttfi_arena_strcpy(&d->arena, v);
}

/* Values and triviality of a call that returned before the split: did it
 * return another value than in the good run (the pair's value walk says),
 * and is it a lock wrapper, or a leaf that returned void or the same
 * value? Nothing with --no-values. */
static void judge(ttd_diff *d, const ttdi_ipair *p, const ttdi_sus_ev *e,
                  ttd_suspect *x)
{
    const ttf_signature *sig;
    ttf_event ev;

    if (d->o.no_values)
        return;
    x->trivial = ttdi_lock_wrapper(x->name);
    const ttdi_vdiff *vd = d->values ? ttdi_vfound_ret(&p->vf, e->idx) : NULL;
    if (vd) {
        value_differs(d, vd, x);
        return;
    }
    memset(&ev, 0, sizeof ev);
    ev.kind = TTF_EV_EXIT;
    ev.addr = e->addr;
    ev.time_ns = e->time_ns;
    if (!e->leaf || e->site || ttf_sym_signature(d->r[TTD_BAD].norm.sym, &ev, &sig))
        return;
    if (sig->ret.cls == TTF_VC_VOID ||
        (d->values && e->has_values && ttf_value_comparable(&sig->ret)))
        x->trivial = 1;
}

static int tier(const ttd_suspect *x)
{
    return x->value_differs ? 0 : x->trivial ? 2 : 1;
}

/* Stable order by tier: calls that returned another value first, trivial
 * leaves and lock wrappers last. */
static void rank(ttd_suspect *s, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        ttd_suspect x = s[i];
        size_t j = i;
        for (; j > 0 && tier(&s[j - 1]) > tier(&x); j--)
            s[j] = s[j - 1];
        s[j] = x;
    }
}

/* A value that can be told apart from a yes/no answer: an integer other
 * than -1, 0 and 1 (an error code such as -34), not a pointer or bool. */
static int distinctive(const char *v)
{
    char *end;
    long long x = v ? strtoll(v, &end, 10) : 0;
    return v && *v && !*end && (x < -1 || x > 1);
}

/* An error code passed up a chain of callers: among the calls that
 * returned another value, one that returned the same distinctive value
 * as a nearer one (its caller passing it on) is where the value began, so
 * it moves in front of the first of them. Booleans and pointers are not
 * followed: two calls answering "no" need not be one answer passed on. */
static void origins_first(ttd_suspect *s, size_t n)
{
    for (size_t i = 0; i < n && s[i].value_differs; i++) {
        size_t origin = i;
        if (!distinctive(s[i].bad_value))
            continue;
        for (size_t j = i + 1; j < n && s[j].value_differs; j++)
            if (strcmp(s[j].bad_value, s[i].bad_value) == 0 &&
                strcmp(s[j].good_value, s[i].good_value) == 0)
                origin = j;
        if (origin == i)
            continue;
        ttd_suspect x = s[origin];
        memmove(&s[i + 1], &s[i], (origin - i) * sizeof *s);
        s[i] = x;
    }
}

#define SUSPECT_EXTRA 32 /* candidates looked at beyond those shown */

/* Rank the suspects of a split from the common events before it (b->ring,
 * bad run): every call that returned there at the diverging frame's depth
 * or deeper (its earlier siblings, their callees, its own callees), before
 * the walk back leaves the diverging frame's caller, nearest return first,
 * each function once. The diverging frame itself comes second: the call
 * that returned right before the split most often made the decision its
 * caller then acts on (a validator saying no, a lookup finding nothing),
 * and the diverging frame is where that answer was read. With values
 * (unless --no-values) the list is then re-ranked: a call that returned
 * another value than in the good run goes first, trivial leaves and lock
 * wrappers last (judge()). */
int ttdi_suspects(ttd_diff *d, const ttdi_ipair *p, const ttdi_pass_spec *b,
                  ttd_divergence *dv)
{
    size_t want = d->o.suspects, n = 0, depth = dv->nstack;
    size_t cap = d->o.no_values ? want : want + SUSPECT_EXTRA;
    uint64_t have = b->nring < b->ringcap ? b->nring : b->ringcap;
    int frame = depth > 0;

    if (!want || !b->ring)
        return 0;
    ttd_suspect *s = ttfi_arena_zalloc(&d->arena, (cap + 1) * sizeof *s);
    if (!s)
        return TT_ENOMEM;
    for (uint64_t i = 0; i < have && n < cap; i++) {
        const ttdi_sus_ev *e = &b->ring[(b->nring - 1 - i) % b->ringcap];
        if (depth && e->nstack + 1 < depth)
            break; /* before the diverging frame's caller began */
        if (e->kind != TTF_EV_EXIT || e->nstack < depth || !e->name ||
            listed(s, n, e->name))
            continue;
        ttd_suspect *x = &s[n++];
        x->name = e->name;
        ttdi_norm_locate(&d->r[TTD_BAD].norm, e->addr, e->site, e->time_ns,
                         &x->file, &x->line);
        x->role = TTD_SUSPECT_RETURNED;
        x->index = e->idx;
        x->distance = dv->bad_index - 1 - e->idx;
        x->depth = (int)(e->nstack - (depth ? depth : 1));
        judge(d, p, e, x);
        if (frame && n < cap) {
            add_frame(dv, s, &n);
            frame = 0;
        }
    }
    if (frame && n < cap)
        add_frame(dv, s, &n);
    rank(s, n);
    origins_first(s, n);
    dv->suspects = s;
    dv->nsuspects = n < want ? n : want;
    return 0;
}

