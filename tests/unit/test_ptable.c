/*
 * test_ptable.c - the process table reader (format/ptable.c, FORMAT.md
 * section 11) on tables written row by row here: revision 1 rows (no
 * environment, no fork number) still read; revision 2's environment in
 * ENV rows (split over two rows, a duplicate, one incomplete), fork_nth,
 * REAP rows (given to the last image of the pid with no END, ignored when
 * the process wrote its own END; ttf_ptable_reaped writes one); rows of an
 * unknown kind and fields after the known ones skipped; a cut last row
 * dropped, a bad row refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "tmpdir.h"
#include "ttf_wire.h"
#include "ttfmt.h"

static uint8_t g_file[65536];
static size_t g_len;

static uint8_t g_row[TTF_PT_MAX];
static uint8_t *g_q;

static void row_begin(void)
{
    g_q = g_row;
}

static void u(uint64_t v)
{
    g_q = ttf_put_uvar(g_q, v);
}

static void str(const char *s)
{
    g_q = ttf_put_str(g_q, s, strlen(s));
}

/* Append the row being built, of kind, to the file. */
static void row_end(int kind)
{
    size_t n = (size_t)(g_q - g_row);
    uint8_t *h = g_file + g_len;
    ttf_put_u32(h, TTF_PT_MAGIC);
    ttf_put_u16(h + 4, (uint16_t)kind);
    ttf_put_u16(h + 6, 0);
    ttf_put_u32(h + 8, (uint32_t)n);
    ttf_put_u32(h + 12, ttf_fnv1a(g_row, n));
    memcpy(h + TTF_PT_HDR, g_row, n);
    g_len += TTF_PT_HDR + n;
}

/* A START row; env and nth < 0: a revision 1 row (neither field). */
static void start(uint64_t pid, uint64_t ns, uint64_t par_pid, uint64_t par_ns, int how,
                  const char *exe, int64_t env, int64_t nth)
{
    row_begin();
    u(pid);
    u(1);
    u(ns);
    u(par_pid);
    u(par_ns);
    u((uint64_t)how);
    u(0);
    str(exe);
    str("");
    str("/tmp");
    str("");
    u(1);
    str(exe);
    if (env >= 0) {
        u((uint64_t)env);
        u((uint64_t)nth);
    }
    row_end(TTF_PT_START);
}

static void end(uint64_t pid, uint64_t ns, uint64_t end_ns, int how, int status, int sig)
{
    row_begin();
    u(pid);
    u(ns);
    u(end_ns);
    u((uint64_t)how);
    g_q = ttf_put_svar(g_q, status);
    u((uint64_t)sig);
    row_end(TTF_PT_END);
}

/* An ENV row: variables first.. of hash's environment of total. */
static void env(uint64_t hash, uint64_t total, uint64_t first, const char *const *v, size_t n)
{
    row_begin();
    u(hash);
    u(total);
    u(first);
    u(n);
    for (size_t i = 0; i < n; i++)
        str(v[i]);
    row_end(TTF_PT_ENV);
}

static void reap(uint64_t pid, uint64_t end_ns, int sig)
{
    row_begin();
    u(pid);
    u(end_ns);
    u((uint64_t)sig);
    u(1);
    u(5);
    row_end(TTF_PT_REAP);
}

/* Write the file to the test folder and open it as a table. */
static int open_table(ttf_ptable **t, ttf_error *err)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", tu_tmpdir, TTF_PTABLE_NAME);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(g_file, 1, g_len, f), g_len);
    fclose(f);
    memset(err, 0, sizeof *err);
    return ttf_ptable_open(tu_tmpdir, t, err);
}

/* The row of pid started at ns. */
static const ttf_proc *row_of(const ttf_ptable *t, uint32_t pid, uint64_t ns)
{
    for (size_t i = 0; i < ttf_ptable_count(t); i++)
        if (ttf_ptable_get(t, i)->pid == pid && ttf_ptable_get(t, i)->start_ns == ns)
            return ttf_ptable_get(t, i);
    fail_msg("no row %u@%llu", pid, (unsigned long long)ns);
    return NULL;
}

