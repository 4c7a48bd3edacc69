#!/bin/sh
# bench_values.sh BUILD - cost per call (ns) and bytes per call of libttcap's
# values mode (-pg -mfentry: one argument and the return value recorded)
# next to its plain mode (-finstrument-functions, no values), the empty
# hooks of both instrumentations and `uftrace record -A arg1 -R retval` on
# the same -pg binary; leaf and chain loops (tests/bench/cap_vwork.c),
# median of BENCH_REPS (5) interleaved runs, load printed. Targets: values
# at most 1.5x the plain mode's ns per call (both with their default clock,
# the TSC) and at most 8 B per call. Without a clock the plain mode costs
# less than catching a return does, so only bytes are checked there.
# Never fails on speed. x86-64 only.
# Strings by content (format 1.6): cap_vwork.vstr is the values binary with
# the string table ttcc --values adds; its "strs" loop calls a function of
# a char * and a long (four words, one cut at 32 bytes), run with strings
# recorded and with TTCAP_STRINGS=0 (the same binary, values mode without
# strings): target at most 1.2x; its leaf loop shows what the table's
# look-up costs functions without strings. One clock read (rdtsc,
# clock_cost) is printed beside them.
# BENCH_BASE=REF (a git commit, branch or tag) adds "before" rows: the same
# binaries run with the libttcap.so of REF (tests/bench/before.sh), and the
# cost of the change in ns and bytes per call, both modes, in the same run.
# All runs share one CPU (BENCH_CPU, default 0; taskset, when installed):
# on a VM whose CPUs run at different speeds from moment to moment, runs
# that land on different CPUs made ratios swing by 20%.
B=${1:-build}
if [ -z "$TT_BENCH_PINNED" ] && command -v taskset >/dev/null 2>&1; then
    TT_BENCH_PINNED=1 exec taskset -c "${BENCH_CPU:-0}" sh "$0" "$@"
fi
BB=$B/bench
REPS=${BENCH_REPS:-5}
SCALE=${BENCH_SCALE:-1}
[ "$(uname -m)" = x86_64 ] || { echo "bench_values: x86-64 only, skipped"; exit 0; }
tmp=$(mktemp -d /tmp/ttvbench.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
for p in plain empty inst pgempty pgret values pg vstr; do
    [ -x "$BB/cap_vwork.$p" ] || make -s B="$B" bench-values-progs >/dev/null 2>&1
    [ -x "$BB/cap_vwork.$p" ] || { echo "bench_values: $BB/cap_vwork.$p missing"; exit 1; }
done
have_uft=0
command -v uftrace >/dev/null 2>&1 && have_uft=1
[ "$have_uft" = 1 ] || echo "note: uftrace not installed: skipped"
before=""
if [ -n "${BENCH_BASE:-}" ]; then
    before=$(sh tests/bench/before.sh "$B" "$BENCH_BASE") || before=""
fi

ncalls() {
    case $1 in
    plain|empty|pgempty) n=50000000 ;;
    pgret) n=20000000 ;;
    inst|values|inst-before|values-before|vstr|vstr-off) n=6000000 ;;
    inst-none|values-none) n=12000000 ;;
    uftrace) n=500000 ;;
    esac
    awk -v n="$n" -v s="$SCALE" 'BEGIN { n = int(n * s); print n < 3000 ? 3000 : n }'
}

