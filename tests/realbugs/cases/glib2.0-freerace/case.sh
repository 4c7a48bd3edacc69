# glib2.0-freerace: one build with glib2.0-poolwait's fault (a worker
# leaving a pool being freed wakes the waiter only when threads wait in the
# queue), two timings of the application's g_thread_pool_free: 300 ms
# after the pushes (the tasks are done, the workers idle: free does not
# wait) or right after them (free waits; the workers' end is never
# signalled: the run hangs). Same code in both runs (README.md argues the
# ground truth)
PKG=glib2.0
KIND=input
TRUTH_DIVERGE='^g_thread_pool_free$'
TRUTH_CAUSE='^g_thread_pool_thread_proxy$'
TAGS='thread order hang'
SINGLE_THREADED=0

# tests/realbugs/pkgs/glib2.0.sh's build, with the fault (this folder's
# fault.patch, glib2.0-poolwait's) applied first
build() {
    patch -s -p1 <"$CASE/fault.patch" || return 1
    glib_build "$@"
}

# the pool freed 300 ms after the pushes (the 100 ms tasks are done)
run_good() { "$1/app" 300; }

# right after them: hangs (README.md); ended after 5 s (SIGTERM, SIGKILL
# 2 s later), status 124
run_bad() { timeout -k 2 5 "$1/app" 000; }
