/*
 * evidence.c - what a suspect's rank rests on: pieces of evidence, each
 * with a kind, a weight and a sentence, summed into the suspect's score;
 * the ranking by score; and the value rules every stage shares (is a
 * differing value noise? did an error appear?).
 *
 * Weights. The diverging frame starts at FRAME (3): in most real bugs the
 * function whose calls part is where the decision was made. Another
 * function ranks above it only on evidence: a differing return value
 * (VALUE, 4), its answer flipping there while its inputs did not (ERROR,
 * 4: an error appears, NULL for non-NULL, 0 for 1: a decision), being the
 * origin of a differing argument passed down (ARG_ORIGIN, 4: a length or
 * a flag computed frames up), a step of the cause
 * chain (CHAIN, 2, and CHAIN_ORIGIN, 2 more for its earliest step), code
 * changed between the builds (CODE, 6: the strongest single clue in a
 * regression; 8 when its source changed too, and only 2 when its source
 * did not while another changed function's did: it carries that change,
 * inlined into it), a value difference earlier in another thread (THREAD, 2;
 * -2 when linked to the split by time alone while the split's own thread
 * has a value on the chain: a query of shared state another thread had not
 * filled yet is timing, the data link in the split's thread is evidence).
 * Position is a tie-breaker only: DISTANCE is 1 / (1 + events between the
 * return and the split), at most 1, below any real evidence. Noise and
 * trivial calls count against (NOISE -2, TRIVIAL -1.5). A function the
 * compiler inlined into the chain's origin whose answer flipped with the
 * same inputs (INLINED) weighs half the origin's score (explain.c): the
 * decision is in the origin's code, which includes it; its whole score
 * when the origin's source only returns an inlined callee's answer (a
 * wrapper), which then loses its ERROR evidence. The split's frame gets
 * ERROR + CHAIN_ORIGIN when the chain is one ordinary number passed up
 * to it (a checksum computed from data that differs): it turned the
 * value into the failure, and the producer loses its CHAIN_ORIGIN.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "resolve.h"

const char *ttd_evidence_name(int kind)
{
    static const char *const names[] = {
        "?", "diverging_frame", "value_differs", "args_differ", "arg_origin",
        "code_changed", "varies_in_good_runs", "distance",
        "earlier_in_other_thread", "on_cause_chain", "error_appears", "trivial",
        "inlined_into"};

    if (kind < 0 || kind > TTD_EV_INLINED)
        return "?";
    return names[kind];
}

/* A copy of x's evidence (with room for extra more) that this suspect
 * alone owns: a suspect copied from another stage's result shares that
 * stage's array, which stays as it was published. NULL when memory runs
 * out. */
static ttd_evidence *own_evidence(struct ttfi_arena *a, const ttd_suspect *x, size_t extra)
{
    ttd_evidence *e = ttfi_arena_zalloc(a, (x->nevidence + extra) * sizeof *e);

    if (e && x->nevidence)
        memcpy(e, x->evidence, x->nevidence * sizeof *e);
    return e;
}

int ttdi_evid_add(struct ttfi_arena *a, ttd_suspect *x, int kind, double weight,
                  const char *fmt, ...)
{
    char buf[512];
    va_list ap;

    if (x->nevidence >= TTDI_EVID_MAX)
        return 0;
    for (size_t i = 0; i < x->nevidence; i++)
        if (x->evidence[i].kind == kind)
            return 0;       /* each kind once: the first reason stands */
    ttd_evidence *v = own_evidence(a, x, 1);
    if (!v)
        return TT_ENOMEM;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    ttd_evidence *e = &v[x->nevidence];
    if (!(e->text = ttfi_arena_strcpy(a, buf)))
        return TT_ENOMEM;
    e->kind = kind;
    e->weight = weight;
    x->evidence = v;
    x->nevidence++;
    x->score += weight;
    return 0;
}

int ttdi_evid_drop(struct ttfi_arena *a, ttd_suspect *x, int kind)
{
    for (size_t i = 0; i < x->nevidence; i++) {
        if (x->evidence[i].kind != kind)
            continue;
        ttd_evidence *e = own_evidence(a, x, 0);
        if (!e)
            return TT_ENOMEM;
        x->score -= e[i].weight;
        memmove(&e[i], &e[i + 1], (x->nevidence - i - 1) * sizeof *e);
        x->evidence = e;
        x->nevidence--;
        return 0;
    }
    return 0;
}

