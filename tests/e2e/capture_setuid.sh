#!/bin/sh
# capture_setuid.sh - secure execution and trace file hardening.
# A setuid-root copy of cap_suid (shared and static libttcap) run as nobody
# with TTCAP_OUT set creates no file and traces nothing; the program's
# TTCAP_ALLOW_SECURE_EXEC() opt-in traces. Names that hold a symbolic
# link, FIFO, device or directory are refused by name, the program runs on.
# The setuid part needs root (to make a setuid-root file) and setpriv; it
# is skipped with a note otherwise.
B=$(cd "${1:-build}" && pwd) || exit 1
F=$B/fixtures
fail=0
d=$(mktemp -d /tmp/tt_suid.XXXXXX) || exit 1
trap 'rm -rf "$d"' EXIT
chmod 755 "$d"
bad() { echo "FAIL: $*"; fail=1; }

# ---- hardening of the trace name (any user) ----
cd "$d" || exit 1
mkfifo fifo; mkdir dir; ln -s "$d/target" link
for n in fifo:"a FIFO" dir:"a directory" link:"a symbolic link" /dev/null:"a device"; do
    name=${n%%:*}; kind=${n#*:}
    out=$(TTCAP_OUT=$name timeout 10 "$F/cap_suid" x 2>err) || bad "$name: exit $?"
    [ "$out" = "traced=0 euid=$(id -u)
arg x" ] || bad "$name: output '$out'"
    [ "$(wc -l < err)" = 1 ] || bad "$name: stderr not one line: $(cat err)"
    grep -q "$kind is there, refused; running untraced" err || bad "$name: stderr: $(cat err)"
done
[ -e target ] && bad "created the symbolic link's target"

if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null 2>&1; then
    echo "SKIP part: setuid checks (need root and setpriv)"
    exit $fail
fi
nob=$(id -u nobody 2>/dev/null) || { echo "SKIP part: setuid checks (no user nobody)"; exit $fail; }
nog=$(id -g nobody)
mkdir "$d/rootonly" "$d/open"
chmod 755 "$d/rootonly"; chmod 1777 "$d/open"
as_nobody() { setpriv --reuid="$nob" --regid="$nog" --clear-groups "$@"; }

for p in cap_suid_abs cap_suid_static cap_suid_optin; do
    cp "$F/$p" "$d/$p" && chown root:root "$d/$p" && chmod 4755 "$d/$p"
done
payload='* * * * * root touch /tmp/x'
for p in cap_suid_abs cap_suid_static; do
    for out in "$d/rootonly/cron" "$d/open/t.trc" "$d/open/%p.trc"; do
        rm -f "$d"/open/* "$d"/rootonly/*
        o=$(as_nobody env TTCAP_OUT="$out" TTCAP=1 TTCAP_TRACE=/x "$d/$p" "$payload" 2>"$d/err") ||
            bad "$p: exit $? ($(cat "$d/err"))"
        [ "$o" = "traced=0 euid=0
arg $payload" ] || bad "$p $out: output '$o' $(cat "$d/err")"
        [ -z "$(ls -A "$d/rootonly" "$d/open" | grep -v :)" ] ||
            bad "$p: a file was created: $(ls -lA "$d/rootonly" "$d/open")"
        grep -q "TTCAP_\* ignored, not traced" "$d/err" || bad "$p: no notice: $(cat "$d/err")"
    done
done
# a setuid program that becomes root for good (setuid(0)) and execs another
# traced program: that one is not in secure mode (real and effective ids
# are root), so the variables must not reach it (glibc strips LD_PRELOAD
# the same way): nothing traced, no file, no TTCAP_* in its environment
for p in cap_suid_abs cap_suid_static; do
    rm -f "$d"/open/* "$d"/rootonly/*
    o=$(as_nobody env TTCAP_OUT="$d/rootonly/cron" TTCAP=1 TTCAP_TRACE=/x TTCAP_STORE="$d/rootonly" \
        "$d/$p" --exec "$d/$p" --env "$payload" 2>"$d/err") || bad "$p --exec: exit $? ($(cat "$d/err"))"
    [ "$o" = "traced=0 euid=0
exec $d/$p
traced=0 euid=0
env TTCAP_OUT=(unset) TTCAP=(unset) TTCAP_TRACE=(unset)
arg $payload" ] || bad "$p --exec: output '$o' $(cat "$d/err")"
    [ -z "$(ls -A "$d/rootonly")" ] || bad "$p --exec: root created: $(ls -lA "$d/rootonly")"
    [ "$(grep -c . "$d/err")" = 1 ] || bad "$p --exec: stderr: $(cat "$d/err")"
done
# the same binaries run by root unprivileged-ly (no AT_SECURE): traced
o=$(TTCAP_OUT="$d/open/root.trc" "$d/cap_suid_static" a) || bad "root run"
[ "${o%%
*}" = "traced=1 euid=0" ] || bad "root run not traced: $o"
[ -s "$d/open/root.trc" ] || bad "root run: no trace"
# the program's opt-in: traced even setuid
o=$(as_nobody env TTCAP_OUT="$d/open/optin.trc" "$d/cap_suid_optin" b 2>"$d/err") || bad "optin exit"
[ "${o%%
*}" = "traced=1 euid=0" ] || bad "opt-in not traced: $o $(cat "$d/err")"
[ -s "$d/open/optin.trc" ] || bad "opt-in: no trace"
"$B/ttdump" "$d/open/optin.trc" 2>&1 | grep -q echo_arg || bad "opt-in trace lacks echo_arg"
[ $fail = 0 ] && echo "capture_setuid: ok"
exit $fail
