/*
 * cap_int.h - libttcap internals shared by its files: the process-wide
 * capture state, the per-thread state in initial-exec TLS, the record
 * writing helpers, the hooks the writer calls up through, and each file's
 * functions, bottom of capture/STAGES first. Nothing here is exported (the
 * library is built with -fvisibility=hidden); the hot path itself lives in
 * cap_core.c, values mode's shared state in cap_values.h.
 */
#ifndef CAP_INT_H
#define CAP_INT_H

#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "ttcap.h"
#include "ttf_wire.h"

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define CAP_HAVE_TSC 1
#endif

#define CAP_BUSY_HOT 2          /* tstate.busy in a hot path (see there) */
#define CAP_BUSY_FORK 3         /* tstate.busy in a fork child whose fork came
                                   from a signal handler that interrupted one
                                   of our writes (cap_init.c, fork_child) */
#define CAP_RESERVE 256         /* bytes kept free at each chunk end: the
                                   longest hot record begun just below the
                                   limit (CAP_VHOT_MAX), then CUT/CRASH/END */
#define CAP_SITE_MAX (1 + TTF_UVAR_MAX) /* longest call-site prefix (SITE_NEW) */
#define CAP_HOT_MAX (24 + CAP_SITE_MAX) /* longest hot record (site prefix +
                                   tag + svar + uvar) */
#define CAP_VHOT_MAX (CAP_HOT_MAX - 3 + TTF_ENTER_VALUES_MAX + TTF_ENTER_XMM_MAX)
                                /* longest values-mode ENTER (174 bytes):
                                   room for it is checked before it is
                                   written, so the chunk's CAP_RESERVE stays
                                   free for a terminal record */
#define CAP_GROW 16             /* chunks added to the file per growth step */
#define CAP_FILL_MIN 16384      /* a thread's first chunk starts with this much
                                   of its slot filled; it doubles as needed */
#define CAP_MAX_MODS 1024       /* modules tracked for load/unload diffs */
#define CAP_NAME_LEN 16         /* thread name bytes (kernel limit incl. NUL) */
#define CAP_PATH_MAX 4096

/* Values mode's SSE register state of a chunk (format 1.5), reset with
 * it: mapped with the thread's call-site state, right after it. */
struct cap_xs {
    uint64_t x[TTF_XMMREGS];    /* xmm0..7 at the chunk's last ENTER */
    uint64_t ret;               /* xmm0 at its last EXIT */
};
#define CAP_SITES_MAP (sizeof(struct ttf_sites) + sizeof(struct cap_xs))
#define cap_xs_of(t) ((struct cap_xs *)(void *)((t)->sites + 1))

/* The clock of hot events (tstate.timed, cap.timed; TTCAP_CLOCK): none
 * (order only), every ENTER and EXIT (TTCAP_CLOCK=every), sparse
 * (TTCAP_CLOCK=sparse, format 1.4), or lazy (tsc, the default, format 1.7,
 * below). Sparse: every ENTER reads the clock, an EXIT only when
 * its call was big (CAP_BIG_CALL events since its ENTER, counting a
 * SYNC_OP or SLEEP record in it as that many), CAP_UNTIMED_RUN EXITs in
 * a row went without it, it is among the thread's first CAP_WARM, or it
 * is drawn as a sample (1 in 32 on average, CAP_SAMPLE_BITS). The design
 * and its error: capture/INSTRUMENT.md, "The clock". */
enum { CAP_CLOCK_NONE = 0, CAP_CLOCK_EVERY = 1, CAP_CLOCK_SPARSE = 2, CAP_CLOCK_LAZY = 3,
       CAP_CLOCK_CHAIN = 7 };
/* Lazy clock (TTCAP_CLOCK=lazy, format 1.7): EXITs as sparse; an ENTER reads the clock
 * unless the thread's last record that is hot or carries a time was an
 * untimed EXIT (tstate.ux: set there, cleared by every clock read and by
 * the untimed ENTER). The rule is the format's (FORMAT.md 4.7): no byte
 * says which ENTERs are untimed. A loop of short calls then reads the
 * clock about once in nine calls, and a SAMPLE or TIMED EXIT times the
 * ENTER after it (the EXIT-to-ENTER gap readers learn from). Values
 * chunks are lazy too (format 1.8, TTF_REQ_VLAZY): cap_values.c's ENTER
 * and cap_fentry.S skip their early clock read when ux is set.
 * Chain clock (the default, TTCAP_CLOCK=tsc or chain, format 1.9,
 * TTF_REQ_CHAIN and TTF_CHUNK_CHAIN): lazy, and an untimed ENTER keeps ux
 * set, so the ENTERs of nested calls after an untimed EXIT go untimed
 * too, until the next clock read (a timed EXIT: big call, CAP_UNTIMED_RUN
 * untimed EXITs in a row, warm-up, sample; or a SYNC_OP or SLEEP record).
 * A chain of nested calls then reads about as often as a loop of leaves
 * (FORMAT.md 4.7). Its timed byte is lazy's with bit 4 (ux = timed >> 2 at
 * an untimed ENTER), values chunks too (cap_fentry.S and put_enter_at
 * keep ux the same way; the chunks are flagged CHAIN). */
