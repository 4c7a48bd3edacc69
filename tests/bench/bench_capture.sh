#!/bin/sh
# bench_capture.sh BUILD - cost per traced call (one enter + one exit) and
# bytes per call of libttcap against the plain build, empty hooks, uftrace and
# LTTng-UST, on the same binaries (built by tests/bench/capture.mk). Prints
# median ns/call of BENCH_REPS (5) interleaved runs; never fails on speed.
# The floor first: one clock read (clock_cost), so that "tt ns per call /
# clock read" compares across machines; libttcap's default and each clock
# mode (TTCAP_CLOCK=lazy, sparse, every, none) side by side, with the
# clock reads per call (records carrying a measured time) and each mode's
# clock share of the cost (cpu ns/call over order-only), against the
# every-event mode's (issue 38's target: the default, the chain clock of
# format 1.9, at most half; lazy is format 1.7's rule, the default before)
# and the lazy clock's against the sparse one's.
# BENCH_SCALE=0.1 shrinks every run for a quick look; on a busy machine it
# stops after 3 reps when the next would pass BENCH_BUDGET (300) seconds.
# BENCH_BASE=REF (a git commit, branch or tag) adds a "before" row: the same
# binary run with the libttcap.so of REF (tests/bench/before.sh), and the
# change in ns and bytes per call against it, in the same run.

B=${1:-build}
BB=$B/bench
REPS=${BENCH_REPS:-5}
SCALE=${BENCH_SCALE:-1}
BUDGET=${BENCH_BUDGET:-300}
tmp=$(mktemp -d /tmp/ttbench.XXXXXX) || exit 1
res=$tmp/results
: > "$res"
sessiond_pid=""
sess=""

cleanup() {
    [ -n "$sess" ] && lttng destroy "$sess" >/dev/null 2>&1
    [ -n "$sessiond_pid" ] && kill "$sessiond_pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

note() { echo "note: $*"; }

# ---- programs ------------------------------------------------------------
# always (make is incremental): a program older than the library or the
# format header it was built from would count a new trace with old rules
make -s B="$B" bench-capture-progs >/dev/null 2>&1 ||
    note "make bench-capture-progs failed; running what exists"

for p in cap_work.plain cap_work.empty cap_work.inst cap_trcstat clock_cost; do
    [ -x "$BB/$p" ] || { echo "bench_capture: $BB/$p missing (make B=$B bench-capture-progs)"; exit 1; }
done
have_tt=0
[ -x "$BB/cap_work.ttcap" ] && have_tt=1
[ "$have_tt" = 1 ] || note "libttcap not built yet: no ttcap rows"
have_static=0
[ -x "$BB/cap_work.ttcap-static" ] && have_static=1
before=""
if [ -n "${BENCH_BASE:-}" ] && [ "$have_tt" = 1 ]; then
    before=$(sh tests/bench/before.sh "$B" "$BENCH_BASE") || before=""
fi
have_log=0
[ -x "$BB/cap_log.ttcap" ] && [ -x "$BB/cap_log.plain" ] && have_log=1

# ---- peers (installed with apt-get when missing and root, else skipped) --
try_install() {
    [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 || return 1
    echo "installing $*..."
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >/dev/null 2>&1
}
have_uft=0
command -v uftrace >/dev/null 2>&1 || try_install uftrace
if command -v uftrace >/dev/null 2>&1; then have_uft=1; else note "uftrace not installed: skipped"; fi

cyg=""
find_cyg() {
    for d in /usr/lib/x86_64-linux-gnu /usr/lib64 /usr/lib /usr/local/lib; do
        for f in "$d"/liblttng-ust-cyg-profile-fast.so "$d"/liblttng-ust-cyg-profile-fast.so.1; do
            [ -f "$f" ] && { cyg=$f; return 0; }
        done
    done
    return 1
}
find_cyg && command -v lttng >/dev/null 2>&1 || { try_install lttng-tools liblttng-ust-dev; find_cyg; }
have_lt=0
if [ -n "$cyg" ] && command -v lttng >/dev/null 2>&1 && command -v lttng-sessiond >/dev/null 2>&1; then
    if ! lttng list >/dev/null 2>&1; then
        lttng-sessiond --daemonize >/dev/null 2>&1
        for f in /run/lttng/lttng-sessiond.pid "$HOME/.lttng/lttng-sessiond.pid"; do
            [ -f "$f" ] && sessiond_pid=$(cat "$f") && break
        done
    fi
    if lttng list >/dev/null 2>&1; then have_lt=1; else note "lttng-sessiond not reachable: LTTng skipped"; fi
else
    note "LTTng (lttng-tools, liblttng-ust-cyg-profile-fast.so) not installed: skipped"
fi

# ---- one run -------------------------------------------------------------
# calls per thread for each variant class, sized for ~0.1-0.6 s per run
ncalls() {
    case $1 in
    plain|empty|stub|off|offnoplt|offstatic) n=50000000 ;;
    ttcap|every|sparse|lazy|static|before) n=6000000 ;;
    none) n=12000000 ;;
    uftrace) n=1000000 ;;
    uftrace4m) n=2000000 ;;
    lttng) n=1500000 ;;
    log-*) n=10000000 ;;
    esac
    n=$((n / 1000 * scale_pm))
    echo $((n < 1000 ? 1000 : n))
}
scale_pm=$(awk -v s="$SCALE" 'BEGIN { printf "%d", s * 1000 }')

