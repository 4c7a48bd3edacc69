#!/bin/sh
# ttdiff_source.sh - two builds from two source trees (a regression):
# fixtures/progs/src_change.c as is, and with its helper step() changed.
# step is inlined into check, so the machine code of both changed; the
# source of step only. ttdiff reads each build's source back (the debug
# info says where each function is defined) and ranks step, whose source
# changed, above check, which only carries the change; with the good
# tree's source gone it cannot tell, and both weigh as code changed
# (check, nearer the split, first again). A source edit that leaves the
# tokens alone (a comment, re-indenting) is no source change.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

command -v gcc > /dev/null || { echo "SKIP: no gcc"; exit 77; }
S=fixtures/progs/src_change.c
mkdir -p "$T/a" "$T/b"
cp "$S" "$T/a/prog.c"
sed 's/return h \* 31u + c;/return h * 33u + c;/' "$S" > "$T/b/prog.c"
cmp -s "$T/a/prog.c" "$T/b/prog.c" && fail "the sed did not change step()"
# ${SAN:-}: an ASan build of libttcap needs an ASan program (make asan)
for d in a b; do (cd "$T/$d" && "$BD/ttcc" gcc -O2 ${SAN:-} -o prog prog.c) || fail "build $d"; done
rec a.trc "$T/a/prog"
rec b.trc "$T/b/prog"

run 1 --color never "$T/a.trc" "$T/b.trc"
has '^changed between the builds: check, step ' "$T/out"
has '^  1\. step  at .*(score [0-9.]*: its source and machine code differ between the two builds' "$T/out"
has '^  [23]\. check  at .*its machine code differs between the two builds, its source does not' "$T/out"
run 1 --format json "$T/a.trc" "$T/b.trc"
json "$T/out" '
v = d["verdict"]
assert v["cause"]["function"] == "step" and v["cause"]["kind"] == "code_changed", v["cause"]
s = [x["function"] for x in d["first_divergence"]["suspects"]]
assert s.index("step") < s.index("check"), s
'
# the good tree's source is gone: no source read, no source told
rm "$T/a/prog.c"
run 1 --format json "$T/a.trc" "$T/b.trc"
json "$T/out" '
s = d["first_divergence"]["suspects"]
assert all("source" not in e["text"] for x in s for e in x["evidence"]), s
assert [x["function"] for x in s][0] == "check", [x["function"] for x in s]
'
# comments and white space edited in check (a token changed would make
# its source change too, and check, nearer the split, rank first)
sed 's|^    unsigned h = 7;|    unsigned h=7; /* the seed */|; s|^        h = step(h, (unsigned char)\*s);|\t\th = step (h,(unsigned char) *s); // mix|' \
    "$S" > "$T/a/prog.c"
grep -q 'the seed' "$T/a/prog.c" && grep -q '// mix' "$T/a/prog.c" || fail "the sed did not edit check()"
run 1 --format json "$T/a.trc" "$T/b.trc"
json "$T/out" '
s = [x["function"] for x in d["first_divergence"]["suspects"]]
assert s.index("step") < s.index("check"), s
'
echo ok
