/*
 * kit.c - the containers of diff/ (kit.h): the growable array and the
 * hash map of 64-bit keys.
 * Stage 0 kit of diff/STAGES (its header: kit.h).
 */
#include <stdlib.h>
#include <string.h>

#include "kit.h"

int ttdi_grow(void *pp, size_t *cap, size_t need, size_t size, size_t first)
{
    void *p, *np;

    if (need <= *cap)
        return 0;
    size_t ncap = *cap ? *cap : first ? first : 1;
    while (ncap < need)
        ncap *= 2;
    memcpy(&p, pp, sizeof p);
    if (!(np = realloc(p, ncap * size)))
        return TT_ENOMEM;
    memcpy(pp, &np, sizeof np);
    *cap = ncap;
    return 0;
}

struct ttdi_mslot {
    uint64_t key;           /* the key */
    uint64_t value;         /* its value */
    uint8_t full;           /* 1: holds a key */
};

/* The slot of key, or the empty slot where it would go (cap > 0). */
static struct ttdi_mslot *find(const ttdi_map *m, uint64_t key)
{
    size_t i = (size_t)ttfi_mix64(key) & (m->cap - 1);

    while (m->slot[i].full && m->slot[i].key != key)
        i = (i + 1) & (m->cap - 1);
    return &m->slot[i];
}

static int grow(ttdi_map *m)
{
    ttdi_map n = {NULL, m->cap ? 2 * m->cap : 64, 0};

    if (!(n.slot = calloc(n.cap, sizeof *n.slot)))
        return TT_ENOMEM;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slot[i].full) {
            *find(&n, m->slot[i].key) = m->slot[i];
            n.used++;
        }
    free(m->slot);
    *m = n;
    return 0;
}

uint64_t *ttdi_map_get(const ttdi_map *m, uint64_t key)
{
    if (!m->cap)
        return NULL;
    struct ttdi_mslot *s = find(m, key);
    return s->full ? &s->value : NULL;
}

uint64_t *ttdi_map_put(ttdi_map *m, uint64_t key, int *added)
{
    if (added)
        *added = 0;
    if (2 * (m->used + 1) > m->cap && grow(m) < 0)
        return NULL;
    struct ttdi_mslot *s = find(m, key);
    if (!s->full) {
        s->full = 1;
        s->key = key;
        s->value = 0;
        m->used++;
        if (added)
            *added = 1;
    }
    return &s->value;
}

void ttdi_map_free(ttdi_map *m)
{
    free(m->slot);
    memset(m, 0, sizeof *m);
}
