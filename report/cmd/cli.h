/*
 * cli.h - the command-line module shared by the commands in report/cmd/
 * (ttdump, ttdiff, ttrec): error lines, option values, colour, filters,
 * --help and --version, so every command words and decides these alike.
 * Not part of libttreport's installed API: the commands link cli.o
 * themselves. The commands are compiled against the public headers only
 * (ttreport.h, ttdiff.h, ttfmt.h as installed: make check-layers), so they
 * use the libraries as any other program would.
 *
 * Conventions every command keeps through this module:
 * - an error is one stderr line "PROG: what" (usually "PROG: FILE: what"
 *   or "PROG: --option: what"), and the exit status is 2 (TTRI_CLI_TROUBLE);
 * - --color WHEN is auto (default), always or never; auto means colour
 *   only on a terminal and only when NO_COLOR is unset or empty;
 * - --thread, --function and --exclude are PCRE2 patterns matched anywhere
 *   (--function keeps matching functions, --exclude drops them, --thread
 *   selects threads), checked before any trace is read;
 * - --help prints the usage to stdout and exits 0; --version prints
 *   "PROG X.Y.Z (trace format M.m)" and exits 0.
 */
#ifndef TTRI_CLI_H
#define TTRI_CLI_H

#include <stdio.h>

#include "ttreport.h"

#define TTRI_CLI_TROUBLE 2       /* exit status of every usage or input error */

/* --color modes */
enum ttri_cli_color { TTRI_CLI_COLOR_AUTO = -1, TTRI_CLI_COLOR_NEVER = 0,
                      TTRI_CLI_COLOR_ALWAYS = 1 };

/* Name the command for every later error line ("ttdump"). */
void ttri_cli_init(const char *prog);

/* Print "PROG: " and the formatted text as one stderr line (stdout is
 * flushed first, so the line follows what was printed). Returns
 * TTRI_CLI_TROUBLE; ttri_cli_die exits with it. */
__attribute__((format(printf, 1, 2)))
int ttri_cli_fail(const char *fmt, ...);
__attribute__((format(printf, 1, 2), noreturn))
void ttri_cli_die(const char *fmt, ...);

/* Reports and folders a command writes (ttdiff -o, ttrec's folder and
 * report), with the rules of the trace files: a report can hold logged
 * message contents and often lands in a shared folder.
 * ttri_cli_create: open path for writing, created 0600; never through a
 * symbolic link at its final name; an existing file only with force, and
 * only a regular one (removed and created anew, so the new one is ours and
 * 0600). The stream, or NULL after an error line ("PATH: exists (use
 * --force...)", "PATH: is a symbolic link...").
 * ttri_cli_own_dir: 0 if dir is a folder (not a link to one) owned by us
 * and not writable by all, else an error line and TTRI_CLI_TROUBLE. */
FILE *ttri_cli_create(const char *path, int force, const char *force_flag);
/* Whether ttri_cli_create(path, force, force_flag) would be let through,
 * asked before any work is done (ttdiff -o and --gdb): 0 when nothing but
 * a regular file (with force) stands at path and its folder is writable,
 * else the error line ttri_cli_create would give (or "PATH: Permission
 * denied", "PATH: No such file or directory" for the folder) and
 * TTRI_CLI_TROUBLE. Creates nothing. */
int ttri_cli_can_create(const char *path, int force, const char *force_flag);
int ttri_cli_own_dir(const char *dir);

/* A report that appears whole or not at all (ttdiff -o): ttri_cli_report_open
 * checks path as ttri_cli_create does (an existing file is refused without
 * force, and left alone until the end) and opens a hidden temporary file
 * beside it (".NAME.XXXXXX", 0600, the same folder so a rename is atomic):
 * the stream, or NULL after an error line. ttri_cli_report_close flushes
 * and syncs it and, when keep (the command's answer is 0 or 1) and every
 * write worked, renames it to path; otherwise it removes it, and a killed
 * run leaves only the temporary file. 0, or an error line ("PATH: no space
 * left on device...") and TTRI_CLI_TROUBLE. err: the errno of a write that
 * failed before (a renderer's TT_EIO), 0 if none. */
