/*
 * test_vtab.c - cmocka tests of values mode's string table (capture/
 * cap_vtab.c, linked from libttcap.a): each module's .ttcap.vt read from
 * its file (small ELF files written here) into the hash cap_vt_find looks
 * up: addresses moved by the load bias, entries outside the module and
 * without a string dropped; damaged files and tables (a count past the
 * section, another entry size or version, section headers or a section
 * past the end of the file, a name table index out of range, not ELF)
 * and a build-id other than the loaded object's read nothing and do not
 * crash; a module unloaded is gone from the look-up and the others stay;
 * loading and unloading one module a thousand times makes no new table;
 * many modules grow the table with every function still found, and the
 * look-up of a function without strings ends at its home slot's bits for
 * 7 in 8 of them at least; loading
 * and unloading libraries at new addresses makes more than 24 tables and
 * every one is still read;
 * TTCAP_STRINGS=0 reads nothing. The tests share libttcap's one table, so
 * they run in order.
 */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cap_int.h"
#include "cap_vstr.h"

static char dir[] = "/tmp/test_vtab.XXXXXX";
static char path[256];

/* One table entry in the file's layout. */
struct ent {
    uint64_t addr;
    uint8_t cstr, sstr, flags;
};

/* How to damage the file written by write_elf. */
enum { OK, BIG_COUNT, ENT_SIZE, VERSION2, SHOFF_PAST, SECT_PAST, SHSTRNDX, CUT, NOT_ELF };

static const uint8_t ID[8] = {1, 2, 3, 4, 5, 6, 7, 8};

/* An ELF file at path holding a .ttcap.vt of the n entries e (and a
 * build-id note ID when id), damaged as how says. */
static void write_elf(const struct ent *e, uint32_t n, int id, int how)
{
    static uint8_t f[1 << 16];
    const char names[] = "\0.shstrtab\0.ttcap.vt\0.note.gnu.build-id";
    memset(f, 0, sizeof f);
    size_t at = sizeof(Elf64_Ehdr), strs = at;
    memcpy(f + at, names, sizeof names);
    at += sizeof names;
    at = (at + 7) & ~(size_t)7;
    size_t vt = at;
    uint32_t hdr[4] = {0, how == VERSION2 ? 2 : 1, how == BIG_COUNT ? n + 1 : n,
                       how == ENT_SIZE ? 24 : 16};
    memcpy(hdr, "TTVT", 4);
    memcpy(f + at, hdr, sizeof hdr);
    at += sizeof hdr;
    for (uint32_t i = 0; i < n; i++, at += 16) {
        memcpy(f + at, &e[i].addr, 8);
        f[at + 8] = e[i].cstr;
        f[at + 9] = e[i].sstr;
        f[at + 10] = e[i].flags;
    }
    size_t note = at;
    Elf64_Nhdr nh = {4, sizeof ID, NT_GNU_BUILD_ID};
    memcpy(f + at, &nh, sizeof nh);
    memcpy(f + at + sizeof nh, "GNU", 4);
    memcpy(f + at + sizeof nh + 4, ID, sizeof ID);
    at += sizeof nh + 4 + sizeof ID;
    size_t shoff = (at + 7) & ~(size_t)7;
    Elf64_Shdr sh[4];
    memset(sh, 0, sizeof sh);
    sh[1] = (Elf64_Shdr){.sh_name = 1, .sh_type = SHT_STRTAB, .sh_offset = strs,
                         .sh_size = sizeof names};
    sh[2] = (Elf64_Shdr){.sh_name = 11, .sh_type = SHT_PROGBITS, .sh_offset = vt,
                         .sh_size = 16 + 16 * (uint64_t)n};
    sh[3] = (Elf64_Shdr){.sh_name = 21, .sh_type = SHT_NOTE, .sh_offset = note,
                         .sh_size = sizeof nh + 4 + sizeof ID};
    if (how == SECT_PAST)
        sh[2].sh_offset = 1 << 20;
    unsigned nsh = id ? 4 : 3;
    memcpy(f + shoff, sh, nsh * sizeof *sh);
    Elf64_Ehdr eh;
    memset(&eh, 0, sizeof eh);
    memcpy(eh.e_ident, ELFMAG, SELFMAG);
    eh.e_ident[EI_CLASS] = ELFCLASS64;
    eh.e_ident[EI_DATA] = ELFDATA2LSB;
    eh.e_ident[EI_VERSION] = EV_CURRENT;
    eh.e_type = ET_DYN;
    eh.e_machine = EM_X86_64;
    eh.e_shoff = how == SHOFF_PAST ? 1 << 20 : shoff;
    eh.e_shentsize = sizeof(Elf64_Shdr);
    eh.e_shnum = (uint16_t)nsh;
    eh.e_shstrndx = how == SHSTRNDX ? 9 : 1;
    eh.e_ehsize = sizeof eh;
    memcpy(f, &eh, sizeof eh);
    if (how == NOT_ELF)
        f[1] = 'X';
    size_t len = how == CUT ? vt + 20 : shoff + nsh * sizeof *sh;
    FILE *o = fopen(path, "wb");
    assert_non_null(o);
    assert_int_equal(fwrite(f, 1, len, o), len);
    assert_int_equal(fclose(o), 0);
}

