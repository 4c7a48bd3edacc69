#!/bin/sh
# same_reports.sh OLD_TTDIFF NEW_TTDIFF [DIR...] - are two ttdiff builds'
# reports byte-identical? (issue 35: a refactor of diff/ must not change one
# byte of any report). Both binaries read the same traces, from the same
# folder, in the three formats (text --color never, json, html); stdout, the
# exit status and stderr (the binary's own path masked) must be identical.
#
# The traces:
#   - the golden cases (tests/golden/*/cmd), recorded once here with the
#     build $B (default build; needs $B/fixtures); GOLDEN=0 leaves them out;
#   - every folder under each DIR (symbolic links followed) that holds
#     *.trc files: a trace whose name has "bad" in it is a bad run, any
#     other a good run; the first good run
#     (in name order) is diffed against each other trace. A folder of
#     `make realbugs` (build/realbugs/<case>/<mode>/ok1.trc ok2.trc bad.trc)
#     thus gives its two pairs, ok1-bad and ok1-ok2, both modes;
#   - with no DIR, $B/realbugs when it holds recordings (make realbugs).
#     TTDIFF_ARGS (words) go before the stored pairs' traces, as
#     RB_TTDIFF_ARGS does in make realbugs.
# Prints one line per difference with the diff's first lines, then a count.
# Exit 0 only when every report of every pair is identical; 1 on a
# difference, 2 on bad usage or nothing to compare.
set -u
usage() { echo "usage: same_reports.sh OLD_TTDIFF NEW_TTDIFF [DIR...]" >&2; exit 2; }
[ $# -ge 2 ] || usage
abs() { case $1 in /*) echo "$1";; *) echo "$PWD/$1";; esac; }
OLD=$(abs "$1"); NEW=$(abs "$2"); shift 2
for x in "$OLD" "$NEW"; do [ -x "$x" ] || { echo "same_reports: no program $x" >&2; exit 2; }; done
for x in "$@"; do [ -d "$x" ] || { echo "same_reports: no folder $x" >&2; exit 2; }; done
DIRS=""
for x in "$@"; do DIRS="$DIRS$(cd "$x" && pwd)
"; done
cd "$(dirname "$0")/../.." || exit 2
B=${B:-build}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/pairs"
np=0
# pair LABEL FOLDER ARG...: one pair to diff, ttdiff's arguments one a line
pair() {
    np=$((np + 1)); l=$1; d=$2; shift 2
    printf '%s\n%s\n' "$l" "$d" > "$T/pairs/$np.where"
    for a in "$@"; do printf '%s\n' "$a"; done > "$T/pairs/$np.args"
}

# the golden cases, recorded once for both binaries
if [ "${GOLDEN:-1}" != 0 ]; then
    if [ -x "$B/ttdiff" ] && [ -d "$B/fixtures" ] &&
       python3 tests/golden/golden.py record "$B" "$T/golden" > "$T/golden.log" 2>&1; then
        n=0
        for c in "$T"/golden/*/; do
            c=${c%/}; n=$((n + 1))
            np=$((np + 1))
            printf 'golden/%s\n%s\n' "${c##*/}" "$c" > "$T/pairs/$np.where"
            cp "$c/args" "$T/pairs/$np.args"
        done
        echo "same_reports: $n golden cases (tests/golden, recorded with $B)"
    else
        echo "same_reports: golden cases left out: cannot record them with $B (make all fixtures)"
        [ -s "$T/golden.log" ] && sed 's/^/    /' "$T/golden.log" | head -5
    fi
fi

# folders of stored traces
if [ -z "$DIRS" ] && [ -d "$B/realbugs" ] &&
   [ -n "$(find "$B/realbugs" -name '*.trc' -print 2>/dev/null | head -1)" ]; then
    DIRS="$(cd "$B/realbugs" && pwd)
"
    echo "same_reports: realbugs recordings found in $B/realbugs"
elif [ -z "$DIRS" ]; then
    echo "same_reports: no $B/realbugs recordings (make realbugs) and no folder given: golden cases only"
fi
printf '%s' "$DIRS" | while IFS= read -r top; do
    [ -n "$top" ] || continue
    k=$(find -L "$top" -name '*.trc' -type f | sed 's|/[^/]*$||' | sort -u | wc -l)
    echo "same_reports: $top: $k folders of traces"
done
# (the folders are listed into a file: a pipe's loop cannot add pairs)
printf '%s' "$DIRS" | while IFS= read -r top; do
    [ -n "$top" ] && find -L "$top" -name '*.trc' -type f | sed 's|/[^/]*$||'
done | sort -u > "$T/folders"
while IFS= read -r d; do
    first=""; rest=""; bads=""
    for f in "$d"/*.trc; do
        n=${f##*/}
        case $n in
        *bad*) bads="$bads $n" ;;
        *) if [ -z "$first" ]; then first=$n; else rest="$rest $n"; fi ;;
        esac
    done
    [ -n "$first" ] || { echo "same_reports: $d: no good run (a trace without 'bad' in its name)"; continue; }
    for t in $rest $bads; do      # (names without blanks, as make realbugs writes them)
        # shellcheck disable=SC2086 # TTDIFF_ARGS is a list of words
        pair "${d#"$PWD"/}: $first $t" "$d" ${TTDIFF_ARGS:-} "$first" "$t"
    done
done < "$T/folders"

[ "$np" -gt 0 ] || { echo "same_reports: nothing to compare" >&2; exit 2; }

# each pair in the three formats, old and new
same=0; differ=0; i=0
while [ "$i" -lt "$np" ]; do
    i=$((i + 1))
    label=$(sed -n 1p "$T/pairs/$i.where"); d=$(sed -n 2p "$T/pairs/$i.where")
    for fmt in text json html; do
        case $fmt in text) fa="--color never";; *) fa="--format $fmt";; esac
        for side in old new; do
            if [ $side = old ]; then bin=$OLD; else bin=$NEW; fi
            # shellcheck disable=SC2086 # fa is two words
            (cd "$d" && set -- && while IFS= read -r a; do set -- "$@" "$a"; done < "$T/pairs/$i.args" &&
             "$bin" $fa "$@") > "$T/$side.out" 2> "$T/$side.err"
            echo "exit status $?" >> "$T/$side.err"
            sed -i "s|$bin|TTDIFF|g" "$T/$side.err"
        done
        if cmp -s "$T/old.out" "$T/new.out" && cmp -s "$T/old.err" "$T/new.err"; then
            same=$((same + 1))
        else
            differ=$((differ + 1))
            echo "DIFFERS: $label ($fmt)"
            { diff -u "$T/old.out" "$T/new.out"; diff -u "$T/old.err" "$T/new.err"; } |
                grep -v '^\(---\|+++\) ' | head -20 | sed 's/^/    /'
        fi
    done
done
echo "same_reports: $np pairs, $((same + differ)) reports: $same identical, $differ differ"
echo "same_reports: old $OLD"
echo "same_reports: new $NEW"
[ "$differ" = 0 ]
