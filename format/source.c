/*
 * source.c - a function's source text, fingerprinted (ttf_source_hash):
 * did the source of a function change between two builds, or only its
 * machine code?
 *
 * Design. Two builds of one program whose machine code differs in several
 * functions rarely had all of them edited: a helper whose source changed
 * is inlined into its callers, whose code then changes too; a new layout
 * moves other code. The functions whose own text differs are the change;
 * the others only carry it. Debug info names where each function is
 * defined (DW_AT_decl_file and _line), and each build's source tree is
 * usually where its compiler left it, so the text can be read back.
 *
 * From the declaration's line we look for the body: the first '{' outside
 * comments, string and character literals and parentheses (a ';' before
 * it means the line only declares the function: no body here, not
 * found), skipping a constructor's member initialisers (`: a(1), b{2}`:
 * a '{' right after an identifier there is a brace initialiser, the body's
 * follows a ')' or '}'), then the braces to their match. The fingerprint
 * hashes that text from the declaration's line to the closing brace as
 * tokens: comments dropped, white space kept (as one space) only between
 * two words, so re-indenting, spacing or a comment counts as no change,
 * while any token does. Lines moved up or down by an edit elsewhere in the file
 * do not matter: each build's own line is read.
 *
 * The text may be hashed with some of its lines left out
 * (ttf_source_hash_skip): the bodies of functions defined inside it (a
 * lambda, a class's member functions), so that a function is told apart
 * from what is nested in its text.
 *
 * The same body says whether the function only passes another's answer on
 * (ttf_source_passes_on): every return statement in it is `return
 * NAME(...);` of one NAME (a wrapper whose callee, inlined into it, made
 * the decision), ignoring what comments and literals say.
 *
 * Bounded: files up to SRC_MAX bytes, the body within SPAN_MAX lines of
 * the declaration; anything else is "not found", never a guess.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "ttf_int.h"

#define SRC_MAX (16u << 20)     /* largest source file read */
#define SPAN_MAX 4000           /* lines from the declaration to the body's end */

/* A cursor over the text, aware of comments and literals. */
typedef struct scan {
    const char *p, *end;
    int line;                   /* of p */
} scan;

/* Read the whole file (NUL-terminated) into *buf; its size in *n. */
static int slurp(const char *path, char **buf, size_t *n)
{
    const char *why = NULL;
    int fd = ttfi_open_regular(path, &why);
    struct stat st;

    if (fd < 0)
        return TT_ENOTFOUND;
    if (fstat(fd, &st) != 0 || st.st_size < 0 || (uint64_t)st.st_size > SRC_MAX) {
        close(fd);
        return TT_ENOTFOUND;
    }
    int rc = ttfi_read_all(fd, (size_t)st.st_size, buf, n);
    return rc == TT_EIO ? TT_ENOTFOUND : rc;
}

/* Step over one literal or comment at s->p (if any): 1 if stepped. */
static int skip_opaque(scan *s)
{
    const char *p = s->p;

    if (p[0] == '/' && p + 1 < s->end && p[1] == '/') {
        while (p < s->end && *p != '\n')
            p++;
    } else if (p[0] == '/' && p + 1 < s->end && p[1] == '*') {
        for (p += 2; p + 1 < s->end && !(p[0] == '*' && p[1] == '/'); p++)
            s->line += *p == '\n';
        p = p + 1 < s->end ? p + 2 : s->end;
    } else if (p[0] == '"' || p[0] == '\'') {
        char q = *p++;
        for (; p < s->end && *p != q && *p != '\n'; p++)
            p += *p == '\\' && p + 1 < s->end;
        p += p < s->end && *p == q;
    } else {
        return 0;
    }
    s->p = p;
    return 1;
}

/* Advance s to the start of line `line`; 0, or TT_ENOTFOUND. */
static int to_line(scan *s, int line)
{
    while (s->line < line && s->p < s->end)
        if (*s->p++ == '\n')
            s->line++;
    return s->line == line ? 0 : TT_ENOTFOUND;
}

static int ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_';
}

