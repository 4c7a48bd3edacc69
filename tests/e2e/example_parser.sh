#!/bin/sh
# example_parser.sh - fixtures/progs/ex_parser.c: an option parser whose
# scan_number() stops one digit early when a number ends the string. Good
# run "size=64,mode=755,ro", bad run "size=64,mode=755": the first
# divergence is the missing third add_digit() inside scan_number().
B=${1:-build}
. "$(dirname "$0")/example_lib.inc"

rec good.trc "$F/ex_parser" size=64,mode=755,ro
has '^size=64 mode=755 ro$' "$T/good.trc.out"
rec good2.trc "$F/ex_parser" size=64,mode=755,ro
rec bad.trc "$F/ex_parser" size=64,mode=755
has '^size=64 mode=75$' "$T/bad.trc.out"

# two runs on the same input line up exactly
diffrun 0 "$T/good.trc" "$T/good2.trc"
has '^no divergence' "$T/out"

diffrun 1 "$T/good.trc" "$T/bad.trc"
has '^first divergence: thread ex_parser (good #0, bad #0)' "$T/out"
has '^    main  at .*ex_parser.c:[0-9]' "$T/out"
has '^      parse_options  at ' "$T/out"
has '^        parse_option  at ' "$T/out"
has '^          set_option  at ' "$T/out"
has '^            scan_number  at .*ex_parser.c:[0-9]' "$T/out"
has '^  -  *[0-9]*    add_digit();' "$T/out"
sed -n '/^differing/,/^further/p' "$T/out" | grep -q '^  +' &&
    fail "the bad run has no extra events at the first divergence"

diffrun 1 --format json "$T/good.trc" "$T/bad.trc"
json "$T/out" '
assert d["diverged"] is True
assert f["thread"] == {"name": "ex_parser", "good": 0, "bad": 0}, f["thread"]
assert f["stack"] == ["main", "parse_options", "parse_option", "set_option",
                      "scan_number"], f["stack"]
assert [(e["kind"], e["function"]) for e in f["good"]] == \
       [("enter", "add_digit"), ("exit", "add_digit")], f["good"]
assert f["bad"] == [] and f["bad_more"] == 0
assert f["frames"][-1]["function"] == "scan_number"
assert f["frames"][-1]["file"].endswith("ex_parser.c") and f["frames"][-1]["line"] > 0
# the common part is the whole run up to the last digit
assert f["good_index"] == f["bad_index"] > 10
'
echo ok
