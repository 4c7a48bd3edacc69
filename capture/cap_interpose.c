/*
 * cap_interpose.c - libc and libpthread functions libttcap wraps: dlopen and
 * dlclose (module records, call sites of unloaded libraries), pthread_create
 * (thread numbers in creation order) and pthread_setname_np (thread names);
 * pthread mutex, condition and join calls and semaphores (SYNC_OP
 * records, see below);
 * vfork's halves (cap_vfork.S: the child writes nothing); setjmp's note
 * (cap_setjmp.S) and longjmp (UNWIND records); the wait functions (a
 * child killed by a signal, reaped: a REAP row in a recorded tree's
 * process table, cap_tree.c).
 * Each finds the real function on first use, through REAL() (the thread
 * operations through SYNC_REAL(), which is also where chaos mode,
 * cap_chaos.c, shakes the schedule, before the real call).
 */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <link.h>
#include <setjmp.h>
#include <poll.h>
#include <semaphore.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cap_int.h"

/* ---- interposers ---------------------------------------------------------------- */

/* The next definition of name: the glibc 2.3.2 version of the condition
 * functions (plain dlsym may hand out the old 2.2.5 ABI), else any. */
static void *next_fn(const char *name, int versioned)
{
    void *f = versioned ? dlvsym(RTLD_NEXT, name, "GLIBC_2.3.2") : NULL;
    return f ? f : dlsym(RTLD_NEXT, name);
}

/* `real`: the next definition of the function being defined, found once */
#define REAL(name, versioned) \
    static __typeof__(name) *real; \
    if (!real) \
        real = (__typeof__(name) *)next_fn(#name, versioned)

__attribute__((visibility("default")))
void *dlopen(const char *file, int mode)
{
    REAL(dlopen, 0);
    void *h = real ? real(file, mode) : NULL;
    if (h)
        atomic_fetch_add(&cap.dl_gen, 1);   /* the loader worked here (fork child) */
    struct tstate *t = &cap_tls;
    if (cap_on && h && !t->busy) {
        t->busy = 1;
        if (t->state == TS_NEW)
            cap_thread_begin(t);
        if (t->state == TS_LIVE)
            cap_check_modules(t, 0);
        t->busy = 0;
    }
    return h;
}

struct range {
    uint64_t base;              /* load bias looked for */
    uint64_t lo, hi;            /* its mapped extent, once found */
};

static int range_cb(struct dl_phdr_info *info, size_t size, void *arg)
{
    (void)size;
    struct range *r = arg;
    if (info->dlpi_addr != r->base)
        return 0;
    r->lo = UINT64_MAX;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        uint64_t a = info->dlpi_addr + ph->p_vaddr;
        r->lo = a < r->lo ? a : r->lo;
        r->hi = a + ph->p_memsz > r->hi ? a + ph->p_memsz : r->hi;
    }
    return 1;
}

/* The call sites of a library about to be closed leave the list of
 * defined sites (they would dangle once it is unmapped). */
static void forget_sites(void *handle)
{
    struct link_map *lm = NULL;
    if (dlinfo(handle, RTLD_DI_LINKMAP, &lm) != 0 || !lm)
        return;
    struct range r = { lm->l_addr, 0, 0 };
    cap_dl_iterate(range_cb, &r);
    if (r.hi <= r.lo)
        return;
    cap_spin_lock(&cap.site_lock);
    struct ttcap_site **pp = (struct ttcap_site **)&cap.sites;
    while (*pp) {
        uint64_t a = (uint64_t)(uintptr_t)*pp;
        if (a >= r.lo && a < r.hi)
            *pp = (*pp)->next;
        else
            pp = &(*pp)->next;
    }
    cap_spin_unlock(&cap.site_lock);
}

__attribute__((visibility("default")))
int dlclose(void *handle)
{
    REAL(dlclose, 0);
    forget_sites(handle);
    int rc = real ? real(handle) : -1;
    atomic_fetch_add(&cap.dl_gen, 1);
    struct tstate *t = &cap_tls;
    if (cap_on && !t->busy && t->state == TS_LIVE) {
        t->busy = 1;
        cap_check_modules(t, 0);
        t->busy = 0;
    }
    return rc;
}

