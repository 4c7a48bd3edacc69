#!/bin/sh
# values_fentry_asm.sh - __fentry__'s assembly path (cap_fentry.S) writes
# the call-site prefixes itself (SITE_WAY, SITE_NEW: format 1.2) and the
# ENTERs of functions with strings (format 1.6: the string table ttcc
# adds), not the C way, codes the six integer registers (two at a
# time) as the C way does, and the trampoline (cap_tramp.S) the EXITs that
# read the sparse clock. A function of a string every round: a short one,
# one cut, NULL, one that runs into an unmapped page (the read faults
# inside the assembly ENTER's call of C). 30,000 rounds: one of twelve callers, drawn at random
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
# bytes as the C path's (TTCAP_TEST_FENTRY_C=1), with AVX's coding and
# with SSE4.1's (TTCAP_TEST_FENTRY_SSE=1), and every call's site its
# caller (ttdump --sites), with the sparse clock the same untimed marks;
# and (TTCAP_TEST_PATHS=1) no more ENTERs and EXITs written the C way than
# cache misses (the chunks' first calls) and N/100: with the site
# prefixes left to C 26,000 more ENTERs are, with strings 30,000, with the
# timed EXITs 14,000 more EXITs. TTCAP_TEST_FENTRY_C=1 sends the EXITs the
# C way too: the same EXITs read the clock (the untimed marks compared).
# Killed (SIGKILL) right after an ENTER with strings whose word read ran
# past it, the trace ends cleanly there (the leftovers zeroed).
. "$(dirname "$0")/values_lib.inc"

