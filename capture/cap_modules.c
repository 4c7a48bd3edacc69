/*
 * cap_modules.c - the MODULE and MODULE_UNLOAD records: the loaded objects
 * (found with dl_iterate_phdr, named with their build-id: cap_elf.c),
 * rescanned after dlopen/dlclose (cap_interpose.c) and at chunk switches
 * and thread ends (cap_policy.c), written again at the start of a recycled
 * ring chunk; a new module is kept in the build-id store (cap_store.c).
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

static void write_module(struct tstate *t, const struct dl_phdr_info *info,
                         const char *path)
{
    uint64_t size = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && ph->p_vaddr + ph->p_memsz > size)
            size = ph->p_vaddr + ph->p_memsz;
    }
    const uint8_t *id;
    size_t nid, np = strnlen(path, 2048);
    cap_elf_build_id(info, &id, &nid);
    if (nid > 64)
        nid = 64;
    uint8_t *p = cap_room(t, 64 + nid + np);
    if (!p)
        return;
    uint8_t *q = cap_put_t(t, p + 2);
    q = ttf_put_uvar(q, info->dlpi_addr);
    q = ttf_put_uvar(q, size);
    q = ttf_put_str(q, (const char *)id, nid);
    q = ttf_put_str(q, path, np);
    cap_commit(t, p, TTF_R_MODULE_LOAD, cap_ext_close(p, q));
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
    cap.nmods++;
    write_module(sc->t, info, name);
    cap_store_module(info, name, first);
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
    unsigned long long c[2] = { 0, 0 };
    dl_iterate_phdr(count_cb, c);
    if (!force && c[0] == cap.dl_adds && c[1] == cap.dl_subs)
        return;
    if (atomic_flag_test_and_set(&cap.mod_lock))
        return;
    static struct scan sc;      /* big; only used under mod_lock */
    sc.t = t;
    sc.mode = force ? SCAN_ALL : SCAN_DIFF;
    sc.seen = 0;
    sc.idx = 0;
    cap.dl_adds = c[0];
    cap.dl_subs = c[1];
    dl_iterate_phdr(scan_cb, &sc);
    for (uint32_t i = 0; sc.mode == SCAN_DIFF && i < cap.nmods; i++) {
        uint32_t k = 0;
        while (k < sc.seen && sc.now[k] != cap.mods[i].base)
            k++;
        if (k < sc.seen)
            continue;
        write_unload(t, cap.mods[i].base);
        cap.mods[i--] = cap.mods[--cap.nmods];
    }
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
    dl_iterate_phdr(scan_cb, &sc);
    cap_spin_unlock(&cap.mod_lock);
}
