#!/bin/sh
# capture_threads.sh - 64 threads recorded at once: every thread's exact call
# counts, clean nesting, start/end/name records, no event lost or torn.
B=$(cd "${1:-build}" && pwd) || exit 1
P=$B/fixtures/cap_threads
CHK=$B/tests/capture_check
d=$(mktemp -d "$B/capture_e2e.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail=0
N=64 IT=20000
TTCAP_OUT=thr.trc "$P" $N $IT || { echo "FAIL: run"; fail=1; }
"$CHK" thr.trc > thr.out || { echo "FAIL: check"; fail=1; }
per=$(((1 + IT * 5) * 2 + 4))   # enter+exit of worker and loop, START NAME MESSAGE END
c() { grep -c -- "$1" thr.out; }
[ "$(c '^thread idx=')" = $((N + 1)) ] || { echo "FAIL: thread count"; fail=1; }
[ "$(c "^count thread=[0-9]* func=t_leaf enter=$((IT * 2)) exit=$((IT * 2))\$")" = $N ] ||
    { echo "FAIL: t_leaf counts"; grep t_leaf thr.out | sort | uniq -c | head; fail=1; }
[ "$(c "^count thread=[0-9]* func=t_a enter=$IT exit=$IT\$")" = $N ] || { echo "FAIL: t_a"; fail=1; }
[ "$(c "^count thread=[0-9]* func=worker enter=1 exit=1\$")" = $N ] || { echo "FAIL: worker"; fail=1; }
[ "$(c "^walk thread=[0-9]* events=$per open=0 maxdepth=5 nesting_errors=0 rc=0\$")" = $N ] ||
    { echo "FAIL: worker events"; grep '^walk' thr.out | head; fail=1; }
[ "$(c "^walk thread=[0-9]* events=[0-9]* open=0 maxdepth=[0-9]* nesting_errors=0 rc=0\$")" = $((N + 1)) ] ||
    { echo "FAIL: nesting"; grep '^walk' thr.out | head; fail=1; }
[ "$(c "^thread idx=.* name=worker-[0-9]* first=.* ended=1 .* lost=0 chunks=[0-9]* gaps=0\$")" = $N ] ||
    { echo "FAIL: thread records"; grep '^thread' thr.out | head -3; fail=1; }
[ "$(c "^msg thread=[0-9]* worker [0-9]* starts $IT iterations\$")" = $N ] ||
    { echo "FAIL: messages"; grep '^msg' thr.out | head -3; fail=1; }
grep -q "^summary closed=1 crashed=0 events=[0-9]* lost=0 damaged=0 .* notices=0\$" thr.out ||
    { echo "FAIL: summary"; grep -E '^(summary|notice)' thr.out | head; fail=1; }
# creation order: worker i (created i-th by main) is thread index i + 1
for i in $(seq 0 $((N - 1))); do
    grep -q "^thread idx=$((i + 1)) .* name=worker-$i first" thr.out ||
        { echo "FAIL: worker-$i is not thread $((i + 1))"; fail=1; break; }
done
exit $fail
