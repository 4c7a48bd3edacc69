/*
 * sparsify.c - the sparse clock's error, measured on one run: rewrites a
 * trace recorded with TTCAP_CLOCK=every (every ENTER and EXIT timed) into
 * the sparse encoding (format 1.4), dropping the EXIT times libttcap's
 * default mode would not have read, by the same rules (capture/cap_int.h:
 * big calls, runs, sync records, samples drawn by the same generator).
 * With -l it writes the lazy encoding (format 1.7) instead: the ENTERs
 * right after an untimed EXIT lose their times too; with -c the chain
 * encoding (format 1.9, libttcap's default): and the ENTERs right after
 * an untimed ENTER.
 * Profiles of the two files then differ only by the reader's estimate of
 * the untimed EXITs, without the noise of two runs or of the hooks' own
 * cost (bench_clock.sh compares them).
 *
 * usage: sparsify [-l|-c] IN.trc OUT.trc  ->  "exits=.. timed=.. sampled=..
 * enters=.. untimed_enters=.. reads_per_call=.." on stdout. Chunks with values are refused (the bench records plain mode).
 * Exit 2 with one line on bad input.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ttf_wire.h"

/* the writer's constants (capture/cap_int.h) */
#define BIG_CALL 64
#define UNTIMED_RUN 8
#define SAMPLE_BITS 6
#define EVAT 64
#define WARM 4096

/* One thread's writer state, as libttcap keeps it. */
struct wstate {
    uint16_t ev, evat[EVAT];
    uint8_t since;
    uint32_t rng;
    uint16_t warm;
    uint8_t skip;
    uint8_t ux;                 /* lazy: the last hot or timed record was an
                                   untimed EXIT (chain: or ENTER) */
};

static int lazy;                /* -l: format 1.7 (1); -c: 1.9, chain (2) */

/* Counts for the report line. */
struct counts {
    uint64_t exits, timed, sampled, enters, uenters;
};

/* Input and output positions in one chunk, with the two time bases. */
struct pass {
    const uint8_t *p, *e;       /* input */
    uint8_t *o, *oe;            /* output */
    uint64_t tin, tout;         /* true running tsc; last tsc written */
    int32_t depth;
    struct wstate *w;
};

static void die(const char *what)
{
    fprintf(stderr, "sparsify: %s\n", what);
    exit(2);
}

static uint64_t get_uvar(struct pass *s)
{
    uint64_t x = 0;
    for (unsigned sh = 0; s->p < s->e && sh < 64; sh += 7) {
        uint8_t b = *s->p++;
        x |= (uint64_t)(b & 0x7f) << sh;
        if (!(b & 0x80))
            return x;
    }
    die("damaged varint in input");
    return 0;
}

static void room(struct pass *s, size_t n)
{
    if ((size_t)(s->oe - s->o) < n)
        die("a chunk does not fit re-encoded (more timed EXITs than untimed)");
}

static void put_uvar(struct pass *s, uint64_t v)
{
    room(s, TTF_UVAR_MAX);
    s->o = ttf_put_uvar(s->o, v);
}

/* The time delta to write for the measured time now. */
static uint64_t delta_out(struct pass *s)
{
    uint64_t d = s->tin - s->tout;
    s->tout = s->tin;
    s->w->since = 0;
    s->w->ux = 0;
    return d;
}

/* cap_exit_reads: 0, TTF_T_TIMED or TTF_T_SAMPLE. */
static unsigned exit_reads(struct wstate *w, int32_t depth)
{
    uint16_t n = (uint16_t)(w->ev++ - w->evat[(uint32_t)(depth - 1) % EVAT]);
    if (n >= BIG_CALL || w->since >= UNTIMED_RUN || w->warm < WARM) {
        if (w->warm < WARM)
            w->warm++;
        return TTF_T_TIMED;
    }
    if (--w->skip == 0) {
        w->rng = w->rng * 1664525u + 1013904223u;
        w->skip = (uint8_t)(1 + (w->rng >> (32 - SAMPLE_BITS)));
        return TTF_T_SAMPLE;
    }
    w->since++;
    w->ux = (uint8_t)(lazy != 0);
    return 0;
}

