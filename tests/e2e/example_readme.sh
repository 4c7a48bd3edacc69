#!/bin/sh
# example_readme.sh - README.md and the documents it links to
# (readme_check.py --list) stay true to the tools: a usage block any of them
# quotes is exactly that command's --help (ttdiff, ttdump, ttrec, ttcc);
# the ttdiff example (the parser's good and bad run, report/READING.md) is
# what ttdiff prints; and the environment variables are documented once:
# README.md and capture/ttcap.h point to libttcap(3), which
# tests/check_man.sh checks against the variables capture/ reads.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
for tool in ttdiff ttdump ttrec ttcc; do
    "$B/$tool" --help > "$T/$tool.help" 2>&1 || true
done
# the ttdiff example, run: the parser's good and bad run
BD=$(cd "$B" && pwd)
mkdir "$T/ex"
(cd "$T/ex" && TTCAP_OUT=good.trc "$BD/fixtures/ex_parser" size=64,mode=755,ro > /dev/null &&
 TTCAP_OUT=bad.trc "$BD/fixtures/ex_parser" size=64,mode=755 > /dev/null &&
 { "$BD/ttdiff" --color never good.trc bad.trc > ../example.out || true; })
python3 - "$T" capture/ttcap.h $(python3 tests/e2e/readme_check.py --list) <<'PY'
import difflib, re, sys
tmp, header, docs = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3:]
blocks = [(d, b) for d in docs
          for b in re.findall(r"^```[a-z]*\n(.*?)^```", open(d).read(), re.S | re.M)]
bad = 0
for tool in ("ttdiff", "ttdump", "ttrec", "ttcc"):
    real = open(f"{tmp}/{tool}.help").read()
    for doc, quoted in [(d, b) for d, b in blocks if b.startswith(f"usage: {tool} ")]:
        if quoted != real:
            print(f"{doc}: the quoted {tool} --help differs from {tool} --help:")
            sys.stdout.writelines(difflib.unified_diff(
                quoted.splitlines(True), real.splitlines(True), doc, f"{tool} --help"))
            bad = 1
# the quoted `$ ttdiff good.trc bad.trc` is what ttdiff prints (pids,
# times and the runs' event totals aside: a sanitizer build loads more
# modules, each a MODULE event)
norm = lambda t: re.sub(r"\d+\.\d{3} ms", "T ms",
                        re.sub(r"pid \d+, \d+ events", "pid N, E events", t))
ex = [(d, b) for d, b in blocks if b.startswith("$ ttdiff good.trc bad.trc\n")]
real = open(f"{tmp}/example.out").read()
if len(ex) != 1:
    print(f"{' '.join(docs)}: want one '$ ttdiff good.trc bad.trc' example, found {len(ex)}")
    bad = 1
elif norm(ex[0][1].split("\n", 1)[1]) != norm(real):
    print(f"{ex[0][0]}: the ttdiff example differs from what ttdiff prints:")
    sys.stdout.writelines(difflib.unified_diff(norm(ex[0][1].split("\n", 1)[1]).splitlines(True),
                          norm(real).splitlines(True), ex[0][0], "ttdiff"))
    bad = 1
# one home for the environment: libttcap(3); the others point to it and
# keep no list of their own
readme = open("README.md").read()
if "report/cmd/man/libttcap.3" not in readme:
    print("README.md: no link to libttcap(3) (report/cmd/man/libttcap.3), the environment's home")
    bad = 1
if "libttcap(3)" not in header:
    print("capture/ttcap.h: does not point to libttcap(3) for the environment")
    bad = 1
for doc, text in [(d, open(d).read()) for d in docs] + [("capture/ttcap.h", header)]:
    listed = set(re.findall(r"(?:^\| `|^ \*   )(TTCAP(?:_[A-Z_]+)?)=", text, re.M))
    if len(listed) > 2:
        print(f"{doc}: lists environment variables ({', '.join(sorted(listed))}): "
              f"their one list is libttcap(3)")
        bad = 1
sys.exit(bad)
PY
echo ok
