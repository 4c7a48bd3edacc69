/*
 * cap_values.c - values mode: argument registers on every ENTER and the
 * return value on every EXIT, for code compiled with -pg -mfentry on
 * x86-64 (no source change). The entry points are in cap_fentry.S.
 *
 * Design. -mfentry makes every function call __fentry__ before its
 * prologue, with the argument registers intact: the ENTER record takes
 * them, as a mask of the registers that changed since the previous ENTER of
 * the chunk plus one zigzag delta each (a counter argument costs a byte).
 * The return value is caught the way uftrace and ftrace do: __fentry__
 * replaces the function's return address (at a known stack slot) with
 * cap_ret_tramp and keeps the real one on a per-thread shadow stack, with
 * the slot's address and the function. The function's ret lands in the
 * trampoline, which writes the EXIT with rax and jumps to the real address.
 * The shadow stack is mmap'd and grown with mremap in the slow path, never
 * malloc'd; the fast path is compiled -mgeneral-regs-only so the assembly
 * saves no vector register there.
 *
 * A chunk's TTF_CHUNK_VALUES flag says its ENTER/EXIT records carry values.
 * A thread turns values on at its first -pg event: if its chunk holds no
 * ENTER/EXIT yet (the usual case: only THREAD_START, PROCESS, MODULE) the
 * flag is set in place (those records decode the same either way), else it
 * moves to a new chunk; all its later chunks have the flag, and the file
 * header gets TTF_REQ_VALUES and minor version 1. The -finstrument-
 * functions hooks write mask 0 and return value 0 in such chunks.
 *
 * Frames that never return: the shadow stack is kept by stack address.
 * The trampoline looks for the entry whose slot is the one it returned
 * from and drops the entries above it (frames a longjmp or an exception
 * skipped); an ENTER whose slot is above the top entry's drops the entries
 * below it too, unless the thread runs on its signal stack (a handler there
 * may sit above the interrupted frames). Skipped frames get no EXIT record,
 * as with -finstrument-functions after a longjmp: readers close them at the
 * next EXIT of an outer frame. A tail call enters a second function on an
 * already hooked slot: both get an entry with that slot and both an EXIT
 * with the one return value, innermost first. C++ exceptions,
 * pthread_exit and pthread_cancel walk the stack with the unwinder, which
 * cannot walk through the trampoline: the interposers below put every real
 * return address back first, and __cxa_begin_catch hooks the frames still
 * live again. glibc's cancellation calls the unwinder through its own
 * handle on libgcc_s, past the interposers: there the trampoline's unwind
 * entry (cap_fentry.S) has a personality routine that does the same.
 *
 * Stack switching (makecontext/swapcontext) cannot be followed: a
 * coroutine's frames are on another stack, so their slots say nothing of
 * their order. makecontext (wrapped in cap_fentry.S) stops hooking for the
 * whole process; frames hooked before return as usual.
 *
 * Signals: all shadow stack changes happen with tstate.busy set, so a
 * handler interrupting one neither writes nor hooks (its calls are counted
 * lost); a handler's own calls otherwise nest like any other.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <unwind.h>

#include "cap_int.h"

/* The file header of a trace with values: minor 1, TTF_REQ_VALUES (once). */
void cap_values_chunk(void)
{
    uint8_t *h = cap.hdr;
    if (!h)
        return;
    uint32_t *req = (uint32_t *)(void *)(h + TTF_H_REQ);
    if (__atomic_load_n(req, __ATOMIC_ACQUIRE) & TTF_REQ_VALUES)
        return;
    ttf_put_u16(h + TTF_H_VMINOR, TTF_VERSION_MINOR_WIRE);
    __atomic_fetch_or(req, TTF_REQ_VALUES, __ATOMIC_RELEASE);
}

#if defined(__x86_64__) && defined(__linux__)

#define SH_FIRST 1024           /* shadow entries mapped first (24 KiB) */

/* One hooked frame. */
struct shent {
    uintptr_t ret;              /* the real return address */
    uintptr_t slot;             /* the stack word that held it (now the trampoline) */
    uintptr_t fn;               /* the function entered (its EXIT names it) */
};

/* A thread's shadow stack (not in struct tstate: that is reset at fork and
 * thread start, and a forked child still returns through these frames). */
struct shadow {
    struct shent *e;            /* entries, oldest first (mmap'd); e[-1] is a
                                   guard whose slot is above every stack, so
                                   the fast paths read e[n - 1] and e[n - 2]
                                   without testing n */
    uint32_t n;                 /* entries in use */
    uint32_t cap;               /* entries mapped */
    int unhooked;               /* real addresses put back for an unwinder */
};

