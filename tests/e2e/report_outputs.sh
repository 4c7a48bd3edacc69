#!/bin/sh
# Report outputs in shared folders (issue 24, defect 3), the same rules as
# the trace files: `ttdiff -o FILE` and ttrec's report.html/json never
# follow a symbolic link at the final name (a planted link to a victim's
# file stays as it was), never replace an existing file without --force
# (ttdiff's -f is --function; ttrec's -f passes it on), are
# created 0600 (reports can hold logged message contents), and ttrec -f -o
# refuses a folder owned by someone else (as root: chown nobody).
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"
rec g.trc "$BD/fixtures/diff_parse" abcd
rec b.trc "$BD/fixtures/diff_parse" ab!d
mkdir -m 1777 "$T/shared"
echo 'victim .bashrc' > "$T/victim"
chmod 644 "$T/victim"
mode() { stat -c %a "$1"; }
# a link planted at the report's name: refused, the victim untouched
ln -s "$T/victim" "$T/shared/report.html"
for f in "" --force; do
    run 2 $f --format html -o "$T/shared/report.html" "$T/g.trc" "$T/b.trc"
    has 'report.html' "$T/err"
    [ "$(cat "$T/victim")" = 'victim .bashrc' ] || fail "ttdiff $f -o wrote through a symbolic link"
done
[ -L "$T/shared/report.html" ] || fail "the link was replaced"
# a new file: 0600; an existing one: refused without -f, replaced with it
run 1 -o "$T/shared/r.txt" "$T/g.trc" "$T/b.trc"
[ "$(mode "$T/shared/r.txt")" = 600 ] || fail "report created $(mode "$T/shared/r.txt"), want 600"
echo old > "$T/shared/old.txt"
run 2 -o "$T/shared/old.txt" "$T/g.trc" "$T/b.trc"
has 'old.txt.*exists.*--force' "$T/err"
[ "$(cat "$T/shared/old.txt")" = old ] || fail "an existing report was overwritten without --force"
run 1 --force -o "$T/shared/old.txt" "$T/g.trc" "$T/b.trc"
has 'first divergence' "$T/shared/old.txt"
[ "$(mode "$T/shared/old.txt")" = 600 ] || fail "--force: mode $(mode "$T/shared/old.txt"), want 600"
# --profile writes its report the same way
run 2 --profile -o "$T/shared/old.txt" "$T/g.trc" "$T/b.trc"
# ttrec: the report in its folder is 0600; a folder of someone else refused
cd "$T"
rc=0; "$BD/ttrec" -q --format html --until-fail 60 --keep 1 -o hunt -- \
    "$BD/fixtures/race_queue" flaky > out 2> err || rc=$?
[ "$rc" = 1 ] || { cat err; fail "ttrec --until-fail: exit $rc, want 1"; }
[ "$(mode hunt/report.html)" = 600 ] || fail "ttrec report.html mode $(mode hunt/report.html), want 600"
if [ "$(id -u)" = 0 ] && id nobody > /dev/null 2>&1; then
    mkdir theirs && chown nobody theirs
    rc=0; "$BD/ttrec" -f -q --until-fail 3 -o theirs -- "$BD/fixtures/race_queue" > out 2> err || rc=$?
    [ "$rc" = 2 ] || fail "ttrec -f -o a folder owned by nobody: exit $rc, want 2"
    has 'theirs.*owned by' err
    [ -z "$(ls theirs)" ] || fail "ttrec wrote into a folder owned by someone else: $(ls theirs)"
    ln -s hunt linked
    rc=0; "$BD/ttrec" -f -q --until-fail 3 -o linked -- "$BD/fixtures/race_queue" > out 2> err || rc=$?
    [ "$rc" = 2 ] || fail "ttrec -f -o a symbolic link to a folder: exit $rc, want 2"
else
    echo "SKIP part: the folder-owner checks (not root)"
fi
echo ok
