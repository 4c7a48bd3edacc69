/*
 * cap_core.c - the capture fast path: the -finstrument-functions hooks, the
 * per-thread chunk writer, chunk claiming and file growth, a thread's first
 * and last records. The mechanism at the bottom of capture/ (capture/STAGES:
 * only the ELF leaf is below it): it calls nothing above it by name. What a
 * thread owes at a new chunk (names, modules, ring-mode definitions) is
 * policy, reached through cap_hooks (cap_policy.c fills it at trace start);
 * a thread's end is the policy calling cap_thread_ending and
 * cap_thread_close around its own records.
 *
 * Design. The trace file is a header page followed by fixed-size chunks.
 * Every thread writes only into its own chunk, which is mmap'd MAP_SHARED
 * straight from the file: a byte stored is in the page cache at once, so a
 * SIGSEGV, abort() or SIGKILL of the process loses nothing already written,
 * with no flush, no daemon and no second process. A thread claims a chunk
 * with one atomic increment of cap.next_chunk; the file grows in steps of
 * CAP_GROW chunk slots under a spin lock (ftruncate: the slots are holes,
 * costing no disk). A slot is written with zeros (pwrite, so a full disk
 * shows up as an error there rather than as SIGBUS later) only as far as
 * its thread uses it: a thread's first chunk starts with CAP_FILL_MIN bytes
 * and doubles in place when full (fill_more), later chunks are filled
 * whole. The layout stays the slot grid, so a killed process leaves a file
 * every reader reads as before (a hole reads as zeros: end of data). At a
 * clean end (cap_file_shrink) the file is cut after the last slot, or,
 * when no other thread can write any more, just after the last record of
 * the last slot (the header's end_offset says so); a thread that ends
 * punches the unused rest of its chunk out. So a process of 500 events
 * leaves about 20 KiB, not the 4 MiB of a growth step.
 *
 * A hot event (ENTER/EXIT) costs: the global flag, one compare of pos with
 * limit (NULL/NULL for threads that are new, cut or done, so they all take
 * the slow path), the 64-slot function cache lookup, optionally rdtsc, and
 * a few stores. Hits take 1 tag byte + a 1-2 byte delta. No lock, no malloc,
 * no system call, no stdio unless the chunk is full.
 *
 * Torn records cannot happen: the bytes after the tag are stored first, the
 * tag last (behind a compiler barrier), then pos advances. Unwritten bytes of
 * a chunk are zero, which reads as end-of-data. A signal arriving while the
 * thread is inside a write finds busy set and its events are dropped and
 * counted (LOST), so the half-written record is never overwritten. Each
 * chunk keeps CAP_RESERVE bytes at its end so CUT, CRASH and END always fit.
 *
 * Cuts. A thread that cannot get a chunk (disk full, a write error, the
 * file size limit RLIMIT_FSIZE) is cut: its old chunk ends with a CUT
 * record and its events are counted, not written, in the file header's cut
 * fields (TTF_OPT_CUTINFO): its own entry of the cut table (a plain store
 * per lost event, so the count survives SIGKILL) and the total cut_events
 * (atomic adds every 256 events and when the thread resumes, ends, exits,
 * crashes). A thread cut before its first chunk is in the table too, so no
 * thread vanishes. After a failed claim no thread tries again for a
 * back-off (10 ms doubling to 1 s): a full file system is not asked again
 * by every thread every few thousand events (each failed fallocate of a
 * large chunk on tmpfs allocates and frees it all). A claim never passes
 * RLIMIT_FSIZE (read at each growth): the kernel would kill the program
 * with SIGXFSZ; SIGXFSZ is also blocked around the writes and one they
 * raise taken back, in case the limit drops under us.
 */
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cap_int.h"
#include "cap_vstr.h"

struct capture cap = { .fd = -1, .grow_lock = ATOMIC_FLAG_INIT,
                       .mod_lock = ATOMIC_FLAG_INIT, .site_lock = ATOMIC_FLAG_INIT };
int cap_on;
__thread struct tstate cap_tls __attribute__((tls_model("initial-exec")));
struct cap_hooks cap_hooks;

static void slow_event(struct tstate *t, uintptr_t a, uintptr_t site, int is_exit);

/* ---- the hot path --------------------------------------------------------- */

/* In a values chunk (a thread that also runs -pg -mfentry code) every
 * ENTER carries an argument mask and every EXIT a return value: these hooks
 * see neither, so they write mask 0 (arguments as at the previous ENTER,
 * no SSE register given: one zero byte) and return value 0 with xmm0
 * unchanged (two). An ENTER carries its call site
 * (format 1.2): nothing more when it is the site predicted (FORMAT.md
 * 4.3), else a prefix before it, written out of line (put_enter_moved),
 * whose tag is then the one committed last; that path also finds the
 * prediction the fast test leaves to it (a slot's way 0: no prefix). */
static __attribute__((noinline)) void put_enter_moved(struct tstate *t, uintptr_t a,
                                                      uintptr_t site)
{
    uint8_t tag, ptag = 0, *p = t->pos;
    uint8_t *e = cap_site_prefix(t, p, a, site, &ptag);
    uint8_t *q = cap_hot_head(t, e, a, TTF_T_ENTER_HIT, TTF_T_ENTER_MISS, &tag);
    if (t->vals)
        *q++ = 0;
    if (e != p)
        *e = tag;
    cap_commit(t, p, e != p ? ptag : tag, q);
}

static inline __attribute__((always_inline))
void put_hot(struct tstate *t, uintptr_t a, uintptr_t site, uint8_t hit, uint8_t miss)
{
    uint8_t tag, *p = t->pos;
    if (hit == TTF_T_ENTER_HIT && !cap_site_same(t, a, site)) {
        put_enter_moved(t, a, site);        /* out of line: a prefix first */
        return;
    }
    uint8_t *q = cap_hot_head(t, p, a, hit, miss, &tag);
    if (t->vals) {
        *q++ = 0;
        if (hit != TTF_T_ENTER_HIT)
            *q++ = 0;           /* EXIT: xmm0 as at the previous EXIT */
    }
    atomic_signal_fence(memory_order_release);
    *(volatile uint8_t *)p = tag;
    atomic_signal_fence(memory_order_release);
    t->pos = q;
}

