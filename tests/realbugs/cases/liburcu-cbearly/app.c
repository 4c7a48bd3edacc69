/* A configuration read under RCU and replaced by another thread, the old
 * one retired by call_rcu (liburcu 0.13, the memory-barrier flavour,
 * urcu-mb): a request thread takes the current configuration inside a
 * read-side critical section and uses it for a slow request (200 ms);
 * meanwhile the main thread publishes a new one and hands the old one to
 * call_rcu, whose callback retires it (poisoned, as a debug allocator
 * does) once a grace period has passed, in liburcu's call_rcu thread.
 * The main thread then joins the request and waits for the callbacks
 * (rcu_barrier). The request checks, at its end, the configuration it
 * used.
 *
 * Exit 0 when the request saw the configuration it started with; 1 when
 * it was retired under it. */
#define RCU_MB
#include <urcu.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct config {
    char name[32];
    int version;
    int port;
    struct rcu_head rcu;
};

static struct config *current;
static struct config configs[2] = {
    { "service v1", 1, 8080, { 0 } },
    { "service v2", 2, 8081, { 0 } },
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int entered;
static int seen_port, seen_version;
static int retired;

static __attribute__((noinline)) void serve(const struct config *c)
{
    usleep(200000);     /* the slow request, with c in use */
    seen_version = c->version;
    seen_port = c->port;
}

/* the request thread: one read-side critical section */
static void *request(void *arg)
{
    struct config *c;

    (void)arg;
    rcu_register_thread();
    rcu_read_lock();
    c = rcu_dereference(current);
    pthread_mutex_lock(&mu);
    entered = 1;
    pthread_cond_signal(&cv);
    pthread_mutex_unlock(&mu);
    serve(c);
    rcu_read_unlock();
    rcu_unregister_thread();
    return NULL;
}

/* the call_rcu callback (liburcu's call_rcu thread) */
static void retire_config(struct rcu_head *head)
{
    struct config *c = (struct config *)((char *)head - offsetof(struct config, rcu));

    memset(c, 0xdd, offsetof(struct config, rcu));
    retired++;
}

int main(void)
{
    pthread_t t;
    struct config *old;

    rcu_register_thread();
    (void)get_default_call_rcu_data();  /* start the call_rcu thread now */
    rcu_assign_pointer(current, &configs[0]);
    if (pthread_create(&t, NULL, request, NULL) != 0)
        return 2;
    pthread_mutex_lock(&mu);
    while (!entered)
        pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);

    old = rcu_xchg_pointer(&current, &configs[1]);
    call_rcu(&old->rcu, retire_config);

    pthread_join(t, NULL);
    rcu_barrier();
    rcu_unregister_thread();
    if (seen_version != 1 || seen_port != 8080) {
        printf("request used a retired configuration: version %d, port %d (%d retired)\n",
               seen_version, seen_port, retired);
        return 1;
    }
    printf("request used version %d, port %d (%d retired)\n", seen_version, seen_port, retired);
    return 0;
}
