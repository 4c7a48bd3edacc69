/* ecwait.c - benchmark application for tests/realbugs/cases/ck-ecwake:
 * a consumer thread waits on a ck_ec32 event count (Concurrency Kit's
 * futex-based event count, the ops are futex calls as in ck's own
 * regressions/ck_ec/benchmark) for a job the main thread publishes 200 ms
 * later; the consumer reports how long after the publication it woke.
 * Exit 0 when it woke within 300 ms of the event, 1 otherwise. */
#include <ck_ec.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int ec_gettime(const struct ck_ec_ops *ops, struct timespec *out)
{
    (void)ops;
    return clock_gettime(CLOCK_MONOTONIC, out);
}

static void ec_wait32(const struct ck_ec_wait_state *state, const uint32_t *address,
                      uint32_t expected, const struct timespec *deadline)
{
    (void)state;
    syscall(SYS_futex, address, FUTEX_WAIT_BITSET, expected, deadline, NULL,
            FUTEX_BITSET_MATCH_ANY, 0);
}

static void ec_wake32(const struct ck_ec_ops *ops, const uint32_t *address)
{
    (void)ops;
    syscall(SYS_futex, address, FUTEX_WAKE, INT_MAX, NULL, NULL, 0);
}

static const struct ck_ec_ops ec_ops = {
    .gettime = ec_gettime,
    .wait32 = ec_wait32,
    .wake32 = ec_wake32,
};
static const struct ck_ec_mode ec_mode = { .ops = &ec_ops, .single_producer = false };

static struct ck_ec32 jobs_ready = CK_EC_INITIALIZER;
static int job_value;
static struct timespec published;

static long ms_between(struct timespec a, struct timespec b)
{
    return (b.tv_sec - a.tv_sec) * 1000 + (b.tv_nsec - a.tv_nsec) / 1000000;
}

static long take_job(void)
{
    struct timespec timeout = { 3, 0 }, deadline, woke;
    uint32_t seen = ck_ec32_value(&jobs_ready);

    if (ck_ec_deadline(&deadline, &ec_mode, &timeout) != 0)
        return -1;
    while (ck_ec32_value(&jobs_ready) == seen) {
        if (ck_ec32_wait(&jobs_ready, &ec_mode, seen, &deadline) != 0)
            return -1;
    }
    clock_gettime(CLOCK_MONOTONIC, &woke);
    return ms_between(published, woke);
}

static void *consumer(void *arg)
{
    long *late = arg;

    *late = take_job();
    return NULL;
}

static void publish_job(int value)
{
    job_value = value;
    clock_gettime(CLOCK_MONOTONIC, &published);
    ck_ec32_inc(&jobs_ready, &ec_mode);
}

int main(void)
{
    pthread_t t;
    long late = -1;

    if (pthread_create(&t, NULL, consumer, &late) != 0)
        return 2;
    usleep(200000);          /* the consumer is asleep in its wait by now */
    publish_job(7);
    pthread_join(t, NULL);
    if (late < 0) {
        printf("consumer: no job within 3 s\n");
        return 1;
    }
    if (late > 300) {
        printf("consumer: job %d taken %ld ms after it was published: the wake-up was lost\n",
               job_value, late);
        return 1;
    }
    printf("consumer: job %d taken at once\n", job_value);
    return 0;
}
