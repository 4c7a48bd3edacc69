# leveldb-compacthang: a fault patch (fault.patch) that mimics a real bug
# class, a lost wake-up: DBImpl::BackgroundCall signals the end of its job
# only while the database shuts down, so a writer waiting in
# MakeRoomForWrite for the immutable memtable's flush is never woken; the
# bad run hangs and is ended by timeout (README.md argues the ground truth)
PKG=leveldb
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='DBImpl::BackgroundCall\('
TRUTH_CAUSE='DBImpl::BackgroundCall\('
# values: port::CondVar's members are inlined (nm), the first traced call
# that differs is the writer's after its wait (README.md)
TRUTH_DIVERGE_VALUES='DBImpl::MakeRoomForWrite\('
TAGS='cxx thread race regression hang'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/leveldb.sh (with this folder's ldb.cc)

run_good() { rm -rf db; "$1/ldb"; }

# the bad process never ends by itself (README.md): ended after 10 s
# (SIGTERM, SIGKILL 2 s later), status 124
run_bad() { rm -rf db; timeout -k 2 10 "$1/ldb"; }

needs() {
    command -v cmake >/dev/null 2>&1 || { echo "needs cmake"; exit 1; }
}
