#!/bin/sh
# capture_ends.sh - how a traced process ends when it does not exit through
# libc's exit or _exit (issue #37.4, #37.5), in plain and values mode:
# * vfork: the child's work() calls must not land in the parent's trace;
#   the parent's shows its own calls and a vfork line (child _exit and
#   child exec);
# * exec: the trace is closed (header flags closed, exec), ttdump says
#   "exit: exec PATH"; an exec that fails is recorded and the trace goes on
#   to its own END;
# * daemon(): the parent, which ends in glibc's internal _exit, has a
#   closed trace with END status 0; the daemon writes its own.
B=$(cd "${1:-build}" && pwd) || exit 1
CHK=$B/tests/capture_check
d=$(mktemp -d "$B/capture_ends.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail=0
has() { grep -q -- "$2" "$1" || { echo "FAIL: $1 lacks /$2/"; fail=1; }; }
hasnt() { ! grep -q -- "$2" "$1" || { echo "FAIL: $1 has /$2/"; grep -- "$2" "$1" | head -3; fail=1; }; }

for mode in plain values; do
    F=$B/fixtures
    [ $mode = values ] && F=$B/fixtures/pg
    [ -x "$F/cap_vfork" ] || { echo "SKIP part: $mode mode (not built here)"; continue; }
    m=$mode
    # vfork, child _exit and child exec
    for how in exit exec; do
        arg=; [ $how = exec ] && arg=exec
        TTCAP_OUT=$m.vf$how.trc "$F/cap_vfork" $arg > /dev/null || { echo "FAIL: $m cap_vfork $arg"; fail=1; }
        "$CHK" $m.vf$how.trc > $m.vf$how.chk 2>&1 || fail=1
        "$B/ttdump" $m.vf$how.trc > $m.vf$how.dump 2>&1 || fail=1
        hasnt $m.vf$how.chk 'func=work '
        has $m.vf$how.chk '^count thread=0 func=mine enter=10 exit=10$'
        has $m.vf$how.chk '^summary closed=1 crashed=0 .* notices=0$'
        has $m.vf$how.chk 'open=0 maxdepth=2 nesting_errors=0 rc=0$'
        has $m.vf$how.dump '^ *+[0-9.]*us     -- vfork: child [0-9]* ran here'
        hasnt $m.vf$how.dump '> work'
    done
    # exec: closed by exec
    mkdir $m.ex && (cd $m.ex && TTCAP_OUT=e.%p.trc "$F/cap_exec" 3) || { echo "FAIL: $m cap_exec"; fail=1; }
    first=$(ls $m.ex/e.*.trc | head -1)
    "$B/ttdump" "$first" > $m.ex.dump 2>&1 || fail=1
    "$CHK" "$first" > $m.ex.chk 2>&1 || fail=1
    has $m.ex.dump '^  flags: *0x3 (closed, exec)$'
    has $m.ex.dump '^  exit: *exec "/proc/self/exe"$'
    has $m.ex.dump '^ *+[0-9.]*us   -- exec "/proc/self/exe"$'
    has $m.ex.chk '^summary closed=1 crashed=0 '
    # exec that fails: recorded, the trace goes on
    TTCAP_OUT=$m.xf.trc "$F/cap_daemon" "$d/$m.pid" fail; rc=$?
    [ $rc = 3 ] || { echo "FAIL: $m cap_daemon fail: status $rc"; fail=1; }
    "$B/ttdump" $m.xf.trc > $m.xf.dump 2>&1 || fail=1
    has $m.xf.dump '^  flags: *0x1 (closed)$'
    has $m.xf.dump '^  exit: *status 3$'
    has $m.xf.dump '-- exec "/nonexistent/program"$'
    has $m.xf.dump '-- exec "/nonexistent/program" failed: No such file or directory$'
    has $m.xf.dump '> after'
    # daemon: the parent's trace closed with END 0, the daemon's its own
    mkdir $m.dm && (cd $m.dm && TTCAP_OUT=d.%p.trc "$F/cap_daemon" "$d/$m.dm.pid") ||
        { echo "FAIL: $m cap_daemon"; fail=1; }
    i=0
    while [ ! -s $m.dm.pid ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
    kid=$(cat $m.dm.pid 2>/dev/null)
    while [ -n "$kid" ] && kill -0 "$kid" 2>/dev/null && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
    for f in $m.dm/d.*.trc; do
        "$CHK" "$f" > $m.dm.chk 2>&1 || fail=1
        has $m.dm.chk '^summary closed=1 crashed=0 '
        has $m.dm.chk '^end thread=0 status=0$'
        if grep -q "^process pid=$kid " $m.dm.chk; then
            has $m.dm.chk '^count thread=0 func=after enter=5 exit=5$'
        else
            has $m.dm.chk '^count thread=0 func=before enter=5 exit=5$'
            hasnt $m.dm.chk 'func=after '
        fi
    done
    [ "$(ls $m.dm/d.*.trc | wc -l)" = 2 ] || { echo "FAIL: $m daemon: $(ls $m.dm)"; fail=1; }
done
[ $fail = 0 ] && echo "ok: vfork, exec and daemon() end their traces"
exit $fail
