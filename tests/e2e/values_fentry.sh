#!/bin/sh
# values_fentry.sh - __fentry__'s assembly path (cap_fentry.S: the usual
# ENTER, written without calling C) records what the C path records.
# 20,000 rounds of calls whose arguments the program writes down itself:
# six integer arguments that stay, count, square, go down, jump at random
# (8-byte values) and alternate; two more functions of two arguments; a
# double argument every 7th round and eight of them twice every 3rd
# round, one changed between the two (the SSE registers' record); a const char * every
# 11th. In 64 KiB chunks (the C way at each chunk's
# first calls), with each clock (sparse, every, none: the assembly path
# writes the time delta or not) and with the string table ttcc --values
# adds (every ENTER then looks its function up in it; the string function
# goes the C way). Every argument and result of every call is compared
# with what the program passed, the nesting checked by capture_check, and
# the records' bytes with the C path's (TTCAP_TEST_FENTRY_C=1).
. "$(dirname "$0")/values_lib.inc"

cat > t.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#define KEEP() __asm__ volatile("" ::: "memory")
#define WORK __attribute__((noinline, noclone))
WORK long six(long a, long b, long c, long d, long e, long f) { KEEP(); return a ^ b ^ c ^ d ^ e ^ f; }
WORK long two(long a, long b) { KEEP(); return a - b; }
WORK long pair(long a, long b) { long r = two(b, a); KEEP(); return r + 1; }
WORK double mix(double x, long n) { KEEP(); return x * n; }
WORK long named(const char *s, long n) { KEEP(); return s[0] + n; }
WORK double eight(double a, double b, double c, double d, double e, double f, double g, double h)
{
    KEEP();
    return a + 2 * b + 3 * c + 4 * d + 5 * e + 6 * f + 7 * g + 8 * h;
}
int main(int argc, char **argv)
{
    long n = argc > 2 ? atol(argv[1]) : 0, s = 0;
    unsigned long r = 12345;
    double xs[8] = {0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5};
    FILE *w = argc > 2 ? fopen(argv[2], "w") : NULL;
    if (!w)
        return 2;
    for (long i = 0; i < n; i++) {
        long a[6] = {i, 7, i * i, -3 * i, 0, (i & 1) ? 1L << 40 : 0}, v;
        r = r * 6364136223846793005ul + 1442695040888963407ul;
        a[4] = (long)r;
        v = six(a[0], a[1], a[2], a[3], a[4], a[5]);
        fprintf(w, "> six(%ld, %ld, %ld, %ld, %ld, %ld)\n< six = %ld\n", a[0], a[1], a[2], a[3], a[4], a[5], v);
        long x = (long)(r >> 20), y = i % 5 == 0 ? -i : i;
        v = pair(x, y);
        fprintf(w, "> pair(%ld, %ld)\n> two(%ld, %ld)\n< two = %ld\n< pair = %ld\n", x, y, y, x, y - x, v);
        if (i % 7 == 0) {
            double d = mix(0.25 * (double)i, i);
            fprintf(w, "> mix(%.17g, %ld)\n< mix = %.17g\n", 0.25 * (double)i, i, d);
        }
        if (i % 11 == 0) {
            const char *t = i % 2 ? "ab" : "cd";
            v = named(t, i);
            fprintf(w, "> named(%p, %ld)\n< named = %ld\n", (const void *)t, i, v);
        }
        for (int k = 0; k < 2 && i % 3 == 0; k++) {    /* the second call: */
            xs[i / 3 % 8] += 0.25;                  /* one SSE register changed */
            double e = eight(xs[0], xs[1], xs[2], xs[3], xs[4], xs[5], xs[6], xs[7]);
            fprintf(w, "> eight(%.17g, %.17g, %.17g, %.17g, %.17g, %.17g, %.17g, %.17g)\n"
                    "< eight = %.17g\n", xs[0], xs[1], xs[2], xs[3], xs[4], xs[5], xs[6], xs[7], e);
        }
        s += v;
    }
    fclose(w);
    printf("%ld\n", s);
    return 0;
}
C
pg_build t ts
N=20000
# check NAME PROG [ENV...]: record PROG under ENV, compare every call
check() {
    name=$1; prog=$2; shift 2
    env "$@" TTCAP_CHUNK_KB=64 TTCAP_OUT="$T/$name.trc" setarch -R "./$prog" $N "$T/$name.want" \
        > "$name.out" 2>&1 || { cat "$name.out"; fail "$name: run"; }
    "$BD/ttdump" -n --color never "$T/$name.trc" > "$name.raw" 2> "$name.err" || { cat "$name.err"; fail "$name: ttdump"; }
    sed -E 's/^ *~?\+[0-9.]+[a-z]+ +//' "$name.raw" | grep -E '^[<>] (six|two|pair|mix|named|eight)\b' |
        sed -E 's/^> named\(("(ab|cd)"|0x[0-9a-f]+), /> named(STR, /' > "$name.got"
    sed -E 's/^> named\(0x[0-9a-f]+, /> named(STR, /' "$name.want" > "$name.exp"
    cmp -s "$name.exp" "$name.got" || { diff "$name.exp" "$name.got" | head -20; fail "$name: values differ"; }
    "$BD/tests/capture_check" "$T/$name.trc" > "$name.cc" || fail "$name: capture_check"
    has '^walk thread=0 events=[0-9]* open=0 maxdepth=3 nesting_errors=0 rc=0$' "$name.cc"
    has '^clock thread=0 hot=[0-9]* untimed=[0-9]* backwards=0 past_bound=0$' "$name.cc"
    chunks=$("$BD/ttdump" -s "$T/$name.trc" | sed -n 's/^ *chunks: *\([0-9]*\) total.*/\1/p')
    [ "${chunks:-0}" -ge 10 ] || fail "$name: only ${chunks:-0} chunks"
}
command -v setarch >/dev/null 2>&1 || setarch() { shift 2; "$@"; }
check sparse t TTCAP_TEST_FENTRY_C=0
check every t TTCAP_CLOCK=every
check none t TTCAP_CLOCK=none TTCAP_TEST_FENTRY_C=0
check table ts
# the same bytes as the C path (TTCAP_TEST_FENTRY_C=1: every ENTER the C
# way), record by record, without a clock and without ASLR, so that the
# two runs pass the same values (the same environment's size, names of
# the same length): the tie rule of the mask, the deltas' coding, the
# function cache and the call sites, not only the values
check nonc t TTCAP_CLOCK=none TTCAP_TEST_FENTRY_C=1
for r in none nonc; do
    "$BD/tests/capture_check" "$T/$r.trc" -b > "$r.hot" || fail "$r: capture_check -b"
