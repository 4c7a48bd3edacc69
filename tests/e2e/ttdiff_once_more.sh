#!/bin/sh
# ttdiff_once_more.sh - a real difference is never hidden (issue 31): a
# single-threaded loop of traced calls that ran once more in the bad run,
# followed by a 200 us sleep or by the final printf only, is a divergence
# naming the extra call in 10 of 10 pairs, plain mode, values mode and
# --flat; the sleep is recorded (SLEEP) and shown by ttdump.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"
P=$BD/fixtures/once_more
V=$BD/fixtures/pg/once_more
[ -x "$P" ] || fail "no $P"
progs=$P
[ -x "$V" ] && progs="$P $V"
for prog in $progs; do
    for tail in sleep print; do
        for i in 1 2 3 4 5 6 7 8 9 10; do
            rm -f "$T/g.trc" "$T/b.trc"
            rec g.trc "$prog" 5 "$tail"
            rec b.trc "$prog" 6 "$tail"
            for flat in "" --flat; do
                run 1 --color never $flat "$T/g.trc" "$T/b.trc"
                grep -q 'take_item' "$T/out" || { cat "$T/out"; fail "$prog $tail $flat: the extra take_item not named"; }
                if grep -q 'timing-shaped\|no divergence' "$T/out"; then
                    cat "$T/out"; fail "$prog $tail $flat: the extra iteration hidden as timing"
                fi
            done
        done
    done
done
rec s.trc "$P" 2 sleep
"$BD/ttdump" --color never "$T/s.trc" > "$T/dump" 2>&1 || fail "ttdump"
grep -q 'sleep' "$T/dump" || { cat "$T/dump"; fail "no SLEEP record in ttdump"; }
echo "ok: one more iteration is a divergence in 10 of 10 pairs ($(echo $progs | wc -w) builds, sleep and print, tree and --flat)"