static inline __attribute__((always_inline)) void enter_event(void *fn, void *call_site)
{
    struct tstate *t = &cap_tls;
    if (__builtin_expect(t->pos >= t->limit || t->busy, 0)) {
        slow_event(t, (uintptr_t)fn, (uintptr_t)call_site, 0);
        return;
    }
    t->busy = CAP_BUSY_HOT;
    atomic_signal_fence(memory_order_seq_cst);
    put_hot(t, (uintptr_t)fn, (uintptr_t)call_site, TTF_T_ENTER_HIT, TTF_T_ENTER_MISS);
    t->depth++;
    atomic_signal_fence(memory_order_seq_cst);
    t->busy = 0;
}

/* cap_on == CAP_ON_CHAOS: chaos mode at function entries (cap_chaos.c),
 * then the event. Out of line and reached by a tail call, so the hook's
 * own path keeps no frame. */
static __attribute__((noinline, cold)) void enter_chaos(void *fn, void *call_site)
{
    cap_chaos_point(&cap_tls, CAP_CHAOS_ENTRY);
    enter_event(fn, call_site);
}

__attribute__((visibility("default")))
void __cyg_profile_func_enter(void *fn, void *call_site)
{
    if (__builtin_expect(cap_on != 1, 0)) {
        if (!cap_on)
            return;
        enter_chaos(fn, call_site);
        return;
    }
    enter_event(fn, call_site);
}

/* our own hook's address: &__cyg_profile_func_enter in this library goes
 * through the GOT and may be another object's (glibc's) */
extern __typeof__(__cyg_profile_func_enter) cap_hook_enter
    __attribute__((alias("__cyg_profile_func_enter")));

__attribute__((visibility("default")))
void __cyg_profile_func_exit(void *fn, void *call_site)
{
    (void)call_site;
    if (!cap_on)
        return;
    struct tstate *t = &cap_tls;
    if (__builtin_expect(t->pos >= t->limit || t->busy, 0)) {
        slow_event(t, (uintptr_t)fn, 0, 1);
        return;
    }
    t->busy = CAP_BUSY_HOT;
    atomic_signal_fence(memory_order_seq_cst);
    put_hot(t, (uintptr_t)fn, 0, TTF_T_EXIT_HIT, TTF_T_EXIT_MISS);
    t->depth--;
    atomic_signal_fence(memory_order_seq_cst);
    t->busy = 0;
}

/* ---- chunks ----------------------------------------------------------------- */

void cap_spin_lock(atomic_flag *f)
{
    while (atomic_flag_test_and_set_explicit(f, memory_order_acquire))
        sched_yield();
}

void cap_spin_unlock(atomic_flag *f)
{
    atomic_flag_clear_explicit(f, memory_order_release);
}

/* RLIMIT_FSIZE in bytes, UINT64_MAX when there is none. */
uint64_t cap_fsize_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_FSIZE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
        return UINT64_MAX;
    return (uint64_t)rl.rlim_cur;
}

void cap_xfsz_hold(struct cap_xfsz *g)
{
    sigset_t x;
    sigemptyset(&x);
    sigaddset(&x, SIGXFSZ);
    pthread_sigmask(SIG_BLOCK, &x, &g->old);
    sigset_t now;
    g->pending = sigpending(&now) == 0 && sigismember(&now, SIGXFSZ);
}

void cap_xfsz_release(struct cap_xfsz *g)
{
    sigset_t now;
    if (!g->pending && sigpending(&now) == 0 && sigismember(&now, SIGXFSZ)) {
        sigset_t x;
        sigemptyset(&x);
        sigaddset(&x, SIGXFSZ);
        struct timespec zero = { 0, 0 };
        sigtimedwait(&x, NULL, &zero);  /* ours: the write that passed the limit */
    }
    pthread_sigmask(SIG_SETMASK, &g->old, NULL);
}

/* The reason a write failed with errno e. */
static int why_of(int e)
{
    return e == ENOSPC || e == EDQUOT ? CAP_WHY_FULL : e == EFBIG ? CAP_WHY_LIMIT : CAP_WHY_IO;
}

/* After a failed claim: nobody tries again before the back-off is over. */
static _Atomic int last_why = CAP_WHY_FULL;

static void claim_failed(int why)
{
    uint64_t w = cap.retry_wait ? cap.retry_wait * 2 : 10000000u;
    if (w > 1000000000u)
        w = 1000000000u;
    cap.retry_wait = w;         /* racy, harmless: only a delay */
    atomic_store(&last_why, why);
    atomic_store(&cap.retry_at, cap_clock_ns(CLOCK_MONOTONIC_COARSE) + w);
}

static int retry_due(void)
{
    uint64_t at = atomic_load_explicit(&cap.retry_at, memory_order_relaxed);
    return !at || cap_clock_ns(CLOCK_MONOTONIC_COARSE) >= at;
}

/* Free bytes on the trace's file system (the root's reserve counted for
 * root), UINT64_MAX when unknown. */
static uint64_t disk_room(void)
{
    struct statfs sf;
    if (fstatfs(cap.fd, &sf) != 0 || sf.f_blocks == 0)
        return UINT64_MAX;
    uint64_t blocks = geteuid() == 0 ? (uint64_t)sf.f_bfree : (uint64_t)sf.f_bavail;
    return blocks * (uint64_t)sf.f_bsize;
}

/* Grow the file from have to want chunks (want > chunk), never past
 * RLIMIT_FSIZE. 0 or a CAP_WHY_* reason. Under grow_lock. */
static int grow_locked(uint64_t chunk, uint64_t have, uint64_t want)
{
    uint64_t limit = cap_fsize_limit();
    uint64_t fit = limit < TTF_DATA_OFFSET ? 0 : (limit - TTF_DATA_OFFSET) / cap.chunk_size;
    if (want > fit)
        want = fit;             /* a step would pass the file size limit */
    if (want <= chunk)
        return CAP_WHY_LIMIT;
    off_t from = (off_t)(TTF_DATA_OFFSET + have * cap.chunk_size);
    off_t len = (off_t)((want - have) * cap.chunk_size);
    uint64_t room = disk_room();
    if ((uint64_t)len > room && want > chunk + 1) {
        want = chunk + 1;       /* a nearly full disk: the chunks needed now */
        len = (off_t)((want - have) * cap.chunk_size);
    }
    if ((uint64_t)len > room)
        return CAP_WHY_FULL;    /* asked of no file system: a failed fallocate
                                   of a large chunk on tmpfs fills it, then frees */
    /* holes: the disk is taken by zero_fill, as each part is used */
    int e = ftruncate(cap.fd, from + len);  /* only ever grows: from = size */
    if (e != 0)
        return why_of(errno);
    atomic_store_explicit(&cap.cap_chunks, want, memory_order_release);
    return 0;
}