# load_kv FILE: each numeric NAME=value in FILE becomes $kv_NAME (no fork:
# a busy machine makes every extra process cost tens of milliseconds)
load_kv() {
    unset kv_ns_per_call kv_cpu_ns_per_call kv_calls kv_maxrss_kb kv_data_bytes \
        kv_enters kv_messages kv_events kv_chunk_size kv_damaged kv_timed kv_clock_ns \
        kv_cpu_clock_ns
    while read -r line; do
        for kv in $line; do
            k=${kv%%=*}; val=${kv#*=}
            case $k in ''|*[!a-z_]*) continue ;; esac
            case $val in ''|*[!0-9.]*) continue ;; esac
            eval "kv_$k=\$val"
        done
    done < "$1"
}

trc=$tmp/t.trc
sess=""

# run WORKLOAD THREADS VARIANT REP: appends "wl variant rep ns bytes rss flag"
run() {
    wl=$1; th=$2; v=$3; rep=$4
    n=$(ncalls "$v")
    out=$tmp/out; : > "$out"
    bytes=-; flag=-; reads=-
    rm -rf "$trc" "$tmp/uft" "$tmp/lt"
    case $v in
    plain) "$BB/cap_work.plain" "$wl" "$n" "$th" > "$out" ;;
    empty) "$BB/cap_work.empty" "$wl" "$n" "$th" > "$out" ;;
    stub) "$BB/cap_work.inst" "$wl" "$n" "$th" > "$out" ;;
    off) env -u TTCAP_OUT -u TTCAP "$BB/cap_work.ttcap" "$wl" "$n" "$th" > "$out" ;;
    offnoplt) env -u TTCAP_OUT -u TTCAP "$BB/cap_work.ttcap-noplt" "$wl" "$n" "$th" > "$out" ;;
    offstatic) env -u TTCAP_OUT -u TTCAP "$BB/cap_work.ttcap-static" "$wl" "$n" "$th" > "$out" ;;
    ttcap) TTCAP_OUT=$trc "$BB/cap_work.ttcap" "$wl" "$n" "$th" > "$out" ;;
    every) TTCAP_CLOCK=every TTCAP_OUT=$trc "$BB/cap_work.ttcap" "$wl" "$n" "$th" > "$out" ;;
    sparse) TTCAP_CLOCK=sparse TTCAP_OUT=$trc "$BB/cap_work.ttcap" "$wl" "$n" "$th" > "$out" ;;
    lazy) TTCAP_CLOCK=lazy TTCAP_OUT=$trc "$BB/cap_work.ttcap" "$wl" "$n" "$th" > "$out" ;;
    before) TTCAP_OUT=$trc LD_LIBRARY_PATH=$before "$BB/cap_work.ttcap" "$wl" "$n" "$th" > "$out" ;;
    none) TTCAP_CLOCK=none TTCAP_OUT=$trc "$BB/cap_work.ttcap" "$wl" "$n" "$th" > "$out" ;;
    static) TTCAP_OUT=$trc "$BB/cap_work.ttcap-static" "$wl" "$n" "$th" > "$out" ;;
    uftrace) uftrace record -d "$tmp/uft" "$BB/cap_work.inst" "$wl" "$n" "$th" > "$out" 2>"$tmp/err" ;;
    uftrace4m) uftrace record -b 4M -d "$tmp/uft" "$BB/cap_work.inst" "$wl" "$n" "$th" > "$out" 2>"$tmp/err" ;;
    lttng) run_lttng "$wl" "$n" "$th" ;;
    log-plain) "$BB/cap_log.plain" "$n" > "$out" ;;
    log-off) env -u TTCAP_OUT -u TTCAP "$BB/cap_log.ttcap" "$n" > "$out" ;;
    log-filtered) TTCAP_LEVEL=2 TTCAP_OUT=$trc "$BB/cap_log.ttcap" "$n" > "$out" ;;
    log-ttcap) TTCAP_OUT=$trc "$BB/cap_log.ttcap" "$n" > "$out" ;;
    log-none) TTCAP_CLOCK=none TTCAP_OUT=$trc "$BB/cap_log.ttcap" "$n" > "$out" ;;
    esac
    load_kv "$out"
    ns=${kv_ns_per_call:-}; cpu=${kv_cpu_ns_per_call:-}; calls=${kv_calls:-0}; rss=${kv_maxrss_kb:-0}
    if [ -z "$ns" ]; then
        echo "bench_capture: $wl x$th $v produced no figure:"; sed 's/^/    /' "$out" "$tmp/err" 2>/dev/null | head -5
        broken=1
        return
    fi
    total=$((calls * th))
    case $v in
    ttcap|every|sparse|lazy|none|static|before|log-ttcap|log-none|log-filtered) trace_bytes "$total" ;;
    uftrace*) bytes=$(cat "$tmp"/uft/*.dat 2>/dev/null | wc -c) ;;
    lttng) bytes=$lt_bytes; flag=$lt_flag ;;
    esac
    echo "$wl-$th $v $rep $ns $bytes $rss $flag $cpu $total $reads" >> "$res"
}

# bytes of a ttcap trace and a check that no call was lost
trace_bytes() {
    if [ ! -f "$trc" ]; then flag=no-trace; return; fi
    "$BB/cap_trcstat" "$trc" > "$tmp/st" 2>&1 || { flag=unreadable; return; }
    load_kv "$tmp/st"
    bytes=${kv_data_bytes:-0}
    reads=$(awk -v t="${kv_timed:-0}" -v c="$1" 'BEGIN { printf "%.3f", (c > 0 ? t / c : 0) }')
    chunk_kib=$((${kv_chunk_size:-0} / 1024))
    st_events=${kv_events:-0}
    case $v in
    log-ttcap|log-none) got=${kv_messages:-0} ;;
    log-filtered) got=$((${kv_messages:-0} + $1)) ;;
    *) got=${kv_enters:-0} ;;
    esac
    [ "${kv_damaged:-0}" = 1 ] && flag=damaged
    [ "$got" -lt "$1" ] && flag="LOST-calls:$(($1 - got))"
    # first rep: the project's reader must agree (every event decodable, none lost)
    if [ "$rep" = 1 ] && [ -x "$B/ttdump" ] && [ "$flag" = - ]; then
        "$B/ttdump" --stats "$trc" > "$tmp/dump" 2>&1
        rev=$(sed -n 's/^ *events: *\([0-9]*\).*/\1/p' "$tmp/dump" | head -1)
        rlost=$(sed -n 's/^ *events: *[0-9]* (lost \([0-9]*\)).*/\1/p' "$tmp/dump" | head -1)
        if [ -z "$rev" ] || [ "$rev" -lt "$st_events" ] || [ "${rlost:-0}" != 0 ]; then
            flag="ttdump-disagrees:${rev:-0}"
        else
            checked=$((checked + 1))
        fi
    fi
    [ "$got" -gt "$1" ] && [ "$v" = log-filtered ] && flag="recorded-msgs:$((got - $1))"
}

