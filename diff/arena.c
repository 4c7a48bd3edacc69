/*
 * arena.c - result memory: bump allocation in 64 KiB blocks (or one block
 * per larger request), all freed at once with the diff.
 */
#include <stdlib.h>
#include <string.h>

#include "engine_int.h"

struct ttd_block {
    struct ttd_block *next; /* older block */
    size_t used, cap;       /* bytes of data used / available */
    max_align_t data[];     /* the memory */
};

void *ttd_arena_alloc(ttd_arena *a, size_t size)
{
    size = (size + sizeof(max_align_t) - 1) & ~(sizeof(max_align_t) - 1);
    struct ttd_block *b = a->head;
    if (!b || b->cap - b->used < size) {
        size_t cap = size > 65536 ? size : 65536;
        b = malloc(sizeof *b + cap);
        if (!b)
            return NULL;
        b->next = a->head;
        b->used = 0;
        b->cap = cap;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

char *ttd_arena_strdup(ttd_arena *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = ttd_arena_alloc(a, n);
    if (p)
        memcpy(p, s, n);
    return p;
}

void ttd_arena_free(ttd_arena *a)
{
    while (a->head) {
        struct ttd_block *b = a->head;
        a->head = b->next;
        free(b);
    }
}
