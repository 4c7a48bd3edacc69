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
#include <elfutils/libdwfl.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
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
#include "ttf_int.h"
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
static const char *trace_dir = tmpdir; /* where make_trace writes */
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

    snprintf(path, sizeof path, "%s/t%d.trc", trace_dir, trace_no++);
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

/* ---- files at recorded paths (issue 24, defect 1) ------------------------ */

static void on_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "test_sym: blocked opening a recorded path\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(3);
}

/* A FIFO, a folder and a character device recorded as module files: the
 * resolver returns at once with names as offsets and one notice each. */
static void test_special_files(void **state)
{
    (void)state;
    char fifo[600], dir[600];
    snprintf(fifo, sizeof fifo, "%s/fifo.so", tmpdir);
    snprintf(dir, sizeof dir, "%s/dir.so", tmpdir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    assert_int_equal(mkdir(dir, 0700), 0);
    struct mod_spec m[3] = {
        {0x100000000ull, 0x10000, NULL, 0, fifo, 100, 0},
        {0x200000000ull, 0x10000, NULL, 0, dir, 100, 0},
        {0x300000000ull, 0x10000, NULL, 0, "/dev/zero", 100, 0}};
    uint64_t addrs[] = {0x100000010ull, 0x200000020ull, 0x300000030ull};
    ttf_trace *t = make_trace(m, 3, addrs, 3);
    ttf_sym *s = NULL;

    signal(SIGALRM, on_alarm);
    alarm(10);
    assert_int_equal(ttf_sym_open(t, &s), 0);
    alarm(0);
    assert_string_equal(ttf_sym_name(s, addrs[0]), "fifo.so+0x10");
    assert_string_equal(ttf_sym_name(s, addrs[1]), "dir.so+0x20");
    assert_string_equal(ttf_sym_name(s, addrs[2]), "zero+0x30");
    assert_int_equal(ttf_sym_notice_count(s), 3);
    for (size_t i = 0; i < 3; i++)
        assert_non_null(strstr(ttf_sym_get_notice(s, i), "not a regular file"));
    ttf_sym_close(s);
    ttf_close(t);
}

/* Copy file from to to, replacing every "sym_target_a" by "pwn_target_a"
 * when forge is set: an ELF with the same build-id note and other names. */
static void copy_file(const char *from, const char *to, int forge, mode_t mode)
{
    FILE *in = fopen(from, "rb");
    assert_non_null(in);
    assert_int_equal(fseek(in, 0, SEEK_END), 0);
    long n = ftell(in);
    rewind(in);
    char *buf = malloc((size_t)n);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)n, in), (size_t)n);
    fclose(in);
    for (char *p = buf; forge && (p = memmem(p, (size_t)(buf + n - p),
                                             "sym_target_a", 12)); p += 12)
        memcpy(p, "pwn", 3);
    int fd = open(to, O_WRONLY | O_CREAT | O_TRUNC, mode);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, buf, (size_t)n), n);
    close(fd);
    free(buf);
}

/* An ELF planted in a folder anyone can write, with the traced binary's
 * build-id and other symbol names, is not believed: offsets and a notice
 * without a trusted copy, the copy beside the trace when there is one. */
