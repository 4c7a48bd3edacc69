/*
 * cap_shadow.c - values mode, the return side: the thread's shadow stack of
 * hooked frames (cap_values.h), the EXIT records written when a hooked
 * function returns into cap_ret_tramp (cap_tramp.S calls cap_fexit_fast,
 * and cap_fexit_slow when the fast path declines), the unwinder
 * interposers and the trampoline's personality routine, which put the real
 * return addresses back before an unwinder walks the stack. The design is
 * in cap_values.c. Below the trampoline in capture/STAGES: it names
 * neither it nor the entry side (cap_tramp holds its address).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <unwind.h>

#include "cap_layout.h"
#include "cap_values.h"
#include "cap_vstr.h"

/* Tests (TTCAP_TEST_PATHS=1, cap_init.c): how many ENTERs and EXITs the
 * C halves wrote, not the assembly paths, printed at the end. */
int cap_test_paths;
uint64_t cap_c_enters, cap_c_exits;

/* Nonzero: every EXIT goes the C way, not cap_tramp.S's assembly path
 * (TTCAP_TEST_FENTRY_C=1, cap_init.c: tests compare the two). */
int cap_fexit_c;

#if defined(__x86_64__) && defined(__linux__)

/* The trampoline's assembly fast path reads the C state by cap_layout.h. */
#define LAYOUT(what, is) _Static_assert((what) == (is), #what " is not " #is " (cap_layout.h)")
LAYOUT(offsetof(struct tstate, pos), CAPL_T_POS);
LAYOUT(offsetof(struct tstate, limit), CAPL_T_LIMIT);
LAYOUT(offsetof(struct tstate, depth), CAPL_T_DEPTH);
LAYOUT(offsetof(struct tstate, busy), CAPL_T_FLAGS);
LAYOUT(offsetof(struct tstate, timed), CAPL_T_FLAGS + 1);
LAYOUT(offsetof(struct tstate, state), CAPL_T_FLAGS + 2);
LAYOUT(offsetof(struct tstate, vals), CAPL_T_FLAGS + 3);
LAYOUT(CAPL_TIMED_SPARSE, CAP_CLOCK_SPARSE);
LAYOUT(offsetof(struct tstate, since), CAPL_T_SINCE);
LAYOUT(offsetof(struct tstate, ev), CAPL_T_EV);
LAYOUT(offsetof(struct tstate, skip), CAPL_T_SKIP);
LAYOUT(offsetof(struct tstate, warm), CAPL_T_WARM);
LAYOUT(offsetof(struct tstate, rng), CAPL_T_RNG);
LAYOUT(offsetof(struct tstate, tsc), CAPL_T_TSC);
LAYOUT(sizeof(((struct tstate *)0)->rng), 4);
LAYOUT(32 - CAP_SAMPLE_BITS, CAPL_SAMPLE_SHIFT);
LAYOUT(TTF_T_TIMED, CAPL_TIMED);
LAYOUT(TTF_T_SAMPLE, CAPL_SAMPLE);
LAYOUT(offsetof(struct tstate, cache), CAPL_T_CACHE);
LAYOUT(offsetof(struct tstate, evat), CAPL_T_EVAT);
LAYOUT(offsetof(struct tstate, sites), CAPL_T_SITES);
LAYOUT(sizeof(struct ttf_sites) + offsetof(struct cap_xs, ret), CAPL_XS_RET);
LAYOUT(offsetof(struct shadow, e), CAPL_SH_E);
LAYOUT(offsetof(struct shadow, n), CAPL_SH_N);
LAYOUT(sizeof(struct shent), CAPL_SHENT_SIZE);
LAYOUT(offsetof(struct shent, ret), CAPL_SHENT_RET);
LAYOUT(offsetof(struct shent, slot), CAPL_SHENT_SLOT);
LAYOUT(offsetof(struct shent, fn), CAPL_SHENT_FN);
LAYOUT(offsetof(struct shent, cslot), CAPL_SHENT_CSLOT);
LAYOUT(CAP_BIG_CALL, CAPL_BIG_CALL);
LAYOUT(CAP_UNTIMED_RUN, CAPL_UNTIMED_RUN);
LAYOUT(CAP_WARM, CAPL_WARM);
LAYOUT(CAP_EVAT - 1, CAPL_EVAT_MASK);
LAYOUT(TTF_SLOTS - 1, CAPL_SLOTS_MASK);
LAYOUT(TTF_SLOT(0x123456789abcull), ((0x123456789abcull >> 4) ^ (0x123456789abcull >> 10)) & 63);
LAYOUT(TTF_T_EXIT_HIT, CAPL_EXIT_HIT);
LAYOUT(CAP_BUSY_HOT, CAPL_BUSY_HOT);
LAYOUT(sizeof(((struct tstate *)0)->ev), 2);
LAYOUT(sizeof(((struct tstate *)0)->evat[0]), 2);
LAYOUT(sizeof(((struct tstate *)0)->warm), 2);
LAYOUT(sizeof(((struct tstate *)0)->since), 1);
LAYOUT(sizeof(((struct tstate *)0)->skip), 1);
LAYOUT(sizeof(((struct tstate *)0)->depth), 4);
LAYOUT(sizeof(((struct shadow *)0)->n), 4);

