/*
 * engine_int.h - what the files of diff/ share and nobody else sees: the
 * normaliser (event -> 64-bit key), the thread pairing and the string arena.
 * Names carry the ttd_ prefix but are hidden (-fvisibility=hidden).
 */
#ifndef TTD_ENGINE_INT_H
#define TTD_ENGINE_INT_H

#include "align.h"
#include "ttdiff.h"

/* ---- per-address cache (open addressing, power-of-two size) ------------ */

typedef struct ttd_slot {
    uint64_t id;        /* address, or site id | TTD_SITE_BIT */
    uint64_t hash;      /* XXH3 of what identifies it (name; site fmt+func) */
    const char *name;   /* function name (symbols' or call site's string) */
    int keep;           /* 1: passes --function/--exclude */
    int used;           /* 1: slot taken */
} ttd_slot;

typedef struct ttd_cache {
    ttd_slot *slots;    /* cap slots */
    size_t cap;         /* power of two, 0 before the first insert */
    size_t n;           /* slots used */
} ttd_cache;

#define TTD_SITE_BIT (1ull << 63)

/* ---- normaliser: one per run ------------------------------------------- */

typedef struct ttd_norm {
    const ttf_trace *trace; /* the run */
    ttf_sym *sym;           /* its symbols (owned by the norm) */
    int messages;           /* TTD_MSG_* */
    const ttf_regex *keep;  /* --function, NULL = all */
    const ttf_regex *drop;  /* --exclude, NULL = none */
    ttd_cache funcs;        /* ENTER/EXIT by address (scopes by site) */
    ttd_cache sites;        /* MESSAGE/MARK by site id */
    char *buf;              /* formatted message text */
    size_t buflen;          /* its size */
} ttd_norm;

/* Set up n over trace t (opens its symbols). 0, TT_ENOMEM or a symbol
 * error. */
int ttd_norm_init(ttd_norm *n, const ttf_trace *t, int messages,
                  const ttf_regex *keep, const ttf_regex *drop);
void ttd_norm_free(ttd_norm *n);

/* The key of ev: 1 with *key set if it takes part in the alignment, 0 if
 * it is filtered out or never compared (thread, module, sync events), or
 * TT_ENOMEM. */
int ttd_norm_key(ttd_norm *n, const ttf_event *ev, uint64_t *key);

/* The function name of an ENTER/EXIT event (cached). */
const char *ttd_norm_func(ttd_norm *n, const ttf_event *ev);

/* The formatted text of a MESSAGE/MARK event in n->buf ("?" on failure). */
const char *ttd_norm_text(ttd_norm *n, const ttf_event *ev);

/* ---- thread pairing ----------------------------------------------------- */

/* One thread as the pairing sees it. */
typedef struct ttd_tinfo {
    uint32_t index;     /* creation order */
    const char *name;   /* last name, else first name, else "" */
    const char *start;  /* first function entered, "" if none */
    int64_t partner;    /* thread index in the other run, -1 if none */
    int paired_by;      /* TTD_PAIR_* when paired */
} ttd_tinfo;

/* Pair the threads of two runs (g[ng], b[nb]); fills partner and paired_by
 * on both sides. Deterministic; never fails. */
void ttd_pair_threads(ttd_tinfo *g, size_t ng, ttd_tinfo *b, size_t nb);

/* ---- arena: result memory, freed at once -------------------------------- */

typedef struct ttd_arena {
    struct ttd_block *head; /* newest block first */
} ttd_arena;

void *ttd_arena_alloc(ttd_arena *a, size_t size);  /* zeroed, NULL on ENOMEM */
char *ttd_arena_strdup(ttd_arena *a, const char *s);
void ttd_arena_free(ttd_arena *a);

#endif
