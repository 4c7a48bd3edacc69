#!/bin/sh
# What ttdump and libttcap print about names (issue 37 item 9): a module
# unload names the module unloaded, not the program; a file name with
# escape codes and newlines is escaped in ttdump's first line, in the
# tools' error lines and in libttcap's stderr line; a thread that never
# got a chunk shows no times; libttcap keeps no module copy in a
# .build-id folder others can write (a reader would ignore it), and says
# so, and the reader says when it ignores such a copy.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
BD=$(cd "$B" && pwd)
T=$(mktemp -d)
trap 'chmod -R u+w "$T" 2>/dev/null; rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -q -- "$1" "$2" || { cat "$2"; fail "no '$1' in $2"; }; }
hasnt() { ! grep -q -- "$1" "$2" || { cat "$2"; fail "'$1' in $2"; }; }
noesc() { ! LC_ALL=C grep -qaP '\x1b|\xc2[\x80-\x9f]' "$1" || { cat -A "$1" | head; fail "raw escape in $2"; }; }

# ---- module unload: the module it unloads
TTCAP_OUT="$T/dl.trc" "$BD/fixtures/cap_dlopen" "$BD/fixtures/cap_plugin.so" >/dev/null 2>&1 || true
"$BD/ttdump" -n --color never "$T/dl.trc" > "$T/dl" 2>/dev/null
has 'module-unload 0x[0-9a-f]* .*cap_plugin.so$' "$T/dl"
hasnt 'module-unload .*fixtures/cap_dlopen$' "$T/dl"
"$BD/ttdump" -n --color never fixtures/traces/basic.trc > "$T/basic" 2>/dev/null
has 'module-unload 0x7ffff7dd0000 /lib/x86_64-linux-gnu/libc.so.6' "$T/basic"

# ---- hostile file names
bad="$T/$(printf 'x\033[31m\nred\302\233.trc')"
cp fixtures/traces/basic.trc "$bad"
"$BD/ttdump" --color never "$bad" > "$T/o1" 2>/dev/null
noesc "$T/o1" "ttdump's output"
sed -n 2p "$T/o1" | grep -q '^header:$' || { head -3 "$T/o1"; fail "ttdump's first line split"; }
head -c 100 fixtures/traces/basic.trc > "$bad"
rc=0; "$BD/ttdump" "$bad" > "$T/o2" 2>&1 || rc=$?
[ $rc = 2 ] || fail "ttdump on a cut hostile name: exit $rc"
noesc "$T/o2" "ttdump's error line"
[ "$(wc -l < "$T/o2")" = 1 ] || { cat -A "$T/o2"; fail "ttdump's error: want one line"; }
has 'ttdump: .*x\\x1b\[31m\\nred\\xc2\\x9b.trc: offset 100' "$T/o2"
rc=0; "$BD/ttdiff" fixtures/traces/basic.trc "$bad" > "$T/o3" 2>&1 || rc=$?
[ $rc = 2 ] || fail "ttdiff on a cut hostile name: exit $rc"
noesc "$T/o3" "ttdiff's error line"
[ "$(wc -l < "$T/o3")" = 1 ] || { cat -A "$T/o3"; fail "ttdiff's error: want one line"; }
# libttcap: the trace cannot be created (no such folder)
TTCAP_OUT="$T/$(printf 'no\033]0;t\007d\nir')/t.trc" "$BD/fixtures/cap_calls" > /dev/null 2> "$T/o4" || true
noesc "$T/o4" "libttcap's stderr line"
has "^ttcap: cannot create trace '.*no\\\\x1b\]0;t\\\\x07d\\\\x0air/t.trc'" "$T/o4"
[ "$(grep -c . "$T/o4")" = 1 ] || { cat -A "$T/o4"; fail "libttcap: want one line"; }

# ---- threads without chunks: no times
"$BD/rel/rel_gen" cut "$T/g.trc" "$T/b.trc" 50 50 > /dev/null
python3 - "$T/g.trc" "$T/gap.trc" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], "rb").read())
for off in range(4096, len(b), 4096):          # every chunk: thread 0 -> 3
    if struct.unpack_from("<I", b, off)[0]:
        struct.pack_into("<I", b, off + 4, 3)
open(sys.argv[2], "wb").write(b)
PY
"$BD/ttdump" --color never "$T/gap.trc" > "$T/o5" 2>&1
has '^  \[1\] no chunks (never traced' "$T/o5"
hasnt 'start +[0-9]\{9,\}' "$T/o5"

# ---- a .build-id folder others can write: no copy, said
mkdir -p "$T/ww/.build-id"
chmod 0777 "$T/ww/.build-id"
[ "$(id -u)" = 0 ] && chown 65534 "$T/ww/.build-id"
# (a copy of cap_calls, moved away below: the tests run in parallel, and
# others run the build's cap_calls meanwhile)
cp "$BD/fixtures/cap_calls" "$T/prog"
TTCAP_OUT="$T/ww/c.trc" LD_LIBRARY_PATH="$BD" "$T/prog" > /dev/null 2> "$T/o6" || true
has "^ttcap: $T/ww/.build-id is another user's, or others can write it: no copies" "$T/o6"
[ -z "$(find "$T/ww/.build-id" -type f)" ] || { find "$T/ww/.build-id"; fail "a copy was made"; }
# the reader says why it ignores a copy there (one put there by hand)
id=$("$BD/ttdump" --color never "$T/ww/c.trc" | sed -n 's/.*build-id \([0-9a-f]*\) .*\/prog .*/\1/p' | head -1)
[ -n "$id" ] || fail "no build-id of prog in the trace"
mkdir -p "$T/ww/.build-id/$(echo "$id" | cut -c1-2)"
chmod 0777 "$T/ww/.build-id/$(echo "$id" | cut -c1-2)"
mv "$T/prog" "$T/ww/.build-id/$(echo "$id" | cut -c1-2)/$(echo "$id" | cut -c3-)"
rc=0; "$BD/ttdump" --color never "$T/ww/c.trc" > "$T/o7" 2>&1 || rc=$?
[ $rc = 0 ] || { cat "$T/o7"; fail "ttdump: exit $rc"; }
has "a copy in $T/ww/.build-id.*which others can write: not used" "$T/o7"
echo "ok: unloads named, hostile names escaped, chunkless threads without times, no untrusted copies"
