#!/bin/sh
# Pools (issue 22): pool_queue's workers ("worker-N", 2 to 4 of them) pull
# 18 items from one queue, each taking whichever comes next, so every run
# spreads the items differently. Identical runs must exit 0 with no
# baseline, 5 of 5 for each pool size, and the spread must really have
# differed (else nothing was tested); the bad run (item 7 fails
# validation) must name the failing item's error path, report_bad_item,
# in the worker that took it. Text, JSON (threads[].pool, pools[]) and
# HTML show the pool; in values mode only the values of the item that
# went differently count (the error path is named; its values only when
# the bad item was aligned against a good one of its kind).
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

P=$BD/fixtures/pool_queue
spread=0
for w in 2 3 4; do
    rec g$w.0.trc "$P" -w$w
    ok=0
    for i in 1 2 3 4 5; do
        rec g$w.$i.trc "$P" -w$w
        rc=0
        rm -f "$T/j"; "$TTDIFF" --format json -o "$T/j" "$T/g$w.0.trc" "$T/g$w.$i.trc" > /dev/null 2>&1 || rc=$?
        [ "$rc" = 0 ] && ok=$((ok + 1)) || "$TTDIFF" --color never "$T/g$w.0.trc" "$T/g$w.$i.trc" | head -40
        # per-thread event counts that differ: the items went elsewhere
        python3 -c 'import json,sys; d=json.load(open(sys.argv[1]))
sys.exit(0 if any(t["good"]["events"] != t["bad"]["events"] for t in d["threads"]) else 1)' "$T/j" &&
            spread=$((spread + 1))
    done
    echo "pool_queue -w$w: identical runs exit 0 in $ok of 5"
    [ "$ok" = 5 ] || fail "-w$w: only $ok of 5 identical runs gave exit 0"
done
echo "runs whose workers took other items: $spread of 15"
[ "$spread" -gt 0 ] || fail "the items never went to other workers: nothing was tested"

rec bad.trc "$P" bad
run 1 --color never "$T/g3.0.trc" "$T/bad.trc"
has '^first divergence: thread worker-[0-9]' "$T/out"
has '^  +  *[0-9]*  *report_bad_item();' "$T/out"
has '^  #1 worker-0  .*pool#1$' "$T/out"
has '^  pool#1: 3 look-alike threads starting in worker_main, compared as a pool: 57 work items good, 57 bad, 2 done by one run only' "$T/out"
run 1 --format json "$T/g3.0.trc" "$T/bad.trc"
json "$T/out" '
f = d["first_divergence"]
assert any(e["function"] == "report_bad_item" for e in f["bad"]), f["bad"]
assert f["thread"]["name"].startswith("worker-"), f["thread"]
assert d["hunks_total"] == 1, d["hunks"]
p = d["pools"]
assert len(p) == 1 and p[0]["id"] == "pool#1" and p[0]["start_function"] == "worker_main", p
assert p[0]["good_threads"] == ["#1 worker-0", "#2 worker-1", "#3 worker-2"], p
assert p[0]["items_good"] == p[0]["items_bad"] == 57 and p[0]["items_differing"] == 2, p
ts = d["threads"]
assert ts[0]["pool"] is None and all(t["pool"] == "pool#1" for t in ts[1:]), ts'
run 1 --format html -o "$T/r.html" "$T/g3.0.trc" "$T/bad.trc"
has '<th>pool</th>' "$T/r.html"
has '<td>pool#1</td>' "$T/r.html"
# values mode (-pg -mfentry): the items' arguments differ with the worker
# that took them; only the values of the item that went differently count
V=$BD/fixtures/pg/pool_queue
rec v0.trc "$V"
ok=0
for i in 1 2 3; do
    rec v$i.trc "$V"
    rc=0; "$TTDIFF" "$T/v0.trc" "$T/v$i.trc" > "$T/out" 2>&1 || rc=$?
    [ "$rc" = 0 ] && ok=$((ok + 1)) || head -30 "$T/out"
done
echo "pool_queue, values mode: identical runs exit 0 in $ok of 3"
[ "$ok" = 3 ] || fail "values mode: only $ok of 3 identical runs gave exit 0"
rec vbad.trc "$V" bad
run 1 --color never "$T/v0.trc" "$T/vbad.trc"
has '^  +  *[0-9]*  *report_bad_item(7);' "$T/out"
echo ok
