#!/bin/sh
# ttdiff --baseline on a threaded fixture whose good runs vary by timing
# (a worker polls a flag with sleeps): two good runs differ (the polls are
# timing-shaped without baselines, diff/timing.c); with three good runs
# as baselines every such difference is expected, ten identical-input
# runs compared pairwise give no divergence, and the bad run's real
# divergence (check_item says no) is still named.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

P=$BD/fixtures/sus_poll
for i in 0 1 2 3 4 5 6 7 8 9; do rec g$i.trc "$P"; done
rec bad.trc "$P" bad
# without baselines: count the pairs of good runs that "diverge"
plain=0
for i in 0 1 2 3 4 5 6 7 8 9; do for j in 0 1 2 3 4 5 6 7 8 9; do
    [ "$i" -lt "$j" ] || continue
    rc=0; "$TTDIFF" --color never "$T/g$i.trc" "$T/g$j.trc" > "$T/p" 2>&1 || rc=$?
    [ "$rc" = 2 ] && fail "ttdiff g$i g$j: exit 2"
    [ "$rc" = 1 ] && plain=$((plain + 1))
    # varied: a divergence, or timing-shaped differences (exit 0)
    v=$rc; grep -q '^timing-shaped' "$T/p" && v=1
    echo "$v" > "$T/rc.$i.$j"; echo "$v" > "$T/rc.$j.$i"
done; done
# with the three lowest-numbered other runs as baselines: none. A pair
# whose good run happened to poll exactly as often as all three of its
# baselines has no known variation to excuse anything: it is skipped
# (and counted), since no tool could call that difference expected.
with=0; novar=0
for i in 0 1 2 3 4 5 6 7 8 9; do for j in 0 1 2 3 4 5 6 7 8 9; do
    [ "$i" -lt "$j" ] || continue
    set --
    for k in 0 1 2 3 4 5 6 7 8 9; do
        [ "$k" != "$i" ] && [ "$k" != "$j" ] && [ $# -lt 6 ] && set -- "$@" --baseline "$T/g$k.trc"
    done
    varies=0
    for k in 0 1 2 3 4 5 6 7 8 9; do
        case " $* " in *"/g$k.trc "*) [ "$(cat "$T/rc.$i.$k")" = 1 ] && varies=1 ;; esac
    done
    [ "$varies" = 1 ] || { novar=$((novar + 1)); continue; }
    rc=0; "$TTDIFF" "$@" "$T/g$i.trc" "$T/g$j.trc" > "$T/out" 2>&1 || rc=$?
    [ "$rc" = 1 ] && { with=$((with + 1)); cat "$T/out"; }
    [ "$rc" = 2 ] && { cat "$T/out"; fail "ttdiff with baselines g$i g$j: exit 2"; }
done; done
echo "spurious divergences among 45 pairs of identical runs: $plain without baselines, $with with 3 baselines ($novar pairs skipped: good run equal to all its baselines)"
[ "$novar" -lt 45 ] || fail "the good runs never varied: nothing was tested"
[ "$with" = 0 ] || fail "$with pairs of good runs still diverge with 3 baselines"
# the real divergence is still named, the poll variation reported apart
B3="--baseline $T/g1.trc --baseline $T/g2.trc --baseline $T/g3.trc"
run 1 --color never $B3 "$T/g0.trc" "$T/bad.trc"
has '^base: .*g1.trc' "$T/out"
has '^first divergence: thread poller' "$T/out"
# no values: the diverging frame first, the validator next (position only)
has '^  2\. check_item  at .*returned right before the split' "$T/out"
has '^  +  *[0-9]*  reject() {' "$T/out"
run 1 --format json $B3 "$T/g0.trc" "$T/bad.trc"
json "$T/out" '
f = d["first_divergence"]
assert [s["function"] for s in f["suspects"][:2]] == [f["stack"][-1], "check_item"], f["suspects"]
assert f["bad"][0]["function"] == "reject" and f["good"][0]["function"] == "accept_item"
assert d["hunks_total"] == 1 and all(not h["expected"] for h in d["hunks"])
assert all(h["expected"] for h in d["expected_hunks"])
assert len(d["baselines"]) == 3 and len(d["options"]["baselines"]) == 3
assert sum(p["expected_hunks"] for p in d["threads"]) == d["expected_total"]
'
run 1 --format html $B3 "$T/g0.trc" "$T/bad.trc"
has '<section class="first" id="first">' "$T/out"
# a missing baseline is trouble, named
run 2 --baseline "$T/nope.trc" "$T/g0.trc" "$T/bad.trc"
has "^ttdiff: .*nope.trc" "$T/err"
echo "ok"
