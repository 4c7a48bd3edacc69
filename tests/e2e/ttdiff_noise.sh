#!/bin/sh
# Noise hints without --baseline: a first divergence in a polling loop
# (sus_poll's poll_ready/nap) says it may be timing noise, and traces named
# like the good one (g2.trc beside g1.trc) are suggested as baselines; the
# real divergence of race_queue (a shorter consumer loop) gets no noise note.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

P=$BD/fixtures/sus_poll
for i in 1 2 3 4 5 6; do rec g$i.trc "$P"; done
found=0
for i in 2 3 4 5 6; do
    rc=0; "$TTDIFF" --color never "$T/g1.trc" "$T/g$i.trc" > "$T/out" 2>&1 || rc=$?
    [ "$rc" = 1 ] || continue
    found=1
    has '^note: this may be timing noise: the differing calls wait or poll (poll_ready)' "$T/out"
    has '^note: more runs lie beside the good one' "$T/out"
    o=$(( i == 6 ? 5 : 6 ))
    has " --baseline $T/g$o.trc" "$T/out"
    grep -q -- "--baseline $T/g$i.trc" "$T/out" && fail "the bad trace is suggested as a baseline"
    run 1 --format json "$T/g1.trc" "$T/g$i.trc"
    json "$T/out" '
assert d["first_divergence"]["noise"] == {"kind": "wait", "calls": "poll_ready"}, d["first_divergence"]["noise"]
assert len(d["siblings"]) == 4 and all(s.endswith(".trc") for s in d["siblings"]), d["siblings"]'
    run 1 --format html -o "$T/r.html" "$T/g1.trc" "$T/g$i.trc"
    has 'class="note noise"' "$T/r.html"
    has 'class="note siblings"' "$T/r.html"
    # with a baseline: no sibling list
    "$TTDIFF" --color never --baseline "$T/g3.trc" "$T/g1.trc" "$T/g$i.trc" > "$T/out" 2>&1 || true
    grep -q '^note: more runs' "$T/out" && fail "siblings listed with --baseline"
    break
done
[ "$found" = 1 ] || echo "note: the 6 good runs of sus_poll polled alike; noise hint not tested"
rec rg.trc "$BD/fixtures/race_queue"
rec rb.trc "$BD/fixtures/race_queue" race
run 1 --color never "$T/rg.trc" "$T/rb.trc"
grep -q '^note: this may be timing noise' "$T/out" && fail "race_queue's divergence called noise"
echo ok
