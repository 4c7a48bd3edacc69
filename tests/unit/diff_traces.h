/*
 * diff_traces.h - build small synthetic traces for the ttdiff tests with
 * the format writer, from a tiny script: "main{ parse{ lex{} } }" enters
 * and leaves functions of this test binary (so they symbolise to real
 * names), "#1:7" logs call site 1 with the argument 7, "*11" crashes,
 * "lex:2{}" calls lex from 2 bytes into the calling function (a call site,
 * format 1.2), "check{}=1" returns 1 (a writer opened with values),
 * "lex{~}" returns untimed (a writer opened with sparse; with lazy the
 * ENTER after it is untimed too).
 * The bodies are in diff_traces.c (linked into every unit test).
 */
#ifndef DIFF_TRACES_H
#define DIFF_TRACES_H

#include <stddef.h>
#include <stdint.h>

#include "ttfmt.h"

/* The functions scripts name ("main" is dt_main, ...): distinct bodies in
 * diff_traces.c, whose addresses the traces hold. */
int dt_main(void);
int dt_parse(void);
int dt_lex(void);
int dt_check(void);
int dt_fail(void);
int dt_work(void);
int dt_log(void);
int dt_helper(void);
int dt_wait(void);
int dt_peek(void);      /* reads a global: shared state (format/reads.c) */
int dt_tally(void);     /* reads another global */
int dt_mutex_lock(void);     /* named as a lock wrapper is */
int dt_mutex_slowpath(void); /* ... and its slow path */
int dt_cond_wait(void);      /* a wait's wrapper, named like a wait */
int dt_stamp(void);          /* a clock by its values, not its name */

/* Script names and the functions they stand for. */
#define DT_NFNS 15
extern const struct dt_fn {
    const char *name;       /* as written in scripts */
    int (*fn)(void);        /* the function whose address is traced */
} dt_fns[DT_NFNS];

/* A trace being built. */
typedef struct dt {
    ttf_writer *w;          /* the writer */
    uint64_t shift;         /* added to every address (another load base) */
    uint64_t now[16];       /* per-thread clock (ns) */
    uint64_t stack[16][64]; /* per-thread open functions */
    int depth[16];
} dt;

/* The traced address of script function name[0..len) (aborts on an
 * unknown name). */
uint64_t dt_addr(const dt *t, const char *name, size_t len);

/* Start a trace at path with threads named names[0..n) (NULL: unnamed);
 * the test binary is its one module, loaded shift bytes above where it is.
 * 0 or a negative TT_E code. */
int dt_open(dt *t, const char *path, uint64_t shift,
            const char *const *names, int n);
/* The same with writer options o (NULL: the defaults; .values: "}=N"). */
int dt_open_opts(dt *t, const char *path, uint64_t shift, const char *const *names, int n,
                 const ttf_writer_opts *o);

/* Define call site id on thread th: a TT_LOG in func with fmt and one
 * integer argument. */
int dt_site(dt *t, uint32_t th, uint32_t id, const char *fmt, const char *func);

/* Run a script on thread th (see above; "@N" sets the clock). */
int dt_run(dt *t, uint32_t th, const char *s);

/* A SYNC_OP (TTF_SOP_*) on object obj in thread th, 10 ns after its
 * last event: 0 or a negative TT_E code. */
int dt_sync(dt *t, uint32_t th, int code, uint64_t obj, int64_t arg);

/* Finish the trace: closed, or abandoned as a crashed run leaves it. */
int dt_close(dt *t, int crashed);

#endif
