#!/bin/sh
# tests/realbugs/rescore.sh: score the recordings of an earlier `make
# realbugs` again with another build's ttdiff, without fetching, building
# or recording (a change to diff/ or report/ only: the traces stay valid).
#
#   sh tests/realbugs/rescore.sh BUILD_DIR TRACES_DIR [dev|heldout|all] [CASE_GLOB...]
#
# TRACES_DIR holds <case>/<mode>/{ok1,ok2,bad}.trc (an earlier run's
# BUILD_DIR/realbugs). Each case of the half (SPLIT; all by default) and
# each mode in RB_MODES (plain values) that has a bad.trc is diffed with
# BUILD_DIR/ttdiff --format json (and ok1 against ok2 unless RB_GG=0) and
# scored as make realbugs scores it (lib.sh: rb_score, rb_table). Results
# go to RB_OUT (BUILD_DIR/realbugs-rescore): results.tsv, table.md,
# details.txt, the JSON reports. Exit status 0 when it ran, 2 on a usage
# error.
set -u
[ $# -ge 2 ] || { echo "usage: rescore.sh BUILD_DIR TRACES_DIR [dev|heldout|all] [CASE_GLOB...]" >&2; exit 2; }
B=$(cd "$1" && pwd) || exit 2
TR=$(cd "$2" && pwd) || exit 2
HALF=${3:-all}
[ $# -ge 3 ] && shift 3 || shift $#
PATTERNS=${*:-}
case $HALF in dev|heldout|all) ;; *) echo "rescore.sh: half '$HALF': want dev, heldout or all" >&2; exit 2 ;; esac
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RB_DIR=$ROOT/tests/realbugs
. "$RB_DIR/lib.sh"
command -v jq >/dev/null 2>&1 || { echo "rescore.sh: needs jq" >&2; exit 2; }
[ -x "$B/ttdiff" ] || { echo "rescore.sh: no $B/ttdiff" >&2; exit 2; }
RB_MODES=${RB_MODES:-plain values}
RB_GG=${RB_GG:-1}
RB_DIFF_TIMEOUT=${RB_DIFF_TIMEOUT:-900}
OUT=${RB_OUT:-$B/realbugs-rescore}
mkdir -p "$OUT"
RES=$OUT/results.tsv; DET=$OUT/details.txt
: >"$RES"; : >"$DET"

half_of() { rb_half "$1"; }

selected() {
    [ "$HALF" != all ] && [ "$(half_of "$1")" != "$HALF" ] && return 1
    [ -z "$PATTERNS" ] && return 0
    for p in $PATTERNS; do
        case $1 in $p) return 0 ;; esac
    done
    return 1
}

score_case() {
    NAME=$(basename "$1")
    TRUTH_DIVERGE=; TRUTH_CAUSE=; TRUTH_DIVERGE_PLAIN=; TRUTH_DIVERGE_VALUES=
    TRUTH_CAUSE_PLAIN=; TRUTH_CAUSE_VALUES=; SINGLE_THREADED=1
    . "$1/case.sh"
    for MODE in $RB_MODES; do
        R=$TR/$NAME/$MODE
        [ -f "$R/bad.trc" ] && [ -f "$R/ok1.trc" ] || continue
        O=$OUT/$NAME/$MODE; mkdir -p "$O"
        timeout -k 10 "$RB_DIFF_TIMEOUT" "$B/ttdiff" --format json "$R/ok1.trc" "$R/bad.trc" \
            >"$O/good-bad.json" 2>"$O/good-bad.err"
        rc=$?
        gg=-
        if [ "$RB_GG" = 1 ] && [ -f "$R/ok2.trc" ]; then
            timeout -k 10 "$RB_DIFF_TIMEOUT" "$B/ttdiff" "$R/ok1.trc" "$R/ok2.trc" >/dev/null 2>&1
            gg=$?
        fi
        rb_truth "$MODE"
        set -- $(rb_score "$O/good-bad.json" "$td" "$tc")
        events=$(rb_json_field "$O/good-bad.json" '.runs.bad.events')
        printf '%s\t%s\t%s\t%s\t%s\t%s\t-\t-\t%s\t%s\t%s\t%s\t%s\n' "$NAME" "$MODE" \
            "${events:-?}" "$1" "$2" "$3" "$gg" "$SINGLE_THREADED" "$rc" \
            "$(half_of "$NAME")" "$4" >>"$RES"
        {
            echo "$NAME ($MODE): ttdiff status $rc, good-vs-good $gg"
            echo "  diverging frame: $(rb_diverging_frame "$O/good-bad.json")   (truth: $td)"
            echo "  causes: $(rb_causes "$O/good-bad.json" | head -5 | tr '\n' ' ')  (truth: $tc; confidence $4)"
            echo "  verdict: $(rb_json_field "$O/good-bad.json" '.verdict.headline')"
        } >>"$DET"
    done
}

for c in "$RB_DIR"/cases/*/; do
    [ -f "$c/case.sh" ] || continue
    selected "$(basename "$c")" || continue
    (score_case "${c%/}")
done
rb_table "$RES" "$RB_MODES" >"$OUT/table.md"
cat "$OUT/table.md"
echo
cat "$DET"
exit 0
