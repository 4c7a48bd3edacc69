#!/bin/sh
# make realbugs: the real-bug accuracy benchmark of ttdiff (not a test).
#
#   sh tests/realbugs/run.sh BUILD_DIR [CASE_GLOB...]
#   make realbugs [CASES='jq-* expat-*'] [RB_MODES='plain values'] [RB_HALF=dev|heldout]
#
# For each case in tests/realbugs/cases/*/ (a case.sh and a README.md that
# argues the ground truth from the source code; see README.md here and the
# contract in the case README template), in each mode (plain:
# -finstrument-functions, values: -pg -mfentry and ttcap-values.pc's flags):
#   1. gets the Debian source package (apt-get source, cached under
#      $TT_REALBUGS_CACHE or $HOME/.cache/tt-realbugs; deb-src is enabled
#      when root, else the case is skipped with a note if not cached),
#   2. builds the good and the bad program (a patch apart) or one program
#      (two inputs) with the case's build function, again only when
#      libttcap, the flags or the case changed,
#   3. records good (ok1.trc), good2 (ok2.trc, a second passing run) and
#      bad (bad.trc) traces,
#   4. runs `ttdiff --format json good bad` under /usr/bin/time and
#      `ttdiff good good2`, and scores the report: the diverging frame
#      against TRUTH_DIVERGE, suspects #1 and #1..3 against TRUTH_CAUSE.
# Prints one table and one summary line per mode; writes them with the
# details to BUILD_DIR/realbugs/ (table.md, results.tsv, and per case and
# mode the traces, the JSON reports and the logs).
# Exit status: 0 when it ran (whatever the scores), 2 on a usage error.

set -u
B=${1:-build}
[ $# -gt 0 ] && shift
PATTERNS=${*:-${CASES:-}}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RB_DIR=$ROOT/tests/realbugs
[ -d "$B" ] || { echo "realbugs: no build folder $B (run make first)" >&2; exit 2; }
B=$(cd "$B" && pwd)
. "$RB_DIR/lib.sh"

# jq reads the reports; installed here when root (like make bench's peers)
if ! command -v jq >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    rb_note "installing jq"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq jq >/dev/null 2>&1 ||
        rb_note "apt-get install jq failed"
fi
for t in jq sha256sum timeout patch flock; do
    command -v $t >/dev/null 2>&1 || { echo "realbugs: needs $t" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "realbugs: needs GNU time (/usr/bin/time)" >&2; exit 2; }
for f in ttdiff libttcap.so ttcap-values.pc; do
    [ -e "$B/$f" ] || { echo "realbugs: no $B/$f (run make first)" >&2; exit 2; }
done

RB_CACHE=${TT_REALBUGS_CACHE:-$HOME/.cache/tt-realbugs}
RB_MODES=${RB_MODES:-plain values}
RB_RUN_TIMEOUT=${RB_RUN_TIMEOUT:-600}
RB_BUILD_TIMEOUT=${RB_BUILD_TIMEOUT:-1800}
RB_DIFF_TIMEOUT=${RB_DIFF_TIMEOUT:-900}
JOBS=${JOBS:-2}
RB_REUSE=${RB_REUSE:-}              # 1: record only, from the builds already made (reused_build)
RB_TTDIFF_ARGS=${RB_TTDIFF_ARGS:-}   # more ttdiff options for both diffs (split on blanks),
                                    # e.g. --ignore-call-sites to score the same recordings
                                    # without call-site alignment
OUTD=$B/realbugs
mkdir -p "$RB_CACHE/src" "$OUTD"
# the compiler and linker flags of each mode (the case's build function
# gets the ones of the mode it builds as TT_CFLAGS / TT_LDFLAGS); libttcap
# is linked whether the linker thinks it is needed or not, and by an
# absolute rpath to this build (lib.sh's rb_ttcc_flags). Values mode: -pg
# -mfentry and the gcc flags of $B/ttcap-values.pc (the Makefile's
# VALUES_GCC_FLAGS); RB_VALUES_CFLAGS replaces them (e.g. "-g -O2 -pg
# -mfentry" to score values mode without those flags)
rb_ttcc_flags "${RB_VALUES_CFLAGS:-}"
TTCC_PLAIN=$TTCC_PLAIN_CFLAGS
TTCC_VALUES=$TTCC_VALUES_CFLAGS
export B RB_CACHE JOBS TTCC_PLAIN_CFLAGS TTCC_VALUES_CFLAGS \
       TTCC_PLAIN_LDFLAGS TTCC_VALUES_LDFLAGS TTCC_PLAIN TTCC_VALUES
# builds are kept per build folder, so worktrees do not rebuild each other's
WORK=$RB_CACHE/work/$(printf '%s' "$B" | sha256sum | cut -c1-12)
RB_DEBSRC=1
rb_enable_debsrc || RB_DEBSRC=0
export RB_DEBSRC

RES=$OUTD/results.tsv
DET=$OUTD/details.txt
: >"$RES"; : >"$DET"
NOTES=$OUTD/notes.txt
: >"$NOTES"
note() { rb_note "$*"; printf '%s\n' "$*" >>"$NOTES"; }

# the fixed split (SPLIT: NAME dev|heldout); RB_HALF=dev or heldout runs
# one half only; a case not in SPLIT is "unsplit" (add it with
# split-add.sh before its first score)
RB_HALF=${RB_HALF:-}
case $RB_HALF in ''|dev|heldout) ;; *) echo "realbugs: RB_HALF is dev or heldout" >&2; exit 2 ;; esac
half_of() { rb_half "$1"; }

