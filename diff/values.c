/*
 * values.c - compare the values of aligned calls (format 1.1): the return
 * value of each pair of matching EXITs and the arguments of each pair of
 * matching ENTERs, by the function's signature from debug info.
 * Stage 1 align of diff/STAGES (its header: align.h).
 *
 * Design. After a thread pair is aligned, its two threads are walked again
 * in step, skipping the hunks, so the walk visits exactly the pairs of
 * events the alignment matched (same function, same place in the call
 * sequence). Either aligner's hunks do: the call-tree aligner (the
 * default) and the flat one (--flat, full mode) both give key-index
 * ranges, ascending in both threads, and whatever lies between two hunks
 * is matched one to one. With --first-only only the first hunk is known,
 * so the caller stops the walk where it begins (ttdi_vside.stop). A value is compared only when both runs recorded it and the
 * signature says it is comparable (ttf_value_comparable): integers, enums
 * and bools exactly after cutting the register to the type's size,
 * pointers by NULL / non-NULL and by what they name in a module's image
 * (values_ptr.c), floats and doubles by value, never void; a struct of at
 * most 16 bytes passed in registers field by field, each field as a
 * scalar of its type cut from its eightbyte (padding never compared;
 * ttdi_struct_differs), and a struct result in rax and/or xmm0 the same way
 * (ttdi_struct_ret_differs; one with an eightbyte in rdx or xmm1, which
 * the trace does not record, is not compared); a char * or
 * std::string whose first bytes both runs recorded (format 1.6) by those
 * bytes, as far as both were read (ttf_string_same: "cc" against "cx"
 * differs, where the pointers may well be equal). The
 * first difference is the pair's value divergence; every differing return
 * value is kept too (bounded), for ranking suspects.
 *
 * Comparators. A signed integer result of a comparator compares by its
 * sign class (negative, zero, positive) only: glibc's memcmp returns the
 * byte difference or only its sign by where its buffers lie (a page end),
 * so two good runs return 1 and 3 from one comparator at the same keys;
 * the C standard promises the sign. A comparator is a function whose
 * machine code returns a sign-only C library comparison's result
 * unchanged on some path (format's ttf_sym_code_cmpret, TTF_CMPRET_SIGN;
 * asked once per function and run, cached in the normaliser's `cmps`), or
 * a relay (TTF_CMPRET_RELAY: it returns an indirect call's result, a C++
 * virtual Compare) whose EXIT comes right after its callee's (one deeper),
 * with the same 32 bits, from a comparator: the walk keeps each run's last
 * EXIT (ttdi_vfound.last; replay.c does the same for the explain stage).
 * Both runs must say so. Bools, an index or a count found with memcmp are
 * no comparator's result: their code changes it.
 *
 * Noise. Against a baseline (another good run) the same walk collects the
 * (function, value slot) of every difference into a set; differences at a
 * slot in that set are then skipped when the bad run is compared, like
 * hunks inside the zones where good runs vary. A slot is a function's
 * return value or one of its parameters, so a hash seed or a time stamp
 * passed around is ignored wherever that function is called. Without a
 * baseline, an integer that in both runs lies near that run's own
 * CLOCK_MONOTONIC at the call and differs by the runs' clock offset is a
 * time (a deadline from a clock the trace does not show: vrules.c
 * ttdi_time_like): no difference, counted apart (ttd_result values_times),
 * so a pool's items are matched by their other values.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "align.h"

/* One thread walked over the events that take part: a keyed walk
 * (walker.c); ev the current one, key its key, idx its key index. */
typedef ttdi_walk vwalk;

int ttdi_values_on(const ttf_trace *g, const ttf_trace *b)
{
    return ttf_get_summary(g)->values && ttf_get_summary(b)->values;
}

/* Advance w until its event's index is at least idx. */
static int vwalk_to(vwalk *w, uint64_t idx)
{
    int rc = 1;
    while (rc > 0 && w->idx < idx)
        rc = ttdi_walk_next_key(w);
    return rc;
}

/* The slot's number is mixed with a tag of its own: mixed alone, the
 * return slot's (-1, with the EXIT key) met parameter 0's (with the ENTER
 * key), as the two keys differ by the kinds' mixes (normalise.c). */
uint64_t ttdi_value_slot_key(uint64_t key, int slot)
{
    return key ^ ttfi_mix64(0x510700000000ull | (uint32_t)(slot + 2));
}

/* Is char pointer i of sig the end of a buffer that the char pointer
 * before it starts (a string recorded too, at most 1 MiB before: `in,
 * end`)? Not an object's pointer before a name (`table, key`), however
 * near the two were allocated. */
static int is_end(const ttf_signature *sig, size_t i, const ttf_event *ev)
{
    const ttf_param *b = &sig->params[i - 1], *e = &sig->params[i];
    ttf_string before;
    if (b->type.cls != TTF_VC_POINTER || b->reg < 0 || b->reg >= TTF_VALUE_REGS ||
        !ttf_event_string(ev, (unsigned)b->reg, &before) || before.std)
        return 0;
    uint64_t from = ev->argregs[b->reg], to = ev->argregs[e->reg];
    return from && to >= from && to - from <= (1u << 20);
}

/* A char pointer with its length in the next parameter (`const unsigned
 * char *data, size_t len`), or with its end there (`const char *in, const
 * char *end`: the length is their distance; jq's strings are not
 * NUL-terminated) is a buffer: its bytes past the length are whatever the
 * memory held, so two identical runs would differ there. When that length
 * n (this run's) is shorter than the bytes recorded, only n of them are
 * the string's (0: none; a stack address past a buffer ends in NUL bytes,
 * so a NUL found says nothing), and `end`'s own bytes are none. A small
 * flag after a string (`name, 0`, `name, 1`) cuts it short too: the bytes
 * compared are fewer, never wrong, and the pointer is compared as before
 * strings. (An object after a string cannot cut it: it starts past the
 * string's NUL.) */
static void cut_at_length(const ttf_signature *sig, size_t i, const ttf_event *ev, ttf_string *s)
{
    if (s->std)
        return;
    if (i > 0 && is_end(sig, i, ev)) {
        s->len = 0;             /* `end` itself: its bytes are past the buffer */
        s->complete = 1;
        return;
    }
    if (i + 1 >= sig->nparams)
        return;
    const ttf_param *p = &sig->params[i], *q = &sig->params[i + 1];
    if (q->reg < 0 || q->reg >= TTF_VALUE_REGS)
        return;
    uint64_t n = ev->argregs[q->reg], at = ev->argregs[p->reg];
    if (q->type.cls == TTF_VC_POINTER && n >= at)
        n -= at;                /* a buffer and its end (`in, end`) */
    else if (q->type.cls == TTF_VC_POINTER || (q->type.cls != TTF_VC_SIGNED &&
                                              q->type.cls != TTF_VC_UNSIGNED))
        return;
    else if (q->type.size == 4)
        n = q->type.cls == TTF_VC_SIGNED ? (uint64_t)(int64_t)(int32_t)n : (uint32_t)n;
    if (n < s->len) {
        s->len = (unsigned)n;
        s->complete = 1;
    }
}

/* Bytes that end a recorded string with a user-space address (six
 * little-endian bytes whose top one is a PIE's or heap's 0x55/0x56 or the
 * stack's and mappings' 0x7f, the NUL after them its zero high bytes, one
 * of the five below it not text): the string ran past its end into a
 * pointer (a buffer's garbage, a limit pointer, an object not built
 * yet), which ASLR changes in every run. Dropped before comparing. */
