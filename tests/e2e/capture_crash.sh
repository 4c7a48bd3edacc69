#!/bin/sh
# capture_crash.sh - death at a known point: SIGSEGV, abort() and SIGKILL.
# Every event before it must be in the trace; SEGV and abort add a CRASH
# event with the signal; nothing is marked closed.
B=$(cd "${1:-build}" && pwd) || exit 1
P=$B/fixtures/cap_calls
CHK=$B/tests/capture_check
d=$(mktemp -d "$B/capture_e2e.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail=0
asan=0                          # ASan's own SEGV handler exits with 1
ldd "$P" | grep -q libasan && asan=1
has() { grep -qx -- "$2" "$1" || { echo "FAIL: $1 lacks: $2"; fail=1; }; }
hasre() { grep -q -- "$2" "$1" || { echo "FAIL: $1 lacks /$2/"; fail=1; }; }
for how in segv abort kill; do
    TTCAP_OUT=$how.trc "$P" $how 5000 2>/dev/null
    rc=$?
    [ $rc -ge 128 ] || [ $asan = 1 -a $rc != 0 ] || { echo "FAIL: $how exited $rc"; fail=1; }
    "$CHK" $how.trc > $how.out || { echo "FAIL: check $how"; fail=1; }
    has $how.out "count thread=0 func=leaf enter=5000 exit=5000"
    has $how.out "count thread=0 func=die enter=1 exit=0"
    has $how.out "count thread=0 func=last_words enter=1 exit=0"
    hasre $how.out "^header closed=0 "
    hasre $how.out "^summary closed=0 .* lost=0 damaged=0 "
done
has segv.out "crash thread=0 signo=11 code=1 addr=0x10"
hasre abort.out "^crash thread=0 signo=6 "
grep -q '^crash' kill.out && { echo "FAIL: crash event for SIGKILL"; fail=1; }
# the default action still runs after ours: killed by SIGSEGV (139)
TTCAP_OUT=s2.trc "$P" segv 1 2>/dev/null
rc=$?
[ $rc = 139 ] || [ $asan = 1 ] || { echo "FAIL: default action not kept ($rc)"; fail=1; }
exit $fail
