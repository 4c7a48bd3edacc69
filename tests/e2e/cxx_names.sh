#!/bin/sh
# cxx_names.sh - C++ names are demangled: ttdump's call tree, --function on
# demangled names, ttdiff's first divergence (text stack, JSON frames) of
# fixtures/progs/cxx_demo.cpp; --no-demangle shows the symbols as stored.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
B=$(cd "$B" && pwd)
T=$(mktemp -d "$B/cxx_e2e.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -q -e "$1" "$2" || { echo "--- $2:"; cat "$2"; fail "no '$1' in $2"; }; }
hasnt() { ! grep -q -e "$1" "$2" || { echo "--- $2:"; cat "$2"; fail "'$1' in $2"; }; }
[ -x "$B/fixtures/cxx_demo" ] || fail "fixtures not built (cxx_demo)"

TTCAP_OUT="$T/g.trc" "$B/fixtures/cxx_demo" 12,34 > /dev/null || fail "good run"
TTCAP_OUT="$T/b.trc" "$B/fixtures/cxx_demo" 12,x4 > /dev/null 2>&1 && fail "bad run exit 0"

"$B/ttdump" -n --color never "$T/b.trc" > "$T/dump"
has '> ns::Parser::parse(int)$' "$T/dump"
has '> ns::Parser::fail(char const\*)$' "$T/dump"
has '> int ns::twice<int>(int)$' "$T/dump"
has '> double ns::twice<double>(double)$' "$T/dump"
has '> ns::weigh(int)$' "$T/dump"
has '> ns::weigh(char const\*)$' "$T/dump"
has '> ns::Parser::Parser(char const\*)$' "$T/dump"
hasnt '_ZN' "$T/dump"
"$B/ttdump" -n --color never --function '^ns::Parser::' "$T/b.trc" > "$T/fdump"
has 'ns::Parser::digit(char)' "$T/fdump"
hasnt 'twice' "$T/fdump"
"$B/ttdump" -n --no-demangle --color never "$T/b.trc" > "$T/mdump"
has '> _ZN2ns6Parser5parseEi$' "$T/mdump"
hasnt 'ns::Parser' "$T/mdump"

set +e
"$B/ttdiff" --color never "$T/g.trc" "$T/b.trc" > "$T/diff"
rc=$?
set -e
[ "$rc" = 1 ] || { cat "$T/diff"; fail "ttdiff exit $rc, want 1"; }
has '^      ns::Parser::parse(int)  at .*cxx_demo.cpp:[0-9]' "$T/diff"
has '^  + .*ns::Parser::fail(char const\*)' "$T/diff"
hasnt '_ZN' "$T/diff"
set +e
"$B/ttdiff" --format json -o "$T/diff.json" "$T/g.trc" "$T/b.trc"
rc=$?
set -e
[ "$rc" = 1 ] || fail "ttdiff json exit $rc"
python3 - "$T/diff.json" <<'PY' || fail "JSON content"
import json, sys
d = json.load(open(sys.argv[1]))
fd = d["first_divergence"]
assert fd["stack"] == ["main", "ns::Parser::parse(int)"], fd["stack"]
assert fd["frames"][-1]["file"].endswith("cxx_demo.cpp"), fd["frames"]
PY
set +e
"$B/ttdiff" --no-demangle --color never "$T/g.trc" "$T/b.trc" > "$T/mdiff"
rc=$?
set -e
[ "$rc" = 1 ] || fail "ttdiff --no-demangle exit $rc"
has '^      _ZN2ns6Parser5parseEi  at ' "$T/mdiff"
hasnt 'ns::Parser' "$T/mdiff"
# the same program against itself: no divergence either way
"$B/ttdiff" "$T/g.trc" "$T/g.trc" > /dev/null || fail "self diff"

# code of the standard library: its frames folded in the text and HTML stacks (whole
# with --demangle=full), ranked after the program's own functions
TTCAP_OUT="$T/sg.trc" "$B/fixtures/cxx_set" 7 > /dev/null || fail "record cxx_set 7"
TTCAP_OUT="$T/sb.trc" "$B/fixtures/cxx_set" 3 > /dev/null || fail "record cxx_set 3"
set +e
"$B/ttdiff" --color never "$T/sg.trc" "$T/sb.trc" > "$T/set"
rc=$?
"$B/ttdiff" --color never --demangle=full "$T/sg.trc" "$T/sb.trc" > "$T/setfull"
set -e
[ "$rc" = 1 ] || { cat "$T/set"; fail "ttdiff cxx_set: exit $rc"; }
has '^      \.\.\. [0-9]* frames in system headers' "$T/set"
hasnt 'frames in system headers' "$T/setfull"
has 'std::set<Key, Cmp, std::allocator<Key> >::insert' "$T/setfull"
# the HTML report folds them too (a <details> the reader can open)
"$B/ttdiff" --format html "$T/sg.trc" "$T/sb.trc" > "$T/set.html" 2>/dev/null || true
has '<details><summary>[0-9]* frames in system headers</summary>' "$T/set.html"
"$B/ttdiff" --format html --demangle=full "$T/sg.trc" "$T/sb.trc" > "$T/setfull.html" 2>/dev/null || true
hasnt 'frames in system headers' "$T/setfull.html"
first=$(sed -n '/^suspects/{n;p;q}' "$T/set")
case $first in
*/usr/include/*) cat "$T/set"; fail "a system header's function is suspect #1" ;;
esac
echo ok
