#!/bin/sh
# --jobs: the two traces are read by two threads (the default) or one
# (issue 38: opening, the thread sketches, the call-tree build and the
# count facts' calls-only pass of each run by a thread of its own; after
# the split, the timing scans of each run's split thread and the thread
# order's walks of each run's threads to the split: the bad run and the
# good in two threads, a pass the unit tests count apart, test_pools,
# test_races). The reports are the same byte for byte on a pool of
# look-alike workers (content pairing: sketches) with lock operations
# (the thread order), identical runs and a bad run either way round, in
# text, JSON and HTML; an error in
# either trace is the same one line and exit 2 either way; --jobs takes
# 1 or 2 only.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

P=$BD/fixtures/pool_alike
rec g0.trc "$P"
rec g1.trc "$P"
rec bad.trc "$P" bad
head -c 5000 "$T/g1.trc" > "$T/short.trc"
printf 'not a trace at all, not at all' > "$T/junk.trc"
for pair in "g0 g1 0" "g0 bad 1" "bad g0 1"; do
    set -- $pair
    for fmt in text json html; do
        run "$3" --color never --format $fmt "$T/$1.trc" "$T/$2.trc"
        mv "$T/out" "$T/two"
        run "$3" --color never --format $fmt --jobs 2 "$T/$1.trc" "$T/$2.trc"
        cmp "$T/out" "$T/two" || fail "--jobs 2 is not the default ($1 $2 $fmt)"
        run "$3" --color never --format $fmt --jobs 1 "$T/$1.trc" "$T/$2.trc"
        cmp "$T/out" "$T/two" || { diff "$T/out" "$T/two" | head -20; fail "--jobs 1 and 2 differ ($1 $2 $fmt)"; }
    done
done
has 'content' "$T/out"
# the count facts (each run's calls-only pass by a thread of its own) are
# in what was compared: the bad run's extra reject_line
run 1 --format json "$T/g0.trc" "$T/bad.trc"
grep -A2 '"counts": \[' "$T/out" | grep -q '"function": "reject_line"' || fail "no count fact"
# errors: the good trace's first, one line, exit 2, whatever the jobs
for pair in "junk.trc g0.trc junk" "g0.trc junk.trc junk" "missing.trc junk.trc missing" \
            "junk.trc missing.trc junk" "g0.trc missing.trc missing"; do
    set -- $pair
    run 2 --jobs 1 "$T/$1" "$T/$2"
    mv "$T/err" "$T/err1"
    [ "$(wc -l < "$T/err1")" = 1 ] || { cat "$T/err1"; fail "not one line: $1 $2"; }
    has "$3\.trc" "$T/err1"
    run 2 "$T/$1" "$T/$2"
    cmp "$T/err" "$T/err1" || { cat "$T/err" "$T/err1"; fail "the error differs with two jobs: $1 $2"; }
done
run 1 --jobs 1 "$T/g0.trc" "$T/short.trc"
mv "$T/out" "$T/one"
run 1 "$T/g0.trc" "$T/short.trc"
cmp "$T/out" "$T/one" || fail "--jobs 1 and 2 differ on a cut trace"
run 2 --jobs 3 "$T/g0.trc" "$T/g1.trc"
has "ttdiff: --jobs: '3' is not 1 or 2" "$T/err"
run 2 --jobs 0 "$T/g0.trc" "$T/g1.trc"
has "ttdiff: --jobs: '0' is not 1 or 2" "$T/err"
echo "ok"
