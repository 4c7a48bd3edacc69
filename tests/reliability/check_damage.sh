#!/bin/sh
# check_damage.sh - reliability check (a): damaged real traces.
#  a1 rel_damage (ASan, in process): every truncation + N random damages of
#     several recorded traces through reader, engine and all renderers;
#  a2 K of the damaged copies through the ASan tools themselves: ttdump in
#     every mode, ttdiff text/JSON/HTML in both orders: exit codes other
#     than 0/1/2, sanitizer reports, runs over 20 s;
#  a3 the libFuzzer targets (reader, diff engine) for S seconds each.
# $1 build dir, $2 mutations, $3 tool runs (files), $4 fuzz seconds,
# $5 truncation stride. Prints "RESULT name|figure|ok" lines.
B=$1; N=${2:-10000}; K=${3:-300}; S=${4:-60}; T=${5:-1}
A=${REL_TOOLS:-build/asan}      # the ASan tools (make check-reliability builds them)
d=$(mktemp -d) || exit 2
trap 'rm -rf "$d"' EXIT
F=$B/fixtures
export TTCAP_CHUNK_KB=16
TTCAP_OUT=$d/calls.trc "$F/cap_calls" calls 300 >/dev/null
TTCAP_OUT=$d/thr.trc "$F/cap_threads" 4 200 >/dev/null 2>&1
TTCAP_OUT=$d/crash.trc "$F/cap_calls" segv >/dev/null 2>&1
TTCAP_OUT=$d/man.trc "$F/cap_manual" >/dev/null 2>&1
TTCAP_OUT=$d/inj.trc "$F/html_inject" aaxaaaxaaax >/dev/null 2>&1
unset TTCAP_CHUNK_KB
TR="$d/calls.trc $d/thr.trc $d/crash.trc $d/man.trc $d/inj.trc"
ret=0
# ---- a1
mkdir "$d/w" "$d/o"
ASAN_OPTIONS=detect_leaks=1 "$B/rel/rel_damage" -n "$N" -t "$T" -o "$d/o" -w "$d/w" -k "$K" $TR \
    > "$d/a1" 2> "$d/a1.err"
rc=$?
set -- $(cat "$d/a1")
fig="$2 cases ($4 truncations, $6 damaged), crashes $([ $rc = 0 ] && echo 0 || echo 1), hangs $([ $rc = 124 ] && echo 1 || echo 0), slowest $8 ms"
if [ $rc = 0 ] && ! grep -q "Sanitizer\|runtime error" "$d/a1.err"; then ok=ok; else ok=FAIL; ret=1; fi
echo "RESULT a1. damaged traces in process (ASan)|$fig|$ok"
[ $ok = ok ] || { tail -20 "$d/a1.err"; mkdir -p "$B/rel-artifacts"; cp "$d"/o/* "$B/rel-artifacts/" 2>/dev/null; }
# ---- a2
runs=0; badexit=0; sanrep=0; hangs=0
tool() { # name args...
    timeout 20 "$@" > /dev/null 2> "$d/err"
    rc=$?
    runs=$((runs + 1))
    [ $rc = 124 ] && { hangs=$((hangs + 1)); echo "hang: $*"; }
    [ $rc -gt 2 ] && [ $rc != 124 ] && { badexit=$((badexit + 1)); echo "exit $rc: $*"; }
    grep -q "Sanitizer\|runtime error" "$d/err" && { sanrep=$((sanrep + 1)); echo "sanitizer: $*"; head -5 "$d/err"; }
}
export ASAN_OPTIONS=detect_leaks=1
i=0
for f in "$d"/w/*.trc; do
    [ -f "$f" ] || continue
    case $((i % 5)) in 0) g=$d/calls.trc;; 1) g=$d/thr.trc;; 2) g=$d/crash.trc;; 3) g=$d/man.trc;; *) g=$d/inj.trc;; esac
    for m in "" --merged --stats --profile --chrome --lines "--function ^chain|leaf"; do
        tool $A/ttdump --color never $m "$f"
    done
    for fmt in text json html; do
        tool $A/ttdiff --format $fmt "$g" "$f"
        tool $A/ttdiff --format $fmt "$f" "$g"
    done
    tool $A/ttdiff --profile "$g" "$f"
    i=$((i + 1))
done > "$d/a2.log"
ok=ok; [ $((badexit + sanrep + hangs)) = 0 ] || { ok=FAIL; ret=1; head -20 "$d/a2.log"; }
echo "RESULT a2. damaged traces through ASan ttdump (7 modes) + ttdiff (3 formats x 2 orders, profile)|$i files, $runs runs: bad exits $badexit, sanitizer reports $sanrep, hangs >20 s $hangs|$ok"
# ---- a3
if [ -x "$B/fuzz_reader" ] && [ -x "$B/fuzz_diff" ]; then
    mkdir "$d/c1" "$d/c2"
    cp $TR fixtures/traces/*.trc "$d/c1/"
    for a in calls thr crash; do for b in thr crash inj; do
        { cat "$d/$a.trc"; printf '\0TT|'; cat "$d/$b.trc"; } > "$d/c2/$a-$b"
    done; done
    f1=$("$B/fuzz_reader" -max_total_time="$S" -timeout=20 -rss_limit_mb=2048 -max_len=300000 \
         -artifact_prefix="$d/o/" "$d/c1" 2>&1); r1=$?
    f2=$("$B/fuzz_diff" -max_total_time="$S" -timeout=20 -rss_limit_mb=2048 -max_len=600000 \
         -artifact_prefix="$d/o/" "$d/c2" 2>&1); r2=$?
    e1=$(echo "$f1" | sed -n 's/^Done \([0-9]*\) runs.*/\1/p'); e2=$(echo "$f2" | sed -n 's/^Done \([0-9]*\) runs.*/\1/p')
    ok=ok; [ $r1 = 0 ] && [ $r2 = 0 ] || { ok=FAIL; ret=1; echo "$f1" | tail -5; echo "$f2" | tail -5; }
    echo "RESULT a3. libFuzzer fuzz_reader + fuzz_diff, ${S} s each|${e1:-?} + ${e2:-?} execs, crashes $(( (r1 != 0) + (r2 != 0) ))|$ok"
else
    echo "RESULT a3. libFuzzer targets|not built here (make fuzz; make check-reliability builds them, make fuzz-smoke runs them)|skip"
fi
exit $ret
