# jq-nul: CVE-2026-33948, jq 1.6 silently drops the input after a NUL
# byte on a line without a newline (README.md argues the ground truth).
PKG=jq
KIND=patch
# the src/util.c part of debian/patches/CVE-2026-33948.patch (its
# tests/shtest hunk does not reverse once later patches are in)
PATCH=fix.patch
TRUTH_DIVERGE='^jq_util_input_next_input$'
TRUTH_CAUSE='^jq_util_input_read_more$'
TAGS='regression big'
SINGLE_THREADED=1

# build: tests/realbugs/pkgs/jq.sh

run_good() {
    printf '{"a":1}\000{"b":2}' >in.json
    "$1/jq" -c . in.json
}
run_bad() { run_good "$@"; }