/* pthread_create: the new thread's index is taken here, in the creating
 * thread, so indexes follow creation order even if threads race to run. */
struct start {
    void *(*fn)(void *);        /* the caller's start routine */
    void *arg;                  /* and its argument */
    uint32_t given;             /* 1 + the index taken at creation */
};

static void sync_op(int op, const void *obj, int64_t arg);

/* The thread operations' next definitions, for SYNC_REAL: w_real is what
 * the fast path calls, w_found what was found. In chaos mode w_real stays
 * NULL, so every call takes sync_real, which shakes the schedule there:
 * off, a wrapper runs exactly the instructions it ran before chaos mode
 * existed (one load and test of its pointer). */
enum { W_CREATE, W_LOCK, W_TRYLOCK, W_UNLOCK, W_WAIT, W_TIMEDWAIT, W_SIGNAL,
       W_BROADCAST, W_JOIN, W_SEMWAIT, W_SEMTRY, W_SEMPOST, W_N };
static void *w_real[W_N], *w_found[W_N];
static const struct { const char *name; int versioned; } w_info[W_N] = {
    {"pthread_create", 0}, {"pthread_mutex_lock", 0}, {"pthread_mutex_trylock", 0},
    {"pthread_mutex_unlock", 0}, {"pthread_cond_wait", 1},
    {"pthread_cond_timedwait", 1}, {"pthread_cond_signal", 1},
    {"pthread_cond_broadcast", 1}, {"pthread_join", 0}, {"sem_wait", 0},
    {"sem_trywait", 0}, {"sem_post", 0}};

/* Wrapper w's next definition, found once (no chaos point: the tries a
 * lock or a semaphore's wait makes first). */
static void *found(int w)
{
    void *f = w_found[w];
    if (!f)
        f = w_found[w] = next_fn(w_info[w].name, w_info[w].versioned);
    return f;
}

/* Wrapper w's next definition, found once; in chaos mode also the chaos
 * point before the call (not inside one of libttcap's own writes). */
static void *sync_real(int w)
{
    void *f = found(w);
    if (!cap_chaos.on) {
        w_real[w] = f;
        return f;
    }
    struct tstate *t = &cap_tls;
    if (cap_on && !t->busy)
        cap_chaos_point(t, CAP_CHAOS_SYNC);
    return f;
}

/* Chaos mode was turned on: no wrapper keeps its fast path (a call that
 * read its pointer just before skips one chaos point, harmless). */
void cap_sync_chaos_on(void)
{
    for (int w = 0; w < W_N; w++)
        w_real[w] = NULL;
}

/* `real`: the thread operation's next definition (wrapper w), as REAL */
#define SYNC_REAL(name, w) \
    __typeof__(name) *real = (__typeof__(name) *)w_real[w]; \
    if (__builtin_expect(!real, 0)) \
        real = (__typeof__(name) *)sync_real(w)

static void *start_thread(void *p)
{
    struct start st = *(struct start *)p;
    free(p);
    cap_tls.given = st.given;
    return st.fn(st.arg);
}

__attribute__((visibility("default")))
int pthread_create(pthread_t *th, const pthread_attr_t *attr,
                   void *(*fn)(void *), void *arg)
{
    SYNC_REAL(pthread_create, W_CREATE);
    if (!real)
        return ENOSYS;
    struct start *st = cap_on ? malloc(sizeof *st) : NULL;
    if (!st)
        return real(th, attr, fn, arg);
    st->fn = fn;
    st->arg = arg;
    st->given = atomic_fetch_add(&cap.next_thread, 1) + 1;
    uint32_t index = st->given - 1;
    int rc = real(th, attr, start_thread, st);
    if (rc != 0)
        free(st);               /* the index stays unused: a gap, harmless */
    else
        sync_op(TTF_SYNC_CREATE, (const void *)*th, index);
    return rc;
}

__attribute__((visibility("default")))
int pthread_setname_np(pthread_t th, const char *name)
{
    REAL(pthread_setname_np, 0);
    int rc = real ? real(th, name) : ENOSYS;
    if (rc != 0 || !cap_on)
        return rc;
    struct tstate *t = &cap_tls;
    if (!pthread_equal(th, pthread_self())) {
        atomic_fetch_add(&cap.name_gen, 1);
        return rc;
    }
    if (!t->busy && t->state != TS_DONE) {
        t->busy = 1;
        char buf[CAP_NAME_LEN];
        snprintf(buf, sizeof buf, "%s", name);
        cap_write_name(t, buf);
        t->busy = 0;
    }
    return rc;
}

