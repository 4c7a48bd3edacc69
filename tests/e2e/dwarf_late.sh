#!/bin/sh
# dwarf_late.sh - a DWARF problem found late in a ttdiff run (while the
# explain stage or the details read lines, signatures and inlined frames,
# after the first report lines are decided) is a notice in the report, not
# an abort and not lost. libdw does not fault on the damaged files this
# suite can make (dwarf_corpus.sh), so the fault is injected:
# TTF_TEST_DWARF_FAULT=N makes libttfmt's Nth guarded DWARF query fault
# inside its guard (format/sym.c test_fault). The test puts the fault at
# every query of the run in turn, N = 1, 2, ... until a run has fewer
# queries than N, so the last ones (the detail stage's) are covered: each
# run must exit 0 or 1 and name the damaged debug info. Without the late
# gathering of notices (diff/engine.c late_notices) the runs faulting in
# the explain and detail stages lose the notice. Exit 77 off x86-64.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
SRC=$(pwd)
BD=$(cd "$B" && pwd)
[ "$(uname -m)" = x86_64 ] || { echo "skip: values mode is x86-64 only"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cd "$T"
gcc -O1 -fno-inline -pg -mfentry -fno-plt -g -c -o p.o "$SRC/fixtures/values/vd_lookup.c" &&
    cc ${SAN:-} -rdynamic -o p p.o -L"$BD" -lttcap -Wl,-rpath,"$BD" || fail "build"
TTCAP_OUT="$T/g.trc" ./p add 5 > /dev/null 2>&1 || true
TTCAP_OUT="$T/b.trc" ./p ad 5 > /dev/null 2>&1 || true
[ -s g.trc ] && [ -s b.trc ] || fail "no trace"
rc=0
"$BD/ttdiff" --color never g.trc b.trc > whole 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "undamaged: ttdiff exit $rc"
! grep -q 'damaged' whole || fail "undamaged: a damage notice"
n=0
while :; do
    n=$((n + 1))
    [ "$n" -le 2000 ] || fail "more than 2000 guarded queries in one run"
    rc=0
    # after a fault libttfmt keeps the libdw session it abandons (a damaged
    # one may be half-built: format/sym.c drop_session), so the sanitizer
    # build's leak check is off here; any other sanitizer report still fails
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    TTF_TEST_DWARF_FAULT=$n "$BD/ttdiff" --color never g.trc b.trc > "d$n" 2>&1 || rc=$?
    grep -q 'DWARF fault injected at guarded query' "d$n" || break
    [ "$rc" -le 1 ] || { tail -5 "d$n"; fail "fault at query $n: ttdiff exit $rc"; }
    ! grep -q 'Assertion\|AddressSanitizer\|runtime error' "d$n" ||
        fail "fault at query $n: a sanitizer report or an assertion"
    grep -q "note: .*/p: its debug info is damaged (libdw failed reading it)" "d$n" ||
        { head -20 "d$n"; fail "fault at query $n: no notice of the damaged debug info"; }
done
[ "$n" -gt 10 ] || fail "only $((n - 1)) guarded queries: the late ones are not reached"
echo "ok: a DWARF fault at each of the $((n - 1)) guarded queries of a run is a notice"
