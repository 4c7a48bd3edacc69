#!/bin/sh
# ttdiff_ordergetter.sh - issue 33 item 2 in values mode: the threads'
# order as the cause when the split's branch tests what a getter returned
# under the lock. fixtures/progs/order_getter.c: main reads a configuration
# through config_port() under the lock a loader thread publishes under;
# nothing makes main wait. With ORDER_GETTER=race main takes the lock
# first, config_port returns -1 (8080 in the good run) and main fails.
# Built with ttcc --values, the first difference is that value, and the
# verdict still names the order (kind "order", read_locked in thread app,
# the loader's load_config in the sentence) with the getter's answer as
# its first evidence, in text (first 10 lines), HTML (first screen) and
# JSON. Must not: with ORDER_GETTER_OUTSIDE=1 main calls the getter after
# its unlock: its value stays the cause (config_port). Two good runs: no
# cause.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

command -v gcc > /dev/null || { echo "SKIP: no gcc"; exit 77; }
cp fixtures/progs/order_getter.c "$T/prog.c"
(cd "$T" && "$BD/ttcc" --values gcc ${SAN:-} -O2 -pthread -o prog prog.c) || fail "build"
rec g.trc "$T/prog"
ORDER_GETTER=race rec b.trc "$T/prog"
ev='`config_port`, called under mutex#1 in both runs, returned -1 in the bad run, 8080 in the good run: it read what the other thread had or had not left there yet'
run 1 --color never "$T/g.trc" "$T/b.trc"
head -10 "$T/out" > "$T/head10"
has '^verdict: diverged: possible cause: the threads'"'"' order at `read_locked` (thread app)' "$T/head10"
has '^  cause: `read_locked` (thread app) took mutex#1 before `load_config` (thread loader) did in the bad run, after it in the good run' "$T/head10"
grep -qF "  evidence: $ev" "$T/head10" || { cat "$T/head10"; fail "no getter evidence"; }
run 1 --format html "$T/g.trc" "$T/b.trc"
sed -n '1,/<main>/p' "$T/out" > "$T/screen1"
has 'the threads.* order at `read_locked`' "$T/screen1"
has 'called under mutex#1 in both runs, returned -1 in the bad run' "$T/screen1"
run 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" '
v = d["verdict"]
assert v["cause"]["kind"] == "order" and v["cause"]["function"] == "read_locked", v["cause"]
assert v["cause"]["thread"] == "app" and "load_config" in v["cause"]["text"], v["cause"]
assert v["evidence"][0].startswith("`config_port`, called under mutex#1"), v["evidence"]
assert v["confidence"] == "possible", v
'
# must not: the getter read after the unlock
ORDER_GETTER_OUTSIDE=1 rec go.trc "$T/prog"
ORDER_GETTER_OUTSIDE=1 ORDER_GETTER=race rec bo.trc "$T/prog"
run 1 --format json "$T/go.trc" "$T/bo.trc"
json "$T/out" '
v = d["verdict"]
assert v["cause"]["kind"] != "order" and v["cause"]["function"] == "config_port", v["cause"]
'
# the good runs alike: no divergence, no cause
rec g2.trc "$T/prog"
run 0 --format json "$T/g.trc" "$T/g2.trc"
json "$T/out" 'assert d["verdict"]["cause"] is None, d["verdict"]'
echo ok
