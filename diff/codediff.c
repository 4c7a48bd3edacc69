/*
 * codediff.c - which functions' machine code changed between the good and
 * the bad run's builds (codediff.h). Prepare stage: reads the binaries
 * through format/ (ttf_sym_code, ttf_sym_code_ref), never the events.
 *
 * Design. Two builds of one program place their functions, data and PLT at
 * other addresses, so comparing bytes would mark nearly every function
 * changed. We decode each function's x86-64 instructions (format/x86len.c: just
 * lengths and where displacements, immediates and branch offsets sit) and
 * hash a fingerprint in which every address is replaced by what it names:
 *   - a branch inside the function by the ordinal of its target instruction
 *     (no-op padding is left out of the fingerprint and of the ordinals, so
 *     alignment padding that moved does not count);
 *   - a branch or rip-relative operand outside it by its target's identity:
 *     the symbol and offset, the imported name behind a PLT entry or GOT
 *     slot, or for an address in no symbol the section and, when read-only,
 *     the bytes there up to a NUL (a string literal compares by its text);
 *     symbol names lose gcc's numeric suffixes (".constprop.0", "buf.3":
 *     counters that move when other functions change);
 *   - in a position-dependent file (ET_EXEC), a 32- or 64-bit displacement
 *     or immediate that falls inside a section of the file likewise: such
 *     code holds absolute link-time addresses, and executables keep no
 *     relocations to tell them from numbers. A number that happens to look
 *     like an address compares by what is there, which is as good.
 * The other bytes (opcodes, registers, other immediates) are hashed as they
 * are. Functions pair by name between the builds (by position among
 * functions of the same name); a fingerprint that differs is a change,
 * but for one case: a function whose source text is the same, only at
 * other lines of its file (lines added above it), and whose code differs
 * only in immediates that are line numbers of that source, each moved by
 * as many lines as the function (a __LINE__ passed to a logger or an
 * assert), is the same code (line_shift: the two are fingerprinted again
 * with such immediates by their place in the function's lines).
 *
 * Limits. The fingerprint is a decision about equality, not a diff: a
 * function is changed or not. Code the compiler laid out differently for
 * reasons outside the function (a callee that became inlinable, another
 * register allocation after a header changed) counts as changed, as it is.
 * A function inlined everywhere has no symbol: its change shows in its
 * callers. When no changed function's source changed, the functions
 * inlined into those whose source is the same (DWARF's inlined
 * subroutines, ttf_sym_inlined_in) are read back where each build
 * defines them: one whose source differs is where the change was made
 * (ttdi_codediff_inlined_one; issue 33, a regression at -O2). A callee
 * inlined in one build only is read where the other build's out-of-line
 * copy of it (same name) is defined. The innermost changed scope is kept:
 * a callee whose text holds the definition of another changed callee (a
 * lambda in the function that calls it, a member function in its class,
 * whose implicit destructor gcc "defines" at the class's line) is
 * fingerprinted again without those lines (ttf_source_hash_skip), and
 * dropped when it is then the same in both builds. Data
 * tables reached through a computed address (jump tables' contents,
 * arrays indexed at run time) are compared by name, not content.
 * Bytes the decoder does not know end the decoding and the rest of the
 * function is hashed raw (addresses then count). x86-64 only: a module of
 * another machine gives a note and is not compared.
 *
 * Cost: nothing at all when the build-ids match (checked from the traces'
 * module records); else one pass over the code of the two files, each
 * distinct target resolved once (a cache per side).
 */
#include <elf.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "codediff.h"
#include "kit.h"
#include "x86len.h"

#define NAME_MAX_STRIP 512     /* longest name whose suffixes are stripped */
#define INLINED_MAX 128        /* functions inlined into a changed one read */
#define SAME_MAX 64            /* changed functions of one source looked into */

/* A resolved target: its identity in a fingerprint. */
struct rslot {
    uint64_t addr;             /* link-time address */
    uint64_t id;               /* identity hash; 0 = not an address */
    int hook;                  /* it is a tracing hook */
    int used;
    const uint8_t *ro;         /* read-only data there (jump tables), NULL */
    size_t navail;             /* bytes readable at ro */
};

/* One function of one build. */
struct fsum {
    const char *name;          /* demangled, arena copy */
    const char *symbol;        /* raw, arena copy */
    uint64_t addr;             /* link-time address */
    uint64_t hash;             /* fingerprint */
    int known;                 /* 0: no code in the file */
    int instrumented;          /* calls a tracing hook */
    size_t fi;                 /* its index in the side's ttf_code_info */
};

/* The source lines of one function in one build: immediates in
 * [line, last] hash as their distance from line (line_shift). */
struct lwin {
    int line, last;
};

/* A source fingerprint read once (src_hash): many changed functions
 * share their inlined callees, many callees one file. */
struct smemo {
    const char *file;          /* the debug info's (ttf_sym's) string */
    int line, last, rc;
    uint64_t hash;
};

/* One side (build) of a module pair. */
struct side {
    ttf_sym *sym;              /* the run's symbols */
    size_t mod;                /* the module's index */
    const ttf_code_info *ci;   /* its functions */
    struct rslot *rc;          /* target cache, used of cap */
    size_t cap, used;
    ttdi_map rcmap;            /* link-time address -> its index in rc */
    uint32_t *ord;             /* instruction offsets (scratch) */
    struct ttfi_insn *ins;     /* the instructions there */
    size_t ordcap;
    uint8_t *nb;               /* the normalised bytes being hashed */
    size_t nblen, nbcap;
    struct fsum *f;            /* its functions' summaries */
    size_t nf;
    struct smemo *sm;          /* source fingerprints read, nsm of cap */
    size_t nsm, smcap;
    ttdi_map smap;             /* hash of file and line -> index in sm */
};

/* A name's answer for ttdi_codediff_changed / _artifact. */
struct entry {
    const char *name;
    int status;                /* 0 same, TTDI_CODE_* */
    int artifact;
    int source;                /* TTDI_SRC_* (changed functions) */
    uint64_t src_hash;         /* its source's fingerprint in the bad build
                                  when TTDI_SRC_CHANGED, else 0 */
};

/* A changed function with the same source in both builds. */
struct fpair {
    const struct fsum *g, *b;
};

