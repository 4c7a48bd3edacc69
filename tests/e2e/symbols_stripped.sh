#!/bin/sh
# symbols_stripped.sh - a stripped program: ttdump says so in one notice
# (static functions show as offsets) and names --exe; an unstripped copy of
# the same build given with --exe wins over the recorded (stripped) path,
# so the static functions get their names back; a --exe file of another
# build is not taken.
set -eu
B=$(cd "${1:-build}" && pwd)
R=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -q -e "$1" "$2" || { echo "--- $2:"; head -30 "$2"; fail "no '$1' in $2"; }; }
hasnt() { ! grep -q -e "$1" "$2" || { echo "--- $2:"; head -30 "$2"; fail "'$1' in $2"; }; }
cd "$T"
gen() {
    cat > prog.c <<SRC
#include <stdio.h>
static int square_it(int x) { return x * x + $1; }
static int work_on(int n) { int s = 0; for (int i = 0; i < n; i++) s += square_it(i); return s; }
int main(void) { printf("%d\n", work_on(3)); return 0; }
SRC
    cc -g ${SAN:-} -finstrument-functions -fno-plt -o "$2" prog.c \
        -L"$B" -lttcap -Wl,-rpath,"$B" || fail "build $2"
}
gen 1 prog.full
cp prog.full prog && strip prog
gen 2 other.full
TTCAP_OUT=run.trc TTCAP_STORE=none ./prog > /dev/null || fail "record"
"$B/ttdump" run.trc > plain.txt 2>&1 || fail "ttdump"
has 'stripped (no symbol table)' plain.txt
has 'with --exe' plain.txt
hasnt 'square_it' plain.txt
"$B/ttdump" --exe prog.full run.trc > given.txt 2>&1 || fail "ttdump --exe"
has 'square_it' given.txt
has 'work_on' given.txt
hasnt 'stripped' given.txt
"$B/ttdump" --exe other.full run.trc > wrong.txt 2>&1 || fail "ttdump --exe other"
hasnt 'square_it' wrong.txt
has 'stripped (no symbol table)' wrong.txt
echo ok