#define CAP_BIG_CALL 64         /* events in a call (its ENTER included) that
                                   make its EXIT read the clock */
#define CAP_UNTIMED_RUN 8       /* at most this many untimed EXITs in a row */
#define CAP_WARM 4096           /* a thread's first EXITs all read the clock:
                                   a short run is timed exactly (its cost is
                                   no matter), a long one learns from samples */
#define CAP_SAMPLE_BITS 6       /* the other EXITs are sampled at gaps drawn
                                   uniformly from 1 .. 2^CAP_SAMPLE_BITS - 1:
                                   one in 32 on average */
#define CAP_EVAT 64             /* frames whose ENTER count is kept (by depth
                                   modulo: deeper frames share, and an outer
                                   frame then counts from the inner one's
                                   ENTER: its EXIT may go untimed) */

/* thread states (tstate.state) */
enum { TS_NEW = 0, TS_LIVE, TS_CUT, TS_DONE };
/* LOST / CUT reasons (u8 in the record; the values of TTF_LOST_*) */
enum { CAP_WHY_NESTED = 0, CAP_WHY_FULL = 1, CAP_WHY_IO = 2, CAP_WHY_LIMIT = 3 };

/* One thread's writer. All fields are touched only by the owning thread
 * (and by a signal handler running on it, guarded by busy). pos and limit
 * are NULL unless the thread holds a mapped chunk, so one compare sends
 * new, cut and full threads to the slow path. */
struct tstate {
    uint8_t *pos;               /* next record byte in the current chunk */
    uint8_t *limit;             /* hot writes start below this (end - RESERVE) */
    uint64_t prev;              /* address of the previous cache miss */
    uint64_t tsc;               /* running tsc (base of the next delta) */
    int32_t depth;              /* call depth now (ENTER +1, EXIT -1) */
    uint8_t busy;               /* nonzero while writing: nested events are dropped;
                                   CAP_BUSY_HOT in a hot path (no lock held, at most
                                   one record partly written at pos) */
    uint8_t timed;              /* CAP_CLOCK_*: hot events carry a tsc delta
                                   (every one, or sparse: ENTERs and some EXITs) */
    uint8_t state;              /* TS_* */
    uint8_t vals;               /* chunk has TTF_CHUNK_VALUES (sticky: new chunks get it) */
    uint8_t since;              /* sparse clock: EXITs without a time since the
                                   last clock read */
    uint16_t ev;                /* sparse clock: hot events so far (mod 2^16) */
    uint32_t rng;               /* sparse clock: the sampling draw's state */
    uint8_t skip;               /* sparse clock: candidate EXITs to the next
                                   sample (1: this one); 0 at thread start and
                                   through the warm-up, then 255 */
    uint8_t ux;                 /* lazy clock: the last hot event was an
                                   untimed EXIT (its next ENTER goes untimed) */
    uint16_t warm;              /* sparse clock: EXITs timed so far, up to CAP_WARM */
    uintptr_t cache[TTF_SLOTS]; /* function cache, reset per chunk */
    uint16_t evat[CAP_EVAT];    /* sparse clock: ev at the ENTER of the open
                                   frame at depth d, in evat[d % CAP_EVAT] */
    struct ttf_sites *sites;    /* call sites of the chunk (format 1.2), reset
                                   per chunk; mmap'd at the thread's first
                                   chunk, not in TLS: libttcap may be
                                   dlopen'ed, and its initial-exec TLS must
                                   fit glibc's small static TLS surplus */
    uint64_t vprev[TTF_ARGREGS];/* values mode: argument registers at the last ENTER */
    uint64_t vstride[TTF_ARGREGS];/* values mode: how far each moved there */
                                /* (the SSE registers' state, struct cap_xs,
                                   lives after *sites: TLS is scarce) */
    uint8_t *base;              /* start of the mapped chunk */
    uint64_t chunk;             /* its index in the file */
    uint32_t index;             /* thread index (creation order) */
    uint32_t given;             /* 1 + index assigned by pthread_create, 0 = none */
    uint32_t seq;               /* next chunk sequence number */
    uint64_t lost;              /* events dropped since the last LOST record */
    uint64_t lost_nested;       /* events dropped inside a write (signals) */
    unsigned name_gen;          /* cap.name_gen when the name was last checked */
    char name[CAP_NAME_LEN];    /* last recorded name */
    uint64_t *ring;             /* ring mode: own chunk indexes, oldest at ring_head */
    uint32_t ring_cnt;          /* entries used in ring */
    uint32_t ring_head;         /* oldest entry once ring is full */
    int32_t cut_slot;           /* 1 + its entry in the header's cut table,
                                   -1 cut beyond the table, 0 never cut */
    uint8_t started;            /* THREAD_START written (a thread cut before
                                   its first chunk writes it when it gets one) */
    uint8_t cut_why;            /* CAP_WHY_* of its last cut */
    uint64_t cut_pub;           /* lost events already added to the header's cut_events */
    uint64_t chaos_rng;         /* chaos mode: this thread's PRNG state */
    uint8_t chaos_ready;        /* chaos_rng seeded */
    uint8_t refork;             /* a fork child whose trace starts at the next
                                   write, once the write the fork interrupted
                                   has finished (cap_hooks.refork) */
    uint8_t vforked;            /* a vfork child runs on this thread's memory:
                                   nothing is written, limit is NULL (every
                                   event takes the slow path, which drops it)
                                   until the parent resumes (cap_vfork.S) */
    uint8_t *vfork_limit;       /* limit as it was before the vfork */
    uint32_t filled;            /* bytes of the current chunk written (zeros)
                                   and mapped for use: the rest of the slot is
                                   a hole until the thread needs it (fill_more,
                                   cap_core.c) */
    uintptr_t vstr;             /* values mode, inside __fentry__'s assembly
                                   ENTER only (else 0): the string table's
                                   entry of the function, then where its
                                   STRINGS record starts (cap_fentry.S) */
};

