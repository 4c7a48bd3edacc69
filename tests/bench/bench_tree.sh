#!/bin/sh
# bench_tree.sh BUILD - ttdiff's call-tree aligner (default) against the flat
# one (--flat) and GNU diff over the same events replayed as text, on: two
# 10M-event runs with 100 edits (mostly equal); a 10M against a 14M-event
# interpreter-like run on two inputs (differs everywhere, gen_trace lua:);
# a 3-thread run, 25M events over both traces, 100 edits per thread;
# and --format html against text (tree and flat) on a 15M-event 3-thread
# pair with 5 edits per thread spread along the run (the page details up
# to 20 of them; issue 14: html within 1.5x of text).
# Median of 3 (BENCH_REPS; html at least 5, text and html taking turns);
# each run at most 120 s (reported T/O). Prints
# events/s, peak RSS per event and seconds (wall and cpu: the machine is
# shared, so wall can be several times cpu), with the uptime load. Never
# fails on speed. BENCH_TREE_KEEP=1 keeps the generated data;
# BENCH_TREE_CASES="html" (any of equal lua threads html) runs only those.

B=${1:-build}
GEN=$B/bench/gen_trace
TTDIFF=$B/ttdiff
REPS=${BENCH_REPS:-3}
HREPS=$(( REPS > 5 ? REPS : 5 ))
data=$B/bench/treedata
tmp=$(mktemp -d /tmp/ttbtree.XXXXXX) || exit 1

cleanup() {
    rm -rf "$tmp"
    [ -n "$BENCH_TREE_KEEP" ] || rm -rf "$data"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

[ -x "$GEN" ] || make -s B="$B" bench-diff-progs >/dev/null 2>&1
for p in "$GEN" "$TTDIFF" /usr/bin/time; do
    [ -x "$p" ] || { echo "bench_tree: $p missing (make B=$B all bench-diff-progs; apt-get install time)"; exit 1; }
done
mkdir -p "$data" || exit 1

# want CASE: true if BENCH_TREE_CASES (default: all) lists CASE
want() {
    case " ${BENCH_TREE_CASES:-equal lua threads html} " in *" $1 "*) return 0 ;; esac
    return 1
}

# gen N MODE NAME
gen() {
    [ -f "$data/$3.trc" ] && [ -f "$data/$3.n" ] && return 0
    "$GEN" "$1" "$2" "$data/$3.trc" "$data/$3.txt" > "$data/$3.n" ||
        { echo "bench_tree: gen_trace $1 $2 failed"; exit 1; }
}

# once FILE CMD...: run CMD once (at most 120 s), append "wall cpu maxrss_kb
# exit" to FILE
once() {
    f=$1
    shift
    /usr/bin/time -f "%e %U %S %M %x" -o "$tmp/t" timeout 120 "$@" \
        > /dev/null 2> "$tmp/err"
    tail -n 1 "$tmp/t" |
        awk '{ printf "%s %.2f %s %s\n", $1, $2 + $3, $4, $5 }' >> "$f"
}

# median FILE: the median of each column of FILE's runs, on its own
# (the exit status of the last run): "wall cpu maxrss_kb exit"
median() {
    nr=$(wc -l < "$1")
    for col in 1 2 3; do
        awk -v c=$col '{ print $c }' "$1" | sort -n | awk -v n="$nr" 'NR == int((n + 1) / 2)'
    done | tr '\n' ' '
    tail -n 1 "$1" | awk '{ print $4 }'
}

# measure CMD...: REPS runs (one if it times out): "wall cpu maxrss_kb exit"
measure() {
    : > "$tmp/runs"
    r=0
    while [ "$r" -lt "$REPS" ]; do
        once "$tmp/runs" "$@"
        r=$((r + 1))
        case "$(tail -n 1 "$tmp/runs")" in *" 124") break ;; esac
    done
    median "$tmp/runs"
}

res=$tmp/results
: > "$res"

# bench CASE GOOD BAD: both traces through tree, flat and GNU diff
bench() {
    c=$1 g=$data/$2 b=$data/$3
    ev=$(( $(cat "$g.n") + $(cat "$b.n") ))
    echo "case $c: $ev events (load: $(uptime | sed 's/.*load average: //'))"
    for tool in tree flat gnu-diff; do
        case $tool in
        tree) set -- "$TTDIFF" --color never "$g.trc" "$b.trc" ;;
        flat) set -- "$TTDIFF" --flat --color never "$g.trc" "$b.trc" ;;
        gnu-diff) set -- diff "$g.txt" "$b.txt" ;;
        esac
        echo "$c $ev $tool $(measure "$@")" >> "$res"
    done
}

