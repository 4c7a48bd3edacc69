#!/bin/sh
# ttdiff --profile: a run against itself (exit 0, zero deltas), a good and a
# crashing run of prof_unbalanced (exit 1, functions of the bad run only
# flagged, deltas bad - good), JSON parsed by python3, bad usage (exit 2);
# --thread (name, number), --function and --exclude on diff_threads.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
B=$(cd "$B" && pwd)
T=$(mktemp -d "$B/profdiff_e2e.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -q -e "$1" "$2" || { echo "--- $2:"; cat "$2"; fail "no '$1' in $2"; }; }
[ -x "$B/fixtures/prof_unbalanced" ] || fail "fixtures not built"

TTCAP_OUT="$T/g.trc" "$B/fixtures/prof_unbalanced" > /dev/null || fail "good run failed"
TTCAP_OUT="$T/b.trc" "$B/fixtures/prof_unbalanced" crash > /dev/null 2>&1 && fail "no crash"

"$B/ttdiff" --profile "$T/g.trc" "$T/g.trc" > "$T/same" || fail "self diff exit $?"
has '0 with other call counts' "$T/same"
grep -q 'only in' "$T/same" && fail "self diff flags a function"
awk 'NR > 5 && ($3 != "+0" || $6 != "+0.000") { bad = 1 } END { exit bad }' "$T/same" ||
    { cat "$T/same"; fail "self diff has nonzero deltas"; }

set +e
"$B/ttdiff" --profile --color never "$T/g.trc" "$T/b.trc" > "$T/d"
rc=$?
set -e
[ "$rc" = 1 ] || { cat "$T/d"; fail "good vs crash: exit $rc, want 1"; }
has ' +1 .* prof_crasher  \[only in bad\]$' "$T/d"
has ' +1 .* prof_fault  \[only in bad\]$' "$T/d"
has '^ *2 *2 *+0 .* prof_deep1$' "$T/d"
has '^good .*g.trc: [0-9]* events, 2 threads, ' "$T/d"

# one thread is "1 thread" (it said "1 threads")
TTCAP_OUT="$T/p1.trc" "$B/fixtures/ex_parser" "size=64" > /dev/null || fail "ex_parser run"
"$B/ttdiff" --profile "$T/p1.trc" "$T/p1.trc" > "$T/p1" || fail "ex_parser self diff"
has '^bad .*p1.trc: [0-9]* events, 1 thread, ' "$T/p1"

set +e
"$B/ttdiff" --profile --format json -o "$T/d.json" "$T/g.trc" "$T/b.trc"
rc=$?
set -e
[ "$rc" = 1 ] || fail "json: exit $rc"
python3 - "$T/d.json" <<'PY' || fail "JSON content"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "tt-profile-diff" and d["version"] == 1
f = {x["name"]: x for x in d["functions"]}
c = f["prof_crasher"]
assert c["only"] == "bad" and c["good"] is None and c["delta"]["calls"] == 1, c
assert c["percent"]["calls"] is None
j = f["prof_jumper"]
assert j["only"] == "both" and j["delta"]["calls"] == 0
assert j["delta"]["total_ns"] == j["bad"]["total_ns"] - j["good"]["total_ns"]
assert d["bad"]["never_returned"] > d["good"]["never_returned"]
# largest |total change| first
k = [abs(x["delta"]["total_ns"]) for x in d["functions"]]
assert k == sorted(k, reverse=True), k
PY
"$B/ttdiff" --profile --sort calls "$T/g.trc" "$T/b.trc" > "$T/dc" || true
has 'largest calls change first' "$T/dc"

# --thread, --function, --exclude: diff_threads' bad run retries an item
# in worker-2 only (one more compute(), a retry_item())
[ -x "$B/fixtures/diff_threads" ] || fail "fixtures not built (diff_threads)"
TTCAP_OUT="$T/tg.trc" "$B/fixtures/diff_threads" > /dev/null 2>&1 || fail "threads good run"
TTCAP_OUT="$T/tb.trc" "$B/fixtures/diff_threads" bad > /dev/null 2>&1 || fail "threads bad run"
pd() { # expected exit, output file, ttdiff options...
    want=$1 f=$2; shift 2
    set +e
    "$B/ttdiff" --profile --color never "$@" "$T/tg.trc" "$T/tb.trc" > "$f" 2>&1
    rc=$?
    set -e
    [ "$rc" = "$want" ] || { cat "$f"; fail "--profile $*: exit $rc, want $want"; }
}
pd 1 "$T/all"
has 'retry_item  \[only in bad\]$' "$T/all"
has ' +1 .* compute$' "$T/all"
pd 0 "$T/w1" --thread worker-1
grep -q 'retry_item' "$T/w1" && fail "--thread worker-1 shows worker-2's retry_item"
has '^good .*: .* 1 thread, ' "$T/w1"
has ' process_item$' "$T/w1"
grep -q ' main$' "$T/w1" && fail "--thread worker-1 shows main"
pd 1 "$T/w2" --thread 2
has 'retry_item  \[only in bad\]$' "$T/w2"
has '^ *6 *7 *+1 .* compute$' "$T/w2"
pd 1 "$T/fn" --function '^compute$'
has '^1 functions, 1 with other call counts' "$T/fn"
grep -q 'process_item\|retry_item' "$T/fn" && fail "--function keeps other functions"
pd 0 "$T/ex" --exclude 'retry|compute'
has ' process_item$' "$T/ex"
grep -q 'compute\|retry_item' "$T/ex" && fail "--exclude keeps compute"
pd 2 "$T/re" --function 'a('
has 'function' "$T/re"
pd 2 "$T/nt" --thread 'no-such-thread'
has 'ttdiff: .*--thread matches no thread' "$T/nt"

for args in "--profile --sort min" "--profile --format html"; do
    set +e
    "$B/ttdiff" $args "$T/g.trc" "$T/b.trc" > /dev/null 2> "$T/err"
    rc=$?
    set -e
    [ "$rc" = 2 ] && [ -s "$T/err" ] || fail "$args: exit $rc"
done
set +e
"$B/ttdiff" --profile "$T/g.trc" "$T/missing.trc" > /dev/null 2> "$T/err"
rc=$?
set -e
[ "$rc" = 2 ] || fail "missing file: exit $rc"
has 'missing.trc' "$T/err"
echo ok
