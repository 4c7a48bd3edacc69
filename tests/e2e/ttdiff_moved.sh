#!/bin/sh
# ttdiff_moved.sh - issue 33: the same calls at another time (diff/moved.c).
# fixtures/progs/late_init.c: a plugin loader thread initialises a
# library's global context again, with no lock and no check; with
# LATE_INIT=1 it does so after main's first chunk started a pool on the
# old context, and main's second chunk starts another (exit 1). Both
# threads make the same calls in both runs; the loader's come later.
# Plain and values builds: the verdict names the loader's `lib_init`
# (kind "order", thread loader; `ensure_pool`, where the calls part, in
# the sentence) in text (first 10 lines), HTML (first screen) and JSON,
# "possible". Must not: two good runs (no divergence, no cause); the
# guards (a thread busy in both windows, calls moved only a little, a
# block split across the window) are tests/unit/test_moved.c's.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

command -v gcc > /dev/null || { echo "SKIP: no gcc"; exit 77; }
SAN=""   # a sanitizer build's libttcap needs the program built likewise
ldd "$BD/libttcap.so" 2>/dev/null | grep -q libasan && SAN="-fsanitize=address,undefined"
cp fixtures/progs/late_init.c "$T/prog.c"
for m in plain values; do
    flag=""; [ "$m" = values ] && flag=--values
    (cd "$T" && "$BD/ttcc" $flag gcc $SAN -O2 -pthread -o "prog-$m" prog.c) || fail "build $m"
    rec "g-$m.trc" "$T/prog-$m"
    LATE_INIT=1 rec "b-$m.trc" "$T/prog-$m"
    run 1 --color never "$T/g-$m.trc" "$T/b-$m.trc"
    head -10 "$T/out" > "$T/head10"
    has '^verdict: diverged: possible cause: the threads'"'"' order at `lib_init` (thread loader)' "$T/head10"
    has '^  cause: thread loader made the same calls in both runs, at another time: in the bad run `lib_init` ran between two calls of `ensure_pool` in thread app, in the good run before both' "$T/head10"
    has '^  evidence: in the bad run thread loader made [0-9]* calls between `ensure_pool`' "$T/head10"
    has '^  evidence: `lib_init` writes `g_ctx`' "$T/head10"
    has '^  symptom: the calls part in `ensure_pool`' "$T/head10"
    run 1 --format html "$T/g-$m.trc" "$T/b-$m.trc"
    sed -n '1,/<main>/p' "$T/out" > "$T/screen1"
    has 'the threads.* order at `lib_init`' "$T/screen1"
    run 1 --format json "$T/g-$m.trc" "$T/b-$m.trc"
    json "$T/out" '
v = d["verdict"]
assert v["cause"]["kind"] == "order" and v["cause"]["function"] == "lib_init", v["cause"]
assert v["cause"]["thread"] == "loader" and "ensure_pool" in v["cause"]["text"], v["cause"]
assert v["confidence"] == "possible", v
assert any("g_ctx" in e for e in v["evidence"]), v
'
done
# the good runs alike: no divergence, no cause
rec g2.trc "$T/prog-plain"
run 0 --format json "$T/g-plain.trc" "$T/g2.trc"
json "$T/out" 'assert d["verdict"]["cause"] is None, d["verdict"]'
echo ok
