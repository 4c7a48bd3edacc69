#!/bin/sh
# Inside the frame (issue 21): fixtures/inline/inl_parse.c, whose deciding
# function parse_item() is a static helper gcc inlines at -O2, recorded in
# plain mode (inl_parse) and values mode (inl_parse_pg, where parse_item
# has no call of its own). Both modes name parse_item as the diverging
# frame (values mode as an inlined frame of the stack) and the same
# deciding line: the lines, the range and the source read from the file
# are those of the source, found by grep here, not typed in. Text, JSON
# and HTML (headless Chromium: html_lines.py, screenshot saved as
# $B/ttdiff_inline.png) show them; a program whose source is gone says so.
. "$(dirname "$0")/ttdiff_lib.inc"
SRC=fixtures/inline/inl_parse.c
line_of() { grep -n -e "$1" "$SRC" | head -1 | cut -d: -f1; }
L_READ=$(line_of 'int v = read_token(s, pos);')
L_ERR=$(line_of 'set_error("not a number", at);')
L_ADD=$(line_of '    add_node(v);')
L_CALL=$(line_of 'rc |= parse_item(s, &pos);')
L_DECL=$(line_of '^static int parse_item')
[ -n "$L_READ" ] && [ -n "$L_ERR" ] && [ -n "$L_ADD" ] && [ -n "$L_CALL" ] || fail "fixture lines"
if [ "$(uname -m)" != x86_64 ]; then
    MODES=plain
else
    MODES="plain values"
fi
prog() { [ "$1" = plain ] && echo "$BD/fixtures/inl_parse" || echo "$BD/fixtures/inl_parse_pg"; }

WANT="after inl_parse.c:$L_READ calls read_token; good: inl_parse.c:$L_ADD calls add_node; bad: inl_parse.c:$L_ERR calls set_error (the branch is in lines $L_READ-$L_ADD)"
for m in $MODES; do
    rec "$m.g.trc" "$(prog $m)" 12,7,30
    rec "$m.b.trc" "$(prog $m)" 12,x,30
    run 1 "$T/$m.g.trc" "$T/$m.b.trc"
    cp "$T/out" "$T/$m.txt"
    has "^deciding line: in parse_item.*$WANT" "$T/$m.txt"
    run 1 --format json -o "$T/$m.json" "$T/$m.g.trc" "$T/$m.b.trc"
    json "$T/$m.json" "
l = d['first_divergence']['lines']
assert l['function'] == 'parse_item', l
assert l['file'].endswith('/$SRC'), l['file']
assert l['common'] == {'line': $L_READ, 'calls': 'read_token'}, l['common']
assert l['good'] == {'line': $L_ADD, 'calls': 'add_node'}, l['good']
assert l['bad'] == {'line': $L_ERR, 'calls': 'set_error'}, l['bad']
assert l['range'] == {'first': $L_READ, 'last': $L_ADD}, l['range']
src = open('$SRC').read().split('\n')
assert [s['line'] for s in l['source']] == list(range($L_READ, $L_ADD + 1)), l['source']
assert all(s['text'] == src[s['line'] - 1] for s in l['source']), l['source']
assert l['source_missing'] is None
assert l['text'].endswith('$WANT'), l['text']
fr = d['first_divergence']['frames']
assert fr[-1]['function'] == 'parse_item' and fr[-1]['call_line'] == $L_ERR, fr
s = [x for x in d['first_divergence']['suspects'] if x['function'] == 'parse_item']
assert s and s[0]['role'] == 'diverging_frame', d['first_divergence']['suspects']
"
done

# plain mode: parse_item has an ENTER of its own (gcc instruments inlined copies)
json "$T/plain.json" "
fd = d['first_divergence']
assert fd['stack'][-2:] == ['parse_list', 'parse_item'], fd['stack']
assert [f['inlined'] for f in fd['frames']] == [False] * len(fd['frames']), fd['frames']
assert '(inlined into' not in fd['lines']['text']
"
[ "$MODES" = plain ] && { echo "SKIP part: values mode (x86-64 only)"; echo ok; exit 0; }

# values mode: no ENTER for it; it shows through its calls' call sites
json "$T/values.json" "
fd = d['first_divergence']
assert fd['stack'][-2:] == ['parse_list', 'parse_item'], fd['stack']
assert [f['function'] for f in fd['frames'] if not f['inlined']][-1] == 'parse_list', fd['frames']
fr = fd['frames']
assert [f['function'] for f in fr[-2:]] == ['parse_list', 'parse_item'], fr
assert fr[-1]['inlined'] is True and fr[-2]['inlined'] is False, fr
assert fr[-1]['line'] == $L_DECL and fr[-1]['file'] == fr[-2]['file'], fr
assert fr[-2]['call_line'] == $L_CALL, fr[-2]
assert fd['lines']['text'].startswith('in parse_item (inlined into parse_list), '), fd['lines']
"
has "^        parse_item  \[inlined\]  at .*inl_parse.c:$L_DECL  calling at line $L_ERR" "$T/values.txt"
has "^      parse_list(.*  calling at line $L_CALL" "$T/values.txt"
# the two modes agree on the deciding line
python3 - "$T/plain.json" "$T/values.json" <<'PY' || fail "the modes name other lines"
import json, sys
a, b = (json.load(open(p))['first_divergence']['lines'] for p in sys.argv[1:])
for k in ('function', 'file', 'common', 'good', 'bad', 'range', 'source'):
    assert a[k] == b[k], (k, a[k], b[k])
PY

# the program's source is gone: the lines are named, the page says why
# there is no source (traces without call sites: tests/unit/test_lines.c)
mkdir -p "$T/src"
cp "$SRC" "$T/src/gone.c"
SAN=""   # a sanitizer build's libttcap needs the program built likewise
ldd "$BD/libttcap.so" 2>/dev/null | grep -q libasan && SAN="-fsanitize=address,undefined"
cc -std=gnu11 -g -O2 -pg -mfentry $SAN -c -o "$T/gone.o" "$T/src/gone.c"
cc $SAN -rdynamic -o "$T/gone" "$T/gone.o" -L"$BD" -lttcap -Wl,-rpath,"$BD" -lpthread -ldl
rec gone.g.trc "$T/gone" 12,7,30
rec gone.b.trc "$T/gone" 12,x,30
rm "$T/src/gone.c"
run 1 --format json -o "$T/gone.json" "$T/gone.g.trc" "$T/gone.b.trc"
json "$T/gone.json" "
l = d['first_divergence']['lines']
assert l['source'] is None and l['range'] == {'first': $L_READ, 'last': $L_ADD}, l
assert l['source_missing'].startswith('source not readable: ') and 'gone.c' in l['source_missing'], l
"
run 1 --format html -o "$T/gone.html" "$T/gone.g.trc" "$T/gone.b.trc"
has 'No source shown: source not readable' "$T/gone.html"

# HTML: the page as a browser shows it
run 1 --format html -o "$T/values.html" "$T/values.g.trc" "$T/values.b.trc"
has '<span class="sb"><i> *[0-9]*</i>         set_error(' "$T/values.html"
CHROME=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$CHROME" ]; then
    echo "SKIP part: browser checks (no chromium)"
    echo ok
    exit 0
fi
timeout 90 python3 tests/e2e/html_lines.py "$CHROME" "$T/values.html" "$T/prof" \
    "$BD/ttdiff_inline.png" parse_item set_error add_node read_token \
    || fail "browser checks"
[ -s "$BD/ttdiff_inline.png" ] || fail "no screenshot"
echo "screenshot: $BD/ttdiff_inline.png"
echo ok
