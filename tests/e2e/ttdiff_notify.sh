#!/bin/sh
# ttdiff_notify.sh - issue 33 item 4: a notify that races a state change
# made outside the lock. fixtures/progs/cond_unlocked.c: the waiter tests
# `ready` under the mutex in a predicate loop and waits; the notifier sets
# `ready` and signals without the mutex. With COND_UNLOCKED=race the
# notifier goes between the waiter's check and its wait: the signal is
# lost. The waiter held the wait's mutex from before the signal to its
# wait, so the signal was sent without it: the verdict names the notifier
# (a race in `set_ready`, thread notifier, "possible"), not the waiter
# (cond_lost.c's shape, where the poster signals under the lock before
# the waiter takes it: ttdiff_lostwakeup.sh, ttdiff_hang.sh).
# Plain and values builds; a timed wait that fails (COND_WAIT=timed:
# ordercause.c's lost wake-up, values: wait_ready's -1 as evidence) and a
# wait for ever (killed by `timeout`: hang.c's), in text (first 10
# lines), HTML (first screen) and JSON. Must not: the notifier under the
# lock (COND_UNLOCKED_FIXED=1) with the same schedules: no divergence;
# two good runs: exit 0, no cause.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

command -v gcc > /dev/null || { echo "SKIP: no gcc"; exit 77; }
command -v timeout > /dev/null || { echo "SKIP: no timeout"; exit 77; }
cp fixtures/progs/cond_unlocked.c "$T/prog.c"
check() {   # check GOOD BAD CAUSE-REGEX EVIDENCE-REGEX
    run 1 --color never "$T/$1" "$T/$2"
    head -10 "$T/out" > "$T/head10"
    has '^verdict: diverged: possible cause: a race in `set_ready` (thread notifier)' "$T/head10"
    has "^  cause: \`set_ready\` (thread notifier) signalled cond#1 while thread waiter held $3" "$T/head10"
    has "^  evidence: $4" "$T/head10"
    run 1 --format html "$T/$1" "$T/$2"
    sed -n '1,/<main>/p' "$T/out" > "$T/screen1"
    has 'a race in .*set_ready' "$T/screen1"
    has 'a signal sent without the lock the waiter checks under' "$T/screen1"
    run 1 --format json "$T/$1" "$T/$2"
    json "$T/out" '
v = d["verdict"]
c = v["cause"]
assert c["kind"] == "race" and c["function"] == "set_ready" and c["thread"] == "notifier", c
assert "a lost wake-up" in c["text"] and "without the lock" in c["text"], c
assert v["confidence"] == "possible", v
'
}
for m in plain values; do
    flag=""; [ "$m" = values ] && flag=--values
    (cd "$T" && "$BD/ttcc" $flag gcc ${SAN:-} -O2 -pthread -o "prog-$m" prog.c) || fail "build $m"
    COND_WAIT=timed rec "g-$m.trc" "$T/prog-$m"
    COND_WAIT=timed COND_UNLOCKED=race rec "b-$m.trc" "$T/prog-$m"
    check "g-$m.trc" "b-$m.trc" \
        'mutex#1 (taken in `wait_ready` at [0-9.]* ms, before its wait on cond#1 at [0-9.]* ms)' \
        'nothing signalled cond#1 while thread waiter waited in the bad run'
    if [ "$m" = values ]; then
        has 'its wait ended without a wake-up (`wait_ready` returned -1 in the bad run, 0 in the good run)' "$T/head10"
    fi
    rec "hg-$m.trc" "$T/prog-$m"
    COND_UNLOCKED=race rec "hb-$m.trc" timeout 1 "$T/prog-$m"
    check "hg-$m.trc" "hb-$m.trc" \
        'the mutex of its wait, between its check and its wait on cond#1 in `wait_ready`' \
        'nothing signalled cond#1 after thread waiter began to wait'
    # must not: the notifier under the lock, the same schedules
    COND_WAIT=timed COND_UNLOCKED_FIXED=1 rec "fg-$m.trc" "$T/prog-$m"
    COND_WAIT=timed COND_UNLOCKED_FIXED=1 COND_UNLOCKED=race rec "fb-$m.trc" "$T/prog-$m"
    run 0 --format json "$T/fg-$m.trc" "$T/fb-$m.trc"
    json "$T/out" 'assert d["verdict"]["cause"] is None, d["verdict"]'
    # must not: the good runs alike
    COND_WAIT=timed rec "g2-$m.trc" "$T/prog-$m"
    run 0 --format json "$T/g-$m.trc" "$T/g2-$m.trc"
    json "$T/out" 'assert d["verdict"]["cause"] is None, d["verdict"]'
done
echo ok
