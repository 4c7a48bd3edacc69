#!/bin/sh
# tests/fuzz/smoke.sh - the fuzz smoke run (`make fuzz-smoke`, after `make
# test` in CI). First the reader once over every fixture trace and a few
# fresh ones with undefined behaviour as a crash (issue 37 item 6: NULL + 1
# in the hot path on every golden trace, which gcc's UBSan in make asan
# did not flag and the fuzz runs did not stop on): any UBSan report fails.
# Then each libFuzzer target a few seconds (FUZZ_SECONDS, default 10) from
# a corpus of the fixture traces: build/fuzz_reader on each trace,
# build/fuzz_diff on pairs of them joined at "\0TT|", build/fuzz_sym on the
# fixture programs (ELF files with DWARF); each corpus also holds the
# inputs that once failed (tests/fuzz/regress/TARGET/). Exit 1 on a crash, its inputs
# copied to $B/fuzz-artifacts/. `sh tests/fuzz/smoke.sh --probe`
# exits 77 when clang or its libFuzzer is missing (make fuzz-smoke then
# skips, saying so). $1 = build dir, the targets already built (make fuzz).
if [ "$1" = --probe ]; then
    command -v clang >/dev/null 2>&1 || { echo "SKIP: no clang"; exit 77; }
    tmp=$(mktemp -d) || exit 2
    printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' > "$tmp/probe.c"
    clang -fsanitize=fuzzer -o "$tmp/probe" "$tmp/probe.c" >/dev/null 2>&1; rc=$?
    rm -rf "$tmp"
    [ $rc = 0 ] || { echo "SKIP: clang has no libFuzzer"; exit 77; }
    exit 0
fi
B=${1:-build}
S=${FUZZ_SECONDS:-10}
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/reader" "$tmp/diff" "$tmp/sym" "$tmp/art"
for p in cap_calls diff_parse; do
    [ -f "$B/fixtures/$p" ] || { echo "fuzz-smoke: no $B/fixtures/$p (make fixtures)"; exit 1; }
    cp "$B/fixtures/$p" "$tmp/sym/"
done
cp fixtures/traces/*.trc "$tmp/reader/"
set -- fixtures/traces/*.trc
prev=$1
for f in "$@"; do
    { cat "$prev"; printf '\0TT|'; cat "$f"; } > "$tmp/diff/$(basename "$prev" .trc)-$(basename "$f" .trc)"
    prev=$f
done
mkdir -p "$tmp/sym" "$tmp/once"
for p in cap_calls inl_parse val_calls val_calls_clang cxx_demo cap_plugin.so; do
    [ -f "$B/fixtures/$p" ] && cp "$B/fixtures/$p" "$tmp/sym/"
done
ret=0
# the reader once over every trace, UBSan reports fatal (make fuzz: -fno-sanitize-recover)
cp fixtures/traces/*.trc "$tmp/once/"
for p in cap_calls cap_threads; do
    [ -x "$B/fixtures/$p" ] && TTCAP_OUT="$tmp/once/$p.trc" TTCAP_CHUNK_KB=16 "$B/fixtures/$p" >/dev/null 2>&1
done
n=0 bad=0
for f in "$tmp"/once/*.trc; do
    [ -s "$f" ] || continue
    n=$((n + 1))
    if ! "$B/fuzz_reader" -runs=0 -rss_limit_mb=2048 "$f" > "$tmp/once.log" 2>&1 ||
       grep -q 'runtime error' "$tmp/once.log"; then
        bad=$((bad + 1)); ret=1
        echo "fuzz-smoke: $(basename "$f"):"; grep -m3 -E 'runtime error|SUMMARY|ERROR' "$tmp/once.log"
    fi
done
echo "fuzz-smoke: fuzz_reader once over $n traces: $bad with a sanitizer report"
for t in reader diff sym; do
    [ -d tests/fuzz/regress/$t ] && cp tests/fuzz/regress/$t/* "$tmp/$t/"
done
for t in reader diff sym; do
    [ -x "$B/fuzz_$t" ] || { echo "fuzz-smoke: no $B/fuzz_$t (make fuzz)"; exit 1; }
    "$B/fuzz_$t" -max_total_time="$S" -rss_limit_mb=1024 -timeout=10 -max_len=131072 \
        -artifact_prefix="$tmp/art/" "$tmp/$t" > "$tmp/$t.log" 2>&1
    rc=$?
    runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$tmp/$t.log")
    if [ $rc = 0 ]; then
        echo "fuzz-smoke: fuzz_$t ok, ${runs:-?} runs in $S s"
    else
        echo "fuzz-smoke: fuzz_$t FAIL (exit $rc)"; tail -30 "$tmp/$t.log"; ret=1
    fi
done
if [ $ret != 0 ]; then
    mkdir -p "$B/fuzz-artifacts" && cp "$tmp"/art/* "$B/fuzz-artifacts/" 2>/dev/null
    echo "fuzz-smoke: the crashing inputs are in $B/fuzz-artifacts/"
fi
exit $ret
