#!/bin/sh
# capture_siglog.sh - a signal handler's TT_LOG interrupting main's TT_LOG
# (cap_siglog): main's messages all there, nothing torn, and every handler
# run either recorded or counted lost - never written over by main's record.
# A race check: a failure here may show only on some runs.
B=$(cd "${1:-build}" && pwd) || exit 1
CHK=$B/tests/capture_check
d=$(mktemp -d "$B/capture_e2e.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail=0
n=1000000
TTCAP_OUT=s.trc TTCAP_CHUNK_KB=16 "$B/fixtures/cap_siglog" $n > s.stdout ||
    { echo "FAIL: cap_siglog run"; fail=1; }
"$CHK" s.trc > s.out || { echo "FAIL: check cap_siglog"; fail=1; }
grep -q "^summary closed=1 crashed=0 .* damaged=0 " s.out ||
    { echo "FAIL: summary"; grep -E '^(summary|notice)' s.out; fail=1; }
fired=$(sed -n 's/^fired //p' s.stdout)
main=$(grep -c '^msg thread=0 main ' s.out)
sig=$(grep -c '^msg thread=0 sig ' s.out)
other=$(grep '^msg' s.out | grep -vc '^msg thread=0 \(main\|sig\) ')
lost=$(sed -n 's/^thread idx=0 .* lost=\([0-9]*\) .*/\1/p' s.out)
echo "siglog: fired=$fired recorded=$sig lost=$lost"
[ "$main" = $n ] || { echo "FAIL: $main of $n main messages"; fail=1; }
[ "$other" = 0 ] || { echo "FAIL: $other other messages"; fail=1; }
[ $((sig + ${lost:-0})) = "${fired:-x}" ] ||
    { echo "FAIL: $fired handler runs, $sig recorded, $lost lost"; fail=1; }
exit $fail
