/*
 * capture_check.c - prints what the reader (ttfmt.h) finds in a trace, one
 * fact per line, for the tests/e2e/capture_*.sh scripts to grep: header,
 * process, modules, threads, per-function enter/exit counts per thread,
 * messages, crashes, and a nesting check of every thread's stream.
 * Usage: capture_check TRACE [-e]   (-e also prints every event)
 *        capture_check TRACE -b     (only each ENTER and EXIT record's bytes,
 *                                    in hex, one per line, per thread: two
 *                                    writers' records compared byte by byte)
 *        capture_check -m TRACE...  (each trace's facts after a line "file
 *                                    TRACE" and before "rc N", N the status
 *                                    one run on it alone exits with: a
 *                                    thousand traces in one process, not a
 *                                    thousand sanitizer start-ups)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttf_wire.h"
#include "ttfmt.h"

struct count {
    uint32_t thread;            /* thread index */
    const char *name;           /* function name (owned by the ttf_sym) */
    unsigned long enter, exit;  /* events seen */
};

static struct count *counts;
static size_t ncounts, capcounts;

static struct count *count_of(uint32_t thread, const char *name)
{
    for (size_t i = ncounts; i-- > 0;)
        if (counts[i].thread == thread && strcmp(counts[i].name, name) == 0)
            return &counts[i];
    if (ncounts == capcounts) {
        capcounts = capcounts ? capcounts * 2 : 256;
        counts = realloc(counts, capcounts * sizeof *counts);
        if (!counts)
            exit(2);
    }
    counts[ncounts] = (struct count){ thread, name, 0, 0 };
    return &counts[ncounts++];
}

static const char *kind_name(int k)
{
    static const char *n[] = { "?", "enter", "exit", "message", "mark", "crash",
                               "lost", "thread_start", "thread_end",
                               "thread_name", "module_load", "module_unload",
                               "pause", "resume", "end", "cut" };
    return k > 0 && k <= TTF_EV_CUT ? n[k] : "?";
}

/* Walk one thread: counts, messages, and the nesting check (every EXIT
 * matches the innermost open ENTER, unless a chunk header said otherwise). */
static int walk(ttf_trace *t, ttf_sym *sym, uint32_t th, int dump)
{
    ttf_iter *it;
    if (ttf_iter_open(t, th, &it) != 0)
        return 1;
    uint64_t stack[4096];
    int sp = 0, bad = 0, maxdepth = 0, r;
    unsigned long nev = 0, unwinds = 0, unwound = 0, hot = 0, untimed = 0, back = 0, late = 0;
    uint64_t last_ns = 0;
    ttf_event ev;
    while ((r = ttf_iter_next(it, &ev)) == 1) {
        nev++;
        back += ev.time_ns < last_ns;       /* a thread's times never go back */
        last_ns = ev.time_ns;
        hot += ev.kind == TTF_EV_ENTER || ev.kind == TTF_EV_EXIT;
        untimed += (unsigned long)(ev.untimed != 0);
        late += ev.untimed && ev.late_ns < ev.time_ns;  /* placed past its bound */
        const char *name = "";
        char msg[1024] = "";
        if (ev.kind == TTF_EV_ENTER || ev.kind == TTF_EV_EXIT) {
            name = ttf_sym_event_name(sym, &ev);
            struct count *c = count_of(th, name);
            if (ev.kind == TTF_EV_ENTER)
                c->enter++;
            else
                c->exit++;
        }
        if (ev.kind == TTF_EV_ENTER && ev.site == 0) {
            if (sp < 4096)
                stack[sp] = ev.addr;
            sp++;
            maxdepth = sp > maxdepth ? sp : maxdepth;
        } else if (ev.kind == TTF_EV_EXIT && ev.site == 0) {
            if (sp > 0 && sp <= 4096 && stack[sp - 1] != ev.addr) {
                if (bad++ < 5)
                    printf("nesting thread=%u exit %s does not match open %s\n",
                           th, name, ttf_sym_name(sym, stack[sp - 1]));
            }
            if (sp > 0)
                sp--;
        }
        if (ev.kind == TTF_EV_MESSAGE || ev.kind == TTF_EV_MARK) {
            int n = ttf_format_message(t, &ev, msg, sizeof msg);
            if (n < 0)
                snprintf(msg, sizeof msg, "<format error %d>", n);
            printf("msg thread=%u %s\n", th, msg);
        }
        if (ev.kind == TTF_EV_CRASH)
            printf("crash thread=%u signo=%d code=%d addr=0x%llx\n", th, ev.signo,
                   ev.code, (unsigned long long)ev.fault_addr);
        if (ev.kind == TTF_EV_LOST)
            sp = 0;             /* what was open before the gap is unknown */
        if (ev.kind == TTF_EV_UNWIND) {     /* frames left by longjmp, exceptions */
            sp = sp > (int)ev.unwound ? sp - (int)ev.unwound : 0;
            unwinds++;
            unwound += ev.unwound;
        }
        if (ev.kind == TTF_EV_LOST)
            printf("lost thread=%u events=%llu bytes=%llu\n", th,
                   (unsigned long long)ev.lost_events,
                   (unsigned long long)ev.lost_bytes);
        if (ev.kind == TTF_EV_END)
            printf("end thread=%u status=%d\n", th, ev.signo);
        if (ev.kind == TTF_EV_CUT)
            printf("cut thread=%u\n", th);
        if (dump)
            printf("ev %u %s depth=%d %s%s%s\n", th, kind_name(ev.kind), ev.depth,
                   name, msg, ev.text ? ev.text : "");
    }
    ttf_iter_close(it);
    if (unwinds)
        printf("unwind thread=%u records=%lu frames=%lu\n", th, unwinds, unwound);
    printf("clock thread=%u hot=%lu untimed=%lu backwards=%lu past_bound=%lu\n", th, hot,
           untimed, back, late);
    printf("walk thread=%u events=%lu open=%d maxdepth=%d nesting_errors=%d rc=%d\n",
           th, nev, sp, maxdepth, bad, r);
    return r < 0;
}

