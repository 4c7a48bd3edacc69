/*
 * verdict.c - the verdict (issues 31, 33): what the runs did, the likely
 * cause, the evidence for it in a sentence or two, how sure, and the
 * symptom (where the calls part). Every report opens with it.
 *
 * Design. The verdict is made once, last, from what the stages below
 * found, all of it already merged into the result: the first divergence
 * and its suspects, the cause chain, the races of the bad run, the code
 * changed between builds, the outcome. It reads the result and writes
 * nothing but its own object (arena memory), which the engine hangs on
 * the result as const: no renderer decides anything about the cause,
 * each only words what is here (report/verdict.c builds the sentences
 * every format prints). The status and exit status follow the engine's
 * one decision whether the runs diverged (engine.c verdict()). The
 * cause is the suspect ranked first by evidence (the cause chain's
 * evidence is in that ranking), else the chain's earliest step, else the
 * split itself; with two builds, code changed out of the chain's sight
 * comes before a bare split: the only changed function, or the one
 * changed source (codediff's source comparison: functions whose machine
 * code changed with the same source only carry it), then the threads'
 * order when it alone differs where the split read (ordercause.c; or the
 * function whose two critical sections the other thread's came between,
 * an atomicity violation behind that order), a
 * race on a flag (flagrace.c), a call of another thread the split's
 * read fell inside (overlap.c); a hang comes first (hang.c), then the
 * thread a wait that never ended waited for (waker.c); a lost wake-up
 * whose signal came inside the waiter's critical section names the
 * signaller, kind race (it signalled without the lock); a wait that ran
 * its full time in the bad run only, the other thread's call that woke
 * it in the good run having come while the waiter was busy in a call,
 * names that call (waker.c ttdi_wakewin_find); last, another thread's
 * block of calls that ran between the split frame's earlier call and the
 * split in one run only (moved.c: the same calls at another time); the
 * symptom is the first divergence, or the exit status when the runs made
 * the same calls. Confidence is "likely" only where two independent
 * pieces of evidence agree on the cause itself (confidence() below; make
 * realbugs measures it), "possible" otherwise.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "codediff.h"
#include "explain.h"

const char *ttd_verdict_status_name(int status)
{
    switch (status) {
    case TTD_VERDICT_SAME: return "same";
    case TTD_VERDICT_NONDET: return "nondeterministic";
    case TTD_VERDICT_DIVERGED: return "diverged";
    case TTD_VERDICT_OUTCOME: return "outcome_differs";
    default: return "?";
    }
}

const char *ttd_cause_of_name(int kind)
{
    switch (kind) {
    case TTD_COF_COUNT: return "count";
    case TTD_COF_VALUE: return "value";
    case TTD_COF_ERROR_ORIGIN: return "error_origin";
    case TTD_COF_RACE: return "race";
    case TTD_COF_ORDER: return "order";
    case TTD_COF_CODE: return "code_changed";
    case TTD_COF_SPLIT: return "split";
    case TTD_COF_DEADLOCK: return "deadlock";
    case TTD_COF_HANG: return "hang";
    case TTD_COF_ANSWER: return "answer";
    case TTD_COF_WRITTEN: return "written";
    default: return "?";
    }
}

const char *ttd_confidence_name(int confidence)
{
    switch (confidence) {
    case TTD_CONF_UNKNOWN: return "unknown";
    case TTD_CONF_POSSIBLE: return "possible";
    case TTD_CONF_LIKELY: return "likely";
    default: return "?";
    }
}

/* A verdict being built. */
typedef struct vctx {
    const ttd_result *r;
    const struct ttdi_codediff *cd; /* code changed between the builds, NULL */
    struct ttfi_arena *a;
    ttd_verdict *v;
    const char *ev[TTD_VERDICT_EVIDENCE_MAX];
    size_t nev;
    int only_change;    /* the cause is the only function whose code changed */
    int flag;           /* the cause is a race on a flag (flagrace.c) */
    const ttdi_in *in;  /* the runs, NULL */
    int oom;
} vctx;

static const char *astr(vctx *c, const char *s)
{
    char *p = s ? ttfi_arena_strcpy(c->a, s) : NULL;
    if (s && !p)
        c->oom = 1;
    return p;
}

static ttd_place *place(vctx *c)
{
    ttd_place *p = ttfi_arena_zalloc(c->a, sizeof *p);
    if (!p) {
        c->oom = 1;
        return NULL;
    }
    p->pair = -1;
    p->bad_index = UINT64_MAX;
    return p;
}

/* The bad run's name of pair i's thread ("#N" when it has none). */
static const char *thread_name(vctx *c, size_t i)
{
    char buf[32];
    const ttd_thread_info *t;

    if (i >= c->r->npairs)
        return NULL;
    t = &c->r->pairs[i].bad;
    if (t->name && *t->name)
        return t->name;
    snprintf(buf, sizeof buf, "#%" PRIu32, t->index);
    return astr(c, buf);
}

/* Name n of pair i's thread in a sentence: n, "#3 app" when another
 * pair's thread has that name too (issue 33 item 4: two threads of one
 * name are told apart, as ttdi_thread_label does over a run's threads),
 * n as it is when it is already a number ("#3"). */
static const char *label_text(vctx *c, size_t i, const char *n)
{
    char buf[96];

    if (!n || *n == '#' || i >= c->r->npairs)
        return n;
    for (size_t j = 0; j < c->r->npairs; j++) {
        const char *m = c->r->pairs[j].bad.name;
        if (j == i || !m || strcmp(m, n) != 0)
            continue;
        snprintf(buf, sizeof buf, "#%" PRIu32 " %s", c->r->pairs[i].bad.index, n);
        return astr(c, buf);
    }
    return n;
}

static const char *thread_text(vctx *c, size_t i)
{
    return label_text(c, i, thread_name(c, i));
}

/* The place the verdict names, with its label (ttd_place.label): what
 * the renderers print, so the sentences here and the report's say one
 * thing. A copy: the places are built const. */
static const ttd_place *labelled(vctx *c, const ttd_place *cp)
{
    ttd_place *p;

    if (!cp || !cp->thread || cp->label || !(p = place(c)))
        return cp;
    *p = *cp;
    p->label = p->pair < 0 ? p->thread : label_text(c, (size_t)p->pair, p->thread);
    return p;
}

static void add_evidence(vctx *c, const char *text)
{
    for (size_t i = 0; i < c->nev; i++)
        if (strcmp(c->ev[i], text) == 0)
            return;
    if (text && *text && c->nev < TTD_VERDICT_EVIDENCE_MAX)
        c->ev[c->nev++] = text;
}

/* The symptom: the first divergence's diverging frame, else the end. */
static const ttd_place *symptom(vctx *c)
{
    const ttd_result *r = c->r;
    const ttd_divergence *d = r->first;
    ttd_place *p = place(c);
    char buf[256];

    if (!p)
        return NULL;
    if (d) {
        const ttd_frame *f = d->nframes ? &d->frames[d->nframes - 1]
                             : d->nstack ? &d->stack[d->nstack - 1] : NULL;
        p->function = f ? f->name : "";
        p->file = f ? f->file : NULL;
        p->line = f ? f->line : 0;
        p->pair = (int64_t)d->pair;
        p->thread = thread_name(c, d->pair);
        p->bad_index = d->bad_index;
        if (d->nchain && d->chain[d->nchain - 1].kind == TTD_CAUSE_SPLIT)
            p->text = d->chain[d->nchain - 1].text;
        else {
            snprintf(buf, sizeof buf, "the calls part in `%s`", *p->function ? p->function : "?");
            p->text = astr(c, buf);
        }
        return p;
    }
    if (r->value_first) {
        const ttd_value_diff *vf = r->value_first;
        p->function = vf->function;
        p->file = vf->file;
        p->line = vf->line;
        p->pair = (int64_t)vf->pair;
        p->thread = thread_name(c, vf->pair);
        p->bad_index = vf->bad_index;
        snprintf(buf, sizeof buf, "`%s` %s %s in the bad run, %s in the good run",
                 vf->function, vf->what == TTD_VAL_RETURN ? "returned" : "got",
                 vf->bad_value ? vf->bad_value : "?", vf->good_value ? vf->good_value : "?");
        p->text = astr(c, buf);
        return p;
    }
    p->function = "";
    if (r->outcome.signal[TTD_BAD])
        snprintf(buf, sizeof buf, "the bad run died of signal %d, the good run exited %d",
                 r->outcome.signal[TTD_BAD], r->outcome.exit_status[TTD_GOOD]);
    else if (r->outcome.differs && !r->outcome.has_exit[TTD_BAD])
        snprintf(buf, sizeof buf, "the bad run recorded no end (killed by a signal it could "
                 "not catch, or cut), the good run exited %d", r->outcome.exit_status[TTD_GOOD]);
    else if (r->outcome.differs && !r->outcome.has_exit[TTD_GOOD])
        snprintf(buf, sizeof buf, "the bad run exited %d, the good run recorded no end",
                 r->outcome.exit_status[TTD_BAD]);
    else if (r->outcome.differs)
        snprintf(buf, sizeof buf, "the bad run exited %d, the good run %d",
                 r->outcome.exit_status[TTD_BAD], r->outcome.exit_status[TTD_GOOD]);
    else
        snprintf(buf, sizeof buf, "the bad run failed (%s)",
                 r->options.bad_failed ? r->options.bad_failed : "?");
    p->text = astr(c, buf);
    return p;
}

/* Suspect s's evidence of kind k, NULL if none. */
static const ttd_evidence *evidence_of(const ttd_suspect *s, int k)
{
    for (size_t i = 0; i < s->nevidence; i++)
        if (s->evidence[i].kind == k && s->evidence[i].weight > 0)
            return &s->evidence[i];
    return NULL;
}

/* 1: suspect s turned ordinary results into a failure (the error
 * origin), not a yes/no answer that flipped. */
static int error_origin(const ttd_suspect *s)
{
    const ttd_evidence *e = evidence_of(s, TTD_EV_ERROR);
    return e && !strstr(e->text, "yes/no");
}

/* The kind of cause a suspect is: code changed, the error origin, the
 * writer of what a later reader read, a value on the chain, the answer the split's branch came right after (plain
 * mode), else the split's own branch. */
static int suspect_kind(const ttd_suspect *s)
{
    if (evidence_of(s, TTD_EV_CODE))
        return TTD_COF_CODE;
    if (error_origin(s) || evidence_of(s, TTD_EV_INLINED))
        return TTD_COF_ERROR_ORIGIN;    /* or the code inlined into it */
    if (evidence_of(s, TTD_EV_WRITTEN))
        return TTD_COF_WRITTEN;         /* wrote what a later reader read */
    if (evidence_of(s, TTD_EV_VALUE) || evidence_of(s, TTD_EV_CHAIN) ||
        evidence_of(s, TTD_EV_ARG_ORIGIN) || evidence_of(s, TTD_EV_ERROR))
        return TTD_COF_VALUE;
    if (evidence_of(s, TTD_EV_ANSWER))
        return TTD_COF_ANSWER;
    return TTD_COF_SPLIT;
}

/* 1 if the first suspect of d is all the split gives: the split's own
 * branch, or (plain mode) the call whose answer it came right after,
 * which no value confirms. Then the verdict's other evidence (a race,
 * code changed out of sight, the threads' order, a flag, a count) comes
 * first, as it did before that answer was named. */
