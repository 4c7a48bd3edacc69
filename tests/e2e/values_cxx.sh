#!/bin/sh
# values_cxx.sh - values mode with C++ exceptions thrown through three
# traced frames and caught (100 times), a destructor making traced calls
# while the exception passes, and a rethrow caught further out: the
# program runs right and the catching functions return with their values.
. "$(dirname "$0")/values_lib.inc"

rec x.trc "$F/val_cxx"
has '^caught=-100 rethrown=-2 plain=42$' x.trc.out
"$BD/tests/capture_check" "$T/x.trc" > chk || fail "capture_check"
has '^count thread=0 func=catcher(int) enter=100 exit=100$' chk
has '^count thread=0 func=t3(int) enter=101 exit=0$' chk
has '^count thread=0 func=noted(int) enter=102 exit=102$' chk
has '^count thread=0 func=outer(int) enter=1 exit=1$' chk
has '^summary closed=1 crashed=0 events=[0-9]* lost=0 damaged=0' chk
ev x.trc
e=x.trc.ev
count '^  < catcher(int) = -1$' $e 100
count '< noted(int) = 1002$' $e 101
has '^  < outer(int) = -2$' $e
has '^  > plain(int)(21)$' $e
has '^  < plain(int) = 42$' $e
echo "ok: C++ exceptions through traced frames"
