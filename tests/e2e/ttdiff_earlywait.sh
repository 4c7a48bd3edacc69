#!/bin/sh
# ttdiff_earlywait.sh - issue 33: a wait that returned before the work it
# waits for was done (diff/earlywait.c). fixtures/progs/early_join.c: a
# pool whose pool_join waits until the queue is empty, not until the
# workers are idle; with JOIN_EARLY=1 main joins at once, pool_join
# returns while the workers are inside sum_job, and collect misses the
# jobs (exit 1). Plain and values builds: the verdict names `pool_join`
# (kind "order", thread app, "possible"), with the worker still inside
# `sum_job` and the good run's jobs done before pool_join began, in text
# (first 10 lines), HTML (first screen) and JSON; the same with WRAP=1 (the
# waits and signals through the program's own one-call wrappers, named by
# their callers). Must not: two good runs
# (no divergence, no cause); the pick's guards (a later wait, the good
# run's last operations elsewhere, no party) are tests/unit/test_earlywait.c's.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

command -v gcc > /dev/null || { echo "SKIP: no gcc"; exit 77; }
SAN=""   # a sanitizer build's libttcap needs the program built likewise
ldd "$BD/libttcap.so" 2>/dev/null | grep -q libasan && SAN="-fsanitize=address,undefined"
cp fixtures/progs/early_join.c "$T/prog.c"
for m in plain values; do
    flag=""; [ "$m" = values ] && flag=--values
    (cd "$T" && "$BD/ttcc" $flag gcc $SAN -O2 -pthread -o "prog-$m" prog.c) || fail "build $m"
    rec "g-$m.trc" "$T/prog-$m"
    JOIN_EARLY=1 rec "b-$m.trc" "$T/prog-$m"
    run 1 --color never "$T/g-$m.trc" "$T/b-$m.trc"
    head -10 "$T/out" > "$T/head10"
    has '^verdict: diverged: possible cause: the threads'"'"' order at `pool_join` (thread app)' "$T/head10"
    has '^  cause: `pool_join` (thread app) returned from its wait on cond#[0-9]* at [0-9.]* ms in the bad run while thread #[0-9]* worker was still inside `sum_job`; in the good run every `sum_job` had returned before `pool_join` began' "$T/head10"
    has '^  evidence: in the bad run thread #[0-9]* worker entered `sum_job` at [0-9.]* ms and was still inside it where the calls part' "$T/head10"
    has '^  evidence: thread #[0-9]* worker signalled cond#[0-9]* from `worker` at [0-9.]* ms, outside `sum_job`' "$T/head10"
    has '^  symptom: the calls part in `collect' "$T/head10"
    run 1 --format html "$T/g-$m.trc" "$T/b-$m.trc"
    sed -n '1,/<main>/p' "$T/out" > "$T/screen1"
    has 'the threads.* order at `pool_join`' "$T/screen1"
    has 'still inside `sum_job`' "$T/screen1"
    run 1 --format json "$T/g-$m.trc" "$T/b-$m.trc"
    json "$T/out" '
v = d["verdict"]
assert v["cause"]["kind"] == "order" and v["cause"]["function"] == "pool_join", v["cause"]
assert v["cause"]["thread"] == "app" and "sum_job" in v["cause"]["text"], v["cause"]
assert v["confidence"] == "possible", v
assert any("sum_job" in e for e in v["evidence"]), v
'
done
# the waits and signals through the program's own wrappers (WRAP=1 in both
# runs: cv_wait around pthread_cond_wait, cv_signal around
# pthread_cond_signal): the wait is still pool_join's and the signal the
# worker's, not the wrappers'
WRAP=1 rec gw.trc "$T/prog-plain"
WRAP=1 JOIN_EARLY=1 rec bw.trc "$T/prog-plain"
run 1 --color never "$T/gw.trc" "$T/bw.trc"
head -10 "$T/out" > "$T/head10"
has '^verdict: diverged: possible cause: the threads'"'"' order at `pool_join` (thread app)' "$T/head10"
has '^  cause: `pool_join` (thread app) returned from its wait on cond#[0-9]* at [0-9.]* ms in the bad run while thread #[0-9]* worker was still inside `sum_job`' "$T/head10"
has '^  evidence: thread #[0-9]* worker signalled cond#[0-9]* from `worker` at [0-9.]* ms, outside `sum_job`' "$T/head10"
# the good runs alike: no divergence, no cause
rec g2.trc "$T/prog-plain"
run 0 --format json "$T/g-plain.trc" "$T/g2.trc"
json "$T/out" 'assert d["verdict"]["cause"] is None, d["verdict"]'
echo ok