static int drop_address(ttf_string *s)
{
    if (!s->complete || s->len < 6)
        return 0;
    const uint8_t *a = s->text + s->len - 6;
    if (a[5] != 0x55 && a[5] != 0x56 && a[5] != 0x7f)
        return 0;
    for (int k = 0; k < 5; k++)
        if (a[k] < 0x20 || a[k] > 0x7e) {
            s->len -= 6;
            return 1;
        }
    return 0;
}

/* The same address in the other run with a zero byte among its five low
 * ones (about one run in 60: ASLR's random bits): the string ends inside
 * it, so drop_address cannot see it, and 1-5 bytes of it remain. When one
 * run's string was just cut at an address, the other's, complete, holding
 * the same bytes before it and at most 5 bytes more, ran into the same
 * pointer: those bytes are cut too. A real difference of a string and
 * the same text plus a few bytes would need the first run's string to run
 * into a pointer exactly there. */
static void drop_short_address(const ttf_string *cut, ttf_string *s)
{
    if (s->complete && s->len > cut->len && s->len - cut->len <= 5 &&
        !memcmp(s->text, cut->text, cut->len))
        s->len = cut->len;
}

void ttdi_drop_addresses(ttf_string *sg, ttf_string *sb)
{
    int g = drop_address(sg), b = drop_address(sb);
    if (g && !b)
        drop_short_address(sg, sb);
    else if (b && !g)
        drop_short_address(sb, sg);
}

/* Strings by content are a string's: not the implicit object of a member
 * function (a std::string's own `this`: in its constructors the object is
 * not built yet, its pointer garbage), a char buffer only up to its
 * length, and without an address the bytes ran into. Traces recorded
 * with an older table carry such bytes. */
int ttdi_arg_strings(const ttf_signature *sig, size_t i, const ttf_event *g,
                     const ttf_event *b, ttf_string *sg, ttf_string *sb)
{
    const ttf_param *p = &sig->params[i];
    if (p->reg < 0 || p->reg >= TTF_VALUE_REGS || (p->name[0] == 't' && !strcmp(p->name, "this")))
        return 0;   /* (asked per parameter of every call compared: the first
                       letter spares most a call to strcmp) */
    if (!ttf_event_string(g, (unsigned)p->reg, sg) || !ttf_event_string(b, (unsigned)p->reg, sb))
        return 0;
    cut_at_length(sig, i, g, sg);
    cut_at_length(sig, i, b, sb);
    ttdi_drop_addresses(sg, sb);
    return 1;
}

/* Where s's bytes hold 8 or more bytes of path (the run's own trace file:
 * TTCAP_OUT, in the environment of every traced program, differs by run):
 * the offset they start at, or -1. */
static int path_bytes_at(const ttf_string *s, const char *path)
{
    size_t pl = path ? strlen(path) : 0;
    for (unsigned a = 0; pl >= 8 && a + 8 <= s->len; a++)
        for (size_t o = 0; o + 8 <= pl; o++)
            if (!memcmp(s->text + a, path + o, 8))
                return (int)a;
    return -1;
}

/* s cut where it starts to hold its run's trace path, as given or
 * resolved once when the run was opened (the bytes after are the run's
 * own, not the program's). */
static void cut_own_path(ttf_string *s, const ttdi_norm *n)
{
    const char *given = n && n->trace ? ttf_path(n->trace) : NULL;
    int a = path_bytes_at(s, given), b = path_bytes_at(s, n ? n->real_path : NULL);
    int at = a < 0 ? b : b < 0 ? a : a < b ? a : b;
    if (at >= 0) {
        s->len = (unsigned)at;
        s->complete = 0;
    }
}

int ttdi_strings_same(const ttdi_norm *ng, const ttdi_norm *nb, ttf_string *sg, ttf_string *sb)
{
    if (ttf_string_same(sg, sb))
        return 1;
    cut_own_path(sg, ng);
    cut_own_path(sb, nb);
    return ttf_string_same(sg, sb);
}

uint64_t ttdi_string_hash(const ttf_string *s)
{
    uint64_t h = 0x57a1c0de00000000ull ^ s->len ^ ((uint64_t)s->unreadable << 8);
    for (unsigned i = 0; i < s->len; i++)
        h = ttfi_mix64(h ^ s->text[i]);
    return h;
}

/* ---- a function's signature and comparator kind, kept ---------------------- */

/* What the values walk asks of each call event's function, in one slot
 * of the run's cache (ttdi_norm.fns): its signature (ttf_sym_signature's
 * answer) and its comparator kind (cmpret_of's). Both are functions of
 * the address and of the modules loaded at the event's time, so the key
 * is the address and the epoch (ttdi_epoch_at); asked per event of every
 * pair compared, they were a quarter of the values walk (issue 38). A
 * slot another function took asks again, as before: the first ask of
 * each comes in the same order (a first signature ask may add a notice). */
typedef struct fnval {
    uint64_t addr1;         /* the address + 1; 0: an empty slot */
    uint32_t epoch;
    int sig_rc;             /* ttf_sym_signature's, 1: not asked yet */
    const ttf_signature *sig;
    unsigned cmp;           /* 1 + TTF_CMPRET_*, 0: not asked yet */
} fnval;

#define FNVALS 2048         /* slots (a power of two) */

/* The slot of the function of call event ev (no site) of run n, its key
 * set (emptied when another function had it); NULL when memory runs out.
 * (Functions start 16-byte aligned, mostly: the hash drops those bits.) */
static fnval *fn_slot(ttdi_norm *n, const ttf_event *ev)
{
    if (!n->fns.slot && ttdi_dmcache_reset(&n->fns, FNVALS, sizeof(fnval)) < 0)
        return NULL;
    uint32_t e = ttdi_epoch_at(n, ev->time_ns);
    fnval *f = ttdi_dmcache_slot(&n->fns, (ev->addr >> 4 ^ ev->addr >> 15) + e * 977u);
    if (f->addr1 != ev->addr + 1 || f->epoch != e)
        *f = (fnval){ev->addr + 1, e, 1, NULL, 0};
    return f;
}

/* The slot of ev's function when ev is a call event with values and no
 * site (those whose signature and comparator kind are asked), else NULL. */
static fnval *fn_of(ttdi_norm *n, const ttf_event *ev)
{
    return (ev->kind == TTF_EV_ENTER || ev->kind == TTF_EV_EXIT) && !ev->site &&
           ev->has_values ? fn_slot(n, ev) : NULL;
}

/* ttf_sym_signature of call event ev in run n, kept in ev's slot f (NULL:
 * none, asked). */
static int fn_signature(ttdi_norm *n, fnval *f, const ttf_event *ev, const ttf_signature **sig)
{
    if (f && f->sig_rc != 1) {
        *sig = f->sig;
        return f->sig_rc;
    }
    int rc = ttf_sym_signature(n->sym, ev, sig);
    if (f && rc != TT_ENOMEM && rc != 1) {
        f->sig_rc = rc;
        f->sig = *sig;
    }
    return rc;
}

/* ---- comparators' results by their sign ------------------------------------ */

/* TTF_CMPRET_* of the function at address a of run n (time ns), asked of
 * its machine code once per function. */
static unsigned cmpret_ask(ttdi_norm *n, uint64_t a, uint64_t ns)
{
    const ttf_code_info *ci;
    int added = 0;
    uint64_t *v = ttdi_map_get(&n->cmps, a);

    if (v)
        return (unsigned)(*v - 1);
    unsigned out = 0;
    long mi = ttdi_module_at(n, a, ns);
    if (mi >= 0 && ttf_sym_code(n->sym, (size_t)mi, &ci) == 0 && a >= ci->bias &&
        ttf_sym_code_cmpret(n->sym, (size_t)mi, a - ci->bias, &out) != 0)
        out = 0;
    if ((v = ttdi_map_put(&n->cmps, a, &added)) != NULL)
        *v = out + 1;       /* out of memory: asked again next time */
    return out;
}

