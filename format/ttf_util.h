/*
 * ttf_util.h - the one home of small things every layer above the wire
 * needs: event kind and signal names, the arena, the 64-bit mixer and
 * error setting. Internal (hidden symbols, ttfi_ prefix, not installed);
 * format/, diff/ and report/ may include it, capture/ may not.
 */
#ifndef TTF_UTIL_H
#define TTF_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "ttfmt.h"

/* ---- names ----------------------------------------------------------------- */

/* The name of an event kind as reports spell it ("enter", "thread_start",
 * ...), "?" for a kind that is not a TTF_EV_* value. */
const char *ttfi_kind_name(int kind);

/* "SIGSEGV" for a signal this system knows, else "signal N"; written to
 * buf (n bytes, 24 hold any) and returned. */
const char *ttfi_signal_name(int signo, char *buf, size_t n);

/* ---- arena: many small allocations freed together ---------------------- */

struct ttfi_arena {
    struct ttfi_block *head;    /* newest block first */
};

/* n bytes aligned for any type, NULL when memory runs out. */
void *ttfi_arena_alloc(struct ttfi_arena *a, size_t n);
/* The same, zeroed. */
void *ttfi_arena_zalloc(struct ttfi_arena *a, size_t n);
/* A NUL-terminated copy of n bytes (NUL bytes inside are kept). */
char *ttfi_arena_strdup(struct ttfi_arena *a, const uint8_t *s, size_t n);
/* A copy of the string s. */
char *ttfi_arena_strcpy(struct ttfi_arena *a, const char *s);
/* Free every block (the arena is empty again; NULL head is fine). */
void ttfi_arena_free(struct ttfi_arena *a);

/* Reallocate the array whose pointer is at pp (any T **) to n elements of
 * size bytes. On failure the old array stays in place and this returns
 * TT_ENOMEM, so parallel arrays can be grown in turn and their common
 * capacity raised only when every one succeeded; else 0. */
int ttfi_regrow(void *pp, size_t n, size_t size);

/* ---- hashing --------------------------------------------------------------- */

/* The one 64-bit mixer (the MurmurHash3 finaliser): every input bit
 * flips each output bit with probability 1/2, so any bits of the result
 * make a hash table slot. Strings are hashed with XXH3 (xxhash.h). */
static inline uint64_t ttfi_mix64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

/* ---- errors ---------------------------------------------------------------- */

/* Fill *err (nothing if err is NULL): code, file offset, and the message
 * formatted from fmt (cut to fit). */
__attribute__((format(printf, 4, 5)))
void ttfi_set_err(ttf_error *err, int code, uint64_t offset,
                  const char *fmt, ...);

#endif
