/* glib2.0-idlewake's application: the usual GLib way to hand a result
 * from a worker thread back to the main thread. The main thread runs the
 * default main loop; a worker computes a checksum of a 4 MiB buffer (its
 * input arrives 100 ms after start, as from a slow device), then posts
 * the result with g_idle_add; the idle callback, run by the main loop,
 * prints it and quits the loop. */
#include <glib.h>
#include <stdio.h>
#include <stdlib.h>

static GMainLoop *loop;

struct result {
    guint32 sum;
    gsize len;
};

static gboolean report(gpointer data)
{
    struct result *r = data;
    printf("checksum of %zu bytes: %08x\n", (size_t)r->len, r->sum);
    g_main_loop_quit(loop);
    return G_SOURCE_REMOVE;
}

static gpointer worker(gpointer data)
{
    struct result *r = data;
    g_usleep(100 * 1000);   /* the input arrives */
    r->len = 4u << 20;
    guchar *buf = g_malloc(r->len);
    for (gsize i = 0; i < r->len; i++)
        buf[i] = (guchar)(i * 31 + 7);
    guint32 sum = 1;
    for (gsize i = 0; i < r->len; i++)
        sum = sum * 33 + buf[i];
    g_free(buf);
    r->sum = sum;
    g_idle_add(report, r);
    return NULL;
}

int main(void)
{
    struct result r = { 0, 0 };
    loop = g_main_loop_new(NULL, FALSE);
    GThread *t = g_thread_new("worker", worker, &r);
    g_main_loop_run(loop);
    g_thread_join(t);
    g_main_loop_unref(loop);
    return r.len ? 0 : 1;
}
