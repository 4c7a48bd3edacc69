#!/bin/sh
# ttdiff_spin.sh - issue 33's trust theme: identical runs that differ by
# timing alone, as nng's threads do (fixtures/progs/clock_spin.c): a
# poller that spins on a millisecond clock (SPIN_LATE=1: a short spin)
# and a worker that waits for its start behind two wrappers named like a
# wait (WAIT_FIRST=1: it waits). Values build: no divergence, exit 0, the
# spin "spin" with its evidence (the clock call ms_now, in ms) and the
# wait chain "wait_loop", in text, HTML and JSON. Plain build: the wait
# chain is timing, the spin stays a divergence (no values, no proof).
# Must not: a run that stamps more items (STAMP_ITEMS=6) is a divergence
# in the poller, in both builds.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

command -v gcc > /dev/null || { echo "SKIP: no gcc"; exit 77; }
SAN=""   # a sanitizer build's libttcap needs the program built likewise
ldd "$BD/libttcap.so" 2>/dev/null | grep -q libasan && SAN="-fsanitize=address,undefined"
cp fixtures/progs/clock_spin.c "$T/prog.c"
for m in plain values; do
    flag=""; [ "$m" = values ] && flag=--values
    (cd "$T" && "$BD/ttcc" $flag gcc $SAN -O2 -pthread -o "prog-$m" prog.c) || fail "build $m"
    rec "g-$m.trc" "$T/prog-$m"
    SPIN_LATE=1 WAIT_FIRST=1 rec "b-$m.trc" "$T/prog-$m"
    STAMP_ITEMS=6 rec "s-$m.trc" "$T/prog-$m"
done

# values: both are timing (which run spun more is the scheduler's: SPIN_LATE
# shortens the bad run's spin, but under load the good run's can be shorter)
run 0 --color never "$T/g-values.trc" "$T/b-values.trc"
has '^verdict: nondeterministic: no divergence in 3 thread pairs; only this varied: timing (a loop that waits ran more times, a loop spun until a clock turned)' "$T/out"
has 'enter list_next(.*(a loop spun until a clock turned, the same values each time)$' "$T/out"
has 'enter cv_wait(.*(a loop that waits ran more times)$' "$T/out"
has '^  - a loop spun until a clock turned: thread #2 prog-values: [0-9]* more iterations\{0,1\} of 12 events at `list_next` in the \(good\|bad\) run, no wait recorded, every argument and result as in the iteration before; `ms_now` returned [0-9]* (the run.s own clock, in ms) in each until the clock turned' "$T/out"
has '^  - a loop that waits ran more times: thread #1 prog-values: 4 more events in the bad run, a loop at `cv_wait`' "$T/out"
run 0 --format html "$T/g-values.trc" "$T/b-values.trc"
has 'a loop spun until a clock turned' "$T/out"
has '<code>ms_now</code>\|`ms_now`\|ms_now' "$T/out"
run 0 --format json "$T/g-values.trc" "$T/b-values.trc"
json "$T/out" '
assert d["diverged"] is False, d["diverged"]
hs = [h for h in d["hunks"] if h["timing"]]
kinds = sorted(h["timing_kind"] for h in hs)
assert kinds == ["spin", "wait_loop"], kinds
sp = [h for h in hs if h["timing_kind"] == "spin"][0]
assert sp["spin"]["clock"] == "ms_now" and sp["spin"]["unit_ns"] == 1000000, sp
assert sp["spin"]["events_per_iteration"] == 12 and sp["spin"]["iterations"] >= 1, sp
hid = d["verdict"]["hidden"]
assert any(x["kind"] == "timing" and "clock turned" in x["text"] and "ms_now" in x["evidence"] for x in hid), hid
'
# plain: the wait behind wrappers is timing, the spin is not proven
run 1 --color never "$T/g-plain.trc" "$T/b-plain.trc"
has '^verdict: diverged: .*`expire_loop` (thread #2 prog-plain)' "$T/out"
has 'enter cv_wait .*(a loop that waits ran more times)$' "$T/out"
# must not: more items stamped with the time
for m in plain values; do
    run 1 --color never "$T/g-$m.trc" "$T/s-$m.trc"
    has '^verdict: diverged: .*`expire_loop` (thread #2 prog-'"$m"')' "$T/out"
done
echo "ok: ttdiff_spin"
