# libzstd-joinrace: one build with libzstd-joinearly's fault (zstd's
# POOL_joinJobs returns once the jobs are taken, not once they are done),
# two timings of the application (how long it works before POOL_joinJobs):
# an ordering bug that only the bad run's order shows. Same code in both
# runs, so no code_changed evidence (README.md argues the ground truth)
PKG=libzstd
KIND=input
TRUTH_DIVERGE='^collect$'
TRUTH_CAUSE='^POOL_joinJobs$'
TAGS='thread order'
SINGLE_THREADED=0

# zstd's pool with the fault (this folder's fault.patch, libzstd-joinearly's), built
# by tests/realbugs/pkgs/libzstd.sh's zstd_pool_build with this folder's app.c
build() {
    patch -s -p1 <"$CASE/fault.patch" || return 1
    zstd_pool_build "$2"
}

# 200 ms of other work before POOL_joinJobs (the jobs, 50 ms, are done)
run_good() {
    "$1/app" 200
}

# none: POOL_joinJobs returns while both jobs run
run_bad() {
    timeout -k 5 30 "$1/app" 0
}
