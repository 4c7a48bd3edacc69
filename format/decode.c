/*
 * decode.c - a thread's records to events, chunk by chunk (FORMAT.md 4):
 * one decoder per record type, the values of a values chunk, the call-site
 * prefixes, and dec_next, the one decoder of every record the in-line hot
 * path (hot_fast, read_int.h) leaves to it. In scan mode (while opening)
 * it also collects the metadata and records where each chunk's good
 * records end; iteration later decodes only up to there, so counts, LOST
 * markers and events agree by construction. Bad bytes end their chunk
 * with a notice and a LOST event; a missing seq gives a LOST event too.
 * Stage 3 decode of format/STAGES (its header: read_int.h).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read_int.h"

static const char *const rec_names[] = {
    "END-OF-DATA", "PROCESS", "MODULE_LOAD", "MODULE_UNLOAD", "THREAD_START",
    "THREAD_NAME", "THREAD_END", "CALLSITE", "MESSAGE", "SCOPE_ENTER",
    "SCOPE_EXIT", "CRASH", "LOST", "END", "SYNC", "PAUSE", "RESUME", "CUT",
};

static const char *rec_name(unsigned tag)
{
    if (tag < sizeof rec_names / sizeof rec_names[0])
        return rec_names[tag];
    if (tag == TTF_R_STRINGS)
        return "STRINGS";
    return tag <= TTF_R_REQUIRED_LAST ? "unknown required record"
                                      : "unknown optional record";
}


static void chunk_begin(struct dec *d, struct chunk *ch)
{
    const ttf_trace *t = d->t;
    d->ch = ch;
    d->c.start = t->buf;
    d->c.off0 = 0;
    d->c.p = t->buf + ch->off + ch->hsize;
    d->c.end = t->buf + (d->scan ? ch->end : ch->vend);
    d->c.end_is_eof = d->scan && ch->cut;
    d->c.rec = NULL;
    d->c.pb = &d->pb;
    d->thread = ch->thread;
    d->timed = (ch->flags & TTF_CHUNK_TIMED) != 0;
    d->xtimed = d->timed && !((ch->flags & TTF_CHUNK_SPARSE) &&
                              (t->hdr.required_features & TTF_REQ_SPARSE));
    d->ptimed = NULL;
    d->ub_rec = NULL;
    d->lo_end = NULL;
    d->lazy = d->timed && !d->xtimed && (ch->flags & TTF_CHUNK_LAZY) &&
              (t->hdr.required_features & TTF_REQ_LAZY);
    d->chain = d->lazy && (ch->flags & TTF_CHUNK_CHAIN) &&
               (t->hdr.required_features & TTF_REQ_CHAIN);
    d->lastk = 0;
    d->lastm = 0;
    d->lastfn = 0;
    d->ux = 0;
    d->run_end = NULL;
    d->srun = 0;
    d->values = (ch->flags & TTF_CHUNK_VALUES) != 0;
    d->xmm = d->values && (ch->flags & TTF_CHUNK_XMM) != 0;
    d->fast = 1;
    memset(d->regs, 0, sizeof d->regs);
    memset(d->xregs, 0, sizeof d->xregs);
    d->xret = 0;
    memset(d->stride, 0, sizeof d->stride);
    d->tsc = ch->tsc;
    d->prev = 0;
    d->depth = ch->depth;
    memset(d->cache, 0, sizeof d->cache);
    d->sites_ok = (t->hdr.required_features & TTF_REQ_SITES) != 0;
    d->pend = 0;
    d->pstr = NULL;
    if (d->sites_ok)            /* else never read: a prefix is invalid */
        memset(&d->sites, 0, sizeof d->sites);
}

static inline void ev_begin(const struct dec *d, ttf_event *ev, int kind,
                            const uint8_t *rec)
{
    ev_fill(ev, kind, d->thread, d->tsc, to_ns(d->t, d->tsc),
            clamp_depth(d->depth), (uint64_t)(rec - d->buf));
}

static struct tthread *scan_thread(struct dec *d)
{
    return &d->scan->threads[d->ch->thread];
}

/* Event records after their time delta: one decoder per record type, each
 * reading through the record's cursor s, filling *ev and, while scanning,
 * what the index keeps. Each returns 0 or a TT_E* code. */
typedef int (*rec_decoder)(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                           ttf_event *ev);

