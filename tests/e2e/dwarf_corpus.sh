#!/bin/sh
# dwarf_corpus.sh - the debug info forms compilers write, and damaged ones,
# never take ttdump or ttdiff down: a values-mode program (vd_lookup.c)
# built by gcc and clang with DWARF 4 and 5, split DWARF (with and without
# its .dwo), compressed sections, line tables only, no line table, no
# .debug_info, and with bytes of .debug_info, .debug_abbrev, .debug_line
# and .debug_str overwritten. For each: a good and a bad run recorded,
# ttdump reads both, ttdiff compares them (exit 0 or 1, never a signal or
# an assertion), and where the debug info is whole the value divergence
# is named. Under `make asan` the tools run with ASan. Exit 77 off x86-64.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
SRC=$(pwd)
BD=$(cd "$B" && pwd)
[ "$(uname -m)" = x86_64 ] || { echo "skip: values mode is x86-64 only"; exit 77; }
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
PG="-O1 -fno-inline -pg -mfentry -fno-plt"
cd "$T"
n=0

# build NAME CC FLAGS...: compile vd_lookup.c in its own folder, link
build() {
    name=$1 c=$2; shift 2
    mkdir "$name"
    (cd "$name" && $c $PG "$@" -c -o p.o "$SRC/fixtures/values/vd_lookup.c" &&
     cc ${SAN:-} -rdynamic -o p p.o -L"$BD" -lttcap -Wl,-rpath,"$BD") ||
        fail "build $name"
}
# damage NAME SECTION: overwrite 64 bytes in the middle of SECTION of NAME/p
damage() {
    python3 - "$1/p" "$2" <<'PY'
import subprocess, sys
path, sec = sys.argv[1], sys.argv[2]
out = subprocess.run(["readelf", "-SW", path], capture_output=True, text=True).stdout
for line in out.splitlines():
    f = line.replace("[ ", "[").split()
    if len(f) > 5 and f[1] == sec:
        off, size = int(f[4], 16), int(f[5], 16)
        with open(path, "r+b") as fp:
            fp.seek(off + size // 2)
            fp.write(bytes((i * 37 + 0xa5) & 0xff for i in range(min(64, size // 2))))
        sys.exit(0)
sys.exit("no section " + sec)
PY
}
# check NAME [named]: record a good and a bad run, ttdump both, ttdiff
check() {
    d=$1
    TTCAP_OUT="$T/$d/g.trc" "./$d/p" add 5 > /dev/null 2>&1 || true
    TTCAP_OUT="$T/$d/b.trc" "./$d/p" ad 5 > /dev/null 2>&1 || true
    [ -s "$d/g.trc" ] && [ -s "$d/b.trc" ] || fail "$d: no trace"
    for t in g b; do
        rc=0
        "$BD/ttdump" -n --color never "$d/$t.trc" > "$d/$t.dump" 2>&1 || rc=$?
        [ "$rc" = 0 ] || { tail -5 "$d/$t.dump"; fail "$d: ttdump exit $rc"; }
    done
    rc=0
    "$BD/ttdiff" --color never "$d/g.trc" "$d/b.trc" > "$d/diff" 2>&1 || rc=$?
    [ "$rc" -le 1 ] || { tail -5 "$d/diff"; fail "$d: ttdiff exit $rc"; }
    if grep -q 'Assertion\|AddressSanitizer\|runtime error' "$d/diff" "$d/g.dump" "$d/b.dump"; then
        fail "$d: a sanitizer report or an assertion"
    fi
    if [ "${2:-}" = named ]; then
        grep -q 'first divergence: `find_command` returned NULL in the bad run' "$d/diff" ||
            { head -20 "$d/diff"; fail "$d: value divergence not named"; }
    fi
    n=$((n + 1))
}

build gcc4 gcc -gdwarf-4;                  check gcc4 named
build gcc5 gcc -gdwarf-5;                  check gcc5 named
build gccsplit gcc -gdwarf-5 -gsplit-dwarf; check gccsplit named
build gccz gcc -g -gz;                     check gccz named
build gccg1 gcc -g1;                       check gccg1
build gccnoline gcc -g
objcopy --remove-section .debug_line gccnoline/p;  check gccnoline
build gccnoinfo gcc -g
objcopy --remove-section .debug_info gccnoinfo/p;  check gccnoinfo
build gccsplitgone gcc -gdwarf-5 -gsplit-dwarf
rm -f gccsplitgone/*.dwo;                  check gccsplitgone
for sec in .debug_info .debug_abbrev .debug_line .debug_str; do
    d=bad$(echo "$sec" | tr -d .)
    build "$d" gcc -g
    damage "$d" "$sec"
    check "$d"
done
if command -v clang >/dev/null; then
    build clang4 clang -gdwarf-4;                    check clang4 named
    build clang5 clang -gdwarf-5;                    check clang5 named
    build clangsplit clang -gdwarf-5 -gsplit-dwarf;  check clangsplit named
    build clangsplit4 clang -gdwarf-4 -gsplit-dwarf; check clangsplit4 named
    build clangz clang -g -gz;                       check clangz named
    build clangsplitgone clang -gdwarf-5 -gsplit-dwarf
    rm -f clangsplitgone/*.dwo;                      check clangsplitgone
    for sec in .debug_info .debug_str_offsets .debug_addr .debug_line; do
        d=clangbad$(echo "$sec" | tr -d .)
        build "$d" clang -gdwarf-5
        damage "$d" "$sec"
        check "$d"
    done
else
    echo "note: clang is not installed: its DWARF forms not tried"
fi
echo "ok: $n builds read without an abort"