/* 1 if suspect s only returned another value near the split, and no
 * step of the cause chain links that value to the split (values
 * recorded: the chain followed the values the split's frame saw, and
 * this was none of them): an earlier difference the evidence does not tie
 * to the split, which names no cause (issue 33: an unrelated earlier
 * difference is not blamed); the split counts as bare then. */
static int off_chain(const ttd_result *r, const ttd_suspect *s)
{
    return r->values && s->role != TTD_SUSPECT_FRAME && suspect_kind(s) == TTD_COF_VALUE &&
           !evidence_of(s, TTD_EV_CHAIN) && !evidence_of(s, TTD_EV_ARG_ORIGIN) &&
           !evidence_of(s, TTD_EV_ERROR);
}

static int bare_split(const ttd_result *r, const ttd_divergence *d)
{
    int k = d && d->nsuspects ? suspect_kind(&d->suspects[0]) : TTD_COF_SPLIT;

    return k == TTD_COF_SPLIT || k == TTD_COF_ANSWER || (d && d->nsuspects &&
                                                         off_chain(r, &d->suspects[0]));
}

/* The cause chain's step of function f, NULL if none. */
static const ttd_cause *chain_step(const ttd_result *r, const char *f)
{
    for (size_t i = 0; f && i < r->nchain; i++)
        if (r->chain[i].function && strcmp(r->chain[i].function, f) == 0)
            return &r->chain[i];
    return NULL;
}

/* The cause from the first divergence's suspect ranked first. */
static const ttd_place *cause_suspect(vctx *c, const ttd_suspect *s)
{
    const ttd_result *r = c->r;
    const ttd_cause *st = chain_step(r, s->name);
    ttd_place *p = place(c);

    if (!p)
        return NULL;
    p->kind = suspect_kind(s);
    p->function = s->name;
    p->file = s->file;
    p->line = s->line;
    /* the chain's step says where (a suspect of one name may have been
       found first in another thread) */
    p->pair = (int64_t)(st ? st->pair : s->pair);
    p->thread = thread_name(c, st ? st->pair : s->pair);
    p->bad_index = st ? st->bad_index : s->index;
    p->text = st ? st->text : s->nevidence ? s->evidence[0].text : NULL;
    /* the split's own branch: where in the frame each run went (the
     * deciding line) says more than the symptom's sentence again */
    if (p->kind == TTD_COF_SPLIT && r->first && r->first->lines && r->first->lines->text &&
        r->first->lines->function && strcmp(r->first->lines->function, s->name) == 0)
        p->text = r->first->lines->text;
    for (size_t i = 0; i < s->nevidence && c->nev < TTD_VERDICT_EVIDENCE_MAX; i++)
        if (s->evidence[i].weight > 0 && s->evidence[i].kind != TTD_EV_DISTANCE)
            add_evidence(c, s->evidence[i].text);
    /* code inlined into a call on the chain: that call's answer */
    const ttd_cause *host = s->inlined_into ? chain_step(r, s->inlined_into) : NULL;
    if (host && host->text)
        add_evidence(c, host->text);
    if (!p->text)
        p->text = c->nev ? c->ev[0] : "";
    /* the branch read a value no input decides, and nothing else that
     * differs: that value decided (issue 31 item 3) */
    if (r->nchain && r->chain[0].nondet && r->first && r->first->nstack &&
        strcmp(r->first->stack[r->first->nstack - 1].name, s->name) == 0) {
        p->text = r->chain[0].text;
        p->decided_by = r->chain[0].nondet;
    }
    return p;
}

/* The cause from the chain's earliest step (no suspects: same calls). */
static const ttd_place *cause_chain(vctx *c, const ttd_cause *st)
{
    ttd_place *p = place(c);

    if (!p)
        return NULL;
    p->kind = st->kind == TTD_CAUSE_CODE ? TTD_COF_CODE
              : st->kind == TTD_CAUSE_SPLIT ? TTD_COF_SPLIT : TTD_COF_VALUE;
    p->function = st->function ? st->function : "";
    p->pair = (int64_t)st->pair;
    p->thread = st->thread;
    p->bad_index = st->bad_index;
    p->text = st->text;
    add_evidence(c, st->text);
    if (c->r->nchain > 1 && st != &c->r->chain[c->r->nchain - 1])
        add_evidence(c, c->r->chain[c->r->nchain - 1].text);
    return p;
}

/* A race that can be the cause: seen only in the bad run (the good runs
 * were walked and never had it), both threads inside the window at once,
 * and reaching the symptom (both acts happened before it in the
 * symptom's thread: it could read what they wrote). The best such, NULL
 * if none. */
static const ttd_race *race_on_path(const ttd_result *r)
{
    for (size_t i = 0; i < r->nraces; i++) {
        const ttd_race *x = &r->races[i];
        if (x->run == TTD_BAD && x->good_compared && !x->seen_in_good && x->overlapped &&
            x->reaches_symptom)
            return x;
    }
    return NULL;
}

/* Does race x explain the first divergence? When its first suspect is
 * only the split's own branch, or the value (an error origin's answer, a
 * value on the chain) that the race's own check returned: that answer
 * came out of the window the other thread was inside (a pool's item with
 * another answer is kept since items are matched by their values:
 * ttdiff_checkact's tickets_left returned -1). The act's answer is not
 * taken: the race names the check, another function. */
static int race_explains(const ttd_result *r, const ttd_race *x, const ttd_divergence *d)
{
    const ttd_suspect *s = d && d->nsuspects ? &d->suspects[0] : NULL;
    int k = s ? suspect_kind(s) : TTD_COF_SPLIT;

    if (bare_split(r, d))
        return 1;
    if ((k != TTD_COF_ERROR_ORIGIN && k != TTD_COF_VALUE && k != TTD_COF_WRITTEN) || !s->name)
        return 0;
    return x->check && !strcmp(s->name, x->check);
}

/* The cause from a race (race_on_path): the unprotected function, or the
 * check of a check-then-act window; its thread the one that went without
 * the lock (the later check). */
static const ttd_place *cause_race(vctx *c, const ttd_race *x)
{
    ttd_place *p = place(c);
    int k = x->kind == TTD_RACE_UNPROTECTED ? x->check_locked != 0 : 1;
    char buf[512];

    if (!p)
        return NULL;
    p->kind = TTD_COF_RACE;
    p->function = x->check;
    p->thread = x->thread_name[k];
    p->pair = x->pair[k];
    p->text = x->text;
    for (size_t i = 0; c->r->first && i < c->r->first->nsuspects; i++)
        if (strcmp(c->r->first->suspects[i].name, x->check) == 0) {
            p->file = c->r->first->suspects[i].file;
            p->line = c->r->first->suspects[i].line;
        }
    snprintf(buf, sizeof buf, "both calls came before the symptom in %s's order (a lock, "
             "condition or join between them): it could read what they wrote",
             c->v->symptom && c->v->symptom->thread ? c->v->symptom->thread : "the failing thread");
    add_evidence(c, astr(c, buf));
    if (x->decided)     /* values: the check, not busy work before the act */
        add_evidence(c, x->decided);
    return p;
}

/* Two builds where one function alone changed (build artifacts aside):
 * that function, NULL otherwise. With the same input the runs part only
 * because of changed code, so when the chain reaches no changed function
 * (it ran earlier, out of the chain's sight: a writer whose output a
 * reader checks), it is still the best explanation. */
static const ttd_code_change *only_change(const ttd_result *r)
{
    const ttd_code_change *one = NULL;

    if (!r->code_compared)
        return NULL;
    for (size_t i = 0; i < r->nchanged_functions; i++) {
        if (r->changed_functions[i].artifact)
            continue;
        if (one)
            return NULL;
        one = &r->changed_functions[i];
    }
    return one;
}

/* The changed function whose source changed, when that is one source
 * (ttdi_codediff_source_one; template instances and clones share it),
 * NULL otherwise. */
static const ttd_code_change *only_source(const vctx *c)
{
    size_t i = c->r->code_compared ? ttdi_codediff_source_one(c->cd) : SIZE_MAX;

    return i < c->r->nchanged_functions ? &c->r->changed_functions[i] : NULL;
}

/* The changed function an inlined callee whose source changed sits in,
 * when that is one source and no out-of-line function's source changed
 * (ttdi_codediff_inlined_one), with *callee its name; NULL otherwise. */
static const ttd_code_change *only_inlined(const vctx *c, const char **callee)
{
    size_t i = c->r->code_compared ? ttdi_codediff_inlined_one(c->cd, callee) : SIZE_MAX;
    const ttd_divergence *d = c->r->first;

    if (i >= c->r->nchanged_functions)
        return NULL;
    /* where it sits: the first suspect that holds it, the one that ran
     * where the runs part, else the first changed function that does */
    for (size_t k = 0; d && k < d->nsuspects; k++) {
        const char *cl = ttdi_codediff_inlined_at(c->cd, d->suspects[k].name);
        for (size_t j = 0; cl && j < c->r->nchanged_functions; j++)
            if (!strcmp(c->r->changed_functions[j].function, d->suspects[k].name)) {
                *callee = cl;   /* its own copy (template instances differ) */
                return &c->r->changed_functions[j];
            }
    }
    return &c->r->changed_functions[i];
}

/* The cause from code changed between the builds when its source change
 * is that of callee, inlined into ch (only_inlined): named by the callee,
 * ch being where it sits; by the callee alone when it is a function of
 * its own too (a build that calls it out of line: its frame is named so
 * in the other run). */
static const ttd_place *cause_inlined(vctx *c, const ttd_code_change *ch, const char *callee,
                                      int only)
{
    ttd_place *p = place(c);
    char buf[768];

    if (!p)
        return NULL;
    c->only_change = only;
    p->kind = TTD_COF_CODE;
    p->function = ch->function;
    p->inlined = callee;
    snprintf(buf, sizeof buf, "`%s`'s source differs between the two builds, the only source "
             "that does; the compiler inlined it into `%s`, whose machine code carries the "
             "change (the other changed functions' code only carries it on)", callee,
             ch->function);
    /* a function of its own in a build (inlined into ch in the other, or
     * only there): named itself, as a frame of its own is */
    if (ttdi_codediff_inlined_own(c->cd, callee)) {
        p->function = callee;
        p->inlined = NULL;
        snprintf(buf, sizeof buf, "`%s`'s source differs between the two builds, the only "
                 "source that does; a function of its own, the compiler inlined it into `%s` "
                 "(in one build at least), whose machine code carries the change", callee,
                 ch->function);
    }
    p->text = astr(c, buf);
    add_evidence(c, "with the same input, only changed code makes the runs part; the "
                    "calls part later, where its effect shows");
    return p;
}

/* The cause from code changed between the builds: ch, the only changed
 * function (source 0), or the only changed source (source 1). */