static int dec_module_load(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                           ttf_event *ev)
{
    const uint8_t *bid, *str;
    size_t nbid, n;
    uint64_t a, b;
    int r;

    (void)tag;
    if ((r = cur_uvar(s, &a)) || (r = cur_uvar(s, &b)) ||
        (r = cur_str(s, &bid, &nbid)) || (r = cur_str(s, &str, &n)))
        return r;
    ev_begin(d, ev, TTF_EV_MODULE_LOAD, d->c.rec);
    ev->addr = a;
    if (!d->scan) {
        const struct aux *x = ttfi_aux_find(d->t, ev->offset);
        ev->text = x ? x->text : "";
        ev->site = x ? x->index : 0;
        return 0;
    }
    struct modrec *m = PUSH(d->scan, mods);
    if (!m)
        return 0;
    m->pub.base = a;
    m->pub.size = b;
    m->pub.build_id = ttfi_arena_alloc(&d->scan->arena, nbid + 1);
    if (m->pub.build_id)
        memcpy((uint8_t *)m->pub.build_id, bid, nbid);
    m->pub.build_id_len = nbid;
    m->pub.unload_ns = UINT64_MAX;
    m->pub.path = ttfi_keep_text(d, str, n, 0);
    m->load_tsc = d->tsc;
    m->off = ev->offset;
    return 0;
}

static int dec_module_unload(struct dec *d, unsigned tag,
                             struct ttfi_cursor *s, ttf_event *ev)
{
    uint64_t a;
    int r;

    (void)tag;
    if ((r = cur_uvar(s, &a)))
        return r;
    ev_begin(d, ev, TTF_EV_MODULE_UNLOAD, d->c.rec);
    ev->addr = a;
    if (!d->scan) {             /* the module it unloads (meta.c matched it) */
        const struct aux *x = ttfi_aux_find(d->t, ev->offset);
        ev->text = x ? x->text : "";
        ev->site = x ? x->index : UINT32_MAX;
        return 0;
    }
    struct unload *u = PUSH(d->scan, unl);
    if (u)
        *u = (struct unload){d->tsc, a, ev->offset};
    return 0;
}

static int dec_thread_start(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                            ttf_event *ev)
{
    const uint8_t *str;
    size_t n;
    uint64_t a;
    int r;

    (void)tag;
    if ((r = cur_uvar(s, &a)) || (r = cur_str(s, &str, &n)))
        return r;
    ev_begin(d, ev, TTF_EV_THREAD_START, d->c.rec);
    if (!d->scan) {
        ev->text = ttfi_text_of(d, d->c.rec);
        return 0;
    }
    ev->text = ttfi_keep_text(d, str, n, 0);
    struct tthread *th = scan_thread(d);
    if (th->has_start)
        return 0;
    th->has_start = 1;
    th->start_tsc = d->tsc;
    th->pub.tid = (int64_t)a;
    th->pub.first_name = ev->text;
    if (!*th->pub.name)
        th->pub.name = ev->text;
    return 0;
}

static int dec_thread_name(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                           ttf_event *ev)
{
    const uint8_t *str;
    size_t n;
    int r;

    (void)tag;
    if ((r = cur_str(s, &str, &n)))
        return r;
    ev_begin(d, ev, TTF_EV_THREAD_NAME, d->c.rec);
    if (!d->scan) {
        ev->text = ttfi_text_of(d, d->c.rec);
        return 0;
    }
    ev->text = ttfi_keep_text(d, str, n, 0);
    scan_thread(d)->pub.name = ev->text;
    return 0;
}

static int dec_thread_end(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                          ttf_event *ev)
{
    (void)tag;
    (void)s;
    ev_begin(d, ev, TTF_EV_THREAD_END, d->c.rec);
    if (d->scan) {
        scan_thread(d)->pub.ended = 1;
        scan_thread(d)->end_tsc = d->tsc;
    }
    return 0;
}

static int dec_message(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                       ttf_event *ev)
{
    uint64_t a;
    int r;

    (void)tag;
    if ((r = cur_uvar(s, &a)))
        return r;
    if (a > UINT32_MAX)
        return CORRUPT(s, "MESSAGE site %llu too large", (unsigned long long)a);
    ev_begin(d, ev, TTF_EV_MESSAGE, d->c.rec);
    ev->site = (uint32_t)a;
    ev->args = s->p;
    ev->args_len = (size_t)cur_left(s);
    if (!d->scan) {
        const ttf_callsite *cs = ttfi_find_site(d->t, ev->site);
        if (cs && cs->kind == TTF_SITE_MARK)
            ev->kind = TTF_EV_MARK;
    }
    return 0;
}

