#!/bin/sh
# ttdiff_wakewin.sh - issue 33 item 4: a wake-up that came while its
# waiter was busy. fixtures/progs/async_field.c with ASYNC_FOLD_INLINE=1:
# the producer's send_wake writes the pipe itself (no traced call of its
# own differs, as a library whose wake-up is inlined into its send);
# dispatch clears the handle's `pending` flag after the callback. With
# ASYNC_FOLD=race the second send comes while dispatch still runs, reads
# the flag set and sends nothing; the loop's next poll runs its full
# second and the loop calls watchdog. The calls part in the loop thread
# (loop_run: dispatch in the good run, watchdog in the bad), after the
# wait: the verdict names dispatch (kind "race", thread loop,
# "possible"), the call the loop was inside when the send came, with
# send_wake in the sentence and the good run's wake-up as evidence, in
# text (first 10 lines), HTML (first screen) and JSON, plain and values
# builds. Must not: done right (ASYNC_FOLD_RIGHT=1: the flag cleared
# before the callback; the same timings: no divergence); two good runs:
# exit 0, no cause.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

command -v gcc > /dev/null || { echo "SKIP: no gcc"; exit 77; }
cp fixtures/progs/async_field.c "$T/prog.c"
export ASYNC_FOLD_INLINE=1
for m in plain values; do
    flag=""; [ "$m" = values ] && flag=--values
    (cd "$T" && "$BD/ttcc" $flag gcc ${SAN:-} -O2 -pthread -o "prog-$m" prog.c) || fail "build $m"
    rec "g-$m.trc" "$T/prog-$m"
    ASYNC_FOLD=race rec "b-$m.trc" "$T/prog-$m"
    run 1 --color never "$T/g-$m.trc" "$T/b-$m.trc"
    head -10 "$T/out" > "$T/head10"
    has '^verdict: diverged: possible cause: a race in `dispatch` (thread loop)' "$T/head10"
    has '^  cause: `send_wake` (thread producer) returned at [0-9.]* ms while thread loop was inside `dispatch` (entered at [0-9.]* ms), not waiting; its next wait ([0-9.]* ms) then ran its full 1000 ms with no wake-up: the wake-up fell inside `dispatch`.s window and was lost' "$T/head10"
    has '^  evidence: in the good run the same call of thread producer ran from [0-9.]* to [0-9.]* ms, after `dispatch` had returned' "$T/head10"
    has '^  symptom: the calls part in `loop_run`' "$T/head10"
    run 1 --format html "$T/g-$m.trc" "$T/b-$m.trc"
    sed -n '1,/<main>/p' "$T/out" > "$T/screen1"
    has 'a race in .*dispatch' "$T/screen1"
    has 'the wake-up fell inside' "$T/screen1"
    run 1 --format json "$T/g-$m.trc" "$T/b-$m.trc"
    json "$T/out" '
v = d["verdict"]
c = v["cause"]
assert c["kind"] == "race" and c["function"] == "dispatch" and c["thread"] == "loop", c
assert "`send_wake` (thread producer)" in c["text"] and "was lost" in c["text"], c
assert v["confidence"] == "possible", v
assert v["symptom"]["function"] == "loop_run", v["symptom"]
'
    # must not: done right, the same timings
    ASYNC_FOLD_RIGHT=1 rec "gr-$m.trc" "$T/prog-$m"
    ASYNC_FOLD_RIGHT=1 ASYNC_FOLD=race rec "br-$m.trc" "$T/prog-$m"
    run 0 --format json "$T/gr-$m.trc" "$T/br-$m.trc"
    json "$T/out" 'assert d["verdict"]["cause"] is None, d["verdict"]'
    # must not: the good runs alike
    rec "g2-$m.trc" "$T/prog-$m"
    run 0 --format json "$T/g-$m.trc" "$T/g2-$m.trc"
    json "$T/out" 'assert d["verdict"]["cause"] is None, d["verdict"]'
done
echo ok
