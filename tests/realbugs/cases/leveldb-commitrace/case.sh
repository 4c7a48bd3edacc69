# leveldb-commitrace: one build with leveldb-groupcommit's fault (the
# write leader's completion loop runs until the queue is empty), two
# timings of the application's second Put: after the first writer's Write
# ended (good) or during its slow log Sync (bad: acknowledged, never
# written: Get NotFound). Same code in both runs (README.md argues the
# ground truth)
PKG=leveldb
KIND=input
TRUTH_DIVERGE='DBImpl::Write\('
TRUTH_CAUSE='DBImpl::Write\('
TAGS='cxx thread race'
SINGLE_THREADED=0

# tests/realbugs/pkgs/leveldb.sh's build, with the fault applied first
build() {
    patch -s -p1 <"$CASE/fault.patch" || return 1
    leveldb_build "$@"
}

run_good() { rm -rf db; "$1/ldb" 300; }

run_bad() { rm -rf db; timeout -k 5 60 "$1/ldb" 000; }

needs() {
    command -v cmake >/dev/null 2>&1 || { echo "needs cmake"; exit 1; }
}
