#!/bin/sh
# ttrec: one recorded run (libttcap preloaded into a program built with
# -finstrument-functions but not linked with it), and --until-fail catching
# the intermittent race of race_queue ("flaky": about one run in three),
# then ttdiff with the passing runs as good run and baselines; --fail-if,
# no failure found, and usage errors.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"
TTREC=$BD/ttrec
cd "$T"
cat > p.c <<'C'
#include <stdio.h>
static int square(int x) { return x * x; }
int main(int argc, char **argv) { (void)argv; printf("%d\n", square(argc)); return argc > 2; }
C
${CC:-cc} -g -finstrument-functions -o p p.c || fail "cc"

# one run: preloaded, default name, then the next free name. An ASan build
# of libttcap cannot be preloaded into a program built without ASan (the
# ASan runtime must come first): that part is skipped there.
if ldd "$BD/libttcap.so" 2>/dev/null | grep -q libasan; then
    echo "SKIP part: preloading into an uninstrumented program (ASan build)"
    cc_p=""
else
    cc_p=1
fi
[ -n "$cc_p" ] && {
"$TTREC" -- ./p > out 2> err || fail "ttrec ./p: exit $?"
has 'trace in p.trc (libttcap preloaded)' err
"$BD/ttdump" p.trc > dump || fail "ttdump p.trc"
has 'square' dump
"$TTREC" -- ./p > out 2> err
has 'trace in p.2.trc' err
rc=0; "$TTREC" -o x.trc -- ./p a b > out 2> err || rc=$?
[ "$rc" = 1 ] || fail "ttrec passes the exit status on: $rc, want 1"
rc=0; "$TTREC" -o x.trc -- ./p 2> err || rc=$?
[ "$rc" = 2 ] || fail "an existing -o file: exit $rc, want 2"
has 'x.trc exists' err
"$TTREC" -f -o x.trc -- ./p > out 2> err || fail "ttrec -f"
}
# a program linked with libttcap is not preloaded
"$TTREC" -o rq.trc -- "$BD/fixtures/race_queue" > out 2> err || fail "ttrec race_queue"
grep -q preloaded err && fail "libttcap preloaded into a program that links it"

# --until-fail: the race is caught, ttdiff compares it with passing runs
rc=0; "$TTREC" --until-fail 60 -o hunt -- "$BD/fixtures/race_queue" flaky > out 2> err || rc=$?
[ "$rc" = 1 ] || { cat out err; fail "ttrec --until-fail: exit $rc, want 1"; }
has '^ttrec: run 1 of 60, ' err
has '^ttrec: run [0-9]* failed (exit 1): hunt/fail.trc' err
has "ttdiff --format text --bad-failed 'exit 1' --baseline hunt/pass-2.trc --baseline hunt/pass-3.trc hunt/pass-1.trc hunt/fail.trc" err
[ -s hunt/fail.trc ] && [ -s hunt/pass-3.trc ] && [ ! -e hunt/pass-4.trc ] || fail "kept traces: $(ls hunt)"
has '^FAIL: ' hunt/fail.out
has '^first divergence: thread race_queue' out
has '^      consume_all  at ' out
# a text report goes to stdout, not into the folder (--help said report.txt)
[ ! -e hunt/report.txt ] || fail "hunt/report.txt written"
"$TTREC" --help | grep -q 'report.json or report.html (text goes to stdout)' ||
    fail "--help does not say where the report goes"
# again into the same folder: only with -f; json report into the folder
rc=0; "$TTREC" --until-fail 3 -o hunt -- "$BD/fixtures/race_queue" 2> err || rc=$?
[ "$rc" = 2 ] || fail "existing folder: exit $rc, want 2"
rc=0; "$TTREC" -f -q --keep 2 --format json --until-fail 60 -o hunt -- "$BD/fixtures/race_queue" flaky > out 2> err || rc=$?
[ "$rc" = 1 ] || { cat err; fail "ttrec --format json: exit $rc"; }
[ ! -s err ] || { cat err; fail "-q printed on stderr"; }
json hunt/report.json 'assert d["diverged"] and len(d["baselines"]) == 1'

# --fail-if on the output; no failure found
rc=0; "$TTREC" --until-fail 5 --keep 1 -o pred --fail-if 'grep -q "^never"' -- "$BD/fixtures/race_queue" > out 2> err || rc=$?
[ "$rc" = 0 ] || fail "--fail-if never true: exit $rc, want 0"
has '^ttrec: no failure in 5 runs' err
rc=0; "$TTREC" -f --until-fail 5 --keep 1 -o pred --fail-if 'grep -q "^ok:"' -- "$BD/fixtures/race_queue" > out 2> err || rc=$?
[ "$rc" = 2 ] || fail "every run fails: exit $rc, want 2"
has 'exit 0, --fail-if said failure' err
has 'every run failed: no passing run' err

# usage errors
for args in "" "--until-fail 0 -- ./p" "--until-fail x -- ./p" "--bogus -- ./p" "-- ./nonexistent" "./p"; do
    rc=0; "$TTREC" $args > out 2> err || rc=$?
    [ "$rc" = 2 ] || fail "ttrec $args: exit $rc, want 2"
    has '^ttrec: ' err
done
"$TTREC" --help > out || fail "--help"
has '^usage: ttrec' out
echo ok
