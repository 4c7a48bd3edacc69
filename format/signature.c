/*
 * signature.c - a function's return type and parameters from its DWARF
 * debug info (libdw), reduced to what comparing values needs: a class per
 * type (ttf_vclass), its size and name, and the integer argument register
 * each parameter arrives in under the x86-64 SysV calling convention (the
 * psABI's classes of each type: abi.c).
 * sym.c finds the module and caches the answer per function.
 *
 * The compile unit of an address: libdwfl finds it through .debug_aranges,
 * which clang does not emit (nor does gcc for every object); then a map of
 * the units' own ranges (DW_AT_low_pc/high_pc or DW_AT_ranges, DWARF 4 or
 * 5), built once per module on first need, finds it instead. Source lines
 * go through the same fallback.
 *
 * gcc's clones (".constprop.N", ".isra.N", ".part.N", ".cold") do not keep
 * the declared signature: a constant argument is dropped, a pointer to a
 * struct becomes the one field used, a split-off part takes what the split
 * needs. Their registers are read from the clone's own DWARF instead: its
 * concrete DW_TAG_subprogram lists formal parameters (each with
 * DW_AT_abstract_origin to the declared one) whose location at the entry
 * pc is a register (DW_OP_reg5 = rdi ...) only when the value really
 * arrives there; any other location (a constant, an implicit pointer, a
 * GNU_parameter_ref to a replaced pointer) and any parameter the clone
 * does not list leaves that parameter without a register (not shown, not
 * compared). An .isra clone may also drop its return value, which DWARF
 * does not say: its return is not compared.
 * Stage 1 dwarf of format/STAGES.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ttf_int.h"
#include "ttf_util.h"

#define PARAMS_MAX 64          /* parameters kept per function */
#define INT_REGS 6             /* rdi, rsi, rdx, rcx, r8, r9 */
#define SSE_REGS 8             /* xmm0..xmm7 */
#define CU_RANGES_MAX (1u << 22) /* unit ranges kept per module */
#define ENUMS_MAX 4096         /* enumerators kept per enumeration */
#define FIELDS_MAX 16          /* scalar fields of a small aggregate */

/* One address range of a compile unit. */
struct cu_range {
    Dwarf_Addr lo, hi;         /* [lo, hi), module addresses (no bias) */
    Dwarf_Die cu;              /* the unit's DIE */
};

/* A module's compile units by address, for when libdwfl's lookup fails. */
struct ttfi_cumap {
    struct cu_range *r;        /* n ranges sorted by lo */
    size_t n, cap;
    Dwarf_Addr bias;           /* the module's DWARF load bias */
    int ok;                    /* 1: built (r may still be empty) */
};

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

