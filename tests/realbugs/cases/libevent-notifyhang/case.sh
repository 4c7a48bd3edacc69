# libevent-notifyhang: a fault patch (fault.patch) that mimics a real bug
# class, a lost wake-up: the loop thread's eventfd drain callback leaves
# the base's "notification pending" flag set, so another thread's next
# event_active skips the wake-up and the loop sleeps on with the job
# queued; the bad run hangs and is ended by timeout (README.md argues the
# ground truth)
PKG=libevent
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^evthread_notify_base$'
TRUTH_CAUSE='^evthread_notify_drain_eventfd$'
TAGS='thread race regression hang'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/libevent.sh (with this folder's app.c)

run_good() { "$1/app"; }

# the bad process never ends by itself (README.md): ended after 5 s
# (SIGTERM, SIGKILL 2 s later), status 124
run_bad() { timeout -k 2 5 "$1/app"; }

needs() {
    command -v cmake >/dev/null 2>&1 || { echo "needs cmake"; exit 1; }
}