static const ttd_place *cause_code(vctx *c, const ttd_code_change *ch, int source)
{
    ttd_place *p = place(c);
    char buf[512];

    if (!p)
        return NULL;
    p->kind = TTD_COF_CODE;
    p->function = ch->function;
    c->only_change = !source;
    if (source)
        snprintf(buf, sizeof buf, "`%s`'s source and machine code differ between the two "
                 "builds, the only source that does (the others' code only carries it)",
                 ch->function);
    else
        snprintf(buf, sizeof buf, "`%s`'s machine code %s between the two builds, the only "
                 "function's that does", ch->function, ch->status == TTD_CODE_ADDED ? "is new"
                 : ch->status == TTD_CODE_REMOVED ? "is gone" : "differs");
    p->text = astr(c, buf);
    add_evidence(c, "with the same input, only changed code makes the runs part; the "
                    "calls part later, where its effect shows");
    return p;
}

/* An operation in words: "took", "released", "waited on"... */
static const char *op_verb(int op)
{
    switch (op) {
    case TTF_SOP_LOCK:
    case TTF_SOP_TRYLOCK: return "took";
    case TTF_SOP_UNLOCK: return "released";
    case TTF_SOP_WAIT: return "waited on";
    case TTF_SOP_WOKE: return "woke on";
    default: return "signalled";
    }
}

/* The function operation e is named by: the call that made it past lock
 * wrappers (ttd_xev within: a lock takes no decision, its caller does,
 * under it), else its innermost call. */
static const char *xfn(const ttd_xev *e)
{
    return e->within && *e->within ? e->within : e->func;
}

static ttd_place *race_place(vctx *c, const char *fn, const char *thread, int64_t pair);

/* A lost wake-up's evidence: no signal during the waiter's wait (ts), and
 * the wait's answer passed up (g, values mode; NULL). */
static void lost_evidence(vctx *c, const ttdi_order_cause *o, const ttd_value_diff *g,
                          const char *ts)
{
    char buf[512], val[160] = "";

    if (g)
        snprintf(val, sizeof val, " (`%s` returned %s in the bad run, %s in the good run)",
                 g->function, g->bad_value ? g->bad_value : "?",
                 g->good_value ? g->good_value : "?");
    snprintf(buf, sizeof buf, "nothing signalled %s while thread %s waited in the bad run (%.1f "
             "to %.1f ms): its wait ended without a wake-up%s", o->object, ts ? ts : "?",
             (double)o->self->time_ns / 1e6, (double)o->woke->time_ns / 1e6, val);
    add_evidence(c, astr(c, buf));
}

/* A lost wake-up whose signal came inside the waiter's critical section
 * (ttdi_order_cause.held): the signaller named, kind race. */
static const ttd_place *cause_unlocked(vctx *c, const ttdi_order_cause *o,
                                       const ttd_value_diff *g)
{
    const char *ts = thread_text(c, (size_t)o->self->pair);
    const char *to = thread_text(c, (size_t)o->other->pair);
    ttd_place *p = race_place(c, xfn(o->other), thread_name(c, (size_t)o->other->pair),
                              o->other->pair);
    char buf[768];

    if (!p)
        return NULL;
    snprintf(buf, sizeof buf, "`%s` (thread %s) signalled %s while thread %s held %s (taken in "
             "`%s` at %.3f ms, before its wait on %s at %.3f ms): a signal sent without the "
             "lock the waiter checks under came between its check and its wait and woke nobody "
             "(a lost wake-up)", xfn(o->other), to ? to : "?", o->object, ts ? ts : "?",
             o->held->object, xfn(o->held), (double)o->held->time_ns / 1e6, o->object,
             (double)o->self->time_ns / 1e6);
    p->text = astr(c, buf);
    lost_evidence(c, o, g, ts);
    snprintf(buf, sizeof buf, "thread %s made the same calls in both runs up to the split; in "
             "the good run its signal ended thread %s's wait", to ? to : "?", ts ? ts : "?");
    add_evidence(c, astr(c, buf));
    return p;
}

/* A lost wake-up (ttdi_lost_wakeup_find): the waiter named, the signal
 * sent before its wait in the sentence; g: the wait's answer passed up
 * (values mode), NULL. */
static const ttd_place *cause_lost(vctx *c, const ttdi_order_cause *o, const ttd_value_diff *g)
{
    const char *ts = thread_text(c, (size_t)o->self->pair);
    const char *to = thread_text(c, (size_t)o->other->pair);
    ttd_place *p = place(c);
    char buf[512];

    if (o->held)
        return cause_unlocked(c, o, g);
    if (!p)
        return NULL;
    p->kind = TTD_COF_ORDER;
    p->function = xfn(o->self);
    p->pair = o->self->pair;
    p->thread = thread_name(c, (size_t)o->self->pair);
    snprintf(buf, sizeof buf, "`%s` (thread %s) signalled %s before `%s` (thread %s) waited on "
             "it in the bad run, after it in the good run: the signal woke nobody (a lost "
             "wake-up)", xfn(o->other), to ? to : "?", o->object, xfn(o->self), ts ? ts : "?");
    p->text = astr(c, buf);
    lost_evidence(c, o, g, ts);
    snprintf(buf, sizeof buf, "thread %s made the same calls in both runs up to the split: "
             "only its order with thread %s on %s differs", to ? to : "?", ts ? ts : "?",
             o->object);
    add_evidence(c, astr(c, buf));
    return p;
}

/* The cause from the threads' order (ttdi_order_cause_find): the split
 * thread's function when it went ahead in the bad run, the other
 * thread's when its operation came in between; g: the getter's answer
 * read under the swapped object (ttdi_order_cause_getter), or NULL. */
static const ttd_place *cause_order(vctx *c, const ttdi_order_cause *o, const ttd_value_diff *g)
{
    const ttd_xev *first = o->other_first ? o->other : o->self;
    const ttd_xev *then = o->other_first ? o->self : o->other;
    const char *tf = thread_text(c, (size_t)first->pair), *tt = thread_text(c, (size_t)then->pair);
    ttd_place *p = place(c);
    char buf[512];

    if (!p)
        return NULL;
    p->kind = TTD_COF_ORDER;
    p->function = xfn(first);
    p->pair = first->pair;
    p->thread = thread_name(c, (size_t)first->pair);
    snprintf(buf, sizeof buf, "`%s` (thread %s) %s %s before `%s` (thread %s) did in the bad "
             "run, after it in the good run: %s", xfn(first), tf ? tf : "?",
             op_verb(first->op), o->object, xfn(then), tt ? tt : "?",
             o->other_first ? "the split's thread read what it left there"
                            : "nothing made it wait");
    p->text = astr(c, buf);
    if (g) {    /* the value the split read, first (two sentences at most) */
        snprintf(buf, sizeof buf, "`%s`, called under %s in both runs, returned %s in the bad "
                 "run, %s in the good run: it read what the other thread had or had not left "
                 "there yet", g->function, o->object, g->bad_value ? g->bad_value : "?",
                 g->good_value ? g->good_value : "?");
        add_evidence(c, astr(c, buf));
    }
    snprintf(buf, sizeof buf, "thread %s made the same calls in both runs up to the split: "
             "only its order with thread %s on %s differs",
             thread_text(c, (size_t)o->other->pair), thread_text(c, (size_t)o->self->pair),
             o->object);
    add_evidence(c, astr(c, buf));
    snprintf(buf, sizeof buf, "thread %s's last operation before its calls part was on %s: "
             "what it decided, it read under it", thread_text(c, (size_t)o->self->pair),
             o->object);
    add_evidence(c, astr(c, buf));
    return p;
}

static const ttd_suspect *suspect_named(const ttd_divergence *d, const char *f);

/* A race's cause place: function fn of thread (pair), at fn's place when
 * it is a suspect; no race of races.c's behind it (confidence). */
static ttd_place *race_place(vctx *c, const char *fn, const char *thread, int64_t pair)
{
    ttd_place *p = place(c);

    if (!p)
        return NULL;
    c->flag = 1;
    p->kind = TTD_COF_RACE;
    p->function = fn;
    p->thread = thread;
    p->pair = pair;
    const ttd_suspect *s = suspect_named(c->r->first, fn);
    if (s) {
        p->file = s->file;
        p->line = s->line;
    }
    return p;
}

/* The cause from an atomicity violation behind the threads' order
 * (ttdi_order_atomic): the function whose two critical sections another
 * thread's came between, kind race. */
static const ttd_place *cause_atomic(vctx *c, const ttdi_atomic *at)
{
    const char *tt = thread_text(c, (size_t)at->pair);
    const char *ts = thread_text(c, (size_t)at->split_pair);
    ttd_place *p = race_place(c, at->function, thread_name(c, (size_t)at->pair), at->pair);
    char buf[2048];

    if (!p)
        return NULL;
    snprintf(buf, sizeof buf, "thread %s took %s in `%s` (%.3f ms) and again in `%s` (%.3f ms), "
             "in one call of `%s`; thread %s took it in between (%.3f ms): a check and its act in "
             "two critical sections, another thread's between them (an atomicity violation)",
             tt ? tt : "?", at->object, at->check, (double)at->check_ns / 1e6, at->act,
             (double)at->act_ns / 1e6, at->function, ts ? ts : "?", (double)at->split_ns / 1e6);
    p->text = astr(c, buf);
    snprintf(buf, sizeof buf, "thread %s took %s in `%s`, inside a call of `%s` of its own, and "
             "its calls part after it: it checked before thread %s acted", ts ? ts : "?",
             at->object, at->split_by, at->function, tt ? tt : "?");
    add_evidence(c, astr(c, buf));
    snprintf(buf, sizeof buf, "in the good run both sections of thread %s came before thread "
             "%s took %s, and thread %s was not between two such sections then", tt ? tt : "?",
             ts ? ts : "?", at->object, tt ? tt : "?");
    add_evidence(c, astr(c, buf));
    return p;
}

/* The threads' order as the cause (cause_order), or the atomicity
 * violation behind it when there is one (ttdi_order_atomic). */
static const ttd_place *cause_order_or_atomic(vctx *c, const ttdi_order_cause *o,
                                              const ttd_value_diff *g)
{
    ttdi_atomic at;

    if (c->in && ttdi_order_atomic(c->in, c->r, o, &at) == 1)
        return cause_atomic(c, &at);
    return cause_order(c, o, g);
}

/* ---- a hang (hang.c) --------------------------------------------------------- */

/* How a blocked thread waited: "waited for" mutex#1, "waited on" cond#1
 * or sem#1, "waited to join" thread #2. */
static const char *wait_verb(int op)
{
    return op == TTF_SOP_LOCKING ? "waited for" : op == TTF_SOP_JOINING ? "waited to join"
                                                                         : "waited on";
}

/* "`move_ab` (deadlock.c:40)": where blocked thread b waited. */
static const char *waited_in(char *buf, size_t n, const ttd_blocked *b)
{
    const char *f = b->file ? strrchr(b->file, '/') : NULL;

    if (b->file && b->line)
        snprintf(buf, n, "`%s` (%s:%d)", b->function, f ? f + 1 : b->file, b->line);
    else
        snprintf(buf, n, "`%s`", b->function);
    return buf;
}

/* "the bad run was killed while thread left waited for mutex#2 in
 * `move_ab` (deadlock.c:40) and thread right ...": the blocked threads
 * whose good partner got further (at most 4 named). */
