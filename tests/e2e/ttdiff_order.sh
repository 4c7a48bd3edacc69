#!/bin/sh
# Cross-thread order (SYNC_OP records): race_queue's bad run has a
# reserve_slot call that takes no lock while producer-2 is inside
# reserve_slot too. The report shows both runs' last lock operations side
# by side, names the first order difference on the queue's mutex, and the
# unprotected call with its overlap (text, JSON, HTML picture). ttdump
# prints the operations; TTCAP_SYNC=0 records none.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

P=$BD/fixtures/race_queue
rec good.trc "$P"
rec bad.trc "$P" race
"$BD/ttdump" "$T/good.trc" > "$T/dump"
has 'optional features: 0x[0-9a-f]* (sync' "$T/dump"
has '~~ thread-create 0x[0-9a-f]* (thread #1)' "$T/dump"
has '~~ lock 0x' "$T/dump"
has '~~ unlock 0x' "$T/dump"
has '~~ thread-join 0x' "$T/dump"
run 1 --color never "$T/good.trc" "$T/bad.trc"
has '^thread order before the divergence' "$T/out"
has '^  good (last [0-9]* of [0-9]*) *| bad (last' "$T/out"
# (the column is cut at its width: a run slower than 100 ms before the
# split, as under load, has one more digit and loses the name's end)
has ' lock mutex#1 (reserve_s[a-z_)]* *| ' "$T/out"
has '^first difference in the order on mutex#1' "$T/out"
has '^unprotected: reserve_slot in bad #[12] ran without mutex#1 (.*); all 16 good-run calls of it took mutex#1; bad #[12] was inside reserve_slot too' "$T/out"
# at most 8 rows by default, the cut ones counted; --order-rows N; 0 = all
n=$(sed -n '/^thread order before/,/^first difference in the order/p' "$T/out" | grep -c ' | ')
[ "$n" -le 9 ] || fail "$n rows in the thread-order block (at most 8 and the heading)"
has '^  \.\.\. [0-9]* earlier rows (--order-rows [0-9]* shows them)$' "$T/out"
run 1 --color never --order-rows 3 "$T/good.trc" "$T/bad.trc"
has '^  good (last 3 of [0-9]*) *| bad (last 3 of' "$T/out"
has '^  \.\.\. 21 earlier rows (--order-rows 24 shows them)$' "$T/out"
run 1 --color never --order-rows 0 "$T/good.trc" "$T/bad.trc"
has '^  good (last 24 of [0-9]*) *| bad (last 24 of' "$T/out"
grep -q 'earlier rows (--order-rows' "$T/out" && fail "--order-rows 0 cut rows"
run 2 --order-rows many "$T/good.trc" "$T/bad.trc"
run 1 --format json "$T/good.trc" "$T/bad.trc"
json "$T/out" '
il = d["first_divergence"]["interleave"]
assert il["shared"] is True, il
assert il["operations"]["good"] > 0 and il["window"]["bad"], il["operations"]
assert all(e["kind"] == "sync_op" for e in il["window"]["good"])
assert il["order_difference"]["object"] == "mutex#1"
u = il["unprotected"]
assert u["function"] == "reserve_slot" and u["lock"] == "mutex#1" and u["good_calls"] == 16, u
assert u["overlap"]["function"] == "reserve_slot" and u["overlap"]["thread"] != u["call"]["thread"], u
assert all(e["thread"] != u["call"]["thread"] for e in u["during"]), u["during"]'
run 1 --format html -o "$T/r.html" "$T/good.trc" "$T/bad.trc"
has '<section class="order" id="order">' "$T/r.html"
has '<svg width=' "$T/r.html"
grep -q 'http://' "$T/r.html" && fail 'a URL in the HTML report'
has '<rect class="unprot"' "$T/r.html"
has '<line class="split"' "$T/r.html"
has 'Unprotected: <code>reserve_slot</code>' "$T/r.html"
# without sync records: no interleaving, nothing else changes
TTCAP_SYNC=0 TTCAP_OUT="$T/nosync.trc" "$P" race > /dev/null || true
"$BD/ttdump" "$T/nosync.trc" > "$T/dump"
grep -q 'optional features: .*sync' "$T/dump" && fail "TTCAP_SYNC=0: the sync feature is set"
grep -q '~~' "$T/dump" && fail "TTCAP_SYNC=0 still recorded operations"
run 1 --color never "$T/good.trc" "$T/nosync.trc"
has '^first divergence: thread race_queue' "$T/out"
echo ok
