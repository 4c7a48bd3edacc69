#!/bin/sh
# reliability_short.sh - the reliability suite's short version (small
# counts, a few seconds per check) inside `make test`; the full one is
# `make check-reliability` (tests/reliability/run.sh). $1 = build dir.
# In three parts that tests/run.sh runs side by side: the capture's checks
# here (b c d e h i k p), damaged traces in reliability_damage.sh (a), the
# tools against hostile input in reliability_tools.sh (f g j l m o n).
# In the sanitizer build (make asan) its programs are built with the same
# -fsanitize flags as the fixtures, so they run against the ASan libttcap.
B=${1:-build}
cd "$(dirname "$0")/../.." || exit 2
sh tests/reliability/run.sh "$B" --short check_count.sh check_life.sh check_disk.sh \
    check_scale.sh check_limits.sh check_forklock.sh check_threads.sh check_syms.sh
