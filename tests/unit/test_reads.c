/*
 * test_reads.c - cmocka tests of format/reads.c: does a function's machine
 * code read memory other threads can write (the check of a check-then-act
 * in plain mode, diff/races.c)? Each case is a function's bytes as `as`
 * assembles them (the source in the comment above each), placed at
 * link-time address 0x1000 of a made-up file: read-only data at
 * [0x2000, 0x4000) (a hook's GOT slot at 0x3f70), writable data at
 * [0x4000, 0x5000), a function at 0x1800 (`mov (%rdi),%eax; ret`).
 * Shared: a writable global read, a read through a pointer argument, one
 * spilled to the stack and read back (-O0), a pointer passed in the stack
 * (a 7th argument), a pointer that a store did not
 * change, a pointer on one branch of a join, a global's address given to
 * a function of the file, a returned pointer. Own: read-only data, a
 * scalar argument, busy work on a stack buffer handed to another module,
 * the stack's address given to a function of the file, the canary in TLS,
 * a hook's call between. Unknown: another module given a global's address
 * or (no debug info) argument registers that may hold anything, an
 * indirect call.
 * The struct fields a function reaches through its pointer parameters
 * (ttfi_code_fields): a field read and written through a parameter kept
 * in a callee-saved register over a call, a read-modify-write through the
 * second, a callee given the parameter (its own parameter 0), a hook's
 * call between (the values build's __fentry__ keeps the registers), a
 * field's address made by lea or add of an immediate. Must not:
 * a caller-saved register after a call, a local struct in the stack, a
 * pointer reloaded from memory (a field of the parameter, or the
 * parameter spilled to the stack), an indexed operand, a 32-bit copy,
 * a join of the parameter with a stack address, a callee given a
 * reloaded pointer or a field's address, the parameter plus a register.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ttf_int.h"

/* lea 0x3000(%rip),%rax; movslq %edi,%rdi; mov (%rax,%rdi,4),%eax; ret */
static const uint8_t global_read[] = {0x48, 0x8d, 0x05, 0x00, 0x30, 0x00, 0x00, 0x48, 0x63, 0xff, 0x8b, 0x04, 0xb8, 0xc3};
/* lea 0x1000(%rip),%rax; movslq %edi,%rdi; mov (%rax,%rdi,4),%eax; ret */
static const uint8_t rodata_read[] = {0x48, 0x8d, 0x05, 0x00, 0x10, 0x00, 0x00, 0x48, 0x63, 0xff, 0x8b, 0x04, 0xb8, 0xc3};
/* mov 8(%rdi),%eax; ret */
static const uint8_t ptr_read[] = {0x8b, 0x47, 0x08, 0xc3};
/* push %rbx; sub $0x40,%rsp; mov %rsp,%rbx; mov %rbx,%rdi; mov $0x40,%esi; xor %eax,%eax; call *0x2000(%rip); movzbl (%rsp),%edx; mov %rbx,%rcx; 1: add $1,%rcx; movzbl (%rcx),%edx; test %dl,%dl; jne 1b; add $0x40,%rsp; pop %rbx; ret */
static const uint8_t busy_work[] = {0x53, 0x48, 0x83, 0xec, 0x40, 0x48, 0x89, 0xe3, 0x48, 0x89, 0xdf, 0xbe, 0x40, 0x00, 0x00, 0x00, 0x31, 0xc0, 0xff, 0x15, 0x00, 0x20, 0x00, 0x00, 0x0f, 0xb6, 0x14, 0x24, 0x48, 0x89, 0xd9, 0x48, 0x83, 0xc1, 0x01, 0x0f, 0xb6, 0x11, 0x84, 0xd2, 0x75, 0xf5, 0x48, 0x83, 0xc4, 0x40, 0x5b, 0xc3};
/* push %rbp; mov %rsp,%rbp; mov %rdi,-8(%rbp); mov -8(%rbp),%rax; mov (%rax),%eax; pop %rbp; ret */
static const uint8_t spill_o0[] = {0x55, 0x48, 0x89, 0xe5, 0x48, 0x89, 0x7d, 0xf8, 0x48, 0x8b, 0x45, 0xf8, 0x8b, 0x00, 0x5d, 0xc3};
/* mov %rdi,8(%rsp); mov %dil,16(%rsp); mov (%rdi),%eax; ret */
static const uint8_t store_keeps[] = {0x48, 0x89, 0x7c, 0x24, 0x08, 0x40, 0x88, 0x7c, 0x24, 0x10, 0x8b, 0x07, 0xc3};
/* test %esi,%esi; je 1f; mov %rsp,%rax; jmp 2f; 1: mov %rdi,%rax; 2: mov (%rax),%eax; ret */
static const uint8_t join[] = {0x85, 0xf6, 0x74, 0x05, 0x48, 0x89, 0xe0, 0xeb, 0x03, 0x48, 0x89, 0xf8, 0x8b, 0x00, 0xc3};
/* lea 0x3000(%rip),%rdi; call *0x2000(%rip); ret */
static const uint8_t ext_global[] = {0x48, 0x8d, 0x3d, 0x00, 0x30, 0x00, 0x00, 0xff, 0x15, 0x00, 0x20, 0x00, 0x00, 0xc3};
/* mov %rsp,%rdi; .byte 0xe8; .long 0x7f8; ret */
static const uint8_t call_stack[] = {0x48, 0x89, 0xe7, 0xe8, 0xf8, 0x07, 0x00, 0x00, 0xc3};
/* lea 0x3000(%rip),%rdi; .byte 0xe8; .long 0x7f4; ret */
static const uint8_t call_global[] = {0x48, 0x8d, 0x3d, 0x00, 0x30, 0x00, 0x00, 0xe8, 0xf4, 0x07, 0x00, 0x00, 0xc3};
/* mov 8(%rsp),%rax; mov (%rax),%eax; ret (a 7th argument, in the stack) */
static const uint8_t stack_arg[] = {0x48, 0x8b, 0x44, 0x24, 0x08, 0x8b, 0x00, 0xc3};
/* mov (%rdi),%eax; ret */
static const uint8_t callee[] = {0x8b, 0x07, 0xc3};
/* call *0x2f6a(%rip); mov (%rdi),%eax; ret */
static const uint8_t hook_keeps[] = {0xff, 0x15, 0x6a, 0x2f, 0x00, 0x00, 0x8b, 0x07, 0xc3};
/* mov %fs:0x28,%rax; sub %fs:0x28,%rax; ret */
static const uint8_t tls_reads[] = {0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0x00, 0x00, 0x00, 0x64, 0x48, 0x2b, 0x04, 0x25, 0x28, 0x00, 0x00, 0x00, 0xc3};
/* call *%rax; ret */
static const uint8_t indirect[] = {0xff, 0xd0, 0xc3};
/* sub $8,%rsp; call *0x2000(%rip); mov (%rax),%eax; add $8,%rsp; ret */
static const uint8_t ret_ptr[] = {0x48, 0x83, 0xec, 0x08, 0xff, 0x15, 0x00, 0x20, 0x00, 0x00, 0x8b, 0x00, 0x48, 0x83, 0xc4, 0x08, 0xc3};