static __thread struct shadow sh __attribute__((tls_model("initial-exec")));

/* Set by makecontext (stack switching, below): no frame is hooked after. */
static atomic_int switched;

/* called from cap_fentry.S */
__attribute__((visibility("hidden"))) void cap_ret_tramp(void);
int cap_fentry_fast(const uint64_t *regs, uintptr_t self, uintptr_t *slot);
void cap_fentry_slow(const uint64_t *regs, uintptr_t self, uintptr_t *slot);
struct tramp_ret {
    uintptr_t ret;              /* where the function really returns */
    uintptr_t slow;             /* nonzero: call cap_fexit_slow instead */
};
struct tramp_ret cap_fexit_fast(uint64_t rax, uintptr_t sp);
uintptr_t cap_fexit_slow(uint64_t rax, uintptr_t sp);

#define TRAMP ((uintptr_t)cap_ret_tramp)

/* ---- records ------------------------------------------------------------ */

/* The function's address from __fentry__'s return address: after `call
 * __fentry__` (5 bytes) or `call *__fentry__@GOTPCREL(%rip)` (6, gcc for
 * PIC), itself after an endbr64 with -fcf-protection. */
static inline uintptr_t fn_start(uintptr_t self)
{
    const uint8_t *p = (const uint8_t *)self;
    uintptr_t fn = self - 5;
    if (p[-5] == 0x15 && p[-6] == 0xff)
        fn = self - 6;
    uint32_t w = 0;
    if ((fn & 4095) >= 4)       /* never read back into another page */
        memcpy(&w, (const void *)(fn - 4), 4);
    return w == 0xfa1e0ff3u ? fn - 4 : fn;
}

/* The clock for a record, read by the fast paths first thing so that its
 * latency (rdtsc is slow in VMs) overlaps the bookkeeping. */
static inline uint64_t clock_now(const struct tstate *t)
{
    return t->timed ? cap_tsc() : 0;
}

static inline __attribute__((always_inline))
void put_enter(struct tstate *t, uintptr_t fn, const uint64_t *r, uint64_t now)
{
    uint8_t tag, *p = t->pos;
    uint8_t *q = cap_hot_addr(t, p, fn, TTF_T_ENTER_HIT, TTF_T_ENTER_MISS, &tag);
    if (t->timed)
        q = cap_put_t_at(t, q, now);
    q = ttf_put_enter_values_step(q, r, t->vprev, t->vstride);
    cap_commit(t, p, tag, q);
}

static inline __attribute__((always_inline))
void put_exit(struct tstate *t, uintptr_t fn, uint64_t rax, uint64_t now)
{
    uint8_t tag, *p = t->pos;
    uint8_t *q = cap_hot_addr(t, p, fn, TTF_T_EXIT_HIT, TTF_T_EXIT_MISS, &tag);
    if (t->timed)
        q = cap_put_t_at(t, q, now);
    q = ttf_put_exit_value(q, rax);
    cap_commit(t, p, tag, q);
}

/* Hook the frame whose return address is at slot. Room is checked. A tail
 * call finds the slot hooked already: the real address is the entry's. */
static inline void push(uintptr_t *slot, uintptr_t fn)
{
    struct shent *e = &sh.e[sh.n];
    uintptr_t was = *slot;
    e->ret = was == TRAMP ? sh.e[sh.n - 1].ret : was;
    e->slot = (uintptr_t)slot;
    e->fn = fn;
    atomic_signal_fence(memory_order_release);
    sh.n++;
    *slot = TRAMP;
}

/* ---- the fast path (no libc, no vector registers) --------------------------- */

/* 0: done; 1: call cap_fentry_slow (no chunk, values not on yet, shadow
 * stack full, busy, or entries to drop). */
int cap_fentry_fast(const uint64_t *regs, uintptr_t self, uintptr_t *slot)
{
    struct tstate *t = &cap_tls;
    uint64_t now = clock_now(t);    /* a signal's records in between clamp it */
    uint32_t n = sh.n;
    uintptr_t s = (uintptr_t)slot;
    if (__builtin_expect(t->pos >= t->limit || !t->vals || t->busy || n >= sh.cap ||
                         atomic_load_explicit(&switched, memory_order_relaxed), 0))
        return 1;
    const struct shent *top = sh.e + n - 1;     /* the guard when n is 0 */
    if (top->slot <= s && !(top->slot == s && *slot == TRAMP))
        return 1;
    t->busy = CAP_BUSY_HOT;
    atomic_signal_fence(memory_order_seq_cst);
    uintptr_t fn = fn_start(self);
    put_enter(t, fn, regs, now);
    push(slot, fn);
    t->depth++;
    atomic_signal_fence(memory_order_seq_cst);
    t->busy = 0;
    return 0;
}

