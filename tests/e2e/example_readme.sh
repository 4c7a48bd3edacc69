#!/bin/sh
# example_readme.sh - README.md stays true to the tools: the usage blocks it
# quotes are exactly `ttdiff --help` and `ttdump --help`, its ttdiff example
# (the parser's good and bad run) is what ttdiff prints, and every
# environment variable, macro and ttcap_ call of capture/ttcap.h (except
# test-only and internal ones) is mentioned.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
"$B/ttdiff" --help > "$T/ttdiff.help" 2>&1 || true
# the README's ttdiff example, run: the parser's good and bad run
BD=$(cd "$B" && pwd)
mkdir "$T/ex"
(cd "$T/ex" && TTCAP_OUT=good.trc "$BD/fixtures/ex_parser" size=64,mode=755,ro > /dev/null &&
 TTCAP_OUT=bad.trc "$BD/fixtures/ex_parser" size=64,mode=755 > /dev/null &&
 { "$BD/ttdiff" --color never good.trc bad.trc > ../example.out || true; })
"$B/ttdump" --help > "$T/ttdump.help" 2>&1 || true
python3 - README.md "$T" capture/ttcap.h <<'PY'
import re, sys
readme, tmp, header = open(sys.argv[1]).read(), sys.argv[2], open(sys.argv[3]).read()
blocks = re.findall(r"^```[a-z]*\n(.*?)^```", readme, re.S | re.M)
bad = 0
for tool in ("ttdiff", "ttdump"):
    real = open(f"{tmp}/{tool}.help").read()
    quoted = [b for b in blocks if b.startswith(f"usage: {tool} ")]
    if len(quoted) != 1:
        print(f"README.md: want one quoted 'usage: {tool}' block, found {len(quoted)}")
        bad = 1
    elif quoted[0] != real:
        print(f"README.md: the quoted {tool} --help differs from {tool} --help:")
        import difflib
        sys.stdout.writelines(difflib.unified_diff(
            quoted[0].splitlines(True), real.splitlines(True), "README.md", f"{tool} --help"))
        bad = 1
# the quoted `$ ttdiff good.trc bad.trc` is what ttdiff prints (pids,
# times and the runs' event totals aside: a sanitizer build loads more
# modules, each a MODULE event)
norm = lambda t: re.sub(r"\d+\.\d{3} ms", "T ms",
                        re.sub(r"pid \d+, \d+ events", "pid N, E events", t))
ex = [b for b in blocks if b.startswith("$ ttdiff good.trc bad.trc\n")]
real = open(f"{tmp}/example.out").read()
if len(ex) != 1:
    print(f"README.md: want one '$ ttdiff good.trc bad.trc' example, found {len(ex)}")
    bad = 1
elif norm(ex[0].split("\n", 1)[1]) != norm(real):
    print("README.md: the ttdiff example differs from what ttdiff prints:")
    import difflib
    sys.stdout.writelines(difflib.unified_diff(norm(ex[0].split("\n", 1)[1]).splitlines(True),
                          norm(real).splitlines(True), "README.md", "ttdiff"))
    bad = 1
names = set(re.findall(r"\b(TTCAP_[A-Z_]+)=", header))
names |= set(re.findall(r"^#define (TT_[A-Z]+)\(", header, re.M))
names |= set(re.findall(r"\b(ttcap_[a-z_]+)\(", header))
internal = {"TTCAP_TEST_FAIL_AFTER", "ttcap_emit", "ttcap_scope_enter", "ttcap_scope_exit"}
for n in sorted(names - internal):
    if n.endswith("_") or n in readme:
        continue
    print(f"README.md: {n} (capture/ttcap.h) is not documented")
    bad = 1
sys.exit(bad)
PY
echo ok
