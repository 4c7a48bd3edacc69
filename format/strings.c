/*
 * strings.c - string arguments by content (format 1.6): the STRINGS record
 * that may precede an ENTER, read entry by entry, its strings as text and
 * compared.
 *
 * Design. libttcap records, before the ENTER of a function whose debug
 * info says an integer argument register holds a char * or a std::string,
 * the first bytes that string had at the call (FORMAT.md 4.6). The decoder
 * checks the record once (ttfi_strings_check) and hands the ENTER its
 * payload as it lies in the mapped trace (ttf_event strs): no copy, no
 * allocation per event; ttf_event_string walks it again when a reader asks
 * for one register, which few do (values.c compares the string parameters
 * of the calls it already compares). A string is known only as far as it
 * was read: two cut strings with the same first bytes are the same to
 * ttf_string_same, and the text marks the cut with an ellipsis.
 * Stage 0 base of format/STAGES.
 */
#include <stdio.h>
#include <string.h>

#include "ttf_int.h"
#include "ttf_wire.h"

_Static_assert(TTF_HEADER_STRINGS == TTF_OPT_STRINGS && TTF_STRING_PREFIX == TTF_STR_PREFIX,
               "API and wire string constants");

/* The entry at *p (end: the payload's end) into *out, *p moved past it.
 * 1, or 0 when the bytes are not an entry (cut, bad register, bits that
 * must be 0). */
static int str_next(const uint8_t **p, const uint8_t *end, ttf_string *out)
{
    const uint8_t *q = *p;
    if (end - q < 2)
        return 0;
    unsigned what = q[0], got = q[1], len = got & TTF_STRG_LEN;
    if ((what & ~TTF_STRW_KNOWN) || (what & TTF_STRW_REG) >= TTF_ARGREGS ||
        (size_t)(end - q - 2) < len || ((got & TTF_STRG_END) && (got & TTF_STRG_FAULT)))
        return 0;
    out->reg = what & TTF_STRW_REG;
    out->std = (what & TTF_STRW_STD) != 0;
    out->len = len;
    out->complete = (got & TTF_STRG_END) != 0;
    out->unreadable = (got & TTF_STRG_FAULT) != 0;
    out->text = q + 2;
    *p = q + 2 + len;
    return 1;
}

int ttfi_strings_check(const uint8_t *p, size_t len, char *why, size_t wlen)
{
    const uint8_t *end = p + len;
    unsigned seen = 0;
    if (len < 1) {
        snprintf(why, wlen, "no string count");
        return -1;
    }
    unsigned n = *p++;
    for (unsigned i = 0; i < n; i++) {
        ttf_string s;
        if (!str_next(&p, end, &s)) {
            snprintf(why, wlen, "string %u of %u is damaged or cut", i + 1, n);
            return -1;
        }
        if (seen & (1u << s.reg)) {
            snprintf(why, wlen, "register %u given twice", s.reg);
            return -1;
        }
        seen |= 1u << s.reg;
    }
    return 0;
}

int ttf_event_string(const ttf_event *ev, unsigned reg, ttf_string *out)
{
    if (!ev || !ev->strs || !ev->strs_len || !out)
        return 0;
    const uint8_t *p = ev->strs, *end = p + ev->strs_len;
    unsigned n = *p++;
    for (unsigned i = 0; i < n && str_next(&p, end, out); i++)
        if (out->reg == reg)
            return 1;
    return 0;
}

int ttf_string_format(char *buf, size_t len, const ttf_string *s)
{
    static const char hexd[] = "0123456789abcdef";
    char tmp[4 * 64 + 64];
    size_t n = 0;
    if (!s)
        return snprintf(buf, len, "?");
    if (s->unreadable && s->len == 0)
        return snprintf(buf, len, "(unreadable)");
    tmp[n++] = '"';
    for (unsigned i = 0; i < s->len && i < 63; i++) {
        unsigned char c = s->text[i];
        const char *e = c == '"' ? "\\\"" : c == '\\' ? "\\\\" : c == '\n' ? "\\n"
                      : c == '\t' ? "\\t" : c == '\r' ? "\\r" : NULL;
        if (e) {
            memcpy(tmp + n, e, 2);
            n += 2;
        } else if (c >= 0x20 && c < 0x7f) {
            tmp[n++] = (char)c;
        } else {
            tmp[n++] = '\\';
            tmp[n++] = 'x';
            tmp[n++] = hexd[c >> 4];
            tmp[n++] = hexd[c & 15];
        }
    }
    tmp[n++] = '"';
    tmp[n] = 0;
    const char *tail = s->complete ? "" : s->unreadable ? "\xe2\x80\xa6 (unreadable after)"
                                                        : "\xe2\x80\xa6";
    return snprintf(buf, len, "%s%s", tmp, tail);
}

int ttf_string_same(const ttf_string *a, const ttf_string *b)
{
    if (!a || !b)
        return 0;
    if ((a->unreadable && !a->len) || (b->unreadable && !b->len))
        return (a->unreadable && !a->len) == (b->unreadable && !b->len);
    unsigned m = a->len < b->len ? a->len : b->len;
    if (memcmp(a->text, b->text, m))
        return 0;
    if (a->complete && b->complete)
        return a->len == b->len;
    if (a->complete != b->complete) {   /* an ended string against a cut one */
        const ttf_string *done = a->complete ? a : b, *cut = a->complete ? b : a;
        return done->len >= cut->len;   /* else its end is a byte of the other */
    }
    return 1;                           /* both cut: their rest is unknown */
}
