/*
 * tmpdir.c - the unit tests' temporary folder (tmpdir.h).
 */
#include <stdio.h>
#include <stdlib.h>

#include "tmpdir.h"

char tu_tmpdir[] = "/tmp/tt_unit.XXXXXX";

int tu_tmpdir_setup(void **state)
{
    (void)state;
    return mkdtemp(tu_tmpdir) ? 0 : -1;
}

int tu_tmpdir_teardown(void **state)
{
    char cmd[64];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tu_tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}
