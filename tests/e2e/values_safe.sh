#!/bin/sh
# values_safe.sh - values mode (-pg -mfentry) cannot fail silently (issue
# 23): against an installed tree, ttcap-values.pc's --libs in LDFLAGS
# before the objects under -Wl,--as-needed still link libttcap; CMake's
# ttcap::values target compiles with -pg -mfentry and links without -pg;
# ttrec preloads libttcap into a -pg -mfentry program linked without it;
# a -pg -mfentry program whose __fentry__ is bound to glibc's while
# libttcap is loaded gets one line on stderr when TTCAP_OUT is set (and a
# plain mode program whose hooks are bound so, as before). Each
# traced run records calc's argument and return value.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
BD=$(cd "$B" && pwd)
[ "$(uname -m)" = x86_64 ] || { echo "SKIP: values mode is x86-64 only"; exit 77; }
command -v pkg-config > /dev/null || { echo "SKIP: no pkg-config"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
P=$T/prefix
fail() { echo "FAIL: $*"; exit 1; }
san=${SAN:-}
unset MAKEFLAGS MFLAGS MAKELEVEL

make -s B="$B" install PREFIX="$P" > "$T/install.log" 2>&1 ||
    { cat "$T/install.log"; fail "make install"; }
export PKG_CONFIG_PATH="$P/lib/pkgconfig"
pkg-config --libs ttcap-values | grep -q -- '--no-as-needed -lttcap' ||
    fail "ttcap-values.pc: $(pkg-config --libs ttcap-values)"
[ "$(pkg-config --modversion ttcap-values)" = "$(pkg-config --modversion ttcap)" ] ||
    fail "ttcap-values.pc version"

mkdir "$T/src"
cat > "$T/src/calc.c" <<'SRC'
__attribute__((noinline)) int calc(int n) { return n * n - 2; }
SRC
cat > "$T/src/app.c" <<'SRC'
#include <stdio.h>
int calc(int n);
int main(void) { printf("%d\n", calc(4)); return 0; }
SRC
cat > "$T/src/Makefile" <<'MK'
CFLAGS += -g -O2 $(SAN) $(shell pkg-config --cflags ttcap-values)
LDFLAGS += -Wl,--as-needed $(SAN) $(shell pkg-config --libs ttcap-values) -Wl,-rpath,$(PREFIX)/lib
app: app.o calc.o
	$(CC) $(LDFLAGS) -o $@ app.o calc.o
MK
cat > "$T/src/CMakeLists.txt" <<'MK'
cmake_minimum_required(VERSION 3.13)
project(vals C)
find_package(ttcap REQUIRED)
add_executable(app app.c calc.c)
target_link_libraries(app PRIVATE ttcap::values)
MK

# check NAME PROG [RUNNER...]: record PROG, want calc's values, a quiet run
check() {
    name=$1 prog=$2; shift 2
    mkdir "$T/run.$name"
    (cd "$T/run.$name" && TTCAP_OUT="$T/$name.trc" "$@" "$prog" > out 2> err) ||
        { cat "$T/run.$name/err"; fail "$name: run"; }
    [ "$(cat "$T/run.$name/out")" = 14 ] || fail "$name: output"
    [ ! -e "$T/run.$name/gmon.out" ] || fail "$name: gmon.out (linked with -pg)"
    "$P/bin/ttdump" -n "$T/$name.trc" > "$T/$name.dump" 2>&1 || fail "$name: ttdump"
    grep -q '> calc(4)$' "$T/$name.dump" && grep -q '< calc = 14$' "$T/$name.dump" ||
        { head -20 "$T/$name.dump"; fail "$name: no values"; }
    echo "$name: ok"
}

# 1. pkg-config, LDFLAGS before the objects, --as-needed
cp -r "$T/src" "$T/mk"
make -s -C "$T/mk" PREFIX="$P" SAN="$san" > "$T/mk.log" 2>&1 || { cat "$T/mk.log"; fail "make"; }
check pkgconfig "$T/mk/app"
[ ! -s "$T/run.pkgconfig/err" ] || { cat "$T/run.pkgconfig/err"; fail "pkgconfig: stderr"; }

# 2. CMake, ttcap::values, --as-needed
if command -v cmake > /dev/null; then
    cmake -S "$T/src" -B "$T/cm" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_C_FLAGS="-g -O2 $san" \
        -DCMAKE_EXE_LINKER_FLAGS="-Wl,--as-needed $san" > "$T/cm.log" 2>&1 &&
        cmake --build "$T/cm" -- VERBOSE=1 >> "$T/cm.log" 2>&1 || { cat "$T/cm.log"; fail "cmake"; }
    grep -q ' -pg -mfentry .*-c ' "$T/cm.log" || { cat "$T/cm.log"; fail "cmake: no -pg compile"; }
    # gcc gets values mode's flags as from ttcap-values.pc (capture/VALUES.md)
    if cc --version 2>/dev/null | grep -qi 'gcc\|free software'; then
        grep -q -- ' -pg -mfentry -fno-inline-functions-called-once -fno-ipa-sra -fno-partial-inlining -fno-ipa-ra .*-c ' "$T/cm.log" ||
            { cat "$T/cm.log"; fail "cmake: no values gcc flags"; }
    fi
    grep -- '-o app ' "$T/cm.log" | grep -q -- ' -pg' && fail "cmake: -pg on the link"
    check cmake "$T/cm/app"
    [ ! -s "$T/run.cmake/err" ] || { cat "$T/run.cmake/err"; fail "cmake: stderr"; }
else
    echo "cmake: SKIP (not installed)"
fi

# 3. ttrec preloads libttcap into a -pg -mfentry program linked without it
# (not with an ASan build of libttcap: preloaded, it would come before the
# ASan runtime)
mkdir "$T/pre"
(cd "$T/src" && cc -g -O2 $san -pg -mfentry -c app.c -o "$T/pre/app.o" &&
    cc -g -O2 $san -pg -mfentry -c calc.c -o "$T/pre/calc.o" &&
    cc $san -o "$T/pre/app" "$T/pre/app.o" "$T/pre/calc.o") || fail "build unlinked"
if ldd "$BD/libttcap.so" 2>/dev/null | grep -q libasan; then
    echo "SKIP part: ttrec preload (ASan build)"
else
    (cd "$T/pre" && "$P/bin/ttrec" -o "$T/preload.trc" -- ./app > out 2> err) ||
        { cat "$T/pre/err"; fail "ttrec"; }
    grep -q 'libttcap preloaded' "$T/pre/err" || { cat "$T/pre/err"; fail "ttrec: not preloaded"; }
    "$P/bin/ttdump" -n "$T/preload.trc" | grep -q '< calc = 14$' || fail "ttrec: no values"
    echo "ttrec preload: ok"
fi

# 4. libttcap loaded, but the program's __fentry__ bound to glibc's (libc
# named before libttcap): one line at start when TTCAP_OUT is set, none
# without it; the run's end does not call the program uninstrumented
(cd "$T/pre" && cc $san -o wrong app.o calc.o -Wl,--no-as-needed -lc -L"$P/lib" -lttcap \
    -Wl,-rpath,"$P/lib") || fail "build wrong"
readelf -d "$T/pre/wrong" | grep -q 'NEEDED.*libttcap' || fail "wrong: libttcap not needed"
(cd "$T/pre" && TTCAP_OUT="$T/wrong.trc" ./wrong > out 2> err) || fail "wrong: run"
[ "$(grep -c '^ttcap: ' "$T/pre/err")" = 1 ] &&
    grep -q "^ttcap: wrong: the program's -pg -mfentry hooks (__fentry__) go to .*libc.so.6, not libttcap" "$T/pre/err" ||
    { cat "$T/pre/err"; fail "wrong: no one-line warning"; }
(cd "$T/pre" && ./wrong > out 2> err) || fail "wrong: run untraced"
[ ! -s "$T/pre/err" ] || { cat "$T/pre/err"; fail "wrong: warned untraced"; }
echo "__fentry__ elsewhere: ok"
# the same in plain mode (the check finds the loader's dlopen with libc
# first too)
(cd "$T/src" && cc -g $san -finstrument-functions -c app.c -o "$T/pre/pa.o" &&
    cc -g $san -finstrument-functions -c calc.c -o "$T/pre/pc.o" &&
    cc $san -o "$T/pre/wrongp" "$T/pre/pa.o" "$T/pre/pc.o" -Wl,--no-as-needed -lc \
        -L"$P/lib" -lttcap -Wl,-rpath,"$P/lib") || fail "build wrongp"
(cd "$T/pre" && TTCAP_OUT="$T/wrongp.trc" ./wrongp > out 2> err) || fail "wrongp: run"
[ "$(grep -c '^ttcap: ' "$T/pre/err")" = 1 ] &&
    grep -q "^ttcap: wrongp: the program's -finstrument-functions hooks go to .*libc.so.6" "$T/pre/err" ||
    { cat "$T/pre/err"; fail "wrongp: no one-line warning"; }
echo "plain hooks elsewhere: ok"
echo ok
