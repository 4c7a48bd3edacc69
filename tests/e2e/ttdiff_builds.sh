#!/bin/sh
# ttdiff_builds.sh - two builds of one program at one path: fixtures/progs/
# ex_regress.c as version A (build/fixtures/ex_regress) and version B
# (ex_regress_b, -DVERSION_B: key_hash() hashes 4 bytes), each copied to
# $T/app in turn and recorded there, so the good run's binary survives only
# as libttcap's copy in the trace folder's .build-id store. ttdiff compares
# the two builds' machine code function by function: key_hash is listed as
# changed, in text and JSON, and nothing else (every other function moved
# to another address and is the same). Two runs of one build compare no
# code; a good build that cannot be found gives a note.
B=${1:-build}
. "$(dirname "$0")/example_lib.inc"
export LD_LIBRARY_PATH="$BD${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"

cp "$F/ex_regress" "$T/app"
rec a.trc "$T/app"
rec a2.trc "$T/app"
cp "$F/ex_regress_b" "$T/app.new" && mv "$T/app.new" "$T/app"
rec b.trc "$T/app"
has '^sum 210, 6 loads for 3 keys' "$T/b.trc.out"
ls "$T"/.build-id/*/* > /dev/null 2>&1 || fail "no .build-id store beside the traces"

diffrun 1 "$T/a.trc" "$T/b.trc"
has '^note: two builds of .*app: build-id' "$T/out"
has '^changed between the builds: key_hash (of [0-9]* functions in both)$' "$T/out"
diffrun 1 --format json "$T/a.trc" "$T/b.trc"
json "$T/out" '
assert d["program"] == "other-build", d["program"]
assert d["code"]["compared"] is True and d["code"]["functions"] >= 8, d["code"]
assert d["code"]["notes"] == [], d["code"]
assert d["changed_functions"] == [{"function": "key_hash", "module": "app",
        "status": "changed", "artifact": False}], d["changed_functions"]
assert [fr["code_changed"] for fr in f["frames"]] == [False, False], f["frames"]
assert f["build_artifact"] is None
'
diffrun 1 --format html "$T/a.trc" "$T/b.trc"
has 'id="tt-changed"' "$T/out"
has '<li><span class="fn">key_hash</span>' "$T/out"

# the same build twice: no code compared, nothing listed
diffrun 0 "$T/a.trc" "$T/a2.trc"
grep -q 'changed between the builds' "$T/out" && fail "one build listed as two"
diffrun 0 --format json "$T/a.trc" "$T/a2.trc"
json "$T/out" 'assert d["code"]["compared"] is False and d["changed_functions"] == [], d["code"]'

# the good build gone from the store too: a note, nothing compared
rm -rf "$T/.build-id"
diffrun 1 "$T/a.trc" "$T/b.trc"
has "^note: .*app: the good run's build (build-id [0-9a-f]*\.\.\.) not found; its code not compared" "$T/out"
grep -q '^changed between the builds' "$T/out" && fail "code compared without the good build"
echo ok
