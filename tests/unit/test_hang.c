/*
 * test_hang.c - a bad run that hung (diff/hang.c, issue 33) on hand-made
 * traces: the bad run abandoned (killed: no end marker, no crash) while
 * threads waited. Each rule and its must-nots:
 *   - a deadlock (ABBA): kind deadlock, "likely", the cycle named; must
 *     not: the lock's holder waits on a condition (no cycle);
 *   - a lost wake-up that hangs: kind order; must not: a signal after
 *     the wait began (the wait was not what was lost);
 *   - a join of a worker waiting for a signal that never came: kind
 *     hang, the good run's signaller and what it did last;
 *   - a lock held across a wait: kind hang, named where the holder took
 *     the lock, past a lock wrapper; must not: a thread still running at
 *     the end (it could have ended the wait);
 *   - no hang: a thread waiting at the end of both runs (the good one
 *     killed too); a wait that returned; a bad run that ended cleanly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ttdiff.h"
#include "diff_traces.h"
#include "tmpdir.h"

#define MA 0x5000u
#define MB 0x5100u
#define COND 0x6000u
#define TH1 0xa1u
#define TH2 0xa2u

static const char *const names[] = {"main", "seller-0", "seller-1"};
static const char *const twins[] = {"main", "worker", "worker"};
static const char *const *thread_names = names;

static void op(dt *t, uint32_t th, int code, uint64_t obj, int64_t arg)
{
    assert_int_equal(dt_sync(t, th, code, obj, arg), 0);
}

static void run(dt *t, uint32_t th, const char *s)
{
    assert_int_equal(dt_run(t, th, s), 0);
}

static char *path_of(const char *name)
{
    static char buf[4][512];
    static int k;
    char *p = buf[k++ % 4];
    snprintf(p, 512, "%s/%s", tu_tmpdir, name);
    return p;
}

static void open_trace(dt *t, const char *name)
{
    remove(path_of(name));
    assert_int_equal(dt_open(t, path_of(name), 0, thread_names, 3), 0);
}

/* The end of a run: closed (exit 0), or abandoned as a killed run
 * leaves it. */
static void finish(dt *t, int killed)
{
    assert_int_equal(killed ? ttf_writer_abandon(t->w) : ttf_writer_close(t->w, 0), 0);
}

static ttd_diff *diff(const char *g, const char *b)
{
    ttd_diff *d = NULL;
    assert_int_equal(ttd_diff_files(path_of(g), path_of(b), NULL, &d, NULL), 0);
    return d;
}

/* seller-0 takes A then B in `work`, seller-1 B then A in `helper`; in
 * the good run one after the other; in the bad run each takes its first,
 * then waits for its second (how 0). how 1 (must not): seller-1 holds B
 * but waits on a condition instead (no cycle). main joins seller-0. */
static void abba(const char *name, int bad, int how)
{
    dt t;

    open_trace(&t, name);
    run(&t, 0, "main{");
    op(&t, 0, TTF_SOP_CREATE, TH1, 1);
    op(&t, 0, TTF_SOP_CREATE, TH2, 2);
    t.now[1] = 1000;
    t.now[2] = bad ? 1005 : 2000;
    run(&t, 1, "parse{ work{");
    run(&t, 2, "parse{ helper{");
    op(&t, 1, TTF_SOP_LOCK, MA, 0);
    op(&t, 2, TTF_SOP_LOCK, MB, 0);
    if (!bad) {
        op(&t, 1, TTF_SOP_LOCK, MB, 0);
        op(&t, 1, TTF_SOP_UNLOCK, MB, 0);
        op(&t, 1, TTF_SOP_UNLOCK, MA, 0);
        run(&t, 1, "} }");
        if (how == 1) {
            op(&t, 2, TTF_SOP_WAIT, COND, MA);
            op(&t, 2, TTF_SOP_WOKE, COND, 0);
            op(&t, 2, TTF_SOP_UNLOCK, MA, 0);
        } else {
            op(&t, 2, TTF_SOP_LOCK, MA, 0);
            op(&t, 2, TTF_SOP_UNLOCK, MA, 0);
        }
        op(&t, 2, TTF_SOP_UNLOCK, MB, 0);
        run(&t, 2, "} }");
    } else {
        op(&t, 1, TTF_SOP_LOCKING, MB, 0);
        if (how == 1)
            op(&t, 2, TTF_SOP_WAIT, COND, MA);
        else
            op(&t, 2, TTF_SOP_LOCKING, MA, 0);
    }
    t.now[0] = 3000;
    op(&t, 0, TTF_SOP_JOINING, TH1, 0);
    if (!bad) {
        op(&t, 0, TTF_SOP_JOIN, TH1, 0);
        run(&t, 0, "}");
    }
    finish(&t, bad);
}

