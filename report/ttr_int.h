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
 * an EXIT (which closes the frame its ENTER opened), within
 * +-TTRI_LEVEL_CAP: a damaged trace's depth (any int) then leaves room
 * for the renderers' differences of two levels. */
#define TTRI_LEVEL_CAP (1 << 24)
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

/* Stacks fold runs of two or more frames in system headers
 * (ttf_system_file), the innermost frame always shown: the end of the run
 * that starts at frame i of fr[0..n), or i when there is none to fold. */
size_t ttri_system_run(const ttd_frame *fr, size_t i, size_t n);

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

/* ---- the report model (model.c, issue 35 item 3) --------------------------
 * The sentences and notes of a report are built once, here, from the
 * engine's const results; text.c and html.c serialise them (ttri_put in
 * each), JSON takes them as plain strings (ttri_model_plain). A sentence is
 * a list of spans. Where the text and HTML reports word a sentence apart
 * today, the builder keeps both wordings side by side, each span marked
 * with the format it is for; the shared words, numbers and names are
 * built once. HTML markup is an HTML-only span, ANSI colour a TTRI_SP_STYLE
 * span (text only). */
enum ttri_span_kind {
    TTRI_SP_LIT,            /* trusted text: words, numbers, markup */
    TTRI_SP_STR,            /* a trace string, escaped by each format */
    TTRI_SP_NAME,           /* a function name: short unless --demangle=full */
    TTRI_SP_SENT,           /* an engine sentence: its `quoted` names short */
    TTRI_SP_FN,             /* a function name as a name cell (HTML:
                               <span class="fn">, "?" for none) */
    TTRI_SP_EVENT,          /* an event (ev), drawn by the format's own
                               event writer (text: "crash SIGSEGV ...") */
    TTRI_SP_STYLE           /* an ANSI colour code (text, with --color) */
};

/* Which format a span is for. */
enum { TTRI_ALL, TTRI_TEXT, TTRI_HTML };

typedef struct ttri_span {
    struct ttri_span *next;
    unsigned char kind;     /* TTRI_SP_* */
    unsigned char only;     /* TTRI_ALL, TTRI_TEXT (also plain) or TTRI_HTML */
    const char *s;          /* the text; the engine's own or the model's */
    const ttd_event *ev;    /* TTRI_SP_EVENT */
} ttri_span;

/* One sentence (or note, or heading), with what surrounds it in each
 * format: text's line end, HTML's paragraph. */
typedef struct ttri_sent {
    ttri_span *first, *last;
} ttri_sent;

struct ttri_chunk;

/* The model of one report. Each sentence is NULL when the result has
 * nothing to say there. Sentences that repeat per item (a chain link, a
 * window's crash) are built on demand by the ttri_m_* functions below,
 * into the same storage. To add a sentence: a field here (or a ttri_m_*
 * function), its builder in model.c (both formats' words, marked where
 * they differ), and a ttri_put where each format shows it. */
typedef struct ttri_model {
    const ttd_result *r;
    /* (the verdict's own sentences, issue 33: verdict.c, ttri_verdict_words
     * below, one builder for every format) */
    ttri_sent *headline;    /* the old first line: text, the first
                               divergence's line when no call parts
                               (outcome, failure, same); HTML, the verdict
                               paragraph under the verdict */
    ttri_sent *program;     /* two programs or two builds */
    ttri_sent *chaos;       /* the bad run's chaos seed */
    ttri_sent *code;        /* the functions changed between the builds */
    ttri_sent *value;       /* the value divergence: which value, where,
                               called from where */
    ttri_sent *split;       /* the first divergence: thread, events, time */
    ttri_sent *followed;    /* an earlier divergence that follows progress */
    ttri_sent *clock_order; /* the first's order not known from the clock */
    ttri_sent *artifact;    /* the split is an artifact of two builds */
    ttri_sent *noise;       /* the split may be timing noise */
    ttri_sent *siblings;    /* runs beside the good one: use as baselines */
    ttri_sent *bad_end;     /* how the bad run ended at or after the split */
    ttri_sent *unprotected; /* a call without the lock the good run took */
    ttri_sent *order_diff;  /* the first difference in a lock's order */
    ttri_sent *races;       /* the races' heading */
    ttri_sent *stack_head, *suspects_head, *chain_head, *lines_head;
    ttri_sent *timing_note, *expected_note; /* the hunk lists' notes */
    ttri_sent *hidden;      /* what the verdict did not count, the evidence */
    ttri_sent *values;      /* how values took part (text) */
    ttri_sent *before_head; /* "last N common events" (text) */
    ttri_sent *further;     /* further and unresolved divergences */
    struct ttri_chunk *chunk;   /* storage of every span and string */
    int failed;             /* 1: an allocation failed (the renderers
                               return TT_ENOMEM) */
} ttri_model;

/* Build the model of r into m. 0 or TT_ENOMEM (m is to be freed either way). */
int ttri_model_init(ttri_model *m, const ttd_result *r);
void ttri_model_free(ttri_model *m);

/* Per-item sentences, built into m on demand (NULL when none; on a failed
 * allocation an empty sentence and m->failed set). */
/* Link i of the cause chain c (HTML: the list item), and its end. */
const ttri_sent *ttri_m_chain_link(ttri_model *m, const ttd_cause *c, size_t i);
const ttri_sent *ttri_m_chain_end(ttri_model *m, const char *end);
/* "The bad run died here" under a divergence window (HTML). */
const ttri_sent *ttri_m_crash_here(ttri_model *m, const ttd_event *e);
/* A value difference off the cause chain (text). */
const ttri_sent *ttri_m_value_other(ttri_model *m, const ttd_value_diff *v);
/* "more (--all shows them)" after a cut list of divergences. */
const ttri_sent *ttri_m_more(ttri_model *m, uint64_t more);
/* A pool of look-alike threads, an uncertain pairing, an unpaired thread
 * (text, under the thread pairs). */
const ttri_sent *ttri_m_pool(ttri_model *m, const ttd_pool *pl);
const ttri_sent *ttri_m_uncertain(ttri_model *m, const ttd_pair *p);
const ttri_sent *ttri_m_unpaired(ttri_model *m, const ttd_unpaired *u);
/* What the HTML page leaves out, shown events drawn in it. */
const ttri_sent *ttri_m_left_out(ttri_model *m, uint64_t shown);
/* Why a hunk is timing-shaped, in words (TTD_TIMING_*). */
const char *ttri_timing_words(int timing);

/* s as one plain string (the text report's words, no colour, names whole),
 * in m's storage; "" when s is NULL or on a failed allocation. */
const char *ttri_model_plain(ttri_model *m, const ttri_sent *s);

/* The name of a thread pair as reports show it (the bad run's, else the
 * good run's, else "(unnamed)"). */
const char *ttri_pair_name(const ttd_pair *p);

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
