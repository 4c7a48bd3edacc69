#!/bin/sh
# chrome_big.sh - ttdump --chrome warns before an export past 1 GB (issue
# 23: 88M events made 8 GB of JSON without a word): a program of 7M calls
# (14M events, about 1.1 GB of JSON at 80 bytes an event) gets one stderr
# line with the size and the filters to use, naming its busiest thread;
# with --thread it names only --function and --exclude; with --function
# (its size not known before) and on a small trace, no line.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
BD=$(cd "$B" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
fail() { echo "FAIL: $*"; exit 1; }
cat > big.c <<'SRC'
#include <stdlib.h>
__attribute__((noinline)) static int leaf(int i) { return i & 7; }
int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 10;
    int s = 0;
    for (long i = 0; i < n; i++)
        s += leaf((int)i);
    return s == -1;
}
SRC
"$BD/ttcc" gcc ${SAN:-} -O1 -o big big.c
TTCAP_OUT=big.trc ./big 7000000
TTCAP_OUT=small.trc ./big 1000
# the warning comes before the JSON: a reader that stops early still sees it
{ "$BD/ttdump" --chrome big.trc | head -c 100 > /dev/null; } 2> all.err || true
grep -qE '^ttdump: --chrome: about 1\.[0-9] GB of JSON \(140000[0-9]{2} events in 1 thread; .*--thread 0 \("big": 140000[0-9]{2} events\), --function REGEX or --exclude REGEX$' all.err ||
    { cat all.err; fail "no size warning"; }
{ "$BD/ttdump" --chrome -t 0 big.trc | head -c 100 > /dev/null; } 2> t.err || true
grep -q 'choose with --function REGEX or --exclude REGEX$' t.err || { cat t.err; fail "with --thread"; }
{ "$BD/ttdump" --chrome -f leaf big.trc | head -c 100 > /dev/null; } 2> f.err || true
! grep -q 'GB of JSON' f.err || { cat f.err; fail "warned with --function"; }
"$BD/ttdump" --chrome small.trc > small.json 2> small.err
[ ! -s small.err ] || { cat small.err; fail "warned on a small trace"; }
echo ok
