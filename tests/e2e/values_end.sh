#!/bin/sh
# values_end.sh - values mode when traced frames never return: exit() and
# abort() four frames deep (clean END / CRASH record), and SIGKILL there:
# every ENTER written before the kill is in the file with its arguments.
. "$(dirname "$0")/values_lib.inc"

for how in exit abort kill; do
    rec $how.trc "$F/val_calls" $how
    ev $how.trc
    e=$how.trc.ev
    has '^  > down(3, [0-2])$' $e
    has '^        > down(0, [0-2])$' $e
    has '^          > end_here([0-2])$' $e
    count '^ *< ' $e 0
    "$BD/tests/capture_check" "$T/$how.trc" > $how.chk || fail "capture_check $how"
    has '^walk thread=0 events=[0-9]* open=6 maxdepth=6 nesting_errors=0 rc=0$' $how.chk
done
has '^end thread=0 status=3$' exit.chk
has '^summary closed=1 crashed=0 ' exit.chk
has '^summary closed=0 crashed=1 ' abort.chk
has '^summary closed=0 crashed=0 events=[0-9]* lost=0 damaged=0' kill.chk
echo "ok: exit, abort and SIGKILL inside traced frames"
