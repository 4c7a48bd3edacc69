#!/bin/sh
# ttdiff_trees.sh - process trees (issue 34): ttrec -o DIR/ records every
# process of a command's tree (one trace per instrumented process, the
# process table for all, the shell too) and ttdiff GOOD_DIR BAD_DIR pairs
# the processes and reports the first diverging one with its path:
# * a shell script running three traced steps, the second failing in the
#   bad run: the shell's exit differs, the step diverges and is named;
# * a pre-fork server of 4 workers, one worker's request failing: the
#   workers pair as a pool, the failing worker is named;
# * posix_spawn and system() (through sh): both children in the tree;
# * two passing runs of each exit 0; JSON processes[] and first_process;
#   HTML with the tree, the diverging branch open; --process;
# * --gdb FILE on two trees: the script starts the first diverging
#   process (its program, argv, working folder and environment from the
#   table) and, with gdb, stops in its diverging function wherever gdb is
#   run from, with the recorded environment (not gdb's, not tt's TTCAP*);
#   a pre-fork server's worker (forked, no exec): the script starts the
#   server and follows the third fork, gdb stops in that worker's serve;
#   two levels of forks (tree_nest): fork 2, then its fork 1;
# * children killed by SIGKILL (fork, an untraced sh, killed by the
#   parent): their parent's REAP rows give their end, signal 9; a root
#   killed: ttrec, its parent, writes its REAP row;
# * TTCAP_OUT=DIR/ without ttrec; bad input (no table, a corrupt table,
#   a folder against a file) one line, exit 2.
B=$(cd "${1:-build}" && pwd) || exit 1
# make asan: libttcap (an ASan build) is preloaded into sh, which has no
# ASan runtime first in its library list; let it load, and leave the
# leaks of programs that are not ours unreported (ignored by other builds)
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:detect_leaks=0"
F=$B/fixtures
S=$(cd "$(dirname "$0")/../.." && pwd)/fixtures/tree_suite.sh
d=$(mktemp -d "$B/ttdiff_trees.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail=0
has() { grep -q -- "$2" "$1" || { echo "FAIL: $1 lacks /$2/"; sed -n 1,12p "$1"; fail=1; }; }
rec() { dir=$1; shift; "$B/ttrec" -q -o "$dir/" -- "$@" > "$dir.out" 2>&1; }
diff_rc() { want=$1; shift; "$B/ttdiff" "$@" > out.txt 2> err.txt; rc=$?
    [ $rc = "$want" ] || { echo "FAIL: ttdiff $* exit $rc, want $want"; cat err.txt; sed -n 1,8p out.txt; fail=1; }; }

# the shell script with three traced steps
rec sg sh "$S" "$F"
rec sg2 sh "$S" "$F"
TT_TREE_MARK=recorded rec sb sh "$S" "$F" bad
[ "$(ls sg/*.trc | wc -l)" = 3 ] || { echo "FAIL: suite: not 3 traces"; ls sg; fail=1; }
diff_rc 0 sg sg2
has out.txt "no process diverges"
diff_rc 1 sg sb
has out.txt "processes: 4 paired (3 traced), 0 only in the good run, 0 only in the bad run, 1 with another end, 1 diverged"
has out.txt "first diverging process: dash .*tree_suite.sh .* bad > tree_step step2 fail"
has out.txt "exit_differs: good exit 0, bad exit 1, not traced"
has out.txt "deciding line: in check: good: tree_step.c:25 calls accept_value; bad: tree_step.c:25 calls reject_value"
grep -q 'lie beside' out.txt && { echo "FAIL: a tree's other traces offered as baselines"; fail=1; }
"$B/ttdiff" --format json sg sb > sb.json
python3 - sb.json <<'PY' || fail=1
import json, sys
d = json.load(open(sys.argv[1]))
ps, f = d["processes"], d["first_process"]
assert f == 2 and ps[f]["result"] == "diverged", (f, ps)
assert ps[f]["path"][-1] == "tree_step step2 fail" and ps[f]["parent"] == 0
assert ps[0]["result"] == "exit_differs" and ps[0]["traced"] is False
assert ps[0]["good"]["exit_status"] == 0 and ps[0]["bad"]["exit_status"] == 1
assert [p["result"] for p in ps] == ["exit_differs", "same", "diverged", "same"]
assert d["first_divergence"]["good_index"] == ps[f]["first_divergence"]["good_index"]
PY
"$B/ttdiff" --format html -o sb.html sg sb
has sb.html 'id="process-tree"'
has sb.html '<li class="proc diverged first">'
has sb.html '<details open><summary><code>dash'
diff_rc 0 --process 'step3' sg sb
diff_rc 1 --process 'step2' sg sb
diff_rc 2 --process 'nothing-like-it' sg sb
has err.txt "no process pair matches"

# --gdb: the first diverging process's command line and folder
diff_rc 1 --gdb sb.gdb sg sb
has err.txt "gdb script in sb.gdb"
has sb.gdb "^# Process 2 of the tree in sb (the first diverging process):"
has sb.gdb "^#   tree_step step2 fail$"
has sb.gdb "and environment (exec-wrapper env -i"
has sb.gdb "^set exec-wrapper env -i .*'TT_TREE_MARK=recorded'"
grep -q "^set exec-wrapper.*TTCAP\|^set exec-wrapper.*libttcap" sb.gdb &&
    { echo "FAIL: tt's own variables passed to gdb's run"; fail=1; }
has sb.gdb "^file '$F/tree_step'$"
has sb.gdb "^set args 'step2' 'fail'$"
has sb.gdb "^set cwd $d$"
has sb.gdb '^split = TTDiffSplit("check", 1, 1, True)$'
diff_rc 2 --gdb sg.gdb sg sg2
has err.txt "no process's calls diverge"
[ -e sg.gdb ] && { echo "FAIL: a script for two passing trees"; fail=1; }
if command -v gdb > /dev/null; then
    # the stopped process's own environment, read from /proc (not by
    # calling getenv in it: on hosts whose CPUs have AMX, gdb 13 cannot
    # call a function in the inferior: "Couldn't write extended state")
    cat > "$d/env.py" <<'PY'
import gdb
e = open("/proc/%d/environ" % gdb.selected_inferior().pid, "rb").read().split(b"\0")
for k in (b"TT_TREE_MARK=", b"TTCAP_OUT="):
    print("env %s%s" % (k.decode(), [x[len(k):].decode() for x in e if x.startswith(k)]))
PY
    (cd / && ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" TT_TREE_MARK=gdb-own \
        TTCAP_OUT=/nonexistent/ timeout 120 gdb -q -batch -x "$d/sb.gdb" -ex 'info proc cwd' \
        -ex "source $d/env.py" > "$d/sb.gdbout" 2>&1)
    has sb.gdbout "^== ttdiff: the first divergence: entry 1 of check in thread #0"
    has sb.gdbout "^#0  check (v=2, strict=strict@entry=1)\|^#0  check (v=2, strict=1)"
    has sb.gdbout "^#1  .* main (argc=3"
    has sb.gdbout "^cwd = '$d'"
    has sb.gdbout "^env TT_TREE_MARK=\['recorded'\]$"
    has sb.gdbout '^env TTCAP_OUT=\[\]$'
else
    echo "note: no gdb: the --gdb scripts of trees are not run"
fi

# a pre-fork server: 4 look-alike workers, one request fails
rec vg "$F/tree_server"
rec vg2 "$F/tree_server"
rec vb "$F/tree_server" bad
[ "$(ls vg/*.trc | wc -l)" = 5 ] || { echo "FAIL: server: not 5 traces"; fail=1; }
diff_rc 0 vg vg2
diff_rc 1 vg vb
has out.txt "first diverging process: tree_server bad > tree_server bad"
has out.txt "deciding line: in serve, .* bad: tree_server.c:24 calls refuse"
[ "$(grep -c '\[same, pool\]' out.txt)" = 3 ] || { echo "FAIL: server: 3 same pool workers"; fail=1; }
diff_rc 1 --gdb vb.gdb vg vb
has vb.gdb "^# began by fork and did not exec (bad pid [0-9]*): its ancestor below is"
has vb.gdb "^file '$F/tree_server'$"
has vb.gdb "^set args 'bad'$"
has vb.gdb '^if $tt_level == 0 && $tt_forks == 3$'
has vb.gdb '^split = TTDiffSplit("serve", 1, 1, False)$'
if command -v gdb > /dev/null; then
    (cd / && ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" timeout 120 gdb -q -batch \
        -x "$d/vb.gdb" -ex 'info inferiors' > "$d/vb.gdbout" 2>&1)
    has vb.gdbout "^== ttdiff: the first divergence: entry 1 of serve in thread #0"
    has vb.gdbout "^#0  serve (k=k@entry=2, bad=bad@entry=1)\|^#0  serve (k=2, bad=1)"
fi

# two levels of forks without exec: the second child's first grandchild
rec ng "$F/tree_nest"
rec nb "$F/tree_nest" bad
diff_rc 1 --gdb nb.gdb ng nb
has out.txt "first diverging process: tree_nest bad > tree_nest bad > tree_nest bad"
has nb.gdb "gdb follows 2 forks down to it"
has nb.gdb '^if $tt_level == 0 && $tt_forks == 2$'
has nb.gdb '^if $tt_level == 1 && $tt_forks == 1$'
if command -v gdb > /dev/null; then
    (cd / && ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" timeout 120 gdb -q -batch \
        -x "$d/nb.gdb" > "$d/nb.gdbout" 2>&1)
    has nb.gdbout "^== ttdiff: the first divergence: entry 1 of leaf in thread #0"
    has nb.gdbout "^#0  leaf (v=v@entry=11, bad=bad@entry=1)\|^#0  leaf (v=11, bad=1)"
fi

# children killed by SIGKILL: the parent's REAP rows (calm: child 1 exits)
rec kg "$F/tree_kill"
rec kg2 "$F/tree_kill"
rec kc "$F/tree_kill" calm
diff_rc 0 kg kg2
diff_rc 1 kc kg
has out.txt "tree_kill  \[exit_differs: good exit 0, bad signal 9 (recorded by its parent), pool\]"
"$B/ttdiff" --format json kc kg > kg.json
python3 - kg.json <<'PY' || fail=1
import json, sys
ps = json.load(open(sys.argv[1]))["processes"]
ends = [(p["path"][-1], p["bad"]["signal"], p["bad"]["exit_status"]) for p in ps]
assert [e[1] for e in ends] == [None, 9, 9, 9], ends
assert ends[2][0] == "dash -c kill -9 $$", ends
PY
# the root killed: ttrec, its parent, records its end
rec kr sh -c 'kill -9 $$'
rec kr2 sh -c 'exit 0'
diff_rc 1 kr2 kr
has out.txt "dash -c kill -9 \$\$  \[exit_differs: good exit 0, bad signal 9 (recorded by its parent), not traced\]"

# posix_spawn and system(): the spawned step, and sh -c then the step
rec pg "$F/tree_spawn" "$F/tree_step"
rec pb "$F/tree_spawn" "$F/tree_step" fail
diff_rc 1 pg pb
has out.txt "tree_step spawned1  \[same\]"
has out.txt "first diverging process: tree_spawn .* > dash -c .* > tree_step system2 fail"
rec pg2 "$F/tree_spawn" "$F/tree_step"
diff_rc 0 pg pg2

# TTCAP_OUT=DIR/ without ttrec
mkdir manual
TTCAP_OUT=$d/manual/ LD_PRELOAD=$B/libttcap.so sh "$S" "$F" > manual.out 2>&1
[ -s manual/processes.ttp ] && [ "$(ls manual/*.trc | wc -l)" = 3 ] ||
    { echo "FAIL: TTCAP_OUT=DIR/ did not record the tree"; ls manual; fail=1; }
diff_rc 0 sg manual

# bad input: one line, exit 2
mkdir empty
diff_rc 2 sg empty
has err.txt "empty/processes.ttp: no process table"
[ "$(wc -l < err.txt)" = 1 ] || { echo "FAIL: not one line"; fail=1; }
cp -r sb sbc
printf 'XXXX' | dd of=sbc/processes.ttp bs=1 seek=40 conv=notrunc 2>/dev/null
diff_rc 2 sg sbc
has err.txt "processes.ttp: offset 0: process table row fails its checksum"
diff_rc 2 sg sg/processes.ttp
has err.txt "sg is a folder and sg/processes.ttp is not"
exit $fail