/* The header's cut fields and cut table (TTF_OPT_CUTINFO), read from the
 * file's bytes: "cutinfo events=E threads=T reason=R sum=S" and one
 * "cutthread idx=I tid=T lost=L flags=F reason=R" per entry. */
static void print_cutinfo(const char *path)
{
    uint8_t h[TTF_DATA_OFFSET];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(h, 1, sizeof h, f) : 0;
    if (f)
        fclose(f);
    if (n < sizeof h || !(ttf_get_le(h + TTF_H_OPT, 4) & TTF_OPT_CUTINFO))
        return;
    unsigned long long sum = 0;
    for (unsigned i = 0; i < TTF_CUT_ENTRIES; i++)
        sum += ttf_get_le(h + TTF_CUT_TABLE + i * TTF_CUT_ENTRY + TTF_CUTE_LOST, 8);
    printf("cutinfo events=%llu threads=%u reason=%u sum=%llu\n",
           (unsigned long long)ttf_get_le(h + TTF_H_CUTEV, 8),
           (unsigned)ttf_get_le(h + TTF_H_CUTTHR, 4), (unsigned)ttf_get_le(h + TTF_H_CUTWHY, 4),
           sum);
    for (unsigned i = 0; i < TTF_CUT_ENTRIES; i++) {
        const uint8_t *e = h + TTF_CUT_TABLE + i * TTF_CUT_ENTRY;
        unsigned th = (unsigned)ttf_get_le(e + TTF_CUTE_THREAD, 4);
        if (th)
            printf("cutthread idx=%u tid=%u lost=%llu flags=%u reason=%u\n", th - 1,
                   (unsigned)ttf_get_le(e + TTF_CUTE_TID, 4),
                   (unsigned long long)ttf_get_le(e + TTF_CUTE_LOST, 8),
                   (unsigned)ttf_get_le(e + TTF_CUTE_FLAGS, 4),
                   (unsigned)ttf_get_le(e + TTF_CUTE_REASON, 4));
    }
}

/* -b: "hot THREAD BYTES" for every ENTER and EXIT, its bytes being the
 * file's from its offset to the next event's (a record the next chunk
 * follows: its first byte only). 0, or 2 when the file cannot be read. */
static int hot_bytes(ttf_trace *t, const char *path)
{
    FILE *f = fopen(path, "rb");
    long n = -1;
    if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
        if (f)
            fclose(f);
        return 2;
    }
    uint8_t *b = malloc((size_t)n + 1);
    size_t got = b ? fread(b, 1, (size_t)n, f) : 0;
    fclose(f);
    if (got != (size_t)n) {
        free(b);
        return 2;
    }
    for (size_t i = 0; i < ttf_thread_count(t); i++) {
        ttf_iter *it;
        ttf_event ev;
        uint64_t at = 0, len;
        int open = 0;
        if (ttf_iter_open(t, ttf_get_thread(t, i)->index, &it) != 0)
            continue;
        for (int r = 1; r == 1;) {
            r = ttf_iter_next(it, &ev);
            if (open) {
                len = r == 1 && ev.offset > at && ev.offset - at <= 256 ? ev.offset - at : 1;
                printf("hot %zu ", i);
                for (uint64_t k = 0; k < len && at + k < (uint64_t)n; k++)
                    printf("%02x", b[at + k]);
                putchar('\n');
            }
            open = r == 1 && (ev.kind == TTF_EV_ENTER || ev.kind == TTF_EV_EXIT);
            at = ev.offset;
        }
        ttf_iter_close(it);
    }
    free(b);
    return 0;
}

