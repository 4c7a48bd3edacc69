/*
 * ttdiff_gdb.h - ttdiff --gdb FILE: a gdb script that takes you to the
 * first divergence in the bad run (report/cmd/ttdiff_gdb.c). Part of the
 * ttdiff command, not of libttreport.
 */
#ifndef TTDIFF_GDB_H
#define TTDIFF_GDB_H

#include "ttdiff.h"

/* Write to path a gdb script that starts the bad run's program with its
 * recorded command line and stops in the first divergence's thread at the
 * entry of the innermost frame of tt's call stack there: the Nth entry of
 * that function in that thread, N counted in the bad trace up to the
 * split; the script then prints tt's stack and gdb's backtrace. demangle:
 * as the diff's names (1 unless --no-demangle). 0, or an error line
 * ("ttdiff: --gdb: ...") and TTRI_CLI_TROUBLE: no divergence, a thread or
 * program gdb cannot be pointed at, the split not found in the bad trace,
 * the file not writable or already there without force (created as
 * ttri_cli_create does: 0600, never through a symbolic link). */
int ttri_gdb_script(const char *path, const ttd_result *res, int demangle,
                    int force);

/* The same for one process of a recorded tree (ttdiff --gdb FILE GOOD_DIR
 * BAD_DIR): res is that process pair's diff; the program, arguments,
 * working folder and environment are the bad run's process table row's
 * (row; a table without environments: the script says so), and the
 * script's comments name the process (index and name as the tree report
 * lists it) and the folder (dir). A process that began by fork and did
 * not exec: the script starts the nearest image above it with a command
 * line (dir's table read again) and follows the forks down to it; an
 * error line when that image is not in the table. */
int ttri_gdb_script_proc(const char *path, const ttd_result *res, const ttf_proc *row,
                         int64_t index, const char *name, const char *dir,
                         int demangle, int force);

#endif