/* cmpret_ask of EXIT ev's function, kept in its slot f (NULL: none). */
static unsigned cmpret_of(ttdi_norm *n, fnval *f, const ttf_event *ev)
{
    if (f && f->cmp)
        return f->cmp - 1;
    unsigned c = cmpret_ask(n, ev->addr, ev->time_ns);
    if (f && ttdi_map_get(&n->cmps, ev->addr))
        f->cmp = c + 1;     /* (out of memory: asked again, as cmps is) */
    return c;
}

/* ttdi_cmp_result with ev's slot f (fn_of). */
static int cmp_result(ttdi_norm *n, fnval *f, const ttf_event *ev, const ttdi_vlast *last)
{
    if (!n || ev->kind != TTF_EV_EXIT || ev->site || !ev->has_values)
        return 0;
    unsigned c = cmpret_of(n, f, ev);
    if (c & TTF_CMPRET_SIGN)
        return 1;
    return (c & TTF_CMPRET_RELAY) && last && last->cmp && last->depth == ev->depth + 1 &&
           (uint32_t)last->ret == (uint32_t)ev->retval;
}

int ttdi_cmp_result(ttdi_norm *n, const ttf_event *ev, const ttdi_vlast *last)
{
    return cmp_result(n, n ? fn_of(n, ev) : NULL, ev, last);
}

unsigned ttdi_cmp_kind(ttdi_norm *n, const ttf_event *ev)
{
    return cmpret_of(n, fn_of(n, ev), ev);
}

static int sign_of(const ttf_vtype *ty, uint64_t v)
{
    int64_t x = (int64_t)ttf_value_norm(v, ty);
    return (x > 0) - (x < 0);
}

int ttdi_sign_differs(const ttf_vtype *ty, uint64_t g, uint64_t b)
{
    return sign_of(ty, g) != sign_of(ty, b);
}

/* Note the EXITs at wg, wb (their functions' slots f) as the runs' last
 * ones (out->last), and whether each returned a comparator's result (*cg,
 * *cb; 0 for other events). */
static void note_exits(const vwalk *wg, const vwalk *wb, fnval *const f[2], ttdi_vfound *out,
                       int *cg, int *cb)
{
    const vwalk *w[2] = {wg, wb};
    int c[2] = {0, 0};
    for (int k = 0; k < 2 && w[k]->ev.kind == TTF_EV_EXIT; k++) {
        c[k] = cmp_result(w[k]->norm, f[k], &w[k]->ev, &out->last[k]);
        out->last[k] = (ttdi_vlast){w[k]->ev.retval, w[k]->ev.depth, c[k]};
    }
    *cg = c[0];
    *cb = c[1];
}

/* A value at slot that differs (1) or not (0): 1 if the difference is
 * not noise; while collecting, noted as noise instead. */
static int one_diff(const vwalk *wg, ttdi_openset *noise, int collect, int slot, int differs,
                    ttdi_vfound *out)
{
    out->compared++;
    if (!differs)
        return 0;
    uint64_t k = ttdi_value_slot_key(wg->key, slot);
    if (collect) {
        if (!ttdi_openset_count(noise, k) && ttdi_openset_add(noise, k) < 0)
            return -1;
        return 0;
    }
    if (noise && ttdi_openset_count(noise, k)) {
        out->noise++;
        return 0;
    }
    return 1;
}

/* The events at wg, wb with their times, when their walks skip them (the
 * load pass in step, pair_align.c): until a value differs, no time is
 * read but through the modules' epochs, which that pass keeps exact
 * (ttdi_epochs_end); a differing value's time decides whether it is a
 * time (time_like) and is reported. 0 or a TT_E* code. */
static int exact_times(vwalk *wg, vwalk *wb)
{
    int rc = ttdi_walk_times(wg, 0);
    return rc < 0 ? rc : ttdi_walk_times(wb, 0);
}

/* A differing integer or double that is a time in both runs: an integer
 * near each run's own CLOCK_MONOTONIC at the call (ttdi_time_like: a
 * deadline), a double of seconds near it or CLOCK_REALTIME
 * (ttdi_float_time_like). */
static int time_like(const vwalk *wg, const vwalk *wb, const ttf_vtype *ty, uint64_t g,
                     uint64_t b)
{
    const ttf_trace *t[2] = {wg->norm->trace, wb->norm->trace};
    uint64_t at[2] = {wg->ev.time_ns, wb->ev.time_ns};

    if (ty->cls == TTF_VC_FLOAT) {
        uint64_t clk[2][2] = {{ttf_monotonic_ns(t[0], at[0]), ttf_monotonic_ns(t[1], at[1])},
                              {ttf_realtime_ns(t[0], at[0]), ttf_realtime_ns(t[1], at[1])}};
        return ttdi_float_time_like(ty, g, b, clk);
    }
    if (ty->cls != TTF_VC_SIGNED && ty->cls != TTF_VC_UNSIGNED)
        return 0;
    uint64_t mono[2] = {ttf_monotonic_ns(t[0], at[0]), ttf_monotonic_ns(t[1], at[1])};
    return ttdi_time_like(ty, g, b, mono);
}

/* Compare one value; 1 if it differs (and is not noise). sign: a signed
 * integer compared by its sign class only (a comparator's result). */
static int one_value(vwalk *wg, vwalk *wb, ttdi_openset *noise, int collect,
                     int slot, const ttf_vtype *tg, const ttf_vtype *tb, uint64_t rg,
                     uint64_t rb, int sign, ttdi_vfound *out)
{
    if (!ttf_value_comparable(tb) || tg->cls != tb->cls || tg->size != tb->size)
        return 0;
    if (sign && tb->cls == TTF_VC_SIGNED)
        return one_diff(wg, noise, collect, slot, ttdi_sign_differs(tb, rg, rb), out);
    int d = ttdi_value_differs(wg->norm, wb->norm, tb, rg, rb, wg->ev.time_ns, wb->ev.time_ns);
    if (d && !collect && exact_times(wg, wb) < 0)
        return TT_ENOMEM;
    if (d && !collect && time_like(wg, wb, tb, rg, rb)) {
        out->compared++;    /* no difference (nor the baselines' noise) */
        out->times++;
        return 0;
    }
    return one_diff(wg, noise, collect, slot, d, out);
}

static int keep_ret(ttdi_vfound *out, const ttdi_vdiff *v)
{
    if (out->nrets >= TTDI_VRETS_MAX)
        return 0;
    if (out->nrets == out->capr &&
        ttdi_grow(&out->rets, &out->capr, out->nrets + 1, sizeof *out->rets, 64) < 0)
        return TT_ENOMEM;
    out->rets[out->nrets++] = *v;
    return 0;
}

/* A small struct's two eightbytes in one run (ok[k]: eightbyte k was
 * recorded). */
struct ebytes {
    uint64_t v[2];
    int ok[2];
};

/* The fields of struct types tg, tb (the same layout) differ, cut from
 * the eightbytes eg, eb of events at time tg_ns, tb_ns. */
