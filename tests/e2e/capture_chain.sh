#!/bin/sh
# capture_chain.sh - the chain clock (libttcap's default, format 1.9: an
# ENTER right after an untimed ENTER goes untimed too) end to end, on
# cap_calls (a leaf and a chain of nested calls in a loop; recursion):
# the default's traces say 1.9 and lazy-chain; the reader's times never
# go back nor past their bounds; ttdump's profile has the calls of a
# TTCAP_CLOCK=every run of the same program; ttdiff finds two default runs
# the same, and a default run against a lazy (1.7) or every-event one of
# the same program too; a run one loop longer diverges where it should,
# with its time in the report.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"
P=$BD/fixtures/cap_calls
CHK=$BD/tests/capture_check

rec c1.trc "$P" calls 20000
rec c2.trc "$P" calls 20000
rec c3.trc "$P" calls 20001
TTCAP_CLOCK=lazy rec l1.trc "$P" calls 20000
TTCAP_CLOCK=every rec e1.trc "$P" calls 20000
"$BD/ttdump" "$T/c1.trc" > "$T/c1.dump" || fail "ttdump c1.trc"
has '^  version: *1\.9$' "$T/c1.dump"
has '^  required features: 0xad (events-v1, sites, sparse, lazy, lazy-chain)$' "$T/c1.dump"
"$BD/ttdump" "$T/l1.trc" > "$T/l1.dump" || fail "ttdump l1.trc"
has '^  version: *1\.7$' "$T/l1.dump"
for f in c1 l1 e1; do
    "$CHK" "$T/$f.trc" > "$T/$f.chk" || fail "capture_check $f.trc"
    has '^clock thread=0 hot=200002 untimed=[0-9]* backwards=0 past_bound=0$' "$T/$f.chk"
    has '^count thread=0 func=chain_c enter=20000 exit=20000$' "$T/$f.chk"
done
# recursion: fib(18), 2*fib(19)-1 = 8361 calls, nested 18 deep
TTCAP_OUT="$T/fib.trc" "$P" fib 18 > /dev/null || fail "fib run"
"$CHK" "$T/fib.trc" > "$T/fib.chk" || fail "capture_check fib.trc"
has '^count thread=0 func=fib enter=8361 exit=8361$' "$T/fib.chk"
has '^clock thread=0 hot=16724 untimed=[0-9]* backwards=0 past_bound=0$' "$T/fib.chk"

# the profile: every function and its calls as in the every-event run
for f in c1 e1; do
    "$BD/ttdump" -n --profile --sort self "$T/$f.trc" > "$T/$f.prof" || fail "ttdump --profile $f.trc"
    awk '/^ *calls +total/ { on = 1; next } on && NF >= 8 { print $1, $8 }' "$T/$f.prof" |
        sort > "$T/$f.calls"
done
[ "$(wc -l < "$T/c1.calls")" -ge 5 ] || fail "profile of c1.trc has $(wc -l < "$T/c1.calls") functions"
cmp -s "$T/c1.calls" "$T/e1.calls" || { diff "$T/c1.calls" "$T/e1.calls"; fail "profiles' calls differ"; }

# ttdiff: two default runs, and a default run against a lazy and an
# every-event run of the same calls: the same
run 0 --color never "$T/c1.trc" "$T/c2.trc"
has '^verdict: same' "$T/out"
run 0 --color never "$T/l1.trc" "$T/c1.trc"
run 0 --color never "$T/c1.trc" "$T/e1.trc"
# one loop more: the bad run calls leaf again in main, at a time in ms
run 1 --color never "$T/c1.trc" "$T/c3.trc"
has '^first divergence: thread cap_calls .*, at [0-9.]* ms in the bad run$' "$T/out"
has '^  1\. main  at fixtures/progs/cap_calls.c' "$T/out"
run 1 --format json "$T/c1.trc" "$T/c3.trc"
json "$T/out" '
fd = d["first_divergence"]
assert fd is not None, d.keys()'
echo "capture_chain: ok"
