#!/bin/sh
# Plain mode's answer (issue 33; diff/suspects.c answer_evidence) on
# fixtures/progs/sus_answer.c. With no values recorded, read_value()'s
# calls part right after next_token() (void) returned, right after
# lex_token() (bool), right after match_word() (bool): the comparison in
# match_word() made the answer the branch used, the calls above passed it
# up. match_word is suspect #1 (answer_used), above the diverging frame,
# and heads the verdict ("the answer `match_word` returned", kind
# "answer", possible) in text, JSON and HTML (the first screen). Must
# not: in "sum:" mode check_record() compares the number checksum()
# returned (unsigned; an int-answering helper is checksum's last call):
# the frame stays first, nothing has answer_used, the verdict is the
# split's branch. With values (the -pg build) the values are followed
# instead: no answer_used.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"
SRC=fixtures/progs/sus_answer.c
# match_word's place: the line of its body's opening brace, where its code
# starts (the line table's first line for its entry)
L_MATCH=$(grep -n '^NOINLINE static bool match_word' "$SRC" | cut -d: -f1)
[ -n "$L_MATCH" ] || fail "fixture line"
L_MATCH=$((L_MATCH + 1))

rec g.trc "$BD/fixtures/sus_answer" flag=true
rec b.trc "$BD/fixtures/sus_answer" flag=True
run 1 --color never "$T/g.trc" "$T/b.trc"
cp "$T/out" "$T/a.txt"
has '^verdict: diverged: possible cause: the answer `match_word` returned (thread sus_answer)$' "$T/a.txt"
has '^  cause: its answer (_Bool) went up through `lex_token`, `next_token`, each returning right after it, to `read_value`, whose calls part next: the branch most likely used it (values not recorded) (.*sus_answer.c:'"$L_MATCH"')$' "$T/a.txt"
has '^  symptom: the calls part in `read_value`: the good run calls `set_flag`, the bad run calls `report_error`' "$T/a.txt"
has "^  1\. match_word  at .*sus_answer.c:$L_MATCH  (score 3\.[0-9]*: its answer (_Bool) went up through" "$T/a.txt"
has '^  2\. read_value  at .*sus_answer.c:[0-9]*  (score 3.0: the diverging frame: its calls differ here)' "$T/a.txt"
[ "$(head -1 "$T/a.txt" | cut -c1-9)" = "verdict: " ] || fail "the verdict is not the first line"

run 1 --format json -o "$T/a.json" "$T/g.trc" "$T/b.trc"
json "$T/a.json" "
v = d['verdict']
assert v['cause']['kind'] == 'answer' and v['cause']['function'] == 'match_word', v
assert v['confidence'] == 'possible' and v['cause']['line'] == $L_MATCH, v
assert v['headline'] == 'diverged: possible cause: the answer \`match_word\` returned (thread sus_answer)', v
s = d['first_divergence']['suspects']
assert [x['function'] for x in s[:3]] == ['match_word', 'read_value', 'next_token'], s
assert s[0]['role'] == 'returned' and s[1]['role'] == 'diverging_frame', s
assert s[0]['evidence'][0]['kind'] == 'answer_used' and s[0]['evidence'][0]['weight'] == 3.5, s[0]
assert [x['function'] for x in s if any(e['kind'] == 'answer_used' for e in x['evidence'])] == ['match_word'], s
assert s[0]['score'] == sum(e['weight'] for e in s[0]['evidence']) > s[1]['score'], s
"

run 1 --format html -o "$T/a.html" "$T/g.trc" "$T/b.trc"
sed -n '1,/<main>/p' "$T/a.html" > "$T/screen1"
has '<strong>Verdict:</strong> diverged: possible cause: the answer `match_word` returned (thread sus_answer)' "$T/screen1"
has '<li>cause (possible): its answer (_Bool) went up through `lex_token`, `next_token`' "$T/screen1"
has 'title="answer_used, weight 3.50">its answer (_Bool) went up through' "$T/a.html"

# must not: a checksum (a number) returned last; the frame compared it
rec sg.trc "$BD/fixtures/sus_answer" sum:abc:294
rec sb.trc "$BD/fixtures/sus_answer" sum:abc:295
run 1 --color never "$T/sg.trc" "$T/sb.trc"
has '^verdict: diverged: possible cause: the branch in `check_record`' "$T/out"
has '^  1\. check_record  at .*(score 3.0: the diverging frame: its calls differ here)' "$T/out"
has '^  2\. checksum  at .*(score 1.0: returned right before the split)' "$T/out"
run 1 --format json -o "$T/s.json" "$T/sg.trc" "$T/sb.trc"
json "$T/s.json" "
assert d['verdict']['cause']['kind'] == 'split', d['verdict']
s = d['first_divergence']['suspects']
assert not [x for x in s if any(e['kind'] == 'answer_used' for e in x['evidence'])], s
"
run 1 --format html -o "$T/s.html" "$T/sg.trc" "$T/sb.trc"
grep -q 'answer_used' "$T/s.html" && fail "answer_used in the checksum's HTML report"

# values: the values are followed, no answer guessed
if [ "$(uname -m)" = x86_64 ] && [ -x "$BD/fixtures/pg/sus_answer" ]; then
    rec vg.trc "$BD/fixtures/pg/sus_answer" flag=true
    rec vb.trc "$BD/fixtures/pg/sus_answer" flag=True
    run 1 --format json -o "$T/v.json" "$T/vg.trc" "$T/vb.trc"
    json "$T/v.json" "
assert d['values'] and d['verdict']['cause']['kind'] != 'answer', d['verdict']
s = d['first_divergence']['suspects']
assert not [x for x in s if any(e['kind'] == 'answer_used' for e in x['evidence'])], s
"
fi
echo ok
