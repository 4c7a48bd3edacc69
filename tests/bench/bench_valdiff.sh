#!/bin/sh
# bench_valdiff.sh BUILD - what values mode costs ttdiff (issue 38 item 3:
# at most 1.5x): ttdiff on a real program's values-mode traces against the
# plain-mode traces of the same runs, the program built each way by ttcc
# (`ttcc --values` and `ttcc`), the same inputs. The traces are a `make
# realbugs` case's recordings, BENCH_VALDIFF_CASE (jq-indent: jq 1.6, 10-13M
# events a run) under BENCH_VALDIFF_DIR (BUILD/realbugs): <case>/plain/ and
# <case>/values/, each with ok1.trc, ok2.trc (two passing runs) and bad.trc.
# Two pairs, each mode: the identical runs (ok1 ok2) and good against bad
# (ok1 bad, --format json, as make realbugs runs it). BENCH_REPS (3) rounds,
# the four runs of a round interleaved; median and least CPU seconds (user + system)
# and peak RSS of each, the ratio values / plain per pair. Without the
# recordings it says how to make them and stops (status 0). Never fails on
# speed.

B=${1:-build}
CASE=${BENCH_VALDIFF_CASE:-jq-indent}
DIR=${BENCH_VALDIFF_DIR:-$B/realbugs}
REPS=${BENCH_REPS:-3}
TTDIFF=$B/ttdiff
tmp=$(mktemp -d /tmp/ttbvald.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

for p in "$TTDIFF" /usr/bin/time; do
    [ -x "$p" ] || { echo "bench_valdiff: $p missing (make B=$B all; apt-get install time)"; exit 1; }
done
for m in plain values; do
    for f in ok1 ok2 bad; do
        [ -f "$DIR/$CASE/$m/$f.trc" ] && continue
        echo "bench_valdiff: skipped: no $DIR/$CASE/$m/$f.trc (record it first:" \
             "make realbugs CASES=$CASE, about 5 minutes)"
        exit 0
    done
done

# timed NAME ARGS...: appends "cpu rss" to $tmp/NAME
timed() {
    name=$1; shift
    /usr/bin/time -f "%U %S %M" -o "$tmp/t" timeout 600 "$TTDIFF" "$@" > /dev/null 2>&1
    tail -n 1 "$tmp/t" | awk '{ printf "%.2f %s\n", $1 + $2, $3 }' >> "$tmp/$name"
}
med() { sort -n -k"$2" "$tmp/$1" | awk -v k="$2" '{ v[NR] = $k } END { print v[int((NR + 1) / 2)] }'; }
least() { sort -n -k"$2" "$tmp/$1" | awk -v k="$2" 'NR == 1 { print $k }'; }
events() {
    "$B/ttdump" --stats "$1" 2>/dev/null | awk '/^  events:/ { print $2; exit }'
}

echo "load before: $(uptime)"
P=$DIR/$CASE/plain V=$DIR/$CASE/values
for r in $(seq "$REPS"); do
    timed pid "$P/ok1.trc" "$P/ok2.trc"
    timed vid "$V/ok1.trc" "$V/ok2.trc"
    timed pbad --format json "$P/ok1.trc" "$P/bad.trc"
    timed vbad --format json "$V/ok1.trc" "$V/bad.trc"
done
echo "ttdiff on $CASE's recordings, plain ($(events "$P/ok1.trc") events a run) against values" \
     "($(events "$V/ok1.trc") events), median of $REPS (CPU s / peak RSS KB):"
for pair in id bad; do
    label="two identical runs"
    [ "$pair" = bad ] && label="good against bad, --format json"
    pc=$(med "p$pair" 1) vc=$(med "v$pair" 1) pl=$(least "p$pair" 1) vl=$(least "v$pair" 1)
    awk -v l="$label" -v p="$pc" -v v="$vc" -v pr="$(med "p$pair" 2)" -v vr="$(med "v$pair" 2)" \
        -v pl="$pl" -v vl="$vl" 'BEGIN {
        printf "  %-34s plain %.2f / %s, values %.2f / %s: values / plain %.2fx (target <= 1.5x)\n",
               l, p, pr, v, vr, (p > 0 ? v / p : 0)
        printf "  %-34s least CPU: plain %.2f, values %.2f: %.2fx\n", "", pl, vl, (pl > 0 ? vl / pl : 0) }'
done
echo "(on a shared VM a run's CPU time can jump between rounds, the same binary on"
echo " the same traces: the plain pair's two reading threads took 1.35 or 1.7-1.9 s"
echo " in session 36; the least of the rounds is the figure least touched by that)"
echo "load after:  $(uptime)"
