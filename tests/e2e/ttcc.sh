#!/bin/sh
# ttcc.sh - the compiler wrapper's command lines (ttcc --show prints each
# command it runs): probes without input files run unchanged; -E and -M
# get only the include folder; a compile gets the mode's flags first;
# links (programs and shared libraries) get libttcap kept under
# --as-needed and lose -pg; a compile+link with -pg is split; arguments
# with spaces and quotes reach the compiler intact; g++; its own errors
# exit 2 with one line. The programs built run and record. Installed: the
# sq.c example of capture/INSTRUMENT.md, built by its own pkg-config line and
# by ttcc, shows the events that page prints.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
SRC=$(pwd)
BD=$(cd "$B" && pwd)
TTCC=$BD/ttcc
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
fail() { echo "FAIL: $*"; exit 1; }
san=${SAN:-}
unset TTCC_MODE TTCC_SHOW
# has REGEX FILE / hasnt REGEX FILE
has() { grep -qE -- "$1" "$2" || { cat "$2"; fail "no '$1' in $2"; }; }
hasnt() { ! grep -qE -- "$1" "$2" || { cat "$2"; fail "'$1' in $2"; }; }
LINK='-Wl,--push-state,--no-as-needed -lttcap -Wl,--pop-state$'

cat > a.c <<'SRC'
#include <stdio.h>
#include <ttcap.h>
int twice(int x);
int main(void) { TT_LOG(TTCAP_INFO, "%s", MSG); printf("%d\n", twice(21)); return 0; }
SRC
cat > b.c <<'SRC'
int twice(int x) { return 2 * x; }
SRC

# probes: unchanged, even in values mode
"$TTCC" --show --values gcc --version > /dev/null 2> probe.err
[ "$(cat probe.err)" = "ttcc: gcc --version" ] || { cat probe.err; fail "probe changed"; }
"$TTCC" --show gcc -print-prog-name=ld > /dev/null 2> probe2.err
[ "$(cat probe2.err)" = "ttcc: gcc -print-prog-name=ld" ] || fail "-print-prog-name changed"

# -E and -M: include folder only (ttcap.h is found), no mode flags
"$TTCC" --show --values gcc -E -DMSG='"x"' a.c > pre.out 2> pre.err
has "^ttcc: gcc -E '-DMSG=\"x\"' a.c -idirafter$BD/include\$" pre.err
has 'ttcap_' pre.out
"$TTCC" gcc -M a.c > deps.out
has 'ttcap.h' deps.out

# compile: mode flags first, then the command, intact (a space, quotes)
"$TTCC" --show gcc $san -c -DMSG='"hello, world"' a.c 2> c.err
has "^ttcc: gcc -finstrument-functions -fno-plt -g .*-c '-DMSG=\"hello, world\"' a.c -idirafter" c.err
TTCC_MODE=values "$TTCC" --show gcc $san -c -o b.o b.c 2> cv.err
has '^ttcc: gcc -pg -mfentry -g .*-c -o b.o b.c -idirafter' cv.err
# the option wins over the environment
TTCC_MODE=values "$TTCC" --show --plain gcc -fsyntax-only b.c 2> cp.err
has '^ttcc: gcc -finstrument-functions' cp.err

# link, LDFLAGS-style --as-needed before the objects, -pg given: kept, dropped
"$TTCC" --show gcc $san -Wl,--as-needed -pg -o app a.o b.o 2> l.err
has "^ttcc: gcc .*-Wl,--as-needed -o app a.o b.o -L$BD -Wl,-rpath,$BD $LINK" l.err
hasnt ' -pg' l.err
readelf -d app | grep -q 'NEEDED.*libttcap' || fail "app: libttcap not needed"
TTCAP_OUT=t.trc ./app > app.out 2> app.err || fail "app: run"
[ "$(cat app.out)" = 42 ] && [ ! -s app.err ] && [ ! -e gmon.out ] || fail "app: output"
"$BD/ttdump" -n t.trc > t.dump
has '> main$' t.dump
has 'hello, world' t.dump

# a partial link (-r) gets no libttcap, only loses -pg
"$TTCC" --show gcc -r -pg -o ab.o a.o b.o 2> r.err
hasnt 'lttcap| -pg' r.err

