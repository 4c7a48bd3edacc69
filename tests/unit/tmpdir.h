/*
 * tmpdir.h - one temporary folder per unit-test binary, for tests that
 * write traces: tu_tmpdir names it; tu_tmpdir_setup/tu_tmpdir_teardown are
 * cmocka group fixtures that create it and remove it with everything in it
 * (tmpdir.c).
 */
#ifndef TT_TEST_TMPDIR_H
#define TT_TEST_TMPDIR_H

/* The folder's path (a mkdtemp template until the setup ran). */
extern char tu_tmpdir[];

/* Create the folder: 0, or -1 when mkdtemp fails. */
int tu_tmpdir_setup(void **state);

/* Remove it and everything in it: 0, or -1 when rm fails. */
int tu_tmpdir_teardown(void **state);

#endif
