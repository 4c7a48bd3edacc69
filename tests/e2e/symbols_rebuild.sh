#!/bin/sh
# symbols_rebuild.sh - symbols that outlive the binary: record, rebuild the
# program at the same path (other code, other build-id), and the old trace
# still reads names and file:line, from the copy libttcap kept in the
# trace's folder (.build-id/xx/yyyy), from a TTCAP_STORE folder, for a
# dlopen'd plugin and for a static link; only instrumented modules are
# kept; TTCAP_STORE=none keeps nothing (names become offsets); ttdiff of
# the old and the new trace names both sides and warns of two builds (and
# of two programs); --debug-dir and --exe find a moved copy.
set -eu
B=$(cd "${1:-build}" && pwd)
R=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -q -e "$1" "$2" || { echo "--- $2:"; head -30 "$2"; fail "no '$1' in $2"; }; }
san=${SAN:-}
cd "$T"

# version $1 of the program: the same functions, another body
gen() {
    cat > prog.c <<SRC
#include <dlfcn.h>
#include <stdio.h>
static int square(int x) { return x * x + $1; }
static int work(int n) { int s = 0; for (int i = 0; i < n; i++) s += square(i); return s; }
int main(int argc, char **argv)
{
    if (argc > 1) {
        void *h = dlopen(argv[1], RTLD_NOW);
        int (*f)(int) = h ? (int (*)(int))dlsym(h, "plug_fn") : 0;
        if (f)
            f(1);
    }
    printf("%d\n", work(3));
    return 0;
}
SRC
    cat > plug.c <<SRC
int plug_fn(int x);
static int helper(int x) { return x + $1; }
int plug_fn(int x) { return helper(x); }
SRC
    cc -g $san -finstrument-functions -fno-plt -I"$R/capture" -o prog prog.c \
        -L"$B" -lttcap -Wl,-rpath,"$B" -ldl || fail "build v$1"
    cc -g $san -shared -fPIC -finstrument-functions -o plug.so plug.c || fail "plugin v$1"
    cc -g $san -finstrument-functions -o prog_static prog.c "$B/libttcap.a" -lpthread -ldl \
        $(if [ -n "$san" ]; then echo -lubsan; fi) || fail "static v$1"
}
bid() { readelf -n "$1" | sed -n 's/.*Build ID: //p'; }

gen 1
old_id=$(bid prog)
TTCAP_OUT=old.trc ./prog "$T/plug.so" > /dev/null || fail "record v1"
TTCAP_OUT=old_static.trc ./prog_static > /dev/null || fail "record static v1"
mkdir elsewhere nostore
TTCAP_OUT=nostore/none.trc TTCAP_STORE=none ./prog > /dev/null || fail "record, no store"
[ ! -e nostore/.build-id ] || fail "TTCAP_STORE=none kept a copy"
TTCAP_OUT=nostore/kept.trc TTCAP_STORE="$T/elsewhere" ./prog > /dev/null || fail "record, store elsewhere"
copy=.build-id/$(echo "$old_id" | cut -c1-2)/$(echo "$old_id" | cut -c3-)
[ -f "$copy" ] || { find .build-id; fail "no copy of the program at $copy"; }
[ -f "elsewhere/$copy" ] || fail "no copy in TTCAP_STORE"
cmp -s prog "$copy" || fail "copy differs from the program"
[ "$(find .build-id -type f | wc -l)" = 3 ] ||
    { find .build-id -type f; fail "want 3 copies: program, plugin, static program"; }
echo "store: $(du -sb .build-id | cut -f1) bytes for 3 modules" \
     "(program $(stat -c %s prog), trace $(stat -c %s old.trc))"

gen 2
[ "$(bid prog)" != "$old_id" ] || fail "rebuild kept the build-id"
TTCAP_OUT=new.trc ./prog "$T/plug.so" > /dev/null || fail "record v2"