/* Where a function's source is in one build: its file, its first and
 * last line (ttf_source_hash's body). */
struct srcspan {
    const char *file;
    int line, last;
};

/* A function inlined into a changed function (its holder) whose source
 * differs between the builds (inlined_changes). */
struct inl {
    const char *callee;        /* its name (arena) */
    const char *holder;        /* the changed function's name (arena) */
    uint64_t hash;             /* its source's fingerprint in the bad build */
    struct srcspan at[2];      /* its source in the good and the bad build */
    int own;                   /* an out-of-line copy in either build: a
                                  function of its own (a symbol) */
};

struct ttdi_codediff {
    struct ttfi_arena arena;   /* names and notes */
    struct ttdi_code_change *ch; /* nch changes */
    size_t nch;
    struct entry *tab;         /* ntab entries, sorted by name */
    size_t ntab;
    const char **notes;        /* nnotes lines */
    size_t nnotes;
    size_t compared;           /* functions in both builds */
    size_t src_changed;        /* changed functions whose source differs */
    size_t lines_moved;        /* functions that differ only in line numbers
                                  moved with their source (line_shift) */
    int incomplete;            /* a differing module was not compared */
    struct inl *inl;           /* ninl inlined callees whose source changed */
    size_t ninl;
};

/* ---- small helpers ------------------------------------------------------ */

__attribute__((format(printf, 2, 3)))
static int add_note(struct ttdi_codediff *cd, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    const char *copy = ttfi_arena_strcpy(&cd->arena, line);
    if (!copy || ttfi_regrow(&cd->notes, cd->nnotes + 1, sizeof *cd->notes))
        return TT_ENOMEM;
    cd->notes[cd->nnotes++] = copy;
    return 0;
}

static int is_hook(const char *name)
{
    return strcmp(name, "__cyg_profile_func_enter") == 0 ||
           strcmp(name, "__cyg_profile_func_exit") == 0 ||
           strcmp(name, "__fentry__") == 0 || strcmp(name, "mcount") == 0 ||
           strcmp(name, "_mcount") == 0;
}

/* XXH3 of name without gcc's numeric suffix segments (".0", ".12"). */
static uint64_t name_hash(const char *name, uint64_t seed)
{
    char buf[NAME_MAX_STRIP];
    size_t n = strlen(name), k = 0;
    if (n >= sizeof buf)
        return XXH3_64bits_withSeed(name, n, seed);
    for (size_t i = 0; i < n; i++) {
        size_t j = i + 1;
        while (name[i] == '.' && j < n && name[j] >= '0' && name[j] <= '9')
            j++;
        if (name[i] == '.' && j > i + 1 && (j == n || name[j] == '.')) {
            i = j - 1;  /* skip ".<digits>" */
            continue;
        }
        buf[k++] = name[i];
    }
    return XXH3_64bits_withSeed(buf, k, seed);
}

static const char *base_name(const char *path)
{
    const char *s = path ? strrchr(path, '/') : NULL;
    return s ? s + 1 : path && path[0] ? path : "?";
}

/* ---- target identities ---------------------------------------------------- */

/* The identity of what ref names. */
static uint64_t ref_id(const ttf_code_ref *r)
{
    switch (r->kind) {
    case TTF_REF_SYMBOL:
        return name_hash(r->name, 1) ^ ttfi_mix64(r->offset + 1);
    case TTF_REF_IMPORT:
        return name_hash(r->name, 2);
    case TTF_REF_DATA:
        if (r->bytes)
            return XXH3_64bits_withSeed(r->bytes, r->nbytes, name_hash(r->name, 3));
        return name_hash(r->name, 4);
    default:
        return 0;
    }
}

/* The cached identity of link-time address a (resolved on first need);
 * NULL when memory runs out. */
static const struct rslot *target(struct side *sd, uint64_t a)
{
    const uint64_t *ix = ttdi_map_get(&sd->rcmap, a);
    if (ix)
        return &sd->rc[*ix];
    if (sd->used == sd->cap &&
        ttdi_grow(&sd->rc, &sd->cap, sd->used + 1, sizeof *sd->rc, 1024) < 0)
        return NULL;
    struct rslot *s = &sd->rc[sd->used];
    memset(s, 0, sizeof *s);
    ttf_code_ref r;
    if (ttf_sym_code_ref(sd->sym, sd->mod, a, &r) == TT_ENOMEM)
        return NULL;
    s->used = 1;
    s->addr = a;
    s->id = ref_id(&r);
    s->hook = r.kind != TTF_REF_NONE && r.kind != TTF_REF_DATA && is_hook(r.name);
    s->ro = r.kind == TTF_REF_DATA ? r.bytes : NULL;
    s->navail = s->ro ? r.navail : 0;
    uint64_t *nx = ttdi_map_put(&sd->rcmap, a, NULL);
    if (!nx)
        return NULL;
    *nx = sd->used++;
    return s;
}

/* ---- fingerprints ----------------------------------------------------------- */

/* Signed little-endian field of len bytes at p. */
static int64_t field(const uint8_t *p, unsigned len)
{
    uint64_t v = 0;
    for (unsigned i = len; i-- > 0;)
        v = v << 8 | p[i];
    if (len < 8 && (v >> (8 * len - 1)) & 1)
        v |= ~(uint64_t)0 << (8 * len);
    return (int64_t)v;
}

/* The ordinal of the first real instruction at or after offset off. */
static uint64_t ordinal(const struct side *sd, size_t n, uint64_t off)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (sd->ord[mid] < off)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Pass 1: the offsets of f's real (non-padding) instructions in sd->ord;
 * their count, with *end where decoding stopped (f->size if all known). */
static int offsets(struct side *sd, const ttf_code_func *f, size_t *n,
                   uint64_t *end)
{
    struct ttfi_insn in;
    uint64_t off = 0;
    if (f->size > sd->ordcap) {
        if (ttfi_regrow(&sd->ord, f->size, sizeof *sd->ord) ||
            ttfi_regrow(&sd->ins, f->size, sizeof *sd->ins))
            return TT_ENOMEM;
        sd->ordcap = f->size;
    }
    *n = 0;
    for (; off < f->size; off += in.len) {
        if (ttfi_x86_decode(f->code + off, f->size - off, &in))
            break;
        if (in.nop)
            continue;
        sd->ins[*n] = in;
        sd->ord[(*n)++] = (uint32_t)off;
    }
    *end = off;
    return 0;
}

