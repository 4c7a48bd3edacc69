#!/bin/sh
# tests/bench/values_flags.sh B [PKG...] - what gcc's inlining and IPA flags
# cost and recover in values mode (-pg -mfentry), on real programs built
# from Debian source as make realbugs builds them (issue 21 item 5; the
# figures are in capture/VALUES.md). Not part of make bench: it
# builds each program six times (about 2 min each on 2 cores).
#
# For each flag set (none, each flag alone, all four, the three the
# Makefile keeps, all four and -fno-inline-small-functions for reference)
# and each program
# (lua5.4 running a 100000-line script, jq filtering a 50000-object
# array): build with -g -O2 -pg -mfentry plus the set, run 5 times
# untraced and 5 times traced (median CPU seconds, user + system), and
# count the traced run's events, distinct functions, gcc clones
# (.isra/.constprop/.part) and which of the realbugs cases' truth
# functions appear at all. One tab-separated row per build on stdout.
set -u
HERE=$(cd "$(dirname "$0")/../realbugs" && pwd)
SELF=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
if [ "${1:-}" = --one ]; then B=${B:-build}; else B=${1:-build}; shift; fi

PKGS=${*:-lua5.4 jq}
case $B in /*) ;; *) B=$(pwd)/$B ;; esac
RB_CACHE=${TT_REALBUGS_CACHE:-$HOME/.cache/tt-realbugs}
W=${VF_WORK:-$RB_CACHE/values-flags}
N=${VF_RUNS:-5}
JOBS=${JOBS:-2}
export B RB_CACHE JOBS
for f in ttdump libttcap.so; do
    [ -e "$B/$f" ] || { echo "values_flags: no $B/$f (run make first)" >&2; exit 2; }
done
[ -x /usr/bin/time ] || { echo "values_flags: needs GNU time" >&2; exit 2; }

SETS=${VF_SETS:-none once sra cpclone partial all chosen small}
flags_of() {
    case $1 in
    none) echo "" ;;
    once) echo "-fno-inline-functions-called-once" ;;
    sra) echo "-fno-ipa-sra" ;;
    cpclone) echo "-fno-ipa-cp-clone" ;;
    partial) echo "-fno-partial-inlining" ;;
    all) echo "-fno-inline-functions-called-once -fno-ipa-sra -fno-ipa-cp-clone -fno-partial-inlining" ;;
    # what the Makefile's VALUES_GCC_FLAGS has (cpclone changed nothing)
    chosen) echo "-fno-inline-functions-called-once -fno-ipa-sra -fno-partial-inlining -fno-ipa-ra" ;;
    # for reference, not a candidate: what the small functions gcc
    # inlines anyway (static inline helpers) would cost to see
    small) echo "$(flags_of all) -fno-inline-small-functions" ;;
    esac
}

# the workload of PKG in the current folder, with BIN
workload() {
    case $1 in
    lua5.4)
        awk 'BEGIN { for (i = 1; i <= 100000; i++)
                 printf "item%d %d %d\n", i, 2 * (i % 50) + 8, i % 997 }' >orders.txt
        "$2/lua" "$HERE/cases/lua5.4-format/ship.lua" orders.txt ;;
    jq)
        awk 'BEGIN { printf "["; for (i = 1; i <= 100000; i++)
                 printf "%s{\"name\":\"item%d\",\"qty\":%d,\"price\":%d,\"tags\":[\"a\",\"b%d\"]}",
                        (i > 1 ? "," : ""), i, i % 50, i % 997, i % 7; print "]" }' >in.json
        "$2/jq" '[.[] | select(.qty % 2 == 0) | {n: .name, t: (.qty * .price), s: (.tags | join("-"))}]
                 | sort_by(.t) | map(.n + ":" + (.t | tostring)) | length' in.json ;;
    esac
}

# --one PKG OUT: one run of the workload (timed by the caller)
if [ "${1:-}" = --one ]; then
    workload "$2" "$3"; exit
fi

# the truth functions of PKG's realbugs cases (one regex per line)
truths() {
    for c in "$HERE"/cases/"$1"-*/case.sh; do
        sed -n "s/^TRUTH_\(DIVERGE\|CAUSE\)\(_VALUES\)\{0,1\}='\(.*\)'$/\3/p" "$c"
    done | sort -u
}

