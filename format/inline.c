/*
 * inline.c - the inline chain of an address from DWARF (libdw): the
 * functions the compiler inlined at that point, innermost first, each with
 * the source line it was at, then the out-of-line function holding them.
 * sym.c finds the module, names the out-of-line function by its symbol
 * and caches the answer per address (ttf_sym_inline).
 *
 * Design. dwarf_getscopes gives the DIEs whose ranges hold the address,
 * innermost first: lexical blocks, then the DW_TAG_inlined_subroutine of
 * the innermost inlined copy; past it, it goes on with the scopes of the
 * copy's abstract origin (the unit), not with what the copy was inlined
 * into. So the path out of the innermost copy is asked again with
 * dwarf_getscopes_die, which follows the DIE's own parents: the enclosing
 * copies and the concrete DW_TAG_subprogram. Each copy is one frame, named
 * through its DW_AT_abstract_origin (the copy carries no name); the line
 * where it was inlined into the frame around it is its own DW_AT_call_file
 * / DW_AT_call_line (an index into the unit's file table). The innermost
 * frame's line is the address's own, from the line table (inside a copy
 * that is the helper's source line). The subprogram ends the chain; scopes
 * without one (broken DWARF) give no chain: TT_ENOTFOUND.
 *
 * A call site is asked as return address - 1 (the caller does that): the
 * return address itself may already be past the inlined copy's range
 * when the call is its last instruction.
 *
 * The other way round (ttfi_dwarf_inlined_in): the functions inlined into
 * a function, anywhere in its body. The DW_TAG_subprogram is found as for
 * a chain (the last function scope of the address); its DIE tree is then
 * walked down: a DW_TAG_inlined_subroutine is one function (named through
 * its abstract origin) at the depth of copies it sits in (1: inlined into
 * the function itself, 2: into a function inlined there...); lexical
 * blocks are walked through; nested subprograms, variables and call sites
 * are not. Each function is kept once, at its deepest copy. The walk is
 * bounded (WALK_DIES DIEs, WALK_DEPTH levels), and so is the answer.
 * Stage 1 dwarf of format/STAGES.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdlib.h>
#include <string.h>

#include "ttf_int.h"

#define CHAIN_MAX 64           /* frames kept per address (deeper: cut) */
#define WALK_DIES 200000       /* DIEs visited per function at most */
#define WALK_DEPTH 64          /* DIE levels walked down at most */
#define FOUND_MAX 256          /* distinct inlined functions kept per function */

/* The name of a DIE, following DW_AT_abstract_origin / DW_AT_specification;
 * C++: the linkage name when there is one (the caller demangles it). */
static const char *die_name(Dwarf_Die *die)
{
    Dwarf_Attribute at;
    const char *n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_linkage_name, &at));

    if (!n)
        n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &at));
    if (!n)
        n = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &at));
    return n;
}

/* File number idx of cu's line table, NULL if none. */
static const char *unit_file(Dwarf_Die *cu, Dwarf_Word idx)
{
    Dwarf_Files *files = NULL;
    size_t n = 0;

    if (dwarf_getsrcfiles(cu, &files, &n) != 0 || idx >= n)
        return NULL;
    return dwarf_filesrc(files, idx, NULL, NULL);
}

/* The file a DIE was declared in, NULL if unknown. Not dwarf_decl_file:
 * libdw 0.188 asserts in it on a split unit (clang -gsplit-dwarf) whose
 * line table was taken from the skeleton without its file table; the
 * index is looked up here in the file table of the unit that holds the
 * attribute (an abstract origin may sit in another unit). */
static const char *decl_file(Dwarf_Die *die)
{
    Dwarf_Attribute at;
    Dwarf_Word idx = 0;
    Dwarf_Half version = 0;
    Dwarf_Die unit;

    if (dwarf_formudata(dwarf_attr_integrate(die, DW_AT_decl_file, &at), &idx) != 0 ||
        !at.cu)
        return NULL;
    if (!dwarf_cu_die(at.cu, &unit, &version, NULL, NULL, NULL, NULL, NULL))
        return NULL;
    /* file 0 is the unit's own file from DWARF 5 on, "none" before */
    return idx == 0 && version < 5 ? NULL : unit_file(&unit, idx);
}

