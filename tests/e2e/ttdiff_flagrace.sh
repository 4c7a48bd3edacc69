#!/bin/sh
# ttdiff_flagrace.sh - issue 33 item 4: a race on a flag as the cause.
# fixtures/progs/flag_stop.c: a worker polls a stop flag (stop_requested)
# that main sets (request_stop), neither under a lock; main closes the
# output without joining first. With FLAG_STOP=race the worker polls just
# before the stop, writes after the close and fails. Plain and values
# builds: the verdict names a race (kind "race") at the poller,
# stop_requested in thread writer, the setter request_stop in thread app
# with both lines and the global `stop` in the sentence, and which call
# came first, in text (first 10 lines), HTML (first screen) and JSON;
# "possible". Must not: the same program with the flag read and written
# under one mutex (FLAG_STOP_LOCK=1) gets no race on the flag; two good
# runs, no cause.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

command -v gcc > /dev/null || { echo "SKIP: no gcc"; exit 77; }
cp fixtures/progs/flag_stop.c "$T/prog.c"
for m in plain values; do
    flag=""; [ "$m" = values ] && flag=--values
    (cd "$T" && "$BD/ttcc" $flag gcc ${SAN:-} -O2 -pthread -o "prog-$m" prog.c) || fail "build $m"
    rec "g-$m.trc" "$T/prog-$m"
    FLAG_STOP=race rec "b-$m.trc" "$T/prog-$m"
    run 1 --color never "$T/g-$m.trc" "$T/b-$m.trc"
    head -10 "$T/out" > "$T/head10"
    has '^verdict: diverged: possible cause: a race in `stop_requested` (thread writer)' "$T/head10"
    has '^  cause: `request_stop` (thread app, prog.c:[0-9]*) wrote `stop` and `stop_requested` (thread writer, prog.c:[0-9]*) read it with no lock held by both and nothing ordering the two calls' "$T/head10"
    has 'a race on a flag' "$T/head10"
    has '^  evidence: in the bad run `stop_requested` returned at [0-9.]* ms and `request_stop` was called at [0-9.]* ms: the poll came first' "$T/head10"
    if [ "$m" = values ]; then
        has '^  evidence: `stop_requested` returned 0 in the bad run, 1 in the good run: the split.s branch used its answer' "$T/head10"
    else
        has '^  evidence: `stop_requested` is the last call before the split whose machine code reads `stop`; `request_stop`.s code writes it' "$T/head10"
    fi
    run 1 --format html "$T/g-$m.trc" "$T/b-$m.trc"
    sed -n '1,/<main>/p' "$T/out" > "$T/screen1"
    has 'a race in .*stop_requested' "$T/screen1"
    has 'a race on a flag' "$T/screen1"
    run 1 --format json "$T/g-$m.trc" "$T/b-$m.trc"
    json "$T/out" '
v = d["verdict"]
c = v["cause"]
assert c["kind"] == "race" and c["function"] == "stop_requested", c
assert c["thread"] == "writer" and "`request_stop` (thread app" in c["text"], c
assert "a race on a flag" in c["text"] and "`stop`" in c["text"], c
assert any("the poll came first" in e for e in v["evidence"]), v["evidence"]
assert v["confidence"] == "possible", v
'
    # must not: the flag under one mutex in both calls
    FLAG_STOP_LOCK=1 rec "gl-$m.trc" "$T/prog-$m"
    FLAG_STOP_LOCK=1 FLAG_STOP=race rec "bl-$m.trc" "$T/prog-$m"
    run 1 --format json "$T/gl-$m.trc" "$T/bl-$m.trc"
    json "$T/out" '
c = d["verdict"]["cause"]
assert c["kind"] != "race" and "a race on a flag" not in c["text"], c
'
done
# the good runs alike: no divergence, no cause
rec g2.trc "$T/prog-plain"
run 0 --format json "$T/g-plain.trc" "$T/g2.trc"
json "$T/out" 'assert d["verdict"]["cause"] is None, d["verdict"]'
echo ok
