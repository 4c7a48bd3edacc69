#!/bin/sh
# values_gprof.sh - a program linked with -pg (gcrt1.o starts glibc's gprof
# profiler and writes gmon.out) gets one line on stderr from libttcap
# saying so and how to link instead, whether its objects were compiled with
# -pg -mfentry or -finstrument-functions, with gcc or clang at the link;
# the same objects linked without -pg, and untraced runs, get no line.
. "$(dirname "$0")/values_lib.inc"
cat > app.c <<'SRC'
#include <stdio.h>
__attribute__((noinline)) int twice(int x) { __asm__ volatile("" ::: "memory"); return 2 * x; }
int main(void) { printf("%d\n", twice(21)); return 0; }
SRC
LIB="-L$BD -lttcap -Wl,-rpath,$BD"
WARN='^ttcap: app[a-z0-9]*: linked with -pg: .*gmon\.out.* link without it ($(pkg-config --libs ttcap-values))$'

# warned LINKER FLAGS... / quiet LINKER FLAGS...: link app.o, trace one
# run, want exactly one warning line (or none) and a readable trace
trace() {
    rm -f app.trc gmon.out
    "$@" -o app app.o $LIB || fail "link: $*"
    TTCAP_OUT=app.trc ./app > app.out 2> app.err || fail "run: $*"
    has '^42$' app.out
    "$BD/ttdump" -n --color never app.trc > app.ev || fail "ttdump ($*)"
    has 'twice' app.ev
}
warned() {
    trace "$@"
    count "$WARN" app.err 1
    count '' app.err 1
    [ -e gmon.out ] || fail "no gmon.out from a -pg link ($*): the check is moot"
}
quiet() {
    trace "$@"
    [ -s app.err ] && { cat app.err; fail "stderr not empty: $*"; }
    [ -e gmon.out ] && fail "gmon.out without -pg at the link ($*)"
    return 0
}

cc -g -O1 ${SAN:-} -pg -mfentry -I"$SRC/capture" -c app.c || fail "compile -pg -mfentry"
warned cc ${SAN:-} -pg
quiet cc ${SAN:-}
# an untraced run says nothing (libttcap is idle without TTCAP_OUT)
cc ${SAN:-} -pg -o app app.o $LIB || fail "link"
rm -f gmon.out
./app > app.out 2> app.err || fail "untraced run"
[ -s app.err ] && { cat app.err; fail "an untraced run warned"; }
if command -v clang > /dev/null && [ -z "${SAN:-}" ]; then
    warned clang -pg
fi

cc -g -O1 ${SAN:-} -finstrument-functions -I"$SRC/capture" -c app.c || fail "compile -finstrument-functions"
warned cc ${SAN:-} -pg
quiet cc ${SAN:-}
rm -f gmon.out
echo "ok: one warning for a -pg link, none otherwise"
