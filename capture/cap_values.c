/*
 * cap_values.c - values mode: argument registers on every ENTER and the
 * return value on every EXIT, for code compiled with -pg -mfentry on
 * x86-64 (no source change). This file is the entry side: the C halves of
 * __fentry__ and makecontext (cap_fentry.S). The return side (the EXIT
 * records, the unwinders) is cap_shadow.c, the trampoline between them
 * cap_tramp.S, the shared shadow stack cap_values.h: in capture/STAGES this
 * file sits above the trampoline, which sits above the return side.
 *
 * Design. -mfentry makes every function call __fentry__ before its
 * prologue, with the argument registers intact, and the function's own
 * return address (its call site, format 1.2) in the slot it hooks: the
 * ENTER record takes the site (nothing when it repeats) and the registers,
 * as a mask of the registers that changed since the previous ENTER of
 * the chunk plus one zigzag delta each (a counter argument costs a byte),
 * then the low 8 bytes of xmm0..7 that changed (format 1.5: float and
 * double arguments; none changed, the usual case in integer code, costs
 * nothing). The EXIT takes rax and xmm0 (one byte when xmm0 is as at the
 * previous EXIT). The SSE registers are saved for every call, whatever the
 * signature: libttcap cannot know it, and eight stores cost less than a
 * test (measured in VALUES.md).
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
 * cannot walk through the trampoline: the interposers (cap_shadow.c) put
 * every real return address back first, and __cxa_begin_catch hooks the
 * frames still live again. glibc's cancellation calls the unwinder through
 * its own handle on libgcc_s, past the interposers: there the trampoline's
 * unwind entry (cap_tramp.S) has a personality routine that does the same.
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
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cap_layout.h"
#include "cap_values.h"
#include "cap_vstr.h"

#if defined(__x86_64__) && defined(__linux__)

/* __fentry__'s assembly fast path (cap_fentry.S) reads the C state by
 * cap_layout.h (the trampoline's offsets are checked in cap_shadow.c). */
#define LAYOUT(what, is) _Static_assert((what) == (is), #what " is not " #is " (cap_layout.h)")
LAYOUT(offsetof(struct tstate, tsc), CAPL_T_TSC);
LAYOUT(offsetof(struct tstate, vprev), CAPL_T_VPREV);
LAYOUT(offsetof(struct tstate, vstride), CAPL_T_VSTRIDE);
LAYOUT(sizeof(((struct tstate *)0)->vprev), 6 * 8);
LAYOUT(sizeof(((struct tstate *)0)->vstride), 6 * 8);
LAYOUT(sizeof(((struct tstate *)0)->tsc), 8);
LAYOUT(offsetof(struct tstate, timed), CAPL_T_FLAGS + 1);
LAYOUT(CAP_CLOCK_SPARSE, CAPL_TIMED_SPARSE);
LAYOUT(CAP_CLOCK_LAZY, CAPL_TIMED_LAZY);
LAYOUT(offsetof(struct tstate, ux), CAPL_T_UX);
LAYOUT(sizeof(((struct tstate *)0)->ux), 1);
LAYOUT(CAP_CLOCK_NONE, 0);
LAYOUT(offsetof(struct ttf_sites, path), 0);
LAYOUT(offsetof(struct ttf_sites, last), CAPL_SITES_LAST);
LAYOUT(TTF_SITE_PATHS - 1, CAPL_SITES_PMASK);
LAYOUT(offsetof(struct ttf_sites, ways), CAPL_SITES_WAYS);
LAYOUT(TTF_SITE_SLOTS - 1, CAPL_SITES_SMASK);
LAYOUT(sizeof(((struct ttf_sites *)0)->ways[0]), 32);
LAYOUT(TTF_SITE_SLOT(0x123456789abcull), ((0x123456789abcull >> 4) ^ (0x123456789abcull >> 10)) & 255);
LAYOUT(TTF_T_SITE_WAY, CAPL_SITE_WAY);
LAYOUT(TTF_T_SITE_NEW, CAPL_SITE_NEW);
LAYOUT(TTF_SITE_PATH(0x123456789abcull, 0x5555aaaa1234ull),
       ((0x123456789abcull >> 4) ^ (0x5555aaaa1234ull * 9)) & CAPL_SITES_PMASK);
