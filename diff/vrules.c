/*
 * vrules.c - the value rules every stage shares: is a differing value
 * noise by its own look (an address, a time stamp, a hash, a clock in ns,
 * each run's own pid, a result of a function named like a clock, a time
 * near each run's own CLOCK_MONOTONIC: a deadline, a double of seconds
 * near each run's own clock: a libev or GLib time; never two values next
 * to an end of their type), did an error appear (a negative integer,
 * NULL, false, a size_t error code), is an integer an end of its type (a
 * range check's answer), is a function a gcc clone whose registers are
 * not its values.
 * Stage 1 align of diff/STAGES (its header: align.h): the replay's walk
 * (replay.c, in this stage since it reads align's values walk over the
 * common prefix) and the evidence of the stages above (evidence.c,
 * explain.c) ask them alike.
 */
#include <stdint.h>
#include <string.h>

#include "align.h"

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

/* gcc's clone suffixes (a specialised copy of f, or f's own code moved
 * out of line: f's source either way). */
static const char *const clone_sfx[] = {".isra.", ".constprop.", ".part.", ".cold",
                                        ".lto_priv.", NULL};

int ttdi_clone_name(const char *name)
{
    if (!name || !strchr(name, '.'))
        return 0;   /* most names: one scan (the replay asks per call) */
    if (strstr(name, ".isra."))
        return 2;   /* IPA-SRA may drop the result too: rax is no value */
    for (size_t i = 1; clone_sfx[i]; i++)
        if (strstr(name, clone_sfx[i]))
            return 1;
    return 0;
}

