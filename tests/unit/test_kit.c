/*
 * test_kit.c - diff/'s container kit (diff/kit.c): the hash map, the table
 * of records, the counting multiset, the direct-mapped cache and the key
 * bitmap against plain arrays, with keys that collide in their home slot,
 * key 0, and growth across many doublings; the growable array to a guess.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "kit.h"

#define N 20000

/* Keys with clusters (many share low bits) and 0. */
static uint64_t key_of(size_t i)
{
    return i % 3 == 0 ? (uint64_t)i << 40 : (uint64_t)i * 0x9E3779B97F4A7C15ull;
}

typedef struct rec {
    uint64_t key;           /* the table's key: first */
    uint64_t twice;         /* key * 2 */
    const char *tag;        /* set once */
} rec;

static void table_records(void **state)
{
    (void)state;
    ttdi_table t;
    ttdi_table_init(&t, sizeof(rec));
    assert_null(ttdi_table_get(&t, 7));
    assert_null(ttdi_table_get(&t, 0));
    for (size_t i = 0; i < N; i++) {
        uint64_t k = key_of(i);
        assert_null(ttdi_table_get(&t, k));
        rec *r = ttdi_table_add(&t, k);
        assert_non_null(r);
        assert_true(r->key == k && r->twice == 0 && r->tag == NULL); /* zeroed */
        r->twice = 2 * k;
        r->tag = "x";
    }
    for (size_t i = 0; i < N; i++) {    /* every record kept across growth */
        const rec *r = ttdi_table_get(&t, key_of(i));
        assert_non_null(r);
        assert_true(r->key == key_of(i) && r->twice == 2 * key_of(i));
    }
    assert_non_null(ttdi_table_get(&t, 0));  /* key 0 (i = 0) kept apart */
    assert_null(ttdi_table_get(&t, 1));
    assert_int_equal(t.used, N - 1);
    assert_true(2 * t.used <= t.cap);
    ttdi_table_free(&t);
    assert_null(ttdi_table_get(&t, key_of(5)));
    assert_int_equal(t.size, sizeof(rec));
}

static void map_and_multiset(void **state)
{
    (void)state;
    ttdi_map m = {0};
    ttdi_openset o = {0};
    int added;

    for (size_t i = 0; i < N; i++) {
        uint64_t *v = ttdi_map_put(&m, key_of(i), &added);
        assert_non_null(v);
        assert_int_equal(added, 1);
        *v = i;
        assert_int_equal(ttdi_openset_add(&o, key_of(i % 100)), 0);
    }
    for (size_t i = 0; i < N; i++) {
        assert_int_equal(*ttdi_map_get(&m, key_of(i)), i);
        assert_int_equal(*ttdi_map_put(&m, key_of(i), &added), i);
        assert_int_equal(added, 0);
    }
    for (size_t i = 0; i < 100; i++)
        assert_int_equal(ttdi_openset_count(&o, key_of(i)), N / 100);
    for (size_t i = 0; i < N; i += 2)   /* removal keeps the others findable */
        ttdi_openset_del(&o, key_of(i % 100));
    for (size_t i = 0; i < 100; i++)
        assert_int_equal(ttdi_openset_count(&o, key_of(i)), i % 2 ? N / 100 : 0);
    ttdi_map_free(&m);
    ttdi_openset_free(&o);
}

typedef struct slot {
    uint64_t hash;
    uint32_t node;
} slot;

static void dmcache_slots(void **state)
{
    (void)state;
    ttdi_dmcache c = {0};

    assert_int_equal(ttdi_dmcache_reset(&c, 64, sizeof(slot)), 0);
    slot *a = ttdi_dmcache_slot(&c, 5), *b = ttdi_dmcache_slot(&c, 5 + 64);
    assert_ptr_equal(a, b);             /* same low bits: one slot */
    assert_ptr_not_equal(a, ttdi_dmcache_slot(&c, 6));
    a->hash = 5;
    a->node = 1;
    assert_int_equal(ttdi_dmcache_reset(&c, 32, sizeof(slot)), 0);
    assert_int_equal(c.cap, 64);        /* a larger cache stays as large */
    assert_int_equal(((slot *)ttdi_dmcache_slot(&c, 5))->node, 0); /* emptied */
    assert_int_equal(ttdi_dmcache_reset(&c, 256, sizeof(slot)), 0);
    assert_int_equal(c.cap, 256);
    ttdi_dmcache_free(&c);
}

static void keybits_no_false_negative(void **state)
{
    (void)state;
    uint64_t x[1000];
    ttdi_keybits kb;
    size_t maybe = 0;

    for (size_t i = 0; i < 1000; i++)
        x[i] = key_of(i);
    assert_int_equal(ttdi_keybits_fill(&kb, 14, x, 1000), 0);
    for (size_t i = 0; i < 1000; i++)
        assert_true(ttdi_keybits_has(&kb, x[i]));
    for (size_t i = 1000; i < 11000; i++)
        maybe += (size_t)ttdi_keybits_has(&kb, key_of(i));
    assert_true(maybe < 1500);          /* about 6% of 16384 bits set */
    ttdi_keybits_free(&kb);
}

/* ttdi_both's job: its thread and when it ran, after waiting for the
 * other job when asked (both must run at once: a job alone in the
 * caller would wait for ever, so it gives up after a second). */
typedef struct both_job {
    pthread_t self;
    int order, rc;
    int *clock;
    volatile int *flag;         /* set by the other job */
    volatile int *mine;         /* set by this one */
    int wait;
} both_job;

