/* confswap.c - benchmark application for tests/realbugs/cases/ck-epochstate:
 * epoch-based reclamation with Concurrency Kit's ck_epoch. A reader
 * thread registers its epoch record, enters a read section, takes the
 * current configuration and works with it for 200 ms; meanwhile the main
 * thread publishes a new configuration, waits for a grace period
 * (ck_epoch_synchronize_wait, sleeping 1 ms whenever a reader holds it
 * up) and retires the old one (its fields poisoned, back to a pool).
 * Exit 0 when the reader saw a live configuration, 1 otherwise. */
#include <ck_epoch.h>
#include <ck_pr.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

struct config {
    int version;
    int limit;
};

static ck_epoch_t epoch;
static struct config configs[2] = { { 1, 100 }, { 2, 200 } };
static struct config *current = &configs[0];
static pthread_mutex_t step_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t step_cond = PTHREAD_COND_INITIALIZER;
static int step;
/* the reader's epoch record: it stays on the global list after the
 * reader's thread ends (ck_epoch_unregister only marks it free), so it
 * must outlive the thread */
static ck_epoch_record_t reader_record;

static void step_to(int s)
{
    pthread_mutex_lock(&step_lock);
    step = s;
    pthread_cond_broadcast(&step_cond);
    pthread_mutex_unlock(&step_lock);
}

static void wait_step(int s)
{
    pthread_mutex_lock(&step_lock);
    while (step < s)
        pthread_cond_wait(&step_cond, &step_lock);
    pthread_mutex_unlock(&step_lock);
}

static int use_config(const struct config *c)
{
    usleep(200000);                 /* work with it */
    if (c->version <= 0) {
        printf("reader: configuration retired under the reader (version %d, limit %d)\n",
               c->version, c->limit);
        return 1;
    }
    printf("reader: configuration %d, limit %d\n", c->version, c->limit);
    return 0;
}

static void *reader(void *arg)
{
    ck_epoch_section_t section;
    struct config *c;
    int *status = arg;

    ck_epoch_register(&epoch, &reader_record, NULL);
    ck_epoch_begin(&reader_record, &section);
    c = ck_pr_load_ptr(&current);
    step_to(1);
    *status = use_config(c);
    ck_epoch_end(&reader_record, &section);
    return NULL;
}

static void wait_cb(ck_epoch_t *global, ck_epoch_record_t *cr, void *ct)
{
    (void)global; (void)cr; (void)ct;
    usleep(1000);                   /* a reader holds the grace period up */
}

static void retire_config(struct config *c)
{
    c->version = -1;                /* poisoned: back to the pool */
    c->limit = 0;
}

int main(void)
{
    pthread_t t;
    struct config *old;
    int status = 2;

    ck_epoch_init(&epoch);
    if (pthread_create(&t, NULL, reader, &status) != 0)
        return 2;
    wait_step(1);
    old = ck_pr_fas_ptr(&current, &configs[1]);
    ck_epoch_synchronize_wait(&epoch, wait_cb, NULL);
    retire_config(old);
    pthread_join(t, NULL);
    return status;
}