size_t ttdi_clone_stem(const char *f)
{
    size_t n = strlen(f);
    const char *at = strstr(f, " [clone .");   /* the demangled form */

    if (at && at > f)
        n = (size_t)(at - f);
    for (size_t i = 0; clone_sfx[i]; i++) {
        at = strstr(f, clone_sfx[i]);
        if (at && at > f && (size_t)(at - f) < n)
            n = (size_t)(at - f);
    }
    return n;
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

/* How far v (a register of integer type ty, 4 bytes or more) is from
 * the nearer end of its type: INTn_MIN or INTn_MAX for a signed type,
 * UINTn_MAX for an unsigned one (its lower end, 0, is no end here: small
 * values are ordinary). *end: -1 the minimum's side, 1 the maximum's. */
static uint64_t from_type_end(uint64_t raw, const ttf_vtype *ty, int *end)
{
    unsigned bits = ty->size && ty->size < 8 ? 8 * ty->size : 64;
    uint64_t v = ttf_value_norm(raw, ty);
    uint64_t umax = bits == 64 ? UINT64_MAX : (1ull << bits) - 1;

    *end = 1;
    if (ty->cls == TTF_VC_UNSIGNED)
        return umax - v;
    uint64_t smax = umax >> 1;              /* INTn_MAX */
    if ((int64_t)v >= 0)
        return smax - v;
    *end = -1;
    return (uint64_t)((int64_t)v + (int64_t)smax + 1);     /* v - INTn_MIN */
}

int ttdi_type_end(const ttf_vtype *ty, uint64_t raw)
{
    int end;

    if (!ty || (ty->cls != TTF_VC_SIGNED && ty->cls != TTF_VC_UNSIGNED) || ty->size < 4)
        return 0;
    return from_type_end(raw, ty, &end) == 0 ? end : 0;
}

/* Are both values within the square root of their type's range of one of
 * its ends (2^32 of INT64_MIN, INT64_MAX or UINT64_MAX; 2^16 for 4 bytes)?
 * No address (user space ends at 2^47), time stamp or clock reading lies
 * there, and a hash lands there with a chance of one in 2^(4 * size) per
 * value: two such values are the input's, a range's ends written out or
 * a saturated result (strtoll's LLONG_MIN), never noise by their look. */
static int both_near_type_end(const ttf_vtype *ty, uint64_t good, uint64_t bad)
{
    int eg, eb;
    uint64_t room = 1ull << (4 * (ty->size < 8 ? ty->size : 8));

    return ty->size >= 4 && from_type_end(good, ty, &eg) < room &&
           from_type_end(bad, ty, &eb) < room;
}

int ttdi_value_noise(const ttf_vtype *ty, uint64_t good, uint64_t bad,
                     const char *func, int is_return)
{
    if (!ty || (ty->cls != TTF_VC_SIGNED && ty->cls != TTF_VC_UNSIGNED))
        return TTDI_NOISE_NONE;
    if (both_near_type_end(ty, good, bad))
        return is_return && ttdi_clock_name(func) ? TTDI_NOISE_CLOCK : TTDI_NOISE_NONE;
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

/* v (a register of type ty, signed or unsigned, 4 bytes or more) in
 * unit u as ns, -1 when it cannot be one (negative, too large). */
static int64_t as_ns(const ttf_vtype *ty, uint64_t raw, uint64_t u)
{
    uint64_t v = ttf_value_norm(raw, ty);

    if (ty->cls == TTF_VC_SIGNED && (int64_t)v < 0)
        return -1;
    return v <= (uint64_t)INT64_MAX / u ? (int64_t)(v * u) : -1;
}

/* v[0], v[1] (the good and the bad run's value as ns, >= 0) are times of
 * the clock c (each run's reading at the call, ns): each lies within 1%
 * (at most an hour) of its run's clock, the clock reads at least lo ns
 * (a young clock's small readings are any small number's), and what is
 * left of their difference once each run's clock is taken off is less
 * than half of it (the values differ by the runs' clock offset). */
static int near_own_clock(const int64_t v[2], const uint64_t c[2], int64_t lo)
{
    const int64_t hour = 3600000000000;
    int64_t d[2] = {0, 0};

    if (v[0] < 0 || v[1] < 0 || v[0] == v[1] || !c[0] || !c[1] || c[0] > INT64_MAX ||
        c[1] > INT64_MAX)
        return 0;
    for (int r = 0; r < 2; r++) {
        int64_t cr = (int64_t)c[r], room = cr / 100 < hour ? cr / 100 : hour;
        d[r] = v[r] - cr;       /* the value less its run's own clock */
        if (cr < lo || d[r] < -room || d[r] > room)
            return 0;
    }
    int64_t apart = v[1] - v[0], left = d[1] - d[0];
    return (left < 0 ? -left : left) < (apart < 0 ? -apart : apart) / 2;
}

int ttdi_time_like(const ttf_vtype *ty, uint64_t good, uint64_t bad, const uint64_t mono[2])
{
    static const uint64_t unit[] = {1, 1000, 1000000};  /* ns, us, ms */

    if (!ty || (ty->cls != TTF_VC_SIGNED && ty->cls != TTF_VC_UNSIGNED) || ty->size < 4)
        return 0;
    for (size_t k = 0; k < sizeof unit / sizeof unit[0]; k++) {
        int64_t v[2] = {as_ns(ty, good, unit[k]), as_ns(ty, bad, unit[k])};
        if (near_own_clock(v, mono, 1000000 * (int64_t)unit[k]))   /* 10^6 units */
            return 1;
    }
    return 0;
}

/* A double's clock must have run 10^12 ns (16 minutes) at least: a
 * time in seconds from a clock of less (monotonic since boot) has too few
 * digits to tell from any number; an integer's clock, 10^6 of its units. */
#define TTDI_CLOCK_GROWN 1000000000000

/* A double (raw: its 8 bytes) of seconds or milliseconds as ns, -1 when
 * it cannot be a time (not a number, negative, past 2^62 ns). */
static int64_t double_ns(uint64_t raw, double ns_per_unit)
{
    double d;

    memcpy(&d, &raw, sizeof d);
    d *= ns_per_unit;
    return d >= 0 && d < 4611686018427387904.0 ? (int64_t)d : -1;
}

int ttdi_float_time_like(const ttf_vtype *ty, uint64_t good, uint64_t bad,
                         const uint64_t clk[2][2])
{
    static const uint64_t unit[] = {1000000000, 1000000};   /* s, ms */

    if (!ty || ty->cls != TTF_VC_FLOAT || ty->size != 8)
        return 0;
    for (size_t k = 0; k < sizeof unit / sizeof unit[0]; k++) {
        int64_t v[2] = {double_ns(good, (double)unit[k]), double_ns(bad, (double)unit[k])};
        if (near_own_clock(v, clk[0], TTDI_CLOCK_GROWN) ||
            near_own_clock(v, clk[1], TTDI_CLOCK_GROWN))
            return 1;
    }
    return 0;
}

/* A field of 8 bytes that holds an integer. */
static int int8_field(const ttf_field *f)
{
    return (f->type.cls == TTF_VC_SIGNED || f->type.cls == TTF_VC_UNSIGNED) && f->type.size == 8;
}

/* Two times in ns (vg, vb: the good and the bad run's), each within a
 * second of its run's own clock c, at distances from it that agree within
 * a millisecond: they differ by when the runs ran, nothing else. A
 * deadline whose timeout differs by more (now instead of now + timeout)
 * stays a difference. */
static int clock_near(uint64_t vg, uint64_t vb, const uint64_t c[2])
{
    const int64_t s = 1000000000, ms = 1000000;
    int64_t dg = (int64_t)(vg - c[0]), db = (int64_t)(vb - c[1]);

    return c[0] && c[1] && vg != vb && dg >= -s && dg <= s && db >= -s && db <= s &&
           dg - db >= -ms && dg - db <= ms;
}

int ttdi_struct_time_like(const ttf_vtype *ty, const uint64_t g[2], const uint64_t b[2],
                          const uint64_t clk[2][2])
{
    static const uint64_t per_s[] = {1000000000ull, 1000000ull};  /* ns, us */

    if (!ty || !ty->fields || ty->nfields != 2 || ty->size != 16 ||
        ty->fields[0].offset != 0 || ty->fields[1].offset != 8 ||
        !int8_field(&ty->fields[0]) || !int8_field(&ty->fields[1]))
        return 0;
    for (size_t u = 0; u < sizeof per_s / sizeof *per_s; u++) {
        if (g[1] >= per_s[u] || b[1] >= per_s[u] || g[0] > 1ull << 32 || b[0] > 1ull << 32)
            continue;   /* not seconds and a fraction of one in that unit */
        uint64_t k = 1000000000ull / per_s[u];
        uint64_t vg = g[0] * 1000000000ull + g[1] * k, vb = b[0] * 1000000000ull + b[1] * k;
        if (clock_near(vg, vb, clk[0]) || clock_near(vg, vb, clk[1]))
            return 1;
    }
    return 0;
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