__thread struct shadow cap_sh __attribute__((tls_model("initial-exec")));
uintptr_t cap_tramp;

#define TRAMP __atomic_load_n(&cap_tramp, __ATOMIC_RELAXED)

static inline __attribute__((always_inline))
void put_exit(struct tstate *t, uintptr_t fn, uint64_t rax, uint64_t xmm0, uint64_t now)
{
    uint8_t tag, *p = t->pos, *q;
    if (t->timed >= CAP_CLOCK_SPARSE) {    /* sparse or lazy */
        q = cap_hot_head(t, p, fn, TTF_T_EXIT_HIT, TTF_T_EXIT_MISS, &tag);
    } else {
        q = cap_hot_addr(t, p, fn, TTF_T_EXIT_HIT, TTF_T_EXIT_MISS, &tag);
        if (t->timed)
            q = cap_put_t_at(t, q, now);
    }
    q = ttf_put_exit_value(q, rax);
    q = ttf_put_exit_xmm(q, xmm0, &cap_xs_of(t)->ret);
    cap_commit(t, p, tag, q);
}

struct tramp_ret cap_fexit_fast(uint64_t rax, uintptr_t sp, uint64_t xmm0)
{
    struct tstate *t = &cap_tls;
    uint64_t now = clock_exit_now(t);
    uint32_t n = cap_sh.n;
    uintptr_t s = sp - 8;
    if (__builtin_expect(!n, 0))
        return (struct tramp_ret){ 0, 1 };
    const struct shent *e = cap_sh.e + n - 1;       /* below it: the guard at least */
    if (__builtin_expect(e->slot != s || e[-1].slot == s ||
                         t->pos >= t->limit || !t->vals || t->busy || !cap_on, 0))
        return (struct tramp_ret){ 0, 1 };
    uintptr_t ret = e->ret;
    t->busy = CAP_BUSY_HOT;
    atomic_signal_fence(memory_order_seq_cst);
    put_exit(t, e->fn, rax, xmm0, now);
    cap_count_c(&cap_c_exits);
    t->depth--;
    cap_sh.n = n - 1;
    atomic_signal_fence(memory_order_seq_cst);
    t->busy = 0;
    return (struct tramp_ret){ ret, 0 };
}

/* ---- the slow path ------------------------------------------------------------ */