static int fields_differ(ttdi_norm *ng, ttdi_norm *nb, const ttf_vtype *tg, const ttf_vtype *tb,
                         const struct ebytes *eg, const struct ebytes *eb, uint64_t g_ns,
                         uint64_t b_ns)
{
    if (!tg->fields || !tb->fields || tg->nfields != tb->nfields || tg->size != tb->size)
        return 0;
    for (size_t f = 0; f < tb->nfields; f++) {
        const ttf_field *fg = &tg->fields[f], *fb = &tb->fields[f];
        unsigned at = fb->offset % 8, k = (unsigned)(fb->offset / 8);
        if (k > 1)
            continue;
        uint64_t g = eg->v[k] >> (8 * at), b = eb->v[k] >> (8 * at);
        if (g == b && fb->type.cls != TTF_VC_POINTER)
            continue;   /* the same, whatever the checks below (most fields of
                           two like runs: ttdi_value_differs' first answer) */
        if (!eg->ok[k] || !eb->ok[k] || fg->offset != fb->offset ||
            fg->type.cls != fb->type.cls || fg->type.size != fb->type.size ||
            at + fb->type.size > 8 || !ttf_value_comparable(&fb->type))
            continue;
        if (ttdi_value_differs(ng, nb, &fb->type, g, b, g_ns, b_ns))
            return 1;
    }
    return 0;
}

/* Argument p's eightbytes in ENTER ev. */
static struct ebytes arg_ebytes(const ttf_param *p, const ttf_event *ev)
{
    struct ebytes e = {{0, 0}, {0, 0}};
    int r[2] = {p->reg, p->reg2};
    for (int k = 0; k < 2; k++) {
        e.ok[k] = r[k] >= 0 && r[k] < TTF_VALUE_SLOTS;
        e.v[k] = e.ok[k] ? ev->argregs[r[k]] : 0;
    }
    return e;
}

/* A struct result's eightbytes in EXIT ev (rax, xmm0: sig ret_eb). */
static struct ebytes ret_ebytes(const ttf_signature *sig, const ttf_event *ev)
{
    struct ebytes e = {{0, 0}, {0, 0}};
    for (int k = 0; k < 2; k++) {
        e.ok[k] = sig->ret_eb[k] == TTF_RET_RAX || sig->ret_eb[k] == TTF_RET_XMM0;
        e.v[k] = sig->ret_eb[k] == TTF_RET_XMM0 ? ev->retxmm : e.ok[k] ? ev->retval : 0;
    }
    return e;
}

int ttdi_struct_differs(ttdi_norm *ng, ttdi_norm *nb, const ttf_param *pg, const ttf_param *pb,
                        const ttf_event *g, const ttf_event *b)
{
    if (pg->byref || pb->byref || pg->reg < 0 || pg->reg != pb->reg || pg->reg2 != pb->reg2)
        return 0;
    struct ebytes eg = arg_ebytes(pg, g), eb = arg_ebytes(pb, b);
    return fields_differ(ng, nb, &pg->type, &pb->type, &eg, &eb, g->time_ns, b->time_ns);
}

int ttdi_ret_struct(const ttf_signature *sig)
{
    return sig && sig->ret.fields && sig->ret_eb[0] > 0;
}

int ttdi_struct_ret_differs(ttdi_norm *ng, ttdi_norm *nb, const ttf_signature *sg,
                            const ttf_signature *sb, const ttf_event *g, const ttf_event *b)
{
    if (!ttdi_ret_struct(sg) || !ttdi_ret_struct(sb) || sg->ret_eb[0] != sb->ret_eb[0] ||
        sg->ret_eb[1] != sb->ret_eb[1] || !g->has_values || !b->has_values)
        return 0;
    struct ebytes eg = ret_ebytes(sg, g), eb = ret_ebytes(sb, b);
    return fields_differ(ng, nb, &sg->ret, &sb->ret, &eg, &eb, g->time_ns, b->time_ns);
}

/* A small struct (type ty, eightbytes eg, eb of events g, b) that
 * differs, when it is a clock reading in both runs: seconds and a
 * fraction, near each run's own clock at the call (ttdi_struct_time_like). */
static int struct_time(const ttdi_norm *ng, const ttdi_norm *nb, const ttf_vtype *ty,
                       const struct ebytes *eg, const struct ebytes *eb, const ttf_event *g,
                       const ttf_event *b)
{
    const ttf_trace *t[2] = {ng->trace, nb->trace};

    if (!eg->ok[0] || !eg->ok[1] || !eb->ok[0] || !eb->ok[1])
        return 0;
    uint64_t clk[2][2] = {{ttf_monotonic_ns(t[0], g->time_ns), ttf_monotonic_ns(t[1], b->time_ns)},
                          {ttf_realtime_ns(t[0], g->time_ns), ttf_realtime_ns(t[1], b->time_ns)}};
    return ttdi_struct_time_like(ty, eg->v, eb->v, clk);
}

int ttdi_struct_arg_time(const ttdi_norm *ng, const ttdi_norm *nb, const ttf_param *p,
                         const ttf_event *g, const ttf_event *b)
{
    struct ebytes eg = arg_ebytes(p, g), eb = arg_ebytes(p, b);
    return !p->byref && struct_time(ng, nb, &p->type, &eg, &eb, g, b);
}

/* One small struct compared (d: its fields differ), as one_value does a
 * scalar: a clock reading in both runs is no difference (times). */
static int struct_value(vwalk *wg, vwalk *wb, ttdi_openset *noise, int collect, int slot,
                        const ttf_vtype *ty, struct ebytes eg, struct ebytes eb, int d,
                        ttdi_vfound *out)
{
    if (d && !collect && exact_times(wg, wb) < 0)
        return TT_ENOMEM;
    if (d && !collect && struct_time(wg->norm, wb->norm, ty, &eg, &eb, &wg->ev, &wb->ev)) {
        out->compared++;    /* no difference (nor the baselines' noise) */
        out->times++;
        return 0;
    }
    return one_diff(wg, noise, collect, slot, d, out);
}

uint64_t ttdi_struct_hash(const ttf_param *p, const ttf_event *ev)
{
    uint64_t h = ttfi_mix64(0x57c7000000000000ull ^ ev->argregs[p->reg]);
    return p->reg2 >= 0 && p->reg2 < TTF_VALUE_SLOTS ? ttfi_mix64(h ^ ev->argregs[p->reg2]) : h;
}

/* Compare the values of the pair of calls at wg, wb: the general path,
 * every check asked of the signatures per pair. */