static void hot(struct pass *s, unsigned tag, struct counts *c)
{
    int miss = tag < TTF_T_ENTER_HIT, is_exit = miss ? tag == TTF_T_EXIT_MISS : tag >= TTF_T_EXIT_HIT;
    const uint8_t *a = s->p;
    if (miss)
        get_uvar(s);
    size_t alen = (size_t)(s->p - a);
    s->tin += get_uvar(s);
    unsigned pre = 0, untimed = 0;
    if (is_exit) {
        c->exits++;
        pre = exit_reads(s->w, s->depth);
        c->timed += pre != 0;
        c->sampled += pre == TTF_T_SAMPLE;
        s->depth--;
    } else {
        s->w->evat[(uint32_t)s->depth % EVAT] = s->w->ev++;
        s->depth++;
        c->enters++;
        untimed = s->w->ux;     /* lazy: right after an untimed EXIT */
        s->w->ux = lazy == 2 ? s->w->ux : 0;    /* chain: the run goes on */
        c->uenters += untimed;
    }
    room(s, 2 + alen);
    if (pre)
        *s->o++ = (uint8_t)pre;
    *s->o++ = (uint8_t)tag;
    memcpy(s->o, a, alen);
    s->o += alen;
    if ((!is_exit && !untimed) || pre)
        put_uvar(s, delta_out(s));
}

static int ext_timed(unsigned tag)
{
    if (tag == TTF_R_PROCESS || tag == TTF_R_CALLSITE)
        return 0;
    return tag <= TTF_R_CUT || tag == TTF_R_SYNC_OP || tag == TTF_R_EXEC ||
           tag == TTF_R_VFORK || tag == TTF_R_UNWIND;
}

static void ext(struct pass *s, unsigned tag)
{
    uint64_t len = get_uvar(s);
    if (len > (uint64_t)(s->e - s->p))
        die("record longer than its chunk in input");
    const uint8_t *body = s->p, *end = s->p + len;
    s->p = end;
    uint8_t tmp[1 << 12], *q = tmp;
    if (ext_timed(tag)) {
        struct pass b = *s;
        b.p = body;
        b.e = end;
        s->tin += get_uvar(&b);
        body = b.p;
        q = ttf_put_uvar(q, delta_out(s));
        if (tag == TTF_R_SYNC_OP)
            s->w->ev = (uint16_t)(s->w->ev + BIG_CALL);
        if (tag == TTF_R_UNWIND && end - body >= 2) {
            b.p = body + 1;
            s->depth -= (int32_t)get_uvar(&b);
        }
    }
    size_t rest = (size_t)(end - body);
    if (rest > sizeof tmp - 16)
        die("extended record too long");
    memcpy(q, body, rest);
    q += rest;
    room(s, 2 + TTF_UVAR_MAX + (size_t)(q - tmp));
    *s->o++ = (uint8_t)tag;
    s->o = ttf_put_uvar(s->o, (uint64_t)(q - tmp));
    memcpy(s->o, tmp, (size_t)(q - tmp));
    s->o += q - tmp;
}