static const char *killed_while(vctx *c, const ttd_hang *h)
{
    char buf[1024], in[256];
    size_t n = 0, named = 0;

    n += (size_t)snprintf(buf, sizeof buf, "the bad run never ended (killed: no clean end) "
                          "while");
    for (size_t k = 0; k < h->nblocked && n < sizeof buf; k++) {
        const ttd_blocked *b = &h->blocked[k];
        if (!b->good_done && k != h->root)
            continue;
        if (named++ == 4) {
            n += (size_t)snprintf(buf + n, sizeof buf - n, " and others");
            break;
        }
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s thread %s %s %s in %s",
                              named > 1 ? " and" : "", b->thread_name,
                              wait_verb(b->op),
                              b->object, waited_in(in, sizeof in, b));
    }
    return astr(c, buf);
}

static ttd_place *hang_place(vctx *c, const ttd_blocked *b, int kind)
{
    ttd_place *p = place(c);

    if (!p)
        return NULL;
    p->kind = kind;
    p->function = b->function;
    p->thread = b->thread_name;
    p->pair = b->pair;
    p->file = b->file;
    p->line = b->line;
    return p;
}

static const ttd_place *cause_deadlock(vctx *c, const ttd_hang *h)
{
    const ttd_blocked *b = &h->blocked[h->root];
    ttd_place *p = hang_place(c, b, TTD_COF_DEADLOCK);
    char buf[1024];
    size_t n = (size_t)snprintf(buf, sizeof buf, "a deadlock:");

    if (!p)
        return NULL;
    for (size_t i = 0, k = h->root; i < h->ncycle && n < sizeof buf; i++) {
        b = &h->blocked[k];
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s thread %s waited for %s in `%s`, "
                              "held by thread %s (taken in `%s`)", i ? ";" : "",
                              b->thread_name, b->object, b->function, b->holder,
                              b->taken_in ? b->taken_in : "?");
        k = (size_t)b->waits_for;
    }
    p->text = astr(c, buf);
    add_evidence(c, killed_while(c, h));
    n = (size_t)snprintf(buf, sizeof buf, "in the good run");
    for (size_t i = 0, k = h->root; i < h->ncycle && n < sizeof buf; i++) {
        b = &h->blocked[k];
        n += (size_t)snprintf(buf + n, sizeof buf - n, "%s thread %s", i ? " and" : "",
                              b->thread_name);
        k = (size_t)b->waits_for;
    }
    if (n < sizeof buf)
        snprintf(buf + n, sizeof buf - n, " got the locks they wait for here (in the bad run "
                 "each holds the lock the next one wants)");
    add_evidence(c, astr(c, buf));
    return p;
}

/* A lost wake-up that hangs, its signal sent inside the waiter's
 * critical section (ttd_hang.unlocked): the signaller named, kind race. */
static const ttd_place *cause_unlocked_hang(vctx *c, const ttd_hang *h)
{
    const ttd_blocked *b = &h->blocked[h->root];
    ttd_place *p = race_place(c, h->other_function, h->other, h->other_pair);
    char buf[768];

    if (!p)
        return NULL;
    snprintf(buf, sizeof buf, "`%s` (thread %s) signalled %s while thread %s held the mutex "
             "of its wait, between its check and its wait on %s in `%s`: a signal sent without "
             "the lock the waiter checks under woke nobody (a lost wake-up) and the wait never "
             "returned", h->other_function, h->other, b->object, b->thread_name, b->object,
             b->function);
    p->text = astr(c, buf);
    add_evidence(c, killed_while(c, h));
    snprintf(buf, sizeof buf, "nothing signalled %s after thread %s began to wait (%.1f ms; "
             "the signal at %.1f ms, while thread %s held the lock); in the good run the same "
             "wait was woken", b->object, b->thread_name, (double)b->time_ns / 1e6,
             (double)h->other_time_ns / 1e6, b->thread_name);
    add_evidence(c, astr(c, buf));
    return p;
}

static const ttd_place *cause_lost_hang(vctx *c, const ttd_hang *h)
{
    const ttd_blocked *b = &h->blocked[h->root];
    ttd_place *p = h->unlocked ? NULL : hang_place(c, b, TTD_COF_ORDER);
    char buf[512];

    if (h->unlocked && h->other_function && h->other)
        return cause_unlocked_hang(c, h);
    if (!p)
        return NULL;
    snprintf(buf, sizeof buf, "`%s` (thread %s) signalled %s before `%s` (thread %s) waited on "
             "it in the bad run: the signal woke nobody (a lost wake-up) and the wait never "
             "returned", h->other_function, h->other, b->object, b->function, b->thread_name);
    p->text = astr(c, buf);
    add_evidence(c, killed_while(c, h));
    snprintf(buf, sizeof buf, "nothing signalled %s after thread %s began to wait (%.1f ms; "
             "the signal at %.1f ms); in the good run the same wait was woken", b->object,
             b->thread_name, (double)b->time_ns / 1e6, (double)h->other_time_ns / 1e6);
    add_evidence(c, astr(c, buf));
    return p;
}

/* What the other side of a wait did last: "thread app's last call in the
 * bad run was `load_input`; it then waited to join thread #1 in `main`". */
static const char *other_did(vctx *c, const ttd_hang *h)
{
    char buf[640], in[256];
    int n;

    if (!h->other)
        return NULL;
    n = snprintf(buf, sizeof buf, "thread %s's last call in the bad run was `%s`", h->other,
                 h->other_last ? h->other_last : "?");
    if (h->other_blocked >= 0 && (size_t)h->other_blocked < h->nblocked) {
        const ttd_blocked *o = &h->blocked[h->other_blocked];
        snprintf(buf + n, sizeof buf - (size_t)n, "; it then %s %s in %s",
                 wait_verb(o->op), o->object, waited_in(in, sizeof in, o));
    } else if (h->other_ended) {
        snprintf(buf + n, sizeof buf - (size_t)n, "; then it ended");
    }
    return astr(c, buf);
}

static const ttd_place *cause_never(vctx *c, const ttd_hang *h)
{
    const ttd_blocked *b = &h->blocked[h->root];
    ttd_place *p = hang_place(c, b, TTD_COF_HANG);
    char buf[640];

    if (!p)
        return NULL;
    if (b->op == TTF_SOP_JOINING)
        snprintf(buf, sizeof buf, "thread %s waited to join %s (%s) in `%s`, which never "
                 "ended", b->thread_name, b->object, h->other ? h->other : "?", b->function);
    else if (b->op == TTF_SOP_LOCKING && b->holder)
        snprintf(buf, sizeof buf, "thread %s waited for %s in `%s`, held by thread %s (taken "
                 "in `%s`), which never released it", b->thread_name, b->object, b->function,
                 b->holder, b->taken_in ? b->taken_in : "?");
    else if (h->other && h->other_function)
        snprintf(buf, sizeof buf, "thread %s waited on %s in `%s` for a %s that never came: "
                 "`%s` (thread %s) %s it in the good run, not in the bad run", b->thread_name,
                 b->object, b->function, b->op == TTF_SOP_SEM_WAITING ? "post" : "signal",
                 h->other_function, h->other,
                 b->op == TTF_SOP_SEM_WAITING ? "posted" : "signalled");
    else
        snprintf(buf, sizeof buf, "thread %s waited %s %s in `%s` for something that never "
                 "came", b->thread_name, b->op == TTF_SOP_LOCKING ? "for" : "on", b->object,
                 b->function);
    p->text = astr(c, buf);
    add_evidence(c, other_did(c, h));
    add_evidence(c, killed_while(c, h));
    return p;
}

/* A lock held across a wait (hang.c held()): named where the holder took
 * the lock, its thread the holder's. */
static const ttd_place *cause_held(vctx *c, const ttd_hang *h)
{
    const ttd_blocked *b = &h->blocked[h->root], *w = &h->blocked[h->waiter];
    ttd_place *p = hang_place(c, b, TTD_COF_HANG);
    char buf[768], in[256];

    if (!p)
        return NULL;
    p->function = w->taken_in;
    p->file = NULL;
    p->line = 0;
    snprintf(buf, sizeof buf, "thread %s took %s in `%s` and then %s %s in %s holding it; "
             "thread %s waited for %s in `%s`: a lock held across a wait that no thread was "
             "left running to end", b->thread_name, w->object, w->taken_in, wait_verb(b->op),
             b->object, waited_in(in, sizeof in, b), w->thread_name, w->object, w->function);
    p->text = astr(c, buf);
    add_evidence(c, killed_while(c, h));
    snprintf(buf, sizeof buf, "in the good run thread %s got the lock it waits for in the "
             "bad run", w->thread_name);
    add_evidence(c, astr(c, buf));
    return p;
}

static const ttd_place *cause_hang(vctx *c, const ttd_hang *h)
{
    switch (h->cause) {
    case TTD_HANG_DEADLOCK: return cause_deadlock(c, h);
    case TTD_HANG_LOST_WAKEUP: return cause_lost_hang(c, h);
    case TTD_HANG_HELD: return cause_held(c, h);
    default: return cause_never(c, h);
    }
}

static size_t with_evidence(const ttd_divergence *d, int k);

/* The cause from a race on a flag (ttdi_flag_race_find): the poller
 * named, the setter in the sentence; g: the poller's answer (values). */
static const ttd_place *cause_flag(vctx *c, const ttdi_flag_race *f, const ttd_value_diff *g)
{
    const char *gl = f->global ? f->global : "a global";
    ttd_place *p = race_place(c, f->poller, f->poller_thread, f->poller_pair);
    char buf[640];

    if (!p)
        return NULL;
    snprintf(buf, sizeof buf, "`%s` (thread %s%s%s) wrote `%s` and `%s` (thread %s%s%s) read it "
             "with no lock held by both and nothing ordering the two calls (no create, join or "
             "signal between them): a race on a flag", f->setter, f->setter_thread,
             f->setter_at ? ", " : "", f->setter_at ? f->setter_at : "", gl, f->poller,
             f->poller_thread, f->poller_at ? ", " : "", f->poller_at ? f->poller_at : "");
    p->text = astr(c, buf);
    if (g)
        snprintf(buf, sizeof buf, "`%s` returned %s in the bad run, %s in the good run: the "
                 "split's branch used its answer", g->function, g->bad_value ? g->bad_value : "?",
                 g->good_value ? g->good_value : "?");
    else
        snprintf(buf, sizeof buf, "`%s` is the last call before the split whose machine code "
                 "reads `%s`; `%s`'s code writes it", f->poller, gl, f->setter);
    add_evidence(c, astr(c, buf));
    if (f->overlapped)
        snprintf(buf, sizeof buf, "in the bad run the two calls overlapped (thread %s and "
                 "thread %s at once)", f->poller_thread, f->setter_thread);
    else
        snprintf(buf, sizeof buf, "in the bad run `%s` returned at %.3f ms and `%s` was called "
                 "at %.3f ms: the %s came first", f->poller, (double)f->poll_ns / 1e6, f->setter,
                 (double)f->set_ns / 1e6, f->setter_after ? "poll" : "set");
    add_evidence(c, astr(c, buf));
    return p;
}

/* The cause from another thread's call in flight over the split
 * (ttdi_overlap_find): that call named, the split's frame in the
 * sentence. */