static int compare_slow(vwalk *wg, vwalk *wb, ttdi_openset *noise, int collect,
                        ttdi_vfound *out)
{
    const ttf_event *g = &wg->ev, *b = &wb->ev;
    const ttf_signature *sg, *sb;
    int d = 0, what = 0, arg = 0, cg = 0, cb = 0;

    fnval *f[2] = {wg->norm ? fn_of(wg->norm, g) : NULL, wb->norm ? fn_of(wb->norm, b) : NULL};
    note_exits(wg, wb, f, out, &cg, &cb);
    if ((g->kind != TTF_EV_ENTER && g->kind != TTF_EV_EXIT) || g->site ||
        !g->has_values || !b->has_values ||
        fn_signature(wg->norm, f[0], g, &sg) != 0 || fn_signature(wb->norm, f[1], b, &sb) != 0)
        return 0;
    uint64_t rg, rb;
    if (g->kind == TTF_EV_EXIT && ttdi_ret_struct(sb)) {
        d = one_diff(wg, noise, collect, -1, ttdi_struct_ret_differs(wg->norm, wb->norm, sg, sb,
                                                                     g, b), out);
        what = TTD_VAL_RETURN;
    } else if (g->kind == TTF_EV_EXIT && ttf_value_ret(sg, g, &rg) && ttf_value_ret(sb, b, &rb)) {
        d = one_value(wg, wb, noise, collect, -1, &sg->ret, &sb->ret, rg, rb, cg && cb, out);
        what = TTD_VAL_RETURN;
    }
    for (size_t i = 0; g->kind == TTF_EV_ENTER && !d && i < sb->nparams &&
                       i < sg->nparams; i++) {
        const ttf_param *pg = &sg->params[i], *pb = &sb->params[i];
        ttf_string s0, s1;
        if (pg->reg < 0 || pb->reg < 0)
            continue;
        if (pg->reg == pb->reg && g->strs_len && b->strs_len &&
            ttdi_arg_strings(sb, i, g, b, &s0, &s1))
            d = one_diff(wg, noise, collect, (int)i,
                         !ttdi_strings_same(wg->norm, wb->norm, &s0, &s1), out);
        else if (pg->type.fields && pb->type.fields)
            d = struct_value(wg, wb, noise, collect, (int)i, &pb->type, arg_ebytes(pg, g),
                             arg_ebytes(pb, b),
                             ttdi_struct_differs(wg->norm, wb->norm, pg, pb, g, b), out);
        else
            d = one_value(wg, wb, noise, collect, (int)i, &pg->type, &pb->type,
                          g->argregs[pg->reg], b->argregs[pb->reg], 0, out);
        what = TTD_VAL_ARG;
        arg = (int)i;
    }
    if (d <= 0)
        return d < 0 ? TT_ENOMEM : 0;
    if (exact_times(wg, wb) < 0)
        return TT_ENOMEM;
    /* filled only here: the struct holds two events, and most pairs are
       equal */
    ttdi_vdiff v;
    memset(&v, 0, sizeof v);
    v.what = what;
    v.arg = arg;
    v.idx[0] = wg->idx;
    v.idx[1] = wb->idx;
    v.ev[0] = *g;
    v.ev[1] = *b;
    v.sig = sb;
    if (!out->found) {
        out->found = 1;
        out->first = v;
    }
    return v.what == TTD_VAL_RETURN ? keep_ret(out, &v) : 0;
}

/* ---- a comparison plan per pair of functions ------------------------------ */

/* What compare_slow decides from the two signatures alone (which
 * parameters it compares, how, which fields of a small struct, which
 * register holds each) is decided once per pair of functions (address and
 * epoch in each run, ENTER or EXIT) into a plan, kept in the second run's
 * normaliser (ttdi_norm.plans); per pair of events the plan's operations
 * then only read registers and compare (issue 38: ttdiff on a values pair
 * near the plain pair's time). A plan answers "all the same" only: the
 * first operation that finds a difference, an event with strings where a
 * parameter may be compared as a string, a pair it cannot hold, send the
 * pair to compare_slow from the start, which then answers as it always
 * did (the plan changed nothing in *out). "All the same" is compare_slow's
 * answer too: each operation is the check compare_slow makes there when
 * the ones before it found no difference (one_value, fields_differ, the
 * comparator's sign, ttdi_value_differs), and `compared` grows by the
 * one_diff calls compare_slow makes. A plan is made from the slots that
 * compare_slow filled (fn_of), after it answered its pair: every first ask
 * of a signature or comparator kind still comes from compare_slow, in the
 * same order. */

typedef ttdi_vop plan_op;  /* (align.h: replay.c makes them too) */

#define PLAN_OPS 14
enum { PLAN_SLOW = 1, PLAN_NONE, PLAN_OPS_ };

typedef struct vplan {
    const ttdi_norm *ng;    /* the first run; NULL: an empty slot */
    uint64_t ag, ab;        /* the functions' addresses */
    uint32_t eg, eb;        /* and epochs */
    int kind;               /* TTF_EV_ENTER or TTF_EV_EXIT */
    uint8_t state;          /* PLAN_SLOW: compare_slow always; PLAN_NONE:
                               no value compared (no signature); PLAN_OPS_ */
    uint8_t strings;        /* a parameter may be compared as a string */
    uint8_t nops;
    unsigned cmp[2];        /* EXIT: each run's TTF_CMPRET_* */
    uint32_t counted;       /* compare_slow's one_diff calls */
    plan_op op[PLAN_OPS];
    uint32_t version;       /* plans made in this slot (ttdi_vsame) */
} vplan;

#define VPLANS 1024         /* cache slots (a power of two) */
#define VPLAN_WAYS 4        /* a function pair's plan is in one of the 4
                               slots of its hash's bucket: with a plan per
                               slot (direct-mapped), two hot pairs whose
                               hashes met would evict each other on every
                               call, how often depending on where ASLR put
                               the program */

int ttdi_values_plans_off;
uint64_t ttdi_values_planned;

static uint64_t plan_hash(uint64_t ag, uint64_t ab, uint32_t eg, uint32_t eb, int kind)
{
    return ttfi_mix64(ag ^ (ab * 0x9e3779b97f4a7c15ull) ^ ((uint64_t)eg << 40) ^
                      ((uint64_t)eb << 50) ^ (uint64_t)kind);
}

ttdi_vop ttdi_vop_scalar(const ttf_vtype *ty, int rg, int rb, unsigned sh)
{
    ttdi_vop o = {~0ull, ty, TTDI_VOP_BITS, (uint8_t)rg, (uint8_t)rb, (uint8_t)sh, 0};
    unsigned size = ty->size;
    if (ty->cls == TTF_VC_POINTER) {
        o.kind = TTDI_VOP_PTR;
        return o;
    }
    if (ty->cls == TTF_VC_BOOL) {
        o.kind = TTDI_VOP_BOOL;
        size = size ? size : 1;
    } else if (ty->cls != TTF_VC_SIGNED && ty->cls != TTF_VC_UNSIGNED &&
               ty->cls != TTF_VC_ENUM && ty->cls != TTF_VC_FLOAT) {
        size = 0;               /* ttf_value_norm: the raw value */
    }
    if (size && size < 8)
        o.mask = (1ull << (8 * size)) - 1;
    return o;
}

/* The w-th slot asked for hash h in the plans of nb: its home slot (as
 * in a direct-mapped cache) first, then the other slots of its bucket. */
static inline vplan *plan_way(const ttdi_norm *nb, uint64_t h, unsigned w)
{
    uint64_t m = VPLAN_WAYS - 1;
    return ttdi_dmcache_slot(&nb->plans, (h & ~m) | ((h + w) & m));
}

static inline int plan_is(const vplan *p, const ttdi_norm *ng, uint64_t ag, uint64_t ab,
                          uint32_t eg, uint32_t eb, int kind)
{
    return p->ng == ng && p->ag == ag && p->ab == ab && p->eg == eg && p->eb == eb &&
           p->kind == kind;
}

/* The plan of the pair of functions (ag in ng's run, ab in nb's, epochs
 * eg, eb, kind; h their plan_hash); NULL when none was made or it was
 * evicted. A slot is never emptied but by a reset and a plan takes the
 * first empty slot asked, so the search stops at an empty one. The home
 * slot is asked in line: most plans are there (compare_planned asks once
 * per pair of events). */
static vplan *plan_find_away(const ttdi_norm *ng, const ttdi_norm *nb, uint64_t h, uint64_t ag,
                             uint64_t ab, uint32_t eg, uint32_t eb, int kind)
{
    for (unsigned w = 1; w < VPLAN_WAYS; w++) {
        vplan *p = plan_way(nb, h, w);
        if (!p->ng)
            return NULL;
        if (plan_is(p, ng, ag, ab, eg, eb, kind))
            return p;
    }
    return NULL;
}

static inline vplan *plan_find(const ttdi_norm *ng, const ttdi_norm *nb, uint64_t h,
                               uint64_t ag, uint64_t ab, uint32_t eg, uint32_t eb, int kind)
{
    vplan *p = ttdi_dmcache_slot(&nb->plans, h);
    if (plan_is(p, ng, ag, ab, eg, eb, kind))
        return p;
    return p->ng ? plan_find_away(ng, nb, h, ag, ab, eg, eb, kind) : NULL;
}

