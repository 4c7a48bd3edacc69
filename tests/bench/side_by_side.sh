#!/bin/sh
# side_by_side.sh OLD_TTDIFF NEW_TTDIFF GOOD.trc BAD.trc [REPS] - two ttdiff
# binaries on one trace pair, runs interleaved (old, new, old, new...) so
# machine load hits both alike; prints the median wall and CPU seconds and
# peak RSS of each, their ratio, and the load average before and after.
# For a refactor that must not be slower (issue 35): run it on
# bench_threads.sh's traces (gen_threads N 3 same / swap) and on a real
# pair. REPS defaults to 5. Never fails on speed. A pair that diverges
# (exit 1) is timed as well (time's "exited with non-zero status" line is
# skipped).
[ $# -ge 4 ] || { echo "usage: side_by_side.sh OLD NEW GOOD.trc BAD.trc [REPS]" >&2; exit 2; }
OLD=$1 NEW=$2 G=$3 BAD=$4 REPS=${5:-5}
[ -x /usr/bin/time ] || { echo "side_by_side: /usr/bin/time missing" >&2; exit 2; }
tmp=$(mktemp -d /tmp/ttside.XXXXXX) || exit 2
trap 'rm -rf "$tmp"' EXIT
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
r=0
while [ "$r" -lt "$REPS" ]; do
    for v in old new; do
        exe=$OLD; [ $v = new ] && exe=$NEW
        /usr/bin/time -f "%e %U %S %M %x" -o "$tmp/t" "$exe" "$G" "$BAD" > /dev/null 2>&1
        tail -n 1 "$tmp/t" | awk '{ printf "%s %.2f %s %s\n", $1, $2 + $3, $4, $5 }' >> "$tmp/$v"
    done
    r=$((r + 1))
done
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"
med() { sort -n -k"$2" "$tmp/$1" | awk -v k="$2" '{ v[NR] = $k } END { print v[int((NR + 1) / 2)] }'; }
for v in old new; do
    echo "$v: wall $(med $v 1) s, cpu $(med $v 2) s, max RSS $(med $v 3) KB, exit $(awk 'NR == 1 { print $4 }' "$tmp/$v") (median of $REPS)"
done
awk -v a="$(med new 2)" -v b="$(med old 2)" -v c="$(med new 1)" -v d="$(med old 1)" 'BEGIN {
    printf "new / old: cpu %.2fx, wall %.2fx\n", a / b, c / d }'
