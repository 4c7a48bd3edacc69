#!/bin/sh
# capture_faults.sh - libttcap under trouble: signal handlers running
# instrumented code mid-write (nothing torn, main's events all there), and
# chunk claims failing after N (TTCAP_TEST_FAIL_AFTER, looped over N): the
# program runs on, every trace opens cleanly and says where it was cut.
B=$(cd "${1:-build}" && pwd) || exit 1
CHK=$B/tests/capture_check
d=$(mktemp -d "$B/capture_e2e.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail=0
has() { grep -qx -- "$2" "$1" || { echo "FAIL: $1 lacks: $2"; fail=1; }; }
hasre() { grep -q -- "$2" "$1" || { echo "FAIL: $1 lacks /$2/"; fail=1; }; }

TTCAP_OUT=sig.trc TTCAP_CHUNK_KB=16 "$B/fixtures/cap_signal" 2000000 > sig.stdout ||
    { echo "FAIL: signal run"; fail=1; }
"$CHK" sig.trc > sig.out || { echo "FAIL: check signal"; fail=1; }
has sig.out "count thread=0 func=s_leaf enter=2000000 exit=2000000"
hasre sig.out "^walk thread=0 .* open=0 maxdepth=[0-9]* nesting_errors=0 rc=0"
hasre sig.out "^summary closed=1 crashed=0 .* damaged=0 "
fired=$(sed -n 's/^fired //p' sig.stdout)
# each handler run is 4 events (on_prof, in_handler: enter + exit), all
# recorded or all dropped (LOST) when it interrupted a write
h=$(sed -n 's/^count thread=0 func=in_handler enter=\([0-9]*\) exit=\1$/\1/p' sig.out)
lost=$(sed -n 's/^thread idx=0 .* lost=\([0-9]*\) .*/\1/p' sig.out)
echo "signal: fired=$fired recorded=${h:-0} lost=$lost"
[ $(( ${h:-0} + lost / 4 )) = "$fired" ] && [ $((lost % 4)) = 0 ] ||
    { echo "FAIL: handler runs: $fired fired, ${h:-0} recorded, $lost events lost"; fail=1; }

# chunk claims fail after N: 4 threads x 20000 iterations, 16 KiB chunks
for n in 1 2 3 5 8 13; do
    rm -f f.trc
    TTCAP_OUT=f.trc TTCAP_CHUNK_KB=16 TTCAP_TEST_FAIL_AFTER=$n \
        "$B/fixtures/cap_threads" 4 20000 || { echo "FAIL: run n=$n"; fail=1; }
    "$CHK" f.trc > f.out || { echo "FAIL: check n=$n"; fail=1; }
    # a thread whose first chunk failed is known only by its index
    grep -q "^summary closed=1 crashed=0 .* damaged=0 " f.out &&
        ! grep '^notice' f.out | grep -qv 'has no chunks' ||
        { echo "FAIL: n=$n summary"; grep -E '^(summary|notice)' f.out; fail=1; }
    grep -q "nesting_errors=[1-9]" f.out && { echo "FAIL: n=$n nesting"; fail=1; }
    # n=1: only main got a chunk; the workers could write nothing at all
    [ $n = 1 ] || grep -q '^cut thread=' f.out || { echo "FAIL: n=$n no cut"; fail=1; }
    used=$(sed -n 's/^summary .* chunks=\([0-9]*\) .*/\1/p' f.out)
    [ "$used" -le "$n" ] || { echo "FAIL: n=$n used $used chunks"; fail=1; }
done
exit $fail
