#!/bin/sh
# ttdiff_atomic.sh - issue 33: an atomicity violation behind the threads'
# order. fixtures/progs/get_create.c: a get-or-create helper
# (get_or_create) looks an entry up under the registry's lock
# (registry_find) and, finding nothing, makes one and adds it under the
# same lock (registry_add); with GET_CREATE=race the second thread looks
# while the first is between its two sections, both make an entry and the
# second's add is refused. The order on the lock differs at the second
# thread's look, which went ahead of the first's add; behind it, that look
# fell between the first thread's two sections of one call of
# get_or_create, and was made inside a call of get_or_create too: the
# verdict names get_or_create (kind "race", "possible"), not registry_find
# (the order alone), in text (first 10 lines), HTML (first screen) and
# JSON, plain and values builds. Must not: an order cause where the other
# thread took the lock once (order_config, ttdiff_ordercause.sh) or twice
# in one function (tests/unit/test_races.c test_atomicity).
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

command -v gcc > /dev/null || { echo "SKIP: no gcc"; exit 77; }
cp fixtures/progs/get_create.c "$T/prog.c"
for m in plain values; do
    flag=""; [ "$m" = values ] && flag=--values
    (cd "$T" && "$BD/ttcc" $flag gcc ${SAN:-} -O2 -pthread -o "prog-$m" prog.c) \
        || fail "build $m"
    rec "g-$m.trc" "$T/prog-$m"
    GET_CREATE=race rec "b-$m.trc" "$T/prog-$m"
    run 1 --color never "$T/g-$m.trc" "$T/b-$m.trc"
    head -10 "$T/out" > "$T/head10"
    has '^verdict: diverged: possible cause: a race in `get_or_create` (thread #1 ' "$T/head10"
    has '^  cause: thread #1 [^ ]* took mutex#1 in `registry_find` ([0-9.]* ms) and again in `registry_add` ([0-9.]* ms), in one call of `get_or_create`; thread #2 [^ ]* took it in between' "$T/head10"
    has '^  evidence: thread #2 [^ ]* took mutex#1 in `registry_find`, inside a call of `get_or_create` of its own' "$T/head10"
    has '^  evidence: in the good run both sections of thread #1 ' "$T/head10"
    has '^  symptom: the calls part in `get_or_create`: only the bad run calls `make_entry`' "$T/head10"
    run 1 --format html "$T/g-$m.trc" "$T/b-$m.trc"
    sed -n '1,/<main>/p' "$T/out" > "$T/screen1"
    has 'a race in `get_or_create`' "$T/screen1"
    run 1 --format json "$T/g-$m.trc" "$T/b-$m.trc"
    json "$T/out" '
v = d["verdict"]
assert v["cause"]["kind"] == "race" and v["cause"]["function"] == "get_or_create", v["cause"]
assert "registry_add" in v["cause"]["text"] and "atomicity" in v["cause"]["text"], v["cause"]
assert v["confidence"] == "possible", v
'
done
# the good runs alike: no divergence, no cause
rec g2.trc "$T/prog-plain"
run 0 --format json "$T/g-plain.trc" "$T/g2.trc"
json "$T/out" 'assert d["verdict"]["cause"] is None, d["verdict"]'
echo ok
