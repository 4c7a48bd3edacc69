# cmark-reflimit: a fault patch (fault.patch) that mimics a real bug class
# (a comparison reversed): the limit on what reference links may expand to
# is the document's own size for small documents instead of at least
# 100 KB; stored in the reference map when the blocks are finished, read
# back by every reference lookup later: the third use of a long link is
# left as text (README.md argues the ground truth)
PKG=cmark
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^handle_close_bracket$'
TRUTH_CAUSE='^finalize_document$'
TRUTH_CAUSE_VALUES='^(finalize_document|cmark_parser_finish)$'
TAGS='regression corruption'
SINGLE_THREADED=1

# build: tests/realbugs/pkgs/cmark.sh (the CLI with CMake)

# a link reference definition with a 200-character URL, used 30 times
# (about 480 bytes); the run passes when all 30 uses became links
run_good() {
    {
        printf '[x]: https://example.org/'
        LC_ALL=C awk 'BEGIN { for (i = 0; i < 180; i++) printf "%c", 97 + i % 26 }'
        printf '\n\n'
        i=0
        while [ $i -lt 30 ]; do printf 'see [x].\n'; i=$((i + 1)); done
    } >in.md
    "$1/cmark" in.md >out.html || return $?
    [ "$(grep -o '<a href' out.html | wc -l)" = 30 ]
}
run_bad() { run_good "$@"; }

needs() {
    command -v cmake >/dev/null 2>&1 || { echo "needs cmake"; exit 1; }
}
