/*
 * suspects.c - the calls that may be behind a divergence, from the ring of
 * common events a pass keeps before the split, each with its evidence
 * (evidence.c: the diverging frame, position, a differing return value,
 * triviality) and ranked by score. Without values, the ring also shows
 * the calls that returned one after the other right before the split, the
 * line an answer takes up to the branch: the deepest that returned a
 * yes/no or status answer gets answer_used evidence (answer_evidence).
 * The first divergence's are ranked again by the explain stage
 * (explain.c), which adds the cause chain's evidence.
 * Stage 2 resolve of diff/STAGES (its header: resolve.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codediff.h"
#include "resolve.h"

static int listed(const ttd_suspect *s, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(s[i].name, name) == 0)
            return 1;
    return 0;
}

static int add_frame(const ttdi_in *in, const ttd_divergence *dv, ttd_suspect *s, size_t *n)
{
    const ttd_frame *f = &dv->frames[dv->nframes - 1]; /* inlined or not */

    if (listed(s, *n, f->name))
        return 0;
    memset(&s[*n], 0, sizeof s[*n]);
    s[*n].name = f->name;
    s[*n].file = f->file;
    s[*n].line = f->line;
    s[*n].role = TTD_SUSPECT_FRAME;
    s[*n].index = dv->bad_index;
    s[*n].pair = dv->pair;
    (*n)++;
    return ttdi_evid_add(in->arena, &s[*n - 1], TTD_EV_FRAME, TTDI_W_FRAME,
                         "the diverging frame: its calls differ here");
}

/* A call whose return value differs from the good run's (vd): both
 * values as text. */
static void value_differs(const ttdi_in *in, const ttdi_vdiff *vd, ttd_suspect *x)
{
    char v[64];
    uint64_t raw;

    x->value_differs = 1;
    x->trivial = 0;
    ttf_value_ret(vd->sig, &vd->ev[0], &raw);
    ttf_value_format(v, sizeof v, raw, &vd->sig->ret);
    x->good_value = ttfi_arena_strcpy(in->arena, v);
    ttf_value_ret(vd->sig, &vd->ev[1], &raw);
    ttf_value_format(v, sizeof v, raw, &vd->sig->ret);
    x->bad_value = ttfi_arena_strcpy(in->arena, v);
}

/* Evidence about a call that returned before the split: did it return
 * another value than in the good run (the pair's value walk says; noise
 * by its look counts against), and is it a lock wrapper, or a leaf that
 * returned void or the same value? Values take no part with --no-values. */
static int judge(const ttdi_in *in, const ttdi_ipair *p, const ttdi_sus_ev *e,
                 ttd_suspect *x)
{
    const ttf_signature *sig;
    ttf_event ev;

    x->trivial = ttdi_lock_wrapper(x->name);
    const ttdi_vdiff *vd = in->values && !in->o->no_values && ttdi_clone_name(x->name) < 2
                             ? ttdi_vfound_ret(&p->vf, e->idx) : NULL;
    if (vd) {
        value_differs(in, vd, x);
        uint64_t rg, rb;
        ttf_value_ret(vd->sig, &vd->ev[0], &rg);
        ttf_value_ret(vd->sig, &vd->ev[1], &rb);
        int why = ttdi_value_noise(&vd->sig->ret, rg, rb, x->name, 1);
        if (why)
            return ttdi_evid_add(in->arena, x, TTD_EV_NOISE, TTDI_W_NOISE,
                                 "returned %s in the bad run, %s in the good run, "
                                 "but %s", x->bad_value, x->good_value,
                                 ttdi_noise_words(why));
        return ttdi_evid_add(in->arena, x, TTD_EV_VALUE, TTDI_W_VALUE,
                             "returned %s in the bad run, %s in the good run",
                             x->bad_value, x->good_value);
    }
    memset(&ev, 0, sizeof ev);
    ev.kind = TTF_EV_EXIT;
    ev.addr = e->addr;
    ev.time_ns = e->time_ns;
    if (!x->trivial && e->leaf && !e->site && !in->o->no_values &&
        ttf_sym_signature(in->r[TTD_BAD].norm.sym, &ev, &sig) == 0 &&
        (sig->ret.cls == TTF_VC_VOID ||
         (in->values && e->has_values && ttf_value_comparable(&sig->ret))))
        x->trivial = 1;
    if (x->trivial)
        return ttdi_evid_add(in->arena, x, TTD_EV_TRIVIAL, TTDI_W_TRIVIAL, "%s",
                             ttdi_lock_wrapper(x->name) ? "a lock wrapper"
                             : "a leaf that returned the same value (or nothing)");
    return 0;
}

/* Position, the weak tie-breaker: 1 / (1 + events between). */
static int distance(const ttdi_in *in, ttd_suspect *x)
{
    if (x->distance == 0)
        return ttdi_evid_add(in->arena, x, TTD_EV_DISTANCE, 1.0,
                             "returned right before the split");
    return ttdi_evid_add(in->arena, x, TTD_EV_DISTANCE, 1.0 / (1.0 + (double)x->distance),
                         "returned %llu events before the split",
                         (unsigned long long)x->distance + 1);
}

