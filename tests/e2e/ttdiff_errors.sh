#!/bin/sh
# ttdiff on bad input: missing, truncated, garbage and empty traces, a bad
# regex, an unknown option, a missing argument: exit 2 and exactly one
# "ttdiff: ..." line on stderr, never a crash. --help and --version exit 0.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
BD=$(cd "$B" && pwd)
TTDIFF=$BD/ttdiff
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
bad() {
    want=$1; shift; rc=0
    "$TTDIFF" "$@" > "$T/out" 2> "$T/err" || rc=$?
    [ "$rc" = 2 ] || { cat "$T/err"; fail "ttdiff $*: exit $rc, want 2"; }
    [ "$(wc -l < "$T/err")" = 1 ] || { cat "$T/err"; fail "ttdiff $*: want one stderr line"; }
    grep -q "^ttdiff: .*$want" "$T/err" || { cat "$T/err"; fail "ttdiff $*: no '$want'"; }
}

TTCAP_OUT="$T/g.trc" "$BD/fixtures/diff_parse" abcd > /dev/null
[ -s "$T/g.trc" ] || fail "no trace recorded"
head -c 40 "$T/g.trc" > "$T/short.trc"
head -c 3000 "$T/g.trc" > "$T/nochunks.trc"
head -c 5000 "$T/g.trc" > "$T/cut.trc"
printf 'this is not a trace at all, just some text\n' > "$T/text.trc"
: > "$T/empty.trc"
dd if=/dev/urandom of="$T/noise.trc" bs=1024 count=64 2>/dev/null

bad 'nothere.trc' "$T/g.trc" "$T/nothere.trc"
bad 'short.trc' "$T/g.trc" "$T/short.trc"
bad 'text.trc' "$T/text.trc" "$T/g.trc"
bad 'empty.trc' "$T/g.trc" "$T/empty.trc"
bad 'noise.trc' "$T/g.trc" "$T/noise.trc"
bad "--function: bad regex '(': missing closing parenthesis at offset 1" --function '(' "$T/g.trc" "$T/g.trc"
bad "--exclude: bad regex" --exclude '[a-' "$T/g.trc" "$T/g.trc"
bad "--thread: bad regex" --thread '*x' "$T/g.trc" "$T/g.trc"
bad "unknown option '--frobnicate'" --frobnicate "$T/g.trc" "$T/g.trc"
bad "need two traces" "$T/g.trc"
bad "too many files" "$T/g.trc" "$T/g.trc" "$T/g.trc"
bad "--context" --context x "$T/g.trc" "$T/g.trc"
bad "--messages" --messages loud "$T/g.trc" "$T/g.trc"
bad "--format" --format xml "$T/g.trc" "$T/g.trc"
bad "--color" --color sometimes "$T/g.trc" "$T/g.trc"
bad "needs a value" "$T/g.trc" "$T/g.trc" --context
bad "nodir" -o "$T/nodir/out.txt" "$T/g.trc" "$T/g.trc"

# a trace with its header but no chunks has no threads: they are unpaired
rc=0; "$TTDIFF" "$T/g.trc" "$T/nochunks.trc" > "$T/out" 2> "$T/err" || rc=$?
[ "$rc" = 1 ] || [ "$rc" = 2 ] || { cat "$T/out" "$T/err"; fail "no chunks: exit $rc"; }
[ "$rc" = 2 ] || grep -q 'unpaired: good #0' "$T/out" || fail "no chunks: thread not listed"
# a trace cut at a chunk boundary is readable: not an error
rc=0; "$TTDIFF" "$T/g.trc" "$T/cut.trc" > "$T/out" 2> "$T/err" || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || [ "$rc" = 2 ] || fail "cut trace: exit $rc"
"$TTDIFF" --help | grep -q '^usage: ttdiff' || fail "--help"
"$TTDIFF" --version | grep -q '^ttdiff [0-9]' || fail "--version"
"$TTDIFF" "$T/g.trc" "$T/g.trc" > /dev/null || fail "same trace twice: want exit 0"
echo "ok"
