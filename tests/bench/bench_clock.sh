#!/bin/sh
# bench_clock.sh BUILD [PROGRAM ARGS...] - the sparse and lazy clocks'
# error on a profile, measured on one run: PROGRAM (a build with libttcap;
# default the profile bench's prof_work.ttcap) is recorded once with
# TTCAP_CLOCK=every (every ENTER and EXIT timed; at SCHED_FIFO priority
# when chrt may, so that nothing preempts it), then `sparsify` drops the
# times libttcap's sparse mode (format 1.4: EXITs) and lazy mode (`-l`,
# format 1.7: EXITs, and the ENTERs right after an untimed EXIT) would not
# have read, by the writer's rules (and chain mode, `-c`, format 1.9, the
# default: and the ENTERs right after an untimed ENTER). Each file differs from the recording
# only by the reader's estimate of the untimed events, so their `ttdump
# --profile` tables compare without the noise of two runs (which differ
# by 14-30% per function on a loaded VM). BENCH_CLOCK_MODES ("sparse
# lazy chain") picks the tables.
# For each mode and each function above BENCH_MIN_PCT (1) percent of the
# self time: calls, self and total share of the every-event profile, and
# the mode's profile's relative error of its self and total time; then the worst of
# each, for the functions above BENCH_MIN_PCT and above 5%. Never fails on
# the figures (exit 1 only when a step fails). BENCH_TRACE=FILE takes an
# every-mode trace recorded before instead of PROGRAM (one recording, the
# reader's estimate compared across builds).
B=${1:-build}
[ $# -gt 0 ] && shift
BB=$B/bench
MIN=${BENCH_MIN_PCT:-1}
tmp=$(mktemp -d /tmp/ttbench_clock.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

[ -x "$BB/sparsify" ] || make -s B="$B" "$BB/sparsify" >/dev/null 2>&1
[ -x "$BB/sparsify" ] && [ -x "$B/ttdump" ] || { echo "bench_clock: $BB/sparsify or $B/ttdump missing"; exit 1; }
if [ $# -eq 0 ]; then
    [ -x "$BB/prof_work.ttcap" ] || make -s B="$B" bench-profile-progs >/dev/null 2>&1
    set -- "$BB/prof_work.ttcap" 2000000
fi
fifo=""
chrt -f 10 true 2>/dev/null && fifo="chrt -f 10"
if [ -n "${BENCH_TRACE:-}" ]; then      # an every-mode trace recorded before
    cp "$BENCH_TRACE" "$tmp/every.trc" || exit 1
    fifo="" && set -- "$BENCH_TRACE"
else
    TTCAP_OUT="$tmp/every.trc" TTCAP_CLOCK=every $fifo "$@" > /dev/null ||
        { echo "bench_clock: recording failed: $*"; exit 1; }
fi
"$B/ttdump" -n --profile --sort self "$tmp/every.trc" > "$tmp/every.prof" ||
    { echo "bench_clock: ttdump --profile every failed"; exit 1; }
ev=$(sed -n 's/^profile: .*, \([0-9]*\) events,.*/\1/p' "$tmp/every.prof")
echo "program: $*"
echo "events: $ev (recorded with TTCAP_CLOCK=every${fifo:+, $fifo})"
for mode in ${BENCH_CLOCK_MODES:-sparse lazy chain}; do
flag=""
[ "$mode" = lazy ] && flag=-l
[ "$mode" = chain ] && flag=-c
"$BB/sparsify" $flag "$tmp/every.trc" "$tmp/$mode.trc" > "$tmp/sp.out" ||
    { echo "bench_clock: sparsify $flag failed"; cat "$tmp/sp.out"; exit 1; }
"$B/ttdump" -n --profile --sort self "$tmp/$mode.trc" > "$tmp/$mode.prof" ||
    { echo "bench_clock: ttdump --profile $mode failed"; exit 1; }
echo
echo "mode $mode: sparsify $flag: $(cat "$tmp/sp.out")"
# profile rows: calls total self min avg max never function (name may hold spaces)
awk -v min="$MIN" '
function row(line,   n, a, name, i) {
    n = split(line, a, " ")
    name = a[8]
    for (i = 9; i <= n; i++) name = name " " a[i]
    return name
}
FNR == 1 { file++ }
/^ *calls +total/ { on[file] = 1; next }
on[file] && NF >= 8 {
    k = row($0)
    if (file == 1) { calls[k] = $1; tot[k] = $2; self[k] = $3; sum1 += $3; order[++n] = k }
    else { tot2[k] = $2; self2[k] = $3; sum2 += $3 }
}
function rel(a, b) { return b > 0 ? 100 * (a - b) / b : 0 }
function abs(x) { return x < 0 ? -x : x }
END {
    printf "%-32s %10s %8s %8s %9s %9s\n", "function", "calls", "self%", "total%", "self err", "total err"
    for (i = 1; i <= n; i++) {
        k = order[i]
        s = 100 * self[k] / sum1
        if (s < min) continue
        es = rel(self2[k], self[k]); et = rel(tot2[k], tot[k])
        printf "%-32s %10d %7.2f%% %7.2f%% %+8.1f%% %+8.1f%%\n", substr(k, 1, 32), calls[k], s,
               100 * tot[k] / sum1, es, et
        m++
        if (abs(es) > ws) ws = abs(es)
        if (abs(et) > wt) wt = abs(et)
        if (abs(es) <= 5) oks++
        if (abs(et) <= 5) okt++
        if (s >= 5) { m5++; if (abs(es) > ws5) ws5 = abs(es); if (abs(et) > wt5) wt5 = abs(et) }
    }
    printf "functions above %s%% of the self time: %d; within 5%%: %d by total, %d by self; worst total %.1f%%, self %.1f%%\n",
           min, m, okt, oks, wt, ws
    printf "functions above 5%%: %d; worst total %.1f%%, self %.1f%%\n", m5, wt5, ws5
}' "$tmp/every.prof" "$tmp/$mode.prof"
done
