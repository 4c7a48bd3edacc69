/*
 * chrome.c - stream a trace out as Chrome trace-event JSON (ttr_chrome_write
 * in ttfmt.h), the format the Perfetto UI and chrome://tracing load: one
 * track per thread, B/E pairs for frames, instant events for messages.
 * Threads are written one after the other; each needs only its open frames.
 * Names are escaped once per function and kept; the document never is.
 * Strings are escaped as ttdiff's JSON is (ttri_json_esc, report/JSON.md).
 * Stage 3 renderers of report/STAGES.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ttf_util.h"
#include "ttr_int.h"
#include "ttreport.h"

#define OUTBUF (1 << 16)        /* bytes gathered before each fwrite */
#define MSG_MAX 4096            /* longest message text written */
#define SCOPE_KEY (1ull << 63)  /* key bit of TT_SCOPE frames (site ids) */

/* Buffered output: one fwrite per OUTBUF bytes. */
struct out {
    FILE *f;                    /* destination */
    size_t n;                   /* bytes in buf */
    int failed;                 /* 1: a write failed */
    char buf[OUTBUF];           /* pending bytes */
};

/* A function seen in the thread being written: its escaped name. */
struct fslot {
    uint64_t key;               /* address, or SCOPE_KEY | site */
    char *json;                 /* the name as a JSON string, quotes included */
    int keep;                   /* 1: --function selects it */
};

/* An open frame. */
struct cframe {
    uint64_t key;               /* function key, matched by its EXIT */
    char *json;                 /* its escaped name (owned when by_time) */
    int keep;                   /* 1: written (--function selects it) */
};

/* The whole export. */
struct chrome {
    const ttf_trace *t;         /* trace being written */
    ttf_sym *sym;               /* names functions */
    const ttr_chrome_opts *o;   /* options (never NULL here) */
    struct out *out;            /* output buffer */
    struct fslot *map;          /* key -> name, open addressing, mask + 1 */
    uint64_t mask, used;
    int by_time;                /* modules were unloaded: no name cache */
    struct fslot tmp;           /* the uncached slot when by_time */
    struct cframe *stack;       /* open frames of the current thread */
    size_t depth, cap;
    int64_t pid;                /* traced process id (0 if unknown) */
    char head[96];              /* ,"pid":P,"tid":T of the current thread */
    size_t headlen;
    uint64_t last;              /* current thread: last timestamp (ns) */
};

/* ---- output ------------------------------------------------------------- */

static void flush_out(struct out *o)
{
    if (o->n && fwrite(o->buf, 1, o->n, o->f) != o->n)
        o->failed = 1;
    o->n = 0;
}

static void put(struct out *o, const char *s, size_t n)
{
    if (o->n + n > OUTBUF)
        flush_out(o);
    if (n > OUTBUF) {
        if (fwrite(s, 1, n, o->f) != n)
            o->failed = 1;
        return;
    }
    memcpy(o->buf + o->n, s, n);
    o->n += n;
}

static void puts_(struct out *o, const char *s)
{
    put(o, s, strlen(s));
}

static size_t fmt_u64(char *p, uint64_t v)
{
    char tmp[24];
    size_t n = 0, k = 0;

    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        p[k++] = tmp[--n];
    return k;
}

static void put_u64(struct out *o, uint64_t v)
{
    char b[24];
    put(o, b, fmt_u64(b, v));
}

/* Microseconds with three decimals: ns precision, no floating point. */
static void put_ts(struct out *o, uint64_t ns)
{
    char b[32];
    size_t n = fmt_u64(b, ns / 1000);
    unsigned frac = (unsigned)(ns % 1000);

    b[n++] = '.';
    b[n++] = (char)('0' + frac / 100);
    b[n++] = (char)('0' + frac / 10 % 10);
    b[n++] = (char)('0' + frac % 10);
    put(o, b, n);
}

/* s as a JSON string literal into a new buffer (quotes included), escaped
 * as ttr_json escapes (ttri_json_esc, JSON.md). NULL when memory runs out. */
static char *json_dup(const char *s)
{
    size_t len = strlen(s);
    char *b = malloc(len * TTRI_JSON_ESC_MAX + 3), *p = b;

    if (!b)
        return NULL;
    *p++ = '"';
    for (const unsigned char *u = (const unsigned char *)s; *u;)
        p = ttri_json_esc(p, &u);
    *p++ = '"';
    *p = '\0';
    return b;
}

