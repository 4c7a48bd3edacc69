#!/bin/sh
# values_clones.sh - gcc clones in values mode (fixtures/progs/val_clones.c,
# -O2): scale.constprop.0 receives x alone (mode and tag were propagated),
# weigh.isra.0 receives c->scale in rdi instead of the pointer c. Their
# registers are read from the clone's own DWARF: the parameters a clone
# does not receive are shown as "?" and never compared, so the registers
# left over in rsi/rdx are not taken for arguments.
. "$(dirname "$0")/values_lib.inc"

nm "$F/val_clones" | grep -q ' scale\.constprop\.[0-9]' || { echo "SKIP: gcc made no scale.constprop clone"; exit 77; }
nm "$F/val_clones" | grep -q ' weigh\.isra\.[0-9]' || { echo "SKIP: gcc made no weigh.isra clone"; exit 77; }
rec c1.trc "$F/val_clones"
has '^t=20007$' c1.trc.out
ev c1.trc
e=c1.trc.ev
# x = i + argc = 1, 2, 3; mode and tag not received
has '^  > scale\.constprop\.[0-9](1, ?, ?)$' $e
has '^  > scale\.constprop\.[0-9](3, ?, ?)$' $e
has '^  < scale\.constprop\.[0-9] = 11$' $e
# c is not received (rdi holds c->scale, 2); v = i is, in rsi
has '^  > weigh\.isra\.[0-9](?, 0)$' $e
has '^  > weigh\.isra\.[0-9](?, 2)$' $e
count 'weigh\.isra\.[0-9](2' $e 0
# two runs of the same input: no difference at all
rec c2.trc "$F/val_clones"
rc=0; "$BD/ttdiff" --color never "$T/c1.trc" "$T/c2.trc" > d 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat d; fail "two identical runs: ttdiff exit $rc"; }
# another argc: main's argument is the first value that differs
rec c3.trc "$F/val_clones" hello
rc=0; "$BD/ttdiff" --color never --format json "$T/c1.trc" "$T/c3.trc" > j 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat j; fail "argc 1 vs 2: ttdiff exit $rc, want 1"; }
python3 - j <<'PY' || fail "json: the first value difference"
import json, sys
d = json.load(open(sys.argv[1]))
v = d["value_divergence"]
assert (v["function"], v["param"], v["good_value"], v["bad_value"]) == ("main", "argc", "1", "2"), v
PY
echo "ok: clone registers from the clone's own debug info"
