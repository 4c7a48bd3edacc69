/*
 * cap_modules.c - the MODULE and MODULE_UNLOAD records: the loaded objects
 * (found with dl_iterate_phdr, named with their build-id: cap_elf.c),
 * rescanned after dlopen/dlclose (cap_interpose.c) and at chunk switches
 * and thread ends (cap_policy.c), written again at the start of a recycled
 * ring chunk; a new module is kept in the build-id store (cap_store.c).
 *
 * A new module's string table (values mode's strings by content, section
 * .ttcap.vt) is read into cap_vtab.c's hash then, and its functions are
 * dropped from it when the module is unloaded.
 *
 * What was recorded (load bias, extent, build-id, path) is kept in a table
 * of our own, so a forked child, whose fork handler must not call
 * dl_iterate_phdr (the loader's lock may be held by a thread that does not
 * exist in the child), writes its MODULE records from it. The table is
 * updated under mod_lock, which the fork prepare handler takes (for at most
 * 200 ms), so the child never sees it half-changed. Every walk of ours
 * runs with asynchronous signals blocked (cap_dl_iterate, cap_core.c): a
 * handler that forks must never find the loader's lock held by its own
 * thread, which the child could then neither release nor take again.
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cap_int.h"
#include "cap_vstr.h"

/* ---- modules -------------------------------------------------------------- */

struct scan {
    struct tstate *t;           /* writer */
    int mode;                   /* SCAN_* */
    uint64_t chunk1;            /* SCAN_REWRITE: 1 + chunk being refilled */
    uint32_t idx;               /* entries visited (the first is the program) */
    uint32_t seen;              /* SCAN_DIFF: modules present now */
    uint64_t now[CAP_MAX_MODS]; /* SCAN_DIFF: their bases */
};
enum { SCAN_ALL, SCAN_DIFF, SCAN_REWRITE };

/* What each recorded module's MODULE record said, index for index with
 * cap.mods; paths in one of two arenas (when one fills, the paths still
 * in use move to the other). Under mod_lock. */
struct modrec {
    uint64_t size;              /* extent from the load bias */
    uint8_t id[64];             /* build-id bytes (a copy: the object may be
                                   unmapped before the table learns of it) */
    uint32_t nid;               /* their count */
    uint32_t path;              /* offset in the arena, UINT32_MAX = none */
};
#define ARENA (256u << 10)
static struct modrec recs[CAP_MAX_MODS];
static char arena[2][ARENA];
static uint32_t arena_used;
static int arena_cur;

static void write_module_rec(struct tstate *t, uint64_t base, const struct modrec *r,
                             const char *path)
{
    size_t np = strnlen(path, 2048);
    uint8_t *p = cap_room(t, 64 + r->nid + np);
    if (!p)
        return;
    uint8_t *q = cap_put_t(t, p + 2);
    q = ttf_put_uvar(q, base);
    q = ttf_put_uvar(q, r->size);
    q = ttf_put_str(q, (const char *)r->id, r->nid);
    q = ttf_put_str(q, path, np);
    cap_commit(t, p, TTF_R_MODULE_LOAD, cap_ext_close(p, q));
}

/* The record of a loaded object (path not set). */
static struct modrec rec_of(const struct dl_phdr_info *info)
{
    struct modrec r;
    memset(&r, 0, sizeof r);
    r.path = UINT32_MAX;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && ph->p_vaddr + ph->p_memsz > r.size)
            r.size = ph->p_vaddr + ph->p_memsz;
    }
    const uint8_t *id;
    size_t nid;
    cap_elf_build_id(info, &id, &nid);
    r.nid = (uint32_t)(nid > sizeof r.id ? sizeof r.id : nid);
    if (r.nid)
        memcpy(r.id, id, r.nid);
    return r;
}

static void write_module(struct tstate *t, const struct dl_phdr_info *info,
                         const char *path)
{
    struct modrec r = rec_of(info);
    write_module_rec(t, info->dlpi_addr, &r, path);
}

