#!/bin/sh
# ttdiff_gdb.sh - ttdiff --gdb FILE, "take me there", with Debian's gdb: on
# the parser example (main thread) and on diff_threads (the divergence in
# worker-2, thread #2), the script runs the bad run's command line and
# stops in the diverging thread at the right entry of the diverging frame:
# gdb's backtrace there holds tt's call stack, innermost first, and the
# arguments of that call (the second scan_number, at end=16; worker 2's
# item 3). Two identical runs: no script, exit 2, one line. Skipped with a
# note when gdb is missing.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
BD=$(cd "$B" && pwd)
F=$BD/fixtures
command -v gdb > /dev/null || { echo "SKIP: no gdb (Debian: apt-get install gdb)"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cd "$T"
fail() { echo "FAIL: $*"; exit 1; }
# gdb under ASan: its leak checker and ptrace do not mix; the run is not
# what this checks
export ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0"

# case NAME GOOD-ARGS... -- BAD-ARGS...: record, ttdiff --gdb, run gdb
case_run() {
    name=$1 prog=$2; shift 2
    good=""; while [ "$1" != -- ]; do good="$good $1"; shift; done; shift
    TTCAP_OUT=$name.good.trc "$prog" $good > /dev/null 2>&1 || true
    TTCAP_OUT=$name.bad.trc "$prog" "$@" > /dev/null 2>&1 || true
    set +e
    "$BD/ttdiff" --color never --gdb "$name.gdb" "$name.good.trc" "$name.bad.trc" \
        > "$name.diff" 2> "$name.err"
    rc=$?
    set -e
    [ "$rc" = 1 ] || { cat "$name.err"; fail "$name: ttdiff rc $rc"; }
    grep -q "gdb script in $name.gdb" "$name.err" || fail "$name: no line naming the script"
    # tt's stack, innermost first
    sed -n '/^call stack/,/^[a-z]/p' "$name.diff" | sed -n 's/^ \{4,\}\([a-z_]*\) .*/\1/p' |
        sed -n '1!G;h;$p' > "$name.tt"
    [ -s "$name.tt" ] || { cat "$name.diff"; fail "$name: no call stack in the report"; }
    timeout 120 gdb -q -batch -x "$name.gdb" > "$name.gdbout" 2>&1 || true
    grep -q '^== ttdiff: the first divergence' "$name.gdbout" ||
        { cat "$name.gdbout"; fail "$name: gdb did not stop at the split"; }
    sed -n 's/^#[0-9]*  *\(0x[0-9a-f]* in \)\{0,1\}\([a-z_]*\) (.*/\2/p' "$name.gdbout" |
        head -n "$(wc -l < "$name.tt")" > "$name.bt"
    cmp -s "$name.tt" "$name.bt" ||
        { cat "$name.gdbout"; echo "tt:"; cat "$name.tt"; fail "$name: backtrace is not tt's stack"; }
    echo "$name: stopped at $(sed -n 's/^== ttdiff: the first divergence: //p' "$name.gdbout"), stack $(tr '\n' ' ' < "$name.tt")"
}

case_run parser "$F/ex_parser" size=64,mode=755,ro -- size=64,mode=755
grep -q '^#0  scan_number (.*end=end@entry=16' parser.gdbout || grep -q '^#0  scan_number (.*end=16' parser.gdbout ||
    { cat parser.gdbout; fail "parser: not the second scan_number (end=16)"; }
case_run threads "$F/diff_threads" -- bad
grep -q 'hit Breakpoint 1, process_item (worker=[^,]*2, item=[^,]*3)' threads.gdbout ||
    { cat threads.gdbout; fail "threads: not worker 2's item 3"; }
grep -q '^Thread 3 "worker-2" hit' threads.gdbout || fail "threads: not in worker-2"

# an existing script is replaced only with --force (as -o's report)
set +e; "$BD/ttdiff" --gdb parser.gdb parser.good.trc parser.bad.trc > /dev/null 2> ex.err; rc=$?; set -e
[ "$rc" = 2 ] && grep -q 'exists' ex.err || { cat ex.err; fail "existing script: rc $rc"; }
set +e; "$BD/ttdiff" --force --gdb parser.gdb parser.good.trc parser.bad.trc > /dev/null 2> ex.err; rc=$?; set -e
[ "$rc" = 1 ] || { cat ex.err; fail "--force: rc $rc"; }

# no divergence: exit 2, one line, no script
TTCAP_OUT=same1.trc "$F/ex_parser" size=1 > /dev/null
TTCAP_OUT=same2.trc "$F/ex_parser" size=1 > /dev/null
set +e; "$BD/ttdiff" --gdb same.gdb same1.trc same2.trc > /dev/null 2> same.err; rc=$?; set -e
[ "$rc" = 2 ] && [ ! -e same.gdb ] && [ "$(wc -l < same.err)" = 1 ] &&
    grep -q -- '--gdb: no divergence' same.err || { cat same.err; fail "no divergence: rc $rc"; }
echo ok
