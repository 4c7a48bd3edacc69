#!/bin/sh
# Truncated trace files (issue 37 item 8). Cut inside the header page (100
# bytes): ttdump and ttdiff refuse it with one line naming the file and the
# offset, exit 2 (it was read as an empty run, "exit: status 0"). Cut
# inside the data: ttdump's summary says where the file ends; ttdiff names
# the cut in the headline and never presents the missing rest as the
# program's divergence (exit 0), while a real divergence before the cut is
# still found.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
BD=$(cd "$B" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -q -- "$1" "$2" || { cat "$2"; fail "no '$1' in $2"; }; }
hasnt() { ! grep -q -- "$1" "$2" || { cat "$2"; fail "'$1' in $2"; }; }
want_rc() { [ "$1" = "$2" ] || { cat "$4"; fail "$3: exit $1, want $2"; }; }

# ---- inside the header page
head -c 100 fixtures/traces/basic.trc > "$T/h.trc"
rc=0; "$BD/ttdump" "$T/h.trc" > "$T/o" 2>&1 || rc=$?
want_rc $rc 2 "ttdump on a header cut" "$T/o"
[ "$(wc -l < "$T/o")" = 1 ] || { cat "$T/o"; fail "ttdump: want one line"; }
has "^ttdump: $T/h.trc: offset 100: truncated file header" "$T/o"
hasnt 'exit: *status' "$T/o"
rc=0; "$BD/ttdiff" fixtures/traces/basic.trc "$T/h.trc" > "$T/o" 2>&1 || rc=$?
want_rc $rc 2 "ttdiff on a header cut" "$T/o"
[ "$(wc -l < "$T/o")" = 1 ] || { cat "$T/o"; fail "ttdiff: want one line"; }
has "^ttdiff: $T/h.trc: offset 100: truncated file header" "$T/o"

# ---- inside the data: one thread of 5000 calls over six 4 KiB chunks, cut
# 1712 bytes into the third chunk
"$BD/rel/rel_gen" cut "$T/g.trc" "$T/full.trc" 5000 4999 >/dev/null
head -c 14000 "$T/g.trc" > "$T/b.trc"
"$BD/ttdump" "$T/b.trc" > "$T/dump"
has '^  cut: *trace cut: the file ends at offset 14000, inside its data' "$T/dump"
for fmt in text json html; do
    rc=0
    "$BD/ttdiff" --format $fmt "$T/g.trc" "$T/b.trc" > "$T/d.$fmt" 2>&1 || rc=$?
    want_rc $rc 0 "ttdiff --format $fmt on a truncated run" "$T/d.$fmt"
    has 'trace cut: the file ends at offset 14000' "$T/d.$fmt"
done
hasnt 'first divergence' "$T/d.text"
has "no divergence in 1 thread pair before the bad run's trace was cut" "$T/d.text"
grep -q '"diverged": *false' "$T/d.json" || { cat "$T/d.json"; fail "json: diverged"; }
# either order: the good run cut
rc=0; "$BD/ttdiff" "$T/b.trc" "$T/g.trc" > "$T/d2" 2>&1 || rc=$?
want_rc $rc 0 "ttdiff with the good run truncated" "$T/d2"
has "no divergence in 1 thread pair before the good run's trace was cut" "$T/d2"
# a real divergence before the cut (call 100 of 5000) is still found
"$BD/rel/rel_gen" cut "$T/g3.trc" "$T/b3full.trc" 5000 5000 100 >/dev/null
head -c 14000 "$T/b3full.trc" > "$T/b3.trc"
rc=0; "$BD/ttdiff" "$T/g3.trc" "$T/b3.trc" > "$T/d3" 2>&1 || rc=$?
want_rc $rc 1 "divergence before the cut" "$T/d3"
has 'first divergence: .*good event 201, bad event 201' "$T/d3"
has 'trace cut: the file ends at offset 14000' "$T/d3"
echo "ok: header cut refused (exit 2, one line), data cut named, the cut never a divergence"