int ttdi_evid_has(const ttd_suspect *x, int kind)
{
    for (size_t i = 0; i < x->nevidence; i++)
        if (x->evidence[i].kind == kind)
            return 1;
    return 0;
}

static double absd(double v)
{
    return v < 0 ? -v : v;
}

/* Evidence of one suspect, strongest first (insertion: at most a dozen). */
static int sort_evidence(struct ttfi_arena *a, ttd_suspect *x)
{
    if (!x->nevidence)
        return 0;
    ttd_evidence *e = own_evidence(a, x, 0);
    if (!e)
        return TT_ENOMEM;
    for (size_t i = 1; i < x->nevidence; i++) {
        ttd_evidence v = e[i];
        size_t j = i;
        for (; j > 0 && absd(e[j - 1].weight) < absd(v.weight); j--)
            e[j] = e[j - 1];
        e[j] = v;
    }
    x->evidence = e;
    return 0;
}

/* Higher score first; equal scores: the nearer return (the frame counts as
 * distance 0), then the order found. */
static int before(const ttd_suspect *a, const ttd_suspect *b)
{
    if (a->score != b->score)
        return a->score > b->score;
    return a->distance < b->distance;
}

int ttdi_suspects_rank(struct ttfi_arena *a, ttd_suspect *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (sort_evidence(a, &s[i]) < 0)
            return TT_ENOMEM;
    for (size_t i = 1; i < n; i++) {
        ttd_suspect x = s[i];
        size_t j = i;
        for (; j > 0 && before(&x, &s[j - 1]); j--)
            s[j] = s[j - 1];
        s[j] = x;
    }
    /* code from system headers (glibc's getc_unlocked, std::_Rb_tree's
     * internals) after the program's own, unless nothing else is left:
     * a stable partition of the ranking */
    for (size_t i = 1; i < n; i++) {
        ttd_suspect x = s[i];
        size_t j = i;
        for (; j > 0 && !ttf_system_file(x.file) && ttf_system_file(s[j - 1].file); j--)
            s[j] = s[j - 1];
        s[j] = x;
    }
    return 0;
}

/* Is tok (n bytes, lower case) a word that names a clock or a source of
 * chance? */
static int clock_word(const char *tok, size_t n)
{
    static const char *const words[] = {
        "time", "clock", "now", "tick", "ticks", "timestamp", "rand", "random",
        "seed", "uuid", "nonce", "pid", "getpid", "gettid", "tid", "elapsed",
        "monotonic", "rdtsc", "cycles", "nanotime", "usec", "nsec", "msec",
        "gettimeofday", "uptime", NULL};

    for (size_t i = 0; words[i]; i++)
        if (strlen(words[i]) == n && strncmp(words[i], tok, n) == 0)
            return 1;
    return 0;
}

int ttdi_clone_name(const char *name)
{
    static const char *const sfx[] = {".constprop.", ".part.", ".cold", ".lto_priv.",
                                      NULL};

    if (!name || !strchr(name, '.'))
        return 0;   /* most names: one scan (the replay asks per call) */
    if (strstr(name, ".isra."))
        return 2;   /* IPA-SRA may drop the result too: rax is no value */
    for (size_t i = 0; sfx[i]; i++)
        if (strstr(name, sfx[i]))
            return 1;
    return 0;
}

int ttdi_clock_name(const char *name)
{
    char low[128];
    size_t n = 0, start = 0;

    if (!name)
        return 0;
    for (size_t i = 0; name[i] && name[i] != '(' && n + 1 < sizeof low; i++) {
        char c = name[i];
        int upper = c >= 'A' && c <= 'Z';
        int alnum = upper || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        int camel = upper && i > 0 && ((name[i - 1] >= 'a' && name[i - 1] <= 'z') ||
                                       (name[i - 1] >= '0' && name[i - 1] <= '9'));
        if ((!alnum || camel) && clock_word(low + start, n - start))
            return 1;   /* a word ends here, and it names a clock */
        if (!alnum || camel)
            start = alnum ? n : n + 1;
        low[n++] = upper ? (char)(c - 'A' + 'a') : alnum ? c : ' ';
    }
    return clock_word(low + start, n - start);
}

/* |v| of a register as the type's signed or unsigned value, saturated. */
static uint64_t magnitude(uint64_t raw, const ttf_vtype *ty)
{
    uint64_t v = ttf_value_norm(raw, ty);

    if (ty->cls == TTF_VC_SIGNED && (int64_t)v < 0)
        return (uint64_t)0 - v;
    return v;
}

