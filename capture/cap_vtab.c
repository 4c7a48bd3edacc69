/*
 * cap_vtab.c - values mode's string table: which functions of the program
 * take strings, read at trace start from the program's own file.
 *
 * Design. libttcap reads no debug info (it would mean libdw in every traced
 * process and its cost at start). `ttcc --values` reads it once, after the
 * link: libttfmt's ttf_value_table lists each function whose integer
 * argument registers hold a char * or a std::string's address, and ttcc
 * stores that list in the program as a section that is not loaded,
 * `.ttcap.vt` (objcopy --add-section; capture/VALUES.md):
 *
 *   "TTVT" u32 version (1) u32 n u32 entry size (16), then n entries of
 *   u64 addr (link-time address of the function's entry), u8 cstr (bit k:
 *   register k holds a char *), u8 sstr (bit k: a std::string's address),
 *   u8 flags (TTF_VT_*), 5 bytes 0
 *
 * At start (cap_init.c, before any thread records) this file maps
 * /proc/self/exe, finds the section by the section headers (no libelf),
 * adds the load bias (AT_ENTRY less the file's e_entry: 0 for a fixed
 * address program, the ASLR offset for a PIE) and builds an
 * open-addressing hash of the functions with strings, keyed by their
 * address in this process, at most half full: the hot path's look-up
 * (cap_vstr.h) is one multiply and, for the usual function without
 * strings, one load that finds an empty slot. The table is mmap'd (no
 * malloc: libttcap may start before the program's allocator is ready) and
 * never changes after, so threads read it without locks; a fork child
 * inherits it. Shared libraries built with ttcc get the section too but
 * are not read (only the program's own functions are looked up): see
 * VALUES.md's limits. TTCAP_STRINGS=0 leaves the table out (values mode
 * as without ttcc's table: the benchmark's baseline).
 * Stage 0 elf of capture/STAGES (a leaf).
 */
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cap_vstr.h"

struct cap_vtab cap_vt;

#define VT_HDR 16
#define VT_ENT 16
#define VT_MAX (1u << 22)       /* functions with strings kept at most */

/* The section named name in the ELF file mapped at m (size n): its bytes
 * and length, or NULL. Every offset is checked against n. */
static const uint8_t *find_section(const uint8_t *m, size_t n, const char *name,
                                   size_t *len)
{
    const Elf64_Ehdr *eh = (const void *)m;
    if (n < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
        eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
        eh->e_shoff >= n || eh->e_shnum == 0 || eh->e_shstrndx >= eh->e_shnum ||
        (n - eh->e_shoff) / sizeof(Elf64_Shdr) < eh->e_shnum)
        return NULL;
    const Elf64_Shdr *sh = (const void *)(m + eh->e_shoff);
    const Elf64_Shdr *strs = &sh[eh->e_shstrndx];
    if (strs->sh_offset >= n || n - strs->sh_offset < strs->sh_size)
        return NULL;
    size_t want = strlen(name) + 1;
    for (unsigned i = 0; i < eh->e_shnum; i++) {
        if (sh[i].sh_name >= strs->sh_size || strs->sh_size - sh[i].sh_name < want ||
            memcmp(m + strs->sh_offset + sh[i].sh_name, name, want))
            continue;
        if (sh[i].sh_type == SHT_NOBITS || sh[i].sh_offset >= n ||
            n - sh[i].sh_offset < sh[i].sh_size)
            return NULL;
        *len = sh[i].sh_size;
        return m + sh[i].sh_offset;
    }
    return NULL;
}

/* The hash of the k entries with strings of the section's ents (count n),
 * their addresses moved by bias: 0, or -1 (nothing kept). */
static int build(const uint8_t *ents, uint32_t n, uint64_t bias)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        k += (ents[i * VT_ENT + 8] | ents[i * VT_ENT + 9]) != 0;
    if (k == 0 || k > VT_MAX)
        return -1;
    unsigned bits = 4;
    while ((1u << bits) < 2 * k)
        bits++;
    size_t size = (size_t)1 << bits;
    struct cap_vt_ent *e = mmap(NULL, size * sizeof *e, PROT_READ | PROT_WRITE,
                                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (e == MAP_FAILED)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *r = ents + (size_t)i * VT_ENT;
        uint64_t a;
        memcpy(&a, r, 8);
        a += bias;
        if (!(r[8] | r[9]) || a == 0)
            continue;
        size_t j = cap_vt_hash(a, 64 - bits);
        while (e[j].fn && e[j].fn != a)
            j = (j + 1) & (size - 1);
        e[j].fn = a;
        e[j].cstr = r[8] & 0x3f;
        e[j].sstr = r[9] & 0x3f & ~e[j].cstr;
        e[j].flags = r[10];
    }
    mprotect(e, size * sizeof *e, PROT_READ);
    cap_vt.mask = size - 1;
    cap_vt.shift = 64 - bits;
    atomic_signal_fence(memory_order_release);
    cap_vt.e = e;
    return 0;
}

void cap_vtab_load(void)
{
    if (cap_vt.e)
        return;
    const char *off = getenv("TTCAP_STRINGS");
    if (off && strcmp(off, "0") == 0)
        return;
    int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
    struct stat st;
    if (fd < 0)
        return;
    if (fstat(fd, &st) || st.st_size < (off_t)sizeof(Elf64_Ehdr)) {
        close(fd);
        return;
    }
    size_t n = (size_t)st.st_size;
    const uint8_t *m = mmap(NULL, n, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (m == MAP_FAILED)
        return;
    size_t len = 0;
    const uint8_t *s = find_section(m, n, ".ttcap.vt", &len);
    uint32_t hdr[4];
    if (s && len >= VT_HDR) {
        memcpy(hdr, s, sizeof hdr);
        uint64_t entry = ((const Elf64_Ehdr *)(const void *)m)->e_entry;
        uint64_t at = getauxval(AT_ENTRY);
        if (!memcmp(s, "TTVT", 4) && hdr[1] == 1 && hdr[3] == VT_ENT &&
            (len - VT_HDR) / VT_ENT >= hdr[2] && at && at >= entry)
            build(s + VT_HDR, hdr[2], at - entry);
    }
    munmap((void *)m, n);
}
