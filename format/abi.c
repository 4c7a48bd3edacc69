/*
 * abi.c - where a parameter travels under the x86-64 System V psABI
 * (section 3.2.3), read from its DWARF type: how many integer and SSE
 * registers it takes, or memory. signature.c hands out rdi..r9 in order
 * from these answers, so one misjudged parameter would shift every later
 * one; a type this file cannot judge says so, and the caller stops
 * placing parameters there rather than guess.
 *
 * Design. Scalars are one INTEGER eightbyte (two for __int128 and
 * pointers to member functions) or SSE (float, double, complex float;
 * complex double is two). long double and anything holding one is X87:
 * memory for an argument. An aggregate of at most 16 bytes is classified
 * eightbyte by eightbyte from its fields at their offsets (members, bases,
 * array elements, bit-fields as INTEGER): an eightbyte with any INTEGER
 * field is INTEGER, one with only SSE fields is SSE; an unaligned field or
 * a field that cannot be read makes the answer unknown. Larger aggregates
 * go in memory. A C++ class that is not trivial for the purpose of calls
 * (Itanium C++ ABI 3.1.2: a user-provided copy or move constructor or
 * destructor, a virtual function or base, or such a class among its bases
 * and members) is passed by invisible reference: one INTEGER register
 * holding the address of a temporary copy. gcc writes no
 * DW_AT_calling_convention; when a compiler does (clang), it decides.
 * Stage 1 dwarf of format/STAGES.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <string.h>

#include "ttf_int.h"

#define DEPTH_MAX 12           /* nesting of members and bases followed */
#define ELEMS_MAX 16           /* array elements classified one by one */

enum { EB_NONE, EB_INT = TTFI_EB_INT, EB_SSE = TTFI_EB_SSE };

/* Classification of an aggregate in progress: the two eightbytes' classes;
 * mem: it goes in memory; unknown: it cannot be judged. */
struct cls {
    int eb[2];
    int mem, unknown;
};

int ttfi_die_type(Dwarf_Die *owner, Dwarf_Die *out)
{
    Dwarf_Attribute at;
    return dwarf_attr_integrate(owner, DW_AT_type, &at) &&
           dwarf_formref_die(&at, out) ? 0 : -1;
}

static int has_attr(Dwarf_Die *d, unsigned name)
{
    Dwarf_Attribute at;
    return dwarf_attr_integrate(d, name, &at) != NULL;
}

Dwarf_Word ttfi_die_udata(Dwarf_Die *d, unsigned name, Dwarf_Word dflt)
{
    Dwarf_Attribute at;
    Dwarf_Word v;
    if (!dwarf_attr_integrate(d, name, &at) || dwarf_formudata(&at, &v))
        return dflt;
    return v;
}

static int is_pointer(int tag)
{
    return tag == DW_TAG_pointer_type || tag == DW_TAG_reference_type ||
           tag == DW_TAG_rvalue_reference_type;
}

static int is_record(int tag)
{
    return tag == DW_TAG_structure_type || tag == DW_TAG_class_type ||
           tag == DW_TAG_union_type;
}

/* 1 if the member function f, of the class named cls, is a copy or move
 * constructor: named as the class, its first parameter after `this` a
 * reference (& or &&) to the class. */
static int copy_or_move(Dwarf_Die *f, const char *cls)
{
    const char *n = dwarf_diename(f);
    Dwarf_Die p, t, to;
    int seen = 0;
    if (!n || !cls || strcmp(n, cls) != 0 || dwarf_child(f, &p) != 0)
        return 0;
    do {
        if (dwarf_tag(&p) != DW_TAG_formal_parameter || has_attr(&p, DW_AT_artificial))
            continue;
        if (seen++ || ttfi_die_type(&p, &t))
            return 0;
        int tag = dwarf_tag(&t);
        if (tag != DW_TAG_reference_type && tag != DW_TAG_rvalue_reference_type)
            return 0;
        if (ttfi_die_type(&t, &to) || dwarf_peel_type(&to, &to))
            return 0;
        n = dwarf_diename(&to);
        return n && strcmp(n, cls) == 0;
    } while (dwarf_siblingof(&p, &p) == 0);
    return 0;
}

