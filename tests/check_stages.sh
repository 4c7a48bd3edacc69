#!/bin/sh
# check_stages.sh - prove the stage rule inside one room (make check-stages,
# run by make test). A room (diff/, capture/) has a map, STAGESFILE, with
# one line per stage, bottom first:
#
#     LEVEL NAME: file.c file.c ...      (LEVEL 0 = bottom; # comments)
#     type TYPE: LEVEL                     (TYPE used from LEVEL up only)
#     result TYPE: HEADER                  (a stage's result type)
#
# From the room's objects (ROOM_OBJDIR/*.o) the check reads which global
# symbols each defines and which it leaves undefined (nm), links every
# undefined symbol to the object of the room that defines it, and so gets
# the room's file graph (calls and data references alike). It FAILS, with
# one line per fault, on
#   (a) an edge from a file of a lower level to a file of a higher one
#       (a stage calls up into a stage built on it),
#   (b) any cycle between files, even inside one level,
#   (c) an object built from a source of the room (beside STAGESFILE)
#       that the map does not place, and a mapped file with no source,
#   (d) a "type" line broken: a file below LEVEL whose debug info names the
#       type (a struct, union or typedef of that name: declared, pointed to
#       or passed is enough), or no object at LEVEL or above naming it (no
#       debug info: the check would read nothing),
#   (e) with ROOM_CFLAGS set (the room's compile flags): a cast that takes
#       const away compiles with them (a stage's result is const once
#       returned; no stage may write into another's),
#   (f) a "result" line broken: the struct TYPE (typedef struct TYPE {...}
#       in HEADER, beside STAGESFILE) missing, or a member of it that
#       points to something not const (handed on as const, with (e) a
#       result can then be written by the stage that made it only).
# Objects without a source beside STAGESFILE (the relocatable libttcap.o,
# leftovers of a renamed file) are not the room's and are skipped.
#
# Usage: check_stages.sh ROOM_OBJDIR STAGESFILE
#        check_stages.sh --probe WORKDIR   (the check on generated object
#        sets: an upward edge and a cycle must fail, a clean set must pass)
# Environment: CC (for --probe and ROOM_CFLAGS), NM, READELF, ROOM_CFLAGS.
set -u
NM=${NM:-nm}
READELF=${READELF:-readelf}