/* Write s as a JSON string; 0 or TT_ENOMEM. */
static int put_json(struct out *o, const char *s)
{
    char *j = json_dup(s ? s : "");

    if (!j)
        return TT_ENOMEM;
    puts_(o, j);
    free(j);
    return 0;
}

/* ---- names -------------------------------------------------------------- */

static int fill_slot(struct chrome *c, struct fslot *s, uint64_t key,
                     const ttf_event *ev)
{
    const char *name = ttf_sym_event_name(c->sym, ev);

    s->key = key;
    s->json = json_dup(name);
    s->keep = (!c->o->function || ttd_regex_match(c->o->function, name)) &&
              !ttd_regex_match(c->o->exclude, name);
    return s->json ? 0 : TT_ENOMEM;
}

static int rehash(struct chrome *c, uint64_t slots)
{
    struct fslot *m = calloc(slots, sizeof *m);

    if (!m)
        return TT_ENOMEM;
    for (uint64_t j = 0; c->map && j <= c->mask; j++) {
        if (!c->map[j].json)
            continue;
        uint64_t i = ttfi_mix64(c->map[j].key) & (slots - 1);
        while (m[i].json)
            i = (i + 1) & (slots - 1);
        m[i] = c->map[j];
    }
    free(c->map);
    c->map = m;
    c->mask = slots - 1;
    return 0;
}

/* The name slot of an ENTER/EXIT event's function, NULL if out of memory.
 * Slots move when the table grows: use the result before the next call. */
static const struct fslot *lookup(struct chrome *c, uint64_t key,
                                  const ttf_event *ev)
{
    if (c->by_time) {
        free(c->tmp.json);
        c->tmp.json = NULL;
        return fill_slot(c, &c->tmp, key, ev) ? NULL : &c->tmp;
    }
    uint64_t i = ttfi_mix64(key) & c->mask;
    for (; c->map[i].json; i = (i + 1) & c->mask) {
        if (c->map[i].key == key)
            return &c->map[i];
    }
    if (fill_slot(c, &c->map[i], key, ev))
        return NULL;
    if (++c->used * 2 <= c->mask)
        return &c->map[i];
    if (rehash(c, (c->mask + 1) * 2))
        return NULL;
    for (i = ttfi_mix64(key) & c->mask; c->map[i].key != key || !c->map[i].json;)
        i = (i + 1) & c->mask;
    return &c->map[i];
}

/* ---- events ------------------------------------------------------------- */

/* ,\n{"ph":"X","pid":P,"tid":T,"ts":N then the caller's fields and '}'. */
static void ev_start(struct chrome *c, char ph, uint64_t ns)
{
    char b[16] = ",\n{\"ph\":\"?\"";

    b[9] = ph;
    put(c->out, b, 11);
    put(c->out, c->head, c->headlen);
    puts_(c->out, ",\"ts\":");
    put_ts(c->out, ns);
}

/* E events carry the name too (viewers ignore it, people reading do not). */
static void frame_event(struct chrome *c, char ph, const char *json,
                        uint64_t ns)
{
    ev_start(c, ph, ns);
    puts_(c->out, ",\"name\":");
    puts_(c->out, json);
    if (ph == 'B')
        puts_(c->out, ",\"cat\":\"function\"");
    put(c->out, "}", 1);
}

static int instant(struct chrome *c, const char *cat, const char *name,
                   uint64_t ns)
{
    ev_start(c, 'i', ns);
    puts_(c->out, ",\"s\":\"t\",\"cat\":\"");
    puts_(c->out, cat);
    puts_(c->out, "\",\"name\":");
    int rc = put_json(c->out, name);
    put(c->out, "}", 1);
    return rc;
}

static void pop_frame(struct chrome *c, uint64_t ns)
{
    struct cframe *f = &c->stack[--c->depth];
    if (f->keep)
        frame_event(c, 'E', f->json, ns);
    if (c->by_time)
        free(f->json);
}

