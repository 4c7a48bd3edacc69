/*
 * util.c - the small things every layer above the wire shares
 * (ttf_util.h): event kind and signal names, whether a source file is a
 * system header's (ttf_system_file, for libttdiff's ranking and
 * libttreport's stacks), and the arena that owns a trace's strings, the
 * symbols' names and a diff's results.
 * Stage 0 base of format/STAGES.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttf_util.h"

/* ---- names --------------------------------------------------------------- */

int ttf_system_file(const char *file)
{
    static const char *const dirs[] = {"/usr/include/", "/usr/lib/gcc/",
                                       "/usr/local/include/", "/usr/lib/llvm-"};
    for (size_t i = 0; file && i < sizeof dirs / sizeof *dirs; i++)
        if (strncmp(file, dirs[i], strlen(dirs[i])) == 0)
            return 1;
    return file && strstr(file, "/include/c++/") != NULL;
}

const char *ttfi_kind_name(int kind)
{
    static const char *const names[] = {
        "?", "enter", "exit", "message", "mark", "crash", "lost",
        "thread_start", "thread_end", "thread_name", "module_load",
        "module_unload", "pause", "resume", "end", "cut", "sync_op", "exec",
        "vfork", "unwind"};
    if (kind < 0 || kind > TTF_EV_UNWIND)
        return "?";
    return names[kind];
}

const char *ttfi_signal_name(int signo, char *buf, size_t n)
{
    const char *ab = sigabbrev_np(signo);

    if (ab)
        snprintf(buf, n, "SIG%s", ab);
    else
        snprintf(buf, n, "signal %d", signo);
    return buf;
}

/* ---- arena ------------------------------------------------------------- */

struct ttfi_block {
    struct ttfi_block *next;    /* older block */
    size_t used, size;          /* bytes handed out, bytes in data */
    max_align_t data[];         /* the memory */
};

#define ARENA_BLOCK (64u * 1024u)

void *ttfi_arena_alloc(struct ttfi_arena *a, size_t n)
{
    struct ttfi_block *b = a->head;
    size_t need = (n + 15) & ~(size_t)15;

    if (need < n)
        return NULL;
    if (!b || b->size - b->used < need) {
        /* blocks grow 4 KiB, 8 KiB, ... 64 KiB: small traces stay small */
        size_t size = b ? (b->size < ARENA_BLOCK ? b->size * 2 : ARENA_BLOCK) : 4096;
        if (size < need)
            size = need;
        b = malloc(sizeof *b + size);
        if (!b)
            return NULL;
        b->size = size;
        b->used = 0;
        b->next = a->head;
        a->head = b;
    }
    void *p = (char *)b->data + b->used;
    b->used += need;
    return p;
}

char *ttfi_arena_strdup(struct ttfi_arena *a, const uint8_t *s, size_t n)
{
    char *p = ttfi_arena_alloc(a, n + 1);
    if (!p)
        return NULL;
    if (n)
        memcpy(p, s, n);
    p[n] = 0;
    return p;
}

void ttfi_arena_free(struct ttfi_arena *a)
{
    while (a->head) {
        struct ttfi_block *b = a->head;
        a->head = b->next;
        free(b);
    }
}

int ttfi_regrow(void *pp, size_t n, size_t size)
{
    void *old, *p;

    memcpy(&old, pp, sizeof old);   /* pp is a T **: no void ** aliasing */
    p = realloc(old, n * size);
    if (!p)
        return TT_ENOMEM;
    memcpy(pp, &p, sizeof p);
    return 0;
}

void *ttfi_arena_zalloc(struct ttfi_arena *a, size_t n)
{
    void *p = ttfi_arena_alloc(a, n);
    if (p)
        memset(p, 0, n);
    return p;
}

char *ttfi_arena_strcpy(struct ttfi_arena *a, const char *s)
{
    return ttfi_arena_strdup(a, (const uint8_t *)s, strlen(s));
}
