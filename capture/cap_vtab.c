/*
 * cap_vtab.c - values mode's string table: which functions of the program
 * and of its shared libraries take strings, read from each module's own
 * file when libttcap learns of the module (cap_modules.c).
 *
 * Design. libttcap reads no debug info (it would mean libdw in every traced
 * process and its cost at start). `ttcc --values` reads it once, after the
 * link of a program or a shared library (or `ttcc --add-table` after
 * another build system's link): libttfmt's ttf_value_table lists each
 * function whose integer argument registers hold a char * or a
 * std::string's address, and ttcc stores that list in the file as a
 * section that is not loaded, `.ttcap.vt` (objcopy --add-section;
 * capture/VALUES.md):
 *
 *   "TTVT" u32 version (1) u32 n u32 entry size (16), then n entries of
 *   u64 addr (link-time address of the function's entry), u8 cstr (bit k:
 *   register k holds a char *), u8 sstr (bit k: a std::string's address),
 *   u8 flags (TTF_VT_*), 5 bytes 0
 *
 * Each module (the program at start, its libraries, a dlopen'd one when
 * cap_modules.c's scan finds it) is read with pread (no mapping of the
 * file: a file cut short meanwhile is a short read, not a SIGBUS): its
 * section headers, the section, and its build-id note, which must be the
 * loaded object's (a library rebuilt on disk since it was loaded is not
 * read; the program is read through /proc/self/exe, its own inode). Every
 * offset and count is checked; a bad table is skipped whole, and an entry
 * outside the module's loaded extent is dropped. Addresses move by the
 * module's load bias (dl_iterate_phdr's dlpi_addr: 0 for a fixed address
 * program, the ASLR offset for a PIE or a library).
 *
 * All modules share one open-addressing hash keyed by the function's
 * address in this process, at most half full: the hot path's look-up
 * (cap_vstr.h) is one multiply and, for the usual function without
 * strings, one load: its home slot's byte of home bits (cap_vt_home, set
 * for every function put in, never cleared but by a new table), whose
 * bit for it is clear but for one in 16 such functions at most (probing
 * for the empty slot that ends the cluster took 7 loads a look-up on
 * jq's hot functions). It is published as one word
 * (cap_vt.w: the slots' page-aligned address | log2 of their count), so a
 * reader never mixes one table's slots with another's size. A module's
 * entries go into the live table in place when it has room (the fields
 * first, the address last: a reader sees the whole entry or none); when it
 * has not, a new table twice as big is filled and published, and the old
 * one stays mapped (a thread may still be probing it: no lock or epoch on
 * the look-up tells when none is). The tables ever made may take VT_BYTES
 * in all (a plugin host loading and unloading libraries at new addresses
 * makes a table each time tombstones fill one: small ones, hundreds
 * fit); past that, or past VT_MAX functions, a module is not read and
 * libttcap says so once on stderr (its strings are compared as pointers).
 * A module unloaded
 * (dlclose) leaves tombstones (address 1: probes go on past them, inserts
 * reuse them). Changes run under cap_modules.c's mod_lock (one writer) and
 * the slots are read-only between them; no lock, no malloc and no libc on
 * the look-up; a fork child inherits the table. TTCAP_STRINGS=0 leaves it
 * out (values mode as without ttcc's table: the benchmark's baseline).
 * Stage 0 elf of capture/STAGES (a leaf).
 */
#include <elf.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cap_vstr.h"

struct cap_vtab cap_vt;

#define VT_HDR 16
#define VT_ENT 16
#define VT_MAX (1u << 22)       /* functions with strings kept at most */
#define VT_BYTES (512ul << 20)  /* bytes of tables ever mapped (old ones stay): VT_MAX functions fit */
#define VT_SHNUM 8192           /* section headers read at most */
#define VT_SHSTR (1u << 20)     /* section name table bytes read at most */
#define VT_NOTE 1024            /* build-id note bytes read at most */
#define TOMB 1                  /* an unloaded module's slot */

/* The writer's view (under mod_lock, or at start). */
static struct {
    struct cap_vt_ent *e;       /* the published slots, NULL: none */
    unsigned bits;              /* log2 of their count */
    uint32_t used;              /* slots not empty (live or tombstones) */
    uint32_t live;              /* slots holding a function */
    size_t mapped;              /* bytes of tables mapped so far */
    int full;                   /* the notice given */
    int off;                    /* TTCAP_STRINGS=0 */
} vw;

/* ---- reading a module's file ----------------------------------------------- */

/* n bytes at off of fd into b: 0, or -1 (short read or error). */
static int rd(int fd, void *b, size_t n, uint64_t off)
{
    uint8_t *p = b;
    while (n) {
        ssize_t r = pread(fd, p, n, (off_t)off);
        if (r <= 0)
            return -1;
        p += r;
        off += (uint64_t)r;
        n -= (size_t)r;
    }
    return 0;
}

static void *scratch(size_t n)
{
    void *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return m == MAP_FAILED ? NULL : m;
}

