#!/bin/sh
# check_count.sh - reliability check (b): exact accounting under SIGKILL at
# random moments (1, 8, 64 threads), SIGSEGV and abort(). rel_count keeps
# each thread's true call count in a shared file; the trace must hold every
# call: ENTERs = count or count + 1 (the call in flight), EXITs >= count - 1.
# $1 build dir, $2 rounds per thread count. Prints "RESULT name|figure|ok".
B=$1; R=${2:-3}
P=$B/rel/rel_count; CHK=$B/tests/capture_check
d=$(mktemp -d) || exit 2
trap 'rm -rf "$d"' EXIT
lost=0; runs=0; inflight=0; bad=""
# compare one trace with the counters; adds to lost / inflight
account() { # trace countfile threads
    "$CHK" "$1" > "$d/chk" 2>&1 || { bad="$bad unreadable"; lost=$((lost + 1)); return; }
    i=0
    for c in $(od -An -t u8 -v -N $(($3 * 8)) "$2"); do
        set -- "$1" "$2" "$3"
        line=$(grep "^count thread=$((i + 1)) func=work " "$d/chk")
        en=$(echo "$line" | sed -n 's/.* enter=\([0-9]*\).*/\1/p'); en=${en:-0}
        ex=$(echo "$line" | sed -n 's/.* exit=\([0-9]*\).*/\1/p'); ex=${ex:-0}
        # lost: calls made but not entered; exits missing beyond one in flight
        l=0
        [ "$en" -lt "$c" ] && l=$((c - en))
        [ "$en" -gt $((c + 1)) ] && l=$((l + en - c - 1))   # phantom calls
        [ "$ex" -lt $((c - 1)) ] && l=$((l + c - 1 - ex))
        [ "$l" -gt 0 ] && bad="$bad t$i:count=$c,enter=$en,exit=$ex"
        lost=$((lost + l)); inflight=$((inflight + en - ex))
        i=$((i + 1))
    done
}
for t in 1 8 64; do
    k=0
    while [ $k -lt "$R" ]; do
        rm -f "$d/t.trc"
        TTCAP_OUT="$d/t.trc" "$P" "$d/cnt" "$t" > "$d/out" &
        pid=$!
        n=0; while ! grep -q ready "$d/out" 2>/dev/null && [ $n -lt 500 ]; do sleep 0.02; n=$((n + 1)); done
        sleep "0.$(( $(od -An -N2 -tu2 /dev/urandom) % 9 + 1 ))"
        kill -KILL $pid; wait $pid 2>/dev/null
        account "$d/t.trc" "$d/cnt" "$t"
        runs=$((runs + 1)); k=$((k + 1))
    done
done
for how in segv abort; do
    for t in 1 8; do
        rm -f "$d/t.trc"
        TTCAP_OUT="$d/t.trc" "$P" "$d/cnt" "$t" $how 200000 > /dev/null 2>&1
        account "$d/t.trc" "$d/cnt" "$t"
        grep -q "^crash thread=1 " "$d/chk" || bad="$bad no-crash-record($how)"
        runs=$((runs + 1))
    done
done
ok=ok; [ "$lost" = 0 ] && [ -z "$bad" ] || ok=FAIL
echo "RESULT b. accounting: SIGKILL x1/8/64 threads, SEGV, abort|$runs runs, lost beyond in-flight $lost (in flight $inflight)|$ok"
[ -n "$bad" ] && echo "detail:$bad" | cut -c1-400
[ $ok = ok ]