/* Move s onto the body's '{' from a declaration's line. */
static int find_body(scan *s, int limit)
{
    int paren = 0, init = 0;
    char prev = 0;              /* the last significant character */

    while (s->p < s->end && s->line <= limit) {
        char c = *s->p;
        if (skip_opaque(s)) {
            prev = c == '"' || c == '\'' ? c : prev;   /* a comment is no token */
            continue;
        }
        if (c == '{' && !paren && !(init && ident_char(prev)))
            return 0;
        s->line += c == '\n';
        paren += c == '(' ? 1 : c == ')' && paren ? -1 : 0;
        if (!paren && c == ';')
            return TT_ENOTFOUND; /* only a declaration */
        if (!paren && c == ':' && s->p + 1 < s->end && s->p[1] != ':' && prev != ':')
            init = 1;
        if (c == '{' && !paren) { /* a brace initialiser: its group */
            int depth = 0;
            do {
                depth += *s->p == '{' ? 1 : *s->p == '}' ? -1 : 0;
                s->line += *s->p == '\n';
                s->p++;
            } while (depth && s->p < s->end);
            prev = '}';
            continue;
        }
        prev = c == ' ' || c == '\t' || c == '\n' || c == '\r' ? prev : c;
        s->p++;
    }
    return TT_ENOTFOUND;
}

/* From the body's '{' to just past its match; 0, or TT_ENOTFOUND. */
static int match_body(scan *s, int limit)
{
    int depth = 0;

    while (s->p < s->end && s->line <= limit) {
        if (skip_opaque(s))
            continue;
        char c = *s->p++;
        s->line += c == '\n';
        depth += c == '{' ? 1 : c == '}' ? -1 : 0;
        if (!depth)
            return 0;
    }
    return TT_ENOTFOUND;
}

/* Hash text [a, b) as tokens: comments out, white space kept only where
 * it parts two words ("unsigned h", not "h = 7"), as one space. */
static uint64_t token_hash(const char *a, const char *b)
{
    XXH3_state_t *st = XXH3_createState();
    scan s = {a, b, 0};
    int space = 0;
    char last = 0;              /* the last character hashed */

    if (!st)
        return 0;
    XXH3_64bits_reset(st);
    while (s.p < s.end) {
        const char *from = s.p;
        char c = *s.p;
        int lit = c == '"' || c == '\'';
        if (skip_opaque(&s)) {
            if (lit)
                XXH3_64bits_update(st, from, (size_t)(s.p - from));
            space = !lit;
            last = lit ? c : last;
            continue;
        }
        s.p++;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            space = 1;
            continue;
        }
        if (space && ident_char(last) && ident_char(c))
            XXH3_64bits_update(st, " ", 1);
        space = 0;
        last = c;
        XXH3_64bits_update(st, &c, 1);
    }
    uint64_t h = XXH3_64bits_digest(st);
    XXH3_freeState(st);
    return h ? h : 1;
}

/* The body of the function declared at line `line` of file: the file in
 * *buf (freed by the caller), the text from the declaration's line in
 * [*from, *to), the body's '{' at *body, its last line in *last. */
static int body_of(const char *file, int line, char **buf, const char **from,
                   const char **body, const char **to, int *last)
{
    size_t n = 0;
    int rc = slurp(file, buf, &n);

    if (rc)
        return rc;
    scan s = {*buf, *buf + n, 1};
    int limit = line > INT32_MAX - SPAN_MAX ? INT32_MAX : line + SPAN_MAX;
    if (!(rc = to_line(&s, line))) {
        *from = s.p;
        rc = find_body(&s, limit);
    }
    *body = s.p;
    if (!rc)
        rc = match_body(&s, limit);
    *to = s.p;
    *last = s.line;
    return rc;
}

int ttf_source_hash(const char *file, int line, uint64_t *hash, int *last)
{
    char *buf = NULL;
    const char *from = NULL, *body = NULL, *to = NULL;
    int end = 0;

    if (!file || !hash || line <= 0)
        return TT_EINVAL;
    *hash = 0;
    int rc = body_of(file, line, &buf, &from, &body, &to, &end);
    if (!rc) {
        *hash = token_hash(from, to);
        rc = *hash ? 0 : TT_ENOMEM;
    }
    if (!rc && last)
        *last = end;
    free(buf);
    return rc;
}

