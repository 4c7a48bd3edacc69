# libevent-delnowait: a fault patch (fault.patch): event_del_nolock_ waits
# for a callback running in another thread only for EVENT_DEL_BLOCK, not
# for event_del's EVENT_DEL_AUTOBLOCK, so event_del returns while the
# event's callback still runs, and the application retires the callback's
# argument under it (README.md argues the ground truth)
PKG=libevent
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^event_del_nolock_$'
TRUTH_CAUSE='^event_del_nolock_$'
TAGS='thread race regression'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/libevent.sh (libevent_build), this folder's app.c

# the cancel 50 ms after the job's callback started (it works 200 ms)
run_good() { "$1/app" 050; }
run_bad() { run_good "$@"; }

needs() {
    command -v cmake >/dev/null 2>&1 || { echo "needs cmake"; exit 1; }
}