static void test_revision1(void **state)
{
    (void)state;
    g_len = 0;
    start(10, 100, 0, 0, TTF_PT_ROOT, "/bin/sh", -1, -1);
    start(11, 200, 10, 100, TTF_PT_FORK, "/bin/sh", -1, -1);
    end(11, 200, 300, TTF_PT_EXITED, 3, 0);
    ttf_ptable *t;
    ttf_error err;
    assert_int_equal(open_table(&t, &err), 0);
    assert_int_equal(ttf_ptable_count(t), 2);
    const ttf_proc *c = row_of(t, 11, 200);
    assert_null(c->env);
    assert_int_equal(c->nenv, 0);
    assert_int_equal(c->fork_nth, 0);
    assert_int_equal(c->ended, TTF_PROC_EXITED);
    assert_int_equal(c->status, 3);
    assert_null(row_of(t, 10, 100)->env);
    assert_int_equal(row_of(t, 10, 100)->ended, 0);
    ttf_ptable_close(t);
}

static void test_environments(void **state)
{
    (void)state;
    static const char *const a[] = {"HOME=/root", "PATH=/bin", "LANG=C"};
    static const char *const b[] = {"ONLY=one"};
    g_len = 0;
    env(0xabc, 3, 0, a, 2);                 /* split over two rows */
    env(0xabc, 3, 2, a + 2, 1);
    start(10, 100, 0, 0, TTF_PT_ROOT, "/bin/sh", 0xabc, 0);
    env(0xabc, 3, 0, a, 3);                 /* a second writer at once: no change */
    start(11, 200, 10, 100, TTF_PT_FORK, "/bin/sh", 0xabc, 2);
    env(0xdef, 2, 0, b, 1);                 /* its second variable never came */
    start(12, 300, 10, 100, TTF_PT_SPAWN, "/bin/true", 0xdef, 0);
    start(13, 400, 10, 100, TTF_PT_SPAWN, "/bin/true", 0x999, 0);    /* no ENV rows */
    ttf_ptable *t;
    ttf_error err;
    assert_int_equal(open_table(&t, &err), 0);
    const ttf_proc *r = row_of(t, 10, 100), *c = row_of(t, 11, 200);
    assert_non_null(r->env);
    assert_int_equal(r->nenv, 3);
    for (size_t i = 0; i < 3; i++)
        assert_string_equal(r->env[i], a[i]);
    assert_ptr_equal(c->env, r->env);       /* one copy per environment */
    assert_int_equal(c->fork_nth, 2);
    assert_null(row_of(t, 12, 300)->env);
    assert_null(row_of(t, 13, 400)->env);
    ttf_ptable_close(t);
}

static void test_reap(void **state)
{
    (void)state;
    g_len = 0;
    start(10, 100, 0, 0, TTF_PT_ROOT, "/srv", 1, 0);
    start(11, 200, 10, 100, TTF_PT_FORK, "/srv", 1, 1);        /* forks, execs, killed */
    end(11, 200, 250, TTF_PT_EXECED, 0, 0);
    start(11, 260, 11, 200, TTF_PT_EXEC, "/bin/sleep", 1, 0);
    start(12, 300, 10, 100, TTF_PT_FORK, "/srv", 1, 2);        /* ends by itself */
    end(12, 300, 350, TTF_PT_SIGNALED, 0, 15);
    reap(11, 400, 9);
    reap(12, 400, 15);
    reap(77, 400, 9);                       /* no such process: nothing */
    ttf_ptable *t;
    ttf_error err;
    assert_int_equal(open_table(&t, &err), 0);
    const ttf_proc *f = row_of(t, 11, 200), *x = row_of(t, 11, 260), *s = row_of(t, 12, 300);
    assert_int_equal(f->ended, TTF_PROC_EXECED);
    assert_int_equal(x->ended, TTF_PROC_SIGNALED);
    assert_int_equal(x->signal, 9);
    assert_int_equal(x->end_ns, 400);
    assert_int_equal(x->reaped, 1);
    assert_int_equal(s->signal, 15);
    assert_int_equal(s->end_ns, 350);
    assert_int_equal(s->reaped, 0);
    assert_int_equal(row_of(t, 10, 100)->ended, 0);
    ttf_ptable_close(t);
}

