#!/usr/bin/env python3
"""golden.py - ttdiff's golden reports: one folder per case under tests/golden/.

  golden.py check  B [CASE...]      record each case's runs with build B, report
                                    in text, JSON and HTML, normalise, compare
                                    with expected.*; a unified diff and exit 1
                                    on any difference
  golden.py update B [CASE...]      the same, but (re)write expected.*
  golden.py record B DIR [CASE...]  record only: DIR/<case>/ gets the traces
                                    and 'args', ttdiff's arguments one a line
                                    (tests/golden/same_reports.sh)
  golden.py probe  B                the check fails on a report changed by
                                    one letter (tests/e2e/golden.sh runs it first)
  golden.py normalise B DIR FMT     the normaliser alone, stdin to stdout (DIR:
                                    the folder the traces were recorded in)

A case's 'cmd' file is read line by line (words split as by the shell,
no expansion; '#' starts a comment):
  good PROG ARG...    the good run; PROG is a program under B/fixtures
  bad PROG ARG...     the bad run
  base PROG ARG...    another good run, given to ttdiff as --baseline
                      (repeatable: base1.trc, base2.trc, ...)
  ttdiff ARG...       ttdiff's options (before the traces)
  status N            ttdiff's exit status (1 by default)
  fork parent|child   the program forks: keep the parent's or the child's trace
  env NAME=VALUE...   the environment of the runs
  unstable WHY...     the report depends on the schedule (WHY): no expected
                      files; only 'record' (same_reports.sh) takes the case
'@F' in a word is the absolute path of B/fixtures.

Reports hold what changes from run to run and machine to machine; normalise()
masks it, and only it (README.md here lists each rule and why).
"""
import difflib
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
FORMATS = (("txt", ["--color", "never"]), ("json", ["--format", "json"]),
           ("html", ["--format", "html"]))
RUN_TIMEOUT = 30


class CaseError(Exception):
    pass


def parse_case(path):
    """The statements of a case's cmd file as a dict."""
    c = {"good": None, "bad": None, "base": [], "ttdiff": [], "status": 1,
         "fork": None, "env": {}, "unstable": None}
    with open(path) as f:
        for n, line in enumerate(f, 1):
            try:
                w = shlex.split(line, comments=True)
            except ValueError as e:
                raise CaseError("%s:%d: %s" % (path, n, e))
            if not w:
                continue
            k, a = w[0], w[1:]
            if k in ("good", "bad") and a:
                c[k] = a
            elif k == "base" and a:
                c["base"].append(a)
            elif k == "ttdiff":
                c["ttdiff"] += a
            elif k == "status" and len(a) == 1 and a[0].isdigit():
                c["status"] = int(a[0])
            elif k == "fork" and a in (["parent"], ["child"]):
                c["fork"] = a[0]
            elif k == "unstable" and a:
                c["unstable"] = " ".join(a)
            elif k == "env" and all("=" in x for x in a):
                c["env"].update(x.split("=", 1) for x in a)
            else:
                raise CaseError("%s:%d: cannot read '%s'" % (path, n, line.strip()))
    if not c["good"] or not c["bad"]:
        raise CaseError("%s: needs a good and a bad line" % path)
    return c


