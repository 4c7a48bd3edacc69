#!/bin/sh
# ttdiff --format html in a real browser (headless Chromium): the page of a
# fixture whose messages, argv and thread name are hostile shows the first
# divergence and its stack with and without scripts, runs nothing injected,
# moves between divergences on real n/p key presses (DevTools protocol, see
# html_cdp.py) and is saved as $B/html_report.png for a person to look at.
set -eu
B=${1:-build}
cd "$(dirname "$0")/../.."
BD=$(cd "$B" && pwd)
HERE=$(pwd)/tests/e2e
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
has() { grep -q -e "$1" "$2" || { echo "--- $2:"; head -c 3000 "$2"; fail "no '$1' in $2"; }; }
hasnt() { ! grep -q -e "$1" "$2" || fail "'$1' in $2"; }

# --- chromium (make test installs it when root: .ci/deps --test), else skip
CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROME" ]; then
    echo "SKIP: no chromium (apt-get install chromium)"
    exit 77
fi
command -v python3 >/dev/null || fail "python3 needed"
chrome() { # chrome PROFILE ARGS... : one headless run, at most 60 s
    p=$1; shift
    timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run \
        --disable-background-networking --disable-component-update --disable-sync \
        --disable-quic --user-data-dir="$T/$p" "$@" 2>"$T/$p.err"
}

# --- record: 'x' makes the bad run log a hostile message, three times
ARG='<svg onload="document.title='"'"'argv'"'"'">'
TTCAP_OUT="$T/g.trc" "$BD/fixtures/html_inject" aaaaaaaaaaa "$ARG" >/dev/null
TTCAP_OUT="$T/b.trc" "$BD/fixtures/html_inject" aaxaaaxaaax "$ARG" >/dev/null
rc=0
"$BD/ttdiff" --format html -o "$T/page.html" "$T/g.trc" "$T/b.trc" || rc=$?
[ "$rc" = 1 ] || fail "ttdiff --format html: exit $rc, want 1"
"$BD/ttdiff" --format json -o "$T/page.json" "$T/g.trc" "$T/b.trc" || true

# --- the file itself: two script elements, the JSON block is ttr_json's
python3 - "$T/page.html" "$T/page.json" <<'EOF' || fail "static page checks"
import json, re, sys
page = open(sys.argv[1], encoding="utf-8").read()
want = json.load(open(sys.argv[2]))
assert page.count("<script") == 2, page.count("<script")
m = re.search(r'<script type="application/json" id="tt-data">(.*?)</script>', page, re.S)
assert m and "<" not in m.group(1)
assert json.loads(m.group(1)) == want, "embedded JSON differs from --format json"
assert "&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;" in page
assert "\\x01\\x1b[31m" in page and "\x01" not in page and "\x1b" not in page
assert re.search(r'(src|href)="?(https?:)?//', page) is None, "external resource"
EOF

# --- (a) rendered DOM with scripts: first divergence, stack, escaped text
chrome p1 --dump-dom "file://$T/page.html" > "$T/dom.html" || fail "chromium --dump-dom failed"
has '<html lang="en" class="js" data-current="1"' "$T/dom.html"
sed -n '/<section class="first"/,/<\/section>/p' "$T/dom.html" > "$T/first.html"
has 'First divergence' "$T/first.html"
has '<li[^>]*><span class="fn">main</span><span class="loc">[^<]*html_inject.c:[0-9]' "$T/first.html"
has '<span class="fn">process</span>' "$T/first.html"
has '<span class="fn">handle</span><span class="loc">' "$T/first.html"
has '+ odd_char' "$T/first.html"
has '&lt;script&gt;document.title=.pwned.&lt;/script&gt;' "$T/dom.html"
has '<title>ttdiff: html_inject' "$T/dom.html"
hasnt 'pwned</title>' "$T/dom.html"
hasnt 'data-pwned="1"' "$T/dom.html"

# --- the same without scripts: server-side rendered, nothing lost
timeout 90 python3 "$HERE/html_cdp.py" --nojs "$CHROME" "$T/page.html" "$T/p2" \
    "$T/nojs.html" || fail "DOM with scripts disabled"
has '<html lang="en" class="nojs">' "$T/nojs.html"
sed -n '/<section class="first"/,/<\/section>/p' "$T/nojs.html" > "$T/first2.html"
has '<span class="fn">handle</span><span class="loc">' "$T/first2.html"
has '+ odd_char' "$T/first2.html"
has '<details class="dv" open=""><summary><span class="dn">#1' "$T/nojs.html"

# --- (b)-(d) real key presses and the filter over DevTools; screenshots
timeout 90 python3 "$HERE/html_cdp.py" "$CHROME" "$T/page.html" "$T/p3" \
    "$BD/html_report.png" 3 || fail "DevTools checks"
[ -s "$BD/html_report.png" ] || fail "no screenshot"
echo "screenshot: $BD/html_report.png"
echo "ok"
