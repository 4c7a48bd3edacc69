/*
 * cap_api.c - the manual API of ttcap.h: deferred messages (TT_LOG,
 * TT_VALUE, TT_RETURN, TT_MARK), TT_SCOPE, thread names, pause/resume and
 * the small queries. Messages store a call-site id and raw argument bytes;
 * the call site's text is written once, when it first fires.
 */
#include <string.h>
#include <sys/prctl.h>

#include "cap_int.h"

/* (that TTCAP_ARG_* and TTCAP_SITE_* equal ttfmt.h's TTF_ARG_* and
 * TTF_SITE_* is checked in tests/unit/test_capture.c: capture/ sees only
 * the wire header of the format) */
_Static_assert(TTCAP_STR_MAX == TTF_STR_MAX, "string bound follows the format");

__attribute__((visibility("default"))) int ttcap_threshold = -0x7fffffff;

__attribute__((visibility("default")))
int ttcap_version(void)
{
    return TTCAP_VERSION_NUMBER;
}

__attribute__((visibility("default")))
int ttcap_enabled(void)
{
    return cap_on != 0;
}

__attribute__((visibility("default")))
const char *ttcap_path(void)
{
    return cap_on ? cap.path : NULL;
}

__attribute__((visibility("default")))
int ttcap_set_level(int level)
{
    int old = cap.level;
    cap.level = level < 0 ? 0 : level;
    if (cap_on)
        ttcap_threshold = cap.level;
    return old;
}

/* Claim the calling thread's writer; NULL if it must not write now. */
static struct tstate *grab(void)
{
    struct tstate *t = &cap_tls;
    if (!cap_on || t->state == TS_DONE)
        return NULL;
    if (t->busy) {
        t->lost_nested++;
        return NULL;
    }
    t->busy = 1;
    atomic_signal_fence(memory_order_seq_cst);
    return t;
}

static void release(struct tstate *t)
{
    atomic_signal_fence(memory_order_seq_cst);
    t->busy = 0;
}

/* A record holding only its time delta (and optionally one uvar). */
static void simple(struct tstate *t, uint8_t tag, int with_site, uint64_t site)
{
    uint8_t *p = cap_room(t, 24);
    if (!p)
        return;
    uint8_t *q = cap_put_t(t, p + 2);
    if (with_site)
        q = ttf_put_uvar(q, site);
    cap_commit(t, p, tag, cap_ext_close(p, q));
}

__attribute__((visibility("default")))
void ttcap_thread_name(const char *name)
{
    struct tstate *t;
    if (!name || !(t = grab()))
        return;
    char buf[CAP_NAME_LEN];
    size_t n = strnlen(name, CAP_NAME_LEN - 1);
    memcpy(buf, name, n);
    buf[n] = 0;
    prctl(PR_SET_NAME, buf, 0, 0, 0); /* keep the OS name in step */
    cap_write_name(t, buf);
    release(t);
}

__attribute__((visibility("default")))
void ttcap_pause(void)
{
    struct tstate *t = grab();
    if (!t)
        return;
    simple(t, TTF_R_PAUSE, 0, 0);
    release(t);
}

__attribute__((visibility("default")))
void ttcap_resume(void)
{
    struct tstate *t = grab();
    if (!t)
        return;
    simple(t, TTF_R_RESUME, 0, 0);
    release(t);
}

__attribute__((visibility("default")))
void ttcap_flush(void)
{
}

/* Upper bound of the encoded size of the arguments. */
static size_t args_size(const struct ttcap_site *s, const union ttcap_arg *a,
                        size_t *slen)
{
    size_t n = 0;
    for (unsigned i = 0; i < s->nargs; i++) {
        slen[i] = 0;
        if (s->types[i] == TTCAP_ARG_STR) {
            slen[i] = a[i].s ? strnlen(a[i].s, TTCAP_STR_MAX) : 6;
            n += 2 + slen[i];
        } else {
            n += TTF_UVAR_MAX;
        }
    }
    return n;
}

