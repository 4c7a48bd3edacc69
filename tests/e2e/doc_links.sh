#!/bin/sh
# doc_links.sh - README.md stays a front page (at most 400 lines; the rest
# lives in the topic documents beside their layers) and no document sends
# a reader nowhere: every relative link of README.md, of the documents it
# links to (readme_check.py --list) and of every other Markdown file of the
# tree names a file that exists and, for a "#heading" link into a Markdown
# file, a heading there. Probes first: a 401-line README, a link to a
# missing file and one to a missing heading must fail, so the check cannot
# pass by reading nothing.
set -eu
cd "$(dirname "$0")/../.."
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 > /dev/null || { echo "SKIP: no python3"; exit 77; }
CHECK="python3 tests/e2e/readme_check.py --links"

# the probes
yes 'a line' | head -n 401 > "$T/long.md"
$CHECK --max-lines 400 "$T/long.md" > "$T/out" && fail "a 401-line README passes"
grep -q '401 lines, more than 400' "$T/out" || fail "long README: $(cat "$T/out")"
printf '# Top\n\nSee [gone](no/such/file.md) and [here](#top).\n' > "$T/broken.md"
$CHECK "$T/broken.md" > "$T/out" && fail "a link to a missing file passes"
grep -q 'no file' "$T/out" || fail "missing file: $(cat "$T/out")"
printf '# Top\n\nSee [there](#no-such-heading).\n' > "$T/anchor.md"
$CHECK "$T/anchor.md" > "$T/out" && fail "a link to a missing heading passes"
grep -q "no heading '#no-such-heading'" "$T/out" || fail "missing heading: $(cat "$T/out")"

# the documents
docs=$(python3 tests/e2e/readme_check.py --list)
[ "$(echo "$docs" | head -n 1)" = README.md ] || fail "readme_check.py --list does not start with README.md"
others=$(find capture format diff report tests fixtures -name '*.md' | sort)
# shellcheck disable=SC2086
$CHECK --max-lines 400 $docs $others || fail "README.md too long or a broken link (above)"
# every document of the list is reachable from README.md
for d in $(echo "$docs" | tail -n +2); do
    grep -q "]($d)" README.md || fail "README.md does not link to $d"
done
echo "ok ($(wc -l < README.md) README lines; $(echo "$docs" $others | wc -w) documents' links)"