/* SCOPE_ENTER and SCOPE_EXIT. */
static int dec_scope(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                     ttf_event *ev)
{
    uint64_t a;
    int r;

    if ((r = cur_uvar(s, &a)))
        return r;
    if (a > UINT32_MAX)
        return CORRUPT(s, "scope site %llu too large", (unsigned long long)a);
    ev_begin(d, ev, tag == TTF_R_SCOPE_ENTER ? TTF_EV_ENTER : TTF_EV_EXIT,
             d->c.rec);
    ev->site = (uint32_t)a;
    d->depth += tag == TTF_R_SCOPE_ENTER ? 1 : -1;
    return 0;
}

static int dec_crash(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                     ttf_event *ev)
{
    uint64_t a, b;
    int64_t sv;
    int r;

    (void)tag;
    if ((r = cur_uvar(s, &a)) || (r = cur_svar(s, &sv)) ||
        (r = cur_uvar(s, &b)))
        return r;
    ev_begin(d, ev, TTF_EV_CRASH, d->c.rec);
    ev->signo = a > INT32_MAX ? INT32_MAX : (int)a;
    ev->code = clamp_depth(sv);
    ev->fault_addr = b;
    if (d->scan)
        d->scan->sum.crashed = 1;
    return 0;
}

static int dec_lost(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                    ttf_event *ev)
{
    uint64_t a, b;
    uint8_t u8;
    int r;

    (void)tag;
    if ((r = cur_uvar(s, &a)) || (r = cur_uvar(s, &b)) ||
        (r = cur_u8(s, &u8)))
        return r;
    ev_begin(d, ev, TTF_EV_LOST, d->c.rec);
    ev->lost_events = a;
    ev->lost_bytes = b;
    ev->code = u8;
    return 0;
}

static int dec_end(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                   ttf_event *ev)
{
    int64_t sv;
    int r;

    (void)tag;
    if ((r = cur_svar(s, &sv)))
        return r;
    ev_begin(d, ev, TTF_EV_END, d->c.rec);
    ev->signo = clamp_depth(sv);
    if (d->scan) {
        d->scan->proc.exited = 1;
        d->scan->proc.exit_status = ev->signo;
        d->scan->proc.exit_thread = d->thread;
    }
    return 0;
}

/* PAUSE and RESUME. */
static int dec_pause(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                     ttf_event *ev)
{
    (void)s;
    ev_begin(d, ev, tag == TTF_R_PAUSE ? TTF_EV_PAUSE : TTF_EV_RESUME,
             d->c.rec);
    return 0;
}

static int dec_cut(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                   ttf_event *ev)
{
    uint8_t u8;
    int r;

    (void)tag;
    if ((r = cur_u8(s, &u8)))
        return r;
    ev_begin(d, ev, TTF_EV_CUT, d->c.rec);
    ev->code = u8;
    return 0;
}

/* The decoder of each required event record tag (NULL: not an event). */
static const rec_decoder event_decoders[TTF_R_CUT + 1] = {
    [TTF_R_MODULE_LOAD] = dec_module_load,
    [TTF_R_MODULE_UNLOAD] = dec_module_unload,
    [TTF_R_THREAD_START] = dec_thread_start,
    [TTF_R_THREAD_NAME] = dec_thread_name,
    [TTF_R_THREAD_END] = dec_thread_end,
    [TTF_R_MESSAGE] = dec_message,
    [TTF_R_SCOPE_ENTER] = dec_scope,
    [TTF_R_SCOPE_EXIT] = dec_scope,
    [TTF_R_CRASH] = dec_crash,
    [TTF_R_LOST] = dec_lost,
    [TTF_R_END] = dec_end,
    [TTF_R_PAUSE] = dec_pause,
    [TTF_R_RESUME] = dec_pause,
    [TTF_R_CUT] = dec_cut,
};

/* Event record tag (<= TTF_R_CUT, not PROCESS, CALLSITE or SYNC) after its
 * time delta. Returns 0 or a TT_E* code. */
static int event_record(struct dec *d, unsigned tag, struct ttfi_cursor *s,
                        ttf_event *ev)
{
    return event_decoders[tag](d, tag, s, ev);
}

/* SYNC_OP: u8 op, uvar object, svar arg (after t). 0 or damaged. */
static int sync_op_record(struct dec *d, struct ttfi_cursor *s, ttf_event *ev)
{
    const uint8_t *rec = d->c.rec;
    uint8_t op;
    uint64_t obj;
    int64_t arg;
    int r;

    if ((r = cur_u8(s, &op)) || (r = cur_uvar(s, &obj)) || (r = cur_svar(s, &arg)))
        return r;
    ev_begin(d, ev, TTF_EV_SYNC_OP, rec);
    ev->code = op;
    ev->addr = obj;
    ev->sync_arg = arg;
    return 0;
}