/* Keep path for entry i (under mod_lock); when the arena is full, the
 * paths of the modules still loaded move to the other one first. */
static void keep_path(uint32_t i, const char *path)
{
    size_t n = strnlen(path, CAP_PATH_MAX - 1) + 1;
    if (arena_used + n > ARENA) {
        int to = !arena_cur;
        uint32_t used = 0;
        for (uint32_t k = 0; k < cap.nmods; k++) {
            if (k == i || recs[k].path == UINT32_MAX)
                continue;
            const char *old = arena[arena_cur] + recs[k].path;
            size_t m = strlen(old) + 1;
            memcpy(arena[to] + used, old, m);
            recs[k].path = used;
            used += (uint32_t)m;
        }
        arena_cur = to;
        arena_used = used;
    }
    recs[i].path = UINT32_MAX;
    if (arena_used + n > ARENA)
        return;                 /* no room even so: the child will lack it */
    memcpy(arena[arena_cur] + arena_used, path, n);
    arena[arena_cur][arena_used + n - 1] = 0;
    recs[i].path = arena_used;
    arena_used += (uint32_t)n;
}

static int find_mod(uint64_t base)
{
    for (uint32_t i = 0; i < cap.nmods; i++)
        if (cap.mods[i].base == base)
            return (int)i;
    return -1;
}

static int scan_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct scan *sc = arg;
    const char *name = info->dlpi_name;
    char buf[CAP_PATH_MAX];
    int first = sc->idx++ == 0;
    if (!name || !name[0]) {
        if (!first)
            return 0;           /* an unnamed object that is not the program */
        ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
        buf[n > 0 ? n : 0] = 0;
        name = buf;
    } else if (!strchr(name, '/')) {
        return 0;               /* the vDSO: no file to read symbols from */
    } else if (name[0] != '/' && realpath(name, buf)) {
        name = buf;
    }
    int i = find_mod(info->dlpi_addr);
    if (sc->mode == SCAN_DIFF && sc->seen < CAP_MAX_MODS)
        sc->now[sc->seen++] = info->dlpi_addr;
    if (sc->mode == SCAN_REWRITE) {
        if (i >= 0 && cap.mods[i].def_chunk == sc->chunk1)
            write_module(sc->t, info, name);
        return 0;
    }
    if (i >= 0 || cap.nmods >= CAP_MAX_MODS)
        return 0;
    cap.mods[cap.nmods].base = info->dlpi_addr;
    cap.mods[cap.nmods].def_chunk = sc->mode == SCAN_ALL ? 0 : sc->t->chunk + 1;
    recs[cap.nmods] = rec_of(info);
    keep_path(cap.nmods, name);
    cap.nmods++;
    write_module(sc->t, info, name);
    cap_store_module(info, name, first);
    const struct modrec *r = &recs[cap.nmods - 1];
    if (cap_vtab_module(first ? "/proc/self/exe" : name, info->dlpi_addr, r->size, r->id,
                        r->nid))
        cap_values_strings_on();    /* the first string table: format 1.6 */
    return 0;
}

static int count_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    unsigned long long *c = arg;
    c[0] = info->dlpi_adds;
    c[1] = info->dlpi_subs;
    return 1;
}

static void write_unload(struct tstate *t, uint64_t base)
{
    uint8_t *p = cap_room(t, 32);
    if (!p)
        return;
    uint8_t *q = cap_put_t(t, p + 2);
    q = ttf_put_uvar(q, base);
    cap_commit(t, p, TTF_R_MODULE_UNLOAD, cap_ext_close(p, q));
}

/* Record modules loaded or unloaded since the last look. Cheap when nothing
 * changed (two counters); skipped if another thread is already scanning. */
