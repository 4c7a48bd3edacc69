/*
 * test_sym.c - the symbol resolver (format/sym.c) on traces written by the
 * format writer whose module map points at this very test binary: names
 * and file:line of real functions, build-id mismatch and missing files
 * falling back to offsets with one notice, addresses outside every module,
 * caching, modules reloaded at the same address (names and lines follow
 * the event's time), TT_SCOPE events.
 */
#include <dirent.h>
#include <elf.h>
#include <link.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ttfmt.h"
#include "self_module.h"

/* Two real functions to resolve; the enums give the lines where their
 * definitions start (an entry address maps to a line of the body). */
__attribute__((noinline)) int sym_target_a(int x);
enum { LINE_A = __LINE__ + 1 };
__attribute__((noinline)) int sym_target_a(int x)
{
    __asm__ volatile("" ::: "memory");
    return x * 3 + 1;
}

enum { LINE_B = __LINE__ + 1 };
__attribute__((noinline)) static int sym_target_b(int x)
{
    __asm__ volatile("" ::: "memory");
    return sym_target_a(x) - 2;
}

static char tmpdir[] = "/tmp/tt_test_sym_XXXXXX";
static int trace_no;

static int setup_all(void **state)
{
    (void)state;
    if (!mkdtemp(tmpdir))
        return -1;
    return self_module_load();
}

