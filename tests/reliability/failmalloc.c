/*
 * failmalloc.c - allocation-failure injection for the reliability suite
 * (check_oom.sh; issue 24, defect 8), as SQLite's tests do it: an
 * LD_PRELOAD library whose malloc, calloc, realloc, reallocarray,
 * posix_memalign, aligned_alloc and memalign fail (NULL, ENOMEM) on the
 * Nth call counted from the program's start.
 *   TT_FAIL_AT=N         fail call N (1 = the first); 0 or unset: none
 *   TT_FAIL_PERSIST=1    fail every call from N on, not only the Nth
 *   TT_FAIL_COUNT=FILE   at exit, write the number of calls to FILE
 * glibc sends its own allocations (stdio buffers, strdup, qsort...)
 * through these too. Under ASan (ASAN_OPTIONS=verify_asan_link_order=0)
 * the real functions are ASan's. Calls made while the real functions are
 * being looked up come from a small static arena.
 */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static int (*real_memalign_p)(void **, size_t, size_t);
static void (*real_free)(void *);
static long fail_at, persist;
static atomic_long calls;
static int resolving;
static char early[1 << 16];
static size_t early_used;

static void *early_alloc(size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (early_used + n > sizeof early)
        return NULL;
    void *p = early + early_used;
    early_used += n;
    return p;
}

static int is_early(const void *p)
{
    return (const char *)p >= early && (const char *)p < early + sizeof early;
}

static void resolve(void)
{
    if (real_malloc || resolving)
        return;
    resolving = 1;
    real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    real_memalign_p = (int (*)(void **, size_t, size_t))dlsym(RTLD_NEXT, "posix_memalign");
    real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
    resolving = 0;
}

/* The settings, once the environment can be read (a sanitizer runtime
 * allocates before it can); calls before count too. */
__attribute__((constructor)) static void settings(void)
{
    const char *e = getenv("TT_FAIL_AT");
    fail_at = e ? atol(e) : 0;
    e = getenv("TT_FAIL_PERSIST");
    persist = e && e[0] == '1';
}

/* 1 if this call is to fail. */
static int failing(void)
{
    long n = atomic_fetch_add(&calls, 1) + 1;
    if (fail_at <= 0 || n < fail_at || (n > fail_at && !persist))
        return 0;
    errno = ENOMEM;
    return 1;
}

void *malloc(size_t n)
{
    resolve();
    if (!real_malloc)
        return early_alloc(n);
    return failing() ? NULL : real_malloc(n);
}

void *calloc(size_t a, size_t b)
{
    resolve();
    if (!real_calloc)
        return b && a > (size_t)-1 / b ? NULL : early_alloc(a * b); /* zeroed */
    return failing() ? NULL : real_calloc(a, b);
}

void *realloc(void *p, size_t n)
{
    resolve();
    if (is_early(p)) {
        void *q = malloc(n);
        if (q)
            memcpy(q, p, n < (size_t)(early + sizeof early - (char *)p)
                         ? n : (size_t)(early + sizeof early - (char *)p));
        return q;
    }
    return failing() ? NULL : real_realloc(p, n);
}

void *reallocarray(void *p, size_t a, size_t b)
{
    if (b && a > (size_t)-1 / b) {
        errno = ENOMEM;
        return NULL;
    }
    return realloc(p, a * b);
}

int posix_memalign(void **out, size_t align, size_t n)
{
    resolve();
    if (failing())
        return ENOMEM;
    return real_memalign_p(out, align, n);
}

void *aligned_alloc(size_t align, size_t n)
{
    void *p = NULL;
    return posix_memalign(&p, align, n) == 0 ? p : NULL;
}

void *memalign(size_t align, size_t n)
{
    return aligned_alloc(align, n);
}

void free(void *p)
{
    if (!p || is_early(p))
        return;
    resolve();
    if (real_free)
        real_free(p);
}

__attribute__((destructor)) static void report_count(void)
{
    const char *f = getenv("TT_FAIL_COUNT");
    if (!f)
        return;
    int fd = open(f, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0)
        return;
    char buf[32];
    int len = snprintf(buf, sizeof buf, "%ld\n", (long)atomic_load(&calls));
    (void)!write(fd, buf, (size_t)len);
    close(fd);
}