void cap_check_modules(struct tstate *t, int force)
{
    if (!force && cap.loader_suspect) {
        /* a fork child: the loader is looked at again only once this
         * process's own dlopen or dlclose has run (and so found its locks) */
        if (atomic_load(&cap.dl_gen) == cap.dl_gen_seen)
            return;
        cap.loader_suspect = 0;
    }
    unsigned long long c[2] = { 0, 0 };
    cap_dl_iterate(count_cb, c);
    if (!force && c[0] == cap.dl_adds && c[1] == cap.dl_subs)
        return;
    int was = cap_cancel_off();     /* the store's reads and writes */
    if (atomic_flag_test_and_set(&cap.mod_lock)) {
        cap_cancel_restore(was);
        return;
    }
    static struct scan sc;      /* big; only used under mod_lock */
    sc.t = t;
    sc.mode = force ? SCAN_ALL : SCAN_DIFF;
    sc.seen = 0;
    sc.idx = 0;
    cap.dl_adds = c[0];
    cap.dl_subs = c[1];
    cap_dl_iterate(scan_cb, &sc);
    for (uint32_t i = 0; sc.mode == SCAN_DIFF && i < cap.nmods; i++) {
        uint32_t k = 0;
        while (k < sc.seen && sc.now[k] != cap.mods[i].base)
            k++;
        if (k < sc.seen)
            continue;
        write_unload(t, cap.mods[i].base);
        cap_vtab_unload(cap.mods[i].base, cap.mods[i].base + recs[i].size);
        --cap.nmods;
        recs[i] = recs[cap.nmods];
        cap.mods[i--] = cap.mods[cap.nmods];
    }
    cap.dl_gen_seen = atomic_load(&cap.dl_gen);
    cap_spin_unlock(&cap.mod_lock);
    cap_cancel_restore(was);
}

/* A fork child's MODULE records, from the table the parent kept: no
 * dl_iterate_phdr (async-signal-safe). They are pinned in ring mode. */
void cap_replay_modules(struct tstate *t)
{
    for (uint32_t i = 0; i < cap.nmods && i < CAP_MAX_MODS; i++) {
        cap.mods[i].def_chunk = 0;
        if (recs[i].path != UINT32_MAX)
            write_module_rec(t, cap.mods[i].base, &recs[i], arena[arena_cur] + recs[i].path);
    }
    cap.dl_gen_seen = atomic_load(&cap.dl_gen);
}

/* fork: the table is taken for the fork (not from a thread inside a write
 * of ours, which may hold it: a fork from a signal handler), waiting at
 * most 200 ms for a scan in progress; released in the parent and child. */
static __thread int fork_took __attribute__((tls_model("initial-exec"))); /* this thread took it */

void cap_modules_fork_prepare(void)
{
    if (cap_tls.busy)
        return;
    uint64_t until = cap_clock_ns(CLOCK_MONOTONIC) + 200000000u;
    while (atomic_flag_test_and_set(&cap.mod_lock)) {
        if (cap_clock_ns(CLOCK_MONOTONIC) > until)
            return;
        sched_yield();
    }
    fork_took = 1;
}

void cap_modules_fork_parent(void)
{
    if (!fork_took)
        return;
    fork_took = 0;
    cap_spin_unlock(&cap.mod_lock);
}

/* Ring mode: chunk1 - 1 is being reused; write again the modules whose
 * MODULE_LOAD it held. */
void cap_rewrite_modules(struct tstate *t, uint64_t chunk1)
{
    int any = 0;
    for (uint32_t i = 0; i < cap.nmods; i++)
        any |= cap.mods[i].def_chunk == chunk1;
    if (!any || atomic_flag_test_and_set(&cap.mod_lock))
        return;
    static struct scan sc;
    sc.t = t;
    sc.mode = SCAN_REWRITE;
    sc.chunk1 = chunk1;
    sc.idx = 0;
    cap_dl_iterate(scan_cb, &sc);
    cap_spin_unlock(&cap.mod_lock);
}
