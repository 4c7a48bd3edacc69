#!/bin/sh
# values_install.sh - the README's values-mode recipe against an installed
# copy: `make install` into a temporary prefix, a program outside the tree
# compiled with `pkg-config --cflags ttcap-values` and linked without -pg,
# one run: the trace has its argument and return value, no gmon.out.
. "$(dirname "$0")/values_lib.inc"
command -v pkg-config > /dev/null || { echo "skip: no pkg-config"; exit 0; }
P=$T/prefix
cd "$SRC" || exit 1
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s B="$B" install PREFIX="$P" \
    > "$T/install.log" 2>&1 || { cat "$T/install.log"; fail "make install"; }
cd "$T" || exit 1
[ -f "$P/lib/pkgconfig/ttcap-values.pc" ] || fail "ttcap-values.pc not installed"
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
has '^Cflags: -I${includedir} -pg -mfentry$' "$P/lib/pkgconfig/ttcap-values.pc"
cat > app.c <<'SRC'
#include <stdio.h>
__attribute__((noinline)) int twice(int x) { __asm__ volatile("" ::: "memory"); return 2 * x; }
int main(void) { printf("%d\n", twice(21)); return 0; }
SRC
cc -g -O2 ${SAN:-} $(pkg-config --cflags ttcap-values) -c app.c || fail "compile"
cc ${SAN:-} -o app app.o $(pkg-config --libs ttcap-values) -Wl,-rpath,"$P/lib" || fail "link"
TTCAP_OUT=app.trc ./app > app.out || fail "run"
has '^42$' app.out
[ -e gmon.out ] && fail "gmon.out written"
"$P/bin/ttdump" -n --color never app.trc > app.ev || fail "ttdump"
has '> twice(21)$' app.ev
has '< twice = 42$' app.ev
echo "ok: values mode from an installed copy with pkg-config"
