/*
 * symtab.c - a module's symbol table sorted by address, built once, so a
 * name costs a binary search (O(log n)) instead of libdwfl's scan of every
 * symbol (dwfl_module_addrinfo is O(n) per call: 1,000 distinct functions
 * of a module with 10^6 symbols took 64 s).
 *
 * The answer is libdwfl's (elfutils' dwfl_module_addrsym rules, read from
 * its documentation and behaviour): among the symbols with a size that hold
 * the address, a non-local one wins over every local one, then the highest
 * start, then the stronger binding (global, weak, local), then the smaller
 * size (versioned aliases), then the earlier
 * symbol; with none, a size-less symbol (an assembly label) at or below the
 * address, in the address's section and above the end of every sized
 * symbol below it (the last one of equal rank). Section, file and TLS
 * symbols, undefined and nameless ones never answer.
 *
 * The table keeps, per entry, the largest end of the sized symbols up to it
 * (a running maximum), so a search walks back only over symbols that can
 * still hold the address: one step for ordinary functions.
 * Stage 0 base of format/STAGES.
 */
#include <elfutils/libdwfl.h>
#include <stdlib.h>

#include "ttf_int.h"
#include "ttfmt.h"

struct ttfi_symtab {
    struct tsym *e;             /* n entries, by start, then symbol index */
    size_t n;
    struct tsec *sec;           /* nsec allocated sections (labels' rule) */
    size_t nsec;
};

/* A section of the file, where the module is loaded. */
struct tsec {
    uint64_t lo, hi;            /* [lo, hi), bias included */
    uint32_t ndx;               /* section index */
};

/* One symbol. */
struct tsym {
    uint64_t start;             /* address, bias included */
    uint64_t size;              /* 0: a label */
    uint64_t maxend;            /* largest start+size of sized e[0..this] */
    const char *name;           /* into the module's mapped ELF data */
    uint32_t idx;               /* symbol index (ties: the earlier wins) */
    uint32_t shndx;             /* its section (SHN_ABS...: absolute) */
    uint8_t bind;               /* 3 global, 2 weak, 1 local, 0 other */
};

static uint8_t bind_rank(unsigned char info)
{
    switch (GELF_ST_BIND(info)) {
    case STB_GLOBAL: return 3;
    case STB_WEAK: return 2;
    case STB_LOCAL: return 1;
    default: return 0;
    }
}

/* Does x answer before y when both hold the address? */
static int better(const struct tsym *x, const struct tsym *y)
{
    int xg = x->bind != 1, yg = y->bind != 1;
    if (xg != yg)
        return xg;
    if (x->start != y->start)
        return x->start > y->start;
    if (x->bind != y->bind)
        return x->bind > y->bind;
    if (x->size != y->size)
        return x->size < y->size; /* versioned aliases of one object */
    return x->idx < y->idx;
}

static int cmp_sym(const void *a, const void *b)
{
    const struct tsym *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int usable(const GElf_Sym *sym, const char *name)
{
    int type = GELF_ST_TYPE(sym->st_info);
    return name && name[0] && sym->st_shndx != SHN_UNDEF &&
           type != STT_SECTION && type != STT_FILE && type != STT_TLS;
}

/* The allocated sections of dm's file, where it is loaded. 0 or -1. */
static int sections(Dwfl_Module *dm, struct ttfi_symtab *t)
{
    GElf_Addr bias = 0;
    Elf *elf = dwfl_module_getelf(dm, &bias);
    size_t n = 0;
    if (!elf || elf_getshdrnum(elf, &n) != 0 || n == 0)
        return 0;
    if (!(t->sec = malloc(n * sizeof *t->sec)))
        return -1;
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) && t->nsec < n)
            t->sec[t->nsec++] = (struct tsec){ sh.sh_addr + bias,
                sh.sh_addr + bias + sh.sh_size, (uint32_t)elf_ndxscn(scn) };
    }
    return 0;
}

/* The section holding addr, else one ending at addr (libdwfl counts an
 * address just past a section as in it), else SHN_ABS. */
