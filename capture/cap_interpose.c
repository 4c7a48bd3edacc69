/*
 * cap_interpose.c - libc and libpthread functions libttcap wraps: dlopen and
 * dlclose (module records, call sites of unloaded libraries), pthread_create
 * (thread numbers in creation order) and pthread_setname_np (thread names).
 * Each finds the real function with dlsym(RTLD_NEXT) on first use.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cap_int.h"

/* ---- interposers ---------------------------------------------------------------- */

__attribute__((visibility("default")))
void *dlopen(const char *file, int mode)
{
    static void *(*real)(const char *, int);
    if (!real)
        real = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
    void *h = real ? real(file, mode) : NULL;
    struct tstate *t = &cap_tls;
    if (cap_on && h && !t->busy) {
        t->busy = 1;
        if (t->state == TS_NEW)
            cap_thread_begin(t);
        if (t->state == TS_LIVE)
            cap_check_modules(t, 0);
        t->busy = 0;
    }
    return h;
}

struct range {
    uint64_t base;              /* load bias looked for */
    uint64_t lo, hi;            /* its mapped extent, once found */
};

static int range_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct range *r = arg;
    if (info->dlpi_addr != r->base)
        return 0;
    r->lo = UINT64_MAX;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uint64_t a = info->dlpi_addr + ph->p_vaddr;
        r->lo = a < r->lo ? a : r->lo;
        r->hi = a + ph->p_memsz > r->hi ? a + ph->p_memsz : r->hi;
    }
    return 1;
}

/* The call sites of a library about to be closed leave the list of
 * defined sites (they would dangle once it is unmapped). */
static void forget_sites(void *handle)
{
    struct link_map *lm = NULL;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm)
        return;
    struct range r = { lm->l_addr, 0, 0 };
    dl_iterate_phdr(range_cb, &r);
    if (r.hi <= r.lo)
        return;
    cap_spin_lock(&cap.site_lock);
    struct ttcap_site **pp = (struct ttcap_site **)&cap.sites;
    while (*pp) {
        uint64_t a = (uint64_t)(uintptr_t)*pp;
        if (a >= r.lo && a < r.hi)
            *pp = (*pp)->next;
        else
            pp = &(*pp)->next;
    }
    cap_spin_unlock(&cap.site_lock);
}

__attribute__((visibility("default")))
int dlclose(void *handle)
{
    static int (*real)(void *);
    if (!real)
        real = (int (*)(void *))dlsym(RTLD_NEXT, "dlclose");
    forget_sites(handle);
    int rc = real ? real(handle) : -1;
    struct tstate *t = &cap_tls;
    if (cap_on && !t->busy && t->state == TS_LIVE) {
        t->busy = 1;
        cap_check_modules(t, 0);
        t->busy = 0;
    }
    return rc;
}

/* pthread_create: the new thread's index is taken here, in the creating
 * thread, so indexes follow creation order even if threads race to run. */
struct start {
    void *(*fn)(void *);        /* the caller's start routine */
    void *arg;                  /* and its argument */
    uint32_t given;             /* 1 + the index taken at creation */
};

static void *start_thread(void *p)
{
    struct start st = *(struct start *)p;
    free(p);
    cap_tls.given = st.given;
    return st.fn(st.arg);
}

__attribute__((visibility("default")))
int pthread_create(pthread_t *th, const pthread_attr_t *attr,
                   void *(*fn)(void *), void *arg)
{
    static int (*real)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
    if (!real)
        real = (int (*)(pthread_t *, const pthread_attr_t *, void *(*)(void *),
                        void *))dlsym(RTLD_NEXT, "pthread_create");
    if (!real)
        return ENOSYS;
    struct start *st = cap_on ? malloc(sizeof *st) : NULL;
    if (!st)
        return real(th, attr, fn, arg);
    st->fn = fn;
    st->arg = arg;
    st->given = atomic_fetch_add(&cap.next_thread, 1) + 1;
    int rc = real(th, attr, start_thread, st);
    if (rc != 0)
        free(st);               /* the index stays unused: a gap, harmless */
    return rc;
}

__attribute__((visibility("default")))
int pthread_setname_np(pthread_t th, const char *name)
{
    static int (*real)(pthread_t, const char *);
    if (!real)
        real = (int (*)(pthread_t, const char *))dlsym(RTLD_NEXT, "pthread_setname_np");
    int rc = real ? real(th, name) : ENOSYS;
    if (rc != 0 || !cap_on)
        return rc;
    struct tstate *t = &cap_tls;
    if (!pthread_equal(th, pthread_self())) {
        atomic_fetch_add(&cap.name_gen, 1);
        return rc;
    }
    if (!t->busy && t->state != TS_DONE) {
        t->busy = 1;
        char buf[CAP_NAME_LEN];
        snprintf(buf, sizeof buf, "%s", name);
        cap_write_name(t, buf);
        t->busy = 0;
    }
    return rc;
}
