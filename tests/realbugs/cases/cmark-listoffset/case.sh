# cmark-listoffset: a fault patch (fault.patch) that mimics a real
# regression class (a check the spec dropped brought back): lists_match
# compares the list items' marker offsets again (the line is a comment in
# cmark), so an item indented one space more than the one before starts a
# new list (README.md argues the ground truth)
PKG=cmark
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^add_child$'
TRUTH_CAUSE='^lists_match$'
TRUTH_CAUSE_VALUES='^(lists_match|open_new_blocks)$'
TAGS='regression return-value'
SINGLE_THREADED=1

# build: tests/realbugs/pkgs/cmark.sh (the CLI with CMake)

# a short note with one list whose second item is indented one space;
# the run passes when the HTML has one list of three items
run_good() {
    printf '# Notes\n\nSome text before the list.\n\n- first\n - second\n- third\n\nText after.\n' >in.md
    "$1/cmark" in.md >out.html || return $?
    [ "$(grep -c '<ul>' out.html)" = 1 ] && [ "$(grep -c '<li>' out.html)" = 3 ]
}
run_bad() { run_good "$@"; }

needs() {
    command -v cmake >/dev/null 2>&1 || { echo "needs cmake"; exit 1; }
}
