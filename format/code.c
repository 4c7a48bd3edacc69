/*
 * code.c - a module's functions with their machine code, and what an
 * address in its code names: what diff/codediff.c needs to compare two
 * builds of a program function by function (ttf_sym_code, ttf_sym_code_ref).
 *
 * Design. Everything is read from the file sym.c opened for the module (the
 * recorded path, or the copy with the recorded build-id), through its
 * libdwfl session: the symbol table (libdwfl picks .symtab, else .dynsym,
 * plus a MiniDebugInfo table), the main file's allocated sections, and its
 * dynamic relocations. Per module, on first need, we build three sorted
 * arrays: the functions (address, size, names, code bytes), the allocated
 * sections, and the relocated words (GOT slots: the symbol bound there, or
 * for R_X86_64_RELATIVE the address stored). Then resolving a reference is
 * two binary searches and, for a symbol, libdwfl's own sorted lookup.
 *
 * What a reference names is chosen so that it does not depend on where the
 * linker put things: a call through the PLT names the imported function (the
 * stub's `jmp *slot(%rip)` is decoded to find its GOT slot, whose
 * relocation names the symbol), a load from a GOT slot likewise, an address
 * inside a symbol its name and offset, and an address in no symbol (a
 * string literal, a constant pool entry) its section and, when the section
 * is read-only, the bytes there up to a NUL: a string literal compares by
 * its text, wherever .rodata put it.
 * Stage 7 code of format/STAGES (on the resolver, sym.c, whose
 * sessions it reads; sym.c frees its data through struct ttfi_modslot and
 * never calls up).
 */
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "ttf_int.h"

#define REF_BYTES 64           /* read-only data compared per reference */
#define PLT_ENTRY 16           /* bytes of an x86-64 PLT entry */
#define FIELDS_MAX 256         /* fields kept per question, untyped */

/* One allocated section of the main file. */
struct csec {
    uint64_t addr, size;       /* link-time range */
    const char *name;          /* ".text", ".rodata", ".plt.sec" ... */
    const uint8_t *data;       /* its bytes, NULL for NOBITS */
    int writable;              /* SHF_WRITE */
};

/* One relocated word (a GOT slot, a pointer in data). */
struct creloc {
    uint64_t offset;           /* link-time address of the word */
    const char *sym;           /* symbol bound there, NULL for RELATIVE */
    uint64_t addend;           /* RELATIVE: the address stored */
};

/* One symbol with an address range (function or data), for look-ups. */
struct csym {
    uint64_t addr, size;       /* link-time range (size 0: that address) */
    const char *name;          /* raw symbol name */
};

struct modcode {
    ttf_code_info info;        /* what ttf_sym_code hands out */
    ttf_code_func *funcs;      /* info.funcs, owned */
    struct csym *syms;         /* functions and data objects by address */
    size_t nsyms;
    struct csec *secs;         /* allocated sections by address */
    size_t nsecs;
    struct creloc *rel;        /* relocated words by offset */
    size_t nrel;
    Dwfl_Module *dm;           /* the module (for symbol look-ups) */
};

/* The slot's free function (struct ttfi_modslot): sym.c calls it when it
 * drops the module's session. */
static void code_free(void *p)
{
    struct modcode *c = p;
    if (!c)
        return;
    free(c->funcs);
    free(c->syms);
    free(c->secs);
    free(c->rel);
    free(c);
}

/* ---- sections ------------------------------------------------------------ */