run_lttng() {
    sess=ttbench$$
    lt_bytes=-; lt_flag=-
    lttng create "$sess" --output="$tmp/lt" >/dev/null 2>&1 &&
        lttng enable-event -u -s "$sess" 'lttng_ust_cyg_profile_fast:*' >/dev/null 2>&1 &&
        lttng start "$sess" >/dev/null 2>&1 ||
        { echo "lttng session setup failed" > "$tmp/err"; lttng destroy "$sess" >/dev/null 2>&1; sess=""; return; }
    LD_PRELOAD=$cyg "$BB/cap_work.inst" "$1" "$2" "$3" > "$out" 2>"$tmp/err"
    lttng stop "$sess" >/dev/null 2>&1
    # "Discarded events" per channel; a huge value means lttng does not know
    lost=$(lttng list "$sess" 2>/dev/null | sed -n 's/.*Discarded events: *\([0-9]*\).*/\1/p' |
        awk '{ if (length($1) > 15) u = 1; else s += $1 } END { print u ? -1 : s + 0 }')
    lttng destroy "$sess" >/dev/null 2>&1
    sess=""
    lt_bytes=$(find "$tmp/lt" -type f -name 'channel*' ! -path '*/index/*' -exec cat {} + 2>/dev/null | wc -c)
    # bytes per recorded call: scale by what was kept
    ev=$(($2 * $3 * 2))
    [ "$lost" -lt 0 ] && lt_flag="dropped%:unknown"
    if [ "$lost" -gt 0 ]; then
        lt_flag="dropped%:$(awk -v e="$ev" -v l="$lost" 'BEGIN { printf "%.1f", 100 * l / e }')"
        lt_bytes=$(awk -v b="$lt_bytes" -v e="$ev" -v l="$lost" 'BEGIN { printf "%d", (e > l ? b * e / (e - l) : 0) }')
    fi
}