/* hot_decode's SYNC_OP (read_int.h): what ext_record and sync_op_record
 * do for one, in line and without their reports. Between two events no
 * prefix is pending (a site, STRINGS or TIMED prefix is read with the
 * ENTER or EXIT after it, in the same dec_next call), so dec_next's checks
 * before ext_record all pass; trailing bytes of the payload are skipped
 * as ext_record skips them. test_format_fast checks it against dec_next
 * on every operation. */
int ttfi_sync_fast(struct dec *d, ttf_event *ev)
{
    return sync_read(d, ev);
}

/* EXEC, VFORK and UNWIND (format 1.3, optional; FORMAT.md 4.4), after t:
 * how the process or some of its frames ended. 0 or damaged. */
static int ends_record(struct dec *d, unsigned tag, struct ttfi_cursor *s, ttf_event *ev)
{
    const uint8_t *rec = d->c.rec, *str = NULL;
    uint64_t u = 0;
    int64_t sv = 0;
    uint8_t how = 0;
    size_t n = 0;
    int r;

    if (tag == TTF_R_EXEC)
        r = cur_svar(s, &sv) ? d->pb.code : cur_str(s, &str, &n);
    else if (tag == TTF_R_VFORK)
        r = cur_uvar(s, &u);
    else
        r = cur_u8(s, &how) ? d->pb.code : cur_uvar(s, &u);
    if (r)
        return r;
    if (tag == TTF_R_UNWIND && u > INT32_MAX)
        return CORRUPT(s, "UNWIND of %llu frames", (unsigned long long)u);
    ev_begin(d, ev, tag == TTF_R_EXEC ? TTF_EV_EXEC : tag == TTF_R_VFORK ? TTF_EV_VFORK
                                                                          : TTF_EV_UNWIND, rec);
    ev->code = tag == TTF_R_EXEC ? clamp_depth(sv) : tag == TTF_R_VFORK ? clamp_depth((int64_t)u)
                                                                          : how;
    if (tag == TTF_R_UNWIND) {
        ev->unwound = (uint32_t)u;
        d->depth -= (int64_t)u;
    }
    if (tag == TTF_R_EXEC)
        ev->text = d->scan ? ttfi_keep_text(d, str, n, 0) : ttfi_text_of(d, rec);
    if (tag == TTF_R_EXEC && d->scan)
        d->scan->proc.exec_path = sv == 0 ? ev->text : "";
    return 0;
}

/* A STRINGS record (v1.6, FORMAT.md 4.6), its payload body: checked and
 * kept for the ENTER that must follow. 0, or <0 if damaged. */
static int strings_record(struct dec *d, const uint8_t *body, uint64_t len)
{
    struct ttfi_cursor *c = &d->c;
    char why[96];
    if (d->pstr) {
        c->rec = d->pstr_rec;
        return CORRUPT(c, "STRINGS record not followed by an ENTER");
    }
    if (ttfi_strings_check(body, (size_t)len, why, sizeof why))
        return CORRUPT(c, "bad STRINGS record: %s", why);
    d->pstr = body;
    d->pstr_len = (uint32_t)len;
    d->pstr_rec = c->rec;
    return 0;
}

/* The strings read before an ENTER (a STRINGS record), given to it. */
static inline void enter_strings(struct dec *d, ttf_event *ev)
{
    ev->strs = d->pstr;
    ev->strs_len = d->pstr ? d->pstr_len : 0;
    d->pstr = NULL;
}

/* An extended record (tag 0x01..0x3F). 1: *ev is an event; 0: consumed,
 * nothing to report; <0: damaged. */
