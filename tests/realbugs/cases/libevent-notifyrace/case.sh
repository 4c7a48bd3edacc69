# libevent-notifyrace: one build with libevent-notifyhang's fault (the
# eventfd drain callback leaves the base's "notification pending" flag
# set), two timings of the application's second event_active: while the
# loop thread still runs job 1 (good: the loop is awake and takes job 2 in
# the same pass) or after it went back to sleep (bad: the wake-up is
# skipped, the loop sleeps on, the main thread's join never returns; ended
# by timeout). Same code in both runs (README.md argues the ground truth)
PKG=libevent
KIND=input
TRUTH_DIVERGE='^event_process_active_single_queue$'
TRUTH_CAUSE='^evthread_notify_drain_eventfd$'
TAGS='thread race hang'
SINGLE_THREADED=0

# tests/realbugs/pkgs/libevent.sh's build, with the fault applied first
build() {
    patch -s -p1 <"$CASE/fault.patch" || return 1
    libevent_build "$@"
}

# job 2 50 ms after job 1 (job 1's 100 ms callback still runs)
run_good() { "$1/app" 050; }

# 300 ms after (the loop sleeps again): the bad process never ends by
# itself (README.md); ended after 5 s (SIGTERM, SIGKILL 2 s later), 124
run_bad() { timeout -k 2 5 "$1/app" 300; }

needs() {
    command -v cmake >/dev/null 2>&1 || { echo "needs cmake"; exit 1; }
}
