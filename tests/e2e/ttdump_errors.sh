#!/bin/sh
# ttdump's bad-input contract: missing file, unknown flag, missing option
# argument, bad regex, no trace, a file shorter than a header, bad magic, a
# newer required version - each gives exit 2 and exactly one stderr line
# "ttdump: <what>: <why>"; a trace cut short after its header is readable.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
TTDUMP=$(cd "$B" && pwd)/ttdump
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# expect_err PATTERN ARGS...: exit 2, one stderr line matching PATTERN
expect_err() {
    pat=$1; shift
    rc=0
    "$TTDUMP" "$@" > "$T/out" 2> "$T/err" || rc=$?
    [ "$rc" = 2 ] || { cat "$T/err"; fail "ttdump $*: exit $rc, want 2"; }
    [ "$(wc -l < "$T/err")" = 1 ] || { cat "$T/err"; fail "ttdump $*: want one stderr line"; }
    grep -q -e "^ttdump: $pat" "$T/err" || { cat "$T/err"; fail "ttdump $*: stderr does not match '$pat'"; }
}

expect_err '.*nonexistent.trc.*' "$T/nonexistent.trc"
# worded as ttdiff and ttrec word them (report/cmd/cli.c)
expect_err "unknown option '--bogus' (see ttdump --help)" --bogus x.trc
expect_err "unknown option '-Q' (see ttdump --help)" -Q x.trc
expect_err '--thread needs a value' x.trc --thread
expect_err "--function: bad regex 'a(b': missing closing parenthesis at offset 3" --function 'a(b' x.trc
expect_err "--thread: bad regex '\[z-a\]': .* at offset" --thread '[z-a]' x.trc
expect_err "--exclude: bad regex 'a(b'" --exclude 'a(b' x.trc
expect_err 'no trace file given' --merged
expect_err '.*: one trace file only' a.trc b.trc
expect_err '--color: expected auto, always or never' --color=sometimes x.trc

# a header cut after the magic: truncated
printf '\211TTF\r\n\032\n\001\000' > "$T/short.trc"
expect_err '.*short\.trc.*' "$T/short.trc"
# text instead of a trace (also what CRLF damage looks like): corrupt
head -c 8192 /dev/zero | tr '\0' 'x' > "$T/text.trc"
expect_err '.*text\.trc.*' "$T/text.trc"
# a magic with CRLF damage
{ printf '\211TTF\n\032\n'; head -c 8192 /dev/zero; } > "$T/crlf.trc"
expect_err '.*crlf\.trc.*' "$T/crlf.trc"
# an empty file
: > "$T/empty.trc"
expect_err '.*empty\.trc.*' "$T/empty.trc"
# a directory
expect_err ".*$(basename "$T").*" "$T"

# help and version succeed
"$TTDUMP" --help | grep -q '^usage: ttdump' || fail "--help"
"$TTDUMP" --version | grep -q '^ttdump [0-9]' || fail "--version"

# a real trace (a golden one, else one recorded from the sym_calls fixture)
# with a newer required major version and with an unknown required feature
# bit: refused with one line
g=$(ls fixtures/traces/*.trc 2>/dev/null | grep -v '/\(bad\|corrupt\|trunc\)_' | head -1 || true)
if [ -z "$g" ] && [ -x "$B/fixtures/sym_calls" ]; then
    g="$T/fresh.trc"
    TTCAP_OUT="$g" "$B/fixtures/sym_calls" > /dev/null || fail "sym_calls failed"
fi
[ -n "$g" ] || echo "note: no trace to damage (no golden traces, no fixtures)"
if [ -n "$g" ]; then
    cp "$g" "$T/v9.trc"
    printf '\011' | dd of="$T/v9.trc" bs=1 seek=12 conv=notrunc 2>/dev/null
    expect_err '.*v9\.trc.*' "$T/v9.trc"
    cp "$g" "$T/feat.trc"
    printf '\200' | dd of="$T/feat.trc" bs=1 seek=23 conv=notrunc 2>/dev/null
    expect_err '.*feat\.trc.*' "$T/feat.trc"
    # cut in the middle of its data: not an error, the dump says so
    size=$(wc -c < "$g")
    head -c $((4096 + (size - 4096) / 2)) "$g" > "$T/cut.trc"
    rc=0; "$TTDUMP" "$T/cut.trc" > "$T/out" 2> "$T/err" || rc=$?
    [ "$rc" = 0 ] || { cat "$T/err"; fail "cut trace: exit $rc"; }
    grep -q '^  file bytes: *'$((4096 + (size - 4096) / 2))'$' "$T/out" \
        || fail "cut trace: file size not shown"
fi
echo ok