/* The class whose member function fn is, through the type of its object
 * pointer (`this`, a lambda's `__closure`: a pointer to the class, maybe
 * const); 0 with *cls, or -1. */
static int member_class(Dwarf_Die *fn, Dwarf_Die *cls)
{
    Dwarf_Attribute at;
    Dwarf_Die t;

    if (!dwarf_attr_integrate(fn, DW_AT_object_pointer, &at) || !dwarf_formref_die(&at, &t))
        return -1;
    for (int i = 0; i < 8; i++) {
        if (!dwarf_attr_integrate(&t, DW_AT_type, &at) || !dwarf_formref_die(&at, &t))
            return -1;
        int tag = dwarf_tag(&t);
        if (tag == DW_TAG_structure_type || tag == DW_TAG_class_type || tag == DW_TAG_union_type) {
            *cls = t;
            return 0;
        }
        if (tag != DW_TAG_pointer_type && tag != DW_TAG_const_type &&
            tag != DW_TAG_volatile_type && tag != DW_TAG_typedef && tag != DW_TAG_reference_type)
            return -1;
    }
    return -1;
}

/* Where function DIE fn is defined: its DW_AT_decl_file / _line; a
 * function the compiler made that carries none (gcc: a lambda's
 * operator(), artificial) is defined where its class is (the lambda's
 * line). *file NULL and *line 0 when unknown. */
static void decl_of(Dwarf_Die *fn, const char **file, int *line)
{
    Dwarf_Attribute at;
    Dwarf_Die cls;
    bool art = false;

    if (dwarf_formflag(dwarf_attr_integrate(fn, DW_AT_artificial, &at), &art) != 0)
        art = false;

    if (dwarf_decl_line(fn, line) != 0)
        *line = 0;
    *file = decl_file(fn);
    if (*line > 0 || !art || member_class(fn, &cls))
        return;
    if (dwarf_decl_line(&cls, line) != 0)
        *line = 0;
    *file = *line > 0 ? decl_file(&cls) : NULL;
}

/* Where inlined copy `die` was inlined into the scope around it. */
static void call_pos(Dwarf_Die *cu, Dwarf_Die *die, const char **file, int *line)
{
    Dwarf_Attribute at;
    Dwarf_Word w = 0;

    *file = NULL;
    *line = 0;
    if (dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &at), &w) == 0)
        *file = unit_file(cu, w);
    if (dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &at), &w) == 0 &&
        w <= INT32_MAX)
        *line = (int)w;
}