/* A module already recorded (for load/unload diffs). */
struct capmod {
    uint64_t base;              /* load bias (dlpi_addr) */
    uint64_t def_chunk;         /* ring mode: 1 + chunk holding its MODULE_LOAD, 0 = pinned */
};

/* What a loaded object's dynamic relocations refer to (cap_elf_refs). */
struct cap_refs {
    int hooks;                  /* __cyg_profile_func_enter: it is instrumented */
    int api;                    /* any ttcap_ symbol (the manual macros) */
    int self;                   /* libttcap is inside it (static link) */
    int gprof;                  /* __monstartup: linked with -pg (gcrt1.o) */
    int fentry;                 /* __fentry__: built with -pg -mfentry */
};

/* The process-wide capture state. */
struct capture {
    int fd;                     /* the trace file, -1 when untraced */
    uint8_t *hdr;               /* the mapped file header page */
    uint32_t chunk_size;        /* bytes per chunk (power of two) */
    int timed;                  /* CAP_CLOCK_* (TTCAP_CLOCK) */
    int sync;                   /* record SYNC_OP (TTCAP_SYNC != 0) */
    _Atomic int sync_flagged;   /* TTF_OPT_SYNC set in the header */
    int level;                  /* message threshold set by the user */
    uint32_t ring_n;            /* ring mode: chunks kept per thread (0 = off) */
    _Atomic uint64_t next_chunk;/* next chunk index to claim */
    _Atomic uint64_t cap_chunks;/* chunks the file has room for */
    atomic_flag grow_lock;      /* serialises file growth */
    atomic_flag mod_lock;       /* serialises module rescans */
    atomic_flag site_lock;      /* guards the list of defined sites */
    _Atomic uint32_t next_thread;/* next thread index */
    _Atomic uint32_t next_site; /* last call site id given */
    _Atomic unsigned name_gen;  /* bumped when another thread renames one */
    struct ttcap_site *_Atomic sites; /* defined call sites (for fork/ring) */
    _Atomic uint64_t retry_at;  /* CLOCK_MONOTONIC_COARSE ns before which no
                                   thread tries to claim a chunk again after a
                                   claim failed (disk full, file size limit) */
    uint64_t retry_wait;        /* the back-off now (doubles, 10 ms .. 1 s) */
    _Atomic unsigned dl_gen;    /* dlopen/dlclose calls seen by our interposers */
    unsigned dl_gen_seen;       /* dl_gen at the last module scan */
    int loader_suspect;         /* a forked child: the loader's locks may be held
                                   by a thread that is gone; no dl_iterate_phdr
                                   until our own dlopen/dlclose ran here */
    uint64_t fail_after;        /* tests: chunk claims that succeed (0 = all) */
    _Atomic uint64_t claims;    /* tests: chunk claims so far */
    uint64_t tsc_hz;            /* counter ticks per second */
    uint64_t start_real;        /* CLOCK_REALTIME at trace start */
    unsigned long long dl_adds; /* dlpi_adds at the last module scan */
    unsigned long long dl_subs; /* dlpi_subs at the last module scan */
    uint32_t nmods;             /* entries in mods */
    struct capmod mods[CAP_MAX_MODS]; /* modules recorded so far */
    pthread_key_t key;          /* its destructor writes THREAD_END */
    int key_ok;                 /* key created */
    int hooks_ok;               /* atexit/atfork/signals installed */
    int pid;                    /* the process the trace was started for */
    uint64_t ino, dev;          /* the trace file's identity (cap_file_ours) */
    _Atomic uint64_t tail_end;  /* 1 + file offset of the end of data of the
                                   chunk a thread finished last (cap_chunk_done) */
    int any_calls;              /* a thread recorded a function call (seen at a chunk switch or thread end) */
    char tmpl[CAP_PATH_MAX];    /* output name template (TTCAP_OUT or default) */
    char path[CAP_PATH_MAX];    /* this process's trace file */
    char store[CAP_PATH_MAX];   /* build-id store root ("" = none; cap_store.c) */
    char store_env[CAP_PATH_MAX];/* TTCAP_STORE as read at start ("" = unset) */
};

