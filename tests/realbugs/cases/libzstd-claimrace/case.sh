# libzstd-claimrace: one build with libzstd-poolclaim's fault (zstd's pool
# worker takes a job off the queue only after running it), two timings of
# the application (the gap between its two POOL_adds): a check-then-act
# race that only the bad run's interleaving loses. Same code in both runs,
# so no code_changed evidence (README.md argues the ground truth)
PKG=libzstd
KIND=input
TRUTH_DIVERGE='^POOL_thread$'
TRUTH_CAUSE='^POOL_thread$'
TAGS='thread race crash'
SINGLE_THREADED=0

# zstd's pool with the fault (this folder's fault.patch, libzstd-poolclaim's), built
# by tests/realbugs/pkgs/libzstd.sh's zstd_pool_build with this folder's app.c
build() {
    patch -s -p1 <"$CASE/fault.patch" || return 1
    zstd_pool_build "$2"
}

# the index job 150 ms after the scan job (the scan, 50 ms, is done)
run_good() {
    "$1/app" 150
}

# 10 ms after it (the scan still runs): SIGSEGV
run_bad() {
    timeout -k 5 30 "$1/app" 10
}
