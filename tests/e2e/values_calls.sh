#!/bin/sh
# values_calls.sh - values mode on plain calls, built with gcc and clang:
# v1.1 header, arguments and return values (ints, negative, NULL and
# non-NULL pointers), a tail call (both functions exit with the one value),
# floating point, long double, rdx and varargs results intact through the
# hooks, clean nesting, no gmon.out; recursion 100000 deep; calls on a
# misaligned stack.
. "$(dirname "$0")/values_lib.inc"

for prog in val_calls val_calls_clang; do
    [ -x "$F/$prog" ] || [ $prog = val_calls ] || { echo "note: no $prog (sanitizer build)"; continue; }
    rec $prog.trc "$F/$prog"
    has 'add=5 neg=-7 lookup=null,set pair=40,41 fmix=4.75 ldmul=7.5 vsum=7 tail=10' $prog.trc.out
    "$BD/ttdump" "$T/$prog.trc" > hdr 2>&1 || fail "ttdump header"
    # the chain clock is the default (1.9: the file may have chain chunks);
    # values chunks are lazy ones (1.8's rule)
    has 'version: *1\.9' hdr
    has 'required features: 0xff (events-v1, values, sites, sparse, xmm, lazy, lazy-values, lazy-chain)' hdr
    # the registers as recorded (a 16-byte struct result is rax)
    "$BD/ttdump" -n --raw-values --color never "$T/$prog.trc" |
        sed -E 's/^ *~?\+[0-9.]+[a-z]+ //' > raw || fail "ttdump --raw-values"
    has '^  > add \[rdi=2 rsi=3 ' raw
    # an EXIT shows xmm0 after rax (format 1.5's SSE registers)
    has '^  < add = 5 xmm0=0x[0-9a-f]*$' raw
    has '^  < neg = -7 xmm0=' raw
    has '^  > mkpair \[rdi=40 rsi=' raw
    has '^  < mkpair = 40 xmm0=' raw
    count '^  < lookup = 0 xmm0=' raw 1
    count '^  < lookup = 0x[0-9a-f]* xmm0=' raw 1
    has '^  > tail_a \[rdi=4 ' raw
    has '^    > tail_b \[rdi=5 ' raw
    has '^    < tail_b = 10 xmm0=' raw
    has '^  < tail_a = 10 xmm0=' raw
    before '> tail_a' '> tail_b' raw
    before '< tail_b' '< tail_a' raw
    "$BD/tests/capture_check" "$T/$prog.trc" > chk || fail "capture_check $prog"
    has '^walk thread=0 events=[0-9]* open=0 maxdepth=3 nesting_errors=0 rc=0$' chk
    has '^summary closed=1 crashed=0 events=[0-9]* lost=0 damaged=0' chk
done
# and as read with the debug info (gcc's DWARF)
ev val_calls.trc
e=val_calls.trc.ev
has '^  > add(2, 3)$' $e
has '^  < lookup = NULL$' $e
has '^  > tail_a(4)$' $e
has '^    > tail_b(5)$' $e
# doubles from the SSE registers (format 1.5); a long double is x87: passed
# in memory and returned in st0, not recorded
has '^  > fmix(1.5, 3, 0.25)$' $e
has '^  < fmix = 4.75$' $e
has '^  > ldmul((in memory))$' $e
has '^  < ldmul = ?$' $e
[ -e gmon.out ] && fail "gmon.out written (linked with -pg?)"

# 100000 deep: the shadow stack grows in the slow path
ulimit -s unlimited 2>/dev/null || ulimit -s 1048576 2>/dev/null || true
rec deep.trc "$F/val_calls" deep 100000
has '^deep=100000$' deep.trc.out
"$BD/tests/capture_check" "$T/deep.trc" > chk || fail "capture_check deep"
has '^count thread=0 func=deep enter=100001 exit=100001$' chk
has '^walk thread=0 events=[0-9]* open=0 maxdepth=100002 nesting_errors=0 rc=0$' chk
ev deep.trc
has '< deep = \(100000\|0x186a0\)$' deep.trc.ev
has '< deep = \(50000\|0xc350\)$' deep.trc.ev
# calls on a misaligned stack, through many chunk switches (slow path)
rec chain.trc "$F/val_calls" chain 300000
has '^chain=1050000$' chain.trc.out
"$BD/tests/capture_check" "$T/chain.trc" > chk || fail "capture_check chain"
has '^count thread=0 func=chain_c enter=300000 exit=300000$' chk
has '^walk thread=0 events=[0-9]* open=0 maxdepth=4 nesting_errors=0 rc=0$' chk
echo "ok: values of calls, tail calls and 100000-deep recursion"