/* The section headers and names of a file, read once. */
struct elfview {
    int fd;
    Elf64_Ehdr eh;
    Elf64_Shdr *sh;             /* eh.e_shnum of them */
    char *names;                /* the section name table */
    uint64_t nnames;
    size_t maplen;              /* sh and names share one mapping */
};

static int view_open(struct elfview *v)
{
    const Elf64_Ehdr *eh = &v->eh;
    if (rd(v->fd, &v->eh, sizeof v->eh, 0) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
        eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_ident[EI_DATA] != ELFDATA2LSB ||
        eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shnum == 0 ||
        eh->e_shnum > VT_SHNUM || eh->e_shstrndx >= eh->e_shnum)
        return -1;
    size_t nsh = (size_t)eh->e_shnum * sizeof(Elf64_Shdr);
    v->maplen = nsh + VT_SHSTR;
    if (!(v->sh = scratch(v->maplen)))
        return -1;
    v->names = (char *)v->sh + nsh;
    const Elf64_Shdr *s = &v->sh[eh->e_shstrndx];
    if (rd(v->fd, v->sh, nsh, eh->e_shoff) || s->sh_type == SHT_NOBITS ||
        s->sh_size > VT_SHSTR || rd(v->fd, v->names, s->sh_size, s->sh_offset))
        return -1;
    v->nnames = s->sh_size;
    return 0;
}

/* The header of the section named name (with data in the file), or NULL. */
static const Elf64_Shdr *view_find(const struct elfview *v, const char *name)
{
    size_t want = strlen(name) + 1;
    for (unsigned i = 0; i < v->eh.e_shnum; i++) {
        const Elf64_Shdr *s = &v->sh[i];
        if (s->sh_name < v->nnames && v->nnames - s->sh_name >= want &&
            !memcmp(v->names + s->sh_name, name, want))
            return s->sh_type == SHT_NOBITS ? NULL : s;
    }
    return NULL;
}

/* 1 if the file's GNU build-id is id[0..nid) or either has none; 0 if they
 * differ (the file on disk is not the object loaded). */
static int same_build_id(const struct elfview *v, const uint8_t *id, size_t nid)
{
    const Elf64_Shdr *s = view_find(v, ".note.gnu.build-id");
    uint8_t b[VT_NOTE];
    if (!s || !nid)
        return 1;
    if (s->sh_size > sizeof b || rd(v->fd, b, s->sh_size, s->sh_offset))
        return 0;
    for (size_t p = 0; s->sh_size - p >= sizeof(Elf64_Nhdr);) {
        Elf64_Nhdr nh;
        memcpy(&nh, b + p, sizeof nh);
        size_t name = p + sizeof nh, desc = name + ((nh.n_namesz + 3ul) & ~3ul);
        if (desc > s->sh_size || s->sh_size - desc < nh.n_descsz)
            return 0;
        if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && !memcmp(b + name, "GNU", 4))
            return nh.n_descsz == nid && !memcmp(b + desc, id, nid);
        p = desc + ((nh.n_descsz + 3ul) & ~3ul);
    }
    return 1;
}

/* ---- the hash ---------------------------------------------------------------- */

/* Put the function at a (entry r's bits) into slots e (2^bits): its fields
 * first, its address last. Counts a slot taken from empty in vw.used. */
static void put(struct cap_vt_ent *e, unsigned bits, uint64_t a, uint8_t cstr, uint8_t sstr,
                uint8_t flags)
{
    size_t mask = ((size_t)1 << bits) - 1, j = cap_vt_hash(a, 64 - bits), at = SIZE_MAX;
    for (;; j = (j + 1) & mask) {
        uint64_t f = e[j].fn;
        if (f == a || (!f && at == SIZE_MAX))
            at = j;
        if (f == a || !f)
            break;
        if (f == TOMB && at == SIZE_MAX)
            at = j;         /* reused, unless a is further on */
    }
    size_t h = cap_vt_home(a, bits);   /* before the address: see cap_vt_find */
    __atomic_store_n(&e[h >> 3].home, (uint8_t)(e[h >> 3].home | 1u << (h & 7)),
                     __ATOMIC_RELAXED);
    vw.used += !e[at].fn;
    vw.live += e[at].fn != a;
    e[at].cstr = cstr & 0x3f;
    e[at].sstr = sstr & 0x3f & ~e[at].cstr;
    e[at].flags = flags;
    __atomic_store_n(&e[at].fn, a, __ATOMIC_RELEASE);
}

static void publish(struct cap_vt_ent *e, unsigned bits)
{
    vw.e = e;
    vw.bits = bits;
    __atomic_store_n(&cap_vt.w, (uint64_t)(uintptr_t)e | bits, __ATOMIC_SEQ_CST);
}

/* No room for a module's table: said once, one line on stderr. */
static int table_full(void)
{
    static const char m[] = "ttcap: values mode: the string tables are full; string "
                            "arguments of modules loaded from now on are compared as pointers\n";
    if (!vw.full) {
        ssize_t r = write(2, m, sizeof m - 1);
        (void)r;
    }
    vw.full = 1;
    return -1;
}