# shared library link: libttcap needed there too
"$TTCC" --show gcc $san -fPIC -shared -Wl,--as-needed -o libb.so b.c 2> s.err
has "$LINK" s.err
readelf -d libb.so | grep -q 'NEEDED.*libttcap' || fail "libb.so: libttcap not needed"

# values mode, compile and link in one command with two sources and -x:
# split into compiles with -pg and a link without, then the string table
# read and stored (ttcap.h's ttcap_as_ takes a const char *)
if [ "$(uname -m)" = x86_64 ]; then
    cp b.c b.txt
    mkdir tmp
    TMPDIR=$T/tmp "$TTCC" --show --values gcc $san -DMSG='"v"' -o appv a.c -x c b.txt -x none 2> v.err
    [ "$(grep -c '^ttcc: ' v.err)" = 5 ] || { cat v.err; fail "values: not split in 3 and a table"; }
    has "^ttcc: gcc -pg -mfentry -g .*-c -x none a.c -o $T/tmp/ttcc.*/0.o" v.err
    has '^ttcc: gcc -pg -mfentry -g .*-c -x c b.txt -o /.*/1.o' v.err
    sed -n 3p v.err > vl.err
    has "^ttcc: $BD/ttdump --value-table $T/tmp/ttcc-vt[.].* appv\$" v.err
    has "^ttcc: objcopy --remove-section .ttcap.vt --add-section .ttcap.vt=$T/tmp/ttcc-vt[.].* appv\$" v.err
    if command -v readelf > /dev/null; then
        readelf -S appv > vs.sec
        has ' .ttcap.vt ' vs.sec
    fi
    hasnt ' -pg| -x |\.c |b\.txt' vl.err
    has "^ttcc: gcc .*-o appv /.*/0.o /.*/1.o -L$BD -Wl,-rpath,$BD $LINK" vl.err
    TTCAP_OUT=v.trc ./appv > v.out 2> v.err2 || fail "appv: run"
    [ ! -s v.err2 ] && [ ! -e gmon.out ] || { cat v.err2; fail "appv: stderr or gmon.out"; }
    "$BD/ttdump" -n v.trc > v.dump
    has '> twice[(]21[)]$' v.dump
    has '< twice = 42$' v.dump
    [ -z "$(ls tmp)" ] || fail "temporary folder left: $(ls tmp)"
fi

# @file response files are read: -c inside one is a compile, objects a
# link, sources with -pg in a compile+link an error (no silent split)
printf '%s\n' "-c '-DMSG=\"r f\"'" a.c > rsp.c
"$TTCC" --show gcc $san @rsp.c -o ar.o 2> rc.err
has '^ttcc: gcc -finstrument-functions -fno-plt -g .*@rsp.c -o ar.o -idirafter' rc.err
hasnt 'lttcap' rc.err
printf 'a.o b.o\n' > rsp.l
"$TTCC" --show gcc $san -o appr @rsp.l 2> rl.err
has "@rsp.l -L$BD -Wl,-rpath,$BD $LINK" rl.err
./appr > /dev/null || fail "@file link: run"
printf 'a.c b.c\n' > rsp.s
set +e; "$TTCC" --values gcc -DMSG='"x"' -o apps @rsp.s 2> rs.err; rc=$?; set -e
[ "$rc" = 2 ] && grep -q '@file: compile (-c) and link separately' rs.err ||
    { cat rs.err; fail "@file sources with -pg: rc $rc"; }

# C++
printf '#include <string>\nstatic std::string f(int n) { return std::string(n, 42); }\nint main() { return f(3).size() == 3 ? 0 : 1; }\n' > c.cc
"$TTCC" g++ $san -o appcc c.cc
TTCAP_OUT=cc.trc ./appcc || fail "g++ app: run"
"$BD/ttdump" -n cc.trc | grep -q '> f\[abi:cxx11\](int)$\|> f(int)$' || fail "g++ app: no f"

# installed: PREFIX/bin/ttcc links PREFIX/lib/libttcap.so, finds PREFIX/include
P=$T/prefix
(cd "$SRC" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s B="$B" install PREFIX="$P") \
    > inst.log 2>&1 || { cat inst.log; fail "make install"; }
