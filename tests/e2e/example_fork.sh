#!/bin/sh
# example_fork.sh - fixtures/progs/ex_fork.c: a job runner forks a worker;
# with TTCAP_OUT=dir/run.%p.trc each process writes its own trace. The bug
# is in the worker (job "0" rejected), so the worker traces are diffed for
# the cause; the parents' diff shows where the parent noticed.
B=${1:-build}
. "$(dirname "$0")/example_lib.inc"

# run NAME JOBS...: record into $T/NAME/run.%p.trc; sets parent and child
run() {
    name=$1; shift
    mkdir "$T/$name"
    rc=0
    TTCAP_OUT="$T/$name/run.%p.trc" "$F/ex_fork" "$@" > "$T/$name.out" 2>&1 || rc=$?
    wpid=$(sed -n 's/^worker pid \([0-9]*\)$/\1/p' "$T/$name.out")
    child=$T/$name/run.$wpid.trc
    [ -n "$wpid" ] && [ -s "$child" ] || { ls -l "$T/$name"; fail "no worker trace"; }
    [ "$(ls "$T/$name" | wc -l)" = 2 ] || { ls -l "$T/$name"; fail "want two traces"; }
    parent=$(ls "$T/$name"/run.*.trc | grep -v "/run.$wpid.trc\$")
    # the worker's trace names its parent's
    "$TTDUMP" "$child" > "$T/$name.dump" || fail "ttdump $child"
    has "^  parent trace: *$parent\$" "$T/$name.dump"
}
run good 3 5 7
[ "$rc" = 0 ] || fail "good run exit $rc"
gparent=$parent gchild=$child
run good2 3 5 7
g2parent=$parent g2child=$child
run bad 3 0 7
[ "$rc" = 1 ] || fail "bad run exit $rc"
has '^3 jobs, 1 failed, worker exit 3' "$T/bad.out"
bparent=$parent bchild=$child

diffrun 0 "$gchild" "$g2child"
diffrun 0 "$gparent" "$g2parent"

# the cause: the worker's handle_job() rejects the second job. The worker's
# stack starts at run_worker (main and start_worker were entered before the
# fork, in the parent's trace).
diffrun 1 "$gchild" "$bchild"
has '^first divergence: thread ex_fork (good #0, bad #0)' "$T/out"
has '^    run_worker  at .*ex_fork.c:[0-9]' "$T/out"
has '^      handle_job  at .*ex_fork.c:[0-9]' "$T/out"
has '^  -  *[0-9]*    sum_to();' "$T/out"
has '^  +  *[0-9]*    reject_job() {' "$T/out"
has "log reject_job: worker: bad job '0'" "$T/out"
diffrun 1 --format json "$gchild" "$bchild"
json "$T/out" '
assert f["thread"] == {"name": "ex_fork", "good": 0, "bad": 0}, f["thread"]
assert f["stack"] == ["run_worker", "handle_job"], f["stack"]
assert f["before"][-1]["function"] == "parse_job", f["before"]
assert (f["good"][0]["kind"], f["good"][0]["function"]) == ("enter", "sum_to")
assert (f["bad"][0]["kind"], f["bad"][0]["function"]) == ("enter", "reject_job")
assert d["runs"]["bad"]["exit_status"] == 3 and d["runs"]["good"]["exit_status"] == 0
'

# the symptom: the parent's collect() reports the failed job
diffrun 1 "$gparent" "$bparent"
has '^    main  at .*ex_fork.c:[0-9]' "$T/out"
has '^      collect  at ' "$T/out"
has '^  +  *[0-9]*      report_failure() {' "$T/out"
diffrun 1 --format json "$gparent" "$bparent"
json "$T/out" '
assert f["stack"] == ["main", "collect"], f["stack"]
assert f["bad"][0]["function"] == "report_failure"
assert f["bad"][1]["text"] == "job 1 (0) failed in the worker", f["bad"][1]
'
echo ok
