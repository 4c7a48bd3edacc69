# nng-waitrace: one build with nng-waitearly's fault (nng's taskq thread
# wakes nng_aio_wait before it runs the aio's callback), two timings of
# the application: 500 ms of its own work before it waits (the callbacks
# are done) or none (it waits, is woken too early, reads unwritten
# results). Same code in both runs (README.md argues the ground truth)
PKG=nng
KIND=input
TRUTH_DIVERGE='^nni_task_wait$'
TRUTH_CAUSE='^nni_taskq_thread$'
TAGS='thread order'
SINGLE_THREADED=0

# tests/realbugs/pkgs/nng.sh's build with the fault (this folder's
# fault.patch, nng-waitearly's) applied first
build() {
    patch -s -p1 <"$CASE/fault.patch" || return 1
    nng_build "$@"
}

# 500 ms of other work before nng_aio_wait (the 20 ms sleeps and the
# 100 ms callbacks are over)
run_good() { "$1/app" 500; }

# none: the main thread waits while the aios sleep
run_bad() { timeout -k 5 30 "$1/app" 000; }
