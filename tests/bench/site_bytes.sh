#!/bin/sh
# site_bytes.sh BUILD [RB_BUILD] - what call sites (format 1.2) cost on real
# programs: the good run of some `make realbugs` cases, in both modes,
# recorded with BUILD's libttcap.so, and per case and mode the calls and
# the bytes of their call-site prefixes per call (cap_trcstat's
# site_bytes / enters: the bytes the trace would not have without sites).
# The programs are the ones `make realbugs` built for RB_BUILD (default
# BUILD; run it once first), run through LD_LIBRARY_PATH, which overrides
# their RUNPATH: so a libttcap under test records the very binaries of
# another build folder. RB_CASES picks the cases (default: jq-nul
# cjson-pointer libzstd-checksum libyaml-tab libjsoncpp-literal, the five
# programs of issue 21's measurement). Not part of `make bench`: it needs
# the realbugs builds. Exit status 0, or 2 on a usage error.
B=${1:-build}
RB=${2:-$B}
[ -f "$B/libttcap.so" ] || { echo "site_bytes: no $B/libttcap.so (run make first)" >&2; exit 2; }
[ -d "$RB" ] || { echo "site_bytes: no build folder $RB" >&2; exit 2; }
B=$(cd "$B" && pwd)
RB=$(cd "$RB" && pwd)
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RB_DIR=$ROOT/tests/realbugs
WORK=${TT_REALBUGS_CACHE:-$HOME/.cache/tt-realbugs}/work/$(printf '%s' "$RB" | sha256sum | cut -c1-12)
[ -d "$WORK" ] || { echo "site_bytes: no realbugs builds for $RB ($WORK): run make realbugs B=$RB" >&2; exit 2; }
make -s B="$B" "$B/bench/cap_trcstat" >/dev/null 2>&1
[ -x "$B/bench/cap_trcstat" ] || { echo "site_bytes: no $B/bench/cap_trcstat" >&2; exit 2; }
tmp=$(mktemp -d /tmp/ttsites.XXXXXX) || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM

printf '%-20s %-7s %10s %12s %9s\n' case mode calls prefix_bytes B/call
for c in ${RB_CASES:-jq-nul cjson-pointer libzstd-checksum libyaml-tab libjsoncpp-literal}; do
    [ -f "$RB_DIR/cases/$c/case.sh" ] || { echo "note: no case $c" >&2; continue; }
    PKG=$(sed -n 's/^PKG=//p' "$RB_DIR/cases/$c/case.sh")
    for m in plain values; do
        d=$WORK/$c/$m/in/out
        [ -d "$d" ] || d=$WORK/$c/$m/ok/out
        [ -d "$d" ] || { echo "note: $c ($m) not built for $RB" >&2; continue; }
        rd=$tmp/$c.$m; mkdir -p "$rd"
        (cd "$rd" && CASE=$RB_DIR/cases/$c TTCAP_OUT=$rd/t.trc LD_LIBRARY_PATH=$B \
            timeout 600 sh -c '. "$1"; [ ! -f "$2" ] || . "$2"; . "$3"; run_good "$4"' \
            sh "$RB_DIR/lib.sh" "$RB_DIR/pkgs/$PKG.sh" "$RB_DIR/cases/$c/case.sh" "$d") \
            >"$rd.log" 2>&1
        [ -s "$rd/t.trc" ] || { echo "note: $c ($m) left no trace" >&2; continue; }
        "$B/bench/cap_trcstat" "$rd/t.trc" | tr ' ' '\n' | awk -F= -v c="$c" -v m="$m" '
            $1 == "enters" { e = $2 } $1 == "site_bytes" { s = $2 } $1 == "damaged" { d = $2 }
            END { printf "%-20s %-7s %10d %12d %9.3f%s\n", c, m, e, s, e ? s / e : 0,
                         d == 1 ? "  (damaged)" : "" }'
        rm -f "$rd/t.trc"
    done
done
