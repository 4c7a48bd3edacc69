/*
 * value.c - recorded register values (format 1.1) as the values of their
 * declared types: which ones two runs can compare, their comparable form
 * (integers cut to their size, pointers reduced to NULL / non-NULL), and
 * their text (a size_t error code with its signed form).
 */
#include <inttypes.h>
#include <stdio.h>

#include "ttfmt.h"

int ttf_value_comparable(const ttf_vtype *ty)
{
    if (!ty)
        return 0;
    switch (ty->cls) {
    case TTF_VC_SIGNED: case TTF_VC_UNSIGNED: case TTF_VC_BOOL:
    case TTF_VC_ENUM: case TTF_VC_POINTER:
        return 1;
    default:
        return 0;
    }
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
        return ty->is_signed ? snprintf(buf, len, "%" PRId64, (int64_t)v)
                             : snprintf(buf, len, "%" PRIu64, v);
    case TTF_VC_BOOL:
        return snprintf(buf, len, "%s", v ? "true" : "false");
    case TTF_VC_POINTER:
        return raw ? snprintf(buf, len, "0x%" PRIx64, raw)
                   : snprintf(buf, len, "NULL");
    case TTF_VC_VOID:
        return snprintf(buf, len, "void");
    case TTF_VC_FLOAT:
        return snprintf(buf, len, "(float)");
    case TTF_VC_OTHER:
        return snprintf(buf, len, "(%s)", ty->name && ty->name[0] ? ty->name
                                                                  : "struct");
    default:
        return format_raw(buf, len, raw);
    }
}
