#!/bin/sh
# trees_debian.sh - process trees on a real Debian package's own test suite
# (issue 34): jq 1.6's tests tests/shtest, utf8test and base64test (shtest
# alone starts a few hundred processes: jq, dd, tail, egrep, diff, cmp,
# mktemp ...) run by a small harness, with jq built by ttcc as the realbugs
# jq cases build it (no configure: jqtest and optionaltest need oniguruma
# and configure's HAVE_* and fail in that build, so they are left out). A one-line patch makes one test fail: `halt` (builtin.c f_halt)
# gives exit code 1 instead of none, so shtest's "jq -n halt" check fails.
# The script records two passing runs and one failing run with
# `ttrec -o DIR/`, checks that ttdiff names the failing test's process and
# its first divergence and that the two passing runs give exit 0, and
# measures processes, events, disk, recording overhead and ttdiff time.
# A benchmark like `make realbugs` (it fetches and builds a package), not
# part of `make test`: sh tests/trees_debian.sh [BUILD]; run it under the
# shared lock for the timings.
#
# Made deterministic as the realbugs jq cases are (tests/realbugs/pkgs/jq.sh):
# debian/patches/CVE-2026-40164.patch (an object hash seeded from
# /dev/urandom) is reversed, and shtest's parser fuzzing on /dev/urandom
# input is left out (its input differs from run to run by design).
set -u
B=$(cd "${1:-build}" && pwd) || exit 1
CACHE=${TT_REALBUGS_CACHE:-$HOME/.cache/tt-realbugs}/src
W=$B/trees-debian
fail=0
say() { echo "trees_debian: $*"; }
die() { say "$*"; exit 2; }

# ---- the source ------------------------------------------------------------
if ! ls -d "$CACHE"/jq/jq-1.6 > /dev/null 2>&1; then
    mkdir -p "$CACHE/jq" && (cd "$CACHE/jq" && apt-get source jq > fetch.log 2>&1) ||
        die "cannot fetch jq's source (apt-get source jq; deb-src needed)"
fi
rm -rf "$W"
mkdir -p "$W"
for v in ok ko; do
    cp -r "$CACHE/jq/jq-1.6" "$W/$v" || die "copy"
    (cd "$W/$v" &&
     patch -p1 -R -s -f < debian/patches/CVE-2026-40164.patch &&
     sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$/\\n"/' \
         src/builtin.jq > src/builtin.inc &&
     echo '#define JQ_VERSION "1.6"' > src/version.h &&
     sed -i 's|^if dd if=/dev/urandom bs=16 count=1024 > $d/rand 2>/dev/null; then|if false; then|' \
         tests/shtest) || die "prepare $v"
done
# the bug: halt gives exit code 1 (one line)
sed -i '/^static jv f_halt(/,/^}/s/jq_halt(jq, jv_invalid(), jv_invalid());/jq_halt(jq, jv_number(1), jv_invalid());/' \
    "$W/ko/src/builtin.c"
cmp -s "$W/ok/src/builtin.c" "$W/ko/src/builtin.c" && die "the patch did not apply"

