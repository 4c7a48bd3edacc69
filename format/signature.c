/*
 * signature.c - a function's return type and parameters from its DWARF
 * debug info (libdw), reduced to what comparing values needs: a class per
 * type (ttf_vclass), its size and name, and the integer argument register
 * each parameter arrives in under the x86-64 SysV calling convention.
 * sym.c finds the module and caches the answer per function.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttf_int.h"

#define PARAMS_MAX 64          /* parameters kept per function */
#define INT_REGS 6             /* rdi, rsi, rdx, rcx, r8, r9 */

/* Where the strings and arrays of a signature are allocated. */
struct sig_alloc {
    void *(*alloc)(void *ctx, size_t n); /* NULL when memory runs out */
    void *ctx;                 /* its first argument */
    int oom;                   /* an allocation failed */
};

static const char *copy_str(struct sig_alloc *a, const char *s)
{
    size_t n = strlen(s) + 1;
    char *p = a->alloc(a->ctx, n);
    if (!p) {
        a->oom = 1;
        return "";
    }
    memcpy(p, s, n);
    return p;
}

static int die_type(Dwarf_Die *owner, Dwarf_Die *type)
{
    Dwarf_Attribute at;
    return dwarf_attr_integrate(owner, DW_AT_type, &at) &&
           dwarf_formref_die(&at, type) ? 0 : -1;
}

static Dwarf_Word die_udata(Dwarf_Die *d, unsigned name, Dwarf_Word dflt)
{
    Dwarf_Attribute at;
    Dwarf_Word v;
    if (!dwarf_attr_integrate(d, name, &at) || dwarf_formudata(&at, &v))
        return dflt;
    return v;
}

/* The class of a base type by its DW_AT_encoding. */
static int base_class(Dwarf_Die *t)
{
    switch (die_udata(t, DW_AT_encoding, 0)) {
    case DW_ATE_boolean: return TTF_VC_BOOL;
    case DW_ATE_signed: case DW_ATE_signed_char: return TTF_VC_SIGNED;
    case DW_ATE_unsigned: case DW_ATE_unsigned_char: case DW_ATE_UTF:
        return TTF_VC_UNSIGNED;
    case DW_ATE_float: case DW_ATE_complex_float: return TTF_VC_FLOAT;
    default: return TTF_VC_OTHER;
    }
}

static int is_qualifier(int tag)
{
    return tag == DW_TAG_const_type || tag == DW_TAG_volatile_type ||
           tag == DW_TAG_restrict_type || tag == DW_TAG_atomic_type;
}

/* "name *" for a pointer to a named type, "void *" for void *. */
static const char *pointer_name(struct sig_alloc *a, Dwarf_Die *ptr)
{
    Dwarf_Die to;
    char buf[256];
    if (die_type(ptr, &to))
        return "void *";
    for (int i = 0; i < 8 && is_qualifier(dwarf_tag(&to)); i++)
        if (die_type(&to, &to))
            return "void *";
    const char *n = dwarf_diename(&to);
    int tag = dwarf_tag(&to);
    const char *kw = tag == DW_TAG_structure_type ? "struct "
                   : tag == DW_TAG_union_type ? "union "
                   : tag == DW_TAG_enumeration_type ? "enum " : "";
    if (!n)
        return dwarf_tag(ptr) == DW_TAG_pointer_type ? "pointer" : "reference";
    snprintf(buf, sizeof buf, "%s%s %s", kw, n,
             dwarf_tag(ptr) == DW_TAG_pointer_type ? "*" : "&");
    return copy_str(a, buf);
}

/* Classify the type DIE t (typedefs and qualifiers peeled; the outermost
 * name kept, so "size_t" rather than "long unsigned int"). */
static void classify(struct sig_alloc *a, Dwarf_Die *t, ttf_vtype *ty)
{
    Dwarf_Die p, u;
    Dwarf_Word size = 0;
    const char *name = dwarf_diename(t);

    ty->cls = TTF_VC_OTHER;
    ty->name = name ? name : "";
    if (dwarf_peel_type(t, &p) != 0)
        return;
    int tag = dwarf_tag(&p);
    if (dwarf_aggregate_size(&p, &size) == 0)
        ty->size = size > 64 * 1024 ? 64 * 1024 : (unsigned)size;
    switch (tag) {
    case DW_TAG_pointer_type: case DW_TAG_reference_type:
    case DW_TAG_rvalue_reference_type: case DW_TAG_ptr_to_member_type:
        ty->cls = TTF_VC_POINTER;
        ty->size = 8;
        if (!name)
            ty->name = pointer_name(a, &p);
        return;
    case DW_TAG_base_type:
        ty->cls = base_class(&p);
        return;
    case DW_TAG_enumeration_type:
        ty->cls = TTF_VC_ENUM;
        ty->is_signed = die_type(&p, &u) || base_class(&u) == TTF_VC_SIGNED;
        return;
    default:
        return;
    }
}

/* The type of owner's DW_AT_type, or void when it has none. */
static void read_type(struct sig_alloc *a, Dwarf_Die *owner, ttf_vtype *ty)
{
    Dwarf_Die t;
    memset(ty, 0, sizeof *ty);
    ty->cls = TTF_VC_VOID;
    ty->name = "void";
    if (die_type(owner, &t) == 0)
        classify(a, &t, ty);
}

