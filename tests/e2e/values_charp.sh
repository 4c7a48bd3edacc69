#!/bin/sh
# values_charp.sh - plain char * (not const) arguments by content: the
# string table of a program built by ttcc --values lists a char * only for
# a function that writes no memory but its own frame (format/readonly.c),
# so its bytes at entry are what the caller passed in. val_charp's
# rule_hash (reads its name) records "cc"; check_rule (passes it on to a
# call) and shout (upper-cases it in place) keep pointers, as does
# fill_line, whose output buffer holds the run's process id and a stack
# address at entry: two identical runs stay identical. A pair that differs
# only in the key's bytes (the same heap address) starts its cause chain at
# rule_hash's "cx"; without strings (TTCAP_STRINGS=0) the chain stops at
# rule_hash's result and says its pointer was compared, not its contents.
# Built with a sanitizer (make asan), rule_hash calls the sanitizer's
# report functions: no leaf, so its name too is a pointer there (checked),
# and the by-content part is skipped.
. "$(dirname "$0")/values_lib.inc"
san=${SAN:+$SAN -fno-sanitize=undefined}
command -v objcopy > /dev/null || { echo "SKIP: no objcopy"; exit 77; }

for o in O2 O0; do
    # shellcheck disable=SC2086
    "$BD/ttcc" --values gcc $san -g -$o -I"$SRC/fixtures/progs" -o vc$o \
        "$SRC/fixtures/progs/val_charp.c" 2> cc.err || { cat cc.err; fail "ttcc -$o"; }
    [ ! -s cc.err ] || { cat cc.err; fail "ttcc -$o warned"; }
    rec g$o.trc ./vc$o cc
    has '^abcdef 64 CC 0$' "g$o.trc.out"
    ev g$o.trc
    # read only: by content; passed on, written into: pointers
    if [ -n "${SAN:-}" ]; then
        has '^    > rule_hash(0x[0-9a-f]*)$' "g$o.trc.ev"
    else
        has '^    > rule_hash("cc")$' "g$o.trc.ev"
    fi
    has '^  > check_rule(0x[0-9a-f]*)$' "g$o.trc.ev"
    has '^  > shout(0x[0-9a-f]*)$' "g$o.trc.ev"
    has '^  > fill_line(0x[0-9a-f]*, 64)$' "g$o.trc.ev"
    # identical runs: fill_line's buffer held another pid and address
    for i in 1 2 3; do
        rec s$o$i.trc ./vc$o cc
        "$BD/ttdiff" "g$o.trc" "s$o$i.trc" > s$o$i.txt 2>&1 ||
            { cat s$o$i.txt; fail "identical -$o runs ($i) differ"; }
    done
done

if [ -n "${SAN:-}" ]; then
    echo "ok: plain char * kept as pointers where a sanitizer's check calls out; identical runs exit 0"
    exit 0
fi
# the cc/cx pair: the key's bytes are the cause
rec bO2.trc ./vcO2 cx
has '^abcdef 64 CX -1$' bO2.trc.out
rc=0; "$BD/ttdiff" gO2.trc bO2.trc > d.txt 2> d.err || rc=$?
[ "$rc" = 1 ] || { cat d.txt d.err; fail "ttdiff pair: exit $rc"; }
has '^  1[.] `rule_hash` was called with name = "cx" in the bad run, "cc" in the good run$' d.txt
has '^  2[.] because of 1: `rule_hash` returned 1 in the bad run, 0 in the good run$' d.txt
json_string gO2.trc bO2.trc '"cc"' '"cx"' name

# without strings: pointers only, and the chain's end says so
TTCAP_STRINGS=0 rec ng.trc ./vcO2 cc
TTCAP_STRINGS=0 rec nb.trc ./vcO2 cx
"$BD/ttdiff" ng.trc nb.trc > n.txt 2>&1 || true
if grep -q '"cx"' n.txt; then cat n.txt; fail "strings compared without a table"; fi
has '^  it starts at 1: no earlier value differs (pointer name compared, not its contents)$' n.txt
echo "ok: plain char * by content where its function only reads it, identical runs exit 0"
