#!/bin/sh
# reliability_short.sh - the reliability suite's short version (small
# counts, a few seconds per check) inside `make test`; the full one is
# `make check-reliability` (tests/reliability/run.sh). $1 = build dir.
B=${1:-build}
cd "$(dirname "$0")/../.." || exit 2
sh tests/reliability/run.sh "$B" --short