static int cmp_sec(const void *a, const void *b)
{
    const struct csec *x = a, *y = b;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int read_sections(struct modcode *c, Elf *elf)
{
    size_t strndx, n = 0;
    Elf_Scn *scn = NULL;
    GElf_Shdr sh;

    if (elf_getshdrnum(elf, &n) != 0 || elf_getshdrstrndx(elf, &strndx) != 0)
        return 0;
    c->secs = calloc(n ? n : 1, sizeof *c->secs);
    if (!c->secs)
        return TT_ENOMEM;
    while ((scn = elf_nextscn(elf, scn))) {
        if (!gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC) || !sh.sh_size)
            continue;
        struct csec *s = &c->secs[c->nsecs++];
        Elf_Data *d = sh.sh_type == SHT_NOBITS ? NULL : elf_getdata(scn, NULL);
        s->addr = sh.sh_addr;
        s->size = sh.sh_size;
        s->name = elf_strptr(elf, strndx, sh.sh_name);
        s->name = s->name ? s->name : "?";
        s->data = d && d->d_buf && d->d_size >= sh.sh_size ? d->d_buf : NULL;
        s->writable = (sh.sh_flags & SHF_WRITE) != 0;
    }
    if (c->nsecs > 1)           /* secs may be NULL: none */
        qsort(c->secs, c->nsecs, sizeof *c->secs, cmp_sec);
    return 0;
}

/* The section holding link-time address a, NULL if none. */
static const struct csec *sec_of(const struct modcode *c, uint64_t a)
{
    size_t lo = 0, hi = c->nsecs;
    while (lo < hi) { /* first section starting above a */
        size_t mid = (lo + hi) / 2;
        if (c->secs[mid].addr <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || a - c->secs[lo - 1].addr >= c->secs[lo - 1].size)
        return NULL;
    return &c->secs[lo - 1];
}

/* ---- dynamic relocations -------------------------------------------------- */

static int cmp_rel(const void *a, const void *b)
{
    const struct creloc *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The relocations of one SHT_RELA section, symbols from its sh_link. */
static int read_rela(struct modcode *c, Elf *elf, Elf_Scn *scn,
                     const GElf_Shdr *sh)
{
    Elf_Data *d = elf_getdata(scn, NULL);
    Elf_Scn *symscn = elf_getscn(elf, sh->sh_link);
    Elf_Data *sd = symscn ? elf_getdata(symscn, NULL) : NULL;
    GElf_Shdr ssh;
    size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;

    if (!d || !sd || !gelf_getshdr(symscn, &ssh) || !n)
        return 0;
    if (ttfi_regrow(&c->rel, c->nrel + n, sizeof *c->rel))
        return TT_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        GElf_Rela r;
        GElf_Sym sym;
        if (!gelf_getrela(d, (int)i, &r))
            break;
        struct creloc *out = &c->rel[c->nrel];
        size_t si = GELF_R_SYM(r.r_info);
        out->offset = r.r_offset;
        out->addend = (uint64_t)r.r_addend;
        out->sym = NULL;
        if (si && gelf_getsym(sd, (int)si, &sym))
            out->sym = elf_strptr(elf, ssh.sh_link, sym.st_name);
        if (si && (!out->sym || !out->sym[0]))
            continue;
        c->nrel++;
    }
    return 0;
}

static int read_relocs(struct modcode *c, Elf *elf)
{
    Elf_Scn *scn = NULL;
    GElf_Shdr sh;

    while ((scn = elf_nextscn(elf, scn))) {
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA ||
            !(sh.sh_flags & SHF_ALLOC))
            continue;
        if (read_rela(c, elf, scn, &sh))
            return TT_ENOMEM;
    }
    if (c->nrel)
        qsort(c->rel, c->nrel, sizeof *c->rel, cmp_rel);
    return 0;
}

static const struct creloc *reloc_at(const struct modcode *c, uint64_t a)
{
    size_t lo = 0, hi = c->nrel;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c->rel[mid].offset < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < c->nrel && c->rel[lo].offset == a ? &c->rel[lo] : NULL;
}

/* ---- functions ------------------------------------------------------------ */

static int is_hook(const char *name)
{
    return strcmp(name, "__cyg_profile_func_enter") == 0 ||
           strcmp(name, "__fentry__") == 0 || strcmp(name, "mcount") == 0 ||
           strcmp(name, "_mcount") == 0;
}

static int cmp_func(const void *a, const void *b)
{
    const ttf_code_func *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    return strcmp(x->symbol, y->symbol);
}

