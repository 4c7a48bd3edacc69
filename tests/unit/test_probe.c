/*
 * test_probe.c - cmocka tests of libttcap's fault-safe read (capture/
 * cap_probe.S with cap_sig.c's handler, linked statically, and
 * cap_probe_string): a string read through its NUL or cut at n, at every
 * alignment; a NULL-page pointer and a string running into a PROT_NONE
 * page end the read with CAP_STR_FAULT instead of killing the process (the
 * bytes before the page kept); after them a real fault still reaches the
 * program's own handler. Then values mode's string reads (cap_vstr.h):
 * cap_str_read a word at a time to the NUL at every alignment, cut at n,
 * ending exactly at n, into a PROT_NONE page; cap_put_strings' STRINGS
 * payload read back by libttfmt (char *, std::string through its first
 * word, NULL and a bad pointer unreadable, the payload kept within 127
 * bytes). Then the cost of a read that does not fault.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "cap_int.h"
#include "cap_vstr.h"
#include "ttfmt.h"

/* cap_probe_string's bytes as a C string in out. */
static unsigned str(const char *p, unsigned n, char *out)
{
    uint64_t w[CAP_STR_MAX / 8 + 1];
    unsigned off = 0, r = cap_probe_string(p, n, w, &off);
    unsigned len = r & 0xff;
    memcpy(out, (const char *)w + off, len);
    out[len] = 0;
    return r;
}

static void test_copy(void **state)
{
    char out[40], src[48];
    (void)state;
    cap_signals_install();      /* after cmocka's own handlers */
    assert_int_equal(str("cc", 32, out), 2 | CAP_STR_NUL);
    assert_string_equal(out, "cc");
    for (int k = 0; k < 8; k++) {              /* every alignment */
        memcpy(src + k, "abcdefghijklmnopqrstuvwxyz0123456789", 37);
        assert_int_equal(str(src + k, 32, out), 32);
        assert_memory_equal(out, "abcdefghijklmnopqrstuvwxyz012345", 32);
        assert_int_equal(str(src + k, 4, out), 4);
        assert_int_equal(str(src + k + 35, 32, out), 1 | CAP_STR_NUL);
        assert_string_equal(out, "9");
    }
    assert_int_equal(str("", 32, out), 0 | CAP_STR_NUL);
    assert_int_equal(str("abc", 0, out), 0);
}

