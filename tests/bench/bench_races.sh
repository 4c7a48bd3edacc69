#!/bin/sh
# bench_races.sh BUILD [REF_TTDIFF] - what naming races (diff/races.c: the
# happens-before walk) costs ttdiff on 3-thread runs of 25M events
# (gen_threads): (1) two identical runs without sync records, the
# bench_threads.sh pair: races are not looked for; (2) runs with a lock
# taken every 32 calls in both workers (about 1.6M SYNC_OP records) and the
# same calls, the bad run with exit status 1: the bad run is walked whole.
# With REF_TTDIFF (a ttdiff built without races, e.g. from main) both are
# timed, interleaved, median of 3 (CPU seconds), and the ratio printed.
# Never fails on speed. BENCH_RACES_EVENTS=N changes the size.

B=${1:-build}
REF=${2:-${REF_TTDIFF:-}}
N=${BENCH_RACES_EVENTS:-25000000}
GEN=$B/bench/gen_threads
TTDIFF=$B/ttdiff
tmp=$(mktemp -d /tmp/ttbraces.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

[ -x "$GEN" ] || make -s B="$B" bench-threads-progs >/dev/null 2>&1
for p in "$GEN" "$TTDIFF" /usr/bin/time; do
    [ -x "$p" ] || { echo "bench_races: $p missing (make B=$B all bench-threads-progs; apt-get install time)"; exit 1; }
done
echo "load before: $(uptime)"
"$GEN" "$N" 3 same "$tmp/p1.trc" >/dev/null && "$GEN" "$N" 3 swap "$tmp/p2.trc" >/dev/null &&
"$GEN" "$N" 3 same "$tmp/q1.trc" 1 0 >/dev/null && "$GEN" "$N" 3 swap "$tmp/q2.trc" 1 1 >/dev/null ||
    { echo "bench_races: gen_threads failed"; exit 1; }

# timed NAME BIN ARGS...: appends "cpu wall rss" to $tmp/NAME
timed() {
    name=$1 bin=$2; shift 2
    /usr/bin/time -f "%U %S %e %M" -o "$tmp/t" timeout 300 "$bin" "$@" > "$tmp/out.$name" 2>&1
    tail -n 1 "$tmp/t" | awk '{ printf "%.2f %s %s\n", $1 + $2, $3, $4 }' >> "$tmp/$name"
}
med() { sort -n "$tmp/$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

for r in 1 2 3; do
    timed same "$TTDIFF" "$tmp/p1.trc" "$tmp/p2.trc"
    timed sync "$TTDIFF" "$tmp/q1.trc" "$tmp/q2.trc"
    if [ -n "$REF" ]; then
        timed same_ref "$REF" "$tmp/p1.trc" "$tmp/p2.trc"
        timed sync_ref "$REF" "$tmp/q1.trc" "$tmp/q2.trc"
    fi
done
grep -q '^races' "$tmp/out.sync" && echo "bench_races: races reported on the synthetic runs?"
echo "ttdiff on 3-thread runs of $N events, CPU s (median of 3):"
for c in same sync; do
    what="identical, no sync records"
    [ "$c" = sync ] && what="sync records, exit 1 vs 0"
    if [ -n "$REF" ]; then
        awk -v w="$what" -v a="$(med $c)" -v b="$(med ${c}_ref)" 'BEGIN {
            printf "  %-28s with races %s, without %s: %.2fx\n", w, a, b, a / b }'
    else
        echo "  $what: $(med $c) (give REF_TTDIFF for the ratio)"
    fi
done
echo "load after: $(uptime)"