static const ttd_place *cause_overlap(vctx *c, const ttdi_overlap *o)
{
    char buf[1400], by[160] = "", gl[360], gw[400];
    ttd_place *p = race_place(c, o->window, o->window_thread, o->window_pair);

    if (o->field && o->global) {    /* a field: a may-alias by type */
        snprintf(gl, sizeof gl, "the field at %s (through a pointer)", o->global);
        snprintf(gw, sizeof gw, "the field at %s too (the same type and offset: possibly the "
                 "same object)", o->global);
    } else {
        snprintf(gl, sizeof gl, "`%s`", o->global ? o->global : "a global");
        snprintf(gw, sizeof gw, "%s", gl);
    }

    if (!p)
        return NULL;
    if (o->writer)
        snprintf(by, sizeof by, " (through `%s`, called inside it after the split)", o->writer);
    snprintf(buf, sizeof buf, "`%s` (thread %s) was still running when `%s` (thread %s) read "
             "%s and took the other branch; `%s` writes %s%s, and no lock was held by both: "
             "the read fell inside the other thread's call (a window)", o->window,
             o->window_thread, o->split, o->split_thread, gl, o->window, gw, by);
    p->text = astr(c, buf);
    if (o->exit_ns != UINT64_MAX)
        snprintf(buf, sizeof buf, "in the bad run `%s` ran from %.3f to %.3f ms and the calls "
                 "part at %.3f ms, inside it; in the good run the same call of thread %s was "
                 "not running where they part", o->window, (double)o->enter_ns / 1e6,
                 (double)o->exit_ns / 1e6, (double)o->split_ns / 1e6, o->window_thread);
    else
        snprintf(buf, sizeof buf, "in the bad run `%s` began at %.3f ms and had not returned "
                 "when the calls part at %.3f ms; in the good run the same call of thread %s "
                 "was not running where they part", o->window, (double)o->enter_ns / 1e6,
                 (double)o->split_ns / 1e6, o->window_thread);
    add_evidence(c, astr(c, buf));
    snprintf(buf, sizeof buf, "`%s`'s machine code reads %s: its branch acted on what the "
             "other thread had not written yet", o->split, gl);
    add_evidence(c, astr(c, buf));
    return p;
}

/* The cause from a wake-up that came while its waiter was busy
 * (ttdi_wakewin_find): the call the waiter was inside named, kind race,
 * the waker in the sentence. */
static const ttd_place *cause_wakewin(vctx *c, const ttdi_wakewin *w)
{
    ttd_place *p = race_place(c, w->function, thread_name(c, (size_t)w->pair), w->pair);
    char buf[1024];

    if (!p)
        return NULL;
    p->file = p->file ? p->file : w->file;
    p->line = p->line ? p->line : w->line;
    snprintf(buf, sizeof buf, "`%s` (thread %s) returned at %.3f ms while thread %s was inside "
             "`%s` (entered at %.3f ms), not waiting; its next wait (%.3f ms) then ran its full "
             "%.0f ms with no wake-up: the wake-up fell inside `%s`'s window and was lost",
             w->waker, w->waker_thread, (double)w->notify_ns / 1e6, w->thread, w->function,
             (double)w->enter_ns / 1e6, (double)w->wait_ns / 1e6, (double)w->asked_ns / 1e6,
             w->function);
    p->text = astr(c, buf);
    snprintf(buf, sizeof buf, "in the good run the same call of thread %s ran from %.3f to "
             "%.3f ms, after `%s` had returned, and thread %s's wait (from %.3f ms) ended at "
             "%.3f ms, long before its time: the wake-up it sent was there", w->waker_thread,
             (double)w->good_enter_ns / 1e6, (double)w->good_notify_ns / 1e6, w->function,
             w->thread, (double)w->good_wait_ns / 1e6, (double)w->good_end_ns / 1e6);
    add_evidence(c, astr(c, buf));
    snprintf(buf, sizeof buf, "thread %s made the same calls in both runs up to that call: only "
             "when it came differs", w->waker_thread);
    add_evidence(c, astr(c, buf));
    return p;
}

/* The cause from a wait that returned before the work it waits for was
 * done (ttdi_early_wait_find): the waiter's function, or the signaller's
 * when it signalled from inside the work; kind order. */
static const ttd_place *cause_early(vctx *c, const ttdi_early_wait *e)
{
    ttd_place *p = place(c);
    char buf[1024];

    if (!p)
        return NULL;
    p->kind = TTD_COF_ORDER;
    p->function = e->function;
    p->pair = e->pair;
    p->thread = e->pair >= 0 ? thread_name(c, (size_t)e->pair) : e->thread;
    if (e->signaller)
        snprintf(buf, sizeof buf, "`%s` (thread %s) signalled %s at %.3f ms in the bad run "
                 "while still inside `%s`, and `%s` (thread %s) returned from its wait on it: "
                 "the work was not done; in the good run every `%s` had returned before "
                 "`%s` began", e->function, e->thread, e->object, (double)e->waker_ns / 1e6,
                 e->work, e->waiter, e->wait_thread, e->work, e->waiter);
    else
        snprintf(buf, sizeof buf, "`%s` (thread %s) returned from its wait on %s at %.3f ms in "
                 "the bad run while thread %s was still inside `%s`; in the good run every "
                 "`%s` had returned before `%s` began: the wait ends before the work it waits "
                 "for", e->waiter, e->wait_thread, e->object, (double)e->woke_ns / 1e6,
                 e->work_thread, e->work, e->work, e->waiter);
    p->text = astr(c, buf);
    snprintf(buf, sizeof buf, "in the bad run thread %s entered `%s` at %.3f ms and was still "
             "inside it where the calls part; in the good run no thread was inside `%s` from "
             "`%s`'s start at %.3f ms to the split", e->work_thread, e->work,
             (double)e->work_ns / 1e6, e->work, e->waiter, (double)e->good_begin_ns / 1e6);
    add_evidence(c, astr(c, buf));
    if (e->waker_func && !e->signaller) {
        snprintf(buf, sizeof buf, "thread %s signalled %s from `%s` at %.3f ms, outside `%s`",
                 e->waker_thread, e->object, e->waker_func, (double)e->waker_ns / 1e6, e->work);
        add_evidence(c, astr(c, buf));
    }
    return p;
}

/* The cause from another thread's block of calls that moved against the
 * split's thread (ttdi_moved_find): its call named, kind order. */
static const ttd_place *cause_moved(vctx *c, const ttdi_moved *m)
{
    static const char *const run[2] = {"good", "bad"};
    ttd_place *p = place(c);
    int x = m->in_run, y = !x;
    char buf[1024];

    if (!p)
        return NULL;
    p->kind = TTD_COF_ORDER;
    p->function = m->function;
    p->thread = m->thread;
    p->pair = m->pair;
    p->file = m->file;
    p->line = m->line;
    snprintf(buf, sizeof buf, "thread %s made the same calls in both runs, at another time: in "
             "the %s run `%s` ran between two calls of `%s` in thread %s, in the %s run %s; "
             "what the second call read was left by it, or not yet (nothing ordered "
             "the two threads there)", m->thread, run[x], m->function, m->split, m->split_thread,
             run[y], m->earlier ? "before both" : "after both");
    p->text = astr(c, buf);
    snprintf(buf, sizeof buf, "in the %s run thread %s made %" PRIu64 " calls between `%s`'s "
             "call at %.3f ms and the split at %.3f ms (`%s` at %.3f ms); in the %s run none "
             "between %.3f and %.3f ms: it made them %s (%s at %.3f ms)", run[x], m->thread,
             m->calls, m->split, (double)m->a_ns[x] / 1e6, (double)m->split_ns[x] / 1e6,
             m->function, (double)m->enter_ns / 1e6, run[y], (double)m->a_ns[y] / 1e6,
             (double)m->split_ns[y] / 1e6, m->earlier ? "before" : "after",
             m->earlier ? "the last" : "the first", (double)m->y_ns / 1e6);
    add_evidence(c, astr(c, buf));
    if (m->open && m->inlined_into)
        snprintf(buf, sizeof buf, "thread %s was inside `%s` (inlined into `%s`: its call of "
                 "`%s`) when the calls part in the %s run", m->thread, m->function,
                 m->inlined_into, m->via, run[x]);
    else if (m->open)
        snprintf(buf, sizeof buf, "thread %s was inside `%s` when the calls part in the %s run",
                 m->thread, m->function, run[x]);
    else
        snprintf(buf, sizeof buf, "`%s` writes `%s`, which the split's frames read",
                 m->function, m->global ? m->global : "a global");
    add_evidence(c, astr(c, buf));
    return p;
}

/* The first divergence's value when the first suspect is the function
 * that returned it (a value or an error origin, no code changed) and
 * nothing else is on the chain before it: a getter's answer, NULL if not. */
static const ttd_value_diff *getter_first(const ttd_result *r)
{
    const ttd_divergence *d = r->first;
    const ttd_value_diff *v = r->value_first;
    int k = d && d->nsuspects ? suspect_kind(&d->suspects[0]) : TTD_COF_SPLIT;

    if (!v || (k != TTD_COF_VALUE && k != TTD_COF_ERROR_ORIGIN) || !v->function ||
        strcmp(v->function, d->suspects[0].name) != 0 || (r->nchain && r->chain[0].function &&
                                                          strcmp(r->chain[0].function, v->function)))
        return NULL;
    return v;
}

/* A suspect whose machine code changed and its source did not: it
 * carries a change made elsewhere (code inlined into it, or laid out
 * anew around a changed neighbour). */
static int carried(const ttd_suspect *s)
{
    const ttd_evidence *e = evidence_of(s, TTD_EV_CODE);

    return e && e->weight < TTDI_W_CODE;
}

