/*
 * sym.c - function addresses to names and source lines, through the trace's
 * module map and the ELF files on disk (elfutils libdwfl).
 *
 * Design. Each module of the trace gets its own Dwfl session, reported once
 * when the resolver opens (dwfl_report_elf at the recorded load bias, so a
 * traced address is looked up as is). One session per module rather than
 * one for the process keeps modules that were unloaded and reloaded at the
 * same address apart: libdwfl refuses overlapping modules in one session.
 * Reporting only reads the ELF header, program headers and notes; symbol
 * tables and DWARF are loaded by libdwfl on the first lookup that needs them.
 *
 * A module whose file is missing or has another build-id than the one
 * recorded (the program was rebuilt) is looked for by build-id: the files
 * given with ttf_sym_search (--exe), the .build-id/xx/yyyy trees of the
 * trace's folder (where libttcap keeps a copy of each instrumented module),
 * of TTCAP_STORE and of the ttf_sym_search folders (--debug-dir) and of
 * /usr/lib/debug, then, when DEBUGINFOD_URLS is set, libdwfl's own
 * build-id search, which asks debuginfod. A copy found gives one notice naming it; with
 * none, the module keeps no session: its addresses read "<basename>+0x<off>"
 * (off from the load bias, as addr2line wants it) and one notice says why.
 * An address in no module reads "0x<addr>".
 *
 * Every answer is cached in an open-addressing hash table keyed by (address,
 * module), so a million events of the same few thousand functions cost a
 * million hash probes, not a million symbol-table searches. Strings we
 * format ourselves live in an arena freed with the resolver; names and file
 * names from libdwfl point into its mapped ELF data, alive as long as the
 * session.
 *
 * Choosing the module of an address: modules are sorted by base; the ones
 * whose [base, base+size) holds the address are candidates, and the one
 * loaded at the event's time wins (ttf_sym_name, which has no time, takes
 * the one still loaded at the end, else the last loaded).
 *
 * C++ names ("_Z...") are demangled by the C++ runtime's __cxa_demangle,
 * found with dlopen("libstdc++.so.6") on first need rather than linked, so
 * C users of libttfmt carry no C++ dependency; without it names stay
 * mangled. The demangled string is what the cache keeps.
 * Stage 6 symbols of format/STAGES (below it the reader and the DWARF helpers;
 * above it code.c, which keeps its per-module data in a slot sym.c frees
 * through the slot's own function: struct ttfi_modslot, ttf_int.h).
 */
#include <dlfcn.h>
#include <elfutils/libdwfl.h>
#include <gelf.h>
#include <pthread.h>
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ttf_int.h"
#include "ttf_util.h"
#include "ttf_wire.h"
#include "ttfmt.h"

#define NOTICE_MAX 256
#define NO_MODULE (-1)
#define TIME_NONE (UINT64_MAX - 1) /* "now": after every load, before no unload */

/* One module of the trace and what we could open of it. */
struct smod {
    const ttf_module *m;       /* the trace's entry (lives with the trace) */
    Dwfl *dwfl;                /* its own session; NULL = names as offsets */
    Dwfl_Module *dm;           /* the reported module in dwfl */
    const char *base_name;     /* basename of m->path ("?" if empty) */
    int dwarf_state;           /* 0 not checked, 1 has DWARF, -1 has none,
                                  -2 damaged: libdw faulted reading it */
    int sig_noticed;           /* 1: a function without signature noticed */
    struct ttfi_cumap *cus;    /* units by address (NULL until needed) */
    struct ttfi_modslot code;  /* its functions' code (code.c fills it on
                                  first need and says how to free it) */
    struct ttfi_symtab *syms;  /* symbols by address (NULL until needed) */
};

/* One cached answer. An empty slot has name == NULL. */
struct centry {
    uint64_t addr;             /* the address asked about */
    int32_t mod;               /* module index, NO_MODULE if none held it */
    int32_t line;              /* source line when line_state == 1 */
    int line_state;            /* 0 not asked yet, 1 found, -1 no line info */
    const char *name;          /* never NULL once filled */
    const char *file;          /* source file when line_state == 1 */
    int sig_state;             /* 0 not asked yet, 1 found, -1 not found */
    const ttf_signature *sig;  /* the signature when sig_state == 1 */
    int inl_state;             /* 0 not asked yet, 1 found, -1 not found */
    const ttf_inline_frame *inl; /* the inline chain when inl_state == 1 */
    size_t ninl;               /* its frames */
};

#define FMC_SIZE 256            /* find_module's cache (a power of two) */

struct ttf_sym {
    const ttf_trace *t;        /* the trace whose modules we resolve */
    struct smod *mods;         /* nmods modules, trace order */
    size_t nmods;
    uint32_t *order;           /* module indexes sorted by base */
    uint64_t max_size;         /* largest module size (bounds the scan) */
    struct centry *tab;        /* the cache, cap slots (power of two) */
    size_t cap, used;
    struct ttfi_arena arena;   /* demangled and formatted names */
    char **notices;            /* nnotices lines, each malloc'ed */
    size_t nnotices, notices_cap;
    int demangle;              /* 1: C++ names demangled (the default) */
    uid_t owner;               /* the trace file's owner (trusted paths) */
    int oom;                   /* 1: an answer or notice was lost for
                                  want of memory (ttf_sym_status) */
    struct {                   /* find_module's last answers by address */
        uint64_t key;          /* the address + 1 (0: empty) */
        int32_t mod;           /* a module live at the time asked */
        struct centry *e;      /* lookup's entry of (address, mod), NULL:
                                  not known (cleared when tab grows) */
    } fmc[FMC_SIZE];
};

