#!/bin/sh
# capture_small.sh - small traces for small processes (issue 34, item 5):
# a trace's disk after a clean end is its content plus a little (the file
# is cut after its last record, a thread's unused chunk space is given
# back), 200 processes of about 500 events take at most 20 MB together
# (as lone traces, and as one recorded tree with its process table and
# environments, the measure), a
# threaded run cut the same way reads back whole, and a process killed
# mid-run keeps the slot layout a reader reads as before.
B=$(cd "${1:-build}" && pwd) || exit 1
P=$B/fixtures/cap_calls
CHK=$B/tests/capture_check
d=$(mktemp -d "$B/capture_small.XXXXXX") || exit 1
trap 'rm -rf "$d"' EXIT
cd "$d" || exit 1
fail=0
has() { grep -qx -- "$2" "$1" || { echo "FAIL: $1 lacks: $2"; fail=1; }; }
hasre() { grep -q -- "$2" "$1" || { echo "FAIL: $1 lacks /$2/"; fail=1; }; }

# one process of 508 events: content plus at most 64 KiB, apparent and on disk
TTCAP_OUT=one.trc TTCAP_STORE=none "$P" calls 50 || fail=1
"$CHK" one.trc > one.out || { echo "FAIL: check one"; fail=1; }
has one.out "count thread=0 func=leaf enter=100 exit=100"
hasre one.out "^summary closed=1 crashed=0 events=[0-9]* lost=0 damaged=0 chunks=1 notices=0"
sz=$(stat -c %s one.trc)
du1=$(du -k one.trc | cut -f1)
[ "$sz" -le $((64 * 1024)) ] || { echo "FAIL: 508-event trace is $sz B"; fail=1; }
[ "$du1" -le 64 ] || { echo "FAIL: 508-event trace takes $du1 KiB of disk"; fail=1; }

# 200 processes of about 500 events in one folder: at most 20 MB
mkdir many
i=0
while [ $i -lt 200 ]; do
    TTCAP_OUT=many/p$i.trc "$P" calls 50 > /dev/null || { echo "FAIL: run $i"; fail=1; }
    i=$((i + 1))
done
kb=$(du -sk many | cut -f1)
[ "$kb" -le 20480 ] || { echo "FAIL: 200 traces of 508 events take $kb KiB"; fail=1; }
echo "200 processes x 508 events: $kb KiB on disk (with the store of the binary)"
# libttcap preloaded into sh (an ASan libttcap in the sanitizer build,
# into a program without ASan): as in ttrec_trees.sh
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0:detect_leaks=0" \
"$B/ttrec" -q -o tree/ -- sh -c 'i=0; while [ $i -lt 200 ]; do "$0" calls 50 > /dev/null; i=$((i + 1)); done' "$P" ||
    { echo "FAIL: the tree of 200 processes"; fail=1; }
kb=$(du -sk tree | cut -f1)
n=$(ls tree/*.trc | wc -l)
[ "$n" = 200 ] && [ -s tree/processes.ttp ] || { echo "FAIL: tree: $n traces"; fail=1; }
[ "$kb" -le 20480 ] || { echo "FAIL: a tree of 200 processes of 508 events takes $kb KiB"; fail=1; }
echo "one tree of 200 processes x 508 events (+ sh): $kb KiB on disk, table $(stat -c %s tree/processes.ttp) B"

# threads: each thread's unused chunk space is punched out, the file is
# cut after the last record, and every event reads back
TTCAP_OUT=thr.trc TTCAP_STORE=none "$B/fixtures/cap_threads" 8 200 > /dev/null || fail=1
"$CHK" thr.trc > thr.out || { echo "FAIL: check threads"; fail=1; }
hasre thr.out "^summary closed=1 crashed=0 .* lost=0 damaged=0 "
grep -q '^cutinfo events=0 threads=0 ' thr.out || { echo "FAIL: threaded trace reads as cut"; fail=1; }
kt=$(du -k thr.trc | cut -f1)
[ "$kt" -le $((9 * 16 + 64)) ] || { echo "FAIL: 9-thread small trace takes $kt KiB"; fail=1; }

# a killed process: no clean end, the slot layout as before, all read back
TTCAP_OUT=kill.trc TTCAP_STORE=none "$P" kill 20000 2>/dev/null
"$CHK" kill.trc > kill.out || { echo "FAIL: check kill"; fail=1; }
has kill.out "count thread=0 func=leaf enter=20000 exit=20000"
hasre kill.out "^summary closed=0 .* lost=0 damaged=0 "
[ $(( ($(stat -c %s kill.trc) - 4096) % 262144 )) = 0 ] ||
    { echo "FAIL: a killed process's trace is not whole slots"; fail=1; }
exit $fail
