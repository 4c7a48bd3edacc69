/* app.c - the libev-skipcheck case's application (benchmark code): a
 * one-request "connection" on a libev loop. The request arrives on a
 * pipe (written before the loop starts); the io watcher's callback reads
 * it, stops the io watcher (one request a connection) and closes the
 * connection, whose cleanup stops the io watcher again (libev: stopping
 * an inactive watcher is allowed, ev.pod "ev_TYPE_stop") and leaves the
 * reply to a flush timer started with the connection, 20 ms after the
 * start. The loop ends when no watcher is active. Exit 0 when the flush
 * timer wrote the reply; 1 when the loop ended without it. */
#include <stdio.h>
#include <string.h>
#include <stddef.h>
#include <unistd.h>
#include "ev.h"

struct conn {
    ev_io io;
    ev_timer flush;
    int fds[2];
    char req[32];
    int flushed;
};

static void conn_close(struct ev_loop *loop, struct conn *c)
{
    ev_io_stop(loop, &c->io);       /* whatever state the reader left it in */
    close(c->fds[0]);
}

static void on_readable(struct ev_loop *loop, ev_io *w, int revents)
{
    struct conn *c = (struct conn *)w;
    ssize_t n = read(c->fds[0], c->req, sizeof c->req - 1);
    (void)revents;
    c->req[n > 0 ? n : 0] = '\0';
    ev_io_stop(loop, w);            /* one request a connection */
    conn_close(loop, c);
}

static void on_flush(struct ev_loop *loop, ev_timer *w, int revents)
{
    struct conn *c = (struct conn *)((char *)w - offsetof(struct conn, flush));
    (void)loop;
    (void)revents;
    printf("reply to \"%s\"\n", c->req);
    c->flushed = 1;
}

int main(void)
{
    struct ev_loop *loop = ev_default_loop(EVBACKEND_EPOLL);
    static struct conn c;
    if (loop == NULL || pipe(c.fds) != 0)
        return 2;
    if (write(c.fds[1], "GET /status", 11) != 11)
        return 2;
    ev_io_init(&c.io, on_readable, c.fds[0], EV_READ);
    ev_io_start(loop, &c.io);
    ev_timer_init(&c.flush, on_flush, 0.020, 0.);
    ev_timer_start(loop, &c.flush);
    ev_run(loop, 0);
    if (!c.flushed) {
        printf("loop ended before the reply was flushed\n");
        return 1;
    }
    return 0;
}
