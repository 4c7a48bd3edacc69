#!/bin/sh
# make bench: run every benchmark script in tests/bench/ (bench_*.sh) against
# the build in $1. Benchmarks print figures and ratios; they are not tests.
B=${1:-build}
export B
for s in tests/bench/bench_*.sh; do
    [ -f "$s" ] || continue
    echo "=== $(basename "$s" .sh)"
    sh "$s" "$B" || echo "bench: $(basename "$s") failed (status $?)"
done