static const char *const oom_name = "?";

static char *debuginfo_path;   /* NULL: libdwfl's default search path */
static char **search_exe;      /* ttf_sym_search: files to try by build-id */
static size_t search_nexe;     /* entries in search_exe */
static char *search_dirs;      /* ttf_sym_search: folders with .build-id trees */
static const Dwfl_Callbacks offline_callbacks = {
    .find_elf = dwfl_build_id_find_elf,
    .find_debuginfo = dwfl_standard_find_debuginfo,
    .section_address = dwfl_offline_section_address,
    .debuginfo_path = &debuginfo_path,
};

/* ---- small helpers ------------------------------------------------------ */

__attribute__((format(printf, 2, 3)))
static const char *arena_printf(ttf_sym *s, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;

    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0)
        return NULL;
    return ttfi_arena_strcpy(&s->arena, tmp);
}

/* Add a notice unless the same line is there already. */
__attribute__((format(printf, 2, 3)))
static void add_notice(ttf_sym *s, const char *fmt, ...)
{
    char line[NOTICE_MAX];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    for (size_t i = 0; i < s->nnotices; i++)
        if (strcmp(s->notices[i], line) == 0)
            return;
    if (s->nnotices == s->notices_cap) {
        size_t cap = s->notices_cap ? 2 * s->notices_cap : 8;
        char **n = realloc(s->notices, cap * sizeof *n);
        if (!n) {
            s->oom = 1;
            return;
        }
        s->notices = n;
        s->notices_cap = cap;
    }
    char *copy = strdup(line);
    if (copy)
        s->notices[s->nnotices++] = copy;
    else
        s->oom = 1;
}

static const char *path_base(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* ---- C++ names ---------------------------------------------------------- */

typedef char *(*demangle_fn)(const char *mangled, char *buf, size_t *len,
                             int *status);

static demangle_fn cxa_demangle;  /* NULL: no C++ runtime found */
static pthread_once_t demangle_once = PTHREAD_ONCE_INIT;

/* Never dlclose'd: the function stays usable for the process's life. */
static void find_demangler(void)
{
    void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);
    void *f = h ? dlsym(h, "__cxa_demangle") : NULL;

    if (f)
        memcpy(&cxa_demangle, &f, sizeof cxa_demangle);
}

/* name demangled into the arena, or name itself when it is not a C++
 * name, demangling is off or fails. */
static const char *demangled(ttf_sym *s, const char *name)
{
    int status = -1;

    if (!s->demangle || strncmp(name, "_Z", 2) != 0)
        return name;
    pthread_once(&demangle_once, find_demangler);
    if (!cxa_demangle)
        return name;
    char *d = cxa_demangle(name, NULL, NULL, &status);
    if (!d || status != 0) {
        s->oom |= status == -1; /* -1: a memory allocation failed */
        free(d);
        return name;
    }
    char *p = ttfi_arena_strcpy(&s->arena, d);
    free(d);
    s->oom |= !p;
    return p ? p : name;
}

/* ---- modules ------------------------------------------------------------ */

/* 1 when the reported file has the recorded build-id (or none was
 * recorded), else 0. */
static int build_id_matches(const struct smod *sm)
{
    const unsigned char *bits = NULL;
    GElf_Addr vaddr = 0;

    if (sm->m->build_id_len == 0)
        return 1; /* nothing recorded: nothing to check against */
    int n = dwfl_module_build_id(sm->dm, &bits, &vaddr);
    if (n <= 0 || (size_t)n != sm->m->build_id_len)
        return 0;
    return memcmp(bits, sm->m->build_id, (size_t)n) == 0;
}

static void drop_session(struct smod *sm)
{
    if (sm->dwfl && sm->dwarf_state != -2)
        dwfl_end(sm->dwfl);     /* a damaged one may be half-built: kept */
    ttfi_cumap_free(sm->cus);
    if (sm->code.free)
        sm->code.free(sm->code.p);
    ttfi_symtab_free(sm->syms);
    sm->cus = NULL;
    sm->code = (struct ttfi_modslot){NULL, NULL};
    sm->syms = NULL;
    sm->dwfl = NULL;
    sm->dm = NULL;
}

/* Report the file open as fd (path) as sm's module in a new session, which
 * takes fd. 1: kept (its build-id is the recorded one), 0: another build,
 * -1: unreadable (*why set). */
static int try_fd(struct smod *sm, const char *path, int fd, const char **why)
{
    sm->dwfl = dwfl_begin(&offline_callbacks);
    if (!sm->dwfl) {
        close(fd);
        *why = "out of memory";
        return -1;
    }
    dwfl_report_begin(sm->dwfl);
    sm->dm = dwfl_report_elf(sm->dwfl, sm->base_name, path, fd, sm->m->base,
                             true);
    if (!sm->dm)
        close(fd); /* libdwfl keeps (and closes) fd only on success */
    dwfl_report_end(sm->dwfl, NULL, NULL);
    int rc = sm->dm ? build_id_matches(sm) : -1;
    if (rc < 0)
        *why = dwfl_errmsg(-1);
    if (rc != 1)
        drop_session(sm);
    return rc;
}

