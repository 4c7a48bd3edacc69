#!/bin/sh
# ttdiff_inlchange.sh - two builds (-O2) of a small program whose only
# source edit is in bucket(), a function the compiler inlines into
# insert() and that has no symbol of its own (untraced, as -pg leaves
# inlined code): only insert()'s machine code differs, its own source is
# the same. The verdict names the change by the inlined callee, with the
# function where it sits: "the code of `bucket` changed (inlined into
# `insert`)", in text, JSON (verdict.cause.inlined) and HTML (issue 33).
B=${1:-build}
. "$(dirname "$0")/example_lib.inc"
export LD_LIBRARY_PATH="$BD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
command -v cc > /dev/null 2>&1 || { echo "skip: no cc"; exit 77; }
SAN=""   # a sanitizer build's libttcap needs the program built likewise
ldd "$BD/libttcap.so" 2>/dev/null | grep -q libasan && SAN="-fsanitize=address,undefined"

src() {
    mkdir -p "$T/$1"
    cat > "$T/$1/app.c" <<EOF2
#include <stdio.h>
#define NI __attribute__((no_instrument_function))
static inline __attribute__((always_inline)) NI unsigned bucket(const char *k)
{
    unsigned h = 5381;
    $2
    return h % 8;
}
static int used[8];
__attribute__((noinline)) static int insert(const char *k)
{
    unsigned b = bucket(k);
    if (used[b])
        return -1;
    used[b] = 1;
    return (int)b;
}
__attribute__((noinline)) static void collide(const char *k) { printf("collision %s\n", k); }
int main(void)
{
    static const char *keys[] = {"user1", "user2", "user3"};
    int bad = 0;
    for (int i = 0; i < 3; i++)
        if (insert(keys[i]) < 0) {
            collide(keys[i]);
            bad = 1;
        }
    return bad;
}
EOF2
    cc -std=gnu11 -g -O2 $SAN -finstrument-functions -fno-plt -Icapture -o "$T/$1/app" "$T/$1/app.c" \
        -L"$BD" -lttcap -Wl,-rpath,"$BD" || fail "cc $1"
}
src a 'for (; *k; k++) h = h * 33 + (unsigned char)*k;'
src b 'for (int i = 0; i < 4 && k[i]; i++) h = h * 33 + (unsigned char)k[i];'
rec a.trc "$T/a/app"
[ "$rc" = 0 ] || fail "build a: exit $rc"
rec b.trc "$T/b/app"
[ "$rc" = 1 ] || fail "build b: exit $rc"

diffrun 1 "$T/a.trc" "$T/b.trc"
# (ASan's module constructors, _sub_I_* and _sub_D_*, differ too in a sanitizer build)
if [ -z "$SAN" ]; then
    has '^changed between the builds: insert (of [0-9]* functions in both)$' "$T/out"
else
    has '^changed between the builds: \(_sub_[A-Z]_[0-9_]*, \)*insert (of [0-9]* functions in both)$' "$T/out"
fi
has '^verdict: diverged: [a-z]* cause: the code of `bucket` changed (inlined into `insert`)' "$T/out"
has "^  cause: \`bucket\`'s source differs between the two builds, the only source that does; the compiler inlined it into \`insert\`" "$T/out"
diffrun 1 --format json "$T/a.trc" "$T/b.trc"
json "$T/out" '
c = d["verdict"]["cause"]
assert c["kind"] == "code_changed" and c["function"] == "insert" and c["inlined"] == "bucket", c'
diffrun 1 --format html "$T/a.trc" "$T/b.trc"
has 'cause: the code of `bucket` changed (inlined into `insert`)</p>' "$T/out"
echo ok
