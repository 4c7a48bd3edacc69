#!/bin/sh
# ttdiff suspects on recorded fixtures where the deciding function returns
# before the split: a validator saying no, a lookup returning NULL, a
# character check in a parser. Suspects are ranked by evidence: without
# values (-finstrument-functions) nothing implicates the callee, so the
# diverging frame comes first and the decider second (position only),
# unless the line of calls that returned one after the other before the
# split shows an answer passed up (sus_validate: in_range's int, which
# validate_order, an int too, returned right after it: answer_used first,
# the frame second, the decider third);
# with values (the same programs built -pg -mfentry) the decider's answer
# differs, and it is suspect #1 with its evidence, in text and JSON.
# --suspects N limits the list, 0 drops it; HTML shows the evidence.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

# case FIXTURE GOOD-ARG BAD-ARG DECIDER FRAME [VALUES-DECIDER [PLAIN-ANSWER]]
#   VALUES-DECIDER: suspect #1 with values, when the values show the answer
#   was computed deeper (in_range(0, 1, 10) = 0 under validate_order)
#   PLAIN-ANSWER: suspect #1 without values (answer_used), above the frame
case1() {
    rec g.trc "$BD/fixtures/$1" "$2"
    rec b.trc "$BD/fixtures/$1" "$3"
    run 1 --color never "$T/g.trc" "$T/b.trc"
    has "^suspects (most likely first, by evidence):" "$T/out"
    a=0
    if [ -n "${7:-}" ]; then
        a=1
        has "^  1\. $7  at .*$1\.c:[0-9]*  (score [0-9.]*: its answer (int) went up through \`$4\`, each returning right after it, to \`$5\`" "$T/out"
    fi
    has "^  $((1 + a))\. $5  at .*$1\.c:[0-9]*  (score 3.0: the diverging frame: its calls differ here)" "$T/out"
    has "^  $((2 + a))\. $4  at .*$1\.c:[0-9]*  (score 1.0: returned right before the split)" "$T/out"
    run 1 --format json "$T/g.trc" "$T/b.trc"
    json "$T/out" "
s = d['first_divergence']['suspects']
if '${7:-}':
    assert s[0]['function'] == '${7:-}' and s[0]['evidence'][0]['kind'] == 'answer_used', s[0]
    s = s[1:] + [None]
assert [x['function'] for x in s[:2]] == ['$5', '$4'], s
assert s[1]['role'] == 'returned' and s[1]['distance'] == 0 and s[1]['line'] > 0
assert s[1]['file'].endswith('$1.c') and s[0]['role'] == 'diverging_frame'
assert [e['kind'] for e in s[0]['evidence']] == ['diverging_frame'] and s[0]['score'] == 3
assert [e['kind'] for e in s[1]['evidence']] == ['distance'] and s[1]['score'] == 1
assert len(d['first_divergence']['suspects']) == d['options']['suspects'] == 3
assert d['first_divergence']['cause_chain_end'] == 'values not recorded'
"
    rm -f "$T/g.trc" "$T/b.trc"
    [ "$(uname -m)" = x86_64 ] && [ -x "$BD/fixtures/pg/$1" ] || return 0
    rec g.trc "$BD/fixtures/pg/$1" "$2"
    rec b.trc "$BD/fixtures/pg/$1" "$3"
    run 1 --format json "$T/g.trc" "$T/b.trc"
    json "$T/out" "
s = d['first_divergence']['suspects']
assert s[0]['function'] == '${6:-$4}', s
k = [e['kind'] for e in s[0]['evidence']]
assert 'value_differs' in k and 'on_cause_chain' in k, k
assert s[0]['role'] != 'diverging_frame' and s[0]['score'] > 3, s[0]
"
    rm -f "$T/g.trc" "$T/b.trc"
}
case1 sus_validate 2 0 validate_order process in_range in_range
case1 sus_lookup bob zed find_user greet
case1 diff_parse abcd 'ab!d' is_valid parse

# the crash: lookup() returned NULL before use_record() died; without
# values nothing implicates lookup, the frame comes first
rec g.trc "$BD/fixtures/diff_crash" ok
rec b.trc "$BD/fixtures/diff_crash" missing
run 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" "
s = d['first_divergence']['suspects']
assert [x['function'] for x in s] == ['use_record', 'lookup'], s
"
# --suspects N
run 1 --suspects 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" "assert [x['function'] for x in d['first_divergence']['suspects']] == ['use_record']"
run 1 --suspects 0 "$T/g.trc" "$T/b.trc"
grep -q '^suspects' "$T/out" && fail "--suspects 0 still lists suspects"
run 2 --suspects x "$T/g.trc" "$T/b.trc"
has "^ttdiff: --suspects: not a count: 'x'" "$T/err"
# HTML: the list in the first-divergence section
run 1 --format html "$T/g.trc" "$T/b.trc"
sed -n '/<section class="first"/,/<\/section>/p' "$T/out" > "$T/first.html"
has '<ol class="sus" id="tt-suspects">' "$T/first.html"
has '<li><span class="fn">use_record</span> <span class="loc">[^<]*diff_crash.c:[0-9]' "$T/first.html"
has '<ul class="evid"><li class="for" title="diverging_frame, weight 3.00">the diverging frame' "$T/first.html"
echo "ok"