static int enter(struct chrome *c, const ttf_event *ev, uint64_t key)
{
    const struct fslot *s = lookup(c, key, ev);

    if (!s)
        return TT_ENOMEM;
    if (c->depth == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 256;
        struct cframe *st = realloc(c->stack, cap * sizeof *st);
        if (!st)
            return TT_ENOMEM;
        c->stack = st;
        c->cap = cap;
    }
    struct cframe *f = &c->stack[c->depth];
    f->key = key;
    f->keep = s->keep;
    f->json = s->json;
    if (c->by_time) {
        /* the one temporary slot is reused: the frame owns its name */
        f->json = c->tmp.json;
        c->tmp.json = NULL;
    }
    c->depth++;
    if (f->keep)
        frame_event(c, 'B', f->json, c->last);
    return 0;
}

/* An EXIT closes the nearest open frame of its function and any frames
 * above it (skipped by a longjmp); an EXIT matching nothing is dropped. */
static void leave(struct chrome *c, uint64_t key)
{
    size_t k = c->depth;

    while (k > 0 && c->stack[k - 1].key != key)
        k--;
    while (k > 0 && c->depth >= k)
        pop_frame(c, c->last);
}

static const char *site_cat(const ttf_trace *t, const ttf_event *ev)
{
    const ttf_callsite *cs = ttf_get_callsite(t, ev->site);

    if (ev->kind == TTF_EV_MARK)
        return "mark";
    switch (cs ? cs->kind : 0) {
    case TTF_SITE_VALUE: return "value";
    case TTF_SITE_RETURN: return "return";
    default: return "log";
    }
}

static int message(struct chrome *c, const ttf_event *ev)
{
    const ttf_callsite *cs = ttf_get_callsite(c->t, ev->site);
    char text[MSG_MAX];

    if (c->o->no_messages)
        return 0;
    if (c->o->function &&
        !(cs && cs->func && ttd_regex_match(c->o->function, cs->func)))
        return 0;
    if (cs && cs->func && ttd_regex_match(c->o->exclude, cs->func))
        return 0;
    int n = ttf_format_message(c->t, ev, text, sizeof text);
    if (n < 0)
        snprintf(text, sizeof text, "<bad arguments: %s>", ttf_strerror(n));
    return instant(c, site_cat(c->t, ev), text, c->last);
}

static int trouble(struct chrome *c, const ttf_event *ev)
{
    char text[128], sig[24];

    switch (ev->kind) {
    case TTF_EV_CRASH:
        snprintf(text, sizeof text, "crash: %s (signal %d) fault address 0x%"
                 PRIx64, ttfi_signal_name(ev->signo, sig, sizeof sig),
                 ev->signo, ev->fault_addr);
        break;
    case TTF_EV_LOST:
        snprintf(text, sizeof text, "lost %" PRIu64 " events (%" PRIu64
                 " bytes)", ev->lost_events, ev->lost_bytes);
        break;
    case TTF_EV_CUT:
        snprintf(text, sizeof text, "stream cut");
        break;
    case TTF_EV_PAUSE:
        return instant(c, "pause", "pause", c->last);
    case TTF_EV_RESUME:
        return instant(c, "pause", "resume", c->last);
    default:
        return 0;
    }
    return instant(c, "trouble", text, c->last);
}

static int on_event(struct chrome *c, const ttf_event *ev)
{
    if (ev->time_ns > c->last)
        c->last = ev->time_ns;
    switch (ev->kind) {
    case TTF_EV_ENTER:
    case TTF_EV_EXIT: {
        uint64_t key = ev->addr == 0 && ev->site ? SCOPE_KEY | ev->site : ev->addr;
        if (ev->kind == TTF_EV_ENTER)
            return enter(c, ev, key);
        leave(c, key);
        return 0;
    }
    case TTF_EV_MESSAGE:
    case TTF_EV_MARK:
        return message(c, ev);
    default:
        return trouble(c, ev);
    }
}

/* ---- threads and the document ------------------------------------------- */

static int64_t thread_tid(const ttf_thread *th)
{
    return th->tid > 0 ? th->tid : (int64_t)th->index;
}

static int metadata(struct chrome *c, const char *what, int64_t tid,
                    const char *key, const char *value, uint64_t num)
{
    char b[160];

    snprintf(b, sizeof b, ",\n{\"ph\":\"M\",\"pid\":%" PRId64 ",\"tid\":%"
             PRId64 ",\"name\":\"%s\",\"args\":{\"%s\":", c->pid, tid, what, key);
    puts_(c->out, b);
    if (value) {
        if (put_json(c->out, value))
            return TT_ENOMEM;
    } else {
        put_u64(c->out, num);
    }
    puts_(c->out, "}}");
    return 0;
}