# ---- the runs, interleaved: every rep runs every variant once -----------
variants="plain empty stub"
[ "$have_tt" = 1 ] && variants="$variants off ttcap lazy sparse every none"
[ -n "$before" ] && variants="$variants before"
[ -x "$BB/cap_work.ttcap-noplt" ] && variants="$variants offnoplt"
[ "$have_static" = 1 ] && variants="$variants offstatic static"
[ "$have_uft" = 1 ] && variants="$variants uftrace uftrace4m"
[ "$have_lt" = 1 ] && variants="$variants lttng"
logvariants="log-plain log-off log-filtered log-ttcap log-none"

broken=0
checked=0
start=$(date +%s)
load0=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
echo "capture bench: $REPS reps, scale $SCALE, $(nproc) cpus, $(uname -r), load $load0; variants: $variants"
"$BB/clock_cost" > "$tmp/clock" 2>&1
load_kv "$tmp/clock"
clock_wall=${kv_clock_ns:-0}; clock_cpu=${kv_cpu_clock_ns:-0}
echo "floor: one clock read (rdtsc, used) $clock_wall ns wall, $clock_cpu ns cpu (clock_cost)"
rep=1
while [ "$rep" -le "$REPS" ]; do
    for wl in leaf chain fib; do
        for th in 1 2; do
            for v in $variants; do run "$wl" "$th" "$v" "$rep"; done
        done
    done
    if [ "$have_log" = 1 ]; then
        for v in $logvariants; do run log 1 "$v" "$rep"; done
    fi
    took=$(($(date +%s) - start))
    echo "  rep $rep done ($took s)"
    # a busy machine: stop at 3 reps or more rather than overrun the budget
    if [ "$rep" -ge 3 ] && [ "$rep" -lt "$REPS" ] && [ $((took + took / rep)) -gt "$BUDGET" ]; then
        echo "  stopping after $rep reps: the next would pass the ${BUDGET} s budget (BENCH_BUDGET)"
        REPS=$rep
    fi
    rep=$((rep + 1))
done