/* The class of a base type by its DW_AT_encoding. */
static int base_class(Dwarf_Die *t)
{
    switch (ttfi_die_udata(t, DW_AT_encoding, 0)) {
    case DW_ATE_boolean: return TTF_VC_BOOL;
    case DW_ATE_signed: case DW_ATE_signed_char: return TTF_VC_SIGNED;
    case DW_ATE_unsigned: case DW_ATE_unsigned_char: case DW_ATE_UTF:
        return TTF_VC_UNSIGNED;
    case DW_ATE_float: return TTF_VC_FLOAT;    /* complex: OTHER */
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
    if (ttfi_die_type(ptr, &to))
        return "void *";
    for (int i = 0; i < 8 && is_qualifier(dwarf_tag(&to)); i++)
        if (ttfi_die_type(&to, &to))
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

/* An enumerator's DW_AT_const_value as a 64-bit pattern: sdata is signed,
 * data1..8 and udata are taken as written. -1 when it has none. */
static int enumerator_value(Dwarf_Die *e, uint64_t *v)
{
    Dwarf_Attribute at;
    Dwarf_Sword sv;
    Dwarf_Word uv;
    if (!dwarf_attr(e, DW_AT_const_value, &at))
        return -1;
    if (dwarf_whatform(&at) == DW_FORM_sdata) {
        if (dwarf_formsdata(&at, &sv))
            return -1;
        *v = (uint64_t)sv;
        return 0;
    }
    if (dwarf_formudata(&at, &uv))
        return -1;
    *v = uv;
    return 0;
}

/* The enumerators of the enumeration DIE en into ty (ty's size and sign
 * already set: values are stored in ttf_value_norm's form). At most
 * ENUMS_MAX. A failed allocation sets a->oom. */
static void read_enumerators(struct sig_alloc *a, Dwarf_Die *en, ttf_vtype *ty)
{
    Dwarf_Die c;
    size_t n = 0;
    if (dwarf_child(en, &c) != 0)
        return;
    do {
        n += dwarf_tag(&c) == DW_TAG_enumerator;
    } while (n < ENUMS_MAX && dwarf_siblingof(&c, &c) == 0);
    ttf_enumerator *e = n ? a->alloc(a->ctx, n * sizeof *e) : NULL;
    if (!e || dwarf_child(en, &c) != 0) {
        a->oom |= n && !e;
        return;
    }
    size_t k = 0;
    do {
        uint64_t v;
        const char *name = dwarf_diename(&c);
        if (dwarf_tag(&c) != DW_TAG_enumerator || !name || enumerator_value(&c, &v))
            continue;
        e[k].name = name;
        e[k++].value = ttf_value_norm(v, ty);
    } while (k < n && dwarf_siblingof(&c, &c) == 0);
    ty->enums = k ? e : NULL;
    ty->nenums = k;
}

static void classify(struct sig_alloc *a, Dwarf_Die *t, ttf_vtype *ty);

/* Where flatten() puts the scalar fields of a small aggregate. */
struct fields {
    ttf_field f[FIELDS_MAX];
    size_t n;
};

static int flatten(struct sig_alloc *a, Dwarf_Die *t, Dwarf_Word off, const char *name,
                   struct fields *fs, int depth);

/* The members of the struct or class rec at offset off, named after
 * prefix ("in." ...). -1 for what flatten cannot show. */
static int flatten_record(struct sig_alloc *a, Dwarf_Die *rec, Dwarf_Word off,
                          const char *prefix, struct fields *fs, int depth)
{
    Dwarf_Die m;
    char name[128];
    if (dwarf_child(rec, &m) != 0)
        return 0;
    do {
        int tag = dwarf_tag(&m);
        Dwarf_Attribute at;
        if (tag == DW_TAG_inheritance)
            return -1;          /* gdb shows bases apart: not flattened */
        if (tag != DW_TAG_member || dwarf_attr_integrate(&m, DW_AT_external, &at) ||
            dwarf_attr_integrate(&m, DW_AT_declaration, &at))
            continue;
        Dwarf_Word mo = ttfi_die_udata(&m, DW_AT_data_member_location, (Dwarf_Word)-1);
        const char *mn = dwarf_diename(&m);
        Dwarf_Die mt;
        if (!mn || mo == (Dwarf_Word)-1 || dwarf_attr(&m, DW_AT_bit_size, &at) ||
            ttfi_die_type(&m, &mt))
            return -1;          /* unnamed, a location expression, a bit-field */
        snprintf(name, sizeof name, "%s%s%s", prefix, *prefix ? "." : "", mn);
        if (flatten(a, &mt, off + mo, name, fs, depth + 1))
            return -1;
    } while (dwarf_siblingof(&m, &m) == 0);
    return 0;
}

/* The scalars of the type DIE t at offset off, named name: appended to fs.
 * 0, or -1 for a union, a bit-field, a base class or another type that is
 * not a scalar, a struct or an array of them. */
static int flatten(struct sig_alloc *a, Dwarf_Die *t, Dwarf_Word off, const char *name,
                   struct fields *fs, int depth)
{
    Dwarf_Die p, el;
    Dwarf_Word size = 0, esize = 0;
    char en[128];
    if (depth > 8 || dwarf_peel_type(t, &p) != 0)
        return -1;
    int tag = dwarf_tag(&p);
    if (tag == DW_TAG_structure_type || tag == DW_TAG_class_type)
        return flatten_record(a, &p, off, name, fs, depth);
    if (tag == DW_TAG_array_type) {
        if (ttfi_die_type(&p, &el) || dwarf_aggregate_size(&p, &size) ||
            dwarf_aggregate_size(&el, &esize) || esize == 0)
            return -1;
        for (Dwarf_Word i = 0; i < size / esize; i++) {
            snprintf(en, sizeof en, "%s[%u]", name, (unsigned)i);
            if (flatten(a, &el, off + i * esize, en, fs, depth + 1))
                return -1;
        }
        return 0;
    }
    if (fs->n == FIELDS_MAX)
        return -1;
    ttf_field *f = &fs->f[fs->n];
    memset(f, 0, sizeof *f);
    classify(a, t, &f->type);
    if (f->type.cls == TTF_VC_OTHER || f->type.cls == TTF_VC_UNKNOWN ||
        f->type.size == 0 || f->type.size > 8 || off + f->type.size > 16)
        return -1;
    f->name = copy_str(a, name);
    f->offset = (unsigned)off;
    fs->n++;
    return 0;
}

/* The fields of a struct or class p of at most 16 bytes into ty (none
 * when flatten cannot show it: it prints as raw eightbytes). */
static void read_fields(struct sig_alloc *a, Dwarf_Die *p, ttf_vtype *ty)
{
    struct fields fs;
    fs.n = 0;
    if (ty->size == 0 || ty->size > 16 || flatten_record(a, p, 0, "", &fs, 0) || !fs.n)
        return;
    ttf_field *f = a->alloc(a->ctx, fs.n * sizeof *f);
    if (!f) {
        a->oom = 1;
        return;
    }
    memcpy(f, fs.f, fs.n * sizeof *f);
    ty->fields = f;
    ty->nfields = fs.n;
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
        ty->is_signed = ttfi_die_type(&p, &u) || base_class(&u) == TTF_VC_SIGNED;
        read_enumerators(a, &p, ty);
        return;
    case DW_TAG_structure_type: case DW_TAG_class_type:
        read_fields(a, &p, ty);
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
    if (ttfi_die_type(owner, &t) == 0)
        classify(a, &t, ty);
}

/* Where the value of owner's type travels (abi.c); unknown: *pl zeroed
 * and -1. A type libttfmt knows no DWARF for is unknown too. */
static int place_of(Dwarf_Die *owner, const ttf_vtype *ty, struct ttfi_place *pl)
{
    if (ty->cls == TTF_VC_UNKNOWN)
        return -1;
    return ttfi_abi_place(owner, pl);
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

/* 1 if the function fn returns its value through a hidden pointer in rdi
 * (sret: a class in memory or passed by reference). */
static int returns_in_memory(Dwarf_Die *fn, const ttf_vtype *ret)
{
    struct ttfi_place pl;
    if (ret->cls == TTF_VC_VOID || ret->cls == TTF_VC_FLOAT)
        return 0;               /* long double returns in st0 */
    if (place_of(fn, ret, &pl) != 0)
        return ret->cls == TTF_VC_OTHER && ret->size > 16;
    return pl.mem || pl.byref;
}

/* An aggregate passed in registers: each eightbyte takes the next integer
 * or SSE register by its class (reg the first's, reg2 the second's; an SSE
 * one is dropped with the other in traces without SSE values, sym.c). */
static void place_eightbytes(ttf_param *p, const struct ttfi_place *pl, int next, int sse)
{
    int slot[2] = {-1, -1};
    for (int k = 0; k < 2; k++) {
        if (pl->eb[k] == TTFI_EB_INT)
            slot[k] = next++;
        else if (pl->eb[k] == TTFI_EB_SSE)
            slot[k] = TTF_XMM_SLOT(sse++);
    }
    p->reg = slot[0];
    p->reg2 = slot[0] >= 0 ? slot[1] : -1;
}

/* Fill sig from the parameter DIEs, assigning registers: integer ones
 * (rdi..r9) and SSE ones (xmm0..7) in order, a parameter that does not fit
 * entirely going in memory and taking none. After a parameter whose
 * placement is unknown no later parameter has a register: never a value
 * read from the wrong one. */
static int fill_params(struct sig_alloc *a, Dwarf_Die *fn, Dwarf_Die *pd,
                       int n, ttf_signature *sig)
{
    ttf_param *pp = n ? a->alloc(a->ctx, (size_t)n * sizeof *pp) : NULL;
    int next = returns_in_memory(fn, &sig->ret), sse = 0, lost = 0;
    if (n && !pp)
        return TT_ENOMEM;
    for (int i = 0; i < n; i++) {
        ttf_param *p = &pp[i];
        struct ttfi_place pl;
        const char *name = dwarf_diename(&pd[i]);
        p->name = name ? name : "";
        read_type(a, &pd[i], &p->type);
        p->reg = p->reg2 = -1;
        p->byref = p->mem = 0;
        lost |= place_of(&pd[i], &p->type, &pl) != 0;
        if (lost)
            continue;
        if (pl.mem || next + pl.nint > INT_REGS || sse + pl.nsse > SSE_REGS) {
            p->mem = 1;         /* and it takes no register */
            continue;
        }
        p->byref = pl.byref;
        if (p->type.cls == TTF_VC_OTHER && !pl.byref)
            place_eightbytes(p, &pl, next, sse);
        else if (pl.nint)
            p->reg = next;
        else if (pl.nsse == 1 && ttf_value_comparable(&p->type) &&
                 p->type.cls == TTF_VC_FLOAT)
            p->reg = TTF_XMM_SLOT(sse);     /* dropped without SSE values (sym.c) */
        next += pl.nint;
        sse += pl.nsse;
    }
    sig->params = pp;
    sig->nparams = (size_t)n;
    return 0;
}

/* A struct or union result in registers: rax and xmm0 are recorded, rdx
 * and xmm1 (a second eightbyte of the same class) are not. */
static void ret_eightbytes(Dwarf_Die *fn, ttf_signature *sig)
{
    struct ttfi_place pl;
    int ni = 0, ns = 0;
    if (sig->ret.cls != TTF_VC_OTHER || sig->ret.size == 0 || sig->ret.size > 16 ||
        place_of(fn, &sig->ret, &pl) != 0 || pl.mem || pl.byref)
        return;
    for (int k = 0; k < 2; k++) {
        if (pl.eb[k] == TTFI_EB_INT)
            sig->ret_eb[k] = ni++ ? -1 : TTF_RET_RAX;
        else if (pl.eb[k] == TTFI_EB_SSE)
            sig->ret_eb[k] = ns++ ? -1 : TTF_RET_XMM0;
    }
    if (sig->ret_eb[0] < 0 || sig->ret_eb[1] < 0)
        sig->ret_eb[0] = sig->ret_eb[1] = TTF_RET_UNREC;
}

/* ---- gcc clones ---------------------------------------------------------- */

/* 1 if the symbol is a gcc clone whose signature may differ from the
 * declared one (an .isra clone sets *isra). */
static int clone_name(const char *sym, int *isra)
{
    *isra = sym && strstr(sym, ".isra.") != NULL;
    return sym && (*isra || strstr(sym, ".constprop.") || strstr(sym, ".part.") ||
                   strstr(sym, ".cold"));
}

/* The argument register (0..5 = rdi..r9, TTF_XMM_SLOT(k) = xmm_k) a
 * parameter's location names at pc, -1 if it is not one register. */
static int entry_reg(Dwarf_Die *param, Dwarf_Addr pc)
{
    static const int dwarf_to_arg[10] = {-1, 2, 3, -1, 1, 0, -1, -1, 4, 5};
    Dwarf_Attribute at;
    Dwarf_Op *ops = NULL;
    size_t nops = 0;
    if (!dwarf_attr(param, DW_AT_location, &at) ||
        dwarf_getlocation_addr(&at, pc, &ops, &nops, 1) != 1 || nops != 1)
        return -1;
    unsigned r = ops[0].atom == DW_OP_regx ? (unsigned)ops[0].number
                 : ops[0].atom >= DW_OP_reg0 && ops[0].atom <= DW_OP_reg31
                 ? (unsigned)(ops[0].atom - DW_OP_reg0) : 99u;
    if (r >= 17 && r < 17 + TTF_XMM_REGS)
        return TTF_XMM_SLOT(r - 17);    /* xmm0..7 (DWARF 17..24) */
    return r < 10 ? dwarf_to_arg[r] : -1;
}

/* A clone's registers: for each declared parameter pd[i] (of the origin),
 * the register the clone's own parameter for it arrives in at pc. */
static void clone_regs(Dwarf_Die *fn, Dwarf_Addr pc, Dwarf_Die *pd, int n,
                       ttf_signature *sig)
{
    ttf_param *pp = (ttf_param *)sig->params;
    Dwarf_Die c, origin;
    Dwarf_Attribute at;
    for (int i = 0; i < n; i++) {
        pp[i].reg = pp[i].reg2 = -1;
        pp[i].mem = 0;
    }
    if (dwarf_child(fn, &c) != 0)
        return;
    do {
        if (dwarf_tag(&c) != DW_TAG_formal_parameter ||
            !dwarf_attr(&c, DW_AT_abstract_origin, &at) ||
            !dwarf_formref_die(&at, &origin))
            continue;
        for (int i = 0; i < n; i++)
            if (dwarf_dieoffset(&pd[i]) == dwarf_dieoffset(&origin) &&
                (pp[i].type.cls != TTF_VC_OTHER || pp[i].byref))
                pp[i].reg = entry_reg(&c, pc);  /* a struct's pieces: not shown */
    } while (dwarf_siblingof(&c, &c) == 0);
}

/* The declared parameters of a clone fn (its origin's), registers from the
 * clone's own DWARF. 0 or TT_ENOMEM. */
static int clone_signature(struct sig_alloc *a, Dwarf_Die *fn, Dwarf_Addr pc,
                           int isra, Dwarf_Die *pd, ttf_signature *sig)
{
    Dwarf_Attribute at;
    Dwarf_Die origin;
    int n = 0;
    if (dwarf_attr(fn, DW_AT_abstract_origin, &at) &&
        dwarf_formref_die(&at, &origin))
        n = param_list(&origin, &origin, pd, PARAMS_MAX, &sig->variadic);
    int r = fill_params(a, fn, pd, n, sig);
    if (r)
        return r;
    clone_regs(fn, pc, pd, n, sig);
    if (isra && sig->ret.cls != TTF_VC_VOID)
        sig->ret.cls = TTF_VC_UNKNOWN;
    return 0;
}

/* ---- compile units by address ------------------------------------------ */

static int add_range(struct ttfi_cumap *m, Dwarf_Addr lo, Dwarf_Addr hi,
                     Dwarf_Die *cu)
{
    if (lo >= hi)
        return 0;
    if (m->n == m->cap) {
        size_t cap = m->cap ? 2 * m->cap : 64;
        struct cu_range *r = cap <= CU_RANGES_MAX
                             ? realloc(m->r, cap * sizeof *r) : NULL;
        if (!r)
            return TT_ENOMEM;
        m->r = r;
        m->cap = cap;
    }
    m->r[m->n++] = (struct cu_range){lo, hi, *cu};
    return 0;
}

static int cmp_range(const void *a, const void *b)
{
    const struct cu_range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Every unit's ranges, sorted. A split unit (-gsplit-dwarf) is looked up
 * through its skeleton's ranges. */
static int build_map(Dwfl_Module *dm, struct ttfi_cumap *m)
{
    Dwarf_CU *unit = NULL, *next;
    Dwarf_Half version;
    uint8_t type;
    Dwarf_Die cu, sub;
    Dwarf *dw = dwfl_module_getdwarf(dm, &m->bias);

    m->ok = 1;
    for (; dw; unit = next) {
        Dwarf_Addr base, lo, hi;
        ptrdiff_t off = 0;
        memset(&sub, 0, sizeof sub);
        if (dwarf_get_units(dw, unit, &next, &version, &type, &cu, &sub) != 0)
            break;
        Dwarf_Die *look = type == DW_UT_skeleton && sub.addr ? &sub : &cu;
        while ((off = dwarf_ranges(&cu, off, &base, &lo, &hi)) > 0)
            if (add_range(m, lo, hi, look))
                return TT_ENOMEM;
    }
    if (m->n)
        qsort(m->r, m->n, sizeof *m->r, cmp_range);
    return 0;
}

/* The unit holding addr (bias included): libdwfl's answer, else the map's
 * (*map built on first need). 0 or TT_ENOTFOUND, TT_ENOMEM. */
static int unit_of(Dwfl_Module *dm, struct ttfi_cumap **map, uint64_t addr,
                   Dwarf_Die *cu, Dwarf_Addr *bias)
{
    Dwarf_Die *d = dwfl_module_addrdie(dm, addr, bias);
    if (d) {
        *cu = *d;
        return 0;
    }
    if (!*map && !(*map = calloc(1, sizeof **map)))
        return TT_ENOMEM;
    struct ttfi_cumap *m = *map;
    if (!m->ok && build_map(dm, m))
        return TT_ENOMEM;
    Dwarf_Addr pc = addr - m->bias;
    size_t lo = 0, hi = m->n;
    while (lo < hi) { /* first range with lo > pc */
        size_t mid = (lo + hi) / 2;
        if (m->r[mid].lo <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || pc >= m->r[lo - 1].hi)
        return TT_ENOTFOUND;
    *cu = m->r[lo - 1].cu;
    *bias = m->bias;
    return 0;
}

/* A skeleton unit (-gsplit-dwarf) replaced by its split unit, which holds
 * the functions. 0, or -1 when the .dwo is not found. */
static int split_unit(Dwarf_Die *cu)
{
    uint8_t type = 0;
    Dwarf_Die sub;

    memset(&sub, 0, sizeof sub);
    if (dwarf_cu_info(cu->cu, NULL, &type, NULL, &sub, NULL, NULL, NULL) != 0 ||
        type != DW_UT_skeleton)
        return 0;
    if (!sub.addr)
        return -1;
    *cu = sub;
    return 0;
}

int ttfi_dwarf_unit(Dwfl_Module *dm, struct ttfi_cumap **map, uint64_t addr,
                    Dwarf_Die *cu, Dwarf_Addr *bias)
{
    int rc = unit_of(dm, map, addr, cu, bias);
    if (rc)
        return rc;
    return split_unit(cu) ? TT_ENOTFOUND : 0;
}

void ttfi_cumap_free(struct ttfi_cumap *map)
{
    if (map)
        free(map->r);
    free(map);
}

/* ---- entry points --------------------------------------------------------- */

/* libdw's own allocations that fail call the Dwarf's out-of-memory
 * handler, which must not return; its default prints "libdw: Cannot
 * allocate memory" and exits 1, which reads as "the runs differ". Ours
 * says what every tool says (PROG: out of memory) and exits 2. */
__attribute__((noreturn)) static void dw_oom(void)
{
    fflush(stdout);
    fprintf(stderr, "%s: out of memory (in libdw)\n", program_invocation_short_name);
    _exit(2);
}

/* dm's DWARF (if any) with dw_oom as its out-of-memory handler. */
static void guard(Dwfl_Module *dm)
{
    Dwarf_Addr bias;
    Dwarf *dw = dwfl_module_getdwarf(dm, &bias);
    if (dw)
        dwarf_new_oom_handler(dw, dw_oom);
}

int ttfi_dwarf_signature(Dwfl_Module *dm, struct ttfi_cumap **map,
                         uint64_t addr, void *(*alloc)(void *ctx, size_t n),
                         void *ctx, ttf_signature *sig, const char **why)
{
    struct sig_alloc a = {alloc, ctx, 0};
    Dwarf_Addr bias = 0;
    Dwarf_Die cu, fn, *pd;

    memset(sig, 0, sizeof *sig);
    int rc = unit_of(dm, map, addr, &cu, &bias);
    if (rc) {
        *why = "no debug info (compiled without -g?)";
        return rc;
    }
    if (split_unit(&cu)) {
        *why = "its split DWARF (.dwo) not found";
        return TT_ENOTFOUND;
    }
    if (find_function(&cu, addr - bias, &fn)) {
        *why = "no DWARF function entry";
        return TT_ENOTFOUND;
    }
    if (!(pd = malloc(PARAMS_MAX * sizeof *pd)))
        return TT_ENOMEM;
    read_type(&a, &fn, &sig->ret);
    sig->ret_xmm = sig->ret.cls == TTF_VC_FLOAT && ttf_value_comparable(&sig->ret);
    int isra = 0, r;
    Dwarf_Addr entry = addr - bias;
    if (clone_name(dwfl_module_addrname(dm, addr), &isra)) {
        dwarf_lowpc(&fn, &entry);
        r = clone_signature(&a, &fn, entry, isra, pd, sig);
    } else {
        int n = gather_params(&fn, pd, &sig->variadic);
        r = fill_params(&a, &fn, pd, n, sig);
    }
    if (r == 0 && !isra)
        ret_eightbytes(&fn, sig);
    free(pd);
    return r ? r : a.oom ? TT_ENOMEM : 0;
}

/* 1 if libdwfl's or libdw's last error was a failed allocation (the
 * error codes are read, and so cleared). */
static int lost_memory(void)
{
    int e = dwfl_errno(), f = dwarf_errno();
    const char *m = e ? dwfl_errmsg(e) : NULL, *n = f ? dwarf_errmsg(f) : NULL;
    return (m && strcasestr(m, "memory")) || (n && strcasestr(n, "memory"));
}

int ttfi_dwarf_line(Dwfl_Module *dm, struct ttfi_cumap **map, uint64_t addr,
                    const char **file, int *line)
{
    Dwarf_Addr bias = 0;
    Dwarf_Die cu;
    guard(dm);
    lost_memory(); /* clear older errors */
    Dwfl_Line *l = dwfl_module_getsrc(dm, addr);

    if (l) {
        *file = dwfl_lineinfo(l, NULL, line, NULL, NULL, NULL);
        return *file ? 0 : TT_ENOTFOUND;
    }
    if (lost_memory())
        return TT_ENOMEM;
    int rc = unit_of(dm, map, addr, &cu, &bias);
    if (rc)
        return rc;
    Dwarf_Line *dl = dwarf_getsrc_die(&cu, addr - bias);
    if (!dl || dwarf_lineno(dl, line) != 0 ||
        !(*file = dwarf_linesrc(dl, NULL, NULL)))
        return TT_ENOTFOUND;
    return 0;
}

/* 1 if the ELF file has a section called name. */
static int has_section(Elf *elf, const char *name)
{
    size_t strndx;
    Elf_Scn *scn = NULL;
    GElf_Shdr sh;

    if (!elf || elf_getshdrstrndx(elf, &strndx) != 0)
        return 0;
    while ((scn = elf_nextscn(elf, scn))) {
        const char *n = gelf_getshdr(scn, &sh) ? elf_strptr(elf, strndx, sh.sh_name) : NULL;
        if (n && strcmp(n, name) == 0)
            return 1;
    }
    return 0;
}

int ttfi_dwarf_missing(Dwfl_Module *dm, char *why, size_t len)
{
    Dwarf_Addr bias;
    guard(dm);
    if (dwfl_module_getdwarf(dm, &bias))
        return 0;
    const char *msg = dwfl_errmsg(-1);
    if (!has_section(dwfl_module_getelf(dm, &bias), ".debug_info"))
        snprintf(why, len, "no debug info");
    else
        snprintf(why, len, "debug info unreadable (%s)", msg ? msg : "?");
    return 1;
}

/* ---- values mode's per-function table (ttf_value_table) -------------------- */

#define VT_MAX (1u << 22)       /* entries kept per file */

static int is_record_tag(int tag)
{
    return tag == DW_TAG_structure_type || tag == DW_TAG_class_type;
}

/* 1 if the type DIE t (qualifiers and typedefs peeled) is a 1-byte char. */
static int is_char(Dwarf_Die *t)
{
    Dwarf_Die p;
    if (dwarf_peel_type(t, &p) != 0 || dwarf_tag(&p) != DW_TAG_base_type)
        return 0;
    Dwarf_Word enc = ttfi_die_udata(&p, DW_AT_encoding, 0);
    return ttfi_die_udata(&p, DW_AT_byte_size, 0) == 1 &&
           (enc == DW_ATE_signed_char || enc == DW_ATE_unsigned_char);
}

/* 1 if the type DIE t (peeled) is std::string (libstdc++'s basic_string
 * of char, either ABI): its first member is _M_dataplus, whose first word
 * is the pointer to the characters (libttcap reads them through it).
 * libc++'s basic_string (its first word may hold the characters
 * themselves) and a declaration without members are not. */
static int is_std_string(Dwarf_Die *t)
{
    Dwarf_Die p, c;
    if (dwarf_peel_type(t, &p) != 0 || !is_record_tag(dwarf_tag(&p)))
        return 0;
    const char *n = dwarf_diename(&p);
    if (!n || strncmp(n, "basic_string<char,", 18) != 0 || dwarf_child(&p, &c) != 0)
        return 0;
    do {
        if (dwarf_tag(&c) == DW_TAG_member) {
            const char *m = dwarf_diename(&c);
            return m && strcmp(m, "_M_dataplus") == 0 &&
                   ttfi_die_udata(&c, DW_AT_data_member_location, 0) == 0;
        }
    } while (dwarf_siblingof(&c, &c) == 0);
    return 0;
}

/* 1 if the type DIE t is const-qualified, through typedefs and volatile
 * (`const char`, a typedef of it). */
static int is_const(Dwarf_Die *t)
{
    Dwarf_Die c = *t;
    for (int n = 0; n < 16; n++) {
        int tag = dwarf_tag(&c);
        if (tag == DW_TAG_const_type)
            return 1;
        if ((tag != DW_TAG_typedef && tag != DW_TAG_volatile_type) || ttfi_die_type(&c, &c))
            return 0;
    }
    return 0;
}

/* Where a parameter's string is: TTF_VT's cstr (1) for a pointer to const
 * char (an input), 3 for a plain char * (an input only if the function
 * cannot write through it: an output buffer's bytes before the call are
 * whatever it held, and would make identical runs differ; vt_kind asks
 * readonly.c), sstr (2) for a std::string by value, by reference or by
 * pointer to const, else 0. A pointer to a non-const std::string may point
 * to storage the callee is about to construct a string in (`this` of
 * basic_string's constructors and _M_construct, std::_Construct's
 * pointer): its first word is then whatever the memory held, an address
 * that differs from run to run, so it is left out; a const one, a
 * reference and a copy are constructed strings. */
static int string_kind(Dwarf_Die *param)
{
    Dwarf_Die t, p, to;
    if (ttfi_die_type(param, &t) || dwarf_peel_type(&t, &p) != 0)
        return 0;
    int tag = dwarf_tag(&p);
    if (is_record_tag(tag))
        return is_std_string(&p) ? 2 : 0;
    if (tag != DW_TAG_pointer_type && tag != DW_TAG_reference_type &&
        tag != DW_TAG_rvalue_reference_type)
        return 0;
    if (ttfi_die_type(&p, &to))
        return 0;
    if (is_char(&to))
        return tag != DW_TAG_pointer_type ? 0 : is_const(&to) ? 1 : 3;
    if (tag == DW_TAG_pointer_type && !is_const(&to))
        return 0;
    return is_std_string(&to) ? 2 : 0;
}

/* The table being built, and the arena its signatures use. */
struct vt_build {
    ttf_vt_entry *e;
    size_t n, cap;
    Elf *elf;                   /* the file's code, for plain char * */
    struct ttfi_arena arena;
    int rc;
};

static void *vt_alloc(void *ctx, size_t n)
{
    return ttfi_arena_alloc(&((struct vt_build *)ctx)->arena, n);
}

static int vt_add(struct vt_build *b, const ttf_vt_entry *e)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 256;
        ttf_vt_entry *m = cap <= VT_MAX ? realloc(b->e, cap * sizeof *m) : NULL;
        if (!m)
            return TT_ENOMEM;
        b->e = m;
        b->cap = cap;
    }
    b->e[b->n++] = *e;
    return 0;
}

/* 1 if function fn (entry lo) writes no memory but its frame: its plain
 * char * parameters are inputs. A function in pieces (DW_AT_ranges: a
 * .cold part) is not read. *memo: -1 until asked. */
static int vt_reads_only(const struct vt_build *b, Dwarf_Die *fn, Dwarf_Addr lo, int *memo)
{
    Dwarf_Addr hi;
    if (*memo < 0)
        *memo = dwarf_highpc(fn, &hi) == 0 && !dwarf_hasattr(fn, DW_AT_ranges) &&
                ttfi_elf_reads_only(b->elf, lo, hi);
    return *memo;
}

/* The string kind of parameter pd of fn (string_kind; a plain char *
 * becomes a cstr only when the function cannot write through it). */
static int vt_kind(const struct vt_build *b, Dwarf_Die *fn, Dwarf_Addr lo, Dwarf_Die *pd,
                   int *memo)
{
    int k = string_kind(pd);
    if (k == 2 && dwarf_hasattr(pd, DW_AT_artificial))
        return 0;               /* a std::string's own `this`: in its
                                   constructors not a string yet */
    if (k == 3)
        return vt_reads_only(b, fn, lo, memo) ? 1 : 0;
    return k;
}

/* One function of a unit (dwarf_getfuncs): its entry if it has one. */
static int vt_func(Dwarf_Die *fn, void *arg)
{
    struct vt_build *b = arg;
    struct sig_alloc a = {vt_alloc, b, 0};
    Dwarf_Die pd[PARAMS_MAX];
    Dwarf_Addr lo;
    ttf_signature sig;
    ttf_vt_entry e;
    int memo = -1;
    if (dwarf_lowpc(fn, &lo) != 0)
        return DWARF_CB_OK;     /* a declaration, or inlined only */
    memset(&sig, 0, sizeof sig);
    memset(&e, 0, sizeof e);
    read_type(&a, fn, &sig.ret);
    int n = gather_params(fn, pd, &sig.variadic);
    if (fill_params(&a, fn, pd, n, &sig) != 0 || a.oom) {
        b->rc = TT_ENOMEM;
        return DWARF_CB_ABORT;
    }
    ret_eightbytes(fn, &sig);
    int sse = sig.variadic || sig.ret.cls == TTF_VC_FLOAT || sig.ret_eb[0] == TTF_RET_XMM0 ||
              sig.ret_eb[1] == TTF_RET_XMM0;
    for (int i = 0; i < n; i++) {
        const ttf_param *p = &sig.params[i];
        sse |= p->reg >= TTF_XMM_SLOT(0) || p->reg2 >= TTF_XMM_SLOT(0) ||
               (p->type.cls == TTF_VC_FLOAT && p->reg < 0 && !p->mem);
        int k = p->reg >= 0 && p->reg < TTF_VALUE_REGS ? vt_kind(b, fn, lo, &pd[i], &memo) : 0;
        if (k == 1)
            e.cstr |= (uint8_t)(1u << p->reg);
        if (k == 2)
            e.sstr |= (uint8_t)(1u << p->reg);
    }
    e.addr = lo;
    e.flags = sse ? TTF_VT_SSE : 0;
    if ((e.cstr || e.sstr || e.flags) && (b->rc = vt_add(b, &e)) != 0)
        return DWARF_CB_ABORT;
    return DWARF_CB_OK;
}

static int vt_cmp(const void *x, const void *y)
{
    const ttf_vt_entry *a = x, *b = y;
    return a->addr < b->addr ? -1 : a->addr > b->addr;
}

int ttf_value_table(const char *path, ttf_vt_entry **out, size_t *n)
{
    struct vt_build b;
    Dwarf_CU *cu = NULL;
    Dwarf_Die cudie, sub;
    uint8_t type;
    if (!path || !out || !n)
        return TT_EINVAL;
    *out = NULL;
    *n = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return TT_EIO;
    Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
    if (!dw) {
        close(fd);
        return TT_ENOTFOUND;
    }
    dwarf_new_oom_handler(dw, dw_oom);
    memset(&b, 0, sizeof b);
    b.elf = dwarf_getelf(dw);
    while (b.rc == 0 && dwarf_get_units(dw, cu, &cu, NULL, &type, &cudie, &sub) == 0) {
        Dwarf_Die *u = type == DW_UT_skeleton ? &sub : &cudie;
        if (type == DW_UT_skeleton && !sub.addr)
            continue;           /* its .dwo not found */
        dwarf_getfuncs(u, vt_func, &b, 0);
    }
    dwarf_end(dw);
    close(fd);
    ttfi_arena_free(&b.arena);
    if (b.rc) {
        free(b.e);
        return b.rc;
    }
    if (b.n)
        qsort(b.e, b.n, sizeof *b.e, vt_cmp);
    *out = b.e;
    *n = b.n;
    return 0;
}

/* ---- what pointer parameters point to (ttf_sym_code_fields) -------------- */

/* The struct or union a pointer (or reference) type t points to, by name:
 * "struct T" / "union T", qualifiers and typedefs seen through on both
 * sides of the pointer (an unnamed struct by its typedef's name); NULL
 * when it points to anything else (a scalar, void, a function). */
static const char *pointee_name(struct sig_alloc *a, Dwarf_Die *t)
{
    const char *td = NULL;
    char buf[256];
    int i = 0;

    for (; i < 16 && (is_qualifier(dwarf_tag(t)) || dwarf_tag(t) == DW_TAG_typedef); i++)
        if (ttfi_die_type(t, t))
            return NULL;
    if (dwarf_tag(t) != DW_TAG_pointer_type && dwarf_tag(t) != DW_TAG_reference_type &&
        dwarf_tag(t) != DW_TAG_rvalue_reference_type)
        return NULL;
    if (ttfi_die_type(t, t))
        return NULL;
    for (i = 0; i < 16 && (is_qualifier(dwarf_tag(t)) || dwarf_tag(t) == DW_TAG_typedef); i++) {
        if (dwarf_tag(t) == DW_TAG_typedef)
            td = dwarf_diename(t);
        if (ttfi_die_type(t, t))
            return NULL;
    }
    int tag = dwarf_tag(t);
    const char *n = dwarf_diename(t);
    if (tag != DW_TAG_structure_type && tag != DW_TAG_class_type && tag != DW_TAG_union_type)
        return NULL;
    if (!n)
        return td ? copy_str(a, td) : NULL;
    snprintf(buf, sizeof buf, "%s %s", tag == DW_TAG_union_type ? "union" : "struct", n);
    return copy_str(a, buf);
}

int ttfi_dwarf_pointees(Dwfl_Module *dm, struct ttfi_cumap **map, uint64_t addr,
                        void *(*alloc)(void *ctx, size_t n), void *ctx, const char *out[6])
{
    struct sig_alloc a = {alloc, ctx, 0};
    ttf_signature sig;
    const char *why = NULL;
    Dwarf_Addr bias = 0;
    Dwarf_Die cu, fn, *pd;
    int variadic = 0, isra = 0;

    for (int k = 0; k < 6; k++)
        out[k] = NULL;
    if (clone_name(dwfl_module_addrname(dm, addr), &isra))
        return TT_ENOTFOUND;    /* a clone's parameters are not its origin's */
    int rc = ttfi_dwarf_signature(dm, map, addr, alloc, ctx, &sig, &why);
    if (rc)
        return rc;
    if (unit_of(dm, map, addr, &cu, &bias) || split_unit(&cu) ||
        find_function(&cu, addr - bias, &fn))
        return TT_ENOTFOUND;
    if (!(pd = malloc(PARAMS_MAX * sizeof *pd)))
        return TT_ENOMEM;
    int n = gather_params(&fn, pd, &variadic);
    for (int i = 0; i < n && (size_t)i < sig.nparams; i++) {
        Dwarf_Die t;
        int r = sig.params[i].reg;
        if (r >= 0 && r < 6 && !sig.params[i].byref && sig.params[i].type.cls == TTF_VC_POINTER &&
            ttfi_die_type(&pd[i], &t) == 0)
            out[r] = pointee_name(&a, &t);
    }
    free(pd);
    return a.oom ? TT_ENOMEM : 0;
}