static void test_deadlock(void **state)
{
    (void)state;
    abba("dg0.trc", 0, 0);
    abba("db0.trc", 1, 0);
    ttd_diff *d = diff("dg0.trc", "db0.trc");
    const ttd_result *r = ttd_get_result(d);
    const ttd_verdict *v = r->verdict;

    assert_non_null(r->hang);
    assert_int_equal(r->hang->cause, TTD_HANG_DEADLOCK);
    assert_int_equal(r->hang->ncycle, 2);
    assert_non_null(v->cause);
    assert_int_equal(v->cause->kind, TTD_COF_DEADLOCK);
    assert_string_equal(v->cause->function, "dt_work");
    assert_string_equal(v->cause->text, "a deadlock: thread seller-0 waited for mutex#2 in "
                        "`dt_work`, held by thread seller-1 (taken in `dt_helper`); thread "
                        "seller-1 waited for mutex#1 in `dt_helper`, held by thread seller-0 "
                        "(taken in `dt_work`)");
    assert_non_null(strstr(v->evidence[0], "the bad run never ended (killed: no clean end) "
                                           "while thread main waited to join thread #1 in "
                                           "`dt_main`"));
    assert_non_null(strstr(v->evidence[0], "thread seller-0 waited for mutex#2 in `dt_work`"));
    assert_int_equal(v->confidence, TTD_CONF_LIKELY);
    assert_string_equal(ttd_cause_of_name(v->cause->kind), "deadlock");
    ttd_free(d);

    /* two threads of one name: told apart by their indexes */
    thread_names = twins;
    abba("dg2.trc", 0, 0);
    abba("db2.trc", 1, 0);
    thread_names = names;
    d = diff("dg2.trc", "db2.trc");
    assert_string_equal(ttd_get_result(d)->verdict->cause->text,
                        "a deadlock: thread #1 worker waited for mutex#2 in `dt_work`, held by "
                        "thread #2 worker (taken in `dt_helper`); thread #2 worker waited for "
                        "mutex#1 in `dt_helper`, held by thread #1 worker (taken in `dt_work`)");
    ttd_free(d);

    /* must not: seller-1 holds B but waits on a condition: no cycle */
    abba("dg1.trc", 0, 1);
    abba("db1.trc", 1, 1);
    d = diff("dg1.trc", "db1.trc");
    r = ttd_get_result(d);
    assert_non_null(r->hang);
    assert_int_not_equal(r->hang->cause, TTD_HANG_DEADLOCK);
    assert_int_not_equal(r->verdict->cause->kind, TTD_COF_DEADLOCK);
    assert_int_not_equal(r->verdict->confidence, TTD_CONF_LIKELY);
    ttd_free(d);
}

/* seller-0 signals the condition in `work`; main waits on it in `lex`
 * with no timeout. Good: main waits first, the signal wakes it. Bad: the
 * signal first, main waits for ever (how 0). how 1 (must not): seller-1
 * signals too, after main's wait began (in the bad run main still never
 * wakes: a signal came, the lost one is not why). how 2: seller-0
 * signals without the lock, and main takes it at 0.9 us, before the
 * signal, and holds it to its wait: the signal came between main's check
 * and its wait (the signaller is the cause). how 3 (must not for that):
 * the signal without the lock again, but main takes the lock after it
 * (the waiter is named, as in how 0). */
