#!/bin/sh
# ttdump's call tree after a longjmp: prof_unbalanced jumps out of
# prof_deep2 through prof_deep1 back into prof_jumper (twice). The exit of
# prof_jumper must line up with its enter, the second call must start at
# the same level and main must close at level 0, not two levels deeper
# per jump (the reader's depth counts the skipped frames as still open).
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
B=$(cd "$B" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
count() { grep -c -e "$1" "$T/out" || true; }

[ -x "$B/fixtures/prof_unbalanced" ] || fail "fixtures not built"
TTCAP_OUT="$T/u.trc" "$B/fixtures/prof_unbalanced" > /dev/null || fail "fixture failed"
"$B/ttdump" -n -t 0 "$T/u.trc" > "$T/out" 2> "$T/err" || { cat "$T/err"; fail "ttdump exit"; }
chk() {
    n=$(count "$1")
    [ "$n" = "$2" ] || { cat "$T/out"; fail "'$1' matched $n lines, want $2"; }
}
chk '^ *+[0-9.]*us   > prof_jumper$' 2
chk '^ *+[0-9.]*us   < prof_jumper$' 2
chk '^ *+[0-9.]*us       > prof_deep2$' 2
chk '^ *+[0-9.]*us < main$' 1
chk 'depth' 0
# --function keeps its indent on the same stack of open frames
"$B/ttdump" -n -t 0 -f '^prof_' "$T/u.trc" > "$T/out" 2> "$T/err" ||
    { cat "$T/err"; fail "ttdump --function exit"; }
chk '^ *+[0-9.]*us > prof_jumper$' 2
chk '^ *+[0-9.]*us < prof_jumper$' 2
chk '^ *+[0-9.]*us     > prof_deep2$' 2
chk '^ *+[0-9.]*us       log: jumping with' 2
chk '^ *+[0-9.]*us -- end' 1
chk '[<>] main$' 0
echo "ok: ttdump indents correctly after longjmp"
