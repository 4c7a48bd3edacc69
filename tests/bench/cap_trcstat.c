/*
 * cap_trcstat.c - bytes and event counts of a trace, for the capture bench.
 * Walks every chunk's records by tag and length (ttf_wire.h; the values of
 * a values chunk too) without the reader library, so the bench can run
 * while format/ is being written and cross-checks it: data bytes = chunk headers + records, padding excluded.
 *
 * A file cut at a clean end (format 1.4) ends inside its last slot; that
 * slot is walked as far as the file goes.
 *
 * Call-site prefixes (format 1.2) are counted apart (site_prefixes, and
 * their bytes site_bytes). timed counts the ENTER/EXIT records that carry
 * a measured time (clock reads): every one in a timed chunk, in a sparse
 * chunk (format 1.4) the ENTERs and the EXITs after a TIMED or SAMPLE
 * prefix, in a lazy chunk (1.7) the same but for the ENTERs right after
 * an untimed EXIT (in a chain chunk, 1.9, or an untimed ENTER).
 *
 * usage: cap_trcstat FILE  ->  "data_bytes=.. events=.. messages=.. ..."
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ttf_wire.h"

/* What one walk over the file found. */
struct stat_sum {
    uint64_t data;              /* chunk header + record bytes */
    uint64_t enters, exits;     /* hot ENTER / EXIT records */
    uint64_t timed;             /* those that carry a measured time */
    uint64_t messages;          /* MESSAGE records */
    uint64_t others;            /* any other extended record */
    uint64_t sites;             /* call-site prefixes (format 1.2) */
    uint64_t site_bytes;        /* their bytes */
    uint64_t chunks;            /* chunks with a valid magic */
    int bad;                    /* 1: a record ran past its chunk */
};

/* Skip a uvar at p (end e); NULL if it runs off the end. */
static const uint8_t *skip_uvar(const uint8_t *p, const uint8_t *e, uint64_t *v)
{
    uint64_t x = 0;
    for (int sh = 0; p < e && sh < 70; sh += 7) {
        x |= (uint64_t)(*p & 0x7f) << sh;
        if (!(*p++ & 0x80)) {
            if (v)
                *v = x;
            return p;
        }
    }
    return NULL;
}

/* One record at p; returns the byte after it, or NULL at the end marker or
 * on damage (s->bad set). */
/* The values after a hot record's time in a values chunk (FORMAT.md
 * 4.1): an ENTER's mask and its given registers, an EXIT's return value. */
static const uint8_t *skip_values(const uint8_t *p, const uint8_t *e, int is_exit)
{
    if (is_exit || !p)
        return p ? skip_uvar(p, e, NULL) : NULL;
    if (p >= e)
        return NULL;
    unsigned n = (unsigned)__builtin_popcount(*p++ & 0x3f);
    while (p && n--)
        p = skip_uvar(p, e, NULL);
    return p;
}

/* Does the extended record tag carry a time (format/untimed.c's list)? */
static int ext_timed(unsigned tag)
{
    if (tag == TTF_R_PROCESS || tag == TTF_R_CALLSITE)
        return 0;
    return tag <= TTF_R_CUT || tag == TTF_R_SYNC_OP || tag == TTF_R_EXEC ||
           tag == TTF_R_VFORK || tag == TTF_R_UNWIND;
}

/* timed: 0 none, 1 every record, 2 sparse (EXITs after a prefix), 3 lazy
 * (ENTERs too, but not one right after an untimed EXIT: *ux), 4 chain
 * (lazy, and *ux after an untimed ENTER too) */