/* What a field holding address v (an absolute address, a branch or
 * rip-relative target) contributes to the fingerprint in *part: the
 * target instruction's ordinal inside f, else the target's identity (0
 * when v is no address of the file: the field is then hashed as bytes).
 * 0 or TT_ENOMEM. */
/* A jump table at v (read-only data t) whose entries lead into f: 4-byte
 * offsets from the table (PIC code), else 8-byte addresses (non-PIE). 1
 * with *part the hash of the targets' instruction ordinals, 0 if v holds
 * no such table (two entries at least). */
static int jump_table(const struct side *sd, const ttf_code_func *f, size_t n,
                      uint64_t v, const struct rslot *t, uint64_t *part)
{
    uint64_t h[2] = {0x7ab1e, 0xab5};
    size_t k[2] = {0, 0};
    for (; 4 * (k[0] + 1) <= t->navail && k[0] < 4096; k[0]++) {
        uint64_t to = v + (uint64_t)field(t->ro + 4 * k[0], 4);
        if (to - f->addr >= f->size)
            break;
        h[0] = ttfi_mix64(h[0] ^ ordinal(sd, n, to - f->addr));
    }
    for (; k[0] < 2 && 8 * (k[1] + 1) <= t->navail && k[1] < 4096; k[1]++) {
        uint64_t to = (uint64_t)field(t->ro + 8 * k[1], 8);
        if (to - f->addr >= f->size)
            break;
        h[1] = ttfi_mix64(h[1] ^ ordinal(sd, n, to - f->addr));
    }
    int i = k[0] >= 2 ? 0 : 1;
    if (k[i] < 2)
        return 0;
    *part = h[i] ^ k[i];
    return 1;
}

static int addr_part(struct side *sd, const ttf_code_func *f, size_t n,
                     uint64_t v, uint64_t *part, int *hook)
{
    if (v - f->addr < f->size) {
        *part = ttfi_mix64(ordinal(sd, n, v - f->addr) ^ 0x5e1f);
        return 0;
    }
    const struct rslot *t = target(sd, v);
    if (!t)
        return TT_ENOMEM;
    if (t->ro && jump_table(sd, f, n, v, t, part))
        return 0;
    *part = t->id;
    *hook |= t->hook;
    return 0;
}

/* An immediate of an instruction (bytes p, copy buf) that may be a line
 * number of the function's source (window w): one in [w->line, w->last]
 * is hashed as its distance from w->line, marked in *part, so that two
 * builds whose only difference is the function's place in its file (a
 * __LINE__ passed to a logger, an assert) fingerprint alike. */
static void line_imm(uint8_t *buf, const uint8_t *p, const struct ttfi_insn *in,
                     const struct lwin *w, uint64_t *part)
{
    int64_t v = field(p + in->imm_off, in->imm_len);

    if (in->imm_len > 8 || v < w->line || v > w->last)
        return;
    memset(buf + in->imm_off, 0, in->imm_len);
    *part = ttfi_mix64((uint64_t)(v - w->line) ^ 0x11e5);
}

/* Hash one instruction at off: its bytes with address fields zeroed, then
 * what those fields name (with a line window w, line numbers of the
 * function's source by their place in it: line_shift). */
static int hash_insn(struct side *sd, const ttf_code_func *f, size_t n,
                     uint64_t off, const struct ttfi_insn *in,
                     int *hook, const struct lwin *w)
{
    uint8_t buf[16];
    uint64_t end = f->addr + off + in->len, parts[2] = {0, 0};
    const uint8_t *p = f->code + off;
    int absolute = sd->ci->position_dependent;
    memcpy(buf, p, in->len);
    if (in->disp_len == 4 && (in->riprel || absolute)) {
        int64_t d = field(p + in->disp_off, 4);
        uint64_t v = in->riprel ? end + (uint64_t)d : (uint64_t)d;
        if (addr_part(sd, f, n, v, &parts[0], hook))
            return TT_ENOMEM;
        if (in->riprel || parts[0])
            memset(buf + in->disp_off, 0, 4);
    }
    if (in->imm_len >= 4 && (in->branch || absolute)) {
        int64_t d = field(p + in->imm_off, in->imm_len);
        uint64_t v = in->branch ? end + (uint64_t)d : (uint64_t)d;
        if (addr_part(sd, f, n, v, &parts[1], hook))
            return TT_ENOMEM;
        if (in->branch || parts[1])
            memset(buf + in->imm_off, 0, in->imm_len);
    } else if (in->branch && in->imm_len == 1) {
        uint64_t v = end + (uint64_t)field(p + in->imm_off, 1);
        buf[in->imm_off] = 0;
        if (addr_part(sd, f, n, v, &parts[1], hook))
            return TT_ENOMEM;
    }
    if (w && in->imm_len && !in->branch && !parts[1])
        line_imm(buf, p, in, w, &parts[1]);
    memcpy(sd->nb + sd->nblen, buf, in->len); /* room: see fingerprint */
    sd->nblen += in->len;
    if (parts[0] | parts[1]) {
        memcpy(sd->nb + sd->nblen, parts, sizeof parts);
        sd->nblen += sizeof parts;
    }
    return 0;
}

/* f's fingerprint into *out (known = 0 when the file has no code for it);
 * with a line window w, line-number immediates by their place (line_imm). */
static int fingerprint(struct side *sd, const ttf_code_func *f, struct fsum *out,
                       const struct lwin *w)
{
    size_t n;
    uint64_t end;
    if (!f->code)
        return 0;
    /* an instruction with address fields is 2 bytes or more and adds 16:
     * 9 bytes per code byte at most */
    size_t need = 9 * (size_t)f->size + 64;
    if (offsets(sd, f, &n, &end))
        return TT_ENOMEM;
    if (need > sd->nbcap) {
        if (ttfi_regrow(&sd->nb, need, 1))
            return TT_ENOMEM;
        sd->nbcap = need;
    }
    sd->nblen = 0;
    for (size_t i = 0; i < n; i++) {
        if (hash_insn(sd, f, n, sd->ord[i], &sd->ins[i], &out->instrumented, w))
            return TT_ENOMEM;
    }
    memcpy(sd->nb + sd->nblen, f->code + end, f->size - end); /* undecodable tail: raw */
    sd->nblen += f->size - end;
    out->hash = XXH3_64bits(sd->nb, sd->nblen);
    out->known = 1;
    return 0;
}

