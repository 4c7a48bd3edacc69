#!/bin/sh
# Inside the deciding function: fixtures/inline/inl_flip.c, where
# to_integer() answers 0 for 3.5 (1 for whole halves) with the same
# arguments and no traced call of its own, through fits_integer() inside
# number_to_integer(), static helpers gcc inlines into it at -O2. Values
# mode (inl_flip_pg): to_integer's source only returns
# number_to_integer's answer (a wrapper), so its own code decided nothing:
# the helpers it holds head the suspects, the deepest first (fits_integer,
# where the failure starts: the verdict's error origin), each with
# to_integer's whole score and marked inlined into it, above to_integer,
# which keeps its value and chain evidence but not the error (text, JSON,
# HTML), their lines those of their definitions (found by grep here). With "-v" to_integer also calls note_fraction() for a fraction:
# its calls differ, it is the diverging frame, and no helper is a suspect;
# nor in plain mode (no values: no answer known to flip).
. "$(dirname "$0")/ttdiff_lib.inc"
SRC=fixtures/inline/inl_flip.c
line_of() { grep -n -e "$1" "$SRC" | head -1 | cut -d: -f1; }
L_FITS=$(line_of '^static int fits_integer')
L_N2I=$(line_of '^static int number_to_integer')
[ -n "$L_FITS" ] && [ -n "$L_N2I" ] || fail "fixture lines"

# plain mode: the helpers have ENTERs of their own, no values: no change
rec p.g.trc "$BD/fixtures/inl_flip" 8,10,14
rec p.b.trc "$BD/fixtures/inl_flip" 8,7,14
run 1 --suspects 6 --format json -o "$T/p.json" "$T/p.g.trc" "$T/p.b.trc"
json "$T/p.json" "
s = d['first_divergence']['suspects']
assert all(x['inlined_into'] is None for x in s), s
assert all(e['kind'] != 'inlined_into' for x in s for e in x['evidence']), s
"
if [ "$(uname -m)" != x86_64 ]; then
    echo "SKIP part: values mode (x86-64 only)"
    echo ok
    exit 0
fi

P=$BD/fixtures/inl_flip_pg
rec v.g.trc "$P" 8,10,14
rec v.b.trc "$P" 8,7,14
run 1 --suspects 6 "$T/v.g.trc" "$T/v.b.trc"
cp "$T/out" "$T/v.txt"
has "^verdict: diverged: possible cause: the failure starts in \`fits_integer\`" "$T/v.txt"
has "^  1\. fits_integer \[inlined into to_integer\]  at .*inl_flip.c:$L_FITS  (score [0-9.]*: inlined into \`to_integer\`, whose source only returns \`number_to_integer\`'s answer, which flipped with the same inputs: the decision is in this code)" "$T/v.txt"
has "^  2\. number_to_integer \[inlined into to_integer\]  at .*inl_flip.c:$L_N2I  " "$T/v.txt"
has "^  3\. to_integer  at .*inl_flip.c:[0-9]*  (score [0-9.]*: returned 0 in the bad run, 1 in the good run; " "$T/v.txt"
run 1 --suspects 6 --format json -o "$T/v.json" "$T/v.g.trc" "$T/v.b.trc"
json "$T/v.json" "
s = d['first_divergence']['suspects']
assert [x['function'] for x in s[:3]] == ['fits_integer', 'number_to_integer', 'to_integer'], s
assert s[2]['inlined_into'] is None
assert all(e['kind'] != 'error_appears' for e in s[2]['evidence']), s[2]
for x, line in zip(s[:2], ($L_FITS, $L_N2I)):
    assert x['inlined_into'] == 'to_integer', x
    assert x['line'] == line and x['file'].endswith('/$SRC'), x
    assert [e['kind'] for e in x['evidence']] == ['inlined_into'], x
    assert x['score'] > s[2]['score'], (x['score'], s[2]['score'])
    assert x['role'] == s[2]['role'], x
assert all(x['inlined_into'] is None for x in s[3:]), s
assert d['first_divergence']['cause_chain'][0]['function'] == 'to_integer'
v = d['verdict']
assert v['cause']['kind'] == 'error_origin' and v['cause']['function'] == 'fits_integer', v
assert v['confidence'] == 'possible', v
"
run 1 --suspects 6 --format html -o "$T/v.html" "$T/v.g.trc" "$T/v.b.trc"
has '<span class="fn">fits_integer</span> <span class="mut">\[inlined into <span class="fn">to_integer</span>\]</span>' "$T/v.html"
sed -n '1,/<main>/p' "$T/v.html" > "$T/screen1"
has '<strong>Verdict:</strong> diverged: possible cause: the failure starts in `fits_integer`' "$T/screen1"

# its calls differ (note_fraction in the bad run): nothing inlined is named
rec c.g.trc "$P" 8,10,14 -v
rec c.b.trc "$P" 8,7,14 -v
run 1 --suspects 6 --format json -o "$T/c.json" "$T/c.g.trc" "$T/c.b.trc"
json "$T/c.json" "
fd = d['first_divergence']
s = fd['suspects']
assert s[0]['function'] == 'to_integer' and s[0]['role'] == 'diverging_frame', s
assert all(x['inlined_into'] is None for x in s), s
assert not [x for x in s if x['function'] in ('fits_integer', 'number_to_integer')], s
"
echo ok
