#!/usr/bin/env python3
"""chrome_check.py JSON PID - check a ttdump --chrome document: it parses,
has process and thread metadata, every event carries pid PID, and per
thread the B/E events nest perfectly (E closes the innermost B of the same
name) with timestamps that never go back. Prints counts per (ph, name) as
"ph name count" lines for the calling script; exit 1 on any problem."""
import collections
import json
import sys


def main():
    path, pid = sys.argv[1], int(sys.argv[2])
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    events = doc["traceEvents"]
    stacks = collections.defaultdict(list)
    last = {}
    counts = collections.Counter()
    meta = collections.Counter()
    for ev in events:
        ph = ev["ph"]
        if ev.get("pid") != pid:
            sys.exit("event with pid %r, want %d: %r" % (ev.get("pid"), pid, ev))
        if ph == "M":
            meta[ev["name"]] += 1
            continue
        tid, ts = ev["tid"], ev["ts"]
        if not isinstance(ts, (int, float)):
            sys.exit("ts not a number: %r" % ev)
        if ts < last.get(tid, 0):
            sys.exit("time goes back in tid %d: %r after %r" % (tid, ev, last[tid]))
        last[tid] = ts
        counts[(ph, ev.get("name", ""))] += 1
        if ph == "B":
            stacks[tid].append(ev["name"])
        elif ph == "E":
            if not stacks[tid]:
                sys.exit("E without B in tid %d: %r" % (tid, ev))
            top = stacks[tid].pop()
            if ev.get("name", top) != top:
                sys.exit("E %r closes B %r in tid %d" % (ev.get("name"), top, tid))
        elif ph == "i":
            if ev.get("s") != "t":
                sys.exit("instant event not thread-scoped: %r" % ev)
        else:
            sys.exit("unexpected ph %r" % ph)
    for tid, st in stacks.items():
        if st:
            sys.exit("tid %d ends with open frames %r" % (tid, st))
    if meta["process_name"] != 1 or meta["thread_name"] < 1:
        sys.exit("metadata missing: %r" % dict(meta))
    print("threads %d" % meta["thread_name"])
    for (ph, name), n in sorted(counts.items()):
        print("%s %s %d" % (ph, json.dumps(name), n))


main()
