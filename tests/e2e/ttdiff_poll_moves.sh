#!/bin/sh
# ttdiff when the noise moves: poll_moves' two threads poll a
# clock-dependent number of times at every one of 8 blocks, so good runs
# differ at other places every time and position alone never excuses a
# difference. The polls sleep: without baselines their extra iterations
# are timing-shaped (diff/timing.c), and baselines also know the noise by
# function (the calls and their callers that vary between good runs): 10
# of 10 pairs of identical runs exit 0 with no baseline, with 3 baselines
# (and with 2), with the tree aligner and --flat; the bad run's real
# divergence (corrupt_block in the worker, then reject_block in main) is
# still the first divergence, not a poll. How many polls a run makes
# depends on the load, so nothing here counts on their number: that the
# runs did vary is checked on what ttdiff saw (timing-shaped or expected
# hunks in some pair), not assumed.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

P=$BD/fixtures/poll_moves
for i in 0 1 2 3 4 5 6 7; do rec g$i.trc "$P"; done
rec bad.trc "$P" bad
# try t: good g(t), "bad" g(t+1), baselines the next NB runs (mod 8);
# prints how many of 10 tries exit 0 (extra ttdiff options after NB); the
# tries where ttdiff saw the runs vary are counted in $T/varied
: > "$T/varied"
tries() {
    nb=$1; shift
    ok=0
    for t in 0 1 2 3 4 5 6 7 8 9; do
        base=
        for k in $(seq 2 $((nb + 1))); do base="$base --baseline $T/g$(((t + k) % 8)).trc"; done
        rc=0
        "$TTDIFF" --format json "$@" $base "$T/g$((t % 8)).trc" "$T/g$(((t + 1) % 8)).trc" > "$T/out" 2>&1 || rc=$?
        [ "$rc" = 2 ] && { cat "$T/out" >&2; fail "ttdiff $* $base: exit 2"; }
        [ "$rc" = 0 ] && ok=$((ok + 1))
        [ "$rc" = 1 ] && "$TTDIFF" --color never "$@" $base "$T/g$((t % 8)).trc" "$T/g$(((t + 1) % 8)).trc" | head -40 >&2
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
sys.exit(0 if d["timing_total"] or d["expected_total"] else 1)' "$T/out" && echo x >> "$T/varied"
    done
    echo "$ok"
}
plain=$(tries 0)
tree=$(tries 3)
flat=$(tries 3 --flat)
two=$(tries 2)
varied=$(wc -l < "$T/varied")
echo "identical runs of poll_moves: exit 0 in $plain of 10 without baselines, $tree of 10 with 3 baselines ($flat with --flat, $two with 2 baselines); the runs varied in $varied of 40 tries"
[ "$varied" -gt 0 ] || fail "the good runs never varied: nothing was tested"
[ "$plain" = 10 ] || fail "no baselines: $((10 - plain)) of 10 identical pairs diverge (the polls are not timing-shaped)"
[ "$tree" = 10 ] || fail "tree aligner: $((10 - tree)) of 10 identical pairs diverge with 3 baselines"
[ "$flat" = 10 ] || fail "--flat: $((10 - flat)) of 10 identical pairs diverge with 3 baselines"
[ "$two" = 10 ] || fail "$((10 - two)) of 10 identical pairs diverge with 2 baselines"
# the bug: the first divergence is the worker's corrupt_block, main's
# reject_block follows; the polls before them are expected. --flat (one
# Myers script over the flat events) can shift a block's calls across the
# iterations of a poll loop that ran more times in the bad run (its
# minimal script deletes accept_block + prepare_block and inserts them a
# few polls later rather than insert the polls: 1 recording in about 20
# under load; report/READING.md, --flat), and the shifted block can take
# the worker's corrupt_block into a hunk of polls the baselines expect (2
# of 12 recordings under ASan and load); there the runs are only checked
# to diverge, with a divergence that is neither timing nor expected
B3="--baseline $T/g1.trc --baseline $T/g2.trc --baseline $T/g3.trc"
run 1 --format json --flat $B3 "$T/g0.trc" "$T/bad.trc"
json "$T/out" '
hs = [h for h in d["hunks"] if not h["timing"] and not h["expected"]]
assert d["diverged"] and hs, d["hunks"]
'
for m in ""; do
    run 1 --color never $m $B3 "$T/g0.trc" "$T/bad.trc"
    has '^first divergence: thread worker' "$T/out"
    has '^  +  *[0-9]*  corrupt_block();' "$T/out"
    run 1 --format json $m $B3 "$T/g0.trc" "$T/bad.trc"
    json "$T/out" '
f = d["first_divergence"]
assert f["thread"]["name"] == "worker", f["thread"]
assert f["bad"][0]["function"] == "corrupt_block", f["bad"]
assert not f["good"] or all(e["function"] in ("poll_submitted", "nap", "clock_us") for e in f["good"]), f["good"]
hs = [h for h in d["hunks"] if not h["timing"]]
assert all(not h["expected"] for h in hs) and len(hs) == 2, hs
assert d["expected_total"] > 0 and all(h["expected"] for h in d["expected_hunks"])
'
done
echo ok
