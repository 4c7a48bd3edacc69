#!/bin/sh
# capture_sighandler.sh - the program installs its own SIGSEGV handler
# after libttcap started (sigaction, signal, a strict-POSIX signal that is
# __sysv_signal, SA_RESETHAND, save and restore): the CRASH event and every
# event before it are still recorded, the program's handler still runs, and
# sigaction() shows the program what it installed, never our handler.
B=$(cd "${1:-build}" && pwd) || exit 1
P=$B/fixtures/cap_sighandler
CHK=$B/tests/capture_check
d=$(mktemp -d "$B/capture_e2e.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail=0
has() { grep -qx -- "$2" "$1" || { echo "FAIL: $1 lacks: $2"; fail=1; }; }
hasre() { grep -q -- "$2" "$1" || { echo "FAIL: $1 lacks /$2/"; fail=1; }; }
status() { [ "$2" = "$3" ] || { echo "FAIL: $1 exited $2, not $3"; fail=1; }; }

# the program's handler prints and calls _exit(3)
for how in sigaction signal; do
    TTCAP_OUT=$how.trc "$P" $how 500 > $how.stdout 2>/dev/null
    status $how $? 3
    has $how.stdout "$how: old default"
    "$CHK" $how.trc > $how.out || { echo "FAIL: check $how"; fail=1; }
    has $how.out "crash thread=0 signo=11 code=1 addr=0x10"
    has $how.out "count thread=0 func=leaf enter=500 exit=500"
    has $how.out "count thread=0 func=last_words enter=1 exit=0"
    hasre $how.out "^summary .* lost=0 damaged=0 "
    # the handler's _exit(3) closes the trace after the CRASH event
    has $how.out "end thread=0 status=3"
    hasre $how.out "^header closed=1 exit=3 "
done
has sigaction.stdout "installed: on_segv_info siginfo"
has sigaction.stdout "handler: signal 11 addr 0x10"
has sigaction.out "count thread=0 func=on_segv_info enter=1 exit=0"
has signal.stdout "installed: on_segv_plain"
has signal.stdout "handler: signal 11"
has signal.out "count thread=0 func=on_segv_plain enter=1 exit=0"

# strict POSIX build: signal() is __sysv_signal
TTCAP_OUT=sysv.trc "$B/fixtures/cap_sigsysv" 50 > sysv.stdout 2>/dev/null
status sysv $? 3
has sysv.stdout "handler"
"$CHK" sysv.trc > sysv.out || { echo "FAIL: check sysv"; fail=1; }
has sysv.out "crash thread=0 signo=11 code=1 addr=0x10"
has sysv.out "count thread=0 func=leaf enter=50 exit=50"
has sysv.out "count thread=0 func=on_segv enter=1 exit=0"
has sysv.out "end thread=0 status=3"

# save and restore: the saved action is the default, so the fault kills
TTCAP_OUT=restore.trc "$P" restore 10 > restore.stdout 2>/dev/null
status restore $? 139
has restore.stdout "installed: on_segv_info siginfo"
has restore.stdout "installed: default"
grep -q '^handler' restore.stdout && { echo "FAIL: restored handler ran"; fail=1; }
"$CHK" restore.trc > restore.out || { echo "FAIL: check restore"; fail=1; }
has restore.out "crash thread=0 signo=11 code=1 addr=0x10"
has restore.out "count thread=0 func=leaf enter=10 exit=10"

# SA_RESETHAND handler that returns: runs once, the re-fault kills
TTCAP_OUT=reset.trc "$P" resethand 10 > reset.stdout 2>/dev/null
status resethand $? 139
has reset.stdout "installed: on_segv_once resethand"
[ "$(grep -c '^handler: returning' reset.stdout)" = 1 ] ||
    { echo "FAIL: one-shot handler ran $(grep -c '^handler' reset.stdout) times"; fail=1; }
"$CHK" reset.trc > reset.out || { echo "FAIL: check resethand"; fail=1; }
has reset.out "count thread=0 func=on_segv_once enter=1 exit=1"
[ "$(grep -c '^crash thread=0 signo=11 ' reset.out)" = 2 ] ||
    { echo "FAIL: resethand: not two CRASH events (fault, re-fault)"; fail=1; }

# untraced: everything passes straight through to libc
"$P" sigaction 10 > plain.stdout 2>/dev/null
status untraced $? 3
has plain.stdout "sigaction: old default"
has plain.stdout "installed: on_segv_info siginfo"
has plain.stdout "handler: signal 11 addr 0x10"
exit $fail
