#!/bin/sh
# ttdiff_floattimer.sh - issue 33 (identical runs must not differ): a
# timeout in floating seconds that is only the time left to one deadline.
# fixtures/progs/float_timer.c, values build: a timer loop in doubles
# (libev's ev_tstamp) passes at - now() to backend_poll, whose poll(2)
# runs to its timeout; two identical runs pass different doubles, by what
# their clock moved on between the two readings. Must: exit 0, the
# verdict "nondeterministic", the value said to be "the time left to one
# deadline, by the clock" with the clock `now` read in seconds as a
# double, in text, JSON and HTML. Must not: a timeout 3 ms longer in the
# bad run (FLOAT_TIMER_SKEW=1: not the clock's doing) stays a divergence
# (exit 1, `backend_poll` named). And a double timeout whose difference
# the wait's step rounds away (FLOAT_TIMER_PID=1: 50 ms less a few us
# from the pid, no clock; poll asks 50 ms in both runs): exit 0, "a
# timeout its wait took as the same time in both runs", asked 50.000 ms,
# in text and JSON.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

command -v gcc > /dev/null || { echo "SKIP: no gcc"; exit 77; }
cp fixtures/progs/float_timer.c "$T/prog.c"
(cd "$T" && "$BD/ttcc" --values gcc ${SAN:-} -O2 -g -o prog prog.c) || fail "build"
rec g.trc "$T/prog"
rec g2.trc "$T/prog"
run 0 --color never "$T/g.trc" "$T/g2.trc"
has '^verdict: nondeterministic' "$T/out"
has 'the value was only the time left to one deadline, by the clock: `backend_poll` was called with [0-9.e-]* in the bad run, [0-9.e-]* in the good run, used only as the timeout of an I/O wait in `backend_poll` (argument 1, timeout) that ran to it in both runs' "$T/out"
has 'the clock `now` (read in s, a double) moved on [0-9.]* ms between two readings before it in the bad run, [0-9.]* in the good run' "$T/out"
run 0 --format json "$T/g.trc" "$T/g2.trc"
json "$T/out" '
assert d["diverged"] is False, d["diverged"]
assert d["verdict"]["cause"] is None, d["verdict"]
t = json.dumps(d["verdict"])
assert "the time left to one deadline, by the clock" in t, t[:600]
'
run 0 --format html "$T/g.trc" "$T/g2.trc"
has 'the time left to one deadline, by the clock' "$T/out"
# must not: a timeout that differs by more than the clock moved
FLOAT_TIMER_SKEW=1 rec b.trc "$T/prog"
run 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" '
t = json.dumps(d["verdict"])
assert "backend_poll" in t, t[:600]
assert "one deadline" not in t, t[:600]
'
# the difference rounded away by the wait's step
FLOAT_TIMER_PID=1 rec p1.trc "$T/prog"
FLOAT_TIMER_PID=1 rec p2.trc "$T/prog"
run 0 --color never "$T/p1.trc" "$T/p2.trc"
has 'the value was only a timeout its wait took as the same time in both runs: `backend_poll` was called with [0-9.e-]* in the bad run, [0-9.e-]* in the good run, used only as the timeout of an I/O wait in `backend_poll` (argument 1, timeout) that asked 50.000 ms in both runs' "$T/out"
run 0 --format json "$T/p1.trc" "$T/p2.trc"
json "$T/out" '
t = json.dumps(d["verdict"])
assert "a timeout its wait took as the same time in both runs" in t, t[:600]
'
echo ok
