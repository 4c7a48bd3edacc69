/*
 * value.c - recorded register values (format 1.1) as the values of their
 * declared types: which ones two runs can compare, their comparable form
 * (integers cut to their size, pointers reduced to NULL / non-NULL), and
 * their text (a size_t error code with its signed form, an enum by name).
 * Stage 0 base of format/STAGES.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttfmt.h"

int ttf_value_comparable(const ttf_vtype *ty)
{
    if (!ty)
        return 0;
    switch (ty->cls) {
    case TTF_VC_SIGNED: case TTF_VC_UNSIGNED: case TTF_VC_BOOL:
    case TTF_VC_ENUM: case TTF_VC_POINTER:
        return 1;
    case TTF_VC_FLOAT:
        return ty->size == 4 || ty->size == 8;
    default:
        return 0;
    }
}

int ttf_value_ret(const ttf_signature *sig, const ttf_event *ev, uint64_t *raw)
{
    *raw = 0;
    if (!sig || !ev->has_values || (sig->ret.cls == TTF_VC_FLOAT && !sig->ret_xmm))
        return 0;
    *raw = sig->ret_xmm ? ev->retxmm : ev->retval;
    return 1;
}

/* raw cut to size bytes, sign-extended when sign. */
static uint64_t cut(uint64_t raw, unsigned size, int sign)
{
    if (size == 0 || size >= 8)
        return raw;
    unsigned bits = 8 * size;
    uint64_t v = raw & ((1ull << bits) - 1);
    if (sign && (v >> (bits - 1)))
        v |= ~0ull << bits;
    return v;
}

uint64_t ttf_value_norm(uint64_t raw, const ttf_vtype *ty)
{
    if (!ty)
        return raw;
    switch (ty->cls) {
    case TTF_VC_SIGNED: return cut(raw, ty->size, 1);
    case TTF_VC_UNSIGNED: return cut(raw, ty->size, 0);
    case TTF_VC_ENUM: return cut(raw, ty->size, ty->is_signed);
    case TTF_VC_BOOL: return cut(raw, ty->size ? ty->size : 1, 0) != 0;
    case TTF_VC_POINTER: return raw != 0;
    case TTF_VC_FLOAT: return cut(raw, ty->size, 0);
    default: return raw;
    }
}

int ttf_value_errcode(uint64_t raw, const ttf_vtype *ty, int64_t *code)
{
    if (!ty || ty->cls != TTF_VC_UNSIGNED || (ty->size && ty->size < 8))
        return 0;
    if (raw < UINT64_MAX - (TTF_ERRCODE_MAX - 1))
        return 0;
    if (code)
        *code = (int64_t)raw;
    return 1;
}

/* A register of unknown type: small ones (either sign) in decimal. */
static int format_raw(char *buf, size_t len, uint64_t raw)
{
    int64_t sv = (int64_t)raw;
    if (sv > -65536 && sv < 65536)
        return snprintf(buf, len, "%" PRId64, sv);
    return snprintf(buf, len, "0x%" PRIx64, raw);
}

/* A char-sized integer: the character too when it is printable. */
static int format_char(char *buf, size_t len, uint64_t v, int sign)
{
    unsigned c = (unsigned)(v & 0xff);
    if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\')
        return sign ? snprintf(buf, len, "'%c' (%" PRId64 ")", c, (int64_t)v)
                    : snprintf(buf, len, "'%c' (%" PRIu64 ")", c, v);
    return sign ? snprintf(buf, len, "%" PRId64, (int64_t)v)
                : snprintf(buf, len, "%" PRIu64, v);
}

/* A number of an enum's size and sign. */
static int format_int(char *buf, size_t len, uint64_t v, int sign)
{
    return sign ? snprintf(buf, len, "%" PRId64, (int64_t)v)
                : snprintf(buf, len, "%" PRIu64, v);
}

/* The enumerator whose value is v, NULL if none. */
static const char *enum_name(const ttf_vtype *ty, uint64_t v)
{
    for (size_t i = 0; i < ty->nenums; i++)
        if (ty->enums[i].value == v)
            return ty->enums[i].name;
    return NULL;
}

/* The enumerator of exactly the one bit b, NULL if none. */
static const char *bit_name(const ttf_vtype *ty, unsigned b)
{
    return enum_name(ty, 1ull << b);
}

/* 1 if every set bit of v is a one-bit enumerator. */
static int bits_named(const ttf_vtype *ty, uint64_t v)
{
    for (unsigned b = 0; b < 64; b++)
        if ((v >> b & 1) && !bit_name(ty, b))
            return 0;
    return 1;
}