# ---- table ---------------------------------------------------------------
# Ratios and targets use wall time, or the thread CPU time when the machine
# was busy (load above half the cpus at start or end): then wall time mostly
# measures the other processes.
load1=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null)
basis=$(awk -v a="$load0" -v b="$load1" -v n="$(nproc)" 'BEGIN { print (a + 0 > n / 2 || b + 0 > n / 2) ? "cpu" : "wall" }')
# results: wl variant rep wall_ns bytes rss_kb flag cpu_ns
awk -v basis="$basis" -v bbase="${BENCH_BASE:-}" -v clk="$clock_cpu" '
function med(s,   n, i, j, t, a) {
    n = split(s, a, " ")
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n ? a[int((n + 1) / 2)] : ""
}
BEGIN {
    name["plain"] = "plain (no hooks)"; name["empty"] = "empty hooks (in exe)"
    name["stub"] = "glibc stub hooks (PLT)"; name["off"] = "ttcap disabled (.so)"
    name["offstatic"] = "ttcap disabled (static)"; name["offnoplt"] = "ttcap disabled (-fno-plt)"
    name["ttcap"] = "ttcap default (.so)"; name["none"] = "ttcap order-only (.so)"
    name["every"] = "ttcap tsc every (.so)"; name["sparse"] = "ttcap tsc sparse (.so)"
    name["lazy"] = "ttcap tsc lazy 1.7 (.so)"
    name["static"] = "ttcap tsc (static)"; name["uftrace"] = "uftrace record"
    name["uftrace4m"] = "uftrace record -b 4M"; name["lttng"] = "lttng-ust cyg-fast"
    name["log-plain"] = "loop, TT_LOG compiled out"; name["log-off"] = "TT_LOG, tracing disabled"
    name["log-filtered"] = "TT_LOG above threshold"; name["log-ttcap"] = "TT_LOG tsc"
    name["log-none"] = "TT_LOG order-only"; name["before"] = "ttcap tsc (.so), BENCH_BASE"
}
{
    k = $1 SUBSEP $2
    if (!(k in wall)) { order[++nk] = k; if (!($1 in seen)) { seen[$1] = 1; wls[++nw] = $1 } }
    wall[k] = wall[k] " " $4; cpu[k] = cpu[k] " " $8; rss[k] = rss[k] " " $6
    if ($5 != "-" && $9 > 0) bytes[k] = bytes[k] " " $5 / $9
    if ($7 != "-") { split($7, fp, ":"); fname[k] = fp[1]; fcount[k]++; fvals[k] = fvals[k] " " fp[2] }
    if ($10 != "" && $10 != "-") reads[k] = reads[k] " " $10
}
function flagtext(k, lead,   n, a) {
    if (!(k in fcount)) return ""
    n = split(wall[k], a, " ")
    return sprintf("%s%s %s (%d/%d runs)", lead ? "; " : "", fname[k], med(fvals[k]), fcount[k], n)
}
function fig(k) { return basis == "cpu" ? med(cpu[k]) : med(wall[k]) }
function ratio(a, b) { return b <= 0 ? "-" : sprintf(a / b < 0.1 ? "%.3fx" : "%.2fx", a / b) }
function verdict(ok) { return ok ? "ok" : "MISSED" }
function target(v, m, bm, e, rd) {
    if (v == "ttcap" || v == "static" || v == "lazy" || v == "sparse")
        return sprintf("target <=30 ns %s, <=8 B %s, <=1.15 reads %s", verdict(m <= 30),
                       verdict(bm != "-" && bm <= 8), verdict(rd != "-" && rd <= 1.15))
    if (v == "none")
        return sprintf("target <=10 ns %s, <=8 B %s", verdict(m <= 10), verdict(bm != "-" && bm <= 8))
    if (v == "off" || v == "offstatic" || v == "offnoplt")
        return sprintf("target <=+1 ns over empty: %+.2f %s", m - e, verdict(m - e <= 1))
    if (v == "log-ttcap")
        return sprintf("target <=25 ns %s", verdict(m <= 25))
    return ""
}
END {
    for (w = 1; w <= nw; w++) {
        wl = wls[w]; sub(/-1$/, " x1 thread", wl); sub(/-2$/, " x2 threads", wl)
        islog = wls[w] ~ /^log/
        e = fig(wls[w] SUBSEP (islog ? "log-plain" : "empty"))
        t = fig(wls[w] SUBSEP (islog ? "log-ttcap" : "ttcap"))
        printf "\n%-27s %8s %7s %6s %6s %8s %8s %6s %6s  %s\n", wl, "ns/call", "cpu ns", "B/call",
            "reads", (islog ? "vs loop" : "vs empty"), "vs ttcap", "/clock", "RSS MB", "notes"
        for (i = 1; i <= nk; i++) {
            split(order[i], kk, SUBSEP)
            if (kk[1] != wls[w]) continue
            v = kk[2]; k = order[i]; m = fig(k)
            bm = (k in bytes) ? sprintf("%.2f", med(bytes[k])) : "-"
            rd = (k in reads) ? sprintf("%.3f", med(reads[k])) : "-"
            tg = target(v, m, bm, e, rd)
            printf "  %-25s %8.2f %7.2f %6s %6s %8s %8s %6s %6.1f  %s%s\n", name[v], med(wall[k]), med(cpu[k]), bm,
                rd, ratio(m, e), ratio(m, t), (clk > 0 ? sprintf("%.2f", med(cpu[k]) / clk) : "-"),
                med(rss[k]) / 1024, tg, flagtext(k, tg != "")
        }
        kn = wls[w] SUBSEP "none"; ke = wls[w] SUBSEP "every"; k = wls[w] SUBSEP "sparse"
        kl = wls[w] SUBSEP "lazy"; kd = wls[w] SUBSEP "ttcap"
        if ((kn in cpu) && (ke in cpu) && (k in cpu) && (kl in cpu) && (kd in cpu)) {
            se = med(cpu[ke]) - med(cpu[kn]); ss = med(cpu[k]) - med(cpu[kn])
            sl = med(cpu[kl]) - med(cpu[kn]); sd = med(cpu[kd]) - med(cpu[kn])
            printf "  clock share (cpu ns/call over order-only): every %.2f, sparse %.2f (%s of every), lazy 1.7 %.2f (%s of every; %s of sparse), default (chain) %.2f (%s of every: target <=0.5 %s)\n",
                se, ss, ratio(ss, se), sl, ratio(sl, se), ratio(sl, ss), sd, ratio(sd, se),
                verdict((se > 0 && sd / se <= 0.5))
        }
        kb = wls[w] SUBSEP "before"; k = wls[w] SUBSEP "ttcap"
        if ((kb in wall) && (k in wall))
            printf "  change against BENCH_BASE=%s: %+.2f ns/call wall, %+.2f cpu, %+.2f B/call\n", bbase,
                med(wall[k]) - med(wall[kb]), med(cpu[k]) - med(cpu[kb]),
                ((k in bytes) && (kb in bytes)) ? med(bytes[k]) - med(bytes[kb]) : 0
    }
}' "$res"

