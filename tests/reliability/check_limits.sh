#!/bin/sh
# check_limits.sh - reliability check (h): resource limits around the
# trace. RLIMIT_FSIZE (prlimit --fsize; CI runners and systemd units set
# it): a trace that would grow past it is cut as on a full disk, never a
# SIGXFSZ death; the program's output and exit status match an untraced
# run, and every call is either in the trace or counted as lost (exactly:
# recorded + lost = the calls made). Limits below one growth step, below one
# chunk (untraced, one line) and below the size of the binary kept in
# .build-id are tried too. Full disk with many threads and large chunks (a
# tmpfs, needs root, else that part is skipped): every thread that existed
# is in the trace (its chunks, or the header's cut table) with what it
# lost, and the run costs about what an untraced one does (no stall).
# $2 = full (512 MiB tmpfs, 64 MiB chunks, 64 threads) or short.
B=$(cd "$1" && pwd); MODE=${2:-short}
F=$B/fixtures; CHK=$B/tests/capture_check
d=$(mktemp -d) || exit 2
trap 'umount "$d/mnt" 2>/dev/null; rm -rf "$d"' EXIT
cd "$d" || exit 2
bad=""; fig=""
n=30; calls=2692537             # fib(30): 2 * F(31) - 1 calls
"$F/cap_calls" fib $n > plain.out 2>&1; prc=$?
# total lost of a trace (checker output $1): the reader's summary counts the
# LOST records and the header's cut count (ttf_summary.lost_events includes
# cut_events since libttfmt 2.3), so it is the whole loss
lost_of() {
    l=$(sed -n 's/^summary .* lost=\([0-9]*\).*/\1/p' "$1")
    echo "${l:-0}"
}
hooks_of() { sed -n 's/^count thread=[0-9]* func=[^ ]* enter=\([0-9]*\) exit=\([0-9]*\)/\1 \2/p' "$1" |
             awk '{ s += $1 + $2 } END { print s + 0 }'; }
if ! command -v prlimit >/dev/null 2>&1; then
    fig="RLIMIT_FSIZE: no prlimit, skipped;"
