#!/bin/sh
# reliability_short.sh - the reliability suite's short version (small
# counts, a few seconds per check) inside `make test`; the full one is
# `make check-reliability` (tests/reliability/run.sh). $1 = build dir.
# In the sanitizer build (make asan) its programs are built with the same
# -fsanitize flags as the fixtures, so they run against the ASan libttcap.
B=${1:-build}
cd "$(dirname "$0")/../.." || exit 2
sh tests/reliability/run.sh "$B" --short