/* 1 if the enum looks like a set of flags: every enumerator is 0 or made
 * of one-bit enumerators, one of them is 4 or more, and the values are not
 * the plain sequence 1, 2, 3... of an ordinary enum (whose 3 = 1|2). */
static int flags_like(const ttf_vtype *ty)
{
    uint64_t top = 0, max = 0;
    size_t nonzero = 0;
    for (size_t i = 0; i < ty->nenums; i++) {
        uint64_t v = ty->enums[i].value;
        if (v == 0)
            continue;
        if ((ty->is_signed && (int64_t)v < 0) || !bits_named(ty, v))
            return 0;
        if ((v & (v - 1)) == 0 && v > top)
            top = v;
        max = v > max ? v : max;
        nonzero++;
    }
    return top >= 4 && max != nonzero;
}

/* v (no enumerator) as "A|B (v)" when the enum is flags_like and every
 * set bit of v is a one-bit enumerator, else as the number. */
static int format_flags(char *buf, size_t len, uint64_t v, const ttf_vtype *ty)
{
    char names[256];
    size_t n = 0;
    if (v == 0 || (ty->is_signed && (int64_t)v < 0) || !flags_like(ty))
        return format_int(buf, len, v, ty->is_signed);
    for (unsigned b = 0; b < 64; b++) {
        if (!(v >> b & 1))
            continue;
        const char *nm = bit_name(ty, b);
        if (!nm)
            return format_int(buf, len, v, ty->is_signed);
        int k = snprintf(names + n, sizeof names - n, "%s%s", n ? "|" : "", nm);
        if (k < 0 || (size_t)k >= sizeof names - n)
            return format_int(buf, len, v, ty->is_signed);
        n += (size_t)k;
    }
    return snprintf(buf, len, "%s (%" PRIu64 ")", names, v);
}

/* A float (size 4) or double (8) from its bits: the shortest decimal
 * that reads back as the same value ("0.1", "1e+300", "-0", "nan");
 * "(float)" for other sizes (long double: not recorded). */
static int format_float(char *buf, size_t len, uint64_t v, unsigned size)
{
    char t[40];
    if (size == 8) {
        double d;
        memcpy(&d, &v, sizeof d);
        for (int prec = 15; prec <= 17; prec++) {
            snprintf(t, sizeof t, "%.*g", prec, d);
            if (strtod(t, NULL) == d || d != d)
                break;
        }
    } else if (size == 4) {
        float f;
        uint32_t w = (uint32_t)v;
        memcpy(&f, &w, sizeof f);
        for (int prec = 6; prec <= 9; prec++) {
            snprintf(t, sizeof t, "%.*g", prec, (double)f);
            if (strtof(t, NULL) == f || f != f)
                break;
        }
    } else {
        return snprintf(buf, len, "(float)");
    }
    return snprintf(buf, len, "%s", t);
}

/* An enum's value: "RED (1)", "A|B (3)" or the number. */
static int format_enum(char *buf, size_t len, uint64_t v, const ttf_vtype *ty)
{
    const char *nm = enum_name(ty, v);
    if (nm)
        return ty->is_signed ? snprintf(buf, len, "%s (%" PRId64 ")", nm, (int64_t)v)
                             : snprintf(buf, len, "%s (%" PRIu64 ")", nm, v);
    return format_flags(buf, len, v, ty);
}

int ttf_value_format(char *buf, size_t len, uint64_t raw, const ttf_vtype *ty)
{
    int64_t code;
    if (!ty)
        return format_raw(buf, len, raw);
    uint64_t v = ttf_value_norm(raw, ty);
    switch (ty->cls) {
    case TTF_VC_SIGNED:
        if (ty->size == 1)
            return format_char(buf, len, v, 1);
        return snprintf(buf, len, "%" PRId64, (int64_t)v);
    case TTF_VC_UNSIGNED:
        if (ty->size == 1)
            return format_char(buf, len, v, 0);
        if (ttf_value_errcode(v, ty, &code))
            return snprintf(buf, len, "%" PRIu64 " (%" PRId64 ")", v, code);
        return snprintf(buf, len, "%" PRIu64, v);
    case TTF_VC_ENUM:
        return format_enum(buf, len, v, ty);
    case TTF_VC_BOOL:
        return snprintf(buf, len, "%s", v ? "true" : "false");
    case TTF_VC_POINTER:
        return raw ? snprintf(buf, len, "0x%" PRIx64, raw)
                   : snprintf(buf, len, "NULL");
    case TTF_VC_VOID:
        return snprintf(buf, len, "void");
    case TTF_VC_FLOAT:
        return format_float(buf, len, v, ty->size);
    case TTF_VC_OTHER:
        return snprintf(buf, len, "(%s)", ty->name && ty->name[0] ? ty->name
                                                                  : "struct");
    default:
        return format_raw(buf, len, raw);
    }
}

