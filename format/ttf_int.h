/*
 * ttf_int.h - internals shared by the format library's files: the one
 * bounds-checked cursor every parse goes through, the one corruption report
 * (CORRUPT / TRUNCATED); the arena and other small helpers are in
 * ttf_util.h.
 * Not installed; users read ttfmt.h.
 */
#ifndef TTF_INT_H
#define TTF_INT_H

#include <setjmp.h>
#include <stddef.h>
#include <stdint.h>

#include "ttf_util.h"
#include "ttfmt.h"

/* What went wrong and where: filled by ttfi_bad(), read by the caller. */
struct ttfi_problem {
    int code;               /* TT_ETRUNC or TT_ECORRUPT, 0 if none */
    uint64_t offset;        /* file offset of the record (or byte) at fault */
    char what[200];         /* "truncated record (MESSAGE needs 12 bytes, 3 left)" */
    const char *src;        /* reader source file that noticed it */
    int line;               /* and its line: one breakpoint catches all */
};

/* A read position in a byte range of the file. Every read checks the bytes
 * left; running out is "truncated" when the range ends where the file ends,
 * else "corrupt" (a length that overruns its container). */
struct ttfi_cursor {
    const uint8_t *p;       /* next byte to read */
    const uint8_t *end;     /* one past the last readable byte */
    const uint8_t *start;   /* the byte whose file offset is off0 */
    uint64_t off0;          /* file offset of start */
    const uint8_t *rec;     /* start of the record being read (for reports) */
    int end_is_eof;         /* 1: end is the end of the file */
    struct ttfi_problem *pb; /* where failures are reported (may be NULL) */
};

/* The single corruption report: records code, offset, message and the
 * reader's file:line in c->pb, returns code. Set a breakpoint here. */
