#!/bin/sh
# tests/run.sh - run a build's unit test binaries (cmocka) and end-to-end
# scripts (tests/e2e/*.sh), TT_JOBS at a time (default: cores + 1), each
# test's output in its own log (TT_LOGS, default $B/test-logs/NAME.log;
# a failed test's log is copied to TT_KEEP, default $B/test-failed/,
# as NAME.DATE-TIME.log, which later runs leave alone).
# A line per test as it ends, a line per suite, the failed tests' log
# tails, the skipped tests with their reasons, then exactly
# "tests: N passed, N failed, N skipped". Exit 1 on any failure; skips are
# not failures.
#   sh tests/run.sh [BUILD] [NAME...]   NAME: only these tests (test_sym,
#                                       ttdiff_pools, ...)
# A test that cannot run here (no clang, not root, not x86-64) prints
# "SKIP: reason" and exits 77 (automake's convention); a cmocka test that
# calls skip() is counted as skipped too; "SKIP part: reason" in a test
# that passes is listed. The slowest tests start first: the times of the
# last run are kept in $B/test-times (TT_TIMES names another file;
# tests/slow_tests is the order on a fresh build). TT_TIMEOUT (seconds,
# default 900) ends a test that hangs, as a failure. TT_NO_SKIPS=1 makes a
# skip fail the run (CI on x86-64 as root, where every test can run).
if [ "$1" = --one ]; then   # internal: run one test (a job of the pool)
    B=$2; L=$3; t=$4
    export B
    case $t in
        */test_*) k=unit; n=$(basename "$t"); set -- env CMOCKA_MESSAGE_OUTPUT=stdout "$t" ;;
        *) k=e2e; n=$(basename "$t" .sh); set -- sh "$t" "$B" ;;
    esac
    command -v timeout >/dev/null 2>&1 && set -- timeout -k 10 "${TT_TIMEOUT:-900}" "$@"
    s0=$(date +%s); s=$(date +%s%N)
    "$@" > "$L/$n.log" 2>&1 < /dev/null
    rc=$?
    e=$(date +%s%N)
    case $s$e in
        *[!0-9]*) ms=$(( ($(date +%s) - s0) * 1000 )) ;;   # a date without %N
        *) ms=$(( (e - s) / 1000000 )) ;;
    esac
    echo "$rc $ms $(date +%s)" > "$L/$n.rc"
    case $rc in 0) r=ok;; 77) r=skip;; 124|137) r="FAIL (timed out)";; *) r="FAIL (exit $rc)";; esac
    printf '%-5s %-28s %4d.%d s  %s\n' "$k" "$n" $((ms / 1000)) $((ms % 1000 / 100)) "$r"
    exit 0
fi

