# nng-wakeone: a fault patch (fault.patch) of a real lost-wake-up class (a
# broadcast made a signal): nng's taskq thread wakes one of a task's
# waiters; with two threads in nng_aio_wait on one aio, the other is never
# woken and the run hangs (README.md argues the ground truth)
PKG=nng
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^nni_taskq_thread$'
TRUTH_CAUSE='^nni_taskq_thread$'
TAGS='thread race regression hang'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/nng.sh

run_good() { "$1/app"; }

# hangs (README.md): ended after 5 s (SIGTERM, SIGKILL 2 s later), 124
run_bad() { timeout -k 2 5 "$1/app"; }