static void lost(const char *name, int bad, int how)
{
    dt t;
    int nolock = how == 2 || how == 3;

    open_trace(&t, name);
    op(&t, 0, TTF_SOP_CREATE, TH1, 1);
    t.now[1] = bad ? 1000 : 1200;
    run(&t, 1, "parse{ work{");
    if (!nolock)
        op(&t, 1, TTF_SOP_LOCK, MA, 0);
    op(&t, 1, TTF_SOP_SIGNAL, COND, 0);
    if (!nolock)
        op(&t, 1, TTF_SOP_UNLOCK, MA, 0);
    run(&t, 1, "} }");
    if (how == 1) {
        op(&t, 0, TTF_SOP_CREATE, TH2, 2);
        t.now[2] = bad ? 2000 : 1250;
        run(&t, 2, "parse{ work{");
        op(&t, 2, TTF_SOP_SIGNAL, COND, 0);
        run(&t, 2, "} }");
    }
    run(&t, 0, how == 2 ? "@900 main{ lex{" : "@1100 main{ lex{");
    op(&t, 0, TTF_SOP_LOCK, MA, 0);
    run(&t, 0, "@1100");
    op(&t, 0, TTF_SOP_WAIT, COND, MA);
    if (!bad) {
        run(&t, 0, "@1300");
        op(&t, 0, TTF_SOP_WOKE, COND, 0);
        op(&t, 0, TTF_SOP_UNLOCK, MA, 0);
        run(&t, 0, "} check{} }");
    }
    finish(&t, bad);
}

static void test_lost_wakeup_hang(void **state)
{
    (void)state;
    lost("lg0.trc", 0, 0);
    lost("lb0.trc", 1, 0);
    ttd_diff *d = diff("lg0.trc", "lb0.trc");
    const ttd_result *r = ttd_get_result(d);
    const ttd_verdict *v = r->verdict;

    assert_non_null(r->hang);
    assert_int_equal(r->hang->cause, TTD_HANG_LOST_WAKEUP);
    assert_int_equal(v->cause->kind, TTD_COF_ORDER);
    assert_string_equal(v->cause->function, "dt_lex");
    assert_string_equal(v->cause->thread, "main");
    assert_string_equal(v->cause->text, "`dt_work` (thread seller-0) signalled cond#1 before "
                        "`dt_lex` (thread main) waited on it in the bad run: the signal woke "
                        "nobody (a lost wake-up) and the wait never returned");
    assert_non_null(strstr(v->evidence[0], "while thread main waited on cond#1 in `dt_lex`"));
    assert_int_equal(v->confidence, TTD_CONF_POSSIBLE);
    ttd_free(d);

    /* must not: a signal came after the wait began */
    lost("lg1.trc", 0, 1);
    lost("lb1.trc", 1, 1);
    d = diff("lg1.trc", "lb1.trc");
    r = ttd_get_result(d);
    assert_non_null(r->hang);
    assert_int_not_equal(r->hang->cause, TTD_HANG_LOST_WAKEUP);
    assert_null(strstr(r->verdict->cause->text, "lost wake-up"));
    ttd_free(d);
    /* the signal inside main's critical section, sent without the lock:
     * the signaller named, kind race */
    lost("lg2.trc", 0, 2);
    lost("lb2.trc", 1, 2);
    d = diff("lg2.trc", "lb2.trc");
    r = ttd_get_result(d);
    v = r->verdict;
    assert_non_null(r->hang);
    assert_int_equal(r->hang->cause, TTD_HANG_LOST_WAKEUP);
    assert_int_equal(r->hang->unlocked, 1);
    assert_int_equal(v->cause->kind, TTD_COF_RACE);
    assert_string_equal(v->cause->function, "dt_work");
    assert_string_equal(v->cause->thread, "seller-0");
    assert_string_equal(v->cause->text, "`dt_work` (thread seller-0) signalled cond#1 while "
                        "thread main held the mutex of its wait, between its check and its wait "
                        "on cond#1 in `dt_lex`: a signal sent without the lock the waiter "
                        "checks under woke nobody (a lost wake-up) and the wait never returned");
    assert_int_equal(v->confidence, TTD_CONF_POSSIBLE);
    ttd_free(d);

    /* must not: the signal without the lock, but before main took it:
     * the waiter named, as without the rule (how 0) */
    lost("lg3.trc", 0, 3);
    lost("lb3.trc", 1, 3);
    d = diff("lg3.trc", "lb3.trc");
    r = ttd_get_result(d);
    v = r->verdict;
    assert_non_null(r->hang);
    assert_int_equal(r->hang->cause, TTD_HANG_LOST_WAKEUP);
    assert_int_equal(r->hang->unlocked, 0);
    assert_int_equal(v->cause->kind, TTD_COF_ORDER);
    assert_string_equal(v->cause->function, "dt_lex");
    ttd_free(d);

    /* must not: the good runs alike (how 2's): exit 0, no cause */
    lost("lg4.trc", 0, 2);
    d = diff("lg2.trc", "lg4.trc");
    r = ttd_get_result(d);
    assert_null(r->hang);
    assert_int_equal(r->verdict->exit, 0);
    assert_null(r->verdict->cause);
    ttd_free(d);
}

