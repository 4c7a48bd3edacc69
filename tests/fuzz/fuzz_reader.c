/*
 * fuzz_reader.c - libFuzzer target for the trace reader: open the input as
 * a trace, walk every thread, the merged stream and every message, and
 * check that the counts agree and that only ENTERs of a sites trace (format
 * 1.2) have a call site. The seed corpus (tests/e2e/fuzz_smoke.sh) holds
 * every golden trace, sites.trc's prefixes among them. Built by `make fuzz` (build/fuzz_reader);
 * tests/e2e/fuzz_smoke.sh runs it for a few seconds on the golden traces.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ttfmt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t walk(const ttf_trace *t, uint32_t thread)
{
    ttf_iter *it;
    ttf_event ev;
    uint64_t n = 0;
    char buf[160];
    int r;

    if (ttf_iter_open(t, thread, &it))
        abort();
    while ((r = ttf_iter_next(it, &ev)) == 1) {
        n++;
        if (ev.call_site && ev.kind != TTF_EV_ENTER)
            abort();            /* only an ENTER has a call site (1.2) */
        if (ev.call_site && !ttf_get_summary(t)->sites)
            abort();
        if (ev.kind == TTF_EV_MESSAGE || ev.kind == TTF_EV_MARK)
            (void)ttf_format_message(t, &ev, buf, (size_t)(n % 3 ? sizeof buf : 7));
        (void)ttf_realtime_ns(t, ev.time_ns);
    }
    if (r != 0)
        abort();
    ttf_iter_close(it);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ttf_trace *t;
    ttf_error err;
    uint64_t total = 0;

    if (ttf_open_mem(data, size, "fuzz.trc", &t, &err) != 0)
        return 0;
    for (size_t i = 0; i < ttf_thread_count(t); i++) {
        uint64_t n = walk(t, (uint32_t)i);
        if (n != ttf_get_thread(t, i)->events)
            abort();
        total += n;
    }
    if (total != ttf_get_summary(t)->events || walk(t, TTF_ALL_THREADS) != total)
        abort();
    for (size_t i = 0; i < ttf_module_count(t); i++)
        (void)ttf_get_module(t, i)->path[0];
    for (size_t i = 0; i < ttf_notice_count(t); i++)
        (void)ttf_get_notice(t, i)[0];
    (void)ttf_get_process(t)->exe[0];
    ttf_close(t);
    return 0;
}
