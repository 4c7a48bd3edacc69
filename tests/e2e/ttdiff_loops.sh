#!/bin/sh
# ttdiff --collapse-loops on a recorded loop: 1000 vs 1001 iterations of
# step() show as one count hunk "loop x1000 vs x1001" (JSON: loop counts),
# equal counts give exit 0, and a difference after the loop still aligns.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

rec a.trc "$BD/fixtures/sus_loop" 1000
rec a2.trc "$BD/fixtures/sus_loop" 1000
rec b.trc "$BD/fixtures/sus_loop" 1001
rec c.trc "$BD/fixtures/sus_loop" 3
run 0 --collapse-loops "$T/a.trc" "$T/a2.trc"
run 1 --collapse-loops --color never "$T/a.trc" "$T/b.trc"
has '^first divergence: .* loop x1000 vs x1001$' "$T/out"
has '^  +  *[0-9]*  step() {' "$T/out"
run 1 --collapse-loops --format json "$T/a.trc" "$T/b.trc"
json "$T/out" '
f = d["first_divergence"]
assert f["loop"] == {"good_count": 1000, "bad_count": 1001}, f["loop"]
assert d["hunks_total"] == 1 and d["hunks"][0]["loop"]["bad_count"] == 1001
assert d["hunks"][0]["bad_count"] == 4 and d["hunks"][0]["good_count"] == 0
assert f["bad"][0]["function"] == "step" and d["options"]["collapse_loops"] is True
'
# 1000 vs 3: one count hunk, the 997 extra iterations on the good side
run 1 --collapse-loops --format json "$T/a.trc" "$T/c.trc"
json "$T/out" '
h = d["hunks"]
assert len(h) == 1 and h[0]["loop"] == {"good_count": 1000, "bad_count": 3}, h
assert h[0]["good_count"] == 997 * 4 and h[0]["bad_count"] == 0, h
'
# without the option: no loop counts
run 1 --format json "$T/a.trc" "$T/b.trc"
json "$T/out" 'assert d["first_divergence"]["loop"] is None'
run 1 --collapse-loops --format html "$T/a.trc" "$T/b.trc"
has 'loop &times;1000 vs &times;1001' "$T/out"
echo "ok"