# in_set NAME : the case is selected by PATTERNS (all when empty) and RB_HALF
in_set() {
    [ -n "$RB_HALF" ] && [ "$(half_of "$1")" != "$RB_HALF" ] && return 1
    [ -z "$PATTERNS" ] && return 0
    for p in $PATTERNS; do
        case $1 in $p) return 0 ;; esac
    done
    return 1
}

# case_call FN ARGS... : run one of the case's functions in a fresh shell
# with lib.sh, the package's pkgs/PKG.sh (when there) and the case
# sourced, under a time limit (so a hang ends)
case_call() {
    lim=$1; fn=$2; shift 2
    timeout -k 10 "$lim" sh -c '. "$1"; [ ! -f "$2" ] || . "$2"; . "$3"; fn=$4; shift 4; "$fn" "$@"' \
        sh "$RB_DIR/lib.sh" "$RB_DIR/pkgs/$PKG.sh" "$CASE/case.sh" "$fn" "$@"
}

# build_side NAME MODE SIDE TREESIDE : the build of one side in one mode,
# redone only when its stamp changed; prints its out folder
build_side() {
    d=$WORK/$1/$2/$3
    # RB_REUSE: this folder's own build, whatever its stamp, else another's
    if [ "$(cat "$d/out/.stamp" 2>/dev/null)" = "$STAMP" ] ||
            { [ -n "$RB_REUSE" ] && [ -f "$d/out/.stamp" ]; }; then
        rb_value_tables "$2" "$d/out"   # (libttfmt's rules, not in the stamp)
        echo "$d/out"; return 0
    fi
    [ -n "$RB_REUSE" ] && { reused_build "$@"; return; }
    rb_note "$1: building $3 ($2)"
    rm -rf "$d/out"; mkdir -p "$d/out"
    rb_copy_tree "$SRC" "$4" "${PATCHFILE:-/dev/null}" "$d/src" || return 1
    rb_mode_flags "$2"
    start=$(date +%s)
    if ! (cd "$d/src" && case_call "$RB_BUILD_TIMEOUT" build "$d/src" "$d/out" "$2") \
            >"$d/build.log" 2>&1; then
        rb_note "$1: build $3 ($2) failed, see $d/build.log"
        tail -5 "$d/build.log" >&2
        return 1
    fi
    rb_value_tables "$2" "$d/out"
    echo "$STAMP" >"$d/out/.stamp"
    rb_note "$1: built $3 ($2) in $(( $(date +%s) - start )) s"
    echo "$d/out"
}

