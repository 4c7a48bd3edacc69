#!/bin/sh
# Timing-shaped differences (issue 22). poll_flag's poller checks a flag
# with short sleeps (neither function named like a wait: the idle gaps
# tell): identical runs exit 0 with no baseline, 5 of 5, the extra polls
# listed as timing-shaped; its bad run still names handle_failure, and
# has no thread-order block (only main used its mutex). once_race: who
# built the table (pthread_once) and the cache (a lock) moves between
# reader and writer; identical runs exit 0, 5 of 5, and the bad run names
# write_failed. The demo's consumer finding fewer items (no waits between
# its iterations) stays a divergence.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

P=$BD/fixtures/poll_flag
rec g0.trc "$P"
ok=0; timing=0
for i in 1 2 3 4 5; do
    rec g$i.trc "$P"
    rc=0
    rm -f "$T/j"; "$TTDIFF" --format json -o "$T/j" "$T/g0.trc" "$T/g$i.trc" > /dev/null 2>&1 || rc=$?
    [ "$rc" = 0 ] && ok=$((ok + 1)) || "$TTDIFF" --color never "$T/g0.trc" "$T/g$i.trc" | head -40
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
assert all(h["timing"] and h["timing_kind"] == "wait_loop" for h in d["hunks"]), d["hunks"]
t = d["timing_total"]
assert not t or d["verdict"]["headline"].endswith("only this varied: timing (a loop that waits ran more times)"), d["verdict"]["headline"]
print("T" if t else "N")' "$T/j" > "$T/jt" || fail "ttdiff_timing: poll_flag run $i's JSON"
    [ "$(cat "$T/jt")" = T ] && timing=$((timing + 1))
done
echo "poll_flag: identical runs exit 0 in $ok of 5 ($timing with timing-shaped polls)"
[ "$ok" = 5 ] || fail "only $ok of 5 identical runs of poll_flag gave exit 0"
[ "$timing" -gt 0 ] || fail "the poller never polled a different number of times: nothing was tested"
rec bad.trc "$P" bad
run 1 --color never "$T/g0.trc" "$T/bad.trc"
has '^first divergence: thread poll_flag' "$T/out"
has '^  +  *[0-9]*  handle_failure();' "$T/out"
grep -q '^thread order' "$T/out" && fail "a thread-order block for a mutex only main took"
run 1 --format json "$T/g0.trc" "$T/bad.trc"
json "$T/out" '
il = d["first_divergence"]["interleave"]
assert il is not None and il["shared"] is False, il'

P=$BD/fixtures/once_race
rec o0.trc "$P"
ok=0
for i in 1 2 3 4 5; do
    rec o$i.trc "$P"
    rc=0; "$TTDIFF" "$T/o0.trc" "$T/o$i.trc" > "$T/out" 2>&1 || rc=$?
    [ "$rc" = 0 ] && ok=$((ok + 1)) || head -40 "$T/out"
done
echo "once_race: identical runs exit 0 in $ok of 5"
[ "$ok" = 5 ] || fail "only $ok of 5 identical runs of once_race gave exit 0"
rec obad.trc "$P" bad
run 1 --color never "$T/o0.trc" "$T/obad.trc"
has '^first divergence: thread writer' "$T/out"
has '^  +  *[0-9]*  write_failed();' "$T/out"

# the consumer's shorter loop has no waits: still the first divergence
P=$BD/fixtures/race_queue
rec rg.trc "$P"
rec rb.trc "$P" race
run 1 --format json "$T/rg.trc" "$T/rb.trc"
json "$T/out" '
f = d["first_divergence"]
assert f["thread"]["name"] == "race_queue", f["thread"]
assert f["good"][0]["function"] == "consume_item", f["good"]
assert not d["hunks"][0]["timing"]'
echo ok