B=${1:-build}
[ $# -gt 0 ] && shift
cd "$(dirname "$0")/.." || exit 2
[ -d "$B" ] || { echo "run.sh: no build folder $B" >&2; exit 2; }
export B
J=${TT_JOBS:-$(( $(nproc 2>/dev/null || echo 1) + 1 ))}
L=${TT_LOGS:-$B/test-logs}
rm -rf "$L" && mkdir -p "$L" || exit 2
T0=$(date +%s)

# the tests: every unit binary and e2e script, or the ones named
all=$(mktemp) || exit 2
trap 'rm -f "$all" "$all".*' EXIT
for t in "$B"/tests/test_*; do [ -x "$t" ] && [ -f "$t" ] && echo "$t"; done > "$all"
for s in tests/e2e/*.sh; do [ -f "$s" ] && echo "$s"; done >> "$all"
if [ $# -gt 0 ]; then
    for n in "$@"; do
        grep -E "/($n|$n\\.sh)\$" "$all" || { echo "run.sh: no test $n" >&2; exit 2; }
    done > "$all.sel"
    mv "$all.sel" "$all"
fi

# slowest first: last run's times, else the committed order, else 0
order() { # file of tests -> the same, slowest first
    awk -v times="${TT_TIMES:-$B/test-times}" -v slow=tests/slow_tests '
        BEGIN { while ((getline l < times) > 0) { split(l, f, " "); ms[f[1]] = f[2] }
                n = 0; while ((getline l < slow) > 0) if (l !~ /^#/) rank[l] = 1000000000 - ++n }
        { name = $0; sub(/.*\//, "", name); sub(/\.sh$/, "", name)
          k = (name in ms) ? ms[name] : ((name in rank) ? rank[name] : 0)
          print k, $0 }' "$1" | sort -k1,1nr | cut -d' ' -f2-
}

# one pool for both suites (a slow unit test does not hold the e2e
# scripts back); the lines appear as the tests end
grep -E '/test_[^/]*$' "$all" > "$all.unit"
grep -E '\.sh$' "$all" > "$all.e2e"
order "$all" | xargs -n 1 -P "$J" sh tests/run.sh --one "$B" "$L"

# tally, in the order of the lists
pass=0; fail=0; skip=0; failed=""; skipped=""
for k in unit e2e; do
    [ -s "$all.$k" ] || continue
    kp=0; kf=0; ks=0; nt=0; last=$T0
    while read -r t; do
        case $t in */test_*) n=$(basename "$t");; *) n=$(basename "$t" .sh);; esac
        nt=$((nt + 1))
        rc=$(cut -d' ' -f1 "$L/$n.rc" 2>/dev/null); rc=${rc:-lost}
        end=$(cut -d' ' -f3 "$L/$n.rc" 2>/dev/null)
        [ "${end:-0}" -gt "$last" ] && last=$end
        lg=$L/$n.log
        if [ $k = unit ]; then
            # cmocka's own counts (a binary may run several groups)
            p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' "$lg" | awk '{ s += $1 } END { print s + 0 }')
            f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' "$lg" | awk '{ s += $1 } END { print s + 0 }')
            sk=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) test.*/\1/p' "$lg" | awk '{ s += $1 } END { print s + 0 }')
            [ "$rc" != 0 ] && [ "$f" = 0 ] && f=1   # crashed, or no summary
            kp=$((kp + p)); kf=$((kf + f)); ks=$((ks + sk))
            [ "$f" != 0 ] && failed="$failed $n"
            # a skipped case: the message it printed before [  SKIPPED ]
            # (once: cmocka's summary lists it again)
            awk -v n="$n" '/^\[  SKIPPED \] [a-z]/ { sub(/^\[  SKIPPED \] /, "")
                               if (!seen[$0]++) print n ": " $0 (prev ~ /^\[/ ? "" : " (" prev ")") }
                           { prev = $0 }' "$lg" >> "$all.skips"
        elif [ "$rc" = 0 ]; then
            kp=$((kp + 1))
            sed -n "s/^SKIP part: /$n: /p" "$lg" >> "$all.parts"
        elif [ "$rc" = 77 ]; then
            ks=$((ks + 1))
            why=$(sed -n 's/^SKIP: //p' "$lg" | tail -1)
            echo "$n: ${why:-$(tail -1 "$lg")}" >> "$all.skips"
        else
            kf=$((kf + 1)); failed="$failed $n"
        fi
    done < "$all.$k"
    if [ $k = unit ]; then what="$nt binaries"; else what="$nt scripts"; fi
    echo "$k: $what, $kp passed, $kf failed, $ks skipped (done after $((last - T0)) s)"
    pass=$((pass + kp)); fail=$((fail + kf)); skip=$((skip + ks))
done

# keep the times for the next run's order
for r in "$L"/*.rc; do
    [ -f "$r" ] && printf '%s %s\n' "$(basename "$r" .rc)" "$(cut -d' ' -f2 "$r")"
done > "$all.times"
TIMES=${TT_TIMES:-$B/test-times}
cat "$TIMES" "$all.times" 2>/dev/null | awk '{ t[$1] = $2 } END { for (k in t) print k, t[k] }' \
    > "$all.merged" && cat "$all.merged" > "$TIMES"
printf 'slowest:'; sort -k2,2nr "$all.times" | head -5 | awk '{ printf " %s %.0f s,", $1, $2 / 1000 }' | sed 's/,$//'
echo

# a failed test's log is also kept where the next run does not remove it
K=${TT_KEEP:-$B/test-failed}
for n in $failed; do
    k=$K/$n.$(date +%Y%m%d-%H%M%S).log
    mkdir -p "$K" && cp "$L/$n.log" "$k" 2>/dev/null || k="not kept"
    echo "---- $n (log: $L/$n.log, kept: $k)"
    # LeakSanitizer's note in a child forked beside other threads is noise
    grep -v 'was not suspended. False leaks are possible' "$L/$n.log" | tail -40 | sed 's/^/    /'
done
# what failed, last (CI shows the end of the output): each failed test's
# first lines that say FAIL or a failed check
for n in $failed; do
    grep -m 6 -E '^(FAIL|not ok)|\[  FAILED  \] [a-z]|ERROR: AddressSanitizer|runtime error:' "$L/$n.log" |
        sed "s/^/$n: /"
done
[ -n "$failed" ] && echo "failed:$failed"
if [ -s "$all.parts" ]; then
    echo "passed, with a part skipped:"
    sed 's/^/    /' "$all.parts"
fi
if [ -s "$all.skips" ]; then
    echo "skipped:"
    sed 's/^/    /' "$all.skips"
fi
echo "total wall time: $(( $(date +%s) - T0 )) s ($J jobs)"
# TT_NO_SKIPS=1 (CI on x86-64 as root, where every test can run): a skip fails
bad=$fail
[ "${TT_NO_SKIPS:-0}" = 1 ] && [ "$skip" != 0 ] && { echo "TT_NO_SKIPS=1: a skipped test fails the run"; bad=$((bad + skip)); }
echo "tests: $pass passed, $fail failed, $skip skipped"
[ "$bad" = 0 ]
