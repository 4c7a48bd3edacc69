# libuv1-lostwake: a fault patch (fault.patch) that mimics a real bug class,
# a lost wake-up: the thread pool's post() signals an idle worker only when
# more than one is idle; with one worker, a job queued while it sleeps is
# never run (README.md argues the ground truth)
PKG=libuv1
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^post$'
TRUTH_CAUSE='^post$'
TAGS='thread race regression hang'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/libuv1.sh (with this folder's app.c)

run_good() {
    UV_THREADPOOL_SIZE=1 "$1/app"
}

# the bad process does not end by itself (README.md: at exit libuv's
# pool cleanup posts its exit message with the same post(), the worker
# never wakes, the join waits): ended after 15 s (SIGTERM; SIGKILL 5 s
# later if the SIGTERM exit hangs in the same join), status 124 or 137
run_bad() {
    UV_THREADPOOL_SIZE=1 timeout -k 5 15 "$1/app"
}
