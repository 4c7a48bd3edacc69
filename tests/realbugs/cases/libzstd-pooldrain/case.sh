# libzstd-pooldrain: a fault patch (fault.patch) that mimics a real
# ordering bug class, a stop flag honoured before the queue is drained:
# zstd's thread pool worker checks the shutdown flag before the queue, so
# POOL_free() drops jobs still queued (README.md argues the ground truth)
PKG=libzstd
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^POOL_thread$'
TRUTH_CAUSE='^POOL_thread$'
TAGS='thread order regression'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/libzstd.sh's zstd_pool_build (with this folder's app.c)
build() { zstd_pool_build "$2"; }

run_good() {
    "$1/app"
}

run_bad() {
    timeout -k 5 30 "$1/app"
}
