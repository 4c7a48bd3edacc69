/*
 * failmalloc.c - allocation-failure injection for the reliability suite
 * (check_oom.sh; issue 24, defect 8), as SQLite's tests do it: an
 * LD_PRELOAD library whose malloc, calloc, realloc, reallocarray,
 * posix_memalign, aligned_alloc and memalign fail (NULL, ENOMEM) on the
 * Nth call counted from the library's constructor (the program's start).
 *   TT_FAIL_AT=N         fail call N (1 = the first); 0 or unset: none
 *   TT_FAIL_PERSIST=1    fail every call from N on, not only the Nth
 *   TT_FAIL_COUNT=FILE   at exit, write the number of calls to FILE
 *   TT_FAIL_ELFUTILS=1   count and fail elfutils' allocations too
 * By default an allocation made from inside elfutils (libdw, libelf: a
 * caller among the first frames, found with libgcc's unwinder and dladdr) is
 * neither counted nor failed: elfutils 0.188 itself dereferences NULL on
 * some of its own (a tsearch result used unchecked in libdw), which no
 * caller can prevent; tt sets libdw's out-of-memory handler for the rest.
 * glibc sends its own allocations (stdio buffers, strdup, qsort...)
 * through these too. Under ASan (ASAN_OPTIONS=verify_asan_link_order=0)
 * the real functions are ASan's. Calls made while the real functions are
 * being looked up come from a small static arena.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <unwind.h>
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
static long fail_at, persist, elfutils;
static __thread int inside;     /* in the caller check: pass through */
static int ready;               /* settings read: count from now on */
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
    e = getenv("TT_FAIL_ELFUTILS");
    elfutils = e && e[0] == '1';
    ready = 1;
}

/* The first frames' addresses, through libgcc's unwinder (linked in:
 * glibc's backtrace would dlopen it, allocating in the loader). */
struct frames {
    void *pc[10];
    int n;
};

static _Unwind_Reason_Code one_frame(struct _Unwind_Context *ctx, void *arg)
{
    struct frames *f = arg;
    if (f->n == 10)
        return _URC_END_OF_STACK;
    f->pc[f->n++] = (void *)_Unwind_GetIP(ctx);
    return _URC_NO_REASON;
}

/* 1 if a caller among the first frames is elfutils' (libdw, libelf). */
static int from_elfutils(void)
{
    struct frames f = {.n = 0};
    inside = 1;
    _Unwind_Backtrace(one_frame, &f);
    int found = 0;
    for (int i = 2; i < f.n && !found; i++) {
        Dl_info di;
        found = dladdr(f.pc[i], &di) && di.dli_fname &&
                (strstr(di.dli_fname, "/libdw") || strstr(di.dli_fname, "/libelf"));
    }
    inside = 0;
    return found;
}

/* 1 if this call is to fail. */
static int failing(void)
{
    if (!ready || inside || (!elfutils && from_elfutils()))
        return 0;
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
