# libzstd-joinhang: one build of zstd's thread pool with a fault patch
# (fault.patch: POOL_thread signals queuePushCond after a job only when
# the pool's intended queue size was 0, a literal reading of the comment
# above it), two timings of the application: POOL_joinJobs called after
# the jobs ended (good: no wait) or while they run (bad: the joiner's
# wake-up is lost, it waits forever; the run is ended by timeout). Same
# code in both runs (README.md argues the ground truth)
PKG=libzstd
KIND=input
TRUTH_DIVERGE='^POOL_joinJobs$'
TRUTH_CAUSE='^POOL_thread$'
TAGS='thread order hang'
SINGLE_THREADED=0

# zstd's pool with the fault, built by tests/realbugs/pkgs/libzstd.sh's
# zstd_pool_build with this folder's app.c
build() {
    patch -s -p1 <"$CASE/fault.patch" || return 1
    zstd_pool_build "$2"
}

# POOL_joinJobs 200 ms after the adds (both 50 ms jobs are done)
run_good() {
    "$1/app" 200
}

# at once: the bad process never ends by itself (README.md); ended after
# 5 s (SIGTERM, SIGKILL 2 s later), status 124
run_bad() {
    timeout -k 2 5 "$1/app" 000
}
