#!/bin/sh
# values_fentry_asm.sh - __fentry__'s assembly path (cap_fentry.S) writes
# the call-site prefixes itself (SITE_WAY, SITE_NEW: format 1.2), not the
# C way, and codes the six integer registers (SSE4.1: two at a time) as
# the C way does. 30,000 rounds: one of twelve callers, drawn at random
# (mostly among four), calls hit(), so hit's call site is the predicted
# one (the same caller again), one of its slot's four ways or a new one;
# the caller itself is called through a pointer from one place. Then
# three calls of six() whose arguments each stay, step by a stride or
# jump, the mix drawn anew every 16 rounds (both masks, "same" and
# "strided", and the tie rule between them, for every register); every
# 8th round 13 nested calls (13 EXITs in a row: the ninth reads the
# clock). Every
# argument and result checked against what the program wrote down, the
# nesting by capture_check; without a clock and ASLR the same record
# bytes as the C path's (TTCAP_TEST_FENTRY_C=1) and every call's site its
# caller (ttdump --sites), with the sparse clock the same untimed marks;
# and (TTCAP_TEST_PATHS=1) at most 1 ENTER in 50 written the C way (with
# the prefixes left to C, about 1 in 5 are) and 1 EXIT in 50 (the sparse
# clock's TIMED and SAMPLE EXITs are written in assembly too: with those
# left to C, about 1 in 15 are). TTCAP_TEST_FENTRY_C=1 sends the EXITs the
# C way too: the same EXITs read the clock (the untimed marks compared).
. "$(dirname "$0")/values_lib.inc"

cat > t.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#define KEEP() __asm__ volatile("" ::: "memory")
#define WORK __attribute__((noinline, noclone))
static FILE *w;
WORK long hit(long a, long b) { KEEP(); return a * 3 + b; }
#define CALLER(k) WORK long c##k(long i) \
    { long v = hit(i, k); KEEP(); fprintf(w, "> hit(%ld, %d)\n< hit = %ld\n", i, k, v); return v; }