/* The likely cause of a divergence, the bad run's hang aside. */
static const ttd_place *cause_runs(vctx *c)
{
    const ttd_result *r = c->r;
    const ttd_divergence *d = r->first;
    const ttd_race *x = race_on_path(r);
    const ttd_code_change *ch = only_change(r);

    if (x && race_explains(r, x, d))
        return cause_race(c, x);
    const char *callee = NULL;
    if (ch && (!d || !d->nsuspects || suspect_kind(&d->suspects[0]) != TTD_COF_CODE))
        return only_inlined(c, &callee) == ch ? cause_inlined(c, ch, callee, 1)
                                               : cause_code(c, ch, 0);
    /* the split is all the evidence, no suspect's code changed, and one
     * source changed: the runs part because of it, out of the chain's
     * sight (it wrote what the split's branch read) */
    const ttd_code_change *sc = d && d->nsuspects && !with_evidence(d, TTD_EV_CODE) &&
                                bare_split(r, d) ? only_source(c) : NULL;
    if (sc)
        return cause_code(c, sc, 1);
    sc = d && d->nsuspects && !with_evidence(d, TTD_EV_CODE) && bare_split(r, d)
             ? only_inlined(c, &callee) : NULL;
    if (sc)
        return cause_inlined(c, sc, callee, 0);
    /* the split is all the evidence and the threads' order alone differs
     * where it read (ordercause.c) */
    ttdi_order_cause oc;
    const ttd_value_diff *g = getter_first(r);
    int bare = d && d->nsuspects && bare_split(r, d);
    if ((bare || g) && ttdi_lost_wakeup_find(r, bare ? NULL : g, &oc))
        return cause_lost(c, &oc, bare ? NULL : g);
    /* or its last wait returned while another thread, a party to it,
     * was inside a call the good run had finished before that wait
     * began (earlywait.c): it read what was not done yet (before the
     * swap rule: a wait explains the swap of the lock around it) */
    ttdi_early_wait ew;
    if (bare && c->in && ttdi_early_wait_find(c->in, r, &ew) == 1)
        return cause_early(c, &ew);
    if (bare && ttdi_order_cause_find(r, &oc))
        return cause_order_or_atomic(c, &oc, NULL);
    /* or a getter's value under that object is all the chain has */
    if (g && ttdi_order_cause_find(r, &oc) && ttdi_order_cause_getter(r, &oc, g))
        return cause_order_or_atomic(c, &oc, g);
    /* or the split's branch read a flag another thread set, nothing
     * ordering the two calls (flagrace.c) */
    ttdi_flag_race fr;
    if ((bare || g) && ttdi_flag_race_find(c->in, r, bare ? NULL : g, &fr) == 1)
        return cause_flag(c, &fr, bare ? NULL : g);
    /* two builds: a suspect whose code changed explains more than one whose
     * code did not (it ran before the split; the chain may not see how its
     * result came through: an out-parameter, memory) */
    for (size_t i = 0; r->code_compared && d && i < d->nsuspects; i++) {
        if (suspect_kind(&d->suspects[i]) != TTD_COF_CODE)
            continue;
        if (carried(&d->suspects[i]) && (sc = only_source(c)))
            return cause_code(c, sc, 1);
        /* its code changed, no out-of-line function's source did, and an
         * inlined callee's source did: the change is the callee's (issue 33) */
        if ((sc = only_inlined(c, &callee)))
            return cause_inlined(c, sc, callee, 0);
        return cause_suspect(c, &d->suspects[i]);
    }
    /* or the split's thread ran inside another thread's call that writes
     * what its branch read, in the bad run only (overlap.c; after code
     * changed: with two builds a changed suspect explains more) */
    ttdi_overlap ov;
    if (bare && ttdi_overlap_find(c->in, r, &ov) == 1)
        return cause_overlap(c, &ov);
    /* or the split's thread's wait ran its full time in the bad run only,
     * and the call of another thread that woke it in the good run came
     * while it was busy in a call (waker.c ttdi_wakewin_find): a value
     * before the split (the wait's time-out passed down) does not
     * explain a wait that was woken in one run and not the other */
    ttdi_wakewin ww;
    int val = d && d->nsuspects && suspect_kind(&d->suspects[0]) == TTD_COF_VALUE;
    if ((bare || val) && c->in && ttdi_wakewin_find(c->in, r, &ww) == 1)
        return cause_wakewin(c, &ww);
    /* or another thread made the same calls in both runs, but between the
     * split frame's earlier call and the split in one run only (moved.c):
     * the split read what that block left, or had not left yet */
    ttdi_moved mv;
    if (bare && c->in && ttdi_moved_find(c->in, r, &mv) == 1)
        return cause_moved(c, &mv);
    /* a value the chain does not tie to the split names no cause: the
       best suspect that is no such value (a step of the chain, the split's
       own branch) */
    for (size_t i = 0; d && i < d->nsuspects; i++)
        if (!off_chain(r, &d->suspects[i]))
            return cause_suspect(c, &d->suspects[i]);
    if (d && d->nsuspects)
        return cause_suspect(c, &d->suspects[0]);
    if (r->nchain && r->chain[0].kind != TTD_CAUSE_EXIT)
        return cause_chain(c, &r->chain[0]);
    if (!c->v->symptom)
        return NULL;
    ttd_place *p = place(c);
    if (!p)
        return NULL;
    *p = *c->v->symptom;
    p->kind = TTD_COF_SPLIT;
    add_evidence(c, p->text);
    return p;
}

/* The cause from a wait that never ended and the thread it waited for
 * (ttdi_waker_find): that thread's frame named, the waiter in the
 * sentence. */
static const ttd_place *cause_waker(vctx *c, const ttdi_waker *w)
{
    const ttd_place *sy = c->v->symptom;
    const char *in = sy && sy->function && *sy->function ? sy->function : "?";
    ttd_place *p = place(c);
    char buf[768];

    if (!p)
        return NULL;
    p->kind = TTD_COF_ORDER;     /* its part came after the wait began */
    p->function = w->function;
    p->file = w->file;
    p->line = w->line;
    p->thread = thread_name(c, (size_t)w->pair);
    p->pair = w->pair;
    snprintf(buf, sizeof buf, "thread %s stopped in `%s` at the split and never went on; "
             "thread %s parted from its good run only after that (at %.3f ms), then made its "
             "last calls in `%s` (the last at %.3f ms) and none let thread %s go on: the "
             "wake-up it waited for was not sent", w->waiter_thread, in, w->thread,
             (double)w->part_ns / 1e6, w->function, (double)w->last_ns / 1e6, w->waiter_thread);
    p->text = astr(c, buf);
    snprintf(buf, sizeof buf, "in the good run thread %s parted at %.3f ms, before the calls "
             "part at %.3f ms: what it did otherwise came before thread %s got there, which "
             "then did not wait",
             w->thread, (double)w->good_part_ns / 1e6, (double)w->split_good_ns / 1e6,
             w->waiter_thread);
    add_evidence(c, astr(c, buf));
    snprintf(buf, sizeof buf, "the bad run never ended (killed: no clean end); thread %s made "
             "no call after %.3f ms", w->waiter_thread, (double)w->stop_ns / 1e6);
    add_evidence(c, astr(c, buf));
    return p;
}

/* Two builds whose changed code the verdict names without the hang: the
 * only changed function, the only changed source, or a suspect whose code
 * changed (cause_runs' code causes). */
static int code_explains(vctx *c)
{
    const ttd_divergence *d = c->r->first;

    if (only_change(c->r) || only_source(c))
        return 1;
    for (size_t i = 0; c->r->code_compared && d && i < d->nsuspects; i++)
        if (suspect_kind(&d->suspects[i]) == TTD_COF_CODE)
            return 1;
    return 0;
}

/* The likely cause of a divergence. When the bad run hung, what its
 * threads waited for is the cause, unless the builds differ in code that
 * explains the runs: then the hang is how the changed code failed, not
 * why, as code changed outranks the threads' order (cause_runs), and the
 * hang is evidence. */
static const ttd_place *cause(vctx *c)
{
    const ttd_hang *h = c->r->hang && c->r->hang->nblocked ? c->r->hang : NULL;

    if (h && !code_explains(c))
        return cause_hang(c, h);
    /* the split's thread stopped at the split and another thread, which
     * parted only after it, went quiet without letting it go on (waker.c):
     * the wait is the split's, its end the other thread's */
    ttdi_waker wk;
    if (!h && c->in && !code_explains(c) && ttdi_waker_find(c->in, c->r, &wk) == 1)
        return cause_waker(c, &wk);
    const ttd_place *p = cause_runs(c);
    if (h && p)
        add_evidence(c, killed_while(c, h));
    return p;
}

/* ---- counts and what was not counted (issue 31) ---------------------------- */

/* "the bad run called `take_seat` 41 times, every passing run 40" */
static const char *count_text(vctx *c, const ttd_count *k)
{
    char buf[512], good[96];

    if (k->good_runs <= 1)
        snprintf(good, sizeof good, "the good run %" PRIu64, k->good_min);
    else if (k->good_min == k->good_max)
        snprintf(good, sizeof good, "every passing run %" PRIu64, k->good_min);
    else
        snprintf(good, sizeof good, "the passing runs %" PRIu64 " to %" PRIu64, k->good_min,
                 k->good_max);
    snprintf(buf, sizeof buf, "the bad run called `%s` %" PRIu64 " time%s, %s", k->function,
             k->bad, k->bad == 1 ? "" : "s", good);
    return astr(c, buf);
}

/* The count cause: the first count fact (the one a divergence starts
 * with), when nothing better explains the runs: the same calls in every
 * thread pair (another end), or, against passing runs that all agree on
 * the count, only the split itself (or, plain mode, the answer it came
 * right after: a guess no value confirms). */
static const ttd_place *cause_count(vctx *c, const ttd_place *other)
{
    const ttd_count *k = &c->v->counts[0];
    ttd_place *p;

    if (c->r->first && (k->good_runs < 2 || (other && other->kind != TTD_COF_SPLIT &&
                                             other->kind != TTD_COF_ANSWER)))
        return NULL;    /* one good run: the split itself says as much */
    if (!(p = place(c)))
        return NULL;
    p->kind = TTD_COF_COUNT;
    p->function = k->function;
    p->text = count_text(c, k);
    if (other && other->function && strcmp(other->function, k->function) == 0) {
        p->file = other->file;
        p->line = other->line;
        p->pair = other->pair;
        p->thread = other->thread;
        p->bad_index = other->bad_index;
    }
    return p;
}

/* The count facts first among the evidence: what a count says is a fact
 * (with a first divergence, when passing runs agree on the count). */
static void count_evidence(vctx *c)
{
    const char *kept[TTD_VERDICT_EVIDENCE_MAX];
    size_t n = c->nev;

    if (!c->v->ncounts || (c->r->first && c->v->counts[0].good_runs < 2))
        return;         /* one good run: its divergence says as much */
    memcpy(kept, c->ev, n * sizeof *kept);
    c->nev = 0;
    add_evidence(c, count_text(c, &c->v->counts[0]));
    for (size_t i = 0; i < n; i++)
        add_evidence(c, kept[i]);
}

typedef struct hlist {
    ttd_hidden *h;
    size_t n, cap;
} hlist;

static void hide(vctx *c, hlist *l, int kind, int64_t pair, const char *fn, const char *why,
                 const char *evidence)
{
    char buf[512];

    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 16;
        ttd_hidden *h = ttfi_arena_zalloc(c->a, cap * sizeof *h);
        if (!h) {
            c->oom = 1;
            return;
        }
        if (l->n)
            memcpy(h, l->h, l->n * sizeof *h);
        l->h = h;
        l->cap = cap;
    }
    snprintf(buf, sizeof buf, "not counted as a divergence because %s", why);
    l->h[l->n++] = (ttd_hidden){kind, pair, fn, astr(c, buf), astr(c, evidence), 0};
}

/* The pool's extra worker that pair p's thread created, NULL if none. */
static const ttd_unpaired *grown_by(const ttd_result *r, size_t p)
{
    for (size_t i = 0; i < r->nunpaired; i++)
        if (r->unpaired[i].grew && r->unpaired[i].grew_creator == p)
            return &r->unpaired[i];
    return NULL;
}

/* A creator's hunk that started one more worker of a pool (grew.c). */
static void grew_hunk(vctx *c, hlist *l, const ttd_hunk_info *h, const char *t, const char *fn,
                      uint64_t extra, const char *side)
{
    const ttd_unpaired *u = grown_by(c->r, h->pair);
    char ev[512];

    if (!u) {   /* a worker of the pool: the items the other one did */
        snprintf(ev, sizeof ev, "thread %s: %" PRIu64 " more events at `%s` in the %s run, "
                 "work items of a pool that grew by one worker: the pool's threads made the "
                 "same calls at the top of their loops in both runs", t ? t : "?", extra,
                 fn ? fn : "?", side);
        hide(c, l, TTD_HIDDEN_POOL, (int64_t)h->pair, fn, "the pool's threads took the same "
             "work in another order", ev);
        return;
    }
    snprintf(ev, sizeof ev, "thread %s: %" PRIu64 " more events at `%s` in the %s run, to start "
             "the pool's extra worker (#%u, start `%s`): its creation, or a call that repeats, "
             "call for call, the one made after starting the pool's first worker, in both runs",
             t ? t : "?", extra, fn ? fn : "?", side, u ? u->thread.index : 0,
             u && u->thread.start ? u->thread.start : "?");
    hide(c, l, TTD_HIDDEN_TIMING, (int64_t)h->pair, fn, "it started one more worker of a pool",
         ev);
}