"$B/ttdump" -l old.trc > old.dump 2> old.err || fail "ttdump old"
has '> main (.*prog\.c:[0-9]*)$' old.dump
has '> square (.*prog\.c:3)$' old.dump
has '> plug_fn (.*plug\.c:[0-9]*)$' old.dump
has '> helper (.*plug\.c:2)$' old.dump
has 'prog: rebuilt since the trace; symbols from .*\.build-id/' old.err
"$B/ttdump" old_static.trc > static.dump 2>&1 || fail "ttdump static"
has '> square$' static.dump
TTCAP_STORE="$T/elsewhere" "$B/ttdump" nostore/kept.trc > kept.dump 2>&1 || fail "ttdump kept"
has '> square$' kept.dump
"$B/ttdump" nostore/none.trc > none.dump 2>&1 || fail "ttdump none"
has 'build-id differs from the traced binary; names shown as offsets' none.dump
has '> prog+0x' none.dump

rc=0
"$B/ttdiff" --color never old.trc new.trc > diff.out 2> diff.err || rc=$?
[ "$rc" -le 1 ] || { cat diff.out diff.err; fail "ttdiff old new: exit $rc"; }
if grep -q 'prog+0x' diff.out; then cat diff.out; fail "ttdiff shows offsets"; fi
# two builds of one program: one warning line, a note, a JSON field
[ "$(grep -c . diff.err)" = 1 ] || { cat diff.err; fail "want one stderr line"; }
has '^ttdiff: warning: two builds (other build-ids): .*prog and .*prog; diffing by function name$' diff.err
has '^note: two builds of .*prog: build-id [0-9a-f]* vs [0-9a-f]* (compared by function name)$' diff.out
"$B/ttdiff" --format json old.trc new.trc > diff.json 2>/dev/null || true
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["program"] == "other-build", d["program"]; assert d["runs"]["good"]["build_id"] == sys.argv[2], d["runs"]["good"]["build_id"]' diff.json "$old_id" || fail "json program"
# different programs: warned, still diffed
rc=0
"$B/ttdiff" --format html old.trc old_static.trc > other.html 2> other.err || rc=$?
[ "$rc" -le 1 ] || { cat other.err; fail "ttdiff of two programs: exit $rc"; }
has '^ttdiff: warning: different programs: .*prog and .*prog_static' other.err
has 'id="tt-program"><b>Note:</b> different programs' other.html
# --debug-dir and --exe: the copy moved away, found again
mkdir moved && mv .build-id moved/
"$B/ttdump" old.trc > moved.dump 2>&1 || fail "ttdump without the store"
has '> prog+0x' moved.dump
"$B/ttdump" --debug-dir "$T/moved" old.trc > dd.dump 2>&1 || fail "ttdump --debug-dir"
has '> square$' dd.dump
has "symbols from $T/moved/.build-id/" dd.dump
cp "moved/$copy" oldprog
"$B/ttdump" --exe "$T/oldprog" --exe "$T/prog" old.trc > exe.dump 2>&1 || fail "ttdump --exe"
has '> square$' exe.dump
has "symbols from $T/oldprog" exe.dump
"$B/ttdiff" --exe "$T/oldprog" --color never old.trc new.trc > exe.diff 2>&1 || true
if grep -q 'prog+0x' exe.diff; then cat exe.diff; fail "ttdiff --exe shows offsets"; fi

# values mode (-pg -mfentry: __fentry__, not the -finstrument-functions
# hooks) keeps its copy too: rebuilt between the runs, every name stays
if [ "$(uname -m)" = x86_64 ]; then
    mkdir vals && cd vals
    vgen() {
        printf 'static int square(int x) { return x * x + %s; }\n' "$1" > v.c
        printf 'int main(void) { return square(3) > 100; }\n' >> v.c
        cc -g $san -O1 -fno-inline -pg -mfentry -fno-plt -c -o v.o v.c || fail "values v$1"
        cc $san -rdynamic -o v v.o -L"$B" -lttcap -Wl,-rpath,"$B" || fail "values link v$1"
    }
    vgen 1
    vid=$(bid v)
    TTCAP_OUT=v1.trc ./v || fail "record values v1"
    vcopy=.build-id/$(echo "$vid" | cut -c1-2)/$(echo "$vid" | cut -c3-)
    [ -f "$vcopy" ] || { find . -name '*.trc' -o -path '*build-id*'; fail "values mode kept no copy"; }
    vgen 2
    "$B/ttdump" v1.trc > v1.dump 2>&1 || fail "ttdump values"
    has '> square' v1.dump
    if grep -q 'v+0x' v1.dump; then cat v1.dump; fail "values trace lost its names"; fi
    cd "$T"
fi
echo ok
