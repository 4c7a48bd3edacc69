#!/bin/sh
# Values read well (issue 23 part 4) on the fixtures/values/ programs: the
# value divergence names the caller and the bad run's stack (text, JSON,
# HTML); enums print by name from DWARF ("TOK_BAD (4)"); a common call
# whose value differs shows each run's own value in the text report's
# last common events, in JSON (good_value) and on each side of the HTML
# side-by-side; differing addresses alone are not a difference.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

[ "$(uname -m)" = x86_64 ] || { echo "SKIP: values mode is x86-64 only"; exit 77; }
[ -x "$BD/fixtures/vd_longjmp" ] || fail "$BD/fixtures/vd_longjmp not built (make fixtures)"

# next_token returns an enum token: TOK_NUM in the good run, TOK_BAD in
# the bad one, called by parse_factor
rec g.trc "$BD/fixtures/vd_longjmp" '1+2*3'
rec b.trc "$BD/fixtures/vd_longjmp" '1+2*%'
run 1 --color never "$T/g.trc" "$T/b.trc"
has '^first divergence: `next_token` returned TOK_BAD (4) in the bad run, TOK_NUM (1) in the good run$' "$T/out"
has '^  called by `parse_factor` at .*vd_longjmp\.c:[0-9]*; stack: main > calc > parse_expr > parse_term > parse_factor > next_token$' "$T/out"
# the common call with the differing value, each run's own value
has '^ *21 *next_token() = TOK_BAD (4);  /\* good run: TOK_NUM (1) \*/$' "$T/out"
# the same call's value where the runs agree has no good-run note
has '^ *18 *next_token() = TOK_STAR (3);$' "$T/out"
# cause chain and suspects use the names too
has '^  1\. `next_token` returned TOK_BAD (4) in the bad run, TOK_NUM (1) in the good run$' "$T/out"

run 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" "
v = d['value_divergence']
assert v['good_value'] == 'TOK_NUM (1)' and v['bad_value'] == 'TOK_BAD (4)', v
assert v['caller'] == 'parse_factor', v
assert v['stack'] == ['main', 'calc', 'parse_expr', 'parse_term', 'parse_factor'], v['stack']
assert [f['function'] for f in v['frames']] == v['stack'], v['frames']
assert v['frames'][-1]['file'].endswith('vd_longjmp.c') and v['frames'][-1]['line'] > 0, v['frames']
b = [e for e in d['first_divergence']['before'] if e.get('good_value')]
assert len(b) == 1, b
assert b[0]['function'] == 'next_token' and b[0]['kind'] == 'exit', b
assert (b[0]['value'], b[0]['good_value']) == ('TOK_BAD (4)', 'TOK_NUM (1)'), b
"

run 1 --format html "$T/g.trc" "$T/b.trc"
has '<p class="mut" id="tt-value-stack">Called by <code><span class="fn">parse_factor</span></code>' "$T/out"
has 'returned <b class="val">TOK_BAD (4)</b> in the bad run, <b class="val">TOK_NUM (1)</b> in the good run' "$T/out"
# one side-by-side row: the good half shows TOK_NUM, the bad half TOK_BAD
python3 - "$T/out" <<'EOF' || fail "HTML side-by-side: each run's own value"
import re, sys
rows = [r for r in open(sys.argv[1]).read().split('\n') if 'val vd' in r]
assert len(rows) == 1, rows
halves = re.findall(r'<span class="val vd">([^<]*)</span>', rows[0])
assert halves == ['TOK_NUM (1)', 'TOK_BAD (4)'], halves
EOF

# parse_number's -34 comes up through parse_entry; pointers that differ
# only in address are no difference
rm -f "$T"/*.trc
rec g.trc "$BD/fixtures/vd_errchain" 30
rec b.trc "$BD/fixtures/vd_errchain" 99999999999999999999
run 1 --color never "$T/g.trc" "$T/b.trc"
has '^  called by `parse_entry` at .*vd_errchain\.c:[0-9]*; stack: main > load_config > read_section > parse_entry > parse_number$' "$T/out"
has '^ *[0-9]* *parse_number(0x[0-9a-f]*, 0x[0-9a-f]*) = -34;  /\* good run: 0 \*/$' "$T/out"
has '^ *[0-9]* *} /\* parse_entry = -34; good run: 0 \*/$' "$T/out"
has '^ *[0-9]* *parse_entry(0x[0-9a-f]*, 0x[0-9a-f]*) {$' "$T/out"
run 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" "
v = d['value_divergence']
assert v['caller'] == 'parse_entry' and v['stack'][-1] == 'parse_entry', v
assert all(e['kind'] == 'exit' for e in d['first_divergence']['before'] if e.get('good_value'))
"
echo ok