/* The slot a new plan of that pair takes: its old plan's, else the first
 * empty one asked, else its home slot. */
static vplan *plan_slot_new(const ttdi_norm *ng, const ttdi_norm *nb, uint64_t h, uint64_t ag,
                            uint64_t ab, uint32_t eg, uint32_t eb, int kind)
{
    for (unsigned w = 0; w < VPLAN_WAYS; w++) {
        vplan *p = plan_way(nb, h, w);
        if (!p->ng || plan_is(p, ng, ag, ab, eg, eb, kind))
            return p;
    }
    return plan_way(nb, h, 0);
}

/* o after the *n operations of ops (cap of them at most); -1 when full. */
static int ops_add(ttdi_vop *ops, uint8_t *n, unsigned cap, ttdi_vop o)
{
    if (*n >= cap)
        return -1;
    ops[(*n)++] = o;
    return 0;
}

static int plan_add(vplan *p, plan_op o)
{
    return ops_add(p->op, &p->nops, PLAN_OPS, o);
}

int ttdi_vop_fields(ttdi_vop *ops, uint8_t *n, unsigned cap, const ttf_vtype *tg,
                    const ttf_vtype *tb, const int rg[2], const int rb[2], const int okg[2],
                    const int okb[2])
{
    if (!tg->fields || !tb->fields || tg->nfields != tb->nfields || tg->size != tb->size)
        return 0;
    for (size_t f = 0; f < tb->nfields; f++) {
        const ttf_field *fg = &tg->fields[f], *fb = &tb->fields[f];
        unsigned at = fb->offset % 8, k = (unsigned)(fb->offset / 8);
        if (k > 1 || !okg[k] || !okb[k] || fg->offset != fb->offset ||
            fg->type.cls != fb->type.cls || fg->type.size != fb->type.size ||
            at + fb->type.size > 8 || !ttf_value_comparable(&fb->type))
            continue;
        if (ops_add(ops, n, cap, ttdi_vop_scalar(&fb->type, rg[k], rb[k], 8 * at)) < 0)
            return -1;
    }
    return 0;
}

int ttdi_vop_struct_arg(ttdi_vop *ops, uint8_t *n, unsigned cap, const ttf_param *pg,
                        const ttf_param *pb)
{
    if (pg->byref || pb->byref || pg->reg < 0 || pg->reg != pb->reg || pg->reg2 != pb->reg2)
        return 0;
    int r[2] = {pg->reg, pg->reg2}, ok[2];
    for (int k = 0; k < 2; k++)
        ok[k] = r[k] >= 0 && r[k] < TTF_VALUE_SLOTS;
    return ttdi_vop_fields(ops, n, cap, &pg->type, &pb->type, r, r, ok, ok);
}

/* An ENTER's operations: compare_slow's loop over the parameters. */
static int plan_enter(vplan *p, const ttf_signature *sg, const ttf_signature *sb)
{
    for (size_t i = 0; i < sb->nparams && i < sg->nparams; i++) {
        const ttf_param *pg = &sg->params[i], *pb = &sb->params[i];
        if (pg->reg < 0 || pb->reg < 0)
            continue;
        if (pg->reg == pb->reg && pb->reg < TTF_VALUE_REGS &&
            !(pb->name[0] == 't' && !strcmp(pb->name, "this")))
            p->strings = 1;     /* ttdi_arg_strings may take it */
        if (pg->type.fields && pb->type.fields) {
            p->counted++;
            if (ttdi_vop_struct_arg(p->op, &p->nops, PLAN_OPS, pg, pb) < 0)
                return -1;
            continue;
        }
        const ttf_vtype *tg = &pg->type, *tb = &pb->type;
        if (!ttf_value_comparable(tb) || tg->cls != tb->cls || tg->size != tb->size)
            continue;           /* one_value: not compared, not counted */
        if (pg->reg >= TTF_VALUE_SLOTS || pb->reg >= TTF_VALUE_SLOTS)
            return -1;
        p->counted++;
        if (plan_add(p, ttdi_vop_scalar(tb, pg->reg, pb->reg, 0)) < 0)
            return -1;
    }
    return 0;
}

/* An EXIT's operations: the struct result's fields, or the result. */
static int plan_exit(vplan *p, const ttf_signature *sg, const ttf_signature *sb)
{
    if (ttdi_ret_struct(sb)) {
        p->counted++;
        if (!ttdi_ret_struct(sg) || sg->ret_eb[0] != sb->ret_eb[0] ||
            sg->ret_eb[1] != sb->ret_eb[1])
            return 0;
        int r[2], ok[2];
        for (int k = 0; k < 2; k++) {
            ok[k] = sb->ret_eb[k] == TTF_RET_RAX || sb->ret_eb[k] == TTF_RET_XMM0;
            r[k] = sb->ret_eb[k] == TTF_RET_XMM0 ? TTDI_VOP_RETXMM : TTDI_VOP_RETVAL;
        }
        return ttdi_vop_fields(p->op, &p->nops, PLAN_OPS, &sg->ret, &sb->ret, r, r, ok, ok);
    }
    if ((sg->ret.cls == TTF_VC_FLOAT && !sg->ret_xmm) ||
        (sb->ret.cls == TTF_VC_FLOAT && !sb->ret_xmm))
        return 0;               /* ttf_value_ret: not recorded */
    const ttf_vtype *tg = &sg->ret, *tb = &sb->ret;
    if (!ttf_value_comparable(tb) || tg->cls != tb->cls || tg->size != tb->size)
        return 0;
    p->counted++;
    plan_op o = ttdi_vop_scalar(tb, sg->ret_xmm ? TTDI_VOP_RETXMM : TTDI_VOP_RETVAL,
                            sb->ret_xmm ? TTDI_VOP_RETXMM : TTDI_VOP_RETVAL, 0);
    o.sign = tb->cls == TTF_VC_SIGNED;
    return plan_add(p, o);
}

/* The plan of the pair at wg, wb, which compare_slow just compared, made
 * from the slots it filled; not kept when a slot lacks an answer. */
static void plan_make(const vwalk *wg, const vwalk *wb)
{
    const ttf_event *g = &wg->ev, *b = &wb->ev;
    ttdi_norm *ng = wg->norm, *nb = wb->norm;
    if (!nb->plans.slot && ttdi_dmcache_reset(&nb->plans, VPLANS, sizeof(vplan)) < 0)
        return;
    fnval *fg = fn_of(ng, g), *fb = fn_of(nb, b);
    if (!fg || !fb || fg->sig_rc == 1 || (fg->sig_rc == 0 && fb->sig_rc == 1) ||
        (g->kind == TTF_EV_EXIT && (!fg->cmp || !fb->cmp)))
        return;
    uint32_t eg = ttdi_epoch_at(ng, g->time_ns), eb = ttdi_epoch_at(nb, b->time_ns);
    vplan *p = plan_slot_new(ng, nb, plan_hash(g->addr, b->addr, eg, eb, g->kind), g->addr,
                             b->addr, eg, eb, g->kind);
    memset(p, 0, offsetof(vplan, op));
    p->version++;
    p->ng = ng;
    p->ag = g->addr;
    p->ab = b->addr;
    p->eg = eg;
    p->eb = eb;
    p->kind = g->kind;
    p->cmp[0] = fg->cmp ? fg->cmp - 1 : 0;
    p->cmp[1] = fb->cmp ? fb->cmp - 1 : 0;
    p->state = PLAN_NONE;
    if (fg->sig_rc != 0 || fb->sig_rc != 0)
        return;
    p->state = PLAN_OPS_;
    if ((g->kind == TTF_EV_ENTER ? plan_enter(p, fg->sig, fb->sig)
                                 : plan_exit(p, fg->sig, fb->sig)) < 0)
        p->state = PLAN_SLOW;
}

