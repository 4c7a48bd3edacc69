#!/bin/sh
# reliability_tools.sh - the short reliability suite's checks of the tools
# and the library against hostile input: strings, setuid, file modes,
# special files, shared output folders, allocation failure and memory
# limits; a part of reliability_short.sh, run beside it. $1 = build dir.
B=${1:-build}
cd "$(dirname "$0")/../.." || exit 2
sh tests/reliability/run.sh "$B" --short check_hostile.sh check_setuid.sh check_modes.sh \
    check_special.sh check_outputs.sh check_oom.sh