LAYOUT(sizeof(struct ttf_sites) + offsetof(struct cap_xs, x), CAPL_XS_X);
LAYOUT(TTF_XMMREGS, 8);
LAYOUT(TTF_ARGREGS, 6);
LAYOUT(offsetof(struct shadow, cap), CAPL_SH_CAP);
LAYOUT(sizeof(((struct shadow *)0)->cap), 4);
LAYOUT(TTF_T_ENTER_HIT, CAPL_ENTER_HIT);
LAYOUT(TTF_MASK_STRIDE, CAPL_MASK_STRIDE);
LAYOUT(TTF_MASK_XMM, CAPL_MASK_XMM);
LAYOUT(offsetof(struct cap_vtab, w), CAPL_VT_W);
LAYOUT(sizeof(((struct cap_vtab *)0)->w), 8);
LAYOUT(sizeof(struct cap_vt_ent), CAPL_VTENT_SIZE);
LAYOUT(offsetof(struct cap_vt_ent, fn), CAPL_VTENT_FN);
LAYOUT(offsetof(struct cap_vt_ent, home), CAPL_VTENT_HOME);
LAYOUT(offsetof(struct tstate, vstr), CAPL_T_VSTR);
LAYOUT(sizeof(((struct tstate *)0)->vstr), 8);
LAYOUT(CAP_VSTR_MAX + 8 + CAP_VHOT_MAX - CAP_RESERVE / 2, CAPL_STR_ROOM);
LAYOUT(TTF_R_STRINGS, CAPL_R_STRINGS);

#define SH_FIRST 1024           /* shadow entries mapped first (32 KiB) */

/* Set by makecontext (stack switching, below): no frame is hooked after. */
static atomic_int switched;

/* Nonzero: every ENTER goes the C way, not cap_fentry.S's assembly path
 * (which reads only this): set with switched, and at start by
 * TTCAP_TEST_FENTRY_C=1 (cap_init.c; tests compare the two paths). */
int cap_fentry_c;

/* Nonzero: cap_fentry.S's assembly ENTER codes the registers with SSE4.1
 * alone, not AVX's three-operand forms: a CPU without AVX (cap_init.c),
 * or TTCAP_TEST_FENTRY_SSE=1 (tests check that path too). */
int cap_fentry_sse;

/* The saved registers' array (cap_fentry.S): rdi..r9, rax, r10, xmm0..7. */
#define CAP_REG_XMM 8

/* called from cap_fentry.S */
__attribute__((visibility("hidden"))) void cap_ret_tramp(void);
int cap_fentry_fast(const uint64_t *regs, uintptr_t self, uintptr_t *slot);
void cap_fentry_slow(const uint64_t *regs, uintptr_t self, uintptr_t *slot);
uint8_t *cap_fentry_strings(uint8_t *p, const uint64_t *regs, const struct cap_vt_ent *v);

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

/* The ENTER of fn called from site (the function's return address): the
 * call-site prefix when needed (cap_site), the record, its values. */
static inline __attribute__((always_inline))
void put_enter_at(struct tstate *t, uint8_t *e, uintptr_t fn, const uint64_t *r,
                  uint64_t now, uint8_t *tag)
{
    uint8_t *q = cap_hot_addr(t, e, fn, TTF_T_ENTER_HIT, TTF_T_ENTER_MISS, tag);
    if (t->timed >= CAP_CLOCK_SPARSE)
        cap_enter_count(t);
    if (t->ux)
        t->ux = t->timed >> 2;  /* lazy (1.8): after an untimed EXIT, no time;
                                   chain (1.9): the run goes on */
    else if (t->timed)          /* (not read yet if ux was set at the start) */
        q = cap_put_t_at(t, q, now ? now : cap_tsc());
    t->pos = ttf_put_enter_xmm_step(ttf_put_enter_values_step(q, r, t->vprev, t->vstride),
                                    q, r + CAP_REG_XMM, cap_xs_of(t)->x);
}

