# libevent-delrace: one build with libevent-delnowait's fault (event_del
# does not wait for a callback running in another thread), two timings of
# the application's cancel: after the job's callback finished (good: 300
# ms after its start; it works 200 ms) or while it runs (bad: 50 ms): only
# then does the application retire the record under the callback. Same
# code in both runs (README.md argues the ground truth)
PKG=libevent
KIND=input
TRUTH_DIVERGE='^on_job$'
TRUTH_CAUSE='^event_del_nolock_$'
TAGS='thread race'
SHARES=libevent-delnowait
SINGLE_THREADED=0

# tests/realbugs/pkgs/libevent.sh's build, with libevent-delnowait's fault
# applied first, and that case's application
build() {
    patch -s -p1 <"$CASE/../libevent-delnowait/fault.patch" || return 1
    APP=$CASE/../libevent-delnowait/app.c
    libevent_build "$@"
}

run_good() { "$1/app" 300; }
run_bad() { "$1/app" 050; }

needs() {
    command -v cmake >/dev/null 2>&1 || { echo "needs cmake"; exit 1; }
}
