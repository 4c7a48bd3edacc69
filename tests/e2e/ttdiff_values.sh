#!/bin/sh
# ttdiff with call values (libttcap's -pg -mfentry mode) on the
# fixtures/values/ programs: for each, the value divergence is named with
# both values (text and JSON) and the function where the bad value began
# is suspect #1; --no-values gives the report without values; a
# --baseline run whose values vary marks them as noise.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

[ "$(uname -m)" = x86_64 ] || { echo "SKIP: values mode is x86-64 only"; exit 77; }
[ -x "$BD/fixtures/vd_lookup" ] || fail "$BD/fixtures/vd_lookup not built (make fixtures)"

# vcase FIXTURE GOOD BAD VALUE-LINE JSON-VALUE SUSPECT1
#   VALUE-LINE  regex after "first divergence: " in the text report
#   JSON-VALUE  python: asserts on v = d['value_divergence']
vcase() {
    rm -f "$T"/*.trc
    rec g.trc "$BD/fixtures/$1" "$2"
    rec b.trc "$BD/fixtures/$1" "$3"
    run 1 --color never "$T/g.trc" "$T/b.trc"
    has "^values: [0-9]* compared" "$T/out"
    has "^first divergence: $4" "$T/out"
    re6=$(printf '%s' "$6" | sed 's/[*.[]/\\&/g')
    has "^  1\. $re6  at .*$1\.c[p]*:[0-9]*  (score [0-9.]*: .*in the good run" "$T/out"
    has "^cause chain (earliest first):" "$T/out"
    run 1 --format json "$T/g.trc" "$T/b.trc"
    json "$T/out" "
v = d['value_divergence']
assert d['values']['compared'] and d['diverged'], d['values']
assert v is not None and v['good_value'] != v['bad_value'], v
$5
s = d['first_divergence']['suspects'][0]
assert s['function'] == '$6' and s['value_differs'], s
assert s['good_value'] and s['bad_value'] and s['good_value'] != s['bad_value'], s
"
}

vcase vd_lookup "add 5" "ad 5" \
    '`find_command` returned NULL in the bad run, &table[+0-9]* (0x[0-9a-f]*) in the good run' \
    "assert v['function'] == 'find_command' and v['what'] == 'return' and v['class'] == 'pointer'
assert v['bad_value'] == 'NULL' and v['good_value'].startswith('&table') and v['before_split']" \
    find_command
vcase vd_status 2 3 \
    '`read_u32` returned 3 in the bad run, 2 in the good run' \
    "assert v['function'] == 'read_u32' and (v['good_value'], v['bad_value']) == ('2', '3')" \
    check_header
vcase vd_errchain 30 99999999999999999999 \
    '`parse_number` returned -34 in the bad run, 0 in the good run' \
    "assert v['function'] == 'parse_number' and v['type'] == 'int' and v['bad_raw'] == '0xffffffde'" \
    parse_number
vcase vd_longjmp '1+2*3' '1+2*%' \
    '`next_token` returned TOK_BAD (4) in the bad run, TOK_NUM (1) in the good run' \
    "assert v['function'] == 'next_token' and v['class'] == 'enum'" \
    next_token
# the main thread's argument differs first in time, but nothing links it to
# the worker's split but memory: the headline is the worker's answer, the
# argument is listed under it
vcase vd_threads 30 300 \
    '`validate_job` returned -1 in the bad run, 0 in the good run' \
    "assert v['function'] == 'validate_job' and v['what'] == 'return'
o = d['value_others']
assert o and o[0]['what'] == 'argument' and o[0]['param'] == 'last' and o[0]['arg'] == 0, o" \
    validate_job
json "$T/out" "assert d['first_divergence']['thread']['bad'] == 1, d['first_divergence']['thread']"
if [ -x "$BD/fixtures/vd_cxx" ]; then
    vcase vd_cxx km kms \
        '`Units::find(char const\*) const` returned NULL in the bad run, 0x[0-9a-f]* (non-NULL) in the good run' \
        "assert v['function'].startswith('Units::find') and v['bad_value'] == 'NULL'" \
        'Units::find(char const*) const'
fi

# the aligners agree on values: the call-tree one (default), --flat and
# --first-only name the same value divergence and suspect #1
for args in "vd_errchain 30 99999999999999999999" "vd_threads 30 300" "vd_status 2 3"; do
    set -- $args
    rm -f "$T"/*.trc
    rec g.trc "$BD/fixtures/$1" "$2"
    rec b.trc "$BD/fixtures/$1" "$3"
    for mode in "" --flat --first-only; do
        run 1 --format json $mode "$T/g.trc" "$T/b.trc"
        mv "$T/out" "$T/v$mode.json"
    done
    for mode in --flat --first-only; do
        python3 -c "
import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:3])
va, vb = a['value_divergence'], b['value_divergence']
keys = ('function', 'what', 'arg', 'good_value', 'bad_value', 'before_split')
assert va and vb and all(va[k] == vb[k] for k in keys), (va, vb)
sa, sb = (x['first_divergence']['suspects'][0]['function'] for x in (a, b))
assert sa == sb, (sa, sb)
" "$T/v.json" "$T/v$mode.json" || fail "$1: tree and $mode disagree on values"
    done
done

# values in the context lines, the stack and the hunk
rm -f "$T"/*.trc
rec g.trc "$BD/fixtures/vd_errchain" 30
rec b.trc "$BD/fixtures/vd_errchain" 99999999999999999999
run 1 --color never "$T/g.trc" "$T/b.trc"
has '^ *[0-9]* *parse_number(0x[0-9a-f]*, 0x[0-9a-f]*) = -34;' "$T/out"
has '^ *read_section(0x[0-9a-f]*, 3, 0x[0-9a-f]*)  at ' "$T/out"
has '^then the call sequences part: thread vd_errchain' "$T/out"
# the error code's origin before the callers that pass it on
has '^  2\. parse_entry  at .*(score [0-9.]*: returned -34 in the bad run, 0 in the good run; on the cause chain' "$T/out"
has '^  2\. because of 1 (the same value): `parse_entry` returned -34' "$T/out"
# HTML shows the same
run 1 --format html "$T/g.trc" "$T/b.trc"
has '<section class="first" id="value">' "$T/out"
has '<p id="tt-value"><code><span class="fn">parse_number</span></code> returned <b class="val">-34</b>' "$T/out"

# --no-values: as without values (no value divergence, the plain
# ranking): the answer parse_number's int made, which parse_entry (an int)
# passed up returning right after it, comes first (answer_used), the
# diverging frame next
run 1 --no-values --color never "$T/g.trc" "$T/b.trc"
has '^values: turned off (--no-values)' "$T/out"
has '^first divergence: thread vd_errchain' "$T/out"
has '^  1\. parse_number  at .*(score [0-9.]*: its answer (int) went up through `parse_entry`, each returning right after it, to `read_section`' "$T/out"
has '^  2\. read_section  at .*(score 3.0: the diverging frame: its calls differ here)$' "$T/out"
has '^  3\. parse_entry  at .*(score 1.0: returned right before the split)$' "$T/out"
has '^  it starts at 1: values not recorded' "$T/out"
run 1 --no-values --format json "$T/g.trc" "$T/b.trc"
json "$T/out" "assert d['value_divergence'] is None and not d['values']['compared'] and d['options']['no_values']"

# a -finstrument-functions trace against a values trace: said once, no values
rec p.trc "$BD/fixtures/sus_lookup" bob
rec q.trc "$BD/fixtures/pg/sus_lookup" zed
run 1 --color never "$T/p.trc" "$T/q.trc"
has '^values: the good run has none (built without -pg -mfentry)' "$T/out"

# --baseline: a value that differs between good runs is noise. vd_status
# with version 1 and 2 both decode: read_u32's result varies between good
# runs, so the first value divergence becomes check_header's -22.
rm -f "$T"/*.trc
rec g.trc "$BD/fixtures/vd_status" 2
rec g2.trc "$BD/fixtures/vd_status" 1
rec b.trc "$BD/fixtures/vd_status" 3
run 1 --baseline "$T/g2.trc" --format json "$T/g.trc" "$T/b.trc"
json "$T/out" "
v = d['value_divergence']
assert d['values']['noise'] >= 1, d['values']
assert v['function'] == 'check_header', v
"
echo "ok"
