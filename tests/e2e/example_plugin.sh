#!/bin/sh
# example_plugin.sh - fixtures/progs/ex_plugin.c: the same host dlopen()s
# version 1 or version 2 of a record filter plugin (ex_plugin_v1.so /
# ex_plugin_v2.so, fixtures/examples.mk). v2 drops "gamma=long-value": the
# first divergence lies inside the plugin, and its functions are named.
B=${1:-build}
. "$(dirname "$0")/example_lib.inc"

set -- alpha=1 '# note' beta=22 gamma=long-value delta=4
rec good.trc "$F/ex_plugin" "$F/ex_plugin_v1.so" "$@"
has '^kept 4 of 5' "$T/good.trc.out"
rec good2.trc "$F/ex_plugin" "$F/ex_plugin_v1.so" "$@"
rec bad.trc "$F/ex_plugin" "$F/ex_plugin_v2.so" "$@"
has '^kept 3 of 5' "$T/bad.trc.out"

# the plugin is recorded as a module, its functions by name
"$TTDUMP" "$T/bad.trc" > "$T/dump" || fail "ttdump"
has '^  \[[0-9]*\] base 0x[0-9a-f]* .*fixtures/ex_plugin_v2.so' "$T/dump"
has '^ *+[0-9.]*us *> drop_record$' "$T/dump"

diffrun 0 "$T/good.trc" "$T/good2.trc"
diffrun 1 "$T/good.trc" "$T/bad.trc"
has '^first divergence: thread ex_plugin (good #0, bad #0)' "$T/out"
has '^    main  at .*ex_plugin.c:[0-9]' "$T/out"
has '^      filter_all  at ' "$T/out"
has '^        filter_record  at .*ex_plugin.c:[0-9]' "$T/out"
has '^  -  *[0-9]*    keep_record();' "$T/out"
has '^  +  *[0-9]*    drop_record() {' "$T/out"
has '^  +  *[0-9]*      log drop_record: dropped gamma=long-value (too long)' "$T/out"

diffrun 1 --format json "$T/good.trc" "$T/bad.trc"
json "$T/out" '
assert f["thread"] == {"name": "ex_plugin", "good": 0, "bad": 0}, f["thread"]
assert f["stack"] == ["main", "filter_all", "filter_record"], f["stack"]
assert f["frames"][-1]["file"].endswith("ex_plugin.c") and f["frames"][-1]["line"] > 0
assert (f["good"][0]["kind"], f["good"][0]["function"]) == ("enter", "keep_record")
assert (f["bad"][0]["kind"], f["bad"][0]["function"]) == ("enter", "drop_record")
assert f["bad"][1]["kind"] == "message"
assert f["bad"][1]["text"] == "dropped gamma=long-value (too long)", f["bad"][1]
# three records went through the plugin identically before
assert [e["function"] for e in f["before"]].count("filter_record") >= 1
'
echo ok