#define BIAS 0x7f0000000000ull
#define SIZE 0x100000ull

static const struct ent three[] = {
    {0x1000, 0x01, 0x00, 0}, {0x2000, 0x00, 0x02, 1}, {0x3000, 0x00, 0x00, 1},
    {0x200000, 0x01, 0x00, 0},  /* outside the module (SIZE): dropped */
};

static void off_reads_nothing(void **st)
{
    (void)st;
    setenv("TTCAP_STRINGS", "0", 1);
    cap_vtab_load();
    write_elf(three, 4, 1, OK);
    assert_int_equal(cap_vtab_module(path, BIAS, SIZE, ID, sizeof ID), 0);
    assert_false(cap_vt_on());
    unsetenv("TTCAP_STRINGS");
    cap_vtab_load();
}

static void damaged_reads_nothing(void **st)
{
    (void)st;
    static const int bad[] = {BIG_COUNT, ENT_SIZE, VERSION2, SHOFF_PAST, SECT_PAST, SHSTRNDX,
                              CUT, NOT_ELF};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        write_elf(three, 4, 1, bad[i]);
        assert_int_equal(cap_vtab_module(path, BIAS, SIZE, ID, sizeof ID), 0);
        assert_false(cap_vt_on());
    }
    write_elf(three, 4, 1, OK);         /* another build of the library */
    static const uint8_t other[8] = {9, 9, 9, 9, 9, 9, 9, 9};
    assert_int_equal(cap_vtab_module(path, BIAS, SIZE, other, sizeof other), 0);
    assert_false(cap_vt_on());
    assert_int_equal(cap_vtab_module("/nonexistent/lib.so", BIAS, SIZE, NULL, 0), 0);
    assert_false(cap_vt_on());
}

static void loads_and_unloads(void **st)
{
    (void)st;
    write_elf(three, 4, 1, OK);
    assert_int_equal(cap_vtab_module(path, BIAS, SIZE, ID, sizeof ID), 1);  /* the first */
    assert_true(cap_vt_on());
    const struct cap_vt_ent *v = cap_vt_find(BIAS + 0x1000);
    assert_non_null(v);
    assert_int_equal(v->cstr, 1);
    assert_int_equal(v->sstr, 0);
    v = cap_vt_find(BIAS + 0x2000);
    assert_non_null(v);
    assert_int_equal(v->sstr, 2);
    assert_int_equal(v->flags, 1);
    assert_null(cap_vt_find(BIAS + 0x3000));        /* no string */
    assert_null(cap_vt_find(BIAS + 0x200000));      /* outside the module */
    assert_null(cap_vt_find(0x1000));               /* the bias was added */
    /* a second module (no build-id in the file: read), then the first one
       unloaded: only the second's functions are found */
    write_elf(three, 3, 0, OK);
    assert_int_equal(cap_vtab_module(path, 2 * BIAS, SIZE, ID, sizeof ID), 0);
    assert_non_null(cap_vt_find(2 * BIAS + 0x1000));
    cap_vtab_unload(BIAS, BIAS + SIZE);
    assert_null(cap_vt_find(BIAS + 0x1000));
    assert_null(cap_vt_find(BIAS + 0x2000));
    assert_non_null(cap_vt_find(2 * BIAS + 0x1000));
    assert_non_null(cap_vt_find(2 * BIAS + 0x2000));
    /* dlopen / dlclose in a loop: the slots are reused, no table is made */
    uint64_t w = cap_vt.w;
    for (int i = 0; i < 1000; i++) {
        assert_int_equal(cap_vtab_module(path, BIAS, SIZE, NULL, 0), 0);
        assert_non_null(cap_vt_find(BIAS + 0x1000));
        cap_vtab_unload(BIAS, BIAS + SIZE);
        assert_null(cap_vt_find(BIAS + 0x1000));
    }
    assert_true(cap_vt.w == w);
    assert_non_null(cap_vt_find(2 * BIAS + 0x2000));
    cap_vtab_unload(2 * BIAS, 2 * BIAS + SIZE);
}

