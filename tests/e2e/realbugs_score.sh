#!/bin/sh
# make realbugs reads ttdiff's JSON report through tests/realbugs/lib.sh
# (rb_diverging_frame, rb_suspects, rb_json_field, rb_match). This checks
# those readers against a real report of a recorded fixture, so a change of
# the JSON shape that would leave the benchmark scoring nothing (every
# case "no") fails here, in make test, instead of silently. It checks what
# the readers return against the document itself, not tt's ranking.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"
command -v jq >/dev/null 2>&1 || { echo "SKIP: no jq"; exit 77; }
. tests/realbugs/lib.sh

# sus_validate: validate_order says no, process() splits (ttdiff_suspects.sh)
rec g.trc "$BD/fixtures/sus_validate" 2
rec b.trc "$BD/fixtures/sus_validate" 0
run 1 --format json "$T/g.trc" "$T/b.trc"
J=$T/out

frame=$(rb_diverging_frame "$J")
[ "$frame" = process ] || fail "rb_diverging_frame: '$frame', want process"
json "$J" "assert d['first_divergence']['stack'][-1] == '$frame'"

rb_suspects "$J" >"$T/sus"
[ -s "$T/sus" ] || fail "rb_suspects: no suspects read"
python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
want = [s['function'] for s in d['first_divergence']['suspects']]
got = open(sys.argv[2]).read().split()
assert got == want, (got, want)
assert 'validate_order' in got and 'process' in got, got
" "$J" "$T/sus" || fail "rb_suspects does not list the report's suspects"

ev=$(rb_json_field "$J" '.runs.bad.events')
json "$J" "assert d['runs']['bad']['events'] == int('$ev') > 0"

rb_match '^process$' "$frame" || fail "rb_match: ^process$ on process"
if rb_match '^proc$' "$frame"; then fail "rb_match: ^proc$ matched process"; fi
if rb_match '^process$' ""; then fail "rb_match: matched an empty name"; fi

# no divergence: no frame, no suspects (a case then scores "no")
rec g2.trc "$BD/fixtures/sus_validate" 2
run 0 --format json "$T/g.trc" "$T/g2.trc"
[ -z "$(rb_diverging_frame "$T/out")" ] || fail "a frame without a divergence"
[ -z "$(rb_suspects "$T/out")" ] || fail "suspects without a divergence"
echo "realbugs_score: ok"
