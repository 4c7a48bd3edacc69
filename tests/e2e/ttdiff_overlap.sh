#!/bin/sh
# ttdiff_overlap.sh - issue 33 item 4: another thread's call in flight over
# the split. fixtures/progs/async_fold.c: a loop thread's dispatch runs
# the callback on_wake and clears the `pending` flag after it; with
# ASYNC_FOLD=race the producer's send_wake reads the flag while on_wake
# still runs, folds its wake-up away, and the message is never handled.
# Plain build (and values, JSON): the verdict names a race (kind "race") at dispatch, thread
# loop, the call the split's thread ran inside, with send_wake and the
# global `pending` in the sentence and when dispatch ran against the
# split, in text (first 10 lines), HTML (first screen) and JSON;
# "possible". Must not: the same program done right (the flag cleared
# before the callback: no divergence, no cause); the flag read and
# written under one mutex (ASYNC_FOLD_LOCK=1: no lock-free window, no
# race named at dispatch); two good runs, no cause.
# The same checks on fixtures/progs/async_field.c (issue 33: shared state
# by field, not by global): the `pending` flag in a heap struct handed to
# both threads, send_wake(h) reads h->pending and dispatch(h) (through
# clear_pending(h)) writes it through their pointer parameters; no operand
# names a global. The split frame's code and the call in flight touch the
# same field (offset) of the same struct type (format's
# ttf_sym_code_fields): the sentence names the field and its type.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

command -v gcc > /dev/null || { echo "SKIP: no gcc"; exit 77; }
# overlap FIXTURE READ-RE WRITE-RE JSON-TEXT: the checks on one fixture
overlap() {
    cp "fixtures/progs/$1" "$T/prog.c"
    (cd "$T" && "$BD/ttcc" gcc ${SAN:-} -O2 -pthread -o prog prog.c) || fail "build"
    rec g.trc "$T/prog"
    ASYNC_FOLD=race rec b.trc "$T/prog"
    run 1 --color never "$T/g.trc" "$T/b.trc"
    head -10 "$T/out" > "$T/head10"
    has '^verdict: diverged: possible cause: a race in `dispatch` (thread loop)' "$T/head10"
    has "^  cause: \`dispatch\` (thread loop) was still running when \`send_wake\` (thread producer) read $2 and took the other branch; \`dispatch\` writes $3, and no lock was held by both" "$T/head10"
    has '^  evidence: in the bad run `dispatch` ran from [0-9.]* to [0-9.]* ms and the calls part at [0-9.]* ms, inside it; in the good run the same call of thread loop was not running where they part' "$T/head10"
    has "^  evidence: \`send_wake\`.s machine code reads $2" "$T/head10"
    has '^  symptom: the calls part in `send_wake`' "$T/head10"
    run 1 --format html "$T/g.trc" "$T/b.trc"
    sed -n '1,/<main>/p' "$T/out" > "$T/screen1"
    has 'a race in .*dispatch' "$T/screen1"
    has 'the read fell inside the other thread.*s call (a window)' "$T/screen1"
    run 1 --format json "$T/g.trc" "$T/b.trc"
    OV_TEXT=$4 json "$T/out" '
import os
v = d["verdict"]
c = v["cause"]
assert c["kind"] == "race" and c["function"] == "dispatch", c
assert c["thread"] == "loop" and "`send_wake` (thread producer)" in c["text"], c
assert os.environ["OV_TEXT"] in c["text"] and "a window" in c["text"], c
assert any("inside it" in e for e in v["evidence"]), v["evidence"]
assert v["confidence"] == "possible", v
assert v["symptom"]["function"] == "send_wake", v["symptom"]
'
    # values mode: no value differs before the split (send_wake returns
    # nothing), the same verdict
    (cd "$T" && "$BD/ttcc" --values gcc ${SAN:-} -O2 -pthread -o prog-values prog.c) || fail "build values"
    rec gv.trc "$T/prog-values"
    ASYNC_FOLD=race rec bv.trc "$T/prog-values"
    run 1 --format json "$T/gv.trc" "$T/bv.trc"
    json "$T/out" '
c = d["verdict"]["cause"]
assert c["kind"] == "race" and c["function"] == "dispatch" and c["thread"] == "loop", c
'
    # must not: done right (cleared before the callback), the same timings
    ASYNC_FOLD_RIGHT=1 rec gr.trc "$T/prog"
    ASYNC_FOLD_RIGHT=1 ASYNC_FOLD=race rec br.trc "$T/prog"
    run 0 --format json "$T/gr.trc" "$T/br.trc"
    json "$T/out" 'assert d["verdict"]["cause"] is None, d["verdict"]'
    # must not: the flag under one mutex in both calls (ordered by the lock)
    ASYNC_FOLD_LOCK=1 rec gl.trc "$T/prog"
    ASYNC_FOLD_LOCK=1 ASYNC_FOLD=race rec bl.trc "$T/prog"
    run 1 --format json "$T/gl.trc" "$T/bl.trc"
    json "$T/out" '
c = d["verdict"]["cause"]
assert not (c["kind"] == "race" and c["function"] == "dispatch"), c
assert "a window" not in c["text"], c
'
    # the good runs alike: no divergence, no cause
    rec g2.trc "$T/prog"
    run 0 --format json "$T/g.trc" "$T/g2.trc"
    json "$T/out" 'assert d["verdict"]["cause"] is None, d["verdict"]'
}

overlap async_fold.c '`pending`' '`pending`' '`pending`'
rm -f "$T"/*.trc
overlap async_field.c 'the field at +0x[0-9a-f]* of a `struct async_handle` (through a pointer)' \
    'the field at +0x[0-9a-f]* of a `struct async_handle` too (the same type and offset: possibly the same object)' \
    'of a `struct async_handle`'
echo ok
