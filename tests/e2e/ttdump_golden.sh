#!/bin/sh
# ttdump on every golden trace in fixtures/traces/: each dumps with exit 0
# (or, for the deliberately broken ones named bad_* / corrupt_* / trunc_*,
# exit 2 with one "ttdump: " line), prints every header field by name and
# the sections in order, and --stats, --merged agree on the event count.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
TTDUMP=$(cd "$B" && pwd)/ttdump
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -q -e "$1" "$2" || { echo "--- $2:"; head -60 "$2"; fail "no '$1' in $2"; }; }

n=0
for g in fixtures/traces/*.trc; do
    [ -f "$g" ] || continue
    n=$((n + 1))
    name=$(basename "$g" .trc)
    rc=0
    "$TTDUMP" "$g" > "$T/out" 2> "$T/err" || rc=$?
    case "$name" in
    bad_*|corrupt_*|trunc_*)
        [ "$rc" = 2 ] || fail "$name: exit $rc, want 2"
        [ "$(wc -l < "$T/err")" = 1 ] || fail "$name: want one stderr line"
        grep -q '^ttdump: ' "$T/err" || fail "$name: stderr not 'ttdump: ...'"
        continue ;;
    esac
    [ "$rc" = 0 ] || { cat "$T/err"; fail "$name: exit $rc"; }
    for field in 'magic: *ok' 'version: *1\.' 'min reader: *1' \
        'header size: *64' 'endian: *little' 'required features: *0x' \
        'optional features: *0x' 'chunk size: *[0-9]' 'data offset: *[0-9]' \
        'flags: *0x' 'exit status: ' 'tsc_hz: *[0-9]' 'start time: '; do
        has "^  $field" "$T/out"
    done
    # sections in order
    order=$(grep -n -e '^header:' -e '^process:' -e '^modules:' \
        -e '^threads:' -e '^notices:' -e '^events:' "$T/out" | cut -d: -f2 | tr '\n' ' ')
    [ "$order" = "header process modules threads notices events " ] \
        || fail "$name: sections out of order: $order"
    # --merged and per-thread dumps show the same number of event lines
    "$TTDUMP" -n "$g" | grep -c '^ *+[0-9]' > "$T/c1" || true
    "$TTDUMP" -n --merged "$g" | grep -c '^ *+[0-9]' > "$T/c2" || true
    cmp -s "$T/c1" "$T/c2" || fail "$name: merged shows $(cat "$T/c2") lines, per-thread $(cat "$T/c1")"
    "$TTDUMP" --stats "$g" > "$T/st" || fail "$name: --stats exit $?"
    has '^total: [0-9]* events' "$T/st"
done
# format 1.1: the values feature by name, arguments and return values
"$TTDUMP" fixtures/traces/values.trc > "$T/v"
has '^  required features: 0x3 (events-v1, values)' "$T/v"
has '^  version: *1\.1' "$T/v"
has '^  values: *arguments and return values recorded' "$T/v"
has '> 0x401200 \[rdi=0x555555559eb0 rsi=-22 rdx=7 rcx=0 r8=0 r9=0 changed=0x07\]' "$T/v"
has '< 0x401300 = -22$' "$T/v"
# format 1.2: the sites feature by name, call sites with --sites
"$TTDUMP" --sites fixtures/traces/sites.trc > "$T/s"
has '^  required features: 0x5 (events-v1, sites)' "$T/s"
has '^  version: *1\.2' "$T/s"
has '> sites+0x1400 from sites+0x11a5$' "$T/s"
has '> sites+0x1400 from sites+0x11c9$' "$T/s"
has '> 0x401800 from sites+0x1220$' "$T/s"
"$TTDUMP" fixtures/traces/sites.trc | grep -q ' from ' && fail "call sites shown without --sites"
# format 1.4: the sparse feature by name; untimed EXITs are placed in order
"$TTDUMP" fixtures/traces/sparse.trc > "$T/p"
has '^  required features: 0x9 (events-v1, sparse)' "$T/p"
has '^  version: *1\.4' "$T/p"
has '^  \[1\] tid 961 "worker" .* events 4 ' "$T/p"
# format 1.5: the SSE registers as recorded, at ENTER and EXIT
"$TTDUMP" fixtures/traces/xmm.trc > "$T/x"
has '^  required features: 0x13 (events-v1, values, xmm)' "$T/x"
has '^  version: *1\.5' "$T/x"
has 'xmm0=0x3ff0000000000000 xmm1=0xc004000000000000 xmm2=0x3fb999999999999a xchanged=0x07\]' "$T/x"
has '< 0x401200 = 0 xmm0=0x4008000000000000$' "$T/x"
echo "ok ($n golden traces)"