/* the globals a function names (ttfi_code_globals), each at AT: */
/* mov 0x3000(%rip),%eax; ret (reads 0x4006) */
static const uint8_t flag_poll[] = {0x8b, 0x05, 0x00, 0x30, 0x00, 0x00, 0xc3};
/* movl $1,0x2ffc(%rip); ret (writes 0x4006) */
static const uint8_t flag_set[] = {0xc7, 0x05, 0xfc, 0x2f, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0xc3};
/* lock incl 0x2ff9(%rip); ret (reads and writes 0x4000) */
static const uint8_t flag_rmw[] = {0xf0, 0xff, 0x05, 0xf9, 0x2f, 0x00, 0x00, 0xc3};
/* mov %fs:0x10,%eax; mov 0x1000(%rip),%eax; ret (TLS, read-only data: none) */
static const uint8_t flag_tls[] = {0x64, 0x8b, 0x04, 0x25, 0x10, 0x00, 0x00, 0x00, 0x8b, 0x05, 0x00, 0x10, 0x00, 0x00, 0xc3};

/* the fields a function reaches through its parameters (ttfi_code_fields): */
/* push %rbx; mov %rdi,%rbx; call *0x2000(%rip); mov 0x78(%rbx),%eax;
 * movl $0,0x78(%rbx); pop %rbx; ret */