/* 1 when the thread runs on its signal stack (sigaltstack), else 0. */
int cap_on_altstack(void)
{
    stack_t ss;
    return sigaltstack(NULL, &ss) == 0 && (ss.ss_flags & SS_ONSTACK);
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
int cap_values_ready(struct tstate *t)
{
    if (!cap_room(t, CAP_VHOT_MAX + CAP_VSTR_MAX + 8))
        return 0;
    if (t->vals)
        return 1;
    t->vals = 1;                /* a lazy or chain thread stays so (1.8, 1.9) */
    t->ux = 0;
    if (chunk_has_hot(t)) {
        cap_switch_chunk(t);
    } else {
        uint16_t f = (uint16_t)ttf_get_le(t->base + TTF_C_FLAGS, 2);
        cap_values_chunk();     /* the header's bits before the chunk's flag */
        f = (uint16_t)(f | TTF_CHUNK_VALUES | TTF_CHUNK_XMM);
        ttf_put_u16(t->base + TTF_C_FLAGS, f);
        memset(t->vprev, 0, sizeof t->vprev);
        memset(t->vstride, 0, sizeof t->vstride);
        memset(cap_xs_of(t), 0, sizeof(struct cap_xs));
    }
    return cap_room(t, CAP_VHOT_MAX + CAP_VSTR_MAX + 8) != NULL;
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
uintptr_t cap_fexit_slow(uint64_t rax, uintptr_t sp, uint64_t xmm0)
{
    struct tstate *t = &cap_tls;
    uintptr_t s = sp - 8;
    uint32_t top = cap_sh.n;
    while (top && cap_sh.e[top - 1].slot != s)
        top--;
    if (!top)
        lost_frame();
    uint32_t low = top - 1;
    while (low && cap_sh.e[low - 1].slot == s)
        low--;
    uintptr_t ret = cap_sh.e[top - 1].ret;
    if (t->busy || t->vforked) {
        if (!t->vforked)        /* a vfork child counts nothing in our memory */
            t->lost_nested += top - low;
        cap_sh.n = low;
        return ret;
    }
    t->busy = 1;
    atomic_signal_fence(memory_order_seq_cst);
    for (uint32_t k = top; k-- > low;) {
        if (cap_on && t->state != TS_DONE && cap_values_ready(t)) {
            put_exit(t, cap_sh.e[k].fn, rax, xmm0, clock_exit_now(t));
            cap_count_c(&cap_c_exits);
        }
        if (t->state != TS_DONE)
            t->depth--;
    }
    cap_sh.n = low;
    atomic_signal_fence(memory_order_seq_cst);
    t->busy = 0;
    return ret;
}

/* pthread key destructor (cap_thread_end): every frame has returned or
 * was unhooked by pthread_exit; later calls are not hooked (TS_DONE). */
void cap_values_thread_end(void)
{
    if (cap_sh.e)
        munmap(cap_sh.e - 1, (cap_sh.cap + 1) * sizeof *cap_sh.e);
    memset(&cap_sh, 0, sizeof cap_sh);
}

/* The next definition of name (libc's, libgcc_s's), found once and cached
 * in *cache; none is fatal (one stderr line, abort). */
void *cap_real_fn(void *_Atomic *cache, const char *name)
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

/* ---- unwinders: C++ exceptions, pthread_exit ---------------------------------- */

/* Put the real return addresses back in every live hooked frame (slot at
 * or above sp, the interposer's caller's stack pointer). */
static void unhook(uintptr_t sp)
{
    for (uint32_t i = cap_sh.n; i-- > 0;) {
        uintptr_t *slot = (uintptr_t *)cap_sh.e[i].slot;
        if (cap_sh.e[i].slot >= sp && *slot == TRAMP)
            *slot = cap_sh.e[i].ret;
    }
    cap_sh.unhooked = cap_sh.n > 0;
}

/* After a catch: drop the frames the exception unwound (below sp), with
 * an UNWIND record for them, hook the live ones again. */
static void rehook(uintptr_t sp)
{
    struct tstate *t = &cap_tls;
    uint32_t was = cap_sh.n;
    cap_sh.unhooked = 0;
    if (!cap_on_altstack())
        while (cap_sh.n && cap_sh.e[cap_sh.n - 1].slot < sp)
            cap_sh.n--;
    if (was > cap_sh.n && cap_on && !t->busy && !t->vforked) {
        t->busy = 1;
        atomic_signal_fence(memory_order_seq_cst);
        cap_unwind(t, TTF_UNWIND_EH, was - cap_sh.n);
        atomic_signal_fence(memory_order_seq_cst);
        t->busy = 0;
    }
    for (uint32_t i = 0; i < cap_sh.n; i++) {
        uintptr_t *slot = (uintptr_t *)cap_sh.e[i].slot;
        if (cap_sh.e[i].slot >= sp && *slot == cap_sh.e[i].ret)
            *slot = TRAMP;
    }
}

/* The personality routine of the trampoline's frame (cap_tramp.S): an
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
    if (cap_sh.n)
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
    void *f = cap_real_fn(cache, name);
    if (cap_sh.n)
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
    void *(*f)(void *) = (void *(*)(void *))cap_real_fn(&real, "__cxa_begin_catch");
    void *r = f(exc);
    if (cap_sh.unhooked)
        rehook(CALLER_SP());
    return r;
}

/* A longjmp to a setjmp whose caller's stack pointer was sp: the frames
 * below it are gone (their UNWIND is the longjmp interposer's, counted by
 * depth): their entries go, unrecorded. */
void cap_values_jump(uintptr_t sp)
{
    while (cap_sh.n && cap_sh.e[cap_sh.n - 1].slot < sp)
        cap_sh.n--;
}

/* pthread_exit unwinds the thread (glibc calls the unwinder through its own
 * handle on libgcc_s, past the interposers above). */
__attribute__((visibility("default"), noreturn))
void pthread_exit(void *retval)
{
    static void *_Atomic real;
    void (*f)(void *) = (void (*)(void *))unwind_real(&real, "pthread_exit", CALLER_SP());
    cap_sh.n = 0;
    f(retval);
    abort();
}

#else /* not x86-64 Linux: no values mode */

void cap_values_thread_end(void)
{
}

void cap_values_jump(uintptr_t sp)
{
    (void)sp;
}

#endif
