/*
 * test_signature.c - function signatures from DWARF (ttf_sym_signature) on
 * functions of this very test binary (built with -g): return classes and
 * sizes, parameter names, classes and the registers they arrive in (a
 * struct returned in memory shifts them, floats and big structs take none,
 * the seventh has none), variadic functions, also from a copy without
 * .debug_aranges (as clang builds); a stripped copy of the binary gives
 * TT_ENOTFOUND and one notice. Then the value rules of value.c:
 * which classes compare, normalising, formatting; and a gcc clone's
 * registers from its own DWARF; enums' enumerators from DWARF
 * (DW_TAG_enumerator, signed and unsigned, a flags enum) and their text;
 * small structs by the psABI's eightbytes, shown field by field. The
 * struct fields a function's code reaches through its pointer parameters
 * (ttf_sym_code_fields), typed from DWARF: through a typedef, kept over a
 * call, in a callee given a void * parameter; must not: a local struct,
 * a pointer reloaded from memory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ttfmt.h"
#include "self_module.h"
#include "tmpdir.h"

enum sig_color { SIG_RED = -1, SIG_GREEN = 1 };
enum sig_perm { SP_NONE = 0, SP_READ = 1, SP_WRITE = 2, SP_EXEC = 4 };
enum sig_step { ST_A, ST_B, ST_C, ST_D, ST_E };
struct sig_big { long a, b, c, d; };
struct sig_node { struct sig_node *next; int v; };

__attribute__((noinline)) int sig_int(int a, const char *s, long n);
__attribute__((noinline)) void sig_void(double d, unsigned char c);
__attribute__((noinline)) enum sig_color sig_enum(bool b, struct sig_big bg,
                                                  size_t z);
__attribute__((noinline)) struct sig_big sig_big(int x);
__attribute__((noinline)) struct sig_node *sig_ptr(struct sig_node *n, int *p);
__attribute__((noinline)) int sig_var(const char *fmt, ...);
__attribute__((noinline)) enum sig_perm sig_perm(enum sig_color c,
                                                 enum sig_step st);
__attribute__((noinline)) short sig_seven(int a, int b, int c, int d, int e,
                                          int f, int g);

int sig_int(int a, const char *s, long n) { return a + (int)n + (s ? 1 : 0); }
void sig_void(double d, unsigned char c) { __asm__ volatile("" :: "g"(d), "g"(c)); }
enum sig_color sig_enum(bool b, struct sig_big bg, size_t z)
{
    return b && bg.a && z ? SIG_RED : SIG_GREEN;
}
struct sig_big sig_big(int x) { struct sig_big r = {x, x, x, x}; return r; }
struct sig_node *sig_ptr(struct sig_node *n, int *p) { return p ? n : NULL; }
int sig_var(const char *fmt, ...) { return fmt ? 1 : 0; }
enum sig_perm sig_perm(enum sig_color c, enum sig_step st)
{
    return c == SIG_RED ? SP_READ | SP_EXEC : st == ST_E ? SP_WRITE : SP_NONE;
}
short sig_seven(int a, int b, int c, int d, int e, int f, int g)
{
    return (short)(a + b + c + d + e + f + g);
}

/* gcc -O2 makes sig_clone.constprop.0(x): every call passes mode 3 and a
 * tag, so the clone receives x alone (in rdi). */
static __attribute__((noinline)) int sig_clone(int x, int mode, const char *tag)
{
    return mode == 3 ? x * 3 + (int)strlen(tag) : x - mode;
}
int sig_clone_user(int x);
int sig_clone_user(int x) { return sig_clone(x, 3, "ab") + sig_clone(x + 1, 3, "ab"); }

/* An output buffer (char *) beside an input string (a typedef of const
 * char): only the input is a string for values mode. */
typedef const char cchar;
__attribute__((noinline)) int sig_buf(char *out, cchar *in, long n);
int sig_buf(char *out, cchar *in, long n) { out[0] = in[0]; return (int)n; }

static void *const fns[] = {(void *)sig_int, (void *)sig_void, (void *)sig_enum,
                            (void *)sig_big, (void *)sig_ptr, (void *)sig_var,
                            (void *)sig_seven, (void *)sig_perm};
#define NFNS (sizeof fns / sizeof fns[0])

static int trace_no;

/* A trace of one call to each of fns, with the module at path. */
static ttf_trace *make_trace(const char *path)
{
    char name[512];
    ttf_writer *w = NULL;
    ttf_trace *t = NULL;

    snprintf(name, sizeof name, "%s/s%d.trc", tu_tmpdir, trace_no++);
    assert_int_equal(ttf_writer_open(name, NULL, &w), 0);
    assert_int_equal(ttf_write_module(w, 0, 100, tu_self.base, tu_self.size,
                                      tu_self.build_id, tu_self.build_id_len, path), 0);
    for (size_t i = 0; i < NFNS; i++) {
        uint64_t a = (uint64_t)(uintptr_t)fns[i];
        assert_int_equal(ttf_write_enter(w, 0, 1000 + 10 * i, a), 0);
        assert_int_equal(ttf_write_exit(w, 0, 1005 + 10 * i, a), 0);
    }
    assert_int_equal(ttf_writer_close(w, 0), 0);
    assert_int_equal(ttf_open(name, &t, NULL), 0);
    return t;
}