# median of the numbers on stdin
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# cpu SECONDS of one run: user + system, from GNU time
cpu_of() { awk '{ printf "%.3f\n", $1 + $2 }' "$1"; }

printf 'pkg\tset\tbuild_s\ttext_kB\tcpu_untraced\tcpu_traced\tevents\tfunctions\tclones\ttruths_seen\n'
for PKG in $PKGS; do
    SRC=$(. "$HERE/lib.sh"; rb_fetch "$PKG") || { echo "values_flags: no source of $PKG" >&2; continue; }
    for S in $SETS; do
        D=$W/$PKG/$S
        TT_CFLAGS="-g -O2 -pg -mfentry $(flags_of "$S")"
        TT_LDFLAGS="-L$B -Wl,-rpath,$B -Wl,--push-state,--no-as-needed -lttcap -Wl,--pop-state"
        export TT_CFLAGS TT_LDFLAGS
        t0=$(date +%s)
        if [ "$(cat "$D/out/.flags" 2>/dev/null)" != "$TT_CFLAGS" ]; then
            rm -rf "$D"; mkdir -p "$D/out"
            cp -a "$SRC" "$D/src"
            # the case whose build() builds PKG: pkgs/PKG.sh, else the first case
            cs=$(ls "$HERE"/cases/"$PKG"-*/case.sh | head -1)
            if ! (cd "$D/src" && sh -c '. "$1"; [ ! -f "$2" ] || . "$2"; . "$3"; build "$4" "$5"' \
                    sh "$HERE/lib.sh" "$HERE/pkgs/$PKG.sh" "$cs" "$D/src" "$D/out") \
                    >"$D/build.log" 2>&1; then
                echo "values_flags: $PKG $S: build failed (see $D/build.log)" >&2; continue
            fi
            echo "$TT_CFLAGS" >"$D/out/.flags"
        fi
        bs=$(( $(date +%s) - t0 ))
        bin=$(ls "$D"/out/lua "$D"/out/jq 2>/dev/null | head -1)
        text=$(size -A "$bin" | awk '$1 == ".text" { printf "%d", $2 / 1024 }')
        mkdir -p "$D/run"; cd "$D/run" || exit 2
        : >u.t; : >t.t; i=0
        while [ $i -lt "$N" ]; do
            ( unset TTCAP_OUT; /usr/bin/time -f '%U %S' -o one.t sh "$SELF" --one "$PKG" "$D/out" >/dev/null 2>&1 )
            cpu_of one.t >>u.t
            rm -f run.trc*
            ( TTCAP_OUT=$D/run/run.trc; export TTCAP_OUT
              /usr/bin/time -f '%U %S' -o one.t sh "$SELF" --one "$PKG" "$D/out" >/dev/null 2>&1 )
            cpu_of one.t >>t.t
            i=$((i + 1))
        done
        "$B/ttdump" --profile --sort name run.trc >prof.txt 2>prof.err
        # events from the profile's heading (--stats maps the whole file:
        # slow on the 9 GB trace of jq with -fno-inline-small-functions)
        ev=$(sed -n 's/^profile: .*, \([0-9]*\) events,.*/\1/p' prof.txt | head -1)
        fns=$(awk 'NR > 1 && $1 ~ /^[0-9]+$/ { n++ } END { print n + 0 }' prof.txt)
        cl=$(grep -Ec '\.(isra|constprop|part)\.[0-9]' prof.txt)
        seen=; tot=0; hit=0
        for t in $(truths "$PKG"); do
            tot=$((tot + 1))
            awk '{ print $NF }' prof.txt | grep -Eq -- "$t" && { hit=$((hit + 1)); seen="$seen ${t#^}"; }
        done
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s/%s%s\n' "$PKG" "$S" "$bs" "$text" \
            "$(median <u.t)" "$(median <t.t)" "${ev:-?}" "$fns" "$cl" "$hit" "$tot" "$seen"
        cd - >/dev/null || exit 2
    done
done
