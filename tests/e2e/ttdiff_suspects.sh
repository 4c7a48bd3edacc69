#!/bin/sh
# ttdiff suspects on recorded fixtures where the deciding function returns
# before the split: a validator saying no, a lookup returning NULL, a
# character check in a parser. The deciding function must be suspect #1 in
# text, JSON and HTML; --suspects N limits the list, 0 drops it.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

# case FIXTURE GOOD-ARG BAD-ARG DECIDER FRAME
case1() {
    rec g.trc "$BD/fixtures/$1" "$2"
    rec b.trc "$BD/fixtures/$1" "$3"
    run 1 --color never "$T/g.trc" "$T/b.trc"
    has "^suspects (most likely first):" "$T/out"
    has "^  1\. $4  at .*$1\.c:[0-9]*  (returned right before the split)" "$T/out"
    has "^  2\. $5  at .*$1\.c:[0-9]*  (the diverging frame" "$T/out"
    run 1 --format json "$T/g.trc" "$T/b.trc"
    json "$T/out" "
s = d['first_divergence']['suspects']
assert [x['function'] for x in s[:2]] == ['$4', '$5'], s
assert s[0]['role'] == 'returned' and s[0]['distance'] == 0 and s[0]['line'] > 0
assert s[0]['file'].endswith('$1.c') and s[1]['role'] == 'diverging_frame'
assert len(s) == d['options']['suspects'] == 3
"
    rm -f "$T/g.trc" "$T/b.trc"
}
case1 sus_validate 2 0 validate_order process
case1 sus_lookup bob zed find_user greet
case1 diff_parse abcd 'ab!d' is_valid parse

# the crash: lookup() returned NULL before use_record() died
rec g.trc "$BD/fixtures/diff_crash" ok
rec b.trc "$BD/fixtures/diff_crash" missing
run 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" "
s = d['first_divergence']['suspects']
assert [x['function'] for x in s] == ['lookup', 'use_record'], s
"
# --suspects N
run 1 --suspects 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" "assert [x['function'] for x in d['first_divergence']['suspects']] == ['lookup']"
run 1 --suspects 0 "$T/g.trc" "$T/b.trc"
grep -q '^suspects' "$T/out" && fail "--suspects 0 still lists suspects"
run 2 --suspects x "$T/g.trc" "$T/b.trc"
has "^ttdiff: --suspects: not a count: 'x'" "$T/err"
# HTML: the list in the first-divergence section
run 1 --format html "$T/g.trc" "$T/b.trc"
sed -n '/<section class="first"/,/<\/section>/p' "$T/out" > "$T/first.html"
has '<ol class="sus" id="tt-suspects">' "$T/first.html"
has '<li><span class="fn">lookup</span> <span class="loc">[^<]*diff_crash.c:[0-9]' "$T/first.html"
echo "ok"