/* cmp_result from a plan's comparator kind c. */
static inline int plan_cmp(unsigned c, const ttf_event *ev, const ttdi_vlast *last)
{
    if (c & TTF_CMPRET_SIGN)
        return 1;
    return (c & TTF_CMPRET_RELAY) && last->cmp && last->depth == ev->depth + 1 &&
           (uint32_t)last->ret == (uint32_t)ev->retval;
}

/* The pair at wg, wb by its plan: 0 when every value compared is the same
 * (out moved on as compare_slow would; *same the answer, when same is not
 * NULL), 1 when compare_slow must answer (nothing changed). */
static int compare_planned(const vwalk *wg, const vwalk *wb, ttdi_vfound *out,
                           ttdi_vsame *same)
{
    const ttf_event *g = &wg->ev, *b = &wb->ev;
    ttdi_norm *ng = wg->norm, *nb = wb->norm;
    if (!ng || !nb || !nb->plans.slot || ttdi_values_plans_off || g->kind != b->kind ||
        (g->kind != TTF_EV_ENTER && g->kind != TTF_EV_EXIT) || g->site || b->site ||
        !g->has_values || !b->has_values)
        return 1;
    uint32_t eg = ttdi_epoch_at(ng, g->time_ns), eb = ttdi_epoch_at(nb, b->time_ns);
    const vplan *p = plan_find(ng, nb, plan_hash(g->addr, b->addr, eg, eb, g->kind), g->addr,
                               b->addr, eg, eb, g->kind);
    if (!p || p->state == PLAN_SLOW || (p->strings && g->strs_len && b->strs_len))
        return 1;
    int sign = 0, c[2] = {0, 0};
    if (g->kind == TTF_EV_EXIT) {
        c[0] = plan_cmp(p->cmp[0], g, &out->last[0]);
        c[1] = plan_cmp(p->cmp[1], b, &out->last[1]);
        sign = c[0] && c[1];
    }
    for (unsigned i = 0; i < p->nops; i++) {
        const plan_op *o = &p->op[i];
        uint64_t vg = ttdi_vop_reg(g, o->rg) >> o->sh, vb = ttdi_vop_reg(b, o->rb) >> o->sh;
        if (o->sign && sign ? ttdi_sign_differs(o->ty, vg, vb)
                            : ttdi_vop_differs(o, ng, nb, vg, vb, g->time_ns, b->time_ns))
            return 1;
    }
    if (g->kind == TTF_EV_EXIT) {
        out->last[0] = (ttdi_vlast){g->retval, g->depth, c[0]};
        out->last[1] = (ttdi_vlast){b->retval, b->depth, c[1]};
    }
    out->compared += p->counted;
    ttdi_values_planned++;
    if (same)
        *same = (ttdi_vsame){p->op, p->nops, p->counted, p->strings, p->version, g->kind, sign};
    return 0;
}

/* Compare the values of the pair of calls at wg, wb: by its plan, else
 * by compare_slow (and the plan made for the next pair of the same
 * functions). */
static int compare_pair(vwalk *wg, vwalk *wb, ttdi_openset *noise, int collect,
                        ttdi_vfound *out, ttdi_vsame *same)
{
    if (!compare_planned(wg, wb, out, same))
        return 0;
    int rc = compare_slow(wg, wb, noise, collect, out);
    if (rc >= 0 && !ttdi_values_plans_off && wg->norm && wb->norm && (wg->ev.kind == TTF_EV_ENTER ||
                                             wg->ev.kind == TTF_EV_EXIT) &&
        wg->ev.kind == wb->ev.kind)
        plan_make(wg, wb);
    return rc;
}

/* Skip the hunks that start at the walks' positions. 1 to go on, 0 at an
 * end, <0 on error. */
static int skip_hunks(vwalk w[2], const ttdi_hunk *h, size_t nh, size_t *hi)
{
    int rc = 1;
    while (rc > 0 && *hi < nh && (w[0].idx >= h[*hi].a0 || w[1].idx >= h[*hi].b0)) {
        rc = vwalk_to(&w[0], h[*hi].a1);
        if (rc > 0)
            rc = vwalk_to(&w[1], h[*hi].b1);
        (*hi)++;
    }
    return rc;
}

/* ---- spans of calls (pools.c) --------------------------------------------- */

int ttdi_values_seek(ttdi_walk *w, uint64_t idx)
{
    int rc = 1;
    while (rc > 0 && (!w->next || w->idx < idx))
        rc = ttdi_walk_next_key(w);
    return rc > 0 ? w->idx == idx : rc;
}

int ttdi_values_span(ttdi_walk *wg, ttdi_walk *wb, uint64_t n, ttdi_openset *noise,
                     ttdi_vfound *out)
{
    int rc = 1;

    for (uint64_t i = 0; i < n; i++) {
        if (i && ((rc = ttdi_walk_next_key(wg)) <= 0 || (rc = ttdi_walk_next_key(wb)) <= 0))
            return rc;
        if (wg->key != wb->key)
            return 0;
        if ((rc = compare_pair(wg, wb, noise, 0, out, NULL)) < 0)
            return rc;
        if (out->found)
            return 0;
    }
    return 1;
}

/* ---- the load pass's prefix ------------------------------------------------ */

int ttdi_values_step(ttdi_walk *g, ttdi_walk *b, ttdi_vstep *vs)
{
    vs->on = 1;
    vs->n = b->next;
    vs->same.op = NULL;
    return compare_pair(g, b, NULL, 0, &vs->vf, vs->share ? &vs->same : NULL);
}

int ttdi_values_hold(const ttdi_walk *g, const ttdi_walk *b, int got_g, int got_b,
                     ttdi_vstep *vs)
{
    int rc;

    vs->on = 1;
    vs->same.op = NULL;
    vs->n = b->next - (uint64_t)got_b;
    vs->ended = !got_g || !got_b || g->idx != b->idx;
    if (vs->ended)
        return 0;
    if ((rc = ttdi_walk_clone(g, &vs->w[0])) < 0 || (rc = ttdi_walk_clone(b, &vs->w[1])) < 0)
        return rc;
    vs->held = 1;
    /* the walk goes on from there with times (clones that skipped them
       get them back) */
    for (int i = 0; i < 2; i++) {
        if ((rc = ttdi_walk_times(&vs->w[i], 1)) < 0)
            return rc;
        vs->w[i].from_ns = vs->w[i].ev.time_ns;
    }
    return 0;
}

void ttdi_vstep_free(ttdi_vstep *vs)
{
    if (vs->held) {
        ttdi_walk_close(&vs->w[0]);
        ttdi_walk_close(&vs->w[1]);
    }
    ttdi_vfound_free(&vs->vf);
    memset(vs, 0, sizeof *vs);
}

/* Can the walk go on from what the load pass compared in step (vs)? Its
 * pairs [0, n) are the walk's own when no hunk starts before n (then
 * key index i is paired with i up to there), nothing was compared yet
 * and no noise set is in use (the load pass had none). 1: *out has its
 * findings, w the walks at key index n (their event read: resume), or
 * *done when a side had ended there; 0: walk from the start. */
