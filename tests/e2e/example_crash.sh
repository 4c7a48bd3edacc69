#!/bin/sh
# example_crash.sh - the SIGSEGV scenario, with h6's fixture diff_crash.c
# (lookup() returns NULL for an unknown key, use_record() dereferences it):
# the bad run dies, its trace still names the crash, and ttdiff puts the
# first divergence inside use_record(), where the bad run stopped. In a
# sanitizer build (make asan) UBSan/ASan end the run before the SIGSEGV:
# no CRASH event then, the rest is checked the same.
B=${1:-build}
. "$(dirname "$0")/example_lib.inc"
san=0
case "${SAN:-}" in *sanitize*) san=1 ;; esac

rec good.trc "$F/diff_crash" ok
[ "$rc" = 0 ] || fail "good run exit $rc"
rec bad.trc "$F/diff_crash" missing
if [ $san = 0 ]; then
    [ "$rc" -gt 128 ] || fail "bad run did not die of a signal (exit $rc)"
else
    [ "$rc" != 0 ] || fail "bad run exit 0"
fi

# the crashed trace is complete up to the crash
"$TTDUMP" "$T/bad.trc" > "$T/dump" || fail "ttdump on the crashed trace"
has '^ *+[0-9.]*us *> use_record$' "$T/dump"
[ $san = 1 ] || has '^  crash: .*SIGSEGV' "$T/dump"

diffrun 1 "$T/good.trc" "$T/bad.trc"
has '^first divergence: thread diff_crash (good #0, bad #0)' "$T/out"
has '^    main  at .*diff_crash.c:[0-9]' "$T/out"
has '^      process  at ' "$T/out"
has '^        use_record  at .*diff_crash.c:[0-9]' "$T/out"
[ $san = 1 ] ||
    has '^the bad run died here: crash SIGSEGV (signal 11) at 0x[0-9a-f]* in use_record' "$T/out"

diffrun 1 --format json "$T/good.trc" "$T/bad.trc"
json "$T/out" '
san = '$san'
assert f["thread"] == {"name": "diff_crash", "good": 0, "bad": 0}, f["thread"]
assert f["stack"] == ["main", "process", "use_record"], f["stack"]
assert d["runs"]["good"]["crash"] is None and d["runs"]["good"]["exit_status"] == 0
assert d["runs"]["bad"]["closed"] is False
# the good run goes on to leave use_record; the bad run does not
assert (f["good"][0]["kind"], f["good"][0]["function"]) == ("exit", "use_record"), f["good"]
if not san:
    assert f["crash"]["kind"] == "crash" and f["crash"]["signal"] == 11
    assert f["crash"]["function"] == "use_record"
    assert any(e["kind"] == "crash" for e in f["bad"]), f["bad"]
    assert d["runs"]["bad"]["crash"]["signal"] == 11
'
echo ok