else
    # 4 MiB: below the first growth step (16 chunks of 256 KiB), far below the trace
    TTCAP_OUT=$d/f.trc prlimit --fsize=4194304 "$F/cap_calls" fib $n > f.out 2> f.err; rc=$?
    [ $rc = $prc ] && cmp -s plain.out f.out || bad="$bad fsize-4M:exit-$rc-want-$prc"
    "$CHK" f.trc > f.chk 2>&1 || bad="$bad fsize-4M:unreadable"
    got=$(( $(hooks_of f.chk) + $(lost_of f.chk) ))
    want=$((2 * calls + 2))     # fib's and main's ENTER and EXIT
    [ "$got" = "$want" ] || bad="$bad fsize-4M:recorded+lost=$got-want-$want"
    grep -q '^cut thread=0' f.chk || bad="$bad fsize-4M:no-CUT"
    grep -q '^cutinfo .* reason=3 ' f.chk || bad="$bad fsize-4M:no-limit-reason-in-header"
    [ -s f.err ] && bad="$bad fsize-4M:stderr:$(head -c 100 f.err)"
    size=$(stat -c %s f.trc 2>/dev/null)
    fig="$fig RLIMIT_FSIZE 4 MiB: exit $rc, trace ${size:-none} B, recorded+lost $got of $want;"
    # below one chunk: untraced, one line
    TTCAP_OUT=$d/g.trc prlimit --fsize=16384 "$F/cap_calls" fib 20 > g.out 2> g.err; rc=$?
    "$F/cap_calls" fib 20 > g0.out
    [ $rc = 0 ] && cmp -s g0.out g.out || bad="$bad fsize-16K:exit-$rc"
    [ "$(wc -l < g.err)" = 1 ] && grep -q 'running untraced' g.err || bad="$bad fsize-16K:stderr:[$(cat g.err)]"
    [ -e g.trc ] && bad="$bad fsize-16K:left-a-file"
    # room for one 16 KiB chunk, not for the copy of the binary in .build-id
    mkdir -p s; rm -rf s/*
    TTCAP_CHUNK_KB=16 TTCAP_OUT=$d/s/h.trc prlimit --fsize=22000 "$F/cap_calls" calls 10 > h.out 2> h.err; rc=$?
    "$F/cap_calls" calls 10 > h0.out
    [ $rc = 0 ] && cmp -s h0.out h.out || bad="$bad fsize-store:exit-$rc"
    "$CHK" s/h.trc > h.chk 2>&1 || bad="$bad fsize-store:unreadable"
    [ -n "$(find s -name '*.tmp*')" ] && bad="$bad fsize-store:temporary-left"
    fig="$fig below one chunk and below the binary's copy: exit 0;"
fi
# ---- full disk, many threads, large chunks
if [ "$MODE" = full ]; then SZ=512m; CK=65536; T=64; N=200000
else SZ=64m; CK=8192; T=32; N=20000; fi
mkdir mnt
if ! mount -t tmpfs -o size=$SZ tmpfs mnt 2>/dev/null; then
    fig="$fig full disk: cannot mount a tmpfs (not root?), skipped"
else
    # times: wall and CPU (user + sys) in ms, from /usr/bin/time when there
    timed() { # out-file, command...
        o=$1; shift
        if [ -x /usr/bin/time ]; then /usr/bin/time -o "$o.time" -f '%e %U %S' "$@"
        else s0=$(date +%s%N); "$@"; r=$?; echo "$(( ($(date +%s%N) - s0) / 1000000 )) 0 0" |
             awk '{ print $1 / 1000, 0, 0 }' > "$o.time"; return $r; fi
    }
    wall() { awk '{ printf "%d", $1 * 1000 }' "$1.time"; }
    cpu() { awk '{ printf "%d", ($2 + $3) * 1000 }' "$1.time"; }
    timed p "$F/cap_threads" $T $N > p.out 2>&1; prc=$?
    TTCAP_CHUNK_KB=$CK TTCAP_OUT=$d/mnt/t.trc timed t "$F/cap_threads" $T $N > t.out 2> t.err; rc=$?
    [ $rc = $prc ] && cmp -s p.out t.out || bad="$bad threads:exit-$rc-want-$prc"
    # no stall: CPU within 4x + 3 s of the untraced run's (a loaded machine
    # stretches wall time, so that bound is looser: 10x + 10 s)
    [ "$(cpu t)" -le $((4 * $(cpu p) + 3000)) ] || bad="$bad threads:cpu-$(cpu t)ms-untraced-$(cpu p)ms"
    [ "$(wall t)" -le $((10 * $(wall p) + 10000)) ] || bad="$bad threads:took-$(wall t)ms-untraced-$(wall p)ms"
    "$CHK" mnt/t.trc > t.chk 2>&1 || bad="$bad threads:unreadable"
    with=$(grep '^thread idx=' t.chk | grep -vc ' chunks=0 ')
    missing=""; i=0
    while [ $i -le $T ]; do
        grep -q "^thread idx=$i .* chunks=[1-9]" t.chk || grep -q "^cutthread idx=$i " t.chk ||
            missing="$missing $i"
        i=$((i + 1))
    done
    [ -z "$missing" ] || bad="$bad threads:not-in-trace:$(echo $missing | wc -w)-of-$((T + 1))"
    cut=$(grep -c '^cutthread ' t.chk)
    got=$(( $(hooks_of t.chk) + $(lost_of t.chk) ))
    want=$((T * N * 10 + 2))    # 5 calls per iteration, ENTER and EXIT; main
    [ "$got" -ge "$want" ] && [ "$got" -le $((want + 16 * T + 16)) ] ||
        bad="$bad threads:recorded+lost=$got-want-$want"
    fig="$fig full disk ($SZ tmpfs, $CK KiB chunks, $T threads): $with threads with chunks, $cut in the cut table, recorded+lost $got of >= $want, $(wall t) ms wall $(cpu t) ms CPU (untraced $(wall p) / $(cpu p) ms)"
fi
ok=ok; [ -z "$bad" ] || ok=FAIL
echo "RESULT h. resource limits: RLIMIT_FSIZE, full disk with many threads|$(echo "${fig%;}" | sed "s/^ *//")${bad:+; problems:$bad}|$ok"
[ $ok = ok ]