/* seller-0 waits in `wait` for main's start signal (from `helper`): on
 * a condition (sem 0), or to take from a semaphore main posted once
 * before (sem 1: its second take); main then joins it. Bad: main goes
 * `fail` instead of `helper`, and joins: both wait for ever. */
static void never(const char *name, int bad, int sem)
{
    dt t;

    open_trace(&t, name);
    run(&t, 0, "main{");
    op(&t, 0, TTF_SOP_CREATE, TH1, 1);
    if (sem) {
        run(&t, 0, "helper{");
        op(&t, 0, TTF_SOP_SEM_POST, COND, 0);
        run(&t, 0, "}");
    }
    t.now[1] = 1000;
    run(&t, 1, "parse{ wait{");
    if (sem) {
        op(&t, 1, TTF_SOP_SEM_TAKEN, COND, 0);
        run(&t, 1, "} wait{");
    } else {
        op(&t, 1, TTF_SOP_LOCK, MA, 0);
    }
    op(&t, 1, sem ? TTF_SOP_SEM_WAITING : TTF_SOP_WAIT, COND, sem ? 0 : MA);
    t.now[0] = 2000;
    run(&t, 0, bad ? "fail{}" : "helper{");
    if (!bad) {
        if (!sem)
            op(&t, 0, TTF_SOP_LOCK, MA, 0);
        op(&t, 0, sem ? TTF_SOP_SEM_POST : TTF_SOP_SIGNAL, COND, 0);
        if (!sem)
            op(&t, 0, TTF_SOP_UNLOCK, MA, 0);
        run(&t, 0, "}");
        t.now[1] = 2100;
        op(&t, 1, sem ? TTF_SOP_SEM_TAKEN : TTF_SOP_WOKE, COND, 0);
        if (!sem)
            op(&t, 1, TTF_SOP_UNLOCK, MA, 0);
        run(&t, 1, "} }");
    }
    t.now[0] = 3000;
    op(&t, 0, TTF_SOP_JOINING, TH1, 0);
    if (!bad) {
        op(&t, 0, TTF_SOP_JOIN, TH1, 0);
        run(&t, 0, "}");
    }
    finish(&t, bad);
}

static void test_never_came(void **state)
{
    (void)state;
    never("ng.trc", 0, 0);
    never("nb.trc", 1, 0);
    ttd_diff *d = diff("ng.trc", "nb.trc");
    const ttd_result *r = ttd_get_result(d);
    const ttd_verdict *v = r->verdict;

    assert_non_null(r->hang);
    assert_int_equal(r->hang->nblocked, 2);
    assert_int_equal(r->hang->cause, TTD_HANG_NEVER);
    assert_int_equal(v->cause->kind, TTD_COF_HANG);
    assert_string_equal(v->cause->function, "dt_wait");
    assert_string_equal(v->cause->text, "thread seller-0 waited on cond#1 in `dt_wait` for a "
                        "signal that never came: `dt_helper` (thread main) signalled it in the "
                        "good run, not in the bad run");
    assert_non_null(strstr(v->evidence[0], "thread main's last call in the bad run was "
                                           "`dt_fail`; it then waited to join thread #1 in "
                                           "`dt_main` (diff_traces.c:"));
    assert_int_equal(v->confidence, TTD_CONF_POSSIBLE);
    assert_string_equal(ttd_cause_of_name(v->cause->kind), "hang");
    ttd_free(d);
}