/* try_fd on the file at path, opened without blocking and only when it is
 * a regular file; trust: 1 to refuse (0) a file that others could have put
 * there (safeopen.c). */
static int try_file(ttf_sym *s, struct smod *sm, const char *path,
                    int trust, const char **why)
{
    char where[512];
    int fd = ttfi_open_regular(path, why);
    if (fd < 0)
        return 0;
    if (trust && !ttfi_trusted_place(path, fd, s->owner, where, sizeof where)) {
        close(fd);              /* said, not silently skipped */
        add_notice(s, "%s: a copy in %s, which others can write: not used",
                   path, where);
        return 0;
    }
    return try_fd(sm, path, fd, why);
}

/* libdwfl's own search by build-id: the .build-id folders of its debuginfo
 * path (/usr/lib/debug) and debuginfod (DEBUGINFOD_URLS). */
static int try_libdwfl(struct smod *sm)
{
    sm->dwfl = dwfl_begin(&offline_callbacks);
    if (!sm->dwfl)
        return 0;
    dwfl_report_begin(sm->dwfl);
    sm->dm = dwfl_report_module(sm->dwfl, sm->base_name, sm->m->base,
                                sm->m->base + (sm->m->size ? sm->m->size : 1));
    if (sm->dm && dwfl_module_report_build_id(sm->dm, sm->m->build_id,
                                              sm->m->build_id_len, 0) != 0)
        sm->dm = NULL;
    dwfl_report_end(sm->dwfl, NULL, NULL);
    GElf_Addr bias;
    if (sm->dm && dwfl_module_getelf(sm->dm, &bias) && build_id_matches(sm) == 1)
        return 1;
    drop_session(sm);
    return 0;
}

/* The copies of build-id hex in folder dir's .build-id tree. */
static int try_store(ttf_sym *s, struct smod *sm, const char *dir,
                     const char *hex)
{
    char path[4096];
    const char *why = NULL;
    if (!dir || !dir[0])
        return 0;
    snprintf(path, sizeof path, "%s/.build-id/%.2s/%s", dir, hex, hex + 2);
    if (try_file(s, sm, path, 1, &why) == 1)
        return 1;
    snprintf(path, sizeof path, "%s/.build-id/%.2s/%s.debug", dir, hex, hex + 2);
    return try_file(s, sm, path, 1, &why) == 1;
}

/* Another file with the recorded build-id: --exe files, the stores (the
 * trace's folder, TTCAP_STORE, --debug-dir), then libdwfl's search. The
 * file's name on success, else NULL. */
static const char *find_copy(ttf_sym *s, struct smod *sm)
{
    char hex[2 * 64 + 1], dirs[4096];
    const char *why = NULL;
    if (sm->m->build_id_len < 2 || sm->m->build_id_len > 64)
        return NULL;
    for (size_t i = 0; i < sm->m->build_id_len; i++)
        snprintf(hex + 2 * i, 3, "%02x", sm->m->build_id[i]);
    for (size_t i = 0; i < search_nexe; i++)
        if (try_file(s, sm, search_exe[i], 0, &why) == 1) /* given by hand */
            return search_exe[i];
    snprintf(dirs, sizeof dirs, "%s", ttf_path(s->t) ? ttf_path(s->t) : "");
    char *slash = strrchr(dirs, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dirs, sizeof dirs, ".");
    if (try_store(s, sm, dirs, hex))
        return arena_printf(s, "%s/.build-id/%.2s/%s", dirs, hex, hex + 2);
    snprintf(dirs, sizeof dirs, "%s:%s", getenv("TTCAP_STORE") ? getenv("TTCAP_STORE") : "",
             search_dirs ? search_dirs : "");
    for (char *d = strtok_r(dirs, ":", &slash); d; d = strtok_r(NULL, ":", &slash))
        if (try_store(s, sm, d, hex))
            return arena_printf(s, "%s/.build-id/%.2s/%s", d, hex, hex + 2);
    if (try_store(s, sm, "/usr/lib/debug", hex))
        return arena_printf(s, "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2);
    /* libdwfl's search adds only debuginfod, and loads its client library
     * (and curl's dozens) even with no server set: ask it only with one */
    const char *urls = getenv("DEBUGINFOD_URLS");
    if (!urls || !urls[0])
        return NULL;
    return try_libdwfl(sm) ? "debuginfod" : NULL;
}

/* Why the recorded file of a module could not be used, once. */
static void notice_unused(ttf_sym *s, const char *path, const char *copy,
                          int rc, const char *why)
{
    if (rc == -1 && why && strcasestr(why, "out of memory"))
        s->oom = 1; /* ours or libdwfl's: the names would be offsets */
    if (copy && rc < -1)
        add_notice(s, "%s: %s; symbols from %s", path,
                   rc == -2 ? "missing" : why, copy);
    else if (copy)
        add_notice(s, "%s: rebuilt since the trace; symbols from %s", path, copy);
    else if (rc < -1)
        add_notice(s, "%s: cannot open (%s); names shown as offsets", path, why);
    else if (rc < 0)
        add_notice(s, "%s: cannot read (%s); names shown as offsets", path,
                   why ? why : "?");
    else
        add_notice(s, "%s: build-id differs from the traced binary; "
                      "names shown as offsets", path);
}

/* 1 if sm's open file has no symbol table of its own (.symtab) and
 * libdwfl found no separate debug file for it: only the dynamic symbols
 * name its functions (static ones show as offsets). */
static int stripped(struct smod *sm)
{
    GElf_Addr bias;
    const char *debugfile = NULL;
    Elf *e = sm->dm ? dwfl_module_getelf(sm->dm, &bias) : NULL;
    if (!e)
        return 0;
    dwfl_module_info(sm->dm, NULL, NULL, NULL, NULL, NULL, NULL, &debugfile);
    if (debugfile)
        return 0;
    for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
        GElf_Shdr sh;
        if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
            return 0;
    }
    return 1;
}