/* An ENTER whose site may need a prefix: out of line, the rare case. */
static __attribute__((noinline)) void put_enter_moved(struct tstate *t, uintptr_t fn,
                                                      uintptr_t site, const uint64_t *r,
                                                      uint64_t now)
{
    uint8_t tag, ptag = 0, *p = t->pos;
    uint8_t *e = cap_site_prefix(t, p, fn, site, &ptag);
    put_enter_at(t, e, fn, r, now, &tag);
    if (e != p)
        *e = tag;
    cap_commit(t, p, e != p ? ptag : tag, t->pos);
}

static inline __attribute__((always_inline))
void put_enter(struct tstate *t, uintptr_t fn, uintptr_t site, const uint64_t *r,
               uint64_t now)
{
    uint8_t tag, *p = t->pos;
    if (!cap_site_same(t, fn, site)) {
        put_enter_moved(t, fn, site, r, now);
        return;
    }
    put_enter_at(t, p, fn, r, now, &tag);
    cap_commit(t, p, tag, t->pos);
}

/* An ENTER of a function with string parameters (cap_vstr.h): its
 * STRINGS record (format 1.6), then the ENTER, then the record's tag, so
 * that a reader sees the two at once or neither. Room for both is
 * checked. Out of line: most functions take no string. */
static __attribute__((noinline)) void put_enter_strings(struct tstate *t, uintptr_t fn,
                                                        uintptr_t site, const uint64_t *r,
                                                        uint64_t now,
                                                        const struct cap_vt_ent *v)
{
    uint8_t *p = t->pos;
    uint64_t zero = 0;
    t->pos = cap_put_strings(p, r, v);
    put_enter(t, fn, site, r, now);
    __builtin_memcpy(t->pos, &zero, 8);     /* cap_str_read's leftovers, if any */
    atomic_signal_fence(memory_order_release);
    *(volatile uint8_t *)p = TTF_R_STRINGS;
}

/* For cap_fentry.S's assembly ENTER of a function with string parameters
 * (v: its table entry; busy set, room checked): its STRINGS record at p
 * when the strings can be read (our fault handler in place), the tag NOT
 * stored (the assembly stores it after the ENTER, as put_enter_strings
 * does). Returns where the ENTER goes: p when no record was written. */
uint8_t *cap_fentry_strings(uint8_t *p, const uint64_t *regs, const struct cap_vt_ent *v)
{
    return cap_probe_ready() ? cap_put_strings(p, regs, v) : p;
}

/* Room for the longest STRINGS record, its leftovers and ENTER at t->pos. */
static inline int strings_room(const struct tstate *t)
{
    return t->pos + CAP_VSTR_MAX + 8 + CAP_VHOT_MAX <= t->limit + CAP_RESERVE / 2;
}

/* The ENTER of fn, after its strings when its entry v says it takes some
 * and they can be read (our fault handler is in place). */
static inline __attribute__((always_inline))
void put_enter_any(struct tstate *t, uintptr_t fn, uintptr_t site, const uint64_t *r,
                   uint64_t now, const struct cap_vt_ent *v)
{
    if (__builtin_expect(v != NULL, 0) && cap_probe_ready())
        put_enter_strings(t, fn, site, r, now, v);
    else
        put_enter(t, fn, site, r, now);
}

/* The return address of the frame whose slot __fentry__ hooks: the call
 * site; a tail call finds the slot hooked already, and the real address in
 * the top entry (push). */
static inline uintptr_t call_site(const uintptr_t *slot)
{
    uintptr_t was = *slot;
    return was == TRAMP ? cap_sh.e[cap_sh.n - 1].ret : was;
}

/* Hook the frame whose return address is at slot. Room is checked. A tail
 * call finds the slot hooked already: the real address is the entry's. */
static inline void push(uintptr_t *slot, uintptr_t fn)
{
    struct shent *e = &cap_sh.e[cap_sh.n];
    uintptr_t was = *slot;
    e->ret = was == TRAMP ? cap_sh.e[cap_sh.n - 1].ret : was;
    e->slot = (uintptr_t)slot;
    e->fn = fn;
    e->cslot = TTF_SLOT(fn);
    atomic_signal_fence(memory_order_release);
    cap_sh.n++;
    *slot = TRAMP;
}

/* ---- the fast path (no libc, no vector registers) --------------------------- */

/* 0: done; 1: call cap_fentry_slow (no chunk, values not on yet, shadow
 * stack full, busy, or entries to drop). */
