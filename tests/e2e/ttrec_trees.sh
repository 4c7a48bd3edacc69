#!/bin/sh
# ttrec_trees.sh - ttrec --until-fail -o DIR/ on a process tree (issue 34
# item 3): each run records the whole tree into its own folder (run/, then
# fail/ or pass-K/), the closest passing tree (summed common call prefixes
# of the traced processes, paired by program and arguments) is the good
# run, and ttdiff compares the two trees. On fixtures/tree_flaky.sh (run 1
# passes far from the failure, run 2 close to it, run 3 fails in step2):
# * the good run is run 2, the report names "tree_step step2 fail" and
#   the check's deciding line (run 1 would part in parse_name);
# * --fail-if on a suite that always exits 0, with --chaos: the same
#   failing tree caught by its output, the seeds reported;
# * every run failing: one line, exit 2, the failing tree kept.
B=$(cd "${1:-build}" && pwd) || exit 1
# make asan: the ASan libttcap is preloaded into sh (see ttdiff_trees.sh)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:detect_leaks=0"
F=$B/fixtures
S=$(cd "$(dirname "$0")/../.." && pwd)/fixtures/tree_flaky.sh
d=$(mktemp -d "$B/ttrec_trees.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail=0
has() { grep -q -- "$2" "$1" || { echo "FAIL: $1 lacks /$2/"; sed -n 1,14p "$1"; fail=1; }; }
hunt() { want=$1; shift; "$B/ttrec" "$@" > out.txt 2> err.txt; rc=$?
    [ $rc = "$want" ] || { echo "FAIL: ttrec $* exit $rc, want $want"; cat err.txt; fail=1; }; }

hunt 1 --until-fail 6 --keep 1 -o h/ -- sh "$S" "$d/count1" "$F"
has err.txt "run 3 failed (exit 1): h/fail/, its output h/fail.out; 2 passing runs kept"
has err.txt "good run: run 2 (pass-1/), the closest of 2 passing runs"
has err.txt "of 2 traced processes paired by program and arguments); 1 farther run dropped"
has err.txt "ttdiff --format text h/pass-1 h/fail$"
has out.txt "first diverging process: dash .*tree_flaky.sh .* > tree_step step2 fail"
has out.txt "deciding line: in check: good: tree_step.c:25 calls accept_value; bad: tree_step.c:25 calls reject_value"
[ -s h/fail/processes.ttp ] && [ -s h/pass-1/processes.ttp ] && [ ! -e h/pass-2 ] &&
    [ ! -e h/run ] && [ "$(ls h/fail/*.trc | wc -l)" = 2 ] && [ "$(ls h/pass-1/*.trc | wc -l)" = 3 ] ||
    { echo "FAIL: the kept trees"; find h; fail=1; }

# --fail-if (the suite exits 0) and --chaos
printf '#!/bin/sh\nsh "%s" "$@"\nexit 0\n' "$S" > zero.sh
hunt 1 --until-fail 6 --keep 1 --chaos=7 --fail-if 'grep -q FAIL' -o c/ -- sh zero.sh "$d/count2" "$F"
has err.txt "chaos mode, base seed 7"
has err.txt "run 3 failed (exit 0, --fail-if said failure) in chaos mode, seed [0-9]*"
has err.txt "good run: run 2 (pass-1/)"
has out.txt "first diverging process: dash zero.sh .* > dash .*tree_flaky.sh .* > tree_step step2 fail"
has c/fail.out "step2: FAIL"

# every run fails: nothing to compare with
echo 5 > count3
hunt 2 --until-fail 2 -o e/ -- sh "$S" "$d/count3" "$F"
has err.txt "every run failed: no passing run to compare with (e/fail/ kept)"
[ -s e/fail/processes.ttp ] || { echo "FAIL: the failing tree not kept"; fail=1; }
exit $fail
