#!/bin/sh
# check_threads.sh - reliability check (p): look-alike threads (issue 24,
# defect 5). rel_gen writes runs of T threads with the same name, start
# function and calls, started one after another; in the bad run thread
# 1,400 makes one other call. Every thread must be paired (identical runs:
# exit 0, no unpaired thread), the divergence found in thread 1,400, and the
# time near-linear: 20,000 threads within 15x of 2,000 (10x the threads).
# Before: 1,500 threads gave 900 pairs and 1,202 unpaired threads, and
# 20,000 threads took 54 s with 57 pairs. $2 = the big thread count.
B=$(cd "$1" && pwd); BIG=${2:-20000}
d=$(mktemp -d "${TMPDIR:-/tmp}/ttthr.XXXXXX") || exit 2
trap 'rm -rf "$d"' EXIT
ret=0
ms() { t0=$(date +%s%N); "$@"; r=$?; t1=$(date +%s%N); echo $(( (t1 - t0) / 1000000 )) > "$d/ms"; return $r; }
for t in 1500 2000 $BIG; do
    "$B/rel/rel_gen" threads "$d/g.trc" "$d/s.trc" $t 0 || exit 2
    ms "$B/ttdiff" "$d/g.trc" "$d/s.trc" > "$d/same" 2>&1; rs=$?; tsame=$(cat "$d/ms")
    "$B/rel/rel_gen" threads "$d/g.trc" "$d/b.trc" $t 1400 || exit 2
    ms "$B/ttdiff" "$d/g.trc" "$d/b.trc" > "$d/div" 2>&1; rd=$?; tdiv=$(cat "$d/ms")
    eval "ms_$t=$tdiv"
    pairs=$(sed -n 's/^no divergence in \([0-9]*\) thread pairs.*/\1/p' "$d/same")
    found=$(grep -c "^first divergence: thread worker (good #1400, bad #1400)" "$d/div")
    ok=ok
    [ $rs = 0 ] && [ "$pairs" = $((t + 1)) ] && ! grep -q unpaired "$d/same" || ok=FAIL
    [ $rd = 1 ] && [ "$found" = 1 ] || ok=FAIL
    [ $ok = ok ] || { ret=1; head -4 "$d/same" "$d/div"; }
    echo "RESULT p. $t look-alike threads|identical: exit $rs, ${pairs:-?} pairs, $tsame ms; divergence in thread 1,400: exit $rd, found $found, $tdiv ms|$ok"
done
eval "big=\$ms_$BIG"
ok=ok; [ "$big" -le $((15 * (ms_2000 > 0 ? ms_2000 : 1))) ] || { ok=FAIL; ret=1; }
echo "RESULT p. pairing time, $BIG vs 2,000 threads|$big ms vs $ms_2000 ms ($(awk "BEGIN { printf \"%.1f\", $big / ($ms_2000 > 0 ? $ms_2000 : 1) }")x, limit 15x)|$ok"
exit $ret
