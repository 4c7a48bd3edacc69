/*
 * message.c - ttf_format_message: turn a MESSAGE or MARK event back into
 * text with printf rules applied to the call site's format and the typed
 * arguments stored in the trace. The format string is untrusted (it comes
 * from the file): every conversion is rebuilt from parts we checked, the
 * argument is fetched by its stored type and converted to what the
 * conversion expects, and a missing or mismatched argument prints safely.
 * Stage 3 messages of format/STAGES.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttf_int.h"
#include "ttf_wire.h"

#define SPEC_MAX 1024           /* largest width / precision honoured */
#define STR_SPEC_MAX (SPEC_MAX * 4) /* most string bytes one %s prints */

/* Output with snprintf semantics: pos counts what was wanted. */
struct out {
    char *buf;                  /* destination (may be NULL if len is 0) */
    size_t len;                 /* its size */
    size_t pos;                 /* bytes wanted so far */
};

static void put(struct out *o, const char *s, size_t n)
{
    if (o->pos < o->len) {
        size_t room = o->len - o->pos;
        memcpy(o->buf + o->pos, s, n < room ? n : room);
    }
    o->pos += n;
}

static void putf(struct out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void putf(struct out *o, const char *fmt, ...)
{
    char tmp[STR_SPEC_MAX + 64]; /* holds any one conversion's output */
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n > 0)
        put(o, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
}

/* One stored argument. */
struct arg {
    int type;                   /* TTF_ARG_* */
    int64_t i;                  /* I64 */
    uint64_t u;                 /* U64, PTR */
    double f;                   /* F64 */
    const uint8_t *s;           /* STR bytes */
    size_t n;                   /* STR length */
};

/* The arguments of one event, read in order. */
struct args {
    const ttf_callsite *cs;     /* their types */
    struct ttfi_cursor c;       /* over the event's argument bytes */
    uint32_t k;                 /* next argument */
};

/* 1 with *a filled, 0 when none are left, TT_ECORRUPT if bytes are bad. */
static int arg_next(struct args *as, struct arg *a)
{
    uint64_t v;
    int r;

    if (as->k >= as->cs->nargs)
        return 0;
    memset(a, 0, sizeof *a);
    a->type = as->cs->types[as->k++];
    switch (a->type) {
    case TTF_ARG_I64:
        r = cur_svar(&as->c, &a->i);
        break;
    case TTF_ARG_U64:
    case TTF_ARG_PTR:
        r = cur_uvar(&as->c, &a->u);
        break;
    case TTF_ARG_F64:
        if (!(r = cur_le(&as->c, 8, &v)))
            memcpy(&a->f, &v, sizeof a->f);
        break;
    case TTF_ARG_STR:
        r = cur_str(&as->c, &a->s, &a->n);
        break;
    default:
        r = CORRUPT(&as->c, "unknown argument type %d", a->type);
        break;
    }
    return r ? TT_ECORRUPT : 1;
}

static int64_t f2i(double f)
{
    if (isnan(f))
        return 0;
    if (f >= 9.2e18)
        return INT64_MAX;
    return f <= -9.2e18 ? INT64_MIN : (int64_t)f;
}

static uint64_t as_u64(const struct arg *a)
{
    switch (a->type) {
    case TTF_ARG_I64: return (uint64_t)a->i;
    case TTF_ARG_F64: return (uint64_t)f2i(a->f);
    default: return a->u;
    }
}

static double as_f64(const struct arg *a)
{
    switch (a->type) {
    case TTF_ARG_I64: return (double)a->i;
    case TTF_ARG_F64: return a->f;
    default: return (double)a->u;
    }
}

/* A double with the fewest digits that read back the same. */
static void put_double(struct out *o, double f)
{
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.15g", f);
    if (strtod(tmp, NULL) != f && !isnan(f))
        snprintf(tmp, sizeof tmp, "%.17g", f);
    put(o, tmp, strlen(tmp));
}

/* An argument in its own natural form (VALUE / RETURN sites, %s of a
 * non-string). */
static void put_natural(struct out *o, const struct arg *a)
{
    switch (a->type) {
    case TTF_ARG_I64: putf(o, "%lld", (long long)a->i); break;
    case TTF_ARG_U64: putf(o, "%llu", (unsigned long long)a->u); break;
    case TTF_ARG_F64: put_double(o, a->f); break;
    case TTF_ARG_PTR: putf(o, "0x%llx", (unsigned long long)a->u); break;
    default: put(o, (const char *)a->s, a->n); break;
    }
}

/* A parsed conversion: "%" flags width .prec length conv. */
struct spec {
    char flags[8];              /* "-+ #0'" subset, NUL-terminated */
    int width, prec;            /* -1 = not given */
    int bits;                   /* integer size from the length modifier */
    char conv;                  /* conversion character */
};

static int clampi(int64_t v)
{
    return v > SPEC_MAX ? SPEC_MAX : v < -SPEC_MAX ? -SPEC_MAX : (int)v;
}

/* Decimal digits at p, if any, into *v (capped); returns what follows. */
static const char *parse_num(const char *p, int *v)
{
    if (*p < '0' || *p > '9')
        return p;
    int64_t n = 0;
    for (; *p >= '0' && *p <= '9'; p++)
        n = n * 10 + (*p - '0') > SPEC_MAX ? SPEC_MAX : n * 10 + (*p - '0');
    *v = (int)n;
    return p;
}

/* Parse after '%'; returns the character after the conversion, or NULL if
 * the format ends first. Star arguments are fetched from as. */
static const char *parse_spec(const char *p, struct spec *sp, struct args *as,
                              int *err)
{
    size_t nf = 0;
    struct arg a;

    memset(sp, 0, sizeof *sp);
    sp->width = sp->prec = -1;
    sp->bits = 32;
    while (*p && strchr("-+ #0'", *p)) {
        if (nf < sizeof sp->flags - 1 && !strchr(sp->flags, *p))
            sp->flags[nf++] = *p;
        p++;
    }
    if (*p == '*') {
        int r = arg_next(as, &a);
        if (r < 0)
            *err = r;
        if (r == 1) {
            int w = clampi((int64_t)as_u64(&a));
            if (w < 0 && nf < sizeof sp->flags - 1)
                sp->flags[nf++] = '-';
            sp->width = w < 0 ? -w : w;
        }
        p++;
    }
    p = parse_num(p, &sp->width);
    if (*p == '.') {
        p++;
        sp->prec = 0;
        if (*p == '*') {
            int r = arg_next(as, &a);
            if (r < 0)
                *err = r;
            if (r == 1)
                sp->prec = clampi((int64_t)as_u64(&a));
            if (sp->prec < 0)
                sp->prec = -1;
            p++;
        }
        p = parse_num(p, &sp->prec);
    }
    for (;; p++) {
        if (*p == 'h')
            sp->bits = sp->bits == 16 ? 8 : 16;
        else if (strchr("lLqjzt", *p) && *p)
            sp->bits = 64;
        else
            break;
    }
    if (!*p)
        return NULL;
    sp->conv = *p;
    return p + 1;
}

/* "%" flags [width] [.prec] + tail, e.g. tail "ll" "d". */
static void build(char *f, size_t n, const struct spec *sp, const char *len,
                  char conv, int use_prec)
{
    int k = snprintf(f, n, "%%%s", sp->flags);
    if (sp->width >= 0)
        k += snprintf(f + k, n - (size_t)k, "%d", sp->width);
    if (use_prec && sp->prec >= 0)
        k += snprintf(f + k, n - (size_t)k, ".%d", sp->prec);
    snprintf(f + k, n - (size_t)k, "%s%c", len, conv);
}

static void put_str_spec(struct out *o, const struct spec *sp, const char *s,
                         size_t n)
{
    char f[32];
    int prec = sp->prec >= 0 && (size_t)sp->prec < n ? sp->prec : (int)(n < STR_SPEC_MAX ? n : STR_SPEC_MAX);
    struct spec s2 = *sp;
    s2.prec = -1;
    build(f, sizeof f, &s2, ".*", 's', 0);
    char *copy = malloc((size_t)prec + 1);
    if (!copy)
        return;
    memcpy(copy, s, (size_t)prec);
    copy[prec] = 0;
    putf(o, f, prec, copy);
    free(copy);
}

static void put_int(struct out *o, const struct spec *sp, const struct arg *a)
{
    char f[32];
    uint64_t u = as_u64(a);
    int sign = sp->conv == 'd' || sp->conv == 'i';

    if (sp->bits < 64) {
        uint64_t mask = (1ull << sp->bits) - 1;
        u &= mask;
        if (sign && (u >> (sp->bits - 1)))
            u |= ~mask;
    }
    build(f, sizeof f, sp, "ll", sp->conv, 1);
    if (sign)
        putf(o, f, (long long)u);
    else
        putf(o, f, (unsigned long long)u);
}

static void put_conv(struct out *o, const struct spec *sp, const struct arg *a)
{
    char f[32], tmp[80];
    struct out t = {tmp, sizeof tmp, 0};

    if (a->type == TTF_ARG_STR && sp->conv != 's') {
        put_str_spec(o, sp, (const char *)a->s, a->n);
        return;
    }
    switch (sp->conv) {
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X':
        put_int(o, sp, a);
        return;
    case 'c':
        build(f, sizeof f, sp, "", 'c', 0);
        putf(o, f, (int)(unsigned char)as_u64(a));
        return;
    case 'e': case 'E': case 'f': case 'F': case 'g': case 'G': case 'a': case 'A':
        build(f, sizeof f, sp, "", sp->conv, 1);
        putf(o, f, as_f64(a));
        return;
    case 'p':
        build(f, sizeof f, sp, "", 'p', 0);
        putf(o, f, (void *)(uintptr_t)as_u64(a));
        return;
    case 's':
        if (a->type == TTF_ARG_STR) {
            put_str_spec(o, sp, (const char *)a->s, a->n);
            return;
        }
        put_natural(&t, a);
        put_str_spec(o, sp, tmp, t.pos < sizeof tmp ? t.pos : sizeof tmp);
        return;
    default:
        return;                 /* %n and friends: print nothing */
    }
}

/* printf over the site format; returns 0 or TT_ECORRUPT. */
static int run_format(struct out *o, const char *fmt, struct args *as)
{
    const char *p = fmt;
    int err = 0;

    while (*p) {
        const char *pct = strchr(p, '%');
        if (!pct) {
            put(o, p, strlen(p));
            break;
        }
        put(o, p, (size_t)(pct - p));
        if (pct[1] == '%') {
            put(o, "%", 1);
            p = pct + 2;
            continue;
        }
        struct spec sp;
        struct arg a;
        const char *next = parse_spec(pct + 1, &sp, as, &err);
        if (!next) {
            put(o, pct, strlen(pct));     /* format ends inside a conversion */
            break;
        }
        p = next;
        if (!strchr("diouxXceEfFgGaApsn", sp.conv)) {
            put(o, pct, (size_t)(next - pct)); /* unknown: show it as written */
            continue;
        }
        int r = arg_next(as, &a);
        if (r < 0)
            return r;
        if (r == 0) {
            put(o, "(missing)", 9);
            continue;
        }
        put_conv(o, &sp, &a);
    }
    return err;
}

int ttf_format_message(const ttf_trace *t, const ttf_event *ev, char *buf,
                       size_t len)
{
    struct out o = {buf, len, 0};
    struct args as;
    struct arg a;
    int r = 0;

    if (!t || !ev || (!buf && len))
        return TT_EINVAL;
    if (ev->kind != TTF_EV_MESSAGE && ev->kind != TTF_EV_MARK)
        return TT_EINVAL;
    const ttf_callsite *cs = ttf_get_callsite(t, ev->site);
    if (!cs)
        return TT_ENOTFOUND;
    memset(&as, 0, sizeof as);
    as.cs = cs;
    as.c.p = as.c.start = ev->args ? ev->args : (const uint8_t *)"";
    as.c.end = as.c.p + (ev->args ? ev->args_len : 0);
    as.c.off0 = ev->offset;
    /* check every argument decodes before printing any */
    while ((r = arg_next(&as, &a)) == 1)
        ;
    if (r < 0)
        return r;
    as.c.p = as.c.start;
    as.k = 0;

    const char *fmt = cs->fmt ? cs->fmt : "";
    if (cs->kind == TTF_SITE_MARK || ev->kind == TTF_EV_MARK) {
        put(&o, fmt, strlen(fmt));
    } else if (cs->kind == TTF_SITE_VALUE || cs->kind == TTF_SITE_RETURN) {
        if (cs->kind == TTF_SITE_VALUE)
            put(&o, fmt, strlen(fmt));
        else
            put(&o, "return", 6);
        put(&o, " = ", 3);
        if (arg_next(&as, &a) == 1)
            put_natural(&o, &a);
        else
            put(&o, "(missing)", 9);
    } else {
        r = run_format(&o, fmt, &as);
    }
    if (len)
        buf[o.pos < len ? o.pos : len - 1] = 0;
    if (r < 0)
        return r;
    return o.pos > INT_MAX ? INT_MAX : (int)o.pos;
}

/* ---- trace strings for a terminal ------------------------------------- */

size_t ttf_utf8_len(const unsigned char *s)
{
    unsigned c = s[0], min, cp;
    size_t n;

    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2, min = 0x80, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, min = 0x800, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, min = 0x10000, cp = c & 0x07;
    else
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3Fu);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

/* Bytes at s that print as they are: printable ASCII and valid UTF-8
 * other than the C1 controls. */
static size_t plain_run(const unsigned char *s)
{
    size_t i = 0;
    for (;;) {
        if (s[i] >= 0x20 && s[i] < 0x7F) {
            i++;
            continue;
        }
        size_t n = s[i] < 0x80 ? 0 : ttf_utf8_len(s + i);
        if (n == 0 || (n == 2 && s[i] == 0xC2 && s[i + 1] < 0xA0))
            return i;
        i += n;
    }
}

int ttf_put_text(FILE *f, const char *str)
{
    const unsigned char *s = (const unsigned char *)(str ? str : "");
    while (*s) {
        size_t n = plain_run(s);
        if (n) {
            fwrite(s, 1, n, f);
            s += n;
        } else if (*s == '\n' || *s == '\t') {
            fputs(*s == '\n' ? "\\n" : "\\t", f);
            s++;
        } else if (s[0] == 0xC2 && ttf_utf8_len(s) == 2) {
            fprintf(f, "\\xc2\\x%02x", s[1]); /* U+0080..U+009F: C1 */
            s += 2;
        } else {
            fprintf(f, "\\x%02x", *s++); /* C0, DEL, invalid UTF-8 byte */
        }
    }
    return ferror(f) ? TT_EIO : 0;
}
