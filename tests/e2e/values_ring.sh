#!/bin/sh
# values_ring.sh - values mode in ring (flight-recorder) mode: 400000
# calls through a 1 MiB ring of 16 KiB chunks. The kept tail decodes with
# every argument and return value right (each reused chunk starts its
# deltas from zero), the program's last calls and exit are there, and
# ttdump --stats says how many chunks were overwritten instead of "lost 0"
# alone; a trace without a ring says nothing of the kind.
. "$(dirname "$0")/values_lib.inc"

rec r.trc env TTCAP_RING=1 TTCAP_CHUNK_KB=16 "$F/val_ring"
has '^n=400000 sum=239996800000 last=' r.trc.out
lastv=$(sed -n 's/^n=.* last=\([0-9]*\)$/\1/p' r.trc.out)
"$BD/tests/capture_check" "$T/r.trc" > chk || fail "capture_check"
has '^header closed=1 exit=0 chunk=16384 ring=1 ' chk
has '^summary closed=1 crashed=0 events=[0-9]* lost=0 damaged=0 ' chk
gaps=$(sed -n 's/^thread idx=0 .* gaps=\([0-9]*\)$/\1/p' chk)
[ "${gaps:-0}" -gt 100 ] || { cat chk; fail "want over 100 overwritten chunks, got '$gaps'"; }
ev r.trc
e=r.trc.ev
# every kept step(i, i & 15) returns 3i - (i & 15), its outer one more
awk '
/^ *> step\(/ { s = $0; sub(/.*step\(/, "", s); split(s, a, /[,)] */); i = a[1]; j = a[2]
                if (j != i % 16) { print "bad args: " $0; bad = 1 } want = 3 * i - j; n++; next }
/!! lost/ { want = ""; next }
/^ *< step = / { if (want != "" && $4 != want) { print "bad step value: " $0 " want " want; bad = 1 } next }
/^ *< outer = / { if (want != "" && $4 != want + 1) { print "bad outer value: " $0; bad = 1 } next }
END { if (n < 10000) { print "only " n " steps kept"; bad = 1 } exit bad }' $e > awk.out ||
    { cat awk.out; fail "values in the kept tail"; }
has '^  > outer(0)$' $e
has '^    > step(399999, 15)$' $e
has '^    < step = 1199982$' $e
has '^  < outer = 1199983$' $e
has "^  < last = $lastv\$" $e
has '^< main = 0$' $e
has '!! lost data here ([0-9]* bytes, events unknown)' $e

"$BD/ttdump" --stats --color never "$T/r.trc" > st || fail "ttdump --stats"
has "^  overwritten:       $gaps chunks (ring: [0-9]* bytes of the oldest events, not counted as lost)\$" st
has "^  events [0-9]*, chunks [0-9]*, lost 0, overwritten $gaps chunks (ring)\$" st
has "^  \[0\] tid .* lost 0 chunks [0-9]* overwritten $gaps chunks (ring)\$" st
has ", 0 damaged, overwritten $gaps (ring)\$" st

# no ring: nothing overwritten, and no such words
rec p.trc "$F/val_ring" 3000
"$BD/ttdump" --stats --color never "$T/p.trc" > pst || fail "ttdump --stats plain"
has '^  events [0-9]*, chunks 1, lost 0, seq gaps 0$' pst
! grep -q overwritten pst || fail "'overwritten' in a trace without a ring"
echo "ok: values in ring mode, overwritten chunks reported"
