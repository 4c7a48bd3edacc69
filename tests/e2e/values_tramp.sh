#!/bin/sh
# values_tramp.sh - the return trampoline's assembly path (cap_tramp.S:
# the usual EXIT of the sparse clock, written without calling C) records
# what the C path records: 30,000 rounds of six calls whose results are known
# (a small and negative integer, one of 5 to 7 bytes, a double in xmm0, a
# nested call), in 64 KiB chunks, so that the C way takes some EXITs in
# between (the first of each function in a chunk, a cache miss; every
# ninth, timed; samples). Every ENTER and EXIT value is checked, most
# EXITs must be untimed (the assembly path writes most of those), and
# capture_check must find the nesting intact across the chunks.
. "$(dirname "$0")/values_lib.inc"

cat > t.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#define KEEP() __asm__ volatile("" ::: "memory")
#define WORK __attribute__((noinline, noclone))
WORK long small(long x) { KEEP(); return 3 * x - 7; }
WORK long wide(long x) { KEEP(); return x * 4294967296; }
WORK double half(long x) { KEEP(); return (double)x * 0.5; }
WORK long outer(long x) { long r = small(x) + wide(x); KEEP(); return r + 1; }
int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 0, s = 0;
    double d = 0;
    for (long i = 0; i < n; i++) {
        s += small(i);
        s += wide(-i);
        d += half(i);
        s += outer(i);
    }
    printf("%ld %g\n", s, d);
    return 0;
}
C
cc -g -O2 -pg -mfentry -fno-ipa-sra -fno-ipa-ra -fno-inline -c -o t.o t.c || fail "build"
cc ${SAN:-} -o t t.o -rdynamic -L"$BD" -lttcap -Wl,-rpath,"$BD" || fail "link"
N=30000
TTCAP_CHUNK_KB=64 rec t.trc ./t $N
"$BD/ttdump" -n --color never "$T/t.trc" > t.raw 2> t.err || { cat t.err; fail "ttdump"; }
untimed=$(grep -c '^ *~' t.raw)
[ "$untimed" -gt $((N * 6 * 3 / 4)) ] || fail "only $untimed untimed EXITs of $((N * 6))"
sed -E 's/^ *~?\+[0-9.]+[a-z]+ +//' t.raw | awk -v n=$N '
function want(c, v) { if (c != v) { print "FAIL: call " k ": " $0 " (want " v ")"; bad++ } }
/^> small\(/ { k++; a = $0; sub(/^> small\(/, "", a); sub(/\).*/, "", a); x = a + 0; next }
/^< small = / { want($4 + 0, 3 * x - 7); ns++; next }
/^> wide\(/ { a = $0; sub(/^> wide\(/, "", a); sub(/\).*/, "", a); y = a + 0; next }
/^< wide = / { want($4 + 0, y * 4294967296); nw++; next }
/^> half\(/ { a = $0; sub(/^> half\(/, "", a); sub(/\).*/, "", a); h = a + 0; next }
/^< half = / { want($4 + 0, h * 0.5); nh++; next }
/^> outer\(/ { a = $0; sub(/^> outer\(/, "", a); sub(/\).*/, "", a); o = a + 0; next }
/^< outer = / { want($4 + 0, 3 * o - 7 + o * 4294967296 + 1); no++; next }
END {
    if (ns != 2 * n || nw != 2 * n || nh != n || no != n) { print "FAIL: calls " ns " " nw " " nh " " no; bad++ }
    exit bad > 0
}' > t.chk || { head -20 t.chk; fail "values"; }
"$BD/tests/capture_check" "$T/t.trc" > t.cc || fail "capture_check"
chunks=$("$BD/ttdump" -s "$T/t.trc" | sed -n 's/^ *chunks: *\([0-9]*\) total.*/\1/p')
[ "${chunks:-0}" -ge 10 ] || fail "only ${chunks:-0} chunks"
has '^walk thread=0 events=[0-9]* open=0 maxdepth=3 nesting_errors=0 rc=0$' t.cc
echo "ok: $((N * 6)) calls, $untimed EXITs by the assembly path or sampled, every value right"
