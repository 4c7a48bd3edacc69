#!/bin/sh
# ttcc_projects.sh - ttcc as a new user would use it, with capture/INSTRUMENT.md's
# recipes: one small project (a shared library libcalc with a static helper,
# and a program that calls it) built by make, CMake, autotools with
# libtool, and meson, each with CC="ttcc gcc" in plain mode and in values
# mode (the mode given both ways: CC="ttcc --values gcc" and TTCC_MODE),
# always with -Wl,--as-needed in LDFLAGS. Each build's program records a
# trace naming main, calc (in the library) and square; in values mode the
# trace holds calc's argument (4) and return value (14), the run prints
# nothing on stderr and leaves no gmon.out (-pg kept off the links). A
# build system whose Debian package is missing is skipped with a note.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
BD=$(cd "$B" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
san=${SAN:-}
[ -x "$BD/ttcc" ] || fail "no $BD/ttcc"
# a sanitizer build's libttcap needs the sanitizer runtime in the program
export CFLAGS="-O2 -g $san" LDFLAGS="-Wl,--as-needed $san"
unset MAKEFLAGS MFLAGS MAKELEVEL TTCC_MODE TTCC_SHOW CC
# capture/INSTRUMENT.md's recipes are the commands run below
for r in 'make CC="ttcc gcc"' 'CC="ttcc gcc" cmake -S . -B build && cmake --build build' \
         './configure CC="ttcc gcc" && make' 'CC="ttcc gcc" meson setup build && ninja -C build' \
         'make CC="ttcc --values gcc"' 'TTCC_MODE=values cmake --build build'; do
    grep -qF -- "$r" capture/INSTRUMENT.md || fail "capture/INSTRUMENT.md has no recipe '$r'"
done

mkdir "$T/src"
cat > "$T/src/calc.h" <<'SRC'
int calc(int n);
SRC
cat > "$T/src/calc.c" <<'SRC'
#include "calc.h"
__attribute__((noinline)) static int square(int x) { return x * x; }
int calc(int n) { int s = 0; for (int i = 0; i < n; i++) s += square(i); return s; }
SRC
cat > "$T/src/app.c" <<'SRC'
#include <stdio.h>
#include "calc.h"
int main(void) { printf("%d\n", calc(4)); return 0; }
SRC
cat > "$T/src/Makefile" <<'MK'
# make: the objects with CFLAGS, the library and the program with LDFLAGS
# before the objects, as build systems put them
all: app
libcalc.so: calc.c
	$(CC) $(CFLAGS) -fPIC -shared $(LDFLAGS) -o $@ calc.c
app: app.o libcalc.so
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ app.o -L. -lcalc -Wl,-rpath,$(CURDIR)
MK
cat > "$T/src/CMakeLists.txt" <<'MK'
cmake_minimum_required(VERSION 3.13)
project(calc C)
add_library(calc SHARED calc.c)
add_executable(app app.c)
target_link_libraries(app PRIVATE calc)
MK
cat > "$T/src/configure.ac" <<'MK'
AC_INIT([calc], [1.0])
AM_INIT_AUTOMAKE([foreign])
AC_PROG_CC
LT_INIT
AC_CONFIG_FILES([Makefile])
AC_OUTPUT
MK
cat > "$T/src/Makefile.am" <<'MK'
lib_LTLIBRARIES = libcalc.la
libcalc_la_SOURCES = calc.c calc.h
bin_PROGRAMS = app
app_SOURCES = app.c
app_LDADD = libcalc.la
MK
cat > "$T/src/meson.build" <<'MK'
project('calc', 'c')
lib = shared_library('calc', 'calc.c')
executable('app', 'app.c', link_with: lib)
MK

# check_run NAME PROG MODE: run PROG (plain|values), check its trace
check_run() {
    name=$1 prog=$2 mode=$3
    mkdir "$T/run.$name"
    (cd "$T/run.$name" && TTCAP_OUT="$T/$name.trc" "$prog" > out 2> err) ||
        { cat "$T/run.$name/err"; fail "$name: run"; }
    [ "$(cat "$T/run.$name/out")" = 14 ] || fail "$name: output $(cat "$T/run.$name/out")"
    [ ! -s "$T/run.$name/err" ] || { cat "$T/run.$name/err"; fail "$name: stderr"; }
    [ ! -e "$T/run.$name/gmon.out" ] || fail "$name: gmon.out written (-pg reached the link)"
    "$BD/ttdump" -n --color never "$T/$name.trc" > "$T/$name.dump" 2>&1 ||
        { cat "$T/$name.dump"; fail "$name: ttdump"; }
    if [ "$mode" = values ]; then
        want='> main[(]|> calc[(]4[)]$|> square[(]3[)]$|< square = 9$|< calc = 14$'
    else
        want='> main$|> calc$|> square$'
    fi
    echo "$want" | tr '|' '\n' | while read -r w; do
        grep -qE -- "$w" "$T/$name.dump" || { head -30 "$T/$name.dump"; fail "$name: no '$w'"; }
    done || exit 1
    echo "$name: ok ($(grep -c '> ' "$T/$name.dump") calls traced)"
}

# build NAME SYSTEM MODE: a fresh copy of the project built by SYSTEM
build() {
    name=$1 sys=$2 mode=$3 d=$T/$1
    cp -r "$T/src" "$d"
    # values mode: once as an option in CC, once through TTCC_MODE
    cc="$BD/ttcc gcc"
    case $sys:$mode in
        make:values|autotools:values) cc="$BD/ttcc --values gcc" ;;
        *:values) export TTCC_MODE=values ;;
    esac
    case $sys in
    make) (cd "$d" && make CC="$cc") ;;
    cmake) (cd "$d" && CC="$cc" cmake -S . -B build && cmake --build build) ;;
    autotools) (cd "$d" && ./configure CC="$cc" && make) ;;
    meson) (cd "$d" && CC="$cc" meson setup build && ninja -C build) ;;
    esac > "$T/$name.log" 2>&1 || { tail -40 "$T/$name.log"; fail "$name: build"; }
    unset TTCC_MODE
    case $sys in
    make) prog=$d/app ;;
    cmake|meson) prog=$d/build/app ;;
    autotools) prog=$d/app ;;     # libtool's wrapper script
    esac
    check_run "$name" "$prog" "$mode"
}

have() { for p in "$@"; do command -v "$p" > /dev/null || return 1; done; }
modes=plain
[ "$(uname -m)" = x86_64 ] && modes="plain values"
for sys in make cmake autotools meson; do
    case $sys in
    make) need=make ;;
    cmake) need=cmake ;;
    autotools) need="autoreconf automake libtoolize" ;;
    meson) need="meson ninja" ;;
    esac
    if ! have $need; then
        echo "SKIP part: $sys (missing: $need; Debian: apt-get install cmake autoconf automake libtool meson ninja-build)"
        continue
    fi
    # the configure script does not depend on CC: made once, copied to each build
    if [ $sys = autotools ]; then
        (cd "$T/src" && autoreconf -i) > "$T/autoreconf.log" 2>&1 ||
            { tail -40 "$T/autoreconf.log"; fail "autoreconf"; }
    fi
    for m in $modes; do build "$sys-$m" "$sys" "$m"; done
done
echo ok
