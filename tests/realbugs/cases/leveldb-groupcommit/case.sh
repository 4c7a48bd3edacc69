# leveldb-groupcommit: a fault patch (fault.patch) that mimics a real race
# class, a group commit that acknowledges writers it did not write: the
# write leader decides its group under the lock, writes it with the lock
# released, then marks done every writer queued by then, including one
# that arrived while it wrote (README.md argues the ground truth)
PKG=leveldb
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='DBImpl::Write\('
TRUTH_CAUSE='DBImpl::Write\('
TAGS='cxx thread race regression'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/leveldb.sh (with this folder's ldb.cc)

run_good() { rm -rf db; "$1/ldb"; }

run_bad() { rm -rf db; timeout -k 5 60 "$1/ldb"; }

needs() {
    command -v cmake >/dev/null 2>&1 || { echo "needs cmake"; exit 1; }
}
