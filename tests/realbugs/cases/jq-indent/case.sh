# jq-indent: `jq --indent four` prints compact JSON: atoi("four") is 0,
# and --indent 0 means compact (README.md argues the ground truth).
PKG=jq
KIND=input
TRUTH_DIVERGE='^jv_dump_term$'
TRUTH_CAUSE='^main$'
TAGS='arg-chain big'
SINGLE_THREADED=1

# build: tests/realbugs/pkgs/jq.sh

run_good() {
    printf '{"name":"tt","tags":["trace","diff"],"size":3}\n' >in.json
    "$1/jq" --indent 4 . in.json
}
run_bad() {
    printf '{"name":"tt","tags":["trace","diff"],"size":3}\n' >in.json
    "$1/jq" --indent four . in.json
}