/* Why a timing-shaped hunk was not counted, and the recorded fact. */
static void hide_hunk(vctx *c, hlist *l, const ttd_hunk_info *h)
{
    const ttd_event *e = h->bad_first ? h->bad_first : h->good_first;
    const char *fn = e && e->name ? e->name : NULL, *t = thread_text(c, h->pair);
    char ev[384];
    uint64_t extra = h->bad_count > h->good_count ? h->bad_count : h->good_count;
    const char *side = h->bad_count >= h->good_count ? "bad" : "good";

    if (h->expected) {
        snprintf(ev, sizeof ev, "thread %s: %" PRIu64 " event%s at `%s` that also differ "
                 "between the good runs", t ? t : "?", extra, extra == 1 ? "" : "s",
                 fn ? fn : "?");
        hide(c, l, TTD_HIDDEN_BASELINE, (int64_t)h->pair, fn, "it also varies between the good "
             "runs (--baseline)", ev);
        return;
    }
    switch (h->timing) {
    case TTD_TIMING_WAIT:
        snprintf(ev, sizeof ev, "thread %s: %" PRIu64 " more events in the %s run, a loop at "
                 "`%s` that waited each time: %" PRIu64 " recorded wait%s (a blocking operation "
                 "or a wait call that blocked), %.3f ms blocked", t ? t : "?", extra, side,
                 fn ? fn : "?", h->waits, h->waits == 1 ? "" : "s", (double)h->wait_ns / 1e6);
        hide(c, l, TTD_HIDDEN_TIMING, (int64_t)h->pair, fn, "a loop that waits ran more times", ev);
        break;
    case TTD_TIMING_MOVED:
        snprintf(ev, sizeof ev, "thread %s: the same calls at `%s`, whole, are in another "
                 "thread of the other run", t ? t : "?", fn ? fn : "?");
        hide(c, l, TTD_HIDDEN_TIMING, (int64_t)h->pair, fn, "the work moved to another thread", ev);
        break;
    case TTD_TIMING_RETRY:
        snprintf(ev, sizeof ev, "thread %s: an attempt at `%s` failed in one run and was made "
                 "again later, doing the same work", t ? t : "?", fn ? fn : "?");
        hide(c, l, TTD_HIDDEN_TIMING, (int64_t)h->pair, fn, "an attempt was retried", ev);
        break;
    case TTD_TIMING_PROGRESS:
        snprintf(ev, sizeof ev, "thread %s went another way at `%s` holding a lock whose "
                 "earlier holders differ, and the runs ended alike", t ? t : "?", fn ? fn : "?");
        hide(c, l, TTD_HIDDEN_PROGRESS, (int64_t)h->pair, fn, "it follows how far the other "
             "threads had got", ev);
        break;
    case TTD_TIMING_CUT:
        snprintf(ev, sizeof ev, "thread %s: %" PRIu64 " more events at `%s` at its end in the "
                 "%s run; the other run's thread recorded no end (still running when its "
                 "process exited, with the same status)", t ? t : "?", extra, fn ? fn : "?",
                 side);
        hide(c, l, TTD_HIDDEN_PROGRESS, (int64_t)h->pair, fn, "the process exit cut a thread "
             "that was still running", ev);
        break;
    case TTD_TIMING_GREW:
        grew_hunk(c, l, h, t, fn, extra, side);
        break;
    case TTD_TIMING_CONTENDED:
        snprintf(ev, sizeof ev, "thread %s: %" PRIu64 " more events at `%s` in the %s run, "
                 "inside a lock call: the lock's own slow path, taken when another thread "
                 "held or wanted the lock", t ? t : "?", extra, fn ? fn : "?", side);
        hide(c, l, TTD_HIDDEN_TIMING, (int64_t)h->pair, fn, "a lock was contended", ev);
        break;
    case TTD_TIMING_SPIN:
        snprintf(ev, sizeof ev, "thread %s: %" PRIu64 " more iteration%s of %" PRIu64
                 " events at `%s` in the %s run, no wait recorded, every argument and result "
                 "as in the iteration before; `%s` returned %" PRIu64 " (the run's own clock, "
                 "in %s) in each until the clock turned: the loop spun without waiting",
                 t ? t : "?", h->spins, h->spins == 1 ? "" : "s", h->spin_events,
                 fn ? fn : "?", side, h->spin_clock ? h->spin_clock : "?", h->spin_value,
                 h->spin_unit_ns >= 1000000000 ? "s" : h->spin_unit_ns >= 1000000 ? "ms" : "us");
        hide(c, l, TTD_HIDDEN_TIMING, (int64_t)h->pair, fn, "a loop spun until a clock "
             "turned", ev);
        break;
    case TTD_TIMING_INLINED:
        snprintf(ev, sizeof ev, "thread %s: %" PRIu64 " more events at `%s` in the %s run: "
                 "calls of a function whose code lies in a library no tracing hook is called "
                 "from, inside a function whose machine code alone changed between the "
                 "builds", t ? t : "?", extra, fn ? fn : "?", side);
        hide(c, l, TTD_HIDDEN_BUILD, (int64_t)h->pair, fn, "one build inlined a traced copy of "
             "a library function that the other build called", ev);
        break;
    default:
        break;
    }
}

/* Each pool's extra worker (grew.c), with the work its pool did. */
static void grew_threads(vctx *c, hlist *l)
{
    const ttd_result *r = c->r;
    char ev[512];

    for (size_t i = 0; i < r->nunpaired; i++) {
        const ttd_unpaired *u = &r->unpaired[i];
        if (!u->grew)
            continue;
        snprintf(ev, sizeof ev, "thread %s (#%u, start `%s`): the pool's %zu threads in the good "
                 "run and %zu in the bad run made the same %" PRIu64 " calls at the top of their "
                 "loops (by subtree), but for %" PRIu64 " lock or wait call%s of the extra "
                 "worker's own turn", u->thread.name ? u->thread.name : "?", u->thread.index,
                 u->thread.start ? u->thread.start : "?", u->grew_workers[0],
                 u->grew_workers[1], u->grew_items, u->grew_extra,
                 u->grew_extra == 1 ? "" : "s");
        hide(c, l, TTD_HIDDEN_POOL, -1, u->thread.start, u->run == TTD_GOOD
             ? "the pool started one more worker in the good run"
             : "the pool started one more worker in the bad run", ev);
    }
}

/* Every difference not counted as a divergence, with its evidence. */
static void hidden(vctx *c)
{
    const ttd_result *r = c->r;
    hlist l = {NULL, 0, 0};
    char ev[384];

    for (size_t i = 0; i < r->nhunks; i++) {
        size_t n0 = l.n;
        if (r->hunks[i].timing || r->hunks[i].expected)
            hide_hunk(c, &l, &r->hunks[i]);
        if (l.n > n0 && l.h[n0].kind == TTD_HIDDEN_TIMING)
            l.h[n0].timing = r->hunks[i].timing;
    }
    grew_threads(c, &l);
    for (size_t i = 0; i < r->npools; i++) {
        const ttd_pool *p = &r->pools[i];
        if (!p->compared || p->items_differing)
            continue;
        int moved = 0;
        for (size_t k = 0; k < r->npairs; k++)
            moved |= r->pairs[k].pool && strcmp(r->pairs[k].pool, p->id) == 0 &&
                     r->pairs[k].good.events != r->pairs[k].bad.events;
        if (!moved)
            continue;
        snprintf(ev, sizeof ev, "%s: %zu look-alike threads starting in `%s` did the same %"
                 PRIu64 " work items in both runs, shared out differently", p->id, p->ngood,
                 p->start, p->items_good);
        hide(c, &l, TTD_HIDDEN_POOL, -1, p->start, "the pool's threads took the same work in "
             "another order", ev);
    }
    if (r->values_ignored) {
        snprintf(ev, sizeof ev, "%" PRIu64 " differing value%s that behave like clocks or "
                 "counters, or look like addresses or time stamps, on no path to a divergence",
                 r->values_ignored, r->values_ignored == 1 ? "" : "s");
        hide(c, &l, TTD_HIDDEN_NONDET, -1, NULL, "no input decides those values", ev);
    }
    if (r->values_timeout && r->timeout_evidence) {
        snprintf(ev, sizeof ev, "%s%s", r->timeout_evidence,
                 r->values_timeout > 1 ? " (and the calls that passed it on)" : "");
        hide(c, &l, TTD_HIDDEN_NONDET, -1, NULL, "the value was only a timeout that never expired", ev);
    }
    if (r->values_deadline && r->deadline_evidence) {
        char dl[832];
        snprintf(dl, sizeof dl, "%s%s", r->deadline_evidence,
                 r->values_deadline > 1 ? " (and the calls that passed it on)" : "");
        hide(c, &l, TTD_HIDDEN_NONDET, -1, NULL, "the value was only the time left to one "
             "deadline, by the clock", dl);
    }
    if (r->values_rounded && r->rounded_evidence) {
        snprintf(ev, sizeof ev, "%s%s", r->rounded_evidence,
                 r->values_rounded > 1 ? " (and the calls that passed it on)" : "");
        hide(c, &l, TTD_HIDDEN_NONDET, -1, NULL, "the value was only a timeout its wait took as "
             "the same time in both runs", ev);
    }
    if (r->values_swapped && r->swap_evidence)
        hide(c, &l, TTD_HIDDEN_TIMING, -1, NULL, "the same calls ran in the other order, "
             "after a difference hidden as timing", r->swap_evidence);
    if (r->values_noise) {
        snprintf(ev, sizeof ev, "%" PRIu64 " differing value%s that also vary between the good "
                 "runs", r->values_noise, r->values_noise == 1 ? "" : "s");
        hide(c, &l, TTD_HIDDEN_BASELINE, -1, NULL, "the good runs vary there too", ev);
    }
    c->v->hidden = l.h;
    c->v->nhidden = l.n;
}

/* Suspects of the first divergence with evidence of kind k. */
static size_t with_evidence(const ttd_divergence *d, int k)
{
    size_t n = 0;
    for (size_t i = 0; d && i < d->nsuspects; i++)
        n += evidence_of(&d->suspects[i], k) != NULL;
    return n;
}

/* 1 if a suspect of d was inlined into function f (its code ran inside
 * f, unseen by the trace). */
static int inlined_into(const ttd_divergence *d, const char *f)
{
    for (size_t i = 0; d && i < d->nsuspects; i++)
        if (d->suspects[i].inlined_into && strcmp(d->suspects[i].inlined_into, f) == 0)
            return 1;
    return 0;
}