/* Say once that the program's own file is stripped, and how to get the
 * names. Only the traced program's executable: system libraries are
 * shipped stripped and hold no traced function, so a note for each would
 * be noise. */
static void notice_stripped(ttf_sym *s, struct smod *sm, const char *file)
{
    const ttf_process *pr = ttf_get_process(s->t);
    if (!pr || !pr->exe || !sm->m->path || strcmp(pr->exe, sm->m->path) != 0)
        return;
    if (stripped(sm))
        add_notice(s, "%s: stripped (no symbol table): functions that are not "
                   "exported show as offsets; give an unstripped copy of the "
                   "same build with --exe, or install its debug symbols", file);
}

/* A --exe file with the recorded build-id: it wins over the recorded path
 * (an unstripped copy of a stripped program). 1 when one was taken. */
static int try_given(ttf_sym *s, struct smod *sm)
{
    const char *why = NULL;
    if (!sm->m->build_id_len || !sm->m->path)
        return 0;
    for (size_t i = 0; i < search_nexe; i++)
        if (try_file(s, sm, search_exe[i], 0, &why) == 1) {
            if (strcmp(search_exe[i], sm->m->path) != 0)
                add_notice(s, "%s: symbols from %s (--exe, same build-id)",
                           sm->m->path, search_exe[i]);
            notice_stripped(s, sm, search_exe[i]);
            return 1;
        }
    return 0;
}

/* Open one module's file in its own session: the recorded path, else a copy
 * with its build-id (find_copy); on failure leave it as offsets with a
 * notice saying why. The recorded path is opened without blocking and only
 * as a regular file (a FIFO there would hang us). A file in a place others
 * can write is never believed on its build-id alone (anyone can forge the
 * note): a trusted copy's content is used instead, or none. */
static void open_module(ttf_sym *s, struct smod *sm)
{
    const char *path = sm->m->path, *why = NULL;
    char where[512];

    if (!path || !path[0])
        return; /* nameless mapping (vdso, anonymous): offsets, no notice */
    if (try_given(s, sm))
        return;
    int fd = ttfi_open_regular(path, &why), rc = errno == ENOENT ? -2 : -3;
    if (fd >= 0 && !ttfi_trusted_place(path, fd, s->owner, where, sizeof where)) {
        close(fd);
        const char *copy = find_copy(s, sm);
        if (copy)
            add_notice(s, "%s: in %s, which others can write; symbols from "
                       "the copy %s", path, where, copy);
        else
            add_notice(s, "%s: in %s, which others can write, and no trusted "
                       "copy to check it against (--exe trusts a file); names "
                       "shown as offsets", path, where);
        return;
    }
    if (fd >= 0 && (rc = try_fd(sm, path, fd, &why)) == 1) {
        notice_stripped(s, sm, path);
        return;
    }
    notice_unused(s, path, find_copy(s, sm), rc, why);
}

