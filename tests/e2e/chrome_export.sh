#!/bin/sh
# ttdump --chrome on traces of the prof_calls and prof_unbalanced fixtures:
# the JSON parses (python3 -m json.tool and json.load), has metadata, pid
# and tids of the run, perfectly nested B/E per thread with time never going
# back, exact frame counts, escaped message text, and closes the frames a
# longjmp, a crash and pthread_exit left open.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
B=$(cd "$B" && pwd)
T=$(mktemp -d "$B/chrome_e2e.XXXXXX")
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -q -F -e "$1" "$2" || { echo "--- $2:"; head -50 "$2"; fail "no '$1' in $2"; }; }
command -v python3 >/dev/null || { echo "SKIP: no python3"; exit 77; }
for p in prof_calls prof_unbalanced; do
    [ -x "$B/fixtures/$p" ] || fail "$B/fixtures/$p not built (make fixtures)"
done
pid_of() { "$B/ttdump" -s "$1" | sed -n 's/^  pid: *//p'; }

TTCAP_OUT="$T/c.trc" "$B/fixtures/prof_calls" || fail "prof_calls failed"
"$B/ttdump" --chrome "$T/c.trc" > "$T/c.json" || fail "ttdump --chrome exit $?"
python3 -m json.tool "$T/c.json" > /dev/null || fail "c.json is not JSON"
python3 tests/e2e/chrome_check.py "$T/c.json" "$(pid_of "$T/c.trc")" > "$T/c.cnt" ||
    fail "c.json: bad structure"
has 'threads 2' "$T/c.cnt"
has 'B "prof_leaf" 1500' "$T/c.cnt"
has 'E "prof_leaf" 1500' "$T/c.cnt"
has 'B "prof_nap" 3' "$T/c.cnt"
has 'B "prof_rnap" 4' "$T/c.cnt"
has 'i "pause" 3' "$T/c.cnt"
has '"thread_name"' "$T/c.json"
grep -q '"args":{"name":"prof-worker"}' "$T/c.json" || fail "worker thread name missing"
grep -q '"ts":[0-9]*\.[0-9][0-9][0-9],' "$T/c.json" || fail "ts is not us with 3 decimals"

# unbalanced: longjmp, pthread_exit, crash
TTCAP_OUT="$T/x.trc" "$B/fixtures/prof_unbalanced" crash > /dev/null 2>&1 && fail "crash fixture did not crash"
[ -s "$T/x.trc" ] || fail "no trace from the crash fixture"
"$B/ttdump" --chrome "$T/x.trc" > "$T/x.json" || fail "ttdump --chrome (crash) exit $?"
python3 tests/e2e/chrome_check.py "$T/x.json" "$(pid_of "$T/x.trc")" > "$T/x.cnt" ||
    fail "x.json: bad structure"
has 'B "prof_deep2" 2' "$T/x.cnt"
has 'E "prof_deep2" 2' "$T/x.cnt"
has 'E "prof_fault" 1' "$T/x.cnt"
has 'E "prof_quit" 1' "$T/x.cnt"
has 'E "main" 1' "$T/x.cnt"
has 'i "jumping with 2" 1' "$T/x.cnt"
# (under ASan the sanitizer takes the SIGSEGV first: no CRASH event recorded)
if "$B/ttdump" -s "$T/x.trc" | grep -q '^  crash: *SIGSEGV'; then
    grep -q 'crash: SIGSEGV' "$T/x.cnt" || fail "crash instant missing"
fi
# the hostile message, escaped and decoded back intact (bad byte -> U+FFFD)
python3 - "$T/x.json" <<'PY' || fail "odd message not escaped right"
import json, sys
names = [e.get("name", "") for e in json.load(open(sys.argv[1], encoding="utf-8"))["traceEvents"]]
want = 'odd <q"b\\s\n\t\x01\ufffd\u00e9>'
sys.exit(0 if want in names else "missing %r" % want)
PY
# one escaper with ttdiff's JSON (report/JSON.md): no raw < > & anywhere
grep -q '[<>&]' "$T/x.json" && fail "raw < > or & in the Chrome JSON (want \\u003c \\u003e \\u0026)"
grep -q 'odd \\u003cq' "$T/x.json" || fail "'<' of the odd message not \\u003c"

# --thread and --function select; a bad option is an error
"$B/ttdump" --chrome --thread prof-worker --function 'prof_leaf' "$T/c.trc" > "$T/w.json"
python3 tests/e2e/chrome_check.py "$T/w.json" "$(pid_of "$T/c.trc")" > "$T/w.cnt" || fail "w.json"
has 'threads 1' "$T/w.cnt"
has 'B "prof_leaf" 500' "$T/w.cnt"
grep -q 'prof_loop' "$T/w.cnt" && fail "--function let prof_loop through"
if "$B/ttdump" --chrome --stats "$T/c.trc" > /dev/null 2>&1; then fail "--chrome --stats accepted"; else [ $? = 2 ] || fail "want exit 2"; fi
echo ok
