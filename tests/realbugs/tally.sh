#!/bin/sh
# sh tests/realbugs/tally.sh : what the cases of make realbugs cover, against
# issue 33 item 6's targets, read from every cases/*/case.sh (and SPLIT):
# one markdown table, printed. README.md holds its output between the
# `tally` markers; tests/e2e/realbugs_split.sh checks they agree.
#
# The categories, as computed (no hand count):
# - C++: TAGS has `cxx`;
# - threaded: SINGLE_THREADED=0;
# - regression, changed function not the diverging frame: KIND=patch and
#   TRUTH_CAUSE is not TRUTH_DIVERGE (the truths of the mode-free
#   variables; each case's README argues them);
# - data corruption read back later: TAGS has `corruption`;
# - race or ordering bug: TAGS has `race` or `order` (and of them, across
#   threads: SINGLE_THREADED=0; of them in one build, two timings:
#   KIND=input);
# - the bad run hangs (ended by the case's `timeout`): TAGS has `hang`.
D=$(cd "$(dirname "$0")" && pwd)
rows=$(for c in "$D"/cases/*/; do
    [ -f "$c/case.sh" ] || continue
    (
        PKG=; KIND=; TAGS=; SINGLE_THREADED=1; TRUTH_DIVERGE=; TRUTH_CAUSE=
        . "$c/case.sh"
        n=$(basename "$c")
        h=$(awk -v n="$n" '$1 == n { print $2; exit }' "$D/SPLIT")
        reg=0
        [ "$KIND" = patch ] && [ "$TRUTH_CAUSE" != "$TRUTH_DIVERGE" ] && reg=1
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$n" "$PKG" "${h:-unsplit}" " $TAGS " \
            "$SINGLE_THREADED" "$reg" "$KIND"
    )
done)
printf '%s\n' "$rows" | awk -F'\t' '
    function add(k, n, h) { cnt[k]++; half[k, h]++; names[k] = names[k] (names[k] == "" ? "" : ", ") n }
    { n = $1; h = $3
      add("cases", n, h)
      if (!($2 in seen)) { seen[$2] = 1; npk++; pk = pk (pk == "" ? "" : ", ") $2 }
      if ($4 ~ / cxx /) add("cxx", n, h)
      if ($5 == 0) add("thread", n, h)
      if ($6 == 1) add("reg", n, h)
      if ($4 ~ / corruption /) add("corr", n, h)
      if ($4 ~ / (race|order) /) { add("race", n, h); if ($5 == 0) add("racemt", n, h)
                                   if ($7 == "input") add("racein", n, h) }
      if ($4 ~ / hang /) add("hang", n, h) }
    function row(label, want, k, which) {
        printf "| %s | %s | %d | %d | %d | %s |\n", label, want, cnt[k], half[k, "dev"], half[k, "heldout"],
               (which == "" ? names[k] : which) }
    END {
        print "| target | wanted | all | dev | held-out | which |"
        print "|---|---:|---:|---:|---:|---|"
        row("cases", 40, "cases", "(every case folder)")
        printf "| Debian source packages | 20 | %d | | | %s |\n", npk, pk
        row("C++", 10, "cxx")
        row("threaded (SINGLE_THREADED=0)", 8, "thread")
        row("regressions, changed function not the diverging frame", 6, "reg")
        row("data corruptions read back later", 4, "corr")
        row("races or ordering bugs", 4, "race")
        row("of them across threads", "-", "racemt")
        row("of them one build, two timings (input)", "-", "racein")
        row("the bad run hangs, ended by timeout", "-", "hang")
    }'