done
[ "$(wc -l < none.hot)" -ge $((N * 6)) ] || fail "only $(wc -l < none.hot) records"
cmp -s none.hot nonc.hot || { diff none.hot nonc.hot | head -6; fail "the assembly ENTERs' bytes differ from the C path's"; }
# with the sparse clock the same EXITs read it (the ENTER's count of
# events per frame, cap_enter_count, decides which): the untimed marks
# (sparse and sparsc: names of one length, so that without ASLR both runs
# see the same stack addresses, whatever folder the tests run in)
check sparsc t TTCAP_TEST_FENTRY_C=1
marks_same sparse sparsc
"$BD/ttdump" "$T/sparse.trc" | grep -q '^  required features:.*lazy-chain' || fail "sparse: not a chain-clock trace"
# the chain rule at work: untimed ENTERs right after untimed ENTERs
nchain=$(awk '/^~ >/ && p { n++ } { p = $0 ~ /^~ >/ } END { print n + 0 }' sparse.marks)
[ "$nchain" -gt $((N / 10)) ] || fail "sparse: $nchain untimed ENTERs after an untimed ENTER"
# the lazy clock (TTCAP_CLOCK=lazy, format 1.8's values chunks) likewise
check lazyf t TTCAP_CLOCK=lazy TTCAP_TEST_FENTRY_C=0
check lazyc t TTCAP_CLOCK=lazy TTCAP_TEST_FENTRY_C=1
marks_same lazyf lazyc
[ "$(grep -c '^~' sparse.marks)" -gt $((N * 2)) ] || fail "too few untimed EXITs"
grep -q '> named("cd", 0)$' table.raw || fail "table: no string recorded for named"
[ "$(grep -c '> named("' table.raw)" = $(((N + 10) / 11)) ] || fail "table: not every named call has its string"
grep -q '> named("' sparse.raw && fail "sparse: a string without the table"
echo "ok: $((N * 6)) calls in 7 recordings (4 clocks, a string table, the C path), every argument and result right, the same bytes as the C path"