cat > t.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>
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
WORK long named(const char *s, long n) { KEEP(); return (s ? s[0] : 0) + n; }
WORK void killed(const char *s, long n, long a, long b, long c, long d)
{
    KEEP();
    if (s[0] && n == 2 + a + b + c + d)
        kill(getpid(), SIGKILL);
}
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
    static const char *const words[4] = {"alpha", "be", "a word of forty bytes, cut when recorded", NULL};
    static const char *const shown[5] = {"\"alpha\"", "\"be\"", "\"a word of forty bytes, cut when \"\xe2\x80\xa6",
                                         "NULL", "\"abc\"\xe2\x80\xa6 (unreadable after)"};
    char *edge = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    w = argc > 2 ? fopen(argv[2], "w") : NULL;
    if (!w || edge == MAP_FAILED || mprotect(edge + 4096, 4096, PROT_NONE))
        return 2;
    memcpy(edge + 4093, "abc", 3);      /* no NUL before the unmapped page */
    static _Alignas(8) char nine[24] = "abcdefghi\0XXXXXXXXXXXX";
    for (long j = 0; n < 0; j++)        /* killed with its STRINGS record last */
        killed(nine, j, 0, 0, 0, 0);    /* and a 2-byte ENTER (one register
                                           strided): the word read after the
                                           NUL, 6 X, runs past the ENTER */
    for (long i = 0; i < n; i++) {
        unsigned k = (unsigned)(draw() % 16);
        s += callers[k < 12 ? k : k - 12](i);   /* 0..3 twice as often */
        s += i % 8 ? 0 : deep(12);              /* 13 EXITs in a row */
        k = (unsigned)(draw() % 5);
        long v = named(k < 4 ? words[k] : edge + 4093, i);
        fprintf(w, "> named(%s, %ld)\n< named = %ld\n", shown[k], i, v);
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
pg_build t0 t
N=30000
command -v setarch >/dev/null 2>&1 || setarch() { shift 2; "$@"; }
# check NAME [ENV...]: record under ENV, compare every call of hit
check() {
    name=$1; shift
    env "$@" TTCAP_CHUNK_KB=64 TTCAP_OUT="$T/$name.trc" setarch -R ./t $N "$T/$name.want" \
        > "$name.out" 2>&1 || { cat "$name.out"; fail "$name: run"; }
    "$BD/ttdump" -n --color never "$T/$name.trc" > "$name.raw" 2> "$name.err" || { cat "$name.err"; fail "$name: ttdump"; }
    sed -E 's/^ *~?\+[0-9.]+[a-z]+ +//' "$name.raw" | grep -E '^[<>] (hit|six|deep|named)\b' > "$name.got"
    cmp -s "$name.want" "$name.got" || { diff "$name.want" "$name.got" | head -20; fail "$name: values differ"; }
    "$BD/tests/capture_check" "$T/$name.trc" > "$name.cc" || fail "$name: capture_check"
    has '^walk thread=0 events=[0-9]* open=0 maxdepth=14 nesting_errors=0 rc=0$' "$name.cc"
}
check sparse TTCAP_TEST_PATHS=1 TTCAP_TEST_FENTRY_C=0
# the C way's records: only the functions' first calls in a chunk (cache
# misses: tags 0x40, 0x41) and a few more
"$BD/tests/capture_check" "$T/sparse.trc" -b > sparse.hot || fail "sparse: capture_check -b"
me=$(grep -c '^hot [0-9]* 40' sparse.hot); mx=$(grep -cE '^hot [0-9]* (4[78])?41' sparse.hot)
c=$(sed -n 's/^ttcap: test: C ENTERs \([0-9]*\),.*/\1/p' sparse.out)
x=$(sed -n 's/^ttcap: test: C ENTERs [0-9]*, C EXITs \([0-9]*\)$/\1/p' sparse.out)
[ -n "$c" ] && [ -n "$x" ] || { cat sparse.out; fail "no count of the C way's records"; }
# (a CPU without SSE4.1 writes every ENTER the C way, by design: cap_init.c)
if grep -qw sse4_1 /proc/cpuinfo; then
    [ "$c" -le $((me + N / 100)) ] || fail "$c ENTERs written the C way, $me cache misses (the site prefixes? strings?)"
else
    echo "values_fentry_asm: no SSE4.1 here: every ENTER goes the C way, their count not checked"
fi
[ "$x" -le $((mx + N / 100)) ] || fail "$x EXITs written the C way, $mx cache misses (the timed ones?)"
# (the same environment size and names as long in the three runs: the
# same stack addresses)
check none TTCAP_CLOCK=none TTCAP_TEST_PATHS=1 TTCAP_TEST_FENTRY_C=0 TTCAP_TEST_FENTRY_SSE=0
check nonc TTCAP_CLOCK=none TTCAP_TEST_PATHS=1 TTCAP_TEST_FENTRY_C=1 TTCAP_TEST_FENTRY_SSE=0
# the assembly ENTER's way without AVX (SSE4.1 alone, what a CPU without
# AVX takes; TTCAP_TEST_FENTRY_SSE=1 forces it): the same bytes too
check nsse TTCAP_CLOCK=none TTCAP_TEST_PATHS=1 TTCAP_TEST_FENTRY_C=0 TTCAP_TEST_FENTRY_SSE=1
for r in none nonc nsse; do
    "$BD/tests/capture_check" "$T/$r.trc" -b > "$r.hot" || fail "$r: capture_check -b"
done
[ "$(wc -l < none.hot)" -ge $((N * 10)) ] || fail "only $(wc -l < none.hot) records"
cmp -s none.hot nonc.hot || { diff none.hot nonc.hot | head -6; fail "the assembly ENTERs' bytes differ from the C path's"; }
cmp -s nsse.hot nonc.hot || { diff nsse.hot nonc.hot | head -6; fail "the SSE4.1 assembly ENTERs' bytes differ from the C path's"; }
if grep -qw sse4_1 /proc/cpuinfo; then
    for r in none nsse; do
        c2=$(sed -n 's/^ttcap: test: C ENTERs \([0-9]*\),.*/\1/p' $r.out)
        m2=$(grep -c '^hot [0-9]* 40' $r.hot)
        [ -n "$c2" ] && [ "$c2" -le $((m2 + N / 100)) ] || fail "$r: ${c2:-no count of} ENTERs written the C way, $m2 cache misses"
    done
fi
# every call of hit from its caller (the sites decoded: ttdump --sites)
"$BD/ttdump" -n --sites --color never "$T/none.trc" | sed -n -E 's/^ *\+[0-9.]+[a-z]+ +> hit\([0-9]+, ([0-9]+)\) from c([0-9]+)\+0x[0-9a-f]+$/\1 \2/p' > sites
[ "$(wc -l < sites)" = $N ] || { head -5 sites; fail "$(wc -l < sites) of $N calls of hit with a site"; }
awk '$1 != $2 { bad++ } END { exit bad > 0 }' sites || fail "calls of hit with a wrong caller"
# SIGKILL right after an ENTER with strings: the string reads' leftover
# bytes past it are zeroed, so the trace ends cleanly at that ENTER
for k in none sparse; do
    TTCAP_CLOCK=$k TTCAP_OUT="$T/k.trc" ./t -1 "$T/k.want" > k.out 2>&1
    "$BD/ttdump" -n --color never "$T/k.trc" > k.raw 2> k.err || { cat k.err; fail "killed $k: ttdump"; }
    [ -s k.err ] && { cat k.err; fail "killed $k: ttdump complains"; }
    tail -1 k.raw | grep -q '> killed("abcdefghi", 2, 0, 0, 0, 0)$' || { tail -3 k.raw; fail "killed $k: not the last event"; }
    "$BD/tests/capture_check" "$T/k.trc" > k.cc 2>&1 || { cat k.cc; fail "killed $k: capture_check"; }
    rm -f "$T/k.trc"
done
check sparsc TTCAP_TEST_PATHS=1 TTCAP_TEST_FENTRY_C=1
marks_same sparse sparsc
echo "ok: $((N * 6 + N / 8 * 13)) calls, $c ENTERs and $x EXITs the C way, every value right, the same bytes as the C path"
