#!/bin/sh
# capture_env.sh - TTCAP_* values out of range or not understood: exactly
# one stderr line naming the variable, the value, the accepted range and
# the value used; the run goes on (with the default) and its trace says so.
B=$(cd "${1:-build}" && pwd) || exit 1
P=$B/fixtures/cap_calls
CHK=$B/tests/capture_check
d=$(mktemp -d "$B/capture_env.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail=0
# case: environment | the stderr line | a line the checker's output must match
check() {
    rm -f t.trc
    env $1 TTCAP_OUT=t.trc "$P" calls 10 2>err >/dev/null || { echo "FAIL: $1: exit $?"; fail=1; }
    [ "$(cat err)" = "$2" ] || { echo "FAIL: $1: stderr '$(cat err)', want '$2'"; fail=1; }
    [ -z "$3" ] && return
    "$CHK" t.trc > t.out 2>&1
    grep -q -- "$3" t.out || { echo "FAIL: $1: trace lacks /$3/"; fail=1; }
}
check TTCAP_CHUNK_KB=3 "ttcap: TTCAP_CHUNK_KB='3' is out of range (16..65536); using the default 256" "^header .*chunk=262144 "
check TTCAP_CHUNK_KB=131072 "ttcap: TTCAP_CHUNK_KB='131072' is out of range (16..65536); using the default 256" "chunk=262144 "
check TTCAP_CHUNK_KB=99999999999999999999 "ttcap: TTCAP_CHUNK_KB='99999999999999999999' is out of range (16..65536); using the default 256" "chunk=262144 "
check TTCAP_CHUNK_KB=64k "ttcap: TTCAP_CHUNK_KB='64k' is not a number (16..65536); using the default 256" "chunk=262144 "
check TTCAP_CHUNK_KB=100 "ttcap: TTCAP_CHUNK_KB='100' is not a power of two; using 128 (the next power of two)" "chunk=131072 "
check TTCAP_CHUNK_KB=64 "" "chunk=65536 "
check TTCAP_CLOCK=bogus "ttcap: TTCAP_CLOCK='bogus' is not tsc, chain, lazy, sparse, every or none; using the default tsc" "noclock=0"
check TTCAP_CLOCK=lazy "" "noclock=0"
check TTCAP_CLOCK=chain "" "noclock=0"
check TTCAP_CLOCK=sparse "" "noclock=0"
check TTCAP_CLOCK=tsc "" "noclock=0"
check TTCAP_CLOCK=every "" "noclock=0"
check TTCAP_RING=-1 "ttcap: TTCAP_RING='-1' is out of range (0..65536); using the default 0" "ring=0"
check TTCAP_RING=99999 "ttcap: TTCAP_RING='99999' is out of range (0..65536); using the default 0" "ring=0"
check "TTCAP_RING=1 TTCAP_CHUNK_KB=1024" "ttcap: TTCAP_RING='1' holds fewer than 2 chunks; using 2 chunks (2048 KiB)" "ring=1"
check TTCAP_LEVEL=9 "ttcap: TTCAP_LEVEL='9' is out of range (0..5); using the default 4" ""
check TTCAP_LEVEL=-1 "ttcap: TTCAP_LEVEL='-1' is out of range (0..5); using the default 4" ""
check TTCAP_TEST_FAIL_AFTER=x "ttcap: TTCAP_TEST_FAIL_AFTER='x' is not a number (0..2147483647); using the default 0" ""
# control characters in a value are not echoed raw
check "TTCAP_LEVEL=$(printf '\033[31m')" "ttcap: TTCAP_LEVEL='?[31m' is not a number (0..5); using the default 4" ""
# TTCAP itself: 0 or 1
rm -f *.trc
TTCAP=yes "$P" calls 1 2>err >/dev/null || { echo "FAIL: TTCAP=yes exit"; fail=1; }
[ "$(cat err)" = "ttcap: TTCAP='yes' is not 0 or 1; using the default 0 (no trace)" ] ||
    { echo "FAIL: TTCAP=yes: '$(cat err)'"; fail=1; }
ls ./*.trc >/dev/null 2>&1 && { echo "FAIL: TTCAP=yes traced"; fail=1; }
# TTCAP_OUT set but unusable: one line, untraced, no file
out_refused() { # value, the stderr line
    rm -rf ./* ./.build-id
    env TTCAP_OUT="$1" TTCAP=1 "$P" calls 1 2>err >/dev/null || { echo "FAIL: TTCAP_OUT='$1': exit $?"; fail=1; }
    [ "$(cat err)" = "$2" ] || { echo "FAIL: TTCAP_OUT='$1': stderr '$(cat err)', want '$2'"; fail=1; }
    [ -z "$(ls -A)" ] || [ "$(ls -A)" = err ] || { echo "FAIL: TTCAP_OUT='$1' created: $(ls -A)"; fail=1; }
}
out_refused "" "ttcap: TTCAP_OUT='' is empty; using no trace"
out_refused "t.%q.trc" "ttcap: TTCAP_OUT='t.%q.trc' has an unknown %q (known: %p %e %%); using no trace"
out_refused "t.trc%" "ttcap: TTCAP_OUT='t.trc%' ends in a lone %; using no trace"
# the known ones still work
rm -f ./*.trc
TTCAP_OUT='t.%%.%p.trc' "$P" calls 1 2>err >/dev/null
[ -s err ] && { echo "FAIL: %% %p: stderr $(cat err)"; fail=1; }
ls t.%.[0-9]*.trc >/dev/null 2>&1 || { echo "FAIL: %% %p: no t.%.<pid>.trc: $(ls)"; fail=1; }
[ $fail = 0 ] && echo "capture_env: ok"
exit $fail