/* The signatures of fns, in order, from trace t. */
static void signatures(ttf_trace *t, ttf_sym *s, const ttf_signature **out,
                       int *rc)
{
    ttf_iter *it;
    ttf_event ev;
    size_t k = 0;
    assert_int_equal(ttf_iter_open(t, 0, &it), 0);
    while (ttf_iter_next(it, &ev) == 1 && k < NFNS) {
        if (ev.kind != TTF_EV_ENTER)
            continue;
        rc[k] = ttf_sym_signature(s, &ev, &out[k]);
        k++;
    }
    ttf_iter_close(it);
    assert_int_equal(k, NFNS);
}

static void check_param(const ttf_param *p, const char *name, int cls,
                        unsigned size, int reg)
{
    assert_string_equal(p->name, name);
    assert_int_equal(p->type.cls, cls);
    assert_int_equal(p->type.size, size);
    assert_int_equal(p->reg, reg);
}

/* The signatures of fns read from the module at path (this binary or a
 * copy of it) are the declared ones. */
static void check_signatures(const char *path)
{
    ttf_trace *t = make_trace(path);
    ttf_sym *s;
    const ttf_signature *sg[NFNS];
    int rc[NFNS];

    assert_int_equal(sig_int(1, "x", 2) + sig_var("a", 1) + sig_seven(1, 1, 1, 1, 1, 1, 1), 12);
    assert_int_equal(ttf_sym_open(t, &s), 0);
    signatures(t, s, sg, rc);
    for (size_t i = 0; i < NFNS; i++)
        assert_int_equal(rc[i], 0);
    /* int sig_int(int a, const char *s, long n) */
    assert_int_equal(sg[0]->ret.cls, TTF_VC_SIGNED);
    assert_int_equal(sg[0]->ret.size, 4);
    assert_string_equal(sg[0]->ret.name, "int");
    assert_int_equal(sg[0]->nparams, 3);
    check_param(&sg[0]->params[0], "a", TTF_VC_SIGNED, 4, 0);
    check_param(&sg[0]->params[1], "s", TTF_VC_POINTER, 8, 1);
    assert_string_equal(sg[0]->params[1].type.name, "char *");
    check_param(&sg[0]->params[2], "n", TTF_VC_SIGNED, 8, 2);
    /* void sig_void(double d, unsigned char c): d in xmm0, c in rdi */
    assert_int_equal(sg[1]->ret.cls, TTF_VC_VOID);
    check_param(&sg[1]->params[0], "d", TTF_VC_FLOAT, 8, -1);
    check_param(&sg[1]->params[1], "c", TTF_VC_UNSIGNED, 1, 0);
    /* enum sig_color sig_enum(bool b, struct sig_big bg, size_t z) */
    assert_int_equal(sg[2]->ret.cls, TTF_VC_ENUM);
    assert_int_equal(sg[2]->ret.size, 4);
    assert_int_equal(sg[2]->ret.is_signed, 1);
    check_param(&sg[2]->params[0], "b", TTF_VC_BOOL, 1, 0);
    check_param(&sg[2]->params[1], "bg", TTF_VC_OTHER, 32, -1);
    check_param(&sg[2]->params[2], "z", TTF_VC_UNSIGNED, 8, 1);
    assert_string_equal(sg[2]->params[2].type.name, "size_t");
    /* struct sig_big sig_big(int x): the result's address takes rdi */
    assert_int_equal(sg[3]->ret.cls, TTF_VC_OTHER);
    assert_int_equal(sg[3]->ret.size, 32);
    check_param(&sg[3]->params[0], "x", TTF_VC_SIGNED, 4, 1);
    /* struct sig_node *sig_ptr(struct sig_node *n, int *p) */
    assert_int_equal(sg[4]->ret.cls, TTF_VC_POINTER);
    assert_string_equal(sg[4]->ret.name, "struct sig_node *");
    check_param(&sg[4]->params[1], "p", TTF_VC_POINTER, 8, 1);
    /* int sig_var(const char *fmt, ...) */
    assert_int_equal(sg[5]->variadic, 1);
    assert_int_equal(sg[5]->nparams, 1);
    assert_int_equal(sg[0]->variadic, 0);
    /* short sig_seven(7 ints): the seventh is on the stack */
    assert_int_equal(sg[6]->ret.cls, TTF_VC_SIGNED);
    assert_int_equal(sg[6]->ret.size, 2);
    assert_int_equal(sg[6]->nparams, 7);
    check_param(&sg[6]->params[5], "f", TTF_VC_SIGNED, 4, 5);
    check_param(&sg[6]->params[6], "g", TTF_VC_SIGNED, 4, -1);
    assert_int_equal(ttf_sym_notice_count(s), 0);
    const char *file = NULL;
    int line = 0;
    assert_int_equal(ttf_sym_line(s, (uint64_t)(uintptr_t)sig_int, &file, &line), 0);
    assert_non_null(strstr(file, "test_signature.c"));
    assert_true(line > 30);
    ttf_sym_close(s);
    ttf_close(t);
}

