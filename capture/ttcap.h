/*
 * ttcap.h - the public header of libttcap, the tt capture library.
 *
 * Build with -finstrument-functions and link -lttcap: every function enter
 * and exit of every thread is recorded when TTCAP_OUT=file (or TTCAP=1) is
 * set. The macros below add manual events: scopes, deferred printf-like
 * messages, named values, return values and marks.
 *
 * Environment: TTCAP_OUT, TTCAP and the other TTCAP_* variables are
 * documented in one place, libttcap(3) (report/cmd/man/libttcap.3, section
 * ENVIRONMENT; tests/check_man.sh checks it against the variables
 * capture/ reads). TTCAP_TEST_FAIL_AFTER=N is for tests only: chunk claims
 * after N fail.
 * Secure execution (setuid, setgid, file capabilities: AT_SECURE): every
 * TTCAP_* variable is ignored and nothing is traced, unless the program
 * opts in with TTCAP_ALLOW_SECURE_EXEC() below or libttcap was built with
 * -DCAP_ALLOW_SECURE_EXEC (make CAPDEFS=-DCAP_ALLOW_SECURE_EXEC).
 * Trace files are created with O_EXCL | O_NOFOLLOW; an existing file,
 * symbolic link, FIFO, device or directory at the name is refused by name.
 * A forked child writes its own file (%p, or ".<pid>" appended). Fatal
 * signals (SEGV BUS ILL FPE ABRT) add a CRASH event, then the program's
 * handler or the default action runs: a handler the program installs for
 * them while tracing (sigaction, signal) is chained to, and is what
 * sigaction() reports. exit(), _exit() and _Exit() close the trace with
 * the exit status, and so does daemon()'s parent; exec closes it with an
 * EXEC record naming the program (an exec that fails is recorded and the
 * trace goes on). A vfork child records nothing (it runs in the parent's
 * memory): the parent's trace gets a VFORK record. longjmp and siglongjmp
 * (to a recent setjmp of the thread) and, in values mode, C++ exceptions
 * close the frames they leave with an UNWIND record. A fork from a signal
 * handler that interrupted libttcap gives the child its own trace once
 * the interrupted write is done. Everything written survives SIGKILL.
 */
#ifndef TTCAP_H
#define TTCAP_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TTCAP_VERSION_MAJOR 1
#define TTCAP_VERSION_MINOR 2
#define TTCAP_VERSION_PATCH 0
#define TTCAP_VERSION_NUMBER \
    (TTCAP_VERSION_MAJOR * 10000 + TTCAP_VERSION_MINOR * 100 + TTCAP_VERSION_PATCH)

/* Message levels: a message is recorded when its level <= the threshold
 * (TTCAP_LEVEL, default TTCAP_DEBUG). VALUE, RETURN and MARK use level 0. */
#define TTCAP_ERROR 1
#define TTCAP_WARN 2
#define TTCAP_INFO 3
#define TTCAP_DEBUG 4
#define TTCAP_TRACE 5

#define TTCAP_MAX_ARGS 8        /* arguments per TT_LOG */
#define TTCAP_STR_MAX 256       /* bytes of a string argument kept */

/* Call site kinds and argument types (the values of ttfmt.h's TTF_SITE_*
 * and TTF_ARG_*). */
enum { TTCAP_SITE_LOG = 1, TTCAP_SITE_VALUE, TTCAP_SITE_RETURN,
       TTCAP_SITE_MARK, TTCAP_SITE_SCOPE };
enum { TTCAP_ARG_I64 = 1, TTCAP_ARG_U64, TTCAP_ARG_F64, TTCAP_ARG_PTR,
       TTCAP_ARG_STR };

/* A static call site, one per macro use. The library gives it an id the
 * first time it fires and writes its description once per trace. */
struct ttcap_site {
    uint32_t id;                /* trace-wide id; 0 until first fired (library) */
    uint8_t kind;               /* TTCAP_SITE_* */
    uint8_t nargs;              /* arguments stored per message */
    uint8_t types[TTCAP_MAX_ARGS]; /* TTCAP_ARG_* of each argument */
    int level;                  /* message level */
    int line;                   /* source line */
    const char *fmt;            /* format, value name or mark label */
    const char *file;           /* source file */
    const char *func;           /* enclosing function */
    struct ttcap_site *next;    /* library: list of defined sites */
    uint64_t def_chunk;         /* library: where it was defined (ring mode) */
    uint32_t flags;             /* library: TTCAP_SITE_FIXED etc., set when defined */
};
#define TTCAP_SITE_FIXED 1u     /* every argument has a bounded fixed size (no strings) */

