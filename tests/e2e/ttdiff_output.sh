#!/bin/sh
# ttdiff_output.sh - ttdiff -o writes its report whole or not at all
# (issue #37.3): a temporary file beside it, renamed on an answer of 0 or 1,
# removed on an error. Checked: a normal report (no temporary file left);
# --force; a --function that matches nothing (no file, and the rerun is not
# refused with "exists"); a write past RLIMIT_FSIZE (EFBIG: an error line,
# no file); the same with SIGXFSZ's default action, which kills ttdiff in
# the middle of a write; kill -9 at 20 moments of a run (the name holds
# nothing or the whole report); and, as root with tmpfs, a full disk
# ("no space left on device", no file).
. "$(dirname "$0")/ttdiff_lib.inc"
rec g.trc "$BD/fixtures/diff_parse" abcd
rec b.trc "$BD/fixtures/diff_parse" 'ab!d'
G=$T/g.trc; Bt=$T/b.trc
mkdir "$T/o" || fail "mkdir"
leftover() { ls -A "$T/o" | grep '^\.' && fail "temporary file left in $T/o"; true; }

run 1 -o "$T/o/r.txt" "$G" "$Bt"
[ -s "$T/o/r.txt" ] || fail "no report"
leftover
run 2 -o "$T/o/r.txt" "$G" "$Bt"
has 'r.txt: exists (use --force to replace it)' "$T/err"
run 1 --force -o "$T/o/r.txt" "$G" "$Bt"
run 1 --format html -o "$T/o/ref.html" "$G" "$Bt"

# a filter that matches nothing: no report, and the rerun is not refused
run 2 -f nomatch -o "$T/o/f.txt" "$G" "$Bt"
[ -e "$T/o/f.txt" ] && fail "empty report left by a filter that matched nothing"
leftover
run 0 -f '^parse$' -o "$T/o/f.txt" "$G" "$Bt"

# the file size limit: EFBIG (SIGXFSZ ignored), then SIGXFSZ's default
# action, which kills ttdiff in the middle of a write
rc=0
(ulimit -f 8; trap '' XFSZ; exec "$TTDIFF" --format html -o "$T/o/big.html" "$G" "$Bt") \
    > "$T/out" 2> "$T/err" || rc=$?
[ $rc = 2 ] || { cat "$T/err"; fail "file size limit: exit $rc, want 2"; }
has 'big.html: larger than the file size limit; the report is not written' "$T/err"
[ -e "$T/o/big.html" ] && fail "truncated report left past the file size limit"
leftover
rc=0
( (ulimit -f 8; exec "$TTDIFF" --format html -o "$T/o/killed.html" "$G" "$Bt") \
    > "$T/out" 2> "$T/err" ) 2> /dev/null || rc=$?
[ $rc -gt 128 ] || fail "SIGXFSZ: exit $rc, want a signal"
[ -e "$T/o/killed.html" ] && fail "truncated report under its name after SIGXFSZ killed ttdiff"
run 1 --format html -o "$T/o/killed.html" "$G" "$Bt"
cmp -s "$T/o/killed.html" "$T/o/ref.html" || fail "rerun after the kill differs"

# kill -9 at 20 moments: the name holds nothing or the whole report
for i in 01 02 03 04 05 06 07 08 09 10 12 14 16 18 20 25 30 40 50 70; do
    rm -f "$T/o/k.html"
    "$TTDIFF" --format html -o "$T/o/k.html" "$G" "$Bt" > /dev/null 2>&1 &
    pid=$!
    sleep 0.0$i 2>/dev/null || sleep 1
    kill -9 $pid 2>/dev/null
    wait $pid 2>/dev/null
    if [ -e "$T/o/k.html" ]; then
        cmp -s "$T/o/k.html" "$T/o/ref.html" || fail "kill -9 after 0.0${i}s: partial report under its name"
    fi
done
rm -f "$T/o"/.k.html.*

# a full disk (root, tmpfs of 16 KiB): "no space left on device"
if [ "$(id -u)" = 0 ] && mkdir "$T/full" && mount -t tmpfs -o size=16k tmpfs "$T/full" 2>/dev/null; then
    rc=0
    "$TTDIFF" --format html -o "$T/full/r.html" "$G" "$Bt" > "$T/out" 2> "$T/err" || rc=$?
    ls -A "$T/full" > "$T/left"
    umount "$T/full"
    [ $rc = 2 ] || { cat "$T/err"; fail "full disk: exit $rc, want 2"; }
    has 'r.html: no space left on device; the report is not written' "$T/err"
    [ -s "$T/left" ] && fail "full disk: left $(cat "$T/left")"
    echo "ok: full disk (tmpfs)"
else
    echo "SKIP part: full disk (needs root and a tmpfs mount)"
fi
echo "ok: ttdiff -o writes a whole report or none"
