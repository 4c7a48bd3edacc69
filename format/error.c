/*
 * error.c - the error model of libttfmt: code names, the runtime version
 * and format description (ttf_format), the one corruption report every
 * parse failure goes through, the slow path of varint decoding, and the
 * arena that owns a trace's strings.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttf_int.h"
#include "ttf_wire.h"

_Static_assert(TTF_HEADER_CLOSED == TTF_FLAG_CLOSED, "ttfmt.h and ttf_wire.h agree");

int ttf_version(void)
{
    return TTF_VERSION_NUMBER;
}

const ttf_format_info *ttf_format(void)
{
    static const ttf_format_info info = {
        TTF_VERSION_MAJOR_WIRE, TTF_VERSION_MINOR_WIRE, TTF_MIN_READER_WIRE,
        TTF_ENDIAN_MARK,
    };
    return &info;
}

const char *ttf_strerror(int err)
{
    switch (err) {
    case TT_OK: return "success";
    case TT_EIO: return "I/O error";
    case TT_ETRUNC: return "truncated trace (the bytes end early)";
    case TT_ECORRUPT: return "corrupt trace (bytes make no sense)";
    case TT_EVERSION: return "trace written by a newer, incompatible format version";
    case TT_EFEATURE: return "trace needs a feature this reader lacks";
    case TT_ENOMEM: return "out of memory";
    case TT_EINVAL: return "invalid argument";
    case TT_ENOTFOUND: return "not found";
    default: return "unknown error";
    }
}

int ttfi_bad(struct ttfi_cursor *c, int code, const char *src, int line,
             const char *fmt, ...)
{
    struct ttfi_problem *pb = c->pb;
    va_list ap;

    if (!pb)
        return code;
    pb->code = code;
    pb->offset = cur_offset(c, c->rec ? c->rec : c->p);
    pb->src = src;
    pb->line = line;
    va_start(ap, fmt);
    vsnprintf(pb->what, sizeof pb->what, fmt, ap);
    va_end(ap);
    return code;
}

int ttfi_short(struct ttfi_cursor *c, uint64_t need, const char *what,
               const char *src, int line)
{
    unsigned long long left = (unsigned long long)cur_left(c);
    if (c->end_is_eof)
        return ttfi_bad(c, TT_ETRUNC, src, line,
                        "truncated record (%s needs %llu bytes, %llu left)",
                        what, (unsigned long long)need, left);
    return ttfi_bad(c, TT_ECORRUPT, src, line,
                    "%s overruns its record or chunk (needs %llu bytes, %llu left)",
                    what, (unsigned long long)need, left);
}

int ttfi_uvar_slow(struct ttfi_cursor *c, uint64_t *v)
{
    uint64_t x = 0;
    const uint8_t *p = c->p;

    *v = 0;
    for (unsigned shift = 0; shift < 70; shift += 7) {
        if (p >= c->end)
            return SHORT(c, (uint64_t)(p - c->p) + 1, "varint");
        uint8_t b = *p++;
        if (shift == 63 && b > 1)
            return CORRUPT(c, "varint overflows 64 bits");
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            c->p = p;
            *v = x;
            return 0;
        }
    }
    return CORRUPT(c, "varint longer than 10 bytes");
}

/* ---- arena ------------------------------------------------------------- */

struct ttfi_block {
    struct ttfi_block *next;    /* older block */
    size_t used, size;          /* bytes handed out, bytes in data */
    max_align_t data[];         /* the memory */
};

#define ARENA_BLOCK (64u * 1024u)

void *ttfi_arena_alloc(struct ttfi_arena *a, size_t n)
{
    struct ttfi_block *b = a->head;
    size_t need = (n + 15) & ~(size_t)15;

    if (need < n)
        return NULL;
    if (!b || b->size - b->used < need) {
        /* blocks grow 4 KiB, 8 KiB, ... 64 KiB: small traces stay small */
        size_t size = b ? (b->size < ARENA_BLOCK ? b->size * 2 : ARENA_BLOCK) : 4096;
        if (size < need)
            size = need;
        b = malloc(sizeof *b + size);
        if (!b)
            return NULL;
        b->size = size;
        b->used = 0;
        b->next = a->head;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += need;
    return p;
}

char *ttfi_arena_strdup(struct ttfi_arena *a, const uint8_t *s, size_t n)
{
    char *p = ttfi_arena_alloc(a, n + 1);
    if (!p)
        return NULL;
    if (n)
        memcpy(p, s, n);
    p[n] = 0;
    return p;
}

void ttfi_arena_free(struct ttfi_arena *a)
{
    while (a->head) {
        struct ttfi_block *b = a->head;
        a->head = b->next;
        free(b);
    }
}
