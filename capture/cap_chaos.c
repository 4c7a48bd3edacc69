/*
 * cap_chaos.c - chaos mode: shake the schedule at the points libttcap
 * already sees (TTCAP_CHAOS=SEED[,entries]; ttrec --chaos sets it).
 *
 * Design. A race whose window is a few hundred nanoseconds shows once in
 * hundreds of runs because the threads rarely meet inside it. Like rr's
 * chaos mode and Undo's thread fuzzing, chaos mode changes the odds
 * rather than the program: before a mutex lock or unlock, a thread
 * create, a join and the condition operations (the calls cap_interpose.c
 * wraps for SYNC_OP records), a thread draws a random number and now and
 * then yields the CPU (sched_yield) or sleeps a few tens of microseconds.
 * A sleep before a lock holds the thread inside whatever window ends at
 * that lock (a check done outside it), long enough for another thread to
 * walk in; a sleep before an unlock stretches a critical section; a yield
 * hands a single core to another thread. With `entries` the same happens,
 * more rarely, at function entries (plain -finstrument-functions mode),
 * which reaches windows with no sync operation nearby.
 *
 * Reproducible. Each thread draws from its own splitmix64 stream, seeded
 * from the run's seed and the thread's index (creation order): no lock,
 * no allocation, no shared state on the fast path. The same program given
 * the same seed makes the same decisions at the same points of each
 * thread, so the perturbation (not the whole schedule: the OS still
 * decides the rest) is repeated, and the seed goes into the PROCESS record
 * (FORMAT.md) for the report to name.
 *
 * Cost. Off by default: the sync wrappers test one global word (cap_chaos
 * .on) and the entry hook none at all (cap_on holds CAP_ON_CHAOS only when
 * entries are on, and the hook's existing "cap_on != 1" test sends it
 * here). On, a point costs a draw (a few ns) unless it acts.
 */
#include <sched.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "cap_int.h"

struct cap_chaos_cfg cap_chaos;

/* Next value of a splitmix64 stream (Steele, Lea, Flood 2014). */
uint64_t cap_chaos_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* A thread's first state: the run's seed and its index, mixed (two
 * threads of one run, or one thread of two seeds, get unrelated streams). */
uint64_t cap_chaos_thread_seed(uint64_t seed, uint32_t index)
{
    uint64_t s = seed ^ ((uint64_t)index * 0xd1b54a32d192ed03ull);
    return cap_chaos_next(&s);
}

/* What to do for draw r at a point of kind k (CAP_CHAOS_*): 0 nothing,
 * CAP_CHAOS_YIELD, or a sleep of that many microseconds (10..89). At a
 * sync operation 1 in 8 draws sleeps and 1 in 8 yields; at a function
 * entry 1 in 512 sleeps and 1 in 64 yields (entries are many more). */
unsigned cap_chaos_decide(uint64_t r, int k)
{
    unsigned low = (unsigned)(r & 1023), sleep_us = 10 + (unsigned)((r >> 10) % 80);

    if (k == CAP_CHAOS_SYNC)
        return low < 128 ? sleep_us : low < 256 ? CAP_CHAOS_YIELD : 0;
    return low < 2 ? sleep_us : low < 18 ? CAP_CHAOS_YIELD : 0;
}

/* One chaos point in thread t: draw, then yield or sleep or not. */
void cap_chaos_point(struct tstate *t, int k)
{
    if (!t->chaos_ready) {
        uint32_t index = t->state != TS_NEW ? t->index : t->given ? t->given - 1 : 0;
        t->chaos_rng = cap_chaos_thread_seed(cap_chaos.seed, index);
        t->chaos_ready = 1;
    }
    unsigned d = cap_chaos_decide(cap_chaos_next(&t->chaos_rng), k);
    if (d == CAP_CHAOS_YIELD) {
        sched_yield();
    } else if (d) {
        struct timespec ts = {0, (long)d * 1000};
        syscall(SYS_nanosleep, &ts, NULL); /* not libttcap's own nanosleep,
                                              which records a SLEEP: chaos's
                                              delays are no program's wait */
    }
}