/* ---- thread synchronisation: SYNC_OP records ------------------------------------
 *
 * Mutex, condition and thread operations are recorded in the calling
 * thread's stream with the object's address. The cost is the real call plus
 * one record (about 6-12 bytes); the path takes no lock, allocates nothing,
 * and a thread already inside a write (a signal handler, or libttcap's own
 * use) records nothing, so it never recurses. TTCAP_SYNC=0 turns it off. */

static void sync_flag(void)
{
    if (atomic_load_explicit(&cap.sync_flagged, memory_order_relaxed) || !cap.hdr)
        return;
    atomic_store(&cap.sync_flagged, 1);
    __atomic_fetch_or((uint32_t *)(cap.hdr + TTF_H_OPT), TTF_OPT_SYNC, __ATOMIC_RELAXED);
}

static void sync_op(int op, const void *obj, int64_t arg)
{
    struct tstate *t = &cap_tls;
    if (!cap_on || !cap.sync || t->busy || t->state == TS_DONE)
        return;
    t->busy = 1;
    atomic_signal_fence(memory_order_seq_cst);
    uint8_t *p = cap_room(t, 40);
    if (p) {
        uint8_t *q = cap_put_t(t, p + 2);
        *q++ = (uint8_t)op;
        q = ttf_put_uvar(q, (uint64_t)(uintptr_t)obj);
        q = ttf_put_svar(q, arg);
        cap_commit(t, p, TTF_R_SYNC_OP, cap_ext_close(p, q));
        sync_flag();
    }
    cap_sync_counts(t);         /* the EXITs of the calls around it read the clock */
    atomic_signal_fence(memory_order_seq_cst);
    t->busy = 0;
}

/* A lock's first try (the mutex's trylock): 0 when it took the mutex,
 * EBUSY when another thread holds it (the lock will wait: LOCKING is
 * recorded, so a thread that never gets the mutex shows where it hung),
 * -1 when it cannot tell (no trylock, tracing off: the lock decides),
 * else the trylock's answer is the lock's (EOWNERDEAD: taken; EINVAL,
 * EAGAIN). On the uncontended path the trylock is the lock. */
static int locking(pthread_mutex_t *m)
{
    if (!cap_on || !cap.sync)   /* first: no look-up when nothing is recorded */
        return -1;
    int (*try)(pthread_mutex_t *) = (int (*)(pthread_mutex_t *))found(W_TRYLOCK);
    return try ? try(m) : -1;
}

__attribute__((visibility("default")))
int pthread_mutex_lock(pthread_mutex_t *m)
{
    SYNC_REAL(pthread_mutex_lock, W_LOCK);
    int rc = locking(m);
    if (rc == EBUSY)            /* another thread holds it: a wait begins */
        sync_op(TTF_SYNC_LOCKING, m, 0);
    if (rc == EBUSY || rc < 0)
        rc = real ? real(m) : ENOSYS;
    if (rc == 0)
        sync_op(TTF_SYNC_LOCK, m, 0);
    return rc;
}

__attribute__((visibility("default")))
int pthread_mutex_trylock(pthread_mutex_t *m)
{
    SYNC_REAL(pthread_mutex_trylock, W_TRYLOCK);
    int rc = real ? real(m) : ENOSYS;
    sync_op(TTF_SYNC_TRYLOCK, m, rc);
    return rc;
}

__attribute__((visibility("default")))
int pthread_mutex_unlock(pthread_mutex_t *m)
{
    SYNC_REAL(pthread_mutex_unlock, W_UNLOCK);
    sync_op(TTF_SYNC_UNLOCK, m, 0);
    return real ? real(m) : ENOSYS;
}

__attribute__((visibility("default")))
int pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m)
{
    SYNC_REAL(pthread_cond_wait, W_WAIT);
    sync_op(TTF_SYNC_WAIT, c, (int64_t)(uintptr_t)m);
    int rc = real ? real(c, m) : ENOSYS;
    sync_op(TTF_SYNC_WOKE, c, rc);
    return rc;
}

