#!/bin/sh
# chaos_runs.sh BUILD [SEARCHES [CAP]] - runs-to-failure of the race
# fixture fixtures/progs/race_tickets (a check outside the lock, a window of
# a few hundred ns) with and without ttrec --chaos: SEARCHES searches each
# (default 10), each `ttrec --until-fail CAP --keep 1` (default cap 2000
# runs; a search that finds nothing counts as CAP and is marked), and the
# median, min and max of the run number that failed. Chaos search k uses
# base seed k. Never fails on the numbers; the table in tests/bench/PERFORMANCE.md
# (Chaos mode) comes from it.
# Extra fixture arguments: CHAOS_RUNS_ARGS (default none).

B=${1:-build}
S=${2:-10}
CAP=${3:-2000}
P=$B/fixtures/race_tickets
tmp=$(mktemp -d /tmp/ttchaos.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
for f in "$B/ttrec" "$P"; do
    [ -x "$f" ] || { echo "chaos_runs: $f missing (make B=$B all fixtures)"; exit 1; }
done

# search MODE K: the failing run's number, or "CAP+" when none failed
search() {
    mode=$1 k=$2
    set -- --until-fail "$CAP" --keep 1 -f -o "$tmp/h"
    [ "$mode" = chaos ] && set -- "$@" --chaos="$k"
    # shellcheck disable=SC2086
    "$B/ttrec" "$@" -- "$P" $CHAOS_RUNS_ARGS > /dev/null 2> "$tmp/err"
    n=$(sed -n 's/^ttrec: run \([0-9]*\) failed.*/\1/p' "$tmp/err" | head -n 1)
    echo "${n:-$CAP+}"
}

stats() {
    tr ' ' '\n' | sed '/^$/d; s/+$//' | sort -n | awk '
        { v[NR] = $1 }
        END { m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
              printf "median %s, min %s, max %s", m, v[1], v[NR] }'
}

echo "load before: $(uptime)"
for mode in plain chaos; do
    all=""
    k=1
    while [ "$k" -le "$S" ]; do
        all="$all $(search "$mode" "$k")"
        k=$((k + 1))
    done
    capped=$(echo "$all" | tr ' ' '\n' | grep -c '+$')
    echo "$mode: runs to failure:$all"
    echo "$mode: $(echo "$all" | stats) ($capped of $S searches hit the cap of $CAP)"
done
echo "load after: $(uptime)"