static int ext_record(struct dec *d, unsigned tag, ttf_event *ev)
{
    struct ttfi_cursor *c = &d->c;
    uint64_t len, dt;
    const uint8_t *body;
    int r;

    c->p++;
    if ((r = cur_uvar(c, &len)) || (r = cur_bytes(c, len, &body, rec_name(tag))))
        return r;
    if (tag == TTF_R_STRINGS)
        return strings_record(d, body, len);
    int ends = tag == TTF_R_EXEC || tag == TTF_R_VFORK || tag == TTF_R_UNWIND;
    if (tag >= TTF_R_OPTIONAL_FIRST && tag != TTF_R_SYNC_OP && !ends) {
        if (d->scan)
            d->scan->skipped[tag - TTF_R_OPTIONAL_FIRST]++;
        return 0;
    }
    if (tag > TTF_R_CUT && tag < TTF_R_OPTIONAL_FIRST)
        return CORRUPT(c, "unknown required record 0x%02x", tag);
    struct ttfi_cursor s = *c;
    s.p = body;
    s.end = body + len;
    s.end_is_eof = 0;
    if (tag == TTF_R_PROCESS || tag == TTF_R_CALLSITE) {
        r = ttfi_meta_record(d, tag, &s);
    } else if ((r = cur_uvar(&s, &dt)) == 0) {
        d->tsc += dt;
        if (d->scan)
            ttfi_scan_timed(d);
        if (tag == TTF_R_SYNC)
            r = ttfi_meta_record(d, tag, &s);
        else if (tag == TTF_R_SYNC_OP)
            r = (r = sync_op_record(d, &s, ev)) == 0 ? 1 : r;
        else if (ends)
            r = (r = ends_record(d, tag, &s, ev)) == 0 ? 1 : r;
        else if ((r = event_record(d, tag, &s, ev)) == 0)
            r = 1;
    }
    if (r >= 0)
        return r;
    char what[sizeof d->pb.what];
    memcpy(what, d->pb.what, sizeof what);
    return CORRUPT(c, "bad %s record: %s", rec_name(tag), what);
}

/* The SSE registers of an ENTER whose mask has TTF_MASK_XMM, or of an
 * EXIT, in an XMM chunk (FORMAT.md 4.1). 0 or a TT_E* code. */
static int dec_xmm(struct dec *d, ttf_event *ev, int given)
{
    struct ttfi_cursor *c = &d->c;
    uint64_t u;
    uint8_t m = 0;

    ev->has_xmm = 1;
    if (ev->kind == TTF_EV_EXIT) {
        if (cur_uvar(c, &u))
            return d->pb.code;
        d->xret ^= __builtin_bswap64(u);
        ev->retxmm = d->xret;
        return 0;
    }
    if (given && cur_u8(c, &m))
        return d->pb.code;
    for (int i = 0; i < TTF_XMMREGS; i++) {
        if (!(m & (1u << i)))
            continue;
        if (cur_uvar(c, &u))
            return d->pb.code;
        d->xregs[i] ^= __builtin_bswap64(u);
    }
    ev->xchanged = m;
    memcpy(ev->argregs + TTF_XMM_SLOT(0), d->xregs, sizeof d->xregs);
    return 0;
}

/* The values after an ENTER/EXIT of a values chunk (FORMAT.md 4.1): the
 * register mask and deltas, or rax; then the SSE registers in an XMM
 * chunk. 0 or a TT_E* code (d->pb). */
static int dec_values(struct dec *d, ttf_event *ev)
{
    struct ttfi_cursor *c = &d->c;
    int64_t v;
    uint8_t mask;

    if ((d->scan || d->skipv) &&
        values_skip_fast(d, &c->p, c->end, ev->kind == TTF_EV_EXIT)) {
        ev->has_values = 0;     /* the scan, an iteration without values:
                                   stepped over as the in-line path does
                                   (the registers are not kept there) */
        return 0;
    }
    ev->has_values = 1;
    if (ev->kind == TTF_EV_EXIT) {
        if (cur_svar(c, &v))
            return d->pb.code;
        ev->retval = (uint64_t)v;
        return d->xmm ? dec_xmm(d, ev, 0) : 0;
    }
    uint64_t stride[TTF_ARGREGS];
    unsigned changed = 0, xchanged = 0;
    if (values_enter_fast(d, &c->p, c->end, ev->argregs, stride, &changed, &xchanged)) {
        /* the in-line reader's (an ENTER after a prefix, a long time) */
        memcpy(d->regs, ev->argregs, sizeof d->regs);
        memcpy(d->stride, stride, sizeof stride);
        ev->changed = changed;
        if (!d->xmm) {
            memset(ev->argregs + TTF_XMM_SLOT(0), 0, TTF_XMM_REGS * sizeof *ev->argregs);
            return 0;
        }
        ev->has_xmm = 1;
        ev->xchanged = xchanged;
        memcpy(d->xregs, ev->argregs + TTF_XMM_SLOT(0), sizeof d->xregs);
        return 0;
    }
    changed = 0;            /* (long or damaged: read here, and reported) */
    if (cur_u8(c, &mask))
        return d->pb.code;
    if ((mask & TTF_MASK_BAD) && !d->xmm)
        return CORRUPT(c, "ENTER value mask 0x%02x has bit 7 set", mask);
    for (int i = 0; i < TTF_ARGREGS; i++) {
        uint64_t d_i = mask & TTF_MASK_STRIDE ? d->stride[i] : 0;
        if (mask & (1u << i)) {
            if (cur_svar(c, &v))
                return d->pb.code;
            d_i = (uint64_t)v;
        }
        changed |= (unsigned)(d_i != 0) << i;
        d->stride[i] = d_i;
        d->regs[i] += d_i;
    }
    ev->changed = changed;
    memcpy(ev->argregs, d->regs, sizeof d->regs);
    if (d->xmm)
        return dec_xmm(d, ev, (mask & TTF_MASK_XMM) != 0);
    memset(ev->argregs + TTF_XMM_SLOT(0), 0, TTF_XMM_REGS * sizeof *ev->argregs);
    return 0;
}

