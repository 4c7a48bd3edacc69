#!/bin/sh
# ttdiff on recorded fixture runs: a parser given a bad character, a lookup
# that crashes with SIGSEGV, two workers where one retries an item. Checks
# the first divergence's thread, function and stack in text and JSON, exit
# 1 on a divergence and 0 for two runs of the same input.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

# --- parser: the bad character takes reject_input() instead of accept_char()
rec pg.trc "$BD/fixtures/diff_parse" abcd
rec pg2.trc "$BD/fixtures/diff_parse" abcd
rec pb.trc "$BD/fixtures/diff_parse" 'ab!d'
run 0 "$T/pg.trc" "$T/pg2.trc"
has '^no divergence' "$T/out"
run 1 --color never "$T/pg.trc" "$T/pb.trc"
has '^first divergence: thread diff_parse (good #0, bad #0)' "$T/out"
has '^    main  at .*diff_parse.c:[0-9]' "$T/out"
has '^      parse  at .*diff_parse.c:[0-9]' "$T/out"
has '^  +  *[0-9]*  reject_input() {' "$T/out"
has '^  -  *[0-9]*  accept_char();' "$T/out"
has 'log reject_input: rejected .!. at 2' "$T/out"
grep -q "$(printf '\033')" "$T/out" && fail "colour with --color never"
run 1 --color always "$T/pg.trc" "$T/pb.trc"
grep -q "$(printf '\033')\[31m" "$T/out" || fail "no red with --color always"
NO_COLOR=1 "$TTDIFF" "$T/pg.trc" "$T/pb.trc" > "$T/out" || true
grep -q "$(printf '\033')" "$T/out" && fail "colour with NO_COLOR set"
run 1 --format json -o "$T/p.json" "$T/pg.trc" "$T/pb.trc"
[ -s "$T/out" ] && fail "-o FILE still wrote to stdout"
python3 -m json.tool "$T/p.json" > /dev/null || fail "json.tool rejects p.json"
json "$T/p.json" '
f = d["first_divergence"]
assert d["schema_version"] == 2 and d["diverged"] is True
assert f["stack"] == ["main", "parse"], f["stack"]
assert f["thread"]["good"] == 0 and f["thread"]["bad"] == 0
assert f["bad"][0]["function"] == "reject_input" and f["bad"][0]["kind"] == "enter"
assert f["good"][0]["function"] == "accept_char"
assert f["good_index"] == f["bad_index"] and f["good_index"] > 0
assert f["frames"][-1]["file"].endswith("diff_parse.c") and f["frames"][-1]["line"] > 0
assert len(f["before"]) == 5
assert d["threads"][0]["hunks"] == 1 and d["threads"][0]["paired_by"] == "main"
assert d["runs"]["bad"]["exit_status"] == 1 and d["runs"]["good"]["exit_status"] == 0
'
run 1 --context 2 "$T/pg.trc" "$T/pb.trc"
# an ENTER and its EXIT share a line: the heading says so
has '^last 2 common events, in 1 line (a call that returns at once takes one):' "$T/out"
run 1 --format=json --context=0 "$T/pg.trc" "$T/pb.trc"
json "$T/out" 'assert d["first_divergence"]["before"] == [] and d["options"]["context"] == 0'
# filters: excluding the two functions that differ leaves only the message
run 1 --exclude '^(accept_char|is_valid)$' --messages off "$T/pg.trc" "$T/pb.trc"
has '^  +  *[0-9]*  *reject_input();' "$T/out"
run 0 --exclude '^(accept_char|is_valid|reject_input)$' --messages off "$T/pg.trc" "$T/pb.trc"
run 0 --function '^main$' "$T/pg.trc" "$T/pb.trc"

# --- crash: lookup() returns NULL, use_record() dies
rec cg.trc "$BD/fixtures/diff_crash" ok
rec cb.trc "$BD/fixtures/diff_crash" missing
run 1 "$T/cg.trc" "$T/cb.trc"
has '^      process  at ' "$T/out"
has '^        use_record  at .*diff_crash.c:[0-9]' "$T/out"
has '^the bad run died here: crash SIGSEGV (signal 11) at 0x[0-9a-f]* in use_record' "$T/out"
run 1 --format json "$T/cg.trc" "$T/cb.trc"
json "$T/out" '
f = d["first_divergence"]
assert f["stack"] == ["main", "process", "use_record"], f["stack"]
assert f["crash"]["kind"] == "crash" and f["crash"]["signal"] == 11
assert f["crash"]["function"] == "use_record"
assert d["runs"]["bad"]["crash"]["signal"] == 11 and d["runs"]["good"]["crash"] is None
assert d["runs"]["bad"]["closed"] is False
'

# --- threads: worker-2 retries item 3 in the bad run
rec tg.trc "$BD/fixtures/diff_threads"
rec tg2.trc "$BD/fixtures/diff_threads"
rec tb.trc "$BD/fixtures/diff_threads" bad
run 0 "$T/tg.trc" "$T/tg2.trc"
run 0 --messages text "$T/tg.trc" "$T/tg2.trc"
run 1 "$T/tg.trc" "$T/tb.trc"
has '^first divergence: thread worker-2 (good #[12], bad #[12])' "$T/out"
has '^    worker_main  at ' "$T/out"
has '^      process_item  at ' "$T/out"
has '^  +  *[0-9]*    retry_item() {' "$T/out"
has '^other threads just before the divergence:' "$T/out"
has '^  bad  #[0-9] \(worker-1\|diff_threads\): ' "$T/out"
run 1 --format json "$T/tg.trc" "$T/tb.trc"
json "$T/out" '
f = d["first_divergence"]
assert f["thread"]["name"] == "worker-2" and f["thread"]["bad"] in (1, 2)
assert f["stack"] == ["worker_main", "process_item"], f["stack"]
assert f["bad"][0]["function"] == "retry_item"
assert f["bad"][1]["kind"] == "message" and f["bad"][1]["text"] == "retrying item 3"
names = sorted(p["good"]["name"] for p in d["threads"])
assert names == ["diff_threads", "worker-1", "worker-2"], names
assert {p["bad"]["name"]: p["hunks"] for p in d["threads"]} == {"diff_threads": 0, "worker-1": 0, "worker-2": 1}
assert all(p["good"]["name"] == p["bad"]["name"] for p in d["threads"])
assert {o["name"] for o in f["other_threads"]["bad"]} <= {"worker-1", "diff_threads"}
assert d["unpaired"] == []
'
run 0 --thread worker-1 "$T/tg.trc" "$T/tb.trc"
run 1 --thread '^worker-' "$T/tg.trc" "$T/tb.trc"
# with text messages the changed result line differs too
run 1 --messages text --all "$T/tg.trc" "$T/tb.trc"
has '^  -  *[0-9]*  *log process_item: worker 2 item 3 -> 10' "$T/out"
has '^  +  *[0-9]*  *log process_item: worker 2 item 3 -> 11' "$T/out"
echo "ok"
