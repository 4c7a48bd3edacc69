#!/bin/sh
# check_stages.sh - prove the stage rule inside one room (make check-stages,
# run by make test). A room (diff/, capture/) has a map, STAGESFILE, with
# one line per stage, bottom first:
#
#     LEVEL NAME: file.c file.c ...      (LEVEL 0 = bottom; # comments)
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
#       that the map does not place, and a mapped file with no source.
# Objects without a source beside STAGESFILE (the relocatable libttcap.o,
# leftovers of a renamed file) are not the room's and are skipped.
#
# Usage: check_stages.sh ROOM_OBJDIR STAGESFILE
#        check_stages.sh --probe WORKDIR   (the check on generated object
#        sets: an upward edge and a cycle must fail, a clean set must pass)
# Environment: CC (for --probe), NM.
set -u
NM=${NM:-nm}

# stages OBJDIR STAGESFILE: 0 if the room keeps the rule, 1 if not
stages() {
    objdir=$1 map=$2
    src=$(dirname "$map")
    room=$(basename "$src")
    tmp=$(mktemp -d) || return 1
    # the map: "file level name" per file
    awk -v m="$map" '
        { sub(/#.*/, "") }
        NF == 0 { next }
        {
            if ($1 !~ /^[0-9]+$/ || $2 !~ /:$/) {
                printf "check-stages: %s:%d: want \"LEVEL NAME: file.c ...\"\n", m, NR
                bad = 1; next
            }
            name = $2; sub(/:$/, "", name)
            for (i = 3; i <= NF; i++) {
                if ($i in seen) {
                    printf "check-stages: %s: %s placed twice\n", m, $i; bad = 1
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
    gen ok "a: b:a c:a,b" "0 base: a.c
1 mid: b.c
2 top: c.c" || return 1
    r=0
    for room in up cycle unmapped; do
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
    grep -q 'cycle a.c -> b.c -> a.c\|cycle b.c -> a.c -> b.c' "$w/cycle.log" ||
        { echo "check-stages: probe: cycle not reported:"; cat "$w/cycle.log"; r=1; }
    if ! stages "$w/ok" "$w/ok/STAGES" > "$w/ok.log" 2>&1; then
        echo "check-stages: probe: the clean room failed:"
        cat "$w/ok.log"
        r=1
    fi
    return "$r"
}

if [ "${1:-}" = --probe ]; then
    [ $# = 2 ] || { echo "usage: check_stages.sh --probe WORKDIR" >&2; exit 2; }
    probe "$2" || exit 1
    echo "check-stages: probe: upward edge, cycle and unmapped object caught"
    exit 0
fi
[ $# = 2 ] || { echo "usage: check_stages.sh ROOM_OBJDIR STAGESFILE" >&2; exit 2; }
[ -d "$1" ] || { echo "check-stages: $1: no such folder" >&2; exit 2; }
[ -f "$2" ] || { echo "check-stages: $2: no such file" >&2; exit 2; }
stages "$1" "$2" || exit 1
echo "check-stages: $(basename "$(dirname "$2")"): ok ($2)"