# reused_build NAME MODE SIDE : RB_REUSE=1, record only, and this build
# folder has no build of this side (build_side takes its own, whatever
# its stamp): the newest finished one in any other folder's cache,
# whatever libttcap or the flags were when it was made, never rebuilt;
# its programs then load this build's libttcap (record() sets
# LD_LIBRARY_PATH). It keeps the string tables it was given (another
# folder's files are not rewritten).
reused_build() {
    o=$(ls -dt "$RB_CACHE"/work/*/"$1/$2/$3"/out/.stamp 2>/dev/null | head -1)
    [ -n "$o" ] || { rb_note "$1: RB_REUSE: no build of $3 ($2) to reuse"; return 1; }
    rb_note "$1: reusing ${o%/.stamp} ($3, $2)"
    echo "${o%/.stamp}"
}

# record WHICH OUT TRACE : one run (run_good or run_bad) into TRACE, in
# the folder run/ beside it (every run of a case in the same folder, as a
# user runs a command twice: a program that reads its working folder or
# $PWD sees the same), kept after as TRACE's name with .run
record() {
    rd=${3%.trc}.run
    wd=$(dirname "$3")/run
    rm -rf "$rd" "$wd" "$3" "${3%.trc}".trc.*; mkdir -p "$wd"
    (cd "$wd" && TTCAP_OUT=$3 && export TTCAP_OUT && { [ -z "$RB_REUSE" ] || { LD_LIBRARY_PATH=$B && export LD_LIBRARY_PATH; }; } && case_call "$RB_RUN_TIMEOUT" "run_$1" "$2" "$wd") \
        >"$rd.log" 2>&1
    rc=$?
    mv "$wd" "$rd"
    echo "$rc" >"$rd.status"
    [ "$rc" = 124 ] && note "$NAME ($MODE): run_$1 timed out (${RB_RUN_TIMEOUT}s)"
    [ -s "$3" ] || { note "$NAME ($MODE): run_$1 left no trace $3 (status $rc)"; return 1; }
}

# ttdiff_json A B OUTBASE : ttdiff --format json, timed; prints its status
ttdiff_json() {
    /usr/bin/time -f '%U %S %M' -o "$3.time" \
        timeout -k 10 "$RB_DIFF_TIMEOUT" "$B/ttdiff" --format json $RB_TTDIFF_ARGS "$1" "$2" \
        >"$3.json" 2>"$3.err"
    echo $?
}

# score_mode : record, diff and score one case in one mode; appends a row
score_mode() {
    R=$OUTD/$NAME/$MODE
    mkdir -p "$R"
    # ok1 (good), ok2 (good2), bad: names of one length, so the three runs
    # get environments (TTCAP_OUT, PWD) of one size and the same stack
    # addresses (a program that hashes addresses then behaves the same)
    record good "$GOOD_OUT" "$R/ok1.trc" || { row_fail "no good trace"; return; }
    record good "$GOOD_OUT" "$R/ok2.trc" || { row_fail "no good2 trace"; return; }
    record bad "$BAD_OUT" "$R/bad.trc" || { row_fail "no bad trace"; return; }
    rc=$(ttdiff_json "$R/ok1.trc" "$R/bad.trc" "$R/good-bad")
    gg=$(ttdiff_json "$R/ok1.trc" "$R/ok2.trc" "$R/good-good")
    [ "$rc" -gt 2 ] && note "$NAME ($MODE): ttdiff good bad ended with status $rc (124 = timeout; see $R/good-bad.err): $B/ttdiff --format json $R/ok1.trc $R/bad.trc"
    [ "$gg" -gt 2 ] && note "$NAME ($MODE): ttdiff good good2 ended with status $gg: $B/ttdiff $R/ok1.trc $R/ok2.trc"
    J=$R/good-bad.json
    events=$(rb_json_field "$J" '.runs.bad.events')
    frame=$(rb_diverging_frame "$J")
    rb_causes "$J" >"$R/suspects.txt"
    rb_truth "$MODE"
    set -- $(rb_score "$J" "$td" "$tc")
    div=$1; t1=$2; t3=$3; conf=$4
    set -- $(cat "$R/good-bad.time" 2>/dev/null | tail -1)
    cpu=$(awk -v u="${1:-0}" -v s="${2:-0}" 'BEGIN { printf "%.2f", u + s }')
    rss=$(awk -v k="${3:-0}" 'BEGIN { printf "%.0f", k / 1024 }')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$NAME" "$MODE" \
        "${events:-?}" "$div" "$t1" "$t3" "$cpu" "$rss" "$gg" \
        "$SINGLE_THREADED" "$rc" "$(half_of "$NAME")" "$conf" >>"$RES"
    {
        echo "$NAME ($MODE): ttdiff status $rc, good-vs-good $gg"
        echo "  diverging frame: ${frame:-none}   (truth: $td)"
        echo "  causes: $(head -5 "$R/suspects.txt" | tr '\n' ' ')  (truth: $tc; confidence $conf)"
    } >>"$DET"
}

row_fail() {
    note "$NAME ($MODE): not scored: $1"
    printf '%s\t%s\t-\tno\tno\tno\t-\t-\t-\t%s\terror\t%s\tnone\n' "$NAME" "$MODE" \
        "$SINGLE_THREADED" "$(half_of "$NAME")" >>"$RES"
}

# run_case DIR : everything for one case (in a subshell: the case's
# variables and functions do not leak into the next)
run_case() {
    CASE=${1%/}; NAME=$(basename "$CASE")
    PKG=; PKG_VERSION=; KIND=; PATCH=; REVERSE=0; TRUTH_DIVERGE=; TRUTH_CAUSE=
    TRUTH_DIVERGE_PLAIN=; TRUTH_DIVERGE_VALUES=; TRUTH_CAUSE_PLAIN=; TRUTH_CAUSE_VALUES=
    TAGS=; SINGLE_THREADED=1; SHARES=; APP=
    . "$CASE/case.sh"
    export CASE NAME
    if [ -z "$PKG" ] || [ -z "$TRUTH_DIVERGE" ] || [ -z "$TRUTH_CAUSE" ]; then
        note "$NAME: skipped: case.sh sets no PKG, TRUTH_DIVERGE or TRUTH_CAUSE"; return
    fi
    if command -v needs >/dev/null 2>&1 && ! needs >"$OUTD/$NAME.needs" 2>&1; then
        note "$NAME: skipped: $(cat "$OUTD/$NAME.needs")"; return
    fi
    SRC=$(rb_fetch "$PKG" "$PKG_VERSION") || { note "$NAME: skipped: no source of $PKG"; return; }
    PATCHFILE=
    if [ "$KIND" = patch ]; then
        PATCHFILE=$(rb_patch_path "$SRC" "$CASE" "$PATCH") || {
            note "$NAME: skipped: patch $PATCH not found"; return; }
        gside=with; bside=without
        [ "$REVERSE" = 1 ] && { gside=without; bside=with; }
    fi
    export SRC PATCHFILE
    for MODE in $RB_MODES; do
        rb_mode_flags "$MODE"
        STAMP=$(printf '%s|%s|%s|%s' "$(rb_hash "$B/libttcap.so" "$RB_DIR/lib.sh" \
                $(ls "$RB_DIR/pkgs/$PKG.sh" 2>/dev/null))" \
            "$(for c in "$CASE" $(for x in $SHARES; do echo "$CASE/../$x"; done); do
                   (cd "$c" && find . -type f ! -name README.md | sort | xargs cat); done |
               sha256sum | cut -c1-16)" \
            "$TT_CFLAGS $TT_LDFLAGS" "$SRC")
        if [ "$KIND" = patch ]; then
            # ok/ko: the good and the bad build, names of one length (a
            # program that looks at its own path sees paths of one length)
            GOOD_OUT=$(build_side "$NAME" "$MODE" ok "$gside") || { row_fail "build failed"; continue; }
            BAD_OUT=$(build_side "$NAME" "$MODE" ko "$bside") || { row_fail "build failed"; continue; }
        else
            GOOD_OUT=$(build_side "$NAME" "$MODE" in as-is) || { row_fail "build failed"; continue; }
            BAD_OUT=$GOOD_OUT
        fi
        score_mode
    done
}

T0=$(date +%s)
n=0
for c in "$RB_DIR"/cases/*/; do
    [ -f "$c/case.sh" ] || continue
    in_set "$(basename "$c")" || continue
    n=$((n + 1))
    (run_case "$c")
done
[ "$n" = 0 ] && { echo "realbugs: no case matches '$PATTERNS'" >&2; exit 2; }

# the table and the summary lines
rb_table "$RES" "$RB_MODES" >"$OUTD/table.md"
echo
cat "$OUTD/table.md"
echo
cat "$DET"
[ -s "$NOTES" ] && { echo; echo "notes:"; sed 's/^/  /' "$NOTES"; }
echo
echo "realbugs: $n cases in $(( $(date +%s) - T0 )) s; results in $OUTD"
exit 0