/* ---- one module pair ----------------------------------------------------- */

static int cmp_fsum(const void *a, const void *b)
{
    const struct fsum *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Summaries of every function of sd's module, sorted by name. */
static int summarise(struct ttdi_codediff *cd, struct side *sd)
{
    int rc = 0;
    size_t n = sd->ci->nfuncs;
    sd->f = calloc(n ? n : 1, sizeof *sd->f);
    if (!sd->f)
        rc = TT_ENOMEM;
    for (size_t i = 0; !rc && i < n; i++) {
        const ttf_code_func *f = &sd->ci->funcs[i];
        struct fsum *s = &sd->f[i];
        s->addr = f->addr;
        s->fi = i;
        s->name = ttfi_arena_strcpy(&cd->arena, f->name);
        s->symbol = strcmp(f->name, f->symbol) == 0 ? s->name
                    : ttfi_arena_strcpy(&cd->arena, f->symbol);
        rc = !s->name || !s->symbol ? TT_ENOMEM : fingerprint(sd, f, s, NULL);
    }
    if (!rc)
        sd->nf = n;
    if (!rc && n)
        qsort(sd->f, n, sizeof *sd->f, cmp_fsum);
    return rc;
}

/* 1 if the function at link-time address a of sd is defined in a header. */
static int in_header(struct side *sd, uint64_t a)
{
    const char *file = NULL;
    int line = 0;
    if (ttf_sym_line(sd->sym, a + sd->ci->bias, &file, &line) || !file)
        return 0;
    const char *dot = strrchr(file, '.'), *slash = strrchr(file, '/');
    if (!dot || (slash && dot < slash))
        return 1; /* <string>, <vector>: C++ headers have no suffix */
    return strcmp(dot, ".h") == 0 || strcmp(dot, ".hh") == 0 ||
           strcmp(dot, ".hpp") == 0 || strcmp(dot, ".hxx") == 0 ||
           strcmp(dot, ".inl") == 0 || strcmp(dot, ".tcc") == 0;
}

static int add_entry(struct ttdi_codediff *cd, const char *name, int status,
                     int artifact, int source, uint64_t src_hash)
{
    if (ttfi_regrow(&cd->tab, cd->ntab + 1, sizeof *cd->tab))
        return TT_ENOMEM;
    cd->tab[cd->ntab++] = (struct entry){name, status, artifact, source, src_hash};
    return 0;
}

/* Record function s (of the bad build, or the good one when removed);
 * source: TTDI_SRC_*. */
static int record(struct ttdi_codediff *cd, const struct fsum *s,
                  const char *module, int status, int artifact, int source, uint64_t src_hash)
{
    int rc = add_entry(cd, s->name, status, artifact, source, src_hash);
    if (!rc && s->symbol != s->name)
        rc = add_entry(cd, s->symbol, status, artifact, source, src_hash);
    if (rc || !status)
        return rc;
    if (ttfi_regrow(&cd->ch, cd->nch + 1, sizeof *cd->ch))
        return TT_ENOMEM;
    cd->ch[cd->nch++] = (struct ttdi_code_change){s->name, module, status,
                                                  s->symbol};
    return 0;
}

/* One function present in one build only (side sd, status st). */
static int one_sided(struct ttdi_codediff *cd, struct side *sd,
                     const struct fsum *s, const char *module, int st)
{
    int artifact = s->instrumented && in_header(sd, s->addr);
    return record(cd, s, module, st, artifact, TTDI_SRC_UNKNOWN, 0);
}

/* Entries from i of side sd with the name of entry i (static functions
 * of one name in several files). */
static size_t run_of(const struct side *sd, size_t i)
{
    size_t k = 1;
    while (i + k < sd->nf && strcmp(sd->f[i + k].name, sd->f[i].name) == 0)
        k++;
    return k;
}

/* Functions of one name at good i and bad j: put bad ones with the same
 * code opposite their good twins, so that only real changes count (the
 * rest pair in address order). */
static void match_twins(struct side sd[2], size_t i, size_t j)
{
    size_t ng = run_of(&sd[0], i), nb = run_of(&sd[1], j);
    for (size_t k = 0; ng > 1 && nb > 1 && k < ng && k < nb; k++) {
        for (size_t m = k + 1; m < nb && sd[0].f[i + k].hash != sd[1].f[j + k].hash; m++) {
            if (sd[1].f[j + m].hash != sd[0].f[i + k].hash)
                continue;
            struct fsum t = sd[1].f[j + k];
            sd[1].f[j + k] = sd[1].f[j + m];
            sd[1].f[j + m] = t;
        }
    }
}

/* ttf_source_hash of file at line, each pair read once per side. */
static int src_hash(struct side *sd, const char *file, int line, uint64_t *hash, int *last)
{
    uint64_t key = XXH3_64bits_withSeed(file, strlen(file), (uint64_t)line);
    uint64_t *ix = ttdi_map_get(&sd->smap, key);
    const struct smemo *m = ix ? &sd->sm[*ix] : NULL;
    int l = 0, added = 0;

    if (m && m->line == line && !strcmp(m->file, file)) {
        *hash = m->hash;
        *last = m->last;
        return m->rc;
    }
    int rc = ttf_source_hash(file, line, hash, &l);
    *last = l;
    if (rc == TT_ENOMEM || m)
        return rc;          /* (another pair of the same key: not kept) */
    if (sd->nsm == sd->smcap &&
        ttdi_grow(&sd->sm, &sd->smcap, sd->nsm + 1, sizeof *sd->sm, 64) < 0)
        return TT_ENOMEM;
    if (!(ix = ttdi_map_put(&sd->smap, key, &added)))
        return TT_ENOMEM;
    sd->sm[sd->nsm] = (struct smemo){file, line, l, rc, *hash};
    *ix = sd->nsm++;
    return rc;
}

/* Function f's source in side sd's build: where the out-of-line
 * function is defined (decl_file, decl_line, read back from where its
 * compiler saw it), its source fingerprint and its body's last line; 0,
 * or -1 when unknown. */
static int source_of(struct side *sd, const struct fsum *f, uint64_t *hash,
                     struct lwin *w)
{
    const ttf_inline_frame *fr = NULL;
    size_t n = 0;

    if (ttf_sym_inline(sd->sym, f->addr + sd->ci->bias, UINT64_MAX, &fr, &n) != 0 || !n)
        return -1;
    const ttf_inline_frame *o = &fr[n - 1];
    if (!o->decl_file || o->decl_line <= 0 || ttf_system_file(o->decl_file))
        return -1;
    w->line = o->decl_line;
    return src_hash(sd, o->decl_file, o->decl_line, hash, &w->last) == 0 ? 0 : -1;
}

/* 1 if changed functions g (good build) and b (bad build), with one
 * source at other lines of their files (wg, wb), differ only in
 * immediates that are line numbers of that source, each moved by as many
 * lines as the function (a __LINE__ after lines added above it): the same
 * code. 0 if not, TT_ENOMEM. */
static int line_shift(struct side sd[2], const struct fsum *g, const struct fsum *b,
                      const struct lwin *wg, const struct lwin *wb)
{
    struct fsum fg = *g, fb = *b;

    if (wg->line == wb->line || wg->last - wg->line != wb->last - wb->line)
        return 0;
    if (fingerprint(&sd[0], &sd[0].ci->funcs[g->fi], &fg, wg) ||
        fingerprint(&sd[1], &sd[1].ci->funcs[b->fi], &fb, wb))
        return TT_ENOMEM;
    return fg.hash == fb.hash;
}

/* Whether changed function g (good build) / b (bad build) changed in its
 * source too: TTDI_SRC_* (with *hbad the bad build's source fingerprint
 * when it did); TTDI_SRC_LINES when only line numbers moved with it
 * (line_shift): not a change. */
static int source_change(struct side sd[2], const struct fsum *g, const struct fsum *b,
                         uint64_t *hbad)
{
    uint64_t hg = 0, hb = 0;
    struct lwin wg, wb;

    if (source_of(&sd[0], g, &hg, &wg) || source_of(&sd[1], b, &hb, &wb))
        return TTDI_SRC_UNKNOWN;
    if (hg != hb) {
        *hbad = hb;
        return TTDI_SRC_CHANGED;
    }
    int rc = line_shift(sd, g, b, &wg, &wb);
    return rc < 0 ? rc : rc ? TTDI_SRC_LINES : TTDI_SRC_SAME;
}

/* The function named name among side sd's out-of-line ones, NULL. */
static const struct fsum *by_name(const struct side *sd, const char *name)
{
    size_t lo = 0, hi = sd->nf;

    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(sd->f[mid].name, name);
        if (!c)
            return &sd->f[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* A relative source path (a line table's, relative to its unit's
 * folder) made absolute with a path of the same build's debug info that
 * ends with it (in: the functions inlined into the holder); NULL if none
 * does. */
static const char *completed(const char *file, const ttf_inlined *in, size_t n)
{
    size_t lf = strlen(file);

    if (file[0] == '/')
        return file;
    for (size_t i = 0; i < n; i++) {
        const char *d = in[i].decl_file;
        size_t ld = d ? strlen(d) : 0;
        if (ld > lf && d[ld - lf - 1] == '/' && !strcmp(d + ld - lf, file))
            return d;
    }
    return NULL;
}

/* Where callee `name` is defined in side sd: its inlined copy's origin in
 * `in` (n of them) when it is inlined there, else its out-of-line copy's
 * (source_of; a function defined in a local class, a lambda, has no scope
 * libdw finds: the line of its entry then); *hash its source's
 * fingerprint. 0, or -1 (not found, a system header's, unreadable). */
static int callee_source(struct side *sd, const ttf_inlined *in, size_t n, const char *name,
                         struct srcspan *at, uint64_t *hash)
{
    const ttf_inline_frame *fr = NULL;
    size_t nf = 0;

    memset(at, 0, sizeof *at);
    for (size_t i = 0; i < n && !at->file; i++)
        if (in[i].function && !strcmp(in[i].function, name)) {
            at->file = in[i].decl_file;
            at->line = in[i].decl_line;
        }
    const struct fsum *f = at->file ? NULL : by_name(sd, name);
    uint64_t pc = f ? f->addr + sd->ci->bias : 0;
    if (f && !ttf_sym_inline(sd->sym, pc, UINT64_MAX, &fr, &nf) && nf) {
        at->file = fr[nf - 1].decl_file;
        at->line = fr[nf - 1].decl_line;
    } else if (f && !ttf_sym_line(sd->sym, pc, &at->file, &at->line) && at->file) {
        at->file = completed(at->file, in, n);
    }
    if (!at->file || at->line <= 0 || ttf_system_file(at->file))
        return -1;
    return src_hash(sd, at->file, at->line, hash, &at->last) ? -1 : 0;
}

/* Record callee `name` (inlined into changed function holder in one build
 * at least) when its source differs between the builds. in/n: the
 * functions inlined into the holder in each build. 0 or TT_ENOMEM. */
static int inlined_one(struct ttdi_codediff *cd, struct side sd[2], ttf_inlined in[2][INLINED_MAX],
                       const size_t n[2], const char *name, const char *holder)
{
    struct inl e = {.holder = holder};
    uint64_t h[2] = {0, 0};

    for (int k = 0; k < 2; k++)
        if (callee_source(&sd[k], in[k], n[k], name, &e.at[k], &h[k]))
            return 0;
    if (h[0] == h[1])
        return 0;
    e.hash = h[1];
    e.own = by_name(&sd[0], name) || by_name(&sd[1], name);
    if (!(e.callee = ttfi_arena_strcpy(&cd->arena, name)) ||
        ttfi_regrow(&cd->inl, cd->ninl + 1, sizeof *cd->inl))
        return TT_ENOMEM;
    cd->inl[cd->ninl++] = e;
    return 0;
}

/* The functions inlined into changed function g (good build) / b (bad
 * build) whose source differs between the builds (each build's copy read
 * where it is defined, as source_of): into cd->inl with b as their
 * holder. A function inlined everywhere has no symbol, so its change
 * shows only in the code of the functions it is inlined into (issue 33:
 * a regression at -O2). A function inlined in one build only is compared
 * with its out-of-line copy in the other. 0 or TT_ENOMEM. */
static int inlined_changes(struct ttdi_codediff *cd, struct side sd[2], const struct fsum *g,
                           const struct fsum *b)
{
    ttf_inlined in[2][INLINED_MAX];
    size_t n[2] = {0, 0};
    int rc = 0;

    if (ttf_sym_inlined_in(sd[0].sym, g->addr + sd[0].ci->bias, UINT64_MAX, in[0],
                           INLINED_MAX, &n[0]) != 0 ||
        ttf_sym_inlined_in(sd[1].sym, b->addr + sd[1].ci->bias, UINT64_MAX, in[1],
                           INLINED_MAX, &n[1]) != 0)
        return 0;
    for (size_t j = 0; !rc && j < n[1]; j++)
        if (in[1][j].function)
            rc = inlined_one(cd, sd, in, n, in[1][j].function, b->name);
    /* inlined in the good build only: the bad build's own copy */
    for (size_t i = 0; !rc && i < n[0]; i++) {
        int both = 0;
        for (size_t j = 0; j < n[1] && !both && in[0][i].function; j++)
            both = in[1][j].function && !strcmp(in[0][i].function, in[1][j].function);
        if (in[0][i].function && !both)
            rc = inlined_one(cd, sd, in, n, in[0][i].function, b->name);
    }
    return rc;
}

/* 1 if span in is nested in span out (the same file, within its lines,
 * not the same lines: a lambda in a function, a member in its class). */
static int nested(const struct srcspan *in, const struct srcspan *out)
{
    return !strcmp(in->file, out->file) && in->line >= out->line && in->last <= out->last &&
           (in->line > out->line || in->last < out->last);
}

/* Whether callee a (cd->inl[a]) changed in its own text: its source
 * fingerprinted again in each build with the lines of the other changed
 * callees defined inside it left out. 1 if it did (or nothing is nested
 * in it), 0 if only what is nested in it changed, TT_ENOMEM. */
static int own_change(const struct ttdi_codediff *cd, size_t from, size_t a)
{
    const struct inl *e = &cd->inl[a];
    int *skip[2] = {NULL, NULL}, rc = 1;
    size_t ns = 0, n = cd->ninl - from;
    uint64_t h[2] = {0, 0};

    for (int k = 0; k < 2; k++)
        if (!(skip[k] = malloc(2 * n * sizeof **skip)))
            rc = TT_ENOMEM;
    for (size_t i = from; rc == 1 && i < cd->ninl; i++) {
        const struct inl *x = &cd->inl[i];
        if (i == a || !nested(&x->at[0], &e->at[0]) || !nested(&x->at[1], &e->at[1]))
            continue;
        for (int k = 0; k < 2; k++) {
            skip[k][2 * ns] = x->at[k].line;
            skip[k][2 * ns + 1] = x->at[k].last;
        }
        ns++;
    }
    for (int k = 0; rc == 1 && ns && k < 2; k++)
        if (ttf_source_hash_skip(e->at[k].file, e->at[k].line, skip[k], ns, &h[k], NULL))
            h[k] = (uint64_t)k + 1; /* unreadable now: count it changed */
    if (rc == 1 && ns)
        rc = h[0] != h[1];
    free(skip[0]);
    free(skip[1]);
    return rc;
}

/* Keep the innermost changed scopes of cd->inl[from..]: a callee whose
 * text holds another changed callee's definition (a lambda in the
 * function that calls it, a member function in its class: an implicit
 * destructor is "defined" at its class's line) and whose own text,
 * without it, is the same in both builds did not change itself. 0 or
 * TT_ENOMEM. */
static int innermost(struct ttdi_codediff *cd, size_t from)
{
    char *drop = calloc(cd->ninl - from + 1, 1);
    size_t k = from;

    if (!drop)
        return TT_ENOMEM;
    for (size_t i = from; i < cd->ninl; i++) {
        int rc = own_change(cd, from, i);
        if (rc < 0) {
            free(drop);
            return rc;
        }
        drop[i - from] = !rc;
    }
    for (size_t i = from; i < cd->ninl; i++)
        if (!drop[i - from])
            cd->inl[k++] = cd->inl[i];
    cd->ninl = k;
    free(drop);
    return 0;
}

/* Walk both sorted lists: pairs compared, the rest added or removed. */
static int merge(struct ttdi_codediff *cd, struct side sd[2], const char *module)
{
    struct fpair same[SAME_MAX];
    size_t i = 0, j = 0, nsame = 0;
    int rc = 0;
    while (!rc && (i < sd[0].nf || j < sd[1].nf)) {
        const struct fsum *g = i < sd[0].nf ? &sd[0].f[i] : NULL;
        const struct fsum *b = j < sd[1].nf ? &sd[1].f[j] : NULL;
        int c = !g ? 1 : !b ? -1 : strcmp(g->name, b->name);
        if (c < 0) {
            rc = one_sided(cd, &sd[0], g, module, TTDI_CODE_REMOVED);
            i++;
        } else if (c > 0) {
            rc = one_sided(cd, &sd[1], b, module, TTDI_CODE_ADDED);
            j++;
        } else {
            if (i == 0 || strcmp(sd[0].f[i - 1].name, g->name) != 0)
                match_twins(sd, i, j);
            int changed = g->known && b->known && g->hash != b->hash;
            int art = g->known && b->known && g->instrumented != b->instrumented;
            uint64_t hsrc = 0;
            int src = changed ? source_change(sd, g, b, &hsrc) : TTDI_SRC_UNKNOWN;
            if (src < 0)
                return src;
            if (src == TTDI_SRC_LINES) {
                changed = 0;
                src = TTDI_SRC_UNKNOWN;
                cd->lines_moved++;
            }
            cd->src_changed += src == TTDI_SRC_CHANGED;
            if (src == TTDI_SRC_SAME && nsame < SAME_MAX)
                same[nsame++] = (struct fpair){g, b};
            rc = g->known && b->known ? record(cd, b, module, changed ? TTDI_CODE_CHANGED : 0, art,
                                               src, hsrc) : 0;
            cd->compared += g->known && b->known;
            i++, j++;
        }
    }
    /* no source changed: look for it in what was inlined into them */
    size_t from = cd->ninl;
    for (size_t k = 0; !rc && !cd->src_changed && k < nsame; k++)
        rc = inlined_changes(cd, sd, same[k].g, same[k].b);
    return rc ? rc : innermost(cd, from);
}

/* ---- modules ----------------------------------------------------------- */

static void side_free(struct side *sd)
{
    free(sd->rc);
    ttdi_map_free(&sd->rcmap);
    free(sd->ord);
    free(sd->ins);
    free(sd->nb);
    free(sd->f);
    free(sd->sm);
    ttdi_map_free(&sd->smap);
    memset(sd, 0, sizeof *sd);
}

static void hex_id(const ttf_module *m, char *buf, size_t len)
{
    buf[0] = 0;
    for (size_t i = 0; i < m->build_id_len && 2 * i + 3 <= len && i < 8; i++)
        snprintf(buf + 2 * i, 3, "%02x", m->build_id[i]);
}

/* Open one side's code, or say why not. 1 opened, 0 not (noted), <0. */
static int open_side(struct ttdi_codediff *cd, struct side *sd,
                     const ttf_module *m, const char *which)
{
    char hex[20];
    int rc = ttf_sym_code(sd->sym, sd->mod, &sd->ci);
    if (rc == TT_ENOMEM)
        return rc;
    if (!rc && sd->ci->machine != EM_X86_64) {
        cd->incomplete = 1;
        rc = add_note(cd, "%s: not x86-64 code (ELF machine %d); its code "
                          "not compared", m->path, sd->ci->machine);
        return rc ? rc : 0;
    }
    if (!rc)
        return 1;
    hex_id(m, hex, sizeof hex);
    cd->incomplete = 1;
    rc = add_note(cd, "%s: the %s run's build (build-id %s...) not found; "
                      "its code not compared", m->path, which, hex);
    return rc ? rc : 0;
}

/* Compare module gm of the good run with bm of the bad run. */
static int compare_module(struct ttdi_codediff *cd, ttf_sym *sym[2],
                          size_t gm, size_t bm, const ttf_module *m[2],
                          int is_main)
{
    struct side sd[2] = {{.sym = sym[0], .mod = gm}, {.sym = sym[1], .mod = bm}};
    int rc = open_side(cd, &sd[0], m[0], "good");
    if (rc == 1)
        rc = open_side(cd, &sd[1], m[1], "bad");
    if (rc == 1 && !is_main && !sd[0].ci->instrumented &&
        !sd[1].ci->instrumented)
        rc = 0; /* a library nothing traces (libc, libttcap.so) */
    if (rc == 1)
        rc = summarise(cd, &sd[0]);
    if (!rc && sd[0].f)
        rc = summarise(cd, &sd[1]);
    if (!rc && sd[1].f)
        rc = merge(cd, sd, ttfi_arena_strcpy(&cd->arena, base_name(m[1]->path)));
    side_free(&sd[0]);
    side_free(&sd[1]);
    return rc < 0 ? rc : 0;
}

/* Index of t's main program module (path = the process's exe, else 0). */
static size_t main_module(const ttf_trace *t)
{
    const ttf_process *pr = ttf_get_process(t);
    size_t n = ttf_module_count(t);
    for (size_t i = 0; pr && pr->exe && i < n; i++)
        if (strcmp(ttf_get_module(t, i)->path, pr->exe) == 0)
            return i;
    return 0;
}

static int same_id(const ttf_module *a, const ttf_module *b)
{
    return a->build_id_len == b->build_id_len &&
           memcmp(a->build_id, b->build_id, a->build_id_len) == 0;
}

/* The bad run's partner of good module gi: the main program's for the main
 * program, else the first module with the same path; SIZE_MAX if none. */
static size_t partner(const ttf_trace *t[2], size_t gi, const size_t mainm[2])
{
    const ttf_module *g = ttf_get_module(t[0], gi);
    size_t n = ttf_module_count(t[1]);
    if (gi == mainm[0])
        return n ? mainm[1] : SIZE_MAX;
    for (size_t i = 0; i < n; i++)
        if (i != mainm[1] && strcmp(ttf_get_module(t[1], i)->path, g->path) == 0)
            return i;
    return SIZE_MAX;
}

/* 1 if good module gi is the first with its path (a reloaded module is
 * listed again). */
static int first_of_path(const ttf_trace *t, size_t gi)
{
    const char *p = ttf_get_module(t, gi)->path;
    for (size_t i = 0; i < gi; i++)
        if (strcmp(ttf_get_module(t, i)->path, p) == 0)
            return 0;
    return 1;
}

/* The module pairs whose build-ids differ, as good/bad index arrays. */
static size_t differing(const ttf_trace *t[2], size_t *gi, size_t *bi)
{
    size_t mainm[2] = {main_module(t[0]), main_module(t[1])}, k = 0;
    for (size_t i = 0; i < ttf_module_count(t[0]); i++) {
        const ttf_module *g = ttf_get_module(t[0], i);
        size_t j = partner(t, i, mainm);
        if (j == SIZE_MAX || !g->path || !g->path[0] || !first_of_path(t[0], i))
            continue;
        const ttf_module *b = ttf_get_module(t[1], j);
        if (!g->build_id_len || !b->build_id_len || same_id(g, b))
            continue;
        gi[k] = i;
        bi[k++] = j;
    }
    return k;
}

/* ---- lookups and the public side ------------------------------------------ */

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static int cmp_change(const void *a, const void *b)
{
    const struct ttdi_code_change *x = a, *y = b;
    int c;
    if (x->status != y->status)
        return x->status - y->status;
    if ((c = strcmp(x->module, y->module)) != 0)
        return c;
    return strcmp(x->function, y->function);
}

static const struct entry *find(const struct ttdi_codediff *cd, const char *name)
{
    struct entry key = {name, 0, 0, 0, 0};
    if (!cd || !name || !cd->ntab)
        return NULL;
    return bsearch(&key, cd->tab, cd->ntab, sizeof *cd->tab, cmp_entry);
}

/* Compare every differing module pair of the two traces into cd. */
static int compare_all(struct ttdi_codediff *cd, const ttf_trace *t[2])
{
    size_t n = ttf_module_count(t[0]), k;
    size_t *idx = calloc(2 * (n ? n : 1), sizeof *idx);
    ttf_sym *sym[2] = {NULL, NULL};
    int rc = idx ? 0 : TT_ENOMEM;
    k = idx ? differing(t, idx, idx + n) : 0;
    for (int s = 0; !rc && k && s < 2; s++)
        rc = ttf_sym_open(t[s], &sym[s]);
    for (size_t i = 0; !rc && i < k; i++) {
        const ttf_module *m[2] = {ttf_get_module(t[0], idx[i]),
                                  ttf_get_module(t[1], idx[n + i])};
        rc = compare_module(cd, sym, idx[i], idx[n + i], m,
                            idx[i] == main_module(t[0]));
    }
    ttf_sym_close(sym[0]);
    ttf_sym_close(sym[1]);
    free(idx);
    return rc;
}

int ttdi_codediff_open(struct ttdi_codediff **out, const ttf_trace *good,
                       const ttf_trace *bad)
{
    const ttf_trace *t[2] = {good, bad};
    if (!out)
        return TT_EINVAL;
    *out = NULL;
    if (!good || !bad)
        return TT_EINVAL;
    struct ttdi_codediff *cd = calloc(1, sizeof *cd);
    if (!cd)
        return TT_ENOMEM;
    int rc = compare_all(cd, t);
    if (rc) {
        ttdi_codediff_free(cd);
        return rc;
    }
    if (cd->ntab)
        qsort(cd->tab, cd->ntab, sizeof *cd->tab, cmp_entry);
    if (cd->nch)
        qsort(cd->ch, cd->nch, sizeof *cd->ch, cmp_change);
    *out = cd;
    return 0;
}

int ttdi_codediff_changed(const struct ttdi_codediff *cd, const char *function)
{
    char cold[NAME_MAX_STRIP];
    const struct entry *e = find(cd, function), *c = NULL;
    /* gcc's f.cold is f's own code moved out of line: it counts for f */
    if (function && snprintf(cold, sizeof cold, "%s.cold", function) < (int)sizeof cold)
        c = find(cd, cold);
    if (e || c)
        return (e && e->status) || (c && c->status);
    return cd && cd->incomplete ? -1 : 0;
}

int ttdi_codediff_source(const struct ttdi_codediff *cd, const char *function)
{
    const struct entry *e = find(cd, function);
    return e && e->status == TTDI_CODE_CHANGED ? e->source : TTDI_SRC_UNKNOWN;
}

size_t ttdi_codediff_source_one(const struct ttdi_codediff *cd)
{
    size_t one = SIZE_MAX;
    uint64_t h = 0;

    for (size_t i = 0; cd && i < cd->nch; i++) {
        const struct entry *e = find(cd, cd->ch[i].function);
        if (!e || e->status != TTDI_CODE_CHANGED || e->source != TTDI_SRC_CHANGED || e->artifact)
            continue;
        if (one != SIZE_MAX && e->src_hash != h)
            return SIZE_MAX;    /* two sources changed */
        if (one == SIZE_MAX) {
            one = i;
            h = e->src_hash;
        }
    }
    return one;
}

size_t ttdi_codediff_inlined_one(const struct ttdi_codediff *cd, const char **callee)
{
    *callee = NULL;
    if (!cd || !cd->ninl || cd->src_changed)
        return SIZE_MAX;
    for (size_t k = 1; k < cd->ninl; k++)
        if (cd->inl[k].hash != cd->inl[0].hash)
            return SIZE_MAX;    /* two sources changed */
    for (size_t i = 0; i < cd->nch; i++) {
        const struct entry *e = find(cd, cd->ch[i].function);
        for (size_t k = 0; k < cd->ninl && e && !e->artifact; k++)
            if (!strcmp(cd->inl[k].holder, cd->ch[i].function)) {
                *callee = cd->inl[k].callee;
                return i;
            }
    }
    return SIZE_MAX;
}

const char *ttdi_codediff_inlined_at(const struct ttdi_codediff *cd, const char *function)
{
    const char *callee;

    if (!function || ttdi_codediff_inlined_one(cd, &callee) == SIZE_MAX)
        return NULL;
    for (size_t k = 0; k < cd->ninl; k++)
        if (!strcmp(cd->inl[k].holder, function))
            return cd->inl[k].callee;
    return NULL;
}

int ttdi_codediff_inlined_own(const struct ttdi_codediff *cd, const char *callee)
{
    for (size_t k = 0; cd && callee && k < cd->ninl; k++)
        if (!strcmp(cd->inl[k].callee, callee))
            return cd->inl[k].own;
    return 0;
}

size_t ttdi_codediff_lines_moved(const struct ttdi_codediff *cd)
{
    return cd ? cd->lines_moved : 0;
}

size_t ttdi_codediff_source_changed(const struct ttdi_codediff *cd)
{
    return cd ? cd->src_changed : 0;
}

int ttdi_codediff_artifact(const struct ttdi_codediff *cd, const char *function)
{
    const struct entry *e = find(cd, function);
    return e ? e->artifact : 0;
}

size_t ttdi_codediff_count(const struct ttdi_codediff *cd)
{
    return cd ? cd->nch : 0;
}

const struct ttdi_code_change *ttdi_codediff_get(const struct ttdi_codediff *cd,
                                                 size_t i)
{
    return cd && i < cd->nch ? &cd->ch[i] : NULL;
}

size_t ttdi_codediff_compared(const struct ttdi_codediff *cd)
{
    return cd ? cd->compared : 0;
}

size_t ttdi_codediff_note_count(const struct ttdi_codediff *cd)
{
    return cd ? cd->nnotes : 0;
}

const char *ttdi_codediff_note(const struct ttdi_codediff *cd, size_t i)
{
    return cd && i < cd->nnotes ? cd->notes[i] : NULL;
}

void ttdi_codediff_free(struct ttdi_codediff *cd)
{
    if (!cd)
        return;
    ttfi_arena_free(&cd->arena);
    free(cd->ch);
    free(cd->tab);
    free(cd->notes);
    free(cd->inl);
    free(cd);
}
