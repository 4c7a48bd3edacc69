/*
 * names.c - C++ names as a reader wants them in the text and HTML reports:
 * `std::string` for std::__cxx11::basic_string<char, std::char_traits<char>,
 * std::allocator<char> >, the standard containers without their default
 * arguments (std::vector<Token>, std::map<int, std::string>), inline
 * namespaces (__cxx11, __1) dropped, and template arguments nested deeper
 * than two levels shown as `...`. The JSON report and --demangle=full keep
 * the demangled name whole.
 *
 * Design. One pass over the name with a recursive descent of its template
 * argument lists: a list is split at its top-level commas (commas inside
 * parentheses or nested lists belong to their argument), trailing arguments
 * that are a standard default (allocator, char_traits, less, hash,
 * equal_to, default_delete) are dropped, and each kept argument is
 * shortened in turn. `operator<`, `operator<<`, `operator<=>`, `operator->`
 * and friends are copied as they are, never taken for a list. Output goes
 * to a fixed buffer (cut with "..." when full); a name with no '<' and no
 * inline namespace is returned untouched.
 * Stage 0 base of report/STAGES.
 */
#include <string.h>

#include "ttr_int.h"

#define DEPTH_SHOWN 2          /* template argument levels shown */

/* Spellings replaced whole, longest first where one holds another. */
static const struct { const char *from, *to; } whole[] = {
    {"std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >",
     "std::string"},
    {"std::basic_string<char, std::char_traits<char>, std::allocator<char> >",
     "std::string"},
    {"std::__cxx11::basic_string<wchar_t, std::char_traits<wchar_t>, std::allocator<wchar_t> >",
     "std::wstring"},
    {"std::basic_string_view<char, std::char_traits<char> >", "std::string_view"},
    {"std::basic_ostream<char, std::char_traits<char> >", "std::ostream"},
    {"std::basic_istream<char, std::char_traits<char> >", "std::istream"},
    {"std::__cxx11::basic_ostringstream<char, std::char_traits<char>, std::allocator<char> >",
     "std::ostringstream"},
    {"std::__cxx11::basic_istringstream<char, std::char_traits<char>, std::allocator<char> >",
     "std::istringstream"},
    {"std::__cxx11::basic_stringstream<char, std::char_traits<char>, std::allocator<char> >",
     "std::stringstream"},
    {"std::__cxx11::", "std::"},
    {"std::__1::", "std::"},
};

/* Template arguments a standard container or pointer takes by default. */
static const char *const defaults[] = {
    "std::allocator<", "std::char_traits<", "std::less<", "std::hash<",
    "std::equal_to<", "std::default_delete<",
};

/* An output buffer that cuts with "..." when full. */
struct out {
    char *p;
    size_t n, len;
    int full;
};

static void put(struct out *o, const char *s, size_t n)
{
    if (o->full)
        return;
    if (o->len + n + 4 > o->n) {
        o->full = 1;
        n = o->n > o->len + 4 ? o->n - o->len - 4 : 0;
        memcpy(o->p + o->len, s, n);
        memcpy(o->p + o->len + n, "...", 4);
        o->len += n + 3;
        return;
    }
    memcpy(o->p + o->len, s, n);
    o->len += n;
    o->p[o->len] = 0;
}

/* Length of an operator's spelling at s ("operator<<=" ...), 0 if none. */
static size_t operator_len(const char *s, size_t n)
{
    static const char *const ops[] = {"<=>", "<<=", ">>=", "->*", "<<", ">>", "<=",
                                      ">=", "->", "<", ">"};
    if (n < 8 || strncmp(s, "operator", 8) != 0)
        return 0;
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        size_t k = strlen(ops[i]);
        if (n >= 8 + k && strncmp(s + 8, ops[i], k) == 0)
            return 8 + k;
    }
    return 8;
}

/* Where the list opened at s[0] == '<' closes (the index of its '>'), or
 * where the argument starting at s ends (a top-level ',' or n) when
 * args is 1. Parentheses nest inside (a function type's commas are its
 * own); a ')' that closes nothing opened here, or no '>', gives n: not a
 * list after all. */