__attribute__((visibility("default")))
int pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
                           const struct timespec *abstime)
{
    SYNC_REAL(pthread_cond_timedwait, W_TIMEDWAIT);
    sync_op(TTF_SYNC_WAIT, c, (int64_t)(uintptr_t)m);
    int rc = real ? real(c, m, abstime) : ENOSYS;
    sync_op(TTF_SYNC_WOKE, c, rc);
    return rc;
}

__attribute__((visibility("default")))
int pthread_cond_signal(pthread_cond_t *c)
{
    SYNC_REAL(pthread_cond_signal, W_SIGNAL);
    sync_op(TTF_SYNC_SIGNAL, c, 0);
    return real ? real(c) : ENOSYS;
}

__attribute__((visibility("default")))
int pthread_cond_broadcast(pthread_cond_t *c)
{
    SYNC_REAL(pthread_cond_broadcast, W_BROADCAST);
    sync_op(TTF_SYNC_BROADCAST, c, 0);
    return real ? real(c) : ENOSYS;
}

__attribute__((visibility("default")))
int pthread_join(pthread_t th, void **ret)
{
    SYNC_REAL(pthread_join, W_JOIN);
    sync_op(TTF_SYNC_JOINING, (const void *)th, 0);
    int rc = real ? real(th, ret) : ENOSYS;
    if (rc == 0)
        sync_op(TTF_SYNC_JOIN, (const void *)th, 0);
    return rc;
}

/* A semaphore's wait: its try first (sem_trywait: 0 took one, -1 with
 * EAGAIN the count is 0: the wait begins, SEM_WAITING is recorded, so a
 * thread that never gets one shows where it hung), then the real wait;
 * SEM_TAKEN when it took one. errno is the real call's. */
__attribute__((visibility("default")))
int sem_wait(sem_t *sem)
{
    SYNC_REAL(sem_wait, W_SEMWAIT);
    int (*try)(sem_t *) = (int (*)(sem_t *))found(W_SEMTRY);
    int rc = try && cap_on && cap.sync ? try(sem) : -2;
    if (rc == -1 && errno == EAGAIN)
        sync_op(TTF_SYNC_SEM_WAITING, sem, 0);
    if (rc != 0)
        rc = real ? real(sem) : (errno = ENOSYS, -1);
    if (rc == 0)
        sync_op(TTF_SYNC_SEM_TAKEN, sem, 0);
    return rc;
}

__attribute__((visibility("default")))
int sem_trywait(sem_t *sem)
{
    SYNC_REAL(sem_trywait, W_SEMTRY);
    int rc = real ? real(sem) : (errno = ENOSYS, -1);
    if (rc == 0) {
        int e = errno;
        sync_op(TTF_SYNC_SEM_TAKEN, sem, 0);
        errno = e;
    }
    return rc;
}

__attribute__((visibility("default")))
int sem_post(sem_t *sem)
{
    SYNC_REAL(sem_post, W_SEMPOST);
    sync_op(TTF_SYNC_SEM_POST, sem, 0);
    return real ? real(sem) : (errno = ENOSYS, -1);
}

/* ---- vfork (cap_vfork.S) ------------------------------------------------------
 *
 * A vfork child runs on the parent's memory, its thread's libttcap state
 * included, until it execs or exits, while the parent waits. It must write
 * nothing there: the child's calls would land in the parent's chunk as the
 * parent's own. So the child turns the thread's recording off in place and
 * the parent, once it resumes, turns it on again and writes VFORK (the
 * child's pid): the child's calls are not recorded. */

/* In the child, first thing: every event to the slow path (limit NULL),
 * which drops it (vforked). limit is kept first, vforked set before limit
 * goes: a child killed in between leaves the parent a state it restores. */
void cap_vfork_child(void)
{
    struct tstate *t = &cap_tls;
    t->vfork_limit = t->limit;
    atomic_signal_fence(memory_order_seq_cst);
    t->vforked = 1;
    atomic_signal_fence(memory_order_seq_cst);
    t->limit = NULL;
}