static inline int is_enter_tag(unsigned tag)
{
    return (tag & 0xC0) == TTF_T_ENTER_HIT || tag == TTF_T_ENTER_MISS;
}

static inline int is_exit_tag(unsigned tag)
{
    return tag >= TTF_T_EXIT_HIT || tag == TTF_T_EXIT_MISS;
}

/* Does this hot record carry a time delta? ENTERs in every timed chunk,
 * but in a lazy one (v1.7) not right after an untimed EXIT (d->ux; in a
 * chain chunk, v1.9, an untimed ENTER too); EXITs
 * unless the chunk is sparse (v1.4) and no TIMED or SAMPLE prefix came. */
static inline int hot_timed(const struct dec *d, int is_exit)
{
    return is_exit ? d->xtimed || d->ptimed : d->timed && !d->ux;
}

/* A hot record at rec of a lazy chunk (v1.7), read to its end (v, its
 * time delta, added): an EXIT after a prefix, an ENTER not after an
 * untimed EXIT (nor, in a chain chunk, v1.9, after an untimed ENTER), has
 * its time measured (and, while opening, the gap from a
 * measured event just before it is learnt); the others are placed in
 * their run of untimed events (untimed.c). */
static void lazy_time(struct dec *d, ttf_event *ev, const uint8_t *rec, uint64_t v, int ex)
{
    int measured = ex ? d->ptimed != NULL : !d->ux;
    d->ptimed = NULL;
    d->ux = (ex || d->chain) && !measured;
    if (measured) {
        if (d->scan) {
            ttfi_scan_timed(d);
            if (d->lastm)
                ttfi_lazy_gap(d, ev->addr, ex, v);
        }
        d->lastm = 1;
    } else {
        uint64_t lo = d->tsc, hi = d->tsc;
        if (d->scan)
            ttfi_scan_untimed(d, ex, d->c.p);
        else if (!d->notimes)
            ev->tsc = ttfi_lazy_at(d, ev->addr, ex, rec, d->c.p, &lo, &hi);
        ev->time_ns = to_ns(d->t, ev->tsc);
        ev->untimed = 1;
        ev->early_ns = to_ns(d->t, lo);
        ev->late_ns = to_ns(d->t, hi);
        d->lastm = 0;
    }
    d->lastk = ex;
    d->lastfn = ev->addr;
}

/* An EXIT at rec, read to its end (v, its time delta, added): in a
 * sparse chunk without a TIMED or SAMPLE prefix it has no time of its own
 * (ev->untimed, untimed.c); a SAMPLE joins its function's sums. */
static inline void exit_time(struct dec *d, ttf_event *ev, const uint8_t *rec, uint64_t v)
{
    if (!d->timed || d->xtimed)
        return;
    if (d->ptimed) {
        if (*d->ptimed == TTF_T_SAMPLE)
            ttfi_untimed_sample(d, ev->addr, d->tsc - v);
        d->ptimed = NULL;
        return;
    }
    uint64_t hi = d->tsc;
    ev->early_ns = to_ns(d->t, d->tsc);
    if (!d->notimes)
        ev->tsc = untimed_at(d, ev->addr, rec, d->c.p, &hi);
    ev->time_ns = to_ns(d->t, ev->tsc);
    ev->untimed = 1;
    ev->late_ns = to_ns(d->t, hi);
}

/* A SITE_WAY or SITE_NEW prefix (v1.2) at c->rec: kept for the ENTER that
 * must follow. 0, or <0 if its delta is damaged. */
