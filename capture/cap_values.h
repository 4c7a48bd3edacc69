/*
 * cap_values.h - values mode internals shared by its two C files: the
 * per-thread shadow stack of hooked frames and the clock both fast paths
 * read. cap_values.c (the entry side, called by __fentry__ in
 * cap_fentry.S) sits above the return trampoline (cap_tramp.S), which sits
 * above cap_shadow.c (the return side and the unwinders): see the design
 * in cap_values.c and capture/STAGES. x86-64 Linux only.
 */
#ifndef CAP_VALUES_H
#define CAP_VALUES_H

#include "cap_int.h"

#if defined(__x86_64__) && defined(__linux__)

/* One hooked frame: 32 bytes, so that no entry straddles two cache lines
 * (an EXIT reads its own and the one below, an ENTER the top one) and
 * its index scales by a shift. */
struct shent {
    uintptr_t ret;              /* the real return address */
    uintptr_t slot;             /* the stack word that held it (now the trampoline) */
    uintptr_t fn;               /* the function entered (its EXIT names it) */
    uintptr_t cslot;            /* TTF_SLOT(fn): its slot in the function
                                   cache, so the assembly EXIT (cap_tramp.S)
                                   reads it instead of hashing fn again */
};
_Static_assert(sizeof(struct shent) == 32, "shadow entries are 32 bytes");

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

/* The thread's shadow stack (cap_shadow.c). */
extern __thread struct shadow cap_sh __attribute__((tls_model("initial-exec")));

/* The trampoline's address (cap_ret_tramp, cap_tramp.S), for the return
 * side, which sits below the trampoline (it calls cap_fexit_*) and so does
 * not name it: stored by the entry side when a thread maps its shadow
 * stack, before it hooks a frame (relaxed: a thread reads only what it
 * stored itself, or its parent before a fork). */
extern uintptr_t cap_tramp;

/* The clock for a record, read by the fast paths first thing so that its
 * latency (rdtsc is slow in VMs) overlaps the bookkeeping; not for an
 * ENTER the lazy clock leaves untimed (ux: after an untimed EXIT). */
static inline uint64_t clock_now(const struct tstate *t)
{
    return t->timed && !t->ux ? cap_tsc() : 0;
}

/* The same for an EXIT: none with the sparse clock, which reads it in
 * the record, and only when the EXIT needs it (cap_hot_head). */
static inline uint64_t clock_exit_now(const struct tstate *t)
{
    return t->timed == CAP_CLOCK_EVERY ? cap_tsc() : 0;
}

/* One more record written the C way (TTCAP_TEST_PATHS=1 only). */
static inline void cap_count_c(uint64_t *n)
{
    if (__builtin_expect(cap_test_paths, 0))
        __atomic_fetch_add(n, 1, __ATOMIC_RELAXED);
}

/* called from cap_tramp.S */
struct tramp_ret {
    uintptr_t ret;              /* where the function really returns */
    uintptr_t slow;             /* nonzero: call cap_fexit_slow instead */
};
struct tramp_ret cap_fexit_fast(uint64_t rax, uintptr_t sp, uint64_t xmm0);
uintptr_t cap_fexit_slow(uint64_t rax, uintptr_t sp, uint64_t xmm0);

/* cap_shadow.c, for the entry side */
int cap_values_ready(struct tstate *t);
int cap_on_altstack(void);
void *cap_real_fn(void *_Atomic *cache, const char *name);

#endif
#endif
