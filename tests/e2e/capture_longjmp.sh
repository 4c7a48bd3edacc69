#!/bin/sh
# capture_longjmp.sh - longjmp and siglongjmp out of deep recursion from a
# loop in main, 110 times (issue #37.2), plain -finstrument-functions and
# values mode: each jump is an UNWIND record closing the 51 frames it left,
# so every after() is a child of main (not 51 levels deeper per round), the
# reader ends with nothing open, ttdump shows the jumps, and ttdiff's call
# stack at a divergence after the loop is main alone (not 5610 dead
# frames). And in values mode, a C++ exception caught and rethrown (100
# rounds of vd_rethrow): UNWIND records for the frames it leaves, every
# after() a child of main.
B=$(cd "${1:-build}" && pwd) || exit 1
CHK=$B/tests/capture_check
d=$(mktemp -d "$B/capture_longjmp.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail=0
has() { grep -q -- "$2" "$1" || { echo "FAIL: $1 lacks /$2/"; fail=1; }; }
count() {
    n=$(grep -c -- "$2" "$1")
    [ "$n" = "$3" ] || { echo "FAIL: $1: /$2/ $n times, want $3"; fail=1; }
}
for mode in plain values; do
    F=$B/fixtures
    [ $mode = values ] && F=$B/fixtures/pg
    [ -x "$F/cap_longjmp" ] || { echo "SKIP part: $mode mode (not built here)"; continue; }
    m=$mode
    TTCAP_OUT=$m.g.trc "$F/cap_longjmp" > $m.out || { echo "FAIL: $m run"; fail=1; }
    TTCAP_OUT=$m.b.trc "$F/cap_longjmp" bad > /dev/null || { echo "FAIL: $m bad run"; fail=1; }
    has $m.out '^rounds=110 '
    "$CHK" $m.g.trc > $m.chk 2>&1 || fail=1
    has $m.chk '^unwind thread=0 records=110 frames=5610$'
    has $m.chk '^walk thread=0 events=[0-9]* open=0 maxdepth=52 nesting_errors=0 rc=0$'
    has $m.chk '^summary closed=1 crashed=0 .* damaged=0 '
    "$B/ttdump" $m.g.trc > $m.dump 2>&1 || fail=1
    count $m.dump '^ *+[0-9.]*us   > after' 111
    count $m.dump '^ *+[0-9.]*us   -- unwind by longjmp: 51 frames left without return$' 110
    count $m.dump '^ *+[0-9.]*us < main' 1
    rc=0
    "$B/ttdiff" $m.g.trc $m.b.trc > $m.diff 2>&1 || rc=$?
    [ $rc = 1 ] || { echo "FAIL: $m ttdiff exit $rc"; fail=1; }
    sed -n '/^call stack/,/^suspects/p' $m.diff > $m.stack
    count $m.stack '^    ' 1
    has $m.stack '^    main[ (]'
    [ "$(wc -c < $m.diff)" -lt 20000 ] || { echo "FAIL: $m: report of $(wc -c < $m.diff) bytes"; fail=1; }
done
if [ -x "$B/fixtures/vd_rethrow" ]; then
    TTCAP_OUT=rt.trc "$B/fixtures/vd_rethrow" > rt.out || { echo "FAIL: vd_rethrow"; fail=1; }
    has rt.out '^s=-100$'
    "$CHK" rt.trc > rt.chk 2>&1 || fail=1
    has rt.chk '^unwind thread=0 records=200 frames=300$'
    has rt.chk '^walk thread=0 events=[0-9]* open=0 maxdepth=5 nesting_errors=0 rc=0$'
    "$B/ttdump" rt.trc > rt.dump 2>&1 || fail=1
    count rt.dump '^ *+[0-9.]*us   > after(int)' 100
    count rt.dump '^ *+[0-9.]*us       -- unwind by exception: 2 frames left without return$' 100
    count rt.dump '^ *+[0-9.]*us     -- unwind by exception: 1 frame left without return$' 100
else
    echo "SKIP part: C++ exceptions in values mode (vd_rethrow not built: x86-64, g++)"
fi
[ $fail = 0 ] && echo "ok: longjmp and exceptions close the frames they leave"
exit $fail
