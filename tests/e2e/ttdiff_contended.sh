#!/bin/sh
# ttdiff_contended.sh - a lock's own slow path that one of two good runs
# took (diff/timing.c TTD_TIMING_CONTENDED). fixtures/progs/lock_slow.c:
# a spin lock whose spin_lock calls spin_lock_slowpath when the other
# thread holds it; LOCK_SLOW=contend forces that schedule. Runs that
# differ only there are nondeterministic, exit 0, the hunk "contended"
# (text, JSON) with its evidence; before the rule ttdiff named a race in
# the worker. Must not: main taking the lock once more (LOCK_SLOW=twice,
# the program's own extra lock) is a divergence, exit 1. Plain and values
# builds.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

command -v gcc > /dev/null || { echo "SKIP: no gcc"; exit 77; }
cp fixtures/progs/lock_slow.c "$T/prog.c"
for m in plain values; do
    flag=""; [ "$m" = values ] && flag=--values
    (cd "$T" && "$BD/ttcc" $flag gcc ${SAN:-} -O2 -pthread -o "prog-$m" prog.c) || fail "build $m"
    rec "g-$m.trc" "$T/prog-$m"
    LOCK_SLOW=contend rec "c-$m.trc" "$T/prog-$m"
    LOCK_SLOW=twice rec "t-$m.trc" "$T/prog-$m"
    run 0 --color never "$T/g-$m.trc" "$T/c-$m.trc"
    has '^verdict: nondeterministic: no divergence in 2 thread pairs; only this varied: timing (a lock was contended)$' "$T/out"
    has 'enter spin_lock_slowpath.*(contended: a lock.s own slow path' "$T/out"
    has '^  - a lock was contended: thread #0 prog-.*: 2 more events at `spin_lock_slowpath` in the bad run' "$T/out"
    run 0 --format json "$T/g-$m.trc" "$T/c-$m.trc"
    json "$T/out" '
assert d["diverged"] is False, d["diverged"]
hs = [h for h in d["hunks"] if h["timing"]]
assert [h["timing_kind"] for h in hs] == ["contended"], hs
hid = d["verdict"]["hidden"]
assert any(x["kind"] == "timing" and x["function"] == "spin_lock_slowpath" for x in hid), hid
'
    # the other way round: the good run contended
    run 0 "$T/c-$m.trc" "$T/g-$m.trc"
    # must not: the program took the lock once more
    run 1 --color never "$T/g-$m.trc" "$T/t-$m.trc"
    has '^verdict: diverged' "$T/out"
done
echo "ok: ttdiff_contended"
