# tests/realbugs/lib.sh - shell functions of the real-bug accuracy benchmark
# (make realbugs; sourced by run.sh, POSIX sh).
#
# The benchmark builds real programs from Debian source packages twice or
# once (a fixed and a buggy build one patch apart, or one build run on a
# passing and a failing input), in both capture modes, records a passing
# run, a second passing run and a failing run, and scores ttdiff's JSON
# report against a ground truth written from the source code beforehand.
# These functions do the parts that do not depend on a case: getting
# sources (apt-get source, deb-src enabled on demand), patched copies of a
# source tree, a cache stamp so a build is redone only when libttcap or the
# case changed, the compiler flags of each mode, and reading the report.
# Everything expensive lives under $RB_CACHE (default
# $HOME/.cache/tt-realbugs), outside the repository.

rb_note() { printf 'realbugs: %s\n' "$*" >&2; }

# rb_hash FILE... : one sha256 over the contents of the files, in order
rb_hash() {
    cat "$@" 2>/dev/null | sha256sum | cut -c1-16
}

# rb_debsrc_enabled : 0 when some apt source lists deb-src entries
rb_debsrc_enabled() {
    grep -Eqs '^[[:space:]]*(deb-src[[:space:]]|Types:.*deb-src)' \
        /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
        /etc/apt/sources.list.d/*.sources
}

# rb_enable_debsrc : make sure `apt-get source` can work. When no deb-src
# entry exists and we are root, adds one for this Debian release
# (/etc/os-release's VERSION_CODENAME, deb.debian.org) and updates the
# lists; otherwise returns 1 with a note (cached sources still work).
rb_enable_debsrc() {
    command -v apt-get >/dev/null 2>&1 || { rb_note "no apt-get: only cached sources can be used"; return 1; }
    rb_debsrc_enabled && return 0
    if [ "$(id -u)" != 0 ]; then
        rb_note "no deb-src entry in /etc/apt and not root: only cached sources can be used (add a deb-src line, or run as root once)"
        return 1
    fi
    codename=$(. /etc/os-release 2>/dev/null; echo "${VERSION_CODENAME:-}")
    [ -n "$codename" ] || { rb_note "cannot tell the Debian release (/etc/os-release): deb-src not enabled"; return 1; }
    rb_note "enabling deb-src for $codename (/etc/apt/sources.list.d/tt-realbugs-src.sources)"
    cat > /etc/apt/sources.list.d/tt-realbugs-src.sources <<EOT
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $codename $codename-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOT
    apt-get update -qq >/dev/null 2>&1 || { rb_note "apt-get update failed: sources may be missing"; return 1; }
}

# rb_fetch PKG [VERSION] : print the unpacked source tree of PKG (as
# `apt-get source` leaves it: Debian's patches applied), fetching it into
# $RB_CACHE/src/PKG on first use. Returns 1 with a note when it cannot.
rb_fetch() {
    d=$RB_CACHE/src/$1
    mkdir -p "$d"
    tree=$(ls -d "$d"/*/debian 2>/dev/null | head -1)
    if [ -z "$tree" ]; then
        if [ "${RB_DEBSRC:-1}" = 0 ]; then
            rb_note "$1: source not cached and deb-src not available"
            return 1
        fi
        spec=$1; [ -n "${2:-}" ] && spec="$1=$2"
        ( cd "$d" && flock "$d/.lock" apt-get source -qq "$spec" ) \
            >"$d/fetch.log" 2>&1 || {
            rb_note "$1: apt-get source failed (see $d/fetch.log)"; return 1; }
        tree=$(ls -d "$d"/*/debian 2>/dev/null | head -1)
        [ -n "$tree" ] || { rb_note "$1: no source tree after apt-get source"; return 1; }
    fi
    dirname "$tree"
}

# rb_patch_path SRC CASEDIR PATCH : the patch file: a path inside the
# source tree (debian/patches/...) or inside the case folder
rb_patch_path() {
    if [ -f "$1/$3" ]; then echo "$1/$3"
    elif [ -f "$2/$3" ]; then echo "$2/$3"
    elif [ -f "$2/$(basename "$3")" ]; then echo "$2/$(basename "$3")"
    else return 1; fi
}

# rb_copy_tree SRC SIDE PATCHFILE DEST : copy SRC to DEST with the patch
# in for SIDE=with, out for SIDE=without; SIDE=as-is copies. A patch that
# is already in the tree (Debian's own) is reversed for "without"; one
# that is not (an upstream fix) is applied for "with". -p1 first, then -p0.
rb_copy_tree() {
    rm -rf "$4"; mkdir -p "$(dirname "$4")"
    cp -a "$1" "$4" || return 1
    [ "$2" = as-is ] && return 0
    for p in 1 0; do
        if patch -d "$4" -p$p -R --dry-run -s -f <"$3" >/dev/null 2>&1; then
            [ "$2" = without ] && { patch -d "$4" -p$p -R -s -f <"$3" >/dev/null || return 1; }
            return 0
        fi
        if patch -d "$4" -p$p --dry-run -s -f <"$3" >/dev/null 2>&1; then
            [ "$2" = with ] && { patch -d "$4" -p$p -s -f <"$3" >/dev/null || return 1; }
            return 0
        fi
    done
    rb_note "patch $3 neither applies nor reverses on $1"
    return 1
}

# rb_mode_flags MODE : set TT_CFLAGS / TT_LDFLAGS (and CFLAGS/LDFLAGS
# exported for the case's build) for plain or values mode
rb_mode_flags() {
    case $1 in
    plain)  TT_CFLAGS=$TTCC_PLAIN_CFLAGS;  TT_LDFLAGS=$TTCC_PLAIN_LDFLAGS ;;
    values) TT_CFLAGS=$TTCC_VALUES_CFLAGS; TT_LDFLAGS=$TTCC_VALUES_LDFLAGS ;;
    *) return 1 ;;
    esac
    export TT_CFLAGS TT_LDFLAGS
}

# rb_value_tables MODE OUT : in values mode, give every program and shared
# library in OUT the string table ttcc adds at link (`ttcc --add-table`:
# ttdump --value-table, then objcopy's section .ttcap.vt; ttcc(1)), so a
# case built with the mode's flags records strings' first bytes as
# `ttcc --values` does. A file that has no string parameters, or no debug
# info, is left as built.
rb_value_tables() {
    [ "$1" = values ] || return 0
    find "$2" -type f \( -perm -u+x -o -name '*.so*' \) | while read -r f; do
        [ "$(head -c4 "$f" | od -An -c | tr -d ' ')" = '177ELF' ] || continue
        "$B/ttcc" --add-table "$f" >/dev/null 2>&1 || true
    done
}

# rb_json_field FILE JQ-EXPR : one value from a JSON report ("" on error)
rb_json_field() {
    jq -r "$2 // empty" "$1" 2>/dev/null | head -1
}

# rb_diverging_frame FILE : the function of the first divergence's
# diverging frame: the innermost frame of its common stack (the function
# whose calls differ), else the suspect whose role says so
rb_diverging_frame() {
    jq -r '.first_divergence // empty
           | (.stack[-1] // ([.suspects[]? | select(.role == "diverging_frame") | .function][0]) // empty)' \
        "$1" 2>/dev/null | head -1
}

# rb_suspects FILE : the first divergence's suspects, best first, one
# function name a line
rb_suspects() {
    jq -r '.first_divergence.suspects[]?.function // empty' "$1" 2>/dev/null
}

# rb_truth MODE : sets td and tc, the case's TRUTH_DIVERGE and TRUTH_CAUSE
# for MODE (a case may name them per mode, TRUTH_DIVERGE_PLAIN, ..._VALUES,
# TRUTH_CAUSE_PLAIN, ..._VALUES, where inlining moves the first traced
# difference: -finstrument-functions instruments inlined code, -pg not)
rb_truth() {
    case $1 in
    plain)  td=${TRUTH_DIVERGE_PLAIN:-$TRUTH_DIVERGE}; tc=${TRUTH_CAUSE_PLAIN:-$TRUTH_CAUSE} ;;
    values) td=${TRUTH_DIVERGE_VALUES:-$TRUTH_DIVERGE}; tc=${TRUTH_CAUSE_VALUES:-$TRUTH_CAUSE} ;;
    *)      td=$TRUTH_DIVERGE; tc=$TRUTH_CAUSE ;;
    esac
}

# rb_half NAME : the case's half of the fixed split (SPLIT): dev, heldout,
# or unsplit
rb_half() {
    h=$(awk -v n="$1" '$1 == n { print $2; exit }' "$RB_DIR/SPLIT" 2>/dev/null)
    echo "${h:-unsplit}"
}

# rb_causes FILE : the causes the report names, best first, one function
# name a line: the verdict's cause (issue 33), then the first divergence's
# suspects without it again
rb_causes() {
    jq -r '[(.verdict.cause.function // empty), (.first_divergence.suspects[]?.function // empty)]
           | reduce .[] as $f ([]; if ($f == "" or any(.[]; . == $f)) then . else . + [$f] end)
           | .[]' "$1" 2>/dev/null
}

# rb_confidence FILE : the verdict's confidence ("likely", "possible",
# "unknown"; "none" without a verdict)
rb_confidence() {
    jq -r '.verdict.confidence // "none"' "$1" 2>/dev/null | head -1
}

# rb_score FILE TRUTH_DIVERGE TRUTH_CAUSE : one report scored, as
# "DIVERGE TOP1 TOP3 CONFIDENCE" (yes/no each, then the confidence): the
# diverging frame against TRUTH_DIVERGE, the verdict's cause (top-1) and
# the first three causes (top-3) against TRUTH_CAUSE. A cause whose
# changed code is an inlined function's (verdict.cause.inlined: "the code
# of `g` changed (inlined into `f`)") names both: either may match.
rb_score() {
    frame=$(rb_diverging_frame "$1")
    div=no; t1=no; t3=no
    rb_match "$2" "$frame" && div=yes
    inl=$(jq -r '.verdict.cause.inlined // empty' "$1" 2>/dev/null)
    rb_match "$3" "$inl" && { t1=yes; t3=yes; }
    n=0
    for s in $(rb_causes "$1" | head -3 | tr ' ' '\037'); do
        n=$((n + 1))
        s=$(printf '%s' "$s" | tr '\037' ' ')
        rb_match "$3" "$s" || continue
        t3=yes
        [ $n = 1 ] && t1=yes
    done
    echo "$div $t1 $t3 $(rb_confidence "$1")"
}

# rb_match REGEX NAME : grep -E REGEX on the name; a REGEX grep refuses
# is said on stderr (a truth that can never match scores "no" otherwise)
rb_match() {
    [ -n "$2" ] || return 1
    rc=0
    printf '%s\n' "$2" | grep -Eq -- "$1" 2>/dev/null || rc=$?
    [ $rc != 2 ] || echo "realbugs: '$1' is not a grep -E regex" >&2
    return $rc
}

# rb_cc_prog BIN "CPPFLAGS" "LIBS" FILE... : compile the files with the
# mode's TT_CFLAGS ($JOBS at a time; for cases that need no configure
# step, or only a few objects of a configured tree) and link them into BIN
# with TT_LDFLAGS. .c files with ${CC:-cc}, others (.cc .cpp .cxx) with
# ${CXX:-c++}, which then also links. Objects go to BIN.obj/.
rb_cc_prog() {
    bin=$1; cpp=$2; libs=$3; shift 3
    od=$bin.obj; mkdir -p "$od"
    for f in "$@"; do printf '%s\n' "$f"; done |
        RB_OD=$od RB_CPP=$cpp xargs -P "${JOBS:-2}" -I{} sh -c \
            'f="{}"; o="$RB_OD/$(echo "$f" | tr / _ | sed "s/\.[^.]*\$/.o/")"; \
             case $f in *.c) c=${CC:-cc} ;; *) c=${CXX:-c++} ;; esac; \
             echo "$c $f"; $c $TT_CFLAGS $RB_CPP -c -o "$o" "$f"' || return 1
    objs=; link=${CC:-cc}
    for f in "$@"; do
        objs="$objs $od/$(echo "$f" | tr / _ | sed 's/\.[^.]*$/.o/')"
        case $f in *.c) ;; *) link=${CXX:-c++} ;; esac
    done
    $link -o "$bin" $objs $TT_LDFLAGS $libs
}

# rb_table RESULTS MODES : the table of results.tsv (one row a case and
# mode: name, mode, events, diverge, top-1, top-3, cpu s, RSS MiB,
# good-good status, single-threaded, status, half, confidence) and the
# summary lines, one per mode and one per half and mode, with the
# calibration: of the cases where the verdict said "likely", how many
# named the right cause (top-1)
rb_table() {
    echo "| case | half | mode | events | diverge | top-1 | top-3 | confidence | ttdiff s | RSS MiB | good-good |"
    echo "|---|---|---|---:|---|---|---|---|---:|---:|---|"
    awk -F'\t' '{ mt = ($10 == 1) ? "" : " (mt)"
                  printf "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s%s |\n",
                         $1, $12, $2, $3, $4, $5, $6, ($13 == "" ? "none" : $13), $7, $8, $9, mt }' "$1"
    echo
    for h in all dev heldout unsplit; do
        [ $h = all ] || grep -q "	$h	" "$1" || grep -q "	$h\$" "$1" || continue
        for m in $2; do
            awk -F'\t' -v m="$m" -v h="$h" '$2 == m && (h == "all" || $12 == h) {
                    n++; d += ($4 == "yes"); t1 += ($5 == "yes"); t3 += ($6 == "yes")
                    if ($13 == "likely") { lk++; lr += ($5 == "yes") }
                    if ($10 == 1) { st++; gg += ($9 == "0") } }
                END { if (!n) exit
                      printf "%s%s: divergence %d/%d, top-1 %d/%d, top-3 %d/%d, likely %d (right %d: %s), good-vs-good exit 0 in %d/%d single-threaded\n",
                             (h == "all" ? "" : h " "), m, d, n, t1, n, t3, n, lk, lr,
                             (lk ? sprintf("%.0f%%", 100 * lr / lk) : "-"), gg, st }' "$1"
        done
    done
}

# rb_ttcc_flags [VALUES_CFLAGS]: the compiler and linker flags of each mode
# for ttcc (make realbugs, goodgood.sh, threadsuite.sh), exported with JOBS:
# libttcap linked whether the linker thinks it is needed or not, by an
# absolute rpath to the build $B; values mode's compile flags are -pg
# -mfentry and the gcc flags of $B/ttcap-values.pc unless given.
rb_ttcc_flags() {
    TTLINK="-L$B -Wl,-rpath,$B -Wl,--push-state,--no-as-needed -lttcap -Wl,--pop-state"
    TTCC_PLAIN_CFLAGS="-g -O2 -finstrument-functions -fno-plt"
    TTCC_VALUES_CFLAGS=${1:-"-g -O2 $(sed -n 's/^Cflags: -I[^ ]* //p' "$B/ttcap-values.pc")"}
    TTCC_PLAIN_LDFLAGS=$TTLINK
    TTCC_VALUES_LDFLAGS=$TTLINK
    export JOBS TTCC_PLAIN_CFLAGS TTCC_VALUES_CFLAGS TTCC_PLAIN_LDFLAGS TTCC_VALUES_LDFLAGS
}