static int take_prefix(ttdi_vstep *vs, const ttdi_hunk *h, size_t nh, ttdi_vfound *out,
                       vwalk w[2], int *done)
{
    if (!vs || !vs->on || out->compared || out->found || out->nrets ||
        (nh && (h[0].a0 < vs->n || h[0].b0 < vs->n)))
        return 0;
    *out = vs->vf;
    memset(&vs->vf, 0, sizeof vs->vf);
    *done = vs->ended;
    if (vs->held) {
        w[0] = vs->w[0];
        w[1] = vs->w[1];
        vs->held = 0;
    }
    return 1;
}

int ttdi_values_compare(ttdi_vside g, ttdi_vside b, const ttdi_hunk *h,
                        size_t nh, ttdi_openset *noise, int collect_noise,
                        ttdi_vstep *vs, ttdi_vfound *out)
{
    vwalk w[2];
    size_t hi = 0;
    int rc = 0, done = 0, resume = 0;

    memset(w, 0, sizeof w);
    if (!noise && !collect_noise && take_prefix(vs, h, nh, out, w, &done)) {
        resume = !done;
        if (done)
            goto out;
    } else {
        if ((rc = ttdi_walk_keyed(&w[0], g.norm, g.thread)) < 0)
            return rc;
        if ((rc = ttdi_walk_keyed(&w[1], b.norm, b.thread)) < 0)
            goto out;
    }
    for (;; resume = 0) {
        if (!resume && ((rc = ttdi_walk_next_key(&w[0])) <= 0 ||
                        (rc = ttdi_walk_next_key(&w[1])) <= 0))
            break;
        if ((rc = skip_hunks(w, h, nh, &hi)) <= 0)
            break;
        if (w[0].key != w[1].key || w[1].idx >= b.stop)
            break;              /* out of step: stop rather than guess */
        if ((rc = compare_pair(&w[0], &w[1], noise, collect_noise, out, NULL)) < 0)
            break;
    }
out:
    ttdi_walk_close(&w[0]);
    ttdi_walk_close(&w[1]);
    return rc < 0 ? rc : 0;
}

void ttdi_vfound_free(ttdi_vfound *f)
{
    free(f->rets);
    memset(f, 0, sizeof *f);
}

const ttdi_vdiff *ttdi_vfound_ret(const ttdi_vfound *f, uint64_t idx)
{
    size_t lo = 0, hi = f ? f->nrets : 0;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (f->rets[mid].idx[1] < idx)
            lo = mid + 1;
        else
            hi = mid;
    }
    return f && lo < f->nrets && f->rets[lo].idx[1] == idx ? &f->rets[lo] : NULL;
}

/* "(1, NULL, {x=1.5, y=2})": the recorded arguments ("?" for the others). */
static size_t args_text(const ttf_signature *sig, const ttf_event *ev,
                        char *buf, size_t len)
{
    size_t n = 0;
    char v[256];

    n += (size_t)snprintf(buf, len, "(");
    for (size_t i = 0; i < sig->nparams && n < len; i++) {
        ttf_param_format(v, sizeof v, &sig->params[i], ev);
        n += (size_t)snprintf(buf + n, len - n, "%s%s", i ? ", " : "", v);
    }
    if (n < len)
        n += (size_t)snprintf(buf + n, len - n, "%s)", sig->variadic
                              ? (sig->nparams ? ", ..." : "...") : "");
    return n < len ? n : len - 1;
}

size_t ttdi_values_text(ttdi_norm *n, const ttf_event *ev, char *buf, size_t len)
{
    const ttf_signature *sig;

    buf[0] = '\0';
    if (!ev->has_values || ev->site || ttf_sym_signature(n->sym, ev, &sig) != 0)
        return 0;
    if (ev->kind == TTF_EV_ENTER)
        return args_text(sig, ev, buf, len);
    uint64_t raw;
    if (ev->kind != TTF_EV_EXIT || !ttf_value_comparable(&sig->ret) ||
        !ttf_value_ret(sig, ev, &raw))
        return 0;               /* void, struct, a float not recorded */
    int k = ttf_value_format(buf, len, raw, &sig->ret);
    return k < 0 ? 0 : (size_t)k < len ? (size_t)k : len - 1;
}

void ttdi_value_text(ttdi_norm *n, uint64_t v, const ttf_vtype *ty, uint64_t ns, char *buf,
                     size_t len)
{
    char what[96];

    if (ty->cls == TTF_VC_POINTER && v && ttdi_pointee_text(n, v, ns, what, sizeof what))
        snprintf(buf, len, "%s (0x%llx)", what, (unsigned long long)v);
    else
        ttf_value_format(buf, len, v, ty);
}

int ttdi_values_result(struct ttfi_arena *a, ttdi_norm *ng, ttdi_norm *nb, const ttdi_vdiff *v,
                       ttd_value_diff *out)
{
    char buf[2][128];
    const ttf_vtype *ty = &v->sig->ret;
    const ttf_param *p = v->what == TTD_VAL_ARG ? &v->sig->params[v->arg] : NULL;

    memset(out, 0, sizeof *out);
    out->what = v->what;
    out->arg = v->arg;
    out->function = ttdi_norm_func(nb, &v->ev[1]);
    out->param = p ? p->name : "";
    if (p)
        ty = &p->type;
    out->type = ty->name;
    out->cls = ty->cls;
    ttf_string s0, s1;
    int text = 0;
    if (p && p->type.fields && !p->byref && p->reg >= 0) {  /* a small struct: its fields */
        out->good_raw = v->ev[0].argregs[p->reg];
        out->bad_raw = v->ev[1].argregs[p->reg];
        ttf_param_format(buf[0], sizeof buf[0], p, &v->ev[0]);
        ttf_param_format(buf[1], sizeof buf[1], p, &v->ev[1]);
        text = 1;
    } else if (p && ttdi_arg_strings(v->sig, (size_t)v->arg, &v->ev[0], &v->ev[1], &s0, &s1)) {
        out->good_raw = v->ev[0].argregs[p->reg];
        out->bad_raw = v->ev[1].argregs[p->reg];
        ttf_string_format(buf[0], sizeof buf[0], &s0);
        ttf_string_format(buf[1], sizeof buf[1], &s1);
        out->is_string = 1;
    } else if (p) {
        out->good_raw = v->ev[0].argregs[p->reg];
        out->bad_raw = v->ev[1].argregs[p->reg];
    } else if (ttdi_ret_struct(v->sig)) {   /* a small struct result: its fields */
        out->good_raw = v->ev[0].retval;
        out->bad_raw = v->ev[1].retval;
        ttf_ret_format(buf[0], sizeof buf[0], v->sig, &v->ev[0]);
        ttf_ret_format(buf[1], sizeof buf[1], v->sig, &v->ev[1]);
        text = 1;
    } else {
        ttf_value_ret(v->sig, &v->ev[0], &out->good_raw);
        ttf_value_ret(v->sig, &v->ev[1], &out->bad_raw);
    }
    if (!out->is_string && !text) {
        ttdi_value_text(ng, out->good_raw, ty, v->ev[0].time_ns, buf[0], sizeof buf[0]);
        ttdi_value_text(nb, out->bad_raw, ty, v->ev[1].time_ns, buf[1], sizeof buf[1]);
    }
    out->good_value = ttfi_arena_strcpy(a, buf[0]);
    out->bad_value = ttfi_arena_strcpy(a, buf[1]);
    out->good_is_code = ttf_value_errcode(out->good_raw, ty, &out->good_code);
    out->bad_is_code = ttf_value_errcode(out->bad_raw, ty, &out->bad_code);
    out->good_index = v->idx[0];
    out->bad_index = v->idx[1];
    out->good_time_ns = v->ev[0].time_ns;
    out->bad_time_ns = v->ev[1].time_ns;
    return out->good_value && out->bad_value ? 0 : TT_ENOMEM;
}