/* What the writer (cap_core.c, the bottom of capture/STAGES) calls up to:
 * it calls nothing above it by name. Filled by cap_policy_hooks at trace
 * start, before the first chunk is claimed. */
struct cap_hooks {
    /* thread t now writes in chunk (recycled: a ring-mode reuse): write
     * the records owed at a chunk's start (cap_policy.c) */
    void (*switched)(struct tstate *t, int recycled, uint64_t chunk);
    /* a fork child's thread with t->refork set, in a new write (busy 1)
     * after the one the fork interrupted: start the child's trace
     * (cap_init.c); cap_on is 0 after it if that failed */
    void (*refork)(struct tstate *t);
};

/* Chaos mode (cap_chaos.c; TTCAP_CHAOS, read at trace start). */
struct cap_chaos_cfg {
    int on;                     /* perturb at sync operations */
    int entries;                /* and at function entries (cap_on == CAP_ON_CHAOS) */
    uint64_t seed;              /* the run's seed */
};
enum { CAP_CHAOS_SYNC = 0, CAP_CHAOS_ENTRY = 1 };  /* kinds of chaos point */
#define CAP_CHAOS_YIELD 1u      /* cap_chaos_decide: yield (0 nothing, else sleep us) */
#define CAP_ON_CHAOS 3          /* cap_on: tracing, and chaos at function entries */

/* Recording a process tree (cap_tree.c; TTCAP_OUT=DIR/). */
struct cap_tree {
    int on;                     /* TTCAP_OUT names a folder: rows are written */
    int pid;                    /* the process the rows are for */
    int ended;                  /* its END row is written */
    uint64_t start_ns;          /* its start: with pid, the row's name */
    uint64_t env;               /* its environment's hash (0 none recorded) */
    _Atomic uint32_t forks;     /* forks of this image so far (a fork child
                                   reads its number here) */
    uint32_t nth;               /* a fork child: which fork of its parent */
    char dir[CAP_PATH_MAX];     /* the folder (no trailing slash) */
};

extern struct capture cap;
extern struct cap_tree cap_tree;
extern struct cap_hooks cap_hooks;
extern struct cap_chaos_cfg cap_chaos;
extern int cap_on;              /* tracing enabled: tested first by every hook;
                                   1, or CAP_ON_CHAOS (the entry hook's "not 1"
                                   test then also reaches chaos mode) */
extern __thread struct tstate cap_tls __attribute__((tls_model("initial-exec")));

/* Append s to out[*o] (room len, always NUL-terminated, cut when full)
 * for a stderr line: a path or name from the environment or the file
 * system may hold anything, so every byte that is not printable ASCII,
 * and the backslash, is written as \xNN; nothing can act as a control
 * sequence or split the line. Async-signal-safe. */
