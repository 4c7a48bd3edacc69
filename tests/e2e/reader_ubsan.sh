#!/bin/sh
# reader_ubsan.sh - the reader under clang's UBSan with undefined behaviour
# as a crash (issue 37 item 6): the libFuzzer reader target (make fuzz:
# -fsanitize=undefined -fno-sanitize-recover=undefined) runs once over
# every golden trace and a few fresh ones; any UBSan report fails. gcc's
# UBSan in make asan did not flag NULL + 1 in the hot path; clang's
# pointer-overflow check does. Skips (exit 77, with a message) without
# clang or libFuzzer. make test builds the target beforehand (make -j);
# built here only when missing. $1 = build dir.
B=${1:-build}
cd "$(dirname "$0")/../.." || exit 2
command -v clang >/dev/null 2>&1 || { echo "SKIP: no clang"; exit 77; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' > "$tmp/probe.c"
if ! clang -fsanitize=fuzzer -o "$tmp/probe" "$tmp/probe.c" >/dev/null 2>&1; then
    echo "SKIP: clang has no libFuzzer"; exit 77
fi
make -s B="$B" "$B/fuzz_reader" >/dev/null 2>&1 || { echo "reader_ubsan: building $B/fuzz_reader failed"; exit 1; }
mkdir -p "$tmp/in"
cp fixtures/traces/*.trc "$tmp/in/"
for p in cap_calls cap_threads; do
    [ -x "$B/fixtures/$p" ] && TTCAP_OUT="$tmp/in/$p.trc" TTCAP_CHUNK_KB=16 "$B/fixtures/$p" >/dev/null 2>&1
done
n=0 bad=0
for f in "$tmp"/in/*.trc; do
    [ -s "$f" ] || continue
    n=$((n + 1))
    if ! "$B/fuzz_reader" -runs=0 -rss_limit_mb=2048 "$f" > "$tmp/log" 2>&1 ||
       grep -q 'runtime error' "$tmp/log"; then
        bad=$((bad + 1))
        echo "reader_ubsan: $(basename "$f"):"
        grep -m3 -E 'runtime error|SUMMARY|ERROR' "$tmp/log"
    fi
done
[ $bad = 0 ] || { echo "reader_ubsan: FAIL ($bad of $n traces)"; exit 1; }
echo "reader_ubsan: ok ($n traces, no UBSan report)"