/* In the parent, the child gone (exec'd or exited): the state back, and
 * VFORK (t, uvar pid) in the parent's stream. */
void cap_vfork_parent(int pid)
{
    struct tstate *t = &cap_tls;
    if (t->vforked) {
        t->limit = t->vfork_limit;
        atomic_signal_fence(memory_order_seq_cst);
        t->vforked = 0;
    }
    if (!cap_on || t->busy || t->state == TS_DONE)
        return;
    t->busy = 1;
    atomic_signal_fence(memory_order_seq_cst);
    uint8_t *p = cap_room(t, 24);
    if (p) {
        uint8_t *q = cap_put_t(t, p + 2);
        q = ttf_put_uvar(q, (uint64_t)pid);
        cap_commit(t, p, TTF_R_VFORK, cap_ext_close(p, q));
    }
    atomic_signal_fence(memory_order_seq_cst);
    t->busy = 0;
}

/* vfork failed: errno, and -1. */
int cap_vfork_failed(int err)
{
    errno = err;
    return -1;
}

/* ---- setjmp and longjmp (cap_setjmp.S): UNWIND --------------------------------
 *
 * A longjmp leaves the frames between it and its setjmp without an EXIT;
 * left open, every later call would nest under them (a loop of longjmps
 * out of a deep recursion piles up dead frames without end). So setjmp
 * notes the jmp_buf with the thread's depth and its caller's stack
 * pointer, and longjmp writes UNWIND for the difference, sets the depth
 * back and drops values mode's shadow entries below that stack pointer.
 * A few jmp_bufs per thread are remembered (the most recent ones); a
 * longjmp to another is left to the readers, as before. A longjmp out of
 * a signal handler that interrupted one of our hot writes abandons that
 * write: its partial record is cleared and the thread moves to a new
 * chunk (the record may have moved the chunk's function cache). */
#define CAP_JMPS 8

struct jmprec {
    const void *env;            /* the jmp_buf */
    uintptr_t sp;               /* its setjmp's caller's stack pointer */
    int32_t depth;              /* the thread's depth there */
    uint8_t busy;               /* tstate.busy there (a handler that
                                   interrupted a write of ours) */
};
static __thread struct jmprec jmps[CAP_JMPS] __attribute__((tls_model("initial-exec")));
static __thread uint32_t jmp_next __attribute__((tls_model("initial-exec")));

void *cap_setjmp_note(const void *env, uintptr_t sp, int which);

/* The real setjmp and longjmp functions, found at start (cap_jumps_prime,
 * from the constructor: a longjmp often leaves a signal handler, where
 * dlsym could wait on a lock the interrupted code holds), else at first
 * use: NULL when there is none after libttcap (a program linked with libc
 * before it, whose calls then never reach these interposers). */
enum { J_SETJMP, J__SETJMP, J_SIGSETJMP, J_LONGJMP, J__LONGJMP, J_SIGLONGJMP,
       J_LONGJMP_CHK, J_N };
static void *_Atomic jreal[J_N];

void *cap_next_fn(void *_Atomic *slot, const char *name)
{
    void *f = atomic_load_explicit(slot, memory_order_relaxed);
    if (!f) {
        f = dlsym(RTLD_NEXT, name);
        atomic_store(slot, f);
    }
    return f;
}

static void *jump_real(int k)
{
    static const char *const names[J_N] = {"setjmp", "_setjmp", "__sigsetjmp", "longjmp",
                                           "_longjmp", "siglongjmp", "__longjmp_chk"};
    return cap_next_fn(&jreal[k], names[k]);
}

void cap_jumps_prime(void)
{
    for (int k = 0; k < J_N; k++)
        jump_real(k);
}

/* From cap_setjmp.S: env noted; the real setjmp (which: 0 setjmp, 1
 * _setjmp, 2 __sigsetjmp). None is fatal (abort). */
void *cap_setjmp_note(const void *env, uintptr_t sp, int which)
{
    void *f = jump_real(which);
    if (!f)
        abort();
    struct tstate *t = &cap_tls;
    uint32_t i = 0;
    while (i < CAP_JMPS && jmps[i].env != env)
        i++;
    if (i == CAP_JMPS)
        i = jmp_next++ % CAP_JMPS;
    jmps[i] = (struct jmprec){ env, sp, t->depth, t->busy };
    return f;
}