# stages OBJDIR STAGESFILE: 0 if the room keeps the rule, 1 if not
stages() {
    objdir=$1 map=$2
    src=$(dirname "$map")
    room=$(basename "$src")
    tmp=$(mktemp -d) || return 1
    # the map: "file level name" per file
    awk -v m="$map" -v room="$room" -v types="$tmp/types" -v results="$tmp/results" '
        { sub(/#.*/, "") }
        NF == 0 { next }
        $1 == "result" {
            if (NF != 3 || $2 !~ /:$/) {
                printf "check-stages: %s:%d: want \"result TYPE: HEADER\"\n", m, NR > "/dev/stderr"
                bad = 1; next
            }
            t = $2; sub(/:$/, "", t)
            print t, $3 > results
            next
        }
        $1 == "type" {
            if (NF != 3 || $2 !~ /:$/ || $3 !~ /^[0-9]+$/) {
                printf "check-stages: %s:%d: want \"type TYPE: LEVEL\"\n", m, NR > "/dev/stderr"
                bad = 1; next
            }
            t = $2; sub(/:$/, "", t)
            print t, $3 > types
            next
        }
        {
            if ($1 !~ /^[0-9]+$/ || $2 !~ /:$/) {
                printf "check-stages: %s:%d: want \"LEVEL NAME: file.c ...\"\n", m, NR > "/dev/stderr"
                bad = 1; next
            }
            name = $2; sub(/:$/, "", name)
            for (i = 3; i <= NF; i++) {
                if ($i in seen) {
                    printf "check-stages: %s: %s placed twice in %s\n", room, $i, m > "/dev/stderr"; bad = 1
                }
                seen[$i] = 1
                print $i, $1, name
            }
        }
        END { exit bad }' "$map" > "$tmp/map" || { rm -rf "$tmp"; return 1; }
    fail=0
    # mapped files must exist; the room's objects must be mapped
    while read -r f lv nm_; do
        [ -f "$src/$f" ] || { echo "check-stages: $room: $f in $map has no source"; fail=1; }
    done < "$tmp/map"
    : > "$tmp/syms"
    for o in "$objdir"/*.o; do
        [ -f "$o" ] || continue
        b=$(basename "$o" .o)
        f=
        for ext in c S; do [ -f "$src/$b.$ext" ] && f=$b.$ext; done
        [ -n "$f" ] || continue
        if ! awk -v f="$f" '$1 == f { found = 1 } END { exit !found }' "$tmp/map"; then
            echo "check-stages: $room: $f is in no stage of $map"
            fail=1
            continue
        fi
        # "D sym" defined, "U sym" undefined (weak undefined: w, v)
        "$NM" -g "$o" | awk -v f="$f" '
            NF == 2 && ($1 == "U" || $1 == "w" || $1 == "v") { print f, "U", $2; next }
            NF == 3 && $2 != "U" { print f, "D", $3 }' >> "$tmp/syms" ||
            { echo "check-stages: nm $o failed"; fail=1; }
    done
    # the graph, then (a) and (b)
    awk -v room="$room" '
        FILENAME ~ /map$/ { lv[$1] = $2; st[$1] = $3; next }
        $2 == "D" { def[$3] = $1; next }
        { use[++nu] = $1; sym[nu] = $3 }
        END {
            for (i = 1; i <= nu; i++) {
                a = use[i]; b = def[sym[i]]
                if (b == "" || b == a || (a SUBSEP b) in edge) continue
                edge[a, b] = sym[i]
                out[a] = out[a] " " b
                if (lv[a] < lv[b]) {
                    printf "check-stages: %s: upward edge %s (%d %s) -> %s (%d %s) via %s\n",
                        room, a, lv[a], st[a], b, lv[b], st[b], sym[i]
                    bad = 1
                }
            }
            # cycles: depth-first search, colour 1 = on the path
            for (v in lv) if (!(v in col)) bad = dfs(v, 0) || bad
            exit bad
        }
        function dfs(v, d,    n, k, w, i, s, c, r) {
            col[v] = 1; path[d] = v; r = 0
            n = split(out[v], w, " ")
            for (k = 1; k <= n; k++) {
                c = (w[k] in col) ? col[w[k]] : 0
                if (c == 1) {
                    for (i = 0; path[i] != w[k]; i++) ;
                    s = ""
                    for (; i <= d; i++) s = s path[i] " -> "
                    printf "check-stages: %s: cycle %s%s (%s)\n", room, s, w[k], edge[v, w[k]]
                    r = 1
                } else if (c == 0)
                    r = dfs(w[k], d + 1) || r
            }
            col[v] = 2
            return r
        }' "$tmp/map" "$tmp/syms" || fail=1
    # (d) the types kept above a level
    [ -f "$tmp/types" ] || : > "$tmp/types"
    while read -r ty tl; do
        above=0
        for o in "$objdir"/*.o; do
            [ -f "$o" ] || continue
            b=$(basename "$o" .o)
            f=$(awk -v b="$b" '$1 == b ".c" || $1 == b ".S" { print $1, $2 }' "$tmp/map")
            [ -n "$f" ] || continue
            lv=${f#* } f=${f% *}
            "$READELF" --debug-dump=info "$o" 2>/dev/null | awk -v t="$ty" '
                /DW_TAG_/ { tag = $0; sub(/.*\(DW_TAG_/, "", tag); sub(/\).*/, "", tag) }
                /DW_AT_name/ && (tag == "structure_type" || tag == "union_type" ||
                                 tag == "typedef") {
                    n = $0; sub(/.*: /, "", n)
                    if (n == t) { found = 1; exit }
                }
                END { exit !found }' || continue
            if [ "$lv" -lt "$tl" ]; then
                echo "check-stages: $room: $f (level $lv) uses type $ty, kept to level $tl and up"
                fail=1
            else
                above=1
            fi
        done
        [ "$above" = 1 ] || {
            echo "check-stages: $room: no object of level $tl or up names type $ty (no debug info?)"
            fail=1
        }
    done < "$tmp/types"
    # (f) the results hold only pointers to const
    [ -f "$tmp/results" ] || : > "$tmp/results"
    while read -r ty hdr; do
        if [ ! -f "$src/$hdr" ]; then
            echo "check-stages: $room: result $ty: no header $hdr"
            fail=1
            continue
        fi
        awk -v t="$ty" -v room="$room" -v h="$hdr" '
            $0 ~ "^typedef struct " t " [{]" { on = 1; found = 1; next }
            on && $0 ~ "^[}]" { on = 0 }
            on {
                line = $0
                if (inc) {                          # inside a comment
                    if (line !~ /[*]\//) next
                    sub(/.*[*]\//, "", line); inc = 0
                }
                gsub(/\/[*]([^*]|[*][^\/])*[*]\//, "", line)  # whole comments
                if (line ~ /\/[*]/) { sub(/\/[*].*/, "", line); inc = 1 }
                if (line !~ /[*]/) next
                if (line !~ /^[ \t]*const[ \t]/) {
                    gsub(/^[ \t]+|[ \t]+$/, "", line)
                    printf "check-stages: %s: result %s (%s): member not const: %s\n", room, t, h, line
                    bad = 1
                }
            }
            END {
                if (!found) {
                    printf "check-stages: %s: result %s: no \"typedef struct %s {\" in %s\n", room, t, t, h
                    bad = 1
                }
                exit bad
            }' "$src/$hdr" || fail=1
    done < "$tmp/results"
    # (e) the room's flags refuse a cast that takes const away
    if [ -n "${ROOM_CFLAGS:-}" ]; then
        printf '%s\n' 'struct r { int v; };' 'void w(const struct r *p);' \
            'void w(const struct r *p) { ((struct r *)p)->v = 1; }' > "$tmp/cast.c"
        if ${CC:-cc} $ROOM_CFLAGS -fsyntax-only "$tmp/cast.c" > /dev/null 2>&1; then
            echo "check-stages: $room: a cast that takes const away compiles with ROOM_CFLAGS (want -Werror=cast-qual)"
            fail=1
        fi
    fi
    rm -rf "$tmp"
    return "$fail"
}

# probe WORKDIR: generated rooms that must fail (an upward edge, a cycle
# inside one level, an unmapped object) and one that must pass
probe() {
    w=$1
    CC=${CC:-cc}
    rm -rf "$w" && mkdir -p "$w" || return 1
    # gen ROOM "file:calls file:calls ..." MAP
    gen() {
        mkdir -p "$w/$1"
        for fc in $2; do
            f=${fc%%:*} calls=${fc#*:}
            {
                for c in $(echo "$calls" | tr , ' '); do echo "void $c(void);"; done
                echo "void $f(void);"
                echo "void $f(void) {"
                for c in $(echo "$calls" | tr , ' '); do echo "    $c();"; done
                echo "}"
            } > "$w/$1/$f.c"
            "$CC" -c -o "$w/$1/$f.o" "$w/$1/$f.c" || return 1
        done
        printf '%s\n' "$3" > "$w/$1/STAGES"
    }
    gen up "low:high high:" "0 low: low.c
1 high: high.c" || return 1
    gen cycle "a:b b:a top:a" "0 base: a.c b.c
1 top: top.c" || return 1
    gen unmapped "a: b:a" "0 base: a.c" || return 1
    gen twice "a: b:a" "0 base: a.c
1 top: b.c a.c" || return 1
    gen ok "a: b:a c:a,b" "0 base: a.c
1 mid: b.c
2 top: c.c" || return 1
    # a type kept to the top: used below it, used nowhere, used at the top only
    gent() {
        mkdir -p "$w/$1"
        printf '%s\n' 'struct st { int x; };' 'int top(struct st *s);' \
            'int top(struct st *s) { return s->x; }' > "$w/$1/top.c"
        if [ "$2" = low ]; then
            printf '%s\n' 'struct st;' 'int low(struct st *s);' \
                'int low(struct st *s) { return s != 0; }' > "$w/$1/low.c"
        else
            printf '%s\n' 'int low(int v);' 'int low(int v) { return v; }' > "$w/$1/low.c"
        fi
        [ "$2" = none ] && printf '%s\n' 'int top(int v);' 'int top(int v) { return v; }' > "$w/$1/top.c"
        for f in low top; do "$CC" -g -c -o "$w/$1/$f.o" "$w/$1/$f.c" || return 1; done
        printf '%s\n' "0 base: low.c" "1 top: top.c" "type st: 1" > "$w/$1/STAGES"
    }
    gent typelow low && gent typenone none && gent typeok ok || return 1
    # a stage's result type: a member pointing to non-const must fail
    genr() {
        mkdir -p "$w/$1"
        printf '%s\n' 'int a(void);' 'int a(void) { return 0; }' > "$w/$1/a.c"
        "$CC" -c -o "$w/$1/a.o" "$w/$1/a.c" || return 1
        printf '%s\n' 'typedef struct res {' "    $2 *p;   /* a result */" \
            '    int n;' '} res;' > "$w/$1/res.h"
        printf '%s\n' "0 base: a.c" "result res: res.h" > "$w/$1/STAGES"
    }
    genr resmut int && genr resok "const int" || return 1
    r=0
    for room in up cycle unmapped twice typelow typenone resmut; do
        if stages "$w/$room" "$w/$room/STAGES" > "$w/$room.log" 2>&1; then
            echo "check-stages: probe: the $room room passed, want a failure"
            r=1
        elif ! grep -q "check-stages: $room: " "$w/$room.log"; then
            echo "check-stages: probe: the $room room failed without naming why:"
            cat "$w/$room.log"
            r=1
        fi
    done
    grep -q 'upward edge low.c (0 low) -> high.c (1 high) via high' "$w/up.log" ||
        { echo "check-stages: probe: upward edge not reported:"; cat "$w/up.log"; r=1; }
    grep -q 'check-stages: twice: a.c placed twice in' "$w/twice.log" ||
        { echo "check-stages: probe: a file placed twice not reported:"; cat "$w/twice.log"; r=1; }
    grep -q 'cycle a.c -> b.c -> a.c\|cycle b.c -> a.c -> b.c' "$w/cycle.log" ||
        { echo "check-stages: probe: cycle not reported:"; cat "$w/cycle.log"; r=1; }
    grep -q 'low.c (level 0) uses type st, kept to level 1 and up' "$w/typelow.log" ||
        { echo "check-stages: probe: type used below its level not reported:"; cat "$w/typelow.log"; r=1; }
    grep -q 'no object of level 1 or up names type st' "$w/typenone.log" ||
        { echo "check-stages: probe: type named nowhere not reported:"; cat "$w/typenone.log"; r=1; }
    grep -q 'result res (res.h): member not const: int \*p;' "$w/resmut.log" ||
        { echo "check-stages: probe: a result's non-const member not reported:"; cat "$w/resmut.log"; r=1; }
    for room in ok typeok resok; do
        if ! stages "$w/$room" "$w/$room/STAGES" > "$w/$room.log" 2>&1; then
            echo "check-stages: probe: the clean room $room failed:"
            cat "$w/$room.log"
            r=1
        fi
    done
    # (e): flags without -Werror=cast-qual must fail, with it pass
    if ROOM_CFLAGS="-Wall" stages "$w/ok" "$w/ok/STAGES" > "$w/cast.log" 2>&1 ||
       ! grep -q 'a cast that takes const away compiles' "$w/cast.log"; then
        echo "check-stages: probe: a const-removing cast not caught:"; cat "$w/cast.log"; r=1
    fi
    if ! ROOM_CFLAGS="-Wcast-qual -Werror=cast-qual" stages "$w/ok" "$w/ok/STAGES" \
            > "$w/nocast.log" 2>&1; then
        echo "check-stages: probe: -Werror=cast-qual flags failed:"; cat "$w/nocast.log"; r=1
    fi
    return "$r"
}

if [ "${1:-}" = --probe ]; then
    [ $# = 2 ] || { echo "usage: check_stages.sh --probe WORKDIR" >&2; exit 2; }
    probe "$2" || exit 1
    echo "check-stages: probe: upward edge, cycle, unmapped object, a file placed twice, type below its level, type named nowhere, a result with a non-const member and a const-removing cast caught"
    exit 0
fi
[ $# = 2 ] || { echo "usage: check_stages.sh ROOM_OBJDIR STAGESFILE" >&2; exit 2; }
[ -d "$1" ] || { echo "check-stages: $1: no such folder" >&2; exit 2; }
[ -f "$2" ] || { echo "check-stages: $2: no such file" >&2; exit 2; }
stages "$1" "$2" || exit 1
echo "check-stages: $(basename "$(dirname "$2")"): ok ($2)"
