#!/bin/sh
# install_projects.sh - an outside project built three ways against an
# installed tree (make install into a temporary prefix): a Makefile with the
# pkg-config flags in LDFLAGS before the objects under -Wl,--as-needed,
# CMake with find_package(ttcap) (capture/INSTRUMENT.md's example, and the static
# target), and a plain cc line. Each build records a trace that names its functions; each result is
# printed (and kept in the log when the test fails).
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
command -v pkg-config > /dev/null || { echo "SKIP: no pkg-config"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P=$T/prefix
fail() { echo "FAIL: $*"; exit 1; }
san=${SAN:-}

env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s B="$B" install PREFIX="$P" \
    > "$T/install.log" 2>&1 || { cat "$T/install.log"; fail "make install"; }
for f in lib/cmake/ttcap/ttcapConfig.cmake lib/cmake/ttcap/ttcapConfigVersion.cmake; do
    [ -f "$P/$f" ] || fail "not installed: $f"
done
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
ver=$(pkg-config --modversion ttcap)
[ "$ver" = "$("$P/bin/ttdump" --version | sed -n 's/^ttdump \([0-9.]*\).*/\1/p')" ] ||
    fail "ttcap.pc version $ver is not ttdump's"

mkdir "$T/src"
cat > "$T/src/app.c" <<'SRC'
#include <stdio.h>
#include <ttcap.h>
#include "calc.h"
int main(void)
{
    TT_LOG(TTCAP_INFO, "start");
    printf("%d\n", calc(4));
    return 0;
}
SRC
cat > "$T/src/calc.h" <<'SRC'
int calc(int n);
SRC
cat > "$T/src/calc.c" <<'SRC'
#include "calc.h"
static int square(int x) { return x * x; }
int calc(int n) { int s = 0; for (int i = 0; i < n; i++) s += square(i); return s; }
SRC
cat > "$T/src/Makefile" <<'MK'
# the way build systems pass flags: LDFLAGS before the objects
CFLAGS += -g $(SAN) $(shell pkg-config --cflags ttcap)
LDFLAGS += -Wl,--as-needed $(shell pkg-config --libs ttcap) -Wl,-rpath,$(PREFIX)/lib
app: app.o calc.o
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ app.o calc.o $(LDLIBS)
MK
# capture/INSTRUMENT.md's CMake example, as it is written there, plus a static twin
{
    printf 'cmake_minimum_required(VERSION 3.13)\nproject(outside C)\n'
    sed -n '/^```cmake$/,/^```$/p' capture/INSTRUMENT.md | sed '1d;$d'
    printf 'add_executable(app_static app.c calc.c)\n'
    printf 'target_link_libraries(app_static PRIVATE ttcap::ttcap_static)\n'
} > "$T/src/CMakeLists.txt"
grep -q '^find_package(ttcap' "$T/src/CMakeLists.txt" || fail "no CMake example in capture/INSTRUMENT.md"

# run the program $1, named $2 in the results: it records, ttdump names
check() {
    (cd "$(dirname "$1")" && TTCAP_OUT="$T/$2.trc" "$1" > "$T/$2.out" 2> "$T/$2.err") ||
        fail "$2: run"
    [ "$(cat "$T/$2.out")" = 14 ] || fail "$2: output $(cat "$T/$2.out")"
    [ ! -s "$T/$2.err" ] || { cat "$T/$2.err"; fail "$2: stderr"; }
    "$P/bin/ttdump" "$T/$2.trc" > "$T/$2.dump" || fail "$2: ttdump"
    for f in main calc square; do
        grep -q "> $f\$" "$T/$2.dump" || { head -20 "$T/$2.dump"; fail "$2: no $f"; }
    done
    grep -q 'log: start$' "$T/$2.dump" || fail "$2: no message"
    echo "$2: ok ($(grep -c '> ' "$T/$2.dump") calls)"
}

# 1. Makefile, LDFLAGS before the objects, --as-needed
cp -r "$T/src" "$T/mk"
env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$T/mk" PREFIX="$P" SAN="$san" \
    > "$T/mk.log" 2>&1 || { cat "$T/mk.log"; fail "Makefile build"; }
ldd "$T/mk/app" | grep -q "libttcap.so.1 => $P/lib/" || { ldd "$T/mk/app"; fail "makefile: libttcap not linked"; }
check "$T/mk/app" makefile

# 2. CMake, find_package(ttcap), --as-needed in CMAKE_EXE_LINKER_FLAGS
if command -v cmake > /dev/null; then
    (cd "$T/src" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL cmake -S . -B "$T/cm" \
        -DCMAKE_PREFIX_PATH="$P" -DCMAKE_C_FLAGS="-g $san" \
        -DCMAKE_EXE_LINKER_FLAGS="-Wl,--as-needed $(if [ -n "$san" ]; then echo -lubsan; fi)" \
        && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL cmake --build "$T/cm") \
        > "$T/cm.log" 2>&1 || { cat "$T/cm.log"; fail "CMake build"; }
    ldd "$T/cm/app" | grep -q "libttcap.so.1 => $P/lib/" || { ldd "$T/cm/app"; fail "cmake: libttcap not linked"; }
    check "$T/cm/app" cmake
    check "$T/cm/app_static" cmake_static
else
    echo "SKIP part: cmake (not installed)"
fi

# 3. plain cc, capture/INSTRUMENT.md's line
(cd "$T/src" && cc -g $san $(pkg-config --cflags ttcap) -o "$T/app_cc" app.c calc.c \
    $(pkg-config --libs ttcap) -Wl,-rpath,"$P/lib") || fail "cc build"
check "$T/app_cc" cc
echo ok
