#!/bin/sh
# make goodgood: do identical runs of real programs diff as the same?
# (issue 31; a benchmark like make realbugs, not part of make test)
#
#   sh tests/realbugs/goodgood.sh BUILD_DIR [NAME...]
#   make goodgood [GG='cmark lua-random'] [GG_MODES='plain values'] [GG_PAIRS=10]
#
# Each program in tests/realbugs/goodgood/NAME.sh (PKG, the Debian source
# package; build SRC OUT, with the mode's TT_CFLAGS / TT_LDFLAGS as the
# realbugs cases build; run OUT, one run in the current folder, which must
# pass) is built in each mode, run 2*GG_PAIRS times with the same input,
# and each pair (1,2) (3,4) ... is diffed with `ttdiff A B` (no baseline).
# A pair is the same when ttdiff exits 0. Prints one line per program and
# mode ("N of 10 pairs exit 0", the exit statuses) and writes them to
# BUILD_DIR/goodgood/table.txt, the reports beside the traces. Sources are
# fetched and builds cached as make realbugs does ($TT_REALBUGS_CACHE).
# Exit status: 0 when it ran, 2 on a usage error.

set -u
B=${1:-build}
[ $# -gt 0 ] && shift
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
RB_DIR=$ROOT/tests/realbugs
[ -d "$B" ] || { echo "goodgood: no build folder $B (run make first)" >&2; exit 2; }
B=$(cd "$B" && pwd)
for f in ttdiff libttcap.so ttcap-values.pc; do
    [ -e "$B/$f" ] || { echo "goodgood: no $B/$f (run make first)" >&2; exit 2; }
done
. "$RB_DIR/lib.sh"

RB_CACHE=${TT_REALBUGS_CACHE:-$HOME/.cache/tt-realbugs}
GG_MODES=${GG_MODES:-plain values}
GG_PAIRS=${GG_PAIRS:-10}
GG_TIMEOUT=${GG_TIMEOUT:-300}
NAMES=${*:-${GG:-}}
[ -n "$NAMES" ] || NAMES=$(cd "$RB_DIR/goodgood" && ls *.sh | sed 's/\.sh$//')
JOBS=${JOBS:-2}
OUTD=$B/goodgood
mkdir -p "$RB_CACHE/src" "$OUTD"
rb_ttcc_flags            # the flags of make realbugs (lib.sh)
WORK=$RB_CACHE/work/$(printf '%s' "$B" | sha256sum | cut -c1-12)/goodgood

note() { printf 'goodgood: %s\n' "$*" >&2; }
RB_DEBSRC=1
rb_enable_debsrc || RB_DEBSRC=0

# gg_call NAME FN ARGS... : one of the program's functions in a fresh shell
# (lib.sh, the package's pkgs/PKG.sh when there, then the program's script)
gg_call() {
    n=$1; fn=$2; shift 2
    pk=$(sed -n 's/^PKG=//p' "$RB_DIR/goodgood/$n.sh")
    timeout -k 10 "$GG_TIMEOUT" sh -c '. "$1"; [ ! -f "$2" ] || . "$2"; . "$3"; fn=$4; shift 4; "$fn" "$@"' \
        sh "$RB_DIR/lib.sh" "$RB_DIR/pkgs/$pk.sh" "$RB_DIR/goodgood/$n.sh" "$fn" "$@"
}

# gg_build NAME MODE SRC OUT : build once per libttcap, script and flags
gg_build() {
    rb_mode_flags "$2" || return 1
    stamp=$(printf '%s|%s' "$(rb_hash "$B/libttcap.so" "$RB_DIR/goodgood/$1.sh" "$RB_DIR/lib.sh")" "$TT_CFLAGS")
    # (a cached build's string tables are made again: the rules of what is
    # a string are libttfmt's, not part of the stamp)
    [ "$(cat "$4/.stamp" 2>/dev/null)" = "$stamp" ] && { rb_value_tables "$2" "$4"; return 0; }
    rm -rf "$4" "$4.src" && mkdir -p "$4" && cp -a "$3" "$4.src" || return 1
    note "$1: building ($2)"
    (cd "$4.src" && gg_call "$1" build "$4.src" "$4") >"$4.log" 2>&1 ||
        { note "$1: build ($2) failed, see $4.log"; return 1; }
    rb_value_tables "$2" "$4"
    echo "$stamp" >"$4/.stamp"
}

: >"$OUTD/table.txt"
for NAME in $NAMES; do
    [ -f "$RB_DIR/goodgood/$NAME.sh" ] || { note "no program $NAME"; continue; }
    PKG=$(sed -n 's/^PKG=//p' "$RB_DIR/goodgood/$NAME.sh")
    LANG_=$(sed -n 's/^LANG_=//p' "$RB_DIR/goodgood/$NAME.sh")
    SRC=$(rb_fetch "$PKG") || { note "$NAME: skipped (no $PKG source)"; continue; }
    for MODE in $GG_MODES; do
        OUT=$WORK/$NAME/$MODE
        gg_build "$NAME" "$MODE" "$SRC" "$OUT" || continue
        R=$OUTD/$NAME/$MODE
        rm -rf "$R"; mkdir -p "$R"
        ok=1
        # run folders and traces named with one length (r01.trc ... r20.trc),
        # so every run's environment (TTCAP_OUT, PWD) has one size and the
        # stack the same addresses, as make realbugs names ok1/ok2/bad
        for i in $(seq -w 1 $((2 * GG_PAIRS))); do
            rd=$R/run$i; mkdir -p "$rd"
            (cd "$rd" && TTCAP_OUT=$R/r$i.trc && export TTCAP_OUT &&
                gg_call "$NAME" run "$OUT") >"$rd/out" 2>&1 ||
                { note "$NAME ($MODE): run $i failed (see $rd/out)"; ok=0; break; }
        done
        [ $ok = 1 ] || continue
        same=0; st=; n=$((2 * GG_PAIRS))
        for k in $(seq 1 "$GG_PAIRS"); do
            a=$(printf '%s/r%0*d.trc' "$R" ${#n} $((2 * k - 1)))
            b=$(printf '%s/r%0*d.trc' "$R" ${#n} $((2 * k)))
            timeout 600 "$B/ttdiff" "$a" "$b" >"$R/pair$k.txt" 2>&1
            rc=$?
            [ $rc = 0 ] && same=$((same + 1))
            st="$st$rc"
        done
        ev=$("$B/ttdump" -s "$(printf '%s/r%0*d.trc' "$R" ${#n} 1)" 2>/dev/null | awk '$1 == "events:" { print $2; exit }')
        printf '%-12s %-4s %-7s %2d of %d pairs exit 0  (%s)  events %s\n' "$NAME" "$LANG_" \
            "$MODE" $same "$GG_PAIRS" "$st" "${ev:-?}" | tee -a "$OUTD/table.txt"
    done
done
exit 0
