#!/bin/sh
# The call-tree aligner (default) against the flat one (--flat) on every
# fixture pair the other ttdiff tests record: the first divergence (thread
# pair, indexes, stack, first differing events) must be the same, and
# --first-only must name it too. Also: a loop of three sibling calls run 3
# times against 5 is one count hunk with --collapse-loops.
set -eu
. "$(dirname "$0")/ttdiff_lib.inc"
F=$BD/fixtures

pair() { # pair NAME CMD-GOOD... -- CMD-BAD...
    n=$1; shift
    g=""; while [ "$1" != -- ]; do g="$g '$1'"; shift; done; shift
    eval "TTCAP_OUT=\"\$T/$n.g.trc\" $g" > /dev/null 2>&1 || true
    TTCAP_OUT="$T/$n.b.trc" "$@" > /dev/null 2>&1 || true
    [ -s "$T/$n.g.trc" ] && [ -s "$T/$n.b.trc" ] || fail "no traces for $n"
    for m in tree flat first; do
        case $m in
        tree) o="" ;;
        flat) o=--flat ;;
        first) o=--first-only ;;
        esac
        "$TTDIFF" --format json $o "$T/$n.g.trc" "$T/$n.b.trc" > "$T/$n.$m.json" || true
    done
    python3 - "$T/$n" "$n" <<'PY' || fail "$n: tree and flat differ"
import json, sys
base, name = sys.argv[1], sys.argv[2]
d = {m: json.load(open(f"{base}.{m}.json")) for m in ("tree", "flat", "first")}
def key(doc):
    f = doc["first_divergence"]
    if f is None:
        return None
    ev = lambda l: [(e["kind"], e.get("function")) for e in l[:1]]
    return (f["thread"], f["good_index"], f["bad_index"], f["stack"],
            ev(f["good"]), ev(f["bad"]))
t, fl, fo = key(d["tree"]), key(d["flat"]), key(d["first"])
if t != fl or fo != fl:
    print(f"{name}:\n  tree  {t}\n  flat  {fl}\n  first {fo}")
    sys.exit(1)
PY
}

pair parse "$F/diff_parse" abcd -- "$F/diff_parse" 'ab!d'
pair crash "$F/diff_crash" ok -- "$F/diff_crash" missing
pair threads "$F/diff_threads" -- "$F/diff_threads" bad
pair loop "$F/sus_loop" 1000 -- "$F/sus_loop" 1001
pair loop3 "$F/sus_loop" 1000 -- "$F/sus_loop" 3
pair validate "$F/sus_validate" 2 -- "$F/sus_validate" 0
pair lookup "$F/sus_lookup" bob -- "$F/sus_lookup" zed
pair parser "$F/ex_parser" size=64,mode=755,ro -- "$F/ex_parser" size=64,mode=755
pair plugin "$F/ex_plugin" "$F/ex_plugin_v1.so" alpha=1 '# note' beta=22 gamma=long-value delta=4 \
    -- "$F/ex_plugin" "$F/ex_plugin_v2.so" alpha=1 '# note' beta=22 gamma=long-value delta=4
pair race "$F/race_queue" -- "$F/race_queue" race
pair regress "$F/ex_regress" -- "$F/ex_regress_b"
pair html "$F/html_inject" aaaaaaaaaaa x -- "$F/html_inject" aaxaaaxaaax x
pair poll "$F/sus_poll" -- "$F/sus_poll"

# count hunks: iteration k with iteration k, the extra ones are the hunk
run 1 --collapse-loops "$T/loop.g.trc" "$T/loop.b.trc"
has 'x1000 vs x1001' "$T/out"
echo ok
