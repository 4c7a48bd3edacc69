#!/bin/sh
# bench_profile.sh BUILD - throughput of `ttdump --profile` and `ttdump
# --chrome` on a ~10M-event trace, against `uftrace report` and `uftrace
# dump --chrome` on the same workload recorded by uftrace (built with -pg),
# in the same run. Medians of BENCH_REPS (3) interleaved runs, output to
# /dev/null; prints events/s and ratios, never fails on speed.
# BENCH_SCALE=0.1 shrinks the trace for a quick look.

B=${1:-build}
BB=$B/bench
REPS=${BENCH_REPS:-3}
SCALE=${BENCH_SCALE:-1}
tmp=$(mktemp -d /tmp/ttbench_prof.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
note() { echo "note: $*"; }

if [ ! -x "$BB/prof_work.ttcap" ] || [ ! -x "$BB/prof_work.pg" ]; then
    make -s B="$B" bench-profile-progs >/dev/null 2>&1 || note "make bench-profile-progs failed"
fi
[ -x "$BB/prof_work.ttcap" ] && [ -x "$B/ttdump" ] ||
    { echo "bench_profile: $BB/prof_work.ttcap or $B/ttdump missing"; exit 1; }
# 8 events per iteration: 1.25M iterations = 10M events
iter=$(awk -v s="$SCALE" 'BEGIN { printf "%d", 1250000 * s }')

now() { date +%s%N; }
# run CMD...: wall ns of one run, output discarded; exits the script on failure
run() {
    t0=$(now)
    "$@" > /dev/null 2> "$tmp/err" || { echo "bench_profile: failed: $*"; cat "$tmp/err"; exit 1; }
    echo $(( $(now) - t0 ))
}
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# ---- record ---------------------------------------------------------------
TTCAP_OUT="$tmp/w.trc" "$BB/prof_work.ttcap" "$iter" > /dev/null ||
    { echo "bench_profile: recording with libttcap failed"; exit 1; }
tt_events=$("$B/ttdump" -n -s "$tmp/w.trc" | sed -n 's/^total: \([0-9]*\) events.*/\1/p')
have_uft=0
if ! command -v uftrace > /dev/null 2>&1; then
    note "uftrace not installed: ttdump figures only"
elif [ ! -x "$BB/prof_work.pg" ]; then
    note "$BB/prof_work.pg missing: ttdump figures only"
elif uftrace record -d "$tmp/uft" "$BB/prof_work.pg" "$iter" > /dev/null 2> "$tmp/uerr"; then
    have_uft=1
    # function records: enter + exit of every call uftrace counted
    uft_events=$(uftrace report -d "$tmp/uft" 2> /dev/null |
        awk 'NF >= 6 && $5 ~ /^[0-9]+$/ { n += $5 } END { printf "%d", 2 * n }')
else
    note "uftrace record failed: $(head -1 "$tmp/uerr")"
fi
echo "trace: $tt_events events ($(du -k "$tmp/w.trc" | cut -f1) KiB) from prof_work $iter"
[ "$have_uft" = 1 ] && echo "uftrace data: $uft_events function records ($(du -sk "$tmp/uft" | cut -f1) KiB)"

# ---- measure (interleaved) ------------------------------------------------
: > "$tmp/tp"; : > "$tmp/tc"; : > "$tmp/up"; : > "$tmp/uc"
i=0
while [ "$i" -lt "$REPS" ]; do
    run "$B/ttdump" -n --profile "$tmp/w.trc" >> "$tmp/tp"
    run "$B/ttdump" --chrome "$tmp/w.trc" >> "$tmp/tc"
    if [ "$have_uft" = 1 ]; then
        run uftrace report -d "$tmp/uft" >> "$tmp/up"
        run uftrace dump --chrome -d "$tmp/uft" >> "$tmp/uc"
    fi
    i=$((i + 1))
done
chrome_bytes=$("$B/ttdump" --chrome "$tmp/w.trc" | wc -c)
[ "$have_uft" = 1 ] && uchrome_bytes=$(uftrace dump --chrome -d "$tmp/uft" 2> /dev/null | wc -c)

line() { # name ns events
    awk -v n="$1" -v t="$2" -v e="$3" 'BEGIN {
        printf "  %-28s %9.3f s  %12.0f events/s\n", n, t / 1e9, e / (t / 1e9) }'
}
tp=$(median < "$tmp/tp"); tc=$(median < "$tmp/tc")
echo "median of $REPS runs (wall time, output to /dev/null):"
line "ttdump --profile" "$tp" "$tt_events"
line "ttdump --chrome" "$tc" "$tt_events"
echo "  ttdump --chrome output: $chrome_bytes bytes"
if [ "$have_uft" = 1 ]; then
    up=$(median < "$tmp/up"); uc=$(median < "$tmp/uc")
    line "uftrace report" "$up" "$uft_events"
    line "uftrace dump --chrome" "$uc" "$uft_events"
    echo "  uftrace dump --chrome output: $uchrome_bytes bytes"
    awk -v tp="$tp" -v tc="$tc" -v up="$up" -v uc="$uc" -v te="$tt_events" -v ue="$uft_events" 'BEGIN {
        printf "ratio (events/s, ttdump / uftrace): profile %.2fx, chrome %.2fx\n",
            (te / tp) / (ue / up), (te / tc) / (ue / uc) }'
fi
