/*
 * tmpdir.h - one temporary folder per unit-test binary, for tests that
 * write traces: `dir` names it; setup/teardown are cmocka group fixtures
 * that create it and remove it with everything in it.
 */
#ifndef TT_TEST_TMPDIR_H
#define TT_TEST_TMPDIR_H

#include <stdio.h>
#include <stdlib.h>

static char dir[] = "/tmp/tt_unit.XXXXXX";

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    char cmd[64];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

#endif
