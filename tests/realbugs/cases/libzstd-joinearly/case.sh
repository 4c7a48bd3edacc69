# libzstd-joinearly: a fault patch (fault.patch) that mimics a real
# ordering bug class, "the queue is empty" taken for "the work is done":
# zstd's POOL_joinJobs returns once the workers have taken the jobs, not
# once they finished them, so the application reads results not yet
# written (README.md argues the ground truth)
PKG=libzstd
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^collect$'
TRUTH_CAUSE='^POOL_joinJobs$'
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
