/*
 * cap_vstr.h - values mode's strings by content (format 1.6): the table of
 * functions with string parameters (loaded by cap_vtab.c) and, for the
 * values fast path (cap_values.c), its look-up and the STRINGS record
 * written before such a function's ENTER.
 *
 * Each string register is read with cap_probe_string (cap_int.h): loads
 * that a fault ends instead of killing the program, no system call, no
 * libc (the fast path must leave the vector registers alone), at most
 * CAP_STR_MAX bytes, never a page the string's bytes do not touch. A
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
    uint8_t pad[5];
};

/* The table: open addressing, at most half full, read-only once built. */
struct cap_vtab {
    const struct cap_vt_ent *e; /* NULL: no table (no strings recorded) */
    uint64_t mask;              /* slots - 1 */
    unsigned shift;             /* 64 - log2(slots) */
};

extern struct cap_vtab cap_vt;

/* cap_vtab.c: read the program's table (at trace start). */
void cap_vtab_load(void);

static inline size_t cap_vt_hash(uint64_t fn, unsigned shift)
{
    return (size_t)((fn * UINT64_C(0x9e3779b97f4a7c15)) >> shift);
}

/* The entry of fn, or NULL (no table, or fn takes no string). */
static inline __attribute__((always_inline))
const struct cap_vt_ent *cap_vt_find(uint64_t fn)
{
    const struct cap_vt_ent *e = cap_vt.e;
    if (__builtin_expect(!e, 1))
        return NULL;
    size_t j = cap_vt_hash(fn, cap_vt.shift);
    for (;;) {
        if (e[j].fn == fn)
            return &e[j];
        if (!e[j].fn)
            return NULL;
        j = (j + 1) & cap_vt.mask;
    }
}

#define CAP_VSTR_PAYLOAD 127    /* a STRINGS payload's bytes at most: its
                                   length takes one byte */
#define CAP_VSTR_MAX (2 + CAP_VSTR_PAYLOAD) /* the whole record */

/* n bytes from s to d, a word at a time where it can, without libc (a
 * copy loop must not become a memcpy call: the asm keeps it a loop). */
static inline void cap_vstr_copy(uint8_t *d, const uint8_t *s, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        __asm__("" : "+r"(i));
        d[i] = s[i];
    }
}

/* The STRINGS record of a call of v's function with registers r, at p
 * (room for CAP_VSTR_MAX bytes checked by the caller), its tag NOT
 * stored: the caller stores it after the ENTER that follows (FORMAT.md
 * 4.6), so that the two appear at once. Returns the byte after it. */
static inline uint8_t *cap_put_strings(uint8_t *p, const uint64_t *r,
                                       const struct cap_vt_ent *v)
{
    uint8_t *q = p + 3, *end = p + 2 + CAP_VSTR_PAYLOAD;
    unsigned n = 0, m = (unsigned)(v->cstr | v->sstr);
    for (unsigned k = 0; k < TTF_ARGREGS && end - q >= 2; k++) {
        if (!(m & (1u << k)))
            continue;
        uint64_t w[CAP_STR_MAX / 8 + 1];
        unsigned off = 0, got = CAP_STR_FAULT, room = (unsigned)(end - q - 2);
        uintptr_t s = (uintptr_t)r[k];
        if ((v->sstr >> k) & 1) {       /* a std::string: its first word */
            uint64_t ch = 0;
            s = s >= 4096 && cap_probe_words(&ch, (const uint64_t *)s, 1) == 1 ? ch : 0;
        }
        if (s >= 4096)
            got = cap_probe_string((const char *)s, room < CAP_STR_MAX ? room : CAP_STR_MAX,
                                   w, &off);
        unsigned len = got & 0xff;
        q[0] = (uint8_t)(k | (((v->sstr >> k) & 1) ? TTF_STRW_STD : 0));
        q[1] = (uint8_t)(len | (got & CAP_STR_NUL ? TTF_STRG_END : 0) |
                         (got & CAP_STR_FAULT ? TTF_STRG_FAULT : 0));
        cap_vstr_copy(q + 2, (const uint8_t *)w + off, len);
        q += 2 + len;
        n++;
    }
    p[1] = (uint8_t)(q - (p + 2));
    p[2] = (uint8_t)n;
    return q;
}

#endif
