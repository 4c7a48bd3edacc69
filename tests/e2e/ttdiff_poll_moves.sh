#!/bin/sh
# ttdiff --baseline when the noise moves: poll_moves' two threads poll a
# clock-dependent number of times at every one of 8 blocks, so good runs
# differ at other places every time and position alone never excuses a
# difference. Baselines also know the noise by function (the calls and
# their callers that vary between good runs): 10 of 10 pairs of identical
# runs with 3 baselines (and with 2) exit 0, with the tree aligner and
# --flat; the bad run's real divergence (corrupt_block in the worker, then
# reject_block in main) is still the first divergence, not a poll.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

P=$BD/fixtures/poll_moves
for i in 0 1 2 3 4 5 6 7; do rec g$i.trc "$P"; done
rec bad.trc "$P" bad
# try t: good g(t), "bad" g(t+1), baselines the next NB runs (mod 8);
# prints how many of 10 tries exit 0 (extra ttdiff options after NB)
tries() {
    nb=$1; shift
    ok=0
    for t in 0 1 2 3 4 5 6 7 8 9; do
        base=
        for k in $(seq 2 $((nb + 1))); do base="$base --baseline $T/g$(((t + k) % 8)).trc"; done
        rc=0
        "$TTDIFF" "$@" $base "$T/g$((t % 8)).trc" "$T/g$(((t + 1) % 8)).trc" > "$T/out" 2>&1 || rc=$?
        [ "$rc" = 2 ] && { cat "$T/out" >&2; fail "ttdiff $* $base: exit 2"; }
        [ "$rc" = 0 ] && ok=$((ok + 1))
        [ "$rc" = 1 ] && [ "$nb" -gt 0 ] && head -40 "$T/out" >&2
    done
    echo "$ok"
}
plain=$(tries 0)
tree=$(tries 3)
flat=$(tries 3 --flat)
two=$(tries 2)
echo "identical runs of poll_moves: exit 0 in $plain of 10 without baselines, $tree of 10 with 3 baselines ($flat with --flat, $two with 2 baselines)"
[ "$plain" -lt 10 ] || fail "the good runs never varied: nothing was tested"
[ "$tree" = 10 ] || fail "tree aligner: $((10 - tree)) of 10 identical pairs diverge with 3 baselines"
[ "$flat" = 10 ] || fail "--flat: $((10 - flat)) of 10 identical pairs diverge with 3 baselines"
[ "$two" = 10 ] || fail "$((10 - two)) of 10 identical pairs diverge with 2 baselines"
# the bug: the first divergence is the worker's corrupt_block, main's
# reject_block follows; the polls before them are expected
B3="--baseline $T/g1.trc --baseline $T/g2.trc --baseline $T/g3.trc"
for m in "" --flat; do
    run 1 --color never $m $B3 "$T/g0.trc" "$T/bad.trc"
    has '^first divergence: thread worker' "$T/out"
    has '^  +  *[0-9]*  corrupt_block();' "$T/out"
    run 1 --format json $m $B3 "$T/g0.trc" "$T/bad.trc"
    json "$T/out" '
f = d["first_divergence"]
assert f["thread"]["name"] == "worker", f["thread"]
assert f["bad"][0]["function"] == "corrupt_block", f["bad"]
assert not f["good"] or all(e["function"] in ("poll_submitted", "nap", "clock_us") for e in f["good"]), f["good"]
hs = d["hunks"]
assert all(not h["expected"] for h in hs) and len(hs) == 2, hs
assert d["expected_total"] > 0 and all(h["expected"] for h in d["expected_hunks"])
'
done
echo ok
