#!/bin/sh
# ttdiff_hang.sh - issue 33: a bad run that hangs and is killed (as a test
# harness's timeout would: SIGTERM or SIGKILL). libttcap keeps what was
# written up to the kill and records the start of each blocking wait
# (LOCKING, WAIT, JOINING); diff/hang.c names the threads that ended
# blocked and why. Plain and values builds (ttcc --values) of:
#   fixtures/progs/deadlock.c (DEADLOCK=race: ABBA, killed by SIGKILL):
#     kind "deadlock", "likely", the cycle with each lock's holder;
#   fixtures/progs/cond_lost.c with COND_WAIT=forever (no timeout; with
#     COND_LOST=race the signal comes before the wait; SIGTERM): kind
#     "order", a lost wake-up, the waiter named;
#   fixtures/progs/join_hang.c (JOIN_HANG=bad: main skips the start and
#     joins the worker; SIGTERM): kind "hang", the worker's wait, what main
#     did last and that it waits to join the worker;
#   fixtures/progs/sem_hang.c (SEM_HANG=bad: main skips a sem_post): kind
#     "hang", the worker's semaphore wait and the post that never came;
#   fixtures/progs/held_wait.c (HELD_WAIT=bad: main waits for the job's
#     end holding the lock the job needs; SIGTERM): kind "hang", named
#     where main took the lock (`cancel_job`, past the wrapper
#     `lock_table`), both waits in the sentence (main's before, the
#     worker's named as the lock's waiter).
# And a regression that hangs (join_hang.c with `started = 1` removed from
# the bad build's source): the changed code is the cause, the hang evidence.
# Text (verdict in the first 10 lines), HTML (first screen) and JSON
# (verdict), exit 1. Two good runs: no cause. (The bad run numbers the
# objects by first use: which thread takes its first lock first varies.)
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