static void test_signatures(void **state)
{
    (void)state;
    check_signatures(tu_self.path);
}

/* v formatted as a value of type ty. */
static const char *fmt(const ttf_vtype *ty, uint64_t v)
{
    static char buf[128];
    ttf_value_format(buf, sizeof buf, v, ty);
    return buf;
}

/* Enums by name: the enumerators of this binary's enums as DWARF gives
 * them (a negative one in a signed enum, a flags enum, a plain sequence),
 * in return types and parameters, and how their values print. */
static void test_enums(void **state)
{
    (void)state;
    ttf_trace *t = make_trace(tu_self.path);
    ttf_sym *s;
    const ttf_signature *sg[NFNS];
    int rc[NFNS];

    assert_int_equal(sig_perm(SIG_RED, ST_A), SP_READ | SP_EXEC);
    assert_int_equal(ttf_sym_open(t, &s), 0);
    signatures(t, s, sg, rc);
    /* enum sig_color sig_enum(...): SIG_RED = -1, SIG_GREEN = 1 */
    const ttf_vtype *col = &sg[2]->ret;
    assert_int_equal(rc[2], 0);
    assert_int_equal(col->cls, TTF_VC_ENUM);
    assert_int_equal(col->nenums, 2);
    assert_string_equal(col->enums[0].name, "SIG_RED");
    assert_int_equal(col->enums[0].value, (uint64_t)-1);
    assert_string_equal(col->enums[1].name, "SIG_GREEN");
    assert_string_equal(fmt(col, 0xffffffffull), "SIG_RED (-1)");
    assert_string_equal(fmt(col, 0xdead00000001ull), "SIG_GREEN (1)");
    assert_string_equal(fmt(col, 7), "7");
    /* enum sig_perm sig_perm(enum sig_color c, enum sig_step st) */
    assert_int_equal(rc[7], 0);
    const ttf_vtype *perm = &sg[7]->ret;
    assert_int_equal(perm->cls, TTF_VC_ENUM);
    assert_int_equal(perm->nenums, 4);
    assert_string_equal(fmt(perm, 2), "SP_WRITE (2)");
    assert_string_equal(fmt(perm, 0), "SP_NONE (0)");
    assert_string_equal(fmt(perm, 5), "SP_READ|SP_EXEC (5)");
    assert_string_equal(fmt(perm, 7), "SP_READ|SP_WRITE|SP_EXEC (7)");
    assert_string_equal(fmt(perm, 9), "9");        /* bit 3 is no enumerator */
    assert_int_equal(sg[7]->nparams, 2);
    const ttf_vtype *c = &sg[7]->params[0].type, *st = &sg[7]->params[1].type;
    assert_int_equal(c->cls, TTF_VC_ENUM);
    assert_int_equal(c->nenums, 2);
    assert_int_equal(st->nenums, 5);
    assert_string_equal(st->enums[4].name, "ST_E");
    assert_string_equal(fmt(st, 3), "ST_D (3)");
    /* a plain sequence is no set of flags: 5 is no ST_B|ST_E */
    assert_string_equal(fmt(st, 5), "5");
    assert_int_equal(sg[7]->params[0].reg, 0);
    assert_int_equal(sg[7]->params[1].reg, 1);
    ttf_sym_close(s);
    ttf_close(t);
}

/* A copy without .debug_aranges (as clang builds: libdwfl cannot find an
 * address's unit then): the same signatures and lines, through the map of
 * the units' own ranges. */
static void test_no_aranges(void **state)
{
    (void)state;
    char copy[600], cmd[5000];
    snprintf(copy, sizeof copy, "%s/noaranges", tu_tmpdir);
    snprintf(cmd, sizeof cmd, "objcopy --remove-section .debug_aranges '%s' '%s'",
             tu_self.path, copy);
    assert_int_equal(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "readelf -S '%s' | grep -q debug_aranges", copy);
    assert_int_not_equal(system(cmd), 0);
    check_signatures(copy);
}