/* ---- the answer the split's branch used (plain mode) ------------------------ */

#define ANSWER_DEPTH 32 /* calls followed down from the split's frame */

/* The ring's event i places back from the last (NULL past the ring). */
static const ttdi_sus_ev *ring_at(const ttdi_pass_spec *b, uint64_t i)
{
    uint64_t have = b->nring < b->ringcap ? b->nring : b->ringcap;

    return i < have ? &b->ring[(b->nring - 1 - i) % b->ringcap] : NULL;
}

/* From ring position *i back, the last call a frame with `open` frames
 * open completed: past anything that is no call (a message), and past
 * lock wrappers (a lock takes no decision: the call before it made the
 * answer) and their callees, counted in *locks. Its EXIT, with *i at it;
 * NULL when the frame's last event is its own ENTER (it called nothing
 * before), or the ring ends. */
static const ttdi_sus_ev *last_callee(const ttdi_pass_spec *b, uint64_t *i, size_t open,
                                      int *locks)
{
    for (const ttdi_sus_ev *e; (e = ring_at(b, *i)); (*i)++) {
        if (e->kind != TTF_EV_ENTER && e->kind != TTF_EV_EXIT)
            continue;
        if (e->kind != TTF_EV_EXIT || e->nstack != open + 1 || !e->name || e->site)
            return NULL;
        if (!ttdi_lock_wrapper(e->name))
            return e;
        (*locks)++;
        while ((e = ring_at(b, ++*i)) && !(e->kind == TTF_EV_ENTER && e->nstack == open))
            ;
        if (!e)
            return NULL;
    }
    return NULL;
}

/* The class of a call's declared return type: 2 an answer by its type
 * (bool, an enumeration: yes/no, a status), 1 a signed integer (C's
 * yes/no and error codes, but also counts and sums), 0 nothing (void:
 * what it answered, it left in memory), -1 a number or unknown (an
 * unsigned integer, a pointer, a float: a size, a checksum, an object,
 * which its caller compared; no debug info). Its type's name in *ty. */
static int answer_type(const ttdi_in *in, const ttdi_sus_ev *e, const char **ty)
{
    const ttf_signature *sig;
    ttf_event ev;

    memset(&ev, 0, sizeof ev);
    ev.kind = TTF_EV_EXIT;
    ev.addr = e->addr;
    ev.time_ns = e->time_ns;
    if (ttf_sym_signature(in->r[TTD_BAD].norm.sym, &ev, &sig) != 0)
        return -1;
    *ty = sig->ret.name ? sig->ret.name : "";
    switch (sig->ret.cls) {
    case TTF_VC_BOOL:
    case TTF_VC_ENUM: return 2;
    case TTF_VC_SIGNED: return 1;
    case TTF_VC_VOID: return 0;
    default: return -1;
    }
}

/* Plain mode (no values to follow): the call whose answer the split's
 * branch most likely used. A frame whose calls part right after a call
 * returned branched on what that call answered: it computed nothing in
 * between that the trace shows. That call in turn answered right after
 * its own last callee returned, and so on down: the calls that returned
 * one after the other just before the split, each the last callee of the
 * one above (lock wrappers passed over at each level). Down that line,
 * an answer comes from the deepest call that returned one: the calls
 * above it made no call after it, and pass it up or map it (ok to an
 * error token); a void call passes it through memory. A call that
 * returned a number (unsigned, pointer, float) ends the line: its caller
 * compared that number (a checksum with the stored one), and the
 * decision is the caller's, not the number's producer's. A signed
 * integer is an answer only when the line shows it as one: a bool or an
 * enum is one by its type, but an int alone may be a count the frame
 * went on with (a loop's accumulator, a sum) while its branch tested
 * something else; an int passed up by a caller that returns a signed
 * integer, a bool or an enum right after it (`return in_range(q, 1,
 * 10);`) is the shape of an answer. The chosen call, when it is not the
 * frame, gets TTD_EV_ANSWER, which ranks it above the frame (the frame's
 * branch only acted on its answer); the calls between are named in its
 * evidence. */