static int cmp_base(const void *a, const void *b, void *ctx)
{
    const struct smod *mods = ctx;
    const ttf_module *ma = mods[*(const uint32_t *)a].m;
    const ttf_module *mb = mods[*(const uint32_t *)b].m;

    if (ma->base != mb->base)
        return ma->base < mb->base ? -1 : 1;
    return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

/* Is module i live at time t? */
static int live_at(const ttf_module *m, uint64_t t)
{
    return m->load_ns <= t && t < m->unload_ns;
}

/* Among modules not live at t, prefer the last one loaded before t, else
 * the first one loaded after it. */
static int better_fallback(const ttf_sym *s, int32_t cur, const ttf_module *m,
                           uint64_t t)
{
    if (cur == NO_MODULE)
        return 1;
    const ttf_module *c = s->mods[cur].m;
    if (m->load_ns <= t)
        return c->load_ns > t || m->load_ns > c->load_ns;
    return c->load_ns > t && m->load_ns < c->load_ns;
}

/* Index of the module holding addr at time t, or NO_MODULE. The values
 * passes ask it for every call event (its signature), so the last live
 * answer per address is kept: mappings of one time never overlap, so a
 * module that holds addr and is live at t is the answer. */
static int32_t find_module_slow(const ttf_sym *s, uint64_t addr, uint64_t t);

/* The slot of find_module's cache for addr. */
static inline size_t fmc_slot(uint64_t addr)
{
    return (size_t)(addr >> 4 ^ addr >> 12) & (FMC_SIZE - 1);
}

static int32_t find_module(ttf_sym *s, uint64_t addr, uint64_t t)
{
    size_t h = fmc_slot(addr);
    /* addr + 1 is 0, an empty slot's key, for the last address (a damaged
     * trace): never a hit, else module 0 of a trace that may have none */
    if (addr + 1 != 0 && s->fmc[h].key == addr + 1 &&
        live_at(s->mods[s->fmc[h].mod].m, t))
        return s->fmc[h].mod;
    int32_t i = find_module_slow(s, addr, t);
    if (i != NO_MODULE && live_at(s->mods[i].m, t)) {
        s->fmc[h].key = addr + 1;
        s->fmc[h].mod = i;
        s->fmc[h].e = NULL;
    }
    return i;
}


static int32_t find_module_slow(const ttf_sym *s, uint64_t addr, uint64_t t)
{
    size_t lo = 0, hi = s->nmods;
    int32_t fallback = NO_MODULE;

    while (lo < hi) { /* first module with base > addr */
        size_t mid = (lo + hi) / 2;
        if (s->mods[s->order[mid]].m->base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t k = lo; k-- > 0;) {
        uint32_t i = s->order[k];
        const ttf_module *m = s->mods[i].m;
        if (addr - m->base >= s->max_size)
            break; /* every module further down ends below addr */
        if (addr - m->base >= m->size)
            continue;
        if (live_at(m, t))
            return (int32_t)i;
        if (better_fallback(s, fallback, m, t))
            fallback = (int32_t)i;
    }
    return fallback;
}

/* ---- the cache ---------------------------------------------------------- */

static size_t slot_of(const ttf_sym *s, uint64_t addr, int32_t mod)
{
    return (size_t)ttfi_mix64(addr ^ ((uint64_t)(uint32_t)mod << 48)) & (s->cap - 1);
}

static struct centry *probe(const ttf_sym *s, uint64_t addr, int32_t mod)
{
    size_t i = slot_of(s, addr, mod);

    while (s->tab[i].name &&
           (s->tab[i].addr != addr || s->tab[i].mod != mod))
        i = (i + 1) & (s->cap - 1);
    return &s->tab[i];
}

static int grow(ttf_sym *s)
{
    size_t old_cap = s->cap;
    struct centry *old = s->tab;
    size_t cap = old_cap ? 2 * old_cap : 1024;
    struct centry *tab = calloc(cap, sizeof *tab);

    if (!tab)
        return TT_ENOMEM;
    s->tab = tab;
    s->cap = cap;
    for (size_t i = 0; i < FMC_SIZE; i++)
        s->fmc[i].e = NULL;     /* entries move */
    for (size_t i = 0; i < old_cap; i++) {
        if (old[i].name)
            *probe(s, old[i].addr, old[i].mod) = old[i];
    }
    free(old);
    return 0;
}

static const char *resolve_name(ttf_sym *s, uint64_t addr, int32_t mod)
{
    if (mod == NO_MODULE)
        return arena_printf(s, "0x%" PRIx64, addr);
    struct smod *sm = &s->mods[mod];
    if (sm->dm && !sm->syms && ttfi_symtab_build(sm->dm, &sm->syms) != 0)
        return NULL;
    if (sm->dm) {
        uint64_t off = 0;
        const char *name = ttfi_symtab_find(sm->syms, addr, &off);
        if (name)
            name = demangled(s, name);
        if (name && off == 0)
            return name;
        if (name)
            return arena_printf(s, "%.400s+0x%" PRIx64, name, (uint64_t)off);
    }
    return arena_printf(s, "%s+0x%" PRIx64, sm->base_name,
                        addr - sm->m->base);
}

/* The cache entry of (addr, mod), filled with its name; NULL only when
 * memory runs out (and s->oom set). */
static struct centry *lookup(ttf_sym *s, uint64_t addr, int32_t mod)
{
    size_t h = fmc_slot(addr);
    /* find_module's cache answered (addr, mod): its entry is kept there,
       no probe of the table (a trace's calls ask for few functions often) */
    int cached = addr + 1 != 0 && s->fmc[h].key == addr + 1 && s->fmc[h].mod == mod;
    if (cached && s->fmc[h].e)
        return s->fmc[h].e;
    struct centry *e = probe(s, addr, mod);

    if (e->name) {
        if (cached)
            s->fmc[h].e = e;
        return e;
    }
    if (2 * (s->used + 1) > s->cap) {
        if (grow(s) != 0) {
            s->oom = 1;
            return NULL;
        }
        e = probe(s, addr, mod);
    }
    const char *name = resolve_name(s, addr, mod);
    if (!name) {
        s->oom = 1;
        return NULL;
    }
    e->addr = addr;
    e->mod = mod;
    e->name = name;
    s->used++;
    return e;
}

/* ---- guarded DWARF queries (guard.c) -------------------------------------- */

/* What a query of a module's DWARF asks and answers (one of the four). */
struct dwq {
    uint64_t addr;              /* the address asked about */
    const char *file;           /* line: its file and line */
    int line;
    ttf_signature sig;          /* signature: the answer and why not */
    const char *why;
    char missing[NOTICE_MAX];   /* the module has no usable DWARF: why */
    ttf_inline_frame *fr;       /* inline chain */
    size_t n;
    ttf_inlined *out;           /* functions inlined into addr's */
    size_t max;
    ttf_sym *s;                 /* for sig_alloc */
    const char **pt;            /* pointees: 6 of them */
};

static void *sig_alloc(void *ctx, size_t n);

static int q_line(struct smod *sm, struct dwq *q)
{
    return ttfi_dwarf_line(sm->dm, &sm->cus, q->addr, &q->file, &q->line);
}

static int q_missing(struct smod *sm, struct dwq *q)
{
    return ttfi_dwarf_missing(sm->dm, q->missing, sizeof q->missing);
}

static int q_sig(struct smod *sm, struct dwq *q)
{
    return ttfi_dwarf_signature(sm->dm, &sm->cus, q->addr, sig_alloc, q->s,
                                &q->sig, &q->why);
}

static int q_pointees(struct smod *sm, struct dwq *q)
{
    return ttfi_dwarf_pointees(sm->dm, &sm->cus, q->addr, sig_alloc, q->s, q->pt);
}

static int q_inline(struct smod *sm, struct dwq *q)
{
    return ttfi_dwarf_inline(sm->dm, &sm->cus, q->addr, sig_alloc, q->s, &q->fr, &q->n);
}

static int q_inlined_in(struct smod *sm, struct dwq *q)
{
    return ttfi_dwarf_inlined_in(sm->dm, &sm->cus, q->addr, sig_alloc, q->s,
                                 q->out, q->max, &q->n);
}

/* A test hook: TTF_TEST_DWARF_FAULT=N makes the process's Nth guarded
 * query fault (SIGSEGV raised inside its guard, caught as a libdw fault
 * is), with one stderr line naming N. Current libdw does not fault on the
 * damaged files tests can make; this lets tests/e2e/dwarf_late.sh put the
 * fault at every point of a ttdiff run, late ones (explain, detail)
 * included. Read once; off (one load and a compare) when unset. */
static void test_fault(void)
{
    static _Atomic long at = -2, n;
    long want = atomic_load_explicit(&at, memory_order_relaxed);
    if (want == -2) {
        const char *e = getenv("TTF_TEST_DWARF_FAULT");
        want = e && *e ? strtol(e, NULL, 10) : -1;
        atomic_store_explicit(&at, want, memory_order_relaxed);
    }
    if (want <= 0 || atomic_fetch_add(&n, 1) + 1 != want)
        return;
    fprintf(stderr, "ttfmt: test: DWARF fault injected at guarded query %ld\n", want);
    raise(SIGSEGV);
}

/* fn(sm, q) with a fault inside libdw caught: fn's answer, or TT_ECORRUPT
 * when it faulted or faulted before (the module's DWARF is damaged: said
 * once, never asked again). */
static int guarded(ttf_sym *s, struct smod *sm, int (*fn)(struct smod *, struct dwq *),
                   struct dwq *q)
{
    struct ttfi_guard g;
    if (sm->dwarf_state == -2)
        return TT_ECORRUPT;
    if (sigsetjmp(g.jb, 1)) {
        ttfi_guard_off(&g, 1);
        sm->dwarf_state = -2;
        add_notice(s, "%s: its debug info is damaged (libdw failed reading it); "
                   "values, source lines and inlined frames not read", sm->m->path);
        return TT_ECORRUPT;
    }
    ttfi_guard_on(&g);
    test_fault();
    int rc = fn(sm, q);
    ttfi_guard_off(&g, 0);
    return rc;
}

static void resolve_line(ttf_sym *s, struct centry *e)
{
    e->line_state = -1;
    if (e->mod == NO_MODULE || !s->mods[e->mod].dm)
        return;
    struct smod *sm = &s->mods[e->mod];
    struct dwq q = {.addr = e->addr, .s = s};
    int rc = guarded(s, sm, q_line, &q);
    s->oom |= rc == TT_ENOMEM;
    if (rc != 0)
        return;
    e->file = q.file;
    e->line = q.line;
    e->line_state = 1;
}

/* ---- signatures --------------------------------------------------------- */

static void *sig_alloc(void *ctx, size_t n)
{
    return ttfi_arena_alloc(&((ttf_sym *)ctx)->arena, n);
}

/* Fill e's signature. A module whose signatures cannot be read says so
 * once: without (readable) DWARF, or the first function it does not
 * describe (an object compiled without -g). */
/* A trace that records no SSE registers (before format 1.5): the float
 * and double parameters and results signature.c placed in them are not
 * recorded. */
static void no_sse(ttf_signature *sig)
{
    ttf_param *pp = (ttf_param *)(uintptr_t)sig->params;
    for (size_t i = 0; i < sig->nparams; i++)
        if (pp[i].reg >= TTF_XMM_SLOT(0) || pp[i].reg2 >= TTF_XMM_SLOT(0))
            pp[i].reg = pp[i].reg2 = -1;
    sig->ret_xmm = 0;
    if (sig->ret_eb[0] == TTF_RET_XMM0 || sig->ret_eb[1] == TTF_RET_XMM0)
        sig->ret_eb[0] = sig->ret_eb[1] = TTF_RET_UNREC;
}

static void resolve_sig(ttf_sym *s, struct centry *e)
{
    struct dwq q = {.addr = e->addr, .s = s};

    e->sig_state = -1;
    if (e->mod == NO_MODULE || !s->mods[e->mod].dm)
        return;
    struct smod *sm = &s->mods[e->mod];
    if (sm->dwarf_state == 0 && guarded(s, sm, q_missing, &q) == 1) {
        add_notice(s, "%s: %s; values not compared", sm->m->path, q.missing);
        sm->dwarf_state = -1;
    }
    if (sm->dwarf_state < 0)
        return;
    sm->dwarf_state = 1;
    int rc = guarded(s, sm, q_sig, &q);
    s->oom |= rc == TT_ENOMEM;
    if (rc == TT_ENOTFOUND && !sm->sig_noticed) {
        add_notice(s, "%s: %.80s: %s; values of such functions not compared",
                   sm->m->path, e->name, q.why);
        sm->sig_noticed = 1;
    }
    if (rc)
        return;
    ttf_signature *copy = (ttf_signature *)ttfi_arena_alloc(&s->arena, sizeof *copy);
    if (!copy) {
        s->oom = 1;
        return;
    }
    *copy = q.sig;
    if (!(ttf_get_header(s->t)->required_features & TTF_REQ_XMM))
        no_sse(copy);
    e->sig = copy;
    e->sig_state = 1;
}

int ttf_sym_signature(ttf_sym *s, const ttf_event *ev,
                      const ttf_signature **out)
{
    if (out)
        *out = NULL;
    if (!s || !ev || !out || ev->site != 0 ||
        (ev->kind != TTF_EV_ENTER && ev->kind != TTF_EV_EXIT))
        return TT_EINVAL;
    int32_t mod = find_module(s, ev->addr, ev->time_ns);
    struct centry *e = lookup(s, ev->addr, mod);
    if (!e)
        return TT_ENOMEM;
    if (e->sig_state == 0)
        resolve_sig(s, e);
    if (e->sig_state < 0)
        return TT_ENOTFOUND;
    *out = e->sig;
    return 0;
}

/* ---- inline chains ------------------------------------------------------- */

/* Fill e's inline chain (inline.c); the out-of-line frame is named by its
 * symbol, as the traced functions are, and inlined C++ names demangled. */
static void resolve_inline(ttf_sym *s, struct centry *e)
{
    struct dwq q = {.addr = e->addr, .s = s};

    e->inl_state = -1;
    if (e->mod == NO_MODULE || !s->mods[e->mod].dm)
        return;
    struct smod *sm = &s->mods[e->mod];
    int rc = guarded(s, sm, q_inline, &q);
    s->oom |= rc == TT_ENOMEM;
    if (rc)
        return;
    ttf_inline_frame *fr = q.fr;
    size_t n = q.n;
    for (size_t i = 0; i + 1 < n; i++)
        if (fr[i].function)
            fr[i].function = demangled(s, fr[i].function);
    uint64_t off = 0;
    const char *sym = sm->syms ? ttfi_symtab_find(sm->syms, e->addr, &off) : NULL;
    fr[n - 1].function = sym ? demangled(s, sym) : fr[n - 1].function;
    e->inl = fr;
    e->ninl = n;
    e->inl_state = 1;
}

int ttf_sym_inline(ttf_sym *s, uint64_t addr, uint64_t time_ns,
                   const ttf_inline_frame **out, size_t *n)
{
    if (out)
        *out = NULL;
    if (n)
        *n = 0;
    if (!s || !out || !n)
        return TT_EINVAL;
    int32_t mod = find_module(s, addr, time_ns == UINT64_MAX ? TIME_NONE : time_ns);
    struct centry *e = lookup(s, addr, mod);
    if (!e)
        return TT_ENOMEM;
    if (e->inl_state == 0)
        resolve_inline(s, e);
    if (e->inl_state < 0)
        return TT_ENOTFOUND;
    *out = e->inl;
    *n = e->ninl;
    return 0;
}

int ttf_sym_inlined_in(ttf_sym *s, uint64_t fn_addr, uint64_t time_ns,
                       ttf_inlined *out, size_t max, size_t *n)
{
    if (n)
        *n = 0;
    if (!s || (!out && max) || !n)
        return TT_EINVAL;
    int32_t mod = find_module(s, fn_addr, time_ns == UINT64_MAX ? TIME_NONE : time_ns);
    struct centry *e = lookup(s, fn_addr, mod); /* opens the module's DWARF */
    if (!e)
        return TT_ENOMEM;
    if (e->mod == NO_MODULE || !s->mods[e->mod].dm)
        return TT_ENOTFOUND;
    struct smod *sm = &s->mods[e->mod];
    struct dwq q = {.addr = fn_addr, .s = s, .out = out, .max = max};
    int rc = guarded(s, sm, q_inlined_in, &q);
    *n = rc == 0 ? q.n : 0;
    s->oom |= rc == TT_ENOMEM;
    for (size_t i = 0; rc == 0 && i < *n; i++)
        out[i].function = demangled(s, out[i].function);
    return rc;
}

/* ---- public ------------------------------------------------------------- */

static void search_clear(void)
{
    for (size_t i = 0; i < search_nexe; i++)
        free(search_exe[i]);
    free(search_exe);
    free(search_dirs);
    search_exe = NULL;
    search_nexe = 0;
    search_dirs = NULL;
}

int ttf_sym_search(const char *const *exe, size_t nexe, const char *dirs)
{
    search_clear();
    if (nexe && !exe)
        return TT_EINVAL;
    search_exe = nexe ? calloc(nexe, sizeof *search_exe) : NULL;
    if (nexe && !search_exe)
        return TT_ENOMEM;
    for (; search_nexe < nexe; search_nexe++) {
        search_exe[search_nexe] = strdup(exe[search_nexe]);
        if (!search_exe[search_nexe])
            goto fail;
    }
    search_dirs = dirs ? strdup(dirs) : NULL;
    if (dirs && !search_dirs)
        goto fail;
    return 0;
fail:
    search_clear();
    return TT_ENOMEM;
}

int ttf_sym_open(const ttf_trace *t, ttf_sym **out)
{
    if (!out)
        return TT_EINVAL;
    *out = NULL;
    if (!t)
        return TT_EINVAL;
    ttf_sym *s = calloc(1, sizeof *s);
    if (!s)
        return TT_ENOMEM;
    s->t = t;
    s->demangle = 1;
    struct stat st;
    s->owner = ttf_path(t) && stat(ttf_path(t), &st) == 0 ? st.st_uid : 0;
    s->nmods = ttf_module_count(t);
    s->mods = calloc(s->nmods ? s->nmods : 1, sizeof *s->mods);
    s->order = calloc(s->nmods ? s->nmods : 1, sizeof *s->order);
    if (!s->mods || !s->order || grow(s) != 0) {
        ttf_sym_close(s);
        return TT_ENOMEM;
    }
    for (size_t i = 0; i < s->nmods; i++) {
        struct smod *sm = &s->mods[i];
        sm->m = ttf_get_module(t, i);
        sm->base_name = sm->m->path && sm->m->path[0] ? path_base(sm->m->path) : "?";
        s->order[i] = (uint32_t)i;
        if (sm->m->size > s->max_size)
            s->max_size = sm->m->size;
        open_module(s, sm);
    }
    if (s->nmods > 1)
        qsort_r(s->order, s->nmods, sizeof *s->order, cmp_base, s->mods);
    *out = s;
    return 0;
}

void ttf_sym_close(ttf_sym *s)
{
    if (!s)
        return;
    for (size_t i = 0; s->mods && i < s->nmods; i++)
        drop_session(&s->mods[i]);
    ttfi_arena_free(&s->arena);
    for (size_t i = 0; i < s->nnotices; i++)
        free(s->notices[i]);
    free(s->notices);
    free(s->tab);
    free(s->order);
    free(s->mods);
    free(s);
}

int ttf_sym_set_demangle(ttf_sym *s, int on)
{
    if (!s)
        return TT_EINVAL;
    on = on != 0;
    if (on == s->demangle)
        return 0;
    s->demangle = on;
    memset(s->tab, 0, s->cap * sizeof *s->tab); /* names cached the old way */
    s->used = 0;
    return 0;
}

const char *ttf_sym_name(ttf_sym *s, uint64_t addr)
{
    if (!s)
        return oom_name;
    struct centry *e = lookup(s, addr, find_module(s, addr, TIME_NONE));
    return e ? e->name : oom_name;
}

/* file:line of a cache entry (NULL: memory ran out). */
static int entry_line(ttf_sym *s, struct centry *e, const char **file,
                      int *line)
{
    if (!e)
        return TT_ENOMEM;
    if (e->line_state == 0)
        resolve_line(s, e);
    if (e->line_state < 0)
        return TT_ENOTFOUND;
    *file = e->file;
    *line = e->line;
    return 0;
}

int ttf_sym_line(ttf_sym *s, uint64_t addr, const char **file, int *line)
{
    if (!s || !file || !line)
        return TT_EINVAL;
    return entry_line(s, lookup(s, addr, find_module(s, addr, TIME_NONE)),
                      file, line);
}

int ttf_sym_event_line(ttf_sym *s, const ttf_event *ev, const char **file,
                       int *line)
{
    if (!s || !ev || !file || !line)
        return TT_EINVAL;
    if (ev->site != 0) {
        const ttf_callsite *cs = ttf_get_callsite(s->t, ev->site);
        if (!cs || !cs->file || !cs->file[0])
            return TT_ENOTFOUND;
        *file = cs->file;
        *line = (int)cs->line;
        return 0;
    }
    int32_t mod = find_module(s, ev->addr, ev->time_ns);
    return entry_line(s, lookup(s, ev->addr, mod), file, line);
}

const char *ttf_sym_event_name(ttf_sym *s, const ttf_event *ev)
{
    if (!s || !ev)
        return oom_name;
    if (ev->addr == 0 && ev->site != 0) {
        const ttf_callsite *cs = ttf_get_callsite(s->t, ev->site);
        return cs && cs->func && cs->func[0] ? cs->func : oom_name;
    }
    int32_t mod = find_module(s, ev->addr, ev->time_ns);
    struct centry *e = lookup(s, ev->addr, mod);
    return e ? e->name : oom_name;
}

struct ttfi_modslot *ttfi_sym_module(ttf_sym *s, size_t i, Dwfl_Module **dm)
{
    if (!s || i >= s->nmods)
        return NULL;
    *dm = s->mods[i].dm;
    return &s->mods[i].code;
}

int ttfi_sym_pointees(ttf_sym *s, size_t i, uint64_t addr, const char *out[6])
{
    struct dwq q = {.addr = addr, .s = s, .pt = out};

    for (int k = 0; k < 6; k++)
        out[k] = NULL;
    if (!s || i >= s->nmods || !s->mods[i].dm || s->mods[i].dwarf_state < 0)
        return TT_ENOTFOUND;
    int rc = guarded(s, &s->mods[i], q_pointees, &q);
    s->oom |= rc == TT_ENOMEM;
    return rc;
}

const char *ttfi_sym_demangle(ttf_sym *s, const char *name)
{
    return demangled(s, name);
}

void *ttfi_sym_alloc(ttf_sym *s, size_t n)
{
    return ttfi_arena_alloc(&s->arena, n);
}

int ttf_sym_status(const ttf_sym *s)
{
    return s && s->oom ? TT_ENOMEM : 0;
}

size_t ttf_sym_notice_count(const ttf_sym *s)
{
    return s ? s->nnotices : 0;
}

const char *ttf_sym_get_notice(const ttf_sym *s, size_t i)
{
    return s && i < s->nnotices ? s->notices[i] : NULL;
}
