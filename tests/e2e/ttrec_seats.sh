#!/bin/sh
# ttrec_seats.sh - issue 31, counts are facts: a check-then-act race that
# sells a seat twice (fixtures/progs/race_seats.c: next_free() read outside
# the lock, take_seat() under it). The failing run makes 41 take_seat calls,
# every passing run 40, while which seller sold how many seats varies from
# run to run: ttrec --until-fail's report heads with the count ("the bad
# run called `take_seat` 41 times, every passing run 40") in text, JSON
# (verdict.counts, cause.kind "count", or kind "race" on next_free with
# the count as evidence) and HTML, never "the runs made the
# same calls". The runs are made deterministic: a wrapper passes "safe"
# (check and act under one lock: the race cannot strike, the sellers'
# shares still vary) to the first three runs and "race" (a barrier inside
# the window) from the 4th on. Passing runs
# of the same program give no count and exit 0.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"
TTREC=$BD/ttrec
P=$BD/fixtures/race_seats
cd "$T"
cat > sell <<EOF2
#!/bin/sh
n=\$(cat "$T/count" 2>/dev/null || echo 0)
echo \$((n + 1)) > "$T/count"
[ "\$n" -ge 3 ] && exec "$P" race
exec "$P" safe
EOF2
chmod +x sell

rc=0; "$TTREC" --until-fail 20 -o hunt -- ./sell > out 2> err || rc=$?
[ "$rc" = 1 ] || { cat out err; fail "ttrec --until-fail: exit $rc, want 1"; }
has 'seat 0 sold 2 times' hunt/fail.out
# The cause: the count, or (when the bad run's timing shows it: the
# seller that took the seat returned after the other's check began) the
# race itself, next_free's read of `next` that take_seat writes with no
# lock both hold (flagrace.c), the count then its evidence. Both are
# right; which one depends on the run.
if grep -q '^verdict: diverged: possible cause: a race in `next_free`' out; then
    has '^  evidence: the bad run called `take_seat` 41 times, every passing run 40$' out
else
    has '^verdict: diverged: possible cause: the bad run called `take_seat` 41 times, every passing run 40$' out
fi
if grep -q 'the runs made the same calls' out; then cat out; fail "'the runs made the same calls' with 41 take_seat calls against 40"; fi

base=""
for k in 2 3; do [ -e hunt/pass-$k.trc ] && base="$base --baseline hunt/pass-$k.trc"; done
[ -n "$base" ] || fail "ttrec kept fewer than 2 passing runs"
# shellcheck disable=SC2086
run 1 --format json --bad-failed 'exit 1' $base hunt/pass-1.trc hunt/fail.trc
json "$T/out" '
v = d["verdict"]
assert v["status"] == "diverged" and v["exit"] == 1, v
count = "the bad run called `take_seat` 41 times, every passing run 40"
if v["cause"]["kind"] == "race":
    assert v["cause"]["function"] == "next_free", v["cause"]
    assert count in v["evidence"], v["evidence"]
    assert v["headline"].startswith("diverged: possible cause: a race in `next_free`")
else:
    assert v["cause"]["kind"] == "count" and v["cause"]["function"] == "take_seat", v["cause"]
    assert v["headline"].startswith("diverged: possible cause: " + count)
assert v["counts"][0] == {"function": "take_seat", "bad": 41, "good_min": 40, "good_max": 40,
                          "good_runs": 3}, v["counts"]
names = [c["function"] for c in v["counts"]]
assert "seller_main" not in names and "main" not in names, names'
# shellcheck disable=SC2086
run 1 --format html -o "$T/r.html" --bad-failed 'exit 1' $base hunt/pass-1.trc hunt/fail.trc
has 'the bad run called `take_seat` 41 times, every passing run 40' "$T/r.html"

# two passing runs: no count, exit 0 (which seller sold which seat varies)
run 0 hunt/pass-1.trc hunt/pass-2.trc
if grep -q 'called `take_seat`' "$T/out"; then cat "$T/out"; fail "a count between two passing runs"; fi
# shellcheck disable=SC2086
run 0 --format json --baseline hunt/pass-3.trc hunt/pass-1.trc hunt/pass-2.trc
json "$T/out" 'assert d["verdict"]["counts"] == [] and d["verdict"]["exit"] == 0, d["verdict"]'
echo "ok: ttrec's report heads with take_seat's count (41 against 40) or the race that made it"
