#!/bin/sh
# ttdiff_stopinline.sh - issue 33: the same calls at another time
# (diff/moved.c) when the other thread's open call was made from a function
# the compiler inlined. fixtures/progs/stop_inline.c: main stops the pool
# (stop_service, always inlined into main, calls note_stop and pool_close)
# without waiting for the worker; with EARLY_STOP=1 it stops after the
# worker's third job and the worker rejects the rest (exit 1). A plain
# build traces stop_service as a frame (-finstrument-functions instruments
# inlined code); a values build (-pg) has no frame for it, and ttdiff names
# it by the inline chain of pool_close's call site. Both modes: the verdict
# names `stop_service` (kind "order", thread app) in text (first 10 lines),
# HTML (first screen) and JSON; values mode says it was inlined into
# `main` and gives its definition's line. The decision rule itself
# (ttdi_moved_inline: the copy began inside the window) is
# tests/unit/test_moved.c's.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

command -v gcc > /dev/null || { echo "SKIP: no gcc"; exit 77; }
SAN=""   # a sanitizer build's libttcap needs the program built likewise
ldd "$BD/libttcap.so" 2>/dev/null | grep -q libasan && SAN="-fsanitize=address,undefined"
cp fixtures/progs/stop_inline.c "$T/prog.c"
for m in plain values; do
    flag=""; [ "$m" = values ] && flag=--values
    (cd "$T" && "$BD/ttcc" $flag gcc $SAN -g -O2 -pthread -o "prog-$m" prog.c) || fail "build $m"
    rec "g-$m.trc" "$T/prog-$m"
    EARLY_STOP=1 rec "b-$m.trc" "$T/prog-$m"
    run 1 --color never "$T/g-$m.trc" "$T/b-$m.trc"
    head -10 "$T/out" > "$T/head10"
    has '^verdict: diverged: possible cause: the threads'"'"' order at `stop_service` (thread app)' "$T/head10"
    has '^  cause: thread app made the same calls in both runs, at another time: in the bad run `stop_service` ran between two calls of `handle` in thread worker, in the good run after both' "$T/head10"
    has '^  symptom: the calls part in `handle`' "$T/head10"
    if [ "$m" = values ]; then
        has '^  evidence: thread app was inside `stop_service` (inlined into `main`: its call of `pool_close`) when the calls part in the bad run' "$T/head10"
    else
        has '^  evidence: thread app was inside `stop_service` when the calls part in the bad run' "$T/head10"
    fi
    run 1 --format html "$T/g-$m.trc" "$T/b-$m.trc"
    sed -n '1,/<main>/p' "$T/out" > "$T/screen1"
    has 'the threads.* order at `stop_service`' "$T/screen1"
    run 1 --format json "$T/g-$m.trc" "$T/b-$m.trc"
    json "$T/out" '
v = d["verdict"]
c = v["cause"]
assert c["kind"] == "order" and c["function"] == "stop_service" and c["thread"] == "app", c
assert v["confidence"] == "possible", v
'
    if [ "$m" = values ]; then
        json "$T/out" '
v = d["verdict"]
c = v["cause"]
assert c["file"].endswith("prog.c") and c["line"] > 0, c
assert any("inlined into `main`" in e for e in v["evidence"]), v
'
    fi
done
echo ok