static const uint8_t field_saved[] = {0x53, 0x48, 0x89, 0xfb, 0xff, 0x15, 0x00, 0x20, 0x00, 0x00, 0x8b, 0x43, 0x78, 0xc7, 0x43, 0x78, 0x00, 0x00, 0x00, 0x00, 0x5b, 0xc3};
/* call *0x2000(%rip); mov 0x78(%rdi),%eax; ret (rdi is not kept over a call) */
static const uint8_t field_clobbered[] = {0xff, 0x15, 0x00, 0x20, 0x00, 0x00, 0x8b, 0x47, 0x78, 0xc3};
/* lock incl 0x10(%rsi); ret */
static const uint8_t field_rmw[] = {0xf0, 0xff, 0x46, 0x10, 0xc3};
/* sub $0x28,%rsp; movl $1,0x8(%rsp); mov 0x8(%rsp),%eax; add $0x28,%rsp; ret */
static const uint8_t field_local[] = {0x48, 0x83, 0xec, 0x28, 0xc7, 0x44, 0x24, 0x08, 0x01, 0x00, 0x00, 0x00, 0x8b, 0x44, 0x24, 0x08, 0x48, 0x83, 0xc4, 0x28, 0xc3};
/* mov 0x10(%rdi),%rax; mov 0x78(%rax),%eax; ret */
static const uint8_t field_reloaded[] = {0x48, 0x8b, 0x47, 0x10, 0x8b, 0x40, 0x78, 0xc3};
/* mov %rdi,0x8(%rsp); mov 0x8(%rsp),%rax; mov 0x78(%rax),%eax; ret */
static const uint8_t field_spilled[] = {0x48, 0x89, 0x7c, 0x24, 0x08, 0x48, 0x8b, 0x44, 0x24, 0x08, 0x8b, 0x40, 0x78, 0xc3};
/* mov 0x8(%rdi,%rsi,4),%eax; ret */
static const uint8_t field_indexed[] = {0x8b, 0x44, 0xb7, 0x08, 0xc3};
/* mov %edi,%eax; mov 0x8(%rax),%eax; ret */
static const uint8_t field_narrowed[] = {0x89, 0xf8, 0x8b, 0x40, 0x08, 0xc3};
/* lea 0x78(%rdi),%rax; lock cmpxchg %ecx,(%rax); ret (a field's address) */
static const uint8_t field_lea[] = {0x48, 0x8d, 0x47, 0x78, 0xf0, 0x0f, 0xb1, 0x08, 0xc3};
/* push %rbp; mov %rdi,%rbp; add $0x70,%rbp; mov 0x8(%rbp),%eax; pop %rbp; ret */
static const uint8_t field_add[] = {0x55, 0x48, 0x89, 0xfd, 0x48, 0x83, 0xc5, 0x70, 0x8b, 0x45, 0x08, 0x5d, 0xc3};
/* add %rsi,%rdi; mov 0x78(%rdi),%eax; ret (plus a register: not known) */
static const uint8_t field_regadd[] = {0x48, 0x01, 0xf7, 0x8b, 0x47, 0x78, 0xc3};
/* lea 0x8(%rsi),%rdi; call CALLEE; ret (the callee given a field's address) */
static const uint8_t field_lea_call[] = {0x48, 0x8d, 0x7e, 0x08, 0xe8, 0xf7, 0x07, 0x00, 0x00, 0xc3};
/* test $0x7,%dil; cmp $0x10,%rdi; mov 0x8(%rdi),%eax; ret (a compare keeps it) */
static const uint8_t field_compared[] = {0x40, 0xf6, 0xc7, 0x07, 0x48, 0x83, 0xff, 0x10, 0x8b, 0x47, 0x08, 0xc3};
/* mov %rsi,%rdi; call CALLEE; ret (CALLEE reads field 0 of its rdi) */
static const uint8_t field_callee[] = {0x48, 0x89, 0xf7, 0xe8, 0xf8, 0x07, 0x00, 0x00, 0xc3};
/* mov 0x8(%rdi),%rdi; call CALLEE; ret */
static const uint8_t field_callee_loaded[] = {0x48, 0x8b, 0x7f, 0x08, 0xe8, 0xf7, 0x07, 0x00, 0x00, 0xc3};

