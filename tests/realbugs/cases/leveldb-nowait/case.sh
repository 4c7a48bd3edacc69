# leveldb-nowait: a fault patch (fault.patch) that mimics a real ordering
# bug class (a wait predicate got wrong): the writer no longer waits for
# the background thread to finish writing the previous memtable before it
# switches to a new one, so the memtable it makes immutable replaces one
# still being written; the background thread then drops the new one
# unwritten, and its keys are lost (README.md argues the ground truth)
PKG=leveldb
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='DBImpl::MakeRoomForWrite\('
TRUTH_CAUSE='DBImpl::MakeRoomForWrite\('
TAGS='cxx thread race regression'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/leveldb.sh (cmake, then ldb.cc)

run_good() { rm -rf db; "$1/ldb"; }

# the bad build loses keys whenever a memtable fills while the background
# thread still writes the one before, which is nearly always; a run that
# still came out right is repeated (as ttrec --until-fail would), at most
# 10 times; the last trace is kept
run_bad() {
    n=0
    while :; do
        rm -rf db "$TTCAP_OUT"
        "$1/ldb"
        st=$?
        n=$((n + 1))
        [ "$st" -ne 0 ] && break
        [ "$n" -ge 10 ] && break
    done
    echo "run_bad: attempt $n ended with status $st" >&2
    return "$st"
}

needs() {
    command -v cmake >/dev/null 2>&1 || { echo "needs cmake"; exit 1; }
}
