#!/bin/sh
# ttdiff_inlined.sh - calls that one build's inlining made visible
# (diff/inlined.c, TTD_TIMING_INLINED). A C++ class template whose
# members are defined in its header is instantiated once in an untraced
# shared library (libpiece.so: `template struct Piece<char>`), and the
# program sees `extern template struct Piece<char>`, as libstdc++'s
# std::string is. Build A (-fno-inline) calls the library's
# Piece<char>::len: no events. Build B inlines it, and -finstrument-
# functions traces the inlined copy under the library's address. Both
# print "ok 23". ttdiff A B: the five extra calls are the builds'
# inlining, listed as "inlined", no divergence, exit 0, verdict "same"
# (JSON: timing_kind "inlined", verdict.hidden kind "build"). Build BUG
# (B with a wrong threshold in check()): the first divergence is the
# real one (report_bad), the inlined calls listed apart. Must not: build
# SOME, where measure() calls Piece<char>::len on some inputs only: not
# every call of measure made it, so the difference stays a divergence.
B=${1:-build}
. "$(dirname "$0")/example_lib.inc"
CXX=$(command -v g++ || command -v clang++) || { echo "skip: no C++ compiler"; exit 0; }
san=
ldd "$BD/libttcap.so" | grep -q libasan && san="-fsanitize=address,undefined"

cat > "$T/piece.hpp" <<'SRC'
template <class T> struct Piece {
    static int len(const T *s)
    {
        int n = 0;
        while (s[n] && s[n] != ' ')
            n++;
        return n;
    }
};
extern template struct Piece<char>;
SRC
printf '#include "piece.hpp"\ntemplate struct Piece<char>;\n' > "$T/libpiece.cpp"
cat > "$T/app.cpp" <<'SRC'
#include <stdio.h>
#include "piece.hpp"
static const char *words[] = {"alpha", "be", "gamma", "x", "delta"};
__attribute__((noinline)) int measure(const char *s)
{
#ifdef SOMETIMES
    if (s[0] == 'x')
        return 2;
#endif
    return Piece<char>::len(s) + 1;
}
__attribute__((noinline)) int check(int total)
{
#ifdef BUG
    return total > 20;
#else
    return total > 30;
#endif
}
__attribute__((noinline)) void report_bad(int t) { printf("bad %d\n", t); }
int main(void)
{
    int t = 0;
    for (int i = 0; i < 5; i++)
        t += measure(words[i]);
    if (check(t)) {
        report_bad(t);
        return 1;
    }
    printf("ok %d\n", t);
    return 0;
}
SRC
"$CXX" -O2 -g -fPIC -shared -o "$T/libpiece.so" "$T/libpiece.cpp" || fail "build libpiece.so"
# each build is recorded at one path, $T/app: the earlier builds survive
# as libttcap's copies in the trace folder's .build-id store
for v in A B BUG SOME; do
    case $v in A) fl=-fno-inline ;; B) fl= ;; BUG) fl=-DBUG ;; SOME) fl=-DSOMETIMES ;; esac
    "$CXX" -g -O2 $san $fl -finstrument-functions -I"$T" -Icapture -o "$T/app.new" "$T/app.cpp" \
        -L"$T" -lpiece -L"$BD" -lttcap -Wl,-rpath,"$BD" -Wl,-rpath,"$T" || fail "build $v"
    mv "$T/app.new" "$T/app"
    rec "$v.trc" "$T/app"
done
has '^ok 23$' "$T/A.trc.out"
has '^ok 23$' "$T/B.trc.out"
has '^bad 23$' "$T/BUG.trc.out"
# the build inlined Piece<char>::len with the tracing hooks: its calls are
# in B's trace and not in A's (else this test proves nothing)
"$TTDUMP" "$T/B.trc" > "$T/dumpB" 2>&1 || true
has 'Piece<char>::len' "$T/dumpB"
"$TTDUMP" "$T/A.trc" > "$T/dumpA" 2>&1 || true
grep -q 'Piece<char>::len' "$T/dumpA" && fail "build A traced Piece<char>::len: not inlined"

diffrun 0 "$T/A.trc" "$T/B.trc"
has '^verdict: same: no divergence in 1 thread pair; not counted: how the two builds inlined library code$' "$T/out"
has "^the builds' inlining (calls one build alone traced, not divergences): 5$" "$T/out"
has '+ enter Piece<char>::len(char const\*)  (inlined: one build inlined a traced copy' "$T/out"
diffrun 0 --format json "$T/A.trc" "$T/B.trc"
json "$T/out" '
assert d["diverged"] is False, d["diverged"]
assert d["verdict"]["status"] == "same", d["verdict"]["status"]
hs = d["hunks"]
assert [h["timing_kind"] for h in hs] == ["inlined"] * 5, hs
kinds = {h["kind"] for h in d["verdict"]["hidden"]}
assert kinds == {"build"}, kinds
'
diffrun 0 --format html "$T/A.trc" "$T/B.trc"
has 'how the two builds inlined library code' "$T/out"

# a real difference besides: the first divergence is it
diffrun 1 "$T/A.trc" "$T/BUG.trc"
has '^  symptom: the calls part in `main`: only the bad run calls `report_bad(int)`' "$T/out"
has "^the builds' inlining (calls one build alone traced, not divergences): 5$" "$T/out"
diffrun 1 --format json "$T/A.trc" "$T/BUG.trc"
json "$T/out" '
assert f["frames"][-1]["function"] == "main", f["frames"]
assert [h["timing_kind"] for h in d["hunks"] if h["timing"]] == ["inlined"] * 5, d["hunks"]
'

# must not: a call measure() makes on some inputs only
diffrun 1 "$T/A.trc" "$T/SOME.trc"
has '^  symptom: the calls part in `measure(char const\*)`: only the bad run calls `Piece<char>::len(char const\*)`' "$T/out"
grep -q 'inlined: one build' "$T/out" && fail "a call made on some inputs only hidden as inlining"
echo ok