command -v gcc > /dev/null || { echo "SKIP: no gcc"; exit 77; }
command -v timeout > /dev/null || { echo "SKIP: no timeout"; exit 77; }
for p in deadlock cond_lost join_hang sem_hang held_wait; do cp "fixtures/progs/$p.c" "$T/$p.c"; done
check() {   # check NAME MODE KIND FUNCTION CONFIDENCE TEXT-REGEX EVIDENCE-REGEX
    run 1 --color never "$T/$1-g-$2.trc" "$T/$1-b-$2.trc"
    head -10 "$T/out" > "$T/head10"
    has "^verdict: diverged: $5 cause: .*\`$4\`" "$T/head10"
    has "^  cause: $6" "$T/head10"
    has "^  evidence: $7" "$T/head10"
    run 1 --format html "$T/$1-g-$2.trc" "$T/$1-b-$2.trc"
    sed -n '1,/<main>/p' "$T/out" > "$T/screen1"
    has "$6" "$T/screen1"
    run 1 --format json "$T/$1-g-$2.trc" "$T/$1-b-$2.trc"
    json "$T/out" "
import re
bre = lambda x: x.replace('(', r'\(').replace(')', r'\)')
v = d['verdict']
assert v['cause']['kind'] == '$3' and v['cause']['function'] == '$4', v['cause']
assert v['confidence'] == '$5', v
assert re.match(bre(r'''$6'''), v['cause']['text']), v['cause']
assert any(re.match(bre(r'''$7'''), e) for e in v['evidence']), v['evidence']
"
}
for m in plain values; do
    flag=""; [ "$m" = values ] && flag=--values
    for p in deadlock cond_lost join_hang sem_hang held_wait; do
        (cd "$T" && "$BD/ttcc" $flag gcc ${SAN:-} -O2 -pthread -o "$p-$m" "$p.c") \
            || fail "build $p $m"
        COND_WAIT=forever rec "$p-g-$m.trc" "$T/$p-$m"
    done
    DEADLOCK=race rec "deadlock-b-$m.trc" timeout -s KILL 1 "$T/deadlock-$m"
    COND_WAIT=forever COND_LOST=race rec "cond_lost-b-$m.trc" timeout 1 "$T/cond_lost-$m"
    JOIN_HANG=bad rec "join_hang-b-$m.trc" timeout 1 "$T/join_hang-$m"
    SEM_HANG=bad rec "sem_hang-b-$m.trc" timeout 1 "$T/sem_hang-$m"
    HELD_WAIT=bad rec "held_wait-b-$m.trc" timeout 1 "$T/held_wait-$m"
    check deadlock "$m" deadlock move_ab likely \
        'a deadlock: thread left waited for mutex#[12] in `move_ab`, held by thread right (taken in `move_ba`); thread right waited for mutex#[12] in `move_ba`, held by thread left (taken in `move_ab`)' \
        'the bad run never ended (killed: no clean end) while .*thread left waited for mutex#[12] in `move_ab` (deadlock.c:[0-9]*) and thread right waited for mutex#[12] in `move_ba` (deadlock.c:[0-9]*)'
    check cond_lost "$m" order wait_job possible \
        '`post_job` (thread poster) signalled cond#1 before `wait_job` (thread app) waited on it in the bad run: the signal woke nobody (a lost wake-up) and the wait never returned' \
        'the bad run never ended (killed: no clean end) while thread app waited on cond#1 in `wait_job` (cond_lost.c:[0-9]*)'
    check join_hang "$m" hang wait_start possible \
        'thread worker waited on cond#1 in `wait_start` for a signal that never came: `start_worker` (thread app) signalled it in the good run, not in the bad run' \
        'thread app.s last call in the bad run was `load_input`; it then waited to join thread #1 in `main` (join_hang.c:[0-9]*)'
    check sem_hang "$m" hang take_job possible \
        'thread worker waited on sem#1 in `take_job` for a post that never came: `submit` (thread app) posted it in the good run, not in the bad run' \
        'thread app.s last call in the bad run was `queue_job`; it then waited to join thread #1 in `main` (sem_hang.c:[0-9]*)'
    check held_wait "$m" hang cancel_job possible \
        'thread app took mutex#1 in `cancel_job` and then waited on cond#1 in `wait_done` (held_wait.c:[0-9]*) holding it; thread worker waited for mutex#1 in `store_result`: a lock held across a wait that no thread was left running to end' \
        'the bad run never ended (killed: no clean end) while thread app waited on cond#1 in `wait_done` (held_wait.c:[0-9]*) and thread worker waited for mutex#1 in `store_result` (held_wait.c:[0-9]*)'
done
# a regression between two builds that hangs: start_worker's source loses
# `started = 1` (the worker wakes, sees nothing started, waits again). The
# changed code is the cause, the hang its evidence (verdict.c: code
# changed outranks the threads' order); wait_start, whose machine code
# only carries the change (laid out anew), is not.
mkdir -p "$T/reg"
sed '/^    started = 1;$/d' "$T/join_hang.c" > "$T/reg/join_hang.c"
cmp -s "$T/join_hang.c" "$T/reg/join_hang.c" && fail "join_hang.c: no line removed"
(cd "$T/reg" && "$BD/ttcc" gcc ${SAN:-} -O2 -pthread -o join_hang join_hang.c) || fail "build reg"
rec reg-b.trc timeout 1 "$T/reg/join_hang"
run 1 --color never "$T/join_hang-g-plain.trc" "$T/reg-b.trc"
head -10 "$T/out" > "$T/head10"
has '^verdict: diverged: .*cause: the code of `start_worker` changed' "$T/head10"
has '^  evidence: the bad run never ended (killed: no clean end) while .*waited on cond#1 in `wait_start`' "$T/head10"
run 1 --format json "$T/join_hang-g-plain.trc" "$T/reg-b.trc"
json "$T/out" "
v = d['verdict']
assert v['cause']['kind'] == 'code_changed' and v['cause']['function'] == 'start_worker', v['cause']
assert any(e.startswith('the bad run never ended') for e in v['evidence']), v['evidence']
"
# the good runs alike: no divergence, no cause
rec g2.trc "$T/deadlock-plain"
run 0 --format json "$T/deadlock-g-plain.trc" "$T/g2.trc"
json "$T/out" 'assert d["verdict"]["cause"] is None, d["verdict"]'
echo ok