/* One raw argument, as converted by the macros. */
union ttcap_arg {
    long long i;                /* TTCAP_ARG_I64 */
    unsigned long long u;       /* TTCAP_ARG_U64, TTCAP_ARG_PTR (as an integer) */
    double f;                   /* TTCAP_ARG_F64 */
    const char *s;              /* TTCAP_ARG_STR (NULL is stored as "(null)") */
};

/* TTCAP_ALLOW_SECURE_EXEC(): at file scope in one source file of the
 * program, lets a setuid / setgid / capability-raised run honour TTCAP_*
 * (an explicit decision of the program's author: whoever starts it then
 * chooses where the privileged process writes its trace). Without it such
 * a run is never traced. */
#ifdef __cplusplus
#define TTCAP_ALLOW_SECURE_EXEC() extern "C" \
    __attribute__((visibility("default"), used)) \
    const int ttcap_allow_secure_exec = 1
#else
#define TTCAP_ALLOW_SECURE_EXEC() \
    __attribute__((visibility("default"), used)) \
    const int ttcap_allow_secure_exec = 1
#endif

/* Messages with level <= ttcap_threshold are recorded. INT_MIN-like when
 * tracing is off, so a disabled TT_LOG costs one compare. Read-only. */
extern int ttcap_threshold;

/* The library's version at run time (TTCAP_VERSION_NUMBER it was built with). */
int ttcap_version(void);

/* 1 if this process is being traced, 0 if not. */
int ttcap_enabled(void);

/* The trace file of this process, or NULL when untraced. Static storage. */
const char *ttcap_path(void);

/* Set the message threshold (see TTCAP_LEVEL); returns the previous one.
 * Has no effect on whether tracing is on. */
int ttcap_set_level(int level);

/* Name the calling thread (OS name too; at most 15 bytes kept) and record
 * it. Names set with pthread_setname_np are picked up too. NULL is ignored. */
void ttcap_thread_name(const char *name);

/* PAUSE / RESUME markers for the calling thread: tools leave the time
 * between them out of profiles. Events in between are still recorded. */
void ttcap_pause(void);
void ttcap_resume(void);

/* Make everything recorded so far durable in the file. A no-op: records go
 * straight into shared file mappings, which survive any crash of the process. */
void ttcap_flush(void);

/* Used by the macros. ttcap_emit records a MESSAGE (or MARK with no args)
 * for site s with its nargs raw arguments. */
void ttcap_emit(struct ttcap_site *s, const union ttcap_arg *args);
struct ttcap_site *ttcap_scope_enter(struct ttcap_site *s);
void ttcap_scope_exit(struct ttcap_site **sp);

/* The exported hooks called by -finstrument-functions code. */
void __cyg_profile_func_enter(void *fn, void *call_site);
void __cyg_profile_func_exit(void *fn, void *call_site);

#ifdef __cplusplus
}
#endif

/* ---- macros ------------------------------------------------------------ */

#define TTCAP_CAT2_(a, b) a##b
#define TTCAP_CAT_(a, b) TTCAP_CAT2_(a, b)
#ifdef __COUNTER__
#define TTCAP_UNIQ_(n) TTCAP_CAT_(n, __COUNTER__)
#else
#define TTCAP_UNIQ_(n) TTCAP_CAT_(n, __LINE__)
#endif

#if defined(__GNUC__)
#define TTCAP_NOINST_ __attribute__((no_instrument_function, unused))
#else
#define TTCAP_NOINST_
#endif

