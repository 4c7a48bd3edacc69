#!/bin/sh
# values_jump.sh - values mode across longjmp (1000 jumps out of three
# traced frames), siglongjmp out of a signal handler that made traced
# calls, and a handler on an alternate signal stack: the program computes
# right, the jumped-over frames get no EXIT, every other call returns with
# its value, and the call tree does not drift deeper.
. "$(dirname "$0")/values_lib.inc"

rec j.trc "$F/val_jump"
has '^jumps=3000 sj=-5 alt=15 after=9$' j.trc.out
"$BD/tests/capture_check" "$T/j.trc" > chk || fail "capture_check"
has '^count thread=0 func=jumper enter=1000 exit=1000$' chk
has '^count thread=0 func=jmp3 enter=1000 exit=0$' chk
has '^count thread=0 func=in_handler enter=2 exit=2$' chk
has '^count thread=0 func=sjumper enter=1 exit=1$' chk
has '^summary closed=1 crashed=0 events=[0-9]* lost=0 damaged=0' chk
ev j.trc
e=j.trc.ev
count '^  < jumper = 3$' $e 1000
has '^  < sjumper = -5$' $e
has '^  > alt(5)$' $e
has '^    > on_usr2(12)$' $e
has '^      > in_handler(2)$' $e
has '^      < in_handler = 102$' $e
has '^  < alt = 15$' $e
has '^  < after = 9$' $e
has '^< main = 0$' $e
echo "ok: longjmp, siglongjmp from a handler, handler on a signal stack"
