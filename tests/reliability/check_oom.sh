#!/bin/sh
# check_oom.sh - reliability check (o): allocation-failure injection, as
# SQLite's tests do it (issue 24, defect 8). libfailmalloc.so (preloaded)
# fails the Nth allocation, for every N along a small ttdiff (two traces of
# diff_parse) and a small ttdump; then every allocation from the Nth on.
# Each run must either print "out of memory" and exit 2, or give the
# undisturbed run's output and status; never a crash, a sanitizer report
# (ASan tools: leaks included) or a hang. Also (n) ttdiff and ttdump under
# `ulimit -v` on a 2M-event trace: "out of memory", exit 2, or success.
# $2 = stride over N (1: every N), $3 = events of the ulimit -v traces. Before the fix (plain tools): 7 of 105
# ttdiff runs wrong (SIGSEGV, names printed as "?", exit 1 from libdw).
B=$(cd "$1" && pwd); STRIDE=${2:-1}; VEV=${3:-2000000}
A=${REL_TOOLS:-$B/asan}; case $A in /*) ;; *) A=$(pwd)/$A;; esac
SHIM=$B/rel/libfailmalloc.so
d=$(mktemp -d "${TMPDIR:-/tmp}/ttoom.XXXXXX") || exit 2
trap 'rm -rf "$d"' EXIT
export ASAN_OPTIONS=verify_asan_link_order=0:detect_leaks=1:handle_segv=1
TTCAP_OUT=$d/g.trc "$B/fixtures/diff_parse" abcd > /dev/null 2>&1
TTCAP_OUT=$d/b.trc "$B/fixtures/diff_parse" 'ab!d' > /dev/null 2>&1
ret=0
# inject NAME PERSIST TOOL ARGS...: every N (by STRIDE); prints the figure
inject() {
    name=$1; pers=$2; shift 2
    "$@" > "$d/base.out" 2> /dev/null; brc=$?
    TT_FAIL_COUNT=$d/count LD_PRELOAD=$SHIM "$@" > /dev/null 2>&1
    total=$(cat "$d/count" 2>/dev/null || echo 0)
    runs=0; oom=0; same=0; bad=0; n=1
    while [ $n -le $((total + 2)) ]; do
        TT_FAIL_AT=$n TT_FAIL_PERSIST=$pers LD_PRELOAD=$SHIM timeout 60 "$@" \
            > "$d/out" 2> "$d/err"
        rc=$?; runs=$((runs + 1))
        if grep -q "Sanitizer\|runtime error\|LeakSanitizer" "$d/err"; then
            bad=$((bad + 1)); echo "$name N=$n: sanitizer report"; grep -m3 "ERROR\|SUMMARY\|#[0-3] " "$d/err"
        elif [ $rc = 2 ] && grep -q "out of memory" "$d/err"; then
            oom=$((oom + 1))
        elif [ $rc = $brc ] && cmp -s "$d/out" "$d/base.out"; then
            same=$((same + 1))
        else
            bad=$((bad + 1)); echo "$name N=$n: exit $rc: $(head -c 200 "$d/err")"
        fi
        n=$((n + STRIDE))
    done
    ok=ok; [ $bad = 0 ] || { ok=FAIL; ret=1; }
    echo "RESULT o. allocation failure injection: $name|$total allocations, $runs runs: $oom out of memory (exit 2), $same undisturbed, $bad wrong (crash, leak, other output)|$ok"
}
# ttdiff reads the two traces in two threads (--jobs 2, the default). An
# ASan build's thread start (GetThreadStackTopAndBottom) CHECK-fails when
# pthread_getattr_np's own allocation fails: a sanitizer runtime limit, not
# ttdiff's, so the ASan tools run one thread here; the plain tools (make
# test) take the two threads through every injected failure.
J=""
ldd "$A/ttdiff" 2>/dev/null | grep -q libasan && J="--jobs 1"
for tools in "$A"; do
    inject "ttdiff, Nth fails" 0 "$tools/ttdiff" $J --color never "$d/g.trc" "$d/b.trc"
    inject "ttdiff, all from N fail" 1 "$tools/ttdiff" $J --color never "$d/g.trc" "$d/b.trc"
    inject "ttdiff --format json, Nth fails" 0 "$tools/ttdiff" $J --format json "$d/g.trc" "$d/b.trc"
    inject "ttdiff --format html, Nth fails" 0 "$tools/ttdiff" $J --format html "$d/g.trc" "$d/b.trc"
    inject "ttdump, Nth fails" 0 "$tools/ttdump" --color never "$d/g.trc"
    inject "ttdump, all from N fail" 1 "$tools/ttdump" --color never "$d/g.trc"
done
# ---- ulimit -v (the plain tools: ASan reserves terabytes of address space)
G=$B/bench/gen_trace
if ldd "$B/ttdiff" 2>/dev/null | grep -q libasan; then
    echo "RESULT n. ulimit -v|sanitizer build: ASan needs terabytes of address space|skip"
elif [ -x "$G" ]; then
    "$G" $VEV good "$d/vg.trc" /dev/null > /dev/null 2>&1
    "$G" $VEV edits:10 "$d/vb.trc" /dev/null > /dev/null 2>&1
    vbad=0; vruns=0; voom=0
    for mb in 24 32 48 64 96 128 256; do
        for cmd in "$B/ttdiff $d/vg.trc $d/vb.trc" "$B/ttdump --stats $d/vg.trc" "$B/ttdiff --flat $d/vg.trc $d/vb.trc"; do
            (ulimit -v $((mb * 1024)); exec timeout 120 $cmd) > /dev/null 2> "$d/err"
            rc=$?; vruns=$((vruns + 1))
            if [ $rc = 2 ] && grep -q "out of memory" "$d/err"; then voom=$((voom + 1))
            elif [ $rc -gt 2 ] || [ $rc = 2 ]; then vbad=$((vbad + 1)); echo "ulimit -v ${mb}M $cmd: exit $rc: $(head -c 200 "$d/err")"; fi
        done
    done
    ok=ok; [ $vbad = 0 ] || { ok=FAIL; ret=1; }
    echo "RESULT n. ulimit -v 24..256 MiB: ttdiff (tree, flat), ttdump --stats on $VEV events|$vruns runs: $voom out of memory (exit 2), $((vruns - voom - vbad)) finished, $vbad crashed or other errors|$ok"
else
    echo "RESULT n. ulimit -v|gen_trace not built|skip"
fi
exit $ret
