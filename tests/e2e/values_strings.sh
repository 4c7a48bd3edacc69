#!/bin/sh
# values_strings.sh - strings by content (format 1.6): a C and a C++
# program built by ttcc --values carry their string table (.ttcap.vt); the
# traces show char * and std::string arguments by their first bytes
# ("cc", cut with an ellipsis past 32 bytes, NULL as NULL, a bad pointer
# (char *)1 as (unreadable) while the program runs on); two runs that
# differ only in a string's bytes (the pointer is the same) are told apart
# by ttdiff, whose cause is the string argument, in text, JSON and HTML;
# identical runs exit 0, a buffer's bytes past the length in the next
# argument (a stack address that differs by run) not compared; with
# TTCAP_STRINGS=0 (no strings recorded) the
# same pair is compared by pointer and the cause is not the string.
. "$(dirname "$0")/values_lib.inc"
san=${SAN:+$SAN -fno-sanitize=undefined}
command -v objcopy > /dev/null || { echo "SKIP: no objcopy"; exit 77; }

# shellcheck disable=SC2086
"$BD/ttcc" --values gcc $san -g -O2 -I"$SRC/fixtures/progs" -o vs \
    "$SRC/fixtures/progs/val_strings.c" 2> cc.err || { cat cc.err; fail "ttcc C"; }
# shellcheck disable=SC2086
"$BD/ttcc" --values g++ $san -g -O2 -I"$SRC/fixtures/progs" -o vcc \
    "$SRC/fixtures/progs/val_strings.cpp" 2> cxx.err || { cat cxx.err; fail "ttcc C++"; }
[ ! -s cc.err ] && [ ! -s cxx.err ] || { cat cc.err cxx.err; fail "ttcc warned"; }
if command -v readelf > /dev/null; then
    readelf -S vs > vs.sec
    has ' .ttcap.vt ' vs.sec
fi

# the C program: strings shown, the bad pointer survived
rec g.trc ./vs cc
has '^result 16 found$' g.trc.out
ev g.trc
has '^  > lookup_rule(0, "cc")$' g.trc.ev
has '^    > find_rule("cc")$' g.trc.ev
has '^  > weigh("a string longer than thirty-two "…, 1)$' g.trc.ev
has '^  > maybe((unreadable), 0)$' g.trc.ev
has '^  > maybe(NULL, 0)$' g.trc.ev
"$BD/ttdump" g.trc > g.head
# 1.9: the chain clock is the default, values chunks lazy (1.8's rule;
# the minor stays when strings come)
has '^  version: *1[.]9$' g.head
has 'optional features: .*strings' g.head

# a pair that differs only in the string's bytes: the cause is the string
rec b.trc ./vs cx
has '^result 16 no such rule$' b.trc.out
rc=0; "$BD/ttdiff" g.trc b.trc > d.txt 2> d.err || rc=$?
[ "$rc" = 1 ] || { cat d.txt d.err; fail "ttdiff C pair: exit $rc"; }
has '^  cause: `lookup_rule` was called with rule_name = "cx" in the bad run, "cc" in the good run$' d.txt
has '^  [0-9]*[.] because of [0-9]* (the same value): `find_rule` was called with name = "cx" in the bad run, "cc" in the good run$' d.txt
# a name allocated just after an object passed before it is still a string
"$BD/ttdiff" --function '^in_table$' g.trc b.trc > t.txt 2>&1 || true
has '`in_table` was called with argument 2 (key) = "cx" in the bad run, "cc" in the good run' t.txt
json_string g.trc b.trc '"cc"' '"cx"' rule_name
"$BD/ttdiff" --format html g.trc b.trc > d.html 2> /dev/null || true
has 'rule_name = &quot;cx&quot; in the bad run, &quot;cc&quot; in the good run' d.html

# identical runs: no divergence (feed's buffers hold a stack address past
# their length, 3 and 0: only the bytes within it are the string's; span's
# end points at it: not compared, nor at_limit's (a trailing address); every
# run's TTCAP_OUT names another trace: its bytes are the run's own)
has '^  > feed("abc.*, 3)$' g.trc.ev
has '^  > feed(".*, 0)$' g.trc.ev
has '^  > env_entry("TTCAP_OUT=' g.trc.ev
has '^  > span("abc.*", ".*")$' g.trc.ev
has '^  > at_limit(".*")$' g.trc.ev
for i in 1 2 3; do
    rec s$i.trc ./vs cc
    "$BD/ttdiff" g.trc s$i.trc > s$i.txt 2>&1 || { cat s$i.txt; fail "identical C runs ($i) differ"; }
done

# without strings (TTCAP_STRINGS=0) the same pair compares pointers: the
# string is not the cause (what the lines above check would fail)
TTCAP_STRINGS=0 rec ng.trc ./vs cc
TTCAP_STRINGS=0 rec nb.trc ./vs cx
ev ng.trc
has '^  > lookup_rule(0, 0x[0-9a-f]*)$' ng.trc.ev
"$BD/ttdiff" ng.trc nb.trc > n.txt 2>&1 || true
if grep -q '"cx"' n.txt; then cat n.txt; fail "strings compared without a table"; fi
has '^  cause: `find_rule` returned -1 in the bad run, 2 in the good run$' n.txt

# the C++ program: std::string by value, by reference, through a pointer
rec cg.trc ./vcc cc
ev cg.trc
has '> score(std::.*string.*, int)("cc", 0)$' cg.trc.ev
has '> tally(std::.*string.* const&, char const[*])("cc", "tally")$' cg.trc.ev
has '> pick(std::.*string.* const[*])("zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"…)$' cg.trc.ev
rec cb.trc ./vcc cx
rc=0; "$BD/ttdiff" cg.trc cb.trc > cd.txt 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat cd.txt; fail "ttdiff C++ pair: exit $rc"; }
has '^  cause: `score(std::string, int)` was called with s = "cx" in the bad run, "cc" in the good run$' cd.txt
for i in 1 2 3; do
    rec cs$i.trc ./vcc cc
    "$BD/ttdiff" cg.trc cs$i.trc > cs$i.txt 2>&1 || { cat cs$i.txt; fail "identical C++ runs ($i) differ"; }
done
echo "ok: strings by content (C and C++), a bad pointer survived, identical runs exit 0"