static void test_faults(void **state)
{
    char out[40];
    uint64_t w[4];
    long pg = sysconf(_SC_PAGESIZE);
    (void)state;
    cap_signals_install();
    assert_true(cap_probe_ready());
    assert_true(cap_probe_words(w, (const uint64_t *)16, 4) == CAP_PROBE_FAULTED);
    assert_int_equal(str((const char *)16, 32, out), CAP_STR_FAULT);
    char *m = mmap(NULL, 2 * (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(m != MAP_FAILED);
    assert_int_equal(mprotect(m + pg, (size_t)pg, PROT_NONE), 0);
    memcpy(m + pg - 5, "hello", 5);                         /* no NUL before the page */
    assert_int_equal(str(m + pg - 5, 32, out), 5 | CAP_STR_FAULT);
    assert_string_equal(out, "hello");
    memcpy(m + pg - 3, "hi", 3);                            /* ends before the page */
    assert_int_equal(str(m + pg - 3, 32, out), 2 | CAP_STR_NUL);
    assert_int_equal(str(m + pg, 32, out), CAP_STR_FAULT);
    munmap(m, 2 * (size_t)pg);
    assert_int_equal(str(m, 32, out), CAP_STR_FAULT);     /* unmapped */
}

/* cap_str_read's bytes as a C string in out (its leftovers cut off). */
static unsigned sread(const char *p, unsigned n, char *out)
{
    uint8_t d[CAP_STR_MAX + 16];
    unsigned r = cap_str_read(d, (uintptr_t)p, n), len = r & TTF_STRG_LEN;
    memcpy(out, d, len);
    out[len] = 0;
    return r;
}

static void test_str_read(void **state)
{
    char out[48], src[48];
    long pg = sysconf(_SC_PAGESIZE);
    (void)state;
    cap_signals_install();
    assert_int_equal(sread("cc", 32, out), 2 | TTF_STRG_END);
    assert_string_equal(out, "cc");
    for (int k = 0; k < 8; k++) {              /* every alignment */
        memcpy(src + k, "abcdefghijklmnopqrstuvwxyz0123456789", 37);
        assert_int_equal(sread(src + k, 32, out), 32);
        assert_memory_equal(out, "abcdefghijklmnopqrstuvwxyz012345", 32);
        assert_int_equal(sread(src + k, 4, out), 4);
        assert_int_equal(sread(src + k + 32, 4, out), 4 | TTF_STRG_END);  /* ends at n */
        assert_string_equal(out, "6789");
        assert_int_equal(sread(src + k + 35, 32, out), 1 | TTF_STRG_END);
        assert_string_equal(out, "9");
        assert_int_equal(sread(src + k + 36, 32, out), 0 | TTF_STRG_END);
    }
    char *m = mmap(NULL, 2 * (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(m != MAP_FAILED);
    assert_int_equal(mprotect(m + pg, (size_t)pg, PROT_NONE), 0);
    for (int k = 1; k <= 13; k++) {            /* runs into the page: bytes kept */
        memset(m + pg - k, 'q', (size_t)k);
        unsigned want = k < 32 ? (unsigned)k | TTF_STRG_FAULT : 32;
        assert_int_equal(sread(m + pg - k, 32, out), want);
        assert_int_equal(strspn(out, "q"), (size_t)k);
    }
    m[pg - 1] = 0;                             /* ends just before it */
    assert_int_equal(sread(m + pg - 6, 32, out), 5 | TTF_STRG_END);
    assert_int_equal(sread(m + pg, 32, out), 0 | TTF_STRG_FAULT);
    munmap(m, 2 * (size_t)pg);
}

/* A std::string as libstdc++ lays it out: the pointer to its characters
 * first. */
struct fake_string {
    const char *p;
    size_t n;
};

static void test_put_strings(void **state)
{
    uint8_t rec[CAP_VSTR_MAX + 16] = {0};
    static const char long_one[] = "0123456789012345678901234567890123456789";
    struct fake_string fs = {"std-chars", 9};
    uint64_t r[TTF_ARGREGS] = {(uintptr_t)"cc", (uintptr_t)&fs, 0, 1, (uintptr_t)long_one, 7};
    struct cap_vt_ent v = {0x1000, 0x1d, 0x02, 0, 0, {0}};   /* rdi rdx rcx r8: char *; rsi std */
    ttf_event ev;
    ttf_string s;
    char buf[128];
    (void)state;
    cap_signals_install();
    uint8_t *q = cap_put_strings(rec, r, &v);
    assert_int_equal(rec[2], 5);
    assert_int_equal(q - rec, 2 + rec[1]);
    memset(&ev, 0, sizeof ev);
    ev.strs = rec + 2;
    ev.strs_len = rec[1];
    static const char *const want[5] = {"\"cc\"", "\"std-chars\"", "(unreadable)", "(unreadable)",
                                        "\"01234567890123456789012345678901\"\xe2\x80\xa6"};
    for (unsigned k = 0; k < 5; k++) {
        assert_int_equal(ttf_event_string(&ev, k, &s), 1);
        assert_int_equal(s.std, k == 1);
        ttf_string_format(buf, sizeof buf, &s);
        assert_string_equal(buf, want[k]);
    }
    assert_int_equal(ttf_event_string(&ev, 5, &s), 0);
    fs.p = (const char *)8;                    /* a std::string whose pointer is bad */
    r[0] = r[4] = (uintptr_t)long_one;
    v.cstr = 0x3d;
    v.sstr = 0x02;
    r[5] = (uintptr_t)long_one;
    q = cap_put_strings(rec, r, &v);           /* six strings: 127 bytes at most */
    assert_true(rec[1] <= CAP_VSTR_PAYLOAD);
    ev.strs_len = rec[1];
    assert_int_equal(ttf_event_string(&ev, 1, &s), 1);
    assert_int_equal(s.unreadable, 1);
    assert_int_equal(s.len, 0);
    unsigned total = 0;
    for (unsigned k = 0; k < 6; k++)
        if (ttf_event_string(&ev, k, &s))
            total += 2 + s.len;
    assert_int_equal(1 + total, rec[1]);
}

static sigjmp_buf jb;
static volatile int handled;

static void on_segv(int sig)
{
    (void)sig;
    handled = 1;
    siglongjmp(jb, 1);
}

/* The program's handler, found when ours was installed (chained), still
 * gets a fault that is not the probe's. */
static void test_real_fault_chained(void **state)
{
    char out[40];
    static volatile uintptr_t bad = 8;
    (void)state;
    signal(SIGSEGV, on_segv);
    cap_signals_install();
    assert_true(cap_probe_ready());
    assert_int_equal(str((const char *)8, 8, out), CAP_STR_FAULT);
    if (!sigsetjmp(jb, 1))
        *(volatile char *)bad = 1;
    assert_int_equal(handled, 1);
    signal(SIGSEGV, SIG_DFL);
}

/* A 32-byte string copied without a fault: a few ns (printed). */
static void test_cost(void **state)
{
    uint64_t w[CAP_STR_MAX / 8 + 1];
    static const char s[] = "a string of more than 32 bytes, cut";
    struct timespec a, b;
    const int n = 1000000;
    size_t sum = 0;
    unsigned off;
    (void)state;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (int i = 0; i < n; i++)
        sum += cap_probe_string(s + (i & 3), 32, w, &off);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double ns = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / n;
    print_message("cap_probe_string, 32 bytes: %.1f ns\n", ns);
    assert_int_equal(sum, (size_t)n * 32);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copy),
        cmocka_unit_test(test_faults),
        cmocka_unit_test(test_real_fault_chained),
        cmocka_unit_test(test_str_read),
        cmocka_unit_test(test_put_strings),
        cmocka_unit_test(test_cost),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
