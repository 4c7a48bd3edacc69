#!/bin/sh
# cli_filters.sh - the filter options mean the same in ttdump and ttdiff
# (report/cmd/cli.c, ttd_thread_match): --thread N is thread index N only (on a
# trace with more than 10 threads, so "1" must not select 10 or 11), any
# other --thread is a regex on the name or first name; ttdump --exclude
# drops the matching functions in the event tree, --profile and --chrome.
set -eu
B=$(cd "${1:-build}" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
P=$B/fixtures/cap_threads
[ -x "$P" ] || fail "$P not built (make fixtures)"
TTCAP_OUT="$T/g.trc" "$P" 12 20 > /dev/null || fail "cap_threads good run"
TTCAP_OUT="$T/b.trc" "$P" 12 20 > /dev/null || fail "cap_threads bad run"
D=$B/ttdump

# ttdump --thread: a number is one index, other text a regex on names
"$D" -n --thread 1 "$T/g.trc" > "$T/out"
[ "$(grep -c '^thread ' "$T/out")" = 1 ] || fail "ttdump --thread 1: not one thread"
grep -q '^thread 1 "worker-0"' "$T/out" || fail "ttdump --thread 1: not thread 1"
"$D" -n --thread 'worker-1' "$T/g.trc" > "$T/out"
[ "$(grep '^thread ' "$T/out" | cut -d' ' -f3 | tr '\n' ' ')" = '"worker-1" "worker-10" "worker-11" ' ] \
    || fail "ttdump --thread worker-1: regex on names"
"$D" -n --thread '^cap_' "$T/g.trc" > "$T/out"   # the workers' first name
[ "$(grep -c '^thread ' "$T/out")" = 13 ] || fail "ttdump --thread on first names"

# ttdiff --thread: the same rule
"$B/ttdiff" --format json --thread 1 "$T/g.trc" "$T/b.trc" > "$T/d.json" || true
python3 - "$T/d.json" <<'PY' || fail "ttdiff --thread 1"
import json, sys
d = json.load(open(sys.argv[1]))
got = [(p["good"]["index"], p["good"]["name"]) for p in d["threads"]]
assert got == [(1, "worker-0")], got
PY
"$B/ttdiff" --format json --thread 'worker-1' "$T/g.trc" "$T/b.trc" > "$T/d.json" || true
python3 - "$T/d.json" <<'PY' || fail "ttdiff --thread worker-1"
import json, sys
d = json.load(open(sys.argv[1]))
got = sorted(p["good"]["name"] for p in d["threads"])
assert got == ["worker-1", "worker-10", "worker-11"], got
PY

# ttdump --exclude, each mode
"$D" -n "$T/g.trc" | grep -q '> t_leaf' || fail "tree: no t_leaf to drop"
"$D" -n --exclude t_leaf "$T/g.trc" > "$T/out"
! grep -q 't_leaf' "$T/out" || fail "tree --exclude t_leaf: t_leaf left"
grep -q '> t_a' "$T/out" || fail "tree --exclude t_leaf: t_a dropped too"
"$D" -n --function '^t_' --exclude leaf "$T/g.trc" > "$T/out"
! grep -q 't_leaf\|> worker' "$T/out" || fail "tree --function with --exclude"
[ "$("$D" --profile "$T/g.trc" | grep -c ' t_leaf$\| t_a$')" = 2 ] || fail "--profile: no t_a/t_leaf rows"
"$D" --profile --exclude 't_leaf|t_a' "$T/g.trc" > "$T/out"
! grep -q ' t_leaf$\| t_a$' "$T/out" || fail "--profile --exclude"
grep -q ' worker$' "$T/out" || fail "--profile --exclude: worker dropped"
"$D" --chrome --exclude t_leaf "$T/g.trc" > "$T/out"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$T/out" || fail "--chrome --exclude: bad JSON"
! grep -q '"t_leaf"' "$T/out" || fail "--chrome --exclude: t_leaf left"
grep -q '"t_a"' "$T/out" || fail "--chrome --exclude: t_a dropped"
echo ok
