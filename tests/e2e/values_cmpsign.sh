#!/bin/sh
# values_cmpsign.sh - a comparator's result is compared by its sign only
# (diff/values.c, format's ttf_sym_code_cmpret): fixtures/progs/
# val_cmpsign.c compares two keys with cmp_key, which returns memcmp's
# result, called through a pointer by ordered (a relay). glibc's memcmp (AVX2)
# returns 1 with one key near a page's end (OFF 4090) and 3 without (OFF
# 4096): the two good runs return 1 and 3 from both functions and exit 0;
# the keys swapped (a bad run) flip the sign, and ttdiff still names
# cmp_key's -3 against 1 as the first divergence.
. "$(dirname "$0")/values_lib.inc"
# glibc picks memcmp by the CPU: its AVX-512 (EVEX) variant returns the
# difference at both offsets, so the AVX2 one is asked for (a CPU without
# AVX-512 takes it anyway)
export GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512VL,-AVX512BW,-AVX512F

rec g1.trc "$F/val_cmpsign" 4090 0
rec g2.trc "$F/val_cmpsign" 4096 0
rec b.trc "$F/val_cmpsign" 4096 1
has '^after$' g1.trc.out
has '^after$' g2.trc.out
has '^before$' b.trc.out
ev g1.trc
ev g2.trc
grep -q '^ *< cmp_key = 1$' g1.trc.ev && grep -q '^ *< cmp_key = 3$' g2.trc.ev || {
    echo "SKIP: this libc's memcmp returned the same value in both placements"
    grep 'cmp_key =' g1.trc.ev g2.trc.ev; exit 77; }
has '^ *< ordered = 3$' g2.trc.ev
rc=0; "$BD/ttdiff" g1.trc g2.trc > gg.txt 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat gg.txt; fail "good runs (1 against 3 from a comparator): exit $rc"; }
rc=0; "$BD/ttdiff" g1.trc b.trc > gb.txt 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat gb.txt; fail "the sign flipped, not found: exit $rc"; }
has '^first divergence: `cmp_key` returned -3 in the bad run, 1 in the good run$' gb.txt
has '`ordered` returned -3 in the bad run, 1 in the good run' gb.txt
echo "ok: a comparator's 1 against 3 is the same, its sign flipped a divergence"
