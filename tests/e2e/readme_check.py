#!/usr/bin/env python3
"""readme_check.py - the example outputs of README.md and of the documents
it links to against real output (tests/e2e/readme_outputs.sh runs the
programs; this compares), and the documents' links.

usage: readme_check.py [--doc FILE]... B FIRST-LINE OUTPUT-FILE [FIRST-LINE OUTPUT-FILE ...]
       readme_check.py --list
       readme_check.py --links [--max-lines N] FILE...

Each FIRST-LINE names the code blocks that start with it, in any of the
documents (DOCS below, or the --doc files instead); there must be one at
least, and each must be OUTPUT-FILE's text once the things that change
from run to run are masked in both (times, pids, tids, addresses,
build-ids, event and byte counts that a sanitizer build changes, thread
numbers of a race, the build folder B and absolute paths). A block line
that is only "..." (indented or not) stands for any number of real lines
(the documents abridge), a line ending in "..." for any line that begins
with the text before it. Every other line must match in order, exactly.

Also: every code block of the documents without a language tag (an output
block) is either checked here or by a test named in CHECKED_ELSEWHERE, or
is a diagram in DIAGRAMS; a new output block nobody checks fails. Exit 1
with a diff on any difference.

--list prints DOCS, one a line (for the other doc tests). --links checks
that every relative link of each FILE names a file that exists and, for a
"#fragment" into a Markdown file, a heading there (GitHub's anchors), and
with --max-lines that the first FILE has at most N lines.
"""
import difflib
import re
import sys

# README.md and the documents it links to whose example outputs are
# checked (the topic documents beside their layers; README's table lists
# them). One list: readme_outputs.sh, example_readme.sh and doc_links.sh
# read it with --list.
DOCS = [
    "README.md",
    "capture/INSTRUMENT.md",
    "capture/VALUES.md",
    "report/READING.md",
    "report/CHANGELOG.md",
    "diff/ARCHITECTURE.md",
    "tests/TESTING.md",
    "tests/bench/PERFORMANCE.md",
    "tests/reliability/RELIABILITY.md",
]
# output blocks other tests compare (first line prefix: the test)
CHECKED_ELSEWHERE = {
    "usage: ttdiff ": "example_readme.sh (ttdiff --help)",
    "usage: ttdump ": "example_readme.sh (ttdump --help)",
    "usage: ttrec ": "example_readme.sh (ttrec --help)",
    "usage: ttcc ": "example_readme.sh (ttcc --help)",
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


def slug(heading):
    """GitHub's anchor of a Markdown heading."""
    h = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return h.replace(" ", "-")


def anchors(path):
    """The anchors of a Markdown file's headings (outside code blocks)."""
    out, seen, fence = set(), {}, False
    for line in open(path).read().splitlines():
        if line.startswith("```"):
            fence = not fence
        m = None if fence else re.match(r"#{1,6} +(.*?) *#*$", line)
        if not m:
            continue
        a = slug(m.group(1))
        n = seen.get(a, 0)
        seen[a] = n + 1
        out.add(a if n == 0 else f"{a}-{n}")
    return out


def check_links(files, max_lines):
    """1 if a relative link of files names no file (or no heading there),
    or the first file is longer than max_lines."""
    import os
    bad = 0
    if max_lines is not None:
        n = len(open(files[0]).read().splitlines())
        if n > max_lines:
            print(f"{files[0]}: {n} lines, more than {max_lines}")
            bad = 1
    for f in files:
        text = re.sub(r"^```.*?^```", "", open(f).read(), flags=re.S | re.M)
        text = re.sub(r"`[^`\n]*`", "", text)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue          # http:, https:, mailto:, file:
            path, _, frag = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
            if not os.path.exists(dest):
                print(f"{f}: link to {target}: no file {dest}")
                bad = 1
            elif frag and dest.endswith(".md") and frag not in anchors(dest):
                print(f"{f}: link to {target}: no heading '#{frag}' in {dest}")
                bad = 1
    return bad


def main():
    args = sys.argv[1:]
    if args[:1] == ["--list"]:
        print("\n".join(DOCS))
        return
    if args[:1] == ["--links"]:
        max_lines = None
        if args[1:2] == ["--max-lines"]:
            max_lines, args = int(args[2]), args[2:]
        sys.exit(check_links(args[1:], max_lines))
    docs = []
    while args[:1] == ["--doc"]:
        docs.append(args[1])
        args = args[2:]
    docs = docs or DOCS
    b = args[0]
    want = dict(zip(args[1::2], args[2::2]))
    bad = 0
    all_blocks = [(d, lang, t) for d in docs for lang, t in blocks(open(d).read())]
    for first, path in want.items():
        found = [(d, t) for d, lang, t in all_blocks if t.startswith(first)]
        if not found:
            print(f"{' '.join(docs)}: no block starting {first!r}")
            bad = 1
        for doc, body in found:
            if body.startswith("$ "):     # the command line is not output
                body = body.split("\n", 1)[1]
            w, g = mask(body, b), mask(open(path).read(), b)
            at = match(w, g)
            if at is None:
                continue
            print(f"{doc}: the block starting {first!r} is not what the program prints "
                  f"(masked; '...' lines stand for any lines); from its line "
                  f"{at + 1}: {w[at]!r}")
            sys.stdout.writelines(difflib.unified_diff(
                [x + "\n" for x in w], [x + "\n" for x in g], doc, path))
            bad = 1
    for doc, lang, t in all_blocks:
        if lang or not t.strip():
            continue
        if any(t.startswith(f) for f in want) or any(t.startswith(f) for f in CHECKED_ELSEWHERE):
            continue
        if t.startswith(DIAGRAMS):
            continue
        print(f"{doc}: an output block nobody checks: {t.splitlines()[0]!r} "
              f"(check it in tests/e2e/readme_outputs.sh, or tag it as code)")
        bad = 1
    sys.exit(bad)


if __name__ == "__main__":
    main()