/* The facts of the trace at path (dump: every event too): 0, 1 when a
 * thread's stream does not nest, 2 when it cannot be read. */
static int check(const char *path, int dump)
{
    ttf_trace *t;
    ttf_error err;
    if (ttf_open(path, &t, &err) != 0) {
        fprintf(stderr, "capture_check: %s\n", err.msg);
        return 2;
    }
    const ttf_header *h = ttf_get_header(t);
    const ttf_summary *s = ttf_get_summary(t);
    const ttf_process *p = ttf_get_process(t);
    printf("header closed=%d exit=%d chunk=%u ring=%d noclock=%d hz=%llu\n",
           (h->flags & 1) != 0, h->exit_status, h->chunk_size,
           (h->optional_features & 1) != 0, (h->optional_features & 2) != 0,
           (unsigned long long)h->tsc_hz);
    printf("summary closed=%d crashed=%d events=%llu lost=%llu damaged=%llu "
           "chunks=%llu notices=%zu\n", s->closed, s->crashed,
           (unsigned long long)s->events, (unsigned long long)s->lost_events,
           (unsigned long long)s->chunks_damaged, (unsigned long long)s->chunks_used,
           ttf_notice_count(t));
    for (size_t i = 0; i < ttf_notice_count(t); i++)
        printf("notice %s\n", ttf_get_notice(t, i));
    print_cutinfo(path);
    printf("process pid=%lld ppid=%lld argc=%d exe=%s parent=%s exited=%d status=%d\n",
           (long long)p->pid, (long long)p->ppid, p->argc, p->exe, p->parent_trace,
           p->exited, p->exit_status);
    for (size_t i = 0; i < ttf_module_count(t); i++) {
        const ttf_module *m = ttf_get_module(t, i);
        printf("module base=0x%llx size=0x%llx buildid=%zu unloaded=%d path=%s\n",
               (unsigned long long)m->base, (unsigned long long)m->size,
               m->build_id_len, m->unload_ns != UINT64_MAX, m->path);
    }
    ttf_sym *sym;
    if (ttf_sym_open(t, &sym) != 0) {
        fprintf(stderr, "capture_check: cannot open symbols\n");
        ttf_close(t);
        return 2;
    }
    int rc = 0;
    for (size_t i = 0; i < ttf_thread_count(t); i++) {
        const ttf_thread *th = ttf_get_thread(t, i);
        printf("thread idx=%u tid=%lld name=%s first=%s ended=%d events=%llu "
               "lost=%llu chunks=%u gaps=%u\n", th->index, (long long)th->tid,
               th->name, th->first_name, th->ended,
               (unsigned long long)th->events, (unsigned long long)th->lost_events,
               th->chunks, th->seq_gaps);
        rc |= walk(t, sym, th->index, dump);
    }
    for (size_t i = 0; i < ncounts; i++)
        printf("count thread=%u func=%s enter=%lu exit=%lu\n", counts[i].thread,
               counts[i].name, counts[i].enter, counts[i].exit);
    ttf_sym_close(sym);
    ttf_close(t);
    free(counts);
    counts = NULL;
    ncounts = capcounts = 0;
    return rc ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: capture_check TRACE [-e | -b] | -m TRACE...\n");
        return 2;
    }
    if (strcmp(argv[1], "-m") == 0) {
        for (int i = 2; i < argc; i++) {
            printf("file %s\n", argv[i]);
            fflush(stdout);
            int r = check(argv[i], 0);
            printf("rc %d\n", r);
        }
        return 0;
    }
    if (argc > 2 && strcmp(argv[2], "-b") == 0) {
        ttf_trace *t;
        ttf_error err;
        if (ttf_open(argv[1], &t, &err) != 0) {
            fprintf(stderr, "capture_check: %s\n", err.msg);
            return 2;
        }
        int r = hot_bytes(t, argv[1]);
        ttf_close(t);
        if (r)
            fprintf(stderr, "capture_check: cannot read %s\n", argv[1]);
        return r;
    }
    return check(argv[1], argc > 2 && strcmp(argv[2], "-e") == 0);
}
