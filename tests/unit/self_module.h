/*
 * self_module.h - the running test binary as libttcap would record it in a
 * MODULE record (path, load bias, extent, build-id), so unit tests can
 * write traces whose addresses are this binary's own functions and resolve
 * them through its debug info. self_module_load() fills `self`.
 */
#ifndef TT_TEST_SELF_MODULE_H
#define TT_TEST_SELF_MODULE_H

#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

/* This executable as the capture library would record it. */
struct self_module {
    char path[4096];           /* /proc/self/exe resolved */
    uint64_t base, size;       /* load bias, extent of the PT_LOAD segments */
    uint8_t build_id[64];      /* NT_GNU_BUILD_ID bytes */
    size_t build_id_len;
};

static struct self_module self;

static void note_build_id(struct dl_phdr_info *info, const ElfW(Phdr) *ph)
{
    const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
    const uint8_t *end = p + ph->p_memsz;

    while (p + sizeof(ElfW(Nhdr)) <= end) {
        const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
        const uint8_t *desc = p + sizeof *nh + ((nh->n_namesz + 3) & ~3u);
        if (nh->n_type == NT_GNU_BUILD_ID && nh->n_descsz <= 64) {
            memcpy(self.build_id, desc, nh->n_descsz);
            self.build_id_len = nh->n_descsz;
            return;
        }
        p = desc + ((nh->n_descsz + 3) & ~3u);
    }
}

static int first_object(struct dl_phdr_info *info, size_t sz, void *arg)
{
    (void)sz;
    (void)arg;
    self.base = info->dlpi_addr;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && ph->p_vaddr + ph->p_memsz > self.size)
            self.size = ph->p_vaddr + ph->p_memsz;
        if (ph->p_type == PT_NOTE && !self.build_id_len)
            note_build_id(info, ph);
    }
    return 1; /* the main program comes first */
}

/* Fill self; 0, or -1 if this binary cannot be described. */
static int self_module_load(void)
{
    ssize_t n = readlink("/proc/self/exe", self.path, sizeof self.path - 1);
    if (n <= 0)
        return -1;
    self.path[n] = 0;
    dl_iterate_phdr(first_object, NULL);
    return self.build_id_len ? 0 : -1;
}

#endif
