/*
 * fuzz_sym.c - libFuzzer target for the symbol reader (format/sym.c and
 * the DWARF and ELF code beside it: signature.c, inline.c, symtab.c,
 * code.c): the input is an ELF file. It is written where a fixed trace
 * says its one module was loaded (a private folder, so the reader trusts
 * it; no build-id recorded, so any file is taken), then a resolver is
 * opened on the trace and asked what the file says of its functions:
 * names, source lines, signatures, inline chains, what is inlined into
 * them, their machine code and what the code refers to. Seed it with small
 * ELF files (the fixture programs, built with -g). Built by `make fuzz`
 * (build/fuzz_sym).
 */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ttfmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
const char *__lsan_default_suppressions(void);

/* libdw 0.188 loses memory inside dwarf_getscopes on some malformed DWARF
 * (allocated and dropped within the library: every caller of ours frees
 * what it hands out); its leaks are not ours to report. */
const char *__lsan_default_suppressions(void)
{
    return "leak:libdw.so\n";
}

#define BASE 0x10000000ull      /* where the trace says the module sits */
#define FUNCS_MAX 64            /* functions asked about per input */

static char elf_path[256];      /* the module's recorded path */
static ttf_trace *trace;        /* the fixed trace naming it */

/* The trace: one thread, the module at BASE (no build-id), two calls. */
static int setup(void)
{
    char dir[] = "/tmp/fuzz_sym.XXXXXX", tpath[300];
    const char *argv[] = {"fuzz"};
    ttf_writer *w;
    ttf_error err;

    if (!mkdtemp(dir))
        return -1;
    snprintf(elf_path, sizeof elf_path, "%s/m.elf", dir);
    snprintf(tpath, sizeof tpath, "%s/t.trc", dir);
    ttf_writer_opts o = {.chunk_size = 4096, .timed = 1, .tsc_hz = 1000000000ull};
    if (ttf_writer_open(tpath, &o, &w) || ttf_write_process(w, 1, 0, elf_path, 1, argv, "") ||
        ttf_write_thread_start(w, 0, 10, 1, "main") ||
        ttf_write_module(w, 0, 10, BASE, 1ull << 30, NULL, 0, elf_path) ||
        ttf_write_enter(w, 0, 20, BASE + 0x1000) || ttf_write_exit(w, 0, 30, BASE + 0x1000) ||
        ttf_writer_close(w, 0))
        return -1;
    return ttf_open(tpath, &trace, &err);
}

/* Everything the resolver answers about the function at addr. */
static void ask(ttf_sym *s, uint64_t addr)
{
    const char *file;
    int line;
    const ttf_inline_frame *fr;
    size_t n;
    ttf_inlined in[TTF_INLINED_MAX];
    const ttf_signature *sig;
    ttf_event ev;

    (void)ttf_sym_name(s, addr);
    (void)ttf_sym_line(s, addr, &file, &line);
    (void)ttf_sym_inline(s, addr, 1000, &fr, &n);
    (void)ttf_sym_inline(s, addr + 3, 1000, &fr, &n);
    (void)ttf_sym_inlined_in(s, addr, 1000, in, TTF_INLINED_MAX, &n);
    memset(&ev, 0, sizeof ev);
    ev.kind = TTF_EV_ENTER;
    ev.addr = addr;
    ev.time_ns = 1000;
    (void)ttf_sym_event_name(s, &ev);
    (void)ttf_sym_signature(s, &ev, &sig);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    ttf_sym *s = NULL;
    const ttf_code_info *ci = NULL;
    ttf_code_ref ref;

    if (!ready)
        ready = setup() == 0 ? 1 : -1;
    if (ready < 0)
        abort();                /* no trace: nothing would be tested */
    int fd = open(elf_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0 || write(fd, data, size) != (ssize_t)size)
        abort();
    close(fd);
    if (ttf_sym_open(trace, &s) != 0)
        return 0;
    ask(s, BASE + 0x1000);
    if (ttf_sym_code(s, 0, &ci) == 0) {
        for (size_t i = 0; i < ci->nfuncs && i < FUNCS_MAX; i++) {
            const ttf_code_func *f = &ci->funcs[i];
            ask(s, f->addr + ci->bias);
            (void)ttf_sym_code_ref(s, 0, f->addr, &ref);
            (void)ttf_sym_code_ref(s, 0, f->addr + f->size / 2, &ref);
        }
    }
    for (size_t i = 0; i < ttf_sym_notice_count(s); i++)
        (void)ttf_sym_get_notice(s, i)[0];
    ttf_sym_close(s);
    return 0;
}
