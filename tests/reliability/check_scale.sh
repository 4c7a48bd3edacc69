#!/bin/sh
# check_scale.sh - reliability check (e): many threads, many short-lived
# threads, a very deep recursion, and a very large trace read within
# 32 bytes of memory per event (max RSS / events, /usr/bin/time -v) by
# ttdump --stats and ttdiff. $2 = full (the issue's sizes) or short.
B=$(cd "$1" && pwd); MODE=${2:-short}
CHK=$B/tests/capture_check; P=$B/rel/rel_scale
d=$(mktemp -d "${TMPDIR:-/tmp}/ttscale.XXXXXX") || exit 2
trap 'rm -rf "$d"' EXIT
if [ "$MODE" = full ]; then T=256; N=1000000; S=100000; D=100000; E=100000000
else T=16; N=10000; S=2000; D=100000; E=1000000; fi
ret=0
enters() { sed -n "s/^count thread=[0-9]* func=$2 enter=\([0-9]*\) exit=\([0-9]*\).*/\1 \2/p" "$1" |
           awk '{ e += $1; x += $2 } END { printf "%d %d\n", e, x }'; }
# ---- threads x calls
TTCAP_OUT=$d/t.trc "$P" threads $T $N > /dev/null
"$CHK" "$d/t.trc" > "$d/chk" 2>&1; rc=$?
set -- $(enters "$d/chk" leaf)
thr=$(grep -c '^thread idx=' "$d/chk")
lost=$(sed -n 's/^summary .* lost=\([0-9]*\).*/\1/p' "$d/chk")
ok=ok; [ $rc = 0 ] && [ "$1" = $((T * N)) ] && [ "$2" = $((T * N)) ] && [ "$thr" = $((T + 1)) ] || { ok=FAIL; ret=1; }
echo "RESULT e1. $T threads x $N calls|$thr threads, $1 enters / $2 exits of $((T * N)), lost ${lost:-?}, trace $(du -m "$d/t.trc" | cut -f1) MiB|$ok"
rm -f "$d/t.trc"
# ---- short-lived threads
TTCAP_OUT=$d/s.trc "$P" short $S > /dev/null
"$CHK" "$d/s.trc" > "$d/chk" 2>&1; rc=$?
set -- $(enters "$d/chk" leaf)
thr=$(grep -c '^thread idx=' "$d/chk")
ok=ok; [ $rc = 0 ] && [ "$1" = $S ] && [ "$thr" = $((S + 1)) ] || { ok=FAIL; ret=1; }
echo "RESULT e2. $S short-lived threads|$thr threads in the trace, $1 calls of $S|$ok"
rm -f "$d/s.trc"
# ---- deep recursion
TTCAP_OUT=$d/r.trc "$P" deep $D > /dev/null
"$CHK" "$d/r.trc" > "$d/chk" 2>&1; rc=$?
set -- $(enters "$d/chk" recurse)
md=$(sed -n 's/^walk thread=0 .* maxdepth=\([0-9]*\).*/\1/p' "$d/chk")
ok=ok; [ $rc = 0 ] && [ "$1" = $D ] && [ "$2" = $D ] && [ "${md:-0}" -ge $D ] || { ok=FAIL; ret=1; }
echo "RESULT e3. recursion $D deep|$1 enters / $2 exits, max depth $md|$ok"
$B/ttdump "$d/r.trc" > /dev/null 2>&1 || { echo "ttdump on the deep trace failed"; ret=1; }
rm -f "$d/r.trc"
# ---- memory per event on a large trace
G=$B/bench/gen_trace
if [ ! -x "$G" ]; then
    echo "RESULT e4. $E-event trace, memory per event|gen_trace not built (make bench-diff-progs)|skip"; exit $ret
fi
"$G" $E good "$d/g.trc" /dev/null > "$d/n" 2>&1
"$G" $E edits:10 "$d/b.trc" /dev/null > "$d/nb" 2>&1
ev=$(grep -o '[0-9]*' "$d/n" | tail -1)
rss() { /usr/bin/time -v "$@" > /dev/null 2> "$d/tv"; sed -n 's/.*Maximum resident set size (kbytes): //p' "$d/tv"; }
r1=$(rss "$B/ttdump" --stats "$d/g.trc")
r2=$(rss "$B/ttdiff" "$d/g.trc" "$d/b.trc")
b1=$((r1 * 1024 / ev)); b2=$((r2 * 1024 / ev))
ok=ok; [ $b1 -le 32 ] && [ $b2 -le 32 ] || { ok=FAIL; ret=1; }
echo "RESULT e4. $ev-event trace: max RSS per event|ttdump --stats $r1 KiB = $b1 B/event, ttdiff (10 edits) $r2 KiB = $b2 B/event|$ok"
exit $ret