static inline void cap_put_esc(char *out, size_t len, size_t *o, const char *s)
{
    static const char hexd[] = "0123456789abcdef";
    for (; *s && *o + 1 < len; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            out[(*o)++] = (char)c;
            continue;
        }
        if (*o + 5 >= len)
            break;
        out[(*o)++] = '\\';
        out[(*o)++] = 'x';
        out[(*o)++] = hexd[c >> 4];
        out[(*o)++] = hexd[c & 15];
    }
    out[*o] = 0;
}

static inline uint64_t cap_tsc(void)
{
#ifdef CAP_HAVE_TSC
    return __rdtsc();
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

static inline uint64_t cap_clock_ns(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Time delta for a record: never negative (a migration between cores with
 * skewed counters clamps to 0 rather than going back in time). */
static inline uint8_t *cap_put_t_at(struct tstate *t, uint8_t *q, uint64_t now)
{
    uint64_t d = now > t->tsc ? now - t->tsc : 0;
    t->tsc += d;
    t->since = 0;
    t->ux = 0;
    return ttf_put_uvar(q, d);
}

static inline uint8_t *cap_put_t(struct tstate *t, uint8_t *q)
{
    return cap_put_t_at(t, q, cap_tsc());
}

/* Extended record framing: the payload is written from p + 2 assuming a
 * one-byte length; cap_ext_close moves it when the length needs two. */
static inline uint8_t *cap_ext_close(uint8_t *p, uint8_t *q)
{
    size_t len = (size_t)(q - (p + 2));
    if (len < 128) {
        p[1] = (uint8_t)len;
        return q;
    }
    __builtin_memmove(p + 3, p + 2, len);
    p[1] = (uint8_t)(len | 0x80);
    p[2] = (uint8_t)(len >> 7);
    return q + 1;
}

/* A hot record's address at p + 1 (hit: in the tag; miss: svar delta).
 * Returns the byte after; *tag is the tag to commit. */
static inline __attribute__((always_inline))
uint8_t *cap_hot_addr(struct tstate *t, uint8_t *p, uintptr_t a, uint8_t hit,
                      uint8_t miss, uint8_t *tag)
{
    uint8_t *q = p + 1;
    unsigned slot = TTF_SLOT(a);
    *tag = (uint8_t)(hit | slot);
    if (__builtin_expect(t->cache[slot] != a, 0)) {
        q = ttf_put_svar(q, (int64_t)(a - t->prev));
        t->prev = a;
        t->cache[slot] = a;
        *tag = miss;
    }
    return q;
}

/* Sparse clock: an ENTER is counted, and its frame remembers the count. */
static inline __attribute__((always_inline)) void cap_enter_count(struct tstate *t)
{
    t->evat[(uint32_t)t->depth % CAP_EVAT] = t->ev++;
}

/* Sparse clock: the rare half of cap_exit_reads, for a candidate EXIT
 * (not big, not after CAP_UNTIMED_RUN untimed ones) when skip is 0 or 1.
 * skip 1: the countdown ends here, a SAMPLE, the next gap drawn. skip 0:
 * a young thread (TIMED, counted in warm; skip stays 0, so each of its
 * candidate EXITs comes here), else the thread's first candidate after
 * its warm-up: the countdown starts at 255 (as the wrap of a u8 from 0)
 * and this EXIT goes untimed (0). The warm-up is thus tested on this path
 * only, not at every EXIT; cap_tramp.S's .Lskip does the same. */
static inline unsigned cap_exit_rare(struct tstate *t)
{
    if (t->skip) {
        t->rng = t->rng * 1664525u + 1013904223u;   /* an LCG: its top bits */
        t->skip = (uint8_t)(1 + (t->rng >> (32 - CAP_SAMPLE_BITS)));
        return TTF_T_SAMPLE;
    }
    if (t->warm < CAP_WARM) {
        t->warm++;
        return TTF_T_TIMED;
    }
    t->skip = 255;
    return 0;
}

/* Sparse clock: does this EXIT read the clock? TTF_T_TIMED when its call
 * was big (CAP_BIG_CALL events since its ENTER), CAP_UNTIMED_RUN EXITs
 * before it went without, or the thread is young (CAP_WARM); else
 * TTF_T_SAMPLE for the others at random gaps (what readers learn each
 * function's short calls from: a countdown per EXIT, the generator drawn
 * only per sample), else 0. The EXIT is counted either way. The usual
 * EXIT (untimed, skip above 1) tests n, since and skip only: the warm-up
 * and the draw are cap_exit_rare's. */
static inline __attribute__((always_inline)) unsigned cap_exit_reads(struct tstate *t)
{
    uint16_t n = (uint16_t)(t->ev++ - t->evat[(uint32_t)(t->depth - 1) % CAP_EVAT]);
    if (n >= CAP_BIG_CALL || t->since >= CAP_UNTIMED_RUN) {
        if (t->warm < CAP_WARM)
            t->warm++;
        return TTF_T_TIMED;
    }
    if (__builtin_expect(t->skip <= 1, 0)) {
        unsigned pre = cap_exit_rare(t);
        if (pre)
            return pre;
    } else {
        t->skip--;
    }
    t->since++;
    t->ux = t->timed & 1;       /* lazy (3): the next ENTER goes untimed; sparse (2): not */
    return 0;
}

/* Sparse clock: a SYNC_OP or SLEEP record counts as a big call's worth of
 * events in every open frame, so their EXITs read the clock. */
static inline void cap_sync_counts(struct tstate *t)
{
    t->ev = (uint16_t)(t->ev + CAP_BIG_CALL);
}

/* A hot record's head at p: the address and the time delta. Returns the
 * byte after; *tag is the tag to commit at p. In a lazy chunk an ENTER
 * after an untimed EXIT carries no time (ux is set there, and in a chain
 * chunk kept by the untimed ENTER). In a
 * sparse or lazy chunk an EXIT
 * that reads the clock is a TIMED prefix at p and the EXIT at p + 1, its
 * tag stored here (the prefix's, committed last, makes them one record);
 * one that does not carries no time. The -finstrument-functions hooks use
 * it, and values mode's EXITs in sparse and lazy chunks; values mode's ENTERs read
 * the clock earlier (cap_values.c). */
static inline __attribute__((always_inline))
uint8_t *cap_hot_head(struct tstate *t, uint8_t *p, uintptr_t a, uint8_t hit,
                      uint8_t miss, uint8_t *tag)
{
    if (hit == TTF_T_EXIT_HIT && t->timed >= CAP_CLOCK_SPARSE) {
        unsigned pre = cap_exit_reads(t);
        if (!pre)
            return cap_hot_addr(t, p, a, hit, miss, tag);
        uint8_t rtag;
        uint8_t *q = cap_put_t(t, cap_hot_addr(t, p + 1, a, hit, miss, &rtag));
        p[1] = rtag;
        *tag = (uint8_t)pre;
        return q;
    }
    if (hit == TTF_T_ENTER_HIT && t->timed >= CAP_CLOCK_SPARSE)
        cap_enter_count(t);
    if (hit == TTF_T_ENTER_HIT && t->ux) {
        t->ux = t->timed >> 2;  /* lazy: after an untimed EXIT, no read;
                                   chain: the run goes on (1.9) */
        return cap_hot_addr(t, p, a, hit, miss, tag);
    }
    uint8_t *q = cap_hot_addr(t, p, a, hit, miss, tag);
    if (t->timed)
        q = cap_put_t(t, q);
    return q;
}

/* The call site of an ENTER of a (FORMAT.md 4.3): 1 if it is the one
 * the path table predicts, the common case, which costs no byte (the
 * state then moves on here); 0 if the ENTER may need a prefix
 * (cap_site_prefix, which returns p when it does not). */
static inline __attribute__((always_inline))
int cap_site_same(struct tstate *t, uintptr_t a, uintptr_t site)
{
    return ttf_site_try(t->sites, a, site);
}

/* The prefix of an ENTER of a that cap_site_same did not take, at p:
 * returns where the ENTER record goes, *ptag the prefix's tag (committed
 * last, for the two records as one; p itself when no prefix is needed).
 * Moves the site state on, like the function cache, before the commit. */
static inline uint8_t *cap_site_prefix(struct tstate *t, uint8_t *p, uintptr_t a,
                                       uintptr_t site, uint8_t *ptag)
{
    struct ttf_sites *st = t->sites;
    uint8_t *e = ttf_put_site_prefix(p, st, a, site, ptag);
    ttf_site_advance(st, a, site);
    return e;
}

/* Publish a record: every byte after the tag is already there. */
static inline void cap_commit(struct tstate *t, uint8_t *p, uint8_t tag, uint8_t *q)
{
    atomic_signal_fence(memory_order_release);
    *(volatile uint8_t *)p = tag;
    atomic_signal_fence(memory_order_release);
    t->pos = q;
}

/* Declarations by file, bottom of capture/STAGES first: a file calls only
 * those above its own section. */

/* cap_elf.c (a leaf) */
struct dl_phdr_info;
void cap_elf_build_id(const struct dl_phdr_info *info, const uint8_t **id, size_t *n);
void cap_elf_refs(const struct dl_phdr_info *info, uintptr_t self, struct cap_refs *rf);

/* cap_probe.S (x86-64): a copy of n aligned words that a fault ends
 * instead of killing the program (on_fatal resumes it): the words copied,
 * | CAP_PROBE_FAULTED when a read faulted. Only while cap_probe_ready(). */
#define CAP_PROBE_FAULTED (UINT64_C(1) << 63)
size_t cap_probe_words(uint64_t *dst, const uint64_t *src, size_t n);

#define CAP_STR_MAX 32          /* bytes of a string read at most */
#define CAP_STR_NUL 0x100       /* cap_probe_string: its NUL was seen */
#define CAP_STR_FAULT 0x200     /* cap_probe_string: a read faulted */

/* The first bytes of the string at p (at most n <= CAP_STR_MAX), read
 * into w: they are at (char *)w + *off, not NUL-terminated. Returns their
 * count | CAP_STR_NUL when the string ends there | CAP_STR_FAULT when
 * memory after them could not be read (0 bytes and CAP_STR_FAULT: p
 * itself could not). Reads the aligned words holding p[0..n), never a page
 * those bytes do not touch. No libc call (the values fast path must leave
 * the vector registers alone). */
static inline unsigned cap_probe_string(const char *p, unsigned n,
                                        uint64_t w[CAP_STR_MAX / 8 + 1], unsigned *off)
{
    uintptr_t a = (uintptr_t)p, base = a & ~(uintptr_t)7;
    unsigned o = (unsigned)(a - base), words = (o + n + 7) / 8;
    size_t r = cap_probe_words(w, (const uint64_t *)base, words);
    unsigned got = (unsigned)(r & ~CAP_PROBE_FAULTED) * 8, flags = 0;
    unsigned len = got > o ? got - o : 0;
    if (len > n)
        len = n;
    for (unsigned i = 0; i * 8 < o + len; i++) {   /* the first NUL, a word at a time */
        uint64_t x = w[i] | (i ? 0 : ~(~UINT64_C(0) << (8 * o)));  /* bytes before p: not 0 */
        uint64_t z = (x - UINT64_C(0x0101010101010101)) & ~x & UINT64_C(0x8080808080808080);
        if (z) {
            unsigned at = i * 8 + (unsigned)__builtin_ctzll(z) / 8 - o;
            if (at < len) {
                len = at;
                flags = CAP_STR_NUL;
            }
            break;
        }
    }
    if (!flags && (r & CAP_PROBE_FAULTED))
        flags = CAP_STR_FAULT;
    *off = o;
    return len | flags;
}

/* cap_chaos.c (a leaf beside the core: it reads only its own state) */
uint64_t cap_chaos_next(uint64_t *state);
uint64_t cap_chaos_thread_seed(uint64_t seed, uint32_t index);
unsigned cap_chaos_decide(uint64_t r, int kind);
void cap_chaos_point(struct tstate *t, int kind);

/* cap_core.c */
void cap_hook_enter(void *fn, void *call_site); /* == our __cyg_profile_func_enter */
uint8_t *cap_room(struct tstate *t, size_t need);
uint8_t *cap_reserve_room(struct tstate *t);
void cap_switch_chunk(struct tstate *t);
void cap_chunk_done(struct tstate *t);
int cap_file_ours(void);

/* cap_tree.c */
/* The NUL-separated command line from /proc into args: its length. */
size_t cap_read_cmdline(char *args, size_t len);
int cap_tree_dir(const char *out);
int cap_tree_instrumented(void);
int cap_tree_other_copy(void);
void cap_tree_begin(int forked, const char *trace);
void cap_tree_end(int how, int status, int sig);
void cap_tree_exec_failed(void);
void cap_tree_reaped(int pid, int sig);
void cap_tree_forking(void);    /* a fork is about to happen (prepare) */   /* a child killed by sig, reaped */
void cap_file_shrink(struct tstate *t, int whole);
void cap_thread_begin(struct tstate *t);
void cap_write_thread_start(struct tstate *t);
void cap_thread_reset(struct tstate *t);
int cap_thread_ending(struct tstate *t);
void cap_thread_close(struct tstate *t);
void cap_check_names(struct tstate *t);
void cap_flush_lost(struct tstate *t);
void cap_write_name(struct tstate *t, const char *name);
void cap_write_site(struct tstate *t, struct ttcap_site *s);
int cap_grow(uint64_t chunk);
int cap_site_id(struct tstate *t, struct ttcap_site *s);
void cap_spin_lock(atomic_flag *f);
void cap_spin_unlock(atomic_flag *f);
void cap_values_chunk(void);
void cap_values_strings_on(void);   /* a string table appeared (cap_modules.c) */
void cap_cut_publish(struct tstate *t);
void cap_cut_thread_end(struct tstate *t);
void cap_unwind(struct tstate *t, int how, uint32_t n);
uint64_t cap_fsize_limit(void);

/* SIGXFSZ around a write that could pass RLIMIT_FSIZE: blocked, and one
 * the write raised is taken back, so the program's own disposition never
 * sees ours (cap_core.c). */
struct cap_xfsz {
    sigset_t old;               /* the thread's mask before */
    int pending;                /* SIGXFSZ was pending already */
};
void cap_xfsz_hold(struct cap_xfsz *g);
void cap_xfsz_release(struct cap_xfsz *g);

/* Asynchronous signals blocked around work a forking handler must not
 * interrupt, and dl_iterate_phdr so wrapped: libttcap never walks the
 * modules otherwise (cap_core.c). */
void cap_async_hold(sigset_t *old);
int cap_dl_iterate(int (*cb)(struct dl_phdr_info *, size_t, void *), void *arg);
/* fork: wait (at most 200 ms) until no walk is in progress, hold new ones
 * back; after it, let them go (child: the other threads' walks are gone). */
void cap_walks_fork_prepare(void);
void cap_walks_fork_done(int child);

/* Cancellation off around libttcap's own slow work, whose system calls
 * (open, read, write, pwrite, fallocate) are cancellation points: a
 * pthread_cancel pending in the thread acts at the program's next
 * cancellation point, never inside libttcap, where it would unwind out of
 * a hook with the thread's busy flag set (its later calls and its
 * THREAD_END never written) and a lock of ours held. */
static inline int cap_cancel_off(void)
{
    int was = PTHREAD_CANCEL_ENABLE;
    pthread_setcancelstate(PTHREAD_CANCEL_DISABLE, &was);
    return was;
}

static inline void cap_cancel_restore(int was)
{
    int ignored;
    pthread_setcancelstate(was, &ignored);
}

/* cap_store.c */
void cap_store_init(void);
void cap_store_module(const struct dl_phdr_info *info, const char *path, int is_main);

/* cap_modules.c */
void cap_check_modules(struct tstate *t, int force);
void cap_rewrite_modules(struct tstate *t, uint64_t chunk1);
void cap_replay_modules(struct tstate *t);
void cap_modules_fork_prepare(void);
void cap_modules_fork_parent(void);

/* cap_check.c */
void cap_check_start(void);
void cap_check_end(struct tstate *t);

/* cap_sig.c */
void cap_signals_install(void);
int cap_probe_ready(void);      /* on_fatal holds SIGSEGV and SIGBUS */

/* cap_values.c (values mode, x86-64 -pg -mfentry) */
extern int cap_fentry_c;        /* every ENTER the C way (tests, makecontext) */
extern int cap_fentry_sse;      /* the assembly ENTER without AVX (cap_fentry.S) */

/* cap_shadow.c (values mode, x86-64 -pg -mfentry; a stub elsewhere) */
extern int cap_test_paths;      /* TTCAP_TEST_PATHS=1: count the C way's records */
extern uint64_t cap_c_enters, cap_c_exits;      /* (atomic) ENTERs, EXITs so */
extern int cap_fexit_c;         /* every EXIT the C way (tests) */
void cap_values_thread_end(void);
void cap_values_jump(uintptr_t sp);

/* cap_interpose.c */
void cap_sync_chaos_on(void);
void cap_vfork_child(void);     /* the halves of vfork (cap_vfork.S) */
void cap_vfork_parent(int pid);
int cap_vfork_failed(int err);
void cap_jumps_prime(void);     /* the real setjmp/longjmp, found at start */
void cap_waits_prime(void);     /* the real wait functions, found at start */
/* The next definition of name (dlsym RTLD_NEXT), found once into *slot. */
void *cap_next_fn(void *_Atomic *slot, const char *name);

/* cap_policy.c */
void cap_policy_hooks(struct cap_hooks *h);
void cap_thread_end(void *arg);

/* cap_init.c */
int cap_start(const char *parent_trace, int forked);

#endif