/* Append the text of fmt to buf at *n (snprintf's rules: *n counts what
 * was wanted, buf holds what fits). */
static void put(char *buf, size_t len, size_t *n, const char *s)
{
    size_t k = strlen(s);
    if (*n < len)
        snprintf(buf + *n, len - *n, "%s", s);
    *n += k;
}

/* An aggregate's recorded bytes b[0..16) as "{x=1.5, y=2}", field by
 * field, or "{0x1, 0x4002}" eightbyte by eightbyte without fields. */
static int format_agg(char *buf, size_t len, const uint8_t b[16], int neb,
                      const ttf_vtype *ty)
{
    char v[96];
    size_t n = 0;
    put(buf, len, &n, "{");
    for (size_t i = 0; ty->fields && i < ty->nfields; i++) {
        const ttf_field *f = &ty->fields[i];
        uint64_t raw = 0;
        if (f->offset + f->type.size > (unsigned)neb * 8 || f->type.size > 8)
            snprintf(v, sizeof v, "?");
        else {
            memcpy(&raw, b + f->offset, f->type.size);
            ttf_value_format(v, sizeof v, raw, &f->type);
        }
        put(buf, len, &n, i ? ", " : "");
        put(buf, len, &n, f->name);
        put(buf, len, &n, "=");
        put(buf, len, &n, v);
    }
    for (int i = 0; !ty->fields && i < neb; i++) {
        uint64_t e;
        memcpy(&e, b + 8 * i, 8);
        if (i == neb - 1 && ty->size > 8 * (unsigned)i && ty->size < 8 * (unsigned)i + 8)
            e &= (UINT64_C(1) << (8 * (ty->size - 8 * (unsigned)i))) - 1;
        snprintf(v, sizeof v, "%s0x%" PRIx64, i ? ", " : "", e);
        put(buf, len, &n, v);
    }
    put(buf, len, &n, "}");
    return (int)n;
}

int ttf_param_format(char *buf, size_t len, const ttf_param *p, const ttf_event *ev)
{
    ttf_string s;
    if (p && p->mem)
        return snprintf(buf, len, "(in memory)");
    if (!p || !ev || p->reg < 0 || p->reg >= TTF_VALUE_SLOTS || p->reg2 >= TTF_VALUE_SLOTS)
        return snprintf(buf, len, "?");
    if (p->reg < TTF_VALUE_REGS && ttf_event_string(ev, (unsigned)p->reg, &s) &&
        (s.len || !s.unreadable || ev->argregs[p->reg]))
        return ttf_string_format(buf, len, &s);     /* its contents (format 1.6) */
    if (p->type.cls != TTF_VC_OTHER || p->byref || p->type.size == 0 || p->type.size > 16)
        return ttf_value_format(buf, len, ev->argregs[p->reg], &p->type);
    uint8_t b[16] = {0};
    int neb = p->reg2 >= 0 ? 2 : 1;
    memcpy(b, &ev->argregs[p->reg], 8);
    if (neb == 2)
        memcpy(b + 8, &ev->argregs[p->reg2], 8);
    return format_agg(buf, len, b, neb, &p->type);
}

int ttf_ret_format(char *buf, size_t len, const ttf_signature *sig, const ttf_event *ev)
{
    uint64_t raw;
    if (!sig || !ev || !ev->has_values)
        return snprintf(buf, len, "?");
    if (sig->ret_eb[0] > 0) {
        uint8_t b[16] = {0};
        int neb = sig->ret_eb[1] > 0 ? 2 : 1;
        for (int k = 0; k < neb; k++)
            memcpy(b + 8 * k, sig->ret_eb[k] == TTF_RET_XMM0 ? &ev->retxmm : &ev->retval, 8);
        return format_agg(buf, len, b, neb, &sig->ret);
    }
    if (sig->ret_eb[0] == TTF_RET_UNREC)
        return snprintf(buf, len, "(rdx or xmm1: not recorded)");
    if (sig->ret.cls == TTF_VC_OTHER && sig->ret.size > 16)
        return snprintf(buf, len, "(in memory)");
    if (!ttf_value_ret(sig, ev, &raw))
        return snprintf(buf, len, "?");
    return ttf_value_format(buf, len, raw, &sig->ret);
}
