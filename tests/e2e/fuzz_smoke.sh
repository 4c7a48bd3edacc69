#!/bin/sh
# Fuzz smoke run: build the libFuzzer reader target and run it ~10 s over a
# corpus seeded from fixtures/traces. Exit 0 when clean; skip (exit 0, with
# a message) when clang or libFuzzer is not available. $1 = build dir.
B=${1:-build}
cd "$(dirname "$0")/../.." || exit 2
command -v clang >/dev/null 2>&1 || { echo "fuzz_smoke: SKIP (no clang)"; exit 0; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' > "$tmp/probe.c"
if ! clang -fsanitize=fuzzer -o "$tmp/probe" "$tmp/probe.c" >/dev/null 2>&1; then
    echo "fuzz_smoke: SKIP (clang has no libFuzzer)"; exit 0
fi
make -s B="$B" fuzz || { echo "fuzz_smoke: building $B/fuzz_reader failed"; exit 1; }
mkdir -p "$tmp/corpus" "$tmp/art"
cp fixtures/traces/*.trc "$tmp/corpus/" 2>/dev/null
"$B/fuzz_reader" -max_total_time=10 -rss_limit_mb=1024 -timeout=10 \
    -max_len=65536 -artifact_prefix="$tmp/art/" "$tmp/corpus" >"$tmp/log" 2>&1
rc=$?
tail -5 "$tmp/log"
if [ $rc != 0 ]; then
    echo "fuzz_smoke: FAIL (exit $rc)"; ls -l "$tmp/art"
    mkdir -p "$B/fuzz-artifacts" && cp "$tmp"/art/* "$B/fuzz-artifacts/" 2>/dev/null
    echo "artifacts copied to $B/fuzz-artifacts"
    exit 1
fi
echo "fuzz_smoke: ok"
