#!/bin/sh
# ttdiff's explain stage (issue 20) on fixture programs, in both modes:
# an argument computed four frames up (why_argchain), a worker thread's
# error that makes the main thread take another path (why_worker), a
# program that makes the same calls and exits 1 (why_exit), a main
# thread's first split that only follows a slow worker's progress while
# the worker's own check failed (why_progress), a range check's answer
# (the end of its type) read back much later (why_range); the cause
# chain and the suspects' evidence in text, JSON and HTML (rendered in
# headless Chromium when there is one); and two identical runs of
# deterministic programs in values mode give exit 0, clocks and heap
# addresses included (why_clock).
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

VALUES=0
[ "$(uname -m)" = x86_64 ] && [ -x "$BD/fixtures/pg/why_argchain" ] && VALUES=1
pair() { # pair PROG GOOD-ARG BAD-ARG: record g.trc and b.trc
    rm -f "$T/g.trc" "$T/b.trc"
    rec g.trc "$BD/fixtures/$1" $2
    rec b.trc "$BD/fixtures/$1" $3
}

# --- an argument computed four frames up
pair why_argchain short a-much-longer-name
run 1 --color never "$T/g.trc" "$T/b.trc"
has '^  1\. store  at .*(score 3.0: the diverging frame: its calls differ here)' "$T/out"
has '^  it starts at 1: values not recorded' "$T/out"
if [ $VALUES = 1 ]; then
    pair pg/why_argchain short a-much-longer-name
    run 1 --color never "$T/g.trc" "$T/b.trc"
    has '^first divergence: `encode` was called with argument 2 (size) = 40 in the bad run, 14 in the good run' "$T/out"
    has '^  1\. prepare  at .*why_argchain.c:[0-9]*  (score [0-9.]*: `prepare` computed the argument' "$T/out"
    has '^  4\. because of 3 (the same value): `store` was called with size = 40' "$T/out"
    has '^  5\. because of 4: the calls part in `store`: the good run calls `copy`, the bad run calls `overflow`' "$T/out"
    has '^  it starts at 1: `prepare` computed the argument' "$T/out"
    run 1 --format json "$T/g.trc" "$T/b.trc"
    json "$T/out" "
f = d['first_divergence']
c = f['cause_chain']
assert [x['kind'] for x in c] == ['argument'] * 4 + ['split'], c
assert [x['function'] for x in c[:4]] == ['encode', 'write_block', 'emit', 'store'], c
assert all(x['strong'] for x in c[:3]) and c[0]['param'] == 'size' and c[0]['bad'] == '40', c
assert 'prepare' in f['cause_chain_end']
s = f['suspects']
assert s[0]['function'] == 'prepare' and s[0]['role'] == 'caller', s[0]
assert 'arg_origin' in [e['kind'] for e in s[0]['evidence']]
assert s[0]['score'] == sum(e['weight'] for e in s[0]['evidence'])
assert d['value_divergence']['function'] == 'encode' and d['value_divergence']['before_split']
"
    run 1 --format html -o "$T/argchain.html" "$T/g.trc" "$T/b.trc"
    has '<ol class="chain" id="tt-chain">' "$T/argchain.html"
fi

# --- a worker's error, earlier in the bad run's time, makes main diverge
pair why_worker 7 13
run 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" "
f = d['first_divergence']
assert f['thread']['bad'] == 0 and f['stack'][-1] == 'main', f['stack']
assert f['suspects'][0]['function'] == 'main' and f['cause_chain_end'] == 'values not recorded'
"
if [ $VALUES = 1 ]; then
    pair pg/why_worker 7 13
    run 1 --color never "$T/g.trc" "$T/b.trc"
    has '^  5\. after 4 (thread why_worker first, in the bad run.s time): the calls part in `main`' "$T/out"
    run 1 --format json "$T/g.trc" "$T/b.trc"
    json "$T/out" "
f = d['first_divergence']
c = f['cause_chain']
assert f['thread']['bad'] == 0 and c[-1]['kind'] == 'split' and c[-1]['pair'] == 0, c
w = [x for x in c if x['pair'] == 1]
assert w and any(x['function'] == 'fetch' and x['kind'] == 'returned' and x['bad'] == '-5' for x in w), c
s = f['suspects'][0]
assert s['function'] == 'fetch' and s['pair'] == 1, s
k = [e['kind'] for e in s['evidence']]
assert 'earlier_in_other_thread' in k and 'error_appears' in k, k
"
fi

