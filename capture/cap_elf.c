/*
 * cap_elf.c - what a loaded object says about itself, read from its mapped
 * program headers: its GNU build-id note, and which symbols its dynamic
 * relocations refer to (does it call the -finstrument-functions hooks, the
 * ttcap_ API, gprof's __monstartup?). A leaf of capture/ (capture/STAGES):
 * it calls nothing of libttcap, so the module records (cap_modules.c), the
 * build-id store (cap_store.c) and the start checks (cap_check.c) share it
 * without calling each other. Slow path only.
 */
#include <elf.h>
#include <link.h>
#include <string.h>

#include "cap_int.h"

#if __ELF_NATIVE_CLASS == 64
#define REL_SYM ELF64_R_SYM
#else
#define REL_SYM ELF32_R_SYM
#endif

/* The GNU build-id note of a loaded object: *id, *n bytes (NULL, 0: none). */
void cap_elf_build_id(const struct dl_phdr_info *info, const uint8_t **id, size_t *n)
{
    *id = NULL;
    *n = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_NOTE)
            continue;
        const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
        const uint8_t *end = p + ph->p_memsz;
        while (p + sizeof(ElfW(Nhdr)) <= end) {
            const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
            const uint8_t *name = p + sizeof *nh;
            const uint8_t *desc = name + ((nh->n_namesz + 3) & ~3u);
            if (nh->n_type == NT_GNU_BUILD_ID && nh->n_namesz == 4 &&
                memcmp(name, "GNU", 4) == 0 && desc + nh->n_descsz <= end) {
                *id = desc;
                *n = nh->n_descsz;
                return;
            }
            p = desc + ((nh->n_descsz + 3) & ~3u);
        }
    }
}

/* Pointer-valued dynamic tags: relocated in place by glibc on most targets,
 * not on some (read-only dynamic section); a value below the load bias is
 * taken as unrelocated. */
static uintptr_t dyn_ptr(const struct dl_phdr_info *info, uintptr_t v)
{
    return v < info->dlpi_addr ? v + info->dlpi_addr : v;
}

static void scan_relas(const ElfW(Rela) *r, size_t bytes, const ElfW(Sym) *sym,
                       const char *str, struct cap_refs *rf)
{
    for (size_t i = 0; r && i < bytes / sizeof *r; i++) {
        size_t s = REL_SYM(r[i].r_info);
        if (s == 0)
            continue;
        const char *name = str + sym[s].st_name;
        if (strcmp(name, "__cyg_profile_func_enter") == 0)
            rf->hooks = 1;
        else if (strncmp(name, "ttcap_", 6) == 0)
            rf->api = 1;
        else if (strcmp(name, "__monstartup") == 0)
            rf->gprof = 1;
    }
}

static int is_inside(const struct dl_phdr_info *info, uintptr_t a)
{
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && a >= lo && a < lo + ph->p_memsz)
            return 1;
    }
    return 0;
}

/* What the object info's dynamic relocations refer to, and whether it holds
 * the address self (callers pass one inside libttcap: rf->self says the
 * object holds libttcap). RELA targets only (x86-64, aarch64, riscv...);
 * elsewhere only self is found. */
void cap_elf_refs(const struct dl_phdr_info *info, uintptr_t self, struct cap_refs *rf)
{
    memset(rf, 0, sizeof *rf);
    rf->self = is_inside(info, self);
    const ElfW(Dyn) *d = NULL;
    for (int i = 0; i < info->dlpi_phnum; i++)
        if (info->dlpi_phdr[i].p_type == PT_DYNAMIC)
            d = (const ElfW(Dyn) *)(info->dlpi_addr + info->dlpi_phdr[i].p_vaddr);
    uintptr_t sym = 0, str = 0, rela = 0, jmp = 0;
    size_t relasz = 0, jmpsz = 0, pltrel = DT_RELA;
    for (; d && d->d_tag != DT_NULL; d++) {
        switch (d->d_tag) {
        case DT_SYMTAB: sym = dyn_ptr(info, d->d_un.d_ptr); break;
        case DT_STRTAB: str = dyn_ptr(info, d->d_un.d_ptr); break;
        case DT_RELA: rela = dyn_ptr(info, d->d_un.d_ptr); break;
        case DT_RELASZ: relasz = d->d_un.d_val; break;
        case DT_JMPREL: jmp = dyn_ptr(info, d->d_un.d_ptr); break;
        case DT_PLTRELSZ: jmpsz = d->d_un.d_val; break;
        case DT_PLTREL: pltrel = d->d_un.d_val; break;
        }
    }
    if (!sym || !str)
        return;
    scan_relas((const ElfW(Rela) *)rela, relasz, (const ElfW(Sym) *)sym,
               (const char *)str, rf);
    if (pltrel == DT_RELA)
        scan_relas((const ElfW(Rela) *)jmp, jmpsz, (const ElfW(Sym) *)sym,
                   (const char *)str, rf);
}