static int both_run(void *arg)
{
    both_job *j = arg;
    j->self = pthread_self();
    __atomic_store_n(j->mine, 1, __ATOMIC_SEQ_CST);     /* (the other thread reads it) */
    for (int k = 0; j->wait && !__atomic_load_n(j->flag, __ATOMIC_SEQ_CST) && k < 1000; k++)
        usleep(1000);
    j->order = __atomic_fetch_add(j->clock, 1, __ATOMIC_SEQ_CST);
    return j->rc;
}

/* ttdi_grow_guess: room for the guess in one step when it is more than
 * asked (contents kept), else ttdi_grow's doubling (a guess no bigger
 * than what is needed, none, or one past any size). */
static void grow_guess(void **state)
{
    uint64_t *v = NULL;
    size_t cap = 0;
    (void)state;

    assert_int_equal(ttdi_grow_guess(&v, &cap, 1, 0, sizeof *v, 64), 0);
    assert_int_equal(cap, 64);      /* no guess: ttdi_grow's first */
    for (size_t i = 0; i < 64; i++)
        v[i] = i * 7;
    assert_int_equal(ttdi_grow_guess(&v, &cap, 65, 1000.7, sizeof *v, 64), 0);
    assert_int_equal(cap, 1000);    /* the guess, in one step */
    for (size_t i = 0; i < 64; i++)
        assert_int_equal(v[i], i * 7);
    assert_int_equal(ttdi_grow_guess(&v, &cap, 900, 5000, sizeof *v, 64), 0);
    assert_int_equal(cap, 1000);    /* room enough: nothing done */
    assert_int_equal(ttdi_grow_guess(&v, &cap, 1001, 1001, sizeof *v, 64), 0);
    assert_int_equal(cap, 2000);    /* a guess no more than needed: doubled */
    assert_int_equal(ttdi_grow_guess(&v, &cap, 2001, 1e30, sizeof *v, 64), 0);
    assert_int_equal(cap, 4000);    /* past any size: doubled */
    for (size_t i = 0; i < 64; i++)
        assert_int_equal(v[i], i * 7);
    free(v);
}

static void both_jobs(void **state)
{
    (void)state;
    int clock = 0, rc[2];
    volatile int fa = 0, fb = 0;
    both_job a = {.rc = 3, .clock = &clock, .flag = &fb, .mine = &fa},
             b = {.rc = -5, .clock = &clock, .flag = &fa, .mine = &fb};

    /* one thread: a then b, both in the caller */
    ttdi_both(0, both_run, &a, &b, rc);
    assert_int_equal(rc[0], 3);
    assert_int_equal(rc[1], -5);
    assert_true(pthread_equal(a.self, pthread_self()));
    assert_true(pthread_equal(b.self, pthread_self()));
    assert_int_equal(a.order, 0);
    assert_int_equal(b.order, 1);
    /* two: b in a thread of its own, both at once (each waits until the
       other has started, so a run one after the other would not see it) */
    clock = 0;
    fa = fb = 0;
    a.wait = b.wait = 1;
    ttdi_both(1, both_run, &a, &b, rc);
    assert_int_equal(rc[0], 3);
    assert_int_equal(rc[1], -5);
    assert_true(pthread_equal(a.self, pthread_self()));
    assert_false(pthread_equal(b.self, pthread_self()));
    assert_true(__atomic_load_n(&fa, __ATOMIC_SEQ_CST) && __atomic_load_n(&fb, __ATOMIC_SEQ_CST));
    assert_int_equal(a.order + b.order, 1);
}

/* ttdi_aside: the job runs once, aside (a thread of its own, counted by
 * ttdi_aside_started) while the caller goes on, or at the join in the
 * caller when asked for one thread; the join hands its result back; a
 * join of nothing started (zeroed, or joined already) is 0. */
static void aside_job(void **state)
{
    (void)state;
    int clock = 0;
    volatile int fa = 0, fb = 0;
    both_job j = {.rc = -7, .clock = &clock, .flag = &fa, .mine = &fb};
    ttdi_aside a;
    uint64_t n0 = __atomic_load_n(&ttdi_aside_started, __ATOMIC_RELAXED);

    memset(&a, 0, sizeof a);
    assert_int_equal(ttdi_aside_join(&a), 0);
    ttdi_aside_start(&a, 0, both_run, &j);      /* one thread: not yet run */
    assert_int_equal(clock, 0);
    assert_int_equal(ttdi_aside_join(&a), -7);
    assert_int_equal(clock, 1);
    assert_true(pthread_equal(j.self, pthread_self()));
    assert_int_equal(ttdi_aside_join(&a), 0);   /* joined: nothing more */
    assert_int_equal(clock, 1);
    assert_int_equal(__atomic_load_n(&ttdi_aside_started, __ATOMIC_RELAXED), n0);
    /* two: it runs while the caller goes on (it waits for the caller's
       flag, which the caller sets only after the start returned) */
    j.wait = 1;
    j.rc = 4;
    fb = 0;
    ttdi_aside_start(&a, 1, both_run, &j);
    for (int k = 0; !__atomic_load_n(&fb, __ATOMIC_SEQ_CST) && k < 1000; k++)
        usleep(1000);
    assert_true(__atomic_load_n(&fb, __ATOMIC_SEQ_CST));  /* started before the join */
    __atomic_store_n(&fa, 1, __ATOMIC_SEQ_CST);
    assert_int_equal(ttdi_aside_join(&a), 4);
    assert_int_equal(clock, 2);
    assert_false(pthread_equal(j.self, pthread_self()));
    assert_int_equal(__atomic_load_n(&ttdi_aside_started, __ATOMIC_RELAXED), n0 + 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(table_records),
        cmocka_unit_test(map_and_multiset),
        cmocka_unit_test(dmcache_slots),
        cmocka_unit_test(keybits_no_false_negative),
        cmocka_unit_test(both_jobs),
        cmocka_unit_test(aside_job),
        cmocka_unit_test(grow_guess),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
