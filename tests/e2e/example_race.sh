#!/bin/sh
# example_race.sh - the producer/consumer race (fixtures/progs/race_queue.c,
# the demo's fixture). The producers' calls are the same in both runs (the
# race is in the data), so the first divergence is the consumer coming up
# short; --messages text shows the producers' slots. Also runs `make demo`'s
# script and checks what it prints and writes.
B=${1:-build}
. "$(dirname "$0")/example_lib.inc"

rec good.trc "$F/race_queue"
[ "$rc" = 0 ] || fail "good run exit $rc"
rec good2.trc "$F/race_queue"
rec bad.trc "$F/race_queue" race
[ "$rc" = 1 ] || fail "bad run exit $rc"
has '^FAIL: [0-9]* items in queue, 16 produced' "$T/bad.trc.out"

diffrun 0 "$T/good.trc" "$T/good2.trc"
diffrun 1 "$T/good.trc" "$T/bad.trc"
has '^first divergence: thread race_queue (good #0, bad #0)' "$T/out"
has '^    main  at .*race_queue.c:[0-9]' "$T/out"
has '^      consume_all  at .*race_queue.c:[0-9]' "$T/out"
has '^  -  *[0-9]*  consume_item();' "$T/out"
has '^  #1 producer-1  *#1 producer-1  *name+start  *58/58  *0  *pool#1$' "$T/out"
has '^  #2 producer-2  *#2 producer-2  *name+start  *58/58  *0  *pool#1$' "$T/out"

# the verdict (issue 33) names the race in reserve_slot, not the symptom:
# in the text report's first 10 lines, the HTML report's first screen (the
# header, before <main>) and the JSON report's verdict
head -10 "$T/out" > "$T/head10"
has '^verdict: diverged: likely cause: a race in `reserve_slot`' "$T/head10"
has '^  symptom: the calls part in `consume_all`' "$T/head10"
if "$TTDIFF" --help | grep -q html; then
    diffrun 1 --format html "$T/good.trc" "$T/bad.trc"
    sed -n '1,/<main>/p' "$T/out" > "$T/screen1"
    has '<section class="note" id="tt-verdict"><p><strong>Verdict:</strong> diverged: likely cause: a race in `reserve_slot`' "$T/screen1"
fi
diffrun 1 --format json "$T/good.trc" "$T/bad.trc"
json "$T/out" '
v = d["verdict"]
assert v["status"] == "diverged" and v["exit"] == 1, v
assert v["cause"]["kind"] == "race" and v["cause"]["function"] == "reserve_slot", v["cause"]
assert v["confidence"] == "likely", v
assert v["symptom"]["function"] == "consume_all", v["symptom"]
assert v["headline"].startswith("diverged: likely cause: a race in `reserve_slot`"), v
assert any(r["check"] == "reserve_slot" and r["reaches_symptom"] for r in d["races"]), d["races"]
'
json "$T/out" '
assert f["thread"] == {"name": "race_queue", "good": 0, "bad": 0}, f["thread"]
assert f["stack"] == ["main", "consume_all"], f["stack"]
assert f["good"][0]["function"] == "consume_item" and f["bad"] == []
assert {p["good"]["name"]: p["hunks"] for p in d["threads"]} == \
       {"race_queue": 2, "producer-1": 0, "producer-2": 0}, d["threads"]
# the second hunk: the bad run reports the loss
assert d["hunks"][1]["bad_first"]["function"] == "report_missing", d["hunks"][1]
'

# with message text compared, a producer diverges first: the slot numbers
diffrun 1 --messages text --format json "$T/good.trc" "$T/bad.trc"
json "$T/out" '
assert f["thread"]["name"] in ("producer-1", "producer-2"), f["thread"]
assert f["stack"] == ["producer_main", "produce"], f["stack"]
assert f["bad"][0]["kind"] == "message" and " in slot " in f["bad"][0]["text"]
'

# make demo
TT_DEMO_OUT=$T/demo sh fixtures/demo.sh "$BD" > "$T/demo.out" 2>&1 || { cat "$T/demo.out"; fail "demo.sh"; }
has '^first divergence: thread race_queue' "$T/demo.out"
has '^== JSON report: ' "$T/demo.out"
python3 -m json.tool "$T/demo/report.json" > /dev/null || fail "demo JSON"
# the closing hint agrees with the report: the unprotected call it named
u=$(sed -n 's/^unprotected: \([a-z_]*\) in bad .*/\1/p' "$T/demo.out")
if [ -n "$u" ]; then
    has "^   run $u ran without " "$T/demo.out"
else
    has '^== The producers made the same calls' "$T/demo.out"
fi
if "$TTDIFF" --help | grep -q html; then
    has '^== HTML report: ' "$T/demo.out"
    grep -q '<html' "$T/demo/report.html" || fail "demo HTML report"
fi
echo ok