/* seller-0 takes the lock in `work` and, in the bad run, returns without
 * releasing it; main then waits for it in `lex` for ever. */
static void leaked(const char *name, int bad)
{
    dt t;

    open_trace(&t, name);
    run(&t, 0, "main{");
    op(&t, 0, TTF_SOP_CREATE, TH1, 1);
    t.now[1] = 1000;
    run(&t, 1, "parse{ work{");
    op(&t, 1, TTF_SOP_LOCK, MA, 0);
    if (!bad)
        op(&t, 1, TTF_SOP_UNLOCK, MA, 0);
    run(&t, 1, "} }");
    t.now[0] = 2000;
    run(&t, 0, "lex{");
    op(&t, 0, bad ? TTF_SOP_LOCKING : TTF_SOP_LOCK, MA, 0);
    if (!bad) {
        op(&t, 0, TTF_SOP_UNLOCK, MA, 0);
        run(&t, 0, "} }");
    }
    finish(&t, bad);
}

static void test_lock_never_released(void **state)
{
    (void)state;
    leaked("kg.trc", 0);
    leaked("kb.trc", 1);
    ttd_diff *d = diff("kg.trc", "kb.trc");
    const ttd_result *r = ttd_get_result(d);
    const ttd_verdict *v = r->verdict;

    assert_non_null(r->hang);
    assert_int_equal(r->hang->cause, TTD_HANG_NEVER);
    assert_int_equal(v->cause->kind, TTD_COF_HANG);
    assert_string_equal(v->cause->function, "dt_lex");
    assert_string_equal(v->cause->text, "thread main waited for mutex#1 in `dt_lex`, held by "
                        "thread seller-0 (taken in `dt_work`), which never released it");
    assert_non_null(strstr(v->evidence[0], "thread seller-0's last call in the bad run was "
                                           "`dt_work`; then it ended"));
    assert_int_equal(v->confidence, TTD_CONF_POSSIBLE);
    ttd_free(d);
}

/* seller-0 runs a job in `work`: its work, then MA (through a lock
 * wrapper, `mutex_lock`), then it says it is done. main cancels it in
 * `helper`: it takes MA through the wrapper, waits in `wait` on COND
 * (under MB) for the job's end, releases MA. Good: the cancel after the
 * job ended (no wait). Bad: main waits holding MA, seller-0 waits for MA.
 * how 1 (must not): seller-1 is still inside a call at the end (it could
 * have ended main's wait). */
static void held_wait(const char *name, int bad, int how)
{
    dt t;

    open_trace(&t, name);
    run(&t, 0, "main{");
    op(&t, 0, TTF_SOP_CREATE, TH1, 1);
    if (how == 1) {
        op(&t, 0, TTF_SOP_CREATE, TH2, 2);
        t.now[2] = 900;
        run(&t, 2, "parse{ log{");
    }
    t.now[1] = 1000;
    run(&t, 1, "parse{ work{ @1500 mutex_lock{");
    if (bad)
        op(&t, 1, TTF_SOP_LOCKING, MA, 0);
    t.now[0] = bad ? 1200 : 3000;
    run(&t, 0, "helper{ mutex_lock{");
    op(&t, 0, TTF_SOP_LOCK, MA, 0);
    run(&t, 0, "} wait{");
    op(&t, 0, TTF_SOP_LOCK, MB, 0);
    if (bad) {
        op(&t, 0, TTF_SOP_WAIT, COND, MB);
        finish(&t, 1);
        return;
    }
    op(&t, 0, TTF_SOP_UNLOCK, MB, 0);
    op(&t, 0, TTF_SOP_UNLOCK, MA, 0);
    run(&t, 0, "} }");
    t.now[1] = 3500;
    op(&t, 1, TTF_SOP_LOCK, MA, 0);
    run(&t, 1, "}");
    op(&t, 1, TTF_SOP_UNLOCK, MA, 0);
    run(&t, 1, "} }");
    if (how == 1)
        run(&t, 2, "} }");
    t.now[0] = 4000;
    op(&t, 0, TTF_SOP_JOINING, TH1, 0);
    op(&t, 0, TTF_SOP_JOIN, TH1, 0);
    run(&t, 0, "}");
    finish(&t, 0);
}