int ttfi_bad(struct ttfi_cursor *c, int code, const char *src, int line,
             const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#define CORRUPT(c, ...) ttfi_bad((c), TT_ECORRUPT, __FILE__, __LINE__, __VA_ARGS__)
#define TRUNCATED(c, ...) ttfi_bad((c), TT_ETRUNC, __FILE__, __LINE__, __VA_ARGS__)

/* Running out of bytes: TRUNCATED at the file end, CORRUPT inside it. */
int ttfi_short(struct ttfi_cursor *c, uint64_t need, const char *what,
               const char *src, int line);
#define SHORT(c, need, what) ttfi_short((c), (need), (what), __FILE__, __LINE__)

int ttfi_uvar_slow(struct ttfi_cursor *c, uint64_t *v);

static inline uint64_t cur_left(const struct ttfi_cursor *c)
{
    return (uint64_t)(c->end - c->p);
}

static inline uint64_t cur_offset(const struct ttfi_cursor *c, const uint8_t *p)
{
    return c->off0 + (uint64_t)(p - c->start);
}

/* A uvar of one or two bytes (the common sizes) at *p, before end: 1 with
 * *v and *p moved past it; else 0 with nothing changed. */
static inline int uvar_short(const uint8_t **p, const uint8_t *end,
                             uint64_t *v)
{
    const uint8_t *b = *p;
    if (b < end && b[0] < 0x80) {
        *v = b[0];
        *p = b + 1;
        return 1;
    }
    if (end - b >= 2 && b[1] < 0x80) {
        *v = (uint64_t)(b[0] & 0x7f) | (uint64_t)b[1] << 7;
        *p = b + 2;
        return 1;
    }
    return 0;
}

/* svar: a zigzag-coded uvar. */
static inline int64_t unzigzag(uint64_t u)
{
    return (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
}

/* uvar: LEB128, at most 10 bytes, must fit 64 bits. */
static inline int cur_uvar(struct ttfi_cursor *c, uint64_t *v)
{
    if (uvar_short(&c->p, c->end, v))
        return 0;
    return ttfi_uvar_slow(c, v);
}

static inline int cur_svar(struct ttfi_cursor *c, int64_t *v)
{
    uint64_t u;
    int r = cur_uvar(c, &u);
    *v = r ? 0 : unzigzag(u);
    return r;
}

static inline int cur_u8(struct ttfi_cursor *c, uint8_t *v)
{
    *v = 0;
    if (c->p >= c->end)
        return SHORT(c, 1, "byte");
    *v = *c->p++;
    return 0;
}

/* n raw bytes; *out points at them in place. */
static inline int cur_bytes(struct ttfi_cursor *c, uint64_t n,
                            const uint8_t **out, const char *what)
{
    *out = c->p;
    if (n > cur_left(c))
        return SHORT(c, n, what);
    c->p += n;
    return 0;
}

/* Little-endian fixed-width integer of n bytes. */
static inline int cur_le(struct ttfi_cursor *c, int n, uint64_t *v)
{
    const uint8_t *p = c->p;
    int r = cur_bytes(c, (uint64_t)n, &p, "fixed-width field");
    uint64_t x = 0;
    for (int i = n - 1; !r && i >= 0; i--)
        x = (x << 8) | p[i];
    *v = x;
    return r;
}

/* str: uvar length (checked against the bytes left), then the bytes. */
static inline int cur_str(struct ttfi_cursor *c, const uint8_t **s, size_t *n)
{
    uint64_t len;
    int r = cur_uvar(c, &len);
    *s = c->p;
    *n = 0;
    if (r)
        return r;
    r = cur_bytes(c, len, s, "string");
    *n = r ? 0 : (size_t)len;
    return r;
}

/* ---- signatures (signature.c, used by sym.c) ----------------------------- */

typedef struct Dwfl_Module Dwfl_Module;

/* A module's compile units by address (built on first need when libdwfl
 * cannot find an address's unit: no .debug_aranges, as clang builds).
 * Kept by the caller per module, NULL at first; freed with
 * ttfi_cumap_free (NULL accepted). */
struct ttfi_cumap;
void ttfi_cumap_free(struct ttfi_cumap *map);

/* The signature of the function holding addr (a traced address, bias
 * included) in dm's DWARF; arrays and copied names from alloc(ctx, n),
 * other names point into dm's data. 0, TT_ENOTFOUND (no DWARF for addr;
 * *why says why, "no debug info (compiled without -g?)", ...),
 * TT_ENOMEM. */
int ttfi_dwarf_signature(Dwfl_Module *dm, struct ttfi_cumap **map,
                         uint64_t addr, void *(*alloc)(void *ctx, size_t n),
                         void *ctx, ttf_signature *sig, const char **why);
/* For the function at addr (as ttfi_dwarf_signature), what each argument
 * register 0..5 (rdi..r9) holding a pointer parameter points to: out[k]
 * "struct T" / "union T" (typedefs and qualifiers seen through), NULL for
 * none, a scalar or void pointee, or a compiler's clone (its parameters
 * may not be its origin's). 0, TT_ENOTFOUND, TT_ENOMEM. */
int ttfi_dwarf_pointees(Dwfl_Module *dm, struct ttfi_cumap **map, uint64_t addr,
                        void *(*alloc)(void *ctx, size_t n), void *ctx, const char *out[6]);
/* A guarded DWARF query (guard.c): a fault inside it (libdw reading
 * damaged debug info) returns to the sigsetjmp instead of ending the
 * program. Use:
 *     struct ttfi_guard g;
 *     if (sigsetjmp(g.jb, 1)) { ttfi_guard_off(&g, 1); ...damaged...; }
 *     ttfi_guard_on(&g); rc = query(...); ttfi_guard_off(&g, 0);
 * Variables the fault path reads are set before sigsetjmp. */
struct ttfi_guard {
    sigjmp_buf jb;              /* where a fault returns */
    struct ttfi_guard *prev;    /* the thread's enclosing guard */
};
void ttfi_guard_on(struct ttfi_guard *g);
void ttfi_guard_off(struct ttfi_guard *g, int faulted);

/* 1 if the machine code code[0..n) of one function (its entry at 0) can
 * write no memory but its own stack frame: a leaf that only reads through
 * its pointers (readonly.c); 0 when it may write or cannot be decoded. */
int ttfi_code_reads_only(const uint8_t *code, size_t n);

/* Does a function read memory other threads can write (reads.c)? */
enum { TTFI_READS_UNKNOWN = 0, TTFI_READS_OWN = 1, TTFI_READS_SHARED = 2 };
/* What a called address is (ttfi_reads_env.callee). */
enum { TTFI_CALLEE_OTHER = 0,   /* another module's code, or unknown */
       TTFI_CALLEE_FUNC,        /* a function of the file: *code, *n set */
       TTFI_CALLEE_HOOK };      /* a tracing hook */
/* What the caller knows of the file the code is in (link-time addresses). */
struct ttfi_reads_env {
    void *ctx;
    int position_dependent;     /* an ET_EXEC file: immediates may be
                                   addresses */
    /* 1: a is in a writable section; 0 read-only; -1 in none */
    int (*writable)(void *ctx, uint64_t a);
    /* what a call reaches: target (via_slot 0) or the word at target, a
     * GOT slot (via_slot 1); TTFI_CALLEE_* */
    int (*callee)(void *ctx, uint64_t target, int via_slot, const uint8_t **code,
                  size_t *n);
    /* the imported function a call to target (as callee's) reaches, by
     * its relocation's symbol; NULL if none or not known (cmpret.c; may
     * be NULL) */
    const char *(*import)(void *ctx, uint64_t target, int via_slot);
};
/* TTFI_READS_* of the code code[0..n) at link-time address addr, its
 * argument registers rdi..r9 at entry holding pointers where bit 0..5 of
 * ptr_args is set (scalars or nothing where not), arguments in the stack
 * that may be pointers where TTF_READS_STACK_ARGS is. */
int ttfi_code_reads(const struct ttfi_reads_env *env, uint64_t addr, const uint8_t *code,
                    size_t n, unsigned ptr_args);
/* The writable globals code[0..n) at link-time address addr names
 * (ttf_sym_code_globals): the first cap into out, the number found
 * returned, or -1 when its bytes (or a callee's) are not all known. */
long ttfi_code_globals(const struct ttfi_reads_env *env, uint64_t addr, const uint8_t *code,
                       size_t n, struct ttf_code_global *out, size_t cap);
/* A struct field a function's code reaches through a pointer parameter
 * (ttfi_code_fields): func's argument register reg (0..5 = rdi..r9) as
 * it came in, offset the operand's displacement. */
struct ttfi_code_field {
    uint64_t func;              /* link-time address of the function whose
                                   parameter it is (the asked one or a
                                   callee given it) */
    int reg;
    int64_t offset;
    unsigned access;            /* TTF_GLOBAL_READ | TTF_GLOBAL_WRITE */
};
/* The fields code[0..n) at addr reaches through the argument registers
 * whose bit is set in params (bit k: register k), with its direct calls
 * into the file given them, DEPTH deep (reads.c): the first cap into
 * out, the number found returned, or -1 when its bytes (or a callee's)
 * are not all known. */
long ttfi_code_fields(const struct ttfi_reads_env *env, uint64_t addr, const uint8_t *code,
                      size_t n, unsigned params, struct ttfi_code_field *out, size_t cap);
/* Does code[0..n) at link-time address addr return, on some path, a C
 * library comparison's result unchanged (cmpret.c)? TTFI_CMPRET_SIGN: a
 * sign-only routine's (ttfi_sign_only), TTFI_CMPRET_RELAY: an indirect
 * call's; 0: neither, or its bytes (or a callee's) are not all known. */
enum { TTFI_CMPRET_SIGN = 1, TTFI_CMPRET_RELAY = 2 };
unsigned ttfi_code_cmpret(const struct ttfi_reads_env *env, uint64_t addr, const uint8_t *code,
                          size_t n);
/* 1 if the C library function `name` specifies its result by its sign
 * only (memcmp, strcmp, ...: cmpret.c's list); 0 else or for NULL. */
int ttfi_sign_only(const char *name);
#ifdef _LIBELF_H
/* The same for the function at [lo, hi) (link-time addresses) of elf's
 * executable sections; 0 when the range is in none of them. */
int ttfi_elf_reads_only(Elf *elf, uint64_t lo, uint64_t hi);
#endif

/* How a parameter travels under the x86-64 psABI (abi.c). */
struct ttfi_place {
    int nint;                   /* integer registers it takes (0..2) */
    int nsse;                   /* SSE registers it takes (0..2) */
    int mem;                    /* 1: passed in memory (no register) */
    int byref;                  /* 1: a C++ class passed by invisible
                                   reference (nint 1: its copy's address) */
    int eb[2];                  /* in registers: each eightbyte's class in
                                   order, TTFI_EB_INT or TTFI_EB_SSE (0:
                                   none) */
};
#define TTFI_EB_INT 1
#define TTFI_EB_SSE 2
/* Where the value of owner's DW_AT_type (a parameter or a function's
 * return) travels: 0 and *pl, or -1 when its type cannot be judged (no
 * type, an unreadable field, an unaligned field). (Dwarf_Die: include
 * <elfutils/libdw.h>.) */
#ifdef _LIBDW_H
int ttfi_abi_place(Dwarf_Die *owner, struct ttfi_place *pl);
/* owner's DW_AT_type (through abstract origins) into *out: 0, or -1 when
 * it has none (abi.c, shared with signature.c). */
int ttfi_die_type(Dwarf_Die *owner, Dwarf_Die *out);
/* d's unsigned attribute name (through abstract origins), dflt if none. */
Dwarf_Word ttfi_die_udata(Dwarf_Die *d, unsigned name, Dwarf_Word dflt);
#endif

/* Source file and line of addr (bias included): libdwfl's answer, else
 * through the unit map. *file points into dm's data. 0, TT_ENOTFOUND,
 * TT_ENOMEM. */
int ttfi_dwarf_line(Dwfl_Module *dm, struct ttfi_cumap **map, uint64_t addr,
                    const char **file, int *line);
/* The compile unit holding addr (bias included), a split unit for a
 * skeleton, and the module's DWARF bias. 0, TT_ENOTFOUND (no unit, or its
 * .dwo is missing), TT_ENOMEM. (Dwarf_Die: include <elfutils/libdw.h>.) */
#ifdef _LIBDW_H
int ttfi_dwarf_unit(Dwfl_Module *dm, struct ttfi_cumap **map, uint64_t addr,
                    Dwarf_Die *cu, Dwarf_Addr *bias);
#endif
/* The inline chain at addr (bias included; inline.c): frames innermost
 * first, the out-of-line function last (its name from DWARF: the caller
 * may prefer the symbol's). The array from alloc(ctx, n), names and files
 * point into dm's data. 0, TT_ENOTFOUND (no DWARF function holds addr),
 * TT_ENOMEM. */
int ttfi_dwarf_inline(Dwfl_Module *dm, struct ttfi_cumap **map, uint64_t addr,
                      void *(*alloc)(void *ctx, size_t n), void *ctx,
                      ttf_inline_frame **out, size_t *nout);
/* The functions inlined into the function holding addr (bias included;
 * inline.c), deepest copy first, at most max into out; decl files from
 * alloc(ctx, n), names point into dm's data. 0 (*nout may be 0),
 * TT_ENOTFOUND (no DWARF function holds addr), TT_ENOMEM. */
int ttfi_dwarf_inlined_in(Dwfl_Module *dm, struct ttfi_cumap **map, uint64_t addr,
                          void *(*alloc)(void *ctx, size_t n), void *ctx,
                          ttf_inlined *out, size_t max, size_t *nout);
/* 0 if dm has readable DWARF; else 1 with why (len bytes) saying "no debug
 * info" or "debug info unreadable (<libdw's reason>)". */
int ttfi_dwarf_missing(Dwfl_Module *dm, char *why, size_t len);

/* ---- machine code (code.c, on sym.c's sessions) --------------------------- */

/* A slot for what a file above sym.c keeps per module (code.c: a module's
 * functions and their machine code). sym.c frees it with the module's
 * session through the slot's own free function, so sym.c calls nothing
 * above it (format/STAGES). Both NULL until the owner fills the slot. */
struct ttfi_modslot {
    void *p;                   /* the owner's data */
    void (*free)(void *p);     /* how sym.c frees it (NULL: nothing kept) */
};

/* Module i of s as sym.c opened it: its libdwfl module (NULL when no file
 * with its build-id was found) and the slot code.c keeps for it. NULL if i
 * is out of range. */
struct ttfi_modslot *ttfi_sym_module(ttf_sym *s, size_t i, Dwfl_Module **dm);
/* name demangled as ttf_sym_name shows it (an arena copy, or name itself). */
const char *ttfi_sym_demangle(ttf_sym *s, const char *name);
/* ttfi_dwarf_pointees of module i's function at addr (its DWARF
 * address: link-time plus the module's bias), guarded; out[k] NULL when
 * not known. 0 or a TT_E* code. */
int ttfi_sym_pointees(ttf_sym *s, size_t i, uint64_t addr, const char *out[6]);
/* n bytes in s's arena (freed with s), NULL when memory runs out. */
void *ttfi_sym_alloc(ttf_sym *s, size_t n);

/* ---- files a trace names (safeopen.c) and symbol tables (symtab.c) ----- */

#include <sys/types.h>

/* Open path read-only without blocking, a regular file only (a FIFO or a
 * device at a recorded path is refused before it is opened). The fd, or
 * -1 with *why saying why ("not a regular file", strerror). */
int ttfi_open_regular(const char *path, const char **why);
/* Read the size bytes of the file open as fd (its fstat size) into a
 * malloc'd buffer with a NUL after them: *buf, *got (less when the file
 * was cut short meanwhile). Closes fd. 0, TT_ENOMEM, or TT_EIO (a read
 * failed). */
int ttfi_read_all(int fd, size_t size, char **buf, size_t *got);
/* 1 if the file open as fd at path could only have been put there by a
 * trusted user: it and every folder above its real path are owned by
 * root, us or `also` (the trace's owner) and writable by no one else (a
 * world-writable folder only when sticky, like /tmp). 0 with where (len
 * bytes) naming the file or folder that others can write. */
int ttfi_trusted_place(const char *path, int fd, uid_t also, char *where,
                       size_t len);

/* A module's symbols sorted by address (built once; O(log n) look-ups). */
struct ttfi_symtab;
/* Build dm's table. 0 or TT_ENOMEM (*out NULL). */
int ttfi_symtab_build(Dwfl_Module *dm, struct ttfi_symtab **out);
/* The symbol holding addr (bias included) as dwfl_module_addrinfo would
 * answer, *off its offset from the symbol; NULL if none (or t NULL). */
const char *ttfi_symtab_find(const struct ttfi_symtab *t, uint64_t addr,
                             uint64_t *off);
void ttfi_symtab_free(struct ttfi_symtab *t);   /* NULL accepted */

/* strings.c: a STRINGS record's payload (format 1.6) checked entry by
 * entry: 0, or -1 with why (wlen bytes) saying what is wrong. */
int ttfi_strings_check(const uint8_t *p, size_t len, char *why, size_t wlen);

#endif