# ---- the build (ttcc: -finstrument-functions, libttcap linked) ---------------
SRCS="main builtin bytecode compile execute jq_test jv jv_alloc jv_aux jv_dtoa jv_file \
jv_parse jv_print jv_unicode linker locfile util parser lexer"
for v in ok ko; do
    (cd "$W/$v" &&
     for f in $SRCS; do echo "src/$f.c"; done |
         xargs -P 2 -I{} sh -c '"$0/ttcc" gcc -g -O2 -I. -Isrc -DIEEE_8087 \
             -DHAVE_ALLOCA_H -DHAVE_MKSTEMP -c -o "$(basename {} .c).o" {}' "$B" &&
     "$B/ttcc" gcc -o jq ./*.o -lm -lpthread) > "$W/build-$v.log" 2>&1 ||
        die "build $v failed (see $W/build-$v.log)"
done

# ---- the suite's harness ----------------------------------------------------
cat > "$W/check.sh" <<'EOF'
#!/bin/sh
# check.sh V - jq's tests of tree V (ok or ko), as make check runs them
cd "$(dirname "$0")/$1" || exit 2
export NO_VALGRIND=1
failed=0
for t in shtest utf8test base64test; do
    if sh "tests/$t" > "../$1-$t.log" 2>&1; then
        echo "PASS: $t"
    else
        echo "FAIL: $t"
        failed=$((failed + 1))
    fi
done
exit $((failed > 0))
EOF

ms() { date +%s%3N; }   # mawk's printf %d overflows on nanoseconds
run_untraced() { sh "$W/check.sh" ok > /dev/null 2>&1; }
t0=$(ms); run_untraced || die "the untraced suite fails on the good build"; t1=$(ms)
untraced=$((t1 - t0))
t0=$(ms); "$B/ttrec" -q -o "$W/good1/" -- sh "$W/check.sh" ok > "$W/good1.out" 2>&1; rg=$?; t1=$(ms)
traced=$((t1 - t0))
"$B/ttrec" -q -o "$W/good2/" -- sh "$W/check.sh" ok > "$W/good2.out" 2>&1
"$B/ttrec" -q -o "$W/bad/" -- sh "$W/check.sh" ko > "$W/bad.out" 2>&1; rb=$?
[ $rg = 0 ] || { say "FAIL: the good recorded run exits $rg"; fail=1; }
[ $rb = 1 ] || { say "FAIL: the bad recorded run exits $rb, want 1"; fail=1; }
grep -q 'FAIL: shtest' "$W/bad.out" || { say "FAIL: shtest did not fail in the bad run"; fail=1; }

# ---- the comparisons ----------------------------------------------------------
t0=$(ms); "$B/ttdiff" "$W/good1" "$W/good2" > "$W/same.txt" 2>&1; rs=$?; t1=$(ms)
same_ms=$((t1 - t0))
rm -rf "$W/good2"               # disk: each run's traces take about 9 GB
[ $rs = 0 ] || { say "FAIL: two passing runs: ttdiff exit $rs"; sed -n 1,20p "$W/same.txt"; fail=1; }
t0=$(ms); "$B/ttdiff" "$W/good1" "$W/bad" > "$W/bad.txt" 2>&1; rd=$?; t1=$(ms)
bad_ms=$((t1 - t0))
[ $rd = 1 ] || { say "FAIL: good vs bad: ttdiff exit $rd"; fail=1; }
grep -q '^first diverging process: dash .*check.* ko > dash tests/shtest > jq -n halt' "$W/bad.txt" ||
    { say "FAIL: the failing test's process is not named"; grep -m1 '^first diverging' "$W/bad.txt"; fail=1; }
grep -q 'f_halt' "$W/bad.txt" ||
    { say "FAIL: the first divergence is not in f_halt"; fail=1; }
"$B/ttdiff" --format json -o "$W/bad.json" "$W/good1" "$W/bad" 2> /dev/null

# ---- the figures ----------------------------------------------------------------
procs=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['processes']))" "$W/bad.json")
traces=$(ls "$W/good1"/*.trc | wc -l)
events=$(python3 -c "import json,sys; print(sum(p['good']['events'] for p in json.load(open(sys.argv[1]))['processes'] if p['good']))" "$W/bad.json")
disk=$(du -sk "$W/good1" | cut -f1)
disk_traces=$(du -ck "$W/good1"/*.trc | tail -1 | cut -f1)
say "first diverging process: $(grep -m1 '^first diverging' "$W/bad.txt" | sed 's/^first diverging process: //')"
say "first divergence: $(grep -m1 '^first divergence' "$W/bad.txt")"
say "figures (load: $(uptime | sed 's/.*load average: //'))"
say "  processes in the tree (paired entries): $procs; traced: $traces traces"
say "  events: $events (all traces of one passing run)"
say "  disk: $disk KiB for the folder ($disk_traces KiB of traces, the rest the build-id store)"
say "  process table: $(python3 - "$W/good1/processes.ttp" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
off, kinds = 0, {}
while off + 16 <= len(b):
    k, n = struct.unpack_from("<H", b, off + 4)[0], struct.unpack_from("<I", b, off + 8)[0]
    kinds[k] = kinds.get(k, 0) + 1
    off += 16 + n
print("%d bytes, %d START, %d END, %d ENV (environments), %d REAP rows"
      % (len(b), kinds.get(1, 0), kinds.get(2, 0), kinds.get(3, 0), kinds.get(4, 0)))
PY
)"
say "  suite: untraced $untraced ms, recorded $traced ms ($(awk "BEGIN { printf \"%.2f\", $traced / $untraced }")x)"
say "  ttdiff: two passing runs $same_ms ms (exit $rs), good vs bad $bad_ms ms (exit $rd)"
# the traces are large (jq compiles its builtins at every start: about 13
# million events, 27 MB, per jq process): only the reports are kept
[ -n "${TT_TREES_KEEP-}" ] || rm -rf "$W/good1" "$W/good2" "$W/bad" "$W/ok" "$W/ko"
exit $fail
