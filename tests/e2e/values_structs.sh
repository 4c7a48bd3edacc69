#!/bin/sh
# values_structs.sh - small structs passed in registers are compared
# between runs, field by field (fixtures/progs/val_structs.c): two runs
# that differ only in a struct argument's field (one INTEGER eightbyte;
# an SSE + INTEGER pair) are told apart, the report shows the fields
# ({x=3, y=2}), in text and JSON; identical runs exit 0 though a struct
# holds a heap pointer (its address differs between runs: compared as
# pointers are) and one has padding after a char.
. "$(dirname "$0")/values_lib.inc"

rec g.trc "$F/val_structs" 1
has '^72$' g.trc.out
ev g.trc
has '^  > place({x=1, y=2}, 0)$' g.trc.ev
has '^  > weight({w=0.25, id=7})$' g.trc.ev
rec b.trc "$F/val_structs" 3
has '^72$' b.trc.out
rc=0; "$BD/ttdiff" g.trc b.trc > d.txt 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat d.txt; fail "ttdiff pair: exit $rc"; }
has '^first divergence: `place` was called with argument 1 (p) = {x=3, y=2} in the bad run, {x=1, y=2} in the good run$' d.txt
has '`weight` was called with argument 1 (v) = {w=0.75, id=7} in the bad run, {w=0.25, id=7} in the good run' d.txt
"$BD/ttdiff" --format json g.trc b.trc > d.json 2> /dev/null || true
python3 - d.json <<'PY' || fail "JSON value_divergence"
import json, sys
v = json.load(open(sys.argv[1]))["value_divergence"]
assert v["bad_value"] == "{x=3, y=2}" and v["good_value"] == "{x=1, y=2}", v
assert v["param"] == "p", v
PY
for i in 1 2 3; do
    rec s$i.trc "$F/val_structs" 1
    "$BD/ttdiff" g.trc s$i.trc > s$i.txt 2>&1 || { cat s$i.txt; fail "identical runs ($i) differ"; }
done
echo "ok: small structs compared field by field; identical runs exit 0"