static int teardown_all(void **state)
{
    char cmd[256];

    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static uint64_t addr_of(int (*fn)(int))
{
    return (uint64_t)(uintptr_t)fn;
}

/* A module entry to write. */
struct mod_spec {
    uint64_t base, size;
    const uint8_t *build_id;
    size_t build_id_len;
    const char *path;
    uint64_t load_tsc, unload_tsc; /* unload_tsc 0 = never */
};

/* Write a one-thread trace: the modules, then an enter/exit pair for each
 * address at increasing times from 10000 ns; return the open trace. */
static ttf_trace *make_trace(const struct mod_spec *mods, int nmods,
                             const uint64_t *addrs, int naddrs)
{
    char path[512];
    ttf_writer *w = NULL;
    ttf_trace *t = NULL;
    ttf_error err;
    const char *argv[] = {tu_self.path};

    snprintf(path, sizeof path, "%s/t%d.trc", tmpdir, trace_no++);
    assert_int_equal(ttf_writer_open(path, NULL, &w), 0);
    assert_int_equal(ttf_write_process(w, 42, 1, tu_self.path, 1, argv, ""), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 100, 42, "main"), 0);
    for (int i = 0; i < nmods; i++) {
        const struct mod_spec *m = &mods[i];
        assert_int_equal(ttf_write_module(w, 0, m->load_tsc, m->base, m->size,
                                          m->build_id, m->build_id_len,
                                          m->path), 0);
        if (m->unload_tsc)
            assert_int_equal(ttf_write_module_unload(w, 0, m->unload_tsc,
                                                     m->base), 0);
    }
    for (int i = 0; i < naddrs; i++) {
        uint64_t tsc = 10000 + 1000 * (uint64_t)i;
        assert_int_equal(ttf_write_enter(w, 0, tsc, addrs[i]), 0);
        assert_int_equal(ttf_write_exit(w, 0, tsc + 10, addrs[i]), 0);
    }
    assert_int_equal(ttf_write_thread_end(w, 0, 10000 + 1000 * (uint64_t)naddrs), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    memset(&err, 0, sizeof err);
    assert_int_equal(ttf_open(path, &t, &err), 0);
    return t;
}

static struct mod_spec self_spec(void)
{
    struct mod_spec m = {tu_self.base, tu_self.size, tu_self.build_id,
                         tu_self.build_id_len, tu_self.path, 100, 0};
    return m;
}

static const char *exe_base(void)
{
    const char *slash = strrchr(tu_self.path, '/');
    return slash ? slash + 1 : tu_self.path;
}

static void test_names(void **state)
{
    (void)state;
    struct mod_spec m = self_spec();
    uint64_t addrs[] = {addr_of(sym_target_a), addr_of(sym_target_b)};
    ttf_trace *t = make_trace(&m, 1, addrs, 2);
    ttf_sym *s = NULL;
    char want[64];

    assert_int_equal(sym_target_b(1), 2); /* keep both alive and callable */
    assert_int_equal(ttf_sym_open(t, &s), 0);
    assert_string_equal(ttf_sym_name(s, addrs[0]), "sym_target_a");
    assert_string_equal(ttf_sym_name(s, addrs[1]), "sym_target_b");
    snprintf(want, sizeof want, "sym_target_a+0x%x", 1);
    assert_string_equal(ttf_sym_name(s, addrs[0] + 1), want);
    assert_int_equal(ttf_sym_notice_count(s), 0);
    assert_null(ttf_sym_get_notice(s, 0));
    ttf_sym_close(s);
    ttf_close(t);
}

static void test_event_names(void **state)
{
    (void)state;
    struct mod_spec m = self_spec();
    uint64_t addrs[] = {addr_of(sym_target_b), addr_of(sym_target_a)};
    ttf_trace *t = make_trace(&m, 1, addrs, 2);
    ttf_sym *s = NULL;
    ttf_iter *it = NULL;
    ttf_event ev;
    const char *seen[4];
    int n = 0;

    assert_int_equal(ttf_sym_open(t, &s), 0);
    assert_int_equal(ttf_iter_open(t, 0, &it), 0);
    while (ttf_iter_next(it, &ev) == 1) {
        if ((ev.kind == TTF_EV_ENTER || ev.kind == TTF_EV_EXIT) && n < 4)
            seen[n++] = ttf_sym_event_name(s, &ev);
    }
    ttf_iter_close(it);
    assert_int_equal(n, 4);
    assert_string_equal(seen[0], "sym_target_b");
    assert_string_equal(seen[1], "sym_target_b");
    assert_string_equal(seen[2], "sym_target_a");
    assert_string_equal(seen[3], "sym_target_a");
    ttf_sym_close(s);
    ttf_close(t);
}

static void test_lines(void **state)
{
    (void)state;
    struct mod_spec m = self_spec();
    uint64_t a = addr_of(sym_target_a), b = addr_of(sym_target_b);
    ttf_trace *t = make_trace(&m, 1, &a, 1);
    ttf_sym *s = NULL;
    const char *file = NULL;
    int line = 0;

    assert_int_equal(ttf_sym_open(t, &s), 0);
    assert_int_equal(ttf_sym_line(s, a, &file, &line), 0);
    assert_non_null(strstr(file, "test_sym.c"));
    assert_in_range(line, LINE_A, LINE_A + 4);
    assert_int_equal(ttf_sym_line(s, b, &file, &line), 0);
    assert_non_null(strstr(file, "test_sym.c"));
    assert_in_range(line, LINE_B, LINE_B + 4);
    /* outside every module: no line */
    assert_int_equal(ttf_sym_line(s, 0x10, &file, &line), TT_ENOTFOUND);
    ttf_sym_close(s);
    ttf_close(t);
}

static void test_build_id_mismatch(void **state)
{
    (void)state;
    uint8_t wrong[64];
    struct mod_spec m = self_spec();
    uint64_t a = addr_of(sym_target_a);
    char want[sizeof tu_self.path + 32];

    memcpy(wrong, tu_self.build_id, tu_self.build_id_len);
    wrong[0] ^= 0xff;
    m.build_id = wrong;
    ttf_trace *t = make_trace(&m, 1, &a, 1);
    ttf_sym *s = NULL;
    const char *file;
    int line;

    assert_int_equal(ttf_sym_open(t, &s), 0);
    snprintf(want, sizeof want, "%s+0x%llx", exe_base(),
             (unsigned long long)(a - tu_self.base));
    assert_string_equal(ttf_sym_name(s, a), want);
    assert_string_equal(ttf_sym_name(s, a), want);
    assert_int_equal(ttf_sym_line(s, a, &file, &line), TT_ENOTFOUND);
    assert_int_equal(ttf_sym_notice_count(s), 1);
    assert_non_null(strstr(ttf_sym_get_notice(s, 0), tu_self.path));
    assert_non_null(strstr(ttf_sym_get_notice(s, 0),
                           "build-id differs from the traced binary"));
    ttf_sym_close(s);
    ttf_close(t);
}

static void test_missing_file_and_outside(void **state)
{
    (void)state;
    struct mod_spec m[2] = {self_spec(),
        {0x100000000ull, 0x20000, NULL, 0, "/nonexistent/tt/libgone.so", 200, 0}};
    uint64_t addrs[] = {0x100001234ull, addr_of(sym_target_a)};
    ttf_trace *t = make_trace(m, 2, addrs, 2);
    ttf_sym *s = NULL;

    assert_int_equal(ttf_sym_open(t, &s), 0);
    assert_string_equal(ttf_sym_name(s, 0x100001234ull), "libgone.so+0x1234");
    assert_string_equal(ttf_sym_name(s, addrs[1]), "sym_target_a");
    /* just past the missing module's end, and far below everything */
    assert_string_equal(ttf_sym_name(s, 0x100020000ull), "0x100020000");
    assert_string_equal(ttf_sym_name(s, 0x10), "0x10");
    assert_int_equal(ttf_sym_notice_count(s), 1);
    assert_non_null(strstr(ttf_sym_get_notice(s, 0), "libgone.so"));
    assert_non_null(strstr(ttf_sym_get_notice(s, 0), "cannot open"));
    ttf_sym_close(s);
    ttf_close(t);
}

static int count_fds(void)
{
    DIR *d = opendir("/proc/self/fd");
    int n = 0;

    assert_non_null(d);
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

static void test_cache(void **state)
{
    (void)state;
    struct mod_spec m = self_spec();
    uint64_t a = addr_of(sym_target_a);
    ttf_trace *t = make_trace(&m, 1, &a, 1);
    ttf_sym *s = NULL;
    const char *first[512];
    char want[32];

    assert_int_equal(ttf_sym_open(t, &s), 0);
    for (int i = 0; i < 512; i++)
        first[i] = ttf_sym_name(s, a + (uint64_t)i);
    int fds = count_fds();
    /* many more lookups: same pointers back (cached), no files opened */
    for (int round = 0; round < 200; round++) {
        for (int i = 0; i < 512; i++)
            assert_ptr_equal(ttf_sym_name(s, a + (uint64_t)i), first[i]);
    }
    /* a hundred thousand distinct addresses, all outside: table grows */
    for (uint64_t x = 0; x < 100000; x++)
        assert_non_null(ttf_sym_name(s, 0x1000 + x * 16));
    snprintf(want, sizeof want, "0x%llx", 0x1000ull + 99999 * 16);
    assert_string_equal(ttf_sym_name(s, 0x1000 + 99999 * 16), want);
    for (int i = 0; i < 512; i++)
        assert_ptr_equal(ttf_sym_name(s, a + (uint64_t)i), first[i]);
    assert_int_equal(count_fds(), fds);
    ttf_sym_close(s);
    ttf_close(t);
}

static void test_reload_same_address(void **state)
{
    (void)state;
    /* the binary is mapped until 3000 ns, then another file at the same
     * base from 4000 ns; events at 10000 and 11000 ns see the second. */
    struct mod_spec m[2] = {self_spec(), self_spec()};
    uint64_t a = addr_of(sym_target_a);
    uint64_t addrs[] = {a, a};
    char want[512];

    m[0].unload_tsc = 3000;
    m[1].path = "/nonexistent/tt/reloaded.so";
    m[1].build_id = NULL;
    m[1].build_id_len = 0;
    m[1].load_tsc = 4000;
    ttf_trace *t = make_trace(m, 2, addrs, 2);
    ttf_sym *s = NULL;
    ttf_iter *it = NULL;
    ttf_event ev;
    int enters = 0;

    assert_int_equal(ttf_module_count(t), 2);
    assert_int_equal(ttf_sym_open(t, &s), 0);
    snprintf(want, sizeof want, "reloaded.so+0x%llx",
             (unsigned long long)(a - tu_self.base));
    assert_int_equal(ttf_iter_open(t, 0, &it), 0);
    while (ttf_iter_next(it, &ev) == 1) {
        if (ev.kind != TTF_EV_ENTER)
            continue;
        assert_string_equal(ttf_sym_event_name(s, &ev), want);
        enters++;
    }
    ttf_iter_close(it);
    assert_int_equal(enters, 2);
    /* an event while the first mapping was live resolves through it */
    memset(&ev, 0, sizeof ev);
    ev.kind = TTF_EV_ENTER;
    ev.addr = a;
    ev.time_ns = ttf_get_module(t, 0)->load_ns + 1;
    assert_string_equal(ttf_sym_event_name(s, &ev), "sym_target_a");
    ttf_sym_close(s);
    ttf_close(t);
}

static void enter_at(ttf_event *ev, uint64_t addr, uint64_t time_ns)
{
    memset(ev, 0, sizeof *ev);
    ev->kind = TTF_EV_ENTER;
    ev->addr = addr;
    ev->time_ns = time_ns;
}

static void test_event_lines_follow_time(void **state)
{
    (void)state;
    /* the binary is mapped until 3000 ns; from 4000 ns one address range
     * holds it again, shifted so that sym_target_a's address is where
     * sym_target_b's code lies, and another file without debug info sits
     * at the original base. Lines follow the module of the event's time. */
    uint64_t a = addr_of(sym_target_a), b = addr_of(sym_target_b);
    struct mod_spec m[2] = {self_spec(), self_spec()};
    const char *file = NULL;
    int line = 0;
    ttf_event ev;
    ttf_sym *s = NULL;

    m[0].unload_tsc = 3000;
    m[1].base = tu_self.base + a - b;
    m[1].load_tsc = 4000;
    ttf_trace *t = make_trace(m, 2, &a, 1);
    assert_int_equal(ttf_sym_open(t, &s), 0);
    enter_at(&ev, a, ttf_get_module(t, 0)->load_ns + 1);
    assert_int_equal(ttf_sym_event_line(s, &ev, &file, &line), 0);
    assert_non_null(strstr(file, "test_sym.c"));
    assert_in_range(line, LINE_A, LINE_A + 4);
    enter_at(&ev, a, ttf_get_module(t, 1)->load_ns + 1);
    assert_int_equal(ttf_sym_event_line(s, &ev, &file, &line), 0);
    assert_in_range(line, LINE_B, LINE_B + 4);
    /* no time: the module still loaded at the end */
    assert_int_equal(ttf_sym_line(s, a, &file, &line), 0);
    assert_in_range(line, LINE_B, LINE_B + 4);
    assert_int_equal(ttf_sym_event_line(s, NULL, &file, &line), TT_EINVAL);
    assert_int_equal(ttf_sym_event_line(NULL, &ev, &file, &line), TT_EINVAL);
    ttf_sym_close(s);
    ttf_close(t);

    /* the same base reused by a file that cannot be read: no line then */
    m[1] = self_spec();
    m[1].path = "/nonexistent/tt/reloaded.so";
    m[1].build_id = NULL;
    m[1].build_id_len = 0;
    m[1].load_tsc = 4000;
    t = make_trace(m, 2, &a, 1);
    assert_int_equal(ttf_sym_open(t, &s), 0);
    enter_at(&ev, a, ttf_get_module(t, 0)->load_ns + 1);
    assert_int_equal(ttf_sym_event_line(s, &ev, &file, &line), 0);
    assert_in_range(line, LINE_A, LINE_A + 4);
    enter_at(&ev, a, ttf_get_module(t, 1)->load_ns + 1);
    assert_int_equal(ttf_sym_event_line(s, &ev, &file, &line), TT_ENOTFOUND);
    ttf_sym_close(s);
    ttf_close(t);
}

static void test_scope_event(void **state)
{
    (void)state;
    char path[512];
    ttf_writer *w = NULL;
    ttf_trace *t = NULL;
    ttf_sym *s = NULL;
    ttf_iter *it = NULL;
    ttf_event ev;
    ttf_callsite cs = {.id = 7, .kind = TTF_SITE_SCOPE, .line = 12,
                       .fmt = "", .file = "x.c", .func = "my_scope"};
    int found = 0;

    snprintf(path, sizeof path, "%s/scope.trc", tmpdir);
    assert_int_equal(ttf_writer_open(path, NULL, &w), 0);
    assert_int_equal(ttf_write_thread_start(w, 0, 100, 42, "main"), 0);
    assert_int_equal(ttf_write_callsite(w, 0, &cs), 0);
    assert_int_equal(ttf_write_scope(w, 0, 200, 7, 1), 0);
    assert_int_equal(ttf_write_scope(w, 0, 300, 7, 0), 0);
    assert_int_equal(ttf_writer_close(w, 0), 0);
    assert_int_equal(ttf_open(path, &t, NULL), 0);
    assert_int_equal(ttf_sym_open(t, &s), 0);
    assert_int_equal(ttf_iter_open(t, 0, &it), 0);
    while (ttf_iter_next(it, &ev) == 1) {
        if (ev.kind != TTF_EV_ENTER && ev.kind != TTF_EV_EXIT)
            continue;
        assert_int_equal(ev.addr, 0);
        assert_string_equal(ttf_sym_event_name(s, &ev), "my_scope");
        const char *file = NULL;
        int line = 0;
        assert_int_equal(ttf_sym_event_line(s, &ev, &file, &line), 0);
        assert_string_equal(file, "x.c");
        assert_int_equal(line, 12);
        found++;
    }
    ttf_iter_close(it);
    assert_int_equal(found, 2);
    ttf_sym_close(s);
    ttf_close(t);
}

static void test_null_safe(void **state)
{
    (void)state;
    ttf_sym *s = (ttf_sym *)&s;

    assert_int_equal(ttf_sym_open(NULL, &s), TT_EINVAL);
    assert_null(s);
    ttf_sym_close(NULL);
    assert_int_equal(ttf_sym_notice_count(NULL), 0);
    assert_non_null(ttf_sym_name(NULL, 0x1234));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_event_names),
        cmocka_unit_test(test_lines),
        cmocka_unit_test(test_build_id_mismatch),
        cmocka_unit_test(test_missing_file_and_outside),
        cmocka_unit_test(test_cache),
        cmocka_unit_test(test_reload_same_address),
        cmocka_unit_test(test_event_lines_follow_time),
        cmocka_unit_test(test_scope_event),
        cmocka_unit_test(test_null_safe),
    };
    return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