def run_env(extra):
    """The environment of a recorded run: ours without TTCAP_* (a setting
    left in the shell must not change what is recorded), plus the case's."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TTCAP_")}
    env.update(extra)
    return env


def record(bd, case, argv, d, name):
    """Run argv (its program under bd/fixtures) with its trace at d/name."""
    fx = os.path.join(bd, "fixtures")
    argv = [x.replace("@F", fx) for x in argv]
    argv[0] = os.path.join(fx, argv[0])
    if not os.access(argv[0], os.X_OK):
        raise CaseError("no program %s (make fixtures)" % argv[0])
    out = os.path.join(d, name)
    if case["fork"]:
        sub = os.path.join(d, name + ".d")
        os.mkdir(sub)
        env = run_env(dict(case["env"], TTCAP_OUT=os.path.join(sub, "run.%p.trc")))
    else:
        env = run_env(dict(case["env"], TTCAP_OUT=out))
    p = subprocess.Popen(argv, cwd=d, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        p.wait(RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
        raise CaseError("%s timed out" % " ".join(argv))
    if case["fork"]:
        mine = "run.%d.trc" % p.pid
        got = sorted(os.listdir(sub))
        pick = [x for x in got if (x == mine) == (case["fork"] == "parent")
                and x.endswith(".trc")]
        if len(pick) != 1:
            raise CaseError("%s: want one %s trace, found %s" % (name, case["fork"], got))
        os.rename(os.path.join(sub, pick[0]), out)
    if not os.path.isfile(out) or os.path.getsize(out) == 0:
        raise CaseError("%s: no trace from %s" % (name, " ".join(argv)))


def record_case(bd, case, d):
    """Record a case's runs into folder d; ttdiff's arguments (relative to d)."""
    record(bd, case, case["good"], d, "good.trc")
    base = []
    for i, argv in enumerate(case["base"], 1):
        record(bd, case, argv, d, "base%d.trc" % i)
        base += ["--baseline", "base%d.trc" % i]
    record(bd, case, case["bad"], d, "bad.trc")
    return case["ttdiff"] + base + ["good.trc", "bad.trc"]


# ---- the normaliser ---------------------------------------------------------
# Every rule masks one thing that differs between two recordings of the same
# runs, or between two checkouts; nothing else is touched (README.md).
TIME_UNIT = r"(?:ms|s|ns|us|\u00b5s|&micro;s)"
RULES_ALL = [
    # times of day and durations: 1.047 ms, 138.294 &micro;s, 0.186 #0
    (re.compile(r"\b\d+\.\d{3}(?= " + TIME_UNIT + r"\b| #|\.\.)"), "#.###"),
    (re.compile(r"(#\.### )" + TIME_UNIT + r"\b"), r"\1t"),
    (re.compile(r"@\d+\.\d{3}\b"), "@#.###"),
    (re.compile(r"\b\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d+)?( UTC)?"), "YYYY-MM-DD hh:mm:ss"),
    # process ids
    (re.compile(r"\bpid (\d+)"), "pid N"),
    (re.compile(r"\brun\.\d+\.trc"), "run.N.trc"),
    # addresses (ASLR: stack, heap and library pointers in recorded values);
    # short hex numbers (offsets, small values, fault addresses) stay
    (re.compile(r"\b0x[0-9a-f]{8,16}\b"), "0xADDR"),
    # build-ids (40 hex digits: they change with the compiler and the checkout)
    (re.compile(r"\b[0-9a-f]{40}\b"), "BUILD-ID"),
]
RULES = {
    "txt": [],
    "json": [
        (re.compile(r'("[a-z_]*_ns": )\d+'), r"\1N"),
        # versions: a bump is no change of the report (a golden-update of
        # every case otherwise)
        (re.compile(r'("ttdiff_version": )"[0-9.]+"'), r'\1"X.Y.Z"'),
        (re.compile(r'("pid": )\d+'), r"\1N"),
    ],
    "html": [
        (re.compile(r"\bttdiff \d+\.\d+\.\d+\b"), "ttdiff X.Y.Z"),
        (re.compile(r'(<span class="t">)\d+\.\d+(</span>)'), r"\1#.###\2"),
        (re.compile(r"(<td>)\d+\.\d{3}(</td>)"), r"\1#.###\2"),
        (re.compile(r"(<tr><td>pid</td><td>)\d+(</td><td>)\d+"), r"\1N\2N"),
    ],
}
BLOCK = re.compile(r"(<(style|script)([^>]*)>)(.*?)(</\2>)", re.S)


def paths(s, bd, d):
    """Absolute paths of this checkout, its build and the traces' folder."""
    for p, name in ((d, "<T>"), (bd, "<B>"), (ROOT, "<ROOT>")):
        s = s.replace(os.path.realpath(p), name).replace(p, name)
    return s


def normalise(text, fmt, bd, d, json_report=None):
    s = paths(text, bd, d)
    if fmt == "html":
        def block(m):
            body = m.group(4)
            if 'id="tt-data"' in m.group(3):
                # the embedded JSON: kept when it differs from ttdiff --format json
                if json_report is not None and body.strip() == paths(json_report, bd, d).strip():
                    return m.group(1) + "[the JSON report]" + m.group(5)
                return m.group(1) + normalise(body, "json", bd, d) + m.group(5)
            h = hashlib.sha256(body.encode()).hexdigest()[:16]
            return "%s[%d bytes, sha256 %s]%s" % (m.group(1), len(body.encode()), h, m.group(5))
        s = BLOCK.sub(block, s)
    for rx, rep in RULES_ALL + RULES[fmt]:
        s = rx.sub(rep, s)
    return s


