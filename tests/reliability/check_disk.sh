#!/bin/sh
# check_disk.sh - reliability check (d): the trace's file system fills up
# (an 8 MiB tmpfs mounted here; needs root, else skipped). The program's
# own output and exit status must match an untraced run, and the trace must
# read back and record where it was cut (a CUT record per cut thread).
B=$(cd "$1" && pwd)
d=$(mktemp -d) || exit 2
mkdir "$d/mnt"
if ! mount -t tmpfs -o size=8m tmpfs "$d/mnt" 2>/dev/null; then
    rmdir "$d/mnt"; rm -rf "$d"
    echo "RESULT d. full disk (8 MiB tmpfs)|cannot mount a tmpfs here (not root?)|skip"
    exit 0
fi
trap 'umount "$d/mnt"; rm -rf "$d"' EXIT
bad=""
# single thread: 40M calls of a deep chain, far more than 8 MiB of trace
"$B/fixtures/cap_calls" fib 32 > "$d/plain.out" 2>&1; prc=$?
TTCAP_OUT="$d/mnt/f.trc" "$B/fixtures/cap_calls" fib 32 > "$d/t.out" 2> "$d/t.err"; trc=$?
cmp -s "$d/plain.out" "$d/t.out" && [ $prc = $trc ] || bad="$bad output-or-status-differs($prc/$trc)"
"$B/tests/capture_check" "$d/mnt/f.trc" > "$d/chk" 2>&1 || bad="$bad unreadable"
cuts=$(grep -c '^cut thread=' "$d/chk")
ev=$(sed -n 's/^summary .* events=\([0-9]*\).*/\1/p' "$d/chk")
[ "$cuts" -ge 1 ] || bad="$bad no-CUT-record"
"$B/ttdump" --stats "$d/mnt/f.trc" > "$d/st" 2>&1 || bad="$bad ttdump-stats-failed"
grep -q '^trace cut: disk full after [0-9]* events' "$d/st" || bad="$bad stats-without-trace-cut"
"$B/ttdump" "$d/mnt/f.trc" 2>/dev/null | grep -q -i 'cut' || bad="$bad ttdump-shows-no-cut"
size=$(du -k "$d/mnt/f.trc" | cut -f1)
rm -f "$d/mnt/f.trc"
# 8 threads on a full disk
dd if=/dev/zero of="$d/mnt/fill" bs=1k count=7000 2>/dev/null
TTCAP_OUT="$d/mnt/g.trc" "$B/fixtures/cap_threads" 8 200000 > "$d/g.out" 2>"$d/g.err"; grc=$?
"$B/fixtures/cap_threads" 8 200000 > "$d/g0.out" 2>/dev/null; g0=$?
[ $grc = $g0 ] && cmp -s "$d/g.out" "$d/g0.out" || bad="$bad threads-output-differs($g0/$grc)"
"$B/tests/capture_check" "$d/mnt/g.trc" > "$d/chk2" 2>&1 || bad="$bad threads-unreadable"
cuts2=$(grep -c '^cut thread=' "$d/chk2")
[ "$cuts2" -ge 1 ] || bad="$bad threads-no-CUT"
ok=ok; [ -z "$bad" ] || ok=FAIL
echo "RESULT d. full disk (8 MiB tmpfs): output, trace readable, cut recorded|1 thread: ${size} KiB trace, $ev events, $cuts CUT; 8 threads: $cuts2 CUT; problems: ${bad:-none}|$ok"
[ $ok = ok ]
