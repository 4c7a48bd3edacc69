#!/bin/sh
# ttdiff_innerscope.sh - code changed between two builds, named by the
# innermost changed scope (issue 33). Two small programs, each built
# twice at -O2 with one source edit:
# - split: scale() is edited, and the bad build inlines it into outer()
#   (untraced, no symbol of its own) while the good build calls it out of
#   line: outer's machine code differs, its source does not; scale is
#   compared with the good build's own copy, and the verdict names it,
#   a function of its own: "the code of `scale` changed".
# - nested: step(), a GNU C nested function defined inside walk(), is
#   edited; both are inlined into holder(): walk's text differs only by
#   step's lines, so the change is step's, inlined into holder.
# Text, JSON (verdict.cause) and HTML.
B=${1:-build}
. "$(dirname "$0")/example_lib.inc"
export LD_LIBRARY_PATH="$BD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
command -v cc > /dev/null 2>&1 || { echo "skip: no cc"; exit 77; }
SAN=""   # a sanitizer build's libttcap needs the program built likewise
ldd "$BD/libttcap.so" 2>/dev/null | grep -q libasan && SAN="-fsanitize=address,undefined"

# build DIR: $T/DIR/app.c (written by the caller) into $T/DIR/app
build() {
    cc -std=gnu11 -g -O2 $SAN -finstrument-functions -fno-plt -Icapture -o "$T/$1/app" \
        "$T/$1/app.c" -L"$BD" -lttcap -Wl,-rpath,"$BD" || fail "cc $1"
}

# split DIR HOW BODY: scale declared as HOW, returning BODY
split() {
    mkdir -p "$T/$1"
    cat > "$T/$1/app.c" <<EOF2
#include <stdio.h>
#define NI __attribute__((no_instrument_function))
#define HOW $2
HOW int scale(int x)
{
    return $3;
}
__attribute__((noipa)) static int outer(int x)
{
    return scale(x) + 1;
}
__attribute__((noipa)) static void report(int t) { printf("total %d\n", t); }
int main(void)
{
    int t = 0;
    for (int i = 0; i < 4; i++)
        t += outer(i);
    report(t);
    return t != 22;
}
EOF2
    build "$1"
}
split a 'static __attribute__((noipa))' 'x * 3'
split b 'static inline __attribute__((always_inline)) NI' 'x * 5'
rec a.trc "$T/a/app"
[ "$rc" = 0 ] || fail "split a: exit $rc"
rec b.trc "$T/b/app"
[ "$rc" = 1 ] || fail "split b: exit $rc"
diffrun 1 "$T/a.trc" "$T/b.trc"
has '^verdict: diverged: [a-z]* cause: the code of `scale` changed' "$T/out"
grep -q '^verdict: .*(inlined into' "$T/out" && fail "scale named by where it is inlined"
has "^  cause: \`scale\`'s source differs between the two builds, the only source that does; a function of its own, the compiler inlined it into \`outer\`" "$T/out"
diffrun 1 --format json "$T/a.trc" "$T/b.trc"
json "$T/out" '
c = d["verdict"]["cause"]
assert c["kind"] == "code_changed" and c["function"] == "scale" and c.get("inlined") is None, c'
diffrun 1 --format html "$T/a.trc" "$T/b.trc"
has 'cause: the code of `scale` changed</p>' "$T/out"

# nested DIR BODY: step returning BODY
nested() {
    mkdir -p "$T/$1"
    cat > "$T/$1/app.c" <<EOF2
#include <stdio.h>
#define NI __attribute__((no_instrument_function))
#define AI __attribute__((always_inline)) inline
__attribute__((noipa)) int tail(int x) { return x - 1; }
static AI NI int walk(int x)
{
    NI AI int step(int y)
    {
        return $2;
    }
    return step(x) + step(x + 1);
}
__attribute__((noipa)) static int holder(int x)
{
    return walk(x) + 1;
}
__attribute__((noipa)) static void mismatch(int t) { printf("total %d\n", t); }
int main(void)
{
    int t = 0;
    for (int i = 0; i < 4; i++)
        t += holder(i);
    if (t != 28)
        mismatch(t);
    return t != 28;
}
EOF2
    build "$1"
}
nested na 'tail(y) * 3'
nested nb 'tail(y) * 5'
rec na.trc "$T/na/app"
[ "$rc" = 0 ] || fail "nested a: exit $rc"
rec nb.trc "$T/nb/app"
[ "$rc" = 1 ] || fail "nested b: exit $rc"
diffrun 1 "$T/na.trc" "$T/nb.trc"
has '^verdict: diverged: [a-z]* cause: the code of `step` changed (inlined into `holder`)' "$T/out"
diffrun 1 --format json "$T/na.trc" "$T/nb.trc"
json "$T/out" '
c = d["verdict"]["cause"]
assert c["kind"] == "code_changed" and c["function"] == "holder" and c["inlined"] == "step", c'
diffrun 1 --format html "$T/na.trc" "$T/nb.trc"
has 'cause: the code of `step` changed (inlined into `holder`)</p>' "$T/out"
echo ok
