#!/bin/sh
# Call sites (issue 21 items 1 and 4): fixtures/progs/site_calls.c, whose
# bad run calls note() once from another line of step() with the same
# argument, built in both capture modes (-finstrument-functions, and
# -pg -mfentry on x86-64). ttdiff tells the runs apart by the call site
# (exit 1, the split names note called from step:21 against step:23, in
# text and JSON); --ignore-call-sites aligns them as before (exit 0);
# ttdump --sites prints where each call came from; a good run against
# itself is still equal. Two builds (an unrelated function added above
# step(): every address and line of step() moves, and its build-id
# changes): a good run of each still aligns (the site is step's line
# counted from step's first line), and the bad run still differs.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

CC=${CC:-cc}
SRC=fixtures/progs/site_calls.c
LINK="-L$BD -lttcap -Wl,-rpath,$BD"

check_mode() {
    prog=$1
    rec g.trc "$prog" good
    rec g2.trc "$prog" good
    rec b.trc "$prog" bad
    "$BD/ttdump" --sites --lines "$T/b.trc" > "$T/dump"
    has "> note.* from step+0x[0-9a-f]* at .*site_calls.c:21" "$T/dump"
    has "> note.* from step+0x[0-9a-f]* at .*site_calls.c:23" "$T/dump"
    run 0 --color never "$T/g.trc" "$T/g2.trc"
    run 1 --color never "$T/g.trc" "$T/b.trc"
    has "from step:21" "$T/out"
    has "from step:23" "$T/out"
    run 1 --format json "$T/g.trc" "$T/b.trc"
    json "$T/out" "
fd = d['first_divergence']
assert d['options']['ignore_call_sites'] is False, d['options']
evs = fd['good'] + fd['bad']
froms = sorted(e.get('from', '') for e in evs if e['kind'] == 'enter' and e['function'] == 'note')
assert froms and all(f in ('step:21', 'step:23') for f in froms), (froms, evs)
assert any(e.get('from') == 'step:21' for e in fd['bad']), fd['bad']
assert any(e.get('from') == 'step:23' for e in fd['good']), fd['good']
"
    run 0 --color never --ignore-call-sites "$T/g.trc" "$T/b.trc"
    run 0 --format json --ignore-call-sites "$T/g.trc" "$T/b.trc"
    json "$T/out" "assert d['options']['ignore_call_sites'] is True and not d['diverged'], d"
}

$CC -std=gnu11 -g -O0 -finstrument-functions -o "$T/site_plain" "$SRC" $LINK ||
    fail "cannot build $SRC (plain mode)"
check_mode "$T/site_plain"
echo "ok: plain mode"

# the second build: 6 lines and a function more above step()
awk '/^__attribute__\(\(noinline\)\) int step/ {
        print "__attribute__((noinline)) int unrelated(int v)"; print "{";
        print "    v += 3;"; print "    return v * v;"; print "}"; print "" }
     { print }' "$SRC" > "$T/site_calls2.c"
grep -q unrelated "$T/site_calls2.c" || fail "second build's source"
$CC -std=gnu11 -g -O0 -finstrument-functions -o "$T/site_plain2" "$T/site_calls2.c" $LINK ||
    fail "cannot build the second build"
rec g.trc "$T/site_plain" good
rec g3.trc "$T/site_plain2" good
rec b3.trc "$T/site_plain2" bad
"$BD/ttdump" --sites --lines "$T/b3.trc" | grep -q 'from step+0x[0-9a-f]* at .*site_calls2.c:27' ||
    fail "second build: the call's line did not move"
run 0 --color never "$T/g.trc" "$T/g3.trc"
run 1 --color never "$T/g.trc" "$T/b3.trc"
has "from step:27" "$T/out"
has "from step:23" "$T/out"          # the good build's usual line
echo "ok: two builds"

if [ "$(uname -m)" = x86_64 ]; then
    $CC -std=gnu11 -g -O0 -pg -mfentry -c -o "$T/site_values.o" "$SRC" &&
        $CC -o "$T/site_values" "$T/site_values.o" $LINK || fail "cannot build $SRC (values mode)"
    check_mode "$T/site_values"
    echo "ok: values mode"
fi

echo ok
