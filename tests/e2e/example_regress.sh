#!/bin/sh
# example_regress.sh - fixtures/progs/ex_regress.c built twice: version A
# (build/fixtures/ex_regress) and version B (ex_regress_b, -DVERSION_B) where
# key_hash() changed. The functions sit at other addresses in B, so the runs
# line up by name; the first divergence is B's cache miss in lookup().
B=${1:-build}
. "$(dirname "$0")/example_lib.inc"

# the two builds really differ in layout: alignment by address would fail
addr() { nm "$1" | awk -v f="$2" '$3 == f { print $1 }'; }
a=$(addr "$F/ex_regress" lookup); b=$(addr "$F/ex_regress_b" lookup)
[ -n "$a" ] && [ -n "$b" ] || fail "no lookup symbol in the two builds"
[ "$a" != "$b" ] || fail "lookup at the same address in A and B ($a): not a useful test"

rec a.trc "$F/ex_regress"
has '^sum 210, 3 loads for 3 keys' "$T/a.trc.out"
rec a2.trc "$F/ex_regress"
rec b.trc "$F/ex_regress_b"
has '^sum 210, 6 loads for 3 keys' "$T/b.trc.out"

diffrun 0 "$T/a.trc" "$T/a2.trc"
diffrun 1 "$T/a.trc" "$T/b.trc"
has '^first divergence: thread ex_regress_b (good #0, bad #0)' "$T/out"
has '^    main  at .*ex_regress.c:[0-9]' "$T/out"
has '^      lookup  at .*ex_regress.c:[0-9]' "$T/out"
has '^ *[0-9]*    key_hash();' "$T/out"
has '^  +  *[0-9]*  load_record() {' "$T/out"
has '^  +  *[0-9]*    log load_record: loading user1' "$T/out"
has '^  #0 ex_regress  *#0 ex_regress_b  *main ' "$T/out"

diffrun 1 --format json "$T/a.trc" "$T/b.trc"
json "$T/out" '
assert f["thread"]["good"] == 0 and f["thread"]["bad"] == 0, f["thread"]
assert f["stack"] == ["main", "lookup"], f["stack"]
assert f["good"] == [], f["good"]
assert (f["bad"][0]["kind"], f["bad"][0]["function"]) == ("enter", "load_record")
assert f["bad"][1]["text"] == "loading user1", f["bad"][1]
assert f["before"][-1]["function"] == "cache_get" and f["before"][-1]["kind"] == "exit"
# the first pass (3 misses, 3 loads) is common to both builds
assert f["good_index"] == f["bad_index"] > 40, (f["good_index"], f["bad_index"])
assert len(d["threads"]) == 1 and d["threads"][0]["paired_by"] == "main"
assert d["threads"][0]["good"]["name"] == "ex_regress"
assert d["threads"][0]["bad"]["name"] == "ex_regress_b"
assert d["unpaired"] == []
# in B every key of the second pass misses: one load_record hunk per key
loads = [h for h in d["hunks"] if h["bad_first"] and h["bad_first"]["function"] == "load_record"]
assert len(loads) == d["hunks_total"] == 3, d["hunks"]
'
echo ok