# ---- memory: peak RSS of the traced 2-thread runs vs untraced ones -------
awk -v ck="${chunk_kib:-0}" '
$1 ~ /-2$/ { r[$1 SUBSEP $2] = r[$1 SUBSEP $2] " " $6; w[$1] = 1 }
function med(s,   n, i, j, t, a) {
    n = split(s, a, " ")
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n ? a[int((n + 1) / 2)] / 1024 : -1
}
END {
    if (ck == 0) exit
    printf "\npeak RSS of the 2-thread runs, MiB (getrusage; bound: chunk %d KiB x 2 threads = %.2f MiB):\n", ck, ck * 2 / 1024
    for (x in w) {
        p = med(r[x SUBSEP "plain"]); o = med(r[x SUBSEP "off"]); t = med(r[x SUBSEP "ttcap"]); n = med(r[x SUBSEP "none"])
        printf "  %-8s plain %.2f, ttcap disabled %.2f, ttcap tsc %.2f (+%.2f over disabled), order-only %.2f\n", x, p, o, t, t - o, n
    }
}' "$res"

echo
echo "ns/call: median of $REPS runs (lower middle of an even count), each thread timing its own"
echo "        loop (CLOCK_MONOTONIC), mean over threads. cpu ns: the same loop on the thread CPU"
echo "        clock (leaves out time the thread was not running: other load, a full buffer)."
if [ "$basis" = cpu ]; then
    echo "WARNING: machine busy (load $load0 at start, $load1 at end, $(nproc) cpus): wall times are"
    echo "        inflated; ratios and targets use cpu ns."
else
    echo "ratios and targets use ns/call (wall); load $load0 at start, $load1 at end."
fi

echo "reads: clock reads per call (ENTER/EXIT records carrying a measured time / calls; cap_trcstat)."
echo "/clock: cpu ns per call / cpu ns of one clock read ($clock_cpu ns here): compares across machines."
echo "B/call: ttcap = chunk headers + records (cap_trcstat walks the records, padding excluded);"
echo "        uftrace = uftrace.data/*.dat; lttng = stream files (no index/metadata), per recorded call."
[ "$checked" -gt 0 ] && echo "ttdump --stats agreed (all events decodable, 0 lost) on $checked traces of rep 1."
echo "calls per thread and run: plain/empty/stub/disabled 50M, ttcap 6M (order-only 12M), uftrace 1M"
echo "        (-b 4M: 2M), lttng 1.5M, TT_LOG 10M; times BENCH_SCALE=$SCALE."
echo "bench_capture: $(($(date +%s) - start)) s"
[ "$broken" = 0 ]
