/* One operation on nng's aio framework (nng 1.5.2), awaited by two
 * threads: an aio sleeps 200 ms (nng_sleep_aio, a stand-in for a request);
 * its completion callback, run by one of nng's taskq threads, stores the
 * result. The main thread and a logger thread both nng_aio_wait on it
 * (nng_aio_wait(3) blocks until the operation and its callback are done,
 * from any thread); the main thread then joins the logger.
 *
 * Exit 0 when both saw the result; a lost wake-up hangs one of them. */
#include <nng/nng.h>
#include <pthread.h>
#include <stdio.h>

static nng_aio *aio;
static int result;
static int logged;

/* the completion callback (taskq thread) */
static void done_cb(void *arg)
{
    (void)arg;
    result = 42;
}

static __attribute__((noinline)) void log_result(int r)
{
    logged = r;
}

/* the logger thread: waits for the same operation */
static void *logger(void *arg)
{
    (void)arg;
    nng_aio_wait(aio);
    log_result(result);
    return NULL;
}

int main(void)
{
    pthread_t t;
    int rv;

    if ((rv = nng_aio_alloc(&aio, done_cb, NULL)) != 0) {
        fprintf(stderr, "nng_aio_alloc: %s\n", nng_strerror(rv));
        return 2;
    }
    nng_sleep_aio(200, aio);
    if (pthread_create(&t, NULL, logger, NULL) != 0) {
        fprintf(stderr, "pthread_create failed\n");
        return 2;
    }
    nng_aio_wait(aio);
    pthread_join(t, NULL);
    printf("result %d, logged %d\n", result, logged);
    nng_aio_free(aio);
    nng_fini();
    return result == 42 && logged == 42 ? 0 : 1;
}
