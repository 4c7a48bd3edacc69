/*
 * error.c - the error model of libttfmt: code names, the runtime version
 * and format description (ttf_format), the one corruption report every
 * parse failure goes through, the slow path of varint decoding, and
 * error setting (ttfi_set_err).
 * Stage 0 base of format/STAGES.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttf_int.h"
#include "ttf_wire.h"

_Static_assert(TTF_HEADER_CLOSED == TTF_FLAG_CLOSED, "ttfmt.h and ttf_wire.h agree");
_Static_assert(TTF_HEADER_SYNC == TTF_OPT_SYNC && TTF_HEADER_RING == TTF_OPT_RING &&
               (int)TTF_SOP_LOCK == (int)TTF_SYNC_LOCK &&
               (int)TTF_SOP_WOKE == (int)TTF_SYNC_WOKE && (int)TTF_SOP_JOIN == (int)TTF_SYNC_JOIN &&
               (int)TTF_SOP_SLEEP == (int)TTF_SYNC_SLEEP &&
               (int)TTF_SOP_LOCKING == (int)TTF_SYNC_LOCKING &&
               (int)TTF_SOP_JOINING == (int)TTF_SYNC_JOINING &&
               (int)TTF_SOP_SEM_WAITING == (int)TTF_SYNC_SEM_WAITING &&
               (int)TTF_SOP_SEM_POST == (int)TTF_SYNC_SEM_POST,
               "ttfmt.h and ttf_wire.h agree on SYNC_OP");

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

void ttfi_set_err(ttf_error *err, int code, uint64_t offset, const char *fmt,
                  ...)
{
    va_list ap;

    if (!err)
        return;
    err->code = code;
    err->offset = offset;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
}

const char *ttf_sync_op_name(int op)
{
    static const char *const ops[] = {"op", "lock", "trylock", "unlock",
        "cond-wait", "cond-woke", "cond-signal", "cond-broadcast",
        "thread-create", "thread-join", "sleep", "locking", "thread-joining", "sem-waiting", "sem-taken", "sem-post"};
    return op > 0 && op < (int)(sizeof ops / sizeof *ops) ? ops[op] : "op";
}

const char *ttf_unwind_name(int how)
{
    return how == TTF_UNWIND_LONGJMP ? "longjmp" : how == TTF_UNWIND_EXCEPTION ? "exception"
                                                                             : "unwind";
}
