/*
 * codediff.h - two builds compared function by function: which functions'
 * machine code changed between the good and the bad run's binaries (prepare
 * stage; codediff.c). Internal to diff/.
 */
#ifndef TTDI_CODEDIFF_H
#define TTDI_CODEDIFF_H

#include <stddef.h>
#include <stdint.h>

#include "ttfmt.h"

/* What happened to a function between the builds. */
enum ttdi_code_status {
    TTDI_CODE_CHANGED = 1,  /* in both, its code differs */
    TTDI_CODE_ADDED,        /* only in the bad run's build */
    TTDI_CODE_REMOVED       /* only in the good run's build */
};

/* One function whose code differs. */
struct ttdi_code_change {
    const char *function;   /* as ttdiff names it (C++ demangled) */
    const char *module;     /* its module's file name ("prog", "libfoo.so") */
    int status;             /* TTDI_CODE_* */
    const char *symbol;     /* the symbol as stored (mangled), for reports
                               with C++ names off */
};

struct ttdi_codediff;

/* Compare the code of the modules the two runs share (the main programs,
 * and modules with the same path) whose build-ids differ. Only the main
 * program and modules that are instrumented (call the tracing hooks) are
 * compared. Nothing is read when every build-id matches: then the set is
 * empty and every function is the same. A module whose two files cannot
 * both be found gives a note and leaves its functions unknown. 0, or
 * TT_EINVAL (NULL argument), TT_ENOMEM; on error *out is NULL. */
int ttdi_codediff_open(struct ttdi_codediff **out, const ttf_trace *good,
                       const ttf_trace *bad);

/* 1 if the function (the demangled name as ttdiff shows it, or the raw
 * symbol) changed, was added or was removed between the builds, its gcc
 * cold part ("f.cold") included; 0 if its code is the same (or every
 * build-id matches); -1 if unknown (a module could not be compared and the
 * name is in no compared module). */
int ttdi_codediff_changed(const struct ttdi_codediff *cd, const char *function);

/* Whether a changed function's source changed too (ttdi_codediff_source):
 * each build's debug info says where the function is defined, and the
 * text there is compared as tokens (ttf_source_hash). */
enum ttdi_src_status {
    TTDI_SRC_UNKNOWN = 0,   /* not changed, or a source not found/read */
    TTDI_SRC_SAME,          /* its machine code changed, its source did not
                               (a changed callee inlined into it, layout) */
    TTDI_SRC_CHANGED,       /* its source text differs between the builds */
    TTDI_SRC_LINES          /* internal to codediff.c: the same source at
                               other lines, and the code differs only in
                               immediates that are its line numbers moved
                               as much (a __LINE__): counted unchanged */
};

/* TTDI_SRC_* for a function whose code changed (else TTDI_SRC_UNKNOWN). */
int ttdi_codediff_source(const struct ttdi_codediff *cd, const char *function);

/* How many changed functions changed in their source too: when some did,
 * a changed function whose source is the same only carries their change. */
size_t ttdi_codediff_source_changed(const struct ttdi_codediff *cd);

/* The index (ttdi_codediff_get's) of the changed function whose source
 * changed when every changed function whose source changed has one source
 * (template instances, a function and its clones: the same text in the
 * bad build): the first of them; SIZE_MAX when none did, or several
 * sources changed. Artifacts are left out. */
size_t ttdi_codediff_source_one(const struct ttdi_codediff *cd);

/* When no changed function's source changed, but the source of a
 * function the compiler inlined into changed ones did (one source: its
 * copies in several holders, template instances; the innermost scope: a
 * function whose text only differs in a lambda or member function
 * defined inside it, itself a changed callee, is not counted; a callee
 * inlined in one build only is compared with the other's out-of-line
 * copy): the index
 * (ttdi_codediff_get's) of the first changed function it is inlined into,
 * with *callee its name; SIZE_MAX (and *callee NULL) otherwise. Its
 * change sits in that function's code: it has no symbol of its own. */
size_t ttdi_codediff_inlined_one(const struct ttdi_codediff *cd, const char **callee);

/* That callee (ttdi_codediff_inlined_one's) when the changed function
 * `function` is one it is inlined into, else NULL. */
const char *ttdi_codediff_inlined_at(const struct ttdi_codediff *cd, const char *function);

/* 1 if callee (ttdi_codediff_inlined_one's or _inlined_at's) is also a
 * function of its own: an out-of-line copy in either build (a build that
 * inlined it into the changed function while the other calls it), so
 * that its name is where the change is; 0 when it is inlined everywhere
 * (no symbol: the function it is inlined into is where it runs). */
int ttdi_codediff_inlined_own(const struct ttdi_codediff *cd, const char *callee);

/* How many functions whose machine code differs were counted unchanged
 * because their source is the same, only at other lines of its file, and
 * the code differs only in immediates that are line numbers of that
 * source moved by as many lines (a __LINE__ passed to a logger or an
 * assert, after lines were added above the function). */
size_t ttdi_codediff_lines_moved(const struct ttdi_codediff *cd);

/* 1 if a difference at this function looks like an artifact of the build
 * rather than of the run: it is present in both builds but instrumented
 * in one only (its copy calls the tracing hooks in one build, not in the
 * other: an inline function from a header inlined in one build, or
 * compiled with other flags), or it is present in one build only, is
 * instrumented there and is defined in a header (an out-of-line copy of
 * an inline function that the other build inlined). 0 otherwise. */
int ttdi_codediff_artifact(const struct ttdi_codediff *cd, const char *function);

/* The changed, added and removed functions: changed first, then added,
 * then removed, each by module and name. */
size_t ttdi_codediff_count(const struct ttdi_codediff *cd);
const struct ttdi_code_change *ttdi_codediff_get(const struct ttdi_codediff *cd,
                                                 size_t i);

/* Functions compared (present in both builds), for reports and tests. */
size_t ttdi_codediff_compared(const struct ttdi_codediff *cd);

/* Why some code was not compared: "./prog: the good run's build (build-id
 * 1a2b...) not found; its code not compared". */
size_t ttdi_codediff_note_count(const struct ttdi_codediff *cd);
const char *ttdi_codediff_note(const struct ttdi_codediff *cd, size_t i);

/* Release everything. NULL is fine. */
void ttdi_codediff_free(struct ttdi_codediff *cd);

#endif