/* A copy without debug info: no signatures, one notice for the module. */
static void test_no_debug_info(void **state)
{
    (void)state;
    char copy[600], cmd[5000];
    snprintf(copy, sizeof copy, "%s/stripped", tu_tmpdir);
    snprintf(cmd, sizeof cmd, "objcopy --strip-debug '%s' '%s'", tu_self.path, copy);
    assert_int_equal(system(cmd), 0);
    ttf_trace *t = make_trace(copy);
    ttf_sym *s;
    const ttf_signature *sg[NFNS];
    int rc[NFNS];
    assert_int_equal(ttf_sym_open(t, &s), 0);
    signatures(t, s, sg, rc);
    for (size_t i = 0; i < NFNS; i++) {
        assert_int_equal(rc[i], TT_ENOTFOUND);
        assert_null(sg[i]);
    }
    assert_int_equal(ttf_sym_notice_count(s), 1);
    assert_non_null(strstr(ttf_sym_get_notice(s, 0), "stripped: no debug info; "
                                                     "values not compared"));
    ttf_event ev = {.kind = TTF_EV_MESSAGE};
    assert_int_equal(ttf_sym_signature(s, &ev, &sg[0]), TT_EINVAL);
    assert_int_equal(ttf_sym_signature(NULL, &ev, &sg[0]), TT_EINVAL);
    ttf_sym_close(s);
    ttf_close(t);
}

static void test_value_rules(void **state)
{
    (void)state;
    ttf_vtype i32 = {TTF_VC_SIGNED, 4, 0, "int", NULL, 0, NULL, 0}, u8 = {TTF_VC_UNSIGNED, 1, 0, "uchar", NULL, 0, NULL, 0};
    ttf_vtype b = {TTF_VC_BOOL, 1, 0, "bool", NULL, 0, NULL, 0}, p = {TTF_VC_POINTER, 8, 0, "node *", NULL, 0, NULL, 0};
    ttf_vtype e = {TTF_VC_ENUM, 4, 1, "color", NULL, 0, NULL, 0}, v = {TTF_VC_VOID, 0, 0, "void", NULL, 0, NULL, 0};
    ttf_vtype f = {TTF_VC_FLOAT, 8, 0, "double", NULL, 0, NULL, 0}, o = {TTF_VC_OTHER, 32, 0, "big", NULL, 0, NULL, 0};
    ttf_vtype f4 = {TTF_VC_FLOAT, 4, 0, "float", NULL, 0, NULL, 0}, ld = {TTF_VC_FLOAT, 16, 0, "long double", NULL, 0, NULL, 0};
    char buf[64];

    assert_true(ttf_value_comparable(&i32) && ttf_value_comparable(&p) &&
                ttf_value_comparable(&b) && ttf_value_comparable(&e));
    /* float and double (format 1.5) compare by value; long double is not recorded */
    assert_true(ttf_value_comparable(&f) && ttf_value_comparable(&f4));
    assert_false(ttf_value_comparable(&v) || ttf_value_comparable(&ld) ||
                 ttf_value_comparable(&o) || ttf_value_comparable(NULL));
    ttf_value_format(buf, sizeof buf, 0x3fb999999999999aull, &f);
    assert_string_equal(buf, "0.1");
    ttf_value_format(buf, sizeof buf, 0xdeadbeef3dcccccdull, &f4);  /* the low 4 bytes */
    assert_string_equal(buf, "0.1");
    ttf_value_format(buf, sizeof buf, 0xc004000000000000ull, &f);
    assert_string_equal(buf, "-2.5");
    assert_int_equal(ttf_value_norm(0xdeadbeef3dcccccdull, &f4), 0x3dcccccdull);
    ttf_value_format(buf, sizeof buf, 0, &ld);
    assert_string_equal(buf, "(float)");
    /* the upper half of rax is garbage for an int */
    assert_int_equal(ttf_value_norm(0xdeadbeefffffffeaull, &i32), (uint64_t)-22);
    assert_int_equal(ttf_value_norm(0x1234567800000000ull, &i32), 0);
    assert_int_equal(ttf_value_norm(0x1ff, &u8), 0xff);
    assert_int_equal(ttf_value_norm(0x100, &b), 0);
    assert_int_equal(ttf_value_norm(0x7ffd1234, &p), 1);
    assert_int_equal(ttf_value_norm(0, &p), 0);
    assert_int_equal(ttf_value_norm(0xffffffffull, &e), (uint64_t)-1);
    ttf_value_format(buf, sizeof buf, 0xffffffeaull, &i32);
    assert_string_equal(buf, "-22");
    ttf_value_format(buf, sizeof buf, 0x41, &u8);
    assert_string_equal(buf, "'A' (65)");
    ttf_value_format(buf, sizeof buf, 1, &b);
    assert_string_equal(buf, "true");
    ttf_value_format(buf, sizeof buf, 0, &p);
    assert_string_equal(buf, "NULL");
    ttf_value_format(buf, sizeof buf, 0x7ffd1234, &p);
    assert_string_equal(buf, "0x7ffd1234");
    ttf_value_format(buf, sizeof buf, (uint64_t)-5, NULL);
    assert_string_equal(buf, "-5");
    ttf_value_format(buf, sizeof buf, 0x55550000beefull, NULL);
    assert_string_equal(buf, "0x55550000beef");
    /* enumerators given by hand: one-bit ones of 4 and more make flags */
    static const ttf_enumerator fl[] = {{"F_A", 1}, {"F_B", 2}, {"F_C", 8}, {"F_AC", 9}};
    ttf_vtype ef = {TTF_VC_ENUM, 4, 0, "fl", fl, 4, NULL, 0};
    ttf_value_format(buf, sizeof buf, 11, &ef);
    assert_string_equal(buf, "F_A|F_B|F_C (11)");
    ttf_value_format(buf, sizeof buf, 9, &ef);
    assert_string_equal(buf, "F_AC (9)");
    ttf_value_format(buf, sizeof buf, 16, &ef);
    assert_string_equal(buf, "16");
    static const ttf_enumerator two[] = {{"R", 1}, {"W", 2}};
    ttf_vtype e2 = {TTF_VC_ENUM, 4, 0, "rw", two, 2, NULL, 0};
    ttf_value_format(buf, sizeof buf, 3, &e2);
    assert_string_equal(buf, "3");
    assert_int_equal(ttf_value_format(buf, 2, 12345, &i32), 5);
    assert_string_equal(buf, "1");
}

