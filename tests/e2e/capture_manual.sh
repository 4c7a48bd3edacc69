#!/bin/sh
# capture_manual.sh - the manual API: TT_LOG with every argument type and
# up to 8 arguments, level filtering, TT_VALUE, TT_RETURN, TT_MARK,
# TT_SCOPE, thread names, pause/resume; then flight-recorder (ring) mode and
# a cut trace (file size limit: the program runs on, the trace says where).
B=$(cd "${1:-build}" && pwd) || exit 1
CHK=$B/tests/capture_check
top=$(cd "$(dirname "$0")/../.." && pwd)
d=$(mktemp -d "$B/capture_e2e.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail=0
has() { grep -qx -- "$2" "$1" || { echo "FAIL: $1 lacks: $2"; fail=1; }; }
hasre() { grep -q -- "$2" "$1" || { echo "FAIL: $1 lacks /$2/"; fail=1; }; }

TTCAP_OUT=m.trc "$B/fixtures/cap_manual" > m.stdout || { echo "FAIL: run"; fail=1; }
has m.stdout "r=42 enabled=1 version=10200"
"$CHK" m.trc -e > m.out || { echo "FAIL: check"; fail=1; }
long=$(printf 'abcdefghijklmnopqrstuvwxyz%.0s' 1 2 3 4 5 6 7 8 9 10 | cut -c1-256)
grep '^msg' m.out > msgs
cat > want <<EOW
msg thread=0 plain
msg thread=0 int 42 neg -7
msg thread=0 u 3000000000 ull 18446744073709551615
msg thread=0 ch 65 sc -5 uc 250 sh -300 us 65000
msg thread=0 l -123456789012 ul 123456789012 b 1
msg thread=0 f 1.50 d -2.250
msg thread=0 p 0x1234
msg thread=0 s hello
msg thread=0 null (null)
msg thread=0 long $long
msg thread=0 eight 1 2 3 4 5 6 7 8
msg thread=0 argc 1
msg thread=0 checkpoint
msg thread=0 n = 7
msg thread=0 return = 42
msg thread=0 loop 0
msg thread=0 loop 1
msg thread=0 loop 2
msg thread=0 pi = 3.25
msg thread=0 name = hello
msg thread=0 ptr = 0xabc
EOW
diff want msgs || { echo "FAIL: messages differ"; fail=1; }
# TT_SCOPE: an enter/exit pair named after the function, inside scoped()
has m.out "count thread=0 func=scoped enter=2 exit=2"
has m.out "count thread=0 func=twice enter=1 exit=1"
hasre m.out "^thread idx=0 .* name=mainthr "
grep -q '^ev 0 pause ' m.out && grep -q '^ev 0 resume ' m.out || { echo "FAIL: pause/resume"; fail=1; }
has m.out "walk thread=0 events=$(grep -c '^ev ' m.out) open=0 maxdepth=2 nesting_errors=0 rc=0"
# TTCAP_LEVEL=1: only level <= 1 messages (and VALUE/RETURN/MARK at level 0)
TTCAP_OUT=l.trc TTCAP_LEVEL=1 "$B/fixtures/cap_manual" > /dev/null || fail=1
"$CHK" l.trc > l.out || fail=1
[ "$(grep -c "^msg" l.out)" = 9 ] || { echo "FAIL: level filter"; grep '^msg' l.out; fail=1; }

# the header and macros from C++ (when a C++ compiler is installed)
CXX=$(command -v g++ || command -v clang++)
if [ -n "$CXX" ]; then
    cat > cpp.cc <<'EOC'
#include "ttcap.h"
static int f(int x) { TT_SCOPE(); TT_MARK("m"); TT_VALUE("x", x); TT_RETURN(x + 1); }
int main() { TT_LOG(TTCAP_INFO, "a %d %s %.1f %u", -1, "s", 2.5, 7u); return f(1) == 2 ? 0 : 1; }
EOC
    san=""
    ldd "$B/libttcap.so" | grep -q libasan && san="-fsanitize=address,undefined"
    "$CXX" -std=c++11 -Wall -Wextra -Werror $san -finstrument-functions -I"$top/capture" \
        -o cpp cpp.cc -L"$B" -lttcap -Wl,-rpath,"$B" || { echo "FAIL: C++ build"; fail=1; }
    TTCAP_OUT=cpp.trc ./cpp || { echo "FAIL: C++ run"; fail=1; }
    "$CHK" cpp.trc > cpp.out || fail=1
    has cpp.out "msg thread=0 a -1 s 2.5 7"
    has cpp.out "msg thread=0 return = 2"
    has cpp.out "count thread=0 func=f enter=1 exit=1"   # the TT_SCOPE pair
else
    echo "SKIP part: C++ check (no C++ compiler)"
fi

# ring: 1 MiB per thread with 64 KiB chunks; the last iterations are kept,
# the first chunk is pinned, the file stays small
TTCAP_OUT=r.trc TTCAP_RING=1 TTCAP_CHUNK_KB=64 "$B/fixtures/cap_ring" 1000000 || fail=1
"$CHK" r.trc > r.out || { echo "FAIL: check ring"; fail=1; }
hasre r.out "^header closed=1 exit=0 chunk=65536 ring=1 "
[ "$(stat -c %s r.trc)" -le $((4096 + 32 * 65536)) ] || { echo "FAIL: ring file too big"; fail=1; }
has r.out "msg thread=0 i = 0"
has r.out "msg thread=0 i = 999999"
n=$(grep -c '^msg' r.out)
[ "$n" -gt 50000 ] && [ "$n" -lt 500000 ] || { echo "FAIL: ring kept $n values"; fail=1; }
# the kept tail is contiguous: last n-k values are 1000000-(n-k) .. 999999
tail_first=$(grep '^msg' r.out | awk -F' = ' 'NR > 1 && $2 != p + 1 { print $2 } { p = $2 }' | tail -1)
[ -n "$tail_first" ] && [ "$tail_first" -gt 500000 ] || { echo "FAIL: ring tail at $tail_first"; fail=1; }
hasre r.out "^walk thread=0 .* nesting_errors=0 rc=0"

# cut: a file size limit stops the trace growing; the program runs on
(trap '' XFSZ; ulimit -f 3000; TTCAP_OUT=c.trc TTCAP_CHUNK_KB=64 \
    "$B/fixtures/cap_calls" calls 200000) || { echo "FAIL: cut run"; fail=1; }
"$CHK" c.trc > c.out || { echo "FAIL: check cut"; fail=1; }
has c.out "cut thread=0"
hasre c.out "^header closed=1 exit=0 "
leaf=$(sed -n 's/^count thread=0 func=leaf enter=\([0-9]*\) .*/\1/p' c.out)
[ "$leaf" -gt 1000 ] && [ "$leaf" -lt 400000 ] || { echo "FAIL: cut leaf=$leaf"; fail=1; }
exit $fail
