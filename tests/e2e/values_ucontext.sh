#!/bin/sh
# values_ucontext.sh - values mode and makecontext/swapcontext (stack
# switching, which returns matched by stack address cannot follow): the
# program computes right and exits 0 instead of being aborted, stderr
# says so once, the frames hooked before return with their values, and
# the calls not recorded after it are counted as lost (2 events each).
. "$(dirname "$0")/values_lib.inc"

msg='^ttcap: values mode: makecontext switches stacks, which values mode cannot follow; calls of -pg code are not recorded from here on (counted as lost)$'
# (ASan's runtime adds a warning of its own about makecontext: not ours)
asan_warn="^==[0-9]*==WARNING: ASan doesn't fully support makecontext"
TTCAP_OUT="$T/u.trc" "$F/val_ucontext" > u.out 2> u.all; rc=$?
grep -v -e "$asan_warn" u.all > u.err
[ "$rc" = 0 ] || { cat u.out u.err; fail "exit status $rc"; }
has '^sum=66 after=71$' u.out
count "$msg" u.err 1
count '.' u.err 1
"$BD/tests/capture_check" "$T/u.trc" > chk || fail "capture_check"
# 12 calls after makecontext: consume, coro, 3 yield, 7 work
has '^summary closed=1 crashed=0 events=[0-9]* lost=24 damaged=0 ' chk
has '^walk thread=0 events=[0-9]* open=0 maxdepth=2 nesting_errors=0 rc=0$' chk
ev u.trc
has '^  < run = 66$' u.trc.ev
has '^< main = 0$' u.trc.ev
has '!! lost 24 events' u.trc.ev

# untraced: no word from libttcap
"$F/val_ucontext" > n.out 2> n.all || fail "untraced exit status"
grep -v -e "$asan_warn" n.all > n.err
has '^sum=66 after=71$' n.out
[ ! -s n.err ] || { cat n.err; fail "stderr when not tracing"; }
echo "ok: makecontext/swapcontext: refused with one line, the program runs on"
