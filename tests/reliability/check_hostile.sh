#!/bin/sh
# check_hostile.sh - reliability check (f): hostile strings (markup, quotes,
# newlines, ESC / C1 sequences, invalid UTF-8) in messages, thread names,
# argv, C++ names and paths (the program is built from a source file with a
# hostile name, in a folder with a hostile name). Terminal: no ttdump mode
# and no ttdiff text report sends ESC, a C1 control or invalid UTF-8 from
# the trace. JSON: valid, every hostile message present. HTML: inert in
# headless Chromium (title and <html> attributes unchanged).
B=$(cd "$1" && pwd); HERE=$(cd "$(dirname "$0")" && pwd)
d=$(mktemp -d) || exit 2
trap 'rm -rf "$d"' EXIT
hd="$d/$(printf 'dir<\033[31m>"q'"'")"
mkdir "$hd"
src="$hd/$(printf 'h<script>\033]0;t\007.c')"
cp "$HERE/rel_hostile.c" "$src"
# built like the fixtures: with the build's sanitizer (make asan), else its
# programs could not start against an ASan libttcap
${CC:-cc} -g -O1 -finstrument-functions -rdynamic ${SAN:+$SAN -fno-sanitize=undefined} -I"$HERE/../../capture" -o "$hd/prog" "$src" \
    -L"$B" -lttcap -Wl,-rpath,"$B" -lpthread || { echo "RESULT f. hostile strings|cannot build|FAIL"; exit 1; }
ARG=$(printf '\033[5m</script>\302\233')
TTCAP_OUT=$d/g.trc "$hd/prog" good "$ARG" >/dev/null
TTCAP_OUT=$d/b.trc "$hd/prog" bad "$ARG" >/dev/null
TTCAP_OUT=$d/cg.trc "$B/rel/rel_cxx" 5 2 >/dev/null
TTCAP_OUT=$d/cb.trc "$B/rel/rel_cxx" 5 2 alt >/dev/null
outs=0; esc=0
term() { # output file, from a --color never run: no ESC, C1 or invalid UTF-8
    outs=$((outs + 1))
    if LC_ALL=C grep -qaP '\x1b|\xc2[\x80-\x9f]' "$1" || ! iconv -f UTF-8 -t UTF-8 "$1" >/dev/null 2>&1; then
        esc=$((esc + 1)); echo "escape in: $2"
    fi
}
for t in b.trc cb.trc; do
    for m in "" --merged --stats --profile "--profile --per-thread" --lines "--function odd|dive" --chrome; do
        "$B/ttdump" --color never $m "$d/$t" > "$d/o" 2>&1; term "$d/o" "ttdump $m $t"
    done
done
for p in "g.trc b.trc" "b.trc g.trc" "cg.trc cb.trc" "cb.trc cg.trc"; do
    set -- $p
    "$B/ttdiff" --color never --all "$d/$1" "$d/$2" > "$d/o" 2>&1; term "$d/o" "ttdiff $p"
    "$B/ttdiff" --color never --profile "$d/$1" "$d/$2" > "$d/o" 2>&1; term "$d/o" "ttdiff --profile $p"
    # with colour on, only our own SGR sequences may appear
    "$B/ttdiff" --color always --all "$d/$1" "$d/$2" > "$d/o" 2>&1
    outs=$((outs + 1))
    if LC_ALL=C grep -qaP '\x1b(?!\[[0-9;]*m)|\xc2[\x80-\x9f]' "$d/o"; then esc=$((esc + 1)); echo "escape in: --color always $p"; fi
done
"$B/ttdump" --color always "$d/b.trc" > "$d/o" 2>&1
outs=$((outs + 1))
LC_ALL=C grep -qaP '\x1b(?!\[[0-9;]*m)|\xc2[\x80-\x9f]' "$d/o" && { esc=$((esc + 1)); echo "escape in: ttdump --color always"; }
ok=ok; [ $esc = 0 ] || ok=FAIL
echo "RESULT f1. hostile strings: terminal (ttdump all modes, ttdiff text/profile, colour on and off)|$outs outputs, raw escapes $esc|$ok"
# ---- JSON
jbad=0; jn=0
for p in "g.trc b.trc" "b.trc g.trc" "cg.trc cb.trc"; do
    set -- $p
    "$B/ttdiff" --format json --all "$d/$1" "$d/$2" > "$d/j" 2>/dev/null
    "$B/ttdump" --chrome "$d/$2" > "$d/c" 2>/dev/null
    jn=$((jn + 2))
    python3 - "$d/j" "$d/c" "$1$2" <<'PY' || jbad=$((jbad + 1))
import json, sys
doc = json.load(open(sys.argv[1], encoding="utf-8"))
chrome = json.load(open(sys.argv[2], encoding="utf-8"))
if "b.trc" in sys.argv[3] and "c" not in sys.argv[3]:
    text = json.dumps(doc, ensure_ascii=False)
    flat = [json.dumps(s, ensure_ascii=False)[1:-1] for s in [
        "</script><script>document.title='pwned'</script><!--",
        "line1\nline2\r\tend\v\f",
        "\x1b]0;pwned-title\x07 \x1b[6n \x1b[2J \x1bP+q\x1b\\ \x1b[31mred",
        "raw C1 \ufffd31m, utf8 C1 \u009b31m \u0085 NEL \u009d0;t\u009c",
        "invalid utf8 \ufffd\ufffd \ufffd( \ufffd\ufffd\ufffd overlong \ufffd\ufffd end"]]
    for f in flat:
        assert f in text, "missing in JSON: " + f
    ctext = json.dumps(chrome, ensure_ascii=False)
    assert json.dumps("\u009b2J'\"<s>\x1b[1m", ensure_ascii=False)[1:-1] in ctext, "thread name"
PY
done
ok=ok; [ $jbad = 0 ] || ok=FAIL
echo "RESULT f2. hostile strings: JSON (ttdiff --format json, ttdump --chrome)|$jn documents, invalid or altered $jbad|$ok"
# ---- HTML in Chromium
CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROME" ]; then
    echo "RESULT f3. hostile strings: HTML in Chromium|no chromium|skip"; exit 0
fi
hbad=0; hn=0
for p in "g.trc b.trc" "b.trc g.trc" "cg.trc cb.trc"; do
    set -- $p
    "$B/ttdiff" --format html --all -o "$d/p.html" "$d/$1" "$d/$2"
    hn=$((hn + 1))
    timeout 60 "$CHROME" --headless --no-sandbox --disable-gpu --no-first-run \
        --disable-background-networking --user-data-dir="$d/prof$hn" \
        --dump-dom "file://$d/p.html" > "$d/dom" 2>/dev/null
    python3 - "$d/p.html" "$d/dom" <<'PY' || hbad=$((hbad + 1))
import re, sys
page = open(sys.argv[1], encoding="utf-8").read()
dom = open(sys.argv[2], encoding="utf-8", errors="replace").read()
assert dom.strip(), "no DOM"
assert page.count("<script") == 2, "scripts: %d" % page.count("<script")
assert "\x1b" not in page and "\x07" not in page, "raw control byte in page"
t = re.search(r"<title>(.*?)</title>", dom, re.S).group(1)
assert "pwned" not in t and t.startswith("ttdiff"), "title: " + t
assert not re.search(r"<html[^>]*data-pwned", dom), "injected attribute"
assert "<img src=\"x\"" not in dom, "injected element"
PY
done
ok=ok; [ $hbad = 0 ] || ok=FAIL
echo "RESULT f3. hostile strings: HTML in headless Chromium (scripts on)|$hn pages, injections that ran $hbad|$ok"
