/* app.c - the libuv1-idna case's application (benchmark code): resolves
 * each argument with uv_getaddrinfo on libuv's thread pool (numeric
 * hosts only, AI_NUMERICHOST: no DNS), and prints each result from the
 * loop's callback, or the error uv_getaddrinfo returns at once. Exit: the
 * number of names that did not resolve. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <netdb.h>
#include "uv.h"

static int failed;

static void on_resolved(uv_getaddrinfo_t *req, int status, struct addrinfo *res)
{
    const char *name = req->data;
    char ip[64] = "";
    if (status < 0) {
        printf("%.20s...: %s\n", name, uv_strerror(status));
        failed++;
    } else {
        uv_ip4_name((struct sockaddr_in *)res->ai_addr, ip, sizeof ip);
        printf("%.20s: %s\n", name, ip);
    }
    uv_freeaddrinfo(res);
    free(req);
}

int main(int argc, char **argv)
{
    uv_loop_t *loop = uv_default_loop();
    struct addrinfo hints;
    int i, r;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_INET;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICHOST;
    for (i = 1; i < argc; i++) {
        uv_getaddrinfo_t *req = malloc(sizeof *req);
        req->data = argv[i];
        r = uv_getaddrinfo(loop, req, on_resolved, argv[i], "80", &hints);
        if (r < 0) {
            printf("%.20s...: not submitted: %s\n", argv[i], uv_strerror(r));
            failed++;
            free(req);
        }
    }
    uv_run(loop, UV_RUN_DEFAULT);
    uv_loop_close(loop);
    return failed;
}
