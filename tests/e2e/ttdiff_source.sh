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
# a sanitizer build's libttcap needs the sanitizer runtime in the program
for d in a b; do (cd "$T/$d" && "$BD/ttcc" gcc ${SAN:-} -O2 -o prog prog.c) || fail "build $d"; done
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

# one source changed out of the chain's sight (fixtures/progs/src_store.c):
# mix() is inlined into save(), which a writer thread runs before the main
# thread's verify() branches on the stored checksum; the split is all the
# evidence there is, so the changed source, mix, is the verdict's cause
# (save's code only carries it), in the three formats. Must not: save's
# own source edited too (two sources changed): the branch in verify.
S=fixtures/progs/src_store.c
mkdir -p "$T/sa" "$T/sb" "$T/sc"
cp "$S" "$T/sa/prog.c"
sed 's/return h \* 31u + c;/return h * 33u + c;/' "$S" > "$T/sb/prog.c"
sed 's/return h \* 31u + c;/return h * 33u + c;/; 0,/^    unsigned h = 7;$/s//    unsigned h = 9;/' \
    "$S" > "$T/sc/prog.c"
cmp -s "$T/sa/prog.c" "$T/sb/prog.c" && fail "the sed did not change mix()"
[ "$(grep -c 'unsigned h = 9;' "$T/sc/prog.c")" = 1 ] || fail "the sed did not change save()"
for d in sa sb sc; do
    (cd "$T/$d" && "$BD/ttcc" gcc ${SAN:-} -O2 -pthread -o prog prog.c) || fail "build $d"
    rec "$d.trc" "$T/$d/prog"
done
run 1 --color never "$T/sa.trc" "$T/sb.trc"
head -10 "$T/out" > "$T/head10"
has '^verdict: diverged: possible cause: the code of `mix` changed' "$T/head10"
has "^  cause: \`mix\`'s source and machine code differ between the two builds, the only source that does" "$T/head10"
has '^  symptom: the calls part in `verify`' "$T/head10"
run 1 --format html "$T/sa.trc" "$T/sb.trc"
sed -n '1,/<main>/p' "$T/out" > "$T/screen1"
has '<strong>Verdict:</strong> diverged: possible cause: the code of `mix` changed' "$T/screen1"
run 1 --format json "$T/sa.trc" "$T/sb.trc"
json "$T/out" '
v = d["verdict"]
assert v["cause"]["function"] == "mix" and v["cause"]["kind"] == "code_changed", v["cause"]
assert v["confidence"] == "possible", v
assert v["symptom"]["function"] == "verify", v["symptom"]
'
run 1 --format json "$T/sa.trc" "$T/sc.trc"
json "$T/out" '
v = d["verdict"]
assert v["cause"]["function"] == "verify" and v["cause"]["kind"] == "split", v["cause"]
'
echo ok