static int write_thread(struct chrome *c, uint32_t i, ttf_error *err)
{
    const ttf_thread *th = ttf_get_thread(c->t, i);
    ttf_iter *it = NULL;
    ttf_event ev;
    int rc;

    c->headlen = (size_t)snprintf(c->head, sizeof c->head,
                                  ",\"pid\":%" PRId64 ",\"tid\":%" PRId64,
                                  c->pid, thread_tid(th));
    if ((rc = metadata(c, "thread_name", thread_tid(th), "name",
                       th->name && th->name[0] ? th->name : "thread", 0)) ||
        (rc = metadata(c, "thread_sort_index", thread_tid(th), "sort_index",
                       NULL, i)))
        return rc;
    if ((rc = ttf_iter_open(c->t, i, &it)) < 0)
        return rc;
    c->last = th->start_ns;
    c->depth = 0;
    while ((rc = ttf_iter_next(it, &ev)) == 1) {
        if ((rc = on_event(c, &ev)) < 0)
            break;
    }
    ttf_iter_close(it);
    while (c->depth)
        pop_frame(c, c->last);
    if (rc < 0)
        ttfi_set_err(err, rc, 0, "%s: thread %" PRIu32 ": %s",
                     ttf_path(c->t), i, ttf_strerror(rc));
    return rc;
}

static int write_all(struct chrome *c, ttf_error *err)
{
    const ttf_process *p = ttf_get_process(c->t);
    size_t n = ttf_thread_count(c->t);
    int rc;

    puts_(c->out, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"trace\":");
    if ((rc = put_json(c->out, ttf_path(c->t))))
        return rc;
    puts_(c->out, ",\"exe\":");
    if ((rc = put_json(c->out, p->exe)))
        return rc;
    puts_(c->out, ",\"start_realtime_ns\":");
    put_u64(c->out, ttf_get_header(c->t)->start_realtime_ns);
    puts_(c->out, "},\n\"traceEvents\":[\n{\"ph\":\"M\",\"pid\":");
    put_u64(c->out, (uint64_t)c->pid);
    puts_(c->out, ",\"tid\":0,\"name\":\"process_name\",\"args\":{\"name\":");
    if ((rc = put_json(c->out, p->exe && p->exe[0] ? p->exe : "process")))
        return rc;
    puts_(c->out, "}}");
    for (size_t i = 0; i < n; i++) {
        if (c->o->threads && (i >= c->o->nthreads || !c->o->threads[i]))
            continue;
        if ((rc = write_thread(c, (uint32_t)i, err)) < 0)
            return rc;
    }
    puts_(c->out, "\n]}\n");
    return 0;
}

int ttr_chrome_write(FILE *f, const ttf_trace *t, ttf_sym *sym,
                     const ttr_chrome_opts *opts, ttf_error *err)
{
    static const ttr_chrome_opts defaults;
    struct chrome c = {.t = t, .sym = sym, .o = opts ? opts : &defaults};
    int rc = TT_ENOMEM;

    if (err)
        memset(err, 0, sizeof *err);
    if (!f || !t || !sym)
        return TT_EINVAL;
    for (size_t i = 0; i < ttf_module_count(t); i++)
        c.by_time |= ttf_get_module(t, i)->unload_ns != UINT64_MAX;
    c.pid = ttf_get_process(t)->pid > 0 ? ttf_get_process(t)->pid : 0;
    if (!(c.out = malloc(sizeof *c.out)) || rehash(&c, 1024) < 0)
        goto done;
    c.out->f = f;
    c.out->n = 0;
    c.out->failed = 0;
    rc = write_all(&c, err);
    flush_out(c.out);
    if (rc == 0 && (c.out->failed || fflush(f) != 0 || ferror(f)))
        rc = TT_EIO;
done:
    if (rc < 0 && err && !err->code)
        ttfi_set_err(err, rc, 0, "%s: %s", ttf_path(t), ttf_strerror(rc));
    for (uint64_t j = 0; c.map && j <= c.mask; j++)
        free(c.map[j].json);
    free(c.map);
    free(c.tmp.json);
    free(c.stack);
    free(c.out);
    return rc;
}