#if defined(__cplusplus)
/* C++: overloads stand in for _Generic. */
TTCAP_NOINST_ static inline constexpr int ttcap_at_(bool) { return TTCAP_ARG_U64; }
TTCAP_NOINST_ static inline constexpr int ttcap_at_(char) { return TTCAP_ARG_I64; }
TTCAP_NOINST_ static inline constexpr int ttcap_at_(signed char) { return TTCAP_ARG_I64; }
TTCAP_NOINST_ static inline constexpr int ttcap_at_(unsigned char) { return TTCAP_ARG_U64; }
TTCAP_NOINST_ static inline constexpr int ttcap_at_(short) { return TTCAP_ARG_I64; }
TTCAP_NOINST_ static inline constexpr int ttcap_at_(unsigned short) { return TTCAP_ARG_U64; }
TTCAP_NOINST_ static inline constexpr int ttcap_at_(int) { return TTCAP_ARG_I64; }
TTCAP_NOINST_ static inline constexpr int ttcap_at_(unsigned) { return TTCAP_ARG_U64; }
TTCAP_NOINST_ static inline constexpr int ttcap_at_(long) { return TTCAP_ARG_I64; }
TTCAP_NOINST_ static inline constexpr int ttcap_at_(unsigned long) { return TTCAP_ARG_U64; }
TTCAP_NOINST_ static inline constexpr int ttcap_at_(long long) { return TTCAP_ARG_I64; }
TTCAP_NOINST_ static inline constexpr int ttcap_at_(unsigned long long) { return TTCAP_ARG_U64; }
TTCAP_NOINST_ static inline constexpr int ttcap_at_(float) { return TTCAP_ARG_F64; }
TTCAP_NOINST_ static inline constexpr int ttcap_at_(double) { return TTCAP_ARG_F64; }
TTCAP_NOINST_ static inline constexpr int ttcap_at_(long double) { return TTCAP_ARG_F64; }
TTCAP_NOINST_ static inline constexpr int ttcap_at_(const char *) { return TTCAP_ARG_STR; }
TTCAP_NOINST_ static inline constexpr int ttcap_at_(const volatile void *) { return TTCAP_ARG_PTR; }
TTCAP_NOINST_ static inline union ttcap_arg ttcap_av_(long long v) { union ttcap_arg a; a.i = v; return a; }
TTCAP_NOINST_ static inline union ttcap_arg ttcap_av_(int v) { union ttcap_arg a; a.i = v; return a; }
TTCAP_NOINST_ static inline union ttcap_arg ttcap_av_(long v) { union ttcap_arg a; a.i = v; return a; }
TTCAP_NOINST_ static inline union ttcap_arg ttcap_av_(short v) { union ttcap_arg a; a.i = v; return a; }
TTCAP_NOINST_ static inline union ttcap_arg ttcap_av_(char v) { union ttcap_arg a; a.i = v; return a; }
TTCAP_NOINST_ static inline union ttcap_arg ttcap_av_(signed char v) { union ttcap_arg a; a.i = v; return a; }
TTCAP_NOINST_ static inline union ttcap_arg ttcap_av_(bool v) { union ttcap_arg a; a.u = v; return a; }
TTCAP_NOINST_ static inline union ttcap_arg ttcap_av_(unsigned char v) { union ttcap_arg a; a.u = v; return a; }
TTCAP_NOINST_ static inline union ttcap_arg ttcap_av_(unsigned short v) { union ttcap_arg a; a.u = v; return a; }
TTCAP_NOINST_ static inline union ttcap_arg ttcap_av_(unsigned v) { union ttcap_arg a; a.u = v; return a; }
TTCAP_NOINST_ static inline union ttcap_arg ttcap_av_(unsigned long v) { union ttcap_arg a; a.u = v; return a; }
TTCAP_NOINST_ static inline union ttcap_arg ttcap_av_(unsigned long long v) { union ttcap_arg a; a.u = v; return a; }
TTCAP_NOINST_ static inline union ttcap_arg ttcap_av_(float v) { union ttcap_arg a; a.f = v; return a; }
TTCAP_NOINST_ static inline union ttcap_arg ttcap_av_(double v) { union ttcap_arg a; a.f = v; return a; }
TTCAP_NOINST_ static inline union ttcap_arg ttcap_av_(long double v) { union ttcap_arg a; a.f = (double)v; return a; }
TTCAP_NOINST_ static inline union ttcap_arg ttcap_av_(const char *v) { union ttcap_arg a; a.s = v; return a; }
TTCAP_NOINST_ static inline union ttcap_arg ttcap_av_(const volatile void *v) { union ttcap_arg a; a.u = (unsigned long long)(uintptr_t)v; return a; }
#define TTCAP_AT_(x) ((uint8_t)ttcap_at_(x))
#define TTCAP_AV_(x) ttcap_av_(x)
#else
TTCAP_NOINST_ static inline union ttcap_arg ttcap_ai_(long long v) { union ttcap_arg a; a.i = v; return a; }
TTCAP_NOINST_ static inline union ttcap_arg ttcap_au_(unsigned long long v) { union ttcap_arg a; a.u = v; return a; }
TTCAP_NOINST_ static inline union ttcap_arg ttcap_af_(double v) { union ttcap_arg a; a.f = v; return a; }
TTCAP_NOINST_ static inline union ttcap_arg ttcap_as_(const char *v) { union ttcap_arg a; a.s = v; return a; }
TTCAP_NOINST_ static inline union ttcap_arg ttcap_ap_(const volatile void *v) { union ttcap_arg a; a.u = (unsigned long long)(uintptr_t)v; return a; }
#define TTCAP_GEN_(x, I, U, F, S, P) _Generic((x), \
    _Bool: U, char: I, signed char: I, unsigned char: U, short: I, \
    unsigned short: U, int: I, unsigned: U, long: I, unsigned long: U, \
    long long: I, unsigned long long: U, float: F, double: F, \
    long double: F, char *: S, const char *: S, default: P)