static void test_held_across_wait(void **state)
{
    (void)state;
    held_wait("hg0.trc", 0, 0);
    held_wait("hb0.trc", 1, 0);
    ttd_diff *d = diff("hg0.trc", "hb0.trc");
    const ttd_result *r = ttd_get_result(d);
    const ttd_verdict *v = r->verdict;

    assert_non_null(r->hang);
    assert_int_equal(r->hang->cause, TTD_HANG_HELD);
    assert_int_equal(r->hang->blocked[r->hang->root].thread, 0);
    assert_int_equal(r->hang->blocked[r->hang->waiter].thread, 1);
    assert_string_equal(r->hang->blocked[r->hang->waiter].taken_in, "dt_helper");
    assert_int_equal(v->cause->kind, TTD_COF_HANG);
    assert_string_equal(v->cause->function, "dt_helper");
    assert_string_equal(v->cause->thread, "main");
    assert_non_null(strstr(v->cause->text, "thread main took mutex#1 in `dt_helper` and then "
                                           "waited on cond#1 in `dt_wait` ("));
    assert_non_null(strstr(v->cause->text, ") holding it; thread seller-0 waited for mutex#1 "
                                           "in `dt_work`: a lock held across a wait that no "
                                           "thread was left running to end"));
    assert_int_equal(v->confidence, TTD_CONF_POSSIBLE);
    ttd_free(d);

    /* must not: seller-1 runs on (inside log at the end): the lock's
     * waiter is named, as before */
    held_wait("hg1.trc", 0, 1);
    held_wait("hb1.trc", 1, 1);
    d = diff("hg1.trc", "hb1.trc");
    r = ttd_get_result(d);
    assert_non_null(r->hang);
    assert_int_equal(r->hang->cause, TTD_HANG_NEVER);
    assert_string_equal(r->verdict->cause->function, "dt_work");
    assert_string_equal(r->verdict->cause->text, "thread seller-0 waited for mutex#1 in "
                        "`dt_work`, held by thread main (taken in `dt_helper`), which never "
                        "released it");
    ttd_free(d);
}

static void test_semaphore(void **state)
{
    (void)state;
    never("sg.trc", 0, 1);
    never("sb.trc", 1, 1);
    ttd_diff *d = diff("sg.trc", "sb.trc");
    const ttd_result *r = ttd_get_result(d);
    const ttd_verdict *v = r->verdict;

    assert_non_null(r->hang);
    assert_int_equal(r->hang->cause, TTD_HANG_NEVER);
    assert_int_equal(v->cause->kind, TTD_COF_HANG);
    assert_string_equal(v->cause->function, "dt_wait");
    assert_string_equal(v->cause->text, "thread seller-0 waited on sem#1 in `dt_wait` for a post "
                        "that never came: `dt_helper` (thread main) posted it in the good run, "
                        "not in the bad run");
    assert_int_equal(v->confidence, TTD_CONF_POSSIBLE);
    ttd_free(d);
}

/* Must nots, main's calls part in every case (check in the good run,
 * fail in the bad): how 0, seller-0 waits on the condition at the end of
 * both runs (the good run killed too); how 1, the bad run killed after
 * seller-0's first wait returned (the good run's seller-0 waited twice);
 * how 2, the bad run ended cleanly with seller-0 waiting (woken in the
 * good run). */
