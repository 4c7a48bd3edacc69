#!/bin/sh
# values_cancel.sh - values mode and pthread_cancel through traced frames:
# deferred cancellation at pthread_testcancel three traced frames deep and
# in nanosleep, asynchronous cancellation in a loop of traced calls. glibc
# unwinds with its own handle on libgcc_s (past libttcap's _Unwind_*
# interposers); the trampoline's personality routine puts the real return
# addresses back, so every cleanup handler runs: the setjmp-style ones of
# plain C and, in the -fexceptions build, the unwinder-run ones (as C++
# destructors), which stopped at the first traced frame before. The
# cancelled frames get no EXIT, every other call returns with its value,
# and the trace reads without damage.
. "$(dirname "$0")/values_lib.inc"
if ldd "$F/val_cancel" | grep -q libasan; then
    # gcc 12's ASan runtime fails this program on its own, without
    # libttcap: "CHECK failed: asan_thread.cpp:371" when a cancelled
    # thread reaches a pthread_cleanup_push buffer
    echo "SKIP: ASan does not survive pthread_cancel here (not libttcap's doing)"
    exit 77
fi

for p in val_cancel val_cancel_eh; do
    "$F/$p" > $p.plain 2>&1 || fail "$p untraced"
    has '^cancelled=3 cleaned=1110 after=27006$' $p.plain
    rec $p.trc "$F/$p"
    has '^cancelled=3 cleaned=1110 after=27006$' $p.trc.out
    "$BD/tests/capture_check" "$T/$p.trc" > $p.chk || fail "capture_check $p"
    c=$p.chk
    has '^summary closed=1 crashed=0 events=[0-9]* lost=0 damaged=0 ' $c
    count '^walk thread=[0-3] events=[0-9]* open=[0-9]* maxdepth=[0-9]* nesting_errors=0 rc=0$' $c 4
    has '^count thread=0 func=cancel_one enter=3 exit=3$' $c
    for f in body1 c1 c2 c3; do has "^count thread=1 func=$f enter=1 exit=0\$" $c; done
    has '^count thread=1 func=cleanup enter=2 exit=2$' $c
    has '^count thread=2 func=napper enter=1 exit=0$' $c
    has '^count thread=2 func=cleanup enter=1 exit=1$' $c
    has '^count thread=3 func=spin enter=1 exit=0$' $c
    count '^thread idx=[12] .* ended=1 ' $c 2
    ev $p.trc
    e=$p.trc.ev
    count '^  < cancel_one = 1$' $e 3
    has '^  < work = 9001$' $e
    has '^  < work = 9003$' $e
    has '^< main = 0$' $e
    has '^        > cleanup(0xa)$' $e
    has '^        > cleanup(0x64)$' $e
    has '^    > cleanup(0x3e8)$' $e
done
echo "ok: pthread_cancel (deferred, in a sleep, asynchronous) through traced frames"
