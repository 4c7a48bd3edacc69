#!/bin/sh
# values_install.sh - capture/VALUES.md's recipe against an installed
# copy: `make install` into a temporary prefix, a program outside the tree
# compiled with `pkg-config --cflags ttcap-values` and linked without -pg,
# one run: the trace has its argument and return value, no gmon.out.
. "$(dirname "$0")/values_lib.inc"
command -v pkg-config > /dev/null || { echo "SKIP: no pkg-config"; exit 77; }
P=$T/prefix
cd "$SRC" || exit 1
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s B="$B" install PREFIX="$P" \
    > "$T/install.log" 2>&1 || { cat "$T/install.log"; fail "make install"; }
cd "$T" || exit 1
[ -f "$P/lib/pkgconfig/ttcap-values.pc" ] || fail "ttcap-values.pc not installed"
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
# gcc's flags that keep functions traced as declared (capture/VALUES.md), and the same without them for clang
has '^Cflags: -I${includedir} -pg -mfentry -fno-inline-functions-called-once -fno-ipa-sra -fno-partial-inlining -fno-ipa-ra$' \
    "$P/lib/pkgconfig/ttcap-values.pc"
[ "$(pkg-config --variable=cflags_clang ttcap-values)" = "-I$P/include -pg -mfentry" ] ||
    fail "cflags_clang: $(pkg-config --variable=cflags_clang ttcap-values)"
# get_b uses one field of the struct it is given: gcc -O2 alone makes it
# get_b.isra.0(int), whose argument and result are not the declared ones
# (not compared); with the Cflags it stays get_b(const struct rec *)
cat > app.c <<'SRC'
#include <stdio.h>
struct rec { long a; int b; char pad[40]; };
__attribute__((noinline)) int twice(int x) { __asm__ volatile("" ::: "memory"); return 2 * x; }
static __attribute__((noinline)) int get_b(const struct rec *r) { return r->b * 3; }
int main(int argc, char **argv)
{
    struct rec r = { 1, argc + 13, {0} };
    (void)argv;
    printf("%d\n", twice(get_b(&r) / 2));
    return 0;
}
SRC
cc -g -O2 ${SAN:-} $(pkg-config --cflags ttcap-values) -c app.c || fail "compile"
cc ${SAN:-} -o app app.o $(pkg-config --libs ttcap-values) -Wl,-rpath,"$P/lib" || fail "link"
TTCAP_OUT=app.trc ./app > app.out || fail "run"
has '^42$' app.out
[ -e gmon.out ] && fail "gmon.out written"
"$P/bin/ttdump" -n --color never app.trc > app.ev || fail "ttdump"
has '> twice(21)$' app.ev
has '< twice = 42$' app.ev
# (an ASan build may still specialise it: get_b.constprop.0, same signature)
has '> get_b\(\.constprop\.[0-9]*\)\{0,1\}(0x[0-9a-f]*)$' app.ev
has '< get_b\(\.constprop\.[0-9]*\)\{0,1\} = 42$' app.ev
cc -g -O2 ${SAN:-} $(pkg-config --variable=cflags_clang ttcap-values) -c app.c -o plain.o || fail "compile"
nm plain.o | grep -q 'get_b\.isra' || echo "note: gcc made no get_b.isra clone without the flags"
echo "ok: values mode from an installed copy with pkg-config"
