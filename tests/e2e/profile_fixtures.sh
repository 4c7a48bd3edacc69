#!/bin/sh
# ttdump --profile on the prof_calls fixture (known call counts and sleeps):
# exact calls per function and per thread, 3 x 20 ms naps counted in total
# time but not in self time when between ttcap_pause/resume, recursion not
# counted twice; prof_unbalanced: never-returned frames with where and why.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
B=$(cd "$B" && pwd)
T=$(mktemp -d "$B/profile_e2e.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -q -e "$1" "$2" || { echo "--- $2:"; cat "$2"; fail "no '$1' in $2"; }; }
for p in prof_calls prof_unbalanced; do
    [ -x "$B/fixtures/$p" ] || fail "$B/fixtures/$p not built (make fixtures)"
done

TTCAP_OUT="$T/c.trc" "$B/fixtures/prof_calls" || fail "prof_calls failed"
"$B/ttdump" -n --profile "$T/c.trc" > "$T/p" || fail "ttdump --profile exit $?"
# field F (1 calls, 2 total, 3 self, 4 min, 5 avg, 6 max, 7 never) of a function, in us
col() { awk -v f="$1" -v c="$2" '$8 == f { print $c; exit }' "${3:-$T/p}"; }
want() { v=$(col "$1" "$2" "${4:-$T/p}"); [ "$v" = "$3" ] || { cat "${4:-$T/p}"; fail "$1 column $2: '$v', want $3"; }; }
# awk test on the value: e.g. range prof_nap 2 'v >= 60000'
range() {
    v=$(col "$1" "$2")
    awk -v v="$v" "BEGIN { exit !($3) }" || { cat "$T/p"; fail "$1 column $2 = $v: not $3"; }
}
want prof_leaf 1 1500
want prof_loop 1 2
want prof_nap 1 3
want prof_busy_nap 1 3
want prof_rnap 1 4
want main 1 1
want prof_worker 1 1
want main 7 0
has '^paused [0-9.]*us' "$T/p"
# 3 x 20 ms asleep: in total time (generous upper bound for a busy VM)
range prof_nap 2 'v >= 60000 && v < 2000000'
range prof_busy_nap 2 'v >= 60000 && v < 2000000'
range prof_nap 4 'v >= 20000'
# paused: not self time; unpaused: self time
range prof_nap 3 'v < 10000'
range prof_busy_nap 3 'v >= 60000'
# recursion 4 deep, 5 ms each: inclusive = the outermost call (= max), >= 20 ms
t=$(col prof_rnap 2); m=$(col prof_rnap 6)
[ "$t" = "$m" ] || fail "prof_rnap total $t != max $m (recursion counted twice?)"
range prof_rnap 2 'v >= 20000'
range prof_rnap 4 'v >= 5000'
# main contains everything
range main 2 "v >= $(col prof_nap 2) + $(col prof_busy_nap 2) + $(col prof_rnap 2)"

# per thread: the worker's 500 leaves apart from main's 1000
"$B/ttdump" -n --profile --per-thread --sort calls "$T/c.trc" > "$T/pt"
awk '/^thread 0 /{t=0} /^thread 1 /{t=1} $8=="prof_leaf"{print t, $1}' "$T/pt" > "$T/leaf"
has '^0 1000$' "$T/leaf"
has '^1 500$' "$T/leaf"
has 'sorted by calls' "$T/pt"
first=$(awk '/^thread 0 /{getline; getline; print $8; exit}' "$T/pt")
[ "$first" = prof_leaf ] || { cat "$T/pt"; fail "--sort calls: first row $first"; }
"$B/ttdump" -n --profile --function 'nap' "$T/c.trc" > "$T/pf"
grep -q ' prof_leaf$' "$T/pf" && fail "--function kept prof_leaf"
has ' prof_busy_nap$' "$T/pf"

# unbalanced: longjmp (unwound), pthread_exit (thread end), crash
TTCAP_OUT="$T/x.trc" "$B/fixtures/prof_unbalanced" crash > /dev/null 2>&1 && fail "no crash"
"$B/ttdump" -n --profile "$T/x.trc" > "$T/x" || fail "ttdump --profile (crash) exit $?"
want prof_deep1 1 2 "$T/x"
want prof_deep1 7 2 "$T/x"
want prof_deep2 7 2 "$T/x"
want prof_jumper 7 0 "$T/x"
want prof_fault 7 1 "$T/x"
want prof_quit 7 1 "$T/x"
want main 7 1 "$T/x"
has '^never returned:$' "$T/x"
has '^  prof_deep2: 2 of 2 calls; first in thread 0 .*(unwound), called from prof_deep1$' "$T/x"
# under ASan the sanitizer takes the SIGSEGV first: no CRASH event recorded
why=crash
"$B/ttdump" -s "$T/x.trc" | grep -q '^  crash: *SIGSEGV' || why="trace end"
has "^  prof_fault: 1 of 1 calls; .*($why), called from prof_crasher\$" "$T/x"
has '^  prof_quit: 1 of 1 calls; first in thread 1 "prof-quitter".*(thread end), called from prof_quitter$' "$T/x"
has ' 0 stray exits, 9 frames never returned$' "$T/x"

# bad usage
for args in "--profile --sort bogus" "--sort calls" "--per-thread" "--profile --chrome"; do
    if "$B/ttdump" $args "$T/c.trc" > /dev/null 2> "$T/err"; then fail "accepted: $args"; fi
    [ -s "$T/err" ] || fail "no message for: $args"
done
echo ok