/* The jump to env is about to happen (from the longjmp interposers). */
static void jump_note(const void *env)
{
    struct tstate *t = &cap_tls;
    uint32_t i = 0;
    while (i < CAP_JMPS && jmps[i].env != env)
        i++;
    if (i == CAP_JMPS || !cap_on || t->vforked || t->state == TS_DONE)
        return;
    const struct jmprec *r = &jmps[i];
    if (t->busy && !r->busy && t->busy == CAP_BUSY_HOT && t->state == TS_LIVE && t->pos) {
        memset(t->pos, 0, CAP_VHOT_MAX);    /* the write we leave, unfinished */
        t->busy = 1;
        atomic_signal_fence(memory_order_seq_cst);
        cap_switch_chunk(t);
        t->busy = 0;
    }
    if (t->busy)
        return;
    t->busy = 1;
    atomic_signal_fence(memory_order_seq_cst);
    cap_values_jump(r->sp);
    if (t->depth > r->depth)
        cap_unwind(t, TTF_UNWIND_JMP, (uint32_t)(t->depth - r->depth));
    atomic_signal_fence(memory_order_seq_cst);
    t->busy = 0;
}

#define JMP_REAL(k) \
    void (*f)(struct __jmp_buf_tag *, int) = (void (*)(struct __jmp_buf_tag *, int))jump_real(k); \
    if (!f) \
        abort()

__attribute__((visibility("default"), noreturn))
void longjmp(struct __jmp_buf_tag env[1], int val)
{
    JMP_REAL(J_LONGJMP);
    jump_note(env);
    f(env, val);
    abort();
}

__attribute__((visibility("default"), noreturn))
void _longjmp(struct __jmp_buf_tag env[1], int val)
{
    JMP_REAL(J__LONGJMP);
    jump_note(env);
    f(env, val);
    abort();
}

__attribute__((visibility("default"), noreturn))
void siglongjmp(struct __jmp_buf_tag env[1], int val)
{
    JMP_REAL(J_SIGLONGJMP);
    jump_note(env);
    f(env, val);
    abort();
}

void __longjmp_chk(struct __jmp_buf_tag env[1], int val) __attribute__((noreturn));

/* longjmp with _FORTIFY_SOURCE */
__attribute__((visibility("default"), noreturn))
void __longjmp_chk(struct __jmp_buf_tag env[1], int val)
{
    JMP_REAL(J_LONGJMP_CHK);
    jump_note(env);
    f(env, val);
    abort();
}

/* ---- reaping children: a child that a signal killed cannot have written
 * its END (SIGKILL) or, untraced, did not: the parent records it. The
 * real functions are found at start (cap_waits_prime): a SIGCHLD handler
 * often reaps, and dlsym there could wait on a lock the interrupted code
 * holds. errno is the real call's. */
enum { RW_WAIT, RW_WAITPID, RW_WAIT3, RW_WAIT4, RW_WAITID, RW_N };
static void *_Atomic wreal[RW_N];

static void *wait_real(int k)
{
    static const char *const names[RW_N] = {"wait", "waitpid", "wait3", "wait4", "waitid"};
    return cap_next_fn(&wreal[k], names[k]);
}

void cap_waits_prime(void)
{
    for (int k = 0; k < RW_N; k++)
        wait_real(k);
}

/* The end of a wait function: pid was reaped with status st (a REAP row
 * when a signal killed it), given back through status as the real call
 * would have. Returns pid. */
static pid_t reaped(pid_t pid, int st, int *status)
{
    if (pid > 0 && WIFSIGNALED(st) && cap_tree.on) {
        int e = errno;
        cap_tree_reaped((int)pid, WTERMSIG(st));
        errno = e;
    }
    if (status && pid > 0)
        *status = st;
    return pid;
}

#define WAIT_REAL(name, k) \
    __typeof__(name) *real = (__typeof__(name) *)wait_real(k); \
    if (!real) { \
        errno = ENOSYS; \
        return -1; \
    }

__attribute__((visibility("default")))
pid_t wait(int *status)
{
    WAIT_REAL(wait, RW_WAIT);
    int st = 0;
    pid_t pid = real(&st);
    return reaped(pid, st, status);
}

