#!/bin/sh
# ttdump on a trace recorded by libttcap from the sym_calls fixture: the
# program's own functions resolve to names through its module map, the
# recursion nests, the worker thread is named, messages and the scope show.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
B=$(cd "$B" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -q -e "$1" "$2" || { echo "--- $2:"; cat "$2"; fail "no '$1' in $2"; }; }

[ -x "$B/fixtures/sym_calls" ] || fail "$B/fixtures/sym_calls not built (make fixtures)"
TTCAP_OUT="$T/s.trc" "$B/fixtures/sym_calls" > "$T/stdout" || fail "fixture failed"
[ -s "$T/s.trc" ] || fail "no trace written"
"$B/ttdump" --lines "$T/s.trc" > "$T/out" 2> "$T/err" || { cat "$T/err"; fail "ttdump exit $?"; }
has '^  flags: *0x1 (closed)$' "$T/out"
has '^  exit: *status 0$' "$T/out"
has '/sym_calls$' "$T/out"
has '> main (.*sym_calls\.c:[0-9]*)$' "$T/out"
has '^ *+[0-9.]*us   > sym_fact (.*sym_calls\.c:[0-9]*)$' "$T/out"
has '^ *+[0-9.]*us     > sym_fact ' "$T/out"
has '^ *+[0-9.]*us   < sym_fact$' "$T/out"
has '> sym_leaf ' "$T/out"
has 'value: leaf_x = 0' "$T/out"
has '"sym-worker"' "$T/out"
has 'log: worker got 7' "$T/out"
has '> sym_scoped' "$T/out"
has 'mark: inside-scope' "$T/out"
# the merged stream names threads on each line
"$B/ttdump" --merged -n "$T/s.trc" > "$T/m" || fail "--merged"
has '\[1 sym-worker\] ' "$T/m"
echo ok
