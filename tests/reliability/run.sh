#!/bin/sh
# run.sh - the reliability suite (`make check-reliability`; tests/reliability/
# RELIABILITY.md). Runs each check_*.sh, then prints a table: check, its
# figure, ok / FAIL / skip. $1 = build dir; --short for the quick version
# (small counts, seconds per check) that tests/e2e/reliability_short.sh
# runs within `make test`; then, optionally, the checks to run (check_count.sh
# ...; all when none: the e2e scripts reliability_*.sh each run some, side
# by side). Exit 1 if any check fails.
B=${1:-build}; SHORT=0
[ "$2" = --short ] && SHORT=1
[ $# -gt 2 ] && shift 2 || set --
ONLY=" $* "
cd "$(dirname "$0")/../.." || exit 2
H=tests/reliability
log=$(mktemp); trap 'rm -f "$log"' EXIT
if [ $SHORT = 1 ]; then
    DMG="100 4 3 200"; CNT=1; SCALE=short; FORKS=10
    export REL_TOOLS=${REL_TOOLS:-$B}   # the build's own tools (ASan under make asan)
else
    DMG="10000 400 120 1"; CNT=5; SCALE=full; FORKS=50
fi
# REL_DAMAGE="mutations tool-files fuzz-seconds truncation-stride" overrides
DMG=${REL_DAMAGE:-$DMG}
fail=0
run() { # script args...
    s=$1; shift
    [ "$ONLY" = "  " ] || case $ONLY in *" $s "*) ;; *) return 0;; esac
    echo "== $s $*" >&2
    sh "$H/$s" "$B" "$@" > "$log.1" 2>&1 || fail=1
    grep '^RESULT ' "$log.1" | tee -a "$log" >&2
    grep -v '^RESULT ' "$log.1" | tail -20 >&2
    grep -q '^RESULT ' "$log.1" || { echo "RESULT $s|no result (script failed)|FAIL" >> "$log"; fail=1; }
}
# shellcheck disable=SC2086
run check_damage.sh $DMG
run check_count.sh $CNT
run check_life.sh
run check_disk.sh
run check_scale.sh $SCALE
run check_hostile.sh
run check_setuid.sh
run check_limits.sh $SCALE
run check_forklock.sh $FORKS
run check_modes.sh
run check_threads.sh $([ $SHORT = 1 ] && echo 4000 || echo 20000)
run check_special.sh
run check_outputs.sh
run check_oom.sh $([ $SHORT = 1 ] && echo "7 300000" || echo "1 2000000")
run check_syms.sh $([ $SHORT = 1 ] && echo 50 || echo 100)
echo
echo "reliability suite ($([ $SHORT = 1 ] && echo short || echo full)), load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '| %s | %s | %s |\n|---|---|---|\n' check figure result
sed 's/^RESULT //' "$log" | awk -F'|' '{ printf "| %s | %s | %s |\n", $1, $2, $3 }'
grep -q '|FAIL$' "$log" && fail=1
# a check that could not run here, named for tests/run.sh's list
sed -n 's/^RESULT \([^|]*\)|\([^|]*\)|skip$/SKIP part: \1 (\2)/p' "$log"
exit $fail