static uint32_t section_of(const struct ttfi_symtab *t, uint64_t addr)
{
    uint32_t at_end = SHN_ABS;
    for (size_t i = 0; i < t->nsec; i++) {
        if (addr >= t->sec[i].lo && addr < t->sec[i].hi)
            return t->sec[i].ndx;
        if (addr == t->sec[i].hi && at_end == SHN_ABS)
            at_end = t->sec[i].ndx;
    }
    return at_end;
}

int ttfi_symtab_build(Dwfl_Module *dm, struct ttfi_symtab **out)
{
    *out = NULL;
    int n = dwfl_module_getsymtab(dm);
    struct ttfi_symtab *t = calloc(1, sizeof *t);
    if (!t)
        return TT_ENOMEM;
    t->e = n > 0 ? malloc((size_t)n * sizeof *t->e) : NULL;
    if (n > 0 && !t->e) {
        free(t);
        return TT_ENOMEM;
    }
    for (int i = 1; i < n; i++) {
        GElf_Sym sym;
        GElf_Addr addr;
        GElf_Word shndx = SHN_UNDEF;
        const char *name = dwfl_module_getsym_info(dm, i, &sym, &addr, &shndx,
                                                   NULL, NULL);
        if (!usable(&sym, name))
            continue;
        t->e[t->n++] = (struct tsym){ .start = addr, .size = sym.st_size,
            .name = name, .idx = (uint32_t)i, .shndx = shndx,
            .bind = bind_rank(sym.st_info) };
    }
    if (sections(dm, t) != 0) {
        ttfi_symtab_free(t);
        return TT_ENOMEM;
    }
    if (t->n > 1)               /* t->e may be NULL: none at all */
        qsort(t->e, t->n, sizeof *t->e, cmp_sym);
    uint64_t m = 0;
    for (size_t i = 0; i < t->n; i++) {
        struct tsym *s = &t->e[i];
        if (s->size && s->start + s->size > m)
            m = s->start + s->size;
        s->maxend = m;
    }
    *out = t;
    return 0;
}

/* The last entry starting at or below addr, or n if none. */
static size_t last_at_or_below(const struct ttfi_symtab *t, uint64_t addr)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (t->e[mid].start <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? lo - 1 : t->n;
}

/* The label answering for addr: the nearest one at entry i or below that
 * starts at floor or above, in addr's section (absolute: addr itself);
 * equal starts: the stronger binding, then the later symbol. NULL if none. */
static const struct tsym *label_for(const struct ttfi_symtab *t, size_t i,
                                    uint64_t floor, uint64_t addr)
{
    const struct tsym *best = NULL;
    uint32_t sec = section_of(t, addr);
    for (size_t k = i + 1; k-- > 0 && t->e[k].start >= floor;) {
        const struct tsym *s = &t->e[k];
        if (best && s->start < best->start)
            break;
        int ok = s->shndx >= SHN_LORESERVE ? s->start == addr : s->shndx == sec;
        if (!s->size && ok && (!best || s->bind > best->bind))
            best = s;
    }
    return best;
}

const char *ttfi_symtab_find(const struct ttfi_symtab *t, uint64_t addr,
                             uint64_t *off)
{
    size_t i = t ? last_at_or_below(t, addr) : 0;
    if (!t || i == t->n)
        return NULL;
    const struct tsym *best = NULL;
    if (t->e[i].maxend <= addr) /* no sized symbol holds addr: a label? */
        best = label_for(t, i, t->e[i].maxend, addr);
    /* entries further down whose running end is past addr may hold it */
    for (size_t k = i + 1; k-- > 0 && t->e[k].maxend > addr;) {
        const struct tsym *s = &t->e[k];
        if (s->size && addr - s->start < s->size && (!best || better(s, best)))
            best = s;
    }
    if (!best)
        return NULL;
    *off = addr - best->start;
    return best->name;
}

void ttfi_symtab_free(struct ttfi_symtab *t)
{
    if (!t)
        return;
    free(t->e);
    free(t->sec);
    free(t);
}
