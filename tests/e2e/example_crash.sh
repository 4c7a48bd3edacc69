#!/bin/sh
# example_crash.sh - the SIGSEGV scenario, with h6's fixture diff_crash.c
# (lookup() returns NULL for an unknown key, use_record() dereferences it):
# the bad run dies, its trace still names the crash, and ttdiff puts the
# first divergence inside process() with the crash at use_record().
B=${1:-build}
. "$(dirname "$0")/example_lib.inc"

rec good.trc "$F/diff_crash" ok
[ "$rc" = 0 ] || fail "good run exit $rc"
rec bad.trc "$F/diff_crash" missing
[ "$rc" -gt 128 ] || fail "bad run did not die of a signal (exit $rc)"

# the crashed trace is complete up to the crash
"$TTDUMP" "$T/bad.trc" > "$T/dump" || fail "ttdump on the crashed trace"
has '^  crash: .*SIGSEGV' "$T/dump"
has '> use_record' "$T/dump"

diffrun 1 "$T/good.trc" "$T/bad.trc"
has '^first divergence: thread diff_crash (good #0, bad #0)' "$T/out"
has '^    main  at .*diff_crash.c:[0-9]' "$T/out"
has '^      process  at ' "$T/out"
has '^        use_record  at .*diff_crash.c:[0-9]' "$T/out"
has '^the bad run died here: crash SIGSEGV (signal 11) at 0x[0-9a-f]* in use_record' "$T/out"

diffrun 1 --format json "$T/good.trc" "$T/bad.trc"
json "$T/out" '
assert f["thread"] == {"name": "diff_crash", "good": 0, "bad": 0}, f["thread"]
assert f["stack"] == ["main", "process", "use_record"], f["stack"]
assert f["crash"]["kind"] == "crash" and f["crash"]["signal"] == 11
assert f["crash"]["function"] == "use_record"
assert any(e["kind"] == "crash" for e in f["bad"]), f["bad"]
assert d["runs"]["bad"]["crash"]["signal"] == 11
assert d["runs"]["good"]["crash"] is None and d["runs"]["good"]["exit_status"] == 0
'
echo ok
