/*
 * rel_hostile.c - reliability check (f): hostile strings in a trace.
 * Messages full of markup, script, quotes, newlines, terminal escape
 * sequences (ESC, raw and UTF-8 C1 controls) and invalid UTF-8; two
 * threads with hostile names. "bad" logs them in odd(), "good" does not,
 * so ttdiff shows them at its divergence. Usage: rel_hostile good|bad [ARG]
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "ttcap.h"

static const char *const hostile[] = {
    "</script><script>document.title='pwned'</script><!--",
    "<img src=x onerror=\"document.documentElement.setAttribute('data-pwned','1')\">",
    "\"dq\" 'sq' `bt` & \\ back </style></textarea>",
    "line1\nline2\r\tend\v\f",
    "\x1b]0;pwned-title\x07 \x1b[6n \x1b[2J \x1bP+q\x1b\\ \x1b[31mred",
    "raw C1 \x9b" "31m, utf8 C1 \xc2\x9b" "31m \xc2\x85 NEL \xc2\x9d" "0;t\xc2\x9c",
    "invalid utf8 \xff\xfe \xc3\x28 \xed\xa0\x80 overlong \xc0\xaf end",
};

__attribute__((noinline)) void odd(int i, const char *arg)
{
    TT_LOG(1, "hostile %d: %s | arg %s", i, hostile[i], arg);
}

__attribute__((noinline)) void plain(int i)
{
    TT_LOG(3, "plain %d", i);
}

static void *side(void *arg)
{
    ttcap_thread_name("\xc2\x9b" "2J'\"<s>\x1b[1m");
    plain(*(int *)arg);
    return NULL;
}

int main(int argc, char **argv)
{
    int bad = argc > 1 && strcmp(argv[1], "bad") == 0;
    const char *arg = argc > 2 ? argv[2] : "";
    ttcap_thread_name("\x1b]0;x\x07</b>\xff");
    for (int i = 0; i < (int)(sizeof hostile / sizeof hostile[0]); i++) {
        if (bad)
            odd(i, arg);
        else
            plain(i);
    }
    pthread_t t;
    int one = 1;
    pthread_create(&t, NULL, side, &one);
    pthread_join(t, NULL);
    printf("done\n");
    return 0;
}