/* The code bytes of [addr, addr+size) in the main file, NULL if not held. */
static const uint8_t *code_bytes(const struct modcode *c, uint64_t addr,
                                 uint64_t size)
{
    const struct csec *s = sec_of(c, addr);
    if (!s || !s->data || size > s->size - (addr - s->addr))
        return NULL; /* (a symbol's size is the file's word: no overflow) */
    return s->data + (addr - s->addr);
}

/* Symbol i of the module into the function list if it is a defined
 * function; an undefined tracing hook marks the module instrumented. */
static void take_symbol(ttf_sym *s, struct modcode *c, int i)
{
    GElf_Sym sym;
    GElf_Addr addr = 0;
    GElf_Word shndx = 0;
    const char *name = dwfl_module_getsym_info(c->dm, i, &sym, &addr, &shndx,
                                               NULL, NULL);
    if (!name || !name[0])
        return;
    int type = GELF_ST_TYPE(sym.st_info);
    if (sym.st_shndx == SHN_UNDEF) {
        c->info.instrumented |= is_hook(name);
        return;
    }
    if (type == STT_OBJECT || type == STT_FUNC || type == STT_GNU_IFUNC ||
        type == STT_NOTYPE)
        c->syms[c->nsyms++] = (struct csym){addr - c->info.bias, sym.st_size, name};
    if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_size == 0)
        return;
    if (is_hook(name) && strcmp(name, "mcount") != 0)
        c->info.instrumented = 1; /* libttcap linked in statically */
    ttf_code_func *f = &c->funcs[c->info.nfuncs++];
    f->symbol = name;
    f->name = ttfi_sym_demangle(s, name);
    f->addr = addr - c->info.bias;
    f->size = sym.st_size;
    f->code = code_bytes(c, f->addr, f->size);
}

