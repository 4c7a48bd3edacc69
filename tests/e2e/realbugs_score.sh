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

# the verdict's cause first, then the suspects without it again; the score
rb_causes "$J" >"$T/causes"
python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
want = [d['verdict']['cause']['function']]
want += [s['function'] for s in d['first_divergence']['suspects'] if s['function'] not in want]
got = open(sys.argv[2]).read().split()
assert got == want, (got, want)
" "$J" "$T/causes" || fail "rb_causes does not list the verdict's cause, then the suspects"
c1=$(sed -n 1p "$T/causes")
set -- $(rb_score "$J" '^process$' "^$c1\$")
[ "$1 $2 $3" = "yes yes yes" ] || fail "rb_score: '$*', want yes yes yes"
[ "$4" = "$(rb_json_field "$J" '.verdict.confidence')" ] || fail "rb_score: confidence '$4'"
set -- $(rb_score "$J" '^nothing$' '^nothing$')
[ "$1 $2 $3" = "no no no" ] || fail "rb_score: '$*', want no no no"
printf 'a\tplain\t10\tyes\tyes\tyes\t-\t-\t0\t1\t1\tdev\tlikely\nb\tplain\t10\tyes\tno\tyes\t-\t-\t0\t1\t1\tdev\tlikely\n' >"$T/res"
rb_table "$T/res" plain | grep -q '^dev plain: divergence 2/2, top-1 1/2, top-3 2/2, likely 2 (right 1: 50%)' ||
    { rb_table "$T/res" plain; fail "rb_table: no calibration line"; }

ev=$(rb_json_field "$J" '.runs.bad.events')
json "$J" "assert d['runs']['bad']['events'] == int('$ev') > 0"

# a code-changed cause named by the inlined function whose source changed
# ("the code of `g` changed (inlined into `f`)"): either name is the cause
printf '%s' '{"verdict": {"confidence": "likely", "cause": {"kind": "code_changed",
  "function": "f", "inlined": "g"}}, "first_divergence": {"stack": ["f"],
  "suspects": [{"function": "f"}, {"function": "h"}]}}' >"$T/inl.json"
for t in '^g$' '^f$'; do
    set -- $(rb_score "$T/inl.json" '^f$' "$t")
    [ "$2 $3" = "yes yes" ] || fail "rb_score with cause.inlined, truth $t: '$*', want top-1"
done
set -- $(rb_score "$T/inl.json" '^f$' '^h$')
[ "$2 $3" = "no yes" ] || fail "rb_score with cause.inlined, truth ^h$: '$*', want top-3 only"
# a truth that is no regex is said, not scored "no" in silence
if rb_match '^(anonymous$' x 2>"$T/rx"; then fail "rb_match: a bad regex matched"; fi
grep -q 'not a grep -E regex' "$T/rx" || fail "rb_match: a bad regex not said"

rb_match '^process$' "$frame" || fail "rb_match: ^process$ on process"
if rb_match '^proc$' "$frame"; then fail "rb_match: ^proc$ matched process"; fi
if rb_match '^process$' ""; then fail "rb_match: matched an empty name"; fi

# no divergence: no frame, no suspects (a case then scores "no")
rec g2.trc "$BD/fixtures/sus_validate" 2
run 0 --format json "$T/g.trc" "$T/g2.trc"
[ -z "$(rb_diverging_frame "$T/out")" ] || fail "a frame without a divergence"
[ -z "$(rb_suspects "$T/out")" ] || fail "suspects without a divergence"
echo "realbugs_score: ok"
