# glib2.0-poolwait: a fault patch (fault.patch) that mimics a real bug
# class, an off-by-one comparison on a wake-up's condition: a worker that
# leaves a pool being freed wakes the thread waiting in g_thread_pool_free
# only when the queue's length is below 0 (threads waiting in it), not when
# it is 0: after the last task nobody is woken; the bad run hangs (README.md
# argues the ground truth)
PKG=glib2.0
KIND=patch
PATCH=fault.patch
REVERSE=1
TRUTH_DIVERGE='^g_thread_pool_thread_proxy$'
TRUTH_CAUSE='^g_thread_pool_thread_proxy$'
TAGS='thread order regression hang'
SINGLE_THREADED=0

# build: tests/realbugs/pkgs/glib2.0.sh (with this folder's app.c)

# the pool freed right after the two pushes, while the tasks run
run_good() { "$1/app" 000; }

# the bad process never ends by itself (README.md): ended after 5 s
# (SIGTERM, SIGKILL 2 s later), status 124
run_bad() { timeout -k 2 5 "$1/app" 000; }