trc=$tmp/t.trc
res=$tmp/res
: > "$res"
# run WORKLOAD VARIANT: appends "wl variant ns cpu bytes_per_call flag"
run() {
    wl=$1; v=$2; n=$(ncalls "$v"); out=$tmp/out; bytes=-; flag=-
    rm -rf "$trc" "$tmp/uft"
    case $v in
    plain|empty|pgempty|pgret) "$BB/cap_vwork.$v" "$wl" "$n" > "$out" ;;
    inst|values|vstr) TTCAP_OUT=$trc "$BB/cap_vwork.$v" "$wl" "$n" > "$out" ;;
    vstr-off) TTCAP_STRINGS=0 TTCAP_OUT=$trc "$BB/cap_vwork.vstr" "$wl" "$n" > "$out" ;;
    inst-none|values-none) TTCAP_CLOCK=none TTCAP_OUT=$trc "$BB/cap_vwork.${v%-none}" "$wl" "$n" > "$out" ;;
    inst-before|values-before) TTCAP_OUT=$trc LD_LIBRARY_PATH=$before "$BB/cap_vwork.${v%-before}" "$wl" "$n" > "$out" ;;
    uftrace) uftrace record -d "$tmp/uft" -A '^leaf$@arg1' -R '^leaf$@retval' \
                 -A '^chain_@arg1' -R '^chain_@retval' "$BB/cap_vwork.pg" "$wl" "$n" > "$out" 2>/dev/null ;;
    esac
    ns=$(sed -n 's/^ns_per_call=\([0-9.]*\) .*/\1/p' "$out")
    cpu=$(sed -n 's/.*cpu_ns_per_call=\([0-9.]*\) .*/\1/p' "$out")
    calls=$(sed -n 's/.* calls=\([0-9]*\).*/\1/p' "$out")
    [ -n "$ns" ] || { echo "bench_values: $wl $v produced no figure"; return; }
    if [ -f "$trc" ]; then
        "$B/ttdump" --stats "$trc" > "$tmp/st" 2>&1 || flag=unreadable
        db=$(sed -n 's/^ *data bytes: *\([0-9]*\).*/\1/p' "$tmp/st")
        ne=$(sed -n 's/^ *events: *\([0-9]*\) (lost \([0-9]*\)).*/\1 \2/p' "$tmp/st")
        set -- $ne
        [ "${2:-1}" = 0 ] && [ "${1:-0}" -ge $((2 * calls)) ] || flag="events:${1:-?}/lost:${2:-?}"
        bytes=$(awk -v b="${db:-0}" -v c="$calls" 'BEGIN { printf "%.2f", b / c }')
    fi
    if [ "$v" = uftrace ]; then
        bytes=$(cat "$tmp"/uft/[0-9]*.dat 2>/dev/null | wc -c | awk -v c="$calls" '{ printf "%.2f", $1 / c }')
    fi
    echo "$wl $v $ns $cpu $bytes $flag" >> "$res"
}

variants="plain empty pgempty pgret inst values inst-none values-none vstr-off vstr"
[ "$have_uft" = 1 ] && variants="$variants uftrace"
[ -n "$before" ] && variants="$variants inst-before values-before"
echo "values bench: $REPS reps, scale $SCALE, $(nproc) cpus${TT_BENCH_PINNED:+ (pinned to cpu ${BENCH_CPU:-0})}; uptime:$(uptime | sed 's/.*up [^,]*, *[0-9]* users*, *//; s/^/ /')"
start=$(date +%s)
rep=1
while [ "$rep" -le "$REPS" ]; do
    for wl in leaf chain strs; do
        for v in $variants; do
            case $wl:$v in
            strs:vstr|strs:vstr-off|leaf:*) ;;
            strs:*|*:vstr|*:vstr-off) continue ;;
            esac
            run "$wl" "$v"
        done
    done
    rep=$((rep + 1))
done
load=$(cut -d' ' -f1-3 /proc/loadavg)
clock=""
if [ -x "$BB/clock_cost" ] || make -s B="$B" "$BB/clock_cost" >/dev/null 2>&1; then
    clock=$("$BB/clock_cost" 2>&1 | tr ' ' '\n' | sed -n 's/^clock_ns=//p; s/^cpu_clock_ns=//p' | tr '\n' ' ')
