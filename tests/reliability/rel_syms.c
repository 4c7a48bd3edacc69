/*
 * rel_syms.c - reliability check (g): symbol look-up cost against the size
 * of a module's symbol table (issue 24, defect 4). Usage:
 *   rel_syms DIR NSYMS NFUNCS CALLS
 * writes DIR/libsyms<NSYMS>.so, a shared object with NSYMS functions
 * (assembled from a generated .S: f0, f1, ... each with its size), loads
 * it, and writes DIR/syms<NSYMS>.trc: one thread calling NFUNCS of its
 * functions, spread evenly over the table, CALLS times each, with the
 * module recorded as libttcap records it (load bias, extent, build-id).
 * Prints "syms NSYMS funcs NFUNCS events E".
 */
#include <dlfcn.h>
#include <elf.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttfmt.h"

/* The generated module as the capture library would record it. */
struct gmod {
    const char *path;           /* its file */
    uint64_t base, size;        /* load bias, extent of PT_LOAD */
    uint8_t id[64];             /* build-id */
    size_t nid;
};

static int write_asm(const char *path, long n)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs("\t.text\n", f);
    for (long i = 0; i < n; i++)
        fprintf(f, "\t.globl f%ld\n\t.type f%ld, @function\n\t.p2align 4\n"
                   "f%ld:\n\tret\n\t.size f%ld, .-f%ld\n", i, i, i, i, i);
    fputs("\t.section .note.GNU-stack,\"\",@progbits\n", f);
    return fclose(f);
}

static int find_mod(struct dl_phdr_info *info, size_t sz, void *arg)
{
    (void)sz;
    struct gmod *g = arg;
    if (!info->dlpi_name || strcmp(info->dlpi_name, g->path) != 0)
        return 0;
    g->base = info->dlpi_addr;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && ph->p_vaddr + ph->p_memsz > g->size)
            g->size = ph->p_vaddr + ph->p_memsz;
        if (ph->p_type != PT_NOTE)
            continue;
        const uint8_t *p = (const uint8_t *)(info->dlpi_addr + ph->p_vaddr);
        const ElfW(Nhdr) *nh = (const ElfW(Nhdr) *)p;
        if (nh->n_type == NT_GNU_BUILD_ID && nh->n_descsz <= 64) {
            memcpy(g->id, p + sizeof *nh + ((nh->n_namesz + 3) & ~3u), nh->n_descsz);
            g->nid = nh->n_descsz;
        }
    }
    return 1;
}

static int write_trace(const char *path, const struct gmod *g, void *h,
                       long nsyms, long nfuncs, long calls, uint64_t *events)
{
    ttf_writer *w = NULL;
    const char *argv[] = {"rel_syms"};
    uint64_t tsc = 1000;
    if (ttf_writer_open(path, NULL, &w) != 0)
        return -1;
    int rc = ttf_write_process(w, 1, 0, "rel_syms", 1, argv, "");
    rc |= ttf_write_thread_start(w, 0, tsc, 1, "main");
    rc |= ttf_write_module(w, 0, tsc, g->base, g->size, g->id, g->nid, g->path);
    for (long c = 0; c < calls && rc == 0; c++) {
        for (long i = 0; i < nfuncs && rc == 0; i++) {
            char name[32];
            snprintf(name, sizeof name, "f%ld", i * (nsyms / nfuncs));
            uint64_t a = (uint64_t)(uintptr_t)dlsym(h, name);
            rc |= ttf_write_enter(w, 0, tsc += 10, a);
            rc |= ttf_write_exit(w, 0, tsc += 10, a);
            *events += 2;
        }
    }
    rc |= ttf_write_thread_end(w, 0, tsc + 10);
    return ttf_writer_close(w, 0) | rc;
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: rel_syms DIR NSYMS NFUNCS CALLS\n");
        return 2;
    }
    const char *dir = argv[1];
    long nsyms = atol(argv[2]), nfuncs = atol(argv[3]), calls = atol(argv[4]);
    char s[4096], so[4096], trc[4096], cmd[12288];
    if (nsyms < 1 || nfuncs < 1 || nfuncs > nsyms || calls < 1)
        return 2;
    snprintf(s, sizeof s, "%s/libsyms%ld.S", dir, nsyms);
    snprintf(so, sizeof so, "%s/libsyms%ld.so", dir, nsyms);
    snprintf(trc, sizeof trc, "%s/syms%ld.trc", dir, nsyms);
    snprintf(cmd, sizeof cmd, "%s -shared -nostdlib -Wl,--build-id -o '%s' '%s'",
             getenv("CC") ? getenv("CC") : "cc", so, s);
    if (write_asm(s, nsyms) != 0 || system(cmd) != 0) {
        fprintf(stderr, "rel_syms: cannot build %s\n", so);
        return 1;
    }
    void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
    struct gmod g = {.path = so};
    if (!h || !dl_iterate_phdr(find_mod, &g)) {
        fprintf(stderr, "rel_syms: cannot load %s\n", so);
        return 1;
    }
    uint64_t events = 0;
    remove(trc);
    if (write_trace(trc, &g, h, nsyms, nfuncs, calls, &events) != 0) {
        fprintf(stderr, "rel_syms: cannot write %s\n", trc);
        return 1;
    }
    printf("syms %ld funcs %ld events %llu\n", nsyms, nfuncs,
           (unsigned long long)events);
    return 0;
}
