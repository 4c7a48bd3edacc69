#!/bin/sh
# ttdiff_poolpair.sh - a pool's look-alike workers paired by the work they
# did (diff/poolpair.c). fixtures/progs/pool_extra.c: two workers, one job
# in the good run (the first worker's; the second stays idle), and in the
# bad run main takes another way (accept_name) and posts a second job of
# the same calls; POOL_FIRST=1 gives the first job to the second worker,
# so the bad run's first worker did the extra job and sketches exactly as
# the good run's first worker. Paired by sketch, the worker that did the
# job both runs did was left with the idle one, and its job, done before
# main's split, became the first divergence (a worker, a race named as
# the cause). Paired by their jobs: main's split comes first, the extra
# job is a hunk of the bad run's first worker after it, in plain and
# values builds; two good runs stay alike (exit 0).
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

command -v gcc > /dev/null || { echo "SKIP: no gcc"; exit 77; }
SAN=""   # a sanitizer build's libttcap needs the program built likewise
ldd "$BD/libttcap.so" 2>/dev/null | grep -q libasan && SAN="-fsanitize=address,undefined"
cp fixtures/progs/pool_extra.c "$T/prog.c"
for m in plain values; do
    flag=""; [ "$m" = values ] && flag=--values
    (cd "$T" && "$BD/ttcc" $flag gcc $SAN -O2 -pthread -o "prog-$m" prog.c) || fail "build $m"
    rec "g-$m.trc" "$T/prog-$m"
    rec "g2-$m.trc" "$T/prog-$m"
    POOL_FIRST=1 rec "b-$m.trc" "$T/prog-$m" bad
    run 1 --format json "$T/g-$m.trc" "$T/b-$m.trc"
    json "$T/out" '
fd = d["first_divergence"]
assert fd["thread"]["good"] == 0 and fd["thread"]["bad"] == 0, fd["thread"]
t = {x["good"]["index"]: x for x in d["threads"]}
assert t[1]["bad"]["index"] == 2 and t[2]["bad"]["index"] == 1, [(k, v["bad"]["index"]) for k, v in t.items()]
assert t[1]["hunks"] == 0 and t[2]["hunks"] == 1, (t[1]["hunks"], t[2]["hunks"])
assert t[2]["first_time_ns"] > t[0]["first_time_ns"], (t[2]["first_time_ns"], t[0]["first_time_ns"])
'
    run 1 --color never "$T/g-$m.trc" "$T/b-$m.trc"
    has '^\(first divergence\|then the call sequences part\): thread prog-[a-z]* (good #0, bad #0)' "$T/out"
    run 0 "$T/g-$m.trc" "$T/g2-$m.trc"
done
echo ok
