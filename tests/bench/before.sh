#!/bin/sh
# before.sh BUILD REF - the libttcap.so of git ref REF (a commit, branch or
# tag), built once per commit into BUILD/bench/before-SHA/, for the
# benchmarks' "before" rows: the same benchmark binaries run with it through
# LD_LIBRARY_PATH (they find libttcap by RUNPATH, which it overrides), so a
# change to the capture hot path is measured side by side with the code it
# replaces, in the same run. Prints the folder; exit 1 (and a note on
# stderr) when REF is unknown or does not build.
B=${1:-build}
REF=$2
cd "$(dirname "$0")/../.." || exit 1
sha=$(git rev-parse --short=12 "$REF^{commit}" 2>/dev/null) ||
    { echo "note: BENCH_BASE=$REF is not a commit: no before rows" >&2; exit 1; }
dir=$B/bench/before-$sha
if [ ! -f "$dir/libttcap.so" ]; then
    src=$dir.src
    rm -rf "$src" && mkdir -p "$src" &&
        git archive "$sha" | tar -x -C "$src" &&
        make -s -C "$src" B=build -j2 build/libttcap.so >"$dir.log" 2>&1 &&
        mkdir -p "$dir" && cp -L "$src"/build/libttcap.so* "$dir/" ||
        { echo "note: building libttcap of $REF failed (see $dir.log): no before rows" >&2; exit 1; }
    rm -rf "$src"
fi
echo "$dir"