# bench_html CASE GOOD BAD: text against html, tree and flat, the four
# taking turns (so a change of load hits them alike), HREPS rounds
bench_html() {
    c=$1 g=$data/$2 b=$data/$3
    ev=$(( $(cat "$g.n") + $(cat "$b.n") ))
    echo "case $c: $ev events (load: $(uptime | sed 's/.*load average: //'))"
    tools="tree-text tree-html flat-text flat-html"
    for tool in $tools; do : > "$tmp/runs.$tool"; done
    r=0
    while [ "$r" -lt "$HREPS" ]; do
        for tool in $tools; do
            fl=; [ "${tool%-*}" = flat ] && fl=--flat
            once "$tmp/runs.$tool" "$TTDIFF" $fl --color never --format "${tool#*-}" \
                "$g.trc" "$b.trc"
        done
        r=$((r + 1))
    done
    for tool in $tools; do
        echo "$c $ev $tool $(median "$tmp/runs.$tool")" >> "$res"
    done
}

start=$(date +%s)
echo "ttdiff tree aligner benchmark (gen_trace: synthetic call trees)"
if want equal; then
    gen 10000000 good good10m
    gen 10000000 edits:100 edits10m
    bench 10M-equal good10m edits10m
fi
if want lua; then
    gen 10000000 lua:1 lua10m
    gen 14000000 lua:2 lua14m
    bench lua-10M-14M lua10m lua14m
fi
if want threads; then
    gen 12500000 threads3:0 thr_good
    gen 12500000 threads3:100 thr_bad
    bench 3thr-25M thr_good thr_bad
fi
if want html; then
    gen 7500000 threads3:0 html_good
    gen 7500000 threads3:5 html_bad
    bench_html html-15M html_good html_bad
fi

echo
echo "Median of $REPS runs ($HREPS for html; one when a run times out at 120 s). wall, cpu ="
echo "user+sys in s; Mev/s = events of both traces / s; B/ev = peak RSS / events."
echo "load now: $(uptime | sed 's/.*load average: //')"
awk '
{ w = $4 > 0 ? $4 : 0.001; c = $5 > 0 ? $5 : 0.001
  st = $7 == 124 ? "T/O" : $7
  if (NR == 1)
    printf "%-12s %7s %-9s %8s %7s %9s %9s %8s %6s %4s\n", "case", "events", "tool",
           "wall s", "cpu s", "Mev/s", "Mev/cpu-s", "RSS MB", "B/ev", "exit"
  printf "%-12s %6.1fM %-9s %8.2f %7.2f %9.1f %9.1f %8.1f %6.1f %4s\n", $1, $2 / 1e6, $3,
         $4, $5, $2 / w / 1e6, $2 / c / 1e6, $6 / 1024, $6 * 1024 / $2, st
}' "$res"
echo
echo "Targets (tree): >= 10 Mev/s, <= 32 B/event, the Lua-like case < 10 s:"
awk '
$3 == "tree" {
  w = $4 > 0 ? $4 : 0.001; c = $5 > 0 ? $5 : 0.001; bpe = $6 * 1024 / $2
  printf "  %-12s %5.1f Mev/s wall %s, %5.1f per cpu-s %s; %5.1f B/ev %s", $1,
         $2 / w / 1e6, ($2 / w >= 1e7 ? "met" : "MISSED"), $2 / c / 1e6,
         ($2 / c >= 1e7 ? "met" : "MISSED"), bpe, (bpe <= 32 ? "met" : "MISSED")
  if ($1 ~ /lua/)
    printf "; %.2f s wall %s, %.2f s cpu %s", $4, ($4 < 10 ? "met" : "MISSED"), $5,
           ($5 < 10 ? "met" : "MISSED")
  printf "\n"
}' "$res"
echo "HTML against text, same run, median of $HREPS turns each (issue 14: html cpu <= 1.5x text cpu):"
awk '
$3 ~ /-(text|html)$/ { c[$3] = $5; w[$3] = $4 }
END {
  for (m = 1; m <= 2; m++) {
    e = m == 1 ? "tree" : "flat"
    if (!((e "-text") in c)) continue
    ct = c[e "-text"] > 0 ? c[e "-text"] : 0.001; wt = w[e "-text"] > 0 ? w[e "-text"] : 0.001
    r = c[e "-html"] / ct
    printf "  %-5s html %.2f s cpu, text %.2f s cpu: %.2fx %s; wall %.2f / %.2f s: %.2fx\n", e,
           c[e "-html"], c[e "-text"], r, (r <= 1.5 ? "met" : "MISSED"), w[e "-html"], w[e "-text"],
           w[e "-html"] / wt
  }
}' "$res"
echo "bench_tree: $(( $(date +%s) - start )) s"
exit 0