__attribute__((visibility("default")))
pid_t waitpid(pid_t which, int *status, int options)
{
    WAIT_REAL(waitpid, RW_WAITPID);
    int st = 0;
    pid_t pid = real(which, &st, options);
    return reaped(pid, st, status);
}

__attribute__((visibility("default")))
pid_t wait3(int *status, int options, struct rusage *ru)
{
    WAIT_REAL(wait3, RW_WAIT3);
    int st = 0;
    pid_t pid = real(&st, options, ru);
    return reaped(pid, st, status);
}

__attribute__((visibility("default")))
pid_t wait4(pid_t which, int *status, int options, struct rusage *ru)
{
    WAIT_REAL(wait4, RW_WAIT4);
    int st = 0;
    pid_t pid = real(which, &st, options, ru);
    return reaped(pid, st, status);
}

__attribute__((visibility("default")))
int waitid(idtype_t idtype, id_t id, siginfo_t *info, int options)
{
    WAIT_REAL(waitid, RW_WAITID);
    int rc = real(idtype, id, info, options);
    if (rc == 0 && info && !(options & WNOWAIT) && info->si_pid > 0 &&
        (info->si_code == CLD_KILLED || info->si_code == CLD_DUMPED) && cap_tree.on) {
        int e = errno;
        cap_tree_reaped((int)info->si_pid, info->si_status);
        errno = e;
    }
    return rc;
}

/* ---- sleeps and I/O waits: recorded, so a loop that ran more times in one
 * run can be shown to have waited (diff/timing.c), not merely to have left
 * an idle gap. One SLEEP record before the call, none when it cannot block
 * (a zero timeout). */

static int64_t ts_ns(const struct timespec *ts)
{
    return ts ? (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec : -1;
}

__attribute__((visibility("default")))
int usleep(useconds_t us)
{
    REAL(usleep, 0);
    if (us)
        sync_op(TTF_SYNC_SLEEP, (const void *)&usleep, (int64_t)us * 1000);
    return real ? real(us) : (errno = ENOSYS, -1);
}

__attribute__((visibility("default")))
int nanosleep(const struct timespec *req, struct timespec *rem)
{
    REAL(nanosleep, 0);
    sync_op(TTF_SYNC_SLEEP, (const void *)&nanosleep, ts_ns(req));
    return real ? real(req, rem) : (errno = ENOSYS, -1);
}

__attribute__((visibility("default")))
int clock_nanosleep(clockid_t id, int flags, const struct timespec *req, struct timespec *rem)
{
    REAL(clock_nanosleep, 0);
    sync_op(TTF_SYNC_SLEEP, (const void *)&clock_nanosleep, flags ? -1 : ts_ns(req));
    return real ? real(id, flags, req, rem) : ENOSYS;
}

__attribute__((visibility("default")))
int poll(struct pollfd *fds, nfds_t n, int timeout)
{
    REAL(poll, 0);
    if (timeout)
        sync_op(TTF_SYNC_SLEEP, (const void *)&poll, timeout < 0 ? -1 : (int64_t)timeout * 1000000);
    return real ? real(fds, n, timeout) : (errno = ENOSYS, -1);
}

__attribute__((visibility("default")))
int select(int n, fd_set *r, fd_set *w, fd_set *e, struct timeval *tv)
{
    REAL(select, 0);
    if (!tv || tv->tv_sec || tv->tv_usec)
        sync_op(TTF_SYNC_SLEEP, (const void *)&select,
                tv ? (int64_t)tv->tv_sec * 1000000000 + (int64_t)tv->tv_usec * 1000 : -1);
    return real ? real(n, r, w, e, tv) : (errno = ENOSYS, -1);
}

__attribute__((visibility("default")))
int epoll_wait(int fd, struct epoll_event *ev, int max, int timeout)
{
    REAL(epoll_wait, 0);
    if (timeout)
        sync_op(TTF_SYNC_SLEEP, (const void *)&epoll_wait,
                timeout < 0 ? -1 : (int64_t)timeout * 1000000);
    return real ? real(fd, ev, max, timeout) : (errno = ENOSYS, -1);
}
