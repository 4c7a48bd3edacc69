#!/bin/sh
# ttdiff_builds.sh - two builds of one program at one path: fixtures/progs/
# ex_regress.c as version A (build/fixtures/ex_regress) and version B
# (ex_regress_b, -DVERSION_B: key_hash() hashes 4 bytes), each copied to
# $T/app in turn and recorded there, so the good run's binary survives only
# as libttcap's copy in the trace folder's .build-id store. ttdiff compares
# the two builds' machine code function by function: key_hash is listed as
# changed, in text and JSON, and nothing else (every other function moved
# to another address and is the same). Two runs of one build compare no
# code; a good build that cannot be found gives a note; a function traced
# in one build only is named as an artifact of the build.
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
# an artifact of the build: clamp8() traced in build A, not in build B
# (no_instrument_function); the runs made the same calls
cat > "$T/art.c" <<'SRC'
#include <stdio.h>
#ifdef NOTRACE
__attribute__((no_instrument_function))
#endif
static __attribute__((noinline)) int clamp8(int x) { return x < 0 ? 0 : x > 8 ? 8 : x; }
static __attribute__((noinline)) int total(int n) { int s = 0; for (int i = -2; i < n; i++) s += clamp8(i); return s; }
int main(void) { printf("%d\n", total(12)); return 0; }
SRC
for v in A B; do
    cc -g -O2 ${SAN:-} $( [ $v = B ] && echo -DNOTRACE) -finstrument-functions -fno-plt \
        -Icapture -o "$T/art" "$T/art.c" -L"$BD" -lttcap -Wl,-rpath,"$BD" || fail "build art $v"
    rec "art$v.trc" "$T/art"
done
diffrun 1 "$T/artA.trc" "$T/artB.trc"
# (total changes too: its callee became a const function for gcc)
has '^changed between the builds: clamp8, total (of [0-9]* functions in both)$' "$T/out"
has '^      total  at .*  (code changed between the builds)$' "$T/out"
has '^note: this looks like an artifact of the build, not of the run: clamp8 is instrumented in one build only' "$T/out"
diffrun 1 --format json "$T/artA.trc" "$T/artB.trc"
json "$T/out" '
assert f["build_artifact"] == "clamp8", f["build_artifact"]
assert d["changed_functions"] == [
    {"function": "clamp8", "module": "art", "status": "changed", "artifact": True},
    {"function": "total", "module": "art", "status": "changed", "artifact": False}], d["changed_functions"]
assert [fr["code_changed"] for fr in f["frames"]] == [False, True], f["frames"]
'
echo ok