static uint8_t *put_args(uint8_t *q, const struct ttcap_site *s,
                         const union ttcap_arg *a, const size_t *slen)
{
    for (unsigned i = 0; i < s->nargs; i++) {
        switch (s->types[i]) {
        case TTCAP_ARG_I64:
            q = ttf_put_svar(q, a[i].i);
            break;
        case TTCAP_ARG_U64:
            q = ttf_put_uvar(q, a[i].u);
            break;
        case TTCAP_ARG_F64: {
            uint64_t bits;
            memcpy(&bits, &a[i].f, 8);
            ttf_put_u64(q, bits);
            q += 8;
            break;
        }
        case TTCAP_ARG_STR:
            q = ttf_put_str(q, a[i].s ? a[i].s : "(null)", slen[i]);
            break;
        default:
            q = ttf_put_uvar(q, a[i].u);  /* U64, PTR */
            break;
        }
    }
    return q;
}

/* Any message: defines the site, handles strings, chunk switches, new
 * and cut threads. */
static void emit_slow(struct ttcap_site *s, const union ttcap_arg *args)
{
    struct tstate *t = grab();
    if (!t)
        return;
    if (t->state == TS_NEW)
        cap_room(t, 0);         /* begin the thread before its first site */
    uint32_t id = __atomic_load_n(&s->id, __ATOMIC_ACQUIRE);
    if (__builtin_expect(!id, 0))
        id = (uint32_t)cap_site_id(t, s);
    if (s->nargs > TTCAP_MAX_ARGS)
        s->nargs = TTCAP_MAX_ARGS;
    size_t slen[TTCAP_MAX_ARGS];
    size_t need = 24 + args_size(s, args, slen);
    uint8_t *p = t->pos;
    if (!p || p + need > t->limit + CAP_RESERVE / 2)
        p = cap_room(t, need);
    if (p) {
        uint8_t *q = cap_put_t(t, p + 2);
        q = ttf_put_uvar(q, id);
        q = put_args(q, s, args, slen);
        cap_commit(t, p, TTF_R_MESSAGE, cap_ext_close(p, q));
    }
    release(t);
}

/* The common message: a defined site with fixed-size arguments and room in
 * the chunk. Everything else goes to emit_slow. */
__attribute__((visibility("default")))
void ttcap_emit(struct ttcap_site *s, const union ttcap_arg *args)
{
    struct tstate *t = &cap_tls;
    uint32_t id = __atomic_load_n(&s->id, __ATOMIC_ACQUIRE);
    unsigned n = s->nargs;
    if (__builtin_expect(!id || !(s->flags & TTCAP_SITE_FIXED) || t->busy || !cap_on, 0)) {
        emit_slow(s, args);
        return;
    }
    t->busy = 1;
    atomic_signal_fence(memory_order_seq_cst);
    /* pos only after busy is set: a signal handler that logs before that
     * moves pos (or unmaps the chunk), and a stale copy would write over it */
    uint8_t *p = t->pos;
    if (__builtin_expect(!p || p + 24 + 10 * n > t->limit + CAP_RESERVE / 2, 0)) {
        release(t);
        emit_slow(s, args);
        return;
    }
    uint8_t *q = cap_put_t(t, p + 2);
    q = ttf_put_uvar(q, id);
    for (unsigned i = 0; i < n; i++) {
        if (s->types[i] == TTCAP_ARG_I64) {
            q = ttf_put_svar(q, args[i].i);
        } else if (s->types[i] == TTCAP_ARG_F64) {
            uint64_t bits;
            memcpy(&bits, &args[i].f, 8);
            ttf_put_u64(q, bits);
            q += 8;
        } else {
            q = ttf_put_uvar(q, args[i].u);   /* U64, PTR */
        }
    }
    cap_commit(t, p, TTF_R_MESSAGE, cap_ext_close(p, q));
    release(t);
}

__attribute__((visibility("default")))
struct ttcap_site *ttcap_scope_enter(struct ttcap_site *s)
{
    struct tstate *t = grab();
    if (!t)
        return NULL;
    if (t->state == TS_NEW)
        cap_room(t, 0);
    uint32_t id = __atomic_load_n(&s->id, __ATOMIC_ACQUIRE);
    if (!id)
        id = (uint32_t)cap_site_id(t, s);
    simple(t, TTF_R_SCOPE_ENTER, 1, id);
    t->depth++;
    release(t);
    return s;
}

__attribute__((visibility("default")))
void ttcap_scope_exit(struct ttcap_site **sp)
{
    struct tstate *t;
    if (!sp || !*sp || !(t = grab()))
        return;
    simple(t, TTF_R_SCOPE_EXIT, 1, (*sp)->id);
    t->depth--;
    release(t);
}