static int cmp_sym(const void *a, const void *b)
{
    const struct csym *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    if (x->size != y->size) /* the larger first: the enclosing one */
        return x->size > y->size ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* The symbol holding link-time address a: the nearest start at or below
 * a whose range holds it (a symbol of size 0 only at its address); NULL
 * if none. libdwfl's dwfl_module_addrinfo scans the table per call. */
static const struct csym *sym_at(const struct modcode *c, uint64_t a)
{
    size_t lo = 0, hi = c->nsyms;
    while (lo < hi) { /* first symbol starting above a */
        size_t mid = (lo + hi) / 2;
        if (c->syms[mid].addr <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = lo; k-- > 0 && lo - k <= 16;) {
        const struct csym *y = &c->syms[k];
        if (a - y->addr < y->size || (y->size == 0 && a == y->addr))
            return y;
    }
    return NULL;
}

/* Sort and drop repeats (a symbol in both .symtab and MiniDebugInfo). */
static void sort_funcs(struct modcode *c)
{
    size_t n = c->info.nfuncs, k = 0;
    if (n > 1)                  /* funcs may be NULL: none */
        qsort(c->funcs, n, sizeof *c->funcs, cmp_func);
    for (size_t i = 0; i < n; i++)
        if (!k || cmp_func(&c->funcs[k - 1], &c->funcs[i]) != 0)
            c->funcs[k++] = c->funcs[i];
    c->info.nfuncs = k;
}

static int read_functions(ttf_sym *s, struct modcode *c)
{
    int n = dwfl_module_getsymtab(c->dm);
    if (n < 0)
        n = 0;
    c->funcs = calloc((size_t)n + 1, sizeof *c->funcs);
    c->syms = calloc((size_t)n + 1, sizeof *c->syms);
    if (!c->funcs || !c->syms)
        return TT_ENOMEM;
    for (int i = 1; i < n; i++)
        take_symbol(s, c, i);
    sort_funcs(c);
    if (c->nsyms > 1)           /* syms may be NULL: none */
        qsort(c->syms, c->nsyms, sizeof *c->syms, cmp_sym);
    c->info.funcs = c->funcs;
    return 0;
}

/* Read module i's functions, sections and relocations into a new entry. */
static int load_code(ttf_sym *s, Dwfl_Module *dm, struct modcode **out)
{
    GElf_Addr bias = 0;
    GElf_Ehdr eh;
    const char *file = NULL;
    Elf *elf = dwfl_module_getelf(dm, &bias);
    struct modcode *c;

    if (!elf || !gelf_getehdr(elf, &eh))
        return TT_ENOTFOUND;
    if (!(c = calloc(1, sizeof *c)))
        return TT_ENOMEM;
    c->dm = dm;
    c->info.bias = bias;
    c->info.machine = eh.e_machine;
    c->info.position_dependent = eh.e_type == ET_EXEC;
    dwfl_module_info(dm, NULL, NULL, NULL, NULL, NULL, &file, NULL);
    c->info.file = file ? file : "?";
    int rc = read_sections(c, elf);
    if (!rc)
        rc = read_relocs(c, elf);
    if (!rc)
        rc = read_functions(s, c);
    if (rc) {
        code_free(c);
        return rc;
    }
    *out = c;
    return 0;
}

/* Module i's code entry, read on first need. */
static int code_of(ttf_sym *s, size_t module, struct modcode **out)
{
    Dwfl_Module *dm = NULL;
    struct ttfi_modslot *slot = ttfi_sym_module(s, module, &dm);
    struct modcode *c = NULL;

    if (!slot)
        return TT_EINVAL;
    if (!dm)
        return TT_ENOTFOUND;
    if (!slot->p) {
        int rc = load_code(s, dm, &c);
        if (rc)
            return rc;
        *slot = (struct ttfi_modslot){c, code_free};
    }
    *out = slot->p;
    return 0;
}

int ttf_sym_code(ttf_sym *s, size_t module, const ttf_code_info **out)
{
    struct modcode *c = NULL;

    if (!s || !out)
        return TT_EINVAL;
    *out = NULL;
    int rc = code_of(s, module, &c);
    if (!rc)
        *out = &c->info;
    return rc;
}

/* ---- references ------------------------------------------------------------ */

/* The GOT slot a PLT entry at a jumps through: the `ff 25 disp32` in the
 * entry (after an endbr64 or a bnd prefix), 0 if there is none. */
static uint64_t plt_slot(const struct csec *s, uint64_t a)
{
    uint64_t e = s->addr + ((a - s->addr) & ~(uint64_t)(PLT_ENTRY - 1));
    if (!s->data || e - s->addr + PLT_ENTRY > s->size)
        return 0;
    const uint8_t *p = s->data + (e - s->addr);
    for (int i = 0; i + 6 <= PLT_ENTRY; i++) {
        if (p[i] != 0xff || p[i + 1] != 0x25)
            continue;
        int32_t disp = (int32_t)((uint32_t)p[i + 2] | (uint32_t)p[i + 3] << 8 |
                                 (uint32_t)p[i + 4] << 16 | (uint32_t)p[i + 5] << 24);
        return e + (uint64_t)i + 6 + (uint64_t)(int64_t)disp;
    }
    return 0;
}

/* The 8-byte word stored at a in the file, 0 if none. */
static uint64_t word_at(const struct modcode *c, uint64_t a)
{
    const struct csec *s = sec_of(c, a);
    uint64_t v = 0;
    if (!s || !s->data || a - s->addr + 8 > s->size)
        return 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | s->data[a - s->addr + (uint64_t)i];
    return v;
}

/* A symbol holding a, else the section with its read-only bytes. */
static void plain_ref(const struct modcode *c, const struct csec *s,
                      uint64_t a, ttf_code_ref *out)
{
    const struct csym *y = sym_at(c, a);
    if (y) {
        out->kind = TTF_REF_SYMBOL;
        out->name = y->name;
        out->offset = a - y->addr;
        return;
    }
    out->kind = TTF_REF_DATA;
    out->name = s->name;
    out->offset = a - s->addr;
    if (s->writable || !s->data)
        return;
    const uint8_t *p = s->data + (a - s->addr);
    size_t n = 0, max = s->size - (a - s->addr);
    while (n < max && n < REF_BYTES && p[n++] != 0)
        ;
    out->bytes = p;
    out->nbytes = n;
    out->navail = max;
}

int ttf_sym_code_ref(ttf_sym *s, size_t module, uint64_t addr,
                     ttf_code_ref *out)
{
    struct modcode *c = NULL;

    if (!s || !out)
        return TT_EINVAL;
    memset(out, 0, sizeof *out);
    int rc = code_of(s, module, &c);
    if (rc)
        return rc;
    for (int hop = 0; hop < 2; hop++) { /* a GOT slot's address, once */
        const struct csec *sec = sec_of(c, addr);
        if (!sec)
            return 0;
        uint64_t slot = strncmp(sec->name, ".plt", 4) == 0 ? plt_slot(sec, addr)
                        : strncmp(sec->name, ".got", 4) == 0 ? addr : 0;
        const struct creloc *r = slot ? reloc_at(c, slot) : NULL;
        if (r && r->sym) {
            out->kind = TTF_REF_IMPORT;
            out->name = r->sym;
            return 0;
        }
        if (!slot || hop) {
            plain_ref(c, sec, addr, out);
            return 0;
        }
        addr = r ? r->addend : word_at(c, slot);
    }
    return 0;
}

/* ---- what a function reads (reads.c) ------------------------------------------ */

/* Writable after relocation: the GOT and .data.rel.ro are read-only then
 * (RELRO), so what is read there is no thread's state. */
static int env_writable(void *ctx, uint64_t a)
{
    const struct csec *sec = sec_of(ctx, a);
    if (!sec)
        return -1;
    return sec->writable && strncmp(sec->name, ".got", 4) != 0 &&
           strncmp(sec->name, ".data.rel.ro", 12) != 0;
}

/* The function of c starting at a, NULL if none. */
static const ttf_code_func *func_at(const struct modcode *c, uint64_t a)
{
    size_t lo = 0, hi = c->info.nfuncs;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c->info.funcs[mid].addr < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < c->info.nfuncs && c->info.funcs[lo].addr == a ? &c->info.funcs[lo] : NULL;
}

static int env_callee(void *ctx, uint64_t target, int via_slot, const uint8_t **code,
                      size_t *n)
{
    const struct modcode *c = ctx;
    const struct csec *sec = via_slot ? NULL : sec_of(c, target);
    uint64_t slot = via_slot ? target : sec && !strncmp(sec->name, ".plt", 4) ?
                    plt_slot(sec, target) : 0;
    if (slot) {
        const struct creloc *r = reloc_at(c, slot);
        return r && r->sym && (is_hook(r->sym) || !strcmp(r->sym, "__cyg_profile_func_exit")) ?
               TTFI_CALLEE_HOOK : TTFI_CALLEE_OTHER;
    }
    const ttf_code_func *f = func_at(c, target);
    if (!f || !f->code)
        return TTFI_CALLEE_OTHER;
    *code = f->code;
    *n = (size_t)f->size;
    return TTFI_CALLEE_FUNC;
}

/* The imported symbol a call to target reaches (env_callee's way). */
static const char *env_import(void *ctx, uint64_t target, int via_slot)
{
    const struct modcode *c = ctx;
    const struct csec *sec = via_slot ? NULL : sec_of(c, target);
    uint64_t slot = via_slot ? target : sec && !strncmp(sec->name, ".plt", 4) ?
                    plt_slot(sec, target) : 0;
    const struct creloc *r = slot ? reloc_at(c, slot) : NULL;
    return r ? r->sym : NULL;
}

/* The x86-64 function of module `module` starting at addr, and its
 * file's environment for reads.c: 1 with *f and *env, 0 if none (not a
 * function start, another machine), or the errors of code_of. */
static int reads_func(ttf_sym *s, size_t module, uint64_t addr, const ttf_code_func **f,
                      struct ttfi_reads_env *env)
{
    struct modcode *c = NULL;
    int rc = code_of(s, module, &c);

    if (rc)
        return rc;
    *f = func_at(c, addr);
    if (!*f || !(*f)->code || c->info.machine != EM_X86_64)
        return 0;
    *env = (struct ttfi_reads_env){c, c->info.position_dependent, env_writable, env_callee,
                                   env_import};
    return 1;
}

int ttf_sym_code_reads(ttf_sym *s, size_t module, uint64_t addr, unsigned ptr_args,
                       int *out)
{
    const ttf_code_func *f = NULL;
    struct ttfi_reads_env env;

    if (!s || !out)
        return TT_EINVAL;
    *out = TTF_READS_UNKNOWN;
    int rc = reads_func(s, module, addr, &f, &env);
    if (rc == 1)
        *out = ttfi_code_reads(&env, addr, f->code, (size_t)f->size, ptr_args);
    return rc == 1 ? 0 : rc;
}

int ttf_sym_code_globals(ttf_sym *s, size_t module, uint64_t addr, ttf_code_global *out,
                         size_t cap, size_t *n)
{
    const ttf_code_func *f = NULL;
    struct ttfi_reads_env env;

    if (!s || !n || (cap && !out))
        return TT_EINVAL;
    *n = 0;
    int rc = reads_func(s, module, addr, &f, &env);
    if (rc == 1) {
        long k = ttfi_code_globals(&env, addr, f->code, (size_t)f->size, out, cap);
        *n = k < 0 ? 0 : (size_t)k;
    }
    return rc == 1 ? 0 : rc;
}

int ttf_sym_code_cmpret(ttf_sym *s, size_t module, uint64_t addr, unsigned *out)
{
    const ttf_code_func *f = NULL;
    struct ttfi_reads_env env;
    int rc = s && out ? reads_func(s, module, addr, &f, &env) : TT_EINVAL;

    if (out)
        *out = rc == 1 ? ttfi_code_cmpret(&env, addr, f->code, (size_t)f->size) : 0;
    return rc == 1 ? 0 : rc;
}

/* The fields of fs[0..k) typed (func's parameter's pointee) into out,
 * one entry per (type, offset); the number found. */
static size_t typed_fields(ttf_sym *s, size_t module, uint64_t bias,
                           const struct ttfi_code_field *fs, size_t k, ttf_code_field *out,
                           size_t cap)
{
    const char *pt[6] = {NULL};
    uint64_t have = 0;
    int ok = 0;
    size_t m = 0;

    for (size_t i = 0; i < k; i++) {
        if (i == 0 || fs[i].func != have) {
            have = fs[i].func;
            ok = ttfi_sym_pointees(s, module, have + bias, pt) == 0;
        }
        const char *ty = ok && fs[i].reg >= 0 && fs[i].reg < 6 ? pt[fs[i].reg] : NULL;
        size_t j = 0;
        if (!ty)
            continue;
        while (j < m && j < cap && !(out[j].offset == fs[i].offset && !strcmp(out[j].type, ty)))
            j++;
        if (j < m && j < cap)
            out[j].access |= fs[i].access;
        else if (m++ < cap)
            out[m - 1] = (ttf_code_field){ty, fs[i].offset, fs[i].access};
    }
    return m;
}

int ttf_sym_code_fields(ttf_sym *s, size_t module, uint64_t addr, ttf_code_field *out,
                        size_t cap, size_t *n)
{
    const ttf_code_func *f = NULL;
    struct ttfi_reads_env env;
    struct ttfi_code_field *fs;

    if (!s || !n || (cap && !out))
        return TT_EINVAL;
    *n = 0;
    int rc = reads_func(s, module, addr, &f, &env);
    if (rc != 1)
        return rc;
    if (!(fs = malloc(FIELDS_MAX * sizeof *fs)))
        return TT_ENOMEM;
    long k = ttfi_code_fields(&env, addr, f->code, (size_t)f->size, 0x3f, fs, FIELDS_MAX);
    if (k > 0)
        *n = typed_fields(s, module, ((const struct modcode *)env.ctx)->info.bias, fs,
                          k < FIELDS_MAX ? (size_t)k : FIELDS_MAX, out, cap);
    free(fs);
    return 0;
}
