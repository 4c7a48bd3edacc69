# libevent-delblock: the application's own bug, the lock-order deadlock
# libevent's whatsnew-2.1.txt describes: event_del (without EV_FINALIZE)
# waits for the event's callback when it runs in another thread, and the
# application calls it holding a lock the callback takes. One build
# (Debian's tree), two timings of the cancel: after the callback ended
# (good) or while it runs (bad: deadlock, ended by timeout). README.md
# argues the ground truth
PKG=libevent
KIND=input
TRUTH_DIVERGE='^event_del_nolock_$'
TRUTH_CAUSE='^cancel_job$'
TAGS='thread order hang'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/libevent.sh (with this folder's app.c)

# the cancel 300 ms after the activation (the 100 ms job is done)
run_good() { "$1/app" 300; }

# 50 ms after (the job's callback runs): the bad process never ends by
# itself (README.md); ended after 5 s (SIGTERM, SIGKILL 2 s later), 124
run_bad() { timeout -k 2 5 "$1/app" 050; }

needs() {
    command -v cmake >/dev/null 2>&1 || { echo "needs cmake"; exit 1; }
}
