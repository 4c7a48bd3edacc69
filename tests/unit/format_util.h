/*
 * format_util.h - helpers for the format tests: temporary paths, whole
 * file reads, a byte builder for hand-made traces (independent of the
 * writer, so writer and reader cannot share a mistake) and event capture.
 * The bodies are in format_util.c; failures are cmocka assertions.
 */
#ifndef FORMAT_UTIL_H
#define FORMAT_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "ttf_wire.h"
#include "ttfmt.h"

/* The per-process scratch folder ("" until tu_path makes it). */
extern char tu_dir[256];

/* A fresh path in the scratch folder (file not created; the last 8
 * returned stay valid). */
const char *tu_path(const char *name);
/* Remove the scratch folder. */
void tu_cleanup(void);
/* A cmocka group teardown that removes the scratch folder. */
int tu_teardown_all(void **state);
/* The whole file at path, malloc'ed; *len its length. */
uint8_t *tu_read(const char *path, size_t *len);

/* ---- byte builder ------------------------------------------------------ */

struct tb {
    uint8_t *buf;               /* the file being built */
    size_t len;                 /* its length */
    uint32_t chunk;             /* chunk size */
    size_t cpos;                /* write position in the open chunk */
    size_t coff;                /* offset of the open chunk */
};

/* A v1 header; chunk slots are added by tb_chunk. */
void tb_init(struct tb *b, uint32_t chunk, uint64_t hz);
/* Grow the file to len bytes (zeros). */
void tb_reserve(struct tb *b, size_t len);
/* Start chunk slot `slot` (grows the file to hold it). */
void tb_chunk(struct tb *b, uint32_t slot, uint32_t thread, uint32_t seq,
              int timed, int32_t depth, uint64_t tsc, uint64_t mono);
/* Bytes, a byte, an unsigned varint into the open chunk. */
void tb_raw(struct tb *b, const void *p, size_t n);
void tb_u8(struct tb *b, uint8_t v);
void tb_uvar(struct tb *b, uint64_t v);
/* An extended record: tag, uvar length, payload (built by the caller). */
void tb_ext(struct tb *b, uint8_t tag, const uint8_t *pl, size_t n);

/* A payload buffer. */
struct pl {
    uint8_t b[1024];            /* bytes */
    size_t n;                   /* used */
};

/* Append to a payload: varints, a byte, a string, a double. */
void pl_uvar(struct pl *p, uint64_t v);
void pl_svar(struct pl *p, int64_t v);
void pl_u8(struct pl *p, uint8_t v);
void pl_str(struct pl *p, const char *s);
void pl_f64(struct pl *p, double d);

/* ---- reading ------------------------------------------------------------- */

struct evs {
    ttf_event *ev;              /* events */
    size_t n, cap;              /* count, capacity */
};

void evs_push(struct evs *e, const ttf_event *ev);
/* All events of thread (or TTF_ALL_THREADS); skip_lost drops LOST events. */
struct evs tu_events(const ttf_trace *t, uint32_t thread, int skip_lost);
/* ttf_iter_times on thread 0 of t against e (its events with times): an
 * iteration that skips times and takes them back at drawn events (seed),
 * exactly e's times then, and e's events after whenever it keeps them
 * (its values too, across the swap); the times taken back (> 0). */
size_t tu_times_back(const ttf_trace *t, const struct evs *e, uint64_t seed);
/* ttf_iter_times_at on thread 0 of t against e (its events with times):
 * an iteration that skips times asks, at drawn events, the times of a few
 * it read before (from a drawn one on, in the order read): exactly e's;
 * its own events stay e's (times skipped); the times asked (> 0). */
size_t tu_times_at(const ttf_trace *t, const struct evs *e, uint64_t seed);
/* ttf_iter_values on thread 0 of t against e (its events with values and
 * times): an iteration that skips values and takes them back at drawn
 * events (seed), exactly e's values then and on its later events, until
 * it skips them again (drawn); the times it took back (> 0). */
size_t tu_values_back(const ttf_trace *t, const struct evs *e, uint64_t seed);
/* ttf_iter_values_at on thread 0 of t against e: an iteration that skips
 * values asks, at drawn events, the values of a few it read before (from
 * a drawn one on, in the order read): exactly e's; its own events stay
 * without; the values asked (> 0). */
size_t tu_values_at(const ttf_trace *t, const struct evs *e, uint64_t seed);
/* The trace in b[0..n) opened (it must open). */
ttf_trace *tu_open_mem(const uint8_t *b, size_t n);
/* 1 when a notice of t contains needle. */
int tu_has_notice(const ttf_trace *t, const char *needle);
/* b (freed here) holds one thread whose chunk has an ENTER and then damage
 * at offset bad_at: it reads as that ENTER and a LOST event there, one
 * damaged chunk, and a notice containing notice. */
void tu_one_enter_then_damage(struct tb *b, size_t bad_at, const char *notice);

#endif
