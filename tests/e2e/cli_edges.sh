#!/bin/sh
# cli_edges.sh - the commands' rough edges (issue 36, item 6), each checked
# as a user meets it: -V and --version on ttdiff, ttdump, ttrec and ttcc,
# one format; ttdiff --gdb FILE (and -o FILE) already there fails before
# any work, in one line, exit 2; --exe FILE that is no ELF program is an
# error (ttdiff and ttdump); ttdiff --sort without --profile is an error,
# as are ttrec's --until-fail options without it;
# ttrec on an uninstrumented program names no trace file and says why; the
# --gdb example of ttdiff.1 runs gdb when ttdiff finds a divergence.
set -eu
B=$(cd "${1:-build}" && pwd)
R=$(cd "$(dirname "$0")/../.." && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
P=$B/fixtures/ex_parser
[ -x "$P" ] || fail "$P not built (make fixtures)"
cd "$T"
TTCAP_OUT=good.trc "$P" size=64,mode=755,ro > /dev/null
TTCAP_OUT=bad.trc "$P" size=64,mode=755 > /dev/null

# run CMD...: its stdout in out, stderr in err, status in rc
run() { set +e; "$@" > out 2> err; rc=$?; set -e; }
# one_error RC WHAT: exit status RC, nothing on stdout, one stderr line
one_error() {
    [ "$rc" = "$1" ] || { cat err; fail "$2: exit $rc, want $1"; }
    [ ! -s out ] || fail "$2: printed $(wc -l < out) lines before the error"
    [ "$(wc -l < err)" = 1 ] || { cat err; fail "$2: want one line on stderr"; }
}

# -V and --version: every command, one format
for cmd in ttdiff ttdump ttrec ttcc; do
    run "$B/$cmd" -V
    [ "$rc" = 0 ] || { cat err; fail "$cmd -V: exit $rc"; }
    grep -qE "^$cmd [0-9]+\.[0-9]+\.[0-9]+ \(trace format [0-9]+\.[0-9]+\)\$" out ||
        fail "$cmd -V: '$(cat out)'"
    cp out v1
    run "$B/$cmd" --version
    cmp -s out v1 || fail "$cmd: --version '$(cat out)' is not -V '$(cat v1)'"
    sed 's/^[a-z]* //' v1 >> versions
done
[ "$(sort -u versions | wc -l)" = 1 ] || fail "the commands name other versions: $(sort -u versions)"

# --gdb FILE and -o FILE already there: one line, exit 2, no report first
: > split.gdb
run "$B/ttdiff" --gdb split.gdb good.trc bad.trc
one_error 2 "--gdb over an existing file"
grep -q '^ttdiff: split.gdb: exists (use --force to replace it)$' err || fail "--gdb: $(cat err)"
: > report.txt
run "$B/ttdiff" -o report.txt good.trc bad.trc
one_error 2 "-o over an existing file"
run "$B/ttdiff" --gdb "$T/no/such/dir/x.gdb" good.trc bad.trc
one_error 2 "--gdb in a missing folder"
run "$B/ttdiff" --force --gdb split.gdb good.trc bad.trc
[ "$rc" = 1 ] && [ -s split.gdb ] || { cat err; fail "--force --gdb: exit $rc"; }

# --exe FILE that is no ELF executable or library
for cmd in "ttdiff good.trc bad.trc" "ttdump good.trc"; do
    run "$B/${cmd%% *}" --exe /etc/passwd ${cmd#* }
    one_error 2 "${cmd%% *} --exe /etc/passwd"
    grep -q "exe: /etc/passwd: not an ELF executable" err || fail "--exe: $(cat err)"
    run "$B/${cmd%% *}" --exe "$T/missing" ${cmd#* }
    one_error 2 "${cmd%% *} --exe missing"
done
run "$B/ttdiff" --exe "$P" good.trc bad.trc
[ "$rc" = 1 ] || { cat err; fail "--exe on the program itself: exit $rc"; }

# --sort without --profile
run "$B/ttdiff" --sort calls good.trc bad.trc
one_error 2 "--sort without --profile"
run "$B/ttdiff" --profile --sort calls good.trc bad.trc
[ "$rc" = 1 ] || { cat err; fail "--profile --sort calls: exit $rc"; }
run "$B/ttdump" --sort total good.trc
one_error 2 "ttdump --sort without --profile"
run "$B/ttdump" --profile --sort thread good.trc
one_error 2 "ttdump --sort thread (not a column --help lists)"
# ttrec: the options of --until-fail are not taken silently for one run
for o in "--keep 2" "--candidates 4" "--format json" "--fail-if true" "--ttdiff-arg=--all"; do
    run "$B/ttrec" $o -- /bin/true
    one_error 2 "ttrec $o without --until-fail"
    grep -q "goes with --until-fail" err || fail "ttrec $o: $(cat err)"
done

# ttrec on an uninstrumented program: no trace named, the reason given
run "$B/ttrec" -- /bin/true
[ "$rc" = 0 ] || fail "ttrec -- /bin/true: exit $rc"
grep -q 'trace in' err && fail "ttrec names a trace it did not write: $(cat err)"
[ "$(wc -l < err)" = 1 ] || { cat err; fail "ttrec -- /bin/true: want one line"; }
grep -q 'no trace was written: /bin/true is not instrumented' err || fail "ttrec: $(cat err)"
[ ! -e true.trc ] || fail "ttrec left true.trc"

# ttdiff.1's --gdb example starts gdb (a stand-in) on a divergence
ex=$(sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$R/report/cmd/man/ttdiff.1" | sed 's/\\-/-/g' |
     grep -e '--gdb split.gdb' || true)
[ -n "$ex" ] || fail "ttdiff.1: no --gdb example"
mkdir bin
printf '#!/bin/sh\necho "gdb $*" > gdb.ran\n' > bin/gdb
chmod +x bin/gdb
rm -f split.gdb
PATH=$B:$T/bin:$PATH sh -c "$ex" > /dev/null 2>&1 || true
[ "$(cat gdb.ran 2>/dev/null)" = "gdb -x split.gdb" ] || fail "ttdiff.1's example never runs gdb: $ex"
echo ok