/* A trace of no calls with this binary as its module (file base). */
static ttf_trace *module_trace(const char *base)
{
    char name[512];
    ttf_writer *w = NULL;
    ttf_trace *t = NULL;

    snprintf(name, sizeof name, "%s/%s", tu_tmpdir, base);
    assert_int_equal(ttf_writer_open(name, NULL, &w), 0);
    assert_int_equal(ttf_write_module(w, 0, 100, tu_self.base, tu_self.size,
                                      tu_self.build_id, tu_self.build_id_len,
                                      tu_self.path), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    assert_int_equal(ttf_open(name, &t, NULL), 0);
    return t;
}

/* A gcc clone's registers come from its own DWARF: x in rdi; mode and tag
 * (propagated constants) in none, where the declared order would put them
 * in rsi and rdx. Found by name through ttf_sym_code; skipped when the
 * compiler made no such clone (-O1 builds, clang). */
static void test_clone(void **state)
{
    ttf_trace *t = NULL;
    ttf_sym *s = NULL;
    const ttf_code_info *ci = NULL;
    const ttf_signature *sg = NULL;
    uint64_t addr = 0;
    (void)state;
    assert_int_equal(sig_clone_user(1), 13);
    t = module_trace("clone.trc");
    assert_int_equal(ttf_sym_open(t, &s), 0);
    assert_int_equal(ttf_sym_code(s, 0, &ci), 0);
    for (size_t i = 0; i < ci->nfuncs; i++)
        if (strncmp(ci->funcs[i].name, "sig_clone.constprop.", 20) == 0)
            addr = ci->funcs[i].addr + ci->bias;
    if (!addr) {
        ttf_sym_close(s);
        ttf_close(t);
        print_message("no sig_clone.constprop clone in this build: skipped\n");
        skip();
    }
    ttf_event ev = {.kind = TTF_EV_ENTER, .addr = addr, .time_ns = 200};
    assert_int_equal(ttf_sym_signature(s, &ev, &sg), 0);
    assert_int_equal(sg->nparams, 3);
    check_param(&sg->params[0], "x", TTF_VC_SIGNED, 4, 0);
    check_param(&sg->params[1], "mode", TTF_VC_SIGNED, 4, -1);
    check_param(&sg->params[2], "tag", TTF_VC_POINTER, 8, -1);
    assert_int_equal(sg->ret.cls, TTF_VC_SIGNED);
    ttf_sym_close(s);
    ttf_close(t);
}

struct sig_mix { int id; double w; };          /* INTEGER, SSE */
struct sig_pair { long a; int b[2]; };         /* INTEGER, INTEGER */
struct sig_in { struct sig_mix m; };           /* nested: "m.id", "m.w" */
union sig_un { int i; float f; };              /* a union: no fields */
__attribute__((noinline)) int sig_small(struct sig_mix m, struct sig_pair p,
                                        struct sig_big bg, union sig_un u,
                                        struct sig_in in, int k);
int sig_small(struct sig_mix m, struct sig_pair p, struct sig_big bg, union sig_un u,
              struct sig_in in, int k)
{
    return m.id + (int)p.a + (int)bg.a + u.i + in.m.id + k;
}

__attribute__((noinline)) struct sig_mix sig_mkmix(int id);
__attribute__((noinline)) struct sig_pair sig_mkpair(long a);
struct sig_mix sig_mkmix(int id) { struct sig_mix m = {id, id / 4.0}; return m; }
struct sig_pair sig_mkpair(long a) { struct sig_pair p = {a, {1, 2}}; return p; }

/* The signature of fn from a trace that records the SSE registers
 * (xmm 1) or not. */
static const ttf_signature *fn_sig(int xmm, ttf_trace **t, ttf_sym **s, void *fn)
{
    ttf_writer_opts o = {.values = 1, .xmm = xmm};
    ttf_writer *w = NULL;
    const ttf_signature *sg = NULL;
    char name[512];
    snprintf(name, sizeof name, "%s/small%d.trc", tu_tmpdir, trace_no++);
    assert_int_equal(ttf_writer_open(name, &o, &w), 0);
    assert_int_equal(ttf_write_module(w, 0, 100, tu_self.base, tu_self.size,
                                      tu_self.build_id, tu_self.build_id_len,
                                      tu_self.path), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    assert_int_equal(ttf_open(name, t, NULL), 0);
    assert_int_equal(ttf_sym_open(*t, s), 0);
    ttf_event ev = {.kind = TTF_EV_ENTER, .addr = (uint64_t)(uintptr_t)fn,
                    .time_ns = 200};
    assert_int_equal(ttf_sym_signature(*s, &ev, &sg), 0);
    return sg;
}

static const ttf_signature *small_sig(int xmm, ttf_trace **t, ttf_sym **s)
{
    const ttf_signature *sg = fn_sig(xmm, t, s, (void *)sig_small);
    assert_int_equal(sg->nparams, 6);
    return sg;
}

static const char *pfmt(const ttf_param *p, const ttf_event *ev)
{
    static char buf[256];
    ttf_param_format(buf, sizeof buf, p, ev);
    return buf;
}

/* Small structs by the psABI, eightbyte by eightbyte: {int, double} takes
 * rdi and xmm0, {long, int[2]} rsi and rdx, a 32-byte struct is in
 * memory, a union takes rcx (shown raw), a nested {int, double} r8 and
 * xmm1, and k r9: shown field by field from those registers, never
 * shifting k. Without SSE registers in the trace the structs with an SSE
 * eightbyte are "?" and the rest keep their places. Results: a struct in
 * rax and xmm0 is shown, one needing rdx is not. */
static void test_small_structs(void **state)
{
    ttf_trace *t = NULL;
    ttf_sym *s = NULL;
    union sig_un u = {.f = 1.5f};
    struct sig_mix m = {7, 2.5};
    (void)state;
    assert_int_equal(sig_small(m, (struct sig_pair){-1, {2, 3}}, (struct sig_big){0, 0, 0, 0},
                               u, (struct sig_in){m}, 4), 17 + u.i);
    const ttf_signature *sg = small_sig(1, &t, &s);
    const ttf_param *p = sg->params;
    check_param(&p[0], "m", TTF_VC_OTHER, 16, 0);
    assert_int_equal(p[0].reg2, TTF_XMM_SLOT(0));
    assert_int_equal(p[0].type.nfields, 2);
    assert_string_equal(p[0].type.fields[1].name, "w");
    assert_int_equal(p[0].type.fields[1].offset, 8);
    assert_int_equal(p[0].type.fields[1].type.cls, TTF_VC_FLOAT);
    check_param(&p[1], "p", TTF_VC_OTHER, 16, 1);
    assert_int_equal(p[1].reg2, 2);
    check_param(&p[2], "bg", TTF_VC_OTHER, 32, -1);
    assert_int_equal(p[2].mem, 1);
    check_param(&p[3], "u", TTF_VC_OTHER, 4, 3);
    assert_null(p[3].type.fields);
    check_param(&p[4], "in", TTF_VC_OTHER, 16, 4);
    assert_int_equal(p[4].reg2, TTF_XMM_SLOT(1));
    check_param(&p[5], "k", TTF_VC_SIGNED, 4, 5);

    double w = 2.5, w2 = -0.75;
    ttf_event ev = {.kind = TTF_EV_ENTER, .has_values = 1};
    ev.argregs[0] = 0xdead000000000007ull;      /* id 7, padding garbage */
    memcpy(&ev.argregs[TTF_XMM_SLOT(0)], &w, 8);
    ev.argregs[1] = (uint64_t)-1;
    ev.argregs[2] = 0x0000000300000002ull;
    ev.argregs[3] = 0xffffffff3fc00000ull;      /* 1.5f and garbage */
    ev.argregs[4] = 9;
    memcpy(&ev.argregs[TTF_XMM_SLOT(1)], &w2, 8);
    ev.argregs[5] = 4;
    assert_string_equal(pfmt(&p[0], &ev), "{id=7, w=2.5}");
    assert_string_equal(pfmt(&p[1], &ev), "{a=-1, b[0]=2, b[1]=3}");
    assert_string_equal(pfmt(&p[2], &ev), "(in memory)");
    assert_string_equal(pfmt(&p[3], &ev), "{0x3fc00000}");
    assert_string_equal(pfmt(&p[4], &ev), "{m.id=9, m.w=-0.75}");
    assert_string_equal(pfmt(&p[5], &ev), "4");
    char small[8];
    assert_int_equal(ttf_param_format(small, sizeof small, &p[1], &ev), 22);
    assert_string_equal(small, "{a=-1, ");
    ttf_sym_close(s);
    ttf_close(t);

    /* results: {int, double} in rax and xmm0; {long, int[2]} in rax and
     * rdx, which is not recorded */
    assert_int_equal(sig_mkmix(2).id + sig_mkpair(3).a, 5);
    sg = fn_sig(1, &t, &s, (void *)sig_mkmix);
    assert_int_equal(sg->ret_eb[0], TTF_RET_RAX);
    assert_int_equal(sg->ret_eb[1], TTF_RET_XMM0);
    ttf_event ex = {.kind = TTF_EV_EXIT, .has_values = 1, .retval = 0x1234500000002ull};
    memcpy(&ex.retxmm, &w2, 8);
    char rb[64];
    ttf_ret_format(rb, sizeof rb, sg, &ex);
    assert_string_equal(rb, "{id=2, w=-0.75}");
    ttf_sym_close(s);
    ttf_close(t);
    sg = fn_sig(1, &t, &s, (void *)sig_mkpair);
    assert_int_equal(sg->ret_eb[0], TTF_RET_UNREC);
    assert_int_equal(sg->ret_eb[1], TTF_RET_UNREC);
    ttf_ret_format(rb, sizeof rb, sg, &ex);
    assert_string_equal(rb, "(rdx or xmm1: not recorded)");
    ttf_sym_close(s);
    ttf_close(t);

    sg = small_sig(0, &t, &s);
    p = sg->params;
    assert_int_equal(p[0].reg, -1);
    assert_string_equal(pfmt(&p[0], &ev), "?");
    check_param(&p[1], "p", TTF_VC_OTHER, 16, 1);
    assert_string_equal(pfmt(&p[1], &ev), "{a=-1, b[0]=2, b[1]=3}");
    check_param(&p[5], "k", TTF_VC_SIGNED, 4, 5);
    ttf_sym_close(s);
    ttf_close(t);
    sg = fn_sig(0, &t, &s, (void *)sig_mkmix);     /* xmm0 not recorded */
    assert_int_equal(sg->ret_eb[0], TTF_RET_UNREC);
    ttf_sym_close(s);
    ttf_close(t);
}

static const ttf_vt_entry *vt_find(const ttf_vt_entry *e, size_t n, void *fn)
{
    uint64_t a = (uint64_t)(uintptr_t)fn - tu_self.base;
    for (size_t i = 0; i < n; i++)
        if (e[i].addr == a)
            return &e[i];
    return NULL;
}

/* Values mode's per-function table from this binary's DWARF: the const
 * char * registers (sig_int's s in rsi, sig_var's fmt in rdi, sig_buf's in
 * through a typedef in rsi, not its output buffer), SSE users (a
 * double parameter, a struct with a double eightbyte, a struct result in
 * xmm0, a variadic function), and functions with neither left out; sorted. */
static void test_value_table(void **state)
{
    ttf_vt_entry *e = NULL;
    size_t n = 0;
    (void)state;
    assert_int_equal(ttf_value_table(tu_self.path, &e, &n), 0);
    assert_true(n >= 5);
    for (size_t i = 1; i < n; i++)
        assert_true(e[i - 1].addr <= e[i].addr);
    const ttf_vt_entry *v = vt_find(e, n, (void *)sig_int);
    assert_non_null(v);
    assert_int_equal(v->cstr, 1 << 1);
    assert_int_equal(v->sstr, 0);
    assert_int_equal(v->flags, 0);
    assert_non_null(v = vt_find(e, n, (void *)sig_var));
    assert_int_equal(v->cstr, 1 << 0);
    assert_int_equal(v->flags, TTF_VT_SSE);
    assert_non_null(v = vt_find(e, n, (void *)sig_void));
    assert_int_equal(v->flags, TTF_VT_SSE);
    assert_int_equal(v->cstr, 0);
    assert_non_null(v = vt_find(e, n, (void *)sig_small));
    assert_int_equal(v->flags, TTF_VT_SSE);
    assert_non_null(v = vt_find(e, n, (void *)sig_mkmix));
    assert_int_equal(v->flags, TTF_VT_SSE);
    assert_non_null(v = vt_find(e, n, (void *)sig_buf));
    assert_int_equal(v->cstr, 1 << 1);                  /* in, not out */
    assert_null(vt_find(e, n, (void *)sig_seven));      /* ints only */
    assert_null(vt_find(e, n, (void *)sig_mkpair));
    free(e);
    assert_int_equal(ttf_value_table("/nonexistent/x", &e, &n), TT_EIO);
}

/* The struct fields of ttf_sym_code_fields: fl_send reads and writes
 * `pending` (offset 0x78) of a struct fl_async through a typedef, a call
 * between; fl_clear writes the same offset of another struct; fl_spin's
 * void * parameter reaches fl_set's, which writes `other`. */
typedef struct fl_async { long pad[15]; int pending; int other; } fl_async_t;
struct fl_other { long pad[15]; int pending; };
struct fl_holder { long n; fl_async_t *h; };
__attribute__((noinline)) void fl_ext(void);
__attribute__((noinline)) int fl_send(fl_async_t *h);
__attribute__((noinline)) void fl_clear(struct fl_other *o);
__attribute__((noinline)) int fl_local(int x);
__attribute__((noinline)) int fl_reload(struct fl_holder *p);
__attribute__((noinline, noipa)) void fl_set(fl_async_t *h);
__attribute__((noinline)) void fl_spin(void *arg);
void fl_ext(void) { __asm__ volatile(""); }
int fl_send(fl_async_t *h)
{
    if (h->pending)
        return 0;
    fl_ext();
    h->pending = 1;
    return 1;
}
void fl_clear(struct fl_other *o) { o->pending = 0; }
int fl_local(int x)
{
    volatile fl_async_t l;
    l.pending = x;
    return l.pending;
}
int fl_reload(struct fl_holder *p) { return p->h->pending; }
void fl_set(fl_async_t *h) { h->other = 2; }
void fl_spin(void *arg) { fl_set(arg); }

/* ttf_sym_code_fields of this binary's function named name into f. */
static size_t fields_of(ttf_sym *s, const char *name, ttf_code_field *f, size_t cap)
{
    const ttf_code_info *ci = NULL;
    size_t n = 99;
    assert_int_equal(ttf_sym_code(s, 0, &ci), 0);
    for (size_t i = 0; i < ci->nfuncs; i++)
        if (!strcmp(ci->funcs[i].name, name)) {
            assert_int_equal(ttf_sym_code_fields(s, 0, ci->funcs[i].addr, f, cap, &n), 0);
            return n;
        }
    fail_msg("%s not found", name);
    return 0;
}

static void test_code_fields(void **state)
{
    ttf_trace *t = module_trace("fields.trc");
    ttf_sym *s = NULL;
    ttf_code_field f[4];
    (void)state;
    assert_int_equal(ttf_sym_open(t, &s), 0);
    assert_int_equal(fields_of(s, "fl_send", f, 4), 1);
    assert_string_equal(f[0].type, "struct fl_async");
    assert_int_equal(f[0].offset, 0x78);
    assert_int_equal(f[0].access, TTF_GLOBAL_READ | TTF_GLOBAL_WRITE);
    assert_int_equal(fields_of(s, "fl_clear", f, 4), 1);
    assert_string_equal(f[0].type, "struct fl_other");  /* the same offset, another type */
    assert_int_equal(f[0].offset, 0x78);
    assert_int_equal(f[0].access, TTF_GLOBAL_WRITE);
    assert_int_equal(fields_of(s, "fl_spin", f, 4), 1);
    assert_string_equal(f[0].type, "struct fl_async");
    assert_int_equal(f[0].offset, 0x7c);
    assert_int_equal(f[0].access, TTF_GLOBAL_WRITE);
    assert_int_equal(fields_of(s, "fl_local", f, 4), 0);
    assert_int_equal(fields_of(s, "fl_reload", f, 4), 1);   /* p->h, not h->pending */
    assert_string_equal(f[0].type, "struct fl_holder");
    assert_int_equal(f[0].offset, 8);
    assert_int_equal(fl_send(&(fl_async_t){.pending = 0}) + fl_local(1), 2);
    ttf_sym_close(s);
    ttf_close(t);
}

int main(void)
{
    if (self_module_load() != 0)
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_signatures),
        cmocka_unit_test(test_enums),
        cmocka_unit_test(test_no_aranges),
        cmocka_unit_test(test_no_debug_info),
        cmocka_unit_test(test_value_rules),
        cmocka_unit_test(test_clone),
        cmocka_unit_test(test_code_fields),
        cmocka_unit_test(test_small_structs),
        cmocka_unit_test(test_value_table),
    };
    return cmocka_run_group_tests(tests, tu_tmpdir_setup, tu_tmpdir_teardown);
}
