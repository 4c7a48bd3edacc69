#!/bin/sh
# The yardstick's bookkeeping (issue 33 item 6), checked without fetching
# or building anything: every case of tests/realbugs/cases/ is in SPLIT
# once and every SPLIT line names a case; each case's half is the one the
# fixed rule gives (sha256 of the name, first hex digit 0-7 dev, else
# heldout: a case never moves); each case.sh sets what run.sh needs
# (PKG, KIND, TRUTH_DIVERGE, TRUTH_CAUSE, TAGS), its TRUTH_* regexes are
# ones grep -E takes (one it refuses scores "no" whatever the report); and
# the category tally in tests/realbugs/README.md is what
# tests/realbugs/tally.sh computes from the cases now (a case added without
# updating it fails here).
set -u
R=tests/realbugs
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
bad=0
fail() { echo "FAIL: $*"; bad=1; }

ls -d $R/cases/*/ | xargs -n 1 basename | sort >"$T/cases"
grep -v '^#' $R/SPLIT | awk 'NF { print $1 }' | sort >"$T/split"
[ -s "$T/cases" ] || fail "no case folders in $R/cases"
comm -23 "$T/cases" "$T/split" | while read -r n; do echo "FAIL: case $n is not in SPLIT"; done
comm -13 "$T/cases" "$T/split" | while read -r n; do echo "FAIL: SPLIT lists $n, which has no case folder"; done
[ "$(comm -3 "$T/cases" "$T/split" | wc -l)" = 0 ] || bad=1
d=$(grep -v '^#' $R/SPLIT | awk 'NF { print $1 }' | sort | uniq -d)
[ -z "$d" ] || fail "listed more than once in SPLIT: $d"

grep -v '^#' $R/SPLIT | while read -r n h rest; do
    [ -n "$n" ] || continue
    case $(printf '%s' "$n" | sha256sum | cut -c1) in [0-7]) want=dev ;; *) want=heldout ;; esac
    [ "$h" = "$want" ] || { echo "FAIL: SPLIT puts $n in '$h'; the rule says $want"; exit 1; }
done || bad=1

for c in $R/cases/*/; do
    n=$(basename "$c")
    ( PKG=; KIND=; TRUTH_DIVERGE=; TRUTH_CAUSE=; TAGS=
      . "$c/case.sh"
      for v in PKG KIND TRUTH_DIVERGE TRUTH_CAUSE TAGS; do
          eval "[ -n \"\$$v\" ]" || { echo "FAIL: $n/case.sh sets no $v"; exit 1; }
      done
      case $KIND in patch|input) ;; *) echo "FAIL: $n/case.sh: KIND '$KIND'"; exit 1 ;; esac
      for v in TRUTH_DIVERGE TRUTH_CAUSE TRUTH_DIVERGE_VALUES TRUTH_CAUSE_VALUES \
               TRUTH_DIVERGE_PLAIN TRUTH_CAUSE_PLAIN; do
          eval "re=\${$v:-}"
          [ -n "$re" ] || continue
          st=0; printf 'x\n' | grep -Eq -- "$re" 2>/dev/null || st=$?
          [ $st != 2 ] || { echo "FAIL: $n/case.sh: $v is not a grep -E regex: $re"; exit 1; }
      done
      [ -f "$c/README.md" ] || { echo "FAIL: $n has no README.md"; exit 1; } ) || bad=1
done

sh $R/tally.sh >"$T/tally" || fail "tally.sh failed"
awk '/^<!-- tally: /{ on = 1; next } /^<!-- \/tally -->/{ on = 0 } on' $R/README.md >"$T/readme"
[ -s "$T/readme" ] || fail "README.md has no tally block (<!-- tally: ... --> ... <!-- /tally -->)"
if ! cmp -s "$T/tally" "$T/readme"; then
    fail "the tally in $R/README.md is not tally.sh's output (run it and paste):"
    diff "$T/readme" "$T/tally" | head -20
fi
[ $bad = 0 ] || exit 1
echo "realbugs_split: ok ($(wc -l <"$T/cases") cases)"