/* 1 if line no is in one of the nskip ranges skip[2k]..skip[2k+1]. */
static int skipped(int no, const int *skip, size_t nskip)
{
    for (size_t k = 0; k < nskip; k++)
        if (no >= skip[2 * k] && no <= skip[2 * k + 1])
            return 1;
    return 0;
}

int ttf_source_hash_skip(const char *file, int line, const int *skip, size_t nskip,
                         uint64_t *hash, int *last)
{
    char *buf = NULL, *kept = NULL;
    const char *from = NULL, *body = NULL, *to = NULL;
    int end = 0, no = line;
    size_t k = 0;

    if (!file || !hash || line <= 0 || (nskip && !skip))
        return TT_EINVAL;
    *hash = 0;
    int rc = body_of(file, line, &buf, &from, &body, &to, &end);
    if (!rc && !(kept = malloc((size_t)(to - from) + 1)))
        rc = TT_ENOMEM;
    for (const char *p = from; !rc && p < to; p++) {
        if (!skipped(no, skip, nskip))
            kept[k++] = *p;
        no += *p == '\n';
    }
    if (!rc) {
        *hash = token_hash(kept, kept + k);
        rc = *hash ? 0 : TT_ENOMEM;
    }
    if (!rc && last)
        *last = end;
    free(kept);
    free(buf);
    return rc;
}

/* Step over white space and comments; the next character, 0 at the end. */
static char next_token(scan *s)
{
    while (s->p < s->end) {
        char c = *s->p;
        if ((c == '/' && s->p + 1 < s->end && (s->p[1] == '/' || s->p[1] == '*')) ? skip_opaque(s)
            : c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            s->p += c != '/';
            continue;
        }
        return c;
    }
    return 0;
}

/* At a return statement's value in s: 1 when it is `NAME(...);` (its
 * name in [*id, *id + *idn)), s then past the ';'; 0 otherwise. */
static int returns_call(scan *s, const char **id, size_t *idn)
{
    char c = next_token(s);
    int depth = 0;

    if (!ident_char(c) || (c >= '0' && c <= '9'))
        return 0;
    *id = s->p;
    while (s->p < s->end && ident_char(*s->p))
        s->p++;
    *idn = (size_t)(s->p - *id);
    if (next_token(s) != '(')
        return 0;
    while (s->p < s->end) {
        if (skip_opaque(s))
            continue;
        char k = *s->p++;
        depth += k == '(' ? 1 : k == ')' ? -1 : 0;
        if (!depth)
            break;
        if (k == ';' || k == '{' || k == '}')
            return 0;
    }
    if (depth || next_token(s) != ';')
        return 0;
    s->p++;
    return 1;
}

int ttf_source_passes_on(const char *file, int line, char *callee, size_t len)
{
    char *buf = NULL;
    const char *from = NULL, *body = NULL, *to = NULL;
    int end = 0, n = 0;

    if (!file || !callee || !len || line <= 0)
        return TT_EINVAL;
    callee[0] = 0;
    int rc = body_of(file, line, &buf, &from, &body, &to, &end);
    scan s = {body, to, 0};
    char prev = '{';
    while (!rc && s.p < s.end) {
        const char *id = NULL;
        size_t idn = 0;
        if (skip_opaque(&s)) {
            prev = ' ';
            continue;
        }
        if (ident_char(prev) || (size_t)(s.end - s.p) < 7 || memcmp(s.p, "return", 6) != 0 ||
            ident_char(s.p[6])) {
            prev = *s.p++;
            continue;
        }
        s.p += 6;
        if (!returns_call(&s, &id, &idn) || idn >= len ||
            (n && (strlen(callee) != idn || memcmp(callee, id, idn) != 0))) {
            n = -1;         /* a return of another kind, or of another call */
            break;
        }
        memcpy(callee, id, idn);
        callee[idn] = 0;
        n++;
        prev = ';';
    }
    free(buf);
    if (rc)
        return rc;
    if (n <= 0)
        callee[0] = 0;
    return n > 0;
}
