#!/bin/sh
# Thread pairing by content: a pool of three unnamed look-alike workers
# (fixtures/progs/pool_alike.c) whose roles swap from run to run. 20 pairs
# of identical runs must all give exit 0 with no baseline; the roles must
# really have swapped in some (else nothing was tested); a bad run's
# divergence is in the parsing worker; --pair overrides and is checked.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

P=$BD/fixtures/pool_alike
rec g0.trc "$P"
ok=0; swapped=0
for i in $(seq 1 20); do
    rec g$i.trc "$P"
    rc=0; "$TTDIFF" --color never "$T/g0.trc" "$T/g$i.trc" > "$T/out" 2>&1 || rc=$?
    [ "$rc" = 0 ] && ok=$((ok + 1)) || cat "$T/out"
    grep -Eq '^  #([1-3]) .* #([1-3]) ' "$T/out" || fail "no worker pairs in the table"
    # a worker pair whose numbers differ: the roles swapped
    awk '/^  #[1-3] / { if ($1 != $3) s = 1 } END { exit !s }' "$T/out" && swapped=$((swapped + 1))
done
echo "identical runs of a pool of look-alike workers: exit 0 in $ok of 20 (roles swapped in $swapped)"
[ "$ok" = 20 ] || fail "only $ok of 20 identical runs gave exit 0"
[ "$swapped" -gt 0 ] || fail "the workers never swapped roles: nothing was tested"
has 'content 1.00 ' "$T/out"

rec bad.trc "$P" bad
run 1 --color never "$T/g0.trc" "$T/bad.trc"
has '^first divergence: thread pool_alike' "$T/out"
has '^  2\. check_line  at ' "$T/out"   # after the diverging frame: no values
has '^  +  *[0-9]*  reject_line();' "$T/out"
run 1 --format json "$T/g0.trc" "$T/bad.trc"
json "$T/out" '
ts = d["threads"]
assert ts[0]["paired_by"] == "main" and not ts[0]["uncertain"]
w = ts[1:]
assert all(p["paired_by"] == "content" and p["tie"] == "name+start" for p in w), w
assert sum(p["hunks"] for p in w) == 1, w
assert all(0.9 <= p["similarity"] <= 1 and not p["uncertain"] for p in w), w
'
# by hand: good #1..#3 with bad #1..#3 in creation order
run 0 --color never --pair good#1=bad#1 --pair good#2=bad#2 --pair 3=3 "$T/g0.trc" "$T/g0.trc"
has "^  #1 pool_alike *#1 pool_alike *hand " "$T/out"
run 2 --pair good#1=bad#7 "$T/g0.trc" "$T/bad.trc"
has 'ttdiff: --pair good#1=bad#7: no such thread' "$T/err"
run 2 --pair good#1=bad#1 --pair good#2=bad#1 "$T/g0.trc" "$T/bad.trc"
has 'a thread paired twice' "$T/err"
run 2 --pair 'one=two' "$T/g0.trc" "$T/bad.trc"
has "ttdiff: --pair: 'one=two' is not good#N=bad#M" "$T/err"
echo "ok"