CALLER(0) CALLER(1) CALLER(2) CALLER(3) CALLER(4) CALLER(5)
CALLER(6) CALLER(7) CALLER(8) CALLER(9) CALLER(10) CALLER(11)
static long (*const callers[12])(long) = {c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11};
WORK long six(long a, long b, long c, long d, long e, long f) { KEEP(); return a ^ b ^ c ^ d ^ e ^ f; }
WORK long deep(long n)
{
    fprintf(w, "> deep(%ld)\n", n);
    long v = n ? deep(n - 1) + 1 : 0;
    KEEP();
    fprintf(w, "< deep = %ld\n", v);
    return v;
}
static unsigned long r = 12345;
__attribute__((no_instrument_function)) static unsigned long draw(void)
{
    r = r * 6364136223846793005ul + 1442695040888963407ul;
    return r >> 11;
}
/* x[k] stays (mode 0), steps by st[k] (1, 2) or jumps (3) */
__attribute__((no_instrument_function)) static void step(long *x, const long *st, unsigned mode)
{
    for (int k = 0; k < 6; k++) {
        unsigned m = mode >> (2 * k) & 3;
        x[k] = m == 0 ? x[k] : m == 3 ? (long)draw() : x[k] + st[k];
    }
}
int main(int argc, char **argv)
{
    long n = argc > 2 ? atol(argv[1]) : 0, s = 0, x[6] = {0}, st[6] = {0};
    unsigned mode = 0;
    w = argc > 2 ? fopen(argv[2], "w") : NULL;
    if (!w)
        return 2;
    for (long i = 0; i < n; i++) {
        unsigned k = (unsigned)(draw() % 16);
        s += callers[k < 12 ? k : k - 12](i);   /* 0..3 twice as often */
        s += i % 8 ? 0 : deep(12);              /* 13 EXITs in a row */
        for (int j = 0; j < 6 && i % 16 == 0; j++)
            st[j] = (long)(draw() % 7) - 3;
        mode = i % 16 ? mode : (unsigned)draw();
        for (int c = 0; c < 3; c++) {
            step(x, st, mode);
            long v = six(x[0], x[1], x[2], x[3], x[4], x[5]);
            fprintf(w, "> six(%ld, %ld, %ld, %ld, %ld, %ld)\n< six = %ld\n", x[0], x[1], x[2], x[3], x[4], x[5], v);
        }
    }
    fclose(w);
    printf("%ld\n", s);
    return 0;
}
C
cc -g -O2 -pg -mfentry -fno-ipa-sra -fno-inline -c -o t.o t.c || fail "build"
cc ${SAN:-} -o t t.o -rdynamic -L"$BD" -lttcap -Wl,-rpath,"$BD" || fail "link"
N=30000
command -v setarch >/dev/null 2>&1 || setarch() { shift 2; "$@"; }
# check NAME [ENV...]: record under ENV, compare every call of hit
check() {
    name=$1; shift
    env "$@" TTCAP_CHUNK_KB=64 TTCAP_OUT="$T/$name.trc" setarch -R ./t $N "$T/$name.want" \
        > "$name.out" 2>&1 || { cat "$name.out"; fail "$name: run"; }
    "$BD/ttdump" -n --color never "$T/$name.trc" > "$name.raw" 2> "$name.err" || { cat "$name.err"; fail "$name: ttdump"; }
    sed -E 's/^ *~?\+[0-9.]+[a-z]+ +//' "$name.raw" | grep -E '^[<>] (hit|six|deep)\b' > "$name.got"
    cmp -s "$name.want" "$name.got" || { diff "$name.want" "$name.got" | head -20; fail "$name: values differ"; }
    "$BD/tests/capture_check" "$T/$name.trc" > "$name.cc" || fail "$name: capture_check"
    has '^walk thread=0 events=[0-9]* open=0 maxdepth=14 nesting_errors=0 rc=0$' "$name.cc"
}
check sparse TTCAP_TEST_PATHS=1 TTCAP_TEST_FENTRY_C=0
c=$(sed -n 's/^ttcap: test: C ENTERs \([0-9]*\),.*/\1/p' sparse.out)
[ -n "$c" ] || { cat sparse.out; fail "no count of the C way's ENTERs"; }
[ "$c" -le $((N * 5 / 50)) ] || fail "$c of $((N * 5)) ENTERs written the C way (the site prefixes?)"
x=$(sed -n 's/^ttcap: test: C ENTERs [0-9]*, C EXITs \([0-9]*\)$/\1/p' sparse.out)
[ "$x" -le $((N * 5 / 50)) ] || fail "$x of $((N * 5)) EXITs written the C way (the timed ones?)"
check none TTCAP_CLOCK=none TTCAP_TEST_FENTRY_C=0
check nonc TTCAP_CLOCK=none TTCAP_TEST_FENTRY_C=1
for r in none nonc; do
    "$BD/tests/capture_check" "$T/$r.trc" -b > "$r.hot" || fail "$r: capture_check -b"
done
[ "$(wc -l < none.hot)" -ge $((N * 10)) ] || fail "only $(wc -l < none.hot) records"
cmp -s none.hot nonc.hot || { diff none.hot nonc.hot | head -6; fail "the assembly ENTERs' bytes differ from the C path's"; }
# every call of hit from its caller (the sites decoded: ttdump --sites)
"$BD/ttdump" -n --sites --color never "$T/none.trc" | sed -n -E 's/^ *\+[0-9.]+[a-z]+ +> hit\([0-9]+, ([0-9]+)\) from c([0-9]+)\+0x[0-9a-f]+$/\1 \2/p' > sites
[ "$(wc -l < sites)" = $N ] || { head -5 sites; fail "$(wc -l < sites) of $N calls of hit with a site"; }
awk '$1 != $2 { bad++ } END { exit bad > 0 }' sites || fail "calls of hit with a wrong caller"
check sparsc TTCAP_TEST_PATHS=1 TTCAP_TEST_FENTRY_C=1
for r in sparse sparsc; do
    sed -E 's/^ *(~?)\+[0-9.]+[a-z]+ +/\1 /' "$r.raw" | grep -E '^~? [<>] ' > "$r.marks"
done
cmp -s sparse.marks sparsc.marks || { diff sparse.marks sparsc.marks | head -6; fail "other EXITs read the clock than on the C path"; }
echo "ok: $((N * 5 + N / 8 * 13)) calls, $c ENTERs and $x EXITs the C way, every value right, the same bytes as the C path"
