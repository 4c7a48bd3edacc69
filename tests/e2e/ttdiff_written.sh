#!/bin/sh
# ttdiff_written.sh - issue 33 items 2-3: data written early and read back
# much later (fixtures/progs/why_stored.c). "pages": plan_pages() stores a
# page count one off for record 2 (good 8000 bytes, bad 8180); much later
# check_record() reads the record and fails, having seen no value of its
# own differ. In values mode the verdict names plan_pages (kind
# "written", "possible"): the same record pointer, a size that differs,
# and its code writes a field check_record's code reads; not stamp() (the
# same record, another field), not tally() (a running sum); text (first
# 10 lines), HTML (first screen), JSON. "flag": is_large() answers one
# off, set_large() stores the answer and get_large() returns it much later
# to check_limits(): the chain goes from the getter to the setter
# (written) and on to is_large, which heads the verdict. "spill": the
# writer's calls differ early (one write_page fewer): plain mode names
# that path (spill_pages), not the reader; values mode the writer of the
# count it read (plan_pages). "made": make_record returned the record
# (it made it). "thread": a worker thread planned the record, joined
# before the read: the writer in another thread. "count": set_count
# stored what parse_count made of a number (-1, one digit short): past
# the writer, the answer that flipped inside it heads the verdict. Plain
# mode has only the branch in "pages". "copy": the writer was given a copy
# of the record, not the one the reader reads: no writer, and the running
# sum next to the split is not blamed (the branch, "unknown").
# Good runs alike give exit 0 in both modes.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

VALUES=0
[ "$(uname -m)" = x86_64 ] && [ -x "$BD/fixtures/pg/why_stored" ] && VALUES=1
pair() { # pair PROG GOOD-ARGS BAD-ARGS: record g.trc and b.trc
    rm -f "$T/g.trc" "$T/b.trc"
    rec g.trc "$BD/fixtures/$1" $2
    rec b.trc "$BD/fixtures/$1" $3
}

# --- plain mode: the branch, no writer claimed
pair why_stored "pages 8000" "pages 8180"
run 1 --color never "$T/g.trc" "$T/b.trc"
has '^verdict: diverged: possible cause: the branch in `check_record`' "$T/out"
run 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" '
assert d["verdict"]["cause"]["kind"] != "written", d["verdict"]
assert not [s for s in d["first_divergence"]["suspects"] if any(e["kind"] == "wrote_read_back" for e in s["evidence"])]
'
pair why_stored "pages 8000" "pages 8000"
run 0 --color never "$T/g.trc" "$T/b.trc"
# the writer's calls differ early (spill: one write_page fewer): plain mode
# names that path, not the reader that fails much later
pair why_stored "spill 8200" "spill 8180"
run 1 --color never "$T/g.trc" "$T/b.trc"
has '^verdict: diverged: possible cause: the branch in `spill_pages`' "$T/out"
run 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" '
h = d["hunks"]
assert len(h) >= 2 and h[0]["time_ns"] < h[-1]["time_ns"], h
assert d["verdict"]["symptom"]["function"] == "spill_pages", d["verdict"]["symptom"]
'

[ $VALUES = 1 ] || { echo "SKIP part: no values build (x86-64 only)"; echo ok; exit 0; }

# --- values mode, pages: the writer of the record
pair pg/why_stored "pages 8000" "pages 8180"
run 1 --color never "$T/g.trc" "$T/b.trc"
head -10 "$T/out" > "$T/head10"
has '^verdict: diverged: possible cause: data `plan_pages` wrote, read back later' "$T/head10"
has '^  cause: `plan_pages` was called with size = 8180 in the bad run, 8000 in the good run, and the object `check_record` reads (r): its code writes +0x[0-9a-f]* of a `struct record`, which `check_record`.s code reads' "$T/head10"
has '^  symptom: the calls part in `check_record`: the good run calls `copy_out`, the bad run calls `report_bad`' "$T/head10"
has '^  it starts at 1: `plan_pages` wrote what `check_record` read back: the trace holds what it was given, not what it stored' "$T/out"
run 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" '
v = d["verdict"]
assert v["cause"]["kind"] == "written" and v["cause"]["function"] == "plan_pages", v["cause"]
assert v["confidence"] == "possible", v
f = d["first_divergence"]
c = f["cause_chain"]
assert [x["kind"] for x in c] == ["argument", "split"] and c[0]["function"] == "plan_pages", c
assert c[0]["param"] == "size" and c[0]["bad"] == "8180" and not c[0]["strong"], c[0]
s = f["suspects"]
assert s[0]["function"] == "plan_pages", s[0]
k = [e["kind"] for e in s[0]["evidence"]]
assert "wrote_read_back" in k and "trivial" not in k, k
w = [x["function"] for x in s if any(e["kind"] == "wrote_read_back" for e in x["evidence"])]
assert w == ["plan_pages"], w
assert s[0]["score"] == sum(e["weight"] for e in s[0]["evidence"])
'
run 1 --format html -o "$T/p.html" "$T/g.trc" "$T/b.trc"
sed -n '1,/<main>/p' "$T/p.html" > "$T/screen1"
has 'id="tt-verdict"><p><strong>Verdict:</strong> diverged: possible cause: data `plan_pages` wrote, read back later' "$T/screen1"
has 'title="wrote_read_back, weight 4.00">it was given the object `check_record` reads later' "$T/p.html"

# --- values mode, spill: the writer's calls differ early; the writer of
# the count spill_pages read heads the verdict
pair pg/why_stored "spill 8200" "spill 8180"
run 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" '
v = d["verdict"]
assert v["cause"]["kind"] == "written" and v["cause"]["function"] == "plan_pages", v["cause"]
assert v["symptom"]["function"] == "spill_pages", v["symptom"]
'