static int dec_site_prefix(struct dec *d, unsigned tag)
{
    struct ttfi_cursor *c = &d->c;
    int64_t delta = 0;
    if (d->pend)
        return CORRUPT(c, "call-site record not followed by an ENTER");
    c->p = c->rec + 1;
    if (tag == TTF_T_SITE_NEW && cur_svar(c, &delta))
        return d->pb.code;
    d->pend = tag;
    d->pend_rec = c->rec;
    d->pend_site = d->sites.last + (uint64_t)delta;
    return 0;
}

/* The call site of an ENTER of fn: the prefix's, else the predicted one;
 * the chunk's site state moves on (ttf_site_advance). */
static inline uint64_t enter_site(struct dec *d, uint64_t fn)
{
    uint64_t site;
    if (d->pend == TTF_T_SITE_NEW)
        site = d->pend_site;
    else if (d->pend)
        site = d->sites.ways[TTF_SITE_SLOT(fn)][d->pend - TTF_T_SITE_WAY];
    else
        site = ttf_site_pred(&d->sites, fn,
                             d->sites.path[TTF_SITE_PATH(fn, d->sites.last)]);
    d->pend = 0;
    ttf_site_advance(&d->sites, fn, site);
    return site;
}

/* Next event of the chunk: 1 with *ev, 0 at its end, <0 damaged (d->pb). */
static int dec_next(struct dec *d, ttf_event *ev)
{
    struct ttfi_cursor *c = &d->c;
    for (;;) {
        const uint8_t *p = c->p;
        uint64_t v = 0;
        if (p >= c->end) {
            c->rec = d->pend ? d->pend_rec : d->ptimed ? d->ptimed : d->pstr ? d->pstr_rec : p;
            if (d->pend && !c->end_is_eof)
                return CORRUPT(c, "call-site record at the end of its chunk");
            if (d->pstr && !c->end_is_eof)
                return CORRUPT(c, "STRINGS record at the end of its chunk");
            if (d->ptimed && !c->end_is_eof)
                return CORRUPT(c, "TIMED record at the end of its chunk");
            if (!c->end_is_eof)
                return 0;
            return TRUNCATED(c, "chunk cut by the end of the file");
        }
        unsigned tag = *p;
        c->rec = p;
        if (d->pend && !is_enter_tag(tag)) {
            c->rec = d->pend_rec;
            return CORRUPT(c, "call-site record not followed by an ENTER");
        }
        if (d->pstr && !is_enter_tag(tag) &&
            !(tag >= TTF_T_SITE_WAY && tag <= TTF_T_SITE_NEW && d->sites_ok)) {
            c->rec = d->pstr_rec;
            return CORRUPT(c, "STRINGS record not followed by an ENTER");
        }
        if (d->ptimed && !is_exit_tag(tag)) {
            c->rec = d->ptimed;
            return CORRUPT(c, "TIMED record not followed by an EXIT");
        }
        if (tag >= TTF_T_ENTER_HIT) {
            int ex = tag >= TTF_T_EXIT_HIT;
            c->p = p + 1;
            if (hot_timed(d, ex) && cur_uvar(c, &v))
                return d->pb.code;
            d->tsc += v;
            ev_begin(d, ev, ex ? TTF_EV_EXIT : TTF_EV_ENTER, p);
            ev->addr = d->cache[tag & (TTF_SLOTS - 1)];
            if (tag < TTF_T_EXIT_HIT) {
                ev->call_site = enter_site(d, ev->addr);
                enter_strings(d, ev);
            }
            if (d->values && dec_values(d, ev))
                return d->pb.code;
            if (d->lazy)
                lazy_time(d, ev, p, v, ex);
            else if (ex)
                exit_time(d, ev, p, v);
            d->depth += tag >= TTF_T_EXIT_HIT ? -1 : 1;
            return 1;
        }
        if (tag == TTF_T_END)
            return 0;
        if (tag == TTF_T_ENTER_MISS || tag == TTF_T_EXIT_MISS) {
            int64_t delta;
            int ex = tag == TTF_T_EXIT_MISS;
            c->p = p + 1;
            if (cur_svar(c, &delta) || (hot_timed(d, ex) && cur_uvar(c, &v)))
                return d->pb.code;
            uint64_t addr = d->prev + (uint64_t)delta;
            d->cache[TTF_SLOT(addr)] = addr;
            d->prev = addr;
            d->tsc += v;
            ev_begin(d, ev, ex ? TTF_EV_EXIT : TTF_EV_ENTER, p);
            ev->addr = addr;
            if (tag == TTF_T_ENTER_MISS) {
                ev->call_site = enter_site(d, addr);
                enter_strings(d, ev);
            }
            if (d->values && dec_values(d, ev))
                return d->pb.code;
            if (d->lazy)
                lazy_time(d, ev, p, v, ex);
            else if (ex)
                exit_time(d, ev, p, v);
            d->depth += tag == TTF_T_EXIT_MISS ? -1 : 1;
            return 1;
        }
        if ((tag == TTF_T_TIMED || tag == TTF_T_SAMPLE) && d->timed && !d->xtimed) {
            d->ptimed = p;      /* the EXIT that must follow carries a time */
            c->p = p + 1;
            continue;
        }
        if (tag >= TTF_T_SITE_WAY && tag <= TTF_T_SITE_NEW && d->sites_ok) {
            if (dec_site_prefix(d, tag))
                return d->pb.code;
            continue;
        }
        if (tag > TTF_R_LAST)
            return CORRUPT(c, "invalid record tag 0x%02x", tag);
        d->lastm = 0;           /* a lazy chunk learns gaps between hot events */
        d->ux &= !ttfi_ext_timed(tag);  /* a time read: the next ENTER has one */
        int r = ext_record(d, tag, ev);
        if (r)
            return r;
    }
}