"$P/bin/ttcc" --show gcc $san -DMSG='"i"' -o appi a.c b.c 2> i.err
has "^ttcc: gcc .* -idirafter$P/include -L$P/lib -Wl,-rpath,$P/lib $LINK" i.err
ldd appi | grep -q "libttcap.so.1 => $P/lib/" || { ldd appi; fail "installed: libttcap"; }
TTCAP_OUT=i.trc ./appi > /dev/null && [ -s i.trc ] || fail "installed: no trace"
for p in man1/ttcc.1 man1/ttdiff.1 man1/ttdump.1 man1/ttrec.1 man3/libttcap.3; do
    [ -f "$P/share/man/$p" ] || fail "not installed: share/man/$p"
done

# capture/INSTRUMENT.md's sq.c example, built with its pkg-config line (rpath
# included: the prefix is not in the loader's path) and with ttcc; the
# events ttdump shows are the page's, times and tids aside
python3 - "$SRC/capture/INSTRUMENT.md" sq.c sq.cmd sq.want <<'PY'
import re, sys
s = open(sys.argv[1]).read()
i = s.index("For example, `sq.c`:")
code = re.search(r"```c\n(.*?)```", s[i:], re.S).group(1)
out = re.search(r"```\n(\$ cc .*?)```", s[i:], re.S).group(1)
open(sys.argv[2], "w").write(code)
cmd = out.split("\n$ TTCAP_OUT")[0][2:].replace("\\\n", " ")
open(sys.argv[3], "w").write(cmd + "\n")
ev = out[out.index("events:"):].splitlines()
ev = [l for l in ev if "module-load" not in l]
open(sys.argv[4], "w").write("\n".join(ev) + "\n")
PY
mask() { sed -E 's/^ *~?\+[0-9.]+us //; s/\(tid [0-9]+\)/(tid N)/' | grep -v 'module-load'; }
mask < sq.want > sq.want.m
PKG_CONFIG_PATH=$P/lib/pkgconfig sh -c "$(cat sq.cmd) $san" || fail "INSTRUMENT.md sq.c: $(cat sq.cmd)"
"$P/bin/ttcc" cc $san -o sq2 sq.c
for b in sq sq2; do
    env -u LD_LIBRARY_PATH TTCAP_OUT=$b.trc ./$b > $b.out || fail "INSTRUMENT.md sq.c: $b does not start"
    [ "$(cat $b.out)" = 5 ] || fail "INSTRUMENT.md sq.c: $b printed $(cat $b.out)"
    "$P/bin/ttdump" -n $b.trc | sed "s/\"$b\"/\"sq\"/" | mask > $b.got
    diff sq.want.m $b.got > $b.diff || { cat $b.diff; fail "INSTRUMENT.md sq.c: $b's events differ"; }
done

# ttcc's own errors: one line, exit 2; a failing compile: the compiler's status
for args in "" "--bogus gcc" "--values" "ttcc gcc -c b.c" "$TTCC -c b.c"; do
    set +e; "$TTCC" $args > e.out 2> e.err; rc=$?; set -e
    [ "$rc" = 2 ] && [ "$(wc -l < e.err)" = 1 ] && grep -q '^ttcc: ' e.err ||
        { cat e.err; fail "ttcc $args: rc $rc"; }
done
set +e; TTCC_MODE=fast "$TTCC" gcc -c b.c 2> e.err; rc=$?; set -e
[ "$rc" = 2 ] && grep -q 'TTCC_MODE=fast' e.err || fail "bad TTCC_MODE: rc $rc"
set +e; "$TTCC" no-such-cc -c b.c 2> e.err; rc=$?; set -e
[ "$rc" = 2 ] && grep -q 'no-such-cc: cannot run' e.err || fail "missing compiler: rc $rc"
echo 'int x = ;' > bad.c
set +e; "$TTCC" gcc -c bad.c 2> /dev/null; rc=$?; set -e
[ "$rc" = 1 ] || fail "failing compile: rc $rc"
"$TTCC" --help | grep -q '^usage: ttcc' || fail "--help"
"$TTCC" --version | grep -qE '^ttcc [0-9]+\.[0-9]+\.[0-9]+ \(trace format [0-9]+\.[0-9]+\)$' || fail "--version"
echo ok