/* Index of the first line of the table (sorted by address) at or past a. */
static size_t first_at(Dwarf_Lines *lines, size_t n, Dwarf_Addr a)
{
    size_t lo = 0, hi = n;

    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        Dwarf_Addr m = 0;
        Dwarf_Line *l = dwarf_onesrcline(lines, mid);
        if (l && dwarf_lineaddr(l, &m) == 0 && m < a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The last line of function fn's body: the largest line the line table
 * gives its code (every range of it: a hot/cold split has two) in its own
 * file; 0 if unknown. */
static int end_line(Dwarf_Die *cu, Dwarf_Die *fn)
{
    Dwarf_Lines *lines = NULL;
    size_t n = 0;
    Dwarf_Addr base, lo, hi, a = 0;
    ptrdiff_t off = 0;
    const char *file = decl_file(fn);
    int last = 0, no = 0;

    if (!file || dwarf_getsrclines(cu, &lines, &n) != 0)
        return 0;
    while ((off = dwarf_ranges(fn, off, &base, &lo, &hi)) > 0) {
        for (size_t i = first_at(lines, n, lo); i < n; i++) {
            Dwarf_Line *l = dwarf_onesrcline(lines, i);
            if (!l || dwarf_lineaddr(l, &a) || a >= hi)
                break;
            if (dwarf_lineno(l, &no) || no <= last)
                continue;
            const char *f = dwarf_linesrc(l, NULL, NULL);
            last = f && !strcmp(f, file) ? no : last;
        }
    }
    return last;
}

/* The frames of scopes[0..n) (innermost first, the concrete tree) into fr (room for
 * CHAIN_MAX); the count, 0 if no subprogram ends them. fr[0].file/line
 * are left for the caller (the address's own line). */
static size_t fill_frames(Dwarf_Die *cu, Dwarf_Die *scopes, int n,
                          ttf_inline_frame *fr)
{
    size_t k = 0;
    const char *file = NULL;
    int line = 0;

    for (int i = 0; i < n && k < CHAIN_MAX; i++) {
        int tag = dwarf_tag(&scopes[i]);
        if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram)
            continue;
        ttf_inline_frame *f = &fr[k++];
        f->function = die_name(&scopes[i]);
        f->file = file;
        f->line = line;
        decl_of(&scopes[i], &f->decl_file, &f->decl_line);
        if (tag == DW_TAG_subprogram) {
            f->end_line = end_line(cu, &scopes[i]);
            return k;
        }
        f->inlined = 1;
        call_pos(cu, &scopes[i], &file, &line);
    }
    return 0;
}

/* The scopes holding pc, innermost first, through the concrete tree:
 * dwarf_getscopes continues an inlined copy with its abstract origin's
 * scopes (the unit), so the path from the innermost function scope out
 * is asked again with dwarf_getscopes_die, which follows the DIE's real
 * parents (the copies and the subprogram it was inlined into). The count
 * (*scopes malloc'd), 0 or -1 if none. */
static int concrete_scopes(Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die **scopes)
{
    Dwarf_Die *first = NULL;
    int n = dwarf_getscopes(cu, pc, &first), i = 0;

    if (n <= 0) {               /* none (or libdw's error): first is unset */
        free(first);
        *scopes = NULL;
        return n;
    }
    while (i < n && dwarf_tag(&first[i]) != DW_TAG_inlined_subroutine &&
           dwarf_tag(&first[i]) != DW_TAG_subprogram)
        i++;
    if (i == n || dwarf_tag(&first[i]) == DW_TAG_subprogram) {
        *scopes = first;
        return n;
    }
    int m = dwarf_getscopes_die(&first[i], scopes);
    free(first);
    return m;
}

/* path made absolute with the unit's DW_AT_comp_dir when it is relative
 * (gcc names the files as given on its command line); path itself when
 * absolute, NULL, or memory runs out. */
static const char *absolute(Dwarf_Die *cu, const char *path,
                            void *(*alloc)(void *ctx, size_t n), void *ctx)
{
    Dwarf_Attribute at;
    const char *dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &at));

    if (!path || path[0] == '/' || !dir || dir[0] != '/')
        return path;
    size_t nd = strlen(dir), np = strlen(path);
    char *full = alloc(ctx, nd + np + 2);
    if (!full)
        return path;
    memcpy(full, dir, nd);
    full[nd] = '/';
    memcpy(full + nd + 1, path, np + 1);
    return full;
}

int ttfi_dwarf_inline(Dwfl_Module *dm, struct ttfi_cumap **map, uint64_t addr,
                      void *(*alloc)(void *ctx, size_t n), void *ctx,
                      ttf_inline_frame **out, size_t *nout)
{
    Dwarf_Addr bias = 0;
    Dwarf_Die cu, *scopes = NULL;
    ttf_inline_frame fr[CHAIN_MAX];

    *out = NULL;
    *nout = 0;
    int rc = ttfi_dwarf_unit(dm, map, addr, &cu, &bias);
    if (rc)
        return rc;
    memset(fr, 0, sizeof fr);
    int n = concrete_scopes(&cu, addr - bias, &scopes);
    size_t k = n > 0 ? fill_frames(&cu, scopes, n, fr) : 0;
    free(scopes);
    if (k == 0)
        return TT_ENOTFOUND;
    rc = ttfi_dwarf_line(dm, map, addr, &fr[0].file, &fr[0].line);
    if (rc == TT_ENOMEM)
        return TT_ENOMEM;
    if (rc) {
        fr[0].file = NULL;
        fr[0].line = 0;
    }
    ttf_inline_frame *copy = alloc(ctx, k * sizeof *copy);
    if (!copy)
        return TT_ENOMEM;
    for (size_t i = 0; i < k; i++) {
        fr[i].file = absolute(&cu, fr[i].file, alloc, ctx);
        fr[i].decl_file = absolute(&cu, fr[i].decl_file, alloc, ctx);
    }
    memcpy(copy, fr, k * sizeof *copy);
    *out = copy;
    *nout = k;
    return 0;
}