/* Make the file long enough to hold chunk: 0, or a CAP_WHY_* reason (disk
 * full, file size limit, I/O error; also while the back-off after such a
 * failure lasts). */
int cap_grow(uint64_t chunk)
{
    if (chunk < atomic_load_explicit(&cap.cap_chunks, memory_order_acquire))
        return 0;
    if (!retry_due())
        return atomic_load(&last_why);
    int why = 0;
    struct cap_xfsz g;
    int was = cap_cancel_off();         /* fallocate, with grow_lock held */
    cap_xfsz_hold(&g);
    cap_spin_lock(&cap.grow_lock);
    uint64_t have = atomic_load(&cap.cap_chunks);
    if (chunk >= have)
        why = grow_locked(chunk, have, (chunk / CAP_GROW + 1) * CAP_GROW);
    cap_spin_unlock(&cap.grow_lock);
    cap_xfsz_release(&g);
    cap_cancel_restore(was);
    if (why)
        claim_failed(why);
    return why;
}

/* Ring mode: pick the chunk to reuse, or 0 with *c unset if the thread has
 * not used its share yet. The first chunk (seq 0) is never reused. */
static int ring_pick(struct tstate *t, uint64_t *c)
{
    if (!cap.ring_n || !t->ring || t->ring_cnt < cap.ring_n)
        return 0;
    *c = t->ring[t->ring_head];
    t->ring_head = (t->ring_head + 1) % cap.ring_n;
    return 1;
}

static void ring_note(struct tstate *t, uint64_t c)
{
    if (!cap.ring_n || t->seq == 0)
        return;
    if (!t->ring) {
        void *m = mmap(NULL, cap.ring_n * sizeof(uint64_t), PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED)
            return;
        t->ring = m;
    }
    t->ring[t->ring_cnt++] = c;
}

/* Write zeros over a fresh chunk's extent before it is mapped: fallocate
 * leaves unwritten extents, and faulting those in page by page through the
 * mapping costs the hot path (measured: TT_LOG 29.7 -> 24.7 ns). A short
 * write here is a full disk, found in the slow path. 0 or a CAP_WHY_*. */
