/*
 * util.c - helpers shared by the renderers: UTF-8 validation for escaping,
 * and call-tree levels for indentation (see ttr_int.h).
 */
#include "ttr_int.h"

#include <stdio.h>
#include <string.h>

#include "ttfmt.h"

size_t ttr_utf8_len(const unsigned char *s)
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

int ttr_level(const ttd_event *e)
{
    return e->kind == TTF_EV_EXIT ? e->depth - 1 : e->depth;
}

int ttr_min_level(const ttd_event *ev, size_t n, int base)
{
    for (size_t i = 0; i < n; i++)
        base = ttr_level(&ev[i]) < base ? ttr_level(&ev[i]) : base;
    return base;
}

const char *ttr_call_suffix(const char *name, int leaf)
{
    int has_params = name && strchr(name, '(') != NULL;
    if (leaf)
        return has_params ? ";" : "();";
    return has_params ? " {" : "() {";
}

void ttr_paired_by(const ttd_pair *p, char *buf, size_t n)
{
    if (p->paired_by != TTD_PAIR_CONTENT) {
        snprintf(buf, n, "%s", ttd_paired_by_name(p->paired_by));
        return;
    }
    snprintf(buf, n, "content %.2f%s", p->similarity, p->uncertain ? "?" : "");
}