static const uint8_t *walk_record(const uint8_t *p, const uint8_t *e,
                                  int timed, int vals, struct stat_sum *s, int *ux)
{
    uint8_t tag = *p++;
    uint64_t len = 0;
    int pre = 0;
    if (tag == TTF_T_END)
        return NULL;
    if ((tag == TTF_T_TIMED || tag == TTF_T_SAMPLE) && timed >= 2 && p < e) {
        pre = 1;                /* its EXIT (or lazy ENTER) follows, with a time */
        tag = *p++;
    }
    int is_exit = tag & 0x80 ? (tag & 0x40) != 0 : tag == TTF_T_EXIT_MISS;
    int has_t = timed == 1 || (timed == 2 && (!is_exit || pre)) ||
                (timed >= 3 && (is_exit ? pre : !*ux));
    int hot = (tag & 0x80) || tag == TTF_T_ENTER_MISS || tag == TTF_T_EXIT_MISS;
    if (hot)
        *ux = (is_exit || timed == 4) && !has_t;
    else if (tag <= TTF_R_LAST && ext_timed(tag))
        *ux = 0;
    if (tag & 0x80) {
        is_exit ? s->exits++ : s->enters++;
        s->timed += (uint64_t)has_t;
        p = has_t ? skip_uvar(p, e, NULL) : p;
        p = vals ? skip_values(p, e, is_exit) : p;
    } else if (tag == TTF_T_ENTER_MISS || tag == TTF_T_EXIT_MISS) {
        is_exit ? s->exits++ : s->enters++;
        s->timed += (uint64_t)has_t;
        p = skip_uvar(p, e, NULL);
        p = p && has_t ? skip_uvar(p, e, NULL) : p;
        p = vals ? skip_values(p, e, is_exit) : p;
    } else if (pre) {
        p = NULL;               /* a prefix not followed by an EXIT */
    } else if (tag >= TTF_T_SITE_WAY && tag <= TTF_T_SITE_NEW) {
        s->sites++;             /* a prefix: its ENTER follows */
        const uint8_t *at = p - 1;
        p = tag == TTF_T_SITE_NEW ? skip_uvar(p, e, NULL) : p;
        s->site_bytes += p ? (uint64_t)(p - at) : 0;
    } else if (tag <= TTF_R_LAST) {
        tag == TTF_R_MESSAGE ? s->messages++ : s->others++;
        p = skip_uvar(p, e, &len);
        p = p && len <= (uint64_t)(e - p) ? p + len : NULL;
    } else {
        p = NULL;
    }
    if (!p)
        s->bad = 1;
    return p;
}

static void walk_chunk(const uint8_t *c, uint32_t size, struct stat_sum *s)
{
    if (ttf_get_le(c, 4) != TTF_CHUNK_MAGIC)
        return;
    unsigned flags = (unsigned)ttf_get_le(c + TTF_C_FLAGS, 2);
    int timed = !(flags & TTF_CHUNK_TIMED) ? 0 : (flags & TTF_CHUNK_CHAIN) ? 4
                : (flags & TTF_CHUNK_LAZY) ? 3
                : (flags & TTF_CHUNK_SPARSE) ? 2 : 1;
    int vals = (flags & TTF_CHUNK_VALUES) != 0;
    const uint8_t *p = c + TTF_CHUNK_HDR, *e = c + size, *q;
    int ux = 0;
    while (p < e && (q = walk_record(p, e, timed, vals, s, &ux)) != NULL)
        p = q;
    s->chunks++;
    s->data += (uint64_t)(p - c);
}

int main(int argc, char **argv)
{
    struct stat st;
    int fd = argc == 2 ? open(argv[1], O_RDONLY) : -1;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < TTF_DATA_OFFSET) {
        fprintf(stderr, "cap_trcstat: %s: cannot open or too short\n",
                argc == 2 ? argv[1] : "(no file)");
        return 2;
    }
    size_t n = (size_t)st.st_size;
    const uint8_t *m = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED || memcmp(m, TTF_MAGIC, TTF_MAGIC_LEN) != 0) {
        fprintf(stderr, "cap_trcstat: %s: not a trace (bad magic)\n", argv[1]);
        return 2;
    }
    uint32_t csize = (uint32_t)ttf_get_le(m + TTF_H_CHUNK, 4);
    uint32_t off = (uint32_t)ttf_get_le(m + TTF_H_DATAOFF, 4);
    if (csize < TTF_CHUNK_MIN || csize > TTF_CHUNK_MAX || off > n) {
        fprintf(stderr, "cap_trcstat: %s: bad chunk size %u or data offset %u\n",
                argv[1], csize, off);
        return 2;
    }
    struct stat_sum s = { 0 };
    /* a file cut at a clean end (format 1.4 end_offset) ends inside its
     * last slot: that slot is walked as far as the file goes */
    for (size_t at = off; at + TTF_CHUNK_HDR <= n; at += csize)
        walk_chunk(m + at, (uint32_t)(n - at < csize ? n - at : csize), &s);
    printf("data_bytes=%llu events=%llu enters=%llu exits=%llu timed=%llu messages=%llu "
           "other=%llu site_prefixes=%llu site_bytes=%llu chunks=%llu chunk_size=%u file_bytes=%zu damaged=%d\n",
           (unsigned long long)s.data,
           (unsigned long long)(s.enters + s.exits + s.messages),
           (unsigned long long)s.enters, (unsigned long long)s.exits,
           (unsigned long long)s.timed, (unsigned long long)s.messages, (unsigned long long)s.others,
           (unsigned long long)s.sites, (unsigned long long)s.site_bytes,
           (unsigned long long)s.chunks, csize, n, s.bad);
    return 0;
}
