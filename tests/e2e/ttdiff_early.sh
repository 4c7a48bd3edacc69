#!/bin/sh
# ttdiff when the bad run stops early and the report's first screen: the
# bad-only side and how the bad run ended (exit status or signal) come
# right after the split, before the good-only lines; "last N common events"
# says why fewer lines follow; the HTML page shows the same note, the
# filters used, a space between a suspect and its file, event numbers that
# do not wrap, and a navigator that counts like the verdict.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

rec pg.trc "$BD/fixtures/diff_parse" abcd
rec pb.trc "$BD/fixtures/diff_parse" 'ab!d'
run 1 --color never "$T/pg.trc" "$T/pb.trc"
sed -n '/^differing/,$p' "$T/out" > "$T/diffpart"
has '^the bad run stopped early: exit status 1; after the split this thread had [0-9]* more events* in the bad run, [0-9]* in the good run$' "$T/diffpart"
# the bad side and its end come before the first good-only line
first_plus=$(grep -n '^  +' "$T/diffpart" | head -1 | cut -d: -f1)
first_minus=$(grep -n '^  -' "$T/diffpart" | head -1 | cut -d: -f1)
end_line=$(grep -n '^the bad run stopped early' "$T/diffpart" | cut -d: -f1)
[ "$first_plus" -lt "$first_minus" ] && [ "$end_line" -lt "$first_minus" ] ||
    { cat "$T/out"; fail "bad side and end not before the good-only lines"; }
[ "$(grep -c '^the bad run' "$T/out")" = 1 ] || fail "the end said twice"

# the crash: the signal right after the split
rec cg.trc "$BD/fixtures/diff_crash" ok
rec cb.trc "$BD/fixtures/diff_crash" missing
run 1 --color never "$T/cg.trc" "$T/cb.trc"
has '^the bad run died here: crash SIGSEGV' "$T/out"
# 5 common events in 4 lines (lookup's enter and exit share one)
has '^last 5 common events, in 4 lines (a call that returns at once takes one):$' "$T/out"
run 1 --color never --context 50 "$T/cg.trc" "$T/cb.trc"
has '^last [0-9]* common events (all there are before the split; --context 50)' "$T/out"

# HTML: the note, the filters, the suspect's space, no wrapping numbers
run 1 --format html --function '^(main|parse|accept_char|is_valid|reject_input)$' \
    "$T/pg.trc" "$T/pb.trc"
cp "$T/out" "$T/p.html"
has '<p class="crashnote">The bad run stopped early: exit status 1\.' "$T/p.html"
has 'id="tt-filters">Compared with: <code>--function ^(main|parse' "$T/p.html"
has 'The bad run stopped early (exit status 1)' "$T/p.html"
has '<div class="sbs" style="--nw:[0-9]*ch">' "$T/p.html"
has '<span class="fn">[a-z_]*</span> <span class="loc">' "$T/p.html"
run 1 --format html "$T/cg.trc" "$T/cb.trc"
grep -q 'id="tt-filters"' "$T/out" && fail "filters shown without any"
# the navigator counts windows, and says of how many when some have none
n=$(grep -o '<span id="tt-count">[^<]*' "$T/out" | sed 's/.*>//')
total=$(sed -n 's/.*<span class="pill bad">diverged<\/span>\([0-9]*\) divergence.*/\1/p' "$T/out")
case "$n" in "1 / $total") ;; "1 / "*" (of $total)") ;; *) fail "navigator '$n' vs $total divergences" ;; esac
# filters that match nothing are an error, as in ttdump (-t/-f alike)
run 2 --thread nomatch "$T/pg.trc" "$T/pb.trc"
has "^ttdiff: --thread 'nomatch': no thread matches in " "$T/err"
run 2 -f nomatch "$T/pg.trc" "$T/pb.trc"
has "^ttdiff: --function 'nomatch': no function matches in " "$T/err"
run 0 -t diff_parse -f '^parse$' "$T/pg.trc" "$T/pb.trc"
rc=0; "$BD/ttdump" -f nomatch "$T/pg.trc" > /dev/null 2> "$T/err" || rc=$?
[ "$rc" = 2 ] || fail "ttdump -f nomatch: exit $rc"
has "^ttdump: --function 'nomatch': no function matches in " "$T/err"
"$BD/ttdiff" -V | grep -q "^ttdiff $("$BD/ttdump" -V | sed -n 's/^ttdump \([^ ]*\).*/\1/p') " ||
    fail "ttdiff and ttdump versions differ"
echo ok