/* While scanning: a chunk's decoding stopped with r (0 clean, <0 damaged). */
static void chunk_done(struct dec *d, int r)
{
    struct chunk *ch = d->ch;
    ttf_trace *t = d->scan;
    if (d->srun)
        ttfi_scan_run_end(d);
    if (r >= 0) {
        ch->vend = cur_offset(&d->c, d->c.p);
        return;
    }
    ch->vend = cur_offset(&d->c, d->c.rec ? d->c.rec : d->c.p);
    ch->damaged = 1;
    t->sum.chunks_damaged++;
    char tail[96];
    snprintf(tail, sizeof tail, "; rest of chunk (thread %u, seq %u) skipped",
             ch->thread, ch->seq);
    ttfi_note_problem(t, &d->pb, tail);
}

static void lost_here(const struct dec *d, ttf_event *ev, uint64_t off,
                      uint64_t bytes)
{
    ev_fill(ev, TTF_EV_LOST, d->ch->thread, d->tsc, to_ns(d->t, d->tsc),
            clamp_depth(d->depth), off);
    ev->lost_bytes = bytes;
}

/* Next event of the thread, any record: 1 with *ev, 0 at the end. Out of
 * line, so that titer_next's fast path stays small where it is inlined. */
int ttfi_titer_step(struct titer *ti,
                                                ttf_event *ev)
{
    struct dec *d = &ti->d;
    for (;;) {
        if (!ti->in_chunk) {
            if (ti->k >= ti->th->n)
                return 0;
            struct chunk *ch = &d->t->chunks[ti->th->first + ti->k];
            uint32_t gap = ti->k ? ch->seq - ti->prev_seq - 1 : ch->seq;
            ti->prev_seq = ch->seq;
            ti->k++;
            chunk_begin(d, ch);
            d->next_tsc = ti->k < ti->th->n ? d->t->chunks[ti->th->first + ti->k].tsc : 0;
            ti->in_chunk = 1;
            if (gap) {
                if (d->scan) {
                    ti->th->pub.seq_gaps += gap;
                    ttfi_note(d->scan, "%s: offset %llu: thread %u: %u chunk(s) "
                         "missing before seq %u", d->t->name,
                         (unsigned long long)ch->off, ch->thread, gap, ch->seq);
                }
                lost_here(d, ev, ch->off, (uint64_t)gap * d->t->hdr.chunk_size);
                return 1;
            }
        }
        int r = dec_next(d, ev);
        if (r == 1)
            return 1;
        ti->in_chunk = 0;
        d->fast = 0;
        if (d->scan)
            chunk_done(d, r);
        if (r < 0 || d->ch->damaged) {
            lost_here(d, ev, d->ch->vend, d->ch->end - d->ch->vend);
            return 1;
        }
    }
}

void ttfi_titer_init(struct titer *ti, const ttf_trace *t, size_t thread,
                       ttf_trace *scan)
{
    memset(ti, 0, sizeof *ti);
    ti->d.t = t;
    ti->d.buf = t->buf;
    ti->d.scan = scan;
    ti->th = &((ttf_trace *)t)->threads[thread];
}
