#!/bin/sh
# tests/flaky_check.sh - `make flaky-check`: the end-to-end tests that run
# threads (their outcome could hang on the scheduler) N times each (default
# 20) with two busy loops beside them, through tests/run.sh's job pool, so
# the threads of each fixture run short of cores. Prints a tally per test
# and exits 1 unless every run of every test passed (a skip is no pass).
#   sh tests/flaky_check.sh [BUILD] [N] [TEST...]
B=${1:-build}; N=${2:-20}
[ $# -gt 2 ] && shift 2 || set --
cd "$(dirname "$0")/.." || exit 2
# the e2e scripts whose fixtures start threads (or fork while threads run)
[ $# -gt 0 ] || set -- ttdiff_pools ttdiff_pool ttdiff_poll_moves ttdiff_order ttdiff_timing \
    ttdiff_baseline ttdiff_noise ttdiff_tree ttdiff_explain ttdiff_fixtures ttdiff_values \
    ttdiff_gdb example_race example_fork ttrec ttrec_race ttrec_chaos capture_threads \
    capture_siglog capture_faults capture_dlopen_fork cli_filters values_procs values_cancel \
    profile_fixtures profile_diff chrome_export readme_outputs report_outputs ttdump_capture \
    capture_sigfork values_gdb golden \
    ttdiff_atomic ttdiff_checkact ttdiff_contended ttdiff_earlywait ttdiff_flagrace ttdiff_hang \
    ttdiff_lostwakeup ttdiff_moved ttdiff_notify ttdiff_stopinline ttdiff_ordercause ttdiff_ordergetter \
    ttdiff_overlap ttdiff_waker ttdiff_wakewin capture_cancel
d=$(mktemp -d) || exit 2
busy=""
stop() { for p in $busy; do kill "$p" 2>/dev/null; done; rm -rf "$d"; }
trap stop EXIT
trap 'exit 130' INT TERM
for i in 1 2; do sh -c 'while :; do :; done' & busy="$busy $!"; done
echo "flaky-check: $# tests x $N runs, 2 busy loops beside them (load: $(cut -d' ' -f1-3 /proc/loadavg))"
s=$(date +%s)
i=1
while [ $i -le "$N" ]; do
    TT_LOGS=$d/run$i TT_TIMES=$d/times sh tests/run.sh "$B" "$@" > "$d/run$i.out" 2>&1
    echo "run $i/$N: $(tail -1 "$d/run$i.out") ($(( $(date +%s) - s )) s so far)"
    i=$((i + 1))
done
ret=0
printf '%-22s %s\n' test passed
for t in "$@"; do
    ok=0; bad=""
    i=1
    while [ $i -le "$N" ]; do
        rc=$(cut -d' ' -f1 "$d/run$i/$t.rc" 2>/dev/null)
        if [ "$rc" = 0 ]; then ok=$((ok + 1)); else bad="$bad $i"; fi
        i=$((i + 1))
    done
    printf '%-22s %d/%d%s\n' "$t" $ok "$N" "${bad:+  (failed in runs$bad)}"
    if [ $ok != "$N" ]; then
        ret=1
        for i in $bad; do
            mkdir -p "$B/flaky-logs" && cp "$d/run$i/$t.log" "$B/flaky-logs/$t.run$i.log"
        done
    fi
done
[ $ret = 0 ] || echo "flaky-check: the failed runs' logs are in $B/flaky-logs/"
echo "flaky-check: $(( $(date +%s) - s )) s"
exit $ret