#define TTCAP_AT_(x) TTCAP_GEN_(x, TTCAP_ARG_I64, TTCAP_ARG_U64, TTCAP_ARG_F64, \
                                TTCAP_ARG_STR, TTCAP_ARG_PTR)
#define TTCAP_AV_(x) TTCAP_GEN_(x, ttcap_ai_, ttcap_au_, ttcap_af_, ttcap_as_, \
                                ttcap_ap_)(x)
#endif

#if defined(__GNUC__)
#define TTCAP_UNLIKELY_(c) __builtin_expect(!!(c), 0)
#else
#define TTCAP_UNLIKELY_(c) (c)
#endif

/* the site and call behind every message macro */
#define TTCAP_EMIT_(kind, lv, f, n, types, args) do { \
    if (TTCAP_UNLIKELY_((lv) <= ttcap_threshold)) { \
        static struct ttcap_site ttcap_s_ = { 0, (kind), (n), types, (lv), \
            __LINE__, (f), __FILE__, __func__, 0, 0, 0 }; \
        const union ttcap_arg ttcap_a_[(n) ? (n) : 1] = args; \
        ttcap_emit(&ttcap_s_, ttcap_a_); \
    } } while (0)

#define TTCAP_NARG_(...) TTCAP_NARG2_(__VA_ARGS__, 8, 7, 6, 5, 4, 3, 2, 1, 0, _)
#define TTCAP_NARG2_(f, a1, a2, a3, a4, a5, a6, a7, a8, n, ...) n
#define TTCAP_T_(...) { __VA_ARGS__ }
#define TTCAP_A_(...) { __VA_ARGS__ }

#define TTCAP_LOG0_(l, f) TTCAP_EMIT_(TTCAP_SITE_LOG, l, f, 0, { 0 }, { 0 })
#define TTCAP_LOG1_(l, f, a) TTCAP_EMIT_(TTCAP_SITE_LOG, l, f, 1, \
    TTCAP_T_(TTCAP_AT_(a)), TTCAP_A_(TTCAP_AV_(a)))
#define TTCAP_LOG2_(l, f, a, b) TTCAP_EMIT_(TTCAP_SITE_LOG, l, f, 2, \
    TTCAP_T_(TTCAP_AT_(a), TTCAP_AT_(b)), TTCAP_A_(TTCAP_AV_(a), TTCAP_AV_(b)))
#define TTCAP_LOG3_(l, f, a, b, c) TTCAP_EMIT_(TTCAP_SITE_LOG, l, f, 3, \
    TTCAP_T_(TTCAP_AT_(a), TTCAP_AT_(b), TTCAP_AT_(c)), \
    TTCAP_A_(TTCAP_AV_(a), TTCAP_AV_(b), TTCAP_AV_(c)))
#define TTCAP_LOG4_(l, f, a, b, c, d) TTCAP_EMIT_(TTCAP_SITE_LOG, l, f, 4, \
    TTCAP_T_(TTCAP_AT_(a), TTCAP_AT_(b), TTCAP_AT_(c), TTCAP_AT_(d)), \
    TTCAP_A_(TTCAP_AV_(a), TTCAP_AV_(b), TTCAP_AV_(c), TTCAP_AV_(d)))
#define TTCAP_LOG5_(l, f, a, b, c, d, e) TTCAP_EMIT_(TTCAP_SITE_LOG, l, f, 5, \
    TTCAP_T_(TTCAP_AT_(a), TTCAP_AT_(b), TTCAP_AT_(c), TTCAP_AT_(d), \
             TTCAP_AT_(e)), \
    TTCAP_A_(TTCAP_AV_(a), TTCAP_AV_(b), TTCAP_AV_(c), TTCAP_AV_(d), \
             TTCAP_AV_(e)))
