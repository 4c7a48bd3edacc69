#!/usr/bin/env python3
"""check_stage_docs.py - the design notes agree with the stage maps (make
check-stages, run by make test). tests/check_stages.sh proves the code
keeps each ROOM/STAGES map; this proves what the docs say about the maps
is what the maps say. It reads every STAGES file given, then every source
and Markdown file under ROOT (not build/), and checks three kinds of claim:

  (a) a file's header "Stage N NAME of ROOM/STAGES": the map has stage
      NAME at level N, and a .c/.S file of ROOM saying so is placed in it;
  (b) a stage list written as the map writes it, "N NAME: file.c ...", in
      a comment or a Markdown block (any line whose files all belong to a
      room's map): the same level and exactly the same files as the map;
  (c) a file that declares its sections "bottom of ROOM/STAGES first"
      (capture/cap_int.h): its "/* file.c ..." section comments go bottom
      first (levels never fall).

It FAILS, one line per fault, on a claim the map contradicts, and when a
room has no claim checked at all (the check cannot pass by reading
nothing). A doc that names ROOM/STAGES in prose only is not checked:
write its stage list as the map does.

Usage: check_stage_docs.py ROOT ROOM/STAGES...
       check_stage_docs.py --probe WORKDIR   (generated rooms and docs: a
       wrong level, a wrong file list and a wrong order must each fail, a
       true set must pass)
"""
import os
import re
import sys

SKIP_DIRS = {"build", ".git", "node_modules"}
DOC_EXT = (".c", ".h", ".S", ".md", ".cpp", ".inc")
LIST_RE = re.compile(r"^[\s*#/>`|-]*([0-9]+) ([a-z][a-z0-9-]*): ((?:[\w.-]+\.(?:c|S) ?)+)\s*(?:\*/)?\s*$")
HEADER_RE = re.compile(r"[Ss]tage ([0-9]+) ([a-z][a-z0-9-]*) of ([\w/]+)/STAGES")
ORDER_RE = re.compile(r"bottom of ([\w/]+)/STAGES first")
SECTION_RE = re.compile(r"^/\* ([\w.-]+\.(?:c|S))\b")


def read_map(path):
    """{stage: (level, set of files)}, {file: (level, stage)}; faults"""
    stages, files, faults = {}, {}, []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line or re.match(r"^(type|result) [\w]+: ", line):
                continue    # check_stages.sh's type and result rules
            m = re.match(r"^([0-9]+) ([a-z][a-z0-9-]*): (.*)$", line)
            if not m:
                faults.append("%s:%d: want \"LEVEL NAME: file.c ...\"" % (path, n))
                continue
            lv, name, fl = int(m.group(1)), m.group(2), m.group(3).split()
            stages[name] = (lv, set(fl))
            for x in fl:
                files[x] = (lv, name)
    return stages, files, faults


def doc_files(root):
    for d, subs, names in os.walk(root):
        subs[:] = sorted(s for s in subs if s not in SKIP_DIRS and
                         not (d == root and s.startswith(".")))
        for nm in sorted(names):
            if nm.endswith(DOC_EXT):
                yield os.path.join(d, nm)


