#!/bin/sh
# ttdiff_ordercause.sh - issue 33 item 2: the threads' order as the cause.
# fixtures/progs/order_config.c: main reads a configuration under a lock
# that a loader thread publishes under the same lock; nothing makes main
# wait. With ORDER_CONFIG=race main takes the lock first, finds nothing
# and fails; each thread makes the same calls in both runs up to there and
# no value the calls show differs: only the order on the lock. Plain and
# values builds: the verdict names the order (kind "order", use_config in
# thread app, the loader's load_config in the sentence) in text (first
# 10 lines), HTML (first screen) and JSON; built with -DCFG_WRAPPED too,
# where both threads take the lock through the program's wrapper
# (cfg_mutex_lock): the same verdict, the callers named, not the wrapper
# (a lock takes no decision). Must not: thread order that
# differs between two other threads (the sellers of race_busy, whose
# verdict is the race: ttdiff_checkact.sh) or that the split did not read
# under (tests/unit/test_races.c test_order_cause).
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

command -v gcc > /dev/null || { echo "SKIP: no gcc"; exit 77; }
cp fixtures/progs/order_config.c "$T/prog.c"
for m in plain values wrap-plain wrap-values; do
    flag=""; case "$m" in *values) flag=--values;; esac
    def=""; case "$m" in wrap-*) def=-DCFG_WRAPPED;; esac
    (cd "$T" && "$BD/ttcc" $flag gcc ${SAN:-} -O2 $def -pthread -o "prog-$m" prog.c) \
        || fail "build $m"
    rec "g-$m.trc" "$T/prog-$m"
    ORDER_CONFIG=race rec "b-$m.trc" "$T/prog-$m"
    run 1 --color never "$T/g-$m.trc" "$T/b-$m.trc"
    head -10 "$T/out" > "$T/head10"
    has '^verdict: diverged: possible cause: the threads'"'"' order at `use_config` (thread app)' "$T/head10"
    has '^  cause: `use_config` (thread app) took mutex#1 before `load_config` (thread loader) did in the bad run, after it in the good run' "$T/head10"
    has '^  evidence: thread loader made the same calls in both runs up to the split' "$T/head10"
    has '^  symptom: the calls part in `use_config`' "$T/head10"
    run 1 --format html "$T/g-$m.trc" "$T/b-$m.trc"
    sed -n '1,/<main>/p' "$T/out" > "$T/screen1"
    has 'the threads.* order at `use_config`' "$T/screen1"
    run 1 --format json "$T/g-$m.trc" "$T/b-$m.trc"
    json "$T/out" '
v = d["verdict"]
assert v["cause"]["kind"] == "order" and v["cause"]["function"] == "use_config", v["cause"]
assert v["cause"]["thread"] == "app" and "load_config" in v["cause"]["text"], v["cause"]
assert v["confidence"] == "possible", v
'
done
# the good runs alike: no divergence, no order cause
rec g2.trc "$T/prog-plain"
run 0 --format json "$T/g-plain.trc" "$T/g2.trc"
json "$T/out" 'assert d["verdict"]["cause"] is None, d["verdict"]'
echo ok