static int answer_evidence(const ttdi_in *in, const ttdi_pass_spec *b, const ttd_divergence *dv,
                           ttd_suspect *s, size_t n)
{
    const ttdi_sus_ev *line[ANSWER_DEPTH], *pick = NULL;
    const char *ty = "", *pty = "";
    size_t k = 0, at = 0;
    uint64_t i = 0;
    int locks = 0, below = 0; /* lock calls passed over: after the first, below it */
    int cls = 0, answers = 0; /* the pick's class; calls on the line that answer */

    if (in->values || !dv->nstack)
        return 0;
    for (const ttdi_sus_ev *e = last_callee(b, &i, dv->nstack, &locks); e && k < ANSWER_DEPTH;
         e = last_callee(b, &i, e->nstack, &below)) {
        int c = answer_type(in, e, &ty);
        if (c < 0)
            break;
        line[k++] = e;
        if (c > 0) {
            pick = e;
            pty = ty;
            at = k - 1;
            cls = c;
            answers++;
        }
        i++;
    }
    if (!pick || (cls < 2 && answers < 2))
        return 0;   /* no answer, or one int alone */
    ttd_suspect *x = NULL;
    for (size_t j = 0; j < n && !x; j++)
        if (strcmp(s[j].name, pick->name) == 0)
            x = &s[j];
    if (!x || x->role != TTD_SUSPECT_RETURNED)
        return 0;   /* the frame itself (recursion), or out of sight */
    char via[256] = "";
    size_t o = 0;
    for (size_t j = at; j-- > 0 && o < sizeof via;)
        o += (size_t)snprintf(via + o, sizeof via - o, "%s`%s`", o ? ", " : "", line[j]->name);
    const char *f = dv->stack[dv->nstack - 1].name;
    const char *lk = locks ? " (only lock calls between)" : "";
    if (at)
        return ttdi_evid_add(in->arena, x, TTD_EV_ANSWER, TTDI_W_ANSWER, "its answer (%s) "
                             "went up through %s, each returning right after it, to `%s`, "
                             "whose calls part next%s: the branch most likely used it (values "
                             "not recorded)", pty, via, f, lk);
    return ttdi_evid_add(in->arena, x, TTD_EV_ANSWER, TTDI_W_ANSWER, "`%s`'s calls part right "
                         "after it returned its answer (%s)%s: the branch most likely used it "
                         "(values not recorded)", f, pty, lk);
}

#define SUSPECT_EXTRA 32 /* candidates looked at beyond those shown */
#define SUSPECT_CHANGED 4 /* changed functions looked for past those */

/* Is e a candidate? The nearest cap calls are; past them (two builds),
 * a call of a function whose machine code changed still is, up to
 * SUSPECT_CHANGED more: the code that changed and ran before the split
 * is the strongest clue in a regression (the explain stage weighs it,
 * code_changed), however many calls came after it. */
static int candidate(const ttdi_in *in, const ttdi_sus_ev *e, size_t n, size_t cap)
{
    if (n < cap)
        return 1;
    return n < cap + SUSPECT_CHANGED && in->cd && ttdi_codediff_changed(in->cd, e->name) == 1;
}

/* The suspects of a split from the common events before it (b->ring, bad
 * run): every call that returned there at the diverging frame's depth or
 * deeper (its earlier siblings, their callees, its own callees), before
 * the walk back leaves the diverging frame's caller, each function once
 * (its return nearest the split), and the diverging frame itself; each
 * with its evidence (evidence.c), ranked by score. A call ranks above the
 * frame only on evidence (a differing return value); its position alone
 * is a tie-breaker. The array holds every candidate, ranked, and ends with
 * one whose name is NULL; nsuspects of them are shown (the explain stage
 * adds evidence to all of them and ranks again). */
int ttdi_suspects(const ttdi_in *in, const ttdi_ipair *p, const ttdi_pass_spec *b,
                 ttd_divergence *dv)
{
    size_t want = in->o->suspects, n = 0, depth = dv->nstack;
    size_t cap = want + SUSPECT_EXTRA;
    uint64_t have = b->nring < b->ringcap ? b->nring : b->ringcap;
    int rc = 0;

    if (!want || !b->ring)
        return 0;
    ttd_suspect *s = ttfi_arena_zalloc(in->arena, (cap + SUSPECT_CHANGED + 1) * sizeof *s);
    if (!s)
        return TT_ENOMEM;
    if (depth && (rc = add_frame(in, dv, s, &n)) < 0)
        return rc;
    for (uint64_t i = 0; i < have && n < cap + SUSPECT_CHANGED && rc >= 0; i++) {
        const ttdi_sus_ev *e = &b->ring[(b->nring - 1 - i) % b->ringcap];
        if (depth && e->nstack + 1 < depth)
            break; /* before the diverging frame's caller began */
        if (e->kind != TTF_EV_EXIT || e->nstack < depth || !e->name ||
            listed(s, n, e->name) || !candidate(in, e, n, cap))
            continue;
        ttd_suspect *x = &s[n++];
        x->name = e->name;
        ttdi_norm_locate(&in->r[TTD_BAD].norm, e->addr, e->site, e->time_ns,
                         &x->file, &x->line);
        x->role = TTD_SUSPECT_RETURNED;
        x->index = e->idx;
        x->pair = dv->pair;
        x->distance = dv->bad_index - 1 - e->idx;
        x->depth = (int)(e->nstack - (depth ? depth : 1));
        if ((rc = distance(in, x)) >= 0)
            rc = judge(in, p, e, x);
    }
    if (rc >= 0)
        rc = answer_evidence(in, b, dv, s, n);
    if (rc < 0)
        return rc;
    if (ttdi_suspects_rank(in->arena, s, n) < 0)
        return TT_ENOMEM;
    dv->suspects = s;
    dv->nsuspects = n < want ? n : want;
    return 0;
}