/* 1 if the member function f makes its class non-trivial for calls. */
static int nontrivial_member_fn(Dwarf_Die *f, const char *cls)
{
    const char *n = dwarf_diename(f);
    if (ttfi_die_udata(f, DW_AT_virtuality, DW_VIRTUALITY_none) != DW_VIRTUALITY_none)
        return 1;               /* a dynamic class */
    if (has_attr(f, DW_AT_artificial) || has_attr(f, DW_AT_deleted) ||
        ttfi_die_udata(f, DW_AT_defaulted, DW_DEFAULTED_no) == DW_DEFAULTED_in_class)
        return 0;               /* implicit, deleted or = default: as its parts */
    return (n && n[0] == '~') || copy_or_move(f, cls);
}

static int record_nontrivial(Dwarf_Die *rec, int depth);

/* 1 if a value of the type DIE t (typedefs and qualifiers peeled here,
 * arrays by their elements) is of a class that is non-trivial for calls. */
static int type_nontrivial(Dwarf_Die *t, int depth)
{
    Dwarf_Die p;
    for (int i = 0; i < 8; i++) {
        if (dwarf_peel_type(t, &p) != 0)
            return 0;
        if (dwarf_tag(&p) != DW_TAG_array_type)
            break;
        if (ttfi_die_type(&p, t))
            return 0;
    }
    return is_record(dwarf_tag(&p)) && record_nontrivial(&p, depth + 1);
}

/* 1 if the class rec is non-trivial for calls (the file header). */
static int record_nontrivial(Dwarf_Die *rec, int depth)
{
    Dwarf_Attribute at;
    Dwarf_Die c, t;
    const char *name = dwarf_diename(rec);

    if (depth > DEPTH_MAX)
        return 0;
    if (dwarf_attr(rec, DW_AT_calling_convention, &at))
        return ttfi_die_udata(rec, DW_AT_calling_convention, 0) == DW_CC_pass_by_reference;
    if (dwarf_child(rec, &c) != 0)
        return 0;
    do {
        int tag = dwarf_tag(&c);
        if (tag == DW_TAG_subprogram && nontrivial_member_fn(&c, name))
            return 1;
        if (tag == DW_TAG_inheritance &&
            ttfi_die_udata(&c, DW_AT_virtuality, DW_VIRTUALITY_none) != DW_VIRTUALITY_none)
            return 1;
        if ((tag == DW_TAG_inheritance ||
             (tag == DW_TAG_member && !has_attr(&c, DW_AT_external) &&
              !has_attr(&c, DW_AT_declaration))) &&
            ttfi_die_type(&c, &t) == 0 && type_nontrivial(&t, depth))
            return 1;
    } while (dwarf_siblingof(&c, &c) == 0);
    return 0;
}

/* Mark bytes [off, off + n) of the aggregate as class k. */
static void mark(struct cls *c, Dwarf_Word off, Dwarf_Word n, int k)
{
    if (n == 0)
        return;
    for (Dwarf_Word b = off / 8; b <= (off + n - 1) / 8; b++) {
        if (b > 1) {
            c->mem = 1;
            return;
        }
        if (c->eb[b] != EB_INT)
            c->eb[b] = k;
    }
}

static void classify_at(Dwarf_Die *t, Dwarf_Word off, struct cls *c, int depth);

/* The fields of the record rec at offset off. */
static void classify_record(Dwarf_Die *rec, Dwarf_Word off, struct cls *c, int depth)
{
    Dwarf_Die m, t;
    int is_union = dwarf_tag(rec) == DW_TAG_union_type;
    if (dwarf_child(rec, &m) != 0)
        return;
    do {
        int tag = dwarf_tag(&m);
        if ((tag != DW_TAG_member && tag != DW_TAG_inheritance) ||
            has_attr(&m, DW_AT_external) || has_attr(&m, DW_AT_declaration))
            continue;
        Dwarf_Word at = 0;
        if (!is_union && has_attr(&m, DW_AT_data_member_location) &&
            (at = ttfi_die_udata(&m, DW_AT_data_member_location, (Dwarf_Word)-1)) == (Dwarf_Word)-1) {
            c->unknown = 1; /* a location expression (a virtual base) */
            return;
        }
        if (ttfi_die_type(&m, &t)) {
            c->unknown = 1;
            return;
        }
        if (has_attr(&m, DW_AT_bit_size)) {
            Dwarf_Word bits = ttfi_die_udata(&m, DW_AT_data_bit_offset, 0) + ttfi_die_udata(&m, DW_AT_bit_size, 0);
            mark(c, off + at + ttfi_die_udata(&m, DW_AT_data_bit_offset, 0) / 8,
                 (bits + 7) / 8 - ttfi_die_udata(&m, DW_AT_data_bit_offset, 0) / 8, EB_INT);
            continue;
        }
        classify_at(&t, off + at, c, depth + 1);
    } while (!c->unknown && !c->mem && dwarf_siblingof(&m, &m) == 0);
}