/* Room for k more functions: the live table when it stays at most half
 * full, else a new one (the live entries copied, tombstones dropped).
 * 0, or -1 (no room: the module is not read). */
static int make_room(uint32_t k)
{
    size_t size = vw.e ? (size_t)1 << vw.bits : 0;
    if (vw.e && 2 * ((size_t)vw.used + k) <= size)
        return mprotect(vw.e, size * sizeof *vw.e, PROT_READ | PROT_WRITE);
    unsigned bits = 4;
    while (((size_t)1 << bits) < 2 * ((size_t)vw.live + k))
        bits++;
    bits += vw.e != NULL;       /* growing: leave room for the next ones */
    size_t bytes = ((size_t)1 << bits) * sizeof(struct cap_vt_ent);
    if ((size_t)vw.live + k > VT_MAX || vw.mapped + bytes > VT_BYTES)
        return table_full();
    struct cap_vt_ent *e = scratch(bytes);
    if (!e)
        return -1;
    vw.mapped += bytes;
    vw.used = vw.live = 0;
    for (size_t i = 0; i < size; i++)
        if (vw.e[i].fn > TOMB)
            put(e, bits, vw.e[i].fn, vw.e[i].cstr, vw.e[i].sstr, vw.e[i].flags);
    publish(e, bits);           /* the old slots stay mapped: see above */
    return 0;
}

/* The entries ents[0..n) (file layout), moved by bias, kept when they
 * take a string and fall in [lo, hi). */
static void add_entries(const uint8_t *ents, uint32_t n, uint64_t bias, uint64_t lo, uint64_t hi)
{
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++)
        k += (ents[i * VT_ENT + 8] | ents[i * VT_ENT + 9]) != 0;
    if (k == 0 || make_room(k))
        return;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *r = ents + (size_t)i * VT_ENT;
        uint64_t a;
        memcpy(&a, r, 8);
        a += bias;
        if ((r[8] | r[9]) && a > TOMB && a >= lo && a < hi)
            put(vw.e, vw.bits, a, r[8], r[9], r[10]);
    }
    mprotect(vw.e, ((size_t)1 << vw.bits) * sizeof *vw.e, PROT_READ);
}

/* ---- the interface (cap_vstr.h) ---------------------------------------------- */

void cap_vtab_load(void)
{
    const char *off = getenv("TTCAP_STRINGS");
    vw.off = off && strcmp(off, "0") == 0;
}

/* The table of the open ELF file fd, into the hash. */
static void read_table(int fd, uint64_t bias, uint64_t size, const uint8_t *id, size_t nid)
{
    struct elfview v = {.fd = fd};
    const Elf64_Shdr *s;
    uint32_t hdr[4];
    if (view_open(&v) == 0 && (s = view_find(&v, ".ttcap.vt")) && s->sh_size >= VT_HDR &&
        same_build_id(&v, id, nid) && rd(fd, hdr, sizeof hdr, s->sh_offset) == 0 &&
        !memcmp(hdr, "TTVT", 4) && hdr[1] == 1 && hdr[3] == VT_ENT && hdr[2] <= VT_MAX &&
        (s->sh_size - VT_HDR) / VT_ENT >= hdr[2] && hdr[2]) {
        size_t len = (size_t)hdr[2] * VT_ENT;
        uint8_t *ents = scratch(len);
        if (ents && rd(fd, ents, len, s->sh_offset + VT_HDR) == 0)
            add_entries(ents, hdr[2], bias, bias, bias + size);
        if (ents)
            munmap(ents, len);
    }
    if (v.sh)
        munmap(v.sh, v.maplen);
}

int cap_vtab_module(const char *path, uint64_t bias, uint64_t size, const uint8_t *id,
                    size_t nid)
{
    if (vw.off || !path)
        return 0;
    int was = vw.e != NULL;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    read_table(fd, bias, size, id, nid);
    close(fd);
    return !was && vw.e;
}

void cap_vtab_unload(uint64_t lo, uint64_t hi)
{
    size_t size = vw.e ? (size_t)1 << vw.bits : 0;
    int any = 0;
    for (size_t i = 0; i < size && !any; i++)
        any = vw.e[i].fn >= lo && vw.e[i].fn < hi && vw.e[i].fn > TOMB;
    if (!any || mprotect(vw.e, size * sizeof *vw.e, PROT_READ | PROT_WRITE))
        return;
    for (size_t i = 0; i < size; i++) {
        if (vw.e[i].fn < lo || vw.e[i].fn >= hi || vw.e[i].fn <= TOMB)
            continue;
        __atomic_store_n(&vw.e[i].fn, (uint64_t)TOMB, __ATOMIC_RELEASE);
        vw.live--;
    }
    mprotect(vw.e, size * sizeof *vw.e, PROT_READ);
}