/* A struct or class passed "by reference" (a C++ type with a non-trivial
 * copy or destructor): the caller passes a pointer to a copy. */
static int by_reference(Dwarf_Die *owner)
{
    Dwarf_Die t, p;
    if (die_type(owner, &t) || dwarf_peel_type(&t, &p))
        return 0;
    return die_udata(&p, DW_AT_calling_convention, 0) == DW_CC_pass_by_reference;
}

/* Integer registers a value of type ty takes (SysV): 0 for floats and for
 * aggregates over 16 bytes (passed in memory). Aggregates of up to 16
 * bytes are taken as INTEGER class (one made of doubles is not: then the
 * registers of later parameters are off). */
static int regs_needed(const ttf_vtype *ty, int byref)
{
    if (byref)
        return 1;
    switch (ty->cls) {
    case TTF_VC_FLOAT: case TTF_VC_VOID: case TTF_VC_UNKNOWN:
        return 0;
    case TTF_VC_OTHER:
        return ty->size == 0 || ty->size > 16 ? 0 : ty->size > 8 ? 2 : 1;
    default:
        return ty->size > 8 ? 2 : 1;
    }
}

/* The formal parameters: the concrete DIE's, else its origin's. */
static int param_list(Dwarf_Die *fn, Dwarf_Die *list, Dwarf_Die *out,
                      size_t max, int *variadic)
{
    Dwarf_Die c;
    size_t n = 0;
    if (dwarf_child(list, &c) != 0)
        return 0;
    do {
        int tag = dwarf_tag(&c);
        if (tag == DW_TAG_unspecified_parameters)
            *variadic = 1;
        if (tag == DW_TAG_formal_parameter && n < max)
            out[n++] = c;
    } while (dwarf_siblingof(&c, &c) == 0);
    (void)fn;
    return (int)n;
}

static int gather_params(Dwarf_Die *fn, Dwarf_Die *out, int *variadic)
{
    Dwarf_Attribute at;
    Dwarf_Die origin;
    int n = param_list(fn, fn, out, PARAMS_MAX, variadic);
    if (n)
        return n;
    if ((dwarf_attr(fn, DW_AT_abstract_origin, &at) ||
         dwarf_attr(fn, DW_AT_specification, &at)) &&
        dwarf_formref_die(&at, &origin))
        n = param_list(fn, &origin, out, PARAMS_MAX, variadic);
    return n;
}

/* The subprogram DIE holding pc (module-relative) in cu. */
static int find_function(Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die *fn)
{
    Dwarf_Die *scopes = NULL;
    int n = dwarf_getscopes(cu, pc, &scopes);
    int found = 0;
    for (int i = 0; i < n && !found; i++) {
        if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram) {
            *fn = scopes[i];
            found = 1;
        }
    }
    free(scopes);
    return found ? 0 : -1;
}

/* Fill sig from the parameter DIEs, assigning registers. */
static int fill_params(struct sig_alloc *a, Dwarf_Die *fn, Dwarf_Die *pd,
                       int n, ttf_signature *sig)
{
    ttf_param *pp = n ? a->alloc(a->ctx, (size_t)n * sizeof *pp) : NULL;
    int next = sig->ret.cls == TTF_VC_OTHER &&
               (sig->ret.size > 16 || by_reference(fn));  /* hidden rdi */
    if (n && !pp)
        return TT_ENOMEM;
    for (int i = 0; i < n; i++) {
        ttf_param *p = &pp[i];
        const char *name = dwarf_diename(&pd[i]);
        p->name = name ? name : "";
        read_type(a, &pd[i], &p->type);
        int need = regs_needed(&p->type, by_reference(&pd[i]));
        p->reg = -1;
        if (need && next + need <= INT_REGS) {
            p->reg = next;
            next += need;
        }
    }
    sig->params = pp;
    sig->nparams = (size_t)n;
    return 0;
}

int ttfi_dwarf_signature(Dwfl_Module *dm, uint64_t addr,
                         void *(*alloc)(void *ctx, size_t n), void *ctx,
                         ttf_signature *sig)
{
    struct sig_alloc a = {alloc, ctx, 0};
    Dwarf_Addr bias = 0;
    Dwarf_Die fn, *pd;

    memset(sig, 0, sizeof *sig);
    Dwarf_Die *cu = dwfl_module_addrdie(dm, addr, &bias);
    if (!cu || find_function(cu, addr - bias, &fn))
        return TT_ENOTFOUND;
    if (!(pd = malloc(PARAMS_MAX * sizeof *pd)))
        return TT_ENOMEM;
    read_type(&a, &fn, &sig->ret);
    int n = gather_params(&fn, pd, &sig->variadic);
    int r = fill_params(&a, &fn, pd, n, sig);
    free(pd);
    return r ? r : a.oom ? TT_ENOMEM : 0;
}

int ttfi_has_dwarf(Dwfl_Module *dm)
{
    Dwarf_Addr bias;
    return dwfl_module_getdwarf(dm, &bias) != NULL;
}
