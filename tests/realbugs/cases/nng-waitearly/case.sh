# nng-waitearly: a fault patch (fault.patch) of a real ordering bug class
# (a completion signalled before the work is done): nng's taskq thread
# drops a task's busy count, and wakes nng_aio_wait, before it runs the
# task's callback, so the application reads results the callback has not
# written yet (README.md argues the ground truth)
PKG=nng
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^nni_taskq_thread$'
TRUTH_CAUSE='^nni_taskq_thread$'
TAGS='thread order regression'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/nng.sh

# the main thread waits for both aios at once
run_good() { "$1/app"; }

run_bad() { timeout -k 5 30 "$1/app"; }
