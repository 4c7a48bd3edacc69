#!/bin/sh
# reliability_short.sh - the reliability suite's short version (small
# counts, a few seconds per check) inside `make test`; the full one is
# `make check-reliability` (tests/reliability/run.sh). $1 = build dir.
# Not in the sanitizer build (make asan): the suite builds and runs its own
# ASan tools, and its test programs are built without -fsanitize, so they
# cannot start against the ASan libttcap of build/asan (the ASan runtime
# must load first): no trace, and checks c, f2 and f3 fail for that alone.
B=${1:-build}
cd "$(dirname "$0")/../.." || exit 2
if [ -n "${SAN:-}" ]; then
    echo "skip: reliability_short runs in the plain build only (SAN set)"
    exit 0
fi
sh tests/reliability/run.sh "$B" --short