static void idle(const char *name, int bad, int how)
{
    dt t;

    open_trace(&t, name);
    run(&t, 0, "main{");
    op(&t, 0, TTF_SOP_CREATE, TH1, 1);
    t.now[1] = 1000;
    run(&t, 1, "parse{ wait{");
    op(&t, 1, TTF_SOP_LOCK, MA, 0);
    op(&t, 1, TTF_SOP_WAIT, COND, MA);
    if ((how == 1 || how == 2) && !bad)
        op(&t, 1, TTF_SOP_WOKE, COND, 0);
    if (how == 1) {
        if (bad) {
            op(&t, 1, TTF_SOP_WOKE, COND, 0);
        } else {
            op(&t, 1, TTF_SOP_WAIT, COND, MA);
            op(&t, 1, TTF_SOP_WOKE, COND, 0);
        }
    }
    t.now[0] = 2000;
    run(&t, 0, bad ? "fail{}" : "check{}");
    finish(&t, how == 0 || (bad && how == 1));
}

static void test_no_hang(void **state)
{
    (void)state;
    for (int how = 0; how <= 2; how++) {
        char g[32], b[32];
        snprintf(g, sizeof g, "ig%d.trc", how);
        snprintf(b, sizeof b, "ib%d.trc", how);
        idle(g, 0, how);
        idle(b, 1, how);
        ttd_diff *d = diff(g, b);
        const ttd_result *r = ttd_get_result(d);
        assert_true(r->diverged);
        assert_null(r->hang);
        assert_non_null(r->verdict->cause);
        assert_int_not_equal(r->verdict->cause->kind, TTD_COF_HANG);
        assert_int_not_equal(r->verdict->cause->kind, TTD_COF_DEADLOCK);
        ttd_free(d);
    }
}

/* Stopped threads (diff/hunks.c stopped_by_good): the bad run is killed
 * with every thread stopped where its good partner went on; main stops
 * at 10 ns (its good run goes on at 6 us), seller-0 at 1 us (on at 5 us),
 * seller-1 at 3 us (on at 2 us). Which went another way first the bad
 * run cannot say; the good run can: seller-1's hunk comes first. Must
 * not: the same bad run ended cleanly (its threads ended where they
 * did): the bad run's order, main first. */
static void stops(const char *name, int bad, int killed)
{
    dt t;

    open_trace(&t, name);
    run(&t, 0, "main{ parse{");
    if (!bad)
        run(&t, 0, "@6000 lex{} } }");
    t.now[1] = 1000;
    run(&t, 1, "work{ helper{} }");
    if (!bad)
        run(&t, 1, "@5000 check{}");
    t.now[2] = bad ? 3000 : 1500;
    run(&t, 2, "work{ helper{} }");
    if (!bad)
        run(&t, 2, "@2000 check{}");
    finish(&t, killed);
}

static void test_stopped_order(void **state)
{
    (void)state;
    stops("sg0.trc", 0, 0);
    stops("sb0.trc", 1, 1);
    ttd_diff *d = diff("sg0.trc", "sb0.trc");
    const ttd_result *r = ttd_get_result(d);
    assert_non_null(r->first);
    assert_string_equal(r->pairs[r->first->pair].bad.name, "seller-1");
    ttd_free(d);
    /* must not: the bad run ended cleanly: by the bad run's time */
    stops("sb1.trc", 1, 0);
    d = diff("sg0.trc", "sb1.trc");
    r = ttd_get_result(d);
    assert_non_null(r->first);
    assert_string_equal(r->pairs[r->first->pair].bad.name, "main");
    ttd_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deadlock),
        cmocka_unit_test(test_lost_wakeup_hang),
        cmocka_unit_test(test_stopped_order),
        cmocka_unit_test(test_never_came),
        cmocka_unit_test(test_lock_never_released),
        cmocka_unit_test(test_semaphore),
        cmocka_unit_test(test_held_across_wait),
        cmocka_unit_test(test_no_hang),
    };
    return cmocka_run_group_tests(tests, tu_tmpdir_setup, tu_tmpdir_teardown);
}
