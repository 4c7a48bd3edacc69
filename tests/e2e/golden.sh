#!/bin/sh
# golden.sh - ttdiff's golden reports (tests/golden/README.md): every case's
# text, JSON and HTML report, normalised, equals its expected.* file. On a
# difference it prints a unified diff; `make golden-update` rewrites them.
B=${1:-build}
cd "$(dirname "$0")/../.." || exit 1
# the goldens are what the plain build reports; a sanitizer build (make asan
# exports SAN) runs its fixtures under other interceptors: not compared
if [ -n "${SAN:-}" ]; then echo "skip: sanitizer build (SAN=$SAN)"; exit 77; fi
command -v python3 > /dev/null 2>&1 || { echo "skip: no python3"; exit 77; }
if [ ! -x "$B/ttdiff" ] || [ ! -d "$B/fixtures" ]; then
    echo "skip: $B/ttdiff or $B/fixtures missing"; exit 77
fi
# the probe first: a report changed by one letter must fail the check
python3 tests/golden/golden.py probe "$B" || exit 1
exec python3 tests/golden/golden.py check "$B"
