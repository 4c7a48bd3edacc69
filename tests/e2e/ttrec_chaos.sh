#!/bin/sh
# ttrec --chaos on race_tickets (a check outside the lock with a window of
# a few hundred ns: about 1 run in 100 fails without chaos): the failure is
# caught within 40 runs (measured: run 1 or 2 in 20 of 20 searches, so 40
# is far from flaky), its seed is in ttrec's output, the trace, the text
# and HTML reports and the JSON (options.chaos_seed), and --chaos=SEED on one run
# records that seed; the good run is the closest passing run (said, with
# its prefix); --candidates bounds the passing traces on disk; usage errors.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"
TTREC=$BD/ttrec
P=$BD/fixtures/race_tickets
cd "$T"

rc=0; "$TTREC" --chaos=5 --until-fail 40 -o hunt -- "$P" > out 2> err || rc=$?
[ "$rc" = 1 ] || { cat out err; fail "ttrec --chaos --until-fail: exit $rc, want 1"; }
has '^ttrec: chaos mode, base seed 5$' err
has '^ttrec: run [0-9]* failed (exit 1) in chaos mode, seed [0-9]* (ttrec --chaos=[0-9]* -- ... repeats it): hunt/fail.trc' err
seed=$(sed -n 's/^ttrec: run [0-9]* failed (exit 1) in chaos mode, seed \([0-9]*\) .*/\1/p' err)
[ -n "$seed" ] || fail "no seed in ttrec's output"
has '^FAIL: show [0-9]* oversold' hunt/fail.out
# the passing runs still needed after the catch run calm, and the good run
# is the closest of them, with its prefix
has 'ttrec: good run: run [0-9]* (pass-1.trc), the closest of 3 passing runs to the failing one: common call prefix [0-9]* of its [0-9]* calls' err
awk '/good run:/ { for (i = 1; i <= NF; i++) if ($i == "prefix") { p = $(i + 1); c = $(i + 4) } }
     END { exit !(p + 0 > 0 && p + 0 <= c + 0) }' err || fail "prefix not within 1..calls: $(grep 'good run' err)"
has "^chaos: the bad run ran in chaos mode, seed $seed " out
"$BD/ttdump" hunt/fail.trc > dump || fail "ttdump fail.trc"
has "^  chaos:             seed $seed, at sync operations (TTCAP_CHAOS=$seed repeats it)" dump
# passing runs before the catch ran in chaos mode; those after it are calm
first=$(sed -n 's/^ttrec: run \([0-9]*\) failed .*/\1/p' err)
shaken=0; calm=0
for f in hunt/pass-*.trc; do
    "$BD/ttdump" "$f" > dump || fail "ttdump $f"
    if grep -q 'chaos:' dump; then shaken=$((shaken + 1)); else calm=$((calm + 1)); calm_trc=$f; fi
done
[ "$shaken" -lt "$first" ] || fail "$shaken passing runs in chaos mode, but the failure came at run $first"
[ "$first" -gt 1 ] || [ "$calm" -ge 1 ] || fail "no calm passing run after a catch at run 1"
run 1 --format json -o r.json hunt/pass-1.trc hunt/fail.trc
json r.json "assert d['options']['chaos_seed'] == $seed, d['options']"
run 1 --format html -o r.html hunt/pass-1.trc hunt/fail.trc
has "id=\"tt-chaos\">The bad run ran in chaos mode, seed <code>$seed</code>" r.html
if [ "$calm" -ge 1 ]; then   # a calm bad run: no seed
    run 1 --format json -o r2.json hunt/fail.trc "$calm_trc"
    json r2.json "assert d['options']['chaos_seed'] is None"
fi

# one run with that seed records it (the perturbation repeats); entries too
"$TTREC" --chaos="$seed" -o one.trc -- "$P" > out 2> err || true
has "^ttrec: chaos seed $seed$" err
"$BD/ttdump" one.trc > dump
has "^  chaos:             seed $seed, at sync operations " dump
"$TTREC" --chaos=7 --chaos-entries -o ent.trc -- "$P" > out 2> err || true
"$BD/ttdump" ent.trc > dump
has '^  chaos:             seed 7, at sync operations and function entries (TTCAP_CHAOS=7,entries ' dump

# --candidates bounds the passing traces kept while hunting (on a program
# that never fails: race_tickets fails about 1 run in 100 unshaken)
rc=0; "$TTREC" -q --until-fail 5 --keep 1 --candidates 2 -o cand \
    -- "$BD/fixtures/ex_parser" size=64,mode=755,ro > out 2> err || rc=$?
[ "$rc" = 0 ] || fail "no failure: exit $rc, want 0"
[ "$(ls cand | grep -c '^pass-[0-9]*\.trc$')" = 2 ] || fail "--candidates 2 kept: $(ls cand)"

# usage errors
for args in "--chaos=x" "--chaos=-1" "--candidates 0" "--candidates 65" "--keep 65"; do
    rc=0; "$TTREC" $args --until-fail 2 -- "$P" > out 2> err || rc=$?
    [ "$rc" = 2 ] || fail "ttrec $args: exit $rc, want 2"
    has '^ttrec: ' err
done
echo ok
