#!/bin/sh
# check_modes.sh - reliability check (j): the modes of every file and
# folder libttcap writes, under umask 000 (the most permissive a caller can
# hand it). Traces (the program's, a forked child's, an exec'd image's) are
# 0600; the copies of binaries kept in <store>/.build-id are never readable
# by group or others when the binary is not (a private 0700 program stays
# private), and no folder it makes is writable by others.
B=$(cd "$1" && pwd)
d=$(mktemp -d) || exit 2
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 2
bad=""; n=0
mkdir priv out fo pub
cp "$B/fixtures/cap_calls" priv/prog && chmod 0700 priv/prog
cp "$B/fixtures/cap_calls" pub/prog && chmod 0755 pub/prog
mode() { stat -c %a "$1"; }
( umask 000; export LD_LIBRARY_PATH=$B
  TTCAP_OUT=$d/out/t.trc ./priv/prog calls 10 > /dev/null
  TTCAP_OUT=$d/fo/m.%p.trc "$B/rel/rel_life" mtfork 10 > /dev/null
  TTCAP_OUT=$d/fo/e.trc "$B/rel/rel_life" exec 10 > /dev/null
  TTCAP_STORE=$d/st TTCAP_OUT=$d/fo/p.trc ./pub/prog calls 10 > /dev/null )
for f in out/*.trc* fo/*.trc*; do
    n=$((n + 1))
    [ "$(mode "$f")" = 600 ] || bad="$bad $f:$(mode "$f")"
done
[ "$n" -ge 5 ] || bad="$bad only-$n-traces"
# the private program's copy: no bit for group or others
priv=$(find out/.build-id -type f | head -1)
if [ -z "$priv" ]; then bad="$bad no-copy-of-the-private-binary"
else
    for f in $(find out/.build-id -type f); do
        m=$(mode "$f"); case $m in ?00) ;; *) bad="$bad $f:$m" ;; esac
    done
fi
# the public program's copy may be readable by all, never writable
for f in $(find st -type f 2>/dev/null); do
    m=$(mode "$f"); case $m in [4-7][04][04]) ;; *) bad="$bad $f:$m" ;; esac
done
for f in $(find out fo st -type d 2>/dev/null); do
    m=$(mode "$f"); case $m in *[2367]) bad="$bad dir-$f:$m" ;; esac
done
ok=ok; [ -z "$bad" ] || ok=FAIL
echo "RESULT j. file modes (umask 000): traces, .build-id copies, folders|$n traces 0600, copy of a 0700 binary: ${priv:+$(mode "$priv")}${bad:+; problems:$bad}|$ok"
[ $ok = ok ]