int cap_fentry_fast(const uint64_t *regs, uintptr_t self, uintptr_t *slot)
{
    struct tstate *t = &cap_tls;
    uint64_t now = clock_now(t);    /* a signal's records in between clamp it */
    uint32_t n = cap_sh.n;
    uintptr_t s = (uintptr_t)slot;
    if (__builtin_expect(t->pos >= t->limit || !t->vals || t->busy || n >= cap_sh.cap ||
                         atomic_load_explicit(&switched, memory_order_relaxed), 0))
        return 1;
    const struct shent *top = cap_sh.e + n - 1;     /* the guard when n is 0 */
    if (top->slot <= s && !(top->slot == s && *slot == TRAMP))
        return 1;
    uintptr_t fn = fn_start(self);
    const struct cap_vt_ent *v = cap_vt_find(fn);  /* strings (format 1.6) */
    if (__builtin_expect(v && !strings_room(t), 0))
        return 1;
    t->busy = CAP_BUSY_HOT;
    atomic_signal_fence(memory_order_seq_cst);
    put_enter_any(t, fn, call_site(slot), regs, now, v);
    cap_count_c(&cap_c_enters);
    push(slot, fn);
    t->depth++;
    atomic_signal_fence(memory_order_seq_cst);
    t->busy = 0;
    return 0;
}

/* ---- the slow path ------------------------------------------------------------ */

/* One free shadow entry, mapping or growing the stack. 0 or -1. */
static int shadow_room(void)
{
    if (cap_sh.n < cap_sh.cap)
        return 0;
    size_t want = cap_sh.cap ? (size_t)cap_sh.cap * 2 : SH_FIRST;
    if (want > UINT32_MAX)
        return -1;
    size_t was = cap_sh.e ? (cap_sh.cap + 1) * sizeof *cap_sh.e : 0;
    struct shent *m;
    if (cap_sh.e)
        m = mremap(cap_sh.e - 1, was, (want + 1) * sizeof *cap_sh.e, MREMAP_MAYMOVE);
    else
        m = mmap(NULL, (want + 1) * sizeof *cap_sh.e, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    m[0].slot = UINTPTR_MAX;
    __atomic_store_n(&cap_tramp, TRAMP, __ATOMIC_RELAXED);   /* for cap_shadow.c */
    cap_sh.e = m + 1;
    cap_sh.cap = (uint32_t)want;
    return 0;
}

/* Before hooking slot: drop the entries of frames that are gone (their
 * slots are below it, or at it without a tail call). 0, or -1 when slot
 * says tail call but no entry has it (then the call is not hooked). */
static int prune(uintptr_t *slot)
{
    uintptr_t s = (uintptr_t)slot;
    int tail = *slot == TRAMP;
    if (cap_sh.n && cap_sh.e[cap_sh.n - 1].slot <= s && !cap_on_altstack())
        while (cap_sh.n && (cap_sh.e[cap_sh.n - 1].slot < s || (cap_sh.e[cap_sh.n - 1].slot == s && !tail)))
            cap_sh.n--;
    return !tail || (cap_sh.n && cap_sh.e[cap_sh.n - 1].slot == s) ? 0 : -1;
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
    if (!cap_on || t->vforked)
        return;                 /* (a vfork child: not hooked) */
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
        cap_values_ready(t)) {
        uintptr_t fn = fn_start(self);
        put_enter_any(t, fn, call_site(slot), regs, clock_now(t), cap_vt_find(fn));
        cap_count_c(&cap_c_enters);
        push(slot, fn);
        t->depth++;
    }
    atomic_signal_fence(memory_order_seq_cst);
    t->busy = 0;
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
    void *f = cap_real_fn(&real, "makecontext");
    if (!cap_on || atomic_exchange(&switched, 1))
        return f;
    __atomic_store_n(&cap_fentry_c, 1, __ATOMIC_RELAXED);
    const uint8_t *h = cap.hdr;
    if (h && (__atomic_load_n((const uint32_t *)(const void *)(h + TTF_H_REQ),
                              __ATOMIC_ACQUIRE) & TTF_REQ_VALUES))
        say_switched();         /* else at the first -pg call refused */
    return f;
}

#endif