# --- values mode, copy: the writer never got the record the reader reads
# (planned in a copy): no writer, and the running sum that returned
# another value next to the split is not blamed: the branch, "unknown"
pair pg/why_stored "copy 8000" "copy 8180"
run 1 --color never "$T/g.trc" "$T/b.trc"
head -10 "$T/out" > "$T/head10"
has '^verdict: diverged: cause unknown, the evidence stops at the branch in `check_record`' "$T/head10"
run 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" '
v = d["verdict"]
assert v["cause"]["kind"] == "split" and v["cause"]["function"] == "check_record", v["cause"]
assert v["confidence"] == "unknown", v
s = d["first_divergence"]["suspects"]
assert "tally" in [x["function"] for x in s], s
assert not [x for x in s if any(e["kind"] == "wrote_read_back" for e in x["evidence"])], s
'
run 1 --format html -o "$T/y.html" "$T/g.trc" "$T/b.trc"
sed -n '1,/<main>/p' "$T/y.html" > "$T/screen1"
has 'cause unknown, the evidence stops at the branch in `check_record`' "$T/screen1"

# --- values mode, made: make_record returned the record check_record reads
pair pg/why_stored "made 8000" "made 8180"
run 1 --color never "$T/g.trc" "$T/b.trc"
head -10 "$T/out" > "$T/head10"
has '^verdict: diverged: possible cause: data `make_record` wrote, read back later' "$T/head10"
has 'and returned the object `check_record` reads (r): it made it' "$T/head10"
run 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" '
v = d["verdict"]
assert v["cause"]["kind"] == "written" and v["cause"]["function"] == "make_record", v["cause"]
'
run 1 --format html -o "$T/m.html" "$T/g.trc" "$T/b.trc"
sed -n '1,/<main>/p' "$T/m.html" > "$T/screen1"
has 'possible cause: data `make_record` wrote, read back later' "$T/screen1"

# --- values mode, thread: a worker planned the record, joined before the read
pair pg/why_stored "thread 8000" "thread 8180"
run 1 --color never "$T/g.trc" "$T/b.trc"
head -10 "$T/out" > "$T/head10"
has '^verdict: diverged: possible cause: data `plan_pages` wrote, read back later (thread #1 why_stored)' "$T/head10"
run 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" '
v = d["verdict"]
assert v["cause"]["kind"] == "written" and v["cause"]["function"] == "plan_pages", v["cause"]
assert v["cause"]["pair"] == 1 and v["symptom"]["pair"] == 0, v
s = [x for x in d["first_divergence"]["suspects"] if x["function"] == "plan_pages"][0]
assert "wrote_read_back" in [e["kind"] for e in s["evidence"]], s
assert not [e for e in s["evidence"] if "by time only" in e["text"]], s
'
run 1 --format html -o "$T/t.html" "$T/g.trc" "$T/b.trc"
sed -n '1,/<main>/p' "$T/t.html" > "$T/screen1"
has 'possible cause: data `plan_pages` wrote, read back later (thread #1 why_stored)' "$T/screen1"

# --- values mode, count: the answer that flipped inside the writer
pair pg/why_stored "count 9999" "count 12000"
run 1 --color never "$T/g.trc" "$T/b.trc"
head -10 "$T/out" > "$T/head10"
has '^verdict: diverged: [a-z]* cause: the failure starts in `parse_count`' "$T/head10"
run 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" '
c = d["first_divergence"]["cause_chain"]
fn = [x["function"] for x in c]
assert fn[-3:] == ["parse_count", "set_count", "check_count"], fn
assert "the object `check_count` reads" in c[-2]["text"], c[-2]
assert d["verdict"]["cause"]["kind"] == "error_origin", d["verdict"]
'
run 1 --format html -o "$T/c.html" "$T/g.trc" "$T/b.trc"
sed -n '1,/<main>/p' "$T/c.html" > "$T/screen1"
has 'cause: the failure starts in `parse_count`' "$T/screen1"

# --- values mode, flag: setter and getter of one record, values 0 and 1
pair pg/why_stored "flag 8000" "flag 4100"
run 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" '
c = d["first_divergence"]["cause_chain"]
fn = [x["function"] for x in c]
assert fn[-4:] == ["is_large", "set_large", "get_large", "check_limits"], fn
assert "the object `get_large` reads" in c[-3]["text"], c[-3]
assert d["verdict"]["cause"]["function"] == "is_large", d["verdict"]["cause"]
g = [x for x in d["first_divergence"]["suspects"] if x["function"] == "get_large"]
assert not g or "error_appears" not in [e["kind"] for e in g[0]["evidence"]], g
'
run 1 --color never "$T/g.trc" "$T/b.trc"
has '^  [0-9]*\. because of [0-9]* (the same value): `set_large` was called with large = 0 in the bad run, 1 in the good run, and the object `get_large` reads (r)' "$T/out"
head -10 "$T/out" > "$T/head10"
has 'cause: .*`is_large`' "$T/head10"
run 1 --format html -o "$T/f.html" "$T/g.trc" "$T/b.trc"
sed -n '1,/<main>/p' "$T/f.html" > "$T/screen1"
has 'cause: .*`is_large`' "$T/screen1"
has 'title="wrote_read_back, weight 4.00">it was given the object `get_large` reads later' "$T/f.html"

# --- good runs alike
for s in pages spill flag made thread copy; do
    pair pg/why_stored "$s 8000" "$s 8000"
    run 0 --format json "$T/g.trc" "$T/b.trc"
    json "$T/out" 'assert d["verdict"]["cause"] is None, d["verdict"]'
done
pair pg/why_stored "count 12000" "count 12000"
run 0 --format json "$T/g.trc" "$T/b.trc"
echo ok