/* The elements of the array arr at offset off. */
static void classify_array(Dwarf_Die *arr, Dwarf_Word off, struct cls *c, int depth)
{
    Dwarf_Die el;
    Dwarf_Word size = 0, esize = 0;
    if (ttfi_die_type(arr, &el) || dwarf_aggregate_size(arr, &size) ||
        dwarf_aggregate_size(&el, &esize)) {
        c->unknown = 1;
        return;
    }
    if (has_attr(arr, DW_AT_GNU_vector)) {
        mark(c, off, size, EB_SSE); /* __m128 and friends */
        return;
    }
    for (Dwarf_Word i = 0; esize && i < size / esize && i < ELEMS_MAX; i++)
        classify_at(&el, off + i * esize, c, depth + 1);
}

/* Classify the type DIE t placed at byte offset off of an aggregate. */
static void classify_at(Dwarf_Die *t, Dwarf_Word off, struct cls *c, int depth)
{
    Dwarf_Die p;
    Dwarf_Word size = 0;
    if (depth > DEPTH_MAX || dwarf_peel_type(t, &p) != 0) {
        c->unknown = 1;
        return;
    }
    int tag = dwarf_tag(&p);
    if (dwarf_aggregate_size(&p, &size) != 0) {
        if (!is_pointer(tag)) {
            c->unknown = 1;
            return;
        }
        size = 8;
    }
    if (tag == DW_TAG_array_type) {
        classify_array(&p, off, c, depth);
        return;
    }
    if (is_record(tag)) {
        classify_record(&p, off, c, depth);
        return;
    }
    if (size && off % (size > 8 ? 8 : size) != 0) {
        c->unknown = 1;         /* an unaligned field (a packed struct) */
        return;
    }
    Dwarf_Word enc = tag == DW_TAG_base_type ? ttfi_die_udata(&p, DW_AT_encoding, 0) : 0;
    if (enc == DW_ATE_float || enc == DW_ATE_complex_float) {
        int x87 = enc == DW_ATE_float ? size > 8 : size > 16;
        c->mem |= x87;          /* long double: X87 class, memory */
        mark(c, off, size, EB_SSE);
        return;
    }
    mark(c, off, size, EB_INT);
}

int ttfi_abi_place(Dwarf_Die *owner, struct ttfi_place *pl)
{
    Dwarf_Die t, p;
    Dwarf_Word size = 0;
    struct cls c = {{EB_NONE, EB_NONE}, 0, 0};

    memset(pl, 0, sizeof *pl);
    if (ttfi_die_type(owner, &t) || dwarf_peel_type(&t, &p) != 0)
        return -1;
    int tag = dwarf_tag(&p);
    if (is_record(tag) && record_nontrivial(&p, 0)) {
        pl->nint = 1;
        pl->byref = 1;
        return 0;
    }
    if (dwarf_aggregate_size(&p, &size) != 0) {
        if (!is_pointer(tag))
            return -1;
        size = 8;
    }
    if (size > 16 || size == 0) {
        pl->mem = size > 16;    /* an empty C struct takes nothing */
        return 0;
    }
    classify_at(&p, 0, &c, 0);
    if (c.unknown)
        return -1;
    if (c.mem) {
        pl->mem = 1;
        return 0;
    }
    for (int i = 0; i < 2; i++) {
        pl->nint += c.eb[i] == EB_INT;
        pl->nsse += c.eb[i] == EB_SSE;
        pl->eb[i] = c.eb[i];
    }
    return 0;
}