def check(root, maps):
    rooms = {}      # room (folder relative to root) -> (stages, files)
    faults = []
    for p in maps:
        st, fl, bad = read_map(p)
        faults += bad
        room = os.path.relpath(os.path.dirname(os.path.abspath(p)), os.path.abspath(root))
        rooms[room] = (st, fl)
    owner = {}      # file name -> room (a name in two rooms is ambiguous)
    for room, (st, fl) in rooms.items():
        for x in fl:
            owner[x] = None if x in owner and owner[x] != room else room
    checked = {room: 0 for room in rooms}
    for path in doc_files(root):
        rel = os.path.relpath(path, root)
        if os.path.basename(rel) == "STAGES":
            continue
        try:
            text = open(path, encoding="utf-8", errors="replace").read()
        except OSError as e:
            faults.append("%s: %s" % (rel, e))
            continue
        here = os.path.dirname(rel)
        base = os.path.basename(rel)
        order_room = None
        m = ORDER_RE.search(text)
        if m and m.group(1) in rooms:
            order_room = m.group(1)
        last = None
        for n, line in enumerate(text.split("\n"), 1):
            where = "%s:%d" % (rel, n)
            # (a) "Stage N NAME of ROOM/STAGES"
            for m in HEADER_RE.finditer(line):
                lv, name, room = int(m.group(1)), m.group(2), m.group(3)
                if room not in rooms:
                    continue
                st, fl = rooms[room]
                checked[room] += 1
                if name not in st:
                    faults.append("%s: says stage %d %s of %s/STAGES; the map has no stage %s"
                                  % (where, lv, name, room, name))
                elif st[name][0] != lv:
                    faults.append("%s: says stage %d %s of %s/STAGES; the map puts %s at level %d"
                                  % (where, lv, name, room, name, st[name][0]))
                elif here == room and base.endswith((".c", ".S")) and fl.get(base, (None, None))[1] != name:
                    got = fl.get(base)
                    faults.append("%s: %s says it is in stage %s; the map puts it in %s"
                                  % (where, base, name, "%d %s" % got if got else "no stage"))
            # (b) a list written as the map writes it
            m = LIST_RE.match(line)
            if m:
                lv, name, fl_doc = int(m.group(1)), m.group(2), m.group(3).split()
                rs = {owner.get(x) for x in fl_doc}
                if len(rs) == 1 and None not in rs:
                    room = rs.pop()
                    st, _ = rooms[room]
                    checked[room] += 1
                    if name not in st:
                        faults.append("%s: lists stage %d %s of %s/; the map has no stage %s"
                                      % (where, lv, name, room, name))
                    elif st[name][0] != lv or st[name][1] != set(fl_doc):
                        want = "%d %s: %s" % (st[name][0], name, " ".join(sorted(st[name][1])))
                        faults.append("%s: lists \"%d %s: %s\"; %s/STAGES says \"%s\""
                                      % (where, lv, name, " ".join(fl_doc), room, want))
            # (c) sections bottom first
            if order_room:
                m = SECTION_RE.match(line)
                _, fl = rooms[order_room]
                if m and m.group(1) in fl:
                    checked[order_room] += 1
                    lv = fl[m.group(1)][0]
                    if last and lv < last[1]:
                        faults.append("%s: section %s (level %d) after %s (level %d): not bottom of %s/STAGES first"
                                      % (where, m.group(1), lv, last[0], last[1], order_room))
                    last = (m.group(1), lv)
    for room, k in sorted(checked.items()):
        if not k:
            faults.append("%s/STAGES: no doc states a stage of it (nothing checked)" % room)
    return faults, checked


def probe(w):
    """generated rooms: each wrong doc must fail naming why, the true set pass"""
    import shutil
    shutil.rmtree(w, ignore_errors=True)
    os.makedirs(os.path.join(w, "room"))

    def put(rel, text):
        p = os.path.join(w, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)
    put("room/STAGES", "0 base: a.c b.c\n1 top: c.c\n")
    put("room/a.c", "/* a.c - Stage 0 base of room/STAGES. */\n")
    put("room/b.c", "/* b.c */\n")
    put("room/c.c", "/* c.c - Stage 1 top of room/STAGES.\n *   0 base: a.c b.c\n *   1 top: c.c\n */\n")
    put("room/int.h", "/* bottom of room/STAGES first */\n/* a.c (a leaf) */\n/* c.c */\n")
    r = 0
    faults, _ = check(w, [os.path.join(w, "room/STAGES")])
    if faults:
        print("check-stage-docs: probe: the true docs failed:\n  " + "\n  ".join(faults))
        r = 1
    cases = [
        ("room/a.c", "/* a.c - Stage 1 base of room/STAGES. */\n", "puts base at level 0"),
        ("room/b.c", "/* b.c - Stage 1 top of room/STAGES. */\n", "b.c says it is in stage top"),
        ("room/c.c", "/* c.c\n *   0 base: a.c\n *   1 top: c.c\n */\n", "room/STAGES says \"0 base: a.c b.c\""),
        ("room/int.h", "/* bottom of room/STAGES first */\n/* c.c */\n/* a.c */\n", "not bottom of room/STAGES first"),
    ]
    for rel, bad, why in cases:
        p = os.path.join(w, rel)
        good = open(p, encoding="utf-8").read()
        put(rel, bad)
        faults, _ = check(w, [os.path.join(w, "room/STAGES")])
        if not any(why in f for f in faults):
            print("check-stage-docs: probe: a wrong %s passed (want \"%s\"): %s" % (rel, why, faults))
            r = 1
        put(rel, good)
    put("empty/STAGES", "0 only: z.c\n")
    faults, _ = check(w, [os.path.join(w, "empty/STAGES")])
    if not any("nothing checked" in f for f in faults):
        print("check-stage-docs: probe: a map no doc states passed")
        r = 1
    return r


def main(argv):
    if len(argv) == 3 and argv[1] == "--probe":
        r = probe(argv[2])
        if not r:
            print("check-stage-docs: probe: wrong level, wrong list, wrong order and an unchecked map caught")
        return r
    if len(argv) < 3:
        print("usage: check_stage_docs.py ROOT ROOM/STAGES...", file=sys.stderr)
        return 2
    faults, checked = check(argv[1], argv[2:])
    for f in faults:
        print("check-stage-docs: " + f)
    if faults:
        return 1
    print("check-stage-docs: ok (%s)" % ", ".join("%s/STAGES %d claims" % kv for kv in sorted(checked.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