typedef struct ttri_cli_report {
    FILE *f;                    /* the temporary file's stream */
    char *path;                 /* the report's final name (malloc'd) */
    char *tmp;                  /* the temporary file's name (malloc'd) */
} ttri_cli_report;
FILE *ttri_cli_report_open(ttri_cli_report *r, const char *path, int force,
                           const char *force_flag);
int ttri_cli_report_close(ttri_cli_report *r, int keep, int err);

/* 1 if arg is the long option name, alone or as "name=value". */
int ttri_cli_is(const char *arg, const char *name);
/* The value of the long option name at argv[*i]: after its '=', else the
 * next argument (*i advances). NULL if there is none. */
const char *ttri_cli_value(int argc, char **argv, int *i, const char *name);

/* An unsigned count: 0, or an error line "FLAG: not a count: 'S'" and
 * TTRI_CLI_TROUBLE. */
int ttri_cli_uint(const char *flag, const char *s, unsigned *out);

/* A --color value: 0 and *mode (TTRI_CLI_COLOR_*), or an error line and
 * TTRI_CLI_TROUBLE. */
int ttri_cli_color_mode(const char *when, int *mode);
/* Whether to colour output to f in mode: always, never, or (auto) when f
 * is a terminal and NO_COLOR is unset or empty. */
int ttri_cli_use_color(int mode, FILE *f);

/* Compile pattern (*re, free with ttd_regex_free), or an error line
 * "FLAG: bad regex ..." ("bad regex ..." when flag is NULL) and
 * TTRI_CLI_TROUBLE. */
int ttri_cli_regex(const char *flag, const char *pattern, ttd_regex **re);

/* The filter options, as given and compiled. */
typedef struct ttri_cli_filter {
    const char *thread;         /* --thread pattern, NULL = every thread */
    const char *function;       /* --function pattern, NULL = every function */
    const char *exclude;        /* --exclude pattern, NULL = none dropped */
    ttd_regex *thread_re;       /* compiled thread, NULL if not given */
    ttd_regex *function_re;     /* compiled function, NULL if not given */
    ttd_regex *exclude_re;      /* compiled exclude, NULL if not given */
} ttri_cli_filter;

/* If arg is --thread, --function or --exclude, take its value (as
 * ttri_cli_value), compile it and return 1; 0 if arg is another option;
 * TTRI_CLI_TROUBLE after an error line (no value, bad regex). flag_in_error
 * 0 words a bad regex without the flag (ttdump's wording). */
int ttri_cli_filter_arg(ttri_cli_filter *f, int argc, char **argv, int *i,
                        int flag_in_error);
/* Set one filter option (flag "--thread", "--function" or "--exclude")
 * from its value, as ttri_cli_filter_arg. */
int ttri_cli_filter_set(ttri_cli_filter *f, const char *flag, const char *value,
                        int flag_in_error);
/* 1 if function name passes --function and --exclude. */
int ttri_cli_function_kept(const ttri_cli_filter *f, const char *name);
void ttri_cli_filter_free(ttri_cli_filter *f);

/* Where to find the symbols of a module rebuilt or gone since the trace:
 * --exe FILE (repeatable: used for the module with its build-id) and
 * --debug-dir DIR (repeatable: folders with .build-id/xx/yyyy trees).
 * Remember one of them (value: the option's argument); ttri_cli_sym_apply
 * hands them to libttfmt (ttf_sym_search) before any trace is read: 0, or
 * an error line and TTRI_CLI_TROUBLE (ttri_cli_sym_option: an --exe FILE
 * that cannot be opened or is no ELF executable or shared library). */
int ttri_cli_sym_option(const char *flag, const char *value);
int ttri_cli_sym_apply(void);

/* --help: usage to stdout, exit 0. */
__attribute__((noreturn))
void ttri_cli_help(const char *usage);
/* Print "<prog> <toolkit version> (trace format M.m)" (the Makefile's
 * VERSION, one for every tool) and exit 0. */
__attribute__((noreturn))
void ttri_cli_version(void);

#endif