/* Both values read as one wall-clock time, in seconds or milliseconds
 * since 1970, from 2000 to 2100, taken less than 10^7 units apart. */
static int epoch_like(uint64_t g, uint64_t b)
{
    static const uint64_t lo[2] = {946684800ull, 946684800000ull};
    static const uint64_t hi[2] = {4102444800ull, 4102444800000ull};

    for (int u = 0; u < 2; u++)
        if (g >= lo[u] && g < hi[u] && b >= lo[u] && b < hi[u] &&
            (g > b ? g - b : b - g) < 10000000ull)
            return 1;
    return 0;
}

/* Both at least 10^12 and less than 1/1000 apart: two readings of a
 * clock in nanoseconds or microseconds (since boot: 16 minutes of uptime
 * is 10^12 ns), or a counter the system keeps; no input gives such values
 * so close to each other. */
static int close_and_large(uint64_t g, uint64_t b)
{
    uint64_t hi = g > b ? g : b, lo = g > b ? b : g;

    return lo >= 1000000000000ull && hi - lo < hi / 1000;
}

int ttdi_value_noise(const ttf_vtype *ty, uint64_t good, uint64_t bad,
                     const char *func, int is_return)
{
    if (!ty || (ty->cls != TTF_VC_SIGNED && ty->cls != TTF_VC_UNSIGNED))
        return TTDI_NOISE_NONE;
    if (ty->size >= 4 && epoch_like(ttf_value_norm(good, ty), ttf_value_norm(bad, ty)))
        return TTDI_NOISE_ADDR;
    if (ty->size == 8 && !ttf_value_errcode(good, ty, NULL) &&
        !ttf_value_errcode(bad, ty, NULL) &&
        magnitude(good, ty) >= TTDI_ADDR_LIKE && magnitude(bad, ty) >= TTDI_ADDR_LIKE)
        return TTDI_NOISE_ADDR;
    if (ty->size == 8 && close_and_large(ttf_value_norm(good, ty), ttf_value_norm(bad, ty)))
        return TTDI_NOISE_CLOCK;
    if (is_return && ttdi_clock_name(func))
        return TTDI_NOISE_CLOCK;
    return TTDI_NOISE_NONE;
}

int ttdi_own_pid(const ttf_vtype *ty, uint64_t good, uint64_t bad, const int64_t pid[2])
{
    if (!ty || (ty->cls != TTF_VC_SIGNED && ty->cls != TTF_VC_UNSIGNED) || ty->size < 4)
        return 0;
    return pid[0] > 1 && pid[1] > 1 && pid[0] != pid[1] &&
           (int64_t)ttf_value_norm(good, ty) == pid[0] && (int64_t)ttf_value_norm(bad, ty) == pid[1];
}

const char *ttdi_noise_words(int why)
{
    switch (why) {
    case TTDI_NOISE_BASELINE: return "it also varies between the good runs";
    case TTDI_NOISE_ADDR: return "it looks like an address, a time stamp or a hash";
    case TTDI_NOISE_CLOCK: return "it behaves like a clock or a counter";
    default: return "";
    }
}

int ttdi_value_flip(const ttf_vtype *ty, uint64_t good, uint64_t bad)
{
    if (!ty)
        return 0;
    int g = ttdi_value_error(ty, good), b = ttdi_value_error(ty, bad);
    if (g >= 0 && b >= 0 && g != b)
        return 1;
    if (ty->cls != TTF_VC_SIGNED && ty->cls != TTF_VC_UNSIGNED && ty->cls != TTF_VC_ENUM)
        return 0;
    uint64_t x = ttf_value_norm(good, ty), y = ttf_value_norm(bad, ty);
    return (x == 0 && y == 1) || (x == 1 && y == 0);  /* a yes/no answer */
}

int ttdi_value_error(const ttf_vtype *ty, uint64_t raw)
{
    uint64_t v;

    if (!ty)
        return -1;
    v = ttf_value_norm(raw, ty);
    switch (ty->cls) {
    case TTF_VC_SIGNED:
        return (int64_t)v < 0;
    case TTF_VC_POINTER:
    case TTF_VC_BOOL:
        return v == 0;
    case TTF_VC_UNSIGNED:
        return ttf_value_errcode(raw, ty, NULL);
    default:
        return -1;
    }
}