#define TTCAP_LOG6_(l, f, a, b, c, d, e, g) TTCAP_EMIT_(TTCAP_SITE_LOG, l, f, 6, \
    TTCAP_T_(TTCAP_AT_(a), TTCAP_AT_(b), TTCAP_AT_(c), TTCAP_AT_(d), \
             TTCAP_AT_(e), TTCAP_AT_(g)), \
    TTCAP_A_(TTCAP_AV_(a), TTCAP_AV_(b), TTCAP_AV_(c), TTCAP_AV_(d), \
             TTCAP_AV_(e), TTCAP_AV_(g)))
#define TTCAP_LOG7_(l, f, a, b, c, d, e, g, h) TTCAP_EMIT_(TTCAP_SITE_LOG, l, f, 7, \
    TTCAP_T_(TTCAP_AT_(a), TTCAP_AT_(b), TTCAP_AT_(c), TTCAP_AT_(d), \
             TTCAP_AT_(e), TTCAP_AT_(g), TTCAP_AT_(h)), \
    TTCAP_A_(TTCAP_AV_(a), TTCAP_AV_(b), TTCAP_AV_(c), TTCAP_AV_(d), \
             TTCAP_AV_(e), TTCAP_AV_(g), TTCAP_AV_(h)))
#define TTCAP_LOG8_(l, f, a, b, c, d, e, g, h, k) TTCAP_EMIT_(TTCAP_SITE_LOG, l, f, 8, \
    TTCAP_T_(TTCAP_AT_(a), TTCAP_AT_(b), TTCAP_AT_(c), TTCAP_AT_(d), \
             TTCAP_AT_(e), TTCAP_AT_(g), TTCAP_AT_(h), TTCAP_AT_(k)), \
    TTCAP_A_(TTCAP_AV_(a), TTCAP_AV_(b), TTCAP_AV_(c), TTCAP_AV_(d), \
             TTCAP_AV_(e), TTCAP_AV_(g), TTCAP_AV_(h), TTCAP_AV_(k)))

/* TT_LOG(level, fmt, args...): a printf-like message, formatted when read.
 * Up to 8 arguments: integers, floating point, pointers, strings (copied,
 * at most TTCAP_STR_MAX bytes). Arguments are evaluated only if recorded. */
#define TT_LOG(level, ...) TTCAP_CAT_(TTCAP_LOG, \
    TTCAP_CAT_(TTCAP_NARG_(__VA_ARGS__), _))(level, __VA_ARGS__)

/* TT_VALUE("name", expr): a named integer, float, pointer or string. */
#define TT_VALUE(name, expr) TTCAP_EMIT_(TTCAP_SITE_VALUE, 0, name, 1, \
    TTCAP_T_(TTCAP_AT_(expr)), TTCAP_A_(TTCAP_AV_(expr)))

/* TT_MARK("label"): a point in the stream. */
#define TT_MARK(label) TTCAP_EMIT_(TTCAP_SITE_MARK, 0, label, 0, { 0 }, { 0 })

#if defined(__GNUC__)
/* TT_RETURN(expr): record the value, then return it (GNU C / C++). */
#define TT_RETURN(expr) do { \
    __typeof__(expr) ttcap_r_ = (expr); \
    TTCAP_EMIT_(TTCAP_SITE_RETURN, 0, "return", 1, \
        TTCAP_T_(TTCAP_AT_(ttcap_r_)), TTCAP_A_(TTCAP_AV_(ttcap_r_))); \
    return ttcap_r_; } while (0)

/* TT_SCOPE(): records an enter now and the exit when the enclosing block
 * ends (any way but longjmp), named after the enclosing function. */
#define TT_SCOPE() TTCAP_SCOPE_(TTCAP_UNIQ_(ttcap_scope_))
#define TTCAP_SCOPE_(v) \
    static struct ttcap_site TTCAP_CAT_(v, _site) = { 0, TTCAP_SITE_SCOPE, 0, \
        { 0 }, 0, __LINE__, __func__, __FILE__, __func__, 0, 0, 0 }; \
    struct ttcap_site *v __attribute__((cleanup(ttcap_scope_exit), unused)) = \
        (ttcap_threshold >= 0 ? ttcap_scope_enter(&TTCAP_CAT_(v, _site)) : 0)
#endif

#endif
