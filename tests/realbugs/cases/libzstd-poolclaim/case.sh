# libzstd-poolclaim: a fault patch (fault.patch) that mimics a real race
# class, a check-then-act split over two critical sections: zstd's thread
# pool worker reads the job at the queue's head under the lock but takes
# it off the queue only after running it, so a second worker runs the same
# job again and the queue's head later passes its tail (README.md argues
# the ground truth)
PKG=libzstd
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^POOL_thread$'
TRUTH_CAUSE='^POOL_thread$'
TAGS='thread race regression crash'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/libzstd.sh's zstd_pool_build (with this folder's app.c)
build() { zstd_pool_build "$2"; }

run_good() {
    "$1/app"
}

# the bad run ends on SIGSEGV (a worker calls the NULL job past the
# queue's tail); the time-out only guards against a schedule that hangs
run_bad() {
    timeout -k 5 30 "$1/app"
}
