/*
 * cap_vstr.h - values mode's strings by content (format 1.6): the table of
 * functions with string parameters (loaded by cap_vtab.c) and, for the
 * values fast path (cap_values.c), its look-up and the STRINGS record
 * written before such a function's ENTER.
 *
 * Each string register is read with cap_probe_words (cap_probe.S): loads
 * that a fault ends instead of killing the program, no system call, no
 * libc (the fast path must leave the vector registers alone), a word at a
 * time up to the one holding the NUL, at most CAP_STR_MAX bytes, never a
 * page the string's bytes do not touch. A
 * std::string's characters are read through its first word, the pointer
 * to them in libstdc++'s layout (both ABIs). Pointers below 4096 (NULL)
 * are not read: they are written as unreadable without the fault's cost.
 * Without our SIGSEGV/SIGBUS handler in place (the program installed its
 * own) nothing is read and no record is written.
 */
#ifndef CAP_VSTR_H
#define CAP_VSTR_H

#include "cap_int.h"

/* One function with string parameters, by its address in this process. */
struct cap_vt_ent {
    uint64_t fn;                /* 0: an empty slot */
    uint8_t cstr;               /* bit k: register k (rdi..r9) holds a char * */
    uint8_t sstr;               /* bit k: it holds a std::string's address */
    uint8_t flags;              /* TTF_VT_* as ttcc stored them */
    uint8_t home;               /* bit b: a function whose home is this slot
                                   and whose hash's next 3 bits are b was put
                                   in the table (cap_vt_home): a look-up whose
                                   bit is clear ends here, without probing */
    uint8_t pad[4];
};

/* The table: open addressing, at most half full, read-only between
 * changes (cap_vtab.c). One word, so that a reader never pairs one table's
 * slots with another's size: the slots' address (page-aligned) | log2 of
 * their count; 0: no table (no strings recorded). Address 1 marks the slot
 * of an unloaded module's function (probes go on past it). */
struct cap_vtab {
    uint64_t w;
};

extern struct cap_vtab cap_vt;

/* cap_vtab.c: at trace start (reads TTCAP_STRINGS). */
void cap_vtab_load(void);
/* cap_vtab.c: read the table of the module loaded from path at load bias
 * bias, extent size, build-id id[0..nid) (cap_modules.c, under its lock,
 * when it learns of the module); 1 if this made the first table. */
int cap_vtab_module(const char *path, uint64_t bias, uint64_t size, const uint8_t *id,
                    size_t nid);
/* cap_vtab.c: forget the functions in [lo, hi) (a module unloaded). */
void cap_vtab_unload(uint64_t lo, uint64_t hi);

/* 1 once some module's table is loaded. */
static inline int cap_vt_on(void)
{
    return __atomic_load_n(&cap_vt.w, __ATOMIC_RELAXED) != 0;
}

static inline size_t cap_vt_hash(uint64_t fn, unsigned shift)
{
    return (size_t)((fn * UINT64_C(0x9e3779b97f4a7c15)) >> shift);
}

/* fn's home slot (the hash's top bits) * 8 + its home bit (the next 3):
 * the slot's home byte has that bit set once fn was put in the table. Most
 * functions take no string, and their look-up ends at that byte: one load,
 * where linear probing from the home slot went through the whole cluster
 * of taken slots (7 probes a look-up on jq's hot functions). */
static inline size_t cap_vt_home(uint64_t fn, unsigned bits)
{
    return (size_t)((fn * UINT64_C(0x9e3779b97f4a7c15)) >> (61 - bits));
}

/* The entry of fn, or NULL (no table, or fn takes no string). */
static inline __attribute__((always_inline))
const struct cap_vt_ent *cap_vt_find(uint64_t fn)
{
    uint64_t w = __atomic_load_n(&cap_vt.w, __ATOMIC_ACQUIRE);
    if (__builtin_expect(!w, 1))
        return NULL;
    const struct cap_vt_ent *e = (const struct cap_vt_ent *)(uintptr_t)(w & ~UINT64_C(63));
    unsigned bits = (unsigned)(w & 63);
    size_t h = cap_vt_home(fn, bits), j = h >> 3, mask = ((size_t)1 << bits) - 1;
    if (!(__atomic_load_n(&e[j].home, __ATOMIC_RELAXED) >> (h & 7) & 1))
        return NULL;
    for (;;) {
        uint64_t f = __atomic_load_n(&e[j].fn, __ATOMIC_ACQUIRE);
        if (f == fn)
            return &e[j];
        if (!f)
            return NULL;
        j = (j + 1) & mask;
    }
}

