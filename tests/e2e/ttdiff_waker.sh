#!/bin/sh
# ttdiff_waker.sh - issue 33: a wait that never ended and the thread it
# waited for, after the split in time (diff/waker.c).
# fixtures/progs/free_wait.c, plain and values builds (ttcc --values):
# main frees a pool of two workers GAP ms after queueing their 100 ms
# tasks; good `500` (the tasks are done: no wait), bad `0` (main waits;
# the workers finish later and leave without the signal, a wrong test in
# `worker_leave`; killed by `timeout`). The calls part in main's
# `pool_free`; the verdict names `worker_leave` (kind order, possible) in
# text (first 10 lines), HTML (first screen) and JSON. Must not: the
# program built with the test right (-DFREE_WAIT_FIXED), its own good and
# bad runs: the bad run waits too, at the same split, but its wait ends
# (the run ends): no thread is named as the one it waited for (the calls
# may part in `worker_leave` there: its test asks); two good runs: no
# cause.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

command -v gcc > /dev/null || { echo "SKIP: no gcc"; exit 77; }
command -v timeout > /dev/null || { echo "SKIP: no timeout"; exit 77; }
cp fixtures/progs/free_wait.c "$T/free_wait.c"
for m in plain values; do
    flag=""; [ "$m" = values ] && flag=--values
    (cd "$T" && "$BD/ttcc" $flag gcc ${SAN:-} -O2 -pthread -o "fw-$m" free_wait.c) \
        || fail "build $m"
    (cd "$T" && "$BD/ttcc" $flag gcc ${SAN:-} -O2 -pthread -DFREE_WAIT_FIXED -o "fix-$m" \
        free_wait.c) || fail "build fixed $m"
    rec "g-$m.trc" timeout 10 "$T/fw-$m" 500
    rec "b-$m.trc" timeout 1 "$T/fw-$m" 0
    rec "fg-$m.trc" timeout 10 "$T/fix-$m" 500
    rec "f-$m.trc" timeout 5 "$T/fix-$m" 0
    run 1 --color never "$T/g-$m.trc" "$T/b-$m.trc"
    head -10 "$T/out" > "$T/head10"
    has '^verdict: diverged: possible cause: the threads.* order at `worker_leave` (thread #[12] worker)' "$T/head10"
    has '^  cause: thread fw-'"$m"' stopped in `pool_free` at the split and never went on; thread #[12] worker parted from its good run only after that (at [0-9.]* ms), then made its last calls in `worker_leave`' "$T/head10"
    has '^  evidence: in the good run thread #[12] worker parted at [0-9.]* ms, before the calls part at [0-9.]* ms' "$T/head10"
    has '^  evidence: the bad run never ended (killed: no clean end); thread fw-'"$m"' made no call after' "$T/head10"
    run 1 --format html "$T/g-$m.trc" "$T/b-$m.trc"
    sed -n '1,/<main>/p' "$T/out" > "$T/screen1"
    has 'then made its last calls in <code>worker_leave</code>\|then made its last calls in `worker_leave`' "$T/screen1"
    run 1 --format json "$T/g-$m.trc" "$T/b-$m.trc"
    json "$T/out" "
v = d['verdict']
c = v['cause']
assert c['kind'] == 'order' and c['function'] == 'worker_leave', c
assert c['thread'] == 'worker' and c['file'].endswith('free_wait.c') and c['line'] > 0, c
assert v['confidence'] == 'possible', v
assert 'the wake-up it waited for was not sent' in c['text'], c
assert v['symptom']['function'] == 'pool_free', v['symptom']
"
    # must not: the fixed build's runs (one build): the bad run's wait ends
    rc=0; "$TTDIFF" --format json "$T/fg-$m.trc" "$T/f-$m.trc" > "$T/out" 2> "$T/err" || rc=$?
    [ "$rc" -le 1 ] || { cat "$T/err"; fail "ttdiff fixed $m: exit $rc"; }
    json "$T/out" "
c = d['verdict']['cause']
assert c is None or 'the wake-up it waited for was not sent' not in c['text'], c
"
done
# the good runs alike: no divergence, no cause
rec g2.trc timeout 10 "$T/fw-plain" 500
run 0 --format json "$T/g-plain.trc" "$T/g2.trc"
json "$T/out" 'assert d["verdict"]["cause"] is None, d["verdict"]'
echo ok