# ---- check and update ---------------------------------------------------------
def cases(names, unstable):
    """The cases named (all when none), with or without the unstable ones."""
    all_ = sorted(x for x in os.listdir(HERE)
                  if os.path.isfile(os.path.join(HERE, x, "cmd")))
    for n in names:
        if n not in all_:
            raise CaseError("no case %s in %s" % (n, HERE))
    keep = []
    for n in names or all_:
        why = parse_case(os.path.join(HERE, n, "cmd"))["unstable"]
        if why and not unstable:
            if names:
                raise CaseError("%s is unstable (%s): no golden files" % (n, why))
            continue
        keep.append(n)
    return keep


def report(bd, args, d, fmt_args):
    p = subprocess.run([os.path.join(bd, "ttdiff")] + fmt_args + args, cwd=d,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def run_case(bd, name, update, mutate=None):
    """0 when the case's reports match (or were written), 1 otherwise;
    mutate(text) -> text changes the raw reports first (the probe)."""
    cdir = os.path.join(HERE, name)
    case = parse_case(os.path.join(cdir, "cmd"))
    d = tempfile.mkdtemp(prefix="golden-%s." % name)
    try:
        args = record_case(bd, case, d)
        bad = 0
        out = {}
        for fmt, fa in FORMATS:
            rc, o, e = report(bd, args, d, fa)
            if rc != case["status"]:
                print("golden %s: ttdiff %s exited %d, want %d\n%s"
                      % (name, " ".join(fa + args), rc, case["status"], e.strip()))
                bad = 1
            out[fmt] = mutate(o) if mutate else o
            if not o:
                print("golden %s: ttdiff %s wrote nothing\n%s" % (name, " ".join(fa + args), e.strip()))
                bad = 1
        for fmt, _ in FORMATS:
            got = normalise(out[fmt], fmt, bd, d, out["json"])
            path = os.path.join(cdir, "expected." + fmt)
            if update:
                old = open(path).read() if os.path.exists(path) else None
                if old != got:
                    with open(path, "w") as f:
                        f.write(got)
                    print("golden %s: wrote expected.%s" % (name, fmt))
                continue
            if not os.path.exists(path):
                print("golden %s: no expected.%s (make golden-update)" % (name, fmt))
                bad = 1
                continue
            want = open(path).read()
            if got != want:
                bad = 1
                diff = difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                            "tests/golden/%s/expected.%s" % (name, fmt),
                                            "ttdiff (now)", n=2)
                lines = list(diff)
                if not mutate:
                    sys.stdout.writelines(lines[:80])
                if lines and not lines[-1].endswith("\n") and not mutate:
                    print()
                if len(lines) > 80 and not mutate:
                    print("... %d more lines of diff" % (len(lines) - 80))
        return bad
    finally:
        shutil.rmtree(d, ignore_errors=True)


def probe(bd):
    """The check must fail on a report changed by one letter (in a function
    name: no rule of the normaliser may hide it); whether the report as
    recorded passes is the check's own question."""
    def mutate(text):
        return text.replace("scan_number", "scan_numbeR", 1)
    if run_case(bd, "ex_parser", False, mutate) != 1:
        print("golden probe: a report with scan_numbeR for scan_number passed the check")
        return 1
    print("golden probe: a report changed by one letter fails")
    return 0


def main(argv):
    if len(argv) < 3 or argv[1] not in ("check", "update", "record", "normalise", "probe"):
        sys.stderr.write(__doc__)
        return 2
    cmd, bd = argv[1], os.path.abspath(argv[2])
    if not os.access(os.path.join(bd, "ttdiff"), os.X_OK):
        sys.stderr.write("golden: no %s/ttdiff (make all fixtures)\n" % bd)
        return 2
    try:
        if cmd == "normalise":
            sys.stdout.write(normalise(sys.stdin.read(), argv[4], bd, argv[3]))
            return 0
        if cmd == "record":
            out = os.path.abspath(argv[3])
            for name in cases(argv[4:], True):
                d = os.path.join(out, name)
                os.makedirs(d)
                args = record_case(bd, parse_case(os.path.join(HERE, name, "cmd")), d)
                with open(os.path.join(d, "args"), "w") as f:
                    f.write("".join(a + "\n" for a in args))
            return 0
        if cmd == "probe":
            return probe(bd)
        names = cases(argv[3:], False)
        if not names:
            print("golden: no case in %s" % HERE)
            return 1
        failed = [n for n in names if run_case(bd, n, cmd == "update")]
    except CaseError as e:
        print("golden: %s" % e)
        return 1
    if failed:
        print("golden: %d of %d cases differ: %s" % (len(failed), len(names), " ".join(failed)))
        print("golden: if the change is meant, make golden-update and review git diff tests/golden")
        return 1
    print("golden: %d cases, %s" % (len(names), "updated" if cmd == "update" else "all match"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