/* ttf_ptable_reaped (ttrec for the root it started): a REAP row appended
 * to the table; no table, no row. */
static void test_reaped_writer(void **state)
{
    (void)state;
    g_len = 0;
    start(10, 100, 0, 0, TTF_PT_ROOT, "/bin/sh", 0, 0);
    ttf_ptable *t;
    ttf_error err;
    assert_int_equal(open_table(&t, &err), 0);
    ttf_ptable_close(t);
    assert_int_equal(ttf_ptable_reaped(tu_tmpdir, 10, 9), 0);
    memset(&err, 0, sizeof err);
    assert_int_equal(ttf_ptable_open(tu_tmpdir, &t, &err), 0);
    const ttf_proc *p = row_of(t, 10, 100);
    assert_int_equal(p->ended, TTF_PROC_SIGNALED);
    assert_int_equal(p->signal, 9);
    assert_int_equal(p->reaped, 1);
    ttf_ptable_close(t);
    char sub[4200];
    snprintf(sub, sizeof sub, "%s/%s", tu_tmpdir, TTF_PTABLE_NAME);
    assert_int_equal(ttf_ptable_reaped(sub, 10, 9), TT_EINVAL);     /* a file */
    unlink(sub);
    assert_int_equal(ttf_ptable_reaped(tu_tmpdir, 10, 9), TT_EIO);
    assert_int_equal(access(sub, F_OK), -1);
}

/* Later revisions: an unknown kind and fields after the known ones are
 * skipped; a cut last row is dropped; a bad check refused. */
static void test_later_revisions(void **state)
{
    (void)state;
    g_len = 0;
    start(10, 100, 0, 0, TTF_PT_ROOT, "/bin/sh", 0, 0);
    row_begin();
    u(42);
    str("a row of revision 9");
    row_end(9);
    row_begin();                            /* START with two more fields */
    u(11), u(10), u(200), u(10), u(100), u(TTF_PT_FORK), u(0);
    str("/bin/sh"), str(""), str("/"), str(""), u(0), u(0), u(3), u(77), str("more");
    row_end(TTF_PT_START);
    end(11, 200, 300, TTF_PT_EXITED, 1, 0);
    size_t whole = g_len;
    end(10, 100, 400, TTF_PT_EXITED, 0, 0);
    g_len -= 3;                             /* cut by a full disk */
    ttf_ptable *t;
    ttf_error err;
    assert_int_equal(open_table(&t, &err), 0);
    assert_int_equal(ttf_ptable_count(t), 2);
    assert_int_equal(ttf_ptable_dropped(t), 1);
    assert_int_equal(row_of(t, 11, 200)->fork_nth, 3);
    assert_int_equal(row_of(t, 11, 200)->status, 1);
    assert_int_equal(row_of(t, 10, 100)->ended, 0);
    ttf_ptable_close(t);
    g_len = whole;
    g_file[whole - 1] ^= 0x40;              /* the END row's payload damaged */
    assert_int_equal(open_table(&t, &err), TT_ECORRUPT);
    assert_non_null(strstr(err.msg, "fails its checksum"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_revision1),
        cmocka_unit_test(test_environments),
        cmocka_unit_test(test_reap),
        cmocka_unit_test(test_reaped_writer),
        cmocka_unit_test(test_later_revisions),
    };
    return cmocka_run_group_tests(tests, tu_tmpdir_setup, tu_tmpdir_teardown);
}
