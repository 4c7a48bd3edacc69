# jq-strindices: CVE-2026-39956, _strindices with a number argument
# aborts jq 1.6 in an assertion (README.md argues the ground truth).
PKG=jq
KIND=patch
PATCH=debian/patches/CVE-2026-39956.patch
TRUTH_DIVERGE='^f_string_indexes$'
TRUTH_CAUSE='^f_string_indexes$'
TAGS='regression crash big'
SINGLE_THREADED=1

# build: tests/realbugs/pkgs/jq.sh

run_good() {
    printf '"abc"\n' >in.json
    "$1/jq" '_strindices(123)' in.json
}
run_bad() { run_good "$@"; }
