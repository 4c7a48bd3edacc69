/* A configuration read under RCU and replaced by another thread
 * (liburcu 0.13, the memory-barrier flavour, urcu-mb): a request thread
 * takes the current configuration inside a read-side critical section
 * and uses it for a slow request (200 ms); meanwhile the main thread
 * publishes a new one, waits for a grace period (synchronize_rcu: every
 * reader that could still see the old configuration has left its
 * critical section) and retires the old one (poisoned, as a debug
 * allocator does). The request checks, at its end, the configuration it
 * used.
 *
 * Exit 0 when the request saw the configuration it started with; 1 when
 * it was retired under it. */
#define RCU_MB
#include <urcu.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct config {
    char name[32];
    int version;
    int port;
};

static struct config *current;
static struct config configs[2] = {
    { "service v1", 1, 8080 },
    { "service v2", 2, 8081 },
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int entered;
static int seen_port, seen_version;

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

static __attribute__((noinline)) void retire(struct config *c)
{
    memset(c, 0xdd, sizeof(*c));
}

int main(void)
{
    pthread_t t;
    struct config *old;

    rcu_register_thread();
    rcu_assign_pointer(current, &configs[0]);
    if (pthread_create(&t, NULL, request, NULL) != 0)
        return 2;
    pthread_mutex_lock(&mu);
    while (!entered)
        pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);

    old = rcu_xchg_pointer(&current, &configs[1]);
    synchronize_rcu();
    retire(old);

    pthread_join(t, NULL);
    rcu_unregister_thread();
    if (seen_version != 1 || seen_port != 8080) {
        printf("request used a retired configuration: version %d, port %d\n",
               seen_version, seen_port);
        return 1;
    }
    printf("request used version %d, port %d\n", seen_version, seen_port);
    return 0;
}
