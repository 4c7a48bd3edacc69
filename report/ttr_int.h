/*
 * ttr_int.h - helpers shared by the renderers (text, JSON, HTML). Private
 * to report/; hidden from the library's users like every internal name,
 * and named ttri_ (the public API, ttreport.h, is ttr_), so a call site
 * shows which is which.
 */
#ifndef TTR_INT_H
#define TTR_INT_H

#include <stddef.h>

#include "ttdiff.h"

/* Indentation level of an event in a call tree: its depth, less one for
 * an EXIT (which closes the frame its ENTER opened). */
int ttri_level(const ttd_event *e);

/* The smallest ttri_level among ev[0..n) and base. */
int ttri_min_level(const ttd_event *ev, size_t n, int base);

/* Call trees indent at most this many levels; deeper lines say their depth
 * ("[depth N]") instead, so a 100k-deep stack stays linear in size. */
#define TTRI_MAX_INDENT 64

/* What follows a function name on a call line: "();" for a call with
 * nothing inside (leaf), "() {" for one that opens a subtree; without the
 * "()" when the name already has its parameters (a demangled C++ name). */
const char *ttri_call_suffix(const char *name, int leaf);

/* A C++ name as the text and HTML reports show it (names.c): std::string
 * for the basic_string spelled out, standard containers without their
 * default arguments, inline namespaces dropped, template arguments below
 * two levels as "...". name itself when there is nothing to shorten, else
 * buf (n bytes, cut with "..." when full). */
#define TTRI_NAME_MAX 4096
const char *ttri_short_name(const char *name, char *buf, size_t n);
/* The same for each `quoted` name in a sentence (the engine quotes the
 * names it puts in its sentences); the rest of the text as it is. */
const char *ttri_short_quoted(const char *text, char *buf, size_t n);

/* 1 if file is a system header's (/usr/include, the C++ standard
 * library's, the compiler's): stacks fold runs of such frames. */
int ttri_system_file(const char *file);

/* How a pair was made, for a table cell: "name+start", "content 0.97"
 * ("?" appended when uncertain). */
void ttri_paired_by(const ttd_pair *p, char *buf, size_t n);

/* Lines a call tree of ev[0..n) takes: an ENTER directly followed by its
 * EXIT folds into one ("foo();"). */
size_t ttri_tree_lines(const ttd_event *ev, size_t n);

/* 1 when the call-tree line of ev[i] folds ev[i + 1] into it. */
int ttri_folds(const ttd_event *ev, size_t n, size_t i);

/* 1 when the bad run stopped early: it crashed, had no clean end, or
 * exited with another status than the good run. */
int ttri_bad_stopped_early(const ttd_result *r);

/* The report's headline, decided once for every renderer (issue 35 item 3,
 * the report model's first part): what the first lines say happened. */
enum ttri_headline {
    TTRI_HL_SPLIT,          /* a first divergence: the calls part */
    TTRI_HL_ENDED,          /* the same calls, another end (the chain ends
                               at the exit status) */
    TTRI_HL_FAILED,         /* the bad run is known to have failed, no call
                               or value differs */
    TTRI_HL_VALUE,          /* only a value differs: the calls do not part */
    TTRI_HL_SAME            /* no divergence */
};
/* Which headline result r gets. */
int ttri_headline(const ttd_result *r);

/* The build-id of r as lowercase hex into buf (at most 129 bytes), "" if
 * none; returns buf. */
char *ttri_build_id_hex(const ttd_run_info *r, char *buf, size_t len);

/* Most bytes ttri_json_esc writes for one character. */
#define TTRI_JSON_ESC_MAX 6

/* The JSON escape of the character at *s (one byte, or one UTF-8
 * sequence; not the NUL) into p, by report/JSON.md's rules: '"' '\\' and
 * \n \t \r by their short escapes; other C0 controls, DEL, C1 controls
 * (U+0080..U+009F), '<' '>' '&', U+2028 and U+2029 as \uXXXX (so the
 * document can be embedded in HTML and read by a JavaScript parser); a
 * byte that is not part of valid UTF-8 as \ufffd; anything else as is.
 * *s moves past the character. Returns the end of what it wrote: at most
 * TTRI_JSON_ESC_MAX bytes. */
char *ttri_json_esc(char *p, const unsigned char **s);

/* The verdict's sentences (report/verdict.c), built once from
 * ttd_result.verdict for every format: the text report prints them as its
 * first lines, the HTML report on its first screen, the JSON report as
 * verdict.headline (issue 33). Names are `quoted` as the engine quotes
 * them. */
#define TTRI_VERDICT_LINE 640
typedef struct ttri_verdict_text {
    char headline[TTRI_VERDICT_LINE];   /* the report's first sentence:
                                           "diverged: possible cause: ..." */
    char cause[TTRI_VERDICT_LINE];      /* the cause in a sentence, with its
                                           place; "" when there is none */
    const char *evidence[TTD_VERDICT_EVIDENCE_MAX]; /* the evidence, not
                                           repeating the cause's sentence */
    size_t nevidence;
    char confidence[TTRI_VERDICT_LINE]; /* "possible", "likely", "unknown:
                                           the evidence stops at ..." */
    char symptom[TTRI_VERDICT_LINE];    /* where the calls part; "" if none */
} ttri_verdict_text;
void ttri_verdict_words(const ttd_result *r, ttri_verdict_text *t);

#endif