/* ---- the functions inlined into a function ------------------------------ */

/* One inlined function found by the walk. */
struct found {
    Dwarf_Die die;              /* its first copy at the depth kept */
    const char *name;           /* its name (into the module's data) */
    int depth;                  /* deepest copy's depth */
    int copies;                 /* copies seen */
    size_t order;               /* first seen (a tie-breaker) */
};

/* The walk's state. */
struct walk {
    struct found f[FOUND_MAX];
    size_t n;
    size_t dies;                /* DIEs visited */
};

/* Record inlined copy die at depth. */
static void note_copy(struct walk *w, Dwarf_Die *die, int depth)
{
    const char *name = die_name(die);

    if (!name)
        return;
    for (size_t i = 0; i < w->n; i++) {
        if (strcmp(w->f[i].name, name) != 0)
            continue;
        w->f[i].copies++;
        if (depth > w->f[i].depth) {
            w->f[i].depth = depth;
            w->f[i].die = *die;
        }
        return;
    }
    if (w->n == FOUND_MAX)
        return;
    w->f[w->n] = (struct found){*die, name, depth, 1, w->n};
    w->n++;
}

/* Walk the children of parent, at copy depth depth (level: DIE levels). */
static void walk_children(struct walk *w, Dwarf_Die *parent, int depth, int level)
{
    Dwarf_Die child;

    if (level >= WALK_DEPTH || dwarf_child(parent, &child) != 0)
        return;
    do {
        if (++w->dies > WALK_DIES)
            return;
        int tag = dwarf_tag(&child);
        if (tag == DW_TAG_inlined_subroutine) {
            note_copy(w, &child, depth + 1);
            walk_children(w, &child, depth + 1, level + 1);
        } else if (tag == DW_TAG_lexical_block || tag == DW_TAG_try_block ||
                   tag == DW_TAG_catch_block) {
            walk_children(w, &child, depth, level + 1);
        }
    } while (dwarf_siblingof(&child, &child) == 0);
}

/* Deepest first, then in the order found. */
static int found_cmp(const void *x, const void *y)
{
    const struct found *a = x, *b = y;

    if (a->depth != b->depth)
        return a->depth > b->depth ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* The concrete DW_TAG_subprogram holding pc into *fn. 0 or TT_ENOTFOUND. */
static int subprogram_at(Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die *fn)
{
    Dwarf_Die *scopes = NULL;
    int n = concrete_scopes(cu, pc, &scopes), found = 0;

    for (int i = 0; i < n && !found; i++) {
        if (dwarf_tag(&scopes[i]) != DW_TAG_subprogram)
            continue;
        *fn = scopes[i];
        found = 1;
    }
    free(scopes);
    return found ? 0 : TT_ENOTFOUND;
}

int ttfi_dwarf_inlined_in(Dwfl_Module *dm, struct ttfi_cumap **map, uint64_t addr,
                          void *(*alloc)(void *ctx, size_t n), void *ctx,
                          ttf_inlined *out, size_t max, size_t *nout)
{
    Dwarf_Addr bias = 0;
    Dwarf_Die cu, fn;
    struct walk *w;

    *nout = 0;
    int rc = ttfi_dwarf_unit(dm, map, addr, &cu, &bias);
    if (rc)
        return rc;
    if ((rc = subprogram_at(&cu, addr - bias, &fn)) != 0)
        return rc;
    if (!(w = calloc(1, sizeof *w)))
        return TT_ENOMEM;
    walk_children(w, &fn, 0, 0);
    if (w->n > 1)
        qsort(w->f, w->n, sizeof *w->f, found_cmp);
    size_t k = w->n < max ? w->n : max;
    for (size_t i = 0; i < k; i++) {
        ttf_inlined *o = &out[i];
        memset(o, 0, sizeof *o);
        o->function = w->f[i].name;
        o->depth = w->f[i].depth;
        o->copies = w->f[i].copies;
        decl_of(&w->f[i].die, &o->decl_file, &o->decl_line);
        o->decl_file = absolute(&cu, o->decl_file, alloc, ctx);
    }
    *nout = k;
    free(w);
    return 0;
}
