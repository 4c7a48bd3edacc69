#!/bin/sh
# Threads ordered by the clock's bounds (issue 33): on lazy-clock traces
# (format 1.7) main's split is an untimed ENTER, placed by estimate at
# 0.220 ms between its bounds 0.040 and 0.310 ms; the worker parts at
# 0.055 ms, measured, inside them. Which came first is not known from
# the clock: with the process ended by main, main's split heads the
# report (the symptom's thread); ended by an idle thread, the estimates'
# order stands. Either way text, JSON and HTML say the order is unknown.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"

"$BD/rel/rel_gen" lazyorder "$T/g.trc" "$T/b.trc" 0
run 1 --color never "$T/g.trc" "$T/b.trc"
has '^first divergence: thread main (good #0, bad #0), good event 4, bad event 4, at 0.220 ms' "$T/out"
has "^order unknown: which thread parted first is not known from the clock: this split (0.040000 ms to 0.310000 ms) and thread worker's (bad #1, 0.055000 ms to 0.055000 ms) overlap, and no lock, signal, create or join orders them; this one is put first because its thread is where the bad run failed$" "$T/out"
run 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" '
h = d["hunks"]
assert h[0]["thread"] == "main" and h[0]["clock_order"] == "symptom", h[0]
assert (h[0]["early_ns"], h[0]["time_ns"], h[0]["late_ns"]) == (40000, 220000, 310000), h[0]
w = [x for x in h if x["thread"] == "worker"][0]
assert h[0]["clock_pair"] == w["pair"] and w["clock_order"] is None, w
assert w["early_ns"] == w["time_ns"] == w["late_ns"] == 55000, w'
run 1 --format html -o "$T/r.html" "$T/g.trc" "$T/b.trc"
has '<p class="note" id="tt-clock-order">Order unknown: which thread parted first' "$T/r.html"
has 'thread <code>worker</code>' "$T/r.html"

"$BD/rel/rel_gen" lazyorder "$T/g.trc" "$T/b.trc" 2
run 1 --color never "$T/g.trc" "$T/b.trc"
has '^first divergence: thread worker (good #1, bad #1)' "$T/out"
has "^order unknown: .* thread main's (bad #0, 0.040000 ms to 0.310000 ms) overlap, .*; this one is put first by the estimated times alone$" "$T/out"
run 1 --format json "$T/g.trc" "$T/b.trc"
json "$T/out" 'assert d["hunks"][0]["clock_order"] == "estimate", d["hunks"][0]'
echo ok