/* The first divergence's suspect named f, NULL if none. */
static const ttd_suspect *suspect_named(const ttd_divergence *d, const char *f)
{
    for (size_t i = 0; d && f && i < d->nsuspects; i++)
        if (strcmp(d->suspects[i].name, f) == 0)
            return &d->suspects[i];
    return NULL;
}

/* 1 if suspect s lies on the way to the split: the diverging frame, a
 * caller on its stack, or a step of the cause chain. */
static int on_the_way(const ttd_suspect *s)
{
    return s->role == TTD_SUSPECT_FRAME || s->role == TTD_SUSPECT_CALLER ||
           evidence_of(s, TTD_EV_CHAIN) != NULL;
}

/* 1 if every function whose code changed between the builds (artifacts
 * aside) is f or a clone of f (ttdi_clone_stem): the program's only changed
 * function, its clones and cold parts counted with it. */
static int only_stem(const ttd_result *r, const char *f)
{
    size_t n = f ? ttdi_clone_stem(f) : 0, seen = 0;

    for (size_t i = 0; f && r->code_compared && i < r->nchanged_functions; i++) {
        const ttd_code_change *ch = &r->changed_functions[i];
        if (ch->artifact)
            continue;
        if (ttdi_clone_stem(ch->function) != n || strncmp(ch->function, f, n) != 0)
            return 0;
        seen++;
    }
    return seen > 0;
}

/* "likely" for code changed: two facts about the cause itself that agree.
 * Its own code changed (its source too, or no source was read: not a
 * function whose machine code only carries a change made elsewhere, the
 * same source), the one suspect whose code did; and it lies on the way to
 * the split, or it is the only function of the program whose code changed
 * and ran before the split (with the same input, nothing else can make
 * the runs part). The position of another suspect says nothing of it.
 * With no source read for it, its machine code changing is no fact about
 * its own source: code inlined from a changed function changes every
 * function it is inlined into (a template's member inlined into its
 * callers: five functions changed, one source), so the one of them that
 * lies on the way is no more the change than the others. Then only the
 * program's only changed function (its clones and cold parts with it) is
 * a fact about the cause itself. */
static int code_likely(const vctx *c, const ttd_divergence *d, const ttd_suspect *cs)
{
    const ttd_evidence *e = cs ? evidence_of(cs, TTD_EV_CODE) : NULL;
    const ttd_code_change *one = only_change(c->r);

    if (!e || e->weight < TTDI_W_CODE || with_evidence(d, TTD_EV_CODE) != 1)
        return 0;
    /* the only change, whether the verdict named it as such (cause_code)
       or as the first suspect, which it is */
    int alone = c->only_change || (one && !strcmp(one->function, cs->name)) ||
                only_stem(c->r, cs->name);
    if (e->weight < TTDI_W_CODE + TTDI_W_SOURCE && !alone)
        return 0;   /* no source read: it may only carry the change */
    return on_the_way(cs) || alone;
}

/* Threads of run k running at ns (started, not yet ended). */
static size_t running_at(const vctx *c, int k, uint64_t ns)
{
    const ttf_trace *t = c->in ? c->in->r[k].t : NULL;
    size_t n = 0;

    for (size_t i = 0; t && i < ttf_thread_count(t); i++) {
        const ttf_thread *th = ttf_get_thread(t, i);
        n += th && th->start_ns <= ns && (!th->ended || th->end_ns >= ns);
    }
    return n;
}

/* An error origin's inputs are its arguments. It may have read state
 * another thread wrote, which no argument shows, when it ran holding a
 * lock another thread took too (the interleave's window, the bad run),
 * or when a pointer among its inputs was compared as a pointer only
 * (its evidence says so) while other threads ran in either run (a
 * worker not yet started in one run has not yet done its part of what
 * the pointer reaches): its answer flipping
 * then says nothing of where the failure began. 1 then, and why said
 * as evidence. */
static int read_shared(vctx *c, const ttd_place *p, const ttd_suspect *cs)
{
    const ttd_value_diff *v = c->r->value_first;
    const ttd_evidence *e = cs ? evidence_of(cs, TTD_EV_ERROR) : NULL;
    char buf[320];

    if (!v || !p->function || strcmp(v->function, p->function) != 0 ||
        v->pair != (size_t)p->pair)
        return 0;
    const char *obj = ttdi_shared_lock_held(c->r, v->pair, v->bad_time_ns);
    if (obj)
        snprintf(buf, sizeof buf, "`%s` ran holding %s, which another thread took too: what "
                 "it read there, that thread may have written", v->function, obj);
    else if (e && e->text && strstr(e->text, TTDI_PTR_UNSEEN) &&
             (running_at(c, TTD_BAD, v->bad_time_ns) > 1 ||
              running_at(c, TTD_GOOD, v->good_time_ns) > 1))
        snprintf(buf, sizeof buf, "other threads ran when `%s` was called (in one run or "
                 "both) and what its pointers point to was not compared: they may have "
                 "written it", v->function);
    else
        return 0;
    /* two sentences at most: the caveat takes the place of the value said
     * again (the cause's own text says it), else of the last */
    const ttd_evidence *val = cs ? evidence_of(cs, TTD_EV_VALUE) : NULL;
    size_t i = 0;
    while (val && val->text && i < c->nev && strcmp(c->ev[i], val->text) != 0)
        i++;
    if (c->nev == TTD_VERDICT_EVIDENCE_MAX && i < c->nev) {
        memmove(&c->ev[i], &c->ev[i + 1], (c->nev - 1 - i) * sizeof c->ev[0]);
        c->nev--;
    }
    if (c->nev == TTD_VERDICT_EVIDENCE_MAX)
        c->nev--;
    c->ev[c->nev++] = astr(c, buf);
    return 1;
}

/* How sure the verdict is. "likely" only where two independent pieces of
 * evidence agree on the cause itself (measured by make realbugs: when it
 * says likely, the cause should be right 9 times in 10): code changed in
 * it and its place (code_likely); a race whose call went without the lock
 * every other call of it took (the missing lock, right there), only in
 * the bad run, both threads inside, before the symptom in its thread's
 * order (it read what they wrote); a failure that starts in one function
 * whose inputs gave none (the error origin) on the value chain to the
 * split, clearly ahead of the next suspect, with no code inlined into it
 * to share the decision. A check-then-act window, the threads' order, a
 * value alone stay "possible". "unknown" where the evidence stops: the
 * split's branch with no value before it that differs (it read what the
 * trace does not show). */
static void confidence(vctx *c, const ttd_race *x)
{
    const ttd_result *r = c->r;
    const ttd_place *p = c->v->cause;
    const ttd_divergence *d = r->first;
    const ttd_suspect *s = d && d->nsuspects ? &d->suspects[0] : NULL;
    const ttd_suspect *cs = p ? suspect_named(d, p->function) : NULL;
    double gap = s && d->nsuspects > 1 ? s->score - d->suspects[1].score : 1e9;
    char buf[512];

    c->v->confidence = TTD_CONF_POSSIBLE;
    if (!p)
        return;
    switch (p->kind) {
    case TTD_COF_RACE:
        if (x && x->kind == TTD_RACE_UNPROTECTED && x->locked_calls > 0)
            c->v->confidence = TTD_CONF_LIKELY;
        return;
    case TTD_COF_CODE:
        if (code_likely(c, d, cs))
            c->v->confidence = TTD_CONF_LIKELY;
        return;
    case TTD_COF_ERROR_ORIGIN:
        /* code the compiler inlined into it decided as much as it did:
         * the trace cannot tell them apart; under a lock another thread
         * took, what it read may be that thread's doing */
        if (cs && cs == s && evidence_of(s, TTD_EV_CHAIN) && gap >= 2.0 &&
            !inlined_into(d, s->name) && !read_shared(c, p, cs))
            c->v->confidence = TTD_CONF_LIKELY;
        return;
    case TTD_COF_DEADLOCK:     /* the whole cycle seen */
        if (r->hang && r->hang->complete)
            c->v->confidence = TTD_CONF_LIKELY;
        return;
    case TTD_COF_HANG:
        if (r->hang && r->hang->other)
            return;
        c->v->confidence = TTD_CONF_UNKNOWN;
        snprintf(buf, sizeof buf, "the wait in `%s`: the trace shows no thread that would have "
                 "ended it", p->function);
        c->v->stops_at = astr(c, buf);
        return;
    case TTD_COF_ANSWER:       /* no value seen: the type and the place only */
        return;
    case TTD_COF_SPLIT:
        if (!p->function || !*p->function) {    /* the same calls, another end */
            c->v->confidence = TTD_CONF_UNKNOWN;
            c->v->stops_at = "the runs' ends: they made the same calls and ended "
                             "differently, and what decided it is not in the trace";
            return;
        }
        if (!r->values || !d)
            return;
        c->v->confidence = TTD_CONF_UNKNOWN;
        snprintf(buf, sizeof buf, "the branch in `%s`: no value it saw differs before it "
                 "(it read data the calls do not show)", p->function);
        c->v->stops_at = astr(c, buf);
        return;
    default:
        break;
    }
    /* the chain starts at a value from outside the thread: it stops there */
    if (r->chain_end && strstr(r->chain_end, "came from outside") && r->nchain &&
        r->chain[0].function && strcmp(r->chain[0].function, p->function) == 0) {
        c->v->confidence = TTD_CONF_UNKNOWN;
        c->v->stops_at = r->chain_end;
    }
}

int ttdi_verdict(struct ttfi_arena *a, const ttd_result *r, const ttdi_verdict_in *in,
                 const ttd_verdict **out)
{
    vctx c = {r, in ? in->cd : NULL, a, NULL, {NULL}, 0, 0, 0, in ? in->in : NULL, 0};
    ttd_verdict *v = ttfi_arena_zalloc(a, sizeof *v);

    *out = NULL;
    if (!v)
        return TT_ENOMEM;
    c.v = v;
    v->counts = in ? in->counts : NULL;
    v->ncounts = in ? in->ncounts : 0;
    hidden(&c);
    v->exit = r->diverged ? 1 : 0;
    size_t runs_varied = 0;     /* the builds' inlining is no run's */
    for (size_t i = 0; i < v->nhidden; i++)
        runs_varied += v->hidden[i].kind != TTD_HIDDEN_BUILD;
    v->status = !r->diverged ? (runs_varied ? TTD_VERDICT_NONDET : TTD_VERDICT_SAME)
                : r->first || r->value_first || v->ncounts ? TTD_VERDICT_DIVERGED
                : TTD_VERDICT_OUTCOME;
    if (r->diverged) {
        v->symptom = symptom(&c);
        v->cause = cause(&c);
        const ttd_place *k = v->ncounts ? cause_count(&c, v->cause) : NULL;
        if (k)
            v->cause = k;
        count_evidence(&c);
        confidence(&c, k || c.flag ? NULL : race_on_path(r));
        v->symptom = labelled(&c, v->symptom);
        v->cause = labelled(&c, v->cause);
    }
    if (c.nev) {
        const char **ev = ttfi_arena_alloc(a, c.nev * sizeof *ev);
        if (!ev)
            return TT_ENOMEM;
        memcpy(ev, c.ev, c.nev * sizeof *ev);
        v->evidence = ev;
        v->nevidence = c.nev;
    }
    *out = v;
    return c.oom ? TT_ENOMEM : 0;
}
