/*
 * header.c - the file header (FORMAT.md 2): checked field by field, magic
 * first so that text-mode damage is named, then the version, the required
 * features, sizes and offsets; and libttcap's cut counters and cut table
 * kept in it. Only the header can make ttf_open fail.
 * Stage 1 trace of format/STAGES (its header: read_int.h).
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read_int.h"

#define REFUSE(c, code, ...) ttfi_bad((c), (code), __FILE__, __LINE__, __VA_ARGS__)

static int check_magic(struct ttfi_cursor *c, size_t len)
{
    static const char crlf_lost[] = "\x89TTF\n\x1a\n";
    const uint8_t *b = c->p;
    size_t n = len < TTF_MAGIC_LEN ? len : TTF_MAGIC_LEN;

    if (memcmp(b, TTF_MAGIC, n) == 0)
        return len < TTF_MAGIC_LEN ? TRUNCATED(c, "file ends inside the magic") : 0;
    if (len >= 7 && memcmp(b, crlf_lost, 7) == 0)
        return CORRUPT(c, "bad magic: CR LF became LF (text-mode transfer?)");
    if (len >= 4 && b[0] == 0x09 && memcmp(b + 1, "TTF", 3) == 0)
        return CORRUPT(c, "bad magic: high bit stripped (7-bit transfer?)");
    return CORRUPT(c, "not a tt trace (bad magic)");
}

/* The header's cut counters and cut table (TTF_OPT_CUTINFO: libttcap
 * keeps them in the mapped header page). Entries past the file's end or
 * data_offset are not read; an entry's thread index + 1 is stored last,
 * so 0 marks an unused (or half-written) one. */
static void parse_cutinfo(ttf_trace *t)
{
    ttf_header *h = &t->hdr;
    const uint8_t *b = t->buf;
    if (!(h->optional_features & TTF_OPT_CUTINFO) ||
        h->header_size < TTF_HEADER_SIZE_CUT || t->len < TTF_HEADER_SIZE_CUT)
        return;
    h->cut_events = ttf_get_le(b + TTF_H_CUTEV, 8);
    h->cut_threads = (uint32_t)ttf_get_le(b + TTF_H_CUTTHR, 4);
    h->cut_reason = (uint32_t)ttf_get_le(b + TTF_H_CUTWHY, 4);
    h->cut_realtime_ns = ttf_get_le(b + TTF_H_CUTTIME, 8);
    h->end_offset = ttf_get_le(b + TTF_H_ENDOFF, 8);
    for (size_t i = 0; i < TTF_CUT_ENTRIES; i++) {
        uint64_t off = TTF_CUT_TABLE + i * TTF_CUT_ENTRY;
        if (off + TTF_CUT_ENTRY > t->len || off + TTF_CUT_ENTRY > h->data_offset)
            break;
        const uint8_t *e = b + off;
        uint32_t th1 = (uint32_t)ttf_get_le(e + TTF_CUTE_THREAD, 4);
        if (!th1)
            continue;
        uint32_t why = (uint32_t)ttf_get_le(e + TTF_CUTE_REASON, 4);
        t->cuts[t->ncuts++] = (ttf_cut){ .thread = th1 - 1,
            .tid = (int64_t)ttf_get_le(e + TTF_CUTE_TID, 4),
            .lost = ttf_get_le(e + TTF_CUTE_LOST, 8),
            .realtime_ns = ttf_get_le(e + TTF_CUTE_TIME, 8),
            .flags = (uint32_t)ttf_get_le(e + TTF_CUTE_FLAGS, 4),
            .reason = why > 255 ? 255 : (int)why };
    }
}