struct tramp_ret cap_fexit_fast(uint64_t rax, uintptr_t sp)
{
    struct tstate *t = &cap_tls;
    uint64_t now = clock_now(t);
    uint32_t n = sh.n;
    uintptr_t s = sp - 8;
    if (__builtin_expect(!n, 0))
        return (struct tramp_ret){ 0, 1 };
    const struct shent *e = sh.e + n - 1;       /* below it: the guard at least */
    if (__builtin_expect(e->slot != s || e[-1].slot == s ||
                         t->pos >= t->limit || !t->vals || t->busy || !cap_on, 0))
        return (struct tramp_ret){ 0, 1 };
    uintptr_t ret = e->ret;
    t->busy = CAP_BUSY_HOT;
    atomic_signal_fence(memory_order_seq_cst);
    put_exit(t, e->fn, rax, now);
    t->depth--;
    sh.n = n - 1;
    atomic_signal_fence(memory_order_seq_cst);
    t->busy = 0;
    return (struct tramp_ret){ ret, 0 };
}

/* ---- the slow path ------------------------------------------------------------ */

static int on_altstack(void)
{
    stack_t ss;
    return sigaltstack(NULL, &ss) == 0 && (ss.ss_flags & SS_ONSTACK);
}

/* One free shadow entry, mapping or growing the stack. 0 or -1. */
static int shadow_room(void)
{
    if (sh.n < sh.cap)
        return 0;
    size_t want = sh.cap ? (size_t)sh.cap * 2 : SH_FIRST;
    if (want > UINT32_MAX)
        return -1;
    size_t was = sh.e ? (sh.cap + 1) * sizeof *sh.e : 0;
    struct shent *m;
    if (sh.e)
        m = mremap(sh.e - 1, was, (want + 1) * sizeof *sh.e, MREMAP_MAYMOVE);
    else
        m = mmap(NULL, (want + 1) * sizeof *sh.e, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    m[0].slot = UINTPTR_MAX;
    sh.e = m + 1;
    sh.cap = (uint32_t)want;
    return 0;
}

/* Before hooking slot: drop the entries of frames that are gone (their
 * slots are below it, or at it without a tail call). 0, or -1 when slot
 * says tail call but no entry has it (then the call is not hooked). */
static int prune(uintptr_t *slot)
{
    uintptr_t s = (uintptr_t)slot;
    int tail = *slot == TRAMP;
    if (sh.n && sh.e[sh.n - 1].slot <= s && !on_altstack())
        while (sh.n && (sh.e[sh.n - 1].slot < s || (sh.e[sh.n - 1].slot == s && !tail)))
            sh.n--;
    return !tail || (sh.n && sh.e[sh.n - 1].slot == s) ? 0 : -1;
}

/* Are any ENTER/EXIT records in the thread's chunk? */
static int chunk_has_hot(const struct tstate *t)
{
    const uint8_t *p = t->base + TTF_CHUNK_HDR;
    while (p < t->pos && *p) {
        if (*p++ >= TTF_T_ENTER_MISS)
            return 1;
        uint64_t len = 0;
        for (unsigned sh7 = 0; p < t->pos && sh7 < 64; sh7 += 7) {
            len |= (uint64_t)(*p & 0x7f) << sh7;
            if (!(*p++ & 0x80))
                break;
        }
        p += len;
    }
    return 0;
}

/* Room for a values record in a values chunk, turning values on for the
 * thread if needed (module comment). 1 ready, 0 not (the thread is cut). */
static int values_ready(struct tstate *t)
{
    if (!cap_room(t, CAP_VHOT_MAX))
        return 0;
    if (t->vals)
        return 1;
    t->vals = 1;
    if (chunk_has_hot(t)) {
        cap_switch_chunk(t);
    } else {
        uint16_t f = (uint16_t)ttf_get_le(t->base + TTF_C_FLAGS, 2);
        ttf_put_u16(t->base + TTF_C_FLAGS, (uint16_t)(f | TTF_CHUNK_VALUES));
        memset(t->vprev, 0, sizeof t->vprev);
        memset(t->vstride, 0, sizeof t->vstride);
        cap_values_chunk();
    }
    return cap_room(t, CAP_VHOT_MAX) != NULL;
}

/* One stderr line, once: values mode stopped at makecontext (below). */
static void say_switched(void)
{
    static atomic_int said;
    static const char m[] = "ttcap: values mode: makecontext switches stacks, which "
                            "values mode cannot follow; calls of -pg code are not "
                            "recorded from here on (counted as lost)\n";
    if (atomic_exchange(&said, 1))
        return;
    ssize_t r = write(2, m, sizeof m - 1);
    (void)r;
}

void cap_fentry_slow(const uint64_t *regs, uintptr_t self, uintptr_t *slot)
{
    struct tstate *t = &cap_tls;
    if (!cap_on)
        return;
    if (t->busy || atomic_load_explicit(&switched, memory_order_relaxed)) {
        t->lost_nested += 2;    /* this ENTER and the EXIT it will not get */
        if (!t->busy)
            say_switched();
        return;
    }
    t->busy = 1;
    atomic_signal_fence(memory_order_seq_cst);
    if (t->state == TS_NEW)
        cap_thread_begin(t);
    if (t->state != TS_DONE && shadow_room() == 0 && prune(slot) == 0 &&
        values_ready(t)) {
        uintptr_t fn = fn_start(self);
        put_enter(t, fn, regs, clock_now(t));
        push(slot, fn);
        t->depth++;
    }
    atomic_signal_fence(memory_order_seq_cst);
    t->busy = 0;
}

__attribute__((noreturn, cold))
static void lost_frame(void)
{
    static const char m[] = "ttcap: values mode: no shadow entry for a return "
                            "(stack switched by swapcontext?); aborting\n";
    ssize_t r = write(2, m, sizeof m - 1);
    (void)r;
    abort();
}

/* The general return: find the entry of the slot returned from, drop the
 * entries above it, EXIT every function of a tail-call chain on it. */
uintptr_t cap_fexit_slow(uint64_t rax, uintptr_t sp)
{
    struct tstate *t = &cap_tls;
    uintptr_t s = sp - 8;
    uint32_t top = sh.n;
    while (top && sh.e[top - 1].slot != s)
        top--;
    if (!top)
        lost_frame();
    uint32_t low = top - 1;
    while (low && sh.e[low - 1].slot == s)
        low--;
    uintptr_t ret = sh.e[top - 1].ret;
    if (t->busy) {
        t->lost_nested += top - low;
        sh.n = low;
        return ret;
    }
    t->busy = 1;
    atomic_signal_fence(memory_order_seq_cst);
    for (uint32_t k = top; k-- > low;) {
        if (cap_on && t->state != TS_DONE && values_ready(t))
            put_exit(t, sh.e[k].fn, rax, clock_now(t));
        if (t->state != TS_DONE)
            t->depth--;
    }
    sh.n = low;
    atomic_signal_fence(memory_order_seq_cst);
    t->busy = 0;
    return ret;
}

/* pthread key destructor (cap_thread_end): every frame has returned or
 * was unhooked by pthread_exit; later calls are not hooked (TS_DONE). */
void cap_values_thread_end(void)
{
    if (sh.e)
        munmap(sh.e - 1, (sh.cap + 1) * sizeof *sh.e);
    memset(&sh, 0, sizeof sh);
}

static void *real_fn(void *_Atomic *cache, const char *name)
{
    void *f = atomic_load(cache);
    if (!f) {
        f = dlsym(RTLD_NEXT, name);
        atomic_store(cache, f);
    }
    if (!f)
        lost_frame();
    return f;
}

/* ---- stack switching: makecontext ------------------------------------------------ */

/* Called by makecontext (cap_fentry.S, which keeps every argument register
 * and the stacked arguments for the real one): returns that. A context
 * made here runs on another stack, where returns cannot be matched by
 * stack address, so from now on no thread hooks a frame: calls of -pg code
 * are counted as lost (2 events each), frames hooked before still return
 * with their values, and one stderr line says so. */
void *cap_makecontext_real(void);
void *cap_makecontext_real(void)
{
    static void *_Atomic real;
    void *f = real_fn(&real, "makecontext");
    if (!cap_on || atomic_exchange(&switched, 1))
        return f;
    const uint8_t *h = cap.hdr;
    if (h && (__atomic_load_n((const uint32_t *)(const void *)(h + TTF_H_REQ),
                              __ATOMIC_ACQUIRE) & TTF_REQ_VALUES))
        say_switched();         /* else at the first -pg call refused */
    return f;
}

/* ---- unwinders: C++ exceptions, pthread_exit ---------------------------------- */

/* Put the real return addresses back in every live hooked frame (slot at
 * or above sp, the interposer's caller's stack pointer). */
static void unhook(uintptr_t sp)
{
    for (uint32_t i = sh.n; i-- > 0;) {
        uintptr_t *slot = (uintptr_t *)sh.e[i].slot;
        if (sh.e[i].slot >= sp && *slot == TRAMP)
            *slot = sh.e[i].ret;
    }
    sh.unhooked = sh.n > 0;
}

/* After a catch: drop the frames the exception unwound (below sp), hook
 * the live ones again. */
static void rehook(uintptr_t sp)
{
    sh.unhooked = 0;
    if (!on_altstack())
        while (sh.n && sh.e[sh.n - 1].slot < sp)
            sh.n--;
    for (uint32_t i = 0; i < sh.n; i++) {
        uintptr_t *slot = (uintptr_t *)sh.e[i].slot;
        if (sh.e[i].slot >= sp && *slot == sh.e[i].ret)
            *slot = TRAMP;
    }
}

/* The personality routine of the trampoline's frame (cap_fentry.S): an
 * unwinder (phase 1 or 2, forced or not) walking up from here is about to
 * read a hooked frame's return address. Every live hooked frame is below
 * its caller's frame and above this one. */
_Unwind_Reason_Code cap_tramp_personality(int version, _Unwind_Action actions,
                                          _Unwind_Exception_Class cls,
                                          struct _Unwind_Exception *e,
                                          struct _Unwind_Context *ctx);
__attribute__((visibility("hidden")))
_Unwind_Reason_Code cap_tramp_personality(int version, _Unwind_Action actions,
                                          _Unwind_Exception_Class cls,
                                          struct _Unwind_Exception *e,
                                          struct _Unwind_Context *ctx)
{
    (void)version, (void)actions, (void)cls, (void)e, (void)ctx;
    if (sh.n)
        unhook((uintptr_t)__builtin_frame_address(0));
    return _URC_CONTINUE_UNWIND;
}

/* The interposers' caller's stack pointer (they keep a frame pointer). */
#define CALLER_SP() ((uintptr_t)__builtin_frame_address(0) + 16)

/* An unwinder entry point: the real function `name` (found once, cached in
 * *cache), after putting back the real return addresses of the live hooked
 * frames at or above sp (the interposer's caller's) for it to walk. */
static void *unwind_real(void *_Atomic *cache, const char *name, uintptr_t sp)
{
    void *f = real_fn(cache, name);
    if (sh.n)
        unhook(sp);
    return f;
}

typedef _Unwind_Reason_Code (*raise_fn)(struct _Unwind_Exception *);
typedef _Unwind_Reason_Code (*forced_fn)(struct _Unwind_Exception *, _Unwind_Stop_Fn, void *);

__attribute__((visibility("default")))
_Unwind_Reason_Code _Unwind_RaiseException(struct _Unwind_Exception *e)
{
    static void *_Atomic real;
    return ((raise_fn)unwind_real(&real, "_Unwind_RaiseException", CALLER_SP()))(e);
}

__attribute__((visibility("default")))
_Unwind_Reason_Code _Unwind_Resume_or_Rethrow(struct _Unwind_Exception *e)
{
    static void *_Atomic real;
    return ((raise_fn)unwind_real(&real, "_Unwind_Resume_or_Rethrow", CALLER_SP()))(e);
}

__attribute__((visibility("default")))
_Unwind_Reason_Code _Unwind_ForcedUnwind(struct _Unwind_Exception *e,
                                         _Unwind_Stop_Fn stop, void *arg)
{
    static void *_Atomic real;
    return ((forced_fn)unwind_real(&real, "_Unwind_ForcedUnwind", CALLER_SP()))(e, stop, arg);
}

void *__cxa_begin_catch(void *exc);

__attribute__((visibility("default")))
void *__cxa_begin_catch(void *exc)
{
    static void *_Atomic real;
    void *(*f)(void *) = (void *(*)(void *))real_fn(&real, "__cxa_begin_catch");
    void *r = f(exc);
    if (sh.unhooked)
        rehook(CALLER_SP());
    return r;
}

/* pthread_exit unwinds the thread (glibc calls the unwinder through its own
 * handle on libgcc_s, past the interposers above). */
__attribute__((visibility("default"), noreturn))
void pthread_exit(void *retval)
{
    static void *_Atomic real;
    void (*f)(void *) = (void (*)(void *))unwind_real(&real, "pthread_exit", CALLER_SP());
    sh.n = 0;
    f(retval);
    abort();
}

#else /* not x86-64 Linux: no values mode */

void cap_values_thread_end(void)
{
}

#endif
