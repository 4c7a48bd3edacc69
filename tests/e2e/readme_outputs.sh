#!/bin/sh
# readme_outputs.sh - the example outputs of README.md and of the documents
# it links to (readme_check.py --list: capture/INSTRUMENT.md,
# report/READING.md ...) are what the tools print (issue 23 part 6, issue
# 36): `make demo`'s block (fixtures/demo.sh, as make demo runs it; README
# abridged, report/READING.md whole), the values example (`ttdiff
# vgood.trc vbad.trc` on fixtures/values/vd_errchain), `ttdump bad.trc` and
# `ttdump --profile good.trc` of the parser example, the inlined-helper
# example (`ttdiff igood.trc ibad.trc` on fixtures/inline/inl_parse.c in
# values mode), compared by tests/e2e/readme_check.py with times, pids,
# addresses and paths masked, in whichever document holds them; and no
# output block of any of those documents is left unchecked. The demo is a race: its thread numbers and the length
# of its thread-order lists vary (masked, or "..." in the README), so it is
# recorded up to three times before a difference counts.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
BD=$(cd "$B" && pwd)
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
for f in fixtures/race_queue fixtures/ex_parser fixtures/vd_errchain ttdiff ttdump; do
    [ -x "$B/$f" ] || fail "$B/$f not built (make fixtures)"
done

# the parser example's runs (as example_readme.sh records them)
# (run as build/fixtures/ex_parser, the command line the README shows)
mkdir "$T/ex"
TTCAP_OUT=$T/ex/good.trc "$B/fixtures/ex_parser" size=64,mode=755,ro >/dev/null
TTCAP_OUT=$T/ex/bad.trc "$B/fixtures/ex_parser" size=64,mode=755 >/dev/null
(cd "$T/ex" && { "$BD/ttdump" --color never bad.trc >../ttdump.out || true; } &&
 { "$BD/ttdump" --color never --profile -n good.trc >../profile.out || true; })
# the values example
(cd "$T" && TTCAP_OUT=vgood.trc "$BD/fixtures/vd_errchain" 30 >/dev/null 2>&1 || true
 TTCAP_OUT=vbad.trc "$BD/fixtures/vd_errchain" 99999999999999999999 >/dev/null 2>&1 || true
 "$BD/ttdiff" --color never vgood.trc vbad.trc >values.out || true)
[ -s "$T/values.out" ] || fail "no values example output"
# the inlined-helper example (values mode: x86-64 only)
INL=
if [ -x "$B/fixtures/inl_parse_pg" ]; then
    (cd "$T" && TTCAP_OUT=igood.trc "$BD/fixtures/inl_parse_pg" 12,7,30 >/dev/null 2>&1 || true
     TTCAP_OUT=ibad.trc "$BD/fixtures/inl_parse_pg" 12,x,30 >/dev/null 2>&1 || true
     "$BD/ttdiff" --color never igood.trc ibad.trc >inline.out || true)
    [ -s "$T/inline.out" ] || fail "no inlined-helper example output"
    INL="\$ ttdiff igood.trc ibad.trc"
fi

check() {
    python3 tests/e2e/readme_check.py "$B" \
        "trace: bad.trc" "$T/ttdump.out" \
        "profile: 1 thread" "$T/profile.out" \
        "\$ ttdiff vgood.trc vbad.trc" "$T/values.out" \
        ${INL:+"$INL"} ${INL:+"$T/inline.out"} \
        "== recording a good run:" "$T/demo.out" >"$T/check.out" 2>&1
}
for try in 1 2 3; do
    sh fixtures/demo.sh "$B" >"$T/demo.out" 2>&1 || true
    check && break
    [ "$try" = 3 ] && { cat "$T/check.out"; fail "the documents' example outputs differ from the tools' (3 demo runs tried)"; }
done
# the check can fail: a README whose demo block has an old line number, a
# READING.md whose values example lost a line, an INSTRUMENT.md with an
# output block nobody checks, are stale
sed 's/\(race_queue\.c:[0-9]*  calling at line \)\([0-9]*\)$/\11\2/' README.md >"$T/stale1.md"
sed '/^  called by `parse_entry`/d' report/READING.md >"$T/stale2.md"
printf '\n```\nan output nobody checks\n```\n' | cat capture/INSTRUMENT.md - >"$T/stale3.md"
for s in stale1:README.md stale2:report/READING.md stale3:capture/INSTRUMENT.md; do
    doc=${s#*:} s=${s%%:*}
    cmp -s "$doc" "$T/$s.md" && fail "$s: $doc has no such line to change"
    python3 tests/e2e/readme_check.py --doc "$T/$s.md" "$B" \
        "\$ ttdiff vgood.trc vbad.trc" "$T/values.out" \
        "== recording a good run:" "$T/demo.out" >"$T/$s.out" 2>&1 &&
        fail "a stale $doc ($s) passes the check"
done
grep -q "block starting '== recording a good run:'" "$T/stale1.out" || fail "stale1: $(cat "$T/stale1.out")"
grep -q "block starting '\$ ttdiff vgood.trc vbad.trc'" "$T/stale2.out" || fail "stale2: $(cat "$T/stale2.out")"
grep -q "an output block nobody checks: 'an output nobody checks'" "$T/stale3.out" || fail "stale3: $(cat "$T/stale3.out")"
echo ok
