#!/usr/bin/env python3
"""readme_check.py - README.md's example outputs against real output
(tests/e2e/readme_outputs.sh runs the programs; this compares).

usage: readme_check.py README.md B FIRST-LINE OUTPUT-FILE [FIRST-LINE OUTPUT-FILE ...]

Each FIRST-LINE names the README code block that starts with it; that
block must be OUTPUT-FILE's text once the things that change from run to
run are masked in both (times, pids, tids, addresses, build-ids, event
and byte counts that a sanitizer build changes, thread numbers of a race,
the build folder B and absolute paths). A block line that is only "..."
(indented or not) stands for any number of real lines (the README
abridges), a line ending in "..." for any line that begins with the text
before it. Every other line must match in order, exactly.

Also: every README code block without a language tag (an output block) is
either checked here or by a test named in CHECKED_ELSEWHERE, or is a
diagram in DIAGRAMS; a new output block nobody checks fails. Exit 1 with
a diff on any difference.
"""
import difflib
import re
import sys

# output blocks other tests compare (first line prefix: the test)
CHECKED_ELSEWHERE = {
    "usage: ttdiff ": "example_readme.sh (ttdiff --help)",
    "usage: ttdump ": "example_readme.sh (ttdump --help)",
    "$ ttdiff good.trc bad.trc": "example_readme.sh (the parser example)",
    "$ cc -g $(pkg-config --cflags ttcap) -o sq sq.c": "ttcc.sh (sq.c's events)",
}
# blocks that are drawings, not output
DIAGRAMS = ("  report/   renderers", "  engine      engine.c")

# a time: right-aligned in a column (two or more spaces before it) it
# keeps the column's width, so what follows it stays checked
TIME = re.compile(r"( +)(\+?)\d+\.\d+( ?(?:ms|us))?")


def mask_time(m):
    short = m.group(2) + "T" + (m.group(3) or "")
    lead = m.group(1)
    if len(lead) < 2:
        return lead + short
    return " " * max(1, len(m.group(0)) - len(short)) + short


MASKS = [
    # "name:      value" fields (ttdump's header): values are left-aligned
    # after the label, so the width of a masked one must not count
    (r"^(\s*[a-z][a-z_ ]*:) {2,}", r"\1 "),
    (r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z", "DATE"),
    (r"file:///\S+", "file:///ABS"),
    (r"(exe|module|path): +/\S+", r"\1: /ABS"),
    (r" /\S+/(build[^ ]*/)?fixtures/", " /ABS/fixtures/"),
    (r"\b[0-9a-f]{40}\b", "BUILDID"),
    (r"0x[0-9a-f]+", "0xH"),
    (TIME, mask_time),
    (r"@\d+\.\d+ ms", "@T ms"),
    (r"^\d+\.\d+", "T"),
    (r"\d+\.\d+\.\.\d+\.\d+ ms", "T..T ms"),
    (r"tsc_hz: +\d+", "tsc_hz: N"),
    (r"\b(pid|ppid|tid):? +\d+", r"\1 N"),
    (r"\d+ events", "N events"),
    (r"events: +\d+ \(lost", "events: N (lost"),
    (r"(file|data) bytes: +\d+", r"\1 bytes: N"),
    (r"chunks: +\d+ total, \d+ used", "chunks: N total, N used"),
    (r"modules: \d+", "modules: N"),
    (r"events \d+/\d+", "events N/N"),
    (r"events \d+ lost", "events N lost"),
    (r"\(\d+\.\d+ bytes/event\)", "(N bytes/event)"),
    (r"\d+/\d+( +\d+)( +pool#\d+)?$", r"N/N\1\2"),
    (r"#\d+", "#N"),
    (r"producer-\d+", "producer-N"),
    (r"operation \d+", "operation N"),
    (r"last \d+ of \d+", "last N of N"),
    (r"had \d+ more events in the bad run, \d+ in the good run",
     "had N more events in the bad run, N in the good run"),
    (r" +\|", " |"),
]


def mask(text, b):
    if b != "build":
        text = text.replace(b + "/", "build/")
    out = []
    for line in text.splitlines():
        for pat, rep in MASKS:
            line = re.sub(pat, rep, line)
        out.append(line.rstrip())
    return out


def blocks(readme):
    """(language tag, text) of each fenced block."""
    return re.findall(r"^```([a-z]*)\n(.*?)^```", readme, re.S | re.M)


def eq(w, g):
    """A README line against a real one: "text..." is a prefix."""
    if w.endswith("...") and w.strip() != "...":
        return g.startswith(w[:-3])
    return w == g


def match(want, got):
    """None if want's lines (with "..." lines as gaps) are got's lines, else
    the first README line (index) that does not follow."""
    segs, cur, gap = [], [], False
    for i, line in enumerate(want):
        if line.strip() == "...":
            segs.append((gap, cur))
            cur, gap = [], True
        else:
            cur.append(i)
    segs.append((gap, cur))
    pos = 0
    for k, (gap, idx) in enumerate(segs):
        lines = [want[i] for i in idx]
        last = k == len(segs) - 1
        starts = range(pos, len(got) - len(lines) + 1) if gap else [pos]
        for st in starts:
            if (st + len(lines) <= len(got) and all(eq(a, b) for a, b in zip(lines, got[st:]))
                    and (not last or st + len(lines) == len(got))):
                pos = st + len(lines)
                break
        else:
            if not idx:
                return None if gap or pos == len(got) else len(want) - 1
            # the first line of the segment that does not follow
            st = starts[0] if not gap else next((s for s in starts if eq(lines[0], got[s])), None)
            if st is None:
                return idx[0]
            n = 0
            while n < len(lines) and st + n < len(got) and eq(lines[n], got[st + n]):
                n += 1
            return idx[min(n, len(idx) - 1)]
    return None


def main():
    readme_path, b = sys.argv[1], sys.argv[2]
    readme = open(readme_path).read()
    want = dict(zip(sys.argv[3::2], sys.argv[4::2]))
    bad = 0
    all_blocks = blocks(readme)
    for first, path in want.items():
        found = [t for lang, t in all_blocks if t.startswith(first)]
        if len(found) != 1:
            print(f"README.md: want one block starting {first!r}, found {len(found)}")
            bad = 1
            continue
        body = found[0]
        if body.startswith("$ "):     # the command line is not output
            body = body.split("\n", 1)[1]
        w, g = mask(body, b), mask(open(path).read(), b)
        at = match(w, g)
        if at is not None:
            print(f"README.md: the block starting {first!r} is not what the program prints "
                  f"(masked; '...' lines in the README stand for any lines); from its line "
                  f"{at + 1}: {w[at]!r}")
            sys.stdout.writelines(difflib.unified_diff(
                [x + "\n" for x in w], [x + "\n" for x in g], "README.md", path))
            bad = 1
    for lang, t in all_blocks:
        if lang or not t.strip():
            continue
        if any(t.startswith(f) for f in want) or any(t.startswith(f) for f in CHECKED_ELSEWHERE):
            continue
        if t.startswith(DIAGRAMS):
            continue
        print(f"README.md: an output block nobody checks: {t.splitlines()[0]!r} "
              f"(check it in tests/e2e/readme_outputs.sh, or tag it as code)")
        bad = 1
    sys.exit(bad)


if __name__ == "__main__":
    main()
