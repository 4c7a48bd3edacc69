#!/bin/sh
# values_gdb_real.sh BUILD - values mode checked against gdb on real
# programs: the values-mode objects `make realbugs` compiled (Debian's
# cJSON, double-conversion, pugixml, tinyxml2, jsoncpp, with
# ttcap-values.pc's flags, in $TT_REALBUGS_WORK), linked again with this
# build's libttcap, recorded, then run under gdb with a breakpoint on up to
# VG_FUNCS_MAX (60) of the program's own functions, the first VG_MAX (40)
# calls of each (tests/e2e/values_gdb.py); every argument and result tt
# recorded must agree with gdb's or be unknown (tests/e2e/values_gdb_cmp.py).
# Then RB_PAIRS (10) pairs of identical runs of each C++ program: ttdiff
# must exit 0 (VG_CASES: only those cases). Prints the counts; exit 1 on a disagreement, 0 with a note
# when the realbugs builds or gdb are missing (it is a benchmark of real
# programs, not part of make test: tests/e2e/values_gdb.sh is).
set -u
B=${1:-build}
cd "$(dirname "$0")/../.."
SRC=$(pwd)
BD=$(cd "$B" && pwd)
W=${TT_REALBUGS_WORK:-$HOME/.cache/tt-realbugs/work}
command -v gdb >/dev/null || { echo "values_gdb_real: gdb not installed, skipped"; exit 0; }
T=$(mktemp -d /tmp/ttvgr.XXXXXX) || exit 1
[ -n "${VG_KEEP:-}" ] && echo "keeping $T" || trap 'rm -rf "$T"' EXIT
bad=0 total=0 progs=0

# objs CASE BIN: the newest values-mode object folder of that case's good build
objs() {
    ls -dt "$W"/*/"$1"/values/ok/out/"$2".obj 2>/dev/null | head -1
}

# one CASE BIN LINK ARGS...: relink, record, compare with gdb, identical pairs
one() {
    c=$1 bin=$2 link=$3; shift 3
    od=$(objs "$c" "$bin")
    [ -n "$od" ] || { echo "$c: no realbugs build in $W, skipped"; return 0; }
    mkdir -p "$T/$c" && cd "$T/$c" || return 1
    $link -o "$bin" "$od"/*.o -rdynamic -L"$BD" -lttcap -Wl,-rpath,"$BD" -lm ||
        { echo "$c: link failed"; bad=1; cd "$SRC"; return 0; }
    [ "$c" = tinyxml2-hexattr ] &&
        printf '<?xml version="1.0"?>\n<grid rows="0X3" cols="2"/>\n' > grid.xml
    [ "$c" = libjsoncpp-bigfloat ] && cp "$SRC/tests/realbugs/cases/$c/probe.json" .
    case " ${VG_CASES:-$c} " in *" $c "*) ;; *) cd "$SRC"; return 0 ;; esac
    "./$bin" "$@" > /dev/null 2>&1     # once first: files it writes then exist for both runs
    env TTCAP_OUT="$T/$c/run.trc" setarch "$(uname -m)" -R "./$bin" "$@" > run.out 2>&1
    "$BD/ttdump" -n --color never run.trc > run.ev 2>&1 || { echo "$c: ttdump failed"; bad=1; }
    python3 "$SRC/tests/e2e/values_gdb_cmp.py" --funcs run.ev "${VG_FUNCS_MAX:-60}" > run.funcs
    env VG_FUNCS="$T/$c/run.funcs" VG_OUT="$T/$c/run.gdb" VG_MAX="${VG_MAX:-40}" \
        gdb -nx -batch -ex 'set startup-with-shell off' -x "$SRC/tests/e2e/values_gdb.py" \
        --args "./$bin" "$@" > gdb.out 2>&1
    python3 "$SRC/tests/e2e/values_gdb_cmp.py" run.ev run.gdb "$c" || bad=1
    n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["calls"])' run.gdb.counts 2>/dev/null || echo 0)
    total=$((total + n)) progs=$((progs + 1))
    case $link in
    c++*|g++*)
        same=0
        for i in $(seq "${RB_PAIRS:-10}"); do
            TTCAP_OUT="$T/$c/a.trc" "./$bin" "$@" > /dev/null 2>&1
            TTCAP_OUT="$T/$c/b.trc" "./$bin" "$@" > /dev/null 2>&1
            "$BD/ttdiff" --color never a.trc b.trc > same.out 2>&1 && same=$((same + 1))
            rm -f a.trc b.trc
        done
        echo "$c: identical runs: $same of ${RB_PAIRS:-10} pairs exit 0"
        [ "$same" = "${RB_PAIRS:-10}" ] || { head -12 same.out; bad=1; } ;;
    esac
    cd "$SRC"
}

one cjson-printprec jround cc 0.12345678901234567
one double-conversion-fastpath numfmt c++ 0.1
one pugixml-dblprec limits c++ 0.1 0.2
one tinyxml2-hexattr grid c++ grid.xml
one libjsoncpp-bigfloat jsontestrunner c++ probe.json
echo "values_gdb_real: $total calls compared over $progs programs$([ $bad = 0 ] && echo ", all agree or unknown" || echo ", DISAGREEMENTS above")"
exit $bad