# --- a range check's answer read back much later (why_range): the bad
# number is the type's minimum, which parse_int's off-by-one check answers
# with LLONG_MIN (and ERANGE); check_limits fails on the flag stored with
# it. Plain mode has only the branch; values mode links the split, which
# saw no value of its own differ, to that answer in its own thread.
pair why_range -9223372036854775807 -9223372036854775808
run 1 --color never "$T/g.trc" "$T/b.trc"
has '^verdict: diverged: possible cause: the branch in `check_limits`' "$T/out"
if [ $VALUES = 1 ]; then
    pair pg/why_range -9223372036854775807 -9223372036854775808
    run 1 --color never "$T/g.trc" "$T/b.trc"
    has '^verdict: diverged: likely cause: the failure starts in `parse_int`' "$T/out"
    has "^  evidence: the failure starts here: it returned -9223372036854775808 in the bad run (its type's minimum: a range check's answer), which none of its 5 calls in the good run did" "$T/out"
    has '^  2\. because of 1: the calls part in `check_limits`: only the bad run calls `report_bad`' "$T/out"
    run 1 --format json "$T/g.trc" "$T/b.trc"
    json "$T/out" "
f = d['first_divergence']
c = f['cause_chain']
assert [x['kind'] for x in c] == ['returned', 'split'], c
assert c[0]['function'] == 'parse_int' and c[0]['bad'] == '-9223372036854775808', c
assert c[0]['good'] == '-9223372036854775807' and not c[0]['strong'], c
assert d['values']['noise'] == 0 and d['verdict']['cause']['kind'] == 'error_origin', d['verdict']
assert d['verdict']['cause']['function'] == 'parse_int'
"
fi

# --- a first split that only follows the worker's progress (order.c): the
# main thread finds the slow worker's job pending under the queue lock at
# 50 ms; the worker's own failing check, at 300 ms, heads the report
# (the good run's worker must be done by 50 ms: under a heavy load it may
# not have run yet, and then the good run notes it pending too; such a
# recording is made again, up to 5 times, and never taken as ttdiff's fault)
progress_pair() {
    for i in 1 2 3 4 5; do
        pair "$1" "7 0" "13 300"
        "$BD/ttdump" "$T/g.trc" 2>/dev/null | grep -q note_pending || return 0
        echo "the good run's worker was not done at 50 ms (try $i): recording again"
    done
    fail "the good run's worker was never done at 50 ms in 5 tries (load $(cut -d' ' -f1 /proc/loadavg))"
}
progress_pair why_progress
run 1 --color never "$T/g.trc" "$T/b.trc"
has '^first divergence: thread worker (good #1, bad #1)' "$T/out"
has '^earlier in time: thread main (bad #0) went another way at [0-9.]* ms, holding a lock that thread worker (bad #1) had taken a different number of times by then: it follows how far the threads had got, and nothing orders it before this one' "$T/out"
run 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" "
h = d['hunks']
assert d['first_divergence']['thread']['bad'] == 1 and h[0]['bad_thread'] == 1, h[0]
assert not h[0]['follows_progress']
m = [x for x in h if x['follows_progress']]
assert len(m) == 1 and m[0]['bad_thread'] == 0 and m[0]['time_ns'] < h[0]['time_ns'], m
assert m[0]['first_because'] == 'unordered' and m[0]['progress_pair'] == 1, m
"
run 1 --format html -o "$T/progress.html" "$T/g.trc" "$T/b.trc"
has 'id="tt-followed">Earlier in time, thread <code>main</code> (bad #0) went another way' "$T/progress.html"
run 1 --color never --thread 0 "$T/g.trc" "$T/b.trc"    # alone, main's split is the first
has '^first divergence: thread main (good #0, bad #0)' "$T/out"
if [ $VALUES = 1 ]; then
    progress_pair pg/why_progress
    run 1 --format json "$T/g.trc" "$T/b.trc"
    json "$T/out" "
f = d['first_divergence']
assert f['thread']['bad'] == 1 and f['suspects'][0]['function'] == 'check_block', f['suspects'][0]
"
fi