static size_t scan(const char *s, size_t n, int args)
{
    int angle = 0, paren = 0;
    for (size_t i = 0; i < n; i++) {
        size_t op = operator_len(s + i, n - i);
        if (op) {
            i += op - 1;
            continue;
        }
        if (s[i] == '(' || s[i] == ')') {
            if (s[i] == ')' && paren == 0)
                return n;
            paren += s[i] == '(' ? 1 : -1;
            continue;
        }
        if (paren)
            continue;
        if (args && s[i] == ',' && angle == 0)
            return i;
        angle += s[i] == '<';
        if (s[i] == '>' && --angle == (args ? -1 : 0))
            return args ? n : i;
    }
    return n;
}

static size_t closing(const char *s, size_t n)
{
    return scan(s, n, 0);
}

static size_t arg_end(const char *s, size_t n)
{
    return scan(s, n, 1);
}

static int is_default(const char *s, size_t n)
{
    for (size_t i = 0; i < sizeof defaults / sizeof *defaults; i++) {
        size_t k = strlen(defaults[i]);
        if (n > k && strncmp(s, defaults[i], k) == 0 && s[n - 1] == '>')
            return 1;
    }
    return 0;
}

static void shorten(struct out *o, const char *s, size_t n, int depth);

/* The list s[0..n) (between '<' and '>'), its defaults dropped. */
static void args(struct out *o, const char *s, size_t n, int depth)
{
    size_t start[64], len[64], k = 0, i = 0;
    while (i <= n && k < 64) {
        while (i < n && s[i] == ' ')
            i++;
        size_t e = arg_end(s + i, n - i);
        size_t m = e;
        while (m > 0 && s[i + m - 1] == ' ')
            m--;
        start[k] = i;
        len[k++] = m;
        i += e + 1;
    }
    while (k > 1 && is_default(s + start[k - 1], len[k - 1]))
        k--;
    for (size_t j = 0; j < k; j++) {
        if (j)
            put(o, ", ", 2);
        shorten(o, s + start[j], len[j], depth);
    }
    int angle = o->len && o->p[o->len - 1] == '>'; /* "> >", as demangled */
    put(o, angle ? " >" : ">", angle ? 2u : 1u);
}

static void shorten(struct out *o, const char *s, size_t n, int depth)
{
    size_t i = 0;
    while (i < n && !o->full) {
        size_t op = operator_len(s + i, n - i);
        size_t w = 0;
        for (size_t k = 0; !op && k < sizeof whole / sizeof *whole; k++) {
            size_t m = strlen(whole[k].from);
            if (m <= n - i && strncmp(s + i, whole[k].from, m) == 0) {
                put(o, whole[k].to, strlen(whole[k].to));
                w = m;
                break;
            }
        }
        if (w || op) {
            if (op)
                put(o, s + i, op);
            i += w + op;
            continue;
        }
        if (s[i] != '<') {
            put(o, s + i, 1);
            i++;
            continue;
        }
        size_t c = closing(s + i, n - i);
        if (c == n - i) {
            put(o, s + i, n - i);   /* unbalanced: as it is */
            return;
        }
        put(o, "<", 1);
        if (depth >= DEPTH_SHOWN)
            put(o, "...>", 4);
        else
            args(o, s + i + 1, c - 1, depth + 1);
        i += c + 1;
    }
}

const char *ttri_short_name(const char *name, char *buf, size_t n)
{
    struct out o = {buf, n, 0, 0};
    if (!name || n < 8 || (!strchr(name, '<') && !strstr(name, "std::__")))
        return name;
    buf[0] = 0;
    shorten(&o, name, strlen(name), 0);
    return buf;
}

const char *ttri_short_quoted(const char *text, char *buf, size_t n)
{
    struct out o = {buf, n, 0, 0};
    if (!text || n < 8 || (!strchr(text, '<') && !strstr(text, "std::__")))
        return text;
    buf[0] = 0;
    const char *s = text;
    while (*s && !o.full) {
        const char *q = strchr(s, '`');
        const char *e = q ? strchr(q + 1, '`') : NULL;
        if (!e) {
            put(&o, s, strlen(s));
            break;
        }
        put(&o, s, (size_t)(q + 1 - s));
        shorten(&o, q + 1, (size_t)(e - q - 1), 0);
        put(&o, "`", 1);
        s = e + 1;
    }
    return buf;
}
