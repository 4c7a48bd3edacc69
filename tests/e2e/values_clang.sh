#!/bin/sh
# Values mode built by clang (DWARF 5 without .debug_aranges, indexed
# strings and addresses): ttdiff names the value divergence with typed
# values and source lines, as for gcc builds (C and C++, and with
# -gsplit-dwarf). A module whose signatures cannot be read says so in one
# note per run naming it and why: built without -g, or with -g for another
# object only. Compiled by clang, linked by cc (so `make asan` links its
# runtime as every other fixture). Skipped without clang.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

[ "$(uname -m)" = x86_64 ] || { echo "SKIP: values mode is x86-64 only"; exit 77; }
command -v clang >/dev/null || { echo "SKIP: no clang"; exit 77; }
SRC=$(pwd)/fixtures/values
PG="-O1 -fno-inline -pg -mfentry -fno-plt -I$(pwd)/capture"
cd "$T"

# build NAME COMPILER SOURCE FLAGS...: compile, then link with libttcap
build() {
    n=$1 c=$2 s=$3; shift 3
    $c $PG "$@" -c -o "$n.o" "$SRC/$s" || fail "$c $s"
    case $s in *.cpp) l=c++ ;; *) l=cc ;; esac
    $l ${SAN:-} -rdynamic -o "$n" "$n.o" -L"$BD" -lttcap -Wl,-rpath,"$BD" -lpthread -ldl ||
        fail "link $n"
}
# pair NAME GOOD BAD: record a good and a bad run, ttdiff them (text and JSON)
pair() {
    rm -f "$T/g.trc" "$T/b.trc"
    rec g.trc "./$1" "$2"
    rec b.trc "./$1" "$3"
    run 1 --color never "$T/g.trc" "$T/b.trc"
    cp "$T/out" "$1.txt"
    run 1 --format json "$T/g.trc" "$T/b.trc"
    cp "$T/out" "$1.json"
}

build ec clang vd_errchain.c -g
readelf --debug-dump=info ec.o | grep -q 'Version: *5' || fail "clang did not write DWARF 5"
readelf -S ec.o | grep -q debug_aranges && echo "note: clang wrote .debug_aranges"
pair ec 30 99999999999999999999
has '^values: [0-9]* compared' ec.txt
has '^first divergence: `parse_number` returned -34 in the bad run, 0 in the good run' ec.txt
has '^  1\. parse_number  at .*vd_errchain\.c:15  (' ec.txt
has '^ *[0-9]* *parse_number(0x[0-9a-f]*, 0x[0-9a-f]*) = -34;' ec.txt
grep -q 'note:' ec.txt && { cat ec.txt; fail "notes on a clang build with -g"; }
json ec.json "
v = d['value_divergence']
assert v['function'] == 'parse_number' and v['type'] == 'int', v
assert (v['good_value'], v['bad_value']) == ('0', '-34'), v
"

build lk clang vd_lookup.c -g
pair lk "add 5" "ad 5"
has '^first divergence: `find_command` returned NULL in the bad run, &table[+0-9]* (0x[0-9a-f]*) in the good run' lk.txt
has '^  a value: .* find_command at .*vd_lookup\.c:[0-9]* (struct command \*)' lk.txt

# split DWARF, in folders of several name lengths: libdw 0.188 asserts in
# dwarf_decl_file on a split unit whose file table it has not read yet,
# which happened or not with the folder's name (a clone under /tmp)
for d in s s2 s33 s444 s5555 s66666; do
    mkdir "$d" && cd "$d"
    build sp clang vd_lookup.c -g -gsplit-dwarf
    [ -s sp.dwo ] || fail "no sp.dwo"
    pair sp "add 5" "ad 5"
    has '^first divergence: `find_command` returned NULL in the bad run' sp.txt
    cd "$T"
done

if command -v clang++ >/dev/null && [ -x "$BD/fixtures/vd_cxx" ]; then
    build cx clang++ vd_cxx.cpp -g
    pair cx km kms
    has '^first divergence: `Units::find(char const\*) const` returned NULL in the bad run' cx.txt
fi

# no debug info at all: one note per run, and nothing compared (a
# sanitizer build links start-up objects with debug info: then the note
# names the first function without it)
build e0 clang vd_errchain.c -g0
pair e0 30 99999999999999999999
[ "$(grep -c 'note: .*/e0: .*no debug info.*; values .*not compared' e0.txt)" = 2 ] ||
    { cat e0.txt; fail "want one 'no debug info' note per run"; }
has '^values: none comparable' e0.txt
# debug info for another object only: one note per run, naming the module
# and the first function without it (not one per function)
echo 'int tt_helper(int x) { return x + 1; }' > helper.c
clang -g -c -o helper.o helper.c
clang $PG -g0 -c -o em.o "$SRC/vd_errchain.c"
cc ${SAN:-} -rdynamic -o em em.o helper.o -L"$BD" -lttcap -Wl,-rpath,"$BD" -lpthread -ldl
pair em 30 99999999999999999999
[ "$(grep -c 'note: ' em.txt)" = 2 ] || { cat em.txt; fail "want one note per run"; }
has "note: .*/em: [a-z_]*: no debug info (compiled without -g?); values of such functions not compared" em.txt
has '^values: none comparable' em.txt
echo "ok"