#define CAP_VSTR_PAYLOAD 127    /* a STRINGS payload's bytes at most: its
                                   length takes one byte */
#define CAP_VSTR_MAX (2 + CAP_VSTR_PAYLOAD) /* the whole record */

/* The first bytes (at most n) of the string at s into d, read a word at
 * a time with cap_probe_words (aligned words: never a page the string's
 * bytes do not touch), stopping at the word that holds its NUL; each word
 * is stored whole, so up to 8 bytes past the count returned may be
 * overwritten (put_enter_strings, cap_values.c, zeroes what is left past
 * the ENTER that follows). Returns the count | TTF_STRG_END when the NUL
 * came within n bytes | TTF_STRG_FAULT when a read faulted first. No libc
 * (the fast path leaves the vector registers alone). */
static inline unsigned cap_str_read(uint8_t *d, uintptr_t s, unsigned n)
{
    const uint64_t *a = (const uint64_t *)(s & ~(uintptr_t)7);
    unsigned o = (unsigned)(s & 7), got = 0;
    for (unsigned i = 0;; i++) {
        uint64_t w;
        if (cap_probe_words(&w, a + i, 1) != 1)
            return got < n ? got | TTF_STRG_FAULT : n;
        uint64_t x = i ? w : w | ~(~UINT64_C(0) << (8 * o));   /* bytes before s: not 0 */
        uint64_t v = i ? w : w >> (8 * o);
        __builtin_memcpy(d + got, &v, 8);
        uint64_t z = (x - UINT64_C(0x0101010101010101)) & ~x & UINT64_C(0x8080808080808080);
        if (z) {
            got += (unsigned)__builtin_ctzll(z) / 8 - (i ? 0 : o);
            return got <= n ? got | TTF_STRG_END : n;
        }
        got += i ? 8 : 8 - o;
        if (got > n)            /* (at n exactly: one more word, for a NUL there) */
            return n;
    }
}

/* The STRINGS record of a call of v's function with registers r, at p
 * (room for CAP_VSTR_MAX bytes and 8 more checked by the caller), its tag
 * NOT stored: the caller stores it after the ENTER that follows
 * (FORMAT.md 4.6), so that the two appear at once. Returns the byte after
 * it; up to 8 bytes after that may hold leftovers (cap_str_read): the
 * ENTER after it takes at least 2 of them, and 8 zero bytes after the
 * ENTER the rest. */
static inline uint8_t *cap_put_strings(uint8_t *p, const uint64_t *r,
                                       const struct cap_vt_ent *v)
{
    uint8_t *q = p + 3, *end = p + 2 + CAP_VSTR_PAYLOAD;
    unsigned n = 0, m = (unsigned)(v->cstr | v->sstr);
    for (unsigned k = 0; k < TTF_ARGREGS && end - q >= 2; k++) {
        if (!(m & (1u << k)))
            continue;
        unsigned room = (unsigned)(end - q - 2), got = TTF_STRG_FAULT, std = (v->sstr >> k) & 1;
        uintptr_t s = (uintptr_t)r[k];
        if (std) {                      /* a std::string: its first word */
            uint64_t ch = 0;
            s = s >= 4096 && cap_probe_words(&ch, (const uint64_t *)s, 1) == 1 ? ch : 0;
        }
        if (s >= 4096)
            got = cap_str_read(q + 2, s, room < CAP_STR_MAX ? room : CAP_STR_MAX);
        q[0] = (uint8_t)(k | (std ? TTF_STRW_STD : 0));
        q[1] = (uint8_t)got;
        q += 2 + (got & TTF_STRG_LEN);
        n++;
    }
    p[1] = (uint8_t)(q - (p + 2));
    p[2] = (uint8_t)n;
    return q;
}

#endif
