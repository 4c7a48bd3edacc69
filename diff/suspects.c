/*
 * suspects.c - the calls most likely behind a divergence, ranked from the
 * ring of common events a pass keeps before the split.
 */
#include <string.h>

#include "engine_int.h"

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
    s[*n] = (ttd_suspect){f->name, f->file, f->line, TTD_SUSPECT_FRAME,
                          dv->bad_index, 0, 0};
    (*n)++;
}

/* Rank the suspects of a split from the common events before it (b->ring,
 * bad run): every call that returned there at the diverging frame's depth
 * or deeper (its earlier siblings, their callees, its own callees), before
 * the walk back leaves the diverging frame's caller, nearest return first,
 * each function once. The diverging frame itself comes second: the call
 * that returned right before the split most often made the decision its
 * caller then acts on (a validator saying no, a lookup finding nothing),
 * and the diverging frame is where that answer was read. */
int ttd_suspects(ttd_diff *d, const ttd_pass_spec *b, ttd_divergence *dv)
{
    size_t want = d->o.suspects, n = 0, depth = dv->nstack;
    uint64_t have = b->nring < b->ringcap ? b->nring : b->ringcap;
    int frame = depth > 0;

    if (!want || !b->ring)
        return 0;
    ttd_suspect *s = ttfi_arena_zalloc(&d->arena, (want + 1) * sizeof *s);
    if (!s)
        return TT_ENOMEM;
    for (uint64_t i = 0; i < have && n < want; i++) {
        const ttd_sus_ev *e = &b->ring[(b->nring - 1 - i) % b->ringcap];
        if (depth && e->nstack + 1 < depth)
            break; /* before the diverging frame's caller began */
        if (e->kind != TTF_EV_EXIT || e->nstack < depth || !e->name ||
            listed(s, n, e->name))
            continue;
        ttd_suspect *x = &s[n++];
        x->name = e->name;
        ttd_locate(d, e->addr, e->site, e->time_ns, &x->file, &x->line);
        x->role = TTD_SUSPECT_RETURNED;
        x->index = e->idx;
        x->distance = dv->bad_index - 1 - e->idx;
        x->depth = (int)(e->nstack - (depth ? depth : 1));
        if (frame && n < want) {
            add_frame(dv, s, &n);
            frame = 0;
        }
    }
    if (frame && n < want)
        add_frame(dv, s, &n);
    dv->suspects = s;
    dv->nsuspects = n;
    return 0;
}