static void test_planted_elf(void **state)
{
    (void)state;
    char shared[600], planted[700], store[600], copy[900];
    snprintf(shared, sizeof shared, "%s/shared", tmpdir);
    snprintf(planted, sizeof planted, "%s/prog", shared);
    assert_int_equal(mkdir(shared, 0777), 0);
    assert_int_equal(chmod(shared, 0777), 0);
    copy_file(tu_self.path, planted, 1, 0755);
    struct mod_spec m = self_spec();
    m.path = planted;
    uint64_t a = addr_of(sym_target_a);
    ttf_trace *t = make_trace(&m, 1, &a, 1);
    ttf_sym *s = NULL;
    char want[64];

    assert_int_equal(ttf_sym_open(t, &s), 0);
    snprintf(want, sizeof want, "prog+0x%llx", (unsigned long long)(a - tu_self.base));
    assert_string_equal(ttf_sym_name(s, a), want);
    assert_int_equal(ttf_sym_notice_count(s), 1);
    assert_non_null(strstr(ttf_sym_get_notice(s, 0), "which others can write"));
    ttf_sym_close(s);
    ttf_close(t);

    /* the same trace in a folder with libttcap's copy of the binary */
    char hex[129];
    for (size_t i = 0; i < tu_self.build_id_len; i++)
        snprintf(hex + 2 * i, 3, "%02x", tu_self.build_id[i]);
    snprintf(store, sizeof store, "%s/st", tmpdir);
    assert_int_equal(mkdir(store, 0700), 0);
    snprintf(copy, sizeof copy, "%s/.build-id", store);
    assert_int_equal(mkdir(copy, 0700), 0);
    snprintf(copy, sizeof copy, "%s/.build-id/%.2s", store, hex);
    assert_int_equal(mkdir(copy, 0700), 0);
    snprintf(copy, sizeof copy, "%s/.build-id/%.2s/%s", store, hex, hex + 2);
    copy_file(tu_self.path, copy, 0, 0444);
    trace_dir = store;
    t = make_trace(&m, 1, &a, 1);
    trace_dir = tmpdir;
    assert_int_equal(ttf_sym_open(t, &s), 0);
    assert_string_equal(ttf_sym_name(s, a), "sym_target_a");
    assert_int_equal(ttf_sym_notice_count(s), 1);
    assert_non_null(strstr(ttf_sym_get_notice(s, 0), "symbols from the copy"));
    ttf_sym_close(s);
    ttf_close(t);
}

/* ---- the sorted symbol table (issue 24, defect 4) ------------------------- */

static int dwfl_name_cmp_mod(Dwfl_Module *dm, uint64_t lo, uint64_t hi,
                             uint64_t step, const struct ttfi_symtab *tab)
{
    int diffs = 0;
    for (uint64_t a = lo; a < hi; a += step) {
        GElf_Off off = 0;
        GElf_Sym sym;
        uint64_t off2 = 0;
        const char *n1 = dwfl_module_addrinfo(dm, a, &off, &sym, NULL, NULL, NULL);
        const char *n2 = ttfi_symtab_find(tab, a, &off2);
        if ((!n1) != (!n2) || (n1 && (strcmp(n1, n2) || off != off2))) {
            if (diffs++ < 5 || getenv("TT_SYMTAB_ALL"))
                print_message("0x%llx: libdwfl %s+%llu, table %s+%llu\n",
                              (unsigned long long)a, n1 ? n1 : "-",
                              (unsigned long long)(n1 ? off : 0),
                              n2 ? n2 : "-", (unsigned long long)off2);
        }
    }
    return diffs;
}

static char *no_path;
static const Dwfl_Callbacks plain_cb = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = &no_path,
};

/* The table answers what dwfl_module_addrinfo answers, at every address of
 * this test binary's code and at sampled code addresses of libc and
 * libstdc++ (aliases, versioned, weak and IFUNC symbols, labels). */
static int compare_file(const char *path, uint64_t step)
{
    Dwfl *d = dwfl_begin(&plain_cb);
    assert_non_null(d);
    dwfl_report_begin(d);
    Dwfl_Module *dm = dwfl_report_elf(d, "m", path, -1, 0x10000000, true);
    dwfl_report_end(d, NULL, NULL);
    assert_non_null(dm);
    struct ttfi_symtab *tab = NULL;
    assert_int_equal(ttfi_symtab_build(dm, &tab), 0);
    GElf_Addr bias = 0;
    Elf *elf = dwfl_module_getelf(dm, &bias);
    assert_non_null(elf);
    int diffs = 0;
    /* the code: traced addresses are there (labels in the gaps between
     * data sections are not compared: libdwfl's rule there is its own) */
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn)) != NULL;) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR))
            diffs += dwfl_name_cmp_mod(dm, sh.sh_addr + bias,
                                       sh.sh_addr + bias + sh.sh_size, step, tab);
    }
    ttfi_symtab_free(tab);
    dwfl_end(d);
    return diffs;
}

static void test_symtab_matches_libdwfl(void **state)
{
    (void)state;
    assert_int_equal(compare_file(tu_self.path, 1), 0);
    const char *libs[] = {"/lib/x86_64-linux-gnu/libc.so.6",
                          "/lib/x86_64-linux-gnu/libstdc++.so.6"};
    for (size_t i = 0; i < 2; i++)
        if (access(libs[i], R_OK) == 0)
            assert_int_equal(compare_file(libs[i], 409), 0);
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
        cmocka_unit_test(test_special_files),
        cmocka_unit_test(test_planted_elf),
        cmocka_unit_test(test_symtab_matches_libdwfl),
    };
    return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
