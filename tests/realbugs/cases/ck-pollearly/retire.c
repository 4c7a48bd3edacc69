/* retire.c - benchmark application for tests/realbugs/cases/ck-pollearly:
 * deferred reclamation with Concurrency Kit's ck_epoch, the non-blocking
 * way (ck_epoch_call to queue a retired object's destructor,
 * ck_epoch_poll to run what is safe to run, never waiting). A reader
 * thread enters a read section and takes the current route table; the
 * main thread (the writer) publishes a new table, queues the old one's
 * destructor with ck_epoch_call and polls twice while the reader still
 * holds the old table (the steps are handed over by a condition
 * variable: no sleep decides an order); then the reader checks its table
 * and leaves its section, and the writer waits for a grace period with
 * ck_epoch_barrier, which runs the destructor. Exit 0 when the reader's
 * table was intact; 1 when it was destroyed under the reader. */
#include <ck_epoch.h>
#include <ck_pr.h>
#include <pthread.h>
#include <stdio.h>
#include <stddef.h>

struct table {
    ck_epoch_entry_t entry;
    int version;
    int routes;
};

static ck_epoch_t epoch;
static struct table tables[2] = { { .version = 1, .routes = 16 }, { .version = 2, .routes = 24 } };
static struct table *current = &tables[0];
static pthread_mutex_t step_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t step_cond = PTHREAD_COND_INITIALIZER;
static int step;
static int destroyed;
/* epoch records stay on ck's global list after their thread ends */
static ck_epoch_record_t reader_record, writer_record;

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

/* the retired table's destructor (run by ck_epoch_dispatch) */
static void destroy_table(ck_epoch_entry_t *e)
{
    struct table *t = (struct table *)((char *)e - offsetof(struct table, entry));
    t->version = -1;                /* poisoned: back to the pool */
    t->routes = 0;
    destroyed++;
}

static int check_table(const struct table *t)
{
    if (t->version <= 0) {
        printf("reader: table destroyed under the reader (version %d, routes %d)\n",
               t->version, t->routes);
        return 1;
    }
    printf("reader: table %d, %d routes\n", t->version, t->routes);
    return 0;
}

static void *reader(void *arg)
{
    ck_epoch_section_t section;
    struct table *t;
    int *status = arg;

    ck_epoch_begin(&reader_record, &section);
    t = ck_pr_load_ptr(&current);
    step_to(1);                     /* the writer may retire it now */
    wait_step(2);                   /* the writer has polled */
    *status = check_table(t);
    ck_epoch_end(&reader_record, &section);
    return NULL;
}

int main(void)
{
    pthread_t r;
    struct table *old;
    int status = 2;

    ck_epoch_init(&epoch);
    ck_epoch_register(&epoch, &writer_record, NULL);
    ck_epoch_register(&epoch, &reader_record, NULL);
    if (pthread_create(&r, NULL, reader, &status) != 0)
        return 2;
    wait_step(1);
    old = ck_pr_fas_ptr(&current, &tables[1]);
    ck_epoch_call(&writer_record, &old->entry, destroy_table);
    ck_epoch_poll(&writer_record);  /* cannot run it yet: the reader is inside */
    ck_epoch_poll(&writer_record);
    step_to(2);
    pthread_join(r, NULL);
    ck_epoch_barrier(&writer_record);
    if (status == 0 && destroyed != 1) {
        printf("writer: retired table destroyed %d times\n", destroyed);
        status = 1;
    }
    return status;
}