fi
awk -v load="$load" -v bbase="${BENCH_BASE:-}" -v clock="$clock" '
function med(s,   n, i, j, t, a) {
    n = split(s, a, " ")
    for (i = 2; i <= n; i++)
        for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
    return n ? a[int((n + 1) / 2)] : ""
}
BEGIN {
    name["plain"] = "plain (no hooks)"; name["empty"] = "-finstrument-functions, empty hooks"
    name["pgempty"] = "-pg -mfentry, empty __fentry__"; name["pgret"] = "-pg -mfentry, return hook only"; name["inst"] = "ttcap plain mode, tsc"
    name["values"] = "ttcap VALUES mode, tsc"; name["inst-none"] = "ttcap plain mode, clock none"
    name["values-none"] = "ttcap VALUES mode, clock none"; name["uftrace"] = "uftrace record -A arg1 -R retval"
    name["inst-before"] = "ttcap plain mode, tsc, BENCH_BASE"; name["values-before"] = "ttcap VALUES mode, tsc, BENCH_BASE"
    name["vstr"] = "VALUES mode + strings (table)"; name["vstr-off"] = "same binary, TTCAP_STRINGS=0"
}
{
    k = $1 SUBSEP $2
    if (!(k in w)) { order[++nk] = k; if (!($1 in seen)) { seen[$1] = 1; wls[++nw] = $1 } }
    w[k] = w[k] " " $3; c[k] = c[k] " " $4
    if ($5 != "-") b[k] = b[k] " " $5
    if ($6 != "-") f[k] = $6
}
END {
    for (x = 1; x <= nw; x++) {
        wl = wls[x]
        printf "\n%-36s %8s %8s %7s %9s  %s\n", wl " loop", "ns/call", "cpu ns", "B/call", "vs plain", "target (cpu ns; <=1.5x plain mode, <=8 B)"
        for (i = 1; i <= nk; i++) {
            split(order[i], kk, SUBSEP)
            if (kk[1] != wl) continue
            v = kk[2]; k = order[i]
            bm = (k in b) ? med(b[k]) : "-"
            base = v == "values" ? "inst" : v == "values-none" ? "inst-none" : ""
            r = "-"; tg = ""
            if (v == "vstr" && (wl SUBSEP "vstr-off") in c) {
                pc = med(c[wl SUBSEP "vstr-off"]); r = sprintf("%.2fx", med(c[k]) / pc)
                tg = sprintf("strings: %s (<=1.2x values mode without strings)", med(c[k]) / pc <= 1.2 ? "ok" : "MISSED")
            } else if (base != "") {
                pc = med(c[wl SUBSEP base]); r = sprintf("%.2fx", med(c[k]) / pc)
                tg = sprintf("%s, %s", med(c[k]) / pc <= 1.5 ? "ok" : "MISSED", bm != "-" && bm <= 8 ? "ok" : "MISSED")
            }
            if (v == "values-none" && (wl SUBSEP "pgret") in c)
                tg = sprintf("-, %s (no time target: the return hook alone is %.2fx)",
                             bm != "-" && bm <= 8 ? "ok" : "MISSED", med(c[wl SUBSEP "pgret"]) / pc)
            printf "  %-34s %8.2f %8.2f %7s %9s  %s%s\n", name[v], med(w[k]), med(c[k]), bm, r, tg, (k in f) ? " flag " f[k] : ""
        }
    }
    for (x = 1; x <= nw && bbase != ""; x++) {
        wl = wls[x]
        for (m = 0; m < 2; m++) {
            v = m ? "values" : "inst"; k = wl SUBSEP v; kb = wl SUBSEP v "-before"
            if (!(kb in c)) continue
            if (x == 1 && m == 0) printf "\nchange against BENCH_BASE=%s (same binaries, same run; medians):\n", bbase
            printf "  %-6s %-6s mode: %+.2f ns/call (cpu), %+.2f ns/call (wall), %+.2f B/call\n", wl, m ? "values" : "plain",
                med(c[k]) - med(c[kb]), med(w[k]) - med(w[kb]), med(b[k]) - med(b[kb])
        }
    }
    split(clock, ck, " ")
    if (clock != "") printf "\none clock read (rdtsc, clock_cost): %s ns wall, %s ns cpu\n", ck[1], ck[2]
    printf "\nmedian of the runs; ratio and targets on the thread CPU time (the machine is shared);\n"
    printf "B/call: ttdump --stats data bytes / calls (ttcap), uftrace.data/<tid>.dat / calls; load at end %s\n", load
}' "$res"
echo "bench_values: $(($(date +%s) - start)) s"
