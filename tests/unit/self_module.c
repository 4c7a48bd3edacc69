/*
 * self_module.c - the running test binary as a MODULE record would
 * describe it (self_module.h).
 */
#include <elf.h>
#include <elfutils/libdwelf.h>
#include <fcntl.h>
#include <gelf.h>
#include <link.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "self_module.h"

struct self_module tu_self;

static void note_build_id(struct dl_phdr_info *info, const ElfW(Phdr) *ph,
                          struct self_module *out)
{
    const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
    const uint8_t *end = p + ph->p_memsz;

    while (p + sizeof(ElfW(Nhdr)) <= end) {
        const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
        const uint8_t *desc = p + sizeof *nh + ((nh->n_namesz + 3) & ~3u);
        if (nh->n_type == NT_GNU_BUILD_ID && nh->n_descsz <= 64) {
            memcpy(out->build_id, desc, nh->n_descsz);
            out->build_id_len = nh->n_descsz;
            return;
        }
        p = desc + ((nh->n_descsz + 3) & ~3u);
    }
}

static void describe(struct dl_phdr_info *info, struct self_module *out)
{
    out->base = info->dlpi_addr;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && ph->p_vaddr + ph->p_memsz > out->size)
            out->size = ph->p_vaddr + ph->p_memsz;
        if (ph->p_type == PT_NOTE && !out->build_id_len)
            note_build_id(info, ph, out);
    }
}

static int first_object(struct dl_phdr_info *info, size_t sz, void *arg)
{
    (void)sz;
    (void)arg;
    describe(info, &tu_self);
    return 1; /* the main program comes first */
}

static int named_object(struct dl_phdr_info *info, size_t sz, void *arg)
{
    struct self_module *out = arg;

    (void)sz;
    if (!info->dlpi_name || strcmp(info->dlpi_name, out->path) != 0)
        return 0;
    describe(info, out);
    return 1;
}

int self_module_find(const char *path, struct self_module *out)
{
    memset(out, 0, sizeof *out);
    if (strlen(path) >= sizeof out->path)
        return -1;
    strcpy(out->path, path);
    dl_iterate_phdr(named_object, out);
    return out->build_id_len ? 0 : -1;
}

int self_module_load(void)
{
    ssize_t n = readlink("/proc/self/exe", tu_self.path, sizeof tu_self.path - 1);
    if (n <= 0)
        return -1;
    tu_self.path[n] = 0;
    dl_iterate_phdr(first_object, NULL);
    return tu_self.build_id_len ? 0 : -1;
}

int self_module_file_id(const char *path, uint8_t *id, size_t *len)
{
    int fd = open(path, O_RDONLY);
    const void *bits = NULL;
    elf_version(EV_CURRENT);
    Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
    ssize_t n = e ? dwelf_elf_gnu_build_id(e, &bits) : -1;
    if (n > 0 && (size_t)n <= 64)
        memcpy(id, bits, (size_t)n);
    *len = n > 0 ? (size_t)n : 0;
    elf_end(e);
    if (fd >= 0)
        close(fd);
    return n > 0 ? 0 : -1;
}