# --- the same calls, another exit status: a divergence
pair why_exit 5 50
run 1 --color never "$T/g.trc" "$T/b.trc"
has '^first divergence: the runs made the same calls but ended differently: exit status 1 in the bad run, exit status 0 in the good run' "$T/out"
run 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" "
o = d['outcome']
assert d['diverged'] and d['first_divergence'] is None and d['hunks_total'] == 0
assert o['same_calls'] and o['differs'] and (o['good_exit'], o['bad_exit']) == (0, 1), o
assert [x['kind'] for x in o['cause_chain']] == ['exit_status'] and o['cause_chain_end'] == 'values not recorded'
"
run 0 --function '^main$' "$T/g.trc" "$T/b.trc"   # part of the calls: the end alone is no divergence
run 1 --format html -o "$T/exit.html" "$T/g.trc" "$T/b.trc"
has '<section class="first" id="outcome">' "$T/exit.html"
if [ $VALUES = 1 ]; then
    pair pg/why_exit 5 50
    run 1 --color never "$T/g.trc" "$T/b.trc"
    has '^the first value difference that matters: `parse` returned 50 in the bad run, 5 in the good run' "$T/out"
    run 1 --format json "$T/g.trc" "$T/b.trc"
    json "$T/out" "
c = d['outcome']['cause_chain']
assert [x['kind'] for x in c][-3:] == ['returned', 'returned', 'exit_status'], c
assert [x['function'] for x in c][-3:-1] == ['check', 'main'] and c[-2]['bad'] == '1', c
"
fi

# --- two identical runs of deterministic programs: exit 0 in values mode
if [ $VALUES = 1 ]; then
    for args in "vd_errchain 30" "vd_status 2" "vd_lookup add 5" "vd_longjmp 1+2*3" \
                "pg/why_argchain short" "pg/why_exit 5" "pg/why_clock" \
                "pg/sus_validate 2" "pg/diff_parse abcd" "pg/ex_parser size=64,mode=755,ro"; do
        set -- $args
        p=$1; shift
        pair "$p" "$*" "$*"
        rc=0
        "$TTDIFF" --color never "$T/g.trc" "$T/b.trc" > "$T/out" 2>&1 || rc=$?
        [ "$rc" = 0 ] || { cat "$T/out"; fail "two identical runs of $p $*: exit $rc"; }
    done
    pair pg/why_clock "" ""
    run 0 --color never "$T/g.trc" "$T/b.trc"
    has '^values: [0-9]* compared, [0-9]* differing ones not taken as causes (clocks, counters, addresses)' "$T/out"
fi

# --- HTML in a real browser: the chain and the evidence are on the page
CHROME=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROME" ] || echo "SKIP part: the chain and evidence in a real browser (no chromium)"
if [ -n "$CHROME" ] && [ $VALUES = 1 ]; then
    pair pg/why_argchain short a-much-longer-name
    run 1 --format html -o "$T/page.html" "$T/g.trc" "$T/b.trc"
    timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --user-data-dir="$T/prof" --dump-dom "file://$T/page.html" > "$T/dom.html" 2>"$T/chrome.err" \
        || fail "chromium --dump-dom failed"
    python3 - "$T/dom.html" <<'PY' || fail "rendered chain and evidence"
import html, re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
chain = re.search(r'<ol class="chain" id="tt-chain">(.*?)</ol>', dom, re.S)
assert chain, "no chain"
items = re.findall(r"<li[^>]*>(.*?)</li>", chain.group(1), re.S)
text = [html.unescape(re.sub(r"<[^>]+>", "", i)) for i in items]
assert len(text) == 5 and text[0].startswith("`encode` was called with size = 40"), text
assert text[1].startswith("because of 1 (the same value):"), text
assert "the calls part in `store`" in text[4], text
end = re.search(r'id="tt-chain-end">(.*?)</p>', dom, re.S)
assert end and "prepare" in end.group(1), end
sus = re.search(r'<ol class="sus" id="tt-suspects">(.*?)</ol>\s*<div', dom, re.S)
assert sus and 'class="evid"' in sus.group(1) and "score" in sus.group(1), "no evidence"
first = re.search(r'<li><span class="fn">(.*?)</span>', sus.group(1))
assert first and first.group(1) == "prepare", first
PY
else
    echo "note: no chromium or no values build: browser checks not run"
fi
echo "ok"
