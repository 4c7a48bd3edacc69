/*
 * ttr_int.h - helpers shared by the renderers (text, JSON, HTML). Private
 * to report/; hidden from the library's users like every internal name.
 */
#ifndef TTR_INT_H
#define TTR_INT_H

#include <stddef.h>

#include "ttdiff.h"

/* Length of the valid UTF-8 sequence starting at s (1..4), 0 if the bytes
 * there are not valid UTF-8 (overlong, surrogate, past U+10FFFF, cut). s
 * must be NUL-terminated: a NUL ends a sequence as invalid. */
size_t ttr_utf8_len(const unsigned char *s);

/* Indentation level of an event in a call tree: its depth, less one for
 * an EXIT (which closes the frame its ENTER opened). */
int ttr_level(const ttd_event *e);

/* The smallest ttr_level among ev[0..n) and base. */
int ttr_min_level(const ttd_event *ev, size_t n, int base);

/* Call trees indent at most this many levels; deeper lines say their depth
 * ("[depth N]") instead, so a 100k-deep stack stays linear in size. */
#define TTR_MAX_INDENT 64

/* What follows a function name on a call line: "();" for a call with
 * nothing inside (leaf), "() {" for one that opens a subtree; without the
 * "()" when the name already has its parameters (a demangled C++ name). */
const char *ttr_call_suffix(const char *name, int leaf);

/* How a pair was made, for a table cell: "name+start", "content 0.97"
 * ("?" appended when uncertain). */
void ttr_paired_by(const ttd_pair *p, char *buf, size_t n);

#endif
