#!/bin/sh
# ttdiff_lostwakeup.sh - issue 33 item 4: a condition's signal order as
# the cause (a lost wake-up). fixtures/progs/cond_lost.c: a poster thread
# signals a condition; main waits on it with a timeout, testing no state
# first. With COND_LOST=race the signal comes before main waits, main's
# wait ends by its timeout and main fails. Plain and values builds: the
# verdict names the order (kind "order") at the waiter, wait_job in
# thread app, with post_job's signal before the wait in the sentence ("a
# lost wake-up") and, as evidence, that nothing signalled during the wait
# (values: wait_job's answer, 110, ETIMEDOUT), in text (first 10 lines),
# HTML (first screen) and JSON. Two good runs: no cause.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

command -v gcc > /dev/null || { echo "SKIP: no gcc"; exit 77; }
cp fixtures/progs/cond_lost.c "$T/prog.c"
for m in plain values; do
    flag=""; [ "$m" = values ] && flag=--values
    (cd "$T" && "$BD/ttcc" $flag gcc ${SAN:-} -O2 -pthread -o "prog-$m" prog.c) || fail "build $m"
    rec "g-$m.trc" "$T/prog-$m"
    COND_LOST=race rec "b-$m.trc" "$T/prog-$m"
    run 1 --color never "$T/g-$m.trc" "$T/b-$m.trc"
    head -10 "$T/out" > "$T/head10"
    has '^verdict: diverged: possible cause: the threads'"'"' order at `wait_job` (thread app)' "$T/head10"
    has '^  cause: `post_job` (thread poster) signalled cond#1 before `wait_job` (thread app) waited on it in the bad run, after it in the good run: the signal woke nobody (a lost wake-up)' "$T/head10"
    has '^  evidence: nothing signalled cond#1 while thread app waited in the bad run' "$T/head10"
    if [ "$m" = values ]; then
        has 'its wait ended without a wake-up (`wait_job` returned 110 in the bad run, 0 in the good run)' "$T/head10"
    fi
    run 1 --format html "$T/g-$m.trc" "$T/b-$m.trc"
    sed -n '1,/<main>/p' "$T/out" > "$T/screen1"
    has 'the threads.* order at `wait_job`' "$T/screen1"
    has 'the signal woke nobody (a lost wake-up)' "$T/screen1"
    run 1 --format json "$T/g-$m.trc" "$T/b-$m.trc"
    json "$T/out" '
v = d["verdict"]
assert v["cause"]["kind"] == "order" and v["cause"]["function"] == "wait_job", v["cause"]
assert v["cause"]["thread"] == "app" and "a lost wake-up" in v["cause"]["text"], v["cause"]
assert v["evidence"][0].startswith("nothing signalled cond#1 while thread app waited"), v["evidence"]
assert v["confidence"] == "possible", v
'
done
# the good runs alike: no divergence, no cause
rec g2.trc "$T/prog-plain"
run 0 --format json "$T/g-plain.trc" "$T/g2.trc"
json "$T/out" 'assert d["verdict"]["cause"] is None, d["verdict"]'
echo ok