static void grows(void **st)
{
    (void)st;
    static struct ent many[500];
    for (unsigned i = 0; i < 500; i++)
        many[i] = (struct ent){0x1000 + 16 * (uint64_t)i, (uint8_t)(1u << (i % 6)), 0, 0};
    write_elf(many, 500, 0, OK);
    uint64_t w = cap_vt.w;
    for (uint64_t m = 1; m <= 8; m++)
        assert_int_equal(cap_vtab_module(path, m * 0x10000000ull, SIZE, NULL, 0), 0);
    assert_true(cap_vt.w != w);                 /* a bigger table */
    assert_true((cap_vt.w & 63) >= 13);         /* 4000 functions, at most half full */
    for (uint64_t m = 1; m <= 8; m++)
        for (unsigned i = 0; i < 500; i++) {
            const struct cap_vt_ent *v = cap_vt_find(m * 0x10000000ull + 0x1000 + 16 * i);
            assert_non_null(v);
            assert_int_equal(v->cstr, 1u << (i % 6));
        }
    assert_null(cap_vt_find(0x10000000ull + 0x1008));
    /* a function without strings (here: 8 bytes past each one with) ends
       its look-up at its home slot's byte, not at the end of the slot's
       cluster: at most 1 in 16 has its bit set by another function (the
       table at most half full, 8 bits a slot), say 1 in 8 */
    const struct cap_vt_ent *e = (const struct cap_vt_ent *)(uintptr_t)(cap_vt.w & ~63ull);
    unsigned bits = (unsigned)(cap_vt.w & 63), probed = 0;
    for (uint64_t m = 1; m <= 8; m++)
        for (unsigned i = 0; i < 500; i++) {
            uint64_t fn = m * 0x10000000ull + 0x1000 + 16 * i;
            size_t h = cap_vt_home(fn, bits);
            assert_true(e[h >> 3].home >> (h & 7) & 1);     /* every one put in */
            h = cap_vt_home(fn + 8, bits);
            probed += e[h >> 3].home >> (h & 7) & 1;
            assert_null(cap_vt_find(fn + 8));
        }
    assert_true(probed <= 4000 / 8);
}

/* A plugin host loading and unloading libraries at new addresses: each
 * leaves tombstones, which fill a table now and then, and a new one is
 * made; hundreds of them (more than the 24 tables libttcap once stopped
 * at) and every library is still read. */
static void churns(void **st)
{
    (void)st;
    static struct ent many[500];
    for (unsigned i = 0; i < 500; i++)
        many[i] = (struct ent){0x1000 + 16 * (uint64_t)i, 1, 0, 0};
    write_elf(many, 500, 0, OK);
    for (uint64_t m = 1; m <= 8; m++)
        cap_vtab_unload(m * 0x10000000ull, m * 0x10000000ull + SIZE);
    unsigned tables = 0;
    for (uint64_t m = 100; m < 400; m++) {
        uint64_t w = cap_vt.w;
        assert_int_equal(cap_vtab_module(path, m * 0x10000000ull, SIZE, NULL, 0), 0);
        tables += cap_vt.w != w;
        assert_non_null(cap_vt_find(m * 0x10000000ull + 0x1000 + 16 * 499));
        cap_vtab_unload(m * 0x10000000ull, m * 0x10000000ull + SIZE);
        assert_null(cap_vt_find(m * 0x10000000ull + 0x1000));
    }
    assert_true(tables > 24);
}

int main(void)
{
    if (!mkdtemp(dir))
        return 1;
    snprintf(path, sizeof path, "%s/lib.so", dir);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(off_reads_nothing),
        cmocka_unit_test(damaged_reads_nothing),
        cmocka_unit_test(loads_and_unloads),
        cmocka_unit_test(grows),
        cmocka_unit_test(churns),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    unlink(path);
    rmdir(dir);
    return rc;
}
