#!/bin/sh
# capture_dlopen_fork.sh - a dlopen'd plugin's module is recorded (load and
# unload) and its functions are named; fork gives the child its own trace
# naming the parent's; an exec'd image starts a new trace naming the old.
B=$(cd "${1:-build}" && pwd) || exit 1
CHK=$B/tests/capture_check
d=$(mktemp -d "$B/capture_e2e.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail=0
has() { grep -qx -- "$2" "$1" || { echo "FAIL: $1 lacks: $2"; fail=1; }; }
hasre() { grep -q -- "$2" "$1" || { echo "FAIL: $1 lacks /$2/"; fail=1; }; }

TTCAP_OUT=dl.trc "$B/fixtures/cap_dlopen" "$B/fixtures/cap_plugin.so" > /dev/null ||
    { echo "FAIL: dlopen run"; fail=1; }
"$CHK" dl.trc -e > dl.out || { echo "FAIL: check dl"; fail=1; }
hasre dl.out "^module base=0x[0-9a-f]* size=0x[0-9a-f]* buildid=20 unloaded=1 path=$B/fixtures/cap_plugin.so\$"
has dl.out "count thread=0 func=plugin_entry enter=1 exit=1"
has dl.out "count thread=0 func=plugin_inner enter=1 exit=1"
has dl.out "msg thread=0 plugin got 20"
ls dl.trc.* > /dev/null 2>&1 || { echo "FAIL: no trace of the child forked after dlclose"; fail=1; }
# (the names above are found only through the plugin's module record, so
# its entry address lies inside the recorded module)

# fork with %p: two files, the child names the parent
TTCAP_OUT=fk.%p.trc "$B/fixtures/cap_fork" 100 > fk.pid || { echo "FAIL: fork run"; fail=1; }
cpid=$(cat fk.pid)
ppath=$(ls fk.*.trc | grep -v "fk.$cpid.trc")
[ -f "fk.$cpid.trc" ] || { echo "FAIL: no child trace"; ls; fail=1; }
"$CHK" "$ppath" > parent.out || fail=1
"$CHK" "fk.$cpid.trc" -e > child.out || fail=1
has parent.out "count thread=0 func=in_parent enter=200 exit=200"
has parent.out "count thread=0 func=spawn enter=1 exit=1"
grep -q "func=in_child" parent.out && { echo "FAIL: child events in parent"; fail=1; }
has child.out "count thread=0 func=in_child enter=100 exit=100"
grep -q "func=in_parent" child.out && { echo "FAIL: parent events in child"; fail=1; }
hasre child.out "^process pid=$cpid ppid=[0-9]* argc=2 exe=.*cap_fork parent=$d/$ppath exited=1 status=0"
hasre parent.out "^process pid=[0-9]* .* parent= exited=1 status=0"
# 200 calls + THREAD_START + MODULE_LOADs + END; depth starts at 2 (main, spawn)
has child.out "walk thread=0 events=$((202 + $(grep -c '^module ' child.out))) open=0 maxdepth=1 nesting_errors=0 rc=0"
hasre child.out "^ev 0 thread_start depth=2 "
# fixed name: the child appends .<pid>
TTCAP_OUT=fixed.trc "$B/fixtures/cap_fork" 10 > fx.pid || fail=1
[ -f fixed.trc ] && [ -f "fixed.trc.$(cat fx.pid)" ] || { echo "FAIL: fixed-name fork"; ls; fail=1; }

# exec: same pid, so the new image numbers its file (.1) and names the old
mkdir ex && cd ex || exit 1
TTCAP_OUT=e.%p.trc "$B/fixtures/cap_exec" 10 || { echo "FAIL: exec run"; fail=1; }
first=$(ls e.*.trc | head -1)
[ -f "$first.1" ] || { echo "FAIL: no trace after exec"; ls; fail=1; }
"$CHK" "$first" > ../e1.out || fail=1
"$CHK" "$first.1" > ../e2.out || fail=1
cd ..
has e1.out "count thread=0 func=before_exec enter=10 exit=10"
has e1.out "count thread=0 func=main enter=1 exit=0"
has e2.out "count thread=0 func=after_exec enter=10 exit=10"
hasre e2.out "^process pid=.* argc=3 exe=.*cap_exec parent=$d/ex/$first exited=1 status=0"
exit $fail
