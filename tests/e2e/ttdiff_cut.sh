#!/bin/sh
# A trace cut by a full disk (issue 24, defect 6): ttdump and ttdump --stats
# say "trace cut: disk full after N events" and count the events that could
# not be written as lost; ttdiff against a complete run names the cut and
# never presents it as the program's divergence (no difference before the
# cut: exit 0), while a real divergence before the cut is still found.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
BD=$(cd "$B" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -q -- "$1" "$2" || { cat "$2"; fail "no '$1' in $2"; }; }
hasnt() { ! grep -q -- "$1" "$2" || { cat "$2"; fail "'$1' in $2"; }; }

"$BD/rel/rel_gen" cut "$T/g.trc" "$T/b.trc" 1000 400
"$BD/ttdump" --stats "$T/b.trc" > "$T/st"
has 'trace cut: disk full after 804 events; 1201 events could not be written' "$T/st"
has '^total: 804 events (lost 1201)' "$T/st"
"$BD/ttdump" "$T/b.trc" > "$T/dump"
has '^  events: *804 (lost 1201)' "$T/dump"
has '^  cut: *trace cut: disk full after 804 events' "$T/dump"
has '^cut threads: 1' "$T/dump"
for fmt in text json html; do
    rc=0
    "$BD/ttdiff" --format $fmt "$T/g.trc" "$T/b.trc" > "$T/d.$fmt" 2>&1 || rc=$?
    [ $rc = 0 ] || { cat "$T/d.$fmt"; fail "ttdiff --format $fmt on a cut run: exit $rc, want 0"; }
    has 'trace cut: disk full after 804 events' "$T/d.$fmt"
done
hasnt 'first divergence' "$T/d.text"
has "no divergence in 1 thread pair before the bad run's trace was cut" "$T/d.text"
grep -q '"diverged": *false' "$T/d.json" || { cat "$T/d.json"; fail "json: diverged"; }
# a real divergence before the cut (call 100 of 1000, cut after 400)
"$BD/rel/rel_gen" cut "$T/g2.trc" "$T/b2.trc" 1000 400 100
rc=0
"$BD/ttdiff" "$T/g2.trc" "$T/b2.trc" > "$T/d2" 2>&1 || rc=$?
[ $rc = 1 ] || { cat "$T/d2"; fail "divergence before the cut: exit $rc, want 1"; }
has 'first divergence: .*good event 201, bad event 201' "$T/d2"
has 'trace cut: disk full' "$T/d2"
has '0x401240' "$T/d2"
echo "ok: cut traces named by ttdump and ttdiff, the cut never a divergence"