#define AT 0x1000u
#define CALLEE 0x1800u
#define HOOK_SLOT 0x3f70u

static int fake_writable(void *ctx, uint64_t a)
{
    (void)ctx;
    return a >= 0x4000 && a < 0x5000 ? 1 : a >= 0x2000 && a < 0x4000 ? 0 : -1;
}

static int fake_callee(void *ctx, uint64_t target, int via_slot, const uint8_t **code,
                       size_t *n)
{
    (void)ctx;
    if (via_slot)
        return target == HOOK_SLOT ? TTFI_CALLEE_HOOK : TTFI_CALLEE_OTHER;
    if (target != CALLEE)
        return TTFI_CALLEE_OTHER;
    *code = callee;
    *n = sizeof callee;
    return TTFI_CALLEE_FUNC;
}

static const struct ttfi_reads_env env = {NULL, 0, fake_writable, fake_callee, NULL};

#define READS(code, args) ttfi_code_reads(&env, AT, code, sizeof code, args)

static void shared_reads(void **state)
{
    (void)state;
    assert_int_equal(READS(global_read, 0), TTFI_READS_SHARED);
    assert_int_equal(READS(ptr_read, 1), TTFI_READS_SHARED);
    assert_int_equal(READS(spill_o0, 1), TTFI_READS_SHARED);
    assert_int_equal(READS(store_keeps, 1), TTFI_READS_SHARED);
    assert_int_equal(READS(join, 1), TTFI_READS_SHARED);
    assert_int_equal(READS(call_global, 0), TTFI_READS_SHARED);
    assert_int_equal(READS(hook_keeps, 1), TTFI_READS_SHARED);
    assert_int_equal(READS(ret_ptr, 0), TTFI_READS_SHARED);
    assert_int_equal(READS(stack_arg, TTF_READS_STACK_ARGS), TTFI_READS_SHARED);
}

static void own_reads(void **state)
{
    (void)state;
    assert_int_equal(READS(rodata_read, 0), TTFI_READS_OWN);
    assert_int_equal(READS(ptr_read, 0), TTFI_READS_OWN);     /* a scalar argument */
    assert_int_equal(READS(spill_o0, 0), TTFI_READS_OWN);
    assert_int_equal(READS(join, 0), TTFI_READS_OWN);
    assert_int_equal(READS(busy_work, 0), TTFI_READS_OWN);
    assert_int_equal(READS(call_stack, 0), TTFI_READS_OWN);
    assert_int_equal(READS(hook_keeps, 0), TTFI_READS_OWN);
    assert_int_equal(READS(tls_reads, 0), TTFI_READS_OWN);
    assert_int_equal(READS(stack_arg, 0), TTFI_READS_OWN);     /* a scalar 7th */
}

static void unknown_reads(void **state)
{
    (void)state;
    assert_int_equal(READS(ext_global, 0), TTFI_READS_UNKNOWN);
    assert_int_equal(READS(busy_work, TTF_READS_ANY_ARGS), TTFI_READS_UNKNOWN);
    assert_int_equal(READS(indirect, 0), TTFI_READS_UNKNOWN);
    assert_int_equal(ttfi_code_reads(&env, AT, busy_work, 20, 0), TTFI_READS_UNKNOWN); /* cut */
}

#define GLOBALS(code, out) ttfi_code_globals(&env, AT, code, sizeof code, out, 4)

/* A flag's poller reads the global its setter writes; a read-modify-write
 * does both; thread-local storage and read-only data name none; a cut
 * function is not known (-1); cap 0 still counts. */
static void globals_named(void **state)
{
    struct ttf_code_global g[4];
    (void)state;
    assert_int_equal(GLOBALS(flag_poll, g), 1);
    assert_int_equal(g[0].addr, 0x4006);
    assert_int_equal(g[0].access, TTF_GLOBAL_READ);
    assert_int_equal(GLOBALS(flag_set, g), 1);
    assert_int_equal(g[0].addr, 0x4006);
    assert_int_equal(g[0].access, TTF_GLOBAL_WRITE);
    assert_int_equal(GLOBALS(flag_rmw, g), 1);
    assert_int_equal(g[0].addr, 0x4000);
    assert_int_equal(g[0].access, TTF_GLOBAL_READ | TTF_GLOBAL_WRITE);
    assert_int_equal(GLOBALS(flag_tls, g), 0);
    assert_int_equal(GLOBALS(global_read, g), 0);   /* through a register: not named */
    assert_int_equal(ttfi_code_globals(&env, AT, flag_set, 5, g, 4), -1);
    assert_int_equal(ttfi_code_globals(&env, AT, flag_poll, sizeof flag_poll, NULL, 0), 1);
}

