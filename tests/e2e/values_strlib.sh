#!/bin/sh
# values_strlib.sh - strings by content in shared libraries: a library
# linked by `ttcc --values ... -shared` carries its string table (.ttcap.vt)
# and libttcap reads it when it loads the library (a dependency at start, a
# plugin at dlopen, again after a dlclose and a second dlopen), though the
# program has no table of its own (the trace still says format 1.6 with
# strings); ttdiff's cause is the library function's string. The same
# files built with values mode's flags alone (as CMake's ttcap::values or
# pkg-config build them) record no string until `ttcc --add-table` adds
# the tables; its errors are one line and exit 2. A damaged table in a
# library is skipped and the program runs on.
. "$(dirname "$0")/values_lib.inc"
san=${SAN:+$SAN -fno-sanitize=undefined}
command -v objcopy > /dev/null || { echo "SKIP: no objcopy"; exit 77; }
S=$SRC/fixtures/progs/val_strlib.c

# build DIR CC... : libvstr.so, libplug.so and the program vsl in DIR
build() {
    d=$1; shift
    mkdir -p "$d"
    # shellcheck disable=SC2086
    "$@" $san -g -O2 -fPIC -shared -I"$SRC/fixtures/progs" -DVAL_LIB=lib -o "$d/libvstr.so" "$S" &&
    "$@" $san -g -O2 -fPIC -shared -I"$SRC/fixtures/progs" -DVAL_LIB=plug -o "$d/libplug.so" "$S" &&
    "$@" $san -g -O2 -I"$SRC/fixtures/progs" -o "$d/vsl" "$S" -L"$d" -Wl,--no-as-needed -lvstr \
        -Wl,-rpath,"$T/$d" -ldl
}
build t "$BD/ttcc" --values gcc 2> cc.err || { cat cc.err; fail "ttcc"; }
[ ! -s cc.err ] || { cat cc.err; fail "ttcc warned"; }
if command -v readelf > /dev/null; then
    readelf -S t/libvstr.so > lib.sec
    has ' .ttcap.vt ' lib.sec
fi

rec g.trc ./t/vsl cc "$T/t/libplug.so"
has '^lib 1 plugin 1 1$' g.trc.out
ev g.trc
has '^    > lib_match(1, "cc")$' g.trc.ev
count '^      > plug_match(1, "cc")$' g.trc.ev 2
"$BD/ttdump" g.trc > g.head
# 1.9: the chain clock is the default, values chunks lazy (1.8's rule;
# the minor stays when strings come)
has '^  version: *1[.]9$' g.head
has 'optional features: .*strings' g.head

# the pair "cc" / "cx": the cause is the library function's string
rec b.trc ./t/vsl cx "$T/t/libplug.so"
rc=0; "$BD/ttdiff" g.trc b.trc > d.txt 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat d.txt; fail "ttdiff pair: exit $rc"; }
has '^  1[.] `plug_entry` was called with key = "cx" in the bad run, "cc" in the good run$' d.txt
has '`lib_match` was called with argument 2 (name) = "cx" in the bad run, "cc" in the good run' d.txt
for i in 1 2; do
    rec s$i.trc ./t/vsl cc "$T/t/libplug.so"
    "$BD/ttdiff" g.trc s$i.trc > s$i.txt 2>&1 || { cat s$i.txt; fail "identical runs ($i) differ"; }
done

# built by another build system: the flags alone, libttcap on the link
flags="-pg -mfentry $(printf '%s' "-fno-inline-functions-called-once -fno-ipa-sra -fno-partial-inlining -fno-ipa-ra")"
# shellcheck disable=SC2086
build p gcc $flags -I"$BD/include" -L"$BD" -Wl,-rpath,"$BD" -Wl,--no-as-needed -lttcap \
    2> p.err || { cat p.err; fail "plain build"; }
rec p0.trc ./p/vsl cc "$T/p/libplug.so"
ev p0.trc
has '^    > lib_match(1, 0x[0-9a-f]*)$' p0.trc.ev
"$BD/ttcc" --add-table p/vsl p/libvstr.so p/libplug.so > add.out 2> add.err ||
    { cat add.err; fail "ttcc --add-table"; }
has '^ttcc: p/vsl: no function with a string parameter' add.err
count . add.err 1
"$BD/ttcc" --add-table p/libvstr.so 2> add2.err || { cat add2.err; fail "--add-table twice"; }
if command -v readelf > /dev/null; then
    readelf -S p/libvstr.so > p.sec
    count ' .ttcap.vt ' p.sec 1
fi
rec p1.trc ./p/vsl cc "$T/p/libplug.so"
ev p1.trc
has '^    > lib_match(1, "cc")$' p1.trc.ev
count '^      > plug_match(1, "cc")$' p1.trc.ev 2

# --add-table's errors: one line, exit 2
echo text > notelf
for args in "notelf" "missing" ""; do
    rc=0
    # shellcheck disable=SC2086
    "$BD/ttcc" --add-table $args > e.out 2> e.err || rc=$?
    [ "$rc" = 2 ] || { cat e.err; fail "--add-table $args: exit $rc"; }
    count . e.err 1
    has '^ttcc: ' e.err
done
has 'no file given' e.err
"$BD/ttcc" --help > help.txt
has '--add-table FILE' help.txt

# a damaged table (its count past the section's end) is not read; the run
# is as without tables
printf 'TTVT\001\000\000\000\377\377\000\000\020\000\000\000' > bad.vt
objcopy --remove-section .ttcap.vt --add-section .ttcap.vt=bad.vt p/libvstr.so ||
    fail "objcopy bad table"
rec p2.trc ./p/vsl cc "$T/p/libplug.so"
has '^lib 1 plugin 1 1$' p2.trc.out
ev p2.trc
has '^    > lib_match(1, 0x[0-9a-f]*)$' p2.trc.ev
count '^      > plug_match(1, "cc")$' p2.trc.ev 2
echo "ok: shared libraries' string tables (linked, dlopen'd twice, --add-table), a damaged one skipped"