static int zero_fill(off_t off, size_t len)
{
    static const uint8_t zeros[64 * 1024];
    size_t done = 0;
    while (done < len) {
        size_t n = len - done < sizeof zeros ? len - done : sizeof zeros;
        ssize_t w = pwrite(cap.fd, zeros, n, off + (off_t)done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return w < 0 ? why_of(errno) : CAP_WHY_FULL;
        done += (size_t)w;
    }
    return 0;
}

/* Fault the first len bytes of a fresh mapping in now, in the slow path:
 * 0, or -1 when there is no space behind them (EFAULT: a file system
 * without allocation at write), which later writes would die of. */
static int populate(uint8_t *m, size_t len)
{
#ifdef MADV_POPULATE_WRITE
    if (madvise(m, len, MADV_POPULATE_WRITE) != 0 && errno == EFAULT)
        return -1;
#else
    (void)m;
    (void)len;
#endif
    return 0;
}

/* The write limit of a chunk being filled. A fork from a signal handler
 * that interrupted this very write parks the child (fork_park: limit
 * NULL, refork set) so that its next event takes the slow way and starts
 * its own trace; a limit stored after the fork would send the child's
 * events, unseen, into the parent's chunk (its private copy): so it is
 * checked again after the store. */
static inline void set_limit(struct tstate *t, uint8_t *limit)
{
    t->limit = limit;
    atomic_signal_fence(memory_order_seq_cst);
    if (__builtin_expect(t->refork, 0))
        t->limit = NULL;
}

/* Make room for need more bytes below limit in the current chunk by
 * filling more of its slot (doubling what is filled, up to the slot):
 * 1 when they fit, 0 when the slot is used up or the disk refused (the
 * caller then switches chunks, or cuts). */
static int fill_more(struct tstate *t, size_t need)
{
    while (t->pos + need > t->limit) {
        if (!t->base || t->filled >= cap.chunk_size)
            return 0;
        uint32_t add = t->filled;
        if (add > cap.chunk_size - t->filled)
            add = cap.chunk_size - t->filled;
        off_t off = (off_t)(TTF_DATA_OFFSET + t->chunk * cap.chunk_size + t->filled);
        struct cap_xfsz g;
        int was = cap_cancel_off();     /* pwrite: a pending cancel waits */
        cap_xfsz_hold(&g);
        int why = zero_fill(off, add);
        cap_xfsz_release(&g);
        cap_cancel_restore(was);
        if (why && errno == EBADF && cap_file_ours() == 0)
            why = 0;            /* the program closed our descriptor (daemon
                                   style): populating the mapping allocates */
        if (why || populate(t->base + t->filled, add) != 0)
            return 0;
        t->filled += add;
        set_limit(t, t->base + t->filled - CAP_RESERVE);
    }
    return 1;
}

/* A new chunk index with room in the file behind it: 0 (*c set) or a
 * CAP_WHY_* reason. The index is taken only once the file holds it, so
 * failed claims leave no holes that a later growth would have to fill. */
static int take_index(uint64_t *c)
{
    uint64_t n = atomic_load(&cap.next_chunk);
    for (;;) {
        int why = cap_grow(n);
        if (why)
            return why;
        if (atomic_compare_exchange_weak(&cap.next_chunk, &n, n + 1))
            break;
    }
    *c = n;
    return 0;
}

/* The file header of a trace with values: TTF_REQ_VALUES and TTF_REQ_XMM
 * (once), minor version at least 5 (format 1.5: its values chunks carry the SSE
 * registers too), or 6 and TTF_OPT_STRINGS with a string table (format
 * 1.6: STRINGS records, cap_vstr.h); a lazy trace's values chunks are
 * lazy too: TTF_REQ_VLAZY and 8 (format 1.8).
 * Called at the claim of a values chunk and when a thread turns values on
 * (cap_shadow.c). A table that appears later (a library's, found by
 * cap_modules.c) calls cap_values_strings_on: each side looks at the
 * other's word after writing its own, so one of them sets the 1.6 header. */
static void header_minor(uint8_t *h, uint16_t minor)
{
    uint16_t *v = (uint16_t *)(void *)(h + TTF_H_VMINOR);
    uint16_t was = __atomic_load_n(v, __ATOMIC_RELAXED);
    /* never lowered: a lazy trace (1.7, 1.8) keeps it when strings come */
    while (was < minor && !__atomic_compare_exchange_n(v, &was, minor, 0, __ATOMIC_RELAXED,
                                                       __ATOMIC_RELAXED))
        ;
}

static void header_strings(uint8_t *h)
{
    __atomic_fetch_or((uint32_t *)(void *)(h + TTF_H_OPT), TTF_OPT_STRINGS, __ATOMIC_RELAXED);
    header_minor(h, 6);
}

void cap_values_chunk(void)
{
    uint8_t *h = cap.hdr;
    if (!h)
        return;
    uint32_t *req = (uint32_t *)(void *)(h + TTF_H_REQ);
    int vlazy = cap.timed >= CAP_CLOCK_LAZY;    /* lazy values chunks: 1.8 */
    uint32_t want = TTF_REQ_VALUES | TTF_REQ_XMM | (vlazy ? TTF_REQ_VLAZY : 0);
    if ((__atomic_load_n(req, __ATOMIC_ACQUIRE) & want) == want)
        return;
    if (vlazy)
        header_minor(h, 8);
    else if (!cap_vt_on())
        header_minor(h, 5);
    __atomic_fetch_or(req, want, __ATOMIC_SEQ_CST);
    if (__atomic_load_n(&cap_vt.w, __ATOMIC_SEQ_CST))  /* string records may follow */
        header_strings(h);
}

void cap_values_strings_on(void)
{
    uint8_t *h = cap.hdr;
    if (h && __atomic_load_n((uint32_t *)(void *)(h + TTF_H_REQ), __ATOMIC_SEQ_CST) & TTF_REQ_XMM)
        header_strings(h);
}

/* Map a fresh (or recycled) chunk and write its header, magic last.
 * Returns 0, or a CAP_WHY_* reason. The old chunk is left alone. */
static int claim_chunk_now(struct tstate *t, int *recycled)
{
    uint64_t c = 0;
    if (!t->sites) {            /* the thread's call-site state (cap_site) */
        void *st = mmap(NULL, CAP_SITES_MAP, PROT_READ | PROT_WRITE,
                        MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (st == MAP_FAILED)
            return CAP_WHY_FULL;
        t->sites = st;
    }
    *recycled = ring_pick(t, &c);
    if (cap.fail_after && atomic_fetch_add(&cap.claims, 1) >= cap.fail_after)
        return CAP_WHY_IO;      /* TTCAP_TEST_FAIL_AFTER: injected failure */
    int why = *recycled ? 0 : take_index(&c);
    if (why)
        return why;
    off_t off = (off_t)(TTF_DATA_OFFSET + c * cap.chunk_size);
    /* a thread's first chunk is filled a little at a time (fill_more):
     * a thread of 2 calls does not cost a whole slot of disk */
    uint32_t fill = cap.chunk_size;
    if (!*recycled && t->seq == 0 && !cap.ring_n && fill > CAP_FILL_MIN)
        fill = CAP_FILL_MIN;
    if (!*recycled && (why = zero_fill(off, fill)) != 0) {
        claim_failed(why);
        return why;
    }
    uint8_t *m = mmap(NULL, cap.chunk_size, PROT_READ | PROT_WRITE, MAP_SHARED,
                      cap.fd, off);
    if (m == MAP_FAILED)
        return CAP_WHY_IO;
    if (populate(m, fill) != 0) {
        munmap(m, cap.chunk_size);
        return CAP_WHY_FULL;
    }
    if (*recycled) {
        __atomic_store_n((uint32_t *)m, 0u, __ATOMIC_RELEASE);
        memset(m + 4, 0, cap.chunk_size - 4);
    } else {
        ring_note(t, c);
    }
    uint64_t tsc = cap_tsc();
    ttf_put_u32(m + TTF_C_THREAD, t->index);
    ttf_put_u32(m + TTF_C_SEQ, t->seq++);
    ttf_put_u16(m + TTF_C_FLAGS, (uint16_t)((t->timed ? TTF_CHUNK_TIMED : 0) |
                                            (t->timed >= CAP_CLOCK_SPARSE ? TTF_CHUNK_SPARSE : 0) |
                                            (t->timed >= CAP_CLOCK_LAZY ? TTF_CHUNK_LAZY : 0) |
                                            (t->timed == CAP_CLOCK_CHAIN ? TTF_CHUNK_CHAIN : 0) |
                                            (t->vals ? TTF_CHUNK_VALUES | TTF_CHUNK_XMM : 0)));
    if (t->vals)
        cap_values_chunk();
    ttf_put_u16(m + TTF_C_HSIZE, TTF_CHUNK_HDR);
    ttf_put_u32(m + TTF_C_DEPTH, (uint32_t)t->depth);
    ttf_put_u64(m + TTF_C_TSC, tsc);
    ttf_put_u64(m + TTF_C_MONO, cap_clock_ns(CLOCK_MONOTONIC));
    ttf_put_u64(m + TTF_C_REAL, cap_clock_ns(CLOCK_REALTIME));
    atomic_thread_fence(memory_order_release);
    ttf_put_u32(m, TTF_CHUNK_MAGIC);
    t->base = m;
    t->chunk = c;
    t->pos = m + TTF_CHUNK_HDR;
    t->filled = fill;
    set_limit(t, m + fill - CAP_RESERVE);
    t->tsc = tsc;
    t->ux = 0;                  /* the header's tsc is a measured time */
    if (t->prev)
        cap.any_calls = 1;
    t->prev = 0;
    memset(t->cache, 0, sizeof t->cache);
    memset(t->sites, 0, CAP_SITES_MAP);        /* and the SSE state */
    memset(t->vprev, 0, sizeof t->vprev);
    memset(t->vstride, 0, sizeof t->vstride);
    return 0;
}

/* Every asynchronous signal blocked in the calling thread, its mask before
 * in *old (pthread_sigmask(SIG_SETMASK, old, NULL) puts it back): faults
 * stay deliverable, as a blocked one kills. Around the moments of ours a
 * handler that forks must not interrupt. */
void cap_async_hold(sigset_t *old)
{
    sigset_t all;
    sigfillset(&all);
    sigdelset(&all, SIGSEGV);
    sigdelset(&all, SIGBUS);
    sigdelset(&all, SIGILL);
    sigdelset(&all, SIGFPE);
    sigdelset(&all, SIGTRAP);
    sigdelset(&all, SIGSYS);
    pthread_sigmask(SIG_BLOCK, &all, old);
}

/* dl_iterate_phdr with asynchronous signals blocked: every walk of ours
 * (a chunk switch, a thread's end, the dlopen and dlclose interposers)
 * goes through here. glibc walks with the loader's lock held, a
 * recursive mutex, and a handler that forks there (tests/e2e/
 * capture_sigfork.sh) leaves the child that lock for ever: the child's
 * copy of the walk resumes but cannot unlock a mutex owned by its
 * parent's thread, so the child's next dl_iterate_phdr, dlopen, or exit
 * under ASan (the leak check walks the modules) waits for ever. The
 * program never held that lock at the moment; we would have. A signal
 * sent meanwhile is handled once the walk is done. */
static _Atomic int walks;       /* module walks of ours in progress */
static _Atomic int forking;     /* a fork is being prepared */

int cap_dl_iterate(int (*cb)(struct dl_phdr_info *, size_t, void *), void *arg)
{
    sigset_t old;
    cap_async_hold(&old);
    while (atomic_fetch_add(&walks, 1), atomic_load(&forking)) {
        atomic_fetch_sub(&walks, 1);    /* not now: after the fork */
        while (atomic_load(&forking))
            sched_yield();
    }
    int rc = dl_iterate_phdr(cb, arg);
    atomic_fetch_sub(&walks, 1);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return rc;
}

/* Another thread's walk holds the loader's lock as the first one did a
 * signal handler's: a fork then leaves the child that lock for ever
 * (glibc resets its other loader lock in the child, not this one). So a
 * fork waits, at most 200 ms as for the module table, until no walk of
 * ours is in progress, and no walk begins until it is done (the program's
 * own walks, an unwinder's, are its business). */
void cap_walks_fork_prepare(void)
{
    atomic_store(&forking, 1);
    uint64_t until = cap_clock_ns(CLOCK_MONOTONIC) + 200000000u;
    while (atomic_load(&walks) > 0 && cap_clock_ns(CLOCK_MONOTONIC) < until)
        sched_yield();
}

/* After the fork, in the parent and the child (whose other threads, and
 * their walks, are gone). */
void cap_walks_fork_done(int child)
{
    if (child)
        atomic_store(&walks, 0);
    atomic_store(&forking, 0);
}

/* claim_chunk_now with cancellation off: pwrite and fallocate are
 * cancellation points, and a thread cancelled there (a pending
 * pthread_cancel meeting a chunk switch) would unwind out of libttcap with
 * the grow lock held and its busy flag set, taking every other thread's
 * next chunk and its own later records with it. Asynchronous signals wait
 * too: a handler that forks between the mmap and the store of t->base
 * would leave the child a shared mapping of the parent's file that nothing
 * in the child knows of, and the claim, finishing there, would write a
 * chunk header into the parent's trace (fork_child, cap_init.c, makes
 * t->base and the header private instead). */
static int claim_chunk(struct tstate *t, int *recycled)
{
    struct cap_xfsz g;
    sigset_t old;
    cap_async_hold(&old);
    int was = cap_cancel_off();
    cap_xfsz_hold(&g);
    int why = claim_chunk_now(t, recycled);
    cap_xfsz_release(&g);
    cap_cancel_restore(was);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return why;
}

/* Where a terminal record (CUT, CRASH, END, LOST) goes: the current
 * position even inside the reserve, NULL without a chunk. */
uint8_t *cap_reserve_room(struct tstate *t)
{
    return t->state == TS_LIVE && t->pos && !t->vforked && !t->refork ? t->pos : NULL;
}

static void write_cut(struct tstate *t, int why)
{
    uint8_t *p = cap_reserve_room(t);
    if (!p)
        return;
    uint8_t *q = cap_put_t(t, p + 2);
    *q++ = (uint8_t)why;
    cap_commit(t, p, TTF_R_CUT, cap_ext_close(p, q));
}

static void write_lost(struct tstate *t, uint64_t n, int why)
{
    uint8_t *p = cap_room(t, 40);
    if (!p)
        return;
    uint8_t *q = cap_put_t(t, p + 2);
    q = ttf_put_uvar(q, n);
    q = ttf_put_uvar(q, 0);
    *q++ = (uint8_t)why;
    cap_commit(t, p, TTF_R_LOST, cap_ext_close(p, q));
}

/* Write the LOST records the thread owes (events dropped while cut off,
 * or while a signal handler interrupted a record being written). Only
 * with a chunk: a cut thread's count stays in the header (cut fields). */
void cap_flush_lost(struct tstate *t)
{
    if (t->state != TS_LIVE)
        return;
    /* taken by one exchange: a signal handler that finds the thread busy
       counts one more between a read and a reset, and that count would be
       gone */
    if (t->lost) {
        uint64_t n = __atomic_exchange_n(&t->lost, 0, __ATOMIC_RELAXED);
        write_lost(t, n, t->cut_why ? t->cut_why : CAP_WHY_FULL);
    }
    if (t->lost_nested) {
        uint64_t n = __atomic_exchange_n(&t->lost_nested, 0, __ATOMIC_RELAXED);
        write_lost(t, n, CAP_WHY_NESTED);
    }
}

/* ---- cuts: the header's cut fields (TTF_OPT_CUTINFO) ------------------------ */

static uint8_t *cut_entry(const struct tstate *t)
{
    return cap.hdr && t->cut_slot > 0
               ? cap.hdr + TTF_CUT_TABLE + (size_t)(t->cut_slot - 1) * TTF_CUT_ENTRY
               : NULL;
}

static void cut_flags(const struct tstate *t, uint32_t set)
{
    uint8_t *e = cut_entry(t);
    if (e)
        __atomic_fetch_or((uint32_t *)(void *)(e + TTF_CUTE_FLAGS), set, __ATOMIC_RELAXED);
}

/* The thread is cut (why): its entry in the cut table, taken once (a
 * thread cut again after a resume keeps it); nochunk: it never had a
 * chunk. The first cut of the process sets cut_reason and its time. */
static void cut_enter(struct tstate *t, int why, int nochunk)
{
    uint8_t *h = cap.hdr;
    t->cut_why = (uint8_t)why;
    if (!h || t->cut_slot)
        return;
    uint32_t n = __atomic_fetch_add((uint32_t *)(void *)(h + TTF_H_CUTTHR), 1u, __ATOMIC_RELAXED);
    uint64_t now = cap_clock_ns(CLOCK_REALTIME);
    uint32_t none = 0;
    if (__atomic_compare_exchange_n((uint32_t *)(void *)(h + TTF_H_CUTWHY), &none, (uint32_t)why,
                                    0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        __atomic_store_n((uint64_t *)(void *)(h + TTF_H_CUTTIME), now, __ATOMIC_RELAXED);
    if (n >= TTF_CUT_ENTRIES) {
        t->cut_slot = -1;       /* in the totals only */
        return;
    }
    uint8_t *e = h + TTF_CUT_TABLE + (size_t)n * TTF_CUT_ENTRY;
    ttf_put_u32(e + TTF_CUTE_TID, (uint32_t)syscall(SYS_gettid));
    ttf_put_u64(e + TTF_CUTE_LOST, t->lost + t->lost_nested);
    ttf_put_u64(e + TTF_CUTE_TIME, now);
    ttf_put_u32(e + TTF_CUTE_FLAGS, nochunk ? TTF_CUTF_NOCHUNK : 0);
    ttf_put_u32(e + TTF_CUTE_REASON, (uint32_t)why);
    __atomic_store_n((uint32_t *)(void *)(e + TTF_CUTE_THREAD), t->index + 1, __ATOMIC_RELEASE);
    t->cut_slot = (int32_t)n + 1;
}

/* Add the thread's lost events not yet in the header's cut_events. */
void cap_cut_publish(struct tstate *t)
{
    uint64_t pend = t->lost + t->lost_nested;
    if (!cap.hdr || t->state != TS_CUT || pend <= t->cut_pub)
        return;
    __atomic_fetch_add((uint64_t *)(void *)(cap.hdr + TTF_H_CUTEV), pend - t->cut_pub,
                       __ATOMIC_RELAXED);
    t->cut_pub = pend;
}

/* One event (or record) a cut thread could not write. */
static void cut_count(struct tstate *t)
{
    t->lost++;
    uint64_t pend = t->lost + t->lost_nested;
    uint8_t *e = cut_entry(t);
    if (e)
        __atomic_store_n((uint64_t *)(void *)(e + TTF_CUTE_LOST), pend, __ATOMIC_RELAXED);
    if (pend - t->cut_pub >= 256)
        cap_cut_publish(t);
}

/* A cut thread tries for a chunk now and then: every 1024 lost events,
 * once the back-off after the last failed claim is over. */
static void cut_retry(struct tstate *t)
{
    if ((t->lost & 0x3ff) == 0x3ff && retry_due())
        cap_switch_chunk(t);
}

/* A cut thread got a chunk again: THREAD_START if it never wrote one, a
 * LOST record for its gap, and that count taken back off the header. */
static void cut_resume(struct tstate *t)
{
    uint64_t pub = t->cut_pub;
    uint8_t *e = cut_entry(t);
    if (!t->started)
        cap_write_thread_start(t);
    cap_flush_lost(t);
    if (e) {
        __atomic_store_n((uint64_t *)(void *)(e + TTF_CUTE_LOST), t->lost + t->lost_nested,
                         __ATOMIC_RELAXED);
        cut_flags(t, TTF_CUTF_RESUMED);
    }
    if (pub && cap.hdr)
        __atomic_fetch_sub((uint64_t *)(void *)(cap.hdr + TTF_H_CUTEV), pub, __ATOMIC_RELAXED);
    t->cut_pub = 0;
}

/* A cut thread ends (its key destructor): the header gets its count and
 * its entry the ENDED flag. */
void cap_cut_thread_end(struct tstate *t)
{
    if (t->state != TS_CUT)
        return;
    cap_cut_publish(t);
    cut_flags(t, TTF_CUTF_ENDED);
    t->state = TS_DONE;
}

/* The chunk is full (or the thread has none): move to a new one. On
 * failure the old chunk gets a CUT record and the thread counts losses. */
void cap_switch_chunk(struct tstate *t)
{
    uint8_t *old = t->base;
    int recycled, was_cut = t->state == TS_CUT;
    int why = claim_chunk(t, &recycled);
    if (why) {
        write_cut(t, why);
        t->state = TS_CUT;
        t->pos = t->limit = NULL;
        if (old)
            munmap(old, cap.chunk_size);
        t->base = NULL;
        cut_enter(t, why, 0);
        return;
    }
    if (old)
        munmap(old, cap.chunk_size);
    t->state = TS_LIVE;
    if (was_cut)
        cut_resume(t);
    if (cap_hooks.switched)     /* set by cap_start, before any chunk */
        cap_hooks.switched(t, recycled, t->chunk);
}

/* Room for an extended record of need bytes (tag included), switching
 * chunks when needed. NULL when the thread cannot write (a cut thread
 * counts the record as lost; need 0 only begins the thread). */
uint8_t *cap_room(struct tstate *t, size_t need)
{
    if (__builtin_expect(t->vforked, 0))
        return NULL;            /* a vfork child: the parent's memory */
    if (__builtin_expect(t->refork, 0) && t->busy == 1) {
        cap_hooks.refork(t);    /* a fork child's first write of its own */
        if (!cap_on)
            return NULL;
    }
    if (t->state == TS_NEW)
        cap_thread_begin(t);
    if (t->state == TS_CUT)
        cut_retry(t);           /* now and then: space may be back */
    if (t->state == TS_LIVE && t->pos + need > t->limit + CAP_RESERVE / 2 &&
        !fill_more(t, need > CAP_RESERVE / 2 ? need - CAP_RESERVE / 2 : 0))
        cap_switch_chunk(t);
    if (t->state == TS_CUT) {
        if (need)               /* 0: only beginning the thread, no record */
            cut_count(t);
        return NULL;
    }
    /* a fresh chunk starts with records of its own (LOST, ring-mode
     * definitions), and a record larger than a chunk never fits */
    if (t->state != TS_LIVE || t->pos + need > t->limit + CAP_RESERVE / 2)
        return NULL;
    return t->pos;
}

static void slow_event(struct tstate *t, uintptr_t a, uintptr_t site, int is_exit)
{
    if (t->vforked)
        return;                 /* a vfork child: the parent's memory */
    if (t->busy) {
        t->lost_nested++;
        return;
    }
    t->busy = 1;
    atomic_signal_fence(memory_order_seq_cst);
    if (__builtin_expect(t->refork, 0)) {
        cap_hooks.refork(t);    /* a fork child's first event of its own */
        if (!cap_on) {
            t->busy = 0;
            return;
        }
    }
    if (t->state == TS_NEW)
        cap_thread_begin(t);
    else if (t->state == TS_LIVE && t->pos >= t->limit && !fill_more(t, 1))
        cap_switch_chunk(t);
    else if (t->state == TS_CUT)
        cut_retry(t);
    if (t->state == TS_LIVE && t->pos < t->limit) {
        if (is_exit)
            put_hot(t, a, 0, TTF_T_EXIT_HIT, TTF_T_EXIT_MISS);
        else
            put_hot(t, a, site, TTF_T_ENTER_HIT, TTF_T_ENTER_MISS);
    } else if (t->state == TS_CUT) {
        cut_count(t);
    }
    if (t->state != TS_DONE)
        t->depth += is_exit ? -1 : 1;
    atomic_signal_fence(memory_order_seq_cst);
    t->busy = 0;
}

/* n of the thread's innermost open frames were left without an EXIT (how:
 * TTF_UNWIND_*: a longjmp, an exception, or found later by values mode's
 * shadow stack): UNWIND (format 1.3) and the depth back by n, so later
 * calls do not nest under dead frames. The caller holds busy. */
void cap_unwind(struct tstate *t, int how, uint32_t n)
{
    if (!n || t->state == TS_DONE)
        return;
    uint8_t *p = cap_room(t, 24);
    if (p) {
        uint8_t *q = cap_put_t(t, p + 2);
        *q++ = (uint8_t)how;
        q = ttf_put_uvar(q, n);
        cap_commit(t, p, TTF_R_UNWIND, cap_ext_close(p, q));
    }
    t->depth -= (int32_t)n;
}

/* ---- threads ------------------------------------------------------------- */

static void read_name(char *buf)
{
    memset(buf, 0, CAP_NAME_LEN);
    if (prctl(PR_GET_NAME, buf, 0, 0, 0) != 0)
        buf[0] = 0;
    buf[CAP_NAME_LEN - 1] = 0;
}

void cap_write_name(struct tstate *t, const char *name)
{
    size_t n = strnlen(name, CAP_NAME_LEN - 1);
    uint8_t *p = cap_room(t, 16 + n);
    if (!p)
        return;
    uint8_t *q = cap_put_t(t, p + 2);
    q = ttf_put_str(q, name, n);
    cap_commit(t, p, TTF_R_THREAD_NAME, cap_ext_close(p, q));
    if (name != t->name) {
        memcpy(t->name, name, n);
        t->name[n] = 0;
    }
}

/* Record the thread's OS name if it changed since last recorded. */
void cap_check_names(struct tstate *t)
{
    char now[CAP_NAME_LEN];
    t->name_gen = atomic_load(&cap.name_gen);
    read_name(now);
    if (strcmp(now, t->name) != 0)
        cap_write_name(t, now);
}

/* Reset a thread's writer to the untouched state (keeps depth). */
void cap_thread_reset(struct tstate *t)
{
    int32_t depth = t->depth;
    memset(t, 0, sizeof *t);
    t->depth = depth;
}

/* THREAD_START: the thread's tid and OS name. */
void cap_write_thread_start(struct tstate *t)
{
    read_name(t->name);
    t->name_gen = atomic_load(&cap.name_gen);
    size_t n = strlen(t->name);
    uint8_t *p = cap_room(t, 32 + n);
    if (!p)
        return;
    uint8_t *q = cap_put_t(t, p + 2);
    q = ttf_put_uvar(q, (uint64_t)syscall(SYS_gettid));
    q = ttf_put_str(q, t->name, n);
    cap_commit(t, p, TTF_R_THREAD_START, cap_ext_close(p, q));
    t->started = 1;
}

/* First event of a thread (or trace start for the main thread): index,
 * first chunk, THREAD_START. Without a chunk the thread is cut from its
 * start (in the header's cut table), and writes THREAD_START if it gets
 * one later. */
void cap_thread_begin(struct tstate *t)
{
    int32_t depth = t->depth;
    uint32_t given = t->given;
    cap_thread_reset(t);
    t->depth = depth;
    t->timed = (uint8_t)cap.timed;
    t->index = given ? given - 1 : atomic_fetch_add(&cap.next_thread, 1);
    if (cap.key_ok)
        pthread_setspecific(cap.key, (void *)1);
    int why = claim_chunk(t, &(int){ 0 });
    if (why) {
        t->state = TS_CUT;
        t->pos = t->limit = NULL;
        cut_enter(t, why, 1);
        return;
    }
    t->state = TS_LIVE;
    cap_write_thread_start(t);
}

/* The thread is ending (its pthread key destructor, cap_thread_end in
 * cap_policy.c): 1 when it has a chunk to close, with busy set for the
 * caller, who ends with cap_thread_close; 0 when nothing is to be written
 * (a cut thread: its count goes to the header, its cut entry says ENDED).
 * A hot path that will never resume (asynchronous cancellation,
 * pthread_exit from a signal handler) has its partial record dropped. */
int cap_thread_ending(struct tstate *t)
{
    if (t->busy == CAP_BUSY_HOT && t->state == TS_LIVE) {
        memset(t->pos, 0, CAP_VHOT_MAX);
        t->busy = 0;
    }
    if (!cap_on || t->busy)
        return 0;
    if (t->state == TS_CUT)
        cap_cut_thread_end(t);
    if (t->state != TS_LIVE)
        return 0;
    t->busy = 1;
    atomic_signal_fence(memory_order_seq_cst);
    if (t->prev)
        cap.any_calls = 1;
    return 1;
}

/* After cap_thread_ending: the LOST records owed, THREAD_END, and the
 * thread's chunk and ring released; the thread is TS_DONE (busy stays set:
 * the caller clears it). */
void cap_thread_close(struct tstate *t)
{
    cap_flush_lost(t);
    uint8_t *p = cap_room(t, 16);
    if (p) {
        uint8_t *q = cap_put_t(t, p + 2);
        cap_commit(t, p, TTF_R_THREAD_END, cap_ext_close(p, q));
    }
    uint8_t *base = t->base;
    uint64_t *ring = t->ring;
    struct ttf_sites *sites = t->sites;
    if (base)
        cap_chunk_done(t);
    t->pos = t->limit = NULL;
    t->base = NULL;
    t->ring = NULL;
    t->sites = NULL;
    t->state = TS_DONE;
    atomic_signal_fence(memory_order_seq_cst);
    if (base)
        munmap(base, cap.chunk_size);
    if (ring)
        munmap(ring, cap.ring_n * sizeof(uint64_t));
    if (sites)
        munmap(sites, CAP_SITES_MAP);
}

/* ---- call sites -------------------------------------------------------------- */

static size_t bounded(const char *s, size_t cap_len)
{
    return s ? strnlen(s, cap_len) : 0;
}

/* Write the CALLSITE record of s (its id is set). */
void cap_write_site(struct tstate *t, struct ttcap_site *s)
{
    size_t nf = bounded(s->fmt, 1024), nfile = bounded(s->file, 512);
    size_t nfunc = bounded(s->func, 256);
    unsigned nargs = s->nargs > TTCAP_MAX_ARGS ? TTCAP_MAX_ARGS : s->nargs;
    uint8_t *p = cap_room(t, 64 + nargs + nf + nfile + nfunc);
    if (!p)
        return;
    uint8_t *q = ttf_put_uvar(p + 2, s->id);
    *q++ = s->kind;
    q = ttf_put_svar(q, s->level);
    q = ttf_put_uvar(q, (uint64_t)(s->line < 0 ? 0 : s->line));
    q = ttf_put_uvar(q, nargs);
    for (unsigned i = 0; i < nargs; i++)
        *q++ = s->types[i];
    q = ttf_put_str(q, s->fmt ? s->fmt : "", nf);
    q = ttf_put_str(q, s->file ? s->file : "", nfile);
    q = ttf_put_str(q, s->func ? s->func : "", nfunc);
    cap_commit(t, p, TTF_R_CALLSITE, cap_ext_close(p, q));
    if (cap.ring_n)
        s->def_chunk = t->chunk + 1;
}

/* The id of site s, defining it (id + CALLSITE record) on first use. The
 * thread that wins the CAS writes the definition before its message. */
int cap_site_id(struct tstate *t, struct ttcap_site *s)
{
    uint32_t id = __atomic_load_n(&s->id, __ATOMIC_ACQUIRE);
    if (id)
        return (int)id;
    uint32_t fixed = s->nargs <= TTCAP_MAX_ARGS;
    for (unsigned i = 0; fixed && i < s->nargs; i++)
        fixed = s->types[i] != TTCAP_ARG_STR;
    __atomic_store_n(&s->flags, fixed ? TTCAP_SITE_FIXED : 0u, __ATOMIC_RELAXED);
    uint32_t mine = atomic_fetch_add(&cap.next_site, 1) + 1;
    uint32_t expect = 0;
    if (!__atomic_compare_exchange_n(&s->id, &expect, mine, 0, __ATOMIC_ACQ_REL,
                                     __ATOMIC_ACQUIRE))
        return (int)expect;
    cap_write_site(t, s);
    cap_spin_lock(&cap.site_lock);
    s->next = atomic_load(&cap.sites);
    atomic_store(&cap.sites, s);
    cap_spin_unlock(&cap.site_lock);
    return (int)mine;
}

/* ---- a clean end: the disk a trace keeps ------------------------------------ */

/* 1 when cap.fd is still the trace file (the program may have closed it,
 * daemon style, and even opened another file under its number: that one
 * is never cut or punched), 0 when it is closed, -1 when it is another. */
int cap_file_ours(void)
{
    struct stat st;
    if (fstat(cap.fd, &st) != 0)
        return 0;
    return st.st_ino == cap.ino && st.st_dev == cap.dev ? 1 : -1;
}

/* The thread's chunk is finished (it ended, or the process did): note
 * where its data ends, for cap_file_shrink, and give the disk of the
 * unused part of its slot back (a hole reads as zeros: end of data, as
 * before). Not in ring mode (a reused chunk is overwritten whole). */
void cap_chunk_done(struct tstate *t)
{
    if (!t->base || !t->pos || cap.fd < 0 || cap_file_ours() != 1)
        return;
    uint64_t slot = TTF_DATA_OFFSET + t->chunk * cap.chunk_size;
    uint64_t used = (uint64_t)(t->pos - t->base) + 1;   /* one 0x00 ends the data */
    uint64_t end = 1 + slot + used, was = atomic_load(&cap.tail_end);
    while (was < end && !atomic_compare_exchange_weak(&cap.tail_end, &was, end))
        ;                       /* the farthest one: it names its chunk too */
    if (cap.ring_n)
        return;
    uint64_t from = (used + 4095) & ~(uint64_t)4095;
    if (from < t->filled)
        fallocate(cap.fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)(slot + from),
                  (off_t)(t->filled - from));
}

/* 1 when this thread is the process's only one (from /proc; 0 when that
 * cannot be read). Async-signal-safe. */
static int alone(void)
{
    char buf[2048];
    int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return 0;
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    /* after ") ": state ppid pgrp session tty_nr tpgid flags minflt
     * cminflt majflt cmajflt utime stime cutime cstime priority nice
     * num_threads: the 18th field after the name */
    for (int f = 0; p && f < 18; f++)
        p = strchr(p + 1, ' ');
    return p && p[1] == '1' && p[2] == ' ';
}

/* At a clean end (exit, or exec when whole is set: the exec may fail and
 * the trace go on): cut the file after the last slot in use, and when no
 * other thread can write any more, right after the last record of that
 * slot, noting the length in the header's end_offset (a reader then takes
 * the short last slot as ended, not cut). t: the ending thread. Never
 * under a length a mapping is still used at. Async-signal-safe. */
void cap_file_shrink(struct tstate *t, int whole)
{
    if (cap.fd < 0 || !cap.hdr || cap_file_ours() != 1)
        return;
    int was = cap_cancel_off();     /* fallocate, open: an exit() of a
                                       thread with a cancel pending */
    if (!whole)
        cap_chunk_done(t);
    cap_spin_lock(&cap.grow_lock);
    uint64_t n = atomic_load(&cap.next_chunk);
    uint64_t end = TTF_DATA_OFFSET + n * cap.chunk_size;
    uint64_t tail = atomic_load(&cap.tail_end);
    if (!whole && !cap.ring_n && n && tail > TTF_DATA_OFFSET + 1 &&
        (tail - 2 - TTF_DATA_OFFSET) / cap.chunk_size == n - 1 && tail - 1 <= end && alone()) {
        ttf_put_u64(cap.hdr + TTF_H_ENDOFF, tail - 1);
        end = tail - 1;
    }
    if (ftruncate(cap.fd, (off_t)end) == 0)    /* a later claim grows it again */
        atomic_store(&cap.cap_chunks, end == TTF_DATA_OFFSET + n * cap.chunk_size ? n : n - 1);
    cap_spin_unlock(&cap.grow_lock);
    cap_cancel_restore(was);
}