static void chunk(const uint8_t *in, uint8_t *out, uint32_t size, struct wstate *w,
                  struct counts *c)
{
    unsigned flags = (unsigned)ttf_get_le(in + TTF_C_FLAGS, 2);
    if (flags & TTF_CHUNK_VALUES)
        die("values chunks are not supported (record plain mode)");
    if (!(flags & TTF_CHUNK_TIMED) || (flags & TTF_CHUNK_SPARSE))
        die("input must be recorded with TTCAP_CLOCK=every");
    memcpy(out, in, TTF_CHUNK_HDR);
    ttf_put_u16(out + TTF_C_FLAGS, (uint16_t)(flags | TTF_CHUNK_SPARSE |
                                              (lazy ? TTF_CHUNK_LAZY : 0) |
                                              (lazy == 2 ? TTF_CHUNK_CHAIN : 0)));
    w->ux = 0;                  /* a chunk's header time is measured */
    struct pass s = { in + TTF_CHUNK_HDR, in + size, out + TTF_CHUNK_HDR, out + size, 0, 0,
                      (int32_t)ttf_get_le(in + TTF_C_DEPTH, 4), w };
    s.tin = s.tout = ttf_get_le(in + TTF_C_TSC, 8);
    while (s.p < s.e && *s.p != TTF_T_END) {
        unsigned tag = *s.p++;
        if (tag >= TTF_T_ENTER_HIT || tag == TTF_T_ENTER_MISS || tag == TTF_T_EXIT_MISS) {
            hot(&s, tag, c);
        } else if (tag >= TTF_T_SITE_WAY && tag <= TTF_T_SITE_NEW) {
            const uint8_t *a = s.p - 1;
            if (tag == TTF_T_SITE_NEW)
                get_uvar(&s);
            room(&s, (size_t)(s.p - a));
            memcpy(s.o, a, (size_t)(s.p - a));
            s.o += s.p - a;
        } else if (tag <= TTF_R_LAST) {
            ext(&s, tag);
        } else {
            die("invalid record tag in input");
        }
    }
}

int main(int argc, char **argv)
{
    if (argc == 4 && (strcmp(argv[1], "-l") == 0 || strcmp(argv[1], "-c") == 0)) {
        lazy = argv[1][1] == 'c' ? 2 : 1;
        argv++;
        argc--;
    }
    if (argc != 3)
        die("usage: sparsify [-l|-c] IN.trc OUT.trc");
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < TTF_DATA_OFFSET)
        die("cannot open the input, or it is too short");
    size_t n = (size_t)st.st_size;
    const uint8_t *m = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED || memcmp(m, TTF_MAGIC, TTF_MAGIC_LEN) != 0)
        die("input is not a trace (bad magic)");
    uint32_t csize = (uint32_t)ttf_get_le(m + TTF_H_CHUNK, 4);
    uint32_t off = (uint32_t)ttf_get_le(m + TTF_H_DATAOFF, 4);
    if (csize < TTF_CHUNK_MIN || csize > TTF_CHUNK_MAX || off > n || off < TTF_DATA_OFFSET)
        die("bad chunk size or data offset in input");
    uint8_t *out = calloc(1, n);
    if (!out)
        die("out of memory");
    memcpy(out, m, off);
    uint32_t req = (uint32_t)ttf_get_le(m + TTF_H_REQ, 4);
    ttf_put_u32(out + TTF_H_REQ, req | TTF_REQ_SPARSE | (lazy ? TTF_REQ_LAZY : 0) |
                                     (lazy == 2 ? TTF_REQ_CHAIN : 0));
    ttf_put_u16(out + TTF_H_VMINOR, lazy == 2 ? 9 : lazy ? 7 : 4);
    size_t nth = 1024;
    struct wstate *w = calloc(nth, sizeof *w);
    struct counts c = { 0 };
    for (size_t at = off; w && at + csize <= n; at += csize) {
        if (ttf_get_le(m + at, 4) != TTF_CHUNK_MAGIC)
            continue;
        uint32_t th = (uint32_t)ttf_get_le(m + at + TTF_C_THREAD, 4);
        if (th >= nth)
            die("thread index over 1023 in input");
        chunk(m + at, out + at, csize, &w[th], &c);
    }
    FILE *f = fopen(argv[2], "wbx");
    if (!f || fwrite(out, 1, n, f) != n || fclose(f) != 0)
        die("cannot write the output (it must not exist)");
    printf("exits=%llu timed=%llu sampled=%llu enters=%llu untimed_enters=%llu "
           "reads_per_call=%.3f\n", (unsigned long long)c.exits,
           (unsigned long long)c.timed, (unsigned long long)c.sampled,
           (unsigned long long)c.enters, (unsigned long long)c.uenters,
           c.enters ? (double)(c.timed + c.enters - c.uenters) / (double)c.enters : 0.0);
    return 0;
}
