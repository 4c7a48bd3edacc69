#!/bin/bash
# same_reports.sh - prove a refactor changed no report byte: run end-to-end
# tests with a ttdiff that, on every call, runs OLD and NEW with the same
# arguments in all three formats (text, json, html; the call's own
# --format dropped) and compares stdout, stderr, exit status and any -o /
# --gdb file byte for byte, then answers the test as NEW does.
#
# Usage: tests/same_reports.sh OLD_TTDIFF NEW_TTDIFF [BUILD [TEST.sh ...]]
#   BUILD  the build folder the tests use (default build; NEW is usually
#          BUILD/ttdiff), TEST  e2e scripts (default: every tests/e2e
#          script that runs ttdiff on traces it records).
# Prints one line per call compared, "same" or "DIFFERS" with the files
# kept, and exits 1 if any call differed (or no call was compared).
# The tests run in a shadow build folder (symbolic links to BUILD's
# entries, ttdiff the comparing wrapper), so nothing in BUILD changes.
set -u
[ $# -ge 2 ] || { echo "usage: same_reports.sh OLD_TTDIFF NEW_TTDIFF [BUILD [TEST.sh ...]]" >&2; exit 2; }
OLD=$(readlink -f "$1") NEW=$(readlink -f "$2") B=${3:-build}
shift 2; [ $# -gt 0 ] && shift
cd "$(dirname "$0")/.."
for x in "$OLD" "$NEW"; do [ -x "$x" ] || { echo "same_reports: $x: not executable" >&2; exit 2; }; done
W=$(mktemp -d /tmp/same_reports.XXXXXX) || exit 2
SB=$W/build
mkdir -p "$SB" "$W/diffs"
for e in "$(cd "$B" && pwd)"/*; do ln -s "$e" "$SB/$(basename "$e")"; done
rm -f "$SB/ttdiff"
cat > "$SB/ttdiff" <<'EOF'
#!/bin/bash
# the comparing wrapper (same_reports.sh)
args=() ofile= gfile= fmtkeep=()
while [ $# -gt 0 ]; do
    case $1 in
    --format) fmtkeep=(--format "$2"); shift ;;
    --format=*) fmtkeep=("$1") ;;
    -o) ofile=$2; shift ;;
    --gdb) gfile=$2; shift ;;
    *) args+=("$1") ;;
    esac
    shift
done
n=$(( $(cat "$SR_W/count" 2>/dev/null || echo 0) + 1 ))
echo "$n" > "$SR_W/count"
bad=
for fmt in text json html; do
    for v in old new; do
        exe=$SR_OLD; [ $v = new ] && exe=$SR_NEW
        d=$SR_W/run/$n.$fmt.$v
        mkdir -p "$d"
        extra=()
        [ -n "$ofile" ] && extra+=(-o "$d/o")
        [ -n "$gfile" ] && extra+=(--gdb "$d/g")
        rc=0
        "$exe" "${args[@]}" --format "$fmt" "${extra[@]}" > "$d/stdout" 2> "$d/stderr" < /dev/null || rc=$?
        echo "$rc" > "$d/rc"
        # the binaries' own paths may show in usage lines
        sed -i "s#$exe#TTDIFF#g; s#$d/#DIR/#g" "$d/stderr"
        [ -f "$d/g" ] && sed -i "s#$d/#DIR/#g" "$d/g"
    done
    if ! diff -r "$SR_W/run/$n.$fmt.old" "$SR_W/run/$n.$fmt.new" > "$SR_W/diffs/$n.$fmt" 2>&1; then
        bad="$bad $fmt"
    else
        rm -rf "$SR_W/run/$n.$fmt.old" "$SR_W/run/$n.$fmt.new" "$SR_W/diffs/$n.$fmt"
    fi
done
if [ -n "$bad" ]; then
    echo "DIFFERS ($bad) call $n: ttdiff ${args[*]} (see $SR_W/diffs/$n.*)" >> "$SR_W/log"
else
    echo "same call $n: ${args[*]}" >> "$SR_W/log"
fi
own=()
[ -n "$ofile" ] && own+=(-o "$ofile")
[ -n "$gfile" ] && own+=(--gdb "$gfile")
exec "$SR_NEW" "${args[@]}" "${fmtkeep[@]}" "${own[@]}"
EOF
chmod +x "$SB/ttdiff"
export SR_OLD="$OLD" SR_NEW="$NEW" SR_W="$W"
if [ $# -eq 0 ]; then
    set -- $(grep -l 'TTDIFF\|/ttdiff"' tests/e2e/ttdiff_*.sh tests/e2e/example_*.sh \
        tests/e2e/cli_filters.sh tests/e2e/cxx_names.sh tests/e2e/html_report.sh \
        tests/e2e/report_outputs.sh tests/e2e/readme_outputs.sh tests/e2e/profile_diff.sh \
        tests/e2e/values_clones.sh tests/e2e/ttrec_race.sh 2>/dev/null)
fi
tfail=0
for t in "$@"; do
    r=ok
    o=$W/$(basename "$t").out
    sh "$t" "$SB" > "$o" 2>&1 || { r="FAILED (the test itself: $o)"; tfail=1; }
    echo "$(basename "$t"): $r"
done
[ -f "$W/log" ] || { echo "same_reports: no ttdiff call compared"; exit 1; }
grep '^DIFFERS' "$W/log"
n=$(grep -c '' "$W/log")
if grep -q '^DIFFERS' "$W/log"; then
    echo "same_reports: reports differ (kept in $W)"
    exit 1
fi
echo "same_reports: $n calls, three formats each: byte-identical"
# a test that failed by itself (a flake under load; both binaries answered
# its calls alike) keeps its output
[ "$tfail" = 1 ] && echo "same_reports: a test failed by itself: its output is in $W" || rm -rf "$W"