int ttfi_parse_header(ttf_trace *t, struct ttfi_problem *pb)
{
    struct ttfi_cursor c = {t->buf, t->buf + t->len, t->buf, 0, NULL, 1, pb};
    ttf_header *h = &t->hdr;
    enum { VMAJOR, VMINOR, MINREAD, HSIZE, ENDIAN, REQ, OPT, CHUNK, DATAOFF, FLAGS,
           EXIT, TSCHZ, START, NFIELDS };
    static const struct { uint8_t off, width; } field[NFIELDS] = {
        [VMAJOR] = {TTF_H_VMAJOR, 2}, [VMINOR] = {TTF_H_VMINOR, 2},
        [MINREAD] = {TTF_H_MINREAD, 2}, [HSIZE] = {TTF_H_HSIZE, 2},
        [ENDIAN] = {TTF_H_ENDIAN, 4}, [REQ] = {TTF_H_REQ, 4}, [OPT] = {TTF_H_OPT, 4},
        [CHUNK] = {TTF_H_CHUNK, 4}, [DATAOFF] = {TTF_H_DATAOFF, 4},
        [FLAGS] = {TTF_H_FLAGS, 4}, [EXIT] = {TTF_H_EXIT, 4}, [TSCHZ] = {TTF_H_TSCHZ, 8},
        [START] = {TTF_H_START, 8}};
    uint64_t v[NFIELDS];
    int r;

    if ((r = check_magic(&c, t->len)))
        return r;
    if (t->len < TTF_HEADER_SIZE)
        return TRUNCATED(&c, "truncated file header (needs %d bytes, %zu present)",
                         TTF_HEADER_SIZE, t->len);
    for (int i = 0; i < NFIELDS; i++) {
        c.p = t->buf + field[i].off;
        if ((r = cur_le(&c, field[i].width, &v[i])))
            return r;
    }
    c.p = t->buf + TTF_HEADER_SIZE;
    h->version_major = (uint16_t)v[VMAJOR];
    h->version_minor = (uint16_t)v[VMINOR];
    h->min_reader_major = (uint16_t)v[MINREAD];
    h->header_size = (uint16_t)v[HSIZE];
    h->required_features = (uint32_t)v[REQ];
    h->optional_features = (uint32_t)v[OPT];
    h->chunk_size = (uint32_t)v[CHUNK];
    h->data_offset = (uint32_t)v[DATAOFF];
    h->flags = (uint32_t)v[FLAGS];
    h->exit_status = (int32_t)(uint32_t)v[EXIT];
    h->tsc_hz = v[TSCHZ];
    h->start_realtime_ns = v[START];
    parse_cutinfo(t);

    c.rec = t->buf + TTF_H_ENDIAN;
    if (v[ENDIAN] == 0x04030201u)
        return CORRUPT(&c, "byte order marker 04030201: written big-endian "
                           "(unsupported)");
    if (v[ENDIAN] != TTF_ENDIAN_MARK)
        return CORRUPT(&c, "bad byte order marker 0x%08llx",
                       (unsigned long long)v[ENDIAN]);
    c.rec = t->buf + TTF_H_VMAJOR;
    if (h->version_major == 0)
        return CORRUPT(&c, "bad format version 0.%u", h->version_minor);
    c.rec = t->buf + TTF_H_MINREAD;
    if (h->min_reader_major > TTF_VERSION_MAJOR_WIRE)
        return REFUSE(&c, TT_EVERSION, "format version %u.%u needs a reader of "
                      "major version %u or later (this is %d)", h->version_major,
                      h->version_minor, h->min_reader_major, TTF_VERSION_MAJOR_WIRE);
    c.rec = t->buf + TTF_H_REQ;
    if (h->required_features & ~TTF_REQ_KNOWN)
        return REFUSE(&c, TT_EFEATURE, "needs unknown required feature bits 0x%x "
                      "(this reader knows 0x%x: events-v1, values, sites, sparse, xmm, lazy, lazy values, "
                      "lazy chain)",
                      h->required_features & ~TTF_REQ_KNOWN, TTF_REQ_KNOWN);
    c.rec = t->buf + TTF_H_HSIZE;
    if (h->header_size < TTF_HEADER_SIZE)
        return CORRUPT(&c, "header size %u is less than %d", h->header_size,
                       TTF_HEADER_SIZE);
    c.rec = t->buf + TTF_H_CHUNK;
    if (h->chunk_size < TTF_CHUNK_MIN || h->chunk_size > TTF_CHUNK_MAX ||
        (h->chunk_size & (h->chunk_size - 1)))
        return CORRUPT(&c, "bad chunk size %u (a power of two from %u to %u)",
                       h->chunk_size, TTF_CHUNK_MIN, TTF_CHUNK_MAX);
    c.rec = t->buf + TTF_H_DATAOFF;
    if (h->data_offset % 4096 || h->data_offset < h->header_size ||
        h->data_offset > DATA_OFFSET_MAX)
        return CORRUPT(&c, "bad data offset %u (a multiple of 4096 past the "
                       "header)", h->data_offset);
    /* both writers write the whole header page first: a shorter file was
       cut (a trace read while its header page was being copied) */
    c.rec = t->buf + t->len;
    if (t->len < h->data_offset)
        return TRUNCATED(&c, "truncated file header (its page ends at offset %u, "
                         "the file at %zu)", h->data_offset, t->len);
    return 0;
}

/* ---- accessors ---------------------------------------------------------- */

const ttf_header *ttf_get_header(const ttf_trace *t)
{
    return t ? &t->hdr : NULL;
}

size_t ttf_cut_count(const ttf_trace *t)
{
    return t ? t->ncuts : 0;
}

const ttf_cut *ttf_get_cut(const ttf_trace *t, size_t i)
{
    return t && i < t->ncuts ? &t->cuts[i] : NULL;
}

const char *ttf_cut_reason_name(int reason)
{
    switch (reason) {
    case TTF_CUT_FULL: return "disk full";
    case TTF_CUT_IO: return "write failed";
    case TTF_CUT_LIMIT: return "file size limit";
    default: return "writer stopped";
    }
}

int ttf_cut_text(const ttf_trace *t, char *buf, size_t len)
{
    const ttf_summary *s = t ? &t->sum : NULL;
    if (len)
        buf[0] = 0;
    if (s && s->cut_reason < 0 && s->truncated_at) {
        snprintf(buf, len, "trace cut: the file ends at offset %" PRIu64 ", inside "
                 "its data, after %" PRIu64 " events (%" PRIu64 " thread%s cut)",
                 s->truncated_at, s->events, s->cut_threads,
                 s->cut_threads == 1 ? "" : "s");
        return 1;
    }
    if (!s || s->cut_reason < 0)
        return 0;
    snprintf(buf, len, "trace cut: %s after %" PRIu64 " events; %" PRIu64
             " events could not be written (%" PRIu64 " thread%s cut)",
             ttf_cut_reason_name(s->cut_reason), s->events, s->cut_events,
             s->cut_threads, s->cut_threads == 1 ? "" : "s");
    return 1;
}