#define FIELDS(code, out) ttfi_code_fields(&env, AT, code, sizeof code, 0x3f, out, 4)

static void check_field(const struct ttfi_code_field *f, uint64_t func, int reg, int64_t off,
                        unsigned acc)
{
    assert_int_equal(f->func, func);
    assert_int_equal(f->reg, reg);
    assert_int_equal(f->offset, off);
    assert_int_equal(f->access, acc);
}

/* A field through a parameter: kept in a callee-saved register over a
 * call, read and written; a read-modify-write through the second; a
 * callee given the parameter reads its own parameter's field. */
static void fields_reached(void **state)
{
    struct ttfi_code_field f[4];
    (void)state;
    assert_int_equal(FIELDS(field_saved, f), 1);
    check_field(&f[0], AT, 0, 0x78, TTF_GLOBAL_READ | TTF_GLOBAL_WRITE);
    assert_int_equal(FIELDS(field_rmw, f), 1);
    check_field(&f[0], AT, 1, 0x10, TTF_GLOBAL_READ | TTF_GLOBAL_WRITE);
    assert_int_equal(FIELDS(field_callee, f), 1);
    check_field(&f[0], CALLEE, 0, 0, TTF_GLOBAL_READ);
    assert_int_equal(FIELDS(field_lea, f), 1);
    check_field(&f[0], AT, 0, 0x78, TTF_GLOBAL_READ | TTF_GLOBAL_WRITE);
    assert_int_equal(FIELDS(field_add, f), 1);
    check_field(&f[0], AT, 0, 0x78, TTF_GLOBAL_READ);
    assert_int_equal(FIELDS(field_compared, f), 1);     /* UBSan's checks compare it */
    check_field(&f[0], AT, 0, 8, TTF_GLOBAL_READ);
    assert_int_equal(FIELDS(hook_keeps, f), 1);         /* a hook's call keeps rdi */
    check_field(&f[0], AT, 0, 0, TTF_GLOBAL_READ);
    /* only the registers asked about are parameters */
    assert_int_equal(ttfi_code_fields(&env, AT, field_rmw, sizeof field_rmw, 1, f, 4), 0);
    assert_int_equal(ttfi_code_fields(&env, AT, field_saved, 15, 0x3f, f, 4), -1); /* cut */
}

/* Must not: what the parameter's value is not (any more). */
static void fields_not_reached(void **state)
{
    struct ttfi_code_field f[4];
    (void)state;
    assert_int_equal(FIELDS(field_clobbered, f), 0);
    assert_int_equal(FIELDS(field_local, f), 0);
    assert_int_equal(FIELDS(field_reloaded, f), 1);     /* 0x10 of it, not 0x78 of what */
    check_field(&f[0], AT, 0, 0x10, TTF_GLOBAL_READ);
    assert_int_equal(FIELDS(field_spilled, f), 0);
    assert_int_equal(FIELDS(field_indexed, f), 0);
    assert_int_equal(FIELDS(field_narrowed, f), 0);
    assert_int_equal(FIELDS(join, f), 0);               /* the parameter or the stack */
    assert_int_equal(FIELDS(field_regadd, f), 0);
    assert_int_equal(FIELDS(field_lea_call, f), 0);     /* typed by the callee: not a T */
    assert_int_equal(FIELDS(field_callee_loaded, f), 1);
    check_field(&f[0], AT, 0, 8, TTF_GLOBAL_READ);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(globals_named),
        cmocka_unit_test(fields_reached),
        cmocka_unit_test(fields_not_reached),
        cmocka_unit_test(shared_reads),
        cmocka_unit_test(own_reads),
        cmocka_unit_test(unknown_reads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
