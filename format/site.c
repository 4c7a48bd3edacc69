/*
 * site.c - where a call site is (format 1.2, FORMAT.md 4.3): the module
 * holding a recorded return address, the function holding the call and the
 * offset of the return address in it, and the call's source line.
 *
 * Design. A call site is an absolute address of one run. What is stable
 * across runs is what holds it: the module and the offset in it (ASLR
 * moves only the base), and across rebuilds the calling function and the
 * call's line relative to that function's first line (unrelated code moves
 * neither). The function comes from the module's symbol table as
 * ttf_sym_code reads it once per module (functions by address, aliases
 * listed), found by binary search on the call instruction's address (the
 * return address minus one: a call that ends its function, say to a
 * noreturn function, returns to the next function's first byte). Lines come
 * from ttf_sym_line. Only public interfaces of libttfmt are used.
 * Stage 8 sites of format/STAGES.
 */
#include <string.h>

#include "ttf_int.h"

/* The module holding addr: its index, or -1. A module unloaded and
 * another loaded at the same place: the later one. */
static int module_of(const ttf_trace *t, uint64_t addr)
{
    int found = -1;
    for (size_t i = 0; i < ttf_module_count(t); i++) {
        const ttf_module *m = ttf_get_module(t, i);
        if (addr >= m->base && addr - m->base < (m->size ? m->size : 1))
            found = (int)i;
    }
    return found;
}

/* The function of info holding link-time address a, or NULL. */
static const ttf_code_func *func_at(const ttf_code_info *info, uint64_t a)
{
    size_t lo = 0, hi = info->nfuncs;
    while (lo < hi) {               /* first function starting above a */
        size_t mid = lo + (hi - lo) / 2;
        if (info->funcs[mid].addr <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    while (lo > 0) {                /* an alias or a nested symbol may end first */
        const ttf_code_func *f = &info->funcs[--lo];
        if (a - f->addr < f->size)
            return f;
        if (info->funcs[lo].addr + (1u << 20) < a)
            break;
    }
    return NULL;
}

int ttf_sym_site(ttf_sym *s, const ttf_trace *t, uint64_t site,
                 ttf_site_where *out)
{
    const ttf_code_info *info;

    if (!s || !t || !out)
        return TT_EINVAL;
    memset(out, 0, sizeof *out);
    out->module = -1;
    if (!site)
        return TT_ENOTFOUND;
    int m = module_of(t, site - 1);
    if (m < 0)
        return TT_ENOTFOUND;
    out->module = m;
    out->module_offset = site - ttf_get_module(t, (size_t)m)->base;
    int rc = ttf_sym_code(s, (size_t)m, &info);
    if (rc == TT_ENOMEM)
        return rc;
    const ttf_code_func *f = rc == 0 ? func_at(info, site - 1 - info->bias) : NULL;
    if (f) {
        out->caller = f->name;
        out->caller_addr = f->addr + info->bias;
        out->caller_offset = site - out->caller_addr;
        out->caller_code = f->code;
        out->caller_size = f->size;
    }
    const char *file;
    int line, first;
    if (ttf_sym_line(s, site - 1, &file, &line) == 0) {
        out->file = file;
        out->line = line;
        if (f && ttf_sym_line(s, out->caller_addr, &file, &first) == 0 &&
            strcmp(file, out->file) == 0)
            out->caller_line = first;
    }
    return 0;
}
